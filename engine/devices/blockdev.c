/*
 * Block devices: size and logical block size ioctls, buffer cache flush, and the checks
 * that a device (or a partition of it, or its disk) is not mounted, used as swap or held by
 * another device.
 */
#include "engine/devices/blockdev.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fs.h>

#include "base/grow.h"
#include "base/sysfs.h"

/* A device whose use makes the checked one unsafe to write. */
struct bdev_ref {
	dev_t dev;
	char name[64];
};

struct bdev_list {
	struct bdev_ref *v;
	unsigned n;
	size_t cap;
};

int blockdev_size(int fd, uint64_t *bytes)
{
	uint64_t v;

	if (ioctl(fd, BLKGETSIZE64, &v) < 0)
		return -errno;
	*bytes = v;
	return 0;
}

int blockdev_logical_block_size(int fd, unsigned *bytes)
{
	int v;

	if (ioctl(fd, BLKSSZGET, &v) < 0)
		return -errno;
	if (v <= 0)
		return -EINVAL;
	*bytes = (unsigned)v;
	return 0;
}

int blockdev_flush(int fd)
{
	if (ioctl(fd, BLKFLSBUF, 0) < 0)
		return -errno;
	return 0;
}

static int list_add(struct bdev_list *l, dev_t dev, const char *name)
{
	struct bdev_ref *v;
	size_t n;

	if (GROW_FOR(l->v, l->cap, l->n) < 0)
		return -ENOMEM;
	/* kernel device names are short; a longer one is only cut in the message */
	n = strnlen(name, sizeof(v->name) - 1);
	v = &l->v[l->n++];
	v->dev = dev;
	memcpy(v->name, name, n);
	v->name[n] = '\0';
	return 0;
}

static const struct bdev_ref *list_find(const struct bdev_list *l, dev_t dev)
{
	unsigned i;

	for (i = 0; i < l->n; i++)
		if (l->v[i].dev == dev)
			return &l->v[i];
	return NULL;
}

/* Add every partition of disk name: its sysfs subdirectories that have a "partition" file. */
static int add_partitions(struct bdev_list *l, const char *name)
{
	char path[PATH_MAX];
	struct dirent *e;
	dev_t dev;
	DIR *d;
	int ret = 0;

	ret = sysfs_path(path, sizeof(path), SYSFS_REAL, "class/block/%s", name);
	if (ret < 0)
		return ret;
	d = opendir(path);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/partition", e->d_name);
		if (faccessat(dirfd(d), path, F_OK, 0) < 0)
			continue;
		snprintf(path, sizeof(path), "%s/dev", e->d_name);
		if (sysfs_read_devno(dirfd(d), path, &dev) < 0)
			continue;	/* removed while we looked */
		ret = list_add(l, dev, e->d_name);
		if (ret < 0)
			break;
	}
	closedir(d);
	return ret;
}

/* Collect dev, then its partitions, or the disk it is a partition of. */
static int collect_related(dev_t dev, struct bdev_list *l)
{
	char path[PATH_MAX], link[PATH_MAX], *name, *slash;
	dev_t disk;
	int ret;

	ret = sysfs_dev_link(SYSFS_REAL, major(dev), minor(dev), link, sizeof(link));
	if (ret < 0)
		return ret;
	slash = strrchr(link, '/');
	if (!slash)
		return -EINVAL;
	*slash = '\0';
	name = slash + 1;
	ret = list_add(l, dev, name);
	if (ret < 0)
		return ret;
	ret = sysfs_path(path, sizeof(path), SYSFS_REAL, "dev/block/%u:%u/partition", major(dev),
			 minor(dev));
	if (ret < 0)
		return ret;
	if (access(path, F_OK) < 0)
		return add_partitions(l, name);
	/* a partition's sysfs directory sits inside its disk's one */
	slash = strrchr(link, '/');
	if (!slash)
		return -EINVAL;
	ret = sysfs_path(path, sizeof(path), SYSFS_REAL, "class/block/%s/dev", slash + 1);
	if (ret == 0)
		ret = sysfs_read_devno(AT_FDCWD, path, &disk);
	if (ret < 0)
		return ret;
	return list_add(l, disk, slash + 1);
}

/* Undo the octal escapes (\040 for a space) that /proc uses in paths, in place. */
static void unescape(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7'
		    && s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

/* The block device a path names, or 0 if it names none. */
static dev_t rdev_of(const char *path)
{
	struct stat st;

	if (path[0] != '/' || stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
		return 0;
	return st.st_rdev;
}

/*
 * The device behind one /proc/self/mountinfo line ("36 35 98:0 /mnt1 /mnt2 rw - ext3
 * /dev/root rw"), with its mount point in *mnt. File systems on several devices (btrfs)
 * show an anonymous 0:N there, so the source named after the " - " is tried as well.
 */
static dev_t mount_dev(char *line, char **mnt)
{
	char *save, *tok, *src = NULL;
	unsigned maj = 0, min = 0, i;

	*mnt = NULL;
	tok = strtok_r(line, " \n", &save);
	for (i = 1; tok; i++, tok = strtok_r(NULL, " \n", &save)) {
		if (i == 3 && sscanf(tok, "%u:%u", &maj, &min) != 2)
			return 0;
		if (i == 5)
			*mnt = tok;
		if (i > 6 && !strcmp(tok, "-")) {
			strtok_r(NULL, " \n", &save);	/* file system type */
			src = strtok_r(NULL, " \n", &save);
			break;
		}
	}
	if (!*mnt)
		return 0;
	unescape(*mnt);
	if (maj || !src)
		return makedev(maj, min);
	unescape(src);
	return rdev_of(src);
}

static int check_mounts(const struct bdev_list *l, char *where, size_t len)
{
	const struct bdev_ref *r;
	char *line = NULL, *mnt;
	size_t cap = 0;
	int found = 0;
	dev_t dev;
	FILE *f;

	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -errno;
	while (!found && getline(&line, &cap, f) > 0) {
		dev = mount_dev(line, &mnt);
		r = dev ? list_find(l, dev) : NULL;
		if (r) {
			if (len)
				snprintf(where, len, "%s on %s", r->name, mnt);
			found = 1;
		}
	}
	free(line);
	fclose(f);
	return found;
}

/*
 * /proc/swaps: a header line, then "Filename Type Size Used Priority" per swap area.
 * Calls match(name, ctx) on each area's path until it returns non-zero; returns that, 0
 * when none matched, or -errno.
 */
static int find_swap(int (*match)(const char *name, void *ctx), void *ctx)
{
	char *line = NULL, *name, *save;
	size_t cap = 0;
	int found = 0;
	FILE *f;

	f = fopen("/proc/swaps", "re");
	if (!f)
		return errno == ENOENT ? 0 : -errno;	/* kernel without swap support */
	if (getline(&line, &cap, f) < 0)
		goto out;
	while (!found && getline(&line, &cap, f) > 0) {
		name = strtok_r(line, " \t\n", &save);
		if (!name)
			continue;
		unescape(name);
		found = match(name, ctx);
	}
out:
	free(line);
	fclose(f);
	return found;
}

struct swap_dev {
	const struct bdev_list *l;
	char *where;
	size_t len;
};

static int swap_on_list(const char *name, void *ctx)
{
	struct swap_dev *s = ctx;
	dev_t dev = rdev_of(name);
	const struct bdev_ref *r = dev ? list_find(s->l, dev) : NULL;

	if (r && s->len)
		snprintf(s->where, s->len, "%s on [SWAP]", r->name);
	return r != NULL;
}

static int check_swaps(const struct bdev_list *l, char *where, size_t len)
{
	struct swap_dev s = { l, where, len };

	return find_swap(swap_on_list, &s);
}

static int swap_is_file(const char *name, void *ctx)
{
	const struct stat *want = ctx;
	struct stat st;

	return stat(name, &st) == 0 && S_ISREG(st.st_mode) && st.st_dev == want->st_dev &&
	       st.st_ino == want->st_ino;
}

static int swap_is_any_file(const char *name, void *ctx)
{
	struct stat st;

	(void)ctx;
	return stat(name, &st) == 0 && S_ISREG(st.st_mode);
}

int blockdev_swap_files_exist(void)
{
	return find_swap(swap_is_any_file, NULL);
}

int blockdev_swap_file(dev_t dev, ino_t ino)
{
	struct stat want = { .st_dev = dev, .st_ino = ino };

	return find_swap(swap_is_file, &want);
}

int blockdev_in_use(dev_t dev, char *where, size_t len)
{
	struct bdev_list l = { 0 };
	int ret;

	ret = collect_related(dev, &l);
	if (ret < 0)
		goto out;
	ret = check_mounts(&l, where, len);
	if (ret == 0)
		ret = check_swaps(&l, where, len);
out:
	free(l.v);
	return ret;
}

/* The first entry of /sys/class/block/NAME/holders into holder: 1, 0 when none, or -errno. */
static int first_holder(const char *name, char *holder, size_t len)
{
	char path[PATH_MAX];
	struct dirent *e;
	int ret = 0;
	DIR *d;

	ret = sysfs_path(path, sizeof(path), SYSFS_REAL, "class/block/%s/holders", name);
	if (ret < 0)
		return ret;
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(holder, len, "%s", e->d_name);
		ret = 1;
		break;
	}
	closedir(d);
	return ret;
}

int blockdev_held(dev_t dev, char *where, size_t len)
{
	struct bdev_list l = { 0 };
	char holder[NAME_MAX + 1];
	int ret;

	ret = collect_related(dev, &l);
	for (unsigned i = 0; ret == 0 && i < l.n; i++) {
		ret = first_holder(l.v[i].name, holder, sizeof(holder));
		if (ret > 0 && len)
			snprintf(where, len, "%s holds %s", holder, l.v[i].name);
	}
	free(l.v);
	return ret;
}
