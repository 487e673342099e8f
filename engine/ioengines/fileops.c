/*
 * The metadata engines, fio's fileoperations: each times one operation on a file's or a
 * directory's name (create, stat, delete; mkdir, stat, rmdir) as one I/O, moving no data.
 * The operation is the I/O on the first block of the file's region; any further blocks of
 * the file complete at once, so that the I/O count is fio's (size / bs) while each file
 * is created, looked up or removed once per pass. Which direction the I/Os count under
 * follows rw=, as in fio (reads by default).
 */
#include "engine/ioengine.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <sys/stat.h>
#include <unistd.h>

enum stat_type { STAT_STAT, STAT_LSTAT, STAT_STATX };

struct filestat_opts {
	int stat_type;		/* enum stat_type */
};

static const struct opt_enum stat_type_vals[] = {
	{ "stat", STAT_STAT, "stat(2): follows a symbolic link" },
	{ "lstat", STAT_LSTAT, "lstat(2): the link itself" },
	{ "statx", STAT_STATX, "statx(2), asking for the basic fields and the birth time" },
	{ NULL, 0, NULL },
};

static const struct opt_def filestat_options[] = {
	ENGINE_ENUM("filestat", struct filestat_opts, "stat_type", stat_type, "stat",
		    stat_type_vals, "the system call each lookup of a file makes"),
	{ NULL },
};

/*
 * Whether r is the file's operation, or one of the blocks fio counts besides it. A sync
 * (fsync=, end_fsync) is no operation: it syncs what filecreate holds open, and for the
 * others, which hold nothing open, it is counted and does nothing, as in fio.
 */
static bool is_operation(struct io_req *r)
{
	if (r->dir < IO_NDIR)
		return r->off == r->file->io_off;
	if (r->file->fd >= 0)
		ioengine_do_sync_io(r, true);
	else
		r->res = 0;
	return false;
}

static enum ioq_status finish(struct io_req *r, int ret)
{
	if (r->dir < IO_NDIR)
		r->res = ret < 0 ? -errno : (int64_t)r->len;
	return IOQ_DONE;
}

/*
 * The descriptor stays open until the job closes its files, as fio's, so that fsync= and
 * unlink=1 work on it; with openfiles= below the file count it is closed at once, as fio
 * closes a file to open the next.
 */
static enum ioq_status filecreate_queue(struct ioengine *e, struct io_req *r)
{
	struct io_file *f = r->file;
	int fd;

	if (!is_operation(r))
		return finish(r, 0);
	if (f->fd >= 0) {	/* a new pass (loops=) creates it anew: drop the last one */
		close(f->fd);
		f->fd = -1;
	}
	fd = open(f->path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0 && e->job->openfiles && e->job->openfiles < e->nfiles)
		close(fd);
	else if (fd >= 0)
		f->fd = fd;
	return finish(r, fd);
}

static enum ioq_status filestat_queue(struct ioengine *e, struct io_req *r)
{
	const struct filestat_opts *o = e->opts;
	struct statx stx;
	struct stat st;
	int ret;

	if (!is_operation(r))
		return finish(r, 0);
	switch (o->stat_type) {
	case STAT_LSTAT:
		ret = lstat(r->file->path, &st);
		break;
	case STAT_STATX:
		ret = statx(AT_FDCWD, r->file->path, 0, STATX_BASIC_STATS | STATX_BTIME, &stx);
		break;
	default:
		ret = stat(r->file->path, &st);
		break;
	}
	return finish(r, ret);
}

static enum ioq_status filedelete_queue(struct ioengine *e, struct io_req *r)
{
	(void)e;
	return finish(r, is_operation(r) ? unlink(r->file->path) : 0);
}

static enum ioq_status dircreate_queue(struct ioengine *e, struct io_req *r)
{
	(void)e;
	return finish(r, is_operation(r) ? mkdir(r->file->path, 0700) : 0);
}

static enum ioq_status dirstat_queue(struct ioengine *e, struct io_req *r)
{
	struct stat st;

	(void)e;
	return finish(r, is_operation(r) ? stat(r->file->path, &st) : 0);
}

static enum ioq_status dirdelete_queue(struct ioengine *e, struct io_req *r)
{
	(void)e;
	return finish(r, is_operation(r) ? rmdir(r->file->path) : 0);
}

/* dirstat and dirdelete find their directories made before the I/O starts, as in fio. */
static int make_dirs(struct ioengine *e)
{
	for (unsigned i = 0; i < e->nfiles; i++)
		if (mkdir(e->files[i].path, 0700) < 0 && errno != EEXIST)
			return -errno;
	return 0;
}

#define META_FLAGS	(IOENG_SYNC | IOENG_NO_DATA | IOENG_NAMES)
#define META_CHANGES	(META_FLAGS | IOENG_MODIFIES)

const struct ioengine_ops filecreate_engine = {
	.name	= "filecreate",
	.flags	= META_CHANGES | IOENG_MAKES_FILES,
	.help	= "times the creation of each file (open with O_CREAT), moving no data",
	.queue	= filecreate_queue,
};

const struct ioengine_ops filestat_engine = {
	.name		= "filestat",
	.flags		= META_FLAGS,
	.help		= "times a stat, lstat or statx of each file, moving no data",
	.options	= filestat_options,
	.options_size	= sizeof(struct filestat_opts),
	.queue		= filestat_queue,
};

const struct ioengine_ops filedelete_engine = {
	.name	= "filedelete",
	.flags	= META_CHANGES | IOENG_DELETES,
	.help	= "times the removal (unlink) of each file, laid out first as for reading",
	.queue	= filedelete_queue,
};

const struct ioengine_ops dircreate_engine = {
	.name	= "dircreate",
	.flags	= META_CHANGES | IOENG_MAKES_FILES,
	.help	= "times the creation of a directory (mkdir) under each file's name",
	.queue	= dircreate_queue,
};

const struct ioengine_ops dirstat_engine = {
	.name	= "dirstat",
	.flags	= META_CHANGES | IOENG_MAKES_FILES,
	.help	= "times a stat of each directory, made first where missing",
	.init	= make_dirs,
	.queue	= dirstat_queue,
};

const struct ioengine_ops dirdelete_engine = {
	.name	= "dirdelete",
	.flags	= META_CHANGES | IOENG_MAKES_FILES | IOENG_DELETES,
	.help	= "times the removal (rmdir) of each directory, made first where missing",
	.init	= make_dirs,
	.queue	= dirdelete_queue,
};
