/*
 * One job instance on its own thread: its requests, buffers, files and engine, and the
 * event loop that keeps iodepth I/Os in flight and records every one of them.
 */
#ifndef ENGINE_WORKER_H
#define ENGINE_WORKER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/clock.h"
#include "engine/ioengine.h"
#include "engine/logs.h"
#include "engine/pace.h"
#include "output/stats.h"

struct stripe;

struct worker {
	/* given by the runner */
	const struct job_desc *job;
	const struct ioengine_ops *ops;
	const struct clock_src *clk;
	const struct lat_map *latmap;
	uint64_t lat_over_min;		/* lat_over='s lowest limit in ns; UINT64_MAX: none */
	struct io_file *files;		/* what the job plans over: a stripe's target alone */
	unsigned nfiles;
	struct io_file *target;		/* a striped job's logical file over files[], or NULL */
	struct stripe_member_io *member_io;	/* a stripe's parts per member, at teardown */
	struct job_stats *st;
	struct job_logs *logs;		/* NULL when the job writes no log files */
	struct job_progress *progress;	/* published for the status line */
	struct verify *verify;		/* NULL when the job does not verify */
	const atomic_bool *stop;	/* set to end every job early */

	/* requests */
	struct ioengine eng;
	struct stripe *stripe;		/* the stripe engine in front of the job's, or NULL */
	struct io_file *dev_files;	/* the files opened: files[], or a stripe's members */
	unsigned ndev_files;
	struct io_req *reqs;
	unsigned *free_slots;
	unsigned nfree;
	struct io_req **queued;		/* accepted by queue(), not yet submitted, in order */
	unsigned nqueued;
	unsigned inflight;		/* submitted, not yet reaped */
	bool sync_path;			/* every I/O completes inside queue() */
	struct io_req **retry;		/* refused by a full engine queue, to queue again */
	unsigned nretry;
	bool held;			/* the last fill stopped for rate, thinktime or fsync */
	bool abandoned;			/* I/O may still be in flight: never free the buffers */

	/* what to issue next */
	bool plan_fast;			/* one file, one direction, one block size: see io_plan.h */
	int fast_dir;
	uint32_t fast_len;
	uint64_t fast_left;		/* I/Os left to issue on the fast path */
	struct rng rng;
	bool random;
	uint64_t align;			/* random offsets are multiples of this */
	int next_dir;			/* chosen ahead so rate limits can look at it; -1 none */
	unsigned cur_file;
	unsigned file_left;		/* I/Os before file_service switches file */
	unsigned rand_run_left;		/* sequential I/Os left after a random one (rw=..:N) */
	bool trim_done;			/* trimwrite: the trim of tw_* went out, write next */
	struct io_file *tw_file;
	uint64_t tw_off;
	uint32_t tw_len;
	uint64_t bytes_left;		/* issue budget; UINT64_MAX when time based */
	uint64_t ios_left;		/* number_ios budget; UINT64_MAX when unset */
	struct io_file *sync_due;	/* fsync= or fdatasync= wants this file synced */
	int sync_kind;
	bool ending;			/* end_fsync's syncs: fio counts none of them */
	bool sync_all;			/* then the files after it too (fsync_scope=all_files) */
	struct io_file *last_written;
	atomic_uint_fast64_t *ios_shared;	/* fsync_every_ios: I/Os of the job's clones */
	atomic_uint_fast64_t *cursor;	/* seq_cursor=shared: bytes taken by the clones */
	uint64_t cursor_end;		/* where the cursor stops (UINT64_MAX: wraps) */
	uint64_t cursor_span;		/* the files' regions end to end */
	uint64_t cursor_flen;		/* their common length, 0 if they differ */
	bool issuing;			/* false once budget, runtime, stop or error ended it */
	bool filling;			/* iodepth_low: refill only below the mark */

	/* time, in clock ticks */
	uint64_t t_go;			/* when the phase started, if the job starts with it */
	uint64_t now;			/* the last clock reading */
	uint64_t t_progress;		/* the last submit or reap that moved anything */
	struct pace pace;		/* the measured phase, deadlines, rate and thinktime */

	/* outcome */
	int tid;
	int error;
	char error_msg[512];
	char verify_msg[512];		/* the first bad block, while the job goes on */
};

/* Stop issuing and record why (the first failure wins): "job 'NAME': " + the message. */
void worker_fail(struct worker *w, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Allocate requests and aligned buffers, open the files and start the engine. On failure
 * returns -errno with error_msg set; worker_teardown() is still needed.
 */
int worker_setup(struct worker *w);

/* Run the job to its end: budget done, runtime over, error, or *stop set. */
void worker_run(struct worker *w);

/* Stop the engine, close the files (fsync_on_close, unlink) and free everything. */
void worker_teardown(struct worker *w);

#endif
