/*
 * The engine module: runs the jobs of a job list, each on its own thread, phase by phase,
 * and hands back their results as plain data for the reporters.
 */
#ifndef ENGINE_ENGINE_H
#define ENGINE_ENGINE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>

#include "engine/thread/clock.h"
#include "engine/devices/device_users.h"
#include "engine/plan/zbd.h"
#include "engine/thread/thread_env.h"
#include "jobs/jobs.h"
#include "output/output.h"

struct diag;
struct job_logs;
struct job_result;
struct worker;
struct run_status;
struct run_files;

/*
 * What a job has done so far, published by its thread about every 10 ms so that the
 * status line can read it while the job runs.
 */
enum job_state { JOB_WAITING, JOB_RAMPING, JOB_RUNNING, JOB_DONE };

struct job_progress {
	atomic_int state;			/* enum job_state */
	atomic_uint_fast64_t ios[IO_NDIR];	/* completed, per direction */
	atomic_uint_fast64_t bytes[IO_NDIR];
	atomic_uint_fast64_t clat_sum_ns[IO_NDIR];
	atomic_uint_fast64_t start_ns;		/* CLOCK_MONOTONIC when it started */
	atomic_uint_fast64_t budget_bytes;	/* what it will do; UINT64_MAX: until runtime */
	/*
	 * --status-interval's full reports: the status thread bumps snap_want, the job copies
	 * its statistics into *snap between two I/Os and sets snap_done to it (status_report.c
	 * says how the two never touch *snap at once). snap is NULL when nobody asks.
	 */
	struct job_result *snap;
	atomic_uint snap_want, snap_done;
	atomic_bool final;			/* the result is complete: the job has ended */
	/*
	 * For steadystate (steady.c), which needs the counts with the time they were taken:
	 * pub_ns is when the job published them and epoch_ns when its measured time (or its
	 * ramp) began, both on the job's clock in ns. pub_seq is odd while they change; the
	 * job stores them with release, so a reader that saw pub_seq even and unchanged
	 * around its (acquire) loads read one publication.
	 */
	atomic_uint pub_seq;
	atomic_uint_fast64_t pub_ns, epoch_ns;
};

/*
 * The jobs of one flow_id with a flow weight share this: the I/Os they issued and the sum
 * of their weights, each job's own added when it starts and taken back when it ends.
 */
struct job_flow {
	atomic_uint_fast64_t ios;
	atomic_uint_fast64_t weight;
};

/* ramp_size: the bytes a job, or under group_reporting its group, did in its ramp. */
struct job_ramp {
	atomic_uint_fast64_t bytes;
	atomic_bool over;		/* reached: every job of the group measures from now */
};

struct job_result {
	struct job_progress progress;
	struct job_stats *st;
	int tid;
	int error;		/* errno that stopped the job, 0 if it ran to the end */
	char error_msg[512];	/* what failed, naming job, file, offset */
	bool has_slat;		/* asynchronous engine: slat was measured */
	unsigned lat_depth;	/* latency_target's depth at the end, else iodepth */
	struct job_logs *logs;	/* what write_*_log gathered, NULL if nothing */
	uint32_t *blocks;	/* block_error_percentiles' blocks, NULL when off */
	unsigned nblocks;
	struct report_ss *ss;	/* steadystate's window (steady.c), NULL when it kept none */
	uint64_t io_start_ns;	/* CLOCK_MONOTONIC when its I/O began (after startdelay) */
	uint64_t job_start_ms;	/* then, on job_start_clock_id's clock (JSON job_start) */
	uint64_t io_end_ns;	/* and ended, before teardown; 0 when it did not run */
	/* job control (control.c): ended is a futex word, halt ends this job early */
	atomic_uint ended;		/* 1 once the job's thread is done with it */
	atomic_bool halt;		/* exitall, exitall_on_error: another job ended it */
	/* kept in the first clone's result for all clones of its pass */
	atomic_uint_fast64_t seq_cursor;	/* seq_cursor=shared */
	atomic_uint_fast64_t ios_shared;	/* fsync_every_ios */
	struct job_flow flow;	/* kept in the first job of each flow_id for all its jobs */
	struct job_ramp ramp;	/* kept in the first job of each group (group_reporting) */
};

/* What a phase cost the whole process: tiobench's CPU% is (usr + sys) / wall. */
struct phase_usage {
	uint64_t wall_ns, usr_ns, sys_ns;
	uint64_t start_real_ns;		/* CLOCK_REALTIME when its jobs were released */
	uint64_t barrier_ns;		/* waiting for the other ranks first */
};

struct run {
	const struct job_list *jobs;
	struct clock_src clock;		/* the TSC when usable, else clock_gettime */
	struct clock_src gettime;	/* for jobs with clocksource=clock_gettime */
	struct clock_src cpu;		/* for jobs with clocksource=cpu: the TSC if invariant */
	struct lat_map latmap;		/* shared by every job's accounting */
	struct job_result *results;	/* one per job */
	struct phase_usage *phases;	/* one per phase */
	struct disk_set disks;
	struct device_users devices;	/* what the safety checks learned */
	atomic_bool stop;		/* set to end every job early: run_stop() */
	atomic_uint wake;		/* the jobs' pauses wait on it (wake.h) */
	bool exitall;			/* some job set exitall: every job's end ends others */
	atomic_bool end_all;		/* exit_what=all fired: no later phase runs */
	atomic_bool *group_ended;	/* per group: exit_what=group fired for it already */
	/* error_dump: each I/O error said as it happens, from the job's thread; or NULL */
	void (*error_line)(void *ctx, const char *msg);
	void *error_ctx;
	const char *aux_path;		/* --aux-path: where state files go; NULL: the cwd */
	void (*note)(void *ctx, const char *msg);	/* "Laying out IO file" lines */
	void *note_ctx;
	struct run_files *files;
	time_t end_time;
	unsigned long long end_ms;
	struct run_status *status;	/* the status thread, NULL when none */
	/*
	 * The running phase's steadystate watcher, for --status-interval's reports; NULL
	 * between phases. The lock orders a report's look at it (or at the windows the last
	 * one left in results[].ss) before the phase's end stops it.
	 */
	pthread_mutex_t steady_lock;
	struct steady *steady;
	/*
	 * The ranks of an MPI run meet here before every phase (run or not, so that none
	 * waits forever for one that failed) and at the end; NULL for a run on its own.
	 */
	void (*ranks_sync)(void *ctx);
	void *ranks_ctx;
	bool synced;			/* this phase met the other ranks already */
	unsigned ranks;			/* ranks merged into the results (MPI), else 0 */
	struct thread_env env;		/* the cgroups the jobs' threads join */
	struct zbd_set zbd;		/* zonemode=zbd: the zones of the jobs' targets */
};

#define IOENGINE_MAX 32

/* Fill out[] with every ioengine the job layer should know, built or not; the count. */
unsigned engine_catalog(struct engine_info *out, unsigned max);

/*
 * Everything that can fail before I/O: the clock, each job's files, sizes, regions and
 * safety checks, the disks to watch. Returns 0, -EINVAL for a job-file problem, another
 * -errno otherwise; d says what. run_free() is needed either way.
 */
int run_prepare(struct run *r, const struct job_list *jobs, struct diag *d);

/*
 * The checks of run_prepare() on the jobs' files and devices alone, for a sweep to check
 * every cell before the first runs. Returns 0, -EINVAL for a job-file problem, another
 * -errno otherwise; d says what.
 */
int run_check_files(const struct job_list *jobs, struct diag *d);

/*
 * Run every phase: lay out the phase's files, start its jobs together, wait for them.
 * Returns 0 when every job ran to its end, or 1 when one failed or did not run: its result
 * says why (ECANCELED: not run), and d says why a phase could not start.
 */
int run_execute(struct run *r, struct diag *d);

/*
 * End every job early and wake those in a pause (rate, thinktime, startdelay): they
 * report what they did. Async-signal-safe: a signal handler calls it.
 */
void run_stop(struct run *r);

/* The live status line and --status-interval results, while run_execute() runs. */
enum eta_mode { ETA_AUTO, ETA_ALWAYS, ETA_NEVER };

struct status_opts {
	int eta;			/* enum eta_mode; auto: only when eta_out is a terminal */
	FILE *eta_out;			/* the status line (stderr) */
	uint64_t eta_interval_ns;	/* how often it is rewritten */
	uint64_t eta_newline_ns;	/* start a new line this often (0: never) */
	uint64_t interval_ns;		/* --status-interval, 0: none */
	FILE *interval_out;		/* the report stream */
	/*
	 * Like fio, each interval the whole report so far in every format of the run
	 * (output/report_formats.h's set); or, with delta, iojob's own lines of what each
	 * job did in the interval alone: JSON unless the set has the normal format.
	 */
	unsigned formats;
	bool delta;
	unsigned kb_base;
	/*
	 * A sweep's cell (from 0) of ncells, and the seconds its cells took on average so
	 * far (< 0 before the first ends): the line adds the cell and the whole sweep's eta.
	 */
	unsigned long cell, ncells;
	double cell_s;
	bool agg_bw_log;		/* --bandwidth-log: agg-*_bw.log (run/agg_bw_log.h) */
};

/* Start a thread that shows progress as o says; nothing when there is nothing to show. */
int run_status_start(struct run *r, const struct status_opts *o);

/* Stop it, leaving the terminal on a fresh line. */
void run_status_stop(struct run *r);

/*
 * A job's side of the full reports, between two I/Os: when the status thread asked for a
 * copy of the statistics, make it. Cheap when it did not (two relaxed loads).
 */
void run_status_answer(struct worker *w);

/* Write the log files the jobs asked for (write_lat_log, ...). Returns 0 or -errno. */
int run_write_logs(const struct run *r, struct diag *d);

/* The report of a finished run: one unit per job, or per group with group_reporting. */
struct run_report {
	struct report rep;
	struct report_unit *units;
	struct job_stats **merged;	/* stats built for group units */
	unsigned nmerged;
	const char **names;		/* "job options" of every unit, back to back */
	const char **values;
	char (*scratch)[4][32];		/* effective values of rw, bs, iodepth, numjobs */
	char **owned;			/* strings made for the report, freed with it */
	unsigned nowned;
	size_t owned_cap;
};

int run_build_report(const struct run *r, struct run_report *out);

/*
 * The same report of the run so far, for --status-interval: results[] (one per job) and
 * phases[] (one per phase) in place of the run's own, which the jobs are still writing;
 * the run's end time and disks are not read (the caller sets rep.time and rep.disks).
 */
int run_build_report_of(const struct run *r, const struct job_result *results,
			const struct phase_usage *phases, struct run_report *out);
void run_report_free(struct run_report *out);

void run_free(struct run *r);

#endif
