/* A metric laid out by two keys, one layout per combination of the other varying keys. */
#include "output/resultset/pivot.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

static int fill(struct pivot *p, const struct rs_sel *sel, const size_t *group, size_t g,
		const char *rows, const char *cols, const struct metric *m)
{
	p->rowv = distinct(sel, group, g, rows, &p->nrows);
	p->colv = distinct(sel, group, g, cols, &p->ncols);
	p->v = malloc((p->nrows * p->ncols + 1) * sizeof(*p->v));
	if (!p->rowv || !p->colv || !p->v)
		return -ENOMEM;
	for (size_t i = 0; i < p->nrows * p->ncols; i++)
		p->v[i] = NAN;
	for (size_t i = 0; i < sel->n; i++) {
		const struct rs_unit *u = &sel->units[i];
		size_t r, c;

		if (group[i] != g)
			continue;
		r = index_of(p->rowv, p->nrows, value_of(u, rows));
		c = index_of(p->colv, p->ncols, value_of(u, cols));
		if (!isnan(p->v[r * p->ncols + c]))
			p->dups++;
		p->v[r * p->ncols + c] = metric_value(m, u);
	}
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
	}
	free(p);
}

int pivot_table(const struct pivot *p, const char *rows, const struct metric *m,
		struct table *t)
{
	struct metric_fmt f;
	char title[700], name[128], buf[64];

	metric_fmt_for(m, p->v, p->nrows * p->ncols, &f);
	metric_label(m, &f, name, sizeof(name));
	snprintf(title, sizeof(title), "%s%s%s", name, *p->title ? ", " : "", p->title);
	if (table_init(t, (unsigned)p->ncols + 1, title) < 0)
		return -ENOMEM;
	table_head(t, 0, rows, TA_LEFT);
	for (size_t c = 0; c < p->ncols; c++)
		table_head(t, (unsigned)c + 1, *p->colv[c] ? p->colv[c] : m->name, TA_RIGHT);
	for (size_t r = 0; r < p->nrows; r++) {
		size_t row = table_add_row(t);

		table_set(t, row, 0, p->rowv[r]);
		for (size_t c = 0; c < p->ncols; c++) {
			metric_format(&f, p->v[r * p->ncols + c], buf, sizeof(buf));
			table_set(t, row, (unsigned)c + 1, buf);
		}
	}
	return table_error(t);
}
