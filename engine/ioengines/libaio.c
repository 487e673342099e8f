/*
 * libaio: Linux native AIO. Requests are batched into one io_submit(2) and reaped with
 * io_getevents(2), or, with userspace_reap and a poll (min 0), straight from the
 * completion ring the kernel maps into our address space.
 */
#include "engine/ioengine.h"

#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <sys/uio.h>

#include "engine/ioengines/cmdprio.h"

/* Older libaio headers lack it: the iocb's aio_reqprio then holds an ioprio_set(2) value. */
#ifndef IOCB_FLAG_IOPRIO
#define IOCB_FLAG_IOPRIO	(1 << 1)
#endif

struct aio_opts {
	struct cmdprio_opts cp;		/* first: the cmdprio_* parsers find it at offset 0 */
	bool userspace_reap;
	bool nowait;
};

_Static_assert(offsetof(struct aio_opts, cp) == 0, "cmdprio options first");

struct aio_state {
	io_context_t ctx;
	struct iocb *iocbs;		/* one per request slot */
	struct iocb **pending;		/* queued, not yet submitted, in order */
	unsigned npending;
	struct io_event *events;
	struct io_req **done;		/* requests of the last getevents() */
	struct cmdprio cp;
	int rw_flags;			/* RWF_* of every read and write: nowait */
	int w_flags;			/* and of every write: atomic */
};

/* The completion ring's header as the kernel lays it out (fs/aio.c). */
struct aio_ring {
	unsigned id, nr, head, tail;
	unsigned magic, compat_features, incompat_features, header_length;
	struct io_event events[];
};

#define AIO_RING_MAGIC	0xa10a10a1

static int aio_init(struct ioengine *e)
{
	struct aio_state *st;
	unsigned n = e->nreqs;
	int ret;

	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->iocbs = calloc(n, sizeof(*st->iocbs));
	st->pending = calloc(n, sizeof(*st->pending));
	st->events = calloc(n, sizeof(*st->events));
	st->done = calloc(n, sizeof(*st->done));
	if (!st->iocbs || !st->pending || !st->events || !st->done) {
		ret = -ENOMEM;
		goto err_free;
	}
	ret = cmdprio_init(&st->cp, &((const struct aio_opts *)e->opts)->cp, e->job);
	if (ret < 0)
		goto err_free;
	st->rw_flags = ((const struct aio_opts *)e->opts)->nowait ? RWF_NOWAIT : 0;
	st->w_flags = st->rw_flags | (e->job->atomic ? RWF_ATOMIC : 0);
	ret = io_setup((int)n, &st->ctx);	/* already -errno */
	if (ret < 0)
		goto err_free;
	e->priv = st;
	e->cmdprio = st->cp.on ? &st->cp : NULL;
	return 0;

err_free:
	cmdprio_free(&st->cp);
	free(st->iocbs);
	free(st->pending);
	free(st->events);
	free(st->done);
	free(st);
	return ret;
}

static void aio_cleanup(struct ioengine *e)
{
	struct aio_state *st = e->priv;

	if (!st)
		return;
	io_destroy(st->ctx);
	cmdprio_free(&st->cp);
	e->cmdprio = NULL;
	free(st->iocbs);
	free(st->pending);
	free(st->events);
	free(st->done);
	free(st);
	e->priv = NULL;
}

static enum ioq_status aio_queue(struct ioengine *e, struct io_req *r)
{
	struct aio_state *st = e->priv;
	struct iocb *cb = &st->iocbs[r->slot];
	int fd = r->file->fd;

	/* aio has no sync_file_range and no trim: done here, as fio's libaio does them */
	if (r->dir == IO_SYNC_RANGE || r->dir == IO_TRIM) {
		ioengine_do_sync_io(r, true);
		return IOQ_DONE;
	}
	switch (r->dir) {
	case IO_READ:
		io_prep_pread(cb, fd, r->buf, r->len, (long long)r->off);
		cb->aio_rw_flags = st->rw_flags;
		break;
	case IO_WRITE:
		io_prep_pwrite(cb, fd, r->buf, r->len, (long long)r->off);
		cb->aio_rw_flags = st->w_flags;
		break;
	case IO_FSYNC:
		io_prep_fsync(cb, fd);
		break;
	default:
		io_prep_fdsync(cb, fd);
		break;
	}
	/* io_prep_* cleared the iocb: without the flag, the thread's own priority applies. */
	if (__builtin_expect(st->cp.on, 0) && cmdprio_pick(&st->cp, r)) {
		cb->aio_reqprio = (short)r->ioprio;
		cb->u.c.flags |= IOCB_FLAG_IOPRIO;
	}
	cb->data = r;
	st->pending[st->npending++] = cb;
	return IOQ_QUEUED;
}

static int aio_submit(struct ioengine *e)
{
	struct aio_state *st = e->priv;
	int ret;

	if (!st->npending)
		return 0;
	ret = io_submit(st->ctx, (long)st->npending, st->pending);
	if (ret == -EAGAIN)
		return 0;	/* the loop reaps and comes back */
	if (ret < 0)
		return ret;
	/* A partial submit leaves the rest queued, in order, for the next call. */
	st->npending -= (unsigned)ret;
	for (unsigned i = 0; i < st->npending; i++)
		st->pending[i] = st->pending[i + (unsigned)ret];
	return ret;
}

/* Reap from the mapped ring without a system call; the kernel fills tail, we move head. */
static int aio_reap_user(struct aio_state *st, unsigned max)
{
	struct aio_ring *ring = (struct aio_ring *)st->ctx;
	unsigned head, tail, n = 0;

	if (ring->magic != AIO_RING_MAGIC)
		return -ENOSYS;
	head = ring->head;
	tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
	while (head != tail && n < max) {
		st->events[n++] = ring->events[head];
		if (++head == ring->nr)
			head = 0;
	}
	__atomic_store_n(&ring->head, head, __ATOMIC_RELEASE);
	return (int)n;
}

static int aio_getevents(struct ioengine *e, unsigned min, unsigned max)
{
	struct aio_state *st = e->priv;
	const struct aio_opts *o = e->opts;
	int n;

	if (o->userspace_reap && min == 0)
		n = aio_reap_user(st, max);
	else
		do
			n = io_getevents(st->ctx, (long)min, (long)max, st->events, NULL);
		while (n == -EINTR);
	for (int i = 0; i < n; i++) {
		struct io_req *r = st->events[i].data;

		/* res is the byte count or a negative errno; res2 is unused for files. */
		r->res = (long)st->events[i].res;
		st->done[i] = r;
	}
	return n;
}

static const char *aio_hint(int err)
{
	return err == EAGAIN ? "the system's AIO limit is used up: raise /proc/sys/fs/aio-max-nr" :
			       NULL;
}

static struct io_req *aio_event(struct ioengine *e, unsigned i)
{
	struct aio_state *st = e->priv;

	return st->done[i];
}

const void *ioengine_aio_peek(const struct ioengine *e)
{
	const struct aio_state *st = e->priv;

	return st->npending ? st->pending[st->npending - 1] : NULL;
}

static const struct opt_def aio_options[] = {
	CMDPRIO_OPTIONS("libaio", struct aio_opts),
	ENGINE_BOOL("libaio", struct aio_opts, "userspace_reap", userspace_reap, "0",
		    "reap completions from the ring without a system call when polling"),
	ENGINE_BOOL_ARG("libaio", struct aio_opts, "nowait", nowait, "0",
			"RWF_NOWAIT: fail with EAGAIN rather than block (a read not cached)"),
	{ NULL },
};

const struct ioengine_ops libaio_engine = {
	.name		= "libaio",
	.flags		= IOENG_POSITIONAL | IOENG_DEPTH_NEEDS_DIRECT | IOENG_TRIM | IOENG_ATOMIC,
	.help		= "Linux native asynchronous I/O (io_submit/io_getevents)",
	.options	= aio_options,
	.options_size	= sizeof(struct aio_opts),
	.init		= aio_init,
	.init_hint	= aio_hint,
	.cleanup	= aio_cleanup,
	.queue		= aio_queue,
	.submit		= aio_submit,
	.getevents	= aio_getevents,
	.event		= aio_event,
};
