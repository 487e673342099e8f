/* --help, --version, --cmdhelp, --enghelp and the completion lists, from the tables. */
#include "jobs/help.h"

#include <errno.h>
#include <string.h>

#include "config.h"
#include "jobs/options.h"
#include "output/report_formats.h"

#define HELP_COLS	80	/* wrap help text before this column */
#define HELP_INDENT	29	/* where the help of an option starts */

#define SWITCH(n, i, a, m, h, ...) \
	{ .name = n, .id = i, .arg = a, .metavar = m, .help = h, __VA_ARGS__ }

/* In the order --help and the man page list them. */
const struct cli_opt cli_options[] = {
	SWITCH("output", CLI_OUTPUT, CLI_ARG_REQUIRED, "FILE", "write the report to FILE"),
	SWITCH("output-format", CLI_OUTPUT_FORMAT, CLI_ARG_REQUIRED, "FORMAT",
	       "comma-separated for several", .value_at = report_format_at),
	SWITCH("minimal", CLI_MINIMAL, CLI_ARG_NONE, NULL, "terse output (--output-format=terse)"),
	SWITCH("set", CLI_SET, CLI_ARG_REQUIRED, "KEY=VALUE",
	       "set a job option in every job, over what the job files say (repeatable)"),
	SWITCH("section", CLI_SECTION, CLI_ARG_REQUIRED, "NAME",
	       "run only the job NAME (repeatable)"),
	SWITCH("sweep", CLI_SWEEP, CLI_ARG_REQUIRED, "KEY=V1,V2,...",
	       "run the jobs once per value (repeatable: every combination, the first KEY "
	       "varying slowest)"),
	SWITCH("label", CLI_LABEL, CLI_ARG_REQUIRED, "TEXT",
	       "name this run (a target or configuration) in --results"),
	SWITCH("results", CLI_RESULTS, CLI_ARG_REQUIRED, "FILE.jsonl",
	       "append each run's options and results to FILE.jsonl"),
	SWITCH("resume", CLI_RESUME, CLI_ARG_NONE, NULL,
	       "skip the sweep's runs that --results already holds"),
	SWITCH("eta", CLI_ETA, CLI_ARG_REQUIRED, "WHEN",
	       "the status line on stderr: auto (on a terminal), always or never",
	       .values = "auto|always|never"),
	SWITCH("eta-interval", CLI_ETA_INTERVAL, CLI_ARG_REQUIRED, "TIME",
	       "rewrite the status line this often (default 1s, at least 250ms; "
	       "plain numbers in milliseconds)"),
	SWITCH("eta-newline", CLI_ETA_NEWLINE, CLI_ARG_REQUIRED, "TIME",
	       "start a new status line this often (plain numbers in seconds)"),
	SWITCH("status-interval", CLI_STATUS_INTERVAL, CLI_ARG_REQUIRED, "TIME",
	       "print each interval's results to the report this often (plain numbers in "
	       "seconds)"),
	SWITCH("parse-only", CLI_PARSE_ONLY, CLI_ARG_NONE, NULL,
	       "check the job files and options, run nothing"),
	SWITCH("readonly", CLI_READONLY, CLI_ARG_NONE, NULL,
	       "refuse jobs that write, trim or lay out files"),
	SWITCH("cmdhelp", CLI_CMDHELP, CLI_ARG_OPTIONAL, "OPTION|all",
	       "describe a job option, or all of them"),
	SWITCH("enghelp", CLI_ENGHELP, CLI_ARG_OPTIONAL, "ENGINE",
	       "list the ioengines, or describe one and its own options"),
	SWITCH("version", CLI_VERSION, CLI_ARG_NONE, NULL, "print the version", .alias = "v"),
	SWITCH("help", CLI_HELP, CLI_ARG_NONE, NULL,
	       "print the usage, the common options and the exit status", .alias = "h"),
	SWITCH("complete-options", CLI_COMPLETE_OPTIONS, CLI_ARG_NONE, NULL,
	       "the words bash completion offers", .hidden = true),
	SWITCH("complete-values", CLI_COMPLETE_VALUES, CLI_ARG_REQUIRED, "OPTION",
	       "the values bash completion offers for OPTION", .hidden = true),
	{ NULL },
};

/* The job options --help shows; --cmdhelp=all has the rest. */
static const char *const common_options[] = {
	"name", "filename", "directory", "rw", "bs", "size", "ioengine", "iodepth", "direct",
	"numjobs", "runtime", "time_based", "group_reporting", NULL,
};

const struct cli_opt *cli_find(const char *name)
{
	for (const struct cli_opt *o = cli_options; o->name; o++)
		if (!strcmp(o->name, name) || (o->alias && !strcmp(o->alias, name)))
			return o;
	return NULL;
}

/* Write text from column col, wrapping before HELP_COLS onto lines indented by indent. */
static void put_wrapped(FILE *f, unsigned col, unsigned indent, const char *text)
{
	do {
		size_t len = strlen(text), room = col + 20 < HELP_COLS ? HELP_COLS - col : 20;
		size_t n = len;

		if (len > room) {
			for (n = room; n && text[n] != ' '; n--)
				;
			if (!n)		/* one word longer than the room: let it overflow */
				n = strcspn(text, " ");
		}
		fprintf(f, "%.*s\n", (int)n, text);
		text += strspn(text + n, " ") + n;
		if (*text)
			fprintf(f, "%*s", indent, "");
		col = indent;
	} while (*text);
}

/* "  --name=METAVAR" padded to the help column, then the help. */
static void put_entry(FILE *f, const char *lead, const char *help)
{
	int n = fprintf(f, "%s", lead);

	if (n < 0)
		return;
	if ((unsigned)n + 1 >= HELP_INDENT) {
		fputc('\n', f);
		n = 0;
	}
	fprintf(f, "%*s", HELP_INDENT - n, "");
	put_wrapped(f, HELP_INDENT, HELP_INDENT, help);
}

const char *cli_help(const struct cli_opt *o, char *buf, size_t len)
{
	const char *name, *help;
	size_t at = 0;

	if (!o->value_at)
		return o->help;
	for (unsigned i = 0; (name = o->value_at(i, &help)) && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", !i ? "" :
				       o->value_at(i + 1, &help) ? ", " : " or ", name);
	if (at < len)
		snprintf(buf + at, len - at, "; %s", o->help);
	return buf;
}

const char *cli_value_sep(const struct cli_opt *o)
{
	if (!o->metavar)
		return "";
	return o->arg == CLI_ARG_REQUIRED && strchr(o->metavar, '=') ? " " : "=";
}

static const char *metavar_of(const struct opt_def *o)
{
	static const char *const names[] = {
		[OPT_STR] = "TEXT", [OPT_STR_LIST] = "LIST", [OPT_UINT] = "N", [OPT_U64] = "N",
		[OPT_SIZE] = "SIZE", [OPT_SIZE_PCT] = "SIZE", [OPT_RANGE] = "SIZE",
		[OPT_TIME] = "TIME", [OPT_TIME_RANGE] = "TIME", [OPT_BOOL] = "0|1",
		[OPT_BOOL_INV] = "0|1", [OPT_ENUM] = "VALUE", [OPT_CUSTOM] = "VALUE",
	};

	return names[o->type];
}

void help_usage(FILE *f)
{
	char lead[64], help[256];

	fprintf(f, "usage: iojob [options] [JOBFILE ...]\n"
		"       iojob [options] --name=JOB --OPTION=VALUE ... [--name=JOB2 ...]\n"
		"       iojob report FILE.jsonl... [options]    (iojob report --help)\n"
		"       iojob compare SIDE SIDE... [options]    (iojob compare --help)\n\n"
		"Runs the jobs of fio-style job files (or of the command line) and prints a\n"
		"fio-style report. '-' reads a job file from stdin. report prints tables and\n"
		"charts of what --results kept; compare sets targets side by side with ratios.\n"
		"\nOptions:\n");
	for (const struct cli_opt *o = cli_options; o->name; o++) {
		if (o->hidden)
			continue;
		snprintf(lead, sizeof(lead), "  %s%s%s--%s%s%s%s%s", o->alias ? "-" : "",
			 o->alias ? o->alias : "", o->alias ? ", " : "", o->name,
			 o->arg == CLI_ARG_OPTIONAL ? "[" : "", cli_value_sep(o),
			 o->metavar ? o->metavar : "", o->arg == CLI_ARG_OPTIONAL ? "]" : "");
		put_entry(f, lead, cli_help(o, help, sizeof(help)));
	}
	fprintf(f, "\nCommon job options, OPTION=VALUE in a job file or --OPTION=VALUE on the\n"
		"command line (before the first --name, they apply to every job):\n");
	for (const char *const *n = common_options; *n; n++) {
		const struct opt_def *o = opt_find(job_options, *n);

		if (!o)
			continue;
		snprintf(lead, sizeof(lead), "  --%s=%s", o->name, metavar_of(o));
		put_entry(f, lead, o->help);
	}
	fprintf(f, "\nExit status: 0 every job ran, 1 a job failed, 2 a usage or job-file error,\n"
		"128+N stopped by signal N.\n\n"
		"Every job option: iojob --cmdhelp=all. The manual: man iojob (in a build\n"
		"tree: man -l build/doc/iojob.1).\n");
}

void help_version(FILE *f)
{
	fprintf(f, "iojob %s\n", IOJOB_VERSION);
}

static void put_field(FILE *f, const char *label, const char *value)
{
	char lead[HELP_INDENT + 32];

	snprintf(lead, sizeof(lead), "%*s%s: ", HELP_INDENT, "", label);
	fputs(lead, f);
	put_wrapped(f, (unsigned)strlen(lead), HELP_INDENT + 2, value);
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

static void print_option(FILE *f, const struct opt_def *o)
{
	char desc[512], lead[96], names[48];
	int width = 0;

	opt_describe(o, desc, sizeof(desc));
	put_entry(f, o->name, o->help);
	if (o->alias)
		put_field(f, "alias", o->alias);
	put_field(f, "type", desc);
	if (o->def)
		put_field(f, "default", o->def);
	if (o->engine) {
		snprintf(desc, sizeof(desc), "%s only", o->engine);
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
		put_wrapped(f, (unsigned)strlen(lead), (unsigned)strlen(lead), o->vals[i].help);
	}
}

int help_options(FILE *f, const char *name, const struct engine_info *engines,
		 unsigned nengines)
{
	const struct opt_def *o;

	if (!name || !strcmp(name, "all")) {
		for (o = job_options; o->name; o++)
			print_option(f, o);
		for (unsigned e = 0; e < nengines; e++)
			for (o = engines[e].options; o && o->name; o++)
				print_option(f, o);
		return 0;
	}
	o = opt_find(job_options, name);
	for (unsigned e = 0; !o && e < nengines; e++)
		o = opt_find(engines[e].options, name);
	if (!o)
		return -ENOENT;
	print_option(f, o);
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
			print_option(f, o);
		return 0;
	}
	return name ? -ENOENT : 0;
}

static void complete_table(FILE *f, const struct opt_def *table, const char *suffix)
{
	for (const struct opt_def *o = table; o && o->name; o++) {
		fprintf(f, "--%s%s\n", o->name, suffix);
		if (o->alias)
			fprintf(f, "--%s%s\n", o->alias, suffix);
	}
}

void help_complete_options(FILE *f, const struct engine_info *engines, unsigned nengines)
{
	for (const struct cli_opt *o = cli_options; o->name; o++) {
		if (o->hidden)
			continue;
		if (o->arg != CLI_ARG_REQUIRED)
			fprintf(f, "--%s\n", o->name);
		if (o->arg != CLI_ARG_NONE)
			fprintf(f, "--%s=%s\n", o->name,
				o->arg == CLI_ARG_REQUIRED ? "\tseparate" : "");
	}
	complete_table(f, job_options, "=");
	for (unsigned e = 0; e < nengines; e++)
		if (engines[e].available)
			complete_table(f, engines[e].options, "=");
}

/* Print a '|'-separated list one value per line. */
static void put_values(FILE *f, const char *list)
{
	for (const char *p = list; *p; ) {
		size_t n = strcspn(p, "|");

		fprintf(f, "%.*s\n", (int)n, p);
		p += n + (p[n] == '|');
	}
}

static int complete_switch(FILE *f, const struct cli_opt *c, const struct engine_info *engines,
			   unsigned nengines)
{
	const char *name, *help;

	if (c->values)
		put_values(f, c->values);
	for (unsigned i = 0; c->value_at && (name = c->value_at(i, &help)); i++)
		fprintf(f, "%s\n", name);
	if (c->id == CLI_SET || c->id == CLI_CMDHELP) {
		const char *suffix = c->id == CLI_SET ? "=" : "";

		if (c->id == CLI_CMDHELP)
			fprintf(f, "all\n");
		for (const struct opt_def *o = job_options; o->name; o++)
			fprintf(f, "%s%s\n", o->name, suffix);
		for (unsigned e = 0; e < nengines; e++)
			for (const struct opt_def *o = engines[e].options; o && o->name; o++)
				fprintf(f, "%s%s\n", o->name, suffix);
	}
	if (c->id == CLI_ENGHELP)
		for (unsigned e = 0; e < nengines; e++)
			fprintf(f, "%s\n", engines[e].name);
	return 0;
}

int help_complete_values(FILE *f, const char *name, const struct engine_info *engines,
			 unsigned nengines)
{
	const struct cli_opt *c = cli_find(name);
	const struct opt_def *o;

	if (c)
		return complete_switch(f, c, engines, nengines);
	o = opt_find(job_options, name);
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
