/*
 * What a job issues next: the direction (rw, rwmixread), the file (file_service_type),
 * the block size (bs, bsrange, bssplit), the offset (sequential, random map, skewed
 * distributions, rw=..:N) and the data of a write. Also the budgets that end a job.
 *
 * struct io_plan is the planner's part of struct worker, embedded in it, with its cursor
 * in each file; io_plan.c owns its members, others ask through the functions below. Most
 * jobs use one file, one direction and one block size: plan_init() sees that and plan_io()
 * (engine/plan/io_plan_fast.h) then takes an inline fast path that decides only the offset.
 */
#ifndef ENGINE_PLAN_IO_PLAN_H
#define ENGINE_PLAN_IO_PLAN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/plan/file_window.h"
#include "engine/plan/offsets.h"
#include "jobs/job.h"

struct io_file;
struct io_req;
struct iolog_writer;
struct replay;
struct worker;

/* The planner's cursor in one file: plan.files[i] goes with the worker's files[i]. */
struct plan_file {
	uint64_t seq_pos[IO_NDIR];	/* next sequential offset per direction, from io_off */
	uint64_t served;	/* bytes planned in this round, or this turn (sequential) */
	uint64_t sfr_writes;	/* sync_file_range: writes since the last, and their range */
	uint64_t sfr_lo, sfr_hi;
	struct offgen gen;	/* random offsets, in blocks of plan.align bytes */
	uint64_t *covered;	/* blocks a random pass of mixed sizes covered, or NULL */
	uint64_t ncovered;	/* how many: the pass ends when all are */
	uint64_t last_start[IO_NDIR];	/* the last I/O's offset (rw_sequencer=identical) */
	uint64_t zone_base;	/* zonemode=strided: the zone's start, from io_off */
	struct zone_pick *zpick[IO_NDIR];	/* zoned distributions: 100 picks, or NULL */
};

/* Blocks a draw of a zoned distribution falls in: one of 100 for each percent. */
struct zone_pick {
	uint64_t start, n;
};

struct io_plan {
	struct plan_file *files;	/* one per file the job plans over */
	struct file_window window;	/* openfiles: which files are open (file_window.c) */
	bool fast;			/* one file, one direction, one block size */
	int fast_dir;
	uint32_t fast_len;
	uint64_t fast_left;		/* I/Os left to issue on the fast path */
	bool random;
	uint64_t align;			/* random offsets are multiples of this */
	int next_dir;			/* chosen ahead so rate limits can look at it; -1 none */
	unsigned cur_file;
	unsigned file_left;		/* I/Os before file_service switches file */
	struct offgen file_gen;		/* file_service_type=zipf, pareto, normal: which next */
	unsigned files_spent;		/* files that have had their pass this round */
	bool pass_ends;			/* full maps end the loop (passes_end_loops()) */
	bool repeat;			/* each loop draws the first one's sequences */
	struct rng rng_start;		/* the worker's rng as plan_init() left it */
	bool seq_ends;			/* a stream at its file's end ends the file's pass */
	bool seq_stop;			/* and the last file's ends the loop (seq_loop_ends()) */
	bool file_done;			/* plan_offset(): that file's pass is over */
	unsigned rand_run_left;		/* sequential I/Os left after a random one (rw=..:N) */
	bool extra;			/* strided zones, zoned draws, percentage_random, skips,
					   sequences, zonemode=zbd */
	bool zbd;			/* zonemode=zbd: zbd.c moves each I/O where zones allow */
	struct sprandom *spr;		/* sprandom: its regions and rewrites, or NULL */
	uint64_t seq_drawn[IO_NDIR];	/* random_distribution=sequence: I/Os placed so far */
	uint64_t zone_bytes;		/* zonemode=strided: bytes done in this zone */
	unsigned passes_left;		/* rw=read:SKIP: passes after this one (loops) */
	bool trim_done;			/* trimwrite: the trim of tw_* went out, write next */
	unsigned tw_file;
	uint64_t tw_off;
	uint32_t tw_len;
	uint64_t bytes_left;		/* issue budget; UINT64_MAX when time based */
	uint64_t ios_left;		/* number_ios budget; UINT64_MAX when unset */
	uint64_t loop_bytes;		/* loops one at a time: the budget of one */
	uint64_t loop_size;		/* loops= above 1: the bytes of one loop, else 0 */
	uint64_t writes;		/* writes planned: fsync=, fdatasync= count them */
	unsigned loops_left;		/* loops one at a time: loops after this one */
	bool verify_loops;		/* each loop's writes are verified before the next */
	struct io_file *sync_due;	/* fsync=, fdatasync= or sync_file_range= wants a sync */
	uint64_t sync_off, sync_len;	/* sync_file_range's range */
	int sync_kind;
	bool sync_all;			/* then the files after it too (fsync_scope=all_files) */
	struct io_file *sync_again;	/* a loop's last write was synced: the next loop
					 * syncs this file again first, as fio does */
	struct io_file *last_written;
	atomic_uint_fast64_t *cursor;	/* seq_cursor=shared: the clones' stream, else NULL */
	uint64_t cursor_end;		/* where the cursor stops (UINT64_MAX: wraps) */
	uint64_t cursor_span;		/* the files' regions end to end */
	uint64_t cursor_flen;		/* their common length, 0 if they differ */
	bool iolog;			/* read_iolog or write_iolog: plan_io_iolog() */
	struct replay *replay;		/* read_iolog: the log's entries (replay.c), or NULL */
	struct iolog_writer *rec;	/* write_iolog: the record (iolog_write.c), or NULL */
};

/*
 * Set up offset generators (and, for random I/O of mixed sizes, the map of covered
 * blocks), budgets, seeds and the fast path; files must be resolved and pace_init() done.
 * 0 or -ENOMEM; plan_free() is needed either way.
 */
int plan_init(struct worker *w);

/*
 * unlink_each_loop: whether another loop follows the one that just ended; if so, plan it
 * from the start of every file's region (the worker has recreated the files).
 */
bool plan_next_loop(struct worker *w);

/* Free what plan_init() allocated. */
void plan_free(struct worker *w);

/* The job's I/O is over: write_iolog's log is closed (a failed write fails the job). */
void plan_end(struct worker *w);

/* The direction of the next I/O (random for mixed modes). */
int plan_dir(struct worker *w);

/* The direction of the next I/O, chosen now if it was not yet: rate limits look at it. */
int plan_next_dir(struct worker *w);

/* Make d the direction of the next I/O (a rate limit lets the other one go first). */
void plan_set_next_dir(struct worker *w, int d);

/* The bytes the job will issue, for the status line; UINT64_MAX when time based. */
uint64_t plan_budget_bytes(const struct worker *w);

/* Whether the job takes plan_io()'s fast path. */
static inline bool plan_is_fast(const struct io_plan *p)
{
	return p->fast;
}

/* openfiles: nothing can be planned until an I/O in flight completes and its file closes. */
static inline bool plan_waiting(const struct io_plan *p)
{
	return p->window.waiting;
}

/* Whether a sync is due: the next request is plan_sync()'s. */
static inline bool plan_sync_due(const struct io_plan *p)
{
	return p->sync_due != NULL;
}

/* The general plan_io(), for every job the fast path does not cover. */
bool plan_io_general(struct worker *w, struct io_req *r);

/* Vary a write's data as scramble_buffers and refill_buffers ask. */
void plan_prepare_write(struct worker *w, struct io_req *r);

/*
 * experimental_verify: plan the job again from its start with the same seeds, then give
 * its writes one by one (file index, offset in the file, length), skipping what else it
 * planned (a job that only reads: its reads), so that they can be read back in the order
 * they were issued. Restart returns 0 or -ENOMEM; next returns false when the plan ends.
 */
int plan_restart(struct worker *w);
bool plan_next_write(struct worker *w, unsigned *fi, uint64_t *off, uint32_t *len);

/* Fill r with the sync that fsync=/fdatasync=/end_fsync asked for. */
void plan_sync(struct worker *w, struct io_req *r);

/* end_fsync: the next request is an fsync of the job's file i, and nothing follows it. */
void plan_end_sync(struct worker *w, unsigned i);

/* Fill the request buffers once before the run: random data, zeros or the pattern. */
void plan_fill_buffers(struct worker *w);

/*
 * A pass over f's region starts again (loops, time_based, io_size past size): drop its
 * cached pages as fio does when it reopens or rewinds a file, then read the clock into
 * w->now, so that what the drop took counts in no I/O's latency. Rare, so out of line.
 */
void plan_new_pass(struct worker *w, struct io_file *f) __attribute__((cold));

/* A file drawn for file_service_type=random, or zipf, pareto or normal (their skew). */
unsigned plan_draw_file(struct worker *w);

/* With the map of covered blocks (mixed sizes): the pass ends when every block is. */
static inline bool plan_map_full(const struct plan_file *pf)
{
	return pf->covered && pf->ncovered == pf->gen.nblocks;
}

/*
 * A random pass ends when every block of the permutation was drawn: offgen_next()'s own
 * test, which the compiler shares with it. Other modes never count draws (done stays 0).
 */
static inline bool plan_pass_done(const struct plan_file *pf)
{
	return __builtin_expect(pf->gen.done == pf->gen.nblocks, 0);
}

/*
 * A random file's pass is over: its map full, or its permutation drawn to the end (where a
 * region holds a tail of less than a block, before its bytes are).
 */
static inline bool plan_random_pass_over(const struct io_plan *p, const struct plan_file *pf)
{
	return pf->covered ? plan_map_full(pf) : p->random && plan_pass_done(pf);
}

#endif
