#!/usr/bin/env python3
"""Output paths and every sweep cell's files are checked before the first I/O: --output,
--results and each write_*_log prefix that cannot be written, and a sweep cell late in the
sweep whose file cannot be made, stop the run with exit 2 before anything is laid out or
run (fio finds out after the run and keeps nothing)."""
import os
import shutil
import subprocess

from common import Checks, remove, run, scratch_dir

JOB = "[global]\nioengine=psync\nfilename=data.bin\nsize=1m\n[t]\nrw=read\n"


def nothing_ran(d, out):
    """Whether the run stopped before laying out data.bin (removed for the next case)."""
    data = os.path.join(d, "data.bin")
    laid_out = os.path.exists(data)
    if laid_out:
        os.unlink(data)
    return not laid_out and "Starting" not in out


def check_output_paths(c, d):
    for opt, path, why in (("--results", "nodir/r.jsonl", "No such file or directory"),
                           ("--results", "job.fio/r.jsonl", "Not a directory"),
                           ("--output", "nodir/out.txt", "No such file or directory")):
        code, out, err = run([opt, path, "job.fio"], cwd=d)
        c.check(code == 2 and "iojob: %s '%s': %s" % (opt, path, why) in err,
                "%s %s: exit %d %r" % (opt, path, code, err))
        c.check(nothing_ran(d, out), "%s %s: nothing laid out or run" % (opt, path))


def check_logs(c, d):
    """Each log prefix in a missing directory: the job file's line of that option."""
    for opt in ("write_bw_log", "write_lat_log", "write_iops_log", "write_hist_log"):
        with open(os.path.join(d, "log.fio"), "w") as f:
            f.write(JOB + "log_hist_msec=100\n%s=nodir/x\n" % opt)
        code, out, err = run(["log.fio"], cwd=d)
        c.check(code == 2 and ("iojob: log.fio:8: job 't': option '%s': cannot write logs in "
                               "'nodir': No such file or directory" % opt) in err,
                "%s into a missing directory: exit %d %r" % (opt, code, err))
        c.check(nothing_ran(d, out), "%s: nothing laid out or run" % opt)
    code, out, err = run(["--write_bw_log=job.fio/x", "job.fio"], cwd=d)
    c.check(code == 2 and "cannot write logs in 'job.fio': not a directory" in err,
            "write_bw_log under a file: exit %d %r" % (code, err))


def read_only_dir(c, d):
    """A directory nobody can write in: mode 555, or for root a read-only tmpfs. None (and
    why, skipped) where it cannot be made."""
    ro = os.path.join(d, "ro")
    os.mkdir(ro, 0o555)
    if os.geteuid() != 0:
        return ro, "Permission denied"
    if not shutil.which("mount"):
        c.skip("root writes in any directory but a read-only mount, and mount(8) is missing")
        return None, None
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", ro],
                       capture_output=True, text=True)
    if p.returncode != 0:
        c.skip("root writes in any directory but a read-only mount: " + p.stderr.strip())
        return None, None
    return ro, "Read-only file system"


def check_unwritable(c, d):
    ro, why = read_only_dir(c, d)
    if not ro:
        return
    try:
        for args in (["--results", "ro/r.jsonl"], ["--write_bw_log=ro/x"],
                     ["--filename=ro/data.bin"]):
            code, out, err = run(args + ["job.fio"], cwd=d)
            c.check(code == 2 and why in err and nothing_ran(d, out),
                    "%s in a read-only directory: exit %d %r" % (args[0], code, err))
    finally:
        if os.geteuid() == 0:
            subprocess.run(["umount", ro])


def check_sweep_cells(c, d):
    """The last cell's file may not be made (on procfs) or laid out (--readonly): the first
    cell does not run either."""
    with open(os.path.join(d, "e.bin"), "wb") as f:
        f.write(b"\0" * (1 << 20))
    for extra, sweep, why in (
            (["--rw=write"], "filename=a.bin,/proc/iojob-e2e-b.bin",
             "iojob: sweep cell 2/2: command line: job 't': '/proc/iojob-e2e-b.bin' does not "
             "exist, and iojob never creates files on procfs"),
            (["--readonly"], "filename=e.bin,m.bin",
             "iojob: sweep cell 2/2: command line: job 't': 'm.bin' has 0 of the 1048576 "
             "bytes the job reads, and --readonly forbids laying it out")):
        code, out, err = run(["--name=t", "--ioengine=psync", "--size=1m"] + extra +
                             ["--sweep", sweep, "--results", "s.jsonl"], cwd=d)
        c.check(code == 2 and why in err, "sweep %s: exit %d %r" % (sweep, code, err))
        c.check("Sweep (--sweep)" not in out and not os.path.exists(os.path.join(d, "a.bin")),
                "sweep %s: no cell ran: %r" % (sweep, out))
        path = os.path.join(d, "s.jsonl")
        c.check(not os.path.exists(path) or os.path.getsize(path) == 0,
                "sweep %s: no cell kept" % sweep)


def main():
    c = Checks("early_paths")
    d = scratch_dir()
    try:
        with open(os.path.join(d, "job.fio"), "w") as f:
            f.write(JOB)
        check_output_paths(c, d)
        check_logs(c, d)
        check_unwritable(c, d)
        check_sweep_cells(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
