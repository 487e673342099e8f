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

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* A loop device and the file or device behind it (its backing_file, stat'ed). */
struct loop_backing {
	dev_t loop;
	char name[32];
	dev_t st_dev;		/* the backing file's file system and inode */
	ino_t st_ino;
	dev_t st_rdev;		/* the backing device, when the backing file is one; else 0 */
	uint64_t off;		/* the bytes of it the loop device shows: offset= of losetup */
	uint64_t len;		/* and its sizelimit, or what is left of the file past off */
};

/* A set of block devices, as a short list: a run writes to few. */
struct dev_set {
	dev_t *v;
	unsigned n;
	size_t cap;
};

/* A block device the run writes, held open with O_EXCL until the run ends. */
struct dev_claim {
	dev_t dev;
	int fd;
};

/*
 * What a run learned: the loop devices (read once) and the devices found safe; and the
 * devices its jobs claimed, which job threads add to under the lock.
 */
struct device_users {
	struct loop_backing *loops;
	unsigned nloops;
	bool loaded;
	bool loaded_swaps;
	int swap_files;		/* whether any swap area is a file: 0, 1, or -errno */
	struct dev_set unused;	/* block devices found not in use */
	struct dev_set blank;	/* block devices found without a signature (engine/plan/files.c) */
	pthread_mutex_t lock;	/* device_claim()'s, from the job threads */
	struct dev_claim *claims;
	unsigned nclaims;
	size_t claims_cap;
};

/* Ready u for use (zeroed, with its lock). */
void device_users_init(struct device_users *u);

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

/*
 * Whether a loop device is over the regular file or block device st describes, in use or
 * not: 1 with its name in name, 0, or -errno.
 */
int device_loop_over(struct device_users *u, const struct stat *st, char *name, size_t len);

/*
 * Claim the block device that path names for writing, for the rest of the run: open it
 * with O_EXCL, as mkfs does, so that nothing mounts it or builds md, dm or a file system
 * on it while the jobs write; then check it again, now, without what earlier checks
 * learned (a device mounted after the run's checks, during a startdelay or between
 * phases, is found here). Each device is claimed once, whatever the jobs on it; safe
 * from any thread. Returns 0, 1 with why, or -errno (callers then refuse the write).
 */
int device_claim(struct device_users *u, const char *path, char *why, size_t len);

/* Close the claims and free what u holds; device_users_init() makes it usable again. */
void device_users_free(struct device_users *u);

#endif
