/*
 * Disk statistics as the reports read them: the block devices that hold a job's files and
 * their /sys/block counters at the start and the end of the timed phase. The run measures
 * them (engine/observe/disk_watch.h); the reporters turn them into fio's util lines.
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

#endif
