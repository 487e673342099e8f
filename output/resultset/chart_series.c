/* Room for a chart's series, and the names in its legend. */
#include "output/resultset/chart_series.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/resultset/chart_workload.h"
#include "output/resultset/charts.h"
#include "output/resultset/pivot.h"
#include "output/resultset/svg_chart.h"

struct chart_buf *chart_buf_new(size_t ns, size_t n)
{
	struct chart_buf *b = calloc(1, sizeof(*b));
	size_t all = (ns ? ns : 1) * (n ? n : 1);

	if (!b)
		return NULL;
	b->ns = ns;
	b->n = n;
	b->s = calloc(ns + 1, sizeof(*b->s));
	b->names = calloc(ns + 1, sizeof(*b->names));
	b->x = calloc(n + 1, sizeof(*b->x));
	b->y = malloc(all * sizeof(*b->y));
	b->err = malloc(all * sizeof(*b->err));
	b->xs = malloc(all * sizeof(*b->xs));
	b->point_names = calloc(n + 1, sizeof(*b->point_names));
	b->point_ptrs = calloc(n + 1, sizeof(*b->point_ptrs));
	if (!b->s || !b->names || !b->x || !b->y || !b->err || !b->xs || !b->point_names ||
	    !b->point_ptrs) {
		chart_buf_free(b);
		return NULL;
	}
	for (size_t i = 0; i < all; i++)
		b->y[i] = b->err[i] = b->xs[i] = NAN;
	for (size_t i = 0; i < n; i++)
		b->point_ptrs[i] = b->point_names[i];
	return b;
}

void chart_buf_free(struct chart_buf *b)
{
	if (!b)
		return;
	free(b->s);
	free(b->names);
	free(b->x);
	free(b->y);
	free(b->err);
	free(b->xs);
	free(b->point_names);
	free(b->point_ptrs);
	free(b);
}

double *chart_buf_y(struct chart_buf *b, size_t k)
{
	return b->y + k * b->n;
}

double *chart_buf_err(struct chart_buf *b, size_t k)
{
	return b->err + k * b->n;
}

double *chart_buf_xs(struct chart_buf *b, size_t k)
{
	return b->xs + k * b->n;
}

void chart_key_value(const char *key, const char *v, char *buf, size_t len)
{
	if (!key)
		snprintf(buf, len, "%s", v);
	else if (!strcmp(key, "job") || !strcmp(key, "label"))
		snprintf(buf, len, "%s '%s'", key, v);
	else
		snprintf(buf, len, "%s=%s", key, v);
}

void chart_subtitle(const struct pivot *p, char *buf, size_t len)
{
	chart_workload(p->units, p->nunits, buf, len);
}

const char *chart_title(const struct chart_opts *o, const char *title)
{
	return o && o->title ? o->title : title;
}

const char *chart_sub(const struct chart_opts *o, const char *subtitle)
{
	return o && o->subtitle ? o->subtitle : subtitle;
}

void chart_logs_sub(const struct chart_opts *o, const char *const *paths, size_t n,
		    const char *how, char *buf, size_t len)
{
	size_t at = (size_t)snprintf(buf, len, "%s%s%s", o && o->workload ? o->workload : "",
				     o && o->workload ? "; " : "", n > 1 ? "logs " : "log ");

	for (size_t i = 0; i < n && at < len; i++) {
		const char *base = strrchr(paths[i], '/');

		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "",
				       base ? base + 1 : paths[i]);
	}
	if (at < len && how)
		snprintf(buf + at, len - at, "; %s", how);
}
