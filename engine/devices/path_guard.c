/*
 * The guard of every path iojob writes, creates or deletes that is not a job's data: the
 * rules in path_guard.h, told from stat(2), statfs(2) and sysfs's loop devices.
 */
#include "engine/devices/path_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "engine/devices/blockdev.h"
#include "engine/devices/device_users.h"
#include "engine/devices/pseudo_fs.h"

/*
 * The character devices a report may go to: /dev/null, /dev/zero and /dev/full (mem
 * 1:3, 1:5, 1:7), and terminals (tty and console 4 and 5, ptys 136 to 143). Writing to
 * any other (/dev/mem, /dev/port, an NVMe or sg node, a watchdog) does what the device does.
 */
static bool harmless_chr(dev_t rdev)
{
	unsigned maj = major(rdev), min = minor(rdev);

	if (maj == 1)
		return min == 3 || min == 5 || min == 7;
	return maj == 4 || maj == 5 || (maj >= 136 && maj <= 143);
}

/*
 * hugetlbfs holds memory, not kernel interfaces: mem=mmaphuge maps a file there, as fio
 * does (a report or log written to it fails with EINVAL, and says so).
 */
static bool memory_fs(const char *fs)
{
	return !strcmp(fs, "hugetlbfs");
}

/* A regular file under a loop device or in use as swap: writing it writes what they show. */
static int file_in_use(const struct stat *st, char *why, size_t len)
{
	struct device_users u;
	char name[32];
	int ret;

	device_users_init(&u);
	ret = device_loop_over(&u, st, name, sizeof(name));
	device_users_free(&u);
	if (ret > 0) {
		snprintf(why, len, "is the backing file of loop device %s", name);
		return 1;
	}
	if (ret == 0 && blockdev_swap_files_exist() > 0)
		ret = blockdev_swap_file(st->st_dev, st->st_ino);
	if (ret > 0)
		snprintf(why, len, "is a swap file in use (/proc/swaps)");
	else if (ret < 0)
		snprintf(why, len, "cannot be told apart from a loop device's backing file or a "
			 "swap file (%s)", strerror(-ret));
	return ret;
}

/* A directory that is a mount point: rmdir would fail, and what is under it is another's. */
static bool mount_point(const char *path, const struct stat *st)
{
	char parent[PATH_MAX];
	struct stat up;

	if (snprintf(parent, sizeof(parent), "%s/..", path) >= (int)sizeof(parent))
		return false;
	return stat(parent, &up) == 0 && (up.st_dev != st->st_dev || up.st_ino == st->st_ino);
}

static int judge(const char *path, const struct stat *st, enum path_use use, char *why,
		 size_t len)
{
	const char *fs;

	if (S_ISBLK(st->st_mode)) {
		snprintf(why, len, "is a block device");
		return 1;
	}
	if (S_ISCHR(st->st_mode)) {
		if (use == PATH_WRITE && harmless_chr(st->st_rdev))
			return 0;
		snprintf(why, len, use == PATH_DELETE ? "is a device node" :
			 "is a character device");
		return 1;
	}
	if (S_ISFIFO(st->st_mode) || S_ISSOCK(st->st_mode))
		return 0;	/* a pipe to a reader: whoever reads it has it */
	fs = pseudo_fs_of(path);
	if (fs && !memory_fs(fs)) {
		snprintf(why, len, "is on %s, a pseudo file system", fs);
		return 1;
	}
	if (S_ISDIR(st->st_mode)) {
		if (use != PATH_DELETE || !mount_point(path, st))
			return 0;
		snprintf(why, len, "is a mount point");
		return 1;
	}
	return S_ISREG(st->st_mode) ? file_in_use(st, why, len) : 0;
}

int path_guard(const char *path, enum path_use use, char *why, size_t len)
{
	struct stat st;
	const char *fs;

	/* a link is deleted itself, and written through to what it leads to */
	if ((use == PATH_DELETE ? lstat(path, &st) : stat(path, &st)) == 0) {
		if (use == PATH_DELETE && S_ISLNK(st.st_mode))
			return 0;
		return judge(path, &st, use, why, len);
	}
	if (errno != ENOENT)
		return 0;	/* EACCES, ENOTDIR, ELOOP: the open or unlink says so */
	if (use == PATH_DELETE)
		return 0;
	fs = pseudo_fs_of(path);	/* where it would be created, links followed */
	if (fs && !memory_fs(fs)) {
		snprintf(why, len, "would be created on %s, a pseudo file system", fs);
		return 1;
	}
	return 0;
}

int path_open(const char *path, int flags, mode_t mode, char *why, size_t len)
{
	char reason[512];
	struct stat st;
	int fd, ret;

	ret = path_guard(path, PATH_WRITE, reason, sizeof(reason));
	if (ret) {
		snprintf(why, len, "refusing to write to it: it %s", reason);
		return ret > 0 ? -EPERM : ret;
	}
	fd = open(path, flags | O_CLOEXEC, mode);
	if (fd < 0) {
		ret = -errno;
		snprintf(why, len, "%s", strerror(-ret));
		return ret;
	}
	/* swapped for a device between the look and the open: nothing was written yet */
	if (fstat(fd, &st) == 0 && (S_ISBLK(st.st_mode) ||
				    (S_ISCHR(st.st_mode) && !harmless_chr(st.st_rdev)))) {
		close(fd);
		snprintf(why, len, "refusing to write to it: it is a %s device",
			 S_ISBLK(st.st_mode) ? "block" : "character");
		return -EPERM;
	}
	return fd;
}

FILE *path_fopen(const char *path, const char *mode, char *why, size_t len)
{
	int flags = mode[0] == 'a' ? O_WRONLY | O_CREAT | O_APPEND :
		    mode[0] == 'w' ? O_WRONLY | O_CREAT | O_TRUNC : O_RDONLY;
	FILE *f;
	int fd;

	if (strchr(mode, '+'))
		flags = (flags & ~O_WRONLY) | O_RDWR;
	fd = path_open(path, flags, 0666, why, len);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	f = fdopen(fd, mode);
	if (!f) {
		snprintf(why, len, "%s", strerror(errno));
		close(fd);
	}
	return f;
}
