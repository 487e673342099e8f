/*
 * One job instance on its own thread: its requests, buffers, files and engine, and the
 * event loop that keeps iodepth I/Os in flight and records every one of them.
 *
 * Three parts are embedded, each with its owner: the planner's struct io_plan (io_plan.c:
 * what to issue next), the pacer's struct pace (pace.c: time, deadlines, rate) and the
 * request queue's struct req_queue (req_queue.c allocates it, loop.c moves requests). The
 * others ask them through their headers; embedded, they cost the per-I/O path no load.
 */
#ifndef ENGINE_WORKER_H
#define ENGINE_WORKER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/thread/clock.h"
#include "engine/plan/content.h"
#include "engine/plan/io_plan.h"
#include "engine/ioengine.h"
#include "engine/observe/logs.h"
#include "engine/loop/pace.h"
#include "engine/loop/req_queue.h"
#include "output/stats.h"

struct lat_target;
struct offload;
struct stripe;

struct worker {
	/* given by the runner */
	const struct job_desc *job;
	unsigned njobs;			/* jobs in the run (dedupe_global spreads over them) */
	const struct ioengine_ops *ops;
	const struct clock_src *clk;
	const struct lat_map *latmap;
	uint64_t rare_min;		/* ns from which an I/O takes account_rare(): lat_over='s
					 * lowest limit, 0 with cmdprio, UINT64_MAX: none */
	struct io_file *files;		/* what the job plans over: a stripe's target alone */
	unsigned nfiles;
	struct io_file *target;		/* a striped job's logical file over files[], or NULL */
	struct stripe_member_io *member_io;	/* a stripe's parts per member, at teardown */
	struct job_stats *st;
	struct job_logs *logs;		/* NULL when the job writes no log files */
	struct job_progress *progress;	/* published for the status line */
	struct verify *verify;		/* NULL when the job does not verify */
	struct lat_target *lat;		/* latency_target's search (lat_target.c), or NULL */
	uint32_t *blocks;		/* block_error_percentiles: per trim block (report.h's
					 * state << BLOCK_STATE_SHIFT | trims), NULL when off */
	unsigned nblocks;
	const atomic_bool *stop;	/* set to end every job early */
	const atomic_bool *halt;	/* set to end this job early (exitall) */
	atomic_uint *wake;		/* what its pauses wait on; moved with stop or halt */
	void (*error_line)(void *ctx, const char *msg);	/* error_dump: say it, or NULL */
	void *error_ctx;
	const char *aux_path;		/* the directory of verify state files, or NULL */
	atomic_uint_fast64_t *seq_cursor;	/* seq_cursor=shared: bytes taken by the clones */
	atomic_uint_fast64_t *ios_shared;	/* fsync_every_ios: I/Os of the job's clones */
	struct job_flow *flow;		/* flow=: what the jobs of its flow_id share, or NULL */
	struct job_ramp *ramp;		/* ramp_size: what its group shares, or NULL */

	/* requests */
	struct ioengine eng;
	struct stripe *stripe;		/* the stripe engine in front of the job's, or NULL */
	struct offload *offload;	/* io_submit_mode=offload's threads in front, or NULL */
	struct io_file *dev_files;	/* the files opened: files[], or a stripe's members */
	unsigned ndev_files;
	struct req_queue q;		/* the requests: free, queued, refused, in flight */
	struct iomem_lock locked;	/* lockmem=: memory kept locked while the job runs */
	bool sync_path;			/* every I/O completes inside queue() */
	bool per_io;			/* logs, verify or cmdprio: account each I/O alone */
	bool slow_queue;		/* lockfile (each I/O under its file's lock) or zbd trims:
					 * queue_slow() takes every I/O */

	/* what to issue next */
	struct io_plan plan;		/* direction, file, size, offset and budgets */
	struct content content;		/* what write buffers hold (content.c) */
	struct rng rng;			/* the planner's draws (startdelay's from a copy) */
	bool ending;			/* end_fsync's syncs: fio counts none of them */
	bool issuing;			/* false once budget, runtime, stop or error ended it */

	/* time, in clock ticks */
	uint64_t t_go;			/* when the phase started, if the job starts with it */
	uint64_t now;			/* the last clock reading */
	uint64_t t_progress;		/* the last submit or reap that moved anything */
	uint64_t verify_ticks;		/* spent in verify passes: their reads' runtime */
	struct pace pace;		/* the measured phase, deadlines, rate and thinktime */

	/* outcome */
	int tid;
	int error;
	char error_msg[512];
	char verify_msg[512];		/* the first bad block, while the job goes on */
};

/* Whether the job was told to end early: a signal for every job, or exitall for it. */
static inline bool worker_stopped(const struct worker *w)
{
	return atomic_load_explicit(w->stop, memory_order_relaxed) ||
	       atomic_load_explicit(w->halt, memory_order_relaxed);
}

/* Pause ns, or less: until the job is told to stop (a signal, exitall). */
void worker_sleep(const struct worker *w, uint64_t ns);

/*
 * With cmdprio, lay the statistics out per priority and send every I/O down the rare path
 * that records them: after the engine started, and again after stats_init().
 */
void worker_prio_layout(struct worker *w);

/* Stop issuing and record why (the first failure wins): "job 'NAME': " + the message. */
/* block_error_percentiles: r, a trim or write, completed (err 0) or failed (err != 0). */
void worker_block_done(struct worker *w, const struct io_req *r, int err);

void worker_fail(struct worker *w, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Allocate requests and aligned buffers, open the files and start the engine. On failure
 * returns -errno with error_msg set; worker_teardown() is still needed.
 */
int worker_setup(struct worker *w);

/*
 * unlink_each_loop: a loop ended with nothing in flight; if another follows (and nothing
 * failed or stopped the job), delete and recreate the files and plan it. Whether it does.
 */
bool worker_next_loop(struct worker *w);

/* Run the job to its end: budget done, runtime over, error, or *stop set. */
void worker_run(struct worker *w);

/*
 * The end of the run's finishing touches to the counters, on st: the job's own, or a copy
 * of them taken while it runs (--status-interval). pace_measure() goes first.
 */
void worker_close_stats(const struct worker *w, struct job_stats *st);

/* Stop the engine, close the files (fsync_on_close, unlink) and free everything. */
void worker_teardown(struct worker *w);

#endif
