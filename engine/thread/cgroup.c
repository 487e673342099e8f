/* cgroup=, cgroup_weight=, cgroup_nodelete=: a job's cgroup, v1 per thread or v2 per run. */
#include "engine/thread/cgroup.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/diag.h"

int cgroup_find_mount(const char *mounts, char *dir, size_t len, bool *v2)
{
	struct mntent m, *e;
	char buf[4096];
	FILE *f = setmntent(mounts, "r");
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while ((e = getmntent_r(f, &m, buf, sizeof(buf)))) {
		bool blkio = !strcmp(e->mnt_type, "cgroup") && hasmntopt(e, "blkio");

		if (!blkio && strcmp(e->mnt_type, "cgroup2"))
			continue;
		*v2 = !blkio;
		ret = snprintf(dir, len, "%s", e->mnt_dir) < (int)len ? 0 : -ENAMETOOLONG;
		break;
	}
	endmntent(f);
	return ret;
}


static int write_text(const char *dir, const char *name, const char *text)
{
	char path[512];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static int remember(struct thread_env *env, const char *dir, bool keep)
{
	char **made = realloc(env->made, (env->nmade + 1) * sizeof(*made));
	bool *kept;

	if (!made)
		return -ENOMEM;
	env->made = made;
	kept = realloc(env->keep, (env->nmade + 1) * sizeof(*kept));
	if (!kept)
		return -ENOMEM;
	env->keep = kept;
	if (!(made[env->nmade] = strdup(dir)))
		return -ENOMEM;
	kept[env->nmade++] = keep;
	return 0;
}

/* The cgroup's directory, made if it is not there; a kept one stays kept. */
static int make_dir(const struct job_desc *j, struct thread_env *env, const char *dir,
		    struct diag *d)
{
	for (unsigned i = 0; i < env->nmade; i++)
		if (!strcmp(env->made[i], dir)) {
			env->keep[i] |= j->cgroup_nodelete;
			return 0;
		}
	if (mkdir(dir, 0755) == 0)
		return remember(env, dir, j->cgroup_nodelete);
	if (errno == EEXIST)
		return 0;
	return job_fail_opt(j, "cgroup", d, "cannot create '%s': %s", dir, strerror(errno));
}

/* cgroup_weight: v1's blkio.weight, or BFQ's where that is the weight there is. */
static int set_weight(const struct job_desc *j, const struct thread_env *env, const char *dir,
		      struct diag *d)
{
	const char *names[] = { env->v2 ? "io.weight" : "blkio.weight",
				env->v2 ? "io.bfq.weight" : "blkio.bfq.weight" };
	char val[16];
	int ret = -ENOENT;

	snprintf(val, sizeof(val), "%u", j->cgroup_weight);
	for (unsigned i = 0; i < 2 && ret == -ENOENT; i++)
		ret = write_text(dir, names[i], val);
	if (ret == -ENOENT)
		return job_fail_opt(j, "cgroup_weight", d, "the cgroup has neither %s nor %s: this "
				    "kernel does not weigh its I/O", names[0], names[1]);
	if (ret < 0)
		return job_fail_opt(j, "cgroup_weight", d, "cannot set the weight of '%s': %s", dir,
				    strerror(-ret));
	return 0;
}

int cgroup_self(char *path, size_t len)
{
	char line[4096];
	FILE *f = fopen("/proc/self/cgroup", "r");
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (ret == -ENOENT && fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = '\0';
			ret = snprintf(path, len, "%s", line + 3) < (int)len ? 0 : -ENAMETOOLONG;
		}
	fclose(f);
	return ret;
}

/* v2: the process's cgroup now, under the mount. */
static int v2_home(struct thread_env *env)
{
	char self[4096];
	int ret = cgroup_self(self, sizeof(self));

	if (ret < 0)
		return ret;
	return asprintf(&env->v2_home, "%s%s", env->mount, self) < 0 ? -ENOMEM : 0;
}

static const char v2_rule[] = "cgroup v2 places whole processes, not threads (io is a "
	"domain controller), and every iojob job is a thread of one process: every job of the "
	"run must name the same cgroup (job '%s' names %s)";

/* v2: one cgroup for the whole run, and the process moved into it once. */
static int v2_move(const struct job_desc *j, struct thread_env *env, const char *dir,
		   struct diag *d)
{
	char quoted[300], pid[16];
	int ret;

	if (env->without)
		return job_fail_opt(j, "cgroup", d, v2_rule, env->without->name, "none");
	if (env->v2_cgroup && strcmp(env->v2_cgroup, j->cgroup)) {
		snprintf(quoted, sizeof(quoted), "'%s'", j->cgroup);
		return job_fail_opt(j, "cgroup", d, v2_rule, j->name, quoted);
	}
	if (env->v2_cgroup)
		return 0;
	ret = v2_home(env);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	if (!ret)
		ret = write_text(dir, "cgroup.procs", pid);
	if (ret < 0)
		return job_fail_opt(j, "cgroup", d, "cannot move the process into '%s': %s", dir,
				    strerror(-ret));
	env->v2_cgroup = j->cgroup;
	return 0;
}

int cgroup_prepare(const struct job_desc *j, struct thread_env *env, struct diag *d)
{
	char dir[512];
	int ret;

	if (!j->cgroup) {
		if (env->v2_cgroup) {
			char quoted[300];

			snprintf(quoted, sizeof(quoted), "'%s'", env->v2_cgroup);
			return job_fail_opt(j, "cgroup", d, v2_rule, "an earlier one", quoted);
		}
		if (!env->without)
			env->without = j;
		return 0;
	}
	if (!env->probed) {
		env->probed = true;
		if (cgroup_find_mount("/proc/mounts", env->mount, sizeof(env->mount), &env->v2))
			env->mount[0] = '\0';
	}
	if (!env->mount[0])
		return job_fail_opt(j, "cgroup", d,
				    "no blkio cgroup (v1) or cgroup2 file system is "
				    "mounted");
	snprintf(dir, sizeof(dir), "%s/%s", env->mount, j->cgroup);
	ret = make_dir(j, env, dir, d);
	if (!ret && j->cgroup_weight)
		ret = set_weight(j, env, dir, d);
	if (!ret && env->v2)
		ret = v2_move(j, env, dir, d);
	return ret;
}

int cgroup_join(const struct job_desc *j, char *msg, size_t len)
{
	char mount[256], dir[512], tid[16];
	bool v2;
	int ret;

	ret = cgroup_find_mount("/proc/mounts", mount, sizeof(mount), &v2);
	if (!ret && v2)
		return 0;
	snprintf(dir, sizeof(dir), "%s/%s", mount, j->cgroup);
	snprintf(tid, sizeof(tid), "%d", (int)gettid());
	if (!ret)
		ret = write_text(dir, "tasks", tid);
	if (ret < 0)
		snprintf(msg, len, "job '%s': cgroup: cannot join '%s': %s", j->name, dir,
			 strerror(-ret));
	return ret;
}

void cgroup_release(struct thread_env *env)
{
	char pid[16];

	if (env->v2_home) {
		snprintf(pid, sizeof(pid), "%d", (int)getpid());
		write_text(env->v2_home, "cgroup.procs", pid);
		free(env->v2_home);
	}
	/* v1: the jobs' threads have ended, and with them their membership */
	for (unsigned i = env->nmade; i-- > 0;) {
		if (!env->keep[i])
			rmdir(env->made[i]);
		free(env->made[i]);
	}
	free(env->made);
	free(env->keep);
	memset(env, 0, sizeof(*env));
}
