/*
 * What iojob report draws: the table of chart kinds (--chart KIND, its help and its
 * completion read it), each kind's charts for --svg, and the charts of the --html page,
 * grouped by pivot (what was swept besides the rows and columns).
 */
#ifndef OUTPUT_RESULTSET_REPORT_CHARTS_H
#define OUTPUT_RESULTSET_REPORT_CHARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "output/resultset/charts.h"

struct diag;
struct pivot;
struct table;

#define REPORT_MAX_LOGS	256	/* log files on one command line */

/* What the charts are drawn from. */
struct report_view {
	const struct pivot *piv;	/* one per table of the plain report */
	size_t npiv;
	struct chart_opts o;
	const char *const *logs;	/* log files given, of every kind */
	size_t nlogs;
};

enum report_source { FROM_RESULTS, FROM_RATE_LOGS, FROM_LAT_LOGS };

struct report_chart {
	const char *name;
	enum report_source source;
	const char *help;
	/* how many charts the view gives (one file each), and chart i of them */
	size_t (*count)(const struct report_view *v);
	int (*draw)(const struct report_view *v, FILE *f, size_t i, struct diag *d);
};

/* In the order --help lists them, ended by { NULL }. */
extern const struct report_chart report_charts[];

const struct report_chart *report_chart_find(const char *name);

/*
 * --chart's help, the names completion offers (an argopt value_at table), and the list a
 * usage error gives.
 */
void report_charts_describe(char *buf, size_t len);
const char *report_chart_at(unsigned i, const char **help);
void report_charts_names(char *buf, size_t len);

/* The chart kind drawn without --chart: metric with results, else by the first log. */
const struct report_chart *report_chart_default(bool results, const char *first_log);

/* The logs among v's that a kind of source reads; returns how many (out: MAX v->nlogs). */
size_t report_logs_for(const struct report_view *v, enum report_source s, const char **out);

/*
 * The page's body after its title: per pivot a heading, its table (tables[i] when there
 * is one per pivot, else all tables first), and every chart its runs allow; then the
 * logs' charts. Returns 0, or a negative errno (d filled for an input error).
 */
int report_charts_html(FILE *f, const struct report_view *v, const struct table *t,
		       size_t nt, bool per_pivot, struct diag *d);

#endif
