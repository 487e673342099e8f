/*
 * What write buffers hold: zeros, buffer_pattern, random bytes, or blocks made to
 * compress (buffer_compress_percentage, buffer_compress_chunk) and to repeat each other
 * (dedupe_percentage, dedupe_mode, dedupe_global), as fio makes them. The unique blocks of
 * a job come from a stream of seeds (chunk k of job t is a function of t and k), so a
 * copy of any block, even another job's, is made again from its place in that stream.
 * struct content is embedded in struct worker; engine/plan/io_plan.c fills buffers through it.
 */
#ifndef ENGINE_PLAN_CONTENT_H
#define ENGINE_PLAN_CONTENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/plan/offsets.h"

struct job_desc;

/* What each write does to its buffer before it is issued. */
enum content_write {
	CONTENT_KEEP,		/* nothing: the buffer was filled once */
	CONTENT_SCRAMBLE,	/* a word per 512 bytes (scramble_buffers, fio's default) */
	CONTENT_RANDOM,		/* new random bytes (refill_buffers) */
	CONTENT_FILL,		/* content_fill(): the pattern, zeros, or made blocks */
};

struct content {
	int per_write;		/* enum content_write */
	bool made;		/* compress or dedupe: blocks come from the seed stream */
	bool zero;
	const unsigned char *pattern;
	unsigned pattern_len;
	unsigned random_pct;	/* of each chunk, first; zeros or the pattern after it */
	uint64_t chunk;		/* bytes of a chunk (at most the smallest write) */
	unsigned dedupe_pct;
	bool working_set;
	uint64_t seed;		/* the run's randseed, which keys every job's stream */
	unsigned index;		/* this job among the run's */
	unsigned njobs;
	uint64_t next;		/* the next unique chunk of this job's stream */
	uint64_t ws_pages;	/* working set: blocks copies come from */
	uint64_t ws_per_job;	/* dedupe_global: consecutive pages from one job */
	uint64_t ws_stride;	/* chunks of the stream per page (one smallest write) */
	bool ws_global;
	struct rng rng;		/* which blocks are copies, and of which page */
};

/*
 * Decide, as fio does, what buffers get at the start and at each write. job_bytes is the
 * job's region (the working set is a share of it), njobs the run's jobs (dedupe_global).
 */
void content_init(struct content *c, const struct job_desc *j, uint64_t job_bytes,
		  unsigned njobs);

/* Fill a buffer of len bytes for one write: made blocks, the pattern or zeros. */
void content_fill(struct content *c, unsigned char *buf, size_t len);

#endif
