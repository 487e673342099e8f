/*
 * fio's steady-state criteria over a rolling window of samples (one per
 * steadystate_check_interval, a second by default): the largest
 * deviation of a sample from the window's mean, or the least-squares slope of the
 * samples, against a limit given as a value or as a percentage of the mean. Pure
 * arithmetic, with fio 3.33's integer steps kept, so that the same samples give fio's
 * figures. Private to engine/: steady.c feeds it.
 */
#ifndef ENGINE_OBSERVE_STEADY_WINDOW_H
#define ENGINE_OBSERVE_STEADY_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

struct ss_window {
	unsigned flags;			/* jobs/job.h's enum ss_flag */
	double limit;
	unsigned dur;			/* samples in the window */
	uint64_t *iops, *bw, *lat;	/* a ring of dur samples each, from head to tail */
	unsigned head, tail;
	bool full;			/* dur samples were taken: the criterion is judged */
	double slope, deviation, criterion;	/* the last judgement's, 0 before the first */
	/* the slope's running sums: x is the sample's place in the window, y its value */
	uint64_t sum_x, sum_x_sq, sum_y, sum_xy, oldest_y;
};

/* A window of dur samples judged by flags against limit. Returns 0 or -ENOMEM. */
int ss_window_init(struct ss_window *w, unsigned flags, double limit, unsigned dur);
void ss_window_free(struct ss_window *w);

/*
 * Add an interval's IOPS, bandwidth (bytes/s) and mean completion latency (ns). Once the
 * window is full, judge it: true when the criterion is below the limit (steady state
 * attained; take no more samples).
 */
bool ss_window_add(struct ss_window *w, uint64_t iops, uint64_t bw, uint64_t lat);

/*
 * The window's samples oldest first, as fio reports them: all dur of them, a window not
 * yet full ending in zeros. attained: the last ss_window_add() returned true.
 */
void ss_window_ordered(const struct ss_window *w, bool attained, uint64_t *iops, uint64_t *bw,
		       uint64_t *lat);

#endif
