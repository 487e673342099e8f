/* A job's region on its target: offset, clones' increments and size, bytes or percentages. */
#include "engine/region.h"

#include "jobs/job.h"

/* pct percent of total, aligned down to align (0: not aligned). */
static uint64_t pct_of(double pct, uint64_t total, uint64_t align)
{
	uint64_t v = (uint64_t)((double)total * pct / 100.0);

	return align ? v - v % align : v;
}

uint64_t region_offset(const struct job_desc *j, uint64_t size)
{
	uint64_t bs = job_bs_min(j), off;

	off = j->offset.pct > 0 ? pct_of(j->offset.pct, size, bs) : j->offset.bytes;
	off += j->jobnum * (j->offset_increment.pct > 0 ?
			    pct_of(j->offset_increment.pct, size, bs) : j->offset_increment.bytes);
	return off;
}

uint64_t region_length(const struct job_desc *j, uint64_t size, uint64_t off, unsigned nfiles)
{
	if (j->size.pct > 0)
		return pct_of(j->size.pct, size, job_bs_min(j));
	if (j->size.bytes)
		return j->size.bytes / nfiles;
	return size > off ? size - off : 0;
}
