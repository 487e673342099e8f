/*
 * What a result-set file may hold before anything reads it as numbers: lines of bounded
 * length, and in each cell the figures iojob report and compare compute with (counts,
 * rates, times) finite, not negative and in range, so that no cast to an integer
 * overflows and no hand edit prints negative IOPS.
 */
#ifndef OUTPUT_RESULTSET_CHECK_H
#define OUTPUT_RESULTSET_CHECK_H

#include <stddef.h>
#include <stdio.h>

struct diag;
struct jv;

/*
 * The longest result line read. A line is one cell's report: a few KiB per job, up to
 * some 300 KiB for a job with dense json+ bins in every direction, so 64 MiB holds
 * hundreds of such jobs; the bound is there so that /dev/zero or a file without
 * newlines ends with a message instead of taking all memory.
 */
#define RS_MAX_LINE_BYTES	(64u << 20)

/* The largest figure accepted: 2^63, 8 EiB of I/O or 292 years in ns. */
#define RS_MAX_NUMBER		9223372036854775808.0

/*
 * Read one line of f (with its '\n', if any) into *buf (grown as needed, *cap bytes) and
 * set *len. Returns 1, 0 at the end, -EFBIG for a line past RS_MAX_LINE_BYTES, or -errno.
 */
int rs_read_line(FILE *f, char **buf, size_t *cap, size_t *len);

/*
 * Check the figures of every job of a cell's report. Returns 0, or -ERANGE with d set to
 * "path:line: key 'report.jobs.0.read.iops': -5 is negative" (or not a number, out of range).
 */
int rs_check_report(const struct jv *report, const char *path, unsigned line, struct diag *d);

#endif
