/*
 * Unit tests for engine/plan/offsets.c: the keyed permutation that visits every block once per
 * pass, uniform draws, the skewed distributions and the RNG helpers. Seeds are fixed, so
 * every statistical bound below is checked against one known sequence.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "engine/plan/offsets.h"
#include "test_util.h"

#define SEED		0x5eedULL

static const uint64_t perm_sizes[] = { 1, 2, 3, 7, 64, 1000, 4097, 1 << 20 };

/*
 * Draw one pass of n blocks into out[], checking that each block comes exactly once.
 * Check's assertions are slow (each one reports to the parent process), so the loop only
 * asserts on failure.
 */
static void draw_pass(struct offgen *g, uint64_t *out, uint64_t n)
{
	unsigned char *seen = calloc(n, 1);

	ck_assert_ptr_nonnull(seen);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t b = offgen_next(g);

		if (b >= n || seen[b])
			ck_abort_msg("n=%llu: block %llu %s", (unsigned long long)n,
				     (unsigned long long)b,
				     b >= n ? "out of range" : "twice in a pass");
		seen[b] = 1;
		out[i] = b;
	}
	free(seen);
}

START_TEST(perm_visits_every_block_once_per_pass)
{
	uint64_t n = perm_sizes[_i];
	uint64_t *first = malloc(n * sizeof(*first)), *later = malloc(n * sizeof(*later));
	unsigned passes = n > 10000 ? 2 : 8, repeats = 0;
	struct offgen g;

	ck_assert_ptr_nonnull(first);
	ck_assert_ptr_nonnull(later);
	offgen_init(&g, OFFGEN_PERM, n, 0, -1, SEED);
	draw_pass(&g, first, n);
	for (unsigned p = 1; p < passes; p++) {
		draw_pass(&g, later, n);
		repeats += !memcmp(first, later, n * sizeof(*first));
	}
	/*
	 * Each pass is a new permutation. Three blocks have only 6 orders, so a pass may
	 * repeat the one before by chance; from 64 blocks up, none may.
	 */
	if (n > 2)
		ck_assert_msg(repeats < passes - 1, "n=%llu: every pass repeats the first",
			      (unsigned long long)n);
	if (n >= 64)
		ck_assert_msg(repeats == 0, "n=%llu: %u passes repeat the first",
			      (unsigned long long)n, repeats);
	free(first);
	free(later);
}
END_TEST

/* Two generators, n draws each (across pass ends for PERM): are the sequences equal? */
static bool same_sequence(enum offgen_mode mode, uint64_t nblocks, double param,
			  uint64_t seed_a, uint64_t seed_b, unsigned n)
{
	struct offgen a, b;
	bool same = true;

	offgen_init(&a, mode, nblocks, param, -1, seed_a);
	offgen_init(&b, mode, nblocks, param, -1, seed_b);
	for (unsigned i = 0; i < n; i++)
		same &= offgen_next(&a) == offgen_next(&b);
	return same;
}

struct mode_case {
	enum offgen_mode mode;
	double param;
};

static const struct mode_case mode_cases[] = {
	{ OFFGEN_PERM, 0 },
	{ OFFGEN_UNIFORM, 0 },
	{ OFFGEN_ZIPF, 1.2 },
	{ OFFGEN_ZIPF, 0.8 },
	{ OFFGEN_PARETO, 0.2 },
	{ OFFGEN_NORMAL, 5 },
};

START_TEST(equal_seeds_give_equal_sequences)
{
	const struct mode_case *c = &mode_cases[_i];

	ck_assert(same_sequence(c->mode, 1000, c->param, SEED, SEED, 3000));
	ck_assert(same_sequence(c->mode, 1000, c->param, 1, 1, 3000));
}
END_TEST

START_TEST(different_seeds_give_different_sequences)
{
	const struct mode_case *c = &mode_cases[_i];

	ck_assert(!same_sequence(c->mode, 1000, c->param, SEED, SEED + 1, 3000));
	ck_assert(!same_sequence(c->mode, 1000, c->param, 0, 1, 3000));
}
END_TEST

static const uint64_t range_sizes[] = { 1, 2, 7, 1000, 4097, (1ULL << 40) + 1, UINT64_MAX };

START_TEST(every_mode_stays_in_range)
{
	for (int m = 0; m < TABLE_LEN(mode_cases); m++) {
		const struct mode_case *c = &mode_cases[m];
		uint64_t n = range_sizes[_i];
		struct offgen g;

		offgen_init(&g, c->mode, n, c->param, -1, SEED);
		for (unsigned i = 0; i < 20000; i++) {
			uint64_t b = offgen_next(&g);

			if (b >= n)
				ck_abort_msg("mode %d, n=%llu: block %llu", c->mode,
					     (unsigned long long)n, (unsigned long long)b);
		}
	}
}
END_TEST

/* Hit counts of n blocks after draws draws. */
static unsigned *hit_counts(enum offgen_mode mode, uint64_t n, double param, unsigned draws)
{
	unsigned *hits = calloc(n, sizeof(*hits));
	struct offgen g;

	ck_assert_ptr_nonnull(hits);
	offgen_init(&g, mode, n, param, -1, SEED);
	for (unsigned i = 0; i < draws; i++) {
		uint64_t b = offgen_next(&g);

		if (b >= n)
			ck_abort_msg("mode %d: block %llu of %llu", mode, (unsigned long long)b,
				     (unsigned long long)n);
		hits[b]++;
	}
	return hits;
}

static int by_count_desc(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* The share of all draws that went to the 20% most-hit blocks. */
static double top_fifth_share(enum offgen_mode mode, uint64_t n, double param, unsigned draws)
{
	unsigned *hits = hit_counts(mode, n, param, draws);
	unsigned long top = 0;

	qsort(hits, n, sizeof(*hits), by_count_desc);
	for (uint64_t i = 0; i < n / 5; i++)
		top += hits[i];
	free(hits);
	return (double)top / draws;
}

START_TEST(uniform_passes_chi_square)
{
	const unsigned nbins = 64, per_bin = 1000;
	unsigned *hits = hit_counts(OFFGEN_UNIFORM, nbins, 0, nbins * per_bin);
	double chi2 = 0;

	for (unsigned i = 0; i < nbins; i++)
		chi2 += ((double)hits[i] - per_bin) * ((double)hits[i] - per_bin) / per_bin;
	free(hits);
	/* 63 degrees of freedom: mean 63, deviation 11; 130 is beyond the 1e-6 tail. */
	ck_assert_msg(chi2 < 130, "chi-square %.1f", chi2);
}
END_TEST

START_TEST(uniform_draws_with_replacement)
{
	unsigned *hits = hit_counts(OFFGEN_UNIFORM, 1000, 0, 1000);
	unsigned distinct = 0;

	for (unsigned i = 0; i < 1000; i++)
		distinct += hits[i] > 0;
	free(hits);
	/* 1000 draws from 1000 blocks touch about 632 of them; a permutation would touch all. */
	ck_assert_uint_gt(distinct, 550);
	ck_assert_uint_lt(distinct, 700);
}
END_TEST

START_TEST(uniform_is_not_skewed)
{
	double share = top_fifth_share(OFFGEN_UNIFORM, 1000, 0, 200000);

	ck_assert_msg(share < 0.25, "top 20%% of blocks got %.3f", share);
}
END_TEST

START_TEST(zipf_follows_its_rank_frequencies)
{
	const double theta = 1.2;
	const unsigned n = 1000, draws = 200000;
	unsigned *hits = hit_counts(OFFGEN_ZIPF, n, theta, draws);
	double h_all = 0, h_top = 0, top1, share;

	for (unsigned k = 1; k <= n; k++) {
		h_all += pow(k, -theta);
		if (k <= n / 5)
			h_top += pow(k, -theta);
	}
	qsort(hits, n, sizeof(*hits), by_count_desc);
	top1 = (double)hits[0] / draws;
	free(hits);
	share = top_fifth_share(OFFGEN_ZIPF, n, theta, draws);
	/* Rank 1 gets 1/H(n, theta), about 0.23; the top fifth about 0.89. */
	ck_assert_msg(fabs(top1 - 1 / h_all) < 0.02, "rank 1: %.3f, want %.3f", top1, 1 / h_all);
	ck_assert_msg(fabs(share - h_top / h_all) < 0.03, "top 20%%: %.3f, want %.3f", share,
		      h_top / h_all);
}
END_TEST

START_TEST(pareto_puts_most_draws_on_a_fifth_of_the_blocks)
{
	double share = top_fifth_share(OFFGEN_PARETO, 1000, 0.2, 200000);

	/* h = 0.2 is the 80/20 rule. */
	ck_assert_msg(share > 0.75 && share < 0.86, "top 20%% of blocks got %.3f", share);
}
END_TEST

START_TEST(normal_concentrates_hits_near_the_middle)
{
	double share = top_fifth_share(OFFGEN_NORMAL, 1000, 10, 200000);

	/* Deviation 10% of 1000 blocks: the 200 busiest are within one deviation, 68%. */
	ck_assert_msg(share > 0.64 && share < 0.75, "top 20%% of blocks got %.3f", share);
}
END_TEST

START_TEST(rng_below_stays_below_n)
{
	static const uint64_t ns[] = { 1, 2, 3, 1000, 1ULL << 32, (1ULL << 63) + 1, UINT64_MAX };
	struct rng r;

	rng_seed(&r, SEED);
	for (int i = 0; i < TABLE_LEN(ns); i++) {
		bool upper_half = false;

		for (unsigned k = 0; k < 10000; k++) {
			uint64_t v = rng_below(&r, ns[i]);

			if (v >= ns[i])
				ck_abort_msg("rng_below(%llu) gave %llu",
					     (unsigned long long)ns[i], (unsigned long long)v);
			upper_half |= v >= ns[i] / 2;
		}
		/* For n = 1 the only value is 0, which is also n / 2. */
		ck_assert_msg(upper_half, "n=%llu: never reached the upper half",
			      (unsigned long long)ns[i]);
	}
}
END_TEST

START_TEST(rng_below_reaches_every_small_value)
{
	unsigned hits[3] = { 0 };
	struct rng r;

	rng_seed(&r, SEED);
	for (unsigned k = 0; k < 3000; k++)
		hits[rng_below(&r, 3)]++;
	for (int v = 0; v < 3; v++)
		ck_assert_uint_gt(hits[v], 900);
}
END_TEST

START_TEST(rng_unit_is_in_zero_one)
{
	struct rng r;
	double lo = 1, hi = 0;

	rng_seed(&r, SEED);
	for (unsigned k = 0; k < 100000; k++) {
		double u = rng_unit(&r);

		if (u < 0 || u >= 1)
			ck_abort_msg("rng_unit gave %g", u);
		lo = u < lo ? u : lo;
		hi = u > hi ? u : hi;
	}
	ck_assert(lo < 0.001 && hi > 0.999);
}
END_TEST

static Suite *offsets_suite(void)
{
	Suite *s = suite_create("offsets");
	TCase *tc;

	tc = tcase_create("perm");
	tcase_add_loop_test(tc, perm_visits_every_block_once_per_pass, 0, TABLE_LEN(perm_sizes));
	suite_add_tcase(s, tc);

	tc = tcase_create("seeds");
	tcase_add_loop_test(tc, equal_seeds_give_equal_sequences, 0, TABLE_LEN(mode_cases));
	tcase_add_loop_test(tc, different_seeds_give_different_sequences, 0,
			    TABLE_LEN(mode_cases));
	suite_add_tcase(s, tc);

	tc = tcase_create("range");
	tcase_add_loop_test(tc, every_mode_stays_in_range, 0, TABLE_LEN(range_sizes));
	suite_add_tcase(s, tc);

	tc = tcase_create("distributions");
	tcase_add_test(tc, uniform_passes_chi_square);
	tcase_add_test(tc, uniform_draws_with_replacement);
	tcase_add_test(tc, uniform_is_not_skewed);
	tcase_add_test(tc, zipf_follows_its_rank_frequencies);
	tcase_add_test(tc, pareto_puts_most_draws_on_a_fifth_of_the_blocks);
	tcase_add_test(tc, normal_concentrates_hits_near_the_middle);
	suite_add_tcase(s, tc);

	tc = tcase_create("rng");
	tcase_add_test(tc, rng_below_stays_below_n);
	tcase_add_test(tc, rng_below_reaches_every_small_value);
	tcase_add_test(tc, rng_unit_is_in_zero_one);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(offsets_suite());
}
