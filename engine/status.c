/*
 * The status thread: every eta interval it reads what the jobs published, estimates the
 * time left and rewrites the status line; every --status-interval it prints, as fio does,
 * the whole report of the run so far (or, with --status-format=delta, what each job did in
 * that interval). It only reads atomics and copies the jobs made: the jobs never wait for
 * it, and it never stops them.
 */
#include "engine/engine.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "engine/pace.h"
#include "engine/worker.h"
#include "output/diskstats.h"
#include "output/report.h"
#include "output/report_formats.h"
#include "output/status.h"
#include "base/units.h"

#define TICK_NS		50000000ULL	/* how often the thread looks for quit */
#define LINE_MAX_LEN	512		/* every field fits; a long list of job states is cut */
#define ANSWER_WAIT_NS	NS_PER_SEC	/* the longest a report waits for a job's copy */
#define ANSWER_POLL_NS	NS_PER_MSEC	/* jobs answer within their 10 ms stop poll */

struct run_status {
	struct run *run;
	struct status_opts o;
	pthread_t thread;
	atomic_bool quit;
	bool line_on;			/* the status line is shown */
	size_t last_len;		/* to blank out what a longer earlier line left */
	uint64_t start_ns, next_line, next_newline, next_interval;
	unsigned seq;
	char *states;
	/* counters at the previous line and the previous interval, per job and direction */
	uint64_t (*line_ios)[IO_NDIR], (*line_bytes)[IO_NDIR];
	uint64_t (*iv_ios)[IO_NDIR], (*iv_bytes)[IO_NDIR], (*iv_clat)[IO_NDIR];
	uint64_t last_line_ns, last_iv_ns;
	/*
	 * The full reports: two copies of each job's statistics, which it fills in turn
	 * (snap_want's parity says which); the results and phases the report is built of;
	 * the run's disks, read again each time.
	 */
	struct job_result (*snaps)[2];
	struct job_result *view;
	struct phase_usage *phases;
	struct disk_set disks;
	bool disks_started;
};

static char state_char(const struct job_desc *j, int state)
{
	static const char read_c[2] = { 'R', 'r' }, write_c[2] = { 'W', 'w' },
			  mixed_c[2] = { 'M', 'm' }, trim_c[2] = { 'D', 'd' };
	int rnd = rw_is_random(j->rw);

	if (state == JOB_WAITING)
		return 'P';
	if (state == JOB_DONE)
		return '_';
	if (state == JOB_RAMPING)
		return '/';
	if (rw_is_mixed(j->rw))
		return mixed_c[rnd];
	if (rw_does(j->rw, IO_TRIM))
		return trim_c[rnd];
	return rw_does(j->rw, IO_WRITE) ? write_c[rnd] : read_c[rnd];
}

/* Seconds a job will still take, -1 when that cannot be told yet. */
static int64_t job_eta(const struct job_desc *j, struct job_progress *p, uint64_t now)
{
	int state = atomic_load_explicit(&p->state, memory_order_acquire);
	uint64_t start = atomic_load_explicit(&p->start_ns, memory_order_relaxed);
	uint64_t budget = atomic_load_explicit(&p->budget_bytes, memory_order_relaxed);
	uint64_t done = 0, elapsed, left_ns;

	if (state == JOB_DONE)
		return 0;
	if (state != JOB_RUNNING || !start) {
		/* Not measuring yet: what it will take is known only when time bounds it. */
		if (!j->runtime_ns)
			return -1;
		return (int64_t)((j->startdelay_ns.lo + j->ramp_time_ns + j->runtime_ns) /
				 NS_PER_SEC);
	}
	elapsed = now > start ? now - start : 0;
	for (int d = 0; d < IO_NDIR; d++)
		done += atomic_load_explicit(&p->bytes[d], memory_order_relaxed);
	left_ns = j->runtime_ns > elapsed ? j->runtime_ns - elapsed : 0;
	if (!j->time_based && budget != UINT64_MAX) {
		uint64_t by_size = done && budget > done ?
				   (uint64_t)((double)elapsed * (double)(budget - done) / (double)done) :
				   (done ? 0 : UINT64_MAX);

		if (!j->runtime_ns || by_size < left_ns)
			left_ns = by_size;
	}
	return left_ns == UINT64_MAX ? -1 : (int64_t)((left_ns + NS_PER_SEC - 1) / NS_PER_SEC);
}

/* Phases run one after another: the current one's longest job, then each later one's. */
static int64_t run_eta(const struct run *r, uint64_t now)
{
	const struct job_list *jobs = r->jobs;
	int64_t total = 0;

	for (unsigned p = 0; p < jobs->nphases; p++) {
		int64_t phase = 0;

		for (unsigned i = 0; i < jobs->njobs; i++) {
			int64_t e;

			if (jobs->jobs[i].phase != p)
				continue;
			e = job_eta(&jobs->jobs[i], &r->results[i].progress, now);
			if (e < 0)
				return -1;
			if (e > phase)
				phase = e;
		}
		total += phase;
	}
	return total;
}

static void show_line(struct run_status *s, uint64_t now)
{
	const struct job_list *jobs = s->run->jobs;
	struct status_view v = { .states = s->states, .njobs = jobs->njobs };
	double secs = (double)(now - s->last_line_ns) / 1e9;
	char line[LINE_MAX_LEN];
	size_t len;

	for (unsigned i = 0; i < jobs->njobs; i++) {
		struct job_progress *p = &s->run->results[i].progress;
		int state = atomic_load_explicit(&p->state, memory_order_acquire);

		s->states[i] = state_char(&jobs->jobs[i], state);
		if (state == JOB_RAMPING || state == JOB_RUNNING) {
			v.running++;
			v.files += jobs->jobs[i].filenames.n ? jobs->jobs[i].filenames.n :
				   jobs->jobs[i].nrfiles;
		}
		for (int d = 0; d < IO_NDIR; d++) {
			uint64_t ios = atomic_load_explicit(&p->ios[d], memory_order_relaxed);
			uint64_t bytes = atomic_load_explicit(&p->bytes[d], memory_order_relaxed);

			if (secs > 0) {
				v.iops[d] += (uint64_t)((double)(ios - s->line_ios[i][d]) / secs);
				v.bw[d] += (uint64_t)((double)(bytes - s->line_bytes[i][d]) / secs);
			}
			s->line_ios[i][d] = ios;
			s->line_bytes[i][d] = bytes;
		}
	}
	v.eta_s = run_eta(s->run, now);
	v.pct = v.eta_s < 0 ? -1.0 : 100.0 * (double)(now - s->start_ns) /
		((double)(now - s->start_ns) + (double)v.eta_s * 1e9);
	status_line(line, sizeof(line), &v);
	len = strlen(line);
	/* Rewrite in place: pad with blanks over what a longer line left, then return. */
	fprintf(s->o.eta_out, "%s%*s\r", line, (int)(s->last_len > len ? s->last_len - len : 0),
		"");
	if (s->o.eta_newline_ns && now >= s->next_newline) {
		fputc('\n', s->o.eta_out);
		s->next_newline = now + s->o.eta_newline_ns;
	}
	fflush(s->o.eta_out);
	s->last_len = len;
	s->last_line_ns = now;
}

/* --status-format=delta: each job's rates and mean clat over the interval alone. */
static void show_delta(struct run_status *s, uint64_t now)
{
	const struct job_list *jobs = s->run->jobs;
	struct status_interval *iv = calloc(jobs->njobs, sizeof(*iv));

	if (!iv)
		return;
	for (unsigned i = 0; i < jobs->njobs; i++) {
		struct job_progress *p = &s->run->results[i].progress;

		iv[i].name = jobs->jobs[i].name;
		for (int d = 0; d < IO_NDIR; d++) {
			uint64_t ios = atomic_load_explicit(&p->ios[d], memory_order_relaxed);
			uint64_t bytes = atomic_load_explicit(&p->bytes[d], memory_order_relaxed);
			uint64_t clat = atomic_load_explicit(&p->clat_sum_ns[d], memory_order_relaxed);

			iv[i].ios[d] = ios - s->iv_ios[i][d];
			iv[i].bytes[d] = bytes - s->iv_bytes[i][d];
			iv[i].clat_sum_ns[d] = clat - s->iv_clat[i][d];
			s->iv_ios[i][d] = ios;
			s->iv_bytes[i][d] = bytes;
			s->iv_clat[i][d] = clat;
		}
	}
	s->seq++;
	if (!(s->o.formats & RF_NORMAL))
		status_interval_json(s->o.interval_out, s->seq, (s->last_iv_ns - s->start_ns) / NS_PER_MSEC,
				     (now - s->start_ns) / NS_PER_MSEC, iv, jobs->njobs);
	else
		status_interval_text(s->o.interval_out, s->seq, (s->last_iv_ns - s->start_ns) / NS_PER_MSEC,
				     (now - s->start_ns) / NS_PER_MSEC, iv, jobs->njobs, s->o.kb_base);
	s->last_iv_ns = now;
	free(iv);
}

/*
 * How a job and the status thread share its two copies without a lock: the job writes
 * snaps[want & 1] only while snap_want differs from snap_done, then publishes snap_done =
 * want (release). The status thread asks (want = done + 1) only once the last request is
 * answered, and reads snaps[done & 1], which the job is not writing then: a slow job's
 * older copy stays readable while its new one is made.
 */
void run_status_answer(struct worker *w)
{
	struct job_progress *p = w->progress;
	struct job_result *to;
	unsigned want;

	if (!p || !p->snap)
		return;
	want = atomic_load_explicit(&p->snap_want, memory_order_acquire);
	if (want == atomic_load_explicit(&p->snap_done, memory_order_relaxed))
		return;
	to = &p->snap[want & 1];
	memcpy(to->st, w->st, sizeof(*to->st));
	pace_measure(w, to->st);
	worker_close_stats(w, to->st);
	to->tid = w->tid;
	to->error = w->error;
	to->has_slat = !w->sync_path;
	if (w->error)
		memcpy(to->error_msg, w->error_msg, sizeof(to->error_msg));
	atomic_store_explicit(&p->snap_done, want, memory_order_release);
}

/* Ask every job that runs for a copy; true when one was asked. */
static bool ask_jobs(struct run_status *s)
{
	bool asked = false;

	for (unsigned i = 0; i < s->run->jobs->njobs; i++) {
		struct job_progress *p = &s->run->results[i].progress;
		unsigned done = atomic_load_explicit(&p->snap_done, memory_order_acquire);
		int state = atomic_load_explicit(&p->state, memory_order_acquire);

		/*
		 * Like fio, nothing is counted before ramp_time is over: a job ramps once, at
		 * its start, before it ever answers, so its zeroed copy stands for it.
		 */
		if (atomic_load_explicit(&p->final, memory_order_acquire) ||
		    state == JOB_WAITING || state == JOB_RAMPING)
			continue;
		/* A job that has not answered the last request yet keeps it. */
		if (atomic_load_explicit(&p->snap_want, memory_order_relaxed) == done)
			atomic_store_explicit(&p->snap_want, done + 1, memory_order_release);
		asked = true;
	}
	return asked;
}

static bool all_answered(const struct run_status *s)
{
	for (unsigned i = 0; i < s->run->jobs->njobs; i++) {
		struct job_progress *p = &s->run->results[i].progress;

		if (!atomic_load_explicit(&p->final, memory_order_acquire) &&
		    atomic_load_explicit(&p->snap_want, memory_order_relaxed) !=
		    atomic_load_explicit(&p->snap_done, memory_order_acquire))
			return false;
	}
	return true;
}

static bool all_final(const struct run_status *s)
{
	for (unsigned i = 0; i < s->run->jobs->njobs; i++)
		if (!atomic_load_explicit(&s->run->results[i].progress.final, memory_order_acquire))
			return false;
	return true;
}

/*
 * Job i's part of the report: its result once it has ended, else its latest copy (zeros
 * before it started). Only what the report reads is taken.
 */
static void view_of(struct run_status *s, unsigned i, struct job_result *v)
{
	const struct job_result *from = &s->run->results[i];
	struct job_progress *p = &s->run->results[i].progress;

	if (!atomic_load_explicit(&p->final, memory_order_acquire))
		from = &s->snaps[i][atomic_load_explicit(&p->snap_done, memory_order_acquire) & 1];
	v->st = from->st;
	v->tid = from->tid;
	v->error = from->error;
	v->has_slat = from->has_slat;
	memcpy(v->error_msg, from->error_msg, sizeof(v->error_msg));
}

/*
 * The disks so far: their counters now against those the run read at its start, which
 * it did before any job left JOB_WAITING (the jobs' release of their state orders it).
 */
static const struct disk_set *disks_now(struct run_status *s)
{
	const struct disk_set *d = &s->run->disks;

	if (!s->disks.n)
		return NULL;
	for (unsigned i = 0; !s->disks_started && i < s->run->jobs->njobs; i++)
		s->disks_started = atomic_load_explicit(&s->run->results[i].progress.state,
							memory_order_acquire) != JOB_WAITING;
	if (!s->disks_started)
		return NULL;
	for (unsigned k = 0; k < s->disks.n; k++) {
		s->disks.disks[k].start = d->disks[k].start;
		/* an engine's made-up counters are known only at the end: none so far */
		s->disks.disks[k].end = d->disks[k].start;
	}
	s->disks.start_ns = d->start_ns;
	diskset_snapshot_end(&s->disks);
	return &s->disks;
}

/* fio's --status-interval: the report of the run so far, in every format of the run. */
static void show_report(struct run_status *s, uint64_t now)
{
	uint64_t until = now + ANSWER_WAIT_NS;
	struct run_report rr;
	struct timeval tv;

	/* stamped before the jobs are looked at: earlier than the report's end, always */
	gettimeofday(&tv, NULL);
	if (all_final(s))
		return;		/* as fio, no interval once the jobs are over: the report follows */
	if (ask_jobs(s))
		while (!all_answered(s) && !atomic_load(&s->quit) && clock_mono_ns() < until) {
			struct timespec ts = { 0, (long)ANSWER_POLL_NS };

			nanosleep(&ts, NULL);
		}
	for (unsigned i = 0; i < s->run->jobs->njobs; i++)
		view_of(s, i, &s->view[i]);
	/* phases[] stays zero: what a phase cost the process is known when it ends */
	if (run_build_report_of(s->run, s->view, s->phases, &rr) == 0) {
		rr.rep.time = tv.tv_sec;
		rr.rep.time_ms = (unsigned long long)tv.tv_sec * 1000 +
				 (unsigned long long)tv.tv_usec / 1000;
		rr.rep.disks = disks_now(s);
		report_formats_render(s->o.interval_out, &rr.rep, s->o.formats);
		fflush(s->o.interval_out);
	}
	run_report_free(&rr);
}

static void show_interval(struct run_status *s, uint64_t now)
{
	if (s->o.delta)
		show_delta(s, now);
	else
		show_report(s, now);
}

static void *status_thread(void *arg)
{
	struct run_status *s = arg;

	while (!atomic_load(&s->quit)) {
		struct timespec ts = { 0, (long)TICK_NS };
		uint64_t now;

		nanosleep(&ts, NULL);
		now = clock_mono_ns();
		if (s->line_on && now >= s->next_line) {
			show_line(s, now);
			s->next_line = now + s->o.eta_interval_ns;
		}
		if (s->o.interval_ns && now >= s->next_interval) {
			show_interval(s, now);
			s->next_interval += s->o.interval_ns;
		}
	}
	return NULL;
}

static void status_free(struct run_status *s)
{
	unsigned n = s->run ? s->run->jobs->njobs : 0;

	for (unsigned i = 0; s->snaps && i < n; i++) {
		s->run->results[i].progress.snap = NULL;
		free(s->snaps[i][0].st);
		free(s->snaps[i][1].st);
	}
	free(s->snaps);
	free(s->view);
	free(s->phases);
	free(s->disks.disks);
	free(s->states);
	free(s->line_ios);
	free(s->line_bytes);
	free(s->iv_ios);
	free(s->iv_bytes);
	free(s->iv_clat);
	free(s);
}

/*
 * The full reports' memory, taken before the jobs start: each job's two copies (the jobs
 * learn of them through their progress), the report's view, and the run's disk list,
 * which the run fills in now only (run_prepare) and whose counters come later.
 */
static int full_reports_init(struct run_status *s, struct run *r)
{
	unsigned n = r->jobs->njobs;

	s->snaps = calloc(n, sizeof(*s->snaps));
	s->view = calloc(n, sizeof(*s->view));
	s->phases = calloc(r->jobs->nphases, sizeof(*s->phases));
	if (!s->snaps || !s->view || !s->phases)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		for (int k = 0; k < 2; k++) {
			s->snaps[i][k].st = calloc(1, sizeof(*s->snaps[i][k].st));
			if (!s->snaps[i][k].st)
				return -ENOMEM;
			stats_init_zeroed(s->snaps[i][k].st);
		}
	}
	if (r->disks.n) {
		s->disks.disks = calloc(r->disks.n, sizeof(*s->disks.disks));
		if (!s->disks.disks)
			return -ENOMEM;
		memcpy(s->disks.disks, r->disks.disks, r->disks.n * sizeof(*s->disks.disks));
		s->disks.n = s->disks.cap = r->disks.n;
	}
	for (unsigned i = 0; i < n; i++)
		r->results[i].progress.snap = s->snaps[i];
	return 0;
}

int run_status_start(struct run *r, const struct status_opts *o)
{
	unsigned n = r->jobs->njobs;
	struct run_status *s;
	bool line_on = o->eta == ETA_ALWAYS || (o->eta == ETA_AUTO && isatty(fileno(o->eta_out)));

	if (!line_on && !o->interval_ns)
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->run = r;
	s->states = calloc(n + 1, 1);
	s->line_ios = calloc(n, sizeof(*s->line_ios));
	s->line_bytes = calloc(n, sizeof(*s->line_bytes));
	s->iv_ios = calloc(n, sizeof(*s->iv_ios));
	s->iv_bytes = calloc(n, sizeof(*s->iv_bytes));
	s->iv_clat = calloc(n, sizeof(*s->iv_clat));
	if (!s->states || !s->line_ios || !s->line_bytes || !s->iv_ios || !s->iv_bytes ||
	    !s->iv_clat || (o->interval_ns && !o->delta && full_reports_init(s, r) < 0)) {
		status_free(s);
		return -ENOMEM;
	}
	s->o = *o;
	s->line_on = line_on;
	s->start_ns = s->last_line_ns = s->last_iv_ns = clock_mono_ns();
	s->next_line = s->start_ns + o->eta_interval_ns;
	s->next_newline = s->start_ns + o->eta_newline_ns;
	s->next_interval = s->start_ns + o->interval_ns;
	atomic_init(&s->quit, false);
	if (pthread_create(&s->thread, NULL, status_thread, s)) {
		status_free(s);
		return -EAGAIN;
	}
	r->status = s;
	return 0;
}

void run_status_stop(struct run *r)
{
	struct run_status *s = r->status;

	if (!s)
		return;
	atomic_store(&s->quit, true);
	pthread_join(s->thread, NULL);
	if (s->line_on && s->last_len) {
		fputc('\n', s->o.eta_out);	/* the last line stays, the report starts below */
		fflush(s->o.eta_out);
	}
	status_free(s);
	r->status = NULL;
}
