/* The man page's references in scdoc, from the switch table, the option table and the engines. */
#include "jobs/help.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "jobs/options.h"

/* Headings of the job option reference, each above the first option of its topic. */
static const struct {
	const char *first;
	const char *title;
} topics[] = {
	{ "name", "Identity" },
	{ "filename", "Files and devices" },
	{ "rw", "Access pattern" },
	{ "ioengine", "Engine, depth and synchronisation" },
	{ "runtime", "Time and rate" },
	{ "numjobs", "Jobs and groups" },
	{ "zero_buffers", "Write buffers" },
	{ "kb_base", "Reporting" },
	{ "verify", "Data verification" },
	{ "write_lat_log", "Log files" },
};

/* Text with scdoc's markup characters escaped. */
static void put_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '*' || *s == '_' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

static void put_switch(FILE *f, const struct cli_opt *o)
{
	const char *name, *value_help;
	char help[256];

	if (o->alias)
		fprintf(f, "*-%s*, ", o->alias);
	fprintf(f, "*--");
	put_text(f, o->name);
	fputc('*', f);
	if (o->metavar) {
		fprintf(f, "%s%s_", o->arg == CLI_ARG_OPTIONAL ? "[" : "", cli_value_sep(o));
		put_text(f, o->metavar);
		fprintf(f, "_%s", o->arg == CLI_ARG_OPTIONAL ? "]" : "");
	}
	fprintf(f, "\n\t");
	put_text(f, cli_help(o, help, sizeof(help)));
	fprintf(f, ".\n\n");
	for (unsigned i = 0; o->value_at && (name = o->value_at(i, &value_help)); i++) {
		fprintf(f, "\t- *");
		put_text(f, name);
		fprintf(f, "*: ");
		put_text(f, value_help);
		fprintf(f, "\n%s", o->value_at(i + 1, &value_help) ? "" : "\n");
	}
}

static void put_option(FILE *f, const struct opt_def *o)
{
	char desc[512];
	const char *type = desc;

	opt_describe(o, desc, sizeof(desc));
	if (o->type == OPT_ENUM && !strncmp(type, "one of ", 7))
		type += 7;
	fputc('*', f);
	put_text(f, o->name);
	fprintf(f, "*=_");
	put_text(f, type);
	fputc('_', f);
	if (o->def) {
		fprintf(f, " (default: *");
		put_text(f, o->def);
		fprintf(f, "*)");
	}
	fprintf(f, "\n\t");
	put_text(f, o->help);
	fputc('.', f);
	if (o->alias) {
		fprintf(f, " Also spelled *");
		put_text(f, o->alias);
		fprintf(f, "*.");
	}
	if (o->engine)
		fprintf(f, " Only with *ioengine=%s*.", o->engine);
	fprintf(f, "\n\n");
	if (!o->vals)
		return;
	for (unsigned i = 0; o->vals[i].name; i++) {
		char names[128];

		if (!help_value_names(o->vals, i, names, sizeof(names)))
			continue;
		fprintf(f, "\t- *");
		put_text(f, names);
		fprintf(f, "*: ");
		put_text(f, o->vals[i].help);
		fputc('\n', f);
	}
	fputc('\n', f);
}

static void put_switches(FILE *f)
{
	for (const struct cli_opt *o = cli_options; o->name; o++)
		if (!o->hidden)
			put_switch(f, o);
}

static void put_engines(FILE *f, const struct engine_info *engines, unsigned nengines)
{
	for (unsigned e = 0; e < nengines; e++) {
		const struct engine_info *ei = &engines[e];

		fprintf(f, "*%s*\n\t", ei->name);
		put_text(f, ei->available ? ei->help : ei->why_missing);
		fprintf(f, ".");
		for (const struct opt_def *o = ei->options; o && o->name; o++) {
			fprintf(f, "%s*", o == ei->options ? " Its own options: " : ", ");
			put_text(f, o->name);
			fprintf(f, "*%s", o[1].name ? "" : " (under JOB OPTIONS).");
		}
		fprintf(f, "\n\n");
	}
}

static void put_job_options(FILE *f, const struct engine_info *engines, unsigned nengines)
{
	size_t t = 0;

	for (const struct opt_def *o = job_options; o->name; o++) {
		if (t < sizeof(topics) / sizeof(topics[0]) && !strcmp(o->name, topics[t].first))
			fprintf(f, "## %s\n\n", topics[t++].title);
		put_option(f, o);
	}
	for (unsigned e = 0; e < nengines; e++) {
		if (!engines[e].options || !engines[e].options->name)
			continue;
		fprintf(f, "## Options of the %s engine\n\n", engines[e].name);
		for (const struct opt_def *o = engines[e].options; o->name; o++)
			put_option(f, o);
	}
}

/* The line with every "@VERSION@" replaced. */
static void put_line(FILE *f, const char *line)
{
	const char *at;

	while ((at = strstr(line, "@VERSION@"))) {
		fprintf(f, "%.*s%s", (int)(at - line), line, IOJOB_VERSION);
		line = at + strlen("@VERSION@");
	}
	fputs(line, f);
}

int help_man_page(FILE *out, FILE *in, const struct engine_info *engines, unsigned nengines)
{
	char *line = NULL;
	size_t cap = 0;
	int ret = 0;

	while (getline(&line, &cap, in) >= 0) {
		if (!strcmp(line, "@SWITCHES@\n"))
			put_switches(out);
		else if (!strcmp(line, "@ENGINES@\n"))
			put_engines(out, engines, nengines);
		else if (!strcmp(line, "@JOB_OPTIONS@\n"))
			put_job_options(out, engines, nengines);
		else
			put_line(out, line);
	}
	if (ferror(in))
		ret = -EIO;
	free(line);
	if (fflush(out) || ferror(out))
		ret = -EIO;
	return ret;
}
