/* The cells of a sweep: built and checked before any runs, then run in order or skipped. */
#include "engine/run/cells.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/prog_name.h"
#include "base/diag.h"
#include "engine/dist/dist.h"
#include "engine/engine.h"
#include "jobs/sweep.h"
#include "output/resultset_write.h"

#include <xxhash.h>

/* The jobs of one sweep cell (the only one without --sweep): --set, then its values. */
static int build_jobs(struct cells *cs, unsigned long cell, struct job_list *jobs,
		      struct diag *d)
{
	struct job_input in = cs->in;

	memcpy(cs->cell, cs->sets, cs->nsets * sizeof(cs->sets[0]));
	sweep_cell(cs->sweep, cell, cs->cell + cs->nsets);
	cs->ncell = cs->nsets + cs->sweep->naxes;
	in.sets = cs->cell;
	in.nsets = cs->ncell;
	return jobs_build(&in, jobs, d);
}

/*
 * What the cell's jobs are, as one key: every job's name and the options it set, in order,
 * whatever set them (job files, sections chosen, the command line's jobs, --set, the
 * cell's values). Two runs with one key ran the same jobs, so --resume may skip the
 * second; a change of section, job file or option changes the key. Clones share their
 * job's settings and count once.
 */
static void cells_jobs_key(const struct job_list *jobs, char *key, size_t len)
{
	XXH3_state_t *st = XXH3_createState();
	const struct job_desc *prev = NULL;

	if (!st || XXH3_64bits_reset(st) != XXH_OK) {
		snprintf(key, len, "none");	/* matches no line: the cell runs */
		XXH3_freeState(st);
		return;
	}
	for (unsigned i = 0; i < jobs->njobs; i++) {
		const struct job_desc *j = &jobs->jobs[i];

		if (prev && prev->settings == j->settings && !strcmp(prev->name, j->name))
			continue;
		XXH3_64bits_update(st, j->name, strlen(j->name) + 1);
		for (unsigned k = 0; k < j->nsettings; k++) {
			XXH3_64bits_update(st, j->settings[k].name, strlen(j->settings[k].name) + 1);
			XXH3_64bits_update(st, j->settings[k].value, strlen(j->settings[k].value) + 1);
		}
		XXH3_64bits_update(st, "\n", 1);
		prev = j;
	}
	snprintf(key, len, "xxh3:%016llx", (unsigned long long)XXH3_64bits_digest(st));
	XXH3_freeState(st);
}

void cells_meta(const struct cells *cs, const char **keys, const char **values,
		struct resultset_meta *m)
{
	for (unsigned i = 0; i < cs->ncell; i++) {
		keys[i] = cs->cell[i].key;
		values[i] = cs->cell[i].value;
	}
	*m = (struct resultset_meta){
		.label = cs->label,
		.cell_keys = keys + cs->nsets,
		.cell_values = values + cs->nsets,
		.ncell = cs->ncell - cs->nsets,
		.set_keys = keys,
		.set_values = values,
		.nsets = cs->nsets,
		.job_files = cs->files,
		.njob_files = cs->nfiles,
		.repeat = cs->repeat > 1 ? cs->rep_idx + 1 : 0,
		.jobs_key = cs->jobs_key,
	};
}

/* --resume: whether --results already holds this cell (1), after saying so. */
static int skip_cell(const struct cells *cs)
{
	const char *keys[CELL_MAX_OVERRIDES], *values[CELL_MAX_OVERRIDES];
	struct resultset_meta m;
	int ret;

	cells_meta(cs, keys, values, &m);
	ret = dist_root(cs->dist) ? resultset_has_cell(cs->results, &m) : 0;
	ret = dist_bcast(cs->dist, ret);	/* the root's file decides for every rank */
	if (ret < 0)
		fprintf(cs->err, "%s: note: --resume cannot read '%s' (%s): running the cell\n",
			prog_name(), cs->results, strerror(-ret));
	else if (ret && m.repeat)
		fprintf(cs->err, "%s: sweep cell %lu/%lu, repetition %u/%u, is in '%s' "
			"already: skipped\n", prog_name(), cs->cell_idx + 1, cs->ncells, m.repeat, cs->repeat,
			cs->results);
	else if (ret)
		fprintf(cs->err, "%s: sweep cell %lu/%lu is in '%s' already: skipped\n",
			prog_name(), cs->cell_idx + 1, cs->ncells, cs->results);
	return ret > 0;
}

/*
 * A cell's jobs and, in a sweep, their files and devices (the only cell's are checked as
 * it starts): a bad cell late in a sweep stops it before the first I/O.
 */
static int check_cell(struct cells *cs, unsigned long cell, struct diag *d)
{
	struct job_list jobs;
	int ret = build_jobs(cs, cell, &jobs, d);

	if (ret < 0)
		return ret;
	if (cs->ncells > 1 && cs->in.check_paths)
		ret = run_check_files(&jobs, d);
	jobs_free(&jobs);
	return ret;
}

int cells_check(struct cells *cs, struct diag *d)
{
	char *seen = NULL;
	size_t seen_len = 0;
	int ret = 0;

	for (unsigned long i = 0; !ret && i < cs->ncells; i++) {
		ret = check_cell(cs, i, d);
		if (cs->ncells > 1 && ret < 0) {
			char msg[sizeof(d->msg)];

			memcpy(msg, d->msg, sizeof(msg));
			diag_set(d, ret, "sweep cell %lu/%lu: %s", i + 1, cs->ncells, msg);
		}
		if (d->notes && (!seen || !strstr(seen, d->notes))) {
			char *n = realloc(seen, seen_len + d->notes_len + 1);

			if (n) {
				memcpy(n + seen_len, d->notes, d->notes_len + 1);
				seen = n;
				seen_len += d->notes_len;
			}
		}
		free(d->notes);
		d->notes = NULL;
		d->notes_len = 0;
	}
	d->notes = seen;	/* each once, in the order the cells gave them */
	d->notes_len = seen_len;
	return ret;
}

/* One run of the cell running (one repetition): its exit code, or a negative errno. */
static int run_one(struct cells *cs, struct diag *d)
{
	struct job_list jobs;
	int ret = build_jobs(cs, cs->cell_idx, &jobs, d);

	free(d->notes);		/* cells_check() gave them */
	d->notes = NULL;
	d->notes_len = 0;
	if (ret < 0)
		return ret;
	cells_jobs_key(&jobs, cs->jobs_key, sizeof(cs->jobs_key));
	if (!(cs->resume && skip_cell(cs)))
		ret = cs->run_cell(cs->run_ctx, &jobs, d);
	jobs_free(&jobs);
	return ret;
}

int cells_run(struct cells *cs, struct diag *d)
{
	unsigned reps = cs->repeat > 1 ? cs->repeat : 1;
	int worst = 0;

	for (cs->cell_idx = 0; cs->cell_idx < cs->ncells; cs->cell_idx++) {
		for (cs->rep_idx = 0; cs->rep_idx < reps; cs->rep_idx++) {
			int ret;

			/* a signal on any rank ends the sweep on all */
			if (dist_max(cs->dist, *cs->stopped_by != 0))
				return worst;
			ret = run_one(cs, d);
			if (ret < 0)
				return ret;
			worst = ret > worst ? ret : worst;
		}
	}
	return worst;
}
