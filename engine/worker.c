/* Setting a job up for its event loop, and tearing it down afterwards. */
#include "engine/worker.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engine/ioengines/cmdprio.h"
#include "engine/plan/files.h"
#include "engine/plan/io_plan.h"
#include "engine/thread/iomem.h"
#include "engine/loop/lat_target.h"
#include "engine/loop/offload.h"
#include "engine/loop/pace.h"
#include "engine/stripe/stripe.h"
#include "engine/thread/thread_env.h"
#include "engine/verify/verify.h"
#include "engine/thread/wake.h"
#include "output/report.h"
#include "base/diag.h"
#include "jobs/opt_buffers.h"

#define BUF_ALIGN	4096

/* Every request's buffer holds the largest I/O, rounded to whole pages. */
static size_t buffer_size(const struct job_desc *j)
{
	return (size_t)((job_bs_max(j) + BUF_ALIGN - 1) & ~(uint64_t)(BUF_ALIGN - 1));
}

/*
 * The requests and their buffers, from the memory mem= names, aligned for O_DIRECT on
 * every file and placed as iomem_align asks (fio: a page boundary plus iomem_align; a
 * power of two of a page or more is an alignment of its own); the engine's view.
 */
static int alloc_requests(struct worker *w)
{
	const struct job_desc *j = w->job;
	struct iomem_spec mem = {
		.type = j->mem_type, .path = j->mem_path, .align = BUF_ALIGN,
		.offset = j->iomem_align, .huge_page = j->hugepage_size,
	};
	char why[300];
	int ret;

	for (unsigned i = 0; i < w->nfiles; i++)
		if (files_dio_align(&w->files[i]) > mem.align)
			mem.align = files_dio_align(&w->files[i]);
	if (j->iomem_align >= BUF_ALIGN && !(j->iomem_align & (j->iomem_align - 1))) {
		mem.align = j->iomem_align > mem.align ? j->iomem_align : mem.align;
		mem.offset = 0;
	}
	ret = req_queue_init(&w->q, j->iodepth, &mem, buffer_size(j), why, sizeof(why));
	if (ret < 0) {
		snprintf(w->error_msg, sizeof(w->error_msg), "job '%s': cannot allocate %u "
			 "buffers of %zu bytes (mem=%s): %s", j->name, j->iodepth, buffer_size(j),
			 mem_vals[j->mem_type].name, why);
		return ret;
	}
	w->eng.bufs = w->q.bufs;
	w->eng.buf_size = buffer_size(j);
	w->eng.nbufs = j->iodepth;
	w->eng.reqs = w->q.reqs;
	w->eng.nreqs = j->iodepth;
	ret = iomem_lock(&w->locked, j->lockmem, why, sizeof(why));
	if (ret < 0)
		snprintf(w->error_msg, sizeof(w->error_msg), "job '%s': %s", j->name, why);
	return ret;
}

/* The engine's pauses end on the job's stop. */
static void engine_pause(const void *worker, uint64_t ns)
{
	worker_sleep(worker, ns);
}

static bool engine_stopped(const void *worker)
{
	return worker_stopped(worker);
}

/* The bytes of the job's regions, of which a dedupe working set takes its share. */
static uint64_t region_bytes(const struct worker *w)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < w->nfiles; i++)
		n += w->files[i].io_len;
	return n;
}

static int start_engine(struct worker *w)
{
	const struct ioengine_ops *ops = w->ops;
	int ret = 0;

	if (ops->init)
		ret = ops->init(&w->eng);
	if (!ret && ops->open_files)
		ret = ops->open_files(&w->eng);
	if (ret < 0) {
		const char *hint = ops->init_hint ? ops->init_hint(-ret) : NULL;

		snprintf(w->error_msg, sizeof(w->error_msg), "job '%s': ioengine %s failed to "
			 "start: %s%s%s%s", w->job->name, ops->name, strerror(-ret),
			 hint ? " (" : "", hint ? hint : "", hint ? ")" : "");
	}
	return ret;
}

/* prioclass=, prio=: the thread's own priority, before the engine starts (as fio). */
static int set_ioprio(struct worker *w)
{
	uint32_t v = job_ioprio(w->job);

	if (!v || syscall(SYS_ioprio_set, 1 /* IOPRIO_WHO_PROCESS */, 0, (int)v) == 0)
		return 0;
	snprintf(w->error_msg, sizeof(w->error_msg), "job '%s': prioclass=%u, prio=%u, "
		 "priohint=%u: ioprio_set: %s%s", w->job->name, w->job->prioclass, w->job->prio,
		 w->job->priohint, strerror(errno),
		 errno == EPERM ? " (the real-time class needs root)" : "");
	return -errno;
}

/*
 * block_error_percentiles: the job's one file in trim-sized blocks, at most fio's 8192;
 * the array goes to the job's result at the end (run.c), for the report.
 */
static int blocks_init(struct worker *w)
{
	const struct job_desc *j = w->job;
	uint64_t n;

	if (!j->block_error_pct)
		return 0;
	n = w->nfiles ? w->files[0].io_len / j->bs[IO_TRIM].min : 0;
	if (!n || n > BLOCK_INFO_MAX) {
		snprintf(w->error_msg, sizeof(w->error_msg), "job '%s': block_error_percentiles: "
			 "the file holds %llu trim blocks of %llu bytes, not 1 to %u as fio "
			 "requires", j->name, (unsigned long long)n,
			 (unsigned long long)j->bs[IO_TRIM].min, BLOCK_INFO_MAX);
		return -EINVAL;
	}
	w->blocks = calloc(n, sizeof(*w->blocks));
	if (!w->blocks) {
		snprintf(w->error_msg, sizeof(w->error_msg), "job '%s': no memory for "
			 "block_error_percentiles", j->name);
		return -ENOMEM;
	}
	w->nblocks = (unsigned)n;
	return 0;
}

int worker_setup(struct worker *w)
{
	const struct job_desc *j = w->job;
	int ret;

	w->dev_files = w->files;
	w->ndev_files = w->nfiles;
	/* first: the memory policy and CPUs apply to what the job allocates below */
	ret = thread_env_enter(j, w->dev_files, (w->ops->flags & IOENG_NOFILES) ? 0 :
			       w->ndev_files, w->error_msg, sizeof(w->error_msg));
	if (ret < 0)
		return ret;
	if (w->target && (ret = stripe_attach(w)) < 0) {
		snprintf(w->error_msg, sizeof(w->error_msg), "job '%s': cannot set up its stripe: "
			 "%s", j->name, strerror(-ret));
		return ret;
	}
	if (j->io_submit_mode == SUBMIT_OFFLOAD && (ret = offload_attach(w)) < 0) {
		snprintf(w->error_msg, sizeof(w->error_msg), "job '%s': no memory for "
			 "io_submit_mode=offload's %u threads", j->name, j->iodepth);
		return ret;
	}
	w->sync_path = (w->ops->flags & IOENG_SYNC) ||
		       (j->iodepth == 1 && (w->ops->flags & IOENG_INLINE_QD1));
	w->eng.ops = w->ops;
	w->eng.job = j;
	w->eng.opts = j->engine_opts.bytes;
	w->eng.files = w->files;
	w->eng.nfiles = w->nfiles;
	w->eng.pause = engine_pause;
	w->eng.pause_ctx = w;
	w->eng.stopped = engine_stopped;
	w->eng.drop_ios = &w->st->dir[IO_READ].drop_ios;
	stats_init_zeroed(w->st);
	ret = alloc_requests(w);
	if (ret < 0)
		return ret;
	if (lat_target_init(w) < 0) {
		snprintf(w->error_msg, sizeof(w->error_msg), "job '%s': no memory for "
			 "latency_target's search", j->name);
		return -ENOMEM;
	}
	w->logs = logs_create(j, &ret);
	if (ret < 0) {
		snprintf(w->error_msg, sizeof(w->error_msg), "job '%s': no memory for its logs",
			 j->name);
		return ret;
	}
	ret = blocks_init(w);
	if (ret < 0)
		return ret;
	pace_init(w);
	ret = plan_init(w);
	if (ret == -ENOMEM)
		snprintf(w->error_msg, sizeof(w->error_msg), "job '%s': no memory for the map of "
			 "the blocks its random I/O covered (softrandommap=1 runs without it)",
			 j->name);
	if (ret < 0)
		return ret;	/* any other error: plan_init() said why */
	content_init(&w->content, j, region_bytes(w), w->njobs);
	plan_fill_buffers(w);
	w->issuing = true;
	w->q.filling = true;
	ret = verify_init(w);
	if (ret < 0)
		return ret;
	if (!(w->ops->flags & (IOENG_NOFILES | IOENG_NAMES))) {
		ret = files_open(j, w->dev_files, w->ndev_files, w->error_msg,
				 sizeof(w->error_msg));
		if (ret < 0)
			return ret;
	}
	ret = set_ioprio(w);
	if (ret < 0)
		return ret;
	ret = start_engine(w);
	if (ret < 0)
		return ret;
	worker_prio_layout(w);
	ret = thread_env_exec(j, false, w->error_msg, sizeof(w->error_msg));
	if (ret < 0)
		return ret;
	w->slow_queue = j->lockfile != FILE_LOCK_NONE ||
			(j->zonemode == ZONE_ZBD && rw_does(j->rw, IO_TRIM));
	/*
	 * Logs and verify see each I/O, cmdprio counts each under its own priority, and
	 * openfiles counts each file's I/O in flight.
	 */
	w->per_io = w->logs || w->verify || w->eng.cmdprio || w->plan.window.on ||
		   w->blocks;
	/* as fio, only a job that changes data at a depth above 1 can race with itself */
	w->q.serialize = j->serialize_overlap && j->iodepth > 1 && job_modifies(j);
	return 0;
}

bool worker_next_loop(struct worker *w)
{
	int ret;

	if (w->error || atomic_load_explicit(w->stop, memory_order_relaxed) ||
	    !plan_next_loop(w))
		return false;
	for (unsigned i = 0; i < w->nfiles; i++)
		w->files[i].synced = false;	/* written again */
	if (!w->job->unlink_each_loop) {
		w->issuing = true;	/* a verifying job's next loop, on the same files */
		return true;
	}
	/* The engine lets go of the old descriptors first (registered files) */
	if (w->ops->close_files && w->eng.priv)
		w->ops->close_files(&w->eng);
	ret = files_recreate(w->job, w->dev_files, w->ndev_files, w->error_msg,
			     sizeof(w->error_msg));
	if (!ret && w->ops->open_files)
		ret = w->ops->open_files(&w->eng);
	if (ret < 0) {
		if (!w->error_msg[0])
			worker_fail(w, -ret, "unlink_each_loop: the engine cannot take the "
				    "recreated files: %s", strerror(-ret));
		w->error = w->error ? w->error : -ret;
		return false;
	}
	w->issuing = true;
	return true;
}

void worker_prio_layout(struct worker *w)
{
	if (!w->eng.cmdprio) {
		/* One priority: named, so that a group of jobs of different ones tells them apart. */
		for (int d = 0; d < STATS_NDIR; d++)
			stats_prio_layout(&w->st->dir[d], job_ioprio(w->job), NULL, 0,
					  w->job->lat_percentiles);
		return;
	}
	cmdprio_stats_layout(w->eng.cmdprio, w->st, w->job->lat_percentiles);
	w->rare_min = 0;
}

/* A file unlink=1 could not remove fails the job: it was asked to leave nothing behind. */
static void close_files(struct worker *w)
{
	unsigned bad;
	int ret;

	ret = files_close(w->job, w->dev_files, w->ndev_files, &bad);
	if (ret == 0)
		return;
	worker_fail(w, -ret, "unlink=1: cannot delete '%s': %s", w->dev_files[bad].path,
		    strerror(-ret));
	if (!w->st->error)
		w->st->error = w->error;
}

void worker_block_done(struct worker *w, const struct io_req *r, int err)
{
	/* the block the I/O began in; one that spans several counts in its first, as fio */
	uint64_t off = r->off - (r->full_len - r->len) - r->file->io_off;
	uint64_t i = off / w->job->bs[IO_TRIM].min;
	uint32_t *b = &w->blocks[i < w->nblocks ? i : w->nblocks - 1];
	unsigned state = *b >> BLOCK_STATE_SHIFT, trims = *b & BLOCK_TRIMS_MASK;

	if (state >= BLOCK_TRIM_FAILURE)
		return;	/* a failed block stays failed */
	if (err)
		*b = (uint32_t)(r->dir == IO_TRIM ? BLOCK_TRIM_FAILURE : BLOCK_WRITE_FAILURE) <<
		     BLOCK_STATE_SHIFT | trims;
	else if (r->dir == IO_TRIM && trims < BLOCK_TRIMS_MASK)
		*b = (uint32_t)BLOCK_TRIMMED << BLOCK_STATE_SHIFT | (trims + 1);
}

void worker_teardown(struct worker *w)
{
	if (w->ops->close_files && w->eng.priv)
		w->ops->close_files(&w->eng);
	if (w->ops->cleanup)
		w->ops->cleanup(&w->eng);
	offload_detach(w);
	if (!(w->ops->flags & IOENG_NOFILES))
		close_files(w);
	verify_free(w);
	lat_target_free(w);
	plan_free(w);
	req_queue_free(&w->q);
	iomem_unlock(&w->locked);
	w->eng.bufs = NULL;
	w->eng.reqs = NULL;
	stripe_detach(w);
}

void worker_fail(struct worker *w, int err, const char *fmt, ...)
{
	char *what;
	va_list ap;
	int n;

	w->issuing = false;
	if (w->error)
		return;
	w->error = err;
	va_start(ap, fmt);
	n = vasprintf(&what, fmt, ap);
	va_end(ap);
	/* long file names lose their middle, not the reason that follows them */
	diag_format(w->error_msg, sizeof(w->error_msg), "job '%s': %s", w->job->name,
		    n < 0 ? fmt : what);
	if (n >= 0)
		free(what);
}

void worker_sleep(const struct worker *w, uint64_t ns)
{
	/* the word first: a stop between the look at the flags and the wait still wakes it */
	unsigned seen = atomic_load(w->wake);

	if (!worker_stopped(w))
		wake_sleep(w->wake, seen, ns);
}
