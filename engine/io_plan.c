/* What a job issues next: direction, file, block size, offset and write data. */
#include "engine/io_plan.h"

#include "engine/files.h"
#include "engine/pace.h"
#include "engine/verify.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

static uint64_t seed_of(const struct job_desc *j)
{
	uint64_t seed;

	if (!j->randrepeat && getrandom(&seed, sizeof(seed), 0) == sizeof(seed))
		return seed;
	/* Clones and sections get different, but repeatable, sequences. */
	return j->randseed * 0x9e3779b97f4a7c15ULL + (uint64_t)j->jobnum * 0xbf58476d1ce4e5b9ULL +
	       (uint64_t)j->section * 0x94d049bb133111ebULL;
}

static uint64_t cover_words(uint64_t nblocks)
{
	return (nblocks + 63) / 64;
}

/*
 * Whether a random job needs the map of covered blocks: it draws from the permutation
 * (the random map is on) and its I/Os come in more than one size, each a whole number of
 * map blocks. One size needs no map: the permutation alone visits each block once.
 */
static bool needs_cover_map(const struct worker *w)
{
	const struct job_desc *j = w->job;
	uint64_t first = 0;
	bool mixed = false;

	if (!w->random || j->norandommap || j->random_distribution != DIST_RANDOM)
		return false;
	for (int d = 0; d < IO_NDIR; d++) {
		const struct dir_bs *b = &j->bs[d];

		if (!rw_does(j->rw, d))
			continue;
		if (b->min % w->align || b->max % w->align)
			return false;
		for (unsigned i = 0; i < b->nsplit; i++)
			if (b->split[i].bs % w->align)
				return false;
		mixed |= b->nsplit > 1 || b->min != b->max || (first && first != b->min);
		first = b->min;
	}
	return mixed;
}

static enum offgen_mode gen_mode(const struct job_desc *j)
{
	switch (j->random_distribution) {
	case DIST_ZIPF:
		return OFFGEN_ZIPF;
	case DIST_PARETO:
		return OFFGEN_PARETO;
	case DIST_NORMAL:
		return OFFGEN_NORMAL;
	default:
		return j->norandommap ? OFFGEN_UNIFORM : OFFGEN_PERM;
	}
}

/*
 * The fast path covers one file, one direction, one block size, no rw=..:N runs and
 * nothing that gates I/O; it turns both budgets into one count of I/Os.
 */
static void fast_path_init(struct worker *w)
{
	const struct job_desc *j = w->job;
	int d = plan_dir(w);
	const struct dir_bs *b = &j->bs[d];
	uint64_t n;

	w->plan_fast = w->nfiles == 1 && !rw_is_mixed(j->rw) && j->rw != RW_TRIMWRITE &&
		       j->verify == VERIFY_NONE &&
		       j->rw != RW_RANDTRIMWRITE && !j->rw_nr && !b->nsplit &&
		       b->min == b->max && !pace_gated(&w->pace) && !j->seq_cursor_shared;
	if (!w->plan_fast)
		return;
	w->fast_dir = d;
	w->fast_len = (uint32_t)b->min;
	n = w->bytes_left == UINT64_MAX ? UINT64_MAX : w->bytes_left / b->min;
	w->fast_left = n < w->ios_left ? n : w->ios_left;
}

/*
 * seq_cursor=shared: the clones take blocks of one stream over the job's files, end to
 * end, in one pass (or, time_based, round and round), as sysbench's sequential modes do.
 * The job's own budget no longer applies: the stream's end is the budget of them all.
 */
static void cursor_init(struct worker *w, uint64_t io_size)
{
	const struct job_desc *j = w->job;

	if (!j->seq_cursor_shared) {
		w->cursor = NULL;
		return;
	}
	w->cursor_span = 0;
	w->cursor_flen = w->files[0].io_len;
	for (unsigned i = 0; i < w->nfiles; i++) {
		w->cursor_span += w->files[i].io_len;
		if (w->files[i].io_len != w->cursor_flen)
			w->cursor_flen = 0;
	}
	w->cursor_end = j->time_based ? UINT64_MAX : io_size * j->loops;
	w->bytes_left = UINT64_MAX;
}

int plan_init(struct worker *w)
{
	const struct job_desc *j = w->job;
	uint64_t seed = seed_of(j), maxlen = job_bs_max(j), io_size = 0;
	bool cover;

	w->random = rw_is_random(j->rw);
	w->align = UINT64_MAX;
	for (int d = 0; d < IO_NDIR; d++) {
		if (!rw_does(j->rw, d))
			continue;
		if (j->blockalign[d] < w->align)
			w->align = j->blockalign[d];
	}
	rng_seed(&w->rng, seed);
	cover = needs_cover_map(w);
	for (unsigned i = 0; i < w->nfiles; i++) {
		struct io_file *f = &w->files[i];
		/* a map block is a start for any size: the I/O is cut at the region's end */
		uint64_t nblocks = cover ? f->io_len / w->align : (f->io_len - maxlen) / w->align + 1;

		io_size += f->io_len;
		memset(f->seq_pos, 0, sizeof(f->seq_pos));
		f->served = 0;
		f->writes_since_sync = 0;
		if (w->random)
			offgen_init(&f->gen, gen_mode(j), nblocks, j->dist_param,
				    seed ^ ((uint64_t)(i + 1) * 0xd1b54a32d192ed03ULL));
		free(f->covered);
		f->covered = cover ? calloc(cover_words(nblocks), sizeof(*f->covered)) : NULL;
		if (cover && !f->covered)
			return -ENOMEM;
	}
	/* With filesize=, size= no longer sizes files: it says how much I/O to do. */
	if (j->io_size)
		io_size = j->io_size;
	else if (j->filesize.hi && j->size.bytes)
		io_size = j->size.bytes;
	w->bytes_left = j->time_based ? UINT64_MAX : io_size * j->loops;
	w->ios_left = j->number_ios ? j->number_ios : UINT64_MAX;
	w->next_dir = -1;
	w->cur_file = 0;
	w->file_left = j->file_service_nr;
	w->sync_all = false;
	w->last_written = NULL;
	cursor_init(w, io_size);
	w->issuing = true;
	w->filling = true;
	fast_path_init(w);
	return 0;
}

int plan_dir(struct worker *w)
{
	const struct job_desc *j = w->job;

	switch (j->rw) {
	case RW_RW:
	case RW_RANDRW:
		if (j->rwmix_ratio) {
			/* sysbench: a read while reads+1 : writes+1 is below the ratio */
			uint64_t r = w->st->issued[IO_READ] + 1, wr = w->st->issued[IO_WRITE] + 1;

			return r * (100 - j->rwmixread) < wr * j->rwmixread ? IO_READ : IO_WRITE;
		}
		return rng_below(&w->rng, 100) < j->rwmixread ? IO_READ : IO_WRITE;
	case RW_READ:
	case RW_RANDREAD:
		return IO_READ;
	case RW_WRITE:
	case RW_RANDWRITE:
		return IO_WRITE;
	case RW_TRIM:
	case RW_RANDTRIM:
		return IO_TRIM;
	default:		/* trimwrite: a trim, then a write of the same block */
		return w->trim_done ? IO_WRITE : IO_TRIM;
	}
}

static uint32_t plan_len(struct worker *w, int d)
{
	const struct dir_bs *b = &w->job->bs[d];
	uint64_t p, acc = 0;

	if (!b->nsplit) {
		if (b->min == b->max)
			return (uint32_t)b->min;
		/* bsrange: a multiple of the minimum, up to the maximum. */
		return (uint32_t)(b->min * (1 + rng_below(&w->rng, b->max / b->min)));
	}
	p = rng_below(&w->rng, 100);
	for (unsigned i = 0; i < b->nsplit; i++) {
		acc += b->split[i].pct;
		if (p < acc)
			return b->split[i].bs;
	}
	return b->split[b->nsplit - 1].bs;
}

static struct io_file *plan_file(struct worker *w, uint32_t len)
{
	const struct job_desc *j = w->job;
	struct io_file *f = &w->files[w->cur_file];

	if (w->nfiles == 1)
		return f;
	switch (j->file_service) {
	case FSRV_SEQUENTIAL:
		/* Stay on a file for a whole pass over its region. */
		f->served += len;
		if (f->served >= f->io_len) {
			f->served = 0;
			w->cur_file = (w->cur_file + 1) % w->nfiles;
		}
		break;
	case FSRV_RANDOM:
		if (--w->file_left == 0) {
			w->file_left = j->file_service_nr;
			w->cur_file = (unsigned)rng_below(&w->rng, w->nfiles);
		}
		break;
	default:
		if (--w->file_left == 0) {
			w->file_left = j->file_service_nr;
			w->cur_file = (w->cur_file + 1) % w->nfiles;
		}
		break;
	}
	return f;
}

void plan_new_pass(struct worker *w, struct io_file *f)
{
	files_invalidate(w->job, f);
}

/* len cut to fit in room bytes, in whole minimum blocks; 0 when not even one fits. */
static uint32_t fit_len(const struct worker *w, int d, uint32_t len, uint64_t room)
{
	uint64_t min = w->job->bs[d].min;

	if (len <= room)
		return len;
	return (uint32_t)(room / min * min);
}

/*
 * Random I/O of mixed sizes with the random map, as fio's: blocks of the map (w->align
 * bytes) are drawn from the permutation, a block an earlier I/O covered is passed over,
 * and an I/O is cut where it would reach a covered block or the region's end, so a pass
 * covers every byte exactly once (without the map, 35% of a bsrange=4k-64k pass landed
 * on bytes already written and as much was never touched).
 */
static uint64_t cover_next(struct worker *w, struct io_file *f, uint32_t *lenp)
{
	uint64_t *map = f->covered, b, n, want;

	do {
		if (plan_pass_done(f)) {
			memset(map, 0, cover_words(f->gen.nblocks) * sizeof(*map));
			plan_new_pass(w, f);
		}
		b = offgen_next(&f->gen);
	} while (map[b / 64] >> (b % 64) & 1);
	want = *lenp / w->align;
	if (want > f->gen.nblocks - b)
		want = f->gen.nblocks - b;
	for (n = 0; n < want && !(map[(b + n) / 64] >> ((b + n) % 64) & 1); n++)
		map[(b + n) / 64] |= 1ULL << ((b + n) % 64);
	*lenp = (uint32_t)(n * w->align);
	return b * w->align;
}

/*
 * Sequential streams are per direction, as in fio: rw=rw reads and writes side by side.
 * A block of mixed sizes (bsrange, bssplit) that would run past the region's end is cut
 * to fit, as fio cuts it, so that a pass covers the region to its last block.
 */
static uint64_t plan_offset(struct worker *w, struct io_file *f, int d, uint32_t *lenp)
{
	const struct job_desc *j = w->job;
	uint32_t len = *lenp;
	uint64_t off;

	if (!w->random || w->rand_run_left) {
		off = f->seq_pos[d];
		if (off + len > f->io_len && off < f->io_len &&
		    fit_len(w, d, len, f->io_len - off))
			len = *lenp = fit_len(w, d, len, f->io_len - off);
		if (off + len > f->io_len) {
			off = 0;	/* wrap: time_based, loops, or io_size beyond size */
			plan_new_pass(w, f);
		}
		f->seq_pos[d] = off + len + (w->random ? 0 : j->rw_nr);
		if (w->rand_run_left)
			w->rand_run_left--;
		return off;
	}
	if (f->covered) {
		off = cover_next(w, f, lenp);
	} else {
		if (plan_pass_done(f))
			plan_new_pass(w, f);
		off = offgen_next(&f->gen) * w->align;
	}
	f->seq_pos[d] = off + *lenp;
	if (j->rw_nr > 1)
		w->rand_run_left = (unsigned)j->rw_nr - 1;
	return off;
}

/*
 * Make each write's data differ a little (scramble_buffers, fio's default) so that a
 * deduplicating device cannot skip it: one word per 512 bytes, not a whole refill.
 */
void plan_prepare_write(struct worker *w, struct io_req *r)
{
	const struct job_desc *j = w->job;

	if (j->zero_buffers || j->buffer_pattern_len)
		return;
	if (j->refill_buffers) {
		for (uint32_t i = 0; i + 8 <= r->len; i += 8) {
			uint64_t v = rng_next(&w->rng);

			memcpy(r->buf + i, &v, 8);
		}
	} else if (j->scramble_buffers) {
		uint64_t v = r->off ^ w->now;

		for (uint32_t i = 0; i + 8 <= r->len; i += 512)
			memcpy(r->buf + i, &v, 8);
	}
}

/* The next block of the shared stream: its file and offset; false at the stream's end. */
static bool cursor_next(struct worker *w, uint32_t *len, struct io_file **fp, uint64_t *off)
{
	uint64_t at = atomic_fetch_add_explicit(w->cursor, *len, memory_order_relaxed);
	unsigned i = 0;

	if (at >= w->cursor_end)
		return false;
	at %= w->cursor_span;
	if (w->cursor_flen) {
		i = (unsigned)(at / w->cursor_flen);
		at %= w->cursor_flen;
	} else {
		for (; at >= w->files[i].io_len; i++)
			at -= w->files[i].io_len;
	}
	/* a block that would cross into the next file ends with this one */
	if (at + *len > w->files[i].io_len)
		*len = (uint32_t)(w->files[i].io_len - at);
	*fp = &w->files[i];
	*off = at;
	return true;
}

/*
 * fsync_every_ios: every N I/Os of the job and its clones, of any direction, sync the
 * file last written or (fsync_scope=all_files) every file, as sysbench's fsync-freq does.
 * The clone that makes the Nth I/O syncs whatever it did since: the count is shared, so
 * asking whether this clone wrote would make the number of syncs depend on scheduling.
 */
static void count_for_sync(struct worker *w, struct io_file *f, int d)
{
	const struct job_desc *j = w->job;
	uint64_t n = atomic_fetch_add_explicit(w->ios_shared, 1, memory_order_relaxed) + 1;

	if (d == IO_WRITE)
		w->last_written = f;
	if (n % j->fsync_every_ios || !rw_does(j->rw, IO_WRITE))
		return;
	w->sync_kind = IO_FSYNC;
	w->sync_all = j->fsync_scope == FSYNC_SCOPE_ALL;
	w->sync_due = w->sync_all || !w->last_written ? &w->files[0] : w->last_written;
}

static void schedule_sync(struct worker *w, struct io_file *f)
{
	const struct job_desc *j = w->job;

	f->writes_since_sync++;
	if (j->fsync_every && f->writes_since_sync >= j->fsync_every) {
		w->sync_due = f;
		w->sync_kind = IO_FSYNC;
		f->writes_since_sync = 0;
	} else if (j->fdatasync_every && f->writes_since_sync >= j->fdatasync_every) {
		w->sync_due = f;
		w->sync_kind = IO_FDATASYNC;
		f->writes_since_sync = 0;
	}
}

bool plan_io_general(struct worker *w, struct io_req *r)
{
	const struct job_desc *j = w->job;
	int d = w->next_dir >= 0 ? w->next_dir : plan_dir(w);
	struct io_file *f;
	uint64_t off;
	uint32_t len;

	w->next_dir = -1;
	if (w->verify) {
		switch (verify_plan(w, r)) {
		case VP_READ:
			return true;
		case VP_END:
			return false;
		default:
			break;
		}
	}
	if (!w->ios_left)
		return false;
	if (d == IO_WRITE && w->trim_done) {
		f = w->tw_file;
		off = w->tw_off;
		len = w->tw_len;
		w->trim_done = false;
	} else {
		/* the last block of the job's bytes is cut to what is left, as the region's */
		len = fit_len(w, d, plan_len(w, d), w->bytes_left);
		if (!len)
			return false;
		if (w->cursor) {
			if (!cursor_next(w, &len, &f, &off))
				return false;
		} else {
			f = plan_file(w, len);
			off = plan_offset(w, f, d, &len);
		}
		if (j->rw == RW_TRIMWRITE || j->rw == RW_RANDTRIMWRITE) {
			w->tw_file = f;
			w->tw_off = off;
			w->tw_len = len;
			w->trim_done = true;
		}
	}
	/* trimwrite's trims come on top of its writes, as in fio: only writes use the budget. */
	if (w->bytes_left != UINT64_MAX && !(d == IO_TRIM && w->trim_done))
		w->bytes_left -= len;
	if (w->ios_left != UINT64_MAX)
		w->ios_left--;
	r->file = f;
	r->dir = d;
	r->off = f->io_off + off;
	r->len = r->full_len = len;
	r->buf = r->buf_base;
	r->resubmit = false;
	w->st->issued[d]++;
	pace_count_issue(&w->pace, d, len);
	if (d == IO_WRITE) {
		if (w->verify)
			verify_prepare_write(w, r);
		else
			plan_prepare_write(w, r);
		if (j->fsync_every || j->fdatasync_every)
			schedule_sync(w, f);
	}
	if (j->fsync_every_ios)
		count_for_sync(w, f, d);
	return true;
}

void plan_sync(struct worker *w, struct io_req *r)
{
	r->file = w->sync_due;
	r->dir = w->sync_kind;
	r->off = 0;
	r->len = r->full_len = 0;
	r->buf = r->buf_base;
	r->resubmit = false;
	w->sync_due = NULL;
	if (w->sync_all) {
		unsigned next = (unsigned)(r->file - w->files) + 1;

		w->sync_all = next < w->nfiles;
		w->sync_due = w->sync_all ? &w->files[next] : NULL;
	}
	/* fio counts fsync= syncs alone: fdatasync= ones only time, end_fsync not at all */
	w->st->sync_ios++;
	if (r->dir == IO_FSYNC && !w->ending)
		w->st->fsync_ios++;
}

void plan_fill_buffers(struct worker *w)
{
	const struct job_desc *j = w->job;
	size_t total = w->eng.nreqs * w->eng.buf_size;
	unsigned char *p = w->eng.bufs;

	if (j->zero_buffers) {
		memset(p, 0, total);
	} else if (j->buffer_pattern_len) {
		/* Each buffer starts the pattern afresh, as in fio, whatever its slot. */
		for (size_t i = 0; i < total; i++)
			p[i] = j->buffer_pattern[i % w->eng.buf_size % j->buffer_pattern_len];
	} else {
		for (size_t i = 0; i + 8 <= total; i += 8) {
			uint64_t v = rng_next(&w->rng);

			memcpy(p + i, &v, 8);
		}
	}
}
