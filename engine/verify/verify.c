/*
 * Data verification: what was written (generations), what is read back when (the pass,
 * experimental_verify's replay, verify_backlog), and the failures. The chunk format is in
 * verify_chunk.c, the trims in verify_trim.c, fio's state file in verify_state.c and the
 * verify_async threads in verify_async.c.
 */
#include "engine/verify/verify.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/bits.h"
#include "engine/plan/io_plan.h"
#include "engine/devices/path_guard.h"
#include "engine/verify/verify_priv.h"
#include "engine/worker.h"
#include "jobs/replay_log.h"

static uint64_t nunits(const struct verify *v, const struct io_file *f)
{
	return f->io_len / v->unit;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * The unit generations are kept in: what every write's start and every chunk's start is a
 * multiple of (the blockalign, the sizes' common divisor, the chunk). Below 512 bytes
 * (bs_unaligned) the chunk: such writes are verified as fio 3.33's header allows.
 */
static uint32_t tracking_unit(const struct job_desc *j, uint32_t interval)
{
	const struct dir_bs *b = &j->bs[IO_WRITE];
	uint64_t u = gcd64(interval, j->blockalign[IO_WRITE]);

	u = gcd64(gcd64(u, b->min), b->max);	/* bsrange: multiples of min, and max itself */
	for (unsigned i = 0; i < b->nsplit; i++)
		u = gcd64(u, b->split[i].bs);
	return u < 512 || j->bs_unaligned ? interval : (uint32_t)u;
}

static int ring_init(struct block_ring *q, uint64_t cap)
{
	q->cap = cap;
	q->e = calloc(cap, sizeof(*q->e));
	return q->e ? 0 : -ENOMEM;
}

static int init_tracking(struct worker *w, struct verify *v)
{
	const struct job_desc *j = w->job;

	v->gen = calloc(w->nfiles, sizeof(*v->gen));
	v->busy = calloc(w->nfiles, sizeof(*v->busy));
	v->issued = calloc(w->nfiles, sizeof(*v->issued));
	v->next_gen = calloc(w->nfiles, sizeof(*v->next_gen));
	v->read_snap = calloc(j->iodepth, sizeof(*v->read_snap));
	v->ours = calloc(j->iodepth, sizeof(*v->ours));
	v->last_off = calloc(w->nfiles, sizeof(*v->last_off));
	v->writes_done = calloc(w->nfiles, sizeof(*v->writes_done));
	v->starts = calloc(w->nfiles, sizeof(*v->starts));
	v->cstart = calloc(w->nfiles, sizeof(*v->cstart));
	if (!v->gen || !v->busy || !v->issued || !v->next_gen || !v->read_snap || !v->ours ||
	    !v->last_off || !v->writes_done || !v->starts || !v->cstart)
		return -ENOMEM;
	v->unit = tracking_unit(j, v->interval);
	v->check_all_reads = !rw_does(j->rw, IO_WRITE);
	/*
	 * Generations are kept only for what this run writes: 4 bytes per chunk, and 6 more
	 * with iodepth > 1, where writes and reads of one chunk can be in flight at once.
	 */
	for (unsigned i = 0; rw_does(j->rw, IO_WRITE) && !j->verify_only && i < w->nfiles; i++) {
		uint64_t n = nunits(v, &w->files[i]) + 1;
		bool racy = j->iodepth > 1 && !v->pattern_only;

		v->gen[i] = calloc(n, sizeof(*v->gen[i]));
		v->last_off[i] = calloc(j->iodepth, sizeof(*v->last_off[i]));
		if (racy) {
			v->busy[i] = calloc(n, sizeof(*v->busy[i]));
			v->issued[i] = calloc(n, sizeof(*v->issued[i]));
		}
		if (v->interval < j->bs[IO_WRITE].max)
			v->starts[i] = calloc(bits_words(n), sizeof(*v->starts[i]));
		if (v->unit < v->interval)
			v->cstart[i] = calloc(bits_words(n), sizeof(*v->cstart[i]));
		if (!v->gen[i] || !v->last_off[i] || (racy && (!v->busy[i] || !v->issued[i])) ||
		    (v->interval < j->bs[IO_WRITE].max && !v->starts[i]) ||
		    (v->unit < v->interval && !v->cstart[i]))
			return -ENOMEM;
	}
	return 0;
}

/* verify_policy=fsynced with a state to save: room for the completions at each sync. */
static int init_durable(struct worker *w, struct verify *v)
{
	const struct job_desc *j = w->job;

	if (j->verify_policy != VERIFY_POLICY_FSYNCED || !j->verify_state_save ||
	    !rw_does(j->rw, IO_WRITE) || j->verify_only)
		return 0;
	v->mark_off = calloc(w->nfiles, sizeof(*v->mark_off));
	v->durable_off = calloc(w->nfiles, sizeof(*v->durable_off));
	v->mark_done = calloc(w->nfiles, sizeof(*v->mark_done));
	v->durable_done = calloc(w->nfiles, sizeof(*v->durable_done));
	if (!v->mark_off || !v->durable_off || !v->mark_done || !v->durable_done)
		return -ENOMEM;
	for (unsigned i = 0; i < w->nfiles; i++) {
		v->mark_off[i] = calloc(j->iodepth, sizeof(**v->mark_off));
		v->durable_off[i] = calloc(j->iodepth, sizeof(**v->durable_off));
		if (!v->mark_off[i] || !v->durable_off[i])
			return -ENOMEM;
	}
	return 0;
}

/* The blocks of the job's regions, at its smallest block size: what its writes can be. */
static uint64_t region_blocks(const struct worker *w)
{
	uint64_t blocks = 0;

	for (unsigned i = 0; i < w->nfiles; i++)
		blocks += w->files[i].io_len / job_bs_min(w->job) + 1;
	return blocks;
}

/*
 * verify_backlog's queue: writes complete while a batch is read back, so room for those
 * too; a batch below the backlog leaves writes behind each time, which the pass reads at
 * the end (fio keeps them in its history): room for every block, up to BACKLOG_KEEP_MAX.
 * Past that the queue forgets the oldest and the pass reads every block again.
 */
#define BACKLOG_KEEP_MAX	(1u << 20)

static int init_backlog(struct worker *w, struct verify *v)
{
	const struct job_desc *j = w->job;
	uint64_t cap, all;

	v->backlog = j->verify_backlog;
	v->batch = j->verify_backlog_batch ? j->verify_backlog_batch : v->backlog;
	cap = 2 * (v->backlog > v->batch ? v->backlog : v->batch) + j->iodepth;
	all = region_blocks(w);
	if (v->batch < v->backlog && cap < all)
		cap = all < BACKLOG_KEEP_MAX ? all : BACKLOG_KEEP_MAX;
	return ring_init(&v->backlog_q, cap);
}

static int init_queues(struct worker *w, struct verify *v)
{
	const struct job_desc *j = w->job;

	if (!rw_does(j->rw, IO_WRITE) || j->verify_only)
		return 0;
	/* do_verify=0 reads nothing back, the backlog's batches neither, as fio */
	if (j->verify_backlog && j->do_verify && init_backlog(w, v) < 0)
		return -ENOMEM;
	if (j->trim_percentage) {
		uint64_t blocks = region_blocks(w);

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

/*
 * md5's reads are staged and checked eight at a time where the lanes run in SIMD, unless
 * verify_async's threads check them or verify_offset moves the header into the data.
 */
static int init_stage(struct verify *v, const struct job_desc *j)
{
	if (v->csum != CSUM_MD5 || v->meta || v->pattern_only || v->null || v->voff ||
	    j->verify_async || !md5_lanes_simd() || v->interval - v->hlen > VFILL_POOL_MAX)
		return 0;
	v->stage.buf = malloc((size_t)v->interval * MD5_LANES);
	return v->stage.buf ? 0 : -1;
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
	if (verify_chunk_setup(v, j) < 0 || init_tracking(w, v) < 0 || init_queues(w, v) < 0 ||
	    init_durable(w, v) < 0 || vfill_init(&v->fill, v, j) < 0)
		goto nomem;
	v->pass = j->verify_only;
	/* verify_only over a log: its writes read back, as a replay would have made them */
	if (j->verify_only && j->replay) {
		v->replay = true;
		v->replay_left = j->replay->ios[IO_WRITE];
	} else if (j->verify_only && v->patterned && job_bs_min(j) != job_bs_max(j)) {
		/*
		 * Blocks of several sizes: the job's writes replayed as reads, as fio's
		 * verify_only does, since a pattern runs on from each write's start.
		 */
		v->replay = true;
		v->replay_left = UINT64_MAX;
	}
	if (init_stage(v, j) < 0)
		goto nomem;
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
	free_per_file((void **)v->starts, w->nfiles);
	free_per_file((void **)v->cstart, w->nfiles);
	free_per_file((void **)v->busy, w->nfiles);
	free_per_file((void **)v->issued, w->nfiles);
	free_per_file((void **)v->last_off, w->nfiles);
	free(v->writes_done);
	if (v->mark_off) {
		free_per_file((void **)v->mark_off, w->nfiles);
		free_per_file((void **)v->durable_off, w->nfiles);
	}
	free(v->mark_done);
	free(v->durable_done);
	free(v->state);
	free(v->read_snap);
	vpattern_free(&v->pat);
	vfill_free(&v->fill);
	free(v->stage.buf);
	free(v->ours);
	free(v->next_gen);
	free(v->backlog_q.e);
	free(v->trim_q.e);
	free(v);
	w->verify = NULL;
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

/*
 * A chunk now starts at unit k of file fi: those that began less than a chunk before or
 * after it (off the grid) are partly overwritten, so they are dropped, as fio drops a
 * write that a later one overlaps from what it reads back. Nothing when units are chunks.
 */
static void place_chunk(struct verify *v, unsigned fi, uint64_t k)
{
	uint64_t m = v->interval / v->unit, lo = k >= m ? k - m + 1 : 0;
	uint64_t *cs = v->cstart[fi];

	if (!cs)
		return;
	for (uint64_t s = lo; s < k + m; s++) {
		if (s != k && bits_test(cs, s)) {
			bits_clear(cs, s);
			v->gen[fi][s] = 0;
		}
	}
	bits_set(cs, k);
}

static void put_header(struct worker *w, struct io_req *r, uint32_t at, unsigned fi)
{
	struct verify *v = w->verify;
	uint32_t gen = ++v->next_gen[fi];
	const uint8_t *sum = v->fill.pool ? vfill_take(&v->fill, r->buf + at + v->hlen) : NULL;

	verify_chunk_seal(v, w->job, r->buf + at, r->off + at, gen, sum);
	/* a chunk this one overlaps off the grid is no longer what was written: not read */
	place_chunk(v, fi, verify_unit_of(v, r->file, r->off + at));
	if (v->busy[fi]) {
		uint64_t k = verify_unit_of(v, r->file, r->off + at);

		write_issued(&v->busy[fi][k]);
		v->issued[fi][k] = gen;
	}
}

void verify_prepare_write(struct worker *w, struct io_req *r)
{
	struct verify *v = w->verify;
	unsigned fi = verify_file_index(w, r->file);
	uint32_t at = 0;

	/* A read may have left other data in this slot's buffer: the pattern comes first. */
	if (v->patterned)
		verify_fill_pattern(v, r->off, 0, r->buf, r->len);
	else if (v->fill.on && !v->fill.pool)
		vfill_buf(&v->fill, r->buf, r->len);	/* fio's new data for each write */
	if (!v->hlen)
		return;
	for (; at + v->interval <= r->len; at += v->interval)
		put_header(w, r, at, fi);
	if (v->fill.pool && at < r->len)	/* past the last whole chunk */
		vfill_random(v->fill.s, r->buf + at, r->len - at);
}

static void dump_chunk(const struct worker *w, const struct io_file *f, uint64_t off,
		       uint64_t io_off, const unsigned char *got, uint32_t len)
{
	char path[4096], why[512];
	int fd;

	snprintf(path, sizeof(path), "%s.%" PRIu64 ".received", f->path, off);
	fd = path_open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644, why, sizeof(why));
	if (fd >= 0) {
		if (write(fd, got, len) != (ssize_t)len)
			(void)0;	/* a dump is a courtesy: the failure is reported anyway */
		close(fd);
	}
	if (!w->verify->pattern_only || !w->job->verify_pattern_len)
		return;
	snprintf(path, sizeof(path), "%s.%" PRIu64 ".expected", f->path, off);
	fd = path_open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644, why, sizeof(why));
	if (fd >= 0) {
		unsigned char *want = malloc(len);

		if (want) {
			verify_fill_pattern(w->verify, io_off, off - io_off, want, len);
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
		       uint64_t io_off, const unsigned char *got, const char *what,
		       uint64_t seq)
{
	struct verify *v = w->verify;
	bool first = !v->failures || seq < v->first_seq;

	if (w->job->verify_dump)
		dump_chunk(w, f, off, io_off, got, v->interval);
	v->failures++;
	if (first)
		v->first_seq = seq;
	if (first)
		snprintf(w->verify_msg, sizeof(w->verify_msg), "verify failed in '%s' at offset %"
			 PRIu64 " (chunk of %u bytes): %s", f->path, off, v->interval, what);
	if (w->job->verify_fatal && !v->async)
		worker_fail(w, EILSEQ, "%s", w->verify_msg);
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
	/* not written in this run: a mixed job's read of it checks nothing (fio's neither) */
	if (*gen == GEN_SKIP || (v->gen[fi] && !*gen))
		return CK_SKIP;
	return *gen == GEN_TRIMMED ? CK_ZERO : CK_DATA;
}

/*
 * md5: the chunks staged so far, checked in the order they were read, their digests made
 * eight at a time (a chunk alone: made as it is checked). Also at the pass's end and the
 * job's.
 */
static void verify_flush(struct worker *w)
{
	struct verify *v = w->verify;
	struct vstage *s = &v->stage;
	const unsigned char *p[MD5_LANES];
	uint8_t sums[MD5_LANES][16];
	char what[384];

	if (!s->n)
		return;
	for (unsigned l = 0; l < MD5_LANES; l++)	/* spare lanes digest the first again */
		p[l] = s->buf + (size_t)(l < s->n ? l : 0) * v->interval + v->hlen;
	if (s->n > 1)
		md5_lanes(p, v->interval - v->hlen, sums);
	for (unsigned i = 0; i < s->n; i++) {
		const struct vstaged *e = &s->e[i];
		unsigned char *c = s->buf + (size_t)i * v->interval;

		if (verify_examine(v, e->off, e->io_off, c, CK_DATA, e->gen,
				   s->n > 1 ? sums[i] : NULL, what, sizeof(what)))
			verify_report_bad(w, e->file, e->off, e->io_off, c, what, 0);
	}
	s->n = 0;
}

/* A chunk read that should hold data of generation gen: a copy waits for the others. */
static void stage_chunk(struct worker *w, const struct io_file *f, uint64_t off,
			uint64_t io_off, const unsigned char *c, uint32_t gen)
{
	struct verify *v = w->verify;
	struct vstage *s = &v->stage;

	memcpy(s->buf + (size_t)s->n * v->interval, c, v->interval);
	s->e[s->n++] = (struct vstaged){ f, off, io_off, gen };
	if (s->n == MD5_LANES)
		verify_flush(w);
}

static void check_read(struct worker *w, struct io_req *r, uint64_t first)
{
	struct verify *v = w->verify;
	unsigned fi = verify_file_index(w, r->file);
	uint8_t ex[VERIFY_ASYNC_CHUNKS];
	uint32_t gens[VERIFY_ASYNC_CHUNKS];
	char what[384];

	for (uint32_t at = 0, done = 0; at < r->full_len; at = done) {
		uint32_t n = 0;

		for (; done + v->interval <= r->full_len && n < VERIFY_ASYNC_CHUNKS; n++) {
			uint64_t k = verify_unit_of(v, r->file, first + done);

			ex[n] = (uint8_t)expect_of(v, fi, k, r->slot, &gens[n]);
			done += v->interval;
		}
		if (!n)
			return;
		if (v->async) {
			verify_async_submit(w, r->file, first, first + at, r->buf_base + at,
					    n * v->interval, ex, gens);
			continue;
		}
		for (uint32_t i = 0; i < n; i++) {
			uint64_t off = first + at + (uint64_t)i * v->interval;
			unsigned char *c = r->buf_base + at + i * v->interval;

			if (ex[i] == CK_SKIP)
				continue;
			if (v->stage.buf && ex[i] == CK_DATA) {
				stage_chunk(w, r->file, off, first, c, gens[i]);
				continue;
			}
			verify_flush(w);	/* the chunks read before it first */
			if (verify_examine(v, off, first, c, ex[i], gens[i], NULL, what,
					   sizeof(what)))
				verify_report_bad(w, r->file, off, first, c, what, 0);
		}
	}
}

/* A write of n units from unit k: its start marked, any inside it (older writes') gone. */
static void mark_start(struct verify *v, unsigned fi, uint64_t k, uint64_t n)
{
	uint64_t *s = v->starts[fi];

	if (!s)
		return;
	bits_set(s, k);
	for (uint64_t i = k + 1; i < k + n; i++)
		bits_clear(s, i);
}

/* Whether unit k of file fi begins a write (always, when writes are one chunk each). */
static bool starts_write(const struct verify *v, unsigned fi, uint64_t k)
{
	return !v->starts[fi] || bits_test(v->starts[fi], k);
}

static void remember_write(struct worker *w, struct io_req *r)
{
	struct verify *v = w->verify;
	unsigned fi = verify_file_index(w, r->file);
	uint64_t first = r->off - (r->full_len - r->len);

	/* The block holds what completed last: record each chunk's generation from it. */
	for (uint32_t at = 0; v->gen[fi] && at + v->interval <= r->full_len; at += v->interval) {
		const unsigned char *c = r->buf_base + at;
		uint64_t k = verify_unit_of(v, r->file, first + at);
		uint32_t gen = 1;	/* no header (pattern, null): "written" */

		if (v->hlen)
			gen = (uint32_t)c[v->gen_pos[0]] | (uint32_t)c[v->gen_pos[1]] << 8;
		place_chunk(v, fi, k);
		v->gen[fi][k] = v->busy[fi] ? write_completed(&v->busy[fi][k], gen) : gen;
	}
	mark_start(v, fi, verify_unit_of(v, r->file, first), r->full_len / v->unit);
	if (v->last_off[fi])
		v->last_off[fi][v->writes_done[fi]++ % w->job->iodepth] = first;
	if (v->backlog_q.e) {
		ring_push(&v->backlog_q, r->file, first, r->full_len);
		v->since_batch++;
	}
	verify_trim_pick(w, r, first);
	v->since_trim++;
}

static bool durable_sync(const struct worker *w, const struct io_req *r)
{
	return w->job->verify_policy == VERIFY_POLICY_FSYNCED &&
	       (r->dir == IO_FSYNC || r->dir == IO_FDATASYNC);
}

void verify_sync_issued(struct worker *w, const struct io_req *r)
{
	struct verify *v = w->verify;

	if (!durable_sync(w, r) || !v->mark_off)
		return;
	v->sync_mark = w->st->issued[IO_WRITE];
	for (unsigned i = 0; i < w->nfiles; i++) {
		if (v->last_off[i])
			memcpy(v->mark_off[i], v->last_off[i], w->job->iodepth * sizeof(uint64_t));
		v->mark_done[i] = v->writes_done[i];
	}
}

void verify_sync_done(struct worker *w, const struct io_req *r)
{
	struct verify *v = w->verify;
	uint64_t **off = v->durable_off, *done = v->durable_done;

	if (!durable_sync(w, r) || !v->mark_off)
		return;
	/* the mark becomes what the state lists; the old lists take the next mark */
	v->fsynced_writes = v->sync_mark;
	v->durable_off = v->mark_off;
	v->durable_done = v->mark_done;
	v->mark_off = off;
	v->mark_done = done;
}

void verify_done(struct worker *w, struct io_req *r)
{
	struct verify *v = w->verify;
	uint64_t first = r->off - (r->full_len - r->len);

	if (v->async && verify_async_fatal(w))
		worker_fail(w, EILSEQ, "%s", w->verify_msg);
	if (r->dir == IO_WRITE)
		return remember_write(w, r);
	if (r->dir == IO_TRIM && v->gen[verify_file_index(w, r->file)])
		return verify_trim_done(w, r);
	if (r->dir == IO_READ && (v->ours[r->slot] || v->check_all_reads))
		check_read(w, r, first);
	v->ours[r->slot] = false;
}

void verify_fill_req(struct worker *w, struct io_req *r, int dir, struct io_file *f,
		     uint64_t off, uint32_t len)
{
	w->verify->read_snap[r->slot] = w->verify->next_gen[verify_file_index(w, f)];
	w->verify->ours[r->slot] = dir == IO_READ;
	r->file = f;
	r->dir = dir;
	r->off = off;
	r->len = r->full_len = len;
	r->buf = r->buf_base;
	r->resubmit = false;
	w->st->issued[dir]++;
}

/*
 * Whether unit k of the pass's file begins a chunk written in this run; with nothing
 * written in it (verify_only), every chunk of the grid is read.
 */
static bool pass_chunk_at(const struct verify *v, uint64_t k)
{
	const uint32_t *gen = v->gen[v->pass_file];
	const uint64_t *cs = v->cstart[v->pass_file];

	if (!gen)
		return k % (v->interval / v->unit) == 0;
	return gen[k] && (!cs || bits_test(cs, k));
}

/* The next chunk of the pass: every chunk written in this run, or all with verify_only. */
static bool next_pass_chunk(struct worker *w, struct io_req *r)
{
	struct verify *v = w->verify;
	uint64_t m = v->interval / v->unit;

	for (; v->pass_file < w->nfiles; v->pass_file++, v->pass_chunk = 0) {
		struct io_file *f = &w->files[v->pass_file];
		uint64_t end = nunits(v, f);

		while (v->pass_chunk + m <= end) {
			uint64_t c = v->pass_chunk, n = 1;

			if (!pass_chunk_at(v, c)) {
				v->pass_chunk++;
				continue;
			}
			/*
			 * A write read back whole, as fio reads back what it wrote; with nothing
			 * written (verify_only), blocks of the job's size from the region's
			 * start, as fio's replay of the writes reads them (a pattern runs on
			 * over each, and its %o is the block's offset).
			 */
			while (c + (n + 1) * m <= end &&
			       (n + 1) * v->interval <= w->job->bs[IO_WRITE].max &&
			       (!v->gen[v->pass_file] || (pass_chunk_at(v, c + n * m) &&
			       !starts_write(v, v->pass_file, c + n * m))))
				n++;
			v->pass_chunk = c + n * m;
			verify_fill_req(w, r, IO_READ, f, f->io_off + c * v->unit,
					(uint32_t)(n * v->interval));
			return true;
		}
	}
	return false;
}

/*
 * experimental_verify, or verify_state_load: the next of the writes as they were issued,
 * read back whole; with a state, only as far as the writes surely reached.
 */
static bool next_replayed(struct worker *w, struct io_req *r)
{
	struct verify *v = w->verify;
	unsigned fi;
	uint64_t off;
	uint32_t len;

	if (!v->replay_left || !plan_next_write(w, &fi, &off, &len))
		return false;
	if (v->state && !verify_state_reached(v, v->replayed, fi, off))
		return false;
	v->replay_left--;
	v->replayed++;
	verify_fill_req(w, r, IO_READ, &w->files[fi], off, len);
	return true;
}

/* verify_backlog: the oldest write not read back yet, into r; false when none is left. */
static bool next_backlog(struct worker *w, struct io_req *r)
{
	struct block_ring *q = &w->verify->backlog_q;
	struct backlog_entry *e;

	if (!ring_len(q))
		return false;
	e = &q->e[q->head++ % q->cap];
	verify_fill_req(w, r, IO_READ, e->file, e->off, e->len);
	return true;
}

enum verify_plan_result verify_plan(struct worker *w, struct io_req *r)
{
	struct verify *v = w->verify;

	if (v->async && verify_async_fatal(w)) {
		worker_fail(w, EILSEQ, "%s", w->verify_msg);
		return VP_END;
	}
	if (verify_trim_due(w)) {
		verify_trim_issue(w, r);
		return VP_READ;
	}
	if (v->pass && v->replay)
		return next_replayed(w, r) ? VP_READ : VP_END;
	/*
	 * with a backlog that kept every write not yet read back, the pass reads those, as
	 * fio's: each block once; one that forgot some (a batch below the backlog) reads all
	 */
	if (v->pass && v->backlog_q.e && !v->backlog_q.forgot)
		return next_backlog(w, r) ? VP_READ : VP_END;
	if (v->pass)
		return next_pass_chunk(w, r) ? VP_READ : VP_END;
	if (v->backlog_q.e && !v->drain_left && v->since_batch >= v->backlog) {
		/*
		 * N writes done: read some back before more. Counted down, not reset: writes
		 * that completed in one burst (iodepth_low) each get their batch, and the ring
		 * never overflows into a second read of everything at the end.
		 */
		v->since_batch -= v->backlog;
		v->drain_left = v->batch;
	}
	if (v->drain_left && next_backlog(w, r)) {
		v->drain_left--;
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

void verify_end_pass(struct worker *w)
{
	verify_flush(w);
	w->verify->pass = false;
	w->verify->trims_at_end = false;
}

void verify_finish(struct worker *w)
{
	struct verify *v = w->verify;

	if (!v)
		return;
	if (v->async)
		verify_async_stop(w);
	verify_flush(w);
	if (!v->failures || w->error)
		return;
	if (v->failures == 1)
		worker_fail(w, EILSEQ, "%s", w->verify_msg);
	else
		worker_fail(w, EILSEQ, "%s (%" PRIu64 " bad chunks in all)", w->verify_msg,
			    v->failures);
}
