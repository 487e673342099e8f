/* The table model and its renderers: aligned text, Markdown, CSV, DokuWiki and HTML. */
#include "output/resultset/table.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/resultset/html_page.h"
#include "base/units.h"
#include "base/grow.h"

static char *dup_text(struct table *t, const char *s)
{
	char *d;

	if (!s || !*s)
		return NULL;
	d = strdup(s);
	if (!d)
		t->oom = true;
	return d;
}

int table_init(struct table *t, unsigned ncols, const char *title)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
	t->head = calloc(ncols, sizeof(*t->head));
	t->align = calloc(ncols, sizeof(*t->align));
	t->title = dup_text(t, title);
	if (!t->head || !t->align || t->oom) {
		table_free(t);
		return -ENOMEM;
	}
	return 0;
}

void table_free(struct table *t)
{
	for (size_t i = 0; t->cells && i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	for (unsigned c = 0; t->head && c < t->ncols; c++)
		free(t->head[c]);
	free(t->cells);
	free(t->head);
	free(t->align);
	free(t->title);
	memset(t, 0, sizeof(*t));
}

void table_head(struct table *t, unsigned col, const char *text, enum table_align a)
{
	if (col >= t->ncols)
		return;
	free(t->head[col]);
	t->head[col] = dup_text(t, text);
	t->align[col] = a;
}

size_t table_add_row(struct table *t)
{
	/* cap counts rows of ncols cells */
	if (grow_reserve(&t->cells, &t->cap, t->nrows + 1, t->ncols * sizeof(*t->cells)) < 0) {
		t->oom = true;
		return t->nrows ? t->nrows - 1 : 0;	/* writes land in a real row */
	}
	memset(&t->cells[t->nrows * t->ncols], 0, t->ncols * sizeof(*t->cells));
	return t->nrows++;
}

void table_set(struct table *t, size_t row, unsigned col, const char *text)
{
	char **cell;

	if (row >= t->nrows || col >= t->ncols)
		return;
	cell = &t->cells[row * t->ncols + col];
	free(*cell);
	*cell = dup_text(t, text);
}

void table_setf(struct table *t, size_t row, unsigned col, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	table_set(t, row, col, buf);
}

const char *table_get(const struct table *t, size_t row, unsigned col)
{
	const char *s = row < t->nrows && col < t->ncols ? t->cells[row * t->ncols + col] : NULL;

	return s ? s : "";
}

int table_error(const struct table *t)
{
	return t->oom ? -ENOMEM : 0;
}

const struct table_style_name table_styles[] = {
	{ "table", TS_TEXT, true }, { "text", TS_TEXT, false },
	{ "markdown", TS_MARKDOWN, true }, { "md", TS_MARKDOWN, false },
	{ "csv", TS_CSV, true }, { "dokuwiki", TS_DOKUWIKI, true }, { "html", TS_HTML, false },
	{ NULL },
};

int table_style_parse(const char *name, enum table_style *out)
{
	for (const struct table_style_name *ts = table_styles; ts->name; ts++) {
		if (!strcmp(name, ts->name)) {
			*out = ts->style;
			return 0;
		}
	}
	return -EINVAL;
}

size_t table_text_width(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)	/* not a continuation byte */
			n++;
	return n;
}

/* Every column's width: its widest head or value. */
static size_t *col_widths(const struct table *t)
{
	size_t *w = calloc(t->ncols ? t->ncols : 1, sizeof(*w));

	for (unsigned c = 0; w && c < t->ncols; c++) {
		w[c] = table_text_width(t->head[c]);
		for (size_t r = 0; r < t->nrows; r++) {
			size_t n = table_text_width(table_get(t, r, c));

			if (n > w[c])
				w[c] = n;
		}
	}
	return w;
}

static void pad(FILE *f, size_t n, char ch)
{
	while (n--)
		fputc(ch, f);
}

/* text padded to width w on the side its alignment asks for */
static void put_cell(FILE *f, const char *text, size_t w, enum table_align a)
{
	size_t n = table_text_width(text);

	if (a == TA_RIGHT)
		pad(f, w - n, ' ');
	fputs(text ? text : "", f);
	if (a == TA_LEFT)
		pad(f, w - n, ' ');
}

/* A line of cells: lead, cells joined by sep, tail; the last left cell is not padded. */
static void put_line(FILE *f, const struct table *t, const size_t *w, const char *const *cells,
		     const char *lead, const char *sep, const char *tail)
{
	fputs(lead, f);
	for (unsigned c = 0; c < t->ncols; c++) {
		bool last = c + 1 == t->ncols;

		if (c)
			fputs(sep, f);
		if (last && !*tail && t->align[c] == TA_LEFT)
			fputs(cells[c] ? cells[c] : "", f);
		else
			put_cell(f, cells[c], w[c], t->align[c]);
	}
	fputs(tail, f);
	fputc('\n', f);
}

static void render_text(FILE *f, const struct table *t, const size_t *w)
{
	if (t->title)
		fprintf(f, "%s\n", t->title);
	put_line(f, t, w, (const char *const *)t->head, "", "  ", "");
	for (unsigned c = 0; c < t->ncols; c++) {
		if (c)
			fputs("  ", f);
		pad(f, w[c], '-');
	}
	fputc('\n', f);
	for (size_t r = 0; r < t->nrows; r++)
		put_line(f, t, w, (const char *const *)&t->cells[r * t->ncols], "", "  ", "");
}

/* Markdown and DokuWiki cells must not hold their separator. */
static void put_escaped(FILE *f, const char *s, const char *bad, const char *repl)
{
	for (; s && *s; s++) {
		if (strchr(bad, *s))
			fputs(repl, f);
		else
			fputc(*s, f);
	}
}

static void md_line(FILE *f, const struct table *t, const size_t *w, char *const *cells)
{
	fputs("|", f);
	for (unsigned c = 0; c < t->ncols; c++) {
		size_t n = table_text_width(cells[c]);

		fputc(' ', f);
		if (t->align[c] == TA_RIGHT)
			pad(f, w[c] - n, ' ');
		put_escaped(f, cells[c], "|", "\\|");
		if (t->align[c] == TA_LEFT)
			pad(f, w[c] - n, ' ');
		fputs(" |", f);
	}
	fputc('\n', f);
}

static void render_markdown(FILE *f, const struct table *t, const size_t *w)
{
	if (t->title)
		fprintf(f, "**%s**\n\n", t->title);
	md_line(f, t, w, t->head);
	fputs("|", f);
	for (unsigned c = 0; c < t->ncols; c++) {
		fputc(' ', f);
		pad(f, w[c] > 3 ? w[c] - 1 : 2, '-');
		fputs(t->align[c] == TA_RIGHT ? ": |" : "- |", f);
	}
	fputc('\n', f);
	for (size_t r = 0; r < t->nrows; r++)
		md_line(f, t, w, &t->cells[r * t->ncols]);
}

static void csv_field(FILE *f, const char *s)
{
	if (!s || !strpbrk(s, ",\"\r\n")) {
		fputs(s ? s : "", f);
		return;
	}
	fputc('"', f);
	put_escaped(f, s, "\"", "\"\"");
	fputc('"', f);
}

static void render_csv(FILE *f, const struct table *t)
{
	for (size_t r = 0; r <= t->nrows; r++) {
		char *const *cells = r ? &t->cells[(r - 1) * t->ncols] : t->head;

		for (unsigned c = 0; c < t->ncols; c++) {
			if (c)
				fputc(',', f);
			csv_field(f, cells[c]);
		}
		fputs("\r\n", f);	/* RFC 4180 */
	}
}

/* DokuWiki aligns by spaces: two on the left align right, two on the right align left. */
static void wiki_line(FILE *f, const struct table *t, const size_t *w, char *const *cells,
		      const char *sep)
{
	for (unsigned c = 0; c < t->ncols; c++) {
		size_t n = table_text_width(cells[c]);

		fputs(sep, f);
		if (t->align[c] == TA_RIGHT)
			pad(f, w[c] - n + 2, ' ');
		else
			fputc(' ', f);
		put_escaped(f, cells[c], "|^", " ");
		if (t->align[c] == TA_LEFT)
			pad(f, w[c] - n + 2, ' ');
		else
			fputc(' ', f);
	}
	fprintf(f, "%s\n", sep);
}

static void render_dokuwiki(FILE *f, const struct table *t, const size_t *w)
{
	if (t->title)
		fprintf(f, "===== %s =====\n\n", t->title);
	wiki_line(f, t, w, t->head, "^");
	for (size_t r = 0; r < t->nrows; r++)
		wiki_line(f, t, w, &t->cells[r * t->ncols], "|");
}

static void html_row(FILE *f, const struct table *t, char *const *cells, const char *tag)
{
	fputs("<tr>", f);
	for (unsigned c = 0; c < t->ncols; c++) {
		fprintf(f, "<%s%s>", tag, t->align[c] == TA_RIGHT ? " class=\"num\"" : "");
		html_page_escape(f, cells[c]);
		fprintf(f, "</%s>", tag);
	}
	fputs("</tr>\n", f);
}

static void render_html(FILE *f, const struct table *t)
{
	fputs("<table>\n", f);
	if (t->title) {
		fputs("<caption>", f);
		html_page_escape(f, t->title);
		fputs("</caption>\n", f);
	}
	fputs("<thead>", f);
	html_row(f, t, t->head, "th");
	fputs("</thead>\n<tbody>\n", f);
	for (size_t r = 0; r < t->nrows; r++)
		html_row(f, t, &t->cells[r * t->ncols], "td");
	fputs("</tbody>\n</table>\n", f);
}

void table_render(FILE *f, const struct table *t, enum table_style s)
{
	size_t *w = col_widths(t);

	if (!w)
		return;
	switch (s) {
	case TS_TEXT: render_text(f, t, w); break;
	case TS_MARKDOWN: render_markdown(f, t, w); break;
	case TS_CSV: render_csv(f, t); break;
	case TS_DOKUWIKI: render_dokuwiki(f, t, w); break;
	case TS_HTML: render_html(f, t); break;
	}
	free(w);
}

void table_render_all(FILE *f, const struct table *t, size_t n, enum table_style s)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc('\n', f);
		if (s == TS_CSV && n > 1 && t[i].title) {
			csv_field(f, t[i].title);
			fputs("\r\n", f);
		}
		table_render(f, &t[i], s);
	}
}
