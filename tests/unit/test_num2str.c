/* Unit tests for output/num2str.c: strings pinned from real fio 3.33 reports. */
#include <stdint.h>
#include <stdlib.h>

#include <check.h>

#include "output/num2str.h"
#include "test_util.h"

struct n2s_case {
	uint64_t num;
	unsigned maxlen;
	int pow2;
	enum n2s_unit unit;
	const char *want;
};

static const struct n2s_case cases[] = {
	/* IOPS=, 4 digits, SI, no unit */
	{ 50145, 4, 0, N2S_NONE, "50.1k" },
	{ 7827, 4, 0, N2S_NONE, "7827" },
	{ 29024, 4, 0, N2S_NONE, "29.0k" },
	{ 816000, 4, 0, N2S_NONE, "816k" },
	{ 85333, 4, 0, N2S_NONE, "85.3k" },
	{ 10666, 4, 0, N2S_NONE, "10.7k" },
	{ 1000, 4, 0, N2S_NONE, "1000" },
	{ 0, 4, 0, N2S_NONE, "0" },
	/* BW=, both bases */
	{ 205393722, 4, 1, N2S_BYTEPERSEC, "196MiB/s" },
	{ 205393722, 4, 0, N2S_BYTEPERSEC, "205MB/s" },
	{ 118882255, 4, 1, N2S_BYTEPERSEC, "113MiB/s" },
	{ 118882255, 4, 0, N2S_BYTEPERSEC, "119MB/s" },
	{ 3342336000ULL, 4, 1, N2S_BYTEPERSEC, "3188MiB/s" },
	{ 3342336000ULL, 4, 0, N2S_BYTEPERSEC, "3342MB/s" },
	{ 349525333, 4, 0, N2S_BYTEPERSEC, "350MB/s" },
	{ 349525333, 4, 1, N2S_BYTEPERSEC, "333MiB/s" },
	{ 43690666, 4, 1, N2S_BYTEPERSEC, "41.7MiB/s" },
	{ 43690666, 4, 0, N2S_BYTEPERSEC, "43.7MB/s" },
	{ 1000000, 4, 1, N2S_BYTEPERSEC, "977KiB/s" },
	{ 1000000, 4, 0, N2S_BYTEPERSEC, "1000kB/s" },
	/* io= and bs=, bytes */
	{ 616386560, 4, 1, N2S_BYTE, "588MiB" },
	{ 96215040, 4, 1, N2S_BYTE, "91.8MiB" },
	{ 96215040, 4, 0, N2S_BYTE, "96.2MB" },
	{ 33423360, 4, 1, N2S_BYTE, "31.9MiB" },
	{ 33423360, 4, 0, N2S_BYTE, "33.4MB" },
	{ 8388608, 4, 1, N2S_BYTE, "8192KiB" },
	{ 8388608, 4, 0, N2S_BYTE, "8389kB" },
	{ 4096, 4, 1, N2S_BYTE, "4096B" },
	{ 65536, 4, 1, N2S_BYTE, "64.0KiB" },
	{ 10240, 4, 1, N2S_BYTE, "10.0KiB" },
	{ 10239, 4, 1, N2S_BYTE, "10.00KiB" },	/* fio carries but keeps both decimals */
	{ 10188, 4, 1, N2S_BYTE, "9.95KiB" },
	{ 10000, 4, 1, N2S_BYTE, "9.77KiB" },
	{ 10000, 4, 0, N2S_BYTE, "10.0kB" },
	{ 99999, 4, 1, N2S_BYTE, "97.7KiB" },
	{ 99999, 4, 0, N2S_BYTE, "100.0kB" },
	{ 102399, 4, 1, N2S_BYTE, "100.0KiB" },
	{ 102348, 4, 1, N2S_BYTE, "99.9KiB" },
	{ 1048064, 4, 1, N2S_BYTE, "1024KiB" },
	{ 1048575, 4, 0, N2S_BYTE, "1049kB" },
	{ 1047552, 4, 1, N2S_BYTE, "1023KiB" },
	{ 999999, 4, 0, N2S_BYTE, "1000kB" },
	{ 1000000, 4, 1, N2S_BYTE, "977KiB" },
	{ 1234567, 4, 1, N2S_BYTE, "1206KiB" },
	{ 1234567, 4, 0, N2S_BYTE, "1235kB" },
	{ 1572864, 4, 1, N2S_BYTE, "1536KiB" },
	{ 9999, 4, 1, N2S_BYTE, "9999B" },
	{ 1023, 4, 1, N2S_BYTE, "1023B" },
	/* latency min= and max=, 6 digits, SI */
	{ 11414000, 6, 0, N2S_NONE, "11414k" },
	{ 4808912, 6, 0, N2S_NONE, "4808.9k" },
	{ 999999, 6, 0, N2S_NONE, "999999" },
	{ 19006, 6, 0, N2S_NONE, "19006" },
	/* the largest number still fits */
	{ UINT64_MAX, 4, 1, N2S_BYTE, "16.0EiB" },
};

START_TEST(num2str_matches_fio)
{
	const struct n2s_case *c = &cases[_i];
	char buf[64];

	ck_assert_str_eq(num2str(c->num, c->maxlen, c->pow2, c->unit, buf, sizeof(buf)), c->want);
}
END_TEST

START_TEST(num2str_truncates_to_the_buffer)
{
	char buf[4];

	ck_assert_str_eq(num2str(3342336000ULL, 4, 1, N2S_BYTEPERSEC, buf, sizeof(buf)), "318");
}
END_TEST

static const struct {
	uint64_t bytes;
	unsigned kb_base;
	enum n2s_unit unit;
	const char *want;
} pair_cases[] = {
	{ 205393722, 1024, N2S_BYTEPERSEC, "196MiB/s (205MB/s)" },
	{ 349525333, 1000, N2S_BYTEPERSEC, "350MB/s (333MiB/s)" },
	{ 96215040, 1024, N2S_BYTE, "91.8MiB (96.2MB)" },
	{ 1048576, 1000, N2S_BYTE, "1049kB (1024KiB)" },
};

START_TEST(pair_puts_the_kb_base_first)
{
	char buf[64];

	ck_assert_str_eq(num2str_pair(pair_cases[_i].bytes, pair_cases[_i].kb_base,
				      pair_cases[_i].unit, buf, sizeof(buf)), pair_cases[_i].want);
}
END_TEST

/* A number already in KiB (or kB), as fio's steadystate line passes bw / kb_base. */
static const struct {
	uint64_t num;
	int pow2;
	enum n2s_unit unit;
	const char *want;
} scaled_cases[] = {
	{ 2002, 1, N2S_BYTEPERSEC, "2002KiB/s" },	/* fio 3.33: bw=2002KiB/s (2002kB/s) */
	{ 2002, 0, N2S_BYTEPERSEC, "2002kB/s" },
	{ 20023, 1, N2S_BYTEPERSEC, "19.6MiB/s" },
	{ 20023, 0, N2S_BYTEPERSEC, "20.0MB/s" },
	{ 2002, 1, N2S_BITPERSEC, "15.6Mibit/s" },	/* 16016 Kibit/s */
};

START_TEST(scaled_starts_at_the_first_prefix)
{
	char buf[64];

	ck_assert_str_eq(num2str_scaled(scaled_cases[_i].num, 1, 4, scaled_cases[_i].pow2,
					scaled_cases[_i].unit, buf, sizeof(buf)),
			 scaled_cases[_i].want);
}
END_TEST

static Suite *num2str_suite(void)
{
	Suite *s = suite_create("num2str");
	TCase *tc;

	tc = tcase_create("num2str");
	tcase_add_loop_test(tc, num2str_matches_fio, 0, TABLE_LEN(cases));
	tcase_add_test(tc, num2str_truncates_to_the_buffer);
	suite_add_tcase(s, tc);

	tc = tcase_create("scaled");
	tcase_add_loop_test(tc, scaled_starts_at_the_first_prefix, 0, TABLE_LEN(scaled_cases));
	suite_add_tcase(s, tc);

	tc = tcase_create("pair");
	tcase_add_loop_test(tc, pair_puts_the_kb_base_first, 0, TABLE_LEN(pair_cases));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(num2str_suite());
}
