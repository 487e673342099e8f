/* Unit tests for output/hist.c: fio's bucket layout, error bound, percentiles, merging. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sys/mman.h>

#include "base/mem_pages.h"
#include "output/hist.h"
#include "test_util.h"

#define NSAMPLES	20000

/* Deterministic data: xorshift64. */
static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static struct hist *hist_new(void)
{
	struct hist *h = calloc(1, sizeof(*h));

	ck_assert_ptr_nonnull(h);
	return h;
}

/* Latencies spread over 40 ns .. 17 s, log-uniform, sorted. */
static void make_samples(uint64_t *v, unsigned n, uint64_t seed)
{
	unsigned i, shift;

	for (i = 0; i < n; i++) {
		shift = 5 + (unsigned)(rng_next(&seed) % 30);
		v[i] = ((uint64_t)1 << shift) + rng_next(&seed) % ((uint64_t)1 << shift);
	}
	qsort(v, n, sizeof(v[0]), cmp_u64);
}

START_TEST(index_and_value_round_trip_for_every_bucket)
{
	unsigned i;

	for (i = 0; i < HIST_BUCKETS; i++)
		ck_assert_uint_eq(hist_index(hist_bucket_value(i)), i);
}
END_TEST

/* Values fio printed: percentiles, json+ bins keys and its saturation value. */
static const struct {
	uint64_t ns, value;
} fio_cases[] = {
	{ 0, 0 },
	{ 127, 127 },
	{ 128, 129 },
	{ 12904, 12864 },
	{ 95300, 95744 },
	{ 146000, 146432 },
	{ 1186000, 1187840 },
	{ 501000, 501760 },
	{ 158000, 158720 },
	{ 17112760320ULL, 17112760320ULL },	/* fio's last bucket, index 1855 */
};

START_TEST(bucket_values_equal_fios)
{
	ck_assert_uint_eq(hist_bucket_value(hist_index(fio_cases[_i].ns)), fio_cases[_i].value);
}
END_TEST

START_TEST(bucket_midpoint_is_within_1_in_128_up_to_2_pow_45)
{
	uint64_t v, got, err, base;
	unsigned shift, k;

	for (v = 0; v < 128; v++)
		ck_assert_uint_eq(hist_bucket_value(hist_index(v)), v);
	for (shift = 7; shift < 45; shift++) {
		base = (uint64_t)1 << shift;
		for (k = 0; k < 1024; k++) {
			v = base + (base / 1024) * k + (k * 7919) % (base / 1024 + 1);
			if (v >= (uint64_t)1 << 45)
				v = ((uint64_t)1 << 45) - 1;
			got = hist_bucket_value(hist_index(v));
			err = got > v ? got - v : v - got;
			ck_assert_msg(err * 128 <= v, "v=%llu bucket value %llu",
				      (unsigned long long)v, (unsigned long long)got);
		}
	}
}
END_TEST

START_TEST(only_values_past_2_pow_45_saturate)
{
	uint64_t top = ((uint64_t)1 << 45) - 1;

	ck_assert_uint_eq(hist_index(top), HIST_BUCKETS - 1);
	ck_assert_uint_lt(hist_index(top - (top >> 6) - 1), HIST_BUCKETS - 1);
	ck_assert_uint_eq(hist_index((uint64_t)1 << 45), HIST_BUCKETS - 1);
	ck_assert_uint_eq(hist_index(UINT64_MAX), HIST_BUCKETS - 1);
	ck_assert_uint_eq(hist_bucket_value(HIST_BUCKETS - 1), ((uint64_t)1 << 45) - ((uint64_t)1 << 37));
}
END_TEST

static const double pct_list[] = { 1, 5, 10, 25, 50, 75, 90, 99, 99.5, 99.9, 99.99, 100 };

START_TEST(percentiles_are_within_the_bound_of_exact_ones)
{
	uint64_t *v = malloc(NSAMPLES * sizeof(*v)), out[TABLE_LEN(pct_list)], exact, err;
	struct hist *h = hist_new();
	unsigned i, rank;

	ck_assert_ptr_nonnull(v);
	make_samples(v, NSAMPLES, 0x9e3779b97f4a7c15ULL + (uint64_t)_i);
	for (i = 0; i < NSAMPLES; i++)
		hist_add(h, v[i], 1);
	ck_assert_uint_eq(hist_total(h), NSAMPLES);
	hist_percentiles(h, pct_list, TABLE_LEN(pct_list), out);
	for (i = 0; i < TABLE_LEN(pct_list); i++) {
		/* the first sample at which the running count reaches p/100 of N */
		rank = (unsigned)ceill((long double)pct_list[i] / 100.0L * NSAMPLES);
		exact = v[(rank ? rank : 1) - 1];
		err = out[i] > exact ? out[i] - exact : exact - out[i];
		ck_assert_msg(err * 128 <= exact, "p%g: %llu vs exact %llu", pct_list[i],
			      (unsigned long long)out[i], (unsigned long long)exact);
	}
	free(h);
	free(v);
}
END_TEST

START_TEST(percentiles_take_the_first_bucket_reaching_the_share)
{
	static const double p[] = { 50, 25, 75, 100 };
	struct hist *h = hist_new();
	uint64_t out[4];

	hist_add(h, 10, 2);
	hist_add(h, 20, 2);
	hist_percentiles(h, p, 4, out);
	ck_assert_uint_eq(out[0], 10);	/* 2 of 4 reach 50 % at the first bucket */
	ck_assert_uint_eq(out[1], 10);
	ck_assert_uint_eq(out[2], 20);
	ck_assert_uint_eq(out[3], 20);
	free(h);
}
END_TEST

START_TEST(percentiles_of_an_empty_histogram_are_zero)
{
	struct hist *h = hist_new();
	uint64_t out[TABLE_LEN(pct_list)];
	unsigned i;

	memset(out, 0xff, sizeof(out));
	hist_percentiles(h, pct_list, TABLE_LEN(pct_list), out);
	for (i = 0; i < TABLE_LEN(pct_list); i++)
		ck_assert_uint_eq(out[i], 0);
	free(h);
}
END_TEST

START_TEST(merge_equals_the_histogram_of_the_union)
{
	uint64_t *v = malloc(NSAMPLES * sizeof(*v));
	struct hist *a = hist_new(), *b = hist_new(), *all = hist_new();
	unsigned i;

	ck_assert_ptr_nonnull(v);
	make_samples(v, NSAMPLES, 42);
	for (i = 0; i < NSAMPLES; i++) {
		hist_add(i % 3 ? a : b, v[i], 1);
		hist_add(all, v[i], 1);
	}
	hist_merge(a, b);
	ck_assert_int_eq(memcmp(a, all, sizeof(*a)), 0);
	ck_assert_uint_eq(hist_total(a), NSAMPLES);
	free(all);
	free(b);
	free(a);
	free(v);
}
END_TEST

/*
 * A histogram that straddles pages of its own mapping, only one page of it written: the
 * probe finds that page alone, the spans are its buckets, and merge, total, percentiles
 * read the same figures as from a copy whose every page is in memory.
 */
START_TEST(readers_skip_pages_never_written_and_miss_nothing)
{
	size_t page = mem_page_size(), len = 8 * page;
	char *map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	/* 384 bytes into a page, where a direction's clat histogram starts */
	struct hist *h = (struct hist *)(map + page + 384), *dst = hist_new(), *copy;
	unsigned at = (unsigned)((3 * page - 384) / sizeof(uint64_t)) + 5;
	double pct[] = { 1, 50, 99.9, 100 };
	uint64_t got[4], want[4];
	struct hist_spans s;

	ck_assert(map != MAP_FAILED);
	ck_assert_uint_eq(mem_pages_used(map, len), 0);
	h->count[at] = 3;	/* on the histogram's fourth page, the mapping's fifth */
	h->count[at + 1] = 1;
	ck_assert_uint_eq(mem_pages_used(map, len), 1u << 4);
	hist_spans(h, &s);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_uint_eq(s.lo[0], (3 * page - 384) / sizeof(uint64_t));
	ck_assert_uint_eq(s.hi[0], (4 * page - 384) / sizeof(uint64_t));
	ck_assert_uint_eq(hist_total(h), 4);
	copy = hist_new();
	copy->count[at] = 3;
	copy->count[at + 1] = 1;
	hist_percentiles(h, pct, 4, got);
	hist_percentiles(copy, pct, 4, want);
	ck_assert_int_eq(memcmp(got, want, sizeof(got)), 0);
	ck_assert_uint_eq(got[0], hist_bucket_value(at));
	ck_assert_uint_eq(got[3], hist_bucket_value(at + 1));
	hist_merge(dst, h);
	ck_assert_int_eq(memcmp(dst, copy, sizeof(*dst)), 0);
	/* the probe read no page: those of the mapping before and after are still unmapped */
	ck_assert_uint_eq(mem_pages_used(map, len), 1u << 4);
	munmap(map, len);
	free(copy);
	free(dst);
}
END_TEST

static Suite *hist_suite(void)
{
	Suite *s = suite_create("hist");
	TCase *tc;

	tc = tcase_create("buckets");
	tcase_add_test(tc, index_and_value_round_trip_for_every_bucket);
	tcase_add_loop_test(tc, bucket_values_equal_fios, 0, TABLE_LEN(fio_cases));
	tcase_add_test(tc, bucket_midpoint_is_within_1_in_128_up_to_2_pow_45);
	tcase_add_test(tc, only_values_past_2_pow_45_saturate);
	suite_add_tcase(s, tc);

	tc = tcase_create("percentiles");
	tcase_add_loop_test(tc, percentiles_are_within_the_bound_of_exact_ones, 0, 4);
	tcase_add_test(tc, percentiles_take_the_first_bucket_reaching_the_share);
	tcase_add_test(tc, percentiles_of_an_empty_histogram_are_zero);
	suite_add_tcase(s, tc);

	tc = tcase_create("merge");
	tcase_add_test(tc, merge_equals_the_histogram_of_the_union);
	tcase_add_test(tc, readers_skip_pages_never_written_and_miss_nothing);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(hist_suite());
}
