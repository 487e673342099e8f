/*
 * What iojob report and iojob compare share: an option table that drives their parsing,
 * the option lines of their --help and their completion; formats; loading; messages.
 */
#ifndef OUTPUT_RESULTSET_CMD_COMMON_H
#define OUTPUT_RESULTSET_CMD_COMMON_H

#include <stddef.h>
#include <stdio.h>

#include "output/resultset/table.h"

struct rs_set;
struct seed_shape;
struct table;

/* Exit statuses of the subcommands, and what their steps return to go on. */
#define CMD_USAGE		2
#define CMD_OUTPUT_FAILED	1
#define CMD_CONTINUE		(-1)

struct cmd_format {
	const struct seed_shape *shape;	/* NULL: the plain table of the pivot */
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
 * A subcommand's option, all of which take a value. The table drives parsing, the
 * options' lines of --help and completion. Where the value goes: the offset of a
 * const char * in the subcommand's arguments, or CMD_OPT_WHERE.
 */
struct cmd_opt {
	const char *name;
	const char *metavar;	/* what --help calls the value: "KEY=VALUE" */
	size_t off;
	const char *help;	/* wrapped by --help */
	const char *values;	/* what completion offers, '|'-separated; NULL: file names */
	/* Or help and values made from the tables they come from (formats, metrics, charts). */
	void (*describe)(char *buf, size_t len);
	void (*list)(FILE *f);
};

/*
 * Parse the option at argv[*i] ("--name=VALUE" or "--name VALUE", moving *i past VALUE)
 * by the table opts (ending with a NULL name) into args and w. Returns CMD_CONTINUE, or
 * CMD_USAGE after saying what is wrong.
 */
int cmd_parse_option(const char *cmd, const struct cmd_opt *opts, void *args,
		     struct cmd_where *w, int argc, char **argv, int *i);

/*
 * Answer the completion script for subcommand cmd: "--complete-options" lists the options
 * as iojob's own switch does, "--complete-values=NAME" one option's values (the globs
 * of its files, "--complete-files", come from cli_commands.c's table). Returns
 * CMD_CONTINUE when argv[1] is none of them, else the exit status.
 */
int cmd_complete(const char *cmd, const struct cmd_opt *opts, int argc, char **argv);

/* The options' lines of --help, then --help's own: "  --NAME METAVAR" and the help. */
void cmd_usage_options(FILE *f, const struct cmd_opt *opts);

/* A renderer, a seed shape, or "SHAPE,RENDERER" ("sysbench,dokuwiki"). 0 or -EINVAL. */
int cmd_parse_format(const char *s, struct cmd_format *out);

/*
 * --format from the tables of renderers (table.c) and, for formats, seed shapes
 * (seed_tables.c): its help, the values completion offers, and the names a usage error
 * lists ("table, markdown, csv, dokuwiki, sysbench, ..., or SHAPE,RENDERER").
 */
void cmd_formats_describe(char *buf, size_t len);
void cmd_formats_list(FILE *f);
void cmd_formats_names(char *buf, size_t len);
void cmd_styles_describe(char *buf, size_t len);
void cmd_styles_list(FILE *f);
void cmd_styles_names(char *buf, size_t len);

/* Append printf's text to the string in buf (len bytes in all), cut to fit. */
void cmd_append(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* What goes before item i of n in a list read out: "", ", ", or last before the last. */
const char *cmd_list_sep(size_t i, size_t n, const char *last);

/*
 * Open a chart or page that OPT names for writing, through the guard of every output
 * (engine/devices/path_guard.h). NULL after saying why, with *status CMD_USAGE where the
 * guard refused the path (a device, a pseudo file system), CMD_OUTPUT_FAILED otherwise.
 */
FILE *cmd_open_output(const char *cmd, const char *opt, const char *path, int *status);

/* Print "iojob CMD: MESSAGE" on stderr; returns CMD_USAGE. */
int cmd_fail(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Load every file into set; on an error, say so and return CMD_USAGE; notes on stderr. */
int cmd_load(const char *cmd, struct rs_set *set, const char *const *files, size_t n);

/* FILE for the first chart, FILE-2.svg (the number before the extension) for the next. */
void cmd_nth_path(const char *path, int i, char *buf, size_t len);

/* Render and free n tables (and the array). */
void cmd_print_tables(struct table *t, int n, enum table_style s);

#endif
