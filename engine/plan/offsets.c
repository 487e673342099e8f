/* Offset generators: keyed permutations, uniform draws and skewed distributions. */
#include "engine/plan/offsets.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

/* New keys for the permutation: each pass of a random job visits blocks in a new order. */
static void perm_rekey(struct offgen *g)
{
	g->mul1 = rng_next(&g->rng) | 1;
	g->add1 = rng_next(&g->rng);
	g->mul2 = rng_next(&g->rng) | 1;
	g->add2 = rng_next(&g->rng);
}

void offgen_new_pass(struct offgen *g)
{
	g->done = 0;
	if (g->repeat)
		g->rng = g->start;
	perm_rekey(g);
}

/*
 * Zipf ranks by rejection-inversion (Hormann and Derflinger, 1996): O(1) per draw with no
 * table, whatever the block count. p[0] = theta, p[1] = H(1.5) - 1, p[2] = H(n + 0.5),
 * p[3] = the acceptance shortcut s.
 */
static double zipf_helper1(double x)	/* log1p(x) / x, continuous at 0 */
{
	return fabs(x) > 1e-8 ? log1p(x) / x : 1 - x / 2 + x * x / 3;
}

static double zipf_helper2(double x)	/* expm1(x) / x, continuous at 0 */
{
	return fabs(x) > 1e-8 ? expm1(x) / x : 1 + x / 2 + x * x / 6;
}

static double zipf_h(double theta, double x)
{
	return exp(-theta * log(x));
}

static double zipf_hint(double theta, double x)
{
	double lx = log(x);

	return zipf_helper2((1 - theta) * lx) * lx;
}

static double zipf_hint_inv(double theta, double x)
{
	double t = x * (1 - theta);

	if (t < -1)
		t = -1;
	return exp(zipf_helper1(t) * x);
}

static void zipf_init(struct offgen *g, double theta)
{
	g->p[0] = theta;
	g->p[1] = zipf_hint(theta, 1.5) - 1;
	g->p[2] = zipf_hint(theta, (double)g->nblocks + 0.5);
	g->p[3] = 2 - zipf_hint_inv(theta, zipf_hint(theta, 2.5) - zipf_h(theta, 2));
}

static uint64_t zipf_next(struct offgen *g)
{
	double theta = g->p[0], u, x, k;

	for (;;) {
		u = g->p[2] + rng_unit(&g->rng) * (g->p[1] - g->p[2]);
		x = zipf_hint_inv(theta, u);
		k = floor(x + 0.5);
		if (k < 1)
			k = 1;
		else if (k > (double)g->nblocks)
			k = (double)g->nblocks;
		if (k - x <= g->p[3] || u >= zipf_hint(theta, k + 0.5) - zipf_h(theta, k))
			return (uint64_t)k - 1;
	}
}

/* Pareto: rank = n * u^(log h / log(1 - h)); h = 0.2 puts 80% of draws on 20% of blocks. */
static uint64_t pareto_next(struct offgen *g)
{
	double r = (double)g->nblocks * pow(rng_unit(&g->rng), g->p[0]);
	uint64_t k = (uint64_t)r;

	return k < g->nblocks ? k : g->nblocks - 1;
}

/* Normal around the middle of the region, deviation in percent of it (Box-Muller). */
static uint64_t normal_next(struct offgen *g)
{
	double n = (double)g->nblocks, u1, u2, z, v;

	for (;;) {
		u1 = rng_unit(&g->rng);
		u2 = rng_unit(&g->rng);
		if (u1 <= 0)
			continue;
		z = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
		v = n / 2 + z * g->p[0];
		if (v >= 0 && v < n)
			return (uint64_t)v;
	}
}

/*
 * fio turns zipf and pareto by center * n, and normal by (center - 0.5) * n: its normal
 * is centred already. Taken modulo n here.
 */
static uint64_t center_rotation(enum offgen_mode mode, uint64_t n, double center)
{
	double r;

	if (center < 0)
		return 0;
	r = (double)n * (mode == OFFGEN_NORMAL ? center - 0.5 : center);
	if (r < 0)
		r += (double)n;
	return (uint64_t)r % n;
}

void offgen_init(struct offgen *g, enum offgen_mode mode, uint64_t nblocks, double param,
		 double center, uint64_t seed)
{
	unsigned bits = 1;

	g->mode = mode;
	g->nblocks = nblocks ? nblocks : 1;
	g->done = 0;
	while (bits < 64 && (1ULL << bits) < g->nblocks)
		bits++;
	g->mask = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
	g->shift = bits / 2 + 1;
	g->rot = center_rotation(mode, g->nblocks, center);
	rng_seed(&g->rng, seed);
	g->start = g->rng;
	g->repeat = false;
	perm_rekey(g);
	switch (mode) {
	case OFFGEN_ZIPF:
		zipf_init(g, param);
		break;
	case OFFGEN_PARETO:
		g->p[0] = log(param) / log(1 - param);
		break;
	case OFFGEN_NORMAL:
		g->p[0] = param / 100 * (double)g->nblocks;
		break;
	default:
		break;
	}
}

static uint64_t turn(const struct offgen *g, uint64_t b)
{
	b += g->rot;
	return b < g->nblocks ? b : b - g->nblocks;
}

uint64_t offgen_rank(struct offgen *g)
{
	switch (g->mode) {
	case OFFGEN_ZIPF:
		return turn(g, zipf_next(g));
	case OFFGEN_PARETO:
		return turn(g, pareto_next(g));
	case OFFGEN_NORMAL:
		return turn(g, normal_next(g));
	default:
		return rng_below(&g->rng, g->nblocks);
	}
}

uint64_t offgen_next_other(struct offgen *g)
{
	switch (g->mode) {
	case OFFGEN_UNIFORM:
		return rng_below(&g->rng, g->nblocks);
	case OFFGEN_ZIPF:
		return turn(g, offgen_permute(g, zipf_next(g)));
	case OFFGEN_PARETO:
		return turn(g, offgen_permute(g, pareto_next(g)));
	case OFFGEN_NORMAL:
		return turn(g, offgen_permute(g, normal_next(g)));
	default:
		if (g->done == g->nblocks)
			offgen_new_pass(g);
		return offgen_permute(g, g->done++);
	}
}
