/*
 * fio's cmdprio_* options of libaio and io_uring, as their parsed form: the percentage,
 * class, level and hint per direction, and the cmdprio_bssplit table. An engine puts
 * struct cmdprio_opts first in its options and lists the five with ENGINE_CUSTOM.
 */
#ifndef JOBS_OPT_CMDPRIO_H
#define JOBS_OPT_CMDPRIO_H

#include <stddef.h>
#include <stdint.h>

#include "jobs/options.h"

#define CMDPRIO_NDIR		2	/* reads and writes: trim has no priority */
#define CMDPRIO_SPLIT_MAX	64	/* cmdprio_bssplit entries per direction, as fio */
#define CMDPRIO_PRIOS_MAX	7	/* priorities besides the job's own, per direction */

/* An ioprio_set(2) value: class << 13 | hint << 3 | level. */
#define CMDPRIO_CLASS_SHIFT	13
#define CMDPRIO_HINT_SHIFT	3
#define CMDPRIO_CLASS_RT	1

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
	const struct cmdprio_split *split;	/* NULL: not set */
};

/*
 * The parsers, with opt_def.parse's contract; dst is the engine's options, which start
 * with struct cmdprio_opts. cmdprio_percentage and cmdprio_bssplit exclude each other:
 * whichever comes second is refused.
 */
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

/* The help texts, one for both engines' entries. */
#define CMDPRIO_PCT_HELP	"percent of I/Os issued with cmdprio_class/cmdprio (reads,writes)"
#define CMDPRIO_CLASS_HELP	"priority class of those I/Os: 1 rt, 2 be, 3 idle (default rt)"
#define CMDPRIO_LEVEL_HELP	"priority level of those I/Os, 0 (highest) to 7"
#define CMDPRIO_HINT_HELP	"priority hint of those I/Os, 0 (none) to 1023"
#define CMDPRIO_SPLIT_HELP	"percent of the I/Os of each block size issued with a priority"
#define CMDPRIO_INT_SYNTAX	"int[,int]"
#define CMDPRIO_SPLIT_SYNTAX	"bs/perc[/class/level[/hint]]:...[,...]"

/* The five cmdprio entries of engine ENG's option table, whose struct TYPE has a member cp. */
#define CMDPRIO_OPTIONS(ENG, TYPE)							\
	ENGINE_CUSTOM(ENG, TYPE, "cmdprio_percentage", cp.pct, "0", cmdprio_parse_pct,	\
		      CMDPRIO_INT_SYNTAX, CMDPRIO_PCT_HELP),				\
	ENGINE_CUSTOM(ENG, TYPE, "cmdprio_class", cp.cls, NULL, cmdprio_parse_class,	\
		      CMDPRIO_INT_SYNTAX, CMDPRIO_CLASS_HELP),				\
	ENGINE_CUSTOM(ENG, TYPE, "cmdprio", cp.level, "0", cmdprio_parse_level,		\
		      CMDPRIO_INT_SYNTAX, CMDPRIO_LEVEL_HELP),				\
	ENGINE_CUSTOM(ENG, TYPE, "cmdprio_hint", cp.hint, "0", cmdprio_parse_hint,	\
		      CMDPRIO_INT_SYNTAX, CMDPRIO_HINT_HELP),				\
	ENGINE_CUSTOM(ENG, TYPE, "cmdprio_bssplit", cp.split, NULL, cmdprio_parse_bssplit, \
		      CMDPRIO_SPLIT_SYNTAX, CMDPRIO_SPLIT_HELP)

#endif
