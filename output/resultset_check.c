/* Result-set input checks: bounded lines, and the figures of a cell in range. */
#include "output/resultset_check.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/json_reader.h"
#include "base/diag.h"
#include "base/grow.h"

/* The figures unit_stats.c and metrics.c read, each with its largest value. */
struct figure {
	const char *path;
	double max;
};

static const struct figure job_figures[] = {
	{ "iojob.runtime_ns", RS_MAX_NUMBER },
	{ "iojob.pass", 4294967295.0 },
	{ "iojob.proc_cpu.wall_ns", RS_MAX_NUMBER },
	{ "iojob.proc_cpu.usr_ns", RS_MAX_NUMBER },
	{ "iojob.proc_cpu.sys_ns", RS_MAX_NUMBER },
	{ "usr_cpu", RS_MAX_NUMBER },
	{ "sys_cpu", RS_MAX_NUMBER },
	{ NULL, 0 },
};

static const struct figure dir_figures[] = {
	{ "total_ios", RS_MAX_NUMBER },
	{ "io_bytes", RS_MAX_NUMBER },
	{ "runtime", RS_MAX_NUMBER },
	{ "iops", RS_MAX_NUMBER },
	{ "bw_bytes", RS_MAX_NUMBER },
	{ NULL, 0 },
};

static const char *const dir_keys[] = { "read", "write", "trim", "mixed", NULL };
static const char *const lat_keys[] = { "lat_ns", "clat_ns", "slat_ns", NULL };
static const char *const moment_keys[] = { "N", "min", "max", "mean", NULL };
static const char *const disk_keys[] = { "util", "read_ios", "write_ios", NULL };

int rs_read_line(FILE *f, char **buf, size_t *cap, size_t *len)
{
	size_t n = 0;
	int c;

	do {
		c = getc(f);
		if (c == EOF)
			break;
		if (n + 2 > *cap) {
			if (n >= RS_MAX_LINE_BYTES)
				return -EFBIG;
			if (grow_reserve(buf, cap, n + 2, 1) < 0)
				return -ENOMEM;
		}
		(*buf)[n++] = (char)c;
	} while (c != '\n');
	if (c == EOF && ferror(f))
		return errno ? -errno : -EIO;
	if (n == 0)
		return 0;
	(*buf)[n] = '\0';
	*len = n;
	return 1;
}

/* "report.jobs.0." + "read." into buf, for the key a message names; cut to fit. */
static const char *join(char *buf, size_t len, const char *a, const char *b)
{
	snprintf(buf, len, "%s%s", a, b);
	return buf;
}

/* One figure, where it is present: a number, finite (the reader made sure), 0 to max. */
static int check_number(const struct jv *v, double max, const char *where, const char *key,
			const char *path, unsigned line, struct diag *d)
{
	if (!v)
		return 0;
	if (v->type != JV_NUMBER)
		return diag_at(d, -ERANGE, path, (int)line, "key '%s%s': not a number", where,
			       key);
	if (v->number < 0)
		return diag_at(d, -ERANGE, path, (int)line, "key '%s%s': %g is negative", where,
			       key, v->number);
	if (v->number > max)
		return diag_at(d, -ERANGE, path, (int)line, "key '%s%s': %g is out of range "
			       "(at most %.0f)", where, key, v->number, max);
	return 0;
}

/* Every member of an object of counts (json+ bins, lat_over). */
static int check_counts(const struct jv *o, const char *where, const char *path,
			unsigned line, struct diag *d)
{
	char at[200];
	int ret = 0;

	if (!o || o->type != JV_OBJECT)
		return 0;
	join(at, sizeof(at), where, ".");
	for (size_t i = 0; ret == 0 && i < o->n; i++)
		ret = check_number(&o->items[i], RS_MAX_NUMBER, at, o->keys[i], path, line, d);
	return ret;
}

/* A direction object: its counts and rates, its latency moments and bins. */
static int check_dir(const struct jv *o, const char *where, const char *path, unsigned line,
		     struct diag *d)
{
	char at[192];
	int ret = 0;

	for (const struct figure *f = dir_figures; ret == 0 && f->path; f++)
		ret = check_number(jv_get(o, f->path), f->max, where, f->path, path, line, d);
	for (unsigned k = 0; ret == 0 && lat_keys[k]; k++) {
		const struct jv *l = jv_get(o, lat_keys[k]);
		char lat[160];

		join(lat, sizeof(lat), where, lat_keys[k]);
		join(at, sizeof(at), lat, ".");
		for (unsigned m = 0; ret == 0 && moment_keys[m]; m++)
			ret = check_number(jv_get(l, moment_keys[m]), RS_MAX_NUMBER, at,
					   moment_keys[m], path, line, d);
		if (ret == 0)
			ret = check_counts(jv_get(l, "bins"), join(at, sizeof(at), lat, ".bins"),
					   path, line, d);
	}
	return ret;
}

static int check_job(const struct jv *job, size_t i, const char *path, unsigned line,
		     struct diag *d)
{
	char at[128];
	int ret = 0;

	snprintf(at, sizeof(at), "report.jobs.%zu.", i);
	for (const struct figure *f = job_figures; ret == 0 && f->path; f++)
		ret = check_number(jv_path(job, f->path), f->max, at, f->path, path, line, d);
	for (unsigned k = 0; ret == 0 && dir_keys[k]; k++) {
		snprintf(at, sizeof(at), "report.jobs.%zu.%s.", i, dir_keys[k]);
		ret = check_dir(jv_get(job, dir_keys[k]), at, path, line, d);
	}
	snprintf(at, sizeof(at), "report.jobs.%zu.iojob.lat_over", i);
	return ret ? ret : check_counts(jv_path(job, "iojob.lat_over"), at, path, line, d);
}

int rs_check_report(const struct jv *report, const char *path, unsigned line, struct diag *d)
{
	const struct jv *jobs = jv_get(report, "jobs"), *disks = jv_get(report, "disk_util");
	char at[64];
	int ret = 0;

	for (size_t i = 0; ret == 0 && jobs && jobs->type == JV_ARRAY && i < jobs->n; i++)
		ret = check_job(&jobs->items[i], i, path, line, d);
	for (size_t i = 0; ret == 0 && disks && disks->type == JV_ARRAY && i < disks->n; i++) {
		snprintf(at, sizeof(at), "report.disk_util.%zu.", i);
		for (unsigned k = 0; ret == 0 && disk_keys[k]; k++)
			ret = check_number(jv_get(&disks->items[i], disk_keys[k]), RS_MAX_NUMBER,
					   at, disk_keys[k], path, line, d);
	}
	return ret;
}
