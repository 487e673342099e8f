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

/* fio's switches iojob refuses, each saying what to use instead: one list, wrapped. */
static void put_refused(FILE *f)
{
	size_t col = 0;

	fputs("\nRefused, with what to use instead (fio's, not in iojob):\n", f);
	for (const struct argopt *o = cli_options; o->name; o++) {
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
	fprintf(f, "usage: iojob [options] [JOBFILE ...]\n"
		"       iojob [options] --name=JOB --OPTION=VALUE ... [--name=JOB2 ...]\n"
		"       iojob report FILE.jsonl... [options]    (iojob report --help)\n"
		"       iojob compare SIDE SIDE... [options]    (iojob compare --help)\n"
		"       iojob pts TARGET --results DIR [options] (iojob pts --help)\n\n"
		"Runs the jobs of fio-style job files (or of the command line) and prints a\n"
		"fio-style report. '-' reads a job file from stdin. report prints tables and\n"
		"charts of what --results kept; compare sets targets side by side with ratios.\n"
		"\nOptions:\n");
	argopt_usage(f, cli_options, &help_page);	/* in line with the job options' */
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
	argopt_complete_options(f, cli_options);
	help_complete_job_options(f, engines, nengines);
}

/* A switch's values from its entry, then those of the job options and engines it names. */
static int complete_switch(FILE *f, const struct argopt *c, const struct engine_info *engines,
			   unsigned nengines)
{
	argopt_complete_values(f, c);
	if (c->id == CLI_SET || c->id == CLI_SWEEP || c->id == CLI_CMDHELP) {
		const char *suffix = c->id == CLI_CMDHELP ? "" : "=";

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
	const struct argopt *c = argopt_find(cli_options, name);

	if (c)
		return complete_switch(f, c, engines, nengines);
	return help_option_values(f, name, engines, nengines);
}

static void put_switch(FILE *f, const struct argopt *o)
{
	const char *name, *value_help;
	char help[256];

	if (o->alias)
		fprintf(f, "*-%s*, ", o->alias);
	fprintf(f, "*--");
	help_man_text(f, o->name);
	fputc('*', f);
	if (o->metavar) {
		fprintf(f, "%s%s_", o->arg == ARGOPT_OPTIONAL ? "[" : "",
			argopt_value_sep(&help_page, o));
		help_man_text(f, o->metavar);
		fprintf(f, "_%s", o->arg == ARGOPT_OPTIONAL ? "]" : "");
	}
	fprintf(f, "\n\t");
	help_man_text(f, argopt_help(o, help, sizeof(help)));
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
	for (const struct argopt *o = cli_options; o->name; o++)
		if (!o->hidden && !o->refuse)
			put_switch(f, o);
}
