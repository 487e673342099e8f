/*
 * The planner's offsets in fio's rarer forms: sequential skips forwards and backwards
 * (rw=read:8k, rw=read:-8k), strided zones (zonemode=strided) and the zoned random
 * distributions. Each follows the fio 3.33 function named above it, so that a job's
 * offsets are fio's.
 */
#include "engine/plan/io_plan_offsets.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine/plan/files.h"
#include "engine/worker.h"

uint64_t plan_file_end(const struct io_file *f)
{
	uint64_t region_end = f->io_off + f->io_len;

	return f->real_size > region_end ? f->real_size : region_end;
}

/*
 * A skipping or strided pass ran off its region or file: the job ends there, as fio's
 * does, unless it is time based, its io_size asks for more than the region holds or loops
 * are left; then it starts over from the region's start and its first zone.
 */
static bool pass_wraps(struct worker *w, unsigned fi)
{
	struct io_plan *p = &w->plan;
	struct plan_file *pf = &p->files[fi];

	if (!p->passes_left)
		return false;
	if (p->passes_left != UINT32_MAX)
		p->passes_left--;
	for (int d = 0; d < IO_NDIR; d++)
		pf->seq_pos[d] = 0;
	pf->zone_base = 0;
	p->zone_bytes = 0;
	plan_new_pass(w, &w->files[fi]);
	return true;
}

/*
 * fio's get_next_seq_offset() with ddir_seq_add: seq_pos holds the end of the last I/O.
 * The skip is added to it (after the first I/O); a forward skip past the file returns to
 * the start, a backward one below the start returns to the region's end less the skip.
 * Positions count from fio's file_offset, the region's start or a strided zone's, and fio
 * compares them with the file's size here, and so does this.
 */
static bool skip_try(struct worker *w, unsigned fi, int d, uint32_t len, uint64_t *offp)
{
	const struct io_file *f = &w->files[fi];
	struct plan_file *pf = &w->plan.files[fi];
	int64_t add = w->job->rw_nr;
	uint64_t start = f->io_off + pf->zone_base, real = plan_file_end(f);
	uint64_t last = f->io_off + pf->seq_pos[d], pos;
	uint64_t back_to = real > f->io_len ? f->io_len : real;

	if (last >= real)
		return false;
	if (last == start && start && add < 0)
		last = back_to;
	pos = last - start;
	if (pos && add) {
		pos += (uint64_t)add;
		if (pos >= real)
			pos = add > 0 ? start : back_to + (uint64_t)add;
	}
	if (pos >= f->io_len || start + pos + len > real)
		return false;
	pf->seq_pos[d] = pf->zone_base + pos + len;
	*offp = pf->zone_base + pos;
	return true;
}

bool plan_skip_offset(struct worker *w, unsigned fi, int d, uint32_t len, uint64_t *offp)
{
	if (skip_try(w, fi, d, len, offp))
		return true;
	return pass_wraps(w, fi) && skip_try(w, fi, d, len, offp);
}

/*
 * fio's setup_strided_zone_mode(): after zonesize bytes the zone moves on by zonerange +
 * zoneskip (back to the region's start past the file's end); sequential I/O stays within
 * the zone's range, and random I/O draws a new pass each zonerange bytes.
 */
void plan_zone_step(struct worker *w, unsigned fi, int d)
{
	const struct job_desc *j = w->job;
	struct io_plan *p = &w->plan;
	struct plan_file *pf = &p->files[fi];
	const struct io_file *f = &w->files[fi];

	if (p->zone_bytes >= j->zone_size) {
		p->zone_bytes = 0;
		pf->zone_base += j->zone_range + j->zone_skip;
		if (f->io_off + pf->zone_base >= plan_file_end(f))
			pf->zone_base = 0;
		for (int k = 0; k < IO_NDIR; k++)
			pf->seq_pos[k] = pf->zone_base;
	}
	if (pf->seq_pos[d] >= pf->zone_base + j->zone_range)
		pf->seq_pos[d] = pf->zone_base;
	if (p->zone_bytes % j->zone_range == 0 && p->random)
		offgen_new_pass(&pf->gen);
}

/*
 * fio's zone_state_index: percent v of the draws goes to the zone that holds it, whose
 * blocks are its share of lastb (zoned) or its bytes (zoned_abs), after the zones before.
 */
static int zones_build(struct worker *w, unsigned fi, int d, uint64_t lastb)
{
	const struct job_desc *j = w->job;
	const struct dist_zone *z = j->dist_zones[d];
	struct zone_pick *zp;
	uint64_t align = w->plan.align, sprev = 0, bprev = 0;
	unsigned v = 0;

	zp = calloc(100, sizeof(*zp));
	if (!zp)
		return -ENOMEM;
	w->plan.files[fi].zpick[d] = zp;
	for (unsigned i = 0; i < j->ndist_zones[d]; i++) {
		uint64_t start, end;

		if (j->random_distribution == DIST_ZONED) {
			start = sprev * lastb / 100;
			end = (sprev + z[i].size_pct) * lastb / 100;
			sprev += z[i].size_pct;
		} else {
			start = bprev / align;
			end = (bprev + z[i].size_bytes) / align;
			bprev += z[i].size_bytes;
			if (end > lastb) {
				snprintf(w->error_msg, sizeof(w->error_msg), "job '%s': option "
					 "'random_distribution': the zoned_abs zones (%" PRIu64
					 " bytes) run past the region of '%s' (%" PRIu64 " bytes)",
					 j->name, bprev, w->files[fi].path, lastb * align);
				return -ERANGE;
			}
		}
		for (unsigned k = 0; k < z[i].access_pct && v < 100; k++, v++) {
			zp[v].start = start;
			zp[v].n = end > start ? end - start : 1;
		}
	}
	return 0;
}

int plan_zones_init(struct worker *w, unsigned fi)
{
	const struct job_desc *j = w->job;
	const struct io_file *f = &w->files[fi];
	uint64_t align = w->plan.align, span, lastb;
	int ret;

	if (j->random_distribution != DIST_ZONED && j->random_distribution != DIST_ZONED_ABS)
		return 0;
	for (int d = 0; d < IO_NDIR; d++) {
		uint64_t min = j->bs[d].min;

		if (!j->ndist_zones[d] || !rw_does(j->rw, d))
			continue;
		/* fio's last_block(): the region (or zone), less what the block overhangs */
		span = j->zonemode == ZONE_STRIDED ? j->zone_range : f->io_len;
		if (min > align)
			span -= min - align;
		lastb = span / align;
		ret = zones_build(w, fi, d, lastb);
		if (ret < 0)
			return ret;
	}
	return 0;
}

void plan_zones_free(struct plan_file *pf)
{
	for (int d = 0; d < IO_NDIR; d++) {
		free(pf->zpick[d]);
		pf->zpick[d] = NULL;
	}
}

uint64_t plan_zoned_block(struct worker *w, struct plan_file *pf, int d)
{
	const struct zone_pick *zp = &pf->zpick[d][rng_below(&w->rng, 100)];
	uint64_t b = zp->start + rng_below(&w->rng, zp->n);

	/* a block whose I/O would pass the region's end: the last that fits */
	return b < pf->gen.nblocks ? b : pf->gen.nblocks - 1;
}

int plan_sequence_check(struct worker *w, unsigned fi)
{
	const struct job_desc *j = w->job;
	const struct io_file *f = &w->files[fi];

	if (j->random_distribution != DIST_SEQUENCE || j->random_sequence_stride)
		return 0;
	for (int d = 0; d < IO_NDIR; d++) {
		uint64_t ba = j->blockalign[d], top = 0;

		if (!rw_does(j->rw, d))
			continue;
		for (unsigned i = 0; i < j->ndist_seq; i++)
			top = j->dist_seq[i] > top ? j->dist_seq[i] : top;
		if (top < f->io_len / ba && top * ba + j->bs[d].min <= f->io_len)
			continue;
		snprintf(w->error_msg, sizeof(w->error_msg), "job '%s': option "
			 "'random_distribution': sequence block %" PRIu64 " of %" PRIu64
			 " bytes is past the region of '%s' (%" PRIu64 " bytes)", j->name, top, ba,
			 f->path, f->io_len);
		return -ERANGE;
	}
	return 0;
}

uint64_t plan_sequence_block(struct worker *w, unsigned fi, int d, uint32_t len)
{
	const struct job_desc *j = w->job;
	uint64_t k = w->plan.seq_drawn[d], b;

	if (k == UINT64_MAX)
		return UINT64_MAX;	/* a stride went past the end: over for good */
	b = j->dist_seq[k % j->ndist_seq];
	if (j->random_sequence_stride)
		b += k / j->ndist_seq * j->ndist_seq;
	if (b * j->blockalign[d] + len > w->files[fi].io_len) {
		w->plan.seq_drawn[d] = UINT64_MAX;
		return UINT64_MAX;
	}
	w->plan.seq_drawn[d] = k + 1;
	return b;
}
