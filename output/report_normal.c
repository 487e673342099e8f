/*
 * The normal text report, laid out line for line as fio 3.33 prints it: job blocks, then
 * "Run status group" totals, then "Disk stats".
 */
#include "output/report.h"

#include <string.h>

#include "base/units.h"
#include "output/diskstats.h"
#include "output/num2str.h"
#include "output/report_formats.h"
#include "output/report_util.h"
#include "output/stats.h"
#include "output/text.h"

/* "    clat (usec): min=..., max=..., avg=..., stdev=..." in the unit fio would pick. */
static void print_lat(FILE *f, const char *name, const struct moments *m)
{
	char minp[32], maxp[32];
	const char *unit;
	double mean, dev;
	uint64_t div;

	if (!m->n)
		return;
	mean = moments_mean(m);
	dev = moments_stddev(m);
	div = lat_scale(m->min, m->max, dev, &unit);
	num2str(m->min / div, 6, 0, N2S_NONE, minp, sizeof(minp));
	num2str(m->max / div, 6, 0, N2S_NONE, maxp, sizeof(maxp));
	fprintf(f, "    %s (%s): min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", name, unit, minp,
		maxp, mean / (double)div, dev / (double)div);
}

/* A percentile block: its unit from the values, values rounded up, as many as fit a row. */
static void print_pct(FILE *f, const struct report_unit *u, const struct hist *h,
		      const struct moments *m, const char *pre)
{
	double pct[RU_PCT_MAX];
	uint64_t val[RU_PCT_MAX], minv, maxv, div, step, v;
	unsigned n, j, prec, width, per_line;
	const char *unit;

	if (!hist_total(h))
		return;
	n = pct_list(u, pct);
	pct_values(h, m, pct, n, val);
	minv = maxv = val[0];
	for (j = 1; j < n; j++) {
		minv = val[j] < minv ? val[j] : minv;
		maxv = val[j] > maxv ? val[j] : maxv;
	}
	div = pct_scale(minv, maxv, &unit);
	prec = pct_precision(u, pct, n);
	width = num2str_digits(maxv / div);
	width = width < 5 ? 5 : width;
	per_line = 73 / (prec + 10 + width);
	fprintf(f, "    %s percentiles (%s):\n     |", pre, unit);
	for (j = 0; j < n; j++) {
		if (j && j % per_line == 0)
			fputs("     |", f);
		v = val[j];
		for (step = div; step > 1; step /= 1000)
			v = (v + 999) / 1000;
		fprintf(f, " %*.*fth=[%*llu]%c", (int)prec + 3, (int)prec, pct[j], (int)width,
			(unsigned long long)v, j == n - 1 ? '\n' : ',');
		if (j != n - 1 && j % per_line == per_line - 1)
			fputc('\n', f);
	}
}

/* "clat prio 1/0", or "lat prio 1/0" where they hold lat; class/level/hint given a hint. */
static void prio_name(char *buf, size_t len, const struct dir_stats *d, unsigned i)
{
	uint32_t v = d->prio[i].ioprio, hint = (v >> 3) & 1023;
	int n = snprintf(buf, len, "%s prio %u/%u", d->prio_lat ? "lat" : "clat", v >> 13, v & 7);

	if (hint && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "/%u", hint);
}

/* With cmdprio and two priorities or more seen, fio's latency line for each. */
static void print_prio_lat(FILE *f, const struct dir_stats *d)
{
	char name[64];

	if (dir_prios_shown(d) < 2)
		return;
	for (unsigned i = 0; i < d->nprio; i++) {
		prio_name(name, sizeof(name), d, i);
		print_lat(f, name, &d->prio[i].lat);
	}
}

/* And a percentile block for each, with its share of the direction's I/Os. */
static void print_prio_pct(FILE *f, const struct report_unit *u, const struct dir_stats *d)
{
	uint64_t total = d->prio_lat ? d->lat.n : d->clat.n;
	char name[64], pre[96];

	if (dir_prios_shown(d) < 2 || !(u->clat_percentiles || u->lat_percentiles))
		return;
	for (unsigned i = 0; i < d->nprio; i++) {
		const struct prio_stats *p = &d->prio[i];

		if (!p->lat.n)
			continue;
		prio_name(name, sizeof(name), d, i);
		snprintf(pre, sizeof(pre), "%s (%.2f%% of IOs)", name,
			 total ? 100.0 * (double)p->lat.n / (double)total : 0.0);
		print_pct(f, u, &p->hist, &p->lat, pre);
	}
}

/* The bandwidth unit of unit_base: bytes, or bits (unit_base=1). */
static enum n2s_unit bw_unit(bool bits)
{
	return bits ? N2S_BITPERSEC : N2S_BYTEPERSEC;
}

/*
 * The bw and iops sample lines; absent without samples. They stay in bytes with
 * unit_base=1: fio 3.33 means to print bits there, but tests unit_base against 1 where it
 * holds its own code for bits (5), so it never does; the same quirk here.
 */
static void print_samples(FILE *f, const struct report_unit *u, const struct shown_dir *sd,
			  const struct group_run *g)
{
	double kb = u->kb_base == 1000 ? 1000.0 : 1024.0, mean, dev, per;
	const char *unit = u->kb_base == 1000 ? "kB" : "KiB";
	const struct dir_stats *d = sd->d;
	struct sample_sum s;
	uint64_t min, max;

	stats_samples(&d->bw, &d->bw_sum, &s);
	if (s.n) {
		mean = s.mean;
		dev = stats_samples_stddev(&s);
		min = s.min;
		max = s.max;
		per = bw_share(mean, g ? g->dir[sd->slot].agg_bw : 0);
		if (mean > kb * kb) {
			min = (uint64_t)((double)min / kb);
			max = (uint64_t)((double)max / kb);
			mean /= kb;
			dev /= kb;
			unit = "MiB";
		}
		fprintf(f, "   bw (%5s/s): min=%5llu, max=%5llu, per=%3.2f%%, avg=%5.02f, "
			"stdev=%5.02f, samples=%llu\n", unit, (unsigned long long)min,
			(unsigned long long)max, per, mean, dev, (unsigned long long)s.n);
	}
	stats_samples(&d->iops, &d->iops_sum, &s);
	if (s.n)
		fprintf(f, "   iops        : min=%5llu, max=%5llu, avg=%5.02f, stdev=%5.02f, "
			"samples=%llu\n", (unsigned long long)s.min, (unsigned long long)s.max,
			s.mean, stats_samples_stddev(&s), (unsigned long long)s.n);
}

static void print_dir(FILE *f, const struct report_unit *u, const struct shown_dir *s,
		      const struct group_run *g)
{
	const struct dir_stats *d = s->d;
	char iops[32], bw[80], io[32];
	uint64_t ms = dir_runtime_ms(d);
	unsigned figs = u->sig_figs ? u->sig_figs : N2S_FIGURES;

	if (!ms)
		return;
	num2str(dir_iops(s), figs, 0, N2S_NONE, iops, sizeof(iops));
	num2str_pair_figs(dir_bw(d), u->kb_base, figs, bw_unit(u->unit_bits), bw, sizeof(bw));
	num2str(d->bytes, figs, u->kb_base != 1000, N2S_BYTE, io, sizeof(io));
	fprintf(f, "  %s: IOPS=%s, BW=%s(%s/%llumsec)", s->name, iops, bw, io,
		(unsigned long long)ms);
	/*
	 * fio 3.33 says it on every write line, fio HEAD on each line of a zbd job that
	 * writes or trims: here on the write line, or the trim line of a job that only trims
	 */
	if (u->zone_resets_on && !strcmp(s->name, u->zone_resets_on))
		fprintf(f, "; %llu zone resets", (unsigned long long)u->st->zone_resets);
	fputc('\n', f);
	if (u->has_slat)
		print_lat(f, "slat", &d->slat);
	print_lat(f, "clat", &d->clat);
	print_lat(f, " lat", &d->lat);
	print_prio_lat(f, d);
	if (u->slat_percentiles)
		print_pct(f, u, &d->slat_hist, &d->slat, "slat");
	if (u->clat_percentiles)
		print_pct(f, u, &d->clat_hist, &d->clat, "clat");
	if (u->lat_percentiles)
		print_pct(f, u, &d->lat_hist, &d->lat, "lat");
	print_prio_pct(f, u, d);
	print_samples(f, u, s, g);
}

/* lat_over=: "  lat over     : >=2s=0.01% (3), >=10s=0.00% (0)", of the I/Os issued. */
static void print_lat_over(FILE *f, const struct report_unit *u, const struct job_stats *st,
			   uint64_t total)
{
	char key[32];

	for (unsigned k = 0; k < u->nlat_over; k++) {
		uint64_t n = lat_over_count(st, k);

		report_time_key(u->lat_over_ns[k], key, sizeof(key));
		fprintf(f, "%s>=%s=%.2f%% (%llu)%s", k ? ", " : "  lat over     : ", key,
			total ? 100.0 * (double)n / (double)total : 0.0, (unsigned long long)n,
			k + 1 == u->nlat_over ? "\n" : "");
	}
}

/* "  lat (usec)   : 50=1.77%, ..." rows of at most five non-empty buckets. */
static void print_lat_rows(FILE *f, const char *unit, const uint64_t *b, unsigned from,
			   unsigned to, uint64_t total)
{
	unsigned i, col = 0;
	double p;

	for (i = from; i < to; i++) {
		p = dist_pct(b[i], total, 0.01);
		if (p <= 0.0)
			continue;
		if (!col)
			fprintf(f, "  lat (%s)   : ", unit);
		else
			fputs(", ", f);
		fprintf(f, "%s=%3.2f%%", lat_bucket_label[i], p);
		if (++col == 5) {
			fputc('\n', f);
			col = 0;
		}
	}
	if (col)
		fputc('\n', f);
}

static void print_dist(FILE *f, const char *title, const char *const *label,
		       const uint64_t *v, unsigned n, uint64_t total)
{
	unsigned i;

	fputs(title, f);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%s=%3.1f%%", i ? ", " : "", label[i], dist_pct(v[i], total, 0.1));
	fputc('\n', f);
}

/* block_error_percentiles, in fio's layout: lines of at most 75 columns, then the states. */
static void print_blocks(FILE *f, const struct report_unit *u)
{
	double pct[RU_PCT_MAX];
	uint32_t trims[RU_PCT_MAX];
	unsigned states[BLOCK_NSTATES], n = block_lifetimes(u, pct, trims, states);
	int pos = 0, len;
	char item[80];

	fputs("  block lifetime percentiles :\n   |", f);
	for (unsigned i = 0; i < n; i++) {
		len = snprintf(item, sizeof(item), " %3.2fth=%u%c", pct[i], trims[i],
			       i == n - 1 ? '\n' : ',');
		if (pos + len > 75) {
			pos = 0;
			fputs("\n   |", f);
		}
		fputs(item, f);
		pos += len;
	}
	fputs("        states               :", f);
	for (unsigned i = 0; i < BLOCK_NSTATES; i++)
		fprintf(f, " %s=%u%c", block_state_name[i], states[i],
			i == BLOCK_NSTATES - 1 ? '\n' : ',');
}

/*
 * steadystate's line, as fio 3.33 prints it: the window's mean bandwidth in whole KiB
 * (kB with kb_base=1000) shown with either prefix, its mean IOPS and the criterion; with
 * fio HEAD's lat criteria its mean latency too, in ns as fio HEAD shows it ("52.3knsec").
 */
static void print_ss(FILE *f, const struct report_unit *u, const struct report_ss *ss)
{
	unsigned figs = u->sig_figs ? u->sig_figs : N2S_FIGURES, n = ss->samples;
	uint64_t bw = 0, iops = 0, lat = 0;
	int pow2 = u->kb_base != 1000;
	char p1[32], p1alt[32], p2[32], p3[48] = "";

	for (unsigned i = 0; i < n; i++) {
		bw += ss->bw[i];
		iops += ss->iops[i];
		lat += ss->lat[i];
	}
	bw = n ? bw / n : 0;
	iops = n ? iops / n : 0;
	if (ss->of_lat) {
		char num[32];

		num2str(n ? lat / n : 0, figs, 0, N2S_NONE, num, sizeof(num));
		snprintf(p3, sizeof(p3), ", lat=%snsec", num);
	}
	num2str_scaled(bw / u->kb_base, 1, figs, pow2, bw_unit(u->unit_bits), p1, sizeof(p1));
	num2str_scaled(bw / u->kb_base, 1, figs, !pow2, bw_unit(u->unit_bits), p1alt,
		       sizeof(p1alt));
	num2str(iops, figs, 0, N2S_NONE, p2, sizeof(p2));
	fprintf(f, "  steadystate  : attained=%s, bw=%s (%s), iops=%s%s, %s%s=%.3f%s\n",
		ss->attained ? "yes" : "no", p1, p1alt, p2, p3,
		report_ss_measure(ss),
		ss->by_slope ? " slope" : " mean dev", ss->criterion, ss->pct ? "%" : "");
}

/* cpu, IO depths, submit/complete, issued, errors and latency lines. */
static void print_job_tail(FILE *f, const struct report_unit *u, const struct job_stats *st)
{
	uint64_t issued = sum_counts(st->issued, STATS_NDIR);
	double rt = (double)st->runtime_ns;

	fprintf(f, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%llu, majf=%llu, minf=%llu\n",
		rt > 0 ? 100.0 * (double)st->usr_ns / rt : 0.0,
		rt > 0 ? 100.0 * (double)st->sys_ns / rt : 0.0, (unsigned long long)st->ctx,
		(unsigned long long)st->majf, (unsigned long long)st->minf);
	/* Depths count syncs too but are shares of read/write/trim I/Os: fio's 1=125.0%. */
	print_dist(f, "  IO depths    : ", depth_bucket_label, st->depth, STATS_DEPTH_NR, issued);
	print_dist(f, "     submit    : ", batch_bucket_label, st->submit, STATS_BATCH_NR,
		   sum_counts(st->submit, STATS_BATCH_NR));
	print_dist(f, "     complete  : ", batch_bucket_label, st->complete, STATS_BATCH_NR,
		   sum_counts(st->complete, STATS_BATCH_NR));
	fprintf(f, "     issued rwts: total=%llu,%llu,%llu,%llu short=%llu,%llu,%llu,0 "
		"dropped=%llu,%llu,%llu,0\n", (unsigned long long)st->issued[0],
		(unsigned long long)st->issued[1], (unsigned long long)st->issued[2],
		(unsigned long long)st->fsync_ios, (unsigned long long)st->dir[0].short_ios,
		(unsigned long long)st->dir[1].short_ios, (unsigned long long)st->dir[2].short_ios,
		(unsigned long long)st->dir[0].drop_ios, (unsigned long long)st->dir[1].drop_ios,
		(unsigned long long)st->dir[2].drop_ios);
	if (u->continue_on_error)
		fprintf(f, "     errors    : total=%llu, first_error=%d/<%s>\n",
			(unsigned long long)st->total_err, st->first_error,
			strerror(st->first_error));
	/* fio's units: the target in ns, the window in µs */
	if (u->depth)
		fprintf(f, "     latency   : target=%llu, window=%llu, percentile=%.2f%%, "
			"depth=%u\n", (unsigned long long)u->lat_target_ns,
			(unsigned long long)(u->lat_window_ns / NS_PER_USEC), u->lat_percentile,
			u->depth);
	if (u->block_info)
		print_blocks(f, u);
	if (u->ss)
		print_ss(f, u, u->ss);
}

static void print_unit(FILE *f, const struct report_ctx *c, const struct unit_view *v)
{
	const struct report_unit *u = v->u;
	const struct job_stats *st = v->st;
	uint64_t total = sum_counts(u->st->issued, STATS_NDIR);
	char when[64];
	unsigned i;

	for (i = 0; i < STATS_NDIR; i++)
		total += u->st->dir[i].bytes;
	if (!total)
		return;		/* fio skips jobs that did no I/O at all */
	report_ctime(c->r->time, when, sizeof(when));
	/* names and messages escaped: a name cannot forge lines or drive the terminal */
	text_put_escaped(f, u->name);
	fprintf(f, ": (groupid=%d, jobs=%u): err=%2d", u->groupid, u->members, u->error);
	if (u->error) {
		fputs(" (", f);
		text_put_escaped(f, u->error_msg ? u->error_msg : strerror(u->error));
		fputc(')', f);
	}
	fprintf(f, ": pid=%d: %s\n", u->tid, when);
	if (u->desc) {
		fputs("  Description  : [", f);
		text_put_escaped(f, u->desc);
		fputs("]\n", f);
	}
	if (u->passes > 1)
		fprintf(f, "  Pass         : %u of %u\n", u->pass, u->passes);
	for (i = 0; i < v->ndirs; i++)
		print_dir(f, u, &v->dirs[i], report_group(c, u->groupid));
	total = sum_counts(st->issued, STATS_NDIR);
	print_lat_rows(f, "nsec", st->lat_buckets, 0, 10, total);
	print_lat_rows(f, "usec", st->lat_buckets, 10, 20, total);
	print_lat_rows(f, "msec", st->lat_buckets, 20, STATS_LAT_NR, total);
	print_lat_over(f, u, st, total);
	if (st->sync_lat.n) {
		/* fio prints sync percentiles whatever clat_percentiles says */
		fputs("  fsync/fdatasync/sync_file_range:\n", f);
		print_lat(f, "sync", &st->sync_lat);
		print_pct(f, u, &st->sync_hist, &st->sync_lat, "sync");
	}
	print_job_tail(f, u, st);
}

static void print_group(FILE *f, const struct group_run *g)
{
	static const char *const label[RU_SLOTS] = { "   READ", "  WRITE", "   TRIM", "  MIXED" };
	char agg[80], io[80], min[32], max[32], min_alt[32], max_alt[32];
	int pow2 = g->kb_base != 1000;
	enum n2s_unit unit = bw_unit(g->unit_bits);
	unsigned i, figs = g->sig_figs;
	const struct group_dir *gd;

	fprintf(f, "\nRun status group %d (all jobs):\n", g->groupid);
	for (i = 0; i < RU_SLOTS; i++) {
		gd = &g->dir[i];
		if (!gd->max_run_ms)
			continue;
		num2str_pair_figs(gd->agg_bw, g->kb_base, figs, unit, agg, sizeof(agg));
		num2str_pair_figs(gd->bytes, g->kb_base, figs, N2S_BYTE, io, sizeof(io));
		num2str(gd->min_bw, figs, pow2, unit, min, sizeof(min));
		num2str(gd->max_bw, figs, pow2, unit, max, sizeof(max));
		num2str(gd->min_bw, figs, !pow2, unit, min_alt, sizeof(min_alt));
		num2str(gd->max_bw, figs, !pow2, unit, max_alt, sizeof(max_alt));
		fprintf(f, "%s: bw=%s, %s-%s (%s-%s), io=%s, run=%llu-%llumsec\n", label[i], agg,
			min, max, min_alt, max_alt, io, (unsigned long long)gd->min_run_ms,
			(unsigned long long)gd->max_run_ms);
	}
}

/* Every group of the run in order, those without a unit (stats=0) as a bare header. */
static void print_all_groups(FILE *f, const struct report_ctx *c, int ngroups)
{
	for (int id = 0; id < ngroups; id++) {
		const struct group_run *g = report_group(c, id);

		if (g)
			print_group(f, g);
		else
			fprintf(f, "\nRun status group %d (all jobs):\n", id);
	}
}

/* "util=12.34%", or "util=n/a" for a device that did I/O without counting busy time. */
static void print_util(FILE *f, const char *key, const struct disk_view *d)
{
	if (d->util_known)
		fprintf(f, "%s=%3.2f%%", key, d->util);
	else
		fprintf(f, "%s=n/a", key);
}

/* Members print their own line; a stacked device is indented and adds its members' average. */
void report_idle_text(FILE *f, const struct report_idle *idle)
{
	/* after a report, a blank line first; --idle-prof=calibrate prints this alone */
	fputs(idle->mode == REPORT_IDLE_CALIBRATE ? "CPU idleness:\n" : "\nCPU idleness:\n", f);
	if (idle->mode >= REPORT_IDLE_SYSTEM)
		fprintf(f, "  system: %3.2f%%\n", idle->system_pct);
	if (idle->mode == REPORT_IDLE_PERCPU) {
		for (unsigned i = 0; i < idle->ncpus; i++)
			fprintf(f, "%s%3.2f%%", i ? ", " : "  percpu: ", idle->cpu_pct[i]);
		fputc('\n', f);
	}
	fprintf(f, "  unit work: mean=%3.2fus, stddev=%3.2f\n", idle->unit_mean_us,
		idle->unit_stddev_us);
}

static void print_disks(FILE *f, const struct disk_set *s)
{
	struct disk_view d, a;
	unsigned i, members;

	fputs("\nDisk stats (read/write):\n", f);
	for (i = 0; i < s->n; i++) {
		disk_delta(s, i, &d);
		members = disk_aggr(s, i, &a);
		fprintf(f, "%s  %s: ios=%llu/%llu, merge=%llu/%llu, ticks=%llu/%llu, "
			"in_queue=%llu, ", members ? "  " : "", s->disks[i].name,
			(unsigned long long)d.ios[0], (unsigned long long)d.ios[1],
			(unsigned long long)d.merges[0], (unsigned long long)d.merges[1],
			(unsigned long long)d.ticks[0], (unsigned long long)d.ticks[1],
			(unsigned long long)d.in_queue);
		print_util(f, "util", &d);
		if (members) {
			fprintf(f, ", aggrios=%llu/%llu, aggrmerge=%llu/%llu, "
				"aggrticks=%llu/%llu, aggrin_queue=%llu, ",
				(unsigned long long)a.ios[0], (unsigned long long)a.ios[1],
				(unsigned long long)a.merges[0], (unsigned long long)a.merges[1],
				(unsigned long long)a.ticks[0], (unsigned long long)a.ticks[1],
				(unsigned long long)a.in_queue);
			print_util(f, "aggrutil", &a);
		}
		fputc('\n', f);
	}
}

/* An MPI run's host: its ranks' units and groups, after the aggregate above them. */
static void print_host(FILE *f, const struct report *h)
{
	struct report_ctx c;

	if (report_ctx_init(&c, h))
		return;
	fprintf(f, "\nHost %s (ranks %s):\n", h->hostname, h->rank_list);
	for (unsigned i = 0; i < h->nunits; i++)
		print_unit(f, &c, &c.views[i]);
	for (unsigned i = 0; i < c.ngroups; i++)
		print_group(f, &c.groups[i]);
	report_ctx_free(&c);
}

REPORT_RENDERER(report_render_normal);
REPORT_RENDERER(report_render_normal)
{
	(void)set;
	report_normal(f, r);
}

void report_normal(FILE *f, const struct report *r)
{
	struct report_ctx c;
	unsigned i;

	if (report_ctx_init(&c, r))
		return;
	/* fio opens its report with an empty line */
	fputc('\n', f);
	if (r->interrupted_by)
		fprintf(f, "Interrupted by %s: the figures below cover the I/O done until then\n\n",
			report_signal_name(r->interrupted_by));
	for (i = 0; i < r->nunits; i++)
		print_unit(f, &c, &c.views[i]);
	if (r->ngroups)
		print_all_groups(f, &c, r->ngroups);
	else
		for (i = 0; i < c.ngroups; i++)
			print_group(f, &c.groups[i]);
	if (r->disks && r->disks->n)
		print_disks(f, r->disks);
	if (r->idle)
		report_idle_text(f, r->idle);
	report_ctx_free(&c);
	for (i = 0; i < r->nhosts; i++)
		print_host(f, &r->hosts[i]);
}
