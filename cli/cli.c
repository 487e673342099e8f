/*
 * The command line read: the switch table (base/argopt.h), which the parsing and the help
 * both come from, then the arguments into struct cli (a switch, a job file, or a job
 * option).
 */
#include "cli/cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/prog_name.h"
#include "base/diag.h"
#include "base/units.h"
#include "cli/cli_commands.h"
#include "jobs/help.h"
#include "jobs/options.h"
#include "output/report_formats.h"
#include "parser/expr.h"
#include "parser/value.h"

/* The shortest --eta-interval (see parse_status_arg()). */
#define ETA_INTERVAL_MIN_NS	(250 * NS_PER_MSEC)

_Static_assert(CELL_MAX_OVERRIDES >= 2 * MAX_ARGS_LIST, "a cell holds every --set and --sweep");

#define SERVER_REFUSED	"fio's client/server mode is not in iojob: to run jobs on several " \
			"hosts, run iojob-mpi under MPI (mpirun -n N iojob-mpi JOBFILE)"

#define SWITCH(n, i, a, m, h, ...) \
	{ .name = n, .id = i, .arg = a, .metavar = m, .help = h, __VA_ARGS__ }

/* In the order --help and the man page list them. */
const struct argopt cli_options[] = {
	SWITCH("output", CLI_OUTPUT, ARGOPT_REQUIRED, "FILE", "write the report to FILE",
	       .alias = "o"),
	SWITCH("output-format", CLI_OUTPUT_FORMAT, ARGOPT_REQUIRED, "FORMAT",
	       "comma-separated for several", .value_at = report_format_at, .alias = "F"),
	SWITCH("minimal", CLI_MINIMAL, ARGOPT_NONE, NULL, "terse output (--output-format=terse)",
	       .alias = "m"),
	SWITCH("terse-version", CLI_TERSE_VERSION, ARGOPT_REQUIRED, "VERSION",
	       "the terse format's version: 2, 3 (the default), 4 (adds trim) or 5 (adds the "
	       "bw and iops samples)", .values = "2|3|4|5", .alias = "V"),
	SWITCH("set", CLI_SET, ARGOPT_REQUIRED, "KEY=VALUE",
	       "set a job option in every job, over what the job files say (repeatable)"),
	SWITCH("section", CLI_SECTION, ARGOPT_REQUIRED, "NAME",
	       "run only the job NAME (repeatable)", .alias = "x"),
	SWITCH("sweep", CLI_SWEEP, ARGOPT_REQUIRED, "KEY=V1,V2,...",
	       "run the jobs once per value (repeatable: every combination, the first KEY "
	       "varying slowest)"),
	SWITCH("label", CLI_LABEL, ARGOPT_REQUIRED, "TEXT",
	       "name this run (a target or configuration) in --results"),
	SWITCH("results", CLI_RESULTS, ARGOPT_REQUIRED, "FILE.jsonl",
	       "append each run's options and results to FILE.jsonl"),
	SWITCH("repeat", CLI_REPEAT, ARGOPT_REQUIRED, "N",
	       "run each cell N times, each repetition its own line in --results"),
	SWITCH("resume", CLI_RESUME, ARGOPT_NONE, NULL,
	       "skip the sweep's runs that --results already holds"),
	SWITCH("eta", CLI_ETA, ARGOPT_REQUIRED, "WHEN",
	       "the status line on stderr: auto (on a terminal), always or never",
	       .values = "auto|always|never", .alias = "e"),
	SWITCH("eta-interval", CLI_ETA_INTERVAL, ARGOPT_REQUIRED, "TIME",
	       "rewrite the status line this often (default 1s, at least 250ms; "
	       "plain numbers in milliseconds)", .alias = "O"),
	SWITCH("eta-newline", CLI_ETA_NEWLINE, ARGOPT_REQUIRED, "TIME",
	       "start a new status line this often (plain numbers in seconds)", .alias = "E"),
	SWITCH("status-interval", CLI_STATUS_INTERVAL, ARGOPT_REQUIRED, "TIME",
	       "print the report of the run so far this often, as fio does (plain numbers "
	       "in seconds)", .alias = "L"),
	SWITCH("status-format", CLI_STATUS_FORMAT, ARGOPT_REQUIRED, "full|delta",
	       "what --status-interval prints: full (the whole report so far, fio's) or delta "
	       "(iojob's lines of each interval alone: JSON unless the report is normal)",
	       .values = "full|delta"),
	SWITCH("parse-only", CLI_PARSE_ONLY, ARGOPT_NONE, NULL,
	       "check the job files and options, run nothing", .alias = "P"),
	SWITCH("merge-blktrace-only", CLI_PARSE_ONLY, ARGOPT_NONE, NULL,
	       "fio's: write merge_blktrace_file's merge, run nothing (--parse-only, which "
	       "merges too)", .alias = "A"),
	SWITCH("readonly", CLI_READONLY, ARGOPT_NONE, NULL,
	       "refuse jobs that write, trim or lay out files", .alias = "r"),
	SWITCH("cmdhelp", CLI_CMDHELP, ARGOPT_OPTIONAL, "OPTION|all",
	       "describe a job option, or all of them", .alias = "c"),
	SWITCH("enghelp", CLI_ENGHELP, ARGOPT_OPTIONAL, "ENGINE",
	       "list the ioengines, or describe one and its own options", .alias = "i"),
	SWITCH("notes", CLI_NOTES, ARGOPT_NONE, NULL,
	       "run as fio, say iojob's notes on stderr all the same (under its own name "
	       "iojob always does)"),
	/* fio's other switches: those that mean something for local I/O, then the refused */
	SWITCH("max-jobs", CLI_MAX_JOBS, ARGOPT_REQUIRED, "NR",
	       "accepted and checked as a number; fio 3.33 ignores it too (it caps nothing)",
	       .alias = "j"),
	SWITCH("append-terse", CLI_APPEND_TERSE, ARGOPT_NONE, NULL,
	       "add terse to the output formats given so far, as fio 3.33 does", .alias = "f"),
	SWITCH("warnings-fatal", CLI_WARNINGS_FATAL, ARGOPT_NONE, NULL,
	       "a note on the job files or options is an error (exit 2), before anything runs",
	       .alias = "w"),
	SWITCH("showcmd", CLI_SHOWCMD, ARGOPT_NONE, NULL,
	       "print each job file as a command line of job options, run nothing", .alias = "s"),
	SWITCH("crctest", CLI_CRCTEST, ARGOPT_OPTIONAL, "TYPE,...",
	       "the speed of the verify checksums (crc32c, md5, sha1, ... as verify= names "
	       "them; default all)",
	       .alias = "G"),
	SWITCH("inflate-log", CLI_INFLATE_LOG, ARGOPT_REQUIRED, "LOG",
	       "print a log fio stored compressed (its .fz files, zlib) as text", .alias = "X"),
	SWITCH("aux-path", CLI_AUX_PATH, ARGOPT_REQUIRED, "DIR",
	       "where the verify state files go (verify_state_save), instead of the cwd",
	       .alias = "K"),
	SWITCH("alloc-size", CLI_ALLOC_SIZE, ARGOPT_REQUIRED, "KB",
	       "fio's shared memory pool for its job processes; iojob's jobs are threads "
	       "allocating from the heap, so the size is checked and has no use", .alias = "a"),
	SWITCH("debug", CLI_DEBUG, ARGOPT_REQUIRED, "CATEGORY,...",
	       "fio's debug log categories ('?' lists them): checked; iojob has no debug log "
	       "and says so once on stderr", .alias = "d"),
	SWITCH("idle-prof", CLI_IDLE_PROF, ARGOPT_REQUIRED, "MODE",
	       "report the CPUs' idleness as fio: system (their mean), percpu (each too), or "
	       "calibrate (time the unit of work alone, run no job)",
	       .values = "system|percpu|calibrate", .alias = "I"),
	SWITCH("trigger-file", CLI_TRIGGER_FILE, ARGOPT_REQUIRED, "FILE",
	       "when FILE appears, remove it, stop every job (reported as run) and run --trigger",
	       .alias = "W"),
	SWITCH("trigger-timeout", CLI_TRIGGER_TIMEOUT, ARGOPT_REQUIRED, "TIME",
	       "as --trigger-file, TIME after the start (plain numbers in seconds)", .alias = "B"),
	SWITCH("trigger", CLI_TRIGGER, ARGOPT_REQUIRED, "CMD",
	       "the shell command the trigger runs", .alias = "H"),
	SWITCH("trigger-remote", CLI_REFUSED, ARGOPT_REQUIRED, "CMD", "refused: use iojob-mpi",
	       .refuse = SERVER_REFUSED, .alias = "J"),
	SWITCH("bandwidth-log", CLI_BANDWIDTH_LOG, ARGOPT_OPTIONAL, "PREFIX",
	       "write the jobs' bandwidth together, per direction, to agg-read_bw.log, "
	       "agg-write_bw.log and agg-trim_bw.log, as fio (PREFIX is ignored, as by fio)",
	       .alias = "b"),
	SWITCH("latency-log", CLI_REFUSED, ARGOPT_REQUIRED, "PREFIX", "refused (as by fio)",
	       .refuse = "deprecated in fio, which refuses it too: give the jobs "
			 "write_lat_log=PREFIX", .alias = "l"),
	SWITCH("cpuclock-test", CLI_REFUSED, ARGOPT_NONE, NULL, "refused (not in iojob)",
	       .refuse = "fio's CPU clock test is not in iojob: the normal report's Clock: "
			 "line says which clock iojob chose and why", .alias = "T"),
	SWITCH("memcpytest", CLI_REFUSED, ARGOPT_OPTIONAL, "TYPE", "refused (not in iojob)",
	       .refuse = "fio's memcpy speed test is not in iojob: --crctest times the "
			 "checksums, ioengine=null the rest of the I/O path", .alias = "M"),
	SWITCH("profile", CLI_REFUSED, ARGOPT_REQUIRED, "NAME", "refused (not in iojob)",
	       .refuse = "fio's built-in profiles (act, tiobench) are not in iojob: write "
			 "their jobs as a job file", .alias = "p"),
	SWITCH("server", CLI_REFUSED, ARGOPT_OPTIONAL, "ARGS", "refused: use iojob-mpi",
	       .refuse = SERVER_REFUSED, .alias = "S"),
	SWITCH("client", CLI_REFUSED, ARGOPT_REQUIRED, "HOST", "refused: use iojob-mpi",
	       .refuse = SERVER_REFUSED, .alias = "C"),
	SWITCH("daemonize", CLI_REFUSED, ARGOPT_REQUIRED, "PIDFILE", "refused: use iojob-mpi",
	       .refuse = SERVER_REFUSED, .alias = "D"),
	SWITCH("remote-config", CLI_REFUSED, ARGOPT_REQUIRED, "FILE", "refused: use iojob-mpi",
	       .refuse = SERVER_REFUSED, .alias = "R"),
	SWITCH("version", CLI_VERSION, ARGOPT_NONE, NULL, "print the version", .alias = "v"),
	SWITCH("help", CLI_HELP, ARGOPT_NONE, NULL,
	       "print the usage, the common options and the exit status", .alias = "h"),
	SWITCH("complete-options", CLI_COMPLETE_OPTIONS, ARGOPT_NONE, NULL,
	       "the words bash completion offers", .hidden = true),
	SWITCH("complete-values", CLI_COMPLETE_VALUES, ARGOPT_REQUIRED, "OPTION",
	       "the values bash completion offers for OPTION", .hidden = true),
	{ NULL },
};

static int fail_usage(const char *fmt, const char *arg)
{
	const char *prog = prog_name();	/* run as fio, an error starts as fio's do */

	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (see %s --help)\n", prog);
	return EXIT_USAGE;
}

static int parse_formats(struct cli *c, const char *list)
{
	char bad[128], names[128], msg[256];
	int ret = report_formats_parse(list, &c->formats, bad, sizeof(bad));

	if (!ret)
		return 0;
	if (ret == -ENODATA)
		return fail_usage("--output-format needs a value ('%s')", bad);
	report_formats_names(names, sizeof(names), ", ", ", ");
	snprintf(msg, sizeof(msg), "unknown output format '%%s' (%s)", names);
	return fail_usage(msg, bad);
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
	char key[256], *kw;
	int err;

	if (!eq || eq == kv)
		return fail_usage("--set needs KEY=VALUE, not '%s'", kv);
	if (c->nsets == MAX_ARGS_LIST)
		return fail_usage("too many --set options ('%s')", kv);
	snprintf(key, sizeof(key), "%.*s", (int)(eq - kv), kv);
	kw = expr_keywords(eq + 1, &err);	/* $pagesize and the like, as in job files */
	c->sets[c->nsets].key = jobfile_strdup(&c->jf, key);
	c->sets[c->nsets].value = jobfile_strdup(&c->jf, kw ? kw : eq + 1);
	free(kw);
	if (err < 0 || !c->sets[c->nsets].key || !c->sets[c->nsets].value)
		return fail_usage("--set '%s': out of memory", kv);
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

/* The status switches (--eta*, --status-interval, --status-format): EXIT_GO_ON or an exit code. */
static int parse_status_arg(struct cli *c, const struct argopt *sw, const char *val)
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
		return EXIT_GO_ON;
	}
	if (sw->id == CLI_STATUS_FORMAT) {
		if (strcmp(val, "full") && strcmp(val, "delta"))
			return fail_usage("--status-format takes full or delta, not '%s'", val);
		o->delta = !strcmp(val, "delta");
		return EXIT_GO_ON;
	}
	/* fio's units: milliseconds for --eta-interval, seconds for the others. */
	if (value_parse_time(val, sw->id == CLI_ETA_INTERVAL ? NS_PER_MSEC : NS_PER_SEC,
			     &ns) < 0 || !ns)
		return fail_usage("--%s needs a time above 0 such as 2s or 500ms", sw->name);
	/*
	 * 250 ms is fio's floor (DISK_UTIL_MSEC, how often its helper thread wakes; fio
	 * refuses less): a line rewritten faster only flickers. iojob raises it instead.
	 */
	if (sw->id == CLI_ETA_INTERVAL)
		o->eta_interval_ns = ns < ETA_INTERVAL_MIN_NS ? ETA_INTERVAL_MIN_NS : ns;
	else if (sw->id == CLI_ETA_NEWLINE)
		o->eta_newline_ns = ns;
	else
		o->interval_ns = ns;
	return EXIT_GO_ON;
}

/* --cmdhelp=NAME of no option: the closest one named, as the job parser and fio do. */
static int unknown_cmdhelp(const struct cli *c, const char *name)
{
	const char *best = opt_closest(name, c->engines, c->nengines);

	if (!best)
		return fail_usage("unknown option '%s'", name);
	fprintf(stderr, "%s: unknown option '%s' (did you mean '%s'?)\n", prog_name(), name, best);
	return EXIT_USAGE;
}

/* The switches that print something generated from the tables, then exit. */
static int print_help(const struct cli *c, const struct argopt *sw, const char *val)
{
	if (sw->id == CLI_HELP)
		cli_usage(stdout);
	else if (sw->id == CLI_VERSION)
		cli_version(stdout, c->fio_mode);
	else if (sw->id == CLI_CMDHELP && help_options(stdout, val, c->engines, c->nengines) < 0)
		return unknown_cmdhelp(c, val);
	else if (sw->id == CLI_ENGHELP && help_engines(stdout, val, c->engines, c->nengines) < 0)
		return fail_usage("unknown ioengine '%s'", val);
	else if (sw->id == CLI_COMPLETE_OPTIONS)
		cli_complete_options(stdout, c->engines, c->nengines);
	else if (sw->id == CLI_COMPLETE_VALUES &&
		 cli_complete_values(stdout, val, c->engines, c->nengines) < 0)
		return EXIT_USAGE;	/* no message: the completion script would drop it */
	if (sw->id == CLI_COMPLETE_OPTIONS)
		commands_complete(stdout);	/* completed as the first word */
	return 0;
}

/*
 * fio's switches that set something for the run, or check their value. EXIT_GO_ON or an
 * exit code.
 */
static int apply_fio_switch(struct cli *c, const struct argopt *sw, const char *val)
{
	long long n;
	struct stat st;

	switch (sw->id) {
	case CLI_MAX_JOBS: case CLI_ALLOC_SIZE:
		if (value_parse_int(val, &n) < 0 || n < 1)
			return fail_usage(sw->id == CLI_MAX_JOBS ? "--max-jobs needs a number "
					  "above 0, not '%s'" : "--alloc-size needs a number of "
					  "KiB above 0, not '%s'", val);
		return EXIT_GO_ON;
	case CLI_AUX_PATH:
		if (stat(val, &st) < 0 || !S_ISDIR(st.st_mode))
			return fail_usage("--aux-path: '%s' is not a directory", val);
		c->aux_path = val;
		return EXIT_GO_ON;
	case CLI_DEBUG:
		return cli_debug(val);
	case CLI_TRIGGER_FILE:
		c->trigger.file = val;
		return EXIT_GO_ON;
	case CLI_TRIGGER:
		c->trigger.cmd = val;
		return EXIT_GO_ON;
	case CLI_TRIGGER_TIMEOUT:
		if (value_parse_time(val, NS_PER_SEC, &c->trigger.timeout_ns) < 0 ||
		    !c->trigger.timeout_ns)
			return fail_usage("--trigger-timeout needs a time above 0 such as 30s, "
					  "not '%s'", val);
		return EXIT_GO_ON;
	case CLI_APPEND_TERSE:
		/* fio 3.33: terse added to the formats so far (a later --output-format replaces) */
		c->formats |= RF_TERSE;
		return EXIT_GO_ON;
	case CLI_WARNINGS_FATAL:
		c->warnings_fatal = true;
		return EXIT_GO_ON;
	default:
		c->showcmd = true;
		return EXIT_GO_ON;
	}
}

/* --repeat N: 1 to 1000 runs of each cell. */
static int parse_repeat(struct cli *c, const char *val)
{
	char *end;
	unsigned long n = strtoul(val, &end, 10);

	if (end == val || *end || *val == '-' || n < 1 || n > 1000)
		return fail_usage("--repeat takes a count from 1 to 1000, not '%s'", val);
	c->repeat = (unsigned)n;
	return EXIT_GO_ON;
}

/* One switch of cli_options with its value (NULL when it has none). EXIT_GO_ON or an exit code. */
static int apply_switch(struct cli *c, const struct argopt *sw, const char *val)
{
	switch (sw->id) {
	case CLI_PARSE_ONLY:
		c->parse_only = true;
		return EXIT_GO_ON;
	case CLI_READONLY:
		c->readonly = true;
		return EXIT_GO_ON;
	case CLI_RESUME:
		c->resume = true;
		return EXIT_GO_ON;
	case CLI_NOTES:
		c->notes = true;
		return EXIT_GO_ON;
	case CLI_MINIMAL:
		/* like fio: it replaces earlier --output-format, a later one replaces it */
		c->formats = RF_TERSE | (c->formats & RF_TERSE_VERSION_MASK);
		return EXIT_GO_ON;
	case CLI_TERSE_VERSION:
		/* like fio: the version only; --minimal or --output-format asks for terse */
		if (report_formats_set_terse(&c->formats, val))
			return fail_usage("--terse-version takes 2, 3, 4 or 5, not '%s'", val);
		return EXIT_GO_ON;
	case CLI_OUTPUT_FORMAT:
		return parse_formats(c, val) ? EXIT_USAGE : EXIT_GO_ON;
	case CLI_OUTPUT:
		c->output = val;
		return EXIT_GO_ON;
	case CLI_LABEL:
		c->label = val;
		return EXIT_GO_ON;
	case CLI_RESULTS:
		c->results = val;
		return EXIT_GO_ON;
	case CLI_REPEAT:
		return parse_repeat(c, val);
	case CLI_SET:
		return add_set(c, val) ? EXIT_USAGE : EXIT_GO_ON;
	case CLI_SWEEP:
		return add_sweep(c, val) ? EXIT_USAGE : EXIT_GO_ON;
	case CLI_SECTION:
		if (c->nsections == MAX_ARGS_LIST)
			return fail_usage("too many --section options ('%s')", val);
		c->sections[c->nsections++] = val;
		return EXIT_GO_ON;
	case CLI_ETA: case CLI_ETA_INTERVAL: case CLI_ETA_NEWLINE: case CLI_STATUS_INTERVAL:
	case CLI_STATUS_FORMAT:
		return parse_status_arg(c, sw, val);
	case CLI_MAX_JOBS: case CLI_APPEND_TERSE: case CLI_WARNINGS_FATAL: case CLI_SHOWCMD:
	case CLI_AUX_PATH: case CLI_ALLOC_SIZE: case CLI_DEBUG: case CLI_TRIGGER_FILE:
	case CLI_TRIGGER_TIMEOUT: case CLI_TRIGGER:
		return apply_fio_switch(c, sw, val);
	case CLI_CRCTEST:
		return cli_crctest(stdout, val);
	case CLI_IDLE_PROF:
		return cli_idle_prof(c, val);
	case CLI_BANDWIDTH_LOG:
		c->status.agg_bw_log = true;
		return EXIT_GO_ON;
	case CLI_INFLATE_LOG:
		return cli_inflate_log(stdout, val);
	default:
		return print_help(c, sw, val);
	}
}

/*
 * A job option, --KEY=VALUE or as fio's getopt takes it, --KEY VALUE: the next argument is
 * the value of an option that needs one (opt_cli_arg() says which). EXIT_GO_ON or an exit code.
 */
static int parse_job_option(struct cli *c, char **argv, int *i, const char *key,
			    const char *val)
{
	const char *next = argv[*i + 1];
	bool take = false;

	if (!val) {
		switch (opt_cli_arg(key, c->engines, c->nengines)) {
		case OPT_ARG_NEXT:
			if (!next)
				return fail_usage("--%s needs a value", key);
			take = true;
			break;
		case OPT_ARG_BOOL:
			take = next && value_parse_bool(next, &(bool){ 0 }) == 0 && *next;
			break;
		case OPT_ARG_MAYBE:
			take = next && next[0] != '-';
			break;
		default:
			break;
		}
		if (take)
			val = argv[++*i];
	}
	if (add_cli_option(c, key, val) < 0)
		return fail_usage("out of memory at '%s'", key);
	return EXIT_GO_ON;
}

/*
 * fio's getopt_long_only: "-ojson.out" that names no option, job's or engine's, is a short
 * switch with its value attached (-o json.out). The switch, with *val set, or NULL.
 */
static const struct argopt *short_attached(const struct cli *c, const char *arg,
					   const char **val)
{
	char letter[2] = { arg[1], '\0' };
	const struct argopt *o;

	if (arg[1] == '-' || !arg[1] || !arg[2] || strchr(arg, '=') ||
	    opt_cli_arg(arg + 1, c->engines, c->nengines) != OPT_ARG_UNKNOWN)
		return NULL;
	o = argopt_find(cli_options, letter);
	if (!o || !o->alias || strcmp(o->alias, letter) || o->arg == ARGOPT_NONE)
		return NULL;
	*val = arg + 2;
	return o;
}

/* Returns EXIT_GO_ON, or an exit code. */
static int parse_arg(struct cli *c, int argc, char **argv, int *i)
{
	struct argopt_got got;
	int ret;

	if (!strcmp(argv[*i], "-") || argv[*i][0] != '-') {
		if (c->nfiles == MAX_ARGS_LIST)
			return fail_usage("too many job files ('%s')", argv[*i]);
		c->files[c->nfiles++] = argv[*i];
		return EXIT_GO_ON;
	}
	ret = argopt_read(cli_options, ARGOPT_LONG_ONLY, argc, argv, i, &got);
	if (ret == -ENOENT && (got.opt = short_attached(c, argv[*i], &got.val)))
		ret = got.opt->refuse ? -EPERM : 0;
	if (ret == -ENOENT)
		return parse_job_option(c, argv, i, got.key, got.val);
	if (ret == -EPERM) {
		fprintf(stderr, "%s: --%s: %s\n", prog_name(), got.opt->name, got.opt->refuse);
		return EXIT_USAGE;
	}
	if (ret < 0)
		return fail_usage("--%s needs a value", got.opt->name);
	return apply_switch(c, got.opt, got.val);
}

void cli_init(struct cli *c, struct dist *dist)
{
	*c = (struct cli){
		.cli_defaults = -1,
		.cur_section = -1,
		.formats = RF_NORMAL,
		.status = { .eta = ETA_AUTO, .eta_interval_ns = NS_PER_SEC },
		.dist = dist,
		.out = stdout,
	};
	c->nengines = engine_catalog(c->engines, IOENGINE_MAX);
}

int cli_parse(struct cli *c, int argc, char **argv)
{
	c->fio_mode = argc > 0 && prog_is_fio(argv[0]);
	for (int i = 1; i < argc; i++) {
		int ret = parse_arg(c, argc, argv, &i);

		if (ret != EXIT_GO_ON)
			return ret;
	}
	if (c->resume && !c->results)
		return fail_usage("%s", "--resume needs --results FILE");
	/* nothing to check is no error, as in fio: blktests probes a switch so */
	if (c->parse_only && !c->nfiles && !c->jf.nsecs)
		return 0;
	if (c->showcmd)
		return cli_showcmd(stdout, c);
	return EXIT_GO_ON;
}

void cli_free(struct cli *c)
{
	sweep_free(&c->sweep);
	jobfile_free(&c->jf);
}
