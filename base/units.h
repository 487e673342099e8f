/*
 * Units and counts every layer uses: time in nanoseconds, the monotonic clock in them, and
 * the length of a table.
 * Part of base/, which includes nothing above it.
 */
#ifndef BASE_UNITS_H
#define BASE_UNITS_H

#include <stdint.h>
#include <time.h>

#define NS_PER_USEC	1000ULL
#define NS_PER_MSEC	1000000ULL
#define NS_PER_SEC	1000000000ULL
#define USEC_PER_SEC	1000000ULL
#define USEC_PER_MSEC	1000ULL
#define MSEC_PER_SEC	1000ULL

/* CLOCK_MONOTONIC in nanoseconds: for timing outside the I/O path (engine/thread/clock.h's is). */
static inline uint64_t clock_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* The number of entries of an array (not a pointer). */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#endif
