/*
 * Room for a job's files, checked before the first byte is laid out or written: a file
 * system that cannot hold them is found before the run, not half-way through it with a
 * partial file left behind (fio finds it mid-run, at the write that fails with ENOSPC).
 */
#include "engine/plan/files.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "base/diag.h"
#include "base/units.h"

/* At most this many file systems under one job's files are told apart. */
#define SPACE_MAX_FS	16

struct fs_room {
	unsigned long fsid;
	uint64_t avail;		/* bytes an unprivileged writer may still claim */
	uint64_t need;
	const char *first;	/* the first file of the job on it, for the message */
};

/* The file system that holds path, or would: statvfs() of its nearest existing ancestor. */
static int room_of(const char *path, struct statvfs *sv)
{
	char dir[PATH_MAX];
	char *slash;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	while (statvfs(dir, sv) < 0) {
		if (errno != ENOENT)
			return -errno;
		slash = strrchr(dir, '/');
		if (!slash)
			return statvfs(".", sv) < 0 ? -errno : 0;
		if (slash == dir)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	return 0;
}

/* What file f still needs: the bytes up to want_size past its present end. */
static uint64_t need_of(const struct io_file *f)
{
	struct stat st;

	if (stat(f->path, &st) < 0)
		return f->want_size;
	return (uint64_t)st.st_size < f->want_size ? f->want_size - (uint64_t)st.st_size : 0;
}

/* Add f's need to its file system's entry in rooms (n of them so far). */
static int add_need(struct fs_room *rooms, unsigned *n, const struct io_file *f)
{
	struct statvfs sv;
	uint64_t need = need_of(f);
	unsigned i;
	int ret;

	if (!need)
		return 0;
	ret = room_of(f->path, &sv);
	if (ret < 0)
		return ret;
	for (i = 0; i < *n && rooms[i].fsid != sv.f_fsid; i++)
		;
	if (i == *n) {
		if (*n == SPACE_MAX_FS)
			return 0;	/* beyond what one job's files span: left to the writes */
		rooms[(*n)++] = (struct fs_room){ .fsid = sv.f_fsid, .first = f->path,
						  .avail = (uint64_t)sv.f_bavail * sv.f_frsize };
	}
	rooms[i].need += need;
	return 0;
}

/* bytes as "7.9 MiB" or "12.0 GiB": enough to compare the two figures of the message */
static void size_text(uint64_t bytes, char *buf, size_t len)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)bytes / 1024;
	unsigned u = 0;

	while (v >= 1024 && u + 1 < ARRAY_SIZE(unit)) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%.1f %s", v, unit[u]);
}

/*
 * Whether the job goes on past a write that fails with ENOSPC: continue_on_error covers
 * writes and ignore_error lists ENOSPC for them (xfstests' generic/299 and 300 run four
 * jobs of 3 GiB sparse files each on a 3 GiB file system so, beside a fallocate loop).
 */
static bool expects_enospc(const struct job_desc *j)
{
	return (j->continue_on_error & ERRC_WRITE) &&
	       job_ignores_error(j, ERR_TYPE_WRITE, ENOSPC);
}

/* Whether the job claims blocks for its files: it lays them out or writes them. */
static bool claims_space(const struct job_desc *j)
{
	if (j->fill_device || expects_enospc(j))
		return false;	/* filling the file system, or past it, is what it asks */
	return rw_does(j->rw, IO_READ) || rw_does(j->rw, IO_WRITE);
}

int files_check_space(const struct job_desc *j, const struct io_file *f, unsigned n,
		      struct diag *d)
{
	struct fs_room rooms[SPACE_MAX_FS];
	unsigned nrooms = 0;
	char need[32], avail[32];

	if (!claims_space(j))
		return 0;
	for (unsigned i = 0; i < n; i++) {
		if (f[i].is_bdev || f[i].is_chr || (f[i].shared && j->jobnum))
			continue;	/* a device has its size; a clone's shared file counts once */
		if (add_need(rooms, &nrooms, &f[i]) < 0)
			return 0;	/* no answer: the writes will tell */
	}
	for (unsigned i = 0; i < nrooms; i++) {
		if (rooms[i].need <= rooms[i].avail)
			continue;
		size_text(rooms[i].need, need, sizeof(need));
		size_text(rooms[i].avail, avail, sizeof(avail));
		return diag_at(d, -ENOSPC, j->file, j->line, "job '%s': its files need %s more on "
			       "the file system of '%s', which has %s free: nothing was written "
			       "(fill_device=1 writes until it is full)", j->name, need,
			       rooms[i].first, avail);
	}
	return 0;
}
