/*
 * The help of the command line from its switch table: --help, --version, the completion
 * lists and the man page's switch reference; the job options' part comes from jobs/help.h.
 */
#include "cli/cli.h"

#include <string.h>

#include "config.h"
#include "jobs/help.h"
#include "jobs/options.h"

/* The job options --help shows; --cmdhelp=all has the rest. */
static const char *const common_options[] = {
	"name", "filename", "directory", "rw", "bs", "size", "ioengine", "iodepth", "direct",
	"numjobs", "runtime", "time_based", "group_reporting", NULL,
};

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

/* fio's switches iojob refuses, each saying what to use instead: one list, wrapped. */
static void put_refused(FILE *f)
{
	size_t col = 0;

	fputs("\nRefused, with what to use instead (fio's, not in iojob):\n", f);
	for (const struct cli_opt *o = cli_options; o->name; o++) {
		if (!o->refuse)
			continue;
		if (col && col + strlen(o->name) + 4 > 78) {
			fputs("\n", f);
			col = 0;
		}
		col += (size_t)fprintf(f, "%s--%s", col ? " " : "  ", o->name);
	}
	fputs("\n", f);
}

void cli_usage(FILE *f)
{
	char lead[64], help[256];

	fprintf(f, "usage: iojob [options] [JOBFILE ...]\n"
		"       iojob [options] --name=JOB --OPTION=VALUE ... [--name=JOB2 ...]\n"
		"       iojob report FILE.jsonl... [options]    (iojob report --help)\n"
		"       iojob compare SIDE SIDE... [options]    (iojob compare --help)\n"
		"       iojob pts TARGET --results DIR [options] (iojob pts --help)\n\n"
		"Runs the jobs of fio-style job files (or of the command line) and prints a\n"
		"fio-style report. '-' reads a job file from stdin. report prints tables and\n"
		"charts of what --results kept; compare sets targets side by side with ratios.\n"
		"\nOptions:\n");
	for (const struct cli_opt *o = cli_options; o->name; o++) {
		if (o->hidden || o->refuse)
			continue;
		snprintf(lead, sizeof(lead), "  %s%s%s--%s%s%s%s%s", o->alias ? "-" : "",
			 o->alias ? o->alias : "", o->alias ? ", " : "", o->name,
			 o->arg == CLI_ARG_OPTIONAL ? "[" : "", cli_value_sep(o),
			 o->metavar ? o->metavar : "", o->arg == CLI_ARG_OPTIONAL ? "]" : "");
		help_entry(f, lead, cli_help(o, help, sizeof(help)));
	}
	put_refused(f);
	fprintf(f, "\nCommon job options, OPTION=VALUE in a job file or --OPTION=VALUE on the\n"
		"command line, where --OPTION VALUE works too as in fio (a boolean takes the\n"
		"next argument only when it is one; time_based, thread and fio's other flags\n"
		"never do). Before the first --name, they apply to every job:\n");
	help_option_lines(f, common_options);
	fprintf(f, "\nExit status: 0 every job ran, 1 a job failed, 2 a usage or job-file error,\n"
		"128+N stopped by signal N.\n\n"
		"Every job option: iojob --cmdhelp=all. The manual: man iojob (in a build\n"
		"tree: man -l build/doc/iojob.1).\n");
}

void cli_version(FILE *f, bool fio_mode)
{
	if (fio_mode)
		fprintf(f, "%s\n", FIO_MODE_VERSION(IOJOB_VERSION));
	else
		fprintf(f, "iojob %s\n", IOJOB_VERSION);
}

void cli_complete_options(FILE *f, const struct engine_info *engines, unsigned nengines)
{
	for (const struct cli_opt *o = cli_options; o->name; o++) {
		if (o->hidden || o->refuse)
			continue;
		if (o->arg != CLI_ARG_REQUIRED)
			fprintf(f, "--%s\n", o->name);
		if (o->arg != CLI_ARG_NONE)
			fprintf(f, "--%s=%s\n", o->name,
				o->arg == CLI_ARG_REQUIRED ? "\tseparate" : "");
	}
	help_complete_job_options(f, engines, nengines);
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
		help_option_names(f, suffix, engines, nengines);
	}
	if (c->id == CLI_ENGHELP)
		for (unsigned e = 0; e < nengines; e++)
			fprintf(f, "%s\n", engines[e].name);
	return 0;
}

int cli_complete_values(FILE *f, const char *name, const struct engine_info *engines,
			unsigned nengines)
{
	const struct cli_opt *c = cli_find(name);

	if (c)
		return complete_switch(f, c, engines, nengines);
	return help_option_values(f, name, engines, nengines);
}

static void put_switch(FILE *f, const struct cli_opt *o)
{
	const char *name, *value_help;
	char help[256];

	if (o->alias)
		fprintf(f, "*-%s*, ", o->alias);
	fprintf(f, "*--");
	help_man_text(f, o->name);
	fputc('*', f);
	if (o->metavar) {
		fprintf(f, "%s%s_", o->arg == CLI_ARG_OPTIONAL ? "[" : "", cli_value_sep(o));
		help_man_text(f, o->metavar);
		fprintf(f, "_%s", o->arg == CLI_ARG_OPTIONAL ? "]" : "");
	}
	fprintf(f, "\n\t");
	help_man_text(f, cli_help(o, help, sizeof(help)));
	fprintf(f, ".\n\n");
	for (unsigned i = 0; o->value_at && (name = o->value_at(i, &value_help)); i++) {
		fprintf(f, "\t- *");
		help_man_text(f, name);
		fprintf(f, "*: ");
		help_man_text(f, value_help);
		fprintf(f, "\n%s", o->value_at(i + 1, &value_help) ? "" : "\n");
	}
}

void cli_man_switches(FILE *f)
{
	for (const struct cli_opt *o = cli_options; o->name; o++)
		if (!o->hidden && !o->refuse)
			put_switch(f, o);
}
