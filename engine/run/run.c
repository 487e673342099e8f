/*
 * The runner: prepare every job before any I/O, then phase by phase lay out files, start
 * the phase's jobs on their own threads, release them together, and wait for them.
 */
#include "engine/engine.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "engine/run/control.h"
#include "engine/devices/path_guard.h"
#include "engine/plan/files.h"
#include "engine/plan/zbd.h"
#include "engine/loop/lat_target.h"
#include "engine/observe/disk_watch.h"
#include "engine/observe/logs.h"
#include "engine/run/needs.h"
#include "engine/observe/steady.h"
#include "engine/stripe/stripe.h"
#include "engine/thread/thread_env.h"
#include "engine/verify/verify.h"
#include "engine/thread/wake.h"
#include "engine/worker.h"
#include "base/diag.h"
#include "base/units.h"

/*
 * A job thread's stack: its loop keeps buffers and queues on the heap, so 256 KiB is plenty,
 * and JOBS_MAX threads then reserve 16 GiB of address space instead of the default 8 MiB each.
 */
#define THREAD_STACK	(256 * 1024)
#define FD_SLACK	16	/* descriptors opened for a moment while the jobs run */

struct run_files {
	struct io_file *f;
	unsigned n;
	const struct ioengine_ops *ops;
	struct io_file *target;		/* a striped job's logical file over f[], or NULL */
	int stripe_id;			/* its "stripeN" in the disk stats; -1: none */
	struct stripe_member_io *member_io;	/* the job's parts on each of f[] */
	int *held;			/* a first clone's: the descriptors its clones share */
};

/*
 * Jobs of a phase report ready, then wait for go; the disks are sampled in between. The
 * waits are bare futexes: a condition variable would make 512 woken threads take its
 * mutex one after another while the first ones already saturate the CPUs, and the last
 * would start seconds late.
 */
struct start_gate {
	atomic_uint ready;
	atomic_uint go;
	uint64_t go_tsc;	/* when go was given, in TSC ticks (and in ns: go_ns) */
	uint64_t go_ns;
};

static void futex_wait(atomic_uint *addr, unsigned val)
{
	syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(atomic_uint *addr, int n)
{
	syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

static void gate_pass(struct start_gate *g)
{
	atomic_fetch_add(&g->ready, 1);
	futex_wake(&g->ready, 1);
	while (!atomic_load(&g->go))
		futex_wait(&g->go, 0);
}

static void gate_wait_ready(struct start_gate *g, unsigned n)
{
	unsigned seen;

	while ((seen = atomic_load(&g->ready)) < n)
		futex_wait(&g->ready, seen);
}

static void gate_open(struct start_gate *g)
{
	g->go_tsc = clock_ticks_as(true);	/* a TSC reading, for the jobs that use it */
	g->go_ns = clock_mono_ns();
	atomic_store(&g->go, 1);
	futex_wake(&g->go, INT_MAX);
}

struct job_slot {
	struct run *run;
	unsigned index;
	struct worker w;
	pthread_t thread;
	bool started;
	struct start_gate *gate;
};

unsigned engine_catalog(struct engine_info *out, unsigned max)
{
	return ioengine_catalog(out, max);
}

/* Watch the disk under a file, or under its directory when it does not exist yet. */
static void watch_disk(struct disk_set *s, const char *path)
{
	char *copy;

	if (diskset_add_path(s, path) == 0 || access(path, F_OK) == 0)
		return;
	copy = strdup(path);
	if (copy) {
		diskset_add_path(s, dirname(copy));
		free(copy);
	}
}

struct earlier {
	const struct run *run;
	unsigned phase;
	unsigned upto;		/* jobs resolved so far */
};

/* Whether a job of an earlier phase writes path, so that it will exist by then. */
static bool written_earlier(void *ctx, const char *path)
{
	const struct earlier *e = ctx;

	for (unsigned i = 0; i < e->upto; i++) {
		const struct job_desc *j = &e->run->jobs->jobs[i];
		const struct run_files *rf = &e->run->files[i];

		if (j->phase >= e->phase || !rw_does(j->rw, IO_WRITE))
			continue;
		for (unsigned f = 0; f < rf->n; f++)
			if (!strcmp(rf->f[f].path, path))
				return true;
	}
	return false;
}

static bool has_deferred(const struct run_files *rf)
{
	for (unsigned f = 0; f < rf->n; f++)
		if (rf->f[f].deferred)
			return true;
	return false;
}

/* Size the files an earlier phase has now written; a failure now is the job's. */
static int resolve_deferred(struct run *r, unsigned phase, struct diag *d)
{
	for (unsigned i = 0; i < r->jobs->njobs; i++) {
		const struct job_desc *j = &r->jobs->jobs[i];
		struct run_files *rf = &r->files[i];
		int ret;

		if (j->phase != phase || !has_deferred(rf))
			continue;
		files_free(rf->f, rf->n);
		rf->f = NULL;
		rf->n = 0;
		ret = files_resolve(j, false, NULL, NULL, &rf->f, &rf->n, d);
		if (!ret)
			ret = files_check(j, rf->f, rf->n, &r->devices, d);
		if (ret)
			return ret;
		files_claim(j, rf->f, rf->n, &r->devices);
	}
	return 0;
}

static bool can_share_fds(const struct run *r, unsigned i);

/* The descriptors job i holds while it runs: its files, a ring, a pipe, a log. */
static uint64_t job_fds(const struct run *r, unsigned i)
{
	const struct job_desc *j = &r->jobs->jobs[i];
	uint64_t n = r->files[i].ops->fds + needs_job_fds(j);	/* null: none */
	unsigned open = j->openfiles;				/* at most that many at once */

	if (!(r->files[i].ops->flags & IOENG_NOFILES) && (!can_share_fds(r, i) || !j->jobnum))
		n += open && open < r->files[i].n ? open : r->files[i].n;
	return n;
}

/*
 * Every job opens each of its files (512 clones of a job on 64 files: 32768 descriptors):
 * raise the limit that far if the system lets us, or say what to raise before starting.
 * A phase's jobs close their files before the next phase opens its own, so the most any
 * phase holds is what counts (sysbench's five modes, stonewalled, need one mode's).
 * Counted too: what is open now (stdio, --output) and the short-lived ones (falloc's
 * reopens, sysfs reads, a log being written): a simple job runs under 64, as fio.
 */
static int ensure_fd_limit(const struct run *r, struct diag *d)
{
	uint64_t need = 0;
	struct rlimit rl;
	rlim_t was;

	for (unsigned p = 0; p < r->jobs->nphases; p++) {
		uint64_t phase = 0;

		for (unsigned i = 0; i < r->jobs->njobs; i++)
			if (r->jobs->jobs[i].phase == p)
				phase += job_fds(r, i);
		if (phase > need)
			need = phase;
	}
	need += needs_open_fds() + FD_SLACK;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= need)
		return 0;
	was = rl.rlim_cur;
	rl.rlim_cur = need;
	if (rl.rlim_max < need)
		rl.rlim_max = need;	/* only root may raise the hard limit */
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0) {
		getrlimit(RLIMIT_NOFILE, &rl);
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_max >= need) {
		diag_note(d, "the jobs need %llu open files: the soft limit (ulimit -n) was raised "
			  "from %llu to %llu for this run", (unsigned long long)need,
			  (unsigned long long)was, (unsigned long long)rl.rlim_cur);
		return 0;
	}
	return diag_set(d, -EMFILE, "the jobs need %llu open files and the limit is %llu: "
			"raise it (ulimit -n) or use fewer files or jobs",
			(unsigned long long)need, (unsigned long long)rl.rlim_max);
}

/*
 * A striped job's target, and its entry in the disk stats: one per array (the same members
 * and chunk, which its name spells), shared by the clones and jobs on it, listed before
 * its members are watched so that they appear under it.
 */
static int prepare_stripe(struct run *r, unsigned i, bool virtual_files, struct diag *d)
{
	const struct job_desc *j = &r->jobs->jobs[i];
	struct run_files *rf = &r->files[i];
	int id = 0, ret;

	rf->stripe_id = -1;
	if (!j->stripe_chunk)
		return 0;
	ret = stripe_target(j, rf->f, rf->n, &rf->target, d);
	if (ret || virtual_files)
		return ret;
	rf->member_io = calloc(rf->n, sizeof(*rf->member_io));
	if (!rf->member_io)
		return -ENOMEM;
	for (unsigned k = 0; k < i; k++) {
		const struct run_files *o = &r->files[k];

		if (o->stripe_id >= 0 && !strcmp(o->target->path, rf->target->path)) {
			rf->stripe_id = o->stripe_id;
			return 0;
		}
		if (o->stripe_id >= id)
			id = o->stripe_id + 1;
	}
	rf->stripe_id = id;
	return stripe_disk_add(&r->disks, (unsigned)id, rf->f, rf->n);
}

/* files.c, layout.c and the stripe say only "out of memory": name the job it was for. */
static int job_nomem(const struct job_desc *j, int ret, struct diag *d)
{
	return ret == -ENOMEM ? diag_set(d, ret, "job '%s': out of memory", j->name) : ret;
}

/*
 * The files a job writes besides its data, its iolog and its logs, checked before anything
 * runs: a path the guard refuses (a device, a pseudo file system) would fail the job
 * after it ran, with its results.
 */
static int check_outputs(const struct job_desc *j, struct diag *d)
{
	const char *file;
	char why[512];
	int line;

	if (j->write_iolog && path_guard(j->write_iolog, PATH_WRITE, why, sizeof(why))) {
		job_where(j, "write_iolog", &file, &line);
		return diag_at(d, -EINVAL, file, line, "job '%s': option 'write_iolog': refusing "
			       "to write '%s': it %s", j->name, j->write_iolog, why);
	}
	return logs_check_paths(j, d);
}

/* Name and check job i's files, knowing what the jobs of earlier phases write. */
static int resolve_files(struct run *r, unsigned i, struct diag *d)
{
	const struct job_desc *j = &r->jobs->jobs[i];
	struct run_files *rf = &r->files[i];
	unsigned flags = ioengine_find(j->ioengine)->flags;	/* rf->ops: set by run_prepare() */
	bool virtual_files = flags & (IOENG_NOFILES | IOENG_MAKES_FILES);
	struct earlier e = { r, j->phase, i };
	int ret;

	ret = check_outputs(j, d);
	if (!ret)
		ret = files_resolve(j, virtual_files, written_earlier, &e, &rf->f, &rf->n, d);
	if (!ret && !virtual_files)
		ret = files_check(j, rf->f, rf->n, &r->devices, d);
	/* the names an engine makes itself (dircreate), and dirdelete's directories */
	if (!ret && virtual_files && (flags & IOENG_MAKES_FILES))
		ret = files_guard(j, rf->f, rf->n, PATH_WRITE, d);
	if (!ret && virtual_files && files_deleted(j))
		ret = files_guard(j, rf->f, rf->n, PATH_DELETE, d);
	if (!ret && !virtual_files)
		files_claim(j, rf->f, rf->n, &r->devices);
	return ret;
}

int run_check_files(const struct job_list *jobs, struct diag *d)
{
	struct run r = { .jobs = jobs };
	int ret = 0;

	device_users_init(&r.devices);
	r.files = calloc(jobs->njobs, sizeof(*r.files));
	if (!r.files)
		return diag_set(d, -ENOMEM, "out of memory");
	for (unsigned i = 0; !ret && i < jobs->njobs; i++)
		ret = resolve_files(&r, i, d);
	for (unsigned i = 0; i < jobs->njobs; i++)
		files_free(r.files[i].f, r.files[i].n);
	free(r.files);
	device_users_free(&r.devices);
	return ret;
}

int run_prepare(struct run *r, const struct job_list *jobs, struct diag *d)
{
	int ret = 0;

	memset(r, 0, sizeof(*r));
	r->jobs = jobs;
	pthread_mutex_init(&r->steady_lock, NULL);
	device_users_init(&r->devices);
	atomic_init(&r->stop, false);
	atomic_init(&r->end_all, false);
	clock_init(&r->clock, CLOCK_PICK_AUTO);
	clock_init(&r->gettime, CLOCK_PICK_GETTIME);
	r->cpu = r->clock;	/* calibrated again only where the kernel distrusts the TSC */
	for (unsigned i = 0; !r->clock.tsc && i < jobs->njobs; i++)
		if (jobs->jobs[i].clocksource == CLOCKSRC_CPU) {
			clock_init(&r->cpu, CLOCK_PICK_CPU);
			break;
		}
	stats_lat_map_init(&r->latmap);
	r->results = calloc(jobs->njobs, sizeof(*r->results));
	r->files = calloc(jobs->njobs, sizeof(*r->files));
	r->phases = calloc(jobs->nphases, sizeof(*r->phases));
	if (!r->results || !r->files || !r->phases)
		return diag_set(d, -ENOMEM, "out of memory");
	/* before anything per job: 65,536 jobs that cannot fit are refused at once */
	ret = needs_check_memory(r, d);
	for (unsigned i = 0; !ret && i < jobs->njobs; i++) {
		const struct job_desc *j = &jobs->jobs[i];
		struct run_files *rf = &r->files[i];
		bool virtual_files;

		rf->ops = ioengine_find(j->ioengine);
		virtual_files = rf->ops->flags & (IOENG_NOFILES | IOENG_MAKES_FILES);
		ret = resolve_files(r, i, d);
		if (!ret)
			ret = zbd_attach(j, rf->f, rf->n, &r->zbd, d);
		/* disk_util=0: the job's disks (a stripe's too) are not watched for the report */
		if (!ret)
			ret = prepare_stripe(r, i, virtual_files || !j->disk_util, d);
		if (!ret)
			ret = thread_env_prepare(j, rf->f, virtual_files ? 0 : rf->n, &r->env, d);
		for (unsigned f = 0; !ret && !virtual_files && j->disk_util && f < rf->n; f++)
			watch_disk(&r->disks, rf->f[f].path);
		r->results[i].st = stats_new();
		if (!ret && !r->results[i].st)
			ret = -ENOMEM;
		ret = job_nomem(j, ret, d);
	}
	if (!ret)
		ret = ensure_fd_limit(r, d);
	r->exitall = control_exitall(r);
	r->group_ended = calloc((size_t)jobs->ngroups, sizeof(*r->group_ended));
	if (!ret && !r->group_ended)
		ret = diag_set(d, -ENOMEM, "out of memory");
	return ret;
}

void run_stop(struct run *r)
{
	atomic_store(&r->stop, true);
	wake_all(&r->wake);
}

static void print_note(void *ctx, const char *msg);

/*
 * create_serialize=0: the job lays its files out in its own thread, at the same time as
 * the other jobs of its phase, before it sets up (fio's setup_files() in the job).
 */
static int layout_in_thread(struct job_slot *s)
{
	struct run_files *rf = &s->run->files[s->index];
	struct diag d = { 0 };
	int ret;

	if (s->w.job->create_serialize || (rf->ops->flags & IOENG_NOFILES))
		return 0;
	ret = files_layout(s->w.job, rf->f, rf->n, &s->run->stop, print_note, s->run, &d);
	if (ret < 0)
		diag_format(s->w.error_msg, sizeof(s->w.error_msg), "%s",
			    d.msg[0] ? d.msg : strerror(-ret));
	diag_clear(&d);
	return ret;
}

/* job_start_clock_id's clock now, in ms (JSON job_start, fio HEAD's); the clock was checked. */
static uint64_t job_start_ms(const struct job_desc *j)
{
	struct timespec ts;

	if (clock_gettime((clockid_t)j->job_start_clock, &ts) < 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / NS_PER_MSEC;
}

static void *job_thread(void *arg)
{
	struct job_slot *s = arg;
	struct job_result *res = &s->run->results[s->index];
	bool waited = false;
	int ret;

	s->w.tid = gettid();
	ret = layout_in_thread(s);
	if (!ret)
		ret = worker_setup(&s->w);
	if (!ret)
		ret = verify_load_state(&s->w, s->index);
	gate_pass(s->gate);
	if (!ret && control_wait_for(s->run, s->index))
		waited = true;
	if (!ret && s->w.job->create_only) {
		/* create_only: layout_phase() laid the files out; the job issues no I/O */
		res->io_start_ns = res->io_end_ns = s->gate->go_ns;
	} else if (!ret) {
		const struct job_desc *j = s->w.job;
		uint64_t delay = j->startdelay_ns.lo;

		if (j->startdelay_ns.hi > delay) {
			/* from a copy: the planner's loops start again from its seeded state */
			struct rng r = s->w.rng;

			delay += rng_below(&r, j->startdelay_ns.hi - delay + 1);
		}
		/* as fio, a startdelay runs from the release, the wait for wait_for within it */
		if (waited) {
			uint64_t gone = clock_mono_ns() - s->gate->go_ns;

			delay = delay > gone ? delay - gone : 0;
		}
		if (delay)
			worker_sleep(&s->w, delay);	/* a stop ends it */
		/*
		 * Without a startdelay (or a wait_for) every job's measured time begins when
		 * go was given, not when the scheduler first ran its thread: with more threads
		 * than CPUs the last would otherwise measure a later stretch than the first.
		 */
		if (!delay && !waited)
			s->w.t_go = s->w.clk->tsc ? s->gate->go_tsc : s->gate->go_ns;
		res->io_start_ns = delay || waited ? clock_mono_ns() : s->gate->go_ns;
		res->job_start_ms = job_start_ms(j);
		worker_run(&s->w);
		res->io_end_ns = clock_mono_ns();
		verify_save_state(&s->w, s->index);
	} else {
		s->w.error = -ret;
		s->w.st->error = -ret;
	}
	/* exec_postrun: after the I/O of a job that started, in its thread, as in fio */
	if (!ret && !s->w.error &&
	    thread_env_exec(s->w.job, true, s->w.error_msg, sizeof(s->w.error_msg)) < 0)
		s->w.error = s->w.st->error = ECHILD;
	res->lat_depth = lat_target_depth(&s->w);	/* before teardown frees the search */
	worker_teardown(&s->w);
	res->logs = s->w.logs;		/* written after the run */
	res->blocks = s->w.blocks;	/* reported after the run */
	res->nblocks = s->w.nblocks;
	atomic_store(&res->progress.state, JOB_DONE);
	res->tid = s->w.tid;
	res->error = s->w.error;
	res->has_slat = !s->w.sync_path;
	memcpy(res->error_msg, s->w.error_msg, sizeof(res->error_msg));
	/* Last: --status-interval reads the result from here on, instead of asking the job. */
	atomic_store_explicit(&res->progress.final, true, memory_order_release);
	control_job_ended(s->run, s->index);
	return NULL;
}

static void print_note(void *ctx, const char *msg)
{
	struct run *r = ctx;

	if (r->note)
		r->note(r->note_ctx, msg);
}

static int layout_phase(struct run *r, unsigned phase, struct diag *d)
{
	const struct job_list *jobs = r->jobs;

	for (unsigned i = 0; i < jobs->njobs; i++) {
		const struct job_desc *j = &jobs->jobs[i];
		struct run_files *rf = &r->files[i];
		int ret;

		if (j->phase != phase || (rf->ops->flags & (IOENG_NOFILES | IOENG_MAKES_FILES)) ||
		    !j->create_serialize)
			continue;	/* create_serialize=0: the job's thread lays them out */
		ret = files_layout(j, rf->f, rf->n, &r->stop, print_note, r, d);
		if (ret < 0)
			return job_nomem(j, ret, d);
	}
	return 0;
}

/* lockfile: the lock an earlier job i of the phase has on path, or NULL. */
static struct path_lock *lock_of(const struct run *r, unsigned phase, unsigned upto,
				 const char *path)
{
	for (unsigned i = 0; i < upto; i++) {
		const struct run_files *rf = &r->files[i];

		if (r->jobs->jobs[i].phase != phase)
			continue;
		for (unsigned f = 0; f < rf->n; f++)
			if (rf->f[f].lock && !strcmp(rf->f[f].path, path))
				return rf->f[f].lock;
	}
	return NULL;
}

/* lockfile: one lock per path for the jobs of the phase that ask for one. */
static int share_locks(struct run *r, unsigned phase, struct diag *d)
{
	for (unsigned i = 0; i < r->jobs->njobs; i++) {
		const struct job_desc *j = &r->jobs->jobs[i];
		struct run_files *rf = &r->files[i];

		if (j->phase != phase || j->lockfile == FILE_LOCK_NONE)
			continue;
		for (unsigned f = 0; f < rf->n; f++) {
			struct io_file *file = &rf->f[f];

			file->lock = lock_of(r, phase, i, file->path);
			if (file->lock)
				continue;
			file->lock = files_lock_new();
			if (!file->lock)
				return diag_set(d, -ENOMEM, "job '%s': out of memory", j->name);
			file->lock_owner = true;
		}
	}
	return 0;
}

static void drop_locks(struct run *r, unsigned phase)
{
	for (unsigned i = 0; i < r->jobs->njobs; i++) {
		struct run_files *rf = &r->files[i];

		if (r->jobs->jobs[i].phase != phase)
			continue;
		for (unsigned f = 0; f < rf->n; f++) {
			if (rf->f[f].lock_owner)
				files_lock_free(rf->f[f].lock);
			rf->f[f].lock = NULL;
			rf->f[f].lock_owner = false;
		}
	}
}

/* Start the threads; returns how many started (all of them, or up to a failure). */
static unsigned start_threads(struct job_slot *slots, unsigned n, int *err)
{
	pthread_attr_t attr;
	unsigned started = 0;

	*err = 0;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, THREAD_STACK);
	for (unsigned i = 0; i < n && !*err; i++) {
		*err = pthread_create(&slots[i].thread, &attr, job_thread, &slots[i]);
		slots[i].started = *err == 0;
		started += slots[i].started;
	}
	pthread_attr_destroy(&attr);
	return started;
}

/* ramp_size's count: the job's own, or under group_reporting its group's first job's. */
static struct job_ramp *job_ramp_of(struct run *r, unsigned index)
{
	const struct job_desc *jobs = r->jobs->jobs, *j = &jobs[index];

	if (!j->ramp_size)
		return NULL;
	for (unsigned i = 0; j->group_reporting && i < index; i++)
		if (jobs[i].groupid == j->groupid)
			return &r->results[i].ramp;
	return &r->results[index].ramp;
}

/* The flow a job with a flow weight is in: kept by the first such job of its flow_id. */
static struct job_flow *job_flow_of(struct run *r, unsigned index)
{
	const struct job_desc *jobs = r->jobs->jobs, *j = &jobs[index];

	if (!j->flow)
		return NULL;
	for (unsigned i = 0; i < index; i++)
		if (jobs[i].flow && jobs[i].flow_id == j->flow_id)
			return &r->results[i].flow;
	return &r->results[index].flow;
}

/*
 * The latency from which an I/O takes the loop's rare path: lat_over='s lowest limit, or
 * just above max_latency's or latency_target's lowest. As in fio, neither is checked where
 * lat is not measured: disable_lat, or stats=0.
 */
static uint64_t rare_min(const struct job_desc *j)
{
	uint64_t min = j->nlat_over ? j->lat_over_ns[0] : UINT64_MAX;

	for (int d = 0; j->stats && !j->disable_lat && d < IO_NDIR; d++)
		if (j->max_latency_ns[d] && j->max_latency_ns[d] + 1 < min)
			min = j->max_latency_ns[d] + 1;
	if (j->stats && !j->disable_lat && j->lat_target_ns && j->lat_target_ns + 1 < min)
		min = j->lat_target_ns + 1;
	return min;
}

static void init_slot(struct run *r, struct job_slot *s, unsigned index,
		      struct start_gate *gate)
{
	memset(s, 0, sizeof(*s));
	s->run = r;
	s->index = index;
	s->gate = gate;
	s->w.job = &r->jobs->jobs[index];
	s->w.njobs = r->jobs->njobs;
	s->w.ops = r->files[index].ops;
	s->w.clk = s->w.job->clocksource == CLOCKSRC_GETTIME ? &r->gettime :
		   s->w.job->clocksource == CLOCKSRC_CPU ? &r->cpu : &r->clock;
	s->w.latmap = &r->latmap;
	s->w.rare_min = rare_min(s->w.job);
	s->w.progress = &r->results[index].progress;
	s->w.files = r->files[index].f;
	s->w.nfiles = r->files[index].n;
	s->w.target = r->files[index].target;
	s->w.member_io = r->files[index].member_io;
	s->w.st = r->results[index].st;
	s->w.stop = &r->stop;
	s->w.halt = &r->results[index].halt;
	s->w.wake = &r->wake;
	s->w.error_line = r->error_line;
	s->w.error_ctx = r->error_ctx;
	s->w.aux_path = r->aux_path;
	/* clones are placed one after another, the first with jobnum 0 */
	s->w.seq_cursor = &r->results[index - s->w.job->jobnum].seq_cursor;
	s->w.ios_shared = &r->results[index - s->w.job->jobnum].ios_shared;
	s->w.flow = job_flow_of(r, index);
	s->w.ramp = job_ramp_of(r, index);
}

/*
 * Clones of a job that name the same files (files.c): with a positional engine (all but
 * sync, whose lseek would race) they can share descriptors too, so 512 clones on 64 files
 * need 64 descriptors, not 32768. The run opens them here and closes them after the phase.
 */
static bool can_share_fds(const struct run *r, unsigned i)
{
	const struct job_desc *j = &r->jobs->jobs[i];

	/*
	 * unlink_each_loop: each clone deletes and recreates its files, as fio's do;
	 * create_serialize=0: each lays them out in its thread, after the run would open them
	 */
	/* read_iolog=a:b: the clones replay logs of different files (issue 17) */
	return j->numjobs > 1 && r->files[i].n && r->files[i].f[0].shared &&
	       (r->files[i].ops->flags & IOENG_POSITIONAL) &&
	       !j->unlink_each_loop && j->create_serialize && !j->openfiles &&
	       !(j->replay && j->read_iolog.n > 1 && !j->merge_blktrace_file);
}

/*
 * The first clone's files, opened for all: the run holds them, so the first clone, ending
 * before the others, does not close what they still use (each clone's thread lets go of
 * a borrowed descriptor), and close_shared() closes them once after the phase.
 */
static int hold_shared(const struct job_desc *j, struct run_files *rf, char *err, size_t len)
{
	int ret = files_open(j, rf->f, rf->n, err, len);

	if (ret < 0)
		return ret;
	rf->held = malloc(rf->n * sizeof(*rf->held));
	if (!rf->held) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	for (unsigned f = 0; f < rf->n; f++) {
		rf->held[f] = rf->f[f].fd;
		rf->f[f].borrowed = true;
	}
	return 0;
}

static int open_shared(struct run *r, unsigned phase, struct diag *d)
{
	const struct job_list *jobs = r->jobs;
	char err[512];

	for (unsigned i = 0; i < jobs->njobs; i++) {
		const struct job_desc *j = &jobs->jobs[i];
		struct run_files *owner;

		if (j->phase != phase || !can_share_fds(r, i))
			continue;
		if (j->jobnum == 0) {
			int ret = hold_shared(j, &r->files[i], err, sizeof(err));

			if (ret < 0)
				return diag_set(d, ret, "%s", err);
			continue;
		}
		owner = &r->files[i - j->jobnum];	/* clones follow their first, in order */
		for (unsigned f = 0; f < r->files[i].n; f++) {
			r->files[i].f[f].fd = owner->f[f].fd;
			r->files[i].f[f].borrowed = true;
		}
	}
	return 0;
}

static void close_shared(struct run *r, unsigned phase)
{
	for (unsigned i = 0; i < r->jobs->njobs; i++) {
		const struct job_desc *j = &r->jobs->jobs[i];
		struct run_files *rf = &r->files[i];
		struct job_result *res = &r->results[i];
		unsigned bad;
		int ret;

		if (j->phase != phase || j->jobnum != 0 || !can_share_fds(r, i))
			continue;
		for (unsigned f = 0; rf->held && f < rf->n; f++) {
			rf->f[f].fd = rf->held[f];
			rf->f[f].borrowed = false;
		}
		free(rf->held);
		rf->held = NULL;
		ret = files_close(j, rf->f, rf->n, &bad);
		if (ret == 0 || res->error)
			continue;
		/* as worker.c's close_files(), for the files the clones shared */
		res->error = -ret;
		res->st->error = -ret;
		diag_format(res->error_msg, sizeof(res->error_msg), "job '%s': unlink=1: cannot "
			    "delete '%s': %s", j->name, rf->f[bad].path, strerror(-ret));
	}
}

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * NS_PER_SEC + (uint64_t)tv.tv_usec * NS_PER_USEC;
}

/* The process's CPU time and the wall time of a phase, start to last join (tiobench's). */
static void usage_begin(struct phase_usage *u)
{
	struct rusage ru;
	struct timespec now;

	getrusage(RUSAGE_SELF, &ru);
	u->usr_ns = tv_ns(ru.ru_utime);
	u->sys_ns = tv_ns(ru.ru_stime);
	u->wall_ns = clock_mono_ns();
	clock_gettime(CLOCK_REALTIME, &now);
	u->start_real_ns = (uint64_t)now.tv_sec * NS_PER_SEC + (uint64_t)now.tv_nsec;
}

static void usage_end(struct phase_usage *u)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	u->usr_ns = tv_ns(ru.ru_utime) - u->usr_ns;
	u->sys_ns = tv_ns(ru.ru_stime) - u->sys_ns;
	u->wall_ns = clock_mono_ns() - u->wall_ns;
}

/* Wait for the other ranks, if any, once per phase; the wait is reported. */
static void meet_ranks(struct run *r, struct phase_usage *u)
{
	uint64_t t0;

	if (!r->ranks_sync || r->synced)
		return;
	t0 = clock_mono_ns();
	r->ranks_sync(r->ranks_ctx);
	u->barrier_ns = clock_mono_ns() - t0;
	r->synced = true;
}

/* The phase's steadystate watcher, where --status-interval's reports can see it. */
static void watch(struct run *r, struct steady *steady)
{
	pthread_mutex_lock(&r->steady_lock);
	r->steady = steady;
	pthread_mutex_unlock(&r->steady_lock);
}

/* Its windows go to results[].ss, which a report then reads instead. */
static void stop_watching(struct run *r, struct steady *steady)
{
	pthread_mutex_lock(&r->steady_lock);
	r->steady = NULL;
	steady_stop(steady);
	pthread_mutex_unlock(&r->steady_lock);
}

/* One phase: every job set up, the disks sampled at the start, all released at once. */
static int run_phase(struct run *r, unsigned phase, struct diag *d)
{
	const struct job_list *jobs = r->jobs;
	struct start_gate gate = { 0 };
	struct steady *steady = NULL;
	struct job_slot *slots;
	unsigned n = 0, k = 0, started;
	int ret, err;

	for (unsigned i = 0; i < jobs->njobs; i++)
		n += jobs->jobs[i].phase == phase;
	if (!n)
		return 0;
	ret = resolve_deferred(r, phase, d);
	if (!ret)
		ret = layout_phase(r, phase, d);
	if (!ret)
		ret = open_shared(r, phase, d);
	if (!ret)
		ret = share_locks(r, phase, d);
	if (!ret && (ret = steady_start(r, phase, &steady)) < 0)
		diag_set(d, ret, "cannot watch for steady state: %s", strerror(-ret));
	if (ret < 0) {
		close_shared(r, phase);
		drop_locks(r, phase);
		return ret;
	}
	watch(r, steady);
	slots = calloc(n, sizeof(*slots));
	if (!slots) {
		stop_watching(r, steady);
		return diag_set(d, -ENOMEM, "out of memory");
	}
	for (unsigned i = 0; i < jobs->njobs; i++)
		if (jobs->jobs[i].phase == phase)
			init_slot(r, &slots[k++], i, &gate);
	started = start_threads(slots, n, &err);
	if (err) {
		char hint[200];

		/* The jobs that did start must not run alone: they see stop and end at once. */
		run_stop(r);
		ret = diag_set(d, -err, "cannot start %u job threads: %s (%u started)%s", n,
			       strerror(err), started, needs_thread_hint(err, hint, sizeof(hint)));
	}
	gate_wait_ready(&gate, started);
	meet_ranks(r, &r->phases[phase]);
	if (phase == 0)
		diskset_snapshot_start(&r->disks);
	usage_begin(&r->phases[phase]);
	gate_open(&gate);
	for (unsigned i = 0; i < n; i++)
		if (slots[i].started)
			pthread_join(slots[i].thread, NULL);
	usage_end(&r->phases[phase]);
	stop_watching(r, steady);
	close_shared(r, phase);
	drop_locks(r, phase);
	free(slots);
	return ret;
}

/*
 * Jobs from a phase on that never started: say why, so the report shows them as not run.
 * The phase's own jobs get err (ENOSPC for files that would not fit, as fio's error 28),
 * the later phases' ECANCELED.
 */
static void mark_not_run(struct run *r, unsigned phase, const char *why, int err)
{
	for (unsigned i = 0; i < r->jobs->njobs; i++) {
		struct job_result *res = &r->results[i];
		const struct job_desc *j = &r->jobs->jobs[i];

		if (j->phase < phase || res->tid || res->error)
			continue;
		res->error = j->phase == phase ? err : ECANCELED;
		res->st->error = res->error;
		snprintf(res->error_msg, sizeof(res->error_msg), "job '%s': not run: %s", j->name,
			 why);
	}
}

/*
 * The disks' util is their busy time over the jobs' I/O window, from the first job's
 * start (after its startdelay) to the last one's end: not thread setup, teardown or a
 * startdelay before any job began, which the device spends idle.
 */
static void io_window(struct run *r)
{
	uint64_t start = UINT64_MAX, end = 0;

	for (unsigned i = 0; i < r->jobs->njobs; i++) {
		const struct job_result *res = &r->results[i];

		if (!res->io_end_ns)
			continue;
		if (res->io_start_ns < start)
			start = res->io_start_ns;
		if (res->io_end_ns > end)
			end = res->io_end_ns;
	}
	if (end > start)
		diskset_set_window(&r->disks, start, end);
}

int run_execute(struct run *r, struct diag *d)
{
	struct timeval tv;
	bool ended = false;
	int failed = 0, err;

	for (unsigned p = 0; p < r->jobs->nphases; p++) {
		r->synced = false;
		if (!ended && atomic_load(&r->stop)) {
			mark_not_run(r, p, "stopped before its phase began", ECANCELED);
			ended = true;
		}
		/* exit_what=all: as in fio, the later jobs never start and are no failure */
		if (atomic_load(&r->end_all))
			ended = true;
		if (!ended && (err = run_phase(r, p, d)) < 0) {
			char why[sizeof(d->msg) + 64];

			/* the reason in full: under MPI another rank's stderr is not shown */
			snprintf(why, sizeof(why), "its phase could not start: %s", d->msg);
			mark_not_run(r, p, why, -err);
			failed = 1;
			ended = true;
		}
		meet_ranks(r, &r->phases[p]);	/* when the phase did not get that far */
	}
	r->synced = false;
	meet_ranks(r, &(struct phase_usage){ 0 });	/* the disks' end is every rank's */
	diskset_snapshot_end(&r->disks);
	io_window(r);
	for (unsigned i = 0; i < r->jobs->njobs; i++) {
		const struct run_files *rf = &r->files[i];

		if (rf->member_io && rf->stripe_id >= 0)
			stripe_disk_count(&r->disks, (unsigned)rf->stripe_id, r->results[i].st,
					  rf->f, rf->member_io, rf->n);
	}
	gettimeofday(&tv, NULL);
	r->end_time = tv.tv_sec;
	r->end_ms = (unsigned long long)tv.tv_sec * MSEC_PER_SEC +
		   (unsigned long long)tv.tv_usec / USEC_PER_MSEC;
	for (unsigned i = 0; i < r->jobs->njobs; i++)
		failed |= r->results[i].error != 0;
	return failed;
}

void run_free(struct run *r)
{
	for (unsigned i = 0; r->jobs && i < r->jobs->njobs; i++) {
		if (r->files) {
			files_free(r->files[i].f, r->files[i].n);
			stripe_target_free(r->files[i].target);
			free(r->files[i].member_io);
		}
		if (r->results) {
			stats_free(r->results[i].st);
			logs_free(r->results[i].logs);
			free(r->results[i].blocks);
			free(r->results[i].ss);
		}
	}
	free(r->files);
	free(r->results);
	free(r->phases);
	free(r->group_ended);
	diskset_free(&r->disks);
	device_users_free(&r->devices);
	thread_env_free(&r->env);
	zbd_set_free(&r->zbd);
	pthread_mutex_destroy(&r->steady_lock);
	memset(r, 0, sizeof(*r));
}

int run_write_logs(const struct run *r, struct diag *d)
{
	struct job_logs **logs = calloc(r->jobs->njobs, sizeof(*logs));
	int ret;

	if (!logs)
		return diag_set(d, -ENOMEM, "out of memory");
	for (unsigned i = 0; i < r->jobs->njobs; i++)
		logs[i] = r->results[i].logs;
	ret = logs_write_all(r->jobs, logs, d);
	free(logs);
	return ret;
}
