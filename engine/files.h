/*
 * A job's files: names from filename=, directory= and filename_format, sizes and regions,
 * the checks that must pass before any I/O, laying out what a job will read, opening and
 * closing.
 */
#ifndef ENGINE_FILES_H
#define ENGINE_FILES_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "engine/ioengine.h"

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
 * The checks before any I/O: writes to a block device that is mounted, used as swap or
 * held by md or dm (unless allow_mounted_write) or that carries a file system, RAID or
 * partition-table signature (unless allow_overwrite_signatures); direct I/O sizes and
 * offsets the device cannot take; with readonly, files that would have to be laid out.
 */
int files_check(const struct job_desc *j, const struct io_file *f, unsigned n, struct diag *d);

/*
 * Create what does not exist yet, and write out the data of files a job will read (or
 * overwrite=1) where they are missing or short; existing files of the right size are
 * reused. Prints "NAME: Laying out IO file (...)" through note() when it writes data.
 * Returns -EINTR when *stop is set while writing.
 */
int files_layout(const struct job_desc *j, struct io_file *f, unsigned n,
		 const atomic_bool *stop, void (*note)(void *ctx, const char *msg), void *ctx,
		 struct diag *d);

/* Open every file for the job's directions and flags; drop cached pages with invalidate. */
int files_open(const struct job_desc *j, struct io_file *f, unsigned n, char *err, size_t len);

/*
 * Close (fsync first with fsync_on_close) and, with unlink=1, remove the files, as fio
 * does, whoever made them. Returns 0, or the -errno of the first file that could not be
 * removed, its index in *failed (fio says nothing; the others are still removed).
 */
int files_close(const struct job_desc *j, struct io_file *f, unsigned n, unsigned *failed);

/* Free the array from files_resolve(). */
void files_free(struct io_file *f, unsigned n);

/* The alignment O_DIRECT needs for f's buffers and offsets (at least 512). */
unsigned files_dio_align(const struct io_file *f);

#endif
