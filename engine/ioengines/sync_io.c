/*
 * One synchronous I/O, shared by the sync engines: psync and sync, the vectored pvsync and
 * pvsync2, and the trims and syncs of vsync, mmap and splice.
 */
#include "engine/ioengine.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>

/* A trim punches a hole in a file and discards the range of a block device. */
static ssize_t do_trim(const struct io_req *r)
{
	if (r->file->is_bdev) {
		uint64_t range[2] = { r->off, r->len };

		return ioctl(r->file->fd, BLKDISCARD, range) < 0 ? -1 : (ssize_t)r->len;
	}
	if (fallocate(r->file->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)r->off,
		      (off_t)r->len) < 0)
		return -1;
	return r->len;
}

static ssize_t seek_then(const struct io_req *r)
{
	if (lseek(r->file->fd, (off_t)r->off, SEEK_SET) < 0)
		return -1;
	if (r->dir == IO_READ)
		return read(r->file->fd, r->buf, r->len);
	return write(r->file->fd, r->buf, r->len);
}

void ioengine_do_sync_io(struct io_req *r, bool positional)
{
	int fd = r->file->fd;
	ssize_t n;

	switch (r->dir) {
	case IO_READ:
		n = positional ? pread(fd, r->buf, r->len, (off_t)r->off) : seek_then(r);
		break;
	case IO_WRITE:
		n = positional ? pwrite(fd, r->buf, r->len, (off_t)r->off) : seek_then(r);
		break;
	case IO_TRIM:
		n = do_trim(r);
		break;
	case IO_FSYNC:
		n = fsync(fd);
		break;
	case IO_SYNC_RANGE:
		n = sync_file_range(fd, (off_t)r->off, (off_t)r->len, r->sfr_flags);
		break;
	default:
		n = fdatasync(fd);
		break;
	}
	r->res = n < 0 ? -errno : n;
}

void ioengine_do_vec_io(struct io_req *r, int rwf)
{
	struct iovec iov = { .iov_base = r->buf, .iov_len = r->len };
	int fd = r->file->fd;
	ssize_t n;

	if (r->dir != IO_READ && r->dir != IO_WRITE) {
		ioengine_do_sync_io(r, true);
		return;
	}
	if (rwf < 0)
		n = r->dir == IO_READ ? preadv(fd, &iov, 1, (off_t)r->off) :
					pwritev(fd, &iov, 1, (off_t)r->off);
	else
		n = r->dir == IO_READ ? preadv2(fd, &iov, 1, (off_t)r->off, rwf) :
					pwritev2(fd, &iov, 1, (off_t)r->off, rwf);
	r->res = n < 0 ? -errno : n;
}

int ioengine_probe_dontcache(const struct io_file *f)
{
	char byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };

	if (f->is_chr || preadv2(f->fd, &iov, 1, 0, RWF_DONTCACHE) >= 0)
		return 0;
	return errno == EOPNOTSUPP || errno == EINVAL ? -EOPNOTSUPP : 0;
}
