/*
 * Parsers of the job control options that are not plain values: ignore_error's lists of
 * errnos per error type and max_latency's times per direction (opt_def.parse's contract).
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

#endif
