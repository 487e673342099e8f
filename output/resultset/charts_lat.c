/* Latency charts from the json+ of each run: percentile curves and fio's buckets. */
#include "output/resultset/charts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/resultset/chart_series.h"
#include "output/resultset/cmd_common.h"
#include "output/resultset/metrics.h"
#include "output/resultset/pivot.h"
#include "output/resultset/resultset_read.h"
#include "output/resultset/svg_chart.h"
#include "base/units.h"

#define MAX_BUCKETS	40

static const double curve_pct[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 99.995, 99.999,
};
#define NPCT	ARRAY_SIZE(curve_pct)

static const char *const dir_names[] = { "read", "write", "trim" };
static const char *const dir_plural[] = { "reads", "writes", "trims" };

/* A run's name in a legend: its row and column values, its repetition, a direction. */
static void unit_name(const struct pivot *p, const struct chart_opts *o, size_t i,
		      const char *dir, char *buf, size_t len)
{
	size_t place = p->place[i];
	unsigned rep = pivot_repeat(p->units[i]);
	char col[CHART_NAME_LEN];

	chart_key_value(o->rows, p->rowv[place / p->ncols], buf, len);
	if (o->cols) {
		chart_key_value(o->cols, p->colv[place % p->ncols], col, sizeof(col));
		cmd_append(buf, len, ", %s", col);
	}
	if (rep)
		cmd_append(buf, len, ", repeat %u", rep);
	if (dir)
		cmd_append(buf, len, ", %s", dir);
}

/* A curve: the percentiles that at least one sample lies beyond, in ns; false for none. */
static bool curve(const struct rs_unit *u, enum us_dir d, double *y)
{
	uint64_t samples;

	if (us_lat_percentiles_set(&u, 1, d, US_LAT, curve_pct, NPCT, y, &samples) < 0)
		return false;
	for (size_t i = 0; i < NPCT; i++)
		if ((1 - curve_pct[i] / 100) * (double)samples < 1)
			y[i] = NAN;
	return true;
}

static void latency_title(const struct pivot *p, unsigned dirs, char *buf, size_t len)
{
	char what[64] = "";

	for (unsigned d = 0, k = 0; d < 3; d++)
		if (dirs & 1u << d)
			snprintf(what + strlen(what), sizeof(what) - strlen(what), "%s%s",
				 k++ ? " and " : "", dir_plural[d]);
	if (dirs & (dirs - 1))
		snprintf(what + strlen(what), sizeof(what) - strlen(what), " apart");
	snprintf(buf, len, "Latency percentiles, %s%s%s", *what ? what : "no I/O",
		 *p->title ? ", " : "", p->title);
}

static int write_latency(FILE *f, const struct pivot *p, struct chart_buf *b, size_t ns,
			 unsigned dirs, const struct chart_opts *o)
{
	struct metric m;
	struct metric_fmt fmt;
	char ylabel[64], title[700], sub[600];

	metric_parse("lat_p50", &m);
	metric_fmt_for(&m, b->y, ns * NPCT, &fmt);
	for (size_t i = 0; i < ns * NPCT; i++)
		b->y[i] /= fmt.div;
	snprintf(ylabel, sizeof(ylabel), "latency (%s)", fmt.unit);
	latency_title(p, dirs, title, sizeof(title));
	chart_subtitle(p, sub, sizeof(sub));
	return svg_chart_write(f, &(struct svg_chart){
		.title = chart_title(o, title), .subtitle = chart_sub(o, sub), .x_label = "percentile", .y_label = ylabel,
		.x_scale = SVG_NINES, .y_scale = SVG_LOG10, .series = b->s, .nseries = ns,
		.desc = "a curve per run and direction, from its json+ latency bins" });
}

int chart_latency(FILE *f, const struct pivot *p, const struct chart_opts *o)
{
	struct chart_buf *b = chart_buf_new(CHART_MAX_SERIES, NPCT);
	size_t *order = malloc((p->nunits + 1) * sizeof(*order)), n, ns = 0;
	unsigned dirs = 0;
	int ret = -ENOMEM;

	if (!b || !order)
		goto out;
	n = pivot_place_order(p, order);
	for (size_t k = 0; k < n; k++) {
		const struct rs_unit *u = p->units[order[k]];

		for (unsigned d = 0; d < 3 && ns < CHART_MAX_SERIES; d++) {
			if ((o->m->dir != US_ALL && o->m->dir != d) || !us_ios(u, (enum us_dir)d) ||
			    !curve(u, (enum us_dir)d, chart_buf_y(b, ns)))
				continue;
			unit_name(p, o, order[k], dir_names[d], b->names[ns], sizeof(b->names[0]));
			b->s[ns] = (struct svg_series){ b->names[ns], curve_pct, chart_buf_y(b, ns),
							NPCT };
			dirs |= 1u << d;
			ns++;
		}
	}
	ret = write_latency(f, p, b, ns, dirs, o);
out:
	chart_buf_free(b);
	free(order);
	return ret;
}

/* The buckets from the first to the last that holds any I/O of any series. */
static void used_buckets(const double *pct, size_t ns, size_t nb, size_t *lo, size_t *hi)
{
	*lo = nb;
	*hi = 0;
	for (size_t k = 0; k < ns; k++) {
		for (size_t i = 0; i < nb; i++) {
			if (pct[k * MAX_BUCKETS + i] > 0) {
				*lo = i < *lo ? i : *lo;
				*hi = i + 1 > *hi ? i + 1 : *hi;
			}
		}
	}
	if (*lo >= *hi)
		*lo = *hi = 0;
}

int chart_buckets(FILE *f, const struct pivot *p, const struct chart_opts *o)
{
	size_t nb = 0, ns = 0, lo, hi, *order = malloc((p->nunits + 1) * sizeof(*order));
	double *pct = calloc(CHART_MAX_SERIES * MAX_BUCKETS, sizeof(*pct));
	struct chart_buf *b = chart_buf_new(CHART_MAX_SERIES, MAX_BUCKETS);
	const char *names[MAX_BUCKETS];
	char title[1024], sub[600];
	int ret = -ENOMEM;

	if (!b || !order || !pct)
		goto out;
	for (size_t n = pivot_place_order(p, order), k = 0; k < n && ns < CHART_MAX_SERIES; k++) {
		int got = us_lat_buckets(p->units[order[k]], pct + ns * MAX_BUCKETS);

		if (got <= 0)
			continue;
		nb = (size_t)got;
		unit_name(p, o, order[k], NULL, b->names[ns], sizeof(b->names[0]));
		ns++;
	}
	used_buckets(pct, ns, nb, &lo, &hi);
	for (size_t i = lo; i < hi; i++) {
		names[i - lo] = us_buckets[i].label;
		b->x[i - lo] = (double)(i - lo);
	}
	for (size_t k = 0; k < ns; k++)
		b->s[k] = (struct svg_series){ b->names[k], b->x, pct + k * MAX_BUCKETS + lo,
					       hi - lo };
	snprintf(title, sizeof(title), "Latency buckets%s%s", *p->title ? ", " : "", p->title);
	chart_subtitle(p, sub, sizeof(sub));
	ret = svg_chart_write(f, &(struct svg_chart){
		.title = chart_title(o, title), .subtitle = chart_sub(o, sub), .x_label = "latency up to",
		.y_label = "share of I/Os (%)", .x_scale = SVG_CATEGORY,
		.y_scale = o->log_y ? SVG_LOG10 : SVG_LINEAR, .x_names = names, .nx_names = hi - lo,
		.series = b->s, .nseries = ns, .mark = SVG_BARS,
		.desc = "fio's latency_ns, latency_us and latency_ms buckets, every direction" });
out:
	chart_buf_free(b);
	free(order);
	free(pct);
	return ret;
}
