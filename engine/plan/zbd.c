/*
 * zonemode=zbd's zones: where each write and read may go, resets and open zones, as fio
 * 3.33's zbd.c behaves on targets whose zones it emulates (see zbd.h). Offsets here are
 * from the target's start; the planner's are from the region's (io_off).
 */
#include "engine/plan/zbd.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "engine/ioengine.h"
#include "engine/worker.h"

static uint32_t zone_idx(const struct zbd_info *z, uint64_t off)
{
	uint64_t i = off / z->zone_size;

	return i < z->nr_zones ? (uint32_t)i : z->nr_zones;
}

static uint64_t cap_end(const struct zbd_zone *z)
{
	return z->start + z->cap;
}

/* Fewer than need bytes left before the zone's capacity ends. */
static bool zone_full(const struct zbd_zone *z, uint64_t need)
{
	return z->wp + need > cap_end(z);
}

/* The job's zones: [*lo, *hi), those its region of f covers. */
static void job_zones(const struct io_file *f, uint32_t *lo, uint32_t *hi)
{
	*lo = zone_idx(f->zbd, f->io_off);
	*hi = zone_idx(f->zbd, f->io_off + f->io_len);
}

static bool in_region(const struct io_file *f, uint64_t off)
{
	return off - f->io_off < f->io_len;
}

/* The kernel's zoned model of a block device: "none" for any other target. */
static bool device_is_zoned(const struct io_file *f)
{
	char path[96], model[32] = "none";
	struct stat sb;
	FILE *fp;

	if (!f->is_bdev || stat(f->path, &sb) < 0)
		return false;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/zoned", major(sb.st_rdev),
		 minor(sb.st_rdev));
	fp = fopen(path, "r");
	if (!fp)
		return false;
	if (!fgets(model, sizeof(model), fp))
		strcpy(model, "none");
	fclose(fp);
	return strncmp(model, "none", 4) != 0;
}

static struct zbd_info *zbd_new(const struct job_desc *j, const struct io_file *f,
				uint64_t size)
{
	uint32_t n = (uint32_t)((size + j->zone_size - 1) / j->zone_size);
	struct zbd_info *z = calloc(1, sizeof(*z) + (n + 1) * sizeof(z->zones[0]));

	if (!z || !(z->path = strdup(f->path))) {
		free(z);
		return NULL;
	}
	pthread_mutex_init(&z->lock, NULL);
	z->zone_size = j->zone_size;
	z->nr_zones = n;
	z->max_open = j->max_open_zones;
	for (uint32_t i = 0; i <= n; i++) {
		z->zones[i].start = (uint64_t)i * j->zone_size;
		z->zones[i].wp = z->zones[i].start;
		z->zones[i].cap = j->zone_capacity ? j->zone_capacity : j->zone_size;
	}
	return z;
}

static struct zbd_info *zbd_find(struct zbd_set *set, const char *path)
{
	for (unsigned i = 0; i < set->n; i++)
		if (!strcmp(set->infos[i]->path, path))
			return set->infos[i];
	return NULL;
}

static int zbd_add(struct zbd_set *set, struct zbd_info *z)
{
	struct zbd_info **infos = realloc(set->infos, (set->n + 1) * sizeof(*infos));

	if (!infos)
		return -ENOMEM;
	set->infos = infos;
	set->infos[set->n++] = z;
	return 0;
}

/*
 * As fio's zbd_zone_align_file_sizes(): a job that writes (any but rw=read, so randread
 * too, as fio) works on whole zones: its offset goes up to a zone's start, its length down.
 */
static int align_region(const struct job_desc *j, struct io_file *f, struct diag *d)
{
	const struct zbd_info *z = f->zbd;
	uint64_t size = z->zones[z->nr_zones].start, start, end;

	if (j->rw == RW_READ || f->io_off >= size || !f->io_len)
		return 0;
	/* fio's byte budget stays the region asked for, rounded or not */
	f->asked_len = f->io_len;
	start = z->zones[zone_idx(z, f->io_off)].start;
	if (start != f->io_off) {
		start += z->zone_size;
		if (start >= f->io_off + f->io_len)
			goto too_small;
		diag_note(d, "job '%s': %s: offset rounded up from %" PRIu64 " to %" PRIu64
			  " (zonemode=zbd: a zone's start, as fio)", j->name, f->path, f->io_off,
			  start);
		f->io_len -= start - f->io_off;
		f->io_off = start;
	}
	end = z->zones[zone_idx(z, f->io_off + f->io_len)].start;
	if (end != f->io_off + f->io_len) {
		if (end <= f->io_off)
			goto too_small;
		diag_note(d, "job '%s': %s: size rounded down from %" PRIu64 " to %" PRIu64
			  " (zonemode=zbd: whole zones, as fio)", j->name, f->path, f->io_len,
			  end - f->io_off);
		f->io_len = end - f->io_off;
	}
	return 0;
too_small:
	return diag_set(d, -EINVAL, "job '%s': %s: zonemode=zbd: the region (%" PRIu64 " bytes "
			"at %" PRIu64 ") holds no whole zone of %" PRIu64 " bytes", j->name, f->path,
			f->io_len, f->io_off, z->zone_size);
}

static int attach_one(const struct job_desc *j, struct io_file *f, struct zbd_set *set,
		      struct diag *d)
{
	/* fio's zones are the target's as it is, before a file is laid out (a new one's: as
	 * it will be, where fio 3.33 fails) */
	uint64_t size = f->real_size ? f->real_size : f->want_size;
	struct zbd_info *z = zbd_find(set, f->path);

	if (device_is_zoned(f))
		return diag_set(d, -EINVAL, "job '%s': %s is a zoned block device: iojob emulates "
				"zones on other targets only (it does not report or reset a device's "
				"zones)", j->name, f->path);
	if (!z) {
		if (size < j->zone_size)
			return diag_set(d, -EINVAL, "job '%s': %s: its size (%" PRIu64 ") is smaller "
					"than a zone (zonesize=%" PRIu64 ")", j->name, f->path, size,
					j->zone_size);
		z = zbd_new(j, f, size);
		if (!z || zbd_add(set, z) < 0) {
			if (z)
				free(z->path);
			free(z);
			return -ENOMEM;
		}
	} else if (z->zone_size != j->zone_size) {
		return diag_set(d, -EINVAL, "job '%s': %s: zonesize %" PRIu64 " is not the %" PRIu64
				" of an earlier job on it", j->name, f->path, j->zone_size,
				z->zone_size);
	} else if (j->max_open_zones && z->max_open != j->max_open_zones) {
		return diag_set(d, -EINVAL, "job '%s': %s: max_open_zones=%u differs from an "
				"earlier job's on it (%u), as fio refuses", j->name, f->path,
				j->max_open_zones, z->max_open);
	}
	f->zbd = z;
	return align_region(j, f, d);
}

int zbd_attach(const struct job_desc *j, struct io_file *f, unsigned n, struct zbd_set *set,
	       struct diag *d)
{
	int ret = 0;

	if (j->zonemode != ZONE_ZBD)
		return 0;
	for (unsigned i = 0; !ret && i < n; i++)
		ret = attach_one(j, &f[i], set, d);
	return ret;
}

void zbd_set_free(struct zbd_set *set)
{
	for (unsigned i = 0; i < set->n; i++) {
		pthread_mutex_destroy(&set->infos[i]->lock);
		free(set->infos[i]->path);
		free(set->infos[i]);
	}
	free(set->infos);
	set->infos = NULL;
	set->n = 0;
}

/* Empty zone z: its write pointer back to its start, one reset counted for the job. */
static void reset_zone(struct worker *w, struct zbd_info *info, struct zbd_zone *z)
{
	if (z->wp == z->start)
		return;
	info->with_data -= z->wp - z->start;
	z->wp = z->start;
	w->st->zone_resets++;
}

static void close_zone(struct zbd_info *info, struct zbd_zone *z)
{
	uint32_t idx = (uint32_t)(z - info->zones), i;

	if (!z->open)
		return;
	for (i = 0; i < info->num_open && info->open_zones[i] != idx; i++)
		;
	if (i == info->num_open)
		return;
	memmove(&info->open_zones[i], &info->open_zones[i + 1],
		(info->num_open - i - 1) * sizeof(info->open_zones[0]));
	info->num_open--;
	z->open = false;
	z->opener = NULL;
}

/* The writes before the next zone_reset_frequency reset: 1/frequency, as fio's. */
static void reset_write_cnt(const struct job_desc *j, struct zbd_info *info)
{
	double f = j->zone_reset_frequency;

	info->write_cnt = f > 0 ? (1.0 / f < (double)UINT32_MAX ? (uint32_t)(1.0 / f) :
				   UINT32_MAX) : UINT32_MAX;
}

/*
 * As fio's zbd_file_reset() when a writing job opens a file or starts a pass over it: the
 * bytes with data are counted again over the job's zones (what fio's threshold and its
 * first-I/O rule then read, writes anywhere adding to it), a job that verifies empties its
 * zones so that no reset mid-run destroys data still to be read back, and
 * zone_reset_frequency's count starts again.
 */
static void file_pass(struct worker *w, struct io_file *f)
{
	const struct job_desc *j = w->job;
	struct zbd_info *info = f->zbd;
	uint64_t data = 0;
	uint32_t lo, hi;

	if (!info || !rw_does(j->rw, IO_WRITE))
		return;
	job_zones(f, &lo, &hi);
	pthread_mutex_lock(&info->lock);
	for (uint32_t z = lo; z < hi; z++)
		data += info->zones[z].wp - info->zones[z].start;
	info->with_data = data;
	for (uint32_t z = lo; j->verify && z < hi; z++) {
		close_zone(info, &info->zones[z]);
		reset_zone(w, info, &info->zones[z]);
	}
	reset_write_cnt(j, info);
	pthread_mutex_unlock(&info->lock);
}

void zbd_job_start(struct worker *w)
{
	for (unsigned i = 0; w->job->zonemode == ZONE_ZBD && i < w->nfiles; i++)
		file_pass(w, &w->files[i]);
}

void zbd_pass(struct worker *w, struct io_file *f)
{
	if (w->job->zonemode == ZONE_ZBD)
		file_pass(w, f);
}

int zbd_adjust_dir(const struct worker *w, int d)
{
	const struct job_desc *j = w->job;
	/* the file the I/O goes to, as fio looks at it: the planner's next */
	struct zbd_info *info = w->files[w->plan.cur_file < w->nfiles ? w->plan.cur_file : 0].zbd;
	uint64_t data;

	if (d != IO_READ || !rw_does(j->rw, IO_WRITE) || j->read_beyond_wp || !info)
		return d;
	pthread_mutex_lock(&info->lock);
	data = info->with_data;
	pthread_mutex_unlock(&info->lock);
	return data ? d : IO_WRITE;
}

void zbd_seq_step(struct worker *w, int d)
{
	const struct job_desc *j = w->job;

	if (w->plan.random || d > IO_WRITE)
		return;
	for (unsigned i = 0; i < w->nfiles; i++) {
		struct io_file *f = &w->files[i];
		struct plan_file *pf = &w->plan.files[i];
		struct zbd_info *info = f->zbd;
		const struct zbd_zone *z;
		uint64_t pos = f->io_off + pf->seq_pos[d];

		if (!info || zone_idx(info, pos) >= info->nr_zones)
			continue;
		z = &info->zones[zone_idx(info, pos)];
		if (d == IO_WRITE && z->cap < info->zone_size && pos >= cap_end(z) &&
		    pos < (z + 1)->start)
			pf->seq_pos[d] = (z + 1)->start - f->io_off;
		if (!j->zone_skip)
			continue;
		pthread_mutex_lock(&info->lock);
		if (w->plan.zone_bytes >= info->zone_size || pos >= (z + 1)->start ||
		    (d == IO_READ && !j->read_beyond_wp && pos >= z->wp)) {
			/*
			 * fio moves the region's start on by a zone and the skip, back to its
			 * start past the file's end (past the region's, fio fails an assertion
			 * there: here the region's end brings it back too)
			 */
			w->plan.zone_bytes = 0;
			pf->zone_base += info->zone_size + j->zone_skip;
			if (pf->zone_base >= f->io_len)
				pf->zone_base = 0;
			pf->seq_pos[d] = pf->zone_base;
		}
		pthread_mutex_unlock(&info->lock);
	}
}

/*
 * The open zones job j opened. fio counts them per job as zones open and close, and takes
 * one from whichever job's write fills a zone, so that a job filling another's zones
 * wraps its count below zero and opens no more (its writes end early): each zone here
 * remembers its opener instead.
 */
static unsigned opened_by(const struct zbd_info *info, const struct job_desc *j)
{
	unsigned n = 0;

	for (unsigned i = 0; i < info->num_open; i++)
		n += info->zones[info->open_zones[i]].opener == j;
	return n;
}

/*
 * Open zone z for the job's writes, as fio's zbd_open_zone(): always, without
 * max_open_zones, when the limits leave room otherwise. With verify a full zone is never
 * opened: resetting it would lose data still to be read back.
 */
static bool open_zone(struct worker *w, struct zbd_info *info, struct zbd_zone *z)
{
	const struct job_desc *j = w->job;

	if (j->verify && zone_full(z, j->bs[IO_WRITE].min))
		return false;
	if (!info->max_open)
		return true;
	if (z->open)
		return z->wp < cap_end(z);
	if (j->job_max_open_zones && opened_by(info, j) >= j->job_max_open_zones)
		return false;
	if (info->num_open >= info->max_open)
		return false;
	info->open_zones[info->num_open++] = (uint32_t)(z - info->zones);
	z->open = true;
	z->opener = j;
	return true;
}

/* One of the open zones, picked by where the I/O's offset lies in the region (fio's). */
static uint32_t pick_open(const struct io_file *f, uint64_t off)
{
	return (uint32_t)((off - f->io_off) * f->zbd->num_open / f->io_len);
}

/*
 * A zone a write can go to when its own cannot be opened, as fio's
 * zbd_convert_to_open_zone(): an open zone of the job's with room, else the next zones
 * after it that open, else any open one with room. NULL when none.
 */
static struct zbd_zone *other_zone(struct worker *w, struct io_file *f, uint64_t off)
{
	struct zbd_info *info = f->zbd;
	uint64_t min_bs = w->job->bs[IO_WRITE].min;
	uint32_t lo, hi, idx;
	struct zbd_zone *z;

	job_zones(f, &lo, &hi);
	idx = info->max_open ? info->open_zones[pick_open(f, off)] : zone_idx(info, off);
	idx = idx < lo ? lo : idx >= hi ? hi - 1 : idx;
	for (;;) {
		uint32_t k, t;

		if (!info->max_open)
			goto examine;
		if (!info->num_open)
			goto open_other;
		/* the open zones are the file's: start from a quasi-random one in the region */
		for (k = 0, t = pick_open(f, off); k < info->num_open; k++, t++) {
			if (t >= info->num_open)
				t = 0;
			if (info->open_zones[t] >= lo && info->open_zones[t] < hi)
				break;
		}
		if (k == info->num_open)
			return NULL;
		if (info->open_zones[t] == idx)
			break;
		idx = info->open_zones[t];
	}
examine:
	z = &info->zones[idx];
	if (z->wp + min_bs <= cap_end(z))
		return z;
open_other:
	z = &info->zones[idx];
	for (uint64_t n = f->io_len / info->zone_size; n > 0; n--) {
		z++;
		if (!in_region(f, z->start))
			z = &info->zones[lo];
		if (z->open)
			continue;
		if (open_zone(w, info, z))
			return z;
	}
	for (uint32_t i = 0; i < info->num_open; i++) {
		idx = info->open_zones[i];
		if (idx >= lo && idx < hi && info->zones[idx].wp + min_bs <= cap_end(&info->zones[idx]))
			return &info->zones[idx];
	}
	return NULL;
}

static bool fail_io(struct worker *w, int err, const char *msg)
{
	w->issuing = false;
	if (!w->error) {
		w->error = err;
		snprintf(w->error_msg, sizeof(w->error_msg), "job '%s': zonemode=zbd: %s",
			 w->job->name, msg);
	}
	return false;
}

/* A write: at a write pointer, resetting its zone first where it is full. */
static bool adjust_write(struct worker *w, struct io_file *f, uint64_t *off, uint32_t *len)
{
	const struct job_desc *j = w->job;
	struct zbd_info *info = f->zbd;
	uint64_t min_bs = j->bs[IO_WRITE].min, n;
	struct zbd_zone *z = &info->zones[zone_idx(info, *off)];

	if (!open_zone(w, info, z) && !(z = other_zone(w, f, *off)))
		return false;	/* no zone takes it: the job's writes end, as fio's */
	if (j->zone_reset_frequency > 0 &&
	    (double)info->with_data >= (double)f->io_len * j->zone_reset_threshold &&
	    --info->write_cnt == 0) {
		reset_write_cnt(j, info);
		z->reset_due = true;
	}
	if (z->reset_due || zone_full(z, min_bs)) {
		z->reset_due = false;
		reset_zone(w, info, z);
		if (z->cap < min_bs)
			return fail_io(w, EINVAL, "a zone's capacity is smaller than the block size");
	}
	*off = z->wp;
	n = cap_end(z) - *off;
	n = (*len < n ? *len : n) / min_bs * min_bs;
	if (!n)
		return fail_io(w, EIO, "a zone's remainder is smaller than the block size");
	*len = (uint32_t)n;
	info->with_data += *off + n - z->wp;
	z->wp = *off + n;
	/* full: it leaves the open zones (fio closes it as the write completes) */
	if (z->wp >= cap_end(z))
		close_zone(info, z);
	return true;
}

/* The zone nearest zb with min bytes written: after it, and before it for random I/O. */
static struct zbd_zone *zone_with_data(struct worker *w, struct io_file *f, uint32_t zb,
				       uint64_t min)
{
	struct zbd_info *info = f->zbd;
	bool random = w->plan.random;
	int64_t lo, hi, a = (int64_t)zb + 1, b = (int64_t)zb - 1;
	uint32_t ulo, uhi;

	job_zones(f, &ulo, &uhi);
	lo = ulo;
	hi = uhi;
	for (; a < hi || b >= lo; a++, b--) {
		if (a < hi) {
			if (info->zones[a].start + min <= info->zones[a].wp)
				return &info->zones[a];
		} else if (!random) {
			break;
		}
		if (random && b >= lo && info->zones[b].start + min <= info->zones[b].wp)
			return &info->zones[b];
	}
	return NULL;
}

/* A read: below a write pointer, in its zone or the nearest with data. */
static bool adjust_read(struct worker *w, struct io_file *f, uint64_t *off, uint32_t *len)
{
	struct zbd_info *info = f->zbd;
	uint64_t min_bs = w->job->bs[IO_READ].min, range, n;
	uint32_t zi = zone_idx(info, *off);
	uint64_t orig_start = info->zones[zi].start;
	struct zbd_zone *z = &info->zones[zi];
	bool random = w->plan.random;

	range = z->wp - z->start;
	if (range < min_bs || (!random && *off + min_bs > z->wp)) {
		z = zone_with_data(w, f, zi, min_bs);
		if (!z)
			return false;	/* nothing written to read: the job's reads end */
		range = z->wp - z->start;
		if (!random)
			*off = z->start;
	}
	if (range <= *len)
		*off = z->start;
	else if (random)
		*off = z->start + (*off - orig_start) % (range - *len) / min_bs * min_bs;
	n = z->wp - *off;
	n = (*len < n ? *len : n) / min_bs * min_bs;
	*len = (uint32_t)n;
	return n > 0;
}

/*
 * A trim resets the zone it names, as fio's (zbd_do_io_u_trim): a random one goes to the
 * nearest zone with data. Nothing is sent to the target: emulated zones keep their data.
 */
static bool adjust_trim(struct worker *w, struct io_file *f, uint64_t *off)
{
	struct zbd_info *info = f->zbd;
	uint32_t zi = zone_idx(info, *off);
	struct zbd_zone *z = &info->zones[zi];

	if (w->plan.random && z->wp == z->start) {
		z = zone_with_data(w, f, zi, 1);
		if (!z)
			return false;	/* nothing to trim */
		*off = z->start;
	}
	if (*off != z->start)
		return fail_io(w, EINVAL, "a trim's offset is not a zone's start");
	reset_zone(w, info, z);
	return true;
}

bool zbd_adjust(struct worker *w, unsigned fi, int d, uint64_t *off, uint32_t *len)
{
	struct io_file *f = &w->files[fi];
	struct zbd_info *info = f->zbd;
	uint64_t at = f->io_off + *off;
	bool ok;

	if (!info || d >= IO_NDIR || (d == IO_READ && w->job->read_beyond_wp))
		return true;
	pthread_mutex_lock(&info->lock);
	ok = d == IO_WRITE ? adjust_write(w, f, &at, len) : d == IO_READ ?
	     adjust_read(w, f, &at, len) : adjust_trim(w, f, &at);
	pthread_mutex_unlock(&info->lock);
	*off = at - f->io_off;
	return ok;
}
