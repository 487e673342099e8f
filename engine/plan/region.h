/*
 * The part of a target a job does I/O on, fio's way, from offset=, offset_increment= and
 * size=: the same arithmetic for a file or device (engine/plan/files.c) and for a striped
 * target (engine/stripe/stripe_target.c). Percentages are of the target's size.
 */
#ifndef ENGINE_PLAN_REGION_H
#define ENGINE_PLAN_REGION_H

#include <stdint.h>

struct job_desc;

/*
 * Where job j's region starts on a target of size bytes: offset= plus jobnum times
 * offset_increment=, each in bytes or a percentage; with a percentage the sum is aligned up
 * to offset_align (the smallest block size when 0), as fio aligns it.
 */
uint64_t region_offset(const struct job_desc *j, uint64_t size);

/*
 * How long it is from off: size= as a percentage (aligned likewise), else size= in bytes
 * split over nfiles targets, else what the target holds after off (0 past its end).
 */
uint64_t region_length(const struct job_desc *j, uint64_t size, uint64_t off, unsigned nfiles);

#endif
