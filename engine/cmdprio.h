/*
 * I/O priority per command, as fio's cmdprio_* options for libaio and io_uring: which
 * I/Os are issued with a priority of their own (a draw against cmdprio_percentage, or the
 * cmdprio_bssplit table by block size), and which statistics slot each one counts in.
 * The engines embed struct cmdprio_opts first in their options and list CMDPRIO_OPTIONS.
 */
#ifndef ENGINE_CMDPRIO_H
#define ENGINE_CMDPRIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/ioengine.h"
#include "engine/offsets.h"
#include "output/stats.h"

#define CMDPRIO_NDIR		2	/* reads and writes: trim has no priority */
#define CMDPRIO_SPLIT_MAX	64	/* cmdprio_bssplit entries per direction, as fio */

#define IOPRIO_CLASS_SHIFT	13
#define IOPRIO_HINT_SHIFT	3
#define IOPRIO_CLASS_RT		1

/* One cmdprio_bssplit entry: perc percent of the I/Os of bs bytes get ioprio. */
struct cmdprio_split_entry {
	uint64_t bs;
	unsigned perc;
	int ioprio;		/* -1: the one cmdprio_class, cmdprio and cmdprio_hint give */
};

/* cmdprio_bssplit as parsed, per direction, sorted by bs; kept in the job's arena. */
struct cmdprio_split {
	unsigned n[CMDPRIO_NDIR];
	struct cmdprio_split_entry e[CMDPRIO_NDIR][CMDPRIO_SPLIT_MAX];
};

/* The options, per direction; 0 in cls means "not set", which fio reads as RT. */
struct cmdprio_opts {
	unsigned pct[CMDPRIO_NDIR];
	unsigned cls[CMDPRIO_NDIR];
	unsigned level[CMDPRIO_NDIR];
	unsigned hint[CMDPRIO_NDIR];
	const struct cmdprio_split *split;
};

int cmdprio_parse_pct(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		      size_t whylen);
int cmdprio_parse_class(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			size_t whylen);
int cmdprio_parse_level(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			size_t whylen);
int cmdprio_parse_hint(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		       size_t whylen);
int cmdprio_parse_bssplit(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			  size_t whylen);

#define CMDPRIO_OPT(eng, st, n, f, fn, syn, h) \
	{ .name = n, .type = OPT_CUSTOM, .off = offsetof(st, cp.f), .parse = fn, .help = h, \
	  .syntax = syn, .engine = eng }

/* The option table entries, for an engine whose options struct st starts with cp. */
#define CMDPRIO_OPTIONS(eng, st)							\
	CMDPRIO_OPT(eng, st, "cmdprio_percentage", pct, cmdprio_parse_pct, "int[,int]",	\
		    "percent of I/Os issued with cmdprio_class/cmdprio (reads,writes)"),	\
	CMDPRIO_OPT(eng, st, "cmdprio_class", cls, cmdprio_parse_class, "int[,int]",	\
		    "priority class of those I/Os: 1 rt, 2 be, 3 idle (default rt)"),	\
	CMDPRIO_OPT(eng, st, "cmdprio", level, cmdprio_parse_level, "int[,int]",	\
		    "priority level of those I/Os, 0 (highest) to 7"),			\
	CMDPRIO_OPT(eng, st, "cmdprio_hint", hint, cmdprio_parse_hint, "int[,int]",	\
		    "priority hint of those I/Os, 0 (none) to 1023"),			\
	CMDPRIO_OPT(eng, st, "cmdprio_bssplit", split, cmdprio_parse_bssplit,		\
		    "bs/perc[/class/level[/hint]]:...[,...]",				\
		    "percent of I/Os of each block size issued with a priority")

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
 * Decide r's priority (cp->on only): sets r->ioprio and r->prio_idx, and returns whether
 * the I/O carries a priority of its own. A short transfer's rest keeps its first draw.
 */
bool cmdprio_pick(struct cmdprio *cp, struct io_req *r);

/* Lay out st's directions for the priorities cp uses; lat: they hold lat, not clat. */
void cmdprio_stats_layout(const struct cmdprio *cp, struct job_stats *st, bool lat);

#endif
