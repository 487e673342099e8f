/* Unit tests for base/grow.c: capacity doubling, contents kept, overflow refused, NULL empty. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include <check.h>

#include "base/grow.h"

START_TEST(grow_doubles_from_eight_and_keeps_elements)
{
	uint64_t *v = NULL;
	size_t cap = 0;

	for (size_t n = 0; n < 100; n++) {
		ck_assert_int_eq(GROW_FOR(v, cap, n), 0);
		ck_assert_uint_gt(cap, n);
		v[n] = n * 3;
	}
	ck_assert_uint_eq(cap, 128);	/* 8, 16, 32, 64, 128 */
	for (size_t n = 0; n < 100; n++)
		ck_assert_uint_eq(v[n], n * 3);
	free(v);
}
END_TEST

START_TEST(grow_reserves_a_whole_need_at_once)
{
	char *buf = NULL;
	size_t cap = 0;

	ck_assert_int_eq(grow_reserve(&buf, &cap, 1000, 1), 0);
	ck_assert_uint_eq(cap, 1024);
	ck_assert_int_eq(grow_reserve(&buf, &cap, 1024, 1), 0);	/* fits: nothing moves */
	ck_assert_uint_eq(cap, 1024);
	free(buf);
}
END_TEST

START_TEST(grow_refuses_overflow_and_leaves_the_array)
{
	uint64_t *v = NULL;
	size_t cap = 0;

	ck_assert_int_eq(GROW_FOR(v, cap, 3), 0);
	v[3] = 42;
	ck_assert_int_eq(grow_reserve(&v, &cap, SIZE_MAX / 4, sizeof(*v)), -ENOMEM);
	ck_assert_int_eq(grow_reserve(&v, &cap, SIZE_MAX, 1), -ENOMEM);
	ck_assert_uint_eq(cap, 8);
	ck_assert_uint_eq(v[3], 42);
	free(v);
}
END_TEST

START_TEST(grow_gives_a_null_array_no_capacity)
{
	char *buf = NULL;
	size_t cap = 64;	/* stale: the array was freed and set to NULL */

	ck_assert_int_eq(grow_reserve(&buf, &cap, 10, 1), 0);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(cap, 16);
	buf[9] = 'x';
	free(buf);
}
END_TEST

static Suite *grow_suite(void)
{
	Suite *s = suite_create("grow");
	TCase *tc = tcase_create("grow");

	tcase_add_test(tc, grow_doubles_from_eight_and_keeps_elements);
	tcase_add_test(tc, grow_reserves_a_whole_need_at_once);
	tcase_add_test(tc, grow_refuses_overflow_and_leaves_the_array);
	tcase_add_test(tc, grow_gives_a_null_array_no_capacity);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(grow_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
