/* Report charts: series built from pivots, merged latency bins and log files. */
#include "output/resultset/charts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/resultset/logfile_read.h"
#include "output/resultset/metrics.h"
#include "output/resultset/pivot.h"
#include "output/resultset/resultset_read.h"
#include "output/resultset/svg_chart.h"
#include "base/diag.h"
#include "base/units.h"

#define MAX_SERIES	64

static const double curve_pct[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 99.995, 99.999,
};
#define NPCT	ARRAY_SIZE(curve_pct)

int chart_pivot(FILE *f, const struct pivot *p, const char *rows, const struct metric *m)
{
	struct svg_series *s = calloc(p->ncols + 1, sizeof(*s));
	double *x = malloc((p->nrows + 1) * sizeof(*x));
	double *y = malloc((p->nrows * p->ncols + 1) * sizeof(*y));
	char title[700], name[128], ylabel[160];
	struct metric_fmt fmt;
	int numeric = 1, ret = -ENOMEM;

	if (!s || !x || !y)
		goto out;
	metric_fmt_for(m, p->v, p->nrows * p->ncols, &fmt);
	for (size_t r = 0; r < p->nrows; r++)
		numeric &= rs_is_number(p->rowv[r], &x[r]);
	for (size_t r = 0; !numeric && r < p->nrows; r++)
		x[r] = (double)r;
	for (size_t c = 0; c < p->ncols; c++) {
		for (size_t r = 0; r < p->nrows; r++)
			y[c * p->nrows + r] = p->v[r * p->ncols + c] / fmt.div;
		s[c] = (struct svg_series){ *p->colv[c] ? p->colv[c] : m->name, x,
					    y + c * p->nrows, p->nrows };
	}
	metric_title(m, name, sizeof(name));
	snprintf(title, sizeof(title), "%s%s%s", name, *p->title ? ", " : "", p->title);
	metric_label(m, &fmt, ylabel, sizeof(ylabel));
	ret = svg_chart_write(f, &(struct svg_chart){
		.title = title, .x_label = rows, .y_label = ylabel,
		.x_scale = !numeric ? SVG_CATEGORY : p->nrows >= 3 && svg_powers_of_two(x, p->nrows)
			   ? SVG_LOG2 : SVG_LINEAR,
		.y_scale = SVG_LINEAR, .x_names = p->rowv, .nx_names = numeric ? 0 : p->nrows,
		.series = s, .nseries = p->ncols });
out:
	free(s);
	free(x);
	free(y);
	return ret;
}

/* The units of sel whose key has the value v. */
static size_t units_with(const struct rs_sel *sel, const char *key, const char *v,
			 const struct rs_unit **out)
{
	size_t n = 0;

	for (size_t i = 0; i < sel->n; i++) {
		const char *uv = rs_value(sel->units[i].cell, &sel->units[i], key);

		if (!strcmp(uv ? uv : "", v))
			out[n++] = &sel->units[i];
	}
	return n;
}

/* One curve: the percentiles that at least one sample lies beyond, in ns. */
static int curve(const struct rs_sel *sel, const char *key, const char *v, double *y,
		 const struct rs_unit **tmp)
{
	size_t n = units_with(sel, key, v, tmp);
	uint64_t samples;
	int ret;

	ret = us_lat_percentiles_set(tmp, n, US_ALL, US_LAT, curve_pct, NPCT, y, &samples);
	for (size_t i = 0; i < NPCT; i++)
		if (ret < 0 || (1 - curve_pct[i] / 100) * (double)samples < 1)
			y[i] = NAN;
	return ret == -ENOMEM ? ret : 0;
}

static int write_latency(FILE *f, struct svg_series *s, size_t ns, double *y)
{
	struct metric m;
	struct metric_fmt fmt;
	char ylabel[64];

	metric_parse("lat_p50", &m);
	metric_fmt_for(&m, y, ns * NPCT, &fmt);
	for (size_t i = 0; i < ns * NPCT; i++)
		y[i] /= fmt.div;
	snprintf(ylabel, sizeof(ylabel), "latency (%s)", fmt.unit);
	return svg_chart_write(f, &(struct svg_chart){
		.title = "Latency percentiles, reads and writes together",
		.x_label = "percentile", .y_label = ylabel, .x_scale = SVG_NINES,
		.y_scale = SVG_LOG10, .series = s, .nseries = ns });
}

int chart_latency(FILE *f, const struct rs_sel *sel, const char *key)
{
	const struct rs_unit **tmp = malloc((sel->n + 1) * sizeof(*tmp));
	const char *names[MAX_SERIES];
	struct svg_series s[MAX_SERIES];
	double *y = malloc(MAX_SERIES * NPCT * sizeof(*y));
	size_t ns = 0;
	int ret = -ENOMEM;

	for (size_t i = 0; tmp && y && i < sel->n && ns < MAX_SERIES; i++) {
		const char *v = rs_value(sel->units[i].cell, &sel->units[i], key);
		size_t k;

		v = v ? v : "";
		for (k = 0; k < ns && strcmp(names[k], v); k++)
			;
		if (k < ns)
			continue;
		names[ns] = v;
		s[ns] = (struct svg_series){ *v ? v : "(none)", curve_pct, y + ns * NPCT, NPCT };
		if (curve(sel, key, v, y + ns * NPCT, tmp) < 0)
			goto out;
		ns++;
	}
	if (tmp && y)
		ret = write_latency(f, s, ns, y);
out:
	free(tmp);
	free(y);
	return ret;
}

struct log_chart {
	struct log_points pts[MAX_SERIES / LOG_NDIR][LOG_NDIR];
	char names[MAX_SERIES][160];
	struct svg_series s[MAX_SERIES];
	size_t nfiles, ns;
};

/* A file's directions as series named "file read", "file write". */
static int add_log(struct log_chart *lc, const char *path, int iops, struct diag *d)
{
	static const char *const dir_name[LOG_NDIR] = { "read", "write", "trim" };
	struct log_points *p = lc->pts[lc->nfiles];
	const char *base = strrchr(path, '/');
	int ret;

	if (lc->nfiles == MAX_SERIES / LOG_NDIR)
		return diag_set(d, -E2BIG, "too many log files (at most %d)", MAX_SERIES / LOG_NDIR);
	ret = logfile_read(path, iops ? LOG_IOPS : LOG_BW, p, d);
	if (ret < 0)
		return ret;
	lc->nfiles++;
	for (unsigned k = 0; k < LOG_NDIR; k++) {
		if (!p[k].n)
			continue;
		snprintf(lc->names[lc->ns], sizeof(lc->names[0]), "%s %s", base ? base + 1 : path,
			 dir_name[k]);
		lc->s[lc->ns] = (struct svg_series){ lc->names[lc->ns], p[k].t_s, p[k].v, p[k].n };
		lc->ns++;
	}
	return 0;
}

int chart_logs(FILE *f, const char *const *paths, size_t n, int iops, struct diag *d)
{
	struct log_chart *lc = calloc(1, sizeof(*lc));
	int ret = 0;

	if (!lc)
		return diag_set(d, -ENOMEM, "out of memory");
	for (size_t i = 0; !ret && i < n; i++)
		ret = add_log(lc, paths[i], iops, d);
	if (!ret)
		ret = svg_chart_write(f, &(struct svg_chart){
			.title = iops ? "IOPS over time" : "Bandwidth over time",
			.x_label = "time (s)", .y_label = iops ? "IOPS" : "bandwidth (MiB/s)",
			.x_scale = SVG_LINEAR, .y_scale = SVG_LINEAR, .series = lc->s,
			.nseries = lc->ns });
	for (size_t i = 0; i < lc->nfiles; i++)
		log_points_free(lc->pts[i]);
	free(lc);
	return ret;
}
