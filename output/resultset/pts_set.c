/* The PTS suite's runs read back from a result set: cells, rounds, the tracked variable. */
#include "output/resultset/pts_set.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/resultset/metrics.h"
#include "output/resultset/resultset_read.h"
#include "base/grow.h"

const struct pts_test *pts_test_find(const char *name)
{
	for (const struct pts_test *t = pts_tests; name && t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

static const char *key_of(const struct rs_unit *u, const char *key)
{
	return jv_str(jv_get(jv_get(&u->cell->root, "cell"), key), NULL);
}

static struct pts_run *find_run(struct pts_run *runs, size_t n, const char *label,
				const struct pts_test *t)
{
	for (size_t i = 0; i < n; i++)
		if (runs[i].test == t && !strcmp(runs[i].label, label))
			return &runs[i];
	return NULL;
}

static struct pts_cell *find_cell(struct pts_run *run, const char *bs, const char *mix)
{
	for (size_t i = 0; i < run->ncells; i++)
		if (!strcmp(run->cells[i].bs, bs) && !strcmp(run->cells[i].mix, mix))
			return &run->cells[i];
	return NULL;
}

const struct pts_cell *pts_cell_find(const struct pts_run *run, const char *bs,
				     const char *mix)
{
	return find_cell((struct pts_run *)run, bs, mix);
}

/* A round line's round, from 1; 0 for another line or a value that is not a round. */
static unsigned round_of(const struct rs_unit *u)
{
	const char *s = key_of(u, "pts_round");
	char *end;
	unsigned long r = s ? strtoul(s, &end, 10) : 0;

	return r && !*end && r <= 100000 ? (unsigned)r : 0;
}

/* The runs and their cells, and each run's highest round: the first pass over sel. */
static int collect(const struct rs_sel *sel, struct pts_run **runs, size_t *n, size_t *cap)
{
	for (size_t i = 0; i < sel->n; i++) {
		const struct rs_unit *u = &sel->units[i];
		const struct pts_test *t = pts_test_find(key_of(u, "pts_test"));
		const char *step = key_of(u, "pts_step"), *bs = key_of(u, "bs");
		const char *mix = key_of(u, "rwmixread");
		struct pts_run *run;
		struct pts_cell *c;

		if (!t || !step)
			continue;
		run = find_run(*runs, *n, u->cell->label, t);
		if (!run) {
			if (GROW_FOR(*runs, *cap, *n) < 0)
				return -ENOMEM;
			run = &(*runs)[(*n)++];
			*run = (struct pts_run){ .label = u->cell->label, .test = t };
		}
		if (!strcmp(step, "purge"))
			run->purge = u;
		else if (!strcmp(step, "precondition"))
			run->precondition = u;
		if (strcmp(step, "round") || !bs || !mix)
			continue;
		if (round_of(u) > run->nrounds)
			run->nrounds = round_of(u);
		if (find_cell(run, bs, mix))
			continue;
		c = realloc(run->cells, (run->ncells + 1) * sizeof(*c));
		if (!c)
			return -ENOMEM;
		run->cells = c;
		c[run->ncells++] = (struct pts_cell){ .bs = bs, .mix = mix };
	}
	return 0;
}

/* Each cell's units by round, then the tracked variable and its window: the second pass. */
static int place_rounds(const struct rs_sel *sel, struct pts_run *runs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < runs[i].ncells; k++) {
			runs[i].cells[k].rounds = calloc(runs[i].nrounds + 1,
							 sizeof(runs[i].cells[k].rounds[0]));
			if (!runs[i].cells[k].rounds)
				return -ENOMEM;
		}
	for (size_t i = 0; i < sel->n; i++) {
		const struct rs_unit *u = &sel->units[i];
		const char *bs = key_of(u, "bs"), *mix = key_of(u, "rwmixread");
		struct pts_run *run = find_run(runs, n, u->cell->label,
					       pts_test_find(key_of(u, "pts_test")));
		struct pts_cell *c = run && round_of(u) && bs && mix ? find_cell(run, bs, mix) : NULL;

		if (!c)
			continue;
		c->rounds[round_of(u) - 1] = u;
		if (key_of(u, "pts_track"))
			c->tracked = true;
	}
	return 0;
}

/* The tracked cell's metric per round, and the first window that holds. */
static int track(struct pts_run *run)
{
	struct metric m;

	run->tracked = calloc(run->nrounds + 1, sizeof(run->tracked[0]));
	if (!run->tracked)
		return -ENOMEM;
	for (size_t k = 0; k < run->ncells && !run->track; k++)
		if (run->cells[k].tracked)
			run->track = &run->cells[k];
	if (!run->track || metric_parse(run->test->track, &m) < 0) {
		run->track = NULL;
		return 0;
	}
	for (unsigned r = 0; r < run->nrounds; r++)
		run->tracked[r] = run->track->rounds[r] ? metric_value(&m, run->track->rounds[r])
							 : NAN;
	run->attained = pts_window_find(run->tracked, run->nrounds, &run->window);
	return 0;
}

int pts_runs(const struct rs_sel *sel, struct pts_run **out)
{
	struct pts_run *runs = NULL;
	size_t n = 0, cap = 0;
	int ret = collect(sel, &runs, &n, &cap);

	if (!ret)
		ret = place_rounds(sel, runs, n);
	for (size_t i = 0; !ret && i < n; i++)
		ret = track(&runs[i]);
	if (ret < 0) {
		pts_runs_free(runs, n);
		*out = NULL;
		return ret;
	}
	*out = runs;
	return (int)n;
}

void pts_runs_free(struct pts_run *runs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < runs[i].ncells; k++)
			free(runs[i].cells[k].rounds);
		free(runs[i].cells);
		free(runs[i].tracked);
	}
	free(runs);
}

double pts_window_average(const struct pts_run *run, const struct pts_cell *cell,
			  const char *metric)
{
	struct metric m;
	double sum = 0;
	unsigned n = 0;

	if (!cell || !run->window.first || metric_parse(metric, &m) < 0)
		return NAN;
	for (unsigned r = run->window.first; r <= run->window.last; r++, n++) {
		if (!cell->rounds[r - 1])
			return NAN;
		sum += metric_value(&m, cell->rounds[r - 1]);
	}
	return n ? sum / n : NAN;
}

void pts_mix_name(const char *mix, char *buf, size_t len)
{
	char *end;
	long r = strtol(mix, &end, 10);

	if (*end || r < 0 || r > 100)
		snprintf(buf, len, "%s", mix);
	else
		snprintf(buf, len, "%ld/%ld", r, 100 - r);
}

const char *pts_run_fact(const struct pts_run *run, const char *key)
{
	const char *v = run->purge ? key_of(run->purge, key) : NULL;

	return v ? v : run->precondition ? key_of(run->precondition, key) : NULL;
}
