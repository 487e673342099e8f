/* The report of an MPI run, assembled on the root from every rank's results. */
#include "engine/dist/dist_report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/stats.h"
#include "base/grow.h"

/* What each rank sends about itself: plain numbers, the same layout on every rank. */
struct rank_wire {
	uint64_t start_ns, barrier_ns;
	uint64_t issued[STATS_NDIR];
	int32_t error, pad;
};

/* Each rank's outcome of each job. */
struct err_wire {
	int32_t error;
	char msg[508];
};

static void describe_rank(const struct run *r, struct rank_wire *w)
{
	memset(w, 0, sizeof(*w));
	w->start_ns = r->jobs->nphases ? r->phases[0].start_real_ns : 0;
	for (unsigned p = 0; p < r->jobs->nphases; p++)
		w->barrier_ns += r->phases[p].barrier_ns;
	for (unsigned i = 0; i < r->jobs->njobs; i++) {
		const struct job_result *res = &r->results[i];

		for (unsigned k = 0; k < STATS_NDIR; k++)
			w->issued[k] += res->st->issued[k];
		if (!w->error && res->error)
			w->error = res->error;
	}
}

static struct err_wire *describe_errors(const struct run *r)
{
	struct err_wire *e = calloc(r->jobs->njobs ? r->jobs->njobs : 1, sizeof(*e));

	for (unsigned i = 0; e && i < r->jobs->njobs; i++) {
		e[i].error = r->results[i].error;
		snprintf(e[i].msg, sizeof(e[i].msg), "%.507s", r->results[i].error_msg);
	}
	return e;
}

/* "0-1,4": the ranks on host h. */
static void rank_list(const struct dist *d, unsigned h, char *out, size_t len)
{
	size_t n = 0;

	out[0] = '\0';
	for (int k = 0; k < d->nranks && n < len; k++) {
		int end = k;

		if (d->rank_host[k] != h)
			continue;
		while (end + 1 < d->nranks && d->rank_host[end + 1] == h)
			end++;
		n += (size_t)snprintf(out + n, len - n, "%s%d", n ? "," : "", k);
		if (end > k && n < len)
			n += (size_t)snprintf(out + n, len - n, "-%d", end);
		k = end;
	}
}

/* A job failed on another rank: say where; the first failure of a job is its error. */
static int note_failure(struct dist_report *dr, const struct dist *d, int rank,
			const struct err_wire *e, struct job_result *res)
{
	char *msg;

	if (asprintf(&msg, "rank %d (host %s): %s", rank, d->hosts[d->rank_host[rank]],
		     e->msg) < 0)
		return -ENOMEM;
	if (!res->error) {
		res->error = e->error;
		snprintf(res->error_msg, sizeof(res->error_msg), "%s", msg);
	}
	if (rank == 0) {
		free(msg);	/* the root's own: main() printed it */
		return 0;
	}
	if (GROW_FOR(dr->failures, dr->failures_cap, dr->nfailures) < 0) {
		free(msg);
		return -ENOMEM;
	}
	dr->failures[dr->nfailures++] = msg;
	return 0;
}

/* The root's results now hold the merged statistics and every rank's first error. */
static int merge_outcomes(struct dist_report *dr, const struct dist *d, struct run *r,
			  const struct err_wire *errs)
{
	unsigned n = r->jobs->njobs;

	for (unsigned i = 0; i < n; i++) {
		dr->own_st[i] = r->results[i].st;
		r->results[i].st = &dr->agg_st[i];
	}
	for (int k = 0; k < d->nranks; k++)
		for (unsigned i = 0; i < n; i++)
			if (errs[(size_t)k * n + i].error &&
			    note_failure(dr, d, k, &errs[(size_t)k * n + i], &r->results[i]) < 0)
				return -ENOMEM;
	return 0;
}

/* Host h's part: its ranks' statistics, its first errors, no disks (they are per host). */
static int build_host(struct dist_report *dr, const struct dist *d, const struct run *r,
		      unsigned h, const struct err_wire *errs)
{
	unsigned n = r->jobs->njobs;
	struct job_result *res = &dr->host_results[(size_t)h * n];
	struct run hr;

	memcpy(&hr, r, sizeof(hr));
	memset(&hr.disks, 0, sizeof(hr.disks));
	hr.results = res;
	hr.ranks = 0;
	for (int k = 0; k < d->nranks; k++)
		hr.ranks += d->rank_host[k] == h;
	for (unsigned i = 0; i < n; i++) {
		memcpy(&res[i], &r->results[i], sizeof(res[i]));
		res[i].st = &dr->host_st[(size_t)h * n + i];
		res[i].error = 0;
		for (int k = 0; k < d->nranks && !res[i].error; k++) {
			const struct err_wire *e = &errs[(size_t)k * n + i];

			if (d->rank_host[k] != h || !e->error)
				continue;
			res[i].error = e->error;
			snprintf(res[i].error_msg, sizeof(res[i].error_msg), "rank %d: %s", k, e->msg);
		}
	}
	if (run_build_report(&hr, &dr->host[h]) < 0)
		return -ENOMEM;
	dr->host_reps[h] = dr->host[h].rep;
	rank_list(d, h, dr->rank_lists[h], sizeof(dr->rank_lists[h]));
	dr->host_reps[h].hostname = d->hosts[h];
	dr->host_reps[h].rank_list = dr->rank_lists[h];
	return 0;
}

static int build_root(struct dist_report *dr, const struct dist *d, struct run *r,
		      const struct rank_wire *wires, const struct err_wire *errs)
{
	unsigned n = r->jobs->njobs;

	dr->ranks = calloc((size_t)d->nranks, sizeof(*dr->ranks));
	dr->host = calloc(d->nhosts, sizeof(*dr->host));
	dr->nhosts = dr->host ? d->nhosts : 0;
	dr->host_reps = calloc(d->nhosts, sizeof(*dr->host_reps));
	dr->rank_lists = calloc(d->nhosts, sizeof(*dr->rank_lists));
	dr->host_results = calloc((size_t)d->nhosts * n, sizeof(*dr->host_results));
	dr->own_st = calloc(n, sizeof(*dr->own_st));
	if (!dr->ranks || !dr->host || !dr->host_reps || !dr->rank_lists || !dr->host_results ||
	    !dr->own_st || merge_outcomes(dr, d, r, errs) < 0)
		return -ENOMEM;
	for (int k = 0; k < d->nranks; k++) {
		struct report_rank *o = &dr->ranks[k];

		*o = (struct report_rank){ .rank = k, .host = d->hosts[d->rank_host[k]],
					   .start_real_ns = wires[k].start_ns,
					   .barrier_ns = wires[k].barrier_ns, .error = wires[k].error };
		memcpy(o->issued, wires[k].issued, sizeof(o->issued));
	}
	for (unsigned h = 0; h < d->nhosts; h++)
		if (build_host(dr, d, r, h, errs) < 0)
			return -ENOMEM;
	r->ranks = (unsigned)d->nranks;
	if (run_build_report(r, &dr->agg) < 0)
		return -ENOMEM;
	dr->agg.rep.hosts = dr->host_reps;
	dr->agg.rep.nhosts = d->nhosts;
	dr->agg.rep.ranks = dr->ranks;
	dr->agg.rep.nranks = (unsigned)d->nranks;
	if (d->nhosts > 1)
		dr->agg.rep.disks = NULL;	/* one host's disks are not the run's */
	return 0;
}

int dist_report_build(const struct dist *d, struct run *r, struct dist_report *out)
{
	unsigned n = r->jobs->njobs;
	bool root = dist_root(d);
	struct rank_wire mine, *wires = NULL;
	struct err_wire *errs = NULL, *my_errs = describe_errors(r);
	struct job_stats **st = calloc(n, sizeof(*st));
	int ret = 0;

	memset(out, 0, sizeof(*out));
	describe_rank(r, &mine);
	if (root) {
		wires = calloc((size_t)d->nranks, sizeof(*wires));
		errs = calloc((size_t)d->nranks * n, sizeof(*errs));
		out->agg_st = calloc(n, sizeof(*out->agg_st));
		out->host_st = calloc((size_t)d->nhosts * n, sizeof(*out->host_st));
	}
	/* Collectives cannot be skipped by one rank: without memory, give up everywhere. */
	if (!my_errs || !st || (root && (!wires || !errs || !out->agg_st || !out->host_st)))
		abort();
	for (unsigned i = 0; i < n; i++)
		st[i] = r->results[i].st;
	dist_gather(d, &mine, sizeof(mine), wires);
	dist_gather(d, my_errs, n * sizeof(*my_errs), errs);
	dist_merge_stats(d, st, n, out->agg_st, out->host_st);
	if (root)
		ret = build_root(out, d, r, wires, errs);
	free(st);
	free(my_errs);
	free(wires);
	free(errs);
	return ret;
}

void dist_report_free(struct dist_report *dr, struct run *r)
{
	for (unsigned i = 0; dr->own_st && i < r->jobs->njobs; i++)
		if (dr->own_st[i])
			r->results[i].st = dr->own_st[i];
	r->ranks = 0;
	run_report_free(&dr->agg);
	for (unsigned h = 0; h < dr->nhosts; h++)
		run_report_free(&dr->host[h]);
	for (unsigned i = 0; i < dr->nfailures; i++)
		free(dr->failures[i]);
	free(dr->failures);
	free(dr->host);
	free(dr->host_reps);
	free(dr->ranks);
	free(dr->rank_lists);
	free(dr->host_results);
	free(dr->own_st);
	free(dr->agg_st);
	free(dr->host_st);
	memset(dr, 0, sizeof(*dr));
}
