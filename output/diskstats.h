/*
 * Disk statistics: which block devices hold a job's files, and their /sys/block counters
 * at the start and the end of the timed phase. Partitions count as their whole disk; an
 * md or dm device brings its member devices (slaves) along, as fio reports them; a loop
 * device comes alone, as in fio (not the disk under its backing file). sysfs is the reports' tree (base/sysfs.h):
 * $IOJOB_SYSFS_ROOT when that is set (tests point it at a fake tree), else /sys.
 */
#ifndef OUTPUT_DISKSTATS_H
#define OUTPUT_DISKSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The fields of /sys/block/<dev>/stat; those a kernel does not have stay 0. */
struct disk_counters {
	uint64_t ios[2];	/* completed requests, read and write */
	uint64_t merges[2];
	uint64_t sectors[2];
	uint64_t ticks[2];	/* ms spent on requests */
	uint64_t in_flight;	/* requests in flight when read */
	uint64_t io_ticks;	/* ms the device was busy */
	uint64_t in_queue;	/* weighted ms in queue */
	uint64_t discard_ios, discard_merges, discard_sectors, discard_ticks;	/* Linux 4.18+ */
	uint64_t flush_ios, flush_ticks;					/* Linux 5.5+ */
};

struct disk {
	char name[64];		/* "vda", "md0", "loop3" */
	int master;		/* index of the stacked device this is a member of, -1 if none */
	unsigned nslaves;	/* members listed after this entry (md, dm, a stripe) */
	bool made_up;		/* not in sysfs: its counters are set by the engine (a stripe) */
	struct disk_counters start, end;
};

struct disk_set {
	struct disk *disks;
	unsigned n;
	size_t cap;
	uint64_t start_ns, end_ns;	/* CLOCK_MONOTONIC of the two snapshots */
	uint64_t window_ns;		/* util's time base: the jobs' I/O window, else 0 */
};

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
