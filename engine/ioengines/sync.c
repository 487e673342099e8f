/* sync: lseek(2) then read(2)/write(2), one I/O at a time. */
#include "engine/ioengine.h"

static enum ioq_status sync_queue(struct ioengine *e, struct io_req *r)
{
	(void)e;
	ioengine_do_sync_io(r, false);
	return IOQ_DONE;
}

const struct ioengine_ops sync_engine = {
	.name	= "sync",
	.flags	= IOENG_SYNC | IOENG_TRIM,
	.help	= "lseek then read/write, one I/O at a time",
	.queue	= sync_queue,
};
