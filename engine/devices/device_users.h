/*
 * Who uses a block device or a file, so that a job does not write under them: a mount or
 * swap on the device (or a partition of it, or its disk), a device built on it (md, dm,
 * LVM), an exclusive hold by the kernel, or a loop device over it that is used in turn,
 * loop over loop to any depth; for a file, swapon on it too. A run keeps one struct
 * device_users, so that sysfs's loop devices are read once and each device is checked
 * once however many jobs write to it.
 */
#ifndef ENGINE_DEVICES_DEVICE_USERS_H
#define ENGINE_DEVICES_DEVICE_USERS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/* A loop device and the file or device behind it (its backing_file, stat'ed). */
struct loop_backing {
	dev_t loop;
	char name[32];
	dev_t st_dev;		/* the backing file's file system and inode */
	ino_t st_ino;
	dev_t st_rdev;		/* the backing device, when the backing file is one; else 0 */
};

/* A set of block devices, as a short list: a run writes to few. */
struct dev_set {
	dev_t *v;
	unsigned n;
	size_t cap;
};

/* What a run learned: the loop devices (read once) and the devices found safe. */
struct device_users {
	struct loop_backing *loops;
	unsigned nloops;
	bool loaded;
	bool loaded_swaps;
	int swap_files;		/* whether any swap area is a file: 0, 1, or -errno */
	struct dev_set unused;	/* block devices found not in use */
	struct dev_set blank;	/* block devices found without a signature (engine/files.c) */
};

bool dev_set_has(const struct dev_set *s, dev_t dev);

/* Add dev; a failed allocation only loses the entry (the set is a cache). */
void dev_set_add(struct dev_set *s, dev_t dev);

/*
 * Whether something uses the block device or regular file that st describes (path names
 * it, for the kernel's exclusive-open probe). Returns 1 and says what in why ("loop1 on
 * /mnt is mounted or in use as swap", "loop2 is a loop device over it, and ..."), 0 when
 * nothing does, or -errno when that cannot be told (callers then refuse the write).
 */
int device_used(struct device_users *u, const struct stat *st, const char *path, char *why,
		size_t len);

/* Free what u holds; it can be used again. */
void device_users_free(struct device_users *u);

#endif
