/*
 * Parsers of the offset and size options with fio's extra forms (percentages, zone counts,
 * per-direction zone tables), with opt_def.parse's contract.
 */
#ifndef JOBS_OPT_OFFSETS_H
#define JOBS_OPT_OFFSETS_H

#include <stdbool.h>
#include <stddef.h>

#include "jobs/options.h"

#define OPT_MAX_DIST_ZONES	256	/* fio's limit of random_distribution's zones */

/*
 * "N" followed by 'z': a count of zones (fio's FIO_OPT_STR_VAL_ZONE). Returns 1 and sets
 * *zones when val has that form, 0 when it does not, -EINVAL when the count is bad.
 */
int opt_parse_zones(const char *val, unsigned *zones);

int opt_io_size_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		      size_t whylen);
int opt_zoneskip_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		       size_t whylen);
/* zone_reset_threshold and zone_reset_frequency: a fraction, 0 to 1, as fio's float. */
int opt_zone_threshold_parse(const struct opt_ctx *ctx, const char *val, void *dst,
			     char *why, size_t whylen);
int opt_zone_frequency_parse(const struct opt_ctx *ctx, const char *val, void *dst,
			     char *why, size_t whylen);
/* spr_op: an over-provisioning ratio, above 0 and below 1. */
int opt_spr_op_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		     size_t whylen);
int opt_perc_random_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			  size_t whylen);

/*
 * The zone lists of random_distribution=zoned:SPEC or zoned_abs:SPEC (SPEC is what follows
 * the ':'), per direction, into j's dist_zones.
 */
int opt_zoned_parse(const struct opt_ctx *ctx, const char *spec, bool absolute,
		    struct job_desc *j, char *why, size_t whylen);

#endif
