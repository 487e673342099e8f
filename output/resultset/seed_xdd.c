/*
 * xdd's verbose pass lines (seed table K), a table per cell: a row per pass (the units of
 * a job run with passes=N, or each job when none has passes), each target's Average (sums;
 * rates over the summed time) and Combined over every target. Rate is decimal MB/s and
 * Latency milliseconds per op as each of the Q in flight sees it, Q * time / ops.
 *
 * That is xdd's definition (xdd 7, src/client/results_manager.c, xdd_combine_results()):
 * a qthread's latency is its pass time over its op count, times 1000; a target's is the
 * mean of its Q qthreads' (each did ops / Q); an Average's the mean over passes, which
 * did the same ops. The seed's xdd 6.5 printed 0.0000 where this gives 0.0492 ms (0.806 s
 * over 16384 ops at Q 1): it printed seconds, 0.0000492 to four places.
 */
#include "output/resultset/seed_tables.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/resultset/resultset_read.h"
#include "output/resultset/table.h"
#include "output/resultset/unit_stats.h"

#define NCOLS	12

static const char *const heads[NCOLS] = {
	"", "T", "Q", "Bytes", "Ops", "Time", "Rate", "IOPS", "Latency", "%CPU", "OP_Type",
	"ReqSize",
};

/* The sums of one or more passes. */
struct xdd_sum {
	double bytes, ops, time_s, cpu_s;
	unsigned q;
	double reqsize;
	const char *op;
};

static const char *op_type(const struct rs_unit *u)
{
	int r = us_ios(u, US_READ) > 0, w = us_ios(u, US_WRITE) > 0;

	return r && w ? "mixed" : w ? "write" : us_ios(u, US_TRIM) ? "trim" : "read";
}

static struct xdd_sum pass_sum(const struct rs_unit *u)
{
	double usr = 0, sys = 0, depth = seed_size_option(u, "iodepth");
	struct xdd_sum s = {
		.bytes = (double)us_bytes(u, US_ALL), .ops = (double)us_ios(u, US_ALL),
		.time_s = us_wall_s(u), .reqsize = seed_size_option(u, "bs"), .op = op_type(u),
	};

	s.q = (depth > 0 ? (unsigned)depth : 1) * seed_threads(u);
	if (us_cpu_pct(u, &usr, &sys) == 0)
		s.cpu_s = (usr + sys) / 100 * s.time_s;
	return s;
}

static void add_sum(struct xdd_sum *to, const struct xdd_sum *s)
{
	to->bytes += s->bytes;
	to->ops += s->ops;
	to->time_s += s->time_s;
	to->cpu_s += s->cpu_s;
	if (!to->op) {
		to->op = s->op;
		to->q = s->q;
		to->reqsize = s->reqsize;
	}
}

static void xdd_row(struct table *t, const char *name, unsigned target, const struct xdd_sum *s)
{
	size_t r = table_add_row(t);

	table_set(t, r, 0, name);
	table_setf(t, r, 1, "%u", target);
	table_setf(t, r, 2, "%u", s->q);
	table_setf(t, r, 3, "%.0f", s->bytes);
	table_setf(t, r, 4, "%.0f", s->ops);
	table_setf(t, r, 5, "%.3f", s->time_s);
	if (s->time_s > 0) {
		table_setf(t, r, 6, "%.3f", s->bytes / s->time_s / 1e6);
		table_setf(t, r, 7, "%.2f", s->ops / s->time_s);
		table_setf(t, r, 9, "%.2f", 100 * s->cpu_s / s->time_s);
	}
	if (s->ops > 0)
		table_setf(t, r, 8, "%.4f", s->q * s->time_s / s->ops * 1000);
	table_set(t, r, 10, s->op);
	table_setf(t, r, 11, "%.0f", s->reqsize);
}

/* One target's pass rows and Average; its units are u[0..n) with the same target key. */
static void target_rows(struct table *t, const struct rs_unit *const *u, size_t n,
			unsigned target, struct xdd_sum *avg)
{
	char name[32];

	*avg = (struct xdd_sum){ 0 };
	for (size_t i = 0; i < n; i++) {
		struct xdd_sum s = pass_sum(u[i]);

		snprintf(name, sizeof(name), "TARGET PASS%04zu", i + 1);
		xdd_row(t, name, target, &s);
		add_sum(avg, &s);
	}
	xdd_row(t, "TARGET Average", target, avg);
}

/* The units of one target: all of them without passes, else those of one job by pass. */
static size_t take_target(const struct rs_unit *u, size_t n, size_t first, int passes,
			  char *used, const struct rs_unit **list)
{
	size_t k = 0;

	for (size_t j = first; j < n; j++) {
		if (used[j] || (passes && strcmp(u[j].jobname, u[first].jobname)))
			continue;
		used[j] = 1;
		list[k] = &u[j];
		for (size_t m = k++; m && list[m - 1]->pass > list[m]->pass; m--) {
			const struct rs_unit *tmp = list[m];

			list[m] = list[m - 1];
			list[m - 1] = tmp;
		}
	}
	return k;
}

static int cell_rows(struct table *t, const struct rs_unit *u, size_t n)
{
	const struct rs_unit **list = malloc(n * sizeof(*list));
	char *used = calloc(n, 1);
	struct xdd_sum avg, all = { 0 };
	unsigned ntargets = 0;
	double time_s = 0;
	int passes = 0;

	if (!list || !used) {
		free(list);
		free(used);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		passes |= u[i].pass > 0;
	for (size_t i = 0; i < n; i++) {
		size_t k;

		if (used[i])
			continue;
		k = take_target(u, n, i, passes, used, list);
		target_rows(t, list, k, ntargets++, &avg);
		add_sum(&all, &avg);
		all.q += ntargets > 1 ? avg.q : 0;
		/* targets run side by side: the combined time is the longest one's */
		time_s = avg.time_s > time_s ? avg.time_s : time_s;
	}
	all.time_s = time_s;
	xdd_row(t, "Combined", ntargets, &all);
	free(list);
	free(used);
	return 0;
}

int xdd_tables(const struct rs_sel *sel, struct table **out)
{
	int n = 0, failed = 0;
	char title[512];

	*out = NULL;
	for (size_t i = 0, end; !failed && i < sel->n; i = end) {
		const struct rs_cell *c = sel->units[i].cell;
		struct table *t;

		for (end = i; end < sel->n && sel->units[end].cell == c; end++)
			;
		rs_cell_str(c, c->label, title, sizeof(title));
		t = seed_add_table(out, &n, NCOLS, *title ? title : NULL);
		failed = !t;
		for (unsigned col = 0; t && col < NCOLS; col++)
			table_head(t, col, heads[col], col && col < 10 ? TA_RIGHT : TA_LEFT);
		if (t)
			failed = cell_rows(t, &sel->units[i], end - i) < 0;
	}
	return seed_finish(out, n, failed);
}
