/* iojob pts's command line: its option table (which drives --help and completion too). */
#include "pts/pts.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/units.h"
#include "config.h"
#include "engine/devices/blockdev.h"
#include "engine/devices/path_guard.h"
#include "engine/engine.h"
#include "output/resultset/cmd_common.h"
#include "parser/value.h"
#include "pts/pts_priv.h"

struct pts_args {
	const char *target, *results, *label, *tests, *fraction, *round_time, *max_rounds;
	const char *iops_bs, *iops_mixes, *tp_bs, *lat_bs, *lat_mixes, *iodepth, *threads;
	const char *purge, *round_set;
	struct argopt_kv sets;
};

#define ARG(field)	offsetof(struct pts_args, field)

static const char *test_at(unsigned i, const char **help)
{
	for (const struct pts_test *t = pts_tests; t->name; t++, i--) {
		if (!i) {
			*help = t->help;
			return t->name;
		}
	}
	return NULL;
}

static void tests_describe(char *buf, size_t len)
{
	snprintf(buf, len, "the tests to run, comma-separated, in the suite's order (default "
		 "all): ");
	for (const struct pts_test *t = pts_tests; t->name; t++)
		cmd_append(buf, len, "%s%s (%s)", t == pts_tests ? "" : ", ", t->name, t->help);
}

/* In the order --help lists them. */
static const struct argopt options[] = {
	CMD_OPT("results", "DIR", ARG(results), "where the result set (DIR/results.jsonl), the "
		"report and its plots go; required"),
	CMD_OPT("label", "NAME", ARG(label), "what the result lines call this target (default: "
		"its file name); a label the result set holds already is refused"),
	CMD_OPT("tests", "LIST", ARG(tests), NULL, .describe = tests_describe,
		.value_at = test_at),
	CMD_OPT("capacity-fraction", "F", ARG(fraction), "use this share of the target, from "
		"its start (0 < F <= 1, default 1; the purge still covers all of it)",
		.values = "1|0.75|0.5"),
	CMD_OPT("round-time", "TIME", ARG(round_time), "how long each cell of a round runs "
		"(default 60s, the specification's minute)", .values = "60s|10s|1s|200ms"),
	CMD_OPT("max-rounds", "N", ARG(max_rounds), "rounds before the steady state is reported "
		"not attained (default 25, the specification's)", .values = "25|10|5"),
	CMD_OPT("iops-bs", "LIST", ARG(iops_bs), "the IOPS test's block sizes (default "
		"1024k,128k,64k,32k,16k,8k,4k,512)"),
	CMD_OPT("iops-mixes", "LIST", ARG(iops_mixes), "the IOPS test's read percentages "
		"(default 100,95,65,50,35,5,0)"),
	CMD_OPT("tp-bs", "LIST", ARG(tp_bs), "the throughput test's block sizes (default "
		"1024k,128k)"),
	CMD_OPT("lat-bs", "LIST", ARG(lat_bs), "the latency test's block sizes (default "
		"512,4k,8k)"),
	CMD_OPT("lat-mixes", "LIST", ARG(lat_mixes), "the latency test's read percentages "
		"(default 100,65,0)"),
	CMD_OPT("iodepth", "N", ARG(iodepth), "I/Os in flight per thread in the IOPS and "
		"throughput tests and the preconditioning (default 32; the latency test runs 1)",
		.values = "32|16|1"),
	CMD_OPT("threads", "N", ARG(threads), "threads in the IOPS and throughput tests "
		"(default 1)", .values = "1|2|4"),
	CMD_OPT("purge", "HOW", ARG(purge), "discard (default: every block of the target, or "
		"holes punched in a file) or none", .values = "discard|none"),
	CMD_KV("set", "KEY=VALUE", ARG(sets), "a job option for every job of the suite "
	       "(repeatable): ioengine, direct, rate_iops, ...; not the options the suite sets"),
	CMD_OPT("round-set", "KEY=V1,V2,...", ARG(round_set), "a job option that changes round "
		"by round: round N takes VN, the last value after that (for testing the "
		"detection)"),
	{ NULL },
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: iojob pts TARGET --results DIR [options]\n"
		"\n"
		"Runs a SNIA Solid State Storage PTS-style suite on TARGET, a block device or a\n"
		"file, which it overwrites: purge, workload-independent preconditioning\n"
		"(sequential 128 KiB writes of twice the capacity used), then rounds of each\n"
		"test's matrix of block sizes and read/write mixes until five rounds hold the\n"
		"steady-state window (the tracked variable within 20%% of the window's average,\n"
		"its least-squares slope within 10%%) or --max-rounds run out. Every cell is a\n"
		"result line in DIR/results.jsonl, which iojob report and iojob compare read\n"
		"(iojob report DIR/results.jsonl --format pts prints the report again); the\n"
		"report, with where the run departs from the specification, goes to stdout,\n"
		"DIR/LABEL-report.txt and DIR/LABEL-report.html, and the plots to\n"
		"DIR/LABEL-TEST-convergence.svg and DIR/LABEL-TEST-window.svg. The device\n"
		"safety checks of every job apply, before anything is written.\n"
		"\n");
	cmd_usage_options(f, options);
	fprintf(f,
		"\n"
		"Exit status: 0 done (attained or not), 1 a job or an output file failed, 2 a\n"
		"usage error or a target refused, 128+N stopped by signal N.\n");
}

static int parse_args(struct pts_args *a, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		int ret;

		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		}
		if (argv[i][0] != '-' && a->target)
			return cmd_fail(PTS_CMD, "one target only ('%s' and '%s')", a->target,
					argv[i]);
		if (argv[i][0] != '-') {
			a->target = argv[i];
			continue;
		}
		ret = cmd_parse_option(PTS_CMD, options, a, argc, argv, &i);
		if (ret != EXIT_GO_ON)
			return ret;
	}
	if (!a->target)
		return cmd_fail(PTS_CMD, "no target given (see iojob pts --help)");
	if (!a->results)
		return cmd_fail(PTS_CMD, "--results DIR is required");
	return EXIT_GO_ON;
}

/* The job options the suite sets itself, which --set may not change. */
static const char *const owned_keys[] = {
	"filename", "directory", "filename_format", "nrfiles", "size", "filesize", "io_size",
	"offset", "rw", "readwrite", "rwmixread", "rwmixwrite", "bs", "blocksize", "runtime",
	"time_based", "loops", "numjobs", "iodepth", "name",
};

static int parse_uint(const char *opt, const char *s, unsigned dflt, unsigned lo, unsigned hi,
		      unsigned *out)
{
	long long v;

	if (!s) {
		*out = dflt;
		return EXIT_GO_ON;
	}
	if (value_parse_int(s, &v) < 0 || v < lo || v > hi)
		return cmd_fail(PTS_CMD, "--%s '%s': expected a whole number from %u to %u", opt, s,
				lo, hi);
	*out = (unsigned)v;
	return EXIT_GO_ON;
}

static int add_set(struct pts_plan *p, const char *kv)
{
	const char *eq = strchr(kv, '=');
	char key[64];

	snprintf(key, sizeof(key), "%.*s", (int)(eq - kv), kv);
	for (size_t i = 0; i < sizeof(owned_keys) / sizeof(owned_keys[0]); i++)
		if (!strcmp(key, owned_keys[i]))
			return cmd_fail(PTS_CMD, "--set '%s': the suite sets '%s' itself (see "
					"iojob pts --help for its options)", kv, key);
	if (p->nsets + 1 >= PTS_MAX_SETS)
		return cmd_fail(PTS_CMD, "--set: at most %d", PTS_MAX_SETS - 1);
	p->sets[p->nsets++] = (struct job_override){ strndup(kv, (size_t)(eq - kv)), eq + 1,
						     "--set" };
	return EXIT_GO_ON;
}

/* --round-set KEY=V1,V2,...: checked as --set is; its value joins the sets round by round. */
static int parse_round_set(struct pts_plan *p, const char *s)
{
	const char *eq = s ? strchr(s, '=') : NULL;
	int ret;

	if (!s)
		return EXIT_GO_ON;
	if (!eq || eq == s || !eq[1])
		return cmd_fail(PTS_CMD, "--round-set '%s': expected KEY=V1,V2,...", s);
	ret = add_set(p, s);
	if (ret != EXIT_GO_ON)
		return ret;
	p->nsets--;	/* placed after --set's, with each round's value */
	p->round_key = p->sets[p->nsets].key;
	p->nround_values = value_split(eq + 1, ',', &p->round_values);
	return p->nround_values > 0 ? EXIT_GO_ON : cmd_fail(PTS_CMD, "out of memory");
}

/* The index of v in list, or -1. */
static int index_in(char **list, int n, const char *v)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(list[i], v))
			return i;
	return -1;
}

/* A test's block sizes and mixes, checked; the tracked cell among them. */
static int plan_matrix(struct pts_test_plan *tp, const char *bs, const char *mixes)
{
	const char *name = tp->test->name;
	uint64_t v;
	long long m;

	tp->nbs = value_split(bs ? bs : tp->test->bs, ',', &tp->bs);
	tp->nmixes = value_split(mixes ? mixes : tp->test->mixes, ',', &tp->mixes);
	if (tp->nbs <= 0 || tp->nmixes <= 0)
		return cmd_fail(PTS_CMD, "%s: an empty matrix", name);
	for (int i = 0; i < tp->nbs; i++)
		if (value_parse_size(tp->bs[i], 1024, &v) < 0 || v < 512 || v > (64u << 20) ||
		    v % 512 || index_in(tp->bs, i, tp->bs[i]) >= 0)
			return cmd_fail(PTS_CMD, "%s: block size '%s': expected a multiple of 512 "
					"from 512 to 64m, each once", name, tp->bs[i]);
	for (int i = 0; i < tp->nmixes; i++)
		if (value_parse_int(tp->mixes[i], &m) < 0 || m < 0 || m > 100 ||
		    index_in(tp->mixes, i, tp->mixes[i]) >= 0 || (tp->test->seq && m % 100))
			return cmd_fail(PTS_CMD, "%s: mix '%s': expected a read percentage, %s, "
					"each once", name, tp->mixes[i],
					tp->test->seq ? "100 or 0" : "0 to 100");
	tp->track_bs = index_in(tp->bs, tp->nbs, tp->test->track_bs);
	tp->track_bs = tp->track_bs < 0 ? 0 : tp->track_bs;
	tp->track_mix = 0;
	for (int i = 1; i < tp->nmixes; i++)
		if (atoi(tp->mixes[i]) < atoi(tp->mixes[tp->track_mix]))
			tp->track_mix = i;
	return EXIT_GO_ON;
}

static int plan_tests(struct pts_plan *p, const struct pts_args *a)
{
	char **names = NULL;
	int n = value_split(a->tests ? a->tests : "iops,throughput,latency", ',', &names);
	int ret = n > 0 ? EXIT_GO_ON : cmd_fail(PTS_CMD, "--tests: expected a list");

	for (int i = 0; ret == EXIT_GO_ON && i < n; i++)
		if (!pts_test_find(names[i]))
			ret = cmd_fail(PTS_CMD, "--tests: unknown test '%s' (iops, throughput or "
				       "latency)", names[i]);
	for (const struct pts_test *t = pts_tests; ret == EXIT_GO_ON && t->name; t++) {
		struct pts_test_plan *tp = &p->tests[p->ntests];
		bool iops = !strcmp(t->name, "iops"), lat = !strcmp(t->name, "latency");

		if (index_in(names, n, t->name) < 0)
			continue;
		tp->test = t;
		p->ntests++;
		ret = plan_matrix(tp, iops ? a->iops_bs : lat ? a->lat_bs : a->tp_bs,
				  iops ? a->iops_mixes : lat ? a->lat_mixes : NULL);
	}
	value_split_free(names, n);
	return ret;
}

/* The target: a block device or a regular file that exists, and its size. */
static int plan_target(struct pts_plan *p, const char *fraction)
{
	double f = 1;
	struct stat st;
	int fd, ret = 0;

	if (fraction && (value_parse_double(fraction, &f) < 0 || !(f > 0 && f <= 1)))
		return cmd_fail(PTS_CMD, "--capacity-fraction '%s': expected a number above 0, "
				"at most 1", fraction);
	if (stat(p->target, &st) < 0)
		return cmd_fail(PTS_CMD, "target '%s': %s (a file must exist, with the size "
				"to test: truncate -s 4g FILE)", p->target, strerror(errno));
	if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode))
		return cmd_fail(PTS_CMD, "target '%s': not a block device or a regular file",
				p->target);
	p->is_file = S_ISREG(st.st_mode);
	p->target_bytes = (uint64_t)st.st_size;
	if (!p->is_file) {
		fd = open(p->target, O_RDONLY | O_CLOEXEC);
		ret = fd < 0 ? -errno : blockdev_size(fd, &p->target_bytes);
		if (fd >= 0)
			close(fd);
	}
	if (ret < 0)
		return cmd_fail(PTS_CMD, "target '%s': cannot read its size: %s", p->target,
				strerror(-ret));
	/* whole MiB: every block size of the matrices divides it */
	p->used_bytes = (uint64_t)floor(f * (double)p->target_bytes / (1 << 20)) << 20;
	if (!p->used_bytes)
		return cmd_fail(PTS_CMD, "target '%s': %.4g of its %llu bytes is under 1 MiB",
				p->target, f, (unsigned long long)p->target_bytes);
	return EXIT_GO_ON;
}

static int plan_results(struct pts_plan *p, const char *dir)
{
	char why[512];

	if (path_guard(dir, PATH_WRITE, why, sizeof(why)))
		return cmd_fail(PTS_CMD, "--results '%s': refusing to write there: it %s", dir,
				why);
	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		return cmd_fail(PTS_CMD, "--results '%s': %s", dir, strerror(errno));
	p->dir = dir;
	if ((size_t)snprintf(p->results, sizeof(p->results), "%s/results.jsonl", dir) >=
	    sizeof(p->results))
		return cmd_fail(PTS_CMD, "--results '%s': the path is too long", dir);
	return EXIT_GO_ON;
}

static int plan(struct pts_plan *p, const struct pts_args *a)
{
	uint64_t ns;
	int ret;

	p->target = a->target;
	p->label = a->label ? a->label : strrchr(a->target, '/') ? strrchr(a->target, '/') + 1
								: a->target;
	p->round_time = a->round_time ? a->round_time : "60s";
	if (value_parse_time(p->round_time, NS_PER_SEC, &ns) < 0 || !ns)
		return cmd_fail(PTS_CMD, "--round-time '%s': expected a time above 0 (60s, "
				"200ms)", p->round_time);
	if (a->purge && strcmp(a->purge, "discard") && strcmp(a->purge, "none"))
		return cmd_fail(PTS_CMD, "--purge '%s': expected discard or none", a->purge);
	p->purge = !a->purge || !strcmp(a->purge, "discard");
	p->ioengine = HAVE_LIBAIO ? "libaio" : "psync";
	if ((ret = parse_uint("max-rounds", a->max_rounds, PTS_MAX_ROUNDS, PTS_WINDOW_ROUNDS,
			      1000, &p->max_rounds)) != EXIT_GO_ON ||
	    (ret = parse_uint("iodepth", a->iodepth, 32, 1, 4096, &p->iodepth)) != EXIT_GO_ON ||
	    (ret = parse_uint("threads", a->threads, 1, 1, 1024, &p->threads)) != EXIT_GO_ON)
		return ret;
	for (unsigned i = 0; i < a->sets.n; i++)
		if ((ret = add_set(p, a->sets.kv[i])) != EXIT_GO_ON)
			return ret;
	if ((ret = parse_round_set(p, a->round_set)) != EXIT_GO_ON ||
	    (ret = plan_tests(p, a)) != EXIT_GO_ON ||
	    (ret = plan_target(p, a->fraction)) != EXIT_GO_ON)
		return ret;
	p->nengines = engine_catalog(p->engines, sizeof(p->engines) / sizeof(p->engines[0]));
	return plan_results(p, a->results);
}

int pts_parse(struct pts_plan *p, int argc, char **argv)
{
	struct pts_args a = { 0 };
	int ret = cmd_complete(options, argc, argv);

	if (ret == EXIT_GO_ON)
		ret = parse_args(&a, argc, argv);
	return ret == EXIT_GO_ON ? plan(p, &a) : ret;
}

void pts_plan_free(struct pts_plan *p)
{
	for (unsigned i = 0; i < p->nsets; i++)
		free((char *)p->sets[i].key);
	free((char *)p->round_key);
	value_split_free(p->round_values, p->nround_values);
	for (unsigned i = 0; i < p->ntests; i++) {
		value_split_free(p->tests[i].bs, p->tests[i].nbs);
		value_split_free(p->tests[i].mixes, p->tests[i].nmixes);
	}
}
