/*
 * Log-linear latency histograms: bucket values, merging and fio's percentile rule.
 */
#include "output/hist.h"

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

/* Only buckets src has are written, so that dst's untouched pages stay unmapped. */
void hist_merge(struct hist *dst, const struct hist *src)
{
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		if (src->count[i])
			dst->count[i] += src->count[i];
}

uint64_t hist_total(const struct hist *h)
{
	uint64_t n = 0;
	unsigned i;

	for (i = 0; i < HIST_BUCKETS; i++)
		n += h->count[i];
	return n;
}

/* The last bucket holding a sample; the histogram is not empty. */
static unsigned last_used(const struct hist *h)
{
	unsigned i = HIST_BUCKETS - 1;

	while (i > 0 && !h->count[i])
		i--;
	return i;
}

void hist_percentiles(const struct hist *h, const double *pct, unsigned npct, uint64_t *out)
{
	uint64_t total, sum;
	long double want;
	unsigned i, j;

	total = hist_total(h);
	for (j = 0; j < npct; j++) {
		out[j] = 0;
		if (!total)
			continue;
		/* The first bucket where the running count reaches pct/100 of the total. */
		want = (long double)pct[j] / 100.0L * (long double)total;
		sum = 0;
		for (i = 0; i < HIST_BUCKETS; i++) {
			sum += h->count[i];
			if ((long double)sum >= want)
				break;
		}
		if (i == HIST_BUCKETS)	/* only a percentile above 100 gets here */
			i = last_used(h);
		out[j] = hist_bucket_value(i);
	}
}
