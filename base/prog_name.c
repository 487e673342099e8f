/* The name iojob speaks under (prog_name.h). */
#include "base/prog_name.h"

#include <errno.h>
#include <string.h>

bool prog_is_fio(const char *argv0)
{
	const char *base = argv0 ? strrchr(argv0, '/') : NULL;

	return argv0 && !strcmp(base ? base + 1 : argv0, "fio");
}

const char *prog_name(void)
{
	/* glibc keeps argv[0] (errno.h), so that any part of the program can ask */
	return prog_is_fio(program_invocation_name) ? "fio" : "iojob";
}
