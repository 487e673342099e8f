#!/usr/bin/env python3
"""The e4defrag engine (issue 31 item 4) on an ext4 file system of its own, a loop device
over a file in the scratch directory, mounted in a mount namespace of this test's: each
write moves its range's blocks from the donor file into the job's file (EXT4_IOC_MOVE_EXT),
so that the file's contents stay the same and its physical blocks change, read back with
filefrag. inplace=0 allocates the donor over the job's region at the start and leaves it
holding the file's old blocks; inplace=1 allocates and frees the donor's blocks at each
write. Where fio is installed, the same jobs under fio do the same. Needs root, losetup,
mkfs.ext4 and filefrag; skipped otherwise. The loop device is always detached."""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from common import BIN, Checks, private_mounts, remove, run, scratch_dir  # noqa: E402
from safety import Stack, image, sh  # noqa: E402

FIO = shutil.which("fio")
MiB = 1 << 20


def blocks(path):
    """The file's logical block -> physical block, from filefrag -v (4 KiB blocks)."""
    out = subprocess.run(["filefrag", "-v", "-b4096", path], capture_output=True,
                         text=True).stdout
    m = {}
    for ln in out.splitlines():
        f = re.match(r"\s*\d+:\s+(\d+)\.\.\s*(\d+):\s+(\d+)\.\.\s*(\d+):", ln)
        if f:
            lo, hi, phys = int(f.group(1)), int(f.group(2)), int(f.group(3))
            for i in range(lo, hi + 1):
                m[i] = phys + i - lo
    return m


def content(path):
    with open(path, "rb") as f:
        return f.read()


def fresh_file(mnt, name, size):
    """A written file, synced: the kernel moves no block whose page is dirty (EBUSY)."""
    path = os.path.join(mnt, name)
    with open(path, "wb") as f:
        f.write(os.urandom(size))
        os.fsync(f.fileno())
    return path


def defrag(prog, mnt, name, donor, *extra):
    """prog (BIN or fio) runs an e4defrag job on name; (exit code, JSON or None, stderr)."""
    args = ["--name=d", "--directory=" + mnt, "--filename=" + name, "--ioengine=e4defrag",
            "--donorname=" + donor, "--output-format=json"] + list(extra)
    p = subprocess.run([prog] + args, cwd=mnt, capture_output=True, text=True, timeout=120)
    doc = None
    if p.returncode == 0:
        doc = json.loads(p.stdout[p.stdout.index("{"):])
    return p.returncode, doc, p.stderr


def check_whole(c, mnt, prog, tag):
    """inplace=0, sequential over the whole file: every block moved, the data the same,
    the donor as long as the region (it holds the old blocks now)."""
    path = fresh_file(mnt, "whole-" + tag, 4 * MiB)
    before, data = blocks(path), content(path)
    code, doc, err = defrag(prog, mnt, "whole-" + tag, "whole-%s.def" % tag, "--rw=write",
                            "--bs=32k", "--size=4m", "--filesize=4m", "--inplace=0",
                            "--direct=1")
    c.check(code == 0 and doc["jobs"][0]["write"]["total_ios"] == 128,
            "%s inplace=0: exit %d, %s: %s" % (tag, code, doc and doc["jobs"][0]["write"]
                                               ["total_ios"], err.strip()[-300:]))
    after = blocks(path)
    moved = [b for b in before if after.get(b) != before[b]]
    c.check(content(path) == data and len(before) == 1024 and len(moved) == 1024,
            "%s inplace=0: %d of %d blocks moved, data kept: %s" %
            (tag, len(moved), len(before), content(path) == data))
    donor = os.path.join(mnt, "whole-%s.def" % tag)
    c.check(os.path.getsize(donor) == 4 * MiB,
            "%s inplace=0: the donor is %d bytes" % (tag, os.path.getsize(donor)))


def check_inplace(c, mnt, prog, tag):
    """inplace=1, the first 16 blocks of 64: those moved and no other, the donor empty."""
    path = fresh_file(mnt, "part-" + tag, 256 * 1024)
    before, data = blocks(path), content(path)
    code, doc, err = defrag(prog, mnt, "part-" + tag, "part-%s.def" % tag, "--rw=write",
                            "--bs=4k", "--size=256k", "--filesize=256k", "--number_ios=16",
                            "--inplace=1")
    c.check(code == 0 and doc["jobs"][0]["write"]["total_ios"] == 16,
            "%s inplace=1: exit %d: %s" % (tag, code, err.strip()[-300:]))
    after = blocks(path)
    moved = sorted(b for b in before if after.get(b) != before[b])
    c.check(content(path) == data and moved == list(range(16)),
            "%s inplace=1: blocks moved %s, data kept: %s" %
            (tag, moved, content(path) == data))
    c.check(os.path.getsize(os.path.join(mnt, "part-%s.def" % tag)) == 0,
            "%s inplace=1: the donor is not emptied after each move" % tag)


def check_refusals(c, mnt):
    """Only writes move blocks: a read job is refused before it runs (fio fails each I/O
    with EINVAL); without donorname= the job fails saying what to set."""
    fresh_file(mnt, "r", 64 * 1024)
    code, _, err = run(["--name=r", "--directory=" + mnt, "--filename=r", "--rw=read",
                        "--ioengine=e4defrag", "--donorname=r.def", "--size=64k"])
    c.check(code == 2 and "only writes" in err, "e4defrag rw=read: exit %d %r" % (code, err))
    code, _, err = run(["--name=r", "--directory=" + mnt, "--filename=r", "--rw=write",
                        "--ioengine=e4defrag", "--size=64k"])
    c.check(code != 0 and "donorname=" in err, "e4defrag without donorname: exit %d %r" %
            (code, err))


def main():
    private_mounts()
    c = Checks("engines_ext4")
    need = [t for t in ("losetup", "mkfs.ext4", "filefrag", "mount") if not shutil.which(t)]
    if os.geteuid() != 0 or need:
        c.skip("e4defrag: needs root and %s" % (", ".join(need) or "loop devices"))
        c.finish()
    d = scratch_dir()
    st = Stack()
    try:
        dev = st.attach(image(d, "ext4", 64))
        p = sh("mkfs.ext4 -q -F %s" % dev)
        c.check(p.returncode == 0, "mkfs.ext4: %s" % p.stderr)
        mnt = os.path.join(d, "mnt")
        st.mount(dev, mnt)
        for prog, tag in [(BIN, "iojob")] + ([(FIO, "fio")] if FIO else []):
            check_whole(c, mnt, prog, tag)
            check_inplace(c, mnt, prog, tag)
        check_refusals(c, mnt)
    finally:
        st.close()
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
