#!/usr/bin/env python3
"""Where the report and the result set go (issue 27): --output and --results naming one file,
however spelled, are refused before anything runs; --results takes only a regular file that
is empty or a result set already; --output to a FIFO with no reader is refused instead of
blocking, while pipes with a reader (/dev/stdout, /dev/fd/N, a FIFO being read) still work."""
import json
import os
import subprocess

from common import BIN, run, run_checks

JOB = ["--name=x", "--ioengine=null", "--size=1m", "--output-format=terse"]
HANG = 60	# no check waits on this: it only ends a run that blocks (as before the fix)


def run_guarded(args, d):
    """run(), with a run that blocks ending as exit -1 instead of hanging the test."""
    try:
        return run(args, cwd=d, timeout=HANG)
    except subprocess.TimeoutExpired:
        return -1, "", "blocked"


def check_same_file(c, d):
    """Both switches on one file: a report written over the cells, or cells after it."""
    os.mkdir(os.path.join(d, "sub"))
    results = os.path.join(d, "r.jsonl")
    code, _, err = run(JOB + ["--results=r.jsonl"], cwd=d)
    c.check(code == 0, "a result set made: %d %r" % (code, err))
    os.link(results, os.path.join(d, "hard.jsonl"))
    with open(results) as f:
        before = f.read()
    for out, res, what in (("r.jsonl", "r.jsonl", "one path"),
                           ("./sub/../r.jsonl", "r.jsonl", "spelled with '..'"),
                           (results, "r.jsonl", "absolute and relative"),
                           ("hard.jsonl", "r.jsonl", "a hard link"),
                           ("new.jsonl", "sub/../new.jsonl", "not made yet, spelled twice")):
        code, out_, err = run_guarded(JOB + ["--output=" + out, "--results=" + res], d)
        c.check(code == 2 and "are one file" in err and out in err,
                "--output %s --results %s (%s): exit %d, %r" % (out, res, what, code, err))
    with open(results) as f:
        c.check(f.read() == before, "the result set is untouched by the refused runs")
    c.check(not os.path.exists(os.path.join(d, "new.jsonl")),
            "nothing ran: the file not made yet is still not there")
    with open(results, "a") as out:
        p = subprocess.run([BIN] + JOB + ["--results=r.jsonl"], cwd=d, stdout=out,
                           stderr=subprocess.PIPE, text=True, timeout=HANG)
    c.check(p.returncode == 2 and "stdout and --results 'r.jsonl' are one file" in p.stderr,
            "stdout sent to the result set: exit %d %r" % (p.returncode, p.stderr))
    with open(results) as f:
        c.check(f.read() == before, "the result set is untouched by the refused runs")
    code, _, err = run(JOB + ["--output=report.txt", "--results=r.jsonl"], cwd=d)
    c.check(code == 0, "two files still work: exit %d %r" % (code, err))


def check_results_not_regular(c, d):
    """A result set is appended to and read back: a FIFO, a socket or a device is none."""
    fifo = os.path.join(d, "fifo")
    os.mkfifo(fifo)
    for path, kind in ((fifo, "a FIFO"), ("/dev/null", "a character device")):
        code, _, err = run_guarded(JOB + ["--results=" + path], d)
        c.check(code == 2 and ("--results '%s'" % path) in err and kind in err,
                "--results on %s: exit %d, %r" % (kind, code, err))


def check_results_not_a_set(c, d):
    """A file that is not a result set is not appended to: named, with what it holds."""
    path = os.path.join(d, "notes.txt")
    with open(path, "w") as f:
        f.write("my notes\nline two\n")
    code, _, err = run(JOB + ["--results=notes.txt"], cwd=d)
    c.check(code == 2 and "--results 'notes.txt'" in err and "not a result set" in err
            and "my notes" in err, "--results on a text file: exit %d, %r" % (code, err))
    with open(path) as f:
        c.check(f.read() == "my notes\nline two\n", "the text file is untouched")
    with open(os.path.join(d, "obj.jsonl"), "w") as f:
        f.write('{"a": 1}\n')
    code, _, err = run(JOB + ["--results=obj.jsonl"], cwd=d)
    c.check(code == 2 and "not a result set" in err,
            "--results on JSON Lines of another tool: exit %d, %r" % (code, err))


def check_results_appends(c, d):
    """What still works: an empty file, a result set, one whose first cell a crash cut."""
    open(os.path.join(d, "empty.jsonl"), "w").close()
    for _ in range(2):
        code, _, err = run(JOB + ["--results=empty.jsonl"], cwd=d)
        c.check(code == 0, "--results on an empty file, then on a result set: %r" % err)
    with open(os.path.join(d, "empty.jsonl")) as f:
        lines = f.read().splitlines()
    c.check(len(lines) == 2 and all("iojob_result" in json.loads(l) for l in lines),
            "two result lines: %r" % lines[:1])
    with open(os.path.join(d, "cut.jsonl"), "w") as f:
        f.write(lines[0][:100])
    code, _, err = run(JOB + ["--results=cut.jsonl"], cwd=d)
    c.check(code == 0, "--results on a set whose first cell was cut: exit %d %r" % (code, err))


def check_output_fifo(c, d):
    """fio blocks opening a FIFO no one reads, before anything runs and with no word."""
    fifo = os.path.join(d, "fifo")
    os.mkfifo(fifo)
    code, _, err = run_guarded(JOB + ["--output=" + fifo], d)
    c.check(code == 2 and "--output '%s'" % fifo in err and "no reader" in err,
            "--output to a FIFO with no reader: exit %d, %r" % (code, err))
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        code, _, err = run_guarded(JOB + ["--output=" + fifo], d)
        got = os.read(reader, 1 << 16).decode()
    finally:
        os.close(reader)
    c.check(code == 0 and got.startswith("3;"), "--output to a FIFO being read: exit %d, %r %r"
            % (code, got[:40], err))


def check_output_pipes(c, d):
    """/dev/stdout and /dev/fd/N on a pipe with a reader, as process substitution makes."""
    code, out, err = run(JOB + ["--output=/dev/stdout"], cwd=d)
    c.check(code == 0 and out.startswith("3;"), "--output=/dev/stdout: %d %r" % (code, err))
    rfd, wfd = os.pipe()
    try:
        p = subprocess.run([BIN] + JOB + ["--output=/dev/fd/%d" % wfd], cwd=d, pass_fds=[wfd],
                           capture_output=True, text=True, timeout=HANG)
        os.close(wfd)
        wfd = -1
        got = os.read(rfd, 1 << 16).decode()
    finally:
        os.close(rfd)
        if wfd >= 0:
            os.close(wfd)
    c.check(p.returncode == 0 and got.startswith("3;"), "--output=/dev/fd/N on a pipe: %d %r"
            % (p.returncode, p.stderr))


if __name__ == "__main__":
    run_checks("output_targets", [check_same_file, check_results_not_regular,
                                  check_results_not_a_set, check_results_appends,
                                  check_output_fifo, check_output_pipes])
