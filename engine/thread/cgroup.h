/*
 * cgroup= for a job that is a thread. fio's choice of hierarchy: the first blkio (v1) or
 * cgroup2 mount in /proc/mounts. In v1 a thread joins a cgroup alone (its tid in "tasks").
 * In v2 the io controller is a domain controller, which places whole processes: so the
 * whole process moves, before the jobs start, and every job of the run must name the
 * same cgroup (a job that names none would be put in it too).
 */
#ifndef ENGINE_THREAD_CGROUP_H
#define ENGINE_THREAD_CGROUP_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/thread/thread_env.h"

struct diag;

/*
 * The cgroup mount iojob uses, from a mounts file (/proc/mounts): its directory in dir,
 * whether it is v2 in *v2. Returns 0, -ENOENT when there is none, or -errno.
 */
int cgroup_find_mount(const char *mounts, char *dir, size_t len, bool *v2);

/*
 * For each job, in the runner: find the mount, make the job's cgroup if need be, set its
 * weight; in v2 check the rule above and move the process. 0 or -EINVAL with d set.
 */
/* The process's cgroup v2 path ("0::/path" in /proc/self/cgroup) into path: 0 or -errno. */
int cgroup_self(char *path, size_t len);

int cgroup_prepare(const struct job_desc *j, struct thread_env *env, struct diag *d);

/* In the job's thread: join its cgroup (v1; in v2 the process is in it already). */
int cgroup_join(const struct job_desc *j, char *msg, size_t len);

/* After the run: back to the v2 home, and the made cgroups removed but the kept ones. */
void cgroup_release(struct thread_env *env);

#endif
