/*
 * The JSON report in fio's schema and key order (--output-format=json), plus the
 * histogram "bins" of json+.
 */
#include "output/report.h"

#include <stdint.h>
#include <string.h>

#include "output/diskstats.h"
#include "output/json_writer.h"
#include "output/report_formats.h"
#include "output/report_util.h"
#include "output/stats.h"
#include "base/units.h"

#define FIO_HIST_BUCKETS	1856	/* fio's FIO_IO_U_PLAT_NR */

/*
 * json+ "bins": each non-empty bucket's value in ns and its count. fio's histogram ends at
 * its bucket 1855 (17112760320 ns), where it counts every longer latency too, and its
 * tools know no larger bin (fio_jsonplus_clat2csv loops forever on one), so ours, which go
 * on, are folded into that bucket here as fio would have counted them.
 */
static void json_bin(struct json_out *j, unsigned i, uint64_t n)
{
	char name[32];

	snprintf(name, sizeof(name), "%llu", (unsigned long long)hist_bucket_value(i));
	json_uint(j, name, n);
}

static void json_bins(struct json_out *j, const struct hist *h)
{
	struct hist_spans s;
	uint64_t last = 0;	/* fio's last bucket and all ours above it */

	hist_spans(h, &s);
	json_open(j, "bins", '{');
	for (unsigned k = 0; k < s.n; k++) {
		for (unsigned i = s.lo[k]; i < s.hi[k]; i++) {
			if (i >= FIO_HIST_BUCKETS - 1)
				last += h->count[i];
			else if (h->count[i])
				json_bin(j, i, h->count[i]);
		}
	}
	if (last)
		json_bin(j, FIO_HIST_BUCKETS - 1, last);
	json_close(j, '}');
}

/* min, max, mean, stddev, N, then the percentiles and json+ bins when asked for. */
static void json_lat(struct json_out *j, const char *key, const struct moments *m,
		     const struct hist *h, const struct report_unit *u, bool pct_on, bool plus)
{
	double pct[RU_PCT_MAX];
	uint64_t val[RU_PCT_MAX];
	char name[32];
	unsigned n, i;

	json_open(j, key, '{');
	json_uint(j, "min", m->n ? m->min : 0);
	json_uint(j, "max", m->max);
	json_float(j, "mean", moments_mean(m));
	json_float(j, "stddev", moments_stddev(m));
	json_uint(j, "N", m->n);
	if (pct_on && hist_total(h)) {
		n = pct_list(u, pct);
		pct_values(h, m, pct, n, val);
		json_open(j, "percentile", '{');
		for (i = 0; i < n; i++) {
			snprintf(name, sizeof(name), "%f", pct[i]);
			json_uint(j, name, val[i]);
		}
		json_close(j, '}');
		if (plus)
			json_bins(j, h);
	}
	json_close(j, '}');
}

/*
 * fio's "prios": with cmdprio, once two priorities or more saw I/O, each one's class,
 * level and latencies (lat_ns with lat_percentiles, else clat_ns). fio 3.33 has no hints;
 * a hint is shown, as later fio shows it, only where one was given.
 */
static void json_prios(struct json_out *j, const struct report_unit *u,
		       const struct dir_stats *d, bool plus)
{
	if (dir_prios_shown(d) < 2)
		return;
	json_open(j, "prios", '[');
	for (unsigned i = 0; i < d->nprio; i++) {
		const struct prio_stats *p = &d->prio[i];

		if (!p->lat.n)
			continue;
		json_open(j, NULL, '{');
		json_uint(j, "prioclass", p->ioprio >> 13);
		json_uint(j, "prio", p->ioprio & 7);
		if ((p->ioprio >> 3) & 1023)
			json_uint(j, "priohint", (p->ioprio >> 3) & 1023);
		json_lat(j, d->prio_lat ? "lat_ns" : "clat_ns", &p->lat, &p->hist, u,
			 u->clat_percentiles || u->lat_percentiles, plus);
		json_close(j, '}');
	}
	json_close(j, ']');
}

/* bw_* or iops_* sample keys; bw also carries its share of the group ("bw_agg"). */
static void json_samples(struct json_out *j, const struct dir_stats *d, uint64_t agg_bw)
{
	struct sample_sum s;

	stats_samples(&d->bw, &d->bw_sum, &s);
	json_uint(j, "bw_min", s.min);
	json_uint(j, "bw_max", s.max);
	json_float(j, "bw_agg", s.n ? bw_share(s.mean, agg_bw) : 0.0);
	json_float(j, "bw_mean", s.mean);
	json_float(j, "bw_dev", stats_samples_stddev(&s));
	json_uint(j, "bw_samples", s.n);
	stats_samples(&d->iops, &d->iops_sum, &s);
	json_uint(j, "iops_min", s.min);
	json_uint(j, "iops_max", s.max);
	json_float(j, "iops_mean", s.mean);
	json_float(j, "iops_stddev", stats_samples_stddev(&s));
	json_uint(j, "iops_samples", s.n);
}

static void json_dir(struct json_out *j, const struct report_unit *u, const struct shown_dir *s,
		     const struct group_run *g, bool plus)
{
	const struct dir_stats *d = s->d;
	uint64_t ms = dir_runtime_ms(d), bw = dir_bw(d);

	json_open(j, s->name, '{');
	json_uint(j, "io_bytes", d->bytes);
	json_uint(j, "io_kbytes", d->bytes >> 10);
	json_uint(j, "bw_bytes", bw);
	json_uint(j, "bw", bw / 1024);
	json_float(j, "iops", dir_iops_exact(s));
	json_uint(j, "runtime", ms);
	json_uint(j, "total_ios", s->issued);
	json_uint(j, "short_ios", d->short_ios);
	json_uint(j, "drop_ios", d->drop_ios);
	json_lat(j, "slat_ns", &d->slat, &d->slat_hist, u, u->slat_percentiles, plus);
	json_lat(j, "clat_ns", &d->clat, &d->clat_hist, u, u->clat_percentiles, plus);
	json_lat(j, "lat_ns", &d->lat, &d->lat_hist, u, u->lat_percentiles, plus);
	json_prios(j, u, d, plus);
	json_samples(j, d, g ? g->dir[s->slot].agg_bw : 0);
	json_close(j, '}');
}

static void json_dist(struct json_out *j, const char *key, const char *const *label,
		      const uint64_t *v, unsigned n, uint64_t total, double floor)
{
	unsigned i;

	json_open(j, key, '{');
	for (i = 0; i < n; i++)
		json_float(j, label[i], dist_pct(v[i], total, floor));
	json_close(j, '}');
}

/* iodepth_level, iodepth_submit, iodepth_complete and the latency_ns/us/ms buckets. */
static void json_dists(struct json_out *j, const struct job_stats *st)
{
	uint64_t issued = sum_counts(st->issued, STATS_NDIR);

	json_dist(j, "iodepth_level", depth_bucket_label, st->depth, STATS_DEPTH_NR, issued, 0.1);
	json_dist(j, "iodepth_submit", batch_bucket_label, st->submit, STATS_BATCH_NR,
		  sum_counts(st->submit, STATS_BATCH_NR), 0.1);
	json_dist(j, "iodepth_complete", batch_bucket_label, st->complete, STATS_BATCH_NR,
		  sum_counts(st->complete, STATS_BATCH_NR), 0.1);
	json_dist(j, "latency_ns", lat_bucket_label, st->lat_buckets, 10, issued, 0.01);
	json_dist(j, "latency_us", lat_bucket_label + 10, st->lat_buckets + 10, 10, issued, 0.01);
	json_dist(j, "latency_ms", lat_bucket_label + 20, st->lat_buckets + 20, 12, issued, 0.01);
}

/* fio's "elapsed": whole seconds the job ran, counted from 1. */
static uint64_t elapsed_s(const struct job_stats *st)
{
	uint64_t ns = 0;
	unsigned i;

	for (i = 0; i < STATS_NDIR; i++)
		if (st->dir[i].runtime_ns > ns)
			ns = st->dir[i].runtime_ns;
	if (!ns)
		ns = st->runtime_ns;
	return ns / NS_PER_SEC + 1;
}

/*
 * iojob's additions, kept in one object so that fio's readers never meet them elsewhere:
 * the unit's runtime in ns (fio's ms is too coarse for short passes), its pass, the
 * lat_over= counts over every direction, and the process's CPU during its phase.
 */
static void json_iojob(struct json_out *j, const struct report_unit *u,
		       const struct job_stats *st)
{
	uint64_t runtime = 0;
	char key[32];

	for (unsigned d = 0; d < STATS_NDIR; d++)
		if (st->dir[d].runtime_ns > runtime)
			runtime = st->dir[d].runtime_ns;
	json_open(j, "iojob", '{');
	json_uint(j, "runtime_ns", runtime ? runtime : st->runtime_ns);
	if (u->nran) {
		json_open(j, "options", '{');
		for (unsigned k = 0; k < u->nran; k++)
			json_str(j, u->ran_names[k], u->ran_values[k]);
		json_close(j, '}');
	}
	if (u->passes > 1) {
		json_uint(j, "pass", u->pass);
		json_uint(j, "passes", u->passes);
	}
	if (u->nlat_over) {
		json_open(j, "lat_over", '{');
		for (unsigned k = 0; k < u->nlat_over; k++) {
			report_time_key(u->lat_over_ns[k], key, sizeof(key));
			json_uint(j, key, lat_over_count(st, k));
		}
		json_close(j, '}');
	}
	json_open(j, "proc_cpu", '{');
	json_uint(j, "usr_ns", u->phase_usr_ns);
	json_uint(j, "sys_ns", u->phase_sys_ns);
	json_uint(j, "wall_ns", u->phase_wall_ns);
	json_close(j, '}');
	json_close(j, '}');
}

/* block_error_percentiles: fio's "block" object, when a block was touched. */
static void json_blocks(struct json_out *j, const struct report_unit *u)
{
	double pct[RU_PCT_MAX];
	uint32_t trims[RU_PCT_MAX];
	unsigned states[BLOCK_NSTATES], n = block_lifetimes(u, pct, trims, states);
	char key[32];

	if (!n)
		return;
	json_open(j, "block", '{');
	json_open(j, "percentiles", '{');
	for (unsigned i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "%f", pct[i]);
		json_uint(j, key, trims[i]);
	}
	json_close(j, '}');
	json_open(j, "states", '{');
	for (unsigned i = 0; i < BLOCK_NSTATES; i++)
		json_uint(j, block_state_name[i], states[i]);
	json_close(j, '}');
	json_close(j, '}');
}

/*
 * steadystate's window, keys, order and number forms as fio 3.33 writes them; with fio
 * HEAD's lat criteria, its lat_mean and lat_ns too. Each array holds a sample per
 * steadystate_check_interval.
 */
static void json_ss(struct json_out *j, const struct report_ss *ss)
{
	uint64_t bw_sum = 0, iops_sum = 0, lat_sum = 0;
	unsigned n = ss->samples;
	char text[64];

	/* fio prints the limit and the criterion as floats, not doubles: their digits too */
	snprintf(text, sizeof(text), "%s%s:%f%s", report_ss_measure(ss),
		 ss->by_slope ? "_slope" : "", (double)(float)ss->limit, ss->pct ? "%" : "");
	json_open(j, "steadystate", '{');
	json_str(j, "ss", text);
	json_int(j, "duration", ss->duration);
	json_int(j, "attained", ss->attained);
	snprintf(text, sizeof(text), "%f%s", (double)(float)ss->criterion, ss->pct ? "%" : "");
	json_str(j, "criterion", text);
	json_float(j, "max_deviation", ss->max_deviation);
	json_float(j, "slope", ss->slope);
	json_open(j, "data", '{');
	for (unsigned i = 0; i < n; i++) {
		bw_sum += ss->bw[i];
		iops_sum += ss->iops[i];
		lat_sum += ss->lat[i];
	}
	json_uint(j, "bw_mean", n ? bw_sum / n : 0);
	json_uint(j, "iops_mean", n ? iops_sum / n : 0);
	if (ss->of_lat) {
		json_uint(j, "lat_mean", n ? lat_sum / n : 0);
		json_open(j, "lat_ns", '[');
		for (unsigned i = 0; i < n; i++)
			json_uint(j, NULL, ss->lat[i]);
		json_close(j, ']');
	}
	json_open(j, "iops", '[');
	for (unsigned i = 0; i < n; i++)
		json_uint(j, NULL, ss->iops[i]);
	json_close(j, ']');
	json_open(j, "bw", '[');
	for (unsigned i = 0; i < n; i++)
		json_uint(j, NULL, ss->bw[i]);
	json_close(j, ']');
	json_close(j, '}');
	json_close(j, '}');
}

/*
 * One unit. In fio's client_stats a unit also names its host (and port, 0 here: MPI has
 * none), and the aggregate over hosts is named "All clients".
 */
static void json_unit(struct json_out *j, const struct report_ctx *c, const struct unit_view *v,
		      bool plus, const char *host)
{
	const struct report_unit *u = v->u;
	const struct job_stats *st = v->st;
	const struct group_run *g = report_group(c, u->groupid);
	double rt = (double)st->runtime_ns;
	unsigned i;

	json_open(j, NULL, '{');
	json_str(j, "jobname", host && !*host ? "All clients" : u->name);
	json_int(j, "groupid", u->groupid);
	if (u->has_job_start)
		json_uint(j, "job_start", u->job_start_ms);
	json_int(j, "error", u->error);
	json_int(j, "eta", 0);
	json_uint(j, "elapsed", elapsed_s(st));
	if (host && *host) {
		json_str(j, "hostname", host);
		json_uint(j, "port", 0);
	}
	json_open(j, "job options", '{');
	for (i = 0; i < u->nopts; i++)
		json_str(j, u->opt_names[i], u->opt_values[i]);
	json_close(j, '}');
	/* With unified=mixed fio writes "mixed" alone, without read/write/trim and sync. */
	for (i = 0; i < v->ndirs; i++) {
		json_dir(j, u, &v->dirs[i], g, plus);
		if (v->dirs[i].slot != STATS_NDIR - 1)
			continue;
		json_open(j, "sync", '{');
		json_uint(j, "total_ios", st->fsync_ios);
		json_lat(j, "lat_ns", &st->sync_lat, &st->sync_hist, u,
			 u->clat_percentiles || u->lat_percentiles, plus);
		json_close(j, '}');
	}
	json_uint(j, "job_runtime", st->runtime_ns / NS_PER_MSEC);
	json_float(j, "usr_cpu", rt > 0 ? 100.0 * (double)st->usr_ns / rt : 0.0);
	json_float(j, "sys_cpu", rt > 0 ? 100.0 * (double)st->sys_ns / rt : 0.0);
	json_uint(j, "ctx", st->ctx);
	json_uint(j, "majf", st->majf);
	json_uint(j, "minf", st->minf);
	json_dists(j, st);
	if (u->continue_on_error) {
		json_uint(j, "total_err", st->total_err);
		json_int(j, "first_error", st->first_error);
	}
	if (u->depth) {
		json_uint(j, "latency_depth", u->depth);
		json_uint(j, "latency_target", u->lat_target_ns);
		json_float(j, "latency_percentile", u->lat_percentile);
		json_uint(j, "latency_window", u->lat_window_ns / NS_PER_USEC);
	}
	if (u->desc)
		json_str(j, "desc", u->desc);
	if (u->block_info)
		json_blocks(j, u);
	if (u->ss)
		json_ss(j, u->ss);
	if (u->zone_resets_on)	/* fio HEAD's, for zbd jobs that write or trim */
		json_uint(j, "zone_resets", u->st->zone_resets);
	json_iojob(j, u, st);
	json_close(j, '}');
}

/* --idle-prof: fio's "cpu_idleness", each CPU as "cpu-N" with percpu */
static void json_idle(struct json_out *j, const struct report_idle *idle)
{
	char key[32];

	json_open(j, "cpu_idleness", '{');
	json_float(j, "system", idle->system_pct);
	for (unsigned i = 0; idle->mode == REPORT_IDLE_PERCPU && i < idle->ncpus; i++) {
		snprintf(key, sizeof(key), "cpu-%u", i);
		json_float(j, key, idle->cpu_pct[i]);
	}
	json_float(j, "unit_mean", idle->unit_mean_us);
	json_float(j, "unit_stddev", idle->unit_stddev_us);
	json_close(j, '}');
}

static void json_disks(struct json_out *j, const struct disk_set *s)
{
	struct disk_view d, a;
	unsigned i;

	json_open(j, "disk_util", '[');
	for (i = 0; i < s->n; i++) {
		disk_delta(s, i, &d);
		json_open(j, NULL, '{');
		json_str(j, "name", s->disks[i].name);
		json_uint(j, "read_ios", d.ios[0]);
		json_uint(j, "write_ios", d.ios[1]);
		json_uint(j, "read_merges", d.merges[0]);
		json_uint(j, "write_merges", d.merges[1]);
		json_uint(j, "read_ticks", d.ticks[0]);
		json_uint(j, "write_ticks", d.ticks[1]);
		json_uint(j, "in_queue", d.in_queue);
		json_float(j, "util", d.util);	/* 0 when unknown: the field stays a number */
		if (disk_aggr(s, i, &a)) {
			json_uint(j, "aggr_read_ios", a.ios[0]);
			json_uint(j, "aggr_write_ios", a.ios[1]);
			json_uint(j, "aggr_read_merges", a.merges[0]);
			json_uint(j, "aggr_write_merge", a.merges[1]);	/* fio's spelling */
			json_uint(j, "aggr_read_ticks", a.ticks[0]);
			json_uint(j, "aggr_write_ticks", a.ticks[1]);
			json_uint(j, "aggr_in_queue", a.in_queue);
			json_float(j, "aggr_util", a.util);
		}
		json_close(j, '}');
	}
	json_close(j, ']');
}

static void json_ranks(struct json_out *j, const struct report *r)
{
	json_open(j, "iojob_ranks", '[');
	for (unsigned i = 0; i < r->nranks; i++) {
		const struct report_rank *k = &r->ranks[i];

		json_open(j, NULL, '{');
		json_int(j, "rank", k->rank);
		json_str(j, "hostname", k->host);
		json_uint(j, "start_ns", k->start_real_ns);
		json_uint(j, "barrier_ns", k->barrier_ns);
		json_open(j, "issued_ios", '[');
		for (unsigned d = 0; d < STATS_NDIR; d++)
			json_uint(j, NULL, k->issued[d]);
		json_close(j, ']');
		json_int(j, "error", k->error);
		json_close(j, '}');
	}
	json_close(j, ']');
}

/*
 * An MPI run: fio's client_stats (each host's units, then the aggregate as "All clients",
 * the layout fio's client mode writes and fio-plot reads) and each rank's start.
 */
static void json_clients(struct json_out *j, const struct report *r, struct report_ctx *agg,
			 bool plus)
{
	json_open(j, "client_stats", '[');
	for (unsigned h = 0; h < r->nhosts; h++) {
		struct report_ctx c;

		if (report_ctx_init(&c, &r->hosts[h]))
			continue;
		for (unsigned i = 0; i < r->hosts[h].nunits; i++)
			json_unit(j, &c, &c.views[i], plus, r->hosts[h].hostname);
		report_ctx_free(&c);
	}
	for (unsigned i = 0; i < r->nunits; i++)
		json_unit(j, agg, &agg->views[i], plus, "");
	json_close(j, ']');
	json_ranks(j, r);
}

static void write_report(FILE *f, const struct report *r, bool plus, bool compact)
{
	struct report_ctx c;
	struct json_out j;
	char when[64];
	unsigned i;

	if (report_ctx_init(&c, r))
		return;
	report_ctime(r->time, when, sizeof(when));
	if (compact)
		json_begin_compact(&j, f);
	else
		json_begin(&j, f);
	json_str(&j, "fio version", r->version);
	json_uint(&j, "timestamp", (uint64_t)r->time);
	json_uint(&j, "timestamp_ms", r->time_ms);
	json_str(&j, "time", when);
	if (r->nglobal) {
		json_open(&j, "global options", '{');
		for (i = 0; i < r->nglobal; i++)
			json_str(&j, r->global_names[i], r->global_values[i]);
		json_close(&j, '}');
	}
	json_open(&j, "jobs", '[');
	for (i = 0; i < r->nunits; i++)
		json_unit(&j, &c, &c.views[i], plus, NULL);
	json_close(&j, ']');
	if (r->nhosts)
		json_clients(&j, r, &c, plus);
	if (r->disks && r->disks->n)
		json_disks(&j, r->disks);
	if (r->idle && r->idle->mode >= REPORT_IDLE_SYSTEM)
		json_idle(&j, r->idle);
	/* iojob's own: whether the figures cover the whole run or what a signal left */
	json_open(&j, "iojob", '{');
	json_str(&j, "interrupted_by", r->interrupted_by ?
		 report_signal_name(r->interrupted_by) : "");
	json_close(&j, '}');
	json_end(&j);
	report_ctx_free(&c);
}

void report_json(FILE *f, const struct report *r, bool plus)
{
	write_report(f, r, plus, false);
}

void report_json_line(FILE *f, const struct report *r, bool plus)
{
	write_report(f, r, plus, true);
}

REPORT_RENDERER(report_render_json);
REPORT_RENDERER(report_render_json)
{
	report_json(f, r, set & RF_JSON_PLUS);	/* json and json+ together: one document */
}
