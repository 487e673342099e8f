/*
 * Build-time generator of iojob(1): copies the scdoc template to stdout with the switch,
 * engine and job option references filled in from the tables the parser uses.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "config.h"
#include "engine/engine.h"
#include "jobs/help.h"

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

/*
 * Copy the template in, replacing the lines "@SWITCHES@", "@ENGINES@" and "@JOB_OPTIONS@"
 * with references generated from the tables and "@VERSION@" anywhere with the version.
 * Returns 0 or -errno of a read or write.
 */
static int man_page(FILE *out, FILE *in, const struct engine_info *engines, unsigned nengines)
{
	char *line = NULL;
	size_t cap = 0;
	int ret = 0;

	while (getline(&line, &cap, in) >= 0) {
		if (!strcmp(line, "@SWITCHES@\n"))
			cli_man_switches(out);
		else if (!strcmp(line, "@ENGINES@\n"))
			help_man_engines(out, engines, nengines);
		else if (!strcmp(line, "@JOB_OPTIONS@\n"))
			help_man_job_options(out, engines, nengines);
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

int main(int argc, char **argv)
{
	struct engine_info engines[IOENGINE_MAX];
	unsigned nengines;
	FILE *in;
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: gen_man TEMPLATE.scd > PAGE.scd\n");
		return 2;
	}
	in = fopen(argv[1], "r");
	if (!in) {
		fprintf(stderr, "gen_man: '%s': %s\n", argv[1], strerror(errno));
		return 1;
	}
	nengines = engine_catalog(engines, IOENGINE_MAX);
	ret = man_page(stdout, in, engines, nengines);
	fclose(in);
	if (ret < 0) {
		fprintf(stderr, "gen_man: '%s': %s\n", argv[1], strerror(-ret));
		return 1;
	}
	return 0;
}
