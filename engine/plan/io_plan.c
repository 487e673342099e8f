/* What a job issues next: direction, file, block size, offset and write data. */
#include "engine/plan/io_plan.h"

#include "base/bits.h"
#include "engine/plan/files.h"
#include "engine/observe/iolog_write.h"
#include "engine/plan/io_plan_offsets.h"
#include "engine/loop/pace.h"
#include "engine/plan/replay.h"
#include "engine/plan/sprandom.h"
#include "engine/plan/zbd.h"
#include "engine/verify/verify.h"
#include "engine/worker.h"
#include "jobs/replay_log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* randseed is this run's own with randrepeat=0 (jobs/build.c). */
static uint64_t seed_of(const struct job_desc *j)
{
	/* Clones and sections get different, but repeatable, sequences. */
	return j->randseed * 0x9e3779b97f4a7c15ULL + (uint64_t)j->jobnum * 0xbf58476d1ce4e5b9ULL +
	       (uint64_t)j->section * 0x94d049bb133111ebULL;
}

/*
 * Whether a random job needs the map of covered blocks: it draws from the permutation
 * (the random map is on) and its I/Os come in more than one size, each a whole number of
 * map blocks. One size needs no map: the permutation alone visits each block once.
 */
static bool needs_cover_map(const struct worker *w)
{
	const struct job_desc *j = w->job;
	uint64_t first = 0, align = w->plan.align;
	bool mixed = false;

	/* lfsr has no map in fio either: it may repeat blocks when sizes mix */
	if (!w->plan.random || j->norandommap || j->random_distribution != DIST_RANDOM ||
	    j->random_generator == RANDGEN_LFSR || j->zonemode == ZONE_STRIDED)
		return false;
	for (int d = 0; d < IO_NDIR; d++) {
		const struct dir_bs *b = &j->bs[d];

		if (!rw_does(j->rw, d))
			continue;
		if (b->min % align || b->max % align || j->blockalign[d] % align)
			return false;
		for (unsigned i = 0; i < b->nsplit; i++)
			if (b->split[i].bs % align)
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
		/* lfsr: a permutation, which visits each block once without any map */
		return j->norandommap && j->random_generator != RANDGEN_LFSR ? OFFGEN_UNIFORM :
									 OFFGEN_PERM;
	}
}

/*
 * Whether the job takes one of fio's rarer forms of offsets, which plan_offset() handles
 * apart: strided zones, zoned draws, random jobs partly sequential, sequential skips.
 */
static bool extra_offsets(const struct job_desc *j)
{
	bool perc = false;

	for (int d = 0; d < IO_NDIR; d++)
		perc |= rw_does(j->rw, d) && j->percentage_random[d] < 100;
	return j->zonemode != ZONE_NONE || j->sprandom || j->random_distribution == DIST_ZONED ||
	       j->random_distribution == DIST_ZONED_ABS ||
	       j->random_distribution == DIST_SEQUENCE || (perc && rw_is_random(j->rw));
}

/*
 * The fast path covers one file, one direction, one block size, no rw=..:N runs and
 * nothing that gates I/O; it turns both budgets into one count of I/Os.
 */
static void fast_path_init(struct worker *w)
{
	const struct job_desc *j = w->job;
	struct io_plan *p = &w->plan;
	/* a mixed job is never fast: no rwmix draw taken from its sequence (loops_repeat()) */
	int d = rw_is_mixed(j->rw) ? IO_READ : plan_dir(w);
	const struct dir_bs *b = &j->bs[d];
	uint64_t n;

	p->fast = w->nfiles == 1 && !rw_is_mixed(j->rw) && j->rw != RW_TRIMWRITE &&
		  j->verify == VERIFY_NONE &&
		  j->rw != RW_RANDTRIMWRITE && !j->rw_nr && !b->nsplit &&
		  b->min == b->max && !pace_gated(&w->pace) && !j->seq_cursor_shared &&
		  !p->extra && !j->sfr_every && !p->loops_left && !j->lockfile && !p->iolog;
	if (!p->fast)
		return;
	p->fast_dir = d;
	p->fast_len = (uint32_t)b->min;
	n = p->bytes_left == UINT64_MAX ? UINT64_MAX : p->bytes_left / b->min;
	p->fast_left = n < p->ios_left ? n : p->ios_left;
}

/*
 * seq_cursor=shared: the clones take blocks of one stream over the job's files, end to
 * end, in one pass (or, time_based, round and round), as sysbench's sequential modes do.
 * The job's own budget no longer applies: the stream's end is the budget of them all.
 */
static void cursor_init(struct worker *w, uint64_t io_size)
{
	const struct job_desc *j = w->job;
	struct io_plan *p = &w->plan;

	if (!j->seq_cursor_shared) {
		p->cursor = NULL;
		return;
	}
	p->cursor = w->seq_cursor;
	p->cursor_span = 0;
	p->cursor_flen = w->files[0].io_len;
	for (unsigned i = 0; i < w->nfiles; i++) {
		p->cursor_span += w->files[i].io_len;
		if (w->files[i].io_len != p->cursor_flen)
			p->cursor_flen = 0;
	}
	p->cursor_end = j->time_based ? UINT64_MAX : io_size * j->loops;
	p->bytes_left = UINT64_MAX;
}

/*
 * Whether each loop= loop ends as a job does, as fio runs them: number_ios counts each
 * loop's I/Os (fio: loops=3 number_ios=100 does 300), and end_fsync and fsync_on_close
 * sync the files after each loop's writes (fio closes the files between loops).
 */
static bool loop_ends_matter(const struct job_desc *j)
{
	return j->number_ios || ((j->end_fsync || j->fsync_on_close) && job_modifies(j));
}

/*
 * Whether files have passes that end: sequential I/O, and random I/O from the permutation
 * or with the map of covered blocks (its draws uniform, its pass over when the map is
 * full). Uniform draws without a map (norandommap), the skewed distributions and the
 * zoned ones never end a pass; nor does a skewed file service's file (zipf, pareto,
 * normal), whose full map starts again at once, as fio resets it for them.
 */
static bool files_have_passes(const struct worker *w)
{
	const struct plan_file *pf = &w->plan.files[0];

	return !w->plan.random || pf->covered ||
	       (pf->gen.mode == OFFGEN_PERM && w->job->random_distribution == DIST_RANDOM &&
		w->job->file_service < FSRV_ZIPF);
}

/*
 * Random I/O with the map, as fio's: a file's pass ends when its map is full, and once
 * every file's has, the loop, even short of its bytes. That is before size= where a pass
 * holds less: bs_unaligned's I/O of 1.5k takes two 1k blocks of the map; size= split over
 * files in whole bytes (1m over three: 349525 each) leaves each a tail of less than a
 * block (iojob drew a block more, starting a file's next pass). fio goes on only under
 * time_based or io_size; where regions hold whole blocks, passes and bytes end together.
 * Under openfiles= the window ends the loop when its last file is done (file_window.c).
 */
static bool passes_end_loops(const struct worker *w)
{
	const struct job_desc *j = w->job;
	const struct io_plan *p = &w->plan;
	bool short_pass = false;

	if (!p->random || p->extra || !files_have_passes(w) || j->time_based ||
	    j->io_size || j->io_size_pct)
		return false;
	for (unsigned i = 0; i < w->nfiles; i++) {
		uint64_t len = w->files[i].io_len;

		short_pass |= p->files[i].covered ? (j->bs_unaligned || len % p->align) :
						    len % job_bs_max(j) != 0;
	}
	return short_pass;
}

/*
 * Sequential I/O over several files, as fio's: a file's pass ends when one of its streams
 * (rw=rw reads and writes each have one) has no room left for its next block, whatever
 * the other has done; the job moves to the next file, and once every file's pass is over
 * all start again. rw=rw bs=4k over two files with openfiles=1: 128 reads and 121 writes
 * on the first, where counting both directions' bytes against the region switched files
 * at 64 and 64. Writes beyond size= (io_size) wrap in their file, as fio's do.
 */
static bool seq_streams_end(const struct worker *w, uint64_t region)
{
	const struct job_desc *j = w->job;
	uint64_t want = j->io_size ? j->io_size : 0;

	return !w->plan.random && w->nfiles > 1 && !j->seq_cursor_shared && !j->rw_nr &&
	       j->zonemode != ZONE_STRIDED && !(rw_does(j->rw, IO_WRITE) && want > region);
}

/*
 * seq_ends: when every file's pass is over, the loop is too, as fio's (it goes on only
 * under time_based or io_size): rw=write bs=16k size=1m over three files of 349525 bytes
 * does 63 blocks, where iojob started the files again for a 64th.
 */
static bool seq_loop_ends(const struct worker *w)
{
	const struct job_desc *j = w->job;

	return !j->time_based && !j->io_size && !j->io_size_pct;
}

/* The files' cursors, each file's region from its start; the sum of the regions. */
static int files_init(struct worker *w, uint64_t seed, uint64_t *io_size)
{
	const struct job_desc *j = w->job;
	struct io_plan *p = &w->plan;
	uint64_t maxlen = job_bs_max(j), align = p->align;
	bool cover = needs_cover_map(w);
	int ret;

	p->files = calloc(w->nfiles, sizeof(*p->files));
	if (!p->files)
		return -ENOMEM;
	*io_size = 0;
	for (unsigned i = 0; i < w->nfiles; i++) {
		const struct io_file *f = &w->files[i];
		struct plan_file *pf = &p->files[i];
		/* random offsets fall in a strided zone's range, or in the region */
		uint64_t span = j->zonemode == ZONE_STRIDED ? j->zone_range : f->io_len;
		/* a map block is a start for any size: the I/O is cut at the region's end */
		uint64_t nblocks = cover ? span / align :
				   span >= maxlen ? (span - maxlen) / align + 1 : 0;

		*io_size += f->io_len;
		/*
		 * With the map of covered blocks, blocks are drawn as fio draws them, each at
		 * random whether drawn before or not: a covered one gives way to the next
		 * hole's start. A permutation drew free blocks more often as the map filled,
		 * starting I/Os inside holes and cutting them into more small pieces (bssplit
		 * 4k/20:8k/30:16k/50: 43% 4k where fio issues 39%).
		 */
		if (p->random)
			offgen_init(&pf->gen, cover ? OFFGEN_UNIFORM : gen_mode(j), nblocks,
				    j->dist_param, j->dist_center,
				    seed ^ ((uint64_t)(i + 1) * 0xd1b54a32d192ed03ULL));
		ret = plan_zones_init(w, i);
		if (!ret)
			ret = plan_sequence_check(w, i);
		if (ret < 0)
			return ret;
		pf->covered = cover ? calloc(bits_words(nblocks), sizeof(*pf->covered)) : NULL;
		if (cover && !pf->covered && !j->softrandommap)
			return -ENOMEM;
	}
	return 0;
}

/* read_iolog replaces the planner; write_iolog records what it plans. */
static int iolog_init(struct worker *w)
{
	const struct job_desc *j = w->job;
	struct io_plan *p = &w->plan;
	int ret = 0;

	p->iolog = j->replay || j->write_iolog;
	if (j->replay) {
		p->bytes_left = j->replay->bytes;	/* for the status line */
		ret = replay_start(w);
	} else if (j->write_iolog && !p->rec) {
		ret = iolog_write_start(w);	/* once: experimental_verify plans again */
	}
	if (ret == -ENOMEM && !w->error_msg[0])
		snprintf(w->error_msg, sizeof(w->error_msg), "job '%s': out of memory", j->name);
	return ret;
}

/*
 * randrepeat=1 (and no randseed=), as fio's: each loop draws what the first drew, offsets,
 * sizes and mixes, since fio seeds its generators again when a loop starts (loops=2 of
 * rw=randread bsrange=4k-16k reads the same blocks in the same sizes twice). A pass of a
 * time_based random job is no loop: fio clears its map and draws on.
 */
static void loops_repeat(struct worker *w)
{
	const struct job_desc *j = w->job;
	struct io_plan *p = &w->plan;

	p->repeat = j->randrepeat && !job_setting(j, "randseed");
	p->rng_start = w->rng;
	for (unsigned i = 0; i < w->nfiles && p->random; i++)
		p->files[i].gen.repeat = p->repeat && !j->time_based;
}

/* A loop starts: the worker's draws again from the first loop's start (loops_repeat()). */
static void loop_reseed(struct worker *w)
{
	if (w->plan.repeat)
		w->rng = w->plan.rng_start;
}

/*
 * A random pass over the one file just ended, its map full: fio's loop over it ended too
 * (io_size beyond size runs it again, seeded again), so the next pass draws the sizes and
 * mixes of the first. The offsets repeat by themselves (offgen's repeat).
 */
static void pass_reseed(struct worker *w)
{
	if (w->nfiles == 1 && !w->job->time_based)
		loop_reseed(w);
}

/*
 * file_service_type=zipf, pareto or normal, as fio draws files: over 1024 ranks a file,
 * ranks in order (the first file's first), turned by :CENTER, or without one by a seeded
 * random share for zipf and pareto (so the hot file is any of them) and not at all for
 * normal (centred on the middle file).
 */
#define FILE_RANKS_SHIFT	10

static void file_gen_init(struct worker *w, uint64_t seed)
{
	const struct job_desc *j = w->job;
	struct offgen *g = &w->plan.file_gen;
	int mode = j->file_service == FSRV_ZIPF ? OFFGEN_ZIPF :
		   j->file_service == FSRV_PARETO ? OFFGEN_PARETO : OFFGEN_NORMAL;

	offgen_init(g, mode, (uint64_t)w->nfiles << FILE_RANKS_SHIFT, j->file_service_param,
		    j->file_service_center, seed ^ 0xf11e5e7f1ce5ULL);
	if (j->file_service_center < 0 && mode != OFFGEN_NORMAL)
		g->rot = rng_below(&g->rng, g->nblocks);
}

unsigned plan_draw_file(struct worker *w)
{
	if (w->job->file_service == FSRV_RANDOM)
		return (unsigned)rng_below(&w->rng, w->nfiles);
	return (unsigned)(offgen_rank(&w->plan.file_gen) >> FILE_RANKS_SHIFT);
}

/*
 * A writing job that verifies, with io_size past its region: fio writes the region, reads
 * it back, and goes on to another pass only while its writes and reads together are short
 * of io_size, so io_size counts the reads too: size=4M io_size=12M writes 8 MiB and reads 8
 * (iojob wrote 12 and read back the last 4). Those passes are the job's loops, of the
 * region each; the count of loops, and *io_size the bytes of one, for any other job as is.
 * Random draws that never end a pass (norandommap) write all of io_size at once, as fio's.
 */
static unsigned verify_passes(const struct worker *w, uint64_t *io_size, uint64_t region)
{
	const struct job_desc *j = w->job;

	if (j->verify == VERIFY_NONE || !j->do_verify || j->verify_only ||
	    j->experimental_verify || !rw_does(j->rw, IO_WRITE) || rw_does(j->rw, IO_READ) ||
	    rw_does(j->rw, IO_TRIM) || j->time_based || j->loops != 1 || !j->io_size ||
	    j->sprandom || !region || *io_size <= region || !files_have_passes(w))
		return j->loops;
	*io_size = region;
	return (unsigned)((j->io_size + 2 * region - 1) / (2 * region));
}

int plan_init(struct worker *w)
{
	const struct job_desc *j = w->job;
	struct io_plan *p = &w->plan;
	uint64_t seed = seed_of(j), io_size, region;
	unsigned loops;
	bool empty;
	int ret;

	p->random = rw_is_random(j->rw);
	p->align = UINT64_MAX;
	for (int d = 0; d < IO_NDIR; d++) {
		if (!rw_does(j->rw, d))
			continue;
		if (j->blockalign[d] < p->align)
			p->align = j->blockalign[d];
	}
	rng_seed(&w->rng, seed);
	ret = files_init(w, seed, &io_size);
	if (ret < 0)
		return ret;
	if (j->file_service >= FSRV_ZIPF)
		file_gen_init(w, seed);
	empty = !io_size;
	region = io_size;
	for (unsigned i = 0; i < w->nfiles; i++)	/* zbd: the bytes asked, as fio */
		if (w->files[i].asked_len)
			io_size += w->files[i].asked_len - w->files[i].io_len;
	if (j->io_size_pct) {
		/* io_size=N%: of each file's region, as fio takes it */
		io_size = 0;
		for (unsigned i = 0; i < w->nfiles; i++)
			io_size += w->files[i].io_len * j->io_size_pct / 100;
	} else if (j->io_size) {
		io_size = j->io_size;
	} else if (j->filesize.hi && j->size.bytes && j->size.bytes < io_size) {
		/* with filesize=, size= no longer sizes files: it bounds the I/O, as in fio */
		io_size = j->size.bytes;
	} else if (!j->filesize.hi && j->size.bytes > io_size &&
		   j->size.bytes - io_size < w->nfiles &&
		   ((seq_streams_end(w, region) && rw_is_mixed(j->rw)) || !files_have_passes(w))) {
		/*
		 * size= split over files in whole bytes (1m over three: 349525 each) loses the
		 * remainder. Where no pass ends a file, fio does size= in all, its bytes being
		 * the limit: random draws without the map (blockalign=8k bs=2k: 512 writes,
		 * iojob stopped at 511), and sequential streams of both directions (rw=rw
		 * bs=16k: 64 blocks; 63)
		 */
		io_size = j->size.bytes;
	}
	if (j->sprandom) {
		/* fio HEAD's: the budget is the physical capacity, whatever io_size said */
		ret = sprandom_init(w, &io_size);
		if (ret < 0)
			return ret;
	}
	loops = verify_passes(w, &io_size, region);
	p->bytes_left = j->time_based ? UINT64_MAX : io_size * loops;
	p->loop_size = !j->time_based && loops > 1 ? io_size : 0;
	p->sync_again = NULL;
	p->writes = 0;
	p->extra = extra_offsets(j);
	p->zbd = j->zonemode == ZONE_ZBD;
	p->zone_bytes = 0;
	/*
	 * A skipping or strided pass may end before the region's bytes are done: then the job
	 * ends, as fio's keep_running() has it, unless loops, time_based or io_size in bytes
	 * ask for more.
	 */
	p->passes_left = j->time_based || j->io_size ? UINT32_MAX : j->loops - 1;
	/*
	 * One loop at a time: unlink_each_loop's, the files deleted between them; a
	 * verifying job's, each loop's writes read back before the next, as fio does
	 * (experimental_verify replays every write of the job at its end instead); a job
	 * whose loops end in a sync or a count (loop_ends_matter), or with its maps full
	 * or its files' streams at their ends (passes_end_loops(), seq_loop_ends()).
	 */
	p->loops_left = 0;
	p->verify_loops = j->verify != VERIFY_NONE && j->do_verify && !j->verify_only &&
			  rw_does(j->rw, IO_WRITE) && !j->experimental_verify;
	p->pass_ends = passes_end_loops(w);
	p->seq_ends = seq_streams_end(w, region);
	p->seq_stop = p->seq_ends && seq_loop_ends(w);
	p->file_done = false;
	if ((j->unlink_each_loop || p->verify_loops || loop_ends_matter(j) || p->pass_ends ||
	     p->seq_stop) &&
	    !j->time_based &&
	    loops > 1 && !j->seq_cursor_shared) {
		p->bytes_left = p->loop_bytes = io_size;
		p->loops_left = loops - 1;
	} else {
		p->verify_loops = false;
	}
	p->ios_left = j->number_ios ? j->number_ios : UINT64_MAX;
	if (empty) {
		/* a clone whose offset_increment starts it past its files' end: no I/O, as fio */
		p->bytes_left = p->ios_left = 0;
		p->loops_left = 0;
	}
	p->next_dir = -1;
	p->cur_file = 0;
	p->file_left = j->file_service_nr;
	p->sync_all = false;
	p->last_written = NULL;
	cursor_init(w, io_size);
	ret = iolog_init(w);
	if (ret < 0)
		return ret;
	loops_repeat(w);
	fast_path_init(w);
	return window_init(w);
}

bool plan_next_loop(struct worker *w)
{
	struct io_plan *p = &w->plan;
	/*
	 * A loop number_ios cut short left its files part done: as fio, which starts a file
	 * over only once it is done, the next loop goes on where this one stopped
	 * (loops=3 number_ios=5 over 16 blocks writes blocks 0 to 14).
	 */
	bool cut = !p->ios_left && p->bytes_left && !w->job->unlink_each_loop;

	if (!p->loops_left)
		return false;
	p->loops_left--;
	loop_reseed(w);
	p->bytes_left = p->loop_bytes;
	p->ios_left = w->job->number_ios ? w->job->number_ios : UINT64_MAX;
	p->rand_run_left = 0;
	p->next_dir = -1;
	if (cut)
		return true;
	p->cur_file = 0;
	p->file_left = w->job->file_service_nr;
	for (unsigned i = 0; i < w->nfiles; i++) {
		struct plan_file *pf = &p->files[i];

		memset(pf->seq_pos, 0, sizeof(pf->seq_pos));
		pf->served = pf->sfr_writes = 0;
	}
	p->files_spent = 0;
	for (unsigned i = 0; i < w->nfiles; i++)
		zbd_pass(w, &w->files[i]);
	window_reset(w);
	return true;
}

void plan_free(struct worker *w)
{
	struct io_plan *p = &w->plan;

	window_free(w);
	for (unsigned i = 0; p->files && i < w->nfiles; i++) {
		free(p->files[i].covered);
		plan_zones_free(&p->files[i]);
	}
	free(p->files);
	p->files = NULL;
	sprandom_free(p->spr);
	p->spr = NULL;
	replay_free(w);
	iolog_write_free(w);
}

void plan_end(struct worker *w)
{
	iolog_write_end(w);
	iolog_write_free(w);
}

int plan_next_dir(struct worker *w)
{
	if (w->plan.next_dir < 0)
		w->plan.next_dir = plan_dir(w);
	return w->plan.next_dir;
}

void plan_set_next_dir(struct worker *w, int d)
{
	w->plan.next_dir = d;
}

uint64_t plan_budget_bytes(const struct worker *w)
{
	const struct io_plan *p = &w->plan;

	if (p->fast && p->fast_left != UINT64_MAX)
		return p->fast_left * p->fast_len;
	return p->bytes_left;
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
		return w->plan.trim_done ? IO_WRITE : IO_TRIM;
	}
}

/*
 * bsrange: fio's draw, min plus up to max, down to a multiple of min (bs_unaligned: any
 * length), capped at max. So bsrange=4k-64k is uniform over the multiples, and where max
 * is not one (4k-10k: 4k, 8k, 10k at 40/40/20%) or with bs_unaligned (1k-9k: 9k as often
 * as each 1k step below it) the sizes come as often as in fio.
 */
static uint32_t range_len(struct worker *w, const struct dir_bs *b)
{
	uint64_t len = b->min + (uint64_t)((double)b->max * rng_unit(&w->rng));

	if (!w->job->bs_unaligned)
		len -= len % b->min;
	return (uint32_t)(len < b->max ? len : b->max);
}

static uint32_t plan_len(struct worker *w, int d)
{
	const struct dir_bs *b = &w->job->bs[d];
	uint64_t p, acc = 0;

	if (!b->nsplit) {
		if (b->min == b->max)
			return (uint32_t)b->min;
		return range_len(w, b);
	}
	p = rng_below(&w->rng, 100);
	for (unsigned i = 0; i < b->nsplit; i++) {
		acc += b->split[i].pct;
		if (p < acc)
			return b->split[i].bs;
	}
	return b->split[b->nsplit - 1].bs;
}


/* A new round once every file has had its pass: each may take its share again. */
static void files_new_round(struct worker *w)
{
	struct io_plan *p = &w->plan;

	for (unsigned i = 0; i < w->nfiles; i++)
		p->files[i].served = 0;
	p->files_spent = 0;
}

/*
 * The next file after i that has not had its pass this round, drawn for
 * file_service_type=random, zipf, pareto and normal. As fio, which passes over files that are done, a file whose
 * pass ended is not picked again until all have had theirs: picking it would start its
 * next pass while another file's first one is still short (nrfiles=4 at random left
 * 96-136 KiB of each pass unwritten and wrote as much twice).
 */
static unsigned next_file(struct worker *w, unsigned i)
{
	struct io_plan *p = &w->plan;
	unsigned n = w->nfiles, k;

	if (p->files_spent == n)
		files_new_round(w);
	if (w->job->file_service >= FSRV_RANDOM) {
		/* a few draws, as fio's retries; then the next after the last draw */
		for (int tries = 0; tries < 8; tries++) {
			i = plan_draw_file(w);
			if (p->files[i].served < w->files[i].io_len)
				return i;
		}
		i = (i + n - 1) % n;
	}
	for (k = 1; k < n && p->files[(i + k) % n].served >= w->files[(i + k) % n].io_len; k++)
		;
	return (i + k) % n;
}

/*
 * The file planned I/O of len bytes went to, counted: file_service moves on to the next
 * file after file_service_nr I/Os, or when this one has had its pass (sequential: only
 * then). After the offset is planned, so that a length cut to fit is counted as cut.
 */
static void plan_file_served(struct worker *w, unsigned i, uint32_t len)
{
	const struct job_desc *j = w->job;
	struct io_plan *p = &w->plan;
	struct plan_file *pf = &p->files[i];
	uint64_t size = w->files[i].io_len;

	if (w->nfiles == 1)
		return;
	if (p->seq_ends) {
		/* the streams end the files' passes (seq_file_over()); turns as asked */
		if (j->file_service != FSRV_SEQUENTIAL && --p->file_left == 0) {
			p->file_left = j->file_service_nr;
			p->cur_file = next_file(w, i);
		}
		return;
	}
	if (j->file_service == FSRV_SEQUENTIAL) {
		pf->served += len;
		if (pf->served >= size) {
			pf->served = 0;
			p->cur_file = (p->cur_file + 1) % w->nfiles;
		}
		return;
	}
	if (!files_have_passes(w)) {
		if (--p->file_left == 0) {
			p->file_left = j->file_service_nr;
			p->cur_file = j->file_service >= FSRV_RANDOM ? plan_draw_file(w) :
				      (p->cur_file + 1) % w->nfiles;
		}
		return;
	}
	pf->served += len;
	if (pf->served >= size && pf->served - len < size)
		p->files_spent++;
	if (--p->file_left == 0 || pf->served >= size) {
		p->file_left = j->file_service_nr;
		p->cur_file = next_file(w, i);
	}
}

void plan_new_pass(struct worker *w, struct io_file *f)
{
	files_invalidate(w->job, f);
	zbd_pass(w, f);
	/* the cache drop's time is no I/O's: what is planned next is stamped from here */
	w->now = clock_ticks(w->clk);
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
 * The next I/O's length within the job's bytes: near their end a size that would pass them
 * gives way to another drawn, so the job does its whole size in the sizes asked for; one
 * is cut to what is left only after 64 draws that do not fit.
 */
static uint32_t budget_len(struct worker *w, int d)
{
	uint64_t left = w->plan.bytes_left, len = plan_len(w, d);

	for (int tries = 0; len > left && w->job->bs[d].min <= left && tries < 64; tries++)
		len = plan_len(w, d);
	return fit_len(w, d, (uint32_t)len, left);
}

/*
 * The first block from b on (wrapping at last) that is free and a multiple of k, as fio's
 * axmap_next_free(); UINT64_MAX when there is none: another direction's smaller blocks
 * hold the rest of the pass.
 */
static uint64_t map_next_free(const uint64_t *map, uint64_t b, uint64_t last, uint64_t k)
{
	for (uint64_t tries = 0, i = b; tries < 2; tries++, i = 0) {
		while (i <= last) {
			uint64_t word = ~map[i / 64] >> (i % 64);

			if (!word) {
				i = (i / 64 + 1) * 64;	/* a whole word covered */
				continue;
			}
			i += (uint64_t)__builtin_ctzll(word);
			if (i > last)
				break;
			if (i % k == 0)
				return i;
			i = (i / k + 1) * k;
		}
	}
	return UINT64_MAX;
}

/* How many of blocks b..b+n-1 are free in a row from b: what an I/O there may cover. */
static uint64_t map_free_run(const uint64_t *map, uint64_t b, uint64_t n)
{
	uint64_t i = 0;

	while (i < n && !bits_test(map, b + i))
		i++;
	return i;
}

static void map_mark(struct plan_file *pf, uint64_t b, uint64_t n)
{
	for (uint64_t i = b; i < b + n; i++) {
		if (!bits_test(pf->covered, i)) {
			bits_set(pf->covered, i);
			pf->ncovered++;
		}
	}
}

/*
 * Random I/O of mixed sizes with the random map, as fio's: a block is drawn (aligned to
 * the direction's blockalign); a covered one gives way to the next free one after it, so
 * I/Os start where holes start; the length, drawn before, is drawn again until it fits
 * before the region's end; and an I/O that would reach a covered block is cut there, in
 * whole minimum blocks of its direction and never below one. So a pass covers each byte
 * once while the sizes keep the mix asked for: cutting every I/O at the first covered
 * block of a random start (d53e42d) issued 4k where 16k were asked (randrw bs=4k,16k).
 */
static uint64_t cover_next(struct worker *w, unsigned fi, int d, uint32_t *lenp)
{
	const struct job_desc *j = w->job;
	struct plan_file *pf = &w->plan.files[fi];
	uint64_t align = w->plan.align, nb = pf->gen.nblocks, min = j->bs[d].min;
	uint64_t k = j->blockalign[d] / align, room = nb * align, last, b, free;
	uint32_t len = *lenp;

	if (pf->ncovered == nb) {
		memset(pf->covered, 0, bits_words(nb) * sizeof(*pf->covered));
		pf->ncovered = 0;
		offgen_new_pass(&pf->gen);
		plan_new_pass(w, &w->files[fi]);
	}
	/* the last start where the direction's smallest block still fits */
	last = (min <= room ? (room - min) / align : 0) / k * k;
	b = offgen_next(&pf->gen) / k * k;
	if (b > last)
		b = last;
	if (bits_test(pf->covered, b)) {
		free = map_next_free(pf->covered, b, last, k);
		b = free == UINT64_MAX ? b : free;
	}
	for (int tries = 0; b * align + len > room && tries < 64; tries++)
		len = budget_len(w, d);
	if (b * align + len > room)
		len = fit_len(w, d, len, room - b * align);
	free = map_free_run(pf->covered, b, (len + align - 1) / align);	/* bs_unaligned */
	if (free * align < len)
		len = (uint32_t)(free * align >= min ? free * align / min * min : min);
	map_mark(pf, b, (len + align - 1) / align);
	*lenp = len;
	if (pf->ncovered == nb)
		pass_reseed(w);
	return b * align;
}

/*
 * Sequential streams are per direction, as in fio: rw=rw reads and writes side by side.
 * A block of mixed sizes (bsrange, bssplit) that would run past the region's end gives
 * way to another drawn, as fio draws again, so that a pass goes to the region's last
 * block in the sizes asked for; one cut to fit only after 64 draws that do not.
 */
static uint64_t seq_offset(struct worker *w, unsigned fi, int d, uint32_t *lenp)
{
	struct plan_file *pf = &w->plan.files[fi];
	struct io_file *f = &w->files[fi];
	uint32_t len = *lenp;
	uint64_t off = pf->seq_pos[d];

	if (w->job->zonemode == ZONE_STRIDED) {
		/* plan_zone_step() keeps it within the zone */
		pf->seq_pos[d] = off + len;
		return off;
	}
	/* as fio's: another length drawn while the one drawn would run past the end */
	for (int tries = 0; off + len > f->io_len && off + w->job->bs[d].min <= f->io_len &&
	     tries < 64; tries++)
		len = *lenp = budget_len(w, d);
	if (off + len > f->io_len && off < f->io_len && fit_len(w, d, len, f->io_len - off))
		len = *lenp = fit_len(w, d, len, f->io_len - off);
	if (off + len > f->io_len && w->plan.seq_ends) {
		w->plan.file_done = true;	/* plan_where() takes another file */
		return 0;
	}
	if (off + len > f->io_len) {
		off = 0;	/* wrap: time_based, loops, or io_size beyond size */
		plan_new_pass(w, f);
	}
	pf->seq_pos[d] = off + len;
	return off;
}

static uint64_t rand_offset(struct worker *w, unsigned fi, int d, uint32_t *lenp)
{
	struct io_plan *p = &w->plan;
	struct plan_file *pf = &p->files[fi];
	uint64_t off;

	if (pf->covered) {
		off = cover_next(w, fi, d, lenp);
	} else {
		if (plan_pass_done(pf))
			plan_new_pass(w, &w->files[fi]);
		off = offgen_next(&pf->gen) * p->align;
		if (plan_pass_done(pf))
			pass_reseed(w);
		/* randrw bs=4k,16k: the writes on their own blockalign, as fio's */
		if (w->job->blockalign[d] != p->align)
			off -= off % w->job->blockalign[d];
	}
	pf->seq_pos[d] = off + *lenp;
	return off;
}

/*
 * A drawn offset in fio's rarer forms: percentage_random, zoned draws, strided zones, fio
 * HEAD's sequences.
 */
static uint64_t rand_offset_extra(struct worker *w, unsigned fi, int d, uint32_t *lenp)
{
	const struct job_desc *j = w->job;
	struct plan_file *pf = &w->plan.files[fi];
	uint64_t off;

	if (j->percentage_random[d] < 100 && rng_below(&w->rng, 100) >= j->percentage_random[d])
		return seq_offset(w, fi, d, lenp);
	if (j->sprandom && d == IO_WRITE) {
		uint64_t b = sprandom_next(w);

		if (b == UINT64_MAX) {
			w->plan.file_done = true;	/* the last region is written */
			return 0;
		}
		off = b * w->plan.align;
	} else if (j->random_distribution == DIST_SEQUENCE) {
		uint64_t b = plan_sequence_block(w, fi, d, *lenp);

		if (b == UINT64_MAX) {
			w->plan.file_done = true;	/* the stride passed the end: no more */
			return 0;
		}
		off = b * j->blockalign[d];
	} else if (pf->zpick[d])
		off = plan_zoned_block(w, pf, d) * w->plan.align;
	else
		off = rand_offset(w, fi, d, lenp);
	off += pf->zone_base;
	pf->seq_pos[d] = off + *lenp;
	return off;
}

/*
 * A random job's offset, as fio's get_next_block(): every rw=randread:N-th I/O is drawn
 * (percentage_random of them at random, the rest following the last I/O), and the ones
 * between follow it (rw_sequencer=sequential) or repeat it (identical).
 */
static uint64_t rand_job_offset(struct worker *w, unsigned fi, int d, uint32_t *lenp)
{
	const struct job_desc *j = w->job;
	struct io_plan *p = &w->plan;
	struct plan_file *pf = &p->files[fi];
	uint64_t off;

	if (p->rand_run_left) {
		p->rand_run_left--;
		off = j->rw_sequencer == RWSEQ_IDENTICAL ? pf->last_start[d] :
							   seq_offset(w, fi, d, lenp);
	} else {
		if (j->rw_nr > 1)
			p->rand_run_left = (unsigned)j->rw_nr - 1;
		off = __builtin_expect(p->extra, 0) ? rand_offset_extra(w, fi, d, lenp) :
						      rand_offset(w, fi, d, lenp);
	}
	pf->last_start[d] = off;
	return off;
}

/* Where the next I/O of file fi goes, from its region's start; false when it has none. */
static bool plan_offset(struct worker *w, unsigned fi, int d, uint32_t *lenp, uint64_t *offp)
{
	const struct job_desc *j = w->job;
	struct io_plan *p = &w->plan;

	bool ok = true;

	if (__builtin_expect(p->extra, 0) && j->zonemode == ZONE_STRIDED) {
		plan_zone_step(w, fi, d);
		if (p->random)
			*offp = rand_job_offset(w, fi, d, lenp);
		else	/* fio's checks against the file's end, and its skips */
			ok = plan_skip_offset(w, fi, d, *lenp, offp);
		p->zone_bytes += *lenp;
		return ok;
	}
	if (p->random)
		*offp = rand_job_offset(w, fi, d, lenp);
	else if (j->rw_nr || p->zbd)	/* zbd: a zone's end past its capacity is skipped */
		ok = plan_skip_offset(w, fi, d, *lenp, offp);
	else
		*offp = seq_offset(w, fi, d, lenp);
	return ok && !p->file_done;
}

/*
 * A write's data, as content_init() decided: a word per 512 bytes changed (scramble_buffers,
 * fio's default) so that a deduplicating device cannot skip it, new random bytes
 * (refill_buffers), or the pattern, zeros or made blocks written afresh.
 */
void plan_prepare_write(struct worker *w, struct io_req *r)
{
	switch (w->content.per_write) {
	case CONTENT_SCRAMBLE: {
		uint64_t v = r->off ^ w->now;

		for (uint32_t i = 0; i + 8 <= r->len; i += 512)
			memcpy(r->buf + i, &v, 8);
		break;
	}
	case CONTENT_RANDOM:
		for (uint32_t i = 0; i + 8 <= r->len; i += 8) {
			uint64_t v = rng_next(&w->rng);

			memcpy(r->buf + i, &v, 8);
		}
		break;
	case CONTENT_FILL:
		content_fill(&w->content, r->buf, r->len);
		break;
	default:
		break;
	}
}

/* The next block of the shared stream: its file and offset; false at the stream's end. */
static bool cursor_next(struct worker *w, uint32_t *len, unsigned *fi, uint64_t *off)
{
	const struct io_plan *p = &w->plan;
	uint64_t at = atomic_fetch_add_explicit(p->cursor, *len, memory_order_relaxed);
	unsigned i = 0;

	if (at >= p->cursor_end)
		return false;
	at %= p->cursor_span;
	if (p->cursor_flen) {
		i = (unsigned)(at / p->cursor_flen);
		at %= p->cursor_flen;
	} else {
		for (; at >= w->files[i].io_len; i++)
			at -= w->files[i].io_len;
	}
	/* a block that would cross into the next file ends with this one */
	if (at + *len > w->files[i].io_len)
		*len = (uint32_t)(w->files[i].io_len - at);
	*fi = i;
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
	struct io_plan *p = &w->plan;
	uint64_t n = atomic_fetch_add_explicit(w->ios_shared, 1, memory_order_relaxed) + 1;

	if (d == IO_WRITE)
		p->last_written = f;
	if (n % j->fsync_every_ios || !rw_does(j->rw, IO_WRITE))
		return;
	p->sync_kind = IO_FSYNC;
	p->sync_all = j->fsync_scope == FSYNC_SCOPE_ALL;
	p->sync_due = p->sync_all || !p->last_written ? &w->files[0] : p->last_written;
}

/*
 * sync_file_range=: after every N writes to a file, sync the range they covered since the
 * last one (fio tracks the range the same way), with the flags asked for.
 */
static void schedule_sfr(struct worker *w, unsigned fi, uint64_t off, uint32_t len)
{
	struct io_plan *p = &w->plan;
	struct plan_file *pf = &p->files[fi];

	if (!pf->sfr_writes || off < pf->sfr_lo)
		pf->sfr_lo = off;
	if (!pf->sfr_writes || off + len > pf->sfr_hi)
		pf->sfr_hi = off + len;
	if (++pf->sfr_writes < w->job->sfr_every || p->sync_due)
		return;
	p->sync_due = &w->files[fi];
	p->sync_kind = IO_SYNC_RANGE;
	p->sync_off = pf->sfr_lo;
	p->sync_len = pf->sfr_hi - pf->sfr_lo;
	pf->sfr_writes = 0;
}

static void schedule_sync(struct worker *w, unsigned fi)
{
	const struct job_desc *j = w->job;
	struct io_plan *p = &w->plan;
	bool spent = !p->bytes_left || !p->ios_left;
	bool job_end = spent && !p->loops_left;
	/* the last write of a loop= loop: of unlink_each_loop's, or of one pass over io_size */
	bool loop_end = !job_end && (spent || (p->loop_size && p->bytes_left % p->loop_size == 0));

	/* as fio: every N writes of the job, whichever files they went to */
	p->writes++;
	if (j->fsync_every && p->writes % j->fsync_every == 0)
		p->sync_kind = IO_FSYNC;
	else if (j->fdatasync_every && p->writes % j->fdatasync_every == 0)
		p->sync_kind = IO_FDATASYNC;
	else
		return;
	/*
	 * fio syncs before the I/O after the N-th write, so the job's very last write gets
	 * none (end_fsync is for that). A loop's last write does get one, and fio, still
	 * at a multiple of N when it reopens the files, syncs once more before the next
	 * loop's first write.
	 */
	if (job_end)
		return;
	p->sync_due = &w->files[fi];
	if (loop_end)
		p->sync_again = p->sync_due;
}

/*
 * seq_ends: file i's pass is over (a stream of it reached the end). The next file whose
 * pass is not takes the I/O; when none is left, all start again from their regions'
 * starts, as fio's next loop over the files does (the caches dropped as at a new pass).
 */
static unsigned seq_file_over(struct worker *w, unsigned i)
{
	struct io_plan *p = &w->plan;

	p->file_done = false;
	p->files[i].served = w->files[i].io_len;
	if (++p->files_spent < w->nfiles)
		return p->cur_file = next_file(w, i);
	if (p->seq_stop) {
		p->bytes_left = 0;	/* short of its bytes by the files' tails, as fio */
		return i;
	}
	files_new_round(w);
	for (unsigned k = 0; k < w->nfiles; k++) {
		memset(p->files[k].seq_pos, 0, sizeof(p->files[k].seq_pos));
		plan_new_pass(w, &w->files[k]);
	}
	loop_reseed(w);		/* fio's next loop over the files, time_based too */
	return p->cur_file = 0;
}

/*
 * pass_ends: file i's pass is over once its map is full; it takes no more I/O this loop,
 * and the I/O that filled the last file's map is the loop's last (passes_end_loops()).
 */
static void random_pass_over(struct worker *w, unsigned i, uint32_t len)
{
	struct io_plan *p = &w->plan;
	struct plan_file *pf = &p->files[i];
	uint64_t size = w->files[i].io_len;

	if (!plan_random_pass_over(p, pf) || pf->served >= size + 1)
		return;
	pf->served = size + 1;	/* over, whatever it served (+1: counted once) */
	if (++p->files_spent == w->nfiles || w->nfiles == 1) {
		p->bytes_left = len;	/* less this I/O: 0 */
		return;
	}
	if (p->cur_file == i)
		p->cur_file = next_file(w, i);
}

/*
 * The last bytes of a job that reads and writes: a direction whose smallest block no
 * longer fits what is left gives way to the other, so the job does its whole size
 * (rw=rw with reads of 4k and writes of 16k ended up to 12k short).
 */
static int fit_dir(const struct worker *w, int d)
{
	const struct job_desc *j = w->job;
	uint64_t left = w->plan.bytes_left;
	int o = d == IO_READ ? IO_WRITE : IO_READ;

	if (__builtin_expect(left >= j->bs[d].min, 1) || d > IO_WRITE ||
	    !rw_does(j->rw, IO_READ) || !rw_does(j->rw, IO_WRITE))
		return d;
	return left >= j->bs[o].min ? o : d;
}

/* Where the next I/O of direction d goes and how long it is; false when the budget ends. */
static bool plan_where(struct worker *w, int d, unsigned *fi, uint64_t *off, uint32_t *len)
{
	const struct job_desc *j = w->job;
	struct io_plan *p = &w->plan;

	if (d == IO_WRITE && p->trim_done) {
		*fi = p->tw_file;
		*off = p->tw_off;
		*len = p->tw_len;
		p->trim_done = false;
		return true;
	}
	*len = budget_len(w, d);
	if (!*len)
		return false;
	if (p->cursor) {
		if (!cursor_next(w, len, fi, off))
			return false;
	} else if (p->window.on) {
		int i = window_pick(w);
		unsigned tries = 0;

		while (i >= 0 && !plan_offset(w, (unsigned)i, d, len, off)) {
			if (!p->file_done || ++tries > 2 * w->nfiles + 1)
				return false;
			p->file_done = false;
			window_file_over(w, (unsigned)i);	/* seq_ends: its stream is */
			if (!p->bytes_left)
				return false;	/* the last file's: the loop's end (seq_stop) */
			i = window_pick(w);
		}
		if (i < 0)
			return false;	/* waiting, or a file would not open */
		*fi = (unsigned)i;
		window_served(w, *fi, *len);
	} else {
		unsigned tries = 0;

		*fi = w->plan.cur_file;
		while (!plan_offset(w, *fi, d, len, off)) {
			/* each file once, then all again: a block fits every region */
			if (!p->file_done || ++tries > 2 * w->nfiles + 1)
				return false;
			*fi = seq_file_over(w, *fi);
			if (!p->bytes_left)
				return false;
		}
		plan_file_served(w, *fi, *len);
		if (__builtin_expect(p->pass_ends, 0))
			random_pass_over(w, *fi, *len);
	}
	if (j->rw == RW_TRIMWRITE || j->rw == RW_RANDTRIMWRITE) {
		p->tw_file = *fi;
		p->tw_off = *off;
		p->tw_len = *len;
		p->trim_done = true;
	}
	return true;
}

/*
 * zonemode=zbd: the I/O where its zones let it go (zbd.c); a sequential stream goes on
 * from there, as fio's, and zoneskip counts its bytes.
 */
static bool plan_zbd(struct worker *w, unsigned fi, int d, uint64_t *off, uint32_t *len)
{
	struct io_plan *p = &w->plan;
	uint32_t want = *len;

	if (!zbd_adjust(w, fi, d, off, len)) {
		/*
		 * A sequential read that caught up with the writes: fio's loop ends there and,
		 * where loops, io_size or time_based ask for more, starts again from the start.
		 */
		if (w->error || d != IO_READ || p->random || !p->passes_left)
			return false;
		if (p->passes_left != UINT32_MAX)
			p->passes_left--;
		for (int k = 0; k < IO_NDIR; k++)
			p->files[fi].seq_pos[k] = 0;
		p->files[fi].zone_base = 0;
		p->zone_bytes = 0;
		*off = 0;
		*len = want;
		if (!zbd_adjust(w, fi, d, off, len))
			return false;
	}
	w->plan.files[fi].seq_pos[d] = *off + *len;
	w->plan.zone_bytes += *len;
	return true;
}

/*
 * plan_where() for zonemode=zbd, the I/O then moved where its zones allow. A file with
 * nothing left to read is over, as fio's: the next file goes on.
 */
static bool plan_where_zbd(struct worker *w, int d, unsigned *fi, uint64_t *off,
			   uint32_t *len)
{
	struct io_plan *p = &w->plan;

	for (unsigned tries = 1;; tries++) {
		zbd_seq_step(w, d);
		if (!p->ios_left || !plan_where(w, d, fi, off, len))
			return false;
		if (plan_zbd(w, *fi, d, off, len))
			return true;
		if (w->error || tries >= w->nfiles)
			return false;
		p->cur_file = (*fi + 1) % w->nfiles;
	}
}

/* The general planner: plan_io_general() without the iolog's. */
static inline __attribute__((always_inline)) bool plan_io_planned(struct worker *w,
								   struct io_req *r)
{
	const struct job_desc *j = w->job;
	struct io_plan *p = &w->plan;
	int d = p->next_dir >= 0 ? p->next_dir : plan_dir(w);
	struct io_file *f;
	uint64_t off;
	uint32_t len;
	unsigned fi;

	p->next_dir = -1;
	d = fit_dir(w, d);
	if (__builtin_expect(p->zbd, 0))
		d = zbd_adjust_dir(w, d);
	if (w->verify) {
		switch (verify_plan(w, r)) {
		case VP_READ:
			if (p->window.on)
				window_issued(w, (unsigned)(r->file - w->files));
			return true;
		case VP_END:
			return false;
		default:
			break;
		}
	}
	if (__builtin_expect(p->zbd, 0)) {
		if (!plan_where_zbd(w, d, &fi, &off, &len))
			return false;
	} else if (!p->ios_left || !plan_where(w, d, &fi, &off, &len)) {
		return false;
	}
	f = &w->files[fi];
	/*
	 * trimwrite's trims come on top of its writes, as in fio: only writes use the budget,
	 * of bytes and of number_ios (number_ios=37: 37 trims and 37 writes).
	 */
	if (!(d == IO_TRIM && p->trim_done)) {
		if (p->bytes_left != UINT64_MAX)
			p->bytes_left -= len;
		/* loops in one budget: the next starts at a multiple of a loop's bytes */
		if (p->loop_size && p->bytes_left && p->bytes_left % p->loop_size == 0)
			loop_reseed(w);
		if (p->ios_left != UINT64_MAX)
			p->ios_left--;
	}
	r->file = f;
	r->dir = d;
	r->off = f->io_off + off;
	r->len = r->full_len = len;
	r->buf = r->buf_base;
	r->resubmit = false;
	if (__builtin_expect(p->zbd, 0))
		r->zone_reset = d == IO_TRIM;
	w->st->issued[d]++;
	pace_count_issue(&w->pace, d, len);
	if (d == IO_WRITE) {
		if (w->verify)
			verify_prepare_write(w, r);
		else
			plan_prepare_write(w, r);
		if (j->fsync_every || j->fdatasync_every)
			schedule_sync(w, fi);
		if (j->sfr_every)
			schedule_sfr(w, fi, r->off, len);
	}
	if (j->fsync_every_ios)
		count_for_sync(w, f, d);
	if (p->window.on)
		window_issued(w, fi);
	return true;
}

/* read_iolog's entries instead of the plan, or write_iolog's record of the plan. */
static __attribute__((noinline)) bool plan_io_iolog(struct worker *w, struct io_req *r)
{
	if (w->plan.replay) {
		/* the log's writes are read back after it, as fio verifies a replay */
		if (w->verify)
			switch (verify_plan(w, r)) {
			case VP_READ:
				return true;
			case VP_END:
				return false;
			default:
				break;
			}
		return replay_io(w, r);
	}
	if (!plan_io_planned(w, r))
		return false;
	iolog_write_io(w, r);
	return true;
}

bool plan_io_general(struct worker *w, struct io_req *r)
{
	if (__builtin_expect(w->plan.iolog, 0))
		return plan_io_iolog(w, r);
	return plan_io_planned(w, r);
}

int plan_restart(struct worker *w)
{
	struct iolog_writer *rec = w->plan.rec;	/* the record goes on */

	w->plan.rec = NULL;
	plan_free(w);
	w->plan.rec = rec;
	return plan_init(w);
}

bool plan_next_write(struct worker *w, unsigned *fi, uint64_t *off, uint32_t *len)
{
	struct io_plan *p = &w->plan;

	if (p->replay)
		return replay_next_write(w, fi, off, len);
	for (;;) {
		int d = fit_dir(w, plan_dir(w));

		if (!p->ios_left || !plan_where(w, d, fi, off, len))
			return false;
		if (p->bytes_left != UINT64_MAX && !(d == IO_TRIM && p->trim_done))
			p->bytes_left -= *len;
		if (p->ios_left != UINT64_MAX)
			p->ios_left--;
		/* a job that only reads (verify_only): its reads stand for the writes */
		if (d == IO_WRITE || !rw_does(w->job->rw, IO_WRITE)) {
			*off += w->files[*fi].io_off;
			return true;
		}
	}
}

void plan_sync(struct worker *w, struct io_req *r)
{
	struct io_plan *p = &w->plan;

	r->file = p->sync_due;
	r->dir = p->sync_kind;
	r->off = 0;
	r->len = r->full_len = 0;
	if (r->dir == IO_SYNC_RANGE) {
		r->off = p->sync_off;
		r->len = (uint32_t)p->sync_len;
		r->sfr_flags = (uint8_t)w->job->sfr_flags;
	}
	r->buf = r->buf_base;
	r->resubmit = false;
	p->sync_due = NULL;
	if (p->sync_all) {
		unsigned next = (unsigned)(r->file - w->files) + 1;

		p->sync_all = next < w->nfiles;
		p->sync_due = p->sync_all ? &w->files[next] : NULL;
	}
	if (!p->sync_due && p->sync_again) {
		p->sync_due = p->sync_again;	/* fio's second sync at a loop's end */
		p->sync_again = NULL;
	}
	if (p->window.on)
		window_issued(w, (unsigned)(r->file - w->files));
	if (__builtin_expect(p->rec != NULL, 0) && !w->ending)
		iolog_write_io(w, r);	/* fio records no end_fsync */
	/* fio counts fsync= syncs alone: fdatasync= ones only time, end_fsync not at all */
	w->st->sync_ios++;
	if (r->dir == IO_FSYNC && !w->ending)
		w->st->fsync_ios++;
	if (w->verify)
		verify_sync_issued(w, r);
}

void plan_end_sync(struct worker *w, unsigned i)
{
	struct io_plan *p = &w->plan;

	p->fast = false;
	p->sync_due = &w->files[i];
	p->sync_kind = IO_FSYNC;
	p->ios_left = 0;	/* only the sync */
}

void plan_fill_buffers(struct worker *w)
{
	size_t total = w->eng.nreqs * w->eng.buf_size;
	unsigned char *p = w->eng.bufs;
	struct content *c = &w->content;

	/* each write makes its own (verify's write their headers into these) */
	if (c->made && c->per_write == CONTENT_FILL && w->job->verify == VERIFY_NONE)
		return;
	if (c->made || c->pattern_len || c->zero) {
		/* Each buffer starts afresh, as in fio, whatever its slot. */
		for (size_t i = 0; i < w->eng.nreqs; i++)
			content_fill(c, p + i * w->eng.buf_size, w->eng.buf_size);
		return;
	}
	/* from a copy: the planner's loops start again from its seeded state */
	struct rng r = w->rng;

	for (size_t i = 0; i + 8 <= total; i += 8) {
		uint64_t v = rng_next(&r);

		memcpy(p + i, &v, 8);
	}
}
