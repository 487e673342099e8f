/*
 * Block devices: size, logical block size, cache flush, and the safety checks that keep
 * writes away from a device that is mounted, held by md or dm, or holds data.
 */
#ifndef ENGINE_DEVICES_BLOCKDEV_H
#define ENGINE_DEVICES_BLOCKDEV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Size in bytes of the open block device fd (BLKGETSIZE64). Returns 0 or -errno. */
int blockdev_size(int fd, uint64_t *bytes);

/* Logical block size of the open block device fd (BLKSSZGET). Returns 0 or -errno. */
int blockdev_logical_block_size(int fd, unsigned *bytes);

/* Drop the device's buffer cache (BLKFLSBUF). Returns 0 or -errno. */
int blockdev_flush(int fd);

/*
 * Whether the block device dev (a st_rdev), one of its partitions, or the whole disk it
 * is a partition of, is mounted (per /proc/self/mountinfo) or used as swap (/proc/swaps).
 * Returns 1 and copies "<device> on <mount point>" into where, 0 when not in use, or
 * -errno when the check itself failed (callers must then refuse writes).
 */
int blockdev_in_use(dev_t dev, char *where, size_t len);

/* Whether any swap area in use is a regular file: 1, 0, or -errno. */
int blockdev_swap_files_exist(void);

/* Whether the regular file (st_dev, st_ino) is a swap file in use: 1, 0, or -errno. */
int blockdev_swap_file(dev_t dev, ino_t ino);

/*
 * Whether another block device (md, dm, bcache) is built on dev, one of its partitions, or
 * the whole disk it is a partition of: a non-empty /sys/class/block/NAME/holders.
 * Returns 1 and copies "<holder> holds <device>" into where, 0, or -errno.
 */
int blockdev_held(dev_t dev, char *where, size_t len);

#endif
