/*
 * Tests for engine/pace's sleep correction: the lateness it learns from nanosleep converges
 * on a steady lateness (so pauses average what was asked), a stall teaches no more than
 * PACE_LATE_MAX_NS, and waking early unlearns it. Pure arithmetic: nothing sleeps.
 */
#include "engine/pace.h"

#include <stdint.h>
#include <stdlib.h>

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

static Suite *pace_suite(void)
{
	Suite *s = suite_create("pace");
	TCase *tc = tcase_create("sleep correction");

	tcase_add_test(tc, steady_lateness_is_learned);
	tcase_add_test(tc, a_stall_is_capped);
	tcase_add_test(tc, early_wakeups_unlearn);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(pace_suite());
}
