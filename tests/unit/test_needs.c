/*
 * Tests for engine/needs, what a run asks of the limits before it starts: the memory of
 * its jobs' buffers against the machine (a pebibyte is refused naming the job, a small
 * job is not), and the descriptors a job holds besides its files.
 */
#include "engine/run/needs.h"

#include <errno.h>
#include <string.h>

#include <check.h>

#include "base/diag.h"
#include "engine/engine.h"
#include "test_util.h"

/* n clones of one reader of iodepth buffers of bs bytes. */
static void make_jobs(struct job_desc *jobs, unsigned n, unsigned iodepth, uint64_t bs)
{
	memset(jobs, 0, n * sizeof(*jobs));
	for (unsigned i = 0; i < n; i++) {
		jobs[i].name = "huge";
		jobs[i].rw = RW_READ;
		jobs[i].iodepth = iodepth;
		jobs[i].numjobs = n;
		jobs[i].jobnum = i;
		jobs[i].bs[IO_READ].min = jobs[i].bs[IO_READ].max = bs;
	}
}

START_TEST(a_pebibyte_of_buffers_is_refused)
{
	struct job_desc jobs[64];
	struct job_list list = { .jobs = jobs, .njobs = 64 };
	struct run r = { .jobs = &list };
	struct diag d = { 0 };

	make_jobs(jobs, 64, 65536, 256ULL << 20);
	ck_assert_int_eq(needs_check_memory(&r, &d), -EINVAL);
	/* sizes as the report prints them (num2str, 4 figures) */
	ck_assert_ptr_nonnull(strstr(d.msg, "1024TiB of I/O buffers"));
	ck_assert_ptr_nonnull(strstr(d.msg, "job 'huge' takes the most, 16.0TiB "
				     "(iodepth=65536 x 256MiB) in each of its 64 clones"));
	diag_clear(&d);
}
END_TEST

START_TEST(a_small_job_fits)
{
	struct job_desc jobs[4];
	struct job_list list = { .jobs = jobs, .njobs = 4 };
	struct run r = { .jobs = &list };
	struct diag d = { 0 };

	make_jobs(jobs, 4, 16, 4096);
	ck_assert_int_eq(needs_check_memory(&r, &d), 0);
	diag_clear(&d);
}
END_TEST

START_TEST(logs_and_iologs_hold_descriptors)
{
	struct job_desc j = { 0 };

	ck_assert_uint_eq(needs_job_fds(&j), 0);
	j.lat_log = "lat";	/* clat, slat and lat */
	j.bw_log = "bw";
	j.write_iolog = "io.log";
	ck_assert_uint_eq(needs_job_fds(&j), 5);
}
END_TEST

static Suite *needs_suite(void)
{
	Suite *s = suite_create("needs");
	TCase *mem = tcase_create("memory");
	TCase *fds = tcase_create("descriptors");

	tcase_add_test(mem, a_pebibyte_of_buffers_is_refused);
	tcase_add_test(mem, a_small_job_fits);
	tcase_add_test(fds, logs_and_iologs_hold_descriptors);
	suite_add_tcase(s, mem);
	suite_add_tcase(s, fds);
	return s;
}

int main(void)
{
	return test_run(needs_suite());
}
