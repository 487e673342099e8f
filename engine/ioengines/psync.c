/* psync: pread(2)/pwrite(2), one I/O at a time. */
#include "engine/ioengine.h"

static enum ioq_status psync_queue(struct ioengine *e, struct io_req *r)
{
	(void)e;
	ioengine_do_sync_io(r, true);
	return IOQ_DONE;
}

const struct ioengine_ops psync_engine = {
	.name	= "psync",
	.flags	= IOENG_SYNC | IOENG_TRIM | IOENG_POSITIONAL,
	.help	= "pread/pwrite, one I/O at a time (fio's default)",
	.queue	= psync_queue,
};
