/*
 * What a job issues next: the direction (rw, rwmixread), the file (file_service_type),
 * the block size (bs, bsrange, bssplit), the offset (sequential, random map, skewed
 * distributions, rw=..:N) and the data of a write. Also the budgets that end a job.
 *
 * Most jobs use one file, one direction and one block size: plan_init() sees that and
 * plan_io() then takes an inline fast path with nothing to decide but the offset.
 */
#ifndef ENGINE_IO_PLAN_H
#define ENGINE_IO_PLAN_H

#include <stdbool.h>

#include "engine/worker.h"

/*
 * Set up offset generators (and, for random I/O of mixed sizes, the map of covered
 * blocks), budgets, seeds and the fast path; files must be resolved. 0 or -ENOMEM.
 */
int plan_init(struct worker *w);

/* The direction of the next I/O (random for mixed modes). */
int plan_dir(struct worker *w);

/* The general plan_io(), for every job the fast path does not cover. */
bool plan_io_general(struct worker *w, struct io_req *r);

/* Vary a write's data as scramble_buffers and refill_buffers ask. */
void plan_prepare_write(struct worker *w, struct io_req *r);

/* Fill r with the sync that fsync=/fdatasync=/end_fsync asked for. */
void plan_sync(struct worker *w, struct io_req *r);

/* Fill the request buffers once before the run: random data, zeros or the pattern. */
void plan_fill_buffers(struct worker *w);

/*
 * A pass over f's region starts again (loops, time_based, io_size past size): drop its
 * cached pages as fio does when it reopens or rewinds a file. Rare, so out of line.
 */
void plan_new_pass(struct worker *w, struct io_file *f) __attribute__((cold));

/*
 * A random pass ends when every block of the permutation was drawn: offgen_next()'s own
 * test, which the compiler shares with it. Other modes never count draws (done stays 0).
 */
static inline bool plan_pass_done(const struct io_file *f)
{
	return __builtin_expect(f->gen.done == f->gen.nblocks, 0);
}

/* plan_io() for a job with plan_fast set. */
static inline __attribute__((always_inline)) bool
plan_io_fast(struct worker *w, struct io_req *r)
{
	struct io_file *f = w->files;
	uint64_t off;

	if (!w->fast_left)
		return false;
	w->fast_left--;
	if (w->random) {
		if (plan_pass_done(f))
			plan_new_pass(w, f);
		off = offgen_next(&f->gen) * w->align;
	} else {
		off = f->seq_pos[w->fast_dir];
		if (off + w->fast_len > f->io_len) {
			off = 0;	/* wrap: time_based, loops, or io_size beyond size */
			plan_new_pass(w, f);
		}
		f->seq_pos[w->fast_dir] = off + w->fast_len;
	}
	r->file = f;
	r->dir = w->fast_dir;
	r->off = f->io_off + off;
	r->len = r->full_len = w->fast_len;
	r->buf = r->buf_base;
	r->resubmit = false;
	w->st->issued[w->fast_dir]++;
	if (w->fast_dir == IO_WRITE)
		plan_prepare_write(w, r);
	return true;
}

/* Fill r with the next I/O, or return false when the budget is spent. */
static inline bool plan_io(struct worker *w, struct io_req *r)
{
	return w->plan_fast ? plan_io_fast(w, r) : plan_io_general(w, r);
}

#endif
