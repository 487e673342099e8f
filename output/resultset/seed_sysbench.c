/*
 * sysbench fileio's result rows (seed tables B-F): bytes/sec in sysbench's own units,
 * req/sec over the wall time with fsyncs left out, the 95th percentile of reads and writes
 * together (merged bins) and the slowest request, both in ms.
 */
#include "output/resultset/seed_tables.h"

#include <stdlib.h>

#include "output/resultset/resultset_read.h"
#include "output/resultset/table.h"
#include "output/resultset/unit_stats.h"

#define NCOLS	7

static const char *const heads[NCOLS] = {
	"size", "type", "thr", "bytes/sec", "req/sec", "95% resp. time, ms", "max resp time, ms",
};

static void sysbench_row(struct table *t, const struct rs_unit *u)
{
	const double pct = 95;
	double wall = us_wall_s(u), p95;
	double ios = (double)(us_ios(u, US_ALL) - us_ios(u, US_TRIM));
	double bytes = (double)(us_bytes(u, US_ALL) - us_bytes(u, US_TRIM));
	size_t r = table_add_row(t);
	struct us_moments mo;
	char buf[64];

	table_set(t, r, 0, rs_value(u->cell, u, "size"));
	table_set(t, r, 1, sysbench_mode(rs_value(u->cell, u, "rw")));
	table_setf(t, r, 2, "%u", seed_threads(u));
	if (wall > 0) {
		sysbench_bytes(bytes / wall, buf, sizeof(buf));
		table_set(t, r, 3, buf);
		table_setf(t, r, 4, "%.2f", ios / wall);
	}
	if (us_lat_percentiles(u, US_ALL, US_LAT, &pct, 1, &p95) == 0)
		table_setf(t, r, 5, "%.2f", p95 / 1e6);
	if (us_lat_moments(u, US_ALL, US_LAT, &mo) == 0)
		table_setf(t, r, 6, "%.2f", mo.max_ns / 1e6);
}

/* Rank by label, size and mode as first met, then thread count, as the seeds list them. */
static struct seed_row *ordered(const struct rs_sel *sel, const char **seen)
{
	struct seed_row *rows = malloc((sel->n ? sel->n : 1) * sizeof(*rows));
	size_t nl = 0, ns = 0, nm = 0;

	for (size_t i = 0; rows && i < sel->n; i++) {
		const struct rs_unit *u = &sel->units[i];

		rows[i] = (struct seed_row){ u, { 0 }, i };
		rows[i].rank[0] = seed_rank(seen, &nl, u->cell->label);
		rows[i].rank[1] = seed_rank(seen + sel->n, &ns, rs_value(u->cell, u, "size"));
		rows[i].rank[2] = seed_rank(seen + 2 * sel->n, &nm,
					    sysbench_mode(rs_value(u->cell, u, "rw")));
		rows[i].rank[3] = seed_threads(u);
	}
	if (rows)
		seed_sort(rows, sel->n);
	return rows;
}

int sysbench_tables(const struct rs_sel *sel, struct table **out)
{
	const char **seen = malloc((3 * sel->n + 1) * sizeof(*seen));
	struct seed_row *rows = seen ? ordered(sel, seen) : NULL;
	struct table *t = NULL;
	int n = 0;

	*out = NULL;
	for (size_t i = 0; rows && i < sel->n; i++) {
		const char *label = rows[i].u->cell->label;

		if (!i || rows[i].rank[0] != rows[i - 1].rank[0]) {
			t = seed_add_table(out, &n, NCOLS, *label ? label : NULL);
			if (!t)
				break;
			for (unsigned c = 0; c < NCOLS; c++)
				table_head(t, c, heads[c], c < 2 ? TA_LEFT : TA_RIGHT);
		}
		sysbench_row(t, rows[i].u);
	}
	free(seen);
	n = seed_finish(out, n, !rows || (sel->n && !t));
	free(rows);
	return n;
}
