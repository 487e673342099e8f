/* A job's thread set up as its options ask: CPUs, NUMA, nice, cgroup, scheduler, ids. */
#include "engine/thread/thread_env.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <numa.h>
#include <numaif.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/thread/cgroup.h"
#include "engine/devices/iosched.h"
#include "engine/devices/path_guard.h"
#include "jobs/opt_thread.h"
#include "base/diag.h"

extern char **environ;

/*
 * libnuma reports through these weak hooks on stderr; iojob checks every result itself
 * and says what failed in the job's own message, so they stay quiet.
 */
void numa_warn(int num, char *fmt, ...);
void numa_error(char *where);

void numa_warn(int num, char *fmt, ...)
{
	(void)num, (void)fmt;
}

void numa_error(char *where)
{
	(void)where;
}

/* A node list libnuma takes, naming nodes that exist; NULL (with d set) if not. */
static struct bitmask *parse_nodes(const struct job_desc *j, const char *opt,
				   const char *nodes, struct diag *d)
{
	struct bitmask *m;

	if (numa_available() < 0) {
		job_fail_opt(j, opt, d, "this system has no NUMA support (get_mempolicy(2) fails)");
		return NULL;
	}
	m = numa_parse_nodestring(nodes);
	if (!m)
		job_fail_opt(j, opt, d,
			     "'%s' names a node this machine lacks (its nodes are 0 to %d)",
			     nodes, numa_max_node());
	return m;
}

static int check_numa(const struct job_desc *j, struct diag *d)
{
	struct bitmask *m;

	if (j->numa_cpu_nodes) {
		if (!(m = parse_nodes(j, "numa_cpu_nodes", j->numa_cpu_nodes, d)))
			return -EINVAL;
		numa_free_nodemask(m);
	}
	if (j->numa_mem_nodes) {
		if (!(m = parse_nodes(j, "numa_mem_policy", j->numa_mem_nodes, d)))
			return -EINVAL;
		numa_free_nodemask(m);
	}
	if (job_setting(j, "numa_mem_policy") && !j->numa_mem_nodes && numa_available() < 0)
		return job_fail_opt(j, "numa_mem_policy", d, "this system has no NUMA support "
				    "(get_mempolicy(2) fails)");
	return 0;
}

/* Every device under the job's files offers the scheduler. */
static int check_scheduler(const struct job_desc *j, const struct io_file *f, unsigned n,
			   struct diag *d)
{
	char sched[512], offered[256];
	int ret;

	if (!n)
		return job_fail_opt(j, "ioscheduler", d,
				    "ioengine %s uses no files, so there is no "
				    "device to switch", j->ioengine);
	for (unsigned i = 0; i < n; i++) {
		ret = iosched_file(f[i].path, sched, sizeof(sched));
		if (ret == -ENODEV)
			return job_fail_opt(j, "ioscheduler", d,
					    "'%s' is on no block device, so it has "
					    "no I/O scheduler to switch", f[i].path);
		if (ret < 0)
			return job_fail_opt(j, "ioscheduler", d,
					    "cannot find the device under '%s': %s",
					    f[i].path, strerror(-ret));
		ret = iosched_offered(sched, j->ioscheduler, offered, sizeof(offered));
		if (ret == -ENOENT)
			return job_fail_opt(j, "ioscheduler", d,
					    "the device under '%s' offers only: %s",
					    f[i].path, offered);
		if (ret < 0)
			return job_fail_opt(j, "ioscheduler", d, "cannot read '%s': %s", sched,
					    strerror(-ret));
	}
	return 0;
}

int thread_env_prepare(const struct job_desc *j, const struct io_file *f, unsigned n,
		       struct thread_env *env, struct diag *d)
{
	int ret;

	ret = check_numa(j, d);
	if (!ret && j->ioscheduler)
		ret = check_scheduler(j, f, n, d);
	if (!ret)
		ret = cgroup_prepare(j, env, d);
	return ret;
}

void thread_env_free(struct thread_env *env)
{
	cgroup_release(env);
}

unsigned thread_env_cpus(const struct job_desc *j, cpu_set_t *set)
{
	uint64_t cpus[JOB_CPU_WORDS];
	unsigned n = 0;

	job_cpus_for(j, cpus);
	CPU_ZERO(set);
	for (unsigned c = 0; c < JOB_CPU_WORDS * 64 && c < CPU_SETSIZE; c++)
		if (cpus[c / 64] >> (c % 64) & 1) {
			CPU_SET(c, set);
			n++;
		}
	return n;
}

static int set_cpus(const struct job_desc *j, char *msg, size_t len)
{
	cpu_set_t set;

	if (!j->ncpus_allowed)
		return 0;
	thread_env_cpus(j, &set);
	/* pid 0: the calling thread alone */
	if (sched_setaffinity(0, sizeof(set), &set) == 0)
		return 0;
	snprintf(msg, len, "job '%s': cpus_allowed: sched_setaffinity: %s%s", j->name,
		 strerror(errno), errno == EINVAL ? " (none of the CPUs is online or allowed "
		 "to this process)" : "");
	return -errno;
}

/* numa_mem_policy: the thread's own policy, set_mempolicy(2) being per thread. */
static int set_mem_policy(const struct job_desc *j, char *msg, size_t len)
{
	struct bitmask *m = NULL;
	int ret = 0, mode;

	if (!job_setting(j, "numa_mem_policy"))
		return 0;
	if (j->numa_mem_nodes && !(m = numa_parse_nodestring(j->numa_mem_nodes)))
		ret = -EINVAL;
	mode = j->numa_mem_mode == NUMA_MEM_PREFER ? MPOL_PREFERRED :
	       j->numa_mem_mode == NUMA_MEM_BIND ? MPOL_BIND :
	       j->numa_mem_mode == NUMA_MEM_INTERLEAVE ? MPOL_INTERLEAVE :
	       j->numa_mem_mode == NUMA_MEM_LOCAL ? MPOL_LOCAL : MPOL_DEFAULT;
	if (!ret && set_mempolicy(mode, m ? m->maskp : NULL, m ? m->size + 1 : 0) < 0)
		ret = -errno;
	if (m)
		numa_free_nodemask(m);
	if (ret)
		snprintf(msg, len, "job '%s': numa_mem_policy: set_mempolicy: %s", j->name,
			 strerror(-ret));
	return ret;
}

static int set_numa(const struct job_desc *j, char *msg, size_t len)
{
	struct bitmask *m;
	int ret = 0;

	if (j->numa_cpu_nodes) {
		m = numa_parse_nodestring(j->numa_cpu_nodes);
		/* the thread's affinity: the CPUs of the nodes, after cpus_allowed as in fio */
		if (!m || numa_run_on_node_mask(m) < 0)
			ret = m ? -errno : -EINVAL;
		if (m)
			numa_free_nodemask(m);
		if (ret) {
			snprintf(msg, len, "job '%s': numa_cpu_nodes: numa_run_on_node_mask: %s",
				 j->name, strerror(-ret));
			return ret;
		}
	}
	return set_mem_policy(j, msg, len);
}

/* nice: Linux keeps the nice value per thread, and nice(3) changes the caller's. */
static int set_nice(const struct job_desc *j, char *msg, size_t len)
{
	if (!j->nice)
		return 0;
	errno = 0;
	if (nice(j->nice) != -1 || !errno)
		return 0;
	snprintf(msg, len, "job '%s': nice=%d: %s%s", j->name, j->nice, strerror(errno),
		 errno == EPERM ? " (a negative nice needs root)" : "");
	return -errno;
}

static int switch_scheduler(const struct job_desc *j, const struct io_file *f, unsigned n,
			    char *msg, size_t len)
{
	char sched[512];
	int ret;

	for (unsigned i = 0; j->ioscheduler && i < n; i++) {
		ret = iosched_file(f[i].path, sched, sizeof(sched));
		if (!ret)
			ret = iosched_switch(sched, j->ioscheduler);
		if (ret < 0) {
			snprintf(msg, len, "job '%s': ioscheduler=%s on the device under '%s': %s",
				 j->name, j->ioscheduler, f[i].path, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/* gid first: once the uid is not root, the thread may no longer change its group. */
static int set_ids(const struct job_desc *j, char *msg, size_t len)
{
	const char *what = NULL;

	if (job_setting(j, "gid") &&
	    syscall(SYS_setresgid, j->gid, j->gid, j->gid) < 0)
		what = "gid";
	else if (job_setting(j, "uid") &&
		 syscall(SYS_setresuid, j->uid, j->uid, j->uid) < 0)
		what = "uid";
	if (!what)
		return 0;
	snprintf(msg, len, "job '%s': %s=%u: %s%s", j->name, what,
		 what[0] == 'g' ? j->gid : j->uid, strerror(errno),
		 errno == EPERM ? " (only root may change its ids)" : "");
	return -errno;
}

int thread_env_enter(const struct job_desc *j, const struct io_file *f, unsigned n,
		     char *msg, size_t len)
{
	int ret;

	/* comm=: the kernel keeps 15 characters; a name cannot fail but for a bad pointer */
	if (j->comm)
		prctl(PR_SET_NAME, (unsigned long)j->comm, 0, 0, 0);
	ret = set_cpus(j, msg, len);
	if (!ret)
		ret = set_numa(j, msg, len);
	if (!ret && j->cgroup)
		ret = cgroup_join(j, msg, len);
	if (!ret)
		ret = set_nice(j, msg, len);
	if (!ret)
		ret = switch_scheduler(j, f, n, msg, len);
	if (!ret)
		ret = set_ids(j, msg, len);
	return ret;
}

/* sh -c cmd with fd (NAME.prerun.txt or NAME.postrun.txt) as its stdout and stderr. */
static int spawn_sh(const char *cmd, int fd, pid_t *pid)
{
	const char *argv[] = { "sh", "-c", cmd, NULL };
	posix_spawn_file_actions_t fa;
	int ret;

	ret = posix_spawn_file_actions_init(&fa);
	if (!ret)
		ret = posix_spawn_file_actions_adddup2(&fa, fd, 1);
	if (!ret)
		ret = posix_spawn_file_actions_adddup2(&fa, fd, 2);
	if (!ret)
		ret = posix_spawn(pid, "/bin/sh", &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return -ret;
}

int thread_env_exec(const struct job_desc *j, bool post, char *msg, size_t len)
{
	const char *cmd = post ? j->exec_postrun : j->exec_prerun;
	const char *opt = post ? "exec_postrun" : "exec_prerun";
	char out[4096], why[512];
	int status, fd, ret;
	pid_t pid;

	if (!cmd)
		return 0;
	snprintf(out, sizeof(out), "%s.%s.txt", j->name, post ? "postrun" : "prerun");
	/* opened here, through the guard of every output, and handed to the child */
	fd = path_open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644, why, sizeof(why));
	if (fd < 0) {
		snprintf(msg, len, "job '%s': %s: '%s': %s", j->name, opt, out, why);
		return fd;
	}
	ret = spawn_sh(cmd, fd, &pid);
	close(fd);
	while (!ret && waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			ret = -errno;
	if (ret) {
		snprintf(msg, len, "job '%s': %s: cannot run sh: %s", j->name, opt,
			 strerror(-ret));
		return ret;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status))
		snprintf(msg, len, "job '%s': %s: the command exited with status %d (its output "
			 "is in %s)", j->name, opt, WEXITSTATUS(status), out);
	else
		snprintf(msg, len, "job '%s': %s: the command was killed by signal %d", j->name,
			 opt, WTERMSIG(status));
	return -ECHILD;
}
