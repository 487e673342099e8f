/*
 * Tests for engine/observe/disk_watch on a fake sysfs tree that IOJOB_SYSFS_ROOT points to: md
 * members, partitions, loop devices (alone, as in fio: not the disks under their backing
 * files), every field of "stat", and the disk lines of the normal, JSON and terse reports
 * with known before and after counters. Needs no root and no devices.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <check.h>

#include "engine/observe/disk_watch.h"
#include "output/output.h"
#include "base/env.h"
#include "base/sysfs.h"
#include "loopdev.h"
#include "test_util.h"

#define MS		1000000ULL	/* ns */

/*
 * Majors of the "local/experimental use" range, so that the device under the temporary
 * directory (which the loop tests add to the tree) cannot be one of them.
 */
#define MD_MAJ		120
#define SD_MAJ		121
#define LOOP_MAJ	122

struct fake_node {
	const char *path;	/* relative to the root */
	const char *link;	/* symlink target relative to the root, or NULL */
	const char *text;	/* file content, or NULL for a directory */
};

#define MD0	"devices/virtual/block/md0"
#define PCI	"devices/pci0/block"
#define LOOP	"devices/virtual/block"

/* md0 over sda1 and sda2 (partitions of sda) and sdb; sdc alone; loop0 and loop1. */
static const struct fake_node tree[] = {
	{ MD0 "/dev", NULL, "120:0\n" },
	{ MD0 "/slaves/sda1", PCI "/sda/sda1", NULL },
	{ MD0 "/slaves/sda2", PCI "/sda/sda2", NULL },
	{ MD0 "/slaves/sdb", PCI "/sdb", NULL },
	{ PCI "/sda/dev", NULL, "121:0\n" },
	{ PCI "/sda/sda1/dev", NULL, "121:1\n" },
	{ PCI "/sda/sda1/partition", NULL, "1\n" },
	{ PCI "/sda/sda2/dev", NULL, "121:2\n" },
	{ PCI "/sda/sda2/partition", NULL, "2\n" },
	{ PCI "/sdb/dev", NULL, "121:16\n" },
	{ PCI "/sdc/dev", NULL, "121:32\n" },
	{ PCI "/sdc/slaves", NULL, NULL },
	{ LOOP "/loop0/dev", NULL, "122:0\n" },
	{ LOOP "/loop1/dev", NULL, "122:1\n" },
	{ LOOP "/loop1/loop/backing_file", NULL, "/nonexistent/iojob.img (deleted)\n" },
	{ "dev/block/120:0", MD0, NULL },
	{ "dev/block/121:0", PCI "/sda", NULL },
	{ "dev/block/121:1", PCI "/sda/sda1", NULL },
	{ "dev/block/121:2", PCI "/sda/sda2", NULL },
	{ "dev/block/121:16", PCI "/sdb", NULL },
	{ "dev/block/121:32", PCI "/sdc", NULL },
	{ "dev/block/122:0", LOOP "/loop0", NULL },
	{ "dev/block/122:1", LOOP "/loop1", NULL },
	{ "block/md0", MD0, NULL },
	{ "block/sda", PCI "/sda", NULL },
	{ "block/sdb", PCI "/sdb", NULL },
	{ "block/sdc", PCI "/sdc", NULL },
	{ "block/loop0", LOOP "/loop0", NULL },
	{ "block/loop1", LOOP "/loop1", NULL },
};

/*
 * Counters at the start: all 17 fields (md0), the 11 of old kernels (sda), the 15 of
 * Linux 4.18 (sdb); sdc cannot be parsed.
 */
static const struct fake_node stat_before[] = {
	{ MD0 "/stat", NULL, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n" },
	{ PCI "/sda/stat", NULL, "   21 22 23 24    25 26 27 28 0 30 31\n" },
	{ PCI "/sdb/stat", NULL, "41 42 43 44 45 46 47 48 0 50 51 0 0 0 0\n" },
	{ PCI "/sdc/stat", NULL, "not a stat line\n" },
	{ LOOP "/loop0/stat", NULL, "0 0 0 0 0 0 0 0 0 0 0\n" },
	{ LOOP "/loop1/stat", NULL, "0 0 0 0 0 0 0 0 0 0 0\n" },
};

/*
 * And at the end: md0 did 1000 reads and 2000 writes without counting busy time, as md
 * does on older kernels; sda was busy 800 ms and sdb 950 ms of the run's 1000.
 */
static const struct fake_node stat_after[] = {
	{ MD0 "/stat", NULL, "1001 2 8003 4 2005 6 16007 8 0 10 11 12 13 14 15 16 17\n" },
	{ PCI "/sda/stat", NULL, "621 32 4823 324 1025 46 8027 528 2 830 931\n" },
	{ PCI "/sdb/stat", NULL, "441 47 3243 244 1046 47 8047 649 1 1000 828 0 0 0 0\n" },
};

static char root[256];

/* Create a node of the tree under root; symlinks point to absolute paths under it. */
static void make_node(const struct fake_node *n)
{
	char path[PATH_MAX], target[PATH_MAX];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", root, n->path);
	ret = test_mkdir_parents(path);
	if (!ret && n->link) {
		snprintf(target, sizeof(target), "%s/%s", root, n->link);
		unlink(path);
		ret = symlink(target, path) < 0 ? -errno : 0;
	} else if (!ret && n->text) {
		ret = test_write_text(path, n->text);
	} else if (!ret && mkdir(path, 0755) < 0 && errno != EEXIST) {
		ret = -errno;
	}
	ck_assert_msg(ret == 0, "fake '%s': %s", path, strerror(-ret));
}

static void make_nodes(const struct fake_node *n, unsigned count)
{
	for (unsigned i = 0; i < count; i++)
		make_node(&n[i]);
}

/*
 * Once per test case, in the parent: the tree, and the environment the children inherit.
 * iojob reads IOJOB_SYSFS_ROOT once a process (base/env.c), so every case uses the one
 * root that the first made: a run without CK_FORK sees the same tree in every case.
 */
static void tree_setup(void)
{
	const char *tmp = getenv("TMPDIR");

	if (!root[0]) {
		snprintf(root, sizeof(root), "%s/iojob-sysfs-XXXXXX", tmp ? tmp : "/tmp");
		ck_assert_msg(mkdtemp(root) != NULL, "mkdtemp '%s': %s", root, strerror(errno));
	} else {
		ck_assert_msg(mkdir(root, 0700) == 0, "mkdir '%s': %s", root, strerror(errno));
	}
	make_nodes(tree, TABLE_LEN(tree));
	setenv("IOJOB_SYSFS_ROOT", root, 1);
}

static void tree_teardown(void)
{
	unsetenv("IOJOB_SYSFS_ROOT");
	loopdev_remove_tree(root);
}

/* Before each test: the counters at their start values. */
static void counters_reset(void)
{
	make_nodes(stat_before, TABLE_LEN(stat_before));
}

static const struct disk *disk_named(const struct disk_set *s, const char *name)
{
	for (unsigned i = 0; i < s->n; i++)
		if (!strcmp(s->disks[i].name, name))
			return &s->disks[i];
	ck_abort_msg("no disk '%s'", name);
	return NULL;
}

/* Members come in readdir order: check the pair at i and i + 1 is sda and sdb under m. */
static void assert_members(const struct disk_set *s, unsigned i, int m)
{
	bool sda_first = !strcmp(s->disks[i].name, "sda");

	ck_assert_str_eq(s->disks[i].name, sda_first ? "sda" : "sdb");
	ck_assert_str_eq(s->disks[i + 1].name, sda_first ? "sdb" : "sda");
	ck_assert_int_eq(s->disks[i].master, m);
	ck_assert_int_eq(s->disks[i + 1].master, m);
	ck_assert_uint_eq(s->disks[i].nslaves, 0);
}

/* --- mapping ------------------------------------------------------------------------ */

START_TEST(md_lists_each_member_disk_once_after_it)
{
	struct disk_set s = { 0 };

	ck_assert_int_eq(diskset_add_dev(&s, MD_MAJ, 0), 0);
	ck_assert_uint_eq(s.n, 3);
	ck_assert_str_eq(s.disks[0].name, "md0");
	ck_assert_int_eq(s.disks[0].master, -1);
	ck_assert_uint_eq(s.disks[0].nslaves, 2);
	assert_members(&s, 1, 0);
	ck_assert_int_eq(diskset_add_dev(&s, SD_MAJ, 16), 0);
	ck_assert_int_eq(diskset_add_dev(&s, SD_MAJ, 2), 0);
	ck_assert_uint_eq(s.n, 3);
	diskset_free(&s);
}
END_TEST

START_TEST(disk_listed_before_its_md_moves_under_it)
{
	struct disk_set s = { 0 };

	ck_assert_int_eq(diskset_add_dev(&s, SD_MAJ, 16), 0);
	ck_assert_int_eq(diskset_add_dev(&s, SD_MAJ, 32), 0);
	ck_assert_int_eq(diskset_add_dev(&s, MD_MAJ, 0), 0);
	ck_assert_uint_eq(s.n, 4);
	ck_assert_str_eq(s.disks[0].name, "sdc");
	ck_assert_int_eq(s.disks[0].master, -1);
	ck_assert_str_eq(s.disks[1].name, "md0");
	ck_assert_uint_eq(s.disks[1].nslaves, 2);
	assert_members(&s, 2, 1);
	diskset_free(&s);
}
END_TEST

START_TEST(partition_maps_to_its_disk)
{
	struct disk_set s = { 0 };

	ck_assert_int_eq(diskset_add_dev(&s, SD_MAJ, 2), 0);
	ck_assert_int_eq(diskset_add_dev(&s, SD_MAJ, 1), 0);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_str_eq(s.disks[0].name, "sda");
	ck_assert_uint_eq(s.disks[0].nslaves, 0);
	diskset_free(&s);
}
END_TEST

START_TEST(unknown_device_is_enoent)
{
	struct disk_set s = { 0 };

	ck_assert_int_eq(diskset_add_dev(&s, SD_MAJ, 48), -ENOENT);
	ck_assert_uint_eq(s.n, 0);
	diskset_free(&s);
}
END_TEST

/*
 * Give loop0 a backing file in the tree's directory and the tree a disk "vdz" for the
 * device that directory is on. False (and a note) when that device has no number the
 * tree can use.
 */
static bool attach_fake_loop0(unsigned *maj, unsigned *min)
{
	char img[sizeof(root) + 32], text[sizeof(root) + 64], link[64];
	const struct fake_node nodes[] = {
		{ LOOP "/loop0/loop/backing_file", NULL, text },
		{ PCI "/vdz/dev", NULL, "250:0\n" },
		{ PCI "/vdz/stat", NULL, "5 0 40 1 7 0 56 2 0 3 3\n" },
		{ link, PCI "/vdz", NULL },
		{ "block/vdz", PCI "/vdz", NULL },
	};
	struct stat st;

	snprintf(img, sizeof(img), "%s/backing.img", root);
	ck_assert_int_eq(test_write_text(img, "iojob"), 0);
	ck_assert_int_eq(stat(img, &st), 0);
	*maj = major(st.st_dev);
	*min = minor(st.st_dev);
	if (!*maj || *maj == MD_MAJ || *maj == SD_MAJ || *maj == LOOP_MAJ) {
		snprintf(text, sizeof(text), "'%s' is on device %u:%u, which the fake tree "
			 "cannot hold", root, *maj, *min);
		test_skipping("loop member checks", text);
		return false;
	}
	snprintf(text, sizeof(text), "%s\n", img);
	snprintf(link, sizeof(link), "dev/block/%u:%u", *maj, *min);
	make_nodes(nodes, TABLE_LEN(nodes));
	return true;
}

/* As in fio, a loop device is listed alone: the disk under its backing file is no member. */
START_TEST(loop_over_a_file_on_a_disk_stands_alone)
{
	struct disk_set s = { 0 };
	unsigned maj, min;

	if (!attach_fake_loop0(&maj, &min))
		return;
	ck_assert_int_eq(diskset_add_dev(&s, LOOP_MAJ, 0), 0);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_str_eq(s.disks[0].name, "loop0");
	ck_assert_uint_eq(s.disks[0].nslaves, 0);
	/* the backing disk added on its own afterwards (a file on it) is an entry of its own */
	ck_assert_int_eq(diskset_add_dev(&s, maj, min), 0);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_str_eq(s.disks[1].name, "vdz");
	ck_assert_int_eq(s.disks[1].master, -1);
	diskset_free(&s);
}
END_TEST

START_TEST(disk_listed_before_its_loop_stays_on_its_own)
{
	struct disk_set s = { 0 };
	unsigned maj, min;

	if (!attach_fake_loop0(&maj, &min))
		return;
	ck_assert_int_eq(diskset_add_dev(&s, maj, min), 0);
	ck_assert_int_eq(diskset_add_dev(&s, LOOP_MAJ, 0), 0);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_str_eq(s.disks[0].name, "vdz");
	ck_assert_int_eq(s.disks[0].master, -1);
	ck_assert_str_eq(s.disks[1].name, "loop0");
	ck_assert_int_eq(s.disks[1].master, -1);
	ck_assert_uint_eq(s.disks[1].nslaves, 0);
	diskset_free(&s);
}
END_TEST

START_TEST(loop_without_a_backing_file_has_no_member)
{
	struct disk_set s = { 0 };

	/* loop0 has no loop/backing_file (detached); loop1's file was deleted */
	ck_assert_int_eq(diskset_add_dev(&s, LOOP_MAJ, 0), 0);
	ck_assert_int_eq(diskset_add_dev(&s, LOOP_MAJ, 1), 0);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_uint_eq(s.disks[0].nslaves, 0);
	ck_assert_uint_eq(s.disks[1].nslaves, 0);
	ck_assert_int_eq(s.disks[1].master, -1);
	diskset_free(&s);
}
END_TEST

/* --- counters --------------------------------------------------------------------------- */

START_TEST(every_field_of_stat_is_read)
{
	struct disk_set s = { 0 };
	const struct disk_counters *c;

	ck_assert_int_eq(diskset_add_dev(&s, MD_MAJ, 0), 0);
	ck_assert_int_eq(diskset_snapshot_start(&s), 0);
	c = &disk_named(&s, "md0")->start;
	ck_assert_uint_eq(c->ios[0], 1);
	ck_assert_uint_eq(c->merges[0], 2);
	ck_assert_uint_eq(c->sectors[0], 3);
	ck_assert_uint_eq(c->ticks[0], 4);
	ck_assert_uint_eq(c->ios[1], 5);
	ck_assert_uint_eq(c->merges[1], 6);
	ck_assert_uint_eq(c->sectors[1], 7);
	ck_assert_uint_eq(c->ticks[1], 8);
	ck_assert_uint_eq(c->in_flight, 9);
	ck_assert_uint_eq(c->io_ticks, 10);
	ck_assert_uint_eq(c->in_queue, 11);
	ck_assert_uint_eq(c->discard_ios, 12);
	ck_assert_uint_eq(c->discard_merges, 13);
	ck_assert_uint_eq(c->discard_sectors, 14);
	ck_assert_uint_eq(c->discard_ticks, 15);
	ck_assert_uint_eq(c->flush_ios, 16);
	ck_assert_uint_eq(c->flush_ticks, 17);
	/* an old kernel's 11 fields: the rest stay 0 */
	c = &disk_named(&s, "sda")->start;
	ck_assert_uint_eq(c->ios[0], 21);
	ck_assert_uint_eq(c->in_queue, 31);
	ck_assert_uint_eq(c->discard_ios, 0);
	ck_assert_uint_eq(c->flush_ticks, 0);
	c = &disk_named(&s, "sdb")->start;
	ck_assert_uint_eq(c->ticks[1], 48);
	ck_assert_uint_eq(c->io_ticks, 50);
	make_nodes(stat_after, TABLE_LEN(stat_after));
	ck_assert_int_eq(diskset_snapshot_end(&s), 0);
	ck_assert_uint_ge(s.end_ns, s.start_ns);
	ck_assert_uint_eq(disk_named(&s, "md0")->end.ios[0], 1001);
	ck_assert_uint_eq(disk_named(&s, "sda")->end.sectors[1], 8027);
	ck_assert_uint_eq(disk_named(&s, "sdb")->end.in_queue, 828);
	diskset_free(&s);
}
END_TEST

START_TEST(unreadable_stat_reads_as_zero_and_fails)
{
	struct disk_set s = { 0 };
	const struct disk *d;

	ck_assert_int_eq(diskset_add_dev(&s, MD_MAJ, 0), 0);
	ck_assert_int_eq(diskset_add_dev(&s, SD_MAJ, 32), 0);
	ck_assert_int_eq(diskset_snapshot_start(&s), -EINVAL);
	d = disk_named(&s, "sdc");
	ck_assert_uint_eq(d->start.ios[0], 0);
	ck_assert_uint_eq(d->start.in_queue, 0);
	ck_assert_uint_eq(disk_named(&s, "md0")->start.ios[1], 5);
	ck_assert_uint_gt(s.start_ns, 0);
	diskset_free(&s);
}
END_TEST

/* --- the disk lines of the reports -------------------------------------------------------- */

/* md0 and its members sampled before and after, over exactly one second. */
static void md_run(struct disk_set *s)
{
	memset(s, 0, sizeof(*s));
	ck_assert_int_eq(diskset_add_dev(s, MD_MAJ, 0), 0);
	ck_assert_int_eq(diskset_snapshot_start(s), 0);
	make_nodes(stat_after, TABLE_LEN(stat_after));
	ck_assert_int_eq(diskset_snapshot_end(s), 0);
	s->end_ns = s->start_ns + 1000 * MS;
}

/* One idle job, so that terse has a line to put the disks on. */
struct idle_report {
	struct report r;
	struct report_unit u;
	struct job_stats st;
};

enum fmt { FMT_NORMAL, FMT_JSON, FMT_TERSE };

static char *render(const struct disk_set *s, enum fmt fmt)
{
	struct idle_report *ir = calloc(1, sizeof(*ir));
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_ptr_nonnull(ir);
	stats_init(&ir->st);
	ir->u = (struct report_unit){ .name = "idle", .members = 1, .kb_base = 1024,
				      .st = &ir->st };
	ir->r = (struct report){ .version = "iojob-0.1.0", .units = &ir->u, .nunits = 1,
				 .disks = s };
	f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	if (fmt == FMT_NORMAL)
		report_normal(f, &ir->r);
	else if (fmt == FMT_JSON)
		report_json(f, &ir->r, false);
	else
		report_terse(f, &ir->r, 3);
	ck_assert_int_eq(fclose(f), 0);
	free(ir);
	return buf;
}

static void assert_has_line(const char *text, const char *line)
{
	const char *p = strstr(text, line);

	ck_assert_msg(p && (p == text || p[-1] == '\n') && p[strlen(line)] == '\n',
		      "no line '%s' in:\n%s", line, text);
}

START_TEST(md_line_averages_members_and_takes_the_busiest)
{
	struct disk_set s;
	char *out;

	md_run(&s);
	out = render(&s, FMT_NORMAL);
	/* members' sums over their count, integer division, as fio's aggregate_slaves_stats */
	assert_has_line(out, "    md0: ios=1000/2000, merge=0/0, ticks=0/0, in_queue=0, util=n/a, "
			"aggrios=500/1000, aggrmerge=7/10, aggrticks=250/550, aggrin_queue=838, "
			"aggrutil=95.00%");
	assert_has_line(out, "  sda: ios=600/1000, merge=10/20, ticks=300/500, in_queue=900, "
			"util=80.00%");
	assert_has_line(out, "  sdb: ios=400/1001, merge=5/1, ticks=200/601, in_queue=777, "
			"util=95.00%");
	ck_assert_ptr_null(strstr(out, "nan"));
	free(out);
	diskset_free(&s);
}
END_TEST

START_TEST(md_json_and_terse_carry_the_same_numbers)
{
	struct disk_set s;
	const char *md0;
	char *out;

	md_run(&s);
	out = render(&s, FMT_JSON);
	md0 = strstr(out, "\"name\" : \"md0\"");
	ck_assert_ptr_nonnull(md0);
	/* an unknown util stays a number in machine-readable output */
	ck_assert_ptr_nonnull(strstr(md0, "\"util\" : 0.000000,\n"));
	ck_assert_ptr_nonnull(strstr(md0, "\"aggr_write_ios\" : 1000,\n"));
	ck_assert_ptr_nonnull(strstr(md0, "\"aggr_write_merge\" : 10,\n"));
	ck_assert_ptr_nonnull(strstr(md0, "\"aggr_in_queue\" : 838,\n"));
	ck_assert_ptr_nonnull(strstr(md0, "\"aggr_util\" : 95.000000\n"));
	ck_assert_ptr_nonnull(strstr(out, "\"util\" : 80.000000\n"));
	free(out);
	out = render(&s, FMT_TERSE);
	ck_assert_ptr_nonnull(strstr(out, ";md0;1000;2000;0;0;0;0;0;0.00%;"
				       "slaves;500;1000;7;10;250;550;838;95.00%;"));
	ck_assert_ptr_nonnull(strstr(out, ";sda;600;1000;10;20;300;500;900;80.00%"));
	ck_assert_ptr_nonnull(strstr(out, ";sdb;400;1001;5;1;200;601;777;95.00%"));
	free(out);
	diskset_free(&s);
}
END_TEST

START_TEST(aggrutil_is_na_when_no_member_counts_busy_time)
{
	static const struct fake_node idle_ticks[] = {
		{ PCI "/sda/stat", NULL, "621 32 4823 324 1025 46 8027 528 2 30 931\n" },
		{ PCI "/sdb/stat", NULL, "441 47 3243 244 1046 47 8047 649 1 50 828 0 0 0 0\n" },
	};
	struct disk_set s;
	char *out;

	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(diskset_add_dev(&s, MD_MAJ, 0), 0);
	ck_assert_int_eq(diskset_snapshot_start(&s), 0);
	make_nodes(stat_after, TABLE_LEN(stat_after));
	make_nodes(idle_ticks, TABLE_LEN(idle_ticks));
	ck_assert_int_eq(diskset_snapshot_end(&s), 0);
	s.end_ns = s.start_ns;		/* and no time passed: still no division by zero */
	out = render(&s, FMT_NORMAL);
	ck_assert_ptr_nonnull(strstr(out, "util=n/a, aggrios=500/1000"));
	ck_assert_ptr_nonnull(strstr(out, "aggrin_queue=838, aggrutil=n/a\n"));
	ck_assert_ptr_null(strstr(out, "nan"));
	free(out);
	diskset_free(&s);
}
END_TEST

START_TEST(idle_device_has_zero_util_not_na)
{
	struct disk_set s = { 0 };
	char *out;

	ck_assert_int_eq(diskset_add_dev(&s, SD_MAJ, 16), 0);
	ck_assert_int_eq(diskset_snapshot_start(&s), 0);
	ck_assert_int_eq(diskset_snapshot_end(&s), 0);
	s.end_ns = s.start_ns + 1000 * MS;
	out = render(&s, FMT_NORMAL);
	assert_has_line(out, "  sdb: ios=0/0, merge=0/0, ticks=0/0, in_queue=0, util=0.00%");
	free(out);
	diskset_free(&s);
}
END_TEST

/* fio's line for a loop device: its own counters, no aggr* part, no line for vdz. */
START_TEST(loop_line_has_no_backing_disk)
{
	static const struct fake_node after[] = {
		{ LOOP "/loop0/stat", NULL, "10 0 80 4 20 0 160 6 0 9 10\n" },
		{ PCI "/vdz/stat", NULL, "15 0 120 5 27 1 216 10 0 13 15\n" },
	};
	struct disk_set s = { 0 };
	unsigned maj, min;
	char *out;

	if (!attach_fake_loop0(&maj, &min))
		return;
	ck_assert_int_eq(diskset_add_dev(&s, LOOP_MAJ, 0), 0);
	ck_assert_int_eq(diskset_snapshot_start(&s), 0);
	make_nodes(after, TABLE_LEN(after));
	ck_assert_int_eq(diskset_snapshot_end(&s), 0);
	s.end_ns = s.start_ns + 100 * MS;
	out = render(&s, FMT_NORMAL);
	assert_has_line(out, "  loop0: ios=10/20, merge=0/0, ticks=4/6, in_queue=10, util=9.00%");
	ck_assert_ptr_null(strstr(out, "aggr"));
	ck_assert_ptr_null(strstr(out, "vdz"));
	free(out);
	diskset_free(&s);
}
END_TEST

/* --- the sysfs helper (base/sysfs.c) ---------------------------------------------------- */

/* The reports read the fake tree; the safety checks and the clock never do. */
START_TEST(only_the_reports_read_the_fake_root)
{
	char path[PATH_MAX], want[PATH_MAX];

	ck_assert_int_eq(sysfs_path(path, sizeof(path), SYSFS_REPORTS, "block/%s/stat", "sda"), 0);
	snprintf(want, sizeof(want), "%s/block/sda/stat", root);
	ck_assert_str_eq(path, want);
	ck_assert_int_eq(sysfs_path(path, sizeof(path), SYSFS_REAL, "block/%s/stat", "sda"), 0);
	ck_assert_str_eq(path, "/sys/block/sda/stat");
	ck_assert_int_eq(sysfs_path(path, 8, SYSFS_REAL, "block/%s", "sda"), -ENAMETOOLONG);
}
END_TEST

/* The environment is read once: a later change does not move the reports' tree. */
START_TEST(root_is_read_once)
{
	char path[PATH_MAX], want[PATH_MAX];

	ck_assert_str_eq(env_get(ENV_SYSFS_ROOT), root);
	setenv("IOJOB_SYSFS_ROOT", "/elsewhere", 1);
	ck_assert_int_eq(sysfs_path(path, sizeof(path), SYSFS_REPORTS, "block"), 0);
	setenv("IOJOB_SYSFS_ROOT", root, 1);
	snprintf(want, sizeof(want), "%s/block", root);
	ck_assert_str_eq(path, want);
}
END_TEST

START_TEST(small_files_and_dev_numbers_are_read)
{
	char path[PATH_MAX], buf[64];
	dev_t dev;

	ck_assert_int_eq(sysfs_path(path, sizeof(path), SYSFS_REPORTS, LOOP "/loop1/loop/"
				    "backing_file"), 0);
	ck_assert_int_eq(sysfs_read(AT_FDCWD, path, buf, sizeof(buf)), 32);
	ck_assert_str_eq(buf, "/nonexistent/iojob.img (deleted)");	/* no final newline */
	ck_assert_int_eq(sysfs_read(AT_FDCWD, path, buf, 9), 8);	/* as much as fits */
	ck_assert_str_eq(buf, "/nonexis");
	ck_assert_int_eq(sysfs_path(path, sizeof(path), SYSFS_REPORTS, "block/sda/sda1/dev"), 0);
	ck_assert_int_eq(sysfs_read_devno(AT_FDCWD, path, &dev), 0);
	ck_assert_uint_eq(major(dev), SD_MAJ);
	ck_assert_uint_eq(minor(dev), 1);
	ck_assert_int_eq(sysfs_path(path, sizeof(path), SYSFS_REPORTS, "block/sda/sda1/partition"),
			 0);
	ck_assert_int_eq(sysfs_read_devno(AT_FDCWD, path, &dev), -EINVAL);
	ck_assert_int_eq(sysfs_path(path, sizeof(path), SYSFS_REPORTS, "block/nosuch/dev"), 0);
	ck_assert_int_eq(sysfs_read_devno(AT_FDCWD, path, &dev), -ENOENT);
}
END_TEST

static Suite *sysfs_suite(void)
{
	Suite *s = suite_create("sysfs");
	TCase *tc;

	tc = tcase_create("mapping");
	tcase_add_unchecked_fixture(tc, tree_setup, tree_teardown);
	tcase_add_checked_fixture(tc, counters_reset, NULL);
	tcase_add_test(tc, md_lists_each_member_disk_once_after_it);
	tcase_add_test(tc, disk_listed_before_its_md_moves_under_it);
	tcase_add_test(tc, partition_maps_to_its_disk);
	tcase_add_test(tc, unknown_device_is_enoent);
	tcase_add_test(tc, loop_over_a_file_on_a_disk_stands_alone);
	tcase_add_test(tc, disk_listed_before_its_loop_stays_on_its_own);
	suite_add_tcase(s, tc);

	/* loop0 without its backing file: a tree of its own */
	tc = tcase_create("detached");
	tcase_add_unchecked_fixture(tc, tree_setup, tree_teardown);
	tcase_add_checked_fixture(tc, counters_reset, NULL);
	tcase_add_test(tc, loop_without_a_backing_file_has_no_member);
	suite_add_tcase(s, tc);

	tc = tcase_create("counters");
	tcase_add_unchecked_fixture(tc, tree_setup, tree_teardown);
	tcase_add_checked_fixture(tc, counters_reset, NULL);
	tcase_add_test(tc, every_field_of_stat_is_read);
	tcase_add_test(tc, unreadable_stat_reads_as_zero_and_fails);
	suite_add_tcase(s, tc);

	tc = tcase_create("helper");
	tcase_add_unchecked_fixture(tc, tree_setup, tree_teardown);
	tcase_add_test(tc, only_the_reports_read_the_fake_root);
	tcase_add_test(tc, root_is_read_once);
	tcase_add_test(tc, small_files_and_dev_numbers_are_read);
	suite_add_tcase(s, tc);

	tc = tcase_create("reports");
	tcase_add_unchecked_fixture(tc, tree_setup, tree_teardown);
	tcase_add_checked_fixture(tc, counters_reset, NULL);
	tcase_add_test(tc, md_line_averages_members_and_takes_the_busiest);
	tcase_add_test(tc, md_json_and_terse_carry_the_same_numbers);
	tcase_add_test(tc, aggrutil_is_na_when_no_member_counts_busy_time);
	tcase_add_test(tc, idle_device_has_zero_util_not_na);
	tcase_add_test(tc, loop_line_has_no_backing_disk);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(sysfs_suite());
}
