/* Unit tests for parser/value.c: sizes, percentages, ranges, times, booleans, numbers, lists. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "parser/expr.h"
#include "parser/value.h"
#include "test_util.h"

#define KiB	1024ULL
#define MiB	(1024 * KiB)
#define GiB	(1024 * MiB)
#define TiB	(1024 * GiB)
#define PiB	(1024 * TiB)
#define SEC	1000000000ULL
#define UNTOUCHED	0xdeadbeefULL

struct size_case {
	const char *text;
	unsigned kb_base;
	int ret;
	uint64_t want;
};

static const struct size_case suffix_cases[] = {
	{ "0", 1024, 0, 0 },
	{ "512", 1024, 0, 512 },
	{ " 4k\t", 1024, 0, 4 * KiB },
	{ "4096b", 1024, 0, 4096 },
	{ "4096B", 1000, 0, 4096 },
	{ "1k", 1024, 0, KiB },
	{ "1K", 1024, 0, KiB },
	{ "1kb", 1024, 0, KiB },
	{ "1KB", 1024, 0, KiB },
	{ "1kB", 1024, 0, KiB },
	{ "0x400", 1024, 0, KiB },
	{ "0X400", 1000, 0, KiB },
	{ "0x10k", 1024, 0, 16 * KiB },
	{ "1m", 1024, 0, MiB },
	{ "1MB", 1024, 0, MiB },
	{ "1g", 1024, 0, GiB },
	{ "1GB", 1024, 0, GiB },
	{ "1t", 1024, 0, TiB },
	{ "1TB", 1024, 0, TiB },
	{ "1p", 1024, 0, PiB },
	{ "1PB", 1024, 0, PiB },
	{ "1k", 1000, 0, 1000 },
	{ "1K", 1000, 0, 1000 },
	{ "1KB", 1000, 0, 1000 },
	{ "1M", 1000, 0, 1000000 },
	{ "1mb", 1000, 0, 1000000 },
	{ "1g", 1000, 0, 1000000000 },
	{ "1t", 1000, 0, 1000000000000ULL },
	{ "1p", 1000, 0, 1000000000000000ULL },
	{ "1KiB", 1024, 0, KiB },
	{ "1KiB", 1000, 0, KiB },
	{ "1kib", 1000, 0, KiB },
	{ "1Ki", 1024, 0, KiB },
	{ "1Ki", 1000, 0, KiB },
	{ "1Mi", 1024, 0, MiB },
	{ "1Mi", 1000, 0, MiB },
	{ "1MiB", 1024, 0, MiB },
	{ "1MiB", 1000, 0, MiB },
	{ "1GiB", 1000, 0, GiB },
	{ "1Gi", 1000, 0, GiB },
	{ "1TiB", 1000, 0, TiB },
	{ "1Ti", 1024, 0, TiB },
	{ "1PiB", 1000, 0, PiB },
	{ "1Pi", 1024, 0, PiB },
	{ "16383p", 1024, 0, 16383 * PiB },
	{ "18446744073709551615", 1024, 0, UINT64_MAX },
	{ "0xffffffffffffffff", 1024, 0, UINT64_MAX },
};

static const struct size_case fraction_cases[] = {
	{ "1.5k", 1024, 0, 1536 },
	{ "1.5k", 1000, 0, 1500 },
	{ "1.5g", 1024, 0, 1610612736 },
	{ "0.5m", 1024, 0, 512 * KiB },
	{ "2.5KiB", 1000, 0, 2560 },
	{ "0.1p", 1000, 0, 100000000000000ULL },
	{ "0.001k", 1024, 0, 1 },
	{ "0.0001k", 1024, 0, 0 },
	{ "1.999999999999999999999k", 1000, 0, 1999 },
	{ "1.5", 1024, 0, 1 },
	{ "67108864.0", 1024, 0, 67108864 },
	{ "4096.7", 1000, 0, 4096 },
	{ " 100.0 ", 1024, 0, 100 },
	{ "1.5b", 1024, -EINVAL, 0 },
	{ "0x1.5k", 1024, -EINVAL, 0 },
};

static const struct size_case overflow_cases[] = {
	{ "16384p", 1024, -ERANGE, 0 },
	{ "18446744073709551616", 1024, -ERANGE, 0 },
	{ "99999999999999999999999", 1024, -ERANGE, 0 },
	{ "0x10000000000000000", 1024, -ERANGE, 0 },
	{ "18446744073709551615k", 1024, -ERANGE, 0 },
	{ "18446.744073709551616p", 1000, -ERANGE, 0 },
	{ "16383.99999p", 1024, 0, 18446744062450552547ULL },
};

static const struct size_case garbage_cases[] = {
	{ "4q", 1024, -EINVAL, 0 },
	{ "", 1024, -EINVAL, 0 },
	{ "   ", 1024, -EINVAL, 0 },
	{ "k", 1024, -EINVAL, 0 },
	{ "-1", 1024, -EINVAL, 0 },
	{ "+1", 1024, -EINVAL, 0 },
	{ "1.2.3", 1024, -EINVAL, 0 },
	{ "1.", 1024, -EINVAL, 0 },
	{ ".5k", 1024, -EINVAL, 0 },
	{ "0x", 1024, -EINVAL, 0 },
	{ "1 k", 1024, -EINVAL, 0 },
	{ "1kk", 1024, -EINVAL, 0 },
	{ "1kbb", 1024, -EINVAL, 0 },
	{ "1ib", 1024, -EINVAL, 0 },
	{ "1e3", 1024, -EINVAL, 0 },
	{ "10%", 1024, -EINVAL, 0 },
	{ "1k", 1001, -EINVAL, 0 },
	{ "1k", 0, -EINVAL, 0 },
};

static void check_size_case(const struct size_case *c)
{
	uint64_t v = UNTOUCHED;
	int ret;

	ret = value_parse_size(c->text, c->kb_base, &v);
	ck_assert_msg(ret == c->ret, "'%s' (kb_base %u): returned %d, expected %d", c->text,
		      c->kb_base, ret, c->ret);
	ck_assert_msg(v == (c->ret ? UNTOUCHED : c->want), "'%s' (kb_base %u): got %llu",
		      c->text, c->kb_base, (unsigned long long)v);
}

START_TEST(size_accepts_every_suffix_in_both_kb_bases)
{
	check_size_case(&suffix_cases[_i]);
}
END_TEST

START_TEST(size_truncates_fractions_to_whole_bytes)
{
	check_size_case(&fraction_cases[_i]);
}
END_TEST

START_TEST(size_reports_overflow_as_erange)
{
	check_size_case(&overflow_cases[_i]);
}
END_TEST

START_TEST(size_rejects_garbage_as_einval)
{
	check_size_case(&garbage_cases[_i]);
}
END_TEST

/* What fio's size parser reads of each, as measured on fio 3.33 (bs=4kx is 4096 there). */
static const struct {
	const char *text;
	size_t len;
} prefix_cases[] = {
	{ "65536)", 5 }, { "4kx", 2 }, { "4KiB)", 4 }, { "4kb;", 3 }, { "4x", 1 }, { "4 k", 1 },
	{ "1.5m!", 4 }, { "0x10)", 4 }, { " 8k)", 3 }, { "16", 2 }, { "x4k", 0 }, { "", 0 },
	{ ".5k", 0 }, { "0x", 1 }, { "50%)", 3 }, { "50%k", 3 },
};

START_TEST(size_prefix_is_what_fio_reads)
{
	ck_assert_uint_eq(value_size_prefix(prefix_cases[_i].text), prefix_cases[_i].len);
}
END_TEST

struct pct_case {
	const char *text;
	int ret;
	uint64_t size;
	double pct;
};

static const struct pct_case pct_cases[] = {
	{ "50%", 0, 0, 50 },
	{ " 12.5% ", 0, 0, 12.5 },
	{ "100%", 0, 0, 100 },
	{ "0.5%", 0, 0, 0.5 },
	{ "4k", 0, 4096, 0 },
	{ "0%", -ERANGE, 0, 0 },
	{ "100.1%", -ERANGE, 0, 0 },
	{ "101%", -ERANGE, 0, 0 },
	{ "%", -EINVAL, 0, 0 },
	{ "-5%", -EINVAL, 0, 0 },
	{ "5 %", -EINVAL, 0, 0 },
	{ "5k%", -EINVAL, 0, 0 },
	{ "abc", -EINVAL, 0, 0 },
	{ "(2*", -EINVAL, 0, 0 },	/* an expression that fails leaves pct alone too */
	{ "(2*4k)", 0, 8192, 0 },
};

START_TEST(size_pct_accepts_percentages_up_to_100)
{
	const struct pct_case *c = &pct_cases[_i];
	uint64_t v = UNTOUCHED;
	double pct = -1;
	int ret;

	ret = value_parse_size_pct(c->text, 1024, &v, &pct);
	ck_assert_msg(ret == c->ret, "'%s': returned %d, expected %d", c->text, ret, c->ret);
	if (c->ret) {
		ck_assert_uint_eq(v, UNTOUCHED);
		ck_assert_double_eq(pct, -1);
	} else {
		ck_assert_uint_eq(v, c->size);
		ck_assert_double_eq_tol(pct, c->pct, 1e-9);
	}
}
END_TEST

struct range_case {
	const char *text;
	unsigned kb_base;
	int ret;
	uint64_t lo, hi;
};

static const struct range_case range_cases[] = {
	{ "4k-64k", 1024, 0, 4 * KiB, 64 * KiB },
	{ "4k:64k", 1024, 0, 4 * KiB, 64 * KiB },
	{ "64k-4k", 1024, -EDOM, 0, 0 },
	{ "64k:4k", 1024, -EDOM, 0, 0 },
	{ " 4k - 8k ", 1024, 0, 4 * KiB, 8 * KiB },
	{ "4k", 1024, 0, 4 * KiB, 4 * KiB },
	{ "1k:1KiB", 1000, 0, 1000, 1024 },
	{ "1KiB:1k", 1000, -EDOM, 0, 0 },
	{ "4k-", 1024, -EINVAL, 0, 0 },
	{ "-4k", 1024, -EINVAL, 0, 0 },
	{ "4k-8k-16k", 1024, -EINVAL, 0, 0 },
	{ "4k-8q", 1024, -EINVAL, 0, 0 },
	{ "4k-16384p", 1024, -ERANGE, 0, 0 },
	{ "", 1024, -EINVAL, 0, 0 },
};

/* fio's reading of what value_parse_size_range() refuses: first and last value, prefixes */
static const struct loose_case {
	const char *text;
	int ret;
	uint64_t lo, hi;
	unsigned n;
} loose_cases[] = {
	{ "16-8k/8M-512M", 0, 16, 512 * MiB, 3 },
	{ "4k-8k-16k", 0, 4 * KiB, 16 * KiB, 3 },
	{ "4k,8k:2m", 0, 4 * KiB, 2 * MiB, 3 },
	{ "8kib/x-1m", 0, 8 * KiB, MiB, 2 },
	{ "4k-8mq", 0, 4 * KiB, 8 * MiB, 2 },
	{ "1M-2Mxyz", -EINVAL, 0, 0, 0 },	/* fio: "'z' suffix isn't applicable" */
	{ "4k-x", -EINVAL, 0, 0, 0 },
	{ "4k-", -EINVAL, 0, 0, 0 },
	{ "8M-4M", -EDOM, 0, 0, 0 },		/* fio 3.33 lays out a file of 84 GB */
	{ "50%-1m", -EINVAL, 0, 0, 0 },
};

START_TEST(size_range_loose_reads_as_fio)
{
	const struct loose_case *c = &loose_cases[_i];
	uint64_t lo = UNTOUCHED, hi = UNTOUCHED;
	unsigned n = 0;
	int ret;

	ret = value_parse_size_range_loose(c->text, 1024, &lo, &hi, &n);
	ck_assert_msg(ret == c->ret, "'%s': returned %d, expected %d", c->text, ret, c->ret);
	if (!c->ret) {
		ck_assert_uint_eq(lo, c->lo);
		ck_assert_uint_eq(hi, c->hi);
		ck_assert_uint_eq(n, c->n);
	}
}
END_TEST

START_TEST(size_range_refuses_reversed_bounds)
{
	const struct range_case *c = &range_cases[_i];
	uint64_t lo = UNTOUCHED, hi = UNTOUCHED;
	int ret;

	ret = value_parse_size_range(c->text, c->kb_base, &lo, &hi);
	ck_assert_msg(ret == c->ret, "'%s': returned %d, expected %d", c->text, ret, c->ret);
	ck_assert_uint_eq(lo, c->ret ? UNTOUCHED : c->lo);
	ck_assert_uint_eq(hi, c->ret ? UNTOUCHED : c->hi);
}
END_TEST

struct time_case {
	const char *text;
	uint64_t unit_ns;
	int ret;
	uint64_t want_ns;
};

static const struct time_case time_cases[] = {
	{ "1ns", SEC, 0, 1 },
	{ "1nsec", SEC, 0, 1 },
	{ "5us", SEC, 0, 5000 },
	{ "5usec", SEC, 0, 5000 },
	{ "5ms", SEC, 0, 5000000 },
	{ "5msec", SEC, 0, 5000000 },
	{ "2s", 1000, 0, 2 * SEC },
	{ "2sec", 1000, 0, 2 * SEC },
	{ "2m", 1000, 0, 120 * SEC },
	{ "2min", 1000, 0, 120 * SEC },
	{ "1h", 1000, 0, 3600 * SEC },
	{ "1d", 1000, 0, 86400 * SEC },
	{ "1NS", SEC, 0, 1 },
	{ "1USEC", SEC, 0, 1000 },
	{ "1Ms", SEC, 0, 1000000 },
	{ "1M", SEC, 0, 60 * SEC },
	{ "1S", 1000, 0, SEC },
	{ "1H", SEC, 0, 3600 * SEC },
	{ "1D", SEC, 0, 86400 * SEC },
	{ " 3s ", SEC, 0, 3 * SEC },
	{ "10", SEC, 0, 10 * SEC },
	{ "10", 1000, 0, 10000 },
	{ "10", 1000000, 0, 10000000 },
	{ "10", 1, 0, 10 },
	{ "1.5s", 1000, 0, 1500000000 },
	{ "0.5", SEC, 0, SEC / 2 },
	{ "2.5", 1000, 0, 2500 },
	{ "0.25h", SEC, 0, 900 * SEC },
	{ "1.5ns", SEC, 0, 1 },
	{ "18446744073709551615ns", SEC, 0, UINT64_MAX },
	{ "18446744073709551616ns", SEC, -ERANGE, 0 },
	{ "999999999999d", SEC, -ERANGE, 0 },
	{ "18446744074", SEC, -ERANGE, 0 },
	{ "", SEC, -EINVAL, 0 },
	{ "s", SEC, -EINVAL, 0 },
	{ "1x", SEC, -EINVAL, 0 },
	{ "-1s", SEC, -EINVAL, 0 },
	{ "1.2.3s", SEC, -EINVAL, 0 },
	{ "1 s", SEC, -EINVAL, 0 },
	{ "0x10", SEC, -EINVAL, 0 },
	{ "1hr", SEC, -EINVAL, 0 },
	{ "1", 0, -EINVAL, 0 },
};

START_TEST(time_accepts_every_unit_and_the_default_unit)
{
	const struct time_case *c = &time_cases[_i];
	uint64_t v = UNTOUCHED;
	int ret;

	ret = value_parse_time(c->text, c->unit_ns, &v);
	ck_assert_msg(ret == c->ret, "'%s': returned %d, expected %d", c->text, ret, c->ret);
	ck_assert_msg(v == (c->ret ? UNTOUCHED : c->want_ns), "'%s': got %llu", c->text,
		      (unsigned long long)v);
}
END_TEST

struct bool_case {
	const char *text;
	int ret;
	bool want;
};

static const struct bool_case bool_cases[] = {
	{ "1", 0, true }, { "0", 0, false },
	{ "true", 0, true }, { "false", 0, false },
	{ "yes", 0, true }, { "no", 0, false },
	{ "on", 0, true }, { "off", 0, false },
	{ "TRUE", 0, true }, { "Off", 0, false },
	{ " yes ", 0, true }, { "", 0, true }, { "  ", 0, true },
	{ "2", -EINVAL, false }, { "y", -EINVAL, false }, { "truee", -EINVAL, false },
	{ "-1", -EINVAL, false }, { "nope", -EINVAL, false },
	{ "1.0", 0, true }, { "0.0", 0, false }, { "0.5", 0, false }, { "0x1", 0, true },
	{ "2.0", -EINVAL, false }, { "1x", -EINVAL, false }, { "1.", -EINVAL, false },
};

START_TEST(bool_accepts_words_and_empty_as_true)
{
	const struct bool_case *c = &bool_cases[_i];
	bool v = !c->want;
	int ret;

	ret = value_parse_bool(c->text, &v);
	ck_assert_msg(ret == c->ret, "'%s': returned %d, expected %d", c->text, ret, c->ret);
	ck_assert_msg(v == (c->ret ? !c->want : c->want), "'%s': got %d", c->text, v);
}
END_TEST

struct int_case {
	const char *text;
	int ret;
	long long want;
};

static const struct int_case int_cases[] = {
	{ "0", 0, 0 },
	{ "42", 0, 42 },
	{ "-42", 0, -42 },
	{ "+7", 0, 7 },
	{ " 12 ", 0, 12 },
	{ "010", 0, 10 },
	{ "0x10", 0, 16 },
	{ "0XfF", 0, 255 },
	{ "-0x10", 0, -16 },
	{ "9223372036854775807", 0, INT64_MAX },
	{ "-9223372036854775808", 0, INT64_MIN },
	{ "9223372036854775808", -ERANGE, 0 },
	{ "-9223372036854775809", -ERANGE, 0 },
	{ "0x8000000000000000", -ERANGE, 0 },
	{ "99999999999999999999", -ERANGE, 0 },
	{ "", -EINVAL, 0 },
	{ "-", -EINVAL, 0 },
	{ "0x", -EINVAL, 0 },
	{ "12a", -EINVAL, 0 },
	{ "70.0", 0, 70 },
	{ "70.9", 0, 70 },
	{ "-1.5", 0, -1 },
	{ "+32.0", 0, 32 },
	{ "1.", -EINVAL, 0 },
	{ ".5", -EINVAL, 0 },
	{ "1.5.0", -EINVAL, 0 },
	{ "1.5k", -EINVAL, 0 },
	{ "1e3", -EINVAL, 0 },
	{ "0x1.5", -EINVAL, 0 },
	{ "--1", -EINVAL, 0 },
	{ "0x-1", -EINVAL, 0 },
	{ "1 2", -EINVAL, 0 },
	{ "4k", -EINVAL, 0 },
};

START_TEST(int_accepts_signed_decimal_hex_and_truncated_fractions)
{
	const struct int_case *c = &int_cases[_i];
	long long v = 12345;
	int ret;

	ret = value_parse_int(c->text, &v);
	ck_assert_msg(ret == c->ret, "'%s': returned %d, expected %d", c->text, ret, c->ret);
	ck_assert_msg(v == (c->ret ? 12345 : c->want), "'%s': got %lld", c->text, v);
}
END_TEST

struct double_case {
	const char *text;
	int ret;
	double want;
};

static const struct double_case double_cases[] = {
	{ "1.5", 0, 1.5 }, { "-2", 0, -2 }, { "1e3", 0, 1000 }, { " 3.25 ", 0, 3.25 },
	{ "0", 0, 0 },
	{ "", -EINVAL, 0 }, { "abc", -EINVAL, 0 }, { "1.5x", -EINVAL, 0 },
	{ "nan", -EINVAL, 0 }, { "inf", -EINVAL, 0 },
	{ "1e999", -ERANGE, 0 }, { "-1e999", -ERANGE, 0 },
};

START_TEST(double_accepts_finite_numbers_only)
{
	const struct double_case *c = &double_cases[_i];
	double v = 12345;
	int ret;

	ret = value_parse_double(c->text, &v);
	ck_assert_msg(ret == c->ret, "'%s': returned %d, expected %d", c->text, ret, c->ret);
	ck_assert_double_eq(v, c->ret ? 12345 : c->want);
}
END_TEST

struct split_case {
	const char *text;
	char sep;
	int n;
	const char *fields[4];
};

static const struct split_case split_cases[] = {
	{ "a:b:c", ':', 3, { "a", "b", "c" } },
	{ "a\\:b:c", ':', 2, { "a:b", "c" } },
	{ "4k,,8k", ',', 3, { "4k", "", "8k" } },
	{ "", ':', 1, { "" } },
	{ ":", ':', 2, { "", "" } },
	{ "a:", ':', 2, { "a", "" } },
	{ "a\\b:c", ':', 2, { "a\\b", "c" } },
	{ "a\\", ':', 1, { "a\\" } },
	{ " /dev/a:/dev/b ", ':', 2, { "/dev/a", "/dev/b" } },
	{ "x:y", ',', 1, { "x:y" } },
};

START_TEST(split_keeps_empty_fields_and_escaped_separators)
{
	const struct split_case *c = &split_cases[_i];
	char **fields = NULL;
	int n, i;

	n = value_split(c->text, c->sep, &fields);
	ck_assert_int_eq(n, c->n);
	for (i = 0; i < n; i++)
		ck_assert_str_eq(fields[i], c->fields[i]);
	value_split_free(fields, n);
}
END_TEST

struct closest_case {
	const char *word;
	const char *want;	/* NULL: no suggestion */
};

static const char *const option_names[] = {
	"iodepth", "ioengine", "rw", "bs", "size", "runtime", "time_based", "filename",
};

static const struct closest_case closest_cases[] = {
	{ "iodepht", "iodepth" },
	{ "IODEPTH", "iodepth" },
	{ "runtme", "runtime" },
	{ "filenam", "filename" },
	{ "ioengien", "ioengine" },
	{ "sise", "size" },
	{ "rx", "rw" },
	{ "bsx", "bs" },
	{ "szie", NULL },
	{ "xyz", NULL },
	{ "iodepthxyz", NULL },
	{ "", NULL },
	{ "iodepth", NULL },	/* refused for another reason: the word itself helps no one */
};

START_TEST(closest_suggests_only_near_names)
{
	const struct closest_case *c = &closest_cases[_i];
	const char *got;

	got = value_closest(c->word, option_names,
			    sizeof(option_names) / sizeof(option_names[0]));
	if (c->want)
		ck_assert_pstr_eq(got, c->want);
	else
		ck_assert_msg(!got, "'%s': suggested '%s'", c->word, got);
}
END_TEST

START_TEST(closest_returns_null_without_candidates)
{
	ck_assert_ptr_null(value_closest("iodepth", NULL, 0));
}
END_TEST

/* fio's arithmetic: parenthesized values, integer division, suffixes, times in us. */
struct expr_case {
	const char *in;
	enum expr_units units;
	int ret;
	int64_t want;
};

static const struct expr_case expr_cases[] = {
	{ "(2*4096)", EXPR_SIZE, 0, 8192 },
	{ "(2*4k)", EXPR_SIZE, 0, 8192 },
	{ "(7/2)", EXPR_BARE, 0, 3 },
	{ "(7.0/2)*2", EXPR_BARE, 0, 7 },
	{ "1+2*3", EXPR_BARE, 0, 7 },
	{ "(1+2)*3", EXPR_BARE, 0, 9 },
	{ "2^3^2", EXPR_BARE, 0, 512 },
	{ "10%3", EXPR_BARE, 0, 1 },
	{ "-(2-5)", EXPR_BARE, 0, 3 },
	{ "1e3", EXPR_BARE, 0, 1000 },
	{ "(1s)", EXPR_TIME, 0, 1000000 },
	{ "(2*1m)", EXPR_TIME, 0, 120000000 },
	{ "(250)", EXPR_TIME, 0, 250 },
	{ "4k", EXPR_BARE, -EINVAL, 0 },
	{ "(2*", EXPR_BARE, -EINVAL, 0 },
	{ "1/0", EXPR_BARE, -EINVAL, 0 },
	{ "2 3", EXPR_BARE, -EINVAL, 0 },
	{ "9223372036854775807+1", EXPR_BARE, -ERANGE, 0 },
	{ "-(0-9223372036854775807-1)", EXPR_BARE, -ERANGE, 0 },
	{ "(0-9223372036854775807-1)^2", EXPR_BARE, -ERANGE, 0 },
	{ "2^63", EXPR_BARE, -ERANGE, 0 },
	{ "2^62", EXPR_BARE, 0, 4611686018427387904LL },
	/* bases that never overflow: the answer without b.i multiplications */
	{ "1^9223372036854775807", EXPR_BARE, 0, 1 },
	{ "(0-1)^9223372036854775807", EXPR_BARE, 0, -1 },
	{ "0^0", EXPR_BARE, 0, 1 },
};

/*
 * Nesting deeper than EXPR_DEPTH_MAX is refused, whatever nests: 100,000 levels would
 * overflow the stack of a recursive parser without a limit.
 */
static char *nested(const char *open, const char *middle, const char *close, size_t depth)
{
	size_t lo = strlen(open), lm = strlen(middle), lc = strlen(close);
	char *s = malloc(depth * (lo + lc) + lm + 1), *p = s;

	ck_assert_ptr_nonnull(s);
	for (size_t i = 0; i < depth; i++, p += lo)
		memcpy(p, open, lo);
	memcpy(p, middle, lm);
	p += lm;
	for (size_t i = 0; i < depth; i++, p += lc)
		memcpy(p, close, lc);
	*p = 0;
	return s;
}

struct nest_case {
	const char *open, *middle, *close;
};

static const struct nest_case nest_cases[] = {
	{ "(", "1", ")" },
	{ "(", "4k", "" },	/* unclosed: refused for its depth all the same */
	{ "-", "1", "" },
	{ "(+", "1", ")" },
	{ "2^", "1", "" },
	{ "(1+", "1", ")" },
	{ "(2*(", "1", "))" },
};

START_TEST(expr_refuses_deep_nesting_as_e2big)
{
	const struct nest_case *c = &nest_cases[_i];
	int64_t v = 42;
	uint64_t u = 42;
	char *s;

	s = nested(c->open, c->middle, c->close, EXPR_DEPTH_MAX / 2 - 1);
	ck_assert_msg(c->close[0] == 0 || expr_eval(s, EXPR_SIZE, 1024, &v) == 0, "%s", s);
	free(s);
	v = 42;
	s = nested(c->open, c->middle, c->close, 100000);
	ck_assert_int_eq(expr_eval(s, EXPR_SIZE, 1024, &v), -E2BIG);
	ck_assert_int_eq(v, 42);
	free(s);
	s = nested("(", c->middle, ")", 100000);
	ck_assert_int_eq(value_parse_size(s, 1024, &u), -E2BIG);
	ck_assert_uint_eq(u, 42);
	free(s);
}
END_TEST

START_TEST(expr_evaluates_as_fio_does)
{
	const struct expr_case *t = &expr_cases[_i];
	int64_t v = 0;

	ck_assert_msg(expr_eval(t->in, t->units, 1024, &v) == t->ret, "%s", t->in);
	if (!t->ret)
		ck_assert_msg(v == t->want, "%s: %lld", t->in, (long long)v);
}
END_TEST

START_TEST(keywords_are_replaced_and_computed)
{
	char want[64];
	char *out;
	int err;

	out = expr_keywords("bs=4k", &err);
	ck_assert_ptr_null(out);
	out = expr_keywords("$pagesize*2", &err);
	snprintf(want, sizeof(want), "%ld", sysconf(_SC_PAGESIZE) * 2);
	ck_assert_str_eq(out, want);
	free(out);
	out = expr_keywords("/dev/shm/$ncpus", &err);	/* no operator: no arithmetic */
	snprintf(want, sizeof(want), "/dev/shm/%ld", sysconf(_SC_NPROCESSORS_CONF));
	ck_assert_str_eq(out, want);
	free(out);
	ck_assert_int_eq(value_parse_size("(8*1k)/2", 1024, &(uint64_t){ 0 }), 0);
}
END_TEST

static Suite *value_suite(void)
{
	Suite *s = suite_create("value");
	TCase *tc;

	tc = tcase_create("size");
	tcase_add_loop_test(tc, size_accepts_every_suffix_in_both_kb_bases, 0,
			    TABLE_LEN(suffix_cases));
	tcase_add_loop_test(tc, size_truncates_fractions_to_whole_bytes, 0,
			    TABLE_LEN(fraction_cases));
	tcase_add_loop_test(tc, size_reports_overflow_as_erange, 0, TABLE_LEN(overflow_cases));
	tcase_add_loop_test(tc, size_rejects_garbage_as_einval, 0, TABLE_LEN(garbage_cases));
	suite_add_tcase(s, tc);

	tc = tcase_create("size_pct");
	tcase_add_loop_test(tc, size_pct_accepts_percentages_up_to_100, 0, TABLE_LEN(pct_cases));
	suite_add_tcase(s, tc);

	tc = tcase_create("size_range");
	tcase_add_loop_test(tc, size_range_refuses_reversed_bounds, 0, TABLE_LEN(range_cases));
	tcase_add_loop_test(tc, size_range_loose_reads_as_fio, 0, TABLE_LEN(loose_cases));
	suite_add_tcase(s, tc);

	tc = tcase_create("time");
	tcase_add_loop_test(tc, time_accepts_every_unit_and_the_default_unit, 0,
			    TABLE_LEN(time_cases));
	suite_add_tcase(s, tc);

	tc = tcase_create("bool");
	tcase_add_loop_test(tc, bool_accepts_words_and_empty_as_true, 0, TABLE_LEN(bool_cases));
	suite_add_tcase(s, tc);

	tc = tcase_create("int");
	tcase_add_loop_test(tc, int_accepts_signed_decimal_hex_and_truncated_fractions, 0, TABLE_LEN(int_cases));
	suite_add_tcase(s, tc);

	tc = tcase_create("size_prefix");
	tcase_add_loop_test(tc, size_prefix_is_what_fio_reads, 0, TABLE_LEN(prefix_cases));
	suite_add_tcase(s, tc);

	tc = tcase_create("double");
	tcase_add_loop_test(tc, double_accepts_finite_numbers_only, 0, TABLE_LEN(double_cases));
	suite_add_tcase(s, tc);

	tc = tcase_create("split");
	tcase_add_loop_test(tc, split_keeps_empty_fields_and_escaped_separators, 0,
			    TABLE_LEN(split_cases));
	suite_add_tcase(s, tc);

	tc = tcase_create("expr");
	tcase_add_loop_test(tc, expr_evaluates_as_fio_does, 0, TABLE_LEN(expr_cases));
	tcase_add_loop_test(tc, expr_refuses_deep_nesting_as_e2big, 0, TABLE_LEN(nest_cases));
	tcase_add_test(tc, keywords_are_replaced_and_computed);
	suite_add_tcase(s, tc);

	tc = tcase_create("closest");
	tcase_add_loop_test(tc, closest_suggests_only_near_names, 0, TABLE_LEN(closest_cases));
	tcase_add_test(tc, closest_returns_null_without_candidates);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(value_suite());
}
