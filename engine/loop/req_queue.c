/* Allocating a job's requests, their buffers and lists, and freeing them. */
#include "engine/loop/req_queue.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int req_queue_init(struct req_queue *q, unsigned depth, struct iomem_spec *mem, size_t buf_size,
		   char *err, size_t errlen)
{
	int ret;

	q->depth = depth;
	q->limit = depth;
	mem->bytes = depth * buf_size;
	ret = iomem_alloc(&q->mem, mem, err, errlen);
	if (ret < 0)
		return ret;
	q->bufs = q->mem.bufs;
	q->reqs = calloc(depth, sizeof(*q->reqs));
	q->free_reqs = calloc(depth, sizeof(*q->free_reqs));
	q->queued = calloc(depth, sizeof(*q->queued));
	q->retry = calloc(depth, sizeof(*q->retry));
	if (!q->reqs || !q->free_reqs || !q->queued || !q->retry) {
		snprintf(err, errlen, "no memory for %u requests", depth);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < depth; i++) {
		q->reqs[i].slot = i;
		q->reqs[i].buf_slot = i;
		q->reqs[i].buf_base = q->bufs + (size_t)i * buf_size;
		q->reqs[i].dir = IO_NDIR;	/* not yet used */
		q->free_reqs[i] = &q->reqs[depth - 1 - i];
	}
	q->nfree = depth;
	return 0;
}

void req_queue_free(struct req_queue *q)
{
	/* After a failed reap the kernel may still write into them: leave them be. */
	if (!q->abandoned)
		iomem_free(&q->mem);
	free(q->reqs);
	free(q->free_reqs);
	free(q->queued);
	free(q->retry);
	q->bufs = NULL;
	q->reqs = NULL;
	q->free_reqs = NULL;
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
