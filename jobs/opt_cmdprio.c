/*
 * The cmdprio_* options of libaio and io_uring (fio's): per-direction numbers and the
 * cmdprio_bssplit table, parsed into struct cmdprio_opts at the start of the engine's
 * options, where every parser finds it.
 */
#include "jobs/opt_cmdprio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "parser/value.h"

/*
 * "int[,int]": one value for reads and writes, or a value each; an empty field leaves its
 * direction alone and a third (trim's) is ignored, as fio does. Fractions truncate.
 */
static int parse_per_dir(const char *val, unsigned *out, unsigned lo, unsigned hi,
			 const char *what, char *why, size_t whylen)
{
	unsigned v[CMDPRIO_NDIR] = { out[0], out[1] };
	char **f;
	int n = value_split(val, ',', &f);

	if (n < 0)
		return n;
	for (int i = 0; i < n && i < CMDPRIO_NDIR; i++) {
		double d;

		if (!f[i][0])
			continue;
		if (value_parse_double(f[i], &d) < 0 || d < lo || d >= (double)hi + 1) {
			snprintf(why, whylen, "'%s' is not %s from %u to %u", f[i], what, lo, hi);
			value_split_free(f, n);
			return -EINVAL;
		}
		v[i] = (unsigned)d;
		if (n == 1)
			v[1] = v[0];
	}
	value_split_free(f, n);
	out[0] = v[0];
	out[1] = v[1];
	return 0;
}

int cmdprio_parse_pct(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		      size_t whylen)
{
	struct cmdprio_opts *o = dst;

	(void)ctx;
	if (parse_per_dir(val, o->pct, 0, 100, "a percentage", why, whylen) < 0)
		return -EINVAL;
	if ((o->pct[0] || o->pct[1]) && o->split) {
		snprintf(why, whylen, "cmdprio_bssplit is set too: the two exclude each other");
		return -EINVAL;
	}
	return 0;
}

int cmdprio_parse_class(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			size_t whylen)
{
	struct cmdprio_opts *o = dst;

	(void)ctx;
	return parse_per_dir(val, o->cls, 1, 3, "a priority class", why, whylen);
}

int cmdprio_parse_level(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			size_t whylen)
{
	struct cmdprio_opts *o = dst;

	(void)ctx;
	return parse_per_dir(val, o->level, 0, 7, "a priority level", why, whylen);
}

int cmdprio_parse_hint(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		       size_t whylen)
{
	struct cmdprio_opts *o = dst;

	(void)ctx;
	return parse_per_dir(val, o->hint, 0, 1023, "a priority hint", why, whylen);
}

static unsigned at_most(unsigned v, unsigned max)
{
	return v < max ? v : max;
}

/* "bs/", "bs/perc", "bs/perc/class/level" or "bs/perc/class/level/hint" (fio clips each). */
static int parse_split_entry(const struct opt_ctx *ctx, const char *s,
			     struct cmdprio_split_entry *e, char *why, size_t whylen)
{
	char bs[64];
	unsigned perc = 0, cls = 0, level = 0, hint = 0;
	int used = 0, k;
	const char *slash = strchr(s, '/');
	size_t len = slash ? (size_t)(slash - s) : strlen(s);

	if (len >= sizeof(bs))
		goto bad;
	memcpy(bs, s, len);
	bs[len] = '\0';
	if (value_parse_size(bs, ctx->kb_base, &e->bs) < 0 || !e->bs)
		goto bad;
	e->perc = 0;
	e->ioprio = -1;
	if (!slash || !slash[1])
		return 0;
	k = sscanf(slash + 1, "%u%n/%u/%u%n/%u%n", &perc, &used, &cls, &level, &used, &hint,
		   &used);
	if (k < 1 || k == 2 || slash[1 + used] != '\0')
		goto bad;
	e->perc = at_most(perc, 100);
	/* Class 0 is best effort, as fio's ioprio_value() reads it. */
	if (k >= 3)
		e->ioprio = (int)((cls ? at_most(cls, 3) : 2) << CMDPRIO_CLASS_SHIFT |
				  at_most(hint, 1023) << CMDPRIO_HINT_SHIFT | at_most(level, 7));
	return 0;

bad:
	snprintf(why, whylen, "'%s' is not blocksize/percentage[/class/level[/hint]]", s);
	return -EINVAL;
}

static int split_cmp(const void *a, const void *b)
{
	const struct cmdprio_split_entry *x = a, *y = b;

	return x->bs < y->bs ? -1 : x->bs > y->bs;
}

/* The priorities entries name (the implicit one, -1, counting once): the stats have room. */
static unsigned distinct_prios(const struct cmdprio_split_entry *e, unsigned n)
{
	unsigned d = 0;

	for (unsigned i = 0; i < n; i++) {
		unsigned k = 0;

		while (k < i && e[k].ioprio != e[i].ioprio)
			k++;
		d += k == i;
	}
	return d;
}

/* One direction's entries, ':'-separated; zero-percent ones say nothing and are dropped. */
static int parse_split_dir(const struct opt_ctx *ctx, const char *s, struct cmdprio_split *sp,
			   int d, char *why, size_t whylen)
{
	struct cmdprio_split_entry *e = sp->e[d];
	char **f;
	int n = value_split(s, ':', &f), ret = 0;
	unsigned m = 0;

	if (n < 0)
		return n;
	for (int i = 0; i < n && !ret; i++) {
		if (!f[i][0])
			break;
		if (m == CMDPRIO_SPLIT_MAX) {
			snprintf(why, whylen, "more than %d entries", CMDPRIO_SPLIT_MAX);
			ret = -EINVAL;
			break;
		}
		ret = parse_split_entry(ctx, f[i], &e[m], why, whylen);
		if (!ret && e[m].perc)
			m++;
	}
	value_split_free(f, n);
	if (ret)
		return ret;
	if (distinct_prios(e, m) > CMDPRIO_PRIOS_MAX) {
		snprintf(why, whylen, "more than %d priorities in one direction",
			 CMDPRIO_PRIOS_MAX);
		return -EINVAL;
	}
	qsort(e, m, sizeof(*e), split_cmp);
	for (unsigned i = 0, tot = 0; i < m; i++) {
		tot = i && e[i].bs == e[i - 1].bs ? tot + e[i].perc : e[i].perc;
		if (tot > 100) {
			snprintf(why, whylen, "the percentages for %llu bytes add up to more than 100",
				 (unsigned long long)e[i].bs);
			return -EINVAL;
		}
	}
	sp->n[d] = m;
	return 0;
}

int cmdprio_parse_bssplit(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			  size_t whylen)
{
	struct cmdprio_opts *o = dst;
	struct cmdprio_split *sp;
	char **f;
	int n, ret = 0;

	if (o->pct[0] || o->pct[1]) {
		snprintf(why, whylen, "cmdprio_percentage is set too: the two exclude each other");
		return -EINVAL;
	}
	sp = arena_alloc(ctx->arena, sizeof(*sp));
	if (!sp)
		return -ENOMEM;
	n = value_split(val, ',', &f);
	if (n < 0)
		return n;
	/* As bssplit: one list for both directions, or reads,writes[,trim (ignored)]. */
	for (int d = 0; d < CMDPRIO_NDIR && !ret; d++)
		ret = parse_split_dir(ctx, f[n == 1 ? 0 : d], sp, d, why, whylen);
	value_split_free(f, n);
	if (ret)
		return ret;
	o->split = sp->n[0] || sp->n[1] ? sp : NULL;
	return 0;
}
