/* latency_target's depth search: fio 3.33's state machine, and its place in the event loop. */
#include "engine/loop/lat_target.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "engine/loop/pace.h"
#include "engine/worker.h"

void lat_search_init(struct lat_search *s, unsigned iodepth, bool run)
{
	s->depth = 1;
	s->low = 1;
	s->high = iodepth;
	s->iodepth = iodepth;
	s->stable = 0;
	s->run = run;
	s->final = false;
}

enum lat_step lat_search_pass(struct lat_search *s)
{
	unsigned was = s->depth;

	s->low = s->depth;
	/*
	 * Passing just under the lowest failure bisects to the same depth again and again:
	 * after three such passes in a row the failure is tried again, one higher.
	 */
	if (s->depth + 1 == s->high && ++s->stable >= 3) {
		s->high++;
		s->stable = 0;
	}
	/* Nothing failed yet (high is still iodepth): double. */
	if (s->high != s->iodepth)
		s->depth = (s->depth + s->high) / 2;
	else
		s->depth *= 2;
	if (s->depth > s->iodepth)
		s->depth = s->iodepth;
	if (s->run || s->depth != was)
		return LAT_NEXT;
	if (s->final)
		return LAT_DONE;
	s->final = true;
	return LAT_FINAL;
}

enum lat_step lat_search_fail(struct lat_search *s)
{
	if (s->depth == 1)
		return LAT_FLOOR;
	s->high = s->depth;
	if (s->depth == s->low)
		s->low--;
	s->depth = (s->depth + s->low) / 2;
	s->stable = 0;
	return LAT_DRAIN;
}

enum lat_step lat_search_window(struct lat_search *s, uint64_t ios, uint64_t over, double pct)
{
	/* fio's arithmetic, so that a share on the boundary falls the same way */
	double ok = ios ? (double)(ios - over) / (double)ios * 100.0 : 0.0;

	if (ios && ok >= pct)
		return lat_search_pass(s);
	return lat_search_fail(s);
}

/* The worker's side: the window under way, and what follows a drain. */
struct lat_target {
	struct lat_search s;
	uint64_t window_ticks;		/* latency_window */
	uint64_t t_next;		/* the window's end; 0 while draining, UINT64_MAX off */
	uint64_t ios_at;		/* I/Os completed when the window began */
	uint64_t over;			/* of those since, above the target (percentile < 100) */
	enum lat_step after;		/* draining for LAT_DRAIN or LAT_FINAL; else LAT_NEXT */
	bool on;			/* measuring: ramp_time is over and the search goes on */
};

static uint64_t completed(const struct worker *w)
{
	uint64_t n = 0;

	for (int d = 0; d < IO_NDIR; d++)
		n += w->st->dir[d].ios;
	return n;
}

int lat_target_init(struct worker *w)
{
	const struct job_desc *j = w->job;
	struct lat_target *l;

	w->lat = NULL;
	if (!j->lat_target_ns)
		return 0;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->window_ticks = clock_from_ns(w->clk, j->lat_window_ns);
	lat_search_init(&l->s, j->iodepth, j->lat_run);
	l->t_next = UINT64_MAX;		/* ramp_time runs at depth 1 and compares nothing */
	l->after = LAT_NEXT;
	w->lat = l;
	w->q.limit = 1;
	return 0;
}

void lat_target_free(struct worker *w)
{
	free(w->lat);
	w->lat = NULL;
}

static void new_window(struct worker *w)
{
	struct lat_target *l = w->lat;

	l->after = LAT_NEXT;
	w->q.limit = l->s.depth;
	l->ios_at = completed(w);
	l->over = 0;
	l->t_next = w->now + l->window_ticks;
}

/* No new I/O until what is in flight has completed: the next window sees the new depth. */
static void drain(struct worker *w, enum lat_step step)
{
	struct lat_target *l = w->lat;

	w->q.limit = 0;
	if (l->after != LAT_FINAL)
		l->after = step;
	l->t_next = 0;
	pace_update(w);
}

void lat_target_start(struct worker *w)
{
	struct lat_target *l = w->lat;

	lat_search_init(&l->s, w->job->iodepth, w->job->lat_run);
	l->on = true;
	new_window(w);
}

void lat_target_slow(struct worker *w, const struct io_req *r, uint64_t lat, unsigned n)
{
	const struct job_desc *j = w->job;
	struct lat_target *l = w->lat;

	/* As in fio: reads and writes, in the measured phase, where lat is measured at all. */
	if (!l || !l->on || r->dir == IO_TRIM || lat <= j->lat_target_ns || !j->stats ||
	    j->disable_lat)
		return;
	if (j->lat_percentile < 100.0) {
		l->over += n;
		return;
	}
	/* Each I/O over the target is a failure, those reaped together too, as in fio. */
	for (; n; n--) {
		if (lat_search_fail(&l->s) == LAT_FLOOR) {
			worker_fail(w, ETIMEDOUT, "latency_target: %s '%s' at offset %" PRIu64
				    ", length %u took %" PRIu64 " ns, above the %" PRIu64 " ns "
				    "target at depth 1", r->dir == IO_READ ? "read" : "write",
				    r->file->path, r->off, r->len, lat, j->lat_target_ns);
			l->on = false;
			return;
		}
		drain(w, LAT_DRAIN);
	}
}

uint64_t lat_target_deadline(const struct worker *w)
{
	return w->lat->t_next;
}

void lat_target_tick(struct worker *w)
{
	struct lat_target *l = w->lat;
	const struct req_queue *q = &w->q;
	uint64_t done = completed(w);

	if (!l->on) {
		l->t_next = UINT64_MAX;
		return;
	}
	if (l->after != LAT_NEXT) {
		if (req_queue_busy(q) || q->nretry || q->waiting)
			return;
		if (l->after == LAT_FINAL)
			pace_restart(w);
		new_window(w);
		return;
	}
	/* Like fio, nothing is compared before the first I/O (since the start) completed. */
	if (!done)
		return;
	switch (lat_search_window(&l->s, done - l->ios_at, l->over, w->job->lat_percentile)) {
	case LAT_NEXT:
		new_window(w);
		break;
	case LAT_DRAIN:
		drain(w, LAT_DRAIN);
		break;
	case LAT_FINAL:
		drain(w, LAT_FINAL);
		break;
	case LAT_DONE:
		l->on = false;
		l->t_next = UINT64_MAX;
		w->issuing = false;
		break;
	case LAT_FLOOR:
		break;	/* as fio: the window goes on growing, compared at every tick */
	}
}

unsigned lat_target_depth(const struct worker *w)
{
	return w->lat ? w->lat->s.depth : w->job->iodepth;
}
