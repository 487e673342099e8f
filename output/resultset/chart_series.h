/*
 * What the chart files (charts.c, charts_lat.c, charts_time.c) share: room for the series
 * of one chart, and the names in legends ("label 'tmpfs'", "iodepth=16").
 */
#ifndef OUTPUT_RESULTSET_CHART_SERIES_H
#define OUTPUT_RESULTSET_CHART_SERIES_H

#include <stddef.h>

struct chart_opts;
struct pivot;
struct svg_series;

#define CHART_NAME_LEN	160

/* ns series of n points: a shared x, and y, err and an x of its own per series. */
struct chart_buf {
	size_t ns, n;
	struct svg_series *s;
	char (*names)[CHART_NAME_LEN];		/* ns */
	double *x;				/* n */
	double *y, *err, *xs;			/* ns * n, NAN at first */
	char (*point_names)[64];		/* n */
	const char **point_ptrs;		/* n, pointing at point_names */
};

/* NULL when out of memory. */
struct chart_buf *chart_buf_new(size_t ns, size_t n);
void chart_buf_free(struct chart_buf *b);

/* Series k's slices of y, err and xs. */
double *chart_buf_y(struct chart_buf *b, size_t k);
double *chart_buf_err(struct chart_buf *b, size_t k);
double *chart_buf_xs(struct chart_buf *b, size_t k);

/* A key's value in a legend: "job 'w'", "label 'tmpfs'", "iodepth=16"; v alone for no key. */
void chart_key_value(const char *key, const char *v, char *buf, size_t len);

/* A chart's title and subtitle, or what --title and --subtitle put in their place. */
const char *chart_title(const struct chart_opts *o, const char *title);
const char *chart_sub(const struct chart_opts *o, const char *subtitle);

/*
 * A chart of logs' subtitle: the runs' workload when result files came with them, what
 * the logs are, and how they are drawn, parts separated by "; ".
 */
void chart_logs_sub(const struct chart_opts *o, const char *const *paths, size_t n,
		    const char *how, char *buf, size_t len);

/* The workload of the pivot's runs, for the subtitle (chart_workload()). */
void chart_subtitle(const struct pivot *p, char *buf, size_t len);

#endif
