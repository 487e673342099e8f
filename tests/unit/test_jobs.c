/*
 * Unit tests for the jobs module: defaults and aliases from the option table, values per
 * direction, [global] inheritance, command-line defaults and --set, phases and groups,
 * engine options, validation notes, settings and errors. Job files are strings; the
 * engine catalog is built here, so these tests need no ioengine.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "base/arena.h"
#include "jobs/jobs.h"
#include "base/diag.h"
#include "parser/jobfile.h"
#include "test_util.h"

#define KiB	1024ULL
#define MiB	(1024 * KiB)
#define SEC	1000000000ULL

/* Engine options laid out as an engine would lay them out in job_desc.engine_opts. */
struct aio_test_opts {
	bool userspace_reap;
};

struct uring_test_opts {
	bool fixedbufs;
	unsigned sq_entries;	/* not a real io_uring option: a default that is not zero */
};

static const struct opt_def aio_test_options[] = {
	ENGINE_BOOL("libaio", struct aio_test_opts, "userspace_reap", userspace_reap, "0",
		    "reap completions in user space"),
	{ NULL },
};

static const struct opt_def uring_test_options[] = {
	ENGINE_BOOL("io_uring", struct uring_test_opts, "fixedbufs", fixedbufs, "0",
		    "register the buffers"),
	ENGINE_UINT("io_uring", struct uring_test_opts, "sq_entries", sq_entries, "64", 1, 4096,
		    "submission queue entries"),
	{ NULL },
};

static const struct engine_info test_engines[] = {
	{ .name = "psync", .available = true, .flags = ENGINE_SYNC | ENGINE_TRIM },
	{ .name = "libaio", .available = true, .flags = ENGINE_DEPTH_NEEDS_DIRECT,
	  .options = aio_test_options, .options_size = sizeof(struct aio_test_opts) },
	{ .name = "io_uring", .available = true, .options = uring_test_options,
	  .options_size = sizeof(struct uring_test_opts) },
	{ .name = "null", .available = true,
	  .flags = ENGINE_TRIM | ENGINE_CHEAP_SUBMIT | ENGINE_NO_FILES | ENGINE_NO_DATA },
	{ .name = "posixaio", .why_missing = "built without posixaio" },
	/* issue 16: engines that move no data, as falloc, ftruncate and cpuio */
	{ .name = "falloc", .available = true,
	  .flags = ENGINE_SYNC | ENGINE_TRIM | ENGINE_NO_DATA | ENGINE_MODIFIES },
	{ .name = "ftruncate", .available = true,
	  .flags = ENGINE_SYNC | ENGINE_NO_DATA | ENGINE_WRITE_ONLY | ENGINE_MODIFIES },
	{ .name = "cpuio", .available = true,
	  .flags = ENGINE_SYNC | ENGINE_NO_FILES | ENGINE_NO_DATA | ENGINE_TIMED },
};

/* What every test builds from: reset by the fixture, freed after each test. */
static struct jobfile jf;
static struct job_input in;
static struct job_list jl;
static struct diag d;

static void setup(void)
{
	memset(&jf, 0, sizeof(jf));
	memset(&jl, 0, sizeof(jl));
	memset(&d, 0, sizeof(d));
	in = (struct job_input){
		.jf = &jf,
		.cli_defaults = -1,
		.engines = test_engines,
		.nengines = TABLE_LEN(test_engines),
	};
}

static void teardown(void)
{
	jobs_free(&jl);
	jobfile_free(&jf);
	diag_clear(&d);
}

/* Parse text as one more job file (a new source) named name. */
static void add_file(const char *name, const char *text)
{
	struct diag pd = { 0 };
	int ret;

	ret = jobfile_parse_string(&jf, name, text, &pd);
	ck_assert_msg(ret == 0, "%s: %s", name, pd.msg);
}

static void build_ok(void)
{
	int ret = jobs_build(&in, &jl, &d);

	ck_assert_msg(ret == 0, "jobs_build returned %d: %s", ret, d.msg);
}

/* Build the single job of job.fio holding text. */
static const struct job_desc *one_job(const char *text)
{
	add_file("job.fio", text);
	build_ok();
	ck_assert_uint_eq(jl.njobs, 1);
	return &jl.jobs[0];
}

/* Build and expect the error message msg exactly. */
static void build_fails(const char *msg)
{
	ck_assert_int_eq(jobs_build(&in, &jl, &d), -EINVAL);
	ck_assert_str_eq(d.msg, msg);
	ck_assert_uint_eq(jl.njobs, 0);
	ck_assert_ptr_null(jl.jobs);
}

static const struct job_desc *find_job(const char *name, unsigned jobnum)
{
	for (unsigned i = 0; i < jl.njobs; i++)
		if (!strcmp(jl.jobs[i].name, name) && jl.jobs[i].jobnum == jobnum)
			return &jl.jobs[i];
	ck_abort_msg("no job '%s' (clone %u)", name, jobnum);
	return NULL;
}

static void check_bs(const struct job_desc *j, int dir, uint64_t min, uint64_t max)
{
	ck_assert_msg(j->bs[dir].min == min && j->bs[dir].max == max,
		      "direction %d: bs %llu-%llu, want %llu-%llu", dir,
		      (unsigned long long)j->bs[dir].min, (unsigned long long)j->bs[dir].max,
		      (unsigned long long)min, (unsigned long long)max);
}

/* A [global] name= names no job, as in fio: each keeps its section's, or its own name=. */
START_TEST(global_name_names_no_job)
{
	add_file("job.fio", "[global]\nname=all\nsize=1m\n[a]\n[b]\nname=own\n");
	build_ok();
	ck_assert_uint_eq(jl.njobs, 2);
	ck_assert_str_eq(jl.jobs[0].name, "a");
	ck_assert_str_eq(jl.jobs[1].name, "own");
	ck_assert_uint_eq(jl.jobs[0].size.bytes, 1 << 20);	/* the rest of [global] holds */
}
END_TEST

/* verify_pattern takes buffer_pattern's forms, as fio's: hex, text and a byte, joined. */
START_TEST(verify_pattern_takes_every_pattern_form)
{
	const struct job_desc *j = one_job("[j]\nverify=pattern\nverify_pattern=0x01\"ab\"7\n");

	ck_assert_uint_eq(j->verify_pattern_len, 4);
	ck_assert_mem_eq(j->verify_pattern, "\x01" "ab" "\x07", 4);
}
END_TEST

START_TEST(a_job_without_keys_gets_the_table_defaults)
{
	const struct job_desc *j = one_job("[job]\n");

	ck_assert_str_eq(j->name, "job");
	ck_assert_str_eq(j->file, "job.fio");
	ck_assert_int_eq(j->line, 1);
	ck_assert_int_eq(j->rw, RW_READ);
	ck_assert_uint_eq(j->rw_nr, 0);
	ck_assert_uint_eq(j->rwmixread, 50);
	for (int dir = 0; dir < IO_NDIR; dir++) {
		check_bs(j, dir, 4096, 4096);
		ck_assert_uint_eq(j->bs[dir].nsplit, 0);
		ck_assert_uint_eq(j->blockalign[dir], 4096);
		ck_assert_uint_eq(j->rate[dir], 0);
	}
	ck_assert_uint_eq(j->iodepth, 1);
	ck_assert_uint_eq(j->iodepth_batch_submit, 1);
	ck_assert_uint_eq(j->iodepth_batch_complete_min, 1);
	ck_assert_uint_eq(j->iodepth_batch_complete_max, 1);
	ck_assert_uint_eq(j->iodepth_low, 1);
	ck_assert_str_eq(j->ioengine, "psync");
	ck_assert(j->randrepeat);
	ck_assert_uint_eq(j->randseed, 0x89);
	ck_assert_int_eq(j->random_distribution, DIST_RANDOM);
	ck_assert_int_eq(j->file_service, FSRV_ROUNDROBIN);
	ck_assert_uint_eq(j->file_service_nr, 1);
	ck_assert_str_eq(j->filename_format, "$jobname.$jobnum.$filenum");
	ck_assert_uint_eq(j->nrfiles, 1);
	ck_assert_uint_eq(j->loops, 1);
	ck_assert_uint_eq(j->numjobs, 1);
	ck_assert_int_eq(j->fallocate, FALLOC_NATIVE);
	ck_assert(j->invalidate);
	ck_assert(!j->direct);
	ck_assert(j->thread);
	ck_assert(j->scramble_buffers);
	ck_assert_uint_eq(j->npercentiles, 17);
	ck_assert_double_eq(j->percentile_list[0], 1);
	ck_assert_double_eq(j->percentile_list[12], 99);
	ck_assert_double_eq(j->percentile_list[16], 99.99);
	ck_assert(j->clat_percentiles);
	ck_assert(!j->lat_percentiles);
	ck_assert_uint_eq(j->kb_base, 1024);
	ck_assert_uint_eq(j->bw_avg_ns, 500 * 1000000ULL);
	ck_assert_uint_eq(j->iops_avg_ns, 500 * 1000000ULL);
	ck_assert_uint_eq(j->runtime_ns, 0);
	ck_assert_uint_eq(j->size.bytes, 0);
	ck_assert_double_eq(j->size.pct, 0);
	ck_assert_uint_eq(j->nsettings, 0);
	ck_assert_ptr_null(d.notes);
}
END_TEST

static int count_options(void)
{
	int n = 0;

	while (job_options[n].name)
		n++;
	return n;
}

START_TEST(every_option_is_found_by_its_names_and_its_default_parses)
{
	const struct opt_def *o = &job_options[_i];
	struct arena *arena = NULL;
	struct opt_ctx ctx = { .kb_base = 1024, .arena = &arena };
	struct job_desc j;
	char why[512] = "";

	ck_assert_ptr_eq(opt_find(job_options, o->name), o);
	if (o->alias)
		ck_assert_ptr_eq(opt_find(job_options, o->alias), o);
	ck_assert_ptr_nonnull(o->help);
	memset(&j, 0, sizeof(j));
	if (o->def)
		ck_assert_msg(opt_apply(o, &ctx, &j, o->def, why, sizeof(why)) == 0,
			      "option '%s': default '%s': %s", o->name, o->def, why);
	arena_free(&arena);
}
END_TEST

/* An alias and its option, given the same value after the same extra lines. */
struct alias_case {
	const char *alias;
	const char *name;
	const char *value;
	const char *extra;
	size_t off, size;
};

#define FIELD(f)	OPT_FIELD(f), sizeof(((struct job_desc *)0)->f)

static const struct alias_case alias_cases[] = {
	{ "readwrite", "rw", "randwrite", "", FIELD(rw) },
	{ "blocksize", "bs", "64k", "", FIELD(bs) },
	{ "blocksize_range", "bsrange", "4k-16k", "", FIELD(bs) },
	{ "ba", "blockalign", "8k", "", FIELD(blockalign) },
	{ "timeout", "runtime", "30", "", FIELD(runtime_ns) },
	{ "wait_for_previous", "stonewall", "1", "", FIELD(stonewall) },
	{ "io_limit", "io_size", "1m", "", FIELD(io_size) },
	{ "nr_files", "nrfiles", "4", "", FIELD(nrfiles) },
	{ "fileoffset", "offset", "1m", "", FIELD(offset) },
	{ "iodepth_batch", "iodepth_batch_submit", "4", "ioengine=libaio\niodepth=16\n",
	  FIELD(iodepth_batch_submit) },
	{ "iodepth_batch_complete", "iodepth_batch_complete_min", "2",
	  "ioengine=libaio\niodepth=16\n", FIELD(iodepth_batch_complete_min) },
};

START_TEST(alias_sets_the_same_field_as_the_name)
{
	const struct alias_case *c = &alias_cases[_i];
	const struct job_desc *by_name, *by_alias, *plain;
	char text[512];

	snprintf(text, sizeof(text), "[by_name]\n%s%s=%s\n[by_alias]\n%s%s=%s\n[plain]\n%s",
		 c->extra, c->name, c->value, c->extra, c->alias, c->value, c->extra);
	add_file("job.fio", text);
	build_ok();
	by_name = find_job("by_name", 0);
	by_alias = find_job("by_alias", 0);
	plain = find_job("plain", 0);
	ck_assert_msg(!memcmp((const char *)by_name + c->off, (const char *)by_alias + c->off,
			      c->size), "%s and %s differ", c->alias, c->name);
	ck_assert_msg(memcmp((const char *)by_name + c->off, (const char *)plain + c->off,
			     c->size), "%s=%s changed nothing", c->name, c->value);
	/* A setting is recorded under the option's own name. */
	ck_assert_str_eq(job_setting(by_alias, c->name), c->value);
}
END_TEST

/* issue 16: what the catalog flags of the engines without data make the job layer do. */
START_TEST(verify_is_refused_without_data)
{
	add_file("job.fio", "[j]\nioengine=falloc\nrw=write\nsize=1m\nverify=crc32c\n");
	build_fails("job.fio:5: job 'j': option 'verify': this ioengine stores no data, so there "
		    "is nothing to verify (use one of psync, libaio, io_uring)");
}
END_TEST

START_TEST(write_only_engine_refuses_reads)
{
	add_file("job.fio", "[j]\nioengine=ftruncate\nrw=randrw\nsize=1m\n");
	build_fails("job.fio:3: job 'j': option 'rw': this ioengine only writes (use rw=write or "
		    "rw=randwrite)");
}
END_TEST

START_TEST(timed_engine_runs_for_its_runtime)
{
	const struct job_desc *j = one_job("[j]\nioengine=cpuio\nruntime=2\nbs=8k\n");

	ck_assert(j->time_based);
	ck_assert_uint_eq(j->size.bytes, 8192);
	teardown();
	setup();
	add_file("job.fio", "[j]\nioengine=cpuio\n");
	build_fails("job.fio:2: job 'j': option 'ioengine': this ioengine moves no data and "
		    "runs until runtime= ends it: set runtime");
}
END_TEST

START_TEST(readonly_refuses_an_engine_that_changes_files)
{
	in.readonly = true;
	add_file("job.fio", "[j]\nioengine=falloc\nrw=read\nsize=1m\n");
	build_fails("job.fio:2: job 'j': option 'ioengine': this ioengine creates, changes or "
		    "deletes files whatever rw= says, and --readonly forbids that");
}
END_TEST

START_TEST(buffered_sets_direct_inverted)
{
	add_file("job.fio", "[a]\nbuffered=0\n[b]\nbuffered=1\ndirect=1\nbuffered\n");
	build_ok();
	ck_assert(find_job("a", 0)->direct);
	ck_assert(!find_job("b", 0)->direct);
}
END_TEST

/* A job file that fails, the line the message names and what follows "job.fio:LINE: ". */
struct bad_case {
	const char *text;
	int line;
	const char *msg;
};

static const struct bad_case bad_cases[] = {
	{ "[job]\nrwmixread=200\n", 2, "option 'rwmixread': 200 is out of range (0 to 100)" },
	{ "[job]\nrw=randrw\niodepth=0\n", 3, "option 'iodepth': 0 is out of range (1 to 65536)" },
	{ "[job]\niodepth=-1\n", 2, "option 'iodepth': -1 is out of range (1 to 65536)" },
	{ "[job]\nbs=0\n", 2, "option 'bs': 0 is out of range (1 to 256MiB)" },
	{ "[job]\nnumjobs=0\n", 2, "option 'numjobs': 0 is out of range (1 to 65536)" },
	{ "[global]\nnumjobs=0\n[job]\n", 2, "option 'numjobs': 0 is out of range (1 to 65536)" },
	{ "[job]\nbs=4k,8k,16k,32k\n", 2,
	  "option 'bs': '4k,8k,16k,32k' has more than 3 values (read,write,trim)" },
	{ "[job]\nbs=4q\n", 2, "option 'bs': '4q' is not a size (did you mean '4k'?)" },
	{ "[job]\nlat_over=10s,2s\n", 2, "option 'lat_over': '10s,2s' is not a list of at most "
	  "4 ascending times above 0 such as 2s,10s" },
	{ "[job]\nlat_over=1,2,3,4,5\n", 2, "is not a list of at most 4 ascending times" },
	{ "[job]\nlat_over=0\n", 2, "is not a list of at most 4 ascending times" },
	{ "[job]\npasses=0\n", 2, "option 'passes': 0 is out of range (1 to 10000)" },
	{ "[job]\nsize=1m\nrwmixwrite=101\n", 3,
	  "option 'rwmixwrite': '101' is not a percentage (0 to 100)" },
	{ "[job]\nrw=randread:0\n", 2, "option 'rw': ':0' is not a positive count" },
	{ "[job]\nrw=raed\n", 2, "option 'rw': 'raed' is not one of read, write, randread, " },
	{ "[job]\nrw=randreed\n", 2, "is not one of read, write, randread, randwrite, rw, "
	  "readwrite, randrw, trim, randtrim, trimwrite, randtrimwrite, seqwr, seqrewr, seqrd, "
	  "rndrd, rndwr, rndrw (did you mean 'randread'?)" },
	{ "[job]\nbssplit=4k/30:64k/60\n", 2,
	  "option 'bssplit': the percentages in '4k/30:64k/60' add up to 90, not 100" },
	{ "[job]\nbssplit=4k/70:64k/70:8k\n", 2, "add up to 140, not 100" },
	{ "[job]\nbsrange=0-4k\n", 2, "option 'bsrange': '0-4k' is not a block size range" },
	{ "[job]\nkb_base=1023\n", 2, "option 'kb_base': '1023' is not 1024 or 1000" },
	{ "[job]\nrandom_distribution=zipf:1\n", 2,
	  "option 'random_distribution': 'zipf:1' needs" },
	{ "[job]\nrandom_distribution=pareto:1.5\n", 2, "'pareto:1.5' needs a parameter" },
	{ "[job]\npercentile_list=50:101\n", 2,
	  "option 'percentile_list': '50:101' is not a list" },
	{ "[job]\ndirect=maybe\n", 2, "option 'direct': 'maybe' is not a boolean (0 or 1)" },
	{ "[job]\nthinktime=soon\n", 2, "option 'thinktime': 'soon' is not a time" },
	{ "[job]\nstartdelay=5s-1s\n", 2,
	  "option 'startdelay': '5s-1s' is not a time or a range" },
	{ "[job]\nbuffer_pattern=0xab\"cd\n", 2,
	  "option 'buffer_pattern': '0xab\"cd' is not a pattern (a \" is not closed;" },
	{ "[job]\nfilename=::\n", 2, "option 'filename': '::' has no name" },
	{ "[job]\nsync=fast\n", 2, "option 'sync': 'fast' is not one of none, 0, sync, 1, dsync" },
	{ "[job]\nrate=1m\nrate_iops=100\n", 3,
	  "job 'job': options 'rate' and 'rate_iops' both limit one direction: keep one" },
	{ "[job]\nbwavgtime=0\n", 2,
	  "job 'job': options 'bwavgtime' and 'iopsavgtime' need a window above 0" },
	{ "[job]\nioengine=ftruncate\nrw=trim\n", 2,
	  "job 'job': option 'rw': this ioengine cannot trim (the engines that can: psync)" },
	{ "[job]\niodpth=4\n", 2, "unknown option 'iodpth' (did you mean 'iodepth'?)" },
	{ "[job]\nfixedbufs=1\n", 2,
	  "option 'fixedbufs' belongs to ioengine 'io_uring', but job 'job' uses 'psync'" },
	{ "[global]\nuserspace_reap\n[job]\nioengine=io_uring\n", 2,
	  "option 'userspace_reap' belongs to ioengine 'libaio', but job 'job' uses 'io_uring'" },
	{ "[job]\nioengine=libaoi\n", 2,
	  "option 'ioengine': unknown engine 'libaoi' (did you mean 'libaio'?) (see --enghelp)" },
	{ "[job]\nioengine=spdk\n", 2,
	  "option 'ioengine': unknown engine 'spdk' (see --enghelp)" },
	{ "[job]\nioengine=posixaio\n", 2,
	  "option 'ioengine': 'posixaio' is not available in this build: built without posixaio" },
	{ "[job]\nioengine=io_uring\nsq_entries=0\n", 3,
	  "option 'sq_entries': 0 is out of range (1 to 4096)" },
};

START_TEST(bad_values_name_the_file_line_and_option)
{
	const struct bad_case *c = &bad_cases[_i];
	char prefix[32];
	int ret;

	add_file("job.fio", c->text);
	ret = jobs_build(&in, &jl, &d);
	ck_assert_msg(ret == -EINVAL, "%s: returned %d (%s)", c->text, ret, d.msg);
	snprintf(prefix, sizeof(prefix), "job.fio:%d: ", c->line);
	ck_assert_msg(!strncmp(d.msg, prefix, strlen(prefix)), "'%s' does not start with '%s'",
		      d.msg, prefix);
	ck_assert_msg(strstr(d.msg, c->msg), "'%s' does not contain '%s'", d.msg, c->msg);
	ck_assert_uint_eq(jl.njobs, 0);
}
END_TEST

START_TEST(unknown_option_far_from_every_name_has_no_hint)
{
	add_file("job.fio", "[job]\nrw=read\nfrobnicate=1\n");
	build_fails("job.fio:3: unknown option 'frobnicate'");
}
END_TEST

START_TEST(bs_lists_set_each_direction)
{
	add_file("job.fio", "[two]\nbs=8k,32k\n[skip_read]\nbs=,8k\n[trailing]\nbs=8k,32k,\n"
		 "[three]\nblocksize=1k,2k,3k\n");
	build_ok();
	check_bs(find_job("two", 0), IO_READ, 8 * KiB, 8 * KiB);
	check_bs(find_job("two", 0), IO_WRITE, 32 * KiB, 32 * KiB);
	check_bs(find_job("two", 0), IO_TRIM, 32 * KiB, 32 * KiB);
	check_bs(find_job("skip_read", 0), IO_READ, 4096, 4096);
	check_bs(find_job("skip_read", 0), IO_WRITE, 8 * KiB, 8 * KiB);
	check_bs(find_job("skip_read", 0), IO_TRIM, 8 * KiB, 8 * KiB);
	check_bs(find_job("trailing", 0), IO_WRITE, 32 * KiB, 32 * KiB);
	check_bs(find_job("trailing", 0), IO_TRIM, 4096, 4096);
	check_bs(find_job("three", 0), IO_READ, 1 * KiB, 1 * KiB);
	check_bs(find_job("three", 0), IO_WRITE, 2 * KiB, 2 * KiB);
	check_bs(find_job("three", 0), IO_TRIM, 3 * KiB, 3 * KiB);
}
END_TEST

START_TEST(bsrange_sets_min_and_max)
{
	add_file("job.fio", "[all]\nbsrange=4k-16k\n[each]\nbsrange=4k:16k,1k-2k\n");
	build_ok();
	for (int dir = 0; dir < IO_NDIR; dir++)
		check_bs(find_job("all", 0), dir, 4 * KiB, 16 * KiB);
	check_bs(find_job("each", 0), IO_READ, 4 * KiB, 16 * KiB);
	check_bs(find_job("each", 0), IO_WRITE, 1 * KiB, 2 * KiB);
	check_bs(find_job("each", 0), IO_TRIM, 1 * KiB, 2 * KiB);
}
END_TEST

static void check_split(const struct dir_bs *b, unsigned i, uint32_t bs, uint32_t pct)
{
	ck_assert_uint_lt(i, b->nsplit);
	ck_assert_uint_eq(b->split[i].bs, bs);
	ck_assert_uint_eq(b->split[i].pct, pct);
}

START_TEST(bssplit_weights_sizes_per_direction)
{
	const struct job_desc *j;

	add_file("job.fio", "[all]\nbssplit=4k/30:64k/70\n[rw]\nbssplit=4k/30:64k/70,8k/100\n"
		 "[blank]\nbssplit=4k/40:8k:16k/\n");
	build_ok();
	j = find_job("all", 0);
	for (int dir = 0; dir < IO_NDIR; dir++) {
		ck_assert_uint_eq(j->bs[dir].nsplit, 2);
		check_split(&j->bs[dir], 0, 4096, 30);
		check_split(&j->bs[dir], 1, 65536, 70);
		check_bs(j, dir, 4 * KiB, 64 * KiB);
	}
	j = find_job("rw", 0);
	ck_assert_uint_eq(j->bs[IO_READ].nsplit, 2);
	ck_assert_uint_eq(j->bs[IO_WRITE].nsplit, 1);
	check_split(&j->bs[IO_WRITE], 0, 8192, 100);
	check_split(&j->bs[IO_TRIM], 0, 8192, 100);
	check_bs(j, IO_WRITE, 8 * KiB, 8 * KiB);
	/* Empty percentages share what the others leave. */
	j = find_job("blank", 0);
	ck_assert_uint_eq(j->bs[IO_READ].nsplit, 3);
	check_split(&j->bs[IO_READ], 0, 4096, 40);
	check_split(&j->bs[IO_READ], 1, 8192, 30);
	check_split(&j->bs[IO_READ], 2, 16384, 30);
}
END_TEST

START_TEST(bssplit_keeps_an_explicit_zero_percent)
{
	const struct job_desc *j = one_job("[job]\nbssplit=4k/50:8k/0:16k\n");

	ck_assert_uint_eq(j->bs[IO_READ].nsplit, 3);
	check_split(&j->bs[IO_READ], 0, 4096, 50);
	check_split(&j->bs[IO_READ], 1, 8192, 0);
	check_split(&j->bs[IO_READ], 2, 16384, 50);
}
END_TEST

START_TEST(bs_after_bssplit_drops_the_split)
{
	const struct job_desc *j = one_job("[job]\nbssplit=4k/30:64k/70\nbs=16k\n");

	for (int dir = 0; dir < IO_NDIR; dir++) {
		ck_assert_uint_eq(j->bs[dir].nsplit, 0);
		check_bs(j, dir, 16 * KiB, 16 * KiB);
	}
}
END_TEST

START_TEST(blockalign_defaults_to_each_directions_block_size)
{
	const struct job_desc *j;

	add_file("job.fio", "[dflt]\nbs=8k,32k\n[set]\nbs=8k,32k\nblockalign=512\n"
		 "[split]\nbssplit=2k/50:64k/50\n");
	build_ok();
	j = find_job("dflt", 0);
	ck_assert_uint_eq(j->blockalign[IO_READ], 8 * KiB);
	ck_assert_uint_eq(j->blockalign[IO_WRITE], 32 * KiB);
	ck_assert_uint_eq(j->blockalign[IO_TRIM], 32 * KiB);
	j = find_job("set", 0);
	for (int dir = 0; dir < IO_NDIR; dir++)
		ck_assert_uint_eq(j->blockalign[dir], 512);
	ck_assert_uint_eq(find_job("split", 0)->blockalign[IO_WRITE], 2 * KiB);
}
END_TEST

START_TEST(rate_is_per_direction)
{
	const struct job_desc *j;

	add_file("job.fio", "[both]\nrate=1m,500k\n[writes]\nrate=,500k\n"
		 "[iops]\nrate_iops=100,50\n");
	build_ok();
	j = find_job("both", 0);
	ck_assert_uint_eq(j->rate[IO_READ], MiB);
	ck_assert_uint_eq(j->rate[IO_WRITE], 500 * KiB);
	ck_assert_uint_eq(j->rate[IO_TRIM], 500 * KiB);
	j = find_job("writes", 0);
	ck_assert_uint_eq(j->rate[IO_READ], 0);
	ck_assert_uint_eq(j->rate[IO_WRITE], 500 * KiB);
	j = find_job("iops", 0);
	ck_assert_uint_eq(j->rate_iops[IO_READ], 100);
	ck_assert_uint_eq(j->rate_iops[IO_WRITE], 50);
	ck_assert_uint_eq(j->rate[IO_READ], 0);
}
END_TEST

START_TEST(rw_suffix_is_a_count_when_random_and_a_size_when_sequential)
{
	add_file("job.fio", "[rand]\nrw=randread:8\n[seq]\nrw=read:4k\n[reset]\nrw=randread:8\n"
		 "rw=write\n[mixed]\nreadwrite=randrw:2\n");
	build_ok();
	ck_assert_int_eq(find_job("rand", 0)->rw, RW_RANDREAD);
	ck_assert_uint_eq(find_job("rand", 0)->rw_nr, 8);
	ck_assert_int_eq(find_job("seq", 0)->rw, RW_READ);
	ck_assert_uint_eq(find_job("seq", 0)->rw_nr, 4096);
	ck_assert_int_eq(find_job("reset", 0)->rw, RW_WRITE);
	ck_assert_uint_eq(find_job("reset", 0)->rw_nr, 0);
	ck_assert_int_eq(find_job("mixed", 0)->rw, RW_RANDRW);
	ck_assert_uint_eq(find_job("mixed", 0)->rw_nr, 2);
}
END_TEST

START_TEST(rwmixwrite_sets_the_read_share_and_the_last_one_wins)
{
	add_file("job.fio", "[w]\nrwmixwrite=30\n[w_last]\nrwmixread=60\nrwmixwrite=30\n"
		 "[r_last]\nrwmixwrite=30\nrwmixread=60\n");
	build_ok();
	ck_assert_uint_eq(find_job("w", 0)->rwmixread, 70);
	ck_assert_uint_eq(find_job("w_last", 0)->rwmixread, 70);
	ck_assert_uint_eq(find_job("r_last", 0)->rwmixread, 60);
}
END_TEST

/* As in fio: filename= adds files, directory= (one value in fio) is replaced. */
START_TEST(filename_accumulates_and_directory_is_replaced_over_repeated_keys)
{
	const struct job_desc *j;

	/* an empty name between ':' is skipped, as fio skips it */
	j = one_job("[global]\nfilename=a\n[job]\nfilename=b\\:1::c:\ndirectory=/x\n"
		    "directory=/y:/z\n");
	ck_assert_uint_eq(j->filenames.n, 3);
	ck_assert_str_eq(j->filenames.v[0], "a");
	ck_assert_str_eq(j->filenames.v[1], "b:1");
	ck_assert_str_eq(j->filenames.v[2], "c");
	ck_assert_uint_eq(j->directories.n, 2);
	ck_assert_str_eq(j->directories.v[0], "/y");
	ck_assert_str_eq(j->directories.v[1], "/z");
}
END_TEST

START_TEST(kb_base_1000_makes_k_and_m_decimal_wherever_it_is_set)
{
	add_file("job.fio", "[before]\nkb_base=1000\nsize=1m\n[after]\nsize=1m\nbs=4k\n"
		 "kb_base=1000\n[iec]\nkb_base=1000\nsize=1KiB\n[binary]\nsize=1m\n");
	build_ok();
	ck_assert_uint_eq(find_job("before", 0)->size.bytes, 1000000);
	ck_assert_uint_eq(find_job("after", 0)->size.bytes, 1000000);
	check_bs(find_job("after", 0), IO_WRITE, 4000, 4000);
	ck_assert_uint_eq(find_job("after", 0)->kb_base, 1000);
	ck_assert_uint_eq(find_job("iec", 0)->size.bytes, 1024);
	ck_assert_uint_eq(find_job("binary", 0)->size.bytes, MiB);
	ck_assert_uint_eq(find_job("binary", 0)->kb_base, 1024);
}
END_TEST

START_TEST(kb_base_from_global_applies_to_the_jobs_sizes)
{
	const struct job_desc *j = one_job("[global]\nkb_base=1000\n[job]\nsize=2m\nrate=1k\n");

	ck_assert_uint_eq(j->size.bytes, 2000000);
	ck_assert_uint_eq(j->rate[IO_READ], 1000);
}
END_TEST

/* As fio: each section's sizes are read with its own kb_base; [global]'s keep theirs. */
START_TEST(a_jobs_kb_base_leaves_the_globals_sizes_alone)
{
	const struct job_desc *j;

	add_file("a.fio", "[global]\nbs=4k\nsize=1m\n[job]\nkb_base=1000\nrate=1k\n");
	add_file("b.fio", "[global]\nkb_base=1000\nbs=8k\n[back]\nkb_base=1024\nsize=1m\n");
	build_ok();
	j = find_job("job", 0);
	ck_assert_uint_eq(j->bs[IO_READ].min, 4096);
	ck_assert_uint_eq(j->size.bytes, 1 << 20);
	ck_assert_uint_eq(j->rate[IO_READ], 1000);
	ck_assert_uint_eq(j->kb_base, 1000);
	j = find_job("back", 0);
	ck_assert_uint_eq(j->bs[IO_READ].min, 8000);
	ck_assert_uint_eq(j->size.bytes, 1 << 20);
}
END_TEST

START_TEST(global_applies_only_to_jobs_below_it_in_its_file)
{
	const struct job_desc *j;

	add_file("one.fio", "[first]\n[global]\nbs=8k\nloops=2\n[a]\n[global]\nrw=randread\n"
		 "[b]\nbs=16k\n");
	add_file("two.fio", "[c]\n[global]\nloops=5\n[d]\n");
	build_ok();
	ck_assert_uint_eq(jl.njobs, 5);
	j = find_job("first", 0);
	check_bs(j, IO_READ, 4096, 4096);
	ck_assert_uint_eq(j->loops, 1);
	j = find_job("a", 0);
	check_bs(j, IO_READ, 8 * KiB, 8 * KiB);
	ck_assert_uint_eq(j->loops, 2);
	ck_assert_int_eq(j->rw, RW_READ);
	j = find_job("b", 0);		/* the second [global] adds to the first */
	check_bs(j, IO_READ, 16 * KiB, 16 * KiB);
	ck_assert_uint_eq(j->loops, 2);
	ck_assert_int_eq(j->rw, RW_RANDREAD);
	j = find_job("c", 0);		/* another file starts without globals */
	check_bs(j, IO_READ, 4096, 4096);
	ck_assert_uint_eq(j->loops, 1);
	ck_assert_int_eq(j->rw, RW_READ);
	ck_assert_str_eq(j->file, "two.fio");
	ck_assert_uint_eq(find_job("d", 0)->loops, 5);
}
END_TEST

START_TEST(each_job_file_starts_a_phase_and_a_group)
{
	add_file("one.fio", "[a]\n[b]\n");
	add_file("two.fio", "[global]\nbs=8k\n[c]\n");
	build_ok();
	ck_assert_uint_eq(jl.nphases, 2);
	ck_assert_int_eq(jl.ngroups, 2);
	ck_assert_uint_eq(find_job("b", 0)->phase, 0);
	ck_assert_int_eq(find_job("b", 0)->groupid, 0);
	ck_assert_uint_eq(find_job("c", 0)->phase, 1);
	ck_assert_int_eq(find_job("c", 0)->groupid, 1);
}
END_TEST

START_TEST(stonewall_starts_a_phase_and_new_group_only_a_group)
{
	add_file("job.fio", "[a]\n[b]\n[c]\nstonewall\n[d]\nnew_group\n[e]\n[f]\n"
		 "wait_for_previous\nnew_group\n");
	build_ok();
	ck_assert_uint_eq(jl.njobs, 6);
	ck_assert_uint_eq(find_job("a", 0)->phase, 0);
	ck_assert_int_eq(find_job("a", 0)->groupid, 0);
	ck_assert_uint_eq(find_job("b", 0)->phase, 0);
	ck_assert_int_eq(find_job("b", 0)->groupid, 0);
	ck_assert_uint_eq(find_job("c", 0)->phase, 1);
	ck_assert_int_eq(find_job("c", 0)->groupid, 1);
	ck_assert_uint_eq(find_job("d", 0)->phase, 1);
	ck_assert_int_eq(find_job("d", 0)->groupid, 2);
	ck_assert_uint_eq(find_job("e", 0)->phase, 1);
	ck_assert_int_eq(find_job("e", 0)->groupid, 2);
	ck_assert_uint_eq(find_job("f", 0)->phase, 2);
	ck_assert_int_eq(find_job("f", 0)->groupid, 3);
	ck_assert_uint_eq(jl.nphases, 3);
	ck_assert_int_eq(jl.ngroups, 4);
}
END_TEST

START_TEST(stonewall_or_new_group_on_the_first_job_adds_nothing_empty)
{
	add_file("job.fio", "[a]\nstonewall\nnew_group\n[b]\n");
	build_ok();
	ck_assert_uint_eq(find_job("b", 0)->phase, 0);
	ck_assert_int_eq(find_job("b", 0)->groupid, 0);
	ck_assert_uint_eq(jl.nphases, 1);
	ck_assert_int_eq(jl.ngroups, 1);
}
END_TEST

START_TEST(numjobs_clones_share_phase_and_group)
{
	add_file("job.fio", "[a]\n[b]\nnumjobs=3\nstonewall\n[c]\n");
	build_ok();
	ck_assert_uint_eq(jl.njobs, 5);
	for (unsigned c = 0; c < 3; c++) {
		const struct job_desc *j = &jl.jobs[1 + c];

		ck_assert_str_eq(j->name, "b");
		ck_assert_uint_eq(j->jobnum, c);
		ck_assert_uint_eq(j->index, 1 + c);
		ck_assert_uint_eq(j->phase, 1);
		ck_assert_int_eq(j->groupid, 1);
		ck_assert_uint_eq(j->numjobs, 3);
	}
	ck_assert_uint_eq(jl.jobs[4].index, 4);
	ck_assert_uint_eq(jl.jobs[4].jobnum, 0);
	ck_assert_int_eq(jl.jobs[4].groupid, 1);
	ck_assert_uint_eq(jl.nphases, 2);
	ck_assert_int_eq(jl.ngroups, 2);
}
END_TEST

START_TEST(passes_repeat_the_job_and_its_clones_each_in_a_phase_and_group)
{
	add_file("job.fio", "[x]\npasses=3\nnumjobs=2\n[y]\n");
	build_ok();
	ck_assert_uint_eq(jl.njobs, 7);
	for (unsigned i = 0; i < 6; i++) {
		const struct job_desc *j = &jl.jobs[i];

		ck_assert_str_eq(j->name, "x");
		ck_assert_uint_eq(j->pass, 1 + i / 2);
		ck_assert_uint_eq(j->jobnum, i % 2);
		ck_assert_uint_eq(j->phase, i / 2);
		ck_assert_int_eq(j->groupid, (int)(i / 2));
	}
	/* the next job runs beside the last pass, as beside any job it follows */
	ck_assert_uint_eq(jl.jobs[6].phase, 2);
	ck_assert_uint_eq(jl.jobs[6].pass, 1);
	ck_assert_uint_eq(jl.nphases, 3);
}
END_TEST

START_TEST(lat_over_keeps_ascending_limits_in_ns)
{
	add_file("job.fio", "[x]\nlat_over=500,2s,10s\n");
	build_ok();
	ck_assert_uint_eq(jl.jobs[0].nlat_over, 3);
	ck_assert_uint_eq(jl.jobs[0].lat_over_ns[0], 500000);	/* µs without a unit */
	ck_assert_uint_eq(jl.jobs[0].lat_over_ns[1], 2000000000ULL);
	ck_assert_uint_eq(jl.jobs[0].lat_over_ns[2], 10000000000ULL);
}
END_TEST

/* Options before the first --name, as main() stores them: section 0, source -1. */
static void add_cli_default(const char *key, const char *val)
{
	if (in.cli_defaults < 0)
		in.cli_defaults = (long)jf.nsecs;
	ck_assert_int_eq(jobfile_add_key(&jf, (size_t)in.cli_defaults, "global", key, val,
					 "command line", 0), 0);
}

START_TEST(cli_defaults_apply_to_every_job_and_the_file_overrides_them)
{
	add_cli_default("bs", "16k");
	add_cli_default("loops", "3");
	add_cli_default("iodepth", "2");
	add_file("one.fio", "[a]\nbs=8k\n[global]\nloops=4\n[b]\n");
	add_file("two.fio", "[c]\n");
	build_ok();
	ck_assert_uint_eq(jl.njobs, 3);
	check_bs(find_job("a", 0), IO_READ, 8 * KiB, 8 * KiB);
	ck_assert_uint_eq(find_job("a", 0)->loops, 3);
	check_bs(find_job("b", 0), IO_READ, 16 * KiB, 16 * KiB);
	ck_assert_uint_eq(find_job("b", 0)->loops, 4);
	check_bs(find_job("c", 0), IO_READ, 16 * KiB, 16 * KiB);
	ck_assert_uint_eq(find_job("c", 0)->loops, 3);
	ck_assert_str_eq(job_setting(find_job("c", 0), "bs"), "16k");
}
END_TEST

START_TEST(set_overrides_win_over_everything)
{
	static const struct job_override sets[] = { { "bs", "64k" }, { "blocksize", "32k" },
						    { "rw", "randwrite" } };
	const struct job_desc *j;
	const char *file;
	int line;

	add_cli_default("bs", "16k");
	add_file("job.fio", "[global]\nbs=8k\n[a]\nbs=4k\nrw=read\n[b]\n");
	in.sets = sets;
	in.nsets = TABLE_LEN(sets);
	build_ok();
	for (unsigned i = 0; i < jl.njobs; i++) {
		j = &jl.jobs[i];
		check_bs(j, IO_READ, 32 * KiB, 32 * KiB);
		ck_assert_int_eq(j->rw, RW_RANDWRITE);
		ck_assert_str_eq(job_setting(j, "bs"), "32k");
		job_where(j, "bs", &file, &line);
		ck_assert_str_eq(file, "--set");
		ck_assert_int_eq(line, 0);
	}
}
END_TEST

START_TEST(bad_set_values_are_reported_as_from_set)
{
	static const struct job_override bad[] = { { "iodepth", "0" } };
	static const struct job_override unknown[] = { { "iodpth", "4" } };

	add_file("job.fio", "[job]\n");
	in.sets = bad;
	in.nsets = 1;
	build_fails("--set: option 'iodepth': 0 is out of range (1 to 65536)");
	in.sets = unknown;
	build_fails("--set: unknown option 'iodpth' (did you mean 'iodepth'?)");
}
END_TEST

START_TEST(engine_options_are_kept_in_engine_opts)
{
	const struct aio_test_opts *aio;
	const struct uring_test_opts *uring;

	add_file("job.fio", "[aio]\nuserspace_reap=1\nioengine=libaio\n"
		 "[aio_off]\nioengine=libaio\n[global]\nfixedbufs\n[uring]\nioengine=io_uring\n"
		 "[uring_set]\nioengine=io_uring\nsq_entries=8\nfixedbufs=0\n");
	build_ok();
	aio = (const void *)find_job("aio", 0)->engine_opts.bytes;
	ck_assert(aio->userspace_reap);
	ck_assert_str_eq(job_setting(find_job("aio", 0), "userspace_reap"), "1");
	aio = (const void *)find_job("aio_off", 0)->engine_opts.bytes;
	ck_assert(!aio->userspace_reap);
	uring = (const void *)find_job("uring", 0)->engine_opts.bytes;
	ck_assert(uring->fixedbufs);
	ck_assert_uint_eq(uring->sq_entries, 64);
	uring = (const void *)find_job("uring_set", 0)->engine_opts.bytes;
	ck_assert(!uring->fixedbufs);
	ck_assert_uint_eq(uring->sq_entries, 8);
	ck_assert_str_eq(find_job("uring_set", 0)->ioengine, "io_uring");
}
END_TEST

/*
 * An option of [global]'s engine under a job of another engine is left out with a note, as
 * fio leaves it (its e4defrag2 example); the jobs that keep the engine take it.
 */
START_TEST(global_engine_option_is_left_out_for_another_engine)
{
	const struct aio_test_opts *aio;

	add_file("job.fio", "[global]\nioengine=libaio\nuserspace_reap\n[aio]\n"
		 "[uring]\nioengine=io_uring\n");
	build_ok();
	aio = (const void *)find_job("aio", 0)->engine_opts.bytes;
	ck_assert(aio->userspace_reap);
	ck_assert_ptr_null(job_setting(find_job("uring", 0), "userspace_reap"));
	ck_assert_msg(strstr(d.notes, "job.fio:3: job 'uring': option 'userspace_reap' belongs "
			     "to [global]'s ioengine 'libaio', and the job uses 'io_uring': "
			     "left out for it, as fio does"), "notes: %s", d.notes);
}
END_TEST

START_TEST(sync_engine_caps_iodepth_with_a_note)
{
	const struct job_desc *j = one_job("[job]\niodepth=32\n");

	ck_assert_uint_eq(j->iodepth, 1);
	ck_assert_uint_eq(j->iodepth_batch_submit, 1);
	ck_assert_uint_eq(j->iodepth_low, 1);
	ck_assert_ptr_nonnull(d.notes);
	ck_assert_str_eq(d.notes, "job 'job': ioengine psync is synchronous, so iodepth=32 is "
			 "capped at 1\n");
}
END_TEST

START_TEST(async_engine_keeps_iodepth_without_a_note)
{
	const struct job_desc *j = one_job("[job]\nioengine=libaio\ndirect=1\niodepth=32\n");

	ck_assert_uint_eq(j->iodepth, 32);
	ck_assert_ptr_null(d.notes);
}
END_TEST

START_TEST(libaio_without_direct_gets_a_note)
{
	const struct job_desc *j = one_job("[job]\nioengine=libaio\niodepth=32\n");

	ck_assert_uint_eq(j->iodepth, 32);
	ck_assert_ptr_nonnull(d.notes);
	ck_assert_str_eq(d.notes, "job 'job': libaio without direct=1 completes most I/O inside "
			 "io_submit, so iodepth=32 will not be reached\n");
}
END_TEST

/* The catalog's flag says when, not the engine's name: io_uring queues buffered I/O too. */
START_TEST(io_uring_without_direct_gets_no_note)
{
	const struct job_desc *j = one_job("[job]\nioengine=io_uring\niodepth=32\n");

	ck_assert_uint_eq(j->iodepth, 32);
	ck_assert_ptr_null(d.notes);
}
END_TEST

START_TEST(time_based_without_runtime_runs_once_with_a_note)
{
	add_file("job.fio", "[once]\ntime_based\n[timed]\ntime_based\nruntime=10\n");
	build_ok();
	ck_assert(!find_job("once", 0)->time_based);
	ck_assert(find_job("timed", 0)->time_based);
	ck_assert_uint_eq(find_job("timed", 0)->runtime_ns, 10 * SEC);
	ck_assert_str_eq(d.notes,
			 "job 'once': time_based needs runtime; the workload runs once\n");
}
END_TEST

START_TEST(thread_0_is_accepted_with_a_note)
{
	const struct job_desc *j = one_job("[job]\nthread=0\n");

	ck_assert(!j->thread);
	ck_assert_str_eq(d.notes, "job 'job': iojob runs every job as a thread; thread=0 has no "
			 "effect\n");
}
END_TEST

/* One batch's depths: submit, fewest and most completions per call, refill mark. */
static void check_depths(const char *name, unsigned submit, unsigned cmin, unsigned cmax,
			 unsigned low)
{
	const struct job_desc *j = find_job(name, 0);

	ck_assert_msg(j->iodepth_batch_submit == submit && j->iodepth_batch_complete_min == cmin &&
		      j->iodepth_batch_complete_max == cmax && j->iodepth_low == low,
		      "job '%s': submit %u, complete %u-%u, low %u; want %u, %u-%u, %u", name,
		      j->iodepth_batch_submit, j->iodepth_batch_complete_min,
		      j->iodepth_batch_complete_max, j->iodepth_low, submit, cmin, cmax, low);
}

START_TEST(batch_and_low_depths_follow_iodepth)
{
	add_file("job.fio", "[global]\nioengine=libaio\ndirect=1\niodepth=16\n[dflt]\n"
		 "[zero]\niodepth_batch=0\niodepth_batch_complete_max=0\niodepth_low=0\n"
		 "[set]\niodepth_batch=4\niodepth_low=8\niodepth_batch_complete_max=2\n"
		 "[min_only]\niodepth_batch_complete=4\n"
		 "[capped]\niodepth_batch_submit=64\niodepth_low=20\niodepth_batch_complete=32\n"
		 "[null]\nioengine=null\n[null_set]\nioengine=null\niodepth_batch=2\n");
	build_ok();
	/* fio's defaults: one I/O per submit, one completion per reap, refill below iodepth. */
	check_depths("dflt", 1, 1, 1, 16);
	/* 0 means iodepth for submit and low, and the fewest completions for the most. */
	check_depths("zero", 16, 1, 1, 16);
	check_depths("set", 4, 1, 2, 8);
	check_depths("min_only", 1, 4, 4, 16);
	check_depths("capped", 16, 16, 16, 16);
	/* An engine whose submit costs nothing batches everything unless told otherwise. */
	check_depths("null", 16, 1, 16, 16);
	check_depths("null_set", 2, 1, 16, 16);
}
END_TEST

START_TEST(directory_must_exist_only_when_paths_are_checked)
{
	static const char *const only_job[] = { "job" };
	char missing[] = "/tmp/iojob-jobs-XXXXXX", text[256], msg[256];

	/* A fresh name, removed at once: a directory that surely does not exist. */
	ck_assert_ptr_nonnull(mkdtemp(missing));
	ck_assert_int_eq(rmdir(missing), 0);
	snprintf(text, sizeof(text), "[job]\ndirectory=/\n[missing]\ndirectory=%s\n", missing);
	add_file("job.fio", text);
	in.check_paths = false;
	build_ok();
	ck_assert_uint_eq(jl.njobs, 2);
	ck_assert_str_eq(find_job("missing", 0)->directories.v[0], missing);
	jobs_free(&jl);
	in.check_paths = true;
	snprintf(msg, sizeof(msg), "job.fio:4: option 'directory': '%s' is not a directory",
		 missing);
	build_fails(msg);
	in.sections = only_job;
	in.nsections = 1;
	build_ok();
	ck_assert_str_eq(jl.jobs[0].directories.v[0], "/");
}
END_TEST

START_TEST(settings_keep_the_text_and_where_it_was)
{
	const struct job_desc *j;
	const char *file;
	int line;

	j = one_job("[global]\nbs=8k\n[job]\nrw=randread\nblocksize=16K\nrw=write\n");
	ck_assert_str_eq(job_setting(j, "rw"), "write");
	ck_assert_str_eq(job_setting(j, "bs"), "16K");
	ck_assert_ptr_null(job_setting(j, "blocksize"));
	ck_assert_ptr_null(job_setting(j, "iodepth"));
	ck_assert_uint_eq(j->nsettings, 4);
	ck_assert_str_eq(j->settings[0].name, "bs");
	ck_assert_str_eq(j->settings[0].value, "8k");
	job_where(j, "rw", &file, &line);
	ck_assert_str_eq(file, "job.fio");
	ck_assert_int_eq(line, 6);
	job_where(j, "bs", &file, &line);
	ck_assert_int_eq(line, 5);
	job_where(j, "iodepth", &file, &line);	/* not set: the job's section */
	ck_assert_str_eq(file, "job.fio");
	ck_assert_int_eq(line, 3);
}
END_TEST

START_TEST(name_option_renames_the_job)
{
	const struct job_desc *j = one_job("[job]\nname=renamed\ndescription=what it does\n");

	ck_assert_str_eq(j->name, "renamed");
	ck_assert_str_eq(j->description, "what it does");
}
END_TEST

START_TEST(section_filter_selects_jobs_and_keeps_globals)
{
	static const char *const only[] = { "c", "a" };

	add_file("job.fio", "[global]\nbs=8k\n[a]\n[b]\n[c]\n");
	in.sections = only;
	in.nsections = TABLE_LEN(only);
	build_ok();
	ck_assert_uint_eq(jl.njobs, 2);
	ck_assert_str_eq(jl.jobs[0].name, "a");
	ck_assert_str_eq(jl.jobs[1].name, "c");
	check_bs(&jl.jobs[1], IO_READ, 8 * KiB, 8 * KiB);
}
END_TEST

START_TEST(section_filter_matching_nothing_fails)
{
	static const char *const only[] = { "zzz" };

	add_file("job.fio", "[a]\n[b]\n");
	in.sections = only;
	in.nsections = 1;
	build_fails("no job of 'job.fio' matches --section");
}
END_TEST

START_TEST(only_globals_is_no_job)
{
	add_file("job.fio", "[global]\nbs=8k\n");
	build_fails("'job.fio': no jobs defined (only [global] sections: a job is a section of "
		    "another name)");
}
END_TEST

START_TEST(a_file_without_sections_is_named)
{
	add_file("empty.fio", "; nothing here\n");
	build_fails("'empty.fio': no jobs defined (no sections: a job starts with [name])");
}
END_TEST

START_TEST(jobs_engine_finds_by_exact_name)
{
	ck_assert_ptr_eq(jobs_engine(&in, "libaio"), &test_engines[1]);
	ck_assert_ptr_eq(jobs_engine(&in, "posixaio"), &test_engines[4]);
	ck_assert_ptr_null(jobs_engine(&in, "libai"));
}
END_TEST

static TCase *fixture_tcase(const char *name)
{
	TCase *tc = tcase_create(name);

	tcase_add_checked_fixture(tc, setup, teardown);
	return tc;
}

static Suite *jobs_suite(void)
{
	Suite *s = suite_create("jobs");
	TCase *tc;

	tc = fixture_tcase("defaults");
	tcase_add_test(tc, a_job_without_keys_gets_the_table_defaults);
	tcase_add_test(tc, global_name_names_no_job);
	tcase_add_test(tc, verify_pattern_takes_every_pattern_form);
	tcase_add_loop_test(tc, every_option_is_found_by_its_names_and_its_default_parses, 0,
			    count_options());
	suite_add_tcase(s, tc);

	tc = fixture_tcase("aliases");
	tcase_add_loop_test(tc, alias_sets_the_same_field_as_the_name, 0, TABLE_LEN(alias_cases));
	tcase_add_test(tc, buffered_sets_direct_inverted);
	tcase_add_test(tc, verify_is_refused_without_data);
	tcase_add_test(tc, write_only_engine_refuses_reads);
	tcase_add_test(tc, timed_engine_runs_for_its_runtime);
	tcase_add_test(tc, readonly_refuses_an_engine_that_changes_files);
	suite_add_tcase(s, tc);

	tc = fixture_tcase("errors");
	tcase_add_loop_test(tc, bad_values_name_the_file_line_and_option, 0, TABLE_LEN(bad_cases));
	tcase_add_test(tc, unknown_option_far_from_every_name_has_no_hint);
	suite_add_tcase(s, tc);

	tc = fixture_tcase("values");
	tcase_add_test(tc, bs_lists_set_each_direction);
	tcase_add_test(tc, bsrange_sets_min_and_max);
	tcase_add_test(tc, bssplit_weights_sizes_per_direction);
	tcase_add_test(tc, bssplit_keeps_an_explicit_zero_percent);
	tcase_add_test(tc, bs_after_bssplit_drops_the_split);
	tcase_add_test(tc, blockalign_defaults_to_each_directions_block_size);
	tcase_add_test(tc, rate_is_per_direction);
	tcase_add_test(tc, rw_suffix_is_a_count_when_random_and_a_size_when_sequential);
	tcase_add_test(tc, rwmixwrite_sets_the_read_share_and_the_last_one_wins);
	tcase_add_test(tc, kb_base_1000_makes_k_and_m_decimal_wherever_it_is_set);
	tcase_add_test(tc, kb_base_from_global_applies_to_the_jobs_sizes);
	tcase_add_test(tc, a_jobs_kb_base_leaves_the_globals_sizes_alone);
	tcase_add_test(tc, name_option_renames_the_job);
	tcase_add_test(tc, filename_accumulates_and_directory_is_replaced_over_repeated_keys);
	suite_add_tcase(s, tc);

	tc = fixture_tcase("inheritance");
	tcase_add_test(tc, global_applies_only_to_jobs_below_it_in_its_file);
	tcase_add_test(tc, cli_defaults_apply_to_every_job_and_the_file_overrides_them);
	tcase_add_test(tc, set_overrides_win_over_everything);
	tcase_add_test(tc, bad_set_values_are_reported_as_from_set);
	suite_add_tcase(s, tc);

	tc = fixture_tcase("groups");
	tcase_add_test(tc, each_job_file_starts_a_phase_and_a_group);
	tcase_add_test(tc, stonewall_starts_a_phase_and_new_group_only_a_group);
	tcase_add_test(tc, stonewall_or_new_group_on_the_first_job_adds_nothing_empty);
	tcase_add_test(tc, numjobs_clones_share_phase_and_group);
	tcase_add_test(tc, passes_repeat_the_job_and_its_clones_each_in_a_phase_and_group);
	tcase_add_test(tc, lat_over_keeps_ascending_limits_in_ns);
	suite_add_tcase(s, tc);

	tc = fixture_tcase("engines");
	tcase_add_test(tc, engine_options_are_kept_in_engine_opts);
	tcase_add_test(tc, global_engine_option_is_left_out_for_another_engine);
	tcase_add_test(tc, jobs_engine_finds_by_exact_name);
	suite_add_tcase(s, tc);

	tc = fixture_tcase("validation");
	tcase_add_test(tc, sync_engine_caps_iodepth_with_a_note);
	tcase_add_test(tc, async_engine_keeps_iodepth_without_a_note);
	tcase_add_test(tc, libaio_without_direct_gets_a_note);
	tcase_add_test(tc, io_uring_without_direct_gets_no_note);
	tcase_add_test(tc, time_based_without_runtime_runs_once_with_a_note);
	tcase_add_test(tc, thread_0_is_accepted_with_a_note);
	tcase_add_test(tc, batch_and_low_depths_follow_iodepth);
	tcase_add_test(tc, directory_must_exist_only_when_paths_are_checked);
	suite_add_tcase(s, tc);

	tc = fixture_tcase("settings");
	tcase_add_test(tc, settings_keep_the_text_and_where_it_was);
	suite_add_tcase(s, tc);

	tc = fixture_tcase("sections");
	tcase_add_test(tc, section_filter_selects_jobs_and_keeps_globals);
	tcase_add_test(tc, section_filter_matching_nothing_fails);
	tcase_add_test(tc, only_globals_is_no_job);
	tcase_add_test(tc, a_file_without_sections_is_named);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(jobs_suite());
}
