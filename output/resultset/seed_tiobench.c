/*
 * tiobench's summary (seed table J), a table per phase (job section): Rate in MiB/s over
 * the phase's wall time, CPU% of the whole process over it (above 100 on several CPUs),
 * latencies in ms, the share of I/Os slower than 2 s and 10 s, and CPU Eff = Rate / CPU.
 */
#include "output/resultset/seed_tables.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/resultset/resultset_read.h"
#include "output/resultset/table.h"
#include "output/resultset/unit_stats.h"
#include "base/units.h"

#define NCOLS	11

static const char *const heads[NCOLS] = {
	"Identifier", "File Size MiB", "Blk Size", "Num Thr", "Rate MiB/s", "CPU%",
	"Avg Lat ms", "Max Lat ms", "Lat% >2s", "Lat% >10s", "CPU Eff",
};

/*
 * tiotest's phases by the section names of the seed's job file, in the order tiobench.pl
 * prints them (and the seed's table J shows them): reads first, though writes run first.
 */
static const char *const phases[][2] = {
	{ "read", "Sequential Reads" }, { "rread", "Random Reads" },
	{ "write", "Sequential Writes" }, { "rwrite", "Random Writes" },
};

static const char *phase_title(const char *job)
{
	for (size_t i = 0; i < ARRAY_SIZE(phases); i++)
		if (!strcmp(job, phases[i][0]))
			return phases[i][1];
	return job;
}

/* Where a phase's table goes: tiobench's four in its order, any other after, as run. */
static double phase_rank(const char **seen, size_t *n, const char *job)
{
	for (size_t i = 0; i < ARRAY_SIZE(phases); i++)
		if (!strcmp(job, phases[i][0]))
			return (double)i;
	return (double)ARRAY_SIZE(phases) + seed_rank(seen, n, job);
}

/* File size of all threads: the size option times the threads, else the bytes moved. */
static double file_mib(const struct rs_unit *u)
{
	double size = seed_size_option(u, "size");

	if (size > 0)
		return size * seed_threads(u) / (1 << 20);
	return (double)us_bytes(u, US_ALL) / (1 << 20);
}

static void lat_cols(struct table *t, size_t r, const struct rs_unit *u)
{
	double ios = (double)us_ios(u, US_ALL), over2, over10;
	struct us_moments mo;

	if (us_lat_moments(u, US_ALL, US_LAT, &mo) == 0) {
		table_setf(t, r, 6, "%.3f", mo.mean_ns / 1e6);
		table_setf(t, r, 7, "%.2f", mo.max_ns / 1e6);
	}
	over2 = us_lat_over(u, 2000000000ULL, "2s");
	over10 = us_lat_over(u, 10 * NS_PER_SEC, "10s");
	if (ios > 0 && !isnan(over2))
		table_setf(t, r, 8, "%.5f", 100.0 * over2 / ios);
	if (ios > 0 && !isnan(over10))
		table_setf(t, r, 9, "%.5f", 100.0 * over10 / ios);
}

static void tiobench_row(struct table *t, const struct rs_unit *u)
{
	size_t r = table_add_row(t);
	double wall = us_wall_s(u), rate = NAN, usr, sys;
	const char *id = *u->cell->label ? u->cell->label : rs_value(u->cell, u, "kernel");

	table_set(t, r, 0, id);
	table_setf(t, r, 1, "%.0f", file_mib(u));
	if (seed_size_option(u, "bs") > 0)
		table_setf(t, r, 2, "%.0f", seed_size_option(u, "bs"));
	table_setf(t, r, 3, "%u", seed_threads(u));
	if (wall > 0) {
		rate = (double)us_bytes(u, US_ALL) / (1 << 20) / wall;
		table_setf(t, r, 4, "%.2f", rate);
	}
	if (us_cpu_pct(u, &usr, &sys) == 0) {
		table_setf(t, r, 5, "%.2f", usr + sys);
		if (usr + sys > 0 && !isnan(rate))
			table_setf(t, r, 10, "%.0f", rate / ((usr + sys) / 100));
	}
	lat_cols(t, r, u);
}

int tiobench_tables(const struct rs_sel *sel, struct table **out)
{
	const char **seen = malloc((2 * sel->n + 1) * sizeof(*seen));
	struct seed_row *rows = malloc((sel->n + 1) * sizeof(*rows));
	struct table *t = NULL;
	size_t nj = 0, nl = 0;
	int n = 0, failed = !seen || !rows;

	*out = NULL;
	for (size_t i = 0; !failed && i < sel->n; i++) {
		const struct rs_unit *u = &sel->units[i];

		rows[i] = (struct seed_row){ u, { phase_rank(seen, &nj, u->name),
			  seed_rank(seen + sel->n, &nl, u->cell->label), seed_threads(u) }, i };
	}
	if (!failed)
		seed_sort(rows, sel->n);
	for (size_t i = 0; !failed && i < sel->n; i++) {
		if (!i || rows[i].rank[0] != rows[i - 1].rank[0]) {
			t = seed_add_table(out, &n, NCOLS, phase_title(rows[i].u->name));
			failed = !t;
			for (unsigned c = 0; t && c < NCOLS; c++)
				table_head(t, c, heads[c], c ? TA_RIGHT : TA_LEFT);
		}
		if (t)
			tiobench_row(t, rows[i].u);
	}
	free(seen);
	free(rows);
	return seed_finish(out, n, failed);
}
