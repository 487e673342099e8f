/* iojob compare: sides from result files and labels, matched job by job, as tables. */
#include "output/resultset/commands.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "output/resultset/charts_compare.h"
#include "output/resultset/cmd_common.h"
#include "output/resultset/compare.h"
#include "output/resultset/metrics.h"
#include "output/resultset/resultset_read.h"
#include "output/resultset/resultset_keys.h"
#include "output/stream.h"

#define CMD		"compare"
#define MAX_FILES	256
#define MAX_METRICS	32
#define DEFAULT_METRICS	"iops,bw_mib,runtime,lat_mean,lat_p95,lat_p99,lat_max"

enum side_kind { SIDE_FILE, SIDE_LABEL, SIDE_LABEL_AT };

struct side_spec {
	enum side_kind kind;
	char label[256];
	const char *file;	/* SIDE_FILE, SIDE_LABEL_AT */
};

struct compare_run {
	struct side_spec spec[CMP_MAX_SIDES];
	struct cmp_side sides[CMP_MAX_SIDES];
	unsigned nsides;
	const char *files[MAX_FILES];	/* every file, once */
	size_t nfiles;
	const char *job, *metrics, *format, *svg, *title, *subtitle;
	struct argopt_kv where;
	struct metric m[MAX_METRICS];
	unsigned nm;
	struct cmd_format fmt;
	struct rs_set set;
	struct rs_sel sel;
};

#define ARG(field)	offsetof(struct compare_run, field)

/* What completion offers for --metrics: the default list, then each metric. */
static void metrics_list(FILE *f)
{
	fprintf(f, "%s\n", DEFAULT_METRICS);
	metric_complete(f);
}

/* In the order --help lists them. */
static const struct argopt options[] = {
	CMD_OPT("metrics", "LIST", ARG(metrics), "comma-separated metrics (default "
		DEFAULT_METRICS "); one without read_/write_ shows for each direction done",
		.list = metrics_list),
	CMD_OPT("job", "NAME", ARG(job), "only this job (section)"),
	CMD_KV("where", "KEY=VALUE", ARG(where), "only the runs where KEY is VALUE (repeatable)"),
	CMD_OPT("format", "FORMAT", ARG(format), NULL, .describe = cmd_styles_describe,
		.value_at = cmd_style_at),
	CMD_OPT("svg", "FILE", ARG(svg), "draw each metric as bars, a bar per side for each run "
		"in common (FILE, FILE-2.svg, ...)"),
	CMD_OPT("title", "TEXT", ARG(title), "each chart's title, in place of its own"),
	CMD_OPT("subtitle", "TEXT", ARG(subtitle), "each chart's subtitle, in place of the "
		"workload its runs name"),
	{ NULL },
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: iojob compare SIDE SIDE [SIDE ...] [options]\n"
		"\n"
		"Compares the same jobs measured on two or more sides, metric by metric:\n"
		"metric | A | B | ratio | better. The ratio is how many times better the best\n"
		"side is than the worst, each metric read the way it improves: IOPS and\n"
		"bandwidth higher, run time and latency lower.\n"
		"\n"
		"A SIDE is one of\n"
		"  FILE            a result file (iojob --results FILE.jsonl; a name ending in\n"
		"                  .jsonl, or a file that exists): all its runs\n"
		"  LABEL           the runs tagged --label LABEL in the files given\n"
		"  LABEL@FILE      the runs tagged LABEL in FILE\n"
		"When any side is a label, the files given only supply runs to choose from.\n"
		"Runs match across sides by job (and pass) and swept values; when a side holds\n"
		"the same run twice, the later line counts.\n"
		"\n");
	cmd_usage_options(f, options);
	fprintf(f,
		"%s"
		"Exit status: 0 done, 1 an output file could not be written, 2 a usage or input\n"
		"error (an unknown label, a file that is not a result set, sides without a run\n"
		"in common).\n", metric_names_help);
}

static bool is_file(const char *path)
{
	struct stat st;
	size_t n = strlen(path);

	return (n > 6 && !strcmp(path + n - 6, ".jsonl")) ||
	       (stat(path, &st) == 0 && S_ISREG(st.st_mode));
}

static void add_file(struct compare_run *c, const char *path)
{
	for (size_t i = 0; i < c->nfiles; i++)
		if (!strcmp(c->files[i], path))
			return;
	c->files[c->nfiles++] = path;	/* the caller bounds nfiles by argc */
}

/* FILE, LABEL@FILE or LABEL. */
static int add_side(struct compare_run *c, const char *arg)
{
	struct side_spec *s = &c->spec[c->nsides];
	const char *at = strrchr(arg, '@');

	if (c->nsides == CMP_MAX_SIDES)
		return cmd_fail(CMD, "too many sides (at most %d)", CMP_MAX_SIDES);
	if (c->nfiles == MAX_FILES)
		return cmd_fail(CMD, "too many files ('%s')", arg);
	if (is_file(arg)) {
		*s = (struct side_spec){ .kind = SIDE_FILE, .file = arg };
		add_file(c, arg);
	} else if (at && at[1] && is_file(at + 1)) {
		*s = (struct side_spec){ .kind = SIDE_LABEL_AT, .file = at + 1 };
		snprintf(s->label, sizeof(s->label), "%.*s", (int)(at - arg), arg);
		add_file(c, at + 1);
	} else {
		*s = (struct side_spec){ .kind = SIDE_LABEL };
		snprintf(s->label, sizeof(s->label), "%s", arg);
	}
	c->nsides++;
	return EXIT_GO_ON;
}

static int parse_metrics(struct compare_run *c)
{
	char buf[1024], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", c->metrics ? c->metrics : DEFAULT_METRICS);
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (c->nm == MAX_METRICS)
			return cmd_fail(CMD, "--metrics: at most %d metrics", MAX_METRICS);
		if (metric_parse(tok, &c->m[c->nm++]) < 0)
			return cmd_fail(CMD, "--metrics: unknown metric '%s'\n%s", tok,
					metric_names_help);
	}
	return c->nm ? EXIT_GO_ON : cmd_fail(CMD, "--metrics: no metric given");
}

/* With a label among the sides, plain files only supply runs: they are not sides. */
static void drop_file_sides(struct compare_run *c)
{
	unsigned n = 0;
	bool labels = false;

	for (unsigned i = 0; i < c->nsides; i++)
		labels |= c->spec[i].kind != SIDE_FILE;
	for (unsigned i = 0; labels && i < c->nsides; i++)
		if (c->spec[i].kind != SIDE_FILE)
			c->spec[n++] = c->spec[i];
	if (labels)
		c->nsides = n;
}

static int parse_args(struct compare_run *c, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		int ret;

		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		}
		if (argv[i][0] == '-')
			ret = cmd_parse_option(CMD, options, c, argc, argv, &i);
		else
			ret = add_side(c, argv[i]);
		if (ret != EXIT_GO_ON)
			return ret;
	}
	drop_file_sides(c);
	if (c->format && (cmd_parse_format(c->format, &c->fmt) < 0 || c->fmt.shape)) {
		char names[128];

		cmd_styles_names(names, sizeof(names));
		return cmd_fail(CMD, "unknown format '%s' (%s)", c->format, names);
	}
	if (c->nsides < 2)
		return cmd_fail(CMD, "two sides or more to compare, please (see iojob compare "
				"--help)");
	if (!c->nfiles)
		return cmd_fail(CMD, "label '%s': no result file given to find it in",
				c->spec[0].label);
	return parse_metrics(c);
}

static bool in_side(const struct side_spec *s, const struct rs_cell *c)
{
	if (s->kind != SIDE_LABEL && strcmp(c->path, s->file))
		return false;
	return s->kind == SIDE_FILE || !strcmp(c->label, s->label);
}

/* An unknown label: say which labels the files have. */
static int unknown_label(const struct compare_run *c, const struct side_spec *s)
{
	const char *labels[16];
	unsigned n = rs_labels(&c->set, labels, 16);
	char list[1024] = "";
	size_t at = 0;

	for (unsigned i = 0; i < n && at < sizeof(list); i++)
		at += (size_t)snprintf(list + at, sizeof(list) - at, "%s'%s'", i ? ", " : "",
				       labels[i]);
	return cmd_fail(CMD, "label '%s' is not in %s (labels there: %s)", s->label,
			s->file ? s->file : "the files given", list);
}

/* A file side's name: its one label, else the file's name. */
static int file_side_name(struct compare_run *c, unsigned i)
{
	struct cmp_side *side = &c->sides[i];
	const char *label = side->units[0]->cell->label, *slash;

	for (size_t k = 1; k < side->n; k++)
		if (strcmp(side->units[k]->cell->label, label))
			return cmd_fail(CMD, "'%s' holds runs of several labels ('%s', '%s'): "
					"name the labels as sides instead", c->spec[i].file,
					label, side->units[k]->cell->label);
	slash = strrchr(c->spec[i].file, '/');
	side->name = *label ? label : slash ? slash + 1 : c->spec[i].file;
	return EXIT_GO_ON;
}

static int build_side(struct compare_run *c, unsigned i)
{
	const struct side_spec *s = &c->spec[i];
	struct cmp_side *side = &c->sides[i];
	bool known = s->kind == SIDE_FILE;

	for (size_t k = 0; !known && k < c->set.ncells; k++)
		known = in_side(s, &c->set.cells[k]);
	if (!known)
		return unknown_label(c, s);
	side->units = malloc((c->sel.n + 1) * sizeof(*side->units));
	if (!side->units)
		return cmd_fail(CMD, "out of memory");
	for (size_t k = 0; k < c->sel.n; k++)
		if (in_side(s, c->sel.units[k].cell))
			side->units[side->n++] = &c->sel.units[k];
	if (!side->n)
		return cmd_fail(CMD, "side '%s': no run matches --job and --where",
				s->kind == SIDE_FILE ? s->file : s->label);
	if (compare_index(side) < 0)
		return cmd_fail(CMD, "out of memory");
	if (s->kind == SIDE_FILE)
		return file_side_name(c, i);
	side->name = s->label;
	return EXIT_GO_ON;
}

/* A chart per metric, in the order --metrics gives them. */
static int write_svg(const struct compare_run *c)
{
	char path[4096];

	for (unsigned i = 0; i < c->nm; i++) {
		FILE *f;
		int ret;

		cmd_nth_path(c->svg, (int)i, path, sizeof(path));
		f = cmd_open_output(CMD, "--svg", path, &ret);
		if (!f)
			return ret;
		ret = chart_compare(f, c->sides, c->nsides, &c->m[i], c->title, c->subtitle);
		if (stream_finish(f, true) < 0 && ret >= 0)
			ret = -EIO;
		if (ret < 0) {
			cmd_fail(CMD, "--svg '%s': %s", path, strerror(-ret));
			return EXIT_JOB_FAILED;
		}
	}
	if (c->nm > 1)
		cmd_say_written(CMD, c->svg, c->nm);
	return 0;
}

static int run_compare(struct compare_run *c)
{
	struct table *t;
	int ret = cmd_load(CMD, &c->set, c->files, c->nfiles), n;

	if (ret)
		return ret;
	if (rs_select(&c->set, c->job, c->where.kv, c->where.n, &c->sel) < 0)
		return cmd_fail(CMD, "out of memory");
	if (!c->sel.n) {
		char why[1024];

		rs_why_none(&c->set, c->job, c->where.kv, c->where.n, why, sizeof(why));
		return cmd_fail(CMD, "%s", why);
	}
	for (unsigned i = 0; i < c->nsides; i++)
		if ((ret = build_side(c, i)) != EXIT_GO_ON)
			return ret;
	if (!compare_common(c->sides, c->nsides))
		return cmd_fail(CMD, "the sides have no run in common (the same job and swept "
				"values)");
	n = compare_tables(c->sides, c->nsides, c->m, c->nm, &t);
	if (n < 0)
		return cmd_fail(CMD, "out of memory");
	cmd_print_tables(t, n, c->fmt.style);
	return c->svg ? write_svg(c) : 0;
}

int compare_main(int argc, char **argv)
{
	struct compare_run *c = calloc(1, sizeof(*c));
	int ret;

	if (!c)
		return cmd_fail(CMD, "out of memory");
	ret = cmd_complete(options, argc, argv);
	if (ret == EXIT_GO_ON)
		ret = parse_args(c, argc, argv);
	if (ret == EXIT_GO_ON)
		ret = run_compare(c);
	for (unsigned i = 0; i < c->nsides; i++) {
		compare_index_free(&c->sides[i]);
		free(c->sides[i].units);
	}
	rs_sel_free(&c->sel);
	rs_free(&c->set);
	free(c);
	return ret;
}
