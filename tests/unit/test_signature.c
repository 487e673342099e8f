/*
 * Tests for engine/signature: each magic number written into a zeroed image in memory is
 * found and named, near misses and benchmark data are not, and nothing is read outside
 * what was given. Needs no device.
 */
#include "engine/signature.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#define TABLE_LEN(t)	((int)(sizeof(t) / sizeof((t)[0])))
#define IMG_BYTES	(16u << 20)
#define MiB		(1u << 20)

/* One signature: bytes written at an offset (negative: from the end) and what is named. */
struct sig_case {
	const char *name;	/* the start of what signature_find() says */
	int64_t off;
	const char *bytes;
	size_t len;
};

static const struct sig_case cases[] = {
	{ "xfs file system, magic at byte 0", 0, "XFSB", 4 },
	{ "btrfs file system, magic at byte 65600", 65600, "_BHRfS_M", 8 },
	{ "f2fs file system", 1024, "\x10\x20\xf5\xf2", 4 },
	{ "squashfs file system", 0, "hsqs", 4 },
	{ "iso9660 file system, magic at byte 32769", 32769, "CD001", 5 },
	{ "ntfs file system", 3, "NTFS    ", 8 },
	{ "exfat file system", 3, "EXFAT   ", 8 },
	{ "vfat file system, magic at byte 54", 54, "FAT16   ", 8 },
	{ "vfat file system, magic at byte 82", 82, "FAT32   ", 8 },
	{ "LUKS encrypted volume", 0, "LUKS\xba\xbe", 6 },
	{ "md RAID member, superblock 1.1", 0, "\xfc\x4e\x2b\xa9", 4 },
	{ "md RAID member, superblock 1.2, magic at byte 4096", 4096, "\xfc\x4e\x2b\xa9", 4 },
	{ "md RAID member, superblock 0.90", -65536, "\xfc\x4e\x2b\xa9", 4 },
	{ "md RAID member, superblock 1.0", -8192, "\xfc\x4e\x2b\xa9", 4 },
	{ "bcache device", 4120,
	  "\xc6\x85\x73\xf6\x4e\x1a\x45\xca\x82\x65\xf5\x7f\x48\xba\x6d\x81", 16 },
	{ "GPT partition table, magic at byte 512", 512, "EFI PART", 8 },
	{ "GPT partition table, magic at byte 4096", 4096, "EFI PART", 8 },
	{ "GPT partition table, backup header", -512, "EFI PART", 8 },
	{ "Linux swap area, magic at byte 4086", 4086, "SWAPSPACE2", 10 },
	{ "Linux swap area, magic at byte 65526", 65526, "SWAP-SPACE", 10 },
	{ "LVM2 physical volume, magic at byte 512", 512, "LABELONE", 8 },
};

static unsigned char *image(void)
{
	unsigned char *img = calloc(1, IMG_BYTES);

	ck_assert_ptr_nonnull(img);
	return img;
}

/* Look at img as a device of size bytes: its first and last MiB. */
static bool find(const unsigned char *img, uint64_t size, char *what, size_t len)
{
	size_t n = size < MiB ? (size_t)size : MiB;

	return signature_find(img, n, img + size - n, n, size, what, len);
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

/* An ext superblock at 1024 with the given feature flags. */
static void put_ext(unsigned char *img, uint32_t compat, uint32_t incompat)
{
	unsigned char *sb = img + 1024;

	put32(sb, 4096);		/* inodes */
	put32(sb + 24, 2);		/* 4 KiB blocks */
	put32(sb + 76, 1);		/* dynamic revision */
	put32(sb + 92, compat);
	put32(sb + 96, incompat);
	sb[56] = 0x53;
	sb[57] = 0xef;
}

/* An MBR with one partition entry of the given type. */
static void put_mbr(unsigned char *img, unsigned char type)
{
	unsigned char *e = img + 446;

	e[4] = type;
	put32(e + 8, 2048);
	put32(e + 12, 8192);
	img[510] = 0x55;
	img[511] = 0xaa;
}

/* --- found ------------------------------------------------------------------------------- */

START_TEST(magic_is_found_and_named)
{
	const struct sig_case *c = &cases[_i];
	uint64_t off = (uint64_t)(c->off < 0 ? (int64_t)IMG_BYTES + c->off : c->off);
	unsigned char *img = image();
	char what[128] = "";

	memcpy(img + off, c->bytes, c->len);
	ck_assert_msg(find(img, IMG_BYTES, what, sizeof(what)), "%s: not found", c->name);
	ck_assert_msg(!strncmp(what, c->name, strlen(c->name)), "found '%s', want '%s'", what,
		      c->name);
	free(img);
}
END_TEST

START_TEST(ext_is_named_by_its_features)
{
	static const struct {
		uint32_t compat, incompat;
		const char *name;
	} ext[] = {
		{ 0, 0, "ext2 file system, magic at byte 1080" },
		{ 0x4, 0, "ext3 file system, magic at byte 1080" },
		{ 0x4, 0x40 | 0x200, "ext4 file system, magic at byte 1080" },
	};
	unsigned char *img = image();
	char what[128];

	for (int i = 0; i < TABLE_LEN(ext); i++) {
		put_ext(img, ext[i].compat, ext[i].incompat);
		ck_assert(find(img, IMG_BYTES, what, sizeof(what)));
		ck_assert_str_eq(what, ext[i].name);
	}
	free(img);
}
END_TEST

START_TEST(mbr_with_a_partition_is_found)
{
	unsigned char *img = image();
	char what[128];

	put_mbr(img, 0x83);
	ck_assert(find(img, IMG_BYTES, what, sizeof(what)));
	ck_assert_str_eq(what, "MBR partition table, magic at byte 510");
	put_mbr(img, 0xee);
	ck_assert(find(img, IMG_BYTES, what, sizeof(what)));
	ck_assert_str_eq(what, "GPT partition table, protective MBR, magic at byte 510");
	free(img);
}
END_TEST

START_TEST(what_is_cut_to_its_length)
{
	unsigned char *img = image();
	char what[8];

	memset(what, 'x', sizeof(what));
	memcpy(img, "XFSB", 4);
	ck_assert(find(img, IMG_BYTES, what, 4));
	ck_assert_str_eq(what, "xfs");
	ck_assert_int_eq(what[4], 'x');
	free(img);
}
END_TEST

/* --- not found --------------------------------------------------------------------------- */

START_TEST(zeros_carry_no_signature)
{
	unsigned char *img = image();
	char what[128] = "untouched";

	ck_assert(!find(img, IMG_BYTES, what, sizeof(what)));
	ck_assert_str_eq(what, "untouched");
	free(img);
}
END_TEST

/* What a benchmark leaves behind: random blocks, or a repeated pattern. */
START_TEST(benchmark_data_carries_no_signature)
{
	static const unsigned char pattern[] = { 0xde, 0xad, 0xbe, 0xef };
	unsigned char *img = image();
	uint64_t x = 0x9e3779b97f4a7c15ULL + (uint64_t)_i;
	char what[128];

	for (size_t i = 0; i < IMG_BYTES; i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(img + i, &x, 8);
	}
	ck_assert_msg(!find(img, IMG_BYTES, what, sizeof(what)), "random data: %s", what);
	for (size_t i = 0; i < IMG_BYTES; i++)
		img[i] = pattern[i % sizeof(pattern)];
	ck_assert_msg(!find(img, IMG_BYTES, what, sizeof(what)), "pattern: %s", what);
	free(img);
}
END_TEST

START_TEST(near_misses_are_not_signatures)
{
	unsigned char *img = image();
	char what[128];

	/* ext magic with an impossible block size */
	put_ext(img, 0, 0);
	put32(img + 1024 + 24, 40);
	ck_assert_msg(!find(img, IMG_BYTES, what, sizeof(what)), "%s", what);
	memset(img, 0, 4096);
	/* a boot signature without partitions, and one with an entry of no sectors */
	img[510] = 0x55;
	img[511] = 0xaa;
	ck_assert_msg(!find(img, IMG_BYTES, what, sizeof(what)), "%s", what);
	put_mbr(img, 0x83);
	put32(img + 446 + 12, 0);
	ck_assert_msg(!find(img, IMG_BYTES, what, sizeof(what)), "%s", what);
	/* an LVM label past the first four sectors */
	memset(img, 0, 4096);
	memcpy(img + 2048, "LABELONE", 8);
	ck_assert_msg(!find(img, IMG_BYTES, what, sizeof(what)), "%s", what);
	free(img);
}
END_TEST

/* Only the bytes given are looked at: exact buffers, so that ASan sees a read past them. */
START_TEST(only_what_was_read_is_looked_at)
{
	unsigned char *img = image(), *head = malloc(4096), *tail = malloc(4096);
	char what[128];

	ck_assert(head && tail);
	memcpy(img + 4096, "EFI PART", 8);
	memcpy(img + 65600, "_BHRfS_M", 8);
	memcpy(head, img, 4096);
	memcpy(tail, img + IMG_BYTES - 4096, 4096);
	ck_assert(!signature_find(head, 4096, tail, 4096, IMG_BYTES, what, sizeof(what)));
	free(head);
	free(tail);
	free(img);
}
END_TEST

/* Devices smaller than the offsets looked at: ASan sees any read past the buffers. */
START_TEST(tiny_devices_are_read_within_bounds)
{
	static const uint64_t sizes[] = { 0, 1, 511, 512, 1100, 4096, 8192, 65536, 131072 };
	char what[128];

	for (int i = 0; i < TABLE_LEN(sizes); i++) {
		unsigned char *img = malloc(sizes[i] ? sizes[i] : 1);

		ck_assert_ptr_nonnull(img);
		memset(img, 0, sizes[i]);
		ck_assert(!find(img, sizes[i], what, sizeof(what)));
		free(img);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("signature");
	TCase *tc;
	SRunner *sr;
	int failed;

	tc = tcase_create("found");
	tcase_add_loop_test(tc, magic_is_found_and_named, 0, TABLE_LEN(cases));
	tcase_add_test(tc, ext_is_named_by_its_features);
	tcase_add_test(tc, mbr_with_a_partition_is_found);
	tcase_add_test(tc, what_is_cut_to_its_length);
	suite_add_tcase(s, tc);
	tc = tcase_create("not_found");
	tcase_add_test(tc, zeros_carry_no_signature);
	tcase_add_loop_test(tc, benchmark_data_carries_no_signature, 0, 4);
	tcase_add_test(tc, near_misses_are_not_signatures);
	tcase_add_test(tc, only_what_was_read_is_looked_at);
	tcase_add_test(tc, tiny_devices_are_read_within_bounds);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
