/* iojob report: result sets as tables (plain or a seed's shape), SVG charts, an HTML page. */
#include "output/resultset/commands.h"

#include <errno.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/resultset/chart_workload.h"
#include "output/resultset/cmd_common.h"
#include "output/resultset/html_page.h"
#include "output/resultset/logfile_read.h"
#include "output/resultset/metrics.h"
#include "output/resultset/pivot.h"
#include "output/resultset/report_charts.h"
#include "output/resultset/resultset_read.h"
#include "output/resultset/resultset_keys.h"
#include "output/resultset/seed_tables.h"
#include "output/stream.h"
#include "base/diag.h"
#include "base/units.h"

#define CMD		"report"
#define MAX_FILES	256
#define MAX_KEYS	64

struct report_args {
	const char *files[MAX_FILES], *logs[MAX_FILES];
	size_t nfiles, nlogs;
	const char *rows, *cols, *metric, *svg, *html, *job, *format, *chart, *y_axis;
	const char *title, *subtitle;
	struct argopt_kv where;
	struct cmd_format fmt;
	const struct report_chart *kind;
	struct metric m;
};

#define ARG(field)	offsetof(struct report_args, field)

/* In the order --help lists them. */
static const struct argopt options[] = {
	CMD_OPT("metric", "NAME", ARG(metric), "what the table shows (default iops; see below)",
		.list = metric_complete),
	CMD_OPT("rows", "KEY", ARG(rows), "the row key (default: the first swept key)",
		.values = "label|job"),
	CMD_OPT("cols", "KEY|none", ARG(cols), "the column key (default: label when there are "
		"several labels, else the second swept key)", .values = "label|job|none"),
	CMD_OPT("job", "NAME", ARG(job), "only this job (section) of each run"),
	CMD_KV("where", "KEY=VALUE", ARG(where), "only the runs where KEY is VALUE (repeatable)"),
	CMD_OPT("format", "FORMAT", ARG(format), NULL, .describe = cmd_formats_describe,
		.value_at = cmd_format_at),
	CMD_OPT("svg", "FILE", ARG(svg), "draw a chart (several tables: FILE, FILE-2.svg, ...)"),
	CMD_OPT("chart", "KIND", ARG(chart), NULL, .describe = report_charts_describe,
		.value_at = report_chart_at),
	CMD_OPT("y-axis", "SCALE", ARG(y_axis), "the value axis of metric, bar and rate charts: "
		"linear (the default) or log", .values = "linear|log"),
	CMD_OPT("html", "FILE", ARG(html), "one page with the tables and every chart"),
	CMD_OPT("title", "TEXT", ARG(title), "each chart's title, in place of its own"),
	CMD_OPT("subtitle", "TEXT", ARG(subtitle), "each chart's subtitle, in place of the "
		"workload its runs or logs name"),
	{ NULL },
};

struct report_run {
	struct report_args a;
	struct rs_set set;
	struct rs_sel sel;
	struct pivot *piv;
	int npiv;
	char workload[1024];	/* the selected runs', for the charts of logs */
	struct metric_fmt fmt;	/* the metric's unit over every table, for their charts */
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: iojob report FILE.jsonl... [LOG...] [options]\n"
		"\n"
		"Prints what sweeps kept (iojob --results FILE.jsonl) as tables: a metric with a\n"
		"row per value of one key and a column per value of another, or the shape of a\n"
		"seed benchmark's table. Keys: swept options, label, job, --set options, job\n"
		"options, host, kernel. A combination that was not run prints empty.\n"
		"\n");
	cmd_usage_options(f, options);
	fprintf(f,
		"\n"
		"LOG files are fio's logs, for the charts over time: write_bw_log or\n"
		"write_iops_log files (NAME_bw.N.log, NAME_iops.N.log), write_lat_log files\n"
		"(NAME_lat.N.log, NAME_clat.N.log, NAME_slat.N.log) or write_hist_log files\n"
		"(NAME_clat_hist.N.log).\n"
		"%s"
		"Exit status: 0 done, 1 an output file could not be written, 2 a usage or\n"
		"input error.\n", metric_names_help);
}

static int add_positional(struct report_args *a, const char *arg)
{
	size_t n = strlen(arg);
	bool log = n > 4 && !strcmp(arg + n - 4, ".log");

	if ((log ? a->nlogs : a->nfiles) == MAX_FILES)
		return cmd_fail(CMD, "too many files ('%s')", arg);
	if (log && logfile_kind(arg) == LOG_OTHER)
		return cmd_fail(CMD, "'%s': not a fio log (NAME_bw.N.log, NAME_iops.N.log, "
				"NAME_lat.N.log, NAME_clat.N.log, NAME_slat.N.log, "
				"NAME_clat_hist.N.log)", arg);
	if (log)
		a->logs[a->nlogs++] = arg;
	else
		a->files[a->nfiles++] = arg;
	return EXIT_GO_ON;
}

static int parse_chart(struct report_args *a)
{
	char names[256];

	if (a->y_axis && strcmp(a->y_axis, "linear") && strcmp(a->y_axis, "log"))
		return cmd_fail(CMD, "--y-axis takes linear or log, not '%s'", a->y_axis);
	if (!a->chart) {
		a->kind = report_chart_default(a->nfiles, a->nlogs ? a->logs[0] : NULL);
		return EXIT_GO_ON;
	}
	a->kind = report_chart_find(a->chart);
	if (a->kind)
		return EXIT_GO_ON;
	report_charts_names(names, sizeof(names));
	return cmd_fail(CMD, "--chart takes %s, not '%s'", names, a->chart);
}

static int check_args(struct report_args *a)
{
	if (!a->nfiles && !a->nlogs)
		return cmd_fail(CMD, "no result file given (see iojob report --help)");
	if (!a->nfiles && !(a->svg || a->html))
		return cmd_fail(CMD, "log files alone make charts: give --svg FILE or --html FILE");
	if (a->format && cmd_parse_format(a->format, &a->fmt) < 0) {
		char names[256];

		cmd_formats_names(names, sizeof(names));
		return cmd_fail(CMD, "unknown format '%s' (%s)", a->format, names);
	}
	if (metric_parse(a->metric ? a->metric : "iops", &a->m) < 0)
		return cmd_fail(CMD, "unknown metric '%s'\n%s", a->metric, metric_names_help);
	return parse_chart(a);
}

/* Returns EXIT_GO_ON to go on, or an exit status (0 after --help). */
static int parse_args(struct report_args *a, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		int ret;

		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		}
		if (argv[i][0] != '-')
			ret = add_positional(a, argv[i]);
		else
			ret = cmd_parse_option(CMD, options, a, argc, argv, &i);
		if (ret != EXIT_GO_ON)
			return ret;
	}
	return check_args(a);
}

/* Whether any selected unit has the key. */
static bool known_key(const struct rs_sel *sel, const char *key)
{
	for (size_t i = 0; i < sel->n; i++)
		if (rs_value(sel->units[i].cell, &sel->units[i], key))
			return true;
	return false;
}

static int unknown_key(const struct report_run *r, const char *opt, const char *key)
{
	char keys[512];

	rs_keys_str(&r->set, keys, sizeof(keys));
	return cmd_fail(CMD, "%s '%s': no run has that key; the keys are %s", opt, key, keys);
}

/* --rows and --cols, or their defaults: swept keys first, labels when there are several. */
static int choose_keys(struct report_run *r)
{
	const char *keys[MAX_KEYS], *labels[2];
	unsigned nkeys = rs_swept_keys(&r->set, keys, MAX_KEYS);
	bool labelled = rs_labels(&r->set, labels, 2) > 1;
	struct report_args *a = &r->a;

	if (!a->rows)
		a->rows = nkeys ? keys[0] : labelled ? "label" : "job";
	if (a->cols && !strcmp(a->cols, "none"))
		a->cols = NULL;
	else if (!a->cols && labelled && strcmp(a->rows, "label"))
		a->cols = "label";
	else if (!a->cols && nkeys > 1)
		a->cols = strcmp(a->rows, keys[1]) ? keys[1] : keys[0];
	if (!known_key(&r->sel, a->rows))
		return unknown_key(r, "--rows", a->rows);
	if (a->cols && !known_key(&r->sel, a->cols))
		return unknown_key(r, "--cols", a->cols);
	return EXIT_GO_ON;
}

/* One unit for the metric over every table, so that their charts read alike (ms, not s). */
static int shared_unit(struct report_run *r)
{
	size_t n = 0, at = 0;
	double *all;

	for (int i = 0; i < r->npiv; i++)
		n += r->piv[i].nrows * r->piv[i].ncols;
	all = malloc((n + 1) * sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (int i = 0; i < r->npiv; i++)
		for (size_t k = 0; k < r->piv[i].nrows * r->piv[i].ncols; k++)
			all[at++] = r->piv[i].v[k];
	metric_fmt_for(&r->a.m, all, n, &r->fmt);
	free(all);
	return 0;
}

/* What the selected runs measured, for charts drawn from logs given with them. */
static void runs_workload(struct report_run *r)
{
	const struct rs_unit **u = malloc((r->sel.n + 1) * sizeof(*u));

	r->workload[0] = '\0';
	if (!u || !r->sel.n) {
		free(u);
		return;
	}
	for (size_t i = 0; i < r->sel.n; i++)
		u[i] = &r->sel.units[i];
	chart_workload(u, r->sel.n, r->workload, sizeof(r->workload));
	free(u);
}

static int load(struct report_run *r)
{
	int ret = cmd_load(CMD, &r->set, r->a.files, r->a.nfiles);

	if (ret)
		return ret;
	if (!r->a.nfiles)
		return EXIT_GO_ON;
	if (rs_select(&r->set, r->a.job, r->a.where.kv, r->a.where.n, &r->sel) < 0)
		return cmd_fail(CMD, "out of memory");
	if (!r->sel.n) {
		char why[1024];

		rs_why_none(&r->set, r->a.job, r->a.where.kv, r->a.where.n, why, sizeof(why));
		return cmd_fail(CMD, "%s", why);
	}
	if (choose_keys(r) != EXIT_GO_ON)
		return EXIT_USAGE;
	runs_workload(r);
	/* a seed's shape needs no pivot unless a chart is drawn from it */
	if (r->a.fmt.shape && !r->a.svg && !r->a.html)
		return EXIT_GO_ON;
	r->npiv = pivot_build(&r->set, &r->sel, r->a.rows, r->a.cols, &r->a.m, &r->piv);
	if (r->npiv < 0)
		return cmd_fail(CMD, "out of memory");
	if (shared_unit(r) < 0)
		return cmd_fail(CMD, "out of memory");
	for (int i = 0; i < r->npiv; i++)
		if (r->piv[i].dups)
			fprintf(stderr, "iojob report: note: %s%s%u run%s fell on a place taken "
				"already (the last one is shown): add --cols, --job or --where\n",
				r->piv[i].title, *r->piv[i].title ? ": " : "", r->piv[i].dups,
				r->piv[i].dups > 1 ? "s" : "");
	return EXIT_GO_ON;
}

/* The tables of the format asked for; returns the count or -ENOMEM. */
static int build_tables(const struct report_run *r, struct table **out)
{
	struct table *t;
	int n = 0;

	if (r->a.fmt.shape)
		return r->a.fmt.shape->build(&r->sel, out);
	t = calloc((size_t)r->npiv + 1, sizeof(*t));
	for (; t && n < r->npiv; n++) {
		if (pivot_table(&r->piv[n], r->a.rows, r->a.cols, &r->a.m, &t[n]) < 0) {
			table_free(&t[n]);
			break;
		}
	}
	*out = t;
	return seed_finish(out, n, !t || n < r->npiv);
}

static struct report_view view_of(const struct report_run *r)
{
	return (struct report_view){
		.piv = r->piv, .npiv = r->npiv > 0 ? (size_t)r->npiv : 0,
		.o = { r->a.rows, r->a.cols, &r->a.m, r->a.y_axis && !strcmp(r->a.y_axis, "log"),
		       r->a.title, r->a.subtitle, *r->workload ? r->workload : NULL, &r->fmt },
		.logs = r->a.logs, .nlogs = r->a.nlogs,
	};
}

/* An error while writing a chart: the input's (exit 2) when d says so, else the output's. */
static int chart_failed(const char *opt, const char *path, int err, const struct diag *d)
{
	if (d->msg[0])
		return cmd_fail(CMD, "%s", d->msg);
	cmd_fail(CMD, "%s '%s': %s", opt, path, strerror(-err));
	return EXIT_JOB_FAILED;
}

/* A chart file this run made and could not write whole is not left behind, empty or cut. */
static void unmake(const char *path, bool made)
{
	struct stat st;

	if (made && stat(path, &st) == 0 && S_ISREG(st.st_mode))
		unlink(path);
}

/* The notes the logs' readers left: a last line cut short. */
static void say_notes(const struct diag *d)
{
	for (char *p = d->notes, *end; p && *p; p = *end ? end + 1 : end) {
		end = strchr(p, '\n');
		end = end ? end : p + strlen(p);
		fprintf(stderr, "iojob %s: note: %.*s\n", CMD, (int)(end - p), p);
	}
}

/* Close a chart's file: the close's errno says more than the -EIO of ferror(). */
static int close_chart(FILE *f, int ret)
{
	int err = stream_finish(f, true);

	return err < 0 && (ret >= 0 || ret == -EIO) ? err : ret;
}

/* What the kind needs: result files, or logs it reads. */
static int check_source(const struct report_run *r, const struct report_view *v)
{
	const char *logs[MAX_FILES];

	if (r->a.kind->source == FROM_RESULTS && !r->a.nfiles)
		return cmd_fail(CMD, "--chart %s needs result files", r->a.kind->name);
	if (r->a.kind->source != FROM_RESULTS && !report_logs_for(v, r->a.kind->source, logs))
		return cmd_fail(CMD, "--chart %s needs %s", r->a.kind->name,
				r->a.kind->source == FROM_RATE_LOGS ? "bw or iops log files" :
				"latency or histogram log files");
	return EXIT_GO_ON;
}

static int write_svg(const struct report_run *r)
{
	struct report_view v = view_of(r);
	size_t n = r->a.kind->count(&v);
	char path[4096];
	int ret = check_source(r, &v);

	for (size_t i = 0; ret == EXIT_GO_ON && i < n; i++) {
		struct diag d = { 0 };
		bool made;
		FILE *f;

		cmd_nth_path(r->a.svg, (int)i, path, sizeof(path));
		made = access(path, F_OK) < 0;
		f = cmd_open_output(CMD, "--svg", path, &ret);
		if (!f)
			return ret;
		ret = close_chart(f, r->a.kind->draw(&v, f, i, &d));
		say_notes(&d);
		if (ret < 0)
			unmake(path, made);
		ret = ret < 0 ? chart_failed("--svg", path, ret, &d) : EXIT_GO_ON;
		diag_clear(&d);
	}
	if (ret == EXIT_GO_ON && n > 1)
		cmd_say_written(CMD, r->a.svg, n);
	return ret;
}

static int write_html(const struct report_run *r, const struct table *t, int nt)
{
	struct report_view v;
	struct diag d = { 0 };
	char title[512];
	bool made = access(r->a.html, F_OK) < 0;
	int ret;
	FILE *f = cmd_open_output(CMD, "--html", r->a.html, &ret);

	if (!f)
		return ret;
	snprintf(title, sizeof(title), "iojob report: %s%s",
		 r->a.nfiles ? r->a.files[0] : r->a.logs[0],
		 r->a.nfiles + r->a.nlogs > 1 ? " and more" : "");
	html_page_begin(f, title);
	v = view_of(r);
	ret = report_charts_html(f, &v, t, nt > 0 ? (size_t)nt : 0, !r->a.fmt.shape, &d);
	if (!ret)
		ret = html_page_end(f);
	ret = close_chart(f, ret);
	say_notes(&d);
	if (ret < 0)
		unmake(r->a.html, made);
	ret = ret < 0 ? chart_failed("--html", r->a.html, ret, &d) : EXIT_GO_ON;
	diag_clear(&d);
	return ret;
}

static int run_report(struct report_run *r)
{
	struct table *t = NULL;
	int nt = 0, ret;

	ret = load(r);
	if (ret != EXIT_GO_ON)
		return ret;
	if (r->a.nfiles && (nt = build_tables(r, &t)) < 0)
		return cmd_fail(CMD, "out of memory");
	table_render_all(stdout, t, (size_t)nt, r->a.fmt.style);
	if (r->a.svg)
		ret = write_svg(r);
	if (ret == EXIT_GO_ON && r->a.html)
		ret = write_html(r, t, nt);
	seed_free_tables(t, nt);
	return ret == EXIT_GO_ON ? 0 : ret;
}

int report_main(int argc, char **argv)
{
	struct report_run *r = calloc(1, sizeof(*r));
	int ret;

	if (!r)
		return cmd_fail(CMD, "out of memory");
	ret = cmd_complete(options, argc, argv);
	if (ret == EXIT_GO_ON)
		ret = parse_args(&r->a, argc, argv);
	if (ret == EXIT_GO_ON)
		ret = run_report(r);
	pivot_free(r->piv, r->npiv > 0 ? (size_t)r->npiv : 0);
	rs_sel_free(&r->sel);
	rs_free(&r->set);
	free(r);
	return ret;
}
