/* Two paths compared as the files they name, not as strings. */
#include "base/same_file.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/*
 * Where path would be created: its directory resolved (links, "..", "./") and its last
 * name. Only for a path that does not exist, so its last name is no link to follow.
 */
static int resolve_new(const char *path, char *out, size_t len)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (!realpath(dir, real))
		return -errno;
	if (snprintf(out, len, "%s/%s", real, name) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

int same_file_test(const char *a, const char *b)
{
	char ra[PATH_MAX + NAME_MAX + 2], rb[PATH_MAX + NAME_MAX + 2];
	struct stat sa, sb;
	int ea, eb, ret;

	ea = stat(a, &sa) < 0 ? errno : 0;
	eb = stat(b, &sb) < 0 ? errno : 0;
	if (!ea && !eb)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	if (ea != ENOENT && ea)
		return -ea;
	if (eb != ENOENT && eb)
		return -eb;
	if (!ea || !eb)
		return 0;	/* one exists and the other not: not one file (yet) */
	ret = resolve_new(a, ra, sizeof(ra));
	if (!ret)
		ret = resolve_new(b, rb, sizeof(rb));
	return ret < 0 ? ret : !strcmp(ra, rb);
}
