/*
 * What the normal and JSON reporters share (private to output/): how a unit's directions
 * are shown under unified reporting, the "Run status group" totals, fio's unit switching,
 * percentile lists and distributions, and disk deltas.
 */
#ifndef OUTPUT_REPORT_UTIL_H
#define OUTPUT_REPORT_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "output/report.h"
#include "output/stats.h"

struct disk_set;

#define RU_SLOTS	4	/* read, write, trim, mixed */
#define RU_SLOT_TRIM	2
#define RU_SLOT_MIXED	3
#define RU_PCT_MAX	64	/* percentiles shown at most */

/* One direction as shown: fio's label, its stats and the I/Os issued for it. */
struct shown_dir {
	const char *name;		/* "read", "write", "trim", "mixed" */
	unsigned slot;			/* 0..3, index into group totals */
	const struct dir_stats *d;
	uint64_t issued;
};

/* A unit as shown: with unified reporting its stats are folded into a private copy. */
struct unit_view {
	const struct report_unit *u;
	const struct job_stats *st;	/* job-wide counters as shown */
	struct job_stats *mixed;	/* the unified copy, NULL without unified reporting */
	struct shown_dir dirs[RU_SLOTS];
	unsigned ndirs;
};

/* Bandwidth totals of one direction of a group, bytes per second and milliseconds. */
struct group_dir {
	uint64_t bytes, agg_bw, min_bw, max_bw, min_run_ms, max_run_ms;
	uint64_t max_run_ns;		/* agg_bw's time base, exact */
};

struct group_run {
	int groupid;
	unsigned kb_base;		/* the first unit's */
	unsigned sig_figs;		/* the last unit's, as fio's: significant_figures */
	bool unit_bits;			/* the last unit's unit_base=1 */
	struct group_dir dir[RU_SLOTS];
};

struct report_ctx {
	const struct report *r;
	struct unit_view *views;	/* one per unit */
	struct group_run *groups;	/* in order of first appearance */
	unsigned ngroups;
};

/* Build the views and group totals. Returns 0 or -ENOMEM (then nothing is held). */
int report_ctx_init(struct report_ctx *c, const struct report *r);
void report_ctx_free(struct report_ctx *c);
const struct group_run *report_group(const struct report_ctx *c, int groupid);

/* A direction's runtime in ms as fio rounds it (microseconds rounded up), 0 if none. */
uint64_t dir_runtime_ms(const struct dir_stats *d);

/* How many priorities of d saw I/O (cmdprio); 0 when a merge gave up on them. */
unsigned dir_prios_shown(const struct dir_stats *d);

/* Bytes and I/Os per second over the exact runtime (runtime_ns), 0 without a runtime. */
uint64_t dir_bw(const struct dir_stats *d);
uint64_t dir_iops(const struct shown_dir *s);
double dir_iops_exact(const struct shown_dir *s);

/* The bw mean as a share of the group's aggregate bandwidth, capped at 100 (fio's per=). */
double bw_share(double mean_kib, uint64_t agg_bw);

/* Latency unit switching: returns the divisor (1, 1000, 1000000) and sets *unit. */
uint64_t lat_scale(uint64_t min, uint64_t max, double dev, const char **unit);

/* Percentile values' unit: the same rule on the smallest and largest value. */
uint64_t pct_scale(uint64_t minv, uint64_t maxv, const char **unit);

/* The names fio gives the block states, in enum block_state's order. */
extern const char *const block_state_name[BLOCK_NSTATES];

/*
 * block_error_percentiles: the trims of the unit's blocks at each of its percentiles
 * (pct, as pct_list() gives them), over the blocks ever trimmed or failed, and how many
 * blocks are in each state. Returns the number of percentiles, 0 when no block was.
 */
unsigned block_lifetimes(const struct report_unit *u, double *pct, uint32_t *trims,
			 unsigned states[BLOCK_NSTATES]);

/* The unit's percentile list (fio's default when it has none), sorted; returns the count. */
unsigned pct_list(const struct report_unit *u, double *out);

/*
 * hist_percentiles() with each value clamped to [m->min, m->max]: the value reported for a
 * bucket is its midpoint, which past the largest sample would read above max (fio prints
 * it so: p100 55552 with max 55354).
 */
void pct_values(const struct hist *h, const struct moments *m, const double *pct, unsigned n,
		uint64_t *out);

/*
 * fio's percentile precision: the decimals typed in the list, or at least those needed to
 * print every value exactly.
 */
unsigned pct_precision(const struct report_unit *u, const double *pct, unsigned n);

/* 100 * part / total, raised to floor when part is not zero; 0 when total is. */
double dist_pct(uint64_t part, uint64_t total, double floor);

/* Sum of n counters. */
uint64_t sum_counts(const uint64_t *v, unsigned n);

/* The IO depths and submit/complete labels, in stats_depth/batch_bucket order. */
extern const char *const depth_bucket_label[STATS_DEPTH_NR];
extern const char *const batch_bucket_label[STATS_BATCH_NR];

/* The lat bucket labels, in stats_lat_bucket order: 10 nsec, 10 usec, 12 msec. */
extern const char *const lat_bucket_label[STATS_LAT_NR];

/* "SIGINT", "SIGTERM" or "signal N": how a report names the signal that cut a run short. */
const char *report_signal_name(int sig);

/* ctime() of t without its newline. */
void report_ctime(time_t t, char *buf, size_t len);

/* A time as its largest exact unit, as a user would write it: "2s", "500ms", "1500ns". */
void report_time_key(uint64_t ns, char *buf, size_t len);

/* I/Os of every direction at or above lat_over='s k-th limit. */
uint64_t lat_over_count(const struct job_stats *st, unsigned k);

/* One disk's counters over the run, or the per-member average of a stacked device's members. */
struct disk_view {
	uint64_t ios[2], merges[2], ticks[2], in_queue;
	double util;			/* percent busy, capped at 100; 0 when unknown */
	bool util_known;		/* false: it did I/O but its io_ticks never moved */
};

void disk_delta(const struct disk_set *s, unsigned i, struct disk_view *out);

/*
 * As fio aggregates an md device's members: the sum over the members of disk i divided
 * by their count, and the highest util among the members that have one. Returns the
 * count, 0 if disk i has no members.
 */
unsigned disk_aggr(const struct disk_set *s, unsigned i, struct disk_view *out);

#endif
