/*
 * Tests for engine/observe/disk_watch on real devices: mapping paths to disks, a loop device alone
 * (as fio: not the disk under its image), dm members and /sys/block counters, on loop
 * devices over files in a temporary directory. Needs root and loop devices (else SKIP);
 * test_sysfs covers the same code on a fake sysfs tree.
 */
#include "engine/observe/disk_watch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>

#include "loopdev.h"
#include "test_util.h"

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

/* How many entries fx.loop brings: itself only, as in fio (not the disk under its image). */
static unsigned loop_entries(void)
{
	return 1;
}

/*
 * Entry i is fx.loop, on its own and with no member, even when its image is on a disk
 * (fx.dir is not tmpfs): fio lists the loop device alone.
 */
static void assert_loop_entry(const struct disk_set *s, unsigned i)
{
	ck_assert_str_eq(s->disks[i].name, base(fx.loop));
	ck_assert_int_eq(s->disks[i].master, -1);
	ck_assert_uint_eq(s->disks[i].nslaves, 0);
	ck_assert_uint_eq(s->n, i + 1);
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
	ck_assert_uint_eq(s.n, loop_entries());
	assert_loop_entry(&s, 0);
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
	ck_assert_uint_eq(s.n, loop_entries());
	assert_loop_entry(&s, 0);
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
	ck_assert_uint_eq(s.n, loop_entries());
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
	ck_assert_uint_eq(s.n, loop_entries());
	assert_loop_entry(&s, 0);
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
	ck_assert_uint_eq(s.n, loop_entries());
	assert_loop_entry(&s, 0);
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

/* A loop device listed alone moves under the dm added after it, as a plain disk does. */
START_TEST(loop_added_before_its_dm_is_listed_under_it)
{
	struct disk_set s = { 0 };
	unsigned dm;

	REQUIRE_FIXTURE();
	ck_assert_int_eq(diskset_add_path(&s, fx.loop), 0);
	assert_loop_entry(&s, 0);
	ck_assert_int_eq(diskset_add_path(&s, fx.dm_dev), 0);
	dm = 0;
	ck_assert_uint_eq(s.n, dm + 2);
	ck_assert_str_eq(s.disks[dm].name, base(fx.dm_dev));
	ck_assert_uint_eq(s.disks[dm].nslaves, 1);
	ck_assert_str_eq(s.disks[dm + 1].name, base(fx.loop));
	ck_assert_int_eq(s.disks[dm + 1].master, (int)dm);
	diskset_free(&s);
}
END_TEST

/* --- what this machine can do -------------------------------------------------------------- */

static bool probe_dm(void)
{
	const char *version[] = { "dmsetup", "version", NULL };

	if (!loopdev_have_tool("dmsetup")) {
		test_skipping("dm tests", "dmsetup not found (package dmsetup)");
		return false;
	}
	/* fails when the kernel has no device-mapper driver */
	if (loopdev_run(version, NULL, NULL, 0, true) != 0) {
		test_skipping("dm tests", "no device-mapper in the kernel");
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

static void add_optional_tests(Suite *s)
{
	TCase *tc;

	if (probe_dm()) {
		tc = tcase(s, "stacked_dm", dm_setup);
		tcase_add_test(tc, dm_device_lists_its_slaves);
		tcase_add_test(tc, loop_added_before_its_dm_is_listed_under_it);
	}
	if (!loopdev_have_tool("mkfs.ext4")) {
		test_skipping("mount tests", "mkfs.ext4 not found (package e2fsprogs)");
		return;
	}
	tc = tcase(s, "mapping", mounted_setup);
	tcase_add_test(tc, file_maps_to_its_loop_device);
	tcase_add_test(tc, block_device_maps_to_itself);
	tcase_add_test(tc, adding_a_disk_twice_is_a_noop);
	if (loopdev_probe_partitions("iojob-diskstats")) {
		tc = tcase(s, "partitions", partitions_setup);
		tcase_add_test(tc, partition_maps_to_its_disk);
		tcase_add_test(tc, file_on_a_partition_maps_to_its_disk);
	}
}

static void add_tests(Suite *s)
{
	TCase *tc;

	tc = tcase(s, "no_disk", NULL);
	tcase_add_test(tc, tmpfs_path_is_on_no_disk);
	tcase_add_test(tc, missing_path_is_enoent);
	tcase_add_test(tc, snapshots_of_an_empty_set_only_stamp_time);
	tc = tcase(s, "counters", bare_setup);
	tcase_add_test(tc, direct_writes_move_write_counters);
	add_optional_tests(s);
}

int main(void)
{
	Suite *s;
	int ret;

	ret = loopdev_start("iojob-diskstats", NULL);
	if (ret)
		return ret;
	s = suite_create("disk_watch");
	add_tests(s);
	return test_run(s);
}
