/* A job's log files: entries per I/O or per window while it runs, files afterwards. */
#include "engine/logs.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/logs_gz.h"
#include "engine/worker.h"
#include "output/stream.h"
#include "base/diag.h"
#include "base/units.h"

/* The sample logs a job writes, NULL-ended; n set to how many. */
static unsigned sample_logs(struct job_logs *l, struct joblog **out)
{
	unsigned n = 0;

	if (l->lat) {
		out[n++] = &l->clat_log;
		out[n++] = &l->slat_log;
		out[n++] = &l->lat_log;
	}
	if (l->bw)
		out[n++] = &l->bw_log;
	if (l->iops)
		out[n++] = &l->iops_log;
	return n;
}

/*
 * Chunks of log_entries, then doubling; with log_compression, none over that many bytes of
 * fio's samples, so that a chunk is compressed once it holds them.
 */
static void size_logs(struct job_logs *l, const struct job_desc *j)
{
	struct joblog *logs[LOGS_GZ_MAX];
	unsigned n = sample_logs(l, logs), max_cap = 0;
	size_t sample = j->log_offset ? JOBLOG_SAMPLE_OFFSET_BYTES : JOBLOG_SAMPLE_BYTES;

	if (j->log_compression)
		max_cap = j->log_compression / sample ? (unsigned)(j->log_compression / sample) : 1;
	for (unsigned i = 0; i < n; i++)
		joblog_init(logs[i], j->log_entries, max_cap);
}

/* log_entries' point: the first chunk of each log exists before the first I/O. */
static bool prealloc(struct job_logs *l)
{
	struct joblog *logs[LOGS_GZ_MAX];
	unsigned n = sample_logs(l, logs);

	for (unsigned i = 0; i < n; i++)
		if (!logs[i]->first && !joblog_grow(logs[i]))
			return false;
	return true;
}

struct job_logs *logs_create(const struct job_desc *j, int *err)
{
	struct job_logs *l;

	*err = 0;
	if (!j->lat_log && !j->bw_log && !j->iops_log && !j->hist_log)
		return NULL;
	l = calloc(1, sizeof(*l));
	if (!l)
		goto nomem;
	l->lat = j->lat_log;
	l->bw = j->bw_log;
	l->iops = j->iops_log;
	l->averaged = j->log_avg_ns > 0;
	l->window_max = j->log_max_value;
	l->form = (j->log_offset ? JOBLOG_OFFSET : 0) | (j->log_prio ? JOBLOG_PRIO : 0);
	l->ioprio = (uint16_t)job_ioprio(j);
	size_logs(l, j);
	if (!prealloc(l))
		goto nomem;
	l->hist.coarseness = j->log_hist_coarseness;
	if (!j->stats) {
		/* stats=0: as fio, its log files are written, and empty */
		l->lat = l->bw = l->iops = l->averaged = false;
		return l;
	}
	if (j->hist_log) {
		l->hist_before = calloc(IO_NDIR, sizeof(*l->hist_before));
		if (!l->hist_before)
			goto nomem;
	}
	return l;

nomem:
	logs_free(l);
	*err = -ENOMEM;
	return NULL;
}

/* Drop every entry logged so far; the logs stay ready for more. */
static void drop_entries(struct job_logs *l)
{
	joblog_free(&l->clat_log);
	joblog_free(&l->slat_log);
	joblog_free(&l->lat_log);
	joblog_free(&l->bw_log);
	joblog_free(&l->iops_log);
	histlog_free(&l->hist);
}

/* Stop log_compression's thread, with every chunk compressed. */
static void stop_gz(struct job_logs *l)
{
	int ret = logs_gz_stop(l->gz);

	l->gz = NULL;
	if (ret < 0 && !l->gz_err)
		l->gz_err = ret;
}

/* Start log_compression's thread for a job's logs. */
static int start_gz(struct job_logs *l, const struct job_desc *j)
{
	struct joblog *logs[LOGS_GZ_MAX];
	unsigned n = sample_logs(l, logs);

	if (!j->log_compression || !n)
		return 0;
	return logs_gz_start(&l->gz, logs, n, l->form, &j->log_compression_cpus);
}

void logs_free(struct job_logs *l)
{
	if (!l)
		return;
	stop_gz(l);
	drop_entries(l);
	free(l->hist_before);
	free(l);
}

static void reset_max(struct job_logs *l)
{
	memset(l->max_clat, 0, sizeof(l->max_clat));
	memset(l->max_slat, 0, sizeof(l->max_slat));
	memset(l->max_lat, 0, sizeof(l->max_lat));
}

static uint64_t to_ms(const struct worker *w, uint64_t ticks)
{
	return (clock_to_ns(w->clk, ticks - w->pace.t_start) + w->logs->epoch_ns) / NS_PER_MSEC;
}

void logs_start(struct worker *w)
{
	struct job_logs *l = w->logs;
	struct timespec ts;

	/* What ramp_time logged does not belong to the measured run. */
	stop_gz(l);
	drop_entries(l);
	l->gz_err = 0;
	if (!prealloc(l))
		l->gz_err = -ENOMEM;
	if (start_gz(l, w->job) < 0)
		l->gz_err = -ENOMEM;
	if (l->hist_before)
		memset(l->hist_before, 0, IO_NDIR * sizeof(*l->hist_before));
	memset(l->win_n, 0, sizeof(l->win_n));
	memset(l->win_bytes, 0, sizeof(l->win_bytes));
	memset(l->win_clat, 0, sizeof(l->win_clat));
	memset(l->win_slat, 0, sizeof(l->win_slat));
	memset(l->win_lat, 0, sizeof(l->win_lat));
	reset_max(l);
	/*
	 * As fio: both count from the epoch of the clock log_alternate_epoch_clock_id names.
	 * The epoch is taken at the job's start (pace.t_start), to the nanosecond, so that
	 * the jobs' logs agree with each other to well under a millisecond: w->now may be
	 * stale by a preemption, and two truncations to ms would add up to 2 ms of skew.
	 */
	l->epoch_ns = 0;
	if ((w->job->log_unix_epoch || w->job->log_alternate_epoch) &&
	    clock_gettime((clockid_t)w->job->log_epoch_clock, &ts) == 0) {
		uint64_t now = clock_ticks(w->clk);

		l->epoch_ns = (uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec;
		if (now > w->pace.t_start)
			l->epoch_ns -= clock_to_ns(w->clk, now - w->pace.t_start);
	}
	l->epoch_ms = l->epoch_ns / NS_PER_MSEC;
	l->avg_ticks = clock_from_ns(w->clk, w->job->log_avg_ns);
	l->hist_ticks = clock_from_ns(w->clk, w->job->log_hist_ns);
	l->t_win_start = w->now;
	l->avg_windows = l->hist_windows = 0;
	l->t_next_avg = l->averaged ? w->now + l->avg_ticks : UINT64_MAX;
	l->t_next_hist = l->hist_before ? w->now + l->hist_ticks : UINT64_MAX;
}

void logs_io(struct worker *w, const struct io_req *r, uint64_t now, uint64_t clat_ns,
	     uint64_t lat_ns)
{
	struct job_logs *l = w->logs;
	uint64_t slat_ns = w->sync_path ? 0 : clock_to_ns(w->clk, r->t_submit - r->t_create);
	/* A short transfer moved off along; the log names where the I/O began. */
	uint64_t off = r->off - (r->full_len - r->len), ms;
	/* cmdprio's pick where it chose, else the job's own (prioclass, prio) */
	uint16_t prio = w->eng.cmdprio ? r->ioprio : l->ioprio;
	int d = r->dir;

	if (l->averaged) {
		l->win_n[d]++;
		l->win_bytes[d] += r->full_len;
		l->win_clat[d] += clat_ns;
		l->win_slat[d] += slat_ns;
		l->win_lat[d] += lat_ns;
		if (l->window_max) {
			l->max_clat[d] = clat_ns > l->max_clat[d] ? clat_ns : l->max_clat[d];
			l->max_slat[d] = slat_ns > l->max_slat[d] ? slat_ns : l->max_slat[d];
			l->max_lat[d] = lat_ns > l->max_lat[d] ? lat_ns : l->max_lat[d];
		}
		return;
	}
	ms = to_ms(w, now);
	if (l->lat) {
		joblog_add(&l->clat_log, ms, clat_ns, d, r->full_len, off, prio);
		if (!w->sync_path)
			joblog_add(&l->slat_log, ms, slat_ns, d, r->full_len, off, prio);
		joblog_add(&l->lat_log, ms, lat_ns, d, r->full_len, off, prio);
	}
	/*
	 * fio's per-I/O bandwidth entry: the I/O's bytes over its clat, in bytes per ms. With
	 * the sample window at 0 (log_avg_msec=0), each entry is a bw or iops sample too.
	 */
	/* disable_bw_measurement: fio 3.33 drops these entries alone, not the windows' */
	if (l->bw && !w->job->disable_bw) {
		uint64_t bw = clat_ns ? r->full_len * NS_PER_MSEC / clat_ns : 0;

		joblog_add(&l->bw_log, ms, bw, d, r->full_len, off, prio);
		if (!w->pace.bw_ticks)
			moments_add(&w->st->dir[d].bw, bw, 1);
	}
	if (l->iops) {
		joblog_add(&l->iops_log, ms, 1, d, r->full_len, off, prio);
		if (!w->pace.iops_ticks)
			moments_add(&w->st->dir[d].iops, 1, 1);
	}
}

/*
 * One log_avg_msec window ended at end (ticks), stamped ms: an averaged entry per busy
 * direction.
 */
static void close_window(struct worker *w, uint64_t end, uint64_t ms)
{
	struct job_logs *l = w->logs;
	uint64_t ns = clock_to_ns(w->clk, end - l->t_win_start);

	for (int d = 0; ns && d < IO_NDIR; d++) {
		uint64_t n = l->win_n[d];

		if (!n)
			continue;
		/* a window's entry has no size, offset or priority of its own: 0, as fio's */
		if (l->lat) {
			joblog_add(&l->clat_log, ms, l->window_max ? l->max_clat[d] :
				   l->win_clat[d] / n, d, 0, 0, 0);
			if (!w->sync_path)
				joblog_add(&l->slat_log, ms, l->window_max ? l->max_slat[d] :
					   l->win_slat[d] / n, d, 0, 0, 0);
			joblog_add(&l->lat_log, ms, l->window_max ? l->max_lat[d] :
				   l->win_lat[d] / n, d, 0, 0, 0);
		}
		/* bw and iops are one sample per window: its largest is its mean */
		if (l->bw)
			joblog_add(&l->bw_log, ms, (uint64_t)((stats_u128)l->win_bytes[d] *
				   NS_PER_SEC / ns / 1024), d, 0, 0, 0);
		if (l->iops)
			joblog_add(&l->iops_log, ms, n * NS_PER_SEC / ns, d, 0, 0, 0);
		l->win_n[d] = l->win_bytes[d] = 0;
		l->win_clat[d] = l->win_slat[d] = l->win_lat[d] = 0;
		l->max_clat[d] = l->max_slat[d] = l->max_lat[d] = 0;
	}
	l->t_win_start = end;
}

/* A histogram entry per direction that completed I/O since the last one, stamped ms. */
static void add_hist(struct worker *w, uint64_t ms)
{
	struct job_logs *l = w->logs;

	for (int d = 0; d < IO_NDIR; d++) {
		const struct hist *h = &w->st->dir[d].clat_hist;

		if (!rw_does(w->job->rw, d) || !memcmp(h, &l->hist_before[d], sizeof(*h)))
			continue;
		histlog_add(&l->hist, ms, (uint32_t)d, (uint32_t)w->job->bs[d].min, h,
			    &l->hist_before[d]);
	}
}

uint64_t logs_next_deadline(const struct worker *w)
{
	const struct job_logs *l = w->logs;

	return l->t_next_avg < l->t_next_hist ? l->t_next_avg : l->t_next_hist;
}

void logs_tick(struct worker *w)
{
	struct job_logs *l = w->logs;

	/* Entries carry the window's nominal end (200, 400, ... ms), as fio's do. */
	if (w->now >= l->t_next_avg) {
		close_window(w, l->t_next_avg, ++l->avg_windows * (w->job->log_avg_ns / NS_PER_MSEC) +
			     l->epoch_ms);
		while (l->t_next_avg <= w->now) {
			l->t_next_avg += l->avg_ticks;
			l->avg_windows++;
		}
		l->avg_windows--;
	}
	if (w->now >= l->t_next_hist) {
		add_hist(w, ++l->hist_windows * (w->job->log_hist_ns / NS_PER_MSEC) + l->epoch_ms);
		while (l->t_next_hist <= w->now) {
			l->t_next_hist += l->hist_ticks;
			l->hist_windows++;
		}
		l->hist_windows--;
	}
}

void logs_finish(struct worker *w)
{
	struct job_logs *l = w->logs;

	/* A last stretch under half a window is noise, not an average worth a line. */
	if (l->averaged && clock_to_ns(w->clk, w->now - l->t_win_start) >= w->job->log_avg_ns / 2)
		close_window(w, w->now, to_ms(w, w->now));
	if (l->hist_before)
		add_hist(w, to_ms(w, w->now));
	stop_gz(l);	/* every chunk compressed before the files are written */
}

/* Per job PREFIX_KIND.N.log; with per_job_logs=0 one PREFIX_KIND.log for every job. */
static int write_one(const struct job_desc *j, const char *prefix, const char *kind,
		     bool first_of_name, const struct joblog *log, const struct histlog *hist,
		     struct diag *d)
{
	char path[4096];
	FILE *f;
	int ret, err;

	const char *fz = j->log_store_compressed ? ".fz" : "";
	unsigned form = (j->log_offset ? JOBLOG_OFFSET : 0) | (j->log_prio ? JOBLOG_PRIO : 0);

	if (j->per_job_logs)
		snprintf(path, sizeof(path), "%s_%s.%u.log%s", prefix, kind, j->index + 1, fz);
	else
		snprintf(path, sizeof(path), "%s_%s.log%s", prefix, kind, fz);
	f = fopen(path, first_of_name ? "w" : "a");
	if (!f)
		return diag_set(d, -errno, "job '%s': log '%s': %s", j->name, path,
				strerror(errno));
	if (hist)
		ret = histlog_write(f, hist);
	else if (j->log_store_compressed)
		ret = joblog_write_z(f, log, form);
	else
		ret = joblog_write(f, log, form);
	err = stream_finish(f, true);	/* names the reason where the writes only set ferror */
	if (err < 0 || ret < 0)
		return diag_set(d, err < 0 ? err : ret, "job '%s': cannot write log '%s': %s",
				j->name, path, strerror(err < 0 ? -err : -ret));
	return 0;
}

/* Whether an earlier job already wrote this shared (per_job_logs=0) file. */
static bool written_before(const struct job_list *jobs, struct job_logs *const *logs,
			   unsigned upto, const char *prefix, size_t field)
{
	for (unsigned i = 0; i < upto; i++) {
		const char *p = *(const char *const *)((const char *)&jobs->jobs[i] + field);

		if (logs[i] && !jobs->jobs[i].per_job_logs && p && !strcmp(p, prefix))
			return true;
	}
	return false;
}

int logs_write_all(const struct job_list *jobs, struct job_logs *const *logs,
		   struct diag *d)
{
	int ret = 0;

	for (unsigned i = 0; !ret && i < jobs->njobs; i++) {
		const struct job_desc *j = &jobs->jobs[i];
		const struct job_logs *l = logs[i];
		bool fresh;

		if (!l)
			continue;
		if (l->gz_err)
			return diag_set(d, l->gz_err, "job '%s': log_compression: no memory to "
					"compress its logs: entries were lost", j->name);
		if (j->lat_log) {
			fresh = !written_before(jobs, logs, i, j->lat_log,
						offsetof(struct job_desc, lat_log));
			/* as fio, a latency disable_* leaves out has no log file at all */
			if (!j->disable_clat)
				ret = write_one(j, j->lat_log, "clat", fresh, &l->clat_log, NULL,
						d);
			if (!ret && !j->disable_slat)
				ret = write_one(j, j->lat_log, "slat", fresh, &l->slat_log, NULL, d);
			if (!ret && !j->disable_lat)
				ret = write_one(j, j->lat_log, "lat", fresh, &l->lat_log, NULL, d);
		}
		if (!ret && j->bw_log)
			ret = write_one(j, j->bw_log, "bw", !written_before(jobs, logs, i,
					j->bw_log, offsetof(struct job_desc, bw_log)),
					&l->bw_log, NULL, d);
		if (!ret && j->iops_log)
			ret = write_one(j, j->iops_log, "iops", !written_before(jobs, logs, i,
					j->iops_log, offsetof(struct job_desc, iops_log)),
					&l->iops_log, NULL, d);
		if (!ret && j->hist_log)
			ret = write_one(j, j->hist_log, "clat_hist", !written_before(jobs, logs, i,
					j->hist_log, offsetof(struct job_desc, hist_log)),
					NULL, &l->hist, d);
	}
	return ret;
}
