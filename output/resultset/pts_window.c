/* The SNIA PTS steady-state window criteria over rounds of a tracked variable. */
#include "output/resultset/pts_window.h"

#include <math.h>

/* Least squares over x = first .. last: the slope and intercept of the fitted line. */
static void fit(const double *v, unsigned first, unsigned last, double avg, double *slope,
		double *intercept)
{
	double xbar = (first + last) / 2.0, sxy = 0, sxx = 0;

	for (unsigned x = first; x <= last; x++) {
		sxy += (x - xbar) * (v[x - 1] - avg);
		sxx += (x - xbar) * (x - xbar);
	}
	*slope = sxx > 0 ? sxy / sxx : 0;
	*intercept = avg - *slope * xbar;
}

void pts_window_eval(const double *v, unsigned first, unsigned last, struct pts_window *w)
{
	unsigned n = last - first + 1;
	double sum = 0;

	*w = (struct pts_window){ .first = first, .last = last, .min = INFINITY,
				  .max = -INFINITY };
	for (unsigned x = first; x <= last; x++) {
		sum += v[x - 1];
		w->min = fmin(w->min, v[x - 1]);
		w->max = fmax(w->max, v[x - 1]);
	}
	w->avg = sum / n;
	fit(v, first, last, w->avg, &w->slope, &w->intercept);
	/* a round that did nothing (avg 0) or a value missing (NAN) is never steady */
	if (!(w->avg > 0) || isnan(sum)) {
		w->range_frac = w->slope_frac = NAN;
		return;
	}
	w->range_frac = (w->max - w->min) / w->avg;
	w->slope_frac = fabs(w->slope) * (last - first) / w->avg;
	w->steady = n == PTS_WINDOW_ROUNDS && w->range_frac <= PTS_RANGE_LIMIT &&
		    w->slope_frac <= PTS_SLOPE_LIMIT;
}

unsigned pts_window_find(const double *v, unsigned n, struct pts_window *w)
{
	for (unsigned last = PTS_WINDOW_ROUNDS; last <= n; last++) {
		pts_window_eval(v, last - PTS_WINDOW_ROUNDS + 1, last, w);
		if (w->steady)
			return last;
	}
	if (n)
		pts_window_eval(v, n > PTS_WINDOW_ROUNDS ? n - PTS_WINDOW_ROUNDS + 1 : 1, n, w);
	else
		*w = (struct pts_window){ 0 };
	return 0;
}
