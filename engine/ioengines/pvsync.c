/* pvsync: preadv(2)/pwritev(2) of a one-element vector, one I/O at a time (as fio). */
#include "engine/ioengine.h"

static enum ioq_status pvsync_queue(struct ioengine *e, struct io_req *r)
{
	(void)e;
	ioengine_do_vec_io(r, -1);
	return IOQ_DONE;
}

const struct ioengine_ops pvsync_engine = {
	.name	= "pvsync",
	.flags	= IOENG_SYNC | IOENG_TRIM | IOENG_POSITIONAL,
	.help	= "preadv/pwritev of one vector, one I/O at a time",
	.queue	= pvsync_queue,
};
