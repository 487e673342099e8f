/* A metric laid out by two keys, one layout per combination of the other varying keys. */
#include "output/resultset/pivot.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "output/json_reader.h"
#include "output/resultset/resultset_read.h"
#include "output/resultset/table.h"

#define MAX_KEYS	64

static const char *value_of(const struct rs_unit *u, const char *key)
{
	const char *v = key ? rs_value(u->cell, u, key) : "";

	return v ? v : "";
}

/* Whether key takes more than one value over sel. */
static int varies(const struct rs_sel *sel, const char *key)
{
	const char *first = sel->n ? value_of(&sel->units[0], key) : "";

	for (size_t i = 1; i < sel->n; i++)
		if (strcmp(first, value_of(&sel->units[i], key)))
			return 1;
	return 0;
}

/* The keys besides rows and cols that vary: each value of them is a pivot of its own. */
static unsigned split_keys(const struct rs_set *s, const struct rs_sel *sel, const char *rows,
			   const char *cols, const char **out)
{
	const char *cand[MAX_KEYS] = { "job", "label" };
	unsigned n = 2 + rs_swept_keys(s, cand + 2, MAX_KEYS - 2), k = 0;

	for (unsigned i = 0; i < n; i++) {
		if (!strcmp(cand[i], rows) || (cols && !strcmp(cand[i], cols)))
			continue;
		if (varies(sel, cand[i]))
			out[k++] = cand[i];
	}
	return k;
}

static void title_of(const struct rs_unit *u, const char *const *keys, unsigned n, char *buf,
		     size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < n && at < len; i++) {
		const char *sep = i ? ", " : "", *v = value_of(u, keys[i]);

		if (!strcmp(keys[i], "job") || !strcmp(keys[i], "label"))
			at += (size_t)snprintf(buf + at, len - at, "%s%s '%s'", sep, keys[i], v);
		else
			at += (size_t)snprintf(buf + at, len - at, "%s%s=%s", sep, keys[i], v);
	}
}

static size_t index_of(const char **list, size_t n, const char *v)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], v))
			return i;
	return n;
}

static int cmp_number(const void *a, const void *b)
{
	double x = strtod(*(const char *const *)a, NULL), y = strtod(*(const char *const *)b, NULL);

	return x < y ? -1 : x > y;
}

/* Distinct values of key over the units of group g; numbers in order. */
static const char **distinct(const struct rs_sel *sel, const size_t *group, size_t g,
			     const char *key, size_t *n)
{
	const char **v = malloc((sel->n ? sel->n : 1) * sizeof(*v));
	int numeric = 1;

	*n = 0;
	for (size_t i = 0; v && i < sel->n; i++) {
		const char *s = value_of(&sel->units[i], key);

		if (group[i] != g || index_of(v, *n, s) < *n)
			continue;
		v[(*n)++] = s;
		numeric &= rs_is_number(s, NULL);
	}
	if (v && numeric)
		qsort(v, *n, sizeof(*v), cmp_number);
	return v;
}

unsigned pivot_repeat(const struct rs_unit *u)
{
	return (unsigned)jv_num(jv_get(&u->cell->root, "repeat"), 0);
}

double pivot_mean(const struct pivot *p, size_t place, const struct metric *m, double *sd)
{
	double sum = 0, sq = 0, one = NAN;
	unsigned n = 0;

	for (size_t i = 0; i < p->nunits; i++) {
		double v;

		if (p->place[i] != place || isnan(v = metric_value(m, p->units[i])))
			continue;
		sum += v;
		sq += v * v;
		one = v;
		n++;
		if (n == 1)
			*sd = metric_spread(m, p->units[i]);
	}
	if (n == 0)
		*sd = NAN;
	if (n <= 1)
		return one;
	/* the sample's sigma (n - 1): a handful of repetitions estimate a spread */
	*sd = sqrt(fmax(0, (sq - sum * sum / n) / (n - 1)));
	return sum / n;
}

/* Put u at its place: a repetition of what is there joins it, anything else replaces it. */
static void place_unit(struct pivot *p, const struct rs_unit *u, size_t place)
{
	unsigned rep = pivot_repeat(u);
	bool taken = false;
	size_t k = 0;

	for (size_t i = 0; i < p->nunits; i++) {
		if (p->place[i] == place && (!rep || pivot_repeat(p->units[i]) == rep)) {
			taken = true;
			continue;	/* dropped: the last one is kept */
		}
		p->units[k] = p->units[i];
		p->place[k++] = p->place[i];
	}
	p->dups += taken;
	p->units[k] = u;
	p->place[k] = place;
	p->nunits = k + 1;
}

static int fill(struct pivot *p, const struct rs_sel *sel, const size_t *group, size_t g,
		const char *rows, const char *cols, const struct metric *m)
{
	size_t n;

	p->rowv = distinct(sel, group, g, rows, &p->nrows);
	p->colv = distinct(sel, group, g, cols, &p->ncols);
	n = p->nrows * p->ncols + 1;
	p->v = malloc(n * sizeof(*p->v));
	p->sd = malloc(n * sizeof(*p->sd));
	p->nrep = calloc(n, sizeof(*p->nrep));
	p->units = malloc((sel->n + 1) * sizeof(*p->units));
	p->place = malloc((sel->n + 1) * sizeof(*p->place));
	if (!p->rowv || !p->colv || !p->v || !p->sd || !p->nrep || !p->units || !p->place)
		return -ENOMEM;
	for (size_t i = 0; i < sel->n; i++) {
		const struct rs_unit *u = &sel->units[i];

		if (group[i] == g)
			place_unit(p, u, index_of(p->rowv, p->nrows, value_of(u, rows)) * p->ncols +
				   index_of(p->colv, p->ncols, value_of(u, cols)));
	}
	for (size_t i = 0; i < p->nunits; i++)
		p->nrep[p->place[i]]++;
	for (size_t i = 0; i < p->nrows * p->ncols; i++)
		p->v[i] = pivot_mean(p, i, m, &p->sd[i]);
	return 0;
}

/* Number the groups in order of first appearance; returns how many. */
static size_t assign_groups(const struct rs_sel *sel, const char *const *keys, unsigned nkeys,
			    size_t *group, struct pivot *p)
{
	size_t ng = 0;

	for (size_t i = 0; i < sel->n; i++) {
		char title[sizeof(p->title)];
		size_t g;

		title_of(&sel->units[i], keys, nkeys, title, sizeof(title));
		for (g = 0; g < ng && strcmp(p[g].title, title); g++)
			;
		if (g == ng)
			memcpy(p[ng++].title, title, sizeof(title));
		group[i] = g;
	}
	return ng;
}

int pivot_build(const struct rs_set *s, const struct rs_sel *sel, const char *rows,
		const char *cols, const struct metric *m, struct pivot **out)
{
	const char *keys[MAX_KEYS];
	unsigned nkeys = split_keys(s, sel, rows, cols, keys);
	size_t *group = malloc((sel->n ? sel->n : 1) * sizeof(*group)), ng = 0;
	struct pivot *p = calloc(sel->n ? sel->n : 1, sizeof(*p));
	int ret = -ENOMEM;

	if (!group || !p)
		goto out;
	ng = assign_groups(sel, keys, nkeys, group, p);
	for (size_t g = 0; g < ng; g++)
		if (fill(&p[g], sel, group, g, rows, cols, m) < 0)
			goto out;
	ret = (int)ng;
out:
	free(group);
	if (ret < 0) {
		pivot_free(p, ng);
		p = NULL;
	}
	*out = p;
	return ret;
}

void pivot_free(struct pivot *p, size_t n)
{
	for (size_t i = 0; p && i < n; i++) {
		free(p[i].rowv);
		free(p[i].colv);
		free(p[i].v);
		free(p[i].sd);
		free(p[i].nrep);
		free(p[i].units);
		free(p[i].place);
	}
	free(p);
}

int pivot_table(const struct pivot *p, const char *rows, const char *cols,
		const struct metric *m, struct table *t)
{
	struct metric_fmt f;
	char title[700], name[128], buf[64], sd[64], corner[256];

	metric_fmt_for(m, p->v, p->nrows * p->ncols, &f);
	metric_label(m, &f, name, sizeof(name));
	snprintf(title, sizeof(title), "%s%s%s", name, *p->title ? ", " : "", p->title);
	if (table_init(t, (unsigned)p->ncols + 1, title) < 0)
		return -ENOMEM;
	snprintf(corner, sizeof(corner), "%s%s%s", rows, cols ? " \\ " : "", cols ? cols : "");
	table_head(t, 0, corner, TA_LEFT);
	for (size_t c = 0; c < p->ncols; c++)
		table_head(t, (unsigned)c + 1, *p->colv[c] ? p->colv[c] : m->name, TA_RIGHT);
	for (size_t r = 0; r < p->nrows; r++) {
		size_t row = table_add_row(t);

		table_set(t, row, 0, p->rowv[r]);
		for (size_t c = 0; c < p->ncols; c++) {
			size_t at = r * p->ncols + c;

			metric_format(&f, p->v[at], buf, sizeof(buf));
			if (p->nrep[at] > 1 && isfinite(p->sd[at])) {
				/* repetitions: the mean and its spread */
				metric_format(&f, p->sd[at], sd, sizeof(sd));
				table_setf(t, row, (unsigned)c + 1, "%s ±%s", buf, sd);
				continue;
			}
			table_set(t, row, (unsigned)c + 1, buf);
		}
	}
	return table_error(t);
}

size_t pivot_place_order(const struct pivot *p, size_t *order)
{
	size_t n = 0;

	for (size_t place = 0; place < p->nrows * p->ncols; place++)
		for (size_t i = 0; i < p->nunits; i++)
			if (p->place[i] == place)
				order[n++] = i;
	return n;
}

int pivot_cpu_table(const struct pivot *p, const char *rows, const char *cols,
		    struct table *t)
{
	size_t *order = malloc((p->nunits + 1) * sizeof(*order)), n;
	unsigned k = cols ? 2 : 1;
	char title[600];

	snprintf(title, sizeof(title), "CPU (%% of one CPU)%s%s", *p->title ? ", " : "", p->title);
	if (!order || table_init(t, k + 3, title) < 0) {
		free(order);
		return -ENOMEM;
	}
	table_head(t, 0, rows, TA_LEFT);
	if (cols)
		table_head(t, 1, cols, TA_LEFT);
	table_head(t, k, "usr", TA_RIGHT);
	table_head(t, k + 1, "sys", TA_RIGHT);
	table_head(t, k + 2, "total", TA_RIGHT);
	n = pivot_place_order(p, order);
	for (size_t i = 0; i < n; i++) {
		size_t place = p->place[order[i]], row = table_add_row(t);
		double usr, sys;

		table_set(t, row, 0, p->rowv[place / p->ncols]);
		if (cols)
			table_set(t, row, 1, p->colv[place % p->ncols]);
		if (us_cpu_pct(p->units[order[i]], &usr, &sys) < 0)
			continue;
		table_setf(t, row, k, "%.1f", usr);
		table_setf(t, row, k + 1, "%.1f", sys);
		table_setf(t, row, k + 2, "%.1f", usr + sys);
	}
	free(order);
	return table_error(t);
}
