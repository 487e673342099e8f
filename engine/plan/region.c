/* A job's region on its target: offset, clones' increments and size, bytes or percentages. */
#include "engine/plan/region.h"

#include <stdbool.h>

#include "jobs/job.h"

/* pct percent of total, aligned down to align (0: not aligned). */
static uint64_t pct_of(double pct, uint64_t total, uint64_t align)
{
	uint64_t v = (uint64_t)((double)total * pct / 100.0);

	return align ? v - v % align : v;
}

/*
 * As fio's get_start_offset(): the percentages of offset and offset_increment are of the
 * target, truncated, and when either is one the sum is aligned up to offset_align (the
 * smallest block size by default); offsets in bytes are taken as they are.
 */
uint64_t region_offset(const struct job_desc *j, uint64_t size)
{
	uint64_t inc, off, align;
	bool aligned = false;

	if (j->offset_increment.pct > 0) {
		inc = pct_of(j->offset_increment.pct, size, 0);
		aligned = true;
	} else {
		inc = j->offset_increment.bytes;
	}
	if (j->offset.pct > 0) {
		off = pct_of(j->offset.pct, size, 0);
		aligned = true;
	} else {
		off = j->offset.bytes;
	}
	off += j->jobnum * inc;
	if (!aligned)
		return off;
	align = j->offset_align ? j->offset_align : job_bs_min(j);
	return (off + align - 1) / align * align;
}

uint64_t region_length(const struct job_desc *j, uint64_t size, uint64_t off, unsigned nfiles)
{
	if (j->size.pct > 0)
		return pct_of(j->size.pct, size, job_bs_min(j));
	if (j->size.bytes)
		return j->size.bytes / nfiles;
	return size > off ? size - off : 0;
}
