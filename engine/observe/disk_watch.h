/*
 * Which block devices hold a job's files, and their /sys/block counters read at the start
 * and the end of the timed phase, into output/diskstats.h's set the reports read.
 * Partitions count as their whole disk; an md or dm device brings its member devices
 * (slaves) along, as fio reports them; a loop device comes alone, as in fio (not the disk
 * under its backing file). sysfs is the reports' tree (base/sysfs.h): $IOJOB_SYSFS_ROOT
 * when that is set (tests point it at a fake tree), else /sys.
 */
#ifndef ENGINE_OBSERVE_DISK_WATCH_H
#define ENGINE_OBSERVE_DISK_WATCH_H

#include "output/diskstats.h"

/*
 * Add the disk that holds path (a file: its file system's device; a block device: the
 * device itself), mapped from a partition to its disk, plus its members: the slaves of an
 * md/dm device (one level: a member's own members are not listed); a loop device has
 * none. Adding a disk twice is a no-op. Returns 0, or -ENOENT when path
 * is on no block device (tmpfs, a pipe): that is not an error for the caller, there is
 * just nothing to report.
 */
int diskset_add_path(struct disk_set *s, const char *path);

/* diskset_add_path() for the block device maj:min itself. */
int diskset_add_dev(struct disk_set *s, unsigned maj, unsigned min);

/*
 * Add an entry that is in no sysfs, such as a stripe the engine makes of member files and
 * devices, with its members listed under it as an md array's are: a block device's disk,
 * whose counters the kernel keeps, or for any other path an entry named after it (its tail
 * if long) that is in no sysfs either. Snapshots leave made-up counters alone: the caller
 * adds into their end counters (diskset_made_up_counters). Returns 0, or -errno.
 */
int diskset_add_made_up(struct disk_set *s, const char *name, const char *const *paths,
			unsigned n);

/*
 * The end counters of the made-up entry called name (member NULL), or of its made-up
 * member for that path; NULL if there is none (a block device's disk has the kernel's).
 */
struct disk_counters *diskset_made_up_counters(struct disk_set *s, const char *name,
					       const char *member);

/* Read every disk's counters into start (begin) or end (finish) and stamp the time. */
int diskset_snapshot_start(struct disk_set *s);
int diskset_snapshot_end(struct disk_set *s);

/*
 * Take [start_ns, end_ns) (CLOCK_MONOTONIC, inside the snapshots) as the time the util
 * is over, rather than the time between the snapshots.
 */
void diskset_set_window(struct disk_set *s, uint64_t start_ns, uint64_t end_ns);

/* Free the list. */
void diskset_free(struct disk_set *s);

#endif
