/*
 * Tests for engine/wake, the pause a stop cuts short: a pause of an hour ends when the word
 * moves, whether it moved before the wait began or during it, and a pause nobody wakes
 * lasts what it asked. Nothing is timed: a pause that did not end would time the test out.
 */
#include "engine/thread/wake.h"

#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include <check.h>

#include "test_util.h"

#define HOUR_NS	(3600ULL * NS_PER_SEC)

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* A stop between the look at the flags and the wait: the word already moved. */
START_TEST(a_wake_before_the_wait_is_not_missed)
{
	atomic_uint word = 0;
	unsigned seen = atomic_load(&word);

	wake_all(&word);
	wake_sleep(&word, seen, HOUR_NS);
	ck_assert_uint_eq(atomic_load(&word), seen + 1);
}
END_TEST

struct sleeper {
	atomic_uint *word;
	unsigned seen;
};

static void *sleep_an_hour(void *arg)
{
	struct sleeper *s = arg;

	wake_sleep(s->word, s->seen, HOUR_NS);
	return NULL;
}

/* Another thread asleep for an hour, woken before or during its wait: it returns. */
START_TEST(a_wake_ends_another_threads_pause)
{
	atomic_uint word = 7;
	struct sleeper s = { &word, atomic_load(&word) };
	pthread_t t;

	ck_assert_int_eq(pthread_create(&t, NULL, sleep_an_hour, &s), 0);
	wake_all(&word);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
}
END_TEST

/* Nobody wakes it: it waits at least what it asked (1 ms), not returning at once. */
START_TEST(an_unwoken_pause_lasts_what_it_asked)
{
	atomic_uint word = 0;
	uint64_t t0 = mono_ns();

	wake_sleep(&word, 0, NS_PER_MSEC);
	ck_assert_uint_ge(mono_ns() - t0, NS_PER_MSEC);
}
END_TEST

static Suite *wake_suite(void)
{
	Suite *s = suite_create("wake");
	TCase *tc = tcase_create("pauses");

	tcase_add_test(tc, a_wake_before_the_wait_is_not_missed);
	tcase_add_test(tc, a_wake_ends_another_threads_pause);
	tcase_add_test(tc, an_unwoken_pause_lasts_what_it_asked);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(wake_suite());
}
