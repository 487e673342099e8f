/* Unit tests for base/same_file.c: one file however spelt or linked, a new file named twice. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <check.h>

#include "base/same_file.h"
#include "test_util.h"

static char dir[] = "/tmp/iojob-same-file-XXXXXX";

static void in_scratch(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(chdir(dir), 0);
	ck_assert_int_eq(test_mkdir_parents("sub/x"), 0);
	ck_assert_int_eq(test_write_text("a", "x\n"), 0);
	ck_assert_int_eq(test_write_text("b", "x\n"), 0);
	ck_assert_int_eq(link("a", "hard"), 0);
	ck_assert_int_eq(symlink("a", "soft"), 0);
}

static void out_of_scratch(void)
{
	char cmd[64];

	ck_assert_int_eq(chdir("/"), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static const struct {
	const char *a, *b;
	int same;
} cases[] = {
	{ "a", "a", 1 },
	{ "a", "./sub/../a", 1 },
	{ "a", "hard", 1 },		/* a hard link: one inode */
	{ "a", "soft", 1 },		/* a symbolic link followed */
	{ "a", "b", 0 },		/* equal contents, two files */
	{ "new", "sub/../new", 1 },	/* not made yet, spelled twice */
	{ "new", "./new", 1 },
	{ "new", "sub/new", 0 },
	{ "a", "new", 0 },		/* one exists, the other not */
};

START_TEST(same_file_compares_files_not_strings)
{
	ck_assert_int_eq(same_file_test(cases[_i].a, cases[_i].b), cases[_i].same);
}
END_TEST

START_TEST(same_file_says_why_a_path_cannot_resolve)
{
	ck_assert_int_eq(same_file_test("none/x", "none/y"), -ENOENT);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("same_file");
	TCase *tc = tcase_create("same_file");

	/* unchecked: the working directory must hold in the forked test too */
	tcase_add_unchecked_fixture(tc, in_scratch, out_of_scratch);
	tcase_add_loop_test(tc, same_file_compares_files_not_strings, 0, TABLE_LEN(cases));
	tcase_add_test(tc, same_file_says_why_a_path_cannot_resolve);
	suite_add_tcase(s, tc);
	return test_run(s);
}
