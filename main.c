/*
 * iojob: job files and command-line jobs in, a fio-style report out. main() reads the
 * command line (cli/cli.h), builds the jobs of every sweep cell, runs them and reports
 * each cell (cli/cli_run.c); only it and what it calls there print for the user. Exit
 * codes as base/exit_code.h: 0 every job ran, 1 a job failed, 2 usage or job-file error,
 * 128+N stopped by signal N. Run as fio (cli.h's FIO_MODE_VERSION), it exits as fio: 0,
 * 1 for any error, 128 stopped by a signal. A first argument that names a subcommand
 * (cli/cli_commands.c: iojob report, compare, pts) runs that instead.
 */
#include <stdio.h>

#include "base/prog_name.h"
#include "base/diag.h"
#include "base/exit_code.h"
#include "cli/cli.h"
#include "cli/cli_commands.h"
#include "engine/dist/dist.h"

/* fio's exit codes for iojob's: 1 for any error, 128 for any signal. */
static int fio_exit(int ret)
{
	if (ret > EXIT_SIGNAL)
		return EXIT_SIGNAL;
	return ret ? EXIT_JOB_FAILED : 0;
}

int main(int argc, char **argv)
{
	const struct command *cmd;
	struct cli c;
	struct dist dist;
	struct diag d = { 0 };
	int ret;

	/* Subcommands on result sets: they run no jobs (and fio has none: a job file). */
	if (argc > 1 && !prog_is_fio(argv[0]) && (cmd = command_find(argv[1]))) {
		char who[64];

		snprintf(who, sizeof(who), "iojob %s", cmd->name);
		return cli_finish_output(stdout, NULL, who, command_run(cmd, argc - 1, argv + 1));
	}
	if (dist_init(&argc, &argv, &dist) < 0) {
		fprintf(stderr, "%s: cannot start MPI\n", prog_name());
		return EXIT_JOB_FAILED;
	}
	cli_init(&c, &dist);
	cli_quiet_other_ranks(&c);
	ret = cli_parse(&c, argc, argv);		/* parse */
	if (ret == EXIT_GO_ON)
		ret = cli_build(&c, &d);		/* build every cell's jobs */
	if (ret == EXIT_GO_ON)
		ret = cli_run(&c, &d);			/* run and report each cell */
	ret = cli_finish_output(stdout, NULL, prog_name(), ret);
	if (c.fio_mode)
		ret = fio_exit(ret);
	cli_free(&c);
	dist_finalize(&dist);
	return ret;
}
