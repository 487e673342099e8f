/*
 * The PTS suite's report (iojob report --format pts, and what iojob pts prints): for each
 * label and test, the steady state (the tracked variable round by round, the window and
 * its excursions), the specification's tables of the measurement window's averages, and
 * where the run departs from the specification, all from the result lines (pts_set.h).
 */
#include "output/resultset/seed_tables.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/resultset/metrics.h"
#include "output/resultset/pts_set.h"
#include "output/resultset/resultset_read.h"
#include "output/resultset/table.h"
#include "output/json_reader.h"
#include "parser/value.h"
#include "base/units.h"

#define MAX_AXIS	64

static int iops_tables(const struct pts_run *run, struct table **t, int *n);
static int tp_tables(const struct pts_run *run, struct table **t, int *n);
static int lat_tables(const struct pts_run *run, struct table **t, int *n);

const struct pts_test pts_tests[] = {
	{ "iops", "random IOPS by block size and read/write mix", false, false,
	  "1024k,128k,64k,32k,16k,8k,4k,512", "100,95,65,50,35,5,0", "iops", 1, "IOPS", "4k", iops_tables },
	{ "throughput", "sequential MB/s of 1024 KiB and 128 KiB reads and writes", true, false,
	  "1024k,128k", "0,100", "write_bw_bytes", 1e6, "MB/s", "1024k", tp_tables },
	{ "latency", "average and maximum response times at one I/O in flight", false, true,
	  "512,4k,8k", "100,65,0", "lat_mean", 1e6, "ms", "4k", lat_tables },
	{ NULL },
};

/* A figure with four significant digits or more, and no exponent. */
static void put_value(struct table *t, size_t row, unsigned col, double v)
{
	int dec = v >= 1000 ? 0 : v >= 100 ? 1 : v >= 10 ? 2 : 3;

	if (!isnan(v))
		table_setf(t, row, col, "%.*f", dec, v);
}

/* The distinct block sizes or mixes of the run's cells, in the order met. */
static size_t axis(const struct pts_run *run, bool mixes, const char **out)
{
	size_t n = 0;

	for (size_t i = 0; i < run->ncells; i++) {
		const char *v = mixes ? run->cells[i].mix : run->cells[i].bs;
		size_t k = 0;

		while (k < n && strcmp(out[k], v))
			k++;
		if (k == n && n < MAX_AXIS)
			out[n++] = v;
	}
	return n;
}

/* The largest of cell's metric over the window's rounds (maximum response times). */
static double window_max(const struct pts_run *run, const struct pts_cell *c,
			 const char *metric)
{
	struct metric m;
	double best = NAN;

	if (!c || !run->window.first || metric_parse(metric, &m) < 0)
		return NAN;
	for (unsigned r = run->window.first; r <= run->window.last; r++) {
		if (!c->rounds[r - 1])
			return NAN;
		best = fmax(best, metric_value(&m, c->rounds[r - 1]));
	}
	return best;
}

/*
 * A table of block sizes by mixes: the window's average (or maximum) of metric divided
 * by div; head names each mix column (NULL: the mix, "65/35").
 */
static int matrix_table(const struct pts_run *run, struct table **t, int *n, const char *what,
			const char *metric, double div, bool max,
			void (*head)(const char *mix, const char *name, char *buf, size_t len))
{
	const char *bs[MAX_AXIS], *mix[MAX_AXIS];
	size_t nbs = axis(run, false, bs), nmix = axis(run, true, mix);
	char title[384], name[32], col[64];
	struct table *tb;

	snprintf(title, sizeof(title), "%s: %s test, %s, rounds %u-%u", run->label,
		 run->test->name, what, run->window.first, run->window.last);
	tb = seed_add_table(t, n, (unsigned)nmix + 1, title);
	if (!tb)
		return -1;
	table_head(tb, 0, "block size", TA_LEFT);
	for (size_t k = 0; k < nmix; k++) {
		pts_mix_name(mix[k], name, sizeof(name));
		if (head)
			head(mix[k], name, col, sizeof(col));
		table_head(tb, (unsigned)k + 1, head ? col : name, TA_RIGHT);
	}
	for (size_t i = 0; i < nbs; i++) {
		size_t row = table_add_row(tb);

		table_set(tb, row, 0, bs[i]);
		for (size_t k = 0; k < nmix; k++) {
			const struct pts_cell *c = pts_cell_find(run, bs[i], mix[k]);
			double v = max ? window_max(run, c, metric)
				       : pts_window_average(run, c, metric);

			put_value(tb, row, (unsigned)k + 1, v / div);
		}
	}
	return 0;
}

static int iops_tables(const struct pts_run *run, struct table **t, int *n)
{
	return matrix_table(run, t, n, "average IOPS (columns: read/write mix)", "iops", 1,
			    false, NULL);
}

/* Sequential cells: 100% reads, 100% writes, or a mix of both. */
static void tp_head(const char *mix, const char *name, char *buf, size_t len)
{
	if (!strcmp(mix, "100"))
		snprintf(buf, len, "read MB/s");
	else if (!strcmp(mix, "0"))
		snprintf(buf, len, "write MB/s");
	else
		snprintf(buf, len, "R/W %s MB/s", name);
}

static int tp_tables(const struct pts_run *run, struct table **t, int *n)
{
	return matrix_table(run, t, n, "average throughput (decimal MB/s)", "bw_bytes", 1e6,
			    false, tp_head);
}

static int lat_tables(const struct pts_run *run, struct table **t, int *n)
{
	if (matrix_table(run, t, n, "average response time (ms; columns: read/write mix)",
			 "lat_mean", 1e6, false, NULL) < 0)
		return -1;
	return matrix_table(run, t, n, "maximum response time (ms; columns: read/write mix)",
			    "lat_max", 1e6, true, NULL);
}

/* What is tracked, in the specification's words: "bs=4k, R/W 0/100: iops". */
static void tracked_name(const struct pts_run *run, char *buf, size_t len)
{
	char mix[32];

	if (!run->track) {
		snprintf(buf, len, "none (no cell of the matrix is tracked)");
		return;
	}
	pts_mix_name(run->track->mix, mix, sizeof(mix));
	snprintf(buf, len, "%s at bs=%s, R/W %s (%s)", run->test->track, run->track->bs, mix,
		 run->test->track_unit);
}

/* A row: what (when not NULL) in the first column, then the formatted text. */
static void add_row(struct table *t, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void add_row(struct table *t, const char *what, const char *fmt, ...)
{
	size_t row = table_add_row(t);
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (what)
		table_set(t, row, 0, what);
	table_set(t, row, what ? 1 : 0, buf);
}

/* A row of one column: a departure from the specification. */
#define add_line(t, ...) add_row(t, NULL, __VA_ARGS__)

/* The steady state in a few lines: what is tracked, where the window held, its figures. */
static int summary_table(const struct pts_run *run, struct table **t, int *n)
{
	const struct pts_window *w = &run->window;
	double div = run->test->track_div;
	char title[384], name[256];
	struct table *tb;

	snprintf(title, sizeof(title), "%s: %s test, steady state", run->label, run->test->name);
	tb = seed_add_table(t, n, 2, title);
	if (!tb)
		return -1;
	table_head(tb, 0, "item", TA_LEFT);
	table_head(tb, 1, "value", TA_LEFT);
	tracked_name(run, name, sizeof(name));
	add_row(tb, "tracked", "%s", name);
	add_row(tb, "rounds", "%u", run->nrounds);
	if (run->attained)
		add_row(tb, "steady state", "attained at round %u", run->attained);
	else
		add_row(tb, "steady state", "not attained in %u rounds", run->nrounds);
	if (!w->first)
		return 0;
	add_row(tb, "window", "rounds %u-%u", w->first, w->last);
	add_row(tb, "average", "%.6g", w->avg / div);
	add_row(tb, "range", "%.6g (%.2f%% of the average; at most %.0f%%)",
		 (w->max - w->min) / div, w->range_frac * 100, PTS_RANGE_LIMIT * 100);
	add_row(tb, "slope", "%.6g per round (excursion %.2f%% of the average; at most %.0f%%)",
		 w->slope / div, w->slope_frac * 100, PTS_SLOPE_LIMIT * 100);
	return 0;
}

/* The tracked variable round by round, the window's rounds marked. */
static int rounds_table(const struct pts_run *run, struct table **t, int *n)
{
	char title[384], head[64];
	struct table *tb;

	snprintf(title, sizeof(title), "%s: %s test, tracked variable by round", run->label,
		 run->test->name);
	tb = seed_add_table(t, n, 3, title);
	if (!tb)
		return -1;
	snprintf(head, sizeof(head), "%s %s", run->test->track, run->test->track_unit);
	table_head(tb, 0, "round", TA_RIGHT);
	table_head(tb, 1, head, TA_RIGHT);
	table_head(tb, 2, "window", TA_LEFT);
	for (unsigned r = 1; r <= run->nrounds; r++) {
		size_t row = table_add_row(tb);

		table_setf(tb, row, 0, "%u", r);
		put_value(tb, row, 1, run->tracked[r - 1] / run->test->track_div);
		if (r >= run->window.first && r <= run->window.last && run->window.first)
			table_set(tb, row, 2, "*");
	}
	return 0;
}

static double fact_num(const struct pts_run *run, const char *key)
{
	const char *s = pts_run_fact(run, key);

	return s ? strtod(s, NULL) : NAN;
}

/* The purge as it was done, or why it was not. */
static void purge_departure(struct table *t, const struct pts_run *run, bool file)
{
	double err;

	if (!run->purge) {
		add_line(t, "not purged (--purge none)");
		return;
	}
	err = jv_num(jv_get(run->purge->jobs[0], "error"), 0);
	if (err > 0)
		add_line(t, "not purged: discarding the target failed (%s)", strerror((int)err));
	else if (file)
		add_line(t, "purged by punching holes in the whole file");
	else
		add_line(t, "purged by discarding every block (BLKDISCARD), not by a secure erase "
			 "or format");
}

/* A scale smaller than the specification's: capacity, round length, rounds allowed. */
static void scale_departures(struct table *t, const struct pts_run *run)
{
	double whole = fact_num(run, "pts_target_bytes"), max = fact_num(run, "pts_max_rounds");
	double used = run->precondition ? seed_size_option(run->precondition, "size") : NAN;
	const struct rs_unit *u = run->ncells ? run->cells[0].rounds[0] : NULL;
	const char *rt = u ? rs_value(u->cell, u, "runtime") : NULL;
	uint64_t ns;

	if (!run->precondition)
		add_line(t, "no workload-independent preconditioning");
	if (used < whole)
		add_line(t, "%.0f of the target's %.0f bytes used (%.4g%%)", used, whole,
			 used / whole * 100);
	if (rt && value_parse_time(rt, NS_PER_SEC, &ns) == 0 && ns != 60 * NS_PER_SEC)
		add_line(t, "each cell of a round ran %.6g s, not one minute", ns / 1e9);
	if (max < PTS_MAX_ROUNDS)
		add_line(t, "at most %.0f rounds, not %d", max, PTS_MAX_ROUNDS);
}

/* Whether list (comma-separated) holds exactly the values of the run's axis. */
static bool same_axis(const struct pts_run *run, bool mixes, const char *list)
{
	const char *v[MAX_AXIS];
	size_t n = axis(run, mixes, v), i = 0;

	for (const char *p = list; *p; p += strcspn(p, ","), p += *p == ',', i++)
		if (i >= n || strlen(v[i]) != strcspn(p, ",") || strncmp(v[i], p, strlen(v[i])))
			return false;
	return i == n;
}

static void matrix_departures(struct table *t, const struct pts_run *run)
{
	const char *bs[MAX_AXIS], *mix[MAX_AXIS];

	if (!same_axis(run, false, run->test->bs) || !same_axis(run, true, run->test->mixes))
		add_line(t, "a matrix of %zu block sizes by %zu mixes, not the specification's "
			 "(%s by %s)", axis(run, false, bs), axis(run, true, mix), run->test->bs,
			 run->test->mixes);
	if (run->track && (strcmp(run->track->bs, run->test->track_bs) ||
			   strcmp(run->track->mix, "0")))
		add_line(t, "tracked at bs=%s, read share %s%%: the specification tracks bs=%s, "
			 "all writes", run->track->bs, run->track->mix, run->test->track_bs);
	if (run->test->seq && axis(run, false, bs) > 1)
		add_line(t, "its block sizes share one loop of rounds, tracked on the first; the "
			 "specification runs each in a loop of its own");
}

static int departures_table(const struct pts_run *run, struct table **t, int *n)
{
	const char *target = pts_run_fact(run, "pts_target");
	bool file = target && !strcmp(target, "file");
	char title[384];
	struct table *tb;

	snprintf(title, sizeof(title), "%s: %s test, departures from the specification",
		 run->label, run->test->name);
	tb = seed_add_table(t, n, 1, title);
	if (!tb)
		return -1;
	table_head(tb, 0, "departure", TA_LEFT);
	if (file)
		add_line(tb, "the target is a file, not a device");
	purge_departure(tb, run, file);
	scale_departures(tb, run);
	matrix_departures(tb, run);
	if (!run->attained)
		add_line(tb, "steady state not attained: the tables show the last %u rounds",
			 run->window.first ? run->window.last - run->window.first + 1 : 0);
	return 0;
}

/* Results without a run of iojob pts: a table that says so rather than no output at all. */
static int no_runs(struct table **t, int *n)
{
	struct table *tb = seed_add_table(t, n, 1, "iojob pts");

	if (!tb)
		return -1;
	table_head(tb, 0, "note", TA_LEFT);
	add_line(tb, "no run of iojob pts among the results selected");
	return 0;
}

int pts_tables(const struct rs_sel *sel, struct table **out)
{
	struct pts_run *runs;
	int nruns = pts_runs(sel, &runs), n = 0, failed = nruns < 0;

	*out = NULL;
	for (int i = 0; !failed && i < nruns; i++) {
		failed |= summary_table(&runs[i], out, &n) < 0;
		failed = failed || rounds_table(&runs[i], out, &n) < 0;
		if (!failed && runs[i].window.first)
			failed = runs[i].test->tables(&runs[i], out, &n) < 0;
		failed = failed || departures_table(&runs[i], out, &n) < 0;
	}
	if (nruns > 0)
		pts_runs_free(runs, (size_t)nruns);
	if (!failed && !nruns)
		failed = no_runs(out, &n) < 0;
	return seed_finish(out, n, failed);
}
