/*
 * mmap: reads and writes are memcpy(3) to and from a shared mapping of the file. As fio,
 * the first I/O of a file maps the job's whole region of it; when that cannot be mapped
 * (address space), windows of 1 GiB shared among the job's files are mapped instead, each
 * from the offset of the I/O that needed it. The mapping is advised by the access pattern
 * (fadvise_hint), a sync is msync(MS_SYNC), and direct=1 writes each I/O's pages back and
 * drops them from the mapping.
 */
#include "engine/ioengine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jobs/job.h"

#define MMAP_TOTAL_BYTES	(1ull << 30)	/* what windowed files may map at once, as fio */

struct mmap_opts {
	unsigned thp;
};

struct mmap_file {
	unsigned char *ptr;
	uint64_t off, len;	/* the file range mapped at ptr */
	bool windowed;		/* the whole region could not be mapped */
};

struct mmap_state {
	uint64_t window_bytes;
	uint64_t page_mask;
	int prot, share;
	struct mmap_file f[];
};

static int mmap_init(struct ioengine *e)
{
	const struct mmap_opts *o = e->opts;
	const struct job_desc *j = e->job;
	struct mmap_state *st = calloc(1, sizeof(*st) + e->nfiles * sizeof(st->f[0]));

	if (!st)
		return -ENOMEM;
	st->page_mask = (uint64_t)sysconf(_SC_PAGESIZE) - 1;
	st->window_bytes = MMAP_TOTAL_BYTES / (e->nfiles ? e->nfiles : 1);
	st->prot = PROT_READ;
	if ((rw_does(j->rw, IO_WRITE) || rw_does(j->rw, IO_TRIM)) && !j->verify_only)
		st->prot |= PROT_WRITE;
	/* as fio: thp maps privately, where huge pages can back it; writes stay in memory */
	st->share = o->thp ? MAP_PRIVATE : MAP_SHARED;
	e->priv = st;
	return 0;
}

static void unmap(struct mmap_file *mf)
{
	if (mf->ptr)
		munmap(mf->ptr, mf->len);
	mf->ptr = NULL;
	mf->len = 0;
}

static void mmap_cleanup(struct ioengine *e)
{
	struct mmap_state *st = e->priv;

	if (!st)
		return;
	for (unsigned i = 0; i < e->nfiles; i++)
		unmap(&st->f[i]);
	free(st);
	e->priv = NULL;
}

/* A mapping cannot reach past the end of a file: a write job's file is sized first. */
static int mmap_open_files(struct ioengine *e)
{
	for (unsigned i = 0; i < e->nfiles; i++) {
		struct io_file *f = &e->files[i];
		uint64_t end = f->io_off + f->io_len;
		struct stat sb;

		/* openfiles=: one not open yet is sized when the window opens it */
		if (f->is_bdev || f->is_chr || f->fd < 0)
			continue;
		if (fstat(f->fd, &sb) < 0)
			return -errno;
		if ((uint64_t)sb.st_size < end && ftruncate(f->fd, (off_t)end) < 0)
			return -errno;
	}
	return 0;
}

static void mmap_close_files(struct ioengine *e)
{
	struct mmap_state *st = e->priv;

	for (unsigned i = 0; st && i < e->nfiles; i++)
		unmap(&st->f[i]);
}

static int advise(const struct ioengine *e, const struct mmap_file *mf)
{
	const struct mmap_opts *o = e->opts;
	int advice;

	if (o->thp)
		madvise(mf->ptr, mf->len, MADV_HUGEPAGE);	/* advisory: errors do not matter */
	switch (e->job->fadvise_hint) {
	case FADV_HINT_PATTERN:
		advice = rw_is_random(e->job->rw) ? MADV_RANDOM : MADV_SEQUENTIAL;
		break;
	case FADV_HINT_SEQUENTIAL:
		advice = MADV_SEQUENTIAL;
		break;
	case FADV_HINT_RANDOM:
		advice = MADV_RANDOM;
		break;
	default:
		return 0;
	}
	return madvise(mf->ptr, mf->len, advice) < 0 ? -errno : 0;
}

static int map_range(const struct ioengine *e, struct mmap_file *mf, const struct io_file *f,
		     uint64_t off, uint64_t len)
{
	const struct mmap_state *st = e->priv;
	void *p = mmap(NULL, len, st->prot, st->share, f->fd, (off_t)off);
	int ret;

	if (p == MAP_FAILED)
		return -errno;
	mf->ptr = p;
	mf->off = off;
	mf->len = len;
	ret = advise(e, mf);
	if (ret < 0)
		unmap(mf);
	return ret;
}

/* Map what r needs: the file's whole region, or else a window from r's offset. */
static int map_for(struct ioengine *e, struct mmap_file *mf, const struct io_req *r)
{
	const struct mmap_state *st = e->priv;
	const struct io_file *f = r->file;
	uint64_t end = f->io_off + f->io_len, from;
	int ret;

	unmap(mf);
	if (end < r->off + r->len)
		end = r->off + r->len;
	if (!mf->windowed) {
		from = f->io_off & ~st->page_mask;
		ret = map_range(e, mf, f, from, end - from);
		if (ret != -ENOMEM && ret != -EOVERFLOW)
			return ret;
		mf->windowed = true;
	}
	if (r->len > st->window_bytes)
		return -EFBIG;
	from = r->off & ~st->page_mask;
	if (end - from > st->window_bytes)
		end = from + st->window_bytes;
	if (end < r->off + r->len)
		end = r->off + r->len;
	return map_range(e, mf, f, from, end - from);
}

/* direct=1: not really direct, but the I/O's pages go to the file and leave the mapping. */
static int drop_pages(const struct mmap_state *st, unsigned char *p, size_t len)
{
	uintptr_t start = (uintptr_t)p & ~(uintptr_t)st->page_mask;

	len += (size_t)((uintptr_t)p - start);
	if (msync((void *)start, len, MS_SYNC) < 0 || madvise((void *)start, len,
							     MADV_DONTNEED) < 0)
		return -errno;
	return 0;
}

static int64_t sync_file(struct mmap_file *mf, struct io_req *r)
{
	if (mf->ptr && msync(mf->ptr, mf->len, MS_SYNC) < 0)
		return -errno;
	/* earlier windows were unmapped with their pages still dirty: the file syncs those */
	if (mf->windowed) {
		ioengine_do_sync_io(r, true);
		return r->res;
	}
	return 0;
}

static enum ioq_status mmap_queue(struct ioengine *e, struct io_req *r)
{
	struct mmap_state *st = e->priv;
	struct mmap_file *mf = &st->f[r->file - e->files];
	unsigned char *p;
	int ret;

	if (r->dir == IO_TRIM) {
		ioengine_do_sync_io(r, true);
		return IOQ_DONE;
	}
	if (r->dir != IO_READ && r->dir != IO_WRITE) {
		r->res = sync_file(mf, r);
		return IOQ_DONE;
	}
	if (!mf->ptr || r->off < mf->off || r->off + r->len > mf->off + mf->len) {
		ret = map_for(e, mf, r);
		if (ret < 0) {
			r->res = ret;
			return IOQ_DONE;
		}
	}
	p = mf->ptr + (r->off - mf->off);
	if (r->dir == IO_READ)
		memcpy(r->buf, p, r->len);
	else
		memcpy(p, r->buf, r->len);
	r->res = r->len;
	if (e->job->direct && (ret = drop_pages(st, p, r->len)) < 0)
		r->res = ret;
	return IOQ_DONE;
}

static const struct opt_def mmap_options[] = {
	ENGINE_UINT("mmap", struct mmap_opts, "thp", thp, "0", 0, UINT32_MAX,
		    "non-zero: a private mapping advised for transparent huge pages (writes "
		    "stay in memory, as in fio)"),
	{ NULL },
};

const struct ioengine_ops mmap_engine = {
	.name		= "mmap",
	.flags		= IOENG_SYNC | IOENG_TRIM | IOENG_POSITIONAL,
	.help		= "memcpy to and from a shared mapping of the file, msync to sync",
	.options	= mmap_options,
	.options_size	= sizeof(struct mmap_opts),
	.init		= mmap_init,
	.cleanup	= mmap_cleanup,
	.open_files	= mmap_open_files,
	.close_files	= mmap_close_files,
	.queue		= mmap_queue,
};
