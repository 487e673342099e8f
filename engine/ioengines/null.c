/*
 * null: no I/O at all; every request completes at once with its full length. It measures
 * iojob's own cost per I/O, and lets tests run the whole loop without a device. At
 * iodepth 1 it completes inside queue(); deeper, it goes through submit and getevents
 * like an asynchronous engine so that batching is exercised too.
 */
#include "engine/ioengine.h"

#include <errno.h>
#include <stdlib.h>

/*
 * The FIFO's counters: reaped, submitted, queued. The last reap's events are read in place,
 * from reaped_from on: a request queued while they are read goes in at tail, which never
 * reaches one still unread (those and the queued ones are distinct requests, at most
 * nreqs, and the FIFO holds nreqs or more).
 */
struct null_state {
	unsigned head, sub, tail;
	unsigned reaped_from;
	unsigned mask;
	struct io_req **fifo;
};

static int null_init(struct ioengine *e)
{
	struct null_state *st;
	unsigned size = 1;

	if (e->nreqs == 1)
		return 0;
	while (size < e->nreqs)
		size <<= 1;
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->fifo = calloc(size, sizeof(*st->fifo));
	if (!st->fifo) {
		free(st);
		return -ENOMEM;
	}
	st->mask = size - 1;
	e->priv = st;
	return 0;
}

static void null_cleanup(struct ioengine *e)
{
	struct null_state *st = e->priv;

	if (!st)
		return;
	free(st->fifo);
	free(st);
	e->priv = NULL;
}

static enum ioq_status null_queue(struct ioengine *e, struct io_req *r)
{
	struct null_state *st = e->priv;

	r->res = r->dir < IO_NDIR ? (int64_t)r->len : 0;
	if (!st)
		return IOQ_DONE;
	st->fifo[st->tail++ & st->mask] = r;
	return IOQ_QUEUED;
}

static int null_submit(struct ioengine *e)
{
	struct null_state *st = e->priv;
	unsigned n = st->tail - st->sub;

	st->sub = st->tail;
	return (int)n;
}

static int null_getevents(struct ioengine *e, unsigned min, unsigned max)
{
	struct null_state *st = e->priv;
	unsigned n = st->sub - st->head;

	(void)min;
	if (n > max)
		n = max;
	st->reaped_from = st->head;
	st->head += n;
	return (int)n;
}

static struct io_req *null_event(struct ioengine *e, unsigned i)
{
	struct null_state *st = e->priv;

	return st->fifo[(st->reaped_from + i) & st->mask];
}

/* null and fio's cpp_null (its C++ build of null, examples/cpp_null.fio): one engine. */
#define NULL_ENGINE(n, h) {						\
	.name		= n,						\
	.flags		= IOENG_NOFILES | IOENG_NO_DATA | IOENG_TRIM | IOENG_INLINE_QD1 | \
			  IOENG_CHEAP_SUBMIT,				\
	.help		= h,						\
	.init		= null_init,					\
	.cleanup	= null_cleanup,					\
	.queue		= null_queue,					\
	.submit		= null_submit,					\
	.getevents	= null_getevents,				\
	.event		= null_event,					\
}

const struct ioengine_ops null_engine =
	NULL_ENGINE("null", "no I/O: completes every request at once (measures iojob itself)");
const struct ioengine_ops cpp_null_engine =
	NULL_ENGINE("cpp_null", "fio's C++ build of the null engine: the null engine");
