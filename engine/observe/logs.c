/* A job's log files: entries per I/O or per window, written as chunks fill and at the end. */
#include "engine/observe/logs.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/devices/path_guard.h"
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
 * A text log's chunks stop growing here: written as they fill, larger ones would only hold
 * more memory (16384 entries are 512 KiB).
 */
#define TEXT_CHUNK_MAX	16384u

/*
 * Chunks of log_entries, then doubling. A compressed file (log_store_compressed) keeps a
 * zlib stream per chunk, as fio's, so its chunks are fio's: up to log_compression bytes of
 * fio's samples, or fio's largest; a text log's are at most TEXT_CHUNK_MAX.
 */
static void size_logs(struct job_logs *l, const struct job_desc *j)
{
	struct joblog *logs[LOGS_WRITER_MAX];
	unsigned n = sample_logs(l, logs), max_cap = 0;
	size_t sample = j->log_offset ? JOBLOG_SAMPLE_OFFSET_BYTES : JOBLOG_SAMPLE_BYTES;

	if (j->log_compression)
		max_cap = j->log_compression / sample ? (unsigned)(j->log_compression / sample) : 1;
	if (!j->log_store_compressed && (!max_cap || max_cap > TEXT_CHUNK_MAX))
		max_cap = TEXT_CHUNK_MAX;
	for (unsigned i = 0; i < n; i++)
		joblog_init(logs[i], j->log_entries, max_cap);
}

/* log_entries' point: the first chunk of each log exists before the first I/O. */
static bool prealloc(struct job_logs *l)
{
	struct joblog *logs[LOGS_WRITER_MAX];
	unsigned n = sample_logs(l, logs);

	for (unsigned i = 0; i < n; i++)
		if (!logs[i]->first && !joblog_grow(logs[i]))
			return false;
	return true;
}

/* A log's file: per job PREFIX_KIND.N.log, with per_job_logs=0 one PREFIX_KIND.log. */
static void log_path(char *buf, size_t len, const struct job_desc *j, const char *prefix,
		     const char *kind)
{
	const char *fz = j->log_store_compressed ? ".fz" : "";

	if (j->per_job_logs)
		snprintf(buf, len, "%s_%s.%u.log%s", prefix, kind, j->index + 1, fz);
	else
		snprintf(buf, len, "%s_%s.log%s", prefix, kind, fz);
}

/* Which file a sample log goes to, and whether it has one (a disabled latency has none). */
static void sink_of(const struct job_logs *l, const struct job_desc *j,
		    const struct joblog *log, const char **prefix, const char **kind, bool *off)
{
	*prefix = j->lat_log;
	*off = false;
	if (log == &l->clat_log)
		*kind = "clat", *off = j->disable_clat;
	else if (log == &l->slat_log)
		*kind = "slat", *off = j->disable_slat;
	else if (log == &l->lat_log)
		*kind = "lat", *off = j->disable_lat;
	else if (log == &l->bw_log)
		*kind = "bw", *prefix = j->bw_log;
	else
		*kind = "iops", *prefix = j->iops_log;
}

/* The logs' writer: the sample logs' files, then the histogram log's. */
static int start_writer(struct job_logs *l, const struct job_desc *j)
{
	struct log_sink_desc sinks[LOGS_WRITER_MAX + 1];
	struct joblog *logs[LOGS_WRITER_MAX];
	unsigned n = sample_logs(l, logs);
	const char *prefix, *kind;
	char path[4096];
	bool off;

	for (unsigned i = 0; i <= n; i++) {
		if (i < n)
			sink_of(l, j, logs[i], &prefix, &kind, &off);
		else if (l->hist_before)
			prefix = j->hist_log, kind = "clat_hist", off = false;
		else
			break;
		log_path(path, sizeof(path), j, prefix, kind);
		l->paths[i] = strdup(path);
		if (!l->paths[i])
			return -ENOMEM;
		sinks[i] = (struct log_sink_desc){ .log = i < n ? logs[i] : NULL,
						   .hist = i < n ? NULL : &l->hist,
						   .path = l->paths[i], .own_file = j->per_job_logs,
						   .discard = off };
	}
	n += l->hist_before != NULL;
	if (!n)
		return 0;
	return logs_writer_new(&l->writer, sinks, n, l->form, j->log_store_compressed,
			       &j->log_compression_cpus);
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
	l->window_max = j->log_window == LOG_WINDOW_MAX;
	l->track_max = j->log_window != LOG_WINDOW_AVG;
	l->form = (j->log_offset ? JOBLOG_OFFSET : 0) | (j->log_prio ? JOBLOG_PRIO : 0) |
		  (j->log_issue_time ? JOBLOG_ISSUE : 0) |
		  (j->log_window == LOG_WINDOW_BOTH ? JOBLOG_BOTH : 0) |
		  (l->averaged ? JOBLOG_WINDOWS : 0);
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
	/* without log_hist_msec, fio writes the histogram log empty: nothing is sampled */
	if (j->hist_log && j->log_hist_ns) {
		l->hist_before = calloc(IO_NDIR, sizeof(*l->hist_before));
		if (!l->hist_before)
			goto nomem;
	}
	if (start_writer(l, j) < 0)
		goto nomem;
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

void logs_free(struct job_logs *l)
{
	if (!l)
		return;
	logs_writer_free(l->writer);
	drop_entries(l);
	for (unsigned i = 0; i < LOGS_WRITER_MAX + 1; i++)
		free(l->paths[i]);
	free(l->hist_before);
	free(l);
}

static void reset_max(struct job_logs *l)
{
	memset(l->max_clat, 0, sizeof(l->max_clat));
	memset(l->max_slat, 0, sizeof(l->max_slat));
	memset(l->max_lat, 0, sizeof(l->max_lat));
}

/* ticks as the logs' time: ns from the log's start (the job's, or the run's) */
static uint64_t to_ns(const struct worker *w, uint64_t ticks)
{
	return clock_to_ns(w->clk, ticks - w->pace.t_start) + w->logs->epoch_ns;
}

static uint64_t to_ms(const struct worker *w, uint64_t ticks)
{
	return to_ns(w, ticks) / NS_PER_MSEC;
}

void logs_start(struct worker *w)
{
	struct job_logs *l = w->logs;
	struct timespec ts;

	/* What ramp_time logged does not belong to the measured run: not kept, not written. */
	logs_writer_reset(l->writer);
	drop_entries(l);
	prealloc(l);	/* log_entries' chunks; the first entry retries where this failed */
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
		if (l->track_max) {
			l->max_clat[d] = clat_ns > l->max_clat[d] ? clat_ns : l->max_clat[d];
			l->max_slat[d] = slat_ns > l->max_slat[d] ? slat_ns : l->max_slat[d];
			l->max_lat[d] = lat_ns > l->max_lat[d] ? lat_ns : l->max_lat[d];
		}
		return;
	}
	ms = to_ms(w, now);
	if (l->lat) {
		/* log_issue_time (fio HEAD): when it was issued, in clat and slat alone */
		uint64_t issue = l->form & JOBLOG_ISSUE ? to_ns(w, r->t_submit) : 0;

		joblog_add(&l->clat_log, ms, clat_ns, d, r->full_len, off, prio, issue);
		if (!w->sync_path)
			joblog_add(&l->slat_log, ms, slat_ns, d, r->full_len, off, prio, issue);
		joblog_add(&l->lat_log, ms, lat_ns, d, r->full_len, off, prio, 0);
	}
	/*
	 * fio's per-I/O bandwidth entry: the I/O's bytes over its clat, in bytes per ms. With
	 * the sample window at 0 (log_avg_msec=0), each entry is a bw or iops sample too.
	 */
	/* disable_bw_measurement: fio 3.33 drops these entries alone, not the windows' */
	if (l->bw && !w->job->disable_bw) {
		uint64_t bw = clat_ns ? r->full_len * NS_PER_MSEC / clat_ns : 0;

		joblog_add(&l->bw_log, ms, bw, d, r->full_len, off, prio, 0);
		if (!w->pace.bw_ticks)
			moments_add(&w->st->dir[d].bw, bw, 1);
	}
	if (l->iops) {
		joblog_add(&l->iops_log, ms, 1, d, r->full_len, off, prio, 0);
		if (!w->pace.iops_ticks)
			moments_add(&w->st->dir[d].iops, 1, 1);
	}
}

/* A latency log's entry for one window: its mean, or its largest value (log_window_value). */
static void window_entry(const struct job_logs *l, struct joblog *log, uint64_t ms, int d,
			 uint64_t mean, uint64_t max)
{
	joblog_add(log, ms, l->window_max ? max : mean, d, 0, 0, 0, max);
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
		/*
		 * A window's entry has no size, offset or priority of its own: 0, as fio's. Its
		 * aux is its largest value, which log_window_value=both writes beside the mean.
		 */
		if (l->lat) {
			window_entry(l, &l->clat_log, ms, d, l->win_clat[d] / n, l->max_clat[d]);
			if (!w->sync_path)
				window_entry(l, &l->slat_log, ms, d, l->win_slat[d] / n,
					     l->max_slat[d]);
			window_entry(l, &l->lat_log, ms, d, l->win_lat[d] / n, l->max_lat[d]);
		}
		/* bw and iops are one sample per window: its largest is its mean */
		if (l->bw) {
			uint64_t bw = (uint64_t)((stats_u128)l->win_bytes[d] * NS_PER_SEC / ns /
						 1024);

			joblog_add(&l->bw_log, ms, bw, d, 0, 0, 0, bw);
		}
		if (l->iops) {
			uint64_t iops = n * NS_PER_SEC / ns;

			joblog_add(&l->iops_log, ms, iops, d, 0, 0, 0, iops);
		}
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
	if (l->writer)
		logs_writer_hand_records(l->writer, &l->hist);	/* written as they come */
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
	logs_writer_drain(l->writer);	/* every full chunk written before the rest is */
}

/* Where a log sits among the writer's sinks (sample_logs() order, then hist); -1: none. */
static int sink_index(struct job_logs *l, const struct joblog *log, const struct histlog *h)
{
	struct joblog *logs[LOGS_WRITER_MAX];
	unsigned n = sample_logs(l, logs);

	for (unsigned i = 0; log && i < n; i++)
		if (logs[i] == log)
			return (int)i;
	return h && l->hist_before ? (int)n : -1;
}

/*
 * A log file that could not be written and holds nothing (a full disk) is removed, not
 * left at 0 bytes to pass for a job that logged nothing. A device or a FIFO stays.
 */
static void drop_empty(const char *path)
{
	struct stat st;

	if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0)
		unlink(path);
}

/* Append what the writer spilled (per_job_logs=0), from its start, to the shared file. */
static int copy_spill(FILE *from, FILE *to)
{
	char buf[64 << 10];
	size_t n;

	if (fseek(from, 0, SEEK_SET) < 0)	/* flushes what is buffered first */
		return -errno;
	while ((n = fread(buf, 1, sizeof(buf), from)) > 0)
		if (fwrite(buf, 1, n, to) != n)
			return -EIO;
	return ferror(from) ? -EIO : 0;
}

/*
 * One log file: what the writer wrote while the job ran (in the file already, or in a
 * spill file copied over), then the entries still in memory.
 */
static int write_one(const struct job_desc *j, struct job_logs *l, const char *prefix,
		     const char *kind, bool first_of_name, const struct joblog *log,
		     const struct histlog *hist, struct diag *d)
{
	int idx = sink_index(l, log, hist), ret = 0, err;
	FILE *f, *spill = NULL;
	uint64_t lost = 0;
	bool own = false;
	char path[4096], why[512];

	log_path(path, sizeof(path), j, prefix, kind);
	if (idx >= 0) {
		ret = logs_writer_error(l->writer, (unsigned)idx, &lost);
		spill = logs_writer_take_file(l->writer, (unsigned)idx, &own);
	}
	if (!ret && log && log->lost) {
		ret = -ENOMEM;
		lost = log->lost;
	}
	if (ret < 0) {
		if (spill)
			fclose(spill);
		return diag_set(d, ret, "job '%s': cannot write log '%s': %s (%llu entries "
				"lost)", j->name, path, strerror(-ret), (unsigned long long)lost);
	}
	f = own && spill ? spill : path_fopen(path, first_of_name ? "w" : "a", why, sizeof(why));
	if (!f) {
		ret = -errno;
		if (spill)
			fclose(spill);
		return diag_set(d, ret, "job '%s': log '%s': %s", j->name, path, why);
	}
	if (spill && !own) {
		ret = copy_spill(spill, f);
		fclose(spill);
	}
	if (!ret && hist)
		ret = histlog_write(f, hist);
	else if (!ret)
		ret = joblog_write(f, log, l->form, j->log_store_compressed);
	err = stream_finish(f, true);	/* names the reason where the writes only set ferror */
	if (ret < 0 || err < 0) {	/* the first failure: a later flush may know less */
		ret = ret < 0 ? ret : err;
		drop_empty(path);
		return diag_set(d, ret, "job '%s': cannot write log '%s': %s", j->name, path,
				strerror(-ret));
	}
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

int logs_check_paths(const struct job_desc *j, struct diag *d)
{
	static const struct {
		size_t prefix;
		const char *kind, *option;
	} logs[] = {
		{ offsetof(struct job_desc, lat_log), "clat", "write_lat_log" },
		{ offsetof(struct job_desc, lat_log), "slat", "write_lat_log" },
		{ offsetof(struct job_desc, lat_log), "lat", "write_lat_log" },
		{ offsetof(struct job_desc, bw_log), "bw", "write_bw_log" },
		{ offsetof(struct job_desc, iops_log), "iops", "write_iops_log" },
		{ offsetof(struct job_desc, hist_log), "clat_hist", "write_hist_log" },
	};
	char path[4096], why[512];
	const char *file;
	int line;

	for (size_t i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
		const char *prefix = *(const char *const *)((const char *)j + logs[i].prefix);

		if (!prefix)
			continue;
		log_path(path, sizeof(path), j, prefix, logs[i].kind);
		if (path_guard(path, PATH_WRITE, why, sizeof(why)) == 0)
			continue;
		job_where(j, logs[i].option, &file, &line);
		return diag_at(d, -EINVAL, file, line, "job '%s': option '%s': refusing to write "
			       "the log '%s': it %s", j->name, logs[i].option, path, why);
	}
	return 0;
}

int logs_write_all(const struct job_list *jobs, struct job_logs *const *logs,
		   struct diag *d)
{
	int ret = 0;

	for (unsigned i = 0; !ret && i < jobs->njobs; i++) {
		const struct job_desc *j = &jobs->jobs[i];
		struct job_logs *l = logs[i];
		bool fresh;

		if (!l)
			continue;
		if (j->lat_log) {
			fresh = !written_before(jobs, logs, i, j->lat_log,
						offsetof(struct job_desc, lat_log));
			/* as fio, a latency disable_* leaves out has no log file at all */
			if (!j->disable_clat)
				ret = write_one(j, l, j->lat_log, "clat", fresh, &l->clat_log, NULL,
						d);
			if (!ret && !j->disable_slat)
				ret = write_one(j, l, j->lat_log, "slat", fresh, &l->slat_log, NULL, d);
			if (!ret && !j->disable_lat)
				ret = write_one(j, l, j->lat_log, "lat", fresh, &l->lat_log, NULL, d);
		}
		if (!ret && j->bw_log)
			ret = write_one(j, l, j->bw_log, "bw", !written_before(jobs, logs, i,
					j->bw_log, offsetof(struct job_desc, bw_log)),
					&l->bw_log, NULL, d);
		if (!ret && j->iops_log)
			ret = write_one(j, l, j->iops_log, "iops", !written_before(jobs, logs, i,
					j->iops_log, offsetof(struct job_desc, iops_log)),
					&l->iops_log, NULL, d);
		if (!ret && j->hist_log)
			ret = write_one(j, l, j->hist_log, "clat_hist", !written_before(jobs, logs, i,
					j->hist_log, offsetof(struct job_desc, hist_log)),
					NULL, &l->hist, d);
	}
	return ret;
}
