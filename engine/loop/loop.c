/*
 * The per-job event loop: keep iodepth I/Os in flight (the request queue's limit, lower
 * while latency_target searches), submit them (one per call unless the job batches), reap
 * them, and record each one. One clock read stamps every I/O a
 * submit call sent, one stamps everything a reap call returned, and an I/O's creation is
 * the latest reading before it was planned; a synchronous engine costs two reads per I/O,
 * or one in its fast loop (the reading that ends an I/O starts the next). The common job's
 * loops are chosen once, without the tests that cannot fire for it.
 * Completions that share all their stamps are recorded together. Nothing here allocates,
 * locks or makes a system call of its own per I/O, but for rate limits and thinktime.
 */
#include "engine/worker.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/units.h"
#include "engine/loop/account.h"
#include "engine/engine.h"
#include "engine/plan/files.h"
#include "engine/plan/io_plan_fast.h"
#include "engine/plan/zbd.h"
#include "engine/loop/pace.h"
#include "engine/verify/verify.h"

#define STALL_NS	(10 * NS_PER_SEC)	/* a submit making no progress this long fails */
#define BACKOFF_NS	(100 * NS_PER_USEC)	/* pause: the engine took nothing, none in flight */

static const char *const dir_verb[] = { "read", "write", "trim", "fsync", "fdatasync",
					 "sync_file_range" };

void account_too_slow(struct worker *w, const struct io_req *r, uint64_t lat)
{
	worker_fail(w, ETIMEDOUT, "max_latency: %s '%s' at offset %" PRIu64 ", length %u took "
		    "%" PRIu64 " ns, above the %" PRIu64 " ns allowed", dir_verb[r->dir],
		    r->file->path, r->off, r->len, lat, w->job->max_latency_ns[r->dir]);
}

/* fio's error type: EILSEQ is verify's, a read's is read's, any other a write's (trims and
 * syncs too). */
static int error_type(enum io_dir dir, int err)
{
	return err == EILSEQ ? ERR_TYPE_VERIFY : dir == IO_READ ? ERR_TYPE_READ : ERR_TYPE_WRITE;
}

/* error_dump: fio's line for the error, said as it happens. */
static void dump_error(struct worker *w, const struct io_req *r, int err)
{
	char msg[512 + 128];

	if (!w->error_line)
		return;
	snprintf(msg, sizeof(msg), "io_u error on file %s: %s: %s offset=%" PRIu64 ", "
		 "buflen=%u", r->file->path, strerror(err), dir_verb[r->dir],
		 r->off - (r->full_len - r->len), r->full_len);
	w->error_line(w->error_ctx, msg);
}

/* ": " and the engine's words on r's error (sg: the sense data), or "" without any. */
static const char *details(struct worker *w, const struct io_req *r)
{
	static _Thread_local char buf[400];

	if (!w->ops->errdetails)
		return "";
	buf[0] = ':';
	buf[1] = ' ';
	if (!w->ops->errdetails(&w->eng, r, buf + 2, sizeof(buf) - 2))
		return "";
	return buf;
}

/* An I/O error stops the job, unless continue_on_error (and ignore_error) cover it. */
static void fail_io(struct worker *w, struct io_req *r, int err)
{
	int type = error_type(r->dir, err);

	/*
	 * a stream's read of 0 bytes: the peer is done, and so is the job (fio's net); the
	 * read that found the end moved nothing and is no I/O, as fio counts it; no error,
	 * so before error_dump and continue_on_error's count
	 */
	if (err == ENODATA && (w->ops->flags & IOENG_STREAM)) {
		w->issuing = false;
		if (w->st->issued[r->dir])
			w->st->issued[r->dir]--;
		return;
	}
	if (w->job->error_dump)
		dump_error(w, r, err);
	if (w->blocks && (r->dir == IO_TRIM || r->dir == IO_WRITE))
		worker_block_done(w, r, err);
	/* fill_device: a full file system is the end the job waits for, not an error */
	if (w->job->fill_device && r->dir == IO_WRITE && (err == ENOSPC || err == EDQUOT)) {
		w->issuing = false;
		return;
	}
	/* a type continue_on_error covers counts its errors, the one that stops the job too */
	if (w->job->continue_on_error & (1 << type)) {
		w->st->total_err++;
		if (!w->st->first_error)
			w->st->first_error = err;
		if (job_ignores_error(w->job, type, err))
			return;
	}
	if (err == ENODATA)	/* a read returned 0: the end of the file, not an errno */
		worker_fail(w, err, "%s '%s' at offset %" PRIu64 ", length %u: the file ended at "
			    "offset %" PRIu64 ", shorter than the job's region (%" PRIu64 " bytes "
			    "from offset %" PRIu64 ")", dir_verb[r->dir], r->file->path, r->off,
			    r->len, r->off, r->file->io_len, r->file->io_off);
	else if (w->ops->flags & IOENG_NAMES)	/* an operation on the name, not a transfer */
		worker_fail(w, err, "%s '%s': %s", w->ops->name, r->file->path, strerror(err));
	else
		worker_fail(w, err, "%s '%s' at offset %" PRIu64 ", length %u: %s%s",
			    dir_verb[r->dir], r->file->path, r->off, r->len, strerror(err),
			    details(w, r));
}

/*
 * A completion: account it, or set up the rest of a short transfer for resubmission.
 * Returns true when the request is finished; the caller frees its slot.
 */
static inline __attribute__((always_inline)) bool
complete_io(struct worker *w, struct io_req *r, uint64_t now, bool with_lat, bool plain)
{
	if (r->dir < IO_NDIR && r->res == (int64_t)r->len) {
		if (!plain && __builtin_expect(w->verify != NULL, 0))
			verify_done(w, r);
		if (!plain && __builtin_expect(w->blocks != NULL, 0))
			worker_block_done(w, r, 0);
		account_n(w, r, now, 1, r->full_len, with_lat);
		return true;
	}
	if (r->dir >= IO_NDIR || r->res <= 0) {
		if (r->res < 0)
			fail_io(w, r, (int)-r->res);
		else if (r->dir >= IO_NDIR) {
			if (w->verify)
				verify_sync_done(w, r);
			account_sync(w, r, now);
		}
		else
			fail_io(w, r, ENODATA);
		return true;
	}
	if (!r->resubmit)
		w->st->dir[r->dir].short_ios++;
	r->resubmit = true;
	r->buf += r->res;
	r->off += (uint64_t)r->res;
	r->len -= (uint32_t)r->res;
	return false;
}

/*
 * complete_io(), and with openfiles= the file's count in flight, closing it when done.
 * plain: the job neither verifies, nor keeps block states, nor opens files by window
 * (is_plain(), asked once per loop), and those tests go away.
 */
static inline __attribute__((always_inline)) bool
complete_as(struct worker *w, struct io_req *r, uint64_t now, bool with_lat, bool plain)
{
	bool done = complete_io(w, r, now, with_lat, plain);

	if (!plain && __builtin_expect(w->plan.window.on, 0) && done)
		window_completed(w, r);
	return done;
}

static inline __attribute__((always_inline)) bool
complete(struct worker *w, struct io_req *r, uint64_t now, bool with_lat)
{
	return complete_as(w, r, now, with_lat, false);
}

static bool is_plain(const struct worker *w)
{
	return !w->verify && !w->blocks && !w->plan.window.on;
}

/*
 * lockfile: the engine takes the I/O under its file's lock, shared with the other jobs on
 * that path, and the lock is let go when queue() returns, as in fio: a synchronous
 * engine's I/O is done by then, an asynchronous one's is only queued. zonemode=zbd: a
 * trim that reset its emulated zone (zbd.c) is done, with nothing to send, as fio's.
 */
static __attribute__((noinline)) enum ioq_status queue_slow(struct worker *w,
							    struct io_req *r)
{
	enum ioq_status s;

	if (r->zone_reset) {
		r->res = r->len;
		return IOQ_DONE;
	}
	if (w->job->lockfile == FILE_LOCK_NONE)
		return w->ops->queue(&w->eng, r);
	files_lock(r->file, r->dir, w->job->lockfile);
	s = w->ops->queue(&w->eng, r);
	files_unlock(r->file);
	return s;
}

static inline enum ioq_status queue_io(struct worker *w, struct io_req *r)
{
	if (__builtin_expect(w->slow_queue, 0))
		return queue_slow(w, r);
	return w->ops->queue(&w->eng, r);
}

/* The synchronous path: one I/O at a time, in request slot 0, completed inside queue(). */
static void run_sync(struct worker *w)
{
	struct io_req *r = &w->q.reqs[0];

	while (w->issuing) {
		/* nothing is in flight: it sleeps, and only the flow holds the I/O back then */
		if (pace_gated(&w->pace) && pace_held_back(w)) {
			if (pace_due(&w->pace, w->now))
				pace_tick(w);
			continue;
		}
		if (plan_sync_due(&w->plan)) {
			plan_sync(w, r);
		} else if (!plan_io(w, r)) {
			w->issuing = false;
			break;
		}
		r->t_create = r->t_submit = clock_ticks(w->clk);
		do
			queue_io(w, r);
		while (!complete(w, r, w->now = clock_ticks(w->clk), false));
		if (pace_due(&w->pace, w->now))
			pace_tick(w);
	}
}

/*
 * run_sync() for the common job (plan_io's fast path, nothing gating): the same steps with
 * the checks that cannot fire taken out, the clock's kind fixed (tsc) and one clock read
 * per I/O: the reading that ends an I/O also starts the next, so an I/O's latency runs
 * from the end of the one before to its own end, and takes in iojob's own work between
 * them (recording the one before, planning it). Every tick of the run then belongs to
 * exactly one I/O. A pace tick's work and a new pass's cache drop belong to none: the clock
 * is read again after them (plan_new_pass() reads it).
 * This loop is iojob's floor per I/O.
 */
static inline __attribute__((always_inline)) void sync_fast(struct worker *w, bool tsc,
							    bool plain)
{
	enum ioq_status (*queue)(struct ioengine *, struct io_req *) = w->ops->queue;
	struct ioengine *e = &w->eng;
	struct io_req *r = &w->q.reqs[0];
	uint64_t now;

	w->now = clock_ticks_as(tsc);
	while (w->issuing) {
		if (!plan_io_fast(w, r)) {
			w->issuing = false;
			break;
		}
		/* the last reading: the previous I/O's end, or a new pass's once it began */
		r->t_create = r->t_submit = w->now;
		do
			queue(e, r);
		while (!complete_as(w, r, now = clock_ticks_as(tsc), false, plain));
		w->now = now;
		if (pace_due(&w->pace, now)) {
			pace_tick(w);
			w->now = clock_ticks_as(tsc);
		}
	}
}

static void run_sync_fast(struct worker *w)
{
	bool plain = is_plain(w);

	if (w->clk->tsc && plain)
		sync_fast(w, true, true);
	else if (w->clk->tsc)
		sync_fast(w, true, false);
	else if (plain)
		sync_fast(w, false, true);
	else
		sync_fast(w, false, false);
}

/* Submit what is queued; stamp and count what went out. */
static void submit(struct worker *w)
{
	struct job_stats *st = w->st;
	struct req_queue *q = &w->q;
	uint64_t t1, run_start = 0;
	unsigned run = 0;
	int n, run_dir = -1;	/* no run yet: no direction matches */

	n = w->ops->submit(&w->eng);
	t1 = w->now = clock_ticks(w->clk);
	if (n < 0) {
		struct io_req *r = q->queued[0];

		worker_fail(w, -n, "submitting %u I/O%s (the first: %s '%s' at offset %" PRIu64
			 ", length %u): %s", q->nqueued, q->nqueued > 1 ? "s" : "",
			 dir_verb[r->dir], r->file->path, r->off, r->len, strerror(-n));
		return;
	}
	/*
	 * slat is the same for the I/Os created together: add each run at once. A sync ends
	 * a run and starts none (it has no slat); runs of equal stamps add up the same.
	 */
	for (int i = 0; i < n; i++) {
		struct io_req *r = q->queued[i];

		if (r->resubmit)
			continue;
		r->t_submit = t1;
		if (r->t_create == run_start && r->dir == run_dir) {
			run++;
			continue;
		}
		if (run)
			account_slat(w, run_start, t1, run, run_dir);
		run = 0;
		run_dir = -1;
		if (r->dir >= IO_NDIR)
			continue;
		run_start = r->t_create;
		run_dir = r->dir;
		run = 1;
	}
	if (run)
		account_slat(w, run_start, t1, run, run_dir);
	q->nqueued -= (unsigned)n;
	memmove(q->queued, q->queued + n, q->nqueued * sizeof(*q->queued));
	q->inflight += (unsigned)n;
	if (n) {
		w->t_progress = t1;
		st->depth[stats_depth_bucket(q->inflight)] += (unsigned)n;
		st->submit[stats_batch_bucket((unsigned)n)]++;
	}
}

static void queued_other(struct worker *w, struct io_req *r, enum ioq_status s);

/*
 * Hand r to the engine; it may complete r at once, or have no room for it now. Inline for
 * the common answer, queued: a call per I/O costs more than the work.
 */
static inline __attribute__((always_inline)) void enqueue_as(struct worker *w, struct io_req *r,
							     bool simple)
{
	enum ioq_status s = simple ? w->ops->queue(&w->eng, r) : queue_io(w, r);

	if (__builtin_expect(s == IOQ_QUEUED, 1))
		w->q.queued[w->q.nqueued++] = r;
	else
		queued_other(w, r, s);
}

static inline __attribute__((always_inline)) void enqueue(struct worker *w, struct io_req *r)
{
	enqueue_as(w, r, false);
}

/* queue() completed r at once (IOQ_DONE) or had no room for it (IOQ_BUSY). */
static __attribute__((noinline)) void queued_other(struct worker *w, struct io_req *r,
						   enum ioq_status s)
{
	if (s == IOQ_BUSY) {
		w->q.retry[w->q.nretry++] = r;	/* room for every request: cannot overflow */
		return;
	}
	w->now = clock_ticks(w->clk);
	r->t_submit = r->t_create;
	if (complete(w, r, w->now, true))
		req_queue_put(&w->q, r);
	else
		enqueue(w, r);
	/*
	 * Done at once (libaio's trims, a sync engine at depth), nothing is in flight and
	 * fill() would go on for ever: the runtime's end, a stop and the windows are seen here.
	 */
	if (pace_due(&w->pace, w->now))
		pace_tick(w);
}

/* Requests the engine had no room for go first, in the order they came. */
static bool requeue_retries(struct worker *w)
{
	struct req_queue *q = &w->q;
	unsigned n = q->nretry;

	q->nretry = 0;
	for (unsigned i = 0; i < n; i++) {
		if (q->nretry) {	/* refused again: keep the rest behind it */
			q->retry[q->nretry++] = q->retry[i];
			continue;
		}
		enqueue(w, q->retry[i]);
	}
	return q->nretry == 0;
}

/* serialize_overlap: whether r overlaps a request taken before it and not yet complete. */
static bool overlaps_busy(const struct worker *w, const struct io_req *r)
{
	const struct req_queue *q = &w->q;

	for (unsigned i = 0; i < q->depth; i++) {
		const struct io_req *o = &q->reqs[i];

		if (o == r || !o->busy || o->dir >= IO_NDIR || o->file != r->file)
			continue;
		if (o->off < r->off + r->len && r->off < o->off + o->len)
			return true;
	}
	return false;
}

/*
 * serialize_overlap: the request planned last waited for what it overlaps; it goes now if
 * that has completed. false while it still waits. Stopped meanwhile, it is never issued.
 */
static bool release_waiting(struct worker *w)
{
	struct req_queue *q = &w->q;
	struct io_req *r = q->waiting;

	if (!w->issuing) {
		w->st->issued[r->dir]--;
		req_queue_put(q, r);
		q->waiting = NULL;
		return true;
	}
	if (overlaps_busy(w, r))
		return false;
	q->waiting = NULL;
	enqueue(w, r);
	return true;
}

/*
 * Take, plan and queue requests up to the limit, submitting in batches. simple: a job of
 * run_async_simple(), whose tests per I/O for rate, thinktime, overlaps and locks go away.
 */
static inline __attribute__((always_inline)) void fill(struct worker *w, bool simple)
{
	const struct job_desc *j = w->job;
	struct req_queue *q = &w->q;

	q->held = false;
	if (!q->filling && q->inflight <= j->iodepth_low)
		q->filling = true;
	if (q->nretry && !requeue_retries(w))
		goto out;
	if (__builtin_expect(q->serialize, 0) && q->waiting && !release_waiting(w)) {
		q->held = true;
		goto out;
	}
	if (!w->issuing || !q->filling || q->inflight + q->nqueued >= q->limit)
		goto out;
	w->now = clock_ticks(w->clk);
	while (w->issuing && q->inflight + q->nqueued < q->limit) {
		struct io_req *r;

		if (!simple && pace_gated(&w->pace) && pace_held_back(w)) {
			q->held = true;
			break;
		}
		r = req_queue_take(q);
		if (plan_sync_due(&w->plan)) {
			plan_sync(w, r);
		} else if (!(simple ? plan_io_fast(w, r) : plan_io(w, r))) {
			req_queue_put(q, r);
			/*
			 * openfiles: the next file opens once the I/O in flight on one completes;
			 * its last may still be queued for a batch (iodepth_batch_submit), sent
			 * below (the job ended there, its other files untouched)
			 */
			if (plan_waiting(&w->plan) && (q->inflight || q->nqueued)) {
				q->held = true;
				break;
			}
			w->issuing = false;
			break;
		}
		/* Created now: at the pass's start, after a pause, or after the last submit. */
		r->t_create = w->now;
		if (!simple && __builtin_expect(q->serialize, 0) && r->dir < IO_NDIR &&
		    overlaps_busy(w, r)) {
			q->waiting = r;		/* until what it overlaps completes */
			q->held = true;
			break;
		}
		enqueue_as(w, r, simple);
		if (q->nretry)
			break;
		if (q->nqueued >= j->iodepth_batch_submit)
			submit(w);
	}
	if (q->inflight + q->nqueued >= q->limit)
		q->filling = false;
out:
	if (q->nqueued)
		submit(w);
}

/* Completions that share every stamp (one submit call's batch) are recorded at once. */
static int account_run(struct worker *w, struct io_req *r, int i, int n)
{
	uint64_t bytes = r->full_len, t_submit = r->t_submit, t_create = r->t_create;
	int dir = r->dir;	/* in locals: event() is a call, after which r's are loaded again */
	unsigned k = 1;

	for (; i < n; i++, k++) {
		struct io_req *q = w->ops->event(&w->eng, (unsigned)i);

		if (q->dir != dir || q->res != (int64_t)q->len || q->t_submit != t_submit ||
		    q->t_create != t_create)
			break;
		bytes += q->full_len;
		req_queue_put(&w->q, q);
	}
	account_n(w, r, w->now, k, bytes, true);
	req_queue_put(&w->q, r);
	return i;
}

static void reap(struct worker *w)
{
	const struct job_desc *j = w->job;
	struct req_queue *q = &w->q;
	unsigned min = j->iodepth_batch_complete_min;
	int n;

	/* Poll while more can be issued right away; wait when full, done or held back. */
	if (w->issuing && q->filling && !q->held && !q->nretry &&
	    q->inflight + q->nqueued < q->limit)
		min = 0;
	else if (!min)
		min = 1;
	if (min > q->inflight)
		min = q->inflight;
	n = w->ops->getevents(&w->eng, min, j->iodepth_batch_complete_max);
	w->now = clock_ticks(w->clk);
	if (n < 0) {
		worker_fail(w, -n, "reaping completions: %s", strerror(-n));
		/* The kernel may still write into their buffers: never free those. */
		q->abandoned = true;
		q->inflight = 0;
		return;
	}
	if (!n)
		return;
	w->t_progress = w->now;
	w->st->complete[stats_batch_bucket((unsigned)n)]++;
	q->inflight -= (unsigned)n;
	for (int i = 0; i < n;) {
		struct io_req *r = w->ops->event(&w->eng, (unsigned)i++);

		/* Logs, verify and cmdprio want to see each I/O: no grouping then. */
		if (!w->per_io && r->dir < IO_NDIR && r->res == (int64_t)r->len)
			i = account_run(w, r, i, n);
		else if (complete(w, r, w->now, true))
			req_queue_put(q, r);
		else
			enqueue(w, r);
	}
}

/*
 * Nothing in flight and the engine took none of what is queued (EAGAIN): pause, and give
 * up once it has made no progress for a long time or the job was told to stop.
 */
static void stalled(struct worker *w)
{
	struct req_queue *q = &w->q;

	if (!w->issuing && worker_stopped(w)) {
		worker_fail(w, EINTR, "stopped with %u I/Os the engine never took",
			 q->nqueued + q->nretry);
	} else if (clock_to_ns(w->clk, w->now - w->t_progress) > STALL_NS) {
		worker_fail(w, EAGAIN, "the ioengine took no I/O for %llu s (EAGAIN); "
			 "lower iodepth or check the device",
			 (unsigned long long)(STALL_NS / NS_PER_SEC));
	} else {
		pace_sleep(w, BACKOFF_NS);
		return;
	}
	/* Never submitted: their slots are simply free again. */
	for (unsigned i = 0; i < q->nqueued; i++)
		req_queue_put(q, q->queued[i]);
	for (unsigned i = 0; i < q->nretry; i++)
		req_queue_put(q, q->retry[i]);
	q->nqueued = q->nretry = 0;
}

static inline __attribute__((always_inline)) void run_async_as(struct worker *w, bool simple)
{
	struct req_queue *q = &w->q;

	w->t_progress = w->now;
	while (w->issuing || q->inflight || q->nqueued || q->nretry || q->waiting) {
		fill(w, simple);
		if (q->inflight)
			reap(w);
		else if (q->nqueued || q->nretry)
			stalled(w);
		if (pace_due(&w->pace, w->now))
			pace_tick(w);
	}
}

static void run_async(struct worker *w)
{
	run_async_as(w, false);
}

/*
 * run_async() for the common job (plan_io's fast path, nothing gating, no lockfile, no
 * serialize_overlap): the same loop without the tests that cannot fire.
 */
static void run_async_simple(struct worker *w)
{
	run_async_as(w, true);
}

/*
 * end_syncfs (fio HEAD): one syncfs(2) for each file system the job wrote to, where
 * end_fsync syncs each file; inside the measured phase, counted as no I/O, as fio's.
 */
static void end_syncfs(struct worker *w)
{
	dev_t done[8];
	unsigned ndone = 0;

	for (unsigned i = 0; i < w->nfiles && !w->error; i++) {
		struct stat sb;
		unsigned k = 0;

		if (w->files[i].fd < 0 || fstat(w->files[i].fd, &sb) < 0)
			continue;
		while (k < ndone && done[k] != sb.st_dev)
			k++;
		if (k < ndone)
			continue;
		if (syncfs(w->files[i].fd) < 0)
			worker_fail(w, errno, "end_syncfs: syncfs of '%s''s file system: %s",
				    w->files[i].path, strerror(errno));
		if (ndone < sizeof(done) / sizeof(done[0]))
			done[ndone++] = sb.st_dev;
	}
}

/* end_fsync: sync every file the job wrote, inside the measured phase as fio does. */
static void end_fsync(struct worker *w)
{
	const struct job_desc *j = w->job;

	if (j->end_syncfs && rw_does(j->rw, IO_WRITE) && !w->error)
		end_syncfs(w);

	/* fio's job ends so with fsync_on_close too; the close then has nothing to sync */
	if (!(j->end_fsync || j->fsync_on_close) || !rw_does(j->rw, IO_WRITE) || w->error)
		return;
	w->ending = true;
	for (unsigned i = 0; i < w->nfiles; i++) {
		if (w->files[i].fd < 0)
			continue;	/* openfiles closed it, fsyncing it first */
		plan_end_sync(w, i);
		w->issuing = true;
		if (w->sync_path)
			run_sync(w);
		else
			run_async(w);
		w->files[i].synced = !w->error;
	}
	w->issuing = false;
	w->ending = false;
}

/*
 * disable_lat, disable_clat, disable_slat: what fio would not have measured is left out of
 * the figures. The loop's clock reads cost no more for it, so it measures on and the
 * counters are cleared here, once, instead of a branch per I/O. fio's JSON keeps the keys,
 * all zero; without clat, the latency buckets and sync latencies are empty too.
 */
static void drop_disabled(const struct job_desc *j, struct job_stats *st)
{
	for (int d = 0; d < IO_NDIR; d++) {
		struct dir_stats *ds = &st->dir[d];

		if (j->disable_lat) {
			moments_init(&ds->lat);
			memset(&ds->lat_hist, 0, sizeof(ds->lat_hist));
		}
		if (j->disable_clat) {
			moments_init(&ds->clat);
			memset(&ds->clat_hist, 0, sizeof(ds->clat_hist));
		}
		if (j->disable_slat) {
			moments_init(&ds->slat);
			memset(&ds->slat_hist, 0, sizeof(ds->slat_hist));
		}
	}
	if (j->disable_clat) {
		memset(st->lat_buckets, 0, sizeof(st->lat_buckets));
		moments_init(&st->sync_lat);
		memset(&st->sync_hist, 0, sizeof(st->sync_hist));
	}
}

/*
 * A direction's runtime, as fio keeps it: the job's phase for the directions it issues, less
 * the verify passes, whose time is the reads' alone (a write job's read line runs as long
 * as its verify, its write line as long as its writes).
 */
static uint64_t dir_runtime(const struct worker *w, const struct job_stats *st, int d)
{
	uint64_t runtime = st->runtime_ns, vns = clock_to_ns(w->clk, w->verify_ticks);

	if (vns > runtime)
		vns = runtime;
	if (!rw_does(w->job->rw, d))
		return !st->dir[d].ios ? 0 : d == IO_READ ? vns : runtime;
	return d == IO_READ ? runtime : runtime - vns;
}

/*
 * What the end of the run makes of the counters, into st (the job's own, or a copy that
 * --status-interval shows): each direction's runtime, lat for sync engines, and their
 * depths. pace_measure() has set st's runtime.
 */
void worker_close_stats(const struct worker *w, struct job_stats *st)
{
	uint64_t total = st->sync_ios;

	stats_fold_exact_clat(st);
	for (int d = 0; d < IO_NDIR; d++) {
		/* verify's reads of a write job are reads with a runtime, as in fio */
		if (rw_does(w->job->rw, d) || st->dir[d].ios)
			st->dir[d].runtime_ns = dir_runtime(w, st, d);
		total += st->issued[d];
		if (w->sync_path) {
			/* Submission and completion are one event: lat is clat. */
			st->dir[d].lat = st->dir[d].clat;
			if (w->job->lat_percentiles)
				st->dir[d].lat_hist = st->dir[d].clat_hist;
		}
	}
	if (w->sync_path) {
		/* One I/O per call, at depth 1: what the async path counts per batch. */
		st->depth[0] += total;
		st->submit[1] += total;
		st->complete[1] += total;
	}
	if (w->job->disable_lat || w->job->disable_clat || w->job->disable_slat)
		drop_disabled(w->job, st);
	st->error = w->error;
}

static void finish(struct worker *w)
{
	plan_end(w);
	pace_end(w);
	worker_close_stats(w, w->st);
	if (w->logs)
		logs_finish(w);
	pace_publish(w, JOB_DONE);
}

/* One run of the loop that fits the job, until its budget (or the pass) ends. */
static void run_once(struct worker *w)
{
	if (w->sync_path)
		run_sync(w);
	else
		run_async(w);
}

/* Read back what was written, after the writes: as fio, in the same job. */
static void verify_pass(struct worker *w)
{
	uint64_t t0;

	if (!verify_pass_wanted(w))
		return;
	t0 = clock_ticks(w->clk);
	verify_start_pass(w);
	w->issuing = true;
	run_once(w);
	verify_end_pass(w);
	w->verify_ticks += clock_ticks(w->clk) - t0;
}

/* The engine's start(): a wait on another job, before the timed phase (net's accept). */
static void engine_start(struct worker *w)
{
	char why[256] = "";
	int ret;

	if (!w->ops->start || worker_stopped(w))
		return;
	ret = w->ops->start(&w->eng, why, sizeof(why));
	w->t_go = 0;	/* the timed phase starts after the wait, not with the phase */
	if (ret < 0) {
		worker_fail(w, -ret, "ioengine %s: %s", w->ops->name, why[0] ? why : strerror(-ret));
		w->issuing = false;
	}
}

void worker_run(struct worker *w)
{
	zbd_job_start(w);
	engine_start(w);
	pace_begin(w);
	/* Told to stop before the first I/O (a signal during start-up): issue nothing. */
	if (worker_stopped(w))
		w->issuing = false;
	if (w->sync_path && plan_is_fast(&w->plan) && !pace_gated(&w->pace))
		run_sync_fast(w);
	else if (plan_is_fast(&w->plan) && !pace_gated(&w->pace) && !w->slow_queue &&
		 !w->q.serialize)
		run_async_simple(w);
	else
		do {
			run_once(w);
			if (w->plan.loops_left) {
				/* each loop ends as the job does: synced, then read back, as fio */
				end_fsync(w);
				if (w->plan.verify_loops)
					verify_pass(w);
			}
		} while (worker_next_loop(w));	/* loops one at a time */
	pace_floor_off(w);
	end_fsync(w);
	verify_pass(w);
	verify_finish(w);
	finish(w);
}
