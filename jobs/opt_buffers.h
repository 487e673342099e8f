/*
 * Parsers of the buffer options that are not plain values: buffer_pattern's byte forms and
 * mem='s type with its optional file, with opt_def.parse's contract.
 */
#ifndef JOBS_OPT_BUFFERS_H
#define JOBS_OPT_BUFFERS_H

#include <stddef.h>

#include "jobs/options.h"

/* The most bytes a pattern holds, as fio's (longer hex or files are an error or cut). */
#define PATTERN_MAX	512

/* mem='s types, for the table's help and completion. */
extern const struct opt_enum mem_vals[];

/*
 * A pattern as fio writes one: any concatenation of 0x hex bytes (an odd count starts with
 * one digit), "text", 'file' (its first bytes) and decimal integers (their bytes, least
 * significant first, as many as the value needs: 255 is ff, -12 is f4 ff ff ff). The
 * bytes go to the arena. 0, or -EINVAL/-ENOMEM with why[] saying what was wrong.
 */
int pattern_parse(const struct opt_ctx *ctx, const char *val, unsigned char **out,
		  unsigned *outlen, char *why, size_t whylen);

/*
 * verify_pattern's form: a pattern that may also hold %o, fio's format for the offset of
 * the I/O (8 bytes, least significant first) filled in where each I/O is written and
 * checked; fmt says where they are (8 zero bytes each in *out).
 */
int pattern_parse_fmt(const struct opt_ctx *ctx, const char *val, unsigned char **out,
		      unsigned *outlen, struct pattern_fmt *fmt, char *why, size_t whylen);

/* mem=TYPE, or mem=mmap:PATH (mmap, mmaphuge, mmapshared) to map that file. */
int opt_mem_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		  size_t whylen);

#endif
