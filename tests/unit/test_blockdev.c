/*
 * Tests for engine/blockdev: size, block size and flush ioctls, the in-use and holders
 * checks and the signature check, on loop devices over files in a temporary directory and
 * on a fake sysfs. Needs root and loop devices (else SKIP).
 */
#include "engine/devices/blockdev.h"
#include "engine/devices/signature.h"

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
#include <sys/swap.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "loopdev.h"
#include "test_util.h"

static bool make_dir(void)
{
	return loopdev_make_dir(NULL, "iojob-blockdev");
}

static dev_t rdev(const char *path)
{
	struct stat st;

	ck_assert_msg(stat(path, &st) == 0, "stat '%s': %s", path, strerror(errno));
	return st.st_rdev;
}

static const char *base(const char *path)
{
	return strrchr(path, '/') + 1;
}

/* --- ioctls --------------------------------------------------------------------------- */

static void sizes_setup(void)
{
	if (make_dir() && loopdev_make_loop("img512", NULL, fx.loop, sizeof(fx.loop)))
		loopdev_make_loop("img4k", "--sector-size=4096", fx.loop2, sizeof(fx.loop2));
}

static int open_dev(const char *dev, int flags)
{
	int fd = open(dev, flags | O_CLOEXEC);

	ck_assert_msg(fd >= 0, "open '%s': %s", dev, strerror(errno));
	return fd;
}

START_TEST(size_is_backing_file_size)
{
	uint64_t bytes = 0;
	int fd;

	REQUIRE_FIXTURE();
	fd = open_dev(fx.loop, O_RDONLY);
	ck_assert_int_eq(blockdev_size(fd, &bytes), 0);
	ck_assert_uint_eq(bytes, LOOPDEV_IMG_BYTES);
	close(fd);
}
END_TEST

START_TEST(logical_block_size_defaults_to_512)
{
	unsigned bytes = 0;
	int fd;

	REQUIRE_FIXTURE();
	fd = open_dev(fx.loop, O_RDONLY);
	ck_assert_int_eq(blockdev_logical_block_size(fd, &bytes), 0);
	ck_assert_uint_eq(bytes, 512);
	close(fd);
}
END_TEST

START_TEST(logical_block_size_follows_sector_size)
{
	unsigned bytes = 0;
	uint64_t size = 0;
	int fd;

	REQUIRE_FIXTURE();
	fd = open_dev(fx.loop2, O_RDONLY);
	ck_assert_int_eq(blockdev_logical_block_size(fd, &bytes), 0);
	ck_assert_uint_eq(bytes, 4096);
	ck_assert_int_eq(blockdev_size(fd, &size), 0);
	ck_assert_uint_eq(size, LOOPDEV_IMG_BYTES);
	close(fd);
}
END_TEST

START_TEST(flush_succeeds_on_block_device)
{
	int fd;

	REQUIRE_FIXTURE();
	fd = open_dev(fx.loop, O_RDWR);
	ck_assert_int_eq(blockdev_flush(fd), 0);
	close(fd);
}
END_TEST

START_TEST(ioctls_on_non_block_fd_fail_with_enotty)
{
	unsigned ssz = 0;
	uint64_t size = 0;
	int fd;

	fd = open_dev("/dev/null", O_RDONLY);
	ck_assert_int_eq(blockdev_size(fd, &size), -ENOTTY);
	ck_assert_int_eq(blockdev_logical_block_size(fd, &ssz), -ENOTTY);
	ck_assert_int_eq(blockdev_flush(fd), -ENOTTY);
	close(fd);
	ck_assert_int_eq(blockdev_size(-1, &size), -EBADF);
}
END_TEST

/* --- in use: mounted --------------------------------------------------------------------- */

/* loop: bare; loop2: ext4, mounted on fx.mnt. */
static void mounted_setup(void)
{
	if (make_dir() && loopdev_make_loop("bare", NULL, fx.loop, sizeof(fx.loop))
	    && loopdev_make_loop("ext4", NULL, fx.loop2, sizeof(fx.loop2)))
		loopdev_mount_ext4(fx.loop2);
}

START_TEST(bare_loop_is_not_in_use)
{
	char where[128] = "untouched";

	REQUIRE_FIXTURE();
	ck_assert_int_eq(blockdev_in_use(rdev(fx.loop), where, sizeof(where)), 0);
	ck_assert_str_eq(where, "untouched");
}
END_TEST

START_TEST(mounted_loop_is_in_use)
{
	char where[PATH_MAX + 64], want[PATH_MAX + 64];

	REQUIRE_FIXTURE();
	ck_assert_int_eq(blockdev_in_use(rdev(fx.loop2), where, sizeof(where)), 1);
	snprintf(want, sizeof(want), "%s on %s", base(fx.loop2), fx.mnt);
	ck_assert_str_eq(where, want);
}
END_TEST

START_TEST(where_is_cut_to_its_length)
{
	char where[8];

	REQUIRE_FIXTURE();
	memset(where, 'x', sizeof(where));
	ck_assert_int_eq(blockdev_in_use(rdev(fx.loop2), where, 5), 1);
	ck_assert_str_eq(where, "loop");
	ck_assert_int_eq(where[5], 'x');
	ck_assert_int_eq(blockdev_in_use(rdev(fx.loop2), NULL, 0), 1);
}
END_TEST

START_TEST(unknown_device_is_an_error)
{
	char where[64];

	ck_assert_int_eq(blockdev_in_use(makedev(0, 0), where, sizeof(where)), -ENOENT);
}
END_TEST

/* --- in use: swap ------------------------------------------------------------------------ */

static void swap_setup(void)
{
	const char *argv[] = { "mkswap", "-q", NULL, NULL };

	if (!make_dir() || !loopdev_make_loop("swap", NULL, fx.loop, sizeof(fx.loop)))
		return;
	argv[2] = fx.loop;
	if (loopdev_run(argv, NULL, NULL, 0, false) != 0)
		loopdev_fail("mkswap '%s' failed", fx.loop);
	else if (swapon(fx.loop, 0) < 0)
		loopdev_fail("swapon '%s': %s", fx.loop, strerror(errno));
	else
		strcpy(fx.swap, fx.loop);
}

START_TEST(swap_device_is_in_use)
{
	char where[128], want[128];

	REQUIRE_FIXTURE();
	ck_assert_int_eq(blockdev_in_use(rdev(fx.loop), where, sizeof(where)), 1);
	snprintf(want, sizeof(want), "%s on [SWAP]", base(fx.loop));
	ck_assert_str_eq(where, want);
}
END_TEST

/* --- in use: partitions of a real partitioned loop ---------------------------------------- */

static void partitions_setup(void)
{
	char part[64];

	if (!make_dir() || !loopdev_make_partitioned_loop())
		return;
	snprintf(part, sizeof(part), "%sp1", fx.loop);
	loopdev_mount_ext4(part);
}

START_TEST(disk_is_in_use_when_a_partition_is_mounted)
{
	char where[PATH_MAX + 64], want[PATH_MAX + 64];

	REQUIRE_FIXTURE();
	ck_assert_int_eq(blockdev_in_use(rdev(fx.loop), where, sizeof(where)), 1);
	snprintf(want, sizeof(want), "%sp1 on %s", base(fx.loop), fx.mnt);
	ck_assert_str_eq(where, want);
}
END_TEST

START_TEST(mounted_partition_is_in_use)
{
	char where[PATH_MAX + 64], part[64];

	REQUIRE_FIXTURE();
	snprintf(part, sizeof(part), "%sp1", fx.loop);
	ck_assert_int_eq(blockdev_in_use(rdev(part), where, sizeof(where)), 1);
}
END_TEST

START_TEST(sibling_of_mounted_partition_is_free)
{
	char where[PATH_MAX + 64], part[64];

	REQUIRE_FIXTURE();
	snprintf(part, sizeof(part), "%sp2", fx.loop);
	ck_assert_int_eq(blockdev_in_use(rdev(part), where, sizeof(where)), 0);
}
END_TEST

/* --- in use: partitions, on a fake sysfs around the mounted loop --------------------------- */

struct fake_node {
	const char *path;	/* absolute, under /sys */
	const char *link;	/* symlink target, or NULL */
	const char *text;	/* file content; NULL with no link: a directory */
};

static int fake_node_make(const struct fake_node *n)
{
	int ret = test_mkdir_parents(n->path);

	if (ret < 0)
		return ret;
	if (n->link)
		return symlink(n->link, n->path) < 0 ? -errno : 0;
	if (!n->text)
		return mkdir(n->path, 0755) < 0 && errno != EEXIST ? -errno : 0;
	return test_write_text(n->path, n->text);
}

/*
 * Give this forked test process its own mount namespace with a tmpfs over /sys holding
 * only nodes. The namespace dies with the process: nothing to undo, nothing leaks out.
 */
static void fake_sysfs(const struct fake_node *nodes, unsigned n)
{
	unsigned i;

	ck_assert_msg(unshare(CLONE_NEWNS) == 0, "unshare: %s", strerror(errno));
	/* private first, or the tmpfs would propagate to the host's /sys */
	ck_assert_msg(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0,
		      "make / private: %s", strerror(errno));
	ck_assert_msg(mount("iojob-fake", "/sys", "tmpfs", 0, NULL) == 0,
		      "mount tmpfs on /sys: %s", strerror(errno));
	for (i = 0; i < n; i++)
		ck_assert_msg(fake_node_make(&nodes[i]) == 0, "fake '%s'", nodes[i].path);
}

/* A fake disk vfake (240:0) whose partition vfake1 is the mounted loop, and vfake2. */
static void fake_disk_over_mounted_loop(void)
{
	char part_dev[32];
	dev_t d = rdev(fx.loop2);
	const struct fake_node nodes[] = {
		{ "/sys/devices/virtual/block/vfake/dev", NULL, "240:0\n" },
		{ "/sys/devices/virtual/block/vfake/vfake1/dev", NULL, part_dev },
		{ "/sys/devices/virtual/block/vfake/vfake1/partition", NULL, "1\n" },
		{ "/sys/devices/virtual/block/vfake/vfake2/dev", NULL, "240:2\n" },
		{ "/sys/devices/virtual/block/vfake/vfake2/partition", NULL, "2\n" },
		{ "/sys/devices/virtual/block/vfake/queue", NULL, NULL },
		{ "/sys/class/block/vfake", "/sys/devices/virtual/block/vfake", NULL },
		{ "/sys/dev/block/240:0", "/sys/devices/virtual/block/vfake", NULL },
		{ "/sys/dev/block/240:2", "/sys/devices/virtual/block/vfake/vfake2", NULL },
	};

	snprintf(part_dev, sizeof(part_dev), "%u:%u\n", major(d), minor(d));
	fake_sysfs(nodes, sizeof(nodes) / sizeof(nodes[0]));
}

START_TEST(disk_is_in_use_when_its_partition_is)
{
	char where[PATH_MAX + 64], want[PATH_MAX + 64];

	REQUIRE_FIXTURE();
	fake_disk_over_mounted_loop();
	ck_assert_int_eq(blockdev_in_use(makedev(240, 0), where, sizeof(where)), 1);
	snprintf(want, sizeof(want), "vfake1 on %s", fx.mnt);
	ck_assert_str_eq(where, want);
}
END_TEST

START_TEST(partition_is_free_when_only_its_sibling_is_in_use)
{
	char where[PATH_MAX + 64];

	REQUIRE_FIXTURE();
	fake_disk_over_mounted_loop();
	ck_assert_int_eq(blockdev_in_use(makedev(240, 2), where, sizeof(where)), 0);
}
END_TEST

START_TEST(partition_is_in_use_when_its_disk_is)
{
	char where[PATH_MAX + 64], want[PATH_MAX + 64], dir[96], disk_dev[32], part[128];
	const char *name = base(fx.loop2);
	dev_t d = rdev(fx.loop2);
	char paths[3][160];
	const struct fake_node nodes[] = {
		{ paths[0], NULL, disk_dev },
		{ paths[1], NULL, "9\n" },
		{ "/sys/dev/block/240:9", part, NULL },
		{ paths[2], dir, NULL },
	};

	REQUIRE_FIXTURE();
	snprintf(dir, sizeof(dir), "/sys/devices/virtual/block/%s", name);
	snprintf(part, sizeof(part), "%s/%sp9", dir, name);
	snprintf(disk_dev, sizeof(disk_dev), "%u:%u\n", major(d), minor(d));
	snprintf(paths[0], sizeof(paths[0]), "%s/dev", dir);
	snprintf(paths[1], sizeof(paths[1]), "%s/partition", part);
	snprintf(paths[2], sizeof(paths[2]), "/sys/class/block/%s", name);
	fake_sysfs(nodes, sizeof(nodes) / sizeof(nodes[0]));
	ck_assert_int_eq(blockdev_in_use(makedev(240, 9), where, sizeof(where)), 1);
	snprintf(want, sizeof(want), "%s on %s", name, fx.mnt);
	ck_assert_str_eq(where, want);
}
END_TEST

/* --- held by md or dm, on a fake sysfs ------------------------------------------------------ */

/*
 * vheld (241:0) with partitions vheld1, held by md9, and vheld2; vwhole (242:0), held by
 * dm-7; vfree (243:0), whose holders directory is empty.
 */
static void fake_holders(void)
{
	const struct fake_node nodes[] = {
		{ "/sys/devices/virtual/block/vheld/dev", NULL, "241:0\n" },
		{ "/sys/devices/virtual/block/vheld/holders", NULL, NULL },
		{ "/sys/devices/virtual/block/vheld/vheld1/dev", NULL, "241:1\n" },
		{ "/sys/devices/virtual/block/vheld/vheld1/partition", NULL, "1\n" },
		{ "/sys/devices/virtual/block/vheld/vheld1/holders/md9", "../../../md9", NULL },
		{ "/sys/devices/virtual/block/vheld/vheld2/dev", NULL, "241:2\n" },
		{ "/sys/devices/virtual/block/vheld/vheld2/partition", NULL, "2\n" },
		{ "/sys/devices/virtual/block/vheld/vheld2/holders", NULL, NULL },
		{ "/sys/devices/virtual/block/vwhole/dev", NULL, "242:0\n" },
		{ "/sys/devices/virtual/block/vwhole/holders/dm-7", "../../dm-7", NULL },
		{ "/sys/devices/virtual/block/vfree/dev", NULL, "243:0\n" },
		{ "/sys/devices/virtual/block/vfree/holders", NULL, NULL },
		{ "/sys/class/block/vheld", "/sys/devices/virtual/block/vheld", NULL },
		{ "/sys/class/block/vheld1", "/sys/devices/virtual/block/vheld/vheld1", NULL },
		{ "/sys/class/block/vheld2", "/sys/devices/virtual/block/vheld/vheld2", NULL },
		{ "/sys/class/block/vwhole", "/sys/devices/virtual/block/vwhole", NULL },
		{ "/sys/class/block/vfree", "/sys/devices/virtual/block/vfree", NULL },
		{ "/sys/dev/block/241:0", "/sys/devices/virtual/block/vheld", NULL },
		{ "/sys/dev/block/241:1", "/sys/devices/virtual/block/vheld/vheld1", NULL },
		{ "/sys/dev/block/241:2", "/sys/devices/virtual/block/vheld/vheld2", NULL },
		{ "/sys/dev/block/242:0", "/sys/devices/virtual/block/vwhole", NULL },
		{ "/sys/dev/block/243:0", "/sys/devices/virtual/block/vfree", NULL },
	};

	fake_sysfs(nodes, sizeof(nodes) / sizeof(nodes[0]));
}

START_TEST(held_device_names_its_holder)
{
	char where[64];

	fake_holders();
	ck_assert_int_eq(blockdev_held(makedev(242, 0), where, sizeof(where)), 1);
	ck_assert_str_eq(where, "dm-7 holds vwhole");
}
END_TEST

START_TEST(held_partition_is_held)
{
	char where[64];

	fake_holders();
	ck_assert_int_eq(blockdev_held(makedev(241, 1), where, sizeof(where)), 1);
	ck_assert_str_eq(where, "md9 holds vheld1");
}
END_TEST

START_TEST(disk_is_held_when_its_partition_is)
{
	char where[64];

	fake_holders();
	ck_assert_int_eq(blockdev_held(makedev(241, 0), where, sizeof(where)), 1);
	ck_assert_str_eq(where, "md9 holds vheld1");
}
END_TEST

START_TEST(free_devices_are_not_held)
{
	char where[64] = "untouched";

	fake_holders();
	ck_assert_int_eq(blockdev_held(makedev(241, 2), where, sizeof(where)), 0);
	ck_assert_int_eq(blockdev_held(makedev(243, 0), where, sizeof(where)), 0);
	ck_assert_str_eq(where, "untouched");
	ck_assert_int_eq(blockdev_held(makedev(244, 0), where, sizeof(where)), -ENOENT);
}
END_TEST

/* --- signatures -------------------------------------------------------------------------- */

static void bare_setup(void)
{
	if (make_dir())
		loopdev_make_loop("bare", NULL, fx.loop, sizeof(fx.loop));
}

/* loop: bare; loop2: ext4, not mounted. */
static void signature_setup(void)
{
	const char *mkfs[] = { "mkfs.ext4", "-q", "-F", NULL, NULL };

	if (!make_dir() || !loopdev_make_loop("bare", NULL, fx.loop, sizeof(fx.loop)) ||
	    !loopdev_make_loop("ext4", NULL, fx.loop2, sizeof(fx.loop2)))
		return;
	mkfs[3] = fx.loop2;
	if (loopdev_run(mkfs, NULL, NULL, 0, false) != 0)
		loopdev_fail("mkfs.ext4 '%s' failed", fx.loop2);
}

static int signature_of(const char *dev, char *what, size_t len)
{
	int fd = open_dev(dev, O_RDONLY), ret;

	ret = signature_probe(fd, what, len);
	close(fd);
	return ret;
}

START_TEST(bare_loop_has_no_signature)
{
	char what[128] = "untouched";

	REQUIRE_FIXTURE();
	ck_assert_int_eq(signature_of(fx.loop, what, sizeof(what)), 0);
	ck_assert_str_eq(what, "untouched");
	ck_assert_int_eq(blockdev_held(rdev(fx.loop), what, sizeof(what)), 0);
}
END_TEST

START_TEST(ext4_loop_has_its_signature)
{
	char what[128];

	REQUIRE_FIXTURE();
	ck_assert_int_eq(signature_of(fx.loop2, what, sizeof(what)), 1);
	ck_assert_str_eq(what, "ext4 file system at byte 1080");
}
END_TEST

/* Tools that write a signature on an image, and the name it is found under. */
static const struct {
	const char *tool;
	const char *input;	/* for sfdisk's stdin */
	const char *want;
} sig_tools[] = {
	{ "mkswap", NULL, "swap at byte 4086" },
	{ "sfdisk", "label: dos\ntype=83\n", "dos partition table at byte 510" },
	{ "sfdisk", "label: gpt\ntype=linux\n", "gpt partition table at byte 512" },
};

/* Zero the first and last 64 KiB of dev, where the tools below write. */
static void wipe_ends(const char *dev)
{
	static const unsigned char zeros[64 << 10];
	int fd = open_dev(dev, O_RDWR);

	ck_assert_int_eq(pwrite(fd, zeros, sizeof(zeros), 0), sizeof(zeros));
	ck_assert_int_eq(pwrite(fd, zeros, sizeof(zeros), LOOPDEV_IMG_BYTES - sizeof(zeros)),
			 sizeof(zeros));
	ck_assert_int_eq(fsync(fd), 0);
	close(fd);
}

/* The signature sig_tools[_i] writes on the bare loop device is found and named. */
START_TEST(tool_signature_is_found)
{
	const char *argv[] = { sig_tools[_i].tool, "-q", NULL, NULL };
	char script[PATH_MAX], what[128];
	FILE *f;

	REQUIRE_FIXTURE();
	wipe_ends(fx.loop);
	snprintf(script, sizeof(script), "%s/script", fx.dir);
	if (sig_tools[_i].input) {
		f = fopen(script, "we");
		ck_assert_ptr_nonnull(f);
		fputs(sig_tools[_i].input, f);
		fclose(f);
	}
	argv[2] = fx.loop;
	ck_assert_int_eq(loopdev_run(argv, sig_tools[_i].input ? script : NULL, NULL, 0, true),
			 0);
	ck_assert_int_eq(signature_of(fx.loop, what, sizeof(what)), 1);
	ck_assert_str_eq(what, sig_tools[_i].want);
}
END_TEST

/* --- what this machine can do -------------------------------------------------------------- */

/* Private mount namespaces need fork mode (each test in its own process) and the kernel's. */
static bool probe_fake_sysfs(SRunner *sr)
{
	int status;
	pid_t pid;

	if (srunner_fork_status(sr) == CK_NOFORK) {
		test_skipping("fake sysfs tests", "they need CK_FORK");
		return false;
	}
	pid = fork();
	if (pid == 0)
		_exit(unshare(CLONE_NEWNS) == 0
		      && mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0
		      && mount("iojob-fake", "/sys", "tmpfs", 0, NULL) == 0 ? 0 : 1);
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status)
	    || WEXITSTATUS(status)) {
		test_skipping("fake sysfs tests", "no private mount namespace");
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

static void add_mount_tests(Suite *s, bool fake)
{
	TCase *tc;

	if (!loopdev_have_tool("mkfs.ext4")) {
		test_skipping("mount and ext4 signature tests",
			 "mkfs.ext4 not found (package e2fsprogs)");
		return;
	}
	tc = tcase(s, "in_use_mounted", mounted_setup);
	tcase_add_test(tc, bare_loop_is_not_in_use);
	tcase_add_test(tc, mounted_loop_is_in_use);
	tcase_add_test(tc, where_is_cut_to_its_length);
	tc = tcase(s, "signatures", signature_setup);
	tcase_add_test(tc, bare_loop_has_no_signature);
	tcase_add_test(tc, ext4_loop_has_its_signature);
	if (fake) {
		tc = tcase(s, "in_use_partitions_fake", mounted_setup);
		tcase_add_test(tc, disk_is_in_use_when_its_partition_is);
		tcase_add_test(tc, partition_is_free_when_only_its_sibling_is_in_use);
		tcase_add_test(tc, partition_is_in_use_when_its_disk_is);
	}
	if (loopdev_probe_partitions("iojob-blockdev")) {
		tc = tcase(s, "in_use_partitions", partitions_setup);
		tcase_add_test(tc, disk_is_in_use_when_a_partition_is_mounted);
		tcase_add_test(tc, mounted_partition_is_in_use);
		tcase_add_test(tc, sibling_of_mounted_partition_is_free);
	}
}

static void add_tests(Suite *s, SRunner *sr)
{
	TCase *tc;
	bool fake;

	tc = tcase(s, "ioctls", sizes_setup);
	tcase_add_test(tc, size_is_backing_file_size);
	tcase_add_test(tc, logical_block_size_defaults_to_512);
	tcase_add_test(tc, logical_block_size_follows_sector_size);
	tcase_add_test(tc, flush_succeeds_on_block_device);
	tc = tcase(s, "errors", NULL);
	tcase_add_test(tc, ioctls_on_non_block_fd_fail_with_enotty);
	tcase_add_test(tc, unknown_device_is_an_error);
	fake = probe_fake_sysfs(sr);
	if (fake) {
		tc = tcase(s, "held_fake", NULL);
		tcase_add_test(tc, held_device_names_its_holder);
		tcase_add_test(tc, held_partition_is_held);
		tcase_add_test(tc, disk_is_held_when_its_partition_is);
		tcase_add_test(tc, free_devices_are_not_held);
	}
	add_mount_tests(s, fake);
	tc = tcase(s, "signature_tools", bare_setup);
	for (int i = 0; i < (int)(sizeof(sig_tools) / sizeof(sig_tools[0])); i++) {
		if (loopdev_have_tool(sig_tools[i].tool))
			tcase_add_loop_test(tc, tool_signature_is_found, i, i + 1);
		else
			test_skipping(sig_tools[i].tool, "not found (packages util-linux, fdisk)");
	}
	if (!loopdev_have_tool("mkswap")) {
		test_skipping("swap tests", "mkswap not found (package util-linux)");
		return;
	}
	tc = tcase(s, "in_use_swap", swap_setup);
	tcase_add_test(tc, swap_device_is_in_use);
}

int main(void)
{
	Suite *s;
	SRunner *sr;
	int ret;

	ret = loopdev_start("iojob-blockdev", NULL);
	if (ret)
		return ret;
	s = suite_create("blockdev");
	sr = srunner_create(s);
	add_tests(s, sr);
	return test_finish(sr);
}
