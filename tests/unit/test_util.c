/*
 * The end of every unit test program's main() (run the suite, skip when nothing ran), skip
 * notes, and the two file helpers the fake sysfs trees are made with.
 */
#include "test_util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int test_finish(SRunner *sr)
{
	int failed, total;

	srunner_run_all(sr, CK_ENV);
	total = srunner_ntests_run(sr);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	if (!total) {
		printf("%s: skipped: nothing to run\n", program_invocation_short_name);
		return TEST_SKIP;
	}
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

int test_run(Suite *s)
{
	return test_finish(srunner_create(s));
}

void test_skipping(const char *what, const char *why)
{
	printf("SKIP: %s: %s: %s\n", program_invocation_short_name, what, why);
}

int test_mkdir_parents(const char *path)
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

int test_write_text(const char *path, const char *text)
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
