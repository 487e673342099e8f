#!/usr/bin/env python3
"""fio_jsonplus_clat2csv (Debian's fio package) reads iojob's json+ output unchanged.

A null-engine job and a job with slat (libaio, else psync) write json+ with slat, clat and
lat percentiles; the tool turns each job's "bins" into a CSV. Every CSV must have the tool's
header, one row per latency value that any bin has (ascending), and per column triple the
bin's count, the running total and the running share, all matching the json+ bins; the
tool's own --validate must agree.
"""
import itertools
import json
import os
import shutil
import subprocess

from common import Checks, engine_available, remove, run, scratch_dir

TOOL = "fio_jsonplus_clat2csv"
DDIRS = ["read", "write", "trim"]
LATS = ["slat_ns", "clat_ns", "lat_ns"]
COLUMNS = ["%s_%s" % p for p in itertools.product(DDIRS, LATS)]
HEADER = "nsec, " + "".join("{0}_count, {0}_cumulative, {0}_percentile, ".format(c)
                            for c in COLUMNS)


def job_file(d):
    if engine_available("libaio"):
        slat_job = "ioengine=libaio\ndirect=1\niodepth=4\n"
    else:
        slat_job = "ioengine=psync\n"
    text = ("[global]\nbs=4k\nslat_percentiles=1\nlat_percentiles=1\n"
            "[nulljob]\nioengine=null\nrw=randrw\nsize=4m\n"
            "[slatjob]\n" + slat_job + "filename=slat.dat\nrw=randread\nsize=2m\n")
    with open(os.path.join(d, "tools.fio"), "w") as f:
        f.write(text)


def bins_of(job):
    """{column: {nsec: count}} of a JSON job, for the columns that have bins."""
    out = {}
    for ddir, lat in itertools.product(DDIRS, LATS):
        bins = job[ddir][lat].get("bins")
        if bins is not None:
            out["%s_%s" % (ddir, lat)] = {int(k): v for k, v in bins.items()}
    return out


def read_csv(path):
    with open(path) as f:
        lines = f.read().split("\n")
    rows = []
    for line in lines[1:]:
        if line.strip():
            rows.append([x.strip() for x in line.split(",")])
    return lines[0], rows


def check_csv(c, where, path, job):
    want = bins_of(job)
    c.check(bool(want), "%s: the JSON job has no bins" % where)
    header, rows = read_csv(path)
    c.check(header == HEADER, "%s: header %r" % (where, header[:60]))
    nsecs = [int(r[0]) for r in rows]
    every = sorted(set(itertools.chain.from_iterable(want.values())))
    c.check(nsecs == every, "%s: %d rows, want one per bin value (%d), ascending" %
            (where, len(nsecs), len(every)))
    for k, col in enumerate(COLUMNS):
        got, running, total = {}, 0, sum(want.get(col, {}).values())
        for r in rows:
            count, cumulative, share = r[1 + 3 * k:4 + 3 * k]
            if not count:
                c.check(not cumulative and not share, "%s %s: partial triple" % (where, col))
                continue
            got[int(r[0])] = int(count)
            running += int(count)
            c.check(int(cumulative) == running, "%s %s at %s: cumulative %s, want %d" %
                    (where, col, r[0], cumulative, running))
            c.check(abs(float(share) - running / total) < 1e-9,
                    "%s %s at %s: percentile %s" % (where, col, r[0], share))
        c.check(got == want.get(col, {}), "%s %s: %d bins in the CSV, %d in the JSON" %
                (where, col, len(got), len(want.get(col, {}))))
        ddir, lat = col.split("_", 1)
        if col in want:
            c.check(running == job[ddir][lat]["N"], "%s %s: the bins count every sample" %
                    (where, col))


def tool(c, args, d):
    """Run the tool; None when it cannot run here (then the check is skipped)."""
    try:
        p = subprocess.run([TOOL] + args, cwd=d, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        c.check(False, "%s %s did not finish in 120 s" % (TOOL, args))
        return None
    if "No module named" in p.stderr:
        c.skip("%s cannot run: %s" % (TOOL, p.stderr.strip().splitlines()[-1]))
        return None
    c.check(p.returncode == 0, "%s %s: exit %d: %s" % (TOOL, args, p.returncode, p.stderr))
    return p


def main():
    c = Checks("fio_tools")
    if not shutil.which(TOOL):
        c.skip("%s not found (Debian package fio, installed by tests/deps.sh test)" % TOOL)
        c.finish()
    d = scratch_dir()
    try:
        job_file(d)
        code, out, err = run(["--output-format=json+", "--output=lat.json", "tools.fio"],
                             cwd=d)
        c.check(code == 0, "iojob: exit %d: %s" % (code, err.strip()))
        doc = json.load(open(os.path.join(d, "lat.json")))
        p = tool(c, ["lat.json", "lat.csv"], d)
        if p is not None and p.returncode == 0:
            for n, job in enumerate(doc["jobs"]):
                path = os.path.join(d, "lat_job%d.csv" % n)
                c.check(os.path.exists(path), "no %s" % path)
                if os.path.exists(path):
                    check_csv(c, "job %d (%s)" % (n, job["jobname"]), path, job)
            slat_n = doc["jobs"][1]["read"]["slat_ns"]["N"]
            c.check(("read_slat_ns" in bins_of(doc["jobs"][1])) == bool(slat_n),
                    "slat bins exactly when the engine measured slat (N=%d)" % slat_n)
            p = tool(c, ["lat.json", "lat.csv", "--validate"], d)
            if p is not None:
                c.check(p.stdout.count("validated") == len(doc["jobs"]),
                        "--validate: %r" % p.stdout)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
