/*
 * Tests for engine/pace's sleep correction: the lateness it learns from nanosleep converges
 * on a steady lateness (so pauses average what was asked), a stall teaches no more than
 * PACE_LATE_MAX_NS, and waking early unlearns it. And the rates' arithmetic: the gap a rate
 * means, rate_process=poisson's exponential gaps, rate_min's measure. Nothing sleeps.
 */
#include "engine/loop/pace.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "test_util.h"

/* A timer that always wakes 60 us late: after a few dozen pauses, asked + late = wanted. */
START_TEST(steady_lateness_is_learned)
{
	const uint64_t want = 1000000, late = 60000;
	uint64_t learned = 0, sum = 0;

	for (int i = 0; i < 200; i++) {
		uint64_t ask = want - learned, slept = ask + late;

		if (i >= 100)
			sum += slept;
		learned = pace_late_update(learned, ask, slept);
	}
	ck_assert_uint_ge(learned, late - late / 100);
	ck_assert_uint_le(learned, late);
	/* the last hundred pauses average the thinktime within 0.1% */
	ck_assert_uint_ge(sum / 100, want - want / 1000);
	ck_assert_uint_le(sum / 100, want + want / 1000);
}
END_TEST

START_TEST(a_stall_is_capped)
{
	uint64_t learned = pace_late_update(0, 1000000, 3000000000ULL);

	ck_assert_uint_eq(learned, PACE_LATE_MAX_NS / 8);
	for (int i = 0; i < 100; i++)
		learned = pace_late_update(learned, 1000000, 5000000000ULL);
	ck_assert_uint_le(learned, PACE_LATE_MAX_NS);
}
END_TEST

/* A signal ends a sleep early: that is no lateness, and what was learned fades. */
START_TEST(early_wakeups_unlearn)
{
	uint64_t learned = 80000;

	for (int i = 0; i < 100; i++)
		learned = pace_late_update(learned, 1000000, 400000);
	ck_assert_uint_lt(learned, 100);
}
END_TEST

/* rate_iops gives the gap itself; rate in bytes divides the smallest block by it (fio). */
START_TEST(rate_gaps_follow_the_job)
{
	struct job_desc j;

	memset(&j, 0, sizeof(j));
	j.rate_iops[IO_READ] = 250;
	j.rate[IO_WRITE] = 1 << 20;
	j.bs[IO_WRITE].min = 4096;
	ck_assert_uint_eq(pace_rate_gap_ns(&j, IO_READ), 4000000);
	ck_assert_uint_eq(pace_rate_gap_ns(&j, IO_WRITE), 4096ULL * 1000000000 / (1 << 20));
	ck_assert_uint_eq(pace_rate_gap_ns(&j, IO_TRIM), 0);
}
END_TEST

/* Gaps drawn from uniform numbers: their mean is the mean asked, their CV about 1. */
START_TEST(poisson_gaps_are_exponential)
{
	const uint64_t mean = 1000000;
	const int n = 100000;
	double sum = 0, sq = 0, m, cv;
	struct rng r;

	rng_seed(&r, 42);
	for (int i = 0; i < n; i++) {
		double g = (double)pace_exp_gap_ns(mean, rng_unit(&r));

		sum += g;
		sq += g * g;
	}
	m = sum / n;
	cv = sqrt(sq / n - m * m) / m;
	ck_assert_msg(fabs(m - (double)mean) < mean * 0.02, "mean gap %.0f ns", m);
	ck_assert_msg(fabs(cv - 1) < 0.03, "coefficient of variation %.3f", cv);
	ck_assert_uint_eq(pace_exp_gap_ns(mean, 0), 0);
}
END_TEST

START_TEST(per_sec_measures_a_window)
{
	ck_assert_uint_eq(pace_per_sec(50, 500000000), 100);
	ck_assert_uint_eq(pace_per_sec(3, 2000000000), 1);
	ck_assert_uint_eq(pace_per_sec(7, 0), 0);
	ck_assert_uint_eq(pace_per_sec(UINT64_MAX / 2, 1000000000), UINT64_MAX / 2);
}
END_TEST

static Suite *pace_suite(void)
{
	Suite *s = suite_create("pace");
	TCase *tc = tcase_create("sleep correction");
	TCase *rates = tcase_create("rates");

	tcase_add_test(tc, steady_lateness_is_learned);
	tcase_add_test(tc, a_stall_is_capped);
	tcase_add_test(tc, early_wakeups_unlearn);
	suite_add_tcase(s, tc);
	tcase_add_test(rates, rate_gaps_follow_the_job);
	tcase_add_test(rates, poisson_gaps_are_exponential);
	tcase_add_test(rates, per_sec_measures_a_window);
	suite_add_tcase(s, rates);
	return s;
}

int main(void)
{
	return test_run(pace_suite());
}
