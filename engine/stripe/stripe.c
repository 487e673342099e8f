/*
 * The stripe engine: it stands in front of a striped job's ioengine. The loop hands it
 * requests on the logical target; it cuts each into parts on the members (stripe_map.c),
 * queues every part with the job's engine so that they are in flight together, as md
 * issues them, and completes the request when its last part completes. The loop keeps
 * timing, depth and statistics per request, so a 192k read over 64k chunks is one I/O
 * with the latency of its slowest part.
 *
 * Parts live in a pool set up with the engine: request slot s owns parts
 * [s * max_parts, (s + 1) * max_parts), so nothing is allocated per I/O and a part's
 * request is its slot divided by max_parts.
 */
#include "engine/stripe/stripe.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stripe/stripe_map.h"
#include "engine/worker.h"

struct stripe_req {
	unsigned nparts;
	unsigned pending;	/* parts not completed yet */
	unsigned queued;	/* parts the job's engine queued, to count submitted requests */
};

struct stripe {
	struct ioengine_ops ops;	/* what the loop calls: this file, the engine's flags */
	struct ioengine inner;		/* the job's engine, over the members and the parts */
	bool inner_up;			/* its init() succeeded */
	struct stripe_map map;
	struct io_file *members;
	unsigned nmembers;
	unsigned max_parts;		/* per request: its longest cut, or one per member */
	struct io_req *parts;
	struct stripe_part *cuts;	/* scratch for one request's cut */
	struct stripe_req *reqs;	/* per request slot */
	struct io_req **fifo;		/* queued requests, not yet counted as submitted */
	unsigned fifo_head, fifo_n;
	unsigned credit;		/* parts submitted beyond those of the requests counted */
	unsigned parts_inflight;
	struct io_req **done;		/* completed requests, for event() */
	unsigned ndone, ntaken;
	struct stripe_member_io *io;	/* per member */
};

/* What a part did, on its member: every part that moved data, whatever its request's fate. */
static void count(struct stripe *st, const struct io_req *p)
{
	struct stripe_member_io *io = &st->io[p->file - st->members];

	if (p->dir >= IO_NDIR) {
		io->flushes += p->res == 0;
	} else if (p->res > 0) {
		io->ios[p->dir]++;
		io->bytes[p->dir] += (uint64_t)p->res;
	}
}

/*
 * A request's result from its parts, in logical order: the first failure, or the bytes up
 * to the first short part (the loop resubmits the rest, parts done twice included).
 */
static void finish(struct stripe *st, struct io_req *r)
{
	struct stripe_req *sr = &st->reqs[r->slot];
	struct io_req *p = &st->parts[r->slot * st->max_parts];
	const struct io_req *bad = NULL;
	int64_t res = 0;

	for (unsigned k = 0; k < sr->nparts; k++, p++) {
		count(st, p);
		if (bad)
			continue;
		if (p->res == (int64_t)p->len)
			res += p->res;
		else
			bad = p;
	}
	if (!bad) {
		r->res = r->dir < IO_NDIR ? res : 0;
	} else if (bad->res < 0 || res + bad->res == 0) {
		/* Name the member and offset that failed: the loop's message uses them. */
		r->file = bad->file;
		r->off = bad->off;
		r->len = bad->len;
		r->res = bad->res;
	} else {
		r->res = res + bad->res;
	}
}

/* Cut a read, write or trim at chunk boundaries; a sync goes to every member. */
static unsigned cut(struct stripe *st, struct io_req *r, struct io_req *p)
{
	unsigned n;

	if (r->dir >= IO_NDIR) {
		for (unsigned k = 0; k < st->nmembers; k++) {
			p[k].file = &st->members[k];
			p[k].off = 0;
			p[k].len = p[k].full_len = 0;
			p[k].buf = r->buf;
			p[k].dir = r->dir;
		}
		return st->nmembers;
	}
	n = stripe_map_split(&st->map, r->off, r->len, st->cuts);
	for (unsigned k = 0; k < n; k++) {
		p[k].file = &st->members[st->cuts[k].member];
		p[k].off = st->cuts[k].off;
		p[k].len = p[k].full_len = st->cuts[k].len;
		p[k].buf = r->buf + st->cuts[k].at;
		p[k].dir = r->dir;
	}
	return n;
}

static enum ioq_status stripe_queue(struct ioengine *e, struct io_req *r)
{
	struct stripe *st = e->priv;
	const struct ioengine_ops *ops = st->inner.ops;
	struct stripe_req *sr = &st->reqs[r->slot];
	struct io_req *p = &st->parts[r->slot * st->max_parts];
	unsigned n = cut(st, r, p);

	sr->nparts = sr->pending = n;
	sr->queued = 0;
	for (unsigned k = 0; k < n; k++) {
		p[k].res = 0;
		switch (ops->queue(&st->inner, &p[k])) {
		case IOQ_QUEUED:
			sr->queued++;
			break;
		case IOQ_DONE:
			sr->pending--;
			break;
		case IOQ_BUSY:
			if (!k)
				return IOQ_BUSY;	/* none of r is queued: the loop retries */
			/*
			 * The pool is iodepth * max_parts deep, so the engine has room for every
			 * part; should it refuse one anyway, the request fails, never half done.
			 */
			for (; k < n; k++, sr->pending--)
				p[k].res = -EBUSY;
			break;
		}
	}
	if (!sr->queued) {
		finish(st, r);
		return IOQ_DONE;
	}
	st->fifo[(st->fifo_head + st->fifo_n++) % e->nreqs] = r;
	return IOQ_QUEUED;
}

/* The loop counts requests: a request is submitted once all its queued parts are. */
static int stripe_submit(struct ioengine *e)
{
	struct stripe *st = e->priv;
	int n = st->inner.ops->submit(&st->inner), reqs = 0;

	if (n < 0)
		return n;
	st->parts_inflight += (unsigned)n;
	st->credit += (unsigned)n;
	while (st->fifo_n) {
		struct io_req *r = st->fifo[st->fifo_head];
		unsigned q = st->reqs[r->slot].queued;

		if (q > st->credit)
			break;
		st->credit -= q;
		st->fifo_head = (st->fifo_head + 1) % e->nreqs;
		st->fifo_n--;
		reqs++;
	}
	return reqs;
}

static void part_done(struct ioengine *e, struct stripe *st, struct io_req *p)
{
	unsigned slot = p->slot / st->max_parts;

	if (--st->reqs[slot].pending)
		return;
	finish(st, &e->reqs[slot]);
	st->done[st->ndone++] = &e->reqs[slot];
}

/* Reap parts until min requests are complete (one poll when min is 0). */
static int stripe_getevents(struct ioengine *e, unsigned min, unsigned max)
{
	struct stripe *st = e->priv;
	const struct ioengine_ops *ops = st->inner.ops;
	unsigned n;

	/* The loop has read the requests of the last call: drop them. */
	st->ndone -= st->ntaken;
	memmove(st->done, st->done + st->ntaken, st->ndone * sizeof(*st->done));
	do {
		int got;

		if (!st->parts_inflight)
			break;
		got = ops->getevents(&st->inner, st->ndone < min, st->inner.nreqs);
		if (got < 0)
			return got;
		st->parts_inflight -= (unsigned)got;
		for (int i = 0; i < got; i++)
			part_done(e, st, ops->event(&st->inner, (unsigned)i));
	} while (st->ndone < min);
	n = st->ndone < max ? st->ndone : max;
	st->ntaken = n;
	return (int)n;
}

static struct io_req *stripe_event(struct ioengine *e, unsigned i)
{
	struct stripe *st = e->priv;

	return st->done[i];
}

/* The pool of parts: each shares its request's buffer, so registered buffers still fit. */
static int alloc_parts(struct ioengine *e, struct stripe *st)
{
	unsigned n = e->nreqs * st->max_parts;

	st->parts = calloc(n, sizeof(*st->parts));
	st->cuts = calloc(st->max_parts, sizeof(*st->cuts));
	st->reqs = calloc(e->nreqs, sizeof(*st->reqs));
	st->fifo = calloc(e->nreqs, sizeof(*st->fifo));
	st->done = calloc(e->nreqs, sizeof(*st->done));
	st->io = calloc(st->nmembers, sizeof(*st->io));
	if (!st->parts || !st->cuts || !st->reqs || !st->fifo || !st->done || !st->io)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		st->parts[i].slot = i;
		st->parts[i].buf_slot = i / st->max_parts;
		st->parts[i].buf_base = e->reqs[i / st->max_parts].buf_base;
		st->parts[i].dir = IO_NDIR;
	}
	st->inner.job = e->job;
	st->inner.opts = e->opts;
	st->inner.files = st->members;
	st->inner.nfiles = st->nmembers;
	st->inner.reqs = st->parts;
	st->inner.nreqs = n;
	st->inner.bufs = e->bufs;
	st->inner.nbufs = e->nbufs;
	st->inner.buf_size = e->buf_size;
	return 0;
}

static int stripe_init(struct ioengine *e)
{
	struct stripe *st = e->priv;
	int ret;

	ret = alloc_parts(e, st);
	if (ret < 0)
		return ret;
	ret = st->inner.ops->init ? st->inner.ops->init(&st->inner) : 0;
	st->inner_up = ret == 0;
	return ret;
}

static void stripe_cleanup(struct ioengine *e)
{
	struct stripe *st = e->priv;

	if (st->inner_up && st->inner.ops->cleanup)
		st->inner.ops->cleanup(&st->inner);
	st->inner_up = false;
}

static int stripe_open_files(struct ioengine *e)
{
	struct stripe *st = e->priv;

	return st->inner.ops->open_files ? st->inner.ops->open_files(&st->inner) : 0;
}

static void stripe_close_files(struct ioengine *e)
{
	struct stripe *st = e->priv;

	if (st->inner_up && st->inner.ops->close_files)
		st->inner.ops->close_files(&st->inner);
}

static const struct ioengine_ops stripe_ops = {
	.init		= stripe_init,
	.cleanup	= stripe_cleanup,
	.open_files	= stripe_open_files,
	.close_files	= stripe_close_files,
	.queue		= stripe_queue,
	.submit		= stripe_submit,
	.getevents	= stripe_getevents,
	.event		= stripe_event,
};

/* The members' sizes as md sees them; the target was sized from the same numbers. */
static int map_members(struct stripe *st, const struct job_desc *j)
{
	uint64_t *sizes = calloc(st->nmembers, sizeof(*sizes));
	int ret;

	if (!sizes)
		return -ENOMEM;
	for (unsigned i = 0; i < st->nmembers; i++)
		sizes[i] = st->members[i].real_size;
	ret = stripe_map_init(&st->map, j->stripe_chunk, sizes, st->nmembers);
	free(sizes);
	st->max_parts = stripe_map_max_parts(&st->map, job_bs_max(j));
	if (st->max_parts < st->nmembers)
		st->max_parts = st->nmembers;	/* a sync goes to every member */
	return ret;
}

int stripe_attach(struct worker *w)
{
	struct stripe *st = calloc(1, sizeof(*st));
	int ret;

	if (!st)
		return -ENOMEM;
	st->members = w->files;
	st->nmembers = w->nfiles;
	ret = map_members(st, w->job);
	if (ret < 0) {
		free(st);
		return ret;
	}
	st->inner.ops = w->ops;
	st->ops = stripe_ops;
	st->ops.name = w->ops->name;
	st->ops.init_hint = w->ops->init_hint;
	/* At iodepth 1 the parts are still in flight together: never complete in queue(). */
	st->ops.flags = w->ops->flags & ~IOENG_INLINE_QD1;
	if (w->ops->flags & IOENG_SYNC) {
		st->ops.submit = NULL;	/* every part completes in queue() */
		st->ops.getevents = NULL;
		st->ops.event = NULL;
	}
	w->stripe = st;
	w->ops = &st->ops;
	w->eng.priv = st;
	w->files = w->target;
	w->nfiles = 1;
	return 0;
}

void stripe_detach(struct worker *w)
{
	struct stripe *st = w->stripe;

	if (!st)
		return;
	w->ops = st->inner.ops;
	w->eng.priv = NULL;
	for (unsigned i = 0; st->io && w->member_io && i < st->nmembers; i++) {
		struct stripe_member_io *to = &w->member_io[i];

		for (int d = 0; d < IO_NDIR; d++) {
			to->ios[d] += st->io[i].ios[d];
			to->bytes[d] += st->io[i].bytes[d];
		}
		to->flushes += st->io[i].flushes;
	}
	free(st->io);
	free(st->parts);
	free(st->cuts);
	free(st->reqs);
	free(st->fifo);
	free(st->done);
	free(st);
	w->stripe = NULL;
}
