/*
 * iojob's command line: the switch table (cli_options), which drives both the parsing of
 * the arguments and the help of the switches, and what is generated from it: --help,
 * --version, the completion lists and the man page's switch reference. Any --KEY=VALUE
 * that is not a switch is a job option (jobs/options.h, whose help is jobs/help.h).
 */
#ifndef CLI_H
#define CLI_H

#include <stdbool.h>
#include <stdio.h>

struct engine_info;

/* The switches the command line handles itself; any other --KEY=VALUE is a job option. */
enum cli_switch {
	CLI_HELP, CLI_VERSION, CLI_CMDHELP, CLI_ENGHELP, CLI_PARSE_ONLY, CLI_READONLY,
	CLI_OUTPUT, CLI_OUTPUT_FORMAT, CLI_MINIMAL, CLI_SET, CLI_SECTION,
	CLI_SWEEP, CLI_LABEL, CLI_RESULTS, CLI_RESUME,
	CLI_ETA, CLI_ETA_INTERVAL, CLI_ETA_NEWLINE, CLI_STATUS_INTERVAL,
	CLI_COMPLETE_OPTIONS, CLI_COMPLETE_VALUES,
};

enum cli_arg {
	CLI_ARG_NONE,		/* a flag */
	CLI_ARG_REQUIRED,	/* --KEY=VALUE or --KEY VALUE */
	CLI_ARG_OPTIONAL,	/* --KEY or --KEY=VALUE */
};

struct cli_opt {
	const char *name;	/* without the leading "--" */
	const char *alias;	/* a one-letter form (-h), or NULL */
	enum cli_switch id;
	enum cli_arg arg;
	const char *metavar;	/* what the value is called in help ("FILE"), or NULL */
	const char *help;
	const char *values;	/* the values completion offers, '|'-separated, or NULL */
	bool hidden;		/* for the completion script: not in help or the man page */
};

/* The command-line switches, ended by { NULL }. */
extern const struct cli_opt cli_options[];

/* The switch named name (without dashes; a one-letter alias counts), or NULL. */
const struct cli_opt *cli_find(const char *name);

/*
 * What goes between a switch and its metavar in help: "" without one, " " when the
 * metavar holds a '=' ("--set KEY=VALUE" reads better than "--set=KEY=VALUE"), else "=".
 */
const char *cli_value_sep(const struct cli_opt *o);

/* --help: usage, the switches, the common job options, exit codes, where the manual is. */
void cli_usage(FILE *f);

/* --version: "iojob X.Y.Z" on one line. */
void cli_version(FILE *f);

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

/* The man page's switch reference in scdoc: every switch but the hidden ones. */
void cli_man_switches(FILE *f);

#endif
