/*
 * The subcommands' --help option lines and their completion, from their option tables
 * (base/argopt.h), and --format's help, values and names from the tables of renderers
 * (table.c) and seed shapes (seed_tables.c); the keys, values and labels of the result
 * sets on the line, for completion (resultset_keys.c).
 */
#include "output/resultset/cmd_common.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "output/resultset/resultset_keys.h"
#include "output/resultset/resultset_read.h"
#include "output/resultset/seed_tables.h"
#include "base/diag.h"
#include "base/units.h"

/*
 * The options' help: "  --NAME METAVAR", the help from column 22 on, in lines of at most
 * 79 columns.
 */
static const struct argopt_page cmd_page = { 22, 79, 1, false };

/* --help, which every subcommand takes (each reads it before its table's options). */
static const struct argopt help_option[] = {
	{ .name = "help", .help = "print this text" },
	{ NULL },
};

/* The words of the result sets among files (what is not one is passed over). */
static void complete_from_sets(enum rs_words what, int nfiles, char **files)
{
	struct rs_set set = { 0 };
	struct diag d = { 0 };

	for (int i = 0; i < nfiles; i++)
		rs_load(&set, files[i], &d);
	rs_complete(stdout, &set, what);
	rs_free(&set);
	diag_clear(&d);		/* completion prints no errors */
}

/* The options whose values are in the result sets on the command line. */
static const struct {
	const char *option;
	enum rs_words what;
} set_words[] = {
	{ "rows", RS_KEYS }, { "cols", RS_KEYS }, { "where", RS_PAIRS }, { "job", RS_JOBS },
};

/*
 * --complete-options; --complete-values=OPTION [FILE...], the option's values and, for
 * those of set_words[], the keys, values or jobs of the result sets FILE...; and
 * --complete-labels FILE..., their labels (compare's sides).
 */
int cmd_complete(const struct argopt *opts, int argc, char **argv)
{
	const struct argopt *o;

	if (argc < 2 || strncmp(argv[1], "--complete-", 11))
		return EXIT_GO_ON;
	if (!strcmp(argv[1], "--complete-options")) {
		argopt_complete_options(stdout, help_option);
		argopt_complete_options(stdout, opts);
		return 0;
	}
	if (!strcmp(argv[1], "--complete-labels")) {
		complete_from_sets(RS_LABELS, argc - 2, argv + 2);
		return 0;
	}
	if (strncmp(argv[1], "--complete-values=", 18))
		return EXIT_GO_ON;
	o = argopt_find(opts, argv[1] + 18);
	if (!o)
		return EXIT_USAGE;	/* no message: the completion script would drop it */
	argopt_complete_values(stdout, o);
	for (size_t i = 0; i < ARRAY_SIZE(set_words); i++)
		if (!strcmp(o->name, set_words[i].option))
			complete_from_sets(set_words[i].what, argc - 2, argv + 2);
	return 0;
}

void cmd_usage_options(FILE *f, const struct argopt *opts)
{
	argopt_usage(f, opts, &cmd_page);
	argopt_usage(f, help_option, &cmd_page);
}

void cmd_append(char *buf, size_t len, const char *fmt, ...)
{
	size_t at = strnlen(buf, len);
	va_list ap;

	if (at + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + at, len - at, fmt, ap);
	va_end(ap);
}

const char *cmd_list_sep(size_t i, size_t n, const char *last)
{
	return !i ? "" : i + 1 == n ? last : ", ";
}

static size_t listed_styles(void)
{
	size_t n = 0;

	for (const struct table_style_name *ts = table_styles; ts->name; ts++)
		n += ts->listed;
	return n;
}

static size_t shapes(void)
{
	size_t n = 0;

	while (seed_shapes[n].name)
		n++;
	return n;
}

/* The listed renderers, "table (default), markdown, csv or dokuwiki" with last " or ". */
static void put_styles(char *buf, size_t len, const char *last, bool defaults)
{
	size_t i = 0, n = listed_styles();

	for (const struct table_style_name *ts = table_styles; ts->name; ts++)
		if (ts->listed)
			cmd_append(buf, len, "%s%s%s", cmd_list_sep(i++, n, last), ts->name,
				   defaults && ts->style == TS_TEXT ? " (default)" : "");
}

void cmd_styles_describe(char *buf, size_t len)
{
	buf[0] = '\0';
	put_styles(buf, len, " or ", true);
}

void cmd_formats_describe(char *buf, size_t len)
{
	const struct table_style_name *last = NULL;
	size_t n = shapes();

	cmd_styles_describe(buf, len);
	cmd_append(buf, len, "; or a seed's shape: ");
	for (size_t i = 0; i < n; i++)
		cmd_append(buf, len, "%s%s (%s)", cmd_list_sep(i, n, " or "), seed_shapes[i].name,
			   seed_shapes[i].help);
	for (const struct table_style_name *ts = table_styles; ts->name; ts++)
		last = ts->listed ? ts : last;
	cmd_append(buf, len, "; SHAPE,RENDERER for both, as in %s,%s", seed_shapes[0].name,
		   last->name);
}

const char *cmd_style_at(unsigned i, const char **help)
{
	*help = "";	/* a renderer's name says it */
	for (const struct table_style_name *ts = table_styles; ts->name; ts++)
		if (ts->listed && !i--)
			return ts->name;
	return NULL;
}

/* The listed renderers, then the seeds' shapes. */
const char *cmd_format_at(unsigned i, const char **help)
{
	size_t n = listed_styles();

	if (i < n)
		return cmd_style_at(i, help);
	for (const struct seed_shape *sh = seed_shapes; sh->name; sh++, i--) {
		if (i == n) {
			*help = sh->help;
			return sh->name;
		}
	}
	return NULL;
}

void cmd_styles_names(char *buf, size_t len)
{
	buf[0] = '\0';
	put_styles(buf, len, ", ", false);
}

void cmd_formats_names(char *buf, size_t len)
{
	cmd_styles_names(buf, len);
	for (const struct seed_shape *sh = seed_shapes; sh->name; sh++)
		cmd_append(buf, len, ", %s", sh->name);
	cmd_append(buf, len, ", or SHAPE,RENDERER");
}
