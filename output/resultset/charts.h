/*
 * The charts of iojob report, each drawn by svg_chart.h from one pivot (the runs of one
 * combination of the keys that are neither rows nor columns) or from log files, each with
 * the workload it measured as its subtitle (chart_workload.h):
 * - the metric against the row key, a line per column value, with sigma as error bars;
 * - IOPS against latency (the hockey stick of an iodepth or numjobs sweep);
 * - IOPS and latency bars side by side for each row value, on two axes;
 * - the metric as isometric 3D bars over the row and column keys (iodepth x numjobs);
 * - latency percentile curves and fio's latency buckets, one per run and direction;
 * - bandwidth, IOPS and latency over time from fio's logs, and a latency heatmap.
 */
#ifndef OUTPUT_RESULTSET_CHARTS_H
#define OUTPUT_RESULTSET_CHARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct diag;
struct metric;
struct pivot;

#define CHART_MAX_SERIES	64

struct chart_opts {
	const char *rows, *cols;	/* the pivot's keys; cols NULL for one column */
	const struct metric *m;		/* what --metric asked for */
	bool log_y;			/* --y-axis log */
	const char *title, *subtitle;	/* --title, --subtitle: each chart's own replaced */
	const char *workload;		/* the runs' (chart_workload()), for charts of logs */
	/* the metric's unit for every table's chart, so that they read alike; NULL: each own */
	const struct metric_fmt *fmt;
};

/*
 * Each writes one <svg> to f and returns 0, -ENOMEM or -EIO. A log2 x axis is used when
 * the row values are powers of two.
 */
int chart_pivot(FILE *f, const struct pivot *p, const struct chart_opts *o);
int chart_hockey(FILE *f, const struct pivot *p, const struct chart_opts *o);
int chart_paired(FILE *f, const struct pivot *p, const struct chart_opts *o);
int chart_bars3d(FILE *f, const struct pivot *p, const struct chart_opts *o);

/*
 * Latency percentile curves (1 .. 99.999 on a "nines" axis, latency on a log axis), one
 * for each run and direction that did I/O (the metric's direction only, when it has one),
 * from its json+ bins. Percentiles that fewer than one sample lies beyond are left out.
 */
int chart_latency(FILE *f, const struct pivot *p, const struct chart_opts *o);

/* fio's latency buckets (latency_ns/us/ms: share of I/Os), bars for each run. */
int chart_buckets(FILE *f, const struct pivot *p, const struct chart_opts *o);

/*
 * Bandwidth (MiB/s) or IOPS over time, a line per log and direction, and with several
 * logs one more per direction for all of them together ("all jobs"). Fills d on error.
 */
int chart_logs(FILE *f, const char *const *paths, size_t n, bool iops,
	       const struct chart_opts *o, struct diag *d);

/*
 * Latency over time from latency logs (write_lat_log: NAME_lat, _clat, _slat) or
 * histogram logs (write_hist_log): p50, p99 and max per window, per log and direction.
 */
int chart_lat_logs(FILE *f, const char *const *paths, size_t n, const struct chart_opts *o,
		   struct diag *d);

/* The first of the logs that holds window means (log_avg_msec), or NULL. */
const char *chart_lat_averaged(const char *const *paths, size_t n);

/*
 * The same logs as a heatmap of direction dir (0 read, 1 write, 2 trim): I/Os per time
 * window and power of two of latency, every log's added.
 */
int chart_heatmap(FILE *f, const char *const *paths, size_t n, unsigned dir,
		  const struct chart_opts *o, struct diag *d);

/* The directions the latency logs hold (bit d); *err a negative errno, d filled, on error. */
unsigned chart_lat_dirs(const char *const *paths, size_t n, struct diag *d, int *err);

#endif
