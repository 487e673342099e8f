/*
 * Diagnostics: what went wrong and where, filled by any module and printed only by main().
 * Errors end the operation that set them; notes are warnings that let it continue.
 */
#ifndef BASE_DIAG_H
#define BASE_DIAG_H

#include <stddef.h>

struct diag {
	char msg[1024];		/* the error, without the "iojob: " prefix main() adds */
	char *notes;		/* warnings, one per line, malloc'd; NULL when none */
	size_t notes_len, notes_cap;
};

/*
 * Set the error message (printf-style) and return err, so a caller can write
 * `return diag_set(d, -EINVAL, "option '%s': ...", name);`. d may be NULL. A message too
 * long for msg loses the middle of its longest 'quoted' names (and of the file name of
 * diag_at()), "abc...xyz", so that the reason after them stays whole.
 */
int diag_set(struct diag *d, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* As diag_set() into buf (a job's error message of its own size), names shortened alike. */
void diag_format(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* As diag_set(), prefixed with "file:line: " (line 0 omits the line). */
int diag_at(struct diag *d, int err, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Append a warning line (no trailing newline needed). Allocation failure drops the note. */
void diag_note(struct diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Free the notes; the struct can be reused afterwards. */
void diag_clear(struct diag *d);

#endif
