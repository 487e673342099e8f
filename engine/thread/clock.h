/*
 * The clock of the I/O path: the CPU's time-stamp counter when it is invariant and the
 * kernel trusts it across CPUs (about 9-11 ns a read), else clock_gettime(MONOTONIC)
 * (about 20-26 ns). Timestamps stay in ticks in the hot path and become nanoseconds per
 * sample with one multiply.
 */
#ifndef ENGINE_THREAD_CLOCK_H
#define ENGINE_THREAD_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include "base/units.h"

struct clock_src {
	bool tsc;
	uint64_t mult;		/* ns = ticks * mult >> 32 (2^32 for clock_gettime) */
	uint64_t hz;		/* ticks per second */
	const char *name;	/* "tsc" or "clock_gettime" */
	const char *why;	/* why the TSC is not used, NULL when it is */
};

/*
 * Which clock to pick: the TSC where the kernel trusts it (its own clocksource), always
 * clock_gettime, or the TSC wherever the CPU says it is invariant (clocksource=cpu, as
 * fio's: a VM's kernel may distrust it for reasons of its own, such as migration).
 */
enum clock_pick { CLOCK_PICK_AUTO, CLOCK_PICK_GETTIME, CLOCK_PICK_CPU };

/*
 * Pick and calibrate the clock (about 20 ms against CLOCK_MONOTONIC). IOJOB_CLOCK=gettime
 * in the environment makes every pick clock_gettime.
 */
void clock_init(struct clock_src *c, enum clock_pick pick);

/*
 * A reading of c, whose kind tsc is (c->tsc): a loop chosen once per job passes it as a
 * constant, and the test per reading goes away.
 */
static inline __attribute__((always_inline)) uint64_t clock_ticks_as(bool tsc)
{
#if defined(__x86_64__) || defined(__i386__)
	if (tsc)
		return __rdtsc();
#endif
	(void)tsc;
	return clock_mono_ns();
}

static inline uint64_t clock_ticks(const struct clock_src *c)
{
	return clock_ticks_as(c->tsc);
}

/* Without a test of the clock's kind: clock_gettime's mult is 2^32, and ticks are ns. */
static inline uint64_t clock_to_ns(const struct clock_src *c, uint64_t ticks)
{
	__extension__ unsigned __int128 p = (unsigned __int128)ticks * c->mult;

	return (uint64_t)(p >> 32);
}

/*
 * The fewest ticks that clock_to_ns() reads as at least ns: the inverse of its multiply,
 * rounded up, so that a deadline of ns ticks is never measured short (a 200 ms job's
 * runtime_ns is 200000000 or more, never 199999999). Not for the per-I/O path: a divide.
 */
static inline uint64_t clock_from_ns(const struct clock_src *c, uint64_t ns)
{
	__extension__ unsigned __int128 p;

	if (!c->tsc)
		return ns;
	p = ((unsigned __int128)ns << 32) + c->mult - 1;
	return (uint64_t)(p / c->mult);
}

#endif
