/*
 * latency_target's depth search, as fio 3.33 runs it. The job starts at depth 1; at the end
 * of each latency_window it compares the share of the window's I/Os whose total latency
 * stayed at or under the target with latency_percentile. While every window passes the
 * depth doubles; once one failed, the search bisects between the highest depth that passed
 * and the lowest that failed. With latency_percentile=100 a single I/O over the target
 * fails the window at once, and at depth 1 it fails the job (ETIMEDOUT). A pass that leaves
 * the depth where it was settles it: what is in flight completes, the statistics start
 * again, and when one more window at that depth passes the job ends (latency_run=1 goes on
 * adjusting instead, for the whole run). Lowering the depth lets the I/Os in flight
 * complete first, so that the next window is measured at the new depth alone.
 *
 * struct lat_search is the state machine alone, plain arithmetic for the unit test; the
 * lat_target_* functions tie it to a worker: its request queue's limit, the loop's rare
 * path (an I/O over the target) and the pacer's deadlines (the window's end).
 */
#ifndef ENGINE_LOOP_LAT_TARGET_H
#define ENGINE_LOOP_LAT_TARGET_H

#include <stdbool.h>
#include <stdint.h>

struct io_req;
struct worker;

struct lat_search {
	unsigned depth;			/* tried now */
	unsigned low;			/* the highest depth that passed (1 at first) */
	unsigned high;			/* the lowest that failed (iodepth at first; a depth
					 * that keeps passing just under it raises it) */
	unsigned iodepth;		/* the most the depth ever is */
	unsigned stable;		/* passes in a row one under high */
	bool run;			/* latency_run: never settle */
	bool final;			/* the last window, at the settled depth, is under way */
};

/* What the worker does after a verdict. */
enum lat_step {
	LAT_NEXT,	/* start a new window at s->depth now */
	LAT_DRAIN,	/* let what is in flight complete, then a new window at s->depth */
	LAT_FINAL,	/* the same, the statistics started afresh: the last window */
	LAT_DONE,	/* the last window passed: the job ends */
	LAT_FLOOR,	/* failed at depth 1: nothing changes, the window goes on */
};

/* The search's start: depth 1, between 1 and iodepth. */
void lat_search_init(struct lat_search *s, unsigned iodepth, bool run);

/* A window passed: a higher depth, or the same one (LAT_FINAL, then LAT_DONE). */
enum lat_step lat_search_pass(struct lat_search *s);

/* A window failed, or an I/O was over the target with latency_percentile=100. */
enum lat_step lat_search_fail(struct lat_search *s);

/*
 * A window's verdict: of ios completed in it, over were above the target; it passes when
 * the share of the others, in %, reaches pct. A window without I/O fails, as in fio (whose
 * share is then 0/0).
 */
enum lat_step lat_search_window(struct lat_search *s, uint64_t ios, uint64_t over, double pct);

/*
 * Set up w->lat for a job with latency_target (NULL without), and its first depth.
 * 0 or -ENOMEM.
 */
int lat_target_init(struct worker *w);

void lat_target_free(struct worker *w);

/* The measured phase starts (the job's start, or ramp_time's end): the search begins. */
void lat_target_start(struct worker *w);

/* n I/Os like r took lat ns, above the target: from the loop's rare path. */
void lat_target_slow(struct worker *w, const struct io_req *r, uint64_t lat, unsigned n);

/* When lat_target_tick() is next due, in clock ticks (0: at once, UINT64_MAX: never). */
uint64_t lat_target_deadline(const struct worker *w);

/* The deadline passed: close the window, or see whether the queue has drained. */
void lat_target_tick(struct worker *w);

/* The depth to report: the search's, or iodepth without latency_target. */
unsigned lat_target_depth(const struct worker *w);

#endif
