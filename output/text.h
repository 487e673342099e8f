/*
 * Text from the user (job names, descriptions, paths) made safe for each output: JSON
 * needs valid UTF-8, a terse line its ';' and its one line, a terminal no control bytes.
 * A low-level primitive: it knows nothing of reports.
 */
#ifndef OUTPUT_TEXT_H
#define OUTPUT_TEXT_H

#include <stddef.h>
#include <stdio.h>

/*
 * The length (1 to 4) of the valid UTF-8 sequence s starts with, or 0 when its first
 * byte starts none (a stray byte, an overlong form, a surrogate, beyond U+10FFFF, cut
 * short). s must not be at its terminating NUL.
 */
size_t text_utf8_len(const char *s);

/*
 * s for a terminal: control characters as \n, \r, \t or \xNN (DEL and C1 included, and
 * each byte that is not UTF-8), so that a name can neither start a line nor send escape
 * sequences. Other text as it is.
 */
void text_put_escaped(FILE *f, const char *s);

/* s as one terse field: each ';' and each control character (and DEL) becomes '_'. */
void text_put_terse(FILE *f, const char *s);

#endif
