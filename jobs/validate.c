/* Rules that involve two or more options; each message names the options involved. */
#include "jobs/validate.h"

#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <stdlib.h>
#include <linux/magic.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include "jobs/job.h"
#include "jobs/jobs.h"
#include "jobs/options.h"
#include "jobs/opt_steady.h"
#include "jobs/opt_thread.h"
#include "jobs/sysbench_modes.h"
#include "base/diag.h"
#include "base/sysfs.h"
#include "parser/value.h"
#include "base/units.h"

/* The job's error at the line that set opt; why is the whole message after the name. */
static int fail(const struct job_desc *j, const char *opt, struct diag *d, const char *why)
{
	return job_fail(j, opt, d, "%s", why);
}

/*
 * "psync, sync, ..." : the engines of this build (in->engines) whose flags have all of
 * need and none of lack, for a hint that names what can do what the job's engine cannot.
 */
static const char *engines_that(const struct job_input *in, unsigned need, unsigned lack,
				char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < in->nengines && at < len; i++) {
		const struct engine_info *e = &in->engines[i];

		if (!e->available || (e->flags & need) != need || (e->flags & lack))
			continue;
		at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "", e->name);
	}
	return buf;
}

static void depth_defaults(struct job_desc *j, const struct engine_info *eng, struct diag *d)
{
	/* offload keeps iodepth I/Os of a synchronous engine in flight, one per thread */
	if ((eng->flags & ENGINE_SYNC) && j->iodepth > 1 && j->io_submit_mode != SUBMIT_OFFLOAD) {
		diag_note(d, "job '%s': ioengine %s is synchronous, so iodepth=%u is capped at 1",
			  j->name, eng->name, j->iodepth);
		j->iodepth = 1;
	}
	if ((eng->flags & ENGINE_DEPTH_NEEDS_DIRECT) && !j->direct && j->iodepth > 1)
		diag_note(d, "job '%s': %s without direct=1 completes most I/O inside "
			  "io_submit, so iodepth=%u will not be reached", j->name, eng->name,
			  j->iodepth);
	/*
	 * fio's defaults: submit each I/O on its own and reap one completion per call. With
	 * batches, a batch's I/Os reach the device while the call is still submitting the
	 * rest and their clat reads short; a queue refilled in bursts runs below its depth.
	 * An engine whose submit does no work (null) batches everything by default, and so
	 * does io_uring, where one call submits and one ring reaps any number: it submits
	 * what is queued when the queue is full and reaps what has completed, so a page-cached
	 * or fast device's I/Os cost a system call per batch rather than one each (3.5x the
	 * I/Os at depth 32 on the page cache, where t/io_uring batches by 8).
	 */
	if (eng->flags & (ENGINE_CHEAP_SUBMIT | ENGINE_BATCHES)) {
		if (!job_setting(j, "iodepth_batch_submit"))
			j->iodepth_batch_submit = j->iodepth;
		if (!job_setting(j, "iodepth_batch_complete_max"))
			j->iodepth_batch_complete_max = j->iodepth;
	}
	if (!j->iodepth_batch_submit || j->iodepth_batch_submit > j->iodepth)
		j->iodepth_batch_submit = j->iodepth;
	if (!j->iodepth_batch_complete_max)
		j->iodepth_batch_complete_max = j->iodepth_batch_complete_min;
	if (!j->iodepth_batch_complete_max || j->iodepth_batch_complete_max > j->iodepth)
		j->iodepth_batch_complete_max = j->iodepth;
	if (j->iodepth_batch_complete_min > j->iodepth_batch_complete_max)
		j->iodepth_batch_complete_min = j->iodepth_batch_complete_max;
	if (!j->iodepth_low || j->iodepth_low > j->iodepth)
		j->iodepth_low = j->iodepth;
}

/*
 * fio keeps its random map only where blocks start on their own size: a blockalign other
 * than a direction's smallest block turns the map off, so offsets are drawn uniformly and
 * may repeat within a pass (fio says so and runs the job; so does iojob). A sequential
 * job aligns to its block size whatever blockalign says.
 */
static void map_off_for_blockalign(struct job_desc *j, struct diag *d)
{
	bool other = false;

	if (!rw_is_random(j->rw))
		return;
	for (int dir = 0; dir < IO_NDIR; dir++)
		other |= j->blockalign[dir] != j->bs[dir].min;
	if (!other || j->norandommap)
		return;
	j->norandommap = true;
	job_note(j, "blockalign", d, "a blockalign other than the block size turns the random "
		 "map off, as in fio: offsets may repeat within a pass");
}

static int check_block_sizes(struct job_desc *j, struct diag *d)
{
	for (int dir = 0; dir < IO_NDIR; dir++) {
		if (j->bs[dir].min > j->bs[dir].max)
			return fail(j, "bsrange", d, "option 'bsrange': the minimum is above the maximum");
		if (!j->blockalign[dir])
			j->blockalign[dir] = j->bs[dir].min;
	}
	map_off_for_blockalign(j, d);
	return 0;
}

static int check_paths(const struct job_desc *j, struct diag *d)
{
	struct stat st;
	const char *file;
	int line;

	for (unsigned i = 0; i < j->directories.n; i++) {
		if (stat(j->directories.v[i], &st) < 0 || !S_ISDIR(st.st_mode)) {
			job_where(j, "directory", &file, &line);
			return diag_at(d, -EINVAL, file, line,
				       "option 'directory': '%s' is not a directory",
				       j->directories.v[i]);
		}
	}
	return 0;
}

/* A floor set in both units, or above the cap of its direction, cannot be met. */
static int check_rate_min(const struct job_desc *j, struct diag *d)
{
	for (int dir = 0; dir < IO_NDIR; dir++) {
		if (j->rate_min[dir] && j->rate_iops_min[dir])
			return fail(j, "rate_iops_min", d, "options 'rate_min' and 'rate_iops_min' "
				    "both set the lowest rate of one direction: keep one");
		if (j->rate[dir] && j->rate[dir] < j->rate_min[dir])
			return fail(j, "rate_min", d, "option 'rate_min' is above option 'rate': "
				    "the job could never meet it");
		if (j->rate_iops[dir] && j->rate_iops[dir] < j->rate_iops_min[dir])
			return fail(j, "rate_iops_min", d, "option 'rate_iops_min' is above option "
				    "'rate_iops': the job could never meet it");
	}
	return 0;
}

/* Whether a ':'-separated list as written holds an empty name ("a::b", "a:"). */
static bool has_empty_name(const char *val)
{
	char **f;
	int n = value_split(val, ':', &f);
	bool empty = false;

	for (int i = 0; i < n; i++)
		empty |= !*f[i];
	if (n >= 0)
		value_split_free(f, n);
	return empty;
}

/*
 * What fio lets pass, said: its soft-deprecated options, taken and ignored; empty names in
 * a list, skipped (fio's "a::b" is files a and b).
 */
static void note_fio_leniency(const struct job_desc *j, struct diag *d)
{
	for (const struct opt_def *o = job_options; o->name; o++) {
		const char *val = job_setting(j, o->name);

		if (!val)
			continue;
		if (o->type == OPT_DEPRECATED)
			job_note(j, o->name, d, "deprecated: fio 3.33 ignores it, and so does iojob");
		else if (o->type == OPT_STR_LIST && has_empty_name(val))
			job_note(j, o->name, d, "'%s': the empty names between ':' are skipped, as "
				 "fio skips them", val);
		else if (!strcmp(o->name, "random_distribution") &&
			 j->random_distribution != DIST_RANDOM && !strchr(val, ':'))
			job_note(j, o->name, d, "'%s' is %s:%g, %s", val, val, j->dist_param,
				 j->random_distribution == DIST_NORMAL ? "the deviation of fio's "
				 "normal without one" : "fio's default");
	}
	if (rw_does(j->rw, IO_TRIM) && (j->direct || j->sync != SYNC_NONE))
		job_note(j, j->direct ? "direct" : "sync", d, "a job that trims opens its files "
			 "without O_DIRECT, O_SYNC and O_DSYNC, as fio 3.33 does");
}

/*
 * Clones whose filename_format names the same files share them in iojob (as sysbench's
 * threads share one file set); fio 3.33 adds a file a clone names to the first clone
 * alone, so there the others run without files and do no I/O. Said where fio could run
 * the job (sysbench's mode names it cannot).
 */
static void note_shared_format(const struct job_desc *j, struct diag *d)
{
	if (j->numjobs < 2 || j->filenames.n || j->opendir || !j->filename_format ||
	    strstr(j->filename_format, "$jobnum") || j->directories.n > 1 ||
	    sysbench_mode_named(j))
		return;
	job_note(j, "filename_format", d, "'%s' gives the %u clones the same files, which "
		 "they share; fio 3.33 gives them to the first clone alone and the others do no "
		 "I/O (name the files with filename= for fio to share them too)",
		 j->filename_format, j->numjobs);
}

static int check_timing(struct job_desc *j, struct diag *d)
{
	if (j->time_based && !j->runtime_ns) {
		diag_note(d, "job '%s': time_based needs runtime; the workload runs once", j->name);
		j->time_based = false;
	}
	if (!j->thread && job_setting(j, "thread"))
		diag_note(d, "job '%s': iojob runs every job as a thread; thread=0 has no effect",
			  j->name);
	for (int dir = 0; dir < IO_NDIR; dir++)
		if (j->rate[dir] && j->rate_iops[dir])
			return fail(j, "rate_iops", d, "options 'rate' and 'rate_iops' both limit "
				    "one direction: keep one");
	if (!j->bw_avg_ns || !j->iops_avg_ns)
		return fail(j, j->bw_avg_ns ? "iopsavgtime" : "bwavgtime", d,
			    "options 'bwavgtime' and 'iopsavgtime' need a window above 0");
	return check_rate_min(j, d);
}

/* Bytes of each chunk's header: fio's 40, then its room for the method's digest. */
static unsigned verify_header_len(int verify)
{
	static const unsigned char slot[VERIFY_NTYPES] = {
		[VERIFY_CRC32C] = 4, [VERIFY_MD5] = 16, [VERIFY_SHA256] = 64,
		[VERIFY_XXHASH] = 4, [VERIFY_CRC32] = 4, [VERIFY_CRC64] = 8, [VERIFY_CRC16] = 2,
		[VERIFY_CRC7] = 1, [VERIFY_SHA1] = 20, [VERIFY_SHA512] = 128,
		[VERIFY_SHA3_224] = 28, [VERIFY_SHA3_256] = 32, [VERIFY_SHA3_384] = 48,
		[VERIFY_SHA3_512] = 64, [VERIFY_META] = 0,
	};

	if (verify == VERIFY_PATTERN || verify == VERIFY_NULL)
		return 0;
	return 40 + slot[verify];
}

/* trim_percentage trims some of what a verify job wrote, through an engine that trims. */
static int check_trims(const struct job_desc *j, struct diag *d)
{
	if (!j->trim_percentage)
		return 0;
	if (j->verify == VERIFY_NONE || !rw_does(j->rw, IO_WRITE) || j->verify_only)
		return fail(j, "trim_percentage", d, "option 'trim_percentage' needs verify= and "
			    "a job that writes: it trims some of the blocks written");
	return 0;
}

/*
 * An engine with nothing to count (cpuio, exec) runs for runtime=, as fio's does: its I/Os
 * move no bytes, so size= never ends the job. It needs no size of its own.
 */
static int check_timed(struct job_desc *j, const struct engine_info *eng, struct diag *d)
{
	if (eng->flags & ENGINE_STREAM) {
		/* fio's net: a stream has no offsets, and its bandwidth reads in bits */
		if (rw_is_random(j->rw))
			return fail(j, "rw", d, "option 'rw': network I/O cannot be random, as fio "
				    "says");
		if (j->unit_base == UNIT_BASE_AUTO)
			j->unit_base = UNIT_BASE_BITS;
	}
	if (!(eng->flags & ENGINE_TIMED))
		return 0;
	if (!j->runtime_ns)
		return fail(j, "ioengine", d, "option 'ioengine': this ioengine moves no data and "
			    "runs until runtime= ends it: set runtime");
	j->time_based = true;
	if (!j->size.bytes && !j->size.pct && !j->filesize.hi)
		j->size.bytes = job_bs_max(j) ? job_bs_max(j) : 4096;
	return 0;
}

/* Each verified chunk carries a header: it needs room, and whole chunks per block. */
static int check_verify(struct job_desc *j, struct diag *d)
{
	char why[160];
	unsigned hlen = verify_header_len(j->verify);
	int ret;

	if (j->verify_state_load && !j->verify_only)
		return fail(j, "verify_state_load", d, "option 'verify_state_load' needs "
			    "verify_only=1: it checks what an earlier run wrote");
	if (j->verify == VERIFY_NONE)
		return j->verify_only ? fail(j, "verify_only", d, "option 'verify_only' needs "
					     "verify= to say what to check") : check_trims(j, d);
	if (rw_does(j->rw, IO_TRIM))
		return fail(j, "verify", d, "option 'verify': trimmed blocks hold nothing to check");
	if (j->verify == VERIFY_PATTERN && !j->verify_pattern_len)
		return fail(j, "verify", d, "option 'verify': verify=pattern needs verify_pattern");
	if (!j->verify_interval)
		j->verify_interval = job_bs_min(j);
	if (hlen && j->verify_interval < (hlen > 64 ? hlen : 64)) {
		snprintf(why, sizeof(why), "option 'verify_interval': a chunk must hold its "
			 "%u-byte header", hlen > 64 ? hlen : 64);
		return fail(j, "verify_interval", d, why);
	}
	if (hlen && j->verify_offset && j->verify_offset + hlen > j->verify_interval) {
		snprintf(why, sizeof(why), "option 'verify_offset': the %u-byte header at %llu "
			 "runs past its %llu-byte chunk (verify_interval)", hlen,
			 (unsigned long long)j->verify_offset,
			 (unsigned long long)j->verify_interval);
		return fail(j, "verify_offset", d, why);
	}
	ret = check_trims(j, d);
	if (ret)
		return ret;
	/* the replay plans the job again: a plan that hangs on counts or clones cannot be */
	if (j->experimental_verify && (j->rwmix_ratio || j->seq_cursor_shared))
		return fail(j, "experimental_verify", d, "option 'experimental_verify': the "
			    "writes cannot be planned again in their order when rwmix_mode=ratio or "
			    "seq_cursor=shared decides it");
	for (int dir = 0; dir < IO_NDIR; dir++) {
		const struct dir_bs *b = &j->bs[dir];
		bool bad = rw_does(j->rw, dir) && (b->min % j->verify_interval ||
						   b->max % j->verify_interval);

		for (unsigned s = 0; rw_does(j->rw, dir) && s < b->nsplit; s++)
			bad |= b->split[s].bs % j->verify_interval != 0;
		if (bad) {
			snprintf(why, sizeof(why), "option 'verify_interval': %llu does not divide "
				 "every block size", (unsigned long long)j->verify_interval);
			return fail(j, "verify_interval", d, why);
		}
	}
	return 0;
}

/* A log prefix's directory, which must exist and be writable. */
static int check_log_dir(const struct job_desc *j, const char *opt, const char *prefix,
			 struct diag *d)
{
	const char *slash = strrchr(prefix, '/');
	char dir[4096], why[4200];
	const char *err = NULL;
	struct stat st;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == prefix ? 1 : (int)(slash - prefix),
			 prefix);
	if (stat(dir, &st) < 0)
		err = strerror(errno);
	else if (!S_ISDIR(st.st_mode))
		err = "not a directory";
	else if (access(dir, W_OK) < 0)
		err = strerror(errno);
	if (!err)
		return 0;
	snprintf(why, sizeof(why), "option '%s': cannot write logs in '%s': %s", opt, dir, err);
	return fail(j, opt, d, why);
}

/* block_error_percentiles' most blocks, fio's (output/report.h's BLOCK_INFO_MAX). */
#define BLOCK_INFO_LIMIT	8192

/* Whether CPU set c shares a CPU with the ones this process may run on. */
static bool cpus_usable(const struct job_cpus *c)
{
	cpu_set_t now;

	if (sched_getaffinity(0, sizeof(now), &now) < 0)
		return true;	/* let the thread's own sched_setaffinity say why */
	for (unsigned i = 0; i < JOB_CPUS_MAX && i < CPU_SETSIZE; i++)
		if ((c->mask[i / 64] >> (i % 64) & 1) && CPU_ISSET(i, &now))
			return true;
	return false;
}

/* What fio's compressed logs, alternate epochs and block error percentiles need. */
static int check_log_forms(const struct job_desc *j, struct diag *d)
{
	struct timespec ts;
	char why[200];

	if (j->block_error_pct && (j->nrfiles != 1 || j->filenames.n > 1))
		return fail(j, "block_error_percentiles", d, "option 'block_error_percentiles' "
			    "counts the blocks of one file: it needs a single file per job, as in "
			    "fio (nrfiles=1, one filename)");
	/* known now when size= is in bytes; otherwise the job's start checks its file */
	if (j->block_error_pct && j->size.bytes && j->bs[IO_TRIM].min &&
	    j->size.bytes / j->bs[IO_TRIM].min > BLOCK_INFO_LIMIT) {
		snprintf(why, sizeof(why), "option 'block_error_percentiles': size=%llu holds "
			 "%llu blocks of %llu bytes (bs for trims), more than fio's %u",
			 (unsigned long long)j->size.bytes,
			 (unsigned long long)(j->size.bytes / j->bs[IO_TRIM].min),
			 (unsigned long long)j->bs[IO_TRIM].min, BLOCK_INFO_LIMIT);
		return fail(j, "block_error_percentiles", d, why);
	}
	/* fio HEAD rejects the job: "cannot specify both ramp_time and ramp_size" */
	if (j->ramp_size && j->ramp_time_ns)
		return fail(j, "ramp_size", d, "option 'ramp_size' with ramp_time: the ramp ends "
			    "by time or by bytes, not both (fio HEAD rejects the job)");
	/* fio HEAD: "log_issue_time option requires write_lat_log and log_offset options" */
	if (j->log_issue_time && (!j->lat_log || !j->log_offset))
		return fail(j, "log_issue_time", d, "option 'log_issue_time' needs write_lat_log "
			    "and log_offset, as fio HEAD asks (the issue time follows the offset "
			    "in the latency logs)");
	if (j->log_issue_time && j->log_store_compressed)
		return fail(j, "log_issue_time", d, "option 'log_issue_time': fio 3.33's "
			    "compressed samples (log_store_compressed) have no issue time");
	if (j->log_window == LOG_WINDOW_BOTH && j->log_store_compressed)
		return fail(j, "log_window_value", d, "option 'log_window_value=both': fio "
			    "3.33's compressed samples (log_store_compressed) have one value");
	if (j->log_store_compressed && j->hist_log)
		return fail(j, "log_store_compressed", d, "option 'log_store_compressed': fio's "
			    "compressed format holds samples, not the histograms of write_hist_log");
	if (j->log_compression_cpus.set && !j->log_compression)
		return fail(j, "log_compression_cpus", d, "option 'log_compression_cpus' needs "
			    "log_compression (without it no thread compresses logs)");
	if (j->log_compression_cpus.set && !cpus_usable(&j->log_compression_cpus))
		return fail(j, "log_compression_cpus", d, "option 'log_compression_cpus': none "
			    "of these CPUs is online and allowed to this process");
	if (job_setting(j, "job_start_clock_id") &&
	    clock_gettime((clockid_t)j->job_start_clock, &ts) < 0) {
		snprintf(why, sizeof(why), "option 'job_start_clock_id': clock %u: %s",
			 j->job_start_clock, strerror(errno));
		return fail(j, "job_start_clock_id", d, why);
	}
	if ((j->log_unix_epoch || j->log_alternate_epoch) &&
	    clock_gettime((clockid_t)j->log_epoch_clock, &ts) < 0) {
		snprintf(why, sizeof(why), "option 'log_alternate_epoch_clock_id': clock %u: %s",
			 j->log_epoch_clock, strerror(errno));
		return fail(j, "log_alternate_epoch_clock_id", d, why);
	}
	return 0;
}

/*
 * fio takes its profiles' own options (tiobench's threads= and dir=) in any job, where
 * they do nothing without profile=; steadystate.fio writes threads=1 for thread=1.
 */
static void note_profile_options(const struct job_desc *j, struct diag *d)
{
	static const char *const names[] = { "threads", "dir" };
	const char *file;
	int line;

	for (unsigned i = 0; i < ARRAY_SIZE(names); i++) {
		if (!job_setting(j, names[i]))
			continue;
		job_where(j, names[i], &file, &line);
		diag_note(d, "%s:%d: job '%s': option '%s' is fio's tiobench profile's, which "
			  "does nothing without profile=tiobench (not in iojob), as in fio%s",
			  file, line, j->name, names[i],
			  i == 0 ? "; thread= is the option that runs jobs as threads" : "");
	}
}

/*
 * The log prefixes: a bare one (fio's "no prefix") names the logs after the job, and with
 * paths checked, each one's directory must take files now (fio finds out after the run,
 * losing it).
 */
static int check_logs(struct job_desc *j, bool paths, struct diag *d)
{
	static const char *const opts[] = { "write_lat_log", "write_bw_log", "write_iops_log",
					    "write_hist_log" };
	const char **prefix[] = { &j->lat_log, &j->bw_log, &j->iops_log, &j->hist_log };
	int ret = 0;

	for (unsigned i = 0; !ret && i < ARRAY_SIZE(prefix); i++) {
		if (!*prefix[i])
			continue;
		if (!**prefix[i] || !strcmp(*prefix[i], "1"))
			*prefix[i] = j->name;
		if (paths)
			ret = check_log_dir(j, opts[i], *prefix[i], d);
	}
	if (!ret && paths && j->write_iolog)	/* issue 17: the record of the I/Os */
		ret = check_log_dir(j, "write_iolog", j->write_iolog, d);
	if (!ret && j->hist_log && !j->log_hist_ns)
		job_note(j, "write_hist_log", d, "without log_hist_msec (the interval between "
			 "histograms) the log is written empty, as fio 3.33 writes it");
	return ret ? ret : check_log_forms(j, d);
}

static void zones_to_bytes(struct size_pct *sp, uint64_t zone_size)
{
	if (sp->zones)
		sp->bytes = (uint64_t)sp->zones * zone_size;
}

/* size, io_size, offset and offset_increment counted in zones (Nz) become bytes. */
static void zone_counts_to_bytes(struct job_desc *j)
{
	if (j->zone_skip_zones)
		j->zone_skip = (uint64_t)j->zone_skip_zones * j->zone_size;
	if (j->io_size_zones)
		j->io_size = (uint64_t)j->io_size_zones * j->zone_size;
	zones_to_bytes(&j->size, j->zone_size);
	zones_to_bytes(&j->offset, j->zone_size);
	zones_to_bytes(&j->offset_increment, j->zone_size);
}

/*
 * sprandom (fio HEAD): random writes with the LFSR and no random map, on one file. What
 * the job leaves unset is set, with fio's note; what it sets otherwise is refused.
 */
static int check_sprandom(struct job_desc *j, struct diag *d)
{
	unsigned nfiles = j->filenames.n ? j->filenames.n : j->nrfiles;

	if (!j->sprandom)
		return 0;
	if (!rw_is_random(j->rw) || !rw_does(j->rw, IO_WRITE))
		return fail(j, "sprandom", d, "option 'sprandom': needs random writes (rw=randwrite), "
			    "as fio has it");
	if (nfiles != 1 || j->stripe_chunk)
		return fail(j, "sprandom", d, "option 'sprandom': works on one file (fio refuses "
			    "more)");
	if (job_setting(j, "random_generator") && j->random_generator != RANDGEN_LFSR)
		return fail(j, "random_generator", d, "option 'random_generator': sprandom needs "
			    "random_generator=lfsr");
	if (job_setting(j, "norandommap") && !j->norandommap)
		return fail(j, "norandommap", d, "option 'norandommap': sprandom needs "
			    "norandommap=1");
	if (!job_setting(j, "random_generator"))
		diag_note(d, "job '%s': sprandom sets random_generator=lfsr, as fio", j->name);
	if (!job_setting(j, "norandommap"))
		diag_note(d, "job '%s': sprandom sets norandommap=1, as fio", j->name);
	j->random_generator = RANDGEN_LFSR;
	j->norandommap = true;
	return 0;
}

/* The zbd options fio reads only with zonemode=zbd: set without it, they say so. */
static void note_zbd_only(const struct job_desc *j, struct diag *d)
{
	static const char *const opts[] = {
		"zonecapacity", "max_open_zones", "job_max_open_zones", "ignore_zone_limits",
		"zone_reset_threshold", "zone_reset_frequency", "read_beyond_wp",
	};

	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (job_setting(j, opts[i]))
			diag_note(d, "job '%s': %s acts with zonemode=zbd only, and zonemode is %s: "
				  "ignored, as fio ignores it", j->name, opts[i],
				  j->zonemode == ZONE_STRIDED ? "strided" : "none");
}

/*
 * zonemode=zbd (engine/plan/zbd.c) on targets that are not zoned: their zones are emulated,
 * so zonesize is needed, and fio's checks of its options are made here, before any data
 * is touched, where fio makes most of them as the job starts.
 */
static int check_zbd(struct job_desc *j, struct diag *d)
{
	if (!j->zone_size)
		return fail(j, "zonemode", d, "option 'zonemode': zonemode=zbd needs zonesize on a "
			    "file or a device that is not zoned (its zones are emulated)");
	if (j->zone_size < 512)
		return fail(j, "zonesize", d, "option 'zonesize': a zone is at least 512 bytes");
	if (j->zone_capacity > j->zone_size)
		return fail(j, "zonecapacity", d, "option 'zonecapacity': larger than zonesize");
	if (!j->create_serialize)
		return fail(j, "create_serialize", d, "option 'create_serialize': zonemode=zbd "
			    "and create_serialize=0 do not go together (fio refuses them too)");
	if (j->job_max_open_zones && !j->max_open_zones)
		return fail(j, "job_max_open_zones", d, "option 'job_max_open_zones': needs "
			    "max_open_zones (the limit all jobs on the file share)");
	if (j->stripe_chunk)
		return fail(j, "zonemode", d, "option 'zonemode': zbd zones are a target's, and "
			    "a striped job's target is iojob's own");
	/* a trim resets the zone it names: a zone, whole */
	if (rw_does(j->rw, IO_TRIM) && (j->bs[IO_TRIM].min != j->bs[IO_TRIM].max ||
					j->bs[IO_TRIM].nsplit))
		return fail(j, "bs", d, "option 'bs': with zonemode=zbd, trims are of one size "
			    "(no bsrange or bssplit), as fio has it");
	if (rw_does(j->rw, IO_TRIM) && j->bs[IO_TRIM].min != j->zone_size)
		return fail(j, "bs", d, "option 'bs': with zonemode=zbd, a trim resets a zone: "
			    "its block size is zonesize");
	if (j->experimental_verify)
		return fail(j, "experimental_verify", d, "option 'experimental_verify': not with "
			    "zonemode=zbd (fio HEAD refuses it too)");
	if (job_bs_max(j) > j->zone_size)
		return fail(j, "bs", d, "option 'bs': with zonemode=zbd, a block fits in a zone "
			    "(zonesize)");
	zone_counts_to_bytes(j);
	if (j->zone_skip % j->zone_size)
		return fail(j, "zoneskip", d, "option 'zoneskip': with zonemode=zbd, a multiple "
			    "of zonesize");
	/* as fio, which looks at bs= alone: a range or split is not checked */
	for (int dir = 0; j->verify && dir < IO_NDIR; dir++)
		if (j->bs[dir].min && j->bs[dir].min == j->bs[dir].max && !j->bs[dir].nsplit &&
		    j->zone_size % j->bs[dir].min)
			return fail(j, "bs", d, "option 'bs': with verify and zonemode=zbd, each "
				    "block size divides zonesize (a zone holds whole blocks)");
	if (j->ignore_zone_limits)
		diag_note(d, "job '%s': ignore_zone_limits: emulated zones have no device limit "
			  "to ignore", j->name);
	return 0;
}

/*
 * fio's strided zones: zonesize is required (and refused without a zonemode, as fio
 * refuses it), zonerange defaults to it, and counts of zones (zoneskip=2z, io_size=4z)
 * become bytes.
 */
static int check_zones(struct job_desc *j, struct diag *d)
{
	unsigned nfiles = j->filenames.n ? j->filenames.n : j->nrfiles;

	if (j->zonemode != ZONE_ZBD)
		note_zbd_only(j, d);
	if (j->zonemode == ZONE_ZBD)
		return check_zbd(j, d);
	if (j->zonemode == ZONE_NONE && (j->zone_size || j->zone_range || j->zone_skip ||
					 j->zone_skip_zones))
		return fail(j, job_setting(j, "zonesize") ? "zonesize" : job_setting(j, "zonerange")
			    ? "zonerange" : "zoneskip", d, "options 'zonesize', 'zonerange' and "
			    "'zoneskip' act with zonemode=strided or zbd only, and zonemode is "
			    "none");
	if (j->zonemode == ZONE_NONE && (j->io_size_zones || j->size.zones || j->offset.zones ||
					 j->offset_increment.zones))
		return fail(j, j->io_size_zones ? "io_size" : j->size.zones ? "size" :
			    j->offset.zones ? "offset" : "offset_increment", d, "options 'size', "
			    "'io_size', 'offset' and 'offset_increment' count zones (Nz) with "
			    "zonemode=strided or zbd and zonesize only");
	if (j->zonemode != ZONE_STRIDED)
		return 0;
	if (!j->zone_size)
		return fail(j, "zonemode", d, "option 'zonemode': strided zones need zonesize "
			    "(the bytes done in each zone)");
	if (nfiles > 1 || j->stripe_chunk)
		return fail(j, "zonemode", d, "option 'zonemode': strided zones work on one file "
			    "(fio drops them for a job of several files)");
	if (!j->zone_range)
		j->zone_range = j->zone_size;
	zone_counts_to_bytes(j);
	if (j->zone_range < job_bs_max(j))
		return fail(j, "zonerange", d, "options 'zonerange' and 'bs': a zone is smaller "
			    "than a block");
	return 0;
}

/* percentage_random and rw_sequencer shape random modes: say so when the mode is not one. */
/*
 * verify_header_seed=1 (fio HEAD's default): fio checks the seed it made a block's data
 * from against the header's. iojob's data comes from no seed (its headers say 0) and a
 * seed fio wrote cannot be made again here, so none is checked: said where a job asks.
 */
static void note_header_seed(const struct job_desc *j, struct diag *d)
{
	const char *v = job_setting(j, "verify_header_seed");

	if (v && j->verify_header_seed && j->verify != VERIFY_NONE)
		diag_note(d, "job '%s': verify_header_seed: iojob's verify headers carry no seed "
			  "(0) and fio's cannot be made again here, so no seed is checked, as with "
			  "verify_header_seed=0", j->name);
}

static void note_random_only(const struct job_desc *j, struct diag *d)
{
	bool perc = false;

	for (int dir = 0; dir < IO_NDIR; dir++)
		perc |= j->percentage_random[dir] != 100;
	if (perc && !rw_is_random(j->rw))
		diag_note(d, "job '%s': percentage_random mixes sequential I/O into random "
			  "modes; rw=%s is sequential already", j->name, rw_name(j->rw));
	if (j->rw_sequencer == RWSEQ_IDENTICAL && (!rw_is_random(j->rw) || j->rw_nr <= 1))
		diag_note(d, "job '%s': rw_sequencer=identical repeats the offsets of a random "
			  "mode with :N (rw=randread:8); rw=%s has none", j->name, rw_name(j->rw));
}

/* An io_size below one block does no I/O at all, so the job would vanish from the report. */
static int check_io_size(const struct job_desc *j, struct diag *d)
{
	char why[256];

	if (j->io_size && j->io_size < job_bs_min(j)) {
		snprintf(why, sizeof(why), "options 'io_size' and 'bs': io_size=%llu is less than "
			 "one block (%llu bytes), so the job would do no I/O",
			 (unsigned long long)j->io_size, (unsigned long long)job_bs_min(j));
		return fail(j, "io_size", d, why);
	}
	return 0;
}

/*
 * The region against the files and the blocks: fio refuses an offset past filesize ("you
 * need to specify valid offset="), where iojob would grow the file to reach it; clones
 * that offset_increment takes there it runs, with no I/O.
 */
static int check_region(const struct job_desc *j, struct diag *d)
{
	uint64_t last = j->offset.bytes, step = j->offset_increment.bytes;
	const char *opt;
	char why[256];

	if (j->numjobs > 1 && !j->offset_increment.pct && step &&
	    (UINT64_MAX - last) / step >= j->numjobs - 1)
		last += step * (j->numjobs - 1);
	opt = last != j->offset.bytes ? "offset_increment" : "offset";
	if (!j->offset.pct && j->filesize.lo && last >= j->filesize.lo &&
	    j->offset.bytes < j->filesize.lo) {
		/* fio runs them: each lays its files out and does no I/O */
		if (!j->jobnum)
			job_note(j, "offset_increment", d, "the clones from %llu on start at or "
				 "past the end of their files (filesize %llu): they do no I/O, as "
				 "in fio", (unsigned long long)((j->filesize.lo - j->offset.bytes +
				 step - 1) / step), (unsigned long long)j->filesize.lo);
		return check_io_size(j, d);
	}
	if (!j->offset.pct && j->filesize.lo && last >= j->filesize.lo) {
		snprintf(why, sizeof(why), "options '%s' and 'filesize': %s starts at offset "
			 "%llu, at or past the end of a %llu-byte file", opt,
			 last != j->offset.bytes ? "the last clone" : "the region",
			 (unsigned long long)last, (unsigned long long)j->filesize.lo);
		return fail(j, opt, d, why);
	}
	return check_io_size(j, d);
}

static bool past_file_end(uint64_t start, uint64_t len)
{
	return start > INT64_MAX || len > INT64_MAX - start;
}

static int region_past_end(const struct job_desc *j, bool clone, uint64_t start,
			   struct diag *d)
{
	const char *opt = clone ? "offset_increment" : "offset";
	char why[320];

	snprintf(why, sizeof(why), "options '%s'%s and 'size': %s starts at offset %s%llu and "
		 "spans %llu bytes, so it would end past %lld, the largest file offset", opt,
		 clone ? ", 'numjobs'" : "", clone ? "the last clone's region" : "the region",
		 clone && start == UINT64_MAX ? "past " : "", (unsigned long long)start,
		 (unsigned long long)j->size.bytes, (long long)INT64_MAX);
	return fail(j, opt, d, why);
}

/*
 * Where the last clone's region ends must be a file offset: the kernel takes none past
 * INT64_MAX, and a sum past 2^64 would wrap to the file's start (offset=2^64-1 size=8k
 * failed only at run time). Without size= the region ends at the file's end, which
 * check_region() keeps past the offset, and which filesize= must keep a file offset.
 */
static int check_region_end(const struct job_desc *j, struct diag *d)
{
	uint64_t start = j->offset.bytes, step = j->offset_increment.bytes, clones;
	char why[160];

	if (j->filesize.hi > INT64_MAX) {
		snprintf(why, sizeof(why), "option 'filesize': %llu bytes is past %lld, the "
			 "largest file offset", (unsigned long long)j->filesize.hi,
			 (long long)INT64_MAX);
		return fail(j, "filesize", d, why);
	}
	if (past_file_end(start, j->size.bytes))
		return region_past_end(j, false, start, d);
	if (j->numjobs <= 1 || j->offset_increment.pct || !step)
		return 0;
	/* UINT64_MAX stands for a sum past 2^64 */
	if (__builtin_mul_overflow(step, j->numjobs - 1, &clones) ||
	    __builtin_add_overflow(start, clones, &start))
		start = UINT64_MAX;
	if (past_file_end(start, j->size.bytes))
		return region_past_end(j, true, start, d);
	return 0;
}

/* sysbench's semantics: each makes sense only in the modes sysbench uses it in. */
static int check_sysbench_modes(const struct job_desc *j, struct diag *d)
{
	if (j->create == CREATE_RECREATE && rw_does(j->rw, IO_READ))
		return fail(j, "create", d, "option 'create': recreate empties the files, so the "
			    "job must only write");
	if (j->create == CREATE_RECREATE && j->verify != VERIFY_NONE)
		return fail(j, "create", d, "option 'create': recreate empties the files, so "
			    "there is nothing to verify");
	if (j->seq_cursor_shared && rw_is_random(j->rw))
		return fail(j, "seq_cursor", d, "option 'seq_cursor': shared is for sequential "
			    "modes, and rw is random");
	if (j->seq_cursor_shared && (rw_is_mixed(j->rw) || j->rw == RW_TRIMWRITE ||
				     j->verify != VERIFY_NONE))
		return fail(j, "seq_cursor", d, "option 'seq_cursor': shared takes one direction "
			    "(read, write or trim) without verify");
	return 0;
}

/*
 * filename=stripe:chunk=SIZE:A:B... is md RAID0 over A, B...: keep the chunk and leave the
 * members as the job's files, as stripe_chunk=SIZE with filename=A:B... does. A lone
 * "stripe" is a file of that name, as in fio; "stripe:" before anything but chunk= is
 * taken for a mistake rather than two files to create.
 */
static int take_stripe_prefix(struct job_desc *j, struct diag *d)
{
	struct str_list *l = &j->filenames;
	char why[200], what[100];
	uint64_t chunk;

	if (l->n < 2 || strcmp(l->v[0], "stripe"))
		return 0;
	if (strncmp(l->v[1], "chunk=", 6))
		return fail(j, "filename", d, "option 'filename': 'stripe:' must be followed by "
			    "chunk=SIZE, such as stripe:chunk=64k:A:B (a file named stripe is "
			    "./stripe)");
	if (value_parse_size(l->v[1] + 6, j->kb_base, &chunk) < 0) {
		opt_size_error(l->v[1] + 6, "a chunk size", what, sizeof(what));
		snprintf(why, sizeof(why), "option 'filename': %s", what);
		return fail(j, "filename", d, why);
	}
	if (!chunk)
		return fail(j, "filename", d, "option 'filename': a stripe's chunk must be above "
			    "0");
	if (j->stripe_chunk && j->stripe_chunk != chunk) {
		snprintf(why, sizeof(why), "options 'filename' and 'stripe_chunk' give the stripe "
			 "different chunks (%llu and %llu bytes)", (unsigned long long)chunk,
			 (unsigned long long)j->stripe_chunk);
		return fail(j, "stripe_chunk", d, why);
	}
	j->stripe_chunk = chunk;
	l->v += 2;	/* the list lives in the arena: only this job's view moves */
	l->n -= 2;
	return 0;
}

/* A stripe needs members to stripe over, and a chunk any device can address. */
static int check_stripe(struct job_desc *j, struct diag *d)
{
	const char *opt = job_setting(j, "stripe_chunk") ? "stripe_chunk" : "filename";
	unsigned n;
	char why[160];
	int ret;

	ret = take_stripe_prefix(j, d);
	if (ret || !j->stripe_chunk)
		return ret;
	n = j->filenames.n ? j->filenames.n : j->nrfiles;
	if (n < 2) {
		snprintf(why, sizeof(why), "option '%s': a stripe needs at least 2 members, not %u",
			 j->filenames.n ? "filename" : "nrfiles", n);
		return fail(j, j->filenames.n ? "filename" : "nrfiles", d, why);
	}
	if (j->stripe_chunk % 512) {
		snprintf(why, sizeof(why), "option '%s': the chunk (%llu bytes) is not a multiple "
			 "of 512 bytes", opt, (unsigned long long)j->stripe_chunk);
		return fail(j, opt, d, why);
	}
	if (j->filesize.hi)
		return fail(j, "filesize", d, "option 'filesize': a stripe's members keep their "
			    "own sizes (size= sets the region of the stripe)");
	if (j->create == CREATE_RECREATE)
		return fail(j, "create", d, "option 'create': recreate would empty the members of "
			    "a stripe");
	return 0;
}

/* buffers and data content */

/* The kernel's pool of huge pages of that size: how many are reserved and free. */
static int huge_pool(uint64_t page_bytes, long *total, long *avail)
{
	char path[128], buf[32];
	int ret;

	snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/hugepages-%llukB/nr_hugepages",
		 (unsigned long long)(page_bytes >> 10));
	ret = sysfs_read(AT_FDCWD, path, buf, sizeof(buf));
	if (ret < 0)
		return ret;
	*total = strtol(buf, NULL, 10);
	snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/hugepages-%llukB/free_hugepages",
		 (unsigned long long)(page_bytes >> 10));
	ret = sysfs_read(AT_FDCWD, path, buf, sizeof(buf));
	*avail = ret < 0 ? *total : strtol(buf, NULL, 10);
	return 0;
}

/* The buffer bytes the job maps, as engine/thread/iomem.c rounds them, in huge pages. */
static uint64_t huge_pages_needed(const struct job_desc *j)
{
	uint64_t page = 4096, buf = (job_bs_max(j) + page - 1) / page * page;
	uint64_t bytes = buf * j->iodepth + page + j->iomem_align;

	return (bytes + j->hugepage_size - 1) / j->hugepage_size;
}

/* Whether path, or the directory it would be made in, is on a hugetlbfs mount. */
static bool on_hugetlbfs(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	struct statfs fs;

	if (statfs(path, &fs) == 0)
		return fs.f_type == HUGETLBFS_MAGIC;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path) + (slash == path), path);
	return statfs(dir, &fs) == 0 && fs.f_type == HUGETLBFS_MAGIC;
}

/* mem=shmhuge, mmaphuge: huge pages of hugepage-size must be there to take. */
static int check_huge_pages(struct job_desc *j, struct diag *d)
{
	const char *opt = job_setting(j, "iomem") ? "iomem" : "mem";
	const char *type = j->mem_type == MEM_SHMHUGE ? "shmhuge" : "mmaphuge";
	long total, avail;
	char why[320];

	if (j->mem_path) {
		if (on_hugetlbfs(j->mem_path))
			return 0;
		snprintf(why, sizeof(why), "option '%s': mmaphuge:%s: not a file on a hugetlbfs "
			 "mount (mount -t hugetlbfs none DIR, then name a file there)", opt,
			 j->mem_path);
		return fail(j, opt, d, why);
	}
	if (huge_pool(j->hugepage_size, &total, &avail) < 0) {
		snprintf(why, sizeof(why), "option 'hugepage-size': the kernel has no huge pages "
			 "of %llu bytes (see /sys/kernel/mm/hugepages)",
			 (unsigned long long)j->hugepage_size);
		return fail(j, "hugepage-size", d, why);
	}
	if ((uint64_t)avail >= huge_pages_needed(j))
		return 0;
	if (!total)
		snprintf(why, sizeof(why), "option '%s': %s needs huge pages of %llu kB, and none "
			 "are reserved (/sys/kernel/mm/hugepages/hugepages-%llukB/nr_hugepages is "
			 "0; write a count there, or to /proc/sys/vm/nr_hugepages for the default "
			 "size)", opt, type, (unsigned long long)(j->hugepage_size >> 10),
			 (unsigned long long)(j->hugepage_size >> 10));
	else
		snprintf(why, sizeof(why), "option '%s': %s needs %llu huge pages of %llu kB, and "
			 "%ld of the %ld reserved are free (raise nr_hugepages in "
			 "/sys/kernel/mm/hugepages/hugepages-%llukB)", opt, type,
			 (unsigned long long)huge_pages_needed(j),
			 (unsigned long long)(j->hugepage_size >> 10), avail, total,
			 (unsigned long long)(j->hugepage_size >> 10));
	return fail(j, opt, d, why);
}

/* lockmem: without CAP_IPC_LOCK, mlock() stops at RLIMIT_MEMLOCK. */
static int check_lockmem(struct job_desc *j, struct diag *d)
{
	struct rlimit rl;
	char why[200];

	if (!j->lockmem || geteuid() == 0 || getrlimit(RLIMIT_MEMLOCK, &rl) < 0 ||
	    rl.rlim_cur == RLIM_INFINITY || j->lockmem <= rl.rlim_cur)
		return 0;
	snprintf(why, sizeof(why), "option 'lockmem': %llu bytes is above this user's limit of "
		 "locked memory (ulimit -l: %llu kB)", (unsigned long long)j->lockmem,
		 (unsigned long long)(rl.rlim_cur >> 10));
	return fail(j, "lockmem", d, why);
}

/* What fio requires of a dedupe working set: a size to take it from, one file, room. */
static int check_dedupe(struct job_desc *j, struct diag *d)
{
	char why[200];

	if (!j->dedupe_pct || j->dedupe_mode != DEDUPE_WORKING_SET)
		return 0;
	if (!job_setting(j, "size"))
		return fail(j, "dedupe_mode", d, "option 'dedupe_mode': working_set is a share "
			    "of size=, which the job must set");
	if (j->nrfiles != 1 || j->filenames.n > 1)
		return fail(j, "dedupe_mode", d, "option 'dedupe_mode': working_set works on one "
			    "file per job");
	if (j->dedupe_ws_pct + j->dedupe_pct > 100) {
		snprintf(why, sizeof(why), "options 'dedupe_percentage' and "
			 "'dedupe_working_set_percentage': %u%% copies cannot come from the other "
			 "%u%% of the blocks when the working set takes %u%%", j->dedupe_pct,
			 100 - j->dedupe_pct, j->dedupe_ws_pct);
		return fail(j, "dedupe_working_set_percentage", d, why);
	}
	return 0;
}

static int check_buffers(struct job_desc *j, bool paths, struct diag *d)
{
	const char *opt = job_setting(j, "iomem") ? "iomem" : "mem";
	bool huge = j->mem_type == MEM_SHMHUGE || j->mem_type == MEM_MMAPHUGE;
	int ret;

	if (j->mem_type == MEM_CUDAMALLOC)
		return fail(j, opt, d, "option 'mem': cudamalloc puts the buffers in GPU memory "
			    "through CUDA (for GPUDirect), and iojob is built without CUDA");
	if (huge && (j->hugepage_size < 4096 || (j->hugepage_size & (j->hugepage_size - 1))))
		return fail(j, "hugepage-size", d, "option 'hugepage-size': not a power of two "
			    "of 4k or more");
	if (j->bs_unaligned && j->direct)
		diag_note(d, "job '%s': bs_unaligned with direct=1: the kernel usually refuses "
			  "I/O that is not a multiple of the sector size", j->name);
	if (j->dedupe_mode != DEDUPE_WORKING_SET && (j->dedupe_global ||
	    job_setting(j, "dedupe_working_set_percentage")))
		diag_note(d, "job '%s': %s acts only with dedupe_mode=working_set, as in fio",
			  j->name, j->dedupe_global ? "dedupe_global" :
			  "dedupe_working_set_percentage");
	/* verify's writes carry new random data each, as fio's: these two do not shape it */
	if (j->verify != VERIFY_NONE && (j->compress_pct >= 100 || j->dedupe_pct))
		diag_note(d, "job '%s': with verify=, each write carries new random data, as in "
			  "fio: %s", j->name, j->dedupe_pct ? "dedupe_percentage makes no copies" :
			  "buffer_compress_percentage=100 writes no zeros");
	ret = check_dedupe(j, d);
	if (!ret && paths)
		ret = check_lockmem(j, d);
	if (!ret && paths && huge)
		ret = check_huge_pages(j, d);
	return ret;
}

/* files */
static int check_files(const struct job_desc *j, struct diag *d)
{
	bool loops = j->unlink_each_loop && j->loops > 1 && !j->time_based;

	if (loops && rw_does(j->rw, IO_READ))
		return fail(j, "unlink_each_loop", d, "option 'unlink_each_loop': the job reads, "
			    "and the files it deletes after each loop would be gone for the next "
			    "loop's reads (fio fails such a job when it reopens them)");
	if (loops && !j->allow_file_create)
		return fail(j, "unlink_each_loop", d, "option 'unlink_each_loop': the files "
			    "deleted after each loop must be created again, and "
			    "allow_file_create=0 forbids it");
	if (j->create == CREATE_RECREATE && !j->allow_file_create)
		return fail(j, "allow_file_create", d, "option 'allow_file_create': "
			    "create=recreate deletes the files and creates them again, which "
			    "allow_file_create=0 forbids");
	if (j->lockfile != FILE_LOCK_NONE && j->stripe_chunk)
		return fail(j, "lockfile", d, "option 'lockfile': a stripe's I/O is cut over its "
			    "members, and locking them for each part is not supported");
	if (j->openfiles && j->openfiles < (j->filenames.n ? j->filenames.n : j->nrfiles) &&
	    (j->verify != VERIFY_NONE || j->seq_cursor_shared))
		return fail(j, "openfiles", d, j->verify != VERIFY_NONE ?
			    "option 'openfiles': verify reads back every file after the writes, "
			    "and openfiles below the number of files has closed them" :
			    "option 'openfiles': seq_cursor=shared takes blocks of every file in "
			    "turn, which openfiles below the number of files keeps closed");
	if (j->opendir && j->stripe_chunk)
		return fail(j, "opendir", d, "option 'opendir': a stripe's members are named by "
			    "filename=, not found in a directory");
	if ((j->unlink_each_loop || j->fill_device || j->file_append) && j->stripe_chunk) {
		const char *opt = j->unlink_each_loop ? "unlink_each_loop" :
				  j->fill_device ? "fill_device" : "file_append";
		char why[200];

		snprintf(why, sizeof(why), "option '%s': a stripe's members are used whole, as "
			 "they are: never deleted, filled or appended to", opt);
		return fail(j, opt, d, why);
	}
	return 0;
}

/*
 * io_submit_mode=offload: iodepth threads, each with its own instance of the job's engine,
 * run one I/O at a time over the job's descriptors: the engine must keep no file position
 * (or use no files), and cmdprio's per-I/O priorities, kept in the job's engine, cannot
 * follow the I/Os onto the threads' instances.
 */
static int check_offload(const struct job_desc *j, const struct engine_info *eng,
			 const struct job_input *in, struct diag *d)
{
	char names[256];
	static const char *const cmdprio[] = { "cmdprio", "cmdprio_bssplit", "cmdprio_class",
					       "cmdprio_hint", "cmdprio_percentage" };

	if (j->io_submit_mode != SUBMIT_OFFLOAD)
		return 0;
	if (!(eng->flags & (ENGINE_POSITIONAL | ENGINE_NO_FILES)))
		return job_fail(j, "io_submit_mode", d, "option 'io_submit_mode': offload runs "
				"I/Os on several threads over the same descriptors, and this "
				"ioengine cannot share one (it moves the file position, or runs a "
				"descriptor's I/Os one after another): use one of %s",
				engines_that(in, ENGINE_POSITIONAL, ENGINE_NO_FILES | ENGINE_NO_DATA,
					     names, sizeof(names)));
	if (j->verify != VERIFY_NONE && (eng->flags & ENGINE_NO_FILES) &&
	    !(eng->flags & ENGINE_NO_DATA))
		return fail(j, "io_submit_mode", d, "option 'io_submit_mode': offload's threads "
			    "each have their own instance of this ioengine, which keeps the data "
			    "in its own memory, so one thread's reads would not see another's "
			    "writes to verify them (leave verify out, or run inline)");
	if (j->stripe_chunk)
		return fail(j, "io_submit_mode", d, "option 'io_submit_mode': offload cannot run "
			    "a stripe's parts, which the job's thread accounts per member");
	for (unsigned i = 0; i < ARRAY_SIZE(cmdprio); i++)
		if (job_setting(j, cmdprio[i]))
			return fail(j, "io_submit_mode", d, "option 'io_submit_mode': offload's "
				    "threads each have their own engine, and the cmdprio options "
				    "pick priorities in the job's own (leave them out, or run inline)");
	return 0;
}

/*
 * gtod_reduce=1 is fio's disable_lat, disable_clat, disable_slat and disable_bw_measurement
 * at once (one of them the job file sets itself keeps its value). What fio leaves out
 * leaves the report; iojob still times every I/O, which costs it little.
 */
static void gtod_reduce(struct job_desc *j, struct diag *d)
{
	j->disable_lat |= !job_setting(j, "disable_lat");
	j->disable_clat |= !job_setting(j, "disable_clat");
	j->disable_slat |= !job_setting(j, "disable_slat");
	j->disable_bw |= !job_setting(j, "disable_bw_measurement");
	diag_note(d, "job '%s': gtod_reduce=1 leaves the latencies out of the report, as fio "
		  "does; iojob still times every I/O, with one clock read per submit and per "
		  "reap", j->name);
}

/* The job control and reporting options that follow others, as fio settles them. */
/* latency_window, latency_percentile and latency_run shape latency_target's search. */
static void note_latency_search(const struct job_desc *j, struct diag *d)
{
	static const char *const names[] = { "latency_window", "latency_percentile",
					     "latency_run" };

	for (unsigned i = 0; !j->lat_target_ns && i < ARRAY_SIZE(names); i++)
		if (job_setting(j, names[i]))
			diag_note(d, "job '%s': option '%s' acts only with latency_target, as in "
				  "fio", j->name, names[i]);
}

static int check_control(struct job_desc *j, struct diag *d)
{
	/* fio 3.33's exitall takes no value: exitall=0 turns it on as well (a quirk kept) */
	if (job_setting(j, "exitall"))
		j->exitall = true;
	if (j->gtod_reduce)
		gtod_reduce(j, d);
	/* what is not measured has no percentiles either */
	if (j->disable_lat)
		j->lat_percentiles = false;
	if (j->disable_clat)
		j->clat_percentiles = false;
	if (j->disable_slat)
		j->slat_percentiles = false;
	/* a type ignore_error lists goes on after those errors, whatever continue_on_error says */
	for (int t = 0; t < ERR_TYPE_NR; t++)
		if (j->ignore_error[t].n)
			j->continue_on_error |= 1 << t;
	if (j->wait_for && !strcmp(j->wait_for, j->name))
		return fail(j, "wait_for", d, "option 'wait_for': a job cannot wait for itself");
	note_latency_search(j, d);
	return 0;
}

int job_check_wait_for(const struct job_list *before, struct job_desc *j, struct diag *d)
{
	char why[256];
	int found = -1;

	j->wait_for_section = -1;
	if (!j->wait_for)
		return 0;
	for (unsigned i = 0; i < before->njobs; i++) {
		const struct job_desc *o = &before->jobs[i];

		if (strcmp(o->name, j->wait_for) || (int)o->section == found)
			continue;
		if (found >= 0) {
			snprintf(why, sizeof(why), "option 'wait_for': more than one section is "
				 "named '%s': the job to wait for needs a name of its own",
				 j->wait_for);
			return fail(j, "wait_for", d, why);
		}
		found = (int)o->section;
	}
	if (found < 0) {
		snprintf(why, sizeof(why), "option 'wait_for': no job named '%s' above this one "
			 "(the job to wait for comes first)", j->wait_for);
		return fail(j, "wait_for", d, why);
	}
	j->wait_for_section = found;
	return 0;
}

/*
 * bs_is_seq_rand: fio sizes a random I/O by the write sizes and a sequential one by the
 * read sizes, whatever its direction. A job's I/Os are all random or all sequential (rw=),
 * so every direction takes the one set; with percentage_random mixing the two, the job's
 * own kind wins, said in a note (fio picks per I/O).
 */
static void apply_seq_rand(struct job_desc *j, struct diag *d)
{
	bool random = rw_is_random(j->rw), mixed = false;
	struct dir_bs src;

	if (!j->bs_is_seq_rand)
		return;
	for (int dir = 0; dir < IO_NDIR; dir++)
		mixed |= random && rw_does(j->rw, dir) && j->percentage_random[dir] != 100;
	src = j->bs[random ? IO_WRITE : IO_READ];
	for (int dir = 0; dir < IO_NDIR; dir++)
		j->bs[dir] = src;
	if (mixed)
		job_note(j, "bs_is_seq_rand", d, "with percentage_random every I/O takes the "
			 "random size (the second of bs=), the sequential ones too (fio takes the "
			 "first for those)");
}

int job_validate(struct job_desc *j, const struct engine_info *eng,
		 const struct job_input *in, struct diag *d)
{
	bool paths = in->check_paths;
	char names[256];
	int ret;

	depth_defaults(j, eng, d);
	apply_seq_rand(j, d);
	ret = check_timed(j, eng, d);
	if (!ret)
		ret = check_block_sizes(j, d);
	if (!ret && paths)
		ret = check_paths(j, d);
	if (!ret)
		ret = check_timing(j, d);
	if (!ret)
		ret = check_logs(j, paths, d);
	if (!ret)
		note_profile_options(j, d);
	if (!ret)
		note_fio_leniency(j, d);
	if (!ret)
		note_shared_format(j, d);
	if (!ret)
		ret = check_verify(j, d);
	if (!ret)
		ret = check_zones(j, d);
	if (!ret)
		ret = check_sprandom(j, d);
	if (!ret) {
		note_random_only(j, d);
		note_header_seed(j, d);
	}
	if (!ret)
		ret = check_region_end(j, d);
	if (!ret)
		ret = check_region(j, d);
	if (!ret)
		ret = check_sysbench_modes(j, d);
	if (!ret)
		ret = check_stripe(j, d);
	if (!ret)
		ret = job_check_thread(j, d);
	if (!ret)
		ret = check_buffers(j, paths, d);
	if (!ret)
		ret = check_files(j, d);
	if (!ret)
		ret = check_control(j, d);
	if (!ret)
		ret = job_check_steady(j, d);
	if (ret)
		return ret;
	if (j->verify != VERIFY_NONE && j->verify != VERIFY_NULL && (eng->flags & ENGINE_NO_DATA))
		return job_fail(j, "verify", d, "option 'verify': this ioengine stores no data, "
				"so there is nothing to verify (use one of %s)",
				engines_that(in, 0, ENGINE_NO_FILES | ENGINE_NO_DATA |
					     ENGINE_WRITE_ONLY, names, sizeof(names)));
	if (j->atomic && rw_does(j->rw, IO_WRITE) && !(eng->flags & ENGINE_ATOMIC))
		return job_fail(j, "atomic", d, "option 'atomic': this ioengine cannot mark a "
				"write atomic (RWF_ATOMIC): use one of %s, as fio HEAD asks",
				engines_that(in, ENGINE_ATOMIC, 0, names, sizeof(names)));
	if (rw_does(j->rw, IO_READ) && (eng->flags & ENGINE_WRITE_ONLY))
		return fail(j, "rw", d, "option 'rw': this ioengine only writes (use rw=write "
			    "or rw=randwrite)");
	if (j->trim_percentage && !(eng->flags & ENGINE_TRIM))
		return job_fail(j, "trim_percentage", d, "option 'trim_percentage': this "
				"ioengine cannot trim (the engines that can: %s)",
				engines_that(in, ENGINE_TRIM, ENGINE_NO_FILES | ENGINE_NO_DATA,
					     names, sizeof(names)));
	if ((rw_does(j->rw, IO_TRIM)) && !(eng->flags & ENGINE_TRIM))
		return job_fail(j, "ioengine", d, "option 'rw': this ioengine cannot trim (the "
				"engines that can: %s)",
				engines_that(in, ENGINE_TRIM, ENGINE_NO_FILES | ENGINE_NO_DATA,
					     names, sizeof(names)));
	if (j->filesize.lo > j->filesize.hi)
		return fail(j, "filesize", d, "option 'filesize': the minimum is above the maximum");
	return check_offload(j, eng, in, d);
}

int job_check_readonly(const struct job_desc *j, const struct engine_info *eng, struct diag *d)
{
	if (eng && (eng->flags & ENGINE_MODIFIES))
		return fail(j, "ioengine", d, "option 'ioengine': this ioengine creates, changes "
			    "or deletes files whatever rw= says, and --readonly forbids that");
	if (j->replay && job_modifies(j))	/* issue 17: the log gave the job its rw */
		return fail(j, "read_iolog", d, "option 'read_iolog': the log writes or trims, "
			    "and --readonly forbids writes and trims");
	if (rw_does(j->rw, IO_WRITE) && !j->verify_only)
		return fail(j, "rw", d, "option 'rw': the job writes, and --readonly forbids "
			    "writes and trims");
	if (rw_does(j->rw, IO_TRIM))
		return fail(j, "rw", d, "option 'rw': the job trims, and --readonly forbids "
			    "writes and trims");
	if (j->unlink)
		return fail(j, "unlink", d, "option 'unlink': the job deletes its files, and "
			    "--readonly forbids that");
	if (j->unlink_each_loop)
		return fail(j, "unlink_each_loop", d, "option 'unlink_each_loop': the job deletes "
			    "its files, and --readonly forbids that");
	return 0;
}
