/*
 * What a run asks of the process's limits, reckoned before its threads start: the
 * descriptors it holds, the memory its jobs' buffers take, and which limit a failed thread
 * start ran into.
 */
#include "engine/run/needs.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "engine/thread/cgroup.h"
#include "engine/engine.h"
#include "output/num2str.h"
#include "base/diag.h"

/* A job thread's stack (run.c's THREAD_STACK): address space, touched only in part. */
#define STACK_BYTES	(256 * 1024)
#define BUF_ALIGN	4096	/* worker.c rounds each buffer up to this */

unsigned needs_open_fds(void)
{
	DIR *dir = opendir("/proc/self/fd");
	unsigned n = 0;

	if (!dir)
		return 3;	/* no /proc: stdin, stdout and stderr at least */
	while (readdir(dir))
		n++;
	closedir(dir);
	return n > 3 ? n - 3 : 0;	/* less ".", ".." and the directory's own */
}

unsigned needs_job_fds(const struct job_desc *j)
{
	/* the sample logs' files (clat, slat and lat for one prefix) while the job runs */
	unsigned n = (j->lat_log ? 3 : 0) + !!j->bw_log + !!j->iops_log + !!j->hist_log;

	return n + !!j->write_iolog + !!j->replay + !!j->mem_path;
}

/* "16TiB": a size as the report prints it, for a message. */
static const char *iec(uint64_t n, char *buf, size_t len)
{
	return num2str(n, N2S_FIGURES, 1, N2S_BYTE, buf, len);
}

/* The I/O buffers one job allocates for real (fio's too): iodepth of the largest block. */
static uint64_t job_buffers(const struct job_desc *j)
{
	uint64_t buf = (job_bs_max(j) + BUF_ALIGN - 1) & ~(uint64_t)(BUF_ALIGN - 1);
	unsigned __int128 n = (unsigned __int128)buf * j->iodepth;

	return n > UINT64_MAX / 2 ? UINT64_MAX / 2 : (uint64_t)n;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* A number in a cgroup v2 file of the process's cgroup ("max": none, UINT64_MAX). */
static uint64_t cgroup_value(const char *file)
{
	char self[4096], path[4200];
	uint64_t v = UINT64_MAX;
	FILE *f;

	if (cgroup_self(self, sizeof(self)) < 0)
		return v;
	snprintf(path, sizeof(path), "/sys/fs/cgroup%s/%s", self, file);
	if (!(f = fopen(path, "r")))
		return v;
	if (fscanf(f, "%" SCNu64, &v) != 1)
		v = UINT64_MAX;
	fclose(f);
	return v;
}

struct mem_room {
	uint64_t bytes;
	const char *what;
};

/* The least of what the machine, the cgroup and the limits on data let the buffers have. */
static struct mem_room mem_room(void)
{
	struct mem_room m = { UINT64_MAX, "" };
	uint64_t cg = cgroup_value("memory.max");
	struct sysinfo si;
	struct rlimit rl;

	if (sysinfo(&si) == 0) {
		m.bytes = add_sat((uint64_t)si.totalram * si.mem_unit,
				  (uint64_t)si.totalswap * si.mem_unit);
		m.what = "the machine's RAM and swap";
	}
	if (cg != UINT64_MAX && add_sat(cg, cgroup_value("memory.swap.max")) < m.bytes) {
		m.bytes = add_sat(cg, cgroup_value("memory.swap.max"));
		m.what = "the cgroup's memory.max and memory.swap.max";
	}
	if (getrlimit(RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < m.bytes) {
		m.bytes = rl.rlim_cur;
		m.what = "the data size limit (ulimit -d)";
	}
	return m;
}

int needs_check_memory(const struct run *r, struct diag *d)
{
	const struct job_list *jobs = r->jobs;
	uint64_t bufs = 0, space, top = 0;
	unsigned top_i = 0, clones;
	struct mem_room room = mem_room();
	struct rlimit rl;
	char a[32], b[32], c[32], e[32], each[48] = "";

	for (unsigned i = 0; i < jobs->njobs; i++) {
		uint64_t n = job_buffers(&jobs->jobs[i]);

		bufs = add_sat(bufs, n);
		if (n > top) {
			top = n;
			top_i = i;
		}
	}
	space = add_sat(bufs, (uint64_t)jobs->njobs * STACK_BYTES);
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    space > rl.rlim_cur && rl.rlim_cur < room.bytes) {
		bufs = space;	/* the stacks count against the address space too */
		room.bytes = rl.rlim_cur;
		room.what = "the address space limit (ulimit -v)";
	}
	if (bufs <= room.bytes)
		return 0;
	clones = jobs->jobs[top_i].numjobs;
	if (clones > 1)
		snprintf(each, sizeof(each), " in each of its %u clones", clones);
	return diag_set(d, -EINVAL, "the jobs need %s of I/O buffers and %s allows %s: job "
			"'%s' takes the most, %s (iodepth=%u x %s)%s; lower iodepth, bs or "
			"numjobs", iec(bufs, a, sizeof(a)), room.what, iec(room.bytes, b, sizeof(b)),
			jobs->jobs[top_i].name, iec(top, c, sizeof(c)), jobs->jobs[top_i].iodepth,
			iec(top / jobs->jobs[top_i].iodepth, e, sizeof(e)), each);
}

/* The tasks (threads) of processes whose real user is uid: what ulimit -u counts. */
static uint64_t user_tasks(uid_t uid)
{
	DIR *proc = opendir("/proc");
	struct dirent *e;
	uint64_t n = 0;

	if (!proc)
		return 0;
	while ((e = readdir(proc))) {
		char path[300], line[256];
		unsigned ruid = 0, threads = 0;
		bool mine = false;
		FILE *f;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/status", e->d_name);
		if (!(f = fopen(path, "r")))
			continue;	/* gone since */
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "Uid: %u", &ruid) == 1)
				mine = ruid == uid;
			else if (sscanf(line, "Threads: %u", &threads) == 1)
				break;
		fclose(f);
		n += mine ? threads : 0;
	}
	closedir(proc);
	return n;
}

const char *needs_thread_hint(int err, char *buf, unsigned len)
{
	struct rlimit rl;
	uint64_t tasks;

	if (err != EAGAIN)
		return "";
	/* root's threads are not held to it (CAP_SYS_RESOURCE) */
	if (getuid() != 0 && getrlimit(RLIMIT_NPROC, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (tasks = user_tasks(getuid())) + 1 >= rl.rlim_cur) {
		snprintf(buf, len, ": the user's processes and threads (%" PRIu64 ") are at its "
			 "limit of %llu: raise it (ulimit -u) or run fewer jobs", tasks,
			 (unsigned long long)rl.rlim_cur);
		return buf;
	}
	return ": each takes a task id and two mappings, see kernel.pid_max, "
	       "kernel.threads-max, vm.max_map_count and the cgroup's pids.max";
}
