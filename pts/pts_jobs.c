/*
 * The suite's cells as jobs: the job text of a purge, a preconditioning or a round's cell,
 * built with --set and --round-set on top, run through the job runner (run_prepare()'s
 * device safety checks included) and appended to the result set with the cell's keys.
 */
#include "pts/pts_priv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/exit_code.h"
#include "engine/engine.h"
#include "output/resultset_write.h"
#include "parser/jobfile.h"

#define MAX_KEYS	12

static int put(char *buf, size_t len, size_t *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int put(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*at >= len)
		return -ENOSPC;
	va_start(ap, fmt);
	n = vsnprintf(buf + *at, len - *at, fmt, ap);
	va_end(ap);
	*at += n < 0 ? len : (size_t)n;
	return *at < len ? 0 : -ENOSPC;
}

/* Discard the whole target in chunks that divide it: the largest power of two to 64 MiB. */
static int purge_text(const struct pts_plan *p, char *buf, size_t len, size_t *at)
{
	uint64_t bs = 64u << 20;

	while (bs > 512 && p->target_bytes % bs)
		bs >>= 1;
	/* direct=0: a job that trims opens its files plain in any case (and says so) */
	return put(buf, len, at, "[purge]\nrw=trim\ndirect=0\nbs=%llu\nsize=%llu\nioengine=psync\n",
		   (unsigned long long)bs, (unsigned long long)(p->target_bytes / bs * bs));
}

static int precondition_text(const struct pts_plan *p, char *buf, size_t len, size_t *at)
{
	return put(buf, len, at, "[precondition]\nrw=write\nbs=128k\nsize=%llu\nloops=2\n"
		   "ioengine=%s\niodepth=%u\n", (unsigned long long)p->used_bytes, p->ioengine,
		   p->iodepth);
}

/* A random cell: randread, randwrite or randrw by its mix; sequential: read or write. */
static const char *rw_of(const struct pts_test *t, const char *mix)
{
	if (!strcmp(mix, "100"))
		return t->seq ? "read" : "randread";
	if (!strcmp(mix, "0"))
		return t->seq ? "write" : "randwrite";
	return "randrw";
}

static int round_text(const struct pts_plan *p, const struct pts_cell_id *id, char *buf,
		      size_t len, size_t *at)
{
	const struct pts_test_plan *tp = id->tp;
	const char *mix = tp->mixes[id->mix];
	unsigned depth = tp->test->qd1 ? 1 : p->iodepth, threads = tp->test->qd1 ? 1 : p->threads;

	return put(buf, len, at, "[%s]\nrw=%s\nrwmixread=%s\nbs=%s\nsize=%llu\nioengine=%s\n"
		   "iodepth=%u\nnumjobs=%u\ngroup_reporting=1\ntime_based=1\nruntime=%s\n"
		   "norandommap=1\nrandrepeat=0\n", tp->test->name, rw_of(tp->test, mix), mix,
		   tp->bs[id->bs], (unsigned long long)p->used_bytes, p->ioengine, depth, threads,
		   p->round_time);
}

int pts_job_text(const struct pts_plan *p, const struct pts_cell_id *id, char *buf, size_t len)
{
	size_t at = 0;
	int ret = put(buf, len, &at, "[global]\nfilename=%s\ndirect=1\n", p->target);

	if (ret < 0)
		return ret;
	if (!strcmp(id->step, "purge"))
		return purge_text(p, buf, len, &at);
	if (!strcmp(id->step, "precondition"))
		return precondition_text(p, buf, len, &at);
	return round_text(p, id, buf, len, &at);
}

/*
 * --set, then --round-set's value for this round (its last value after the last round).
 * The purge keeps psync, whose trims are BLKDISCARD or a punched hole whatever --set says.
 */
static unsigned cell_sets(const struct pts_plan *p, const struct pts_cell_id *id,
			  struct job_override *out)
{
	bool purge = !strcmp(id->step, "purge");
	unsigned n = 0;
	int v;

	for (unsigned i = 0; i < p->nsets; i++)
		if (!purge || strcmp(p->sets[i].key, "ioengine"))
			out[n++] = p->sets[i];
	if (p->round_key && id->round) {
		v = (int)id->round <= p->nround_values ? (int)id->round - 1 : p->nround_values - 1;
		out[n++] = (struct job_override){ p->round_key, p->round_values[v], "--round-set" };
	}
	return n;
}

/* The cell's jobs from its text; jf holds what they point to. Returns 0 or -errno. */
static int build(const struct pts_plan *p, const struct pts_cell_id *id, struct jobfile *jf,
		 struct job_list *jobs, struct diag *d)
{
	struct job_override sets[PTS_MAX_SETS];
	struct job_input in = {
		.jf = jf, .cli_defaults = -1, .sets = sets, .engines = p->engines,
		.nengines = p->nengines, .check_paths = true, .nranks = 1, .host = "",
	};
	char text[2048], name[96];
	int ret = pts_job_text(p, id, text, sizeof(text));

	if (ret < 0)
		return diag_set(d, ret, "target '%s': the name is too long", p->target);
	in.nsets = cell_sets(p, id, sets);
	snprintf(name, sizeof(name), "pts %s %s", id->tp->test->name, id->step);
	ret = jobfile_parse_string(jf, name, text, d);
	return ret < 0 ? ret : jobs_build(&in, jobs, d);
}

/*
 * The notes building a cell left (what --set asked that the cell's jobs take their own
 * way): said when the cells are checked, before the suite runs, and dropped when it runs
 * them, so each is said once. An error's message stays for the caller.
 */
static void take_notes(struct diag *d, bool say)
{
	for (char *s = d->notes, *nl; say && s && (nl = strchr(s, '\n')); s = nl + 1)
		fprintf(stderr, "iojob pts: note: %.*s\n", (int)(nl - s), s);
	free(d->notes);
	d->notes = NULL;
	d->notes_len = d->notes_cap = 0;
}

int pts_cell_check(const struct pts_plan *p, const struct pts_cell_id *id, struct diag *d)
{
	struct jobfile jf = { 0 };
	struct job_list jobs = { 0 };
	int ret = build(p, id, &jf, &jobs, d);

	take_notes(d, true);
	if (!ret)
		ret = run_check_files(&jobs, d);
	jobs_free(&jobs);
	jobfile_free(&jf);
	return ret;
}

/* The cell's keys in its result line (pts_set.h); strings in num live as long as keys. */
static unsigned cell_keys(const struct pts_plan *p, const struct pts_cell_id *id,
			  const char **k, const char **v, char (*num)[24])
{
	unsigned n = 0;

	k[n] = "pts_test", v[n++] = id->tp->test->name;
	k[n] = "pts_step", v[n++] = id->step;
	if (id->round) {
		snprintf(num[0], sizeof(num[0]), "%u", id->round);
		k[n] = "pts_round", v[n++] = num[0];
		k[n] = "bs", v[n++] = id->tp->bs[id->bs];
		k[n] = "rwmixread", v[n++] = id->tp->mixes[id->mix];
		if (id->bs == id->tp->track_bs && id->mix == id->tp->track_mix)
			k[n] = "pts_track", v[n++] = id->tp->test->track;
		return n;
	}
	snprintf(num[0], sizeof(num[0]), "%llu", (unsigned long long)p->target_bytes);
	snprintf(num[1], sizeof(num[1]), "%u", p->max_rounds);
	k[n] = "pts_target", v[n++] = p->is_file ? "file" : "device";
	k[n] = "pts_target_bytes", v[n++] = num[0];
	k[n] = "pts_max_rounds", v[n++] = num[1];
	return n;
}

/* Each job's error, as main() says them. */
static void say_errors(const struct run *r)
{
	for (unsigned i = 0; i < r->jobs->njobs; i++)
		if (r->results[i].error && r->results[i].error != ECANCELED)
			fprintf(stderr, "iojob pts: %s\n", r->results[i].error_msg);
}

/* The run's report appended with the cell's keys and the sets it ran with. */
static int append(const struct pts_plan *p, const struct pts_cell_id *id, const struct run *r,
		  struct diag *d)
{
	const char *k[MAX_KEYS], *v[MAX_KEYS], *sk[PTS_MAX_SETS], *sv[PTS_MAX_SETS];
	struct job_override sets[PTS_MAX_SETS];
	unsigned nsets = cell_sets(p, id, sets);
	const char *files[] = { "iojob pts" };
	struct run_report rr;
	char num[2][24];
	int ret;

	for (unsigned i = 0; i < nsets; i++)
		sk[i] = sets[i].key, sv[i] = sets[i].value;
	ret = run_build_report(r, &rr);
	if (!ret)
		ret = resultset_append(p->results, &(struct resultset_meta){
			.label = p->label, .cell_keys = k, .cell_values = v,
			.ncell = cell_keys(p, id, k, v, num), .set_keys = sk, .set_values = sv,
			.nsets = nsets, .job_files = files, .njob_files = 1 }, &rr.rep);
	run_report_free(&rr);
	return ret < 0 ? diag_set(d, ret, "--results '%s': %s", p->results, strerror(-ret)) : 0;
}

static void note_line(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "iojob pts: note: %s\n", msg);
}

/* A cell's jobs run and, unless a signal cut them short, kept. Returns as pts_cell_run(). */
static int run_cell(const struct pts_plan *p, const struct pts_cell_id *id,
		    struct job_list *jobs, struct pts_state *st, struct diag *d)
{
	struct run r;
	int ret = run_prepare(&r, jobs, d), failed = 0;

	if (ret < 0) {
		run_free(&r);
		/* as main() has it: the job file's fault, or the target's */
		return ret == -EINVAL || ret == -ENAMETOOLONG ? EXIT_USAGE : EXIT_JOB_FAILED;
	}
	r.note = note_line;
	st->running = &r;
	if (!st->stopped_by)
		failed = run_execute(&r, d);
	st->running = NULL;
	say_errors(&r);
	if (!st->stopped_by && append(p, id, &r, d) < 0)
		failed = 1;
	run_free(&r);
	return st->stopped_by ? EXIT_SIGNAL + st->stopped_by : failed ? EXIT_JOB_FAILED : 0;
}

int pts_cell_run(const struct pts_plan *p, const struct pts_cell_id *id,
		 struct pts_state *st, struct diag *d)
{
	struct jobfile jf = { 0 };
	struct job_list jobs = { 0 };
	int ret = build(p, id, &jf, &jobs, d);

	take_notes(d, false);
	ret = ret < 0 ? EXIT_USAGE : run_cell(p, id, &jobs, st, d);
	jobs_free(&jobs);
	jobfile_free(&jf);
	return ret;
}
