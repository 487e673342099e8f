/*
 * Scratch directories, loop devices and ext4 mounts for the Check programs that need real
 * block devices. What the fixtures make is recorded in fx and undone by loopdev_teardown(),
 * at exit and on SIGINT/SIGTERM/SIGHUP, and only by the process that made it: unchecked
 * fixtures run in the parent, so a test that fails or crashes in its forked child cannot
 * leave a device attached or mounted.
 */
#ifndef TESTS_UNIT_LOOPDEV_H
#define TESTS_UNIT_LOOPDEV_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define LOOPDEV_IMG_BYTES	(16u << 20)	/* size of every image loopdev makes */

/* What the fixtures made; "" for what they did not. */
struct loopdev_fixture {
	pid_t owner;			/* only the process that made them undoes them */
	char dir[256];			/* mkdtemp directory */
	char loop[32], loop2[32];	/* attached loop devices */
	char mnt[PATH_MAX];		/* mounted file system */
	char swap[32];			/* device swapped on */
	char dm[64];			/* device-mapper device name */
	char dm_dev[PATH_MAX];		/* its node, "/dev/dm-N" */
	char err[512];			/* first setup failure, reported by every test */
};

extern struct loopdev_fixture fx;

/* Fail every test of a fixture whose setup failed, saying why. */
#define REQUIRE_FIXTURE() ck_assert_msg(!fx.err[0], "fixture: %s", fx.err)

/* Record the first setup failure (printf-style); later ones are dropped. */
void loopdev_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Run argv[0] (found in PATH) with stdin from in (or /dev/null), stdout in out (or
 * discarded) and stderr discarded if quiet. Returns its exit status, or -errno.
 */
int loopdev_run(const char *const argv[], const char *in, char *out, size_t len, bool quiet);

/* Whether name is an executable in PATH. */
bool loopdev_have_tool(const char *name);

/* Append /usr/sbin and /sbin to PATH: losetup and friends live there. */
void loopdev_path_add_sbin(void);

/* Make the calling process the owner of fx and undo it at exit and on fatal signals. */
void loopdev_install_cleanup(void);

/*
 * mkdtemp "BASE/PREFIX-XXXXXX" into fx.dir; base NULL means $TMPDIR, else /tmp. Returns
 * false (with fx.err set) on failure.
 */
bool loopdev_make_dir(const char *base, const char *prefix);

/* Create fx.dir/name as a sparse file of bytes; its path in path. Returns 0 or -errno. */
int loopdev_make_image(const char *name, off_t bytes, char *path, size_t len);

/* Attach file to a free loop device, with one extra losetup option or none. 0 or -errno. */
int loopdev_attach(const char *file, const char *opt, char *dev, size_t len);

/* Detach dev with LOOP_CLR_FD (no fork: safe in a signal handler) and clear it. */
void loopdev_detach(char *dev);

/* A loop device over a fresh image of LOOPDEV_IMG_BYTES; false with fx.err set. */
bool loopdev_make_loop(const char *name, const char *opt, char *dev, size_t len);

/* A loop device in fx.loop over an image with two DOS partitions (8 MiB and the rest). */
bool loopdev_make_partitioned_loop(void);

/*
 * Make an ext4 file system on dev, with its inode tables and journal written at once so
 * that an idle mount does not change the device, and mount it on fx.dir/mnt (fx.mnt).
 */
bool loopdev_mount_ext4(const char *dev);

/* Undo what the fixtures swapped on, mounted, stacked and attached, newest first. */
void loopdev_undo_devices(void);

/* Remove dir and everything in it, without following links or crossing mounts. */
void loopdev_remove_tree(const char *dir);

/* Undo the devices, remove fx.dir and forget the setup failure. */
void loopdev_teardown(void);

/*
 * Whether a loop device can be made: a scratch directory as loopdev_make_dir(base, prefix)
 * and a loop device in it, undone again. If not, false with the reason in why.
 */
bool loopdev_probe(const char *base, const char *prefix, char *why, size_t len);

/*
 * Whether partitions of a loop device show up (sfdisk and the kernel's partition scan),
 * tried in a scratch directory as loopdev_make_dir(NULL, prefix) and undone. If not, false,
 * having said "skipping partition tests" and why.
 */
bool loopdev_probe_partitions(const char *prefix);

/*
 * The start of main() for a program whose tests all need loop devices: stdout unbuffered,
 * the sbin tools in PATH, root, each of tools (NULL-terminated; losetup is always needed),
 * the cleanup installed and a loop device made and undone as loopdev_probe(NULL, prefix).
 * Returns 0, or TEST_SKIP after printing "PROG: skipped: WHY".
 */
int loopdev_start(const char *prefix, const char *const tools[]);

#endif
