/*
 * sprandom (fio HEAD): precondition an SSD to the state a long random-write run leaves it
 * in, with one pass of writes the size of its physical capacity. The capacity (the
 * region, plus spr_op of it) is cut into spr_num_regions regions written one after the
 * other; each block written is picked, with the probability its region's share of
 * invalid blocks has in that steady state, to be written again in the next region (with
 * spr_cs, the region after), which invalidates it where it was. The shares follow
 * Desnoyers' model as fio HEAD computes them: a block's validity times the space blocks
 * of that validity take is constant, the least valid being the garbage collector's pick
 * at the write amplification spr_op gives (0.5 / op + 0.7).
 *
 * The blocks come from the job's LFSR-like permutation (each once); the job's budget is
 * the physical capacity, and it ends when the last region is written.
 */
#ifndef ENGINE_PLAN_SPRANDOM_H
#define ENGINE_PLAN_SPRANDOM_H

#include <stdint.h>

struct worker;
struct sprandom;

#define SPR_PCT_PRECISION 10000	/* invalid shares in 1/10000ths, as fio's */

/*
 * Set the job's sprandom up over its file's region (the planner's file 0, blocks of
 * plan.align bytes); *budget becomes the physical capacity in bytes. 0, -ENOMEM, or
 * -EINVAL with w->error_msg set (spr_cs larger than a region).
 */
int sprandom_init(struct worker *w, uint64_t *budget);

void sprandom_free(struct sprandom *s);

/* The next block to write, or UINT64_MAX when the last region is done. */
uint64_t sprandom_next(struct worker *w);

/*
 * The invalid shares of n regions for over-provisioning op, in 1/10000ths, region 0
 * first; out has n entries. For the tests' model as well. 0 or -ENOMEM.
 */
int sprandom_shares(unsigned n, double op, uint32_t *out);

#endif
