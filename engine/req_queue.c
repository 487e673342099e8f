/* Allocating a job's requests, their buffers and lists, and freeing them. */
#include "engine/req_queue.h"

#include <errno.h>
#include <stdlib.h>

int req_queue_init(struct req_queue *q, unsigned depth, size_t align, size_t buf_size)
{
	void *bufs;

	q->depth = depth;
	if (posix_memalign(&bufs, align, depth * buf_size))
		return -ENOMEM;
	q->bufs = bufs;
	q->reqs = calloc(depth, sizeof(*q->reqs));
	q->free_slots = calloc(depth, sizeof(*q->free_slots));
	q->queued = calloc(depth, sizeof(*q->queued));
	q->retry = calloc(depth, sizeof(*q->retry));
	if (!q->reqs || !q->free_slots || !q->queued || !q->retry)
		return -ENOMEM;
	for (unsigned i = 0; i < depth; i++) {
		q->reqs[i].slot = i;
		q->reqs[i].buf_slot = i;
		q->reqs[i].buf_base = q->bufs + (size_t)i * buf_size;
		q->reqs[i].dir = IO_NDIR;	/* not yet used */
		q->free_slots[i] = depth - 1 - i;
	}
	q->nfree = depth;
	return 0;
}

void req_queue_free(struct req_queue *q)
{
	/* After a failed reap the kernel may still write into them: leave them be. */
	if (!q->abandoned)
		free(q->bufs);
	free(q->reqs);
	free(q->free_slots);
	free(q->queued);
	free(q->retry);
	q->bufs = NULL;
	q->reqs = NULL;
	q->free_slots = NULL;
	q->queued = NULL;
	q->retry = NULL;
}

void req_queue_count_busy(const struct req_queue *q, uint64_t count[IO_NDIR])
{
	for (int d = 0; d < IO_NDIR; d++)
		count[d] = 0;
	for (unsigned i = 0; q->reqs && i < q->depth; i++)
		if (q->reqs[i].busy && q->reqs[i].dir < IO_NDIR)
			count[q->reqs[i].dir]++;
}
