/*
 * Tests for the checks engine/files makes before any I/O, through run_prepare() on job
 * text: writes and trims to loop devices that carry an ext4 file system, mounted or not,
 * are refused until the matching allow_ option is set, a bare device is written, reads
 * always run, and --readonly refuses every job that would change data. Needs root, loop
 * devices and mkfs.ext4 (else SKIP); every device is detached, even when a test fails.
 */
#include "engine/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>

#include "jobs/jobs.h"
#include "loopdev.h"
#include "base/diag.h"
#include "parser/jobfile.h"
#include "test_util.h"

#define DEV_BS		(64u << 10)

/* One job text: what it was built from, and what run_prepare() made of it. */
struct trial {
	struct engine_info engines[IOENGINE_MAX];
	struct jobfile jf;
	struct job_list jobs;
	struct run run;
	bool prepared;
	struct diag d;
};

/*
 * Parse and build the text (with --readonly if asked), then run_prepare() it. Returns
 * jobs_build's error, or run_prepare's result.
 */
static int prepare(struct trial *x, bool readonly, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int prepare(struct trial *x, bool readonly, const char *fmt, ...)
{
	struct job_input in = { .cli_defaults = -1, .check_paths = true, .readonly = readonly };
	char text[2048];
	va_list ap;
	int n, ret;

	memset(x, 0, sizeof(*x));
	va_start(ap, fmt);
	n = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	ck_assert_int_lt(n, sizeof(text));
	ck_assert_msg(jobfile_parse_string(&x->jf, "test.fio", text, &x->d) == 0, "parse: %s",
		      x->d.msg);
	in.jf = &x->jf;
	in.engines = x->engines;
	in.nengines = engine_catalog(x->engines, IOENGINE_MAX);
	ret = jobs_build(&in, &x->jobs, &x->d);
	if (ret < 0)
		return ret;
	x->prepared = true;
	return run_prepare(&x->run, &x->jobs, &x->d);
}

static void trial_free(struct trial *x)
{
	if (x->prepared)
		run_free(&x->run);
	jobs_free(&x->jobs);
	jobfile_free(&x->jf);
	diag_clear(&x->d);
}

static void assert_msg_has(const struct trial *x, const char *a, const char *b)
{
	ck_assert_msg(strstr(x->d.msg, a) && strstr(x->d.msg, b), "message: %s", x->d.msg);
}

/* A small copy of what a device holds at its start, to show it was not written. */
struct snapshot {
	unsigned char head[128 << 10];
};

static void snap(const char *dev, struct snapshot *s)
{
	int fd = open(dev, O_RDONLY | O_CLOEXEC);

	ck_assert_msg(fd >= 0, "open '%s': %s", dev, strerror(errno));
	ck_assert_int_eq(pread(fd, s->head, sizeof(s->head), 0), sizeof(s->head));
	close(fd);
}

static void assert_unchanged(const char *dev, const struct snapshot *before)
{
	struct snapshot *now = malloc(sizeof(*now));

	ck_assert_ptr_nonnull(now);
	snap(dev, now);
	ck_assert_msg(!memcmp(before->head, now->head, sizeof(now->head)), "'%s' changed", dev);
	free(now);
}

/* --- fixtures ---------------------------------------------------------------------------- */

static bool make_dir(void)
{
	return loopdev_make_dir(NULL, "iojob-files");
}

static bool make_ext4(const char *dev)
{
	const char *mkfs[] = { "mkfs.ext4", "-q", "-F", dev, NULL };

	if (loopdev_run(mkfs, NULL, NULL, 0, false) == 0)
		return true;
	loopdev_fail("mkfs.ext4 '%s' failed", dev);
	return false;
}

/* loop: ext4, not mounted; loop2: bare. */
static void unmounted_setup(void)
{
	if (make_dir() && loopdev_make_loop("ext4", NULL, fx.loop, sizeof(fx.loop)) &&
	    make_ext4(fx.loop))
		loopdev_make_loop("bare", NULL, fx.loop2, sizeof(fx.loop2));
}

/* loop: ext4, mounted on fx.mnt. */
static void mounted_setup(void)
{
	if (make_dir() && loopdev_make_loop("ext4", NULL, fx.loop, sizeof(fx.loop)))
		loopdev_mount_ext4(fx.loop);
}

/* --- a file system that is not mounted ---------------------------------------------------- */

static const char *const modifying[] = { "write", "randwrite", "rw", "trim", "trimwrite" };

START_TEST(ext4_device_is_refused_for_its_signature)
{
	struct snapshot *before = malloc(sizeof(*before));
	struct trial x;

	REQUIRE_FIXTURE();
	ck_assert_ptr_nonnull(before);
	snap(fx.loop, before);
	ck_assert_int_eq(prepare(&x, false, "[w]\nfilename=%s\nrw=%s\nbs=%u\n", fx.loop,
				 modifying[_i], DEV_BS), -EPERM);
	assert_msg_has(&x, "job 'w': refusing to write to '", "': it carries a signature (ext4 "
		       "file system at byte 1080; set allow_overwrite_signatures=1 to "
		       "overwrite it)");
	ck_assert_msg(strstr(x.d.msg, fx.loop), "message: %s", x.d.msg);
	trial_free(&x);
	assert_unchanged(fx.loop, before);
	free(before);
}
END_TEST

/* The mount check passes (nothing is mounted); allow_mounted_write does not skip this one. */
START_TEST(allow_mounted_write_does_not_allow_overwriting)
{
	struct trial x;

	REQUIRE_FIXTURE();
	ck_assert_int_eq(prepare(&x, false, "[w]\nfilename=%s\nrw=write\nbs=%u\n"
				 "allow_mounted_write=1\n", fx.loop, DEV_BS), -EPERM);
	assert_msg_has(&x, "carries a signature", "allow_overwrite_signatures=1");
	trial_free(&x);
}
END_TEST

START_TEST(read_of_ext4_device_is_allowed)
{
	struct trial x;

	REQUIRE_FIXTURE();
	ck_assert_int_eq(prepare(&x, false, "[r]\nfilename=%s\nrw=randread\nbs=%u\n", fx.loop,
				 DEV_BS), 0);
	ck_assert_int_eq(run_execute(&x.run, &x.d), 0);
	trial_free(&x);
}
END_TEST

START_TEST(bare_device_is_written)
{
	struct trial x;

	REQUIRE_FIXTURE();
	ck_assert_int_eq(prepare(&x, false, "[w]\nfilename=%s\nrw=write\nbs=%u\nsize=1m\n",
				 fx.loop2, DEV_BS), 0);
	ck_assert_int_eq(run_execute(&x.run, &x.d), 0);
	ck_assert_uint_eq(x.run.results[0].st->dir[IO_WRITE].ios, (1u << 20) / DEV_BS);
	trial_free(&x);
}
END_TEST

/* Last in its case: it overwrites the file system (the next case makes a new one). */
START_TEST(allow_overwrite_signatures_lets_the_write_run)
{
	struct trial x;

	REQUIRE_FIXTURE();
	ck_assert_int_eq(prepare(&x, false, "[w]\nfilename=%s\nrw=write\nbs=%u\nsize=1m\n"
				 "allow_overwrite_signatures=1\n", fx.loop, DEV_BS), 0);
	ck_assert_int_eq(run_execute(&x.run, &x.d), 0);
	ck_assert_uint_eq(x.run.results[0].st->dir[IO_WRITE].ios, (1u << 20) / DEV_BS);
	trial_free(&x);
}
END_TEST

/* --- a mounted file system ----------------------------------------------------------------- */

START_TEST(mounted_device_is_refused_as_mounted)
{
	struct snapshot *before = malloc(sizeof(*before));
	char want[2 * PATH_MAX];
	struct trial x;

	REQUIRE_FIXTURE();
	ck_assert_ptr_nonnull(before);
	snap(fx.loop, before);
	ck_assert_int_eq(prepare(&x, false, "[w]\nfilename=%s\nrw=%s\nbs=%u\n"
				 "allow_overwrite_signatures=1\n", fx.loop, modifying[_i],
				 DEV_BS), -EPERM);
	snprintf(want, sizeof(want), "%s on %s is mounted or in use as swap (set "
		 "allow_mounted_write=1 to allow it)", strrchr(fx.loop, '/') + 1, fx.mnt);
	assert_msg_has(&x, "job 'w': refusing to write to '", want);
	trial_free(&x);
	assert_unchanged(fx.loop, before);
	free(before);
}
END_TEST

/* Past the mount check, the signature check still stands in the way. */
START_TEST(mounted_device_needs_both_allow_options)
{
	struct trial x;

	REQUIRE_FIXTURE();
	ck_assert_int_eq(prepare(&x, false, "[w]\nfilename=%s\nrw=write\nbs=%u\n"
				 "allow_mounted_write=1\n", fx.loop, DEV_BS), -EPERM);
	assert_msg_has(&x, "carries a signature (ext4 file system", "allow_overwrite_signatures");
	trial_free(&x);
	/* both: prepared, never run (that would corrupt the mounted file system) */
	ck_assert_int_eq(prepare(&x, false, "[w]\nfilename=%s\nrw=write\nbs=%u\n"
				 "allow_mounted_write=1\nallow_overwrite_signatures=1\n", fx.loop,
				 DEV_BS), 0);
	trial_free(&x);
}
END_TEST

START_TEST(read_of_mounted_device_is_allowed)
{
	struct trial x;

	REQUIRE_FIXTURE();
	ck_assert_int_eq(prepare(&x, false, "[r]\nfilename=%s\nrw=read\nbs=%u\nsize=1m\n",
				 fx.loop, DEV_BS), 0);
	ck_assert_int_eq(run_execute(&x.run, &x.d), 0);
	trial_free(&x);
}
END_TEST

/* --- --readonly ------------------------------------------------------------------------ */

/* Refused when the jobs are built, whatever the device and the allow options say. */
START_TEST(readonly_refuses_writes_and_trims)
{
	static const char *const why[] = {
		"the job writes", "the job writes", "the job writes", "the job trims",
		"the job writes",
	};
	struct trial x;

	REQUIRE_FIXTURE();
	ck_assert_int_eq(prepare(&x, true, "[w]\nfilename=%s\nbs=%u\nrw=%s\n"
				 "allow_mounted_write=1\nallow_overwrite_signatures=1\n", fx.loop,
				 DEV_BS, modifying[_i]), -EINVAL);
	assert_msg_has(&x, "test.fio:4: job 'w': option 'rw': ", why[_i]);
	assert_msg_has(&x, "--readonly forbids writes and trims", "");
	trial_free(&x);
}
END_TEST

START_TEST(readonly_allows_reads)
{
	struct trial x;

	REQUIRE_FIXTURE();
	ck_assert_int_eq(prepare(&x, true, "[r]\nfilename=%s\nrw=randread\nbs=%u\nsize=1m\n",
				 fx.loop, DEV_BS), 0);
	ck_assert_int_eq(run_execute(&x.run, &x.d), 0);
	trial_free(&x);
}
END_TEST

/* A read job on a missing file would write it first: refused, and nothing is created. */
START_TEST(readonly_refuses_a_layout)
{
	char path[PATH_MAX], want[2 * PATH_MAX];
	struct trial x;

	REQUIRE_FIXTURE();
	snprintf(path, sizeof(path), "%s/data", fx.dir);
	ck_assert_int_eq(prepare(&x, true, "[r]\nfilename=%s\nrw=read\nsize=1m\n", path),
			 -EINVAL);
	snprintf(want, sizeof(want), "job 'r': '%s' has 0 of the 1048576 bytes the job reads, "
		 "and --readonly forbids laying it out", path);
	assert_msg_has(&x, "test.fio:1: ", want);
	trial_free(&x);
	ck_assert_int_eq(access(path, F_OK), -1);
}
END_TEST

START_TEST(readonly_refuses_unlink)
{
	struct trial x;

	REQUIRE_FIXTURE();
	ck_assert_int_eq(prepare(&x, true, "[r]\nfilename=%s\nrw=read\nunlink=1\n", fx.loop),
			 -EINVAL);
	assert_msg_has(&x, "test.fio:4: job 'r': option 'unlink': the job deletes its files",
		       "--readonly");
	trial_free(&x);
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

int main(void)
{
	static const char *const tools[] = { "mkfs.ext4", NULL };
	TCase *tc;
	Suite *s;
	int ret;

	ret = loopdev_start("iojob-files", tools);
	if (ret)
		return ret;
	s = suite_create("files");
	tc = tcase(s, "unmounted_ext4", unmounted_setup);
	tcase_add_loop_test(tc, ext4_device_is_refused_for_its_signature, 0,
			    TABLE_LEN(modifying));
	tcase_add_test(tc, allow_mounted_write_does_not_allow_overwriting);
	tcase_add_test(tc, read_of_ext4_device_is_allowed);
	tcase_add_test(tc, bare_device_is_written);
	tcase_add_test(tc, allow_overwrite_signatures_lets_the_write_run);
	tc = tcase(s, "mounted_ext4", mounted_setup);
	tcase_add_loop_test(tc, mounted_device_is_refused_as_mounted, 0, TABLE_LEN(modifying));
	tcase_add_test(tc, mounted_device_needs_both_allow_options);
	tcase_add_test(tc, read_of_mounted_device_is_allowed);
	tc = tcase(s, "readonly", unmounted_setup);
	tcase_add_loop_test(tc, readonly_refuses_writes_and_trims, 0, TABLE_LEN(modifying));
	tcase_add_test(tc, readonly_allows_reads);
	tcase_add_test(tc, readonly_refuses_a_layout);
	tcase_add_test(tc, readonly_refuses_unlink);
	return test_run(s);
}
