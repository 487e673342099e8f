/*
 * A run of the command line's jobs, for main(): the jobs of every sweep cell built and
 * checked (engine/run/cells.h), run under the trigger and the signals, and each cell's
 * report printed (and appended to --results) with every diagnostic of the run. Exit
 * codes as base/exit_code.h; run as fio (cli.h's FIO_MODE_VERSION), it says what fio
 * would where fio would.
 */
#include "cli/cli.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/prog_name.h"
#include "config.h"
#include "engine/run/cells.h"
#include "engine/dist/dist.h"
#include "engine/dist/dist_report.h"
#include "engine/run/idle_prof.h"
#include "engine/engine.h"
#include "jobs/jobs.h"
#include "jobs/sweep.h"
#include "output/output.h"
#include "output/report_formats.h"
#include "output/resultset_write.h"
#include "output/text.h"
#include "parser/jobfile.h"

/* Who speaks on stderr: fio's name when run as fio, as fio's own errors start "fio: ". */
static const char *prog(const struct cli *c)
{
	return c->fio_mode ? "fio" : "iojob";
}

/*
 * A diagnostic on stderr: "iojob: " (or "fio: ") and msg with its control characters
 * escaped, so that a job name or a path can neither forge lines nor send the terminal
 * escape sequences.
 */
static void say(const struct cli *c, const char *msg)
{
	fprintf(stderr, "%s: ", prog(c));
	text_put_escaped(stderr, msg);
	fputc('\n', stderr);
}

/* The signal handler can only reach the run through a pointer it finds on its own. */
static struct run *volatile running;
static volatile sig_atomic_t stopped_by;

/* How the signal is said: iojob's line on stderr, fio's on stdout, or nothing. */
enum signal_line { SIGNAL_SAY_IOJOB, SIGNAL_SAY_FIO, SIGNAL_SAY_NOTHING };
static volatile sig_atomic_t signal_line;

/*
 * Run as fio: fio's line, on stdout as fio writes it, but only above a normal report; in a
 * JSON or terse report on stdout it would only break what reads the report.
 */
static void say_signal_as_fio(int sig)
{
	char line[] = "fio: terminating on signal NN\n";
	size_t n = sizeof(line) - 4;	/* where NN starts */

	if (sig >= 10)
		line[n++] = (char)('0' + sig / 10 % 10);
	line[n++] = (char)('0' + sig % 10);
	line[n++] = '\n';
	if (write(STDOUT_FILENO, line, n) < 0)
		return;	/* nowhere to say it: stopping is what matters */
}

static void on_signal(int sig)
{
	struct run *r = running;

	static const char say[] = "iojob: interrupted: stopping the jobs and reporting what "
				  "was done (signal again to exit at once)\n";

	/* A second signal ends the process at once, with the default action. */
	signal(sig, SIG_DFL);
	stopped_by = sig;
	if (signal_line == SIGNAL_SAY_FIO)
		say_signal_as_fio(sig);
	else if (signal_line == SIGNAL_SAY_IOJOB && write(STDERR_FILENO, say, sizeof(say) - 1) < 0)
		return;	/* nowhere to say it: stopping is what matters */
	if (r)
		run_stop(r);
}

/* iojob's notes on stderr; run as fio, only with --notes (fio prints nothing there). */
static void print_notes(const struct cli *c, struct diag *d)
{
	if (d->notes && (!c->fio_mode || c->notes))
		for (char *p = d->notes, *nl; (nl = strchr(p, '\n')); p = nl + 1)
			fprintf(stderr, "%s: note: %.*s\n", prog(c), (int)(nl - p), p);
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

/* error_dump's lines, from the jobs' threads: each line whole, as fio's "fio: io_u error" */
static void error_line(void *ctx, const char *msg)
{
	flockfile(stderr);
	say(ctx, msg);
	funlockfile(stderr);
}

static void note_to(void *ctx, const char *msg)
{
	FILE *f = ctx;

	/* whole lines: create_serialize=0 has the job threads lay out files at once */
	flockfile(f);
	/* in the normal report it is fio's line; on stderr, a note like any other */
	if (f == stderr)
		fprintf(f, "%s: note: ", prog_name());
	text_put_escaped(f, msg);	/* it names the job, and a name may hold anything */
	fputc('\n', f);
	fflush(f);
	funlockfile(f);
}

/* The normal report's header: each job's line, then what report_run_header() says. */
static void print_header(FILE *out, const struct cli *c, const struct job_list *jobs,
			 const struct run *r)
{
	const char *keys[CELL_MAX_OVERRIDES], *values[CELL_MAX_OVERRIDES];
	struct resultset_meta m;
	struct report_header h;
	bool some_gettime = false, some_cpu = false;

	for (unsigned i = 0; i < jobs->njobs; i++) {
		const struct job_desc *j = &jobs->jobs[i];
		unsigned long long lo[STATS_NDIR], hi[STATS_NDIR];

		some_gettime |= j->clocksource == CLOCKSRC_GETTIME;
		some_cpu |= j->clocksource == CLOCKSRC_CPU;
		if (j->jobnum)
			continue;
		for (int d = 0; d < STATS_NDIR; d++) {
			lo[d] = j->bs[d].min;
			hi[d] = j->bs[d].max;
		}
		report_job_header(out, j->name, j->groupid, rw_name(j->rw), lo, hi, j->ioengine,
				  j->iodepth, j->sig_figs);
		if (j->numjobs > 1)
			fprintf(out, "...\n");
	}
	cells_meta(&c->cells, keys, values, &m);
	h = (struct report_header){
		.set_keys = m.set_keys, .set_values = m.set_values, .nsets = m.nsets,
		.cell_keys = m.cell_keys, .cell_values = m.cell_values, .ncell = m.ncell,
		.cell_idx = c->cells.cell_idx, .ncells = c->cells.ncells,
		.tsc = r->clock.tsc, .clock_why = r->clock.why, .some_gettime = some_gettime,
		/* the TSC's rate: the run's clock's, or what clocksource=cpu calibrated */
		.tsc_hz = r->clock.tsc ? r->clock.hz : r->cpu.hz,
		.some_cpu_tsc = some_cpu && r->cpu.tsc,
		.nranks = c->dist->nranks, .nhosts = c->dist->nhosts,
		.nthreads = jobs->njobs,
		.version = c->fio_mode ? FIO_MODE_VERSION(IOJOB_VERSION) : NULL,
	};
	report_run_header(out, &h);
}

/* This cell's results, appended to --results. */
static int save_results(const struct cli *c, const struct report *rep)
{
	const char *keys[CELL_MAX_OVERRIDES], *values[CELL_MAX_OVERRIDES];
	struct resultset_meta m;
	int ret;

	cells_meta(&c->cells, keys, values, &m);
	ret = resultset_append(c->results, &m, rep);
	if (ret < 0)
		fprintf(stderr, "%s: --results '%s': cannot append this cell's results: %s\n",
			prog(c), c->results, strerror(-ret));
	return ret;
}

static int print_report(FILE *out, const struct cli *c, const struct report *rep)
{
	report_formats_render(out, rep, c->formats);
	if (c->results && !stopped_by)
		return save_results(c, rep);
	/* a cell cut short is not kept, and not silently: --resume runs it again */
	if (c->results)
		fprintf(stderr, "%s: the cell cut short by %s is not kept in '%s': --resume runs "
			"it again\n", prog(c), strsignal(stopped_by), c->results);
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
			say(c, dr.failures[i]);
		dr.agg.rep.interrupted_by = stopped_by;
		if (c->fio_mode)
			dr.agg.rep.version = FIO_MODE_VERSION(IOJOB_VERSION);
		ret = print_report(out, c, &dr.agg.rep);
		for (unsigned i = 0; !ret && i < r->jobs->njobs; i++)
			ret = r->results[i].error != 0;	/* merged: any rank's failure */
	} else if (ret < 0) {
		fprintf(stderr, "%s: out of memory building the report\n", prog(c));
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
		fprintf(stderr, "%s: out of memory building the report\n", prog(c));
		return -ENOMEM;
	}
	rr.rep.interrupted_by = stopped_by;
	rr.rep.idle = c->idle ? &c->idle_res : NULL;
	if (c->fio_mode)	/* where fio writes its version: the same as --version */
		rr.rep.version = FIO_MODE_VERSION(IOJOB_VERSION);
	ret = print_report(out, c, &rr.rep);
	run_report_free(&rr);
	return ret;
}

static void meet_ranks(void *ctx)
{
	dist_barrier(ctx);
}

/*
 * Run as fio, the run says what fio would, where fio would: the layout line only in a
 * normal report (nothing on stderr), the status line on stdout and never above a JSON or
 * terse report there, and a signal in fio's words.
 */
static void as_fio(struct cli *c, struct run *r)
{
	bool normal = c->formats & RF_NORMAL;

	if (!normal && !c->notes)
		r->note = NULL;
	c->status.eta_out = stdout;
	if (!normal && c->out == stdout)
		c->status.eta = ETA_NEVER;
	signal_line = normal && c->out == stdout ? SIGNAL_SAY_FIO : SIGNAL_SAY_NOTHING;
}

/* Whether job i's failure is to be said: ECANCELED ones (not run) are in the report alone. */
static bool failed_to_say(const struct run *r, unsigned i)
{
	return r->results[i].error && r->results[i].error != ECANCELED;
}

/*
 * Each job's failure, said once: the same message from many jobs (the clones of a job
 * that fail alike, 32,411 of them) is one line with their count.
 */
static void say_job_errors(const struct cli *c, const struct run *r)
{
	const struct job_result *res = r->results;

	for (unsigned i = 0, last; i < r->jobs->njobs; i = last + 1) {
		char msg[sizeof(res[i].error_msg) + 80];
		unsigned same = 0;
		int n;

		last = i;
		if (!failed_to_say(r, i))
			continue;
		for (unsigned k = i + 1; k < r->jobs->njobs; k++) {
			if (!failed_to_say(r, k))
				continue;
			if (strcmp(res[k].error_msg, res[i].error_msg))
				break;
			same++;
			last = k;
		}
		n = snprintf(msg, sizeof(msg), "%s%s", c->dist->nranks > 1 ? "rank 0: " : "",
			     res[i].error_msg);
		if (same && n >= 0 && (size_t)n < sizeof(msg))
			snprintf(msg + n, sizeof(msg) - (size_t)n, " (and %u more job%s failed "
				 "the same way)", same, same > 1 ? "s" : "");
		say(c, msg);
	}
}

/*
 * The jobs of a prepared run started after the report's header, with the status line,
 * then their logs written and their errors said. Returns 0, or 1 when a job failed.
 */
/* --idle-prof: the idle threads calibrated before the jobs start, stopped when they end. */
static void idle_start(struct cli *c)
{
	int err;

	c->idle = NULL;
	if (c->idle_mode < REPORT_IDLE_SYSTEM || c->dist->nranks > 1)
		return;
	err = idle_prof_start(c->idle_mode, &c->idle);
	if (err < 0)
		fprintf(stderr, "%s: --idle-prof: cannot start its threads: %s\n", prog(c),
			strerror(-err));
}

static void idle_stop(struct cli *c)
{
	if (c->idle)
		idle_prof_stop(c->idle, &c->idle_res);
}

static int run_jobs(struct cli *c, struct run *r, FILE *out, struct diag *d)
{
	const struct job_list *jobs = r->jobs;
	int ret;

	if (c->dist->nranks > 1) {
		r->ranks_sync = meet_ranks;
		r->ranks_ctx = c->dist;
	}
	if (c->formats & RF_NORMAL)
		print_header(out, c, jobs, r);
	r->note = note_to;
	r->note_ctx = c->formats & RF_NORMAL ? out : stderr;
	r->error_line = error_line;
	r->error_ctx = c;
	r->aux_path = c->aux_path;
	c->status.eta_out = stderr;
	if (c->fio_mode)
		as_fio(c, r);
	running = r;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	c->status.interval_out = out;
	c->status.formats = c->formats;
	c->status.kb_base = jobs->jobs[0].kb_base;
	if (run_status_start(r, &c->status) < 0 && (!c->fio_mode || c->notes))
		fprintf(stderr, "%s: note: cannot show the status line (out of memory)\n",
			prog(c));
	d->msg[0] = '\0';
	idle_start(c);
	ret = run_execute(r, d);
	idle_stop(c);
	run_status_stop(r);
	if (d->msg[0])
		say(c, d->msg);
	if (run_write_logs(r, d) < 0) {
		say(c, d->msg);
		ret = 1;
	}
	say_job_errors(c, r);
	return ret;
}

/* One cell's jobs prepared (on every rank, or none runs), run and reported: an exit code. */
static int execute(struct cli *c, struct job_list *jobs, FILE *out, struct diag *d)
{
	struct run r;
	int ret;

	ret = run_prepare(&r, jobs, d);
	if (ret < 0)
		say(c, d->msg);
	/* a file name too long for the file system is the job file's as much as a bad value */
	ret = ret == 0 ? 0 : ret == -EINVAL || ret == -ENAMETOOLONG ? EXIT_USAGE : EXIT_JOB_FAILED;
	ret = dist_agree(c->dist, ret, d, stderr);
	if (ret) {
		run_free(&r);
		return ret;
	}
	cli_use_output(c, out);
	ret = run_jobs(c, &r, out, d);
	switch (report(out, c, &r)) {
	case 0:
		break;
	case 1:
		ret = 1;	/* a job failed on another rank */
		break;
	default:
		ret = -1;
	}
	idle_prof_free(c->idle);
	c->idle = NULL;
	cli_trigger_hold(&c->trigger);	/* its thread may be stopping this run */
	running = NULL;
	cli_trigger_release(&c->trigger);
	run_free(&r);
	if (stopped_by)
		return 128 + stopped_by;	/* the shell's convention: 130 for SIGINT */
	return ret == 0 ? 0 : EXIT_JOB_FAILED;
}

/* Every cell checked before any runs; the notes they give are said once each. */
static int check_cells(struct cli *c, struct diag *d)
{
	int ret = cells_check(&c->cells, d);
	bool noted = d->notes != NULL;

	print_notes(c, d);
	if (!ret && noted && c->warnings_fatal)
		ret = diag_set(d, -EINVAL, "--warnings-fatal: the notes above stop the run");
	return ret;
}

/* One cell of cells_run(): its jobs run and reported, then the notes they left said. */
static int run_cell(void *ctx, struct job_list *jobs, struct diag *d)
{
	struct cli *c = ctx;
	unsigned reps = c->cells.repeat > 1 ? c->cells.repeat : 1;
	struct timespec t0, t1;
	int ret;

	c->status.cell = c->cells.cell_idx * reps + c->cells.rep_idx;
	c->status.ncells = c->cells.ncells * reps;
	c->status.cell_s = c->cells_done ? c->cells_s / c->cells_done : -1.0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = execute(c, jobs, c->out, d);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	c->cells_s += (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	c->cells_done++;
	print_notes(c, d);
	return ret;
}

/* The cells of what the command line asks for (one without --sweep), run by run_cell(). */
static void setup_cells(struct cli *c)
{
	c->cells = (struct cells){
		.in = {
			.jf = &c->jf,
			.cli_defaults = c->cli_defaults,
			.sections = c->nsections ? c->sections : NULL,
			.nsections = c->nsections,
			.engines = c->engines,
			.nengines = c->nengines,
			.check_paths = !c->parse_only,
			.readonly = c->readonly,
			.fio_sizes = c->fio_mode,
			.rank = c->dist->rank,
			.nranks = c->dist->nranks,
			.host = c->dist->host,
		},
		.sets = c->sets,
		.nsets = c->nsets,
		.sweep = &c->sweep,
		.dist = c->dist,
		.results = c->results,
		.resume = c->resume,
		.repeat = c->repeat,
		.label = c->label,
		.files = c->files,
		.nfiles = c->nfiles,
		.err = stderr,
		.stopped_by = &stopped_by,
		.run_cell = run_cell,
		.run_ctx = c,
		.ncells = sweep_ncells(&c->sweep),
	};
}

void cli_quiet_other_ranks(struct cli *c)
{
	if (dist_root(c->dist))
		return;
	if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
		return;
	c->status.eta = ETA_NEVER;
}

/* Whether the job files and the command line define no job: [global] sections at most. */
static bool defines_no_job(const struct jobfile *jf)
{
	for (size_t i = 0; i < jf->nsecs; i++)
		if (strcmp(jf->secs[i].name, "global"))
			return false;
	return true;
}

/* fio writes its "No job(s) defined" into --output: a tool that reads the file finds why. */
static void say_no_job_in_output(const struct cli *c)
{
	FILE *f;

	if (!c->output || !strcmp(c->output, "-") || !(f = fopen(c->output, "w")))
		return;
	fputs("No job(s) defined\n\n", f);
	fclose(f);
}

int cli_build(struct cli *c, struct diag *d)
{
	int ret = 0;

	setup_cells(c);
	if (parse_job_files(c, d) < 0) {
		say(c, d->msg);
		ret = EXIT_USAGE;
	} else if (check_cells(c, d) < 0) {
		say(c, d->msg);
		if (defines_no_job(&c->jf) && dist_root(c->dist))
			say_no_job_in_output(c);
		ret = EXIT_USAGE;
	}
	return dist_agree(c->dist, ret, d, stderr) ? EXIT_USAGE : EXIT_GO_ON;
}

/*
 * Run the cells in order, each reported as it ends, into the report stream opened first.
 * The exit code is the worst of the cells', and a signal ends the sweep.
 */
static int run_cells(struct cli *c, struct diag *d)
{
	int opened = cli_open_outputs(c, &c->out, d);
	int ret = EXIT_USAGE;

	if (opened < 0)
		say(c, d->msg);
	if (!dist_agree(c->dist, opened < 0 ? EXIT_USAGE : 0, d, stderr)) {
		ret = cells_run(&c->cells, d);
		if (ret < 0) {
			say(c, d->msg);
			ret = EXIT_USAGE;
		}
	}
	if (c->out != stdout) {
		int lost = cli_finish_output(c->out, c->output, prog(c), 0);

		/*
		 * a report file iojob made and could not fill, or that no cell's jobs started to
		 * fill (refused before any ran), is not left behind, empty or cut
		 */
		if (c->output_created && (lost || !c->out_used))
			unlink(c->output);
		ret = ret ? ret : lost;
	}
	return ret;
}

int cli_run(struct cli *c, struct diag *d)
{
	int ret, err;

	if (c->parse_only)
		return 0;
	err = cli_trigger_start(&c->trigger, &running);
	if (err < 0)
		ret = err == -EPERM ? EXIT_USAGE : EXIT_JOB_FAILED;
	else
		ret = run_cells(c, d);
	cli_trigger_stop(&c->trigger);
	return ret;
}
