/*
 * Tests for the reporters (output/report_*.c): normal, JSON and terse reports of hand-built
 * results checked against golden files in tests/golden/, plus JSON key order and escaping
 * and the terse field layout.
 * IOJOB_REGEN_GOLDEN=1 rewrites the golden files instead of comparing: review the diff.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <check.h>

#include "config.h"
#include "output/output.h"
#include "output/report_util.h"
#include "test_util.h"

#define MAX_UNITS	4
#define MAX_DISKS	4
#define MS		1000000ULL	/* ns */

/* One report and everything it points to. */
struct scenario {
	struct report r;
	struct report_unit units[MAX_UNITS];
	struct job_stats *st[MAX_UNITS];
	struct disk_set disks;
	struct disk disk[MAX_DISKS];
};

static const char *const global_names[] = { "ioengine", "size", "bs" };
static const char *const global_values[] = { "libaio", "64m", "4k" };
static const char *const opt_names[] = { "name", "rw", "iodepth", "numjobs" };
static const char *const opt_values[] = { "job", "randrw", "16", "1" };

static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Latency of a device: base plus a uniform spread, one in 200 ten times slower. */
static uint64_t lat_sample(uint64_t *seed, uint64_t base, uint64_t spread)
{
	uint64_t r = rng_next(seed), v = base + r % spread;

	return r % 200 == 0 ? v * 10 : v;
}

/* n I/Os of bs bytes in direction dir; slat only for async engines. */
static void record_ios(struct job_stats *st, unsigned dir, unsigned n, uint64_t bs,
		       uint64_t base, uint64_t spread, bool slat, uint64_t seed)
{
	struct dir_stats *d = &st->dir[dir];
	uint64_t clat, s;
	unsigned i;

	seed += 0x9e3779b97f4a7c15ULL;
	for (i = 0; i < n; i++) {
		clat = lat_sample(&seed, base, spread);
		s = slat ? 2000 + rng_next(&seed) % 4000 : 0;
		moments_add(&d->clat, clat, 1);
		hist_add(&d->clat_hist, clat, 1);
		if (slat) {
			moments_add(&d->slat, s, 1);
			hist_add(&d->slat_hist, s, 1);
		}
		moments_add(&d->lat, clat + s + 30, 1);
		hist_add(&d->lat_hist, clat + s + 30, 1);
		st->lat_buckets[stats_lat_bucket(clat)]++;
	}
	d->ios += n;
	d->bytes += n * bs;
	st->issued[dir] += n;
}

/* n bw samples (KiB/s) around kib and the matching iops samples. */
static void record_samples(struct dir_stats *d, unsigned n, uint64_t kib, uint64_t bs,
			   uint64_t seed)
{
	uint64_t v;
	unsigned i;

	seed += 77;
	for (i = 0; i < n; i++) {
		v = kib - kib / 20 + rng_next(&seed) % (kib / 10 + 1);
		moments_add(&d->bw, v, 1);
		moments_add(&d->iops, v * 1024 / bs, 1);
	}
}

/* Job-wide counters of a run at a given depth, as the engine would have counted them. */
static void record_job(struct job_stats *st, unsigned depth, uint64_t runtime_ns,
		       uint64_t usr_ns, uint64_t sys_ns)
{
	uint64_t n = st->issued[0] + st->issued[1] + st->issued[2] + st->sync_ios;
	unsigned b = stats_depth_bucket(depth), i;

	for (i = 0; i < b && n > 0; i++, n--)
		st->depth[i]++;		/* the ramp-up: fio's "1=0.1%, 2=0.1%" */
	st->depth[b] += n;
	n = st->issued[0] + st->issued[1] + st->issued[2];
	st->submit[stats_batch_bucket(depth > 4 ? 4 : depth)] += n / (depth > 4 ? 4 : depth);
	st->complete[stats_batch_bucket(depth > 4 ? 4 : depth)] += n / (depth > 4 ? 4 : depth);
	if (depth > 8)
		st->complete[stats_batch_bucket(depth)] += 3;
	st->runtime_ns = runtime_ns;
	st->usr_ns = usr_ns;
	st->sys_ns = sys_ns;
	st->ctx = n / 9 + 17;
	st->minf = 14;
}

static struct job_stats *new_stats(void)
{
	struct job_stats *st = malloc(sizeof(*st));

	ck_assert_ptr_nonnull(st);
	stats_init(st);
	return st;
}

static struct report_unit *add_unit(struct scenario *sc, const char *name, int groupid)
{
	struct report_unit *u = &sc->units[sc->r.nunits];

	sc->st[sc->r.nunits] = new_stats();
	memset(u, 0, sizeof(*u));
	u->name = name;
	u->groupid = groupid;
	u->members = 1;
	u->tid = 5965 + (int)sc->r.nunits;
	u->clat_percentiles = true;
	u->kb_base = 1024;
	u->depth = 1;
	u->lat_percentile = 100.0;	/* fio's default */
	u->st = sc->st[sc->r.nunits];
	u->opt_names = opt_names;
	u->opt_values = opt_values;
	u->nopts = TABLE_LEN(opt_names);
	sc->r.nunits++;
	return u;
}

static void add_disk(struct scenario *sc, const char *name, int master, unsigned nslaves,
		     uint64_t ios_r, uint64_t ios_w, uint64_t busy_ms)
{
	struct disk *d = &sc->disk[sc->disks.n++];

	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->master = master;
	d->nslaves = nslaves;
	d->start.ios[0] = 1000;
	d->start.ios[1] = 2000;
	d->start.ticks[0] = 4294967000ULL;	/* wraps at 2^32 during the run */
	d->end.ios[0] = 1000 + ios_r;
	d->end.ios[1] = 2000 + ios_w;
	d->end.merges[0] = ios_r / 500;
	d->end.merges[1] = ios_w / 70000;
	d->end.ticks[0] = (d->start.ticks[0] + ios_r / 7) & UINT32_MAX;
	d->end.ticks[1] = ios_w / 7;
	d->end.in_queue = (ios_r + ios_w) / 7;
	d->start.io_ticks = 10;
	d->end.io_ticks = 10 + busy_ms;
	sc->r.disks = &sc->disks;
}

static void scenario_init(struct scenario *sc)
{
	memset(sc, 0, sizeof(*sc));
	sc->r.version = "iojob-0.1.0";
	sc->r.time = 1796001952;
	sc->r.time_ms = 1796001952025ULL;
	sc->r.units = sc->units;
	sc->disks.disks = sc->disk;
	sc->disks.cap = MAX_DISKS;
	sc->disks.start_ns = 5 * MS;
	sc->disks.end_ns = 5 * MS + 3000 * MS + 400000;
}

static void scenario_free(struct scenario *sc)
{
	unsigned i;

	for (i = 0; i < sc->r.nunits; i++)
		free(sc->st[i]);
}

/* libaio random reads, iodepth 16: the layout of fio.md section 2.1. */
static void build_read_async(struct scenario *sc)
{
	struct report_unit *u = add_unit(sc, "aio-read", 0);
	struct job_stats *st = sc->st[0];

	u->has_slat = true;
	u->depth = 16;
	record_ios(st, 0, 150485, 4096, 100000, 150000, true, 1);
	st->dir[0].runtime_ns = 3000400000ULL;
	record_samples(&st->dir[0], 5, 209227, 4096, 1);
	record_job(st, 16, 3000 * MS, 112 * MS, 1005 * MS);
	sc->r.global_names = global_names;
	sc->r.global_values = global_values;
	sc->r.nglobal = TABLE_LEN(global_names);
	add_disk(sc, "vda", -1, 0, 143907, 61519, 2415);
}

/* psync random 50/50 mix: no slat, both directions, a short percentile list. */
static void build_randrw_sync(struct scenario *sc)
{
	static const double pct[] = { 99.9, 50, 90, 99 };
	struct report_unit *u = add_unit(sc, "psync-randrw", 0);
	struct job_stats *st = sc->st[0];

	u->pct = pct;
	u->npct = TABLE_LEN(pct);
	record_ios(st, 0, 23490, 4096, 32000, 40000, false, 2);
	record_ios(st, 1, 23335, 4096, 29000, 50000, false, 3);
	st->dir[0].runtime_ns = 3000200000ULL;
	st->dir[1].runtime_ns = 3000300000ULL;
	record_samples(&st->dir[0], 5, 30096, 4096, 2);
	record_samples(&st->dir[1], 5, 30104, 4096, 3);
	record_job(st, 1, 3000 * MS, 49 * MS, 918 * MS);
	add_disk(sc, "vda", -1, 0, 21446, 21412, 1806);
}

/* Two 64k jobs merged by group_reporting in msec units, then a fast job in group 1. */
static void build_group(struct scenario *sc)
{
	static const double typed[] = { 99.9, 50 };
	struct report_unit *u = add_unit(sc, "seq-hdd", 0), *fast;
	struct job_stats *a = new_stats(), *b = new_stats(), *st = sc->st[0];

	u->members = 2;
	u->has_slat = true;
	u->slat_percentiles = true;
	u->lat_percentiles = true;
	u->depth = 4;
	record_ios(a, 0, 700, 65536, 3000000, 30000000, true, 4);
	record_ios(b, 0, 650, 65536, 2500000, 32000000, true, 5);
	a->dir[0].runtime_ns = 4004000000ULL;
	b->dir[0].runtime_ns = 4003000000ULL;
	record_samples(&a->dir[0], 8, 11200, 65536, 4);
	record_samples(&b->dir[0], 8, 10400, 65536, 5);
	record_job(a, 4, 4004 * MS, 9 * MS, 58 * MS);
	record_job(b, 4, 4003 * MS, 8 * MS, 63 * MS);
	stats_merge(st, a);
	stats_merge(st, b);
	free(b);
	free(a);

	fast = add_unit(sc, "null-fast", 1);
	fast->desc = "reads that go nowhere";
	fast->kb_base = 1000;
	fast->pct = typed;		/* percentile_list=99.90:50 */
	fast->npct = TABLE_LEN(typed);
	fast->pct_decimals = 2;
	record_ios(sc->st[1], 0, 400000, 16384, 60, 200, false, 6);
	sc->st[1]->dir[0].runtime_ns = 2000100000ULL;
	record_samples(&sc->st[1]->dir[0], 4, 3200000, 16384, 6);
	record_job(sc->st[1], 1, 2000 * MS, 1500 * MS, 480 * MS);
}

/* unified_rw_reporting=mixed on a libaio 70/30 mix. */
static void build_mixed(struct scenario *sc)
{
	struct report_unit *u = add_unit(sc, "mx", 0);
	struct job_stats *st = sc->st[0];

	u->has_slat = true;
	u->depth = 4;
	u->unified = REPORT_UNIFIED_MIXED;
	record_ios(st, 0, 16400, 4096, 40000, 120000, true, 7);
	record_ios(st, 1, 7050, 4096, 50000, 150000, true, 8);
	st->dir[0].runtime_ns = 1000300000ULL;
	st->dir[1].runtime_ns = 1000200000ULL;
	record_samples(&st->dir[0], 2, 60000, 4096, 7);
	record_samples(&st->dir[1], 2, 25600, 4096, 8);
	record_job(st, 4, 1000 * MS, 53 * MS, 460 * MS);
	add_disk(sc, "vda", -1, 0, 10546, 10534, 662);
}

/* unified_rw_reporting=both: read and write, then their mix. */
static void build_both(struct scenario *sc)
{
	build_mixed(sc);
	sc->units[0].unified = REPORT_UNIFIED_BOTH;
}

/* A psync writer with fsync=4: the sync block and syncs in the IO depths. */
static void build_fsync(struct scenario *sc)
{
	struct job_stats *st;
	uint64_t seed = 9, v;
	unsigned i;

	add_unit(sc, "fs", 0);
	st = sc->st[0];

	record_ios(st, 1, 2048, 4096, 3000, 9000, false, 9);
	st->dir[1].runtime_ns = 209700000ULL;
	for (i = 0; i < 511; i++) {
		v = lat_sample(&seed, 223000, 300000);
		moments_add(&st->sync_lat, v, 1);
		hist_add(&st->sync_hist, v, 1);
	}
	st->sync_ios = st->fsync_ios = 511;
	record_job(st, 1, 210 * MS, 0, 52 * MS);
	add_disk(sc, "vda", -1, 0, 0, 946, 111);
}

/* An errored job with continue_on_error, one that failed at once, one that never ran. */
static void build_error(struct scenario *sc)
{
	struct report_unit *u = add_unit(sc, "coe", 0), *bad, *idle;

	u->desc = "keeps going";
	u->error = 5;
	u->error_msg = "read 'data.0' at offset 8192: Input/output error";
	u->continue_on_error = true;
	record_ios(sc->st[0], 0, 256, 4096, 800, 2000, false, 10);
	sc->st[0]->issued[0] += 3;
	sc->st[0]->dir[0].runtime_ns = 2900000ULL;
	sc->st[0]->total_err = 3;
	sc->st[0]->first_error = 5;
	sc->st[0]->error = 5;
	record_job(sc->st[0], 1, 3 * MS, 0, 0);

	bad = add_unit(sc, "bad", 0);
	bad->error = 22;
	bad->error_msg = "read 'data.1' at offset 0: Invalid argument";
	sc->st[1]->issued[0] = 1;
	sc->st[1]->error = 22;
	sc->st[1]->submit[1] = 1;
	sc->st[1]->complete[0] = 1;
	sc->st[1]->complete[1] = 1;
	sc->st[1]->depth[0] = 1;
	sc->st[1]->minf = 19;

	idle = add_unit(sc, "idle", 1);
	idle->desc = "did \"nothing\"\tat all\\";
}

/* A job on an md RAID-1 of two disks, next to the root disk. */
static void build_md(struct scenario *sc)
{
	struct report_unit *u = add_unit(sc, "on-md", 0);
	struct job_stats *st = sc->st[0];

	u->has_slat = true;
	u->depth = 8;
	record_ios(st, 1, 30000, 4096, 200000, 300000, true, 11);
	st->dir[1].runtime_ns = 3000100000ULL;
	record_samples(&st->dir[1], 5, 39000, 4096, 11);
	record_job(st, 8, 3000 * MS, 90 * MS, 700 * MS);
	add_disk(sc, "md0", -1, 2, 0, 30000, 0);
	add_disk(sc, "sdb", 0, 0, 0, 30010, 2500);
	add_disk(sc, "sdc", 0, 0, 0, 30020, 2650);
	add_disk(sc, "vda", -1, 0, 12, 40, 30);
}

static void build_empty(struct scenario *sc)
{
	(void)sc;
}

static const struct golden_case {
	const char *file;
	void (*build)(struct scenario *sc);
	const char *fmt;	/* as --output-format names it */
	const char *terse;	/* as --terse-version names it, NULL for fio's default */
} golden_cases[] = {
	{ "report_read_async.txt", build_read_async, "normal" },
	{ "report_read_async.json", build_read_async, "json+" },
	{ "report_randrw_sync.txt", build_randrw_sync, "normal" },
	{ "report_randrw_sync.json", build_randrw_sync, "json" },
	{ "report_group.txt", build_group, "normal" },
	{ "report_group.json", build_group, "json" },
	{ "report_mixed.txt", build_mixed, "normal" },
	{ "report_mixed.json", build_mixed, "json" },
	{ "report_both.txt", build_both, "normal" },
	{ "report_both.json", build_both, "json" },
	{ "report_fsync.txt", build_fsync, "normal" },
	{ "report_fsync.json", build_fsync, "json+" },
	{ "report_error.txt", build_error, "normal" },
	{ "report_error.json", build_error, "json" },
	{ "report_md.txt", build_md, "normal" },
	{ "report_md.json", build_md, "json" },
	{ "report_empty.txt", build_empty, "normal" },
	{ "report_empty.json", build_empty, "json" },
	{ "report_read_async.terse", build_read_async, "terse" },
	{ "report_randrw_sync.terse", build_randrw_sync, "terse" },
	{ "report_group.terse", build_group, "terse" },
	{ "report_mixed.terse", build_mixed, "terse" },
	{ "report_both.terse", build_both, "terse" },
	{ "report_fsync.terse", build_fsync, "terse" },
	{ "report_error.terse", build_error, "terse" },
	{ "report_md.terse", build_md, "terse" },
	{ "report_both.terse2", build_both, "terse", "2" },
	{ "report_both.terse4", build_both, "terse", "4" },
	{ "report_both.terse5", build_both, "terse", "5" },
	{ "report_mixed.terse5", build_mixed, "terse", "5" },
	{ "report_md.terse2", build_md, "terse", "2" },
	{ "report_md.terse4", build_md, "terse", "4" },
	{ "report_error.terse2", build_error, "terse", "2" },
	{ "report_error.terse5", build_error, "terse", "5" },
	{ "report_group.terse5", build_group, "terse", "5" },
};

/*
 * The report of a scenario in the formats fmt names, terse in version terse (NULL: the
 * default), as a string; the caller frees it.
 */
static char *render_as(void (*build)(struct scenario *sc), const char *fmt, const char *terse)
{
	struct scenario *sc = malloc(sizeof(*sc));
	char *buf = NULL, bad[32];
	size_t len = 0;
	unsigned set = 0;
	FILE *f;

	ck_assert_ptr_nonnull(sc);
	if (terse)
		ck_assert_int_eq(report_formats_set_terse(&set, terse), 0);
	ck_assert_int_eq(report_formats_parse(fmt, &set, bad, sizeof(bad)), 0);
	scenario_init(sc);
	build(sc);
	f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	report_formats_render(f, &sc->r, set);
	ck_assert_int_eq(fclose(f), 0);
	scenario_free(sc);
	free(sc);
	return buf;
}

static char *render(void (*build)(struct scenario *sc), const char *fmt)
{
	return render_as(build, fmt, NULL);
}

static void golden_path(const char *file, char *path, size_t len)
{
	const char *src = getenv("IOJOB_SRCDIR");
	const char *here = __FILE__, *slash = strrchr(here, '/');

	if (src && *src)
		snprintf(path, len, "%s/tests/golden/%s", src, file);
	else if (slash)
		snprintf(path, len, "%.*s/../golden/%s", (int)(slash - here), here, file);
	else
		snprintf(path, len, "../golden/%s", file);
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Fail with the first line that differs. */
static void assert_same_text(const char *got, const char *want, const char *path)
{
	const char *g = got, *w = want;
	unsigned line = 1;
	int gl, wl;

	while (*g && *w && *g == *w) {
		if (*g == '\n') {
			line++;
			got = g + 1;
			want = w + 1;
		}
		g++;
		w++;
	}
	if (!*g && !*w)
		return;
	gl = (int)strcspn(got, "\n");
	wl = (int)strcspn(want, "\n");
	ck_abort_msg("%s:%u differs:\n got: %.*s\nwant: %.*s", path, line, gl, got, wl, want);
}

START_TEST(report_matches_golden_file)
{
	const struct golden_case *c = &golden_cases[_i];
	char path[4096], *got, *want;
	FILE *f;

	golden_path(c->file, path, sizeof(path));
	got = render_as(c->build, c->fmt, c->terse);
	if (getenv("IOJOB_REGEN_GOLDEN")) {
		f = fopen(path, "wb");
		ck_assert_msg(f != NULL, "cannot write %s", path);
		fputs(got, f);
		ck_assert_int_eq(fclose(f), 0);
		free(got);
		return;
	}
	want = read_file(path);
	ck_assert_msg(want != NULL, "cannot read %s (IOJOB_REGEN_GOLDEN=1 writes it)", path);
	assert_same_text(got, want, path);
	free(want);
	free(got);
}
END_TEST

/* Each key must follow the previous one; a NULL entry means "the next object". */
static void assert_keys_in_order(const char *text, const char *const *keys, unsigned n)
{
	char pat[128];
	const char *p = text, *q;
	unsigned i;

	for (i = 0; i < n; i++) {
		snprintf(pat, sizeof(pat), "\"%s\" : ", keys[i]);
		q = strstr(p, pat);
		ck_assert_msg(q != NULL, "key \"%s\" missing or out of order", keys[i]);
		p = q + strlen(pat);
	}
}

static const char *const top_keys[] = {
	"fio version", "timestamp", "timestamp_ms", "time", "global options", "jobs", "disk_util",
};

static const char *const job_keys[] = {
	"jobname", "groupid", "error", "eta", "elapsed", "job options", "read", "write", "trim",
	"sync", "job_runtime", "usr_cpu", "sys_cpu", "ctx", "majf", "minf", "iodepth_level",
	"iodepth_submit", "iodepth_complete", "latency_ns", "latency_us", "latency_ms",
	"latency_depth", "latency_target", "latency_percentile", "latency_window",
};

static const char *const dir_keys[] = {
	"io_bytes", "io_kbytes", "bw_bytes", "bw", "iops", "runtime", "total_ios", "short_ios",
	"drop_ios", "slat_ns", "min", "max", "mean", "stddev", "N", "clat_ns", "min", "max",
	"mean", "stddev", "N", "percentile", "1.000000", "99.990000", "bins", "lat_ns", "min",
	"max", "mean", "stddev", "N", "bw_min", "bw_max", "bw_agg", "bw_mean", "bw_dev",
	"bw_samples", "iops_min", "iops_max", "iops_mean", "iops_stddev", "iops_samples",
};

START_TEST(json_has_fios_keys_in_fios_order)
{
	char *out = render(build_read_async, "json+");

	assert_keys_in_order(out, top_keys, TABLE_LEN(top_keys));
	assert_keys_in_order(strstr(out, "\"jobs\""), job_keys, TABLE_LEN(job_keys));
	assert_keys_in_order(strstr(out, "\"read\""), dir_keys, TABLE_LEN(dir_keys));
	ck_assert_ptr_null(strstr(out, "\"desc\""));
	ck_assert_ptr_null(strstr(out, "\"total_err\""));
	free(out);
}
END_TEST

START_TEST(json_writes_error_keys_and_desc_last)
{
	static const char *const keys[] = {
		"latency_ms", "total_err", "first_error", "latency_depth", "latency_window", "desc",
	};
	char *out = render(build_error, "json");

	assert_keys_in_order(out, keys, TABLE_LEN(keys));
	ck_assert_ptr_nonnull(strstr(out, "\"desc\" : \"did \\\"nothing\\\"\\tat all\\\\\""));
	ck_assert_ptr_null(strstr(out, "\"disk_util\""));
	ck_assert_ptr_null(strstr(out, "\"global options\""));
	free(out);
}
END_TEST

/* latency_target=15ms, latency_window=400ms, latency_percentile=99.5, settled at depth 5. */
static void build_lat_target(struct scenario *sc)
{
	struct report_unit *u = add_unit(sc, "lat", 0);

	u->has_slat = true;
	u->depth = 5;
	u->lat_target_ns = 15 * MS;
	u->lat_window_ns = 400 * MS;
	u->lat_percentile = 99.5;
	record_ios(sc->st[0], 0, 1000, 4096, 100000, 150000, true, 1);
	sc->st[0]->dir[0].runtime_ns = 400 * MS;
}

/* As fio prints them: the target in ns, the window in µs. */
START_TEST(latency_line_has_the_search_in_fios_units)
{
	char *out = render(build_lat_target, "normal");

	ck_assert_ptr_nonnull(strstr(out, "\n     latency   : target=15000000, window=400000, "
				     "percentile=99.50%, depth=5\n"));
	free(out);
	out = render(build_lat_target, "json");
	ck_assert_ptr_nonnull(strstr(out, "\"latency_depth\" : 5,\n"));
	ck_assert_ptr_nonnull(strstr(out, "\"latency_target\" : 15000000,\n"));
	ck_assert_ptr_nonnull(strstr(out, "\"latency_percentile\" : 99.500000,\n"));
	ck_assert_ptr_nonnull(strstr(out, "\"latency_window\" : 400000"));
	free(out);
}
END_TEST

START_TEST(json_mixed_replaces_the_directions)
{
	static const char *const keys[] = { "job options", "mixed", "job_runtime" };
	char *out = render(build_mixed, "json");

	assert_keys_in_order(out, keys, TABLE_LEN(keys));
	ck_assert_ptr_null(strstr(out, "\"read\""));
	ck_assert_ptr_null(strstr(out, "\"sync\""));
	free(out);
}
END_TEST

START_TEST(json_md_master_has_aggr_keys)
{
	static const char *const keys[] = {
		"name", "read_ios", "write_ios", "read_merges", "write_merges", "read_ticks",
		"write_ticks", "in_queue", "util", "aggr_read_ios", "aggr_write_ios",
		"aggr_read_merges", "aggr_write_merge", "aggr_read_ticks", "aggr_write_ticks",
		"aggr_in_queue", "aggr_util", "name",
	};
	char *out = render(build_md, "json");

	assert_keys_in_order(strstr(out, "\"disk_util\""), keys, TABLE_LEN(keys));
	/* only the master has them */
	ck_assert_ptr_null(strstr(strstr(out, "\"sdb\""), "aggr_"));
	free(out);
}
END_TEST

/* A job whose reads took 5 s, then 20 s twice and 100 s three times: past fio's range. */
static void build_slow(struct scenario *sc)
{
	static const uint64_t lat_s[] = { 5, 20, 20, 100, 100, 100 };
	struct job_stats *st;
	unsigned i;

	add_unit(sc, "slow", 0);
	st = sc->st[0];
	for (i = 0; i < TABLE_LEN(lat_s); i++) {
		moments_add(&st->dir[0].clat, lat_s[i] * 1000 * MS, 1);
		hist_add(&st->dir[0].clat_hist, lat_s[i] * 1000 * MS, 1);
		st->lat_buckets[stats_lat_bucket(lat_s[i] * 1000 * MS)]++;
	}
	st->dir[0].ios = st->issued[0] = TABLE_LEN(lat_s);
	st->dir[0].bytes = TABLE_LEN(lat_s) * 4096;
	st->dir[0].runtime_ns = 300000 * MS;
	record_job(st, 1, 300000 * MS, 0, 0);
}

START_TEST(json_plus_bins_end_at_fios_last_bin)
{
	char *out = render(build_slow, "json+");
	const char *bins = strstr(out, "\"bins\" : {");

	/* fio counts everything from 2^34 ns in its bucket 1855; its tools know no larger bin */
	ck_assert_ptr_nonnull(bins);
	ck_assert_ptr_nonnull(strstr(bins, "\"4999610368\" : 1,\n"));
	ck_assert_ptr_nonnull(strstr(bins, "\"17112760320\" : 5\n"));
	/* the percentiles keep the real values: the top one is the largest sample, 100 s */
	ck_assert_ptr_nonnull(strstr(out, "\"99.990000\" : 100000000000"));
	free(out);
}
END_TEST

/* Braces and brackets balance outside strings, and strings close: a cheap validity check. */
static void assert_json_balanced(const char *s)
{
	int depth = 0;
	bool in_str = false;

	for (; *s; s++) {
		if (in_str) {
			if (*s == '\\')
				s++;
			else if (*s == '"')
				in_str = false;
			continue;
		}
		if (*s == '"')
			in_str = true;
		else if (*s == '{' || *s == '[')
			depth++;
		else if (*s == '}' || *s == ']')
			ck_assert_int_ge(--depth, 0);
	}
	ck_assert(!in_str);
	ck_assert_int_eq(depth, 0);
}

START_TEST(json_is_balanced_for_every_scenario)
{
	char *out = render(golden_cases[_i].build, "json+");

	assert_json_balanced(out);
	free(out);
}
END_TEST

/* Line of a terse report (0-based) split at ';' into fields; returns the count. */
static unsigned terse_fields(char *text, unsigned line, char **field, unsigned max)
{
	char *p = text, *end;
	unsigned n = 0;

	for (; line > 0 && p; line--) {
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	ck_assert_ptr_nonnull(p);
	end = strchr(p, '\n');
	ck_assert_ptr_nonnull(end);
	*end = '\0';
	while (n < max) {
		field[n++] = p;
		p = strchr(p, ';');
		if (!p)
			break;
		*p++ = '\0';
	}
	return n;
}

/* Field numbers as the fio HOWTO counts them, from 1. */
#define F(n)	field[(n) - 1]

/*
 * util is busy time over the jobs' I/O window when the run set one (setup, teardown and a
 * startdelay before any job began are no idle time of the device), else over the time
 * between the snapshots; never over 100%.
 */
START_TEST(util_is_over_the_jobs_io_window)
{
	struct disk d = { .name = "vdz", .master = -1 };
	struct disk_set s = { .disks = &d, .n = 1, .start_ns = 0, .end_ns = 2000000000ULL };
	struct disk_view v;

	d.end.ios[0] = 1000;
	d.end.io_ticks = 950;			/* ms busy */
	disk_delta(&s, 0, &v);
	ck_assert_double_eq_tol(v.util, 47.5, 1e-9);
	s.window_ns = 1000000000ULL;		/* the jobs' I/O window: 1 s of the 2 */
	disk_delta(&s, 0, &v);
	ck_assert_double_eq_tol(v.util, 95.0, 1e-9);
	s.window_ns = 900000000ULL;		/* busy past the window */
	disk_delta(&s, 0, &v);
	ck_assert_double_eq_tol(v.util, 100.0, 1e-9);
}
END_TEST

/*
 * A percentile is its bucket's midpoint, clamped to the samples' range: 55354 ns sits in a
 * bucket whose midpoint is past it, and p100 is 55354, never above max (fio prints 55552).
 */
START_TEST(percentiles_stay_within_min_and_max)
{
	static const double pct[] = { 1.0, 50.0, 100.0 };
	static const uint64_t samples[] = { 1021, 55354 };
	struct moments m = { .min = UINT64_MAX };
	struct hist *h = calloc(1, sizeof(*h));
	uint64_t raw[3], val[3];

	ck_assert_ptr_nonnull(h);
	for (size_t i = 0; i < TABLE_LEN(samples); i++) {
		moments_add(&m, samples[i], 1);
		hist_add(h, samples[i], 1);
	}
	hist_percentiles(h, pct, 3, raw);
	ck_assert_uint_gt(raw[2], 55354);	/* what clamping is for */
	pct_values(h, &m, pct, 3, val);
	ck_assert_uint_ge(val[0], 1021);
	ck_assert_uint_eq(val[2], 55354);
	for (int i = 0; i < 3; i++)
		ck_assert(val[i] >= m.min && val[i] <= m.max);
	free(h);
}
END_TEST

/* Rates are over the exact runtime: a job of 20.9 ms is not taken for one of 21 ms. */
START_TEST(rates_use_the_exact_runtime)
{
	struct dir_stats d = { .bytes = 20900 * 4096ULL, .runtime_ns = 20900000 };
	struct shown_dir s = { .d = &d, .issued = 20900 };

	ck_assert_uint_eq(dir_runtime_ms(&d), 21);		/* fio's whole milliseconds */
	ck_assert_uint_eq(dir_bw(&d), 4096000000ULL);		/* not 4076190476 */
	ck_assert_uint_eq(dir_iops(&s), 1000000);
	ck_assert_double_eq_tol(dir_iops_exact(&s), 1e6, 1e-6);
	d.runtime_ns = 0;
	ck_assert_uint_eq(dir_bw(&d), 0);
	ck_assert_uint_eq(dir_iops(&s), 0);
}
END_TEST

START_TEST(terse_v3_has_fios_fields_for_one_disk)
{
	char *out = render(build_read_async, "terse"), *field[256];

	/* fio 3.33 prints 130 fields for a job on one disk */
	ck_assert_uint_eq(terse_fields(out, 0, field, 256), 130);
	ck_assert_str_eq(F(1), "3");
	ck_assert_str_eq(F(2), "iojob-0.1.0");
	ck_assert_str_eq(F(3), "aio-read");
	ck_assert_str_eq(F(4), "0");
	ck_assert_str_eq(F(5), "0");
	ck_assert_str_eq(F(6), "601940");		/* 150485 x 4 KiB */
	ck_assert_str_eq(F(9), "3001");			/* runtime ms, rounded up */
	ck_assert_str_eq(F(18), "1.000000%=101");	/* clat p1 in usec, truncated */
	ck_assert_str_eq(F(35), "0%=0");		/* 17 percentiles, 3 empty slots */
	ck_assert_str_eq(F(37), "0%=0");
	ck_assert_str_eq(F(47), "0");			/* no writes */
	ck_assert_str_eq(F(59), "1.000000%=0");
	ck_assert_str_eq(F(85), "0.000000%");
	ck_assert_str_eq(F(93), "0.1%");		/* depth 1 of the ramp-up */
	ck_assert_str_eq(F(97), "100.0%");		/* depth 16 */
	ck_assert_str_eq(F(122), "vda");
	ck_assert_str_eq(F(130), "80.50%");
	free(out);
}
END_TEST

START_TEST(terse_md_master_adds_slaves_and_the_members_average)
{
	char *out = render(build_md, "terse"), *field[256];

	/* md0, its aggregate, sdb, sdc, vda */
	ck_assert_uint_eq(terse_fields(out, 0, field, 256), 121 + 9 + 9 + 9 + 9 + 9);
	ck_assert_str_eq(F(122), "md0");
	ck_assert_str_eq(F(130), "0.00%");		/* unknown util stays a number */
	ck_assert_str_eq(F(131), "slaves");
	ck_assert_str_eq(F(133), "30015");		/* (30010 + 30020) / 2 */
	ck_assert_str_eq(F(139), "88.33%");		/* the busiest member */
	ck_assert_str_eq(F(140), "sdb");
	ck_assert_str_eq(F(149), "sdc");
	free(out);
}
END_TEST

START_TEST(terse_ends_with_errors_then_description)
{
	char *out = render(build_error, "terse"), *field[256];
	unsigned n = terse_fields(out, 0, field, 256);

	ck_assert_uint_eq(n, 124);
	ck_assert_str_eq(F(5), "5");
	ck_assert_str_eq(F(122), "3");
	ck_assert_str_eq(F(123), "5");
	ck_assert_str_eq(F(124), "keeps going");
	free(out);
	out = render(build_error, "terse");
	/* a job that did nothing still has its line, without the errors fields */
	ck_assert_uint_eq(terse_fields(out, 2, field, 256), 122);
	ck_assert_str_eq(F(3), "idle");
	ck_assert_str_eq(F(93), "0.0%");
	ck_assert_str_eq(F(100), "0.00%");
	free(out);
}
END_TEST

START_TEST(terse_folds_nsec_buckets_into_the_first_usec_one)
{
	char *out = render(build_group, "terse"), *field[256];

	/* null-fast: every clat below 1 usec */
	ck_assert_uint_eq(terse_fields(out, 1, field, 256), 122);
	ck_assert_str_eq(F(100), "100.00%");
	ck_assert_str_eq(F(101), "0.00%");
	ck_assert_str_eq(F(122), "reads that go nowhere");
	free(out);
}
END_TEST

START_TEST(terse_mixed_has_one_block_both_has_three)
{
	char *out = render(build_mixed, "terse"), *field[256];

	ck_assert_uint_eq(terse_fields(out, 0, field, 256), 121 - 41 + 9);
	ck_assert_str_eq(F(6), "93800");		/* (16400 + 7050) x 4 KiB */
	free(out);
	out = render(build_both, "terse");
	ck_assert_uint_eq(terse_fields(out, 0, field, 256), 121 + 41 + 9);
	ck_assert_str_eq(F(6), "65600");
	ck_assert_str_eq(F(47), "28200");
	ck_assert_str_eq(F(88), "93800");
	free(out);
}
END_TEST

/*
 * fio 3.33's field counts and places per version, blktests' (common/fio) for v4: v2 drops
 * the version string and the disks, v4 adds the trim block, v5 adds 6 fields per block.
 */
START_TEST(terse_versions_have_fios_fields)
{
	static const struct {
		const char *version;
		unsigned fields, read_io, trim_io, usr_cpu;
	} v[] = {
		{ "2", 161, 5, 87, 128 }, { "3", 130, 6, 0, 88 }, { "4", 171, 6, 88, 129 },
		{ "5", 189, 6, 100, 147 },
	};
	char *out, *field[256];

	for (int i = 0; i < TABLE_LEN(v); i++) {
		out = render_as(build_read_async, "terse", v[i].version);
		ck_assert_uint_eq(terse_fields(out, 0, field, 256), v[i].fields);
		ck_assert_str_eq(F(1), v[i].version);
		ck_assert_str_eq(F(v[i].read_io), "601940");
		ck_assert_str_eq(F(v[i].usr_cpu), "3.733333%");
		if (v[i].trim_io)
			ck_assert_str_eq(F(v[i].trim_io), "0");
		ck_assert_str_eq(F(v[i].usr_cpu + 9), "100.0%");	/* depth 16 */
		free(out);
	}
	out = render_as(build_read_async, "terse", "4");
	terse_fields(out, 0, field, 256);
	ck_assert_str_eq(F(6), "601940");	/* blktests' "read io" */
	ck_assert_str_eq(F(9), "3001");		/* "read runtime" */
	ck_assert_str_eq(F(88), "0");		/* "trim io" */
	ck_assert_str_eq(F(138), "100.0%");	/* "io depth 16" */
	ck_assert_str_eq(F(163), "vda");	/* the disk after "io latency >=2000 ms" */
	ck_assert_str_eq(F(171), "80.50%");
	free(out);
	out = render_as(build_read_async, "terse", "5");
	terse_fields(out, 0, field, 256);
	ck_assert_str_eq(F(47), "5");		/* read: the bw sample count, then iops' */
	free(out);
}
END_TEST

START_TEST(terse_v2_puts_the_description_on_a_line_of_its_own)
{
	char *out = render_as(build_error, "terse", "2"), *field[256];

	ck_assert_uint_eq(terse_fields(out, 0, field, 256), 161 + 2);
	ck_assert_str_eq(F(1), "2");
	ck_assert_str_eq(F(2), "coe");
	ck_assert_str_eq(F(162), "3");		/* total_err;first_error end the line */
	ck_assert_str_eq(F(163), "5");
	free(out);
	out = render_as(build_error, "terse", "2");
	ck_assert_uint_eq(terse_fields(out, 1, field, 256), 2);
	ck_assert_str_eq(F(1), "");
	ck_assert_str_eq(F(2), "keeps going");
	free(out);
}
END_TEST

START_TEST(terse_version_takes_2_to_5_only)
{
	const char *bad[] = { "1", "6", "0", "", "33", "4x", "x" };
	unsigned set = RF_JSON;

	ck_assert_uint_eq(report_formats_terse_version(set), 3);
	for (int i = 0; i < TABLE_LEN(bad); i++)
		ck_assert_int_eq(report_formats_set_terse(&set, bad[i]), -EINVAL);
	ck_assert_int_eq(report_formats_set_terse(&set, NULL), -EINVAL);
	ck_assert_int_eq(report_formats_set_terse(&set, "4"), 0);
	ck_assert_uint_eq(report_formats_terse_version(set), 4);
	ck_assert_uint_eq(set & ~RF_TERSE_VERSION_MASK, RF_JSON);
	/* a format list replaces the formats, not the version */
	ck_assert_int_eq(report_formats_parse("terse", &set, (char[8]){ 0 }, 8), 0);
	ck_assert_uint_eq(set & ~RF_TERSE_VERSION_MASK, RF_TERSE);
	ck_assert_uint_eq(report_formats_terse_version(set), 4);
	ck_assert_int_eq(report_formats_parse(",", &set, (char[8]){ 0 }, 8), -ENODATA);
}
END_TEST

#undef F

/*
 * The table a new format is added to (output/report_formats.c): names unique, bits below
 * the terse version's, and each renderer's bit its own, so that naming one format prints
 * that format alone, once.
 */
START_TEST(format_table_gives_each_renderer_a_bit_of_its_own)
{
	const struct report_format *a, *b;

	for (a = report_formats; a->name; a++) {
		ck_assert_uint_ne(a->bits, 0);
		ck_assert_uint_eq(a->bits & RF_TERSE_VERSION_MASK, 0);
		for (b = a + 1; b->name; b++) {
			ck_assert_str_ne(a->name, b->name);
			if (a->render && b->render)
				ck_assert_uint_eq(a->bits & b->bits, 0);
		}
	}
}
END_TEST

START_TEST(normal_skips_jobs_without_io_but_keeps_their_group)
{
	char *out = render(build_error, "normal");

	ck_assert_ptr_null(strstr(out, "idle:"));
	ck_assert_ptr_nonnull(strstr(out, "\nRun status group 1 (all jobs):\n"));
	ck_assert_ptr_nonnull(strstr(out, "bad: (groupid=0, jobs=1): err=22 (read 'data.1'"));
	free(out);
}
END_TEST

START_TEST(job_header_prints_sizes_as_fio)
{
	static const unsigned long long lo[3] = { 4096, 65536, 512 };
	static const unsigned long long hi[3] = { 4096, 65536, 1048576 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	report_job_header(f, "aio-randrw", 0, "randrw", lo, hi, "libaio", 16, 4);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_str_eq(buf, "aio-randrw: (g=0): rw=randrw, bs=(R) 4096B-4096B, (W) "
			 "64.0KiB-64.0KiB, (T) 512B-1024KiB, ioengine=libaio, iodepth=16\n");
	free(buf);
}
END_TEST

/* The header's lines after the jobs': each part only when the run has it. */
START_TEST(run_header_says_sets_cell_clock_ranks)
{
	static const char *const keys[] = { "bs", "iodepth", "rw" };
	static const char *const values[] = { "8k", "4", "randread" };
	struct report_header h = {
		.set_keys = keys, .set_values = values, .nsets = 2,
		.cell_keys = keys + 2, .cell_values = values + 2, .ncell = 1,
		.cell_idx = 1, .ncells = 3,
		.tsc = true, .tsc_hz = 2400000000ULL, .some_gettime = true,
		.nranks = 4, .nhosts = 2, .nthreads = 2,
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	report_run_header(f, &h);
	h = (struct report_header){ .clock_why = "IOJOB_CLOCK=gettime", .nranks = 1,
				    .nthreads = 1 };
	report_run_header(f, &h);
	h.clock_why = "the kernel does not use the TSC as its clock";
	h.some_cpu_tsc = true;
	h.tsc_hz = 2096000000ULL;
	report_run_header(f, &h);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_str_eq(buf, "iojob-" IOJOB_VERSION "\n"
			 "Overrides (--set): bs=8k, iodepth=4\n"
			 "Sweep (--sweep) 2/3: rw=randread\n"
			 "Clock: tsc (2400 MHz); clock_gettime where clocksource=clock_gettime\n"
			 "Ranks: 4 on 2 hosts (MPI), each running the jobs below\n"
			 "Starting 2 threads\n"
			 "iojob-" IOJOB_VERSION "\n"
			 "Clock: clock_gettime (IOJOB_CLOCK=gettime)\n"
			 "Starting 1 thread\n"
			 "iojob-" IOJOB_VERSION "\n"
			 "Clock: clock_gettime (the kernel does not use the TSC as its clock); "
			 "tsc (2096 MHz) where clocksource=cpu\n"
			 "Starting 1 thread\n");
	free(buf);
}
END_TEST

static void utc(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
}

/* Every format of the table parses and prints; several print once each in fio's order. */
START_TEST(formats_print_in_fios_order_from_the_table)
{
	const char *name, *help;
	char *all = render(build_group, "normal,terse,json+,json"), *part[3], *want;
	const char *order[] = { "terse", "json+", "normal" };
	unsigned set, n = 0;
	char bad[32];

	for (unsigned i = 0; (name = report_format_at(i, &help)); i++, n++) {
		free(render(build_group, name));
		ck_assert_ptr_nonnull(help);
	}
	ck_assert_uint_eq(n, 4);
	for (unsigned i = 0; i < 3; i++)
		part[i] = render(build_group, order[i]);
	ck_assert_int_ne(asprintf(&want, "%s%s%s", part[0], part[1], part[2]), -1);
	ck_assert_str_eq(all, want);
	ck_assert_int_eq(report_formats_parse("json,xml", &set, bad, sizeof(bad)), -EINVAL);
	ck_assert_str_eq(bad, "xml");
	ck_assert_int_eq(report_formats_parse(",", &set, bad, sizeof(bad)), -ENODATA);
	for (unsigned i = 0; i < 3; i++)
		free(part[i]);
	free(want);
	free(all);
}
END_TEST

static Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc;

	tc = tcase_create("golden");
	tcase_add_checked_fixture(tc, utc, NULL);
	tcase_add_loop_test(tc, report_matches_golden_file, 0, TABLE_LEN(golden_cases));
	tcase_add_test(tc, formats_print_in_fios_order_from_the_table);
	suite_add_tcase(s, tc);

	tc = tcase_create("json");
	tcase_add_checked_fixture(tc, utc, NULL);
	tcase_add_test(tc, json_has_fios_keys_in_fios_order);
	tcase_add_test(tc, json_writes_error_keys_and_desc_last);
	tcase_add_test(tc, latency_line_has_the_search_in_fios_units);
	tcase_add_test(tc, json_mixed_replaces_the_directions);
	tcase_add_test(tc, json_md_master_has_aggr_keys);
	tcase_add_test(tc, json_plus_bins_end_at_fios_last_bin);
	tcase_add_loop_test(tc, json_is_balanced_for_every_scenario, 0, TABLE_LEN(golden_cases));
	suite_add_tcase(s, tc);

	tc = tcase_create("terse");
	tcase_add_test(tc, util_is_over_the_jobs_io_window);
	tcase_add_test(tc, percentiles_stay_within_min_and_max);
	tcase_add_test(tc, rates_use_the_exact_runtime);
	tcase_add_test(tc, terse_v3_has_fios_fields_for_one_disk);
	tcase_add_test(tc, terse_md_master_adds_slaves_and_the_members_average);
	tcase_add_test(tc, terse_ends_with_errors_then_description);
	tcase_add_test(tc, terse_folds_nsec_buckets_into_the_first_usec_one);
	tcase_add_test(tc, terse_mixed_has_one_block_both_has_three);
	tcase_add_test(tc, terse_versions_have_fios_fields);
	tcase_add_test(tc, terse_v2_puts_the_description_on_a_line_of_its_own);
	tcase_add_test(tc, terse_version_takes_2_to_5_only);
	tcase_add_test(tc, format_table_gives_each_renderer_a_bit_of_its_own);
	suite_add_tcase(s, tc);

	tc = tcase_create("normal");
	tcase_add_checked_fixture(tc, utc, NULL);
	tcase_add_test(tc, normal_skips_jobs_without_io_but_keeps_their_group);
	tcase_add_test(tc, job_header_prints_sizes_as_fio);
	tcase_add_test(tc, run_header_says_sets_cell_clock_ranks);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(report_suite());
}
