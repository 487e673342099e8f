/*
 * Signatures of what a block device may hold: file systems, swap, RAID and LVM members,
 * encrypted volumes and partition tables, found by their magic numbers in the device's
 * first and last MiB, so that a benchmark does not write over them unasked.
 */
#ifndef ENGINE_SIGNATURE_H
#define ENGINE_SIGNATURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How much of each end of a device the signatures can be in. */
#define SIGNATURE_AREA_BYTES	(1u << 20)

/*
 * Look for a signature in head (the first head_len bytes of a device of size_bytes) and
 * tail (its last tail_len bytes; they may overlap head). Returns true and describes the
 * first one found in what ("ext4 file system, magic at byte 1080"), false when none is.
 *
 * Found: ext2/3/4, xfs, btrfs, f2fs, squashfs, iso9660, vfat, exfat and ntfs file systems;
 * Linux swap; md RAID superblocks 0.90, 1.0, 1.1 and 1.2; LVM2 physical volumes; LUKS;
 * bcache; GPT (primary or backup header) and MBR partition tables.
 */
bool signature_find(const unsigned char *head, size_t head_len, const unsigned char *tail,
		    size_t tail_len, uint64_t size_bytes, char *what, size_t len);

#endif
