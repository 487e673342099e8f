/* iojob compare's chart (--svg): one metric of the runs the sides have in common, as bars. */
#ifndef OUTPUT_RESULTSET_CHARTS_COMPARE_H
#define OUTPUT_RESULTSET_CHARTS_COMPARE_H

#include <stdio.h>

struct cmp_side;
struct metric;

/*
 * Bars of metric m: for each run that two sides or more have, a bar per side, named by
 * its swept values (and the job, when there are several); title and subtitle, when not
 * NULL, in place of the chart's own. Returns 0, -ENOMEM or -EIO.
 */
int chart_compare(FILE *f, const struct cmp_side *sides, unsigned nsides,
		  const struct metric *m, const char *title, const char *subtitle);

#endif
