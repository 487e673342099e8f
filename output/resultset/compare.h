/*
 * iojob compare: the same jobs measured on two or more sides (result files, or labels),
 * metric by metric, with "how many times better" ratios that know which way each metric
 * improves: seed 003's "read ~45x, write ~2x", with run times divided the right way round.
 */
#ifndef OUTPUT_RESULTSET_COMPARE_H
#define OUTPUT_RESULTSET_COMPARE_H

#include <stddef.h>

#include "output/resultset/metrics.h"

struct cmp_key;
struct rs_unit;
struct table;

#define CMP_MAX_SIDES	16

struct cmp_side {
	const char *name;		/* its column head: a label or a file's name */
	const struct rs_unit **units;	/* the side's units (it does not own them) */
	size_t n;
	struct cmp_key *keys;		/* compare_index(): the units by run, NULL before */
};

/*
 * Index the side's units by run (job, pass and swept values), once its units are set, so
 * that finding a run costs a binary search: 10,000 cells compare in n log n, not n^2.
 * Every function below needs its sides indexed. Returns 0 or -ENOMEM.
 */
int compare_index(struct cmp_side *s);
void compare_index_free(struct cmp_side *s);

/*
 * How many times the best of v[0..n) is better than the worst, given the metric's
 * direction: max / min both ways, which one is best differing. NAN values are left out.
 * Returns the index of the best value; -1 when there is none: fewer than two values, all
 * equal, or a metric with no better side (then *ratio is still max / min, or NAN with
 * fewer than two values). A worst value of 0 makes the ratio infinite.
 */
int compare_ratio(enum metric_better b, const double *v, unsigned n, double *ratio);

/* A ratio as printed: "45.4x", "2.32x", "123x", "inf"; "" for NAN. */
void compare_ratio_str(double ratio, char *buf, size_t len);

/*
 * Every run (job and swept values) of the sides, one unit of it each, in the order the
 * tables show them; returns how many (at most max).
 */
size_t compare_runs(const struct cmp_side *sides, unsigned nsides, const struct rs_unit **reps,
		    size_t max);

/* The side's unit of the run rep is one of (the last one); NULL when it has none. */
const struct rs_unit *compare_find(const struct cmp_side *s, const struct rs_unit *rep);

/* How many runs (job and swept values) at least two of the sides have. */
size_t compare_common(const struct cmp_side *sides, unsigned nsides);

/*
 * A table per job (and cell, when the sides hold several), rows per direction and metric:
 * metric | side... | ratio | better. Metrics named without a direction are shown for each
 * direction that any side did; util and cpu once. Returns the count or -ENOMEM.
 */
int compare_tables(const struct cmp_side *sides, unsigned nsides, const struct metric *m,
		   unsigned nm, struct table **out);

#endif
