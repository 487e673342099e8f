/*
 * vsync: lseek(2) then readv(2)/writev(2). As fio's, requests queued together that follow
 * one another in the same file and direction become one vector, one system call: a job
 * batches with iodepth_batch_submit; each I/O is one call otherwise. A request that does
 * not follow on waits (IOQ_BUSY) until the vector before it went out. At iodepth 1 it is
 * done inside queue(), as a sync engine.
 */
#include "engine/ioengine.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

struct vsync_state {
	struct iovec *iov;
	struct io_req **vec;	/* the requests of the vector being built */
	unsigned nvec;
	struct io_req **done;	/* FIFO of finished requests, nreqs long */
	unsigned done_head, ndone, nreaped;
};

static int vsync_init(struct ioengine *e)
{
	struct vsync_state *st;

	if (e->nreqs == 1)
		return 0;
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->iov = calloc(e->nreqs, sizeof(*st->iov));
	st->vec = calloc(e->nreqs, sizeof(*st->vec));
	st->done = calloc(e->nreqs, sizeof(*st->done));
	if (!st->iov || !st->vec || !st->done) {
		free(st->iov);
		free(st->vec);
		free(st->done);
		free(st);
		return -ENOMEM;
	}
	e->priv = st;
	return 0;
}

static void vsync_cleanup(struct ioengine *e)
{
	struct vsync_state *st = e->priv;

	if (!st)
		return;
	free(st->iov);
	free(st->vec);
	free(st->done);
	free(st);
	e->priv = NULL;
}

/* Move n iovecs at first's offset: the bytes moved, or -errno. */
static ssize_t vec_io(const struct io_req *first, const struct iovec *iov, unsigned n)
{
	int fd = first->file->fd;
	ssize_t ret;

	if (lseek(fd, (off_t)first->off, SEEK_SET) < 0)
		return -errno;
	if (first->dir == IO_READ)
		ret = readv(fd, iov, (int)n);
	else
		ret = writev(fd, iov, (int)n);
	return ret < 0 ? -errno : ret;
}

static bool follows(const struct vsync_state *st, const struct io_req *r)
{
	const struct io_req *last = st->vec[st->nvec - 1];

	return r->file == last->file && r->dir == last->dir && r->off == last->off + last->len;
}

static enum ioq_status vsync_queue(struct ioengine *e, struct io_req *r)
{
	struct vsync_state *st = e->priv;
	bool rw = r->dir == IO_READ || r->dir == IO_WRITE;

	if (!st && rw) {
		struct iovec iov = { .iov_base = r->buf, .iov_len = r->len };

		r->res = vec_io(r, &iov, 1);
		return IOQ_DONE;
	}
	if (!rw) {
		/* a sync or trim waits for the vector before it, then runs on its own */
		if (st && st->nvec)
			return IOQ_BUSY;
		ioengine_do_sync_io(r, false);
		return IOQ_DONE;
	}
	if (st->nvec && !follows(st, r))
		return IOQ_BUSY;
	st->iov[st->nvec] = (struct iovec){ .iov_base = r->buf, .iov_len = r->len };
	st->vec[st->nvec++] = r;
	return IOQ_QUEUED;
}

/*
 * Finished requests queue up behind those the last getevents() handed out, which stay
 * until the next one: the loop may reuse their slots in between, but never more than
 * nreqs are unreaped, so the ring of nreqs entries never wraps onto one of those.
 */
static void finish(struct vsync_state *st, unsigned nreqs, struct io_req *r)
{
	st->done[(st->done_head + st->ndone++) % nreqs] = r;
}

/*
 * One vector out, its bytes shared among its requests in order. After a short transfer the
 * request it ended in keeps what it got (the loop sends the rest); those it never reached
 * go out again as a vector of their own, so only a real end of file or error reaches them.
 */
static int vsync_submit(struct ioengine *e)
{
	struct vsync_state *st = e->priv;
	unsigned n = st->nvec, i = 0;

	while (i < n) {
		ssize_t got = vec_io(st->vec[i], st->iov + i, n - i);
		unsigned first = i;

		for (; i < n && got > 0; i++) {
			struct io_req *r = st->vec[i];

			r->res = got < (ssize_t)r->len ? got : (ssize_t)r->len;
			got -= r->res;
			finish(st, e->nreqs, r);
		}
		if (i == first) {	/* nothing moved: the end of the file, or an error */
			for (; i < n; i++) {
				st->vec[i]->res = got;
				finish(st, e->nreqs, st->vec[i]);
			}
		}
	}
	st->nvec = 0;
	return (int)n;
}

static int vsync_getevents(struct ioengine *e, unsigned min, unsigned max)
{
	struct vsync_state *st = e->priv;
	unsigned n;

	/*
	 * All that was submitted has finished, and all of it is handed back, whatever max, as
	 * fio's vsync does: the loop then refills the whole depth at once, and with
	 * iodepth_batch_submit the refill goes out as one vector again.
	 */
	(void)min;
	(void)max;
	st->done_head = (st->done_head + st->nreaped) % e->nreqs;
	st->ndone -= st->nreaped;
	n = st->ndone;
	st->nreaped = n;
	return (int)n;
}

static struct io_req *vsync_event(struct ioengine *e, unsigned i)
{
	struct vsync_state *st = e->priv;

	return st->done[(st->done_head + i) % e->nreqs];
}

const struct ioengine_ops vsync_engine = {
	.name		= "vsync",
	.flags		= IOENG_TRIM | IOENG_INLINE_QD1,
	.help		= "lseek then readv/writev, adjacent queued I/Os in one vector",
	.init		= vsync_init,
	.cleanup	= vsync_cleanup,
	.queue		= vsync_queue,
	.submit		= vsync_submit,
	.getevents	= vsync_getevents,
	.event		= vsync_event,
};
