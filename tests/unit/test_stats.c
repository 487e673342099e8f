/* Unit tests for output/stats.c and the bucket helpers of output/stats.h. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <check.h>

#include "base/mem_pages.h"
#include "output/stats.h"
#include "test_util.h"

static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static struct job_stats *new_stats(void)
{
	struct job_stats *st = malloc(sizeof(*st));

	ck_assert_ptr_nonnull(st);
	stats_init(st);
	return st;
}

/*
 * Mean and sample standard deviation by the two-pass formula in long double, on values
 * shifted by the first one (exact differences) so that the reference itself is accurate.
 */
static void direct_moments(const uint64_t *v, unsigned n, long double *mean, long double *dev)
{
	long double m = 0, s = 0, d;
	unsigned i;

	for (i = 0; i < n; i++)
		m += (long double)(int64_t)(v[i] - v[0]);
	m = n ? m / n : 0;
	for (i = 0; i < n; i++) {
		d = (long double)(int64_t)(v[i] - v[0]) - m;
		s += d * d;
	}
	*mean = n ? (long double)v[0] + m : 0;
	*dev = n > 1 ? sqrtl(s / (n - 1)) : 0;
}

static void assert_close(long double got, long double want, const char *what)
{
	long double tol = fabsl(want) * 1e-12L + 1e-9L;

	ck_assert_msg(fabsl(got - want) <= tol, "%s: %.12Lg, expected %.12Lg", what, got, want);
}

/* Data sets: offset + a spread of random values; huge offsets defeat naive formulas. */
static const struct {
	uint64_t offset, spread;
	unsigned n;
} moment_cases[] = {
	{ 0, 1000, 1000 },
	{ 100000, 50000, 5000 },
	{ 1ULL << 40, 1000, 4096 },		/* 18 minutes in ns, microseconds apart */
	{ 1ULL << 50, 3, 777 },			/* 2^100 squares: only 128 bits hold them */
	{ 5, 0, 300 },				/* all equal: exactly zero */
	{ 123456789, 1000, 1 },			/* n = 1 */
	{ 0, 1, 0 },				/* n = 0 */
};

START_TEST(moments_match_direct_computation)
{
	uint64_t seed = 7 + (uint64_t)_i, *v;
	unsigned i, n = moment_cases[_i].n;
	long double mean, dev;
	struct moments m;

	v = malloc((n ? n : 1) * sizeof(*v));
	ck_assert_ptr_nonnull(v);
	moments_init(&m);
	for (i = 0; i < n; i++) {
		v[i] = moment_cases[_i].offset;
		if (moment_cases[_i].spread)
			v[i] += rng_next(&seed) % moment_cases[_i].spread;
		moments_add(&m, v[i], 1);
	}
	direct_moments(v, n, &mean, &dev);
	assert_close(moments_mean(&m), mean, "mean");
	assert_close(moments_stddev(&m), dev, "stddev");
	if (!moment_cases[_i].spread || n < 2)
		ck_assert(moments_stddev(&m) == 0.0);
	free(v);
}
END_TEST

START_TEST(moments_add_counts_repeated_values)
{
	struct moments a, b;

	moments_init(&a);
	moments_init(&b);
	moments_add(&a, 10, 3);
	moments_add(&a, 20, 1);
	moments_add(&b, 10, 1);
	moments_add(&b, 10, 1);
	moments_add(&b, 10, 1);
	moments_add(&b, 20, 1);
	ck_assert_int_eq(memcmp(&a, &b, sizeof(a)), 0);
	ck_assert(moments_mean(&a) == 12.5);
	ck_assert_uint_eq(a.min, 10);
	ck_assert_uint_eq(a.max, 20);
}
END_TEST

/* A direction with n samples from seed, as a job would have recorded them. */
static void fill_dir(struct job_stats *st, unsigned dir, unsigned n, uint64_t seed)
{
	struct dir_stats *d = &st->dir[dir];
	uint64_t clat;
	unsigned i;

	for (i = 0; i < n; i++) {
		clat = 1000 + rng_next(&seed) % 5000000;
		moments_add(&d->clat, clat, 1);
		moments_add(&d->slat, clat / 10, 1);
		moments_add(&d->lat, clat + clat / 10, 1);
		hist_add(&d->clat_hist, clat, 1);
		st->lat_buckets[stats_lat_bucket(clat)]++;
	}
	for (i = 0; i < 4; i++) {
		moments_add(&d->bw, 1000 + rng_next(&seed) % 100, 1);
		moments_add(&d->iops, 250 + rng_next(&seed) % 25, 1);
	}
	d->ios += n;
	d->bytes += (uint64_t)n * 4096;
	d->runtime_ns = 1000000000 + seed % 1000;
	st->issued[dir] += n;
	st->depth[stats_depth_bucket(1 + n % 70)] += n;
	st->submit[stats_batch_bucket(n % 9)]++;
	st->complete[stats_batch_bucket(n % 9)]++;
	st->usr_ns += n;
	st->sys_ns += 2 * n;
	st->runtime_ns += 1000000000;
}

START_TEST(merge_of_two_equals_one_job_over_the_union)
{
	struct job_stats *a = new_stats(), *b = new_stats(), *all = new_stats();
	struct sample_sum s;
	uint64_t longest;

	/* all: the same samples recorded by one job */
	fill_dir(a, 0, 3000, 11);
	fill_dir(b, 0, 2000, 12);
	fill_dir(all, 0, 3000, 11);
	fill_dir(all, 0, 2000, 12);
	a->first_error = 0;
	b->first_error = 5;
	longest = a->dir[0].runtime_ns > b->dir[0].runtime_ns ? a->dir[0].runtime_ns :
		  b->dir[0].runtime_ns;
	stats_merge(a, b);
	ck_assert_int_eq(memcmp(&a->dir[0].clat, &all->dir[0].clat, sizeof(struct moments)), 0);
	ck_assert_int_eq(memcmp(&a->dir[0].slat, &all->dir[0].slat, sizeof(struct moments)), 0);
	ck_assert_int_eq(memcmp(&a->dir[0].lat, &all->dir[0].lat, sizeof(struct moments)), 0);
	ck_assert_int_eq(memcmp(&a->dir[0].clat_hist, &all->dir[0].clat_hist, sizeof(struct hist)),
			 0);
	ck_assert_int_eq(memcmp(a->lat_buckets, all->lat_buckets, sizeof(a->lat_buckets)), 0);
	ck_assert_int_eq(memcmp(a->depth, all->depth, sizeof(a->depth)), 0);
	ck_assert_int_eq(memcmp(a->submit, all->submit, sizeof(a->submit)), 0);
	ck_assert_uint_eq(a->dir[0].ios, 5000);
	ck_assert_uint_eq(a->dir[0].bytes, 5000 * 4096ULL);
	ck_assert_uint_eq(a->issued[0], 5000);
	ck_assert_uint_eq(a->usr_ns, all->usr_ns);
	ck_assert_uint_eq(a->runtime_ns, 2000000000);	/* summed: CPU use stays an average */
	ck_assert_uint_eq(a->dir[0].runtime_ns, longest);
	ck_assert_int_eq(a->first_error, 5);
	/* bw samples are pure summed: 4 + 4 samples, means added */
	stats_samples(&a->dir[0].bw, &a->dir[0].bw_sum, &s);
	ck_assert_uint_eq(s.n, 8);
	ck_assert_uint_eq(s.parts, 2);
	assert_close(s.mean, moments_mean(&all->dir[0].bw) * 2, "bw mean");
	free(all);
	free(b);
	free(a);
}
END_TEST

/* fio 3.33, numjobs=2 group_reporting, bw and iops logs of each job next to the report. */
START_TEST(merge_sums_bw_samples_as_fio_reports_them)
{
	static const uint64_t bw1[] = { 20480, 20521, 20608 }, bw2[] = { 20480, 20521, 20480 };
	static const uint64_t io1[] = { 320, 320, 322 }, io2[] = { 320, 320, 320 };
	struct job_stats *a = new_stats(), *b = new_stats(), *g = new_stats();
	struct sample_sum s;
	char line[128];
	unsigned i;

	for (i = 0; i < 3; i++) {
		moments_add(&a->dir[0].bw, bw1[i], 1);
		moments_add(&b->dir[0].bw, bw2[i], 1);
		moments_add(&a->dir[0].iops, io1[i], 1);
		moments_add(&b->dir[0].iops, io2[i], 1);
	}
	stats_merge(g, a);
	stats_merge(g, b);
	stats_samples(&g->dir[0].bw, &g->dir[0].bw_sum, &s);
	snprintf(line, sizeof(line), "min=%llu, max=%llu, avg=%5.02f, stdev=%5.02f, samples=%llu",
		 (unsigned long long)s.min, (unsigned long long)s.max, s.mean,
		 stats_samples_stddev(&s), (unsigned long long)s.n);
	ck_assert_str_eq(line, "min=40960, max=41129, avg=41030.00, stdev=43.97, samples=6");
	stats_samples(&g->dir[0].iops, &g->dir[0].iops_sum, &s);
	snprintf(line, sizeof(line), "min=%llu, max=%llu, avg=%5.02f, stdev=%5.02f, samples=%llu",
		 (unsigned long long)s.min, (unsigned long long)s.max, s.mean,
		 stats_samples_stddev(&s), (unsigned long long)s.n);
	ck_assert_str_eq(line, "min=640, max=642, avg=640.67, stdev= 0.73, samples=6");
	free(g);
	free(b);
	free(a);
}
END_TEST

START_TEST(merge_with_an_empty_job_changes_nothing)
{
	struct job_stats *a = new_stats(), *copy = new_stats(), *empty = new_stats();
	struct sample_sum s1, s2;

	fill_dir(a, 1, 500, 3);
	*copy = *a;
	stats_merge(a, empty);
	ck_assert_int_eq(memcmp(&a->dir[1].clat, &copy->dir[1].clat, sizeof(struct moments)), 0);
	stats_samples(&a->dir[1].bw, &a->dir[1].bw_sum, &s1);
	stats_samples(&copy->dir[1].bw, &copy->dir[1].bw_sum, &s2);
	ck_assert_uint_eq(s1.n, s2.n);
	ck_assert_uint_eq(s1.min, s2.min);
	ck_assert(s1.mean == s2.mean);
	ck_assert_uint_eq(a->dir[0].clat.min, UINT64_MAX);
	free(empty);
	free(copy);
	free(a);
}
END_TEST

START_TEST(unify_folds_write_and_trim_into_read)
{
	struct job_stats *st = new_stats(), *ref = new_stats();
	struct sample_sum s, r, w;
	uint64_t longest;
	unsigned i;

	fill_dir(st, 0, 700, 21);
	fill_dir(st, 1, 300, 22);
	fill_dir(st, 2, 100, 23);
	*ref = *st;
	longest = ref->dir[0].runtime_ns;
	for (i = 1; i < STATS_NDIR; i++)
		longest = ref->dir[i].runtime_ns > longest ? ref->dir[i].runtime_ns : longest;
	stats_unify(st);
	ck_assert_uint_eq(st->dir[0].ios, 1100);
	ck_assert_uint_eq(st->dir[0].bytes, 1100 * 4096ULL);
	ck_assert_uint_eq(st->issued[0], 1100);
	ck_assert_uint_eq(st->issued[1], 0);
	ck_assert_uint_eq(st->issued[2], 0);
	ck_assert_uint_eq(st->dir[0].clat.n, 1100);
	ck_assert_uint_eq(hist_total(&st->dir[0].clat_hist), 1100);
	ck_assert_uint_eq(st->dir[1].ios, 0);
	ck_assert_uint_eq(st->dir[2].runtime_ns, 0);
	ck_assert_uint_eq(st->dir[1].clat.min, UINT64_MAX);
	ck_assert_uint_eq(st->dir[0].runtime_ns, longest);
	/* rates add up: 12 samples whose mean is the sum of the three means */
	stats_samples(&st->dir[0].bw, &st->dir[0].bw_sum, &s);
	stats_samples(&ref->dir[0].bw, &ref->dir[0].bw_sum, &r);
	stats_samples(&ref->dir[1].bw, &ref->dir[1].bw_sum, &w);
	ck_assert_uint_eq(s.n, 12);
	ck_assert_uint_eq(s.parts, 3);
	ck_assert(s.min > r.min + w.min);
	/* unifying twice is unifying once */
	*ref = *st;
	stats_unify(st);
	ck_assert_int_eq(memcmp(&st->dir[0].bw_sum, &ref->dir[0].bw_sum, sizeof(s)), 0);
	ck_assert_uint_eq(st->dir[0].ios, ref->dir[0].ios);
	free(ref);
	free(st);
}
END_TEST

/* Every edge of fio's lat buckets: the last value of one bucket and the first of the next. */
static const struct {
	uint64_t ns;
	unsigned idx;
} lat_cases[] = {
	{ 0, 0 }, { 1, 0 }, { 2, 1 }, { 3, 1 }, { 4, 2 }, { 9, 2 }, { 10, 3 }, { 19, 3 },
	{ 20, 4 }, { 49, 4 }, { 50, 5 }, { 99, 5 }, { 100, 6 }, { 249, 6 }, { 250, 7 },
	{ 499, 7 }, { 500, 8 }, { 749, 8 }, { 750, 9 }, { 999, 9 },
	{ 1000, 10 }, { 1999, 10 }, { 2000, 11 }, { 3999, 11 }, { 4000, 12 }, { 9999, 12 },
	{ 10000, 13 }, { 19999, 13 }, { 20000, 14 }, { 49999, 14 }, { 50000, 15 },
	{ 99999, 15 }, { 100000, 16 }, { 249999, 16 }, { 250000, 17 }, { 499999, 17 },
	{ 500000, 18 }, { 749999, 18 }, { 750000, 19 }, { 999999, 19 },
	{ 1000000, 20 }, { 1999999, 20 }, { 2000000, 21 }, { 3999999, 21 }, { 4000000, 22 },
	{ 9999999, 22 }, { 10000000, 23 }, { 19999999, 23 }, { 20000000, 24 }, { 49999999, 24 },
	{ 50000000, 25 }, { 99999999, 25 }, { 100000000, 26 }, { 249999999, 26 },
	{ 250000000, 27 }, { 499999999, 27 }, { 500000000, 28 }, { 749999999, 28 },
	{ 750000000, 29 }, { 999999999, 29 }, { 1000000000, 30 }, { 1999999999, 30 },
	{ 2000000000, 31 }, { UINT64_MAX, 31 },
};

START_TEST(lat_bucket_edges_are_fios)
{
	ck_assert_uint_eq(stats_lat_bucket(lat_cases[_i].ns), lat_cases[_i].idx);
}
END_TEST

/* The lookup by histogram bucket must agree with the direct rule at and around every edge. */
START_TEST(lat_map_agrees_with_the_direct_rule)
{
	struct lat_map m;
	unsigned checked = 0;

	stats_lat_map_init(&m);
	for (unsigned c = 0; c < TABLE_LEN(lat_cases); c++) {
		for (int64_t delta = -300; delta <= 300; delta++) {
			uint64_t ns = lat_cases[c].ns + (uint64_t)delta;

			if ((delta < 0 && ns > lat_cases[c].ns) || (delta > 0 && ns < lat_cases[c].ns))
				continue;	/* wrapped around 0 or UINT64_MAX */
			if (stats_lat_bucket_of(&m, hist_index(ns), ns) != stats_lat_bucket(ns))
				ck_abort_msg("ns %llu: map %u, rule %u", (unsigned long long)ns,
					     stats_lat_bucket_of(&m, hist_index(ns), ns),
					     stats_lat_bucket(ns));
			checked++;
		}
	}
	for (uint64_t ns = 1; ns < (1ULL << 44); ns += ns / 97 + 1, checked++)
		if (stats_lat_bucket_of(&m, hist_index(ns), ns) != stats_lat_bucket(ns))
			ck_abort_msg("ns %llu disagrees", (unsigned long long)ns);
	ck_assert_uint_gt(checked, 10000);
}
END_TEST

static const struct {
	unsigned n, depth, batch;
} depth_cases[] = {
	{ 0, 0, 0 }, { 1, 0, 1 }, { 2, 1, 1 }, { 3, 1, 1 }, { 4, 2, 1 }, { 5, 2, 2 },
	{ 7, 2, 2 }, { 8, 3, 2 }, { 9, 3, 3 }, { 15, 3, 3 }, { 16, 4, 3 }, { 17, 4, 4 },
	{ 31, 4, 4 }, { 32, 5, 4 }, { 33, 5, 5 }, { 63, 5, 5 }, { 64, 6, 5 }, { 65, 6, 6 },
	{ 4096, 6, 6 }, { UINT32_MAX, 6, 6 },
};

START_TEST(depth_and_batch_bucket_edges_are_fios)
{
	ck_assert_uint_eq(stats_depth_bucket(depth_cases[_i].n), depth_cases[_i].depth);
	ck_assert_uint_eq(stats_batch_bucket(depth_cases[_i].n), depth_cases[_i].batch);
}
END_TEST

/* n clat samples of value ns in direction d, counted under the job's priority slot k too. */
static void add_prio(struct job_stats *st, int d, unsigned k, uint64_t ns, uint64_t n)
{
	struct dir_stats *ds = &st->dir[d];

	ds->ios += n;
	moments_add(&ds->clat, ns, n);
	hist_add(&ds->clat_hist, ns, n);
	if (ds->nprio) {
		moments_add(&ds->prio[k].lat, ns, n);
		hist_add(&ds->prio[k].hist, ns, n);
	}
}

static const struct prio_stats *find_prio(const struct dir_stats *d, uint32_t ioprio)
{
	for (unsigned i = 0; i < d->nprio; i++)
		if (d->prio[i].ioprio == ioprio)
			return &d->prio[i];
	return NULL;
}

START_TEST(prio_merge_adds_entries_of_equal_priority)
{
	struct job_stats *g = new_stats(), *a = new_stats(), *b = new_stats();
	const uint32_t pa[] = { 0, 1 << 13 }, pb[] = { 0, 3 << 13 | 2, 1 << 13 };

	stats_prio_layout(&a->dir[0], 0, pa, 2, false);
	stats_prio_layout(&b->dir[0], 0, pb, 3, false);
	add_prio(a, 0, 0, 1000, 3);
	add_prio(a, 0, 1, 2000, 5);
	add_prio(b, 0, 1, 4000, 7);
	add_prio(b, 0, 2, 500, 11);
	stats_merge(g, a);
	stats_merge(g, b);
	ck_assert_uint_eq(g->dir[0].nprio, 3);
	ck_assert_uint_eq(find_prio(&g->dir[0], 0)->lat.n, 3);
	ck_assert_uint_eq(find_prio(&g->dir[0], 1 << 13)->lat.n, 16);
	ck_assert_uint_eq(find_prio(&g->dir[0], 1 << 13)->lat.min, 500);
	ck_assert_uint_eq(find_prio(&g->dir[0], 3 << 13 | 2)->lat.n, 7);
	ck_assert_uint_eq(hist_total(&find_prio(&g->dir[0], 1 << 13)->hist), 16);
	ck_assert_uint_eq(g->dir[1].nprio, 0);
	free(a);
	free(b);
	free(g);
}
END_TEST

START_TEST(prio_merge_tells_apart_jobs_of_different_priorities)
{
	struct job_stats *g = new_stats(), *a = new_stats(), *b = new_stats(), *c = new_stats();

	stats_prio_layout(&a->dir[0], 2 << 13 | 1, NULL, 0, false);
	stats_prio_layout(&b->dir[0], 2 << 13 | 5, NULL, 0, false);
	stats_prio_layout(&c->dir[0], 2 << 13 | 1, NULL, 0, false);
	add_prio(a, 0, 0, 1000, 4);
	add_prio(b, 0, 0, 3000, 6);
	add_prio(c, 0, 0, 2000, 1);
	stats_merge(g, a);
	stats_merge(g, c);
	ck_assert_uint_eq(g->dir[0].nprio, 0);	/* one priority: no view of its own */
	stats_merge(g, b);
	ck_assert_uint_eq(g->dir[0].nprio, 2);
	ck_assert_uint_eq(find_prio(&g->dir[0], 2 << 13 | 1)->lat.n, 5);
	ck_assert_uint_eq(find_prio(&g->dir[0], 2 << 13 | 5)->lat.n, 6);
	ck_assert_uint_eq(find_prio(&g->dir[0], 2 << 13 | 5)->lat.max, 3000);
	free(a);
	free(b);
	free(c);
	free(g);
}
END_TEST

START_TEST(prio_merge_past_the_slots_gives_the_view_up)
{
	struct job_stats *g = new_stats(), *a = new_stats(), *b = new_stats();
	uint32_t pa[STATS_PRIO_NR], pb[STATS_PRIO_NR];

	/* each job fills the slots, sharing only the job's own priority: too many together */
	for (unsigned k = 0; k < STATS_PRIO_NR; k++) {
		pa[k] = k;
		pb[k] = k ? STATS_PRIO_NR - 1 + k : 0;
	}
	stats_prio_layout(&a->dir[0], 0, pa, STATS_PRIO_NR, false);
	stats_prio_layout(&b->dir[0], 0, pb, STATS_PRIO_NR, false);
	for (unsigned k = 0; k < STATS_PRIO_NR; k++) {
		add_prio(a, 0, k, 100, 1);
		add_prio(b, 0, k, 100, 1);
	}
	stats_merge(g, a);
	ck_assert(!g->dir[0].prio_dropped);
	stats_merge(g, b);
	ck_assert(g->dir[0].prio_dropped);
	ck_assert_uint_eq(g->dir[0].clat.n, 2 * STATS_PRIO_NR);
	free(a);
	free(b);
	free(g);
}
END_TEST

START_TEST(unify_merges_the_priorities_of_both_directions)
{
	struct job_stats *st = new_stats();
	const uint32_t p[] = { 0, 1 << 13 };

	stats_prio_layout(&st->dir[0], 0, p, 2, false);
	stats_prio_layout(&st->dir[1], 0, p, 2, false);
	add_prio(st, 0, 1, 100, 2);
	add_prio(st, 1, 1, 200, 3);
	add_prio(st, 1, 0, 300, 4);
	stats_unify(st);
	ck_assert_uint_eq(find_prio(&st->dir[0], 1 << 13)->lat.n, 5);
	ck_assert_uint_eq(find_prio(&st->dir[0], 0)->lat.n, 4);
	ck_assert_uint_eq(st->dir[1].nprio, 0);
	free(st);
}
END_TEST

START_TEST(restart_is_init_for_stats_in_use)
{
	struct job_stats *st = new_stats(), *ref = new_stats();
	const uint32_t p[] = { 0, 1 << 13, 2 << 13 };

	fill_dir(st, 0, 300, 7);
	fill_dir(st, 1, 200, 9);
	stats_prio_layout(&st->dir[0], 0, p, 3, true);
	add_prio(st, 0, 2, 4000, 3);
	st->depth[2] = 5;
	st->runtime_ns = 77;
	stats_restart(st);
	ck_assert_int_eq(memcmp(st, ref, sizeof(*st)), 0);
	free(st);
	free(ref);
}
END_TEST

/*
 * Pages of memory the mapping that holds p costs (Rss in /proc/self/smaps). Where the
 * kernel maps its shared zero page for pages only read, those cost nothing and are not
 * counted; mincore() would count them. Two stats_new() blocks side by side may share one
 * mapping.
 */
static unsigned resident_pages(const void *p)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[256];
	bool in = false;
	unsigned kb = 0;

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
			in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
		else if (in && sscanf(line, "Rss: %u kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb / 4;
}

/*
 * 512 jobs each hold a job_stats of 450 KB: only the pages their I/Os touch may cost
 * memory. Init writes the moments at the head of each direction and of the sync part
 * (4 places, each at most 2 pages); a sample, a restart and a merge add no more than
 * the pages they write. Without stats_new() (calloc, once glibc raised its mmap
 * threshold) every page is in memory. The merge and the restart do not even read the
 * pages never written (base/mem_pages.h): where the kernel maps no zero page (this
 * project's CI machines, pvm_no_zero_page) a page read would cost a page.
 */
START_TEST(stats_new_leaves_the_histograms_unmapped)
{
	struct job_stats *st, *sum;
	unsigned fresh, sampled;
	uint64_t pcts[2];

	st = stats_new();
	sum = stats_new();
	ck_assert_ptr_nonnull(st);
	ck_assert_ptr_nonnull(sum);
	fresh = resident_pages(st) + (resident_pages(sum) != resident_pages(st) ?
				      resident_pages(sum) : 0);
	ck_assert_uint_le(fresh, 2 * 8);
	ck_assert_uint_gt(sizeof(*st) / 4096, 100);
	hist_add(&st->dir[0].clat_hist, 100000, 1);
	moments_add1(&st->dir[0].clat, 100000);
	/* the merge adds the sample's page in each: it reads no page that was never written */
	stats_merge(sum, st);
	ck_assert_uint_eq(sum->dir[0].clat_hist.count[hist_index(100000)], 1);
	ck_assert_uint_le(resident_pages(sum), fresh + 1 + 1);
	/* nor do the report's readers */
	sampled = resident_pages(sum);
	ck_assert_uint_eq(hist_total(&sum->dir[0].slat_hist) + hist_total(&sum->sync_hist), 0);
	hist_percentiles(&sum->dir[1].clat_hist, (const double[]){ 50, 99 }, 2, pcts);
	ck_assert_uint_eq(pcts[0] + pcts[1], 0);
	stats_fold_exact_clat(sum);
	ck_assert_uint_eq(sum->dir[0].clat.n + sum->dir[1].clat.n + sum->dir[2].clat.n, 1);
	ck_assert_uint_eq(resident_pages(sum), sampled);
	/* a restart reads only the pages written, and writes only what was used */
	sampled = resident_pages(st);
	stats_restart(st);
	ck_assert_uint_eq(resident_pages(st), sampled);
	ck_assert_uint_eq(hist_total(&st->dir[0].clat_hist), 0);
	ck_assert_uint_eq(st->dir[0].clat.n, 0);
	stats_free(st);
	stats_free(sum);
}
END_TEST

/* Pages of st that may hold data (base/mem_pages.h): those a copy must carry. */
static unsigned pages_written(const struct job_stats *st)
{
	const char *p = (const char *)st;
	size_t chunk = MEM_PAGES_MAX * mem_page_size();
	unsigned n = 0;

	for (size_t at = 0; at < sizeof(*st); at += chunk)
		n += (unsigned)__builtin_popcountll(mem_pages_used(p + at, sizeof(*st) - at < chunk ?
								   sizeof(*st) - at : chunk));
	return n;
}

/*
 * A --status-interval copy (stats_copy) equals its source, old samples of the copy
 * cleared, and costs only the pages the source wrote: a memcpy would give all 110 of the
 * copy's pages memory.
 */
START_TEST(copy_is_equal_and_takes_only_the_pages_written)
{
	struct job_stats *st = stats_new(), *c = stats_new();
	unsigned before;

	ck_assert_ptr_nonnull(st);
	ck_assert_ptr_nonnull(c);
	hist_add(&st->dir[0].clat_hist, 100000, 2);
	moments_add(&st->dir[0].clat, 100000, 2);
	hist_add(&st->dir[1].lat_hist, 5000000, 1);
	hist_add(&st->sync_hist, 30000000, 1);
	before = resident_pages(c) + (resident_pages(c) != resident_pages(st) ?
				      resident_pages(st) : 0);
	stats_copy(c, st);
	ck_assert_uint_le(resident_pages(c) + (resident_pages(c) != resident_pages(st) ?
					      resident_pages(st) : 0), before + pages_written(st));
	ck_assert_uint_lt(pages_written(st), 16);
	ck_assert_int_eq(memcmp(c, st, sizeof(*st)), 0);
	/* the copy's old samples go where the source has none now */
	stats_restart(st);
	hist_add(&st->dir[2].clat_hist, 700, 1);
	stats_copy(c, st);
	ck_assert_int_eq(memcmp(c, st, sizeof(*st)), 0);
	stats_free(st);
	stats_free(c);
}
END_TEST

/*
 * The event loop's way (engine/loop/account.h): a latency below HIST_EXACT goes into its bucket
 * alone, one above into the bucket, the moments and the lat buckets. After the fold the
 * figures are those of adding every sample everywhere, in every direction.
 */
START_TEST(fold_of_exact_buckets_equals_adding_each_sample)
{
	struct job_stats *loop = new_stats(), *each = new_stats();
	struct lat_map m;
	uint64_t seed = 0x9e3779b97f4a7c15ULL, sum[STATS_NDIR] = { 0 };

	stats_lat_map_init(&m);
	for (unsigned i = 0; i < 20000; i++) {
		int d = (int)(i % STATS_NDIR);
		/* mostly below 128 ns, some above, some at the edges */
		uint64_t v = i % 7 ? rng_next(&seed) % 140 : rng_next(&seed) % 5000 + 100;
		unsigned idx = hist_index(v);
		unsigned n = i % 5 ? 1 : 3;

		each->dir[d].clat_hist.count[idx] += n;
		moments_add(&each->dir[d].clat, v, n);
		each->lat_buckets[stats_lat_bucket(v)] += n;
		loop->dir[d].clat_hist.count[idx] += n;
		if (v >= HIST_EXACT) {
			moments_add(&loop->dir[d].clat, v, n);
			loop->lat_buckets[stats_lat_bucket_of(&m, idx, v)] += n;
		} else {
			sum[d] += v * n;
		}
	}
	for (int d = 0; d < STATS_NDIR; d++)
		ck_assert_uint_eq(stats_exact_clat_sum(&loop->dir[d].clat_hist), sum[d]);
	stats_fold_exact_clat(loop);
	for (int d = 0; d < STATS_NDIR; d++) {
		ck_assert_uint_eq(loop->dir[d].clat.n, each->dir[d].clat.n);
		ck_assert_uint_eq(loop->dir[d].clat.min, each->dir[d].clat.min);
		ck_assert_uint_eq(loop->dir[d].clat.max, each->dir[d].clat.max);
		ck_assert_uint_eq(loop->dir[d].clat.sum, each->dir[d].clat.sum);
		ck_assert(loop->dir[d].clat.sumsq == each->dir[d].clat.sumsq);
	}
	ck_assert_int_eq(memcmp(loop->lat_buckets, each->lat_buckets, sizeof(each->lat_buckets)), 0);
	free(loop);
	free(each);
}
END_TEST

static Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc;

	tc = tcase_create("moments");
	tcase_add_loop_test(tc, moments_match_direct_computation, 0, TABLE_LEN(moment_cases));
	tcase_add_test(tc, moments_add_counts_repeated_values);
	tcase_add_test(tc, fold_of_exact_buckets_equals_adding_each_sample);
	suite_add_tcase(s, tc);

	tc = tcase_create("merge");
	tcase_add_test(tc, merge_of_two_equals_one_job_over_the_union);
	tcase_add_test(tc, merge_sums_bw_samples_as_fio_reports_them);
	tcase_add_test(tc, merge_with_an_empty_job_changes_nothing);
	suite_add_tcase(s, tc);

	tc = tcase_create("unify");
	tcase_add_test(tc, unify_folds_write_and_trim_into_read);
	suite_add_tcase(s, tc);

	tc = tcase_create("priorities");
	tcase_add_test(tc, prio_merge_adds_entries_of_equal_priority);
	tcase_add_test(tc, prio_merge_tells_apart_jobs_of_different_priorities);
	tcase_add_test(tc, prio_merge_past_the_slots_gives_the_view_up);
	tcase_add_test(tc, unify_merges_the_priorities_of_both_directions);
	tcase_add_test(tc, restart_is_init_for_stats_in_use);
	tcase_add_test(tc, stats_new_leaves_the_histograms_unmapped);
	tcase_add_test(tc, copy_is_equal_and_takes_only_the_pages_written);
	suite_add_tcase(s, tc);

	tc = tcase_create("buckets");
	tcase_add_loop_test(tc, lat_bucket_edges_are_fios, 0, TABLE_LEN(lat_cases));
	tcase_add_test(tc, lat_map_agrees_with_the_direct_rule);
	tcase_add_loop_test(tc, depth_and_batch_bucket_edges_are_fios, 0, TABLE_LEN(depth_cases));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(stats_suite());
}
