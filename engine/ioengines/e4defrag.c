/*
 * e4defrag: each write is an EXT4_IOC_MOVE_EXT of its range, as fio's engine: the file's
 * blocks there are exchanged for a donor file's, the data copied across, so that the file
 * keeps its contents and changes where they lie (what e4defrag(8) does to defragment). The
 * donor is donorname= in the job's directory; inplace=0 allocates the donor over the job's
 * region once at the start, inplace=1 allocates each write's range before its move and
 * empties the donor after it. Reads and trims have nothing to move: only writes are taken.
 */
#include "engine/ioengine.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/devices/path_guard.h"
#include "jobs/job.h"

#ifndef EXT4_IOC_MOVE_EXT
struct move_extent {
	__u32 reserved;		/* zero */
	__u32 donor_fd;
	__u64 orig_start;	/* in blocks */
	__u64 donor_start;
	__u64 len;
	__u64 moved_len;	/* set by the kernel */
};
#define EXT4_IOC_MOVE_EXT	_IOWR('f', 15, struct move_extent)
#endif

struct e4defrag_opts {
	const char *donorname;
	unsigned inplace;
};

struct e4defrag_state {
	int donor_fd;
	uint64_t bsz;		/* the donor's block size: the ioctl counts in blocks */
};

static const struct opt_def e4defrag_options[] = {
	ENGINE_STR("e4defrag", struct e4defrag_opts, "donorname", donorname,
		   "the donor file, in the job's directory (required): its blocks replace the "
		   "file's"),
	ENGINE_UINT("e4defrag", struct e4defrag_opts, "inplace", inplace, "0", 0, 1,
		    "1: allocate the donor's blocks for each write and free them after it; 0: "
		    "once, over the job's region"),
	{ NULL },
};

/* The job's region over all its files: the donor is allocated across it (inplace=0). */
static void job_region(const struct ioengine *e, uint64_t *off, uint64_t *end)
{
	*off = UINT64_MAX;
	*end = 0;
	for (unsigned i = 0; i < e->nfiles; i++) {
		const struct io_file *f = &e->files[i];

		if (f->io_off < *off)
			*off = f->io_off;
		if (f->io_off + f->io_len > *end)
			*end = f->io_off + f->io_len;
	}
	if (*off > *end)
		*off = *end;
}

static int open_donor(const struct ioengine *e, const struct e4defrag_opts *o)
{
	const struct job_desc *j = e->job;
	char path[PATH_MAX], why[256];
	int n;

	if (j->directories.n && o->donorname[0] != '/')
		n = snprintf(path, sizeof(path), "%s/%s", j->directories.v[0], o->donorname);
	else
		n = snprintf(path, sizeof(path), "%s", o->donorname);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	return path_open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644, why, sizeof(why));
}

static int e4defrag_init(struct ioengine *e)
{
	const struct e4defrag_opts *o = e->opts;
	struct e4defrag_state *st;
	uint64_t off, end;
	struct stat sb;

	if (!o->donorname || !o->donorname[0])
		return -EDESTADDRREQ;
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	e->priv = st;
	st->donor_fd = open_donor(e, o);
	if (st->donor_fd < 0)
		return st->donor_fd;
	job_region(e, &off, &end);
	if (!o->inplace && end > off && fallocate(st->donor_fd, 0, (off_t)off, (off_t)(end - off)))
		return -errno;
	if (fstat(st->donor_fd, &sb))
		return -errno;
	st->bsz = sb.st_blksize ? (uint64_t)sb.st_blksize : 4096;
	return 0;
}

static const char *e4defrag_hint(int err)
{
	return err == EDESTADDRREQ ? "set donorname=, the file whose blocks the writes take" :
	       NULL;
}

static void e4defrag_cleanup(struct ioengine *e)
{
	struct e4defrag_state *st = e->priv;

	if (!st)
		return;
	if (st->donor_fd >= 0)
		close(st->donor_fd);
	free(st);
	e->priv = NULL;
}

/* Move r's blocks; the bytes moved, or -errno (a move of nothing: past the file's end). */
static int64_t move_range(const struct e4defrag_state *st, const struct io_req *r)
{
	struct move_extent me = { .donor_fd = (__u32)st->donor_fd };
	uint64_t moved;

	me.orig_start = me.donor_start = r->off / st->bsz;
	me.len = (r->off + r->len + st->bsz - 1) / st->bsz - me.orig_start;
	if (ioctl(r->file->fd, EXT4_IOC_MOVE_EXT, &me) < 0)
		return -errno;
	moved = me.moved_len * st->bsz;
	if (!moved)
		return -EINVAL;
	return (int64_t)(moved < r->len ? moved : r->len);
}

static enum ioq_status e4defrag_queue(struct ioengine *e, struct io_req *r)
{
	const struct e4defrag_opts *o = e->opts;
	const struct e4defrag_state *st = e->priv;

	if (r->dir >= IO_NDIR) {	/* fsync=, fdatasync= */
		ioengine_do_sync_io(r, true);
		return IOQ_DONE;
	}
	if (r->dir != IO_WRITE) {
		r->res = -EINVAL;
		return IOQ_DONE;
	}
	if (o->inplace && fallocate(st->donor_fd, 0, (off_t)r->off, (off_t)r->len)) {
		r->res = -errno;
		return IOQ_DONE;
	}
	r->res = move_range(st, r);
	if (o->inplace && ftruncate(st->donor_fd, 0) && r->res >= 0)
		r->res = -errno;
	return IOQ_DONE;
}

const struct ioengine_ops e4defrag_engine = {
	.name		= "e4defrag",
	.flags		= IOENG_SYNC | IOENG_WRITE_ONLY | IOENG_NO_DATA,
	.fds		= 1,	/* the donor */
	.help		= "EXT4_IOC_MOVE_EXT of each write's range from a donor file: the data "
			  "stays, its blocks move (ext4 only)",
	.options	= e4defrag_options,
	.options_size	= sizeof(struct e4defrag_opts),
	.init		= e4defrag_init,
	.init_hint	= e4defrag_hint,
	.cleanup	= e4defrag_cleanup,
	.queue		= e4defrag_queue,
};
