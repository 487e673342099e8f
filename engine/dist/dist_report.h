/*
 * The report of an MPI run: every rank's statistics merged job by job on the root into
 * the aggregate and one part per host, with each rank's start, waits and failures.
 */
#ifndef ENGINE_DIST_DIST_REPORT_H
#define ENGINE_DIST_DIST_REPORT_H

#include "engine/dist/dist.h"
#include "engine/engine.h"

struct dist_report {
	struct run_report agg;		/* on the root: what to print */
	struct run_report *host;	/* per host */
	unsigned nhosts;
	struct report *host_reps;
	struct report_rank *ranks;
	char (*rank_lists)[128];	/* per host: "0-1,4" */
	struct job_stats *agg_st, *host_st;
	struct job_result *host_results;	/* per host, per job */
	struct job_stats **own_st;	/* the run's own, put back before run_free() */
	char **failures;		/* the other ranks' failed jobs, "rank 2 (host b): ..." */
	unsigned nfailures;
	size_t failures_cap;
};

/*
 * Collective: every rank calls it after run_execute(). On the root, out->agg.rep is the
 * report to print and r's results hold the merged statistics and every rank's first
 * error, until dist_report_free(). Returns 0, or -ENOMEM on the root.
 */
int dist_report_build(const struct dist *d, struct run *r, struct dist_report *out);
void dist_report_free(struct dist_report *dr, struct run *r);

#endif
