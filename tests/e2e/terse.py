#!/usr/bin/env python3
"""Terse output, versions 2 to 5 (--terse-version), field for field as fio 3.33 prints them.

The same jobs run with fio, when it is installed, and with iojob, in every version: each
line must have as many fields as fio's (without fio: as many as fio 3.33 printed for the
null jobs, recorded below), and every field the same form (integer, "%f", "%3.1f%%",
"%f%%=N" percentile, name) at the same index. Then iojob runs with --output-format=terse,json
and every terse field is checked against the JSON of the same run: I/O in KiB, bandwidth,
IOPS, runtime, slat/clat/lat in usec, the percentiles, bw samples (v5: their count and the
iops samples), cpu, depths, latency buckets, disks (not in v2), errors and the description
(v2: on a line of its own). The read, write and trim blocks (v3: no trim), or the mixed one
under unified_rw_reporting, come in fio's order. Last, the switch: fio's default 3, values
outside 2..5 refused, and blktests' probe `--parse-only --terse-version=4` silent.
"""
import json
import os
import re
import shutil
import subprocess

from common import Checks, remove, run, scratch_dir

JOBS = {
    "null": "[global]\nioengine=null\nbs=4k\nsize=8m\n"
            "[nullrw]\nrw=randrw\nnumjobs=2\ngroup_reporting\n"
            "[trim]\nnew_group\nrw=randtrim\ndescription=trims only\n"
            "[both]\nnew_group\nrw=randrw\nunified_rw_reporting=both\n"
            "[mixed]\nrw=randrw\nunified_rw_reporting=mixed\npercentile_list=50:99.5\n"
            "lat_percentiles=1\n",
    "psync": "[global]\nioengine=psync\nbs=4k\nsize=1m\n"
             "[fsync]\nfilename=fsync.dat\nrw=randrw\nfsync=4\ncontinue_on_error=all\n"
             "description=psync with fsync\n"
             "[reader]\nfilename=reader.dat\nrw=read\n",
}
VERSIONS = (2, 3, 4, 5)
# fields per line of fio 3.33 --minimal --terse-version=N on the null jobs (no disks):
# v2 puts the trim job's description on a line of its own
FIO_NULL_FIELDS = {
    2: [161, 161, 2, 202, 79],
    3: [121, 122, 162, 80],
    4: [162, 163, 203, 80],
    5: [180, 181, 227, 86],
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
V5_DIR_FIELDS = 6
DEPTHS = ["1", "2", "4", "8", "16", "32", ">=64"]
LAT_LABELS = ["2", "4", "10", "20", "50", "100", "250", "500", "750", "1000"]
MS_LABELS = LAT_LABELS + ["2000", ">=2000"]


def form(field):
    for name, pattern in FORMS:
        if pattern.match(field):
            return name
    return "text"


def terse_lines(out, version):
    """The terse lines of out, each split at ';' (v2's description lines too)."""
    lines = []
    for line in out.splitlines():
        if line == "{":
            break	# the JSON document follows
        if line.startswith("%d;" % version) or (version == 2 and line.startswith(";")):
            lines.append(line.split(";"))
    return lines


def terse_units(lines, version):
    """One list of fields per unit: v2's description line joins the line before it."""
    units = []
    for f in lines:
        if version == 2 and f[0] == "" and units:
            units[-1] = units[-1] + f[1:]
        else:
            units.append(f)
    return units


def compare_forms(c, name, fio_lines, lines):
    c.check(len(fio_lines) == len(lines), "%s: %d lines, fio %d" % (name, len(lines),
                                                                  len(fio_lines)))
    for n, (want, got) in enumerate(zip(fio_lines, lines)):
        where = "%s line %d" % (name, n)
        c.check(len(got) == len(want), "%s: %d fields, fio %d" % (where, len(got), len(want)))
        for i, (w, g) in enumerate(zip(want, got)):
            if w.startswith("fio-"):
                c.check(i == 1 and g.startswith("iojob-"), "%s: version %r" % (where, g))
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


def check_dir(c, where, f, dd, pct_list, version):
    """The 41 fields of one direction (47 in v5). Returns how many it had."""
    c.check([int(x) for x in f[0:4]] == [dd["io_kbytes"], dd["bw"], int(dd["iops"]),
                                         dd["runtime"]],
            "%s io;bw;iops;runtime: %s" % (where, f[0:4]))
    check_lat(c, where + " slat", f[4:8], dd["slat_ns"])
    check_lat(c, where + " clat", f[8:12], dd["clat_ns"])
    # lat_percentiles shows the lat ones, else the clat ones
    pct = dd["lat_ns"].get("percentile") or dd["clat_ns"].get("percentile") or {}
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
    if version != 5:
        return DIR_FIELDS
    c.check(int(f[41]) == dd["bw_samples"], "%s bw samples %s, JSON %s" %
            (where, f[41], dd["bw_samples"]))
    c.check((int(f[42]), int(f[43]), int(f[46])) ==
            (dd["iops_min"], dd["iops_max"], dd["iops_samples"]),
            "%s iops min;max;samples %s" % (where, [f[42], f[43], f[46]]))
    close(c, where + " iops mean", f[44], dd["iops_mean"])
    close(c, where + " iops dev", f[45], dd["iops_stddev"])
    return DIR_FIELDS + V5_DIR_FIELDS


def shown_dirs(j, version):
    """The blocks of a line, in fio's order: mixed alone, or read, write, trim, mixed."""
    if "read" not in j:
        return ["mixed"]
    dirs = ["read", "write"] + (["trim"] if version != 3 else [])
    return dirs + (["mixed"] if "mixed" in j else [])


def check_line(c, where, f, j, doc, version):
    if version == 2:
        want, at = ["2", j["jobname"], str(j["groupid"]), str(j["error"])], 4
    else:
        want = [str(version), doc["fio version"], j["jobname"], str(j["groupid"]),
                str(j["error"])]
        at = 5
    c.check(f[0:at] == want, "%s header %s" % (where, f[0:at]))
    pct_list = []
    for ddir in ("read", "write", "trim", "mixed"):
        dd = j.get(ddir, {})
        pct_list = pct_list or list(dd.get("lat_ns", {}).get("percentile") or
                                    dd.get("clat_ns", {}).get("percentile") or [])
    for ddir in shown_dirs(j, version):
        at += check_dir(c, "%s %s" % (where, ddir), f[at:], j[ddir], pct_list, version)
    close(c, where + " usr", f[at], j["usr_cpu"])
    close(c, where + " sys", f[at + 1], j["sys_cpu"])
    c.check([int(x) for x in f[at + 2:at + 5]] == [j["ctx"], j["majf"], j["minf"]],
            "%s ctx;majf;minf" % where)
    at += 5
    for k, label in enumerate(DEPTHS):
        c.check(f[at + k] == "%3.1f%%" % j["iodepth_level"][label],
                "%s depth %s: %s vs %s" % (where, label, f[at + k], j["iodepth_level"][label]))
    at += 7
    # terse predates the nsec buckets: they are added to the first usec one, unrounded,
    # where the JSON raises each tiny one to 0.01
    nsec = sum(j["latency_ns"].values())
    slack = 0.006 + 0.01 * sum(1 for v in j["latency_ns"].values() if v)
    for k, label in enumerate(LAT_LABELS):
        want = j["latency_us"][label] + (nsec if k == 0 else 0)
        close(c, "%s lat usec %s" % (where, label), f[at + k], want, slack)
    at += 10
    for k, label in enumerate(MS_LABELS):
        close(c, "%s lat msec %s" % (where, label), f[at + k], j["latency_ms"][label], 0.006)
    at += 12
    for dsk in doc.get("disk_util", []) if version >= 3 else []:
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


def check_fields_known(c, name, j, f, version):
    """Beyond agreeing with the JSON: the blocks carry the I/O the jobs did."""
    at = 4 if version == 2 else 5
    width = DIR_FIELDS + (V5_DIR_FIELDS if version == 5 else 0)
    dirs = shown_dirs(j, version)
    if j["jobname"] == "trim":
        c.check("trim" in dirs or version == 3, "%s v%d: a trim block" % (name, version))
        if "trim" in dirs:
            k = at + dirs.index("trim") * width
            c.check(f[k] == "8192" and f[at] == "0", "v%d trim io KiB %s (read %s)" %
                    (version, f[k], f[at]))
    if j["jobname"] in ("both", "mixed"):
        k = at + dirs.index("mixed") * width
        c.check(f[k] == "8192", "v%d %s: mixed io KiB %s" % (version, j["jobname"], f[k]))


def run_fio(c, name, d, version):
    p = subprocess.run(["fio", "--minimal", "--terse-version=%d" % version, name + ".fio"],
                       cwd=d, capture_output=True, text=True, timeout=120)
    c.check(p.returncode == 0, "%s: fio failed: %s" % (name, p.stderr.strip()))
    return terse_lines(p.stdout, version) if p.returncode == 0 else None


def check_version(c, name, d, version):
    where = "%s v%d" % (name, version)
    code, out, err = run(["--output-format=json,terse", "--terse-version=%d" % version,
                          name + ".fio"], cwd=d)
    c.check(code == 0, "%s: exit %d: %s" % (where, code, err.strip()))
    if code:
        return
    lines = terse_lines(out, version)
    units = terse_units(lines, version)
    c.check(out.startswith("%d;" % version), "%s: terse comes before the JSON, as in fio" %
            where)
    doc = json.loads(out[out.find("\n{\n") + 1:])
    c.check(len(units) == len(doc["jobs"]), "%s: %d lines, %d JSON jobs" % (where, len(units),
                                                                         len(doc["jobs"])))
    for n, (f, j) in enumerate(zip(units, doc["jobs"])):
        check_line(c, "%s line %d" % (where, n), f, j, doc, version)
        check_fields_known(c, where, j, f, version)
    code, out, err = run(["--minimal", "--terse-version=%d" % version, name + ".fio"], cwd=d)
    mine = terse_lines(out, version)
    c.check(code == 0 and mine and len(mine) == len(out.splitlines()),
            "%s: --minimal prints terse lines only: %r" % (where, out[:80]))
    if shutil.which("fio"):
        fio_lines = run_fio(c, name, d, version)
        if fio_lines is not None:
            compare_forms(c, where, fio_lines, mine)
    elif name == "null":
        got = [len(x) for x in mine]
        c.check(got == FIO_NULL_FIELDS[version], "%s: %s fields per line, fio 3.33 %s" %
                (where, got, FIO_NULL_FIELDS[version]))


def check_job_file(c, name, d):
    with open(os.path.join(d, name + ".fio"), "w") as f:
        f.write(JOBS[name])
    for version in VERSIONS:
        check_version(c, name, d, version)
    if not shutil.which("fio"):
        c.skip("%s: fio is not installed: field forms not compared%s" %
               (name, " (counts are, with fio 3.33's)" if name == "null" else ""))


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
            len(terse_lines(out, 3)) == 4, "each format once")
    c.check('"bins"' in out, "json+ with json: one document, with bins")
    code, out, _ = run(["--minimal", "--output-format=json", "null.fio"], cwd=d)
    c.check(code == 0 and out.startswith("{\n") and "\n3;" not in out,
            "a later --output-format replaces --minimal")


def check_switch(c, d):
    """--terse-version: the version only, whatever comes before or after; 2..5; the probe."""
    for args in (["--terse-version=5", "--minimal"], ["--minimal", "--terse-version", "5"],
                 ["--terse-version=5", "--output-format=json", "--output-format=terse"]):
        code, out, _ = run(args + ["null.fio"], cwd=d)
        c.check(code == 0 and out.startswith("5;") and len(terse_lines(out, 5)) == 4,
                "%s: v5 lines: %r" % (" ".join(args), out[:40]))
    code, out, _ = run(["--terse-version=4", "null.fio"], cwd=d)
    c.check(code == 0 and "Run status group 0" in out and "\n4;" not in out,
            "--terse-version alone keeps the normal report, as fio")
    for bad in ("1", "6", "0", "abc", "4x", ""):
        code, out, err = run(["--parse-only", "--terse-version=" + bad, "null.fio"], cwd=d)
        c.check(code == 2 and "--terse-version" in err and "'%s'" % bad in err and not out,
                "--terse-version=%s: exit %d, %r" % (bad, code, err.strip()))
    # blktests' _have_fio, and with a job file
    for args in (["--parse-only", "--terse-version=4"], ["--parse-only", "--terse-version", "4"],
                 ["--parse-only", "--terse-version=4", "null.fio"]):
        code, out, err = run(args, cwd=d)
        c.check(code == 0 and not out and not err, "%s: exit %d, %r %r" %
                (" ".join(args), code, out, err))
    if shutil.which("fio"):
        for bad in ("1", "6", "abc"):
            p = subprocess.run(["fio", "--parse-only", "--terse-version=" + bad], cwd=d,
                               capture_output=True, text=True, timeout=60)
            c.check(p.returncode != 0, "fio refuses --terse-version=%s too" % bad)


def main():
    c = Checks("terse")
    d = scratch_dir()
    try:
        for name in JOBS:
            check_job_file(c, name, d)
        check_formats(c, d)
        check_switch(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
