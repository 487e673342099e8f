/*
 * Data verification: chunk headers and checksums, generations, read-back passes, the
 * verify_backlog reads and the trim_percentage trims. fio's state file is in
 * verify_state.c, the verify_async threads in verify_async.c.
 */
#include "engine/verify.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/io_plan.h"
#include "engine/verify_priv.h"
#include "engine/worker.h"

#define BUSY_OVERLAP	0x8000u		/* busy: writes to the chunk overlapped in flight */
#define BUSY_TRIM	0x4000u		/* busy: a trim of the chunk is in flight */
#define BUSY_COUNT	0x3fffu		/* writes in flight to the chunk, saturating */

static const enum checksum_type csum_of[VERIFY_NTYPES] = {
	[VERIFY_CRC32C] = CSUM_CRC32C, [VERIFY_MD5] = CSUM_MD5, [VERIFY_SHA256] = CSUM_SHA256,
	[VERIFY_XXHASH] = CSUM_XXHASH, [VERIFY_CRC32] = CSUM_CRC32, [VERIFY_CRC64] = CSUM_CRC64,
	[VERIFY_CRC16] = CSUM_CRC16, [VERIFY_CRC7] = CSUM_CRC7, [VERIFY_SHA1] = CSUM_SHA1,
	[VERIFY_SHA512] = CSUM_SHA512, [VERIFY_SHA3_224] = CSUM_SHA3_224,
	[VERIFY_SHA3_256] = CSUM_SHA3_256, [VERIFY_SHA3_384] = CSUM_SHA3_384,
	[VERIFY_SHA3_512] = CSUM_SHA3_512,
	[VERIFY_META] = CSUM_CRC32C,	/* not used: meta checks the header alone */
};

/* fio's number for each method in the header, and the room its digest has after it. */
static const struct {
	uint16_t type;
	uint8_t slot;
} fio_layout[VERIFY_NTYPES] = {
	[VERIFY_META] = { 1, 0 }, [VERIFY_MD5] = { 2, 16 }, [VERIFY_CRC64] = { 3, 8 },
	[VERIFY_CRC32] = { 4, 4 }, [VERIFY_CRC32C] = { 5, 4 }, [VERIFY_CRC16] = { 7, 2 },
	[VERIFY_CRC7] = { 8, 1 }, [VERIFY_SHA256] = { 9, 64 }, [VERIFY_SHA512] = { 10, 128 },
	[VERIFY_SHA3_224] = { 11, 28 }, [VERIFY_SHA3_256] = { 12, 32 },
	[VERIFY_SHA3_384] = { 13, 48 }, [VERIFY_SHA3_512] = { 14, 64 },
	[VERIFY_XXHASH] = { 15, 4 }, [VERIFY_SHA1] = { 16, 20 },
};

static uint32_t swapped_pos(const struct verify *v, uint32_t i);

static uint64_t nchunks(const struct verify *v, const struct io_file *f)
{
	return f->io_len / v->interval;
}

static int ring_init(struct block_ring *q, uint64_t cap)
{
	q->cap = cap;
	q->e = calloc(cap, sizeof(*q->e));
	return q->e ? 0 : -ENOMEM;
}

/* Add a block; a full ring forgets its oldest (the read-back pass still covers it). */
static void ring_push(struct block_ring *q, struct io_file *f, uint64_t off, uint32_t len)
{
	if (q->tail - q->head == q->cap)
		q->head++;
	q->e[q->tail++ % q->cap] = (struct backlog_entry){ f, off, len };
}

static uint64_t ring_len(const struct block_ring *q)
{
	return q->tail - q->head;
}

static int init_tracking(struct worker *w, struct verify *v)
{
	const struct job_desc *j = w->job;

	v->gen = calloc(w->nfiles, sizeof(*v->gen));
	v->busy = calloc(w->nfiles, sizeof(*v->busy));
	v->issued = calloc(w->nfiles, sizeof(*v->issued));
	v->next_gen = calloc(w->nfiles, sizeof(*v->next_gen));
	v->read_snap = calloc(j->iodepth, sizeof(*v->read_snap));
	v->last_off = calloc(w->nfiles, sizeof(*v->last_off));
	v->writes_done = calloc(w->nfiles, sizeof(*v->writes_done));
	if (!v->gen || !v->busy || !v->issued || !v->next_gen || !v->read_snap ||
	    !v->last_off || !v->writes_done)
		return -ENOMEM;
	/*
	 * Generations are kept only for what this run writes: 4 bytes per chunk, and 6 more
	 * with iodepth > 1, where writes and reads of one chunk can be in flight at once.
	 */
	for (unsigned i = 0; rw_does(j->rw, IO_WRITE) && !j->verify_only && i < w->nfiles; i++) {
		uint64_t n = nchunks(v, &w->files[i]) + 1;
		bool racy = j->iodepth > 1 && !v->pattern_only;

		v->gen[i] = calloc(n, sizeof(*v->gen[i]));
		v->last_off[i] = calloc(j->iodepth, sizeof(*v->last_off[i]));
		if (racy) {
			v->busy[i] = calloc(n, sizeof(*v->busy[i]));
			v->issued[i] = calloc(n, sizeof(*v->issued[i]));
		}
		if (!v->gen[i] || !v->last_off[i] || (racy && (!v->busy[i] || !v->issued[i])))
			return -ENOMEM;
	}
	return 0;
}

static int init_queues(struct worker *w, struct verify *v)
{
	const struct job_desc *j = w->job;

	if (!rw_does(j->rw, IO_WRITE) || j->verify_only)
		return 0;
	if (j->verify_backlog) {
		v->backlog = j->verify_backlog;
		v->batch = j->verify_backlog_batch ? j->verify_backlog_batch : v->backlog;
		/* Writes complete while a batch is read back: room for those too. */
		if (ring_init(&v->backlog_q, 2 * (v->backlog > v->batch ? v->backlog : v->batch) +
			      j->iodepth) < 0)
			return -ENOMEM;
	}
	if (j->trim_percentage) {
		uint64_t blocks = 0;

		for (unsigned i = 0; i < w->nfiles; i++)
			blocks += w->files[i].io_len / job_bs_min(j) + 1;
		v->trim_backlog = j->trim_backlog;
		v->trim_batch = j->trim_backlog_batch ? j->trim_backlog_batch : v->trim_backlog;
		/* without trim_backlog every pick waits for the end: room for all blocks */
		if (ring_init(&v->trim_q, v->trim_backlog ? 2 * v->trim_batch + j->iodepth + 1 :
			      blocks) < 0)
			return -ENOMEM;
		rng_seed(&v->trim_rng, j->randseed ^ 0x7219a3ull ^ (uint64_t)j->jobnum << 40);
	}
	return 0;
}

int verify_init(struct worker *w)
{
	const struct job_desc *j = w->job;
	struct verify *v;
	int ret;

	if (j->verify == VERIFY_NONE)
		return 0;
	v = calloc(1, sizeof(*v));
	if (!v)
		goto nomem;
	w->verify = v;
	v->csum = csum_of[j->verify];
	v->pattern_only = j->verify == VERIFY_PATTERN;
	v->meta = j->verify == VERIFY_META;
	v->null = j->verify == VERIFY_NULL;
	v->interval = (uint32_t)j->verify_interval;
	v->slot = fio_layout[j->verify].slot;
	v->fio_type = fio_layout[j->verify].type;
	v->hlen = v->pattern_only || v->null ? 0 : (uint32_t)VHDR_FIXED + v->slot;
	v->voff = j->verify_offset;
	for (uint32_t b = 0; b < 2; b++)
		v->gen_pos[b] = swapped_pos(v, (uint32_t)offsetof(struct vhdr, numberio) + b);
	if (init_tracking(w, v) < 0 || init_queues(w, v) < 0)
		goto nomem;
	v->pass = j->verify_only;
	if (j->verify_async) {
		ret = verify_async_start(w);
		if (ret < 0) {
			verify_free(w);
			return ret;
		}
	}
	return 0;

nomem:
	snprintf(w->error_msg, sizeof(w->error_msg), "job '%s': no memory to track what to "
		 "verify", j->name);
	verify_free(w);
	return -ENOMEM;
}

static void free_per_file(void **a, unsigned n)
{
	for (unsigned i = 0; a && i < n; i++)
		free(a[i]);
	free(a);
}

void verify_free(struct worker *w)
{
	struct verify *v = w->verify;

	if (!v)
		return;
	if (v->async)
		verify_async_stop(w);
	free_per_file((void **)v->gen, w->nfiles);
	free_per_file((void **)v->busy, w->nfiles);
	free_per_file((void **)v->issued, w->nfiles);
	free_per_file((void **)v->last_off, w->nfiles);
	free(v->writes_done);
	free(v->read_snap);
	free(v->next_gen);
	free(v->backlog_q.e);
	free(v->trim_q.e);
	free(v);
	w->verify = NULL;
}

static unsigned file_index(const struct worker *w, const struct io_file *f)
{
	return (unsigned)(f - w->files);
}

/* The pattern, starting afresh at buf (each chunk's start: a chunk checks on its own). */
static void fill_pattern(const struct job_desc *j, unsigned char *buf, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		buf[i] = j->verify_pattern[i % j->verify_pattern_len];
}

/* The digest of what follows the header, in its room (sha256 and sha512: the first bytes). */
static void data_digest(const struct verify *v, const unsigned char *chunk, uint8_t *out)
{
	memset(out, 0, v->slot);
	checksum(v->csum, chunk + v->hlen, v->interval - v->hlen, out);
}

/* fio's crc32c of the header up to its crc32 field: from ~0, no final xor. */
static uint32_t header_crc(const struct vhdr *h)
{
	return ~(crc32c_hw_available() ? crc32c_hw(0, h, offsetof(struct vhdr, crc32)) :
		 crc32c_sw(0, h, offsetof(struct vhdr, crc32)));
}

/*
 * A write's generation is counted in 32 bits (to order writes and reads in flight) and
 * stored as 1 to 65535 in fio's 16-bit numberio: 0 stays "never written".
 */
static uint16_t numberio_of(uint32_t gen)
{
	return (uint16_t)(gen % 0xffff + 1);
}

/*
 * verify_offset: the header trades places with the bytes at voff, byte by byte in order,
 * and back in the opposite order, which undoes it even where the two ranges overlap.
 */
static void swap_header(const struct verify *v, unsigned char *c, bool back)
{
	for (uint32_t k = 0; k < v->hlen; k++) {
		uint32_t i = back ? v->hlen - 1 - k : k;
		unsigned char t = c[i];

		c[i] = c[v->voff + i];
		c[v->voff + i] = t;
	}
}

/*
 * Two writes to one chunk in flight together may reach the medium in either order,
 * whatever order they complete in: until the chunk is written again on its own, any
 * generation of it is right (its header, offset and checksum are still checked). A
 * trim in flight with a write leaves either zeros or the write: that chunk is not judged.
 */
static void write_issued(uint16_t *busy)
{
	if (*busy & (BUSY_COUNT | BUSY_TRIM))
		*busy |= BUSY_OVERLAP;
	if ((*busy & BUSY_COUNT) < BUSY_COUNT)
		(*busy)++;
}

static uint32_t write_completed(uint16_t *busy, uint32_t gen)
{
	if (*busy & BUSY_TRIM)
		gen = GEN_SKIP;
	else if (*busy & BUSY_OVERLAP)
		gen = GEN_ANY;
	if ((*busy & BUSY_COUNT) && (*busy & BUSY_COUNT) < BUSY_COUNT)
		(*busy)--;
	if (!(*busy & (BUSY_COUNT | BUSY_TRIM)))
		*busy = 0;
	return gen;
}

/* Where byte i of the header lies once swap_header() moved it (verify_offset). */
static uint32_t swapped_pos(const struct verify *v, uint32_t i)
{
	for (uint32_t k = 0; v->voff && k < v->hlen; k++) {
		if (i == k)
			i = (uint32_t)v->voff + k;
		else if (i == v->voff + k)
			i = k;
	}
	return i;
}

static void put_header(struct worker *w, struct io_req *r, uint32_t at, unsigned fi)
{
	const struct job_desc *j = w->job;
	struct verify *v = w->verify;
	struct vhdr h = {
		.magic = VERIFY_MAGIC,
		.type = v->fio_type,
		.len = v->interval,
		.offset = r->off + at,
		.thread = (uint16_t)(j->jobnum + 1),
	};
	unsigned char *c = r->buf + at;
	uint32_t gen = ++v->next_gen[fi];

	h.numberio = numberio_of(gen);
	h.crc32 = header_crc(&h);
	memcpy(c, &h, sizeof(h));
	if (v->slot)
		data_digest(v, c, c + VHDR_FIXED);
	if (v->voff)
		swap_header(v, c, false);
	if (v->busy[fi]) {
		uint64_t k = (r->off + at - r->file->io_off) / v->interval;

		write_issued(&v->busy[fi][k]);
		v->issued[fi][k] = gen;
	}
}

void verify_prepare_write(struct worker *w, struct io_req *r)
{
	const struct job_desc *j = w->job;
	struct verify *v = w->verify;
	unsigned fi = file_index(w, r->file);

	/* A read may have left other data in this slot's buffer: the pattern comes first. */
	for (uint32_t at = 0; j->verify_pattern_len && at + v->interval <= r->len;
	     at += v->interval)
		fill_pattern(j, r->buf + at, v->interval);
	if (!v->hlen)
		return;
	for (uint32_t at = 0; at + v->interval <= r->len; at += v->interval)
		put_header(w, r, at, fi);
}

static void dump_chunk(const struct worker *w, const struct io_file *f, uint64_t off,
		       const unsigned char *got, uint32_t len)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s.%" PRIu64 ".received", f->path, off);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0) {
		if (write(fd, got, len) != (ssize_t)len)
			(void)0;	/* a dump is a courtesy: the failure is reported anyway */
		close(fd);
	}
	if (!w->verify->pattern_only || !w->job->verify_pattern_len)
		return;
	snprintf(path, sizeof(path), "%s.%" PRIu64 ".expected", f->path, off);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0) {
		unsigned char *want = malloc(len);

		if (want) {
			fill_pattern(w->job, want, len);
			if (write(fd, want, len) != (ssize_t)len)
				(void)0;
			free(want);
		}
		close(fd);
	}
}

/*
 * A bad chunk: the first one names the job's failure; verify_fatal stops at once (with
 * verify_async, the job's thread stops it when it next looks: verify_async_fatal()). The
 * first is the one read first: seq orders the verify_async threads' finds.
 */
void verify_report_bad(struct worker *w, const struct io_file *f, uint64_t off,
		       const unsigned char *got, const char *what, uint64_t seq)
{
	struct verify *v = w->verify;
	bool first = !v->failures || seq < v->first_seq;

	if (w->job->verify_dump)
		dump_chunk(w, f, off, got, v->interval);
	v->failures++;
	if (first)
		v->first_seq = seq;
	if (first)
		snprintf(w->verify_msg, sizeof(w->verify_msg), "verify failed in '%s' at offset %"
			 PRIu64 " (chunk of %u bytes): %s", f->path, off, v->interval, what);
	if (w->job->verify_fatal && !v->async)
		worker_fail(w, EILSEQ, "%s", w->verify_msg);
}

static void hex(char *out, const uint8_t *d, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

static int check_pattern(const struct job_desc *j, const struct verify *v,
			 const unsigned char *c, uint32_t skip, char *what, size_t n)
{
	for (uint32_t i = skip; i < v->interval; i++) {
		unsigned char want = j->verify_pattern[i % j->verify_pattern_len];

		if (c[i] != want) {
			snprintf(what, n, "byte %u is 0x%02x, the pattern has 0x%02x", i, c[i], want);
			return 1;
		}
	}
	return 0;
}

static int check_zero(const struct verify *v, const unsigned char *c, char *what, size_t n)
{
	for (uint32_t i = 0; i < v->interval; i++) {
		if (c[i]) {
			snprintf(what, n, "trimmed, but byte %u reads 0x%02x, not zero", i, c[i]);
			return 1;
		}
	}
	return 0;
}

int verify_examine(const struct verify *v, const struct job_desc *j, uint64_t off,
		   unsigned char *c, enum chunk_expect ex, uint32_t gen, char *what, size_t n)
{
	const struct vhdr *h = (const struct vhdr *)c;
	uint8_t sum[VERIFY_SLOT_MAX];
	char want[2 * CHECKSUM_MAX + 1], got[2 * CHECKSUM_MAX + 1];
	unsigned size = checksum_size(v->csum);

	if (ex == CK_SKIP || v->null)
		return 0;
	if (ex == CK_ZERO)
		return check_zero(v, c, what, n);
	if (v->pattern_only)
		return check_pattern(j, v, c, 0, what, n);
	if (v->voff)
		swap_header(v, c, true);
	if (h->magic != VERIFY_MAGIC || h->len != v->interval) {
		snprintf(what, n, "no verify header (magic 0x%04x, expected 0x%04x, length %u): "
			 "never written, or overwritten by something else", h->magic,
			 VERIFY_MAGIC, h->len);
		return 1;
	}
	if (h->offset != off) {
		snprintf(what, n, "the header says offset %" PRIu64 ": a misdirected write",
			 h->offset);
		return 1;
	}
	if (h->crc32 != header_crc(h)) {
		snprintf(what, n, "header crc 0x%08x, 0x%08x computed over the header", h->crc32,
			 header_crc(h));
		return 1;
	}
	if (v->slot) {
		data_digest(v, c, sum);
		if (memcmp(sum, c + VHDR_FIXED, v->slot)) {
			hex(want, c + VHDR_FIXED, size);
			hex(got, sum, size);
			snprintf(what, n, "checksum %s in the header, %s computed over the data",
				 want, got);
			return 1;
		}
	}
	if (gen && gen != GEN_ANY && h->numberio != gen) {
		snprintf(what, n, "generation %u, expected %u: an older write (lost or reordered)",
			 h->numberio, gen);
		return 1;
	}
	return j->verify_pattern_len ? check_pattern(j, v, c, v->hlen, what, n) : 0;
}

/* What chunk k of file fi should hold now, for a read in slot that just completed. */
static enum chunk_expect expect_of(const struct verify *v, unsigned fi, uint64_t k,
				   unsigned slot, uint32_t *gen)
{
	const uint16_t *busy = v->busy[fi] ? &v->busy[fi][k] : NULL;

	*gen = v->gen[fi] ? v->gen[fi][k] : 0;
	/* A write to it in flight, or issued while the read was: the read may see either. */
	if (busy && (*busy || v->issued[fi][k] > v->read_snap[slot]))
		return CK_SKIP;
	if (*gen == GEN_SKIP)
		return CK_SKIP;
	return *gen == GEN_TRIMMED ? CK_ZERO : CK_DATA;
}

static void check_read(struct worker *w, struct io_req *r, uint64_t first)
{
	const struct job_desc *j = w->job;
	struct verify *v = w->verify;
	unsigned fi = file_index(w, r->file);
	uint8_t ex[VERIFY_ASYNC_CHUNKS];
	uint32_t gens[VERIFY_ASYNC_CHUNKS];
	char what[384];

	for (uint32_t at = 0, done = 0; at < r->full_len; at = done) {
		uint32_t n = 0;

		for (; done + v->interval <= r->full_len && n < VERIFY_ASYNC_CHUNKS; n++) {
			uint64_t k = (first + done - r->file->io_off) / v->interval;

			ex[n] = (uint8_t)expect_of(v, fi, k, r->slot, &gens[n]);
			done += v->interval;
		}
		if (!n)
			return;
		if (v->async) {
			verify_async_submit(w, r->file, first + at, r->buf_base + at,
					    n * v->interval, ex, gens);
			continue;
		}
		for (uint32_t i = 0; i < n; i++) {
			uint64_t off = first + at + (uint64_t)i * v->interval;
			unsigned char *c = r->buf_base + at + i * v->interval;

			if (verify_examine(v, j, off, c, ex[i], gens[i], what, sizeof(what)))
				verify_report_bad(w, r->file, off, c, what, 0);
		}
	}
}

/* trim_percentage: each written block is picked for a trim with that chance, as in fio. */
static void maybe_pick_for_trim(struct worker *w, struct io_req *r, uint64_t first)
{
	struct verify *v = w->verify;

	if (!v->trim_q.e || rng_below(&v->trim_rng, 100) >= w->job->trim_percentage)
		return;
	ring_push(&v->trim_q, r->file, first, r->full_len);
}

static void remember_write(struct worker *w, struct io_req *r)
{
	struct verify *v = w->verify;
	unsigned fi = file_index(w, r->file);
	uint64_t first = r->off - (r->full_len - r->len);

	/* The block holds what completed last: record each chunk's generation from it. */
	for (uint32_t at = 0; v->gen[fi] && at + v->interval <= r->full_len; at += v->interval) {
		const unsigned char *c = r->buf_base + at;
		uint64_t k = (first + at - r->file->io_off) / v->interval;
		uint32_t gen = 1;	/* no header (pattern, null): "written" */

		if (v->hlen)
			gen = (uint32_t)c[v->gen_pos[0]] | (uint32_t)c[v->gen_pos[1]] << 8;
		v->gen[fi][k] = v->busy[fi] ? write_completed(&v->busy[fi][k], gen) : gen;
	}
	if (v->last_off[fi])
		v->last_off[fi][v->writes_done[fi]++ % w->job->iodepth] = first;
	if (v->backlog_q.e) {
		ring_push(&v->backlog_q, r->file, first, r->full_len);
		v->since_batch++;
	}
	maybe_pick_for_trim(w, r, first);
	v->since_trim++;
}

/* A trim of a picked block completed: its chunks now read zeros (or are not checked). */
static void remember_trim(struct worker *w, struct io_req *r)
{
	struct verify *v = w->verify;
	unsigned fi = file_index(w, r->file);
	uint64_t first = r->off - (r->full_len - r->len);

	for (uint32_t at = 0; at + v->interval <= r->full_len; at += v->interval) {
		uint64_t k = (first + at - r->file->io_off) / v->interval;
		uint32_t gen = w->job->trim_verify_zero ? GEN_TRIMMED : 0;

		if (v->busy[fi]) {
			/* a write went out while the trim was in flight: either may be there */
			if ((v->busy[fi][k] & BUSY_COUNT) || v->issued[fi][k] > v->read_snap[r->slot])
				gen = GEN_SKIP;
			v->busy[fi][k] &= (uint16_t)~BUSY_TRIM;
			if (gen == GEN_SKIP)
				v->busy[fi][k] |= BUSY_OVERLAP;
			if (!(v->busy[fi][k] & BUSY_COUNT))
				v->busy[fi][k] = 0;
		}
		v->gen[fi][k] = gen;
	}
}

void verify_done(struct worker *w, struct io_req *r)
{
	struct verify *v = w->verify;
	uint64_t first = r->off - (r->full_len - r->len);

	if (v->async && verify_async_fatal(w))
		worker_fail(w, EILSEQ, "%s", w->verify_msg);
	if (r->dir == IO_WRITE)
		return remember_write(w, r);
	if (r->dir == IO_TRIM && v->gen[file_index(w, r->file)])
		return remember_trim(w, r);
	if (r->dir == IO_READ)
		check_read(w, r, first);
}

static void fill_req(struct worker *w, struct io_req *r, int dir, struct io_file *f,
		     uint64_t off, uint32_t len)
{
	w->verify->read_snap[r->slot] = w->verify->next_gen[file_index(w, f)];
	r->file = f;
	r->dir = dir;
	r->off = off;
	r->len = r->full_len = len;
	r->buf = r->buf_base;
	r->resubmit = false;
	w->st->issued[dir]++;
}

/* A picked block goes out as a trim, unless a write to it is in flight (then it stays). */
static bool issue_trim(struct worker *w, struct io_req *r)
{
	struct verify *v = w->verify;
	struct backlog_entry e = v->trim_q.e[v->trim_q.head++ % v->trim_q.cap];
	unsigned fi = file_index(w, e.file);

	fill_req(w, r, IO_TRIM, e.file, e.off, e.len);
	for (uint32_t at = 0; v->busy[fi] && at + v->interval <= e.len; at += v->interval) {
		uint16_t *b = &v->busy[fi][(e.off + at - e.file->io_off) / v->interval];

		if (*b & BUSY_COUNT)
			*b |= BUSY_OVERLAP;
		*b |= BUSY_TRIM;
	}
	return true;
}

/* The next chunk of the pass: every chunk written in this run, or all with verify_only. */
static bool next_pass_chunk(struct worker *w, struct io_req *r)
{
	struct verify *v = w->verify;

	for (; v->pass_file < w->nfiles; v->pass_file++, v->pass_chunk = 0) {
		struct io_file *f = &w->files[v->pass_file];
		uint32_t *gen = v->gen[v->pass_file];

		while (v->pass_chunk < nchunks(v, f)) {
			uint64_t c = v->pass_chunk++;

			if (gen && !gen[c])
				continue;
			fill_req(w, r, IO_READ, f, f->io_off + c * v->interval, v->interval);
			return true;
		}
	}
	return false;
}

/* experimental_verify: the next of the writes as they were issued, read back whole. */
static bool next_replayed(struct worker *w, struct io_req *r)
{
	struct verify *v = w->verify;
	unsigned fi;
	uint64_t off;
	uint32_t len;

	if (!v->replay_left || !plan_next_write(w, &fi, &off, &len))
		return false;
	v->replay_left--;
	fill_req(w, r, IO_READ, &w->files[fi], off, len);
	return true;
}

/* trim_backlog: every N writes, a batch of the picked blocks is trimmed. */
static bool trim_due(struct worker *w)
{
	struct verify *v = w->verify;

	if (!v->trim_q.e || !ring_len(&v->trim_q))
		return false;
	if (v->trims_at_end)
		return true;
	if (!v->trim_left && v->trim_backlog && v->since_trim >= v->trim_backlog) {
		v->since_trim = 0;
		v->trim_left = v->trim_batch;
	}
	if (!v->trim_left)
		return false;
	v->trim_left--;
	return true;
}

enum verify_plan_result verify_plan(struct worker *w, struct io_req *r)
{
	struct verify *v = w->verify;

	if (v->async && verify_async_fatal(w)) {
		worker_fail(w, EILSEQ, "%s", w->verify_msg);
		return VP_END;
	}
	if (trim_due(w))
		return issue_trim(w, r) ? VP_READ : VP_NONE;
	if (v->pass && v->replay)
		return next_replayed(w, r) ? VP_READ : VP_END;
	if (v->pass)
		return next_pass_chunk(w, r) ? VP_READ : VP_END;
	if (v->backlog_q.e && !v->drain_left && v->since_batch >= v->backlog) {
		/* N writes done: read some back before more */
		v->since_batch = 0;
		v->drain_left = v->batch;
	}
	if (v->drain_left && ring_len(&v->backlog_q)) {
		struct backlog_entry *e = &v->backlog_q.e[v->backlog_q.head++ % v->backlog_q.cap];

		v->drain_left--;
		fill_req(w, r, IO_READ, e->file, e->off, e->len);
		return VP_READ;
	}
	v->drain_left = 0;
	return VP_NONE;
}

bool verify_pass_wanted(const struct worker *w)
{
	const struct job_desc *j = w->job;

	if (w->verify && !j->verify_only && rw_does(j->rw, IO_WRITE) && !w->error &&
	    ring_len(&w->verify->trim_q) && !j->trim_backlog)
		return true;	/* the picked blocks are trimmed before the pass, or alone */
	return w->verify && j->do_verify && !j->verify_only && rw_does(j->rw, IO_WRITE) &&
	       !w->error;
}

void verify_start_pass(struct worker *w)
{
	const struct job_desc *j = w->job;
	struct verify *v = w->verify;

	/* the writes issued are those to replay: a time_based job's too */
	v->replay_left = w->st->issued[IO_WRITE];
	v->replay = j->experimental_verify && j->do_verify;
	if (v->replay && plan_restart(w) < 0) {
		worker_fail(w, ENOMEM, "job '%s': no memory to replay the writes", j->name);
		v->replay = false;
	}
	w->verify->trims_at_end = !j->trim_backlog;
	w->verify->pass = j->do_verify;
	w->verify->pass_file = 0;
	w->verify->pass_chunk = 0;
}

void verify_finish(struct worker *w)
{
	struct verify *v = w->verify;

	if (!v)
		return;
	if (v->async)
		verify_async_stop(w);
	if (!v->failures || w->error)
		return;
	if (v->failures == 1)
		worker_fail(w, EILSEQ, "%s", w->verify_msg);
	else
		worker_fail(w, EILSEQ, "%s (%" PRIu64 " bad chunks in all)", w->verify_msg,
			    v->failures);
}
