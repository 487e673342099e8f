/*
 * read_iolog at run time: the planner's source of requests when the job replays a log
 * (jobs/replay_log.h loaded and checked it). Each entry is issued in the log's order, its
 * delay after the previous one honoured (replay_no_stall: none); read_iolog_chunked reads
 * the log again, REPLAY_CHUNK entries at a time, into one buffer allocated at the start.
 * Private to the planner (io_plan.c) and the pacer (pace.c).
 */
#ifndef ENGINE_PLAN_REPLAY_H
#define ENGINE_PLAN_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

struct io_req;
struct worker;

/* Entries read_iolog_chunked holds at once. */
#define REPLAY_CHUNK	4096

/* Start the replay of w->job->replay into w->plan.replay. 0, or -errno with error_msg set. */
int replay_start(struct worker *w);

/* Fill r with the next entry of the log; false at its end (or a chunk that fails). */
bool replay_io(struct worker *w, struct io_req *r);

/*
 * The next write of the log, as plan_next_write() gives the plan's: its file, offset (with
 * the file's io_off) and length; false at the end. Reads and syncs on the way are passed.
 */
bool replay_next_write(struct worker *w, unsigned *fi, uint64_t *off, uint32_t *len);

/*
 * Whether the next entry is not due yet. It sleeps until it is (in slices, looking at the
 * deadlines between them), as fio does whatever is in flight, and returns true only when
 * the job was stopped or ran out of time meanwhile.
 */
bool replay_held_back(struct worker *w);

/* Free what replay_start() allocated. */
void replay_free(struct worker *w);

#endif
