/*
 * The line fio prints for each job when it parses the job file, before anything runs.
 */
#include "output/report.h"

#include "output/num2str.h"
#include "output/text.h"

void report_job_header(FILE *f, const char *name, int groupid, const char *rw,
		       const unsigned long long bs_min[STATS_NDIR],
		       const unsigned long long bs_max[STATS_NDIR],
		       const char *ioengine, unsigned iodepth)
{
	char lo[STATS_NDIR][32], hi[STATS_NDIR][32];
	unsigned i;

	for (i = 0; i < STATS_NDIR; i++) {
		num2str(bs_min[i], 4, 1, N2S_BYTE, lo[i], sizeof(lo[i]));
		num2str(bs_max[i], 4, 1, N2S_BYTE, hi[i], sizeof(hi[i]));
	}
	text_put_escaped(f, name);
	fprintf(f, ": (g=%d): rw=%s, bs=(R) %s-%s, (W) %s-%s, (T) %s-%s, ioengine=%s, "
		"iodepth=%u\n", groupid, rw, lo[0], hi[0], lo[1], hi[1], lo[2], hi[2],
		ioengine, iodepth);
}
