/*
 * Signatures of what a block device may hold: file systems, swap, RAID and LVM members,
 * encrypted volumes and partition tables, found by libblkid, so that a benchmark does not
 * write over them unasked.
 */
#ifndef ENGINE_DEVICES_SIGNATURE_H
#define ENGINE_DEVICES_SIGNATURE_H

#include <stddef.h>

/*
 * Probe the open block device (or image file) fd for every signature libblkid knows, as
 * wipefs does: superblocks of any usage (file system, RAID member, crypto, other) and
 * partition tables, including those whose checksums fail. Returns 1 and lists what was
 * found in what ("minix file system at byte 1040; dos partition table at byte 510",
 * cut to len), 0 when nothing was, or -errno when the device could not be probed.
 */
int signature_probe(int fd, char *what, size_t len);

#endif
