/* A unit's figures from its jobs' JSON: counts, rates, times, latencies, CPU. */
#include "output/resultset/unit_stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/hist.h"
#include "output/json_reader.h"
#include "output/resultset/resultset_read.h"

#define NDIR_OBJS	3

static const char *const dir_key[] = { "read", "write", "trim" };
static const char *const lat_key[] = { "lat_ns", "clat_ns", "slat_ns" };

/* A job's objects for d; with unified_rw_reporting=mixed fio writes "mixed" alone. */
static unsigned dir_objs(const struct jv *job, enum us_dir d, const struct jv **out)
{
	const struct jv *mixed = jv_get(job, "mixed");
	unsigned n = 0;

	if (d != US_ALL) {
		out[0] = jv_get(job, dir_key[d]);
		return out[0] ? 1 : 0;
	}
	if (mixed) {
		out[0] = mixed;
		return 1;
	}
	for (unsigned i = 0; i < NDIR_OBJS; i++)
		if ((out[n] = jv_get(job, dir_key[i])))
			n++;
	return n;
}

static double sum_field(const struct rs_unit *u, enum us_dir d, const char *key)
{
	const struct jv *o[NDIR_OBJS];
	double sum = 0;

	for (unsigned j = 0; j < u->njobs; j++) {
		unsigned n = dir_objs(u->jobs[j], d, o);

		for (unsigned i = 0; i < n; i++)
			sum += jv_num(jv_get(o[i], key), 0);
	}
	return sum;
}

/*
 * A sum of counts as an integer. rs_load() keeps each figure within 0 to 2^63, but the
 * clones of a unit add up: past 2^64 the cast would be undefined, so it saturates.
 */
static uint64_t count_u64(double v)
{
	if (!(v > 0))
		return 0;
	return v >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)v;
}

uint64_t us_ios(const struct rs_unit *u, enum us_dir d)
{
	return count_u64(sum_field(u, d, "total_ios"));
}

uint64_t us_bytes(const struct rs_unit *u, enum us_dir d)
{
	return count_u64(sum_field(u, d, "io_bytes"));
}

/* A direction object's rate: its count over iojob's runtime in ns, or fio's field. */
static double dir_rate(const struct jv *job, const struct jv *o, const char *count,
		       const char *fio_rate)
{
	double ns = jv_num(jv_path(job, "iojob.runtime_ns"), 0);

	if (ns > 0)
		return jv_num(jv_get(o, count), 0) * 1e9 / ns;
	return jv_num(jv_get(o, fio_rate), 0);
}

static double sum_rate(const struct rs_unit *u, enum us_dir d, const char *count,
		       const char *fio_rate)
{
	const struct jv *o[NDIR_OBJS];
	double sum = 0;

	if (d != US_ALL && !us_ios(u, d))
		return NAN;
	for (unsigned j = 0; j < u->njobs; j++) {
		unsigned n = dir_objs(u->jobs[j], d, o);

		for (unsigned i = 0; i < n; i++)
			sum += dir_rate(u->jobs[j], o[i], count, fio_rate);
	}
	return sum;
}

double us_iops(const struct rs_unit *u, enum us_dir d)
{
	return sum_rate(u, d, "total_ios", "iops");
}

double us_bw(const struct rs_unit *u, enum us_dir d)
{
	return sum_rate(u, d, "io_bytes", "bw_bytes");
}

/* One job's runtime of d in seconds: iojob's in ns when the direction ran, else fio's ms. */
static double job_runtime_s(const struct jv *job, enum us_dir d)
{
	const struct jv *o[NDIR_OBJS];
	double ns = jv_num(jv_path(job, "iojob.runtime_ns"), 0), s = 0;
	unsigned n = dir_objs(job, d, o);

	for (unsigned i = 0; i < n; i++) {
		double ms = jv_num(jv_get(o[i], "runtime"), 0);

		if (ns > 0 && (ms > 0 || jv_num(jv_get(o[i], "total_ios"), 0) > 0))
			ms = ns / 1e6;
		if (ms / 1e3 > s)
			s = ms / 1e3;
	}
	return s;
}

double us_runtime_s(const struct rs_unit *u, enum us_dir d)
{
	double s = 0;

	if (d != US_ALL && !us_ios(u, d))
		return NAN;
	for (unsigned j = 0; j < u->njobs; j++) {
		double t = job_runtime_s(u->jobs[j], d);

		if (t > s)
			s = t;
	}
	return s;
}

double us_wall_s(const struct rs_unit *u)
{
	double wall_ns = 0;

	for (unsigned j = 0; j < u->njobs; j++) {
		double w = jv_num(jv_path(u->jobs[j], "iojob.proc_cpu.wall_ns"), 0);

		if (w > wall_ns)
			wall_ns = w;
	}
	return wall_ns > 0 ? wall_ns / 1e9 : us_runtime_s(u, US_ALL);
}

int us_lat_moments(const struct rs_unit *u, enum us_dir d, enum us_lat kind,
		   struct us_moments *out)
{
	const struct jv *o[NDIR_OBJS];
	double sum = 0;

	*out = (struct us_moments){ 0, INFINITY, 0, 0 };
	for (unsigned j = 0; j < u->njobs; j++) {
		unsigned n = dir_objs(u->jobs[j], d, o);

		for (unsigned i = 0; i < n; i++) {
			const struct jv *l = jv_get(o[i], lat_key[kind]);
			double cnt = jv_num(jv_get(l, "N"), 0);

			if (cnt <= 0)
				continue;
			out->n = count_u64((double)out->n + cnt);
			sum += cnt * jv_num(jv_get(l, "mean"), 0);
			out->min_ns = fmin(out->min_ns, jv_num(jv_get(l, "min"), 0));
			out->max_ns = fmax(out->max_ns, jv_num(jv_get(l, "max"), 0));
		}
	}
	if (!out->n)
		return -ENOENT;
	out->mean_ns = sum / (double)out->n;
	return 0;
}

/* US_LAT falls back to clat bins unless every direction that did I/O kept lat bins. */
static enum us_lat bins_kind(const struct rs_unit *u, enum us_dir d, enum us_lat kind)
{
	const struct jv *o[NDIR_OBJS];

	if (kind != US_LAT)
		return kind;
	for (unsigned j = 0; j < u->njobs; j++) {
		unsigned n = dir_objs(u->jobs[j], d, o);

		for (unsigned i = 0; i < n; i++)
			if (jv_num(jv_get(o[i], "total_ios"), 0) > 0 &&
			    !jv_path(o[i], "lat_ns.bins"))
				return US_CLAT;
	}
	return US_LAT;
}

/* Add every json+ bin of the unit's d into h; returns the samples added. */
static uint64_t add_bins(struct hist *h, const struct rs_unit *u, enum us_dir d,
			 enum us_lat kind)
{
	const struct jv *o[NDIR_OBJS];
	uint64_t total = 0;

	for (unsigned j = 0; j < u->njobs; j++) {
		unsigned n = dir_objs(u->jobs[j], d, o);

		for (unsigned i = 0; i < n; i++) {
			const struct jv *b = jv_path(o[i], lat_key[kind]);

			b = jv_get(b, "bins");
			for (size_t k = 0; b && b->type == JV_OBJECT && k < b->n; k++) {
				uint64_t cnt = jv_uint(&b->items[k], 0);

				hist_add(h, strtoull(b->keys[k], NULL, 10), cnt);
				total += cnt;
			}
		}
	}
	return total;
}

int us_lat_percentiles_set(const struct rs_unit *const *u, size_t nu, enum us_dir d,
			   enum us_lat kind, const double *pct, unsigned n, double *out_ns,
			   uint64_t *samples)
{
	struct hist *h = calloc(1, sizeof(*h));
	uint64_t v;

	if (!h)
		return -ENOMEM;
	*samples = 0;
	for (size_t i = 0; i < nu; i++)
		*samples += add_bins(h, u[i], d, bins_kind(u[i], d, kind));
	for (unsigned i = 0; *samples && i < n; i++) {
		hist_percentiles(h, &pct[i], 1, &v);
		out_ns[i] = (double)v;
	}
	free(h);
	return *samples ? 0 : -ENOENT;
}

int us_lat_percentiles(const struct rs_unit *u, enum us_dir d, enum us_lat kind,
		       const double *pct, unsigned n, double *out_ns)
{
	uint64_t samples;

	return us_lat_percentiles_set(&u, 1, d, kind, pct, n, out_ns, &samples);
}

int us_cpu_pct(const struct rs_unit *u, double *usr, double *sys)
{
	const struct jv *pc = jv_path(u->jobs[0], "iojob.proc_cpu");
	double wall = jv_num(jv_get(pc, "wall_ns"), 0);

	if (wall > 0) {
		/* process-wide: every clone of the phase carries the same figures */
		*usr = 100.0 * jv_num(jv_get(pc, "usr_ns"), 0) / wall;
		*sys = 100.0 * jv_num(jv_get(pc, "sys_ns"), 0) / wall;
		return 0;
	}
	*usr = *sys = 0;
	for (unsigned j = 0; j < u->njobs; j++) {
		if (!jv_get(u->jobs[j], "usr_cpu"))
			return -ENOENT;
		*usr += jv_num(jv_get(u->jobs[j], "usr_cpu"), 0);
		*sys += jv_num(jv_get(u->jobs[j], "sys_cpu"), 0);
	}
	return 0;
}

/* Bins at or above limit_ns, over every direction; -1 when there are no bins. */
static double bins_over(const struct rs_unit *u, uint64_t limit_ns)
{
	enum us_lat kind = bins_kind(u, US_ALL, US_LAT);
	const struct jv *o[NDIR_OBJS];
	double cnt = -1;

	for (unsigned j = 0; j < u->njobs; j++) {
		unsigned n = dir_objs(u->jobs[j], US_ALL, o);

		for (unsigned i = 0; i < n; i++) {
			const struct jv *b = jv_get(jv_get(o[i], lat_key[kind]), "bins");

			for (size_t k = 0; b && b->type == JV_OBJECT && k < b->n; k++) {
				if (cnt < 0)
					cnt = 0;
				if (strtoull(b->keys[k], NULL, 10) >= limit_ns)
					cnt += (double)jv_uint(&b->items[k], 0);
			}
		}
	}
	return cnt;
}

double us_lat_over(const struct rs_unit *u, uint64_t limit_ns, const char *key)
{
	double sum = 0, cnt;
	unsigned found = 0;

	for (unsigned j = 0; j < u->njobs; j++) {
		const struct jv *v = jv_get(jv_path(u->jobs[j], "iojob.lat_over"), key);

		if (v) {
			sum += jv_num(v, 0);
			found++;
		}
	}
	if (found == u->njobs)
		return sum;
	cnt = bins_over(u, limit_ns);
	return cnt < 0 ? NAN : cnt;
}

double us_rate_sd(const struct rs_unit *u, enum us_dir d, bool iops)
{
	const struct jv *o[NDIR_OBJS];
	double var = 0;
	bool any = false;

	/* the clones and directions run side by side: their variances add */
	for (unsigned j = 0; j < u->njobs; j++) {
		unsigned n = dir_objs(u->jobs[j], d, o);

		for (unsigned i = 0; i < n; i++) {
			double sd = jv_num(jv_get(o[i], iops ? "iops_stddev" : "bw_dev"), 0);

			if (jv_num(jv_get(o[i], "total_ios"), 0) <= 0)
				continue;
			if (jv_num(jv_get(o[i], iops ? "iops_samples" : "bw_samples"), 0) < 2)
				return NAN;
			sd *= iops ? 1 : 1024;	/* fio's bw_dev is in KiB/s */
			var += sd * sd;
			any = true;
		}
	}
	return any ? sqrt(var) : NAN;
}

const struct us_bucket us_buckets[] = {
	{ "latency_ns", "2", "2ns" }, { "latency_ns", "4", "4ns" },
	{ "latency_ns", "10", "10ns" }, { "latency_ns", "20", "20ns" },
	{ "latency_ns", "50", "50ns" }, { "latency_ns", "100", "100ns" },
	{ "latency_ns", "250", "250ns" }, { "latency_ns", "500", "500ns" },
	{ "latency_ns", "750", "750ns" }, { "latency_ns", "1000", "1us" },
	{ "latency_us", "2", "2us" }, { "latency_us", "4", "4us" },
	{ "latency_us", "10", "10us" }, { "latency_us", "20", "20us" },
	{ "latency_us", "50", "50us" }, { "latency_us", "100", "100us" },
	{ "latency_us", "250", "250us" }, { "latency_us", "500", "500us" },
	{ "latency_us", "750", "750us" }, { "latency_us", "1000", "1ms" },
	{ "latency_ms", "2", "2ms" }, { "latency_ms", "4", "4ms" },
	{ "latency_ms", "10", "10ms" }, { "latency_ms", "20", "20ms" },
	{ "latency_ms", "50", "50ms" }, { "latency_ms", "100", "100ms" },
	{ "latency_ms", "250", "250ms" }, { "latency_ms", "500", "500ms" },
	{ "latency_ms", "750", "750ms" }, { "latency_ms", "1000", "1s" },
	{ "latency_ms", "2000", "2s" }, { "latency_ms", ">=2000", ">2s" },
	{ NULL, NULL, NULL },
};

int us_lat_buckets(const struct rs_unit *u, double *pct)
{
	double total = 0;
	size_t nb = 0;

	while (us_buckets[nb].map)
		nb++;
	memset(pct, 0, nb * sizeof(*pct));
	/* each clone's shares are of its own I/Os: weigh them by its count */
	for (unsigned j = 0; j < u->njobs; j++) {
		const struct jv *job = u->jobs[j], *o[NDIR_OBJS];
		unsigned n = dir_objs(job, US_ALL, o);
		double ios = 0;

		for (unsigned i = 0; i < n; i++)
			ios += jv_num(jv_get(o[i], "total_ios"), 0);
		for (size_t b = 0; b < nb; b++)
			pct[b] += ios * jv_num(jv_get(jv_get(job, us_buckets[b].map),
						       us_buckets[b].key), 0);
		total += ios;
	}
	if (total <= 0)
		return -ENOENT;
	for (size_t b = 0; b < nb; b++)
		pct[b] /= total;
	return (int)nb;
}
