/* The I/O scheduler of the disk under a path: found in sysfs, checked and switched. */
#include "engine/devices/iosched.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/sysfs.h"

int iosched_file(const char *path, char *out, size_t len)
{
	struct stat st;
	dev_t dev;
	char part[256];
	int ret;

	/* a file the job is yet to create: the device of its directory */
	if (stat(path, &st) < 0) {
		const char *slash = strrchr(path, '/');
		char dir[4096];

		if (errno != ENOENT)
			return -errno;
		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + 1 : 1,
			 slash ? path : ".");
		if (stat(dir, &st) < 0)
			return -errno;
	}
	dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	if (!major(dev))
		return -ENODEV;		/* tmpfs, overlayfs, btrfs: no one device below */
	ret = sysfs_path(part, sizeof(part), SYSFS_REAL, "dev/block/%u:%u/partition",
			 major(dev), minor(dev));
	if (ret < 0)
		return ret;
	ret = sysfs_path(out, len, SYSFS_REAL, "dev/block/%u:%u/%squeue/scheduler",
			 major(dev), minor(dev), access(part, F_OK) == 0 ? "../" : "");
	if (ret < 0)
		return ret;
	return access(out, F_OK) == 0 ? 0 : -ENODEV;
}

/* Whether the word name is in the list, with or without the brackets of the one in use. */
static bool offers(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; (p = strstr(p, name)); p += n) {
		bool start = p == list || p[-1] == ' ' || p[-1] == '[';
		bool end = !p[n] || p[n] == ' ' || p[n] == ']';

		if (start && end)
			return true;
	}
	return false;
}

int iosched_offered(const char *file, const char *name, char *offered, size_t len)
{
	int ret = sysfs_read(AT_FDCWD, file, offered, len);

	if (ret < 0)
		return ret;
	return offers(offered, name) ? 0 : -ENOENT;
}

int iosched_switch(const char *file, const char *name)
{
	char now[256], want[64];
	int fd, ret = 0;

	fd = open(file, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, name, strlen(name)) < 0)
		ret = -errno;
	close(fd);
	if (ret)
		return ret;
	/* a device with one choice reads "none" without brackets */
	ret = sysfs_read(AT_FDCWD, file, now, sizeof(now));
	if (ret < 0)
		return ret;
	snprintf(want, sizeof(want), "[%s]", name);
	return strstr(now, want) || !strcmp(now, name) ? 0 : -EINVAL;
}
