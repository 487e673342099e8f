/*
 * A job's results as plain data: counters, histograms and exact integer moments. Nothing
 * here points anywhere, so results merge exactly by adding (across the clones of a group
 * now, across processes and hosts later). Directions are indexed by enum io_dir
 * (0 read, 1 write, 2 trim).
 */
#ifndef OUTPUT_STATS_H
#define OUTPUT_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "output/hist.h"

#define STATS_NDIR	3
#define STATS_DEPTH_NR	7	/* IO depths: 1, 2, 4, 8, 16, 32, >=64 */
#define STATS_BATCH_NR	7	/* submit/complete: 0, 4, 8, 16, 32, 64, >=64 */
#define STATS_LAT_NR	32	/* lat buckets: 10 nsec, 10 usec, 12 msec (fio's edges) */

__extension__ typedef unsigned __int128 stats_u128;

/* Count, extremes, sum and sum of squares of integer samples: mean and variance exactly. */
struct moments {
	uint64_t n;
	uint64_t min;		/* UINT64_MAX while n == 0 */
	uint64_t max;
	uint64_t sum;
	stats_u128 sumsq;
};

/*
 * Bandwidth or IOPS samples as fio reports them for a group or a unified direction: the
 * parts' sample counts, minimums, maximums, means and squared deviations each added up
 * ("pure summed"), so jobs running side by side read as one job doing their combined rate.
 * parts == 0: nothing has been summed, the moments alone describe the samples.
 */
struct sample_sum {
	uint64_t parts;
	uint64_t n, min, max;
	double mean;
	double m2;		/* sum of squared deviations from the mean */
};

#define STATS_LAT_OVER_NR 4	/* limits lat_over= takes */

/*
 * Priorities a direction keeps apart (cmdprio_percentage, cmdprio_bssplit): the job's
 * own and seven of cmdprio's (fio HEAD's cmdprio_bssplit example takes four, with hints).
 * A group whose jobs use more gives up its per-priority view. The entries no job uses
 * are never touched (stats.c clears and copies lazily), so they cost no memory.
 */
#define STATS_PRIO_NR	8

/* The latencies of the I/Os issued with one priority: clat, or lat with lat_percentiles. */
struct prio_stats {
	uint32_t ioprio;	/* class << 13 | hint << 3 | level, as ioprio_set(2) takes */
	struct moments lat;	/* ns; set up by stats_prio_layout, so unused ones stay zero */
	struct hist hist;
};

struct dir_stats {
	uint64_t ios;		/* completed I/Os (the I/O's whole length done) */
	uint64_t bytes;
	uint64_t short_ios;	/* I/Os that needed more than one transfer */
	uint64_t drop_ios;
	uint64_t runtime_ns;	/* how long this direction ran, 0 if it did no I/O */
	struct moments slat, clat, lat;	/* ns */
	struct moments bw;	/* samples in KiB/s, one per bw window */
	struct moments iops;	/* samples in I/O per s, one per iops window */
	struct sample_sum bw_sum, iops_sum;	/* kept by stats_merge and stats_unify */
	uint64_t lat_over[STATS_LAT_OVER_NR];	/* lat_over=: I/Os at or above each limit */
	/* Per priority, only when cmdprio is used: nprio 0 is the common case, none kept. */
	uint32_t nprio;
	uint32_t own_ioprio;	/* the job's prioclass/prio: what its I/Os count under */
	bool prio_lat;		/* the entries hold lat (lat_percentiles), not clat */
	bool prio_dropped;	/* a merge met more priorities than fit: show none */
	/*
	 * The histograms come after every counter, so that a merge or a report that reads
	 * the counters of a direction that did no I/O reads one page, not a page behind
	 * each histogram block.
	 */
	struct hist clat_hist;
	struct hist slat_hist;	/* filled only with slat_percentiles */
	struct hist lat_hist;	/* filled only with lat_percentiles */
	struct prio_stats prio[STATS_PRIO_NR];
};

struct job_stats {
	struct dir_stats dir[STATS_NDIR];
	uint64_t issued[STATS_NDIR];	/* I/Os started, per direction */
	uint64_t sync_ios;		/* fsync/fdatasync calls, end_fsync's too */
	uint64_t fsync_ios;		/* the fsync= ones: what fio counts and shows */
	struct moments sync_lat;
	uint64_t depth[STATS_DEPTH_NR];	/* I/Os issued while this many were in flight */
	uint64_t submit[STATS_BATCH_NR];	/* submit calls, by I/Os carried */
	uint64_t complete[STATS_BATCH_NR];	/* reap calls, by I/Os returned */
	uint64_t lat_buckets[STATS_LAT_NR];	/* clat of every direction, fio's edges */
	uint64_t usr_ns, sys_ns;	/* CPU time of the job's thread */
	uint64_t ctx, majf, minf;
	uint64_t runtime_ns;		/* the timed phase */
	uint64_t total_err;		/* errors skipped by continue_on_error */
	int first_error;		/* errno of the first error, 0 if none */
	int error;			/* errno that stopped the job, 0 if none */
	uint64_t zone_resets;		/* zonemode=zbd: zones emptied for writes */
	struct hist sync_hist;		/* last, as in a direction: the counters share a page */
};

static inline void moments_init(struct moments *m)
{
	m->n = 0;
	m->min = UINT64_MAX;
	m->max = 0;
	m->sum = 0;
	m->sumsq = 0;
}

/* Add one sample of value v. */
static inline void moments_add1(struct moments *m, uint64_t v)
{
	m->n++;
	m->sum += v;
	m->sumsq += (stats_u128)v * v;
	if (v < m->min)
		m->min = v;
	if (v > m->max)
		m->max = v;
}

/* Add n samples of value v. */
static inline void moments_add(struct moments *m, uint64_t v, uint64_t n)
{
	m->n += n;
	m->sum += v * n;
	m->sumsq += (stats_u128)v * v * n;
	if (v < m->min)
		m->min = v;
	if (v > m->max)
		m->max = v;
}

/* The index into lat_buckets for a completion latency. */
static inline unsigned stats_lat_bucket(uint64_t ns)
{
	uint64_t v;
	unsigned base;

	if (ns < 1000) {
		v = ns;
		base = 0;
	} else if (ns < 1000000) {
		v = ns / 1000;
		base = 10;
	} else {
		v = ns / 1000000;
		if (v >= 1000)
			return v >= 2000 ? 31 : 30;
		base = 20;
	}
	/* Counting the edges at or below v, without a loop or a branch per edge. */
	return base + (v >= 2) + (v >= 4) + (v >= 10) + (v >= 20) + (v >= 50) + (v >= 100) +
	       (v >= 250) + (v >= 500) + (v >= 750);
}

/*
 * The lat bucket of every histogram bucket that lies within one, so that recording a
 * latency costs one load more than its histogram update; the few histogram buckets that
 * straddle a lat bucket edge say STATS_LAT_SPLIT and take stats_lat_bucket().
 */
#define STATS_LAT_SPLIT	0xff

struct lat_map {
	uint8_t bucket[HIST_BUCKETS];
};

void stats_lat_map_init(struct lat_map *m);

static inline unsigned stats_lat_bucket_of(const struct lat_map *m, unsigned hist_idx,
					   uint64_t ns)
{
	unsigned b = m->bucket[hist_idx];

	return b != STATS_LAT_SPLIT ? b : stats_lat_bucket(ns);
}

/*
 * The event loop records a completion latency below HIST_EXACT ns in its histogram bucket
 * alone, which holds the value exactly: its clat moments and lat bucket are added up from
 * the bucket here, once, when the run's figures are taken (a copy's, or the job's at its
 * end). Exact: the same sums as one moments_add per I/O. Call it once per set of counters.
 */
void stats_fold_exact_clat(struct job_stats *st);

/* The sum of the clat samples that only the exact buckets hold (stats_fold_exact_clat). */
uint64_t stats_exact_clat_sum(const struct hist *h);

/* The index into depth[] for an in-flight count, and into submit[]/complete[] for a batch. */
static inline unsigned stats_depth_bucket(unsigned depth)
{
	unsigned i = 0;

	while (depth > 1 && i < STATS_DEPTH_NR - 1) {
		depth >>= 1;
		i++;
	}
	return i;
}

static inline unsigned stats_batch_bucket(unsigned n)
{
	if (n == 0)
		return 0;
	if (n <= 4)
		return 1;
	if (n > 64)
		return 6;
	return 1 + (unsigned)(32 - __builtin_clz(n - 1)) - 2;
}

/*
 * Keep a direction's latencies per priority: nprio entries (0: none, the job has one
 * priority, own), ioprio[0] the job's own. The event loop then records each I/O's latency
 * also in prio[its index] (engine/loop/account.h). lat: the entries hold lat, not clat.
 */
void stats_prio_layout(struct dir_stats *d, uint32_t own, const uint32_t *ioprio,
		       unsigned nprio, bool lat);

/*
 * A job's statistics, initialised, in memory of their own (mmap): the histograms' pages
 * stay unmapped until an I/O lands in them. calloc() cannot promise that: once a large
 * block has been freed, glibc raises its mmap threshold and serves blocks of this size
 * from the heap, clearing them (512 jobs then cost 165 KB each instead of a few pages).
 * NULL when out of memory; stats_free() releases it.
 */
struct job_stats *stats_new(void);
void stats_free(struct job_stats *st);

/*
 * *dst = *src, touching only the pages of each that were written (base/mem_pages.h): a
 * --status-interval copy of a job costs the pages its I/Os used, not all 450 KB.
 */
void stats_copy(struct job_stats *dst, const struct job_stats *src);

/* Zero every counter and set every moments' min to "none yet". */
void stats_init(struct job_stats *st);

/*
 * stats_init() for statistics in use (ramp_time's end): the per-priority entries past
 * those in use are zero already, and their pages (most of the struct) stay untouched.
 */
void stats_restart(struct job_stats *st);

/*
 * stats_init() for memory that is already zero (stats_new, calloc): it writes only the
 * few fields that do not start at zero, so the histograms' pages stay unmapped until used.
 */
void stats_init_zeroed(struct job_stats *st);

/*
 * Add src into dst exactly: counters and histograms summed, extremes kept, each direction's
 * runtime the max. The job's runtime_ns is summed, as fio sums it, so that CPU use stays an
 * average; bw and iops samples are also pure summed into bw_sum and iops_sum.
 */
void stats_merge(struct job_stats *dst, const struct job_stats *src);

/* Fold write and trim into read (unified_rw_reporting=mixed). */
void stats_unify(struct job_stats *st);

/* Mean and sample standard deviation (n - 1), 0 when there are too few samples. */
double moments_mean(const struct moments *m);
double moments_stddev(const struct moments *m);

/* Merge src into dst. */
void moments_merge(struct moments *dst, const struct moments *src);

/*
 * The bw or iops samples of a direction as fio shows them: the summed view once stats_merge
 * or stats_unify has added parts up, else the direction's own samples. min and max are 0
 * when n == 0.
 */
void stats_samples(const struct moments *m, const struct sample_sum *sum,
		   struct sample_sum *out);

/* Sample standard deviation (n - 1) of a summed view, 0 when n < 2. */
double stats_samples_stddev(const struct sample_sum *s);

#endif
