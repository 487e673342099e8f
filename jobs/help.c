/* --cmdhelp, --enghelp and the job options' help and completion lists, from the tables. */
#include "jobs/help.h"

#include <errno.h>
#include <string.h>

#include "base/argopt.h"
#include "jobs/options.h"

#define HELP_COLS	80	/* wrap help text before this column */
#define HELP_INDENT	29	/* where the help of an option starts */

const struct argopt_page help_page = { HELP_INDENT, HELP_COLS, 2, true };

static const char *metavar_of(const struct opt_def *o)
{
	static const char *const names[] = {
		[OPT_STR] = "TEXT", [OPT_STR_LIST] = "LIST", [OPT_UINT] = "N", [OPT_U64] = "N",
		[OPT_SIZE] = "SIZE", [OPT_SIZE_PCT] = "SIZE", [OPT_RANGE] = "SIZE",
		[OPT_TIME] = "TIME", [OPT_TIME_RANGE] = "TIME", [OPT_BOOL] = "0|1",
		[OPT_BOOL_INV] = "0|1", [OPT_ENUM] = "VALUE", [OPT_CUSTOM] = "VALUE",
		[OPT_REFUSED] = "VALUE", [OPT_DEPRECATED] = "VALUE",
	};

	return names[o->type];
}

void help_option_lines(FILE *f, const char *const *names)
{
	char lead[64];

	for (const char *const *n = names; *n; n++) {
		const struct opt_def *o = opt_find(job_options, *n);

		if (!o)
			continue;
		snprintf(lead, sizeof(lead), "  --%s=%s", o->name, metavar_of(o));
		argopt_entry(f, &help_page, lead, o->help);
	}
}

static void put_field(FILE *f, const char *label, const char *value)
{
	char lead[HELP_INDENT + 32];

	snprintf(lead, sizeof(lead), "%*s%s: ", HELP_INDENT, "", label);
	fputs(lead, f);
	argopt_wrap(f, (unsigned)strlen(lead), HELP_INDENT + 2, HELP_COLS, value);
}

bool help_value_names(const struct opt_enum *vals, unsigned i, char *buf, size_t len)
{
	size_t n = 0;

	for (unsigned k = 0; k < i; k++)
		if (vals[k].value == vals[i].value)
			return false;
	buf[0] = '\0';
	for (unsigned k = i; vals[k].name && n < len; k++)
		if (vals[k].value == vals[i].value)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
					      vals[k].name);
	return true;
}

/*
 * Whether engine e's option o was met in an engine listed before it: an option shared by
 * engines (cmdprio_* of libaio and io_uring) is listed once, naming them all.
 */
static bool listed_before(const struct engine_info *engines, unsigned e, const char *name)
{
	for (unsigned k = 0; k < e; k++)
		if (opt_find(engines[k].options, name))
			return true;
	return false;
}

/* "libaio" or "libaio, io_uring": the engines whose tables hold o. */
static void owners(char *buf, size_t len, const struct opt_def *o,
		   const struct engine_info *engines, unsigned nengines)
{
	size_t n = 0;

	snprintf(buf, len, "%s", o->engine);
	for (unsigned e = 0; e < nengines && engines; e++) {
		if (!opt_find(engines[e].options, o->name))
			continue;
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s", n ? ", " : "",
				      engines[e].name);
	}
}

static void print_option(FILE *f, const struct opt_def *o, const struct engine_info *engines,
			 unsigned nengines)
{
	char desc[512], lead[96], names[48];
	int width = 0;

	opt_describe(o, desc, sizeof(desc));
	argopt_entry(f, &help_page, o->name, o->help);
	if (o->alias)
		put_field(f, "alias", o->alias);
	put_field(f, "type", desc);
	if (o->def)
		put_field(f, "default", o->def);
	if (o->refused)
		put_field(f, "refused", o->refused);
	if (o->noop)
		put_field(f, "accepts only", o->noop);
	if (o->engine) {
		owners(names, sizeof(names), o, engines, nengines);
		snprintf(desc, sizeof(desc), "%s only", names);
		put_field(f, "ioengine", desc);
	}
	if (!o->vals)
		return;
	for (unsigned i = 0; o->vals[i].name; i++)
		if (help_value_names(o->vals, i, names, sizeof(names)) &&
		    (int)strlen(names) > width)
			width = (int)strlen(names);
	fprintf(f, "%*svalues:\n", HELP_INDENT, "");
	for (unsigned i = 0; o->vals[i].name; i++) {
		if (!help_value_names(o->vals, i, names, sizeof(names)))
			continue;
		snprintf(lead, sizeof(lead), "%*s%-*s  ", HELP_INDENT + 2, "", width, names);
		fputs(lead, f);
		argopt_wrap(f, (unsigned)strlen(lead), (unsigned)strlen(lead), HELP_COLS,
			    o->vals[i].help);
	}
}

int help_options(FILE *f, const char *name, const struct engine_info *engines,
		 unsigned nengines)
{
	const struct opt_def *o;

	if (!name || !strcmp(name, "all")) {
		for (o = job_options; o->name; o++)
			print_option(f, o, engines, nengines);
		for (unsigned e = 0; e < nengines; e++)
			for (o = engines[e].options; o && o->name; o++)
				if (!listed_before(engines, e, o->name))
					print_option(f, o, engines, nengines);
		return 0;
	}
	o = opt_find(job_options, name);
	for (unsigned e = 0; !o && e < nengines; e++)
		o = opt_find(engines[e].options, name);
	if (!o)
		return -ENOENT;
	print_option(f, o, engines, nengines);
	return 0;
}

int help_engines(FILE *f, const char *name, const struct engine_info *engines,
		 unsigned nengines)
{
	for (unsigned e = 0; e < nengines; e++) {
		const struct engine_info *ei = &engines[e];
		const char *what = ei->available ? ei->help : ei->why_missing;

		if (!name) {
			fprintf(f, "%-10s %s\n", ei->name, what);
			continue;
		}
		if (strcmp(ei->name, name))
			continue;
		fprintf(f, "%s: %s\n", ei->name, what);
		for (const struct opt_def *o = ei->options; o && o->name; o++)
			print_option(f, o, engines, nengines);
		return 0;
	}
	return name ? -ENOENT : 0;
}

/* "\tseparate" after an option whose value may be the next argument (--bs 4k, as fio). */
static void complete_table(FILE *f, const struct opt_def *table, const char *suffix)
{
	for (const struct opt_def *o = table; o && o->name; o++) {
		bool next = o->type != OPT_BOOL && o->type != OPT_BOOL_INV && !o->bare_ok;
		const char *sep = next ? "\tseparate" : "";

		fprintf(f, "--%s%s%s\n", o->name, suffix, sep);
		if (o->alias)
			fprintf(f, "--%s%s%s\n", o->alias, suffix, sep);
	}
}

void help_complete_job_options(FILE *f, const struct engine_info *engines, unsigned nengines)
{
	complete_table(f, job_options, "=");
	for (unsigned e = 0; e < nengines; e++)
		if (engines[e].available)
			for (const struct opt_def *o = engines[e].options; o && o->name; o++)
				if (!listed_before(engines, e, o->name))
					fprintf(f, "--%s=\n", o->name);
}

void help_option_names(FILE *f, const char *suffix, const struct engine_info *engines,
		       unsigned nengines)
{
	for (const struct opt_def *o = job_options; o->name; o++)
		fprintf(f, "%s%s\n", o->name, suffix);
	for (unsigned e = 0; e < nengines; e++)
		for (const struct opt_def *o = engines[e].options; o && o->name; o++)
			if (!listed_before(engines, e, o->name))
				fprintf(f, "%s%s\n", o->name, suffix);
}

int help_option_values(FILE *f, const char *name, const struct engine_info *engines,
		       unsigned nengines)
{
	const struct opt_def *o = opt_find(job_options, name);

	for (unsigned e = 0; !o && e < nengines; e++)
		o = opt_find(engines[e].options, name);
	if (!o)
		return -ENOENT;
	if (!strcmp(o->name, "ioengine"))	/* a text option whose values are the catalog */
		for (unsigned e = 0; e < nengines; e++)
			if (engines[e].available)
				fprintf(f, "%s\n", engines[e].name);
	for (const struct opt_enum *v = o->vals; v && v->name; v++)
		fprintf(f, "%s\n", v->name);
	if (o->type == OPT_BOOL || o->type == OPT_BOOL_INV)
		fprintf(f, "0\n1\n");
	return 0;
}
