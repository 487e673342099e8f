/*
 * One table model for every report (iojob report, iojob compare): a title, column heads
 * with an alignment, and rows of text cells, rendered as aligned text, Markdown, CSV,
 * DokuWiki (the seeds' wiki tables) or HTML. Columns are as wide as their widest value.
 * Cells are copied in. An allocation that fails is remembered (table_error()) and later
 * calls do nothing, so a builder checks once, at the end.
 */
#ifndef OUTPUT_RESULTSET_TABLE_H
#define OUTPUT_RESULTSET_TABLE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum table_align { TA_LEFT, TA_RIGHT };

enum table_style { TS_TEXT, TS_MARKDOWN, TS_CSV, TS_DOKUWIKI, TS_HTML };

struct table {
	char *title;			/* NULL: none */
	unsigned ncols;
	char **head;			/* ncols */
	enum table_align *align;	/* ncols */
	char **cells;			/* nrows * ncols; NULL: an empty cell */
	size_t nrows, cap;
	bool oom;
};

/* A table of ncols columns, heads empty and left-aligned. Returns 0 or -ENOMEM. */
int table_init(struct table *t, unsigned ncols, const char *title);
void table_free(struct table *t);

void table_head(struct table *t, unsigned col, const char *text, enum table_align a);

/* Append an empty row; returns its index. */
size_t table_add_row(struct table *t);

/* Set a cell (a copy of text; NULL or "" leaves it empty). */
void table_set(struct table *t, size_t row, unsigned col, const char *text);
void table_setf(struct table *t, size_t row, unsigned col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The cell's text, "" when empty. */
const char *table_get(const struct table *t, size_t row, unsigned col);

/* -ENOMEM when an allocation failed since table_init(), else 0. */
int table_error(const struct table *t);

/* A renderer's name, as --format takes it. */
struct table_style_name {
	const char *name;
	enum table_style style;
	bool listed;	/* in help and completion; not aliases, nor html (--html makes a page) */
};

/* In the order help lists them, ended by { NULL }. */
extern const struct table_style_name table_styles[];

/* "table", "markdown" (or "md"), "csv", "dokuwiki", "html". Returns 0 or -EINVAL. */
int table_style_parse(const char *name, enum table_style *out);

/* The display width of UTF-8 text: its code points. */
size_t table_text_width(const char *s);

/* Render one table. */
void table_render(FILE *f, const struct table *t, enum table_style s);

/*
 * Render several tables one after another, a blank line between them. CSV has no room for
 * a title: each table's title is a row of its own there, only when there are several.
 */
void table_render_all(FILE *f, const struct table *t, size_t n, enum table_style s);

#endif
