/*
 * The parser of steadystate=, fio's steady-state criterion and limit (opt_def.parse's
 * contract); the duration and ramp are plain times in the option table.
 */
#ifndef JOBS_OPT_STEADY_H
#define JOBS_OPT_STEADY_H

#include <stddef.h>

#include "jobs/options.h"

/* What steadystate= takes, for --cmdhelp and the manual. */
#define SS_SYNTAX	"iops|iops_slope|bw|bw_slope|lat|lat_slope:LIMIT, LIMIT a number " \
			"(IOPS), a size (bw, bytes/s), a time (lat, us by default) or N% " \
			"of the window's mean"

/*
 * steadystate=CRITERION:LIMIT as fio reads it: iops or bw judge each sample's deviation
 * from the window's mean, iops_slope or bw_slope the least-squares slope; "N%" is a
 * percentage of the mean (fio reads "N%%", which bench-fio writes, as "N%"), otherwise
 * the limit is in IOPS or bytes per second (a size, as "10m").
 */
int opt_steadystate_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			  size_t whylen);

struct diag;
struct job_list;

/*
 * The steady-state options' rules for one job: a window of at least a second (fio takes
 * a sample a second and cuts the window to whole seconds: a note says so), and of two
 * seconds for a slope. Returns 0 or -EINVAL with d naming the job and the option.
 */
int job_check_steady(struct job_desc *j, struct diag *d);

/*
 * Across jobs, as fio 3.33 rules: every job of a reporting group has the same steady
 * state options (before holds the jobs built so far, j's group already set), and an MPI
 * run of several ranks has none (each rank would judge its own part alone). Returns 0 or
 * -EINVAL with d naming both jobs and the option.
 */
int job_check_steady_group(const struct job_list *before, const struct job_desc *j,
			   int nranks, struct diag *d);

#endif
