/*
 * Metrics of result-set reports by name ("write_bw_mib", "lat_p95", "read_clat_p99.9"):
 * what each one measures, its unit, which way is better, and its value for a unit.
 * A name is an optional direction (read_, write_, trim_; none: every direction together)
 * and a base: iops, bw_mib, bw_bytes, runtime, ios, io_mib, or a latency (lat_, clat_,
 * slat_) mean, min, max or pNN (p50, p95, p99.9); and util, cpu, usr_cpu, sys_cpu alone.
 */
#ifndef OUTPUT_RESULTSET_METRICS_H
#define OUTPUT_RESULTSET_METRICS_H

#include <stddef.h>
#include <stdio.h>

#include "output/resultset/unit_stats.h"

struct rs_unit;

enum metric_base {
	MB_IOPS, MB_BW_MIB, MB_BW_BYTES, MB_RUNTIME, MB_IOS, MB_IO_MIB,
	MB_LAT_MEAN, MB_LAT_MIN, MB_LAT_MAX, MB_LAT_PCT,
	MB_UTIL, MB_CPU, MB_USR_CPU, MB_SYS_CPU,
};

enum metric_better { BETTER_NONE, BETTER_HIGHER, BETTER_LOWER };

struct metric {
	char name[48];
	enum us_dir dir;
	enum metric_base base;
	enum us_lat lat;	/* latency bases: which latency */
	double pct;		/* MB_LAT_PCT */
};

/* How a column of values is printed: divided by div, with this unit. */
struct metric_fmt {
	double div;
	const char *unit;	/* "IOPS", "MiB/s", "ms", "%", ... */
	int decimals;		/* four significant digits for the largest value */
};

/* What --help says about metric names. */
extern const char metric_names_help[];

/*
 * Every metric name one a line, for completion: from the tables metric_parse() reads,
 * aliases left out, and a few percentiles (any pNN parses).
 */
void metric_complete(FILE *f);

/* Parse a metric name. Returns 0 or -EINVAL. */
int metric_parse(const char *name, struct metric *m);

enum metric_better metric_better(const struct metric *m);

/*
 * The metric's value for a unit in base units (ns for latencies, seconds, bytes/s), NAN
 * when the unit has none (a direction it did not do, no bins, no disk).
 */
double metric_value(const struct metric *m, const struct rs_unit *u);

/*
 * The spread (sigma) of the metric over the run, in the units of metric_value(): for
 * IOPS and bandwidth, from the deviations of fio's samples (us_rate_sd()); NAN for the
 * others and where no samples were taken.
 */
double metric_spread(const struct metric *m, const struct rs_unit *u);

/* A short description of the metric with its direction: "write bandwidth". */
void metric_title(const struct metric *m, char *buf, size_t len);

/* The title with the unit unless the title names it: "write bandwidth (MiB/s)", "IOPS". */
void metric_label(const struct metric *m, const struct metric_fmt *f, char *buf, size_t len);

/*
 * The unit and scale for printing these values together (latencies: ns, us, ms or s by
 * the largest), and decimals enough for four significant digits of the largest (0 to 6).
 */
void metric_fmt_for(const struct metric *m, const double *v, size_t n, struct metric_fmt *f);

/* One value as printed, in f's unit with f's decimals; "" for NAN. */
void metric_format(const struct metric_fmt *f, double v, char *buf, size_t len);

#endif
