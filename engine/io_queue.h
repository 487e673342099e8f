/*
 * The request queue of a job: its requests and their buffers, the free slots, what the
 * engine accepted and was not yet submitted, what it refused for lack of room, and how
 * many are in flight. struct io_queue is embedded in struct worker; io_queue.c allocates
 * and frees it, engine/loop.c alone moves requests through it.
 */
#ifndef ENGINE_IO_QUEUE_H
#define ENGINE_IO_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/ioengine.h"

struct io_queue {
	struct io_req *reqs;		/* depth of them, each with its buffer */
	unsigned depth;
	unsigned char *bufs;		/* the requests' buffers, one block */
	unsigned *free_slots;
	unsigned nfree;
	struct io_req **queued;		/* accepted by queue(), not yet submitted, in order */
	unsigned nqueued;
	unsigned inflight;		/* submitted, not yet reaped */
	struct io_req **retry;		/* refused by a full engine queue, to queue again */
	unsigned nretry;
	bool held;			/* the last fill stopped for rate, thinktime or fsync */
	bool filling;			/* iodepth_low: refill only below the mark */
	bool abandoned;			/* I/O may still be in flight: never free the buffers */
};

/* depth requests, each with a buffer of buf_size bytes aligned to align. 0 or -ENOMEM. */
int io_queue_init(struct io_queue *q, unsigned depth, size_t align, size_t buf_size);

/* Free the requests and lists, and the buffers unless the queue was abandoned. */
void io_queue_free(struct io_queue *q);

/* How many requests of each data direction are taken now (in flight or about to be). */
void io_queue_count_busy(const struct io_queue *q, uint64_t count[IO_NDIR]);

/* Whether anything is in flight or waits to be submitted. */
static inline bool io_queue_busy(const struct io_queue *q)
{
	return q->inflight || q->nqueued;
}

static inline struct io_req *io_queue_take(struct io_queue *q)
{
	struct io_req *r = &q->reqs[q->free_slots[--q->nfree]];

	r->busy = true;
	return r;
}

static inline void io_queue_put(struct io_queue *q, struct io_req *r)
{
	r->busy = false;
	q->free_slots[q->nfree++] = r->slot;
}

#endif
