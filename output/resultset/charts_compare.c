/* iojob compare --svg: bars of one metric, a bar per side for each run in common. */
#include "output/resultset/charts_compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/resultset/chart_series.h"
#include "output/resultset/chart_workload.h"
#include "output/resultset/cmd_common.h"
#include "output/resultset/compare.h"
#include "output/resultset/metrics.h"
#include "output/resultset/resultset_read.h"
#include "output/resultset/svg_chart.h"

#define RUN_NAME_LEN	64

/* A run's name under its bars: its swept values, with the job when they differ. */
static void run_name(const struct rs_unit *rep, bool with_job, char *buf, size_t len)
{
	char cell[512];

	rs_cell_str(rep->cell, "", cell, sizeof(cell));
	buf[0] = '\0';		/* cut to fit: the legend's width has a limit */
	if (with_job || !*cell)
		cmd_append(buf, len, "%s%s%s", rep->name, *cell ? ": " : "", cell);
	else
		cmd_append(buf, len, "%s", cell);
}

static bool several_jobs(const struct rs_unit *const *reps, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (strcmp(reps[i]->name, reps[0]->name))
			return true;
	return false;
}

static int draw(FILE *f, struct chart_buf *b, const char *const *names, size_t nruns,
		unsigned nsides, const struct metric *m, const struct rs_unit *const *reps,
		const char *const *given)
{
	struct metric_fmt fmt;
	char title[160], ylabel[160], sub[600], desc[128];

	metric_fmt_for(m, b->y, nsides * b->n, &fmt);	/* the slots past nruns hold NAN */
	for (size_t i = 0; i < nsides * b->n; i++)
		b->y[i] /= fmt.div;
	metric_title(m, title, sizeof(title));
	metric_label(m, &fmt, ylabel, sizeof(ylabel));
	chart_workload(reps, nruns, sub, sizeof(sub));
	snprintf(desc, sizeof(desc), "a bar per side for each run the sides have in common (%s)",
		 metric_better(m) == BETTER_HIGHER ? "higher is better" :
		 metric_better(m) == BETTER_LOWER ? "lower is better" : "neither way better");
	return svg_chart_write(f, &(struct svg_chart){
		.title = given[0] ? given[0] : title, .subtitle = given[1] ? given[1] : sub,
		.x_label = "run", .y_label = ylabel,
		.x_scale = SVG_CATEGORY, .y_scale = SVG_LINEAR, .x_names = names,
		.nx_names = nruns, .series = b->s, .nseries = nsides, .mark = SVG_BARS,
		.desc = desc });
}

int chart_compare(FILE *f, const struct cmp_side *sides, unsigned nsides,
		  const struct metric *m, const char *title, const char *subtitle)
{
	const char *given[2] = { title, subtitle };
	size_t total = 0, nruns, k = 0;
	const struct rs_unit **reps, **common;
	const char **names;
	struct chart_buf *b;
	int ret = -ENOMEM;

	for (unsigned s = 0; s < nsides; s++)
		total += sides[s].n;
	reps = malloc((total + 1) * sizeof(*reps));
	common = malloc((total + 1) * sizeof(*common));
	names = malloc((total + 1) * sizeof(*names));
	b = chart_buf_new(nsides, total + 1);
	if (!reps || !common || !names || !b)
		goto out;
	nruns = compare_runs(sides, nsides, reps, total);
	for (size_t r = 0; r < nruns; r++) {
		unsigned found = 0;

		for (unsigned s = 0; s < nsides; s++)
			found += compare_find(&sides[s], reps[r]) != NULL;
		if (found < 2)
			continue;	/* nothing to compare it with */
		for (unsigned s = 0; s < nsides; s++) {
			const struct rs_unit *u = compare_find(&sides[s], reps[r]);

			chart_buf_y(b, s)[k] = u ? metric_value(m, u) : NAN;
		}
		run_name(reps[r], several_jobs(reps, nruns), b->point_names[k],
			 sizeof(b->point_names[0]));
		names[k] = b->point_names[k];
		b->x[k] = (double)k;
		common[k++] = reps[r];
	}
	for (unsigned s = 0; s < nsides; s++)
		b->s[s] = (struct svg_series){ sides[s].name, b->x, chart_buf_y(b, s), k };
	ret = draw(f, b, names, k, nsides, m, common, given);
out:
	chart_buf_free(b);
	free(reps);
	free(common);
	free(names);
	return ret;
}
