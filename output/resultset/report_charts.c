/* iojob report's chart kinds: their table, the charts of each for --svg, the HTML page's. */
#include "output/resultset/report_charts.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "output/resultset/cmd_common.h"
#include "output/resultset/html_page.h"
#include "output/resultset/logfile_read.h"
#include "output/resultset/metrics.h"
#include "output/resultset/pivot.h"
#include "output/resultset/resultset_read.h"
#include "output/resultset/table.h"
#include "base/diag.h"
#include "base/units.h"

#define OVER_TIME	"over time, from the bw or iops LOG files; the default with those alone"

static size_t per_pivot(const struct report_view *v)
{
	return v->npiv;
}

static size_t one(const struct report_view *v)
{
	(void)v;
	return 1;
}

static int metric(const struct report_view *v, FILE *f, size_t i, struct diag *d)
{
	(void)d;
	return chart_pivot(f, &v->piv[i], &v->o);
}

static int hockey(const struct report_view *v, FILE *f, size_t i, struct diag *d)
{
	(void)d;
	return chart_hockey(f, &v->piv[i], &v->o);
}

static int paired(const struct report_view *v, FILE *f, size_t i, struct diag *d)
{
	(void)d;
	return chart_paired(f, &v->piv[i], &v->o);
}

static int bars3d(const struct report_view *v, FILE *f, size_t i, struct diag *d)
{
	(void)d;
	return chart_bars3d(f, &v->piv[i], &v->o);
}

static int latency(const struct report_view *v, FILE *f, size_t i, struct diag *d)
{
	(void)d;
	return chart_latency(f, &v->piv[i], &v->o);
}

static int buckets(const struct report_view *v, FILE *f, size_t i, struct diag *d)
{
	(void)d;
	return chart_buckets(f, &v->piv[i], &v->o);
}

/* The logs of kinds lo to hi among those given. */
static size_t logs_of(const struct report_view *v, enum log_kind lo, enum log_kind hi,
		      const char **out)
{
	size_t n = 0;

	for (size_t i = 0; i < v->nlogs; i++)
		if (logfile_kind(v->logs[i]) >= lo && logfile_kind(v->logs[i]) <= hi)
			out[n++] = v->logs[i];
	return n;
}

size_t report_logs_for(const struct report_view *v, enum report_source s, const char **out)
{
	if (s == FROM_LAT_LOGS)
		return logs_of(v, LOG_LAT, LOG_HIST, out);
	return s == FROM_RATE_LOGS ? logs_of(v, LOG_BW, LOG_IOPS, out) : 0;
}

static int rate(const struct report_view *v, FILE *f, enum log_kind k, struct diag *d)
{
	const char *logs[REPORT_MAX_LOGS];
	size_t n = logs_of(v, k, k, logs);

	if (!n)
		return diag_set(d, -EINVAL, "--chart %s needs %s log files", k == LOG_IOPS ?
				"iops" : "bw", k == LOG_IOPS ? "NAME_iops.N.log" : "NAME_bw.N.log");
	return chart_logs(f, logs, n, k == LOG_IOPS, &v->o, d);
}

static int bw(const struct report_view *v, FILE *f, size_t i, struct diag *d)
{
	(void)i;
	return rate(v, f, LOG_BW, d);
}

static int iops(const struct report_view *v, FILE *f, size_t i, struct diag *d)
{
	(void)i;
	return rate(v, f, LOG_IOPS, d);
}

static int lat_time(const struct report_view *v, FILE *f, size_t i, struct diag *d)
{
	const char *logs[REPORT_MAX_LOGS];
	size_t n = logs_of(v, LOG_LAT, LOG_HIST, logs);

	(void)i;
	return chart_lat_logs(f, logs, n, &v->o, d);
}

static size_t heat_count(const struct report_view *v)
{
	const char *logs[REPORT_MAX_LOGS];
	size_t n = logs_of(v, LOG_LAT, LOG_HIST, logs), k = 0;
	struct diag d = { 0 };
	int err;
	unsigned dirs = n ? chart_lat_dirs(logs, n, &d, &err) : 0;

	diag_clear(&d);		/* the charts read the logs again and say it */
	if (n && err)
		return 1;	/* the chart says what is wrong */
	for (; dirs; dirs &= dirs - 1)
		k++;
	return k;
}

static int heatmap(const struct report_view *v, FILE *f, size_t i, struct diag *d)
{
	const char *logs[REPORT_MAX_LOGS];
	size_t n = logs_of(v, LOG_LAT, LOG_HIST, logs);
	int err;
	unsigned dirs = chart_lat_dirs(logs, n, d, &err), dir;

	if (err)
		return err;
	for (dir = 0; dir < LOG_NDIR; dir++)
		if (dirs & 1u << dir && !i--)
			break;
	return chart_heatmap(f, logs, n, dir, &v->o, d);
}

const struct report_chart report_charts[] = {
	{ "metric", FROM_RESULTS, "the metric against the row key, a line per column, sigma "
	  "as error bars; the default", per_pivot, metric },
	{ "hockey", FROM_RESULTS, "IOPS against latency, a point per row value, for an "
	  "iodepth or numjobs sweep; the metric when it is a latency, else the mean", per_pivot,
	  hockey },
	{ "bars", FROM_RESULTS, "IOPS and latency bars side by side per row value, on two "
	  "axes", per_pivot, paired },
	{ "bars3d", FROM_RESULTS, "the metric as 3D bars over the row and column keys, "
	  "as --rows iodepth --cols numjobs", per_pivot, bars3d },
	{ "latency", FROM_RESULTS, "percentile curves per run and direction, from the "
	  "json+ bins; a read_ or write_ metric keeps its direction alone", per_pivot, latency },
	{ "buckets", FROM_RESULTS, "fio's latency buckets per run, as bars", per_pivot,
	  buckets },
	{ "bw", FROM_RATE_LOGS, OVER_TIME, one, bw },
	{ "iops", FROM_RATE_LOGS, OVER_TIME, one, iops },
	{ "lat-time", FROM_LAT_LOGS, "p50, p99 and max over time, from write_lat_log or "
	  "write_hist_log LOG files", one, lat_time },
	{ "heatmap", FROM_LAT_LOGS, "a latency heatmap per direction, from the same LOG files",
	  heat_count, heatmap },
	{ NULL },
};

const struct report_chart *report_chart_find(const char *name)
{
	for (const struct report_chart *c = report_charts; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

void report_charts_describe(char *buf, size_t len)
{
	snprintf(buf, len, "what --svg draws: ");
	for (const struct report_chart *c = report_charts; c->name; c++) {
		bool same_next = c[1].name && !strcmp(c[1].help, c->help);

		cmd_append(buf, len, "%s%s", c->name, same_next ? " or " : "");
		if (!same_next)
			cmd_append(buf, len, " (%s)%s", c->help, c[1].name ? ", " : "");
	}
}

const char *report_chart_at(unsigned i, const char **help)
{
	for (const struct report_chart *c = report_charts; c->name; c++, i--) {
		if (!i) {
			*help = c->help;
			return c->name;
		}
	}
	return NULL;
}

void report_charts_names(char *buf, size_t len)
{
	size_t n = 0;

	while (report_charts[n].name)
		n++;
	buf[0] = '\0';
	for (size_t k = 0; k < n; k++)
		cmd_append(buf, len, "%s%s", cmd_list_sep(k, n, " or "), report_charts[k].name);
}

const struct report_chart *report_chart_default(bool results, const char *first_log)
{
	enum log_kind k = first_log ? logfile_kind(first_log) : LOG_BW;

	if (results)
		return report_chart_find("metric");
	return report_chart_find(k == LOG_IOPS ? "iops" : k == LOG_BW ? "bw" : "lat-time");
}

/* Whether every value is a number (a sweep over iodepth, numjobs, bs ...). */
static bool numeric(const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!rs_is_number(v[i], NULL))
			return false;
	return n > 0;
}

/* Whether a run of the pivot kept json+ bins, so that a latency chart has something. */
static bool have_bins(const struct pivot *p)
{
	const double pct = 50;
	double v;

	for (size_t i = 0; i < p->nunits; i++)
		if (us_lat_percentiles(p->units[i], US_ALL, US_LAT, &pct, 1, &v) == 0)
			return true;
	return false;
}

static int cpu_table(FILE *f, const struct pivot *p, const struct report_view *v)
{
	struct table t;
	int ret = pivot_cpu_table(p, v->o.rows, v->o.cols, &t);

	if (!ret)
		table_render(f, &t, TS_HTML);
	table_free(&t);
	return ret;
}

/* One pivot's section: its table, then each chart its runs allow. */
static int html_pivot(FILE *f, const struct report_view *v, size_t i, const struct table *t)
{
	const struct pivot *p = &v->piv[i];
	bool num_rows = numeric(p->rowv, p->nrows), cols = v->o.cols && p->ncols > 1;
	int ret;

	html_page_heading(f, *p->title ? p->title : "All runs");
	if (t)
		table_render(f, t, TS_HTML);
	ret = chart_pivot(f, p, &v->o);
	if (!ret && num_rows && p->nrows > 1)
		ret = chart_hockey(f, p, &v->o);
	if (!ret && have_bins(p))
		ret = chart_paired(f, p, &v->o);
	if (!ret && num_rows && cols && numeric(p->colv, p->ncols))
		ret = chart_bars3d(f, p, &v->o);
	if (!ret && have_bins(p))
		ret = chart_latency(f, p, &v->o);
	if (!ret)
		ret = chart_buckets(f, p, &v->o);
	return ret ? ret : cpu_table(f, p, v);
}

static int html_logs(FILE *f, const struct report_view *v, struct diag *d)
{
	const char *logs[REPORT_MAX_LOGS];
	size_t n;
	int ret = 0;

	if (v->nlogs)
		html_page_heading(f, "Over time");
	if (logs_of(v, LOG_BW, LOG_BW, logs))
		ret = bw(v, f, 0, d);
	if (!ret && logs_of(v, LOG_IOPS, LOG_IOPS, logs))
		ret = iops(v, f, 0, d);
	if (!ret && (n = logs_of(v, LOG_LAT, LOG_HIST, logs))) {
		const char *avg = chart_lat_averaged(logs, n);

		/* no heatmap of window means: the page says why, as --chart heatmap does */
		if (avg)
			diag_note(d, "the page has no latency heatmap: '%s' holds the mean of "
				  "each log_avg_msec window, not each I/O's latency", avg);
		n = avg ? 0 : heat_count(v);
		ret = lat_time(v, f, 0, d);
		for (size_t i = 0; !ret && i < n; i++)
			ret = heatmap(v, f, i, d);
	}
	return ret;
}

int report_charts_html(FILE *f, const struct report_view *v, const struct table *t,
		       size_t nt, bool per_pivot_tables, struct diag *d)
{
	int ret = 0;

	if (!per_pivot_tables && nt)
		html_page_heading(f, "Tables");
	for (size_t i = 0; !per_pivot_tables && i < nt; i++)
		table_render(f, &t[i], TS_HTML);
	for (size_t i = 0; !ret && i < v->npiv; i++)
		ret = html_pivot(f, v, i, per_pivot_tables && i < nt ? &t[i] : NULL);
	return ret ? ret : html_logs(f, v, d);
}
