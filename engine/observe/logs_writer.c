/* A job's log writer: full chunks in, appended to each log's file by a thread of its own. */
#include "engine/observe/logs_writer.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/devices/path_guard.h"

/*
 * Chunks one log may have waiting before the I/O thread waits for the writer: enough to
 * ride out a slow write, few enough that memory stays a handful of chunks per log.
 */
#define QUEUE_MAX	4
/* The same for a histogram log, in records (15 KiB each) */
#define HIST_QUEUE_MAX	64

struct log_sink {
	struct logs_writer *w;
	struct log_sink_desc d;
	FILE *f;			/* NULL until the first chunk is written */
	int err;			/* the first failure; every chunk after it is lost */
	uint64_t lost;			/* entries not written */
	struct joblog_chunk *head, *tail;
	struct histlog_rec *rhead, *rtail;	/* a histogram log's records */
	unsigned queued;			/* chunks, or records */
};

struct logs_writer {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake, room;
	bool running, stop;
	unsigned flags, n;
	bool deflated;
	struct job_cpus cpus;
	struct log_sink s[LOGS_WRITER_MAX + 1];	/* the sample logs, then the histogram's */
};

/* An unnamed file beside path (on the file system the log goes to), read back at the end. */
static FILE *open_spill(const char *path)
{
	char dir[PATH_MAX], tmpl[PATH_MAX + 16];
	FILE *f;
	int fd;

	snprintf(dir, sizeof(dir), "%s", path);
	snprintf(tmpl, sizeof(tmpl), "%s", dirname(dir));
	fd = open(tmpl, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {	/* a file system without O_TMPFILE: a named one, unlinked at once */
		snprintf(tmpl + strlen(tmpl), sizeof(tmpl) - strlen(tmpl), "/.iojob-logXXXXXX");
		fd = mkostemp(tmpl, O_CLOEXEC);
		if (fd >= 0)
			unlink(tmpl);
	}
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w+");
	if (!f)
		close(fd);
	return f;
}

/* The log's own file, or its spill file, opened on first use. */
static void open_file(struct log_sink *s)
{
	char why[512];

	s->f = s->d.own_file ? path_fopen(s->d.path, "w", why, sizeof(why)) :
	       open_spill(s->d.path);
	if (!s->f)
		s->err = -errno;
}

/* Write c to s's file and free it. Called with the lock not held. */
static void write_chunk(struct log_sink *s, struct joblog_chunk *c)
{
	int ret;

	if (s->d.discard) {
		free(c);
		return;
	}
	if (!s->err && !s->f)
		open_file(s);
	if (!s->err) {
		ret = joblog_put_chunk(s->f, c, s->w->flags, s->w->deflated);
		if (ret < 0)
			s->err = ret;
	}
	if (s->err)
		s->lost += c->n;
	free(c);
}

/* Write a histogram log's records r.. to its file, and free them. Lock not held. */
static void write_records(struct log_sink *s, struct histlog_rec *r)
{
	struct histlog batch = { .first = r, .coarseness = s->d.hist->coarseness };
	uint64_t n = 0;

	if (!s->err && !s->f)
		open_file(s);
	errno = 0;
	if (!s->err && histlog_write(s->f, &batch) < 0)
		s->err = errno ? -errno : -EIO;
	for (; s->err && r; r = r->next)
		n++;
	s->lost += n;
	histlog_free(&batch);
}

/* A log with something handed over, the first in order; NULL when none. */
static struct log_sink *busy(struct logs_writer *w)
{
	for (unsigned i = 0; i < w->n; i++)
		if (w->s[i].head || w->s[i].rhead)
			return &w->s[i];
	return NULL;
}

/* Write what s has waiting: its oldest chunk, or every record. Called with the lock held. */
static void write_some(struct logs_writer *w, struct log_sink *s)
{
	struct joblog_chunk *c = s->head;
	struct histlog_rec *r = s->rhead;
	unsigned done = 1;

	if (c) {
		s->head = c->next;
		if (!c->next)
			s->tail = NULL;
	} else {
		s->rhead = s->rtail = NULL;
		done = s->queued;
	}
	pthread_mutex_unlock(&w->lock);
	if (c)
		write_chunk(s, c);
	else
		write_records(s, r);
	pthread_mutex_lock(&w->lock);
	s->queued -= done;	/* counted until written, so that memory is what the queue says */
	pthread_cond_broadcast(&w->room);
}

static void *writer_thread(void *arg)
{
	struct logs_writer *w = arg;
	struct log_sink *s;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		s = busy(w);
		if (!s && w->stop)
			break;
		if (s)
			write_some(w, s);
		else
			pthread_cond_wait(&w->wake, &w->lock);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

static int start_thread(struct logs_writer *w)
{
	pthread_attr_t attr;
	cpu_set_t set;
	int ret;

	ret = pthread_attr_init(&attr);
	if (ret)
		return -ret;
	if (w->cpus.set) {
		CPU_ZERO(&set);
		for (unsigned i = 0; i < JOB_CPUS_MAX && i < CPU_SETSIZE; i++)
			if (w->cpus.mask[i / 64] >> (i % 64) & 1)
				CPU_SET(i, &set);
		ret = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	}
	if (!ret)
		ret = pthread_create(&w->thread, &attr, writer_thread, w);
	pthread_attr_destroy(&attr);
	if (ret)
		return -ret;
	pthread_setname_np(w->thread, "iojob-logw");	/* a name ps and tests can find */
	w->running = true;
	return 0;
}

/*
 * joblog_full_fn, on the I/O thread: queue the chunk for the writer, started with the first
 * one. A lock once per chunk, not per I/O; a wait only when the writer is QUEUE_MAX behind.
 */
static void hand_over(struct joblog *l, struct joblog_chunk *c, void *ctx)
{
	struct log_sink *s = ctx;
	struct logs_writer *w = s->w;

	(void)l;
	c->next = NULL;
	pthread_mutex_lock(&w->lock);
	if (!w->running && start_thread(w) < 0) {
		pthread_mutex_unlock(&w->lock);
		write_chunk(s, c);	/* no thread: written here, late rather than lost */
		return;
	}
	while (s->queued >= QUEUE_MAX)
		pthread_cond_wait(&w->room, &w->lock);
	if (s->tail)
		s->tail->next = c;
	else
		s->head = c;
	s->tail = c;
	s->queued++;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
}

void logs_writer_hand_records(struct logs_writer *w, struct histlog *h)
{
	struct log_sink *s = &w->s[w->n - 1];
	unsigned n = 0;

	for (struct histlog_rec *r = h->first; r; r = r->next)
		n++;
	if (!n || s->d.hist != h)
		return;	/* nothing to write, or not the log set up last: kept for the end */
	pthread_mutex_lock(&w->lock);
	if (!w->running && start_thread(w) < 0) {
		pthread_mutex_unlock(&w->lock);
		write_records(s, h->first);	/* no thread: written here, late rather than lost */
		h->first = h->last = NULL;
		return;
	}
	while (s->queued >= HIST_QUEUE_MAX)
		pthread_cond_wait(&w->room, &w->lock);
	if (s->rtail)
		s->rtail->next = h->first;
	else
		s->rhead = h->first;
	s->rtail = h->last;
	s->queued += n;
	h->first = h->last = NULL;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
}

int logs_writer_new(struct logs_writer **out, const struct log_sink_desc *sinks, unsigned n,
		    unsigned flags, bool deflated, const struct job_cpus *cpus)
{
	struct logs_writer *w;

	*out = NULL;
	if (n > LOGS_WRITER_MAX + 1)
		return -EINVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->wake, NULL);
	pthread_cond_init(&w->room, NULL);
	w->flags = flags;
	w->deflated = deflated;
	w->n = n;
	if (cpus)
		w->cpus = *cpus;
	for (unsigned i = 0; i < n; i++) {
		w->s[i].w = w;
		w->s[i].d = sinks[i];
		if (sinks[i].log) {
			sinks[i].log->full = hand_over;
			sinks[i].log->full_ctx = &w->s[i];
		}
	}
	*out = w;
	return 0;
}

void logs_writer_drain(struct logs_writer *w)
{
	bool running;

	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	running = w->running;
	w->stop = true;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	if (running)
		pthread_join(w->thread, NULL);
	/* the thread has ended: no lock needed to make it startable again */
	w->running = false;
	w->stop = false;
}

void logs_writer_reset(struct logs_writer *w)
{
	if (!w)
		return;
	logs_writer_drain(w);
	for (unsigned i = 0; i < w->n; i++) {
		struct log_sink *s = &w->s[i];

		s->err = 0;
		s->lost = 0;
		if (!s->f)
			continue;
		fflush(s->f);
		if (ftruncate(fileno(s->f), 0) < 0)
			s->err = -errno;
		rewind(s->f);
	}
}

FILE *logs_writer_take_file(struct logs_writer *w, unsigned i, bool *own_file)
{
	FILE *f = w && i < w->n ? w->s[i].f : NULL;

	*own_file = w && i < w->n && w->s[i].d.own_file;
	if (f)
		w->s[i].f = NULL;
	return f;
}

int logs_writer_error(const struct logs_writer *w, unsigned i, uint64_t *lost_entries)
{
	*lost_entries = w && i < w->n ? w->s[i].lost : 0;
	return w && i < w->n ? w->s[i].err : 0;
}

void logs_writer_free(struct logs_writer *w)
{
	if (!w)
		return;
	logs_writer_drain(w);
	for (unsigned i = 0; i < w->n; i++) {
		struct joblog *l = w->s[i].d.log;

		if (l && l->full_ctx == &w->s[i]) {
			l->full = NULL;
			l->full_ctx = NULL;
		}
		if (w->s[i].f)
			fclose(w->s[i].f);
	}
	pthread_cond_destroy(&w->room);
	pthread_cond_destroy(&w->wake);
	pthread_mutex_destroy(&w->lock);
	free(w);
}
