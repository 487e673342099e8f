/*
 * Tests for engine/signature: images made by util-linux's own tools (mkfs.minix, mkfs.bfs,
 * mkswap, sfdisk; always there with util-linux and fdisk) are found and named as libblkid
 * names them, with where the magic is; zeros, random blocks and a repeated pattern (what a
 * benchmark leaves) are not; what is cut to its length. libblkid probes image files as it
 * does devices, so no loop device is needed (tests/e2e/safety.py does the rest on them).
 */
#include "engine/devices/signature.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "test_util.h"

#define IMG_BYTES	(16u << 20)

static char dir[64];

/* A tool that writes a signature on an image, and what the probe says of it. */
static const struct {
	const char *cmd;	/* run by sh with $1 = the image */
	const char *want;
} tools[] = {
	{ "mkfs.minix \"$1\"", "minix file system at byte 1040" },
	{ "mkfs.bfs \"$1\"", "bfs file system at byte 0" },
	{ "mkswap \"$1\"", "swap at byte 4086" },
	{ "echo 'label: dos' | sfdisk -q \"$1\"", "dos partition table at byte 510" },
	{ "echo 'label: gpt' | sfdisk -q \"$1\"", "gpt partition table at byte 512" },
};

static void make_dir(void)
{
	snprintf(dir, sizeof(dir), "/tmp/iojob-sig-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void remove_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* A sparse image of IMG_BYTES, filled by fill() when given. Returns its path. */
static const char *image(const char *name, void (*fill)(int fd))
{
	static char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, IMG_BYTES), 0);
	if (fill)
		fill(fd);
	close(fd);
	return path;
}

static int probe(const char *path, char *what, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	ck_assert_int_ge(fd, 0);
	ret = signature_probe(fd, what, len);
	close(fd);
	return ret;
}

/* Run tool's command on path with PATH reaching /sbin; its exit status. */
static int run_tool(const char *cmd, const char *path)
{
	char line[512];

	snprintf(line, sizeof(line), "PATH=$PATH:/usr/sbin:/sbin; set -- '%s'; (%s) >/dev/null "
		 "2>&1", path, cmd);
	return WEXITSTATUS(system(line));
}

START_TEST(tool_signature_is_found_and_named)
{
	const char *path = image("tool", NULL);
	char what[256] = "";

	ck_assert_msg(run_tool(tools[_i].cmd, path) == 0, "'%s' failed (util-linux and "
		      "fdisk are test packages: tests/deps.sh test)", tools[_i].cmd);
	ck_assert_int_eq(probe(path, what, sizeof(what)), 1);
	ck_assert_str_eq(what, tools[_i].want);
}
END_TEST

/* A swap area inside a DOS-labelled image: both are listed, as wipefs lists them. */
START_TEST(every_signature_is_listed)
{
	const char *path = image("two", NULL);
	char what[256] = "";

	ck_assert_int_eq(run_tool("mkswap \"$1\"", path), 0);
	ck_assert_int_eq(run_tool("echo 'label: dos' | sfdisk -q --wipe never \"$1\"", path), 0);
	ck_assert_int_eq(probe(path, what, sizeof(what)), 1);
	ck_assert_msg(strstr(what, "swap at byte 4086") &&
		      strstr(what, "dos partition table at byte 510") && strstr(what, "; "),
		      "what: %s", what);
}
END_TEST

START_TEST(what_is_cut_to_its_length)
{
	const char *path = image("cut", NULL);
	char what[8];

	memset(what, 'x', sizeof(what));
	ck_assert_int_eq(run_tool(tools[0].cmd, path), 0);
	ck_assert_int_eq(probe(path, what, 6), 1);
	ck_assert_str_eq(what, "minix");
	ck_assert_int_eq(what[6], 'x');
	ck_assert_int_eq(probe(path, NULL, 0), 1);
}
END_TEST

/* --- not found --------------------------------------------------------------------------- */

START_TEST(zeros_carry_no_signature)
{
	char what[128] = "untouched";

	ck_assert_int_eq(probe(image("zeros", NULL), what, sizeof(what)), 0);
	ck_assert_str_eq(what, "untouched");
}
END_TEST

static void fill_random(int fd)
{
	static uint64_t buf[1 << 14];
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	for (off_t off = 0; off < IMG_BYTES; off += (off_t)sizeof(buf)) {
		for (size_t i = 0; i < TABLE_LEN(buf); i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[i] = x;
		}
		ck_assert_int_eq(pwrite(fd, buf, sizeof(buf), off), (ssize_t)sizeof(buf));
	}
}

static void fill_pattern(int fd)
{
	static uint32_t buf[1 << 14];

	for (size_t i = 0; i < TABLE_LEN(buf); i++)
		buf[i] = 0xefbeadde;
	for (off_t off = 0; off < IMG_BYTES; off += (off_t)sizeof(buf))
		ck_assert_int_eq(pwrite(fd, buf, sizeof(buf), off), (ssize_t)sizeof(buf));
}

/* What a benchmark leaves behind: random blocks, or a repeated pattern. */
START_TEST(benchmark_data_carries_no_signature)
{
	char what[128];

	ck_assert_msg(probe(image("random", fill_random), what, sizeof(what)) == 0,
		      "random data: %s", what);
	ck_assert_msg(probe(image("pattern", fill_pattern), what, sizeof(what)) == 0,
		      "pattern: %s", what);
}
END_TEST

/* A descriptor libblkid cannot read (a pipe) is an error, never "nothing found". */
START_TEST(unreadable_device_is_an_error)
{
	char what[128];
	int p[2];

	ck_assert_int_eq(pipe(p), 0);
	close(p[1]);
	ck_assert_int_lt(signature_probe(p[0], what, sizeof(what)), 0);
	close(p[0]);
}
END_TEST

static Suite *signature_suite(void)
{
	Suite *s = suite_create("signature");
	TCase *found = tcase_create("found"), *none = tcase_create("not found");

	tcase_add_unchecked_fixture(found, make_dir, remove_dir);
	tcase_add_loop_test(found, tool_signature_is_found_and_named, 0, TABLE_LEN(tools));
	tcase_add_test(found, every_signature_is_listed);
	tcase_add_test(found, what_is_cut_to_its_length);
	suite_add_tcase(s, found);
	tcase_add_unchecked_fixture(none, make_dir, remove_dir);
	tcase_add_test(none, zeros_carry_no_signature);
	tcase_add_test(none, benchmark_data_carries_no_signature);
	tcase_add_test(none, unreadable_device_is_an_error);
	suite_add_tcase(s, none);
	return s;
}

int main(void)
{
	return test_run(signature_suite());
}
