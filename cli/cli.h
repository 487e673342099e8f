/*
 * iojob's command line: the arguments read into struct cli against the switch table
 * (cli_options), which drives both the parsing and the help of the switches, and what is
 * generated from it: --help, --version, the completion lists and the man page's switch
 * reference. Any --KEY=VALUE that is not a switch is a job option (jobs/options.h, whose
 * help is jobs/help.h), and a job of the command line's own.
 */
#ifndef CLI_CLI_H
#define CLI_CLI_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/argopt.h"
#include "base/exit_code.h"
#include "engine/run/cells.h"
#include "engine/engine.h"
#include "jobs/sweep.h"
#include "output/report.h"
#include "parser/jobfile.h"

struct dist;
struct engine_info;
struct run;

/* fio's local trigger (cli_trigger.c): what fires it, what it runs, its watching thread. */
struct cli_trigger {
	const char *file;		/* --trigger-file: fires when it exists */
	uint64_t timeout_ns;		/* --trigger-timeout: fires this long after the start */
	const char *cmd;		/* --trigger: run when it fires */
	/* the watch */
	struct run *volatile *running;	/* main()'s run in progress, NULL between runs */
	uint64_t start_ns;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool quit;
	bool started;
};

/*
 * Run under the name fio (a symlink, see meson_options.txt's fio_symlink), iojob answers
 * as the tools that run fio expect: --version gives FIO_MODE_VERSION, fio's form with
 * iojob named in the part after the release (each tool's parse reads "3.33"), nothing on
 * stderr that fio would not write (iojob's notes only with --notes) and fio's exit codes.
 */
#define FIO_MODE_RELEASE	"3.33"
#define FIO_MODE_VERSION(iojob_version)	"fio-" FIO_MODE_RELEASE "-iojob-" iojob_version

/* The --set and --section options, --sweep axes and job files the command line takes. */
#define MAX_ARGS_LIST	256


/* What the command line asks for. */
struct cli {
	struct jobfile jf;
	long cli_defaults;		/* section of options before the first --name */
	long cur_section;		/* section of the current --name job, -1 before */
	struct job_override sets[MAX_ARGS_LIST];
	unsigned nsets;
	struct sweep sweep;
	const char *label;
	const char *results;
	bool resume;
	unsigned repeat;		/* --repeat N: runs of each cell (0: once) */
	const char *sections[MAX_ARGS_LIST];
	unsigned nsections;
	const char *files[MAX_ARGS_LIST];
	unsigned nfiles;
	const char *output;
	unsigned formats;
	bool parse_only;
	bool readonly;
	bool fio_mode;			/* run as fio: see FIO_MODE_VERSION */
	bool notes;			/* --notes: iojob's notes on stderr in fio mode too */
	enum report_idle_mode idle_mode;	/* --idle-prof=system|percpu */
	struct idle_prof *idle;			/* its threads while a cell runs */
	struct report_idle idle_res;		/* what they measured, for the report */
	bool warnings_fatal;		/* --warnings-fatal: a note on the jobs is an error */
	bool showcmd;			/* --showcmd: print the job files as command lines */
	const char *aux_path;		/* --aux-path: where verify state files go, or NULL */
	struct cli_trigger trigger;
	struct status_opts status;
	struct engine_info engines[IOENGINE_MAX];
	unsigned nengines;
	struct dist *dist;		/* the ranks of an MPI run (iojob-mpi), or just this one */
	/* main()'s, for the run made of it */
	struct cells cells;		/* what the run is made of: its --sweep cells */
	double cells_s;			/* the seconds the cells run so far took, */
	unsigned cells_done;		/* and how many: the sweep's eta on the status line */
	FILE *out;			/* the report stream: stdout, or --output */
	bool output_created;		/* --output did not exist: removed when not used or filled */
	bool out_used;			/* --output emptied for a cell that runs (execute) */
};

/* The defaults, before any argument, and the engine catalog; dist is the run's ranks. */
void cli_init(struct cli *c, struct dist *dist);

/*
 * Read the arguments into c (argv[0] is the program). Returns EXIT_GO_ON to go on and run,
 * or the exit code: 0 after a switch that prints and exits (--help), EXIT_USAGE after
 * saying why.
 */
int cli_parse(struct cli *c, int argc, char **argv);

void cli_free(struct cli *c);

/*
 * Under MPI only the root writes: the others' reports and messages would repeat its own
 * N times, and their failures reach the root (see dist_agree() and cli_run.c's reports).
 */
void cli_quiet_other_ranks(struct cli *c);

/*
 * The jobs (cli_run.c): the job files read, then every cell built and checked before any
 * runs, their notes said. Returns EXIT_GO_ON, or EXIT_USAGE when a rank's job files, files
 * or directories were wrong (every rank stops then).
 */
int cli_build(struct cli *c, struct diag *d);

/*
 * Run the cells in order under the trigger, each reported as it ends into the report
 * stream opened first, and every diagnostic said. Returns the exit code: the worst of the
 * cells', 128+N when signal N ended the run, 0 at once with --parse-only.
 */
int cli_run(struct cli *c, struct diag *d);

/*
 * The result set and the report file (cli_output.c), checked and opened before anything
 * runs: --output and --results never one file, a result set that is one already or new, a
 * FIFO only with its reader, every path through the guard of outputs. Only the root of an
 * MPI run opens them. 0, or -errno with d saying why.
 */
int cli_open_outputs(struct cli *c, FILE **out, struct diag *d);

/* The first cell whose jobs start empties --output (as fopen "w" would have). */
void cli_use_output(struct cli *c, FILE *out);

/*
 * The end of a report stream: a report that could not be written fails the run (fio
 * exits 0 with it lost). who is "iojob" or "iojob report"; path NULL for stdout.
 * Returns ret, or EXIT_JOB_FAILED where ret was 0 and the report was lost.
 */
int cli_finish_output(FILE *f, const char *path, const char *who, int ret);

/* The switches the command line handles itself; any other --KEY=VALUE is a job option. */
enum cli_switch {
	CLI_HELP, CLI_VERSION, CLI_CMDHELP, CLI_ENGHELP, CLI_PARSE_ONLY, CLI_READONLY,
	CLI_OUTPUT, CLI_OUTPUT_FORMAT, CLI_MINIMAL, CLI_TERSE_VERSION, CLI_SET, CLI_SECTION,
	CLI_SWEEP, CLI_LABEL, CLI_RESULTS, CLI_RESUME, CLI_REPEAT,
	CLI_ETA, CLI_ETA_INTERVAL, CLI_ETA_NEWLINE, CLI_STATUS_INTERVAL, CLI_STATUS_FORMAT,
	CLI_MAX_JOBS, CLI_APPEND_TERSE, CLI_WARNINGS_FATAL, CLI_SHOWCMD, CLI_CRCTEST,
	CLI_INFLATE_LOG, CLI_AUX_PATH, CLI_ALLOC_SIZE, CLI_DEBUG, CLI_TRIGGER_FILE,
	CLI_TRIGGER_TIMEOUT, CLI_TRIGGER, CLI_IDLE_PROF, CLI_BANDWIDTH_LOG, CLI_REFUSED,
	CLI_COMPLETE_OPTIONS, CLI_COMPLETE_VALUES, CLI_NOTES,
};

/*
 * The command-line switches (base/argopt.h), each with its enum cli_switch as id, ended by
 * { NULL }. Read as fio reads them, one dash or two (ARGOPT_LONG_ONLY); a refused switch
 * (CLI_REFUSED) says what to use instead, and --help lists its name among the refused.
 */
extern const struct argopt cli_options[];

/* --help: usage, the switches, the common job options, exit codes, where the manual is. */
void cli_usage(FILE *f);

/* --version: "iojob X.Y.Z" on one line, or FIO_MODE_VERSION's in fio mode. */
void cli_version(FILE *f, bool fio_mode);

/*
 * For the completion script: one word per line, "--KEY" for flags and "--KEY=" for
 * options with a value, followed by a tab and "separate" when the value may also be the
 * next argument; every switch, job option, engine option and alias.
 */
void cli_complete_options(FILE *f, const struct engine_info *engines, unsigned nengines);

/*
 * For the completion script: the values of switch or option name, one per line (nothing
 * when it takes free text). Returns 0, or -ENOENT when there is no such switch or option.
 */
int cli_complete_values(FILE *f, const char *name, const struct engine_info *engines,
			unsigned nengines);

/*
 * fio's switches that print something of their own and exit (cli_fio.c). Each returns the
 * exit code: 0, or EXIT_USAGE after saying why on stderr.
 */
int cli_showcmd(FILE *f, const struct cli *c);		/* --showcmd: each file's command line */
int cli_crctest(FILE *f, const char *types);		/* --crctest[=TYPE,...] */
int cli_inflate_log(FILE *f, const char *path);		/* --inflate-log=LOG */
/* --idle-prof=MODE: system and percpu set c->idle_mode (EXIT_GO_ON); calibrate prints. */
int cli_idle_prof(struct cli *c, const char *mode);
/* --debug=CATEGORY,...: EXIT_GO_ON after a note on stderr; "?" lists them (0). */
int cli_debug(const char *categories);

/*
 * Watch for the trigger t (nothing without --trigger-file or --trigger-timeout): when it
 * fires, every job of *running stops and --trigger's command runs. 0 or a negative errno.
 */
int cli_trigger_start(struct cli_trigger *t, struct run *volatile *running);
void cli_trigger_stop(struct cli_trigger *t);

/* Around a change of *running: the watching thread does not hold the run meanwhile. */
void cli_trigger_hold(struct cli_trigger *t);
void cli_trigger_release(struct cli_trigger *t);

/* The man page's switch reference in scdoc: every switch but the hidden ones. */
void cli_man_switches(FILE *f);

#endif
