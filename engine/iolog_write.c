/* write_iolog: the job's I/Os as fio's iolog version 3, a line each. */
#include "engine/iolog_write.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/worker.h"
#include "jobs/iolog.h"

#define LOG_BUFFER	(64 * 1024)

struct iolog_writer {
	FILE *f;
	uint64_t t0;		/* ticks: when the log was opened, its time 0 */
	uint64_t last_off;	/* fio writes a sync with the offset of the I/O before it */
	char *buf;
};

static uint64_t usec_now(const struct worker *w, uint64_t now)
{
	const struct iolog_writer *l = w->plan.rec;

	return now > l->t0 ? clock_to_ns(w->clk, now - l->t0) / NS_PER_USEC : 0;
}

static void file_lines(struct worker *w, const char *act)
{
	uint64_t t = usec_now(w, clock_ticks(w->clk));

	for (unsigned i = 0; i < w->nfiles; i++)
		fprintf(w->plan.rec->f, "%" PRIu64 " %s %s\n", t, w->files[i].path, act);
}

int iolog_write_start(struct worker *w)
{
	struct iolog_writer *l = calloc(1, sizeof(*l));
	const char *path = w->job->write_iolog;

	if (!l)
		return -ENOMEM;
	w->plan.rec = l;
	l->buf = malloc(LOG_BUFFER);
	l->f = fopen(path, "a");	/* fio appends, a version line for each job */
	if (!l->buf || !l->f) {
		int err = l->buf ? errno : ENOMEM;

		snprintf(w->error_msg, sizeof(w->error_msg), "job '%s': write_iolog '%s': %s",
			 w->job->name, path, strerror(err));
		return -err;
	}
	setvbuf(l->f, l->buf, _IOFBF, LOG_BUFFER);
	l->t0 = clock_ticks(w->clk);
	fprintf(l->f, "%s\n", IOLOG_V3_HEADER);
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
	fprintf(l->f, "%" PRIu64 " %s %s %" PRIu64 " %" PRIu32 "\n", usec_now(w, w->now),
		r->file->path, names[r->dir], off, r->dir < IO_NDIR ? r->full_len : r->len);
}

void iolog_write_end(struct worker *w)
{
	struct iolog_writer *l = w->plan.rec;
	int err;

	if (!l || !l->f)
		return;
	file_lines(w, "close");
	err = ferror(l->f) ? EIO : 0;
	if (fclose(l->f) && !err)
		err = errno;
	l->f = NULL;
	if (err)
		worker_fail(w, err, "write_iolog '%s': %s", w->job->write_iolog, strerror(err));
}

void iolog_write_free(struct worker *w)
{
	struct iolog_writer *l = w->plan.rec;

	if (!l)
		return;
	if (l->f)
		fclose(l->f);
	free(l->buf);
	free(l);
	w->plan.rec = NULL;
}
