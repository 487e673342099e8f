/*
 * Units and counts every layer uses: time in nanoseconds and the length of a table.
 * Part of base/, which includes nothing above it.
 */
#ifndef BASE_UNITS_H
#define BASE_UNITS_H

#define NS_PER_USEC	1000ULL
#define NS_PER_MSEC	1000000ULL
#define NS_PER_SEC	1000000000ULL
#define USEC_PER_SEC	1000000ULL
#define USEC_PER_MSEC	1000ULL
#define MSEC_PER_SEC	1000ULL

/* The number of entries of an array (not a pointer). */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#endif
