/*
 * Reporters: a run's results rendered as fio renders them, in its normal text layout,
 * its JSON schema and its terse lines. They read plain data only (struct report), so the
 * same results can come from this run, a merge across ranks or a stored result file.
 */
#ifndef OUTPUT_REPORT_H
#define OUTPUT_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "output/stats.h"

struct job_stats;
struct disk_set;

enum report_unified { REPORT_UNIFIED_NONE, REPORT_UNIFIED_MIXED, REPORT_UNIFIED_BOTH };

/*
 * steadystate: what fio's detection saw of a unit, its last duration seconds of samples
 * (oldest first; a window never filled ends in zeros), and what it decided.
 */
struct report_ss {
	bool of_iops;			/* the criterion measures IOPS, else bandwidth */
	bool of_lat;			/* or completion latency (fio HEAD's lat criteria) */
	bool by_slope;			/* it judges the slope, else the largest deviation */
	bool pct;			/* the limit is a percentage of the window's mean */
	double limit;			/* else IOPS or bytes/s */
	bool attained;
	double criterion;		/* as last judged: slope or deviation, or its percent */
	double max_deviation, slope;	/* the criterion's measure; the other stays 0 */
	unsigned duration;		/* seconds */
	unsigned samples;		/* of each array: one per steadystate_check_interval */
	uint64_t *iops;			/* I/Os per second */
	uint64_t *bw;			/* bytes per second */
	uint64_t *lat;			/* the interval's mean completion latency, ns */
};

/* What a steadystate window measures, as fio names its criterion: iops, lat or bw. */
static inline const char *report_ss_measure(const struct report_ss *ss)
{
	return ss->of_iops ? "iops" : ss->of_lat ? "lat" : "bw";
}

/* One reporting unit: a job, or the merge of a group's jobs under group_reporting. */
struct report_unit {
	const char *name;
	const char *desc;		/* description=, NULL if none */
	int groupid;
	unsigned members;		/* jobs=N */
	int tid;			/* thread id of the (first) job */
	bool has_job_start;		/* job_start_clock_id set: JSON job_start (fio HEAD's) */
	uint64_t job_start_ms;		/* of the (first) job */
	int error;			/* errno that stopped it, 0 if it ran to the end */
	const char *error_msg;		/* what failed, e.g. "read 'f' at offset 0: Invalid argument" */
	bool has_slat;			/* async engine: slat is measured */
	bool clat_percentiles, lat_percentiles, slat_percentiles;
	const double *pct;		/* percentile_list, NULL or empty: fio's default list */
	unsigned npct;
	unsigned pct_decimals;		/* decimals as typed in it ("99.90": 2), 0: as needed */
	unsigned kb_base;		/* 1024 or 1000: which of IEC/SI is printed first */
	unsigned sig_figs;		/* significant_figures of the normal report; 0: fio's 4 */
	bool unit_bits;			/* unit_base=1: the normal report's bw in bits */
	enum report_unified unified;
	unsigned depth;			/* for the "latency" line: latency_target's depth at
					 * the end, or iodepth */
	uint64_t lat_target_ns;		/* latency_target, 0: none */
	uint64_t lat_window_ns;		/* latency_window */
	double lat_percentile;		/* latency_percentile */
	bool continue_on_error;		/* print the "errors" line */
	const char *zone_resets_on;	/* zonemode=zbd: the line ("write", "trim") that says
					 * st->zone_resets, NULL: none */
	const struct job_stats *st;
	const char *const *opt_names;	/* JSON "job options": names and values as set */
	const char *const *opt_values;
	unsigned nopts;
	/* iojob's own, in the JSON "iojob" object */
	const char *const *ran_names;	/* "options": rw, bs, iodepth, numjobs as they ran */
	const char *const *ran_values;
	unsigned nran;
	unsigned pass, passes;		/* passes=N: which pass this unit is, from 1 */
	const uint64_t *lat_over_ns;	/* lat_over= limits; counts in st->dir[].lat_over */
	unsigned nlat_over;
	uint64_t phase_wall_ns;		/* the unit's phase, start to last join */
	uint64_t phase_usr_ns, phase_sys_ns;	/* the whole process's CPU in that phase */
	const uint32_t *block_info;	/* block_error_percentiles' blocks, NULL when off */
	unsigned nblock_info;
	const struct report_ss *ss;	/* steadystate's window, NULL when off */
};

/*
 * block_error_percentiles: a job's file in trim-sized blocks, each one's state and its
 * trims, as fio packs them: state << BLOCK_STATE_SHIFT | trims.
 */
#define BLOCK_STATE_SHIFT	29
#define BLOCK_TRIMS_MASK	((1u << BLOCK_STATE_SHIFT) - 1)
#define BLOCK_INFO_MAX		8192	/* fio's limit of blocks per job */
enum block_state {
	BLOCK_UNWRITTEN, BLOCK_TRIMMED, BLOCK_WRITTEN, BLOCK_TRIM_FAILURE, BLOCK_WRITE_FAILURE,
	BLOCK_NSTATES,
};

/* One rank of an MPI run, for the JSON "iojob_ranks" list. */
struct report_rank {
	int rank;
	const char *host;
	uint64_t start_real_ns;		/* its first phase's release, CLOCK_REALTIME */
	uint64_t barrier_ns;		/* waiting for the other ranks, over every phase */
	uint64_t issued[STATS_NDIR];	/* I/Os it issued, read/write/trim */
	int error;			/* errno of its first failed job, 0 if none */
};

/* --idle-prof: fio's "CPU idleness" (engine/observe/idle_prof.h measures it). */
enum report_idle_mode {
	REPORT_IDLE_NONE,
	REPORT_IDLE_CALIBRATE,	/* the unit of work's time alone, no jobs run */
	REPORT_IDLE_SYSTEM,	/* the CPUs' mean idleness */
	REPORT_IDLE_PERCPU,	/* and each CPU's */
};

struct report_idle {
	enum report_idle_mode mode;
	unsigned ncpus;
	const double *cpu_pct;		/* each CPU's idle share, percent */
	double system_pct;		/* their mean */
	double unit_mean_us, unit_stddev_us;
};

/* fio's "CPU idleness" block of the normal report (its own, for --idle-prof=calibrate). */
void report_idle_text(FILE *f, const struct report_idle *idle);

struct report {
	const char *version;		/* "iojob-0.1.0", printed where fio prints "fio-3.33" */
	time_t time;			/* when the run ended */
	unsigned long long time_ms;
	const struct report_unit *units;	/* ordered by groupid */
	unsigned nunits;
	const struct disk_set *disks;	/* NULL or empty: no "Disk stats" */
	const char *const *global_names;	/* JSON "global options" */
	const char *const *global_values;
	unsigned nglobal;
	/* an MPI run of several ranks: the aggregate holds each host's part */
	const char *hostname;			/* in a host's part: its name */
	const char *rank_list;			/* in a host's part: "0-1,4" */
	const struct report *hosts;
	unsigned nhosts;
	const struct report_rank *ranks;
	unsigned nranks;
	int interrupted_by;			/* the signal that cut the run short, 0 if none */
	const struct report_idle *idle;		/* --idle-prof, or NULL */
	/*
	 * The run's groups are 0..ngroups-1: as fio, one whose jobs all have stats=0 still
	 * gets its empty "Run status group" header. 0: the units' groups alone.
	 */
	int ngroups;
};

/*
 * The normal text report: per unit the job block, then per group "Run status group",
 * then "Disk stats". Group bandwidth is the group's bytes over its longest runtime.
 */
void report_normal(FILE *f, const struct report *r);

/* The JSON document in fio's schema; plus adds "bins" to each latency object (json+). */
void report_json(FILE *f, const struct report *r, bool plus);

/* The same document on one line, no final newline: for JSON Lines result sets. */
void report_json_line(FILE *f, const struct report *r, bool plus);

/*
 * The terse report in fio's version 2, 3, 4 or 5: one ';'-separated line per unit, fields
 * in fio 3.33's order (the read, write and, but in v3, trim blocks, cpu, depths, lat
 * buckets, every disk but in v2, then total_err;first_error with continue_on_error and
 * the description when set).
 */
void report_terse(FILE *f, const struct report *r, unsigned version);

/*
 * The line printed for each job before the run, as fio does at parse time:
 * "NAME: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B,
 * ioengine=libaio, iodepth=32". bs_min and bs_max are per direction, printed with
 * sig_figs digits (significant_figures, fio's 4 by default).
 */
void report_job_header(FILE *f, const char *name, int groupid, const char *rw,
		       const unsigned long long bs_min[STATS_NDIR],
		       const unsigned long long bs_max[STATS_NDIR],
		       const char *ioengine, unsigned iodepth, unsigned sig_figs);

/* What the normal report says about the run before it starts, after the jobs' lines. */
struct report_header {
	const char *const *set_keys;	/* --set, in the order given */
	const char *const *set_values;
	unsigned nsets;
	const char *const *cell_keys;	/* the sweep cell running (ncell 0: no --sweep) */
	const char *const *cell_values;
	unsigned ncell;
	unsigned long cell_idx, ncells;
	bool tsc;			/* the clock: the TSC at tsc_hz, else clock_gettime */
	uint64_t tsc_hz;
	const char *clock_why;		/* why not the TSC */
	bool some_gettime;		/* a job asked for clocksource=clock_gettime */
	bool some_cpu_tsc;		/* without the TSC, a job's clocksource=cpu took it */
	int nranks;			/* MPI ranks, on nhosts hosts */
	unsigned nhosts;
	unsigned nthreads;
	const char *version;		/* the first line's; NULL: "iojob-X.Y.Z" */
};

/*
 * The lines after the jobs': the version, the --set overrides, the sweep cell, the clock,
 * the ranks of an MPI run and the thread count. Flushed, as the run starts after it.
 */
void report_run_header(FILE *f, const struct report_header *h);

#endif
