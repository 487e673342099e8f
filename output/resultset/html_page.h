/*
 * One self-contained HTML page (iojob report --html): a style sheet in the head, then
 * headings, tables (table_render() with TS_HTML) and inline SVG charts (svg_chart.h) as
 * the report writes them. Nothing is loaded from elsewhere.
 */
#ifndef OUTPUT_RESULTSET_HTML_PAGE_H
#define OUTPUT_RESULTSET_HTML_PAGE_H

#include <stdio.h>

/* Text as XML/HTML character data or attribute value: & < > " escaped. */
void html_page_escape(FILE *f, const char *s);

void html_page_begin(FILE *f, const char *title);
void html_page_heading(FILE *f, const char *text);

/* Close the page. Returns 0, or -EIO when writing failed. */
int html_page_end(FILE *f);

#endif
