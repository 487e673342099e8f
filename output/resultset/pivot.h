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
	double *v;		/* nrows * ncols */
	unsigned dups;		/* units that fell on an occupied place (the last one is kept) */
};

/*
 * Lay out sel by rows and cols (cols NULL: one column) for metric m; the other keys that
 * vary are taken from s's swept keys, "label" and "job". Returns the count of pivots in
 * *out, or -ENOMEM. Strings point into sel.
 */
int pivot_build(const struct rs_set *s, const struct rs_sel *sel, const char *rows,
		const char *cols, const struct metric *m, struct pivot **out);
void pivot_free(struct pivot *p, size_t n);

/* The pivot as a table: the row key's column, then one per column value. */
int pivot_table(const struct pivot *p, const char *rows, const struct metric *m,
		struct table *t);

#endif
