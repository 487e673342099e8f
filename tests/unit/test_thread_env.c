/*
 * Tests for engine/thread/'s thread_env.c and cgroup.c: what a job's thread is given before
 * its I/O. Each setting is applied in a thread of its own and read back there (affinity,
 * nice value, memory policy, user and group ids), and the test's main thread keeps its own:
 * Linux keeps them per thread, and so must iojob, whose jobs are threads of one process.
 * Root-only and NUMA-only cases say why they are left out where they cannot run.
 */
#include "engine/thread/thread_env.h"

#include <errno.h>
#include <numa.h>
#include <numaif.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <check.h>

#include "engine/thread/cgroup.h"
#include "engine/devices/iosched.h"
#include "engine/engine.h"
#include "jobs/jobs.h"
#include "base/diag.h"
#include "parser/jobfile.h"
#include "test_util.h"

/* Jobs built from job-file text, as a run would have them. */
struct built {
	struct engine_info engines[IOENGINE_MAX];
	struct jobfile jf;
	struct job_list jobs;
	struct diag d;
};

static int build(struct built *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int build(struct built *b, const char *fmt, ...)
{
	struct job_input in = { .cli_defaults = -1 };
	char text[2048];
	va_list ap;

	memset(b, 0, sizeof(*b));
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	ck_assert_msg(jobfile_parse_string(&b->jf, "t.fio", text, &b->d) == 0, "parse: %s",
		      b->d.msg);
	in.jf = &b->jf;
	in.engines = b->engines;
	in.nengines = engine_catalog(b->engines, IOENGINE_MAX);
	return jobs_build(&in, &b->jobs, &b->d);
}

static void built_free(struct built *b)
{
	jobs_free(&b->jobs);
	jobfile_free(&b->jf);
	diag_clear(&b->d);
}

/* What a thread that entered a job's environment saw of itself. */
struct seen {
	const struct job_desc *job;
	int ret;
	char msg[512];
	cpu_set_t cpus;
	int nice;
	uid_t ruid, euid, suid;
	gid_t rgid, egid, sgid;
	int mode;
	unsigned long nodes;
};

static void *enter_and_look(void *arg)
{
	struct seen *s = arg;

	s->ret = thread_env_enter(s->job, NULL, 0, s->msg, sizeof(s->msg));
	sched_getaffinity(0, sizeof(s->cpus), &s->cpus);
	errno = 0;
	s->nice = getpriority(PRIO_PROCESS, 0);
	getresuid(&s->ruid, &s->euid, &s->suid);
	getresgid(&s->rgid, &s->egid, &s->sgid);
	get_mempolicy(&s->mode, &s->nodes, sizeof(s->nodes) * 8, NULL, 0);
	return NULL;
}

/* Job 0 of the text entered in a new thread; what it saw in *s. */
static void enter_in_thread(const char *text, struct seen *s)
{
	struct built b;
	pthread_t t;

	ck_assert_msg(build(&b, "%s", text) == 0, "build: %s", b.d.msg);
	memset(s, 0, sizeof(*s));
	s->job = &b.jobs.jobs[0];
	ck_assert_int_eq(pthread_create(&t, NULL, enter_and_look, s), 0);
	pthread_join(t, NULL);
	ck_assert_msg(s->ret == 0, "thread_env_enter: %s", s->msg);
	built_free(&b);
}

static long cpus(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN);
}

START_TEST(split_gives_each_job_one_cpu_in_turn)
{
	struct built b;
	cpu_set_t set;

	if (cpus() < 2) {
		test_skipping("split", "needs 2 CPUs");
		return;
	}
	ck_assert_int_eq(build(&b, "[j]\nsize=1m\nnumjobs=3\ncpus_allowed=0-1\n"
			       "cpus_allowed_policy=split\n"), 0);
	for (unsigned i = 0; i < 3; i++) {
		ck_assert_uint_eq(thread_env_cpus(&b.jobs.jobs[i], &set), 1);
		ck_assert(CPU_ISSET(i % 2, &set));
	}
	built_free(&b);
	ck_assert_int_eq(build(&b, "[j]\nsize=1m\nnumjobs=2\ncpumask=3\n"), 0);
	ck_assert_uint_eq(thread_env_cpus(&b.jobs.jobs[1], &set), 2);
	built_free(&b);
}
END_TEST

START_TEST(affinity_is_the_threads_alone)
{
	cpu_set_t before, after;
	struct seen s;

	if (cpus() < 2) {
		test_skipping("affinity", "needs 2 CPUs");
		return;
	}
	sched_getaffinity(0, sizeof(before), &before);
	enter_in_thread("[j]\nsize=1m\ncpus_allowed=1\n", &s);
	ck_assert_int_eq(CPU_COUNT(&s.cpus), 1);
	ck_assert(CPU_ISSET(1, &s.cpus));
	sched_getaffinity(0, sizeof(after), &after);
	ck_assert(CPU_EQUAL(&before, &after));
}
END_TEST

START_TEST(nice_is_added_to_the_threads_alone)
{
	struct seen s;
	int mine = getpriority(PRIO_PROCESS, 0);

	enter_in_thread("[j]\nsize=1m\nnice=3\n", &s);
	ck_assert_int_eq(s.nice, mine + 3);
	ck_assert_int_eq(getpriority(PRIO_PROCESS, 0), mine);
}
END_TEST

START_TEST(ids_are_the_threads_alone)
{
	struct seen s;

	if (geteuid() != 0) {
		test_skipping("uid and gid", "needs root");
		return;
	}
	enter_in_thread("[j]\nsize=1m\nuid=65534\ngid=65533\n", &s);
	ck_assert(s.ruid == 65534 && s.euid == 65534 && s.suid == 65534);
	ck_assert(s.rgid == 65533 && s.egid == 65533 && s.sgid == 65533);
	/* libc's setuid() would have changed every thread; the raw system call does not */
	ck_assert_int_eq(geteuid(), 0);
	ck_assert_int_eq(getegid(), 0);
}
END_TEST

START_TEST(memory_policy_is_the_threads_alone)
{
	static const struct { const char *opt; int mode; } cases[] = {
		{ "bind:0", MPOL_BIND }, { "interleave", MPOL_INTERLEAVE },
		{ "prefer:0", MPOL_PREFERRED }, { "local", MPOL_LOCAL },
	};
	char text[128];
	struct seen s;
	int mode;

	if (numa_available() < 0) {
		test_skipping("numa_mem_policy", "no NUMA support");
		return;
	}
	snprintf(text, sizeof(text), "[j]\nsize=1m\nnuma_mem_policy=%s\n", cases[_i].opt);
	enter_in_thread(text, &s);
	ck_assert_int_eq(s.mode, cases[_i].mode);
	if (cases[_i].mode != MPOL_LOCAL)
		ck_assert_uint_eq(s.nodes & 1, 1);	/* node 0 */
	get_mempolicy(&mode, NULL, 0, NULL, 0);
	ck_assert_int_eq(mode, MPOL_DEFAULT);
}
END_TEST

START_TEST(numa_cpu_nodes_set_the_cpus_of_the_nodes)
{
	struct seen s;

	if (numa_available() < 0 || cpus() < 2) {
		test_skipping("numa_cpu_nodes", "no NUMA support or one CPU");
		return;
	}
	/* after cpus_allowed, as fio: node 0's CPUs replace CPU 1 alone */
	enter_in_thread("[j]\nsize=1m\ncpus_allowed=1\nnuma_cpu_nodes=0\n", &s);
	ck_assert(CPU_ISSET(0, &s.cpus));
}
END_TEST

START_TEST(a_node_the_machine_lacks_is_refused_before_the_run)
{
	struct thread_env env = { 0 };
	struct built b;
	char text[128];
	int ret;

	if (numa_available() < 0) {
		test_skipping("numa nodes", "no NUMA support");
		return;
	}
	snprintf(text, sizeof(text), "[j]\nsize=1m\n%s=%d\n",
		 _i ? "numa_mem_policy=bind:0\nnuma_cpu_nodes" : "numa_cpu_nodes",
		 numa_max_node() + 1);
	ck_assert_int_eq(build(&b, "%s", text), 0);
	ret = thread_env_prepare(&b.jobs.jobs[0], NULL, 0, &env, &b.d);
	ck_assert_int_eq(ret, -EINVAL);
	ck_assert_msg(strstr(b.d.msg, "names a node this machine lacks"), "%s", b.d.msg);
	thread_env_free(&env);
	built_free(&b);
}
END_TEST

/* A mounts file of these lines, in a scratch file; its path in path. */
static void mounts_file(char *path, size_t len, const char *lines)
{
	snprintf(path, len, "/tmp/iojob-mounts-%d", (int)getpid());
	ck_assert_int_eq(test_write_text(path, lines), 0);
}

START_TEST(cgroup_mount_is_the_first_blkio_or_cgroup2)
{
	char path[64], dir[256];
	bool v2;

	mounts_file(path, sizeof(path), "cgroup /c/cpu cgroup rw,cpu 0 0\n"
		    "cgroup /c/blkio cgroup rw,relatime,blkio 0 0\n"
		    "cgroup2 /c/unified cgroup2 rw 0 0\n");
	ck_assert_int_eq(cgroup_find_mount(path, dir, sizeof(dir), &v2), 0);
	ck_assert_str_eq(dir, "/c/blkio");
	ck_assert(!v2);
	mounts_file(path, sizeof(path), "cgroup /c/cpu cgroup rw,cpu 0 0\n"
		    "cgroup2 /sys/fs/cgroup cgroup2 rw 0 0\n");
	ck_assert_int_eq(cgroup_find_mount(path, dir, sizeof(dir), &v2), 0);
	ck_assert_str_eq(dir, "/sys/fs/cgroup");
	ck_assert(v2);
	mounts_file(path, sizeof(path), "cgroup /c/cpu cgroup rw,cpu 0 0\n");
	ck_assert_int_eq(cgroup_find_mount(path, dir, sizeof(dir), &v2), -ENOENT);
	unlink(path);
}
END_TEST

/* The "0::" line of /proc/self/cgroup: the process's cgroup v2. */
static void v2_cgroup_now(char *out, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "r");
	char line[512];

	out[0] = '\0';
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3))
			snprintf(out, len, "%.*s", (int)strcspn(line + 3, "\n"), line + 3);
	if (f)
		fclose(f);
}

/* A cgroup2 mount to try the v2 path on, whatever the first mount is; "" if none. */
static void find_v2(char *dir, size_t len)
{
	static const char *const places[] = { "/sys/fs/cgroup", "/sys/fs/cgroup/unified" };
	struct statfs fs;

	dir[0] = '\0';
	for (unsigned i = 0; i < 2; i++)
		if (statfs(places[i], &fs) == 0 && fs.f_type == 0x63677270 /* CGROUP2 */) {
			snprintf(dir, len, "%s", places[i]);
			return;
		}
}

START_TEST(cgroup_v2_moves_the_process_for_the_run)
{
	struct thread_env env = { 0 };
	char home[256], in[256], now[256], name[64], dir[512];
	struct built b;
	int ret, second;

	find_v2(env.mount, sizeof(env.mount));
	if (geteuid() != 0 || !env.mount[0]) {
		test_skipping("cgroup v2", "needs root and a cgroup2 mount");
		return;
	}
	env.probed = true;
	env.v2 = true;
	v2_cgroup_now(home, sizeof(home));
	snprintf(name, sizeof(name), "iojob-test-%d", (int)getpid());
	snprintf(dir, sizeof(dir), "%s/%s", env.mount, name);
	ck_assert_int_eq(build(&b, "[a]\nsize=1m\ncgroup=%s\n[b]\nsize=1m\ncgroup=%s-2\n",
			       name, name), 0);
	ret = thread_env_prepare(&b.jobs.jobs[0], NULL, 0, &env, &b.d);
	v2_cgroup_now(in, sizeof(in));
	/* a second job elsewhere cannot be: the process is in one cgroup */
	second = ret ? ret : thread_env_prepare(&b.jobs.jobs[1], NULL, 0, &env, &b.d);
	/* undone before any check can end the test in the cgroup */
	thread_env_free(&env);
	v2_cgroup_now(now, sizeof(now));
	ck_assert_msg(ret == 0, "prepare: %s", b.d.msg);
	ck_assert_str_eq(in + 1, name);
	ck_assert_int_eq(second, -EINVAL);
	ck_assert_msg(strstr(b.d.msg, "cgroup v2 places whole processes"), "%s", b.d.msg);
	ck_assert_str_eq(now, home);
	ck_assert_int_eq(access(dir, F_OK), -1);
	built_free(&b);
}
END_TEST

START_TEST(scheduler_is_offered_as_a_whole_word)
{
	char path[64], offered[128];

	mounts_file(path, sizeof(path), "[none] mq-deadline kyber bfq\n");
	ck_assert_int_eq(iosched_offered(path, "kyber", offered, sizeof(offered)), 0);
	ck_assert_int_eq(iosched_offered(path, "none", offered, sizeof(offered)), 0);
	ck_assert_int_eq(iosched_offered(path, "deadline", offered, sizeof(offered)), -ENOENT);
	ck_assert_str_eq(offered, "[none] mq-deadline kyber bfq");
	unlink(path);
	ck_assert_int_eq(iosched_file("/proc/self/status", offered, sizeof(offered)), -ENODEV);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("thread_env");
	TCase *tc = tcase_create("cpus");

	tcase_add_test(tc, split_gives_each_job_one_cpu_in_turn);
	tcase_add_test(tc, affinity_is_the_threads_alone);
	suite_add_tcase(s, tc);
	tc = tcase_create("thread");
	tcase_add_test(tc, nice_is_added_to_the_threads_alone);
	tcase_add_test(tc, ids_are_the_threads_alone);
	suite_add_tcase(s, tc);
	tc = tcase_create("numa");
	tcase_add_loop_test(tc, memory_policy_is_the_threads_alone, 0, 4);
	tcase_add_test(tc, numa_cpu_nodes_set_the_cpus_of_the_nodes);
	tcase_add_loop_test(tc, a_node_the_machine_lacks_is_refused_before_the_run, 0, 2);
	suite_add_tcase(s, tc);
	tc = tcase_create("cgroup");
	tcase_add_test(tc, cgroup_mount_is_the_first_blkio_or_cgroup2);
	tcase_add_test(tc, cgroup_v2_moves_the_process_for_the_run);
	suite_add_tcase(s, tc);
	tc = tcase_create("ioscheduler");
	tcase_add_test(tc, scheduler_is_offered_as_a_whole_word);
	suite_add_tcase(s, tc);
	return test_run(s);
}
