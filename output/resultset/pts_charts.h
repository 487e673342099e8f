/*
 * The PTS suite's plots, drawn with svg_chart.h from a run read back from a result set
 * (pts_set.h): the steady-state convergence (the tracked metric round by round, a line per
 * block size at the tracked mix) and the measurement window (the tracked variable over
 * the window's rounds with its average, 110% and 90% of it, and the least-squares line).
 */
#ifndef OUTPUT_RESULTSET_PTS_CHARTS_H
#define OUTPUT_RESULTSET_PTS_CHARTS_H

#include <stdio.h>

struct pts_run;

enum pts_chart { PTS_CONVERGENCE, PTS_WINDOW, PTS_NCHARTS };

/* The name of a chart as its file says it: "convergence", "window". */
extern const char *const pts_chart_names[PTS_NCHARTS];

/* Write one chart of the run as an <svg> element. Returns 0, -ENOMEM or -EIO. */
int pts_chart_write(FILE *f, const struct pts_run *run, enum pts_chart kind);

#endif
