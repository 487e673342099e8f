/* Result sets: appending sweep cells as JSON Lines, and finding cells already there. */
#include "output/resultset_write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/sysfs.h"
#include "output/diskstats.h"
#include "output/json_reader.h"
#include "output/json_writer.h"
#include "output/report.h"
#include "output/resultset_check.h"
#include "engine/devices/path_guard.h"
#include "output/stream.h"

static void string_map(struct json_out *j, const char *key, const char *const *k,
		       const char *const *v, unsigned n)
{
	json_open(j, key, '{');
	for (unsigned i = 0; i < n; i++)
		json_str(j, k[i], v[i]);
	json_close(j, '}');
}

/* A device's model as sysfs has it ("" when unknown), without the trailing blanks. */
static void disk_model(const char *dev, char *out, size_t len)
{
	char path[512];
	int n;

	out[0] = '\0';
	if (sysfs_path(path, sizeof(path), SYSFS_REPORTS, "block/%s/device/model", dev) < 0)
		return;
	n = sysfs_read(AT_FDCWD, path, out, len);
	if (n < 0)
		n = 0;
	for (; n && (out[n - 1] == '\n' || out[n - 1] == ' '); n--)
		out[n - 1] = '\0';
}

static void targets(struct json_out *j, const struct report *r)
{
	char model[128];

	json_open(j, "targets", '[');
	for (unsigned i = 0; r->disks && i < r->disks->n; i++) {
		const struct disk *d = &r->disks->disks[i];

		if (d->master >= 0)
			continue;	/* members show under their array in the report */
		disk_model(d->name, model, sizeof(model));
		json_open(j, NULL, '{');
		json_str(j, "device", d->name);
		json_str(j, "model", model);
		json_close(j, '}');
	}
	json_close(j, ']');
}

/* The cell's object and its newline, in memory: it goes out in one write(). */
static int build_line(const struct resultset_meta *m, const struct report *r, char **buf,
		      size_t *len)
{
	struct utsname un;
	struct json_out j;
	FILE *f = open_memstream(buf, len);

	if (!f)
		return -errno;
	if (uname(&un) < 0)
		memset(&un, 0, sizeof(un));
	json_begin_compact(&j, f);
	json_uint(&j, "iojob_result", 1);
	json_str(&j, "version", r->version);
	json_uint(&j, "time", (uint64_t)r->time);
	json_str(&j, "label", m->label ? m->label : "");
	json_str(&j, "host", un.nodename);
	json_str(&j, "kernel", un.release);
	json_open(&j, "job_files", '[');
	for (unsigned i = 0; i < m->njob_files; i++)
		json_str(&j, NULL, m->job_files[i]);
	json_close(&j, ']');
	string_map(&j, "cell", m->cell_keys, m->cell_values, m->ncell);
	string_map(&j, "sets", m->set_keys, m->set_values, m->nsets);
	if (m->repeat)
		json_uint(&j, "repeat", m->repeat);
	if (m->jobs_key)
		json_str(&j, "jobs_key", m->jobs_key);
	targets(&j, r);
	fputs(", \"report\" : ", f);
	report_json_line(f, r, true);
	json_end(&j);
	fputc('\n', f);
	return stream_finish(f, true);	/* a memory stream fails only for memory */
}

/*
 * Wait for the write lock on the whole file; closing fd releases it. A POSIX lock, not
 * flock(), since it holds on NFS too, where sweeps on several hosts may share a file.
 */
static int lock_file(int fd)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

	while (fcntl(fd, F_SETLKW, &fl) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

/* All of buf: a short write (a signal, a disk nearly full) goes on where it stopped. */
static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENOSPC;	/* no progress and no reason: what a full disk does */
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * A line cut short (a crash, a full disk) has no newline: end it, so the next cell
 * stays whole. Under the lock, so no other writer is midway through a line.
 */
static int end_last_line(int fd, const struct stat *st)
{
	char c;
	ssize_t n;

	if (!S_ISREG(st->st_mode) || st->st_size == 0)
		return 0;
	n = pread(fd, &c, 1, st->st_size - 1);
	if (n < 0)
		return -errno;
	return n == 1 && c != '\n' ? write_all(fd, "\n", 1) : 0;
}

/*
 * path opened for appending, through the guard of every output (never a device, a pseudo
 * file system, a loop device's file); *created says whether this open made it.
 */
static int open_results(const char *path, bool *created)
{
	char why[512];
	int fd = path_open(path, O_RDWR | O_APPEND | O_CREAT | O_EXCL, 0666, why, sizeof(why));

	*created = fd >= 0;
	if (fd == -EEXIST)
		fd = path_open(path, O_RDWR | O_APPEND | O_CREAT, 0666, why, sizeof(why));
	return fd;
}

/* Whether the file open on fd (st) is still the one at path, not removed or replaced. */
static bool still_linked(const char *path, const struct stat *st)
{
	struct stat now;

	return st->st_nlink > 0 && stat(path, &now) == 0 && now.st_dev == st->st_dev &&
	       now.st_ino == st->st_ino;
}

/*
 * The result set open and locked, st its state under the lock. A sweep whose first cell
 * failed removes the file it made (undo_append); one that opened it meanwhile and waited
 * for the lock would append to a removed file, so it opens the path again.
 */
static int open_locked(const char *path, struct stat *st, bool *created)
{
	for (;;) {
		int fd = open_results(path, created), ret;

		if (fd < 0)
			return fd;
		ret = lock_file(fd);
		if (!ret && fstat(fd, st) < 0)
			ret = -errno;
		if (ret) {
			close(fd);
			return ret;
		}
		if (!S_ISREG(st->st_mode) || still_linked(path, st))
			return fd;
		close(fd);
	}
}

/*
 * A cell that could not be written whole is taken back, under the lock: the file cut to
 * where it ended (a cut line would only be skipped), or removed when made for this cell.
 */
static void undo_append(int fd, const char *path, const struct stat *st, bool created)
{
	if (!S_ISREG(st->st_mode))
		return;
	if (created && st->st_size == 0) {
		unlink(path);
		return;
	}
	/* should this fail too, the cut line stays, and the readers skip it */
	if (ftruncate(fd, st->st_size) < 0)
		return;
}

/* What a path that is not a regular file is, for the message refusing it. */
static const char *file_kind(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISDIR(mode))
		return "a directory";
	return "not a regular file";
}

/*
 * A missing result set: a file of a name of its own made and removed beside it, which
 * proves the directory takes new files, so that a run that saves no cell (every cell
 * failed, a signal, a full disk) leaves no empty file. Never the path itself: sweeps
 * started together would remove the file another had just made and appended to.
 */
static int check_creatable(const char *path, struct diag *d)
{
	char *probe = NULL;
	int fd;

	if (asprintf(&probe, "%s.probe-XXXXXX", path) < 0)
		return diag_set(d, -ENOMEM, "--results '%s': out of memory", path);
	fd = mkstemp(probe);
	if (fd < 0) {
		int err = errno;

		free(probe);
		return diag_set(d, -err, "--results '%s': %s", path, strerror(err));
	}
	close(fd);
	unlink(probe);
	free(probe);
	return 0;
}

/* The start of a line, printable, for a message saying what a file holds. */
static void excerpt(const char *line, size_t len, char *out, size_t size)
{
	size_t n = 0;

	while (n < len && line[n] != '\n' && n + 4 < size) {
		out[n] = line[n] >= 0x20 && line[n] < 0x7f ? line[n] : '?';
		n++;
	}
	if (n < len && line[n] != '\n')
		n += (size_t)snprintf(out + n, size - n, "...");
	out[n] = '\0';
}

/*
 * Whether line is a result line: a JSON object with "iojob_result", or the start of one
 * cut short by a crash or a full disk (no newline; the readers skip it).
 */
static bool result_line(const char *line, size_t len)
{
	static const char start[] = "{\"iojob_result\"";
	struct jv obj;
	bool ok;

	if (jv_parse(line, len, &obj, NULL) < 0)
		return line[len - 1] != '\n' && !strncmp(line, start, strlen(start));
	ok = obj.type == JV_OBJECT && jv_get(&obj, "iojob_result");
	jv_free(&obj);
	return ok;
}

/* An existing file appended to only when its first line (blank lines aside) is a result. */
static int check_first_line(const char *path, struct diag *d)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, what[48];
	size_t cap = 0, len = 0;
	int ret;

	if (!f)
		return diag_set(d, -errno, "--results '%s': %s", path, strerror(errno));
	while ((ret = rs_read_line(f, &line, &cap, &len)) > 0 && len == 1 && line[0] == '\n')
		;
	fclose(f);
	if (ret == -EFBIG)
		len = cap;	/* the line's start, read whole up to the bound */
	if (ret < 0 && ret != -EFBIG) {
		ret = diag_set(d, ret, "--results '%s': %s", path, strerror(-ret));
	} else if (ret == -EFBIG || (ret > 0 && !result_line(line, len))) {
		excerpt(line, len, what, sizeof(what));
		ret = diag_set(d, -EINVAL, "--results '%s': not a result set (its first line is "
			       "not one of iojob's: '%s'): give a new file or one iojob wrote",
			       path, what);
	}
	free(line);
	return ret < 0 ? ret : 0;
}

int resultset_check(const char *path, struct diag *d)
{
	char why[512];
	struct stat st;
	int fd;

	if (path_guard(path, PATH_WRITE, why, sizeof(why)))
		return diag_set(d, -EINVAL, "--results '%s': refusing to write to it: it %s", path,
				why);
	if (stat(path, &st) < 0)
		return errno == ENOENT ? check_creatable(path, d) :
		       diag_set(d, -errno, "--results '%s': %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return diag_set(d, -EINVAL, "--results '%s': %s, not a file: a result set is "
				"appended to and read back", path, file_kind(st.st_mode));
	fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return diag_set(d, -errno, "--results '%s': %s", path, strerror(errno));
	close(fd);
	return check_first_line(path, d);
}

int resultset_append(const char *path, const struct resultset_meta *m, const struct report *r)
{
	char *line = NULL;
	size_t len = 0;
	struct stat st;
	bool created;
	int fd, ret;

	ret = build_line(m, r, &line, &len);
	if (ret < 0)
		goto out;
	fd = open_locked(path, &st, &created);
	if (fd < 0) {
		ret = fd;
		goto out;
	}
	ret = end_last_line(fd, &st);
	if (!ret)
		ret = write_all(fd, line, len);
	/* on disk before the next cell starts; a pipe or a device has nothing to sync */
	if (!ret && S_ISREG(st.st_mode) && fsync(fd) < 0)
		ret = -errno;
	if (ret)
		undo_append(fd, path, &st, created);
	if (close(fd) < 0 && !ret)
		ret = -errno;
out:
	free(line);
	return ret;
}

static bool same_map(const struct jv *map, const char *const *k, const char *const *v,
		     unsigned n)
{
	if (!map || map->type != JV_OBJECT || map->n != n)
		return false;
	for (unsigned i = 0; i < n; i++) {
		const char *s = jv_str(jv_get(map, k[i]), NULL);

		if (!s || strcmp(s, v[i]))
			return false;
	}
	return true;
}

/* The same cell: same label, same swept values, same --set overrides and same jobs. */
static bool same_cell(const struct jv *obj, const struct resultset_meta *m)
{
	if (strcmp(jv_str(jv_get(obj, "label"), ""), m->label ? m->label : ""))
		return false;
	if (!m->jobs_key || strcmp(jv_str(jv_get(obj, "jobs_key"), ""), m->jobs_key))
		return false;
	if ((unsigned)jv_num(jv_get(obj, "repeat"), 0) != m->repeat)
		return false;
	return same_map(jv_get(obj, "cell"), m->cell_keys, m->cell_values, m->ncell) &&
	       same_map(jv_get(obj, "sets"), m->set_keys, m->set_values, m->nsets);
}

int resultset_has_cell(const char *path, const struct resultset_meta *m)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, n;
	int found = 0, ret;

	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (!found && (ret = rs_read_line(f, &line, &cap, &n)) > 0) {
		struct jv obj;

		if (n == 1 && line[0] == '\n')
			continue;
		if (jv_parse(line, n, &obj, NULL) < 0) {
			/* A cell cut short by a crash leaves half a line: it does not count. */
			continue;
		}
		found = same_cell(&obj, m);
		jv_free(&obj);
	}
	free(line);
	fclose(f);
	return ret < 0 && !found ? ret : found;
}
