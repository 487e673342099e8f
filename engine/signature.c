/*
 * Magic numbers of what a block device may hold, as blkid knows them, checked in the
 * device's first and last MiB. Each check is strict enough that data a benchmark wrote
 * (random or a pattern) does not pass for a file system.
 */
#include "engine/signature.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define MD_MAGIC	"\xfc\x4e\x2b\xa9"	/* 0xa92b4efc, little-endian */
#define MD_090_ALIGN	65536ULL
#define MD_10_ALIGN	4096ULL

/* What was read of a device: its head and tail, and where they sit. */
struct area {
	const unsigned char *head, *tail;
	size_t head_len, tail_len;
	uint64_t size;
};

struct magic {
	const char *name;
	uint64_t off;
	const char *bytes;
	size_t len;
};

/* Fixed offsets from the start; ext, swap, LVM, md at the end and MBR need code. */
static const struct magic magics[] = {
	{ "xfs file system", 0, "XFSB", 4 },
	{ "btrfs file system", 65600, "_BHRfS_M", 8 },
	{ "f2fs file system", 1024, "\x10\x20\xf5\xf2", 4 },
	{ "squashfs file system", 0, "hsqs", 4 },
	{ "iso9660 file system", 32769, "CD001", 5 },
	{ "ntfs file system", 3, "NTFS    ", 8 },
	{ "exfat file system", 3, "EXFAT   ", 8 },
	{ "vfat file system", 54, "FAT12   ", 8 },
	{ "vfat file system", 54, "FAT16   ", 8 },
	{ "vfat file system", 82, "FAT32   ", 8 },
	{ "LUKS encrypted volume", 0, "LUKS\xba\xbe", 6 },
	{ "md RAID member, superblock 1.1", 0, MD_MAGIC, 4 },
	{ "md RAID member, superblock 1.2", 4096, MD_MAGIC, 4 },
	{ "bcache device", 4120,
	  "\xc6\x85\x73\xf6\x4e\x1a\x45\xca\x82\x65\xf5\x7f\x48\xba\x6d\x81", 16 },
	{ "GPT partition table", 512, "EFI PART", 8 },
	{ "GPT partition table", 4096, "EFI PART", 8 },	/* 4 KiB sectors */
	{ NULL },
};

/* The n bytes at device offset off, or NULL when they were not read. */
static const unsigned char *at(const struct area *a, uint64_t off, size_t n)
{
	uint64_t tail_off = a->size - a->tail_len;

	if (off > a->size || n > a->size - off)
		return NULL;
	if (off + n <= a->head_len)
		return a->head + off;
	if (off >= tail_off)
		return a->tail + (off - tail_off);
	return NULL;
}

static bool has(const struct area *a, uint64_t off, const char *bytes, size_t n)
{
	const unsigned char *p = at(a, off, n);

	return p && !memcmp(p, bytes, n);
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static bool found(char *what, size_t len, const char *name, uint64_t off)
{
	snprintf(what, len, "%s, magic at byte %" PRIu64, name, off);
	return true;
}

/* The ext2/3/4 superblock at 1024: magic 0xEF53 at 56, and fields that must be sane. */
static bool find_ext(const struct area *a, char *what, size_t len)
{
	const unsigned char *sb = at(a, 1024, 1024);
	uint32_t compat, incompat;

	if (!sb || sb[56] != 0x53 || sb[57] != 0xef)
		return false;
	/* inodes, a block size of 1 KiB to 64 KiB, revision 0 or 1 */
	if (!le32(sb) || le32(sb + 24) > 6 || le32(sb + 76) > 1)
		return false;
	compat = le32(sb + 92);
	incompat = le32(sb + 96);
	/* extents, 64bit or flex_bg make it ext4; a journal ext3 */
	return found(what, len, incompat & 0x2c0 ? "ext4 file system" :
		     compat & 0x4 ? "ext3 file system" : "ext2 file system", 1080);
}

/* The swap header's last 10 bytes of its first page, whatever the page size was. */
static bool find_swap(const struct area *a, char *what, size_t len)
{
	for (uint64_t page = 4096; page <= 65536; page *= 2)
		if (has(a, page - 10, "SWAPSPACE2", 10) || has(a, page - 10, "SWAP-SPACE", 10))
			return found(what, len, "Linux swap area", page - 10);
	return false;
}

/* An LVM2 label is in one of the first four sectors. */
static bool find_lvm(const struct area *a, char *what, size_t len)
{
	for (uint64_t off = 0; off < 2048; off += 512)
		if (has(a, off, "LABELONE", 8))
			return found(what, len, "LVM2 physical volume", off);
	return false;
}

/* Superblocks kept near the end: md 0.90 and 1.0, the backup GPT header. */
static bool find_at_end(const struct area *a, char *what, size_t len)
{
	uint64_t off;

	if (a->size >= 2 * MD_090_ALIGN) {
		off = (a->size & ~(MD_090_ALIGN - 1)) - MD_090_ALIGN;
		if (has(a, off, MD_MAGIC, 4))
			return found(what, len, "md RAID member, superblock 0.90", off);
	}
	if (a->size >= 2 * 8192) {
		off = (a->size - 8192) & ~(MD_10_ALIGN - 1);
		if (has(a, off, MD_MAGIC, 4))
			return found(what, len, "md RAID member, superblock 1.0", off);
	}
	for (off = 512; off <= 4096; off *= 8)
		if (a->size >= off && has(a, a->size - off, "EFI PART", 8))
			return found(what, len, "GPT partition table, backup header",
				     a->size - off);
	return false;
}

/* 0x55AA at 510 and four plausible entries, at least one in use. */
static bool find_mbr(const struct area *a, char *what, size_t len)
{
	const unsigned char *mbr = at(a, 0, 512);
	bool used = false, gpt = false;

	if (!mbr || mbr[510] != 0x55 || mbr[511] != 0xaa)
		return false;
	for (int i = 0; i < 4; i++) {
		const unsigned char *e = mbr + 446 + 16 * i;

		if (e[0] != 0 && e[0] != 0x80)
			return false;
		if (!e[4])
			continue;
		if (!le32(e + 12))
			return false;	/* a used entry has sectors */
		used = true;
		gpt |= e[4] == 0xee;
	}
	if (!used)
		return false;
	return found(what, len, gpt ? "GPT partition table, protective MBR" :
		     "MBR partition table", 510);
}

bool signature_find(const unsigned char *head, size_t head_len, const unsigned char *tail,
		    size_t tail_len, uint64_t size_bytes, char *what, size_t len)
{
	const struct area a = {
		.head = head, .tail = tail, .size = size_bytes,
		.head_len = head_len < size_bytes ? head_len : size_bytes,
		.tail_len = tail_len < size_bytes ? tail_len : size_bytes,
	};

	if (find_ext(&a, what, len))
		return true;
	for (const struct magic *m = magics; m->name; m++)
		if (has(&a, m->off, m->bytes, m->len))
			return found(what, len, m->name, m->off);
	return find_swap(&a, what, len) || find_lvm(&a, what, len) ||
	       find_at_end(&a, what, len) || find_mbr(&a, what, len);
}
