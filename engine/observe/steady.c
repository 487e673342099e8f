/*
 * steadystate's watcher: a thread per phase that wakes each steadystate_check_interval (a
 * second by default; one for the phase, its last job's, as fio keeps one for the run),
 * turns each job's published counts into the IOPS and bandwidth since its last reading,
 * as fio's helper thread does (1000 * count / whole milliseconds), and the mean completion
 * latency of the I/Os since (fio HEAD's lat criteria), and feeds the windows. The rates run
 * from publication to publication (the job publishes about every 10 ms, with the time),
 * so they are the job's own, not skewed by when this thread happened to look.
 */
#include "engine/observe/steady.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "engine/observe/steady_window.h"
#include "engine/thread/wake.h"
#include "base/units.h"

/* One job with a steady-state window, as fio's struct steadystate_data keeps it. */
struct steady_job {
	unsigned index;			/* in the run's jobs */
	bool has_data;			/* the window is kept here (the group's last job) */
	bool ramp_over, attained;
	struct ss_window win;
	uint64_t epoch_ns;		/* the job's start as last read; a new one: a new start */
	uint64_t prev_ios, prev_bytes, prev_ns, prev_clat;	/* the last reading */
};

struct steady {
	struct run *r;
	struct steady_job *jobs;	/* the phase's jobs with a window, in the run's order */
	unsigned n;
	uint64_t interval_ns;		/* steadystate_check_interval */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool quit;			/* under lock */
};

/* What a job published, all of one publication. */
struct reading {
	uint64_t ios, bytes, clat_ns, pub_ns, epoch_ns;
};

/* An interval's rates and mean completion latency, summed over a group's jobs. */
struct rates {
	uint64_t iops, bw, clat_ns, ios;
	unsigned over;			/* jobs whose ramp is over */
};

static void read_job(struct job_progress *p, struct reading *v)
{
	unsigned s1, s2;

	do {
		s1 = atomic_load_explicit(&p->pub_seq, memory_order_acquire);
		v->ios = v->bytes = v->clat_ns = 0;
		for (int d = 0; d < IO_NDIR; d++) {
			v->ios += atomic_load_explicit(&p->ios[d], memory_order_acquire);
			v->bytes += atomic_load_explicit(&p->bytes[d], memory_order_acquire);
			v->clat_ns += atomic_load_explicit(&p->clat_sum_ns[d],
							   memory_order_acquire);
		}
		v->pub_ns = atomic_load_explicit(&p->pub_ns, memory_order_acquire);
		v->epoch_ns = atomic_load_explicit(&p->epoch_ns, memory_order_acquire);
		s2 = atomic_load_explicit(&p->pub_seq, memory_order_relaxed);
	} while ((s1 & 1) || s1 != s2);
}

/* count per second between two readings ms apart, as fio's integers have it */
static uint64_t per_sec(uint64_t count, uint64_t ms)
{
	return ms ? 1000 * count / ms : 0;
}

/*
 * Job sj's rates since its last reading, added to its group's when its ramp is over
 * (fio's steadystate_ramp_time: samples count from an interval after it).
 */
static void sample(struct steady_job *sj, const struct job_desc *j, const struct reading *v,
		   uint64_t interval_ns, struct rates *g)
{
	uint64_t ms;

	if (v->epoch_ns != sj->epoch_ns) {
		/* it began, or its ramp_time ended and its counts restarted: from zero then */
		sj->epoch_ns = sj->prev_ns = v->epoch_ns;
		sj->prev_ios = sj->prev_bytes = sj->prev_clat = 0;
	}
	if (!sj->ramp_over && v->pub_ns - sj->epoch_ns >= j->ss_ramp_ns + interval_ns)
		sj->ramp_over = true;
	ms = (v->pub_ns - sj->prev_ns) / NS_PER_MSEC;
	if (sj->ramp_over) {
		g->bw += per_sec(v->bytes - sj->prev_bytes, ms);
		g->iops += per_sec(v->ios - sj->prev_ios, ms);
		g->clat_ns += v->clat_ns - sj->prev_clat;
		g->ios += v->ios - sj->prev_ios;
		g->over++;
	}
	sj->prev_ios = v->ios;
	sj->prev_bytes = v->bytes;
	sj->prev_clat = v->clat_ns;
	sj->prev_ns = v->pub_ns;
}

/* Steady state is attained: end the job, or under group_reporting every job of its group. */
static void attain(struct steady *s, const struct job_desc *j, unsigned index)
{
	const struct job_list *jobs = s->r->jobs;

	for (unsigned k = 0; k < s->n; k++)
		if (s->jobs[k].index == index ||
		    (j->group_reporting && jobs->jobs[s->jobs[k].index].groupid == j->groupid))
			s->jobs[k].attained = true;
	for (unsigned i = 0; i < jobs->njobs; i++)
		if (i == index || (j->group_reporting && jobs->jobs[i].groupid == j->groupid))
			atomic_store(&s->r->results[i].halt, true);
	wake_all(&s->r->wake);	/* a rate-limited job ends now, not after its pause */
}

/*
 * One interval's look at every job, in fio's order: a job that is not running, or that
 * attained, is passed over; under group_reporting the jobs of a group add their rates
 * (and latencies, weighted by their I/Os) and the group's last job judges the sum.
 */
static void check(struct steady *s)
{
	struct rates g = { 0 };
	int group = -1;

	for (unsigned k = 0; k < s->n; k++) {
		struct steady_job *sj = &s->jobs[k];
		const struct job_desc *j = &s->r->jobs->jobs[sj->index];
		struct job_progress *p = &s->r->results[sj->index].progress;
		int state = atomic_load_explicit(&p->state, memory_order_acquire);
		struct reading v;

		if (sj->attained || (state != JOB_RAMPING && state != JOB_RUNNING))
			continue;
		if (!j->group_reporting || j->groupid != group)
			g = (struct rates){ 0 };
		group = j->groupid;
		read_job(p, &v);
		sample(sj, j, &v, s->interval_ns, &g);
		if ((j->group_reporting && !sj->has_data) || !g.over)
			continue;
		if (ss_window_add(&sj->win, g.iops, g.bw, g.ios ? g.clat_ns / g.ios : 0))
			attain(s, j, sj->index);
	}
}

static void *steady_thread(void *arg)
{
	struct steady *s = arg;
	uint64_t next = clock_mono_ns() + s->interval_ns;

	pthread_mutex_lock(&s->lock);
	while (!s->quit) {
		struct timespec at = { (time_t)(next / NS_PER_SEC), (long)(next % NS_PER_SEC) };
		uint64_t now;

		if (pthread_cond_timedwait(&s->wake, &s->lock, &at) != ETIMEDOUT)
			continue;	/* told to quit, or woken early */
		check(s);	/* under the lock: steady_snapshot() reads the windows */
		now = clock_mono_ns();
		next += s->interval_ns;
		if (next <= now)
			next = now + s->interval_ns;	/* far behind: from now, no burst */
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/*
 * Which jobs keep a window, as fio's steadystate_setup() picks them: each job without
 * group_reporting, and of those with it the last of each group.
 */
static void pick_keepers(struct steady *s)
{
	const struct job_desc *jobs = s->r->jobs->jobs;
	struct steady_job *last = NULL;
	int group = -1;

	for (unsigned k = 0; k < s->n; k++) {
		const struct job_desc *j = &jobs[s->jobs[k].index];

		if (!j->group_reporting) {
			s->jobs[k].has_data = true;
			continue;
		}
		if (j->groupid != group) {
			if (last)
				last->has_data = true;
			group = j->groupid;
		}
		last = &s->jobs[k];
	}
	if (last && jobs[last->index].group_reporting)
		last->has_data = true;
}

static void steady_free(struct steady *s)
{
	for (unsigned k = 0; k < s->n; k++)
		ss_window_free(&s->jobs[k].win);
	free(s->jobs);
	free(s);
}

/* The windows, the lock and the condition the thread waits on; 0 or -errno. */
static int steady_init(struct steady *s)
{
	const struct job_desc *jobs = s->r->jobs->jobs;
	pthread_condattr_t attr;
	int ret;

	pick_keepers(s);
	/* one interval for the phase, its last job's, as fio keeps one (global) for the run */
	for (unsigned k = 0; k < s->n; k++)
		s->interval_ns = jobs[s->jobs[k].index].ss_interval_ns;
	for (unsigned k = 0; k < s->n; k++) {
		const struct job_desc *j = &jobs[s->jobs[k].index];
		uint64_t samples = j->ss_dur_ns / s->interval_ns;

		s->jobs[k].ramp_over = !j->ss_ramp_ns;
		/* a job whose own interval was shorter keeps at least one sample */
		if (s->jobs[k].has_data &&
		    ss_window_init(&s->jobs[k].win, j->ss_flags, j->ss_limit,
				   samples ? (unsigned)samples : 1) < 0)
			return -ENOMEM;
	}
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);	/* clock_mono_ns()'s deadlines */
	ret = pthread_cond_init(&s->wake, &attr);
	pthread_condattr_destroy(&attr);
	if (ret)
		return -ret;
	pthread_mutex_init(&s->lock, NULL);
	ret = pthread_create(&s->thread, NULL, steady_thread, s);
	if (ret) {
		pthread_mutex_destroy(&s->lock);
		pthread_cond_destroy(&s->wake);
	}
	return -ret;
}

int steady_start(struct run *r, unsigned phase, struct steady **out)
{
	const struct job_list *jobs = r->jobs;
	struct steady *s;
	int ret;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->r = r;
	s->jobs = calloc(jobs->njobs, sizeof(*s->jobs));
	if (!s->jobs) {
		free(s);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < jobs->njobs; i++)
		if (jobs->jobs[i].phase == phase && jobs->jobs[i].ss_dur_ns)
			s->jobs[s->n++].index = i;
	ret = s->n ? steady_init(s) : 0;
	if (ret || !s->n) {
		steady_free(s);
		return ret;
	}
	*out = s;
	return 0;
}

/* What the report shows of a window: fio's figures, the samples oldest first. */
static struct report_ss *verdict(const struct steady_job *sj, const struct job_desc *j)
{
	const struct ss_window *w = &sj->win;
	struct report_ss *rs = malloc(sizeof(*rs) + 3 * (size_t)w->dur * sizeof(uint64_t));

	if (!rs)
		return NULL;
	*rs = (struct report_ss){
		.of_iops = j->ss_flags & SS_IOPS, .of_lat = j->ss_flags & SS_LAT,
		.by_slope = j->ss_flags & SS_SLOPE,
		.pct = j->ss_flags & SS_PCT, .limit = j->ss_limit, .attained = sj->attained,
		.criterion = w->criterion, .max_deviation = w->deviation, .slope = w->slope,
		.duration = (unsigned)(j->ss_dur_ns / NS_PER_SEC), .samples = w->dur,
	};
	rs->iops = (uint64_t *)(rs + 1);
	rs->bw = rs->iops + w->dur;
	rs->lat = rs->bw + w->dur;
	ss_window_ordered(w, sj->attained, rs->iops, rs->bw, rs->lat);
	return rs;
}

struct report_ss *steady_snapshot(struct steady *s, unsigned index)
{
	struct report_ss *rs = NULL;

	pthread_mutex_lock(&s->lock);
	for (unsigned k = 0; k < s->n; k++)
		if (s->jobs[k].index == index && s->jobs[k].has_data)
			rs = verdict(&s->jobs[k], &s->r->jobs->jobs[index]);
	pthread_mutex_unlock(&s->lock);
	return rs;
}

void steady_stop(struct steady *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->quit = true;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->wake);
	for (unsigned k = 0; k < s->n; k++)
		if (s->jobs[k].has_data)
			s->r->results[s->jobs[k].index].ss =
				verdict(&s->jobs[k], &s->r->jobs->jobs[s->jobs[k].index]);
	steady_free(s);
}
