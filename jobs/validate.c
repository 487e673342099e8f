/* Rules that involve two or more options; each message names the options involved. */
#include "jobs/validate.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <stdlib.h>
#include <linux/magic.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "jobs/job.h"
#include "jobs/options.h"
#include "jobs/opt_thread.h"
#include "base/diag.h"
#include "base/sysfs.h"
#include "parser/value.h"
#include "base/units.h"

static int fail(const struct job_desc *j, const char *opt, struct diag *d, const char *why)
{
	const char *file;
	int line;

	job_where(j, opt, &file, &line);
	return diag_at(d, -EINVAL, file, line, "job '%s': %s", j->name, why);
}

static void depth_defaults(struct job_desc *j, const struct engine_info *eng, struct diag *d)
{
	if ((eng->flags & ENGINE_SYNC) && j->iodepth > 1) {
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
	 * An engine whose submit does no work (null) batches everything by default.
	 */
	if (eng->flags & ENGINE_CHEAP_SUBMIT) {
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

static int check_block_sizes(struct job_desc *j, struct diag *d)
{
	for (int dir = 0; dir < IO_NDIR; dir++) {
		if (j->bs[dir].min > j->bs[dir].max)
			return fail(j, "bsrange", d, "option 'bsrange': the minimum is above the maximum");
		if (!j->blockalign[dir])
			j->blockalign[dir] = j->bs[dir].min;
	}
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

static int check_timing(struct job_desc *j, struct diag *d)
{
	if (j->time_based && !j->runtime_ns) {
		diag_note(d, "job '%s': time_based needs runtime; the workload runs once", j->name);
		j->time_based = false;
	}
	if (j->gtod_reduce)
		diag_note(d, "job '%s': gtod_reduce=1 changes nothing: iojob still times every "
			  "I/O, with one clock read per submit and per reap", j->name);
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
	return 0;
}

/*
 * An engine with nothing to count (cpuio, exec) runs for runtime=, as fio's does: its I/Os
 * move no bytes, so size= never ends the job. It needs no size of its own.
 */
static int check_timed(struct job_desc *j, const struct engine_info *eng, struct diag *d)
{
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

	if (j->verify_state_load && !j->verify_only)
		return fail(j, "verify_state_load", d, "option 'verify_state_load' needs "
			    "verify_only=1: it checks what an earlier run wrote");
	if (j->verify == VERIFY_NONE)
		return j->verify_only ? fail(j, "verify_only", d, "option 'verify_only' needs "
					     "verify= to say what to check") : 0;
	if (rw_does(j->rw, IO_TRIM))
		return fail(j, "verify", d, "option 'verify': trimmed blocks hold nothing to check");
	if (j->verify == VERIFY_PATTERN && !j->verify_pattern_len)
		return fail(j, "verify", d, "option 'verify': verify=pattern needs verify_pattern");
	if (!j->verify_interval)
		j->verify_interval = job_bs_min(j);
	if (j->verify != VERIFY_PATTERN && j->verify_interval < 64)
		return fail(j, "verify_interval", d, "option 'verify_interval': a chunk must hold "
			    "its 64-byte header");
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
	if (!ret && j->hist_log && !j->log_hist_ns)
		return fail(j, "write_hist_log", d, "option 'write_hist_log' needs "
			    "log_hist_msec (the interval between histograms)");
	return ret;
}

/*
 * The region against the files and the blocks: fio refuses an offset past filesize ("you
 * need to specify valid offset="), where iojob would grow the file to reach it; and an
 * io_size below one block does no I/O at all, so the job would vanish from the report.
 */
/* fio's zones: iojob takes the option so a job file names its mode, and runs only none. */
static int check_zones(const struct job_desc *j, struct diag *d)
{
	if (j->zonemode == ZONE_STRIDED)
		return fail(j, "zonemode", d, "option 'zonemode': strided zones (zonesize, "
			    "zonerange, zoneskip) are not in iojob; use offset and size, or "
			    "offset_increment with numjobs, for one range per job");
	if (j->zonemode == ZONE_ZBD)
		return fail(j, "zonemode", d, "option 'zonemode': zbd is not in iojob: it has no "
			    "zoned block device support");
	return 0;
}

static int check_region(const struct job_desc *j, struct diag *d)
{
	uint64_t last = j->offset.bytes, step = j->offset_increment.bytes;
	const char *opt;
	char why[256];

	if (j->numjobs > 1 && !j->offset_increment.pct && step &&
	    (UINT64_MAX - last) / step >= j->numjobs - 1)
		last += step * (j->numjobs - 1);
	opt = last != j->offset.bytes ? "offset_increment" : "offset";
	if (!j->offset.pct && j->filesize.lo && last >= j->filesize.lo) {
		snprintf(why, sizeof(why), "options '%s' and 'filesize': %s starts at offset "
			 "%llu, at or past the end of a %llu-byte file", opt,
			 last != j->offset.bytes ? "the last clone" : "the region",
			 (unsigned long long)last, (unsigned long long)j->filesize.lo);
		return fail(j, opt, d, why);
	}
	if (j->io_size && j->io_size < job_bs_min(j)) {
		snprintf(why, sizeof(why), "options 'io_size' and 'bs': io_size=%llu is less than "
			 "one block (%llu bytes), so the job would do no I/O",
			 (unsigned long long)j->io_size, (unsigned long long)job_bs_min(j));
		return fail(j, "io_size", d, why);
	}
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

/* issue 15, group B: buffers and data content */

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

/* The buffer bytes the job maps, as engine/iomem.c rounds them, in huge pages. */
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
	if (j->verify != VERIFY_NONE && (j->compress_pct || j->dedupe_pct))
		diag_note(d, "job '%s': with verify=, the buffers made once carry each write's "
			  "header and checksum: %s is not made anew for each write", j->name,
			  j->compress_pct ? "compressible data" : "dedupe_percentage's data");
	ret = check_dedupe(j, d);
	if (!ret && paths)
		ret = check_lockmem(j, d);
	if (!ret && paths && huge)
		ret = check_huge_pages(j, d);
	return ret;
}

int job_validate(struct job_desc *j, const struct engine_info *eng, bool paths,
		 struct diag *d)
{
	int ret;

	depth_defaults(j, eng, d);
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
		ret = check_verify(j, d);
	if (!ret)
		ret = check_zones(j, d);
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
	if (ret)
		return ret;
	if (j->verify != VERIFY_NONE && (eng->flags & (ENGINE_NO_FILES | ENGINE_NO_DATA)))
		return fail(j, "verify", d, "option 'verify': this ioengine stores no data, so "
			    "there is nothing to verify (use psync, sync, posixaio, libaio or "
			    "io_uring)");
	if (rw_does(j->rw, IO_READ) && (eng->flags & ENGINE_WRITE_ONLY))
		return fail(j, "rw", d, "option 'rw': this ioengine only writes (use rw=write "
			    "or rw=randwrite)");
	if ((rw_does(j->rw, IO_TRIM)) && !(eng->flags & ENGINE_TRIM))
		return fail(j, "ioengine", d, "option 'rw': this ioengine cannot trim "
			    "(use psync, sync, posixaio or null)");
	if (j->filesize.lo > j->filesize.hi)
		return fail(j, "filesize", d, "option 'filesize': the minimum is above the maximum");
	return 0;
}

int job_check_readonly(const struct job_desc *j, const struct engine_info *eng, struct diag *d)
{
	if (eng && (eng->flags & ENGINE_MODIFIES))
		return fail(j, "ioengine", d, "option 'ioengine': this ioengine creates, changes "
			    "or deletes files whatever rw= says, and --readonly forbids that");
	if (rw_does(j->rw, IO_WRITE) && !j->verify_only)
		return fail(j, "rw", d, "option 'rw': the job writes, and --readonly forbids "
			    "writes and trims");
	if (rw_does(j->rw, IO_TRIM))
		return fail(j, "rw", d, "option 'rw': the job trims, and --readonly forbids "
			    "writes and trims");
	if (j->unlink)
		return fail(j, "unlink", d, "option 'unlink': the job deletes its files, and "
			    "--readonly forbids that");
	return 0;
}
