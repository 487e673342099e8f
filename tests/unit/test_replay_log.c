/*
 * Unit tests for the log a replay loads (jobs/replay_log.c, iolog.c, blktrace.c): the entries
 * of iolog versions 2 and 3 and of a blktrace, with the delays fio would wait before each
 * (replay_time_scale scales them, replay_no_stall drops them: checked here, without a
 * clock), offsets as replay_scale and replay_align make them, replay_skip, the files, and
 * what a bad line says.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "jobs/options.h"
#include "jobs/replay_log.h"
#include "base/arena.h"
#include "base/diag.h"
#include "test_util.h"

static const struct engine_info psync = { .name = "psync", .available = true,
					   .flags = ENGINE_SYNC | ENGINE_TRIM };
static struct job_desc job;
static struct arena *arena;
static struct diag diag;
static char dir[] = "/tmp/iojob-replay-XXXXXX", logpath[64];
static char *logv[1] = { logpath };

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(logpath, sizeof(logpath), "%s/t.log", dir);
	memset(&job, 0, sizeof(job));
	job.name = "r";
	job.file = "t.fio";
	job.line = 1;
	job.replay_time_scale = 100;
	job.replay_scale = 1;
	job.read_iolog.v = logv;
	job.read_iolog.n = 1;
}

static void teardown(void)
{
	unlink(logpath);
	rmdir(dir);
	arena_free(&arena);
	diag_clear(&diag);
	memcpy(dir + strlen(dir) - 6, "XXXXXX", 6);
}

/* Load text as the job's log; 0 or the error. */
static int load(const char *text)
{
	ck_assert_int_eq(test_write_text(logpath, text), 0);
	diag.msg[0] = '\0';
	job.filenames.n = 0;	/* as a job file left it: the last load gave it files */
	job.replay = NULL;
	return replay_load(&job, &psync, &arena, &diag);
}

static const struct replay_entry *entry(size_t i)
{
	ck_assert_ptr_nonnull(job.replay);
	ck_assert_uint_lt(i, job.replay->nentries);
	return &job.replay->entries[i];
}

static const char v3_log[] =
	"fio version 3 iolog\n"
	"100 /f add\n"
	"150 /f open\n"		/* a file action's 50 us go to the next I/O */
	"1000 /f write 8192 4096\n"
	"3000 /f read 12800 512\n"
	"2500 /f read 0 4096\n"	/* earlier than the last: no wait, as fio */
	"4500 /f sync 0 0\n"
	"9000 /f close\n";

START_TEST(v3_delays_are_the_gaps_between_timestamps)
{
	static const uint64_t want[] = { 50 + 850, 2000, 0, 2000 };

	ck_assert_int_eq(load(v3_log), 0);
	ck_assert_uint_eq(job.replay->nentries, 4);
	for (size_t i = 0; i < 4; i++)
		ck_assert_uint_eq(entry(i)->delay_us, want[i]);
	ck_assert_uint_eq(entry(0)->act, IO_WRITE);
	ck_assert_uint_eq(entry(0)->off, 8192);
	ck_assert_uint_eq(entry(1)->len, 512);
	ck_assert_uint_eq(entry(3)->act, REPLAY_FSYNC);
	ck_assert_uint_eq(entry(1)->line, 5);
}
END_TEST

START_TEST(replay_time_scale_divides_the_delays_and_no_stall_drops_them)
{
	job.replay_time_scale = 200;	/* twice the log's rate: half its gaps */
	ck_assert_int_eq(load(v3_log), 0);
	ck_assert_uint_eq(entry(0)->delay_us, 450);
	ck_assert_uint_eq(entry(1)->delay_us, 1000);
	arena_free(&arena);
	job.replay_time_scale = 50;
	ck_assert_int_eq(load(v3_log), 0);
	ck_assert_uint_eq(entry(1)->delay_us, 4000);
	arena_free(&arena);
	job.replay_time_scale = 100;
	job.replay_no_stall = true;
	ck_assert_int_eq(load(v3_log), 0);
	for (size_t i = 0; i < 4; i++)
		ck_assert_uint_eq(entry(i)->delay_us, 0);
}
END_TEST

START_TEST(v2_waits_add_to_the_next_entry)
{
	ck_assert_int_eq(load("fio version 2 iolog\n/f add\n/f open\n/f read 0 4096\n"
			      "/f wait 300 0\n/f wait 200 0\n/f write 4096 4096\n"
			      "/f datasync 0 0\n/f trim 0 4096\n"), 0);
	ck_assert_uint_eq(job.replay->nentries, 4);
	ck_assert_uint_eq(entry(0)->delay_us, 0);
	ck_assert_uint_eq(entry(1)->delay_us, 500);
	ck_assert_uint_eq(entry(2)->act, REPLAY_FDATASYNC);
	ck_assert_uint_eq(entry(3)->act, IO_TRIM);
	ck_assert_int_eq(job.rw, RW_RW);
}
END_TEST

START_TEST(the_job_takes_files_directions_and_sizes_from_the_log)
{
	ck_assert_int_eq(load("fio version 3 iolog\n0 /a add\n0 /b add\n1 /b read 0 65536\n"
			      "2 /a read 4096 512\n"), 0);
	ck_assert_uint_eq(job.filenames.n, 2);
	ck_assert_str_eq(job.filenames.v[0], "/a");
	ck_assert_uint_eq(entry(0)->file, 1);
	ck_assert_int_eq(job.rw, RW_READ);
	ck_assert_uint_eq(job.bs[IO_READ].max, 65536);
	ck_assert_uint_eq(job.replay->files[0].read_end, 4608);
	ck_assert_uint_eq(job.replay->bytes, 65536 + 512);
}
END_TEST

START_TEST(an_open_after_a_close_is_a_reopen_whose_time_goes_on)
{
	/* fio's quirk: after timestamp 0 the next line waits nothing (0 reads as "none") */
	ck_assert_int_eq(load("fio version 3 iolog\n0 /f add\n1 /f open\n2 /f read 0 4096\n"
			      "3 /f close\n10 /f open\n20 /f read 0 4096\n"), 0);
	ck_assert_uint_eq(job.replay->nentries, 3);
	ck_assert_uint_eq(entry(0)->delay_us, 1);
	ck_assert_uint_eq(entry(1)->act, REPLAY_REOPEN);
	ck_assert_uint_eq(entry(1)->delay_us, 0);
	ck_assert_uint_eq(entry(2)->delay_us, 1 + 7 + 10);
	ck_assert_int_eq(job.rw, RW_READ);
}
END_TEST

/* offset, replay_scale, replay_align: the offset replayed */
static const struct { uint64_t off; unsigned scale, align; uint64_t want; } offsets[] = {
	{ 40960 + 512, 1, 4096, 40960 }, { 40960 + 512, 2, 0, 20480 + 256 },
	{ 999424, 3, 512, 332800 }, { 12345, 0, 0, 12345 }, { 131072 + 1000, 4, 65536, 0 },
};

START_TEST(offsets_are_scaled_then_aligned_down)
{
	char text[256];

	job.replay_scale = offsets[_i].scale;
	job.replay_align = offsets[_i].align;
	snprintf(text, sizeof(text), "fio version 2 iolog\n/f add\n/f write %llu 4096\n",
		 (unsigned long long)offsets[_i].off);
	ck_assert_int_eq(load(text), 0);
	ck_assert_uint_eq(entry(0)->off, offsets[_i].want);
}
END_TEST

START_TEST(replay_skip_leaves_out_a_direction_and_its_time)
{
	job.replay_skip = 1u << IO_WRITE;
	ck_assert_int_eq(load(v3_log), 0);
	ck_assert_uint_eq(job.replay->nentries, 3);
	ck_assert_uint_eq(entry(0)->act, IO_READ);
	/* the open's 50 us stay, the skipped write's 850 are lost, as in fio */
	ck_assert_uint_eq(entry(0)->delay_us, 50 + 2000);
	ck_assert_int_eq(job.rw, RW_RW);	/* reads and a sync */
}
END_TEST

/* A bad log: the line the message names, and what it says. */
static const struct { const char *text; const char *where, *what; } bad[] = {
	{ "fio version 1 iolog\n", ":1: ", "not an iolog" },
	{ "", "t.log: job 'r': ", "empty" },
	{ "fio version 3 iolog\n0 /f add\n1 /f read 0\n", ":3: ", "wrong number of fields" },
	{ "fio version 3 iolog\n0 /f add\n1 /f read 0 x\n", ":3: ", "are not numbers" },
	{ "fio version 3 iolog\n0 /f add\n1 /f read 0 0\n", ":3: ", "of 0 bytes" },
	{ "fio version 3 iolog\n0 /f add\n1 /g read 0 4096\n", ":3: ", "before a line adds" },
	{ "fio version 3 iolog\n0 /f add\n1 /f open\n2 /g close\n", ":4: ", "before a line adds" },
	{ "fio version 3 iolog\n0 /f add\n1 /f move\n", ":3: ", "unknown file action 'move'" },
	{ "fio version 2 iolog\n/f add\n/f open\n", "t.log: job 'r': ", "no I/O to replay" },
};

START_TEST(a_bad_log_names_its_line)
{
	ck_assert_int_eq(load(bad[_i].text), -EINVAL);
	ck_assert_msg(strstr(diag.msg, bad[_i].where) && strstr(diag.msg, bad[_i].what),
		      "case %d: %s", _i, diag.msg);
	ck_assert_ptr_nonnull(strstr(diag.msg, logpath));
}
END_TEST

/* One blktrace record, little-endian, with act's category bits and pdu bytes after it. */
static void record(FILE *f, uint64_t t, uint64_t sector, uint32_t bytes, uint32_t action,
		   uint16_t pdu)
{
	uint32_t w[] = { 0x65617407, 0 };
	uint32_t rest[] = { bytes, action, 1, 8 << 20 | 1, 0 };
	uint16_t tail[] = { 0, pdu };

	fwrite(w, sizeof(w), 1, f);
	fwrite(&t, 8, 1, f);
	fwrite(&sector, 8, 1, f);
	fwrite(rest, sizeof(rest), 1, f);
	fwrite(tail, sizeof(tail), 1, f);
	for (uint16_t i = 0; i < pdu; i++)
		fputc('p', f);
}

START_TEST(a_blktrace_gives_queued_ios_delays_in_us_and_its_depth)
{
	FILE *f = fopen(logpath, "wb");
	const uint32_t q = 1, c = 8, read = 1 << 16, write = 2 << 16, flush = 4 << 16;

	ck_assert_ptr_nonnull(f);
	record(f, 1000000, 8, 4096, q | read, 3);
	record(f, 1500000, 16, 8192, q | write, 0);
	record(f, 1700000, 32, 4096, q | write, 0);
	record(f, 1800000, 16, 8192, c | write, 0);	/* two writes were queued: depth 2 */
	record(f, 4000000, 0, 0, q | flush, 0);
	fclose(f);
	job.replay_redirect = "/dev/null";
	ck_assert_int_eq(replay_load(&job, &psync, &arena, &diag), 0);
	ck_assert_uint_eq(job.replay->nentries, 4);
	ck_assert_uint_eq(entry(0)->off, 4096);
	ck_assert_uint_eq(entry(1)->delay_us, 500);	/* ns in the trace */
	ck_assert_uint_eq(entry(1)->act, IO_WRITE);
	ck_assert_uint_eq(entry(2)->delay_us, 200);
	ck_assert_uint_eq(entry(3)->act, REPLAY_FSYNC);
	ck_assert_uint_eq(entry(3)->delay_us, 2300);
	ck_assert_uint_eq(job.iodepth, 2);
	ck_assert_str_eq(job.filenames.v[0], "/dev/null");
}
END_TEST

static Suite *replay_suite(void)
{
	Suite *s = suite_create("replay");
	TCase *tc = tcase_create("iolog");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, v3_delays_are_the_gaps_between_timestamps);
	tcase_add_test(tc, replay_time_scale_divides_the_delays_and_no_stall_drops_them);
	tcase_add_test(tc, v2_waits_add_to_the_next_entry);
	tcase_add_test(tc, the_job_takes_files_directions_and_sizes_from_the_log);
	tcase_add_test(tc, an_open_after_a_close_is_a_reopen_whose_time_goes_on);
	tcase_add_loop_test(tc, offsets_are_scaled_then_aligned_down, 0, TABLE_LEN(offsets));
	tcase_add_test(tc, replay_skip_leaves_out_a_direction_and_its_time);
	tcase_add_loop_test(tc, a_bad_log_names_its_line, 0, TABLE_LEN(bad));
	suite_add_tcase(s, tc);
	tc = tcase_create("blktrace");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, a_blktrace_gives_queued_ios_delays_in_us_and_its_depth);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(replay_suite());
}
