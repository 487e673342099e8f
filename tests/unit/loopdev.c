/*
 * Scratch directories, loop devices and ext4 mounts for tests, always undone; the probes and
 * the start of main() of the programs that need them.
 */
#include "loopdev.h"
#include "test_util.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/loop.h>

struct loopdev_fixture fx;

void loopdev_fail(const char *fmt, ...)
{
	va_list ap;

	if (fx.err[0])
		return;
	va_start(ap, fmt);
	vsnprintf(fx.err, sizeof(fx.err), fmt, ap);
	va_end(ap);
}

int loopdev_run(const char *const argv[], const char *in, char *out, size_t len, bool quiet)
{
	char scratch[256];
	size_t got = 0;
	int pfd[2], status, fd;
	ssize_t n;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -ECHILD;
	}
	if (pid == 0) {
		fd = open(in ? in : "/dev/null", O_RDONLY | O_CLOEXEC);
		if (fd < 0 || dup2(fd, STDIN_FILENO) < 0 || dup2(pfd[1], STDOUT_FILENO) < 0)
			_exit(126);
		if (quiet) {
			fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
			if (fd < 0 || dup2(fd, STDERR_FILENO) < 0)
				_exit(126);
		}
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(pfd[1]);
	while ((n = read(pfd[0], scratch, sizeof(scratch))) > 0) {
		if (out && got + 1 < len) {
			if ((size_t)n > len - 1 - got)
				n = (ssize_t)(len - 1 - got);
			memcpy(out + got, scratch, (size_t)n);
			got += (size_t)n;
		}
	}
	close(pfd[0]);
	if (out && len)
		out[got] = '\0';
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool loopdev_have_tool(const char *name)
{
	char path[PATH_MAX], *dirs, *dir, *save;
	const char *env = getenv("PATH");
	bool found = false;

	dirs = strdup(env ? env : "/usr/bin:/bin");
	if (!dirs)
		return false;
	for (dir = strtok_r(dirs, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		found = access(path, X_OK) == 0;
	}
	free(dirs);
	return found;
}

void loopdev_path_add_sbin(void)
{
	const char *env = getenv("PATH");
	char path[4096];

	snprintf(path, sizeof(path), "%s:/usr/sbin:/sbin", env ? env : "/usr/bin:/bin");
	setenv("PATH", path, 1);
}

int loopdev_make_image(const char *name, off_t bytes, char *path, size_t len)
{
	int fd, ret = 0;

	snprintf(path, len, "%s/%s", fx.dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, bytes) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int loopdev_attach(const char *file, const char *opt, char *dev, size_t len)
{
	const char *argv[6] = { "losetup", "--find", "--show" };
	unsigned i = 3;
	int ret;

	if (opt)
		argv[i++] = opt;
	argv[i] = file;
	ret = loopdev_run(argv, NULL, dev, len, false);
	dev[strcspn(dev, "\n")] = '\0';
	if (ret != 0 || strncmp(dev, "/dev/loop", 9)) {
		dev[0] = '\0';
		return ret < 0 ? ret : -EIO;
	}
	return 0;
}

void loopdev_detach(char *dev)
{
	int fd;

	if (!dev[0])
		return;
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		/* a loop still held (lazy unmount, dm) is set to clear itself when released */
		ioctl(fd, LOOP_CLR_FD, 0);
		close(fd);
	}
	dev[0] = '\0';
}

void loopdev_undo_devices(void)
{
	const char *dm_remove[] = { "dmsetup", "remove", "--retry", fx.dm, NULL };

	if (getpid() != fx.owner)
		return;
	if (fx.swap[0])
		swapoff(fx.swap);
	fx.swap[0] = '\0';
	if (fx.mnt[0] && umount(fx.mnt) < 0)
		umount2(fx.mnt, MNT_DETACH);
	fx.mnt[0] = '\0';
	if (fx.dm[0])
		loopdev_run(dm_remove, NULL, NULL, 0, false);
	fx.dm[0] = '\0';
	fx.dm_dev[0] = '\0';
	loopdev_detach(fx.loop2);
	loopdev_detach(fx.loop);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

void loopdev_remove_tree(const char *dir)
{
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

void loopdev_teardown(void)
{
	loopdev_undo_devices();
	if (getpid() == fx.owner && fx.dir[0])
		loopdev_remove_tree(fx.dir);
	fx.dir[0] = '\0';
	fx.err[0] = '\0';
}

static void on_signal(int sig)
{
	loopdev_undo_devices();
	signal(sig, SIG_DFL);
	raise(sig);
}

void loopdev_install_cleanup(void)
{
	fx.owner = getpid();
	atexit(loopdev_teardown);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
}

bool loopdev_make_dir(const char *base, const char *prefix)
{
	int n;

	if (!base)
		base = getenv("TMPDIR");
	if (!base)
		base = "/tmp";
	n = snprintf(fx.dir, sizeof(fx.dir), "%s/%s-XXXXXX", base, prefix);
	if (n < 0 || (size_t)n >= sizeof(fx.dir)) {
		loopdev_fail("directory '%s' is too long", base);
		fx.dir[0] = '\0';
		return false;
	}
	if (!mkdtemp(fx.dir)) {
		loopdev_fail("mkdtemp '%s': %s", fx.dir, strerror(errno));
		fx.dir[0] = '\0';
		return false;
	}
	return true;
}

bool loopdev_make_loop(const char *name, const char *opt, char *dev, size_t len)
{
	char img[PATH_MAX];
	int ret;

	ret = loopdev_make_image(name, LOOPDEV_IMG_BYTES, img, sizeof(img));
	if (ret == 0)
		ret = loopdev_attach(img, opt, dev, len);
	if (ret < 0)
		loopdev_fail("loop device over '%s': %s", img, strerror(-ret));
	return ret == 0;
}

bool loopdev_make_partitioned_loop(void)
{
	const char *sfdisk[] = { "sfdisk", "-q", NULL, NULL };
	const char *table = "label: dos\nsize=8MiB, type=83\ntype=83\n";
	char img[PATH_MAX], script[PATH_MAX], part[64];
	struct timespec pause = { 0, 20 * 1000 * 1000 };
	FILE *f;
	int i, ret;

	snprintf(script, sizeof(script), "%s/table", fx.dir);
	f = fopen(script, "we");
	if (!f || fputs(table, f) < 0 || fclose(f) != 0) {
		loopdev_fail("write '%s' failed", script);
		return false;
	}
	ret = loopdev_make_image("parted", LOOPDEV_IMG_BYTES, img, sizeof(img));
	if (ret < 0) {
		loopdev_fail("create '%s': %s", img, strerror(-ret));
		return false;
	}
	sfdisk[2] = img;
	if (loopdev_run(sfdisk, script, NULL, 0, false) != 0) {
		loopdev_fail("sfdisk '%s' failed", img);
		return false;
	}
	if (loopdev_attach(img, "--partscan", fx.loop, sizeof(fx.loop)) < 0) {
		loopdev_fail("losetup --partscan '%s' failed", img);
		return false;
	}
	/* the kernel scans the table on attach; devtmpfs may lag behind a little */
	snprintf(part, sizeof(part), "%sp2", fx.loop);
	for (i = 0; i < 50 && access(part, F_OK) < 0; i++)
		nanosleep(&pause, NULL);
	if (access(part, F_OK) < 0) {
		loopdev_fail("no '%s': the kernel found no partitions", part);
		return false;
	}
	return true;
}

bool loopdev_mount_ext4(const char *dev)
{
	const char *mkfs[] = { "mkfs.ext4", "-q", "-F", "-E",
			       "lazy_itable_init=0,lazy_journal_init=0", dev, NULL };
	char mnt[PATH_MAX];

	if (loopdev_run(mkfs, NULL, NULL, 0, false) != 0) {
		loopdev_fail("mkfs.ext4 '%s' failed", dev);
		return false;
	}
	snprintf(mnt, sizeof(mnt), "%s/mnt", fx.dir);
	if (mkdir(mnt, 0700) < 0 || mount(dev, mnt, "ext4", 0, NULL) < 0) {
		loopdev_fail("mount '%s' on '%s': %s", dev, mnt, strerror(errno));
		return false;
	}
	strcpy(fx.mnt, mnt);
	return true;
}

bool loopdev_probe(const char *base, const char *prefix, char *why, size_t len)
{
	bool ok = loopdev_make_dir(base, prefix) &&
		  loopdev_make_loop("probe", NULL, fx.loop, sizeof(fx.loop));

	if (!ok)
		snprintf(why, len, "%s", fx.err);
	loopdev_teardown();
	return ok;
}

bool loopdev_probe_partitions(const char *prefix)
{
	bool ok;

	if (!loopdev_have_tool("sfdisk")) {
		test_skipping("partition tests", "sfdisk not found (package fdisk)");
		return false;
	}
	ok = loopdev_make_dir(NULL, prefix) && loopdev_make_partitioned_loop();
	if (!ok)
		test_skipping("partition tests", fx.err);
	loopdev_teardown();
	return ok;
}

/* The package that brings a tool, for the skip message. */
static const char *package_of(const char *tool)
{
	static const char *const packages[][2] = {
		{ "losetup", "mount" }, { "mkfs.ext4", "e2fsprogs" }, { "sfdisk", "fdisk" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(packages); i++)
		if (!strcmp(packages[i][0], tool))
			return packages[i][1];
	return "?";
}

static int skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Say why the whole program is skipped, for meson's log and tests/run.sh's summary. */
static int skip(const char *fmt, ...)
{
	va_list ap;

	printf("%s: skipped: ", program_invocation_short_name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return TEST_SKIP;
}

int loopdev_start(const char *prefix, const char *const tools[])
{
	char why[sizeof(fx.err)];

	setvbuf(stdout, NULL, _IONBF, 0);
	loopdev_path_add_sbin();
	if (geteuid() != 0)
		return skip("needs root for loop devices");
	if (!loopdev_have_tool("losetup"))
		return skip("%s not found (package %s)", "losetup", package_of("losetup"));
	for (; tools && *tools; tools++)
		if (!loopdev_have_tool(*tools))
			return skip("%s not found (package %s)", *tools, package_of(*tools));
	loopdev_install_cleanup();
	if (!loopdev_probe(NULL, prefix, why, sizeof(why)))
		return skip("no loop device: %s", why);
	return 0;
}
