/* What iojob report and iojob compare share: options, formats, loading, messages. */
#ifndef OUTPUT_RESULTSET_CMD_COMMON_H
#define OUTPUT_RESULTSET_CMD_COMMON_H

#include <stddef.h>

#include "output/resultset/table.h"

struct rs_set;
struct table;

/* Exit statuses of the subcommands, and what their steps return to go on. */
#define CMD_USAGE		2
#define CMD_OUTPUT_FAILED	1
#define CMD_CONTINUE		(-1)

enum cmd_shape { SHAPE_PLAIN, SHAPE_SYSBENCH, SHAPE_TIOBENCH, SHAPE_XDD };

struct cmd_format {
	enum cmd_shape shape;
	enum table_style style;
};

#define CMD_MAX_WHERE		32
#define CMD_OPT_WHERE		((size_t)-1)

/* --where KEY=VALUE, repeatable: only the runs where KEY is VALUE. */
struct cmd_where {
	const char *kv[CMD_MAX_WHERE];
	unsigned n;
};

/*
 * A subcommand's option, all of which take a value: where the value goes (the offset of a
 * const char * in the subcommand's arguments, or CMD_OPT_WHERE), and what bash completion
 * offers for it ('|'-separated; NULL: file names).
 */
struct cmd_opt {
	const char *name;
	size_t off;
	const char *values;
};

/*
 * Parse the option at argv[*i] ("--name=VALUE" or "--name VALUE", moving *i past VALUE)
 * by the table opts (ending with a NULL name) into args and w. Returns CMD_CONTINUE, or
 * CMD_USAGE after saying what is wrong.
 */
int cmd_parse_option(const char *cmd, const struct cmd_opt *opts, void *args,
		     struct cmd_where *w, int argc, char **argv, int *i);

/*
 * Answer the completion script: "--complete-options" lists the options as iojob's own
 * switch does, "--complete-values=NAME" one option's values. Returns CMD_CONTINUE when
 * argv[1] is neither, else the exit status.
 */
int cmd_complete(const struct cmd_opt *opts, int argc, char **argv);

/* A renderer, a seed shape, or "SHAPE,RENDERER" ("sysbench,dokuwiki"). 0 or -EINVAL. */
int cmd_parse_format(const char *s, struct cmd_format *out);

/* Print "iojob CMD: MESSAGE" on stderr; returns CMD_USAGE. */
int cmd_fail(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Load every file into set; on an error, say so and return CMD_USAGE; notes on stderr. */
int cmd_load(const char *cmd, struct rs_set *set, const char *const *files, size_t n);

/* Render and free n tables (and the array). */
void cmd_print_tables(struct table *t, int n, enum table_style s);

#endif
