/* The end of every unit test program's main() (run the suite, skip when nothing ran) and skip notes. */
#include "test_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

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
	printf("%s: skipping %s: %s\n", program_invocation_short_name, what, why);
}
