/*
 * Help generated from the job option table and the engine catalog: --cmdhelp, --enghelp,
 * the job options' part of --help, of the completion lists and of the man page. The
 * command line's own switches are described by cli.h beside main.c; both come from tables,
 * so none of them can disagree with what the parser accepts.
 */
#ifndef JOBS_HELP_H
#define JOBS_HELP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct argopt_page;
struct engine_info;
struct opt_enum;

/*
 * How --help and --cmdhelp lay an option out (base/argopt.h): "  --name=METAVAR" padded to
 * the help column, then its help wrapped before column 80 onto lines that start there.
 * iojob's own switches take it too, so that --help's two lists line up.
 */
extern const struct argopt_page help_page;

/* --help's line for each job option named in names (ended by NULL): "--name=TYPE  help". */
void help_option_lines(FILE *f, const char *const *names);

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
 * For the completion script: "--KEY=" for every job option, alias and option of an
 * engine this build has, one per line.
 */
void help_complete_job_options(FILE *f, const struct engine_info *engines, unsigned nengines);

/* The name of every job and engine option followed by suffix, one per line. */
void help_option_names(FILE *f, const char *suffix, const struct engine_info *engines,
		       unsigned nengines);

/*
 * For the completion script: the values of job option name, one per line (nothing when it
 * takes free text). Returns 0, or -ENOENT when there is no such option.
 */
int help_option_values(FILE *f, const char *name, const struct engine_info *engines,
		       unsigned nengines);

/*
 * The names of vals that share the value of vals[i] ("none, 0") into buf, for listing
 * each value once with its help. Returns false when an earlier entry has that value.
 */
bool help_value_names(const struct opt_enum *vals, unsigned i, char *buf, size_t len);

/* Text in scdoc with its markup characters (*, _, \) escaped, for the man page. */
void help_man_text(FILE *f, const char *s);

/* The man page's engine reference: each engine, its help and its own options' names. */
void help_man_engines(FILE *f, const struct engine_info *engines, unsigned nengines);

/* The man page's job option reference by topic, then each engine's own options. */
void help_man_job_options(FILE *f, const struct engine_info *engines, unsigned nengines);

#endif
