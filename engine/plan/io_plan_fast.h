/*
 * plan_io(), the planner's entry for each I/O, with its fast path inline: private to
 * engine/loop/loop.c, as account.h is. Apart from io_plan.h because it needs the whole struct
 * worker, which embeds struct io_plan.
 */
#ifndef ENGINE_PLAN_IO_PLAN_FAST_H
#define ENGINE_PLAN_IO_PLAN_FAST_H

#include "engine/plan/io_plan.h"
#include "engine/worker.h"

/* plan_io() for a job with the fast path (plan_is_fast()). */
static inline __attribute__((always_inline)) bool
plan_io_fast(struct worker *w, struct io_req *r)
{
	struct io_plan *p = &w->plan;
	struct io_file *f = w->files;
	struct plan_file *pf = p->files;
	uint64_t off;

	if (!p->fast_left)
		return false;
	p->fast_left--;
	if (p->random) {
		if (plan_pass_done(pf)) {
			plan_new_pass(w, f);
			offgen_new_pass(&pf->gen);
		}
		off = offgen_next_in_pass(&pf->gen) * p->align;
	} else {
		off = pf->seq_pos[p->fast_dir];
		if (off + p->fast_len > f->io_len) {
			off = 0;	/* wrap: time_based, loops, or io_size beyond size */
			plan_new_pass(w, f);
		}
		pf->seq_pos[p->fast_dir] = off + p->fast_len;
	}
	r->file = f;
	r->dir = p->fast_dir;
	r->off = f->io_off + off;
	r->len = r->full_len = p->fast_len;
	r->buf = r->buf_base;
	r->resubmit = false;
	w->st->issued[p->fast_dir]++;
	if (p->fast_dir == IO_WRITE)
		plan_prepare_write(w, r);
	return true;
}

/* Fill r with the next I/O, or return false when the budget is spent. */
static inline bool plan_io(struct worker *w, struct io_req *r)
{
	return w->plan.fast ? plan_io_fast(w, r) : plan_io_general(w, r);
}

#endif
