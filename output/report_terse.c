/*
 * The terse report (--output-format=terse, --minimal) in fio 3.33's versions 2 to 5
 * (--terse-version): one ';'-separated line per reporting unit, field for field as fio
 * prints it. Latencies are in usec. What the versions differ in: v2 has no version string
 * and no disks, and puts the description on a line of its own; v3 has no trim block; v5
 * adds the bw sample count and the iops samples to each direction.
 */
#include "output/report.h"

#include <stdint.h>

#include "output/diskstats.h"
#include "output/hist.h"
#include "output/report_formats.h"
#include "output/report_util.h"
#include "output/stats.h"
#include "output/text.h"

#define TERSE_PCT_SLOTS		20	/* fio's FIO_IO_U_LIST_MAX_LEN: unused slots say "0%=0" */

/* min;max;mean;stddev in usec: fio divides the extremes as integers, the rest as floats. */
static void terse_lat(FILE *f, const struct moments *m)
{
	if (!m->n) {
		fputs(";0;0;0.000000;0.000000", f);
		return;
	}
	fprintf(f, ";%llu;%llu;%f;%f", (unsigned long long)(m->min / 1000),
		(unsigned long long)(m->max / 1000), moments_mean(m) / 1000.0,
		moments_stddev(m) / 1000.0);
}

/* The lat percentiles with lat_percentiles, else the clat ones, as "99.000000%=USEC". */
static void terse_pct(FILE *f, const struct report_unit *u, const struct dir_stats *d)
{
	const struct hist *h = NULL;
	const struct moments *m = NULL;
	double pct[RU_PCT_MAX];
	uint64_t val[RU_PCT_MAX];
	unsigned n = 0, i;

	if (u->lat_percentiles) {
		h = &d->lat_hist;
		m = &d->lat;
	} else if (u->clat_percentiles) {
		h = &d->clat_hist;
		m = &d->clat;
	}
	if (h) {
		n = pct_list(u, pct);
		n = n > TERSE_PCT_SLOTS ? TERSE_PCT_SLOTS : n;
		pct_values(h, m, pct, n, val);
	}
	for (i = 0; i < TERSE_PCT_SLOTS; i++) {
		if (i < n)
			fprintf(f, ";%f%%=%llu", pct[i], (unsigned long long)(val[i] / 1000));
		else
			fputs(";0%=0", f);
	}
}

/* bw samples in KiB/s: min;max;share of the group%;mean;stddev. */
static void terse_bw(FILE *f, const struct dir_stats *d, uint64_t agg_bw)
{
	struct sample_sum s;

	stats_samples(&d->bw, &d->bw_sum, &s);
	if (!s.n) {
		fputs(";0;0;0.000000%;0.000000;0.000000", f);
		return;
	}
	fprintf(f, ";%llu;%llu;%f%%;%f;%f", (unsigned long long)s.min, (unsigned long long)s.max,
		bw_share(s.mean, agg_bw), s.mean, stats_samples_stddev(&s));
}

/* v5's: the bw sample count, then iops samples min;max;mean;stddev;count. */
static void terse_samples(FILE *f, const struct dir_stats *d)
{
	struct sample_sum s;

	stats_samples(&d->bw, &d->bw_sum, &s);
	fprintf(f, ";%llu", (unsigned long long)s.n);
	stats_samples(&d->iops, &d->iops_sum, &s);
	if (!s.n) {
		fputs(";0;0;0.000000;0.000000;0", f);
		return;
	}
	fprintf(f, ";%llu;%llu;%f;%f;%llu", (unsigned long long)s.min,
		(unsigned long long)s.max, s.mean, stats_samples_stddev(&s),
		(unsigned long long)s.n);
}

/*
 * One direction's 41 fields (47 in v5): io KiB;bw KiB/s;iops;runtime ms, slat, clat,
 * pcts, lat, bw.
 */
static void terse_dir(FILE *f, const struct report_unit *u, const struct shown_dir *s,
		      const struct group_run *g, unsigned version)
{
	const struct dir_stats *d = s->d;

	fprintf(f, ";%llu;%llu;%llu;%llu", (unsigned long long)(d->bytes >> 10),
		(unsigned long long)(dir_bw(d) / 1024), (unsigned long long)dir_iops(s),
		(unsigned long long)dir_runtime_ms(d));
	terse_lat(f, &d->slat);
	terse_lat(f, &d->clat);
	terse_pct(f, u, d);
	terse_lat(f, &d->lat);
	terse_bw(f, d, g ? g->dir[s->slot].agg_bw : 0);
	if (version == 5)
		terse_samples(f, d);
}

/* cpu, the 7 IO depths, 10 usec and 12 msec lat buckets. */
static void terse_job(FILE *f, const struct job_stats *st)
{
	uint64_t issued = sum_counts(st->issued, STATS_NDIR);
	uint64_t nsec = sum_counts(st->lat_buckets, 10);
	double rt = (double)st->runtime_ns, p;
	unsigned i;

	fprintf(f, ";%f%%;%f%%;%llu;%llu;%llu",
		rt > 0 ? 100.0 * (double)st->usr_ns / rt : 0.0,
		rt > 0 ? 100.0 * (double)st->sys_ns / rt : 0.0, (unsigned long long)st->ctx,
		(unsigned long long)st->majf, (unsigned long long)st->minf);
	for (i = 0; i < STATS_DEPTH_NR; i++)
		fprintf(f, ";%3.1f%%", dist_pct(st->depth[i], issued, 0.1));
	for (i = 10; i < STATS_LAT_NR; i++) {
		p = dist_pct(st->lat_buckets[i], issued, 0.01);
		/* v3 predates the nsec buckets: fio adds them to the first usec one */
		if (i == 10 && issued)
			p += 100.0 * (double)nsec / (double)issued;
		fprintf(f, ";%3.2f%%", p);
	}
}

/*
 * Every disk, in the order of the normal report; a stacked device adds ";slaves;" and the
 * average of its members. A util that is not known prints as 0, as fio prints one it
 * could not time, so that the field stays a number.
 */
static void terse_disks(FILE *f, const struct disk_set *s)
{
	struct disk_view d, a;
	unsigned i;

	for (i = 0; s && i < s->n; i++) {
		disk_delta(s, i, &d);
		fprintf(f, ";%s;%llu;%llu;%llu;%llu;%llu;%llu;%llu;%3.2f%%", s->disks[i].name,
			(unsigned long long)d.ios[0], (unsigned long long)d.ios[1],
			(unsigned long long)d.merges[0], (unsigned long long)d.merges[1],
			(unsigned long long)d.ticks[0], (unsigned long long)d.ticks[1],
			(unsigned long long)d.in_queue, d.util);
		if (!disk_aggr(s, i, &a))
			continue;
		fprintf(f, ";slaves;%llu;%llu;%llu;%llu;%llu;%llu;%llu;%3.2f%%",
			(unsigned long long)a.ios[0], (unsigned long long)a.ios[1],
			(unsigned long long)a.merges[0], (unsigned long long)a.merges[1],
			(unsigned long long)a.ticks[0], (unsigned long long)a.ticks[1],
			(unsigned long long)a.in_queue, a.util);
	}
}

static void terse_unit(FILE *f, const struct report_ctx *c, const struct unit_view *v,
		       unsigned version)
{
	const struct report_unit *u = v->u;
	const struct group_run *g = report_group(c, u->groupid);
	unsigned i;

	if (version == 2)
		fputs("2;", f);
	else
		fprintf(f, "%u;%s;", version, c->r->version);
	text_put_terse(f, u->name);	/* a ';' or a newline would shift every field after */
	fprintf(f, ";%d;%d", u->groupid, u->error);
	/* v3 has no trim block; unified reporting shows mixed after the others, or alone */
	for (i = 0; i < v->ndirs; i++)
		if (v->dirs[i].slot != RU_SLOT_TRIM || version != 3)
			terse_dir(f, u, &v->dirs[i], g, version);
	terse_job(f, v->st);
	if (version >= 3)
		terse_disks(f, c->r->disks);
	if (u->continue_on_error)
		fprintf(f, ";%llu;%d", (unsigned long long)v->st->total_err, v->st->first_error);
	if (u->desc) {
		/* v2's description is a line of its own, ";" and the text */
		fputs(version == 2 ? "\n;" : ";", f);
		text_put_terse(f, u->desc);
	}
	fputc('\n', f);
}

REPORT_RENDERER(report_render_terse);
REPORT_RENDERER(report_render_terse)
{
	report_terse(f, r, report_formats_terse_version(set));
}

void report_terse(FILE *f, const struct report *r, unsigned version)
{
	struct report_ctx c;
	unsigned i;

	if (report_ctx_init(&c, r))
		return;
	for (i = 0; i < r->nunits; i++)
		terse_unit(f, &c, &c.views[i], version);
	report_ctx_free(&c);
}
