#!/usr/bin/env python3
"""Every examples/*.fio runs end to end (seed jobs at small size) and its report holds.

Each example's '# expect: PATH OP VALUE' lines are checked against the JSON report; the
normal report of the same run must agree with the JSON (issued I/Os per direction); the
seed job files, replayed with --set size=16m, must issue exactly size/bs I/Os with all
32 in flight.
"""
import glob
import os
import re
import sys

from common import Checks, SRC, Failure, engine_available, remove, run, scratch_dir, \
    split_normal_json

SEED_SIZE = 16 << 20
EXPECT = re.compile(r"^#\s*expect:\s*(.+?)\s*(==|!=|>=|<=|>|<)\s*(.+?)\s*$")
OPS = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, ">=": lambda a, b: a >= b,
       "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, "<": lambda a, b: a < b}
PATH_TOKEN = re.compile(r'\.?([A-Za-z_][A-Za-z_0-9 ]*)|\[(\d+)\]|\["([^"]*)"\]')


def lookup(doc, path):
    """Value of a path such as jobs[0].read.total_ios or jobs[1].iodepth_level["32"]."""
    pos, v = 0, doc
    while pos < len(path):
        m = PATH_TOKEN.match(path, pos)
        if not m:
            raise Failure("bad path " + path)
        key = m.group(1) or m.group(3)
        v = v[int(m.group(2))] if m.group(2) else v[key]
        pos = m.end()
    return v


def evaluate(doc, expr):
    """A path, or a sum of paths with '+', or a literal."""
    expr = expr.strip()
    if expr.startswith('"'):
        return expr.strip('"')
    if re.fullmatch(r"-?\d+(\.\d+)?", expr):
        return float(expr)
    parts = [lookup(doc, part.strip()) for part in expr.split("+")]
    return parts[0] if len(parts) == 1 else sum(parts)


def engines_of(text):
    return set(re.findall(r"^\s*ioengine\s*=\s*(\S+)", text, re.M))


def issued_from_text(report):
    """issued rwts totals per job block, in order."""
    return [tuple(int(x) for x in m.group(1).split(","))
            for m in re.finditer(r"issued rwts: total=([\d,]+)", report)]


def check_example(c, path):
    name = os.path.basename(path)
    text = open(path).read()
    for eng in engines_of(text):
        if not engine_available(eng):
            c.skip("%s: ioengine %s not built" % (name, eng))
            return
    seed = name.startswith("random-")
    args = ["--output-format=normal,json"] + (["--set", "size=16m"] if seed else []) + [path]
    d = scratch_dir()
    try:
        code, out, err = run(args, cwd=d)
        c.check(code == 0, "%s: exit %d: %s" % (name, code, err.strip()))
        if code != 0:
            return
        report, doc = split_normal_json(out)
        for line in text.splitlines():
            m = EXPECT.match(line)
            if m:
                got = evaluate(doc, m.group(1))
                want = evaluate(doc, m.group(3))
                c.check(OPS[m.group(2)](got, want),
                        "%s: expected %s %s %s, got %r" % (name, m.group(1), m.group(2),
                                                          m.group(3), got))
        texts = issued_from_text(report)
        c.check(len(texts) == len(doc["jobs"]), "%s: %d job blocks in text, %d in JSON" %
                (name, len(texts), len(doc["jobs"])))
        for t, j in zip(texts, doc["jobs"]):
            c.check(t[:3] == (j["read"]["total_ios"], j["write"]["total_ios"],
                              j["trim"]["total_ios"]),
                    "%s: text issued %s differs from JSON" % (name, t))
        if seed:
            check_seed(c, name, report, doc)
    finally:
        remove(d)


def check_seed(c, name, report, doc):
    j = doc["jobs"][0]
    ddir = "read" if name.startswith("random-read") else "write"
    c.check(j[ddir]["total_ios"] == SEED_SIZE // 4096,
            "%s: %d I/Os, want %d" % (name, j[ddir]["total_ios"], SEED_SIZE // 4096))
    c.check(j[ddir]["io_bytes"] == SEED_SIZE, "%s: io_bytes %d" % (name, j[ddir]["io_bytes"]))
    # The last refills of a size-bound run find the budget short and go out below full
    # depth (fio counts them the same way): at 4096 I/Os that is a few tenths of a percent.
    c.check(j["iodepth_level"]["32"] >= 99.0, "%s: depths %s" % (name, j["iodepth_level"]))
    c.check(j[ddir]["slat_ns"]["N"] == SEED_SIZE // 4096, "%s: slat N" % name)
    c.check("Overrides (--set): size=16m" in report, "%s: --set not in the header" % name)
    c.check(("Laying out IO file" in report) == (ddir == "read"),
            "%s: layout line present only for the read job" % name)
    c.check(bool(re.search(r"^\s+clat percentiles \(usec\):", report, re.M)),
            "%s: no clat percentiles" % name)
    if doc.get("disk_util"):
        c.check("Disk stats (read/write):" in report, "%s: disk stats missing" % name)
    else:
        c.skip("%s: the scratch directory is on no block device: no disk stats" % name)


def main():
    c = Checks("examples")
    paths = sorted(glob.glob(os.path.join(SRC, "examples", "*.fio")))
    c.check(len(paths) >= 8, "examples found: %d" % len(paths))
    for p in paths:
        check_example(c, p)
    c.finish()


if __name__ == "__main__":
    main()
