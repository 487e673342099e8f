/*
 * fio 3.33's steady-state arithmetic, written afresh from what it computes: a ring of
 * samples whose head is the oldest, a full window judged at every sample, the slope's
 * sums kept up to date as the window slides (x counts from 0 at the oldest sample).
 */
#include "engine/observe/steady_window.h"

#include <errno.h>
#include <stdlib.h>

#include "jobs/job.h"

int ss_window_init(struct ss_window *w, unsigned flags, double limit, unsigned dur)
{
	*w = (struct ss_window){ .flags = flags, .limit = limit, .dur = dur };
	w->iops = calloc(dur, sizeof(*w->iops));
	w->bw = calloc(dur, sizeof(*w->bw));
	w->lat = calloc(dur, sizeof(*w->lat));
	if (!w->iops || !w->bw || !w->lat) {
		ss_window_free(w);
		return -ENOMEM;
	}
	w->sum_x = (uint64_t)dur * (dur - 1) / 2;
	w->sum_x_sq = (uint64_t)(dur - 1) * dur * (2 * dur - 1) / 6;
	return 0;
}

void ss_window_free(struct ss_window *w)
{
	free(w->iops);
	free(w->bw);
	free(w->lat);
	w->iops = w->bw = w->lat = NULL;
}

static const uint64_t *measured(const struct ss_window *w)
{
	return (w->flags & SS_IOPS) ? w->iops : (w->flags & SS_LAT) ? w->lat : w->bw;
}

/* Least squares over equally spaced x: fio's sums, its divisions as it does them. */
static bool judge_slope(struct ss_window *w, uint64_t y)
{
	const uint64_t *v = measured(w);
	double c;

	if (!w->full) {
		/* the window just filled: the ring starts at 0, the sums from scratch */
		w->sum_y = 0;
		for (unsigned i = 0; i < w->dur; i++) {
			w->sum_y += v[i];
			w->sum_xy += i * v[(w->head + i) % w->dur];
		}
		w->full = true;
	} else {
		/* every sample moves one place down: the oldest leaves, y comes in at dur - 1 */
		w->sum_y = w->sum_y - w->oldest_y + y;
		w->sum_xy = w->sum_xy - w->sum_y + w->dur * y;
	}
	w->oldest_y = v[w->head];
	w->slope = ((double)w->sum_xy - (double)w->sum_x * (double)w->sum_y / w->dur) /
		   ((double)w->sum_x_sq - (double)w->sum_x * (double)w->sum_x / w->dur);
	/* fio divides by the mean in whole units: sum_y / dur in integers */
	w->criterion = (w->flags & SS_PCT) ? 100.0 * w->slope / (double)(w->sum_y / w->dur) :
					     w->slope;
	c = w->criterion < 0.0 ? -w->criterion : w->criterion;
	return c < w->limit;
}

/* The largest distance of a sample from the window's mean. */
static bool judge_deviation(struct ss_window *w)
{
	const uint64_t *v = measured(w);
	double mean;

	if (!w->full) {
		w->sum_y = 0;
		for (unsigned i = 0; i < w->dur; i++)
			w->sum_y += v[i];
		w->full = true;
	} else {
		w->sum_y = w->sum_y - w->oldest_y + v[w->tail];
	}
	w->oldest_y = v[w->head];
	mean = (double)w->sum_y / w->dur;
	w->deviation = 0.0;
	for (unsigned i = 0; i < w->dur; i++) {
		double diff = (double)v[i] - mean;

		if (diff < 0.0)
			diff = -diff;
		if (diff > w->deviation)
			w->deviation = diff;
	}
	w->criterion = (w->flags & SS_PCT) ? 100.0 * w->deviation / mean : w->deviation;
	return w->criterion < w->limit;
}

bool ss_window_add(struct ss_window *w, uint64_t iops, uint64_t bw, uint64_t lat)
{
	w->iops[w->tail] = iops;
	w->bw[w->tail] = bw;
	w->lat[w->tail] = lat;
	if (w->full || w->tail - w->head == w->dur - 1) {
		bool steady = (w->flags & SS_SLOPE) ?
			      judge_slope(w, measured(w)[w->tail]) : judge_deviation(w);

		if (steady)
			return true;	/* the window stays as judged, head its oldest */
	}
	w->tail = (w->tail + 1) % w->dur;
	if (w->tail <= w->head)
		w->head = (w->head + 1) % w->dur;
	return false;
}

void ss_window_ordered(const struct ss_window *w, bool attained, uint64_t *iops, uint64_t *bw,
		       uint64_t *lat)
{
	/* a full window that went on has slid: its oldest sample is just before head */
	unsigned from = attained || !w->full ? w->head :
			(w->head == 0 ? w->dur - 1 : w->head - 1);

	for (unsigned i = 0; i < w->dur; i++) {
		iops[i] = w->iops[(from + i) % w->dur];
		bw[i] = w->bw[(from + i) % w->dur];
		lat[i] = w->lat[(from + i) % w->dur];
	}
}
