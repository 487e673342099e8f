#!/usr/bin/env python3
"""iojob report's and compare's charts (issue 18), each parsed as SVG and its marks read
back against the result set or the logs: points and bars mapped back through the axis the
chart states (<g class="axis">) to the values the JSON lines hold (means and sigma over
--repeat, sigma from fio's sample deviations), the workload subtitle, <title> and <desc>,
legends as key=value, the hockey stick, paired and 3D bars, fio's latency buckets, the
latency curves of one direction, rates summed over per-job logs, latency percentiles over
time and the heatmap from lat and histogram logs, compare's bars; then the HTML page in
headless Chromium: not blank, every chart there, nothing wider than the page, no console
message. The browser runs in the plain build only: it runs no code of iojob's, and the
sanitizer builds check iojob's side of the same page (its charts parse as XML)."""
import json
import math
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections import Counter

from common import Checks, fio_percentile, is_asan_build, is_tsan_build, remove, run, scratch_dir
from report import png_nonwhite

SVG = "{http://www.w3.org/2000/svg}"
JOB = ("[global]\nioengine=psync\nfilename=data.bin\nsize=4m\nbs=16k\nruntime=0.15\n"
       "time_based\nlat_percentiles=1\niopsavgtime=20\nbwavgtime=20\n[t]\n")
SWEEP = ["--sweep", "iodepth=1,2", "--sweep", "numjobs=1,2,4", "--sweep",
         "rw=randread,randwrite"]


# ---- the numbers, from the JSON lines ----

def cells(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def dirs(job, d=None):
    return [job[k] for k in ([d] if d else ["read", "write", "trim"]) if k in job]


def iops(cell, d=None):
    return sum(o["total_ios"] * 1e9 / j["iojob"]["runtime_ns"]
               for j in cell["report"]["jobs"] for o in dirs(j, d))


def iops_sd(cell):
    """fio's per-sample deviations of the clones and directions that did I/O, added."""
    return math.sqrt(sum(o["iops_stddev"] ** 2 for j in cell["report"]["jobs"]
                         for o in dirs(j) if o["total_ios"] > 0))


def lat_mean(cell):
    objs = [o["lat_ns"] for j in cell["report"]["jobs"] for o in dirs(j) if o["total_ios"]]
    return sum(o["mean"] * o["N"] for o in objs) / sum(o["N"] for o in objs)


def mean_sd(vals):
    m = sum(vals) / len(vals)
    return m, math.sqrt(sum((v - m) ** 2 for v in vals) / (len(vals) - 1))


def find(rs, **keys):
    return [c for c in rs if all(c["cell"].get(k) == v for k, v in keys.items())]


def buckets(cell):
    """fio's latency buckets of a run: each clone's shares weighed by its I/O count."""
    out, total = {}, 0
    for j in cell["report"]["jobs"]:
        n = sum(o["total_ios"] for o in dirs(j))
        total += n
        for unit, m in (("ns", "latency_ns"), ("us", "latency_us"), ("ms", "latency_ms")):
            for k, v in j[m].items():
                out[(unit, k)] = out.get((unit, k), 0) + n * v
    return {k: v / total for k, v in out.items()}


def bucket_label(unit, key):
    up = {"ns": "us", "us": "ms", "ms": "s"}
    if key == ">=2000":
        return ">2s"
    if key == "1000":
        return "1" + up[unit]
    if unit == "ms" and key == "2000":
        return "2s"
    return key + unit


def bucket_value(ns):
    """The value of the hist.h bucket that holds ns (its midpoint past 128 ns)."""
    if ns < 128:
        return ns
    msb = ns.bit_length() - 1
    err = msb - 6
    return (1 << msb) + (((ns >> err) & 63) << err) + (1 << (err - 1))


# ---- reading charts ----

class Chart:
    def __init__(self, path):
        self.root = ET.parse(path).getroot()
        self.axes = {a.get("data-axis"): a for a in self.root.iter(SVG + "g")
                     if a.get("class") == "axis"}
        self.texts = [t for t in self.root.iter(SVG + "text")]

    def value(self, axis, pix):
        """A pixel position mapped back through the axis to the value it stands for."""
        a = self.axes[axis]
        lo, hi = float(a.get("data-lo")), float(a.get("data-hi"))
        plo, phi = float(a.get("data-pix-lo")), float(a.get("data-pix-hi"))
        t = lo + (pix - plo) / (phi - plo) * (hi - lo)
        scale = a.get("data-scale")
        return 10 ** t if scale == "log10" else 2 ** t if scale == "log2" else t

    def pix_tol(self, axis, v):
        """How far a value may be from one read back off pixels printed to 0.1."""
        return abs(self.value(axis, 0.1) - self.value(axis, 0.0)) * (
            abs(v) if self.axes[axis].get("data-scale") != "linear" else 1) + 1e-9

    def cls(self, tag, name):
        return [e for e in self.root.iter(SVG + tag) if e.get("class") == name]

    def title(self):
        return [t.text for t in self.texts if t.get("class") == "title"]

    def subtitle(self):
        return " ".join(t.text for t in self.texts if t.get("class") == "subtitle")

    def points(self):
        out = {}
        for p in self.cls("circle", "point"):
            out.setdefault(p.get("data-series"), []).append(p)
        return out


def close(a, b, rel=1e-6):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-12)


def unit_div(label):
    m = re.search(r"\((ns|us|ms|s)\)", label)
    return {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[m.group(1)] if m else 1


# ---- the checks ----

def make_sets(c, d):
    with open(os.path.join(d, "t.fio"), "w") as f:
        f.write(JOB)
    code, _, err = run(SWEEP + ["--repeat", "2", "--results", "rep.jsonl",
                                "--output-format=terse", "t.fio"], cwd=d, timeout=300)
    c.check(code == 0, "sweep with --repeat 2: %s" % err)
    code, _, err = run(["--sweep", "numjobs=1,2", "--set", "runtime=0.3", "--results",
                        "one.jsonl", "--output-format=terse", "t.fio"], cwd=d)
    c.check(code == 0, "sweep run once: %s" % err)
    return cells(os.path.join(d, "rep.jsonl")), cells(os.path.join(d, "one.jsonl"))


def check_workload(c, ch, rs, name):
    """The subtitle: what was measured, from the result set; title and desc for readers."""
    cell = rs[0]
    sub = ch.subtitle()
    want = ["bs=16k", "ioengine=psync", "host %s" % cell["host"], "kernel %s" % cell["kernel"],
            cell["version"]]
    c.check(all(w in sub for w in want), "%s: the subtitle %r names %r" % (name, sub, want))
    title = ch.root.find(SVG + "title")
    desc = ch.root.find(SVG + "desc")
    c.check(title is not None and title.text == ch.title()[0] and desc is not None and
            sub.replace(" ", "") in (desc.text or "").replace(" ", ""),
            "%s: <title> is the title, <desc> holds the subtitle" % name)


def check_metric(c, d, rep, one):
    code, out, err = run(["report", "rep.jsonl", "--rows", "numjobs", "--cols", "iodepth",
                          "--svg", "m.svg"], cwd=d)
    c.check(code == 0 and " ±" in out, "metric chart of repetitions, tables with sigma: %s"
            % err)
    for path, rw in (("m.svg", "randread"), ("m-2.svg", "randwrite")):
        ch = Chart(os.path.join(d, path))
        pts = ch.points()
        c.check(sorted(pts) == ["iodepth=1", "iodepth=2"], "%s: legends: %r" % (path, sorted(pts)))
        check_workload(c, ch, rep, path)
        c.check("rw=%s" % rw in ch.subtitle() and "numjobs=1,2,4" in ch.subtitle(),
                "%s: the subtitle gives rw and the swept numjobs: %r" % (path, ch.subtitle()))
        errs = ch.cls("path", "err")
        for name, ps in pts.items():
            for p in ps:
                runs = find(rep, rw=rw, numjobs=p.get("data-x"), iodepth=name.split("=")[1])
                m, sd = mean_sd([iops(r) for r in runs])
                y = ch.value("y", float(p.get("cy")))
                c.check(len(runs) == 2 and close(float(p.get("data-y")), m) and
                        close(float(p.get("data-err")), sd) and
                        abs(y - m) <= ch.pix_tol("y", m),
                        "%s %s numjobs=%s: mean %g sigma %g of 2 repetitions, drawn at %g" %
                        (path, name, p.get("data-x"), m, sd, y))
        c.check(len(errs) == sum(len(p) for p in pts.values()),
                "%s: an error bar per point: %d" % (path, len(errs)))
    code, _, err = run(["report", "one.jsonl", "--cols", "none", "--svg", "o.svg",
                        "--y-axis", "log"], cwd=d)
    ch = Chart(os.path.join(d, "o.svg"))
    pts = ch.points()
    c.check(code == 0 and list(pts) == ["IOPS"] and ch.axes["y"].get("data-scale") == "log10",
            "one series named by its metric, on a log axis: %r %s" % (list(pts), err))
    for p in pts.get("IOPS", []):
        cell = find(one, numjobs=p.get("data-x"))[0]
        y = ch.value("y", float(p.get("cy")))
        c.check(close(float(p.get("data-err")), iops_sd(cell)) and
                abs(y - iops(cell)) <= ch.pix_tol("y", iops(cell)),
                "run once: sigma %s from fio's iops_stddev %g; y %g" %
                (p.get("data-err"), iops_sd(cell), y))


def check_hockey(c, d, rep):
    code, _, err = run(["report", "rep.jsonl", "--rows", "numjobs", "--cols", "iodepth",
                        "--where", "rw=randread", "--chart", "hockey", "--svg", "h.svg"], cwd=d)
    ch = Chart(os.path.join(d, "h.svg"))
    ylabel = [t.text for t in ch.texts if t.text and t.text.startswith("lat mean")]
    div = unit_div(ylabel[0]) if ylabel else 1
    pts = ch.points()
    c.check(code == 0 and sorted(pts) == ["iodepth=1", "iodepth=2"] and ylabel,
            "hockey: a curve per iodepth, latency up: %r %s" % (sorted(pts), err))
    names = [t.text for t in ch.cls("text", "point-name")]
    c.check(names.count("numjobs=4") == 2 and names.count("numjobs=1") == 2,
            "hockey: each point named by its row value: %r" % names)
    for name, ps in pts.items():
        for p, nj in zip(ps, ["1", "2", "4"]):
            runs = find(rep, rw="randread", numjobs=nj, iodepth=name.split("=")[1])
            x, _ = mean_sd([iops(r) for r in runs])
            y, _ = mean_sd([lat_mean(r) / div for r in runs])
            got = (ch.value("x", float(p.get("cx"))), ch.value("y", float(p.get("cy"))))
            c.check(abs(got[0] - x) <= ch.pix_tol("x", x) and abs(got[1] - y) <=
                    ch.pix_tol("y", y), "hockey %s numjobs=%s: (IOPS %g, lat %g) drawn at %r"
                    % (name, nj, x, y, got))


def check_bars(c, d, rep):
    code, _, err = run(["report", "rep.jsonl", "--rows", "numjobs", "--cols", "iodepth",
                        "--where", "rw=randwrite", "--chart", "bars", "--svg", "b.svg"], cwd=d)
    ch = Chart(os.path.join(d, "b.svg"))
    bars = ch.cls("rect", "bar")
    c.check(code == 0 and len(bars) == 12 and "y2" in ch.axes,
            "paired bars: IOPS and latency for 3 numjobs x 2 iodepth: %d %s" % (len(bars), err))
    y2label = [t.text for t in ch.texts if t.text and t.text.startswith("lat mean (")]
    div = unit_div(y2label[0]) if y2label else 0
    for b in bars:
        nj, iod = b.get("data-x").split("=")[1], b.get("data-series").split("=")[-1]
        runs = find(rep, rw="randwrite", numjobs=nj, iodepth=iod)
        lat = b.get("data-series").startswith("lat")
        want = mean_sd([lat_mean(r) / div if lat else iops(r) for r in runs])[0]
        axis = "y2" if lat else "y"
        top = ch.value(axis, float(b.get("y")))
        height = ch.value(axis, float(b.get("y")) + float(b.get("height")))
        c.check(lat == (b.get("data-axis") == "y2") and abs(top - want) <= ch.pix_tol(axis, want)
                and abs(height) <= ch.pix_tol(axis, want),
                "bar %s %s: %g, drawn from 0 to %g" % (b.get("data-series"), b.get("data-x"),
                                                      want, top))


def check_bars3d(c, d, rep):
    code, _, err = run(["report", "rep.jsonl", "--rows", "numjobs", "--cols", "iodepth",
                        "--where", "rw=randread", "--chart", "bars3d", "--svg", "3.svg"], cwd=d)
    ch = Chart(os.path.join(d, "3.svg"))
    bars = ch.cls("g", "bar3d")
    c.check(code == 0 and len(bars) == 6, "3D bars, numjobs x iodepth: %d %s" % (len(bars), err))
    scale = []
    for b in bars:
        runs = find(rep, rw="randread", numjobs=b.get("data-x"),
                    iodepth=b.get("data-series").split("=")[1])
        want = mean_sd([iops(r) for r in runs])[0]
        c.check(close(float(b.get("data-y")), want, 1e-6), "3D bar numjobs=%s %s: %s, want %g" %
                (b.get("data-x"), b.get("data-series"), b.get("data-y"), want))
        scale.append(float(b.get("data-height")) / want)
    c.check(scale and max(scale) - min(scale) <= 0.01 * max(scale) + 0.02 / min(
        float(b.get("data-y")) for b in bars) * 100, "3D bars: heights in proportion: %r" % scale)


def check_buckets(c, d, one):
    code, _, err = run(["report", "one.jsonl", "--cols", "none", "--chart", "buckets",
                        "--svg", "k.svg"], cwd=d)
    ch = Chart(os.path.join(d, "k.svg"))
    bars = ch.cls("rect", "bar")
    c.check(code == 0 and bars, "buckets: bars %d %s" % (len(bars), err))
    for b in bars:
        cell = find(one, numjobs=b.get("data-series").split("=")[1])[0]
        want = {bucket_label(u, k): v for (u, k), v in buckets(cell).items()}
        top = ch.value("y", float(b.get("y")))
        c.check(b.get("data-x") in want and close(float(b.get("data-y")), want[b.get("data-x")])
                and abs(top - want[b.get("data-x")]) <= ch.pix_tol("y", 100),
                "bucket %s %s: %s%%, want %r" % (b.get("data-series"), b.get("data-x"),
                                                 b.get("data-y"), want.get(b.get("data-x"))))


def check_latency_dir(c, d):
    code, _, err = run(["report", "rep.jsonl", "--where", "rw=randwrite", "--where",
                        "iodepth=1", "--rows", "numjobs", "--cols", "none", "--metric",
                        "write_lat_p99", "--chart", "latency", "--svg", "l.svg"], cwd=d)
    ch = Chart(os.path.join(d, "l.svg"))
    series = list(ch.points())
    c.check(code == 0 and len(series) == 6 and all(s.endswith(", write") for s in series)
            and ch.title() == ["Latency percentiles, writes, iodepth=1, rw=randwrite"] or
            ch.title() == ["Latency percentiles, writes"],
            "latency of writes alone: %r %r %s" % (ch.title(), series, err))


def log_lines(path):
    with open(path) as f:
        return [[int(x) for x in line.split(",")[:4]] for line in f if line.strip()]


def check_rate_sum(c, d):
    with open(os.path.join(d, "w.fio"), "w") as f:
        f.write("[w]\nioengine=psync\nfilename=w.$jobnum\nsize=1m\nbs=4k\nrw=randwrite\n"
                "numjobs=2\nruntime=0.5\ntime_based\nwrite_bw_log=w\nlog_avg_msec=100\n"
                "[raw]\nstonewall\nioengine=psync\nfilename=r.$jobnum\nsize=1m\nbs=4k\n"
                "rw=randwrite\nnumjobs=2\nruntime=0.3\ntime_based\nwrite_iops_log=raw\n")
    code, _, err = run(["--output-format=terse", "w.fio"], cwd=d)
    c.check(code == 0, "two jobs with averaged logs, two with per-I/O logs: %s" % err)
    code, _, err = run(["report", "w_bw.1.log", "w_bw.2.log", "--svg", "s.svg"], cwd=d)
    ch = Chart(os.path.join(d, "s.svg"))
    pts = ch.points()
    c.check(code == 0 and "all jobs write" in pts, "an all-jobs line: %r %s" % (list(pts), err))
    want = {}
    for name in ("w_bw.1.log", "w_bw.2.log"):
        for t, v, _, _ in log_lines(os.path.join(d, name)):
            key = (t + 50) // 100
            want[key] = want.get(key, 0) + v / 1024.0
    got = {round(float(p.get("data-x")) * 10): float(p.get("data-y"))
           for p in pts.get("all jobs write", [])}
    c.check(got and all(close(got[k], want.get(k, -1)) for k in got) and len(got) == len(want),
            "all jobs: each window's KiB/s of both logs added: %r, want %r" % (got, want))
    code, _, err = run(["report", "raw_iops.3.log", "raw_iops.4.log", "--svg", "i.svg"], cwd=d)
    pts = Chart(os.path.join(d, "i.svg")).points().get("all jobs write", [])
    ios = sum(len(log_lines(os.path.join(d, n))) for n in ("raw_iops.3.log", "raw_iops.4.log"))
    win = float(pts[0].get("data-x")) if pts else 0
    area = sum(float(p.get("data-y")) * win for p in pts)
    c.check(code == 0 and abs(area - ios) <= 0.001 * ios + 1,
            "per-I/O logs added: windows' rates add up to both logs' I/Os: %g of %d" % (area, ios))


def check_lat_logs(c, d):
    with open(os.path.join(d, "l.fio"), "w") as f:
        f.write("[l]\nioengine=psync\nfilename=l.bin\nsize=1m\nbs=4k\nrw=randrw\n"
                "runtime=0.4\ntime_based\nwrite_lat_log=l\nwrite_hist_log=l\n"
                "log_hist_msec=50\nlog_hist_coarseness=1\n")
    code, _, err = run(["--output-format=terse", "l.fio"], cwd=d)
    c.check(code == 0, "a job with lat and hist logs: %s" % err)
    code, _, err = run(["report", "l_clat.1.log", "--chart", "lat-time", "--svg", "t.svg"], cwd=d)
    ch = Chart(os.path.join(d, "t.svg"))
    pts = ch.points()
    ylabel = [t.text for t in ch.texts if t.text and t.text.startswith("latency (")]
    div = unit_div(ylabel[0]) if ylabel else 1
    lines = log_lines(os.path.join(d, "l_clat.1.log"))
    c.check(code == 0 and "l_clat.1.log read p99" in pts and "l_clat.1.log write max" in pts,
            "latency over time: p50, p99, max per direction: %r %s" % (sorted(pts), err))
    span = max(l[0] for l in lines)
    nwin = min(50, len(set(l[0] for l in lines)))
    win = span // nwin + 1
    for name, ps in pts.items():
        ddir = 0 if " read " in name else 1
        pct = {"p50": 50, "p99": 99, "max": 100}[name.split()[-1]]
        bad = []
        for p in ps:
            end = round(float(p.get("data-x")) * 1000)
            vals = [bucket_value(l[1]) for l in lines if l[2] == ddir and
                    end - win <= l[0] < end]
            want = fio_percentile(Counter(vals), pct) / div if vals else None
            if want is None or not close(float(p.get("data-y")), want):
                bad.append((end, p.get("data-y"), want))
        c.check(ps and not bad, "%s: each window's percentile of its log lines: %r" %
                (name, bad[:3]))
    for log in ("l_clat.1.log", "l_clat_hist.1.log"):
        code, _, err = run(["report", log, "--chart", "heatmap", "--svg", "hm.svg"], cwd=d)
        c.check("iojob report: 2 charts: hm.svg, hm-2.svg\n" in err,
                "the charts written are named: %r" % err)
        for path, ddir in (("hm.svg", 0), ("hm-2.svg", 1)):
            ch = Chart(os.path.join(d, path))
            cells_ = ch.cls("rect", "cell")
            total = sum(float(x.get("data-count")) for x in cells_)
            if log.endswith("hist.1.log"):
                with open(os.path.join(d, log)) as f:
                    want = sum(sum(int(v) for v in line.split(",")[3:])
                               for line in f if int(line.split(",")[1]) == ddir)
            else:
                want = sum(1 for l in lines if l[2] == ddir)
            c.check(code == 0 and cells_ and total == want and
                    ch.title() == ["Latency heatmap, %s" % ("reads", "writes")[ddir]],
                    "heatmap of %s, %s: every I/O in a cell: %g of %d %s" %
                    (log, ("reads", "writes")[ddir], total, want, err))
            rows_ok = all(float(x.get("data-y-hi")) == 2 * float(x.get("data-y-lo"))
                          for x in cells_)
            c.check(rows_ok, "heatmap of %s: a power of two of latency per row" % log)


def check_averaged_lat_log(c, d):
    """A latency log written with log_avg_msec holds window means: lat-time draws each
    window's mean, named so, never p50/p99/max lines that would all be that mean; the
    heatmap refuses it, saying why, and leaves no file."""
    with open(os.path.join(d, "a.fio"), "w") as f:
        f.write("[a]\nioengine=null\nsize=1g\nrw=randread\nruntime=0.5\ntime_based\n"
                "rate_iops=2000\nwrite_lat_log=a\nlog_avg_msec=50\n")
    code, _, err = run(["--output-format=terse", "a.fio"], cwd=d)
    c.check(code == 0, "a job with an averaged lat log: %s" % err)
    code, _, err = run(["report", "a_clat.1.log", "--chart", "lat-time", "--svg", "a.svg"],
                       cwd=d)
    ch = Chart(os.path.join(d, "a.svg")) if code == 0 else None
    pts = ch.points() if ch else {}
    c.check(code == 0 and list(pts) == ["a_clat.1.log read mean"] and
            "the logs hold means (log_avg_msec)" in ch.subtitle(),
            "lat-time of an averaged log: one mean line: %r %s" % (sorted(pts), err))
    lines = log_lines(os.path.join(d, "a_clat.1.log"))
    ylabel = [t.text for t in ch.texts if t.text and t.text.startswith("latency (")] if ch \
        else []
    div = unit_div(ylabel[0]) if ylabel else 1
    span = max(l[0] for l in lines)
    win = span // 64 + 1
    bad = []
    for p in pts.get("a_clat.1.log read mean", []):
        end = round(float(p.get("data-x")) * 1000)
        vals = [l[1] for l in lines if end - win <= l[0] < end]
        if not vals or not close(float(p.get("data-y")), sum(vals) / len(vals) / div, 1e-3):
            bad.append((end, p.get("data-y"), vals))
    c.check(not bad, "each point the mean of its window's log lines: %r" % bad[:3])
    code, _, err = run(["report", "a_clat.1.log", "--chart", "heatmap", "--svg", "ah.svg"],
                       cwd=d)
    c.check(code == 2 and "holds the mean latency of each log_avg_msec window" in err and
            not os.path.exists(os.path.join(d, "ah.svg")),
            "heatmap of an averaged log: refused: exit %d %r" % (code, err))
    code, _, err = run(["report", "a_clat.1.log", "--html", "a.html"], cwd=d)
    page = open(os.path.join(d, "a.html")).read() if code == 0 else ""
    c.check(code == 0 and "Latency over time" in page and "Latency heatmap" not in page and
            "the page has no latency heatmap: 'a_clat.1.log' holds the mean" in err,
            "the page of an averaged log: no heatmap, and why: exit %d %r" % (code, err))


def check_names(c, d):
    """--title and --subtitle replace each chart's own; a chart of logs given with result
    files names the runs' workload, then the logs."""
    code, _, err = run(["report", "rep.jsonl", "--svg", "n.svg", "--title", "Flash, day 3",
                        "--subtitle", "after 2 h of preconditioning"], cwd=d)
    ch = Chart(os.path.join(d, "n.svg")) if code == 0 else None
    c.check(ch and ch.title() == ["Flash, day 3"] and
            ch.subtitle() == "after 2 h of preconditioning",
            "--title, --subtitle: %r %r %s" % (ch and ch.title(), ch and ch.subtitle(), err))
    code, _, err = run(["report", "rep.jsonl", "w_bw.1.log", "--chart", "bw", "--svg",
                        "nb.svg"], cwd=d)
    ch = Chart(os.path.join(d, "nb.svg")) if code == 0 else None
    sub = ch.subtitle() if ch else ""
    c.check(sub.startswith("rw=") and "ioengine=psync" in sub and sub.endswith("log w_bw.1.log"),
            "a chart of logs names the runs' workload and its log: %r %s" % (sub, err))


def check_shared_unit(c, d):
    """The tables' charts of one metric share its unit (ms in all, not ms in one and s in
    another), chosen over every table's values."""
    code, _, err = run(["report", "rep.jsonl", "--rows", "numjobs", "--cols", "iodepth",
                        "--metric", "lat_max", "--svg", "u.svg"], cwd=d)
    labels = []
    for path in ("u.svg", "u-2.svg"):
        ch = Chart(os.path.join(d, path)) if code == 0 else None
        labels += [t.text for t in ch.texts if t.text and "(" in t.text and
                   t.text.startswith("lat")] if ch else []
    c.check(code == 0 and len(labels) == 2 and labels[0] == labels[1],
            "one unit for the metric in every table's chart: %r %s" % (labels, err))


def check_compare(c, d):
    code, _, err = run(["--sweep", "numjobs=1,2", "--label", "A", "--results", "ab.jsonl",
                        "--output-format=terse", "t.fio"], cwd=d)
    code2, _, err2 = run(["--sweep", "numjobs=1,2", "--label", "B", "--set", "bs=4k",
                          "--results", "ab.jsonl", "--output-format=terse", "t.fio"], cwd=d)
    c.check(code == 0 and code2 == 0, "two labels: %s %s" % (err, err2))
    code, _, err = run(["compare", "A", "B", "ab.jsonl", "--metrics", "iops,lat_mean",
                        "--svg", "cmp.svg"], cwd=d)
    ab = cells(os.path.join(d, "ab.jsonl"))
    ch = Chart(os.path.join(d, "cmp.svg"))
    bars = ch.cls("rect", "bar")
    c.check(code == 0 and len(bars) == 4 and os.path.exists(os.path.join(d, "cmp-2.svg")),
            "compare --svg: a chart per metric, a bar per side and run: %d %s" % (len(bars), err))
    c.check("iojob compare: 2 charts: cmp.svg, cmp-2.svg\n" in err,
            "compare names the charts it wrote: %r" % err)
    code, _, err = run(["compare", "A", "B", "ab.jsonl", "--svg", "ct.svg", "--title", "A or B",
                        "--subtitle", "same box"], cwd=d)
    ct = Chart(os.path.join(d, "ct.svg")) if code == 0 else None
    c.check(ct and ct.title() == ["A or B"] and ct.subtitle() == "same box",
            "compare --title, --subtitle: %r %s" % (ct and ct.title(), err))
    for b in bars:
        cell = [x for x in ab if x["label"] == b.get("data-series") and
                "numjobs=%s" % x["cell"]["numjobs"] == b.get("data-x")]
        want = iops(cell[-1]) if cell else -1
        c.check(close(float(b.get("data-y")), want) and
                abs(ch.value("y", float(b.get("y"))) - want) <= ch.pix_tol("y", want),
                "compare bar %s %s: %s, want %g" % (b.get("data-series"), b.get("data-x"),
                                                    b.get("data-y"), want))


PROBE = """<script>
window.addEventListener("load", function () {
  var w = document.documentElement.clientWidth, wide = [];
  document.querySelectorAll("body *").forEach(function (e) {
    var r = e.getBoundingClientRect();
    if (r.right > w + 0.5 && !e.closest("svg *")) wide.push(e.tagName + " " + r.right);
  });
  var svgs = Array.prototype.map.call(document.querySelectorAll("body > svg"),
    function (s) { var r = s.getBoundingClientRect(); return [r.width, r.height,
      s.querySelector("title").textContent]; });
  // text drawn past the edge of its chart's viewBox is clipped: "2171" read "217"
  var clipped = [], unnamed = [];
  document.querySelectorAll("body > svg").forEach(function (s) {
    var v = s.getBoundingClientRect(), t = s.querySelector("title").textContent;
    s.querySelectorAll("text").forEach(function (e) {
      var b = e.getBoundingClientRect();	/* rotated labels too, as drawn */
      if (b.left < v.left - 0.5 || b.top < v.top - 0.5 || b.right > v.right + 0.5 ||
          b.bottom > v.bottom + 0.5)
        clipped.push([t, e.textContent, Math.round(b.left - v.left),
                      Math.round(b.right - v.left), Math.round(v.width)]);
    });
    // the workload line: the runs' options (the logs' charts take the result files')
    var sub = Array.prototype.map.call(s.querySelectorAll("text.subtitle"),
                                       function (e) { return e.textContent; }).join(" ");
    if (sub.indexOf("rw=") < 0 || sub.indexOf("ioengine=psync") < 0) unnamed.push(t);
  });
  var out = document.createElement("pre");
  out.id = "probe";
  out.textContent = JSON.stringify({width: w, scroll: document.documentElement.scrollWidth,
                                    wide: wide, svgs: svgs, clipped: clipped,
                                    unnamed: unnamed});
  document.body.appendChild(out);
});
</script>"""


def chromium(browser, d, args):
    return subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                           "--hide-scrollbars", "--user-data-dir=" + os.path.join(d, "chr"),
                           "--enable-logging=stderr", "--v=0", "--window-size=1024,768"] + args,
                          capture_output=True, text=True, timeout=120)


def check_repeat_and_errors(c, d):
    """--resume knows repetitions; bad values are refused with exit 2, naming what is wrong."""
    before = len(cells(os.path.join(d, "rep.jsonl")))
    code, _, err = run(SWEEP + ["--repeat", "2", "--results", "rep.jsonl", "--resume",
                                "--output-format=terse", "t.fio"], cwd=d)
    c.check(code == 0 and len(cells(os.path.join(d, "rep.jsonl"))) == before == 24 and
            err.count("repetition 2/2, is in 'rep.jsonl' already: skipped") == 12,
            "--resume skips every repetition kept: %d lines, %r" % (before, err[:200]))
    for args, msg in [
            (["--repeat", "0", "t.fio"], "--repeat takes a count from 1 to 1000, not '0'"),
            (["report", "rep.jsonl", "--y-axis", "ln"], "--y-axis takes linear or log, not 'ln'"),
            (["report", "rep.jsonl", "--chart", "heatmap", "--svg", "x.svg"],
             "--chart heatmap needs latency or histogram log files"),
            (["report", "w_bw.1.log", "--chart", "hockey", "--svg", "x.svg"],
             "--chart hockey needs result files"),
            (["report", "t.fio.log", "--svg", "x.svg"], "'t.fio.log': not a fio log")]:
        code, _, err = run(args, cwd=d)
        c.check(code == 2 and msg in err, "%s: exit %d %r" % (" ".join(args), code, err))


def check_page(c, d):
    # thousands of I/Os a window: the heatmap's legend counts have four digits and more
    run(["--name=big", "--ioengine=null", "--size=1g", "--rw=randread", "--runtime=0.3",
         "--time_based", "--rate_iops=200000", "--write_lat_log=big",
         "--output-format=terse"], cwd=d)
    code, _, err = run(["report", "rep.jsonl", "--rows", "numjobs", "--cols", "iodepth",
                        "l_clat.1.log", "big_clat.1.log", "w_bw.1.log", "w_bw.2.log",
                        "--html", "p.html"], cwd=d)
    page = open(os.path.join(d, "p.html")).read() if code == 0 else ""
    charts = re.findall(r"<svg .*?</svg>", page, re.S)
    titles = [re.search(r"<title>(.*?)</title>", s).group(1) for s in charts]
    # per rw: metric, hockey, bars, 3D bars, latency, buckets; then bw, lat over time, 2 heatmaps
    want = ["IOPS, rw=", "IOPS against lat mean over numjobs, rw=", "IOPS and latency, rw=",
            "IOPS by numjobs and iodepth, rw=", "Latency percentiles, ", "Latency buckets, rw="]
    c.check(code == 0 and len(charts) == 16 and page.count("<caption>CPU") == 2 and
            all(sum(t.startswith(w) for t in titles) == 2 for w in want) and
            "Bandwidth over time" in titles and "Latency over time" in titles and
            "Latency heatmap, reads" in titles, "the page: every chart: %r %s" % (titles, err))
    for s in charts:
        try:
            ET.fromstring(s)
        except ET.ParseError as e:
            c.check(False, "an inline chart is not XML: %s" % e)
    sci = re.findall(r">([^<]*\d[eE][+-]?\d[^<]*)</text>", page)
    c.check(not sci, "tick labels in scientific notation: %r" % sci[:5])
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        c.skip("chromium is not installed (tests/deps.sh test installs it): the page is "
               "not rendered")
        return
    if is_asan_build() or is_tsan_build():
        print("the page is rendered in the plain build only: the browser runs none of "
              "iojob's code")
        return
    png = os.path.join(d, "p.png")
    p = chromium(browser, d, ["--screenshot=" + png, "file://" + os.path.join(d, "p.html")])
    try:
        share, w, h = png_nonwhite(png)
    except (OSError, ValueError) as e:
        c.check(False, "chromium rendered no p.png: %s %s" % (e, p.stderr[-500:]))
        share, w, h = 0, 0, 0
    c.check((w, h) == (1024, 768) and 0.01 < share < 0.6,
            "the page in chromium: %dx%d, %.1f%% not white" % (w, h, 100 * share))
    probe = os.path.join(d, "probe.html")
    with open(probe, "w") as f:
        f.write(page.replace("</body>", PROBE + "\n</body>"))
    p = chromium(browser, d, ["--dump-dom", "file://" + probe])
    m = re.search(r'<pre id="probe">(.*?)</pre>', p.stdout, re.S)
    got = json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&")) if m else {}
    svgs = got.get("svgs", [])
    c.check(len(svgs) == len(charts) and all(s[0] > 300 and s[1] > 150 for s in svgs),
            "chromium lays out every chart: %r" % svgs)
    c.check(got and not got["wide"] and got["scroll"] <= got["width"],
            "nothing wider than the page (%s px): %r" % (got.get("width"), got.get("wide")))
    c.check(got and not got["clipped"], "text past its chart's edge: %r" %
            got.get("clipped"))
    c.check(got and not got["unnamed"], "charts without a workload line: %r" %
            got.get("unnamed"))
    console = [l for l in (p.stderr + "").splitlines() if "CONSOLE" in l]
    c.check(not console, "no console message: %r" % console[:3])


def main():
    c = Checks("report_charts")
    d = scratch_dir()
    try:
        rep, one = make_sets(c, d)
        check_metric(c, d, rep, one)
        check_hockey(c, d, rep)
        check_bars(c, d, rep)
        check_bars3d(c, d, rep)
        check_buckets(c, d, one)
        check_latency_dir(c, d)
        check_rate_sum(c, d)
        check_lat_logs(c, d)
        check_averaged_lat_log(c, d)
        check_names(c, d)
        check_shared_unit(c, d)
        check_compare(c, d)
        check_repeat_and_errors(c, d)
        check_page(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
