/*
 * The PTS suite's tests and their runs as a result set keeps them. iojob pts writes one
 * result line per cell it runs, with these keys in the line's "cell":
 *   pts_test    iops, throughput or latency (pts_tests[])
 *   pts_step    purge, precondition or round
 *   pts_round   the round, from 1 (rounds only)
 *   bs, rwmixread   the cell of the test's matrix (rounds), or the preconditioning's bs
 *   pts_track   the tracked metric's name, in the cells that track the steady state
 *   pts_target, pts_target_bytes, pts_max_rounds   on the purge and preconditioning lines:
 *               device or file, its size, the rounds allowed
 * Everything the report says (the window, the tables, where the run departs from the
 * specification) is computed from those lines again, so iojob report shows what iojob
 * pts showed.
 */
#ifndef OUTPUT_RESULTSET_PTS_SET_H
#define OUTPUT_RESULTSET_PTS_SET_H

#include <stdbool.h>
#include <stddef.h>

#include "output/resultset/pts_window.h"

struct rs_sel;
struct rs_unit;
struct table;
struct pts_run;

/*
 * One test of the suite: its matrix by default, how its cells run and what it tracks.
 * Its report tables are made by tables (one or more, appended to *t, count *n).
 */
struct pts_test {
	const char *name;
	const char *help;
	bool seq;		/* sequential: mix 100 reads, 0 writes; else random, rwmixread */
	bool qd1;		/* one thread and one I/O in flight, whatever --iodepth says */
	const char *bs;		/* the default block sizes, in the round's order */
	const char *mixes;	/* the default read percentages, in the round's order */
	const char *track;	/* the tracked metric (metrics.h) */
	double track_div;	/* shown divided by this, */
	const char *track_unit;	/* in this unit */
	const char *track_bs;	/* the block size the specification tracks */
	int (*tables)(const struct pts_run *run, struct table **t, int *n);
};

/* In the order the suite runs them, ended by { NULL }. */
extern const struct pts_test pts_tests[];

const struct pts_test *pts_test_find(const char *name);

/* A cell of a test's matrix, and its units round by round (NULL where one is missing). */
struct pts_cell {
	const char *bs, *mix;
	bool tracked;
	const struct rs_unit **rounds;	/* nrounds of the run */
};

/* One label's run of one test, read back from a result set. */
struct pts_run {
	const char *label;
	const struct pts_test *test;
	const struct rs_unit *purge, *precondition;
	struct pts_cell *cells;		/* in the order the result set holds them */
	size_t ncells;
	unsigned nrounds;		/* the highest round recorded */
	double *tracked;		/* the tracked cell's metric per round (NAN: missing) */
	const struct pts_cell *track;	/* NULL when no cell is tracked */
	unsigned attained;		/* the round the window held at, 0 when it did not */
	struct pts_window window;	/* that window, or the last five rounds' */
};

/*
 * The PTS runs among the units of sel (other units are passed over), by label then test,
 * in the order first met. Returns the count, 0 when there is none, or -ENOMEM. Free with
 * pts_runs_free().
 */
int pts_runs(const struct rs_sel *sel, struct pts_run **out);
void pts_runs_free(struct pts_run *runs, size_t n);

/* The average of cell's metric over the rounds of the run's window; NAN when missing. */
double pts_window_average(const struct pts_run *run, const struct pts_cell *cell,
			  const char *metric);

/* The cell of the run with this bs and mix, or NULL. */
const struct pts_cell *pts_cell_find(const struct pts_run *run, const char *bs,
				     const char *mix);

/* A read percentage as the specification writes the mix: "65" -> "65/35". */
void pts_mix_name(const char *mix, char *buf, size_t len);

/* The value of key on the run's purge or preconditioning line (NULL when neither has it). */
const char *pts_run_fact(const struct pts_run *run, const char *key);

#endif
