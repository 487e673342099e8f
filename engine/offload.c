/*
 * io_submit_mode=offload: a synchronous engine's I/Os run on a pool of threads, one per
 * request slot, so that the job's thread issues them at its own pace (rate, thinktime)
 * while iodepth of them are in flight, and is not held up by a slow device: fio's answer
 * to coordinated omission. The loop sees an asynchronous engine: queue() takes the
 * request, submit() hands each to the thread of its slot, getevents() collects what the
 * threads finished. The job's thread still times and accounts every I/O.
 *
 * Nothing is allocated or locked per I/O: a slot's state word hands its request over
 * (futex wait and wake), and finished slots go onto a stack that the job's thread takes
 * whole at each reap, so that no two threads ever pop it.
 */
#include "engine/offload.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engine/worker.h"

#define THREAD_STACK	(64 << 10)	/* a thread only calls the engine's queue() */
#define NO_SLOT		UINT_MAX

enum slot_state { SLOT_IDLE, SLOT_GO, SLOT_QUIT };

struct offload_slot {
	atomic_uint state;		/* enum slot_state; the futex word its thread waits on */
	unsigned next;			/* the slot under it on the done stack */
	struct io_req *req;
	pthread_t thread;
	bool started;
	struct offload *off;
} __attribute__((aligned(64)));	/* one cache line each: the threads write their own */

struct offload {
	struct ioengine_ops ops;	/* what the loop calls: this file */
	struct ioengine inner;		/* the job's synchronous engine */
	bool inner_up;			/* its init() succeeded */
	unsigned n;			/* slots, threads: the job's iodepth */
	struct offload_slot *slots;
	struct io_req **pending;	/* queued, not yet handed to their threads */
	unsigned npending;
	atomic_uint done_top;		/* the done stack's top slot, NO_SLOT when empty */
	atomic_uint done_seq;		/* bumped per finished I/O: the job's futex word */
	atomic_bool reaper_waits;
	struct io_req **ready;		/* finished, taken off the stack, oldest first */
	unsigned nready;
	struct io_req **events;		/* the last getevents()' I/Os, for event() */
};

static void futex_wait(atomic_uint *word, unsigned seen)
{
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
}

static void futex_wake(atomic_uint *word, int n)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

/* Each slot's thread: run the request it is handed, put the slot on the done stack. */
static void *slot_thread(void *arg)
{
	struct offload_slot *s = arg;
	struct offload *off = s->off;
	unsigned self = (unsigned)(s - off->slots), top;

	for (;;) {
		unsigned st = atomic_load_explicit(&s->state, memory_order_acquire);

		if (st == SLOT_QUIT)
			return NULL;
		if (st == SLOT_IDLE) {
			futex_wait(&s->state, SLOT_IDLE);
			continue;
		}
		off->inner.ops->queue(&off->inner, s->req);	/* sync: done on return */
		atomic_store_explicit(&s->state, SLOT_IDLE, memory_order_relaxed);
		top = atomic_load_explicit(&off->done_top, memory_order_relaxed);
		do
			s->next = top;
		while (!atomic_compare_exchange_weak_explicit(&off->done_top, &top, self,
							      memory_order_release,
							      memory_order_relaxed));
		atomic_fetch_add(&off->done_seq, 1);
		if (atomic_load(&off->reaper_waits))
			futex_wake(&off->done_seq, 1);
	}
}

static enum ioq_status offload_queue(struct ioengine *e, struct io_req *r)
{
	struct offload *off = e->priv;

	off->pending[off->npending++] = r;
	return IOQ_QUEUED;
}

static int offload_submit(struct ioengine *e)
{
	struct offload *off = e->priv;
	unsigned n = off->npending;

	for (unsigned i = 0; i < n; i++) {
		struct offload_slot *s = &off->slots[off->pending[i]->slot];

		s->req = off->pending[i];
		atomic_store_explicit(&s->state, SLOT_GO, memory_order_release);
		futex_wake(&s->state, 1);
	}
	off->npending = 0;
	return (int)n;
}

/* Take the whole done stack; it is newest first, ready[] is oldest first. */
static void take_done(struct offload *off)
{
	unsigned top = atomic_exchange_explicit(&off->done_top, NO_SLOT, memory_order_acquire);
	unsigned n = 0, at;

	for (unsigned s = top; s != NO_SLOT; s = off->slots[s].next)
		n++;
	at = off->nready + n;
	for (unsigned s = top; s != NO_SLOT; s = off->slots[s].next)
		off->ready[--at] = off->slots[s].req;
	off->nready += n;
}

static int offload_getevents(struct ioengine *e, unsigned min, unsigned max)
{
	struct offload *off = e->priv;
	unsigned n;

	take_done(off);
	while (off->nready < min) {
		unsigned seq;

		atomic_store(&off->reaper_waits, true);
		seq = atomic_load(&off->done_seq);
		take_done(off);
		if (off->nready < min)
			futex_wait(&off->done_seq, seq);
		atomic_store(&off->reaper_waits, false);
		take_done(off);
	}
	n = off->nready < max ? off->nready : max;
	memcpy(off->events, off->ready, n * sizeof(*off->events));
	off->nready -= n;
	memmove(off->ready, off->ready + n, off->nready * sizeof(*off->ready));
	return (int)n;
}

static struct io_req *offload_event(struct ioengine *e, unsigned i)
{
	struct offload *off = e->priv;

	return off->events[i];
}

static void stop_threads(struct offload *off)
{
	for (unsigned i = 0; i < off->n; i++) {
		atomic_store(&off->slots[i].state, SLOT_QUIT);
		futex_wake(&off->slots[i].state, 1);
	}
	for (unsigned i = 0; i < off->n; i++)
		if (off->slots[i].started)
			pthread_join(off->slots[i].thread, NULL);
}

static int start_threads(struct offload *off)
{
	pthread_attr_t attr;
	int ret = 0;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, THREAD_STACK);
	for (unsigned i = 0; !ret && i < off->n; i++) {
		off->slots[i].off = off;
		ret = -pthread_create(&off->slots[i].thread, &attr, slot_thread, &off->slots[i]);
		off->slots[i].started = ret == 0;
	}
	pthread_attr_destroy(&attr);
	return ret;
}

/* The job's engine sees what the loop set up (files, requests, buffers), then the pool. */
static int offload_init(struct ioengine *e)
{
	struct offload *off = e->priv;
	int ret = 0;

	off->inner.job = e->job;
	off->inner.opts = e->opts;
	off->inner.files = e->files;
	off->inner.nfiles = e->nfiles;
	off->inner.reqs = e->reqs;
	off->inner.nreqs = e->nreqs;
	off->inner.bufs = e->bufs;
	off->inner.nbufs = e->nbufs;
	off->inner.buf_size = e->buf_size;
	if (off->inner.ops->init)
		ret = off->inner.ops->init(&off->inner);
	off->inner_up = ret == 0;
	if (!ret)
		ret = start_threads(off);
	return ret;
}

static void offload_cleanup(struct ioengine *e)
{
	struct offload *off = e->priv;

	stop_threads(off);
	if (off->inner_up && off->inner.ops->cleanup)
		off->inner.ops->cleanup(&off->inner);
	off->inner_up = false;
}

static int offload_open_files(struct ioengine *e)
{
	struct offload *off = e->priv;

	return off->inner.ops->open_files ? off->inner.ops->open_files(&off->inner) : 0;
}

static void offload_close_files(struct ioengine *e)
{
	struct offload *off = e->priv;

	if (off->inner.ops->close_files)
		off->inner.ops->close_files(&off->inner);
}

static const struct ioengine_ops offload_ops = {
	.init		= offload_init,
	.cleanup	= offload_cleanup,
	.open_files	= offload_open_files,
	.close_files	= offload_close_files,
	.queue		= offload_queue,
	.submit		= offload_submit,
	.getevents	= offload_getevents,
	.event		= offload_event,
};

int offload_attach(struct worker *w)
{
	unsigned n = w->job->iodepth;
	struct offload *off = calloc(1, sizeof(*off));

	if (!off)
		return -ENOMEM;
	off->n = n;
	off->slots = aligned_alloc(64, n * sizeof(*off->slots));
	off->pending = calloc(n, sizeof(*off->pending));
	off->ready = calloc(n, sizeof(*off->ready));
	off->events = calloc(n, sizeof(*off->events));
	if (!off->slots || !off->pending || !off->ready || !off->events) {
		free(off->slots);
		free(off->pending);
		free(off->ready);
		free(off->events);
		free(off);
		return -ENOMEM;
	}
	memset(off->slots, 0, n * sizeof(*off->slots));
	atomic_init(&off->done_top, NO_SLOT);
	off->inner.ops = w->ops;
	off->ops = offload_ops;
	off->ops.name = w->ops->name;
	off->ops.init_hint = w->ops->init_hint;
	off->ops.flags = w->ops->flags & ~(IOENG_SYNC | IOENG_INLINE_QD1);
	w->offload = off;
	w->ops = &off->ops;
	w->eng.priv = off;
	return 0;
}

void offload_detach(struct worker *w)
{
	struct offload *off = w->offload;

	if (!off)
		return;
	w->ops = off->inner.ops;
	w->eng.priv = NULL;
	free(off->slots);
	free(off->pending);
	free(off->ready);
	free(off->events);
	free(off);
	w->offload = NULL;
}
