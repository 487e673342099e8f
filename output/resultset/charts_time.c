/* Charts over time from fio's logs: rates, latency percentiles, a latency heatmap. */
#include "output/resultset/charts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/resultset/chart_series.h"
#include "output/resultset/latlog_read.h"
#include "output/resultset/logfile_read.h"
#include "output/resultset/metrics.h"
#include "output/resultset/svg_chart.h"
#include "base/diag.h"
#include "base/units.h"

#define MAX_LOGS	(CHART_MAX_SERIES / LOG_NDIR - 1)	/* room for "all jobs" */
#define NLAT_PCT	3

static const char *const dir_name[LOG_NDIR] = { "read", "write", "trim" };
static const double lat_pct[NLAT_PCT] = { 50, 99, 100 };
static const char *const lat_pct_name[NLAT_PCT] = { "p50", "p99", "max" };

static const char *base_name(const char *path)
{
	const char *base = strrchr(path, '/');

	return base ? base + 1 : path;
}

struct log_chart {
	struct log_points pts[MAX_LOGS + 1][LOG_NDIR];	/* the last: all logs added */
	char names[CHART_MAX_SERIES][CHART_NAME_LEN];
	struct svg_series s[CHART_MAX_SERIES];
	size_t nfiles, ns;
	bool summed;		/* an "all jobs" line was drawn */
};

/* The directions of p as series named "NAME read", "NAME write". */
static void add_series(struct log_chart *lc, struct log_points *p, const char *name)
{
	for (unsigned k = 0; k < LOG_NDIR; k++) {
		if (!p[k].n)
			continue;
		snprintf(lc->names[lc->ns], sizeof(lc->names[0]), "%s %s", name, dir_name[k]);
		lc->s[lc->ns] = (struct svg_series){ lc->names[lc->ns], p[k].t_s, p[k].v, p[k].n };
		lc->ns++;
	}
}

static int read_logs(struct log_chart *lc, const char *const *paths, size_t n, bool iops,
		     struct diag *d)
{
	enum log_kind kind = iops ? LOG_IOPS : LOG_BW;
	int ret = 0;

	if (n > MAX_LOGS)
		return diag_set(d, -E2BIG, "too many log files (at most %d)", MAX_LOGS);
	for (size_t i = 0; !ret && i < n; i++) {
		ret = logfile_read(paths[i], kind, lc->pts[i], d);
		lc->nfiles += !ret;
		if (!ret)
			add_series(lc, lc->pts[i], base_name(paths[i]));
	}
	if (!ret && n > 1)
		ret = logfile_read_sum(paths, n, kind, lc->pts[MAX_LOGS], d);
	lc->summed = !ret && n > 1;
	if (lc->summed)
		add_series(lc, lc->pts[MAX_LOGS], "all jobs");
	return ret > 0 ? 0 : ret;
}

int chart_logs(FILE *f, const char *const *paths, size_t n, bool iops,
	       const struct chart_opts *o, struct diag *d)
{
	struct log_chart *lc = calloc(1, sizeof(*lc));
	char sub[1024];
	int ret;

	if (!lc)
		return diag_set(d, -ENOMEM, "out of memory");
	ret = read_logs(lc, paths, n, iops, d);
	chart_logs_sub(o, paths, n, lc->summed ? "each, and all of them added (all jobs)" :
		       NULL, sub, sizeof(sub));
	if (!ret)
		ret = svg_chart_write(f, &(struct svg_chart){
			.title = chart_title(o, iops ? "IOPS over time" : "Bandwidth over time"),
			.subtitle = chart_sub(o, sub),
			.x_label = "time (s)", .y_label = iops ? "IOPS" : "bandwidth (MiB/s)",
			.x_scale = SVG_LINEAR, .y_scale = o->log_y ? SVG_LOG10 : SVG_LINEAR,
			.series = lc->s, .nseries = lc->ns,
			.desc = "a line per log file and direction, from fio's log lines" });
	for (size_t i = 0; i < lc->nfiles; i++)
		log_points_free(lc->pts[i]);
	log_points_free(lc->pts[MAX_LOGS]);
	free(lc);
	return ret;
}

struct lat_chart {
	struct chart_buf *b;
	double *t;		/* per series: the windows' ends */
	size_t ns;
	unsigned averaged;	/* logs of window means (log_avg_msec), drawn as means */
};

/* p50, p99 and max per window of one log and direction; empty windows left out. */
static int add_lat_series(struct lat_chart *lc, const struct lat_samples *ls, unsigned d,
			  const char *name)
{
	struct lat_windows w;
	size_t npts = lc->b->n;
	int ret = latlog_windows(ls, d, &w);

	for (size_t k = 0; !ret && k < NLAT_PCT && lc->ns < CHART_MAX_SERIES; k++) {
		double *x = chart_buf_xs(lc->b, lc->ns), *y = chart_buf_y(lc->b, lc->ns);

		for (size_t i = 0; i < w.n && i < npts; i++) {
			uint64_t v;

			x[i] = w.hi_s[i];
			hist_percentiles(&w.h[i], &lat_pct[k], 1, &v);
			y[i] = hist_total(&w.h[i]) ? (double)v : NAN;
		}
		snprintf(lc->b->names[lc->ns], CHART_NAME_LEN, "%s %s %s", name, dir_name[d],
			 lat_pct_name[k]);
		lc->b->s[lc->ns] = (struct svg_series){ lc->b->names[lc->ns], x, y,
							w.n < npts ? w.n : npts };
		lc->ns++;
	}
	lat_windows_free(&w);
	return ret;
}

/*
 * A log written with log_avg_msec holds each window's mean latency, not each I/O's: no
 * percentile can come of it. Each direction is drawn as the mean over the chart's
 * windows (means of equal windows, averaged), named so.
 */
static void add_mean_series(struct lat_chart *lc, const struct log_entries *es,
			    const char *name)
{
	uint64_t max_ms = 0, win;

	for (size_t i = 0; i < es->n; i++)
		max_ms = es->e[i].ms > max_ms ? es->e[i].ms : max_ms;
	win = max_ms / lc->b->n + 1;
	for (unsigned d = 0; d < LOG_NDIR && lc->ns < CHART_MAX_SERIES; d++) {
		double *x = chart_buf_xs(lc->b, lc->ns), *y = chart_buf_y(lc->b, lc->ns);
		double *sum = chart_buf_err(lc->b, lc->ns);	/* as scratch: counts */
		size_t n = 0;

		for (size_t w = 0; w < lc->b->n; w++)
			x[w] = y[w] = sum[w] = 0;
		for (size_t i = 0; i < es->n; i++) {
			if (es->e[i].ddir != d)
				continue;
			y[es->e[i].ms / win] += (double)es->e[i].value;
			sum[es->e[i].ms / win]++;
		}
		for (size_t w = 0; w <= max_ms / win; w++) {
			x[w] = (double)((w + 1) * win) / 1000;
			y[w] = sum[w] ? y[w] / sum[w] : NAN;
			n += sum[w] > 0;
			sum[w] = NAN;
		}
		if (!n)
			continue;
		snprintf(lc->b->names[lc->ns], CHART_NAME_LEN, "%s %s mean", name, dir_name[d]);
		lc->b->s[lc->ns] = (struct svg_series){ lc->b->names[lc->ns], x, y,
							(size_t)(max_ms / win) + 1 };
		lc->ns++;
	}
}

/* Whether the log at path holds window means (log_avg_msec): fio writes their bs as 0. */
static int averaged_log(const char *path, struct log_entries *es, struct diag *d)
{
	size_t avg = 0;
	int ret;

	if (logfile_kind(path) == LOG_HIST)
		return 0;
	ret = logfile_entries(path, es, d);
	for (size_t i = 0; !ret && i < es->n; i++)
		avg += es->e[i].bs == 0;
	return ret < 0 ? ret : avg > 0;
}

static int lat_log_series(struct lat_chart *lc, const char *path, struct diag *d)
{
	struct log_entries es = { 0 };
	struct lat_samples ls = { 0 };
	int ret = averaged_log(path, &es, d);

	if (ret > 0) {
		add_mean_series(lc, &es, base_name(path));
		lc->averaged++;
	}
	free(es.e);
	if (ret)
		return ret > 0 ? 0 : ret;
	ret = latlog_add(&ls, path, d);

	for (unsigned dir = 0; !ret && dir < LOG_NDIR; dir++)
		if (ls.dirs & 1u << dir)
			ret = add_lat_series(lc, &ls, dir, base_name(path));
	if (ret == -ENOMEM && !d->msg[0])
		diag_set(d, ret, "out of memory");
	latlog_free(&ls);
	return ret;
}

int chart_lat_logs(FILE *f, const char *const *paths, size_t n, const struct chart_opts *o,
		   struct diag *d)
{
	struct lat_chart lc = { chart_buf_new(CHART_MAX_SERIES, 64), NULL, 0, 0 };
	struct metric m;
	struct metric_fmt fmt;
	char ylabel[64], sub[1024];
	int ret = 0;

	if (!lc.b)
		return diag_set(d, -ENOMEM, "out of memory");
	for (size_t i = 0; !ret && i < n; i++)
		ret = lat_log_series(&lc, paths[i], d);
	chart_logs_sub(o, paths, n, !lc.averaged ? "p50, p99 and max of each window, per log "
		       "and direction" : lc.averaged == n ? "the mean of each window, per log and "
		       "direction: the logs hold means (log_avg_msec), not each I/O" :
		       "p50, p99 and max of each window; the mean where a log holds means "
		       "(log_avg_msec)", sub, sizeof(sub));
	metric_parse("lat_p50", &m);
	metric_fmt_for(&m, lc.b->y, lc.b->ns * lc.b->n, &fmt);
	for (size_t i = 0; i < lc.b->ns * lc.b->n; i++)
		lc.b->y[i] /= fmt.div;
	snprintf(ylabel, sizeof(ylabel), "latency (%s)", fmt.unit);
	if (!ret)
		ret = svg_chart_write(f, &(struct svg_chart){
			.title = chart_title(o, "Latency over time"), .x_label = "time (s)",
			.y_label = ylabel, .subtitle = chart_sub(o, sub),
			.x_scale = SVG_LINEAR, .y_scale = SVG_LOG10, .series = lc.b->s,
			.nseries = lc.ns, .desc = "from fio's latency or histogram logs" });
	chart_buf_free(lc.b);
	return ret;
}

/* Rows of the heatmap: a power of two of latency each, from the lowest to the highest. */
static size_t heat_rows(const struct lat_windows *w, unsigned *lo, unsigned *hi)
{
	*lo = HIST_BUCKETS;
	*hi = 0;
	for (size_t i = 0; i < w->n; i++) {
		for (unsigned b = 0; b < HIST_BUCKETS; b++) {
			if (!w->h[i].count[b])
				continue;
			unsigned row = (unsigned)floor(log2((double)hist_bucket_value(b) + 1));

			*lo = row < *lo ? row : *lo;
			*hi = row + 1 > *hi ? row + 1 : *hi;
		}
	}
	return *hi > *lo ? *hi - *lo : 0;
}

static int write_heatmap(FILE *f, const struct lat_windows *w, unsigned dir, const char *sub,
			 const struct chart_opts *o)
{
	unsigned lo, hi;
	size_t ny = heat_rows(w, &lo, &hi);
	double *xe = malloc((w->n + 1) * sizeof(*xe)), *ye = malloc((ny + 1) * sizeof(*ye));
	double *count = calloc(w->n * ny + 1, sizeof(*count)), div;
	char title[64], ylabel[64];
	int ret = -ENOMEM;

	if (!xe || !ye || !count)
		goto out;
	div = hi > 30 ? 1e6 : hi > 20 ? 1e3 : 1;	/* ms past 2^30 ns, us past 2^20 */
	for (size_t i = 0; i < w->n; i++) {
		xe[i] = w->lo_s[i];
		xe[i + 1] = w->hi_s[i];
		for (unsigned b = 0; b < HIST_BUCKETS; b++) {
			unsigned row = (unsigned)floor(log2((double)hist_bucket_value(b) + 1));

			if (w->h[i].count[b])
				count[i * ny + row - lo] += (double)w->h[i].count[b];
		}
	}
	for (size_t j = 0; j <= ny; j++)
		ye[j] = ldexp(1, (int)(lo + j)) / div;
	snprintf(title, sizeof(title), "Latency heatmap, %ss", dir_name[dir]);
	snprintf(ylabel, sizeof(ylabel), "latency (%s)", div == 1e6 ? "ms" : div == 1e3 ? "us" :
		 "ns");
	ret = svg_chart_write(f, &(struct svg_chart){
		.title = chart_title(o, title), .subtitle = chart_sub(o, sub),
		.x_label = "time (s)", .y_label = ylabel,
		.x_scale = SVG_LINEAR, .y_scale = SVG_LOG10, .mark = SVG_HEATMAP,
		.heat = &(struct svg_heat){ xe, ye, w->n, ny, count },
		.desc = "I/Os per time window and power of two of latency, darker for more" });
out:
	free(xe);
	free(ye);
	free(count);
	return ret;
}

const char *chart_lat_averaged(const char *const *paths, size_t n)
{
	struct diag d = { 0 };
	const char *found = NULL;

	for (size_t i = 0; !found && i < n; i++) {
		struct log_entries es = { 0 };

		if (averaged_log(paths[i], &es, &d) > 0)
			found = paths[i];
		free(es.e);
	}
	diag_clear(&d);		/* a log that cannot be read: the charts say so */
	return found;
}

unsigned chart_lat_dirs(const char *const *paths, size_t n, struct diag *d, int *err)
{
	struct lat_samples ls = { 0 };
	unsigned dirs;

	*err = 0;
	for (size_t i = 0; !*err && i < n; i++)
		*err = latlog_add(&ls, paths[i], d);
	dirs = ls.dirs;
	latlog_free(&ls);
	return dirs;
}

int chart_heatmap(FILE *f, const char *const *paths, size_t n, unsigned dir,
		  const struct chart_opts *o, struct diag *d)
{
	struct lat_samples ls = { 0 };
	struct lat_windows w = { 0 };
	char sub[1024];
	int ret = 0;

	for (size_t i = 0; !ret && i < n; i++) {
		struct log_entries es = { 0 };

		ret = averaged_log(paths[i], &es, d);
		free(es.e);
		if (ret > 0)
			ret = diag_set(d, -EINVAL, "'%s' holds the mean latency of each "
				       "log_avg_msec window, not each I/O's: a heatmap needs a "
				       "per-I/O log (log_avg_msec=0) or a histogram log "
				       "(write_hist_log)", paths[i]);
	}
	for (size_t i = 0; !ret && i < n; i++)
		ret = latlog_add(&ls, paths[i], d);
	if (!ret && latlog_windows(&ls, dir, &w) < 0)
		ret = diag_set(d, -ENOMEM, "out of memory");
	chart_logs_sub(o, paths, n, n > 1 ? "all of them added" : NULL, sub, sizeof(sub));
	if (!ret)
		ret = write_heatmap(f, &w, dir, sub, o);
	lat_windows_free(&w);
	latlog_free(&ls);
	return ret;
}
