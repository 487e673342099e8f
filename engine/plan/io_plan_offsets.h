/*
 * The planner's offsets in fio's rarer forms, private to engine/plan/io_plan.c: skips forwards
 * and backwards (rw=read:8k, rw=read:-8k), strided zones and zoned random distributions.
 */
#ifndef ENGINE_PLAN_IO_PLAN_OFFSETS_H
#define ENGINE_PLAN_IO_PLAN_OFFSETS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/plan/io_plan.h"

struct io_file;
struct worker;

/* Where f ends: its size, or its region's end when the region reaches further (not laid out). */
uint64_t plan_file_end(const struct io_file *f);

/*
 * The next offset (from the region's start) of a sequential job with rw=MODE:SKIP for an
 * I/O of len bytes on file fi; false when the job's passes are over.
 */
bool plan_skip_offset(struct worker *w, unsigned fi, int d, uint32_t len, uint64_t *offp);

/* zonemode=strided: move to the next zone when this one is done, before each I/O. */
void plan_zone_step(struct worker *w, unsigned fi, int d);

/*
 * The draws of random_distribution=zoned or zoned_abs on file fi (nothing for other
 * distributions). 0, -ENOMEM, or -ERANGE with w->error_msg set when zoned_abs's zones
 * run past the region.
 */
int plan_zones_init(struct worker *w, unsigned fi);

void plan_zones_free(struct plan_file *pf);

/*
 * random_distribution=sequence on file fi: without random_sequence_stride every index
 * must fit the region (fio HEAD fails the I/O that reaches past it: here the job, before
 * any). 0, or -ERANGE with w->error_msg set.
 */
int plan_sequence_check(struct worker *w, unsigned fi);

/*
 * The next block of direction d's sequence, in units of blockalign, from the region's
 * start: the indices in order, round after round, each round moved on by their count with
 * random_sequence_stride. UINT64_MAX when a stride has reached past the file's end: the
 * job's I/O is over, as fio HEAD's.
 */
uint64_t plan_sequence_block(struct worker *w, unsigned fi, int d, uint32_t len);

/* The next block (of plan.align bytes) of a zoned distribution in direction d. */
uint64_t plan_zoned_block(struct worker *w, struct plan_file *pf, int d);

#endif
