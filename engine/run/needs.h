/*
 * What a run asks of the process's limits, reckoned before its threads start: descriptors,
 * memory, threads. The runner refuses a run that cannot fit instead of failing in each job.
 */
#ifndef ENGINE_RUN_NEEDS_H
#define ENGINE_RUN_NEEDS_H

#include <stdint.h>

struct diag;
struct job_desc;
struct run;

/* Descriptors the process holds open now (stdio, --output, the result set...). */
unsigned needs_open_fds(void);

/* Descriptors a job holds besides its files and its engine's: logs, iologs, mem= files. */
unsigned needs_job_fds(const struct job_desc *j);

/*
 * Refuse a run whose jobs' I/O buffers (iodepth of the largest block each, allocated for
 * real, as fio's) cannot fit in the RAM and swap of the machine, its cgroup's memory.max,
 * ulimit -d, or with the threads' stacks ulimit -v: -EINVAL (the job file asks for it)
 * with d naming the need, what there is and the biggest job. 0 when it may fit.
 */
int needs_check_memory(const struct run *r, struct diag *d);

/*
 * Why pthread_create() failed with err: a hint (": ...") naming the limit that was hit,
 * ulimit -u when the user's tasks are at it, else the kernel's; "" when err says it all.
 * Looks at every process: for an error path only.
 */
const char *needs_thread_hint(int err, char *buf, unsigned len);

#endif
