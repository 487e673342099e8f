/*
 * Job statistics: exact merging of counters, histograms and integer moments, and the
 * mean and standard deviation of those moments without cancellation.
 */
#include "output/stats.h"

#include <math.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>

#include "base/mem_pages.h"

/* The fields of a zeroed direction that do not start at zero. */
static void dir_init(struct dir_stats *d)
{
	moments_init(&d->slat);
	moments_init(&d->clat);
	moments_init(&d->lat);
	moments_init(&d->bw);
	moments_init(&d->iops);
}

struct job_stats *stats_new(void)
{
	void *p = mmap(NULL, sizeof(struct job_stats), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	stats_init_zeroed(p);
	return p;
}

void stats_free(struct job_stats *st)
{
	if (st)
		munmap(st, sizeof(*st));
}

void stats_init(struct job_stats *st)
{
	memset(st, 0, sizeof(*st));
	stats_init_zeroed(st);
}

/*
 * Zero n bytes at p, writing only the 64-byte runs that are not zero already, and not
 * even reading the pages never written (base/mem_pages.h): a page no sample touched has
 * no memory of its own (or is the shared zero page), and a write or a read would give it
 * some.
 */
static void clear_lazily(char *p, size_t n)
{
	static const char zero[64];
	size_t page = mem_page_size(), at = 0;

	while (at < n) {
		uint64_t used = mem_pages_used(p + at, n - at);
		/* the end of the page p + at is on, then of each next one the probe answered */
		size_t end = ((uintptr_t)(p + at) / page + 1) * page - (uintptr_t)p;

		for (unsigned k = 0; k < MEM_PAGES_MAX && at < n; k++, end += page) {
			size_t stop = end < n ? end : n;

			for (; (used >> k & 1) && at < stop; at += sizeof(zero)) {
				size_t len = stop - at < sizeof(zero) ? stop - at : sizeof(zero);

				if (memcmp(p + at, zero, len))
					memset(p + at, 0, len);
			}
			at = stop;
		}
	}
}

/*
 * Copy n bytes from src to dst page by page: a page of src never written is zeros, so
 * dst's is cleared lazily instead, and neither is touched where neither was written.
 */
static void copy_lazily(char *dst, const char *src, size_t n)
{
	size_t page = mem_page_size(), at = 0, zeros = 0;	/* zeros: where a gap began */

	while (at < n) {
		uint64_t used = mem_pages_used(src + at, n - at);
		size_t end = ((uintptr_t)(src + at) / page + 1) * page - (uintptr_t)src;

		for (unsigned k = 0; k < MEM_PAGES_MAX && at < n; k++, end += page) {
			size_t stop = end < n ? end : n;

			if (used >> k & 1) {
				clear_lazily(dst + zeros, at - zeros);
				memcpy(dst + at, src + at, stop - at);
				zeros = stop;
			}
			at = stop;
		}
	}
	clear_lazily(dst + zeros, n - zeros);
}

void stats_copy(struct job_stats *dst, const struct job_stats *src)
{
	copy_lazily((char *)dst, (const char *)src, sizeof(*src));
}

void stats_restart(struct job_stats *st)
{
	size_t tail = offsetof(struct job_stats, dir) + sizeof(st->dir);
	size_t hists = offsetof(struct dir_stats, clat_hist);
	size_t prio = offsetof(struct dir_stats, prio);

	for (unsigned i = 0; i < STATS_NDIR; i++) {
		struct dir_stats *d = &st->dir[i];
		unsigned used = d->nprio;

		memset(d, 0, hists);
		clear_lazily((char *)d + hists, prio - hists);
		memset(d->prio, 0, used * sizeof(d->prio[0]));
	}
	clear_lazily((char *)st + tail, sizeof(*st) - tail);
	stats_init_zeroed(st);
}

void stats_init_zeroed(struct job_stats *st)
{
	for (unsigned i = 0; i < STATS_NDIR; i++)
		dir_init(&st->dir[i]);
	moments_init(&st->sync_lat);
}

void moments_merge(struct moments *dst, const struct moments *src)
{
	if (!src->n)
		return;
	dst->n += src->n;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

double moments_mean(const struct moments *m)
{
	if (!m->n)
		return 0.0;
	return (double)((long double)m->sum / (long double)m->n);
}

/*
 * The sum of squared deviations, sumsq - sum^2 / n. sum^2 fits in 128 bits and sumsq is
 * at least sum^2 / n, so the integer part of the difference is exact; only the remainder
 * of the division is a fraction.
 */
static long double moments_m2(const struct moments *m)
{
	stats_u128 sq, q;
	uint64_t r;

	if (!m->n)
		return 0.0L;
	sq = (stats_u128)m->sum * m->sum;
	q = sq / m->n;
	r = (uint64_t)(sq % m->n);
	if (m->sumsq < q)	/* impossible for real samples; keep the result sane */
		return 0.0L;
	return (long double)(m->sumsq - q) - (long double)r / (long double)m->n;
}

double moments_stddev(const struct moments *m)
{
	long double m2;

	if (m->n < 2)
		return 0.0;
	m2 = moments_m2(m);
	if (m2 <= 0.0L)
		return 0.0;
	return (double)sqrtl(m2 / (long double)(m->n - 1));
}

void stats_samples(const struct moments *m, const struct sample_sum *sum,
		   struct sample_sum *out)
{
	if (sum->parts) {
		*out = *sum;
		return;
	}
	memset(out, 0, sizeof(*out));
	if (!m->n)
		return;
	out->parts = 1;
	out->n = m->n;
	out->min = m->min;
	out->max = m->max;
	out->mean = moments_mean(m);
	out->m2 = (double)moments_m2(m);
}

double stats_samples_stddev(const struct sample_sum *s)
{
	if (s->n < 2 || s->m2 <= 0.0)
		return 0.0;
	return sqrt(s->m2 / (double)(s->n - 1));
}

/* Pure sum of two views, as fio adds bw/iops samples of parts that ran side by side. */
static void samples_add(struct sample_sum *dst, const struct sample_sum *src)
{
	if (!src->n)
		return;
	if (!dst->n) {
		*dst = *src;
		return;
	}
	dst->parts += src->parts;
	dst->n += src->n;
	dst->min += src->min;
	dst->max += src->max;
	dst->mean += src->mean;
	dst->m2 += src->m2;
}

/* dst's bw and iops summed views with src's added, taken before dst's moments change. */
static void dir_sum_samples(struct dir_stats *dst, const struct dir_stats *src)
{
	struct sample_sum a, b;

	stats_samples(&dst->bw, &dst->bw_sum, &a);
	stats_samples(&src->bw, &src->bw_sum, &b);
	samples_add(&a, &b);
	dst->bw_sum = a;
	stats_samples(&dst->iops, &dst->iops_sum, &a);
	stats_samples(&src->iops, &src->iops_sum, &b);
	samples_add(&a, &b);
	dst->iops_sum = a;
}

static void add_counts(uint64_t *dst, const uint64_t *src, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		dst[i] += src[i];
}

void stats_prio_layout(struct dir_stats *d, uint32_t own, const uint32_t *ioprio,
		       unsigned nprio, bool lat)
{
	d->own_ioprio = own;
	d->nprio = nprio < STATS_PRIO_NR ? nprio : STATS_PRIO_NR;
	d->prio_lat = lat;
	for (unsigned i = 0; i < d->nprio; i++) {
		d->prio[i].ioprio = ioprio[i];
		moments_init(&d->prio[i].lat);
	}
}

/* Add one priority's samples into dst's entry for ioprio, making one if need be. */
static void prio_add(struct dir_stats *dst, uint32_t ioprio, const struct moments *m,
		     const struct hist *h)
{
	unsigned i = 0;

	if (!m->n)
		return;
	while (i < dst->nprio && dst->prio[i].ioprio != ioprio)
		i++;
	if (i == STATS_PRIO_NR) {
		dst->prio_dropped = true;
		return;
	}
	if (i == dst->nprio) {
		dst->nprio++;
		dst->prio[i].ioprio = ioprio;
		moments_init(&dst->prio[i].lat);
		memset(&dst->prio[i].hist, 0, sizeof(dst->prio[i].hist));
	}
	moments_merge(&dst->prio[i].lat, m);
	hist_merge(&dst->prio[i].hist, h);
}

/* The latencies of a direction without cmdprio, as those of its one priority. */
static void prio_add_own(struct dir_stats *dst, const struct dir_stats *d)
{
	if (dst->prio_lat)
		prio_add(dst, d->own_ioprio, &d->lat, &d->lat_hist);
	else
		prio_add(dst, d->own_ioprio, &d->clat, &d->clat_hist);
}

/*
 * As fio's group sums: once one side keeps latencies per priority, so does the sum, the
 * other side's I/Os counting under the default priority. Runs before the direction's own
 * latencies are merged, so that dst's own are still only its own.
 */
static void prio_merge(struct dir_stats *dst, const struct dir_stats *src)
{
	if (!src->nprio && !dst->nprio) {
		/* Jobs of one priority each: apart only when the priorities differ (prio=). */
		if (!dst->clat.n) {
			dst->own_ioprio = src->own_ioprio;
			dst->prio_lat = src->prio_lat;
		}
		if (!dst->clat.n || !src->clat.n || src->own_ioprio == dst->own_ioprio)
			return;
	}
	dst->prio_dropped |= src->prio_dropped;
	if (!dst->nprio) {
		dst->prio_lat = src->prio_lat;
		prio_add_own(dst, dst);
	}
	if (!src->nprio) {
		prio_add_own(dst, src);
		return;
	}
	for (unsigned i = 0; i < src->nprio; i++)
		prio_add(dst, src->prio[i].ioprio, &src->prio[i].lat, &src->prio[i].hist);
}

static void dir_merge(struct dir_stats *dst, const struct dir_stats *src)
{
	prio_merge(dst, src);
	dir_sum_samples(dst, src);
	dst->ios += src->ios;
	dst->bytes += src->bytes;
	dst->short_ios += src->short_ios;
	dst->drop_ios += src->drop_ios;
	add_counts(dst->lat_over, src->lat_over, STATS_LAT_OVER_NR);
	if (src->runtime_ns > dst->runtime_ns)
		dst->runtime_ns = src->runtime_ns;
	moments_merge(&dst->slat, &src->slat);
	moments_merge(&dst->clat, &src->clat);
	moments_merge(&dst->lat, &src->lat);
	moments_merge(&dst->bw, &src->bw);
	moments_merge(&dst->iops, &src->iops);
	hist_merge(&dst->clat_hist, &src->clat_hist);
	hist_merge(&dst->slat_hist, &src->slat_hist);
	hist_merge(&dst->lat_hist, &src->lat_hist);
}

void stats_merge(struct job_stats *dst, const struct job_stats *src)
{
	unsigned i;

	for (i = 0; i < STATS_NDIR; i++)
		dir_merge(&dst->dir[i], &src->dir[i]);
	add_counts(dst->issued, src->issued, STATS_NDIR);
	dst->sync_ios += src->sync_ios;
	dst->fsync_ios += src->fsync_ios;
	moments_merge(&dst->sync_lat, &src->sync_lat);
	hist_merge(&dst->sync_hist, &src->sync_hist);
	add_counts(dst->depth, src->depth, STATS_DEPTH_NR);
	add_counts(dst->submit, src->submit, STATS_BATCH_NR);
	add_counts(dst->complete, src->complete, STATS_BATCH_NR);
	add_counts(dst->lat_buckets, src->lat_buckets, STATS_LAT_NR);
	dst->usr_ns += src->usr_ns;
	dst->sys_ns += src->sys_ns;
	dst->ctx += src->ctx;
	dst->majf += src->majf;
	dst->minf += src->minf;
	dst->runtime_ns += src->runtime_ns;
	dst->total_err += src->total_err;
	dst->zone_resets += src->zone_resets;
	if (!dst->first_error)
		dst->first_error = src->first_error;
	if (!dst->error)
		dst->error = src->error;
}

void stats_unify(struct job_stats *st)
{
	unsigned i;

	for (i = 1; i < STATS_NDIR; i++) {
		dir_merge(&st->dir[0], &st->dir[i]);
		memset(&st->dir[i], 0, sizeof(st->dir[i]));
		dir_init(&st->dir[i]);
		st->issued[0] += st->issued[i];
		st->issued[i] = 0;
	}
}

/* The exact buckets (below HIST_EXACT) on pages that were written, as spans. */
static void exact_spans(const struct hist *h, struct hist_spans *s)
{
	unsigned n = 0;

	hist_spans(h, s);
	for (unsigned k = 0; k < s->n && s->lo[k] < HIST_EXACT; n = ++k)
		if (s->hi[k] > HIST_EXACT)
			s->hi[k] = HIST_EXACT;
	s->n = n;
}

void stats_fold_exact_clat(struct job_stats *st)
{
	struct hist_spans s;

	for (int d = 0; d < STATS_NDIR; d++) {
		struct dir_stats *ds = &st->dir[d];

		exact_spans(&ds->clat_hist, &s);
		for (unsigned k = 0; k < s.n; k++) {
			for (unsigned v = s.lo[k]; v < s.hi[k]; v++) {
				uint64_t n = ds->clat_hist.count[v];

				if (!n)
					continue;
				moments_add(&ds->clat, v, n);
				st->lat_buckets[stats_lat_bucket(v)] += n;
			}
		}
	}
}

/*
 * Read as it is, without a probe: a running job asks every 10 ms (pace_publish), and its
 * 1 KiB of exact buckets mostly share the direction's first page with the counters that
 * stats_new() writes, so a probe would cost a system call to save no memory.
 */
uint64_t stats_exact_clat_sum(const struct hist *h)
{
	uint64_t sum = 0;

	for (unsigned v = 0; v < HIST_EXACT; v++)
		sum += v * h->count[v];
	return sum;
}

void stats_lat_map_init(struct lat_map *m)
{
	for (unsigned idx = 0; idx < HIST_BUCKETS; idx++) {
		uint64_t lo = idx, hi = idx;

		if (idx >= 2 * HIST_VAL) {
			unsigned err_bits = (idx >> HIST_BITS) - 1;

			lo = (1ULL << (err_bits + HIST_BITS)) +
			     ((uint64_t)(idx & (HIST_VAL - 1)) << err_bits);
			hi = lo + (1ULL << err_bits) - 1;
		}
		/* The last bucket also holds everything above it. */
		if (idx == HIST_BUCKETS - 1)
			hi = UINT64_MAX;
		/* Buckets are monotonic in ns: equal at both ends means equal throughout. */
		m->bucket[idx] = stats_lat_bucket(lo) == stats_lat_bucket(hi) ?
				 (uint8_t)stats_lat_bucket(lo) : STATS_LAT_SPLIT;
	}
}
