/*
 * What iojob report, iojob compare and iojob pts share: their options read, described and
 * completed from their tables (base/argopt.h); formats; loading; messages. Their steps
 * return EXIT_GO_ON to go on, or an exit code (base/exit_code.h): EXIT_USAGE for a usage or
 * input error, EXIT_JOB_FAILED for an output that could not be written.
 */
#ifndef OUTPUT_RESULTSET_CMD_COMMON_H
#define OUTPUT_RESULTSET_CMD_COMMON_H

#include <stddef.h>
#include <stdio.h>

#include "base/argopt.h"
#include "base/exit_code.h"
#include "output/resultset/table.h"

struct rs_set;
struct seed_shape;
struct table;

struct cmd_format {
	const struct seed_shape *shape;	/* NULL: the plain table of the pivot */
	enum table_style style;
};

/*
 * A subcommand's option: each takes a value, which goes to the const char * at offset o
 * of the subcommand's arguments (offsetof); one without values offers file names.
 */
#define CMD_OPT(n, m, o, h, ...) \
	{ .name = n, .arg = ARGOPT_REQUIRED, .metavar = m, .off = o, .help = h, __VA_ARGS__ }

/* One that takes KEY=VALUE again and again (--where): into the struct argopt_kv at o. */
#define CMD_KV(n, m, o, h)	CMD_OPT(n, m, o, h, .kv = true)

/*
 * Parse the option at argv[*i] ("--name=VALUE" or "--name VALUE", moving *i past VALUE)
 * by the table opts into args. Returns EXIT_GO_ON, or EXIT_USAGE after saying what is
 * wrong.
 */
int cmd_parse_option(const char *cmd, const struct argopt *opts, void *args, int argc,
		     char **argv, int *i);

/*
 * Answer the completion script for a subcommand whose table is opts: "--complete-options"
 * lists --help and the options as iojob's own switch does, "--complete-values=NAME" one
 * option's values (the globs of its files, "--complete-files", come from cli_commands.c's
 * table). Returns EXIT_GO_ON when argv[1] is none of them, else the exit status.
 */
int cmd_complete(const struct argopt *opts, int argc, char **argv);

/* The options' lines of --help, then --help's own: "  --NAME METAVAR" and the help. */
void cmd_usage_options(FILE *f, const struct argopt *opts);

/* A renderer, a seed shape, or "SHAPE,RENDERER" ("sysbench,dokuwiki"). 0 or -EINVAL. */
int cmd_parse_format(const char *s, struct cmd_format *out);

/*
 * --format from the tables of renderers (table.c) and, for formats, seed shapes
 * (seed_tables.c): its help, the values completion offers (an argopt value_at table), and
 * the names a usage error lists ("table, markdown, csv, dokuwiki, sysbench, ..., or
 * SHAPE,RENDERER").
 */
void cmd_formats_describe(char *buf, size_t len);
const char *cmd_format_at(unsigned i, const char **help);
void cmd_formats_names(char *buf, size_t len);
void cmd_styles_describe(char *buf, size_t len);
const char *cmd_style_at(unsigned i, const char **help);
void cmd_styles_names(char *buf, size_t len);

/* Append printf's text to the string in buf (len bytes in all), cut to fit. */
void cmd_append(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* What goes before item i of n in a list read out: "", ", ", or last before the last. */
const char *cmd_list_sep(size_t i, size_t n, const char *last);

/*
 * Open a chart or page that OPT names for writing, through the guard of every output
 * (engine/devices/path_guard.h). NULL after saying why, with *status EXIT_USAGE where the
 * guard refused the path (a device, a pseudo file system), EXIT_JOB_FAILED otherwise.
 */
FILE *cmd_open_output(const char *cmd, const char *opt, const char *path, int *status);

/* Several charts from one --svg FILE: name them on stderr ("3 charts: F, F-2.svg, ..."). */
void cmd_say_written(const char *cmd, const char *svg, size_t n);

/* Print "iojob CMD: MESSAGE" on stderr; returns EXIT_USAGE. */
int cmd_fail(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Load every file into set; on an error, say so and return EXIT_USAGE; notes on stderr. */
int cmd_load(const char *cmd, struct rs_set *set, const char *const *files, size_t n);

/* FILE for the first chart, FILE-2.svg (the number before the extension) for the next. */
void cmd_nth_path(const char *path, int i, char *buf, size_t len);

/* Render and free n tables (and the array). */
void cmd_print_tables(struct table *t, int n, enum table_style s);

#endif
