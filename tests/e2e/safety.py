#!/usr/bin/env python3
"""Device and file safety on real loop devices (root with losetup; skipped otherwise).

- Every signature that libblkid finds refuses a plain write job: file systems (minix, bfs,
  cramfs, erofs, jfs, udf, nilfs2, xfs, btrfs, f2fs, vfat, ext4), swap, partition tables,
  a LUKS2 volume whose primary header was wiped, md superblocks of every metadata version
  and IMSM/DDF RAID metadata (written by tests/e2e/raid_meta.py as the tools write them,
  and by mdadm itself where the kernel has md). The job exits 1 naming what
  it found, the device is unchanged byte for byte and blkid -p still finds the same thing;
  allow_overwrite_signatures=1 writes.
- A loop device whose content is mounted through a second loop device stacked on it, and
  the regular file behind a mounted loop device, are refused as mounted, and written once
  the stack is unmounted; so is a swap file in use.
- Nothing is created, laid out or written on procfs, sysfs or devtmpfs, however the path
  is spelt (/dev/./x, //dev/x, /dev/../dev/x); /dev/shm (tmpfs) is an ordinary place.
Every loop device is detached and every mount undone, whatever happens.
"""
import hashlib
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from common import Checks, private_mounts, remove, run, scratch_dir  # noqa: E402
import raid_meta  # noqa: E402

os.environ["PATH"] += ":/usr/sbin:/sbin"


class Stack:
    """Loop devices and mounts made by this test, undone newest first."""

    def __init__(self):
        self.undo = []

    def sh(self, cmd, **kw):
        return subprocess.run(cmd, capture_output=True, text=True, **kw)

    def attach(self, path, ro=False, extra=()):
        args = ["losetup", "-f", "--show"] + (["-r"] if ro else []) + list(extra) + [path]
        p = self.sh(args)
        if p.returncode:
            raise RuntimeError("losetup %s: %s" % (path, p.stderr.strip()))
        dev = p.stdout.strip()
        self.undo.append(["losetup", "-d", dev])
        return dev

    def attach_range(self, path, offset, size):
        """A loop device over size bytes of path from offset (losetup -o, --sizelimit)."""
        return self.attach(path, extra=["-o", str(offset), "--sizelimit", str(size)])

    def mount(self, dev, mnt):
        os.makedirs(mnt, exist_ok=True)
        p = self.sh(["mount", dev, mnt])
        if p.returncode:
            raise RuntimeError("mount %s: %s" % (dev, p.stderr.strip()))
        self.undo.append(["umount", mnt])

    def pop(self):
        self.sh(self.undo.pop())

    def close(self):
        while self.undo:
            self.pop()


def digest(dev):
    h = hashlib.sha256()
    with open(dev, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def blkid_types(dev):
    p = subprocess.run(["blkid", "-p", "-o", "export", dev], capture_output=True, text=True)
    return sorted(l for l in p.stdout.splitlines() if l.startswith(("TYPE=", "PTTYPE=")))


def image(d, name, mib):
    path = os.path.join(d, name + ".img")
    with open(path, "wb") as f:
        f.truncate(mib << 20)
    return path


def write_job(dev, *extra):
    return ["--name=w", "--filename=" + dev, "--rw=write", "--bs=64k", "--size=1m",
            "--direct=1"] + list(extra)


def sh(cmd):
    return subprocess.run(["sh", "-c", cmd], capture_output=True, text=True)


# name, tools needed, command on $DEV (device) or $IMG (image, before attaching), the
# start of what iojob names, and the image's size in MiB (sparse: xfs and nilfs2 need 300)
DEV_SIGS = [
    ("minix", ["mkfs.minix"], "mkfs.minix $DEV", "minix file system", 16),
    ("bfs", ["mkfs.bfs"], "mkfs.bfs $DEV", "bfs file system", 16),
    ("jfs", ["mkfs.jfs"], "mkfs.jfs -q $DEV", "jfs file system", 16),
    ("udf", ["mkudffs"], "mkudffs $DEV", "udf file system", 16),
    ("nilfs2", ["mkfs.nilfs2"], "mkfs.nilfs2 -q -f $DEV", "nilfs2 file system", 320),
    ("xfs", ["mkfs.xfs"], "mkfs.xfs -q -f $DEV", "xfs file system", 320),
    ("btrfs", ["mkfs.btrfs"], "mkfs.btrfs -q -f $DEV", "btrfs file system", 128),
    ("f2fs", ["mkfs.f2fs"], "mkfs.f2fs -q -f $DEV", "f2fs file system", 128),
    ("vfat", ["mkfs.vfat"], "mkfs.vfat $DEV", "vfat file system", 16),
    ("ext4", ["mkfs.ext4"], "mkfs.ext4 -q -F $DEV", "ext4 file system", 16),
    ("swap", ["mkswap"], "mkswap $DEV", "swap", 16),
    ("dos", ["sfdisk"], "echo 'label: dos' | sfdisk -q $DEV", "dos partition table", 16),
    ("gpt", ["sfdisk"], "echo 'label: gpt' | sfdisk -q $DEV", "gpt partition table", 16),
]
IMG_SIGS = [
    ("cramfs", ["mkfs.cramfs"], "mkdir -p $IMG.d && echo x > $IMG.d/f && "
     "mkfs.cramfs $IMG.d $IMG && truncate -s 16m $IMG", "cramfs file system", 16),
    ("erofs", ["mkfs.erofs"], "mkdir -p $IMG.d && echo x > $IMG.d/f && "
     "mkfs.erofs --quiet $IMG $IMG.d && truncate -s 16m $IMG", "erofs file system", 16),
    # the LUKS2 binary header and its JSON area take the first 16 KiB: wiping them leaves
    # the secondary copy, which blkid still finds
    ("luks2-secondary", ["cryptsetup"], "head -c 32 /dev/urandom > $IMG.key && "
     "cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 "
     "--key-file $IMG.key $IMG && dd if=/dev/zero of=$IMG bs=16k count=1 conv=notrunc "
     "status=none", "crypto_LUKS volume", 16),
]

# md superblocks of each version and the IMSM and DDF anchors, as their tools write them,
# and an LVM2 PV's label, which blkid files under USAGE "raid" though it is no RAID member
RAID_SIGS = [(kind, [], raid_meta.write, want, 16) for kind, want in [
    ("md-0.90", "linux_raid_member RAID member"), ("md-1.0", "linux_raid_member RAID member"),
    ("md-1.1", "linux_raid_member RAID member"), ("md-1.2", "linux_raid_member RAID member"),
    ("imsm", "isw_raid_member RAID member"), ("ddf", "ddf_raid_member RAID member"),
    ("lvm2", "LVM2_member (an LVM2 physical volume) at byte 536")]]


def check_refused(c, st, dev, want, what):
    before_sum, before_ids = digest(dev), blkid_types(dev)
    code, out, err = run(write_job(dev))
    c.check(code == 1 and "refusing to write to '%s'" % dev in err and want in err
            and "allow_overwrite_signatures=1" in err,
            "%s: a write is refused naming '%s' (exit %d): %s" % (what, want, code, err))
    c.check(digest(dev) == before_sum, "%s: the device is unchanged" % what)
    c.check(before_ids and blkid_types(dev) == before_ids,
            "%s: blkid -p still finds %s" % (what, before_ids))


def check_signatures(c, st, d):
    for name, tools, cmd, want, mib in DEV_SIGS + IMG_SIGS + RAID_SIGS:
        missing = [t for t in tools if not shutil.which(t)]
        if missing:
            c.skip("%s: %s not installed (tests/deps.sh test installs it)" % (name, missing))
            continue
        if name == "nilfs2" and not os.path.exists("/etc/mtab"):
            # a bare chroot has none; mkfs.nilfs2 reads it to see the device is not mounted
            c.skip("nilfs2: mkfs.nilfs2 needs /etc/mtab, which this system lacks")
            continue
        img = image(d, name, mib)
        if callable(cmd):
            cmd(img, name, mib << 20)
            p = subprocess.CompletedProcess(cmd, 0)
            dev = st.attach(img)
        elif (name, tools, cmd, want, mib) in IMG_SIGS:
            p = sh(cmd.replace("$IMG", img))
            dev = st.attach(img) if p.returncode == 0 else None
        else:
            dev = st.attach(img)
            p = sh(cmd.replace("$DEV", dev))
        if p.returncode:
            c.check(False, "%s: making the signature failed: %s" % (name, p.stderr))
            if dev:
                st.pop()
            continue
        check_refused(c, st, dev, want, name)
        if name == "minix":
            code, _, err = run(write_job(dev, "--allow_overwrite_signatures=1"))
            c.check(code == 0 and blkid_types(dev) == [],
                    "minix: allow_overwrite_signatures=1 writes over it: %s" % err)
        st.pop()


def md_available():
    return os.path.exists("/proc/mdstat") and shutil.which("mdadm")


def check_md(c, st, d):
    """md superblocks 0.90, 1.0, 1.1, 1.2 and the IMSM and DDF containers, by mdadm."""
    if not md_available():
        c.skip("md superblocks, IMSM and DDF: no md in this kernel (/proc/mdstat) or no "
               "mdadm")
        return
    env = dict(os.environ, IMSM_NO_PLATFORM="1")
    for meta, want in [("0.90", "linux_raid_member"), ("1.0", "linux_raid_member"),
                       ("1.1", "linux_raid_member"), ("1.2", "linux_raid_member"),
                       ("imsm", "isw_raid_member"), ("ddf", "ddf_raid_member")]:
        devs = [st.attach(image(d, "md%s-%d" % (meta, i), 64)) for i in range(2)]
        md = "/dev/md/iojob-e2e"
        level = [] if meta in ("imsm", "ddf") else ["--level=1"]
        p = subprocess.run(["mdadm", "--create", md, "--run", "--metadata=" + meta] + level +
                           ["--raid-devices=2"] + devs, capture_output=True, text=True,
                           env=env, input="y\n")
        if p.returncode:
            c.check(False, "md %s: mdadm --create failed: %s" % (meta, p.stderr))
        subprocess.run(["mdadm", "--stop", md], capture_output=True)
        subprocess.run(["mdadm", "--stop", "--scan"], capture_output=True)
        if not p.returncode:
            check_refused(c, st, devs[0], want, "md " + meta)
        st.pop()
        st.pop()


def check_held_by_program(c, st, d):
    """A device another program opened O_EXCL (mkfs, another iojob run) is not written to,
    and the message does not blame the kernel alone (issue 27)."""
    dev = st.attach(image(d, "excl", 16))
    fd = os.open(dev, os.O_RDONLY | os.O_EXCL)
    try:
        code, _, err = run(write_job(dev))
    finally:
        os.close(fd)
    c.check(code == 1 and "refusing to write to '%s'" % dev in err and
            "open exclusively (O_EXCL) by another program or held by the kernel" in err,
            "a device held O_EXCL by a program: exit %d %r" % (code, err))
    st.pop()


def check_stacked_loops(c, st, d):
    """ext4 on loop B over loop A: A is in use while B is mounted, and so is A's file."""
    img = image(d, "stack", 64)
    a = st.attach(img)
    b = st.attach(a)
    p = sh("mkfs.ext4 -q -F %s" % b)
    if p.returncode:
        c.check(False, "mkfs.ext4 on the stacked loop device: %s" % p.stderr)
        return
    st.mount(b, os.path.join(d, "mnt"))
    before = digest(a)
    code, _, err = run(write_job(a, "--allow_overwrite_signatures=1"))
    c.check(code == 1 and "%s is a loop device over it, and" % os.path.basename(b) in err
            and "is mounted" in err and "allow_mounted_write=1" in err,
            "loop over loop: the lower device is refused as mounted (exit %d): %s"
            % (code, err))
    code, _, err = run(["--name=f", "--filename=" + img, "--rw=write", "--bs=64k",
                        "--size=1m"])
    c.check(code == 1 and "%s is a loop device over it" % os.path.basename(a) in err
            and "is mounted" in err,
            "the file behind a mounted loop stack is refused (exit %d): %s" % (code, err))
    c.check(digest(a) == before, "loop over loop: nothing was written")
    st.pop()        # unmount: now the loops are attached but unused
    code, _, err = run(["--name=f", "--filename=" + img, "--rw=write", "--bs=64k",
                        "--size=1m"])
    c.check(code == 0, "the file behind an unused loop device is written: %s" % err)
    st.pop()
    st.pop()


def check_swap_file(c, d):
    """A regular file in use as swap is never written."""
    path = os.path.join(d, "swapfile")
    with open(path, "wb") as f:
        f.write(b"\0" * (16 << 20))
    os.chmod(path, 0o600)
    if sh("mkswap %s && swapon %s" % (path, path)).returncode:
        c.skip("swap file: swapon is not allowed here")
        return
    try:
        before = digest(path)
        code, _, err = run(["--name=s", "--filename=" + path, "--rw=write", "--size=1m"])
        c.check(code == 1 and "it is a swap file in use" in err,
                "a swap file in use is refused (exit %d): %s" % (code, err))
        c.check(digest(path) == before, "the swap file is unchanged")
    finally:
        sh("swapoff %s" % path)


def check_pseudo_fs(c, d):
    for path, rw, want in [("/proc/self/mem", "read", "on procfs, a pseudo file system"),
                           ("/proc/iojob-e2e-x", "write", "never creates files on procfs"),
                           ("/sys/iojob-e2e-x", "write", "never creates files on sysfs"),
                           ("/dev/./iojob-e2e-x", "write", "on devtmpfs (/dev)"),
                           ("//dev/iojob-e2e-x", "write", "on devtmpfs (/dev)"),
                           ("/dev/../dev/iojob-e2e-x", "write", "on devtmpfs (/dev)"),
                           ("/dev/iojob-e2e-x", "read", "on devtmpfs (/dev)")]:
        code, _, err = run(["--name=p", "--filename=" + path, "--rw=" + rw, "--size=1m"])
        c.check(code == 2 and want in err, "%s (%s): refused with '%s' (exit %d): %s"
                % (path, rw, want, code, err))
    link = os.path.join(d, "link-to-dev")
    os.symlink("/dev/iojob-e2e-x", link)
    code, _, err = run(["--name=p", "--filename=" + link, "--rw=write", "--size=1m"])
    c.check(code == 2 and "on devtmpfs (/dev)" in err,
            "a dangling link into /dev is refused (exit %d): %s" % (code, err))
    c.check(not os.path.exists("/dev/iojob-e2e-x"), "no file was created in /dev")
    if os.path.exists("/dev/iojob-e2e-x"):
        os.unlink("/dev/iojob-e2e-x")
    if os.path.isdir("/dev/shm"):
        path = "/dev/shm/iojob-e2e-%d" % os.getpid()
        code, _, err = run(["--name=s", "--filename=" + path, "--rw=write", "--size=1m"])
        c.check(code == 0 and os.path.getsize(path) == 1 << 20,
                "/dev/shm (tmpfs) is written as any file system: %s" % err)
        if os.path.exists(path):
            os.unlink(path)


def main():
    private_mounts()
    c = Checks("safety")
    d = scratch_dir()
    check_pseudo_fs(c, d)
    if os.geteuid() != 0 or not shutil.which("losetup"):
        c.skip("loop devices: needs root and losetup")
    else:
        st = Stack()
        try:
            check_signatures(c, st, d)
            check_md(c, st, d)
            check_held_by_program(c, st, d)
            check_stacked_loops(c, st, d)
            check_swap_file(c, d)
        finally:
            st.close()
    remove(d)
    c.finish()


if __name__ == "__main__":
    main()
