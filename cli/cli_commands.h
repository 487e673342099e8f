/*
 * The subcommands' table: iojob report and compare (output/resultset/commands.h), which
 * read result sets, and iojob pts (pts/pts.h), which runs a suite. main.c dispatches
 * argv[1] by it; --complete-options and the completion script read it.
 */
#ifndef CLI_CLI_COMMANDS_H
#define CLI_CLI_COMMANDS_H

#include <stdio.h>

struct command {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *files;	/* the globs of the files it reads, '|'-separated */
};

/* Ended by { NULL }. */
extern const struct command commands[];

/* The subcommand named name, or NULL. */
const struct command *command_find(const char *name);

/* The subcommands' names, one a line, for iojob --complete-options. */
void commands_complete(FILE *f);

/*
 * Run the subcommand on argv (argv[0] its name). "iojob SUB --complete-files" prints the
 * globs of the files it reads, for the completion script. Returns the exit status.
 */
int command_run(const struct command *c, int argc, char **argv);

#endif
