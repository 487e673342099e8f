/*
 * Unit tests for output/resultset/table.c (the table model and its renderers) and the
 * numbers of the seed shapes in output/resultset/seed_tables.c: columns as wide as their
 * values, empty cells blank, each renderer's syntax, and sysbench's "Mb"/"Gb" figures
 * against the seeds' own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "output/resultset/resultset_read.h"
#include "output/resultset/seed_tables.h"
#include "output/resultset/table.h"
#include "test_util.h"

/* Render into a string; the caller frees it. */
static char *render(const struct table *t, enum table_style s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	table_render(f, t, s);
	fclose(f);
	return buf;
}

/* threads | A | B, the shape of seed table A, with B missing at 32 threads. */
static void seed_a(struct table *t)
{
	size_t r;

	ck_assert_int_eq(table_init(t, 3, "write bandwidth (MiB/s)"), 0);
	table_head(t, 0, "threads", TA_LEFT);
	table_head(t, 1, "32GB filesize, 100% space formatted", TA_RIGHT);
	table_head(t, 2, "SLC", TA_RIGHT);
	r = table_add_row(t);
	table_set(t, r, 0, "16");
	table_set(t, r, 1, "161.74");
	table_set(t, r, 2, "554.73");
	r = table_add_row(t);
	table_set(t, r, 0, "32");
	table_set(t, r, 1, "12345678.5");
	table_set(t, r, 2, NULL);
	ck_assert_int_eq(table_error(t), 0);
}

START_TEST(text_columns_fit_their_widest_value)
{
	struct table t;
	char *out;

	seed_a(&t);
	out = render(&t, TS_TEXT);
	ck_assert_str_eq(out,
		"write bandwidth (MiB/s)\n"
		"threads  32GB filesize, 100% space formatted     SLC\n"
		"-------  -----------------------------------  ------\n"
		"16                                    161.74  554.73\n"
		"32                                12345678.5        \n");
	ck_assert_ptr_null(strchr(out, '#'));
	free(out);
	table_free(&t);
}
END_TEST

START_TEST(empty_cells_stay_blank_in_every_renderer)
{
	static const char *const want[] = {
		[TS_MARKDOWN] = "| 32      |                          12345678.5 |        |\n",
		[TS_CSV] = "32,12345678.5,\r\n",
		[TS_DOKUWIKI] = "| 32       |                           12345678.5 |         |\n",
		[TS_HTML] = "<tr><td>32</td><td class=\"num\">12345678.5</td><td class=\"num\">"
			    "</td></tr>\n",
	};
	struct table t;
	char *out;

	seed_a(&t);
	out = render(&t, (enum table_style)_i);
	ck_assert_msg(strstr(out, want[_i]), "style %d:\n%s", _i, out);
	free(out);
	table_free(&t);
}
END_TEST

START_TEST(markdown_has_an_alignment_row)
{
	struct table t;
	char *out;

	seed_a(&t);
	out = render(&t, TS_MARKDOWN);
	ck_assert_ptr_nonnull(strstr(out, "**write bandwidth (MiB/s)**\n\n"));
	ck_assert_ptr_nonnull(strstr(out, "| ------- | ----------------------------------: "
					  "| -----: |\n"));
	free(out);
	table_free(&t);
}
END_TEST

START_TEST(dokuwiki_heads_use_carets)
{
	struct table t;
	char *out;

	seed_a(&t);
	out = render(&t, TS_DOKUWIKI);
	ck_assert_ptr_nonnull(strstr(out, "===== write bandwidth (MiB/s) =====\n\n"
		"^ threads  ^  32GB filesize, 100% space formatted ^     SLC ^\n"));
	free(out);
	table_free(&t);
}
END_TEST

START_TEST(csv_quotes_what_needs_it)
{
	struct table t;
	char *out;

	ck_assert_int_eq(table_init(&t, 2, NULL), 0);
	table_head(&t, 0, "label", TA_LEFT);
	table_head(&t, 1, "v", TA_RIGHT);
	table_set(&t, table_add_row(&t), 0, "md0, \"RAID0\"");
	out = render(&t, TS_CSV);
	ck_assert_str_eq(out, "label,v\r\n\"md0, \"\"RAID0\"\"\",\r\n");
	free(out);
	table_free(&t);
}
END_TEST

START_TEST(html_escapes_text)
{
	struct table t;
	char *out;

	ck_assert_int_eq(table_init(&t, 1, "a<b"), 0);
	table_head(&t, 0, "x&y", TA_LEFT);
	out = render(&t, TS_HTML);
	ck_assert_ptr_nonnull(strstr(out, "<caption>a&lt;b</caption>"));
	ck_assert_ptr_nonnull(strstr(out, "<th>x&amp;y</th>"));
	free(out);
	table_free(&t);
}
END_TEST

START_TEST(width_counts_characters_not_bytes)
{
	ck_assert_uint_eq(table_text_width("µs"), 2);
	ck_assert_uint_eq(table_text_width(""), 0);
	ck_assert_uint_eq(table_text_width(NULL), 0);
}
END_TEST

START_TEST(styles_by_name)
{
	enum table_style s;

	ck_assert_int_eq(table_style_parse("md", &s), 0);
	ck_assert_int_eq(s, TS_MARKDOWN);
	ck_assert_int_eq(table_style_parse("dokuwiki", &s), 0);
	ck_assert_int_eq(s, TS_DOKUWIKI);
	ck_assert_int_lt(table_style_parse("excel", &s), 0);
}
END_TEST

/* sysbench 0.4's bytes/sec figures: req/sec x 16 KiB, checked against the seeds' rows. */
static const struct { double req_per_s; const char *want; } sysbench_rows[] = {
	{ 7178.37, "112.16Mb" },	/* 000, 32G rndrd 1 thread */
	{ 68935.60, "1.0519Gb" },	/* seeds.md's check */
	{ 9471.89, "148Mb" },		/* 000, rndwr 1 thread at 75 % */
	{ 75105.48, "1.146Gb" },	/* 001, Virident rndrd 32 threads */
	{ 5881.02, "91.891Mb" },	/* 000, seqwr 8 threads */
};

START_TEST(sysbench_bytes_match_the_seeds)
{
	char buf[32];

	sysbench_bytes(sysbench_rows[_i].req_per_s * 16384, buf, sizeof(buf));
	ck_assert_str_eq(buf, sysbench_rows[_i].want);
}
END_TEST

START_TEST(sysbench_bytes_small_and_huge)
{
	char buf[32];

	sysbench_bytes(0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0b");
	sysbench_bytes(1023, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1023b");
	sysbench_bytes(3.0 * (1ULL << 50), buf, sizeof(buf));
	ck_assert_str_eq(buf, "3072Tb");	/* Tb is the largest unit */
}
END_TEST

START_TEST(sysbench_modes_from_fio_names)
{
	ck_assert_str_eq(sysbench_mode("randread"), "rndrd");
	ck_assert_str_eq(sysbench_mode("write"), "seqwr");
	ck_assert_str_eq(sysbench_mode("rndrw"), "rndrw");	/* given as sysbench's already */
	ck_assert_str_eq(sysbench_mode(NULL), "");
}
END_TEST

START_TEST(fio_names_from_sysbench_modes)
{
	ck_assert_str_eq(rw_fio_name("rndwr"), "randwrite");
	ck_assert_str_eq(rw_fio_name("seqrd"), "read");
	ck_assert_str_eq(rw_fio_name("seqrewr"), "write");
	ck_assert_str_eq(rw_fio_name("readwrite"), "rw");
	ck_assert_str_eq(rw_fio_name("randtrim"), "randtrim");	/* fio's own name */
	ck_assert(rs_value_is("rw", "rndwr", "randwrite"));
	ck_assert(rs_value_is("rw", "randread:8", "rndrd:8"));
	ck_assert(!rs_value_is("rw", "randread:8", "rndrd"));	/* the :N differs */
	ck_assert(!rs_value_is("bs", "rndwr", "randwrite"));	/* only rw's names */
	ck_assert(rs_value_is("bs", "4k", "4k"));
}
END_TEST

static Suite *table_suite(void)
{
	Suite *s = suite_create("table");
	TCase *tc;

	tc = tcase_create("renderers");
	tcase_add_test(tc, text_columns_fit_their_widest_value);
	tcase_add_loop_test(tc, empty_cells_stay_blank_in_every_renderer, TS_MARKDOWN,
			    TS_HTML + 1);
	tcase_add_test(tc, markdown_has_an_alignment_row);
	tcase_add_test(tc, dokuwiki_heads_use_carets);
	tcase_add_test(tc, csv_quotes_what_needs_it);
	tcase_add_test(tc, html_escapes_text);
	tcase_add_test(tc, width_counts_characters_not_bytes);
	tcase_add_test(tc, styles_by_name);
	suite_add_tcase(s, tc);

	tc = tcase_create("sysbench");
	tcase_add_loop_test(tc, sysbench_bytes_match_the_seeds, 0, TABLE_LEN(sysbench_rows));
	tcase_add_test(tc, sysbench_bytes_small_and_huge);
	tcase_add_test(tc, sysbench_modes_from_fio_names);
	tcase_add_test(tc, fio_names_from_sysbench_modes);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(table_suite());
}
