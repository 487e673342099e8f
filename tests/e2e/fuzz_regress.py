#!/usr/bin/env python3
"""The inputs the fuzz targets found trouble with, in tests/fuzz/regress: job files
(NAME.fio, run with --parse-only) and result sets (NAME.jsonl, run with iojob report).
Each ends with the exit code and the one-line message in NAME.expect (the code on the
first line, a regular expression for stderr on the second), never a crash or a sanitizer
report."""
import glob
import os
import re
import subprocess

from common import BIN, SRC, Checks

REGRESS = os.path.join(SRC, "tests", "fuzz", "regress")


def main():
    c = Checks("fuzz_regress")
    paths = glob.glob(os.path.join(REGRESS, "*.fio")) + \
        glob.glob(os.path.join(REGRESS, "*.jsonl"))
    for path in sorted(paths):
        name = os.path.basename(path)
        with open(os.path.splitext(path)[0] + ".expect") as f:
            want_code, want_err = f.read().splitlines()[:2]
        args = ["report", name] if name.endswith(".jsonl") else ["--parse-only", name]
        p = subprocess.run([BIN] + args, cwd=REGRESS, capture_output=True, text=True,
                           timeout=120)
        err = p.stderr.strip()
        c.check(p.returncode == int(want_code), "%s: exit %d, want %s: %s" %
                (name, p.returncode, want_code, err[-2000:]))
        c.check(re.search(want_err, err, re.M) is not None,
                "%s: message %r does not match %r" % (name, err[-2000:], want_err))
        c.check("Sanitizer" not in err and "runtime error" not in err,
                "%s: sanitizer report:\n%s" % (name, err[-4000:]))
    c.finish()


if __name__ == "__main__":
    main()
