/* Parsers of replay_skip= and of merge_blktrace_scalars= and merge_blktrace_iters=. */
#include "jobs/opt_replay.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "jobs/replay_log.h"
#include "parser/value.h"

int opt_replay_skip_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			  size_t whylen)
{
	static const struct { const char *name; unsigned bit; } kinds[] = {
		{ "read", 1u << IO_READ }, { "write", 1u << IO_WRITE },
		{ "trim", 1u << IO_TRIM }, { "sync", 1u << REPLAY_FSYNC },
	};
	struct job_desc *j = dst;
	unsigned skip = 0;
	char **f;
	int n;

	(void)ctx;
	n = value_split(val, ',', &f);
	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		size_t k;

		for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
			if (!strcmp(f[i], kinds[k].name))
				break;
		if (k == sizeof(kinds) / sizeof(kinds[0])) {
			snprintf(why, whylen, "'%s' is not one of read, write, trim, sync (a "
				 "comma-separated list of them)", f[i]);
			value_split_free(f, n);
			return -EINVAL;
		}
		skip |= kinds[k].bit;
	}
	value_split_free(f, n);
	j->replay_skip = skip;
	return 0;
}

/* A ':'-separated list of positive numbers, as fio's float lists (each taken whole). */
static int parse_counts(const char *val, unsigned *out, unsigned *nout, const char *what,
			const char *example, char *why, size_t whylen)
{
	char **f;
	int n;

	n = value_split(val, ':', &f);
	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		double v;

		if (i >= JOB_MAX_MERGE || value_parse_double(f[i], &v) < 0 || v < 1 ||
		    v > 1e9) {
			snprintf(why, whylen, "'%s' is not a list of at most %d %s such as %s, "
				 "one per trace of read_iolog", val, JOB_MAX_MERGE, what, example);
			value_split_free(f, n);
			return -EINVAL;
		}
		out[i] = (unsigned)v;
	}
	value_split_free(f, n);
	*nout = (unsigned)n;
	return 0;
}

int opt_merge_scalars_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			    size_t whylen)
{
	struct job_desc *j = dst;

	(void)ctx;
	return parse_counts(val, j->merge_scalars, &j->nmerge_scalars,
			    "percentages (1 or more)", "50:100", why, whylen);
}

int opt_merge_iters_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			  size_t whylen)
{
	struct job_desc *j = dst;

	(void)ctx;
	return parse_counts(val, j->merge_iters, &j->nmerge_iters, "pass counts (1 or more)",
			    "2:1", why, whylen);
}
