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
#include <time.h>
#include <unistd.h>

#include "engine/loop/status_report.h"
#include "engine/run/agg_bw_log.h"
#include "output/report_formats.h"
#include "output/status.h"
#include "base/units.h"

#define TICK_NS		50000000ULL	/* how often the thread looks for quit */
#define LINE_MAX_LEN	512		/* every field fits; a long list of job states is cut */

struct run_status {
	struct run *run;
	struct status_opts o;
	pthread_t thread;
	atomic_bool quit;
	bool line_on;			/* the status line is shown */
	size_t last_len;		/* to blank out what a longer earlier line left */
	unsigned last_running;		/* its jobs running (none: erased at the end) */
	uint64_t start_ns, next_line, next_newline, next_interval;
	unsigned seq;
	char *states;
	/* counters at the previous line and the previous interval, per job and direction */
	uint64_t (*line_ios)[IO_NDIR], (*line_bytes)[IO_NDIR];
	uint64_t (*iv_ios)[IO_NDIR], (*iv_bytes)[IO_NDIR], (*iv_clat)[IO_NDIR];
	uint64_t last_line_ns, last_iv_ns;
	struct status_report *report;	/* the full reports, NULL with --status-format=delta */
	struct agg_bw_log agg;		/* --bandwidth-log's samples */
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

/*
 * In a sweep, the cell and what is left of the whole: this cell's eta, then each cell
 * after it as long as the cells before took on average, or, while the first runs, as
 * long as this one will.
 */
static void sweep_eta(const struct run_status *s, struct status_view *v, uint64_t now)
{
	double per = s->o.cell_s;

	if (s->o.ncells < 2)
		return;
	v->cell = s->o.cell + 1;
	v->ncells = s->o.ncells;
	if (per < 0 && v->eta_s >= 0)
		per = (double)(now - s->start_ns) / 1e9 + (double)v->eta_s;
	v->sweep_eta_s = per < 0 || v->eta_s < 0 ? -1 :
			 v->eta_s + (int64_t)(per * (double)(s->o.ncells - v->cell) + 0.5);
}

static void show_line(struct run_status *s, uint64_t now)
{
	const struct job_list *jobs = s->run->jobs;
	struct status_view v = { .states = s->states, .njobs = jobs->njobs,
				 .bits = jobs->jobs[jobs->njobs - 1].unit_base == UNIT_BASE_BITS };
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
	sweep_eta(s, &v, now);
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
	s->last_running = v.running;
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

static void show_interval(struct run_status *s, uint64_t now)
{
	if (s->o.delta)
		show_delta(s, now);
	else
		status_report_show(s->report, s->o.interval_out, s->o.formats, &s->quit);
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
		if (s->o.agg_bw_log)
			agg_bw_tick(&s->agg, s->run, now);
	}
	return NULL;
}

static void status_free(struct run_status *s)
{
	status_report_free(s->report);
	free(s->states);
	free(s->line_ios);
	free(s->line_bytes);
	free(s->iv_ios);
	free(s->iv_bytes);
	free(s->iv_clat);
	agg_bw_free(&s->agg);
	free(s);
}

int run_status_start(struct run *r, const struct status_opts *o)
{
	unsigned n = r->jobs->njobs;
	struct run_status *s;
	bool line_on = o->eta == ETA_ALWAYS || (o->eta == ETA_AUTO && isatty(fileno(o->eta_out)));

	if (!line_on && !o->interval_ns && !o->agg_bw_log)
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->states = calloc(n + 1, 1);
	s->line_ios = calloc(n, sizeof(*s->line_ios));
	s->line_bytes = calloc(n, sizeof(*s->line_bytes));
	s->iv_ios = calloc(n, sizeof(*s->iv_ios));
	s->iv_bytes = calloc(n, sizeof(*s->iv_bytes));
	s->iv_clat = calloc(n, sizeof(*s->iv_clat));
	if (!s->states || !s->line_ios || !s->line_bytes || !s->iv_ios || !s->iv_bytes ||
	    !s->iv_clat || (o->interval_ns && !o->delta && status_report_init(&s->report, r) < 0)) {
		status_free(s);
		return -ENOMEM;
	}
	s->run = r;
	s->o = *o;
	s->line_on = line_on;
	s->start_ns = s->last_line_ns = s->last_iv_ns = clock_mono_ns();
	s->next_line = s->start_ns + o->eta_interval_ns;
	s->next_newline = s->start_ns + o->eta_newline_ns;
	s->next_interval = s->start_ns + o->interval_ns;
	agg_bw_init(&s->agg, r, s->start_ns);
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
	/*
	 * The last line stays and the report starts below it, unless it showed no job
	 * running: "Jobs: 0 (f=0)" says nothing, and a sweep left one behind every cell.
	 */
	if (s->line_on && s->last_len && s->last_running)
		fputc('\n', s->o.eta_out);
	else if (s->line_on && s->last_len)
		fprintf(s->o.eta_out, "%*s\r", (int)s->last_len, "");
	if (s->line_on && s->last_len)
		fflush(s->o.eta_out);
	if (s->o.agg_bw_log)
		agg_bw_write(&s->agg, s->o.eta_out);
	status_free(s);
	r->status = NULL;
}
