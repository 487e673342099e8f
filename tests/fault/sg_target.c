/*
 * A SCSI target emulator for the sg engine's tests, loaded with LD_PRELOAD into iojob or
 * fio: regular files named in the environment look like SCSI devices (stat, fstat, statx
 * say so) and serve SG_IO ioctls, and as sg character devices the sg v3 write()/read() of
 * struct sg_io_hdr, against the file's own bytes. Every CDB is logged; faults are injected.
 *
 * IOJOB_SG_TARGET=PATH[:PATH...]  the files to emulate (matched by device and inode)
 * IOJOB_SG_TYPE=chr|blk   an sg character device (default) or a block device (SG_IO on
 *                        it, BLKSSZGET, BLKGETSIZE64; its read()/write() move data as usual)
 * IOJOB_SG_LBS=N          logical block size (default 512)
 * IOJOB_SG_BLOCKS=N       capacity in blocks (default: the file's size); beyond the file's
 *                        end reads give zeros and writes extend it (sparse)
 * IOJOB_SG_REORDER=1      read() hands back the newest completion first, not the oldest
 * IOJOB_SG_LOG=FILE       appended: one line per command, "cdb via=... op=.. lba=.."
 * IOJOB_SG_FAULT=SPEC[,SPEC...] with SPEC = CMD:FAULT[:NTH[:COUNT]]
 *   CMD    read write verify unmap sync rcap10 rcap16 stream any (write: WRITE, WRITE AND
 *          VERIFY, WRITE SAME, WRITE STREAM)
 *   FAULT  sense-K-ASC-ASCQ (hex: CHECK CONDITION with fixed-format sense), host-N,
 *          driver-N (host or driver status, hex), resid (half the blocks move, the rest is
 *          the residual count), or an errno name or number (the call itself fails)
 *   NTH, COUNT as the fault shim's: from the NTH matching command, COUNT of them (0: all)
 */
#undef _FILE_OFFSET_BITS
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <pthread.h>
#include <scsi/sg.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sg_target.h"

#define MAX_TARGETS	8
#define MAX_FAULTS	16
#define SG_VERSION	30536		/* what SG_GET_VERSION_NUM answers: sg 3.5.36 */
#define HIPRI_FLAG	0x800		/* SGV4_FLAG_HIPRI */

struct pending {
	int fd;
	struct sg_io_hdr *v;		/* completed, not yet read */
	unsigned n, cap;
};

struct fault {
	char cmd[8];
	int err;			/* errno for the call, or 0 */
	int key, asc, ascq;		/* sense, key >= 0 */
	int host, driver;
	bool resid;
	unsigned long nth, count, calls;
};

static struct target targets[MAX_TARGETS];
static unsigned ntargets;
static bool as_blk;
static bool reorder;
static unsigned lbs = 512;
static FILE *log_file;
static struct fault faults[MAX_FAULTS];
static unsigned nfaults;
static struct pending *pend;
static unsigned npend;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint16_t next_stream = 1;

static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_write)(int, const void *, size_t);
static int (*real_ioctl)(int, unsigned long, ...);
static int (*real_close)(int);

static void die(const char *what, const char *arg)
{
	fprintf(stderr, "sg_target: %s: '%s'\n", what, arg);
	_exit(125);
}

static void resolve(void)
{
	real_read = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	real_write = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	real_ioctl = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
}

static int raw_fstat(int fd, struct stat *st)
{
	return (int)syscall(SYS_fstat, fd, st);
}

static int raw_stat(const char *path, struct stat *st, bool follow)
{
	return (int)syscall(SYS_newfstatat, AT_FDCWD, path, st, follow ? 0 : AT_SYMLINK_NOFOLLOW);
}

static void parse_fault(char *spec)
{
	char *save, *cmd = strtok_r(spec, ":", &save), *what = strtok_r(NULL, ":", &save);
	char *nth = strtok_r(NULL, ":", &save), *count = strtok_r(NULL, ":", &save);
	struct fault *f = &faults[nfaults];

	if (!cmd || !what || nfaults == MAX_FAULTS)
		die("a fault is not CMD:FAULT[:NTH[:COUNT]]", spec);
	snprintf(f->cmd, sizeof(f->cmd), "%s", cmd);
	f->key = -1;
	if (sscanf(what, "sense-%x-%x-%x", (unsigned *)&f->key, (unsigned *)&f->asc,
		   (unsigned *)&f->ascq) == 3)
		;
	else if (sscanf(what, "host-%x", (unsigned *)&f->host) == 1)
		f->key = -1;
	else if (sscanf(what, "driver-%x", (unsigned *)&f->driver) == 1)
		f->key = -1;
	else if (!strcmp(what, "resid"))
		f->resid = true;
	else if (!(f->err = sg_target_errno(what)))
		die("unknown fault", what);
	f->nth = nth ? strtoul(nth, NULL, 10) : 1;
	f->count = count ? strtoul(count, NULL, 10) : 1;
	nfaults++;
}

static void add_target(const char *path)
{
	struct target *t = &targets[ntargets];
	struct stat st;
	const char *blocks = getenv("IOJOB_SG_BLOCKS");

	if (ntargets == MAX_TARGETS)
		die("too many targets", path);
	if (raw_stat(path, &st, true) < 0 || !S_ISREG(st.st_mode))
		die("a target must be an existing regular file", path);
	t->dev = st.st_dev;
	t->ino = st.st_ino;
	/* its own descriptor: the job's may be O_DIRECT, or read-only */
	t->fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDWR | O_CLOEXEC);
	if (t->fd < 0)
		die("cannot open the target", path);
	t->lbs = lbs;
	t->blocks = blocks ? strtoull(blocks, NULL, 10) : (uint64_t)st.st_size / lbs;
	ntargets++;
}

__attribute__((constructor)) static void sg_target_init(void)
{
	const char *paths = getenv("IOJOB_SG_TARGET"), *v;
	char *copy, *p, *save;

	if (!real_read)
		resolve();
	if (!paths || !*paths)
		return;
	as_blk = (v = getenv("IOJOB_SG_TYPE")) && !strcmp(v, "blk");
	reorder = (v = getenv("IOJOB_SG_REORDER")) && !strcmp(v, "1");
	if ((v = getenv("IOJOB_SG_LBS")))
		lbs = (unsigned)strtoul(v, NULL, 10);
	if (lbs < 512 || lbs & (lbs - 1))
		die("IOJOB_SG_LBS must be a power of two of at least 512", v);
	if ((v = getenv("IOJOB_SG_LOG")) && !(log_file = fopen(v, "ae")))
		die("cannot open the log", v);
	if (log_file)
		setvbuf(log_file, NULL, _IOLBF, 0);
	copy = strdup(paths);
	for (p = strtok_r(copy, ":", &save); p; p = strtok_r(NULL, ":", &save))
		add_target(p);
	free(copy);
	if ((v = getenv("IOJOB_SG_FAULT")) && *v) {
		copy = strdup(v);
		for (p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save))
			parse_fault(p);
		free(copy);
	}
}

static struct target *by_stat(const struct stat *st)
{
	for (unsigned i = 0; i < ntargets; i++)
		if (targets[i].dev == st->st_dev && targets[i].ino == st->st_ino)
			return &targets[i];
	return NULL;
}

static struct target *by_fd(int fd)
{
	struct stat st;

	if (!ntargets || fd < 0 || raw_fstat(fd, &st) < 0)
		return NULL;
	return by_stat(&st);
}

/* --- what the device looks like ---------------------------------------------------------- */

/* sg's major is 21; 8 is sd's. Minors far above any real device's. */
static dev_t fake_rdev(void)
{
	return as_blk ? makedev(8, 4000) : makedev(21, 4000);
}

static void disguise(struct stat *st)
{
	if (!by_stat(st))
		return;
	st->st_mode = (st->st_mode & 07777) | (as_blk ? S_IFBLK : S_IFCHR);
	st->st_rdev = fake_rdev();
	st->st_size = 0;
}

#define STAT_WRAP(name, type, args, call, st)					\
	int name args								\
	{									\
		static int (*real) args;					\
		int ret;							\
										\
		if (!real)							\
			real = (int (*) args)dlsym(RTLD_NEXT, #name);		\
		ret = real call;						\
		if (!ret)							\
			disguise((struct stat *)(st));				\
		return ret;							\
	}

/* glibc's old stat entry points, still called by binaries built before glibc 2.33 */
int __xstat(int v, const char *p, struct stat *s);
int __lxstat(int v, const char *p, struct stat *s);
int __fxstat(int v, int fd, struct stat *s);
int __xstat64(int v, const char *p, struct stat64 *s);
int __lxstat64(int v, const char *p, struct stat64 *s);
int __fxstat64(int v, int fd, struct stat64 *s);

STAT_WRAP(stat, struct stat, (const char *p, struct stat *s), (p, s), s)
STAT_WRAP(lstat, struct stat, (const char *p, struct stat *s), (p, s), s)
STAT_WRAP(fstat, struct stat, (int fd, struct stat *s), (fd, s), s)
STAT_WRAP(fstatat, struct stat, (int d, const char *p, struct stat *s, int fl), (d, p, s, fl), s)
STAT_WRAP(stat64, struct stat64, (const char *p, struct stat64 *s), (p, s), s)
STAT_WRAP(lstat64, struct stat64, (const char *p, struct stat64 *s), (p, s), s)
STAT_WRAP(fstat64, struct stat64, (int fd, struct stat64 *s), (fd, s), s)
STAT_WRAP(fstatat64, struct stat64, (int d, const char *p, struct stat64 *s, int fl),
	  (d, p, s, fl), s)
STAT_WRAP(__xstat, struct stat, (int v, const char *p, struct stat *s), (v, p, s), s)
STAT_WRAP(__lxstat, struct stat, (int v, const char *p, struct stat *s), (v, p, s), s)
STAT_WRAP(__fxstat, struct stat, (int v, int fd, struct stat *s), (v, fd, s), s)
STAT_WRAP(__xstat64, struct stat64, (int v, const char *p, struct stat64 *s), (v, p, s), s)
STAT_WRAP(__lxstat64, struct stat64, (int v, const char *p, struct stat64 *s), (v, p, s), s)
STAT_WRAP(__fxstat64, struct stat64, (int v, int fd, struct stat64 *s), (v, fd, s), s)

int statx(int dirfd, const char *path, int flags, unsigned mask, struct statx *sx)
{
	static int (*real)(int, const char *, int, unsigned, struct statx *);
	struct stat st = { 0 };
	int ret;

	if (!real)
		real = (int (*)(int, const char *, int, unsigned, struct statx *))
		       dlsym(RTLD_NEXT, "statx");
	ret = real(dirfd, path, flags, mask, sx);
	if (ret)
		return ret;
	st.st_dev = makedev(sx->stx_dev_major, sx->stx_dev_minor);
	st.st_ino = sx->stx_ino;
	if (!by_stat(&st))
		return 0;
	sx->stx_mode = (uint16_t)((sx->stx_mode & 07777) | (as_blk ? S_IFBLK : S_IFCHR));
	sx->stx_rdev_major = major(fake_rdev());
	sx->stx_rdev_minor = minor(fake_rdev());
	sx->stx_size = 0;
	return 0;
}

/* --- commands ---------------------------------------------------------------------------- */

static bool fault_matches(const struct fault *f, const char *cmd)
{
	return !strcmp(f->cmd, "any") || !strcmp(f->cmd, cmd);
}

/* The fault for this command, if one hits it now. */
static const struct fault *fault_for(const char *cmd)
{
	const struct fault *hit = NULL;

	for (unsigned i = 0; i < nfaults; i++) {
		struct fault *f = &faults[i];

		if (!fault_matches(f, cmd))
			continue;
		f->calls++;
		if (!hit && f->calls >= f->nth && (!f->count || f->calls < f->nth + f->count))
			hit = f;
	}
	return hit;
}

static void log_cmd(const struct sg_io_hdr *h, const struct sg_cmd_info *ci, const char *via,
		    unsigned inflight)
{
	if (!log_file)
		return;
	fprintf(log_file, "cdb via=%s op=%02x sa=%02x b1=%02x lba=%llu blocks=%u len=%u xfer=%u "
		"dir=%d hipri=%d stream=%u ranges=%s inflight=%u result=%s\n", via, ci->op,
		ci->sa, ci->b1, (unsigned long long)ci->lba, ci->blocks, h->cmd_len, h->dxfer_len,
		h->dxfer_direction, !!(h->flags & HIPRI_FLAG), ci->stream,
		ci->ranges[0] ? ci->ranges : "-", inflight, ci->result);
}

/* Run one command on t, filling h's status fields; -errno when the call itself fails. */
static int run_cmd(struct target *t, struct sg_io_hdr *h, const char *via, unsigned inflight)
{
	struct sg_cmd_info ci = { 0 };
	const struct fault *f;
	int ret;

	if (h->interface_id != 'S' || !h->cmdp || h->cmd_len < 6 || h->iovec_count)
		return -EINVAL;
	h->status = h->masked_status = h->host_status = h->driver_status = 0;
	h->msg_status = 0;
	h->sb_len_wr = 0;
	h->resid = 0;
	h->info = 0;
	h->duration = 0;
	sg_cmd_decode(h, &ci);
	f = fault_for(ci.kind);
	if (f && f->err) {
		snprintf(ci.result, sizeof(ci.result), "errno-%d", f->err);
		log_cmd(h, &ci, via, inflight);
		return -f->err;
	}
	if (f && f->key >= 0) {
		sg_cmd_check(h, &ci, f->key, f->asc, f->ascq);
	} else if (f && (f->host || f->driver)) {
		h->host_status = (unsigned short)f->host;
		h->driver_status = (unsigned short)f->driver;
		h->info = SG_INFO_CHECK;
		snprintf(ci.result, sizeof(ci.result), "host-%x-driver-%x", f->host, f->driver);
	} else {
		ret = sg_cmd_exec(t, h, &ci, f && f->resid, &next_stream);
		if (ret < 0)
			return ret;
	}
	log_cmd(h, &ci, via, inflight);
	return 0;
}

static struct pending *pending_of(int fd, bool make)
{
	struct pending *p;

	for (unsigned i = 0; i < npend; i++)
		if (pend[i].fd == fd)
			return &pend[i];
	if (!make)
		return NULL;
	p = realloc(pend, (npend + 1) * sizeof(*pend));
	if (!p)
		return NULL;
	pend = p;
	pend[npend] = (struct pending){ .fd = fd };
	return &pend[npend++];
}

int ioctl(int fd, unsigned long req, ...)
{
	struct target *t;
	void *arg;
	va_list ap;
	int ret = 0;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!real_read)
		resolve();
	t = by_fd(fd);
	if (!t)
		return real_ioctl(fd, req, arg);
	pthread_mutex_lock(&lock);
	switch (req) {
	case SG_IO: {
		struct pending *p = pending_of(fd, false);

		ret = run_cmd(t, arg, "ioctl", p ? p->n : 0);
		break;
	}
	case SG_GET_VERSION_NUM:
		*(int *)arg = SG_VERSION;
		break;
	case BLKSSZGET:
	case BLKPBSZGET:
		*(int *)arg = (int)t->lbs;
		break;
	case BLKGETSIZE64:
		*(uint64_t *)arg = t->blocks * t->lbs;
		break;
	case BLKGETSIZE:
		*(unsigned long *)arg = (unsigned long)(t->blocks * t->lbs >> 9);
		break;
	case BLKFLSBUF:
	case SG_SET_RESERVED_SIZE:
	case SG_SET_TIMEOUT:
		break;
	case BLKROGET:
		*(int *)arg = 0;
		break;
	case SG_GET_RESERVED_SIZE:
		*(int *)arg = 1 << 20;
		break;
	default:
		ret = -ENOTTY;
		break;
	}
	pthread_mutex_unlock(&lock);
	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	return 0;
}

/* sg v3: a write() of a header starts the command; its completion waits for a read(). */
ssize_t write(int fd, const void *buf, size_t n)
{
	struct target *t;
	struct sg_io_hdr h;
	struct pending *p;
	int ret;

	if (!real_read)
		resolve();
	if (as_blk || !(t = by_fd(fd)))
		return real_write(fd, buf, n);
	if (n < sizeof(h)) {
		errno = EINVAL;
		return -1;
	}
	memcpy(&h, buf, sizeof(h));
	pthread_mutex_lock(&lock);
	p = pending_of(fd, true);
	ret = p ? run_cmd(t, &h, "write", p->n + 1) : -ENOMEM;
	if (!ret && p->n == p->cap) {
		struct sg_io_hdr *v = realloc(p->v, (p->cap * 2 + 16) * sizeof(*v));

		if (v) {
			p->v = v;
			p->cap = p->cap * 2 + 16;
		} else {
			ret = -ENOMEM;
		}
	}
	if (!ret)
		p->v[p->n++] = h;
	pthread_mutex_unlock(&lock);
	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	return (ssize_t)n;
}

ssize_t read(int fd, void *buf, size_t n)
{
	struct target *t;
	struct pending *p;
	int flags, err = 0;

	if (!real_read)
		resolve();
	if (as_blk || !(t = by_fd(fd)))
		return real_read(fd, buf, n);
	if (n < sizeof(struct sg_io_hdr)) {
		errno = EINVAL;
		return -1;
	}
	flags = fcntl(fd, F_GETFL);
	pthread_mutex_lock(&lock);
	p = pending_of(fd, false);
	if (p && p->n) {
		unsigned at = reorder ? p->n - 1 : 0;

		memcpy(buf, &p->v[at], sizeof(p->v[at]));
		memmove(&p->v[at], &p->v[at + 1], (p->n - at - 1) * sizeof(p->v[0]));
		p->n--;
	} else if (flags >= 0 && (flags & O_NONBLOCK)) {
		err = EAGAIN;
	} else {
		/* a real sg device would wait for ever: nothing is outstanding */
		fprintf(stderr, "sg_target: read() with no command outstanding blocks for ever\n");
		err = EDEADLK;
	}
	pthread_mutex_unlock(&lock);
	if (err) {
		errno = err;
		return -1;
	}
	return (ssize_t)sizeof(struct sg_io_hdr);
}

/* Completions not read die with the descriptor, as the sg driver drops them. */
int close(int fd)
{
	struct pending *p;

	if (!real_read)
		resolve();
	if (ntargets) {
		pthread_mutex_lock(&lock);
		p = pending_of(fd, false);
		if (p)
			p->n = 0;
		pthread_mutex_unlock(&lock);
	}
	return real_close(fd);
}
