/*
 * The I/O scheduler of the disk under a path (ioscheduler=): which sysfs file holds it,
 * what it offers, and switching it. A partition's scheduler is its disk's.
 */
#ifndef ENGINE_DEVICES_IOSCHED_H
#define ENGINE_DEVICES_IOSCHED_H

#include <stddef.h>

/*
 * The queue/scheduler file of the block device path is, or of the one its file system is
 * on, into out. Returns 0, -ENODEV when no block device is under it, or -errno.
 */
int iosched_file(const char *path, char *out, size_t len);

/*
 * Whether the scheduler file offers name ("[none] mq-deadline kyber bfq"). Returns 0,
 * -ENOENT with the offered names in offered, or -errno.
 */
int iosched_offered(const char *file, const char *name, char *offered, size_t len);

/* Switch to name and read it back as the one in use. Returns 0 or -errno. */
int iosched_switch(const char *file, const char *name);

#endif
