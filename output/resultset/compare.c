/* Comparing sides job by job: matching units, ratios by the metric's direction, tables. */
#include "output/resultset/compare.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/resultset/resultset_read.h"
#include "output/resultset/seed_tables.h"
#include "output/resultset/table.h"
#include "base/grow.h"

#define KEY_LEN	512

int compare_ratio(enum metric_better b, const double *v, unsigned n, double *ratio)
{
	int hi = -1, lo = -1;
	unsigned cnt = 0;

	*ratio = NAN;
	for (unsigned i = 0; i < n; i++) {
		if (isnan(v[i]))
			continue;
		cnt++;
		if (hi < 0 || v[i] > v[hi])
			hi = (int)i;
		if (lo < 0 || v[i] < v[lo])
			lo = (int)i;
	}
	if (cnt < 2)
		return -1;
	if (v[hi] == v[lo]) {
		*ratio = 1;
		return -1;
	}
	*ratio = v[lo] > 0 ? v[hi] / v[lo] : INFINITY;
	return b == BETTER_HIGHER ? hi : b == BETTER_LOWER ? lo : -1;
}

void compare_ratio_str(double ratio, char *buf, size_t len)
{
	if (isnan(ratio))
		snprintf(buf, len, "%s", "");
	else if (isinf(ratio))
		snprintf(buf, len, "%s", "inf");
	else
		snprintf(buf, len, "%.*fx", ratio >= 100 ? 0 : ratio >= 10 ? 1 : 2, ratio);
}

/* Units on different sides describe the same run when job, pass and swept values agree. */
static void unit_key(const struct rs_unit *u, char *buf, size_t len)
{
	size_t at = (size_t)snprintf(buf, len, "%s\n", u->name);

	if (at < len)
		rs_cell_str(u->cell, "", buf + at, len - at);
}

/* A unit's run key, made once; side and pos say where it stands (the order shown). */
struct cmp_key {
	char *key;
	const struct rs_unit *unit;
	unsigned side;
	size_t pos;
};

/* By key, then by where the unit stands: equal keys keep their order. */
static int key_cmp(const void *a, const void *b)
{
	const struct cmp_key *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	if (x->side != y->side)
		return x->side < y->side ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int pos_cmp(const void *a, const void *b)
{
	const struct cmp_key *x = a, *y = b;

	if (x->side != y->side)
		return x->side < y->side ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

int compare_index(struct cmp_side *s)
{
	char k[KEY_LEN];

	compare_index_free(s);
	s->keys = calloc(s->n + 1, sizeof(*s->keys));
	if (!s->keys)
		return -ENOMEM;
	for (size_t i = 0; i < s->n; i++) {
		unit_key(s->units[i], k, sizeof(k));
		s->keys[i] = (struct cmp_key){ .key = strdup(k), .unit = s->units[i], .pos = i };
		if (!s->keys[i].key) {
			compare_index_free(s);
			return -ENOMEM;
		}
	}
	qsort(s->keys, s->n, sizeof(*s->keys), key_cmp);
	return 0;
}

void compare_index_free(struct cmp_side *s)
{
	for (size_t i = 0; s->keys && i < s->n; i++)
		free(s->keys[i].key);
	free(s->keys);
	s->keys = NULL;
}

/* The side's unit for key: the last one, as a sweep run again appends newer lines. */
static const struct rs_unit *find(const struct cmp_side *s, const char *key)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {	/* the first entry past key: the last of key's is before it */
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(s->keys[mid].key, key) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && !strcmp(s->keys[lo - 1].key, key) ? s->keys[lo - 1].unit : NULL;
}

/*
 * One representative unit per key, sides in order (a run's first unit on the first side
 * that has it); returns how many. Every side's sorted keys go into one list, sorted again
 * (the first of each key is its representative), then put back in the order shown.
 */
static size_t collect_keys(const struct cmp_side *sides, unsigned nsides,
			   const struct rs_unit **reps, size_t max)
{
	struct cmp_key *all;
	size_t total = 0, n = 0, kept = 0;

	for (unsigned s = 0; s < nsides; s++)
		total += sides[s].n;
	all = malloc((total + 1) * sizeof(*all));
	if (!all)
		return 0;
	for (unsigned s = 0; s < nsides; s++)
		for (size_t i = 0; i < sides[s].n; i++) {
			all[n] = sides[s].keys[i];
			all[n++].side = s;
		}
	qsort(all, n, sizeof(*all), key_cmp);
	for (size_t i = 0; i < n; i++)
		if (!i || strcmp(all[i].key, all[kept - 1].key))
			all[kept++] = all[i];
	qsort(all, kept, sizeof(*all), pos_cmp);
	for (size_t i = 0; i < kept && i < max; i++)
		reps[i] = all[i].unit;
	free(all);
	return kept < max ? kept : max;
}

size_t compare_runs(const struct cmp_side *sides, unsigned nsides, const struct rs_unit **reps,
		    size_t max)
{
	return collect_keys(sides, nsides, reps, max);
}

const struct rs_unit *compare_find(const struct cmp_side *s, const struct rs_unit *rep)
{
	char key[KEY_LEN];

	unit_key(rep, key, sizeof(key));
	return find(s, key);
}

size_t compare_common(const struct cmp_side *sides, unsigned nsides)
{
	char key[KEY_LEN];
	size_t total = 0, nkeys, common = 0;
	const struct rs_unit **reps;

	for (unsigned s = 0; s < nsides; s++)
		total += sides[s].n;
	reps = malloc((total + 1) * sizeof(*reps));
	if (!reps)
		return 0;
	nkeys = collect_keys(sides, nsides, reps, total);
	for (size_t k = 0; k < nkeys; k++) {
		unsigned found = 0;

		unit_key(reps[k], key, sizeof(key));
		for (unsigned s = 0; s < nsides; s++)
			found += find(&sides[s], key) != NULL;
		common += found >= 2;
	}
	free(reps);
	return common;
}

/* One metric: its value on every side, the ratio and the side that is better. */
static void metric_row(struct table *t, const struct metric *m, const struct rs_unit *const *u,
		       const struct cmp_side *sides, unsigned ns)
{
	double v[CMP_MAX_SIDES], ratio;
	size_t r = table_add_row(t);
	struct metric_fmt f;
	char buf[160];
	int best;

	for (unsigned s = 0; s < ns; s++)
		v[s] = u[s] ? metric_value(m, u[s]) : NAN;
	metric_fmt_for(m, v, ns, &f);
	metric_label(m, &f, buf, sizeof(buf));
	table_set(t, r, 0, buf);
	for (unsigned s = 0; s < ns; s++) {
		metric_format(&f, v[s], buf, sizeof(buf));
		table_set(t, r, s + 1, buf);
	}
	best = compare_ratio(metric_better(m), v, ns, &ratio);
	compare_ratio_str(ratio, buf, sizeof(buf));
	table_set(t, r, ns + 1, buf);
	if (best >= 0)
		table_set(t, r, ns + 2, sides[best].name);
	else if (ratio == 1)
		table_set(t, r, ns + 2, "same");
}

/* The directions any side did I/O in; every direction together when none (unified). */
static unsigned dirs_done(const struct rs_unit *const *u, unsigned ns, enum us_dir *out)
{
	unsigned n = 0;

	for (enum us_dir d = US_READ; d < US_ALL; d++) {
		for (unsigned s = 0; s < ns; s++) {
			if (u[s] && us_ios(u[s], d) > 0) {
				out[n++] = d;
				break;
			}
		}
	}
	if (!n)
		out[n++] = US_ALL;
	return n;
}

static int per_dir(const struct metric *m)
{
	return m->dir == US_ALL && m->base < MB_UTIL;
}

static void metric_rows(struct table *t, const struct rs_unit *const *u,
			const struct cmp_side *sides, unsigned ns, const struct metric *m,
			unsigned nm)
{
	enum us_dir dirs[US_ALL + 1];
	unsigned nd = dirs_done(u, ns, dirs);

	for (unsigned d = 0; d < nd; d++) {
		for (unsigned i = 0; i < nm; i++) {
			struct metric md = m[i];

			md.dir = dirs[d];
			if (per_dir(&m[i]))
				metric_row(t, &md, u, sides, ns);
		}
	}
	for (unsigned i = 0; i < nm; i++)
		if (!per_dir(&m[i]))
			metric_row(t, &m[i], u, sides, ns);
}

static int key_table(struct table *t, const struct rs_unit *rep, int show_cell,
		     const struct cmp_side *sides, unsigned ns, const struct metric *m,
		     unsigned nm)
{
	const struct rs_unit *u[CMP_MAX_SIDES];
	char key[KEY_LEN], title[2 * KEY_LEN + 32], cell[KEY_LEN];

	unit_key(rep, key, sizeof(key));
	rs_cell_str(rep->cell, "", cell, sizeof(cell));
	snprintf(title, sizeof(title), "job '%s'%s%s", rep->name, show_cell && *cell ? ", " : "",
		 show_cell ? cell : "");
	if (table_init(t, ns + 3, title) < 0)
		return -ENOMEM;
	table_head(t, 0, "metric", TA_LEFT);
	for (unsigned s = 0; s < ns; s++) {
		table_head(t, s + 1, sides[s].name, TA_RIGHT);
		u[s] = find(&sides[s], key);
	}
	table_head(t, ns + 1, "ratio", TA_RIGHT);
	table_head(t, ns + 2, "better", TA_LEFT);
	metric_rows(t, u, sides, ns, m, nm);
	return table_error(t);
}

/* Whether the representatives come from more than one combination of swept values. */
static int several_cells(const struct rs_unit *const *reps, size_t n)
{
	char a[KEY_LEN], b[KEY_LEN];

	for (size_t i = 1; i < n; i++) {
		rs_cell_str(reps[0]->cell, "", a, sizeof(a));
		rs_cell_str(reps[i]->cell, "", b, sizeof(b));
		if (strcmp(a, b))
			return 1;
	}
	return 0;
}

int compare_tables(const struct cmp_side *sides, unsigned nsides, const struct metric *m,
		   unsigned nm, struct table **out)
{
	size_t total = 0, nkeys, cap = 0;
	const struct rs_unit **reps;
	int n = 0, failed = 0, several;

	for (unsigned s = 0; s < nsides; s++)
		total += sides[s].n;
	reps = malloc((total + 1) * sizeof(*reps));
	*out = NULL;
	if (!reps || nsides > CMP_MAX_SIDES) {
		free(reps);
		return reps ? -EINVAL : -ENOMEM;
	}
	nkeys = collect_keys(sides, nsides, reps, total);
	several = several_cells(reps, nkeys);	/* once: per table it made the tables n^2 */
	for (size_t k = 0; !failed && k < nkeys; k++) {
		failed = GROW_FOR(*out, cap, n) < 0;
		if (!failed) {
			struct table *t = *out;

			failed = key_table(&t[n], reps[k], several, sides, nsides, m,
					   nm) < 0;
			if (failed)
				table_free(&t[n]);
			n += !failed;
		}
	}
	free(reps);
	return seed_finish(out, n, failed);
}
