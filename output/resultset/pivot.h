/*
 * A metric laid out by two keys (iojob report's plain tables and the charts drawn from
 * them): rows are the values of one key, columns those of another (often "label"), one
 * pivot per combination of the other keys that vary (the job when there are several, a
 * swept key that is neither rows nor columns). Missing combinations hold NAN.
 */
#ifndef OUTPUT_RESULTSET_PIVOT_H
#define OUTPUT_RESULTSET_PIVOT_H

#include <stddef.h>

#include "output/resultset/metrics.h"

struct rs_sel;
struct rs_set;
struct table;

struct pivot {
	char title[512];	/* the keys that set this pivot apart: "job 'w', rw=rndwr" */
	const char **rowv;	/* row key values: numbers sorted, others as first met */
	size_t nrows;
	const char **colv;	/* column key values; one "" column without a column key */
	size_t ncols;
	double *v;		/* nrows * ncols: the mean over the repetitions (--repeat) */
	double *sd;		/* its spread: sigma over repetitions, else metric_spread(); NAN */
	unsigned *nrep;		/* nrows * ncols: how many repetitions the mean is of */
	const struct rs_unit **units;	/* the pivot's units, each at place[i] (row * ncols + col) */
	size_t *place, nunits;
	unsigned dups;		/* units that fell on an occupied place (the last one is kept) */
};

/* A unit's repetition of its cell (iojob --repeat N: 1 to N), 0 when it was run once. */
unsigned pivot_repeat(const struct rs_unit *u);

/*
 * The mean of metric m over the repetitions at one place of p (row * ncols + col), and in
 * *sd their sigma (one run: metric_spread()). NAN when the place is empty.
 */
double pivot_mean(const struct pivot *p, size_t place, const struct metric *m, double *sd);

/*
 * Lay out sel by rows and cols (cols NULL: one column) for metric m; the other keys that
 * vary are taken from s's swept keys, "label" and "job". Returns the count of pivots in
 * *out, or -ENOMEM. Strings point into sel.
 */
int pivot_build(const struct rs_set *s, const struct rs_sel *sel, const char *rows,
		const char *cols, const struct metric *m, struct pivot **out);
void pivot_free(struct pivot *p, size_t n);

/*
 * The pivot as a table: the row key's column, then one per column value; the corner names
 * both keys ("iodepth \\ numjobs": rows down, columns across) when there is a column key.
 */
int pivot_table(const struct pivot *p, const char *rows, const char *cols,
		const struct metric *m, struct table *t);

/* The indexes of p's units in the order of their places (rows, then columns). */
size_t pivot_place_order(const struct pivot *p, size_t *order);

/* usr, sys and all CPU (% of a CPU) of each run of the pivot, a row each. */
int pivot_cpu_table(const struct pivot *p, const char *rows, const char *cols,
		    struct table *t);

#endif
