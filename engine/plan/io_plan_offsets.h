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

/* The next block (of plan.align bytes) of a zoned distribution in direction d. */
uint64_t plan_zoned_block(struct worker *w, struct plan_file *pf, int d);

#endif
