/*
 * sprandom's regions and their rewrites (see sprandom.h), as fio HEAD's sprandom.c makes
 * them: the same model, shares, region sizes and order of writes; the draws are iojob's.
 */
#include "engine/plan/sprandom.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine/plan/offsets.h"
#include "engine/worker.h"

/*
 * The blocks picked for rewriting: a ring where a region's picks are staged, and made
 * visible (committed) when the next region starts, so that they are written there.
 */
struct spr_ring {
	uint64_t *v;
	uint64_t cap, head, commit, tail;
};

struct sprandom {
	uint32_t *share;	/* per region: 1/10000ths of its writes picked for rewriting */
	unsigned nregions, region;	/* the region being written */
	uint64_t region_writes;	/* blocks a region holds */
	uint64_t left;		/* new blocks still to write in this region */
	uint64_t picked[2];	/* picks staged in each phase */
	unsigned phase;
	bool cache;		/* spr_cs: rewrites wait until the region after next */
	bool done;
	struct spr_ring ring;
	struct rng rng;
};

static bool ring_push(struct spr_ring *r, uint64_t b)
{
	if ((r->head + 1) % r->cap == r->tail)
		return false;
	r->v[r->head] = b;
	r->head = (r->head + 1) % r->cap;
	return true;
}

static bool ring_pop(struct spr_ring *r, uint64_t *b)
{
	if (r->tail == r->commit)
		return false;
	*b = r->v[r->tail];
	r->tail = (r->tail + 1) % r->cap;
	return true;
}

/* n values from a to b, evenly spaced, both ends included. */
static void spaced(double a, double b, unsigned n, double *out)
{
	for (unsigned i = 0; i < n; i++)
		out[i] = n == 1 ? a : a + (b - a) * i / (n - 1);
}

/* y at x on the polyline (xs, ys), xs increasing; held flat past either end. */
static double interp(double x, const double *xs, const double *ys, unsigned n)
{
	if (x <= xs[0])
		return ys[0];
	if (x >= xs[n - 1])
		return ys[n - 1];
	for (unsigned i = 0; i + 1 < n; i++)
		if (x <= xs[i + 1])
			return xs[i + 1] - xs[i] < 1e-9 ? ys[i] :
			       ys[i] + (ys[i + 1] - ys[i]) * (x - xs[i]) / (xs[i + 1] - xs[i]);
	return ys[n - 1];
}

/*
 * Validity from 1 down to the garbage collector's pick, evenly spaced; the space each
 * takes is gc / validity, so the curve of validity over space used so far is sampled at
 * n evenly spaced points of space. Region 0 gets the least valid end.
 */
int sprandom_shares(unsigned n, double op, uint32_t *out)
{
	double waf = 0.5 / op + 0.7, gc = 1.0 - 1.0 / waf, acc = 0;
	double *valid = calloc(n, sizeof(double)), *xs = calloc(n, sizeof(double));
	double *at = calloc(n, sizeof(double));

	if (!valid || !xs || !at) {
		free(valid);
		free(xs);
		free(at);
		return -ENOMEM;
	}
	spaced(1.0, gc, n, valid);
	for (unsigned i = 0; i < n; i++) {
		acc += 1.0 / valid[i];
		xs[i] = acc;
	}
	spaced(xs[0], xs[n - 1], n, at);
	for (unsigned i = 0; i < n; i++) {
		double v = interp(at[n - 1 - i], xs, valid, n);

		out[i] = (uint32_t)lround((1.0 - v) * SPR_PCT_PRECISION);
	}
	free(valid);
	free(xs);
	free(at);
	return 0;
}

int sprandom_init(struct worker *w, uint64_t *budget)
{
	const struct job_desc *j = w->job;
	uint64_t bs = j->bs[IO_WRITE].min, logical = w->files[0].io_len, physical, region;
	struct sprandom *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	w->plan.spr = s;
	physical = logical + (uint64_t)ceil((double)logical * j->spr_op);
	physical -= physical % bs;
	s->nregions = j->spr_num_regions;
	region = physical / s->nregions;
	s->region_writes = region / bs;
	if (j->spr_cs > region) {
		snprintf(w->error_msg, sizeof(w->error_msg), "job '%s': option 'spr_cs': %" PRIu64
			 " is larger than a region (%" PRIu64 " bytes of %u over %" PRIu64 "), as "
			 "fio refuses it", j->name, j->spr_cs, region, s->nregions, physical);
		return -EINVAL;
	}
	s->cache = j->spr_cs > 0;
	/* a region picks at most each of its writes; with a cache two regions' wait */
	s->ring.cap = s->region_writes * (s->cache ? 2 : 1) + 2;
	s->ring.v = malloc(s->ring.cap * sizeof(*s->ring.v));
	s->share = malloc(s->nregions * sizeof(*s->share));
	if (!s->ring.v || !s->share || sprandom_shares(s->nregions, j->spr_op, s->share) < 0)
		return -ENOMEM;
	s->left = s->region_writes;
	rng_seed(&s->rng, j->randseed ^ 0x5b7a0d3c9e11f2a4ull ^ (uint64_t)j->jobnum << 32);
	*budget = physical;
	return 0;
}

void sprandom_free(struct sprandom *s)
{
	if (!s)
		return;
	free(s->ring.v);
	free(s->share);
	free(s);
}

/* Pick block b for rewriting with its region's share, staged for phase ph's region. */
static void maybe_pick(struct sprandom *s, uint64_t b, unsigned ph)
{
	if (rng_below(&s->rng, SPR_PCT_PRECISION + 1) > s->share[s->region])
		return;
	if (ring_push(&s->ring, b))
		s->picked[ph]++;
}

uint64_t sprandom_next(struct worker *w)
{
	struct sprandom *s = w->plan.spr;
	struct plan_file *pf = &w->plan.files[0];
	uint64_t b;

	if (s->done)
		return UINT64_MAX;
	/* without a cache, the last region's picks are written first */
	if (!s->cache && ring_pop(&s->ring, &b))
		goto out;
	if (!s->left) {
		/* with a cache, at its end, so that they are not in it with their first write */
		if (s->cache && ring_pop(&s->ring, &b))
			goto out;
		if (s->region >= s->nregions) {
			s->done = true;
			return UINT64_MAX;
		}
		s->picked[s->phase] = 0;
		s->region++;
		s->phase ^= 1;
		s->left = s->region_writes - s->picked[s->phase];
		s->ring.commit = s->ring.head;
	}
	if (plan_pass_done(pf)) {
		/* every block written once: the picks still waiting, then nothing */
		if (s->cache && ring_pop(&s->ring, &b))
			goto out;
		s->done = true;
		return UINT64_MAX;
	}
	b = offgen_next(&pf->gen);
	if (s->left)
		s->left--;
out:
	/* fio's region index runs one past the last for the final rewrites */
	if (s->region < s->nregions)
		maybe_pick(s, b, s->phase ^ 1);
	return b;
}
