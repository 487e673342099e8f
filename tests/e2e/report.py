#!/usr/bin/env python3
"""iojob report and iojob compare on result sets made here by real sweeps (the null engine
and small psync files in a scratch directory): every table format against the numbers in
the JSON lines, missing cells empty, columns as wide as their values, the sysbench,
tiobench and xdd shapes of the seeds, compare ratios read the way each metric improves,
errors, SVG charts parsed as XML (a series per label, a point per swept value), the HTML
page, latency curves from json+ bins, rates over time from bandwidth logs, and, where
chromium is installed, the chart and the page rendered and seen not to be blank."""
import csv
import io
import json
import os
import re
import shutil
import struct
import subprocess
import xml.etree.ElementTree as ET
import zlib

from common import Checks, fio_percentile, remove, run, run_bounded, scratch_dir

SVG = "{http://www.w3.org/2000/svg}"
BS = 16384
JOB = ("[global]\nsize=4m\nbs=16k\nruntime=0.15\ntime_based\n"
       "[t]\nioengine=%s\nfilename=%s\n")
SWEEP = ["--sweep", "numjobs=1,2", "--sweep", "rw=rndrd,rndwr"]
SYSBENCH_HEAD = ["size", "type", "thr", "bytes/sec", "req/sec", "95% resp. time, ms",
                 "max resp time, ms"]
TIOBENCH_HEAD = ["Identifier", "File Size MiB", "Blk Size", "Num Thr", "Rate MiB/s", "CPU%",
                 "Avg Lat ms", "Max Lat ms", "Lat% >2s", "Lat% >10s", "CPU Eff"]
XDD_HEAD = ["", "T", "Q", "Bytes", "Ops", "Time", "Rate", "IOPS", "Latency", "%CPU",
            "OP_Type", "ReqSize"]


# ---- the numbers, recomputed from the JSON lines as the report must ----

def cells(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def dir_objs(job, d):
    return [job[k] for k in (["read", "write", "trim"] if d is None else [d]) if k in job]


def iops(cell, d):
    """The clones' rates added, each over iojob's runtime in ns."""
    total = 0.0
    for job in cell["report"]["jobs"]:
        for o in dir_objs(job, d):
            total += o["total_ios"] * 1e9 / job["iojob"]["runtime_ns"]
    return total


def ios(cell):
    return sum(o["total_ios"] for j in cell["report"]["jobs"] for o in dir_objs(j, None))


def wall_s(cell):
    return max(j["iojob"]["proc_cpu"]["wall_ns"] for j in cell["report"]["jobs"]) / 1e9


def merged_bins(cells_, d=None):
    """json+ bins of every job and direction added: lat_ns when all kept them, else clat."""
    out = {}
    for cell in cells_:
        for job in cell["report"]["jobs"]:
            objs = [o for o in dir_objs(job, d) if o["total_ios"] > 0]
            kind = "lat_ns" if all("bins" in o["lat_ns"] for o in objs) else "clat_ns"
            for o in objs:
                for k, n in o[kind].get("bins", {}).items():
                    out[int(k)] = out.get(int(k), 0) + n
    return out


CURVE_PCT = [1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
             99.995, 99.999]


def beyond(bins):
    """The latency curve's percentiles that at least one sample lies beyond."""
    samples = sum(bins.values())
    return [p for p in CURVE_PCT if (1 - p / 100) * samples >= 1]


def close(printed, want, rel=1e-9):
    """Whether a printed number is want rounded to the decimals it shows."""
    dec = len(printed.split(".")[1]) if "." in printed else 0
    return abs(float(printed) - want) <= 0.5 * 10 ** -dec + rel * abs(want)


def find(cells_, label, **keys):
    for cell in cells_:
        if cell["label"] == label and all(cell["cell"].get(k) == v for k, v in keys.items()):
            return cell
    return None


# ---- parsing what iojob prints ----

def text_tables(out):
    """Aligned text tables: [(title, head, rows)], columns cut at the dash line's gaps."""
    tables, lines, i = [], out.split("\n"), 0
    while i < len(lines):
        if i + 1 < len(lines) and re.fullmatch(r"-+(  -+)*", lines[i + 1]):
            spans = [m.span() for m in re.finditer(r"-+", lines[i + 1])]
            title = lines[i - 1] if i and lines[i - 1] else None
            cut = lambda l: [l[a:(b if k + 1 < len(spans) else None)].strip()
                             for k, (a, b) in enumerate(spans)]
            head, rows, j = cut(lines[i]), [], i + 2
            while j < len(lines) and lines[j]:
                rows.append((lines[j], cut(lines[j])))
                j += 1
            tables.append({"title": title, "head": head, "rows": [r[1] for r in rows],
                           "lines": [lines[i], lines[i + 1]] + [r[0] for r in rows],
                           "spans": spans})
            i = j
        i += 1
    return tables


def check_widths(c, t, what):
    """Each column exactly as wide as its widest head or value; no value overflows."""
    for k, (a, b) in enumerate(t["spans"]):
        widest = max([len(t["head"][k])] + [len(r[k]) for r in t["rows"]])
        c.check(b - a == widest, "%s: column '%s' is %d wide, its widest text %d" %
                (what, t["head"][k], b - a, widest))
    for line in t["lines"]:
        c.check(len(line) <= t["spans"][-1][1] and "#" not in line,
                "%s: a line runs past the last column: %r" % (what, line))


def md_rows(out):
    rows = []
    for line in out.splitlines():
        if line.startswith("|") and not re.fullmatch(r"\|( -+:? \|)+", line):
            rows.append([x.strip() for x in line.strip("|").split(" | ")])
    return rows


def wiki_rows(out):
    rows = []
    for line in out.splitlines():
        if line[:1] in "|^" and line:
            rows.append([x.strip() for x in re.split(r"[|^]", line)[1:-1]])
    return rows


# ---- the result sets ----

def make_sets(c, d):
    """Labels 'null' and 'file' over numjobs x rw, 'one' with numjobs=1 alone."""
    with open(os.path.join(d, "null.fio"), "w") as f:
        f.write(JOB % ("null", "nothing"))
    with open(os.path.join(d, "file.fio"), "w") as f:
        f.write(JOB % ("psync", "data.bin"))
    for label, job, sweep in [("null", "null.fio", SWEEP), ("file", "file.fio", SWEEP),
                              ("one", "null.fio", ["--sweep", "numjobs=1",
                                                   "--sweep", "rw=rndrd,rndwr"])]:
        code, _, err = run(sweep + ["--label", label, "--results", "r.jsonl",
                                    "--output-format=terse", job], cwd=d)
        c.check(code == 0, "sweep %s: exit %d %s" % (label, code, err))
    return cells(os.path.join(d, "r.jsonl"))


def check_plain(c, d, rs):
    args = ["report", "r.jsonl", "--rows", "numjobs", "--cols", "label", "--metric",
            "read_iops", "--where", "rw=rndrd"]
    code, out, err = run(args, cwd=d)
    c.check(code == 0 and err == "", "report: exit %d %s" % (code, err))
    ts = text_tables(out)
    # the corner names both keys: rows down, columns across
    c.check(len(ts) == 1 and ts[0]["head"] == ["numjobs \\ label", "null", "file", "one"],
            "one table numjobs \\ label | null | file | one: %r" % [t["head"] for t in ts])
    if len(ts) != 1:
        return
    t = ts[0]
    c.check(t["title"] == "read IOPS", "title: %r" % t["title"])
    c.check([r[0] for r in t["rows"]] == ["1", "2"], "rows by numjobs: %r" % t["rows"])
    check_widths(c, t, "text table")
    want = {}
    for row in t["rows"]:
        for label, v in zip(t["head"][1:], row[1:]):
            cell = find(rs, label, numjobs=row[0], rw="rndrd")
            want[(row[0], label)] = v
            if cell is None:
                c.check(v == "", "no run of %s at numjobs=%s prints empty: %r" %
                        (label, row[0], v))
            else:
                c.check(v != "" and close(v, iops(cell, "read")),
                        "%s numjobs=%s: printed %s, the JSON says %.3f" %
                        (label, row[0], v, iops(cell, "read")))
    c.check(want.get(("2", "one")) == "", "the missing cell is empty, not 0")
    for fmt, parse in [("markdown", md_rows), ("dokuwiki", wiki_rows),
                       ("csv", lambda o: list(csv.reader(io.StringIO(o))))]:
        code, out, _ = run(args + ["--format", fmt], cwd=d)
        rows = [r for r in parse(out) if len(r) == 4]
        got = {(r[0], h): v for r in rows[1:] for h, v in zip(rows[0][1:], r[1:])}
        c.check(code == 0 and rows and rows[0] == t["head"] and got == want,
                "--format %s holds the text table's values: %r" % (fmt, rows))
    code, out, _ = run(args[:-2] + ["--format", "csv"], cwd=d)
    c.check(out.count("\n\n") == 1 and '"read IOPS, rw=rndrd"' in out,
            "without --where, a table per rw, titled in CSV: %r" % out[:200])


def check_sysbench(c, d, rs):
    code, out, err = run(["report", "r.jsonl", "--format", "sysbench"], cwd=d)
    ts = text_tables(out)
    c.check(code == 0 and [t["title"] for t in ts] == ["null", "file", "one"],
            "--format sysbench: a table per label: %r %s" % ([t["title"] for t in ts], err))
    for t in ts:
        check_widths(c, t, "sysbench " + t["title"])
        c.check(t["head"] == SYSBENCH_HEAD, "sysbench head: %r" % t["head"])
        keys = [(r[1], r[2]) for r in t["rows"]]
        want = [("rndrd", "1"), ("rndrd", "2"), ("rndwr", "1"), ("rndwr", "2")]
        c.check(keys == (want if t["title"] != "one" else want[::2]),
                "%s: rows by type, then threads: %r" % (t["title"], keys))
        for r in t["rows"]:
            check_sysbench_row(c, t["title"], r, find(rs, t["title"], numjobs=r[2], rw=r[1]))


def check_sysbench_row(c, label, r, cell):
    what = "sysbench %s %s x%s" % (label, r[1], r[2])
    m = re.fullmatch(r"([\d.]+)(b|Kb|Mb|Gb|Tb)", r[3])
    req = ios(cell) / wall_s(cell)
    c.check(r[0] == "4m" and close(r[4], req, 1e-6), "%s: size %s, req/sec %s, want %.2f" %
            (what, r[0], r[4], req))
    c.check(m is not None and abs(float(m.group(1)) * 1024 ** ["b", "Kb", "Mb", "Gb", "Tb"]
                                  .index(m.group(2)) / (req * BS) - 1) < 1e-4,
            "%s: bytes/sec %s is req/sec x 16 KiB in sysbench's units" % (what, r[3]))
    p95 = fio_percentile(merged_bins([cell]), 95) / 1e6
    lat_max = max(o["lat_ns"]["max"] for j in cell["report"]["jobs"]
                  for o in dir_objs(j, None) if o["total_ios"]) / 1e6
    c.check(close(r[5], p95) and close(r[6], lat_max),
            "%s: 95%% %s max %s, want %.4f %.4f" % (what, r[5], r[6], p95, lat_max))


TIO_JOB = """[global]
filename_format=_tiotest.$jobnum
ioengine=sync
bs=4096
size=1m
thread
lat_over=2s,10s
[write]
rw=write
end_fsync=1
[rwrite]
stonewall
rw=randwrite
number_ios=50
[read]
stonewall
rw=read
[rread]
stonewall
rw=randread
number_ios=50
"""
# run writes first, printed as tiobench.pl prints them (the seed's table J): reads first
TIO_PHASES = [("read", "Sequential Reads"), ("rread", "Random Reads"),
              ("write", "Sequential Writes"), ("rwrite", "Random Writes")]


def unit_rate(cell, jobname):
    """MiB/s of a phase: all its clones' bytes over the phase's wall time."""
    jobs = [j for j in cell["report"]["jobs"] if j["jobname"] == jobname]
    moved = sum(o["io_bytes"] for j in jobs for o in dir_objs(j, None))
    return moved / (1 << 20) / (max(j["iojob"]["proc_cpu"]["wall_ns"] for j in jobs) / 1e9)


def check_tiobench(c, d):
    with open(os.path.join(d, "tio.fio"), "w") as f:
        f.write(TIO_JOB)
    code, _, err = run(["--sweep", "numjobs=1,2", "--label", "tio", "--results", "t.jsonl",
                        "--output-format=terse", "tio.fio"], cwd=d)
    code, out, err = run(["report", "t.jsonl", "--format", "tiobench"], cwd=d)
    ts, rs = text_tables(out), cells(os.path.join(d, "t.jsonl"))
    c.check(code == 0 and [t["title"] for t in ts] == [p[1] for p in TIO_PHASES],
            "--format tiobench: a table per phase: %r %s" % ([t["title"] for t in ts], err))
    for t, (job, _) in zip(ts, TIO_PHASES):
        check_widths(c, t, "tiobench " + job)
        c.check(t["head"] == TIOBENCH_HEAD and [r[3] for r in t["rows"]] == ["1", "2"],
                "tiobench %s: head and a row per thread count: %r" % (job, t["rows"]))
        for r in t["rows"]:
            rate = unit_rate(find(rs, "tio", numjobs=r[3]), job)
            eff = float(r[4]) / (float(r[5]) / 100) if float(r[5]) else 0
            c.check(r[:4] == ["tio", r[3], "4096", r[3]] and close(r[4], rate, 1e-6) and
                    r[8:10] == ["0.00000", "0.00000"] and abs(float(r[10]) - eff) <= 1 +
                    0.01 * eff, "tiobench %s x%s: %r, rate %.3f" % (job, r[3], r, rate))


XDD_JOB = "[global]\nfilename=test.file\nrw=read\nbs=128k\nsize=4m\nioengine=psync\n" \
          "passes=2\n[pass]\n"


def check_xdd(c, d):
    with open(os.path.join(d, "xdd.fio"), "w") as f:
        f.write(XDD_JOB)
    run(["--label", "ssd", "--results", "x.jsonl", "--output-format=terse", "xdd.fio"], cwd=d)
    code, out, err = run(["report", "x.jsonl", "--format", "xdd"], cwd=d)
    ts = text_tables(out)
    c.check(code == 0 and len(ts) == 1 and ts[0]["head"] == XDD_HEAD and ts[0]["title"] == "ssd",
            "--format xdd: one table: %r %s" % (ts and ts[0]["head"], err))
    if len(ts) != 1:
        return
    rows = ts[0]["rows"]
    c.check([r[0] for r in rows] == ["TARGET PASS0001", "TARGET PASS0002", "TARGET Average",
                                     "Combined"], "xdd rows: %r" % [r[0] for r in rows])
    jobs = cells(os.path.join(d, "x.jsonl"))[0]["report"]["jobs"]
    times = [j["iojob"]["proc_cpu"]["wall_ns"] / 1e9 for j in jobs]
    for r, t, mult in zip(rows, times + [sum(times)] * 2, [1, 1, 2, 2]):
        c.check(r[1:5] == [("1" if r[0] == "Combined" else "0"), "1", str(4194304 * mult),
                           str(32 * mult)] and r[10:] == ["read", "131072"],
                "xdd %s: T Q Bytes Ops OP_Type ReqSize: %r" % (r[0], r))
        c.check(close(r[5], t) and close(r[6], 4194304 * mult / t / 1e6, 1e-6) and
                close(r[7], 32 * mult / t, 1e-6) and close(r[8], t / (32 * mult) * 1000),
                "xdd %s: Time, decimal MB/s, IOPS and ms per op from %.6f s: %r" %
                (r[0], t, r))
    # Q in flight: each qthread's ms per op is its pass time over its ops / Q (xdd's rule)
    with open(os.path.join(d, "xdd4.fio"), "w") as f:
        f.write(XDD_JOB.replace("ioengine=psync", "ioengine=libaio\niodepth=4"))
    run(["--results", "x4.jsonl", "--output-format=terse", "xdd4.fio"], cwd=d)
    code, out, err = run(["report", "x4.jsonl", "--format", "xdd"], cwd=d)
    rows = text_tables(out)[0]["rows"] if code == 0 and text_tables(out) else []
    jobs = cells(os.path.join(d, "x4.jsonl"))[0]["report"]["jobs"] if rows else []
    times = [j["iojob"]["proc_cpu"]["wall_ns"] / 1e9 for j in jobs]
    c.check(len(rows) == 4, "xdd at Q 4: %r %s" % (rows, err))
    for r, t, mult in zip(rows, times + [sum(times)] * 2, [1, 1, 2, 2]):
        c.check(r[2] == "4" and close(r[8], 4 * t / (32 * mult) * 1000),
                "xdd %s at Q 4: Latency Q * time / ops in ms from %.6f s: %r" % (r[0], t, r))


def check_compare(c, d, rs):
    code, out, err = run(["compare", "null", "file", "r.jsonl", "--metrics",
                          "iops,runtime,lat_mean"], cwd=d)
    ts = text_tables(out)
    c.check(code == 0 and len(ts) == 4, "compare null file: 4 tables (numjobs x rw): %d %s" %
            (len(ts), err))
    for t in ts:
        c.check(t["head"] == ["metric", "null", "file", "ratio", "better"],
                "compare head: %r" % t["head"])
        m = re.fullmatch(r"job 't', numjobs=(\d+), rw=(\w+)", t["title"] or "")
        if not m:
            c.check(False, "compare title: %r" % t["title"])
            continue
        side = [find(rs, s, numjobs=m.group(1), rw=m.group(2)) for s in ("null", "file")]
        d_ = "read" if m.group(2) == "rndrd" else "write"
        rows = {r[0]: r for r in t["rows"]}
        r = rows.get("%s IOPS" % d_)
        v = [iops(s, d_) for s in side]
        c.check(r is not None and r[3] == ratio_str(max(v) / min(v)) and
                r[4] == ["null", "file"][v.index(max(v))],
                "%s: IOPS %r: higher is better, ratio %.3f" % (t["title"], r, max(v) / min(v)))
        r = rows.get("%s runtime (s)" % d_)
        v = [max(j["iojob"]["runtime_ns"] for j in s["report"]["jobs"]) / 1e9 for s in side]
        c.check(r is not None and r[3] == ratio_str(max(v) / min(v)) and
                r[4] == ["null", "file"][v.index(min(v))],
                "%s: runtime %r: lower is better %r" % (t["title"], r, v))
        r = [x for k, x in rows.items() if k.startswith("%s lat mean" % d_)]
        c.check(len(r) == 1 and r[0][4] in ("null", "file", "same") and
                (r[0][4] == "same" or float(r[0][1 + ("null", "file").index(r[0][4])]) <=
                 float(r[0][2 - ("null", "file").index(r[0][4])])),
                "%s: latency, the lower side is better: %r" % (t["title"], r))


def ratio_str(x):
    return "%.*fx" % (0 if x >= 100 else 1 if x >= 10 else 2, x)


# Seed 003's figures (fio 1.27): IOPS, bw in KiB/s, runtime in ms, of ioDrive and md0.
SEED003 = {"ioDrive": [(39403, 157614, 133056), (5851, 23406, 895978)],
           "md0": [(868, 3475, 6033707), (2518, 10075, 2081336)]}


def seed003_line(label, figures):
    jobs = []
    for name, d, (iops_, kib, ms) in zip(["random-read", "random-write"], ["read", "write"],
                                         figures):
        zero = {"io_bytes": 0, "bw_bytes": 0, "iops": 0, "runtime": 0, "total_ios": 0}
        job = {"jobname": name, "read": dict(zero), "write": dict(zero)}
        job[d] = {"io_bytes": 20 << 30, "bw_bytes": kib * 1024, "iops": iops_, "runtime": ms,
                  "total_ios": 5242880}
        jobs.append(job)
    return json.dumps({"iojob_result": 1, "label": label, "cell": {}, "report": {"jobs": jobs}})


def check_seed003(c, d):
    for label, fig in SEED003.items():
        with open(os.path.join(d, label + ".jsonl"), "w") as f:
            f.write(seed003_line(label, fig) + "\n")
    code, out, err = run(["compare", "ioDrive.jsonl", "md0.jsonl", "--metrics",
                          "iops,bw_mib,runtime"], cwd=d)
    rows = {r[0]: r[1:] for t in text_tables(out) for r in t["rows"]}
    want = {"read IOPS": ["39403", "868", "45.4x", "ioDrive"],
            "write IOPS": ["5851", "2518", "2.32x", "ioDrive"],
            "read runtime (s)": ["133", "6034", "45.3x", "ioDrive"],
            "write runtime (s)": ["896", "2081", "2.32x", "ioDrive"]}
    for k, v in want.items():
        c.check(rows.get(k) == v, "seed 003 %s: %r, want %r (%s)" % (k, rows.get(k), v, err))


def check_errors(c, d):
    with open(os.path.join(d, "other.jsonl"), "w") as f:
        f.write('{"jobs": []}\n')
    with open(os.path.join(d, "text.txt"), "w") as f:
        f.write("hello\n")
    cases = [(["report", "r.jsonl", "--metric", "iopz"], "unknown metric 'iopz'"),
             (["compare", "null", "nosuch", "r.jsonl"], "label 'nosuch' is not in"),
             (["report", "other.jsonl"], "other.jsonl:1: not a result line"),
             (["report", "text.txt"], "'text.txt': no results in it"),
             (["report", "missing.jsonl"], "'missing.jsonl': No such file"),
             (["compare", "r.jsonl"], "two sides or more"),
             (["report", "r.jsonl", "--format", "excel"], "unknown format 'excel'"),
             (["report", "r.jsonl", "--rows", "nokey"],
              "--rows 'nokey': no run has that key; the keys are label, job, numjobs, rw, "),
             (["report", "r.jsonl", "--cols", "nokey"], "the keys are label, job, numjobs, rw"),
             (["report", "r.jsonl", "--where", "rw=randrw"],
              "--where rw=randrw: no run has rw 'randrw'; rw is one of rndrd, rndwr"),
             (["report", "r.jsonl", "--where", "nokey=1"],
              "--where nokey=1: no run has the key 'nokey'; the keys are label, job, numjobs"),
             (["report", "r.jsonl", "--job", "nosuch"],
              "--job nosuch: no run has job 'nosuch'; the jobs are t"),
             (["report", "r.jsonl", "--where", "numjobs=1", "--where", "numjobs=2"],
              "no run matches every --where together, though each matches some"),
             (["compare", "null", "file", "r.jsonl", "--where", "numjobs=3"],
              "--where numjobs=3: no run has numjobs '3'; numjobs is one of 1, 2")]
    cases += edited_sets(d)
    for args, msg in cases:
        code, out, err = run_bounded(args, cwd=d)
        c.check(code == 2 and msg in err and err.count("\n") <= 8 and out == "",
                "%s: exit %d, stderr %r, want 2 and %r" % (" ".join(args), code, err, msg))


def check_rw_names(c, d):
    """An access pattern matches under fio's name and sysbench's alike: the runs swept as
    rndwr are the report's randwrite."""
    tables = {}
    for name in ("rndwr", "randwrite"):
        code, out, err = run(["report", "r.jsonl", "--where", "rw=" + name], cwd=d)
        tables[name] = out
        c.check(code == 0 and out, "--where rw=%s: exit %d %r" % (name, code, err))
    c.check(tables["randwrite"] == tables["rndwr"], "rw=randwrite is rw=rndwr")
    code, _, err = run(["report", "r.jsonl", "--where", "rw=randwrite:2"], cwd=d)
    c.check(code == 2 and "rw is one of rndrd, rndwr" in err,
            "rw=randwrite:2 is not rndwr (its :N differs): exit %d %r" % (code, err))


def edited_sets(d):
    """Result sets edited by hand or that are no file at all: each an error that says what
    is wrong where, never a report with negative IOPS or a read that takes all memory."""
    with open(os.path.join(d, "r.jsonl")) as f:
        line = f.readline()
    edits = [("-5", "bad.jsonl:1: key 'report.jobs.0.read.total_ios': -5 is negative"),
             ("1e400", "bad.jsonl:1: key 'total_ios': number out of range"),
             ("NaN", "bad.jsonl:1: key 'total_ios': number out of range"),
             ('"many"', "bad.jsonl:1: key 'report.jobs.0.read.total_ios': not a number"),
             ("1e30", "bad.jsonl:1: key 'report.jobs.0.read.total_ios': 1e+30 is out of "
              "range (at most 9223372036854775808)")]
    cases = []
    for i, (value, msg) in enumerate(edits):
        name = "bad%d.jsonl" % i
        with open(os.path.join(d, name), "w") as f:
            f.write(re.sub(r'"total_ios" : \d+', '"total_ios" : ' + value, line, count=1))
        cases.append((["report", name], msg.replace("bad.jsonl", name)))
    os.mkdir(os.path.join(d, "adir"))
    cases += [(["report", "adir"], "'adir': is a directory, not a JSON Lines file"),
              (["report", "/dev/zero"], "/dev/zero:1: line longer than 64 MiB (the limit "
               "for one result line)")]
    return cases


def svg_series(path):
    root = ET.parse(path).getroot()
    series = [p.get("data-series") for p in root.iter(SVG + "polyline")
              if p.get("class") == "series"]
    points = {}
    for p in root.iter(SVG + "circle"):
        if p.get("class") == "point":
            points.setdefault(p.get("data-series"), []).append(
                (float(p.get("data-x")), float(p.get("data-y"))))
    return root, series, points


def check_svg(c, d, rs):
    code, out, err = run(["report", "r.jsonl", "--rows", "numjobs", "--metric", "iops",
                          "--svg", "c.svg"], cwd=d)
    c.check(code == 0 and os.path.exists(os.path.join(d, "c.svg")) and
            os.path.exists(os.path.join(d, "c-2.svg")),
            "--svg: a chart per table (rw=rndrd, rw=rndwr): %s" % err)
    try:
        root, series, points = svg_series(os.path.join(d, "c.svg"))
    except (ET.ParseError, OSError) as e:
        c.check(False, "c.svg is not XML: %s" % e)
        return
    c.check(root.tag == SVG + "svg", "the root is an svg element")
    c.check(series == ["label 'null'", "label 'file'", "label 'one'"],
            "a series per label, named key and value: %r" % series)
    for name in series:
        label = name.split("'")[1]
        want = [(float(n), iops(find(rs, label, numjobs=n, rw="rndrd"), None))
                for n in ("1", "2") if find(rs, label, numjobs=n, rw="rndrd")]
        got = points.get(name, [])
        c.check(len(got) == len(want) and
                all(a[0] == b[0] and abs(a[1] / b[1] - 1) < 1e-6 for a, b in zip(got, want)),
                "%s: a point per numjobs with its IOPS: %r, want %r" % (label, got, want))
    texts = [t.text for t in root.iter(SVG + "text")]
    c.check("IOPS, rw=rndrd" in texts and "numjobs" in texts, "title and axis: %r" % texts)


def check_latency_chart(c, d, rs):
    """A curve per run and direction, never merged: each is its own json+ bins' percentiles."""
    code, _, err = run(["report", "r.jsonl", "--cols", "label", "--chart", "latency",
                        "--svg", "lat.svg"], cwd=d)
    for path, rw, ddir in [("lat.svg", "rndrd", "read"), ("lat-2.svg", "rndwr", "write")]:
        try:
            root, series, points = svg_series(os.path.join(d, path))
        except (ET.ParseError, OSError) as e:
            c.check(False, "%s: %s %s" % (path, e, err))
            continue
        want = ["numjobs=%s, label '%s', %s" % (n, label, ddir)
                for n in ("1", "2") for label in ("null", "file", "one")
                if find(rs, label, numjobs=n, rw=rw)]
        c.check(code == 0 and series == want, "%s: a curve per run and direction: %r" %
                (path, series))
        title = [t.text for t in root.iter(SVG + "text") if t.get("class") == "title"]
        c.check(title == ["Latency percentiles, %ss, rw=%s" % (ddir, rw)],
                "%s: the title names the direction: %r" % (path, title))
        for name in series:
            n, label = name.split(",")[0].split("=")[1], name.split("'")[1]
            bins = merged_bins([find(rs, label, numjobs=n, rw=rw)], ddir)
            got = dict(points.get(name, []))
            ys = [got[k] for k in sorted(got)]
            c.check(sorted(got) == beyond(bins) and ys == sorted(ys),
                    "%s: the percentiles that a sample lies beyond (%d samples), rising: %r" %
                    (name, sum(bins.values()), got))
            if not got:
                continue	# a run of one I/O (a loaded machine): no percentile to draw
            first = min(got)
            ratio = fio_percentile(bins, first) / got[first] if got[first] and bins else 0
            unit = min((1, 1e3, 1e6, 1e9), key=lambda u: abs(u - ratio))
            c.check(abs(ratio / unit - 1) < 1e-6 and all(
                abs(got[p] * unit - fio_percentile(bins, p)) < 1e-6 * unit for p in got),
                "%s: the curve is its own json+ bins' percentiles: %r" % (name, got))


def check_html(c, d):
    code, out, err = run(["report", "r.jsonl", "--rows", "numjobs", "--html", "p.html"], cwd=d)
    page = open(os.path.join(d, "p.html")).read() if code == 0 else ""
    c.check(code == 0 and page.startswith("<!DOCTYPE html>"), "--html: %s" % err)
    c.check(page.count("<caption>IOPS, rw=") == 2 and page.count("<caption>CPU") == 2,
            "the page holds both tables and a CPU table each: %d" % page.count("<table>"))
    # per rw: the metric, the hockey stick, paired bars, latency curves, buckets
    c.check(page.count("<svg ") == 10 and page.count("Latency percentiles, reads, rw=rndrd")
            and page.count("Latency percentiles, writes, rw=rndwr"),
            "five charts per pivot, latency by direction: %d" % page.count("<svg "))
    for part in re.findall(r"<svg .*?</svg>", page, re.S):
        try:
            ET.fromstring(part)
        except ET.ParseError as e:
            c.check(False, "an inline chart is not XML: %s" % e)


def check_logs(c, d):
    job = ("[w]\nioengine=psync\nfilename=log.bin\nsize=2m\nbs=4k\nrw=randwrite\n"
           "runtime=0.6\ntime_based\nwrite_bw_log=%s\nwrite_iops_log=%s\n%s")
    for name, extra in [("avg", "log_avg_msec=100\n"), ("raw", "")]:
        with open(os.path.join(d, name + ".fio"), "w") as f:
            f.write(job % (name, name, extra))
        code, _, err = run(["--output-format=terse", name + ".fio"], cwd=d)
        c.check(code == 0, "log job %s: %s" % (name, err))
    code, _, err = run(["report", "avg_bw.1.log", "raw_bw.1.log", "--svg", "bw.svg"], cwd=d)
    try:
        root, series, points = svg_series(os.path.join(d, "bw.svg"))
    except (ET.ParseError, OSError) as e:
        c.check(False, "bw.svg: %s %s" % (e, err))
        return
    c.check(code == 0 and series == ["avg_bw.1.log write", "raw_bw.1.log write"],
            "a series per log and direction: %r %s" % (series, err))
    with open(os.path.join(d, "avg_bw.1.log")) as f:
        log = [[int(x) for x in line.split(",")[:2]] for line in f]
    got = points.get("avg_bw.1.log write", [])
    c.check([(round(t * 1000), round(v * 1024)) for t, v in got] == [tuple(x) for x in log],
            "averaged log: a point per line, KiB/s as MiB/s: %r" % got[:3])
    raw = points.get("raw_bw.1.log write", [])
    with open(os.path.join(d, "raw_bw.1.log")) as f:
        moved = sum(int(line.split(",")[3]) for line in f) / (1 << 20)
    span = raw[-1][0] if raw else 0
    area = sum(v * (raw[0][0] if raw else 0) for _, v in raw)
    c.check(10 <= len(raw) <= 110 and abs(area / moved - 1) < 0.02,
            "per-I/O log: windows whose rates add up to the bytes moved: %d windows, "
            "%.3f MiB of %.3f over %.2f s" % (len(raw), area, moved, span))
    code, _, err = run(["report", "r.jsonl", "raw_iops.1.log", "--rows", "numjobs",
                        "--html", "logs.html"], cwd=d)
    page = open(os.path.join(d, "logs.html")).read() if code == 0 else ""
    c.check("IOPS over time" in page and "Over time" in page,
            "--html with a log draws it over time: %s" % err)


def png_pixels(path):
    """(width, height, bytes per pixel, rows) of an 8-bit RGB or RGBA PNG, unfiltered."""
    data, pos, idat = open(path, "rb").read(), 8, b""
    w = h = bpp = 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                raise ValueError("PNG type %d/%d" % (depth, ctype))
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, rows = zlib.decompress(idat), w * bpp, []
    prev = bytearray(stride)
    for y in range(h):
        at = y * (stride + 1)
        ftype, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        for i in range(stride):
            a, b = line[i - bpp] if i >= bpp else 0, prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def png_nonwhite(path):
    """Share of the pixels that are not white (no PIL needed)."""
    w, h, bpp, rows = png_pixels(path)
    nonwhite = sum(1 for line in rows for x in range(0, w * bpp, bpp)
                   if line[x:x + 3] != b"\xff\xff\xff")
    return nonwhite / float(w * h), w, h


def check_chromium(c, d):
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        c.skip("chromium is not installed: the charts are not rendered")
        return
    for name in ["c.svg", "p.html"]:
        png = os.path.join(d, name + ".png")
        p = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                            "--hide-scrollbars", "--user-data-dir=" + os.path.join(d, "chr"),
                            "--screenshot=" + png, "--window-size=900,700",
                            "file://" + os.path.join(d, name)],
                           capture_output=True, text=True, timeout=120)
        try:
            share, w, h = png_nonwhite(png)
        except (OSError, ValueError, zlib.error) as e:
            c.check(False, "chromium rendered no %s.png: %s %s" % (name, e, p.stderr[-500:]))
            continue
        c.check((w, h) == (900, 700) and 0.01 < share < 0.6,
                "%s in chromium: %dx%d, %.1f%% not white" % (name, w, h, 100 * share))


def main():
    c = Checks("report")
    d = scratch_dir()
    try:
        rs = make_sets(c, d)
        check_plain(c, d, rs)
        check_sysbench(c, d, rs)
        check_tiobench(c, d)
        check_xdd(c, d)
        check_compare(c, d, rs)
        check_seed003(c, d)
        check_errors(c, d)
        check_rw_names(c, d)
        check_svg(c, d, rs)
        check_latency_chart(c, d, rs)
        check_html(c, d)
        check_logs(c, d)
        check_chromium(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
