/*
 * Parsers of the replay options that are not plain values: replay_skip's directions and
 * merge_blktrace_scalars' and merge_blktrace_iters' lists (opt_def.parse's contract).
 */
#ifndef JOBS_OPT_REPLAY_H
#define JOBS_OPT_REPLAY_H

#include <stddef.h>

#include "jobs/options.h"

/* replay_skip=read,write,trim,sync: the kinds of entries a replay leaves out. */
int opt_replay_skip_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			  size_t whylen);

/* merge_blktrace_scalars=50:100: percent of each trace's time, one per read_iolog trace. */
int opt_merge_scalars_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			    size_t whylen);

/* merge_blktrace_iters=2:1: passes over each trace, one per read_iolog trace. */
int opt_merge_iters_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			  size_t whylen);

#endif
