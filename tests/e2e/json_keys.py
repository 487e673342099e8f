#!/usr/bin/env python3
"""JSON parity with fio 3.33, and JSON against the normal report of the same run.

The same small jobs (a null randrw with numjobs=2 and group_reporting, a psync file job with
fsync=4 and continue_on_error, a direct libaio job) run with fio, when it is installed, and
with iojob: every key fio writes must exist in iojob's JSON at the same path (values may
differ; the keys iojob adds are listed). Every key the issue names is checked with its type.
Then each job runs with --output-format=normal,json and the numbers of the two reports must
agree: IOPS, bandwidth, I/O, runtime, issued I/Os, slat/clat/lat, percentiles, bw and iops
samples, lat buckets, depths, cpu and disk lines.
"""
import json
import math
import os
import re
import shutil
import subprocess

from common import Checks, engine_available, remove, run, scratch_dir, split_normal_json

JOBS = {
    # a second at a low rate: bw and iops samples, without keeping a CPU busy
    "null": ("[global]\nioengine=null\nbs=4k\nsize=16m\ntime_based\nruntime=1\n"
             "[nullrw]\nrw=randrw\nrate_iops=4000\nnumjobs=2\ngroup_reporting\n", "json+"),
    "psync": ("[global]\nioengine=psync\nbs=4k\n"
              "[fsync]\nfilename=fsync.dat\nsize=1m\nrw=randrw\nfsync=4\n"
              "continue_on_error=all\ndescription=psync with fsync\n", "json+"),
    "libaio": ("[global]\nioengine=libaio\ndirect=1\n"
               "[aio]\nfilename=aio.dat\nsize=4m\nrw=randread\nbs=4k\niodepth=8\n", "json"),
}

TOP_KEYS = ["fio version", "timestamp", "timestamp_ms", "time", "global options", "jobs"]
JOB_KEYS = {
    "jobname": str, "groupid": int, "error": int, "eta": int, "elapsed": int,
    "job options": dict, "read": dict, "write": dict, "trim": dict, "sync": dict,
    "job_runtime": int, "usr_cpu": float, "sys_cpu": float, "ctx": int, "majf": int,
    "minf": int, "iodepth_level": dict, "iodepth_submit": dict, "iodepth_complete": dict,
    "latency_ns": dict, "latency_us": dict, "latency_ms": dict, "latency_depth": int,
    "latency_target": int, "latency_percentile": float, "latency_window": int,
}
DIR_KEYS = {
    "io_bytes": int, "io_kbytes": int, "bw_bytes": int, "bw": int, "iops": float,
    "runtime": int, "total_ios": int, "short_ios": int, "drop_ios": int, "slat_ns": dict,
    "clat_ns": dict, "lat_ns": dict, "bw_min": int, "bw_max": int, "bw_agg": float,
    "bw_mean": float, "bw_dev": float, "bw_samples": int, "iops_min": int, "iops_max": int,
    "iops_mean": float, "iops_stddev": float, "iops_samples": int,
}
LAT_KEYS = {"min": int, "max": int, "mean": float, "stddev": float, "N": int}
DISK_KEYS = {"name": str, "read_ios": int, "write_ios": int, "read_merges": int,
             "write_merges": int, "read_ticks": int, "write_ticks": int, "in_queue": int,
             "util": float}
PCT_KEYS = ["%f" % p for p in (1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9,
                               99.95, 99.99)]
LAT_LABELS = ["2", "4", "10", "20", "50", "100", "250", "500", "750", "1000"]
DEPTH_LABELS = ["1", "2", "4", "8", "16", "32", ">=64"]
BATCH_LABELS = ["0", "4", "8", "16", "32", "64", ">=64"]


def key_tree(v, path="", out=None):
    """Every key path of a document; arrays merge their elements ("[]"), json+ bins keys
    (bucket values, which differ from run to run) are one "*"."""
    out = set() if out is None else out
    if isinstance(v, dict):
        for k, x in v.items():
            k = "*" if path.endswith(".bins") else k
            out.add(path + "." + k)
            key_tree(x, path + "." + k, out)
    elif isinstance(v, list):
        for x in v:
            key_tree(x, path + "[]", out)
    return out


def fio_json(c, name, d, fmt):
    """fio's JSON for the job file, or None; fio may print notes before the document."""
    p = subprocess.run(["fio", "--output-format=" + fmt, name + ".fio"], cwd=d,
                       capture_output=True, text=True, timeout=120)
    at = p.stdout.find("{\n")
    c.check(p.returncode == 0 and at >= 0, "%s: fio failed: %s" % (name, p.stderr.strip()))
    return json.loads(p.stdout[at:]) if p.returncode == 0 and at >= 0 else None


def iojob_json(c, name, d, fmt):
    code, out, err = run(["--output-format=" + fmt, name + ".fio"], cwd=d)
    c.check(code == 0, "%s: iojob exit %d: %s" % (name, code, err.strip()))
    return json.loads(out) if code == 0 else None


def check_types(c, where, obj, keys):
    for k, t in keys.items():
        c.check(k in obj, "%s: no key '%s'" % (where, k))
        if k in obj:
            ok = isinstance(obj[k], t) and not (t is int and isinstance(obj[k], bool))
            c.check(ok or (t is float and isinstance(obj[k], int)),
                    "%s.%s: %r is not %s" % (where, k, obj[k], t.__name__))


def check_lat(c, where, lat, pct, plus):
    check_types(c, where, lat, LAT_KEYS)
    if pct and lat.get("N"):
        c.check(list(lat.get("percentile", {})) == PCT_KEYS,
                "%s.percentile keys: %s" % (where, list(lat.get("percentile", {}))))
    c.check(("bins" in lat) == (plus and "percentile" in lat),
            "%s: bins only in json+ and beside percentiles" % where)


def check_issue_keys(c, name, doc, plus):
    """The keys the issue lists, with their types."""
    for k in TOP_KEYS:
        c.check(k in doc, "%s: no top-level '%s'" % (name, k))
    c.check(doc.get("fio version", "").startswith("iojob-"), "%s: fio version" % name)
    for i, j in enumerate(doc.get("jobs", [])):
        where = "%s.jobs[%d]" % (name, i)
        check_types(c, where, j, JOB_KEYS)
        # fio's "job options" hold what the section set; what ran, set or not, is iojob's
        opts = j.get("iojob", {}).get("options", {})
        for k in ("rw", "bs", "iodepth", "numjobs"):
            c.check(isinstance(opts.get(k), str), "%s: iojob.options.%s %r" % (where, k,
                                                                            opts.get(k)))
        for ddir in ("read", "write", "trim"):
            dd = j.get(ddir, {})
            check_types(c, where + "." + ddir, dd, DIR_KEYS)
            check_lat(c, where + "." + ddir + ".slat_ns", dd.get("slat_ns", {}), False, plus)
            check_lat(c, where + "." + ddir + ".clat_ns", dd.get("clat_ns", {}), True, plus)
            check_lat(c, where + "." + ddir + ".lat_ns", dd.get("lat_ns", {}), False, plus)
        check_lat(c, where + ".sync.lat_ns", j.get("sync", {}).get("lat_ns", {}), True, plus)
        for key, labels in (("iodepth_level", DEPTH_LABELS), ("iodepth_submit", BATCH_LABELS),
                            ("iodepth_complete", BATCH_LABELS), ("latency_ns", LAT_LABELS),
                            ("latency_us", LAT_LABELS),
                            ("latency_ms", LAT_LABELS + ["2000", ">=2000"])):
            c.check(list(j.get(key, {})) == labels, "%s.%s keys" % (where, key))
    for i, dsk in enumerate(doc.get("disk_util", [])):
        check_types(c, "%s.disk_util[%d]" % (name, i), dsk, DISK_KEYS)


def compare_with_fio(c, name, d, fmt, doc):
    if not shutil.which("fio"):
        c.skip("%s: fio is not installed: no key-by-key comparison" % name)
        return
    fdoc = fio_json(c, name, d, fmt)
    if fdoc is None:
        return
    mine, theirs = key_tree(doc), key_tree(fdoc)
    missing = sorted(theirs - mine)
    c.check(not missing, "%s: keys fio writes that iojob lacks: %s" % (name, missing))
    print("%s: %d key paths from fio, all present; iojob adds %s" %
          (name, len(theirs), sorted(mine - theirs) or "none"))


# --- the normal report of the same run -------------------------------------------------

UNIT = {"": 1, "k": 1000, "M": 1000 ** 2, "G": 1000 ** 3, "T": 1000 ** 4, "P": 1000 ** 5,
        "Ki": 1024, "Mi": 1024 ** 2, "Gi": 1024 ** 3, "Ti": 1024 ** 4, "Pi": 1024 ** 5}
NUM = re.compile(r"^([\d.]+)(Ki|Mi|Gi|Ti|Pi|k|M|G|T|P)?(B/s|B)?$")
DIV = {"nsec": 1, "usec": 1000, "msec": 1000000}


def parse_num(s):
    """A num2str string: its value and the value of one step of its last digit."""
    m = NUM.match(s)
    if not m:
        raise ValueError("not a number: " + s)
    mult = UNIT[m.group(2) or ""]
    decimals = len(m.group(1).split(".")[1]) if "." in m.group(1) else 0
    return float(m.group(1)) * mult, mult / 10 ** decimals


def near(c, what, text, value):
    """text shows value to its precision (num2str rounds: within one step of the last digit)."""
    got, step = parse_num(text)
    c.check(abs(got - value) <= step, "%s: text %s, JSON %s" % (what, text, value))


def parse_normal(text):
    """Job blocks of the normal report: {'dirs': {name: {...}}, 'lines': {...}}; disks."""
    jobs, disks, job, cur = [], {}, None, None
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if re.match(r"^\S.*: \(groupid=\d+, jobs=\d+\): err=", line):
            job = {"dirs": {}, "kv": {}, "pct": {}}
            jobs.append(job)
            cur = None
            continue
        m = re.match(r"^  (\w+): IOPS=(\S+), BW=(\S+) \((\S+)\)\((\S+)/(\d+)msec\)", line)
        if m and job is not None:
            cur = {"iops": m.group(2), "bw": m.group(3), "bw_alt": m.group(4),
                   "io": m.group(5), "runtime": int(m.group(6)), "lat": {}, "pct": {}}
            job["dirs"][m.group(1)] = cur
            continue
        m = re.match(r"^    ( ?\w+) \((\w+)\): min=(\S+), max=(\S+), avg=\s*(\S+), "
                     r"stdev=\s*(\S+)$", line)
        if m and cur is not None:
            cur["lat"][m.group(1).strip()] = (m.group(2),) + m.groups()[2:]
            continue
        m = re.match(r"^    (\w+) percentiles \((\w+)\):$", line)
        if m and cur is not None:
            vals = {}
            while i < len(lines) and lines[i].startswith("     |"):
                for p, v in re.findall(r"([\d.]+)th=\[\s*(\d+)\]", lines[i]):
                    vals[float(p)] = int(v)
                i += 1
            cur["pct"][m.group(1)] = (m.group(2), vals)
            continue
        m = re.match(r"^   (bw \(\s*(\w+)/s\)|iops\s*): min=\s*(\d+), max=\s*(\d+), "
                     r"(?:per=([\d.]+)%, )?avg=\s*(\S+), stdev=\s*(\S+), samples=(\d+)$", line)
        if m and cur is not None:
            cur["bw_line" if m.group(1).startswith("bw") else "iops_line"] = m.groups()[1:]
            continue
        if line.startswith("  fsync/fdatasync/sync_file_range:"):
            cur = {"lat": {}, "pct": {}}
            job["dirs"]["sync"] = cur
            continue
        m = re.match(r"^  (lat \((\w+)\)|cpu|IO depths|\s+submit|\s+complete|\s+issued rwts|"
                     r"\s+errors)\s*: (.*)$", line)
        if m and job is not None:
            key = m.group(1).strip()
            job["kv"].setdefault(key, []).append(m.group(3))
            continue
        m = re.match(r"^\s+(\S+): ios=(\d+)/(\d+), merge=(\d+)/(\d+), ticks=(\d+)/(\d+), "
                     r"in_queue=(\d+), util=(\S+?)%?(,|$)", line)
        if m:
            disks[m.group(1)] = m.groups()[1:9]
    return jobs, disks


def pct_text_value(ns, unit):
    """fio's percentile rounding: up, one thousand at a time."""
    for _ in range(int(round(math.log10(DIV[unit]) / 3))):
        ns = (ns + 999) // 1000
    return ns


def check_lat_line(c, where, line, lat):
    unit, mn, mx, avg, dev = line
    div = DIV[unit]
    near(c, where + " min", mn, lat["min"] / div)
    near(c, where + " max", mx, lat["max"] / div)
    c.check(float(avg) == float("%5.02f" % (lat["mean"] / div)),
            "%s avg: text %s, JSON %s" % (where, avg, lat["mean"]))
    c.check(float(dev) == float("%5.02f" % (lat["stddev"] / div)),
            "%s stdev: text %s, JSON %s" % (where, dev, lat["stddev"]))


def check_pct(c, where, t, name, lat):
    """The text's percentile block against the JSON percentiles, as the text rounds them."""
    unit, vals = t["pct"][name]
    pct = {float(k): v for k, v in lat["percentile"].items()}
    c.check(sorted(vals) == sorted(pct), "%s: percentile list" % where)
    for p, v in vals.items():
        c.check(v == pct_text_value(pct.get(p, -1), unit),
                "%s %s p%s: text %d %s, JSON %d ns" % (where, name, p, v, unit, pct.get(p, -1)))


def check_dir(c, where, t, dd):
    near(c, where + " IOPS", t["iops"], int(dd["iops"]))
    near(c, where + " BW", t["bw"], dd["bw_bytes"])
    near(c, where + " BW (SI)", t["bw_alt"], dd["bw_bytes"])
    near(c, where + " io", t["io"], dd["io_bytes"])
    c.check(t["runtime"] == dd["runtime"], "%s runtime %s vs %s" % (where, t["runtime"],
                                                                     dd["runtime"]))
    for name, key in (("slat", "slat_ns"), ("clat", "clat_ns"), ("lat", "lat_ns")):
        if name in t["lat"]:
            check_lat_line(c, "%s %s" % (where, name), t["lat"][name], dd[key])
    c.check("clat" in t["lat"] and "lat" in t["lat"], "%s: clat and lat lines" % where)
    c.check("clat" in t["pct"], "%s: clat percentiles" % where)
    if "clat" in t["pct"]:
        check_pct(c, where, t, "clat", dd["clat_ns"])
    if "bw_line" in t:
        unit, mn, mx, per, avg, dev, n = t["bw_line"]
        c.check(unit == "KiB" and (int(mn), int(mx), int(n)) ==
                (dd["bw_min"], dd["bw_max"], dd["bw_samples"]), "%s bw line %s" % (where,
                                                                                  t["bw_line"]))
        c.check(float(per) == float("%3.2f" % dd["bw_agg"]) and
                float(avg) == float("%5.02f" % dd["bw_mean"]) and
                float(dev) == float("%5.02f" % dd["bw_dev"]), "%s bw per/avg/stdev" % where)
    else:
        c.check(dd["bw_samples"] == 0, "%s: bw samples but no bw line" % where)
    if "iops_line" in t:
        _, mn, mx, _, avg, dev, n = t["iops_line"]
        c.check((int(mn), int(mx), int(n)) == (dd["iops_min"], dd["iops_max"],
                                                dd["iops_samples"]) and
                float(avg) == float("%5.02f" % dd["iops_mean"]) and
                float(dev) == float("%5.02f" % dd["iops_stddev"]), "%s iops line" % where)


def check_dist(c, where, rows, obj, fmt, floor_all):
    """'1=0.1%, 2=...' rows against a JSON distribution, formatted as the text is."""
    shown = {}
    for row in rows:
        for k, v in re.findall(r"(>?=?\d+)=([\d.]+)%", row):
            shown[k] = v
    for k, v in obj.items():
        if floor_all or v > 0:
            c.check(shown.get(k) == fmt % v, "%s %s: text %s, JSON %s" % (where, k,
                                                                          shown.get(k), v))
    c.check(set(shown) <= set(obj), "%s: text buckets %s" % (where, sorted(shown)))


def check_job(c, where, t, j):
    for ddir in ("read", "write", "trim"):
        if j[ddir]["io_bytes"]:
            c.check(ddir in t["dirs"], "%s: no %s block in the text" % (where, ddir))
            if ddir in t["dirs"]:
                check_dir(c, where + " " + ddir, t["dirs"][ddir], j[ddir])
    if j["sync"]["total_ios"]:
        s = t["dirs"].get("sync", {"lat": {}, "pct": {}})
        c.check("sync" in s["lat"] and "sync" in s["pct"], "%s: no sync lines" % where)
        if "sync" in s["lat"]:
            check_lat_line(c, where + " sync", s["lat"]["sync"], j["sync"]["lat_ns"])
        if "sync" in s["pct"]:
            check_pct(c, where, s, "sync", j["sync"]["lat_ns"])
    if "total_err" in j:
        m = re.match(r"total=(\d+), first_error=(-?\d+)/", t["kv"].get("errors", [""])[0])
        c.check(m is not None and (int(m.group(1)), int(m.group(2))) ==
                (j["total_err"], j["first_error"]), "%s errors line" % where)
    total = [int(x) for x in re.match(r"total=([\d,]+)", t["kv"]["issued rwts"][0])
             .group(1).split(",")]
    c.check(total == [j["read"]["total_ios"], j["write"]["total_ios"],
                      j["trim"]["total_ios"], j["sync"]["total_ios"]],
            "%s issued %s" % (where, total))
    m = re.match(r"usr=([\d.]+)%, sys=([\d.]+)%, ctx=(\d+), majf=(\d+), minf=(\d+)",
                 t["kv"]["cpu"][0])
    c.check(m is not None and m.groups() == ("%3.2f" % j["usr_cpu"], "%3.2f" % j["sys_cpu"],
                                             str(j["ctx"]), str(j["majf"]), str(j["minf"])),
            "%s cpu: %s" % (where, t["kv"]["cpu"][0]))
    check_dist(c, where + " IO depths", t["kv"]["IO depths"], j["iodepth_level"], "%3.1f", True)
    check_dist(c, where + " submit", t["kv"]["submit"], j["iodepth_submit"], "%3.1f", True)
    check_dist(c, where + " complete", t["kv"]["complete"], j["iodepth_complete"], "%3.1f",
               True)
    for unit in ("nsec", "usec", "msec"):
        key = {"nsec": "latency_ns", "usec": "latency_us", "msec": "latency_ms"}[unit]
        check_dist(c, "%s lat (%s)" % (where, unit), t["kv"].get("lat (%s)" % unit, []), j[key],
                   "%3.2f", False)


def check_against_normal(c, name, d, doc_keys):
    code, out, err = run(["--output-format=json,normal", name + ".fio"], cwd=d)
    c.check(code == 0, "%s: normal,json exit %d: %s" % (name, code, err.strip()))
    if code:
        return
    text, doc = split_normal_json(out)
    jobs, disks = parse_normal(text)
    busy = [j for j in doc["jobs"] if any(j[k]["total_ios"] for k in ("read", "write",
                                                                       "trim"))]
    c.check(len(jobs) == len(busy), "%s: %d job blocks, %d busy JSON jobs" % (name, len(jobs),
                                                                           len(busy)))
    for k, (t, j) in enumerate(zip(jobs, busy)):
        check_job(c, "%s job %d" % (name, k), t, j)
    for dsk in doc.get("disk_util", []):
        t = disks.get(dsk["name"])
        c.check(t is not None, "%s: disk %s not in the text" % (name, dsk["name"]))
        if t:
            want = (dsk["read_ios"], dsk["write_ios"], dsk["read_merges"], dsk["write_merges"],
                    dsk["read_ticks"], dsk["write_ticks"], dsk["in_queue"])
            c.check(tuple(int(x) for x in t[:7]) == want, "%s disk %s: %s vs %s" %
                    (name, dsk["name"], t[:7], want))
            c.check(t[7] == "%3.2f" % dsk["util"] or (t[7] == "n/a" and dsk["util"] == 0),
                    "%s disk %s util %s vs %s" % (name, dsk["name"], t[7], dsk["util"]))
    c.check(set(disks) == {dsk["name"] for dsk in doc.get("disk_util", [])},
            "%s: disks in text %s" % (name, sorted(disks)))


def check_job_file(c, name, d):
    text, fmt = JOBS[name]
    with open(os.path.join(d, name + ".fio"), "w") as f:
        f.write(text)
    doc = iojob_json(c, name, d, fmt)
    if doc is None:
        return
    check_issue_keys(c, name, doc, fmt == "json+")
    j = doc["jobs"][0]
    if name == "psync":
        c.check(j.get("desc") == "psync with fsync", "%s: desc %r" % (name, j.get("desc")))
        c.check("total_err" in j and "first_error" in j, "%s: continue_on_error keys" % name)
        c.check(j["sync"]["total_ios"] == j["write"]["total_ios"] // 4,
                "%s: one fsync per 4 writes" % name)
    if name == "null":
        c.check(len(doc["jobs"]) == 1 and j["job options"]["numjobs"] == "2",
                "%s: group_reporting makes one unit" % name)
        c.check("disk_util" not in doc, "%s: no disk_util for the null engine" % name)
    compare_with_fio(c, name, d, fmt, doc)
    check_against_normal(c, name, d, doc)


def main():
    c = Checks("json_keys")
    d = scratch_dir()
    try:
        for name in JOBS:
            if name == "libaio" and not engine_available("libaio"):
                c.skip("libaio not built: no libaio job")
                continue
            check_job_file(c, name, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
