/*
 * trim_percentage: written blocks picked at that chance are trimmed again, trim_backlog
 * writes apart in batches of trim_backlog_batch (or all when the writes end), and then
 * read back as zeros (trim_verify_zero) or left out of the read-back.
 */
#include "engine/verify/verify_priv.h"
#include "engine/worker.h"

/* trim_percentage: each written block is picked for a trim with that chance, as in fio. */
void verify_trim_pick(struct worker *w, struct io_req *r, uint64_t first)
{
	struct verify *v = w->verify;

	if (!v->trim_q.e || rng_below(&v->trim_rng, 100) >= w->job->trim_percentage)
		return;
	ring_push(&v->trim_q, r->file, first, r->full_len);
}

/* A trim of a picked block completed: its chunks now read zeros (or are not checked). */
void verify_trim_done(struct worker *w, struct io_req *r)
{
	struct verify *v = w->verify;
	unsigned fi = verify_file_index(w, r->file);
	uint64_t first = r->off - (r->full_len - r->len);

	for (uint32_t at = 0; at + v->interval <= r->full_len; at += v->interval) {
		uint64_t k = verify_unit_of(v, r->file, first + at);
		uint32_t gen = w->job->trim_verify_zero ? GEN_TRIMMED : 0;

		if (v->busy[fi]) {
			/* a write went out while the trim was in flight: either may be there */
			if ((v->busy[fi][k] & BUSY_COUNT) || v->issued[fi][k] > v->read_snap[r->slot])
				gen = GEN_SKIP;
			v->busy[fi][k] &= (uint16_t)~BUSY_TRIM;
			if (gen == GEN_SKIP)
				v->busy[fi][k] |= BUSY_OVERLAP;
			if (!(v->busy[fi][k] & BUSY_COUNT))
				v->busy[fi][k] = 0;
		}
		v->gen[fi][k] = gen;
	}
}

/* The oldest picked block goes out as a trim; its chunks are busy with it until it ends. */
void verify_trim_issue(struct worker *w, struct io_req *r)
{
	struct verify *v = w->verify;
	struct backlog_entry e = v->trim_q.e[v->trim_q.head++ % v->trim_q.cap];
	unsigned fi = verify_file_index(w, e.file);

	verify_fill_req(w, r, IO_TRIM, e.file, e.off, e.len);
	for (uint32_t at = 0; v->busy[fi] && at + v->interval <= e.len; at += v->interval) {
		uint16_t *b = &v->busy[fi][verify_unit_of(v, e.file, e.off + at)];

		if (*b & BUSY_COUNT)
			*b |= BUSY_OVERLAP;
		*b |= BUSY_TRIM;
	}
}

/* trim_backlog: every N writes, a batch of the picked blocks is trimmed. */
bool verify_trim_due(struct worker *w)
{
	struct verify *v = w->verify;

	if (!v->trim_q.e || !ring_len(&v->trim_q))
		return false;
	if (v->trims_at_end)
		return true;
	if (!v->trim_left && v->trim_backlog && v->since_trim >= v->trim_backlog) {
		v->since_trim = 0;
		v->trim_left = v->trim_batch;
	}
	if (!v->trim_left)
		return false;
	v->trim_left--;
	return true;
}
