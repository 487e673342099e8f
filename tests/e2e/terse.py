#!/usr/bin/env python3
"""Terse output, version 3, field for field as fio 3.33 prints it.

The same jobs run with fio, when it is installed, and with iojob: each line must have as
many fields as fio's, and every field the same form (integer, "%f", "%3.1f%%", "%f%%=N"
percentile, name) at the same index. Then iojob runs with --output-format=terse,json and
every terse field is checked against the JSON of the same run: I/O in KiB, bandwidth,
IOPS, runtime, slat/clat/lat in usec, the percentiles, bw samples, cpu, depths, latency
buckets, disks, errors and the description.
"""
import json
import os
import re
import shutil
import subprocess

from common import Checks, remove, run, scratch_dir

JOBS = {
    "null": "[global]\nioengine=null\nbs=4k\nsize=8m\n"
            "[nullrw]\nrw=randrw\nnumjobs=2\ngroup_reporting\n",
    "psync": "[global]\nioengine=psync\nbs=4k\nsize=1m\n"
             "[fsync]\nfilename=fsync.dat\nrw=randrw\nfsync=4\ncontinue_on_error=all\n"
             "description=psync with fsync\n"
             "[reader]\nfilename=reader.dat\nrw=read\n",
}

FORMS = [
    ("pct_key", re.compile(r"^(\d+\.\d{6}%=\d+|0%=0)$")),
    ("int", re.compile(r"^\d+$")),
    ("float", re.compile(r"^\d+\.\d{6}$")),
    ("pct6", re.compile(r"^\d+\.\d{6}%$")),
    ("pct2", re.compile(r"^\d+\.\d{2}%$")),
    ("pct1", re.compile(r"^\d+\.\d%$")),
]
DIR_FIELDS = 41
DEPTHS = ["1", "2", "4", "8", "16", "32", ">=64"]
LAT_LABELS = ["2", "4", "10", "20", "50", "100", "250", "500", "750", "1000"]
MS_LABELS = LAT_LABELS + ["2000", ">=2000"]


def form(field):
    for name, pattern in FORMS:
        if pattern.match(field):
            return name
    return "text"


def terse_lines(out):
    return [line.split(";") for line in out.splitlines() if line.startswith("3;")]


def compare_forms(c, name, fio_lines, lines):
    c.check(len(fio_lines) == len(lines), "%s: %d lines, fio %d" % (name, len(lines),
                                                                  len(fio_lines)))
    for n, (want, got) in enumerate(zip(fio_lines, lines)):
        where = "%s line %d" % (name, n)
        c.check(len(got) == len(want), "%s: %d fields, fio %d" % (where, len(got), len(want)))
        for i, (w, g) in enumerate(zip(want, got)):
            if i == 1:
                c.check(w.startswith("fio-") and g.startswith("iojob-"), "%s: version" % where)
                continue
            same = form(w) == form(g)
            # the percentile keys and the names (job, disks) are the same text
            if form(w) in ("pct_key", "text"):
                same = w.split("=")[0] == g.split("=")[0]
            c.check(same, "%s field %d: fio %r, iojob %r" % (where, i + 1, w, g))
    print("%s: %s fields per line, as fio" % (name, [len(x) for x in lines]))


def close(c, where, field, value, tol=1.5e-6):
    got = float(field.rstrip("%"))
    c.check(abs(got - value) <= tol, "%s: terse %s, JSON %s" % (where, field, value))


def check_lat(c, where, f, lat):
    c.check((int(f[0]), int(f[1])) == (lat["min"] // 1000, lat["max"] // 1000),
            "%s min/max: %s vs %s" % (where, f[:2], (lat["min"], lat["max"])))
    close(c, where + " mean", f[2], lat["mean"] / 1000)
    close(c, where + " stddev", f[3], lat["stddev"] / 1000)


def check_dir(c, where, f, dd, pct_list):
    """The 41 fields of one direction."""
    c.check([int(x) for x in f[0:4]] == [dd["io_kbytes"], dd["bw"], int(dd["iops"]),
                                         dd["runtime"]],
            "%s io;bw;iops;runtime: %s" % (where, f[0:4]))
    check_lat(c, where + " slat", f[4:8], dd["slat_ns"])
    check_lat(c, where + " clat", f[8:12], dd["clat_ns"])
    pct = dd["clat_ns"].get("percentile", {})
    for i in range(20):
        if i < len(pct_list):
            want = "%s%%=%d" % (pct_list[i], pct.get(pct_list[i], 0) // 1000)
        else:
            want = "0%=0"
        c.check(f[12 + i] == want, "%s percentile %d: %s, want %s" % (where, i, f[12 + i],
                                                                      want))
    check_lat(c, where + " lat", f[32:36], dd["lat_ns"])
    c.check((int(f[36]), int(f[37])) == (dd["bw_min"], dd["bw_max"]), "%s bw min/max" % where)
    close(c, where + " bw agg", f[38], dd["bw_agg"])
    close(c, where + " bw mean", f[39], dd["bw_mean"])
    close(c, where + " bw dev", f[40], dd["bw_dev"])


def check_line(c, where, f, j, doc, pct_list):
    c.check(f[0:5] == ["3", doc["fio version"], j["jobname"], str(j["groupid"]),
                       str(j["error"])], "%s header %s" % (where, f[0:5]))
    check_dir(c, where + " read", f[5:46], j["read"], pct_list)
    check_dir(c, where + " write", f[46:87], j["write"], pct_list)
    at = 87
    close(c, where + " usr", f[at], j["usr_cpu"])
    close(c, where + " sys", f[at + 1], j["sys_cpu"])
    c.check([int(x) for x in f[at + 2:at + 5]] == [j["ctx"], j["majf"], j["minf"]],
            "%s ctx;majf;minf" % where)
    at += 5
    for k, label in enumerate(DEPTHS):
        c.check(f[at + k] == "%3.1f%%" % j["iodepth_level"][label],
                "%s depth %s: %s vs %s" % (where, label, f[at + k], j["iodepth_level"][label]))
    at += 7
    # v3 predates the nsec buckets: they are added to the first usec one, unrounded, where
    # the JSON raises each tiny one to 0.01
    nsec = sum(j["latency_ns"].values())
    slack = 0.006 + 0.01 * sum(1 for v in j["latency_ns"].values() if v)
    for k, label in enumerate(LAT_LABELS):
        want = j["latency_us"][label] + (nsec if k == 0 else 0)
        close(c, "%s lat usec %s" % (where, label), f[at + k], want, slack)
    at += 10
    for k, label in enumerate(MS_LABELS):
        close(c, "%s lat msec %s" % (where, label), f[at + k], j["latency_ms"][label], 0.006)
    at += 12
    for dsk in doc.get("disk_util", []):
        want = [dsk["name"]] + [str(dsk[k]) for k in ("read_ios", "write_ios", "read_merges",
                                                       "write_merges", "read_ticks",
                                                       "write_ticks", "in_queue")]
        c.check(f[at:at + 8] == want, "%s disk: %s vs %s" % (where, f[at:at + 8], want))
        close(c, where + " disk util", f[at + 8], dsk["util"], 0.006)
        at += 9
        if "aggr_util" in dsk:
            c.check(f[at] == "slaves", "%s: ;slaves; after an md disk" % where)
            at += 9
    if "total_err" in j:
        c.check(f[at:at + 2] == [str(j["total_err"]), str(j["first_error"])],
                "%s total_err;first_error %s" % (where, f[at:at + 2]))
        at += 2
    if "desc" in j:
        c.check(f[at:at + 1] == [j["desc"]], "%s description %s" % (where, f[at:at + 1]))
        at += 1
    c.check(at == len(f), "%s: %d fields, %d accounted for" % (where, len(f), at))


def check_job_file(c, name, d):
    with open(os.path.join(d, name + ".fio"), "w") as f:
        f.write(JOBS[name])
    code, out, err = run(["--output-format=json,terse", name + ".fio"], cwd=d)
    c.check(code == 0, "%s: exit %d: %s" % (name, code, err.strip()))
    if code:
        return
    lines = terse_lines(out)
    c.check(out.startswith("3;"), "%s: terse comes before the JSON, as in fio" % name)
    doc = json.loads(out[out.find("\n{\n") + 1:])
    c.check(len(lines) == len(doc["jobs"]), "%s: %d lines, %d JSON jobs" % (name, len(lines),
                                                                         len(doc["jobs"])))
    for n, (f, j) in enumerate(zip(lines, doc["jobs"])):
        pct_list = list(j["read"]["clat_ns"].get("percentile") or
                        j["write"]["clat_ns"].get("percentile") or {})
        check_line(c, "%s line %d" % (name, n), f, j, doc, pct_list)
    code, out, err = run(["--minimal", name + ".fio"], cwd=d)
    c.check(code == 0 and terse_lines(out) and all(x.startswith("3;") for x in
                                                    out.splitlines()),
            "%s: --minimal prints terse lines only: %r" % (name, out[:80]))
    if not shutil.which("fio"):
        c.skip("%s: fio is not installed: no field-by-field comparison" % name)
        return
    p = subprocess.run(["fio", "--minimal", name + ".fio"], cwd=d, capture_output=True,
                       text=True, timeout=120)
    c.check(p.returncode == 0, "%s: fio failed: %s" % (name, p.stderr.strip()))
    if p.returncode == 0:
        compare_forms(c, name, terse_lines(p.stdout), lines)


def check_formats(c, d):
    """Each format once, in fio's order: terse, JSON, normal."""
    code, out, _ = run(["--output-format=normal,json+,terse,json,normal", "null.fio"], cwd=d)
    c.check(code == 0, "format list: exit %d" % code)
    terse_at = out.find("\n3;")
    json_at = out.find("\n{\n")
    normal_at = out.find("\nnullrw: (groupid=0")
    c.check(0 < terse_at < json_at < normal_at, "order terse %d, json %d, normal %d" %
            (terse_at, json_at, normal_at))
    c.check(out.count("\n{\n") == 1 and out.count("Run status group 0") == 1 and
            len(terse_lines(out)) == 1, "each format once")
    c.check('"bins"' in out, "json+ with json: one document, with bins")
    code, out, _ = run(["--minimal", "--output-format=json", "null.fio"], cwd=d)
    c.check(code == 0 and out.startswith("{\n") and "\n3;" not in out,
            "a later --output-format replaces --minimal")


def main():
    c = Checks("terse")
    d = scratch_dir()
    try:
        for name in JOBS:
            check_job_file(c, name, d)
        check_formats(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
