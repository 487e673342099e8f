/*
 * The end of a suite: its report read back from the result set (the pts shape of iojob
 * report, for this label), on stdout and in DIR/LABEL-report.txt, one page in
 * DIR/LABEL-report.html,
 * and each test's plots as DIR/LABEL-TEST-convergence.svg and DIR/LABEL-TEST-window.svg.
 */
#include "pts/pts_priv.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/diag.h"
#include "base/exit_code.h"
#include "engine/devices/path_guard.h"
#include "output/resultset/html_page.h"
#include "output/resultset/pts_charts.h"
#include "output/resultset/resultset_read.h"
#include "output/resultset/seed_tables.h"
#include "output/resultset/table.h"
#include "output/stream.h"

struct report_data {
	struct rs_set set;
	struct rs_sel sel;
	struct table *tables;
	int ntables;
	struct pts_run *runs;
	int nruns;
};

/* A label as part of a file name: what is not a letter, digit, '.', '-' or '_' reads '_'. */
static void file_part(const char *s, char *buf, size_t len)
{
	size_t i = 0;

	for (; s[i] && i + 1 < len; i++)
		buf[i] = strchr("._-", s[i]) || (s[i] >= 'a' && s[i] <= 'z') ||
			 (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ? s[i] : '_';
	buf[i] = '\0';
}

static int fail_file(const char *path, int err)
{
	fprintf(stderr, "iojob pts: cannot write '%s': %s\n", path, strerror(-err));
	return EXIT_JOB_FAILED;
}

/* Write one file by fn; closing it checks every write. Returns 0 or 1 after saying why. */
static int write_file(const char *path, int (*fn)(FILE *f, const struct report_data *r,
						   int arg), const struct report_data *r, int arg)
{
	char why[512];
	FILE *f = path_fopen(path, "w", why, sizeof(why));
	int ret, err;

	if (!f) {
		fprintf(stderr, "iojob pts: cannot write '%s': %s\n", path, why);
		return EXIT_JOB_FAILED;
	}
	ret = fn(f, r, arg);
	err = stream_finish(f, true);
	return ret < 0 || err < 0 ? fail_file(path, err < 0 ? err : ret) : 0;
}

static int text_fn(FILE *f, const struct report_data *r, int arg)
{
	(void)arg;
	table_render_all(f, r->tables, (size_t)r->ntables, TS_TEXT);
	return 0;
}

/* arg: the run times PTS_NCHARTS plus the chart. */
static int chart_fn(FILE *f, const struct report_data *r, int arg)
{
	return pts_chart_write(f, &r->runs[arg / PTS_NCHARTS], arg % PTS_NCHARTS);
}

static int html_fn(FILE *f, const struct report_data *r, int arg)
{
	int ret = 0;

	(void)arg;
	html_page_begin(f, "iojob pts report");
	html_page_heading(f, "Tables");
	for (int i = 0; i < r->ntables; i++)
		table_render(f, &r->tables[i], TS_HTML);
	html_page_heading(f, "Plots");
	for (int i = 0; !ret && i < r->nruns; i++)
		for (int k = 0; !ret && k < PTS_NCHARTS && r->runs[i].window.first; k++)
			ret = pts_chart_write(f, &r->runs[i], k);
	return ret ? ret : html_page_end(f);
}

static int load(const struct pts_plan *p, struct report_data *r)
{
	char where[512];
	const char *w[] = { where };
	struct diag d = { 0 };

	snprintf(where, sizeof(where), "label=%s", p->label);
	if (rs_load(&r->set, p->results, &d) < 0) {
		fprintf(stderr, "iojob pts: %s\n", d.msg);
		return EXIT_JOB_FAILED;
	}
	if (rs_select(&r->set, NULL, w, 1, &r->sel) < 0 ||
	    (r->ntables = pts_tables(&r->sel, &r->tables)) < 0 ||
	    (r->nruns = pts_runs(&r->sel, &r->runs)) < 0) {
		fprintf(stderr, "iojob pts: out of memory building the report\n");
		return EXIT_JOB_FAILED;
	}
	return 0;
}

static int write_all(const struct pts_plan *p, const struct report_data *r)
{
	char path[4600], label[256];
	int ret = 0;

	table_render_all(stdout, r->tables, (size_t)r->ntables, TS_TEXT);
	file_part(p->label, label, sizeof(label));
	snprintf(path, sizeof(path), "%s/%s-report.txt", p->dir, label);
	ret |= write_file(path, text_fn, r, 0);
	snprintf(path, sizeof(path), "%s/%s-report.html", p->dir, label);
	ret |= write_file(path, html_fn, r, 0);
	for (int i = 0; i < r->nruns; i++)
		for (int k = 0; k < PTS_NCHARTS && r->runs[i].window.first; k++) {
			snprintf(path, sizeof(path), "%s/%s-%s-%s.svg", p->dir, label,
				 r->runs[i].test->name, pts_chart_names[k]);
			ret |= write_file(path, chart_fn, r, i * PTS_NCHARTS + k);
		}
	return ret;
}

int pts_write_report(const struct pts_plan *p)
{
	struct report_data r = { 0 };
	int ret = load(p, &r);

	if (!ret)
		ret = write_all(p, &r);
	if (r.ntables > 0)
		seed_free_tables(r.tables, r.ntables);
	pts_runs_free(r.runs, r.nruns > 0 ? (size_t)r.nruns : 0);
	rs_sel_free(&r.sel);
	rs_free(&r.set);
	return ret;
}
