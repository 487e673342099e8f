/* Which file systems are kernel interfaces rather than storage, told by statfs. */
#include "engine/devices/pseudo_fs.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>

#include "base/units.h"

#define CONFIGFS_MAGIC	0x62656570	/* not in every linux/magic.h */
#define MQUEUE_MAGIC	0x19800202
#define FUSECTL_MAGIC	0x65735543

static const struct {
	long magic;
	const char *name;
} pseudo[] = {
	{ PROC_SUPER_MAGIC, "procfs" },
	{ SYSFS_MAGIC, "sysfs" },
	{ DEBUGFS_MAGIC, "debugfs" },
	{ TRACEFS_MAGIC, "tracefs" },
	{ SECURITYFS_MAGIC, "securityfs" },
	{ CGROUP_SUPER_MAGIC, "cgroup" },
	{ CGROUP2_SUPER_MAGIC, "cgroup2" },
	{ PSTOREFS_MAGIC, "pstore" },
	{ BPF_FS_MAGIC, "bpf" },
	{ EFIVARFS_MAGIC, "efivarfs" },
	{ DEVPTS_SUPER_MAGIC, "devpts" },
	{ SELINUX_MAGIC, "selinuxfs" },
	{ SMACK_MAGIC, "smackfs" },
	{ BINFMTFS_MAGIC, "binfmt_misc" },
	{ NSFS_MAGIC, "nsfs" },
	{ AUTOFS_SUPER_MAGIC, "autofs" },
	{ HUGETLBFS_MAGIC, "hugetlbfs" },
	{ RDTGROUP_SUPER_MAGIC, "resctrl" },
	{ USBDEVICE_SUPER_MAGIC, "usbdevfs" },
	{ CONFIGFS_MAGIC, "configfs" },
	{ MQUEUE_MAGIC, "mqueue" },
	{ FUSECTL_MAGIC, "fusectl" },
};

/*
 * Where open(O_CREAT) would put path when it is a dangling symbolic link: its target,
 * relative to the link's directory, into out. Returns 0, or -1 when path is no such link.
 */
static int dangling_target(const char *path, char *out, size_t len)
{
	char target[PATH_MAX];
	const char *slash;
	struct stat st;
	ssize_t n;

	if (lstat(path, &st) < 0 || !S_ISLNK(st.st_mode) || stat(path, &st) == 0)
		return -1;
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return -1;
	target[n] = '\0';
	slash = strrchr(path, '/');
	if (target[0] == '/' || !slash)
		return snprintf(out, len, "%s", target) < (int)len ? 0 : -1;
	return snprintf(out, len, "%.*s/%s", (int)(slash - path), path, target) < (int)len ?
	       0 : -1;
}

/* statfs and stat of path, or of its nearest existing parent. Returns 0 or -1. */
static int stat_nearest(const char *path, struct statfs *sf, struct stat *st)
{
	char dir[PATH_MAX], next[PATH_MAX];
	char *slash;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return -1;
	/* a link to a link to ...: the kernel gives up at 40, and so does the open */
	for (int hops = 0; hops < 40 && dangling_target(dir, next, sizeof(next)) == 0; hops++)
		memcpy(dir, next, sizeof(dir));
	for (;;) {
		if (statfs(dir, sf) == 0 && stat(dir, st) == 0)
			return 0;
		slash = strrchr(dir, '/');
		if (!slash)
			return statfs(".", sf) == 0 && stat(".", st) == 0 ? 0 : -1;
		if (slash == dir)
			return statfs("/", sf) == 0 && stat("/", st) == 0 ? 0 : -1;
		*slash = '\0';
	}
}

const char *pseudo_fs_of(const char *path)
{
	struct stat st, dev;
	struct statfs sf;

	if (stat_nearest(path, &sf, &st) < 0)
		return NULL;	/* nothing on the way exists: creating it fails anyway */
	for (size_t i = 0; i < ARRAY_SIZE(pseudo); i++)
		if (sf.f_type == pseudo[i].magic)
			return pseudo[i].name;
	/* devtmpfs says it is tmpfs: it is the file system of /dev itself */
	if (stat("/dev", &dev) == 0 && st.st_dev == dev.st_dev)
		return "devtmpfs (/dev)";
	return NULL;
}
