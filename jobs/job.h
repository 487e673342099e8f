/*
 * Workload descriptors: one struct job_desc per job instance (a section times numjobs),
 * filled from the option table and checked by validate.c. The engine only reads it.
 */
#ifndef JOBS_JOB_H
#define JOBS_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum io_dir { IO_READ, IO_WRITE, IO_TRIM, IO_NDIR };

enum rw_mode {
	RW_READ, RW_WRITE, RW_RANDREAD, RW_RANDWRITE, RW_RW, RW_RANDRW,
	RW_TRIM, RW_RANDTRIM, RW_TRIMWRITE, RW_RANDTRIMWRITE,
};

enum sync_mode { SYNC_NONE, SYNC_SYNC, SYNC_DSYNC };
enum fallocate_mode { FALLOC_NONE, FALLOC_NATIVE, FALLOC_POSIX, FALLOC_KEEP, FALLOC_TRUNCATE };
/* fadvise_hint: none, by the job's pattern (fio's 1), or one advice for every job */
enum fadvise_mode { FADV_HINT_NONE, FADV_HINT_PATTERN, FADV_HINT_SEQUENTIAL, FADV_HINT_RANDOM,
		   FADV_HINT_NOREUSE };
enum rand_dist { DIST_RANDOM, DIST_ZIPF, DIST_PARETO, DIST_NORMAL, DIST_ZONED, DIST_ZONED_ABS,
		 DIST_SEQUENCE };
#define DIST_SEQUENCE_MAX	64	/* random_distribution=sequence's indices, as fio HEAD */

/*
 * random_distribution=zipf, pareto or normal without a parameter, as fio 3.33 takes them:
 * zipf:1.1 and pareto:0.2 are fio's defaults; fio's bare normal is its bell alone (the mean
 * of 12 uniform draws, a standard deviation of 1/12 of the region), which iojob's normal
 * draws as normal:8.33 (DEV is that deviation in percent).
 */
#define DIST_ZIPF_DEFAULT	1.1
#define DIST_PARETO_DEFAULT	0.2
#define DIST_NORMAL_DEFAULT	(100.0 / 12)
/* FSRV_ZIPF and after pick each file by a skewed draw: file_service_skewed() */
enum file_service { FSRV_ROUNDROBIN, FSRV_SEQUENTIAL, FSRV_RANDOM, FSRV_ZIPF, FSRV_PARETO,
		    FSRV_NORMAL };
enum unified_rw { UNIFIED_NONE, UNIFIED_MIXED, UNIFIED_BOTH };
enum verify_type { VERIFY_NONE, VERIFY_CRC32C, VERIFY_MD5, VERIFY_SHA256, VERIFY_XXHASH,
		   VERIFY_PATTERN, VERIFY_CRC32, VERIFY_CRC64, VERIFY_CRC16, VERIFY_CRC7,
		   VERIFY_SHA1, VERIFY_SHA512, VERIFY_SHA3_224, VERIFY_SHA3_256, VERIFY_SHA3_384,
		   VERIFY_SHA3_512, VERIFY_META, VERIFY_NULL, VERIFY_NTYPES };
enum fsync_scope { FSYNC_SCOPE_FILE, FSYNC_SCOPE_ALL };
enum create_mode { CREATE_REUSE, CREATE_RECREATE };
enum clock_choice { CLOCKSRC_DEFAULT, CLOCKSRC_CPU, CLOCKSRC_GETTIME };
enum zone_mode { ZONE_NONE, ZONE_STRIDED, ZONE_ZBD };
/* filetype= (fio HEAD): what the job's files are said to be */
enum file_type { FILETYPE_NONE, FILETYPE_FILE, FILETYPE_BLOCK, FILETYPE_CHAR };
/* where I/O buffers come from (mem=), how dedupable blocks are made */
enum mem_type { MEM_MALLOC, MEM_SHM, MEM_SHMHUGE, MEM_MMAP, MEM_MMAPHUGE, MEM_MMAPSHARED,
		MEM_CUDAMALLOC };
enum dedupe_mode { DEDUPE_REPEAT, DEDUPE_WORKING_SET };
enum rand_gen { RANDGEN_TAUSWORTHE, RANDGEN_LFSR, RANDGEN_TAUSWORTHE64 };
enum rw_seq { RWSEQ_SEQUENTIAL, RWSEQ_IDENTICAL };
enum error_class { ERRC_NONE = 0, ERRC_READ = 1, ERRC_WRITE = 2, ERRC_IO = 3,
		   ERRC_VERIFY = 4, ERRC_ALL = 7 };
/* lockfile: I/O to a file shared by jobs, one at a time or readers together (fio's) */
enum file_lock { FILE_LOCK_NONE, FILE_LOCK_EXCLUSIVE, FILE_LOCK_READWRITE };
/* how rated I/O is spaced, what thinktime_blocks counts, who submits */
enum rate_process { RATE_LINEAR, RATE_POISSON };
enum think_count { THINK_COMPLETE, THINK_ISSUE };
enum submit_mode { SUBMIT_INLINE, SUBMIT_OFFLOAD };
/* steadystate's criterion, as fio's flags: what is measured, how it is judged, the limit */
enum ss_flag { SS_IOPS = 1, SS_BW = 2, SS_SLOPE = 4, SS_PCT = 8, SS_LAT = 16 };

/* fio's error types, for ignore_error: a read's, a write's (or trim's, sync's), EILSEQ's */
enum err_type { ERR_TYPE_READ, ERR_TYPE_WRITE, ERR_TYPE_VERIFY, ERR_TYPE_NR };
/* exit_what: the jobs a job that ends takes with it (exitall, exitall_on_error) */
enum exit_scope { EXIT_GROUP, EXIT_STONEWALL, EXIT_ALL };
/* unit_base: bandwidth in bytes (0 picks them, as fio for every engine here) or bits */
enum unit_base { UNIT_BASE_AUTO, UNIT_BASE_BYTES, UNIT_BASE_BITS };
/* The most %o a verify_pattern holds, each 8 bytes of the I/O's offset. */
#define PATTERN_FMT_MAX	8

/* Where a verify_pattern's %o are: each the start of 8 bytes, in order. */
struct pattern_fmt {
	unsigned pos[PATTERN_FMT_MAX];
	unsigned n;
};

/* verify_policy (fio HEAD's): every completed write, or those an fsync made durable */
enum verify_policy { VERIFY_POLICY_COMPLETED, VERIFY_POLICY_FSYNCED };

/* log_window_value: what a log_avg_msec window's latency entry holds (fio HEAD's names) */
enum log_window { LOG_WINDOW_AVG, LOG_WINDOW_MAX, LOG_WINDOW_BOTH };

#define JOB_MAX_BSSPLIT	64
#define JOB_MAX_IGNORE	16	/* errnos per type in ignore_error= */
#define JOB_MAX_PCT	20
#define JOB_MAX_LAT_OVER 4	/* limits of lat_over= */
#define JOB_ENGINE_OPTS	128	/* bytes for the selected engine's options */
#define JOB_CPU_WORDS	16	/* cpus_allowed= covers CPUs 0 to 1023 (CPU_SETSIZE) */
#define JOB_MAX_MERGE	20	/* merge_blktrace_scalars and _iters, fio's list length */

struct bs_split {
	uint32_t bs;
	uint32_t pct;
};

/* Block sizes of one direction: a fixed size, a range, or a weighted split. */
struct dir_bs {
	uint64_t min, max;
	struct bs_split split[JOB_MAX_BSSPLIT];
	unsigned nsplit;	/* 0: use min..max */
};

/* A size given in bytes or as a percentage of the file or device. */
struct size_pct {
	uint64_t bytes;
	double pct;		/* 0 when given in bytes */
	unsigned zones;		/* "Nz": N zones of zonesize (zonemode=strided); bytes then */
};

struct size_range {
	uint64_t lo, hi;
};

/* One zone of random_distribution=zoned or zoned_abs: percent of the I/Os, and its size. */
struct dist_zone {
	unsigned access_pct;
	unsigned size_pct;	/* zoned: percent of the region */
	uint64_t size_bytes;	/* zoned_abs */
};

/* A set of CPUs as a cpus_allowed-style list ("0-3,8") gives it; none set: any CPU. */
#define JOB_CPUS_MAX	(JOB_CPU_WORDS * 64)
struct job_cpus {
	uint64_t mask[JOB_CPU_WORDS];
	bool set;
};

/* A ':'-separated list option; a repeated key appends (filename=, directory=). */
struct str_list {
	char **v;
	unsigned n;
};

/* The errnos ignore_error= lists for one error type; n 0: continue_on_error's EIO, EILSEQ. */
struct ignore_list {
	int err[JOB_MAX_IGNORE];
	unsigned n;
};

struct replay_log;

/* One option as the job file set it: for "job options" in JSON and for messages. */
struct job_setting {
	const char *name;	/* the option's canonical name */
	const char *value;	/* as written */
	const char *file;
	int line;
	bool global;		/* from [global], command-line defaults or --set */
	bool bare;		/* written without '=' (time_based): fio's JSON leaves it out */
};

/*
 * One job, as the option table (jobs/options.c, the one place an option is defined)
 * fills it: its fields grouped by concern, each section naming the part of the run that
 * reads it, so that an option's field sits next to its siblings'.
 */
struct job_desc {
	/* identity: the section a job came from and its place among the run's jobs and phases */
	const char *name;
	const char *comm;		/* the job thread's name (prctl PR_SET_NAME) */
	const char *description;
	unsigned jobnum;	/* clone index within its section, 0..numjobs-1 */
	unsigned index;		/* position among all jobs of the run */
	unsigned section;	/* index of the section it came from */
	int groupid;		/* reporting group */
	unsigned phase;		/* jobs of one phase start together; stonewall starts a new one */
	const char *file;	/* where the section is, for messages */
	int line;
	bool name_is_path;	/* a command-line --name: its '/' names directories, as fio's */
	unsigned numjobs;
	bool thread;
	bool group_reporting;
	bool stonewall;
	bool new_group;
	unsigned passes;		/* passes=N: the job runs N times, one phase each */
	unsigned pass;			/* which of them this is, from 1 */
	const char *profile_opt;	/* fio's tiobench threads= or dir=: a note, no effect */

	/* job control: when it starts and whom its end ends (engine/run/control.c) */
	const char *wait_for;		/* start only once every job of this name has ended */
	int wait_for_section;		/* its section's index; -1: none */
	bool exitall;			/* set at all (any value, as fio): ends end others */
	bool exitall_on_error;		/* this job failing ends others */
	int exit_what;			/* enum exit_scope: which others */

	/* files: which, how they are made, opened and closed (engine/plan/files.c, layout.c) */
	struct str_list filenames;	/* explicit filename= entries (a stripe's members) */
	uint64_t stripe_chunk;		/* md RAID0 over the files, chunk bytes; 0: no stripe */
	struct str_list directories;
	const char *filename_format;
	const char *opendir;		/* every regular file under this tree is one of the job's */
	unsigned nrfiles;
	struct size_range filesize;
	bool unique_filename;		/* fio's client/server only: no effect on a local run */
	bool unlink;
	bool unlink_each_loop;		/* delete the files after each loop, recreate for the next */
	bool create_on_open;
	int filetype;			/* enum file_type: files not of it are refused */
	bool create_only;		/* lay the files out, then end without I/O */
	int create;		/* enum create_mode: recreate empties the files first */
	bool create_serialize;		/* lay files out before the jobs start, one job at a time */
	bool create_fsync;		/* fsync a file once its layout is written */
	bool allow_file_create;		/* 0: a file that does not exist fails the job */
	bool file_append;		/* a regular file's region starts at its current end */
	bool fill_device;		/* write until ENOSPC or EDQUOT, which end the job cleanly */
	bool overwrite;
	int fallocate;		/* enum fallocate_mode */
	int fadvise_hint;	/* enum fadvise_mode */
	bool pre_read;			/* read the regions into the page cache before the I/O */
	int write_hint;			/* RWH_WRITE_LIFE_* given by fcntl(2); 0: none asked */
	int lockfile;			/* enum file_lock */
	unsigned openfiles;		/* most of the job's files open at once; 0: all */
	bool allow_mounted_write;
	bool allow_overwrite_signatures;
	bool readonly;		/* --readonly: nothing may be written, not even a layout */

	/* sizes and offsets: the region, block sizes, zones (engine/plan/region.c, io_plan.c) */
	struct size_pct size;
	uint64_t io_size;
	unsigned io_size_pct;		/* io_size=N%: of each file's region, 1 to 100 */
	unsigned io_size_zones;		/* io_size=Nz: N zones of zone_size */
	struct size_pct offset;
	struct size_pct offset_increment;
	uint64_t offset_align;		/* a percentage offset is aligned up to this (0: bs) */
	uint64_t number_ios;
	struct dir_bs bs[IO_NDIR];
	uint64_t blockalign[IO_NDIR];	/* 0: the direction's minimum block size */
	bool bs_unaligned;		/* bsrange lengths need not be multiples of the minimum */
	bool bs_is_seq_rand;		/* bs= gives sequential,random sizes, not read,write */
	int zonemode;			/* enum zone_mode */
	uint64_t zone_size;		/* strided: bytes done in a zone; zbd: a zone's span */
	uint64_t zone_range;		/* the zone's span (0: zone_size) */
	uint64_t zone_skip;		/* bytes skipped after a zone */
	unsigned zone_skip_zones;	/* zoneskip=Nz: N zones of zone_size */
	/* zonemode=zbd (engine/plan/zbd.c): zones written at their write pointers */
	uint64_t zone_capacity;		/* bytes of a zone that can be written (0: zone_size) */
	unsigned max_open_zones;	/* zones open for writes at once on a file (0: any) */
	unsigned job_max_open_zones;	/* of those, opened by this job (0: any) */
	bool ignore_zone_limits;	/* a zoned device's own limit is not read (none is) */
	bool read_beyond_wp;		/* reads go anywhere, not only below write pointers */
	double zone_reset_threshold;	/* with data in this fraction of the region ... */
	double zone_reset_frequency;	/* ... every 1/this-th write resets its zone */

	/* I/O pattern: directions, mixes, random offsets and their distributions (engine/plan/) */
	int rw;			/* enum rw_mode */
	int64_t rw_nr;		/* ":N": I/Os per random offset, or bytes skipped when sequential
				 * (negative: backwards, as fio's rw=read:-8k) */
	unsigned rwmixread;	/* percent of reads in mixed modes */
	int rwmix_ratio;		/* rwmix_mode=ratio: interleave to hold the ratio exactly */
	int seq_cursor_shared;	/* seq_cursor=shared: clones take blocks of one stream */
	int rw_sequencer;		/* enum rw_seq: what rw=randread:N does between draws */
	unsigned percentage_random[IO_NDIR];	/* percent of a random job's I/Os at random */
	int random_distribution;	/* enum rand_dist */
	double dist_param;
	double dist_center;		/* random_distribution's :CENTER, 0 to 1; -1 none */
	struct dist_zone *dist_zones[IO_NDIR];	/* zoned, zoned_abs: per direction, or NULL */
	unsigned ndist_zones[IO_NDIR];
	uint64_t *dist_seq;		/* sequence: the block indices, in order (fio HEAD) */
	unsigned ndist_seq;
	bool random_sequence_stride;	/* sequence: each round moves on by its length */
	int random_generator;		/* enum rand_gen: lfsr visits each block once, map or not */
	bool randrepeat;
	uint64_t randseed;
	bool norandommap;
	/* sprandom (fio HEAD, engine/plan/sprandom.c): SSD preconditioning to steady state */
	bool sprandom;
	unsigned spr_num_regions;	/* regions the physical capacity is cut into */
	double spr_op;			/* the device's over-provisioning, 0 to 1 */
	uint64_t spr_cs;		/* its cache: rewrites wait a region more (0: none) */
	bool softrandommap;		/* no memory for the random map: go on without it */
	int file_service;		/* enum file_service */
	unsigned file_service_nr;	/* I/Os before switching files */
	double file_service_param;	/* zipf theta, pareto h, normal deviation (percent) */
	double file_service_center;	/* their :CENTER, 0 to 1; -1 none */

	/* engine and queue: how the I/Os are issued, how many at once, and synced (engine/loop/) */
	const char *ioengine;
	unsigned iodepth;
	unsigned iodepth_batch_submit;
	unsigned iodepth_batch_complete_min;
	unsigned iodepth_batch_complete_max;
	unsigned iodepth_low;
	int io_submit_mode;		/* enum submit_mode */
	bool serialize_overlap;		/* hold an I/O while one it overlaps is in flight */
	bool direct;
	bool atomic;			/* writes with RWF_ATOMIC (fio HEAD) */
	bool invalidate;
	int sync;		/* enum sync_mode */
	unsigned fsync_every;
	unsigned fdatasync_every;
	uint64_t fsync_every_ios;	/* sync after every N I/Os of the job and its clones */
	int fsync_scope;		/* enum fsync_scope */
	bool end_fsync;
	bool end_syncfs;		/* one syncfs(2) per file system at the end (fio HEAD) */
	bool fsync_on_close;
	unsigned sfr_every;		/* sync_file_range after every N writes; 0: never */
	unsigned sfr_flags;		/* SYNC_FILE_RANGE_* for it */
	union {			/* the selected engine's own options, laid out by that engine */
		uint64_t align;
		unsigned char bytes[JOB_ENGINE_OPTS];
	} engine_opts;

	/* timing: how long, how fast, the pauses and the flow (engine/loop/pace.c) */
	uint64_t runtime_ns;	/* 0: until the I/O is done */
	bool time_based;
	uint64_t ramp_time_ns;
	uint64_t ramp_size;		/* measure once the job (or group) did this many bytes */
	struct size_range startdelay_ns;
	unsigned loops;
	uint64_t rate[IO_NDIR];		/* bytes per second, 0 = unlimited */
	uint64_t rate_iops[IO_NDIR];
	int rate_process;		/* enum rate_process */
	uint64_t rate_min[IO_NDIR];	/* bytes per second the job must keep up, 0: none */
	uint64_t rate_iops_min[IO_NDIR];
	unsigned rate_cycle_ms;		/* window of those checks */
	bool rate_ignore_thinktime;	/* a pause does not leave the rate behind to catch up */
	uint64_t thinktime_ns;
	unsigned thinktime_blocks;
	uint64_t thinktime_spin_ns;	/* the first part of each pause, spent spinning */
	int thinktime_blocks_type;	/* enum think_count */
	uint64_t thinktime_iotime_ns;	/* pause after this long of I/O, 0: by blocks */
	unsigned thinkcycles;		/* loop iterations spun after each read or write issued */
	unsigned flow;			/* weight among the jobs of its flow_id, 0: none */
	unsigned flow_id;
	unsigned flow_sleep_us;		/* pause when ahead of the flow; 0: yield and retry */

	/* latency: its limit and latency_target's depth search (engine/loop/lat_target.c) */
	uint64_t max_latency_ns[IO_NDIR];	/* 0: no limit */
	uint64_t lat_target_ns;		/* 0: no search, the job runs at iodepth */
	uint64_t lat_window_ns;		/* each depth is tried this long (0: each reap) */
	double lat_percentile;		/* share of I/Os at or under the target, in % */
	bool lat_run;			/* latency_run: go on adjusting, never settle */

	/* steadystate: end once the last ss_dur seconds hold still (engine/observe/steady.c) */
	unsigned ss_flags;		/* enum ss_flag: SS_IOPS, SS_BW or SS_LAT, SS_SLOPE, SS_PCT */
	double ss_limit;		/* IOPS, bytes/s, ns, or percent of the window's mean */
	uint64_t ss_dur_ns;		/* the window, whole seconds; 0: off */
	uint64_t ss_ramp_ns;		/* no sample is kept until an interval after this */
	uint64_t ss_interval_ns;	/* a sample every this long (whole ms; fio HEAD's) */

	/* buffers: their memory (engine/thread/iomem.c), what writes carry (plan/content.c) */
	int mem_type;			/* enum mem_type */
	const char *mem_path;		/* mem=mmap:PATH and the like: the file mapped, or NULL */
	uint64_t iomem_align;		/* the first buffer sits this far past a page boundary */
	uint64_t hugepage_size;		/* page size of mem=shmhuge and mmaphuge */
	uint64_t lockmem;		/* bytes mlock()ed while the job runs, 0: none */
	bool zero_buffers;
	bool refill_buffers;
	bool scramble_buffers;
	unsigned char *buffer_pattern;
	unsigned buffer_pattern_len;
	unsigned compress_pct;		/* buffer_compress_percentage */
	uint64_t compress_chunk;	/* bytes of each random-then-zero stretch */
	unsigned dedupe_pct;		/* percent of written blocks that repeat others */
	int dedupe_mode;		/* enum dedupe_mode */
	unsigned dedupe_ws_pct;		/* working set, percent of the job's bytes */
	bool dedupe_global;		/* the working set is shared by the run's jobs */

	/* data verification and trim (engine/verify/) */
	int verify;			/* enum verify_type */
	unsigned char *verify_pattern;
	unsigned verify_pattern_len;
	struct pattern_fmt verify_pattern_fmt;	/* its %o: the I/O's offset */
	unsigned verify_pattern_interval;	/* a fresh pattern every N bytes of an I/O */
	uint64_t verify_interval;	/* bytes per header and checksum; 0: the block size */
	uint64_t verify_offset;		/* the header goes this far into its chunk; 0: at 0 */
	bool do_verify;
	bool verify_fatal;
	bool verify_write_sequence;	/* check each header's write generation (fio HEAD) */
	uint64_t verify_backlog;	/* verify after this many writes; 0: after the writes */
	uint64_t verify_backlog_batch;	/* chunks read back each verify_backlog; 0: that */
	bool verify_only;
	bool verify_header_seed;	/* fio HEAD: check each header's seed (iojob's data has
					 * none: never checked, as with 0) */
	bool verify_dump;
	bool verify_state_save;		/* write local-NAME-N-verify.state at the end */
	int verify_policy;		/* enum verify_policy: the writes the state lists */
	bool verify_state_load;		/* verify_only checks only what that file says */
	unsigned verify_async;		/* threads that check the reads; 0: the job's own */
	uint64_t verify_async_cpus[JOB_CPU_WORDS];	/* CPUs they run on; none set: any */
	bool experimental_verify;
	unsigned trim_percentage;	/* of the written blocks, trimmed again */
	bool trim_verify_zero;		/* trimmed blocks must read back as zeros */
	uint64_t trim_backlog;		/* trim after every N writes; 0: when they end */
	uint64_t trim_backlog_batch;	/* blocks trimmed each trim_backlog; 0: that */

	/* errors: which end the job, how they are said */
	int continue_on_error;		/* enum error_class mask */
	struct ignore_list ignore_error[ERR_TYPE_NR];	/* per READ, WRITE, VERIFY */
	bool error_dump;		/* say each I/O error as it happens */

	/* reporting: what the report counts and how it writes it */
	bool stats;			/* 0: left out of every report */
	unsigned kb_base;
	int unit_base;			/* enum unit_base */
	unsigned sig_figs;		/* significant_figures */
	double percentile_list[JOB_MAX_PCT];
	unsigned npercentiles;
	bool clat_percentiles;
	bool lat_percentiles;
	bool slat_percentiles;
	uint64_t lat_over_ns[JOB_MAX_LAT_OVER];	/* lat_over=, ascending */
	unsigned nlat_over;
	int unified_rw_reporting;	/* enum unified_rw */
	int clocksource;		/* enum clock_choice */
	bool gtod_reduce;
	bool disable_lat, disable_clat, disable_slat, disable_bw;
	bool disk_util;			/* 0: its disks are not watched for the report */
	uint64_t bw_avg_ns;		/* bwavgtime */
	uint64_t iops_avg_ns;		/* iopsavgtime */
	bool block_error_pct;		/* block_error_percentiles: trims per block */

	/* log files (engine/observe/logs.c) */
	const char *lat_log;		/* write_lat_log= prefix, NULL when off */
	const char *bw_log;
	const char *iops_log;
	const char *hist_log;
	uint64_t log_avg_ns;		/* 0: one entry per I/O */
	uint64_t log_hist_ns;
	unsigned log_hist_coarseness;
	int log_window;			/* enum log_window: log_avg_msec windows' mean, max or both */
	bool log_offset;
	bool log_issue_time;		/* the issue time column (fio HEAD) */
	bool log_prio;			/* the logs' last column is the raw ioprio, not 0/1 */
	bool per_job_logs;
	bool log_unix_epoch;
	bool log_alternate_epoch;	/* log times from log_epoch_clock's epoch */
	unsigned job_start_clock;	/* job_start_clock_id: JSON job_start's clock */
	unsigned log_epoch_clock;	/* log_alternate_epoch_clock_id: a clockid_t */
	unsigned log_entries;		/* entries of a log's first chunk; each next doubles */
	uint64_t log_compression;	/* bytes of samples per compressed chunk; 0: none */
	struct job_cpus log_compression_cpus;	/* where the compressing thread runs */
	bool log_store_compressed;	/* PREFIX_TYPE.N.log.fz: fio's zlib chunks */

	/* I/O record and replay (jobs/replay_log.c loads the log, engine/plan/replay.c plays it) */
	const char *write_iolog;	/* record every I/O issued to this file, or NULL */
	struct str_list read_iolog;	/* logs to replay, clone N takes N modulo their count */
	bool read_iolog_chunked;	/* read the log while replaying, a chunk at a time */
	bool replay_no_stall;		/* issue as fast as possible, without the log's times */
	const char *replay_redirect;	/* every I/O of the log goes to this file, or NULL */
	unsigned replay_align;		/* offsets aligned down to this (a power of 2), 0: none */
	unsigned replay_scale;		/* offsets divided by this, 0 or 1: as logged */
	unsigned replay_time_scale;	/* percent of the log's rate (200: twice as fast) */
	unsigned replay_skip;		/* 1 << enum io_dir, and 1 << REPLAY_FSYNC: left out */
	const char *merge_blktrace_file;	/* merge the blktraces of read_iolog into it */
	unsigned merge_scalars[JOB_MAX_MERGE];	/* percent of each trace's time; 0: unset */
	unsigned merge_iters[JOB_MAX_MERGE];	/* passes over each trace; 0: unset */
	unsigned nmerge_scalars, nmerge_iters;
	const struct replay_log *replay;	/* the log this job replays, or NULL */

	/* thread environment: CPUs, NUMA, priority, ids, cgroup (engine/thread/thread_env.c) */
	uint64_t cpus_allowed[JOB_CPU_WORDS];	/* cpus_allowed=, cpumask=: bit N is CPU N */
	unsigned ncpus_allowed;		/* CPUs in it; 0: not set, the thread keeps its own */
	int cpus_allowed_split;		/* cpus_allowed_policy=split: one CPU of them per job */
	const char *numa_cpu_nodes;	/* node list for numa_run_on_node_mask(), or NULL */
	int numa_mem_mode;		/* enum numa_mem_mode (jobs/opt_thread.h) */
	const char *numa_mem_nodes;	/* its nodes for prefer, bind and interleave, or NULL */
	unsigned prioclass;	/* prioclass=, prio=, priohint=: the job thread's ioprio_set(2) */
	unsigned prio;
	unsigned priohint;
	int nice;			/* added to the thread's nice value, as nice(2) */
	unsigned uid, gid;		/* the thread's ids, when job_setting() has them */
	const char *cgroup;		/* cgroup the job joins (created if need be), or NULL */
	unsigned cgroup_weight;		/* its I/O weight, 100 to 1000; 0: left as it is */
	bool cgroup_nodelete;		/* keep a cgroup the job created */
	const char *ioscheduler;	/* scheduler for the devices under the files, or NULL */
	const char *exec_prerun;	/* sh -c commands around the I/O, or NULL */
	const char *exec_postrun;

	/* what was set, in order, for JSON "job options" */
	struct job_setting *settings;
	unsigned nsettings;
};

/* Whether the mode reads, writes, trims, and whether its offsets are random. */
bool rw_does(int rw, enum io_dir dir);
bool rw_is_random(int rw);
bool rw_is_mixed(int rw);

/* Whether the job changes data: it writes or trims. */
bool job_modifies(const struct job_desc *j);

/* The smallest and largest block size of the directions the job does (bssplit included). */
uint64_t job_bs_min(const struct job_desc *j);
uint64_t job_bs_max(const struct job_desc *j);

/* The canonical name of a mode ("randread"). */
const char *rw_name(int rw);

/*
 * The I/O priority prioclass= and prio= give the job's thread, as ioprio_set(2) takes it
 * (class << 13 | level, class 0 read as best effort, as fio does), or 0 when neither is set.
 */
uint32_t job_ioprio(const struct job_desc *j);

/*
 * Whether continue_on_error, where it covers errors of type (enum err_type), goes on past
 * err: by the type's ignore_error list, or EIO and EILSEQ without one, as fio decides.
 */
bool job_ignores_error(const struct job_desc *j, int type, int err);

/* The value the job file gave for an option, or NULL when it was left at its default. */
const char *job_setting(const struct job_desc *j, const char *name);

/* Where an option was set (file and line), or the job's section when it was not. */
void job_where(const struct job_desc *j, const char *name, const char **file, int *line);

struct diag;

/*
 * A job's error before the run, at the line that set opt (the section's when it was not
 * set): "job 'x': " and the formatted text. Returns -EINVAL, as job-file errors are.
 */
int job_fail(const struct job_desc *j, const char *opt, struct diag *d, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* A note at the line that set opt: what iojob did with a setting fio also lets pass. */
void job_note(const struct job_desc *j, const char *opt, struct diag *d, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The same, naming the option: "job 'x': option 'opt': " and the formatted text. */
int job_fail_opt(const struct job_desc *j, const char *opt, struct diag *d, const char *fmt,
		 ...) __attribute__((format(printf, 4, 5)));

#endif
