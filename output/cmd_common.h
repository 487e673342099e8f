/* What iojob report and iojob compare share: options, formats, loading, messages. */
#ifndef OUTPUT_CMD_COMMON_H
#define OUTPUT_CMD_COMMON_H

#include <stddef.h>

#include "output/table.h"

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

/*
 * "--name=VALUE" or "--name VALUE" at argv[*i] (moving *i past VALUE): returns 1 with
 * *val set, 0 when argv[*i] is another option, -1 when the value is missing.
 */
int cmd_option(int argc, char **argv, int *i, const char *name, const char **val);

/* A renderer, a seed shape, or "SHAPE,RENDERER" ("sysbench,dokuwiki"). 0 or -EINVAL. */
int cmd_parse_format(const char *s, struct cmd_format *out);

/* Print "iojob CMD: MESSAGE" on stderr; returns CMD_USAGE. */
int cmd_fail(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Load every file into set; on an error, say so and return CMD_USAGE; notes on stderr. */
int cmd_load(const char *cmd, struct rs_set *set, const char *const *files, size_t n);

/* Render and free n tables (and the array). */
void cmd_print_tables(struct table *t, int n, enum table_style s);

#endif
