/*
 * Parsers of the job control options that are not plain values: ignore_error's lists of
 * errnos per error type, max_latency's times per direction and latency_percentile's
 * fraction (opt_def.parse's contract).
 */
#ifndef JOBS_OPT_CONTROL_H
#define JOBS_OPT_CONTROL_H

#include <stddef.h>

#include "jobs/options.h"

/* ignore_error=READ,WRITE,VERIFY: each a ':'-separated list of errno names or numbers. */
int opt_ignore_error_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			   size_t whylen);

/* max_latency=TIME[,TIME[,TIME]]: per read, write, trim, µs without a unit. */
int opt_max_latency_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			  size_t whylen);

/* latency_percentile=P: a percentage, 0 to 100, fractions allowed (99.9). */
int opt_latency_pct_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			  size_t whylen);

#endif
