/*
 * Unit tests for reading result sets back (output/resultset/resultset_read.c), a unit's
 * figures (output/resultset/unit_stats.c) and metric names (output/resultset/metrics.c), on
 * result lines written here by hand: with and without iojob's "iojob" object, clones added
 * together, percentiles from merged json+ bins against a histogram whose percentiles are
 * known.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "output/resultset/metrics.h"
#include "output/resultset/resultset_read.h"
#include "base/diag.h"
#include "test_util.h"

/*
 * Read bins 10 ns x50, 20 x40, 100 x10; write bins 30 x60, 120 x40 (values under 128 ns
 * are buckets of their own). Merged, 200 samples: p50 = 30, p80 = 100, p95 = 120; reads
 * alone: p95 = 100; writes alone: p50 = 30. No average of percentiles gives these.
 */
#define READ_BINS	"{\"10\": 50, \"20\": 40, \"100\": 10}"
#define WRITE_BINS	"{\"30\": 60, \"120\": 40}"

/* A direction: 100 I/Os of 4 KiB in 2 s by fio's fields, clat with bins, lat without. */
#define DIR(bins, mean, max) \
	"{\"io_bytes\": 409600, \"bw_bytes\": 204800, \"iops\": 50.0, \"runtime\": 2000, " \
	"\"total_ios\": 100, \"clat_ns\": {\"min\": 10, \"max\": " #max ", \"mean\": " #mean \
	", \"N\": 100, \"bins\": " bins "}, \"lat_ns\": {\"min\": 10, \"max\": " #max \
	", \"mean\": " #mean ", \"N\": 100}}"
#define NO_DIR	"{\"io_bytes\": 0, \"bw_bytes\": 0, \"iops\": 0.0, \"runtime\": 0, " \
		"\"total_ios\": 0, \"clat_ns\": {\"min\": 0, \"max\": 0, \"mean\": 0, \"N\": 0}}"

#define JOB(extra) \
	"{\"jobname\": \"mix\", \"groupid\": 0, \"job options\": {\"rw\": \"randrw\", " \
	"\"bs\": \"4k\", \"size\": \"1m\"}, \"read\": " DIR(READ_BINS, 26.0, 100) ", \"write\": " \
	DIR(WRITE_BINS, 66.0, 120) ", \"trim\": " NO_DIR ", \"usr_cpu\": 10.0, " \
	"\"sys_cpu\": 5.0" extra "}"

#define LINE(label, jobs) \
	"{\"iojob_result\": 1, \"label\": \"" label "\", \"host\": \"h1\", " \
	"\"cell\": {\"numjobs\": \"2\"}, \"sets\": {\"bs\": \"8k\"}, \"report\": " \
	"{\"global options\": {\"ioengine\": \"psync\"}, \"jobs\": [" jobs "], " \
	"\"disk_util\": [{\"name\": \"vda\", \"read_ios\": 5, \"write_ios\": 5, " \
	"\"util\": 42.5}]}}\n"

/* Two clones of fio's shape, and two that carry iojob's object. */
static const char fio_line[] = LINE("fio", JOB("") ", " JOB(""));
static const char iojob_line[] = LINE("iojob", JOB(", \"iojob\": {\"runtime_ns\": 1000000000, "
	"\"lat_over\": {\"2s\": 3, \"10s\": 1}, \"proc_cpu\": {\"usr_ns\": 500000000, "
	"\"sys_ns\": 250000000, \"wall_ns\": 2500000000}}") ", " JOB(", \"iojob\": "
	"{\"runtime_ns\": 1000000000, \"lat_over\": {\"2s\": 3, \"10s\": 1}, \"proc_cpu\": "
	"{\"usr_ns\": 500000000, \"sys_ns\": 250000000, \"wall_ns\": 2500000000}}"));

static char path[64];
static struct rs_set set;
static struct rs_sel sel;

static void write_file(const char *text)
{
	int fd;
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/iojob-test-metrics-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void load(const char *text)
{
	struct diag d = { 0 };

	write_file(text);
	memset(&set, 0, sizeof(set));
	ck_assert_msg(rs_load(&set, path, &d) == 0, "%s", d.msg);
	ck_assert_int_eq(rs_select(&set, NULL, NULL, 0, &sel), 1);
}

static void unload(void)
{
	rs_sel_free(&sel);
	rs_free(&set);
	unlink(path);
}

static double value(const char *name)
{
	struct metric m;

	ck_assert_msg(metric_parse(name, &m) == 0, "metric %s", name);
	return metric_value(&m, &sel.units[0]);
}

static void fio_setup(void)
{
	load(fio_line);
}

static void iojob_setup(void)
{
	load(iojob_line);
}

START_TEST(clones_are_one_unit)
{
	ck_assert_uint_eq(sel.units[0].njobs, 2);
	ck_assert_str_eq(sel.units[0].name, "mix");
}
END_TEST

START_TEST(rates_of_clones_add_up)
{
	ck_assert_double_eq(value("read_iops"), 100);
	ck_assert_double_eq(value("iops"), 200);
	ck_assert_double_eq(value("bw_bytes"), 4 * 204800);
	ck_assert_double_eq_tol(value("write_bw_mib"), 2 * 204800.0 / 1048576, 1e-9);
	ck_assert_double_eq(value("runtime"), 2);
	ck_assert_double_eq(value("ios"), 400);
}
END_TEST

START_TEST(a_direction_not_done_has_no_value)
{
	ck_assert(isnan(value("trim_iops")));
	ck_assert(isnan(value("trim_lat_p95")));
	ck_assert(isnan(value("trim_runtime")));
}
END_TEST

static const struct { const char *name; double want; } pct_cases[] = {
	{ "lat_p50", 30 }, { "lat_p75", 30 }, { "lat_p80", 100 }, { "lat_p95", 120 },
	{ "read_lat_p95", 100 }, { "write_lat_p50", 30 }, { "clat_p95", 120 },
	{ "read_clat_p100", 100 },
};

START_TEST(percentiles_come_from_merged_bins)
{
	/* lat_ns has no bins here: clat's stand in, as for a sync engine */
	ck_assert_double_eq(value(pct_cases[_i].name), pct_cases[_i].want);
}
END_TEST

START_TEST(latency_moments_merge)
{
	ck_assert_double_eq(value("lat_mean"), 46);	/* (26 + 66) / 2, equal counts */
	ck_assert_double_eq(value("lat_max"), 120);
	ck_assert_double_eq(value("read_lat_min"), 10);
}
END_TEST

START_TEST(cpu_adds_clones_without_iojob)
{
	ck_assert_double_eq(value("usr_cpu"), 20);
	ck_assert_double_eq(value("cpu"), 30);
}
END_TEST

START_TEST(lat_over_counts_bins_without_iojob)
{
	ck_assert_double_eq(us_lat_over(&sel.units[0], 100, "100ns"), 2 * (10 + 40));
	ck_assert_double_eq(us_lat_over(&sel.units[0], 2000000000ULL, "2s"), 0);
}
END_TEST

START_TEST(disk_util_is_the_busiest_targets)
{
	ck_assert_double_eq(value("util"), 42.5);
}
END_TEST

START_TEST(rates_use_iojob_runtime_ns)
{
	/* 100 I/Os in 1 s each, although fio's ms fields say 2 s */
	ck_assert_double_eq(value("read_iops"), 200);
	ck_assert_double_eq(value("runtime"), 1);
	ck_assert_double_eq(us_wall_s(&sel.units[0]), 2.5);	/* the phase's wall */
}
END_TEST

START_TEST(cpu_is_the_processes_with_iojob)
{
	ck_assert_double_eq(value("usr_cpu"), 20);	/* 0.5 s of 2.5 s, not summed per clone */
	ck_assert_double_eq(value("sys_cpu"), 10);
}
END_TEST

START_TEST(lat_over_uses_iojobs_counts)
{
	ck_assert_double_eq(us_lat_over(&sel.units[0], 2000000000ULL, "2s"), 6);
	ck_assert_double_eq(us_lat_over(&sel.units[0], 10000000000ULL, "10s"), 2);
}
END_TEST

START_TEST(keys_in_their_order)
{
	const struct rs_cell *c = sel.units[0].cell;

	ck_assert_str_eq(rs_value(c, &sel.units[0], "numjobs"), "2");	/* swept */
	ck_assert_str_eq(rs_value(c, &sel.units[0], "bs"), "8k");	/* --set before options */
	ck_assert_str_eq(rs_value(c, &sel.units[0], "rw"), "randrw");
	ck_assert_str_eq(rs_value(c, &sel.units[0], "ioengine"), "psync");
	ck_assert_str_eq(rs_value(c, &sel.units[0], "host"), "h1");
	ck_assert_str_eq(rs_value(c, &sel.units[0], "job"), "mix");
	ck_assert_ptr_null(rs_value(c, &sel.units[0], "nothing"));
}
END_TEST

static const struct { const char *name; enum us_dir dir; enum metric_base base; double pct; }
name_cases[] = {
	{ "iops", US_ALL, MB_IOPS, 0 }, { "total_iops", US_ALL, MB_IOPS, 0 },
	{ "write_bw_mib", US_WRITE, MB_BW_MIB, 0 }, { "read_clat_p99.9", US_READ, MB_LAT_PCT, 99.9 },
	{ "lat_max", US_ALL, MB_LAT_MAX, 0 }, { "util", US_ALL, MB_UTIL, 0 },
	{ "trim_runtime", US_TRIM, MB_RUNTIME, 0 },
};

START_TEST(names_parse)
{
	struct metric m;

	ck_assert_int_eq(metric_parse(name_cases[_i].name, &m), 0);
	ck_assert_int_eq(m.dir, name_cases[_i].dir);
	ck_assert_int_eq(m.base, name_cases[_i].base);
	ck_assert_double_eq(m.pct, name_cases[_i].pct);
}
END_TEST

START_TEST(bad_names_are_refused)
{
	static const char *const bad[] = {
		"iopz", "lat_p0", "lat_p101", "lat_px", "read_util", "lat_", "read_", "",
	};
	struct metric m;

	for (size_t i = 0; i < TABLE_LEN(bad); i++)
		ck_assert_msg(metric_parse(bad[i], &m) == -EINVAL, "'%s'", bad[i]);
}
END_TEST

START_TEST(directions_of_improvement)
{
	struct metric m;

	metric_parse("write_iops", &m);
	ck_assert_int_eq(metric_better(&m), BETTER_HIGHER);
	metric_parse("lat_p99", &m);
	ck_assert_int_eq(metric_better(&m), BETTER_LOWER);
	metric_parse("runtime", &m);
	ck_assert_int_eq(metric_better(&m), BETTER_LOWER);
	metric_parse("ios", &m);
	ck_assert_int_eq(metric_better(&m), BETTER_NONE);
}
END_TEST

START_TEST(latency_units_follow_the_largest_value)
{
	const double v[] = { 140000, 2500000, NAN };
	struct metric_fmt f;
	struct metric m;
	char buf[32];

	metric_parse("lat_p95", &m);
	metric_fmt_for(&m, v, 3, &f);
	ck_assert_str_eq(f.unit, "ms");
	metric_format(&f, v[0], buf, sizeof(buf));
	ck_assert_str_eq(buf, "0.140");
	metric_format(&f, v[2], buf, sizeof(buf));
	ck_assert_str_eq(buf, "");		/* missing prints empty, never 0 */
}
END_TEST

START_TEST(a_line_that_is_not_a_result_is_an_error)
{
	struct rs_set s = { 0 };
	struct diag d = { 0 };

	write_file("{\"jobs\": []}\n");
	ck_assert_int_eq(rs_load(&s, path, &d), -EINVAL);
	ck_assert_ptr_nonnull(strstr(d.msg, ":1: not a result line"));
	unlink(path);
	write_file("");
	ck_assert_int_eq(rs_load(&s, path, &d), -EINVAL);
	ck_assert_ptr_nonnull(strstr(d.msg, "no results in it"));
	unlink(path);
	rs_free(&s);
}
END_TEST

START_TEST(a_line_cut_short_is_skipped)
{
	char text[sizeof(fio_line) * 2];
	struct rs_set s = { 0 };
	struct diag d = { 0 };

	snprintf(text, sizeof(text), "%s%.100s\n", fio_line, fio_line);
	write_file(text);
	ck_assert_int_eq(rs_load(&s, path, &d), 0);
	ck_assert_uint_eq(s.ncells, 1);
	ck_assert_uint_eq(s.skipped, 1);
	unlink(path);
	rs_free(&s);
}
END_TEST

static Suite *metrics_suite(void)
{
	Suite *s = suite_create("metrics");
	TCase *tc;

	tc = tcase_create("fio_fields");
	tcase_add_checked_fixture(tc, fio_setup, unload);
	tcase_add_test(tc, clones_are_one_unit);
	tcase_add_test(tc, rates_of_clones_add_up);
	tcase_add_test(tc, a_direction_not_done_has_no_value);
	tcase_add_loop_test(tc, percentiles_come_from_merged_bins, 0, TABLE_LEN(pct_cases));
	tcase_add_test(tc, latency_moments_merge);
	tcase_add_test(tc, cpu_adds_clones_without_iojob);
	tcase_add_test(tc, lat_over_counts_bins_without_iojob);
	tcase_add_test(tc, disk_util_is_the_busiest_targets);
	tcase_add_test(tc, keys_in_their_order);
	suite_add_tcase(s, tc);

	tc = tcase_create("iojob_object");
	tcase_add_checked_fixture(tc, iojob_setup, unload);
	tcase_add_test(tc, rates_use_iojob_runtime_ns);
	tcase_add_test(tc, cpu_is_the_processes_with_iojob);
	tcase_add_test(tc, lat_over_uses_iojobs_counts);
	suite_add_tcase(s, tc);

	tc = tcase_create("names");
	tcase_add_loop_test(tc, names_parse, 0, TABLE_LEN(name_cases));
	tcase_add_test(tc, bad_names_are_refused);
	tcase_add_test(tc, directions_of_improvement);
	tcase_add_test(tc, latency_units_follow_the_largest_value);
	suite_add_tcase(s, tc);

	tc = tcase_create("loading");
	tcase_add_test(tc, a_line_that_is_not_a_result_is_an_error);
	tcase_add_test(tc, a_line_cut_short_is_skipped);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(metrics_suite());
}
