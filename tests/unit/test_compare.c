/*
 * Unit tests for output/resultset/compare.c: ratios that know which way a metric improves, and the
 * compare tables of seed 003 (table I) rebuilt from result lines carrying its figures:
 * ioDrive against a 4-disk md RAID0, 4 KiB random reads and writes at iodepth 32.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "output/resultset/compare.h"
#include "output/resultset/resultset_read.h"
#include "output/resultset/table.h"
#include "base/diag.h"
#include "test_util.h"

#define GIB20		"21474836480"
#define IOS20		"5242880"

/* A direction of a run: fio's IOPS, bw_bytes (its KiB/s times 1024) and runtime in ms. */
#define DIR(iops, kib_s, ms) \
	"{\"io_bytes\": " GIB20 ", \"bw_bytes\": " #kib_s ", \"iops\": " #iops \
	", \"runtime\": " #ms ", \"total_ios\": " IOS20 "}"
#define NONE	"{\"io_bytes\": 0, \"bw_bytes\": 0, \"iops\": 0.0, \"runtime\": 0, \"total_ios\": 0}"

#define LINE(label, job, read, write) \
	"{\"iojob_result\": 1, \"label\": \"" label "\", \"cell\": {}, \"report\": {\"jobs\": " \
	"[{\"jobname\": \"" job "\", \"groupid\": 0, \"read\": " read ", \"write\": " write \
	"}]}}\n"

/* Seed 003's figures: IOPS, KiB/s and runtime in ms of each run. */
static const char iodrive[] =
	LINE("ioDrive", "random-read", DIR(39403.0, 161396736, 133056), NONE)
	LINE("ioDrive", "random-write", NONE, DIR(5851.0, 23967744, 895978));
static const char md0[] =
	LINE("md0", "random-read", DIR(868.0, 3558400, 6033707), NONE)
	LINE("md0", "random-write", NONE, DIR(2518.0, 10316800, 2081336));

struct side_data {
	char path[64];
	struct rs_set set;
	struct rs_sel sel;
};

static struct side_data sd[2];
static struct cmp_side sides[2];
static struct table *tables;
static int ntables;

/* A new temporary file for a side's lines, open for writing. */
static FILE *side_file(struct side_data *s)
{
	int fd;

	snprintf(s->path, sizeof(s->path), "/tmp/iojob-test-compare-XXXXXX");
	fd = mkstemp(s->path);
	ck_assert_int_ge(fd, 0);
	return fdopen(fd, "w");
}

/* Load the side's file and index every unit of it; returns how many there are. */
static size_t index_side(struct side_data *s, struct cmp_side *side)
{
	struct diag d = { 0 };
	int n;

	ck_assert_msg(rs_load(&s->set, s->path, &d) == 0, "%s", d.msg);
	n = rs_select(&s->set, NULL, NULL, 0, &s->sel);
	ck_assert_int_ge(n, 0);
	side->units = malloc(s->sel.n * sizeof(*side->units));
	for (size_t i = 0; i < s->sel.n; i++)
		side->units[i] = &s->sel.units[i];
	side->n = s->sel.n;
	ck_assert_int_eq(compare_index(side), 0);
	return (size_t)n;
}

static void load_side(struct side_data *s, struct cmp_side *side, const char *text,
		      const char *name)
{
	FILE *f = side_file(s);

	fputs(text, f);
	fclose(f);
	side->name = name;
	ck_assert_uint_eq(index_side(s, side), 2);
}

static void seed003_setup(void)
{
	struct metric m[3];

	memset(sd, 0, sizeof(sd));
	memset(sides, 0, sizeof(sides));
	load_side(&sd[0], &sides[0], iodrive, "ioDrive");
	load_side(&sd[1], &sides[1], md0, "md0");
	ck_assert_int_eq(metric_parse("iops", &m[0]), 0);
	ck_assert_int_eq(metric_parse("bw_mib", &m[1]), 0);
	ck_assert_int_eq(metric_parse("runtime", &m[2]), 0);
	ntables = compare_tables(sides, 2, m, 3, &tables);
	ck_assert_int_eq(ntables, 2);
}

static void seed003_teardown(void)
{
	for (int i = 0; i < ntables; i++)
		table_free(&tables[i]);
	free(tables);
	for (int s = 0; s < 2; s++) {
		compare_index_free(&sides[s]);
		free(sides[s].units);
		rs_sel_free(&sd[s].sel);
		rs_free(&sd[s].set);
		unlink(sd[s].path);
	}
}

/* The row of a table whose metric column is title. */
static size_t row_of(const struct table *t, const char *title)
{
	for (size_t r = 0; r < t->nrows; r++)
		if (!strcmp(table_get(t, r, 0), title))
			return r;
	ck_abort_msg("no row '%s' in '%s'", title, t->title);
	return 0;
}

static const struct {
	int table;
	const char *row, *a, *b, *ratio, *better;
} seed003_rows[] = {
	{ 0, "read IOPS", "39403", "868", "45.4x", "ioDrive" },
	{ 0, "read bandwidth (MiB/s)", "153.9", "3.4", "45.4x", "ioDrive" },
	/* the seed divided 133/6033; lower is better, so it is 6033.7 / 133.1 */
	{ 0, "read runtime (s)", "133", "6034", "45.3x", "ioDrive" },
	{ 1, "write IOPS", "5851", "2518", "2.32x", "ioDrive" },
	{ 1, "write bandwidth (MiB/s)", "22.86", "9.84", "2.32x", "ioDrive" },
	{ 1, "write runtime (s)", "896", "2081", "2.32x", "ioDrive" },
};

START_TEST(seed003_ratios_and_better_side)
{
	const struct table *t = &tables[seed003_rows[_i].table];
	size_t r = row_of(t, seed003_rows[_i].row);

	ck_assert_str_eq(table_get(t, r, 1), seed003_rows[_i].a);
	ck_assert_str_eq(table_get(t, r, 2), seed003_rows[_i].b);
	ck_assert_str_eq(table_get(t, r, 3), seed003_rows[_i].ratio);
	ck_assert_str_eq(table_get(t, r, 4), seed003_rows[_i].better);
}
END_TEST

START_TEST(seed003_tables_are_per_job_and_direction)
{
	ck_assert_str_eq(tables[0].title, "job 'random-read'");
	ck_assert_str_eq(tables[1].title, "job 'random-write'");
	ck_assert_uint_eq(tables[0].nrows, 3);	/* reads only: the job wrote nothing */
	ck_assert_str_eq(tables[0].head[1], "ioDrive");
	ck_assert_str_eq(tables[0].head[2], "md0");
	ck_assert_str_eq(tables[0].head[3], "ratio");
}
END_TEST

START_TEST(higher_is_better)
{
	const double v[] = { 868, 39403 };
	double ratio;

	ck_assert_int_eq(compare_ratio(BETTER_HIGHER, v, 2, &ratio), 1);
	ck_assert_double_eq_tol(ratio, 39403.0 / 868, 1e-12);
}
END_TEST

START_TEST(lower_is_better)
{
	const double v[] = { 133.056, 6033.707, NAN };
	double ratio;

	ck_assert_int_eq(compare_ratio(BETTER_LOWER, v, 3, &ratio), 0);
	ck_assert_double_eq_tol(ratio, 6033.707 / 133.056, 1e-12);
}
END_TEST

START_TEST(no_winner_without_two_values_or_a_difference)
{
	const double one[] = { 5, NAN }, same[] = { 7, 7 };
	double ratio;

	ck_assert_int_eq(compare_ratio(BETTER_HIGHER, one, 2, &ratio), -1);
	ck_assert(isnan(ratio));
	ck_assert_int_eq(compare_ratio(BETTER_LOWER, same, 2, &ratio), -1);
	ck_assert_double_eq(ratio, 1);
}
END_TEST

START_TEST(a_zero_makes_the_ratio_infinite)
{
	const double v[] = { 0, 3 };
	double ratio;
	char buf[16];

	ck_assert_int_eq(compare_ratio(BETTER_LOWER, v, 2, &ratio), 0);
	ck_assert(isinf(ratio));
	compare_ratio_str(ratio, buf, sizeof(buf));
	ck_assert_str_eq(buf, "inf");
}
END_TEST

START_TEST(metrics_without_a_direction_name_no_winner)
{
	const double v[] = { 10, 20 };
	double ratio;

	ck_assert_int_eq(compare_ratio(BETTER_NONE, v, 2, &ratio), -1);
	ck_assert_double_eq(ratio, 2);
}
END_TEST

static const struct { double ratio; const char *want; } ratio_strs[] = {
	{ 45.395, "45.4x" }, { 2.3237, "2.32x" }, { 123.4, "123x" }, { 1, "1.00x" },
	{ NAN, "" },
};

START_TEST(ratios_print_with_three_digits)
{
	char buf[16];

	compare_ratio_str(ratio_strs[_i].ratio, buf, sizeof(buf));
	ck_assert_str_eq(buf, ratio_strs[_i].want);
}
END_TEST

/*
 * The index behind compare_runs/compare_find: many cells, a side in reverse order, a cell
 * run again (the later line counts) and a cell only one side has.
 */
#define GRID	3000

static void write_side(struct side_data *s, struct cmp_side *side, int reverse, int extra)
{
	FILE *f = side_file(s);

	for (int i = 0; i < GRID + extra; i++)
		fprintf(f, "{\"iojob_result\": 1, \"label\": \"\", \"cell\": {\"x\": \"%d\"}, "
			"\"report\": {\"jobs\": [{\"jobname\": \"j\", \"groupid\": 0}]}}\n",
			reverse ? GRID - 1 - i : i);
	if (reverse)	/* x=5 again, after the rest */
		fprintf(f, "{\"iojob_result\": 1, \"label\": \"\", \"cell\": {\"x\": \"5\"}, "
			"\"report\": {\"jobs\": [{\"jobname\": \"j\", \"groupid\": 0}]}}\n");
	fclose(f);
	index_side(s, side);
}

START_TEST(runs_keep_first_order_and_find_the_last_line)
{
	const struct rs_unit **reps = malloc(2 * (GRID + 2) * sizeof(*reps));
	char want[64], got[64];
	size_t n;

	memset(sd, 0, sizeof(sd));
	memset(sides, 0, sizeof(sides));
	write_side(&sd[0], &sides[0], 1, 0);
	write_side(&sd[1], &sides[1], 0, 1);
	ck_assert_uint_eq(sides[0].n, GRID + 1);
	n = compare_runs(sides, 2, reps, 2 * (GRID + 2));
	ck_assert_uint_eq(n, GRID + 1);	/* each x once, B's extra one last */
	for (size_t i = 0; i < n; i++) {
		snprintf(want, sizeof(want), "x=%zu", i < GRID ? GRID - 1 - i : i);
		rs_cell_str(reps[i]->cell, "", got, sizeof(got));
		ck_assert_str_eq(got, want);
	}
	ck_assert_ptr_eq(compare_find(&sides[0], reps[GRID - 1 - 5]), sides[0].units[GRID]);
	ck_assert_ptr_eq(compare_find(&sides[1], reps[GRID - 1 - 5]), sides[1].units[5]);
	ck_assert_ptr_null(compare_find(&sides[0], reps[GRID]));
	ck_assert_uint_eq(compare_common(sides, 2), GRID);
	for (int s = 0; s < 2; s++) {
		compare_index_free(&sides[s]);
		free(sides[s].units);
		rs_sel_free(&sd[s].sel);
		rs_free(&sd[s].set);
		unlink(sd[s].path);
	}
	free(reps);
}
END_TEST

static Suite *compare_suite(void)
{
	Suite *s = suite_create("compare");
	TCase *tc;

	tc = tcase_create("ratio");
	tcase_add_test(tc, higher_is_better);
	tcase_add_test(tc, lower_is_better);
	tcase_add_test(tc, no_winner_without_two_values_or_a_difference);
	tcase_add_test(tc, a_zero_makes_the_ratio_infinite);
	tcase_add_test(tc, metrics_without_a_direction_name_no_winner);
	tcase_add_loop_test(tc, ratios_print_with_three_digits, 0, TABLE_LEN(ratio_strs));
	suite_add_tcase(s, tc);

	tc = tcase_create("seed003");
	tcase_add_checked_fixture(tc, seed003_setup, seed003_teardown);
	tcase_add_loop_test(tc, seed003_ratios_and_better_side, 0, TABLE_LEN(seed003_rows));
	tcase_add_test(tc, seed003_tables_are_per_job_and_direction);
	suite_add_tcase(s, tc);

	tc = tcase_create("index");
	tcase_add_test(tc, runs_keep_first_order_and_find_the_last_line);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(compare_suite());
}
