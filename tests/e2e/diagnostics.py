#!/usr/bin/env python3
"""Diagnostics have one shape and one place: every line on stderr is 'iojob: file:line: ...'
(job files) or 'iojob: ...' (arguments, runs, notes), starts in lowercase, has no final
period, and nothing of it reaches the report on stdout, which stays pure JSON or terse."""
import json
import os
import re

from common import Checks, remove, run, scratch_dir

QUIET = ["--eta=never"]

# Wrong arguments: exit 2, nothing on stdout.
ARG_ERRORS = [
    ["--output-format=xml", "--name=a"],
    ["--eta=sometimes"],
    ["--set", "novalue"],
    ["--cmdhelp=no_such_option"],
    ["--enghelp=no_such_engine"],
    ["--eta-interval=0"],
    ["--resume", "--name=x", "--size=1m"],
    ["--sweep", "bad", "--name=x"],
    [],
    ["--name=x", "--size=1m", "--bogus=1"],
    ["--name=x", "--size=1m", "--rw=readx"],
    ["missing.fio"],
    ["--output"],
]

# Wrong job files: exit 2, nothing on stdout, the message names job.fio and the line.
JOB_ERRORS = [
    "[job]\nrw=randread\niodepht=4\n",
    "[job]\nsize=4q\n",
    "[job\nsize=1m\n",
    "[job]\nsize=1m\ninclude missing.inc\n",
    "[job]\nsize=${IOJOB_SURELY_UNSET}\n",
    "[job]\nsize=1m\nioengine=psync\nfixedbufs=1\n",
    "[job]\nsize=1m\nbs=2m\n",
]

# Runs that print notes or fail: (arguments, exit code).
RUNS = [
    (["--name=cap", "--ioengine=psync", "--iodepth=4", "--rw=write", "--size=1m",
      "--filename=/dev/null"], 0),
    (["--name=layout", "--rw=read", "--size=1m"], 0),
    (["--name=full", "--rw=write", "--size=1m", "--filename=/dev/full"], 1),
    (["--name=flags", "--ioengine=null", "--size=1m", "--thread=0", "--gtod_reduce=1"], 0),
]


def check_lines(c, what, err, job_file=False):
    lines = err.splitlines()
    c.check(lines, "%s: no message on stderr" % what)
    for line in lines:
        m = re.match(r"iojob: (note: )?(job\.fio:\d+: )?(.*)$", line)
        c.check(m is not None, "%s: %r does not start with 'iojob: '" % (what, line))
        if not m:
            continue
        if job_file:
            c.check(m.group(2) is not None, "%s: %r does not name job.fio:LINE" % (what, line))
        text = m.group(3)
        c.check(not text.endswith("."), "%s: %r ends with a period" % (what, line))
        c.check(not text[:1].isupper(),
                "%s: %r starts in uppercase" % (what, line))


def check_arguments(c, d):
    for args in ARG_ERRORS:
        code, out, err = run(args + QUIET, cwd=d)
        what = " ".join(args) or "(no arguments)"
        c.check(code == 2, "%s: exit %d, want 2" % (what, code))
        c.check(out == "", "%s: wrote to stdout: %r" % (what, out))
        check_lines(c, what, err)


def check_job_files(c, d):
    for text in JOB_ERRORS:
        with open(os.path.join(d, "job.fio"), "w") as f:
            f.write(text)
        for fmt in ("normal", "json", "terse"):
            code, out, err = run(["--output-format=" + fmt, "job.fio"] + QUIET, cwd=d)
            what = "%r (%s)" % (text.splitlines()[-1], fmt)
            c.check(code == 2 and out == "", "%s: exit %d, stdout %r" % (what, code, out))
            check_lines(c, what, err, job_file=True)


def check_runs(c, d):
    for args, want in RUNS:
        for fmt in ("json", "json+", "terse", "normal"):
            what = "%s (%s)" % (args[0], fmt)
            code, out, err = run(args + ["--output-format=" + fmt] + QUIET, cwd=d)
            c.check(code == want, "%s: exit %d, want %d: %s" % (what, code, want, err))
            c.check(err != "" or want == 0, "%s: failed silently" % what)
            if err:
                check_lines(c, what, err)
            c.check("iojob:" not in out, "%s: a diagnostic in the report: %r" % (what, out))
            if fmt.startswith("json"):
                try:
                    doc = json.loads(out)
                    c.check(len(doc["jobs"]) == 1, "%s: %d jobs" % (what, len(doc["jobs"])))
                except ValueError as e:
                    c.check(False, "%s: stdout is not one JSON document (%s): %r" %
                            (what, e, out[:200]))
            elif fmt == "terse":
                c.check(all(line.startswith("3;") for line in out.splitlines()),
                        "%s: stdout holds more than terse lines: %r" % (what, out))
        for f in os.listdir(d):
            os.unlink(os.path.join(d, f))


def check_status_line(c, d):
    """The status line is on stderr even when forced; the report stays JSON."""
    code, out, err = run(["--name=s", "--ioengine=null", "--size=64m", "--runtime=1",
                          "--time_based", "--output-format=json", "--eta=always"], cwd=d)
    c.check(code == 0 and "Jobs: " in err, "--eta=always: exit %d, stderr %r" % (code, err))
    try:
        json.loads(out)
    except ValueError:
        c.check(False, "--eta=always: stdout is not one JSON document")


def main():
    c = Checks("diagnostics")
    d = scratch_dir()
    try:
        check_arguments(c, d)
        check_job_files(c, d)
        check_runs(c, d)
        check_status_line(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
