/*
 * Offset generators: which block a random job touches next. A random job without
 * norandommap visits every block exactly once per pass through a keyed permutation of
 * the block numbers (no bitmap, O(1) per I/O); norandommap draws uniformly with
 * replacement; zipf, pareto and normal draw skewed ranks and scatter them over the region
 * with the same permutation. Seeds make every sequence reproducible.
 */
#ifndef ENGINE_PLAN_OFFSETS_H
#define ENGINE_PLAN_OFFSETS_H

#include <stdbool.h>
#include <stdint.h>

/* xoshiro256**: small, fast, and good enough for offsets and mixes. */
struct rng {
	uint64_t s[4];
};

enum offgen_mode { OFFGEN_PERM, OFFGEN_UNIFORM, OFFGEN_ZIPF, OFFGEN_PARETO, OFFGEN_NORMAL };

struct offgen {
	int mode;		/* enum offgen_mode */
	uint64_t nblocks;
	uint64_t done;		/* draws in this pass (PERM) */
	uint64_t mask;		/* permutation domain: the next power of two minus one */
	unsigned shift;
	uint64_t mul1, add1, mul2, add2;
	struct rng rng;
	struct rng start;	/* rng as seeded: a repeating pass starts from it again */
	bool repeat;		/* every pass draws the first one's sequence (loops) */
	double p[6];		/* distribution constants */
	uint64_t rot;		/* zipf, pareto, normal: blocks the result turns by (center) */
};

/* Seed the generator; equal seeds give equal sequences. */
void rng_seed(struct rng *r, uint64_t seed);

static inline uint64_t rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return out;
}

/* Uniform in [0, n) by multiply-shift (bias below 2^-40 for any block count we use). */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	__extension__ unsigned __int128 p = (unsigned __int128)rng_next(r) * n;

	return (uint64_t)(p >> 64);
}

/* Uniform in [0, 1). */
static inline double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

/*
 * Set up a generator over nblocks (>= 1) blocks. param is the distribution's parameter
 * (zipf theta, pareto h, normal deviation in percent of the region); ignored otherwise.
 * center (0 to 1, or -1 for none) turns a skewed distribution's blocks by that share of
 * the region, as fio's random_distribution=zipf:THETA:CENTER turns its (hashed) ranks.
 */
void offgen_init(struct offgen *g, enum offgen_mode mode, uint64_t nblocks, double param,
		 double center, uint64_t seed);

/*
 * Start another pass: a permutation's new keys, so the order differs; with repeat, the
 * first pass's sequence again (fio reseeds its generators at each loop, randrepeat=1).
 */
void offgen_new_pass(struct offgen *g);

/* The next block of the modes other than OFFGEN_PERM. */
uint64_t offgen_next_other(struct offgen *g);

/*
 * The next rank of a skewed mode (zipf, pareto, normal), turned by rot but not scattered:
 * ranks next to each other stay so, as fio's file service draws files (its hash off).
 */
uint64_t offgen_rank(struct offgen *g);

/*
 * One round over the power-of-two domain: multiplying by an odd number and adding are
 * bijections modulo 2^k, and so is x ^ (x >> s); the shifts carry high bits into the low
 * ones the multiplications leave poorly mixed.
 */
static inline uint64_t offgen_round(const struct offgen *g, uint64_t x)
{
	x = (x * g->mul1 + g->add1) & g->mask;
	x ^= x >> g->shift;
	x = (x * g->mul2 + g->add2) & g->mask;
	x ^= x >> g->shift;
	return x;
}

/* A bijection on [0, nblocks): walk the cycle until we are back inside the range. */
static inline uint64_t offgen_permute(const struct offgen *g, uint64_t x)
{
	do
		x = offgen_round(g, x);
	while (x >= g->nblocks);
	return x;
}

/* offgen_next() for a caller that has started the next pass where one was due. */
static inline uint64_t offgen_next_in_pass(struct offgen *g)
{
	if (g->mode != OFFGEN_PERM)
		return offgen_next_other(g);
	return offgen_permute(g, g->done++);
}

/* The next block number, in [0, nblocks). Inline: it is on every random I/O's path. */
static inline uint64_t offgen_next(struct offgen *g)
{
	if (g->mode == OFFGEN_PERM && g->done == g->nblocks)
		offgen_new_pass(g);
	return offgen_next_in_pass(g);
}

#endif
