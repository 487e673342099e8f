/* Write buffers' data: zeros, the pattern, or blocks made to compress and to repeat. */
#include "engine/plan/content.h"

#include <string.h>

#include "jobs/job.h"

/* splitmix64's step: the stream's seeds and the bytes made from each. */
static inline uint64_t mix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The seed of chunk k of job t's stream: the same in every job that asks. */
static uint64_t chunk_seed(const struct content *c, unsigned t, uint64_t k)
{
	uint64_t s = c->seed ^ ((uint64_t)t + 1) * 0xd1342543de82ef95ULL;

	s = mix(&s) + k * 0x9e3779b97f4a7c15ULL;
	return mix(&s);
}

static void fill_random(unsigned char *p, size_t len, uint64_t seed)
{
	size_t i;
	uint64_t v;

	for (i = 0; i + 8 <= len; i += 8) {
		v = mix(&seed);
		memcpy(p + i, &v, 8);
	}
	if (i < len) {
		v = mix(&seed);
		memcpy(p + i, &v, len - i);
	}
}

/* The pattern from its first byte, over and over (zeros without one). */
static void fill_pattern(const struct content *c, unsigned char *p, size_t len)
{
	size_t n;

	if (!c->pattern_len) {
		memset(p, 0, len);
		return;
	}
	n = len < c->pattern_len ? len : c->pattern_len;
	memcpy(p, c->pattern, n);
	/* double what is there until it is full */
	for (; n < len; n *= 2)
		memcpy(p + n, p, n < len - n ? n : len - n);
}

/* One chunk: random_pct of it random, from its seed, then zeros or the pattern. */
static void fill_chunk(const struct content *c, unsigned char *p, size_t len, uint64_t seed)
{
	size_t random = len * c->random_pct / 100;

	fill_random(p, random, seed);
	fill_pattern(c, p + random, len - random);
}

/* Where a copy of working-set page i starts: its job and chunk. */
static void ws_page(const struct content *c, uint64_t i, unsigned *t, uint64_t *k)
{
	if (!c->ws_global) {
		*t = c->index;
		*k = i * c->ws_stride;
		return;
	}
	/* the pages are spread over the jobs, ws_per_job of each in turn, as fio's */
	*t = (unsigned)((c->index + i / c->ws_per_job) % c->njobs);
	*k = i % c->ws_per_job * c->ws_stride;
}

/* Made blocks (fio's fill_io_buffer): unique, or a whole-buffer copy of another. */
static void fill_made(struct content *c, unsigned char *buf, size_t len)
{
	unsigned t = c->index;
	uint64_t k = c->next;
	uint64_t *advance = &c->next;	/* a unique buffer moves the stream on */

	if (c->dedupe_pct == 100) {
		advance = NULL;		/* every chunk of every buffer: one seed */
	} else if (c->dedupe_pct && rng_below(&c->rng, 100) < c->dedupe_pct) {
		advance = NULL;
		/* repeat: the copy is of the unique buffer made next, as fio's */
		if (c->working_set)
			ws_page(c, rng_below(&c->rng, c->ws_pages), &t, &k);
	}
	for (size_t off = 0; off < len;) {
		size_t n = len - off < c->chunk ? len - off : c->chunk;

		fill_chunk(c, buf + off, n, chunk_seed(c, t, c->dedupe_pct == 100 ? k : k++));
		off += n;
	}
	if (advance)
		*advance = k;
}

void content_fill(struct content *c, unsigned char *buf, size_t len)
{
	if (c->made)
		fill_made(c, buf, len);
	else if (c->pattern_len || c->zero)
		fill_pattern(c, buf, len);
}

static void working_set_init(struct content *c, const struct job_desc *j, uint64_t job_bytes,
			     uint64_t min_write)
{
	c->working_set = true;
	c->ws_stride = (min_write + c->chunk - 1) / c->chunk;
	c->ws_pages = job_bytes * j->dedupe_ws_pct / 100 / min_write;
	if (!c->ws_pages)
		c->ws_pages = 1;
	c->ws_global = j->dedupe_global && c->njobs > 1;
	c->ws_per_job = c->ws_pages / c->njobs ? c->ws_pages / c->njobs : 1;
}

void content_init(struct content *c, const struct job_desc *j, uint64_t job_bytes,
		  unsigned njobs)
{
	uint64_t min_write = j->bs[IO_WRITE].min ? j->bs[IO_WRITE].min : 4096;
	bool asked = job_setting(j, "buffer_compress_percentage") ||
		     job_setting(j, "dedupe_percentage");
	bool refill_set = job_setting(j, "refill_buffers") != NULL, refill;

	memset(c, 0, sizeof(*c));
	/* fio: 100% compressible is zeros (or the pattern), made once */
	c->made = (j->compress_pct && j->compress_pct < 100) || j->dedupe_pct;
	c->zero = j->zero_buffers || j->compress_pct == 100;
	c->pattern = j->buffer_pattern;
	c->pattern_len = j->buffer_pattern_len;
	c->random_pct = j->compress_pct == 100 ? 100 : 100 - j->compress_pct;
	c->chunk = j->compress_chunk && j->compress_chunk < min_write ? j->compress_chunk :
		   min_write;
	c->dedupe_pct = j->dedupe_pct;
	c->seed = j->randseed;
	c->index = j->index;
	c->njobs = njobs ? njobs : 1;
	rng_seed(&c->rng, j->randseed ^ 0xdedcafe5ULL ^ (uint64_t)j->index << 40);
	if (j->dedupe_pct && j->dedupe_mode == DEDUPE_WORKING_SET)
		working_set_init(c, j, job_bytes, min_write);
	/*
	 * fio refills at each write when asked, when blocks are made or dedupe_percentage is
	 * set at all (unless refill_buffers says otherwise) and when a pattern could be
	 * overwritten by the job's reads.
	 */
	refill = j->refill_buffers ||
		 (!refill_set && (c->made || job_setting(j, "dedupe_percentage") ||
				  (c->pattern_len && rw_does(j->rw, IO_READ))));
	if (refill)
		c->per_write = c->made || c->pattern_len || c->zero ? CONTENT_FILL : CONTENT_RANDOM;
	else if (c->made || c->pattern_len || c->zero || asked || !j->scramble_buffers)
		c->per_write = CONTENT_KEEP;
	else
		c->per_write = CONTENT_SCRAMBLE;
}
