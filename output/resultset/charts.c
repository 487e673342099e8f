/* Report charts from pivots: the metric, IOPS against latency, paired bars, 3D bars. */
#include "output/resultset/charts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/resultset/chart_workload.h"
#include "output/resultset/chart_series.h"
#include "output/resultset/metrics.h"
#include "output/resultset/pivot.h"
#include "output/resultset/resultset_read.h"
#include "output/resultset/svg_chart.h"
#include "base/units.h"

/* The row values as x: numbers (log2 when powers of two), else categories 0, 1, 2 ... */
static enum svg_scale row_axis(const struct pivot *p, double *x)
{
	bool numeric = true;

	for (size_t r = 0; r < p->nrows; r++)
		numeric &= rs_is_number(p->rowv[r], &x[r]);
	for (size_t r = 0; !numeric && r < p->nrows; r++)
		x[r] = (double)r;
	if (!numeric)
		return SVG_CATEGORY;
	return p->nrows >= 3 && svg_powers_of_two(x, p->nrows) ? SVG_LOG2 : SVG_LINEAR;
}

/* what, then the keys that set this pivot apart: "IOPS, rw=rndrd". */
static void with_pivot_title(const char *what, const struct pivot *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", what, *p->title ? ", " : "", p->title);
}

/* Column c's name in a legend: "label 'tmpfs'", "numjobs=4"; the metric without columns. */
static void column_name(const struct pivot *p, const struct chart_opts *o, size_t c,
			const char *alone, char *buf, size_t len)
{
	if (o->cols && *p->colv[c])
		chart_key_value(o->cols, p->colv[c], buf, len);
	else
		snprintf(buf, len, "%s", alone);
}

int chart_pivot(FILE *f, const struct pivot *p, const struct chart_opts *o)
{
	struct chart_buf *b = chart_buf_new(p->ncols, p->nrows);
	char title[1024], name[128], ylabel[160], sub[600];
	struct metric_fmt fmt;
	enum svg_scale xs;
	int ret = -ENOMEM;

	if (!b)
		return ret;
	xs = row_axis(p, b->x);
	if (o->fmt)
		fmt = *o->fmt;
	else
		metric_fmt_for(o->m, p->v, p->nrows * p->ncols, &fmt);
	metric_title(o->m, name, sizeof(name));
	for (size_t c = 0; c < p->ncols; c++) {
		double *y = chart_buf_y(b, c), *e = chart_buf_err(b, c);

		for (size_t r = 0; r < p->nrows; r++) {
			y[r] = p->v[r * p->ncols + c] / fmt.div;
			e[r] = p->sd[r * p->ncols + c] / fmt.div;
		}
		column_name(p, o, c, name, b->names[c], sizeof(b->names[0]));
		b->s[c] = (struct svg_series){ b->names[c], b->x, y, p->nrows, .err = e };
	}
	with_pivot_title(name, p, title, sizeof(title));
	metric_label(o->m, &fmt, ylabel, sizeof(ylabel));
	chart_subtitle(p, sub, sizeof(sub));
	ret = svg_chart_write(f, &(struct svg_chart){
		.title = chart_title(o, title), .subtitle = chart_sub(o, sub), .x_label = o->rows, .y_label = ylabel,
		.x_scale = xs, .y_scale = o->log_y ? SVG_LOG10 : SVG_LINEAR,
		.x_names = p->rowv, .nx_names = xs == SVG_CATEGORY ? p->nrows : 0,
		.series = b->s, .nseries = p->ncols,
		.desc = "error bars: one sigma, over the repetitions or the run's samples" });
	chart_buf_free(b);
	return ret;
}

/* The latency a chart pairs with IOPS: the metric when it is one, else the mean. */
static void latency_metric(const struct metric *m, struct metric *out)
{
	if (m->base >= MB_LAT_MEAN && m->base <= MB_LAT_PCT) {
		*out = *m;
		return;
	}
	metric_parse("lat_mean", out);
	out->dir = m->dir;
}

static void iops_metric(const struct metric *lat, struct metric *out)
{
	metric_parse("iops", out);
	out->dir = lat->dir;
}

/* A column's IOPS and latencies (in ns) over the rows, means over repetitions. */
static void iops_lat(const struct pivot *p, size_t c, const struct metric *im,
		     const struct metric *lm, double *x, double *y)
{
	double sd;

	for (size_t r = 0; r < p->nrows; r++) {
		x[r] = pivot_mean(p, r * p->ncols + c, im, &sd);
		y[r] = pivot_mean(p, r * p->ncols + c, lm, &sd);
	}
}

int chart_hockey(FILE *f, const struct pivot *p, const struct chart_opts *o)
{
	struct chart_buf *b = chart_buf_new(p->ncols, p->nrows);
	char what[400], title[1024], lname[128], ylabel[160], xlabel[160], sub[600];
	struct metric im, lm;
	struct metric_fmt fmt;
	int ret;

	if (!b)
		return -ENOMEM;
	latency_metric(o->m, &lm);
	iops_metric(&lm, &im);
	for (size_t c = 0; c < p->ncols; c++)
		iops_lat(p, c, &im, &lm, chart_buf_xs(b, c), chart_buf_y(b, c));
	metric_fmt_for(&lm, b->y, p->nrows * p->ncols, &fmt);
	for (size_t r = 0; r < p->nrows; r++)
		chart_key_value(o->rows, p->rowv[r], b->point_names[r], sizeof(b->point_names[0]));
	for (size_t c = 0; c < p->ncols; c++) {
		double *y = chart_buf_y(b, c);

		for (size_t r = 0; r < p->nrows; r++)
			y[r] /= fmt.div;
		column_name(p, o, c, "runs", b->names[c], sizeof(b->names[0]));
		b->s[c] = (struct svg_series){ b->names[c], chart_buf_xs(b, c), y, p->nrows,
					       .point_names = b->point_ptrs };
	}
	metric_title(&lm, lname, sizeof(lname));
	snprintf(ylabel, sizeof(ylabel), "%s (%s)", lname, fmt.unit);
	metric_title(&im, xlabel, sizeof(xlabel));
	snprintf(what, sizeof(what), "%s against %s over %s", xlabel, lname, o->rows);
	with_pivot_title(what, p, title, sizeof(title));
	chart_subtitle(p, sub, sizeof(sub));
	ret = svg_chart_write(f, &(struct svg_chart){
		.title = chart_title(o, title), .subtitle = chart_sub(o, sub), .x_label = xlabel, .y_label = ylabel,
		.x_scale = SVG_LINEAR, .y_scale = o->log_y ? SVG_LOG10 : SVG_LINEAR,
		.series = b->s, .nseries = p->ncols,
		.desc = "each point is one run, named by its row value; IOPS across, latency up" });
	chart_buf_free(b);
	return ret;
}

/* Row values as bar categories: "iodepth=16". */
static void row_names(const struct pivot *p, const struct chart_opts *o, struct chart_buf *b)
{
	for (size_t r = 0; r < p->nrows; r++) {
		chart_key_value(o->rows, p->rowv[r], b->point_names[r], sizeof(b->point_names[0]));
		b->x[r] = (double)r;
	}
}

/* One unit for every latency series (the odd ones), set by the largest. */
static void lat_unit(struct chart_buf *b, const struct metric *lm, struct metric_fmt *fmt)
{
	double max = NAN;

	for (size_t k = 1; k < b->ns; k += 2)
		for (size_t r = 0; r < b->n; r++)
			if (isnan(max) || chart_buf_y(b, k)[r] > max)
				max = chart_buf_y(b, k)[r];
	metric_fmt_for(lm, &max, 1, fmt);
}

int chart_paired(FILE *f, const struct pivot *p, const struct chart_opts *o)
{
	struct chart_buf *b = chart_buf_new(2 * p->ncols, p->nrows);
	char title[1024], lname[32], y2label[160], col[120], sub[600];
	struct metric im, lm;
	struct metric_fmt fmt;
	int ret;

	if (!b)
		return -ENOMEM;
	latency_metric(o->m, &lm);
	iops_metric(&lm, &im);
	row_names(p, o, b);
	for (size_t c = 0; c < p->ncols; c++)
		iops_lat(p, c, &im, &lm, chart_buf_y(b, 2 * c), chart_buf_y(b, 2 * c + 1));
	lat_unit(b, &lm, &fmt);
	metric_title(&lm, lname, sizeof(lname));
	for (size_t c = 0; c < p->ncols; c++) {
		double *lat = chart_buf_y(b, 2 * c + 1);

		for (size_t r = 0; r < p->nrows; r++)
			lat[r] /= fmt.div;
		column_name(p, o, c, "", col, sizeof(col));
		snprintf(b->names[2 * c], sizeof(b->names[0]), "IOPS%s%s", *col ? " " : "", col);
		snprintf(b->names[2 * c + 1], sizeof(b->names[0]), "%s%s%s", lname, *col ? " " : "",
			 col);
		b->s[2 * c] = (struct svg_series){ b->names[2 * c], b->x, chart_buf_y(b, 2 * c),
						   p->nrows };
		b->s[2 * c + 1] = (struct svg_series){ b->names[2 * c + 1], b->x, lat, p->nrows,
						       .y2 = true };
	}
	snprintf(y2label, sizeof(y2label), "%s (%s)", lname, fmt.unit);
	with_pivot_title("IOPS and latency", p, title, sizeof(title));
	chart_subtitle(p, sub, sizeof(sub));
	ret = svg_chart_write(f, &(struct svg_chart){
		.title = chart_title(o, title), .subtitle = chart_sub(o, sub), .x_label = o->rows, .y_label = "IOPS",
		.x_scale = SVG_CATEGORY, .y_scale = o->log_y ? SVG_LOG10 : SVG_LINEAR,
		.x_names = b->point_ptrs, .nx_names = p->nrows, .series = b->s,
		.nseries = 2 * p->ncols, .mark = SVG_BARS, .y2_label = y2label,
		.y2_scale = SVG_LINEAR, .desc = "IOPS on the left axis, latency on the right" });
	chart_buf_free(b);
	return ret;
}

int chart_bars3d(FILE *f, const struct pivot *p, const struct chart_opts *o)
{
	struct chart_buf *b = chart_buf_new(p->ncols, p->nrows);
	char what[400], title[1024], name[128], ylabel[160], sub[600];
	struct metric_fmt fmt;
	int ret;

	if (!b)
		return -ENOMEM;
	metric_fmt_for(o->m, p->v, p->nrows * p->ncols, &fmt);
	metric_title(o->m, name, sizeof(name));
	for (size_t r = 0; r < p->nrows; r++) {
		snprintf(b->point_names[r], sizeof(b->point_names[0]), "%s", p->rowv[r]);
		b->x[r] = (double)r;
	}
	for (size_t c = 0; c < p->ncols; c++) {
		double *y = chart_buf_y(b, c);

		for (size_t r = 0; r < p->nrows; r++)
			y[r] = p->v[r * p->ncols + c] / fmt.div;
		column_name(p, o, c, name, b->names[c], sizeof(b->names[0]));
		b->s[c] = (struct svg_series){ b->names[c], b->x, y, p->nrows };
	}
	snprintf(what, sizeof(what), "%s by %s and %s", name, o->rows, o->cols ? o->cols : "run");
	with_pivot_title(what, p, title, sizeof(title));
	metric_label(o->m, &fmt, ylabel, sizeof(ylabel));
	chart_subtitle(p, sub, sizeof(sub));
	ret = svg_chart_write(f, &(struct svg_chart){
		.title = chart_title(o, title), .subtitle = chart_sub(o, sub), .x_label = o->rows, .y_label = ylabel,
		.z_label = o->cols, .x_scale = SVG_CATEGORY, .y_scale = SVG_LINEAR,
		.x_names = b->point_ptrs, .nx_names = p->nrows, .series = b->s,
		.nseries = p->ncols, .mark = SVG_BARS3D,
		.desc = "a row of bars per column value, the first in front" });
	chart_buf_free(b);
	return ret;
}
