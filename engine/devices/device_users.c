/*
 * Who uses a block device or a file: mounts, swap and holders (engine/devices/blockdev.c), the
 * kernel's exclusive hold, and loop devices stacked on it, followed through sysfs.
 */
#include "engine/devices/device_users.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/grow.h"
#include "base/sysfs.h"
#include "engine/devices/blockdev.h"

/* Loop over loop over ... deeper than this is refused rather than followed. */
#define LOOP_DEPTH_MAX	8

/* Add /sys/block/name when it is a loop device with a backing file that still exists. */
static int add_loop(struct device_users *u, const char *name, size_t *cap)
{
	char path[PATH_MAX], back[PATH_MAX];
	struct loop_backing *b;
	struct stat st;
	dev_t dev;

	if (sysfs_path(path, sizeof(path), SYSFS_REAL, "block/%s/loop/backing_file", name) < 0 ||
	    sysfs_read(AT_FDCWD, path, back, sizeof(back)) < 0)
		return 0;	/* not a loop device, or one with nothing attached */
	/* a deleted or unreachable backing file is no file a job can name */
	if (sysfs_path(path, sizeof(path), SYSFS_REAL, "block/%s/dev", name) < 0 ||
	    sysfs_read_devno(AT_FDCWD, path, &dev) < 0 || stat(back, &st) < 0)
		return 0;
	if (grow_reserve(&u->loops, cap, (size_t)u->nloops + 1, sizeof(*u->loops)) < 0)
		return -ENOMEM;
	b = &u->loops[u->nloops++];
	b->loop = dev;
	snprintf(b->name, sizeof(b->name), "%.*s", (int)sizeof(b->name) - 1, name);
	b->st_dev = st.st_dev;
	b->st_ino = st.st_ino;
	b->st_rdev = S_ISBLK(st.st_mode) ? st.st_rdev : 0;
	return 0;
}

static int load_loops(struct device_users *u)
{
	char path[PATH_MAX];
	size_t cap = 0;
	struct dirent *e;
	int ret;
	DIR *d;

	if (u->loaded)
		return 0;
	ret = sysfs_path(path, sizeof(path), SYSFS_REAL, "block");
	if (ret < 0)
		return ret;
	d = opendir(path);
	if (!d)
		return -errno;
	while (!ret && (e = readdir(d)))
		if (!strncmp(e->d_name, "loop", 4))
			ret = add_loop(u, e->d_name, &cap);
	closedir(d);
	u->loaded = !ret;
	return ret;
}

/* The whole disk that dev is a partition of, or dev itself. */
static dev_t disk_of(dev_t dev)
{
	char path[PATH_MAX];
	dev_t disk;

	if (sysfs_path(path, sizeof(path), SYSFS_REAL, "dev/block/%u:%u/partition", major(dev),
		       minor(dev)) < 0 || access(path, F_OK) < 0)
		return dev;
	if (sysfs_path(path, sizeof(path), SYSFS_REAL, "dev/block/%u:%u/../dev", major(dev),
		       minor(dev)) < 0)
		return dev;
	return sysfs_read_devno(AT_FDCWD, path, &disk) < 0 ? dev : disk;
}

/* Writing a overwrites b's data when they are one device, or one is the other's disk. */
static bool overlap(dev_t a, dev_t b)
{
	dev_t da = disk_of(a), db = disk_of(b);

	return a == b || (da == db && (a == da || b == db));
}

static int dev_used(struct device_users *u, dev_t dev, const char *node, int depth,
		    char *why, size_t len);

/* A loop device over what matches, used in turn: 1 with why, 0, or -errno. */
static int loops_used(struct device_users *u, const struct stat *st, int depth, char *why,
		      size_t len)
{
	char sub[1024], node[64];
	int ret = 0;

	for (unsigned i = 0; !ret && i < u->nloops; i++) {
		const struct loop_backing *b = &u->loops[i];
		bool over = S_ISBLK(st->st_mode) ?
			    b->st_rdev && overlap(b->st_rdev, st->st_rdev) :
			    b->st_dev == st->st_dev && b->st_ino == st->st_ino;

		if (!over)
			continue;
		if (depth >= LOOP_DEPTH_MAX)
			return -ELOOP;
		snprintf(node, sizeof(node), "/dev/%s", b->name);
		ret = dev_used(u, b->loop, node, depth + 1, sub, sizeof(sub));
		if (ret > 0)
			snprintf(why, len, "%s is a loop device over it, and %s", b->name, sub);
	}
	return ret;
}

/*
 * An exclusive open fails with EBUSY while the device is held in a way the checks of mounts
 * and holders cannot see: by the kernel (mounted in another mount namespace) or by a
 * program that opened it O_EXCL (mkfs, another iojob run).
 */
static int held_exclusively(const char *node)
{
	int fd = open(node, O_RDONLY | O_EXCL | O_CLOEXEC);

	if (fd >= 0)
		close(fd);
	return fd < 0 && errno == EBUSY;
}

static int dev_used(struct device_users *u, dev_t dev, const char *node, int depth,
		    char *why, size_t len)
{
	struct stat st = { .st_mode = S_IFBLK, .st_rdev = dev };
	char where[512];
	int ret;

	ret = blockdev_in_use(dev, where, sizeof(where));
	if (ret > 0) {
		snprintf(why, len, "%s is mounted or in use as swap", where);
		return 1;
	}
	if (ret == 0)
		ret = blockdev_held(dev, where, sizeof(where));
	if (ret > 0) {
		snprintf(why, len, "%s: md, dm or LVM is built on it", where);
		return 1;
	}
	if (ret == 0 && held_exclusively(node)) {
		snprintf(why, len, "%s is open exclusively (O_EXCL) by another program or held "
			 "by the kernel: a file system, swap, md, dm or LVM", node);
		return 1;
	}
	return ret < 0 ? ret : loops_used(u, &st, depth, why, len);
}

bool dev_set_has(const struct dev_set *s, dev_t dev)
{
	for (unsigned i = 0; i < s->n; i++)
		if (s->v[i] == dev)
			return true;
	return false;
}

void dev_set_add(struct dev_set *s, dev_t dev)
{
	if (GROW_FOR(s->v, s->cap, s->n) < 0)
		return;
	s->v[s->n++] = dev;
}

int device_used(struct device_users *u, const struct stat *st, const char *path, char *why,
		size_t len)
{
	int ret;

	if (!S_ISBLK(st->st_mode) && !S_ISREG(st->st_mode))
		return 0;
	if (S_ISBLK(st->st_mode) && dev_set_has(&u->unused, st->st_rdev))
		return 0;
	ret = load_loops(u);
	if (ret < 0)
		return ret;
	if (S_ISBLK(st->st_mode)) {
		ret = dev_used(u, st->st_rdev, path, 0, why, len);
	} else {
		/* /proc/swaps is read once a run unless a swap file is in use */
		if (!u->loaded_swaps) {
			u->swap_files = blockdev_swap_files_exist();
			u->loaded_swaps = true;
		}
		ret = u->swap_files > 0 ? blockdev_swap_file(st->st_dev, st->st_ino) :
		      u->swap_files;
		if (ret > 0)
			snprintf(why, len, "it is a swap file in use (/proc/swaps)");
		if (ret == 0)
			ret = loops_used(u, st, 0, why, len);
	}
	if (ret == 0 && S_ISBLK(st->st_mode))
		dev_set_add(&u->unused, st->st_rdev);
	return ret;
}

void device_users_free(struct device_users *u)
{
	free(u->loops);
	free(u->unused.v);
	free(u->blank.v);
	memset(u, 0, sizeof(*u));
}
