/*
 * The suite's order: every cell checked first, then for each test the purge, the
 * workload-independent preconditioning and the rounds, each round's tracked variable read
 * back from the result set after the round (so the run stops where the report, computing
 * from the same lines, finds the window).
 */
#include "pts/pts_priv.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/diag.h"
#include "base/exit_code.h"
#include "output/resultset/resultset_read.h"
#include "output/resultset_write.h"

static int say_fail(int ret, const struct diag *d)
{
	if (d->msg[0])
		fprintf(stderr, "iojob pts: %s\n", d->msg);
	return ret;
}

/* Every job the suite will run, built and its target checked before any of them runs. */
static int check_all(const struct pts_plan *p)
{
	unsigned rounds = p->nround_values > 1 ? (unsigned)p->nround_values : 1;

	for (unsigned t = 0; t < p->ntests; t++) {
		const struct pts_test_plan *tp = &p->tests[t];
		struct pts_cell_id id = { tp, "purge", 0, -1, -1 };
		struct diag d = { 0 };

		if (p->purge && pts_cell_check(p, &id, &d) < 0)
			return say_fail(EXIT_USAGE, &d);
		id.step = "precondition";
		if (pts_cell_check(p, &id, &d) < 0)
			return say_fail(EXIT_USAGE, &d);
		id.step = "round";
		for (id.round = 1; id.round <= rounds; id.round++)
			for (id.mix = 0; id.mix < tp->nmixes; id.mix++)
				for (id.bs = 0; id.bs < tp->nbs; id.bs++)
					if (pts_cell_check(p, &id, &d) < 0)
						return say_fail(EXIT_USAGE, &d);
	}
	return 0;
}

/* The test's run as the result set holds it now: the tracked value and the window. */
static int read_back(const struct pts_plan *p, const struct pts_test *t, double *last,
		     struct pts_window *w, unsigned *attained)
{
	char label[512], test[64];
	const char *where[] = { label, test };
	struct rs_set set = { 0 };
	struct rs_sel sel = { 0 };
	struct pts_run *runs = NULL;
	struct diag d = { 0 };
	int n = 0, ret;

	snprintf(label, sizeof(label), "label=%s", p->label);
	snprintf(test, sizeof(test), "pts_test=%s", t->name);
	ret = rs_load(&set, p->results, &d);
	if (!ret)
		ret = rs_select(&set, NULL, where, 2, &sel) < 0 ? -ENOMEM : 0;
	if (!ret)
		ret = n = pts_runs(&sel, &runs);
	if (n > 0) {
		*last = runs[0].nrounds ? runs[0].tracked[runs[0].nrounds - 1] : 0;
		*w = runs[0].window;
		*attained = runs[0].attained;
	}
	if (ret < 0)
		fprintf(stderr, "iojob pts: reading '%s' back: %s\n", p->results,
			d.msg[0] ? d.msg : strerror(-ret));
	pts_runs_free(runs, n > 0 ? (size_t)n : 0);
	rs_sel_free(&sel);
	rs_free(&set);
	return ret < 0 ? 1 : n > 0 ? 0 : 1;
}

/* Rounds of the matrix, each cell in the specification's order, until the window holds. */
static int rounds(const struct pts_plan *p, const struct pts_test_plan *tp,
		  struct pts_state *st)
{
	struct pts_cell_id id = { tp, "round", 0, 0, 0 };
	const struct pts_test *t = tp->test;
	unsigned attained = 0;

	for (id.round = 1; id.round <= p->max_rounds && !attained; id.round++) {
		struct pts_window w;
		double v = 0;
		int ret;

		for (id.mix = 0; id.mix < tp->nmixes; id.mix++)
			for (id.bs = 0; id.bs < tp->nbs; id.bs++) {
				struct diag d = { 0 };

				ret = pts_cell_run(p, &id, st, &d);
				if (ret)
					return say_fail(ret, &d);
			}
		if (read_back(p, t, &v, &w, &attained))
			return EXIT_JOB_FAILED;
		fprintf(stderr, "iojob pts: %s: round %u/%u: %s %.6g %s\n", t->name, id.round,
			p->max_rounds, t->track, v / t->track_div, t->track_unit);
		if (attained)
			fprintf(stderr, "iojob pts: %s: steady state attained at round %u "
				"(rounds %u-%u)\n", t->name, attained, w.first, w.last);
	}
	if (!attained)
		fprintf(stderr, "iojob pts: %s: steady state not attained in %u rounds\n",
			t->name, p->max_rounds);
	return 0;
}

static int run_test(const struct pts_plan *p, const struct pts_test_plan *tp,
		    struct pts_state *st)
{
	struct pts_cell_id id = { tp, "purge", 0, -1, -1 };
	struct diag d = { 0 };
	int ret = 0;

	if (p->purge) {
		fprintf(stderr, "iojob pts: %s: purge (discard %llu bytes)\n", tp->test->name,
			(unsigned long long)p->target_bytes);
		ret = pts_cell_run(p, &id, st, &d);
		/* a purge that failed is kept, and the report says so: the suite goes on */
		if (ret == 1)
			fprintf(stderr, "iojob pts: %s: the purge failed: going on unpurged%s%s\n",
				tp->test->name, d.msg[0] ? ": " : "", d.msg);
		else if (ret)
			return say_fail(ret, &d);
	}
	fprintf(stderr, "iojob pts: %s: preconditioning (128k sequential writes, twice %llu "
		"bytes)\n", tp->test->name, (unsigned long long)p->used_bytes);
	id.step = "precondition";
	d = (struct diag){ 0 };
	ret = pts_cell_run(p, &id, st, &d);
	if (ret)
		return say_fail(ret, &d);
	return rounds(p, tp, st);
}

/* A label the result set holds already would mix two runs' rounds: refused. */
static int check_label(const struct pts_plan *p)
{
	struct rs_set set = { 0 };
	struct diag d = { 0 };
	struct stat st;
	int ret = 0;

	if (stat(p->results, &st) < 0 || st.st_size == 0)
		return 0;	/* made just now, or empty */
	if (rs_load(&set, p->results, &d) < 0) {
		fprintf(stderr, "iojob pts: %s\n", d.msg);
		return EXIT_USAGE;
	}
	for (size_t i = 0; !ret && i < set.ncells; i++)
		if (!strcmp(set.cells[i].label, p->label) &&
		    jv_get(jv_get(&set.cells[i].root, "cell"), "pts_test"))
			ret = 2;
	if (ret)
		fprintf(stderr, "iojob pts: '%s' holds a run labelled '%s' already: give another "
			"--label or --results\n", p->results, p->label);
	rs_free(&set);
	return ret;
}

int pts_suite_run(const struct pts_plan *p, struct pts_state *st)
{
	struct diag d = { 0 };
	int ret = resultset_check(p->results, &d);

	if (ret < 0) {
		fprintf(stderr, "iojob pts: %s\n", d.msg);
		return EXIT_USAGE;
	}
	ret = check_label(p);
	if (!ret)
		ret = check_all(p);
	for (unsigned t = 0; !ret && t < p->ntests; t++)
		ret = run_test(p, &p->tests[t], st);
	return ret;
}
