/*
 * page_fault: reads and writes are memcpy(3) to and from anonymous private memory that
 * stands in for each file, so that a write's first touch of a page takes a page fault
 * (fio HEAD's engine of the name: it measures the kernel's fault path, not a device). No
 * file is opened or created. What a job writes stays in the memory until the job ends, so
 * a verify pass reads it back; a page never written reads as zeroes.
 */
#include "engine/ioengine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "jobs/job.h"

struct fault_map {
	unsigned char *ptr;
	uint64_t len;
};

/*
 * One mapping a file, from offset 0 to the end of the job's region of it: fio maps the
 * job's size and refuses offset= and a second file; the pages before the region are only
 * reserved, never touched, so an offset costs nothing.
 */
static int page_fault_init(struct ioengine *e)
{
	struct fault_map *m = calloc(e->nfiles ? e->nfiles : 1, sizeof(*m));

	if (!m)
		return -ENOMEM;
	e->priv = m;
	for (unsigned i = 0; i < e->nfiles; i++) {
		uint64_t len = e->files[i].io_off + e->files[i].io_len;

		if (!len)
			continue;
		m[i].ptr = mmap(NULL, len, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (m[i].ptr == MAP_FAILED) {
			m[i].ptr = NULL;
			return -errno;
		}
		m[i].len = len;
	}
	return 0;
}

static void page_fault_cleanup(struct ioengine *e)
{
	struct fault_map *m = e->priv;

	if (!m)
		return;
	for (unsigned i = 0; i < e->nfiles; i++)
		if (m[i].ptr)
			munmap(m[i].ptr, m[i].len);
	free(m);
	e->priv = NULL;
}

static enum ioq_status page_fault_queue(struct ioengine *e, struct io_req *r)
{
	const struct fault_map *m = (const struct fault_map *)e->priv + (r->file - e->files);

	if (r->dir >= IO_NDIR) {	/* a sync: the memory is the file, nothing to flush */
		r->res = 0;
		return IOQ_DONE;
	}
	if (r->dir == IO_TRIM || r->off > m->len || r->len > m->len - r->off) {
		r->res = -EINVAL;
		return IOQ_DONE;
	}
	if (r->dir == IO_READ)
		memcpy(r->buf, m->ptr + r->off, r->len);
	else
		memcpy(m->ptr + r->off, r->buf, r->len);
	r->res = r->len;
	return IOQ_DONE;
}

const struct ioengine_ops page_fault_engine = {
	.name		= "page_fault",
	.flags		= IOENG_SYNC | IOENG_NOFILES,
	.help		= "memcpy to and from anonymous memory, a page fault at each first "
			  "touch; no file (fio HEAD's engine)",
	.init		= page_fault_init,
	.cleanup	= page_fault_cleanup,
	.queue		= page_fault_queue,
};
