/*
 * Parsers of the offset and size options that are not plain values: percentage_random,
 * io_size and zoneskip with their percent and zone forms, and random_distribution's
 * zoned and zoned_abs tables.
 */
#include "jobs/opt_offsets.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "jobs/opt_custom.h"
#include "parser/value.h"

int opt_parse_zones(const char *val, unsigned *zones)
{
	size_t len = strlen(val);
	char num[32];
	long long v;

	if (!len || val[len - 1] != 'z')
		return 0;
	if (len >= sizeof(num))
		return -EINVAL;
	memcpy(num, val, len - 1);
	num[len - 1] = '\0';
	if (value_parse_int(num, &v) < 0 || v < 0 || v > UINT32_MAX)
		return -EINVAL;
	*zones = (unsigned)v;
	return 1;
}

/* io_size=SIZE | N% (of each file's region, at most 100) | Nz (zones of zonesize) */
int opt_io_size_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		      size_t whylen)
{
	struct job_desc *j = dst;
	uint64_t bytes;
	double pct;
	int z;

	j->io_size = 0;
	j->io_size_pct = 0;
	j->io_size_zones = 0;
	z = opt_parse_zones(val, &j->io_size_zones);
	if (z > 0)
		return 0;
	if (z == 0 && value_parse_size_pct(val, ctx->kb_base, &bytes, &pct) == 0) {
		if (pct > 100 || (pct > 0 && pct < 1)) {
			snprintf(why, whylen, "'%s' is above 100%% or below 1%%: fio takes whole "
				 "percentages up to 100", val);
			return -ERANGE;
		}
		j->io_size = bytes;
		j->io_size_pct = (unsigned)pct;
		return 0;
	}
	if (z == 0 && *val && val[strlen(val) - 1] == '%') {
		snprintf(why, whylen, "'%s' is not a percentage from 1 to 100 (fio takes no more)",
			 val);
		return -ERANGE;
	}
	opt_size_error(val, "a size, a percentage or a number of zones (4z)", why, whylen);
	return -EINVAL;
}

/* zoneskip=SIZE | Nz */
int opt_zoneskip_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		       size_t whylen)
{
	struct job_desc *j = dst;
	int z;

	j->zone_skip = 0;
	j->zone_skip_zones = 0;
	z = opt_parse_zones(val, &j->zone_skip_zones);
	if (z > 0)
		return 0;
	if (z == 0 && value_parse_size(val, ctx->kb_base, &j->zone_skip) == 0)
		return 0;
	opt_size_error(val, "a size or a number of zones (2z)", why, whylen);
	return -EINVAL;
}

static int zone_fraction(const char *val, double *out, char *why, size_t whylen)
{
	double v;

	if (value_parse_double(val, &v) < 0 || v < 0 || v > 1) {
		snprintf(why, whylen, "'%s' is not a fraction from 0 to 1", val);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int opt_zone_threshold_parse(const struct opt_ctx *ctx, const char *val, void *dst,
			     char *why, size_t whylen)
{
	(void)ctx;
	return zone_fraction(val, &((struct job_desc *)dst)->zone_reset_threshold, why, whylen);
}

int opt_zone_frequency_parse(const struct opt_ctx *ctx, const char *val, void *dst,
			     char *why, size_t whylen)
{
	(void)ctx;
	return zone_fraction(val, &((struct job_desc *)dst)->zone_reset_frequency, why, whylen);
}

int opt_spr_op_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		     size_t whylen)
{
	double v;

	(void)ctx;
	if (value_parse_double(val, &v) < 0 || v <= 0 || v >= 1) {
		snprintf(why, whylen, "'%s' is not a ratio above 0 and below 1", val);
		return -EINVAL;
	}
	((struct job_desc *)dst)->spr_op = v;
	return 0;
}

/* One direction of percentage_random: a whole percentage. */
static int perc_random_item(const struct opt_ctx *ctx, const char *item, struct job_desc *j,
			    int dir, char *why, size_t whylen)
{
	long long v;

	(void)ctx;
	if (value_parse_int(item, &v) < 0 || v < 0 || v > 100) {
		snprintf(why, whylen, "'%s' is not a percentage (0 to 100)", item);
		return -EINVAL;
	}
	j->percentage_random[dir] = (unsigned)v;
	return 0;
}

/* percentage_random=R[,W[,T]]: one value for all, trims following writes, as bs= does. */
int opt_perc_random_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			  size_t whylen)
{
	return opt_per_dir(ctx, val, dst, perc_random_item, why, whylen);
}

#define ZONE_SIZE_MISSING	UINT_MAX

/* One zone, "ACCESS/SIZE": percentages (zoned) or a percentage and bytes (zoned_abs). */
static int zone_item(const struct opt_ctx *ctx, char *item, bool absolute,
		     struct dist_zone *z)
{
	char *slash = strchr(item, '/');
	long long a, s = 0;

	if (!slash)
		return -EINVAL;
	*slash++ = '\0';
	if (value_parse_int(item, &a) < 0 || a < 0 || a > 100)
		return -EINVAL;
	z->access_pct = (unsigned)a;
	if (absolute)
		return value_parse_size(slash, ctx->kb_base, &z->size_bytes) < 0 ||
		       !z->size_bytes ? -EINVAL : 0;
	if (!*slash) {		/* "20/": a share of what the other zones leave, as in fio */
		z->size_pct = ZONE_SIZE_MISSING;
		return 0;
	}
	if (value_parse_int(slash, &s) < 0 || s < 0 || s > 100)
		return -EINVAL;
	z->size_pct = (unsigned)s;
	return 0;
}

/*
 * One direction's zones, "60/10:30/20:10/70". As in fio the access percentages add up to
 * 100 and zoned's sizes to at most 100 (the rest of the region is never drawn).
 */
static int zones_dir(const struct opt_ctx *ctx, const char *spec, bool absolute,
		     struct job_desc *j, int dir, char *why, size_t whylen)
{
	unsigned access = 0, size = 0, missing = 0;
	struct dist_zone *z;
	char **f;
	int n, i, ret = 0;

	n = value_split(spec, ':', &f);
	if (n < 0)
		return n;
	if (n > OPT_MAX_DIST_ZONES) {
		value_split_free(f, n);
		snprintf(why, whylen, "more than %d zones", OPT_MAX_DIST_ZONES);
		return -EINVAL;
	}
	z = arena_alloc(ctx->arena, sizeof(*z) * (size_t)n);
	if (!z) {
		value_split_free(f, n);
		return -ENOMEM;
	}
	for (i = 0; !ret && i < n; i++) {
		memset(&z[i], 0, sizeof(z[i]));
		ret = zone_item(ctx, f[i], absolute, &z[i]);
		access += z[i].access_pct;
		if (z[i].size_pct == ZONE_SIZE_MISSING)
			missing++;
		else
			size += z[i].size_pct;
	}
	value_split_free(f, n);
	if (ret) {
		snprintf(why, whylen, "'%s' is not a list of %s such as %s", spec,
			 absolute ? "access%/size" : "access%/size%",
			 absolute ? "60/1g:40/3g" : "60/10:30/20:10/70");
		return -EINVAL;
	}
	if (access != 100 || size > 100) {
		snprintf(why, whylen, "in '%s' the access percentages add up to %u (not 100)%s",
			 spec, access, size > 100 ? " and the sizes to more than 100%" : "");
		return -EINVAL;
	}
	for (i = 0; missing && i < n; i++)
		if (z[i].size_pct == ZONE_SIZE_MISSING)
			z[i].size_pct = (100 - size) / missing;
	j->dist_zones[dir] = z;
	j->ndist_zones[dir] = (unsigned)n;
	return 0;
}

int opt_zoned_parse(const struct opt_ctx *ctx, const char *spec, bool absolute,
		    struct job_desc *j, char *why, size_t whylen)
{
	char **f;
	int n, ret = 0;

	n = value_split(spec, ',', &f);
	if (n < 0)
		return n;
	if (n > IO_NDIR) {
		snprintf(why, whylen, "'%s' has more than 3 zone lists (read,write,trim)", spec);
		ret = -EINVAL;
	}
	for (int d = 0; d < IO_NDIR; d++) {
		j->dist_zones[d] = NULL;
		j->ndist_zones[d] = 0;
	}
	/* one list applies to every direction; an empty one leaves the direction uniform */
	for (int d = 0; !ret && d < IO_NDIR; d++) {
		const char *item = d < n ? f[d] : f[n - 1];

		if (*item)
			ret = zones_dir(ctx, item, absolute, j, d, why, whylen);
	}
	value_split_free(f, n);
	return ret;
}
