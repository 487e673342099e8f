#!/usr/bin/env python3
"""A report that cannot be written fails the run: on stdout or --output (to /dev/full or a
full file system), from iojob report and iojob compare, in log files and in --results, the
write error is said on stderr and the exit status is 1, where fio exits 0 with it lost."""
import os
import subprocess

from common import BIN, Checks, remove, run, scratch_dir, small_tmpfs

JOB = ["--name=x", "--ioengine=null", "--size=1m"]
ENOSPC = "No space left on device"


def run_full(args, cwd):
    """Run iojob with its stdout on /dev/full; (exit code, stderr)."""
    with open("/dev/full", "w") as full:
        p = subprocess.run([BIN] + args, cwd=cwd, stdout=full, stderr=subprocess.PIPE,
                           text=True, timeout=120)
    return p.returncode, p.stderr


def said(err, what):
    return what in err and ENOSPC in err


def check_stdout(c, d):
    for fmt in ("normal", "json", "json+", "terse"):
        code, err = run_full(JOB + ["--output-format=" + fmt], d)
        c.check(code == 1 and said(err, "iojob: cannot write the report to stdout"),
                "%s report on /dev/full: exit %d, %r" % (fmt, code, err))
    code, err = run_full(["--help"], d)
    c.check(code == 1 and said(err, "stdout"), "--help on /dev/full: exit %d %r" % (code, err))


def check_output_file(c, d, path, what):
    for fmt in ("normal", "json"):
        code, _, err = run(JOB + ["--output-format=" + fmt, "--output=" + path], cwd=d)
        c.check(code == 1 and said(err, "iojob: cannot write the report to '%s'" % path),
                "--output %s (%s): exit %d, %r" % (what, fmt, code, err))


def check_commands(c, d):
    code, _, err = run(JOB + ["--results=a.jsonl", "--label=one", "--output-format=terse"],
                       cwd=d)
    code2, _, err2 = run(JOB + ["--results=a.jsonl", "--label=two", "--output-format=terse"],
                         cwd=d)
    c.check(code == 0 and code2 == 0, "result sets made: %s %s" % (err, err2))
    code, err = run_full(["report", "a.jsonl"], d)
    c.check(code == 1 and said(err, "iojob report: cannot write the report to stdout"),
            "iojob report on /dev/full: exit %d %r" % (code, err))
    code, err = run_full(["compare", "one", "two", "a.jsonl"], d)
    c.check(code == 1 and said(err, "iojob compare: cannot write the report to stdout"),
            "iojob compare on /dev/full: exit %d %r" % (code, err))


def check_logs(c, d):
    """Log files that cannot be written: each is named with the reason."""
    for opt, kind in (("write_bw_log", "bw"), ("write_lat_log", "clat"),
                      ("write_iops_log", "iops"), ("write_hist_log", "clat_hist")):
        name = "full_" + kind
        os.symlink("/dev/full", os.path.join(d, "%s_%s.1.log" % (name, kind)))
        code, _, err = run(JOB + ["--%s=%s" % (opt, name), "--log_hist_msec=100"], cwd=d)
        c.check(code == 1 and said(err, "cannot write log '%s_%s.1.log'" % (name, kind)),
                "%s on /dev/full: exit %d %r" % (opt, code, err))


def check_results(c, d, path, what):
    code, _, err = run(JOB + ["--results=" + path, "--output-format=terse"], cwd=d)
    c.check(code == 1 and said(err, "--results '%s': cannot append this cell's results" % path),
            "--results %s: exit %d %r" % (what, code, err))


def check_results_device(c, d):
    """A device is no result set (it cannot be read back): refused before anything runs."""
    code, _, err = run(JOB + ["--results=/dev/full", "--output-format=terse"], cwd=d)
    c.check(code == 2 and "--results '/dev/full': a character device" in err,
            "--results /dev/full: exit %d %r" % (code, err))


def fill(mnt):
    """Write a file on mnt until its file system is full."""
    try:
        with open(os.path.join(mnt, "fill"), "wb") as f:
            while True:
                f.write(b"\0" * 4096)
                f.flush()
    except OSError:
        pass


def check_full_fs(c, d):
    with small_tmpfs(c, d, "full", "size=64k", "a full file system") as mnt:
        if not mnt:
            return
        code, _, err = run(JOB + ["--results=" + os.path.join(mnt, "set.jsonl")], cwd=d)
        c.check(code == 0, "a result set on the tmpfs: exit %d %r" % (code, err))
        with open(os.path.join(mnt, "set.jsonl")) as f:
            cells = f.read()
        fill(mnt)
        check_output_file(c, d, os.path.join(mnt, "report.txt"), "on a full tmpfs")
        c.check(not os.path.exists(os.path.join(mnt, "report.txt")),
                "--output made on a full tmpfs and not written is removed")
        code, _, err = run(["report", "a.jsonl", "--svg", os.path.join(mnt, "c.svg")], cwd=d)
        c.check(code == 1 and said(err, "c.svg"), "report --svg on a full tmpfs: exit %d %r"
                % (code, err))
        c.check(not os.path.exists(os.path.join(mnt, "c.svg")),
                "a chart made on a full tmpfs and not written is removed")
        code, _, err = run(JOB + ["--write_bw_log=" + os.path.join(mnt, "full")], cwd=d)
        c.check(code == 1 and said(err, "cannot write log '%s/full_bw.1.log'" % mnt),
                "a log on a full tmpfs: exit %d %r" % (code, err))
        c.check(not [n for n in os.listdir(mnt) if n.startswith("full_")],
                "a log not written on a full tmpfs is removed: %r" % os.listdir(mnt))
        check_results(c, d, os.path.join(mnt, "r.jsonl"), "on a full tmpfs")
        c.check(not os.path.exists(os.path.join(mnt, "r.jsonl")),
                "--results made on a full tmpfs and not written is removed")
        check_results(c, d, os.path.join(mnt, "set.jsonl"), "a result set on a full tmpfs")
        with open(os.path.join(mnt, "set.jsonl")) as f:
            c.check(f.read() == cells, "a cell not written whole is taken back")
        with open(os.path.join(mnt, "out.txt"), "w") as out:
            p = subprocess.run([BIN] + JOB, cwd=d, stdout=out, stderr=subprocess.PIPE,
                               text=True, timeout=120)
        c.check(p.returncode == 1 and said(p.stderr, "stdout"),
                "stdout on a full tmpfs: exit %d %r" % (p.returncode, p.stderr))


def main():
    c = Checks("output_errors")
    d = scratch_dir()
    try:
        check_stdout(c, d)
        check_output_file(c, d, "/dev/full", "/dev/full")
        check_commands(c, d)
        check_logs(c, d)
        check_results_device(c, d)
        check_full_fs(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
