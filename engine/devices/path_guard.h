/*
 * The guard every path iojob writes, creates or deletes passes, besides a job's data (whose
 * checks are engine/plan/files.c's): reports (--output), result sets (--results), logs, iologs,
 * merged blktraces, charts, state and dump files, trigger files, and the files that
 * filedelete, dirdelete, unlink= and create=recreate delete. Such a path is never a block
 * device, a character device other than a terminal or /dev/null, /dev/zero and /dev/full,
 * a file on a pseudo file system (procfs, sysfs, devtmpfs, ...), the backing file of a loop
 * device or a swap file in use; a symbolic link is judged by what it leads to.
 */
#ifndef ENGINE_DEVICES_PATH_GUARD_H
#define ENGINE_DEVICES_PATH_GUARD_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

enum path_use {
	PATH_WRITE,	/* create, truncate or append to it: a file of iojob's own */
	PATH_DELETE,	/* unlink or rmdir it */
};

/*
 * Whether iojob may use path so. Returns 0; 1 with why ("is a block device", "is on
 * procfs, a pseudo file system"); or -errno where that cannot be told (callers refuse),
 * why saying so.
 * A path that cannot be looked at (EACCES, ENOTDIR) passes: the open or unlink that
 * follows fails and says why.
 */
int path_guard(const char *path, enum path_use use, char *why, size_t len);

/*
 * open(2) of a file of iojob's own, for writing: path_guard(PATH_WRITE) first, and what was
 * opened looked at again, so that a path swapped for a device meanwhile is not written.
 * Returns the descriptor, or -errno with why saying what went wrong ("refusing to write to
 * it: it is a block device", or the open's error; -EPERM: refused).
 */
int path_open(const char *path, int flags, mode_t mode, char *why, size_t len);

/*
 * fopen(3) for writing ("w", "a", "wb", ...) through path_open(). Returns the stream, or
 * NULL with errno set and why filled.
 */
FILE *path_fopen(const char *path, const char *mode, char *why, size_t len);

#endif
