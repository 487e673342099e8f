/*
 * Helpers shared by the reporters: unit views, group totals, fio's scaling and rounding
 * rules, and disk deltas.
 */
#include "output/report_util.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/diskstats.h"
#include "output/num2str.h"
#include "base/units.h"

const char *const depth_bucket_label[STATS_DEPTH_NR] = {
	"1", "2", "4", "8", "16", "32", ">=64",
};

const char *const batch_bucket_label[STATS_BATCH_NR] = {
	"0", "4", "8", "16", "32", "64", ">=64",
};

const char *const lat_bucket_label[STATS_LAT_NR] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000",
};

static const double default_pct[] = {
	1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 99.0, 99.5,
	99.9, 99.95, 99.99,
};

uint64_t dir_runtime_ms(const struct dir_stats *d)
{
	uint64_t us;

	if (!d->runtime_ns)
		return 0;
	/* fio keeps runtimes in whole microseconds and rounds them up to milliseconds. */
	us = d->runtime_ns / NS_PER_USEC;
	return us < USEC_PER_MSEC ? 1 : (us + USEC_PER_MSEC - 1) / USEC_PER_MSEC;
}

/*
 * Rates are over the exact runtime, not the whole milliseconds fio divides by: a 20 ms
 * job that ran 20.9 ms would read 5% high or, rounded up to 21, low; over a second the
 * two agree to 0.1%.
 */
unsigned dir_prios_shown(const struct dir_stats *d)
{
	unsigned n = 0;

	if (d->prio_dropped)
		return 0;
	for (unsigned i = 0; i < d->nprio; i++)
		n += d->prio[i].lat.n != 0;
	return n;
}

/*
 * The runtime rates are over: a direction that ran less than a millisecond (verify_backlog's
 * reads, between the writes; a tiny job) is over the 1 ms the report shows, as fio's, where
 * its exact few microseconds made 4 MiB read "9063 GiB/s".
 */
static uint64_t at_least_ms(uint64_t ns)
{
	return ns && ns < NS_PER_MSEC ? NS_PER_MSEC : ns;
}

static uint64_t rate_ns(const struct dir_stats *d)
{
	return at_least_ms(d->runtime_ns);
}

uint64_t dir_bw(const struct dir_stats *d)
{
	return d->runtime_ns ? (uint64_t)((stats_u128)d->bytes * NS_PER_SEC / rate_ns(d)) : 0;
}

double dir_iops_exact(const struct shown_dir *s)
{
	return s->d->runtime_ns ? 1e9 * (double)s->issued / (double)rate_ns(s->d) : 0.0;
}

uint64_t dir_iops(const struct shown_dir *s)
{
	return (uint64_t)dir_iops_exact(s);
}

double bw_share(double mean_kib, uint64_t agg_bw)
{
	double p;

	if (agg_bw / 1024 == 0)
		return 100.0;
	p = mean_kib * 100.0 / (double)(agg_bw / 1024);
	return p > 100.0 ? 100.0 : p;
}

uint64_t lat_scale(uint64_t min, uint64_t max, double dev, const char **unit)
{
	if (min > 2000000 && max > 99999999ULL && dev > 1000000.0) {
		*unit = "msec";
		return 1000000;
	}
	if (min > 2000 && max > 99999 && dev > 1000.0) {
		*unit = "usec";
		return 1000;
	}
	*unit = "nsec";
	return 1;
}

uint64_t pct_scale(uint64_t minv, uint64_t maxv, const char **unit)
{
	if (minv > 2000000 && maxv > 99999999ULL) {
		*unit = "msec";
		return 1000000;
	}
	if (minv > 2000 && maxv > 99999) {
		*unit = "usec";
		return 1000;
	}
	*unit = "nsec";
	return 1;
}

void pct_values(const struct hist *h, const struct moments *m, const double *pct, unsigned n,
		uint64_t *out)
{
	hist_percentiles(h, pct, n, out);
	for (unsigned i = 0; m->n && i < n; i++) {
		if (out[i] < m->min)
			out[i] = m->min;
		if (out[i] > m->max)
			out[i] = m->max;
	}
}

unsigned pct_list(const struct report_unit *u, double *out)
{
	const double *src = u->pct;
	unsigned n = u->npct, i, j;
	double v;

	if (!src || !n) {
		src = default_pct;
		n = ARRAY_SIZE(default_pct);
	}
	if (n > RU_PCT_MAX)
		n = RU_PCT_MAX;
	for (i = 0; i < n; i++) {
		v = src[i];
		for (j = i; j > 0 && out[j - 1] > v; j--)
			out[j] = out[j - 1];
		out[j] = v;
	}
	return n;
}

const char *const block_state_name[BLOCK_NSTATES] = {
	"unwritten", "trimmed", "written", "trim failure", "write failure",
};

/* fio's order: untouched blocks, then trimmed or written, then failed; by trims within. */
static int block_category(uint32_t b)
{
	unsigned s = b >> BLOCK_STATE_SHIFT;

	return s == BLOCK_UNWRITTEN ? 0 : s <= BLOCK_WRITTEN ? 1 : 2;
}

static int block_cmp(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	int ca = block_category(a), cb = block_category(b);

	if (ca != cb)
		return ca < cb ? -1 : 1;
	if ((a & BLOCK_TRIMS_MASK) != (b & BLOCK_TRIMS_MASK))
		return (a & BLOCK_TRIMS_MASK) < (b & BLOCK_TRIMS_MASK) ? -1 : 1;
	return a < b ? -1 : a > b;
}

unsigned block_lifetimes(const struct report_unit *u, double *pct, uint32_t *trims,
			 unsigned states[BLOCK_NSTATES])
{
	unsigned n = u->nblock_info, untouched = 0, npct;
	uint32_t *b;

	memset(states, 0, BLOCK_NSTATES * sizeof(*states));
	if (!n || !(b = malloc(n * sizeof(*b))))
		return 0;
	memcpy(b, u->block_info, n * sizeof(*b));
	qsort(b, n, sizeof(*b), block_cmp);
	while (untouched < n && block_category(b[untouched]) == 0)
		untouched++;
	npct = untouched < n ? pct_list(u, pct) : 0;
	for (unsigned i = 0; i < npct; i++) {
		unsigned at = (unsigned)(pct[i] * (n - untouched) / 100) + untouched;

		trims[i] = b[at < n ? at : n - 1] & BLOCK_TRIMS_MASK;
	}
	/* as fio: no state counted when no block was touched */
	for (unsigned i = 0; npct && i < n; i++)
		states[b[i] >> BLOCK_STATE_SHIFT]++;
	free(b);
	return npct;
}

unsigned pct_precision(const struct report_unit *u, const double *pct, unsigned n)
{
	unsigned i, d, best = u->pct_decimals > 6 ? 6 : u->pct_decimals;
	double x;

	for (i = 0; i < n; i++) {
		x = pct[i];
		for (d = 0; d < 6; d++, x *= 10.0)
			if (fabs(x - nearbyint(x)) < 1e-6)
				break;
		if (d > best)
			best = d;
	}
	return best;
}

double dist_pct(uint64_t part, uint64_t total, double floor)
{
	double v;

	if (!total)
		return 0.0;
	v = 100.0 * (double)part / (double)total;
	return part && v < floor ? floor : v;
}

uint64_t sum_counts(const uint64_t *v, unsigned n)
{
	uint64_t s = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		s += v[i];
	return s;
}

const char *report_signal_name(int sig)
{
	static _Thread_local char other[24];

	if (sig == SIGINT)
		return "SIGINT";
	if (sig == SIGTERM)
		return "SIGTERM";
	snprintf(other, sizeof(other), "signal %d", sig);
	return other;
}

void report_ctime(time_t t, char *buf, size_t len)
{
	char tmp[64];
	size_t n;

	if (!ctime_r(&t, tmp))
		tmp[0] = '\0';
	n = strcspn(tmp, "\n");
	tmp[n] = '\0';
	snprintf(buf, len, "%s", tmp);
}

static void view_init(struct unit_view *v, const struct report_unit *u)
{
	static const char *const names[STATS_NDIR] = { "read", "write", "trim" };
	const struct job_stats *st = u->st;
	unsigned i;

	v->u = u;
	v->st = st;
	v->ndirs = 0;
	if (u->unified != REPORT_UNIFIED_MIXED) {
		for (i = 0; i < STATS_NDIR; i++)
			v->dirs[v->ndirs++] = (struct shown_dir){ names[i], i, &st->dir[i],
								  st->issued[i] };
	}
	if (v->mixed) {
		v->dirs[v->ndirs++] = (struct shown_dir){ "mixed", RU_SLOT_MIXED,
							  &v->mixed->dir[0], v->mixed->issued[0] };
		if (u->unified == REPORT_UNIFIED_MIXED)
			v->st = v->mixed;
	}
}

static struct group_run *group_get(struct report_ctx *c, const struct report_unit *u)
{
	struct group_run *g;
	unsigned i;

	for (i = 0; i < c->ngroups; i++)
		if (c->groups[i].groupid == u->groupid)
			return &c->groups[i];
	g = &c->groups[c->ngroups++];
	g->groupid = u->groupid;
	g->kb_base = u->kb_base;
	for (i = 0; i < RU_SLOTS; i++)
		g->dir[i].min_bw = UINT64_MAX;
	return g;
}

/* Add a unit's directions to its group: bytes summed, bandwidth and runtime extremes. */
static void group_add(struct group_run *g, const struct unit_view *v)
{
	struct group_dir *gd;
	uint64_t ms, bw;
	unsigned i;

	for (i = 0; i < v->ndirs; i++) {
		ms = dir_runtime_ms(v->dirs[i].d);
		if (!ms)
			continue;
		gd = &g->dir[v->dirs[i].slot];
		bw = dir_bw(v->dirs[i].d);
		if (!gd->min_run_ms || ms < gd->min_run_ms)
			gd->min_run_ms = ms;
		if (ms > gd->max_run_ms)
			gd->max_run_ms = ms;
		if (v->dirs[i].d->runtime_ns > gd->max_run_ns)
			gd->max_run_ns = v->dirs[i].d->runtime_ns;
		if (bw < gd->min_bw)
			gd->min_bw = bw;
		if (bw > gd->max_bw)
			gd->max_bw = bw;
		gd->bytes += v->dirs[i].d->bytes;
		/* over at least the 1 ms shown, as each job's rate is (rate_ns()) */
		gd->agg_bw = (uint64_t)((stats_u128)gd->bytes * NS_PER_SEC /
					at_least_ms(gd->max_run_ns));
	}
}

int report_ctx_init(struct report_ctx *c, const struct report *r)
{
	const struct report_unit *u;
	struct group_run *g;
	unsigned i;

	memset(c, 0, sizeof(*c));
	c->r = r;
	c->views = calloc(r->nunits ? r->nunits : 1, sizeof(*c->views));
	c->groups = calloc(r->nunits ? r->nunits : 1, sizeof(*c->groups));
	if (!c->views || !c->groups)
		goto err_free;
	for (i = 0; i < r->nunits; i++) {
		u = &r->units[i];
		if (u->unified != REPORT_UNIFIED_NONE) {
			c->views[i].mixed = malloc(sizeof(*c->views[i].mixed));
			if (!c->views[i].mixed)
				goto err_free;
			*c->views[i].mixed = *u->st;
			stats_unify(c->views[i].mixed);
		}
		view_init(&c->views[i], u);
		g = group_get(c, u);
		/* fio's group lines take these of the group's last unit, kb_base of its first */
		g->sig_figs = u->sig_figs ? u->sig_figs : N2S_FIGURES;
		g->unit_bits = u->unit_bits;
		group_add(g, &c->views[i]);
	}
	return 0;

err_free:
	report_ctx_free(c);
	return -ENOMEM;
}

void report_ctx_free(struct report_ctx *c)
{
	unsigned i;

	if (c->views)
		for (i = 0; i < c->r->nunits; i++)
			free(c->views[i].mixed);
	free(c->views);
	free(c->groups);
	c->views = NULL;
	c->groups = NULL;
	c->ngroups = 0;
}

const struct group_run *report_group(const struct report_ctx *c, int groupid)
{
	unsigned i;

	for (i = 0; i < c->ngroups; i++)
		if (c->groups[i].groupid == groupid)
			return &c->groups[i];
	return NULL;
}

/* A counter's change over the run; a smaller end value is a 32-bit kernel counter wrapping. */
static uint64_t counter_delta(uint64_t start, uint64_t end)
{
	if (end >= start)
		return end - start;
	if (start <= UINT32_MAX)
		return end + ((uint64_t)1 << 32) - start;
	return 0;
}

void disk_delta(const struct disk_set *s, unsigned i, struct disk_view *out)
{
	const struct disk_counters *a = &s->disks[i].start, *b = &s->disks[i].end;
	uint64_t ns, ms, busy, ios;
	unsigned k;

	for (k = 0; k < 2; k++) {
		out->ios[k] = counter_delta(a->ios[k], b->ios[k]);
		out->merges[k] = counter_delta(a->merges[k], b->merges[k]);
		out->ticks[k] = counter_delta(a->ticks[k], b->ticks[k]);
	}
	out->in_queue = counter_delta(a->in_queue, b->in_queue);
	busy = counter_delta(a->io_ticks, b->io_ticks);
	ios = out->ios[0] + out->ios[1] + counter_delta(a->discard_ios, b->discard_ios) +
	      counter_delta(a->flush_ios, b->flush_ios);
	/* Some devices (md on older kernels, zram) complete I/O without counting busy time. */
	out->util_known = busy || !ios;
	ns = s->window_ns ? s->window_ns : s->end_ns > s->start_ns ? s->end_ns - s->start_ns : 0;
	/* io_ticks count whole milliseconds: over whole milliseconds, as fio divides */
	ms = ns / NS_PER_MSEC;
	out->util = ms ? 100.0 * (double)busy / (double)ms : 0.0;
	if (out->util > 100.0)
		out->util = 100.0;
}

unsigned disk_aggr(const struct disk_set *s, unsigned i, struct disk_view *out)
{
	struct disk_view m;
	unsigned j, k, n = 0;

	memset(out, 0, sizeof(*out));
	for (j = 0; j < s->n; j++) {
		if (s->disks[j].master != (int)i)
			continue;
		disk_delta(s, j, &m);
		for (k = 0; k < 2; k++) {
			out->ios[k] += m.ios[k];
			out->merges[k] += m.merges[k];
			out->ticks[k] += m.ticks[k];
		}
		out->in_queue += m.in_queue;
		if (m.util_known && (!out->util_known || m.util > out->util)) {
			out->util = m.util;
			out->util_known = true;
		}
		n++;
	}
	if (!n)
		return 0;
	for (k = 0; k < 2; k++) {
		out->ios[k] /= n;
		out->merges[k] /= n;
		out->ticks[k] /= n;
	}
	out->in_queue /= n;
	return n;
}

void report_time_key(uint64_t ns, char *buf, size_t len)
{
	static const struct { uint64_t div; const char *unit; } u[] = {
		{ NS_PER_SEC, "s" }, { NS_PER_MSEC, "ms" }, { NS_PER_USEC, "us" }, { 1, "ns" },
	};
	unsigned i = 0;

	while (ns % u[i].div)
		i++;
	snprintf(buf, len, "%llu%s", (unsigned long long)(ns / u[i].div), u[i].unit);
}

uint64_t lat_over_count(const struct job_stats *st, unsigned k)
{
	uint64_t n = 0;

	for (unsigned d = 0; d < STATS_NDIR; d++)
		n += st->dir[d].lat_over[k];
	return n;
}
