/*
 * What a job's thread is given before its I/O, as fio gives a job's process: the CPUs it
 * runs on (cpus_allowed, cpumask, numa_cpu_nodes), its memory policy (numa_mem_policy),
 * its nice value, its cgroup, the I/O scheduler of its devices and its user and group
 * ids; and the commands run around its I/O (exec_prerun, exec_postrun). Linux keeps all
 * of these per thread except the scheduler, so each job has its own even though every job
 * is a thread of one process.
 */
#ifndef ENGINE_THREAD_THREAD_ENV_H
#define ENGINE_THREAD_THREAD_ENV_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#include "engine/ioengine.h"
#include "jobs/job.h"

struct diag;

/* What the run's cgroups need undone by thread_env_free(): engine/thread/cgroup.c fills it. */
struct thread_env {
	char **made;			/* cgroup directories the run created */
	bool *keep;			/* cgroup_nodelete=1 for it: left in place */
	unsigned nmade;
	bool probed;			/* the mount below is known */
	bool v2;			/* it is cgroup v2: processes move, not threads */
	char mount[256];		/* the blkio (v1) or cgroup2 mount, "" when none */
	const char *v2_cgroup;		/* v2: the one cgroup the process was moved to */
	char *v2_home;			/* v2: where it was before, to go back at the end */
	const struct job_desc *without;	/* a job that names no cgroup */
};

/*
 * Before any I/O, in the runner: the NUMA nodes exist, the cgroup mount is there and the
 * job's cgroup is made (if need be), each device under the n files (none for an engine
 * without files) offers the scheduler.
 * Returns 0, or -EINVAL (a job-file problem) with d naming the job and the option.
 */
int thread_env_prepare(const struct job_desc *j, const struct io_file *f, unsigned n,
		       struct thread_env *env, struct diag *d);

/* Move back from a v2 cgroup; remove the cgroups the run made but cgroup_nodelete's. */
void thread_env_free(struct thread_env *env);

/*
 * The job's CPUs as a cpu_set_t: cpus_allowed or cpumask, one of them with
 * cpus_allowed_policy=split. Returns how many.
 */
unsigned thread_env_cpus(const struct job_desc *j, cpu_set_t *set);

/*
 * In the job's thread, before it allocates or opens anything: affinity, NUMA, cgroup,
 * nice, I/O scheduler, then gid and uid (per thread: the raw setresgid/setresuid system
 * calls, not libc's, which change every thread). Returns 0, or -errno with msg saying
 * what failed.
 */
int thread_env_enter(const struct job_desc *j, const struct io_file *f, unsigned n,
		     char *msg, size_t len);

/*
 * exec_prerun (post false) or exec_postrun: sh -c CMD in the job's thread (so with its
 * ids, CPUs and nice value), stdout and stderr in NAME.prerun.txt or NAME.postrun.txt.
 * Returns 0 when there is none or it exited 0, else -ECHILD or -errno with msg set.
 */
int thread_env_exec(const struct job_desc *j, bool post, char *msg, size_t len);

#endif
