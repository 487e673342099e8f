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

/* Through the guard of every output: never a device, a pseudo file system, a loop's file. */
static int open_results(const char *path, char *why, size_t len)
{
	return path_open(path, O_RDWR | O_APPEND | O_CREAT, 0666, why, len);
}

int resultset_check(const char *path, char *why, size_t len)
{
	int fd = open_results(path, why, len);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

int resultset_append(const char *path, const struct resultset_meta *m, const struct report *r)
{
	char *line = NULL, why[512];
	size_t len = 0;
	struct stat st;
	int fd, ret;

	ret = build_line(m, r, &line, &len);
	if (ret < 0)
		goto out;
	fd = open_results(path, why, sizeof(why));
	if (fd < 0) {
		ret = fd;
		goto out;
	}
	ret = lock_file(fd);
	if (!ret && fstat(fd, &st) < 0)
		ret = -errno;
	if (!ret)
		ret = end_last_line(fd, &st);
	if (!ret)
		ret = write_all(fd, line, len);
	/* on disk before the next cell starts; a pipe or a device has nothing to sync */
	if (!ret && S_ISREG(st.st_mode) && fsync(fd) < 0)
		ret = -errno;
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

/* The same cell: same label, same swept values and same --set overrides. */
static bool same_cell(const struct jv *obj, const struct resultset_meta *m)
{
	if (strcmp(jv_str(jv_get(obj, "label"), ""), m->label ? m->label : ""))
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
