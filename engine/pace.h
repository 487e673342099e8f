/*
 * Time in a job's run, for engine/loop.c: the start of the measured phase, deadlines
 * looked at between I/Os, and what holds the next I/O back.
 */
#ifndef ENGINE_PACE_H
#define ENGINE_PACE_H

#include <stdbool.h>
#include <stdint.h>

struct worker;

/* The job starts now: read the clock, set the deadlines, start measuring or ramping. */
void pace_begin(struct worker *w);

/* Start measuring now (w->now): at the job's start, or when ramp_time is over. */
void pace_start(struct worker *w);

/* Recompute w->t_next_check, the earliest deadline. */
void pace_update(struct worker *w);

/* The clock passed t_next_check: stop flag, ramp end, runtime end, bw/iops windows. */
void pace_tick(struct worker *w);

/* Publish the job's progress and state (enum job_state) for the status line. */
void pace_publish(struct worker *w, int state);

/* Sleep ns on average (each sleep shortened by how late the last woke), then read the
 * clock into w->now. */
void pace_sleep(struct worker *w, uint64_t ns);

/* The most lateness one sleep may teach pace_sleep(): a stall is not the timer's. */
#define PACE_LATE_MAX_NS	1000000ULL

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

#endif
