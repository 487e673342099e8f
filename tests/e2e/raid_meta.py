"""RAID metadata written onto an image as md and the Intel/SNIA firmware RAID tools write it,
for the safety tests on kernels without md (where mdadm cannot create an array): md
superblocks 0.90, 1.0, 1.1 and 1.2 with their checksums, the IMSM anchor and the DDF
header, and an LVM2 physical volume's label. blkid -p identifies each (linux_raid_member,
isw_raid_member, ddf_raid_member, LVM2_member)."""
import struct
import zlib

MD_MAGIC = 0xa92b4efc


def _md1(minor, size):
    """An md 1.x superblock of a two-disk RAID1 member: (offset, bytes)."""
    off = {0: (size - 8192) & ~4095, 1: 0, 2: 4096}[minor]
    sb = bytearray(1024)
    struct.pack_into("<IIII", sb, 0, MD_MAGIC, 1, 0, 0)   # magic, major, features, pad
    sb[16:32] = bytes(range(1, 17))                       # set_uuid
    sb[32:38] = b"iojob0"                                 # set_name
    struct.pack_into("<QiIQII", sb, 40, 1700000000, 1, 0, (size >> 9) - 4096, 0, 2)
    data_off = 0 if minor == 0 else 2048
    # data_offset, data_size, super_offset (sectors), recovery_offset
    struct.pack_into("<QQQQ", sb, 128, data_off, (size >> 9) - 4096, off >> 9, 0)
    sb[168:184] = bytes(range(2, 18))                     # device_uuid
    max_dev = 2
    struct.pack_into("<I", sb, 220, max_dev)
    struct.pack_into("<HH", sb, 256, 0, 1)                # dev_roles
    # sb_csum: the 32-bit words up to the roles summed in 64 bits, then folded
    csum = sum(struct.unpack_from("<%dI" % ((256 + 2 * max_dev) // 4), sb))
    struct.pack_into("<I", sb, 216, ((csum & 0xffffffff) + (csum >> 32)) & 0xffffffff)
    return off, bytes(sb)


def _md090(size):
    """An md 0.90 superblock: 4 KiB in the last 64 KiB-aligned block but one."""
    sb = bytearray(4096)
    struct.pack_into("<IIIII", sb, 0, MD_MAGIC, 0, 90, 0, 0)
    struct.pack_into("<IIIIIII", sb, 20, 0x12345678, 1700000000, 1, (size >> 10) - 64,
                     2, 2, 0)
    return (size & ~65535) - 65536, bytes(sb)


def _imsm(size):
    sb = bytearray(512)
    sb[0:30] = b"Intel Raid ISM Cfg Sig. 1.0.00"
    return size - 1024, bytes(sb)


def _ddf(size):
    sb = bytearray(512)
    struct.pack_into(">I", sb, 0, 0xDE11DE11)
    sb[8:32] = b"iojob-e2e-ddf-guid-00000"
    sb[32:40] = b"01.02.00"
    return size - 512, bytes(sb)


def _lvm2(size):
    """An LVM2 physical volume's label in sector 1, as pvcreate writes it (blkid reports it
    with USAGE "raid", though it is no RAID member)."""
    label = bytearray(512)
    label[0:8] = b"LABELONE"
    struct.pack_into("<QII", label, 8, 1, 0, 32)          # sector, crc, pv header offset
    label[24:32] = b"LVM2 001"
    label[32:64] = b"iojobE2eLvm2PvUuid00000000000000"  # the PV's UUID, 32 characters
    struct.pack_into("<QQQQQ", label, 64, size, 1 << 20, size - (1 << 20), 0, 0)
    # LVM's CRC-32 (zlib's polynomial) from 0xf597a6cf without the final inversion, over
    # the label from its pv header offset field to the sector's end
    crc = zlib.crc32(bytes(label[20:]), 0xf597a6cf ^ 0xffffffff) ^ 0xffffffff
    struct.pack_into("<I", label, 16, crc)
    return 512, bytes(label)


KINDS = {
    "md-0.90": _md090,
    "md-1.0": lambda size: _md1(0, size),
    "md-1.1": lambda size: _md1(1, size),
    "md-1.2": lambda size: _md1(2, size),
    "imsm": _imsm,
    "ddf": _ddf,
    "lvm2": _lvm2,
}


def write(path, kind, size):
    """Write kind's metadata onto the image at path, of size bytes."""
    off, data = KINDS[kind](size)
    with open(path, "r+b") as f:
        f.seek(off)
        f.write(data)
