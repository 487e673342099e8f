/*
 * Private to parser/: the line reader in front of inih. It reads physical lines of any
 * length from a file, stdin or a string, splices `include` files, cuts comments and blanks
 * and hands back one section header or key=value line at a time, each with its file:line.
 */
#ifndef PARSER_JF_READER_H
#define PARSER_JF_READER_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

struct diag;
struct jobfile;

#define JFR_MAX_INCLUDE_DEPTH	16

/*
 * The most text one job file and everything it includes may hold. Real job files are a
 * few KiB; the bound is there so that an endless input (stdin from /dev/zero, a pipe that
 * never closes its line) ends with a message instead of taking all memory.
 */
#define JFR_MAX_TEXT_BYTES	(8u << 20)

struct jfr_input {
	FILE *fp;		/* NULL for text in memory */
	bool close_fp;		/* false for stdin, which is not ours to close */
	const char *text;	/* the rest of the text in memory */
	const char *name;	/* in the job file's arena, as messages show it */
	bool has_id;		/* dev and ino identify the file, for loop detection */
	dev_t dev;
	ino_t ino;
	int line;		/* physical lines read so far */
};

struct jfr {
	struct jobfile *jf;	/* its arena keeps file names alive */
	struct diag *d;
	struct jfr_input stack[JFR_MAX_INCLUDE_DEPTH + 1];	/* [0] is the top-level source */
	int depth;		/* entries in use */
	size_t text_bytes;	/* read so far from every input, against JFR_MAX_TEXT_BYTES */
	bool in_section;
	char *buf;		/* the current physical line, malloc'd */
	size_t len;		/* its length: a NUL byte in it makes strlen() shorter */
	size_t cap;
};

enum jfr_kind { JFR_SECTION, JFR_KEY };

struct jfr_line {
	enum jfr_kind kind;
	const char *name;	/* section name or key; valid until the next jfr_next() */
	const char *val;	/* as written, before ${VAR}; "1" for a bare key */
	bool bare;		/* a key without '=' */
	const char *file;	/* in the arena */
	int line;
};

/*
 * Start reading path ("-" is stdin, named "<stdin>"), which may be a pipe; an included file
 * must be a regular file. Returns 0 or -errno with r->d set.
 */
int jfr_open_file(struct jfr *r, struct jobfile *jf, const char *path, struct diag *d);

/* Start reading text in memory; name is used in messages and to resolve includes. */
int jfr_open_string(struct jfr *r, struct jobfile *jf, const char *name, const char *text,
		    struct diag *d);

/*
 * Read the next header or key. Returns 1 and fills *l, 0 at the end, or -errno with d set:
 * -EINVAL for a line with a NUL byte, -EFBIG past JFR_MAX_TEXT_BYTES.
 */
int jfr_next(struct jfr *r, struct jfr_line *l);

/* Close every open input and free the line buffer. */
void jfr_close(struct jfr *r);

#endif
