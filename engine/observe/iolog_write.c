/*
 * write_iolog: the job's I/Os as fio's iolog version 3, a line each. Lines are gathered in
 * a buffer and written whole with O_APPEND, so that jobs sharing the file (numjobs, where
 * fio warns the lines may mix) interleave whole lines, never parts of them.
 */
#include "engine/observe/iolog_write.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/devices/path_guard.h"
#include "engine/worker.h"
#include "base/diag.h"
#include "jobs/iolog.h"

#define LOG_BUFFER	(64 * 1024)
#define LINE_MAX_BYTES	(4096 + 128)	/* a path and the numbers: written out before */

struct iolog_writer {
	int fd;
	int err;		/* the first write that failed, as errno */
	uint64_t t0;		/* ticks: when the log was opened, its time 0 */
	uint64_t last_off;	/* fio writes a sync with the offset of the I/O before it */
	size_t len;
	char buf[LOG_BUFFER];
};

static void flush(struct iolog_writer *l)
{
	size_t done = 0;

	while (done < l->len && !l->err) {
		ssize_t n = write(l->fd, l->buf + done, l->len - done);

		if (n < 0 && errno != EINTR)
			l->err = errno;
		else if (n > 0)
			done += (size_t)n;
	}
	l->len = 0;
}

static void add_line(struct iolog_writer *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_line(struct iolog_writer *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (l->len > LOG_BUFFER - LINE_MAX_BYTES)
		flush(l);
	va_start(ap, fmt);
	n = vsnprintf(l->buf + l->len, LOG_BUFFER - l->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->len += (size_t)n < LOG_BUFFER - l->len ? (size_t)n : LOG_BUFFER - l->len - 1;
}

static uint64_t usec_now(const struct worker *w, uint64_t now)
{
	const struct iolog_writer *l = w->plan.rec;

	return now > l->t0 ? clock_to_ns(w->clk, now - l->t0) / NS_PER_USEC : 0;
}

static void file_lines(struct worker *w, const char *act)
{
	uint64_t t = usec_now(w, clock_ticks(w->clk));

	for (unsigned i = 0; i < w->nfiles; i++)
		add_line(w->plan.rec, "%" PRIu64 " %s %s\n", t, w->files[i].path, act);
}

int iolog_write_start(struct worker *w)
{
	struct iolog_writer *l = malloc(sizeof(*l));
	const char *path = w->job->write_iolog;
	char why[512];

	if (!l)
		return -ENOMEM;
	memset(l, 0, offsetof(struct iolog_writer, buf));
	w->plan.rec = l;
	/* fio appends, a version line for each job */
	l->fd = path_open(path, O_WRONLY | O_CREAT | O_APPEND, 0644, why, sizeof(why));
	if (l->fd < 0) {
		diag_format(w->error_msg, sizeof(w->error_msg), "job '%s': write_iolog '%s': %s",
			    w->job->name, path, why);
		return l->fd;
	}
	l->t0 = clock_ticks(w->clk);
	add_line(l, "%s\n", IOLOG_V3_HEADER);
	file_lines(w, "add");
	file_lines(w, "open");
	return 0;
}

void iolog_write_io(struct worker *w, const struct io_req *r)
{
	static const char *const names[] = { "read", "write", "trim", "sync", "datasync",
					     "sync_file_range" };
	struct iolog_writer *l = w->plan.rec;
	uint64_t off = r->dir < IO_NDIR ? r->off : l->last_off;

	if (r->dir < IO_NDIR)
		l->last_off = r->off;
	add_line(l, "%" PRIu64 " %s %s %" PRIu64 " %" PRIu32 "\n", usec_now(w, w->now),
		 r->file->path, names[r->dir], off, r->dir < IO_NDIR ? r->full_len : r->len);
}

void iolog_write_end(struct worker *w)
{
	struct iolog_writer *l = w->plan.rec;

	if (!l || l->fd < 0)
		return;
	file_lines(w, "close");
	flush(l);
	if (close(l->fd) < 0 && !l->err)
		l->err = errno;
	l->fd = -1;
	if (l->err)
		worker_fail(w, l->err, "write_iolog '%s': %s", w->job->write_iolog,
			    strerror(l->err));
}

void iolog_write_free(struct worker *w)
{
	struct iolog_writer *l = w->plan.rec;

	if (!l)
		return;
	if (l->fd >= 0)
		close(l->fd);
	free(l);
	w->plan.rec = NULL;
}
