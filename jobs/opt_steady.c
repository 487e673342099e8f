/* steadystate=CRITERION:LIMIT, read as fio 3.33 reads it, with fio HEAD's lat criteria. */
#include "jobs/opt_steady.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "jobs/jobs.h"
#include "base/diag.h"
#include "parser/value.h"
#include "base/units.h"

static const struct {
	const char *name;
	unsigned flags;
} criteria[] = {
	{ "iops", SS_IOPS },
	{ "iops_slope", SS_IOPS | SS_SLOPE },
	{ "bw", SS_BW },
	{ "bw_slope", SS_BW | SS_SLOPE },
	{ "lat", SS_LAT },		/* fio HEAD's: the interval's mean completion latency */
	{ "lat_slope", SS_LAT | SS_SLOPE },
};

/* The criterion's flags by its name, as fio matches it (case matters); 0 when unknown. */
static unsigned criterion_flags(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(criteria); i++)
		if (strlen(criteria[i].name) == len && !strncmp(criteria[i].name, name, len))
			return criteria[i].flags;
	return 0;
}

/* "N%" (or bench-fio's "N%%"): N into *pct; -EINVAL when something else follows. */
static int parse_percent(const char *limit, const char *sign, double *pct)
{
	char num[64];
	const char *p = sign;

	while (*p == '%')
		p++;
	while (isspace((unsigned char)*p))
		p++;
	if (*p || (size_t)(sign - limit) >= sizeof(num))
		return -EINVAL;
	snprintf(num, sizeof(num), "%.*s", (int)(sign - limit), limit);
	return value_parse_double(num, pct);
}

static int parse_limit(const struct opt_ctx *ctx, const char *limit, unsigned *flags,
		       double *out, char *why, size_t whylen)
{
	const char *sign = strchr(limit, '%');
	uint64_t bytes;

	if (sign) {
		if (parse_percent(limit, sign, out) < 0) {
			snprintf(why, whylen, "limit '%s' is not a percentage (such as 0.1%%)", limit);
			return -EINVAL;
		}
		*flags |= SS_PCT;
	} else if (*flags & SS_LAT) {
		uint64_t ns;

		if (value_parse_time(limit, NS_PER_USEC, &ns) < 0) {
			snprintf(why, whylen, "limit '%s' is not a latency (such as 50us, 2ms; "
				 "microseconds without a unit) or a percentage", limit);
			return -EINVAL;
		}
		/*
		 * fio HEAD keeps the time in microseconds and compares that number with
		 * the window's latencies in ns (lat:1ms allows 1000 ns, as its JSON's
		 * "lat:1000.000000" says): the same limit judges the same here.
		 */
		*out = (double)(ns / NS_PER_USEC);
	} else if (*flags & SS_IOPS) {
		if (value_parse_double(limit, out) < 0) {
			snprintf(why, whylen, "limit '%s' is not a number of IOPS or a percentage",
				 limit);
			return -EINVAL;
		}
	} else {
		if (value_parse_size(limit, ctx->kb_base, &bytes) < 0) {
			snprintf(why, whylen, "limit '%s' is not a bandwidth (bytes/s, such as 10m) "
				 "or a percentage", limit);
			return -EINVAL;
		}
		*out = (double)bytes;
	}
	if (*out < 0) {
		snprintf(why, whylen, "limit '%s' is negative: nothing is ever below it", limit);
		return -EINVAL;
	}
	return 0;
}

int opt_steadystate_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			  size_t whylen)
{
	struct job_desc *j = dst;
	const char *colon = strchr(val, ':');
	size_t len = colon ? (size_t)(colon - val) : strlen(val);
	unsigned flags = criterion_flags(val, len);
	double limit;

	if (!flags) {
		snprintf(why, whylen, "'%.*s' is not a criterion: one of iops, iops_slope, bw, "
			 "bw_slope, lat, lat_slope, then ':' and the limit", (int)len, val);
		return -EINVAL;
	}
	if (!colon) {
		snprintf(why, whylen, "'%s' has no limit: write %s:LIMIT (such as %s:0.1%%)", val,
			 val, val);
		return -EINVAL;
	}
	if (parse_limit(ctx, colon + 1, &flags, &limit, why, whylen) < 0)
		return -EINVAL;
	j->ss_flags = flags;
	j->ss_limit = limit;
	return 0;
}

int job_check_steady(struct job_desc *j, struct diag *d)
{
	uint64_t whole = j->ss_dur_ns / NS_PER_SEC * NS_PER_SEC;

	if (!j->ss_dur_ns)
		return 0;
	if (!whole)
		return job_fail_opt(j, "steadystate_duration", d, "%llu ms is under a second: "
				    "steady state takes a sample a second",
				    (unsigned long long)(j->ss_dur_ns / NS_PER_MSEC));
	if (!j->ss_interval_ns || whole / j->ss_interval_ns == 0)
		return job_fail_opt(j, "steadystate_check_interval", d, "a sample every %llu ms "
				    "takes none in a window of %llu s", (unsigned long long)
				    (j->ss_interval_ns / NS_PER_MSEC),
				    (unsigned long long)(whole / NS_PER_SEC));
	if (whole / j->ss_interval_ns < 2 && (j->ss_flags & SS_SLOPE))
		return job_fail_opt(j, "steadystate_duration", d, "a slope needs two samples or "
				    "more: a window of two steadystate_check_interval (2 s by "
				    "default) or longer, or a steadystate criterion without _slope "
				    "(the default is iops_slope)");
	if (whole != j->ss_dur_ns)
		diag_note(d, "job '%s': steadystate_duration of %llu ms is cut to %llu s, as fio "
			  "cuts it: the window holds a sample a second", j->name,
			  (unsigned long long)(j->ss_dur_ns / NS_PER_MSEC),
			  (unsigned long long)(whole / NS_PER_SEC));
	j->ss_dur_ns = whole;
	return 0;
}

/* The first steady-state option in which a and b differ, NULL when none does. */
static const char *steady_difference(const struct job_desc *a, const struct job_desc *b)
{
	if (a->ss_dur_ns != b->ss_dur_ns)
		return "steadystate_duration";
	if (a->ss_dur_ns && (a->ss_flags != b->ss_flags || a->ss_limit != b->ss_limit))
		return "steadystate";
	if (a->ss_dur_ns && a->ss_ramp_ns != b->ss_ramp_ns)
		return "steadystate_ramp_time";
	return NULL;
}

int job_check_steady_group(const struct job_list *before, const struct job_desc *j,
			   int nranks, struct diag *d)
{
	if (j->ss_dur_ns && nranks > 1)
		return job_fail_opt(j, "steadystate_duration", d, "not under MPI with %d ranks: "
				    "each rank would judge its own I/O alone (run it on one rank)",
				    nranks);
	/*
	 * A group's jobs are built one after another, each checked against the one before
	 * it: the last job built stands for the whole group (65,536 jobs, one comparison
	 * each, not one per job before).
	 */
	const struct job_desc *o = before->njobs ? &before->jobs[before->njobs - 1] : NULL;
	const char *opt;

	if (!o || o->groupid != j->groupid || !(opt = steady_difference(o, j)))
		return 0;
	return job_fail_opt(j, opt, d, "differs from job '%s', in the same reporting "
			    "group: as fio, every job of a group takes the same steady "
			    "state options (a stonewall or new_group starts a group)", o->name);
}
