#!/usr/bin/env python3
"""Safety for every path iojob writes or deletes besides a job's data (issue 27, items 1-3).

- Outputs: --output, --results, write_iolog, the write_*_log prefixes, merge_blktrace_file,
  iojob report --svg/--html and iojob compare --svg are refused (exit 2) when they name a
  mounted ext4 loop device, a symbolic link to it, the file behind it, a new file in /dev
  or a file on procfs; the device, its file and /dev are unchanged. /dev/null and a plain
  file are written.
- Deletions: filedelete (also with rw=read), unlink=1 on a read job, dirdelete, and
  --trigger-file never remove a device node, a mount point or a loop device's backing
  file; merge_blktrace_file never replaces a device node, even with --parse-only.
- Stacking: a second loop device over a mounted one's file, and one with an offset and a
  sizelimit over a mounted region of a file, are refused with allow_overwrite_signatures=1;
  one over other bytes of the same file is written.
- Open time: a written block device is claimed with O_EXCL while the job runs (a mount
  tried from exec_prerun fails), and a device mounted after the run's checks (by an
  earlier phase) is refused when the later job opens it.
Every loop device is detached and every mount undone, whatever happens.
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from common import Checks, private_mounts, remove, run, scratch_dir  # noqa: E402
from safety import Stack, image  # noqa: E402

os.environ["PATH"] += ":/usr/sbin:/sbin"
MiB = 1 << 20


def head(path, n=MiB):
    with open(path, "rb") as f:
        return f.read(n)


def mkfs(dev):
    """ext4 without lazy initialisation, so that nothing writes it in the background."""
    p = subprocess.run(["mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,"
                        "lazy_journal_init=0", dev], capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError("mkfs.ext4 %s: %s" % (dev, p.stderr))


def null_job(*extra):
    return ["--name=j", "--ioengine=null", "--size=1m"] + list(extra)


def output_cases(target, d, rs):
    """(what, iojob arguments) for every opener of an output, pointed at target."""
    return [
        ("--output", null_job("--output=" + target)),
        ("--results", null_job("--results=" + target)),
        ("write_iolog", null_job("--write_iolog=" + target)),
        ("iojob report --svg", ["report", rs, "--svg=" + target]),
        ("iojob report --html", ["report", rs, "--html=" + target]),
        ("iojob compare --svg", ["compare", rs, rs, "--svg=" + target]),
    ]


def check_outputs(c, st, d):
    img = image(d, "out", 32)
    mkfs(img)
    dev = st.attach(img)
    st.mount(dev, os.path.join(d, "mnt"))
    link = os.path.join(d, "link")
    os.symlink(dev, link)
    rs = os.path.join(d, "rs.jsonl")
    code, _, err = run(null_job("--results=" + rs))
    c.check(code == 0, "a result set to chart: %s" % err)
    # an output would start at 0, which ext4 leaves zero (the mount and its journal write
    # the superblock and metadata further on, whatever iojob does)
    before_dev, before_img = head(dev, 1024), head(img, 1024)
    dev_before = set(os.listdir("/dev"))
    targets = [(dev, "a mounted loop device"), (link, "a link to it"),
               (img, "the file behind it"), ("/dev/./iojob-e2e-out", "a new file in /dev"),
               ("/proc/self/comm", "a file on procfs")]
    for target, what in targets:
        for opener, args in output_cases(target, d, rs):
            code, _, err = run(args)
            # procfs's directories refuse every write: some openers find that first
            c.check(code == 2 and ("refusing to write" in err or "cannot write" in err)
                    and target.rpartition("/")[0] in err,
                    "%s to %s (%s): refused, exit 2 (exit %d): %s"
                    % (opener, what, target, code, err))
    # the log prefixes make names beside the prefix: one in /dev
    for log in ["write_bw_log", "write_lat_log", "write_iops_log", "write_hist_log"]:
        code, _, err = run(null_job("--%s=/dev/iojob-e2e-log" % log, "--log_hist_msec=100"))
        c.check(code == 2 and "option '%s': refusing to write the log" % log in err,
                "%s into /dev: refused, exit 2 (exit %d): %s" % (log, code, err))
    # the files a job names after itself or its options, asked to go into /dev
    data = os.path.join(d, "data")
    for what, args, cwd, want in [
            ("exec_prerun's output", null_job("--exec_prerun=true"), "/dev",
             "exec_prerun: 'j.prerun.txt': refusing to write"),
            ("mem=mmapshared's file", ["--name=j", "--filename=" + data, "--size=64k",
                                       "--mem=mmapshared:/dev/iojob-e2e-mem"], d,
             "'/dev/iojob-e2e-mem' to map: refusing to write"),
            ("verify_state_save's state", ["--name=j", "--filename=" + data, "--size=64k",
                                           "--rw=write", "--verify=crc32c",
                                           "--verify_state_save=1", "--aux-path=/dev"], d,
             "verify_state_save: '/dev/local-j-0-verify.state': refusing to write")]:
        code, _, err = run(args, cwd=cwd)
        c.check(code == 1 and want in err, "%s in /dev: refused (exit %d): %s"
                % (what, code, err))
    c.check(head(dev, 1024) == before_dev, "outputs: the mounted device is unchanged")
    c.check(head(img, 1024) == before_img, "outputs: the file behind it is unchanged")
    made = [n for n in os.listdir("/dev") if n not in dev_before and
            os.path.isfile(os.path.join("/dev", n))]
    c.check(not made, "outputs: no file was created in /dev: %s" % made)
    for n in made:
        os.unlink(os.path.join("/dev", n))
    code, _, err = run(null_job("--output=/dev/null"))
    c.check(code == 0 and not err, "--output=/dev/null is written: %s" % err)
    plain = os.path.join(d, "report.txt")
    code, _, err = run(null_job("--output=" + plain))
    c.check(code == 0 and "Run status group" in open(plain).read(),
            "--output to a plain file is written: %s" % err)
    st.pop()
    st.pop()


def restore_node(path, was):
    """Put back a device node that a failing iojob removed or replaced, for the rest."""
    if os.path.lexists(path):
        os.unlink(path)
    os.mknod(path, was.st_mode, was.st_rdev)


def check_deletions(c, st, d):
    img = image(d, "del", 32)
    mkfs(img)
    dev = st.attach(img)
    mnt = os.path.join(d, "mnt")
    st.mount(dev, mnt)
    spare = image(d, "spare", 4)
    spare_dev = st.attach(spare)        # attached, not mounted: its file still backs it
    trace = os.path.join(d, "t.bin")
    with open(trace, "wb") as f:
        f.write(b"\0" * 64)
    cases = [
        ("filedelete, rw=read, on a mounted loop device's file", img, 1,
         ["--name=f", "--ioengine=filedelete", "--rw=read", "--filename=" + img,
          "--size=64k"]),
        ("filedelete on the device node", dev, 1,
         ["--name=f", "--ioengine=filedelete", "--rw=read", "--filename=" + dev,
          "--size=64k"]),
        ("unlink=1 on a read job of an unused loop device's file", spare, 1,
         ["--name=u", "--rw=read", "--filename=" + spare, "--size=64k", "--unlink=1"]),
        ("dirdelete on a mount point", mnt, 1,
         ["--name=r", "--ioengine=dirdelete", "--rw=read", "--filename=" + mnt,
          "--size=4k"]),
        ("--trigger-file on a device node", spare_dev, 2,
         null_job("--trigger-file=" + spare_dev)),
        ("merge_blktrace_file on a device node, --parse-only", spare_dev, 2,
         ["--name=m", "--read_iolog=%s:%s" % (trace, trace), "--merge_blktrace_file=" +
          spare_dev, "--parse-only"]),
    ]
    for what, path, want, args in cases:
        was = os.lstat(path)
        code, _, err = run(args)
        c.check(code == want and "refusing to" in err,
                "%s: refused, exit %d (exit %d): %s" % (what, want, code, err))
        kept = os.path.lexists(path) and os.lstat(path).st_mode == was.st_mode
        c.check(kept, "%s: '%s' is still there, as it was" % (what, path))
        if not kept and os.path.exists("/dev/loop-control") and path.startswith("/dev/"):
            restore_node(path, was)
    c.check(os.path.ismount(mnt), "deletions: the file system is still mounted")
    # the engines that make their own files make none on a pseudo file system (a
    # directory made in cgroupfs or configfs is a kernel object)
    for engine in ["dircreate", "dirdelete", "filecreate"]:
        code, _, err = run(["--name=e", "--ioengine=" + engine, "--filename=/sys/iojob-e2e-x",
                            "--size=4k"])
        c.check(code == 1 and "refusing to create '/sys/iojob-e2e-x'" in err and
                not os.path.lexists("/sys/iojob-e2e-x"),
                "%s on sysfs: refused, exit 1 (exit %d): %s" % (engine, code, err))
    st.pop()
    st.pop()
    st.pop()


def check_stacking(c, st, d):
    img = image(d, "stack", 32)
    mkfs(img)
    lower = st.attach(img)
    st.mount(lower, os.path.join(d, "mnt"))
    twin = st.attach(img)
    before = head(twin)
    code, _, err = run(["--name=w", "--filename=" + twin, "--rw=write", "--bs=64k",
                        "--size=1m", "--allow_overwrite_signatures=1"])
    c.check(code == 1 and "shows the same bytes of its backing file as" in err
            and "mounted" in err,
            "a second loop device over a mounted one's file is refused (exit %d): %s"
            % (code, err))
    c.check(head(twin) == before, "the second loop device was not written")
    st.pop()
    st.pop()
    st.pop()

    # a file system in the middle of a file (as a partition is), mounted through a loop
    # device with an offset; others over the same file, over its bytes and beside them
    img = image(d, "part", 64)
    part = st.attach_range(img, 16 * MiB, 16 * MiB)
    mkfs(part)
    st.mount(part, os.path.join(d, "pmnt"))
    over = st.attach_range(img, 20 * MiB, 4 * MiB)
    before = head(over)
    code, _, err = run(["--name=w", "--filename=" + over, "--rw=write", "--bs=64k",
                        "--size=1m", "--allow_overwrite_signatures=1"])
    c.check(code == 1 and "shows the same bytes" in err,
            "a loop device with an offset over a mounted region is refused (exit %d): %s"
            % (code, err))
    c.check(head(over) == before, "the region's loop device was not written")
    beside = st.attach_range(img, 0, 16 * MiB)
    code, _, err = run(["--name=w", "--filename=" + beside, "--rw=write", "--bs=64k",
                        "--size=1m"])
    c.check(code == 0, "a loop device over other bytes of the file is written: %s" % err)
    for _ in range(4):
        st.pop()


def check_open_time(c, st, d):
    img = image(d, "claim", 32)
    mkfs(img)
    dev = st.attach(img)
    mnt = os.path.join(d, "cmnt")
    os.makedirs(mnt)
    st.undo.append(["umount", mnt])     # only where a mount got through
    mount = "mount %s %s" % (dev, mnt)
    code, _, err = run(["--name=w", "--filename=" + dev, "--rw=write", "--bs=64k",
                        "--size=1m", "--allow_overwrite_signatures=1",
                        "--exec_prerun=" + mount], cwd=d)
    c.check(not os.path.ismount(mnt),
            "a mount of the device while the job writes it fails (claimed O_EXCL)")
    st.pop()

    # the device mounted by an earlier phase, after the run's checks: refused at open
    # (the mount writes ext4's superblock; the job would write from 0, which ext4 leaves
    # zero: its first KiB tells)
    st.undo.append(["umount", mnt])
    before = head(dev, 1024)
    code, _, err = run(["--name=m", "--ioengine=null", "--size=4k", "--exec_prerun=" +
                        mount, "--name=w", "--stonewall", "--filename=" + dev,
                        "--rw=write", "--bs=64k", "--size=1m",
                        "--allow_overwrite_signatures=1"], cwd=d)
    c.check(os.path.ismount(mnt), "the first phase mounted the device")
    c.check(code == 1 and "refusing to write to '%s'" % dev in err,
            "a device mounted since the run's checks is refused at open (exit %d): %s"
            % (code, err))
    c.check(head(dev, 1024) == before,
            "the device mounted by the first phase was not written")
    st.pop()
    st.pop()


def main():
    private_mounts()
    c = Checks("safety_paths")
    if os.geteuid() != 0 or not shutil.which("losetup") or not shutil.which("mkfs.ext4"):
        c.skip("needs root, losetup and mkfs.ext4")
        c.finish()
    d = scratch_dir()
    st = Stack()
    try:
        for check in (check_outputs, check_deletions, check_stacking, check_open_time):
            check(c, st, d)
            st.close()
    finally:
        st.close()
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
