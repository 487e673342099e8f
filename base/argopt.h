/*
 * Command-line options as a table, in the manner of git's parse-options: one entry says
 * what an option is called, what argument it takes, how help and completion show it and
 * where its value goes, and the functions below read argv, write the help lines and answer
 * the completion script from that table alone. iojob's own switches (cli/cli.c) and its
 * subcommands' options (output/resultset/cmd_*.c, pts/pts_cli.c) are such tables.
 *
 * A low-level module: it knows nothing of what the options mean and includes nothing
 * above base/.
 */
#ifndef BASE_ARGOPT_H
#define BASE_ARGOPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum argopt_arg {
	ARGOPT_NONE,		/* a flag */
	ARGOPT_REQUIRED,	/* --NAME=VALUE or --NAME VALUE */
	ARGOPT_OPTIONAL,	/* --NAME or --NAME=VALUE */
};

struct argopt {
	const char *name;	/* without the leading "--" */
	const char *alias;	/* a one-letter form ("h" for -h), or NULL */
	enum argopt_arg arg;
	const char *metavar;	/* what help calls the value ("FILE"), or NULL */
	const char *help;
	/* Or help made from the tables its values come from, into buf (formats, charts). */
	void (*describe)(char *buf, size_t len);
	const char *values;	/* the values completion offers, '|'-separated, or NULL */
	/*
	 * Or the values from the table they are kept in: the i-th name (its help in *help),
	 * NULL past the last. Without describe, help then says what follows their list
	 * ("a, b or c; HELP").
	 */
	const char *(*value_at)(unsigned i, const char **help);
	/* Or values made up of parts (metric names): written one a line. */
	void (*list)(FILE *f);
	bool hidden;		/* for the completion script: not in help or its words */
	const char *refuse;	/* a refused option: the one line that says what to use instead */
	/*
	 * Where the value goes: a table read by its own code has an id for each option (cli.h's
	 * enum cli_switch); a subcommand's goes to the const char * at off in its arguments, or
	 * with kv set, to the struct argopt_kv there.
	 */
	int id;
	size_t off;
	bool kv;
};

/* A repeatable KEY=VALUE option's values (--where, pts's --set), in order. */
#define ARGOPT_MAX_KV	32

struct argopt_kv {
	const char *kv[ARGOPT_MAX_KV];
	unsigned n;
};

/* How a command line spells its options. */
enum argopt_style {
	ARGOPT_GNU,		/* "--NAME" for a name, "-A" for a one-letter alias */
	ARGOPT_LONG_ONLY,	/* fio's getopt_long_only: one dash or two, a name or an alias */
};

/* One option argument as argopt_read() found it. */
struct argopt_got {
	const struct argopt *opt;	/* NULL when the table has no such option */
	char key[256];			/* its name as written: no dashes, no "=VALUE" */
	const char *val;		/* after '=', the next argument, or NULL */
};

/* How help lines are laid out: "  -A, --NAME=VALUE", then the help from a column on. */
struct argopt_page {
	unsigned indent;	/* the column the help starts at */
	unsigned width;		/* the longest line (but for a longer word) */
	unsigned gap;		/* the fewest spaces before the help, else it starts a new line */
	bool eq;		/* "--NAME=VALUE" ("--NAME VALUE" when it holds a '='), else " " */
};

/* The entry of table (ended by { NULL }) whose name or alias is name, or NULL. */
const struct argopt *argopt_find(const struct argopt *table, const char *name);

/*
 * Read the option argv[*i], which starts with '-', by table in style s: "--NAME=VALUE",
 * "--NAME VALUE" when it requires a value (*i moves past it), "--NAME" else. Fills got.
 * Returns 0; -ENOENT when table has no such option (got's key and val say what was
 * written); -EPERM for a refused option, before any value is read; -EINVAL when the
 * value it requires is missing.
 */
int argopt_read(const struct argopt *table, enum argopt_style s, int argc, char **argv,
		int *i, struct argopt_got *got);

/*
 * Keep val where o's value goes in args: the const char * at o->off, or one more entry of
 * the struct argopt_kv there. 0, -EINVAL when a KV value has no '=', -ENOSPC past
 * ARGOPT_MAX_KV of them.
 */
int argopt_store(const struct argopt *o, void *args, const char *val);

/* The help of o: its describe()'s into buf, its list of values then help, or its help. */
const char *argopt_help(const struct argopt *o, char *buf, size_t len);

/*
 * What goes between an option and its metavar on page p: "" without one, "=" before an
 * optional value (read only after '='), else " " or, where p->eq asks, "=".
 */
const char *argopt_value_sep(const struct argopt_page *p, const struct argopt *o);

/* Write text from column col, wrapping before width onto lines indented by indent. */
void argopt_wrap(FILE *f, unsigned col, unsigned indent, unsigned width, const char *text);

/* One entry of help: lead padded to p's help column, then help wrapped. */
void argopt_entry(FILE *f, const struct argopt_page *p, const char *lead, const char *help);

/* The help lines of every option of table but the hidden and the refused. */
void argopt_usage(FILE *f, const struct argopt *table, const struct argopt_page *p);

/*
 * For the completion script, every option of table but the hidden and the refused, one
 * a line: "--NAME" when it may stand alone, "--NAME=" when it may take a value, followed
 * by a tab and "separate" when the value may also be the next argument.
 */
void argopt_complete_options(FILE *f, const struct argopt *table);

/* For the completion script, the values of o, one a line (none when it takes free text). */
void argopt_complete_values(FILE *f, const struct argopt *o);

#endif
