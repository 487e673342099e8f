/*
 * Unit tests for the job control parsers: ignore_error's lists of errnos per error type
 * (names of fio's list or numbers, ',' between types, ':' within one), max_latency's
 * times per direction (µs without a unit, trims following writes) and latency_percentile's
 * percentage.
 */
#include <errno.h>
#include <string.h>

#include <check.h>

#include "jobs/opt_control.h"
#include "base/units.h"
#include "test_util.h"

static struct job_desc job;
static char why[256];

static int ignore(const char *val)
{
	memset(&job, 0, sizeof(job));
	why[0] = '\0';
	return opt_ignore_error_parse(NULL, val, &job, why, sizeof(why));
}

static int max_lat(const char *val)
{
	memset(&job, 0, sizeof(job));
	why[0] = '\0';
	return opt_max_latency_parse(NULL, val, &job, why, sizeof(why));
}

START_TEST(ignore_error_lists_each_type_by_name_or_number)
{
	ck_assert_int_eq(ignore("EAGAIN,ENOSPC:122"), 0);
	ck_assert_uint_eq(job.ignore_error[ERR_TYPE_READ].n, 1);
	ck_assert_int_eq(job.ignore_error[ERR_TYPE_READ].err[0], EAGAIN);
	ck_assert_uint_eq(job.ignore_error[ERR_TYPE_WRITE].n, 2);
	ck_assert_int_eq(job.ignore_error[ERR_TYPE_WRITE].err[0], ENOSPC);
	ck_assert_int_eq(job.ignore_error[ERR_TYPE_WRITE].err[1], 122);
	ck_assert_uint_eq(job.ignore_error[ERR_TYPE_VERIFY].n, 0);
}
END_TEST

START_TEST(ignore_error_skips_an_empty_type_and_stops_at_an_empty_entry)
{
	ck_assert_int_eq(ignore(",,EIO::EPERM"), 0);
	ck_assert_uint_eq(job.ignore_error[ERR_TYPE_READ].n, 0);
	ck_assert_uint_eq(job.ignore_error[ERR_TYPE_WRITE].n, 0);
	ck_assert_uint_eq(job.ignore_error[ERR_TYPE_VERIFY].n, 1);
	ck_assert_int_eq(job.ignore_error[ERR_TYPE_VERIFY].err[0], EIO);
	ck_assert_int_eq(ignore("-5"), 0);	/* fio reads a negative errno as its value */
	ck_assert_int_eq(job.ignore_error[ERR_TYPE_READ].err[0], EIO);
}
END_TEST

START_TEST(ignore_error_refuses_unknown_names_and_a_fourth_type)
{
	ck_assert_int_eq(ignore("ENOTANERRNO"), -EINVAL);
	ck_assert_ptr_nonnull(strstr(why, "give its number"));
	ck_assert_int_eq(ignore("EDQUOT"), -EINVAL);	/* past fio's list of names */
	ck_assert_int_eq(ignore("EIO,EIO,EIO,EIO"), -EINVAL);
	ck_assert_int_eq(ignore("five"), -EINVAL);
	ck_assert_int_eq(ignore("0"), -EINVAL);
}
END_TEST

START_TEST(max_latency_is_in_us_without_a_unit_for_every_direction)
{
	ck_assert_int_eq(max_lat("250"), 0);
	for (int d = 0; d < IO_NDIR; d++)
		ck_assert_uint_eq(job.max_latency_ns[d], 250 * NS_PER_USEC);
}
END_TEST

START_TEST(max_latency_per_direction_trims_follow_writes)
{
	ck_assert_int_eq(max_lat("1ms,2s"), 0);
	ck_assert_uint_eq(job.max_latency_ns[IO_READ], NS_PER_MSEC);
	ck_assert_uint_eq(job.max_latency_ns[IO_WRITE], 2 * NS_PER_SEC);
	ck_assert_uint_eq(job.max_latency_ns[IO_TRIM], 2 * NS_PER_SEC);
	ck_assert_int_eq(max_lat(",10ms"), 0);
	ck_assert_uint_eq(job.max_latency_ns[IO_READ], 0);	/* left without a limit */
	ck_assert_uint_eq(job.max_latency_ns[IO_WRITE], 10 * NS_PER_MSEC);
}
END_TEST

START_TEST(max_latency_refuses_what_is_not_a_time)
{
	ck_assert_int_eq(max_lat("soon"), -EINVAL);
	ck_assert_int_eq(max_lat("1,2,3,4"), -EINVAL);
}
END_TEST

START_TEST(latency_percentile_takes_fractions_from_0_to_100)
{
	ck_assert_int_eq(opt_latency_pct_parse(NULL, "99.5", &job, why, sizeof(why)), 0);
	ck_assert(job.lat_percentile == 99.5);
	ck_assert_int_eq(opt_latency_pct_parse(NULL, "0", &job, why, sizeof(why)), 0);
	ck_assert(job.lat_percentile == 0.0);
	ck_assert_int_eq(opt_latency_pct_parse(NULL, "100", &job, why, sizeof(why)), 0);
	ck_assert(job.lat_percentile == 100.0);
	ck_assert_int_eq(opt_latency_pct_parse(NULL, "100.5", &job, why, sizeof(why)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(why, "not a percentage from 0 to 100"));
	ck_assert_int_eq(opt_latency_pct_parse(NULL, "-1", &job, why, sizeof(why)), -EINVAL);
	ck_assert_int_eq(opt_latency_pct_parse(NULL, "most", &job, why, sizeof(why)), -EINVAL);
	ck_assert(job.lat_percentile == 100.0);		/* a refused value leaves it be */
}
END_TEST

static Suite *opt_control_suite(void)
{
	Suite *s = suite_create("opt_control");
	TCase *tc = tcase_create("ignore_error");

	tcase_add_test(tc, ignore_error_lists_each_type_by_name_or_number);
	tcase_add_test(tc, ignore_error_skips_an_empty_type_and_stops_at_an_empty_entry);
	tcase_add_test(tc, ignore_error_refuses_unknown_names_and_a_fourth_type);
	suite_add_tcase(s, tc);
	tc = tcase_create("max_latency");
	tcase_add_test(tc, max_latency_is_in_us_without_a_unit_for_every_direction);
	tcase_add_test(tc, max_latency_per_direction_trims_follow_writes);
	tcase_add_test(tc, max_latency_refuses_what_is_not_a_time);
	suite_add_tcase(s, tc);
	tc = tcase_create("latency_percentile");
	tcase_add_test(tc, latency_percentile_takes_fractions_from_0_to_100);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(opt_control_suite());
}
