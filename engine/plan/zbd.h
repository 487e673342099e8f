/*
 * zonemode=zbd: I/O to zones with write pointers, as fio's zoned block device mode does it
 * on a file or a device that is not zoned, whose zones it emulates. A write goes to its
 * zone's write pointer, and a full zone is reset (emptied) before it is written again; reads
 * stay below the write pointers; max_open_zones and job_max_open_zones bound the zones
 * open for writing; zone_reset_threshold and zone_reset_frequency reset zones early.
 *
 * The zones of a file are shared by every job of the run that names it, across phases, as
 * fio shares them, so a job that reads after one that wrote finds its data. Emulated write
 * pointers start at each zone's start, since nothing on the target records them. A
 * zoned device (the kernel's queue/zoned not "none") is refused: iojob does not report or
 * reset real zones.
 */
#ifndef ENGINE_PLAN_ZBD_H
#define ENGINE_PLAN_ZBD_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "jobs/job.h"

struct io_file;
struct worker;

#define ZBD_MAX_OPEN_ZONES 4096	/* fio's limit of max_open_zones */

struct zbd_zone {
	uint64_t start;
	uint64_t wp;		/* where the next write of the zone goes */
	uint64_t cap;		/* bytes of the zone that can be written, from start */
	bool open;		/* in the open list (kept only under max_open_zones) */
	const struct job_desc *opener;	/* the job that opened it, for job_max_open_zones */
	bool reset_due;		/* zone_reset_frequency chose it: reset before the next write */
};

/* The zones of one file or device, shared by the jobs that name it. */
struct zbd_info {
	pthread_mutex_t lock;	/* every member below, and the zones */
	char *path;
	uint64_t zone_size;
	uint32_t nr_zones;
	unsigned max_open;	/* 0: no limit, and open zones are not tracked (as fio) */
	unsigned num_open;
	uint64_t with_data;	/* bytes below the write pointers */
	uint32_t write_cnt;	/* writes until zone_reset_frequency resets one */
	uint32_t open_zones[ZBD_MAX_OPEN_ZONES];	/* in the order they opened */
	struct zbd_zone zones[];	/* nr_zones, then one starting where the last ends */
};

/* The run's zone tables, one per path. */
struct zbd_set {
	struct zbd_info **infos;
	unsigned n;
};

/*
 * Give a zonemode=zbd job's files their zones: the table of an earlier job with the same
 * path, or a new one of the target's size (as laid out). The region is then aligned to
 * zones as fio aligns it for a job that writes (offset up, length down), with a note. 0 or
 * -EINVAL (d says why: a zoned device, a target smaller than a zone, max_open_zones that
 * differ between jobs of a file), -ENOMEM.
 */
int zbd_attach(const struct job_desc *j, struct io_file *f, unsigned n, struct zbd_set *set,
	       struct diag *d);

void zbd_set_free(struct zbd_set *set);

/* As the job's I/O starts: a writing job that verifies empties its zones first, as fio's. */
void zbd_job_start(struct worker *w);

/* A pass over f starts (loops, io_size past size): fio's reopen resets what it resets. */
void zbd_pass(struct worker *w, struct io_file *f);

/* A mixed job's read while its files hold no data is a write, so that there is some. */
int zbd_adjust_dir(const struct worker *w, int d);

/*
 * Sequential jobs: move each file's stream past what a zone cannot take (the zone's end
 * past its capacity) and, with zoneskip, to the next zone after each zone's bytes.
 */
void zbd_seq_step(struct worker *w, int d);

/*
 * Move the I/O the plan chose (file fi, *off from the region's start, *len bytes) where
 * its zones allow: a write to the write pointer of its zone or of an open one, resetting a
 * full zone first; a read below a write pointer. False when it cannot go anywhere: the
 * job's I/O ends there, as fio's does (w->error set where fio fails the job).
 */
bool zbd_adjust(struct worker *w, unsigned fi, int d, uint64_t *off, uint32_t *len);

#endif
