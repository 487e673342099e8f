/* The job option table: one line per option. */
#include "jobs/options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobs/opt_custom.h"
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

/* fio's zonemode values, all listed (blktests greps --cmdhelp for zbd); only none runs. */
static const struct opt_enum zonemode_vals[] = {
	{ "none", ZONE_NONE, "no zones: the region is one range" },
	{ "strided", ZONE_STRIDED, "fio's zonesize/zonerange/zoneskip zones (not in iojob)" },
	{ "zbd", ZONE_ZBD, "zoned block device mode (not in iojob: no zoned device support)" },
	{ NULL },
};

static const struct opt_enum clock_vals[] = {
	{ "cpu", CLOCKSRC_CPU, "the CPU's time-stamp counter (iojob's default when usable)" },
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

/* issue 15, group A: CPU, NUMA, priority and identity: value tables */

/* issue 15, group B: buffers and data content: value tables */

/* issue 15, group C: files: value tables */

/* issue 15, group D: offsets and sizes: value tables */

/* issue 15, group E: rates, flow and timing: value tables */

/* issue 15, group F: verification and trim: value tables */

/* issue 15, group G: logs and job-file syntax: value tables */

/* issue 15, group H: job control and reporting: value tables */

/* Option names are the table; keep it sorted by topic, as the help prints it. */
const struct opt_def job_options[] = {
	/* identity */
	JOB_STR("name", name, NULL, "job name (the section name by default)"),
	JOB_STR("description", description, NULL, "free text printed with the job"),

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
	JOB_LIST("directory", directories, "directory for the job's files, ':'-separated"),
	JOB_STR("filename_format", filename_format, "$jobname.$jobnum.$filenum",
		"name of generated files ($jobname, $jobnum, $filenum)"),
	JOB_UINT("nrfiles", nrfiles, "1", 1, 1 << 20, "files per job", .alias = "nr_files"),
	JOB_RANGE("filesize", filesize, NULL, "size of each file (a range picks at random)"),
	JOB_SIZE_PCT("size", size, NULL, "bytes of region per job, or N% of the file or device"),
	JOB_SIZE("io_size", io_size, NULL, 0, 0, "bytes of I/O to do (default: size)",
		 .alias = "io_limit"),
	JOB_SIZE_PCT("offset", offset, "0", "start of the I/O region", .alias = "fileoffset"),
	JOB_SIZE_PCT("offset_increment", offset_increment, "0",
		     "added to offset for each clone (numjobs)"),
	JOB_ENUM("zonemode", zonemode, "none", zonemode_vals, "how the region is cut into zones"),
	JOB_U64("number_ios", number_ios, "0", "stop after this many I/Os (0: no limit)"),
	JOB_UINT("passes", passes, "1", 1, 10000,
		 "run the job this many times, each pass a stonewalled phase reported alone"),
	JOB_BOOL("unlink", unlink, "0", "delete the job's files when it ends"),
	JOB_BOOL("create_on_open", create_on_open, "0", "create files when the job opens them"),
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
		   .syntax = "MODE or MODE:N (N: I/Os per random offset, or bytes to skip)"),
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
		   .syntax = "size/percent:size/percent...[,...] per direction"),
	JOB_CUSTOM("blockalign", blockalign, NULL, opt_blockalign_parse,
		   "alignment of random offsets per direction (default: block size)",
		   .alias = "ba", .syntax = "size[,size[,size]]"),
	JOB_CUSTOM("random_distribution", random_distribution, "random", opt_distribution_parse,
		   "offsets of random jobs: uniform or skewed",
		   .syntax = "random, zipf:THETA, pareto:H or normal:DEV"),
	JOB_CUSTOM("file_service_type", file_service, "roundrobin", opt_file_service_parse,
		   "which file the next I/O goes to, switching every N I/Os",
		   .syntax = "roundrobin|sequential|random[:N]"),
	/*
	 * allrandrepeat is fio's name for making every generator repeatable; iojob's other
	 * generators (sizes, mixes, file choice, buffers) always derive from randseed, so
	 * the offsets' randrepeat is all it sets, as newer fio makes it an alias.
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
	JOB_BOOL("fsync_on_close", fsync_on_close, "0", "fsync each file when closing it"),

	/* time */
	JOB_TIME("runtime", runtime_ns, "0", NS_PER_SEC, "stop after this long (seconds)",
		 .alias = "timeout"),
	JOB_FLAG("time_based", time_based, "0", "repeat the workload until runtime ends"),
	JOB_TIME("ramp_time", ramp_time_ns, "0", NS_PER_SEC,
		 "run this long before measuring (seconds)"),
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
		   "fill write buffers with this pattern",
		   .syntax = "0xHEX, \"text\" or a byte 0-255"),

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
		 "which errors to count and go on after"),
	JOB_ENUM("clocksource", clocksource, NULL, clock_vals, "clock the job's latencies use"),
	JOB_BOOL("gtod_reduce", gtod_reduce, "0",
		 "accepted for fio job files: iojob times every I/O at little cost anyway"),
	/* data verification */
	JOB_ENUM("verify", verify, "0", verify_vals,
		 "write blocks with fio's verify header and checksum, read them back and check "
		 "them"),
	JOB_CUSTOM("verify_pattern", verify_pattern, NULL, opt_verify_pattern_parse,
		   "the data of verified blocks (0x hex, \"text\" or a byte)",
		   .syntax = "0xHEX, \"text\" or a byte 0-255"),
	JOB_SIZE("verify_interval", verify_interval, "0", 0, 0,
		 "bytes covered by each header and checksum (0: the block size)"),
	JOB_BOOL("do_verify", do_verify, "1", "read back and check after the writes"),
	JOB_BOOL("verify_fatal", verify_fatal, "0", "stop the job at the first bad block"),
	JOB_SIZE("verify_backlog", verify_backlog, "0", 0, 0,
		 "check written blocks after every N writes (0: after the write phase); a "
		 "count that takes 1k as fio does"),
	JOB_FLAG("verify_only", verify_only, "0",
		 "do not write: only read back and check what an earlier run wrote"),
	JOB_BOOL("verify_dump", verify_dump, "0",
		 "save a bad block as FILE.OFFSET.received (and .expected for patterns)"),
	JOB_BOOL("verify_state_save", verify_state_save, "1", "a writing verify job leaves "
		 "local-NAME-N-verify.state in the cwd, in fio's format: the writes issued and "
		 "the last iodepth completed"),
	JOB_BOOL("verify_state_load", verify_state_load, "0",
		 "verify_only replays the job's writes as reads, in their order, as far as "
		 "local-NAME-N-verify.state (iojob's or fio's) says they surely reached"),

	/* log files; alone, as in fio, the prefix is the job's name */
	JOB_STR("write_lat_log", lat_log, NULL,
		"log clat, slat and lat of every I/O to PREFIX_{clat,slat,lat}.N.log",
		.bare_ok = true),
	JOB_STR("write_bw_log", bw_log, NULL, "log bandwidth to PREFIX_bw.N.log", .bare_ok = true),
	JOB_STR("write_iops_log", iops_log, NULL, "log IOPS to PREFIX_iops.N.log",
		.bare_ok = true),
	JOB_STR("write_hist_log", hist_log, NULL,
		"log clat histograms to PREFIX_clat_hist.N.log every log_hist_msec",
		.bare_ok = true),
	JOB_TIME("log_avg_msec", log_avg_ns, "0", NS_PER_MSEC,
		 "average log entries over this window (0: one entry per I/O)"),
	JOB_TIME("log_hist_msec", log_hist_ns, "0", NS_PER_MSEC, "histogram log interval"),
	JOB_UINT("log_hist_coarseness", log_hist_coarseness, "0", 0, 6,
		 "merge 2^N histogram buckets per column"),
	JOB_BOOL("log_offset", log_offset, "0", "add each I/O's offset to the logs"),
	JOB_BOOL("per_job_logs", per_job_logs, "1",
		 "one log file per job (0: one per log type for all jobs)"),
	JOB_BOOL("log_unix_epoch", log_unix_epoch, "0",
		 "log times in ms since the Unix epoch, not since the job's start"),
	JOB_TIME("bwavgtime", bw_avg_ns, "500", NS_PER_MSEC, "bandwidth sample window (ms)"),
	JOB_TIME("iopsavgtime", iops_avg_ns, "500", NS_PER_MSEC, "IOPS sample window (ms)"),

	/* issue 15, group A: CPU, NUMA, priority and identity (placeholders until built) */
	JOB_REFUSED("cpus_allowed", NULL, "not built yet", "CPUs the job's threads may run on (0-3,8)"),
	JOB_REFUSED("cpumask", NULL, "not built yet", "CPUs the job's threads may run on, as a bit mask"),
	JOB_REFUSED("cpus_allowed_policy", "shared", "not built yet", "how the job's clones share cpus_allowed"),
	JOB_REFUSED("numa_cpu_nodes", NULL, "not built yet", "NUMA nodes whose CPUs the job runs on"),
	JOB_REFUSED("numa_mem_policy", "default", "not built yet", "NUMA policy for the job's memory"),
	JOB_REFUSED("nice", "0", "not built yet", "nice value of the job's threads"),
	JOB_REFUSED("uid", NULL, "not built yet", "user id the job runs as"),
	JOB_REFUSED("gid", NULL, "not built yet", "group id the job runs as"),
	JOB_REFUSED("cgroup", NULL, "not built yet", "cgroup (v2) the job's threads join"),
	JOB_REFUSED("cgroup_weight", "0", "not built yet", "io weight of the job's cgroup"),
	JOB_REFUSED("cgroup_nodelete", "0", "not built yet", "keep the job's cgroup when it ends"),
	JOB_REFUSED("gtod_cpu", NULL, "not built yet", "CPU that keeps the time of day for the others"),
	JOB_REFUSED("ioscheduler", NULL, "not built yet", "I/O scheduler to switch the job's devices to"),
	JOB_REFUSED("exec_prerun", NULL, "not built yet", "command to run before the job starts"),
	JOB_REFUSED("exec_postrun", NULL, "not built yet", "command to run after the job ends"),

	/* issue 15, group B: buffers and data content (placeholders until built) */
	JOB_REFUSED("mem", "malloc", "not built yet", "what the I/O buffers are allocated from", .alias = "iomem"),
	JOB_REFUSED("iomem_align", "0", "not built yet", "alignment of the I/O buffers' start", .alias = "mem_align"),
	JOB_REFUSED("hugepage-size", NULL, "not built yet", "huge page size for mem=shmhuge and mmaphuge"),
	JOB_REFUSED("lockmem", "0", "not built yet", "lock this much memory for the run (mlock)"),
	JOB_REFUSED("buffer_compress_percentage", "0", "not built yet", "how compressible written data is, in percent"),
	JOB_REFUSED("buffer_compress_chunk", "512", "not built yet", "granularity of buffer_compress_percentage"),
	JOB_REFUSED("dedupe_percentage", "0", "not built yet", "percent of written blocks that repeat earlier ones"),
	JOB_REFUSED("dedupe_mode", "repeat", "not built yet", "how dedupable blocks are made"),
	JOB_REFUSED("dedupe_working_set_percentage", "5", "not built yet", "working set that dedupe_mode=working_set repeats from"),
	JOB_REFUSED("dedupe_global", "0", "not built yet", "dedupable blocks shared between jobs"),
	JOB_REFUSED("bs_unaligned", "0", "not built yet", "block sizes of a range need not be sector multiples", .alias = "blocksize_unaligned"),

	/* issue 15, group C: files (placeholders until built) */
	JOB_REFUSED("openfiles", NULL, "not built yet", "most files a job keeps open at once"),
	JOB_REFUSED("create_serialize", "1", "not built yet", "lay out the job's files one after another"),
	JOB_REFUSED("create_fsync", "1", "not built yet", "fsync files after laying them out"),
	JOB_REFUSED("allow_file_create", "1", "not built yet", "create files that do not exist"),
	JOB_REFUSED("file_append", "0", "not built yet", "do the I/O after the file's current end"),
	JOB_REFUSED("fill_device", "0", "not built yet", "write until the device or file system is full", .alias = "fill_fs"),
	JOB_REFUSED("unlink_each_loop", "0", "not built yet", "delete the job's files after each loop"),
	JOB_REFUSED("opendir", NULL, "not built yet", "use every file under this directory"),
	JOB_REFUSED("lockfile", "none", "not built yet", "lock the files during I/O"),
	JOB_REFUSED("pre_read", "0", "not built yet", "read the files into the page cache before the job"),
	JOB_REFUSED("sync_file_range", NULL, "not built yet", "sync_file_range(2) after every N writes"),
	JOB_REFUSED("write_barrier", "0", "not built yet", "make every Nth write a barrier"),
	JOB_REFUSED("write_hint", NULL, "not built yet", "lifetime hint given for the files' writes"),
	JOB_REFUSED("unique_filename", "1", "not built yet", "prefix files with the client's address (client/server only)"),

	/* issue 15, group D: offsets and sizes (placeholders until built) */
	JOB_REFUSED("random_generator", "tausworthe", "not built yet", "generator of random offsets"),
	JOB_REFUSED("percentage_random", NULL, "not built yet", "percent of I/Os at random offsets in a sequential job"),
	JOB_REFUSED("rw_sequencer", "sequential", "not built yet", "what rw's :N modifier does"),
	JOB_REFUSED("zonesize", NULL, "not built yet", "size of each strided zone"),
	JOB_REFUSED("zonerange", NULL, "not built yet", "span of each strided zone"),
	JOB_REFUSED("zoneskip", "0", "not built yet", "bytes skipped after each strided zone"),
	JOB_REFUSED("offset_align", "0", "not built yet", "alignment of offset= given as a percentage"),
	JOB_REFUSED("serialize_overlap", "0", "not built yet", "hold an I/O until overlapping ones in flight complete"),
	JOB_REFUSED("softrandommap", "0", "not built yet", "fall back to norandommap when the map cannot be allocated"),

	/* issue 15, group E: rates, flow and timing (placeholders until built) */
	JOB_REFUSED("rate_process", "linear", "not built yet", "how rate-limited I/Os are spaced in time"),
	JOB_REFUSED("rate_min", NULL, "not built yet", "lowest bandwidth the job may fall to", .alias = "ratemin"),
	JOB_REFUSED("rate_iops_min", NULL, "not built yet", "lowest IOPS the job may fall to"),
	JOB_REFUSED("rate_cycle", "1000", "not built yet", "window over which rate_min and rate_iops_min are checked (ms)", .alias = "ratecycle"),
	JOB_REFUSED("rate_ignore_thinktime", "0", "not built yet", "rate limits ignore thinktime"),
	JOB_REFUSED("flow", "0", "not built yet", "weight in a token flow shared between jobs"),
	JOB_REFUSED("flow_id", "0", "not built yet", "the flow this job's weight belongs to"),
	JOB_REFUSED("flow_sleep", "0", "not built yet", "pause when a flow is ahead of its weight (microseconds)"),
	JOB_REFUSED("thinktime_spin", "0", "not built yet", "part of thinktime spent spinning (microseconds)"),
	JOB_REFUSED("thinktime_blocks_type", "complete", "not built yet", "whether thinktime_blocks counts completions or issues"),
	JOB_REFUSED("thinktime_iotime", "0", "not built yet", "run I/O this long between thinktime pauses"),
	JOB_REFUSED("io_submit_mode", "inline", "not built yet", "how I/Os are submitted and completed"),

	/* issue 15, group F: verification and trim (placeholders until built) */
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

	/* issue 15, group H: job control and reporting (placeholders until built) */
	JOB_REFUSED("wait_for", NULL, "not built yet", "job this one waits for before starting"),
	JOB_REFUSED("exitall", "0", "not built yet", "end every job when this one ends"),
	JOB_REFUSED("exitall_on_error", "0", "not built yet", "end every job when this one fails"),
	JOB_REFUSED("exit_what", "group", "not built yet", "which jobs exitall ends"),
	JOB_REFUSED("stats", "1", "not built yet", "gather statistics for this job"),
	JOB_REFUSED("disable_lat", "0", "not built yet", "do not measure total latency"),
	JOB_REFUSED("disable_clat", "0", "not built yet", "do not measure completion latency"),
	JOB_REFUSED("disable_slat", "0", "not built yet", "do not measure submission latency"),
	JOB_REFUSED("disable_bw_measurement", "0", "not built yet", "do not measure bandwidth", .alias = "disable_bw"),
	JOB_REFUSED("disk_util", "1", "not built yet", "report the disks' utilization"),
	JOB_REFUSED("ignore_error", NULL, "not built yet", "errors (per direction) to count and go on after"),
	JOB_REFUSED("error_dump", "0", "not built yet", "print each error as it happens"),
	JOB_REFUSED("max_latency", NULL, "not built yet", "end the job when a latency reaches this"),
	JOB_REFUSED("significant_figures", "4", "not built yet", "significant figures in the normal report"),
	JOB_REFUSED("unit_base", "0", "not built yet", "bits or bytes in bandwidth (8 or 1; 0: bytes)"),

	/* issue 15, group G: logs and job-file syntax (placeholders until built) */
	JOB_REFUSED("log_max_value", "0", "not built yet", "log the largest value of each window, not the average"),
	JOB_REFUSED("log_prio", "0", "not built yet", "log each I/O's priority"),
	JOB_REFUSED("log_entries", "1024", "not built yet", "initial entries of each log"),
	JOB_REFUSED("log_compression", "0", "not built yet", "compress logs in chunks of this size"),
	JOB_REFUSED("log_compression_cpus", NULL, "not built yet", "CPUs that compress logs"),
	JOB_REFUSED("log_store_compressed", "0", "not built yet", "keep logs compressed on disk"),
	JOB_REFUSED("log_alternate_epoch", "0", "not built yet", "log times from log_alternate_epoch_clock_id's epoch"),
	JOB_REFUSED("log_alternate_epoch_clock_id", "0", "not built yet", "clock whose epoch log times count from"),
	JOB_REFUSED("block_error_percentiles", "0", "not built yet", "report trim error percentiles by block"),

	/* the next issues' options, refused until they are built */
	JOB_REFUSED("steadystate", NULL,
		    "steady state detection is issue 17, not built yet",
		    "end the job when it reaches steady state", .alias = "ss"),
	JOB_REFUSED("steadystate_duration", "0",
		    "steady state detection is issue 17, not built yet",
		    "window of steady state detection", .alias = "ss_dur"),
	JOB_REFUSED("steadystate_ramp_time", "0",
		    "steady state detection is issue 17, not built yet",
		    "time before steady state detection starts", .alias = "ss_ramp"),
	JOB_REFUSED("latency_target", NULL,
		    "the latency-target depth search is issue 17, not built yet",
		    "latency the depth search aims for"),
	JOB_REFUSED("latency_window", NULL,
		    "the latency-target depth search is issue 17, not built yet",
		    "window of the latency-target search"),
	JOB_REFUSED("latency_percentile", "100",
		    "the latency-target depth search is issue 17, not built yet",
		    "percentile the latency target applies to"),
	JOB_REFUSED("latency_run", "0",
		    "the latency-target depth search is issue 17, not built yet",
		    "keep searching for the latency target"),
	JOB_REFUSED("write_iolog", NULL,
		    "iolog record and replay is issue 17, not built yet",
		    "record the job's I/Os to this file"),
	JOB_REFUSED("read_iolog", NULL,
		    "iolog record and replay is issue 17, not built yet",
		    "replay the I/Os of this iolog or blktrace"),
	JOB_REFUSED("read_iolog_chunked", "0",
		    "iolog record and replay is issue 17, not built yet",
		    "read the iolog in chunks"),
	JOB_REFUSED("replay_no_stall", "0",
		    "iolog record and replay is issue 17, not built yet",
		    "replay without the log's timing"),
	JOB_REFUSED("replay_redirect", NULL,
		    "iolog record and replay is issue 17, not built yet",
		    "replay onto this device"),
	JOB_REFUSED("replay_align", "0",
		    "iolog record and replay is issue 17, not built yet",
		    "align replayed offsets"),
	JOB_REFUSED("replay_scale", "1",
		    "iolog record and replay is issue 17, not built yet",
		    "divide replayed offsets by this"),
	JOB_REFUSED("replay_time_scale", "100",
		    "iolog record and replay is issue 17, not built yet",
		    "replay at this percentage of the log's speed"),
	JOB_REFUSED("replay_skip", NULL,
		    "iolog record and replay is issue 17, not built yet",
		    "directions to leave out of a replay"),
	JOB_REFUSED("merge_blktrace_file", NULL,
		    "iolog record and replay is issue 17, not built yet",
		    "merge the blktraces into this file"),
	JOB_REFUSED("merge_blktrace_scalars", NULL,
		    "iolog record and replay is issue 17, not built yet",
		    "scale each merged blktrace's time"),
	JOB_REFUSED("merge_blktrace_iters", NULL,
		    "iolog record and replay is issue 17, not built yet",
		    "iterations of each merged blktrace"),
	JOB_REFUSED("profile", NULL,
		    "fio's built-in profiles (act, tiobench) are not in iojob; examples/seeds/ has the tiobench jobs",
		    "run one of fio's built-in profiles"),
	JOB_REFUSED("atomic", "0",
		    "Linux has no O_ATOMIC; fio 3.33 fails such jobs the same way",
		    "atomic writes with O_DIRECT"),

	/* zoned block devices: zonemode=zbd is refused, and so are its options */
	JOB_REFUSED("max_open_zones", "0", "zoned block devices (zonemode=zbd) are not "
		    "supported: this machine has none to test on", "most zones open at once"),
	JOB_REFUSED("job_max_open_zones", "0", "zoned block devices (zonemode=zbd) are not "
		    "supported: this machine has none to test on", "most zones one job keeps open"),
	JOB_REFUSED("ignore_zone_limits", "0", "zoned block devices (zonemode=zbd) are not "
		    "supported: this machine has none to test on", "ignore the device's open zone limit"),
	JOB_REFUSED("zonecapacity", "0", "zoned block devices (zonemode=zbd) are not "
		    "supported: this machine has none to test on", "usable bytes of each zone"),
	JOB_REFUSED("zone_reset_threshold", "0", "zoned block devices (zonemode=zbd) are not "
		    "supported: this machine has none to test on", "zone reset threshold"),
	JOB_REFUSED("zone_reset_frequency", "0", "zoned block devices (zonemode=zbd) are not "
		    "supported: this machine has none to test on", "zone reset frequency"),
	JOB_REFUSED("read_beyond_wp", "0", "zoned block devices (zonemode=zbd) are not "
		    "supported: this machine has none to test on", "read past the zones' write pointers"),
	{ NULL },
};
