/* A job's files: naming, sizing, safety checks, layout, open and close. */
#include "engine/files.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/falloc.h>

#include "engine/blockdev.h"
#include "parser/diag.h"

#define LAYOUT_CHUNK	(1u << 20)

static bool job_writes(const struct job_desc *j)
{
	return rw_does(j->rw, IO_WRITE) || rw_does(j->rw, IO_TRIM);
}

/* Expand $jobname, $jobnum and $filenum in filename_format. */
static void format_name(const struct job_desc *j, unsigned filenum, char *out, size_t len)
{
	const char *p = j->filename_format;
	size_t n = 0;

	while (*p && n + 1 < len) {
		int w = 0;

		if (!strncmp(p, "$jobname", 8)) {
			w = snprintf(out + n, len - n, "%s", j->name);
			p += 8;
		} else if (!strncmp(p, "$jobnum", 7)) {
			w = snprintf(out + n, len - n, "%u", j->jobnum);
			p += 7;
		} else if (!strncmp(p, "$filenum", 8)) {
			w = snprintf(out + n, len - n, "%u", filenum);
			p += 8;
		} else {
			out[n++] = *p++;
		}
		if (w > 0)
			n += (size_t)w;
	}
	out[n < len ? n : len - 1] = '\0';
}

static char *file_path(const struct job_desc *j, unsigned i)
{
	char name[4096], *path;
	const char *dir = NULL;

	if (j->filenames.n)
		snprintf(name, sizeof(name), "%s", j->filenames.v[i]);
	else
		format_name(j, i, name, sizeof(name));
	/* Clones spread over the directories of a directory=a:b list, as fio does. */
	if (j->directories.n && name[0] != '/')
		dir = j->directories.v[j->jobnum % j->directories.n];
	if (!dir)
		return strdup(name);
	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return NULL;
	return path;
}

/* What is there now: size, whether it is a block device, its direct I/O alignment. */
static int probe(struct io_file *f, bool *exists)
{
	struct statx sx;
	int fd, ret = 0;

	*exists = false;
	f->lbs = 512;
	if (statx(AT_FDCWD, f->path, 0, STATX_TYPE | STATX_SIZE | STATX_DIOALIGN, &sx) < 0)
		return errno == ENOENT ? 0 : -errno;
	*exists = true;
	if ((sx.stx_mask & STATX_DIOALIGN) && sx.stx_dio_offset_align > f->lbs)
		f->lbs = sx.stx_dio_offset_align;
	if (S_ISREG(sx.stx_mode)) {
		f->real_size = sx.stx_size;
		return 0;
	}
	if (S_ISCHR(sx.stx_mode)) {
		f->is_chr = true;
		f->real_size = 0;
		return 0;
	}
	if (!S_ISBLK(sx.stx_mode))
		return -EINVAL;
	f->is_bdev = true;
	fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = blockdev_size(fd, &f->real_size);
	if (!ret)
		ret = blockdev_logical_block_size(fd, &f->lbs);
	close(fd);
	return ret;
}

/* A problem with the job's files, reported at the job's section: "job 'x': ...". */
static int fail(const struct job_desc *j, struct diag *d, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(const struct job_desc *j, struct diag *d, int err, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return diag_at(d, err, j->file, j->line, "job '%s': %s", j->name, what);
}

static uint64_t pct_of(double pct, uint64_t total, uint64_t align)
{
	uint64_t v = (uint64_t)((double)total * pct / 100.0);

	return align ? v - v % align : v;
}

/* Size, offset and region of one file, fio's way: size is split over the files. */
static int size_one(const struct job_desc *j, struct io_file *f, unsigned nfiles, bool exists,
		    uint64_t filesize, struct diag *d)
{
	uint64_t off, len;

	if ((j->size.pct > 0 || j->offset.pct > 0 || j->offset_increment.pct > 0 ||
	     (!j->size.bytes && !filesize)) && (!exists || f->is_chr))
		return fail(j, d, -EINVAL, "'%s' %s, so its size is unknown (set size= or "
			    "filesize=)", f->path, f->is_chr ? "is a character device" :
			    "does not exist");
	off = j->offset.pct > 0 ? pct_of(j->offset.pct, f->real_size, job_bs_min(j)) :
				  j->offset.bytes;
	off += j->jobnum * (j->offset_increment.pct > 0 ?
			    pct_of(j->offset_increment.pct, f->real_size, job_bs_min(j)) :
			    j->offset_increment.bytes);
	if (filesize)
		len = filesize;
	else if (j->size.pct > 0)
		len = pct_of(j->size.pct, f->real_size, job_bs_min(j));
	else if (j->size.bytes)
		len = j->size.bytes / nfiles;
	else
		len = f->real_size > off ? f->real_size - off : 0;
	if (f->is_bdev && off + len > f->real_size)
		len = f->real_size > off ? f->real_size - off : 0;
	if (len < job_bs_max(j))
		return fail(j, d, -EINVAL, "the region of '%s' (%" PRIu64 " bytes) is smaller "
			    "than the block size (%" PRIu64 ")", f->path, len, job_bs_max(j));
	f->io_off = off;
	f->io_len = len;
	f->want_size = off + len;
	return 0;
}

int files_resolve(const struct job_desc *j, bool virtual_files,
		  bool (*will_exist)(void *ctx, const char *path), void *ctx,
		  struct io_file **out, unsigned *nout, struct diag *d)
{
	unsigned n = j->filenames.n ? j->filenames.n : j->nrfiles;
	struct io_file *files = calloc(n, sizeof(*files));
	struct rng rng;
	int ret = 0;

	if (!files)
		return diag_set(d, -ENOMEM, "out of memory");
	rng_seed(&rng, j->randseed ^ 0x5eed);
	for (unsigned i = 0; !ret && i < n; i++) {
		struct io_file *f = &files[i];
		uint64_t filesize = 0;
		bool exists = false;

		f->fd = -1;
		f->shared = j->filenames.n > 0;
		f->path = file_path(j, i);
		if (!f->path) {
			ret = diag_set(d, -ENOMEM, "out of memory");
			break;
		}
		if (j->filesize.hi)
			filesize = j->filesize.lo + rng_below(&rng, j->filesize.hi - j->filesize.lo + 1);
		if (virtual_files) {
			exists = true;
			f->real_size = filesize ? filesize : j->size.bytes / n;
			if (!f->real_size) {
				ret = diag_at(d, -EINVAL, j->file, j->line,
					      "job '%s': ioengine %s needs size= or filesize=",
					      j->name, j->ioengine);
				break;
			}
		} else if ((ret = probe(f, &exists)) < 0) {
			ret = ret == -EINVAL ?
			      fail(j, d, ret, "'%s' is not a regular file or a device",
				   f->path) :
			      diag_at(d, ret, j->file, j->line, "job '%s': '%s': %s", j->name,
				      f->path, strerror(-ret));
			break;
		}
		if (!exists && will_exist && will_exist(ctx, f->path)) {
			f->deferred = true;
			continue;
		}
		/* /dev/sdz missing means a typo, not a file to create in devtmpfs. */
		if (!exists && !strncmp(f->path, "/dev/", 5) && !strchr(f->path + 5, '/')) {
			ret = fail(j, d, -EINVAL, "'%s' does not exist (refusing to create a file "
				   "under /dev)", f->path);
			break;
		}
		ret = size_one(j, f, n, exists, filesize, d);
	}
	if (ret) {
		files_free(files, n);
		return ret;
	}
	*out = files;
	*nout = n;
	return 0;
}

/* Direct I/O fails with EINVAL on sizes and offsets the device cannot take: say so now. */
static int check_direct(const struct job_desc *j, const struct io_file *f, struct diag *d)
{
	const char *file;
	int line;

	for (int dir = 0; dir < IO_NDIR; dir++) {
		const struct dir_bs *b = &j->bs[dir];
		bool bad = b->min % f->lbs || j->blockalign[dir] % f->lbs;

		for (unsigned s = 0; s < b->nsplit; s++)
			bad |= b->split[s].bs % f->lbs != 0;
		if (!rw_does(j->rw, dir) || !bad)
			continue;
		job_where(j, "bs", &file, &line);
		return diag_at(d, -EINVAL, file, line, "job '%s': option 'bs': direct=1 on '%s' "
			       "needs multiples of %u bytes, not %" PRIu64, j->name, f->path,
			       f->lbs, b->min);
	}
	if (f->io_off % f->lbs) {
		job_where(j, "offset", &file, &line);
		return diag_at(d, -EINVAL, file, line, "job '%s': option 'offset': direct=1 on "
			       "'%s' needs an offset aligned to %u bytes, not %" PRIu64, j->name,
			       f->path, f->lbs, f->io_off);
	}
	return 0;
}

/* Never write to a device that holds a mounted file system or swap, unless told to. */
static int check_in_use(const struct job_desc *j, const struct io_file *f, struct diag *d)
{
	char where[512];
	struct stat st;
	int ret;

	if (stat(f->path, &st) < 0)
		return diag_at(d, -errno, j->file, j->line, "job '%s': '%s': %s", j->name, f->path,
			       strerror(errno));
	ret = blockdev_in_use(st.st_rdev, where, sizeof(where));
	if (ret == 0) {
		/*
		 * An exclusive open fails with EBUSY while the kernel holds the device:
		 * mounted, swap, or a member of md, dm or LVM that nothing mounts directly.
		 */
		int fd = open(f->path, O_RDONLY | O_EXCL | O_CLOEXEC);

		if (fd >= 0)
			close(fd);
		else if (errno == EBUSY)
			return diag_at(d, -EPERM, j->file, j->line, "job '%s': refusing to write "
				       "to '%s': the kernel holds it (a file system, swap, md, dm "
				       "or LVM uses it; set allow_mounted_write=1 to allow it)",
				       j->name, f->path);
	}
	if (ret < 0)
		return diag_at(d, -EPERM, j->file, j->line, "job '%s': cannot tell whether '%s' "
			       "is mounted (%s), so it will not be written (allow_mounted_write=1 "
			       "skips this check)", j->name, f->path, strerror(-ret));
	if (ret > 0)
		return diag_at(d, -EPERM, j->file, j->line, "job '%s': refusing to write to '%s': "
			       "%s is mounted or in use as swap (set allow_mounted_write=1 to allow "
			       "it)", j->name, f->path, where);
	return 0;
}

int files_check(const struct job_desc *j, const struct io_file *f, unsigned n, struct diag *d)
{
	int ret = 0;

	for (unsigned i = 0; !ret && i < n; i++) {
		if (f[i].deferred)
			continue;
		if (j->direct)
			ret = check_direct(j, &f[i], d);
		if (!ret && f[i].is_bdev && job_writes(j) && !j->allow_mounted_write)
			ret = check_in_use(j, &f[i], d);
	}
	return ret;
}

static int create_empty(const struct job_desc *j, const struct io_file *f, struct diag *d)
{
	int fd = open(f->path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	int ret = 0;

	if (fd < 0)
		return diag_at(d, -errno, j->file, j->line, "job '%s': cannot create '%s': %s",
			       j->name, f->path, strerror(errno));
	switch (j->fallocate) {
	case FALLOC_NATIVE:
		/* Not every file system can preallocate: then the file just stays sparse. */
		if (fallocate(fd, 0, 0, (off_t)f->want_size) < 0 && errno != EOPNOTSUPP)
			ret = -errno;
		break;
	case FALLOC_POSIX:
		ret = -posix_fallocate(fd, 0, (off_t)f->want_size);
		break;
	case FALLOC_KEEP:
		if (fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)f->want_size) < 0 &&
		    errno != EOPNOTSUPP)
			ret = -errno;
		break;
	default:
		break;
	}
	if (!ret && j->fallocate != FALLOC_KEEP && ftruncate(fd, (off_t)f->want_size) < 0)
		ret = -errno;
	close(fd);
	if (ret)
		return diag_at(d, ret, j->file, j->line, "job '%s': cannot size '%s' to %" PRIu64
			       " bytes: %s", j->name, f->path, f->want_size, strerror(-ret));
	return 0;
}

/* Write [from, want_size) of f with data, then fsync, so reads find real blocks. */
static int write_out(const struct job_desc *j, const struct io_file *f, uint64_t from,
		     unsigned char *buf, const atomic_bool *stop, struct diag *d)
{
	int fd = open(f->path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	uint64_t off = from;
	int ret = 0;

	if (fd < 0)
		return diag_at(d, -errno, j->file, j->line, "job '%s': cannot create '%s': %s",
			       j->name, f->path, strerror(errno));
	while (!ret && off < f->want_size) {
		size_t len = f->want_size - off < LAYOUT_CHUNK ? f->want_size - off : LAYOUT_CHUNK;
		ssize_t w = pwrite(fd, buf, len, (off_t)off);

		if (w < 0)
			ret = -errno;
		else
			off += (uint64_t)w;
		if (!ret && atomic_load(stop)) {
			close(fd);
			return diag_at(d, -EINTR, j->file, j->line, "job '%s': laying out '%s' "
				       "stopped at offset %" PRIu64, j->name, f->path, off);
		}
	}
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	close(fd);
	if (ret)
		return diag_at(d, ret, j->file, j->line, "job '%s': laying out '%s' at offset %"
			       PRIu64 " (%" PRIu64 " bytes needed): %s", j->name, f->path, off,
			       f->want_size - from, strerror(-ret));
	return 0;
}

static unsigned char *layout_buffer(uint64_t seed)
{
	unsigned char *buf = malloc(LAYOUT_CHUNK);
	struct rng rng;

	if (!buf)
		return NULL;
	rng_seed(&rng, seed);
	for (size_t i = 0; i < LAYOUT_CHUNK; i += 8) {
		uint64_t v = rng_next(&rng);

		memcpy(buf + i, &v, 8);
	}
	return buf;
}

int files_layout(const struct job_desc *j, struct io_file *f, unsigned n,
		 const atomic_bool *stop, void (*note)(void *ctx, const char *msg), void *ctx,
		 struct diag *d)
{
	bool data = rw_does(j->rw, IO_READ) || (j->overwrite && rw_does(j->rw, IO_WRITE));
	uint64_t *have, total = 0;
	unsigned nout = 0;
	unsigned char *buf;
	char msg[512];
	int ret = 0;

	have = malloc(sizeof(*have) * (n ? n : 1));
	if (!have)
		return diag_set(d, -ENOMEM, "out of memory");
	for (unsigned i = 0; !ret && i < n; i++) {
		struct stat st;

		have[i] = UINT64_MAX;
		if (f[i].is_bdev || f[i].is_chr)
			continue;
		if (stat(f[i].path, &st) < 0) {
			/* create_on_open: the job's own open (O_CREAT) makes it, at its start. */
			if (!data && j->create_on_open)
				continue;
			if (!data && (ret = create_empty(j, &f[i], d)) < 0)
				break;
			st.st_size = 0;
		}
		if (data && (uint64_t)st.st_size < f[i].want_size) {
			have[i] = (uint64_t)st.st_size;
			total += f[i].want_size;
			nout++;
		}
	}
	if (ret || !nout) {
		free(have);
		return ret;
	}
	snprintf(msg, sizeof(msg), "%s: Laying out IO file%s (%u file%s / %s%" PRIu64 "MiB)",
		 j->name, nout > 1 ? "s" : "", nout, nout > 1 ? "s" : "",
		 nout > 1 ? "total " : "", total >> 20);
	note(ctx, msg);
	buf = layout_buffer(j->randseed);
	if (!buf)
		ret = diag_set(d, -ENOMEM, "out of memory");
	for (unsigned i = 0; !ret && i < n; i++)
		if (have[i] != UINT64_MAX)
			ret = write_out(j, &f[i], have[i] - have[i] % LAYOUT_CHUNK, buf, stop, d);
	free(buf);
	free(have);
	return ret;
}

static int open_flags(const struct job_desc *j, const struct io_file *f)
{
	int flags = O_CLOEXEC;

	flags |= job_writes(j) ? O_RDWR : O_RDONLY;
	if (job_writes(j) && !f->is_bdev && !f->is_chr)
		flags |= O_CREAT;
	if (j->direct)
		flags |= O_DIRECT;
	if (j->sync == SYNC_SYNC)
		flags |= O_SYNC;
	else if (j->sync == SYNC_DSYNC)
		flags |= O_DSYNC;
	return flags;
}

int files_open(const struct job_desc *j, struct io_file *f, unsigned n, char *err, size_t len)
{
	for (unsigned i = 0; i < n; i++) {
		f[i].fd = open(f[i].path, open_flags(j, &f[i]), 0644);
		if (f[i].fd < 0) {
			int e = errno;

			snprintf(err, len, "job '%s': cannot open '%s': %s", j->name, f[i].path,
				 strerror(e));
			return -e;
		}
		if (!j->invalidate || j->direct || f[i].is_chr)
			continue;
		/* Best effort, as in fio: a cache that cannot be dropped only warms the run. */
		if (f[i].is_bdev)
			blockdev_flush(f[i].fd);
		else
			posix_fadvise(f[i].fd, (off_t)f[i].io_off, (off_t)f[i].io_len,
				      POSIX_FADV_DONTNEED);
	}
	return 0;
}

void files_close(const struct job_desc *j, struct io_file *f, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (f[i].fd < 0)
			continue;
		if (j->fsync_on_close && job_writes(j))
			fsync(f[i].fd);
		close(f[i].fd);
		f[i].fd = -1;
		if (j->unlink && !f[i].is_bdev && !f[i].is_chr)
			unlink(f[i].path);
	}
}

void files_free(struct io_file *f, unsigned n)
{
	for (unsigned i = 0; f && i < n; i++)
		free(f[i].path);
	free(f);
}

unsigned files_dio_align(const struct io_file *f)
{
	return f->lbs > 512 ? f->lbs : 512;
}
