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

/* A number from /sys/block/name/<what> (loop/offset, size in sectors), or 0. */
static uint64_t sysfs_number(const char *name, const char *what)
{
	char path[PATH_MAX], text[32];

	if (sysfs_path(path, sizeof(path), SYSFS_REAL, "block/%s/%s", name, what) < 0 ||
	    sysfs_read(AT_FDCWD, path, text, sizeof(text)) < 0)
		return 0;
	return strtoull(text, NULL, 10);
}

/* Add /sys/block/name when it is a loop device with a backing file that still exists. */
static int add_loop(struct device_users *u, const char *name, size_t *cap)
{
	char path[PATH_MAX], back[PATH_MAX];
	struct loop_backing *b;
	struct stat st;
	uint64_t limit;
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
	b->off = sysfs_number(name, "loop/offset");
	/* the device's size is what the sizelimit or the file's end leave past the offset */
	limit = sysfs_number(name, "size");
	b->len = limit ? limit << 9 : UINT64_MAX - b->off;
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
		    bool down, char *why, size_t len);

/* Whether the loop device b is over the file or device st (or a partition or disk of it). */
static bool is_over(const struct loop_backing *b, const struct stat *st)
{
	return S_ISBLK(st->st_mode) ? b->st_rdev && overlap(b->st_rdev, st->st_rdev) :
	       b->st_dev == st->st_dev && b->st_ino == st->st_ino;
}

/* A loop device over what matches, used in turn: 1 with why, 0, or -errno. */
static int loops_used(struct device_users *u, const struct stat *st, int depth, char *why,
		      size_t len)
{
	char sub[1024], node[64];
	int ret = 0;

	for (unsigned i = 0; !ret && i < u->nloops; i++) {
		const struct loop_backing *b = &u->loops[i];

		if (!is_over(b, st))
			continue;
		if (depth >= LOOP_DEPTH_MAX)
			return -ELOOP;
		snprintf(node, sizeof(node), "/dev/%s", b->name);
		ret = dev_used(u, b->loop, node, depth + 1, false, sub, sizeof(sub));
		if (ret > 0)
			snprintf(why, len, "%s is a loop device over it, and %s", b->name, sub);
	}
	return ret;
}

/* The loop device dev, when it is one with a backing file; else NULL. */
static const struct loop_backing *loop_of(const struct device_users *u, dev_t dev)
{
	for (unsigned i = 0; i < u->nloops; i++)
		if (u->loops[i].loop == dev)
			return &u->loops[i];
	return NULL;
}

/* Whether two loop devices show some of the same bytes of one backing file or device. */
static bool same_bytes(const struct loop_backing *a, const struct loop_backing *b)
{
	bool same = a->st_rdev || b->st_rdev ?
		    a->st_rdev && b->st_rdev && overlap(a->st_rdev, b->st_rdev) :
		    a->st_dev == b->st_dev && a->st_ino == b->st_ino;

	return same && a->off < b->off + b->len && b->off < a->off + a->len;
}

/*
 * Below the loop device b: the device it is over, in use; or another loop device over
 * the same bytes of its backing file, in use (a second loop device over a mounted one's
 * image, or one with an offset and a sizelimit over a mounted partition's bytes).
 */
static int backing_used(struct device_users *u, const struct loop_backing *b, int depth,
			char *why, size_t len)
{
	char sub[1024], node[64];
	int ret = 0;

	if (depth >= LOOP_DEPTH_MAX)
		return -ELOOP;
	if (b->st_rdev) {
		snprintf(node, sizeof(node), "/dev/block/%u:%u", major(b->st_rdev),
			 minor(b->st_rdev));
		ret = dev_used(u, b->st_rdev, node, depth + 1, true, sub, sizeof(sub));
		if (ret > 0)
			snprintf(why, len, "%s is a loop device over %s, and %s", b->name, node,
				 sub);
	}
	for (unsigned i = 0; !ret && i < u->nloops; i++) {
		const struct loop_backing *o = &u->loops[i];

		if (o == b || !same_bytes(b, o))
			continue;
		snprintf(node, sizeof(node), "/dev/%s", o->name);
		ret = dev_used(u, o->loop, node, depth + 1, false, sub, sizeof(sub));
		if (ret > 0)
			snprintf(why, len, "%s shows the same bytes of its backing file as %s, and "
				 "%s", b->name, o->name, sub);
	}
	return ret;
}

/* Whether this run holds dev with O_EXCL (device_claim()). */
static bool claimed(const struct device_users *u, dev_t dev)
{
	for (unsigned i = 0; i < u->nclaims; i++)
		if (u->claims[i].dev == dev)
			return true;
	return false;
}

static void held_why(const char *node, char *why, size_t len)
{
	snprintf(why, len, "%s is open exclusively (O_EXCL) by another program or held by the "
		 "kernel: a file system, swap, md, dm or LVM", node);
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

/*
 * Whether dev is used: itself, what is built on it (loop devices over it, to any depth)
 * and, going down, what it is built on (a loop device's backing file or device).
 */
static int dev_used(struct device_users *u, dev_t dev, const char *node, int depth,
		    bool down, char *why, size_t len)
{
	const struct loop_backing *b;
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
	/* a device this run claimed is held exclusively by that claim */
	if (ret == 0 && !claimed(u, dev) && held_exclusively(node)) {
		held_why(node, why, len);
		return 1;
	}
	if (ret == 0)
		ret = loops_used(u, &st, depth, why, len);
	if (ret == 0 && down && (b = loop_of(u, dev)))
		ret = backing_used(u, b, depth, why, len);
	return ret;
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
		ret = dev_used(u, st->st_rdev, path, 0, true, why, len);
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

int device_loop_over(struct device_users *u, const struct stat *st, char *name, size_t len)
{
	int ret = load_loops(u);

	for (unsigned i = 0; !ret && i < u->nloops; i++) {
		const struct loop_backing *b = &u->loops[i];

		if (is_over(b, st)) {
			snprintf(name, len, "%s", b->name);
			return 1;
		}
	}
	return ret;
}

void device_users_init(struct device_users *u)
{
	memset(u, 0, sizeof(*u));
	pthread_mutex_init(&u->lock, NULL);
}

/* Forget the loop devices and the devices found unused: the next check reads sysfs anew. */
static void forget(struct device_users *u)
{
	free(u->loops);
	u->loops = NULL;
	u->nloops = 0;
	u->loaded = false;
	u->unused.n = 0;
}

static int claim_locked(struct device_users *u, const char *path, char *why, size_t len)
{
	struct stat st;
	int fd, ret;

	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	if (claimed(u, st.st_rdev))
		return 0;	/* another job of the run claimed it: our O_EXCL would fail */
	if (GROW_FOR(u->claims, u->claims_cap, u->nclaims) < 0)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0 && errno == EBUSY) {
		held_why(path, why, len);
		return 1;
	}
	if (fd < 0)
		return -errno;
	u->claims[u->nclaims++] = (struct dev_claim){ st.st_rdev, fd };
	forget(u);
	ret = load_loops(u);
	if (ret == 0)
		ret = dev_used(u, st.st_rdev, path, 0, true, why, len);
	if (ret != 0)
		close(u->claims[--u->nclaims].fd);	/* refused: hold nothing for it */
	return ret;
}

int device_claim(struct device_users *u, const char *path, char *why, size_t len)
{
	int ret;

	pthread_mutex_lock(&u->lock);
	ret = claim_locked(u, path, why, len);
	pthread_mutex_unlock(&u->lock);
	return ret;
}

void device_users_free(struct device_users *u)
{
	for (unsigned i = 0; i < u->nclaims; i++)
		close(u->claims[i].fd);
	free(u->claims);
	pthread_mutex_destroy(&u->lock);
	free(u->loops);
	free(u->unused.v);
	free(u->blank.v);
	memset(u, 0, sizeof(*u));
}
