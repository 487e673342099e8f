/*
 * Job files: text to sections of key=value pairs, each remembering its file and line.
 *
 * The grammar is fio's: `[name]` starts a section, `;` and `#` start comments (whole
 * line, or the rest of a line), leading and trailing blanks are ignored, a bare `key`
 * means `key=1`, `include FILE` inside a section splices FILE's lines into it (FILE is
 * relative to the including file; it may not open sections), and `${VAR}` in a value is
 * replaced by the environment variable (an unset variable is an error). Lines may be of
 * any length. inih (ini_parse_stream) splits sections and keys; our reader in front of
 * it does the rest, because Debian's inih glues indented lines together, rejects bare
 * keys and cuts lines at 200 characters.
 */
#ifndef PARSER_JOBFILE_H
#define PARSER_JOBFILE_H

#include <stdbool.h>
#include <stddef.h>

struct arena;
struct diag;

struct jf_key {
	const char *key;
	const char *val;	/* after ${VAR} expansion; "1" for a bare key */
	bool bare;		/* written without '=': only a boolean may be */
	const char *file;	/* the file the line is in (an included file names itself) */
	int line;
};

struct jf_section {
	const char *name;
	const char *file;
	int line;
	int source;		/* index of the top-level job file or string it came from */
	struct jf_key *keys;	/* in file order; a repeated key appears twice */
	size_t nkeys;
	size_t cap;
};

struct jobfile {
	struct jf_section *secs;	/* in order, across every source parsed into it */
	size_t nsecs;
	size_t cap;
	int nsources;			/* job files and strings parsed so far */
	const char **source_names;	/* their names as messages show them, nsources of them */
	size_t sources_cap;
	struct arena *arena;		/* owns every string above */
};

/*
 * Parse the job file at path ("-" reads stdin, named "<stdin>") and append its sections.
 * Returns 0, or a negative errno with d holding "file:line: what was expected".
 * Errors: a key before any section, a malformed header ("[job"), an empty section name,
 * a line without '=' that is not a bare word, `include` of a missing file, `include`
 * outside a section, a section header in an included file, an unset ${VAR}, a file
 * that cannot be read.
 */
int jobfile_parse(struct jobfile *jf, const char *path, struct diag *d);

/* As jobfile_parse(), from text in memory; name is used in messages and for includes. */
int jobfile_parse_string(struct jobfile *jf, const char *name, const char *text,
			 struct diag *d);

/*
 * Append one key to a section, creating the section (with the given file and line) when
 * sec_index == jf->nsecs. For options from the command line; val NULL is a bare key
 * ("--time_based", "1"). Returns 0 or -ENOMEM.
 */
int jobfile_add_key(struct jobfile *jf, size_t sec_index, const char *sec_name,
		    const char *key, const char *val, const char *file, int line);

/* Copy a string into the job file's arena (lives until jobfile_free()); NULL on ENOMEM. */
const char *jobfile_strdup(struct jobfile *jf, const char *s);

/* Free everything; jf may then be reused after zeroing. */
void jobfile_free(struct jobfile *jf);

#endif
