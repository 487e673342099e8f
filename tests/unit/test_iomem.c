/*
 * Unit tests for engine/thread/iomem.c: each memory type mem= names is what backs the buffers
 * (the mapping in /proc/self/maps, the System V segment, huge pages in smaps), the first
 * buffer sits where iomem_align puts it, and lockmem's memory shows in VmLck. Huge pages
 * are reserved here for the test when root can (and the count put back); else skipped.
 */
#include "engine/thread/iomem.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/shm.h>
#include <unistd.h>

#include <check.h>

#include "jobs/job.h"
#include "test_util.h"

#define BYTES		(3 * 4096 + 100)	/* not whole pages */
#define NR_HUGE		"/proc/sys/vm/nr_hugepages"

/* The line of /proc/self/maps whose range holds p, into line; false if none. */
static bool maps_line(const void *p, char *line, size_t len)
{
	FILE *f = fopen("/proc/self/maps", "r");
	uintptr_t a = (uintptr_t)p, lo, hi;
	bool found = false;

	ck_assert_ptr_nonnull(f);
	while (!found && fgets(line, (int)len, f))
		found = sscanf(line, "%lx-%lx", &lo, &hi) == 2 && a >= lo && a < hi;
	fclose(f);
	return found;
}

/* The KernelPageSize (kB) of the smaps entry that holds p, 0 if none. */
static unsigned long page_kb(const void *p)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	uintptr_t a = (uintptr_t)p, lo, hi;
	unsigned long kb = 0;
	bool in = false;
	char line[512];

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		/* a mapping's first line is "lo-hi perms ..."; its fields are "Name: value" */
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
			in = a >= lo && a < hi;
		else if (in && sscanf(line, "KernelPageSize: %lu kB", &kb) == 1)
			break;
	}
	fclose(f);
	return in ? kb : 0;
}

static unsigned long vm_locked_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	unsigned long kb = 0;
	char line[256];

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmLck: %lu kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

static void alloc_ok(struct iomem *m, const struct iomem_spec *s)
{
	char err[300] = "";

	ck_assert_msg(iomem_alloc(m, s, err, sizeof(err)) == 0, "type %d: %s", s->type, err);
	memset(m->bufs, 0xa5, s->bytes);	/* all of it is there to write */
	ck_assert(m->bufs >= m->base && m->bufs + s->bytes <= m->base + m->len);
}

/* --- placement: iomem_align -------------------------------------------------------------- */

static const struct { size_t align, offset; } places[] = {
	{ 4096, 0 }, { 4096, 512 }, { 4096, 6144 }, { 65536, 0 }, { 65536, 4096 + 8 },
	{ 1 << 20, 0 },
};
static const int plain_types[] = { MEM_MALLOC, MEM_SHM, MEM_MMAP, MEM_MMAPSHARED };

START_TEST(first_buffer_is_aligned_then_offset)
{
	for (int t = 0; t < TABLE_LEN(plain_types); t++) {
		struct iomem_spec s = { .type = plain_types[t], .bytes = BYTES,
					.align = places[_i].align, .offset = places[_i].offset };
		struct iomem m;

		alloc_ok(&m, &s);
		ck_assert_msg((uintptr_t)(m.bufs - s.offset) % s.align == 0,
			      "type %d: %p is not %zu past a multiple of %zu", s.type,
			      (void *)m.bufs, s.offset, s.align);
		iomem_free(&m);
	}
}
END_TEST

/* --- what backs the buffers -------------------------------------------------------------- */

START_TEST(mmap_is_a_private_anonymous_mapping)
{
	struct iomem_spec s = { .type = MEM_MMAP, .bytes = BYTES, .align = 4096 };
	struct iomem m;
	char line[512];

	alloc_ok(&m, &s);
	ck_assert(maps_line(m.bufs, line, sizeof(line)));
	ck_assert_msg(strstr(line, " rw-p ") != NULL, "%s", line);
	iomem_free(&m);
}
END_TEST

START_TEST(mmapshared_is_a_shared_mapping)
{
	struct iomem_spec s = { .type = MEM_MMAPSHARED, .bytes = BYTES, .align = 4096 };
	struct iomem m;
	char line[512];

	alloc_ok(&m, &s);
	ck_assert(maps_line(m.bufs, line, sizeof(line)));
	ck_assert_msg(strstr(line, " rw-s ") != NULL, "%s", line);
	iomem_free(&m);
}
END_TEST

/* mmap:PATH maps that file (made for the run and deleted after, unless it was there). */
START_TEST(mmap_path_maps_the_file)
{
	static const int types[] = { MEM_MMAP, MEM_MMAPSHARED };
	char path[] = "/var/tmp/iojob-iomem-XXXXXX", made[sizeof(path) + 8], line[512];
	struct iomem_spec s = { .type = types[_i], .bytes = BYTES, .align = 4096 };
	struct iomem m;

	ck_assert_ptr_nonnull(mkdtemp(path));
	snprintf(made, sizeof(made), "%s/buf", path);
	s.path = made;
	alloc_ok(&m, &s);
	ck_assert(maps_line(m.bufs, line, sizeof(line)));
	ck_assert_msg(strstr(line, made) != NULL, "%s", line);
	ck_assert_msg(strstr(line, types[_i] == MEM_MMAP ? " rw-p " : " rw-s ") != NULL, "%s",
		      line);
	ck_assert_int_eq(access(made, F_OK), 0);
	iomem_free(&m);
	ck_assert_int_eq(access(made, F_OK), -1);	/* made for the run, gone after it */
	/* a file that was there stays */
	ck_assert_int_eq(test_write_text(made, "kept"), 0);
	alloc_ok(&m, &s);
	iomem_free(&m);
	ck_assert_int_eq(access(made, F_OK), 0);
	unlink(made);
	rmdir(path);
}
END_TEST

START_TEST(shm_is_a_system_v_segment_while_allocated)
{
	struct iomem_spec s = { .type = MEM_SHM, .bytes = BYTES, .align = 4096 };
	struct shmid_ds ds;
	struct iomem m;
	char line[512];
	int id;

	alloc_ok(&m, &s);
	id = m.shm_id;
	ck_assert_int_eq(shmctl(id, IPC_STAT, &ds), 0);
	ck_assert_uint_eq(ds.shm_segsz, m.len);
	ck_assert_uint_eq(ds.shm_nattch, 1);
	ck_assert_int_eq(ds.shm_cpid, getpid());
	ck_assert(maps_line(m.bufs, line, sizeof(line)));
	ck_assert_msg(strstr(line, "SYSV") != NULL, "%s", line);
	iomem_free(&m);
	ck_assert_int_eq(shmctl(id, IPC_STAT, &ds), -1);	/* nothing left behind */
}
END_TEST

START_TEST(malloc_is_neither_shared_nor_a_segment)
{
	struct iomem_spec s = { .type = MEM_MALLOC, .bytes = BYTES, .align = 4096 };
	struct iomem m;
	char line[512];

	alloc_ok(&m, &s);
	ck_assert(maps_line(m.bufs, line, sizeof(line)));
	ck_assert_msg(strstr(line, " rw-p ") != NULL && !strstr(line, "SYSV"), "%s", line);
	iomem_free(&m);
}
END_TEST

/* --- huge pages --------------------------------------------------------------------------- */

static long huge_saved = -1;

static long read_nr_huge(void)
{
	FILE *f = fopen(NR_HUGE, "r");
	long n = -1;

	if (f) {
		if (fscanf(f, "%ld", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

static bool write_nr_huge(long n)
{
	FILE *f = fopen(NR_HUGE, "w");
	bool ok;

	if (!f)
		return false;
	ok = fprintf(f, "%ld\n", n) > 0;
	return fclose(f) == 0 && ok;
}

/* Reserve 4 more huge pages of 2 MiB for the test, or say why it cannot. */
static const char *reserve_huge(void)
{
	long n = read_nr_huge();

	if (n < 0)
		return NR_HUGE " cannot be read";
	if (geteuid() != 0)
		return "reserving huge pages needs root";
	if (!write_nr_huge(n + 4) || read_nr_huge() < n + 4) {
		write_nr_huge(n);
		return "the kernel would not reserve 4 more huge pages";
	}
	huge_saved = n;
	return NULL;
}

static void restore_huge(void)
{
	if (huge_saved >= 0)
		write_nr_huge(huge_saved);
	huge_saved = -1;
}

static const int huge_types[] = { MEM_SHMHUGE, MEM_MMAPHUGE };

START_TEST(huge_types_are_backed_by_huge_pages)
{
	struct iomem_spec s = { .type = huge_types[_i], .bytes = BYTES, .align = 4096,
				.offset = 512, .huge_page = 2 << 20 };
	struct iomem m;

	alloc_ok(&m, &s);
	ck_assert_uint_eq(m.len, 2 << 20);	/* rounded to whole huge pages */
	ck_assert_uint_eq(page_kb(m.bufs), 2048);
	ck_assert_uint_eq((uintptr_t)(m.bufs - 512) % 4096, 0);
	iomem_free(&m);
}
END_TEST

START_TEST(mmaphuge_path_maps_a_hugetlbfs_file)
{
	char dir[] = "/var/tmp/iojob-hugetlbfs-XXXXXX", file[sizeof(dir) + 8];
	struct iomem_spec s = { .type = MEM_MMAPHUGE, .bytes = BYTES, .align = 4096,
				.huge_page = 2 << 20, .path = file };
	char line[512] = "", err[300] = "";
	bool mapped = false;
	unsigned long kb = 0;
	struct iomem m;
	int ret;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	if (mount("none", dir, "hugetlbfs", 0, NULL) < 0) {
		test_skipping("mmaphuge:PATH", strerror(errno));
		rmdir(dir);
		return;
	}
	snprintf(file, sizeof(file), "%s/buf", dir);
	ret = iomem_alloc(&m, &s, err, sizeof(err));
	if (ret == 0) {
		mapped = maps_line(m.bufs, line, sizeof(line));
		kb = page_kb(m.bufs);
		iomem_free(&m);
	}
	/* the mount goes before any check can end the test */
	umount(dir);
	rmdir(dir);
	ck_assert_msg(ret == 0, "%s", err);
	ck_assert(mapped);
	ck_assert_msg(strstr(line, file) && strstr(line, " rw-s "), "%s", line);
	ck_assert_uint_eq(kb, 2048);
}
END_TEST

START_TEST(huge_types_fail_with_a_hint_without_free_pages)
{
	/* a 1 GiB page: none are reserved where this runs, or the hint is still checked */
	struct iomem_spec s = { .type = huge_types[_i], .bytes = BYTES, .align = 4096,
				.huge_page = 1 << 30 };
	struct iomem m;
	char err[300] = "";

	if (iomem_alloc(&m, &s, err, sizeof(err)) == 0) {
		iomem_free(&m);
		test_skipping("huge pages of 1 GiB", "some are free here");
		return;
	}
	ck_assert_msg(strstr(err, huge_types[_i] == MEM_SHMHUGE ? "shmget" : "mmap"), "%s", err);
	/* a kernel without pages of that size refuses the size itself: the hint names it */
	ck_assert_msg(strstr(err, access("/sys/kernel/mm/hugepages/hugepages-1048576kB", F_OK) ?
			      "hugepage-size" : "nr_hugepages") != NULL, "%s", err);
}
END_TEST

/* --- lockmem ------------------------------------------------------------------------------- */

START_TEST(lockmem_shows_in_vmlck_until_unlocked)
{
	unsigned long before = vm_locked_kb();
	struct iomem_lock l;
	char err[300] = "";
	int ret;

#if defined(__SANITIZE_ADDRESS__)
	/* AddressSanitizer's mlock() does nothing: VmLck cannot show the lock */
	test_skipping("lockmem", "AddressSanitizer makes mlock() do nothing");
	return;
#endif
	ret = iomem_lock(&l, 2 << 20, err, sizeof(err));
	if (ret < 0 && geteuid() != 0) {
		test_skipping("lockmem", err);
		return;
	}
	ck_assert_msg(ret == 0, "%s", err);
	ck_assert_uint_ge(vm_locked_kb(), before + 2048);
	iomem_unlock(&l);
	ck_assert_uint_eq(vm_locked_kb(), before);
	ck_assert_int_eq(iomem_lock(&l, 0, err, sizeof(err)), 0);	/* 0: nothing locked */
	ck_assert_uint_eq(vm_locked_kb(), before);
}
END_TEST

static Suite *iomem_suite(void)
{
	Suite *s = suite_create("iomem");
	const char *why;
	TCase *tc;

	tc = tcase_create("placement");
	tcase_add_loop_test(tc, first_buffer_is_aligned_then_offset, 0, TABLE_LEN(places));
	suite_add_tcase(s, tc);

	tc = tcase_create("backing");
	tcase_add_test(tc, mmap_is_a_private_anonymous_mapping);
	tcase_add_test(tc, mmapshared_is_a_shared_mapping);
	tcase_add_loop_test(tc, mmap_path_maps_the_file, 0, 2);
	tcase_add_test(tc, shm_is_a_system_v_segment_while_allocated);
	tcase_add_test(tc, malloc_is_neither_shared_nor_a_segment);
	tcase_add_loop_test(tc, huge_types_fail_with_a_hint_without_free_pages, 0,
			    TABLE_LEN(huge_types));
	suite_add_tcase(s, tc);

	why = reserve_huge();
	if (why) {
		test_skipping("huge pages", why);
	} else {
		tc = tcase_create("huge");
		tcase_add_loop_test(tc, huge_types_are_backed_by_huge_pages, 0,
				    TABLE_LEN(huge_types));
		tcase_add_test(tc, mmaphuge_path_maps_a_hugetlbfs_file);
		suite_add_tcase(s, tc);
	}

	tc = tcase_create("lockmem");
	tcase_add_test(tc, lockmem_shows_in_vmlck_until_unlocked);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	int ret = test_run(iomem_suite());

	restore_huge();
	return ret;
}
