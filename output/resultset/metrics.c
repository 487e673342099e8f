/* Metric names: parsing, direction of improvement, values and how they print. */
#include "output/resultset/metrics.h"

#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/json_reader.h"
#include "output/resultset/resultset_read.h"
#include "base/units.h"

const char metric_names_help[] =
	"  A metric is [read_|write_|trim_]BASE (no prefix: every direction together):\n"
	"    iops, bw_mib (MiB/s), bw_bytes (bytes/s), runtime (s), ios, io_mib,\n"
	"    lat_mean, lat_min, lat_max, lat_pNN (lat_p95, lat_p99.9; from the merged\n"
	"    json+ bins), and the same for clat_ and slat_;\n"
	"  or one of util (busiest target disk, %), cpu, usr_cpu, sys_cpu (% of a CPU).\n";

/* A base by name; a later entry of the same base is an alias (bw for bw_mib). */
struct base_name {
	const char *name;
	enum metric_base base;
};

static const struct base_name plain_bases[] = {
	{ "iops", MB_IOPS }, { "bw_mib", MB_BW_MIB }, { "bw", MB_BW_MIB },
	{ "bw_bytes", MB_BW_BYTES }, { "runtime", MB_RUNTIME }, { "ios", MB_IOS },
	{ "io_mib", MB_IO_MIB },
};

static const struct base_name unit_bases[] = {
	{ "util", MB_UTIL }, { "cpu", MB_CPU }, { "usr_cpu", MB_USR_CPU },
	{ "sys_cpu", MB_SYS_CPU },
};

/* After a latency prefix; pNN is any percentile. */
static const struct base_name lat_bases[] = {
	{ "mean", MB_LAT_MEAN }, { "avg", MB_LAT_MEAN }, { "min", MB_LAT_MIN },
	{ "max", MB_LAT_MAX },
};

/* The percentiles completion offers: any pNN parses. */
static const char *const offered_pcts[] = { "p50", "p95", "p99", "p99.9" };

static const char *const dir_prefix[] = { "read_", "write_", "trim_" };
static const char *const lat_prefix[] = { "lat_", "clat_", "slat_" };


/* "mean", "min", "max" or "pNN" after a latency prefix. */
static int parse_lat(const char *s, struct metric *m)
{
	char *end;

	for (size_t i = 0; i < ARRAY_SIZE(lat_bases); i++) {
		if (!strcmp(s, lat_bases[i].name)) {
			m->base = lat_bases[i].base;
			return 0;
		}
	}
	if (s[0] != 'p')
		return -EINVAL;
	m->base = MB_LAT_PCT;
	m->pct = strtod(s + 1, &end);
	if (end == s + 1 || *end || !(m->pct > 0 && m->pct <= 100))
		return -EINVAL;
	return 0;
}

static int parse_base(const char *s, struct metric *m)
{
	for (size_t i = 0; i < ARRAY_SIZE(plain_bases); i++) {
		if (!strcmp(s, plain_bases[i].name)) {
			m->base = plain_bases[i].base;
			return 0;
		}
	}
	for (size_t k = 0; k < ARRAY_SIZE(lat_prefix); k++) {
		size_t n = strlen(lat_prefix[k]);

		if (!strncmp(s, lat_prefix[k], n)) {
			m->lat = (enum us_lat)k;
			return parse_lat(s + n, m);
		}
	}
	return -EINVAL;
}

int metric_parse(const char *name, struct metric *m)
{
	const char *s = name;

	memset(m, 0, sizeof(*m));
	if (strlen(name) >= sizeof(m->name))
		return -EINVAL;
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->dir = US_ALL;
	for (size_t i = 0; i < ARRAY_SIZE(unit_bases); i++) {
		if (!strcmp(s, unit_bases[i].name)) {
			m->base = unit_bases[i].base;
			return 0;
		}
	}
	if (!strncmp(s, "total_", 6))
		s += 6;
	for (size_t d = 0; d < ARRAY_SIZE(dir_prefix); d++) {
		if (!strncmp(s, dir_prefix[d], strlen(dir_prefix[d]))) {
			m->dir = (enum us_dir)d;
			s += strlen(dir_prefix[d]);
			break;
		}
	}
	return parse_base(s, m);
}

/* Whether t[i] is an alias: an earlier entry has its base. */
static bool is_alias(const struct base_name *t, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (t[k].base == t[i].base)
			return true;
	return false;
}

/* The names of one direction (prefix "" for all together): plain bases, then latencies. */
static void complete_dir(FILE *f, const char *dir)
{
	for (size_t i = 0; i < ARRAY_SIZE(plain_bases); i++)
		if (!is_alias(plain_bases, i))
			fprintf(f, "%s%s\n", dir, plain_bases[i].name);
	for (size_t k = 0; k < ARRAY_SIZE(lat_prefix); k++) {
		for (size_t i = 0; i < ARRAY_SIZE(lat_bases); i++)
			if (!is_alias(lat_bases, i))
				fprintf(f, "%s%s%s\n", dir, lat_prefix[k], lat_bases[i].name);
		for (size_t i = 0; i < ARRAY_SIZE(offered_pcts); i++)
			fprintf(f, "%s%s%s\n", dir, lat_prefix[k], offered_pcts[i]);
	}
}

void metric_complete(FILE *f)
{
	complete_dir(f, "");
	for (size_t d = 0; d < ARRAY_SIZE(dir_prefix); d++)
		complete_dir(f, dir_prefix[d]);
	for (size_t i = 0; i < ARRAY_SIZE(unit_bases); i++)
		fprintf(f, "%s\n", unit_bases[i].name);
}

enum metric_better metric_better(const struct metric *m)
{
	switch (m->base) {
	case MB_IOPS: case MB_BW_MIB: case MB_BW_BYTES:
		return BETTER_HIGHER;
	case MB_RUNTIME: case MB_LAT_MEAN: case MB_LAT_MIN: case MB_LAT_MAX: case MB_LAT_PCT:
		return BETTER_LOWER;
	default:
		return BETTER_NONE;	/* amounts of work, and what it cost */
	}
}

/* The busiest target disk's util; a disk that did I/O without busy time is unknown. */
static double disk_util(const struct rs_unit *u)
{
	const struct jv *disks = jv_get(u->cell->report, "disk_util");
	double best = NAN;

	for (size_t i = 0; disks && disks->type == JV_ARRAY && i < disks->n; i++) {
		const struct jv *d = &disks->items[i];
		double util = jv_num(jv_get(d, "util"), 0);
		double ios = jv_num(jv_get(d, "read_ios"), 0) + jv_num(jv_get(d, "write_ios"), 0);

		if (util > 0 || ios == 0)
			best = isnan(best) || util > best ? util : best;
	}
	return best;
}

static double cpu_value(const struct metric *m, const struct rs_unit *u)
{
	double usr, sys;

	if (us_cpu_pct(u, &usr, &sys) < 0)
		return NAN;
	return m->base == MB_USR_CPU ? usr : m->base == MB_SYS_CPU ? sys : usr + sys;
}

static double lat_value(const struct metric *m, const struct rs_unit *u)
{
	struct us_moments mo;
	double v;

	if (m->base == MB_LAT_PCT)
		return us_lat_percentiles(u, m->dir, m->lat, &m->pct, 1, &v) < 0 ? NAN : v;
	if (us_lat_moments(u, m->dir, m->lat, &mo) < 0)
		return NAN;
	return m->base == MB_LAT_MEAN ? mo.mean_ns : m->base == MB_LAT_MIN ? mo.min_ns : mo.max_ns;
}

double metric_value(const struct metric *m, const struct rs_unit *u)
{
	switch (m->base) {
	case MB_IOPS:
		return us_iops(u, m->dir);
	case MB_BW_MIB:
		return us_bw(u, m->dir) / (1 << 20);
	case MB_BW_BYTES:
		return us_bw(u, m->dir);
	case MB_RUNTIME:
		return us_runtime_s(u, m->dir);
	case MB_IOS:
		return (double)us_ios(u, m->dir);
	case MB_IO_MIB:
		return (double)us_bytes(u, m->dir) / (1 << 20);
	case MB_UTIL:
		return disk_util(u);
	case MB_CPU: case MB_USR_CPU: case MB_SYS_CPU:
		return cpu_value(m, u);
	default:
		return lat_value(m, u);
	}
}

double metric_spread(const struct metric *m, const struct rs_unit *u)
{
	switch (m->base) {
	case MB_IOPS:
		return us_rate_sd(u, m->dir, true);
	case MB_BW_MIB:
		return us_rate_sd(u, m->dir, false) / (1 << 20);
	case MB_BW_BYTES:
		return us_rate_sd(u, m->dir, false);
	default:
		return NAN;
	}
}

static const char *base_title(const struct metric *m)
{
	static const char *const t[] = {
		[MB_IOPS] = "IOPS", [MB_BW_MIB] = "bandwidth", [MB_BW_BYTES] = "bandwidth",
		[MB_RUNTIME] = "runtime", [MB_IOS] = "I/Os", [MB_IO_MIB] = "I/O",
		[MB_LAT_MEAN] = "mean", [MB_LAT_MIN] = "min", [MB_LAT_MAX] = "max",
		[MB_LAT_PCT] = "", [MB_UTIL] = "disk util", [MB_CPU] = "CPU",
		[MB_USR_CPU] = "user CPU", [MB_SYS_CPU] = "system CPU",
	};

	return t[m->base];
}

void metric_title(const struct metric *m, char *buf, size_t len)
{
	static const char *const lat_name[] = { "lat", "clat", "slat" };
	const char *dir = m->dir == US_ALL ? "" : dir_prefix[m->dir];
	char pct[32];

	if (m->base < MB_LAT_MEAN || m->base > MB_LAT_PCT) {
		snprintf(buf, len, "%.*s%s%s", m->dir == US_ALL ? 0 : (int)strlen(dir) - 1, dir,
			 m->dir == US_ALL ? "" : " ", base_title(m));
		return;
	}
	snprintf(pct, sizeof(pct), "%g", m->pct);
	snprintf(buf, len, "%.*s%s%s %s%s", m->dir == US_ALL ? 0 : (int)strlen(dir) - 1, dir,
		 m->dir == US_ALL ? "" : " ", lat_name[m->lat],
		 m->base == MB_LAT_PCT ? "p" : base_title(m), m->base == MB_LAT_PCT ? pct : "");
}

void metric_label(const struct metric *m, const struct metric_fmt *f, char *buf, size_t len)
{
	char name[128];

	metric_title(m, name, sizeof(name));
	if (strstr(name, f->unit))
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "%s (%s)", name, f->unit);
}

/* Latencies in the unit in which the largest is at least 1, as fio switches units. */
static void lat_unit(double max, struct metric_fmt *f)
{
	static const struct { double div; const char *unit; } u[] = {
		{ 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" },
	};
	unsigned i = 0;

	while (i + 1 < ARRAY_SIZE(u) && max < u[i].div)
		i++;
	f->div = u[i].div;
	f->unit = u[i].unit;
}

void metric_fmt_for(const struct metric *m, const double *v, size_t n, struct metric_fmt *f)
{
	static const char *const units[] = {
		[MB_IOPS] = "IOPS", [MB_BW_MIB] = "MiB/s", [MB_BW_BYTES] = "B/s",
		[MB_RUNTIME] = "s", [MB_IOS] = "I/Os", [MB_IO_MIB] = "MiB", [MB_UTIL] = "%",
		[MB_CPU] = "%", [MB_USR_CPU] = "%", [MB_SYS_CPU] = "%",
	};
	bool lat = m->base >= MB_LAT_MEAN && m->base <= MB_LAT_PCT;
	double max = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]) && fabs(v[i]) > max)
			max = fabs(v[i]);
	*f = (struct metric_fmt){ 1, lat ? "ns" : units[m->base], 0 };
	if (lat)
		lat_unit(max, f);
	max /= f->div;
	if (max > 0 && m->base != MB_IOS && m->base != MB_BW_BYTES && !(lat && f->div == 1))
		f->decimals = 3 - (int)floor(log10(max));
	f->decimals = f->decimals < 0 ? 0 : f->decimals > 6 ? 6 : f->decimals;
}

void metric_format(const struct metric_fmt *f, double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "%.*f", f->decimals, v / f->div);
}
