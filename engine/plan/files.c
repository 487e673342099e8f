/* A job's files: naming, sizing, safety checks, layout, open and close. */
#include "engine/plan/files.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "engine/devices/blockdev.h"
#include "engine/devices/device_users.h"
#include "engine/devices/path_guard.h"
#include "engine/devices/pseudo_fs.h"
#include "engine/devices/signature.h"
#include "engine/plan/offsets.h"
#include "engine/plan/region.h"
#include "jobs/replay_log.h"
#include "base/diag.h"
#include "base/grow.h"

/*
 * The job's name as part of a file name. A job file's section name is a label: its '/'
 * becomes '_', so that "[../x]" or "[/etc/passwd]" names a file in the job's directory,
 * never a path out of it (fio writes "../x.0.0" and lays out "/etc/passwd.0.0"). A --name=
 * on the command line is kept as fio keeps it: tools (LemonBench) name their test file on
 * the disk under test so. Returns the bytes written.
 */
static size_t name_part(const struct job_desc *j, char *out, size_t len)
{
	const char *name = j->name;
	size_t n = 0;

	for (; name[n] && n + 1 < len; n++)
		out[n] = name[n] == '/' && !j->name_is_path ? '_' : name[n];
	out[n] = '\0';
	return n;
}

/* Expand $jobname, $jobnum and $filenum in filename_format. */
static void format_name(const struct job_desc *j, unsigned filenum, char *out, size_t len)
{
	const char *p = j->filename_format;
	size_t n = 0;

	while (*p && n + 1 < len) {
		int w = 0;

		if (!strncmp(p, "$jobname", 8)) {
			n += name_part(j, out + n, len - n);
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

/*
 * Whether a job's clones name the same files: filename= and opendir= name them outright,
 * and a filename_format without $jobnum gives every clone the same names (sysbench's one
 * file set, filename_format=test_file.$filenum), unless directory=a:b spreads the clones.
 */
static bool clones_share_names(const struct job_desc *j, size_t found)
{
	if (j->filenames.n + found > 0)
		return true;
	return j->filename_format && !strstr(j->filename_format, "$jobnum") &&
	       j->directories.n <= 1;
}

/* The files opendir= found: paths as found, not under directory=. */
struct dir_files {
	char **v;
	size_t n, cap;
};

static char *file_path(const struct job_desc *j, const struct dir_files *df, unsigned i)
{
	char name[4096], *path;
	const char *dir = NULL;

	if (i >= j->filenames.n && df->n)
		return strdup(df->v[i - j->filenames.n]);
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
	char *what;
	va_list ap;
	int n;

	/* whole, however long the names: diag_at() shortens them and keeps the reason */
	va_start(ap, fmt);
	n = vasprintf(&what, fmt, ap);
	va_end(ap);
	if (n < 0)
		return diag_at(d, err, j->file, j->line, "job '%s': %s", j->name, fmt);
	diag_at(d, err, j->file, j->line, "job '%s': %s", j->name, what);
	free(what);
	return err;
}

/*
 * fill_device: the free space of the file system that will hold path (its nearest
 * existing directory when it does not exist yet), shared by the job's files.
 */
static uint64_t free_space(const char *path)
{
	char dir[PATH_MAX], *slash;
	struct statvfs sv;

	snprintf(dir, sizeof(dir), "%s", path);
	while (statvfs(dir, &sv) < 0) {
		slash = strrchr(dir, '/');
		if (!slash || slash == dir) {
			snprintf(dir, sizeof(dir), slash ? "/" : ".");
			if (statvfs(dir, &sv) < 0)
				return 0;
			break;
		}
		*slash = '\0';
	}
	return (uint64_t)sv.f_bavail * sv.f_frsize;
}

/*
 * filesize=: the file is that size (drawn from a range), or stays as it is when it exists
 * at a size within the range; the region runs from the offset to the file's end, as in
 * fio (size=N% takes that share of it), and size= in bytes only bounds how much I/O is
 * done (io_plan.c).
 */
static int size_by_filesize(const struct job_desc *j, struct io_file *f, bool exists,
			    uint64_t filesize, struct diag *d)
{
	bool regular = !f->is_bdev && !f->is_chr;
	uint64_t size = exists && f->real_size >= j->filesize.lo &&
			f->real_size <= j->filesize.hi ? f->real_size : filesize;
	uint64_t off = j->file_append && regular ? f->real_size : region_offset(j, size);

	if (!regular && f->real_size && size > f->real_size)
		size = f->real_size;	/* a device is no bigger than it is */
	if (j->jobnum && off >= size) {
		/*
		 * a clone that offset_increment starts at or past the file's end: fio lays
		 * the file out and does no I/O there (validate.c notes it)
		 */
		f->io_off = size;
		f->io_len = 0;
		f->want_size = exists && f->real_size > size ? f->real_size : size;
		return 0;
	}
	if (off >= size || size - off < job_bs_max(j))
		return fail(j, d, -EINVAL, "the region of '%s' from offset %" PRIu64 " to its "
			    "end (filesize %" PRIu64 ") is smaller than the block size (%" PRIu64
			    ")", f->path, off, size, job_bs_max(j));
	f->io_off = off;
	f->io_len = size - off;
	/* size=N%: that share of the file, from the offset, as fio cuts it */
	if (j->size.pct > 0 && region_length(j, size, off, 1) < f->io_len)
		f->io_len = region_length(j, size, off, 1);
	/* as fio extends it: to the region's end, never shorter than it is */
	f->want_size = exists && f->real_size > off + f->io_len ? f->real_size : off + f->io_len;
	return 0;
}

/* Size, offset and region of one file, fio's way: size is split over the files. */
static int size_one(const struct job_desc *j, struct io_file *f, unsigned nfiles, bool exists,
		    uint64_t filesize, struct diag *d)
{
	bool regular = !f->is_bdev && !f->is_chr;
	bool sized = f->is_bdev || f->real_size;	/* a device the engine sized (sg) */
	uint64_t off, len;

	/*
	 * fill_device sizes what nothing else sizes: the file as it is and its share of the
	 * free space, so that the writes run into ENOSPC (fio's size is then unlimited)
	 */
	if (j->fill_device && regular && !j->size.bytes && !j->size.pct && !filesize) {
		uint64_t bs = job_bs_max(j);

		filesize = (f->real_size + free_space(f->path) / nfiles) / bs * bs;
		if (!filesize)
			return fail(j, d, -ENOSPC, "fill_device=1: the file system of '%s' has "
				    "less than one block (%" PRIu64 " bytes) free for each of its %u "
				    "file%s", f->path, bs, nfiles, nfiles > 1 ? "s" : "");
	}
	if ((((j->size.pct > 0 || ((j->offset.pct > 0 || j->offset_increment.pct > 0) &&
	       (!j->size.bytes || f->is_chr))) && !j->filesize.hi) ||
	     (!j->size.bytes && !filesize)) && (!exists || (f->is_chr && !sized)))
		return fail(j, d, -EINVAL, "'%s' %s, so its size is unknown (set size= or "
			    "filesize=)", f->path, f->is_chr ? "is a character device" :
			    "does not exist");
	if (!exists && !j->filesize.hi && (j->offset.pct > 0 || j->offset_increment.pct > 0))
		diag_note(d, "job '%s': '%s' does not exist yet: offset=%s is a share of its size "
			  "now, 0, so the job starts at its beginning, as fio's does (filesize= "
			  "gives the share a size)", j->name, f->path,
			  j->offset.pct > 0 ? "N%" : "offset_increment=N%");
	if (j->filesize.hi)
		return size_by_filesize(j, f, exists, filesize, d);
	/* file_append: as offset= the file's size, for regular files alone (as fio) */
	off = j->file_append && regular ? f->real_size : region_offset(j, f->real_size);
	len = filesize ? filesize : region_length(j, f->real_size, off, nfiles);
	if (!regular && sized && off + len > f->real_size)
		len = f->real_size > off ? f->real_size - off : 0;
	if (len < job_bs_max(j))
		return fail(j, d, -EINVAL, "the region of '%s' (%" PRIu64 " bytes) is smaller "
			    "than the block size (%" PRIu64 ")", f->path, len, job_bs_max(j));
	f->io_off = off;
	f->io_len = len;
	f->want_size = off + len;
	return 0;
}

/*
 * read_iolog: the region is the whole file or device, as far as the log reaches. The log's
 * reads must find data (a file it reads before it writes must exist, and be long enough),
 * and nothing is laid out: a file the log writes is created by the open, as in fio.
 */
static int size_replayed(const struct job_desc *j, struct io_file *f, unsigned i, bool exists,
			 struct diag *d)
{
	const struct replay_log *log = j->replay;
	const struct replay_file *rf = &log->files[i];
	uint64_t end = rf->read_end > rf->write_end ? rf->read_end : rf->write_end;
	int line = log->blktrace ? 0 : (int)rf->line;

	if (!exists && !rf->written)
		return diag_at(d, -EINVAL, log->path, line, "job '%s': '%s' does not exist, and "
			       "the log only reads it", j->name, f->path);
	if (exists && !f->is_chr && rf->read_end > f->real_size &&
	    (f->is_bdev || rf->read_end > rf->write_end))
		return diag_at(d, -EINVAL, log->path, log->blktrace ? 0 : (int)rf->read_end_line,
			       "job '%s': the log reads '%s' up to byte %" PRIu64 ", past its end "
			       "(%" PRIu64 " bytes)", j->name, f->path, rf->read_end,
			       f->real_size);
	if (f->is_bdev && end > f->real_size)
		return diag_at(d, -EINVAL, log->path, line, "job '%s': the log writes '%s' up to "
			       "byte %" PRIu64 ", past the end of the device (%" PRIu64 " bytes)",
			       j->name, f->path, end, f->real_size);
	f->io_off = 0;
	f->io_len = end > f->real_size ? end : f->real_size;
	f->want_size = exists ? f->real_size : 0;
	return 0;
}

/*
 * procfs, sysfs, devtmpfs and the like hold kernel interfaces, not data: a file there is
 * only read, and only when it has the bytes the job reads (/dev/sdz missing is a typo,
 * /proc/self/mem no file to lay out).
 */
static int check_pseudo_fs(const struct job_desc *j, const struct io_file *f, bool exists,
			   struct diag *d)
{
	const char *fs;

	if (f->is_bdev || f->is_chr || !(fs = pseudo_fs_of(f->path)))
		return 0;
	if (!exists)
		return fail(j, d, -EINVAL, "'%s' does not exist, and iojob never creates files "
			    "on %s", f->path, fs);
	if (job_modifies(j) || j->unlink || f->real_size < f->want_size)
		return fail(j, d, -EINVAL, "'%s' is on %s, a pseudo file system: iojob never "
			    "writes, lays out, extends or deletes files there", f->path, fs);
	return 0;
}

/*
 * A stripe's member is used whole, as md uses its disks: it must exist, and have a size.
 * Virtual members (null) get whole chunks enough for size= between them.
 */
static int size_member(const struct job_desc *j, struct io_file *f, unsigned n, bool exists,
		       bool virtual_files, struct diag *d)
{
	uint64_t row = j->stripe_chunk * n;
	const char *file;
	int line;

	job_where(j, "filename", &file, &line);
	if (!exists)
		return diag_at(d, -EINVAL, file, line, "job '%s': option 'filename': stripe member "
			       "'%s' does not exist (a stripe's members are used as they are: "
			       "create them first)", j->name, f->path);
	if (f->is_chr)
		return diag_at(d, -EINVAL, file, line, "job '%s': option 'filename': stripe member "
			       "'%s' is a character device, not a regular file or a block device",
			       j->name, f->path);
	if (virtual_files)
		f->real_size = (j->size.bytes + row - 1) / row * j->stripe_chunk;
	f->io_off = 0;
	f->io_len = f->want_size = f->real_size;
	return 0;
}

static int add_dir_file(struct dir_files *df, const char *path)
{
	char *copy = strdup(path);

	if (!copy || GROW_FOR(df->v, df->cap, df->n) < 0) {
		free(copy);
		return -ENOMEM;
	}
	df->v[df->n++] = copy;
	return 0;
}

/*
 * opendir=: every regular file under dir, recursively, in name order within each
 * directory. Symbolic links are not followed, as fio (lstat) does not.
 */
static int scan_dir(const char *dir, struct dir_files *df, unsigned depth)
{
	struct dirent **ents;
	int n, ret = 0;

	if (depth > 64)
		return -ELOOP;
	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		return -errno;
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		char *path = NULL;
		struct stat st;

		if (!ret && strcmp(name, ".") && strcmp(name, "..")) {
			if (asprintf(&path, "%s/%s", dir, name) < 0)
				ret = -ENOMEM;
			else if (lstat(path, &st) < 0)
				ret = -errno;
			else if (S_ISDIR(st.st_mode))
				ret = scan_dir(path, df, depth + 1);
			else if (S_ISREG(st.st_mode))
				ret = add_dir_file(df, path);
			free(path);
		}
		free(ents[i]);
	}
	free(ents);
	return ret;
}

/* filesize=: one size, or one drawn from the range in whole blocks, as fio draws it. */
static uint64_t draw_filesize(const struct job_desc *j, struct rng *rng)
{
	uint64_t lo = j->filesize.lo, hi = j->filesize.hi, bs = job_bs_min(j), v;

	if (lo == hi)
		return lo;
	v = lo + rng_below(rng, hi - lo + 1);
	return v >= bs ? v - v % bs : v;
}

static void dir_files_free(struct dir_files *df)
{
	for (size_t i = 0; i < df->n; i++)
		free(df->v[i]);
	free(df->v);
}

static int find_dir_files(const struct job_desc *j, struct dir_files *df, struct diag *d)
{
	const char *file;
	int line, ret;

	if (!j->opendir)
		return 0;
	job_where(j, "opendir", &file, &line);
	ret = scan_dir(j->opendir, df, 0);
	if (ret == -ENOMEM)
		return diag_set(d, ret, "out of memory");
	if (ret < 0)
		return diag_at(d, ret, file, line, "job '%s': option 'opendir': '%s': %s",
			       j->name, j->opendir, strerror(-ret));
	if (!df->n)
		return diag_at(d, -EINVAL, file, line, "job '%s': option 'opendir': no regular "
			       "file under '%s'", j->name, j->opendir);
	return 0;
}

/* The engine's own look at the file (sg asks the device its size), where it has one. */
static int engine_probe(const struct job_desc *j, struct io_file *f, struct diag *d)
{
	const struct ioengine_ops *ops = ioengine_find(j->ioengine);
	char why[512];
	int ret;

	if (!ops || !ops->probe_file)
		return 0;
	ret = ops->probe_file(j, f, why, sizeof(why));
	if (ret < 0)
		return fail(j, d, -EINVAL, "ioengine %s: '%s': %s", ops->name, f->path, why);
	return 0;
}

int files_resolve(const struct job_desc *j, bool virtual_files,
		  bool (*will_exist)(void *ctx, const char *path), void *ctx,
		  struct io_file **out, unsigned *nout, struct diag *d)
{
	struct dir_files df = { 0 };
	struct io_file *files;
	struct rng rng;
	unsigned n;
	int ret;

	ret = find_dir_files(j, &df, d);
	if (ret < 0) {
		dir_files_free(&df);
		return ret;
	}
	n = j->filenames.n + df.n ? j->filenames.n + (unsigned)df.n : j->nrfiles;
	files = calloc(n, sizeof(*files));
	if (!files) {
		dir_files_free(&df);
		return diag_set(d, -ENOMEM, "out of memory");
	}
	rng_seed(&rng, j->randseed ^ 0x5eed);
	for (unsigned i = 0; !ret && i < n; i++) {
		struct io_file *f = &files[i];
		uint64_t filesize = 0;
		bool exists = false;

		f->fd = -1;
		f->shared = clones_share_names(j, df.n);
		f->path = file_path(j, &df, i);
		if (!f->path) {
			ret = diag_set(d, -ENOMEM, "out of memory");
			break;
		}
		if (j->filesize.hi)
			filesize = draw_filesize(j, &rng);
		if (virtual_files) {
			exists = true;
			f->real_size = filesize ? filesize : j->size.bytes / n;
			if (j->replay && i < j->replay->nfiles)	/* as far as the log reaches */
				f->real_size = replay_extent(&j->replay->files[i], f->real_size);
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
		if (!virtual_files && (ret = engine_probe(j, f, d)) < 0)
			break;
		if (j->stripe_chunk) {
			ret = size_member(j, f, n, exists, virtual_files, d);
			continue;
		}
		if (!exists && will_exist && will_exist(ctx, f->path)) {
			f->deferred = true;
			continue;
		}
		ret = j->replay ? size_replayed(j, f, i, exists, d) :
				  size_one(j, f, n, exists, filesize, d);
		if (!ret)
			ret = check_pseudo_fs(j, f, exists, d);
	}
	dir_files_free(&df);
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

/*
 * Never write to a device that is mounted, swap, part of md or dm, or under a loop device
 * that is any of these, nor to a file behind such a loop device, unless told to.
 */
static int check_in_use(const struct job_desc *j, const struct io_file *f,
			struct device_users *u, struct diag *d)
{
	char why[1024];
	struct stat st;
	int ret;

	if (stat(f->path, &st) < 0) {
		if (errno == ENOENT && !f->is_bdev)
			return 0;	/* created by the job: no loop device is over it yet */
		return diag_at(d, -errno, j->file, j->line, "job '%s': '%s': %s", j->name, f->path,
			       strerror(errno));
	}
	ret = device_used(u, &st, f->path, why, sizeof(why));
	if (ret > 0)
		return diag_at(d, -EPERM, j->file, j->line, "job '%s': refusing to write to '%s': "
			       "%s (set allow_mounted_write=1 to allow it)", j->name, f->path, why);
	if (ret < 0)
		return diag_at(d, -EPERM, j->file, j->line, "job '%s': cannot tell whether '%s' "
			       "is mounted (%s), so it will not be written (allow_mounted_write=1 "
			       "skips this check)", j->name, f->path, strerror(-ret));
	return 0;
}

/*
 * Never write over a file system, RAID member, crypto volume or partition table unasked.
 * Each device is probed once a run, however many jobs write to it.
 */
static int check_signatures(const struct job_desc *j, const struct io_file *f,
			    struct device_users *u, struct diag *d)
{
	char what[512];
	struct stat st;
	int fd, ret;

	fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		return diag_at(d, ret, j->file, j->line, "job '%s': '%s': %s", j->name, f->path,
			       strerror(-ret));
	}
	ret = dev_set_has(&u->blank, st.st_rdev) ? 0 : signature_probe(fd, what, sizeof(what));
	close(fd);
	if (ret < 0)
		return diag_at(d, -EPERM, j->file, j->line, "job '%s': cannot read '%s' to look "
			       "for a file system on it (%s), so it will not be written "
			       "(allow_overwrite_signatures=1 skips this check)", j->name,
			       f->path, strerror(-ret));
	if (ret > 0)
		return diag_at(d, -EPERM, j->file, j->line, "job '%s': refusing to write to '%s': "
			       "it carries a signature (%s; set allow_overwrite_signatures=1 to "
			       "overwrite it)", j->name, f->path, what);
	dev_set_add(&u->blank, st.st_rdev);
	return 0;
}

/* --readonly: a job that reads a file which is missing or short would write it first. */
static int check_readonly(const struct job_desc *j, const struct io_file *f, struct diag *d)
{
	if (f->is_bdev || f->is_chr || f->real_size >= f->want_size)
		return 0;
	return fail(j, d, -EINVAL, "'%s' has %" PRIu64 " of the %" PRIu64 " bytes the job reads, "
		    "and --readonly forbids laying it out", f->path, f->real_size, f->want_size);
}

/*
 * A file the job is to create: the nearest directory on its way that exists must take
 * the directories and the file now (layout creates what is missing, as fio does), or the
 * job would fail at layout, after the jobs (and sweep cells) before it had run.
 */
static int check_creatable(const struct job_desc *j, const struct io_file *f, struct diag *d)
{
	char dir[PATH_MAX], *slash;
	int ret = 0;

	if (f->is_bdev || f->is_chr || access(f->path, F_OK) == 0 || errno != ENOENT)
		return 0;
	if (snprintf(dir, sizeof(dir), "%s", f->path) >= (int)sizeof(dir))
		return fail(j, d, -ENAMETOOLONG, "cannot create '%s': %s", f->path,
			    strerror(ENAMETOOLONG));
	do {
		slash = strrchr(dir, '/');
		if (!slash)
			snprintf(dir, sizeof(dir), ".");
		else if (slash == dir)
			dir[1] = '\0';
		else
			*slash = '\0';
	} while (slash && slash != dir && access(dir, F_OK) < 0 && errno == ENOENT);
	if (access(dir, W_OK | X_OK) < 0)
		ret = fail(j, d, -EINVAL, "cannot create '%s': '%s': %s", f->path, dir,
			   strerror(errno));
	return ret;
}

/*
 * A job that verifies without writing checks what a write with verify= left: a file that
 * would be laid out first holds none of it (fio lays it out and then fails every block).
 */
static int check_verify_source(const struct job_desc *j, const struct io_file *f,
			       struct diag *d)
{
	const char *file;
	int line;

	if ((rw_does(j->rw, IO_WRITE) && !j->verify_only) || f->is_bdev || f->is_chr ||
	    f->real_size >= f->want_size)
		return 0;
	job_where(j, "verify", &file, &line);
	return diag_at(d, -EINVAL, file, line, "job '%s': option 'verify': '%s' has %" PRIu64
		       " of the %" PRIu64 " bytes the job reads, and a job that only reads "
		       "verifies what a write with verify= left there", j->name, f->path,
		       f->real_size, f->want_size);
}

/* allow_file_create=0: every file must exist already, fio's "file creation disallowed". */
static int check_may_create(const struct job_desc *j, const struct io_file *f, struct diag *d)
{
	const char *file;
	int line;

	if (j->allow_file_create || f->is_bdev || f->is_chr || access(f->path, F_OK) == 0)
		return 0;
	job_where(j, "allow_file_create", &file, &line);
	return diag_at(d, -ENOENT, file, line, "job '%s': option 'allow_file_create': '%s' does "
		       "not exist, and allow_file_create=0 forbids creating it", j->name, f->path);
}

/* The option that makes the job delete its files, for the message. */
static const char *deleting_option(const struct job_desc *j)
{
	if (ioengine_find(j->ioengine)->flags & IOENG_DELETES)
		return "ioengine";
	if (j->unlink)
		return "unlink";
	return j->unlink_each_loop ? "unlink_each_loop" : "create";
}

bool files_deleted(const struct job_desc *j)
{
	return (ioengine_find(j->ioengine)->flags & IOENG_DELETES) || j->unlink ||
	       j->unlink_each_loop || j->create == CREATE_RECREATE;
}

int files_guard(const struct job_desc *j, const struct io_file *f, unsigned n,
		enum path_use use, struct diag *d)
{
	const char *opt = use == PATH_DELETE ? deleting_option(j) : "ioengine", *file;
	char why[512];
	int line;

	for (unsigned i = 0; i < n; i++) {
		if (path_guard(f[i].path, use, why, sizeof(why)) == 0)
			continue;
		job_where(j, opt, &file, &line);
		return diag_at(d, -EPERM, file, line, "job '%s': option '%s': refusing to %s '%s': "
			       "it %s", j->name, opt, use == PATH_DELETE ? "delete" : "create",
			       f[i].path, why);
	}
	return 0;
}

/*
 * filetype= (fio HEAD): fio takes each file to be of that type without a stat() call, so
 * a device it is not told of is handled as a file, and a device that is not there cannot
 * be made. iojob looks anyway (its safety checks must): a file of another type is refused.
 */
static int check_filetype(const struct job_desc *j, const struct io_file *f, struct diag *d)
{
	static const char *const names[] = { "none", "file", "block", "char" };
	const char *is;
	struct stat sb;

	if (j->filetype == FILETYPE_NONE)
		return 0;
	if (stat(f->path, &sb) < 0)
		return j->filetype == FILETYPE_FILE ? 0 :
		       fail(j, d, -EINVAL, "option 'filetype': '%s' does not exist, and "
			    "filetype=%s names a device", f->path, names[j->filetype]);
	is = S_ISREG(sb.st_mode) ? "file" : S_ISBLK(sb.st_mode) ? "block" :
	     S_ISCHR(sb.st_mode) ? "char" : "other";
	if (strcmp(is, names[j->filetype]))
		return fail(j, d, -EINVAL, "option 'filetype': '%s' is of type %s, not the %s "
			    "filetype= says", f->path, is, names[j->filetype]);
	return 0;
}

/* Whether the job changes its files: rw= writes or trims, or the engine does (falloc). */
static bool writes_files(const struct job_desc *j)
{
	return job_modifies(j) || (ioengine_find(j->ioengine)->flags & IOENG_MODIFIES);
}

int files_check(const struct job_desc *j, const struct io_file *f, unsigned n,
		struct device_users *u, struct diag *d)
{
	bool writes = writes_files(j);
	int ret = 0;

	for (unsigned i = 0; !ret && i < n; i++) {
		if (f[i].deferred)
			continue;
		ret = check_filetype(j, &f[i], d);
		if (!ret && j->direct)
			ret = check_direct(j, &f[i], d);
		if (!ret && !f[i].is_chr && writes && !j->allow_mounted_write)
			ret = check_in_use(j, &f[i], u, d);
		if (!ret && f[i].is_bdev && writes && !j->allow_overwrite_signatures)
			ret = check_signatures(j, &f[i], u, d);
		if (!ret && j->readonly)
			ret = check_readonly(j, &f[i], d);
		if (!ret)
			ret = check_may_create(j, &f[i], d);
		if (!ret)
			ret = check_creatable(j, &f[i], d);
		if (!ret && j->verify != VERIFY_NONE)
			ret = check_verify_source(j, &f[i], d);
	}
	if (!ret && files_deleted(j))
		ret = files_guard(j, f, n, PATH_DELETE, d);
	return ret;
}

void files_claim(const struct job_desc *j, struct io_file *f, unsigned n,
		 struct device_users *u)
{
	for (unsigned i = 0; i < n; i++)
		f[i].claim = f[i].is_bdev && writes_files(j) && !j->allow_mounted_write ? u : NULL;
}

void files_free(struct io_file *f, unsigned n)
{
	for (unsigned i = 0; f && i < n; i++) {
		free(f[i].path);
	}
	free(f);
}

unsigned files_dio_align(const struct io_file *f)
{
	return f->lbs > 512 ? f->lbs : 512;
}
