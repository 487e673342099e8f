/* A job's files on disk: creating, laying out data before a read job, opening, closing. */
#include "engine/plan/files.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/falloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/devices/blockdev.h"
#include "engine/devices/device_users.h"
#include "engine/plan/offsets.h"
#include "base/diag.h"

/* Files are laid out 1 MiB a write: few system calls, one modest buffer. */
#define LAYOUT_CHUNK	(1u << 20)

static int truncate_to(int fd, uint64_t size)
{
	return ftruncate(fd, (off_t)size) < 0 ? -errno : 0;
}

/* create_on_open, read and written: the file at its size with no block claimed. */
static int create_sparse(const struct job_desc *j, const struct io_file *f, struct diag *d)
{
	int fd = open(f->path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	int ret;

	if (fd < 0)
		return diag_at(d, -errno, j->file, j->line, "job '%s': cannot create '%s': %s",
			       j->name, f->path, strerror(errno));
	ret = truncate_to(fd, f->want_size);
	close(fd);
	if (ret < 0)
		return diag_at(d, ret, j->file, j->line, "job '%s': cannot size '%s' to %" PRIu64
			       " bytes: %s", j->name, f->path, f->want_size, strerror(-ret));
	return 0;
}

/*
 * A write job's new file, sized as fallocate= says: native and posix allocate the blocks,
 * keep allocates them past the end, truncate sets the size (sparse), none leaves it empty.
 */
static int create_empty(const struct job_desc *j, const struct io_file *f, struct diag *d)
{
	int fd = open(f->path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	int ret = 0;

	if (fd < 0)
		return diag_at(d, -errno, j->file, j->line, "job '%s': cannot create '%s': %s",
			       j->name, f->path, strerror(errno));
	/* fill_device: the writes find the free space; no blocks or size are claimed first */
	switch (j->fill_device ? FALLOC_NONE : j->fallocate) {
	case FALLOC_NATIVE:
		/* Not every file system can preallocate: then the file is sized, sparse. */
		if (fallocate(fd, 0, 0, (off_t)f->want_size) < 0)
			ret = errno == EOPNOTSUPP ? truncate_to(fd, f->want_size) : -errno;
		break;
	case FALLOC_POSIX:
		ret = -posix_fallocate(fd, 0, (off_t)f->want_size);
		break;
	case FALLOC_KEEP:
		if (fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)f->want_size) < 0 &&
		    errno != EOPNOTSUPP)
			ret = -errno;
		break;
	case FALLOC_TRUNCATE:
		ret = truncate_to(fd, f->want_size);
		break;
	default:
		/* none (and fill_device): the file grows as the job writes it, as fio's */
		break;
	}
	close(fd);
	if (ret)
		return diag_at(d, ret, j->file, j->line, "job '%s': cannot size '%s' to %" PRIu64
			       " bytes: %s", j->name, f->path, f->want_size, strerror(-ret));
	return 0;
}

/* The open before a layout failed: a file that exists was to be extended, not created. */
static int open_failed(const struct job_desc *j, const struct io_file *f, struct diag *d)
{
	int err = errno;

	if (access(f->path, F_OK) == 0)
		return diag_at(d, -err, j->file, j->line, "job '%s': cannot extend '%s' to %"
			       PRIu64 " bytes: %s", j->name, f->path, f->want_size, strerror(err));
	return diag_at(d, -err, j->file, j->line, "job '%s': cannot create '%s': %s", j->name,
		       f->path, strerror(err));
}

/*
 * fill_device: the file system filled up while laying f out, which is what was asked; the
 * region ends at the last whole block written.
 */
static int filled(const struct job_desc *j, struct io_file *f, uint64_t off, struct diag *d)
{
	uint64_t bs = job_bs_max(j);
	uint64_t len = off > f->io_off ? (off - f->io_off) / bs * bs : 0;

	if (!len)
		return diag_at(d, -ENOSPC, j->file, j->line, "job '%s': fill_device=1: '%s' "
			       "filled up before one block of the job's region (%" PRIu64
			       " bytes) was laid out", j->name, f->path, bs);
	f->io_len = len;
	f->want_size = f->io_off + len;
	return 0;
}

/* Write [from, want_size) of f with data, then fsync (create_fsync), so reads find blocks. */
static int write_out(const struct job_desc *j, struct io_file *f, uint64_t from,
		     unsigned char *buf, const atomic_bool *stop, struct diag *d)
{
	int fd = open(f->path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	uint64_t off = from;
	int ret = 0;

	if (fd < 0)
		return open_failed(j, f, d);
	while (!ret && off < f->want_size) {
		size_t len = f->want_size - off < LAYOUT_CHUNK ? f->want_size - off : LAYOUT_CHUNK;
		ssize_t w = pwrite(fd, buf, len, (off_t)off);

		if (w < 0)
			ret = -errno;
		else
			off += (uint64_t)w;
		if (j->fill_device && (ret == -ENOSPC || ret == -EDQUOT)) {
			if (j->create_fsync)
				fsync(fd);
			close(fd);
			return filled(j, f, off, d);
		}
		if (!ret && atomic_load(stop)) {
			close(fd);
			return diag_at(d, -EINTR, j->file, j->line, "job '%s': laying out '%s' "
				       "stopped at offset %" PRIu64, j->name, f->path, off);
		}
	}
	if (!ret && j->create_fsync && fsync(fd) < 0)
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

/*
 * Create the directories a file's path names that do not exist yet, as fio does for
 * filename= ("a/b/c.dat" makes a and a/b). Only after every check passed, so a refused
 * job creates nothing; the safety checks already refused paths on pseudo file systems.
 */
static int make_parents(const struct job_desc *j, const char *path, struct diag *d)
{
	char dir[PATH_MAX];
	size_t n = strlen(path);

	if (n >= sizeof(dir))
		return diag_at(d, -ENAMETOOLONG, j->file, j->line, "job '%s': '%s': %s", j->name,
			       path, strerror(ENAMETOOLONG));
	memcpy(dir, path, n + 1);
	for (char *p = dir + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			return diag_at(d, -errno, j->file, j->line, "job '%s': cannot create "
				       "directory '%s' for '%s': %s", j->name, dir, path,
				       strerror(errno));
		*p = '/';
	}
	return 0;
}

/*
 * create=recreate: delete the files and create them empty, so that the job's writes
 * append and allocate as sysbench's seqwr does. Shared files are emptied once.
 */
static int recreate(const struct job_desc *j, struct io_file *f, unsigned n, struct diag *d)
{
	for (unsigned i = 0; i < n; i++) {
		int fd, ret;

		if (f[i].is_bdev || f[i].is_chr)
			return diag_at(d, -EINVAL, j->file, j->line, "job '%s': create=recreate "
				       "cannot empty device '%s'", j->name, f[i].path);
		if (f[i].shared && j->jobnum)
			continue;
		if (unlink(f[i].path) < 0 && errno != ENOENT)
			return diag_at(d, -errno, j->file, j->line, "job '%s': cannot delete "
				       "'%s': %s", j->name, f[i].path, strerror(errno));
		ret = make_parents(j, f[i].path, d);
		if (ret < 0)
			return ret;
		fd = open(f[i].path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0)
			return diag_at(d, -errno, j->file, j->line, "job '%s': cannot create "
				       "'%s': %s", j->name, f[i].path, strerror(errno));
		close(fd);
		f[i].real_size = 0;
	}
	return 0;
}

/* A layout that failed leaves none of the files it created behind. */
static int unmake(const struct io_file *f, unsigned n, const bool *made, int ret)
{
	for (unsigned i = 0; ret < 0 && i < n; i++)
		if (made[i])
			unlink(f[i].path);
	return ret;
}

int files_layout(const struct job_desc *j, struct io_file *f, unsigned n,
		 const atomic_bool *stop, void (*note)(void *ctx, const char *msg), void *ctx,
		 struct diag *d)
{
	bool data = rw_does(j->rw, IO_READ) || (j->overwrite && rw_does(j->rw, IO_WRITE));
	uint64_t *have, total = 0;
	unsigned nout = 0, ncreated = 0;
	unsigned char *buf;
	bool *made;
	char msg[512];
	int ret = files_check_space(j, f, n, d);

	if (ret < 0)
		return ret;
	if (j->create == CREATE_RECREATE)
		return recreate(j, f, n, d);
	have = malloc(sizeof(*have) * (n ? n : 1));
	made = calloc(n ? n : 1, sizeof(*made));
	if (!have || !made) {
		free(have);
		free(made);
		return diag_set(d, -ENOMEM, "out of memory");
	}
	for (unsigned i = 0; !ret && i < n; i++) {
		struct stat st;

		have[i] = UINT64_MAX;
		if (f[i].is_bdev || f[i].is_chr)
			continue;
		if (stat(f[i].path, &st) < 0) {
			if (errno == ENOENT && (ret = make_parents(j, f[i].path, d)) < 0)
				break;
			/*
			 * create_on_open: the job's own open (O_CREAT) makes it, at its start;
			 * so too a file a replayed log writes, as fio's open of it does
			 */
			if (!data && (j->create_on_open || j->replay))
				continue;
			if (data && j->create_on_open && !j->replay &&
			    rw_does(j->rw, IO_WRITE)) {
				/*
				 * One that writes as it reads (xfstests' verifying randrw jobs):
				 * fio makes it at open and lays nothing out, its writes fill it;
				 * made sparse at its size here, so that a read before them finds
				 * a hole (zeros) rather than the end. No room is claimed.
				 */
				snprintf(msg, sizeof(msg), "%s: create_on_open=1: '%s' is read and "
					 "written, so it is made sparse at its size, nothing laid out "
					 "(fio makes it empty at open; a read before its writes reach "
					 "there ends it)", j->name, f[i].path);
				note(ctx, msg);
				made[i] = true;
				if ((ret = create_sparse(j, &f[i], d)) < 0)
					break;
				continue;
			}
			if (data && j->create_on_open && !j->replay) {
				snprintf(msg, sizeof(msg), "%s: create_on_open=1: '%s' is read, so "
					 "it is laid out now (fio creates it empty at open and finds "
					 "nothing to read)", j->name, f[i].path);
				note(ctx, msg);
			}
			made[i] = true;
			if (!data && (ret = create_empty(j, &f[i], d)) < 0)
				break;
			st.st_size = 0;
			if (!data) {
				/* fio names every job that creates files, a write job too */
				total += f[i].want_size;
				ncreated++;
			}
		}
		if (data && (uint64_t)st.st_size < f[i].want_size) {
			have[i] = (uint64_t)st.st_size;
			total += f[i].want_size;
			nout++;
		}
	}
	if (!ret && nout + ncreated) {
		unsigned k = nout + ncreated;

		snprintf(msg, sizeof(msg), "%s: Laying out IO file%s (%u file%s / %s%" PRIu64
			 "MiB)", j->name, k > 1 ? "s" : "", k, k > 1 ? "s" : "",
			 k > 1 ? "total " : "", total >> 20);
		note(ctx, msg);
	}
	buf = ret || !nout ? NULL : layout_buffer(j->randseed);
	if (!ret && nout && !buf)
		ret = diag_set(d, -ENOMEM, "out of memory");
	for (unsigned i = 0; !ret && nout && i < n; i++)
		if (have[i] != UINT64_MAX)
			ret = write_out(j, &f[i], have[i] - have[i] % LAYOUT_CHUNK, buf, stop, d);
	ret = unmake(f, n, made, ret);
	free(buf);
	free(made);
	free(have);
	return ret;
}

static int advice(const struct job_desc *j);

static int open_flags(const struct job_desc *j, const struct io_file *f)
{
	int flags = O_CLOEXEC;

	flags |= job_modifies(j) ? O_RDWR : O_RDONLY;
	if (job_modifies(j) && !f->is_bdev && !f->is_chr && j->allow_file_create)
		flags |= O_CREAT;
	/*
	 * As fio 3.33's, a job that trims (trimwrite too) opens its files without O_DIRECT,
	 * O_SYNC or O_DSYNC, whatever direct= and sync= say.
	 */
	if (rw_does(j->rw, IO_TRIM))
		return flags;
	if (j->direct)
		flags |= O_DIRECT;
	if (j->sync == SYNC_SYNC)
		flags |= O_SYNC;
	else if (j->sync == SYNC_DSYNC)
		flags |= O_DSYNC;
	return flags;
}

/*
 * write_hint: the lifetime hint, on the inode (F_SET_RW_HINT) or, with direct=1, on the
 * open file (F_SET_FILE_RW_HINT), as fio gives it. Linux 5.17 dropped the open file's
 * hint (EINVAL), and since then takes the inode's for direct I/O too: then the inode's.
 * A kernel that refuses both fails the job.
 */
static int set_write_hint(const struct job_desc *j, const struct io_file *f, char *err,
			  size_t len)
{
	uint64_t hint = (uint64_t)j->write_hint;
	int cmd = j->direct ? F_SET_FILE_RW_HINT : F_SET_RW_HINT, e;

	if (!j->write_hint || f->is_chr || fcntl(f->fd, cmd, &hint) == 0)
		return 0;
	if (cmd == F_SET_FILE_RW_HINT && errno == EINVAL) {
		cmd = F_SET_RW_HINT;
		if (fcntl(f->fd, cmd, &hint) == 0)
			return 0;
	}
	e = errno;
	snprintf(err, len, "job '%s': write_hint: fcntl(%s) on '%s': %s", j->name,
		 cmd == F_SET_FILE_RW_HINT ? "F_SET_FILE_RW_HINT" : "F_SET_RW_HINT", f->path,
		 strerror(e));
	return -e;
}

/*
 * pre_read: read the region once, in blocks of the job's largest read, so the job starts
 * with it in the page cache. A buffered descriptor of its own, so direct=1 jobs get it too.
 */
static int open_flags(const struct job_desc *j, const struct io_file *f);

static int pre_read(const struct job_desc *j, const struct io_file *f, char *err, size_t len)
{
	uint64_t bs = j->bs[IO_READ].max ? j->bs[IO_READ].max : job_bs_max(j), off = 0;
	/* sync= as the job's own opens (fio pre-reads through them), never O_DIRECT */
	int sync = open_flags(j, f) & (O_SYNC | O_DSYNC);
	int fd = open(f->path, O_RDONLY | O_CLOEXEC | sync), ret = 0;
	unsigned char *buf;

	if (fd < 0) {
		ret = -errno;
		snprintf(err, len, "job '%s': pre_read: cannot open '%s': %s", j->name, f->path,
			 strerror(-ret));
		return ret;
	}
	buf = malloc(bs);
	if (!buf)
		ret = -ENOMEM;
	/* read() from the region's start, as fio's: no pread a trace would take for the job's */
	if (!ret && lseek(fd, (off_t)f->io_off, SEEK_SET) < 0)
		ret = -errno;
	while (!ret && off < f->io_len) {
		size_t n = f->io_len - off < bs ? f->io_len - off : bs;
		ssize_t r = read(fd, buf, n);

		if (r <= 0)
			ret = r < 0 ? -errno : -ENODATA;
		off += r > 0 ? (uint64_t)r : 0;
	}
	if (ret)
		snprintf(err, len, "job '%s': pre_read of '%s' at offset %" PRIu64 ": %s", j->name,
			 f->path, f->io_off + off, ret == -ENODATA ? "the file ended" :
			 strerror(-ret));
	free(buf);
	close(fd);
	return ret;
}

/*
 * A block device the job writes is claimed (O_EXCL, held until the run ends) and checked
 * again at its open, which may come long after the run's checks: after a startdelay, or
 * in a later phase.
 */
static int claim(const struct job_desc *j, const struct io_file *f, char *err, size_t len)
{
	char why[1024];
	int ret;

	if (!f->claim)
		return 0;
	ret = device_claim(f->claim, f->path, why, sizeof(why));
	if (ret > 0)
		snprintf(err, len, "job '%s': refusing to write to '%s': %s (set "
			 "allow_mounted_write=1 to allow it)", j->name, f->path, why);
	else if (ret < 0)
		snprintf(err, len, "job '%s': cannot claim '%s' for writing, or tell whether it "
			 "is in use (%s), so it will not be written (allow_mounted_write=1 skips "
			 "this check)", j->name, f->path, strerror(-ret));
	return ret ? -EPERM : 0;
}

int files_open_one(const struct job_desc *j, struct io_file *f, char *err, size_t len)
{
	int ret;

	ret = claim(j, f, err, len);
	if (ret < 0)
		return ret;
	f->fd = open(f->path, open_flags(j, f), 0644);
	if (f->fd < 0) {
		int e = errno;

		snprintf(err, len, "job '%s': cannot open '%s': %s", j->name, f->path,
			 strerror(e));
		return -e;
	}
	files_invalidate(j, f);
	if (advice(j) >= 0 && !f->is_chr)
		posix_fadvise(f->fd, (off_t)f->io_off, (off_t)f->io_len, advice(j));
	return set_write_hint(j, f, err, len);
}

int files_open(const struct job_desc *j, struct io_file *f, unsigned n, char *err, size_t len)
{
	unsigned limit = j->openfiles && j->openfiles < n && !j->stripe_chunk ? j->openfiles : n;

	/*
	 * openfiles: the first ones now, the others when the job comes to them. One open
	 * already is the clones' shared file the run opened for them (run.c open_shared()):
	 * opening it again leaked the first descriptor, 64 a cell in a sweep.
	 */
	for (unsigned i = 0; i < n; i++) {
		int ret;

		if (f[i].borrowed || f[i].fd >= 0 || i >= limit)
			continue;
		ret = files_open_one(j, &f[i], err, len);
		if (ret < 0)
			return ret;
	}
	/*
	 * pre_read: every file once, when the job starts, as fio's; under openfiles= too,
	 * and not again when a file is opened later (iojob read a reopened one again)
	 */
	for (unsigned i = 0; i < n && j->pre_read; i++) {
		int ret = f[i].is_chr ? 0 : pre_read(j, &f[i], err, len);

		if (ret < 0)
			return ret;
	}
	return 0;
}

/* fadvise_hint's advice, or -1 for none. */
static int advice(const struct job_desc *j)
{
	switch (j->fadvise_hint) {
	case FADV_HINT_PATTERN:
		return rw_is_random(j->rw) ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL;
	case FADV_HINT_SEQUENTIAL:
		return POSIX_FADV_SEQUENTIAL;
	case FADV_HINT_RANDOM:
		return POSIX_FADV_RANDOM;
	case FADV_HINT_NOREUSE:
		return POSIX_FADV_NOREUSE;
	default:
		return -1;
	}
}

void files_invalidate(const struct job_desc *j, const struct io_file *f)
{
	/* pre_read clears invalidate, as in fio: dropping what it read would undo it */
	if (!j->invalidate || j->pre_read || j->direct || f->is_chr || f->fd < 0)
		return;
	/* Best effort, as in fio: a cache that cannot be dropped only warms the run. */
	if (f->is_bdev)
		blockdev_flush(f->fd);
	else
		posix_fadvise(f->fd, (off_t)f->io_off, (off_t)f->io_len, POSIX_FADV_DONTNEED);
}

int files_recreate(const struct job_desc *j, struct io_file *f, unsigned n, char *err,
		   size_t len)
{
	for (unsigned i = 0; i < n; i++) {
		if (f[i].borrowed)
			continue;
		if (f[i].fd >= 0) {
			if (j->fsync_on_close && job_modifies(j) && !f[i].synced)
				fsync(f[i].fd);
			close(f[i].fd);
			f[i].fd = -1;
		}
		/* every file, those openfiles= had closed too, as fio's unlink_all_files() */
		if (f[i].is_bdev || f[i].is_chr)
			continue;
		if (unlink(f[i].path) < 0 && errno != ENOENT) {
			int e = errno;

			snprintf(err, len, "job '%s': unlink_each_loop: cannot delete '%s': %s",
				 j->name, f[i].path, strerror(e));
			return -e;
		}
	}
	return files_open(j, f, n, err, len);
}

/* lockfile's lock: fio's too is a read-write lock for readwrite, a mutex for exclusive. */
struct path_lock {
	pthread_rwlock_t rw;
};

struct path_lock *files_lock_new(void)
{
	struct path_lock *l = malloc(sizeof(*l));

	if (l && pthread_rwlock_init(&l->rw, NULL)) {
		free(l);
		return NULL;
	}
	return l;
}

void files_lock_free(struct path_lock *l)
{
	if (!l)
		return;
	pthread_rwlock_destroy(&l->rw);
	free(l);
}

void files_lock(const struct io_file *f, int dir, int mode)
{
	if (!f->lock)
		return;
	if (mode == FILE_LOCK_READWRITE && dir == IO_READ)
		pthread_rwlock_rdlock(&f->lock->rw);
	else
		pthread_rwlock_wrlock(&f->lock->rw);
}

void files_unlock(const struct io_file *f)
{
	if (f->lock)
		pthread_rwlock_unlock(&f->lock->rw);
}

int files_close(const struct job_desc *j, struct io_file *f, unsigned n, unsigned *failed)
{
	int ret = 0;

	for (unsigned i = 0; i < n; i++) {
		if (f[i].borrowed) {
			f[i].fd = -1;	/* the clone that opened it closes and deletes it */
			continue;
		}
		if (f[i].fd >= 0) {
			if (j->fsync_on_close && job_modifies(j) && !f[i].synced)
				fsync(f[i].fd);
			close(f[i].fd);
			f[i].fd = -1;
		}
		/*
		 * Open or not (openfiles= closes each file when it is done; the engines that
		 * work on names may never open one, or make a directory), it is removed; one
		 * already gone (another job on it deleted it) is what was asked.
		 */
		if (j->unlink && !f[i].is_bdev && !f[i].is_chr && remove(f[i].path) < 0 &&
		    errno != ENOENT && !ret) {
			ret = -errno;
			*failed = i;
		}
	}
	return ret;
}
