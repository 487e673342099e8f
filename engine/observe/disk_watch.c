/*
 * The disks under a run's files: map a job's files to their whole disks under sysfs (md/dm
 * members included; a loop device alone, as in fio) and read the disks' counters at the
 * start and the end of the timed phase.
 */
#include "engine/observe/disk_watch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "base/grow.h"
#include "base/sysfs.h"
#include "base/units.h"

#define DISK_NAME_LEN	sizeof(((struct disk *)0)->name)
#define STAT_MIN_FIELDS	11	/* every kernel since 2.6 */
#define STAT_MAX_FIELDS	17	/* Linux 5.5+: discard and flush fields too */

/*
 * Name of the whole disk that holds device maj:min, from the dev/block link: a
 * partition's sysfs directory (it has a "partition" file) sits inside its disk's one.
 */
static int disk_of_dev(unsigned maj, unsigned min, char *name)
{
	char path[PATH_MAX], link[PATH_MAX];
	const char *base;
	char *slash;
	int ret;

	ret = sysfs_dev_link(SYSFS_REPORTS, maj, min, link, sizeof(link));
	if (ret < 0)
		return ret;
	ret = sysfs_path(path, sizeof(path), SYSFS_REPORTS, "dev/block/%u:%u/partition", maj,
			 min);
	if (ret < 0)
		return ret;
	if (access(path, F_OK) == 0) {
		slash = strrchr(link, '/');
		if (!slash)
			return -ENOENT;
		*slash = '\0';
	}
	slash = strrchr(link, '/');
	base = slash ? slash + 1 : link;
	if (!*base)
		return -ENOENT;
	if (strlen(base) >= DISK_NAME_LEN)
		return -ENAMETOOLONG;
	strcpy(name, base);
	return 0;
}

/* A disk in sysfs: made-up entries are named after files, which may look like disks. */
static int find_disk(const struct disk_set *s, const char *name)
{
	unsigned i;

	for (i = 0; i < s->n; i++)
		if (!s->disks[i].made_up && !strcmp(s->disks[i].name, name))
			return (int)i;
	return -1;
}

/* A made-up entry under master (-1: at the top). */
static int find_made_up(const struct disk_set *s, const char *name, int master)
{
	for (unsigned i = 0; i < s->n; i++)
		if (s->disks[i].made_up && s->disks[i].master == master &&
		    !strcmp(s->disks[i].name, name))
			return (int)i;
	return -1;
}

/* Append an entry and return its index, or -ENOMEM. */
static int append_disk(struct disk_set *s, const char *name, int master)
{
	struct disk *d;

	if (GROW_FOR(s->disks, s->cap, s->n) < 0)
		return -ENOMEM;
	d = &s->disks[s->n];
	memset(d, 0, sizeof(*d));
	strcpy(d->name, name);
	d->master = master;
	return (int)s->n++;
}

/* Drop entry i, which no other entry points to, and renumber the masters after it. */
static void remove_disk(struct disk_set *s, unsigned i)
{
	unsigned j;

	memmove(&s->disks[i], &s->disks[i + 1], (s->n - i - 1) * sizeof(s->disks[0]));
	s->n--;
	for (j = i; j < s->n; j++)
		if (s->disks[j].master > (int)i)
			s->disks[j].master--;
}

/*
 * Add the whole disk of device maj:min as a member of master m, which is the last
 * top-level entry, so every entry after it is one of its members. A disk already listed
 * on its own moves under the master; one that belongs to another stacked device is listed
 * twice. Returns the master's index, which the move may have lowered, or -errno.
 */
static int add_member(struct disk_set *s, int m, unsigned maj, unsigned min)
{
	char name[DISK_NAME_LEN];
	int ret, j;

	ret = disk_of_dev(maj, min, name);
	if (ret < 0)
		return ret;
	j = find_disk(s, name);
	if (j > m)	/* two partitions of one disk are one member */
		return m;
	if (j >= 0 && s->disks[j].master < 0 && !s->disks[j].nslaves) {
		remove_disk(s, (unsigned)j);
		m--;
	}
	ret = append_disk(s, name, m);
	if (ret < 0)
		return ret;
	s->disks[m].nslaves++;
	return m;
}

/* The member behind slave link dir/entry, whose "dev" file says maj:min. */
static int add_slave(struct disk_set *s, int m, const char *dir, const char *entry)
{
	char path[PATH_MAX];
	dev_t dev;
	int ret;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s/dev", dir, entry) >= sizeof(path))
		return -ENAMETOOLONG;
	ret = sysfs_read_devno(AT_FDCWD, path, &dev);
	if (ret < 0)
		return ret;
	return add_member(s, m, major(dev), minor(dev));
}

/* md and dm devices list their members in block/<dev>/slaves; others have none. */
static int add_slaves(struct disk_set *s, int m)
{
	char dir[PATH_MAX];
	struct dirent *e;
	DIR *d;
	int ret;

	ret = sysfs_path(dir, sizeof(dir), SYSFS_REPORTS, "block/%s/slaves",
			 s->disks[m].name);
	if (ret < 0)
		return ret;
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? m : -errno;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		ret = add_slave(s, m, dir, e->d_name);
		/* a member that vanished while we looked has nothing to report */
		if (ret == -ENOENT)
			ret = m;
		if (ret < 0)
			break;
		m = ret;
	}
	closedir(d);
	return ret < 0 ? ret : m;
}

int diskset_add_dev(struct disk_set *s, unsigned maj, unsigned min)
{
	char name[DISK_NAME_LEN];
	int ret;

	ret = disk_of_dev(maj, min, name);
	if (ret < 0)
		return ret;
	if (find_disk(s, name) >= 0)
		return 0;
	ret = append_disk(s, name, -1);
	if (ret < 0)
		return ret;
	/*
	 * A loop device stands alone, as in fio: the disk under its backing file is not
	 * followed (that disk's own counters mix in everything else on it).
	 */
	ret = add_slaves(s, ret);
	return ret < 0 ? ret : 0;
}

int diskset_add_path(struct disk_set *s, const char *path)
{
	struct stat st;
	dev_t dev;

	if (stat(path, &st) < 0)
		return -errno;
	dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	/* major 0: an anonymous device (tmpfs, overlay, proc), no disk behind it */
	if (!major(dev))
		return -ENOENT;
	return diskset_add_dev(s, major(dev), minor(dev));
}

/* A made-up member's entry name: its path, or the path's tail when that is too long. */
static void member_name(const char *path, char *name)
{
	size_t len = strlen(path);

	if (len < DISK_NAME_LEN)
		strcpy(name, path);
	else
		snprintf(name, DISK_NAME_LEN, "...%s", path + len - (DISK_NAME_LEN - 4));
}

/* A member that is no block device: an entry of its own, counted by the engine. */
static int add_made_up_member(struct disk_set *s, int m, const char *path)
{
	char name[DISK_NAME_LEN];
	int ret;

	member_name(path, name);
	ret = append_disk(s, name, m);
	if (ret < 0)
		return ret;
	s->disks[ret].made_up = true;
	s->disks[m].nslaves++;
	return m;
}

int diskset_add_made_up(struct disk_set *s, const char *name, const char *const *paths,
			unsigned n)
{
	int m, ret;

	if (strlen(name) >= DISK_NAME_LEN)
		return -ENAMETOOLONG;
	m = append_disk(s, name, -1);
	if (m < 0)
		return m;
	s->disks[m].made_up = true;
	for (unsigned i = 0; i < n; i++) {
		struct stat st;

		if (stat(paths[i], &st) < 0)
			return -errno;
		if (S_ISBLK(st.st_mode))
			ret = add_member(s, m, major(st.st_rdev), minor(st.st_rdev));
		else
			ret = add_made_up_member(s, m, paths[i]);
		if (ret == -ENOENT)
			continue;
		if (ret < 0)
			return ret;
		m = ret;
	}
	return 0;
}

struct disk_counters *diskset_made_up_counters(struct disk_set *s, const char *name,
					       const char *member)
{
	char mname[DISK_NAME_LEN];
	int i = find_made_up(s, name, -1);

	if (i >= 0 && member) {
		member_name(member, mname);
		i = find_made_up(s, mname, i);
	}
	return i >= 0 ? &s->disks[i].end : NULL;
}

/*
 * Parse block/<name>/stat: reads (ios, merges, sectors, ticks), the same for writes,
 * in_flight, io_ticks, time_in_queue, then on newer kernels the same four for discards
 * and flush ios and ticks.
 */
static int read_counters(const char *name, struct disk_counters *c)
{
	char path[PATH_MAX], buf[512], *p, *end;
	uint64_t v[STAT_MAX_FIELDS] = { 0 };
	unsigned i;
	int ret;

	ret = sysfs_path(path, sizeof(path), SYSFS_REPORTS, "block/%s/stat", name);
	if (ret < 0)
		return ret;
	ret = sysfs_read(AT_FDCWD, path, buf, sizeof(buf));
	if (ret < 0)
		return ret;
	p = buf;
	for (i = 0; i < STAT_MAX_FIELDS; i++) {
		errno = 0;
		v[i] = strtoull(p, &end, 10);
		if (end == p || errno)
			break;
		p = end;
	}
	if (i < STAT_MIN_FIELDS)
		return -EINVAL;
	for (i = 0; i < 2; i++) {
		c->ios[i] = v[4 * i];
		c->merges[i] = v[4 * i + 1];
		c->sectors[i] = v[4 * i + 2];
		c->ticks[i] = v[4 * i + 3];
	}
	c->in_flight = v[8];
	c->io_ticks = v[9];
	c->in_queue = v[10];
	c->discard_ios = v[11];
	c->discard_merges = v[12];
	c->discard_sectors = v[13];
	c->discard_ticks = v[14];
	c->flush_ios = v[15];
	c->flush_ticks = v[16];
	return 0;
}

/* Read every disk; a disk that cannot be read gets zeros, and the first error is returned. */
static int snapshot(struct disk_set *s, int at_end)
{
	struct disk_counters *c;
	int ret = 0, err;
	unsigned i;

	for (i = 0; i < s->n; i++) {
		if (s->disks[i].made_up)
			continue;
		c = at_end ? &s->disks[i].end : &s->disks[i].start;
		err = read_counters(s->disks[i].name, c);
		if (err < 0) {
			memset(c, 0, sizeof(*c));
			if (!ret)
				ret = err;
		}
	}
	if (at_end)
		s->end_ns = clock_mono_ns();
	else
		s->start_ns = clock_mono_ns();
	return ret;
}

int diskset_snapshot_start(struct disk_set *s)
{
	return snapshot(s, 0);
}

int diskset_snapshot_end(struct disk_set *s)
{
	return snapshot(s, 1);
}

void diskset_set_window(struct disk_set *s, uint64_t start_ns, uint64_t end_ns)
{
	s->window_ns = end_ns > start_ns ? end_ns - start_ns : 0;
}

void diskset_free(struct disk_set *s)
{
	free(s->disks);
	memset(s, 0, sizeof(*s));
}
