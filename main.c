/*
 * iojob's command line: job files and command-line jobs in, a fio-style report out.
 * Exit codes: 0 every job ran, 1 a job failed, 2 usage or job-file error.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "engine/dist/dist.h"
#include "engine/dist/dist_report.h"
#include "engine/engine.h"
#include "jobs/help.h"
#include "jobs/jobs.h"
#include "jobs/sweep.h"
#include "output/resultset/commands.h"
#include "output/output.h"
#include "output/resultset_write.h"
#include "output/stream.h"
#include "output/text.h"
#include "base/diag.h"
#include "parser/jobfile.h"
#include "parser/value.h"

#define EXIT_JOB_FAILED	1
#define EXIT_USAGE	2
#define MAX_ARGS_LIST	256

enum { FMT_NORMAL = 1, FMT_JSON = 2, FMT_JSON_PLUS = 4, FMT_TERSE = 8 };

struct cli {
	struct jobfile jf;
	long cli_defaults;		/* section of options before the first --name */
	long cur_section;		/* section of the current --name job, -1 before */
	struct job_override sets[MAX_ARGS_LIST];
	unsigned nsets;
	struct sweep sweep;
	struct job_override cell[2 * MAX_ARGS_LIST];	/* --set, then this cell's --sweep */
	unsigned ncell;				/* of cell[] */
	unsigned long cell_idx, ncells;		/* the sweep cell running, and how many */
	const char *label;
	const char *results;
	bool resume;
	const char *sections[MAX_ARGS_LIST];
	unsigned nsections;
	const char *files[MAX_ARGS_LIST];
	unsigned nfiles;
	const char *output;
	unsigned formats;
	bool parse_only;
	bool readonly;
	struct status_opts status;
	struct engine_info engines[IOENGINE_MAX];
	unsigned nengines;
	struct dist *dist;		/* the ranks of an MPI run (iojob-mpi), or just this one */
};

/*
 * A diagnostic on stderr: "iojob: " and msg with its control characters escaped, so that
 * a job name or a path can neither forge lines nor send the terminal escape sequences.
 */
static void say(const char *msg)
{
	fputs("iojob: ", stderr);
	text_put_escaped(stderr, msg);
	fputc('\n', stderr);
}

/* The signal handler can only reach the run through a pointer it finds on its own. */
static struct run *volatile running;
static volatile sig_atomic_t stopped_by;

static void on_signal(int sig)
{
	struct run *r = running;

	static const char say[] = "iojob: interrupted: stopping the jobs and reporting what "
				  "was done (signal again to exit at once)\n";

	/* A second signal ends the process at once, with the default action. */
	signal(sig, SIG_DFL);
	stopped_by = sig;
	if (write(STDERR_FILENO, say, sizeof(say) - 1) < 0)
		return;	/* nowhere to say it: stopping is what matters */
	if (r)
		atomic_store(&r->stop, true);
}

static int fail_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "iojob: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (see iojob --help)\n");
	return EXIT_USAGE;
}

static int parse_formats(struct cli *c, const char *list)
{
	char buf[128], *save = NULL, *tok;

	snprintf(buf, sizeof(buf), "%s", list);
	c->formats = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "normal"))
			c->formats |= FMT_NORMAL;
		else if (!strcmp(tok, "json"))
			c->formats |= FMT_JSON;
		else if (!strcmp(tok, "json+"))
			c->formats |= FMT_JSON | FMT_JSON_PLUS;	/* one document, with bins */
		else if (!strcmp(tok, "terse"))
			c->formats |= FMT_TERSE;
		else
			return fail_usage("unknown output format '%s' "
					  "(normal, json, json+, terse)", tok);
	}
	return c->formats ? 0 : fail_usage("--output-format needs a value ('%s')", list);
}

/* A job option on the command line: into the current --name job, or the defaults. */
static int add_cli_option(struct cli *c, const char *key, const char *val)
{
	size_t sec;
	int ret;

	if (!strcmp(key, "name")) {
		c->cur_section = (long)c->jf.nsecs;
		ret = jobfile_add_key(&c->jf, c->jf.nsecs, val, "name", val, "command line", 0);
		return ret;
	}
	if (c->cur_section >= 0) {
		sec = (size_t)c->cur_section;
	} else {
		if (c->cli_defaults < 0)
			c->cli_defaults = (long)c->jf.nsecs;
		sec = (size_t)c->cli_defaults;
	}
	return jobfile_add_key(&c->jf, sec, "global", key, val, "command line", 0);
}

static int add_set(struct cli *c, const char *kv)
{
	const char *eq = strchr(kv, '=');
	char key[256];

	if (!eq || eq == kv)
		return fail_usage("--set needs KEY=VALUE, not '%s'", kv);
	if (c->nsets == MAX_ARGS_LIST)
		return fail_usage("too many --set options ('%s')", kv);
	snprintf(key, sizeof(key), "%.*s", (int)(eq - kv), kv);
	c->sets[c->nsets].key = jobfile_strdup(&c->jf, key);
	c->sets[c->nsets].value = jobfile_strdup(&c->jf, eq + 1);
	c->nsets++;
	return 0;
}

static int add_sweep(struct cli *c, const char *spec)
{
	struct diag d = { 0 };

	if (c->sweep.naxes + 1 >= MAX_ARGS_LIST)
		return fail_usage("too many --sweep options ('%s')", spec);
	if (sweep_add(&c->sweep, spec, &d) < 0)
		return fail_usage("%s", d.msg);
	return 0;
}

/* --eta, --eta-interval, --eta-newline, --status-interval. Returns -1 or an exit code. */
static int parse_status_arg(struct cli *c, const struct cli_opt *sw, const char *val)
{
	struct status_opts *o = &c->status;
	uint64_t ns;

	if (sw->id == CLI_ETA) {
		if (!strcmp(val, "auto"))
			o->eta = ETA_AUTO;
		else if (!strcmp(val, "always"))
			o->eta = ETA_ALWAYS;
		else if (!strcmp(val, "never"))
			o->eta = ETA_NEVER;
		else
			return fail_usage("--eta takes auto, always or never, not '%s'", val);
		return -1;
	}
	/* fio's units: milliseconds for --eta-interval, seconds for the others. */
	if (value_parse_time(val, sw->id == CLI_ETA_INTERVAL ? 1000000ULL : 1000000000ULL,
			     &ns) < 0 || !ns)
		return fail_usage("--%s needs a time above 0 such as 2s or 500ms", sw->name);
	/* 250 ms at least, fio's floor: a faster rewrite only flickers and takes CPU from jobs */
	if (sw->id == CLI_ETA_INTERVAL)
		o->eta_interval_ns = ns < 250000000ULL ? 250000000ULL : ns;
	else if (sw->id == CLI_ETA_NEWLINE)
		o->eta_newline_ns = ns;
	else
		o->interval_ns = ns;
	return -1;
}

/* The switches that print something generated from the tables, then exit. */
static int print_help(const struct cli *c, const struct cli_opt *sw, const char *val)
{
	if (sw->id == CLI_HELP)
		help_usage(stdout);
	else if (sw->id == CLI_VERSION)
		help_version(stdout);
	else if (sw->id == CLI_CMDHELP && help_options(stdout, val, c->engines, c->nengines) < 0)
		return fail_usage("unknown option '%s'", val);
	else if (sw->id == CLI_ENGHELP && help_engines(stdout, val, c->engines, c->nengines) < 0)
		return fail_usage("unknown ioengine '%s'", val);
	else if (sw->id == CLI_COMPLETE_OPTIONS)
		help_complete_options(stdout, c->engines, c->nengines);
	else if (sw->id == CLI_COMPLETE_VALUES &&
		 help_complete_values(stdout, val, c->engines, c->nengines) < 0)
		return EXIT_USAGE;	/* no message: the completion script would drop it */
	if (sw->id == CLI_COMPLETE_OPTIONS)
		commands_complete(stdout);	/* completed as the first word */
	return 0;
}

/* One switch of cli_options with its value (NULL when it has none). -1 or an exit code. */
static int apply_switch(struct cli *c, const struct cli_opt *sw, const char *val)
{
	switch (sw->id) {
	case CLI_PARSE_ONLY:
		c->parse_only = true;
		return -1;
	case CLI_READONLY:
		c->readonly = true;
		return -1;
	case CLI_RESUME:
		c->resume = true;
		return -1;
	case CLI_MINIMAL:
		/* like fio: it replaces earlier --output-format, a later one replaces it */
		c->formats = FMT_TERSE;
		return -1;
	case CLI_OUTPUT_FORMAT:
		return parse_formats(c, val) ? EXIT_USAGE : -1;
	case CLI_OUTPUT:
		c->output = val;
		return -1;
	case CLI_LABEL:
		c->label = val;
		return -1;
	case CLI_RESULTS:
		c->results = val;
		return -1;
	case CLI_SET:
		return add_set(c, val) ? EXIT_USAGE : -1;
	case CLI_SWEEP:
		return add_sweep(c, val) ? EXIT_USAGE : -1;
	case CLI_SECTION:
		if (c->nsections == MAX_ARGS_LIST)
			return fail_usage("too many --section options ('%s')", val);
		c->sections[c->nsections++] = val;
		return -1;
	case CLI_ETA: case CLI_ETA_INTERVAL: case CLI_ETA_NEWLINE: case CLI_STATUS_INTERVAL:
		return parse_status_arg(c, sw, val);
	default:
		return print_help(c, sw, val);
	}
}

/* Returns -1 to go on, or an exit code. */
static int parse_arg(struct cli *c, char **argv, int *i)
{
	const char *arg = argv[*i], *eq, *val;
	const struct cli_opt *sw;
	char key[256];

	if (!strcmp(arg, "-") || arg[0] != '-') {
		if (c->nfiles == MAX_ARGS_LIST)
			return fail_usage("too many job files ('%s')", arg);
		c->files[c->nfiles++] = arg;
		return -1;
	}
	arg += arg[1] == '-' ? 2 : 1;
	eq = strchr(arg, '=');
	snprintf(key, sizeof(key), "%.*s", eq ? (int)(eq - arg) : (int)strlen(arg), arg);
	sw = cli_find(key);
	if (!sw) {
		if (!eq && !strcmp(key, "name"))
			return fail_usage("%s", "--name needs a job name (--name=NAME)");
		if (add_cli_option(c, key, eq ? eq + 1 : NULL) < 0)
			return fail_usage("out of memory at '%s'", arg);
		return -1;
	}
	val = eq ? eq + 1 : sw->arg == CLI_ARG_REQUIRED ? argv[++*i] : NULL;
	if (sw->arg == CLI_ARG_REQUIRED && !val)
		return fail_usage("--%s needs a value", sw->name);
	return apply_switch(c, sw, val);
}

static void print_notes(struct diag *d)
{
	if (d->notes)
		for (char *p = d->notes, *nl; (nl = strchr(p, '\n')); p = nl + 1)
			fprintf(stderr, "iojob: note: %.*s\n", (int)(nl - p), p);
	free(d->notes);
	d->notes = NULL;
	d->notes_len = 0;
}

static int parse_job_files(struct cli *c, struct diag *d)
{
	for (unsigned i = 0; i < c->nfiles; i++) {
		int ret = jobfile_parse(&c->jf, c->files[i], d);

		if (ret < 0)
			return ret;
	}
	return 0;
}

/* The jobs of one sweep cell (the only one without --sweep): --set, then its values. */
static int build_jobs(struct cli *c, unsigned long cell, struct job_list *jobs,
		      struct diag *d)
{
	struct job_input in = {
		.jf = &c->jf,
		.cli_defaults = c->cli_defaults,
		.sets = c->cell,
		.sections = c->nsections ? c->sections : NULL,
		.nsections = c->nsections,
		.engines = c->engines,
		.nengines = c->nengines,
		.check_paths = !c->parse_only,
		.readonly = c->readonly,
		.rank = c->dist->rank,
		.nranks = c->dist->nranks,
		.host = c->dist->host,
	};

	memcpy(c->cell, c->sets, c->nsets * sizeof(c->sets[0]));
	sweep_cell(&c->sweep, cell, c->cell + c->nsets);
	c->ncell = c->nsets + c->sweep.naxes;
	in.nsets = c->ncell;
	return jobs_build(&in, jobs, d);
}

static void print_header(FILE *out, const struct cli *c, const struct job_list *jobs,
			 const struct run *r)
{
	unsigned nthreads = jobs->njobs;

	for (unsigned i = 0; i < jobs->njobs; i++) {
		const struct job_desc *j = &jobs->jobs[i];
		unsigned long long lo[3], hi[3];

		if (j->jobnum)
			continue;
		for (int d = 0; d < 3; d++) {
			lo[d] = j->bs[d].min;
			hi[d] = j->bs[d].max;
		}
		report_job_header(out, j->name, j->groupid, rw_name(j->rw), lo, hi, j->ioengine,
				  j->iodepth);
		if (j->numjobs > 1)
			fprintf(out, "...\n");
	}
	fprintf(out, "iojob-%s\n", IOJOB_VERSION);
	for (unsigned s = 0; s < c->nsets; s++)
		fprintf(out, "%s%s=%s%s", s ? ", " : "Overrides (--set): ", c->sets[s].key,
			c->sets[s].value, s + 1 == c->nsets ? "\n" : "");
	if (c->sweep.naxes)
		fprintf(out, "Sweep (--sweep) %lu/%lu: ", c->cell_idx + 1, c->ncells);
	for (unsigned s = c->nsets; s < c->ncell; s++)
		fprintf(out, "%s=%s%s", c->cell[s].key, c->cell[s].value,
			s + 1 == c->ncell ? "\n" : ", ");
	if (r->clock.tsc)
		fprintf(out, "Clock: tsc (%.0f MHz)", (double)r->clock.hz / 1e6);
	else
		fprintf(out, "Clock: clock_gettime (%s)", r->clock.why);
	for (unsigned i = 0; i < jobs->njobs; i++) {
		if (jobs->jobs[i].clocksource == CLOCKSRC_GETTIME && r->clock.tsc) {
			fprintf(out, "; clock_gettime where clocksource=clock_gettime");
			break;
		}
	}
	fprintf(out, "\n");
	if (c->dist->nranks > 1)
		fprintf(out, "Ranks: %d on %u host%s (MPI), each running the jobs below\n",
			c->dist->nranks, c->dist->nhosts, c->dist->nhosts > 1 ? "s" : "");
	fprintf(out, "Starting %u thread%s\n", nthreads, nthreads > 1 ? "s" : "");
	fflush(out);
}

static void note_to(void *ctx, const char *msg)
{
	FILE *f = ctx;

	/* in the normal report it is fio's line; on stderr, a note like any other */
	fputs(f == stderr ? "iojob: note: " : "", f);
	text_put_escaped(f, msg);	/* it names the job, and a name may hold anything */
	fputc('\n', f);
	fflush(f);
}

/* The cell running as result-set metadata; keys and values hold c->ncell entries. */
static void cell_meta(const struct cli *c, const char **keys, const char **values,
		      struct resultset_meta *m)
{
	for (unsigned i = 0; i < c->ncell; i++) {
		keys[i] = c->cell[i].key;
		values[i] = c->cell[i].value;
	}
	*m = (struct resultset_meta){
		.label = c->label,
		.cell_keys = keys + c->nsets,
		.cell_values = values + c->nsets,
		.ncell = c->ncell - c->nsets,
		.set_keys = keys,
		.set_values = values,
		.nsets = c->nsets,
		.job_files = c->files,
		.njob_files = c->nfiles,
	};
}

/* This cell's results, appended to --results. */
static int save_results(const struct cli *c, const struct report *rep)
{
	const char *keys[2 * MAX_ARGS_LIST], *values[2 * MAX_ARGS_LIST];
	struct resultset_meta m;
	int ret;

	cell_meta(c, keys, values, &m);
	ret = resultset_append(c->results, &m, rep);
	if (ret < 0)
		fprintf(stderr, "iojob: --results '%s': %s\n", c->results, strerror(-ret));
	return ret;
}

static int print_report(FILE *out, const struct cli *c, const struct report *rep)
{
	/* each format once, in fio's order whatever the order asked for */
	if (c->formats & FMT_TERSE)
		report_terse(out, rep);
	if (c->formats & FMT_JSON)
		report_json(out, rep, c->formats & FMT_JSON_PLUS);
	if (c->formats & FMT_NORMAL)
		report_normal(out, rep);
	if (c->results && !stopped_by)	/* a cell cut short is not kept: --resume reruns it */
		return save_results(c, rep);
	return 0;
}

/*
 * MPI: every rank's results merge on the root, which prints them and the other ranks'
 * failures. Returns what report() does, 1 when a job failed on another rank.
 */
static int report_ranks(FILE *out, const struct cli *c, struct run *r)
{
	struct dist_report dr;
	int ret = dist_report_build(c->dist, r, &dr);

	if (!ret && dist_root(c->dist)) {
		for (unsigned i = 0; i < dr.nfailures; i++)
			say(dr.failures[i]);
		dr.agg.rep.interrupted_by = stopped_by;
		ret = print_report(out, c, &dr.agg.rep);
		for (unsigned i = 0; !ret && i < r->jobs->njobs; i++)
			ret = r->results[i].error != 0;	/* merged: any rank's failure */
	} else if (ret < 0) {
		fprintf(stderr, "iojob: out of memory building the report\n");
	}
	dist_report_free(&dr, r);
	return ret;
}

static int report(FILE *out, const struct cli *c, struct run *r)
{
	struct run_report rr;
	int ret;

	if (c->dist->nranks > 1)
		return report_ranks(out, c, r);
	if (run_build_report(r, &rr) < 0) {
		run_report_free(&rr);
		fprintf(stderr, "iojob: out of memory building the report\n");
		return -ENOMEM;
	}
	rr.rep.interrupted_by = stopped_by;
	ret = print_report(out, c, &rr.rep);
	run_report_free(&rr);
	return ret;
}

/*
 * Every rank must take the same path: the worst exit code of all. The root says what
 * went wrong on each rank where it did (the others' stderr is closed under MPI).
 */
static int agree(const struct cli *c, int code, const struct diag *d)
{
	const struct dist *dist = c->dist;
	char (*msgs)[sizeof(d->msg)] = NULL;
	char mine[sizeof(d->msg)];

	if (dist->nranks == 1)
		return code;
	snprintf(mine, sizeof(mine), "%s", code ? d->msg : "");
	if (dist_root(dist) && !(msgs = calloc((size_t)dist->nranks, sizeof(*msgs))))
		abort();	/* the others are in the gather: nothing else is safe */
	dist_gather(dist, mine, sizeof(mine), msgs);
	for (int k = 1; msgs && k < dist->nranks; k++)
		if (msgs[k][0] && strcmp(msgs[k], msgs[0]))
			fprintf(stderr, "iojob: rank %d (host %s): %s\n", k,
				dist->hosts[dist->rank_host[k]], msgs[k]);
	free(msgs);
	return dist_max(dist, code);
}

static void meet_ranks(void *ctx)
{
	dist_barrier(ctx);
}

static int execute(struct cli *c, struct job_list *jobs, FILE *out, struct diag *d)
{
	struct run r;
	int ret;

	ret = run_prepare(&r, jobs, d);
	if (ret < 0)
		say(d->msg);
	/* a file name too long for the file system is the job file's as much as a bad value */
	ret = agree(c, ret == 0 ? 0 : ret == -EINVAL || ret == -ENAMETOOLONG ? EXIT_USAGE :
		    EXIT_JOB_FAILED, d);
	if (ret) {
		run_free(&r);
		return ret;
	}
	if (c->dist->nranks > 1) {
		r.ranks_sync = meet_ranks;
		r.ranks_ctx = c->dist;
	}
	if (c->formats & FMT_NORMAL)
		print_header(out, c, jobs, &r);
	r.note = note_to;
	r.note_ctx = c->formats & FMT_NORMAL ? out : stderr;
	running = &r;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	c->status.eta_out = stderr;
	c->status.interval_out = out;
	c->status.interval_json = !(c->formats & FMT_NORMAL);
	c->status.kb_base = jobs->jobs[0].kb_base;
	if (run_status_start(&r, &c->status) < 0)
		fprintf(stderr, "iojob: note: cannot show the status line (out of memory)\n");
	d->msg[0] = '\0';
	ret = run_execute(&r, d);
	run_status_stop(&r);
	if (d->msg[0])
		say(d->msg);
	if (run_write_logs(&r, d) < 0) {
		say(d->msg);
		ret = 1;
	}
	for (unsigned i = 0; i < jobs->njobs; i++)
		if (r.results[i].error && r.results[i].error != ECANCELED) {
			char msg[sizeof(r.results[i].error_msg) + 16];

			snprintf(msg, sizeof(msg), "%s%s", c->dist->nranks > 1 ? "rank 0: " : "",
				 r.results[i].error_msg);
			say(msg);
		}
	switch (report(out, c, &r)) {
	case 0:
		break;
	case 1:
		ret = 1;	/* a job failed on another rank */
		break;
	default:
		ret = -1;
	}
	running = NULL;
	run_free(&r);
	if (stopped_by)
		return 128 + stopped_by;	/* the shell's convention: 130 for SIGINT */
	return ret == 0 ? 0 : EXIT_JOB_FAILED;
}

/* --resume: whether --results already holds this cell (1), after saying so. */
static int skip_cell(const struct cli *c)
{
	const char *keys[2 * MAX_ARGS_LIST], *values[2 * MAX_ARGS_LIST];
	struct resultset_meta m;
	int ret;

	cell_meta(c, keys, values, &m);
	ret = dist_root(c->dist) ? resultset_has_cell(c->results, &m) : 0;
	ret = dist_bcast(c->dist, ret);		/* the root's file decides for every rank */
	if (ret < 0)
		fprintf(stderr, "iojob: note: --resume cannot read '%s' (%s): running the cell\n",
			c->results, strerror(-ret));
	else if (ret)
		fprintf(stderr, "iojob: sweep cell %lu/%lu is in '%s' already: skipped\n",
			c->cell_idx + 1, c->ncells, c->results);
	return ret > 0;
}

/*
 * A cell's jobs and, in a sweep, their files and devices (the only cell's are checked as
 * it starts): a bad cell late in a sweep stops it before the first I/O.
 */
static int check_cell(struct cli *c, unsigned long cell, struct diag *d)
{
	struct job_list jobs;
	int ret = build_jobs(c, cell, &jobs, d);

	if (ret < 0)
		return ret;
	if (c->ncells > 1 && !c->parse_only)
		ret = run_check_files(&jobs, d);
	jobs_free(&jobs);
	return ret;
}

/*
 * Check every cell before running any, so a bad value in the last cell of a long sweep
 * stops it before it starts. Notes print once however many cells repeat them.
 */
static int check_cells(struct cli *c, struct diag *d)
{
	char *seen = NULL;
	size_t seen_len = 0;
	int ret = 0;

	for (unsigned long i = 0; !ret && i < c->ncells; i++) {
		ret = check_cell(c, i, d);
		if (c->ncells > 1 && ret < 0) {
			char msg[sizeof(d->msg)];

			memcpy(msg, d->msg, sizeof(msg));
			diag_set(d, ret, "sweep cell %lu/%lu: %s", i + 1, c->ncells, msg);
		}
		if (d->notes && (!seen || !strstr(seen, d->notes))) {
			char *n = realloc(seen, seen_len + d->notes_len + 1);

			if (n) {
				memcpy(n + seen_len, d->notes, d->notes_len + 1);
				seen = n;
				seen_len += d->notes_len;
			}
			print_notes(d);
		}
		free(d->notes);
		d->notes = NULL;
		d->notes_len = 0;
	}
	free(seen);
	return ret;
}

/* Run the cells in order; the exit code is the worst, and a signal ends the sweep. */
static int run_cells(struct cli *c, FILE *out, struct diag *d)
{
	int worst = 0;

	for (c->cell_idx = 0; c->cell_idx < c->ncells; c->cell_idx++) {
		struct job_list jobs;
		int ret;

		if (dist_max(c->dist, stopped_by != 0))
			break;	/* a signal on any rank ends the sweep on all */
		ret = build_jobs(c, c->cell_idx, &jobs, d);
		free(d->notes);		/* check_cells printed them */
		d->notes = NULL;
		d->notes_len = 0;
		if (ret < 0) {
			say(d->msg);
			return EXIT_USAGE;
		}
		if (c->resume && skip_cell(c)) {
			jobs_free(&jobs);
			continue;
		}
		ret = execute(c, &jobs, out, d);
		print_notes(d);
		jobs_free(&jobs);
		if (ret > worst)
			worst = ret;
	}
	return worst;
}

/*
 * Under MPI only the root writes: the others' reports and messages would repeat its own
 * N times, and their failures reach the root (see agree() and report_ranks()).
 */
static void quiet_other_ranks(struct cli *c)
{
	if (dist_root(c->dist))
		return;
	if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
		return;
	c->status.eta = ETA_NEVER;
}

/*
 * The result set and the report file, opened before anything runs: a path that cannot
 * be written stops the run now, not after it (where fio finds out). Only the root writes.
 */
static int open_outputs(const struct cli *c, FILE **out, struct diag *d)
{
	FILE *f;
	int ret;

	if (!dist_root(c->dist))
		return 0;
	if (c->results && (ret = resultset_check(c->results)) < 0)
		return diag_set(d, ret, "--results '%s': %s", c->results, strerror(-ret));
	if (!c->output)
		return 0;
	f = fopen(c->output, "w");
	if (!f)
		return diag_set(d, -errno, "--output '%s': %s", c->output, strerror(errno));
	*out = f;
	return 0;
}

/*
 * The end of a report stream: a report that could not be written fails the run (fio
 * exits 0 with it lost). who is "iojob" or "iojob report"; path NULL for stdout.
 */
static int finish_output(FILE *f, const char *path, const char *who, int ret)
{
	int err = stream_finish(f, f != stdout);

	if (!err)
		return ret;
	if (path)
		fprintf(stderr, "%s: cannot write the report to '%s': %s\n", who, path,
			strerror(-err));
	else
		fprintf(stderr, "%s: cannot write the report to stdout: %s\n", who,
			strerror(-err));
	return ret ? ret : EXIT_JOB_FAILED;
}

int main(int argc, char **argv)
{
	struct cli c = {
		.cli_defaults = -1,
		.cur_section = -1,
		.formats = FMT_NORMAL,
		.status = { .eta = ETA_AUTO, .eta_interval_ns = 1000000000ULL },
	};
	struct dist dist;
	struct diag d = { 0 };
	FILE *out = stdout;
	int ret;

	/* Subcommands on result sets: they run no jobs. */
	if (argc > 1 && !strcmp(argv[1], "report"))
		return finish_output(stdout, NULL, "iojob report",
				     report_main(argc - 1, argv + 1));
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return finish_output(stdout, NULL, "iojob compare",
				     compare_main(argc - 1, argv + 1));
	if (dist_init(&argc, &argv, &dist) < 0) {
		fprintf(stderr, "iojob: cannot start MPI\n");
		return EXIT_JOB_FAILED;
	}
	c.dist = &dist;
	quiet_other_ranks(&c);
	c.nengines = engine_catalog(c.engines, IOENGINE_MAX);
	for (int i = 1; i < argc; i++) {
		ret = parse_arg(&c, argv, &i);
		if (ret >= 0)
			goto done;
	}
	ret = EXIT_USAGE;
	if (c.resume && !c.results) {
		fail_usage("%s", "--resume needs --results FILE");
		goto done;
	}
	c.ncells = sweep_ncells(&c.sweep);
	if (parse_job_files(&c, &d) < 0 || check_cells(&c, &d) < 0) {
		say(d.msg);
		if (agree(&c, EXIT_USAGE, &d))
			goto done;
	} else if (agree(&c, 0, &d)) {
		goto done;	/* a rank's own files or directories were wrong */
	}
	if (c.parse_only) {
		ret = 0;
	} else {
		int opened = open_outputs(&c, &out, &d);

		if (opened < 0)
			say(d.msg);
		if (!agree(&c, opened < 0 ? EXIT_USAGE : 0, &d))
			ret = run_cells(&c, out, &d);
		if (out != stdout)
			ret = finish_output(out, c.output, "iojob", ret);
	}
done:
	ret = finish_output(stdout, NULL, "iojob", ret);
	sweep_free(&c.sweep);
	jobfile_free(&c.jf);
	dist_finalize(&dist);
	return ret;
}
