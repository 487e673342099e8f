/*
 * Time in a job's run: when measuring starts (after ramp_time), the deadlines looked at
 * between I/Os (runtime, bw/iops windows, the stop flag), and what holds I/O back (rate
 * limits, thinktime, a pending fsync).
 */
#include "engine/pace.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "base/units.h"
#include "engine/account.h"
#include "engine/engine.h"
#include "engine/io_plan.h"

#define STOP_POLL_NS	(10 * NS_PER_MSEC)	/* how often a job looks at the stop flag */

/*
 * The bw or iops sample window, as fio picks it: with that log written, log_avg_msec
 * unless the job set bwavgtime/iopsavgtime itself; 0 (log_avg_msec=0) samples every I/O.
 */
static uint64_t sample_window_ns(const struct job_desc *j, const char *option,
				 const char *log, uint64_t avg_ns)
{
	if (!log || job_setting(j, option))
		return avg_ns;
	return j->log_avg_ns;
}

void pace_init(struct worker *w)
{
	const struct job_desc *j = w->job;
	struct pace *p = &w->pace;

	p->bw_ticks = clock_from_ns(w->clk, sample_window_ns(j, "bwavgtime", j->bw_log,
							      j->bw_avg_ns));
	p->iops_ticks = clock_from_ns(w->clk, sample_window_ns(j, "iopsavgtime", j->iops_log,
								j->iops_avg_ns));
	p->think_left = j->thinktime_blocks;
	p->rated = false;
	for (int d = 0; d < IO_NDIR; d++)
		p->rated |= j->rate[d] || j->rate_iops[d];
	p->gated = p->rated || j->thinktime_ns || j->fsync_every || j->fdatasync_every ||
		   j->fsync_every_ios;
}

void pace_update(struct worker *w)
{
	struct pace *p = &w->pace;
	uint64_t t = p->t_next_stop;

	if (p->ramping && p->t_ramp_end < t)
		t = p->t_ramp_end;
	if (!p->ramping) {
		if (w->logs && logs_next_deadline(w) < t)
			t = logs_next_deadline(w);
		if (p->t_end < t)
			t = p->t_end;
		if (p->t_next_bw < t)
			t = p->t_next_bw;
		if (p->t_next_iops < t)
			t = p->t_next_iops;
	}
	p->t_next_check = t;
}

/* The measured phase starts now: at the job's start, or when ramp_time is over. */
void pace_start(struct worker *w)
{
	const struct job_desc *j = w->job;
	struct pace *p = &w->pace;
	uint64_t now = w->now;

	if (p->ramping) {
		uint64_t inflight_dir[IO_NDIR];

		/* I/Os in flight now complete into the new statistics: count them as issued. */
		req_queue_count_busy(&w->q, inflight_dir);
		stats_restart(w->st);
		worker_prio_layout(w);
		memcpy(w->st->issued, inflight_dir, sizeof(inflight_dir));
		p->ramping = false;
	}
	getrusage(RUSAGE_THREAD, &p->ru_start);
	p->t_start = now;
	p->t_end = j->runtime_ns ? now + clock_from_ns(w->clk, j->runtime_ns) : UINT64_MAX;
	p->bw_win_start = p->iops_win_start = now;
	/* a window of 0: every I/O is a sample, taken with its log entry (logs_io) */
	p->t_next_bw = p->bw_ticks ? now + p->bw_ticks : UINT64_MAX;
	p->t_next_iops = p->iops_ticks ? now + p->iops_ticks : UINT64_MAX;
	memset(p->bw_win_bytes, 0, sizeof(p->bw_win_bytes));
	memset(p->iops_win_ios, 0, sizeof(p->iops_win_ios));
	memset(p->rate_bytes, 0, sizeof(p->rate_bytes));
	memset(p->rate_ios, 0, sizeof(p->rate_ios));
	if (w->logs)
		logs_start(w);
	if (w->progress) {
		atomic_store(&w->progress->start_ns, clock_mono_ns());
		atomic_store(&w->progress->budget_bytes,
			     plan_budget_bytes(w));
	}
	pace_publish(w, JOB_RUNNING);
	pace_update(w);
}

/* Tell the status line what the job has done (relaxed: it only wants recent numbers). */
void pace_publish(struct worker *w, int state)
{
	struct job_progress *p = w->progress;

	if (!p)
		return;
	for (int d = 0; d < IO_NDIR; d++) {
		atomic_store_explicit(&p->ios[d], w->st->dir[d].ios, memory_order_relaxed);
		atomic_store_explicit(&p->bytes[d], w->st->dir[d].bytes, memory_order_relaxed);
		atomic_store_explicit(&p->clat_sum_ns[d], w->st->dir[d].clat.sum,
				      memory_order_relaxed);
	}
	atomic_store_explicit(&p->state, state, memory_order_release);
}

/* Deadlines, looked at only when the clock passed the earliest of them. */
void pace_tick(struct worker *w)
{
	struct pace *p = &w->pace;

	if (w->now >= p->t_next_stop) {
		if (worker_stopped(w))
			w->issuing = false;
		p->t_next_stop = w->now + clock_from_ns(w->clk, STOP_POLL_NS);
		pace_publish(w, p->ramping ? JOB_RAMPING : JOB_RUNNING);
		run_status_answer(w);
	}
	if (p->ramping && w->now >= p->t_ramp_end)
		pace_start(w);
	if (!p->ramping) {
		if (w->now >= p->t_end)
			w->issuing = false;
		if (w->now >= p->t_next_bw)
			account_window(w, true, &p->bw_win_start, &p->t_next_bw, p->bw_ticks,
				       p->bw_win_bytes);
		if (w->now >= p->t_next_iops)
			account_window(w, false, &p->iops_win_start, &p->t_next_iops,
				       p->iops_ticks, p->iops_win_ios);
		if (w->logs && w->now >= logs_next_deadline(w))
			logs_tick(w);
	}
	pace_update(w);
}

/*
 * Sleep ns, then read the clock: what is created next was created after the pause.
 * nanosleep wakes late (timer slack, then the scheduler: 30 to 80 us on a VM, which at
 * thinktime=1ms is 8% fewer I/Os), so the sleep is shortened by the lateness seen so far,
 * averaged over the last pauses: the pauses then last ns on average.
 */
void pace_sleep(struct worker *w, uint64_t ns)
{
	struct pace *p = &w->pace;
	uint64_t ask = ns > p->sleep_late_ns ? ns - p->sleep_late_ns : 0, t0, slept;
	struct timespec ts = { (time_t)(ask / NS_PER_SEC), (long)(ask % NS_PER_SEC) };

	t0 = clock_ticks(w->clk);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
	w->now = clock_ticks(w->clk);
	slept = clock_to_ns(w->clk, w->now - t0);
	p->sleep_late_ns = pace_late_update(p->sleep_late_ns, ask, slept);
}

uint64_t pace_late_update(uint64_t late_ns, uint64_t asked_ns, uint64_t slept_ns)
{
	/* an eighth of the way to each new lateness; waking early (a signal) counts as 0 */
	uint64_t late = slept_ns > asked_ns ? slept_ns - asked_ns : 0;

	/* a stall (the host descheduled us for a second) must not shorten every later pause */
	if (late > PACE_LATE_MAX_NS)
		late = PACE_LATE_MAX_NS;
	return late_ns - late_ns / 8 + late / 8;
}

/*
 * Rate limits: the next I/O of direction d may start once the bytes (or I/Os) issued so
 * far fit the rate, elapsed ns into the run. Returns how many ns to wait, 0 to go now.
 */
static uint64_t rate_wait(const struct worker *w, int d, uint64_t elapsed)
{
	const struct job_desc *j = w->job;
	const struct pace *p = &w->pace;
	uint64_t due = 0;

	if (j->rate[d])
		due = (uint64_t)((unsigned __int128)p->rate_bytes[d] * NS_PER_SEC / j->rate[d]);
	else if (j->rate_iops[d])
		due = (uint64_t)((unsigned __int128)p->rate_ios[d] * NS_PER_SEC / j->rate_iops[d]);
	return due > elapsed ? due - elapsed : 0;
}

/*
 * Whether a pending fsync, thinktime or a rate limit holds the next I/O back. They need
 * the queue drained, or time to pass: with nothing in flight, this sleeps instead.
 */
bool pace_held_back(struct worker *w)
{
	const struct job_desc *j = w->job;
	struct pace *p = &w->pace;
	bool sync_due = plan_sync_due(&w->plan);
	uint64_t wait, elapsed;
	int d;

	if (sync_due || (j->thinktime_ns && !p->think_left)) {
		if (req_queue_busy(&w->q))
			return true;
		if (sync_due)
			return false;
		pace_sleep(w, j->thinktime_ns);
		p->think_left = j->thinktime_blocks;
		return false;
	}
	if (!p->rated)
		return false;
	d = plan_next_dir(w);
	elapsed = clock_to_ns(w->clk, clock_ticks(w->clk) - p->t_start);
	wait = rate_wait(w, d, elapsed);
	/*
	 * A mixed job whose chosen direction is over its rate issues the other one if that
	 * one may go sooner, as fio does: each direction then reaches its own cap, and
	 * rwmixread only picks between directions that both may go.
	 */
	if (wait && rw_is_mixed(j->rw)) {
		int other = d == IO_READ ? IO_WRITE : IO_READ;
		uint64_t other_wait = rate_wait(w, other, elapsed);

		if (other_wait < wait) {
			plan_set_next_dir(w, other);
			wait = other_wait;
		}
	}
	if (!wait)
		return false;
	if (req_queue_busy(&w->q))
		return true;
	pace_sleep(w, wait);
	return false;
}

void pace_begin(struct worker *w)
{
	const struct job_desc *j = w->job;
	struct pace *p = &w->pace;

	w->now = clock_ticks(w->clk);
	if (w->t_go && w->t_go < w->now)
		w->now = w->t_go;	/* measure from the phase's start */
	p->t_next_stop = w->now + clock_from_ns(w->clk, STOP_POLL_NS);
	p->ramping = j->ramp_time_ns > 0;
	p->t_ramp_end = w->now + clock_from_ns(w->clk, j->ramp_time_ns);
	p->t_start = w->now;
	if (!p->ramping) {
		pace_start(w);
		return;
	}
	getrusage(RUSAGE_THREAD, &p->ru_start);
	p->t_end = UINT64_MAX;
	pace_publish(w, JOB_RAMPING);
	pace_update(w);
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * NS_PER_SEC + (uint64_t)tv->tv_usec * NS_PER_USEC;
}

void pace_end(struct worker *w)
{
	pace_measure(w, w->st);
}

void pace_measure(const struct worker *w, struct job_stats *st)
{
	const struct rusage *r0 = &w->pace.ru_start;
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	st->usr_ns = tv_ns(&ru.ru_utime) - tv_ns(&r0->ru_utime);
	st->sys_ns = tv_ns(&ru.ru_stime) - tv_ns(&r0->ru_stime);
	st->ctx = (uint64_t)(ru.ru_nvcsw + ru.ru_nivcsw - r0->ru_nvcsw - r0->ru_nivcsw);
	st->majf = (uint64_t)(ru.ru_majflt - r0->ru_majflt);
	st->minf = (uint64_t)(ru.ru_minflt - r0->ru_minflt);
	st->runtime_ns = clock_to_ns(w->clk, w->now - w->pace.t_start);
}
