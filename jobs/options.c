/* The job option table and the parsers of the options that are not plain values. */
#include "jobs/options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobs/arena.h"
#include "parser/value.h"

#define NS_PER_US	1000ULL
#define NS_PER_MS	1000000ULL
#define NS_PER_S	1000000000ULL

static const struct opt_enum rw_vals[] = {
	{ "read", RW_READ, "sequential reads" },
	{ "write", RW_WRITE, "sequential writes" },
	{ "randread", RW_RANDREAD, "random reads" },
	{ "randwrite", RW_RANDWRITE, "random writes" },
	{ "rw", RW_RW, "sequential mixed reads and writes" },
	{ "readwrite", RW_RW, "sequential mixed reads and writes" },
	{ "randrw", RW_RANDRW, "random mixed reads and writes" },
	{ "trim", RW_TRIM, "sequential trims" },
	{ "randtrim", RW_RANDTRIM, "random trims" },
	{ "trimwrite", RW_TRIMWRITE, "sequential trim then write of each block" },
	{ "randtrimwrite", RW_RANDTRIMWRITE, "random trim then write of each block" },
	{ NULL },
};

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

static const struct opt_enum unified_vals[] = {
	{ "none", UNIFIED_NONE, "report each direction" },
	{ "0", UNIFIED_NONE, "same as none" },
	{ "mixed", UNIFIED_MIXED, "report all directions summed, as 'mixed'" },
	{ "1", UNIFIED_MIXED, "same as mixed" },
	{ "both", UNIFIED_BOTH, "report each direction and the sum" },
	{ "2", UNIFIED_BOTH, "same as both" },
	{ NULL },
};

static const struct opt_enum clock_vals[] = {
	{ "cpu", CLOCKSRC_CPU, "the CPU's time-stamp counter (iojob's default when usable)" },
	{ "clock_gettime", CLOCKSRC_GETTIME, "clock_gettime(CLOCK_MONOTONIC)" },
	{ "gettimeofday", CLOCKSRC_GETTIME, "same as clock_gettime (monotonic)" },
	{ NULL },
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

/* Reject what the tail of "name:N" holds when it is not a positive count. */
static int parse_count_suffix(const char *s, uint64_t *out, char *why, size_t whylen)
{
	long long v;

	if (value_parse_int(s, &v) < 0 || v < 1) {
		snprintf(why, whylen, "':%s' is not a positive count", s);
		return -EINVAL;
	}
	*out = (uint64_t)v;
	return 0;
}

static int enum_lookup(const struct opt_enum *vals, const char *name, int *out)
{
	for (; vals->name; vals++) {
		if (!strcasecmp(vals->name, name)) {
			*out = vals->value;
			return 0;
		}
	}
	return -EINVAL;
}

/* rw=randread:8 (new random offset every 8 I/Os), rw=read:4k (skip 4k after each I/O). */
static int parse_rw(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		    size_t whylen)
{
	struct job_desc *j = dst;
	char mode[32];
	const char *colon = strchr(val, ':');
	size_t len = colon ? (size_t)(colon - val) : strlen(val);
	int rw;

	if (len >= sizeof(mode))
		len = sizeof(mode) - 1;
	memcpy(mode, val, len);
	mode[len] = '\0';
	if (enum_lookup(rw_vals, mode, &rw) < 0) {
		opt_enum_error(rw_vals, mode, why, whylen);
		return -EINVAL;
	}
	j->rw_nr = 0;
	if (colon) {
		if (rw_is_random(rw)) {
			if (parse_count_suffix(colon + 1, &j->rw_nr, why, whylen) < 0)
				return -EINVAL;
		} else if (value_parse_size(colon + 1, ctx->kb_base, &j->rw_nr) < 0) {
			snprintf(why, whylen, "':%s' is not a size to skip", colon + 1);
			return -EINVAL;
		}
	}
	j->rw = rw;
	return 0;
}

static int parse_rwmixwrite(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			    size_t whylen)
{
	struct job_desc *j = dst;
	long long v;

	(void)ctx;
	if (value_parse_int(val, &v) < 0 || v < 0 || v > 100) {
		snprintf(why, whylen, "'%s' is not a percentage (0 to 100)", val);
		return -EINVAL;
	}
	j->rwmixread = 100 - (unsigned)v;
	return 0;
}

/*
 * Per-direction lists "r,w,t": one value applies to every direction, two set reads and
 * writes (trims follow writes), an empty field keeps that direction as it was.
 */
typedef int (*dir_item_fn)(const struct opt_ctx *ctx, const char *item, struct job_desc *j,
			   int dir, char *why, size_t whylen);

static int parse_per_dir(const struct opt_ctx *ctx, const char *val, struct job_desc *j,
			 dir_item_fn fn, char *why, size_t whylen)
{
	char **f;
	int n, i, ret = 0;

	n = value_split(val, ',', &f);
	if (n < 0)
		return n;
	if (n > IO_NDIR) {
		snprintf(why, whylen, "'%s' has more than 3 values (read,write,trim)", val);
		ret = -EINVAL;
	}
	for (i = 0; !ret && i < IO_NDIR; i++) {
		const char *item = i < n ? f[i] : f[n - 1];

		if (*item)
			ret = fn(ctx, item, j, i, why, whylen);
	}
	value_split_free(f, n);
	return ret;
}

static int bs_item(const struct opt_ctx *ctx, const char *item, struct job_desc *j, int dir,
		   char *why, size_t whylen)
{
	uint64_t v;

	if (value_parse_size(item, ctx->kb_base, &v) < 0) {
		opt_size_error(item, "a size", why, whylen);
		return -EINVAL;
	}
	if (v == 0 || v > (256u << 20)) {
		snprintf(why, whylen, "%s is out of range (1 to 256MiB)", item);
		return -ERANGE;
	}
	j->bs[dir].min = j->bs[dir].max = v;
	j->bs[dir].nsplit = 0;
	return 0;
}

static int parse_bs(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		    size_t whylen)
{
	return parse_per_dir(ctx, val, dst, bs_item, why, whylen);
}

static int bsrange_item(const struct opt_ctx *ctx, const char *item, struct job_desc *j,
			int dir, char *why, size_t whylen)
{
	uint64_t lo, hi;

	if (value_parse_size_range(item, ctx->kb_base, &lo, &hi) < 0 || lo == 0 ||
	    hi > (256u << 20)) {
		snprintf(why, whylen, "'%s' is not a block size range such as 4k-64k", item);
		return -EINVAL;
	}
	j->bs[dir].min = lo;
	j->bs[dir].max = hi;
	j->bs[dir].nsplit = 0;
	return 0;
}

static int parse_bsrange(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			 size_t whylen)
{
	/* fio separates the directions of ranges with ',' and also accepts '/'. */
	char buf[512];

	snprintf(buf, sizeof(buf), "%s", val);
	for (char *p = buf; *p; p++)
		if (*p == '/')
			*p = ',';
	return parse_per_dir(ctx, buf, dst, bsrange_item, why, whylen);
}

/*
 * bssplit=4k/10:64k/50:32k/40 per direction; an empty percentage shares what the others
 * leave evenly.
 */
static int bssplit_item(const struct opt_ctx *ctx, const char *item, struct job_desc *j,
			int dir, char *why, size_t whylen)
{
	struct dir_bs *b = &j->bs[dir];
	unsigned total = 0, blanks = 0, i;
	bool blank[JOB_MAX_BSSPLIT];
	char **f;
	int n, ret = 0;

	n = value_split(item, ':', &f);
	if (n < 0)
		return n;
	if (n > JOB_MAX_BSSPLIT) {
		value_split_free(f, n);
		snprintf(why, whylen, "more than %d block sizes", JOB_MAX_BSSPLIT);
		return -EINVAL;
	}
	for (i = 0; !ret && i < (unsigned)n; i++) {
		char *slash = strchr(f[i], '/');
		uint64_t bs;
		long long pct = -1;

		if (slash)
			*slash++ = '\0';
		if (value_parse_size(f[i], ctx->kb_base, &bs) < 0 || bs == 0 || bs > (256u << 20) ||
		    (slash && *slash && (value_parse_int(slash, &pct) < 0 || pct < 0 || pct > 100))) {
			snprintf(why, whylen, "'%s' is not a list of size/percent such as 4k/30:64k/70",
				 item);
			ret = -EINVAL;
			break;
		}
		b->split[i].bs = (uint32_t)bs;
		b->split[i].pct = pct < 0 ? 0 : (uint32_t)pct;
		blank[i] = pct < 0;
		if (blank[i])
			blanks++;
		else
			total += (unsigned)pct;
	}
	value_split_free(f, n);
	if (ret)
		return ret;
	if (total > 100 || (!blanks && total != 100)) {
		snprintf(why, whylen, "the percentages in '%s' add up to %u, not 100", item, total);
		return -EINVAL;
	}
	b->nsplit = (unsigned)n;
	b->min = UINT64_MAX;
	b->max = 0;
	for (i = 0; i < b->nsplit; i++) {
		if (blank[i])
			b->split[i].pct = (100 - total) / blanks;
		if (b->split[i].bs < b->min)
			b->min = b->split[i].bs;
		if (b->split[i].bs > b->max)
			b->max = b->split[i].bs;
	}
	return 0;
}

static int parse_bssplit(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			 size_t whylen)
{
	return parse_per_dir(ctx, val, dst, bssplit_item, why, whylen);
}

static int blockalign_item(const struct opt_ctx *ctx, const char *item, struct job_desc *j,
			   int dir, char *why, size_t whylen)
{
	if (value_parse_size(item, ctx->kb_base, &j->blockalign[dir]) < 0 ||
	    j->blockalign[dir] == 0) {
		snprintf(why, whylen, "'%s' is not an alignment", item);
		return -EINVAL;
	}
	return 0;
}

static int parse_blockalign(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			    size_t whylen)
{
	return parse_per_dir(ctx, val, dst, blockalign_item, why, whylen);
}

static int rate_item(const struct opt_ctx *ctx, const char *item, struct job_desc *j, int dir,
		     char *why, size_t whylen)
{
	if (value_parse_size(item, ctx->kb_base, &j->rate[dir]) < 0) {
		snprintf(why, whylen, "'%s' is not a rate in bytes per second", item);
		return -EINVAL;
	}
	return 0;
}

static int parse_rate(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		      size_t whylen)
{
	return parse_per_dir(ctx, val, dst, rate_item, why, whylen);
}

static int rate_iops_item(const struct opt_ctx *ctx, const char *item, struct job_desc *j,
			  int dir, char *why, size_t whylen)
{
	if (value_parse_size(item, ctx->kb_base, &j->rate_iops[dir]) < 0) {
		snprintf(why, whylen, "'%s' is not a rate in I/Os per second", item);
		return -EINVAL;
	}
	return 0;
}

static int parse_rate_iops(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			   size_t whylen)
{
	return parse_per_dir(ctx, val, dst, rate_iops_item, why, whylen);
}

/* random_distribution=random | zipf:THETA | pareto:H | normal:DEV */
static int parse_distribution(const struct opt_ctx *ctx, const char *val, void *dst,
			      char *why, size_t whylen)
{
	static const struct opt_enum dists[] = {
		{ "random", DIST_RANDOM }, { "zipf", DIST_ZIPF }, { "pareto", DIST_PARETO },
		{ "normal", DIST_NORMAL }, { NULL },
	};
	struct job_desc *j = dst;
	const char *colon = strchr(val, ':');
	char name[16];
	size_t len = colon ? (size_t)(colon - val) : strlen(val);
	double p = 0;
	int d;

	(void)ctx;
	snprintf(name, sizeof(name), "%.*s", (int)len, val);
	if (enum_lookup(dists, name, &d) < 0) {
		snprintf(why, whylen, "'%s' is not one of random, zipf:THETA, pareto:H, normal:DEV",
			 val);
		return -EINVAL;
	}
	if (d != DIST_RANDOM &&
	    (!colon || value_parse_double(colon + 1, &p) < 0 ||
	     (d == DIST_ZIPF && (p <= 0 || p == 1.0)) ||
	     (d == DIST_PARETO && (p <= 0 || p >= 1)) || (d == DIST_NORMAL && p <= 0))) {
		snprintf(why, whylen, "'%s' needs a parameter: zipf:THETA (> 0, not 1), "
			 "pareto:H (0 < H < 1) or normal:DEV (percent, > 0)", val);
		return -EINVAL;
	}
	j->random_distribution = d;
	j->dist_param = p;
	return 0;
}

/* file_service_type=roundrobin|sequential|random[:N] */
static int parse_file_service(const struct opt_ctx *ctx, const char *val, void *dst,
			      char *why, size_t whylen)
{
	static const struct opt_enum kinds[] = {
		{ "roundrobin", FSRV_ROUNDROBIN }, { "sequential", FSRV_SEQUENTIAL },
		{ "random", FSRV_RANDOM }, { NULL },
	};
	struct job_desc *j = dst;
	const char *colon = strchr(val, ':');
	char name[16];
	size_t len = colon ? (size_t)(colon - val) : strlen(val);
	uint64_t nr = 1;
	int k;

	(void)ctx;
	snprintf(name, sizeof(name), "%.*s", (int)len, val);
	if (enum_lookup(kinds, name, &k) < 0) {
		snprintf(why, whylen, "'%s' is not one of roundrobin, sequential, random (with :N)",
			 val);
		return -EINVAL;
	}
	if (colon && parse_count_suffix(colon + 1, &nr, why, whylen) < 0)
		return -EINVAL;
	j->file_service = k;
	j->file_service_nr = (unsigned)nr;
	return 0;
}

/* percentile_list=1:5:50:99.9, at most 20 values in (0, 100]. */
static int parse_percentiles(const struct opt_ctx *ctx, const char *val, void *dst,
			     char *why, size_t whylen)
{
	struct job_desc *j = dst;
	double v[JOB_MAX_PCT];
	char **f;
	int n, i;

	(void)ctx;
	n = value_split(val, ':', &f);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		if (i >= JOB_MAX_PCT || value_parse_double(f[i], &v[i]) < 0 || v[i] <= 0 ||
		    v[i] > 100) {
			value_split_free(f, n);
			snprintf(why, whylen, "'%s' is not a list of at most %d percentiles "
				 "(0 < p <= 100) such as 50:99:99.9", val, JOB_MAX_PCT);
			return -EINVAL;
		}
	}
	value_split_free(f, n);
	memcpy(j->percentile_list, v, sizeof(v[0]) * n);
	j->npercentiles = (unsigned)n;
	return 0;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* buffer_pattern=0xdeadbeef | "text" | 255 (one byte). */
static int parse_pattern(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			 size_t whylen)
{
	struct job_desc *j = dst;
	size_t len = strlen(val), n = 0, i;
	unsigned char *p;
	long long b;

	p = arena_alloc(ctx->arena, len + 1);
	if (!p)
		return -ENOMEM;
	if (len > 2 && val[0] == '0' && (val[1] == 'x' || val[1] == 'X')) {
		for (i = 2; i + 1 < len + 1 && val[i]; i += 2) {
			int hi = hexval(val[i]), lo = val[i + 1] ? hexval(val[i + 1]) : -1;

			if (hi < 0 || lo < 0)
				goto bad;
			p[n++] = (unsigned char)(hi << 4 | lo);
		}
	} else if (len >= 2 && val[0] == '"' && val[len - 1] == '"') {
		memcpy(p, val + 1, len - 2);
		n = len - 2;
	} else if (value_parse_int(val, &b) == 0 && b >= 0 && b <= 255) {
		p[n++] = (unsigned char)b;
	} else {
		goto bad;
	}
	if (!n)
		goto bad;
	j->buffer_pattern = p;
	j->buffer_pattern_len = (unsigned)n;
	return 0;
bad:
	snprintf(why, whylen, "'%s' is not a pattern (0x hex bytes, \"text\" or a byte 0-255)",
		 val);
	return -EINVAL;
}

static int parse_kb_base(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			 size_t whylen)
{
	struct job_desc *j = dst;
	long long v;

	(void)ctx;
	if (value_parse_int(val, &v) < 0 || (v != 1024 && v != 1000)) {
		snprintf(why, whylen, "'%s' is not 1024 or 1000", val);
		return -EINVAL;
	}
	j->kb_base = (unsigned)v;
	return 0;
}

/* Option names are the table; keep it sorted by topic, as the help prints it. */
const struct opt_def job_options[] = {
	/* identity */
	JOB_STR("name", name, NULL, "job name (the section name by default)"),
	JOB_STR("description", description, NULL, "free text printed with the job"),

	/* files */
	JOB_LIST("filename", filenames, "file(s) or device(s) to use, ':'-separated"),
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
	JOB_U64("number_ios", number_ios, "0", "stop after this many I/Os (0: no limit)"),
	JOB_BOOL("unlink", unlink, "0", "delete the job's files when it ends"),
	JOB_BOOL("create_on_open", create_on_open, "0", "create files when the job opens them"),
	JOB_BOOL("overwrite", overwrite, "0", "lay out files with data before a write job"),
	JOB_ENUM("fallocate", fallocate, "native", fallocate_vals,
		 "how new files get their blocks"),
	JOB_BOOL("allow_mounted_write", allow_mounted_write, "0",
		 "allow writes to a block device that is mounted"),

	/* pattern */
	JOB_CUSTOM("rw", rw, "read", parse_rw, "access pattern, with :N (see values)",
		   .alias = "readwrite", .vals = rw_vals,
		   .syntax = "MODE[:N] (N: I/Os per random offset, or bytes to skip), MODE"),
	JOB_UINT("rwmixread", rwmixread, "50", 0, 100, "percent of reads in mixed modes"),
	JOB_CUSTOM("rwmixwrite", rwmixread, NULL, parse_rwmixwrite,
		   "percent of writes in mixed modes", .syntax = "integer, 0 to 100"),
	JOB_CUSTOM("bs", bs, "4k", parse_bs, "block size, per direction (read,write,trim)",
		   .alias = "blocksize", .syntax = "size[,size[,size]]: reads, writes, trims"),
	JOB_CUSTOM("bsrange", bs, NULL, parse_bsrange, "block size range per direction (4k-64k)",
		   .alias = "blocksize_range", .syntax = "size-size[,size-size[,size-size]]"),
	JOB_CUSTOM("bssplit", bs, NULL, parse_bssplit,
		   "weighted block sizes per direction (4k/30:64k/70)",
		   .syntax = "size/percent:size/percent...[,...] per direction"),
	JOB_CUSTOM("blockalign", blockalign, NULL, parse_blockalign,
		   "alignment of random offsets per direction (default: block size)",
		   .alias = "ba", .syntax = "size[,size[,size]]"),
	JOB_CUSTOM("random_distribution", random_distribution, "random", parse_distribution,
		   "offsets of random jobs: uniform or skewed",
		   .syntax = "random, zipf:THETA, pareto:H or normal:DEV"),
	JOB_CUSTOM("file_service_type", file_service, "roundrobin", parse_file_service,
		   "which file the next I/O goes to, switching every N I/Os",
		   .syntax = "roundrobin|sequential|random[:N]"),
	JOB_BOOL("randrepeat", randrepeat, "1", "same random sequence on every run"),
	JOB_U64("randseed", randseed, "0x89", "seed of the random sequences"),
	JOB_BOOL("norandommap", norandommap, "0",
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
	JOB_BOOL("invalidate", invalidate, "1", "drop cached pages of the files before the run"),
	JOB_ENUM("sync", sync, "none", sync_vals, "open files with O_SYNC or O_DSYNC"),
	JOB_UINT("fsync", fsync_every, "0", 0, UINT32_MAX, "fsync after every N writes"),
	JOB_UINT("fdatasync", fdatasync_every, "0", 0, UINT32_MAX,
		 "fdatasync after every N writes"),
	JOB_BOOL("end_fsync", end_fsync, "0", "fsync the files when the job's writes end"),
	JOB_BOOL("fsync_on_close", fsync_on_close, "0", "fsync each file when closing it"),

	/* time */
	JOB_TIME("runtime", runtime_ns, "0", NS_PER_S, "stop after this long (seconds)",
		 .alias = "timeout"),
	JOB_BOOL("time_based", time_based, "0", "repeat the workload until runtime ends"),
	JOB_TIME("ramp_time", ramp_time_ns, "0", NS_PER_S,
		 "run this long before measuring (seconds)"),
	JOB_TIME_RANGE("startdelay", startdelay_ns, "0", NS_PER_S,
		       "wait this long before starting (seconds; a range picks at random)"),
	JOB_UINT("loops", loops, "1", 1, UINT32_MAX, "repeat the workload this many times"),
	JOB_CUSTOM("rate", rate, NULL, parse_rate, "bandwidth cap per direction, bytes/s",
		   .syntax = "size[,size[,size]]: reads, writes, trims"),
	JOB_CUSTOM("rate_iops", rate_iops, NULL, parse_rate_iops, "IOPS cap per direction",
		   .syntax = "integer[,integer[,integer]]: reads, writes, trims"),
	JOB_TIME("thinktime", thinktime_ns, "0", NS_PER_US,
		 "pause after I/O completes (microseconds)"),
	JOB_UINT("thinktime_blocks", thinktime_blocks, "1", 1, 65536,
		 "I/Os between thinktime pauses"),

	/* jobs and groups */
	JOB_UINT("numjobs", numjobs, "1", 1, 65536, "clones of this job, each on its own thread"),
	JOB_BOOL("thread", thread, "1", "run jobs as threads (iojob always does)"),
	JOB_BOOL("group_reporting", group_reporting, "0", "report each group as one job"),
	JOB_BOOL("stonewall", stonewall, "0", "wait for earlier jobs; starts a new group",
		 .alias = "wait_for_previous"),
	JOB_BOOL("new_group", new_group, "0", "start a new reporting group"),

	/* buffers */
	JOB_BOOL("zero_buffers", zero_buffers, "0", "write zeros"),
	JOB_BOOL("refill_buffers", refill_buffers, "0", "new random data for every write"),
	JOB_BOOL("scramble_buffers", scramble_buffers, "1",
		 "vary write buffers a little to defeat dedupe"),
	JOB_CUSTOM("buffer_pattern", buffer_pattern, NULL, parse_pattern,
		   "fill write buffers with this pattern",
		   .syntax = "0xHEX, \"text\" or a byte 0-255"),

	/* reporting */
	JOB_CUSTOM("kb_base", kb_base, "1024", parse_kb_base,
		   "1024 or 1000: what k, m, g mean in sizes", .syntax = "1024 or 1000"),
	JOB_CUSTOM("percentile_list", percentile_list,
		   "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99",
		   parse_percentiles, "latency percentiles to report, ':'-separated",
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
	JOB_TIME("bwavgtime", bw_avg_ns, "500", NS_PER_MS, "bandwidth sample window (ms)"),
	JOB_TIME("iopsavgtime", iops_avg_ns, "500", NS_PER_MS, "IOPS sample window (ms)"),
	{ NULL },
};
