/*
 * Unit tests for output/resultset/pts_window.c: the SNIA PTS steady-state window on
 * synthetic rounds, with exact expectations: the round it first holds at, its rounds,
 * average, fitted line and excursions, and the limits taken as inclusive.
 */
#include <math.h>
#include <stdlib.h>

#include <check.h>

#include "output/resultset/pts_window.h"
#include "test_util.h"

struct window_case {
	const char *what;
	double v[12];
	unsigned n;
	unsigned attained;	/* 0: not attained */
	unsigned first, last;	/* the window found, or the last five rounds */
};

static const struct window_case cases[] = {
	{ "flat rounds hold at the fifth", { 100, 100, 100, 100, 100, 100 }, 6, 5, 1, 5 },
	{ "four rounds are never a window", { 100, 100, 100, 100 }, 4, 0, 1, 4 },
	{ "a settling target holds once the warm-up leaves the window",
	  { 800, 400, 200, 200, 200, 200, 200, 200 }, 8, 7, 3, 7 },
	/* range 20 of an average 100 is at the limit: held; the fit's excursion is 0 */
	{ "a range of exactly 20% holds", { 90, 110, 100, 90, 110 }, 5, 5, 1, 5 },
	{ "a range past 20% does not", { 89, 111, 100, 89, 111 }, 5, 0, 1, 5 },
	/* 96 98 100 102 104: range 8% but the line climbs 8% over the window: held;
	 * 94 .. 106 climbs 12%: not held, although its range, 12%, is within 20% */
	{ "a slope excursion under 10% holds", { 96, 98, 100, 102, 104 }, 5, 5, 1, 5 },
	{ "a slope excursion past 10% does not", { 94, 97, 100, 103, 106 }, 5, 0, 1, 5 },
	{ "a doubling target is never steady", { 100, 200, 400, 800, 1600, 3200, 6400 }, 7, 0,
	  3, 7 },
	{ "a round that did nothing is never steady", { 0, 0, 0, 0, 0, 0 }, 6, 0, 2, 6 },
	{ "a missing round keeps the windows over it from holding",
	  { 100, 100, NAN, 100, 100, 100, 100, 100 }, 8, 8, 4, 8 },
};

START_TEST(window_found_where_expected)
{
	const struct window_case *c = &cases[_i];
	struct pts_window w;
	unsigned got = pts_window_find(c->v, c->n, &w);

	ck_assert_msg(got == c->attained, "%s: attained at %u, want %u", c->what, got,
		      c->attained);
	ck_assert_msg(w.first == c->first && w.last == c->last, "%s: window %u-%u, want %u-%u",
		      c->what, w.first, w.last, c->first, c->last);
	ck_assert_msg(w.steady == (c->attained != 0), "%s: steady %d", c->what, w.steady);
}
END_TEST

START_TEST(window_figures_are_exact)
{
	/* y = 10 * round + 50 over rounds 3-7: a line, so the fit is exact */
	const double v[] = { 60, 70, 80, 90, 100, 110, 120 };
	struct pts_window w;

	pts_window_eval(v, 3, 7, &w);
	ck_assert_double_eq(w.avg, 100);
	ck_assert_double_eq(w.min, 80);
	ck_assert_double_eq(w.max, 120);
	ck_assert_double_eq(w.slope, 10);
	ck_assert_double_eq(w.intercept, 50);
	ck_assert_double_eq(w.range_frac, 0.4);
	ck_assert_double_eq(w.slope_frac, 0.4);
	ck_assert(!w.steady);
}
END_TEST

START_TEST(no_rounds_no_window)
{
	struct pts_window w;

	ck_assert_uint_eq(pts_window_find(NULL, 0, &w), 0);
	ck_assert_uint_eq(w.first, 0);
	ck_assert(!w.steady);
}
END_TEST

static Suite *pts_window_suite(void)
{
	Suite *s = suite_create("pts_window");
	TCase *t = tcase_create("criteria");

	tcase_add_loop_test(t, window_found_where_expected, 0, TABLE_LEN(cases));
	tcase_add_test(t, window_figures_are_exact);
	tcase_add_test(t, no_rounds_no_window);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return test_run(pts_window_suite());
}
