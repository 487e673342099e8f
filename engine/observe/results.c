/* A finished run as the reporters see it: one unit per job, or per group when grouped. */
#include "engine/engine.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "base/grow.h"

/* JSON consumers (fio-plot) skip results without these, so they are always written. */
static const char *const always_shown[] = { "rw", "bs", "iodepth", "numjobs" };

/*
 * What the job ran with for one of those: the text [global], --set or --sweep gave, as fio
 * echoes options as written ("4k", not "4096"), else the default; rw in fio's words.
 */
static const char *effective(const struct job_desc *j, const char *name, char *buf, size_t len)
{
	const char *given = job_setting(j, name);

	/* rw: fio's name for the pattern unless that is what was written (not sysbench's) */
	if (!strcmp(name, "rw"))
		return given && !strncmp(given, rw_name(j->rw), strlen(rw_name(j->rw))) ?
		       given : rw_name(j->rw);
	if (given)
		return given;
	if (!strcmp(name, "bs"))
		snprintf(buf, len, "%llu", (unsigned long long)j->bs[IO_READ].min);
	else if (!strcmp(name, "iodepth"))
		snprintf(buf, len, "%u", j->iodepth);
	else
		snprintf(buf, len, "%u", j->numjobs);
	return buf;
}

static int find_name(const struct run_report *out, unsigned at, unsigned n, const char *name)
{
	for (unsigned k = 0; k < n; k++)
		if (!strcmp(out->names[at + k], name))
			return (int)k;
	return -1;
}

/* Keep a string the report points to until run_report_free(). */
static const char *own(struct run_report *out, char *s)
{
	if (!s)
		return NULL;
	if (GROW_FOR(out->owned, out->owned_cap, out->nowned) < 0) {
		free(s);
		return NULL;
	}
	out->owned[out->nowned++] = s;
	return s;
}

/* Whether a --set or --sweep value after setting i replaces it (they come last). */
static bool overridden(const struct job_desc *j, unsigned i)
{
	for (unsigned k = i + 1; k < j->nsettings; k++)
		if (j->settings[k].global && !strcmp(j->settings[k].name, j->settings[i].name))
			return true;
	return false;
}

/*
 * A job's settings from its own section (or from [global], --set and the command line's
 * defaults), one entry per option as JSON wants: the last value wins, except for
 * filename=, which accumulates and so lists every value, ':'-joined.
 * A section's value that --set or --sweep replaced is left out, so that "global options"
 * overlaid with "job options" (the job's winning, as fio's readers do) is what ran.
 */
static unsigned add_settings(struct run_report *out, unsigned at, const struct job_desc *j,
			     bool global)
{
	unsigned n = 0;

	for (unsigned i = 0; i < j->nsettings; i++) {
		const struct job_setting *s = &j->settings[i];
		int k;

		if (s->global != global || (!global && overridden(j, i)) || s->bare)
			continue;
		k = find_name(out, at, n, s->name);
		if (k < 0) {
			out->names[at + n] = s->name;
			out->values[at + n++] = s->value;
		} else if (!strcmp(s->name, "filename")) {
			char *joined;

			if (asprintf(&joined, "%s:%s", out->values[at + k], s->value) >= 0)
				out->values[at + k] = own(out, joined);
		} else {
			out->values[at + k] = s->value;
		}
	}
	return n;
}

/*
 * The unit's "job options", as fio writes them: what its section set with a value (a bare
 * flag is left out, and the section's name is no option: --name= and name= are); then, for
 * iojob's own "iojob"."options" (the result sets' keys), the four below as they ran.
 */
static unsigned add_options(struct run_report *out, unsigned at, const struct job_desc *j,
			    char (*scratch)[32], unsigned *nset)
{
	unsigned n = add_settings(out, at, j, false);

	*nset = n;
	for (unsigned k = 0; k < 4; k++) {
		out->names[at + n] = always_shown[k];
		out->values[at + n] = effective(j, always_shown[k], scratch[k], sizeof(scratch[k]));
		n++;
	}
	return n;
}

/* The run's results, or what --status-interval took of them while the jobs ran. */
struct sources {
	const struct job_result *results;
	const struct phase_usage *phases;
};

/* The "latency" line: as fio, a group's is its last job's. */
static void lat_fill(struct report_unit *u, const struct job_desc *j,
		     const struct job_result *res)
{
	u->depth = res->lat_depth ? res->lat_depth : j->iodepth;
	u->lat_target_ns = j->lat_target_ns;
	u->lat_window_ns = j->lat_window_ns;
	u->lat_percentile = j->lat_percentile;
}

/*
 * steadystate's window of a unit of jobs i..i+n-1: under group_reporting the last job
 * that kept one has the group's, as fio reports it (in --status-interval's reports too:
 * the window as it stands, status_report.c).
 */
static const struct report_ss *unit_ss(const struct sources *src, unsigned i, unsigned n)
{
	for (unsigned k = i + n; k > i; k--)
		if (src->results[k - 1].ss)
			return src->results[k - 1].ss;
	return NULL;
}

static void fill_unit(struct report_unit *u, const struct run *r, const struct sources *src,
		      unsigned i, const struct job_stats *st)
{
	const struct job_desc *j = &r->jobs->jobs[i];
	const struct job_result *res = &src->results[i];
	const struct phase_usage *pu = &src->phases[j->phase];

	u->name = j->name;
	u->desc = j->description;
	u->groupid = j->groupid;
	u->members = r->ranks > 1 ? r->ranks : 1;	/* an MPI job runs once per rank */
	u->tid = res->tid;
	u->has_job_start = job_setting(j, "job_start_clock_id");
	u->job_start_ms = res->job_start_ms;
	u->error = res->error;
	u->error_msg = res->error ? res->error_msg : NULL;
	/*
	 * An error continue_on_error went on past is still the job's in fio's report (err=28
	 * and JSON "error": 28 for a write to a full disk that ignore_error lets through),
	 * though the job ran to its end and the exit status stays 0.
	 */
	if (!u->error && j->continue_on_error && st->first_error)
		u->error = st->first_error;
	u->has_slat = res->has_slat;
	u->clat_percentiles = j->clat_percentiles;
	u->lat_percentiles = j->lat_percentiles;
	u->slat_percentiles = j->slat_percentiles;
	u->pct = j->percentile_list;
	u->npct = j->npercentiles;
	u->kb_base = j->kb_base;
	u->sig_figs = j->sig_figs;
	u->unit_bits = j->unit_base == UNIT_BASE_BITS;
	u->unified = (enum report_unified)j->unified_rw_reporting;
	lat_fill(u, j, res);
	u->continue_on_error = j->continue_on_error != ERRC_NONE;
	/* fio HEAD counts them for zbd jobs that write or trim */
	if (j->zonemode == ZONE_ZBD && rw_does(j->rw, IO_WRITE))
		u->zone_resets_on = "write";
	else if (j->zonemode == ZONE_ZBD && rw_does(j->rw, IO_TRIM))
		u->zone_resets_on = "trim";
	u->st = st;
	u->pass = j->pass;
	u->passes = j->passes;
	u->lat_over_ns = j->lat_over_ns;
	u->nlat_over = j->nlat_over;
	u->phase_wall_ns = pu->wall_ns;
	u->phase_usr_ns = pu->usr_ns;
	u->phase_sys_ns = pu->sys_ns;
	u->block_info = res->blocks;
	u->nblock_info = res->nblocks;
}

/*
 * Merge the jobs of the group that starts at job i (which has stats); returns how many
 * jobs it spans. stats=0 jobs among them are left out of the merge and of jobs=N, as fio.
 */
static unsigned merge_group(const struct run *r, const struct sources *src, unsigned i,
			    struct report_unit *u, struct job_stats **merged)
{
	const struct job_list *jobs = r->jobs;
	struct job_stats *st = calloc(1, sizeof(*st));
	unsigned n = 0, members = 0;

	if (!st)
		return 0;
	stats_init_zeroed(st);
	fill_unit(u, r, src, i, st);
	/* A job without group_reporting is a unit of its own, as in fio. */
	for (unsigned k = i; k < jobs->njobs && jobs->jobs[k].groupid == jobs->jobs[i].groupid &&
	     jobs->jobs[k].group_reporting; k++, n++) {
		if (!jobs->jobs[k].stats)
			continue;
		members++;
		stats_merge(st, src->results[k].st);
		lat_fill(u, &jobs->jobs[k], &src->results[k]);
		if (!u->error && src->results[k].error) {
			u->error = src->results[k].error;
			u->error_msg = src->results[k].error_msg;
		}
	}
	u->members = members * (r->ranks > 1 ? r->ranks : 1);
	u->ss = unit_ss(src, i, n);
	*merged = st;
	return n;
}

int run_build_report(const struct run *r, struct run_report *out)
{
	int ret = run_build_report_of(r, r->results, r->phases, out);

	out->rep.time = r->end_time;
	out->rep.time_ms = r->end_ms;
	out->rep.disks = r->disks.n ? &r->disks : NULL;
	return ret;
}

int run_build_report_of(const struct run *r, const struct job_result *results,
			const struct phase_usage *phases, struct run_report *out)
{
	const struct sources src = { results, phases };
	const struct job_list *jobs = r->jobs;
	unsigned nopts = 0, at = 0, nu = 0;

	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < jobs->njobs; i++)
		nopts += jobs->jobs[i].nsettings + 4;
	nopts += jobs->jobs[0].nsettings;	/* "global options" */
	out->units = calloc(jobs->njobs, sizeof(*out->units));
	out->merged = calloc(jobs->njobs, sizeof(*out->merged));
	out->names = calloc(nopts + 1, sizeof(*out->names));
	out->values = calloc(nopts + 1, sizeof(*out->values));
	out->scratch = calloc(jobs->njobs, sizeof(*out->scratch));
	out->nmerged = jobs->njobs;
	if (!out->units || !out->merged || !out->names || !out->values || !out->scratch)
		return -ENOMEM;
	for (unsigned i = 0; i < jobs->njobs;) {
		const struct job_desc *j = &jobs->jobs[i];
		struct report_unit *u = &out->units[nu];
		unsigned n = 1;

		if (!j->stats) {
			i++;	/* stats=0: fio reports nothing of it */
			continue;
		}
		if (j->group_reporting) {
			n = merge_group(r, &src, i, u, &out->merged[nu]);
			if (!n)
				return -ENOMEM;
		} else {
			fill_unit(u, r, &src, i, results[i].st);
			u->ss = unit_ss(&src, i, 1);
		}
		u->opt_names = out->names + at;
		u->opt_values = out->values + at;
		at += add_options(out, at, j, out->scratch[nu], &u->nopts);
		u->ran_names = u->opt_names + u->nopts;
		u->ran_values = u->opt_values + u->nopts;
		u->nran = 4;
		i += n;
		nu++;
	}
	out->rep.global_names = out->names + at;
	out->rep.global_values = out->values + at;
	out->rep.nglobal = add_settings(out, at, &jobs->jobs[0], true);
	out->rep.version = "iojob-" IOJOB_VERSION;
	out->rep.units = out->units;
	out->rep.nunits = nu;
	out->rep.ngroups = jobs->ngroups;
	return 0;
}

void run_report_free(struct run_report *out)
{
	for (unsigned i = 0; out->merged && i < out->nmerged; i++)
		free(out->merged[i]);
	for (unsigned i = 0; i < out->nowned; i++)
		free(out->owned[i]);
	free(out->owned);
	free(out->scratch);
	free(out->units);
	free(out->merged);
	free(out->names);
	free(out->values);
	memset(out, 0, sizeof(*out));
}
