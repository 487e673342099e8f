/* Parsers of the options that are not plain values: rw, per-direction sizes, bssplit... */
#include "jobs/opt_custom.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/arena.h"
#include "jobs/opt_buffers.h"
#include "jobs/opt_offsets.h"
#include "parser/value.h"
#include "base/units.h"

const struct opt_enum rw_vals[] = {
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
	/*
	 * sysbench fileio's --file-test-mode names, for replaying its sweeps; each brings
	 * sysbench's semantics as defaults (jobs/sysbench_modes.c)
	 */
	{ "seqwr", RW_WRITE, "sysbench's seqwr: sequential writes to files emptied first, "
	  "one pass of a cursor shared by the clones (create=recreate, seq_cursor=shared)" },
	{ "seqrewr", RW_WRITE, "sysbench's seqrewr: sequential rewrites, one pass of a shared "
	  "cursor (seq_cursor=shared)" },
	{ "seqrd", RW_READ, "sysbench's seqrd: sequential reads, one pass of a shared cursor "
	  "(seq_cursor=shared)" },
	{ "rndrd", RW_RANDREAD, "sysbench's rndrd: random reads" },
	{ "rndwr", RW_RANDWRITE, "sysbench's rndwr: random writes" },
	{ "rndrw", RW_RANDRW, "sysbench's rndrw: random reads and writes interleaved 1.5:1 "
	  "(rwmix_mode=ratio, rwmixread=60)" },
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

/* Split "NAME[:PARAM]": NAME into name (cut to fit), and PARAM returned (NULL without ':'). */
static const char *split_param(const char *val, char *name, size_t namelen)
{
	const char *colon = strchr(val, ':');

	snprintf(name, namelen, "%.*s", colon ? (int)(colon - val) : (int)strlen(val), val);
	return colon ? colon + 1 : NULL;
}

/* rw=randread:8 (new random offset every 8 I/Os), rw=read:4k (skip 4k after each I/O). */
int opt_rw_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		    size_t whylen)
{
	struct job_desc *j = dst;
	char mode[32];
	const char *param = split_param(val, mode, sizeof(mode));
	int rw;

	if (enum_lookup(rw_vals, mode, &rw) < 0) {
		opt_enum_error(rw_vals, mode, why, whylen);
		return -EINVAL;
	}
	j->rw_nr = 0;
	if (param && rw_is_random(rw)) {
		uint64_t nr;

		if (parse_count_suffix(param, &nr, why, whylen) < 0)
			return -EINVAL;
		j->rw_nr = (int64_t)nr;
	} else if (param) {
		/* a negative skip goes backwards, as fio's rw=read:-8k */
		bool back = *param == '-';
		uint64_t skip;

		if (value_parse_size(param + back, ctx->kb_base, &skip) < 0 || skip > INT64_MAX) {
			snprintf(why, whylen, "':%s' is not a size to skip (-SIZE: backwards)",
				 param);
			return -EINVAL;
		}
		j->rw_nr = back ? -(int64_t)skip : (int64_t)skip;
	}
	j->rw = rw;
	return 0;
}

int opt_rwmixwrite_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
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

int opt_per_dir(const struct opt_ctx *ctx, const char *val, struct job_desc *j,
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

/*
 * fio reads bs=4k-16k as 4k: its number parser stops at the '-' (the range is bsrange=).
 * The dash form is taken the same way; any other trailing text stays an error.
 */
static int bs_value(const struct opt_ctx *ctx, const char *item, uint64_t *v)
{
	const char *dash = strchr(item, '-');
	uint64_t hi;
	char lo[64];

	if (!dash || dash == item || (size_t)(dash - item) >= sizeof(lo))
		return value_parse_size(item, ctx->kb_base, v);
	snprintf(lo, sizeof(lo), "%.*s", (int)(dash - item), item);
	if (value_parse_size(dash + 1, ctx->kb_base, &hi) < 0)
		return -EINVAL;
	return value_parse_size(lo, ctx->kb_base, v);
}

static int bs_item(const struct opt_ctx *ctx, const char *item, struct job_desc *j, int dir,
		   char *why, size_t whylen)
{
	uint64_t v;

	if (bs_value(ctx, item, &v) < 0) {
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

int opt_bs_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		    size_t whylen)
{
	return opt_per_dir(ctx, val, dst, bs_item, why, whylen);
}

static int bsrange_item(const struct opt_ctx *ctx, const char *item, struct job_desc *j,
			int dir, char *why, size_t whylen)
{
	uint64_t lo, hi;
	int ret;

	ret = value_parse_size_range(item, ctx->kb_base, &lo, &hi);
	if (ret == -EDOM) {
		opt_range_reversed(item, why, whylen);
		return -EINVAL;
	}
	if (ret < 0 || lo == 0 || hi > (256u << 20)) {
		snprintf(why, whylen, "'%s' is not a block size range such as 4k-64k", item);
		return -EINVAL;
	}
	j->bs[dir].min = lo;
	j->bs[dir].max = hi;
	j->bs[dir].nsplit = 0;
	return 0;
}

int opt_bsrange_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			 size_t whylen)
{
	/* fio separates the directions of ranges with ',' and also accepts '/'. */
	char buf[512];

	snprintf(buf, sizeof(buf), "%s", val);
	for (char *p = buf; *p; p++)
		if (*p == '/')
			*p = ',';
	return opt_per_dir(ctx, buf, dst, bsrange_item, why, whylen);
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

int opt_bssplit_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			 size_t whylen)
{
	return opt_per_dir(ctx, val, dst, bssplit_item, why, whylen);
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

int opt_blockalign_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			    size_t whylen)
{
	return opt_per_dir(ctx, val, dst, blockalign_item, why, whylen);
}

/* One direction's rate: a size in bytes (or I/Os) per second, what says which. */
static int rate_value(const struct opt_ctx *ctx, const char *item, uint64_t *out,
		      const char *what, char *why, size_t whylen)
{
	if (value_parse_size(item, ctx->kb_base, out) < 0) {
		snprintf(why, whylen, "'%s' is not a rate in %s per second", item, what);
		return -EINVAL;
	}
	return 0;
}

static int rate_item(const struct opt_ctx *ctx, const char *item, struct job_desc *j, int dir,
		     char *why, size_t whylen)
{
	return rate_value(ctx, item, &j->rate[dir], "bytes", why, whylen);
}

int opt_rate_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		      size_t whylen)
{
	return opt_per_dir(ctx, val, dst, rate_item, why, whylen);
}

static int rate_iops_item(const struct opt_ctx *ctx, const char *item, struct job_desc *j,
			  int dir, char *why, size_t whylen)
{
	return rate_value(ctx, item, &j->rate_iops[dir], "I/Os", why, whylen);
}

int opt_rate_iops_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			   size_t whylen)
{
	return opt_per_dir(ctx, val, dst, rate_iops_item, why, whylen);
}

/* The numbers after a skewed distribution's name: "THETA" or "THETA:CENTER". */
static int dist_numbers(const char *param, double *p, double *center)
{
	char buf[64];
	char *colon;

	if (!param || strlen(param) >= sizeof(buf))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", param);
	colon = strchr(buf, ':');
	if (colon) {
		*colon++ = '\0';
		if (value_parse_double(colon, center) < 0 || *center < 0 || *center > 1)
			return -EINVAL;
	}
	return value_parse_double(buf, p);
}

/*
 * random_distribution=random | zipf:THETA[:C] | pareto:H[:C] | normal:DEV[:C] |
 * zoned:A/S:... | zoned_abs:A/SIZE:... (zones per direction, ',' between them)
 */
static int rate_min_item(const struct opt_ctx *ctx, const char *item, struct job_desc *j,
			 int dir, char *why, size_t whylen)
{
	return rate_value(ctx, item, &j->rate_min[dir], "bytes", why, whylen);
}

int opt_rate_min_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		       size_t whylen)
{
	return opt_per_dir(ctx, val, dst, rate_min_item, why, whylen);
}

static int rate_iops_min_item(const struct opt_ctx *ctx, const char *item, struct job_desc *j,
			      int dir, char *why, size_t whylen)
{
	return rate_value(ctx, item, &j->rate_iops_min[dir], "I/Os", why, whylen);
}

int opt_rate_iops_min_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			    size_t whylen)
{
	return opt_per_dir(ctx, val, dst, rate_iops_min_item, why, whylen);
}

/* random_distribution=random | zipf:THETA | pareto:H | normal:DEV */
/* sequence:I,J,...: fio HEAD's fixed order of block indices, 1 to 64 of them. */
static int sequence_parse(const struct opt_ctx *ctx, const char *param, struct job_desc *j,
			  char *why, size_t whylen)
{
	uint64_t v[DIST_SEQUENCE_MAX];
	unsigned n = 0;
	const char *p = param;

	while (p && *p) {
		char *end;

		if (n == DIST_SEQUENCE_MAX || !isdigit((unsigned char)*p))
			break;
		v[n++] = strtoull(p, &end, 10);
		p = *end == ',' && end[1] ? end + 1 : end;
		if (*end && *end != ',')
			break;
	}
	if (!n || (p && *p)) {
		snprintf(why, whylen, "'sequence:%s' takes 1 to %d block indices (0 or more), "
			 "',' between them, such as sequence:2,0,1", param ? param : "",
			 DIST_SEQUENCE_MAX);
		return -EINVAL;
	}
	j->dist_seq = arena_alloc(ctx->arena, sizeof(v[0]) * n);
	if (!j->dist_seq)
		return -ENOMEM;
	memcpy(j->dist_seq, v, sizeof(v[0]) * n);
	j->ndist_seq = n;
	return 0;
}

int opt_distribution_parse(const struct opt_ctx *ctx, const char *val, void *dst,
			      char *why, size_t whylen)
{
	static const struct opt_enum dists[] = {
		{ "random", DIST_RANDOM }, { "zipf", DIST_ZIPF }, { "pareto", DIST_PARETO },
		{ "normal", DIST_NORMAL }, { "zoned", DIST_ZONED }, { "zoned_abs", DIST_ZONED_ABS },
		{ "sequence", DIST_SEQUENCE }, { NULL },
	};
	struct job_desc *j = dst;
	char name[16];
	const char *param = split_param(val, name, sizeof(name));
	double p = 0, center = -1;
	int d, ret;

	if (enum_lookup(dists, name, &d) < 0) {
		snprintf(why, whylen, "'%s' is not one of random, zipf:THETA, pareto:H, "
			 "normal:DEV, zoned:A/S:..., zoned_abs:A/SIZE:..., sequence:I,J,...", val);
		return -EINVAL;
	}
	if (d == DIST_ZONED || d == DIST_ZONED_ABS) {
		if (!param || !*param) {
			snprintf(why, whylen, "'%s' needs its zones, such as zoned:60/10:40/90", val);
			return -EINVAL;
		}
		ret = opt_zoned_parse(ctx, param, d == DIST_ZONED_ABS, j, why, whylen);
		if (ret < 0)
			return ret;
	} else if (d == DIST_SEQUENCE) {
		ret = sequence_parse(ctx, param, j, why, whylen);
		if (ret < 0)
			return ret;
	} else if (d != DIST_RANDOM && (!param || !*param)) {
		/* fio's defaults for a bare name (validate.c notes them) */
		p = d == DIST_ZIPF ? DIST_ZIPF_DEFAULT : d == DIST_PARETO ? DIST_PARETO_DEFAULT :
		    DIST_NORMAL_DEFAULT;
	} else if (d != DIST_RANDOM &&
		   (dist_numbers(param, &p, &center) < 0 ||
		    (d == DIST_ZIPF && (p <= 0 || p == 1.0)) ||
		    (d == DIST_PARETO && (p <= 0 || p >= 1)) ||
		    (d == DIST_NORMAL && (p <= 0 || p >= 100)))) {
		snprintf(why, whylen, "'%s' needs a parameter: zipf:THETA (> 0, not 1), "
			 "pareto:H (0 < H < 1) or normal:DEV (percent, above 0, below 100), each with an "
			 "optional :CENTER (0 to 1)", val);
		return -EINVAL;
	}
	j->random_distribution = d;
	j->dist_param = p;
	j->dist_center = center;
	return 0;
}

/*
 * file_service_type=roundrobin|sequential|random[:N] | zipf[:THETA[:C]] | pareto[:H[:C]] |
 * normal|gauss[:DEV[:C]]: the skewed ones pick a file for each I/O, fio's defaults when
 * bare (a deviation of 0 is fio's bell alone, as a bare normal).
 */
int opt_file_service_parse(const struct opt_ctx *ctx, const char *val, void *dst,
			      char *why, size_t whylen)
{
	static const struct opt_enum kinds[] = {
		{ "roundrobin", FSRV_ROUNDROBIN }, { "sequential", FSRV_SEQUENTIAL },
		{ "random", FSRV_RANDOM }, { "zipf", FSRV_ZIPF }, { "pareto", FSRV_PARETO },
		{ "normal", FSRV_NORMAL }, { "gauss", FSRV_NORMAL }, { NULL },
	};
	struct job_desc *j = dst;
	char name[16];
	const char *param = split_param(val, name, sizeof(name));
	uint64_t nr = 1;
	double p, center = -1;
	int k;

	(void)ctx;
	if (enum_lookup(kinds, name, &k) < 0) {
		snprintf(why, whylen, "'%s' is not one of roundrobin, sequential, random (with "
			 ":N), zipf, pareto, normal or gauss (with :PARAM[:CENTER])", val);
		return -EINVAL;
	}
	p = k == FSRV_ZIPF ? DIST_ZIPF_DEFAULT : k == FSRV_PARETO ? DIST_PARETO_DEFAULT :
	    DIST_NORMAL_DEFAULT;
	if (k >= FSRV_ZIPF && param && *param &&
	    (dist_numbers(param, &p, &center) < 0 ||
	     (k == FSRV_ZIPF && (p <= 0 || p == 1.0)) ||
	     (k == FSRV_PARETO && (p <= 0 || p >= 1)) ||
	     (k == FSRV_NORMAL && (p < 0 || p >= 100)))) {
		snprintf(why, whylen, "'%s': zipf:THETA (> 0, not 1), pareto:H (0 < H < 1) or "
			 "normal:DEV (percent, 0 to below 100), each with an optional :CENTER "
			 "(0 to 1)", val);
		return -EINVAL;
	}
	if (k < FSRV_ZIPF && param && parse_count_suffix(param, &nr, why, whylen) < 0)
		return -EINVAL;
	j->file_service = k;
	j->file_service_nr = (unsigned)nr;
	j->file_service_param = k == FSRV_NORMAL && p == 0 ? DIST_NORMAL_DEFAULT : p;
	j->file_service_center = center;
	return 0;
}

/* percentile_list=1:5:50:99.9, at most 20 values in (0, 100]. */
int opt_percentiles_parse(const struct opt_ctx *ctx, const char *val, void *dst,
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

/*
 * lat_over=2s,10s: count the I/Os whose latency reaches each limit (tiobench's "Lat% >2s").
 * At most 4, in µs without a unit as fio's latency options are, ascending.
 */
int opt_lat_over_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		       size_t whylen)
{
	struct job_desc *j = dst;
	uint64_t v[JOB_MAX_LAT_OVER];
	char **f;
	int n, i, bad = 0;

	(void)ctx;
	n = value_split(val, ',', &f);
	if (n < 0)
		return n;
	for (i = 0; i < n && !bad; i++)
		bad = i >= JOB_MAX_LAT_OVER || value_parse_time(f[i], NS_PER_USEC, &v[i]) < 0 || !v[i] ||
		      (i && v[i] <= v[i - 1]);
	value_split_free(f, n);
	if (bad) {
		snprintf(why, whylen, "'%s' is not a list of at most %d ascending times above 0 "
			 "such as 2s,10s", val, JOB_MAX_LAT_OVER);
		return -EINVAL;
	}
	memcpy(j->lat_over_ns, v, sizeof(v[0]) * n);
	j->nlat_over = (unsigned)n;
	return 0;
}

/* buffer_pattern= and verify_pattern=: every form of fio's (opt_buffers.c's pattern_parse) */
int opt_pattern_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		      size_t whylen)
{
	struct job_desc *j = dst;

	return pattern_parse(ctx, val, &j->buffer_pattern, &j->buffer_pattern_len, why, whylen);
}

int opt_verify_pattern_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			     size_t whylen)
{
	struct job_desc *j = dst;

	return pattern_parse_fmt(ctx, val, &j->verify_pattern, &j->verify_pattern_len,
				 &j->verify_pattern_fmt, why, whylen);
}

int opt_kb_base_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
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
