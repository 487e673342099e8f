/*
 * Sweeps (--sweep KEY=V1,V2,...): the cartesian product of the swept values, one cell per
 * combination, each a list of overrides applied on top of --set. The first axis given
 * varies slowest, as nested shell loops in that order would.
 */
#ifndef JOBS_SWEEP_H
#define JOBS_SWEEP_H

#include "jobs/jobs.h"

struct diag;

struct sweep_axis {
	char *key;
	char **values;
	unsigned nvalues;
};

struct sweep {
	struct sweep_axis *axes;
	unsigned naxes;
	size_t axes_cap;
};

/* Add an axis from "KEY=V1,V2,..."; returns 0, or -EINVAL with d saying what is wrong. */
int sweep_add(struct sweep *s, const char *spec, struct diag *d);

/* How many cells: the product of the axes' lengths (1 without axes). */
unsigned long sweep_ncells(const struct sweep *s);

/* The overrides of cell idx (0 .. ncells-1): one per axis, into out[naxes]. */
void sweep_cell(const struct sweep *s, unsigned long idx, struct job_override *out);

void sweep_free(struct sweep *s);

#endif
