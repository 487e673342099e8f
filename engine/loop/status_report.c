/*
 * --status-interval's full reports, as fio prints them: each job copies its statistics
 * between two I/Os when asked, and the report of the run so far is built from the copies
 * with the reporters of the final report.
 */
#include "engine/loop/status_report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "engine/engine.h"
#include "engine/loop/lat_target.h"
#include "engine/loop/pace.h"
#include "engine/observe/steady.h"
#include "engine/worker.h"
#include "engine/observe/disk_watch.h"
#include "output/report.h"
#include "output/report_formats.h"
#include "base/units.h"

#define ANSWER_WAIT_NS	NS_PER_SEC	/* the longest a report waits for a job's copy */
#define ANSWER_POLL_NS	NS_PER_MSEC	/* jobs answer within their 10 ms stop poll */

/*
 * Two copies of each job's statistics, which it fills in turn (snap_want's parity says
 * which); the results and phases the report is built of; the run's disks, read again
 * each time.
 */
struct status_report {
	struct run *run;
	struct job_result (*snaps)[2];
	struct job_result *view;
	struct phase_usage *phases;
	struct disk_set disks;
	bool disks_started;
};

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
	stats_copy(to->st, w->st);
	pace_measure(w, to->st);
	worker_close_stats(w, to->st);
	to->tid = w->tid;
	to->error = w->error;
	to->has_slat = !w->sync_path;
	to->lat_depth = lat_target_depth(w);
	if (w->error)
		memcpy(to->error_msg, w->error_msg, sizeof(to->error_msg));
	atomic_store_explicit(&p->snap_done, want, memory_order_release);
}

/* Ask every job that runs for a copy; true when one was asked. */
static bool ask_jobs(struct status_report *s)
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

static bool all_answered(const struct status_report *s)
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

static bool all_final(const struct status_report *s)
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
static void view_of(struct status_report *s, unsigned i, struct job_result *v)
{
	const struct job_result *from = &s->run->results[i];
	struct job_progress *p = &s->run->results[i].progress;

	if (!atomic_load_explicit(&p->final, memory_order_acquire))
		from = &s->snaps[i][atomic_load_explicit(&p->snap_done, memory_order_acquire) & 1];
	v->st = from->st;
	v->tid = from->tid;
	v->error = from->error;
	v->has_slat = from->has_slat;
	v->lat_depth = from->lat_depth;
	memcpy(v->error_msg, from->error_msg, sizeof(v->error_msg));
}

/*
 * steadystate's windows: the running phase's as they stand, an earlier phase's as it left
 * them. Under the run's lock, which the phase's end takes to stop its watcher.
 */
static void windows_of(struct status_report *s)
{
	struct run *r = s->run;

	pthread_mutex_lock(&r->steady_lock);
	for (unsigned i = 0; i < r->jobs->njobs; i++) {
		s->view[i].ss = r->steady ? steady_snapshot(r->steady, i) : NULL;
		if (!s->view[i].ss)
			s->view[i].ss = r->results[i].ss;	/* set once, kept to the end */
	}
	pthread_mutex_unlock(&r->steady_lock);
}

/* The snapshots; a window borrowed from results[].ss is left (read under the lock too). */
static void windows_free(struct status_report *s)
{
	struct run *r = s->run;

	pthread_mutex_lock(&r->steady_lock);
	for (unsigned i = 0; i < r->jobs->njobs; i++)
		if (s->view[i].ss != r->results[i].ss)
			free(s->view[i].ss);
	pthread_mutex_unlock(&r->steady_lock);
}

/*
 * The disks so far: their counters now against those the run read at its start, which
 * it did before any job left JOB_WAITING (the jobs' release of their state orders it).
 */
static const struct disk_set *disks_now(struct status_report *s)
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

void status_report_show(struct status_report *s, FILE *f, unsigned formats,
			const atomic_bool *quit)
{
	uint64_t until = clock_mono_ns() + ANSWER_WAIT_NS;
	struct run_report rr;
	struct timeval tv;

	/* stamped before the jobs are looked at: earlier than the report's end, always */
	gettimeofday(&tv, NULL);
	if (all_final(s))
		return;		/* as fio, no interval once the jobs are over: the report follows */
	if (ask_jobs(s))
		while (!all_answered(s) && !atomic_load(quit) && clock_mono_ns() < until) {
			struct timespec ts = { 0, (long)ANSWER_POLL_NS };

			nanosleep(&ts, NULL);
		}
	for (unsigned i = 0; i < s->run->jobs->njobs; i++)
		view_of(s, i, &s->view[i]);
	windows_of(s);
	/* phases[] stays zero: what a phase cost the process is known when it ends */
	if (run_build_report_of(s->run, s->view, s->phases, &rr) == 0) {
		rr.rep.time = tv.tv_sec;
		rr.rep.time_ms = (unsigned long long)tv.tv_sec * 1000 +
				 (unsigned long long)tv.tv_usec / 1000;
		rr.rep.disks = disks_now(s);
		report_formats_render(f, &rr.rep, formats);
		fflush(f);
	}
	run_report_free(&rr);
	windows_free(s);
}

/* The run's disk list is filled in before (run_prepare), its counters later. */
int status_report_init(struct status_report **out, struct run *r)
{
	unsigned n = r->jobs->njobs;
	struct status_report *s = calloc(1, sizeof(*s));

	*out = s;
	if (!s)
		return -ENOMEM;
	s->run = r;
	s->snaps = calloc(n, sizeof(*s->snaps));
	s->view = calloc(n, sizeof(*s->view));
	s->phases = calloc(r->jobs->nphases, sizeof(*s->phases));
	if (!s->snaps || !s->view || !s->phases)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		for (int k = 0; k < 2; k++) {
			s->snaps[i][k].st = stats_new();
			if (!s->snaps[i][k].st)
				return -ENOMEM;
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

void status_report_free(struct status_report *s)
{
	if (!s)
		return;
	for (unsigned i = 0; s->snaps && i < s->run->jobs->njobs; i++) {
		s->run->results[i].progress.snap = NULL;
		stats_free(s->snaps[i][0].st);
		stats_free(s->snaps[i][1].st);
	}
	free(s->snaps);
	free(s->view);
	free(s->phases);
	free(s->disks.disks);
	free(s);
}
