/*
 * Tests of what the io_uring and libaio engines put in the kernel's hands for each I/O,
 * where no system call tracer can see it: the submission entry (opcode, RWF_* flags,
 * IOSQE_ASYNC) and the iocb (aio_rw_flags) queue() prepared, read back before submit(),
 * for fio's nonvectored, nowait, uncached and force_async, and io_uring's registered
 * buffers and files, by default and as fixedbufs and registerfiles set them; and the
 * affinity of the SQPOLL kernel thread for sqthread_poll_cpu, read from /proc while the
 * ring exists.
 */
#include "engine/ioengine.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include <check.h>

#include "config.h"
#include "base/diag.h"
#include "engine/engine.h"
#include "jobs/jobs.h"
#include "parser/jobfile.h"
#include "test_util.h"

#if HAVE_LIBURING
#include <liburing.h>
#endif
#if HAVE_LIBAIO
#include <libaio.h>
#endif

#define NREQS	8
#define BS	4096

/* One engine set up by hand on one scratch file, as the runner would, minus the loop. */
struct rig {
	struct engine_info engines[IOENGINE_MAX];
	struct jobfile jf;
	struct job_list jobs;
	struct diag d;
	struct ioengine e;
	struct io_file file;
	struct io_req reqs[NREQS];
	char path[64];
	int init_ret;
	bool mapped;		/* bufs are a shared mapping of the scratch file */
};

/* Build the job "ioengine=engine" with opts and the engine around it, not started yet. */
static void rig_build(struct rig *g, const char *engine, const char *opts)
{
	struct job_input in = { .cli_defaults = -1 };
	char text[1024];
	int fd;

	memset(g, 0, sizeof(*g));
	snprintf(g->path, sizeof(g->path), "/var/tmp/iojob-prep-XXXXXX");
	fd = mkstemp(g->path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, NREQS * BS), 0);
	snprintf(text, sizeof(text), "[t]\nfilename=%s\nioengine=%s\nsize=%u\nbs=%u\n%s\n",
		 g->path, engine, NREQS * BS, BS, opts);
	ck_assert_msg(jobfile_parse_string(&g->jf, "t.fio", text, &g->d) == 0, "%s", g->d.msg);
	in.jf = &g->jf;
	in.engines = g->engines;
	in.nengines = engine_catalog(g->engines, IOENGINE_MAX);
	ck_assert_msg(jobs_build(&in, &g->jobs, &g->d) == 0, "build: %s", g->d.msg);
	g->file.path = g->path;
	g->file.fd = fd;
	g->e.ops = ioengine_find(engine);
	ck_assert_ptr_nonnull(g->e.ops);
	g->e.job = &g->jobs.jobs[0];
	g->e.opts = g->jobs.jobs[0].engine_opts.bytes;
	g->e.files = &g->file;
	g->e.nfiles = 1;
	g->e.reqs = g->reqs;
	g->e.nreqs = g->e.nbufs = NREQS;
	g->e.buf_size = BS;
}

static void rig_start(struct rig *g)
{
	g->init_ret = g->e.ops->init(&g->e);
	if (!g->init_ret && g->e.ops->open_files)
		g->init_ret = g->e.ops->open_files(&g->e);
}

/* Build the job "ioengine=engine" with opts, then init() and open_files() the engine. */
static void rig_open(struct rig *g, const char *engine, const char *opts)
{
	rig_build(g, engine, opts);
	g->e.bufs = aligned_alloc(BS, NREQS * BS);
	ck_assert_ptr_nonnull(g->e.bufs);
	rig_start(g);
}

/* The same with the buffers a shared mapping of the scratch file, as mem=mmap:FILE makes. */
static void rig_open_mapped(struct rig *g, const char *engine, const char *opts)
{
	void *map;

	rig_build(g, engine, opts);
	map = mmap(NULL, NREQS * BS, PROT_READ | PROT_WRITE, MAP_SHARED, g->file.fd, 0);
	ck_assert(map != MAP_FAILED);
	g->e.bufs = map;
	g->mapped = true;
	rig_start(g);
}

static void rig_close(struct rig *g)
{
	if (g->e.priv && g->e.ops->close_files)
		g->e.ops->close_files(&g->e);
	if (g->e.priv)
		g->e.ops->cleanup(&g->e);
	if (g->mapped)
		munmap(g->e.bufs, NREQS * BS);
	else
		free(g->e.bufs);
	close(g->file.fd);
	unlink(g->path);
	jobs_free(&g->jobs);
	jobfile_free(&g->jf);
	diag_clear(&g->d);
}

/* Queue I/O number slot (dir at block slot) and leave it unsubmitted. */
static struct io_req *rig_queue(struct rig *g, unsigned slot, int dir)
{
	struct io_req *r = &g->reqs[slot];

	ck_assert_uint_lt(slot, NREQS);
	*r = (struct io_req){ .file = &g->file, .buf = g->e.bufs + (size_t)slot * BS,
			      .off = (uint64_t)slot * BS, .len = BS, .full_len = BS,
			      .dir = dir, .slot = slot, .buf_slot = slot };
	r->buf_base = r->buf;
	ck_assert_int_eq(g->e.ops->queue(&g->e, r), IOQ_QUEUED);
	return r;
}

#if HAVE_LIBURING
static void rig_one_read(struct rig *g);

static const struct io_uring_sqe *queue_sqe(struct rig *g, unsigned slot, int dir)
{
	rig_queue(g, slot, dir);
	return ioengine_uring_peek(&g->e);
}

/* nonvectored=-1, fio's default: plain reads and writes on a kernel that has them. */
START_TEST(uring_unregistered_is_plain_read_write)
{
	struct rig g;
	const struct io_uring_sqe *sqe;

	rig_open(&g, "io_uring", "fixedbufs=0");
	ck_assert_int_eq(g.init_ret, 0);
	sqe = queue_sqe(&g, 0, IO_READ);
	ck_assert_uint_eq(sqe->opcode, IORING_OP_READ);
	ck_assert_uint_eq(sqe->addr, (uintptr_t)g.e.bufs);
	ck_assert_uint_eq(sqe->len, BS);
	ck_assert_uint_eq(sqe->rw_flags, 0);
	ck_assert_uint_eq(sqe->flags & IOSQE_ASYNC, 0);
	sqe = queue_sqe(&g, 1, IO_WRITE);
	ck_assert_uint_eq(sqe->opcode, IORING_OP_WRITE);
	ck_assert_uint_eq(sqe->off, BS);
	rig_close(&g);
}
END_TEST

/* nonvectored=0: readv/writev of one vector, the request's buffer. */
START_TEST(uring_nonvectored_0_is_readv_writev)
{
	struct rig g;
	const struct io_uring_sqe *sqe;
	const struct iovec *iov;

	rig_open(&g, "io_uring", "nonvectored=0");
	ck_assert_int_eq(g.init_ret, 0);
	sqe = queue_sqe(&g, 2, IO_READ);
	ck_assert_uint_eq(sqe->opcode, IORING_OP_READV);
	ck_assert_uint_eq(sqe->len, 1);
	iov = (const struct iovec *)(uintptr_t)sqe->addr;
	ck_assert_ptr_eq(iov->iov_base, g.e.bufs + 2 * BS);
	ck_assert_uint_eq(iov->iov_len, BS);
	ck_assert_uint_eq(sqe->off, 2 * BS);
	sqe = queue_sqe(&g, 3, IO_WRITE);
	ck_assert_uint_eq(sqe->opcode, IORING_OP_WRITEV);
	rig_close(&g);
	rig_open(&g, "io_uring", "nonvectored=1\nfixedbufs=0");
	ck_assert_int_eq(g.init_ret, 0);
	ck_assert_uint_eq(queue_sqe(&g, 0, IO_WRITE)->opcode, IORING_OP_WRITE);
	rig_close(&g);
}
END_TEST

/*
 * Unset, fixedbufs and registerfiles register: READ_FIXED of the request's own buffer
 * (buf_index its slot) on the file's registered index. A sync takes the fixed file too.
 */
START_TEST(uring_default_registers_buffers_and_files)
{
	struct rig g;
	const struct io_uring_sqe *sqe;

	rig_open(&g, "io_uring", "");
	ck_assert_int_eq(g.init_ret, 0);
	sqe = queue_sqe(&g, 3, IO_READ);
	ck_assert_uint_eq(sqe->opcode, IORING_OP_READ_FIXED);
	ck_assert_uint_eq(sqe->buf_index, 3);
	ck_assert_uint_eq(sqe->addr, (uintptr_t)(g.e.bufs + 3 * BS));
	ck_assert_uint_ne(sqe->flags & IOSQE_FIXED_FILE, 0);
	ck_assert_int_eq(sqe->fd, 0);
	sqe = queue_sqe(&g, 4, IO_WRITE);
	ck_assert_uint_eq(sqe->opcode, IORING_OP_WRITE_FIXED);
	ck_assert_uint_eq(sqe->buf_index, 4);
	sqe = queue_sqe(&g, 5, IO_FSYNC);
	ck_assert_uint_ne(sqe->flags & IOSQE_FIXED_FILE, 0);
	/* and the kernel takes them: the reads come back whole */
	ck_assert_int_eq(g.e.ops->submit(&g.e), 3);
	for (unsigned done = 0; done < 3;) {
		int n = g.e.ops->getevents(&g.e, 1, NREQS);

		ck_assert_int_gt(n, 0);
		for (int i = 0; i < n; i++) {
			struct io_req *r = g.e.ops->event(&g.e, (unsigned)i);

			ck_assert_int_eq(r->res, r->dir == IO_FSYNC ? 0 : BS);
		}
		done += (unsigned)n;
	}
	rig_close(&g);
}
END_TEST

/* Set explicitly, each keeps fio's meaning: 0 registers nothing, the other still registers. */
START_TEST(uring_explicit_zero_registers_nothing)
{
	struct rig g;
	const struct io_uring_sqe *sqe;

	rig_open(&g, "io_uring", "fixedbufs=0");
	ck_assert_int_eq(g.init_ret, 0);
	sqe = queue_sqe(&g, 1, IO_READ);
	ck_assert_uint_eq(sqe->opcode, IORING_OP_READ);
	ck_assert_uint_ne(sqe->flags & IOSQE_FIXED_FILE, 0);
	rig_close(&g);
	rig_open(&g, "io_uring", "registerfiles=0");
	ck_assert_int_eq(g.init_ret, 0);
	sqe = queue_sqe(&g, 1, IO_READ);
	ck_assert_uint_eq(sqe->opcode, IORING_OP_READ_FIXED);
	ck_assert_uint_eq(sqe->flags & IOSQE_FIXED_FILE, 0);
	ck_assert_int_eq(sqe->fd, g.file.fd);
	rig_close(&g);
	/* nonvectored=0 asks for readv: no buffers registered behind its back */
	rig_open(&g, "io_uring", "nonvectored=0");
	ck_assert_int_eq(g.init_ret, 0);
	ck_assert_uint_eq(queue_sqe(&g, 0, IO_READ)->opcode, IORING_OP_READV);
	rig_close(&g);
}
END_TEST

/*
 * Buffers the kernel will not register (a shared mapping of a file: no long-term pins):
 * unset, fixedbufs falls back to plain reads; fixedbufs=1, as fio, fails the job.
 */
START_TEST(uring_unregistrable_buffers_fall_back_unless_asked)
{
	struct rig g;

	rig_open_mapped(&g, "io_uring", "");
	ck_assert_int_eq(g.init_ret, 0);
	rig_one_read(&g);
	ck_assert_uint_eq(((const struct io_uring_sqe *)ioengine_uring_peek(&g.e))->opcode,
			  IORING_OP_READ);
	rig_close(&g);
	rig_open_mapped(&g, "io_uring", "fixedbufs=1");
	ck_assert_int_lt(g.init_ret, 0);
	rig_close(&g);
}
END_TEST

/* nowait: RWF_NOWAIT on reads and writes, direct or not; never on a sync. */
START_TEST(uring_nowait_sets_rwf_nowait)
{
	struct rig g;

	rig_open(&g, "io_uring", "nowait=1\nnonvectored=0");
	ck_assert_int_eq(g.init_ret, 0);
	ck_assert_uint_eq(queue_sqe(&g, 0, IO_READ)->rw_flags, RWF_NOWAIT);
	ck_assert_uint_eq(queue_sqe(&g, 1, IO_WRITE)->rw_flags, RWF_NOWAIT);
	ck_assert_uint_eq(queue_sqe(&g, 2, IO_FSYNC)->opcode, IORING_OP_FSYNC);
	rig_close(&g);
	rig_open(&g, "io_uring", "nowait=1\nfixedbufs=1");
	ck_assert_int_eq(g.init_ret, 0);
	ck_assert_uint_eq(queue_sqe(&g, 0, IO_READ)->opcode, IORING_OP_READ_FIXED);
	ck_assert_uint_eq(queue_sqe(&g, 1, IO_READ)->rw_flags, RWF_NOWAIT);
	rig_close(&g);
}
END_TEST

/* atomic=1 (fio HEAD): RWF_ATOMIC on writes alone, beside nowait's RWF_NOWAIT. */
START_TEST(uring_atomic_marks_writes)
{
	struct rig g;

	rig_open(&g, "io_uring", "atomic=1\nnowait=1");
	ck_assert_int_eq(g.init_ret, 0);
	ck_assert_uint_eq(queue_sqe(&g, 0, IO_READ)->rw_flags, RWF_NOWAIT);
	ck_assert_uint_eq(queue_sqe(&g, 1, IO_WRITE)->rw_flags, RWF_NOWAIT | RWF_ATOMIC);
	rig_close(&g);
	rig_open(&g, "io_uring", "atomic=1\nnonvectored=0");
	ck_assert_int_eq(g.init_ret, 0);
	ck_assert_uint_eq(queue_sqe(&g, 0, IO_WRITE)->rw_flags, RWF_ATOMIC);
	rig_close(&g);
}
END_TEST

/* uncached: RWF_DONTCACHE on buffered I/O only, as fio (direct I/O caches nothing). */
START_TEST(uring_uncached_sets_rwf_dontcache_when_buffered)
{
	struct rig g;

	rig_open(&g, "io_uring", "uncached=1");
	if (g.init_ret == -EOPNOTSUPP) {
		test_skipping("uncached", "/var/tmp's file system refuses RWF_DONTCACHE");
		rig_close(&g);
		return;
	}
	ck_assert_int_eq(g.init_ret, 0);
	ck_assert_uint_eq(queue_sqe(&g, 0, IO_READ)->rw_flags, RWF_DONTCACHE);
	ck_assert_uint_eq(queue_sqe(&g, 1, IO_WRITE)->rw_flags, RWF_DONTCACHE);
	rig_close(&g);
	rig_open(&g, "io_uring", "uncached=1\nnowait=1\ndirect=1");
	ck_assert_int_eq(g.init_ret, 0);
	ck_assert_uint_eq(queue_sqe(&g, 0, IO_READ)->rw_flags, RWF_NOWAIT);
	rig_close(&g);
}
END_TEST

/* How many of the rig's file's pages are in the page cache (mincore). */
static unsigned cached_pages(const struct rig *g)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), n = NREQS * BS / page;
	unsigned char vec[NREQS * BS / 4096];
	unsigned cached = 0;
	void *map;

	ck_assert_uint_le(n, sizeof(vec));
	map = mmap(NULL, NREQS * BS, PROT_READ, MAP_SHARED, g->file.fd, 0);
	ck_assert(map != MAP_FAILED);
	ck_assert_int_eq(mincore(map, NREQS * BS, vec), 0);
	for (size_t i = 0; i < n; i++)
		cached += vec[i] & 1;
	munmap(map, NREQS * BS);
	return cached;
}

/*
 * The effect of uncached: buffered reads of a file not in the page cache leave none of it
 * there with uncached=1, and all of it with uncached=0.
 */
START_TEST(uring_uncached_reads_leave_no_pages)
{
	for (int uncached = 0; uncached <= 1; uncached++) {
		struct rig g;

		rig_open(&g, "io_uring", uncached ? "uncached=1" : "uncached=0");
		if (g.init_ret == -EOPNOTSUPP) {
			test_skipping("uncached", "/var/tmp's file system refuses RWF_DONTCACHE");
			rig_close(&g);
			return;
		}
		ck_assert_int_eq(g.init_ret, 0);
		memset(g.e.bufs, 0x5a, NREQS * BS);
		ck_assert_int_eq(pwrite(g.file.fd, g.e.bufs, NREQS * BS, 0), NREQS * BS);
		ck_assert_int_eq(fdatasync(g.file.fd), 0);
		ck_assert_int_eq(posix_fadvise(g.file.fd, 0, 0, POSIX_FADV_DONTNEED), 0);
		ck_assert_uint_eq(cached_pages(&g), 0);
		for (unsigned i = 0; i < NREQS; i++)
			rig_queue(&g, i, IO_READ);
		ck_assert_int_eq(g.e.ops->submit(&g.e), NREQS);
		for (unsigned done = 0; done < NREQS;) {
			int n = g.e.ops->getevents(&g.e, 1, NREQS);

			ck_assert_int_gt(n, 0);
			for (int i = 0; i < n; i++)
				ck_assert_int_eq(g.e.ops->event(&g.e, (unsigned)i)->res, BS);
			done += (unsigned)n;
		}
		ck_assert_uint_eq(cached_pages(&g),
				  uncached ? 0 : NREQS * BS / (size_t)sysconf(_SC_PAGESIZE));
		rig_close(&g);
	}
}
END_TEST

/* force_async=3: IOSQE_ASYNC on the 3rd and 6th I/O, syncs counted as fio counts them. */
START_TEST(uring_force_async_marks_every_nth)
{
	static const int dirs[NREQS] = { IO_READ, IO_WRITE, IO_READ, IO_FSYNC, IO_WRITE,
					 IO_READ, IO_READ, IO_WRITE };
	struct rig g;

	rig_open(&g, "io_uring", "force_async=3");
	ck_assert_int_eq(g.init_ret, 0);
	for (unsigned i = 0; i < NREQS; i++) {
		const struct io_uring_sqe *sqe = queue_sqe(&g, i, dirs[i]);
		bool want = (i + 1) % 3 == 0;

		ck_assert_msg(!!(sqe->flags & IOSQE_ASYNC) == want, "I/O %u: IOSQE_ASYNC %s", i,
			      want ? "missing" : "set");
	}
	rig_close(&g);
}
END_TEST

/* The Cpus_allowed_list of task tid if it is an io_uring SQPOLL thread (iou-sqp-*). */
static bool sqpoll_task_cpus(const char *tid, char *out, size_t len)
{
	char path[PATH_MAX], line[256], cpus[256];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%s/comm", tid);
	f = fopen(path, "r");
	if (!f)
		return false;
	found = fgets(line, sizeof(line), f) && !strncmp(line, "iou-sqp-", 8);
	fclose(f);
	if (!found)
		return false;
	snprintf(path, sizeof(path), "/proc/self/task/%s/status", tid);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Cpus_allowed_list: %255s", cpus) == 1)
			snprintf(out, len, "%s", cpus);
	fclose(f);
	return true;
}

/* Whether one of the process's SQPOLL threads may run on exactly the CPUs cpus. */
static bool sqpoll_on(const char *cpus)
{
	DIR *dir = opendir("/proc/self/task");
	struct dirent *de;
	char got[256];
	bool found = false;

	ck_assert_ptr_nonnull(dir);
	while (!found && (de = readdir(dir)))
		found = de->d_name[0] != '.' && sqpoll_task_cpus(de->d_name, got, sizeof(got)) &&
			!strcmp(got, cpus);
	closedir(dir);
	return found;
}

/*
 * One read through the ring, waited for: the SQPOLL thread names itself and sets its
 * affinity when it starts, so once it has done an I/O both can be read.
 */
static void rig_one_read(struct rig *g)
{
	rig_queue(g, 0, IO_READ);
	ck_assert_int_eq(g->e.ops->submit(&g->e), 1);
	ck_assert_int_eq(g->e.ops->getevents(&g->e, 1, 1), 1);
	ck_assert_int_eq(g->e.ops->event(&g->e, 0)->res, BS);
}

/*
 * sqthread_poll_cpu=N pins the SQPOLL thread to CPU N (the highest this process may use);
 * without it the thread may run wherever the process may.
 */
START_TEST(uring_sqthread_poll_cpu_pins_the_sq_thread)
{
	cpu_set_t set;
	char opts[128], want[16], all[256];
	int cpu = -1;
	struct rig g;
	FILE *f;

	ck_assert_int_eq(sched_getaffinity(0, sizeof(set), &set), 0);
	for (int i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			cpu = i;
	snprintf(opts, sizeof(opts), "sqthread_poll=1\nsqthread_poll_cpu=%d", cpu);
	snprintf(want, sizeof(want), "%d", cpu);
	rig_open(&g, "io_uring", opts);
	ck_assert_int_eq(g.init_ret, 0);
	rig_one_read(&g);
	ck_assert_msg(sqpoll_on(want), "no SQPOLL thread on CPU %s only", want);
	rig_close(&g);
	if (CPU_COUNT(&set) == 1)
		return;
	f = fopen("/proc/self/status", "r");
	ck_assert_ptr_nonnull(f);
	all[0] = '\0';
	while (fgets(opts, sizeof(opts), f))
		if (sscanf(opts, "Cpus_allowed_list: %255s", all) == 1)
			break;
	fclose(f);
	rig_open(&g, "io_uring", "sqthread_poll=1");
	ck_assert_int_eq(g.init_ret, 0);
	rig_one_read(&g);
	ck_assert_msg(sqpoll_on(all), "no SQPOLL thread on the process's CPUs %s", all);
	rig_close(&g);
}
END_TEST
#endif

#if HAVE_LIBAIO
/* libaio's nowait: RWF_NOWAIT in the iocb's aio_rw_flags of reads and writes. */
START_TEST(aio_nowait_sets_aio_rw_flags)
{
	struct rig g;

	for (int nowait = 0; nowait <= 1; nowait++) {
		rig_open(&g, "libaio", nowait ? "nowait=1" : "");
		ck_assert_int_eq(g.init_ret, 0);
		for (unsigned i = 0; i < 2; i++) {
			const struct iocb *cb;

			rig_queue(&g, i, i ? IO_WRITE : IO_READ);
			cb = ioengine_aio_peek(&g.e);
			ck_assert_int_eq(cb->aio_lio_opcode, i ? IO_CMD_PWRITE : IO_CMD_PREAD);
			ck_assert_uint_eq(cb->aio_rw_flags, nowait ? RWF_NOWAIT : 0);
		}
		rig_close(&g);
	}
}
END_TEST

/* libaio's atomic=1 (fio HEAD): RWF_ATOMIC in the writes' aio_rw_flags alone. */
START_TEST(aio_atomic_marks_writes)
{
	struct rig g;

	rig_open(&g, "libaio", "atomic=1");
	ck_assert_int_eq(g.init_ret, 0);
	rig_queue(&g, 0, IO_READ);
	ck_assert_uint_eq(((const struct iocb *)ioengine_aio_peek(&g.e))->aio_rw_flags, 0);
	rig_queue(&g, 1, IO_WRITE);
	ck_assert_uint_eq(((const struct iocb *)ioengine_aio_peek(&g.e))->aio_rw_flags,
			  RWF_ATOMIC);
	rig_close(&g);
}
END_TEST
#endif

#if HAVE_LIBURING
/* Whether this kernel lets us set up a ring at all (io_uring_disabled, a sandbox). */
static bool uring_usable(void)
{
	struct io_uring ring;

	if (io_uring_queue_init(1, &ring, 0) < 0)
		return false;
	io_uring_queue_exit(&ring);
	return true;
}
#endif

static Suite *engine_prep_suite(void)
{
	Suite *s = suite_create("engine_prep");
	TCase *tc = tcase_create("prep");

#if HAVE_LIBURING
	if (!uring_usable())
		test_skipping("io_uring", "the kernel refuses io_uring_setup here");
	if (uring_usable()) {
		tcase_add_test(tc, uring_unregistered_is_plain_read_write);
		tcase_add_test(tc, uring_default_registers_buffers_and_files);
		tcase_add_test(tc, uring_explicit_zero_registers_nothing);
		tcase_add_test(tc, uring_unregistrable_buffers_fall_back_unless_asked);
		tcase_add_test(tc, uring_nonvectored_0_is_readv_writev);
		tcase_add_test(tc, uring_nowait_sets_rwf_nowait);
		tcase_add_test(tc, uring_atomic_marks_writes);
		tcase_add_test(tc, uring_uncached_sets_rwf_dontcache_when_buffered);
		tcase_add_test(tc, uring_uncached_reads_leave_no_pages);
		tcase_add_test(tc, uring_force_async_marks_every_nth);
		tcase_add_test(tc, uring_sqthread_poll_cpu_pins_the_sq_thread);
	}
#endif
#if HAVE_LIBAIO
	tcase_add_test(tc, aio_nowait_sets_aio_rw_flags);
	tcase_add_test(tc, aio_atomic_marks_writes);
#endif
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(engine_prep_suite());
}
