/*
 * Log files as fio writes them (write_lat_log, write_bw_log, write_iops_log,
 * write_hist_log): entries are kept in memory while the job runs and written out after it,
 * so that logging costs the I/O path an append and nothing else.
 */
#ifndef OUTPUT_JOBLOG_H
#define OUTPUT_JOBLOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "output/hist.h"

#define JOBLOG_CHUNK	4096	/* entries per allocation */
#define JOBLOG_FIO_BINS	1856	/* fio's histogram buckets, the columns of a hist log */

/* One line: "time_ms, value, ddir, bs, [offset, ]prio". */
struct joblog_entry {
	uint64_t time_ms;
	uint64_t value;		/* ns for latencies, KiB/s for bw, I/O/s (or 1) for iops */
	uint64_t offset;
	uint32_t bs;
	uint32_t ddir;
};

struct joblog_chunk {
	struct joblog_chunk *next;
	unsigned n;
	struct joblog_entry e[JOBLOG_CHUNK];
};

struct joblog {
	struct joblog_chunk *first, *last;	/* NULL: nothing logged yet */
};

/* Make room after the last chunk; returns false when out of memory (the entry is lost). */
bool joblog_grow(struct joblog *l);

/* Append one entry; a new chunk is allocated once per JOBLOG_CHUNK entries. */
static inline void joblog_add(struct joblog *l, uint64_t time_ms, uint64_t value,
			      uint32_t ddir, uint32_t bs, uint64_t offset)
{
	struct joblog_entry *e;

	if ((!l->last || l->last->n == JOBLOG_CHUNK) && !joblog_grow(l))
		return;
	e = &l->last->e[l->last->n++];
	e->time_ms = time_ms;
	e->value = value;
	e->ddir = ddir;
	e->bs = bs;
	e->offset = offset;
}

/* Write every entry in fio 3.33's format; with_offset adds the offset column. */
int joblog_write(FILE *f, const struct joblog *l, bool with_offset);

/*
 * Histogram logs: per interval and direction, the counts of the completions of that
 * interval in fio's 1856 buckets (ours above fio's range go to its last), summed in
 * groups of 2^coarseness: "time_ms, ddir, bs, count, count, ...".
 */
struct histlog_rec {
	struct histlog_rec *next;
	uint64_t time_ms;
	uint32_t ddir;
	uint32_t bs;
	uint64_t bins[JOBLOG_FIO_BINS];
};

struct histlog {
	struct histlog_rec *first, *last;
	unsigned coarseness;
};

/* Append the difference now - before (both cumulative); before becomes now. */
int histlog_add(struct histlog *l, uint64_t time_ms, uint32_t ddir, uint32_t bs,
		const struct hist *now, struct hist *before);

int histlog_write(FILE *f, const struct histlog *l);

void joblog_free(struct joblog *l);
void histlog_free(struct histlog *l);

#endif
