/*
 * io_submit_mode=offload: the I/Os run on a pool of threads, one per request slot, so that
 * the job's thread issues them at its own pace (rate, thinktime) while iodepth of them are
 * in flight, and is not held up by a slow device: fio's answer to coordinated omission.
 * As in fio, each thread has its own instance of the job's engine and does one I/O at a
 * time through it (an asynchronous engine's queue, submit and wait for one). The loop
 * sees an asynchronous engine: queue() takes the request, submit() hands each to the
 * thread of its slot, getevents() collects what the threads finished. The job's thread
 * still times and accounts every I/O.
 *
 * Nothing is allocated or locked per I/O: a slot's state word hands its request over
 * (futex wait and wake), and finished slots go onto a stack that the job's thread takes
 * whole at each reap, so that no two threads ever pop it.
 */
#include "engine/loop/offload.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "engine/worker.h"

#define THREAD_STACK	(256 << 10)	/* a thread only calls its engine's hooks */
#define NO_SLOT		UINT_MAX
#define RETRY_NS	(100 * 1000)	/* the engine took nothing: try again after this */
#define RETRIES		100000		/* 10 s of that, and the I/O fails with EAGAIN */

enum slot_state { SLOT_IDLE, SLOT_GO, SLOT_QUIT };

struct offload_slot {
	atomic_uint state;		/* enum slot_state; the futex word its thread waits on */
	unsigned next;			/* the slot under it on the done stack */
	struct io_req *req;		/* the loop's request */
	struct io_req shadow;		/* what the thread's engine sees of it: request 0 */
	struct ioengine eng;		/* the thread's instance of the job's engine */
	bool up;			/* its init() and open_files() succeeded */
	pthread_t thread;
	bool started;
	struct offload *off;
} __attribute__((aligned(64)));	/* cache lines apart: each thread writes its own */

struct offload {
	struct ioengine_ops ops;	/* what the loop calls: this file */
	const struct ioengine_ops *inner;	/* the job's engine */
	unsigned n;			/* slots, threads: the job's iodepth */
	struct offload_slot *slots;
	struct io_req **pending;	/* queued, not yet handed to their threads */
	unsigned npending;
	atomic_uint done_top;		/* the done stack's top slot, NO_SLOT when empty */
	atomic_uint done_seq;		/* bumped per finished I/O: the job's futex word */
	atomic_bool reaper_waits;
	atomic_uint nstarted;		/* threads whose engine is up, or failed to come up */
	atomic_int start_err;		/* the first failure, -errno */
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

static void pause_retry(void)
{
	struct timespec ts = { 0, RETRY_NS };

	nanosleep(&ts, NULL);
}

/*
 * What an engine reads of a request, copied field by field: the loop goes on writing the
 * others (its submission stamp) while the thread runs the I/O.
 */
static void shadow_of(struct io_req *to, const struct io_req *r)
{
	to->file = r->file;
	to->buf = r->buf;
	to->off = r->off;
	to->len = r->len;
	to->full_len = r->full_len;
	to->dir = r->dir;
	to->buf_slot = r->buf_slot;
	to->buf_base = r->buf_base;
	to->ioprio = r->ioprio;
	to->prio_idx = r->prio_idx;
	to->slot = 0;
}

/* One I/O through the thread's engine, to its end; its result in the loop's request. */
static void run_one(struct offload_slot *s)
{
	const struct ioengine_ops *ops = s->eng.ops;
	struct io_req *r = &s->shadow;
	int n = 0, tries = 0;

	shadow_of(r, s->req);
	if (ops->queue(&s->eng, r) != IOQ_DONE) {
		/* nothing else is in flight on this engine: it has room, and submits this one */
		while ((n = ops->submit(&s->eng)) == 0 && ++tries < RETRIES)
			pause_retry();
		while (n > 0 && (n = ops->getevents(&s->eng, 1, 1)) == 0)
			;
		if (n > 0)
			ops->event(&s->eng, 0);	/* the only one in flight: r, its res set */
		else
			r->res = n < 0 ? n : -EAGAIN;
	}
	s->req->res = r->res;
}

/*
 * The thread's engine comes up on the thread that uses it (an io_uring ring may take
 * submissions from its creator only) and goes down there; the job's thread waits for all.
 */
static bool engine_up(struct offload_slot *s)
{
	const struct ioengine_ops *ops = s->eng.ops;
	struct offload *off = s->off;
	int ret = ops->init ? ops->init(&s->eng) : 0, none = 0;

	if (!ret && ops->open_files && (ret = ops->open_files(&s->eng)) < 0 && ops->cleanup)
		ops->cleanup(&s->eng);
	s->up = ret == 0;
	if (ret)
		atomic_compare_exchange_strong(&off->start_err, &none, ret);
	atomic_fetch_add(&off->nstarted, 1);
	futex_wake(&off->nstarted, 1);
	return s->up;
}

static void engine_down(struct offload_slot *s)
{
	const struct ioengine_ops *ops = s->eng.ops;

	if (ops->close_files)
		ops->close_files(&s->eng);
	if (ops->cleanup)
		ops->cleanup(&s->eng);
	s->up = false;
}

/* Each slot's thread: run the request it is handed, put the slot on the done stack. */
static void *slot_thread(void *arg)
{
	struct offload_slot *s = arg;
	struct offload *off = s->off;
	unsigned self = (unsigned)(s - off->slots), top;

	if (!engine_up(s))
		return NULL;
	for (;;) {
		unsigned st = atomic_load_explicit(&s->state, memory_order_acquire);

		if (st == SLOT_QUIT) {
			engine_down(s);
			return NULL;
		}
		if (st == SLOT_IDLE) {
			futex_wait(&s->state, SLOT_IDLE);
			continue;
		}
		run_one(s);
		st = SLOT_GO;	/* back to idle, unless told to quit meanwhile */
		atomic_compare_exchange_strong_explicit(&s->state, &st, SLOT_IDLE,
							memory_order_relaxed, memory_order_relaxed);
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
	unsigned started = 0, seen;
	int ret = 0;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, THREAD_STACK);
	for (unsigned i = 0; !ret && i < off->n; i++) {
		off->slots[i].off = off;
		ret = -pthread_create(&off->slots[i].thread, &attr, slot_thread, &off->slots[i]);
		off->slots[i].started = ret == 0;
		started += off->slots[i].started;
	}
	pthread_attr_destroy(&attr);
	while ((seen = atomic_load(&off->nstarted)) < started)
		futex_wait(&off->nstarted, seen);
	return ret ? ret : atomic_load(&off->start_err);
}

/*
 * Each thread's engine sees what the loop set up (files, buffers) and one request, its
 * shadow: it holds one I/O at a time. The threads bring their engines up, files and all.
 */
static int offload_init(struct ioengine *e)
{
	struct offload *off = e->priv;

	for (unsigned i = 0; i < off->n; i++) {
		struct offload_slot *s = &off->slots[i];

		s->eng = *e;
		s->eng.ops = off->inner;
		s->eng.priv = NULL;
		s->eng.reqs = &s->shadow;
		s->eng.nreqs = 1;
		shadow_of(&s->shadow, &e->reqs[i]);
	}
	return start_threads(off);
}

/* The threads take their engines down as they stop. */
static void offload_cleanup(struct ioengine *e)
{
	stop_threads(e->priv);
}

static const struct ioengine_ops offload_ops = {
	.init		= offload_init,
	.cleanup	= offload_cleanup,
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
	off->inner = w->ops;
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
	w->ops = off->inner;
	w->eng.priv = NULL;
	free(off->slots);
	free(off->pending);
	free(off->ready);
	free(off->events);
	free(off);
	w->offload = NULL;
}
