/* The PTS suite's steady-state convergence and measurement-window plots. */
#include "output/resultset/pts_charts.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/resultset/chart_workload.h"
#include "output/resultset/metrics.h"
#include "output/resultset/pts_set.h"
#include "output/resultset/svg_chart.h"

#define MAX_SERIES	64

const char *const pts_chart_names[PTS_NCHARTS] = { "convergence", "window" };

/* A line per block size at the tracked mix: the tracked metric, round by round. */
static int convergence(FILE *f, const struct pts_run *run, const char *title,
		       const char *sub, const char *ylabel)
{
	struct svg_series s[MAX_SERIES];
	double *x = calloc(run->nrounds + 1, sizeof(*x));
	double *y = calloc((run->nrounds + 1) * MAX_SERIES, sizeof(*y));
	char names[MAX_SERIES][48];
	struct metric m;
	size_t ns = 0;
	int ret = -ENOMEM;

	if (!x || !y || metric_parse(run->test->track, &m) < 0)
		goto out;
	for (unsigned r = 0; r < run->nrounds; r++)
		x[r] = r + 1;
	for (size_t k = 0; k < run->ncells && ns < MAX_SERIES; k++) {
		const struct pts_cell *c = &run->cells[k];
		double *yc = y + ns * (run->nrounds + 1);

		if (strcmp(c->mix, run->track->mix))
			continue;
		for (unsigned r = 0; r < run->nrounds; r++)
			yc[r] = c->rounds[r] ? metric_value(&m, c->rounds[r]) / run->test->track_div
					     : NAN;
		snprintf(names[ns], sizeof(names[ns]), "bs=%s%s", c->bs, c->tracked ? " (tracked)"
										       : "");
		s[ns] = (struct svg_series){ names[ns], x, yc, run->nrounds };
		ns++;
	}
	ret = svg_chart_write(f, &(struct svg_chart){
		.title = title, .subtitle = sub, .x_label = "round", .y_label = ylabel,
		.x_scale = SVG_LINEAR, .y_scale = SVG_LINEAR, .series = s, .nseries = ns });
out:
	free(x);
	free(y);
	return ret;
}

/* The window's rounds: the tracked variable, its average, 110% and 90%, the fitted line. */
static int window(FILE *f, const struct pts_run *run, const char *title, const char *sub,
		  const char *ylabel)
{
	const struct pts_window *w = &run->window;
	static const char *const names[] = {
		"tracked", "average", "110% of average", "90% of average", "least-squares fit",
	};
	double x[PTS_WINDOW_ROUNDS], y[5][PTS_WINDOW_ROUNDS], div = run->test->track_div;
	struct svg_series s[5];
	unsigned n = w->last - w->first + 1;

	if (n > PTS_WINDOW_ROUNDS)
		return -ENOMEM;	/* cannot be: a window is at most five rounds */
	for (unsigned i = 0; i < n; i++) {
		unsigned r = w->first + i;

		x[i] = r;
		y[0][i] = run->tracked[r - 1] / div;
		y[1][i] = w->avg / div;
		y[2][i] = 1.1 * w->avg / div;
		y[3][i] = 0.9 * w->avg / div;
		y[4][i] = (w->slope * r + w->intercept) / div;
	}
	for (unsigned k = 0; k < 5; k++)
		s[k] = (struct svg_series){ names[k], x, y[k], n };
	return svg_chart_write(f, &(struct svg_chart){
		.title = title, .subtitle = sub, .x_label = "round", .y_label = ylabel,
		.x_scale = SVG_LINEAR, .y_scale = SVG_LINEAR, .series = s, .nseries = 5 });
}

/* What the run's rounds measured (chart_workload()): every cell's units. */
static void run_workload(const struct pts_run *run, char *buf, size_t len)
{
	const struct rs_unit **u = malloc((run->ncells * run->nrounds + 1) * sizeof(*u));
	size_t n = 0;

	buf[0] = '\0';
	if (!u)
		return;
	for (size_t k = 0; k < run->ncells; k++)
		for (unsigned r = 0; r < run->nrounds; r++)
			if (run->cells[k].rounds[r])
				u[n++] = run->cells[k].rounds[r];
	chart_workload(u, n, buf, len);
	free(u);
}

int pts_chart_write(FILE *f, const struct pts_run *run, enum pts_chart kind)
{
	char title[384], ylabel[128], sub[1024];

	if (!run->track || !run->window.first)
		return -ENOENT;
	run_workload(run, sub, sizeof(sub));
	snprintf(ylabel, sizeof(ylabel), "%s (%s)", run->test->track, run->test->track_unit);
	if (kind == PTS_CONVERGENCE) {
		snprintf(title, sizeof(title), "%s: %s test, steady-state convergence",
			 run->label, run->test->name);
		return convergence(f, run, title, sub, ylabel);
	}
	snprintf(title, sizeof(title), "%s: %s test, measurement window, rounds %u-%u%s",
		 run->label, run->test->name, run->window.first, run->window.last,
		 run->attained ? "" : " (steady state not attained)");
	return window(f, run, title, sub, ylabel);
}
