#!/usr/bin/env python3
"""The sg engine over the SCSI target emulator (tests/fault/sg_target.c, LD_PRELOAD): a
regular file plays an sg character device or a SCSI block device, and the emulator logs
every CDB it gets. The same job file runs in fio 3.33 and in iojob, both over the
emulator, and the CDB sequences (opcode, byte 1's FUA/BYTCHK/NDOB bits, LBA, length, bytes
sent, HIPRI, stream, UNMAP ranges) must be the same: reads, writes, trims (UNMAP, gathered
as fio gathers them), syncs, every sg_write_mode, readfua/writefua/hipri, stream_id, the
16-byte CDBs past LBA 0xfffffffe and READ CAPACITY(16). Then iojob alone: the depth on an
sg device and none on a block device, what write_same, write_same_ndob, trims and
verify_bytchk_01 do to the bytes, verify= over completions out of order, the whole device
when size= is not given, CHECK CONDITION and host status said in the error, residual counts
taken as short transfers, and refusals before any I/O (exit 2, nothing written): a block
size that is not whole blocks, a regular file, and a real loop device."""
import os
import re
import shutil
import subprocess

from common import (BIN, SKIP, Checks, is_tsan_build, remove, scratch_dir, split_normal_json,
                    traced_env)

SHIM = os.environ.get("IOJOB_SG_SHIM", "")
MiB = 1 << 20
DEV_BYTES = MiB
# the fields of a log line both tools must agree on ("via" and "inflight" are the tool's own)
FIELDS = ("op", "sa", "b1", "lba", "blocks", "xfer", "hipri", "stream", "ranges", "result")
ISSUED = re.compile(r"issued rwts: total=(\d+),(\d+),(\d+),(\d+) short=(\d+),(\d+),(\d+),(\d+)")


def parse_log(path):
    """Every command the emulator logged, as dicts."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [dict(kv.split("=", 1) for kv in line.split()[1:]) for line in f]


def data_cdbs(cmds):
    """The commands of the I/O, not the capacity questions (fio asks more often)."""
    return [tuple(c[k] for k in FIELDS) for c in cmds
            if c["op"] != "25" and not (c["op"] == "9e" and c["sa"] == "10")]


class Target:
    """An emulated device in a scratch directory: its backing file, log and environment."""

    def __init__(self, d, kind="chr", size=DEV_BYTES, fill=b"\0", **env):
        self.d = d
        self.dev = os.path.join(d, "sgdev")
        self.log = os.path.join(d, "cdb.log")
        with open(self.dev, "wb") as f:
            if fill == b"\0":
                f.truncate(size)
            else:
                f.write(fill * (size // len(fill)))
        if os.path.exists(self.log):
            os.unlink(self.log)
        self.env = traced_env(dict(LD_PRELOAD=SHIM, IOJOB_SG_TARGET=self.dev,
                                   IOJOB_SG_LOG=self.log, IOJOB_SG_TYPE=kind, **env))

    def job_file(self, lines):
        path = os.path.join(self.d, "sg.fio")
        with open(path, "w") as f:
            f.write("[sg]\nioengine=sg\nfilename=%s\n%s\n" % (self.dev, "\n".join(lines)))
        return path

    def run(self, tool, lines, args=()):
        """Run the job file under the emulator: (exit code, stdout, stderr, commands)."""
        if os.path.exists(self.log):
            os.unlink(self.log)
        cmd = (["fio"] if tool == "fio" else [BIN, "--eta=never"]) + \
            [self.job_file(lines)] + list(args)
        p = subprocess.run(cmd, env=self.env, capture_output=True, text=True, timeout=120,
                           cwd=self.d)
        return p.returncode, p.stdout, p.stderr, parse_log(self.log)

    def data(self):
        with open(self.dev, "rb") as f:
            return f.read()


# (name, device kind, job lines, emulator settings, what the sequence must hold)
BLK = ["allow_mounted_write=1"]	# the emulated disk has no sysfs entry to look for mounts in
CASES = [
    ("read qd1", "chr", ["rw=read", "bs=4k", "size=64k"], {}, {"28"}),
    ("read qd4 readfua hipri", "chr", ["rw=read", "bs=8k", "size=64k", "iodepth=4",
                                       "readfua=1", "hipri"], {}, {"28"}),
    ("write qd4 writefua", "chr", ["rw=write", "bs=4k", "size=64k", "iodepth=4",
                                   "writefua=1"], {}, {"2a"}),
    ("randread qd4", "chr", ["rw=randread", "bs=4k", "size=64k", "iodepth=4"], {}, {"28"}),
    ("randwrite", "chr", ["rw=randwrite", "bs=4k", "size=64k"], {}, {"2a"}),
    ("trim", "chr", ["rw=trim", "bs=4k", "size=32k"], {}, {"42"}),
    ("trims gathered", "chr", ["rw=trim", "bs=4k", "size=64k", "iodepth=4",
                               "iodepth_batch=4"], {}, {"42"}),
    ("trimwrite", "chr", ["rw=trimwrite", "bs=4k", "size=32k"], {}, {"42", "2a"}),
    ("write fsync=3", "chr", ["rw=write", "bs=4k", "size=32k", "fsync=3"], {}, {"2a", "35"}),
    # a sync due on the job's last write: fio makes none, nor does iojob
    ("write fsync=4", "chr", ["rw=write", "bs=4k", "size=32k", "fsync=4"], {}, {"2a", "35"}),
    ("direct=1 waits", "chr", ["rw=write", "bs=4k", "size=32k", "direct=1", "iodepth=4"], {},
     {"2a"}),
    ("stream_id=7", "chr", ["rw=write", "bs=4k", "size=32k", "sg_write_mode=write_stream",
                            "stream_id=7", "writefua=1"], {}, {"9a"}),
    ("write_stream opens a stream", "chr", ["rw=write", "bs=4k", "size=32k",
                                            "sg_write_mode=write_stream"], {}, {"9a", "9e"}),
    ("16-byte CDBs past LBA 0xfffffffe", "chr",
     ["rw=write", "bs=4k", "size=16k", "offset=%d" % (0xfffffff8 * 512)],
     {"IOJOB_SG_BLOCKS": str(0x100000100)}, {"2a", "8a"}),
    ("16-byte reads, READ CAPACITY(10) refused", "chr",
     ["rw=read", "bs=4k", "size=16k", "offset=%d" % (0xfffffff8 * 512)],
     {"IOJOB_SG_BLOCKS": str(0x100000100), "IOJOB_SG_FAULT": "rcap10:sense-5-20-00:1:0"},
     {"28", "88"}),
    ("4k blocks", "chr", ["rw=write", "bs=16k", "size=64k"], {"IOJOB_SG_LBS": "4096"}, {"2a"}),
    ("block device read", "blk", BLK + ["rw=read", "bs=4k", "size=32k", "iodepth=4"], {},
     {"28"}),
    ("block device write hipri", "blk", BLK + ["rw=write", "bs=4k", "size=32k", "hipri",
                                               "writefua=1", "fdatasync=3"], {}, {"2a", "35"}),
    ("block device trim", "blk", BLK + ["rw=trim", "bs=4k", "size=32k", "iodepth=4"], {},
     {"42"}),
]
MODES = {
    "write_and_verify": {"2e"}, "verify": {"2e"}, "write_same": {"41"}, "same": {"41"},
    "write_same_ndob": {"93"}, "verify_bytchk_00": {"2f"}, "verify_bytchk_01": {"2f"},
    "verify_bytchk_11": {"2f"}, "write_stream": {"9a"}, "write": {"2a"},
}
for mode, ops in MODES.items():
    # a fresh device holds zeros: the verify modes that compare write what matches
    CASES.append(("sg_write_mode=" + mode, "chr",
                  ["rw=write", "bs=8k", "size=32k", "writefua=1", "hipri",
                   "sg_write_mode=" + mode, "zero_buffers"], {}, ops))


def check_same_as_fio(c, d):
    if not shutil.which("fio"):
        c.skip("fio is not installed: the CDB sequences are not compared with fio's")
        return
    for name, kind, lines, env, ops in CASES:
        t = Target(d, kind, **env)
        fcode, _, ferr, fcmds = t.run("fio", lines)
        t = Target(d, kind, **env)
        icode, _, ierr, icmds = t.run("iojob", lines)
        fseq, iseq = data_cdbs(fcmds), data_cdbs(icmds)
        if name.startswith("rand"):
            fseq, iseq = sorted(fseq), sorted(iseq)
        c.check(fcode == 0 and icode == 0, "%s: exits fio %d, iojob %d: %s %s" %
                (name, fcode, icode, ferr[-300:], ierr[-300:]))
        c.check(fseq == iseq and fseq, "%s: CDBs differ: fio %s, iojob %s" %
                (name, fseq[:6], iseq[:6]))
        c.check(ops <= {s[0] for s in iseq}, "%s: want opcodes %s in %s" %
                (name, sorted(ops), sorted({s[0] for s in iseq})))
        print("same CDBs as fio: %s (%d commands)" % (name, len(iseq)))


def check_depth(c, d):
    """An sg device keeps iodepth commands out; a block device and direct=1 one at a time."""
    for kind, extra, via, depth in (("chr", [], "write", 8), ("chr", ["direct=1"], "ioctl", 0),
                                    ("blk", BLK, "ioctl", 0)):
        t = Target(d, kind)
        code, _, err, cmds = t.run("iojob", extra + ["rw=randread", "bs=4k", "size=256k",
                                                     "iodepth=8"])
        data = [x for x in cmds if x["op"] == "28"]
        c.check(code == 0 and len(data) == 64, "depth %s %s: exit %d, %d reads: %s" %
                (kind, extra, code, len(data), err))
        c.check({x["via"] for x in data} == {via}, "depth %s %s: sent by %s" %
                (kind, extra, {x["via"] for x in data}))
        c.check(max(int(x["inflight"]) for x in data) == depth,
                "depth %s %s: at most %s out, want %d" % (kind, extra,
                                                         max(x["inflight"] for x in data), depth))
        print("depth: %s %s: %d reads by %s, %d at once" % (kind, extra, len(data), via, depth))


def check_bytes(c, d):
    """What each write mode and a trim leave on the medium."""
    t = Target(d, fill=b"\xff")
    code, _, err, _ = t.run("iojob", ["rw=write", "bs=8k", "size=32k", "sg_write_mode=write_same",
                                      "buffer_pattern=0x0102030405060708",
                                      "scramble_buffers=0"])
    blk = t.data()[:512]
    ok = all(t.data()[i:i + 512] == blk for i in range(0, 32768, 512))
    c.check(code == 0 and ok and blk[:8] == bytes(range(1, 9)),
            "write_same: exit %d, every block its I/O's first: %s %s" % (code, ok, err))
    c.check(t.data()[32768:32768 + 512] == b"\xff" * 512, "write_same wrote past its region")
    t = Target(d, fill=b"\xff")
    code, _, err, _ = t.run("iojob", ["rw=write", "bs=8k", "size=32k",
                                      "sg_write_mode=write_same_ndob"])
    c.check(code == 0 and t.data()[:32768] == bytes(32768) and t.data()[32768] == 0xff,
            "write_same_ndob: exit %d, zeros written: %s" % (code, err))
    t = Target(d, fill=b"\xff")
    code, _, err, cmds = t.run("iojob", ["rw=trim", "bs=4k", "size=16k", "offset=8k"])
    c.check(code == 0 and t.data()[8192:24576] == bytes(16384) and
            t.data()[:8192] == b"\xff" * 8192 and t.data()[24576] == 0xff,
            "trim: exit %d, the region unmapped, the rest kept: %s" % (code, err))
    print("bytes: write_same, write_same_ndob, trim")
    # verify_bytchk_01 compares what it sends with the medium: the same pattern passes
    pat = ["buffer_pattern=0x5a5b5c5d", "scramble_buffers=0", "bs=4k", "size=32k", "rw=write"]
    t = Target(d)
    code, _, err, _ = t.run("iojob", pat)
    code2, _, err2, _ = t.run("iojob", pat + ["sg_write_mode=verify_bytchk_01"])
    c.check(code == 0 and code2 == 0, "verify_bytchk_01 of what was written: %d %d %s" %
            (code, code2, err2))
    code3, _, err3, cmds = t.run("iojob", ["buffer_pattern=0x11", "scramble_buffers=0",
                                           "bs=4k", "size=32k", "rw=write",
                                           "sg_write_mode=verify_bytchk_01"])
    c.check(code3 == 1 and "MISCOMPARE" in err3 and "0x1d/0x00" in err3 and
            "at offset 0, length 4096" in err3,
            "verify_bytchk_01 of other data: exit %d, %r" % (code3, err3))
    print("verify_bytchk_01: the same data passes, other data fails with MISCOMPARE")


def check_verify(c, d):
    """verify= reads back through the engine, completions handed back out of order too."""
    for env in ({}, {"IOJOB_SG_REORDER": "1"}):
        t = Target(d, **env)
        code, _, err, cmds = t.run("iojob", ["rw=randwrite", "bs=4k", "size=128k",
                                             "iodepth=8", "verify=crc32c"])
        reads = sum(1 for x in cmds if x["op"] == "28")
        writes = sum(1 for x in cmds if x["op"] == "2a")
        c.check(code == 0 and reads == writes == 32, "verify %s: exit %d, %d writes, %d "
                "reads: %s" % (env, code, writes, reads, err))
        print("verify=crc32c %s: 32 writes read back and checked" % env)


def check_whole_device(c, d):
    """Without size=, the job covers the capacity READ CAPACITY gave."""
    t = Target(d, size=256 * 1024)
    code, out, err, cmds = t.run("iojob", ["rw=write", "bs=16k"], ["--output-format=json"])
    writes = [x for x in cmds if x["op"] == "2a"]
    c.check(code == 0 and len(writes) == 16 and '"io_bytes" : 262144' in out.replace(
        '": ', '" : '), "whole device: exit %d, %d writes: %s" % (code, len(writes), err))
    print("whole device: 16 writes of 16k over 256k")


def check_faults(c, d):
    t = Target(d, IOJOB_SG_FAULT="read:sense-3-11-00:3")
    code, _, err, _ = t.run("iojob", ["rw=read", "bs=4k", "size=32k"])
    c.check(code == 1 and "read '%s' at offset 8192, length 4096: Input/output error: SCSI "
            "status CHECK CONDITION" % t.dev in err and "MEDIUM ERROR" in err and
            "0x11/0x00 (unrecovered read error)" in err and "cdb 28 00 00 00 00 10" in err,
            "CHECK CONDITION: exit %d, %r" % (code, err))
    t = Target(d, IOJOB_SG_FAULT="write:sense-3-0c-00:2")
    code, out, err, _ = t.run("iojob", ["rw=write", "bs=4k", "size=32k",
                                        "continue_on_error=all"],
                              ["--output-format=json"])
    c.check(code == 0 and re.search(r'"total_err"\s*:\s*1\b', out) is not None,
            "continue_on_error counts the CHECK CONDITION: exit %d %r" % (code, err))
    t = Target(d, kind="blk", IOJOB_SG_FAULT="write:host-7:2")
    code, _, err, _ = t.run("iojob", BLK + ["rw=write", "bs=4k", "size=32k"])
    c.check(code == 1 and "host status DID_ERROR (0x07)" in err and "at offset 4096" in err,
            "host status: exit %d, %r" % (code, err))
    t = Target(d, IOJOB_SG_FAULT="write:EIO:3")
    code, _, err, _ = t.run("iojob", ["rw=write", "bs=4k", "size=32k", "iodepth=4"])
    c.check(code == 1 and "at offset 8192, length 4096: Input/output error" in err,
            "write() of the header failing: exit %d, %r" % (code, err))
    print("faults: CHECK CONDITION decoded, counted with continue_on_error, host status, "
          "a failed write()")
    # a residual count: half the blocks moved, the rest sent again, the data whole
    for kind, extra in (("chr", []), ("blk", BLK)):
        t = Target(d, kind, IOJOB_SG_FAULT="write:resid:2")
        code, out, err, cmds = t.run("iojob", extra + ["rw=write", "bs=8k", "size=64k",
                                                       "verify=crc32c"])
        writes = [(x["lba"], x["blocks"]) for x in cmds if x["op"] == "2a"]
        m = ISSUED.search(out)
        c.check(code == 0 and ("24", "8") in writes and ("16", "16") in writes and
                len(writes) == 9 and m and m.group(6) == "1",
                "resid %s: exit %d, writes %s, issued %s: %s" %
                (kind, code, writes, m and m.group(0), err))
        print("resid %s: the rest of the short write went again (lba 24, 8 blocks)" % kind)


def check_refusals(c, d):
    """Exit 2 before any I/O: nothing but the capacity asked, the bytes untouched."""
    t = Target(d, fill=b"\x77", IOJOB_SG_LBS="4096")
    code, _, err, cmds = t.run("iojob", ["rw=write", "bs=2k", "size=32k"])
    c.check(code == 2 and "option 'bs': 2048 is not a multiple of the device's logical "
            "block size (4096 bytes)" in err and t.data() == b"\x77" * DEV_BYTES and
            {x["op"] for x in cmds} <= {"25"},
            "bs under the block size: exit %d, %r, %s" % (code, err, cmds[:2]))
    plain = os.path.join(d, "plain")
    with open(plain, "wb") as f:
        f.write(b"\x33" * 65536)
    p = subprocess.run([BIN, "--name=j", "--ioengine=sg", "--filename=" + plain,
                        "--rw=write", "--bs=4k", "--size=64k"], capture_output=True, text=True)
    with open(plain, "rb") as f:
        kept = f.read() == b"\x33" * 65536
    c.check(p.returncode == 2 and "'%s': a regular file: SG_IO is not supported there" %
            plain in p.stderr and kept, "regular file: exit %d, %r" %
            (p.returncode, p.stderr))
    print("refused: bs under the block size, a regular file")


def check_loop_device(c, d):
    if os.geteuid() != 0 or not shutil.which("losetup"):
        c.skip("loop device: needs root and losetup")
        return
    img = os.path.join(d, "loop.img")
    with open(img, "wb") as f:
        f.write(b"\x44" * (4 * MiB))
    p = subprocess.run(["losetup", "-f", "--show", img], capture_output=True, text=True)
    if p.returncode != 0:
        c.skip("loop device: losetup: " + p.stderr.strip())
        return
    dev = p.stdout.strip()
    try:
        p = subprocess.run([BIN, "--name=j", "--ioengine=sg", "--filename=" + dev,
                            "--rw=write", "--bs=4k", "--size=64k"], capture_output=True,
                           text=True, timeout=60)
    finally:
        subprocess.run(["losetup", "-d", dev], capture_output=True)
    with open(img, "rb") as f:
        kept = f.read() == b"\x44" * (4 * MiB)
    c.check(p.returncode == 2 and "'%s': SG_IO is not supported there" % dev in p.stderr and
            kept, "loop device: exit %d, %r" % (p.returncode, p.stderr))
    print("refused: loop device %s, exit 2, untouched" % dev)


def main():
    c = Checks("sg")
    d = scratch_dir()
    try:
        check_refusals(c, d)
        check_loop_device(c, d)
        if not SHIM or not os.path.exists(SHIM):
            c.skip("the SCSI target emulator is not built (IOJOB_SG_SHIM)")
        elif is_tsan_build():
            c.skip("ThreadSanitizer build: the emulator's wrapped read/write/ioctl are left "
                   "out, as the fault shim is")
        else:
            check_same_as_fio(c, d)
            check_depth(c, d)
            check_bytes(c, d)
            check_verify(c, d)
            check_whole_device(c, d)
            check_faults(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
