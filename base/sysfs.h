/*
 * sysfs, one way for every reader: paths under the right root, small files read whole,
 * and the "MAJ:MIN" of a dev file.
 *
 * There are two trees. What the reports show (disk statistics, a device's model) is read
 * under $IOJOB_SYSFS_ROOT when that is set, so that tests can give the reports a fake tree
 * of md, dm and loop devices, else under /sys. The safety checks (engine/devices/: is a
 * device mounted, swap, held, under a loop device) and the clock always read the real
 * /sys: no environment variable may make a device in use look free. Their tests fake /sys
 * itself, in a mount namespace of their own (tests/unit/test_blockdev.c).
 */
#ifndef BASE_SYSFS_H
#define BASE_SYSFS_H

#include <stddef.h>
#include <sys/types.h>

enum sysfs_tree {
	SYSFS_REPORTS,	/* $IOJOB_SYSFS_ROOT, or /sys */
	SYSFS_REAL,	/* /sys, whatever the environment says */
};

/* "<root of tree>/<fmt ...>" into buf. Returns 0, or -ENAMETOOLONG if it does not fit. */
__attribute__((format(printf, 4, 5)))
int sysfs_path(char *buf, size_t len, enum sysfs_tree tree, const char *fmt, ...);

/*
 * Read the small file path (relative to directory fd dir, or AT_FDCWD) into buf as a
 * string, without its final newline. Returns its length or -errno.
 */
int sysfs_read(int dir, const char *path, char *buf, size_t len);

/*
 * The target of tree's dev/block/MAJ:MIN link into buf ("../../devices/.../sda/sda1"):
 * where the device sits among its parents. Returns 0 or -errno.
 */
int sysfs_dev_link(enum sysfs_tree tree, unsigned maj, unsigned min, char *buf, size_t len);

/* Read a dev file ("MAJ:MIN\n") into dev. Returns 0, -EINVAL for other text, or -errno. */
int sysfs_read_devno(int dir, const char *path, dev_t *dev);

#endif
