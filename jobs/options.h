/*
 * The option table: one line per option, with its name, alias, type, field, default
 * (written as job-file text), limits and help. Parsing, defaults, --cmdhelp and the
 * engines' own options all read these tables.
 */
#ifndef JOBS_OPTIONS_H
#define JOBS_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jobs/job.h"

struct diag;

enum opt_type {
	OPT_STR,	/* const char *, the text as written */
	OPT_STR_LIST,	/* char ** + count; ':'-separated; a repeated key appends */
	OPT_UINT,	/* unsigned, min..max */
	OPT_U64,	/* uint64_t, decimal or 0x hex */
	OPT_SIZE,	/* uint64_t bytes, min..max */
	OPT_SIZE_PCT,	/* struct size_pct */
	OPT_RANGE,	/* struct size_range of sizes */
	OPT_TIME,	/* uint64_t ns; a bare number is in unit_ns */
	OPT_TIME_RANGE,	/* struct size_range of times */
	OPT_BOOL,
	OPT_BOOL_INV,	/* bool stored inverted (buffered= sets !direct) */
	OPT_ENUM,	/* int, one of vals[] */
	OPT_CUSTOM,	/* parsed by parse() */
	OPT_REFUSED,	/* fio's, but cannot act here: any value but .noop fails with .refused */
	OPT_DEPRECATED,	/* fio's soft-deprecated: any value taken, with a note, acting on nothing */
};

struct opt_enum {
	const char *name;
	int value;
	const char *help;
};

/* What a parse callback needs besides the text. */
struct arena;

struct opt_ctx {
	unsigned kb_base;
	struct arena **arena;	/* where strings and lists are kept */
};

struct opt_def {
	const char *name;
	const char *alias;		/* another name for the same option, or NULL */
	enum opt_type type;
	size_t off;			/* field offset in struct job_desc, or in the engine's options */
	const char *def;		/* default as job-file text, NULL = none */
	long long min, max;		/* limits for UINT and SIZE (max 0 = none) */
	uint64_t unit_ns;		/* unit of a bare number for TIME */
	const struct opt_enum *vals;	/* ENUM values, ended by { NULL } */
	/* CUSTOM: parse val into the whole struct at dst (off only names the field it sets);
	 * return 0, or -EINVAL/-ERANGE with why[] saying what was expected. */
	int (*parse)(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		     size_t whylen);
	const char *help;
	const char *syntax;		/* what a CUSTOM option takes, for help */
	const char *engine;		/* set for an engine's own options */
	bool bare_ok;			/* may stand alone, meaning "1", as booleans may */
	/*
	 * OPT_STR_LIST: a value set again replaces the list (fio's directory=), where
	 * filename= adds to it, in a section, over [global] and with --set alike.
	 */
	bool list_replaces;
	/*
	 * fio's set-only option (FIO_OPT_STR_SET: time_based, thread): on the command line
	 * its value can only follow '=', so the next argument is never taken as its value.
	 */
	bool set_only;
	/*
	 * "opt=" with nothing after '=' is taken (a log's prefix: the job's name; replay_skip:
	 * nothing). Every other option refuses an empty value, as fio's parser does.
	 */
	bool empty_ok;
	/*
	 * OPT_REFUSED: why iojob cannot do what the option asks, and the one value (fio's
	 * default, which asks for nothing) that is accepted, or NULL when none is.
	 */
	const char *refused;
	const char *noop;
};

#define OPT_FIELD(f)	offsetof(struct job_desc, f)

#define JOB_STR(n, f, d, h, ...) \
	{ .name = n, .type = OPT_STR, .off = OPT_FIELD(f), .def = d, .help = h, __VA_ARGS__ }
#define JOB_LIST(n, f, h, ...) \
	{ .name = n, .type = OPT_STR_LIST, .off = OPT_FIELD(f), .help = h, __VA_ARGS__ }
#define JOB_UINT(n, f, d, lo, hi, h, ...) \
	{ .name = n, .type = OPT_UINT, .off = OPT_FIELD(f), .def = d, .min = lo, .max = hi, \
	  .help = h, __VA_ARGS__ }
#define JOB_U64(n, f, d, h, ...) \
	{ .name = n, .type = OPT_U64, .off = OPT_FIELD(f), .def = d, .help = h, __VA_ARGS__ }
#define JOB_SIZE(n, f, d, lo, hi, h, ...) \
	{ .name = n, .type = OPT_SIZE, .off = OPT_FIELD(f), .def = d, .min = lo, .max = hi, \
	  .help = h, __VA_ARGS__ }
#define JOB_SIZE_PCT(n, f, d, h, ...) \
	{ .name = n, .type = OPT_SIZE_PCT, .off = OPT_FIELD(f), .def = d, .help = h, __VA_ARGS__ }
#define JOB_RANGE(n, f, d, h, ...) \
	{ .name = n, .type = OPT_RANGE, .off = OPT_FIELD(f), .def = d, .help = h, __VA_ARGS__ }
#define JOB_TIME(n, f, d, unit, h, ...) \
	{ .name = n, .type = OPT_TIME, .off = OPT_FIELD(f), .def = d, .unit_ns = unit, \
	  .help = h, __VA_ARGS__ }
#define JOB_TIME_RANGE(n, f, d, unit, h, ...) \
	{ .name = n, .type = OPT_TIME_RANGE, .off = OPT_FIELD(f), .def = d, .unit_ns = unit, \
	  .help = h, __VA_ARGS__ }
#define JOB_BOOL(n, f, d, h, ...) \
	{ .name = n, .type = OPT_BOOL, .off = OPT_FIELD(f), .def = d, .help = h, __VA_ARGS__ }
/* A boolean that is set-only in fio (see opt_def.set_only). */
#define JOB_FLAG(n, f, d, h, ...) JOB_BOOL(n, f, d, h, .set_only = true, __VA_ARGS__)
#define JOB_BOOL_INV(n, f, h, ...) \
	{ .name = n, .type = OPT_BOOL_INV, .off = OPT_FIELD(f), .help = h, __VA_ARGS__ }
#define JOB_ENUM(n, f, d, v, h, ...) \
	{ .name = n, .type = OPT_ENUM, .off = OPT_FIELD(f), .def = d, .vals = v, .help = h, \
	  __VA_ARGS__ }
#define JOB_CUSTOM(n, f, d, fn, h, ...) \
	{ .name = n, .type = OPT_CUSTOM, .off = OPT_FIELD(f), .def = d, .parse = fn, .help = h, \
	  __VA_ARGS__ }

/*
 * An option of fio's that cannot act on this system or is not built yet: a job that sets it
 * to anything but ok (fio's own default, a no-op) fails, saying why. Never accepted and
 * ignored.
 */
#define JOB_REFUSED(n, ok, why, h, ...) \
	{ .name = n, .type = OPT_REFUSED, .noop = ok, .refused = why, .help = h, __VA_ARGS__ }

/*
 * An option fio 3.33 keeps only so that old job files run: it says "Option N is deprecated"
 * and ignores it. So does iojob, with a note at the line that set it (jobs/validate.c).
 */
#define JOB_DEPRECATED(n, h) \
	{ .name = n, .type = OPT_DEPRECATED, .help = h, .bare_ok = true }

/*
 * An engine's option lives in job_desc.engine_opts, at an offset into the engine's struct.
 * Every engine boolean iojob has (hipri, fixedbufs, registerfiles, sqthread_poll,
 * userspace_reap) is a set-only option in fio, hence .set_only.
 */
#define ENGINE_BOOL(eng, st, n, f, d, h) \
	{ .name = n, .type = OPT_BOOL, .off = offsetof(st, f), .def = d, .help = h, .engine = eng, \
	  .set_only = true }
/* An engine boolean that is a plain boolean in fio (FIO_OPT_BOOL: nowait): "nowait 1" works. */
#define ENGINE_BOOL_ARG(eng, st, n, f, d, h) \
	{ .name = n, .type = OPT_BOOL, .off = offsetof(st, f), .def = d, .help = h, .engine = eng }
#define ENGINE_UINT(eng, st, n, f, d, lo, hi, h) \
	{ .name = n, .type = OPT_UINT, .off = offsetof(st, f), .def = d, .min = lo, .max = hi, \
	  .help = h, .engine = eng }
#define ENGINE_CUSTOM(eng, st, n, f, d, fn, syn, h) \
	{ .name = n, .type = OPT_CUSTOM, .off = offsetof(st, f), .def = d, .parse = fn, \
	  .syntax = syn, .help = h, .engine = eng }
/* A boolean that takes its value, as fio's FIO_OPT_BOOL (exec's std_redirect). */
#define ENGINE_BOOL_ARG(eng, st, n, f, d, h) \
	{ .name = n, .type = OPT_BOOL, .off = offsetof(st, f), .def = d, .help = h, .engine = eng }
#define ENGINE_ENUM(eng, st, n, f, d, v, h) \
	{ .name = n, .type = OPT_ENUM, .off = offsetof(st, f), .def = d, .vals = v, .help = h, \
	  .engine = eng }
#define ENGINE_STR(eng, st, n, f, h) \
	{ .name = n, .type = OPT_STR, .off = offsetof(st, f), .help = h, .engine = eng }
/* An engine's option of fio's that cannot act here (see JOB_REFUSED). */
#define ENGINE_REFUSED(eng, n, ok, why, h) \
	{ .name = n, .type = OPT_REFUSED, .noop = ok, .refused = why, .help = h, .engine = eng }

/* The job options, ended by { NULL }. */
extern const struct opt_def job_options[];

/*
 * What the job layer knows of how an engine behaves: the catalog's flags. The rules that
 * depend on the engine test these, never its name, so a new engine only sets its flags.
 */
#define ENGINE_SYNC		(1u << 0)	/* one I/O at a time: iodepth is capped at 1 */
#define ENGINE_NO_FILES		(1u << 1)	/* opens no file (null, page_fault) */
#define ENGINE_TRIM		(1u << 2)	/* can trim */
#define ENGINE_CHEAP_SUBMIT	(1u << 3)	/* submitting does no work: batch by default */
#define ENGINE_DEPTH_NEEDS_DIRECT (1u << 4)	/* buffered I/O completes in submit (libaio) */
#define ENGINE_POSITIONAL	(1u << 5)	/* no file position: threads may share an fd */
#define ENGINE_NO_DATA		(1u << 6)	/* moves no data (falloc, filecreate): no verify */
#define ENGINE_WRITE_ONLY	(1u << 7)	/* only writes make sense (ftruncate) */
#define ENGINE_TIMED		(1u << 8)	/* nothing to count (cpuio, exec): runs for runtime= */
#define ENGINE_MODIFIES		(1u << 9)	/* changes files whatever rw= says (filecreate) */
#define ENGINE_BATCHES		(1u << 10)	/* one call submits or reaps many: batch by default */
#define ENGINE_ATOMIC		(1u << 11)	/* writes can carry RWF_ATOMIC (atomic=1) */
#define ENGINE_STREAM		(1u << 12)	/* a network stream (net): bandwidth in bits,
						 * sequential only, no file behind it */
#define ENGINE_FLAGS		((1u << 13) - 1)	/* every flag above */

/* An ioengine as the job layer knows it: its name, whether it was built, its options. */
struct engine_info {
	const char *name;
	const char *help;
	bool available;		/* false: known but not in this build (say why) */
	const char *why_missing;
	unsigned flags;		/* ENGINE_* */
	const struct opt_def *options;	/* ended by { NULL }, or NULL */
	size_t options_size;
};

/* Find an option by name or alias in a table ended by { NULL }. */
const struct opt_def *opt_find(const struct opt_def *table, const char *name);

/* The job or engine option name (or alias) closest to key, for "did you mean"; or NULL. */
const char *opt_closest(const char *key, const struct engine_info *engines, unsigned nengines);

/* How the command line takes an option's value when no '=' follows its name (fio's getopt). */
enum opt_cli_arg {
	OPT_ARG_UNKNOWN,	/* no such option: it stands alone, and the build names it */
	OPT_ARG_NONE,		/* set_only: a value only after '=' (--time_based) */
	OPT_ARG_BOOL,		/* the next argument when it is a boolean word (--direct 1) */
	OPT_ARG_MAYBE,		/* bare_ok: the next argument unless it starts with '-' */
	OPT_ARG_NEXT,		/* the next argument, whatever it is (--bs 4k, --name job) */
};

/* How the job or engine option name takes its value on the command line. */
enum opt_cli_arg opt_cli_arg(const char *name, const struct engine_info *engines,
			     unsigned nengines);

/*
 * Parse val for option o into base (a struct job_desc, or engine_opts for an engine's
 * option). On error returns -EINVAL/-ERANGE with why[] saying what was expected.
 */
int opt_apply(const struct opt_def *o, const struct opt_ctx *ctx, void *base, const char *val,
	      char *why, size_t whylen);

/* Why val is none of vals: the list of values and the closest one. */
void opt_enum_error(const struct opt_enum *vals, const char *val, char *why, size_t whylen);

/* Why val is not a size ("a size", "a block size"), with a "did you mean" for a bad suffix. */
void opt_size_error(const char *val, const char *what, char *why, size_t whylen);

/* Why the range val runs from high to low, with the range the other way round. */
void opt_range_reversed(const char *val, char *why, size_t whylen);

/* A one-line description of what o accepts ("size, 1 to 64MiB", "one of read|write"). */
void opt_describe(const struct opt_def *o, char *buf, size_t len);

#endif
