/*
 * Log files as fio writes them (write_lat_log, write_bw_log, write_iops_log,
 * write_hist_log): entries are appended to chunks, so that logging costs the I/O path an
 * append and nothing else, and a full chunk is handed on (engine/observe/logs_writer.c writes it
 * to the file while the job runs); fio's compressed form (log_store_compressed,
 * --inflate-log) is a zlib stream per chunk.
 */
#ifndef OUTPUT_JOBLOG_H
#define OUTPUT_JOBLOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "output/hist.h"

#define JOBLOG_ENTRIES_MAX	(1u << 20)	/* fio's largest chunk, in entries */
#define JOBLOG_FIO_BINS	1856	/* fio's histogram buckets, the columns of a hist log */

/* How the entries are written: fio's offset column, and the raw priority (log_prio). */
#define JOBLOG_OFFSET	1u
#define JOBLOG_PRIO	2u
#define JOBLOG_ISSUE	4u	/* fio HEAD's log_issue_time: the issue time, ns, last */
#define JOBLOG_BOTH	8u	/* fio HEAD's log_window_value=both: value1 after value */
#define JOBLOG_WINDOWS	16u	/* the entries are log_avg_msec windows': aux is value1 */

/* fio 3.33's binary sample (struct io_sample, then the offset), in a compressed log. */
#define JOBLOG_SAMPLE_BYTES		32
#define JOBLOG_SAMPLE_OFFSET_BYTES	40

/* One line: "time_ms, value, [value1, ]ddir, bs, [offset, ]prio[, issue_ns]". */
struct joblog_entry {
	uint64_t time_ms;
	uint64_t value;		/* ns for latencies, KiB/s for bw, I/O/s (or 1) for iops */
	uint64_t offset;
	/*
	 * A per-I/O entry's issue time in ns (log_issue_time, clat and slat), a window's
	 * largest value (log_window_value=both): fio HEAD writes 0 for the other in each.
	 */
	uint64_t aux;
	uint32_t bs;
	uint16_t ioprio;	/* the I/O's ioprio(2) value: class << 13 | level */
	uint8_t ddir;
};

struct joblog_chunk {
	struct joblog_chunk *next;
	unsigned n, cap;
	struct joblog_entry e[];
};

struct joblog;

/* Takes a full chunk off the log: it now belongs to the callee. */
typedef void joblog_full_fn(struct joblog *l, struct joblog_chunk *c, void *ctx);

/*
 * Chunks grow as fio's do: the first holds first_cap entries (log_entries), each next one
 * twice as many, up to JOBLOG_ENTRIES_MAX or max_cap. With full set, a chunk that fills is
 * handed to it and the log keeps only the one being filled.
 */
struct joblog {
	struct joblog_chunk *first, *last;	/* NULL: nothing logged yet */
	unsigned first_cap, next_cap, max_cap;	/* 0: JOBLOG_ENTRIES_MAX */
	uint64_t lost;				/* entries with no memory to go to */
	joblog_full_fn *full;
	void *full_ctx;
};

/* Size the chunks (log_entries, and the largest chunk in entries, 0: fio's largest). */
void joblog_init(struct joblog *l, unsigned first_cap, unsigned max_cap);

/* Make room after the last chunk; returns false when out of memory (the entry is lost). */
bool joblog_grow(struct joblog *l);

/* Append one entry; a new chunk is allocated only when the last one is full. */
static inline void joblog_add(struct joblog *l, uint64_t time_ms, uint64_t value,
			      uint32_t ddir, uint32_t bs, uint64_t offset, uint16_t ioprio,
			      uint64_t aux)
{
	struct joblog_entry *e;

	if ((!l->last || l->last->n == l->last->cap) && !joblog_grow(l)) {
		l->lost++;	/* counted, so that the log's file is not taken for whole */
		return;
	}
	e = &l->last->e[l->last->n++];
	e->time_ms = time_ms;
	e->value = value;
	e->ddir = (uint8_t)ddir;
	e->bs = bs;
	e->offset = offset;
	e->ioprio = ioprio;
	e->aux = aux;
}

/*
 * Write one chunk's entries: in fio 3.33's text format (flags JOBLOG_OFFSET adds the
 * offset column, JOBLOG_PRIO prints the priority as 0x%04x), or with deflated as one zlib
 * stream of fio's binary samples (log_store_compressed). An empty chunk writes nothing.
 * Returns 0, -ENOMEM, or the write's -errno (-EIO when the stream kept no reason).
 */
int joblog_put_chunk(FILE *f, const struct joblog_chunk *c, unsigned flags, bool deflated);

/* Write every entry the log holds, a chunk at a time as joblog_put_chunk() does. */
int joblog_write(FILE *f, const struct joblog *l, unsigned flags, bool deflated);

/*
 * Print, as fio's --inflate-log does, the samples of the zlib (or gzip) streams in[0..len)
 * holds one after another. Returns 0, or a zlib error (Z_DATA_ERROR, Z_MEM_ERROR).
 */
int joblog_inflate(FILE *f, const uint8_t *in, size_t len);

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

/* Free every entry (and the count of those lost); the log keeps its sizes, ready for more. */
void joblog_free(struct joblog *l);
void histlog_free(struct histlog *l);

#endif
