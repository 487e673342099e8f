/*
 * iojob's subcommands on result sets, each a main() of its own, dispatched by main.c when
 * argv[1] names them: argv[0] is the subcommand. They print for the user and return the
 * exit status: 0 done, 1 an output file could not be written, 2 a usage or input error.
 */
#ifndef OUTPUT_RESULTSET_COMMANDS_H
#define OUTPUT_RESULTSET_COMMANDS_H

#include <stdio.h>

/* iojob report FILE.jsonl... [options]: tables, seed-shaped tables, SVG and HTML. */
int report_main(int argc, char **argv);

/* iojob compare SIDE SIDE... [options]: metric | A | B | ratio | better, job by job. */
int compare_main(int argc, char **argv);

/* A subcommand: main.c's dispatch and the completion script read the table. */
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

#endif
