/*
 * Parsers of the options the option table marks CUSTOM: each turns one option's text into
 * the fields of struct job_desc it sets, with opt_def.parse's contract.
 */
#ifndef JOBS_OPT_CUSTOM_H
#define JOBS_OPT_CUSTOM_H

#include <stddef.h>

#include "jobs/options.h"

struct job_desc;

/*
 * Per-direction lists "r,w,t" (bs=, max_latency=, percentage_random=, ...): one value
 * applies to every direction, two set reads and writes (trims follow writes), an empty
 * field keeps that direction as it was. fn parses one item into direction dir of j.
 */
typedef int (*dir_item_fn)(const struct opt_ctx *ctx, const char *item, struct job_desc *j,
			   int dir, char *why, size_t whylen);
int opt_per_dir(const struct opt_ctx *ctx, const char *val, struct job_desc *j,
		dir_item_fn fn, char *why, size_t whylen);

/* The access patterns of rw= and their help. */
extern const struct opt_enum rw_vals[];

int opt_rw_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why, size_t whylen);
int opt_rwmixwrite_parse(const struct opt_ctx *ctx, const char *val,
		   void *dst, char *why, size_t whylen);
int opt_bs_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why, size_t whylen);
int opt_bsrange_parse(const struct opt_ctx *ctx, const char *val,
		   void *dst, char *why, size_t whylen);
int opt_bssplit_parse(const struct opt_ctx *ctx, const char *val,
		   void *dst, char *why, size_t whylen);
int opt_blockalign_parse(const struct opt_ctx *ctx, const char *val,
		   void *dst, char *why, size_t whylen);
int opt_rate_parse(const struct opt_ctx *ctx, const char *val,
		   void *dst, char *why, size_t whylen);
int opt_rate_iops_parse(const struct opt_ctx *ctx, const char *val,
		   void *dst, char *why, size_t whylen);
int opt_rate_min_parse(const struct opt_ctx *ctx, const char *val,
		   void *dst, char *why, size_t whylen);
int opt_rate_iops_min_parse(const struct opt_ctx *ctx, const char *val,
		   void *dst, char *why, size_t whylen);
int opt_distribution_parse(const struct opt_ctx *ctx, const char *val,
		   void *dst, char *why, size_t whylen);
int opt_file_service_parse(const struct opt_ctx *ctx, const char *val,
		   void *dst, char *why, size_t whylen);
int opt_lat_over_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		       size_t whylen);
int opt_percentiles_parse(const struct opt_ctx *ctx, const char *val,
		   void *dst, char *why, size_t whylen);
int opt_pattern_parse(const struct opt_ctx *ctx, const char *val,
		   void *dst, char *why, size_t whylen);
int opt_kb_base_parse(const struct opt_ctx *ctx, const char *val,
		   void *dst, char *why, size_t whylen);
int opt_verify_pattern_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			     size_t whylen);

#endif
