/*
 * The subcommands' --help option lines and their completion, from their option tables,
 * and --format's help, values and names from the tables of renderers (table.c) and seed
 * shapes (seed_tables.c).
 */
#include "output/resultset/cmd_common.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "output/resultset/seed_tables.h"

#define USAGE_COLS	80	/* wrap help before this column */
#define USAGE_INDENT	22	/* where the help of an option starts */

/* One value a line from a '|'-separated list. */
static void put_values(const char *list)
{
	for (const char *p = list; p && *p; p += strcspn(p, "|"), p += *p == '|')
		printf("%.*s\n", (int)strcspn(p, "|"), p);
}

int cmd_complete(const char *cmd, const struct cmd_opt *opts, int argc, char **argv)
{
	const char *name;

	(void)cmd;	/* the same answer for every subcommand, from its own table */
	if (argc != 2 || strncmp(argv[1], "--complete-", 11))
		return CMD_CONTINUE;
	if (!strcmp(argv[1], "--complete-options")) {
		puts("--help");
		for (const struct cmd_opt *o = opts; o->name; o++)
			printf("--%s=\tseparate\n", o->name);
		return 0;
	}
	if (strncmp(argv[1], "--complete-values=", 18))
		return CMD_CONTINUE;
	name = argv[1] + 18;
	for (const struct cmd_opt *o = opts; o->name; o++) {
		if (strcmp(o->name, name))
			continue;
		put_values(o->values);
		if (o->list)
			o->list(stdout);
		return 0;
	}
	return CMD_USAGE;	/* no message: the completion script would drop it */
}

/* Write text from column col, wrapping before USAGE_COLS onto lines indented by indent. */
static void put_wrapped(FILE *f, size_t col, size_t indent, const char *text)
{
	while (*text) {
		size_t n = strlen(text);

		if (col + n >= USAGE_COLS) {
			for (n = USAGE_COLS - 1 - col; n && text[n] != ' '; n--)
				;
			if (!n)		/* one word longer than the room: let it overflow */
				n = strcspn(text, " ");
		}
		fprintf(f, "%.*s\n", (int)n, text);
		text += n + strspn(text + n, " ");
		if (*text)
			fprintf(f, "%*s", (int)indent, "");
		col = indent;
	}
}

static void put_option(FILE *f, const char *name, const char *metavar, const char *help)
{
	int n = fprintf(f, "  --%s%s%s", name, metavar ? " " : "", metavar ? metavar : "");

	if (n < 0)
		return;
	if (n >= USAGE_INDENT) {
		fputc('\n', f);
		n = 0;
	}
	fprintf(f, "%*s", USAGE_INDENT - n, "");
	put_wrapped(f, USAGE_INDENT, USAGE_INDENT, help);
}

void cmd_usage_options(FILE *f, const struct cmd_opt *opts)
{
	char help[1024];

	for (const struct cmd_opt *o = opts; o->name; o++) {
		if (o->describe)
			o->describe(help, sizeof(help));
		put_option(f, o->name, o->metavar, o->describe ? help : o->help);
	}
	put_option(f, "help", NULL, "print this text");
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

void cmd_styles_list(FILE *f)
{
	for (const struct table_style_name *ts = table_styles; ts->name; ts++)
		if (ts->listed)
			fprintf(f, "%s\n", ts->name);
}

void cmd_formats_list(FILE *f)
{
	cmd_styles_list(f);
	for (const struct seed_shape *sh = seed_shapes; sh->name; sh++)
		fprintf(f, "%s\n", sh->name);
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
