/*
 * Time in a job's run: when measuring starts (after ramp_time), the deadlines looked at
 * between I/Os (runtime, bw/iops windows, the stop flag), and what holds I/O back (rate
 * limits, thinktime, a pending fsync).
 */
#include "engine/loop/pace.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <sched.h>
#include <string.h>
#include <time.h>

#include "base/units.h"
#include "engine/loop/account.h"
#include "engine/engine.h"
#include "engine/plan/io_plan.h"
#include "engine/loop/lat_target.h"
#include "engine/plan/replay.h"

#define STOP_POLL_NS	(10 * NS_PER_MSEC)	/* how often a job looks at the stop flag */
#define MIN_SETTLE_NS	(2 * NS_PER_SEC)	/* rate_min is not checked before this, as fio */

static const char *const pace_dir_name[IO_NDIR] = { "reads", "writes", "trims" };

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
	p->thinking = j->thinktime_ns > 0;
	/* thinktime_iotime alone: the default thinktime_blocks=1 would pause after each I/O */
	p->think_by_blocks = !j->thinktime_iotime_ns || job_setting(j, "thinktime_blocks");
	p->think_cycle_ticks = j->thinktime_iotime_ns ?
		clock_from_ns(w->clk, j->thinktime_iotime_ns + j->thinktime_ns) : 0;
	p->think_spins = j->thinkcycles;
	p->spin_owed = false;
	p->rated = false;
	p->poisson = j->rate_process == RATE_POISSON;
	for (int d = 0; d < IO_NDIR; d++) {
		p->rated |= j->rate[d] || j->rate_iops[d];
		p->rate_gap_ns[d] = pace_rate_gap_ns(j, d);
	}
	rng_seed(&p->rng, j->randseed ^ 0x9a7e5ULL ^ (uint64_t)j->jobnum << 32);
	p->gated = p->rated || p->thinking || p->think_spins || j->fsync_every ||
		   j->fdatasync_every || j->fsync_every_ios || w->flow ||
		   (j->replay && !j->replay_no_stall);
}

uint64_t pace_rate_gap_ns(const struct job_desc *j, int d)
{
	if (j->rate_iops[d])
		return NS_PER_SEC / j->rate_iops[d];
	if (j->rate[d])
		return (uint64_t)((unsigned __int128)j->bs[d].min * NS_PER_SEC / j->rate[d]);
	return 0;
}

uint64_t pace_exp_gap_ns(uint64_t mean_ns, double u)
{
	/* u in [0, 1): 1 - u in (0, 1], whose -log is an exponential draw of mean 1 */
	return (uint64_t)((double)mean_ns * -log(1.0 - u));
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
		if (p->t_next_min < t)
			t = p->t_next_min;
		if (w->lat && lat_target_deadline(w) < t)
			t = lat_target_deadline(w);
	}
	p->t_next_check = t;
}

static bool rate_min_wanted(const struct job_desc *j)
{
	for (int d = 0; d < IO_NDIR; d++)
		if (j->rate_min[d] || j->rate_iops_min[d])
			return true;
	return false;
}

/*
 * Measuring starts (again) now: the statistics afresh when fresh (they hold ramp_time's or
 * latency_target's search), the logs too when logs_too.
 */
static void measure_from_now(struct worker *w, bool fresh, bool logs_too)
{
	const struct job_desc *j = w->job;
	struct pace *p = &w->pace;
	uint64_t now = w->now;

	if (fresh) {
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
	memset(p->poisson_due_ns, 0, sizeof(p->poisson_due_ns));
	memset(p->poisson_ios, 0, sizeof(p->poisson_ios));
	memset(p->rate_skip_ns, 0, sizeof(p->rate_skip_ns));
	p->t_next_min = rate_min_wanted(j) ? now + clock_from_ns(w->clk, MIN_SETTLE_NS) :
					     UINT64_MAX;
	p->t_min_mark = 0;
	p->think_mark = 0;	/* the completions are counted afresh, from here */
	p->t_think = now;
	if (w->logs && logs_too)
		logs_start(w);
	if (w->progress) {
		atomic_store(&w->progress->start_ns, clock_mono_ns());
		atomic_store(&w->progress->budget_bytes,
			     plan_budget_bytes(w));
	}
	pace_publish(w, JOB_RUNNING);
}

/* The measured phase starts now: at the job's start, or when ramp_time is over. */
void pace_start(struct worker *w)
{
	measure_from_now(w, w->pace.ramping, true);
	if (w->lat)
		lat_target_start(w);
	pace_update(w);
}

/*
 * latency_target settled: as fio, its last window's statistics are the job's, the runtime
 * counts from here, and the logs keep what the search logged. Nothing is in flight.
 */
void pace_restart(struct worker *w)
{
	measure_from_now(w, true, false);
	pace_update(w);
}

/*
 * Tell the status line and steadystate what the job has done, and when: release stores,
 * plain ones on x86, inside pub_seq's odd and even marks (engine.h says why).
 */
void pace_publish(struct worker *w, int state)
{
	struct job_progress *p = w->progress;
	unsigned seq;

	if (!p)
		return;
	seq = atomic_load_explicit(&p->pub_seq, memory_order_relaxed);
	atomic_store_explicit(&p->pub_seq, seq + 1, memory_order_relaxed);
	for (int d = 0; d < IO_NDIR; d++) {
		atomic_store_explicit(&p->ios[d], w->st->dir[d].ios, memory_order_release);
		atomic_store_explicit(&p->bytes[d], w->st->dir[d].bytes, memory_order_release);
		/* the fast latencies are in the histogram alone until the end */
		atomic_store_explicit(&p->clat_sum_ns[d], w->st->dir[d].clat.sum +
				      stats_exact_clat_sum(&w->st->dir[d].clat_hist),
				      memory_order_release);
	}
	atomic_store_explicit(&p->pub_ns, clock_to_ns(w->clk, w->now), memory_order_release);
	atomic_store_explicit(&p->epoch_ns, clock_to_ns(w->clk, w->pace.t_start),
			      memory_order_release);
	atomic_store_explicit(&p->pub_seq, seq + 2, memory_order_release);
	atomic_store_explicit(&p->state, state, memory_order_release);
}

/*
 * rate_min, rate_iops_min, as fio checks them: the first check marks what each direction
 * has done; each one after it, a rate_cycle or more later, fails the job when a direction
 * that had done some I/O by the last mark did less than its floor since.
 */
static void rate_min_check(struct worker *w)
{
	const struct job_desc *j = w->job;
	struct pace *p = &w->pace;
	uint64_t spent = p->t_min_mark ? clock_to_ns(w->clk, w->now - p->t_min_mark) : 0;

	for (int d = 0; spent && d < IO_NDIR; d++) {
		const struct dir_stats *ds = &w->st->dir[d];
		uint64_t got;

		if (!p->min_bytes[d] && !p->min_ios[d])
			continue;
		if (j->rate_min[d]) {
			got = pace_per_sec(ds->bytes - p->min_bytes[d], spent);
			if (got < j->rate_min[d])
				worker_fail(w, EIO, "rate_min=%" PRIu64 " B/s not met: %" PRIu64
					    " B/s of %s over the last %" PRIu64 " ms", j->rate_min[d],
					    got, pace_dir_name[d], (uint64_t)(spent / NS_PER_MSEC));
		} else if (j->rate_iops_min[d]) {
			got = pace_per_sec(ds->ios - p->min_ios[d], spent);
			if (got < j->rate_iops_min[d])
				worker_fail(w, EIO, "rate_iops_min=%" PRIu64 " not met: %" PRIu64
					    " IOPS of %s over the last %" PRIu64 " ms",
					    j->rate_iops_min[d], got, pace_dir_name[d],
					    (uint64_t)(spent / NS_PER_MSEC));
		}
	}
	for (int d = 0; d < IO_NDIR; d++) {
		p->min_bytes[d] = w->st->dir[d].bytes;
		p->min_ios[d] = w->st->dir[d].ios;
	}
	p->t_min_mark = w->now;
	p->t_next_min = w->now + clock_from_ns(w->clk, (uint64_t)j->rate_cycle_ms * NS_PER_MSEC);
}

void pace_floor_off(struct worker *w)
{
	w->pace.t_next_min = UINT64_MAX;
	pace_update(w);
}

uint64_t pace_per_sec(uint64_t count, uint64_t ns)
{
	return ns ? (uint64_t)((unsigned __int128)count * NS_PER_SEC / ns) : 0;
}

/*
 * ramp_size, looked at with the stop flag (every 10 ms, as fio's helper thread looks):
 * the bytes done since the last look go to the group's count, and once it holds
 * ramp_size every job of the group measures from its next look.
 */
static bool ramp_size_done(struct worker *w)
{
	struct job_ramp *g = w->ramp;
	uint64_t mine = 0, add;

	for (int d = 0; d < IO_NDIR; d++)
		mine += w->st->dir[d].bytes;
	add = mine - w->pace.ramp_added;
	if (add && atomic_fetch_add(&g->bytes, add) + add >= w->job->ramp_size)
		atomic_store(&g->over, true);
	w->pace.ramp_added = mine;
	return atomic_load(&g->over);
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
	if (p->ramping && (w->now >= p->t_ramp_end || (w->ramp && ramp_size_done(w))))
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
		if (w->now >= p->t_next_min)
			rate_min_check(w);
		if (w->lat && w->now >= lat_target_deadline(w))
			lat_target_tick(w);
	}
	pace_update(w);
}

/* What ends a pause early, in ticks: the runtime's end, or the ramp's (the runtime's start). */
static uint64_t pause_limit(const struct pace *p)
{
	return p->ramping ? p->t_ramp_end : p->t_end;
}

/*
 * Sleep ns, then read the clock: what is created next was created after the pause.
 * A sleep wakes late (timer slack, then the scheduler: 30 to 80 us on a VM, which at
 * thinktime=1ms is 8% fewer I/Os), so the sleep is shortened by the lateness seen so far,
 * averaged over the last pauses: the pauses then last ns on average.
 * No pause outlasts the runtime (a rate gap can be an hour) or a stop: the job ends then
 * (issuing false), without the I/O it waited for.
 */
void pace_sleep(struct worker *w, uint64_t ns)
{
	struct pace *p = &w->pace;
	uint64_t ask = ns > p->sleep_late_ns ? ns - p->sleep_late_ns : 0, t0, slept, limit;
	bool to_end = false;

	t0 = clock_ticks(w->clk);
	limit = pause_limit(p);
	if (limit != UINT64_MAX) {
		uint64_t left = limit > t0 ? clock_to_ns(w->clk, limit - t0) : 0;

		if (ns >= left) {
			ask = left;	/* to the end itself: not shortened, or it ends early */
			/*
			 * the runtime ends within the pause: the job ends after it, even where
			 * the wait's clock wakes it a hair before the job's clock says so
			 */
			to_end = !p->ramping;
		}
	}
	if (ask)
		worker_sleep(w, ask);
	w->now = clock_ticks(w->clk);
	slept = clock_to_ns(w->clk, w->now - t0);
	p->sleep_late_ns = pace_late_update(p->sleep_late_ns, ask, slept);
	if (worker_stopped(w) || to_end || (!p->ramping && w->now >= p->t_end))
		w->issuing = false;
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
 * far fit the rate, elapsed ns into the run (less the pauses rate_ignore_thinktime does
 * not catch up); with rate_process=poisson, once the sum of an exponential gap per I/O
 * issued has passed. Returns how many ns to wait, 0 to go now.
 */
static uint64_t rate_wait(struct worker *w, int d, uint64_t elapsed)
{
	const struct job_desc *j = w->job;
	struct pace *p = &w->pace;
	uint64_t due = 0;

	elapsed = elapsed > p->rate_skip_ns[d] ? elapsed - p->rate_skip_ns[d] : 0;
	if (p->poisson && p->rate_gap_ns[d]) {
		for (; p->poisson_ios[d] < p->rate_ios[d]; p->poisson_ios[d]++)
			p->poisson_due_ns[d] += pace_exp_gap_ns(p->rate_gap_ns[d],
								rng_unit(&p->rng));
		due = p->poisson_due_ns[d];
	} else if (j->rate[d]) {
		due = (uint64_t)((unsigned __int128)p->rate_bytes[d] * NS_PER_SEC / j->rate[d]);
	} else if (j->rate_iops[d]) {
		due = (uint64_t)((unsigned __int128)p->rate_ios[d] * NS_PER_SEC / j->rate_iops[d]);
	}
	return due > elapsed ? due - elapsed : 0;
}

/* Whether a rate limit holds the next I/O back; with nothing in flight it sleeps instead. */
static bool rate_held_back(struct worker *w)
{
	const struct job_desc *j = w->job;
	struct pace *p = &w->pace;
	uint64_t wait, elapsed;
	int d;

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
	return !w->issuing;	/* the runtime ended, or a stop, during the pause */
}

/* I/Os completed in the measured phase (or the ramp), for thinktime_blocks_type=complete. */
static uint64_t completed_ios(const struct worker *w)
{
	uint64_t n = 0;

	for (int d = 0; d < IO_NDIR; d++)
		n += w->st->dir[d].ios;
	return n;
}

/* Whether a thinktime pause is due: after thinktime_blocks I/Os, or thinktime_iotime. */
static bool think_due(const struct worker *w)
{
	const struct pace *p = &w->pace;

	if (p->think_cycle_ticks && w->now - p->t_think >= p->think_cycle_ticks)
		return true;
	if (!p->think_by_blocks)
		return false;
	if (w->job->thinktime_blocks_type == THINK_ISSUE)
		return !p->think_left;
	return completed_ios(w) - p->think_mark >= w->job->thinktime_blocks;
}

/*
 * A thinktime pause, nothing in flight: thinktime_spin of it spent spinning, the rest
 * asleep. rate_ignore_thinktime: the rates go on from where they were instead of catching
 * up, but for one gap, so that the first I/O after a long pause goes at once (as fio).
 */
static void think(struct worker *w)
{
	const struct job_desc *j = w->job;
	struct pace *p = &w->pace;
	uint64_t t0 = clock_ticks(w->clk), spin = j->thinktime_spin_ns, paused;

	if (spin > j->thinktime_ns)
		spin = j->thinktime_ns;
	if (spin) {
		uint64_t end = t0 + clock_from_ns(w->clk, spin);

		while ((w->now = clock_ticks(w->clk)) < end)
			;	/* the CPU time is the point: the job "works on the data" */
	}
	if (j->thinktime_ns > spin)
		pace_sleep(w, j->thinktime_ns - spin);
	paused = clock_to_ns(w->clk, w->now - t0);
	p->think_left = j->thinktime_blocks;
	p->think_mark = completed_ios(w);
	p->t_think = t0;
	if (!j->rate_ignore_thinktime)
		return;
	for (int d = 0; d < IO_NDIR; d++)
		p->rate_skip_ns[d] += p->poisson || paused < p->rate_gap_ns[d] ? paused :
				      paused - p->rate_gap_ns[d];
}

/* One step of a spin: the CPU's spin-wait hint, as fio's thinkcycles loop takes one. */
static inline void spin_step(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");	/* keeps the loop from being folded away */
#endif
}

/*
 * thinkcycles (fio HEAD): a fixed amount of work after each read or write, whatever the
 * clock says: that many spin-wait hints (x86 PAUSE, arm64 YIELD), so that a count costs
 * what it costs in fio on the same CPU.
 */
static void spin_cycles(struct worker *w)
{
	for (unsigned i = w->pace.think_spins; i; i--)
		spin_step();
	w->pace.spin_owed = false;
	w->now = clock_ticks(w->clk);
}

/*
 * flow: the job goes on while its share of the flow's I/Os is within its share of the
 * flow's weights (fio counts the flow from 1), and counts the I/O in both. Ahead, it waits
 * for what is in flight, then sleeps flow_sleep or yields, and asks again.
 */
static bool flow_held_back(struct worker *w)
{
	const struct job_desc *j = w->job;
	struct pace *p = &w->pace;
	uint64_t all = atomic_load_explicit(&w->flow->ios, memory_order_relaxed) + 1;
	uint64_t weights = atomic_load_explicit(&w->flow->weight, memory_order_relaxed);

	if ((unsigned __int128)p->flow_ios * weights <= (unsigned __int128)j->flow * all) {
		atomic_fetch_add_explicit(&w->flow->ios, 1, memory_order_relaxed);
		p->flow_ios++;
		return false;
	}
	if (req_queue_busy(&w->q))
		return true;
	if (j->flow_sleep_us) {
		pace_sleep(w, (uint64_t)j->flow_sleep_us * NS_PER_USEC);
	} else {
		sched_yield();
		w->now = clock_ticks(w->clk);
	}
	return true;
}

/*
 * Whether a pending fsync, thinktime, a rate limit or the flow holds the next I/O back.
 * They need the queue drained, or time to pass: with nothing in flight, this sleeps
 * instead, and only the flow may still hold the I/O back after that.
 */
bool pace_held_back(struct worker *w)
{
	struct pace *p = &w->pace;

	if (p->spin_owed)
		spin_cycles(w);
	if (plan_sync_due(&w->plan))
		return req_queue_busy(&w->q);
	if (p->thinking && think_due(w)) {
		if (req_queue_busy(&w->q))
			return true;
		think(w);
		if (!w->issuing)
			return true;	/* the runtime ended, or a stop, during the pause */
	}
	if (p->rated && rate_held_back(w))
		return true;
	if (w->plan.replay && replay_held_back(w))
		return true;	/* the log's time for the next entry has not come */
	return w->flow && flow_held_back(w);
}

/* The job's weight counts in its flow while it runs. */
static void flow_join(struct worker *w)
{
	if (w->flow)
		atomic_fetch_add(&w->flow->weight, w->job->flow);
}

/* Its I/Os and weight leave the flow with it: the others' shares are theirs alone again. */
static void flow_leave(struct worker *w)
{
	if (!w->flow)
		return;
	atomic_fetch_sub(&w->flow->ios, w->pace.flow_ios);
	atomic_fetch_sub(&w->flow->weight, w->job->flow);
}

void pace_begin(struct worker *w)
{
	const struct job_desc *j = w->job;
	struct pace *p = &w->pace;

	flow_join(w);
	w->now = clock_ticks(w->clk);
	if (w->t_go && w->t_go < w->now)
		w->now = w->t_go;	/* measure from the phase's start */
	p->t_next_stop = w->now + clock_from_ns(w->clk, STOP_POLL_NS);
	p->ramping = j->ramp_time_ns > 0 || j->ramp_size > 0;
	p->t_ramp_end = j->ramp_time_ns ? w->now + clock_from_ns(w->clk, j->ramp_time_ns) :
					  UINT64_MAX;
	p->ramp_added = 0;
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
	flow_leave(w);
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
