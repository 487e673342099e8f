/*
 * iojob's subcommands on result sets, each a main() of its own, dispatched by main.c when
 * argv[1] names them (the table is cli_commands.c's): argv[0] is the subcommand. They
 * print for the user and return the exit status: 0 done, 1 an output file could not be
 * written, 2 a usage or input error.
 */
#ifndef OUTPUT_RESULTSET_COMMANDS_H
#define OUTPUT_RESULTSET_COMMANDS_H

/* iojob report FILE.jsonl... [options]: tables, seed-shaped tables, SVG and HTML. */
int report_main(int argc, char **argv);

/* iojob compare SIDE SIDE... [options]: metric | A | B | ratio | better, job by job. */
int compare_main(int argc, char **argv);

#endif
