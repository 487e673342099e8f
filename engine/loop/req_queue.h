/*
 * The request queue of a job: its requests and their buffers, the free slots, what the
 * engine accepted and was not yet submitted, what it refused for lack of room, and how
 * many are in flight. struct req_queue is embedded in struct worker; req_queue.c allocates
 * and frees it, engine/loop/loop.c alone moves requests through it.
 */
#ifndef ENGINE_LOOP_REQ_QUEUE_H
#define ENGINE_LOOP_REQ_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/thread/iomem.h"
#include "engine/ioengine.h"

struct req_queue {
	struct io_req *reqs;		/* depth of them, each with its buffer */
	unsigned depth;
	unsigned limit;			/* the most in flight now: depth, or latency_target's
					 * search depth (lat_target.c sets it) */
	unsigned char *bufs;		/* the requests' buffers, one block */
	struct iomem mem;		/* where that block lives (mem=, iomem_align) */
	struct io_req **free_reqs;	/* a stack of the requests not taken */
	unsigned nfree;
	struct io_req **queued;		/* accepted by queue(), not yet submitted, in order */
	unsigned nqueued;
	unsigned inflight;		/* submitted, not yet reaped */
	struct io_req **retry;		/* refused by a full engine queue, to queue again */
	unsigned nretry;
	struct io_req *waiting;		/* serialize_overlap: planned, overlapping one in flight */
	bool serialize;			/* serialize_overlap, for a job that writes at depth > 1 */
	bool held;			/* the last fill stopped for rate, thinktime, fsync or overlap */
	bool filling;			/* iodepth_low: refill only below the mark */
	bool abandoned;			/* I/O may still be in flight: never free the buffers */
};

/*
 * depth requests, each with a buffer of buf_size bytes, in one block allocated as mem asks
 * (its bytes are set here). 0, or -errno with err[] saying what failed.
 */
int req_queue_init(struct req_queue *q, unsigned depth, struct iomem_spec *mem, size_t buf_size,
		   char *err, size_t errlen);

/* Free the requests and lists, and the buffers unless the queue was abandoned. */
void req_queue_free(struct req_queue *q);

/* How many requests of each data direction are taken now (in flight or about to be). */
void req_queue_count_busy(const struct req_queue *q, uint64_t count[IO_NDIR]);

/* Whether anything is in flight or waits to be submitted. */
static inline bool req_queue_busy(const struct req_queue *q)
{
	return q->inflight || q->nqueued;
}

static inline struct io_req *req_queue_take(struct req_queue *q)
{
	struct io_req *r = q->free_reqs[--q->nfree];

	r->busy = true;
	return r;
}

static inline void req_queue_put(struct req_queue *q, struct io_req *r)
{
	r->busy = false;
	q->free_reqs[q->nfree++] = r;
}

#endif
