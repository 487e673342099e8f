/*
 * A striped job's logical target: its size and the job's region on it, checked before any
 * I/O, and its line in the disk statistics, which counts the jobs' requests as the kernel
 * counts an md array's while the members' lines show what reached each disk.
 */
#include "engine/stripe/stripe.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ioengine.h"
#include "engine/plan/region.h"
#include "engine/stripe/stripe_map.h"
#include "engine/observe/disk_watch.h"
#include "output/stats.h"
#include "base/diag.h"
#include "base/units.h"

/* Messages name the job, the option where it was set, and what was expected. */
static const char *chunk_option(const struct job_desc *j)
{
	return job_setting(j, "stripe_chunk") ? "stripe_chunk" : "filename";
}

/* Every member must address the chunk in whole logical blocks, or md refuses the array. */
static int check_blocks(const struct job_desc *j, const struct io_file *m, unsigned n,
			unsigned *lbs, struct diag *d)
{
	*lbs = 512;
	for (unsigned i = 0; i < n; i++) {
		unsigned b = m[i].lbs ? m[i].lbs : 512;	/* 0: a virtual member (null) */

		if (j->stripe_chunk % b)
			return job_fail(j, chunk_option(j), d, "option '%s': the chunk (%" PRIu64
					" bytes) is not a multiple of the logical block size of "
					"stripe member '%s' (%u bytes)", chunk_option(j),
					j->stripe_chunk, m[i].path, b);
		if (b > *lbs)
			*lbs = b;
	}
	return 0;
}

/*
 * md RAID0 puts what larger members hold beyond the smallest in a second zone striped over
 * fewer disks; iojob models one zone, so members must hold the same whole chunks.
 */
static int check_sizes(const struct job_desc *j, const struct io_file *m, unsigned n,
		       struct diag *d)
{
	uint64_t c = j->stripe_chunk, first = m[0].real_size / c;

	for (unsigned i = 1; i < n; i++) {
		if (m[i].real_size / c == first)
			continue;
		return job_fail(j, "filename", d, "option 'filename': stripe members '%s' (%"
				PRIu64 " bytes) and '%s' (%" PRIu64 " bytes) differ in size by a "
				"chunk or more (md RAID0 would stripe the rest in a second zone, "
				"which iojob does not model): make them the same size", m[0].path,
				m[0].real_size, m[i].path, m[i].real_size);
	}
	return 0;
}

static int map_of(const struct job_desc *j, const struct io_file *m, unsigned n,
		  struct stripe_map *map, struct diag *d)
{
	uint64_t *sizes = calloc(n, sizeof(*sizes));
	unsigned least = 0;
	int ret;

	if (!sizes)
		return diag_set(d, -ENOMEM, "out of memory");
	for (unsigned i = 0; i < n; i++) {
		sizes[i] = m[i].real_size;
		if (sizes[i] < sizes[least])
			least = i;
	}
	ret = stripe_map_init(map, j->stripe_chunk, sizes, n);
	free(sizes);
	if (ret < 0)
		return job_fail(j, chunk_option(j), d, "stripe member '%s' has %" PRIu64 " bytes, "
				"less than one chunk (%" PRIu64 " bytes)", m[least].path,
				m[least].real_size, j->stripe_chunk);
	return 0;
}

/* The region on the target as on a device: offset (+ clones' increments) and size. */
static int region(const struct job_desc *j, const struct stripe_map *map, struct io_file *t,
		  struct diag *d)
{
	uint64_t size = map->size, off, len;

	off = region_offset(j, size);
	len = region_length(j, size, off, 1);
	if (off > size || len > size - off) {
		const char *opt = job_setting(j, "size") ? "size" : "offset";

		return job_fail(j, opt, d, "option '%s': the stripe holds %" PRIu64 " bytes (%u "
				"members of %" PRIu64 "), and the region at offset %" PRIu64 " of %"
				PRIu64 " bytes goes past its end", opt, size, map->n,
				map->member_bytes, off, len);
	}
	if (len < job_bs_max(j))
		return job_fail(j, "bs", d, "option 'bs': the region of the stripe (%" PRIu64
				" bytes) is smaller than the block size (%" PRIu64 ")", len,
				job_bs_max(j));
	t->io_off = off;
	t->io_len = len;
	return 0;
}

/* "stripe:chunk=64k:A:B", as the job file could have written it: for messages. */
static char *target_name(const struct job_desc *j, const struct io_file *m, unsigned n)
{
	uint64_t c = j->stripe_chunk;
	size_t len = 64;
	char *s, *p;

	for (unsigned i = 0; i < n; i++)
		len += strlen(m[i].path) + 1;
	s = p = malloc(len);
	if (!s)
		return NULL;
	if (c % (1 << 20) == 0)
		p += sprintf(p, "stripe:chunk=%" PRIu64 "m", c >> 20);
	else if (c % 1024 == 0)
		p += sprintf(p, "stripe:chunk=%" PRIu64 "k", c >> 10);
	else
		p += sprintf(p, "stripe:chunk=%" PRIu64, c);
	for (unsigned i = 0; i < n; i++)
		p += sprintf(p, ":%s", m[i].path);
	return s;
}

int stripe_target(const struct job_desc *j, const struct io_file *members, unsigned n,
		  struct io_file **out, struct diag *d)
{
	struct stripe_map map;
	struct io_file *t;
	unsigned lbs;
	int ret;

	ret = check_blocks(j, members, n, &lbs, d);
	if (!ret)
		ret = map_of(j, members, n, &map, d);
	if (!ret)
		ret = check_sizes(j, members, n, d);
	if (ret)
		return ret;
	t = calloc(1, sizeof(*t));
	if (!t)
		return diag_set(d, -ENOMEM, "out of memory");
	t->fd = -1;
	t->shared = members[0].shared;
	t->lbs = lbs;
	t->real_size = t->want_size = map.size;
	t->path = target_name(j, members, n);
	ret = t->path ? region(j, &map, t, d) : diag_set(d, -ENOMEM, "out of memory");
	if (ret) {
		stripe_target_free(t);
		return ret;
	}
	*out = t;
	return 0;
}

void stripe_target_free(struct io_file *t)
{
	if (!t)
		return;
	free(t->path);
	free(t);
}

int stripe_disk_add(struct disk_set *s, unsigned id, const struct io_file *members,
		    unsigned n)
{
	const char **paths = calloc(n, sizeof(*paths));
	char name[32];
	int ret;

	if (!paths)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++)
		paths[i] = members[i].path;
	snprintf(name, sizeof(name), "stripe%u", id);
	ret = diskset_add_made_up(s, name, paths, n);
	free(paths);
	return ret < 0 ? ret : 0;
}

/* A file member's entry counts the parts; a device member's disk has the kernel's. */
static void count_members(struct disk_set *s, const char *name, const struct io_file *m,
			  const struct stripe_member_io *io, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		struct disk_counters *c = diskset_made_up_counters(s, name, m[i].path);

		if (!c)
			continue;
		for (int k = 0; k < 2; k++) {
			c->ios[k] += io[i].ios[k];
			c->sectors[k] += io[i].bytes[k] / 512;
		}
		c->discard_ios += io[i].ios[IO_TRIM];
		c->discard_sectors += io[i].bytes[IO_TRIM] / 512;
		c->flush_ios += io[i].flushes;
	}
}

void stripe_disk_count(struct disk_set *s, unsigned id, const struct job_stats *st,
		       const struct io_file *members, const struct stripe_member_io *io,
		       unsigned n)
{
	struct disk_counters *c;
	char name[32];

	snprintf(name, sizeof(name), "stripe%u", id);
	c = diskset_made_up_counters(s, name, NULL);
	if (!c)
		return;
	count_members(s, name, members, io, n);
	for (int k = 0; k < 2; k++) {
		const struct dir_stats *ds = &st->dir[k];

		c->ios[k] += ds->ios;
		c->sectors[k] += ds->bytes / 512;
		c->ticks[k] += ds->clat.sum / NS_PER_MSEC;	/* the kernel counts ms */
		c->in_queue += ds->clat.sum / NS_PER_MSEC;
	}
	c->discard_ios += st->dir[IO_TRIM].ios;
	c->discard_sectors += st->dir[IO_TRIM].bytes / 512;
	c->discard_ticks += st->dir[IO_TRIM].clat.sum / NS_PER_MSEC;
	c->flush_ios += st->sync_ios;
	c->flush_ticks += st->sync_lat.sum / NS_PER_MSEC;
}
