/*
 * Unit tests for steadystate: the window's criteria (engine/observe/steady_window.c) on samples
 * whose deviation and slope are worked out by hand, with fio's integer mean where fio has
 * one, the samples' order as reported, and steadystate='s parser and rules
 * (jobs/opt_steady.c).
 */
#include <errno.h>
#include <string.h>

#include <check.h>

#include "base/diag.h"
#include "engine/observe/steady_window.h"
#include "jobs/opt_steady.h"
#include "test_util.h"

/* Feed n IOPS samples (bw 4096 times each); whether the last one attained. */
static bool feed(struct ss_window *w, const uint64_t *iops, unsigned n)
{
	bool steady = false;

	for (unsigned i = 0; i < n; i++)
		steady = ss_window_add(w, iops[i], iops[i] * 4096, 0);
	return steady;
}

START_TEST(deviation_is_judged_once_the_window_is_full)
{
	struct ss_window w;

	ck_assert_int_eq(ss_window_init(&w, SS_IOPS | SS_PCT, 5.0, 3), 0);
	ck_assert(!ss_window_add(&w, 500, 0, 0));
	ck_assert(!ss_window_add(&w, 500, 0, 0));
	ck_assert(!w.full);
	ck_assert(ss_window_add(&w, 500, 0, 0));
	ck_assert(w.criterion == 0.0 && w.deviation == 0.0);
	ss_window_free(&w);
}
END_TEST

START_TEST(deviation_in_percent_of_the_mean_must_be_below_the_limit)
{
	static const uint64_t s[] = { 90, 100, 110 };	/* mean 100, farthest 10 from it */
	struct ss_window w;

	ck_assert_int_eq(ss_window_init(&w, SS_IOPS | SS_PCT, 10.0, 3), 0);
	ck_assert(!feed(&w, s, 3));			/* 10% is not below 10% */
	ck_assert(w.deviation == 10.0 && w.criterion == 10.0);
	ss_window_free(&w);
	ck_assert_int_eq(ss_window_init(&w, SS_IOPS, 10.5, 3), 0);
	ck_assert(feed(&w, s, 3));			/* an absolute 10 IOPS is below 10.5 */
	ss_window_free(&w);
}
END_TEST

START_TEST(slope_is_the_least_squares_slope)
{
	static const uint64_t s[] = { 1, 2, 3 };
	struct ss_window w;

	ck_assert_int_eq(ss_window_init(&w, SS_IOPS | SS_SLOPE, 1.0, 3), 0);
	ck_assert(!feed(&w, s, 3));
	ck_assert(w.slope == 1.0 && w.criterion == 1.0);
	ss_window_free(&w);
	ck_assert_int_eq(ss_window_init(&w, SS_IOPS | SS_SLOPE | SS_PCT, 60.0, 3), 0);
	ck_assert(feed(&w, s, 3));
	ck_assert(w.criterion == 50.0);			/* 1 over the mean of 2, in percent */
	ss_window_free(&w);
}
END_TEST

START_TEST(slope_in_percent_divides_by_the_mean_in_whole_units)
{
	static const uint64_t s[] = { 1, 2, 2 };	/* slope 0.5, mean 5/3: fio takes 1 */
	struct ss_window w;

	ck_assert_int_eq(ss_window_init(&w, SS_IOPS | SS_SLOPE | SS_PCT, 0.0, 3), 0);
	ck_assert(!feed(&w, s, 3));
	ck_assert(w.slope == 0.5 && w.criterion == 50.0);
	ss_window_free(&w);
}
END_TEST

START_TEST(a_falling_slope_counts_by_its_size)
{
	static const uint64_t s[] = { 30, 20, 10 };
	struct ss_window w;

	ck_assert_int_eq(ss_window_init(&w, SS_IOPS | SS_SLOPE, 10.5, 3), 0);
	ck_assert(feed(&w, s, 3));
	ck_assert(w.slope == -10.0);
	ss_window_free(&w);
}
END_TEST

START_TEST(the_sliding_window_keeps_its_sums_and_reports_oldest_first)
{
	static const uint64_t s[] = { 10, 20, 30, 40, 50 };
	uint64_t iops[3], bw[3], lat[3];
	struct ss_window w;

	ck_assert_int_eq(ss_window_init(&w, SS_IOPS | SS_SLOPE, 0.0, 3), 0);
	ck_assert(!feed(&w, s, 5));
	ck_assert(w.slope == 10.0);			/* [30, 40, 50] from running sums */
	ck_assert_uint_eq(w.sum_xy, 0 * 30 + 1 * 40 + 2 * 50);
	ss_window_ordered(&w, false, iops, bw, lat);
	ck_assert(iops[0] == 30 && iops[1] == 40 && iops[2] == 50);
	ck_assert(bw[0] == 30 * 4096 && bw[2] == 50 * 4096);
	ss_window_free(&w);
}
END_TEST

START_TEST(an_attained_window_reports_the_window_judged)
{
	static const uint64_t s[] = { 7, 100, 100, 100 };
	uint64_t iops[3], bw[3], lat[3];
	struct ss_window w;

	ck_assert_int_eq(ss_window_init(&w, SS_IOPS, 1.0, 3), 0);
	ck_assert(feed(&w, s, 4));
	ss_window_ordered(&w, true, iops, bw, lat);
	ck_assert(iops[0] == 100 && iops[1] == 100 && iops[2] == 100);
	ss_window_free(&w);
}
END_TEST

START_TEST(a_window_never_filled_ends_in_zeros)
{
	static const uint64_t s[] = { 5, 6 };
	uint64_t iops[4], bw[4], lat[4];
	struct ss_window w;

	ck_assert_int_eq(ss_window_init(&w, SS_BW, 1.0, 4), 0);
	ck_assert(!feed(&w, s, 2));
	ss_window_ordered(&w, false, iops, bw, lat);
	ck_assert(iops[0] == 5 && iops[1] == 6 && iops[2] == 0 && iops[3] == 0);
	ck_assert(w.criterion == 0.0);
	ss_window_free(&w);
}
END_TEST

START_TEST(lat_criteria_judge_the_latency)
{
	uint64_t iops[3], bw[3], lat[3];
	struct ss_window w;

	/* fio HEAD's lat: 5% of a mean of 100 us; IOPS and bandwidth move freely */
	ck_assert_int_eq(ss_window_init(&w, SS_LAT | SS_PCT, 5.0, 3), 0);
	ck_assert(!ss_window_add(&w, 10, 100, 100000));
	ck_assert(!ss_window_add(&w, 900, 9000, 120000));
	ck_assert(!ss_window_add(&w, 50, 500, 100000));	/* 13.3 us off a mean of 106.7 */
	ck_assert(w.deviation > 13333.0 && w.deviation < 13334.0);
	ck_assert(!ss_window_add(&w, 70000, 1, 101000));	/* 120 still in: 12.1% */
	ck_assert(ss_window_add(&w, 1, 70000, 102000));	/* 100, 101, 102: 0.99% */
	ss_window_ordered(&w, true, iops, bw, lat);
	ck_assert(lat[0] == 100000 && lat[1] == 101000 && lat[2] == 102000);
	ss_window_free(&w);
	/* lat_slope: the slope of the latencies, ns per sample */
	ck_assert_int_eq(ss_window_init(&w, SS_LAT | SS_SLOPE, 1000.0, 3), 0);
	ck_assert(!ss_window_add(&w, 1, 1, 1000));
	ck_assert(!ss_window_add(&w, 1, 1, 3000));
	ck_assert(!ss_window_add(&w, 1, 1, 5000));
	ck_assert(w.slope == 2000.0);
	ss_window_free(&w);
}
END_TEST

START_TEST(bw_criteria_judge_the_bandwidth)
{
	struct ss_window w;

	ck_assert_int_eq(ss_window_init(&w, SS_BW, 1000.0, 2), 0);
	ck_assert(!ss_window_add(&w, 100, 100000, 0));
	ck_assert(!ss_window_add(&w, 100, 104000, 0));	/* 2000 B/s from the mean */
	ck_assert(w.deviation == 2000.0);
	ss_window_free(&w);
}
END_TEST

/* --- steadystate= ---------------------------------------------------------------------- */

static struct job_desc job;
static char why[256];

static int parse(const char *val)
{
	static const struct opt_ctx ctx = { .kb_base = 1024 };

	memset(&job, 0, sizeof(job));
	why[0] = '\0';
	return opt_steadystate_parse(&ctx, val, &job, why, sizeof(why));
}

START_TEST(steadystate_reads_fio_criteria_and_limits)
{
	ck_assert_int_eq(parse("iops:5%"), 0);
	ck_assert_uint_eq(job.ss_flags, SS_IOPS | SS_PCT);
	ck_assert(job.ss_limit == 5.0);
	ck_assert_int_eq(parse("iops_slope:0.1%%"), 0);	/* as bench-fio writes it */
	ck_assert_uint_eq(job.ss_flags, SS_IOPS | SS_SLOPE | SS_PCT);
	ck_assert(job.ss_limit == 0.1);
	ck_assert_int_eq(parse("bw_slope:10m"), 0);
	ck_assert_uint_eq(job.ss_flags, SS_BW | SS_SLOPE);
	ck_assert(job.ss_limit == 10.0 * 1024 * 1024);
	ck_assert_int_eq(parse("iops: 25 "), 0);
	ck_assert_uint_eq(job.ss_flags, SS_IOPS);
	ck_assert(job.ss_limit == 25.0);
	ck_assert_int_eq(parse("bw:2.5%"), 0);
	ck_assert_uint_eq(job.ss_flags, SS_BW | SS_PCT);
	/* fio HEAD's lat: a time in microseconds, kept as fio HEAD keeps its number */
	ck_assert_int_eq(parse("lat:1ms"), 0);
	ck_assert_uint_eq(job.ss_flags, SS_LAT);
	ck_assert(job.ss_limit == 1000.0);
	ck_assert_int_eq(parse("lat:100"), 0);
	ck_assert(job.ss_limit == 100.0);
	ck_assert_int_eq(parse("lat_slope:5%"), 0);
	ck_assert_uint_eq(job.ss_flags, SS_LAT | SS_SLOPE | SS_PCT);
}
END_TEST

static const struct {
	const char *val, *why;
} bad_cases[] = {
	{ "iops", "has no limit" },
	{ "IOPS:1", "is not a criterion" },
	{ "iops_slopes:1", "is not a criterion" },
	{ "iops:", "is not a number" },
	{ "iops:-1", "negative" },
	{ "bw:fast", "is not a bandwidth" },
	{ "iops:5%x", "is not a percentage" },
	{ "lat:soon", "is not a latency" },
};

START_TEST(steadystate_refuses_what_fio_cannot_read)
{
	ck_assert_int_eq(parse(bad_cases[_i].val), -EINVAL);
	ck_assert_msg(strstr(why, bad_cases[_i].why), "'%s': %s", bad_cases[_i].val, why);
}
END_TEST

START_TEST(the_window_is_whole_seconds)
{
	struct diag d = { 0 };

	memset(&job, 0, sizeof(job));
	job.name = "j";
	job.file = "t.fio";
	job.line = 1;
	job.ss_flags = SS_IOPS | SS_SLOPE | SS_PCT;
	job.ss_interval_ns = NS_PER_SEC;
	job.ss_dur_ns = 2500 * NS_PER_MSEC;
	ck_assert_int_eq(job_check_steady(&job, &d), 0);
	ck_assert_uint_eq(job.ss_dur_ns, 2 * NS_PER_SEC);
	job.ss_dur_ns = 1500 * NS_PER_MSEC;		/* one sample: no slope */
	ck_assert_int_eq(job_check_steady(&job, &d), -EINVAL);
	ck_assert_ptr_nonnull(strstr(d.msg, "a slope needs two samples"));
	job.ss_flags = SS_IOPS;
	job.ss_dur_ns = 1500 * NS_PER_MSEC;
	ck_assert_int_eq(job_check_steady(&job, &d), 0);
	job.ss_dur_ns = 500 * NS_PER_MSEC;
	ck_assert_int_eq(job_check_steady(&job, &d), -EINVAL);
	ck_assert_ptr_nonnull(strstr(d.msg, "under a second"));
	diag_clear(&d);
	/* steadystate_check_interval (fio HEAD's): dur / interval samples, at least one */
	job.ss_dur_ns = 10 * NS_PER_SEC;
	job.ss_interval_ns = 3 * NS_PER_SEC;
	ck_assert_int_eq(job_check_steady(&job, &d), 0);
	job.ss_interval_ns = 11 * NS_PER_SEC;
	ck_assert_int_eq(job_check_steady(&job, &d), -EINVAL);
	ck_assert_ptr_nonnull(strstr(d.msg, "takes none"));
	diag_clear(&d);
	job.ss_flags = SS_LAT | SS_SLOPE;
	job.ss_interval_ns = 6 * NS_PER_SEC;
	ck_assert_int_eq(job_check_steady(&job, &d), -EINVAL);
	ck_assert_ptr_nonnull(strstr(d.msg, "a slope needs two samples"));
	diag_clear(&d);
}
END_TEST

static Suite *steady_suite(void)
{
	Suite *s = suite_create("steady");
	TCase *tc = tcase_create("window");

	tcase_add_test(tc, deviation_is_judged_once_the_window_is_full);
	tcase_add_test(tc, deviation_in_percent_of_the_mean_must_be_below_the_limit);
	tcase_add_test(tc, slope_is_the_least_squares_slope);
	tcase_add_test(tc, slope_in_percent_divides_by_the_mean_in_whole_units);
	tcase_add_test(tc, a_falling_slope_counts_by_its_size);
	tcase_add_test(tc, the_sliding_window_keeps_its_sums_and_reports_oldest_first);
	tcase_add_test(tc, an_attained_window_reports_the_window_judged);
	tcase_add_test(tc, a_window_never_filled_ends_in_zeros);
	tcase_add_test(tc, bw_criteria_judge_the_bandwidth);
	tcase_add_test(tc, lat_criteria_judge_the_latency);
	suite_add_tcase(s, tc);
	tc = tcase_create("options");
	tcase_add_test(tc, steadystate_reads_fio_criteria_and_limits);
	tcase_add_loop_test(tc, steadystate_refuses_what_fio_cannot_read, 0, TABLE_LEN(bad_cases));
	tcase_add_test(tc, the_window_is_whole_seconds);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(steady_suite());
}
