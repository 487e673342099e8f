/*
 * Tests for output/diskstats: mapping paths to disks, md/dm members and /sys/block counters,
 * on loop devices over files in a temporary directory and on a fake sysfs in a private
 * mount namespace. Needs root and loop devices (else SKIP).
 */
#include "output/diskstats.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "loopdev.h"

#define NWRITES		16

static bool make_dir(void)
{
	return loopdev_make_dir(NULL, "iojob-diskstats");
}

/* A loop device in fx.loop over a fresh image, with one extra losetup option or none. */
static bool make_loop(const char *name, const char *opt)
{
	return loopdev_make_loop(name, opt, fx.loop, sizeof(fx.loop));
}

static const char *base(const char *path)
{
	return strrchr(path, '/') + 1;
}

/* A file of a few blocks inside the mounted file system. */
static void make_file_in_mnt(char *path, size_t len)
{
	int fd;

	snprintf(path, len, "%s/data", fx.mnt);
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	ck_assert_msg(fd >= 0, "create '%s': %s", path, strerror(errno));
	ck_assert_int_eq(write(fd, "iojob", 5), 5);
	close(fd);
}

/* --- mapping: a loop device with ext4 mounted ------------------------------------------- */

static void mounted_setup(void)
{
	if (make_dir() && make_loop("ext4", NULL))
		loopdev_mount_ext4(fx.loop);
}

START_TEST(file_maps_to_its_loop_device)
{
	struct disk_set s = { 0 };
	char path[PATH_MAX + 8];

	REQUIRE_FIXTURE();
	make_file_in_mnt(path, sizeof(path));
	ck_assert_int_eq(diskset_add_path(&s, path), 0);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_str_eq(s.disks[0].name, base(fx.loop));
	ck_assert_int_eq(s.disks[0].master, -1);
	ck_assert_uint_eq(s.disks[0].nslaves, 0);
	diskset_free(&s);
	ck_assert_ptr_null(s.disks);
	ck_assert_uint_eq(s.n, 0);
}
END_TEST

START_TEST(block_device_maps_to_itself)
{
	struct disk_set s = { 0 };

	REQUIRE_FIXTURE();
	ck_assert_int_eq(diskset_add_path(&s, fx.loop), 0);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_str_eq(s.disks[0].name, base(fx.loop));
	diskset_free(&s);
}
END_TEST

START_TEST(adding_a_disk_twice_is_a_noop)
{
	struct disk_set s = { 0 };
	char path[PATH_MAX + 8];

	REQUIRE_FIXTURE();
	make_file_in_mnt(path, sizeof(path));
	ck_assert_int_eq(diskset_add_path(&s, path), 0);
	ck_assert_int_eq(diskset_add_path(&s, fx.loop), 0);
	ck_assert_int_eq(diskset_add_path(&s, fx.mnt), 0);
	ck_assert_uint_eq(s.n, 1);
	diskset_free(&s);
}
END_TEST

/* --- no disk --------------------------------------------------------------------------- */

START_TEST(tmpfs_path_is_on_no_disk)
{
	struct disk_set s = { 0 };

	ck_assert_int_eq(diskset_add_path(&s, "/dev/shm"), -ENOENT);
	ck_assert_int_eq(diskset_add_path(&s, "/proc/self"), -ENOENT);
	ck_assert_uint_eq(s.n, 0);
	diskset_free(&s);
}
END_TEST

START_TEST(missing_path_is_enoent)
{
	struct disk_set s = { 0 };

	ck_assert_int_eq(diskset_add_path(&s, "/nonexistent/iojob"), -ENOENT);
	ck_assert_uint_eq(s.n, 0);
}
END_TEST

START_TEST(snapshots_of_an_empty_set_only_stamp_time)
{
	struct disk_set s = { 0 };

	ck_assert_int_eq(diskset_snapshot_start(&s), 0);
	ck_assert_int_eq(diskset_snapshot_end(&s), 0);
	ck_assert_uint_gt(s.start_ns, 0);
	ck_assert_uint_ge(s.end_ns, s.start_ns);
	diskset_free(&s);
}
END_TEST

/* --- counters: a bare loop device --------------------------------------------------------- */

static void bare_setup(void)
{
	if (make_dir())
		make_loop("bare", NULL);
}

START_TEST(direct_writes_move_write_counters)
{
	struct disk_set s = { 0 };
	const struct disk *d;
	void *buf;
	int fd, i;

	REQUIRE_FIXTURE();
	ck_assert_int_eq(posix_memalign(&buf, 4096, 4096), 0);
	memset(buf, 0xa5, 4096);
	fd = open(fx.loop, O_WRONLY | O_DIRECT | O_CLOEXEC);
	ck_assert_msg(fd >= 0, "open '%s': %s", fx.loop, strerror(errno));
	ck_assert_int_eq(diskset_add_path(&s, fx.loop), 0);
	ck_assert_int_eq(diskset_snapshot_start(&s), 0);
	for (i = 0; i < NWRITES; i++)
		ck_assert_int_eq(pwrite(fd, buf, 4096, (off_t)i * 4096), 4096);
	ck_assert_int_eq(diskset_snapshot_end(&s), 0);
	close(fd);
	free(buf);
	d = &s.disks[0];
	ck_assert_uint_ge(d->end.ios[1] - d->start.ios[1], NWRITES);
	ck_assert_uint_ge(d->end.sectors[1] - d->start.sectors[1], NWRITES * 4096 / 512);
	ck_assert_uint_eq(d->end.ios[0] - d->start.ios[0], 0);
	ck_assert_uint_gt(s.start_ns, 0);
	ck_assert_uint_gt(s.end_ns, s.start_ns);
	diskset_free(&s);
}
END_TEST

/* --- partitions of a real partitioned loop ------------------------------------------------ */

static void partitions_setup(void)
{
	char part[64];

	if (!make_dir() || !loopdev_make_partitioned_loop())
		return;
	snprintf(part, sizeof(part), "%sp1", fx.loop);
	loopdev_mount_ext4(part);
}

START_TEST(partition_maps_to_its_disk)
{
	struct disk_set s = { 0 };
	char part[64];

	REQUIRE_FIXTURE();
	snprintf(part, sizeof(part), "%sp2", fx.loop);
	ck_assert_int_eq(diskset_add_path(&s, part), 0);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_str_eq(s.disks[0].name, base(fx.loop));
	diskset_free(&s);
}
END_TEST

START_TEST(file_on_a_partition_maps_to_its_disk)
{
	struct disk_set s = { 0 };
	char path[PATH_MAX + 8];

	REQUIRE_FIXTURE();
	make_file_in_mnt(path, sizeof(path));
	ck_assert_int_eq(diskset_add_path(&s, path), 0);
	ck_assert_int_eq(diskset_add_path(&s, fx.loop), 0);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_str_eq(s.disks[0].name, base(fx.loop));
	ck_assert_int_eq(diskset_snapshot_start(&s), 0);
	diskset_free(&s);
}
END_TEST

/* --- device mapper: a linear target over a loop device ------------------------------------ */

/* The dm-N kernel name of the device-mapper device called name, from /sys/block/dm-N/dm/name. */
static bool find_dm_node(const char *name, char *node, size_t len)
{
	char path[PATH_MAX], buf[128];
	struct dirent *e;
	bool found = false;
	DIR *d;
	FILE *f;

	d = opendir("/sys/block");
	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		if (strncmp(e->d_name, "dm-", 3))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/dm/name", e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f)) {
			buf[strcspn(buf, "\n")] = '\0';
			found = !strcmp(buf, name);
		}
		if (found)
			snprintf(node, len, "/dev/%s", e->d_name);
		fclose(f);
	}
	closedir(d);
	return found;
}

static bool make_dm_linear(void)
{
	const char *create[] = { "dmsetup", "create", NULL, "--table", NULL, NULL };
	char name[64], table[128];

	snprintf(name, sizeof(name), "iojob-test-%d", (int)getpid());
	snprintf(table, sizeof(table), "0 %u linear %s 0", LOOPDEV_IMG_BYTES / 512, fx.loop);
	create[2] = name;
	create[4] = table;
	if (loopdev_run(create, NULL, NULL, 0, false) != 0) {
		loopdev_fail("dmsetup create '%s' failed", name);
		return false;
	}
	strcpy(fx.dm, name);
	if (!find_dm_node(name, fx.dm_dev, sizeof(fx.dm_dev))) {
		loopdev_fail("no /sys/block/dm-*/dm/name for '%s'", name);
		return false;
	}
	return true;
}

static void dm_setup(void)
{
	if (make_dir() && make_loop("dm", NULL))
		make_dm_linear();
}

START_TEST(dm_device_lists_its_slaves)
{
	struct disk_set s = { 0 };

	REQUIRE_FIXTURE();
	ck_assert_int_eq(diskset_add_path(&s, fx.dm_dev), 0);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_str_eq(s.disks[0].name, base(fx.dm_dev));
	ck_assert_int_eq(s.disks[0].master, -1);
	ck_assert_uint_eq(s.disks[0].nslaves, 1);
	ck_assert_str_eq(s.disks[1].name, base(fx.loop));
	ck_assert_int_eq(s.disks[1].master, 0);
	ck_assert_int_eq(diskset_add_path(&s, fx.loop), 0);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_int_eq(diskset_snapshot_start(&s), 0);
	diskset_free(&s);
}
END_TEST

START_TEST(disk_added_before_its_dm_moves_under_it)
{
	struct disk_set s = { 0 };

	REQUIRE_FIXTURE();
	ck_assert_int_eq(diskset_add_path(&s, fx.loop), 0);
	ck_assert_int_eq(diskset_add_path(&s, fx.dm_dev), 0);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_str_eq(s.disks[0].name, base(fx.dm_dev));
	ck_assert_uint_eq(s.disks[0].nslaves, 1);
	ck_assert_str_eq(s.disks[1].name, base(fx.loop));
	ck_assert_int_eq(s.disks[1].master, 0);
	diskset_free(&s);
}
END_TEST

/* --- md members and counters, on a fake sysfs ---------------------------------------------- */

struct fake_node {
	const char *path;	/* absolute, under /sys */
	const char *link;	/* symlink target, or NULL */
	const char *text;	/* file content, or NULL */
	unsigned blk_major;	/* with no link or text: a block device node if nonzero, */
	unsigned blk_minor;	/* else a directory */
};

#define FAKE_BLOCK	"/sys/devices/pci0/block"
#define FAKE_MD0	"/sys/devices/virtual/block/md0"

/*
 * md0 (9:0) over sda1 and sda2 (partitions of sda) and sdb; sdc stands alone. Block
 * device nodes for them live in /sys/nodes.
 */
static const struct fake_node md_tree[] = {
	{ FAKE_MD0 "/dev", NULL, "9:0\n", 0, 0 },
	{ FAKE_MD0 "/stat", NULL, "1 2 3 4 5 6 7 8 0 10 11 0 0 0 0 0 0\n", 0, 0 },
	{ FAKE_MD0 "/slaves/sda1", FAKE_BLOCK "/sda/sda1", NULL, 0, 0 },
	{ FAKE_MD0 "/slaves/sda2", FAKE_BLOCK "/sda/sda2", NULL, 0, 0 },
	{ FAKE_MD0 "/slaves/sdb", FAKE_BLOCK "/sdb", NULL, 0, 0 },
	{ FAKE_BLOCK "/sda/dev", NULL, "8:0\n", 0, 0 },
	{ FAKE_BLOCK "/sda/stat", NULL, "   21 22 23 24    25 26 27 28 0 30 31\n", 0, 0 },
	{ FAKE_BLOCK "/sda/sda1/dev", NULL, "8:1\n", 0, 0 },
	{ FAKE_BLOCK "/sda/sda1/partition", NULL, "1\n", 0, 0 },
	{ FAKE_BLOCK "/sda/sda2/dev", NULL, "8:2\n", 0, 0 },
	{ FAKE_BLOCK "/sda/sda2/partition", NULL, "2\n", 0, 0 },
	{ FAKE_BLOCK "/sdb/dev", NULL, "8:16\n", 0, 0 },
	{ FAKE_BLOCK "/sdb/stat", NULL, "41 42 43 44 45 46 47 48 0 50 51 0 0 0 0\n", 0, 0 },
	{ FAKE_BLOCK "/sdc/dev", NULL, "8:32\n", 0, 0 },
	{ FAKE_BLOCK "/sdc/stat", NULL, "not a stat line\n", 0, 0 },
	{ FAKE_BLOCK "/sdc/slaves", NULL, NULL, 0, 0 },
	{ "/sys/dev/block/9:0", FAKE_MD0, NULL, 0, 0 },
	{ "/sys/dev/block/8:0", FAKE_BLOCK "/sda", NULL, 0, 0 },
	{ "/sys/dev/block/8:1", FAKE_BLOCK "/sda/sda1", NULL, 0, 0 },
	{ "/sys/dev/block/8:2", FAKE_BLOCK "/sda/sda2", NULL, 0, 0 },
	{ "/sys/dev/block/8:16", FAKE_BLOCK "/sdb", NULL, 0, 0 },
	{ "/sys/dev/block/8:32", FAKE_BLOCK "/sdc", NULL, 0, 0 },
	{ "/sys/block/md0", FAKE_MD0, NULL, 0, 0 },
	{ "/sys/block/sda", FAKE_BLOCK "/sda", NULL, 0, 0 },
	{ "/sys/block/sdb", FAKE_BLOCK "/sdb", NULL, 0, 0 },
	{ "/sys/block/sdc", FAKE_BLOCK "/sdc", NULL, 0, 0 },
	{ "/sys/nodes/md0", NULL, NULL, 9, 0 },
	{ "/sys/nodes/sda2", NULL, NULL, 8, 2 },
	{ "/sys/nodes/sdb", NULL, NULL, 8, 16 },
	{ "/sys/nodes/sdc", NULL, NULL, 8, 32 },
};

static int mkdir_parents(const char *path)
{
	char buf[PATH_MAX], *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = strchr(buf + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return 0;
}

static int write_text(const char *path, const char *text)
{
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static int fake_node_make(const struct fake_node *n)
{
	int ret = mkdir_parents(n->path);

	if (ret < 0)
		return ret;
	if (n->link)
		return symlink(n->link, n->path) < 0 ? -errno : 0;
	if (n->text)
		return write_text(n->path, n->text);
	if (n->blk_major)
		return mknod(n->path, S_IFBLK | 0600, makedev(n->blk_major, n->blk_minor)) < 0
		       ? -errno : 0;
	return mkdir(n->path, 0755) < 0 && errno != EEXIST ? -errno : 0;
}

/*
 * Give this forked test process its own mount namespace with a tmpfs over /sys holding
 * only the md tree. The namespace dies with the process: nothing to undo, nothing leaks.
 */
static void fake_sysfs(void)
{
	unsigned i;

	ck_assert_msg(unshare(CLONE_NEWNS) == 0, "unshare: %s", strerror(errno));
	/* private first, or the tmpfs would propagate to the host's /sys */
	ck_assert_msg(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0,
		      "make / private: %s", strerror(errno));
	ck_assert_msg(mount("iojob-fake", "/sys", "tmpfs", 0, NULL) == 0,
		      "mount tmpfs on /sys: %s", strerror(errno));
	for (i = 0; i < sizeof(md_tree) / sizeof(md_tree[0]); i++)
		ck_assert_msg(fake_node_make(&md_tree[i]) == 0, "fake '%s'", md_tree[i].path);
}

/* Members come in readdir order: check the pair at i and i + 1 is sda and sdb under m. */
static void assert_members(const struct disk_set *s, unsigned i, int m)
{
	bool sda_first = !strcmp(s->disks[i].name, "sda");

	ck_assert_str_eq(s->disks[i].name, sda_first ? "sda" : "sdb");
	ck_assert_str_eq(s->disks[i + 1].name, sda_first ? "sdb" : "sda");
	ck_assert_int_eq(s->disks[i].master, m);
	ck_assert_int_eq(s->disks[i + 1].master, m);
	ck_assert_uint_eq(s->disks[i].nslaves, 0);
}

START_TEST(md_lists_each_member_disk_once_after_it)
{
	struct disk_set s = { 0 };

	fake_sysfs();
	ck_assert_int_eq(diskset_add_path(&s, "/sys/nodes/md0"), 0);
	ck_assert_uint_eq(s.n, 3);
	ck_assert_str_eq(s.disks[0].name, "md0");
	ck_assert_int_eq(s.disks[0].master, -1);
	ck_assert_uint_eq(s.disks[0].nslaves, 2);
	assert_members(&s, 1, 0);
	ck_assert_int_eq(diskset_add_path(&s, "/sys/nodes/sdb"), 0);
	ck_assert_int_eq(diskset_add_path(&s, "/sys/nodes/sda2"), 0);
	ck_assert_uint_eq(s.n, 3);
	diskset_free(&s);
}
END_TEST

START_TEST(disk_listed_before_its_md_moves_under_it)
{
	struct disk_set s = { 0 };

	fake_sysfs();
	ck_assert_int_eq(diskset_add_path(&s, "/sys/nodes/sdb"), 0);
	ck_assert_int_eq(diskset_add_path(&s, "/sys/nodes/sdc"), 0);
	ck_assert_int_eq(diskset_add_path(&s, "/sys/nodes/md0"), 0);
	ck_assert_uint_eq(s.n, 4);
	ck_assert_str_eq(s.disks[0].name, "sdc");
	ck_assert_int_eq(s.disks[0].master, -1);
	ck_assert_str_eq(s.disks[1].name, "md0");
	ck_assert_uint_eq(s.disks[1].nslaves, 2);
	assert_members(&s, 2, 1);
	diskset_free(&s);
}
END_TEST

START_TEST(partition_node_maps_to_its_disk)
{
	struct disk_set s = { 0 };

	fake_sysfs();
	ck_assert_int_eq(diskset_add_path(&s, "/sys/nodes/sda2"), 0);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_str_eq(s.disks[0].name, "sda");
	diskset_free(&s);
}
END_TEST

static const struct disk *disk_named(const struct disk_set *s, const char *name)
{
	unsigned i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->disks[i].name, name))
			return &s->disks[i];
	ck_abort_msg("no disk '%s'", name);
	return NULL;
}

START_TEST(counters_come_from_sys_block_stat)
{
	struct disk_set s = { 0 };
	const struct disk *d;

	fake_sysfs();
	ck_assert_int_eq(diskset_add_path(&s, "/sys/nodes/md0"), 0);
	ck_assert_int_eq(diskset_snapshot_start(&s), 0);
	ck_assert_int_eq(write_text(FAKE_MD0 "/stat", "101 2 303 4 505 6 707 8 1 1010 1111\n"), 0);
	ck_assert_int_eq(diskset_snapshot_end(&s), 0);
	ck_assert_uint_ge(s.end_ns, s.start_ns);
	d = disk_named(&s, "md0");
	ck_assert_uint_eq(d->start.ios[0], 1);
	ck_assert_uint_eq(d->start.merges[0], 2);
	ck_assert_uint_eq(d->start.sectors[0], 3);
	ck_assert_uint_eq(d->start.ticks[0], 4);
	ck_assert_uint_eq(d->start.ios[1], 5);
	ck_assert_uint_eq(d->start.merges[1], 6);
	ck_assert_uint_eq(d->start.sectors[1], 7);
	ck_assert_uint_eq(d->start.ticks[1], 8);
	ck_assert_uint_eq(d->start.io_ticks, 10);
	ck_assert_uint_eq(d->start.in_queue, 11);
	ck_assert_uint_eq(d->end.ios[0], 101);
	ck_assert_uint_eq(d->end.sectors[1], 707);
	ck_assert_uint_eq(d->end.in_queue, 1111);
	d = disk_named(&s, "sda");
	ck_assert_uint_eq(d->start.ios[0], 21);
	ck_assert_uint_eq(d->start.in_queue, 31);
	d = disk_named(&s, "sdb");
	ck_assert_uint_eq(d->start.ticks[1], 48);
	ck_assert_uint_eq(d->start.io_ticks, 50);
	diskset_free(&s);
}
END_TEST

START_TEST(unreadable_stat_reads_as_zero_and_fails)
{
	struct disk_set s = { 0 };
	const struct disk *d;

	fake_sysfs();
	ck_assert_int_eq(diskset_add_path(&s, "/sys/nodes/md0"), 0);
	ck_assert_int_eq(diskset_add_path(&s, "/sys/nodes/sdc"), 0);
	ck_assert_int_eq(diskset_snapshot_start(&s), -EINVAL);
	d = disk_named(&s, "sdc");
	ck_assert_uint_eq(d->start.ios[0], 0);
	ck_assert_uint_eq(d->start.in_queue, 0);
	ck_assert_uint_eq(disk_named(&s, "md0")->start.ios[1], 5);
	ck_assert_uint_gt(s.start_ns, 0);
	diskset_free(&s);
}
END_TEST

/* --- what this machine can do -------------------------------------------------------------- */

static void skipping(const char *what, const char *why)
{
	printf("test_diskstats: skipping %s: %s\n", what, why);
}

static bool probe_loop(void)
{
	bool ok = make_dir() && make_loop("probe", NULL);

	if (!ok)
		printf("test_diskstats: skipped: no loop device: %s\n", fx.err);
	loopdev_teardown();
	return ok;
}

static bool probe_partitions(void)
{
	bool ok;

	if (!loopdev_have_tool("sfdisk")) {
		skipping("partition tests", "sfdisk not found (package fdisk)");
		return false;
	}
	ok = make_dir() && loopdev_make_partitioned_loop();
	if (!ok)
		skipping("partition tests", fx.err);
	loopdev_teardown();
	return ok;
}

static bool probe_dm(void)
{
	const char *version[] = { "dmsetup", "version", NULL };

	if (!loopdev_have_tool("dmsetup")) {
		skipping("dm tests", "dmsetup not found (package dmsetup)");
		return false;
	}
	/* fails when the kernel has no device-mapper driver */
	if (loopdev_run(version, NULL, NULL, 0, true) != 0) {
		skipping("dm tests", "no device-mapper in the kernel");
		return false;
	}
	return true;
}

/* Private mount namespaces need fork mode (each test in its own process) and the kernel's. */
static bool probe_fake_sysfs(SRunner *sr)
{
	int status;
	pid_t pid;

	if (srunner_fork_status(sr) == CK_NOFORK) {
		skipping("fake sysfs tests", "they need CK_FORK");
		return false;
	}
	pid = fork();
	if (pid == 0)
		_exit(unshare(CLONE_NEWNS) == 0
		      && mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0
		      && mount("iojob-fake", "/sys", "tmpfs", 0, NULL) == 0 ? 0 : 1);
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status)
	    || WEXITSTATUS(status)) {
		skipping("fake sysfs tests", "no private mount namespace");
		return false;
	}
	return true;
}

static TCase *tcase(Suite *s, const char *name, void (*setup)(void))
{
	TCase *tc = tcase_create(name);

	if (setup)
		tcase_add_unchecked_fixture(tc, setup, loopdev_teardown);
	suite_add_tcase(s, tc);
	return tc;
}

static void add_optional_tests(Suite *s, SRunner *sr)
{
	TCase *tc;

	if (probe_fake_sysfs(sr)) {
		tc = tcase(s, "stacked_fake", NULL);
		tcase_add_test(tc, md_lists_each_member_disk_once_after_it);
		tcase_add_test(tc, disk_listed_before_its_md_moves_under_it);
		tcase_add_test(tc, partition_node_maps_to_its_disk);
		tcase_add_test(tc, counters_come_from_sys_block_stat);
		tcase_add_test(tc, unreadable_stat_reads_as_zero_and_fails);
	}
	if (probe_dm()) {
		tc = tcase(s, "stacked_dm", dm_setup);
		tcase_add_test(tc, dm_device_lists_its_slaves);
		tcase_add_test(tc, disk_added_before_its_dm_moves_under_it);
	}
	if (!loopdev_have_tool("mkfs.ext4")) {
		skipping("mount tests", "mkfs.ext4 not found (package e2fsprogs)");
		return;
	}
	tc = tcase(s, "mapping", mounted_setup);
	tcase_add_test(tc, file_maps_to_its_loop_device);
	tcase_add_test(tc, block_device_maps_to_itself);
	tcase_add_test(tc, adding_a_disk_twice_is_a_noop);
	if (probe_partitions()) {
		tc = tcase(s, "partitions", partitions_setup);
		tcase_add_test(tc, partition_maps_to_its_disk);
		tcase_add_test(tc, file_on_a_partition_maps_to_its_disk);
	}
}

static void add_tests(Suite *s, SRunner *sr)
{
	TCase *tc;

	tc = tcase(s, "no_disk", NULL);
	tcase_add_test(tc, tmpfs_path_is_on_no_disk);
	tcase_add_test(tc, missing_path_is_enoent);
	tcase_add_test(tc, snapshots_of_an_empty_set_only_stamp_time);
	tc = tcase(s, "counters", bare_setup);
	tcase_add_test(tc, direct_writes_move_write_counters);
	add_optional_tests(s, sr);
}

int main(void)
{
	Suite *s;
	SRunner *sr;
	int failed;

	setvbuf(stdout, NULL, _IONBF, 0);
	loopdev_path_add_sbin();
	if (geteuid() != 0) {
		printf("test_diskstats: skipped: needs root for loop devices\n");
		return LOOPDEV_SKIP;
	}
	if (!loopdev_have_tool("losetup")) {
		printf("test_diskstats: skipped: losetup not found (package mount)\n");
		return LOOPDEV_SKIP;
	}
	loopdev_install_cleanup();
	if (!probe_loop())
		return LOOPDEV_SKIP;
	s = suite_create("diskstats");
	sr = srunner_create(s);
	add_tests(s, sr);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
