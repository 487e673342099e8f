/*
 * Log-linear latency histograms: bucket values, merging and fio's percentile rule, each
 * reading only the buckets on pages that were written (hist_spans).
 */
#include "output/hist.h"

#include "base/mem_pages.h"

uint64_t hist_bucket_value(unsigned idx)
{
	unsigned err_bits;
	uint64_t base, k;

	if (idx >= HIST_BUCKETS)
		idx = HIST_BUCKETS - 1;
	if (idx < 2 * HIST_VAL)
		return idx;
	/* Group g >= 2 starts at 2^(g + BITS - 1) and has buckets 2^(g - 1) wide. */
	err_bits = (idx >> HIST_BITS) - 1;
	base = (uint64_t)1 << (err_bits + HIST_BITS);
	k = idx & (HIST_VAL - 1);
	return base + (k << err_bits) + ((uint64_t)1 << (err_bits - 1));
}

/* Pages of 4 KiB or more: a histogram lies on at most 6, so at most 3 spans apart. */
_Static_assert((sizeof(struct hist) / 4096 + 2) / 2 <= HIST_SPANS, "too few spans");

void hist_spans(const struct hist *h, struct hist_spans *s)
{
	size_t page = mem_page_size(), per = page / sizeof(h->count[0]);
	uintptr_t start = (uintptr_t)h->count;
	uint64_t used = mem_pages_used(h->count, sizeof(h->count));
	/* buckets on the first page: a bucket never straddles two, being 8-byte aligned */
	unsigned lo = 0, hi = (unsigned)((page - start % page) / sizeof(h->count[0]));

	s->n = 0;
	for (unsigned k = 0; lo < HIST_BUCKETS; k++, lo = hi, hi += (unsigned)per) {
		if (hi > HIST_BUCKETS)
			hi = HIST_BUCKETS;
		if (!(used >> k & 1))
			continue;
		if (s->n && s->hi[s->n - 1] == lo)
			s->hi[s->n - 1] = (uint16_t)hi;	/* joins the span before */
		else if (s->n < HIST_SPANS) {
			s->lo[s->n] = (uint16_t)lo;
			s->hi[s->n++] = (uint16_t)hi;
		}
	}
}

/* Only buckets src has are written, so that dst's untouched pages stay unmapped. */
void hist_merge(struct hist *dst, const struct hist *src)
{
	struct hist_spans s;

	hist_spans(src, &s);
	for (unsigned k = 0; k < s.n; k++)
		for (unsigned i = s.lo[k]; i < s.hi[k]; i++)
			if (src->count[i])
				dst->count[i] += src->count[i];
}

static uint64_t spans_total(const struct hist *h, const struct hist_spans *s)
{
	uint64_t n = 0;

	for (unsigned k = 0; k < s->n; k++)
		for (unsigned i = s->lo[k]; i < s->hi[k]; i++)
			n += h->count[i];
	return n;
}

uint64_t hist_total(const struct hist *h)
{
	struct hist_spans s;

	hist_spans(h, &s);
	return spans_total(h, &s);
}

/* The last bucket holding a sample; the histogram is not empty. */
static unsigned last_used(const struct hist *h, const struct hist_spans *s)
{
	for (unsigned k = s->n; k-- > 0;)
		for (unsigned i = s->hi[k]; i-- > s->lo[k];)
			if (h->count[i])
				return i;
	return 0;
}

/* The first bucket where the running count reaches want; HIST_BUCKETS where none does. */
static unsigned first_reaching(const struct hist *h, const struct hist_spans *s,
			       long double want)
{
	uint64_t sum = 0;

	for (unsigned k = 0; k < s->n; k++) {
		for (unsigned i = s->lo[k]; i < s->hi[k]; i++) {
			sum += h->count[i];
			if ((long double)sum >= want)
				return i;
		}
	}
	return HIST_BUCKETS;
}

void hist_percentiles(const struct hist *h, const double *pct, unsigned npct, uint64_t *out)
{
	struct hist_spans s;
	uint64_t total;
	unsigned i;

	hist_spans(h, &s);
	total = spans_total(h, &s);
	for (unsigned j = 0; j < npct; j++) {
		out[j] = 0;
		if (!total)
			continue;
		i = first_reaching(h, &s, (long double)pct[j] / 100.0L * (long double)total);
		if (i == HIST_BUCKETS)	/* only a percentile above 100 gets here */
			i = last_used(h, &s);
		out[j] = hist_bucket_value(i);
	}
}
