/*
 * Log-linear latency histograms in nanoseconds, laid out as fio's so that bucket values
 * (and json+ "bins" keys) match fio's: values below 128 ns have a bucket each, and every
 * power of two above is split into 64 buckets, so a bucket's midpoint is within 1/128 of
 * any value in it. fio stops at 2^34 ns (17.2 s); we keep going to 2^45 ns (9.8 hours).
 * A histogram is a plain array: merging is adding bucket by bucket.
 */
#ifndef OUTPUT_HIST_H
#define OUTPUT_HIST_H

#include <stdint.h>

#define HIST_BITS	6
#define HIST_VAL	(1u << HIST_BITS)		/* buckets per power of two */
#define HIST_GROUPS	40
#define HIST_BUCKETS	(HIST_GROUPS * HIST_VAL)	/* 2560 */
#define HIST_EXACT	(2 * HIST_VAL)	/* values below it: bucket index == value (128 ns) */

struct hist {
	uint64_t count[HIST_BUCKETS];
};

/* The bucket holding ns: one count-leading-zeros and a shift. */
static inline unsigned hist_index(uint64_t ns)
{
	unsigned msb, err_bits, idx;

	if (ns < 2 * HIST_VAL)
		return (unsigned)ns;
	msb = 63 - (unsigned)__builtin_clzll(ns);
	err_bits = msb - HIST_BITS;
	idx = ((err_bits + 1) << HIST_BITS) + (unsigned)((ns >> err_bits) & (HIST_VAL - 1));
	return idx < HIST_BUCKETS ? idx : HIST_BUCKETS - 1;
}

/*
 * The buckets of a histogram that may hold counts, as ranges [lo[k], hi[k]) in order: those
 * on pages of memory this process wrote (base/mem_pages.h). The others read as zeros, and
 * reading them would cost a page each where the kernel maps no zero page. Every reader of
 * a whole histogram goes through them.
 */
#define HIST_SPANS	8
struct hist_spans {
	unsigned n;
	uint16_t lo[HIST_SPANS], hi[HIST_SPANS];
};

void hist_spans(const struct hist *h, struct hist_spans *s);

/* Count n samples of value ns. */
static inline void hist_add(struct hist *h, uint64_t ns, uint64_t n)
{
	h->count[hist_index(ns)] += n;
}

/* The value a bucket stands for: the index itself below 128, else the bucket's midpoint. */
uint64_t hist_bucket_value(unsigned idx);

/* Add src into dst, bucket by bucket. */
void hist_merge(struct hist *dst, const struct hist *src);

/* The number of samples. */
uint64_t hist_total(const struct hist *h);

/*
 * For each pct[i] (0 < pct <= 100), the value of the first bucket at which the cumulative
 * count reaches pct/100 of the total, as fio computes it. All zeros for an empty histogram.
 */
void hist_percentiles(const struct hist *h, const double *pct, unsigned npct, uint64_t *out);

#endif
