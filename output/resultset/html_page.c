/* The frame of the HTML report page: head, style, headings, paragraphs. */
#include "output/resultset/html_page.h"

#include <errno.h>

void html_page_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

void html_page_begin(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
	html_page_escape(f, title);
	fputs("</title>\n<style>\n"
	      "body { font-family: 'DejaVu Sans', Helvetica, Arial, sans-serif; margin: 2em; }\n"
	      "table { border-collapse: collapse; margin: 1em 0 2em 0; }\n"
	      "caption { font-weight: bold; text-align: left; padding-bottom: 0.4em; }\n"
	      "th, td { border: 1px solid #bbb; padding: 0.2em 0.6em; }\n"
	      "th { background: #eee; }\n"
	      "td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }\n"
	      "svg { display: block; margin: 1em 0 2em 0; max-width: 100%; height: auto; }\n"
	      "table { max-width: 100%; }\n"
	      "</style>\n</head>\n<body>\n<h1>", f);
	html_page_escape(f, title);
	fputs("</h1>\n", f);
}

void html_page_heading(FILE *f, const char *text)
{
	fputs("<h2>", f);
	html_page_escape(f, text);
	fputs("</h2>\n", f);
}

int html_page_end(FILE *f)
{
	fputs("</body>\n</html>\n", f);
	return ferror(f) ? -EIO : 0;
}
