/*
 * Unit tests for latency_target's depth search, its state machine alone: windows that pass
 * or fail as a synthetic device says (every depth up to some D meets the target, none
 * above it), and the depths fio 3.33 visits for them, step by step.
 */
#include <check.h>

#include "engine/loop/lat_target.h"
#include "test_util.h"

#define MAX_STEPS	64

/* A device on which the depths up to meets pass the target and those above fail. */
struct trace {
	unsigned depth[MAX_STEPS];	/* the depth each window ran at */
	enum lat_step step[MAX_STEPS];	/* and what its verdict asked for */
	unsigned n;
};

static void search(struct lat_search *s, unsigned meets, unsigned windows, struct trace *t)
{
	t->n = 0;
	while (t->n < windows && t->n < MAX_STEPS) {
		enum lat_step st;

		t->depth[t->n] = s->depth;
		st = s->depth <= meets ? lat_search_pass(s) : lat_search_fail(s);
		t->step[t->n++] = st;
		if (st == LAT_DONE)
			break;
	}
}

static void expect(const struct trace *t, const unsigned *depth, const enum lat_step *step,
		   unsigned n)
{
	ck_assert_uint_eq(t->n, n);
	for (unsigned i = 0; i < n; i++) {
		ck_assert_msg(t->depth[i] == depth[i], "window %u at depth %u, not %u", i,
			      t->depth[i], depth[i]);
		ck_assert_msg(t->step[i] == step[i], "window %u: step %d, not %d", i,
			      (int)t->step[i], (int)step[i]);
	}
}

START_TEST(doubles_then_bisects_to_the_highest_depth_that_meets_the_target)
{
	static const unsigned depth[] = { 1, 2, 4, 8, 6, 5, 5 };
	static const enum lat_step step[] = { LAT_NEXT, LAT_NEXT, LAT_NEXT, LAT_DRAIN,
					       LAT_DRAIN, LAT_FINAL, LAT_DONE };
	struct lat_search s;
	struct trace t;

	lat_search_init(&s, 16, false);
	search(&s, 5, MAX_STEPS, &t);
	expect(&t, depth, step, TABLE_LEN(depth));
	ck_assert_uint_eq(s.depth, 5);
	ck_assert_uint_eq(s.low, 5);
	ck_assert_uint_eq(s.high, 6);
}
END_TEST

START_TEST(never_goes_past_iodepth)
{
	static const unsigned depth[] = { 1, 2, 4, 6, 6 };
	static const enum lat_step step[] = { LAT_NEXT, LAT_NEXT, LAT_NEXT, LAT_FINAL,
					       LAT_DONE };
	struct lat_search s;
	struct trace t;

	lat_search_init(&s, 6, false);
	search(&s, 100, MAX_STEPS, &t);
	expect(&t, depth, step, TABLE_LEN(depth));
}
END_TEST

START_TEST(iodepth_1_settles_at_once)
{
	static const unsigned depth[] = { 1, 1 };
	static const enum lat_step step[] = { LAT_FINAL, LAT_DONE };
	struct lat_search s;
	struct trace t;

	lat_search_init(&s, 1, false);
	search(&s, 1, MAX_STEPS, &t);
	expect(&t, depth, step, TABLE_LEN(depth));
}
END_TEST

START_TEST(a_failure_at_depth_1_changes_nothing)
{
	struct lat_search s;

	lat_search_init(&s, 8, false);
	ck_assert_int_eq(lat_search_fail(&s), LAT_FLOOR);
	ck_assert_uint_eq(s.depth, 1);
	ck_assert_uint_eq(s.low, 1);
	ck_assert_uint_eq(s.high, 8);
}
END_TEST

/* Failing at the highest depth that passed lowers that mark too: the search goes below it. */
START_TEST(failing_at_the_depth_that_passed_lowers_it)
{
	static const unsigned depth[] = { 1, 2, 4, 8, 6, 5, 4, 3, 2, 1, 1 };
	static const enum lat_step step[] = { LAT_NEXT, LAT_NEXT, LAT_NEXT, LAT_DRAIN,
					       LAT_DRAIN, LAT_DRAIN, LAT_DRAIN, LAT_DRAIN,
					       LAT_DRAIN, LAT_FINAL, LAT_DONE };
	struct lat_search s;
	struct trace t;

	/* the device gets slower after the first three windows: only depth 1 passes then */
	lat_search_init(&s, 16, false);
	search(&s, 4, 3, &t);
	for (unsigned n = t.n; n < MAX_STEPS; n++) {
		enum lat_step st;

		t.depth[n] = s.depth;
		st = s.depth <= 1 ? lat_search_pass(&s) : lat_search_fail(&s);
		t.step[n] = st;
		t.n = n + 1;
		if (st == LAT_DONE)
			break;
	}
	expect(&t, depth, step, TABLE_LEN(depth));
}
END_TEST

/*
 * latency_run: no settling. Three passes in a row just under the lowest failure try that
 * depth again; it fails, and the search comes back: 5, 5, 5, 6 over and over.
 */
START_TEST(latency_run_keeps_trying_one_higher)
{
	static const unsigned depth[] = { 1, 2, 4, 8, 6, 5, 5, 5, 6, 5, 5, 5, 6, 5 };
	struct lat_search s;
	struct trace t;

	lat_search_init(&s, 16, true);
	search(&s, 5, TABLE_LEN(depth), &t);
	ck_assert_uint_eq(t.n, TABLE_LEN(depth));
	for (unsigned i = 0; i < t.n; i++) {
		ck_assert_msg(t.depth[i] == depth[i], "window %u at depth %u, not %u", i,
			      t.depth[i], depth[i]);
		ck_assert(t.step[i] == LAT_NEXT || t.step[i] == LAT_DRAIN);
	}
}
END_TEST

/* With latency_run, a depth that keeps passing under iodepth climbs to it and stays. */
START_TEST(latency_run_climbs_back_to_iodepth)
{
	struct lat_search s;

	lat_search_init(&s, 8, true);
	for (unsigned i = 0; i < 3; i++)	/* 1, 2, 4 pass: 8 next */
		ck_assert_int_eq(lat_search_pass(&s), LAT_NEXT);
	ck_assert_int_eq(lat_search_fail(&s), LAT_DRAIN);	/* 8 fails: 6 */
	ck_assert_uint_eq(s.depth, 6);
	for (unsigned i = 0; i < 20; i++) {
		ck_assert_int_eq(lat_search_pass(&s), LAT_NEXT);
		ck_assert_uint_le(s.depth, 8);
	}
	ck_assert_uint_eq(s.depth, 8);
}
END_TEST

/* The window's share, as fio computes it: (ios - over) / ios * 100 against the percentile. */
static const struct {
	uint64_t ios, over;
	double pct;
	bool pass;
} windows[] = {
	{ 100, 10, 90.0, true },	/* exactly on the percentile passes */
	{ 100, 11, 90.0, false },
	{ 1000, 5, 99.5, true },
	{ 1000, 6, 99.5, false },
	{ 7, 0, 100.0, true },
	{ 7, 1, 100.0, false },
	{ 3, 3, 0.0, true },		/* 0%: any window with I/O passes */
	{ 0, 0, 0.0, false },		/* a window without I/O fails, as fio's 0/0 does */
	{ 0, 0, 90.0, false },
};

START_TEST(a_window_passes_when_its_share_reaches_the_percentile)
{
	struct lat_search s;
	enum lat_step st;

	lat_search_init(&s, 4, false);
	s.depth = s.low = 2;	/* above 1: a failure lowers it */
	st = lat_search_window(&s, windows[_i].ios, windows[_i].over, windows[_i].pct);
	if (windows[_i].pass) {
		ck_assert_int_eq(st, LAT_NEXT);
		ck_assert_uint_eq(s.depth, 4);
	} else {
		ck_assert_int_eq(st, LAT_DRAIN);
		ck_assert_uint_eq(s.depth, 1);
	}
}
END_TEST

static Suite *lat_target_suite(void)
{
	Suite *s = suite_create("lat_target");
	TCase *tc = tcase_create("search");

	tcase_add_test(tc, doubles_then_bisects_to_the_highest_depth_that_meets_the_target);
	tcase_add_test(tc, never_goes_past_iodepth);
	tcase_add_test(tc, iodepth_1_settles_at_once);
	tcase_add_test(tc, a_failure_at_depth_1_changes_nothing);
	tcase_add_test(tc, failing_at_the_depth_that_passed_lowers_it);
	suite_add_tcase(s, tc);
	tc = tcase_create("latency_run");
	tcase_add_test(tc, latency_run_keeps_trying_one_higher);
	tcase_add_test(tc, latency_run_climbs_back_to_iodepth);
	suite_add_tcase(s, tc);
	tc = tcase_create("window");
	tcase_add_loop_test(tc, a_window_passes_when_its_share_reaches_the_percentile, 0,
			    TABLE_LEN(windows));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(lat_target_suite());
}
