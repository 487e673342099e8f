/*
 * cmdprio_* at run time: the options (jobs/opt_cmdprio.c) turned into tables by block
 * size and statistics slots, and the per-I/O decision the engines ask for.
 */
#include "engine/ioengines/cmdprio.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The statistics slot of ioprio in direction d, added if new; -1 when all are taken. */
static int slot_of(struct cmdprio *cp, int d, uint32_t ioprio)
{
	unsigned i = 0;

	while (i < cp->nprio[d] && cp->ioprio[d][i] != ioprio)
		i++;
	if (i == STATS_PRIO_NR)
		return -1;
	if (i == cp->nprio[d]) {
		cp->ioprio[d][i] = ioprio;
		cp->nprio[d]++;
	}
	return (int)i;
}

static uint32_t implicit_ioprio(const struct cmdprio_opts *o, int d)
{
	unsigned cls = o->cls[d] ? o->cls[d] : CMDPRIO_CLASS_RT;

	return cls << CMDPRIO_CLASS_SHIFT | o->hint[d] << CMDPRIO_HINT_SHIFT | o->level[d];
}

/* The table of direction d by block size: every entry of one size in one struct. */
static int init_split_dir(struct cmdprio *cp, const struct cmdprio_opts *o, int d)
{
	const struct cmdprio_split *sp = o->split;
	unsigned n = sp->n[d];

	cp->bs[d] = calloc(n ? n : 1, sizeof(*cp->bs[d]));
	if (!cp->bs[d])
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		const struct cmdprio_split_entry *e = &sp->e[d][i];
		uint32_t ioprio = e->ioprio < 0 ? implicit_ioprio(o, d) : (uint32_t)e->ioprio;
		struct cmdprio_bs *b;
		int slot = slot_of(cp, d, ioprio);

		if (slot < 0)
			return -E2BIG;
		if (!cp->nbs[d] || cp->bs[d][cp->nbs[d] - 1].bs != e->bs)
			cp->bs[d][cp->nbs[d]++].bs = e->bs;
		b = &cp->bs[d][cp->nbs[d] - 1];
		b->cum[b->n] = (b->n ? b->cum[b->n - 1] : 0) + e->perc;
		b->ioprio[b->n] = (uint16_t)ioprio;
		b->idx[b->n] = (uint8_t)slot;
		b->n++;
	}
	return 0;
}

int cmdprio_init(struct cmdprio *cp, const struct cmdprio_opts *o, const struct job_desc *j)
{
	int ret = 0;

	memset(cp, 0, sizeof(*cp));
	if (!o->split && !o->pct[0] && !o->pct[1])
		return 0;
	cp->on = true;
	cp->split = o->split != NULL;
	/* Its own stream: the offsets drawn stay those of the same job without cmdprio. */
	rng_seed(&cp->rng, j->randseed ^ 0xc3d9a10ULL ^ (uint64_t)j->jobnum << 32);
	for (int d = 0; d < CMDPRIO_NDIR && !ret; d++) {
		cp->nprio[d] = 1;	/* slot 0: the job's own priority (prioclass, prio) */
		cp->ioprio[d][0] = job_ioprio(j);
		if (cp->split) {
			ret = init_split_dir(cp, o, d);
		} else if (o->pct[d]) {
			cp->pct[d] = o->pct[d];
			cp->pct_ioprio[d] = (uint16_t)implicit_ioprio(o, d);
			slot_of(cp, d, cp->pct_ioprio[d]);
		}
	}
	if (ret)
		cmdprio_free(cp);
	return ret;
}

void cmdprio_free(struct cmdprio *cp)
{
	for (int d = 0; d < CMDPRIO_NDIR; d++) {
		free(cp->bs[d]);
		cp->bs[d] = NULL;
	}
	cp->on = false;
}

static bool set(struct io_req *r, uint16_t ioprio, uint8_t idx)
{
	r->ioprio = ioprio;
	r->prio_idx = idx;
	return idx != 0;
}

bool cmdprio_pick(struct cmdprio *cp, struct io_req *r)
{
	int d = r->dir;
	unsigned draw;

	if (r->resubmit)
		return r->prio_idx != 0;
	if (d >= CMDPRIO_NDIR)
		return set(r, 0, 0);	/* a sync: no priority, no statistics */
	if (!cp->split) {
		if (!cp->pct[d] || (unsigned)rng_below(&cp->rng, 100) >= cp->pct[d])
			return set(r, (uint16_t)cp->ioprio[d][0], 0);
		return set(r, cp->pct_ioprio[d], cp->pct_ioprio[d] == cp->ioprio[d][0] ? 0 : 1);
	}
	for (unsigned i = 0; i < cp->nbs[d]; i++) {
		const struct cmdprio_bs *b = &cp->bs[d][i];

		if (b->bs != r->full_len)
			continue;
		draw = (unsigned)rng_below(&cp->rng, 100);
		for (unsigned k = 0; k < b->n; k++)
			if (draw < b->cum[k])
				return set(r, b->ioprio[k], b->idx[k]);
		break;
	}
	return set(r, (uint16_t)cp->ioprio[d][0], 0);
}

void cmdprio_stats_layout(const struct cmdprio *cp, struct job_stats *st, bool lat)
{
	for (int d = 0; d < CMDPRIO_NDIR; d++)
		stats_prio_layout(&st->dir[d], cp->ioprio[d][0], cp->ioprio[d], cp->nprio[d], lat);
}
