/* Applying one option's text to a job by the option's type, and describing what it takes. */
#include "jobs/options.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/arena.h"
#include "jobs/opt_offsets.h"
#include "parser/expr.h"
#include "parser/value.h"
#include "base/units.h"

const struct opt_def *opt_find(const struct opt_def *table, const char *name)
{
	for (; table && table->name; table++)
		if (!strcmp(table->name, name) || (table->alias && !strcmp(table->alias, name)))
			return table;
	return NULL;
}

const char *opt_closest(const char *key, const struct engine_info *engines, unsigned nengines)
{
	const char *names[1024];
	size_t n = 0;

	for (const struct opt_def *o = job_options; o->name && n < ARRAY_SIZE(names) - 2; o++) {
		names[n++] = o->name;
		if (o->alias)
			names[n++] = o->alias;
	}
	for (unsigned e = 0; e < nengines; e++)
		for (const struct opt_def *o = engines[e].options;
		     o && o->name && n < ARRAY_SIZE(names); o++)
			names[n++] = o->name;
	return value_closest(key, names, n);
}

enum opt_cli_arg opt_cli_arg(const char *name, const struct engine_info *engines,
			     unsigned nengines)
{
	const struct opt_def *o = opt_find(job_options, name);

	for (unsigned e = 0; !o && e < nengines; e++)
		o = opt_find(engines[e].options, name);
	if (!o)
		return OPT_ARG_UNKNOWN;
	if (o->set_only)
		return OPT_ARG_NONE;
	/*
	 * fio takes the next argument for its other booleans whatever it is (--direct
	 * --bs=4k fails parsing "--bs=4k"); iojob takes it only when it is a boolean, so a
	 * bare --direct keeps meaning direct=1 as it does in a job file.
	 */
	if (o->type == OPT_BOOL || o->type == OPT_BOOL_INV)
		return OPT_ARG_BOOL;
	return o->bare_ok ? OPT_ARG_MAYBE : OPT_ARG_NEXT;
}

/* "4q" -> "4k": a number with a suffix we do not know, for the "did you mean" hint. */
static void size_hint(const char *val, char *hint, size_t len)
{
	static const char *const suffixes[] = {
		"k", "m", "g", "t", "p", "kb", "mb", "gb", "tb", "pb",
		"KiB", "MiB", "GiB", "TiB", "PiB",
	};
	const char *p = val, *best;
	char fix[64];
	size_t digits;
	uint64_t v;

	hint[0] = '\0';
	while (isdigit((unsigned char)*p) || *p == '.')
		p++;
	digits = (size_t)(p - val);
	if (!digits || !*p || !isalpha((unsigned char)*p))
		return;
	best = value_closest(p, suffixes, ARRAY_SIZE(suffixes));
	if (!best && strlen(p) == 1)
		best = "k";
	if (!best)
		return;
	if (snprintf(fix, sizeof(fix), "%.*s%s", (int)digits, val, best) >= (int)sizeof(fix))
		return;
	/* "1.5.5m" would come back as itself: suggest only what differs and parses */
	if (strcmp(fix, val) && value_parse_size(fix, 1024, &v) == 0)
		snprintf(hint, len, " (did you mean '%s'?)", fix);
}

static int apply_uint(const struct opt_def *o, void *field, const char *val, char *why,
		      size_t whylen)
{
	long long v;

	if (value_parse_int(val, &v) < 0) {
		snprintf(why, whylen, "'%s' is not a number", val);
		return -EINVAL;
	}
	if (v < o->min || (o->max && v > o->max)) {
		snprintf(why, whylen, "%s is out of range (%lld to %lld)", val, o->min, o->max);
		return -ERANGE;
	}
	*(unsigned *)field = (unsigned)v;
	return 0;
}

static int apply_size(const struct opt_def *o, const struct opt_ctx *ctx, void *field,
		      const char *val, char *why, size_t whylen)
{
	uint64_t v;
	int ret;

	ret = value_parse_size(val, ctx->kb_base, &v);
	if (ret == -ERANGE) {
		snprintf(why, whylen, "'%s' is too large", val);
		return ret;
	}
	if (ret < 0) {
		opt_size_error(val, "a size", why, whylen);
		return ret;
	}
	if ((long long)v < o->min || (o->max && v > (uint64_t)o->max)) {
		snprintf(why, whylen, "%s is out of range (%lld to %lld)", val, o->min, o->max);
		return -ERANGE;
	}
	*(uint64_t *)field = v;
	return 0;
}

static int apply_size_pct(const struct opt_ctx *ctx, void *field, const char *val, char *why,
			  size_t whylen)
{
	struct size_pct *sp = field;
	int ret;

	sp->zones = 0;
	ret = opt_parse_zones(val, &sp->zones);
	if (ret > 0) {
		sp->bytes = 0;
		sp->pct = 0;
		return 0;
	}
	ret = value_parse_size_pct(val, ctx->kb_base, &sp->bytes, &sp->pct);
	if (ret < 0)
		opt_size_error(val, "a size or a percentage", why, whylen);
	return ret;
}

static int apply_list(const struct opt_def *o, const struct opt_ctx *ctx, void *field,
		      const char *val, char *why, size_t whylen)
{
	struct str_list *l = field;
	unsigned kept;
	char **f, **v;
	int n, i, ret = 0;

	if (!*val) {
		snprintf(why, whylen, "an empty name");
		return -EINVAL;
	}
	if (o->list_replaces)
		l->n = 0;	/* the old names stay in the arena, unused */
	n = value_split(val, ':', &f);
	if (n < 0)
		return n;
	v = arena_alloc(ctx->arena, sizeof(*v) * (l->n + (unsigned)n + 1));
	if (!v) {
		value_split_free(f, n);
		return -ENOMEM;
	}
	if (l->n)
		memcpy(v, l->v, sizeof(*v) * l->n);
	/* an empty name between ':' is skipped, as fio skips it (validate notes it) */
	for (i = 0, kept = 0; i < n; i++) {
		if (!*f[i])
			continue;
		v[l->n + kept] = arena_strdup(ctx->arena, f[i]);
		if (!v[l->n + kept++]) {
			ret = -ENOMEM;
			break;
		}
	}
	value_split_free(f, n);
	if (!ret && !kept) {
		snprintf(why, whylen, "'%s' has no name", val);
		ret = -EINVAL;
	}
	if (ret)
		return ret;
	l->v = v;
	l->n += kept;
	return 0;
}

void opt_enum_error(const struct opt_enum *vals, const char *val, char *why, size_t whylen)
{
	const char *names[64];
	const char *best;
	size_t n = 0, used;
	int len;

	len = snprintf(why, whylen, "'%s' is not one of ", val);
	used = len > 0 ? (size_t)len : 0;
	for (const struct opt_enum *e = vals; e->name && n < 64; e++) {
		names[n++] = e->name;
		if (used < whylen)
			used += (size_t)snprintf(why + used, whylen - used, "%s%s", n > 1 ? ", " : "",
						 e->name);
	}
	best = value_closest(val, names, n);
	if (best && used < whylen)
		snprintf(why + used, whylen - used, " (did you mean '%s'?)", best);
}

void opt_size_error(const char *val, const char *what, char *why, size_t whylen)
{
	char hint[96];

	size_hint(val, hint, sizeof(hint));
	snprintf(why, whylen, "'%s' is not %s%s", val, what, hint);
}

/* Where the range's two ends meet: the separator outside parentheses, as the parser reads. */
static size_t range_low_len(const char *val)
{
	size_t i;
	int depth = 0;

	for (i = 0; val[i]; i++) {
		if (val[i] == '(')
			depth++;
		else if (val[i] == ')' && depth)
			depth--;
		else if (!depth && strchr("-:,", val[i]))
			break;
	}
	return i;
}

void opt_range_reversed(const char *val, char *why, size_t whylen)
{
	size_t lo_len = range_low_len(val);
	uint64_t lo, hi;
	char fix[128];
	int n;

	n = snprintf(why, whylen, "'%s' runs from high to low", val);
	if (!val[lo_len] || n < 0 || (size_t)n >= whylen ||
	    snprintf(fix, sizeof(fix), "%s%c%.*s", val + lo_len + 1, val[lo_len], (int)lo_len,
		     val) >= (int)sizeof(fix))
		return;
	/* suggest the swap only where it reads the right way round */
	if (value_parse_size_range(fix, 1024, &lo, &hi) == 0)
		snprintf(why + n, whylen - (size_t)n, " (did you mean '%s'?)", fix);
}

static int apply_enum(const struct opt_def *o, void *field, const char *val, char *why,
		      size_t whylen)
{
	for (const struct opt_enum *e = o->vals; e->name; e++) {
		if (!strcasecmp(e->name, val)) {
			*(int *)field = e->value;
			return 0;
		}
	}
	opt_enum_error(o->vals, val, why, whylen);
	return -EINVAL;
}

static int apply_time(const struct opt_def *o, void *field, const char *val, char *why,
		      size_t whylen)
{
	int ret = value_parse_time(val, o->unit_ns, field);

	if (ret < 0)
		snprintf(why, whylen, "'%s' is not a time (such as 30, 500ms, 2m)", val);
	return ret;
}

static int apply_time_range(const struct opt_def *o, void *field, const char *val, char *why,
			    size_t whylen)
{
	struct size_range *r = field;
	const char *dash = strchr(val, '-');
	uint64_t lo, hi;
	char buf[64];

	if (!dash && value_parse_time(val, o->unit_ns, &lo) == 0) {
		r->lo = r->hi = lo;
		return 0;
	}
	if (dash && (size_t)(dash - val) < sizeof(buf)) {
		snprintf(buf, sizeof(buf), "%.*s", (int)(dash - val), val);
		if (value_parse_time(buf, o->unit_ns, &lo) == 0 &&
		    value_parse_time(dash + 1, o->unit_ns, &hi) == 0 && lo <= hi) {
			r->lo = lo;
			r->hi = hi;
			return 0;
		}
	}
	snprintf(why, whylen, "'%s' is not a time or a range such as 1s-5s", val);
	return -EINVAL;
}

static int apply_by_type(const struct opt_def *o, const struct opt_ctx *ctx, void *base,
			 const char *val, char *why, size_t whylen)
{
	void *field = (char *)base + o->off;
	struct size_range *r = field;
	long long ll;
	bool b;
	int ret;

	switch (o->type) {
	case OPT_STR:
		*(const char **)field = arena_strdup(ctx->arena, val);
		return *(const char **)field ? 0 : -ENOMEM;
	case OPT_STR_LIST:
		return apply_list(o, ctx, field, val, why, whylen);
	case OPT_UINT:
		return apply_uint(o, field, val, why, whylen);
	case OPT_U64:
		if (value_parse_int(val, &ll) < 0 || ll < 0) {
			snprintf(why, whylen, "'%s' is not a non-negative number", val);
			return -EINVAL;
		}
		*(uint64_t *)field = (uint64_t)ll;
		return 0;
	case OPT_SIZE:
		return apply_size(o, ctx, field, val, why, whylen);
	case OPT_SIZE_PCT:
		return apply_size_pct(ctx, field, val, why, whylen);
	case OPT_RANGE:
		ret = value_parse_size_range(val, ctx->kb_base, &r->lo, &r->hi);
		if (ret == -EDOM)
			opt_range_reversed(val, why, whylen);
		else if (ret < 0)
			snprintf(why, whylen, "'%s' is not a size or a range such as 1m-4m", val);
		return ret == -EDOM ? -EINVAL : ret;
	case OPT_TIME:
		return apply_time(o, field, val, why, whylen);
	case OPT_TIME_RANGE:
		return apply_time_range(o, field, val, why, whylen);
	case OPT_BOOL:
	case OPT_BOOL_INV:
		/*
		 * fio's set-only flags take any number, set unless 0 (xfstests' generic/300
		 * writes time_based=10); its other booleans only 0 and 1.
		 */
		if (o->set_only && value_parse_bool(val, &b) < 0 &&
		    value_parse_int(val, &ll) == 0) {
			*(bool *)field = ll != 0;
			return 0;
		}
		if (value_parse_bool(val, &b) < 0) {
			snprintf(why, whylen, "'%s' is not a boolean (0 or 1)", val);
			return -EINVAL;
		}
		*(bool *)field = o->type == OPT_BOOL ? b : !b;
		return 0;
	case OPT_ENUM:
		return apply_enum(o, field, val, why, whylen);
	case OPT_CUSTOM:
		return o->parse(ctx, val, base, why, whylen);
	case OPT_DEPRECATED:
		return 0;
	case OPT_REFUSED:
		if (o->noop && !strcasecmp(val, o->noop))
			return 0;
		if (o->noop)
			snprintf(why, whylen, "not in iojob: %s (only %s=%s, the default, is "
				 "accepted)", o->refused, o->name, o->noop);
		else
			snprintf(why, whylen, "not in iojob: %s", o->refused);
		return -ENOTSUP;
	}
	return -EINVAL;
}

/*
 * An expression (a value that starts with '(', as the converters take one) past the
 * parser's depth limit, which the converters report as malformed.
 */
static bool nests_too_deep(const char *val)
{
	int64_t v;

	return val[strspn(val, " \t")] == '(' && expr_eval(val, EXPR_BARE, 1024, &v) == -E2BIG;
}

int opt_apply(const struct opt_def *o, const struct opt_ctx *ctx, void *base, const char *val,
	      char *why, size_t whylen)
{
	int ret = apply_by_type(o, ctx, base, val, why, whylen);

	/* the value may be 40 KB of '(': quote only its start */
	if (ret < 0 && ret != -ENOMEM && nests_too_deep(val))
		snprintf(why, whylen, "'%.24s...' nests deeper than %d levels (parentheses, signs "
			 "and '^' count)", val, EXPR_DEPTH_MAX);
	return ret;
}

void opt_describe(const struct opt_def *o, char *buf, size_t len)
{
	static const char *const kinds[] = {
		[OPT_STR] = "text", [OPT_STR_LIST] = "list of names, ':'-separated",
		[OPT_UINT] = "integer", [OPT_U64] = "integer", [OPT_SIZE] = "size",
		[OPT_SIZE_PCT] = "size or percentage (or Nz: zones of zonesize)", [OPT_RANGE] = "size or size range",
		[OPT_TIME] = "time", [OPT_TIME_RANGE] = "time or time range",
		[OPT_BOOL] = "boolean", [OPT_BOOL_INV] = "boolean", [OPT_ENUM] = "one of",
		[OPT_CUSTOM] = "text", [OPT_REFUSED] = "not in iojob",
		[OPT_DEPRECATED] = "anything (deprecated: ignored, as by fio)",
	};
	size_t n;

	n = (size_t)snprintf(buf, len, "%s", o->syntax ? o->syntax : kinds[o->type]);
	if ((o->type == OPT_UINT || o->type == OPT_SIZE) && o->max && n < len)
		n += (size_t)snprintf(buf + n, len - n, ", %lld to %lld", o->min, o->max);
	if (o->type == OPT_TIME && n < len)
		n += (size_t)snprintf(buf + n, len - n, ", plain numbers in %s",
				      o->unit_ns == NS_PER_SEC ? "seconds" :
				      o->unit_ns == NS_PER_MSEC ? "milliseconds" : "microseconds");
	if (o->type == OPT_ENUM) {	/* a CUSTOM option's syntax says it all */
		for (const struct opt_enum *e = o->vals; e->name && n < len; e++)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", e == o->vals ? " " : "|",
					      e->name);
	}
}
