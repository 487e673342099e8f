/*
 * The header of the normal report: the line fio prints for each job when it parses the
 * job file, then what iojob says about the run before anything runs.
 */
#include "output/report.h"

#include "config.h"
#include "output/num2str.h"
#include "output/text.h"

void report_job_header(FILE *f, const char *name, int groupid, const char *rw,
		       const unsigned long long bs_min[STATS_NDIR],
		       const unsigned long long bs_max[STATS_NDIR],
		       const char *ioengine, unsigned iodepth, unsigned sig_figs)
{
	char lo[STATS_NDIR][32], hi[STATS_NDIR][32];
	unsigned i;

	for (i = 0; i < STATS_NDIR; i++) {
		num2str(bs_min[i], sig_figs, 1, N2S_BYTE, lo[i], sizeof(lo[i]));
		num2str(bs_max[i], sig_figs, 1, N2S_BYTE, hi[i], sizeof(hi[i]));
	}
	text_put_escaped(f, name);
	fprintf(f, ": (g=%d): rw=%s, bs=(R) %s-%s, (W) %s-%s, (T) %s-%s, ioengine=%s, "
		"iodepth=%u\n", groupid, rw, lo[0], hi[0], lo[1], hi[1], lo[2], hi[2],
		ioengine, iodepth);
}

void report_run_header(FILE *f, const struct report_header *h)
{
	fprintf(f, "%s\n", h->version ? h->version : "iojob-" IOJOB_VERSION);
	for (unsigned s = 0; s < h->nsets; s++)
		fprintf(f, "%s%s=%s%s", s ? ", " : "Overrides (--set): ", h->set_keys[s],
			h->set_values[s], s + 1 == h->nsets ? "\n" : "");
	if (h->ncell)
		fprintf(f, "Sweep (--sweep) %lu/%lu: ", h->cell_idx + 1, h->ncells);
	for (unsigned s = 0; s < h->ncell; s++)
		fprintf(f, "%s=%s%s", h->cell_keys[s], h->cell_values[s],
			s + 1 == h->ncell ? "\n" : ", ");
	if (h->tsc)
		fprintf(f, "Clock: tsc (%.0f MHz)", (double)h->tsc_hz / 1e6);
	else
		fprintf(f, "Clock: clock_gettime (%s)", h->clock_why);
	if (h->tsc && h->some_gettime)
		fprintf(f, "; clock_gettime where clocksource=clock_gettime");
	if (!h->tsc && h->some_cpu_tsc)
		fprintf(f, "; tsc (%.0f MHz) where clocksource=cpu", (double)h->tsc_hz / 1e6);
	fprintf(f, "\n");
	if (h->nranks > 1)
		fprintf(f, "Ranks: %d on %u host%s (MPI), each running the jobs below\n",
			h->nranks, h->nhosts, h->nhosts > 1 ? "s" : "");
	fprintf(f, "Starting %u thread%s\n", h->nthreads, h->nthreads > 1 ? "s" : "");
	fflush(f);
}
