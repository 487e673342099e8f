/*
 * verify_async: threads that check the verify reads, so that the job's own thread goes on
 * issuing I/O. The job's thread decides what each chunk should hold (it owns the
 * generations), copies the chunks into a free hand-over slot and queues it; a checking
 * thread takes it, checks it and gives the slot back. Bad chunks are counted under the
 * queue's lock; the job's thread reads the count only once the threads are joined.
 */
#include "engine/verify/verify.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/verify/verify_priv.h"
#include "engine/worker.h"

struct vq_slot {
	const struct io_file *file;
	uint64_t first;			/* offset of its first chunk */
	uint64_t io_off;		/* of the read it came from (verify_pattern's place) */
	uint64_t seq;			/* hand-overs before it: the order of the reads */
	uint32_t nchunks;
	uint8_t ex[VERIFY_ASYNC_CHUNKS];	/* enum chunk_expect */
	uint32_t gens[VERIFY_ASYNC_CHUNKS];
	unsigned char *buf;
};

struct verify_async {
	struct worker *w;
	pthread_mutex_t mu;
	pthread_cond_t work;		/* a slot was queued, or stop */
	pthread_cond_t space;		/* a slot was given back */
	struct vq_slot *slots;
	unsigned nslots;
	unsigned *free_ids, nfree;	/* a stack of free slots */
	unsigned *queue, qhead, qlen;	/* a ring of queued slots */
	uint64_t handed;		/* slots queued so far (the job's thread's) */
	bool stop;
	atomic_bool fatal;		/* verify_fatal and a bad chunk */
	bool fatal_seen;		/* the job's thread has acted on it */
	pthread_t *threads;
	unsigned nthreads;
};

static void check_slot(struct verify_async *a, struct vq_slot *s)
{
	struct worker *w = a->w;
	const struct verify *v = w->verify;
	char what[384];

	for (uint32_t i = 0; i < s->nchunks; i++) {
		uint64_t off = s->first + (uint64_t)i * v->interval;
		unsigned char *c = s->buf + (size_t)i * v->interval;

		if (!verify_examine(v, off, s->io_off, c, s->ex[i], s->gens[i], NULL, what,
				    sizeof(what)))
			continue;
		pthread_mutex_lock(&a->mu);
		verify_report_bad(w, s->file, off, s->io_off, c, what,
				  s->seq * VERIFY_ASYNC_CHUNKS + i);
		if (w->job->verify_fatal)
			atomic_store_explicit(&a->fatal, true, memory_order_release);
		pthread_mutex_unlock(&a->mu);
	}
}

static void *checker(void *arg)
{
	struct verify_async *a = arg;

	pthread_mutex_lock(&a->mu);
	for (;;) {
		unsigned id;

		while (!a->qlen && !a->stop)
			pthread_cond_wait(&a->work, &a->mu);
		if (!a->qlen)
			break;		/* stopped, and everything queued is checked */
		id = a->queue[a->qhead];
		a->qhead = (a->qhead + 1) % a->nslots;
		a->qlen--;
		pthread_mutex_unlock(&a->mu);
		check_slot(a, &a->slots[id]);
		pthread_mutex_lock(&a->mu);
		a->free_ids[a->nfree++] = id;
		pthread_cond_signal(&a->space);
	}
	pthread_mutex_unlock(&a->mu);
	return NULL;
}

static void free_async(struct verify_async *a)
{
	for (unsigned i = 0; a->slots && i < a->nslots; i++)
		free(a->slots[i].buf);
	free(a->slots);
	free(a->free_ids);
	free(a->queue);
	free(a->threads);
	pthread_cond_destroy(&a->space);
	pthread_cond_destroy(&a->work);
	pthread_mutex_destroy(&a->mu);
	free(a);
}

static int alloc_slots(struct verify_async *a, const struct job_desc *j, uint32_t interval)
{
	uint64_t per = (job_bs_max(j) + interval - 1) / interval;

	if (per > VERIFY_ASYNC_CHUNKS)
		per = VERIFY_ASYNC_CHUNKS;
	if (!per)
		per = 1;
	/* the job's requests in flight, and one being checked by each thread */
	a->nslots = j->iodepth + a->nthreads;
	a->slots = calloc(a->nslots, sizeof(*a->slots));
	a->free_ids = calloc(a->nslots, sizeof(*a->free_ids));
	a->queue = calloc(a->nslots, sizeof(*a->queue));
	a->threads = calloc(a->nthreads, sizeof(*a->threads));
	if (!a->slots || !a->free_ids || !a->queue || !a->threads)
		return -ENOMEM;
	for (unsigned i = 0; i < a->nslots; i++) {
		a->slots[i].buf = malloc(per * interval);
		if (!a->slots[i].buf)
			return -ENOMEM;
		a->free_ids[a->nfree++] = i;
	}
	return 0;
}

/* verify_async_cpus as a thread attribute; false when none is set (any CPU). */
static bool cpus_attr(const struct job_desc *j, pthread_attr_t *attr, cpu_set_t *set)
{
	bool any = false;

	CPU_ZERO(set);
	for (unsigned c = 0; c < 64 * JOB_CPU_WORDS && c < CPU_SETSIZE; c++) {
		if (j->verify_async_cpus[c / 64] >> (c % 64) & 1) {
			CPU_SET(c, set);
			any = true;
		}
	}
	return any && pthread_attr_setaffinity_np(attr, sizeof(*set), set) == 0;
}

int verify_async_start(struct worker *w)
{
	struct verify *v = w->verify;
	struct verify_async *a = calloc(1, sizeof(*a));
	pthread_attr_t attr;
	cpu_set_t set;
	bool pinned;
	int ret = -ENOMEM;

	if (!a)
		goto fail;
	a->w = w;
	a->nthreads = w->job->verify_async;
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->work, NULL);
	pthread_cond_init(&a->space, NULL);
	atomic_init(&a->fatal, false);
	ret = alloc_slots(a, w->job, v->interval);
	pthread_attr_init(&attr);
	pinned = cpus_attr(w->job, &attr, &set);
	for (unsigned i = 0; !ret && i < a->nthreads; i++) {
		ret = -pthread_create(&a->threads[i], pinned ? &attr : NULL, checker, a);
		if (ret) {
			a->nthreads = i;	/* stop those started */
			break;
		}
		pthread_setname_np(a->threads[i], "iojob-verify");
	}
	pthread_attr_destroy(&attr);
	v->async = a;
	if (!ret)
		return 0;
	verify_async_stop(w);
fail:
	if (!v->async)
		free(a);
	snprintf(w->error_msg, sizeof(w->error_msg), "job '%s': verify_async: cannot start the "
		 "checking threads: %s", w->job->name, strerror(-ret));
	return ret;
}

void verify_async_submit(struct worker *w, const struct io_file *f, uint64_t io_off,
			 uint64_t first, const unsigned char *buf, uint32_t len, const uint8_t *expect,
			 const uint32_t *gens)
{
	struct verify_async *a = w->verify->async;
	struct vq_slot *s;
	unsigned id;

	pthread_mutex_lock(&a->mu);
	while (!a->nfree)
		pthread_cond_wait(&a->space, &a->mu);
	id = a->free_ids[--a->nfree];
	pthread_mutex_unlock(&a->mu);
	/* the slot is ours until queued: fill it without the lock */
	s = &a->slots[id];
	s->file = f;
	s->first = first;
	s->io_off = io_off;
	s->seq = a->handed++;
	s->nchunks = len / w->verify->interval;
	memcpy(s->ex, expect, s->nchunks);
	memcpy(s->gens, gens, s->nchunks * sizeof(*gens));
	memcpy(s->buf, buf, len);
	pthread_mutex_lock(&a->mu);
	a->queue[(a->qhead + a->qlen++) % a->nslots] = id;
	pthread_cond_signal(&a->work);
	pthread_mutex_unlock(&a->mu);
}

void verify_async_stop(struct worker *w)
{
	struct verify_async *a = w->verify->async;

	if (!a)
		return;
	pthread_mutex_lock(&a->mu);
	a->stop = true;
	pthread_cond_broadcast(&a->work);
	pthread_mutex_unlock(&a->mu);
	for (unsigned i = 0; i < a->nthreads; i++)
		pthread_join(a->threads[i], NULL);
	w->verify->async = NULL;
	free_async(a);
}

bool verify_async_fatal(struct worker *w)
{
	struct verify_async *a = w->verify->async;

	if (a->fatal_seen || !atomic_load_explicit(&a->fatal, memory_order_acquire))
		return false;
	a->fatal_seen = true;
	return true;
}
