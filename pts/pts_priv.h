/* What the files of pts/ share: the suite's plan, read from the command line, and its run. */
#ifndef PTS_PTS_PRIV_H
#define PTS_PTS_PRIV_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "jobs/jobs.h"
#include "output/resultset/pts_set.h"

struct diag;
struct run;

#define PTS_CMD		"pts"
#define PTS_MAX_SETS	64
#define PTS_MAX_TESTS	8

/* One test as this run does it: its matrix, from the options or the defaults. */
struct pts_test_plan {
	const struct pts_test *test;
	char **bs, **mixes;		/* value_split() lists */
	int nbs, nmixes;
	int track_bs, track_mix;	/* the tracked cell's indexes */
};

struct pts_plan {
	const char *target;
	bool is_file;
	uint64_t target_bytes;		/* the whole target */
	uint64_t used_bytes;		/* what the tests use: the capacity fraction of it */
	const char *dir;		/* --results DIR */
	char results[4096];		/* DIR/results.jsonl */
	const char *label;
	const char *round_time;		/* each cell's runtime, as a job file writes it */
	unsigned max_rounds, iodepth, threads;
	bool purge;
	const char *ioengine;		/* the default engine, under --set */
	struct job_override sets[PTS_MAX_SETS];	/* --set, then --round-set's value */
	unsigned nsets;
	const char *round_key;		/* --round-set KEY=V1,V2,...: round N takes VN */
	char **round_values;
	int nround_values;
	struct pts_test_plan tests[PTS_MAX_TESTS];
	unsigned ntests;
	struct engine_info engines[64];
	unsigned nengines;
};

/* Where a cell is in the suite: what its result line's "cell" says (pts_set.h). */
struct pts_cell_id {
	const struct pts_test_plan *tp;
	const char *step;		/* "purge", "precondition", "round" */
	unsigned round;			/* from 1; 0 outside the rounds */
	int bs, mix;			/* indexes into tp's lists; -1 outside the rounds */
};

/* The run of the suite: set by a signal, which stops the cell running and the suite. */
struct pts_state {
	volatile sig_atomic_t stopped_by;
	struct run *volatile running;
};

/*
 * Parse the command line into p. Returns EXIT_GO_ON to go on, or an exit status (0 after
 * --help).
 */
int pts_parse(struct pts_plan *p, int argc, char **argv);
void pts_plan_free(struct pts_plan *p);

/*
 * The job text of a cell (purge, preconditioning, or a round's cell) into buf. Returns 0,
 * or -ENOSPC when it does not fit.
 */
int pts_job_text(const struct pts_plan *p, const struct pts_cell_id *id, char *buf, size_t len);

/*
 * Build a cell's jobs (--set and --round-set on top of its text) without running them, and
 * check its files and devices. Returns 0, or -errno with d saying why.
 */
int pts_cell_check(const struct pts_plan *p, const struct pts_cell_id *id, struct diag *d);

/*
 * Run one cell through the job runner and append its result line. Returns 0, 1 when a job
 * failed (its line is kept, and d says why), 2 when the cell could not start (d says why),
 * or 128+N when a signal stopped it (nothing kept).
 */
int pts_cell_run(const struct pts_plan *p, const struct pts_cell_id *id,
		 struct pts_state *st, struct diag *d);

/* Every test of the plan: purge, preconditioning, rounds. Returns the exit status. */
int pts_suite_run(const struct pts_plan *p, struct pts_state *st);

/* The report of this label from the result set: stdout, DIR/LABEL-report.txt, .html, SVGs. */
int pts_write_report(const struct pts_plan *p);

#endif
