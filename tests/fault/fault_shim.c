/*
 * Fault injection for tests, loaded into iojob with LD_PRELOAD: chosen system calls, or the
 * completions that libaio and io_uring hand back, fail with an errno or move fewer bytes.
 *
 * IOJOB_FAULT=SPEC[,SPEC...] with SPEC = CALL:FAULT[:NTH[:COUNT]]
 *   CALL   pread pwrite read write preadv2 pwritev2 fallocate readv writev preadv pwritev
 *          splice: those calls (splice on the file's side of the pipe); mmap msync: mapping
 *          a file, and syncing a mapping (errors only);
 *          io_submit io_getevents uring_submit: the call itself fails (nothing submitted
 *          or reaped), or with "short" submits half of what it was given;
 *          aio_read aio_write uring_read uring_write: the completions of reads or writes
 *          that io_getevents or io_uring return, whose result is changed;
 *          io_setup uring_init: making an engine's context or ring fails (as when
 *          /proc/sys/fs/aio-max-nr is used up or io_uring is disabled)
 *          ftruncate: that call; create (open with O_CREAT), stat, lstat, statx, unlink,
 *          mkdir, rmdir: calls on paths, made by a job's thread (never the main thread,
 *          whose lookups and layout come before any I/O)
 *   FAULT  an errno name (EIO, ENOSPC, EAGAIN, ...) or number, or "short": half the bytes
 *          (whole 512-byte sectors when there are at least 1024; 512 are left alone);
 *          a "short" fallocate succeeds having done nothing, as a device that ignores
 *          a discard; "flip" (pread alone): the read is made, then the last byte it read is
 *          inverted, as a medium that returns corrupt data; "lost" (pwrite alone): the
 *          write reports every byte written and writes none, as a device that loses a
 *          write; or "slowMS": the call waits MS milliseconds, then runs as it would
 *          have (a slow I/O, for max_latency); for io_getevents alone, "depthUS": the call
 *          waits US microseconds for each I/O in flight (submitted by io_submit and not yet
 *          returned), so that an I/O's latency grows with the queue depth
 *          (latency_target); or "driftUS": the call waits US microseconds for each second
 *          since the spec's first hit (a device that slows down steadily, for steadystate)
 *   NTH    the first matching call it hits, counting from 1 (default 1)
 *   COUNT  how many matching calls in a row it hits (default 1; 0: every one from NTH on)
 * IOJOB_FAULT_PATH=TEXT  only calls on files whose path contains TEXT count; without it,
 *          calls on regular files and block devices (never pipes, terminals, /dev/null,
 *          nor /proc's files)
 * IOJOB_FAULT_LOG=FILE   written at exit: "CALL FAULT calls=N hits=M", one line per SPEC;
 *          a depth spec's adds " max_inflight=K", the most I/Os libaio had in flight at once
 *
 * This file reads the spec and wraps the system calls and libaio; fault_uring.c wraps
 * liburing.
 */
#undef _FILE_OFFSET_BITS
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "config.h"

#if HAVE_LIBAIO
#include <libaio.h>
#endif

#include "fault_shim.h"

#define MAX_FAULTS	16
#define MAX_IOV		64

static const char *const call_names[C_NCALLS] = {
	"pread", "pwrite", "read", "write", "preadv2", "pwritev2", "fallocate",
	"io_submit", "io_getevents", "uring_submit",
	"aio_read", "aio_write", "uring_read", "uring_write", "io_setup", "uring_init",
	"readv", "writev", "preadv", "pwritev", "splice", "mmap", "msync",
	"ftruncate", "create", "stat", "lstat", "statx", "unlink", "mkdir", "rmdir",
};

static const struct {
	const char *name;
	int err;
} errnos[] = {
	{ "EIO", EIO }, { "ENOSPC", ENOSPC }, { "EAGAIN", EAGAIN }, { "EINTR", EINTR },
	{ "ENOMEM", ENOMEM }, { "EINVAL", EINVAL }, { "EBADF", EBADF }, { "EFBIG", EFBIG },
	{ "EROFS", EROFS }, { "ENXIO", ENXIO }, { "ENODEV", ENODEV }, { "EBUSY", EBUSY },
	{ "EPERM", EPERM }, { "ETIMEDOUT", ETIMEDOUT }, { "ECANCELED", ECANCELED },
	{ "ENOENT", ENOENT }, { "EACCES", EACCES }, { "EEXIST", EEXIST },
};

struct fault {
	enum fault_call call;
	int err;		/* errno, or 0 for a short transfer or a slow call */
	bool flip;		/* the data read comes back with its last byte inverted */
	bool lost;		/* the write reports success and writes nothing */
	unsigned long slow_ms;	/* a slow call: how long it waits */
	unsigned long depth_us;	/* depthUS: the wait per I/O in flight */
	unsigned long drift_us;	/* a drifting one: how much longer per second */
	struct timespec first;	/* a drifting one: its first hit */
	char what[16];		/* FAULT as written */
	unsigned long nth, count;
	unsigned long calls, hits;
};

static struct fault faults[MAX_FAULTS];
static unsigned nfaults;
static bool wanted[C_NCALLS];
static const char *path_filter;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long aio_inflight, aio_inflight_max;	/* libaio's I/Os submitted, not yet reaped */

static ssize_t (*real_pread)(int, void *, size_t, off_t);
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_preadv2)(int, const struct iovec *, int, off_t, int);
static ssize_t (*real_pwritev2)(int, const struct iovec *, int, off_t, int);
static int (*real_fallocate)(int, int, off_t, off_t);
static ssize_t (*real_readv)(int, const struct iovec *, int);
static ssize_t (*real_writev)(int, const struct iovec *, int);
static ssize_t (*real_preadv)(int, const struct iovec *, int, off_t);
static ssize_t (*real_pwritev)(int, const struct iovec *, int, off_t);
static ssize_t (*real_splice)(int, loff_t *, int, loff_t *, size_t, unsigned);
static int (*real_msync)(void *, size_t, int);
static int (*real_ftruncate)(int, off_t);
static int (*real_open)(const char *, int, ...);
static int (*real_stat)(const char *, struct stat *);
static int (*real_lstat)(const char *, struct stat *);
static int (*real_stat64)(const char *, struct stat64 *);
static int (*real_lstat64)(const char *, struct stat64 *);
static int (*real_statx)(int, const char *, int, unsigned, struct statx *);
static int (*real_unlink)(const char *);
static int (*real_mkdir)(const char *, mode_t);
static int (*real_rmdir)(const char *);

static void die(const char *what, const char *spec)
{
	fprintf(stderr, "fault_shim: %s in IOJOB_FAULT: '%s'\n", what, spec);
	_exit(125);
}

static int parse_errno(const char *s)
{
	char *end;
	long v;

	for (size_t i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++)
		if (!strcmp(s, errnos[i].name))
			return errnos[i].err;
	v = strtol(s, &end, 10);
	return *s && !*end && v > 0 && v < 4096 ? (int)v : -1;
}

static void parse_spec(char *spec)
{
	char *save, *call = strtok_r(spec, ":", &save), *what = strtok_r(NULL, ":", &save);
	char *nth = strtok_r(NULL, ":", &save), *count = strtok_r(NULL, ":", &save);
	struct fault *f = &faults[nfaults];
	int c;

	if (!call || !what || nfaults == MAX_FAULTS)
		die("a spec is not CALL:FAULT[:NTH[:COUNT]]", spec);
	for (c = 0; c < C_NCALLS && strcmp(call, call_names[c]); c++)
		;
	if (c == C_NCALLS)
		die("unknown call", call);
	f->call = (enum fault_call)c;
	if (!strncmp(what, "slow", 4)) {
		char *end;

		f->slow_ms = strtoul(what + 4, &end, 10);
		if (!f->slow_ms || *end)
			die("slow takes milliseconds above 0 (slow50)", what);
	} else if (!strncmp(what, "depth", 5)) {
		char *end;

		f->depth_us = strtoul(what + 5, &end, 10);
		if (!f->depth_us || *end || f->call != C_IO_GETEVENTS)
			die("depth takes microseconds above 0, on io_getevents (depth500)", what);
	} else if (!strncmp(what, "drift", 5)) {
		char *end;

		f->drift_us = strtoul(what + 5, &end, 10);
		if (!f->drift_us || *end)
			die("drift takes microseconds above 0 (drift1000)", what);
	} else if (!strcmp(what, "flip")) {
		f->flip = true;
		if (f->call != C_PREAD)
			die("flip is for pread", what);
	} else if (!strcmp(what, "lost")) {
		f->lost = true;
		if (f->call != C_PWRITE)
			die("lost is for pwrite", what);
	} else {
		f->err = strcmp(what, "short") ? parse_errno(what) : 0;
	}
	if (f->err < 0)
		die("unknown fault (an errno name or number, short, flip, lost, slowMS or driftUS)",
		    what);
	snprintf(f->what, sizeof(f->what), "%s", what);
	f->nth = nth ? strtoul(nth, NULL, 10) : 1;
	f->count = count ? strtoul(count, NULL, 10) : 1;
	if (!f->nth)
		die("NTH counts from 1", spec);
	wanted[c] = true;
	nfaults++;
}

/* The next definitions of what this file wraps; a wrapper may run before the constructor. */
static void resolve(void)
{
	real_pread = (ssize_t (*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread");
	real_pwrite = (ssize_t (*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
	real_read = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	real_write = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	real_preadv2 = (ssize_t (*)(int, const struct iovec *, int, off_t, int))
		       dlsym(RTLD_NEXT, "preadv2");
	real_pwritev2 = (ssize_t (*)(int, const struct iovec *, int, off_t, int))
			dlsym(RTLD_NEXT, "pwritev2");
	real_fallocate = (int (*)(int, int, off_t, off_t))dlsym(RTLD_NEXT, "fallocate");
	real_readv = (ssize_t (*)(int, const struct iovec *, int))dlsym(RTLD_NEXT, "readv");
	real_writev = (ssize_t (*)(int, const struct iovec *, int))dlsym(RTLD_NEXT, "writev");
	real_preadv = (ssize_t (*)(int, const struct iovec *, int, off_t))
		      dlsym(RTLD_NEXT, "preadv");
	real_pwritev = (ssize_t (*)(int, const struct iovec *, int, off_t))
		       dlsym(RTLD_NEXT, "pwritev");
	real_splice = (ssize_t (*)(int, loff_t *, int, loff_t *, size_t, unsigned))
		      dlsym(RTLD_NEXT, "splice");
	real_msync = (int (*)(void *, size_t, int))dlsym(RTLD_NEXT, "msync");
	real_ftruncate = (int (*)(int, off_t))dlsym(RTLD_NEXT, "ftruncate");
	real_open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	real_stat = (int (*)(const char *, struct stat *))dlsym(RTLD_NEXT, "stat");
	real_lstat = (int (*)(const char *, struct stat *))dlsym(RTLD_NEXT, "lstat");
	real_stat64 = (int (*)(const char *, struct stat64 *))dlsym(RTLD_NEXT, "stat64");
	real_lstat64 = (int (*)(const char *, struct stat64 *))dlsym(RTLD_NEXT, "lstat64");
	real_statx = (int (*)(int, const char *, int, unsigned, struct statx *))
		     dlsym(RTLD_NEXT, "statx");
	real_unlink = (int (*)(const char *))dlsym(RTLD_NEXT, "unlink");
	real_mkdir = (int (*)(const char *, mode_t))dlsym(RTLD_NEXT, "mkdir");
	real_rmdir = (int (*)(const char *))dlsym(RTLD_NEXT, "rmdir");
}

__attribute__((constructor)) static void fault_init(void)
{
	const char *env = getenv("IOJOB_FAULT");
	char *specs, *spec, *save;

	if (!real_pread)
		resolve();
	path_filter = getenv("IOJOB_FAULT_PATH");
	if (!env || !*env)
		return;
	specs = strdup(env);
	if (!specs)
		die("out of memory", env);
	for (spec = strtok_r(specs, ",", &save); spec; spec = strtok_r(NULL, ",", &save))
		parse_spec(spec);
	free(specs);
}

__attribute__((destructor)) static void fault_report(void)
{
	const char *path = getenv("IOJOB_FAULT_LOG");
	FILE *f;

	if (!path || !(f = fopen(path, "we")))
		return;
	for (unsigned i = 0; i < nfaults; i++) {
		fprintf(f, "%s %s calls=%lu hits=%lu", call_names[faults[i].call],
			faults[i].what, faults[i].calls, faults[i].hits);
		if (faults[i].depth_us)
			fprintf(f, " max_inflight=%ld", aio_inflight_max);
		fputc('\n', f);
	}
	fclose(f);
}

/* Whether calls on fd count: the path filter, or a regular file or a block device. */
static bool fd_counts(int fd)
{
	char link[64], path[PATH_MAX];
	struct statfs fs;
	struct stat st;
	ssize_t n;

	if (fd == FAULT_ANY_FD)
		return true;
	if (!path_filter)	/* not /proc's files: iojob reads its own pagemap, for one */
		return fstat(fd, &st) == 0 && (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)) &&
		       !(fstatfs(fd, &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 0)
		return false;
	path[n] = '\0';
	return strstr(path, path_filter) != NULL;
}

/* A slow call's wait, outside the lock: other threads' calls go on meanwhile. */
static void wait_ns(unsigned long long ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ULL), (long)(ns % 1000000000ULL) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* A drifting fault's wait now: drift_us for each second since its first hit. */
static unsigned long long drift_ns(struct fault *f)
{
	struct timespec now;
	unsigned long long since;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (f->hits == 1)
		f->first = now;
	since = (unsigned long long)(now.tv_sec - f->first.tv_sec) * 1000000000ULL +
		(unsigned long long)(now.tv_nsec - f->first.tv_nsec);
	return since / 1000 * f->drift_us / 1000000ULL * 1000ULL;
}

int fault_hit(enum fault_call call, int fd)
{
	unsigned long long slow_ns = 0;
	int ret = 0;

	if (!real_pread)
		resolve();
	if (!wanted[call] || !fd_counts(fd))
		return 0;
	pthread_mutex_lock(&lock);
	for (unsigned i = 0; i < nfaults; i++) {
		struct fault *f = &faults[i];

		if (f->call != call)
			continue;
		f->calls++;
		if (ret || slow_ns || f->calls < f->nth ||
		    (f->count && f->calls >= f->nth + f->count))
			continue;
		f->hits++;
		if (f->slow_ms)
			slow_ns = f->slow_ms * 1000000ULL;
		else if (f->depth_us)
			slow_ns = f->depth_us * (unsigned long long)aio_inflight * 1000ULL;
		else if (f->drift_us)
			slow_ns = drift_ns(f);
		else if (f->flip)
			ret = FAULT_FLIP;
		else if (f->lost)
			ret = FAULT_LOST;
		else
			ret = f->err ? f->err : FAULT_SHORT;
	}
	pthread_mutex_unlock(&lock);
	if (slow_ns)
		wait_ns(slow_ns);
	return ret;
}

size_t fault_shorter(size_t n)
{
	if (n >= 1024)
		return (n / 2) & ~(size_t)511;
	return n > 1 && n % 512 ? n / 2 : n;
}

/* --- plain system calls ------------------------------------------------------------------ */

static ssize_t do_pread(int fd, void *buf, size_t n, off_t off)
{
	int f = fault_hit(C_PREAD, fd);
	ssize_t got;

	if (f > 0) {
		errno = f;
		return -1;
	}
	got = real_pread(fd, buf, f == FAULT_SHORT ? fault_shorter(n) : n, off);
	if (f == FAULT_FLIP && got > 0)
		((unsigned char *)buf)[got - 1] ^= 0xff;
	return got;
}

static ssize_t do_pwrite(int fd, const void *buf, size_t n, off_t off)
{
	int f = fault_hit(C_PWRITE, fd);

	if (f > 0) {
		errno = f;
		return -1;
	}
	if (f == FAULT_LOST)
		return (ssize_t)n;
	return real_pwrite(fd, buf, f == FAULT_SHORT ? fault_shorter(n) : n, off);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	return do_pread(fd, buf, n, off);
}

ssize_t pread64(int fd, void *buf, size_t n, off_t off)
{
	return do_pread(fd, buf, n, off);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	return do_pwrite(fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off)
{
	return do_pwrite(fd, buf, n, off);
}

ssize_t read(int fd, void *buf, size_t n)
{
	int f = fault_hit(C_READ, fd);

	if (f > 0) {
		errno = f;
		return -1;
	}
	return real_read(fd, buf, f == FAULT_SHORT ? fault_shorter(n) : n);
}

ssize_t write(int fd, const void *buf, size_t n)
{
	int f = fault_hit(C_WRITE, fd);

	if (f > 0) {
		errno = f;
		return -1;
	}
	return real_write(fd, buf, f == FAULT_SHORT ? fault_shorter(n) : n);
}

/* The first iovecs of iov that hold half its bytes, in out; their count. */
static int shorter_iov(const struct iovec *iov, int cnt, struct iovec *out)
{
	size_t total = 0, want;
	int n = 0;

	for (int i = 0; i < cnt && i < MAX_IOV; i++)
		total += iov[i].iov_len;
	want = fault_shorter(total);
	for (; n < cnt && n < MAX_IOV && want; n++) {
		out[n] = iov[n];
		if (out[n].iov_len > want)
			out[n].iov_len = want;
		want -= out[n].iov_len;
	}
	return n;
}

/* The vectored calls: a short one moves the first half of the vector's bytes. */
static ssize_t do_vec(enum fault_call call, int fd, const struct iovec *iov, int cnt, off_t off,
		      int flags)
{
	struct iovec part[MAX_IOV];
	int f = fault_hit(call, fd);

	if (f > 0) {
		errno = f;
		return -1;
	}
	if (f == FAULT_SHORT && cnt > 0) {
		cnt = shorter_iov(iov, cnt, part);
		iov = part;
	}
	switch (call) {
	case C_READV:
		return real_readv(fd, iov, cnt);
	case C_WRITEV:
		return real_writev(fd, iov, cnt);
	case C_PREADV:
		return real_preadv(fd, iov, cnt, off);
	case C_PWRITEV:
		return real_pwritev(fd, iov, cnt, off);
	case C_PREADV2:
		return real_preadv2(fd, iov, cnt, off, flags);
	default:
		return real_pwritev2(fd, iov, cnt, off, flags);
	}
}

ssize_t preadv2(int fd, const struct iovec *iov, int cnt, off_t off, int flags)
{
	return do_vec(C_PREADV2, fd, iov, cnt, off, flags);
}

ssize_t preadv64v2(int fd, const struct iovec *iov, int cnt, off_t off, int flags)
{
	return do_vec(C_PREADV2, fd, iov, cnt, off, flags);
}

ssize_t pwritev2(int fd, const struct iovec *iov, int cnt, off_t off, int flags)
{
	return do_vec(C_PWRITEV2, fd, iov, cnt, off, flags);
}

ssize_t pwritev64v2(int fd, const struct iovec *iov, int cnt, off_t off, int flags)
{
	return do_vec(C_PWRITEV2, fd, iov, cnt, off, flags);
}

ssize_t readv(int fd, const struct iovec *iov, int cnt)
{
	return do_vec(C_READV, fd, iov, cnt, 0, 0);
}

ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
	return do_vec(C_WRITEV, fd, iov, cnt, 0, 0);
}

ssize_t preadv(int fd, const struct iovec *iov, int cnt, off_t off)
{
	return do_vec(C_PREADV, fd, iov, cnt, off, 0);
}

ssize_t preadv64(int fd, const struct iovec *iov, int cnt, off_t off)
{
	return do_vec(C_PREADV, fd, iov, cnt, off, 0);
}

ssize_t pwritev(int fd, const struct iovec *iov, int cnt, off_t off)
{
	return do_vec(C_PWRITEV, fd, iov, cnt, off, 0);
}

ssize_t pwritev64(int fd, const struct iovec *iov, int cnt, off_t off)
{
	return do_vec(C_PWRITEV, fd, iov, cnt, off, 0);
}

/* The file's side is the one with an offset: the other is the pipe. */
ssize_t splice(int fd_in, loff_t *off_in, int fd_out, loff_t *off_out, size_t n,
	       unsigned flags)
{
	int f;

	if (!real_splice)
		resolve();
	f = fault_hit(C_SPLICE, off_out ? fd_out : fd_in);
	if (f > 0) {
		errno = f;
		return -1;
	}
	return real_splice(fd_in, off_in, fd_out, off_out, f == FAULT_SHORT ? fault_shorter(n) : n,
			   flags);
}

/*
 * Only mappings of files count; the real call is the system call itself, so that this
 * wrapper never needs the loader (which maps memory) to find it.
 */
static void *do_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	int f = fd >= 0 ? fault_hit(C_MMAP, fd) : 0;

	if (f > 0) {
		errno = f;
		return MAP_FAILED;
	}
	return (void *)syscall(SYS_mmap, addr, len, prot, flags, fd, off);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return do_mmap(addr, len, prot, flags, fd, off);
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return do_mmap(addr, len, prot, flags, fd, off);
}

int msync(void *addr, size_t len, int flags)
{
	int f = fault_hit(C_MSYNC, FAULT_ANY_FD);

	if (f > 0) {
		errno = f;
		return -1;
	}
	return real_msync(addr, len, flags);
}

/* "short": success without acting (a hole not punched, a discard a device ignored). */
static int do_fallocate(int fd, int mode, off_t off, off_t len)
{
	int f = fault_hit(C_FALLOCATE, fd);

	if (f > 0) {
		errno = f;
		return -1;
	}
	if (f == FAULT_SHORT)
		return 0;
	return real_fallocate(fd, mode, off, len);
}

int fallocate(int fd, int mode, off_t off, off_t len)
{
	return do_fallocate(fd, mode, off, len);
}

int fallocate64(int fd, int mode, off_t off, off_t len)
{
	return do_fallocate(fd, mode, off, len);
}

static int do_ftruncate(int fd, off_t len)
{
	int f = fault_hit(C_FTRUNCATE, fd);

	if (f > 0) {
		errno = f;
		return -1;
	}
	return real_ftruncate(fd, len);
}

int ftruncate(int fd, off_t len)
{
	return do_ftruncate(fd, len);
}

int ftruncate64(int fd, off_t len)
{
	return do_ftruncate(fd, len);
}

/* --- calls on paths, from a job's thread ------------------------------------------------- */

/* The errno to fail a call on path with, or 0; errors only (short means nothing here). */
static int path_hit(enum fault_call call, const char *path)
{
	int f;

	if (!real_pread)
		resolve();
	if (!wanted[call] || syscall(SYS_gettid) == getpid())
		return 0;
	if (path_filter && !strstr(path, path_filter))
		return 0;
	f = fault_hit(call, FAULT_ANY_FD);
	if (f > 0)
		errno = f;
	return f > 0 ? f : 0;
}

static int do_open(const char *path, int flags, mode_t mode)
{
	if (!real_pread)
		resolve();
	if ((flags & O_CREAT) && path_hit(C_CREATE, path))
		return -1;
	return real_open(path, flags, mode);
}

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return do_open(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return do_open(path, flags, mode);
}

int stat(const char *path, struct stat *st)
{
	return path_hit(C_STAT, path) ? -1 : real_stat(path, st);
}

int lstat(const char *path, struct stat *st)
{
	return path_hit(C_LSTAT, path) ? -1 : real_lstat(path, st);
}

int stat64(const char *path, struct stat64 *st)
{
	return path_hit(C_STAT, path) ? -1 : real_stat64(path, st);
}

int lstat64(const char *path, struct stat64 *st)
{
	return path_hit(C_LSTAT, path) ? -1 : real_lstat64(path, st);
}

int statx(int dirfd, const char *path, int flags, unsigned mask, struct statx *st)
{
	return path_hit(C_STATX, path) ? -1 : real_statx(dirfd, path, flags, mask, st);
}

int unlink(const char *path)
{
	return path_hit(C_UNLINK, path) ? -1 : real_unlink(path);
}

int mkdir(const char *path, mode_t mode)
{
	return path_hit(C_MKDIR, path) ? -1 : real_mkdir(path, mode);
}

int rmdir(const char *path)
{
	return path_hit(C_RMDIR, path) ? -1 : real_rmdir(path);
}

/* --- libaio ------------------------------------------------------------------------------ */

#if HAVE_LIBAIO
/* libaio's I/Os in flight, counted for depthUS, and the most there were. */
static void inflight_add(long n)
{
	pthread_mutex_lock(&lock);
	aio_inflight += n;
	if (aio_inflight > aio_inflight_max)
		aio_inflight_max = aio_inflight;
	pthread_mutex_unlock(&lock);
}

int io_setup(int nr, io_context_t *ctx)
{
	static int (*real)(int, io_context_t *);
	int f = fault_hit(C_IO_SETUP, FAULT_ANY_FD);

	if (!real)
		real = (int (*)(int, io_context_t *))dlsym(RTLD_NEXT, "io_setup");
	if (f > 0)
		return -f;	/* libaio returns -errno */
	return real(nr, ctx);
}

int io_submit(io_context_t ctx, long nr, struct iocb **iocbs)
{
	static int (*real)(io_context_t, long, struct iocb **);
	int f = fault_hit(C_IO_SUBMIT, nr > 0 ? iocbs[0]->aio_fildes : FAULT_ANY_FD), n;

	if (!real)
		real = (int (*)(io_context_t, long, struct iocb **))dlsym(RTLD_NEXT, "io_submit");
	if (f > 0)
		return -f;	/* libaio returns -errno */
	if (f == FAULT_SHORT && nr > 1)
		nr /= 2;
	n = real(ctx, nr, iocbs);
	if (n > 0)
		inflight_add(n);
	return n;
}

int io_getevents(io_context_t ctx, long min_nr, long nr, struct io_event *events,
		 struct timespec *timeout)
{
	static int (*real)(io_context_t, long, long, struct io_event *, struct timespec *);
	int f = fault_hit(C_IO_GETEVENTS, FAULT_ANY_FD), n;

	if (!real)
		real = (int (*)(io_context_t, long, long, struct io_event *, struct timespec *))
		       dlsym(RTLD_NEXT, "io_getevents");
	if (f > 0)
		return -f;
	n = real(ctx, min_nr, nr, events, timeout);
	if (n > 0)
		inflight_add(-n);
	for (int i = 0; i < n; i++) {
		struct iocb *cb = events[i].obj;
		long res = (long)events[i].res;

		if (cb->aio_lio_opcode != IO_CMD_PREAD && cb->aio_lio_opcode != IO_CMD_PWRITE)
			continue;
		f = fault_hit(cb->aio_lio_opcode == IO_CMD_PREAD ? C_AIO_READ : C_AIO_WRITE,
			cb->aio_fildes);
		if (f > 0)
			events[i].res = (unsigned long)(long)-f;
		else if (f == FAULT_SHORT && res > 0)
			events[i].res = fault_shorter((size_t)res);
	}
	return n;
}
#endif
