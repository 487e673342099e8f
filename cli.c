/* The command-line switch table: what main() parses and what its help is generated from. */
#include "cli.h"

#include <string.h>

#define SWITCH(n, i, a, m, h, ...) \
	{ .name = n, .id = i, .arg = a, .metavar = m, .help = h, __VA_ARGS__ }

/* In the order --help and the man page list them. */
const struct cli_opt cli_options[] = {
	SWITCH("output", CLI_OUTPUT, CLI_ARG_REQUIRED, "FILE", "write the report to FILE"),
	SWITCH("output-format", CLI_OUTPUT_FORMAT, CLI_ARG_REQUIRED, "FORMAT",
	       "normal, json, json+ or terse; comma-separated for several",
	       .values = "normal|json|json+|terse"),
	SWITCH("minimal", CLI_MINIMAL, CLI_ARG_NONE, NULL, "terse output (--output-format=terse)"),
	SWITCH("set", CLI_SET, CLI_ARG_REQUIRED, "KEY=VALUE",
	       "set a job option in every job, over what the job files say (repeatable)"),
	SWITCH("section", CLI_SECTION, CLI_ARG_REQUIRED, "NAME",
	       "run only the job NAME (repeatable)"),
	SWITCH("sweep", CLI_SWEEP, CLI_ARG_REQUIRED, "KEY=V1,V2,...",
	       "run the jobs once per value (repeatable: every combination, the first KEY "
	       "varying slowest)"),
	SWITCH("label", CLI_LABEL, CLI_ARG_REQUIRED, "TEXT",
	       "name this run (a target or configuration) in --results"),
	SWITCH("results", CLI_RESULTS, CLI_ARG_REQUIRED, "FILE.jsonl",
	       "append each run's options and results to FILE.jsonl"),
	SWITCH("resume", CLI_RESUME, CLI_ARG_NONE, NULL,
	       "skip the sweep's runs that --results already holds"),
	SWITCH("eta", CLI_ETA, CLI_ARG_REQUIRED, "WHEN",
	       "the status line on stderr: auto (on a terminal), always or never",
	       .values = "auto|always|never"),
	SWITCH("eta-interval", CLI_ETA_INTERVAL, CLI_ARG_REQUIRED, "TIME",
	       "rewrite the status line this often (default 1s, at least 250ms; "
	       "plain numbers in milliseconds)"),
	SWITCH("eta-newline", CLI_ETA_NEWLINE, CLI_ARG_REQUIRED, "TIME",
	       "start a new status line this often (plain numbers in seconds)"),
	SWITCH("status-interval", CLI_STATUS_INTERVAL, CLI_ARG_REQUIRED, "TIME",
	       "print each interval's results to the report this often (plain numbers in "
	       "seconds)"),
	SWITCH("parse-only", CLI_PARSE_ONLY, CLI_ARG_NONE, NULL,
	       "check the job files and options, run nothing"),
	SWITCH("readonly", CLI_READONLY, CLI_ARG_NONE, NULL,
	       "refuse jobs that write, trim or lay out files"),
	SWITCH("cmdhelp", CLI_CMDHELP, CLI_ARG_OPTIONAL, "OPTION|all",
	       "describe a job option, or all of them"),
	SWITCH("enghelp", CLI_ENGHELP, CLI_ARG_OPTIONAL, "ENGINE",
	       "list the ioengines, or describe one and its own options"),
	SWITCH("version", CLI_VERSION, CLI_ARG_NONE, NULL, "print the version", .alias = "v"),
	SWITCH("help", CLI_HELP, CLI_ARG_NONE, NULL,
	       "print the usage, the common options and the exit status", .alias = "h"),
	SWITCH("complete-options", CLI_COMPLETE_OPTIONS, CLI_ARG_NONE, NULL,
	       "the words bash completion offers", .hidden = true),
	SWITCH("complete-values", CLI_COMPLETE_VALUES, CLI_ARG_REQUIRED, "OPTION",
	       "the values bash completion offers for OPTION", .hidden = true),
	{ NULL },
};

const struct cli_opt *cli_find(const char *name)
{
	for (const struct cli_opt *o = cli_options; o->name; o++)
		if (!strcmp(o->name, name) || (o->alias && !strcmp(o->alias, name)))
			return o;
	return NULL;
}

const char *cli_value_sep(const struct cli_opt *o)
{
	if (!o->metavar)
		return "";
	return o->arg == CLI_ARG_REQUIRED && strchr(o->metavar, '=') ? " " : "=";
}
