/* blktrace records read into replay entries, the devices they name, and their merge. */
#include "jobs/blktrace.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "engine/devices/path_guard.h"
#include "jobs/replay_log.h"

/* The kernel's blktrace_api.h: the magic, the version and what an action holds. */
#define BT_MAGIC		0x65617400u
#define BT_VERSION		0x07u
#define BT_TC_SHIFT		16
#define BT_TC(c)		((uint32_t)(c) << BT_TC_SHIFT)
#define BT_TC_READ		BT_TC(1 << 0)
#define BT_TC_WRITE		BT_TC(1 << 1)
#define BT_TC_FLUSH		BT_TC(1 << 2)
#define BT_TC_NOTIFY		BT_TC(1 << 10)
#define BT_TC_DISCARD		BT_TC(1 << 13)
#define BT_TA_QUEUE		1
#define BT_TA_BACKMERGE		2
#define BT_TA_FRONTMERGE	3
#define BT_TA_COMPLETE		8
#define BT_DEPTH_MAX		1024	/* fio's cap: stacked devices miss completions */

/* The kernel's dev_t in a trace: 12 bits of major, 20 of minor. */
#define BT_MAJOR(dev)		((unsigned)((dev) >> 20))
#define BT_MINOR(dev)		((unsigned)((dev) & ((1u << 20) - 1)))

struct bt_record {
	uint32_t magic, sequence;
	uint64_t time_ns, sector;
	uint32_t bytes, action, pid, device, cpu;
	uint16_t error, pdu_len;
};

_Static_assert(sizeof(struct bt_record) == BLKTRACE_RECORD_BYTES, "blk_io_trace is 48 bytes");

static void swap_record(struct bt_record *t)
{
	t->magic = __builtin_bswap32(t->magic);
	t->sequence = __builtin_bswap32(t->sequence);
	t->time_ns = __builtin_bswap64(t->time_ns);
	t->sector = __builtin_bswap64(t->sector);
	t->bytes = __builtin_bswap32(t->bytes);
	t->action = __builtin_bswap32(t->action);
	t->pid = __builtin_bswap32(t->pid);
	t->device = __builtin_bswap32(t->device);
	t->cpu = __builtin_bswap32(t->cpu);
	t->error = __builtin_bswap16(t->error);
	t->pdu_len = __builtin_bswap16(t->pdu_len);
}

bool blktrace_detect(const void *buf, size_t n, bool *swap)
{
	uint32_t magic;

	if (n < BLKTRACE_RECORD_BYTES)
		return false;
	memcpy(&magic, buf, sizeof(magic));
	*swap = (magic & 0xffffff00u) != BT_MAGIC;
	if (*swap)
		magic = __builtin_bswap32(magic);
	return (magic & 0xffffff00u) == BT_MAGIC;
}

/* The next record and past its pdu: 1, 0 at the end, or -EINVAL (why[] set). */
static int read_record(FILE *f, bool swap, unsigned *where, struct bt_record *t, char *why,
		       size_t whylen)
{
	size_t n = fread(t, 1, sizeof(*t), f);

	if (!n && feof(f))
		return 0;
	++*where;
	if (n != sizeof(*t)) {
		snprintf(why, whylen, "record %u: %s (%zu of %d bytes)", *where,
			 ferror(f) ? strerror(errno) : "cut short", n, BLKTRACE_RECORD_BYTES);
		return -EINVAL;
	}
	if (swap)
		swap_record(t);
	if ((t->magic & 0xffffff00u) != BT_MAGIC || (t->magic & 0xff) != BT_VERSION) {
		snprintf(why, whylen, "record %u: bad magic 0x%08" PRIx32 " (blktrace version %u "
			 "has 0x%08x)", *where, t->magic, BT_VERSION, BT_MAGIC | BT_VERSION);
		return -EINVAL;
	}
	if (t->pdu_len && fseek(f, t->pdu_len, SEEK_CUR) < 0) {
		snprintf(why, whylen, "record %u: skipping its %u bytes of payload: %s", *where,
			 t->pdu_len, strerror(errno));
		return -EINVAL;
	}
	return 1;
}

/* The direction of a record's request, or -1 (fio's t_get_ddir). */
static int record_dir(const struct bt_record *t)
{
	if (t->action & BT_TC_READ)
		return IO_READ;
	if (t->action & BT_TC_WRITE)
		return IO_WRITE;
	if (t->action & BT_TC_DISCARD)
		return IO_TRIM;
	return -1;
}

/* fio's depth probe: requests queued and not merged, the most before a completion. */
static void probe_depth(struct replay_stream *s, const struct bt_record *t)
{
	unsigned ta = t->action & 0xffff;
	int d = record_dir(t);

	if ((t->action & BT_TC_NOTIFY) || d < 0)
		return;
	if (ta == BT_TA_QUEUE) {
		s->this_depth[d]++;
	} else if (ta == BT_TA_BACKMERGE || ta == BT_TA_FRONTMERGE) {
		s->this_depth[d]--;
	} else if (ta == BT_TA_COMPLETE) {
		if (s->this_depth[d] > s->depth[d])
			s->depth[d] = s->this_depth[d];
		s->this_depth[d] = 0;
	}
}

/* The block device numbered maj:min under dir (fio looks through /dev, depth first). */
static bool find_device(const char *dir, unsigned maj, unsigned min, char *out, size_t len,
			unsigned depth)
{
	struct dirent *de;
	bool found = false;
	DIR *dp;

	if (depth > 8 || !(dp = opendir(dir)))
		return false;
	while (!found && (de = readdir(dp))) {
		char path[PATH_MAX];
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (lstat(path, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode))
			found = find_device(path, maj, min, out, len, depth + 1);
		else if (S_ISBLK(st.st_mode) && major(st.st_rdev) == maj &&
			 minor(st.st_rdev) == min)
			found = snprintf(out, len, "%s", path) < (int)len;
	}
	closedir(dp);
	return found;
}

/* The file the record's device stands for: found in /dev when the trace loads. */
static int device_file(struct replay_stream *s, uint32_t dev, char *why, size_t whylen)
{
	const struct replay_file *files = s->loading ? s->files : s->log->files;
	unsigned n = s->loading ? s->nfiles : s->log->nfiles;
	char path[PATH_MAX];
	int i;

	if (s->j->replay_redirect)
		return replay_stream_file(s, s->j->replay_redirect, dev, true);
	for (unsigned k = 0; k < n; k++)
		if (files[k].dev == dev)
			return (int)k;
	if (!s->loading || !find_device("/dev", BT_MAJOR(dev), BT_MINOR(dev), path,
					sizeof(path), 0)) {
		snprintf(why, whylen, "record %u: no block device in /dev has the trace's device "
			 "number %u:%u (replay_redirect sends the I/O to one file)", s->where,
			 BT_MAJOR(dev), BT_MINOR(dev));
		return -EINVAL;
	}
	i = replay_stream_file(s, path, dev, true);
	if (i >= 0)
		s->files[i].dev = dev;
	return i;
}

/* A queue event as fio replays it: 1 with *e set, 0 if it issues nothing, or -errno. */
static int queue_event(struct replay_stream *s, struct bt_record *t, struct replay_entry *e,
		       char *why, size_t whylen)
{
	const struct job_desc *j = s->j;
	uint64_t delay_ns;
	int fi, act;

	if (t->action & BT_TC_NOTIFY)
		return 0;
	delay_ns = replay_stream_delay(s, t->time_ns);
	if (j->replay_align)
		t->bytes = (t->bytes + j->replay_align - 1) & ~(j->replay_align - 1);
	if (t->action & BT_TC_DISCARD)
		act = IO_TRIM;
	else if (t->action & BT_TC_FLUSH)
		act = REPLAY_FSYNC;
	else
		act = t->action & BT_TC_WRITE ? IO_WRITE : IO_READ;
	/* fio takes a read or write's device in before it looks at replay_skip */
	if (act <= IO_WRITE && (fi = device_file(s, t->device, why, whylen)) < 0)
		return fi;
	if (j->replay_skip & (1u << act))
		return 0;
	if (act <= IO_TRIM && !t->bytes) {
		s->zero_noted = true;	/* fio says so once, and replays nothing */
		return 0;
	}
	if (act > IO_WRITE && (fi = device_file(s, t->device, why, whylen)) < 0)
		return fi;
	e->act = (uint8_t)act;
	e->file = (uint32_t)fi;
	e->off = act == REPLAY_FSYNC ? 0 : replay_offset(j, t->sector * 512);
	e->len = act == REPLAY_FSYNC ? 0 : t->bytes;
	e->delay_us = delay_ns / 1000;
	e->line = s->where;
	return 1;
}

static void finish_depth(struct replay_stream *s)
{
	unsigned max = 0;

	for (int d = 0; d < IO_NDIR; d++) {
		unsigned depth = s->depth[d] > BT_DEPTH_MAX ? BT_DEPTH_MAX :
				 s->depth[d] > 0 ? (unsigned)s->depth[d] : 0;

		if (!depth && s->log->ios[d])
			depth = 1;
		if (depth > max)
			max = depth;
	}
	if (!max && s->log->ios[REPLAY_FSYNC])
		max = 1;
	s->log->depth = max;
}

int blktrace_next(struct replay_stream *s, struct replay_entry *e, char *why, size_t whylen)
{
	struct bt_record t;
	int ret;

	for (;;) {
		ret = read_record(s->f, s->swap, &s->where, &t, why, whylen);
		if (ret <= 0)
			break;
		if (s->loading)
			probe_depth(s, &t);
		if ((t.action & 0xffff) != BT_TA_QUEUE)
			continue;
		ret = queue_event(s, &t, e, why, whylen);
		if (ret)
			return ret;
	}
	if (!ret && s->loading)
		finish_depth(s);
	return ret;
}

/* One trace being merged: its next record, and where it is in its passes. */
struct merge_cursor {
	FILE *f;
	const char *path;
	bool swap, done;
	unsigned where, iter, iters, scalar;
	uint64_t length_ns;		/* the time of the trace's last record */
	struct bt_record t;
	uint64_t time_ns;		/* t's time, scaled and moved to its pass */
};

/* The next queue event of a read, write or discard, as fio's merge takes them. */
static int merge_advance(struct merge_cursor *c, char *why, size_t whylen)
{
	int ret;

	for (;;) {
		ret = read_record(c->f, c->swap, &c->where, &c->t, why, whylen);
		if (ret < 0) {
			char what[256];

			snprintf(what, sizeof(what), "%s", why);
			snprintf(why, whylen, "'%s': %s", c->path, what);
			return ret;
		}
		if (!ret) {
			if (++c->iter >= c->iters) {
				c->done = true;
				return 0;
			}
			rewind(c->f);
			c->where = 0;
			continue;
		}
		if (!c->iter)
			c->length_ns = c->t.time_ns;
		if ((c->t.action & 0xffff) == BT_TA_QUEUE && record_dir(&c->t) >= 0)
			break;
	}
	c->time_ns = (c->t.time_ns + c->iter * c->length_ns) * c->scalar / 100;
	return 1;
}

static int merge_open(const struct job_desc *j, unsigned i, struct merge_cursor *c,
		      char *why, size_t whylen)
{
	unsigned char head[BLKTRACE_RECORD_BYTES];
	size_t n;

	c->path = j->read_iolog.v[i];
	c->scalar = j->nmerge_scalars ? j->merge_scalars[i] : 100;
	c->iters = j->nmerge_iters ? j->merge_iters[i] : 1;
	c->f = fopen(c->path, "rb");
	if (!c->f) {
		snprintf(why, whylen, "'%s': %s", c->path, strerror(errno));
		return -errno;
	}
	n = fread(head, 1, sizeof(head), c->f);
	if (!blktrace_detect(head, n, &c->swap)) {
		snprintf(why, whylen, "'%s' is not a blktrace (merge_blktrace_file merges "
			 "blktraces only)", c->path);
		return -EINVAL;
	}
	rewind(c->f);
	return 0;
}

static int merge_write(struct merge_cursor *cur, unsigned n, FILE *out, char *why,
		       size_t whylen)
{
	int ret = 0;

	for (unsigned i = 0; i < n && ret >= 0; i++)
		ret = merge_advance(&cur[i], why, whylen);
	while (ret >= 0) {
		struct merge_cursor *c = NULL;

		/* the earliest next event; of equal times, the first trace's */
		for (unsigned i = 0; i < n; i++)
			if (!cur[i].done && (!c || cur[i].time_ns < c->time_ns))
				c = &cur[i];
		if (!c)
			break;
		c->t.time_ns = c->time_ns;
		c->t.pdu_len = 0;	/* fio writes the records without their payloads */
		if (fwrite(&c->t, sizeof(c->t), 1, out) != 1) {
			snprintf(why, whylen, "writing: %s", strerror(errno));
			return -errno;
		}
		ret = merge_advance(c, why, whylen);
	}
	return ret < 0 ? ret : 0;
}

/*
 * The merge goes to a file of its own beside merge_blktrace_file and is renamed over it
 * once whole: a failed merge leaves what was there, and the ranks of an MPI run, which
 * all merge the same traces, never read a file another rank is still writing.
 */
static FILE *open_beside(const char *path, char *tmp, size_t len)
{
	char host[64] = "";
	FILE *f;
	int fd;

	gethostname(host, sizeof(host) - 1);
	if ((size_t)snprintf(tmp, len, "%s.%s.%ld.part", path, host, (long)getpid()) >= len) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "wb");
	if (!f) {
		close(fd);
		unlink(tmp);
	}
	return f;
}

int blktrace_merge(const struct job_desc *j, char *why, size_t whylen)
{
	unsigned n = j->read_iolog.n;
	struct merge_cursor *cur = calloc(n, sizeof(*cur));
	const char *path = j->merge_blktrace_file;
	char tmp[PATH_MAX];
	FILE *out = NULL;
	int ret = 0;

	if (!cur)
		return -ENOMEM;
	/* the merge is renamed over path: never over a device node, nor onto /proc */
	ret = path_guard(path, PATH_WRITE, tmp, sizeof(tmp));
	if (ret) {
		snprintf(why, whylen, "refusing to write '%s': it %s", path, tmp);
		ret = -EPERM;
	}
	for (unsigned i = 0; !ret && i < n; i++)
		ret = merge_open(j, i, &cur[i], why, whylen);
	if (!ret && !(out = open_beside(path, tmp, sizeof(tmp)))) {
		ret = -errno;
		snprintf(why, whylen, "cannot write '%s': %s", path, strerror(errno));
	}
	if (!ret)
		ret = merge_write(cur, n, out, why, whylen);
	if (out && fclose(out) && !ret) {
		ret = -errno;
		snprintf(why, whylen, "writing '%s': %s", path, strerror(errno));
	}
	if (out && !ret && rename(tmp, path)) {
		ret = -errno;
		snprintf(why, whylen, "cannot write '%s': %s", path, strerror(errno));
	}
	if (out && ret)
		unlink(tmp);
	for (unsigned i = 0; i < n; i++)
		if (cur[i].f)
			fclose(cur[i].f);
	free(cur);
	return ret;
}
