/*
 * cmdprio_*: parsing the options into struct cmdprio_opts, turning them into the run-time
 * tables of struct cmdprio, and the per-I/O decision the engines ask for.
 */
#include "engine/cmdprio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "jobs/options.h"
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
	if (k >= 3)
		e->ioprio = (int)(at_most(cls, 3) << IOPRIO_CLASS_SHIFT |
				  at_most(hint, 1023) << IOPRIO_HINT_SHIFT | at_most(level, 7));
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

/* The statistics slot of ioprio in direction d, added if new; -1 when all are taken. */
static int slot_of(struct cmdprio *cp, int d, uint32_t ioprio)
{
	unsigned i = 0;

	while (i < cp->nprio[d] && cp->ioprio[d][i] != ioprio)
		i++;
	if (i == STATS_PRIO_NR)
		return -1;
	if (i == cp->nprio[d]) {
		cp->ioprio[d][i] = ioprio;
		cp->nprio[d]++;
	}
	return (int)i;
}

static uint32_t implicit_ioprio(const struct cmdprio_opts *o, int d)
{
	unsigned cls = o->cls[d] ? o->cls[d] : IOPRIO_CLASS_RT;

	return cls << IOPRIO_CLASS_SHIFT | o->hint[d] << IOPRIO_HINT_SHIFT | o->level[d];
}

/* The table of direction d by block size: every entry of one size in one struct. */
static int init_split_dir(struct cmdprio *cp, const struct cmdprio_opts *o, int d)
{
	const struct cmdprio_split *sp = o->split;
	unsigned n = sp->n[d];

	cp->bs[d] = calloc(n ? n : 1, sizeof(*cp->bs[d]));
	if (!cp->bs[d])
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		const struct cmdprio_split_entry *e = &sp->e[d][i];
		uint32_t ioprio = e->ioprio < 0 ? implicit_ioprio(o, d) : (uint32_t)e->ioprio;
		struct cmdprio_bs *b;
		int slot = slot_of(cp, d, ioprio);

		if (slot < 0)
			return -E2BIG;
		if (!cp->nbs[d] || cp->bs[d][cp->nbs[d] - 1].bs != e->bs)
			cp->bs[d][cp->nbs[d]++].bs = e->bs;
		b = &cp->bs[d][cp->nbs[d] - 1];
		b->cum[b->n] = (b->n ? b->cum[b->n - 1] : 0) + e->perc;
		b->ioprio[b->n] = (uint16_t)ioprio;
		b->idx[b->n] = (uint8_t)slot;
		b->n++;
	}
	return 0;
}

int cmdprio_init(struct cmdprio *cp, const struct cmdprio_opts *o, const struct job_desc *j)
{
	int ret = 0;

	memset(cp, 0, sizeof(*cp));
	if (!o->split && !o->pct[0] && !o->pct[1])
		return 0;
	cp->on = true;
	cp->split = o->split != NULL;
	/* Its own stream: the offsets drawn stay those of the same job without cmdprio. */
	rng_seed(&cp->rng, j->randseed ^ 0xc3d9a10ULL ^ (uint64_t)j->jobnum << 32);
	for (int d = 0; d < CMDPRIO_NDIR && !ret; d++) {
		cp->nprio[d] = 1;	/* slot 0: the job's own priority, 0 here */
		if (cp->split) {
			ret = init_split_dir(cp, o, d);
		} else if (o->pct[d]) {
			cp->pct[d] = o->pct[d];
			cp->pct_ioprio[d] = (uint16_t)implicit_ioprio(o, d);
			slot_of(cp, d, cp->pct_ioprio[d]);
		}
	}
	if (ret)
		cmdprio_free(cp);
	return ret;
}

void cmdprio_free(struct cmdprio *cp)
{
	for (int d = 0; d < CMDPRIO_NDIR; d++) {
		free(cp->bs[d]);
		cp->bs[d] = NULL;
	}
	cp->on = false;
}

static bool set(struct io_req *r, uint16_t ioprio, uint8_t idx)
{
	r->ioprio = ioprio;
	r->prio_idx = idx;
	return idx != 0;
}

bool cmdprio_pick(struct cmdprio *cp, struct io_req *r)
{
	int d = r->dir;
	unsigned draw;

	if (r->resubmit)
		return r->prio_idx != 0;
	if (d >= CMDPRIO_NDIR)
		return set(r, 0, 0);
	if (!cp->split) {
		if (!cp->pct[d] || (unsigned)rng_below(&cp->rng, 100) >= cp->pct[d])
			return set(r, 0, 0);
		return set(r, cp->pct_ioprio[d], cp->pct_ioprio[d] == cp->ioprio[d][0] ? 0 : 1);
	}
	for (unsigned i = 0; i < cp->nbs[d]; i++) {
		const struct cmdprio_bs *b = &cp->bs[d][i];

		if (b->bs != r->full_len)
			continue;
		draw = (unsigned)rng_below(&cp->rng, 100);
		for (unsigned k = 0; k < b->n; k++)
			if (draw < b->cum[k])
				return set(r, b->ioprio[k], b->idx[k]);
		break;
	}
	return set(r, 0, 0);
}

void cmdprio_stats_layout(const struct cmdprio *cp, struct job_stats *st, bool lat)
{
	for (int d = 0; d < CMDPRIO_NDIR; d++)
		stats_prio_layout(&st->dir[d], cp->ioprio[d], cp->nprio[d], lat);
}
