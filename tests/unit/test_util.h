/*
 * What every Check program in tests/unit shares: the length of a case table, the end of
 * main() that runs the suite, the note of a skipped sub-case and two file helpers. The
 * loop-device fixtures and the loop-device programs' start are in loopdev.h, of the same
 * library (test_util_dep in tests/meson.build).
 */
#ifndef TESTS_UNIT_TEST_UTIL_H
#define TESTS_UNIT_TEST_UTIL_H

#include <check.h>

#include "base/units.h"

/* The number of cases in a table, as an int: Check's loop bounds and _i are ints. */
#define TABLE_LEN(t)	((int)ARRAY_SIZE(t))

#define TEST_SKIP	77	/* meson's exit status for a skipped test */

/*
 * Run every test of sr (CK_VERBOSITY chooses how much is printed) and free it. Returns
 * EXIT_FAILURE when one failed, TEST_SKIP (saying so) when none ran, else EXIT_SUCCESS:
 * a program whose tests were all left out has not passed.
 */
int test_finish(SRunner *sr);

/* test_finish() of a new runner for s. */
int test_run(Suite *s);

/*
 * Say that the tests of what are left out, and why: "SKIP: PROG: WHAT: WHY", the shape
 * tests/run.sh counts as a sub-case skipped inside a passing program.
 */
void test_skipping(const char *what, const char *why);

/* Create the directories above path (not path itself), as mkdir -p. 0 or -errno. */
int test_mkdir_parents(const char *path);

/* Create or truncate path (mode 0644) holding text. 0 or -errno. */
int test_write_text(const char *path, const char *text);

#endif
