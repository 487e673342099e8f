/*
 * posixaio: POSIX asynchronous I/O (aio_read(3), aio_write(3), aio_fsync(3)), as fio's
 * engine of that name. The aio_* call in queue() already starts the I/O, so submit() only
 * reports what queue() started; getevents() asks aio_error(3) which are done and sleeps in
 * aio_suspend(3) until enough are. A trim runs synchronously once nothing is in flight,
 * as fio's. glibc serves each file descriptor's requests one after another on a helper
 * thread: the depth is kept, but the I/Os of one descriptor do not overlap (fio's run the
 * same). So clones never share a descriptor here (no IOENG_POSITIONAL): each has its own,
 * as each of fio's job processes has.
 */
#include "engine/ioengine.h"

#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>

/* At most this many running I/Os are waited on at once (glibc keeps the list on its stack). */
#define SUSPEND_MAX	8

/*
 * glibc's helper threads are one pool per process, at most 20 by default: fio has a pool
 * per job process, iojob's jobs are threads of one. A thread starts only for a descriptor
 * with work, so a larger cap costs nothing until as many descriptors are busy at once.
 */
#define POOL_THREADS	1024

struct paio_state {
	struct aiocb *cbs;		/* one per request slot */
	struct io_req **live;		/* started, not yet reaped, oldest first */
	unsigned nlive;
	unsigned unreported;		/* started by queue(), not yet counted by submit() */
	struct io_req **done;		/* requests of the last getevents() */
};

static void paio_free(struct paio_state *st)
{
	free(st->cbs);
	free(st->live);
	free(st->done);
	free(st);
}

static int paio_init(struct ioengine *e)
{
	struct paio_state *st;
	unsigned n = e->nreqs;

	/* Only the first call before any aio_* one sets the pool's size; later ones do not. */
	aio_init(&(struct aioinit){ .aio_threads = POOL_THREADS, .aio_num = 64 });
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->cbs = calloc(n, sizeof(*st->cbs));
	st->live = calloc(n, sizeof(*st->live));
	st->done = calloc(n, sizeof(*st->done));
	if (!st->cbs || !st->live || !st->done) {
		paio_free(st);
		return -ENOMEM;
	}
	/* No signal on completion: getevents() asks. calloc left aio_reqprio at 0. */
	for (unsigned i = 0; i < n; i++)
		st->cbs[i].aio_sigevent.sigev_notify = SIGEV_NONE;
	e->priv = st;
	return 0;
}

/* The result of a finished aiocb: bytes (0 for a sync) or -errno. Frees glibc's record. */
static int64_t finish(struct aiocb *cb, int err)
{
	ssize_t n = aio_return(cb);

	return err ? -(int64_t)err : (int64_t)n;
}

/* The helper threads write into the buffers and aiocbs until each I/O ends: wait for all. */
static void paio_cleanup(struct ioengine *e)
{
	struct paio_state *st = e->priv;

	if (!st)
		return;
	for (unsigned i = 0; i < st->nlive; i++) {
		struct aiocb *cb = &st->cbs[st->live[i]->slot];
		const struct aiocb *list[1] = { cb };
		int err;

		aio_cancel(cb->aio_fildes, cb);
		while ((err = aio_error(cb)) == EINPROGRESS)
			aio_suspend(list, 1, NULL);
		finish(cb, err);
	}
	paio_free(st);
	e->priv = NULL;
}

static enum ioq_status paio_queue(struct ioengine *e, struct io_req *r)
{
	struct paio_state *st = e->priv;
	struct aiocb *cb = &st->cbs[r->slot];
	int ret;

	if (r->dir == IO_TRIM || r->dir == IO_SYNC_RANGE) {
		/* Synchronous, as fio's: only once the I/Os before it have ended. */
		if (st->nlive)
			return IOQ_BUSY;
		ioengine_do_sync_io(r, true);
		return IOQ_DONE;
	}
	cb->aio_fildes = r->file->fd;
	cb->aio_buf = r->buf;
	cb->aio_nbytes = r->len;
	cb->aio_offset = (off_t)r->off;
	switch (r->dir) {
	case IO_READ:
		ret = aio_read(cb);
		break;
	case IO_WRITE:
		ret = aio_write(cb);
		break;
	case IO_FSYNC:
		ret = aio_fsync(O_SYNC, cb);
		break;
	default:
		ret = aio_fsync(O_DSYNC, cb);
		break;
	}
	if (ret < 0) {
		/* EAGAIN: no room for another request now, so stay at this depth (fio too). */
		if (errno == EAGAIN)
			return IOQ_BUSY;
		r->res = -errno;
		return IOQ_DONE;
	}
	st->live[st->nlive++] = r;
	st->unreported++;
	return IOQ_QUEUED;
}

/* Nothing to do: queue() started each I/O. Report them so the loop counts them in flight. */
static int paio_submit(struct ioengine *e)
{
	struct paio_state *st = e->priv;
	int n = (int)st->unreported;

	st->unreported = 0;
	return n;
}

/*
 * The I/Os collect() found running: the oldest of each descriptor, at most SUSPEND_MAX.
 * glibc ends one descriptor's I/Os in the order they started, and aio_error() takes its
 * one lock, shared by every job and helper thread: the younger I/Os of a descriptor whose
 * oldest is running are not asked. (Were the order other, they would only wait longer.)
 */
struct running {
	const struct aiocb *cbs[SUSPEND_MAX];
	unsigned n;
};

static bool behind_running(const struct running *run, int fd)
{
	for (unsigned i = 0; i < run->n; i++)
		if (run->cbs[i]->aio_fildes == fd)
			return true;
	return false;
}

/* Move the finished I/Os of live[] to done[] (up to max in all), keeping the rest in order. */
static unsigned collect(struct paio_state *st, unsigned n, unsigned max, struct running *run)
{
	unsigned kept = 0, i;

	run->n = 0;
	for (i = 0; i < st->nlive && n < max; i++) {
		struct io_req *r = st->live[i];
		struct aiocb *cb = &st->cbs[r->slot];
		int err;

		if (behind_running(run, cb->aio_fildes)) {
			st->live[kept++] = r;
			continue;
		}
		err = aio_error(cb);
		if (err == EINPROGRESS) {
			if (run->n < SUSPEND_MAX)
				run->cbs[run->n++] = cb;
			st->live[kept++] = r;
			continue;
		}
		r->res = finish(cb, err);
		st->done[n++] = r;
	}
	for (; i < st->nlive; i++)
		st->live[kept++] = st->live[i];
	st->nlive = kept;
	return n;
}

static int paio_getevents(struct ioengine *e, unsigned min, unsigned max)
{
	struct paio_state *st = e->priv;
	struct running run;
	unsigned n = 0;

	if (min > st->nlive)
		min = st->nlive;
	for (;;) {
		n = collect(st, n, max, &run);
		if (n >= min || n == max || !run.n)
			return (int)n;
		/* Sleep until one of the oldest running I/Os ends, then look again. */
		if (aio_suspend(run.cbs, (int)run.n, NULL) < 0 && errno != EINTR &&
		    errno != EAGAIN)
			return -errno;
	}
}

static struct io_req *paio_event(struct ioengine *e, unsigned i)
{
	struct paio_state *st = e->priv;

	return st->done[i];
}

const struct ioengine_ops posixaio_engine = {
	.name		= "posixaio",
	.flags		= IOENG_TRIM,
	.help		= "POSIX asynchronous I/O (aio_read/aio_write, reaped with aio_suspend)",
	.init		= paio_init,
	.cleanup	= paio_cleanup,
	.queue		= paio_queue,
	.submit		= paio_submit,
	.getevents	= paio_getevents,
	.event		= paio_event,
};
