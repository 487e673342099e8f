/*
 * I/O priority per command, as fio's cmdprio_* options for libaio and io_uring: which
 * I/Os are issued with a priority of their own (a draw against cmdprio_percentage, or the
 * cmdprio_bssplit table by block size), and which statistics slot each one counts in.
 * The options and their parsers are jobs/opt_cmdprio.h's.
 */
#ifndef ENGINE_IOENGINES_CMDPRIO_H
#define ENGINE_IOENGINES_CMDPRIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/ioengine.h"
#include "engine/plan/offsets.h"
#include "jobs/opt_cmdprio.h"
#include "output/stats.h"

_Static_assert(CMDPRIO_PRIOS_MAX + 1 <= STATS_PRIO_NR, "a slot for each priority");

/* One block size's priorities: an I/O whose draw is below cum[i] gets ioprio[i]. */
struct cmdprio_bs {
	uint64_t bs;
	unsigned n;
	unsigned cum[CMDPRIO_SPLIT_MAX];
	uint16_t ioprio[CMDPRIO_SPLIT_MAX];
	uint8_t idx[CMDPRIO_SPLIT_MAX];
};

/* A job's priorities at run time; the engine owns it, the worker reads its layout. */
struct cmdprio {
	bool on;
	bool split;			/* by block size, else by percentage */
	struct rng rng;
	unsigned pct[CMDPRIO_NDIR];
	uint16_t pct_ioprio[CMDPRIO_NDIR];
	unsigned nbs[CMDPRIO_NDIR];
	struct cmdprio_bs *bs[CMDPRIO_NDIR];
	/* the statistics slots per direction: 0 the job's own priority, then cmdprio's */
	unsigned nprio[CMDPRIO_NDIR];
	uint32_t ioprio[CMDPRIO_NDIR][STATS_PRIO_NR];
};

/*
 * Set cp up from the options; cp->on stays false when neither cmdprio_percentage nor
 * cmdprio_bssplit is set. Returns 0 or -ENOMEM.
 */
int cmdprio_init(struct cmdprio *cp, const struct cmdprio_opts *o, const struct job_desc *j);

void cmdprio_free(struct cmdprio *cp);

/*
 * Decide r's priority (cp->on only): sets r->ioprio (the job's own, prioclass/prio, when
 * not drawn) and r->prio_idx, and returns whether the I/O carries a priority other than
 * the job's own. A short transfer's rest keeps its first draw.
 */
bool cmdprio_pick(struct cmdprio *cp, struct io_req *r);

/* Lay out st's directions for the priorities cp uses; lat: they hold lat, not clat. */
void cmdprio_stats_layout(const struct cmdprio *cp, struct job_stats *st, bool lat);

#endif
