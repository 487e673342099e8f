/*
 * Unit tests for output/resultset/svg_chart.c: a series per polyline, missing points left out (not
 * drawn at 0), names escaped, log2 axes for powers of two. The e2e test parses whole
 * charts as XML; these check the pieces.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "output/resultset/svg_chart.h"
#include "test_util.h"

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (; (s = strstr(s, what)); s += strlen(what))
		n++;
	return n;
}

static char *draw(const struct svg_chart *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(svg_chart_write(f, c), 0);
	fclose(f);
	return buf;
}

/* Seed 000's random-write MiB/s, SLC missing at 32 and 64 threads. */
static const double threads[] = { 1, 4, 8, 16, 32, 64 };
static const double mlc[] = { 83.917, 130.83, 177.34, 161.74, 150.9, 146.08 };
static const double slc[] = { 134.33, 443.59, 566.54, 554.73, NAN, NAN };

START_TEST(missing_points_are_left_out)
{
	const struct svg_series s[] = {
		{ "32GB, 100% formatted", threads, mlc, 6 }, { "SLC & co", threads, slc, 6 },
	};
	char *out = draw(&(struct svg_chart){ "t", "threads", "MiB/s", SVG_LOG2, SVG_LINEAR,
					      NULL, 0, s, 2 });

	ck_assert_uint_eq(count(out, "<polyline class=\"series\""), 2);
	ck_assert_uint_eq(count(out, "class=\"point\" data-series=\"32GB"), 6);
	ck_assert_uint_eq(count(out, "class=\"point\" data-series=\"SLC &amp; co\""), 4);
	ck_assert_ptr_null(strstr(out, "nan"));
	ck_assert_ptr_nonnull(strstr(out, ">64</text>"));	/* a tick per power of two */
	free(out);
}
END_TEST

START_TEST(an_empty_chart_says_so)
{
	char *out = draw(&(struct svg_chart){ "t", "x", "y", SVG_LINEAR, SVG_LINEAR,
					      NULL, 0, NULL, 0 });

	ck_assert_ptr_nonnull(strstr(out, ">no data</text>"));
	ck_assert_ptr_nonnull(strstr(out, "</svg>\n"));
	free(out);
}
END_TEST

START_TEST(categories_name_their_ticks)
{
	static const char *const names[] = { "rndrd", "rndwr" };
	const double x[] = { 0, 1 }, y[] = { 5, 7 };
	const struct svg_series s = { "A", x, y, 2 };
	char *out = draw(&(struct svg_chart){ "t", "rw", "IOPS", SVG_CATEGORY, SVG_LINEAR,
					      names, 2, &s, 1 });

	ck_assert_ptr_nonnull(strstr(out, ">rndrd</text>"));
	ck_assert_ptr_nonnull(strstr(out, ">rndwr</text>"));
	free(out);
}
END_TEST

START_TEST(large_ticks_are_short_and_whole_x_has_no_fractions)
{
	const double x[] = { 1, 2 }, y[] = { 9686557, 14733097 };
	const struct svg_series s = { "one", x, y, 2 };
	char *out = draw(&(struct svg_chart){ "t", "numjobs", "IOPS", SVG_LINEAR, SVG_LINEAR,
					      NULL, 0, &s, 1 });

	ck_assert_ptr_nonnull(strstr(out, ">15M</text>"));
	ck_assert_ptr_nonnull(strstr(out, ">0</text>"));
	ck_assert_ptr_null(strstr(out, "15000000<"));
	ck_assert_ptr_null(strstr(out, ">1.5</text>"));	/* no thread count between 1 and 2 */
	free(out);
}
END_TEST

START_TEST(log_ticks_have_no_exponents)
{
	const double x[] = { 1, 2 }, y[] = { 0.002, 3e6 };
	const struct svg_series s = { "one", x, y, 2 };
	char *out = draw(&(struct svg_chart){ "t", "numjobs", "latency (ms)", SVG_LINEAR,
					      SVG_LOG10, NULL, 0, &s, 1 });

	ck_assert_ptr_nonnull(strstr(out, ">0.001</text>"));
	ck_assert_ptr_nonnull(strstr(out, ">10k</text>"));
	ck_assert_ptr_nonnull(strstr(out, ">1M</text>"));
	ck_assert_ptr_null(strstr(out, "e+0"));	/* 1e+06 */
	ck_assert_ptr_null(strstr(out, "e-0"));	/* 1e-03 */
	free(out);
}
END_TEST

START_TEST(heatmap_legend_counts_are_short)
{
	const double xe[] = { 0, 1 }, ye[] = { 1, 2 }, n[] = { 2171000 };
	const struct svg_heat h = { xe, ye, 1, 1, n };
	char *out = draw(&(struct svg_chart){ .title = "t", .x_label = "s", .y_label = "us",
					      .mark = SVG_HEATMAP, .heat = &h });

	ck_assert_ptr_nonnull(strstr(out, ">2.17M</text>"));	/* fits before the edge */
	ck_assert_ptr_null(strstr(out, ">2171000</text>"));
	free(out);
}
END_TEST

START_TEST(powers_of_two)
{
	const double yes[] = { 1, 2, 64, 512 }, no[] = { 1, 3 }, zero[] = { 0, 2 };

	ck_assert(svg_powers_of_two(yes, 4));
	ck_assert(!svg_powers_of_two(no, 2));
	ck_assert(!svg_powers_of_two(zero, 2));
	ck_assert(!svg_powers_of_two(yes, 0));
}
END_TEST

START_TEST(title_desc_and_subtitle_for_readers)
{
	const double x[] = { 1, 2 }, y[] = { 5, 7 }, e[] = { 1, NAN };
	const struct svg_series s = { "iodepth=1", x, y, 2, .err = e };
	char *out = draw(&(struct svg_chart){ .title = "IOPS & co", .x_label = "numjobs",
					      .y_label = "IOPS", .series = &s, .nseries = 1,
					      .subtitle = "bs=4k; host h", .desc = "more" });

	ck_assert_ptr_nonnull(strstr(out, "<title>IOPS &amp; co</title>"));
	ck_assert_ptr_nonnull(strstr(out, "<desc>bs=4k; host h. more</desc>"));
	ck_assert_ptr_nonnull(strstr(out, "class=\"subtitle\""));
	ck_assert_uint_eq(count(out, "class=\"err\""), 1);	/* no bar for a NAN sigma */
	ck_assert_uint_eq(count(out, "class=\"axis\""), 2);
	free(out);
}
END_TEST

START_TEST(bars_on_two_axes)
{
	static const char *const names[] = { "iodepth=1", "iodepth=4" };
	const double x[] = { 0, 1 }, iops[] = { 1000, 4000 }, lat[] = { 10, NAN };
	const struct svg_series s[] = {
		{ "IOPS", x, iops, 2 }, { "lat", x, lat, 2, .y2 = true },
	};
	char *out = draw(&(struct svg_chart){ .title = "t", .x_label = "iodepth",
					      .y_label = "IOPS", .x_scale = SVG_CATEGORY,
					      .x_names = names, .nx_names = 2, .series = s,
					      .nseries = 2, .mark = SVG_BARS, .y2_label = "us" });

	ck_assert_uint_eq(count(out, "class=\"bar\""), 3);	/* the missing one left out */
	ck_assert_uint_eq(count(out, "data-axis=\"y2\" x="), 1);
	ck_assert_ptr_nonnull(strstr(out, "data-axis=\"y2\" data-scale"));
	free(out);
}
END_TEST

START_TEST(heatmap_cells_hold_counts)
{
	const double xe[] = { 0, 1, 2 }, ye[] = { 1, 2, 4 }, n[] = { 3, 0, 1, 5 };
	const struct svg_heat h = { xe, ye, 2, 2, n };
	char *out = draw(&(struct svg_chart){ .title = "t", .x_label = "s", .y_label = "us",
					      .mark = SVG_HEATMAP, .heat = &h });

	ck_assert_uint_eq(count(out, "class=\"cell\""), 3);	/* no cell for 0 */
	ck_assert_ptr_nonnull(strstr(out, "data-count=\"5\""));
	free(out);
}
END_TEST

START_TEST(bars3d_one_group_per_value)
{
	static const char *const names[] = { "1", "4" };
	const double x[] = { 0, 1 }, a[] = { 10, 20 }, b[] = { 30, NAN };
	const struct svg_series s[] = { { "numjobs=1", x, a, 2 }, { "numjobs=2", x, b, 2 } };
	char *out = draw(&(struct svg_chart){ .title = "t", .x_label = "iodepth",
					      .y_label = "IOPS", .x_scale = SVG_CATEGORY,
					      .x_names = names, .nx_names = 2, .series = s,
					      .nseries = 2, .mark = SVG_BARS3D });

	ck_assert_uint_eq(count(out, "class=\"bar3d\""), 3);
	ck_assert_uint_eq(count(out, "<polygon"), 9);	/* front, side, top each */
	free(out);
}
END_TEST

static Suite *svg_suite(void)
{
	Suite *s = suite_create("svg");
	TCase *tc = tcase_create("chart");

	tcase_add_test(tc, missing_points_are_left_out);
	tcase_add_test(tc, an_empty_chart_says_so);
	tcase_add_test(tc, categories_name_their_ticks);
	tcase_add_test(tc, large_ticks_are_short_and_whole_x_has_no_fractions);
	tcase_add_test(tc, log_ticks_have_no_exponents);
	tcase_add_test(tc, heatmap_legend_counts_are_short);
	tcase_add_test(tc, powers_of_two);
	tcase_add_test(tc, title_desc_and_subtitle_for_readers);
	tcase_add_test(tc, bars_on_two_axes);
	tcase_add_test(tc, heatmap_cells_hold_counts);
	tcase_add_test(tc, bars3d_one_group_per_value);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(svg_suite());
}
