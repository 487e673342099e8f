/*
 * falloc: each I/O is a fallocate(2) of its range instead of a transfer, as fio's engine:
 * a read allocates keeping the size (FALLOC_FL_KEEP_SIZE), a write allocates and extends
 * the file (mode 0), a trim punches a hole (FALLOC_FL_PUNCH_HOLE). No data moves.
 */
#include "engine/ioengine.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <unistd.h>

static const int falloc_mode[IO_NDIR] = {
	[IO_READ] = FALLOC_FL_KEEP_SIZE,
	[IO_WRITE] = 0,
	[IO_TRIM] = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
};

/*
 * fallocate needs a descriptor open for writing, whatever the direction: a read job's
 * files, opened read-only by the runner, are opened again read-write (fio's engine
 * always opens them so).
 */
static int falloc_open_files(struct ioengine *e)
{
	for (unsigned i = 0; i < e->nfiles; i++) {
		struct io_file *f = &e->files[i];
		int flags = fcntl(f->fd, F_GETFL), fd;

		if (flags < 0)
			return -errno;
		if ((flags & O_ACCMODE) == O_RDWR)
			continue;
		fd = open(f->path, (flags & ~O_ACCMODE) | O_RDWR | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		close(f->fd);
		f->fd = fd;
	}
	return 0;
}

static enum ioq_status falloc_queue(struct ioengine *e, struct io_req *r)
{
	(void)e;
	if (r->dir >= IO_NDIR) {	/* fsync=, fdatasync= */
		ioengine_do_sync_io(r, true);
		return IOQ_DONE;
	}
	if (fallocate(r->file->fd, falloc_mode[r->dir], (off_t)r->off, (off_t)r->len) < 0)
		r->res = -errno;
	else
		r->res = r->len;
	return IOQ_DONE;
}

const struct ioengine_ops falloc_engine = {
	.name	= "falloc",
	.flags		= IOENG_SYNC | IOENG_TRIM | IOENG_NO_DATA | IOENG_MODIFIES,
	.fds		= 1,	/* the reopen: a file's two descriptors for a moment */
	.help		= "fallocate instead of transfers: read keeps the size, write extends, "
			  "trim punches a hole",
	.open_files	= falloc_open_files,
	.queue		= falloc_queue,
};
