/*
 * sysbench fileio's mode names (rw=seqwr, seqrewr, seqrd, rndrd, rndwr, rndrw) bring its
 * semantics where they differ from fio's, as defaults the job can still override.
 */
#ifndef JOBS_SYSBENCH_MODES_H
#define JOBS_SYSBENCH_MODES_H

#include <stdbool.h>

#include "jobs/job.h"

/*
 * After the job's own options: when rw is a sysbench mode name, set what sysbench does for
 * every option of its semantics that the job did not set itself.
 */
void sysbench_mode_defaults(struct job_desc *j);

/* Whether the job's rw is one of sysbench's mode names. */
bool sysbench_mode_named(const struct job_desc *j);

#endif
