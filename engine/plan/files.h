/*
 * A job's files: names from filename=, directory= and filename_format, sizes and regions,
 * the checks that must pass before any I/O, laying out what a job will read, opening and
 * closing.
 */
#ifndef ENGINE_PLAN_FILES_H
#define ENGINE_PLAN_FILES_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "engine/devices/path_guard.h"
#include "engine/ioengine.h"

struct device_users;
struct diag;

/*
 * Name the job's files and work out their sizes and regions from the options and what
 * exists on disk, without creating or writing anything. virtual_files: the engine does
 * no file I/O (null), so nothing is looked up and size= is required. A missing file for
 * which will_exist() is true (an earlier phase writes it) is marked deferred instead:
 * resolve the job again when its phase starts.
 * Returns 0, -EINVAL for a job-file problem (d names it), or another -errno.
 */
int files_resolve(const struct job_desc *j, bool virtual_files,
		  bool (*will_exist)(void *ctx, const char *path), void *ctx,
		  struct io_file **out, unsigned *nout, struct diag *d);

/*
 * The checks before any I/O: writes to a block device that is mounted, used as swap, held
 * by md or dm or under a loop device in use, or to a file behind such a loop device
 * (unless allow_mounted_write); writes to a device with a file system, RAID, crypto or
 * partition-table signature (unless allow_overwrite_signatures); direct I/O sizes and
 * offsets the device cannot take; with readonly, files that would have to be laid out;
 * files to create where no directory on the way to them is writable. u is the run's:
 * what it learned about devices spares the next job the same checks.
 */
int files_check(const struct job_desc *j, const struct io_file *f, unsigned n,
		struct device_users *u, struct diag *d);

/*
 * Whether the job deletes its files: filedelete, dirdelete, unlink=1, unlink_each_loop=1,
 * create=recreate.
 */
bool files_deleted(const struct job_desc *j);

/*
 * The guard (engine/devices/path_guard.h) over the names of files a job deletes
 * (PATH_DELETE; files_check() makes this check too) or an engine creates itself
 * (PATH_WRITE: filecreate, dircreate): no device node, nothing on a pseudo file system,
 * no loop device's backing file or swap file. Returns 0, or -EPERM with d naming the job,
 * the option and the file.
 */
int files_guard(const struct job_desc *j, const struct io_file *f, unsigned n,
		enum path_use use, struct diag *d);

/*
 * Mark the block devices the job writes (unless allow_mounted_write) for claiming at
 * their open: device_claim() on u, which the run keeps until its end.
 */
void files_claim(const struct job_desc *j, struct io_file *f, unsigned n,
		 struct device_users *u);

/*
 * Whether the file systems under the job's files have room for what it lays out or
 * writes past their present ends (layout_space.c). 0, or -ENOSPC with d naming what is
 * needed and what is free. fill_device=1 and devices are not checked.
 */
int files_check_space(const struct job_desc *j, const struct io_file *f, unsigned n,
		      struct diag *d);

/*
 * Create what does not exist yet, and write out the data of files a job will read (or
 * overwrite=1) where they are missing or short; existing files of the right size are
 * reused, after files_check_space(). Prints "NAME: Laying out IO file (...)" through
 * note() when it writes data. A file it created is removed again when the layout fails.
 * Returns -EINTR when *stop is set while writing.
 */
int files_layout(const struct job_desc *j, struct io_file *f, unsigned n,
		 const atomic_bool *stop, void (*note)(void *ctx, const char *msg), void *ctx,
		 struct diag *d);

/*
 * Open every file for the job's directions and flags (with openfiles=, only the first
 * that many); drop its cached pages (invalidate), give fadvise_hint's advice and
 * write_hint's hint, as fio does at each open; then read every file's region once with
 * pre_read, as fio does when the job starts.
 */
int files_open(const struct job_desc *j, struct io_file *f, unsigned n, char *err, size_t len);

/* Open one of them, as files_open() does (pre_read aside); -errno with err set. */
int files_open_one(const struct job_desc *j, struct io_file *f, char *err, size_t len);

/*
 * With invalidate (and buffered I/O), drop f's cached pages in its region: at the open,
 * and where fio reopens or rewinds a file, at the start of each new pass over the region
 * (loops, time_based).
 */
void files_invalidate(const struct job_desc *j, const struct io_file *f);

/*
 * Close (fsync first with fsync_on_close) and, with unlink=1, remove the files, as fio
 * does, whoever made them. Returns 0, or the -errno of the first file that could not be
 * removed, its index in *failed (fio says nothing; the others are still removed); a file
 * already gone is no failure.
 */
int files_close(const struct job_desc *j, struct io_file *f, unsigned n, unsigned *failed);

/*
 * unlink_each_loop, between two loops: close and delete the regular files (devices are
 * only closed), then open them again, created empty. -errno with err set on failure.
 */
int files_recreate(const struct job_desc *j, struct io_file *f, unsigned n, char *err,
		   size_t len);

/*
 * lockfile: the lock of one path, for every job of a phase that uses that path with
 * lockfile set. NULL when out of memory.
 */
struct path_lock *files_lock_new(void);
void files_lock_free(struct path_lock *l);

/*
 * Take f's lock (if it has one) for an I/O of direction dir: readwrite shares it between
 * reads, exclusive and every write or sync take it alone. Then files_unlock(f).
 */
void files_lock(const struct io_file *f, int dir, int mode);
void files_unlock(const struct io_file *f);

/* Free the array from files_resolve(). */
void files_free(struct io_file *f, unsigned n);

/* The alignment O_DIRECT needs for f's buffers and offsets (at least 512). */
unsigned files_dio_align(const struct io_file *f);

#endif
