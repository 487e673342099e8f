/*
 * The cells of a run: one per combination of --sweep values (one without --sweep), each
 * the jobs of the job files with --set and its values on top. Every cell is built and
 * checked before the first runs; they then run in order, and with --resume a cell that
 * the result set holds already is skipped.
 */
#ifndef ENGINE_RUN_CELLS_H
#define ENGINE_RUN_CELLS_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "jobs/jobs.h"

struct diag;
struct dist;
struct resultset_meta;
struct sweep;

/* The overrides of a cell at most: --set's, then one per --sweep axis. */
#define CELL_MAX_OVERRIDES	512

/* "xxh3:" and 16 hex digits. */
#define CELL_JOBS_KEY_LEN	24

struct cells {
	struct job_input in;		/* what every cell's jobs are built from, but .sets */
	const struct job_override *sets;	/* --set */
	unsigned nsets;
	const struct sweep *sweep;
	const struct dist *dist;
	const char *results;		/* --results FILE.jsonl, NULL for none */
	bool resume;			/* skip the cells that results holds already */
	unsigned repeat;		/* --repeat N: runs of each cell, 0 or 1 for one */
	const char *label;		/* what each cell's results say: --label, the job files */
	const char *const *files;
	unsigned nfiles;
	FILE *err;			/* where --resume says what it skips (stderr) */
	const volatile sig_atomic_t *stopped_by;	/* set by a signal: no other cell starts */
	/* runs one cell's jobs and reports them; returns its exit code */
	int (*run_cell)(void *ctx, struct job_list *jobs, struct diag *d);
	void *run_ctx;
	/* the cell running: --set, then its --sweep values */
	struct job_override cell[CELL_MAX_OVERRIDES];
	unsigned ncell;
	unsigned long cell_idx, ncells;
	unsigned rep_idx;		/* the repetition running, from 0 */
	/* its jobs, as --resume tells cells apart: see cells_jobs_key() */
	char jobs_key[CELL_JOBS_KEY_LEN];
};

/*
 * Check every cell before running any, so a bad value in the last cell of a long sweep
 * stops it before it starts. Returns 0, or -errno with d saying which cell and why; d's
 * notes are then every cell's, each note once however many cells repeat it.
 */
int cells_check(struct cells *cs, struct diag *d);

/*
 * Run the cells in order by cs->run_cell until a signal on any rank, and return the worst
 * of their exit codes, or a negative errno when a cell's jobs cannot be built (d says why).
 */
int cells_run(struct cells *cs, struct diag *d);

/*
 * The cell running as result-set metadata, with its repetition (1 to N under --repeat N,
 * N > 1; else 0); keys and values hold cs->ncell entries.
 */
void cells_meta(const struct cells *cs, const char **keys, const char **values,
		struct resultset_meta *m);

#endif
