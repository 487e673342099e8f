/*
 * Recording what the event loop observed into a job's statistics: latencies, byte and
 * I/O counts, bw/iops windows. Inline, because it runs for every I/O (or every group of
 * I/Os that share their timestamps) and is private to engine/loop/loop.c.
 */
#ifndef ENGINE_LOOP_ACCOUNT_H
#define ENGINE_LOOP_ACCOUNT_H

#include "base/units.h"
#include "engine/loop/lat_target.h"
#include "engine/worker.h"

static inline void account_slat(struct worker *w, uint64_t t_create, uint64_t t_submit,
				unsigned n, int dir)
{
	struct dir_stats *ds = &w->st->dir[dir];
	uint64_t ns = clock_to_ns(w->clk, t_submit - t_create);

	moments_add(&ds->slat, ns, n);
	if (w->job->slat_percentiles)
		hist_add(&ds->slat_hist, ns, n);
}

static inline void account_sync(struct worker *w, const struct io_req *r, uint64_t now)
{
	uint64_t ns = clock_to_ns(w->clk, now - r->t_submit);

	if (w->ending)
		return;		/* end_fsync: not in fio's sync statistics */
	moments_add(&w->st->sync_lat, ns, 1);
	hist_add(&w->st->sync_hist, ns, 1);
}

_Static_assert(JOB_MAX_LAT_OVER == STATS_LAT_OVER_NR, "lat_over limits and counters");

/* max_latency: an I/O slower than the limit fails the job with ETIMEDOUT, as in fio. */
void account_too_slow(struct worker *w, const struct io_req *r, uint64_t lat);

/*
 * The rare path, taken by an I/O whose latency reaches w->rare_min: lat_over='s limits
 * and just above max_latency's and latency_target's (the lowest is rare_min), and with
 * cmdprio every I/O (rare_min 0), whose clat or lat also counts under its priority. lat is
 * clat where there is no submission stamp.
 */
static __attribute__((noinline, cold)) void
account_rare(struct worker *w, const struct io_req *r, struct dir_stats *ds, uint64_t clat,
	     uint64_t lat, unsigned n)
{
	uint64_t max = w->job->max_latency_ns[r->dir];

	if (max && lat > max && w->job->stats && !w->job->disable_lat)
		account_too_slow(w, r, lat);
	if (w->lat)
		lat_target_slow(w, r, lat, n);
	if (ds->nprio) {
		struct prio_stats *p = &ds->prio[r->prio_idx];
		uint64_t v = ds->prio_lat ? lat : clat;

		moments_add(&p->lat, v, n);
		hist_add(&p->hist, v, n);
	}
	for (unsigned k = 0; k < w->job->nlat_over && lat >= w->job->lat_over_ns[k]; k++)
		ds->lat_over[k] += n;
}

/*
 * n completed I/Os of r's direction that share r's creation and submission stamps and
 * were reaped at now (one I/O, or a batch from one submit call), bytes in all. with_lat:
 * creation and submission differ (asynchronous engines); else lat is clat, set at the end.
 */
static inline __attribute__((always_inline)) void
account_n(struct worker *w, const struct io_req *r, uint64_t now, unsigned n, uint64_t bytes,
	  bool with_lat)
{
	struct dir_stats *ds = &w->st->dir[r->dir];
	uint64_t clat = clock_to_ns(w->clk, now - r->t_submit);

	ds->ios += n;
	ds->bytes += bytes;
	if (clat < HIST_EXACT) {
		/* its bucket holds it exactly: moments and lat bucket follow from it at the end */
		ds->clat_hist.count[clat] += n;
	} else {
		unsigned idx = hist_index(clat);

		ds->clat_hist.count[idx] += n;
		w->st->lat_buckets[stats_lat_bucket_of(w->latmap, idx, clat)] += n;
		if (n == 1)
			moments_add1(&ds->clat, clat);
		else
			moments_add(&ds->clat, clat, n);
	}
	if (with_lat) {
		uint64_t lat = clock_to_ns(w->clk, now - r->t_create);

		moments_add(&ds->lat, lat, n);
		if (w->job->lat_percentiles)
			hist_add(&ds->lat_hist, lat, n);
		if (w->logs)
			logs_io(w, r, now, clat, lat);
		if (__builtin_expect(lat >= w->rare_min, 0))
			account_rare(w, r, ds, clat, lat, n);
	} else {
		if (w->logs)
			logs_io(w, r, now, clat, clat);
		if (__builtin_expect(clat >= w->rare_min, 0))
			account_rare(w, r, ds, clat, clat, n);
	}
}

/* Close a bw (bytes) or iops (I/Os) window: per direction, a sample in units per second. */
static inline void account_window(struct worker *w, bool bw, uint64_t *start, uint64_t *next,
				  uint64_t ticks, uint64_t *at_start)
{
	uint64_t ns = clock_to_ns(w->clk, w->now - *start);

	for (int d = 0; ns && d < IO_NDIR; d++) {
		struct dir_stats *ds = &w->st->dir[d];
		uint64_t count = bw ? ds->bytes : ds->ios;
		/* 128 bits: a null job moves 10^10 bytes in a window, times 10^9 ns. */
		uint64_t per_s = (uint64_t)((unsigned __int128)(count - at_start[d]) *
					    NS_PER_SEC / ns);

		/* Like fio, a window in which a direction did nothing gives no sample. */
		if (!rw_does(w->job->rw, d) || count == at_start[d])
			continue;
		moments_add(bw ? &ds->bw : &ds->iops, bw ? per_s / 1024 : per_s, 1);
		at_start[d] = count;
	}
	*start = w->now;
	*next = w->now + ticks;
}

#endif
