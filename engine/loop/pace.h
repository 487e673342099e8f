/*
 * Time in a job's run, for engine/loop/loop.c: the start of the measured phase, deadlines
 * looked at between I/Os, and what holds the next I/O back. struct pace is the pacer's
 * part of struct worker, embedded in it; its members are pace.c's to change.
 */
#ifndef ENGINE_LOOP_PACE_H
#define ENGINE_LOOP_PACE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>

#include "base/units.h"
#include "engine/plan/offsets.h"
#include "jobs/job.h"

struct job_flow;
struct job_stats;
struct worker;

/* Times are in clock ticks (engine/thread/clock.h), durations given in ns say so. */
struct pace {
	uint64_t t_start;		/* measuring starts (after ramp); logs.c reads it */
	uint64_t t_end;			/* runtime limit, UINT64_MAX if none */
	uint64_t t_ramp_end;		/* UINT64_MAX with ramp_size */
	bool ramping;
	uint64_t ramp_added;		/* ramp_size: the bytes added to the group's count */
	bool gated;			/* rate, thinktime or fsync may hold the next I/O back */
	bool rated;			/* rate= or rate_iops= is set */
	unsigned think_left;		/* I/Os before the next thinktime pause */
	uint64_t sleep_late_ns;		/* how late nanosleep wakes, on average */
	uint64_t t_next_check;		/* earliest of the deadlines below */
	uint64_t t_next_bw, t_next_iops, t_next_stop;
	uint64_t bw_ticks, iops_ticks;	/* sample windows; 0: every I/O (logs.c reads them) */
	uint64_t bw_win_start, iops_win_start;
	uint64_t bw_win_bytes[IO_NDIR], iops_win_ios[IO_NDIR];
	uint64_t rate_bytes[IO_NDIR], rate_ios[IO_NDIR];	/* issued since t_start */
	struct rusage ru_start;

	/* rate_process, rate_ignore_thinktime: when the next rated I/O is due */
	bool poisson;
	uint64_t rate_gap_ns[IO_NDIR];	/* the mean time between two rated I/Os */
	uint64_t poisson_due_ns[IO_NDIR];	/* the sum of the gaps drawn so far */
	uint64_t poisson_ios[IO_NDIR];		/* I/Os those gaps were drawn for */
	uint64_t rate_skip_ns[IO_NDIR];	/* time of pauses the rate does not catch up */
	struct rng rng;			/* the gaps' draws */

	/* rate_min, rate_iops_min: a check every rate_cycle, the first 2 s after t_start */
	uint64_t t_next_min;		/* UINT64_MAX: no floor */
	uint64_t t_min_mark;		/* the last check */
	uint64_t min_bytes[IO_NDIR], min_ios[IO_NDIR];	/* done by then */

	/* thinktime_blocks_type, thinktime_iotime, thinktime_spin */
	bool thinking;			/* thinktime is set */
	bool think_by_blocks;		/* thinktime_blocks counts (not with thinktime_iotime
					 * alone) */
	uint64_t think_mark;		/* I/Os completed at the last pause (complete) */
	uint64_t t_think;		/* when the last pause began */
	uint64_t think_cycle_ticks;	/* thinktime_iotime + thinktime, 0: none */
	unsigned think_spins;		/* thinkcycles */
	bool spin_owed;			/* a read or write was issued since the last spin */

	/* flow: this job's I/Os counted in the flow it shares (worker's flow) */
	uint64_t flow_ios;
};

/* Set up from the job (sample windows, rate, thinktime) before the planner's plan_init(). */
void pace_init(struct worker *w);

/* The job starts now: read the clock, set the deadlines, start measuring or ramping. */
void pace_begin(struct worker *w);

/* Start measuring now (w->now): at the job's start, or when ramp_time is over. */
void pace_start(struct worker *w);

/* latency_target settled: the statistics and the runtime start again now, the logs go on. */
void pace_restart(struct worker *w);

/* The measured phase ends now (w->now): its runtime and the thread's CPU use in it. */
void pace_end(struct worker *w);

/* The same so far, into st (a copy of the job's statistics): from the job's thread only. */
void pace_measure(const struct worker *w, struct job_stats *st);

/* Recompute t_next_check, the earliest deadline. */
void pace_update(struct worker *w);

/* The clock passed t_next_check: stop flag, ramp end, runtime end, bw/iops windows. */
void pace_tick(struct worker *w);

/* Whether now passed the earliest deadline: pace_tick() is due. Once per I/O. */
static inline bool pace_due(const struct pace *p, uint64_t now)
{
	return now >= p->t_next_check;
}

/* Whether pace_held_back() need be asked at all before an I/O. */
static inline bool pace_gated(const struct pace *p)
{
	return p->gated;
}

/* The planner issued an I/O of direction d and len bytes: count it for rate and thinktime. */
static inline void pace_count_issue(struct pace *p, int d, uint32_t len)
{
	p->rate_bytes[d] += len;
	p->rate_ios[d]++;
	if (p->think_left)
		p->think_left--;
	p->spin_owed = p->think_spins && d != IO_TRIM;
}

/* The job's own I/O is over: end_fsync and verify's reads that follow have no rate_min. */
void pace_floor_off(struct worker *w);

/* Publish the job's progress and state (enum job_state) for the status line. */
void pace_publish(struct worker *w, int state);

/* Sleep ns on average (each sleep shortened by how late the last woke), then read the
 * clock into w->now. */
void pace_sleep(struct worker *w, uint64_t ns);

/* The most lateness one sleep may teach pace_sleep(): a stall is not the timer's. */
#define PACE_LATE_MAX_NS	NS_PER_MSEC

/*
 * The lateness pace_sleep() next subtracts: late_ns moved an eighth of the way to how
 * much longer than asked_ns the last sleep took (slept_ns), that capped at
 * PACE_LATE_MAX_NS.
 */
uint64_t pace_late_update(uint64_t late_ns, uint64_t asked_ns, uint64_t slept_ns);

/*
 * Whether a pending fsync, thinktime or a rate limit holds the next I/O back. They need
 * the queue drained, or time to pass: with nothing in flight this sleeps instead and
 * returns false.
 */
bool pace_held_back(struct worker *w);

/* The mean ns between two I/Os of direction d under rate or rate_iops (the smallest block
 * for rate, as fio); 0 when the direction has no rate. */
uint64_t pace_rate_gap_ns(const struct job_desc *j, int d);

/* rate_process=poisson's gap: an exponential draw of mean mean_ns from u, uniform in [0, 1). */
uint64_t pace_exp_gap_ns(uint64_t mean_ns, double u);

/* count per second over ns, 0 when ns is 0: rate_min's measure. */
uint64_t pace_per_sec(uint64_t count, uint64_t ns);

#endif
