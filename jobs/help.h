/*
 * Help generated from the tables: the command-line switches (cli_options), the job option
 * table and the engine catalog. --help, --cmdhelp, --enghelp, the lists the bash
 * completion asks for and the man page's option reference all come from here, so none of
 * them can disagree with what the parser accepts.
 */
#ifndef JOBS_HELP_H
#define JOBS_HELP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct engine_info;
struct opt_enum;

/* The switches main() handles itself; any other --KEY=VALUE is a job option. */
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
	/*
	 * Or the values from the table they are kept in: the i-th name (its help in *help),
	 * NULL past the last. help then says what follows their list ("a, b or c; HELP").
	 */
	const char *(*value_at)(unsigned i, const char **help);
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

/* The help of o as --help shows it, into buf when made from a value_at table. */
const char *cli_help(const struct cli_opt *o, char *buf, size_t len);

/* --help: usage, the switches, the common job options, exit codes, where the manual is. */
void help_usage(FILE *f);

/* --version: "iojob X.Y.Z" on one line. */
void help_version(FILE *f);

/*
 * --cmdhelp: the job option name (or alias), or every job and engine option when name is
 * NULL or "all". Returns 0, or -ENOENT when no option has that name.
 */
int help_options(FILE *f, const char *name, const struct engine_info *engines,
		 unsigned nengines);

/* --enghelp: every engine when name is NULL, else one engine and its options; -ENOENT. */
int help_engines(FILE *f, const char *name, const struct engine_info *engines,
		 unsigned nengines);

/*
 * For the completion script: one word per line, "--KEY" for flags and "--KEY=" for
 * options with a value, followed by a tab and "separate" when the value may also be the
 * next argument; every switch, job option, engine option and alias.
 */
void help_complete_options(FILE *f, const struct engine_info *engines, unsigned nengines);

/*
 * For the completion script: the values of switch or option name, one per line (nothing
 * when it takes free text). Returns 0, or -ENOENT when there is no such switch or option.
 */
int help_complete_values(FILE *f, const char *name, const struct engine_info *engines,
			 unsigned nengines);

/*
 * The names of vals that share the value of vals[i] ("none, 0") into buf, for listing
 * each value once with its help. Returns false when an earlier entry has that value.
 */
bool help_value_names(const struct opt_enum *vals, unsigned i, char *buf, size_t len);

/*
 * The man page: copy the scdoc template in, replacing the lines "@SWITCHES@",
 * "@ENGINES@" and "@JOB_OPTIONS@" with references generated from the tables and
 * "@VERSION@" anywhere with the version. Returns 0 or -errno of a read or write.
 */
int help_man_page(FILE *out, FILE *in, const struct engine_info *engines, unsigned nengines);

#endif
