/* log_compression's thread: full log chunks in, zlib streams appended to their logs out. */
#include "engine/logs_gz.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The chunks one log handed over, oldest first; the log's context for joblog_full_fn. */
struct gz_queue {
	struct logs_gz *g;
	struct joblog *log;
	struct joblog_chunk *head, *tail;
};

struct logs_gz {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool stop;
	int err;
	unsigned flags, n;
	struct gz_queue q[LOGS_GZ_MAX];
};

/* Compress c into its log and free it; only this thread appends to the logs' streams. */
static void compress_chunk(struct logs_gz *g, struct gz_queue *q, struct joblog_chunk *c)
{
	struct joblog_z *z = joblog_deflate(c, g->flags);

	if (z)
		joblog_add_z(q->log, z);
	else
		g->err = -ENOMEM;
	free(c);
}

/* The oldest chunk any log handed over, taken off its queue; NULL when none. */
static struct joblog_chunk *take(struct logs_gz *g, struct gz_queue **from)
{
	for (unsigned i = 0; i < g->n; i++) {
		struct joblog_chunk *c = g->q[i].head;

		if (!c)
			continue;
		g->q[i].head = c->next;
		if (!c->next)
			g->q[i].tail = NULL;
		*from = &g->q[i];
		return c;
	}
	return NULL;
}

static void *gz_thread(void *arg)
{
	struct logs_gz *g = arg;
	struct joblog_chunk *c;
	struct gz_queue *q;

	pthread_mutex_lock(&g->lock);
	for (;;) {
		c = take(g, &q);
		if (!c && g->stop)
			break;
		if (!c) {
			pthread_cond_wait(&g->wake, &g->lock);
			continue;
		}
		pthread_mutex_unlock(&g->lock);
		compress_chunk(g, q, c);
		pthread_mutex_lock(&g->lock);
	}
	pthread_mutex_unlock(&g->lock);
	return NULL;
}

/* joblog_full_fn: queue the chunk and wake the thread (a lock once per chunk, not per I/O). */
static void hand_over(struct joblog *l, struct joblog_chunk *c, void *ctx)
{
	struct gz_queue *q = ctx;

	(void)l;
	c->next = NULL;
	pthread_mutex_lock(&q->g->lock);
	if (q->tail)
		q->tail->next = c;
	else
		q->head = c;
	q->tail = c;
	pthread_cond_signal(&q->g->wake);
	pthread_mutex_unlock(&q->g->lock);
}

static int start_thread(struct logs_gz *g, const struct job_cpus *cpus)
{
	pthread_attr_t attr;
	cpu_set_t set;
	int ret;

	ret = pthread_attr_init(&attr);
	if (ret)
		return -ret;
	if (cpus && cpus->set) {
		CPU_ZERO(&set);
		for (unsigned i = 0; i < JOB_CPUS_MAX && i < CPU_SETSIZE; i++)
			if (cpus->mask[i / 64] >> (i % 64) & 1)
				CPU_SET(i, &set);
		ret = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	}
	if (!ret)
		ret = pthread_create(&g->thread, &attr, gz_thread, g);
	pthread_attr_destroy(&attr);
	if (!ret)
		pthread_setname_np(g->thread, "iojob-logz");	/* a name ps and tests can find */
	return -ret;
}

int logs_gz_start(struct logs_gz **out, struct joblog *const *logs, unsigned n,
		  unsigned flags, const struct job_cpus *cpus)
{
	struct logs_gz *g;
	int ret;

	*out = NULL;
	if (n > LOGS_GZ_MAX)
		return -EINVAL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->wake, NULL);
	g->flags = flags;
	g->n = n;
	for (unsigned i = 0; i < n; i++) {
		g->q[i].g = g;
		g->q[i].log = logs[i];
	}
	ret = start_thread(g, cpus);
	if (ret < 0) {
		pthread_cond_destroy(&g->wake);
		pthread_mutex_destroy(&g->lock);
		free(g);
		return ret;
	}
	for (unsigned i = 0; i < n; i++) {
		logs[i]->full = hand_over;
		logs[i]->full_ctx = &g->q[i];
	}
	*out = g;
	return 0;
}

int logs_gz_stop(struct logs_gz *g)
{
	int err;

	if (!g)
		return 0;
	pthread_mutex_lock(&g->lock);
	g->stop = true;
	pthread_cond_signal(&g->wake);
	pthread_mutex_unlock(&g->lock);
	pthread_join(g->thread, NULL);
	/* the chunk each log was filling, compressed last, after the ones before it */
	for (unsigned i = 0; i < g->n; i++) {
		struct joblog *l = g->q[i].log;
		struct joblog_chunk *c = l->first, *next;

		l->full = NULL;
		l->first = l->last = NULL;
		for (; c; c = next) {
			next = c->next;
			if (c->n)
				compress_chunk(g, &g->q[i], c);
			else
				free(c);	/* nothing logged: no stream, as fio */
		}
	}
	err = g->err;
	pthread_cond_destroy(&g->wake);
	pthread_mutex_destroy(&g->lock);
	free(g);
	return err;
}
