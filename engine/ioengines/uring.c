/*
 * io_uring through liburing. The ring is set up single-issuer with deferred task work
 * (completions run when we enter the kernel to wait, with no interrupts of the job's
 * thread) and submit-all, its fd registered; the request buffers and the files are
 * registered once, so the kernel neither pins pages nor looks up files per I/O. Reads and
 * writes are IORING_OP_READ/WRITE where the kernel has them (fio's nonvectored=-1), with
 * the RWF_* flags of nowait and uncached.
 *
 * Unlike fio, registering is the default: fixedbufs and registerfiles left unset register
 * when the kernel takes it and fall back silently where it does not (the locked-memory
 * limit, memory backed by a file, more files than RLIMIT_NOFILE, files opened and closed
 * by openfiles=). Set explicitly, they mean what they mean in fio: 1 registers or the job
 * fails, 0 registers nothing. The setup flags fall back one by one on older kernels.
 */
#include "engine/ioengine.h"

#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>

#include "engine/ioengines/cmdprio.h"
#include "jobs/job.h"

struct uring_opts {
	struct cmdprio_opts cp;		/* first: the cmdprio_* parsers find it at offset 0 */
	bool fixedbufs;
	bool registerfiles;
	bool sqthread_poll;
	bool hipri;
	bool sqpoll_cpu_set;
	unsigned sqpoll_cpu;
	int nonvectored;	/* -1: plain read/write where the kernel has them */
	unsigned uncached;
	bool nowait;
	unsigned force_async;	/* IOSQE_ASYNC on every Nth I/O; 0: none */
};

_Static_assert(offsetof(struct uring_opts, cp) == 0, "cmdprio options first");

struct uring_state {
	struct io_uring ring;
	bool ring_ok;
	bool fixed_bufs;	/* buffers registered: READ_FIXED and WRITE_FIXED */
	bool files_registered;
	unsigned unsubmitted;	/* queued, not yet reported submitted */
	struct io_req **done;	/* requests of the last getevents() */
	struct cmdprio cp;
	int rw_flags;		/* the RWF_* flags of every read and write */
	int w_flags;		/* and of every write: atomic */
	bool vectored;		/* readv/writev of iov[slot], not read/write */
	struct iovec *iov;	/* one per request slot, when vectored */
	unsigned force_async_n;	/* the force_async option */
	unsigned prepped;	/* I/Os since the last IOSQE_ASYNC */
};

/*
 * The setup flags that help, newest first: on a kernel that refuses one (EINVAL), the ring
 * is set up again without it, as t/io_uring does. CQSIZE is twice the submission ring, the
 * kernel's own ratio: the loop keeps at most depth requests in flight, so completions can
 * never overflow into the kernel's backlog.
 */
static const unsigned uring_extra_flags[] = {
	IORING_SETUP_DEFER_TASKRUN,	/* 6.1 */
	IORING_SETUP_SINGLE_ISSUER,	/* 6.0 */
	IORING_SETUP_COOP_TASKRUN,	/* 5.19 */
	IORING_SETUP_SUBMIT_ALL,	/* 5.18 */
	IORING_SETUP_CQSIZE,		/* 5.5 */
};

static int uring_setup(struct uring_state *st, const struct uring_opts *o, unsigned depth)
{
	struct io_uring_params p;
	unsigned flags = IORING_SETUP_SUBMIT_ALL | IORING_SETUP_CQSIZE;
	int ret;

	if (o->sqthread_poll) {
		/* the kernel's thread issues: no single issuer, no task work of ours */
		flags |= IORING_SETUP_SQPOLL;
		if (o->sqpoll_cpu_set)
			flags |= IORING_SETUP_SQ_AFF;
	} else {
		flags |= IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
			 IORING_SETUP_COOP_TASKRUN;
	}
	if (o->hipri)
		flags |= IORING_SETUP_IOPOLL;
	for (size_t i = 0;; i++) {
		memset(&p, 0, sizeof(p));
		p.flags = flags;
		p.sq_thread_cpu = o->sqpoll_cpu;
		p.cq_entries = depth * 2;
		ret = io_uring_queue_init_params(depth, &st->ring, &p);
		if (ret != -EINVAL)
			return ret;
		while (i < sizeof(uring_extra_flags) / sizeof(uring_extra_flags[0]) &&
		       !(flags & uring_extra_flags[i]))
			i++;
		if (i == sizeof(uring_extra_flags) / sizeof(uring_extra_flags[0]))
			return ret;	/* refused with none of them: the depth or the CPU */
		flags &= ~uring_extra_flags[i];
	}
}

static int uring_register_bufs(struct ioengine *e, struct uring_state *st)
{
	struct iovec *iov = calloc(e->nbufs, sizeof(*iov));
	int ret;

	if (!iov)
		return -ENOMEM;
	for (unsigned i = 0; i < e->nbufs; i++) {
		iov[i].iov_base = e->bufs + (size_t)i * e->buf_size;
		iov[i].iov_len = e->buf_size;
	}
	ret = io_uring_register_buffers(&st->ring, iov, e->nbufs);
	free(iov);
	return ret;
}

/* Whether reads and writes go as readv/writev: nonvectored=0, or a kernel without READ. */
static bool uring_vectored(struct io_uring *ring, int nonvectored)
{
	struct io_uring_probe *p;
	bool plain;

	if (nonvectored != -1)		/* as fio: any other value is a boolean */
		return !nonvectored;
	p = io_uring_get_probe_ring(ring);
	plain = p && io_uring_opcode_supported(p, IORING_OP_READ) &&
		io_uring_opcode_supported(p, IORING_OP_WRITE);
	io_uring_free_probe(p);
	return !plain;
}

/*
 * fixedbufs: set, fio's meaning (registered, or the job fails; 0: never). Unset: registered
 * unless nonvectored=0 asks for readv/writev, and where the kernel refuses (the locked-memory
 * limit, pages of a file mem= mapped), the buffers stay unregistered, silently.
 */
static int uring_init_bufs(struct ioengine *e, struct uring_state *st)
{
	const struct uring_opts *o = e->opts;
	bool given = job_setting(e->job, "fixedbufs") != NULL;
	int ret;

	if (given ? !o->fixedbufs : o->nonvectored == 0 || !e->nbufs)
		return 0;
	ret = uring_register_bufs(e, st);
	if (ret == 0)
		st->fixed_bufs = true;
	return given ? ret : 0;
}

/* The per-I/O choices the options make, worked out once. */
static int uring_init_rw(struct ioengine *e, struct uring_state *st)
{
	const struct uring_opts *o = e->opts;

	if (o->uncached && !e->job->direct)	/* as fio: direct I/O caches nothing anyway */
		st->rw_flags |= RWF_DONTCACHE;
	if (o->nowait)
		st->rw_flags |= RWF_NOWAIT;
	st->w_flags = st->rw_flags | (e->job->atomic ? RWF_ATOMIC : 0);
	st->force_async_n = o->force_async;
	st->vectored = !st->fixed_bufs && uring_vectored(&st->ring, o->nonvectored);
	if (st->vectored) {
		st->iov = calloc(e->nreqs, sizeof(*st->iov));
		if (!st->iov)
			return -ENOMEM;
	}
	return 0;
}

static int uring_init(struct ioengine *e)
{
	const struct uring_opts *o = e->opts;
	struct uring_state *st;
	int ret;

	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->done = calloc(e->nreqs, sizeof(*st->done));
	if (!st->done) {
		ret = -ENOMEM;
		goto err_free;
	}
	ret = cmdprio_init(&st->cp, &o->cp, e->job);
	if (ret < 0)
		goto err_free;
	ret = uring_setup(st, o, e->nreqs);
	if (ret < 0)
		goto err_free;
	st->ring_ok = true;
	io_uring_register_ring_fd(&st->ring);	/* an optimisation: fine if refused */
	ret = uring_init_bufs(e, st);
	if (ret < 0)
		goto err_ring;
	ret = uring_init_rw(e, st);
	if (ret < 0)
		goto err_ring;
	e->priv = st;
	e->cmdprio = st->cp.on ? &st->cp : NULL;
	return 0;

err_ring:
	io_uring_queue_exit(&st->ring);
err_free:
	cmdprio_free(&st->cp);
	free(st->iov);
	free(st->done);
	free(st);
	return ret;
}

static void uring_cleanup(struct ioengine *e)
{
	struct uring_state *st = e->priv;

	if (!st)
		return;
	if (st->ring_ok)
		io_uring_queue_exit(&st->ring);
	cmdprio_free(&st->cp);
	e->cmdprio = NULL;
	free(st->iov);
	free(st->done);
	free(st);
	e->priv = NULL;
}

/* Whether every file is open: openfiles= opens and closes them as the job goes. */
static bool all_open(const struct ioengine *e)
{
	for (unsigned i = 0; i < e->nfiles; i++)
		if (e->files[i].fd < 0)
			return false;
	return true;
}

/*
 * registerfiles: set, fio's meaning (registered or the job fails; 0: never). Unset: the
 * files are registered when all of them are open, and stay as they are where the kernel
 * refuses (more than RLIMIT_NOFILE of them), silently.
 */
static int uring_open_files(struct ioengine *e)
{
	const struct uring_opts *o = e->opts;
	struct uring_state *st = e->priv;
	bool given = job_setting(e->job, "registerfiles") != NULL;
	int *fds, ret;

	if (st->rw_flags & RWF_DONTCACHE)
		for (unsigned i = 0; i < e->nfiles; i++)
			if (ioengine_probe_dontcache(&e->files[i]) < 0)
				return -EOPNOTSUPP;
	if (given ? !o->registerfiles : !e->nfiles || !all_open(e))
		return 0;
	fds = calloc(e->nfiles, sizeof(*fds));
	if (!fds)
		return -ENOMEM;
	for (unsigned i = 0; i < e->nfiles; i++) {
		fds[i] = e->files[i].fd;
		e->files[i].reg_index = (int)i;
	}
	ret = io_uring_register_files(&st->ring, fds, e->nfiles);
	free(fds);
	if (ret == 0)
		st->files_registered = true;
	return given ? ret : 0;
}

static void uring_close_files(struct ioengine *e)
{
	struct uring_state *st = e->priv;

	if (st && st->files_registered) {
		io_uring_unregister_files(&st->ring);
		st->files_registered = false;
	}
}

/* readv/writev of the request's own one-element vector, as fio's nonvectored=0 */
static void prep_rw_vec(struct uring_state *st, struct io_uring_sqe *sqe, struct io_req *r,
			int fd)
{
	struct iovec *iov = &st->iov[r->slot];

	iov->iov_base = r->buf;
	iov->iov_len = r->len;
	if (r->dir == IO_READ)
		io_uring_prep_readv(sqe, fd, iov, 1, r->off);
	else
		io_uring_prep_writev(sqe, fd, iov, 1, r->off);
}

static void prep_rw(struct ioengine *e, struct io_uring_sqe *sqe, struct io_req *r, int fd)
{
	struct uring_state *st = e->priv;
	bool rd = r->dir == IO_READ;

	if (__builtin_expect(st->vectored, 0)) {
		prep_rw_vec(st, sqe, r, fd);
	} else if (st->fixed_bufs) {
		if (rd)
			io_uring_prep_read_fixed(sqe, fd, r->buf, r->len, r->off, (int)r->buf_slot);
		else
			io_uring_prep_write_fixed(sqe, fd, r->buf, r->len, r->off,
						  (int)r->buf_slot);
	} else if (rd) {
		io_uring_prep_read(sqe, fd, r->buf, r->len, r->off);
	} else {
		io_uring_prep_write(sqe, fd, r->buf, r->len, r->off);
	}
	sqe->rw_flags = rd ? st->rw_flags : st->w_flags;	/* the prep cleared them */
}

static enum ioq_status uring_queue(struct ioengine *e, struct io_req *r)
{
	struct uring_state *st = e->priv;
	struct io_uring_sqe *sqe;
	int fd = st->files_registered ? r->file->reg_index : r->file->fd;

	/* a trim is done here, in the job's thread, as fio's io_uring engine does it */
	if (r->dir == IO_TRIM) {
		ioengine_do_sync_io(r, true);
		return IOQ_DONE;
	}
	sqe = io_uring_get_sqe(&st->ring);
	if (!sqe)
		return IOQ_BUSY;
	if (r->dir == IO_READ || r->dir == IO_WRITE)
		prep_rw(e, sqe, r, fd);
	else if (r->dir == IO_SYNC_RANGE)
		io_uring_prep_sync_file_range(sqe, fd, r->len, r->off, r->sfr_flags);
	else
		io_uring_prep_fsync(sqe, fd, r->dir == IO_FDATASYNC ? IORING_FSYNC_DATASYNC : 0);
	if (st->files_registered)
		sqe->flags |= IOSQE_FIXED_FILE;
	/* as fio: every force_async-th I/O goes straight to the kernel's async workers */
	if (__builtin_expect(st->force_async_n != 0, 0) && ++st->prepped == st->force_async_n) {
		st->prepped = 0;
		sqe->flags |= IOSQE_ASYNC;
	}
	/*
	 * The prep left ioprio 0: the thread's own priority. With cmdprio each I/O says its
	 * own, the job's too, as fio does (an SQPOLL thread has a priority of its own).
	 */
	if (__builtin_expect(st->cp.on, 0)) {
		cmdprio_pick(&st->cp, r);
		sqe->ioprio = r->ioprio;
	}
	io_uring_sqe_set_data(sqe, r);
	st->unsubmitted++;
	return IOQ_QUEUED;
}

static int uring_submit(struct ioengine *e)
{
	struct uring_state *st = e->priv;
	int ret;

	/*
	 * With deferred task work, completions are posted only when the thread enters the
	 * kernel to get events: the submit call does that too, so the page cache's reads,
	 * done inside it, are in the ring when the loop reaps, without a second call.
	 */
	do
		ret = st->ring.flags & IORING_SETUP_DEFER_TASKRUN ?
		      io_uring_submit_and_get_events(&st->ring) : io_uring_submit(&st->ring);
	while (ret == -EINTR);
	if (ret < 0)
		return ret == -EAGAIN || ret == -EBUSY ? 0 : ret;
	/*
	 * With SQPOLL, liburing counts every entry the kernel thread has not consumed yet,
	 * those of earlier calls too; ours are submitted once they are in the ring.
	 */
	if (st->ring.flags & IORING_SETUP_SQPOLL)
		ret = (int)st->unsubmitted;
	st->unsubmitted -= (unsigned)ret;
	return ret;
}

static int uring_getevents(struct ioengine *e, unsigned min, unsigned max)
{
	struct uring_state *st = e->priv;
	struct io_uring_cqe *cqe;
	unsigned n = 0, head;
	int ret;

	/*
	 * A poll enters the kernel only when nothing is ready: reads the page cache holds
	 * complete inside the submit call, their entries already in the ring.
	 */
	ret = 0;
	if (min)
		ret = io_uring_wait_cqe_nr(&st->ring, &cqe, min);
	else if (!io_uring_cq_ready(&st->ring))
		ret = io_uring_get_events(&st->ring);	/* runs deferred completions */
	if (ret < 0 && ret != -EINTR && ret != -ETIME && ret != -EAGAIN)
		return ret;
	io_uring_for_each_cqe(&st->ring, head, cqe) {
		struct io_req *r = io_uring_cqe_get_data(cqe);

		if (n == max)
			break;
		r->res = cqe->res;
		st->done[n++] = r;
	}
	io_uring_cq_advance(&st->ring, n);
	return (int)n;
}

static const char *uring_hint(int err)
{
	switch (err) {
	case ENOSYS:
	case EPERM:
		return "io_uring is disabled here: see /proc/sys/kernel/io_uring_disabled";
	case ENOMEM:
		return "raise the locked-memory limit (ulimit -l) or lower iodepth";
	case EINVAL:
		return "a ring holds at most 32768 entries: is iodepth above that? (or "
		       "sqthread_poll_cpu names a CPU that does not exist)";
	case EOPNOTSUPP:
		return "uncached: the kernel or the file system refuses RWF_DONTCACHE (Linux "
		       "6.14 and a file system that supports it are needed)";
	default:
		return NULL;
	}
}

static struct io_req *uring_event(struct ioengine *e, unsigned i)
{
	struct uring_state *st = e->priv;

	return st->done[i];
}

const void *ioengine_uring_peek(const struct ioengine *e)
{
	const struct uring_state *st = e->priv;
	const struct io_uring_sq *sq = &st->ring.sq;

	return &sq->sqes[(sq->sqe_tail - 1) & sq->ring_mask];
}

/* A whole number as fio's FIO_OPT_INT takes it, within lo..hi. */
static int parse_int(const char *val, long long lo, long long hi, long long *out, char *why,
		     size_t whylen)
{
	char *end;

	errno = 0;
	*out = strtoll(val, &end, 0);
	if (end == val || *end || errno || *out < lo || *out > hi) {
		snprintf(why, whylen, "expected a whole number from %lld to %lld", lo, hi);
		return -EINVAL;
	}
	return 0;
}

/* sqthread_poll_cpu: fio sets the CPU and that it was set, so CPU 0 counts too. */
static int parse_sqpoll_cpu(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			    size_t whylen)
{
	struct uring_opts *o = dst;
	long long cpu;
	int ret = parse_int(val, 0, UINT32_MAX, &cpu, why, whylen);

	(void)ctx;
	if (ret < 0)
		return ret;
	o->sqpoll_cpu = (unsigned)cpu;
	o->sqpoll_cpu_set = true;
	return 0;
}

static int parse_nonvectored(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			     size_t whylen)
{
	struct uring_opts *o = dst;
	long long v;
	int ret = parse_int(val, INT32_MIN, INT32_MAX, &v, why, whylen);

	(void)ctx;
	if (ret < 0)
		return ret;
	o->nonvectored = (int)v;
	return 0;
}

static const struct opt_def uring_options[] = {
	CMDPRIO_OPTIONS("io_uring", struct uring_opts),
	/* no default: unset, they register where the kernel lets them (see the top) */
	ENGINE_BOOL("io_uring", struct uring_opts, "fixedbufs", fixedbufs, NULL,
		    "register the I/O buffers with the kernel once (unset: where the kernel "
		    "takes them; fio: 0)"),
	ENGINE_BOOL("io_uring", struct uring_opts, "registerfiles", registerfiles, NULL,
		    "register the files with the kernel once (unset: when all are open and "
		    "the kernel takes them; fio: 0)"),
	ENGINE_BOOL("io_uring", struct uring_opts, "sqthread_poll", sqthread_poll, "0",
		    "a kernel thread polls the submission queue (costs a core)"),
	ENGINE_BOOL("io_uring", struct uring_opts, "hipri", hipri, "0",
		    "polled completions (needs a device with poll queues)"),
	ENGINE_CUSTOM("io_uring", struct uring_opts, "sqthread_poll_cpu", sqpoll_cpu, NULL,
		      parse_sqpoll_cpu, "CPU",
		      "with sqthread_poll: the CPU the kernel's polling thread runs on"),
	ENGINE_CUSTOM("io_uring", struct uring_opts, "nonvectored", nonvectored, "-1",
		      parse_nonvectored, "-1|0|1",
		      "0: readv/writev of one vector; 1: read/write; -1: read/write if the "
		      "kernel has them"),
	ENGINE_UINT("io_uring", struct uring_opts, "uncached", uncached, "0", 0, UINT32_MAX,
		    "non-zero: buffered I/O drops its pages once done (RWF_DONTCACHE)"),
	ENGINE_BOOL_ARG("io_uring", struct uring_opts, "nowait", nowait, "0",
			"RWF_NOWAIT: fail with EAGAIN rather than block (a read not cached)"),
	ENGINE_UINT("io_uring", struct uring_opts, "force_async", force_async, "0", 0,
		    UINT32_MAX, "every Nth I/O goes to the kernel's async workers (IOSQE_ASYNC)"),
	{ NULL },
};

const struct ioengine_ops uring_engine = {
	.name		= "io_uring",
	.flags		= IOENG_POSITIONAL | IOENG_TRIM | IOENG_BATCHES | IOENG_ATOMIC,
	.fds		= 1,	/* the ring */
	.help		= "io_uring via liburing: a registered ring, buffers and files registered by "
			  "default where the kernel takes them, SQ polling, polled, uncached and "
			  "nowait I/O",
	.options	= uring_options,
	.options_size	= sizeof(struct uring_opts),
	.init		= uring_init,
	.init_hint	= uring_hint,
	.cleanup	= uring_cleanup,
	.open_files	= uring_open_files,
	.close_files	= uring_close_files,
	.queue		= uring_queue,
	.submit		= uring_submit,
	.getevents	= uring_getevents,
	.event		= uring_event,
};
