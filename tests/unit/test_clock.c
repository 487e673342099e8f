/*
 * Tests for engine/clock: nanoseconds to ticks and back never come out short, for TSC
 * rates of real CPUs and spans from 1 ns to a day, and are exact for clock_gettime.
 */
#include "engine/thread/clock.h"

#include <stdint.h>
#include <stdlib.h>

#include <check.h>

#include "test_util.h"

/* TSC rates as calibration finds them: round, odd and just under a round number. */
static const uint64_t rates_hz[] = {
	2445000000ULL, 2999999999ULL, 3100000017ULL, 1000000007ULL, 4800123456ULL,
	100000000ULL,
};

/* A TSC clock of hz, with the multiplier clock_init() derives from it. */
static struct clock_src tsc_of(uint64_t hz)
{
	struct clock_src c = { .tsc = true, .hz = hz, .name = "tsc" };

	c.mult = (uint64_t)((1e9 * 4294967296.0) / (double)hz);
	return c;
}

START_TEST(deadline_in_ticks_is_never_read_short)
{
	const struct clock_src c = tsc_of(rates_hz[_i]);
	uint64_t tick_ns = 1000000000ULL / c.hz + 1;
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	for (uint64_t ns = 1; ns <= 86400000000000ULL; ns = ns * 3 + 1) {
		for (int k = 0; k < 64; k++) {
			uint64_t t = ns + (x >> 40) % (ns + 1), back;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			back = clock_to_ns(&c, clock_from_ns(&c, t));
			ck_assert_msg(back >= t, "%llu Hz: %llu ns read back as %llu",
				      (unsigned long long)c.hz, (unsigned long long)t,
				      (unsigned long long)back);
			/* and at most one tick long */
			ck_assert_uint_le(back - t, tick_ns);
		}
	}
}
END_TEST

/* The deadlines of common runtimes come out at exactly the runtime or a tick over. */
START_TEST(round_runtimes_are_read_whole)
{
	static const uint64_t runtimes_ns[] = { 200000000ULL, 1000000000ULL, 60000000000ULL,
						3600000000000ULL };
	const struct clock_src c = tsc_of(rates_hz[_i]);

	for (int r = 0; r < TABLE_LEN(runtimes_ns); r++) {
		uint64_t back = clock_to_ns(&c, clock_from_ns(&c, runtimes_ns[r]));

		ck_assert_uint_ge(back, runtimes_ns[r]);
		ck_assert_uint_lt(back / 1000000ULL, runtimes_ns[r] / 1000000ULL + 1);
	}
}
END_TEST

START_TEST(gettime_ticks_are_nanoseconds)
{
	struct clock_src c;

	clock_init(&c, CLOCK_PICK_GETTIME);
	ck_assert(!c.tsc);
	ck_assert_uint_eq(clock_from_ns(&c, 123456789ULL), 123456789ULL);
	ck_assert_uint_eq(clock_to_ns(&c, 123456789ULL), 123456789ULL);
}
END_TEST

static Suite *clock_suite(void)
{
	Suite *s = suite_create("clock");
	TCase *tc = tcase_create("conversion");

	tcase_add_loop_test(tc, deadline_in_ticks_is_never_read_short, 0, TABLE_LEN(rates_hz));
	tcase_add_loop_test(tc, round_runtimes_are_read_whole, 0, TABLE_LEN(rates_hz));
	tcase_add_test(tc, gettime_ticks_are_nanoseconds);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(clock_suite());
}
