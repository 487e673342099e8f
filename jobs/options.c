/* The job option table: one line per option. */
#include "jobs/options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobs/opt_buffers.h"
#include "jobs/opt_control.h"
#include "jobs/opt_custom.h"
#include "jobs/opt_thread.h"
#include "jobs/opt_offsets.h"
#include "jobs/opt_steady.h"
#include "jobs/opt_replay.h"
#include "base/units.h"

static const struct opt_enum sync_vals[] = {
	{ "none", SYNC_NONE, "no O_SYNC or O_DSYNC" },
	{ "0", SYNC_NONE, "same as none" },
	{ "sync", SYNC_SYNC, "open with O_SYNC" },
	{ "1", SYNC_SYNC, "same as sync" },
	{ "dsync", SYNC_DSYNC, "open with O_DSYNC" },
	{ NULL },
};

static const struct opt_enum fallocate_vals[] = {
	{ "none", FALLOC_NONE, "do not preallocate" },
	{ "0", FALLOC_NONE, "same as none" },
	{ "native", FALLOC_NATIVE, "fallocate(2), nothing if unsupported" },
	{ "1", FALLOC_NATIVE, "same as native" },
	{ "posix", FALLOC_POSIX, "posix_fallocate(3)" },
	{ "keep", FALLOC_KEEP, "fallocate(2) with FALLOC_FL_KEEP_SIZE" },
	{ "truncate", FALLOC_TRUNCATE, "ftruncate(2) to the size" },
	{ NULL },
};

static const struct opt_enum fadvise_vals[] = {
	{ "0", FADV_HINT_NONE, "give the kernel no advice" },
	{ "1", FADV_HINT_PATTERN, "POSIX_FADV_RANDOM for random jobs, SEQUENTIAL for the rest" },
	{ "sequential", FADV_HINT_SEQUENTIAL, "POSIX_FADV_SEQUENTIAL" },
	{ "random", FADV_HINT_RANDOM, "POSIX_FADV_RANDOM" },
	{ "noreuse", FADV_HINT_NOREUSE, "POSIX_FADV_NOREUSE (newer fio's; not in fio 3.33)" },
	{ NULL },
};

static const struct opt_enum unified_vals[] = {
	{ "none", UNIFIED_NONE, "report each direction" },
	{ "0", UNIFIED_NONE, "same as none" },
	{ "mixed", UNIFIED_MIXED, "report all directions summed, as 'mixed'" },
	{ "1", UNIFIED_MIXED, "same as mixed" },
	{ "both", UNIFIED_BOTH, "report each direction and the sum" },
	{ "2", UNIFIED_BOTH, "same as both" },
	{ NULL },
};

static const struct opt_enum rwmix_mode_vals[] = {
	{ "random", 0, "each I/O's direction drawn at random (fio)" },
	{ "ratio", 1, "reads and writes interleaved to hold rwmixread exactly (sysbench)" },
	{ NULL },
};

static const struct opt_enum seq_cursor_vals[] = {
	{ "job", 0, "each clone has its own sequential stream (fio)" },
	{ "shared", 1, "clones take the next block of one stream, one pass (sysbench)" },
	{ NULL },
};

static const struct opt_enum fsync_scope_vals[] = {
	{ "file", FSYNC_SCOPE_FILE, "sync the file just written" },
	{ "all_files", FSYNC_SCOPE_ALL, "sync every file of the job (sysbench)" },
	{ NULL },
};

static const struct opt_enum create_vals[] = {
	{ "reuse", CREATE_REUSE, "keep existing files, extending short ones (fio)" },
	{ "recreate", CREATE_RECREATE, "delete and recreate the files empty first (sysbench "
	  "seqwr)" },
	{ NULL },
};

/* fio's zonemode values, all listed (blktests greps --cmdhelp for zbd). */
static const struct opt_enum zonemode_vals[] = {
	{ "none", ZONE_NONE, "no zones: the region is one range" },
	{ "strided", ZONE_STRIDED, "zonesize bytes in each zonerange, then zonerange+zoneskip on" },
	{ "zbd", ZONE_ZBD, "zones written at their write pointers, emulated on files and "
	  "devices that are not zoned; random I/O picks among zones" },
	{ NULL },
};

static const struct opt_enum filetype_vals[] = {
	{ "none", FILETYPE_NONE, "each file's type as stat() finds it" },
	{ "file", FILETYPE_FILE, "regular files" },
	{ "block", FILETYPE_BLOCK, "block devices" },
	{ "char", FILETYPE_CHAR, "character devices" },
	{ NULL },
};

static const struct opt_enum clock_vals[] = {
	{ "cpu", CLOCKSRC_CPU, "the CPU's time-stamp counter wherever it is invariant" },
	{ "clock_gettime", CLOCKSRC_GETTIME, "clock_gettime(CLOCK_MONOTONIC)" },
	{ "gettimeofday", CLOCKSRC_GETTIME, "same as clock_gettime (monotonic)" },
	{ NULL },
};

static const struct opt_enum verify_vals[] = {
	{ "0", VERIFY_NONE, "no verification" },
	{ "none", VERIFY_NONE, "no verification" },
	{ "md5", VERIFY_MD5, "md5 per chunk" },
	{ "crc64", VERIFY_CRC64, "crc64 per chunk (fio's: Jones polynomial, from 0)" },
	{ "crc32", VERIFY_CRC32, "crc32 per chunk (fio's: MSB first, from 0)" },
	{ "crc32c-intel", VERIFY_CRC32C, "crc32c per chunk (the CPU instruction where present)" },
	{ "crc32c", VERIFY_CRC32C, "crc32c per chunk (the CPU instruction where present)" },
	{ "crc16", VERIFY_CRC16, "crc16 per chunk (ARC)" },
	{ "crc7", VERIFY_CRC7, "crc7 per chunk (MMC)" },
	{ "sha1", VERIFY_SHA1, "sha1 per chunk" },
	{ "sha256", VERIFY_SHA256, "sha256 per chunk" },
	{ "sha512", VERIFY_SHA512, "sha512 per chunk" },
	{ "sha3-224", VERIFY_SHA3_224, "sha3-224 per chunk" },
	{ "sha3-256", VERIFY_SHA3_256, "sha3-256 per chunk" },
	{ "sha3-384", VERIFY_SHA3_384, "sha3-384 per chunk" },
	{ "sha3-512", VERIFY_SHA3_512, "sha3-512 per chunk" },
	{ "xxhash", VERIFY_XXHASH, "xxhash (XXH32) per chunk" },
	{ "meta", VERIFY_META, "the header alone (offset, generation, its crc32c), not the data" },
	{ "pattern", VERIFY_PATTERN, "every byte is verify_pattern (no header)" },
	{ "null", VERIFY_NULL, "read back and check nothing (to measure the rest)" },
	{ 0 },
};

static const struct opt_enum error_vals[] = {
	{ "none", ERRC_NONE, "stop the job at the first error" },
	{ "0", ERRC_NONE, "same as none" },
	{ "read", ERRC_READ, "count read errors and go on" },
	{ "write", ERRC_WRITE, "count write errors and go on" },
	{ "io", ERRC_IO, "count read and write errors and go on" },
	{ "verify", ERRC_VERIFY, "count verify errors and go on" },
	{ "all", ERRC_ALL, "count every error and go on" },
	{ "1", ERRC_ALL, "same as all" },
	{ NULL },
};

/* value tables: CPU, NUMA, priority and identity */
static const struct opt_enum cpus_policy_vals[] = {
	{ "shared", 0, "every job may run on all of the CPUs" },
	{ "split", 1, "each job runs on one of the CPUs, the jobs of the run taken in turn" },
	{ NULL },
};

/* value tables: buffers and data content */
static const struct opt_enum dedupe_mode_vals[] = {
	{ "repeat", DEDUPE_REPEAT, "a copy repeats the job's block written next to it" },
	{ "working_set", DEDUPE_WORKING_SET, "a copy repeats a block drawn from a working set "
	  "(dedupe_working_set_percentage)" },
	{ NULL, 0, NULL },
};

/* value tables: files */
static const struct opt_enum lockfile_vals[] = {
	{ "none", FILE_LOCK_NONE, "no locking" },
	{ "exclusive", FILE_LOCK_EXCLUSIVE, "one I/O at a time on the file, whichever job" },
	{ "readwrite", FILE_LOCK_READWRITE, "reads together, each write alone" },
	{ NULL },
};

/* RWH_WRITE_LIFE_* of fcntl(2)'s F_SET_RW_HINT: the kernel's values */
static const struct opt_enum write_hint_vals[] = {
	{ "none", 1, "no particular lifetime (RWH_WRITE_LIFE_NONE)" },
	{ "short", 2, "data that lives a short time" },
	{ "medium", 3, "data that lives a medium time" },
	{ "long", 4, "data that lives long" },
	{ "extreme", 5, "data that lives very long" },
	{ NULL },
};

/* sync_file_range(2)'s flags, SYNC_FILE_RANGE_*: the kernel's values */
static const struct opt_enum sfr_flag_vals[] = {
	{ "wait_before", 1, "wait for writeback already under way first" },
	{ "write", 2, "start writeback of the range's dirty pages" },
	{ "wait_after", 4, "wait for the range's writeback to end" },
	{ NULL },
};

/* sync_file_range=FLAG[,FLAG...][:N]: the flags ORed, every N writes (1 without :N). */
static int sfr_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		     size_t whylen)
{
	struct job_desc *j = dst;
	const char *p = val, *colon = strchr(val, ':');
	unsigned flags = 0;
	char *end;
	unsigned long n = 1;

	(void)ctx;
	if (colon) {
		errno = 0;
		n = strtoul(colon + 1, &end, 10);
		if (errno || end == colon + 1 || *end || !n || n > UINT32_MAX) {
			snprintf(why, whylen, "'%s' after ':' is not a count of writes, 1 or more",
				 colon + 1);
			return -EINVAL;
		}
	} else {
		colon = val + strlen(val);
	}
	while (p < colon) {
		size_t len = strcspn(p, ",");
		const struct opt_enum *e = sfr_flag_vals;

		if (p + len > colon)
			len = (size_t)(colon - p);
		while (e->name && (strlen(e->name) != len || strncasecmp(e->name, p, len)))
			e++;
		if (!e->name) {
			snprintf(why, whylen, "'%.*s' is none of wait_before, write, wait_after",
				 (int)len, p);
			return -EINVAL;
		}
		flags |= (unsigned)e->value;
		p += len + (p[len] == ',');
	}
	if (!flags) {
		snprintf(why, whylen, "'%s' names no flag (wait_before, write, wait_after)", val);
		return -EINVAL;
	}
	j->sfr_flags = flags;
	j->sfr_every = (unsigned)n;
	return 0;
}

/* value tables: offsets and sizes */
static const struct opt_enum random_generator_vals[] = {
	{ "tausworthe", RANDGEN_TAUSWORTHE, "uniform draws (iojob's 64-bit generator); the "
	  "random map, unless norandommap, keeps blocks from repeating in a pass" },
	{ "lfsr", RANDGEN_LFSR, "a permutation of the blocks: each once per pass without a "
	  "map, even with norandommap (one block size)" },
	{ "tausworthe64", RANDGEN_TAUSWORTHE64, "same as tausworthe: iojob's generator is "
	  "64-bit already" },
	{ NULL },
};

static const struct opt_enum rw_sequencer_vals[] = {
	{ "sequential", RWSEQ_SEQUENTIAL, "the I/Os after a random one follow it" },
	{ "identical", RWSEQ_IDENTICAL, "the I/Os after a random one repeat its offset" },
	{ NULL },
};

/* value tables: rates, flow and timing */
static const struct opt_enum rate_process_vals[] = {
	{ "linear", RATE_LINEAR, "evenly spaced I/Os" },
	{ "poisson", RATE_POISSON, "exponential gaps of the same mean: a Poisson process" },
	{ NULL },
};

static const struct opt_enum think_count_vals[] = {
	{ "complete", THINK_COMPLETE, "pause after thinktime_blocks I/Os completed" },
	{ "issue", THINK_ISSUE, "pause after thinktime_blocks I/Os issued" },
	{ NULL },
};

static const struct opt_enum submit_mode_vals[] = {
	{ "inline", SUBMIT_INLINE, "the job's thread submits and reaps its I/Os" },
	{ "offload", SUBMIT_OFFLOAD, "iodepth threads, each with its own engine, run the "
	  "I/Os one at a time; the job's thread issues them at its pace (not with sync, "
	  "posixaio or cmdprio)" },
	{ NULL },
};

/* value tables: job control and reporting */
static const struct opt_enum exit_what_vals[] = {
	{ "group", EXIT_GROUP, "the jobs of its group (exitall's own way)" },
	{ "stonewall", EXIT_STONEWALL, "every job of its phase (up to the next stonewall); the "
	  "next phase still runs" },
	{ "all", EXIT_ALL, "every job, and no later phase runs" },
	{ NULL },
};

static const struct opt_enum unit_base_vals[] = {
	{ "0", UNIT_BASE_AUTO, "as the engine measures: bits for net, bytes for the others" },
	{ "8", UNIT_BASE_BYTES, "bandwidth in bytes (B/s)" },
	{ "1", UNIT_BASE_BITS, "bandwidth in bits (bit/s)" },
	{ NULL },
};

static const struct opt_enum verify_policy_vals[] = {
	{ "completed", VERIFY_POLICY_COMPLETED, "every write that completed (the default)" },
	{ "fsynced", VERIFY_POLICY_FSYNCED, "only the writes issued before the last fsync or "
	  "fdatasync that completed: what a crash or power loss cannot take" },
	{ NULL },
};

/* fio 3.33's log_max_value is a bool; fio HEAD names it log_window_value and adds both */
static const struct opt_enum log_window_vals[] = {
	{ "avg", LOG_WINDOW_AVG, "the window's mean" },
	{ "max", LOG_WINDOW_MAX, "the window's largest value" },
	{ "both", LOG_WINDOW_BOTH, "the mean, then the largest value in a column of its own "
	  "(in every log, 0 in per-I/O entries; fio HEAD's)" },
	{ "0", LOG_WINDOW_AVG, "avg (fio 3.33's log_max_value=0)" },
	{ "1", LOG_WINDOW_MAX, "max (fio 3.33's log_max_value=1)" },
	{ NULL },
};

/* Option names are the table; keep it sorted by topic, as the help prints it. */
const struct opt_def job_options[] = {
	/* identity */
	JOB_STR("name", name, NULL, "job name (the section name by default)"),
	JOB_STR("description", description, NULL, "free text printed with the job"),
	JOB_STR("comm", comm, NULL, "the job thread's name, as ps and /proc show it (15 "
		"characters kept; fio HEAD names the job's process so)"),

	/* files */
	JOB_LIST("filename", filenames, "file(s) or device(s) to use, ':'-separated; "
		 "stripe:chunk=SIZE:A:B... is one md RAID0 target over A, B... (see stripe_chunk)"),
	JOB_SIZE("stripe_chunk", stripe_chunk, "0", 0, 0,
		 "stripe the job's files into one target as md RAID0 does, in chunks of this "
		 "size (0: no stripe): byte L is on file (L / chunk) mod n, at (L / (chunk * n)) "
		 "* chunk + L mod chunk; requests are cut at chunk boundaries and complete with "
		 "their last part. The files (2 or more, existing, of one size in whole chunks, "
		 "used whole) are checked as devices are; the disk stats list the stripe with "
		 "its members under it, as md's"),
	JOB_LIST("directory", directories, "directory for the job's files, ':'-separated; "
		 "set again (in the job over [global], or by --set), it replaces",
		 .list_replaces = true),
	JOB_STR("filename_format", filename_format, "$jobname.$jobnum.$filenum",
		"name of generated files ($jobname, $jobnum, $filenum)"),
	JOB_UINT("nrfiles", nrfiles, "1", 1, 1 << 20, "files per job", .alias = "nr_files"),
	JOB_RANGE("filesize", filesize, NULL, "size of each file (a range picks at random)"),
	JOB_SIZE_PCT("size", size, NULL, "bytes of region per job, or N% of the file or device"),
	JOB_CUSTOM("io_size", io_size, NULL, opt_io_size_parse,
		   "bytes of I/O to do (default: size); N% of each file's region, or Nz zones "
		   "of zonesize", .alias = "io_limit", .syntax = "size, N% (1 to 100) or Nz"),
	JOB_SIZE_PCT("offset", offset, "0", "start of the I/O region", .alias = "fileoffset"),
	JOB_SIZE_PCT("offset_increment", offset_increment, "0",
		     "added to offset for each clone (numjobs)"),
	JOB_ENUM("zonemode", zonemode, "none", zonemode_vals, "how the region is cut into zones"),
	JOB_U64("number_ios", number_ios, "0", "stop after this many I/Os (0: no limit)"),
	JOB_UINT("passes", passes, "1", 1, 10000,
		 "run the job this many times, each pass a stonewalled phase reported alone"),
	JOB_BOOL("unlink", unlink, "0", "delete the job's files when it ends"),
	JOB_BOOL("create_on_open", create_on_open, "0", "create files when the job opens them"),
	JOB_ENUM("filetype", filetype, "none", filetype_vals,
		 "the type of every file of the job (fio HEAD's, to skip its stat() calls); iojob "
		 "still looks, for its safety checks, and refuses a file of another type"),
	JOB_BOOL("create_only", create_only, "0",
		 "only create and lay out the files, then end the job without I/O"),
	JOB_ENUM("create", create, "reuse", create_vals,
		 "whether a write job's files are emptied before it starts"),
	JOB_BOOL("overwrite", overwrite, "0", "lay out files with data before a write job"),
	JOB_ENUM("fallocate", fallocate, "native", fallocate_vals,
		 "how new files get their blocks"),
	JOB_BOOL("allow_mounted_write", allow_mounted_write, "0",
		 "allow writes to a block device that is mounted, swap, or used by md or dm"),
	JOB_BOOL("allow_overwrite_signatures", allow_overwrite_signatures, "0",
		 "allow writes to a block device that holds a file system, RAID, LVM or "
		 "partition table"),

	/* pattern */
	JOB_CUSTOM("rw", rw, "read", opt_rw_parse, "access pattern, with :N (see values)",
		   .alias = "readwrite", .vals = rw_vals,
		   .syntax = "MODE or MODE:N (N: I/Os per random offset, or bytes to skip; "
		   "-SIZE goes backwards)"),
	JOB_UINT("rwmixread", rwmixread, "50", 0, 100, "percent of reads in mixed modes"),
	JOB_ENUM("rwmix_mode", rwmix_ratio, "random", rwmix_mode_vals,
		 "how mixed modes choose each I/O's direction"),
	JOB_ENUM("seq_cursor", seq_cursor_shared, "job", seq_cursor_vals,
		 "whether clones share one sequential stream over the files"),
	JOB_CUSTOM("rwmixwrite", rwmixread, NULL, opt_rwmixwrite_parse,
		   "percent of writes in mixed modes", .syntax = "integer, 0 to 100"),
	JOB_CUSTOM("bs", bs, "4k", opt_bs_parse, "block size, per direction (read,write,trim)",
		   .alias = "blocksize", .syntax = "size[,size[,size]]: reads, writes, trims"),
	JOB_CUSTOM("bsrange", bs, NULL, opt_bsrange_parse, "block size range per direction (4k-64k)",
		   .alias = "blocksize_range", .syntax = "size-size[,size-size[,size-size]]"),
	JOB_CUSTOM("bssplit", bs, NULL, opt_bssplit_parse,
		   "weighted block sizes per direction (4k/30:64k/70)",
		   .syntax = "size/percent:size/percent...[,...] per direction",
		   .empty_ok = true),
	JOB_CUSTOM("blockalign", blockalign, NULL, opt_blockalign_parse,
		   "alignment of random offsets per direction (default: block size)",
		   .alias = "ba", .syntax = "size[,size[,size]]"),
	JOB_CUSTOM("random_distribution", random_distribution, "random", opt_distribution_parse,
		   "offsets of random jobs: uniform or skewed",
		   .syntax = "random, zipf:THETA[:C], pareto:H[:C], normal:DEV[:C] (C: center, 0 "
		   "to 1), zoned:A/S:... or zoned_abs:A/SIZE:... (per direction, ','), "
		   "sequence:I,J,... (block indices, in order)"),
	JOB_BOOL("random_sequence_stride", random_sequence_stride, "0",
		 "random_distribution=sequence: each round of the indices starts as many blocks "
		 "further on as it has, and the job ends at the region's end (fio HEAD); 0: "
		 "the same blocks round after round"),
	JOB_CUSTOM("file_service_type", file_service, "roundrobin", opt_file_service_parse,
		   "which file the next I/O goes to, switching every N I/Os, or drawn for each "
		   "from a skew",
		   .syntax = "roundrobin|sequential|random[:N], zipf[:THETA[:C]], pareto[:H[:C]], "
		   "normal|gauss[:DEV[:C]]"),
	/*
	 * allrandrepeat is fio's name for making every generator repeatable; iojob's
	 * generators (offsets, sizes, mixes, file choice, buffers) all derive from randseed,
	 * which randrepeat=0 draws anew each run unless the job sets it (jobs/build.c), so
	 * one option serves, as newer fio makes it an alias.
	 */
	JOB_BOOL("randrepeat", randrepeat, "1", "same random sequence on every run",
		 .alias = "allrandrepeat"),
	JOB_U64("randseed", randseed, "0x89", "seed of the random sequences"),
	JOB_FLAG("norandommap", norandommap, "0",
		 "random offsets with replacement (blocks may repeat in a pass)"),

	/* engine */
	JOB_STR("ioengine", ioengine, "psync", "how I/O is issued (see --enghelp)"),
	JOB_UINT("iodepth", iodepth, "1", 1, 65536, "I/Os kept in flight"),
	JOB_UINT("iodepth_batch_submit", iodepth_batch_submit, "1", 0, 65536,
		 "I/Os per submit call (0: iodepth)", .alias = "iodepth_batch"),
	JOB_UINT("iodepth_batch_complete_min", iodepth_batch_complete_min, "1", 0, 65536,
		 "fewest completions to wait for", .alias = "iodepth_batch_complete"),
	JOB_UINT("iodepth_batch_complete_max", iodepth_batch_complete_max, "0", 0, 65536,
		 "most completions reaped per call (0: iodepth_batch_complete_min)"),
	JOB_UINT("iodepth_low", iodepth_low, "0", 0, 65536,
		 "refill when fewer are in flight (0: iodepth)"),
	JOB_BOOL("direct", direct, "0", "open files with O_DIRECT"),
	JOB_BOOL("atomic", atomic, "0", "writes with RWF_ATOMIC, all or none of each stored "
		 "(fio HEAD; pvsync2, libaio, io_uring; a file without torn-write protection "
		 "fails each write with EOPNOTSUPP)"),
	JOB_BOOL_INV("buffered", direct, "the opposite of direct"),
	JOB_BOOL("invalidate", invalidate, "1",
		 "drop the files' cached pages when they are opened and at each new pass"),
	JOB_ENUM("fadvise_hint", fadvise_hint, "1", fadvise_vals,
		 "posix_fadvise advice given on the files' regions when they are opened"),
	JOB_ENUM("sync", sync, "none", sync_vals, "open files with O_SYNC or O_DSYNC"),
	JOB_UINT("fsync", fsync_every, "0", 0, UINT32_MAX, "fsync after every N writes"),
	JOB_UINT("fdatasync", fdatasync_every, "0", 0, UINT32_MAX,
		 "fdatasync after every N writes"),
	JOB_U64("fsync_every_ios", fsync_every_ios, "0",
		"sync after every N I/Os of any direction, counted over the job's clones"),
	JOB_ENUM("fsync_scope", fsync_scope, "file", fsync_scope_vals,
		 "what fsync_every_ios syncs"),
	JOB_BOOL("end_fsync", end_fsync, "0", "fsync the files when the job's writes end"),
	JOB_BOOL("end_syncfs", end_syncfs, "0", "syncfs each file system the job wrote to when "
		 "its writes end, one call for all its files there (fio HEAD)"),
	JOB_BOOL("fsync_on_close", fsync_on_close, "0", "fsync each file when closing it"),

	/* time */
	JOB_TIME("runtime", runtime_ns, "0", NS_PER_SEC, "stop after this long (seconds)",
		 .alias = "timeout"),
	JOB_FLAG("time_based", time_based, "0", "repeat the workload until runtime ends"),
	JOB_TIME("ramp_time", ramp_time_ns, "0", NS_PER_SEC,
		 "run this long before measuring (seconds)"),
	JOB_SIZE("ramp_size", ramp_size, "0", 0, 0,
		 "do this much I/O before measuring: the job's, or under group_reporting its "
		 "group's together (fio HEAD's; looked at every 10 ms, as fio's helper does)"),
	JOB_TIME_RANGE("startdelay", startdelay_ns, "0", NS_PER_SEC,
		       "wait this long before starting (seconds; a range picks at random)"),
	JOB_UINT("loops", loops, "1", 1, UINT32_MAX, "repeat the workload this many times"),
	JOB_CUSTOM("rate", rate, NULL, opt_rate_parse, "bandwidth cap per direction, bytes/s",
		   .syntax = "size[,size[,size]]: reads, writes, trims"),
	JOB_CUSTOM("rate_iops", rate_iops, NULL, opt_rate_iops_parse, "IOPS cap per direction",
		   .syntax = "integer[,integer[,integer]]: reads, writes, trims"),
	JOB_TIME("thinktime", thinktime_ns, "0", NS_PER_USEC,
		 "pause after I/O completes (microseconds)"),
	JOB_UINT("thinktime_blocks", thinktime_blocks, "1", 1, 65536,
		 "I/Os between thinktime pauses"),

	JOB_UINT("prioclass", prioclass, "0", 0, 3,
		 "I/O priority class of the job's thread: 1 rt, 2 be, 3 idle (0: be)"),
	JOB_UINT("prio", prio, "0", 0, 7, "I/O priority level of the job's thread, 0 (highest) to 7"),
	JOB_UINT("priohint", priohint, "0", 0, 1023,
		 "I/O priority hint of the job's thread (a device's command duration limit "
		 "descriptor; fio HEAD); with no class, best effort"),

	/* jobs and groups */
	JOB_UINT("numjobs", numjobs, "1", 1, 65536, "clones of this job, each on its own thread"),
	JOB_FLAG("thread", thread, "1", "run jobs as threads (iojob always does)"),
	JOB_FLAG("group_reporting", group_reporting, "0", "report each group as one job"),
	JOB_FLAG("stonewall", stonewall, "0", "wait for earlier jobs; starts a new group",
		 .alias = "wait_for_previous"),
	JOB_FLAG("new_group", new_group, "0", "start a new reporting group"),

	/* buffers */
	JOB_FLAG("zero_buffers", zero_buffers, "0", "write zeros"),
	JOB_FLAG("refill_buffers", refill_buffers, "0", "new random data for every write"),
	JOB_BOOL("scramble_buffers", scramble_buffers, "1",
		 "vary write buffers a little to defeat dedupe"),
	JOB_CUSTOM("buffer_pattern", buffer_pattern, NULL, opt_pattern_parse,
		   "fill write buffers with this pattern (up to 512 bytes)",
		   .syntax = "0xHEX, \"text\", 'file' and decimal numbers, joined in any order"),

	/* reporting */
	JOB_CUSTOM("kb_base", kb_base, "1024", opt_kb_base_parse,
		   "1024 or 1000: what k, m, g mean in sizes", .syntax = "1024 or 1000"),
	JOB_CUSTOM("lat_over", lat_over_ns, NULL, opt_lat_over_parse,
		   "count the I/Os whose latency reaches each of these limits",
		   .syntax = "time,time,... (at most 4, ascending; µs without a unit)"),
	JOB_CUSTOM("percentile_list", percentile_list,
		   "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99",
		   opt_percentiles_parse, "latency percentiles to report, ':'-separated",
		   .syntax = "percent:percent:... (at most 20)"),
	JOB_BOOL("clat_percentiles", clat_percentiles, "1", "report completion latency percentiles"),
	JOB_BOOL("lat_percentiles", lat_percentiles, "0", "report total latency percentiles"),
	JOB_BOOL("slat_percentiles", slat_percentiles, "0",
		 "report submission latency percentiles"),
	JOB_ENUM("unified_rw_reporting", unified_rw_reporting, "none", unified_vals,
		 "report directions separately or summed"),
	JOB_ENUM("continue_on_error", continue_on_error, "none", error_vals,
		 "which types of error to count and go on after: EIO and EILSEQ, or the "
		 "errors ignore_error lists for the type, as fio"),
	JOB_ENUM("clocksource", clocksource, NULL, clock_vals, "clock the job's latencies use"),
	JOB_BOOL("gtod_reduce", gtod_reduce, "0",
		 "disable_lat, disable_clat, disable_slat and disable_bw_measurement at once "
		 "(iojob still times every I/O, at little cost)"),
	/* data verification */
	JOB_ENUM("verify", verify, "0", verify_vals,
		 "write blocks with fio's verify header and checksum, read them back and check "
		 "them"),
	JOB_CUSTOM("verify_pattern", verify_pattern, NULL, opt_verify_pattern_parse,
		   "the data of verified blocks (0x hex, \"text\" or a byte; %o: the I/O's "
		   "offset, 8 bytes)", .syntax = "0xHEX, \"text\", a byte 0-255, %o"),
	JOB_SIZE("verify_pattern_interval", verify_pattern_interval, "0", 0, UINT32_MAX,
		 "start verify_pattern afresh every N bytes of each I/O, its %o the offset "
		 "there (fio HEAD's; 0: one pattern over the I/O)"),
	JOB_DEPRECATED("verifysort", "fio's old verify ordering; deprecated, ignored"),
	JOB_DEPRECATED("verifysort_nr", "fio's old verify ordering; deprecated, ignored"),
	JOB_SIZE("verify_interval", verify_interval, "0", 0, 0,
		 "bytes covered by each header and checksum (0: the block size)"),
	JOB_BOOL("do_verify", do_verify, "1", "read back and check after the writes"),
	JOB_BOOL("verify_fatal", verify_fatal, "0", "stop the job at the first bad block"),
	JOB_BOOL("verify_header_seed", verify_header_seed, "1",
		 "check the seed of each verify header (fio HEAD); iojob's data is made from "
		 "none, so it checks none, as fio with 0"),
	JOB_BOOL("verify_write_sequence", verify_write_sequence, "1",
		 "check that each block holds its last write's generation; 0: the header and "
		 "checksum alone (fio HEAD: a block another job or an older write holds passes "
		 "if whole)"),
	JOB_SIZE("verify_backlog", verify_backlog, "0", 0, 0,
		 "check written blocks after every N writes (0: after the write phase); a "
		 "count that takes 1k as fio does"),
	JOB_FLAG("verify_only", verify_only, "0",
		 "do not write: only read back and check what an earlier run wrote"),
	JOB_BOOL("verify_dump", verify_dump, "0",
		 "save a bad block as FILE.OFFSET.received (and .expected for patterns)"),
	JOB_ENUM("verify_policy", verify_policy, "completed", verify_policy_vals,
		 "the writes verify_state_save's state lists for a later verify_state_load: "
		 "fsynced leaves out those after the last fsync that completed (fio HEAD's)"),
	JOB_BOOL("verify_state_save", verify_state_save, "1", "a writing verify job leaves "
		 "local-NAME-N-verify.state in the cwd, in fio's format: the writes issued and "
		 "the last iodepth completed"),
	JOB_BOOL("verify_state_load", verify_state_load, "0",
		 "verify_only replays the job's writes as reads, in their order, as far as "
		 "local-NAME-N-verify.state (iojob's or fio's) says they surely reached"),

	/* log files; alone, as in fio, the prefix is the job's name */
	JOB_STR("write_lat_log", lat_log, NULL,
		"log clat, slat and lat of every I/O to PREFIX_{clat,slat,lat}.N.log",
		.bare_ok = true, .empty_ok = true),
	JOB_STR("write_bw_log", bw_log, NULL, "log bandwidth to PREFIX_bw.N.log", .bare_ok = true,
		.empty_ok = true),
	JOB_STR("write_iops_log", iops_log, NULL, "log IOPS to PREFIX_iops.N.log",
		.bare_ok = true, .empty_ok = true),
	JOB_STR("write_hist_log", hist_log, NULL,
		"log clat histograms to PREFIX_clat_hist.N.log every log_hist_msec",
		.bare_ok = true, .empty_ok = true),
	JOB_TIME("log_avg_msec", log_avg_ns, "0", NS_PER_MSEC,
		 "average log entries over this window (0: one entry per I/O)"),
	JOB_TIME("log_hist_msec", log_hist_ns, "0", NS_PER_MSEC, "histogram log interval"),
	JOB_UINT("log_hist_coarseness", log_hist_coarseness, "0", 0, 6,
		 "merge 2^N histogram buckets per column"),
	JOB_BOOL("log_offset", log_offset, "0", "add each I/O's offset to the logs"),
	JOB_BOOL("log_issue_time", log_issue_time, "0", "add each I/O's issue time (ns) to the "
		 "clat and slat logs, after the priority (fio HEAD; needs write_lat_log and "
		 "log_offset)"),
	JOB_BOOL("per_job_logs", per_job_logs, "1",
		 "one log file per job (0: one per log type for all jobs)"),
	JOB_BOOL("log_unix_epoch", log_unix_epoch, "0",
		 "log times in ms since the Unix epoch, not since the job's start"),
	JOB_TIME("bwavgtime", bw_avg_ns, "500", NS_PER_MSEC, "bandwidth sample window (ms)"),
	JOB_TIME("iopsavgtime", iops_avg_ns, "500", NS_PER_MSEC, "IOPS sample window (ms)"),

	/* CPU, NUMA, priority and identity */
	JOB_CUSTOM("cpus_allowed", cpus_allowed, NULL, opt_cpus_allowed_parse,
		   "CPUs the job's thread may run on (sched_setaffinity)",
		   .syntax = "CPU list: 0-3,8"),
	JOB_CUSTOM("cpumask", cpus_allowed, NULL, opt_cpumask_parse,
		   "CPUs the job's thread may run on, as a bit mask (34: CPUs 1 and 5)",
		   .syntax = "integer bit mask, decimal or 0x hex"),
	JOB_ENUM("cpus_allowed_policy", cpus_allowed_split, "shared", cpus_policy_vals,
		 "how the jobs share the CPUs of cpus_allowed or cpumask"),
	JOB_CUSTOM("numa_cpu_nodes", numa_cpu_nodes, NULL, opt_numa_cpu_nodes_parse,
		   "run the job's thread on the CPUs of these NUMA nodes (libnuma)",
		   .syntax = "all, or a node list: 0,2-3 (libnuma's ! and + prefixes too)"),
	JOB_CUSTOM("numa_mem_policy", numa_mem_mode, NULL, opt_numa_mem_policy_parse,
		   "NUMA policy of the memory the job's thread allocates",
		   .syntax = "default, local, prefer:NODE, bind:NODES or interleave[:NODES]"),
	JOB_UINT("nice", nice, "0", -20, 19,
		 "add this to the nice value of the job's thread (nice(2))"),
	JOB_UINT("uid", uid, NULL, 0, UINT32_MAX - 1,
		 "user id the job's thread switches to before its work (root only)"),
	JOB_UINT("gid", gid, NULL, 0, UINT32_MAX - 1,
		 "group id the job's thread switches to before its work (root only)"),
	JOB_STR("cgroup", cgroup, NULL, "cgroup the job joins, created if need be, under the "
		"blkio (v1) or cgroup2 mount"),
	JOB_UINT("cgroup_weight", cgroup_weight, NULL, 100, 1000,
		 "I/O weight of the job's cgroup (blkio.weight, or io.weight in cgroup v2)"),
	JOB_BOOL("cgroup_nodelete", cgroup_nodelete, "0",
		 "keep a cgroup the job created when it ends"),
	JOB_REFUSED("gtod_cpu", NULL, "iojob has no time-keeping thread to put on that CPU: "
		    "each job reads the clock itself (the TSC or clock_gettime, in user space), "
		    "so there is no gettimeofday() call to move off the I/O threads",
		    "CPU that keeps the time of day for the others"),
	JOB_STR("ioscheduler", ioscheduler, NULL,
		"switch the block devices under the job's files to this I/O scheduler"),
	JOB_STR("exec_prerun", exec_prerun, NULL, "run this with sh -c in the job's thread "
		"before its I/O, output to NAME.prerun.txt; a failure fails the job"),
	JOB_STR("exec_postrun", exec_postrun, NULL, "run this with sh -c in the job's thread "
		"after its I/O, output to NAME.postrun.txt"),

	/* buffers and data content */
	JOB_CUSTOM("mem", mem_type, "malloc", opt_mem_parse,
		   "what the I/O buffers are allocated from (mmap types take :PATH to map a file)",
		   .alias = "iomem", .vals = mem_vals,
		   .syntax = "malloc|shm|shmhuge|mmap|mmaphuge|mmapshared[:PATH]"),
	JOB_SIZE("iomem_align", iomem_align, "0", 0, 0,
		 "the first I/O buffer starts this many bytes past a page boundary (those after "
		 "it follow at whole-page strides); a power of two of a page or more aligns it "
		 "to that", .alias = "mem_align"),
	JOB_SIZE("hugepage-size", hugepage_size, "2m", 0, 0,
		 "huge page size for mem=shmhuge and mmaphuge (a size the kernel offers)"),
	JOB_SIZE("lockmem", lockmem, "0", 0, 0,
		 "mlock(2) this much memory while the job runs, as if the machine had less"),
	JOB_UINT("buffer_compress_percentage", compress_pct, "0", 0, 100,
		 "how compressible written data is: each buffer_compress_chunk starts with "
		 "100-N% random bytes and ends with zeros (or buffer_pattern); implies "
		 "refill_buffers unless that is set"),
	JOB_SIZE("buffer_compress_chunk", compress_chunk, "512", 0, 0,
		 "bytes of each random-then-compressible stretch (0: the smallest write size)"),
	JOB_UINT("dedupe_percentage", dedupe_pct, "0", 0, 100,
		 "percent of written blocks that are copies of others, whole blocks (implies "
		 "refill_buffers unless that is set)"),
	JOB_ENUM("dedupe_mode", dedupe_mode, "repeat", dedupe_mode_vals,
		 "how the copies of dedupe_percentage are chosen"),
	JOB_UINT("dedupe_working_set_percentage", dedupe_ws_pct, "5", 0, 100,
		 "dedupe_mode=working_set: the distinct blocks copies come from, in percent of "
		 "the job's bytes"),
	JOB_BOOL("dedupe_global", dedupe_global, "0",
		 "dedupe_mode=working_set: the working set is made of every job's blocks, so "
		 "blocks repeat across jobs"),
	JOB_BOOL("bs_is_seq_rand", bs_is_seq_rand, "0",
		 "bs= and its kin give sequential,random sizes instead of read,write: a random "
		 "I/O takes the second, a sequential one the first, whatever its direction"),
	JOB_FLAG("bs_unaligned", bs_unaligned, "0",
		 "bsrange lengths may be any byte count in the range, not only multiples of the "
		 "smallest (direct I/O usually refuses them)", .alias = "blocksize_unaligned"),

	/* files */
	JOB_UINT("openfiles", openfiles, NULL, 0, UINT32_MAX,
		 "most of the job's files open at once (default: all): to use another, one is "
		 "closed, its I/O done first"),
	JOB_BOOL("create_serialize", create_serialize, "1",
		 "lay the jobs' files out one job after another before they start (0: each job "
		 "lays out its own in its thread, all at once)"),
	JOB_BOOL("create_fsync", create_fsync, "1", "fsync each file after writing its layout"),
	JOB_BOOL("allow_file_create", allow_file_create, "1",
		 "create files that do not exist (0: a missing file fails the job)"),
	JOB_BOOL("file_append", file_append, "0",
		 "start a regular file's region at its current end, as offset= its size would"),
	JOB_BOOL("fill_device", fill_device, "0",
		 "size files to the free space and write until ENOSPC or EDQUOT, which end the "
		 "job without error (a read job reads what filling wrote)", .alias = "fill_fs"),
	JOB_BOOL("unlink_each_loop", unlink_each_loop, "0",
		 "delete the job's files after each loop; the next loop creates them again"),
	JOB_STR("opendir", opendir, NULL,
		"use every regular file under this directory, recursively, each used whole"),
	JOB_ENUM("lockfile", lockfile, "none", lockfile_vals,
		 "lock each I/O on a file against the other jobs' on the same path, while the "
		 "engine takes it (as fio: a synchronous engine's whole I/O, an asynchronous "
		 "one's queueing)"),
	JOB_BOOL("pre_read", pre_read, "0",
		 "read the files' regions into the page cache before the job starts (clears "
		 "invalidate)"),
	JOB_CUSTOM("sync_file_range", sfr_every, NULL, sfr_parse,
		   "sync_file_range(2) over the range written since the last, every N writes",
		   .syntax = "wait_before|write|wait_after[,...][:N] (N writes, 1 by default)"),
	JOB_REFUSED("write_barrier", "0", "fio 3.33 marks every Nth write as a barrier, but no "
		    "engine acts on the mark, and Linux has no barrier writes from user space "
		    "(since 2.6.37 only REQ_PREFLUSH and FUA, which O_SYNC and fsync give)",
		    "make every Nth write a barrier"),
	JOB_ENUM("write_hint", write_hint, NULL, write_hint_vals,
		 "lifetime hint for the files' writes, fcntl(2) F_SET_RW_HINT (F_SET_FILE_RW_HINT "
		 "with direct=1, or the inode's where the kernel has no open file's hint)"),
	JOB_BOOL("unique_filename", unique_filename, "1",
		 "fio's client/server option (prefix files with the client's address): a local "
		 "run has no client, so it does nothing, in fio as in iojob"),

	/* offsets and sizes */
	JOB_ENUM("random_generator", random_generator, "tausworthe", random_generator_vals,
		 "generator of random offsets: lfsr visits every block once per pass, "
		 "even with norandommap"),
	JOB_BOOL("sprandom", sprandom, "0",
		 "precondition an SSD to its random-write steady state in one pass of its "
		 "physical capacity: regions left with the invalid blocks of that state (fio HEAD)"),
	JOB_UINT("spr_num_regions", spr_num_regions, "100", 1, 0,
		 "sprandom: regions the physical capacity is cut into"),
	JOB_CUSTOM("spr_op", spr_op, "0.15", opt_spr_op_parse,
		   "sprandom: the device's over-provisioning ratio", .syntax = "a number above 0, "
		   "below 1"),
	JOB_SIZE("spr_cs", spr_cs, "0", 0, 0,
		 "sprandom: the device's cache; rewrites wait one region more (0: none)"),
	JOB_CUSTOM("percentage_random", percentage_random, "100", opt_perc_random_parse,
		   "percent of a random job's I/Os at random offsets, the rest following the "
		   "previous I/O, per direction", .syntax = "int[,int[,int]], 0 to 100"),
	JOB_ENUM("rw_sequencer", rw_sequencer, "sequential", rw_sequencer_vals,
		 "what rw=randread:N does between its random offsets"),
	JOB_SIZE("zonesize", zone_size, "0", 0, 0,
		 "zonemode=strided: bytes done in a zone before the next one; zbd: a zone's span"),
	JOB_SIZE("zonecapacity", zone_capacity, "0", 0, 0,
		 "zonemode=zbd: bytes of each zone that can be written (0: zonesize)"),
	JOB_UINT("max_open_zones", max_open_zones, "0", 0, 4096,
		 "zonemode=zbd: most zones open for writes at once on a file, its jobs together "
		 "(0: no limit)"),
	JOB_UINT("job_max_open_zones", job_max_open_zones, "0", 0, 4096,
		 "zonemode=zbd: most zones one job keeps open (needs max_open_zones)"),
	JOB_BOOL("ignore_zone_limits", ignore_zone_limits, "0",
		 "zonemode=zbd: ignore a zoned device's own open zone limit (emulated zones have "
		 "none)"),
	JOB_CUSTOM("zone_reset_threshold", zone_reset_threshold, "0", opt_zone_threshold_parse,
		   "zonemode=zbd: the fraction of the region holding data from which "
		   "zone_reset_frequency resets zones", .syntax = "a number from 0 to 1"),
	JOB_CUSTOM("zone_reset_frequency", zone_reset_frequency, "0", opt_zone_frequency_parse,
		   "zonemode=zbd: past zone_reset_threshold, one write in 1/this resets its zone "
		   "first", .syntax = "a number from 0 to 1"),
	JOB_BOOL("read_beyond_wp", read_beyond_wp, "0",
		 "zonemode=zbd: reads go anywhere, not only below the zones' write pointers"),
	JOB_SIZE("zonerange", zone_range, "0", 0, 0,
		 "zonemode=strided: span of a zone (0: zonesize)"),
	JOB_CUSTOM("zoneskip", zone_skip, "0", opt_zoneskip_parse,
		   "zonemode=strided: bytes skipped after each zone's range",
		   .syntax = "size, or Nz: N zones of zonesize"),
	JOB_SIZE("offset_align", offset_align, "0", 0, 0,
		 "a percentage offset is aligned up to this (0: the smallest block size)"),
	JOB_BOOL("serialize_overlap", serialize_overlap, "0",
		 "hold an I/O while one it overlaps is in flight (writing jobs, iodepth > 1)"),
	JOB_BOOL("softrandommap", softrandommap, "0",
		 "no memory for the random map of a job of mixed block sizes: run without it"),

	/* rates, flow and timing */
	JOB_ENUM("rate_process", rate_process, "linear", rate_process_vals,
		 "how rate-limited I/Os are spaced in time"),
	JOB_CUSTOM("rate_min", rate_min, NULL, opt_rate_min_parse,
		   "lowest bandwidth per direction, bytes/s: below it over a rate_cycle (after "
		   "the first 2 s) the job fails", .alias = "ratemin",
		   .syntax = "size[,size[,size]]: reads, writes, trims"),
	JOB_CUSTOM("rate_iops_min", rate_iops_min, NULL, opt_rate_iops_min_parse,
		   "lowest IOPS per direction: below it over a rate_cycle (after the first 2 s) "
		   "the job fails", .syntax = "integer[,integer[,integer]]: reads, writes, trims"),
	JOB_UINT("rate_cycle", rate_cycle_ms, "1000", 0, UINT32_MAX,
		 "window over which rate_min and rate_iops_min are checked (ms)",
		 .alias = "ratecycle"),
	JOB_BOOL("rate_ignore_thinktime", rate_ignore_thinktime, "0",
		 "after a thinktime pause, go on at the rate instead of catching up"),
	JOB_UINT("flow", flow, "0", 0, 1000,
		 "weight of the job among the jobs of its flow_id: their I/O counts keep the "
		 "ratio of their weights (0: not in a flow)"),
	JOB_UINT("flow_id", flow_id, "0", 0, UINT32_MAX, "the flow this job's weight belongs to"),
	JOB_DEPRECATED("flow_watermark", "fio's old flow threshold; deprecated, ignored"),
	JOB_UINT("flow_sleep", flow_sleep_us, "0", 0, UINT32_MAX,
		 "pause when the job is ahead of its flow weight (microseconds; 0: retry at once)"),
	JOB_TIME("thinktime_spin", thinktime_spin_ns, "0", NS_PER_USEC,
		 "spend the first part of each thinktime pause spinning on the CPU "
		 "(microseconds)"),
	JOB_ENUM("thinktime_blocks_type", thinktime_blocks_type, "complete", think_count_vals,
		 "whether thinktime_blocks counts I/Os completed or issued"),
	JOB_TIME("thinktime_iotime", thinktime_iotime_ns, "0", NS_PER_SEC,
		 "pause for thinktime after this long of I/O (seconds; with thinktime_blocks, "
		 "whichever comes first)"),
	JOB_UINT("thinkcycles", thinkcycles, "0", 0, UINT32_MAX,
		 "spin this many loop iterations on the CPU after each read or write issued, "
		 "before the next (fio HEAD's: application work of a fixed cost, not a time; "
		 "not counted in thinktime)"),
	JOB_ENUM("io_submit_mode", io_submit_mode, "inline", submit_mode_vals,
		 "how I/Os are submitted and completed"),

	/* verification and trim */
	JOB_SIZE("verify_offset", verify_offset, "0", 0, 0,
		 "swap each chunk's header with the bytes this far into it before writing, "
		 "and back before checking (0: the header stays at the start)"),
	JOB_UINT("verify_async", verify_async, "0", 0, 256,
		 "threads that check the verify reads, beside the job's own (0: it checks them)"),
	JOB_CUSTOM("verify_async_cpus", verify_async_cpus, NULL, opt_verify_async_cpus_parse,
		   "CPUs the verify_async threads run on (default: any)",
		   .syntax = "list of CPUs such as 0-3,8"),
	JOB_U64("verify_backlog_batch", verify_backlog_batch, "0",
		"blocks read back each time verify_backlog is reached (0: verify_backlog)"),
	JOB_BOOL("experimental_verify", experimental_verify, "0",
		 "verify by replaying the job's writes as reads, in their order"),
	JOB_UINT("trim_percentage", trim_percentage, "0", 0, 100,
		 "percent of the written blocks to trim (discard) again, with verify="),
	JOB_BOOL("trim_verify_zero", trim_verify_zero, "1",
		 "trimmed blocks must read back as zeros (0: they are not checked)"),
	JOB_SIZE("trim_backlog", trim_backlog, "0", 0, 0,
		 "trim after every N blocks written (0: when the writes end); a count that "
		 "takes 1k as fio does"),
	JOB_U64("trim_backlog_batch", trim_backlog_batch, "0",
		"blocks trimmed each time trim_backlog is reached (0: trim_backlog)"),

	/* job control and reporting */
	JOB_STR("wait_for", wait_for, NULL,
		"start only once every job of this name (a section above, of a unique name) "
		"has ended; the jobs after it start without waiting"),
	JOB_FLAG("exitall", exitall, "0",
		 "when any job ends, end the others exit_what names; as in fio, setting it at "
		 "all (even exitall=0) turns it on for every job of the run"),
	JOB_FLAG("exitall_on_error", exitall_on_error, "0",
		 "when this job fails, end the others exit_what names"),
	JOB_ENUM("exit_what", exit_what, "group", exit_what_vals,
		 "which jobs exitall and exitall_on_error end"),
	JOB_BOOL("stats", stats, "1",
		 "report this job (0: left out of every report and group total, and "
		 "max_latency is not checked, as in fio)"),
	JOB_BOOL("disable_lat", disable_lat, "0",
		 "leave total latency out of the report and logs (max_latency then goes "
		 "unchecked, as in fio)"),
	JOB_BOOL("disable_clat", disable_clat, "0",
		 "leave completion latency, its percentiles and the latency buckets out of the "
		 "report and logs"),
	JOB_BOOL("disable_slat", disable_slat, "0",
		 "leave submission latency out of the report and logs"),
	JOB_BOOL("disable_bw_measurement", disable_bw, "0",
		 "log no per-I/O bandwidth entries (write_bw_log with log_avg_msec=0); the "
		 "bandwidth samples of the report stay, as in fio 3.33", .alias = "disable_bw"),
	JOB_BOOL("disk_util", disk_util, "1",
		 "report the disks under the job's files (0: they are not watched for it)"),
	JOB_CUSTOM("ignore_error", ignore_error, NULL, opt_ignore_error_parse,
		   "errors to count and go on after, per read, write and verify: a type with a "
		   "list goes on after those alone (without, continue_on_error goes on after "
		   "EIO and EILSEQ)",
		   .syntax = "READ,WRITE,VERIFY, each ERR:ERR:... (EIO, ENOSPC, ... or numbers)",
		   .empty_ok = true),
	JOB_BOOL("error_dump", error_dump, "0",
		 "say each I/O error on stderr as it happens, those continue_on_error goes "
		 "on after too"),
	JOB_CUSTOM("max_latency", max_latency_ns, NULL, opt_max_latency_parse,
		   "fail the job (ETIMEDOUT) when an I/O's total latency is above this",
		   .syntax = "time[,time[,time]] (read,write,trim; µs without a unit)"),
	JOB_TIME("latency_target", lat_target_ns, "0", NS_PER_USEC,
		 "find the highest depth, 1 to iodepth, at which I/Os' total latency stays at "
		 "or under this (µs without a unit), and run at it"),
	JOB_TIME("latency_window", lat_window_ns, "0", NS_PER_USEC,
		 "how long latency_target's search tries each depth (µs without a unit)"),
	JOB_CUSTOM("latency_percentile", lat_percentile, "100", opt_latency_pct_parse,
		   "the share of a window's I/Os that must meet latency_target",
		   .syntax = "percent, 0 to 100"),
	JOB_BOOL("latency_run", lat_run, "0",
		 "keep adjusting the depth to latency_target for the whole run (0: settle on "
		 "the highest depth that meets it, run one more window there, and end the job)"),
	JOB_UINT("significant_figures", sig_figs, "4", 1, 10,
		 "digits of the normal report's IOPS, bandwidth and sizes"),
	JOB_ENUM("unit_base", unit_base, "0", unit_base_vals,
		 "bandwidth of the normal report in bytes (8) or bits (1)"),

	/* logs and job-file syntax */
	JOB_ENUM("log_window_value", log_window, "avg", log_window_vals,
		 "with log_avg_msec, what the latency logs take of each window",
		 .alias = "log_max_value"),
	JOB_BOOL("log_prio", log_prio, "0",
		 "the logs' last column is each I/O's ioprio value (0x4004), not 1 for RT"),
	JOB_UINT("log_entries", log_entries, "1024", 1024, 1 << 20,
		 "entries of a log's first chunk, allocated before the job starts; each "
		 "next chunk doubles, up to 1Mi entries (a chunk is one zlib stream of .log.fz)"),
	JOB_SIZE("log_compression", log_compression, NULL, 1024, 512 << 20,
		 "compress the logs while the job runs, on a thread of their own, in chunks "
		 "of at most this many bytes of fio's 32-byte (40 with log_offset) samples"),
	JOB_CUSTOM("log_compression_cpus", log_compression_cpus, NULL, opt_log_cpus_parse,
		   "CPUs the log compression thread runs on", .syntax = "CPU list (0-3,8)"),
	JOB_BOOL("log_store_compressed", log_store_compressed, "0",
		 "write the logs as fio's PREFIX_TYPE.N.log.fz (--inflate-log prints them)"),
	JOB_BOOL("log_alternate_epoch", log_alternate_epoch, "0",
		 "log times in ms since the epoch of clock log_alternate_epoch_clock_id"),
	JOB_UINT("job_start_clock_id", job_start_clock, "0", 0, INT32_MAX,
		 "the clock_gettime(2) clock of the JSON's job_start, ms at the job's start (fio "
		 "HEAD's key, written when this is set: fio 3.33's JSON has none)"),
	JOB_UINT("log_alternate_epoch_clock_id", log_epoch_clock, "0", 0, INT32_MAX,
		 "the clock_gettime(2) clock id whose epoch log_unix_epoch and "
		 "log_alternate_epoch count from (0: CLOCK_REALTIME)"),
	/* fio's profiles' options, which fio takes in any job */
	JOB_STR("threads", profile_opt, NULL, "fio's tiobench profile's thread count: fio takes "
		"it in any job and it does nothing without profile=tiobench (a note says so)"),
	JOB_STR("dir", profile_opt, NULL, "fio's tiobench profile's directory: fio takes it in "
		"any job and it does nothing without profile=tiobench (a note says so)"),
	JOB_BOOL("block_error_percentiles", block_error_pct, "0",
		 "count the trims of each trim-sized block of the job's one file and report "
		 "their percentiles and the blocks' states (trimmed, trim or write failure)"),

	/* steady state: end a job once its IOPS or bandwidth hold still (engine/observe/steady.c) */
	JOB_CUSTOM("steadystate", ss_flags, "iops_slope:0.01%", opt_steadystate_parse,
		   "end the job (its group, with group_reporting) once the criterion, judged "
		   "each steadystate_check_interval over the last steadystate_duration, falls "
		   "below the limit",
		   .alias = "ss", .syntax = SS_SYNTAX),
	JOB_TIME("steadystate_duration", ss_dur_ns, "0", NS_PER_SEC,
		 "the rolling window steadystate judges, in whole seconds, a sample each "
		 "steadystate_check_interval (0: no steady state detection)", .alias = "ss_dur"),
	JOB_TIME("steadystate_ramp_time", ss_ramp_ns, "0", NS_PER_SEC,
		 "run this long before steadystate keeps samples (it starts an interval after)",
		 .alias = "ss_ramp"),
	JOB_TIME("steadystate_check_interval", ss_interval_ns, "1", NS_PER_SEC,
		 "take a steadystate sample every this long: the window holds "
		 "steadystate_duration / this many (fio HEAD's; seconds)", .alias = "ss_interval"),

	/* I/O record and replay (jobs/replay_log.c, engine/plan/replay.c, engine/observe/iolog_write.c) */
	JOB_STR("write_iolog", write_iolog, NULL,
		"record every I/O the job issues to this file, in fio's iolog version 3 "
		"(appended to, as fio does: give each job its own file)"),
	JOB_LIST("read_iolog", read_iolog,
		 "replay the I/Os of this iolog (fio's version 2 or 3) or blktrace instead of "
		 "planning them; clones take the ':'-separated logs in turn; '-' is stdin",
		 .list_replaces = true),
	JOB_BOOL("read_iolog_chunked", read_iolog_chunked, "0",
		 "read the log a chunk at a time while it is replayed, in bounded memory"),
	JOB_BOOL("replay_no_stall", replay_no_stall, "0",
		 "replay as fast as the I/O goes, in the log's order, without its timing"),
	JOB_STR("replay_redirect", replay_redirect, NULL,
		"replay every I/O of the log onto this file or device, whatever it names"),
	JOB_UINT("replay_align", replay_align, "0", 0, 1u << 31,
		 "align replayed offsets down to this power of 2 (a blktrace's lengths up)"),
	JOB_UINT("replay_scale", replay_scale, "1", 0, UINT32_MAX,
		 "divide replayed offsets by this"),
	JOB_UINT("replay_time_scale", replay_time_scale, "100", 1, UINT32_MAX,
		 "replay at this percentage of the log's rate (200: twice as fast)"),
	JOB_CUSTOM("replay_skip", replay_skip, NULL, opt_replay_skip_parse,
		   "kinds of the log's entries to leave out of the replay",
		   .syntax = "read,write,trim,sync (any of them)", .empty_ok = true),
	JOB_STR("merge_blktrace_file", merge_blktrace_file, NULL,
		"merge the blktraces of read_iolog into this file by time, then replay it"),
	JOB_CUSTOM("merge_blktrace_scalars", merge_scalars, NULL, opt_merge_scalars_parse,
		   "percent of each merged trace's time (50: twice as fast)",
		   .syntax = "N:N:..., one per trace of read_iolog"),
	JOB_CUSTOM("merge_blktrace_iters", merge_iters, NULL, opt_merge_iters_parse,
		   "passes over each merged trace", .syntax = "N:N:..., one per trace of read_iolog"),
	JOB_REFUSED("profile", NULL,
		    "fio's built-in profiles (act, tiobench) are not in iojob; examples/seeds/ has the tiobench jobs",
		    "run one of fio's built-in profiles"),

	/*
	 * fio HEAD's data placement (NVMe FDP and streams) and multi-range trims: only its
	 * io_uring_cmd and xnvme engines act on them, on NVMe devices this project has none
	 * of; the defaults pass, as any engine's job files carry them.
	 */
#define NVME_ONLY "fio HEAD acts on it only with io_uring_cmd or xnvme, NVMe passthrough " \
		  "on hardware this project has none of"
	JOB_REFUSED("fdp", "0", NVME_ONLY, "flexible data placement for writes"),
	JOB_REFUSED("dataplacement", "none", NVME_ONLY, "data placement directive (fdp, streams)",
		    .alias = "data_placement"),
	JOB_REFUSED("plid_select", "roundrobin", NVME_ONLY, "how placement ids are picked",
		    .alias = "fdp_pli_select"),
	JOB_REFUSED("plids", NULL, NVME_ONLY, "placement ids a job's writes may use",
		    .alias = "fdp_pli"),
	JOB_REFUSED("dp_scheme", NULL, NVME_ONLY, "file mapping offsets to placement ids"),
	JOB_REFUSED("num_range", "1", NVME_ONLY, "ranges per trim command"),
#undef NVME_ONLY
	/* fio HEAD's, for zoned devices' write errors and zone finish operations */
	JOB_REFUSED("write_zone_remainder", "0", "it replaces zone finish operations on a zoned "
		    "device, and iojob drives none (zonemode=zbd emulates zones on other targets)",
		    "fill a zone's remainder by writes (fio HEAD)"),
	JOB_REFUSED("recover_zbd_write_error", "0", "it reads a zoned device's write pointers "
		    "after failed writes, and iojob drives none (zonemode=zbd emulates zones)",
		    "move write pointers after failed zone writes (fio HEAD)"),
	{ NULL },
};
