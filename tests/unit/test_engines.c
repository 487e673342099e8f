/*
 * Tests for the engine module through its public API: job text is parsed, built and run
 * (run_prepare, run_execute) with every ioengine, on files in a scratch directory under
 * /var/tmp and on loop devices, and what reached the files is read back here. Engines the
 * build or the kernel lacks, and the loop device tests without root, are skipped.
 */
#include "engine/engine.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/aio_abi.h>
#include <linux/io_uring.h>

#include <check.h>

#include "jobs/jobs.h"
#include "loopdev.h"
#include "output/stats.h"
#include "base/diag.h"
#include "parser/jobfile.h"
#include "test_util.h"

#define SCRATCH_BASE	"/var/tmp"	/* ext4 on the test machines: O_DIRECT works there */
#define FILE_BYTES	(4u << 20)
#define BS		(16u << 10)
#define NBLOCKS		(FILE_BYTES / BS)
#define DEV_BS		(64u << 10)
#define DEV_BLOCKS	(LOOPDEV_IMG_BYTES / DEV_BS)

static const unsigned char pattern[] = { 0xde, 0xad, 0xbe, 0xef };
static const unsigned char pattern3[] = { 0xde, 0xad, 0xbe };	/* a block is not a multiple */
static const unsigned char zero[] = { 0 };

/* --- engines this machine can run ------------------------------------------------------- */

/*
 * The engines that move data to and from files, as the engine catalog lists them (built or
 * not): every engine but those with no files, no data or only a runtime (null, cpuio,
 * exec, the metadata engines, falloc, ftruncate) and those of a device (device_engines,
 * tested in tests/e2e/sg.py or not at all). An engine added to engine/ioengines/registry.c
 * is tested here without a line of its own. Filled by main() before forking.
 */
static const char *file_engines[IOENGINE_MAX];
static unsigned nfile_engines;
static const char *const device_engines[] = { "sg", "io_uring_cmd" };

/* Why file_engines[i] cannot run here, "" when it can; filled with it. */
static char engine_why[IOENGINE_MAX][256];
/* Its catalog flags (ENGINE_*), from the same place. */
static unsigned engine_flags[IOENGINE_MAX];

/* The kernel side of each asynchronous engine, asked the way the engine will ask. */
static int probe_aio(void)
{
	aio_context_t ctx = 0;

	if (syscall(SYS_io_setup, 1, &ctx) < 0)
		return -errno;
	syscall(SYS_io_destroy, ctx);
	return 0;
}

static int probe_uring(void)
{
	struct io_uring_params p;
	int fd;

	memset(&p, 0, sizeof(p));
	fd = (int)syscall(SYS_io_uring_setup, 1, &p);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static bool moves_file_data(const struct engine_info *info)
{
	if (info->flags & (ENGINE_NO_FILES | ENGINE_NO_DATA | ENGINE_TIMED))
		return false;
	for (unsigned i = 0; i < TABLE_LEN(device_engines); i++)
		if (!strcmp(info->name, device_engines[i]))
			return false;
	return true;
}

static void probe_engines(void)
{
	static struct engine_info cat[IOENGINE_MAX];	/* file_engines point into it */
	unsigned n = engine_catalog(cat, IOENGINE_MAX);

	for (unsigned i = 0; i < n; i++) {
		unsigned e = nfile_engines;
		const char *name = cat[i].name;
		char *why = engine_why[e];
		int ret = 0;

		if (!moves_file_data(&cat[i]))
			continue;
		file_engines[nfile_engines++] = name;
		snprintf(why, sizeof(engine_why[e]), "%s",
			 cat[i].available ? "" : cat[i].why_missing);
		engine_flags[e] = cat[i].flags;
		if (why[0])
			continue;
#ifdef __SANITIZE_THREAD__
		/* glibc's AIO starts its helper threads with an internal pthread_create that
		 * ThreadSanitizer does not intercept: they crash in its allocator */
		if (!strcmp(name, "posixaio")) {
			snprintf(why, sizeof(engine_why[e]), "ThreadSanitizer cannot run glibc's AIO "
				 "helper threads");
			continue;
		}
#endif
		if (!strcmp(name, "libaio"))
			ret = probe_aio();
		else if (!strcmp(name, "io_uring"))
			ret = probe_uring();
		if (ret < 0)
			snprintf(why, sizeof(engine_why[e]), "the kernel refused to set it up: %s",
				 strerror(-ret));
	}
}

/* Whether file_engines[e] keeps I/Os in flight together: its catalog says so. */
static bool is_async(unsigned e)
{
	return !(engine_flags[e] & ENGINE_SYNC);
}

/* --- running job text ------------------------------------------------------------------- */

/* One run of job text: what it was built from, and its results. */
struct trial {
	struct engine_info engines[IOENGINE_MAX];
	struct jobfile jf;
	struct job_list jobs;
	struct run run;
	struct diag d;
};

/* Parse and build the job text, then run_prepare() it; run_prepare's result. */
static int vprepare(struct trial *x, const char *fmt, va_list ap)
{
	struct job_input in = { .cli_defaults = -1, .check_paths = true };
	char text[4096];
	int n;

	memset(x, 0, sizeof(*x));
	n = vsnprintf(text, sizeof(text), fmt, ap);
	ck_assert_int_lt(n, sizeof(text));
	ck_assert_msg(jobfile_parse_string(&x->jf, "test.fio", text, &x->d) == 0, "parse: %s",
		      x->d.msg);
	in.jf = &x->jf;
	in.engines = x->engines;
	in.nengines = engine_catalog(x->engines, IOENGINE_MAX);
	ck_assert_msg(jobs_build(&in, &x->jobs, &x->d) == 0, "build: %s", x->d.msg);
	return run_prepare(&x->run, &x->jobs, &x->d);
}

static int prepare(struct trial *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int prepare(struct trial *x, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vprepare(x, fmt, ap);
	va_end(ap);
	return ret;
}

/* Prepare (which must succeed) and execute; run_execute's result, 0 if every job ran. */
static int run_jobs(struct trial *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int run_jobs(struct trial *x, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vprepare(x, fmt, ap);
	va_end(ap);
	ck_assert_msg(ret == 0, "run_prepare: %s", x->d.msg);
	return run_execute(&x->run, &x->d);
}

static void trial_free(struct trial *x)
{
	run_free(&x->run);
	jobs_free(&x->jobs);
	jobfile_free(&x->jf);
	diag_clear(&x->d);
}

static const struct job_stats *stats(const struct trial *x, unsigned job)
{
	ck_assert_uint_lt(job, x->jobs.njobs);
	return x->run.results[job].st;
}

static void assert_no_error(const struct trial *x, unsigned job)
{
	const struct job_result *res = &x->run.results[job];

	ck_assert_msg(res->error == 0, "job %u: %s", job, res->error_msg);
	ck_assert_int_eq(res->st->error, 0);
	ck_assert_uint_eq(res->st->total_err, 0);
}

/* The job issued and completed n whole I/Os of bs bytes in direction dir, each timed. */
static void assert_did(const struct trial *x, unsigned job, int dir, uint64_t n, uint64_t bs)
{
	const struct job_stats *st = stats(x, job);

	assert_no_error(x, job);
	ck_assert_uint_eq(st->issued[dir], n);
	ck_assert_uint_eq(st->dir[dir].ios, n);
	ck_assert_uint_eq(st->dir[dir].bytes, n * bs);
	ck_assert_uint_eq(st->dir[dir].clat.n, n);
	ck_assert_uint_eq(st->dir[dir].short_ios, 0);
}

static uint64_t depth_total(const struct job_stats *st)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < STATS_DEPTH_NR; i++)
		n += st->depth[i];
	return n;
}

/* --- files ------------------------------------------------------------------------------ */

/* A fresh directory for one test, inside the fixture's; removed with it. */
static void make_test_dir(char *dir, size_t len)
{
	REQUIRE_FIXTURE();
	ck_assert_int_lt(snprintf(dir, len, "%s/t-XXXXXX", fx.dir), len);
	ck_assert_msg(mkdtemp(dir), "mkdtemp '%s': %s", dir, strerror(errno));
}

static void scratch_setup(void)
{
	loopdev_make_dir(SCRATCH_BASE, "iojob-engines");
}

static int64_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) < 0 ? -errno : (int64_t)st.st_size;
}

static void make_file(const char *path, uint64_t bytes, const unsigned char *pat, size_t len)
{
	unsigned char buf[4096];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	ck_assert_msg(fd >= 0, "create '%s': %s", path, strerror(errno));
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = pat[i % len];
	for (uint64_t off = 0; off < bytes; off += sizeof(buf))
		ck_assert_int_eq(pwrite(fd, buf, sizeof(buf), (off_t)off), sizeof(buf));
	close(fd);
}

/* Every byte of [0, bytes) of path, read here with pread(2), is pat[(off % bs) % len]. */
static void assert_pattern(const char *path, uint64_t bytes, uint32_t bs,
			   const unsigned char *pat, size_t len)
{
	unsigned char *buf = malloc(bs);
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	ck_assert_ptr_nonnull(buf);
	ck_assert_msg(fd >= 0, "open '%s': %s", path, strerror(errno));
	for (uint64_t off = 0; off < bytes; off += bs) {
		ck_assert_int_eq(pread(fd, buf, bs, (off_t)off), bs);
		for (uint32_t i = 0; i < bs; i++)
			if (buf[i] != pat[i % len])
				ck_abort_msg("'%s' at offset %llu: 0x%02x, not 0x%02x", path,
					     (unsigned long long)(off + i), buf[i], pat[i % len]);
	}
	close(fd);
	free(buf);
}

static unsigned count_entries(const char *dir)
{
	struct dirent *e;
	unsigned n = 0;
	DIR *d = opendir(dir);

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* --- every engine, every depth, buffered and direct ------------------------------------- */

struct engine_case {
	unsigned engine;	/* index into file_engines */
	unsigned iodepth;
	bool direct;
};

/*
 * Grouped by engine, four cases each (depth 1 and 32, buffered and direct), so an
 * engine's cases can be skipped as a range: case i of them all.
 */
#define CASES_PER_ENGINE 4

static struct engine_case engine_case(int i)
{
	unsigned k = (unsigned)i % CASES_PER_ENGINE;

	return (struct engine_case){ (unsigned)i / CASES_PER_ENGINE, k < 2 ? 1 : 32, k & 1 };
}

static const char *case_global(const struct engine_case *c, const char *path, char *buf,
			       size_t len)
{
	snprintf(buf, len, "[global]\nfilename=%s\nioengine=%s\niodepth=%u\ndirect=%d\n"
		 "size=%u\nbs=%u\n", path, file_engines[c->engine], c->iodepth, c->direct,
		 FILE_BYTES, BS);
	return buf;
}

START_TEST(seq_write_then_read_keep_the_pattern)
{
	const struct engine_case ec = engine_case(_i), *c = &ec;
	const char *engine = file_engines[c->engine];
	char dir[PATH_MAX], path[PATH_MAX + 8], global[PATH_MAX + 256];
	struct trial x;

	make_test_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/data", dir);
	/* Whole batches of 32, submitted and reaped at once, keep 32 in flight to the end. */
	ck_assert_int_eq(run_jobs(&x, "%siodepth_batch_submit=32\niodepth_batch_complete_min=32\n"
				  "[write]\nrw=write\nbuffer_pattern=0xdeadbe\n"
				  "[read]\nstonewall\nrw=read\n",
				  case_global(c, path, global, sizeof(global))), 0);
	for (unsigned j = 0; j < 2; j++) {
		const struct job_stats *st = stats(&x, j);

		assert_did(&x, j, j ? IO_READ : IO_WRITE, NBLOCKS, BS);
		ck_assert_uint_eq(depth_total(st), NBLOCKS);
		if (c->iodepth == 32 && c->direct && is_async(c->engine))
			ck_assert_msg(st->depth[5] == NBLOCKS, "%s job %u: %llu of %u I/Os at "
				      "depth 32", engine, j, (unsigned long long)st->depth[5],
				      NBLOCKS);
	}
	trial_free(&x);
	ck_assert_int_eq(file_size(path), FILE_BYTES);
	assert_pattern(path, FILE_BYTES, BS, pattern3, sizeof(pattern3));
}
END_TEST

START_TEST(randwrite_covers_every_block_once)
{
	const struct engine_case ec = engine_case(_i), *c = &ec;
	char dir[PATH_MAX], path[PATH_MAX + 8], global[PATH_MAX + 256];
	struct trial x;

	make_test_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/data", dir);
	ck_assert_int_eq(run_jobs(&x, "%s[fill]\nrw=write\nbuffer_pattern=0xdeadbeef\n[zero]\n"
				  "stonewall\nrw=randwrite\nnorandommap=0\nzero_buffers=1\n",
				  case_global(c, path, global, sizeof(global))), 0);
	assert_did(&x, 0, IO_WRITE, NBLOCKS, BS);
	/* NBLOCKS writes left no block of the pattern: each block was written exactly once. */
	assert_did(&x, 1, IO_WRITE, NBLOCKS, BS);
	trial_free(&x);
	assert_pattern(path, FILE_BYTES, BS, zero, sizeof(zero));
}
END_TEST

/* Engine options that change how requests reach the kernel, each with its engine. */
struct option_case {
	const char *engine;	/* one of file_engines */
	const char *options;
};

static const struct option_case option_cases[] = {
	{ "libaio", "userspace_reap=1" },
	{ "io_uring", "fixedbufs=1" },
	{ "io_uring", "registerfiles=1" },
	{ "io_uring", "sqthread_poll=1" },
	{ "io_uring", "sqthread_poll=1\nfixedbufs=1\nregisterfiles=1" },
	/* issue 16: readv/writev of the slot's vector; IOSQE_ASYNC on some or all I/Os */
	{ "io_uring", "nonvectored=0" },
	{ "io_uring", "nonvectored=0\nforce_async=3\nregisterfiles=1" },
	{ "io_uring", "force_async=1\nsqthread_poll=1\nsqthread_poll_cpu=0" },
	{ "pvsync2", "hipri=1" },
	{ "pvsync2", "hipri=1\nhipri_percentage=50" },
};

/* Whether the file engine named name can run here (in the catalog, built, set up). */
static bool file_engine_runs(const char *name)
{
	for (unsigned e = 0; e < nfile_engines; e++)
		if (!strcmp(file_engines[e], name))
			return !engine_why[e][0];
	return false;
}

START_TEST(engine_options_keep_the_data)
{
	const struct option_case *c = &option_cases[_i];
	char dir[PATH_MAX], path[PATH_MAX + 8];
	struct trial x;

	make_test_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/data", dir);
	ck_assert_int_eq(run_jobs(&x, "[global]\nfilename=%s\nioengine=%s\n%s\niodepth=16\n"
				  "direct=1\nsize=%u\nbs=%u\n[write]\nrw=write\n"
				  "buffer_pattern=0xdeadbe\n[read]\nstonewall\nrw=randread\n",
				  path, c->engine, c->options, FILE_BYTES, BS), 0);
	assert_did(&x, 0, IO_WRITE, NBLOCKS, BS);
	assert_did(&x, 1, IO_READ, NBLOCKS, BS);
	trial_free(&x);
	assert_pattern(path, FILE_BYTES, BS, pattern3, sizeof(pattern3));
}
END_TEST

START_TEST(fsync_every_n_writes_and_at_the_end)
{
	char dir[PATH_MAX];
	struct trial x;

	make_test_dir(dir, sizeof(dir));
	/*
	 * 256 writes, a sync after every 4th of the job as fio: 63, since fio syncs before the
	 * next I/O and the last write has none; every4end's two files also get one each at
	 * the end (end_fsync).
	 */
	ck_assert_int_eq(run_jobs(&x, "[global]\nioengine=%s\niodepth=8\nrw=write\nsize=1m\n"
				  "bs=4k\nfsync=4\ndirectory=%s\n[every4]\n[every4end]\n"
				  "nrfiles=2\nend_fsync=1\n", file_engines[_i], dir), 0);
	for (unsigned j = 0; j < 2; j++) {
		const struct job_stats *st = stats(&x, j);

		assert_did(&x, j, IO_WRITE, 256, 4096);
		ck_assert_uint_eq(st->sync_ios, 256 / 4 - 1 + 2 * j);
		/* as fio: end_fsync's syncs are neither counted nor timed */
		ck_assert_uint_eq(st->fsync_ios, 256 / 4 - 1);
		ck_assert_uint_eq(st->sync_lat.n, 256 / 4 - 1);
	}
	trial_free(&x);
}
END_TEST

/*
 * fdatasync= syncs are timed but not counted in issued rwts' last column (fio shows 0
 * there and in sync's total_ios); a write job's verify reads are reads with a runtime, so
 * they get their read line as in fio, each line the time of its own phase.
 */
START_TEST(fdatasync_and_verify_reads_are_accounted_as_fio)
{
	char dir[PATH_MAX];
	const struct job_stats *st;
	struct trial x;

	make_test_dir(dir, sizeof(dir));
	ck_assert_int_eq(run_jobs(&x, "[w]\nioengine=%s\nrw=write\nsize=256k\nbs=4k\n"
				  "fdatasync=4\ndirectory=%s\n[v]\nioengine=%s\nrw=write\n"
				  "size=256k\nbs=4k\nverify=crc32c\nverify_state_save=0\n"
				  "directory=%s\n",
				  file_engines[_i], dir, file_engines[_i], dir), 0);
	st = stats(&x, 0);
	/* after every 4th write but the last, as fio */
	ck_assert_uint_eq(st->sync_ios, 64 / 4 - 1);
	ck_assert_uint_eq(st->fsync_ios, 0);
	ck_assert_uint_eq(st->sync_lat.n, 64 / 4 - 1);
	st = stats(&x, 1);
	ck_assert_uint_eq(st->dir[IO_READ].ios, 64);
	/* each line runs as long as its phase, as fio's: the writes, then the verify pass */
	ck_assert_uint_gt(st->dir[IO_READ].runtime_ns, 0);
	ck_assert_uint_gt(st->dir[IO_WRITE].runtime_ns, 0);
	ck_assert_uint_eq(st->dir[IO_READ].runtime_ns + st->dir[IO_WRITE].runtime_ns,
			  st->runtime_ns);
	trial_free(&x);
}
END_TEST

/* More files than posixaio waits on at once (8), 32 deep: every block written and checked. */
START_TEST(many_files_at_depth_keep_the_data)
{
	char dir[PATH_MAX];
	const struct job_stats *st;
	struct trial x;

	make_test_dir(dir, sizeof(dir));
	ck_assert_int_eq(run_jobs(&x, "[many]\nioengine=%s\niodepth=32\nrw=randwrite\n"
				  "nrfiles=12\nsize=1536k\nbs=4k\nverify=crc32c\nverify_state_save=0\n"
				  "directory=%s\n",
				  file_engines[_i], dir), 0);
	assert_no_error(&x, 0);
	st = stats(&x, 0);
	ck_assert_uint_eq(st->dir[IO_WRITE].ios, 384);
	ck_assert_uint_eq(st->dir[IO_READ].ios, 384);
	trial_free(&x);
	ck_assert_uint_eq(count_entries(dir), 12);
}
END_TEST

/* --- null ------------------------------------------------------------------------------- */

START_TEST(null_completes_every_io_without_files)
{
	static const unsigned depths[] = { 1, 32 };
	const struct job_stats *st;
	char dir[PATH_MAX];
	struct trial x;

	make_test_dir(dir, sizeof(dir));
	ck_assert_int_eq(run_jobs(&x, "[null]\nioengine=null\niodepth=%u\nrw=write\nsize=%u\n"
				  "bs=%u\ndirectory=%s\n", depths[_i], FILE_BYTES, BS, dir), 0);
	st = stats(&x, 0);
	assert_did(&x, 0, IO_WRITE, NBLOCKS, BS);
	ck_assert_uint_eq(depth_total(st), NBLOCKS);
	if (depths[_i] == 32)
		ck_assert_uint_gt(st->depth[5], 0);
	trial_free(&x);
	ck_assert_uint_eq(count_entries(dir), 0);
}
END_TEST

/* --- issue 16: the engines that move no data ------------------------------------------- */

#define NODATA_FILES	8

/* One engine and pattern: the entries its directory holds after the run. */
struct nodata_case {
	const char *engine;
	const char *rw;
	int before;		/* what exists first: 0 nothing, 'f' files, 'd' directories */
	unsigned left;		/* entries in the directory afterwards */
};

static const struct nodata_case nodata_cases[] = {
	{ "filecreate", "read", 0, NODATA_FILES }, { "filecreate", "write", 0, NODATA_FILES },
	{ "filecreate", "randread", 0, NODATA_FILES }, { "filecreate", "randrw", 0, NODATA_FILES },
	{ "filestat", "read", 'f', NODATA_FILES }, { "filestat", "randwrite", 'f', NODATA_FILES },
	{ "filestat", "rw", 0, NODATA_FILES },
	{ "filedelete", "read", 'f', 0 }, { "filedelete", "randwrite", 'f', 0 },
	{ "filedelete", "rw", 0, 0 },
	{ "dircreate", "read", 0, NODATA_FILES }, { "dircreate", "randwrite", 0, NODATA_FILES },
	{ "dirstat", "randread", 'd', NODATA_FILES }, { "dirstat", "write", 0, NODATA_FILES },
	{ "dirdelete", "read", 'd', 0 }, { "dirdelete", "randrw", 0, 0 },
};

static void make_entries(const char *dir, int kind)
{
	char path[PATH_MAX];

	for (unsigned i = 0; kind && i < NODATA_FILES; i++) {
		ck_assert_int_lt(snprintf(path, sizeof(path), "%s/m.0.%u", dir, i), sizeof(path));
		if (kind == 'd')
			ck_assert_int_eq(mkdir(path, 0700), 0);
		else
			make_file(path, BS, pattern, sizeof(pattern));
	}
}

/* Every I/O issued was completed whole and timed, n of bs bytes over the directions. */
static void assert_did_mixed(const struct trial *x, unsigned job, uint64_t n, uint64_t bs)
{
	const struct job_stats *st = stats(x, job);
	uint64_t ios = 0, bytes = 0;

	assert_no_error(x, job);
	for (int d = 0; d < IO_NDIR; d++) {
		ck_assert_uint_eq(st->issued[d], st->dir[d].ios);
		ck_assert_uint_eq(st->dir[d].clat.n, st->dir[d].ios);
		ios += st->dir[d].ios;
		bytes += st->dir[d].bytes;
	}
	ck_assert_uint_eq(ios, n);
	ck_assert_uint_eq(bytes, n * bs);
}

/* One operation per file, counted as fio counts them, and the directory holds the result. */
START_TEST(metadata_engines_count_one_io_per_file)
{
	const struct nodata_case *c = &nodata_cases[_i];
	char dir[PATH_MAX];
	struct trial x;

	make_test_dir(dir, sizeof(dir));
	make_entries(dir, c->before);
	ck_assert_int_eq(run_jobs(&x, "[m]\nioengine=%s\nrw=%s\nnrfiles=%u\nfilesize=%u\n"
				  "bs=%u\ndirectory=%s\n", c->engine, c->rw, NODATA_FILES, BS, BS,
				  dir), 0);
	assert_did_mixed(&x, 0, NODATA_FILES, BS);
	trial_free(&x);
	ck_assert_uint_eq(count_entries(dir), c->left);
}
END_TEST

static const char *const falloc_modes[] = {
	"read", "write", "randread", "randwrite", "rw", "randrw", "trim", "randtrim", "trimwrite",
};

/* Every pattern allocates or punches each block once; the file keeps the job's size. */
START_TEST(falloc_runs_every_pattern)
{
	char dir[PATH_MAX], path[PATH_MAX];
	struct trial x;
	uint64_t n = NBLOCKS * (strcmp(falloc_modes[_i], "trimwrite") ? 1 : 2);

	make_test_dir(dir, sizeof(dir));
	ck_assert_int_lt(snprintf(path, sizeof(path), "%s/fa", dir), sizeof(path));
	make_file(path, FILE_BYTES, pattern, sizeof(pattern));
	ck_assert_int_eq(run_jobs(&x, "[a]\nioengine=falloc\nrw=%s\nfilename=%s\nsize=%u\n"
				  "bs=%u\n", falloc_modes[_i], path, FILE_BYTES, BS), 0);
	assert_did_mixed(&x, 0, n, BS);
	trial_free(&x);
	ck_assert_int_eq(file_size(path), FILE_BYTES);
}
END_TEST

/* Each write truncates to its offset: sequential ends one block short of the region. */
START_TEST(ftruncate_cuts_at_each_write_offset)
{
	static const char *const modes[] = { "write", "randwrite" };
	char dir[PATH_MAX], path[PATH_MAX];
	struct trial x;

	make_test_dir(dir, sizeof(dir));
	ck_assert_int_lt(snprintf(path, sizeof(path), "%s/ft", dir), sizeof(path));
	make_file(path, FILE_BYTES, pattern, sizeof(pattern));
	ck_assert_int_eq(run_jobs(&x, "[t]\nioengine=ftruncate\nrw=%s\nfilename=%s\nsize=%u\n"
				  "bs=%u\n", modes[_i], path, FILE_BYTES, BS), 0);
	assert_did(&x, 0, IO_WRITE, NBLOCKS, BS);
	trial_free(&x);
	if (_i == 0)
		ck_assert_int_eq(file_size(path), FILE_BYTES - BS);
	else
		ck_assert_int_lt(file_size(path), FILE_BYTES);
}
END_TEST

/* cpuio's cycles move no bytes, and are no more than runtime / (busy + idle) allows. */
START_TEST(cpuio_cycles_move_no_bytes)
{
	const struct job_stats *st;
	uint64_t cycle_ns = 10000ULL * 1000 * 100 / 50;	/* 10 ms busy at 50 % */
	struct trial x;

	ck_assert_int_eq(run_jobs(&x, "[c]\nioengine=cpuio\ncpuload=50\ncpuchunks=10000\n"
				  "runtime=200ms\n"), 0);
	st = stats(&x, 0);
	assert_no_error(&x, 0);
	ck_assert_uint_ge(st->dir[IO_READ].ios, 1);
	ck_assert_uint_le(st->dir[IO_READ].ios, st->runtime_ns / cycle_ns + 1);
	ck_assert_uint_eq(st->dir[IO_READ].bytes, 0);
	ck_assert_uint_eq(st->dir[IO_READ].clat.n, st->dir[IO_READ].ios);
	trial_free(&x);
}
END_TEST

/* --- jobs and clones -------------------------------------------------------------------- */

START_TEST(clones_share_a_named_file)
{
	char dir[PATH_MAX];
	struct trial x;

	make_test_dir(dir, sizeof(dir));
	ck_assert_int_eq(run_jobs(&x, "[shared]\nfilename=%s/shared\nrw=randwrite\nsize=1m\n"
				  "bs=4k\nnumjobs=4\n", dir), 0);
	ck_assert_uint_eq(x.jobs.njobs, 4);
	for (unsigned j = 0; j < 4; j++) {
		ck_assert_uint_gt(stats(&x, j)->issued[IO_WRITE], 0);
		assert_did(&x, j, IO_WRITE, 256, 4096);
	}
	trial_free(&x);
	ck_assert_uint_eq(count_entries(dir), 1);
}
END_TEST

START_TEST(clones_get_a_file_each)
{
	char dir[PATH_MAX], path[PATH_MAX + 32];
	struct trial x;

	make_test_dir(dir, sizeof(dir));
	ck_assert_int_eq(run_jobs(&x, "[clone]\ndirectory=%s\nrw=write\nsize=1m\nbs=4k\n"
				  "numjobs=4\n", dir), 0);
	ck_assert_uint_eq(x.jobs.njobs, 4);
	for (unsigned j = 0; j < 4; j++) {
		assert_did(&x, j, IO_WRITE, 256, 4096);
		snprintf(path, sizeof(path), "%s/clone.%u.0", dir, j);
		ck_assert_int_eq(file_size(path), 1 << 20);
	}
	trial_free(&x);
	ck_assert_uint_eq(count_entries(dir), 4);
}
END_TEST

START_TEST(report_has_a_unit_per_job_or_per_group)
{
	struct run_report rr;
	struct trial x;

	ck_assert_int_eq(run_jobs(&x, "[global]\nioengine=null\nsize=1m\nbs=4k\nnumjobs=3\n"
				  "[apart]\n[together]\nnew_group=1\ngroup_reporting=1\n"), 0);
	ck_assert_uint_eq(x.jobs.njobs, 6);
	ck_assert_int_eq(run_build_report(&x.run, &rr), 0);
	ck_assert_uint_eq(rr.rep.nunits, 4);
	for (unsigned u = 0; u < 3; u++) {
		ck_assert_str_eq(rr.rep.units[u].name, "apart");
		ck_assert_uint_eq(rr.rep.units[u].members, 1);
		ck_assert_uint_eq(rr.rep.units[u].st->dir[IO_READ].ios, 256);
	}
	ck_assert_str_eq(rr.rep.units[3].name, "together");
	ck_assert_uint_eq(rr.rep.units[3].members, 3);
	ck_assert_uint_eq(rr.rep.units[3].st->dir[IO_READ].ios, 3 * 256);
	ck_assert_uint_eq(rr.rep.units[3].st->dir[IO_READ].clat.n, 3 * 256);
	run_report_free(&rr);
	trial_free(&x);
}
END_TEST

START_TEST(rwmixread_sets_the_read_share)
{
	const struct job_stats *st;
	char dir[PATH_MAX];
	uint64_t r, w;
	struct trial x;

	make_test_dir(dir, sizeof(dir));
	ck_assert_int_eq(run_jobs(&x, "[mix]\nfilename=%s/data\nrw=randrw\nrwmixread=70\n"
				  "randseed=1234\nsize=4m\nbs=4k\n", dir), 0);
	st = stats(&x, 0);
	assert_no_error(&x, 0);
	r = st->dir[IO_READ].ios;
	w = st->dir[IO_WRITE].ios;
	ck_assert_uint_eq(r + w, 1024);
	ck_assert_uint_eq(st->issued[IO_READ], r);
	ck_assert_uint_eq(st->issued[IO_WRITE], w);
	ck_assert_msg(r * 100 >= 60 * (r + w) && r * 100 <= 80 * (r + w),
		      "%llu reads of %llu", (unsigned long long)r, (unsigned long long)(r + w));
	trial_free(&x);
}
END_TEST

/* --- time and budgets ------------------------------------------------------------------- */

/*
 * What the loop decided, not how soon: it ran at least the runtime, and past the end of its
 * 1 MiB (time_based wraps it), so the runtime and not the size ended it. How promptly it
 * stops after the runtime is a timing, checked by tests/bench/timing.py.
 */
START_TEST(time_based_runs_for_runtime)
{
	const struct job_stats *st;
	struct trial x;

	ck_assert_int_eq(run_jobs(&x, "[tb]\nioengine=null\nsize=1m\nbs=4k\ntime_based=1\n"
				  "runtime=1s\n"), 0);
	st = stats(&x, 0);
	assert_no_error(&x, 0);
	ck_assert_uint_ge(st->runtime_ns, NS_PER_SEC);
	ck_assert_uint_gt(st->dir[IO_READ].ios, (1 << 20) / 4096);
	ck_assert_uint_eq(st->dir[IO_READ].bytes, st->dir[IO_READ].ios * 4096);
	ck_assert_uint_eq(st->issued[IO_READ], st->dir[IO_READ].ios);
	trial_free(&x);
}
END_TEST

/*
 * Mixed jobs with a rate per direction reach both: a direction over its rate lets the
 * other go, so the I/Os split as the rates do, whatever rwmixread says (fio does the
 * same). The split holds while the job keeps up with its rates: a job behind both goes by
 * rwmixread. At 1000 and 500 IOPS a ThreadSanitizer build beside a build loop fell behind
 * (325 reads of 600, loaded run 16); at 200 and 100 a job has 3 ms an I/O.
 */
START_TEST(mixed_rates_split_as_the_caps_do)
{
	static const struct {
		const char *opts;
		unsigned reads_of_300;
	} cases[] = {
		{ "rate_iops=200,100", 200 },		/* rwmixread=50 alone gives 150 */
		{ "rwmixread=70\nrate_iops=300", 150 },	/* 210 */
		{ "rate=800k,400k", 200 },
	};
	const struct job_stats *st;
	struct trial x;

	ck_assert_int_eq(run_jobs(&x, "[m]\nioengine=null\nrw=randrw\nsize=1g\nbs=4k\n"
				  "number_ios=300\n%s\n", cases[_i].opts), 0);
	st = stats(&x, 0);
	assert_no_error(&x, 0);
	ck_assert_uint_eq(st->dir[IO_READ].ios + st->dir[IO_WRITE].ios, 300);
	ck_assert_msg(st->dir[IO_READ].ios >= cases[_i].reads_of_300 - 10 &&
		      st->dir[IO_READ].ios <= cases[_i].reads_of_300 + 10,
		      "%s: %llu reads of 300, want %u", cases[_i].opts,
		      (unsigned long long)st->dir[IO_READ].ios, cases[_i].reads_of_300);
	trial_free(&x);
}
END_TEST

/*
 * With a bw or iops log written, fio's sample window is log_avg_msec (every I/O at 0)
 * unless bwavgtime/iopsavgtime is set: 1000 paced I/Os take a second or more, so 100 ms
 * windows give several samples, more than the default 500 ms gives.
 */
START_TEST(logs_set_the_sample_window)
{
	char dir[PATH_MAX];
	const struct job_stats *st;
	struct trial x;

	make_test_dir(dir, sizeof(dir));
	ck_assert_int_eq(run_jobs(&x, "[global]\nioengine=null\nsize=1g\nnumber_ios=400\n"
				  "[every]\nwrite_bw_log=%s/e\nwrite_iops_log=%s/e\n"
				  "[avg]\nrate_iops=1000\nnumber_ios=1000\nwrite_bw_log=%s/a\n"
				  "log_avg_msec=100\n[own]\nrate_iops=1000\nnumber_ios=1000\n"
				  "write_bw_log=%s/o\nlog_avg_msec=100\nbwavgtime=2000\n",
				  dir, dir, dir, dir), 0);
	st = stats(&x, 0);
	ck_assert_uint_eq(st->dir[IO_READ].bw.n, 400);		/* one per I/O */
	ck_assert_uint_eq(st->dir[IO_READ].iops.n, 400);
	ck_assert_uint_eq(st->dir[IO_READ].iops.sum, 400);
	st = stats(&x, 1);
	ck_assert_uint_ge(st->dir[IO_READ].bw.n, 5);
	/* no iops log: its window stays 500 ms, five times the bw log's */
	ck_assert_uint_lt(st->dir[IO_READ].iops.n, st->dir[IO_READ].bw.n);
	st = stats(&x, 2);
	ck_assert_uint_eq(st->dir[IO_READ].bw.n, 0);		/* bwavgtime wins: 2 s */
	trial_free(&x);
}
END_TEST

/*
 * At 1000 IOPS, 300 ms of ramp then 500 ms measured: ~500 I/Os counted, not ~800. Without
 * a timing bound: the measured runtime is at least the runtime and leaves out the ramp
 * (the job's I/O window, which holds the ramp, is longer by 300 ms), and the I/Os counted
 * are those the pacer allows in that runtime, not the ramp's as well. The tight bounds
 * (600 ms, 560 I/Os) are in tests/bench/timing.py.
 */
START_TEST(ramp_time_resets_the_stats)
{
	const struct job_stats *st;
	struct trial x;
	uint64_t allowed;

	ck_assert_int_eq(run_jobs(&x, "[ramp]\nioengine=null\nsize=1m\nbs=4k\ntime_based=1\n"
				  "ramp_time=300ms\nruntime=500ms\nrate_iops=1000\n"), 0);
	st = stats(&x, 0);
	assert_no_error(&x, 0);
	ck_assert_uint_ge(st->runtime_ns, 500 * NS_PER_MSEC);
	/* the window is CLOCK_MONOTONIC, the runtime the job's clock: 1% for calibration */
	ck_assert_msg(x.run.disks.window_ns >= st->runtime_ns + 297 * NS_PER_MSEC,
		      "the ramp is measured: runtime %llu ns in a window of %llu",
		      (unsigned long long)st->runtime_ns,
		      (unsigned long long)x.run.disks.window_ns);
	/*
	 * No lower bound: how many the job gets through depends on the machine (310 of 500
	 * under ThreadSanitizer beside a build). The ramp's I/Os counted too would pass the
	 * pacer's allowance below.
	 */
	ck_assert_uint_ge(st->dir[IO_READ].ios, 1);
	/* one I/O a ms from the first at 0, and the one in flight when the ramp ended */
	allowed = st->runtime_ns / NS_PER_MSEC + 1 + 1;
	ck_assert_msg(st->dir[IO_READ].ios <= allowed, "%llu I/Os counted in %llu ns, the pacer "
		      "allows %llu", (unsigned long long)st->dir[IO_READ].ios,
		      (unsigned long long)st->runtime_ns, (unsigned long long)allowed);
	ck_assert_uint_eq(st->issued[IO_READ], st->dir[IO_READ].ios);
	ck_assert_uint_eq(st->dir[IO_READ].clat.n, st->dir[IO_READ].ios);
	trial_free(&x);
}
END_TEST

START_TEST(number_ios_stops_the_job)
{
	char dir[PATH_MAX];
	struct trial x;

	make_test_dir(dir, sizeof(dir));
	ck_assert_int_eq(run_jobs(&x, "[global]\nnumber_ios=100\nsize=4m\nbs=4k\n"
				  "[file]\nfilename=%s/data\n[null]\nioengine=null\niodepth=32\n",
				  dir), 0);
	assert_did(&x, 0, IO_READ, 100, 4096);
	assert_did(&x, 1, IO_READ, 100, 4096);
	trial_free(&x);
}
END_TEST

/* --- layout ----------------------------------------------------------------------------- */

START_TEST(read_of_missing_file_lays_it_out_first)
{
	char dir[PATH_MAX], path[PATH_MAX + 8];
	struct trial x;

	make_test_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/data", dir);
	/* short reads would be counted, reads at EOF would fail the job */
	ck_assert_int_eq(run_jobs(&x, "[rd]\nfilename=%s\nrw=read\nsize=%u\nbs=%u\n", path,
				  FILE_BYTES, BS), 0);
	assert_did(&x, 0, IO_READ, NBLOCKS, BS);
	trial_free(&x);
	ck_assert_int_eq(file_size(path), FILE_BYTES);
}
END_TEST

START_TEST(read_beyond_the_end_extends_the_file)
{
	char dir[PATH_MAX], path[PATH_MAX + 8];
	struct trial x;

	make_test_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/data", dir);
	make_file(path, 1 << 20, pattern, sizeof(pattern));
	ck_assert_int_eq(run_jobs(&x, "[rd]\nfilename=%s\nrw=randread\nsize=%u\nbs=%u\n", path,
				  FILE_BYTES, BS), 0);
	assert_did(&x, 0, IO_READ, NBLOCKS, BS);
	trial_free(&x);
	ck_assert_int_eq(file_size(path), FILE_BYTES);
	assert_pattern(path, 1 << 20, BS, pattern, sizeof(pattern));
}
END_TEST

/*
 * The directories a filename names are created, as fio creates them, for write and read
 * jobs alike; a job refused before its I/O creates none.
 */
START_TEST(missing_directories_of_a_filename_are_created)
{
	char dir[PATH_MAX], path[PATH_MAX + 32];
	struct stat st;
	struct trial x;

	make_test_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/a/b/w.dat", dir);
	ck_assert_int_eq(run_jobs(&x, "[w]\nfilename=%s\nrw=write\nsize=64k\nbs=%u\n", path,
				  BS), 0);
	assert_did(&x, 0, IO_WRITE, (64 << 10) / BS, BS);
	trial_free(&x);
	ck_assert_int_eq(file_size(path), 64 << 10);
	snprintf(path, sizeof(path), "%s/c/d/r.dat", dir);
	ck_assert_int_eq(run_jobs(&x, "[r]\nfilename=%s\nrw=read\nsize=64k\nbs=%u\n", path,
				  BS), 0);
	assert_did(&x, 0, IO_READ, (64 << 10) / BS, BS);
	trial_free(&x);
	ck_assert_int_eq(file_size(path), 64 << 10);
	/* refused before any I/O: direct=1 with a block size no device takes */
	snprintf(path, sizeof(path), "%s/e/f/x.dat", dir);
	ck_assert_int_ne(prepare(&x, "[x]\nfilename=%s\nrw=write\nsize=64k\nbs=1000\n"
				 "direct=1\n", path), 0);
	trial_free(&x);
	snprintf(path, sizeof(path), "%s/e", dir);
	ck_assert_int_eq(stat(path, &st), -1);
}
END_TEST

/*
 * The disks' util is over the jobs' I/O window: a startdelay before every job is no
 * time of theirs, so the window is shorter than the snapshots' span by at least it.
 */
START_TEST(util_window_leaves_out_the_startdelay)
{
	char dir[PATH_MAX], path[PATH_MAX + 8];
	const struct disk_set *s;
	struct trial x;

	make_test_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/data", dir);
	ck_assert_int_eq(run_jobs(&x, "[w]\nfilename=%s\nrw=write\nsize=256k\nbs=%u\n"
				  "startdelay=300ms\n", path, BS), 0);
	s = &x.run.disks;
	ck_assert_uint_gt(s->window_ns, 0);
	ck_assert_uint_le(s->window_ns + 300000000ULL, s->end_ns - s->start_ns);
	trial_free(&x);
}
END_TEST

/* Bytes of path that are data, not holes (SEEK_DATA/SEEK_HOLE). */
static uint64_t data_bytes(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	off_t at = 0, end, hole;
	uint64_t n = 0;

	ck_assert_int_ge(fd, 0);
	end = lseek(fd, 0, SEEK_END);
	while (at < end && (at = lseek(fd, at, SEEK_DATA)) >= 0) {
		hole = lseek(fd, at, SEEK_HOLE);
		n += (uint64_t)(hole - at);
		at = hole;
	}
	close(fd);
	return n;
}

/*
 * Mixed block sizes cover the region exactly once a pass, as in fio: sequentially the last
 * block is cut to fit (it used to stop up to 60k short), and at random the map of covered
 * blocks passes over those done and cuts an I/O at the next (35% of the bytes used to
 * land twice and as many never). Bytes counted, bytes on disk and a read pass agree.
 */
START_TEST(mixed_sizes_cover_the_region)
{
	static const struct {
		const char *rw, *sizes;
		uint64_t want;		/* 16m, or its whole 12k blocks */
	} cases[] = {
		{ "write", "bsrange=4k-64k", 16 << 20 },
		{ "write", "bssplit=4k/30:64k/70", 16 << 20 },
		{ "write", "bsrange=12k-60k", 16773120 },
		{ "randwrite", "bsrange=4k-64k", 16 << 20 },
		{ "randwrite", "bssplit=4k/30:64k/70", 16 << 20 },
		{ "randwrite", "bssplit=4k/10:16k/50:1m/40", 16 << 20 },
	};
	const uint64_t want = cases[_i].want;
	char dir[PATH_MAX], path[PATH_MAX + 8];
	struct trial x;

	make_test_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/data", dir);
	ck_assert_int_eq(run_jobs(&x, "[w]\nfilename=%s\nrw=%s\nsize=16m\nfallocate=none\n"
				  "%s\n", path, cases[_i].rw, cases[_i].sizes), 0);
	assert_no_error(&x, 0);
	ck_assert_uint_eq(stats(&x, 0)->dir[IO_WRITE].bytes, want);
	trial_free(&x);
	ck_assert_uint_eq(data_bytes(path), want);
	/* a read pass of the same kind reads every byte once; loops=2 twice */
	ck_assert_int_eq(run_jobs(&x, "[r]\nfilename=%s\nrw=%s\nsize=16m\nloops=2\n%s\n",
				  path, cases[_i].rw[0] == 'r' ? "randread" : "read",
				  cases[_i].sizes), 0);
	ck_assert_uint_eq(stats(&x, 0)->dir[IO_READ].bytes, 2 * want);
	trial_free(&x);
	unlink(path);
}
END_TEST

/* --- page cache -------------------------------------------------------------------------- */

/* How many of the pages of path's first bytes are in the page cache (mincore). */
static unsigned cached_pages(const char *path, size_t bytes)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), n = bytes / page;
	unsigned char *vec = malloc(n);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	unsigned cached = 0;
	void *map;

	ck_assert(vec && fd >= 0);
	map = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, 0);
	ck_assert(map != MAP_FAILED);
	ck_assert_int_eq(mincore(map, bytes, vec), 0);
	for (size_t i = 0; i < n; i++)
		cached += vec[i] & 1;
	munmap(map, bytes);
	close(fd);
	free(vec);
	return cached;
}

/* A file of bytes written and then dropped from the page cache. */
static void make_cold_file(const char *path, size_t bytes)
{
	int fd;

	make_file(path, bytes, pattern, sizeof(pattern));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fdatasync(fd), 0);
	ck_assert_int_eq(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	close(fd);
	ck_assert_uint_eq(cached_pages(path, bytes), 0);
}

/*
 * invalidate=1 drops the file's pages at each new pass, as fio does when it reopens or
 * rewinds a file: io_size of a pass and a half leaves only the second half-pass's blocks
 * cached (all of them with invalidate=0).
 */
START_TEST(invalidate_drops_the_cache_at_each_pass)
{
	const size_t bytes = 1 << 20, page = (size_t)sysconf(_SC_PAGESIZE);
	char dir[PATH_MAX], path[PATH_MAX + 8];
	struct trial x;

	make_test_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/data", dir);
	for (int inv = 0; inv <= 1; inv++) {
		make_cold_file(path, bytes);
		ck_assert_int_eq(run_jobs(&x, "[r]\nfilename=%s\nrw=randread\nbs=%zu\nsize=%zu\n"
					  "io_size=%zu\ninvalidate=%d\n", path, page, bytes,
					  bytes + bytes / 2, inv), 0);
		assert_did(&x, 0, IO_READ, (bytes + bytes / 2) / page, page);
		trial_free(&x);
		ck_assert_uint_eq(cached_pages(path, bytes), (inv ? bytes / 2 : bytes) / page);
	}
	unlink(path);
}
END_TEST

/*
 * fadvise_hint: POSIX_FADV_RANDOM (given by "random", and by "1", the default, to random
 * jobs) stops the kernel reading ahead of sequential reads; a sequential advice (given
 * by "1" to sequential jobs) lets it read far ahead.
 */
START_TEST(fadvise_hint_advises_the_kernel)
{
	static const struct {
		const char *rw, *hint;
		bool ahead;
	} cases[] = {
		{ "read", "random", false }, { "randread", "1", false },
		{ "read", "sequential", true }, { "read", "1", true },
	};
	const size_t bytes = 4 << 20, page = (size_t)sysconf(_SC_PAGESIZE);
	char dir[PATH_MAX], path[PATH_MAX + 8];
	struct trial x;
	unsigned cached;

	make_test_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/data", dir);
	make_cold_file(path, bytes);
	ck_assert_int_eq(run_jobs(&x, "[r]\nfilename=%s\nrw=%s\nbs=%zu\nsize=%zu\n"
				  "number_ios=8\nfadvise_hint=%s\n", path, cases[_i].rw, page,
				  bytes, cases[_i].hint), 0);
	assert_did(&x, 0, IO_READ, 8, page);
	trial_free(&x);
	cached = cached_pages(path, bytes);
	if (cases[_i].ahead)
		ck_assert_msg(cached > 8, "%s, fadvise_hint=%s: no read-ahead (%u pages)",
			      cases[_i].rw, cases[_i].hint, cached);
	else
		ck_assert_msg(cached == 8, "%s, fadvise_hint=%s: %u pages cached, not 8",
			      cases[_i].rw, cases[_i].hint, cached);
	unlink(path);
}
END_TEST

/* --- trim ------------------------------------------------------------------------------- */

/*
 * Each engine that can trim, 8 deep: an asynchronous one that trims synchronously
 * (posixaio, as fio's) takes a trim only once the I/Os before it have ended.
 */
START_TEST(trim_punches_holes)
{
	char dir[PATH_MAX], path[PATH_MAX + 8];
	struct stat st;
	struct trial x;

	make_test_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/data", dir);
	make_file(path, 1 << 20, pattern, sizeof(pattern));
	ck_assert_int_eq(run_jobs(&x, "[trim]\nfilename=%s\nrw=trim\nbs=64k\nioengine=%s\n"
				  "iodepth=8\n", path, file_engines[_i]), 0);
	assert_did(&x, 0, IO_TRIM, 16, 64 << 10);
	trial_free(&x);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_size, 1 << 20);
	ck_assert_int_eq(st.st_blocks, 0);
	assert_pattern(path, 1 << 20, 64 << 10, zero, sizeof(zero));
}
END_TEST

/* fio charges trimwrite's writes only against size: every block is trimmed, then written. */
START_TEST(trimwrite_trims_then_writes_every_block)
{
	char dir[PATH_MAX], path[PATH_MAX + 8];
	struct trial x;

	make_test_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/data", dir);
	make_file(path, 1 << 20, pattern, sizeof(pattern));
	ck_assert_int_eq(run_jobs(&x, "[tw]\nfilename=%s\nrw=trimwrite\nbs=64k\nioengine=%s\n"
				  "iodepth=8\nbuffer_pattern=0xdeadbe\n", path, file_engines[_i]),
			 0);
	assert_did(&x, 0, IO_TRIM, 16, 64 << 10);
	assert_did(&x, 0, IO_WRITE, 16, 64 << 10);
	trial_free(&x);
	assert_pattern(path, 1 << 20, 64 << 10, pattern3, sizeof(pattern3));
}
END_TEST

/* --- errors ----------------------------------------------------------------------------- */

START_TEST(direct_needs_aligned_block_size)
{
	char dir[PATH_MAX];
	struct trial x;

	make_test_dir(dir, sizeof(dir));
	ck_assert_int_eq(prepare(&x, "[odd]\nfilename=%s/data\nrw=write\ndirect=1\nbs=1000\n"
				 "size=1m\n", dir), -EINVAL);
	ck_assert_msg(strstr(x.d.msg, "'bs'") && strstr(x.d.msg, "512") &&
		      strstr(x.d.msg, "1000"), "message: %s", x.d.msg);
	trial_free(&x);
	ck_assert_uint_eq(count_entries(dir), 0);
}
END_TEST

START_TEST(missing_file_without_size_is_refused)
{
	char dir[PATH_MAX], path[PATH_MAX + 8];
	struct trial x;

	make_test_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/missing", dir);
	ck_assert_int_eq(prepare(&x, "[rd]\nfilename=%s\nrw=read\n", path), -EINVAL);
	ck_assert_msg(strstr(x.d.msg, path) && strstr(x.d.msg, "size="), "message: %s",
		      x.d.msg);
	trial_free(&x);
	ck_assert_int_eq(file_size(path), -ENOENT);
}
END_TEST

/*
 * How a read of /dev/null fails: the kernel neither maps it (mmap) nor splices from it
 * (splice); every other engine reads its end at once.
 */
static int devnull_read_errno(const char *engine)
{
	if (!strcmp(engine, "mmap"))
		return ENODEV;
	return strcmp(engine, "splice") ? ENODATA : EINVAL;
}

/* /dev/null has no data: a read there ends at once, as a failed read of a file would. */
START_TEST(read_error_stops_the_job)
{
	int err = devnull_read_errno(file_engines[_i]);
	const struct job_result *res;
	char want[256];
	struct trial x;

	ck_assert_int_eq(run_jobs(&x, "[rd]\nfilename=/dev/null\nrw=read\nsize=1m\nbs=4k\n"
				  "ioengine=%s\n", file_engines[_i]), 1);
	res = &x.run.results[0];
	ck_assert_int_eq(res->error, err);
	ck_assert_int_eq(res->st->error, err);
	snprintf(want, sizeof(want), "job 'rd': read '/dev/null' at offset 0, length 4096: %s",
		 err == ENODATA ? "the file ended at offset 0, shorter than the job's region "
		 "(1048576 bytes from offset 0)" : strerror(err));
	ck_assert_str_eq(res->error_msg, want);
	ck_assert_uint_eq(res->st->dir[IO_READ].ios, 0);
	ck_assert_uint_eq(res->st->issued[IO_READ], 1);
	trial_free(&x);
}
END_TEST

/*
 * Writes past RLIMIT_FSIZE fail with EFBIG: an I/O error from a plain file. The limit sits
 * 1 KiB into a block, so that block is first a short write. Only in a forked test.
 */
#define FSIZE_LIMIT	((1u << 20) + 1024)

static void limit_file_size(struct rlimit *old)
{
	struct rlimit lim = { FSIZE_LIMIT, FSIZE_LIMIT };

	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, old), 0);
	lim.rlim_max = old->rlim_max;
	signal(SIGXFSZ, SIG_IGN);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
}

START_TEST(write_error_stops_the_job)
{
	const struct job_result *res;
	char dir[PATH_MAX], path[PATH_MAX + 8], want[PATH_MAX + 64];
	struct rlimit old;
	struct trial x;
	int ret;

	make_test_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/data", dir);
	make_file(path, FILE_BYTES, zero, 1);
	limit_file_size(&old);
	ret = run_jobs(&x, "[wr]\nfilename=%s\nrw=write\nsize=%u\nbs=4k\nioengine=%s\n", path,
		       FILE_BYTES, file_engines[_i]);
	setrlimit(RLIMIT_FSIZE, &old);
	if (!strcmp(file_engines[_i], "mmap")) {
		/* stores into a mapping do not grow the file: the limit never applies */
		ck_assert_int_eq(ret, 0);
		assert_did(&x, 0, IO_WRITE, FILE_BYTES / 4096, 4096);
		trial_free(&x);
		return;
	}
	ck_assert_int_eq(ret, 1);
	res = &x.run.results[0];
	ck_assert_int_eq(res->error, EFBIG);
	ck_assert_int_eq(res->st->error, EFBIG);
	snprintf(want, sizeof(want), "job 'wr': write '%s' at offset ", path);
	ck_assert_msg(strstr(res->error_msg, want) && strstr(res->error_msg, strerror(EFBIG)),
		      "message: %s", res->error_msg);
	ck_assert_uint_eq(res->st->dir[IO_WRITE].ios, 256);
	ck_assert_uint_le(res->st->dir[IO_WRITE].short_ios, 1);
	trial_free(&x);
}
END_TEST

START_TEST(continue_on_error_counts_write_errors)
{
	const struct job_stats *st;
	char dir[PATH_MAX], path[PATH_MAX + 8];
	struct rlimit old;
	struct trial x;
	int ret;

	make_test_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/data", dir);
	make_file(path, FILE_BYTES, zero, 1);
	limit_file_size(&old);
	/* as fio's, continue_on_error alone goes on after EIO and EILSEQ: EFBIG is listed */
	ret = run_jobs(&x, "[wr]\nfilename=%s\nrw=write\nsize=%u\nbs=4k\n"
		       "continue_on_error=write\nignore_error=,EFBIG\n", path, FILE_BYTES);
	setrlimit(RLIMIT_FSIZE, &old);
	ck_assert_int_eq(ret, 0);
	st = stats(&x, 0);
	ck_assert_int_eq(x.run.results[0].error, 0);
	ck_assert_uint_eq(st->dir[IO_WRITE].ios, 256);
	ck_assert_uint_eq(st->dir[IO_WRITE].short_ios, 1);
	ck_assert_uint_eq(st->total_err, 1024 - 256);
	ck_assert_int_eq(st->first_error, EFBIG);
	ck_assert_uint_eq(st->issued[IO_WRITE], 1024);
	trial_free(&x);
}
END_TEST

/* --- block devices ---------------------------------------------------------------------- */

static void bare_setup(void)
{
	if (loopdev_make_dir(SCRATCH_BASE, "iojob-engines"))
		loopdev_make_loop("bare", NULL, fx.loop, sizeof(fx.loop));
}

static void mounted_setup(void)
{
	if (loopdev_make_dir(SCRATCH_BASE, "iojob-engines") &&
	    loopdev_make_loop("ext4", NULL, fx.loop, sizeof(fx.loop)))
		loopdev_mount_ext4(fx.loop);
}

/* The whole device, read here; the caller frees it. */
static unsigned char *read_device(const char *dev)
{
	unsigned char *buf = malloc(LOOPDEV_IMG_BYTES);
	int fd = open(dev, O_RDONLY | O_CLOEXEC);
	size_t got = 0;

	ck_assert_ptr_nonnull(buf);
	ck_assert_msg(fd >= 0, "open '%s': %s", dev, strerror(errno));
	while (got < LOOPDEV_IMG_BYTES) {
		ssize_t n = read(fd, buf + got, LOOPDEV_IMG_BYTES - got);

		ck_assert_msg(n > 0, "read '%s' at %zu: %s", dev, got,
			      n < 0 ? strerror(errno) : "end of device");
		got += (size_t)n;
	}
	close(fd);
	return buf;
}

START_TEST(bare_loop_device_is_written_and_read)
{
	const char *engine = file_engines[_i];
	struct trial x;

	REQUIRE_FIXTURE();
	ck_assert_int_eq(run_jobs(&x, "[global]\nfilename=%s\nioengine=%s\niodepth=8\n"
				  "direct=1\nbs=%u\n[write]\nrw=write\nbuffer_pattern=0xdeadbeef\n"
				  "[read]\nstonewall\nrw=randread\n", fx.loop, engine, DEV_BS), 0);
	assert_did(&x, 0, IO_WRITE, DEV_BLOCKS, DEV_BS);
	assert_did(&x, 1, IO_READ, DEV_BLOCKS, DEV_BS);
	trial_free(&x);
	assert_pattern(fx.loop, LOOPDEV_IMG_BYTES, DEV_BS, pattern, sizeof(pattern));
}
END_TEST

/* issue 16: falloc's trim on a device is a punch that reads back as zeros, as fio's. */
START_TEST(falloc_punches_a_loop_device)
{
	unsigned char *data;
	struct trial x;

	REQUIRE_FIXTURE();
	ck_assert_int_eq(run_jobs(&x, "[global]\nfilename=%s\nbs=%u\n[write]\nrw=write\n"
				  "buffer_pattern=0xdeadbeef\n[punch]\nstonewall\nioengine=falloc\n"
				  "rw=randtrim\n", fx.loop, DEV_BS), 0);
	assert_did(&x, 1, IO_TRIM, DEV_BLOCKS, DEV_BS);
	trial_free(&x);
	data = read_device(fx.loop);
	for (size_t i = 0; i < LOOPDEV_IMG_BYTES; i++)
		if (data[i])
			ck_abort_msg("'%s' at offset %zu: 0x%02x after the punch", fx.loop, i,
				     data[i]);
	free(data);
}
END_TEST

static const char *const writing_modes[] = { "write", "randwrite", "rw", "trim" };

START_TEST(write_to_mounted_device_is_refused)
{
	unsigned char *before, *after;
	struct trial x;

	REQUIRE_FIXTURE();
	before = read_device(fx.loop);
	ck_assert_int_eq(prepare(&x, "[mounted]\nfilename=%s\nrw=%s\nbs=%u\n", fx.loop,
				 writing_modes[_i], DEV_BS), -EPERM);
	ck_assert_msg(strstr(x.d.msg, fx.loop) && strstr(x.d.msg, "allow_mounted_write"),
		      "message: %s", x.d.msg);
	trial_free(&x);
	after = read_device(fx.loop);
	ck_assert_msg(!memcmp(before, after, LOOPDEV_IMG_BYTES), "'%s' changed", fx.loop);
	free(before);
	free(after);
}
END_TEST

START_TEST(allow_mounted_write_lets_a_read_run)
{
	unsigned char *before, *after;
	struct trial x;

	REQUIRE_FIXTURE();
	before = read_device(fx.loop);
	ck_assert_int_eq(run_jobs(&x, "[mounted]\nfilename=%s\nrw=randread\nbs=%u\n"
				  "allow_mounted_write=1\n", fx.loop, DEV_BS), 0);
	assert_did(&x, 0, IO_READ, DEV_BLOCKS, DEV_BS);
	trial_free(&x);
	after = read_device(fx.loop);
	ck_assert_msg(!memcmp(before, after, LOOPDEV_IMG_BYTES), "'%s' changed", fx.loop);
	free(before);
	free(after);
}
END_TEST

/* --- suite ------------------------------------------------------------------------------ */

static TCase *tcase(Suite *s, const char *name, void (*setup)(void))
{
	TCase *tc = tcase_create(name);

	tcase_add_unchecked_fixture(tc, setup, loopdev_teardown);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return tc;
}

/* Add a test looping over file_engines, or over engine_cases grouped by engine. */
static void add_engine_loop(TCase *tc, const TTest *t, unsigned per_engine)
{
	for (unsigned e = 0; e < nfile_engines; e++)
		if (!engine_why[e][0])
			tcase_add_loop_test(tc, t, (int)(e * per_engine),
					    (int)((e + 1) * per_engine));
}

/* Add a test looping over the file_engines that can trim. */
static void add_trim_loop(TCase *tc, const TTest *t)
{
	for (unsigned e = 0; e < nfile_engines; e++)
		if (!engine_why[e][0] && (engine_flags[e] & ENGINE_TRIM))
			tcase_add_loop_test(tc, t, (int)e, (int)e + 1);
}

static void add_file_tests(Suite *s, SRunner *sr)
{
	TCase *tc;

	tc = tcase(s, "engines", scratch_setup);
	add_engine_loop(tc, seq_write_then_read_keep_the_pattern, CASES_PER_ENGINE);
	add_engine_loop(tc, randwrite_covers_every_block_once, CASES_PER_ENGINE);
	add_engine_loop(tc, fsync_every_n_writes_and_at_the_end, 1);
	add_engine_loop(tc, fdatasync_and_verify_reads_are_accounted_as_fio, 1);
	add_engine_loop(tc, many_files_at_depth_keep_the_data, 1);
	for (unsigned i = 0; i < TABLE_LEN(option_cases); i++)
		if (file_engine_runs(option_cases[i].engine))
			tcase_add_loop_test(tc, engine_options_keep_the_data, (int)i, (int)i + 1);
	tcase_add_loop_test(tc, null_completes_every_io_without_files, 0, 2);
	/* issue 16 */
	tc = tcase(s, "no data", scratch_setup);
	tcase_add_loop_test(tc, metadata_engines_count_one_io_per_file, 0,
			    TABLE_LEN(nodata_cases));
	tcase_add_loop_test(tc, falloc_runs_every_pattern, 0, TABLE_LEN(falloc_modes));
	tcase_add_loop_test(tc, ftruncate_cuts_at_each_write_offset, 0, 2);
	tcase_add_test(tc, cpuio_cycles_move_no_bytes);
	tc = tcase(s, "jobs", scratch_setup);
	tcase_add_test(tc, clones_share_a_named_file);
	tcase_add_test(tc, clones_get_a_file_each);
	tcase_add_test(tc, report_has_a_unit_per_job_or_per_group);
	tcase_add_test(tc, rwmixread_sets_the_read_share);
	tc = tcase(s, "time", scratch_setup);
	tcase_add_test(tc, time_based_runs_for_runtime);
	tcase_add_test(tc, ramp_time_resets_the_stats);
	tcase_add_loop_test(tc, mixed_rates_split_as_the_caps_do, 0, 3);
	tcase_add_test(tc, logs_set_the_sample_window);
	tcase_add_test(tc, number_ios_stops_the_job);
	tc = tcase(s, "layout", scratch_setup);
	tcase_add_test(tc, read_of_missing_file_lays_it_out_first);
	tcase_add_test(tc, read_beyond_the_end_extends_the_file);
	tcase_add_loop_test(tc, mixed_sizes_cover_the_region, 0, 6);
	tcase_add_test(tc, missing_directories_of_a_filename_are_created);
	tcase_add_test(tc, util_window_leaves_out_the_startdelay);
	tc = tcase(s, "page cache", scratch_setup);
	tcase_add_test(tc, invalidate_drops_the_cache_at_each_pass);
	tcase_add_loop_test(tc, fadvise_hint_advises_the_kernel, 0, 4);
	tc = tcase(s, "trim", scratch_setup);
	add_trim_loop(tc, trim_punches_holes);
	add_trim_loop(tc, trimwrite_trims_then_writes_every_block);
	tc = tcase(s, "errors", scratch_setup);
	tcase_add_test(tc, direct_needs_aligned_block_size);
	tcase_add_test(tc, missing_file_without_size_is_refused);
	add_engine_loop(tc, read_error_stops_the_job, 1);
	if (srunner_fork_status(sr) == CK_NOFORK) {
		test_skipping("I/O error tests", "they set RLIMIT_FSIZE, so they need CK_FORK");
		return;
	}
	add_engine_loop(tc, write_error_stops_the_job, 1);
	tcase_add_test(tc, continue_on_error_counts_write_errors);
}

static void add_device_tests(Suite *s)
{
	char why[sizeof(fx.err)];
	TCase *tc;

	if (geteuid() != 0) {
		test_skipping("block device tests", "they need root for loop devices");
		return;
	}
	if (!loopdev_have_tool("losetup")) {
		test_skipping("block device tests", "losetup not found (package mount)");
		return;
	}
	if (!loopdev_probe(SCRATCH_BASE, "iojob-engines", why, sizeof(why))) {
		test_skipping("block device tests", why);
		return;
	}
	tc = tcase(s, "bare_device", bare_setup);
	add_engine_loop(tc, bare_loop_device_is_written_and_read, 1);
	tcase_add_test(tc, falloc_punches_a_loop_device);
	if (!loopdev_have_tool("mkfs.ext4")) {
		test_skipping("mounted device tests", "mkfs.ext4 not found (package e2fsprogs)");
		return;
	}
	tc = tcase(s, "mounted_device", mounted_setup);
	tcase_add_loop_test(tc, write_to_mounted_device_is_refused, 0, TABLE_LEN(writing_modes));
	tcase_add_test(tc, allow_mounted_write_lets_a_read_run);
}

int main(void)
{
	Suite *s;
	SRunner *sr;

	setvbuf(stdout, NULL, _IONBF, 0);
	loopdev_path_add_sbin();
	loopdev_install_cleanup();
	probe_engines();
	for (unsigned e = 0; e < nfile_engines; e++)
		if (engine_why[e][0])
			test_skipping(file_engines[e], engine_why[e]);
	s = suite_create("engines");
	sr = srunner_create(s);
	add_file_tests(s, sr);
	add_device_tests(s);
	return test_finish(sr);
}
