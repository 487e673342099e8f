/*
 * A unit's figures from its jobs' JSON (output/resultset/resultset_read.h): I/O counts, rates, run
 * times, latency moments and percentiles, CPU and lat_over counts, with the clones of the
 * unit added together as the jobs ran side by side. iojob's "iojob" object is used when a
 * job has it (runtime_ns, proc_cpu, lat_over), fio's fields otherwise.
 */
#ifndef OUTPUT_RESULTSET_UNIT_STATS_H
#define OUTPUT_RESULTSET_UNIT_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rs_unit;

enum us_dir { US_READ, US_WRITE, US_TRIM, US_ALL };	/* US_ALL: every direction */
enum us_lat { US_LAT, US_CLAT, US_SLAT };		/* lat_ns, clat_ns, slat_ns */

struct us_moments {
	uint64_t n;
	double min_ns, max_ns, mean_ns;
};

/* Completed I/Os and bytes of a direction, over the clones. */
uint64_t us_ios(const struct rs_unit *u, enum us_dir d);
uint64_t us_bytes(const struct rs_unit *u, enum us_dir d);

/*
 * I/O per second and bytes per second of a direction: the clones' rates added. From
 * "iojob"."runtime_ns" when the job has it (fio's runtime is whole milliseconds), else
 * fio's "iops" and "bw_bytes". NAN for a single direction that did no I/O.
 */
double us_iops(const struct rs_unit *u, enum us_dir d);
double us_bw(const struct rs_unit *u, enum us_dir d);

/* How long the direction ran (the longest clone), in seconds; NAN as above. */
double us_runtime_s(const struct rs_unit *u, enum us_dir d);

/*
 * The unit's wall time in seconds, first clone started to last one done: the phase's
 * "proc_cpu"."wall_ns", else the longest runtime. 0 when unknown.
 */
double us_wall_s(const struct rs_unit *u);

/* Latency count, extremes and mean over the clones and directions; -ENOENT without any. */
int us_lat_moments(const struct rs_unit *u, enum us_dir d, enum us_lat kind,
		   struct us_moments *out);

/*
 * Percentiles (0 < pct <= 100) in ns from the json+ "bins" of the clones and directions,
 * merged as histograms are: bucket by bucket, fio's percentile rule on the sum. US_LAT
 * uses "lat_ns" bins when every direction kept them (lat_percentiles=1), else "clat_ns"
 * (the same for sync engines, whose submission takes no time). Returns 0, -ENOENT without
 * bins or samples, -ENOMEM.
 */
int us_lat_percentiles(const struct rs_unit *u, enum us_dir d, enum us_lat kind,
		       const double *pct, unsigned n, double *out_ns);

/*
 * As us_lat_percentiles() over the bins of several units together (a latency curve of a
 * target over many cells); *samples is how many there were.
 */
int us_lat_percentiles_set(const struct rs_unit *const *u, size_t nu, enum us_dir d,
			   enum us_lat kind, const double *pct, unsigned n, double *out_ns,
			   uint64_t *samples);

/*
 * User and system CPU in percent of one CPU: the whole process's over the phase when the
 * jobs carry "proc_cpu", else the clones' usr_cpu and sys_cpu added. Returns 0 or -ENOENT.
 */
int us_cpu_pct(const struct rs_unit *u, double *usr, double *sys);

/*
 * I/Os that took limit_ns or longer, all directions: "iojob"."lat_over"[key] when the jobs
 * counted them (lat_over=), else the json+ bins at or above the limit (exact to the bin).
 * NAN when neither is there.
 */
double us_lat_over(const struct rs_unit *u, uint64_t limit_ns, const char *key);

/*
 * The spread (sigma) of a direction's IOPS (iops) or bandwidth in bytes/s over the run,
 * from fio's iops_stddev or bw_dev of the samples taken every iopsavgtime or bwavgtime:
 * the clones' and directions' variances added, as they ran side by side. NAN when a
 * direction that did I/O has fewer than two samples (a run shorter than two windows).
 */
double us_rate_sd(const struct rs_unit *u, enum us_dir d, bool iops);

/* fio's latency buckets (latency_ns, latency_us, latency_ms): where, and as printed. */
struct us_bucket {
	const char *map, *key, *label;	/* "latency_us", "250", "250us" */
};

/* In order, ended by { NULL }: the upper bound of each bucket, "<=" it. */
extern const struct us_bucket us_buckets[];

/*
 * The share of the unit's I/Os (percent) in each bucket of us_buckets, the clones'
 * shares weighed by their I/O counts. Returns the count of buckets, or -ENOENT without I/O.
 */
int us_lat_buckets(const struct rs_unit *u, double *pct);

#endif
