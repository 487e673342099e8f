/*
 * The seed table shapes' table, and what their builders share: sysbench's numbers and
 * names, options, table lists.
 */
#include "output/resultset/seed_tables.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/resultset/resultset_read.h"
#include "output/resultset/table.h"
#include "parser/value.h"
#include "base/units.h"

const struct seed_shape seed_shapes[] = {
	{ "sysbench", "size, type, thr, bytes/sec, req/sec, 95% and max response ms",
	  sysbench_tables },
	{ "tiobench", "a table per phase", tiobench_tables },
	{ "xdd", "a row per pass, Average, Combined", xdd_tables },
	{ "pts", "iojob pts: steady state, the specification's tables, departures",
	  pts_tables },
	{ NULL },
};

const struct seed_shape *seed_shape_find(const char *name)
{
	for (const struct seed_shape *sh = seed_shapes; sh->name; sh++)
		if (!strcmp(sh->name, name))
			return sh;
	return NULL;
}

void sysbench_bytes(double bytes, char *buf, size_t len)
{
	static const char *const unit[] = { "b", "Kb", "Mb", "Gb", "Tb" };
	unsigned i = 0;

	while (bytes >= 1024 && i + 1 < ARRAY_SIZE(unit)) {
		bytes /= 1024;
		i++;
	}
	snprintf(buf, len, "%.5g%s", bytes, unit[i]);
}

/* fio's names of the access patterns sysbench names too, and fio's own second names */
static const char *const rw_names[][2] = {
	{ "read", "seqrd" }, { "write", "seqwr" }, { "randread", "rndrd" },
	{ "randwrite", "rndwr" }, { "randrw", "rndrw" },
};

const char *sysbench_mode(const char *rw)
{
	for (size_t i = 0; rw && i < ARRAY_SIZE(rw_names); i++)
		if (!strcmp(rw, rw_names[i][0]))
			return rw_names[i][1];
	return rw ? rw : "";
}

const char *rw_fio_name(const char *rw)
{
	for (size_t i = 0; i < ARRAY_SIZE(rw_names); i++)
		if (!strcmp(rw, rw_names[i][1]))
			return rw_names[i][0];
	if (!strcmp(rw, "seqrewr"))
		return "write";		/* sysbench's rewrite is fio's write of laid-out files */
	if (!strcmp(rw, "readwrite"))
		return "rw";
	return rw;
}

unsigned seed_threads(const struct rs_unit *u)
{
	/* what ran (a result set written before iojob.options: what the section set) */
	const char *nj = jv_str(jv_get(jv_path(u->jobs[0], "iojob.options"), "numjobs"),
				jv_str(jv_get(jv_get(u->jobs[0], "job options"), "numjobs"), NULL));
	long long n;

	/* with group_reporting the clones are one job; its numjobs says how many ran */
	if (u->njobs == 1 && nj && value_parse_int(nj, &n) == 0 && n > 0)
		return (unsigned)n;
	return u->njobs;
}

double seed_size_option(const struct rs_unit *u, const char *key)
{
	const char *s = rs_value(u->cell, u, key);
	uint64_t v;

	if (!s || value_parse_size(s, 1024, &v) < 0)
		return 0;
	return (double)v;
}

struct table *seed_add_table(struct table **tables, int *n, unsigned ncols, const char *title)
{
	struct table *t = realloc(*tables, (size_t)(*n + 1) * sizeof(*t));

	if (!t)
		return NULL;
	*tables = t;
	if (table_init(&t[*n], ncols, title) < 0)
		return NULL;
	return &t[(*n)++];
}

int seed_finish(struct table **tables, int n, int failed)
{
	for (int i = 0; i < n; i++)
		failed |= table_error(&(*tables)[i]);
	if (!failed)
		return n;
	seed_free_tables(*tables, n);
	*tables = NULL;
	return -ENOMEM;
}

void seed_free_tables(struct table *tables, int n)
{
	for (int i = 0; i < n; i++)
		table_free(&tables[i]);
	free(tables);
}

static int cmp_rows(const void *a, const void *b)
{
	const struct seed_row *x = a, *y = b;

	for (unsigned i = 0; i < SEED_RANKS; i++)
		if (x->rank[i] != y->rank[i])
			return x->rank[i] < y->rank[i] ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

void seed_sort(struct seed_row *rows, size_t n)
{
	qsort(rows, n, sizeof(*rows), cmp_rows);
}

double seed_rank(const char **seen, size_t *n, const char *s)
{
	size_t i;

	s = s ? s : "";
	for (i = 0; i < *n && strcmp(seen[i], s); i++)
		;
	if (i == *n)
		seen[(*n)++] = s;
	return (double)i;
}
