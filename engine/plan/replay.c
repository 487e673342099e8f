/* The replay of a log: its entries issued in order, at the times the log gives them. */
#include "engine/plan/replay.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/plan/files.h"
#include "engine/worker.h"
#include "engine/verify/verify.h"
#include "base/diag.h"
#include "jobs/replay_log.h"

#define SLICE_NS	(10 * NS_PER_MSEC)	/* longest sleep between looks at the deadlines */

struct replay {
	const struct replay_log *log;
	const struct replay_entry *entries;	/* the log's, or buf's when chunked */
	size_t n, next;
	bool timed;			/* the log's delays are kept (no replay_no_stall) */
	uint64_t t_last;		/* ticks: when the last entry was issued; 0: none yet */
	bool chunked, at_end;
	struct replay_entry *buf;	/* chunked: REPLAY_CHUNK entries */
	struct replay_stream stream;	/* chunked: the log read again */
};

/* read_iolog_chunked: the next chunk of entries into buf; false at the end or on error. */
static bool refill(struct worker *w, struct replay *rp)
{
	char why[512];
	size_t n = 0;
	int ret = 1;

	while (n < REPLAY_CHUNK && (ret = replay_stream_next(&rp->stream, &rp->buf[n], why,
							     sizeof(why))) > 0)
		n++;
	if (ret < 0)	/* the log changed since it was checked */
		worker_fail(w, -ret, "read_iolog '%s', %s %u: %s", rp->log->path,
			    rp->log->blktrace ? "record" : "line", rp->stream.where, why);
	rp->at_end = ret <= 0;
	rp->n = n;
	rp->next = 0;
	return n > 0;
}

/* The entry to issue next, or NULL at the end of the log; reopens are done on the way. */
static const struct replay_entry *peek(struct worker *w, struct replay *rp)
{
	const struct replay_entry *e;

	for (;;) {
		if (rp->next == rp->n && (!rp->chunked || rp->at_end || !refill(w, rp)))
			return NULL;
		e = &rp->entries[rp->next];
		if (e->act != REPLAY_REOPEN)
			return e;
		/* fio closes the file and opens it again: its cached pages are dropped */
		files_invalidate(w->job, &w->files[e->file]);
		rp->next++;
	}
}

int replay_start(struct worker *w)
{
	const struct job_desc *j = w->job;
	struct replay *rp = calloc(1, sizeof(*rp));
	char why[512];
	int ret;

	if (!rp)
		return -ENOMEM;
	w->plan.replay = rp;
	rp->log = j->replay;
	rp->timed = !j->replay_no_stall;
	rp->chunked = !rp->log->entries;
	rp->entries = rp->log->entries;
	rp->n = rp->log->nentries;
	if (!rp->chunked)
		return 0;
	rp->buf = malloc(REPLAY_CHUNK * sizeof(*rp->buf));
	if (!rp->buf)
		return -ENOMEM;
	rp->entries = rp->buf;
	ret = replay_stream_open(&rp->stream, j, (struct replay_log *)rp->log, rp->log->path,
				 false, why, sizeof(why));
	if (ret < 0)
		diag_format(w->error_msg, sizeof(w->error_msg), "job '%s': read_iolog: %s",
			    j->name, why);
	return ret;
}

bool replay_io(struct worker *w, struct io_req *r)
{
	struct replay *rp = w->plan.replay;
	const struct replay_entry *e = peek(w, rp);

	if (!e)
		return false;
	rp->next++;
	rp->t_last = w->now;
	r->file = &w->files[e->file];
	r->buf = r->buf_base;
	r->resubmit = false;
	if (e->act >= REPLAY_FSYNC) {
		/* counted as plan_sync() counts fsync='s and fdatasync='s syncs */
		r->dir = e->act == REPLAY_FSYNC ? IO_FSYNC : IO_FDATASYNC;
		r->off = 0;
		r->len = r->full_len = 0;
		w->st->sync_ios++;
		if (r->dir == IO_FSYNC)
			w->st->fsync_ios++;
		return true;
	}
	r->dir = e->act;
	r->off = r->file->io_off + e->off;
	r->len = r->full_len = e->len;
	w->plan.bytes_left -= w->plan.bytes_left >= e->len ? e->len : w->plan.bytes_left;
	w->st->issued[e->act]++;
	pace_count_issue(&w->pace, e->act, e->len);
	if (e->act == IO_WRITE && w->verify)
		verify_prepare_write(w, r);
	else if (e->act == IO_WRITE)
		plan_prepare_write(w, r);
	return true;
}

bool replay_next_write(struct worker *w, unsigned *fi, uint64_t *off, uint32_t *len)
{
	struct replay *rp = w->plan.replay;
	const struct replay_entry *e;

	while ((e = peek(w, rp))) {
		rp->next++;
		if (e->act != IO_WRITE)
			continue;
		*fi = e->file;
		*off = w->files[e->file].io_off + e->off;
		*len = (uint32_t)e->len;
		return true;
	}
	return false;
}

bool replay_held_back(struct worker *w)
{
	struct replay *rp = w->plan.replay;
	const struct replay_entry *e;
	uint64_t due;

	if (!rp || !rp->timed || !rp->t_last || !(e = peek(w, rp)) || !e->delay_us)
		return false;
	due = rp->t_last + clock_from_ns(w->clk, e->delay_us * NS_PER_USEC);
	w->now = clock_ticks(w->clk);
	while (w->now < due) {
		uint64_t ns = clock_to_ns(w->clk, due - w->now);

		pace_sleep(w, ns < SLICE_NS ? ns : SLICE_NS);
		if (pace_due(&w->pace, w->now))
			pace_tick(w);
		if (!w->issuing)
			return true;	/* stopped, or out of runtime */
	}
	return false;
}

void replay_free(struct worker *w)
{
	struct replay *rp = w->plan.replay;

	if (!rp)
		return;
	if (rp->chunked)
		replay_stream_close(&rp->stream);
	free(rp->buf);
	free(rp);
	w->plan.replay = NULL;
}
