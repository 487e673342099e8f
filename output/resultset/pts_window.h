/*
 * The SNIA PTS steady-state window, computed on rounds: the measurement window is five
 * consecutive rounds; it holds when the tracked variable's range (max - min) is within
 * 20% of the window's average and the excursion of its least-squares line over the window
 * (|slope| * (rounds - 1)) within 10% of that average. A low-level calculation: numbers
 * in, numbers out; it reads no result set.
 */
#ifndef OUTPUT_RESULTSET_PTS_WINDOW_H
#define OUTPUT_RESULTSET_PTS_WINDOW_H

#include <stdbool.h>

#define PTS_WINDOW_ROUNDS	5
#define PTS_RANGE_LIMIT		0.20	/* of the average: the data excursion */
#define PTS_SLOPE_LIMIT		0.10	/* of the average: the slope excursion */
#define PTS_MAX_ROUNDS		25	/* the specification's limit */

struct pts_window {
	unsigned first, last;		/* its rounds, numbered from 1 */
	double avg, min, max;		/* of the tracked variable over the window */
	double slope, intercept;	/* least squares: y = slope * round + intercept */
	double range_frac;		/* (max - min) / avg */
	double slope_frac;		/* |slope| * (last - first) / avg */
	bool steady;			/* both within their limits (and avg > 0) */
};

/*
 * The window of the rounds first .. last of v (v[0] is round 1), last - first + 1 of them
 * (PTS_WINDOW_ROUNDS for the criteria; fewer when fewer rounds ran: never steady then).
 */
void pts_window_eval(const double *v, unsigned first, unsigned last, struct pts_window *w);

/*
 * The first round of v[0 .. n) at which the five rounds ending there hold: returns it, w
 * its window; or 0 when none does, w then the last five rounds (all when fewer ran).
 */
unsigned pts_window_find(const double *v, unsigned n, struct pts_window *w);

#endif
