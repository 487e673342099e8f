/* sysfs paths under the reports' or the real root, and small sysfs files read whole. */
#include "base/sysfs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/env.h"

static const char *tree_root(enum sysfs_tree tree)
{
	const char *root = tree == SYSFS_REPORTS ? env_get(ENV_SYSFS_ROOT) : NULL;

	return root && *root ? root : "/sys";
}

int sysfs_path(char *buf, size_t len, enum sysfs_tree tree, const char *fmt, ...)
{
	va_list ap;
	int n, m;

	n = snprintf(buf, len, "%s/", tree_root(tree));
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	va_start(ap, fmt);
	m = vsnprintf(buf + n, len - (size_t)n, fmt, ap);
	va_end(ap);
	return m < 0 || (size_t)m >= len - (size_t)n ? -ENAMETOOLONG : 0;
}

int sysfs_read(int dir, const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd, err;

	fd = openat(dir, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	err = errno;
	close(fd);
	if (n < 0)
		return -err;
	if (n > 0 && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	return (int)n;
}

int sysfs_read_devno(int dir, const char *path, dev_t *dev)
{
	unsigned maj, min;
	char buf[32];
	int ret = sysfs_read(dir, path, buf, sizeof(buf));

	if (ret < 0)
		return ret;
	if (sscanf(buf, "%u:%u", &maj, &min) != 2)
		return -EINVAL;
	*dev = makedev(maj, min);
	return 0;
}

int sysfs_dev_link(enum sysfs_tree tree, unsigned maj, unsigned min, char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	int ret = sysfs_path(path, sizeof(path), tree, "dev/block/%u:%u", maj, min);

	if (ret < 0)
		return ret;
	n = readlink(path, buf, len - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}
