/*
 * ftruncate: each write truncates its file to the write's offset, as fio's engine does
 * (not to offset + length: a sequential pass leaves the file one block short of its
 * region's end). No data moves, and there is nothing to read: reads are refused.
 */
#include "engine/ioengine.h"

#include <errno.h>
#include <unistd.h>

static enum ioq_status ftruncate_queue(struct ioengine *e, struct io_req *r)
{
	(void)e;
	if (r->dir != IO_WRITE) {
		ioengine_do_sync_io(r, true);	/* fsync=, fdatasync= (reads are refused) */
		return IOQ_DONE;
	}
	if (ftruncate(r->file->fd, (off_t)r->off) < 0)
		r->res = -errno;
	else
		r->res = r->len;
	return IOQ_DONE;
}

const struct ioengine_ops ftruncate_engine = {
	.name	= "ftruncate",
	.flags	= IOENG_SYNC | IOENG_NO_DATA | IOENG_WRITE_ONLY | IOENG_POSITIONAL |
		  IOENG_MODIFIES,
	.help	= "each write truncates the file to the write's offset",
	.queue	= ftruncate_queue,
};
