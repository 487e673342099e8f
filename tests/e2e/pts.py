#!/usr/bin/env python3
"""iojob pts end to end at a tiny scale (issue 17), on a loop device and on a file.

- The whole suite on a loop device: the purge discarded every byte of the target, the
  preconditioning wrote twice the capacity used in 128 KiB writes, every round holds every
  cell of its matrix, and the report's tables, its plots and `iojob report --format pts`
  show the numbers a model of the suite computes from the result set.
- A rate-paced loop device (rate_iops falling from 800 to 200 over the first rounds, then
  held) reaches the steady-state window at the round a Python model of the SNIA criteria finds
  in the recorded rounds, and the suite stops there; a file whose rate doubles each round
  is reported not attained after --max-rounds, as the model says; `iojob compare` reads
  both runs.
- A wrong option and a device with a file system signature are refused (exit 2) before
  anything is written.
- examples/pts/overprovisioning.sh runs at a tiny scale and its comparison is printed.
Needs root and losetup for the loop devices (skipped otherwise)."""
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.dont_write_bytecode = True	# report.py is imported for its table parser: no __pycache__
sys.path.insert(0, os.path.dirname(__file__))
from common import BIN, SRC, Checks, run, scratch_dir, remove  # noqa: E402
from report import text_tables  # noqa: E402

os.environ["PATH"] += ":/usr/sbin:/sbin"
MIB = 1 << 20
DIRS = ("read", "write", "trim")
RANGE_LIMIT, SLOPE_LIMIT, WINDOW = 0.20, 0.10, 5


# --- the model: metrics as iojob report defines them, and the SNIA window -------------

def rate(job, dirs, key):
    ns = job["iojob"]["runtime_ns"]
    return sum(job[d][key] * 1e9 / ns for d in dirs)


def metric(job, name):
    if name == "iops":
        return rate(job, DIRS, "total_ios")
    if name == "bw_bytes":
        return rate(job, DIRS, "io_bytes")
    if name == "write_bw_bytes":
        return rate(job, ("write",), "io_bytes") if job["write"]["total_ios"] else math.nan
    lat = [job[d]["lat_ns"] for d in DIRS if job[d]["lat_ns"]["N"] > 0]
    if name == "lat_mean":
        return sum(x["N"] * x["mean"] for x in lat) / sum(x["N"] for x in lat)
    if name == "lat_max":
        return max(x["max"] for x in lat)
    raise ValueError(name)


def holds(v, first, last):
    """The window of rounds first..last (from 1): (steady, average)."""
    y = v[first - 1:last]
    xs = list(range(first, last + 1))
    avg = sum(y) / len(y)
    xbar = (first + last) / 2
    slope = sum((x - xbar) * (b - avg) for x, b in zip(xs, y)) / \
        sum((x - xbar) ** 2 for x in xs)
    ok = len(y) == WINDOW and avg > 0 and (max(y) - min(y)) <= RANGE_LIMIT * avg and \
        abs(slope) * (last - first) <= SLOPE_LIMIT * avg
    return ok, avg


def attained(v):
    """The first round whose window holds, and the window (the last five when none)."""
    for last in range(WINDOW, len(v) + 1):
        if holds(v, last - WINDOW + 1, last)[0]:
            return last, (last - WINDOW + 1, last)
    return 0, (max(1, len(v) - WINDOW + 1), len(v))


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def lines_of(lines, label, test, step=None):
    return [o for o in lines if o["label"] == label and o["cell"].get("pts_test") == test and
            (step is None or o["cell"]["pts_step"] == step)]


def rounds_of(lines, label, test):
    """{round: {(bs, mix): job}} and the tracked cell's values by round."""
    rounds, tracked, name = {}, {}, None
    for o in lines_of(lines, label, test, "round"):
        c, job = o["cell"], o["report"]["jobs"][0]
        r = int(c["pts_round"])
        rounds.setdefault(r, {})[(c["bs"], c["rwmixread"])] = job
        if "pts_track" in c:
            name = c["pts_track"]
            tracked[r] = metric(job, name)
    return rounds, [tracked[r] for r in sorted(tracked)], name


# --- helpers ------------------------------------------------------------------------------

class Loops:
    def __init__(self):
        self.devs = []

    def attach(self, path):
        p = subprocess.run(["losetup", "-f", "--show", path], capture_output=True, text=True)
        if p.returncode:
            raise RuntimeError("losetup %s: %s" % (path, p.stderr.strip()))
        self.devs.append(p.stdout.strip())
        return self.devs[-1]

    def close(self):
        for d in reversed(self.devs):
            subprocess.run(["losetup", "-d", d], capture_output=True)
        self.devs = []


def make_file(path, size):
    with open(path, "wb") as f:
        f.truncate(size)


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def table(tables, title_part):
    for t in tables:
        if t["title"] and title_part in t["title"]:
            return t
    return None


def close_to(printed, model):
    """A printed figure against the model: within half a unit of its last digit."""
    dec = len(printed.split(".")[1]) if "." in printed else 0
    return abs(float(printed) - model) <= 0.5 * 10 ** -dec * 1.0001 + 1e-12


def svg_series(path):
    """{series name: [(x, y)]} from the markers of an iojob SVG chart."""
    out = {}
    for el in ET.parse(path).getroot().iter("{http://www.w3.org/2000/svg}circle"):
        if el.get("class") == "point":
            out.setdefault(el.get("data-series"), []).append(
                (float(el.get("data-x")), float(el.get("data-y"))))
    return out


# --- the whole suite on a loop device -------------------------------------------------------

SUITE = ["--tests", "iops,throughput,latency", "--iops-bs", "4k,64k", "--iops-mixes", "100,0",
         "--tp-bs", "1024k,128k", "--lat-bs", "512,4k", "--lat-mixes", "100,0",
         "--round-time", "100ms", "--max-rounds", "5", "--capacity-fraction", "0.5"]
MATRIX = {"iops": {(b, m) for b in ("4k", "64k") for m in ("100", "0")},
          "throughput": {(b, m) for b in ("1024k", "128k") for m in ("0", "100")},
          "latency": {(b, m) for b in ("512", "4k") for m in ("100", "0")}}
# the report's tables: (title part, metric, divisor, the window's max instead of its mean)
TABLES = {"iops": [("average IOPS", "iops", 1, False)],
          "throughput": [("average throughput", "bw_bytes", 1e6, False)],
          "latency": [("average response time", "lat_mean", 1e6, False),
                      ("maximum response time", "lat_max", 1e6, True)]}


def check_prep(c, lines, label, test, whole, used):
    """The purge discarded the whole target; the preconditioning wrote 2x used, 128 KiB each."""
    purge = lines_of(lines, label, test, "purge")
    pre = lines_of(lines, label, test, "precondition")
    c.check(len(purge) == 1 and len(pre) == 1, "%s: one purge and one preconditioning: %d, %d"
            % (test, len(purge), len(pre)))
    if purge:
        j = purge[0]["report"]["jobs"][0]
        c.check(j["error"] == 0 and j["trim"]["io_bytes"] == whole,
                "%s: the purge discarded %d bytes of %d (error %d)" %
                (test, j["trim"]["io_bytes"], whole, j["error"]))
        print("%s: purge discarded %d bytes" % (test, j["trim"]["io_bytes"]))
    if pre:
        j = pre[0]["report"]["jobs"][0]
        c.check(j["write"]["io_bytes"] == 2 * used and j["write"]["total_ios"] ==
                2 * used // (128 << 10) and j["read"]["total_ios"] == 0,
                "%s: preconditioning wrote %d bytes in %d I/Os, want %d in %d" %
                (test, j["write"]["io_bytes"], j["write"]["total_ios"], 2 * used,
                 2 * used // (128 << 10)))
        print("%s: preconditioning wrote %d bytes (twice %d)" % (test, j["write"]["io_bytes"],
                                                                   used))


def check_tables(c, tables, test, rounds, window):
    first, last = window
    for part, name, div, use_max in TABLES[test]:
        t = table(tables, "%s test, %s" % (test, part))
        c.check(t is not None and t["title"].endswith("rounds %d-%d" % window),
                "%s: a table of %s over rounds %d-%d: %r" % (test, part, first, last,
                                                             t and t["title"]))
        if not t:
            continue
        mixes = ["100" if h.startswith("read") else "0" if h.startswith("write") else
                 h.split("/")[0] for h in t["head"][1:]]
        n = 0
        for row in t["rows"]:
            for mix, printed in zip(mixes, row[1:]):
                vals = [metric(rounds[r][(row[0], mix)], name) for r in range(first, last + 1)]
                model = (max(vals) if use_max else sum(vals) / len(vals)) / div
                c.check(close_to(printed, model), "%s: %s at bs=%s mix %s: printed %s, the "
                        "model %.6g" % (test, part, row[0], mix, printed, model))
                n += 1
        c.check(n == len(MATRIX[test]), "%s: %s has %d cells, want %d" % (test, part, n,
                                                                           len(MATRIX[test])))
        print("%s: %s: %d cells equal the result set's window %s" %
              (test, part, n, "maxima" if use_max else "averages"))


def check_plots(c, d, label, test, tracked, window, div):
    conv = os.path.join(d, "%s-%s-convergence.svg" % (label, test))
    win = os.path.join(d, "%s-%s-window.svg" % (label, test))
    c.check(os.path.exists(conv) and os.path.exists(win), "%s: both plots written" % test)
    if not (os.path.exists(conv) and os.path.exists(win)):
        return
    for path in (conv, win):	# each names its workload under the title
        subs = [t.text or "" for t in ET.parse(path).getroot().iter(
            "{http://www.w3.org/2000/svg}text") if t.get("class") == "subtitle"]
        c.check(any("rw=" in s and "bs=" in s for s in subs),
                "%s: no workload line: %r" % (os.path.basename(path), subs))
    series = svg_series(conv)
    mine = [s for s in series if s.endswith("(tracked)")]
    c.check(len(mine) == 1, "%s convergence: one tracked series: %r" % (test, list(series)))
    got = [y for _, y in series[mine[0]]] if mine else []
    c.check(len(got) == len(tracked) and all(abs(a - b / div) <= 1e-8 * abs(b / div)
                                             for a, b in zip(got, tracked)),
            "%s convergence: the tracked rounds %r, the result set's %r" % (test, got, tracked))
    series = svg_series(win)
    pts = series.get("tracked", [])
    want = [(r, tracked[r - 1] / div) for r in range(window[0], window[1] + 1)]
    c.check(len(pts) == len(want) and all(x == r and abs(y - v) <= 1e-8 * abs(v)
                                          for (x, y), (r, v) in zip(pts, want)),
            "%s window: %r, want %r" % (test, pts, want))
    print("%s: plots hold the %d rounds and the window %d-%d" % (test, len(got), *window))


def check_suite(c, loops, d):
    img = os.path.join(d, "suite.img")
    make_file(img, 32 * MIB)
    dev = loops.attach(img)
    out_dir = os.path.join(d, "suite")
    code, out, err = run(["pts", dev] + SUITE + ["--results", out_dir, "--label", "loop"],
                         timeout=600)
    c.check(code == 0, "the suite on %s: exit %d %s" % (dev, code, err))
    if code:
        return
    lines = load(os.path.join(out_dir, "results.jsonl"))
    with open(os.path.join(out_dir, "loop-report.txt")) as f:
        text = f.read()
    c.check(text == out, "the report on stdout is loop-report.txt")
    rcode, again, rerr = run(["report", os.path.join(out_dir, "results.jsonl"), "--format",
                              "pts"])
    c.check(rcode == 0 and again == text, "iojob report --format pts prints the same report "
            "(exit %d %s)" % (rcode, rerr))
    tables = text_tables(text)
    for test in ("iops", "throughput", "latency"):
        check_prep(c, lines, "loop", test, 32 * MIB, 16 * MIB)
        rounds, tracked, name = rounds_of(lines, "loop", test)
        at, window = attained(tracked)
        c.check(sorted(rounds) == list(range(1, len(rounds) + 1)) and
                len(rounds) == (at or 5) and all(set(r) == MATRIX[test] for r in rounds.values()),
                "%s: rounds 1-%d each with the whole matrix (the model: %s)" %
                (test, len(rounds), at or "not attained"))
        print("%s: %d rounds recorded, each of %d cells" % (test, len(rounds), len(MATRIX[test])))
        summary = table(tables, "%s test, steady state" % test)
        state = dict(summary["rows"]) if summary else {}
        want = "attained at round %d" % at if at else "not attained in 5 rounds"
        c.check(state.get("steady state") == want and state.get("window") ==
                "rounds %d-%d" % window, "%s: the report says %r, %r; the model %r, %r" %
                (test, state.get("steady state"), state.get("window"), want, window))
        check_tables(c, tables, test, rounds, window)
        dep = table(tables, "%s test, departures" % test)
        deps = [r[0] for r in dep["rows"]] if dep else []
        c.check("purged by discarding every block (BLKDISCARD), not by a secure erase or "
                "format" in deps and "16777216 of the target's 33554432 bytes used (50%)" in
                deps and "each cell of a round ran 0.1 s, not one minute" in deps,
                "%s: the departures state the purge, the capacity and the round: %r" %
                (test, deps))
        check_plots(c, out_dir, "loop", test, tracked, window,
                    {"iops": 1, "throughput": 1e6, "latency": 1e6}[test])
    with open(os.path.join(out_dir, "loop-report.html")) as f:
        html = f.read()
    c.check(html.count("<svg") == 6 and html.count("<table") == len(tables),
            "the HTML page holds the %d tables and 6 plots" % len(tables))


# --- steady state found, and refused, on rate-paced targets ---------------------------------

PACED = ["--tests", "iops", "--iops-bs", "4k", "--iops-mixes", "0", "--round-time", "300ms"]


def check_paced(c, loops, d):
    """Settling rates (800, 400, then 200 IOPS) on a loop device, doubling ones on a file."""
    img = os.path.join(d, "paced.img")
    make_file(img, 16 * MIB)
    dev = loops.attach(img)
    out_dir = os.path.join(d, "paced")
    runs = [("settle", dev, ["--max-rounds", "12", "--round-set", "rate_iops=800,400,200"]),
            ("drift", img, ["--max-rounds", "6", "--round-set",
                            "rate_iops=100,200,400,800,1600,3200"])]
    for label, target, extra in runs:
        code, out, err = run(["pts", target, "--label", label, "--results", out_dir] +
                             PACED + extra, timeout=300)
        c.check(code == 0, "%s: exit %d %s" % (label, code, err))
        if code:
            return
        lines = load(os.path.join(out_dir, "results.jsonl"))
        rounds, tracked, _ = rounds_of(lines, label, "iops")
        at, window = attained(tracked)
        state = dict(table(text_tables(out), "iops test, steady state")["rows"])
        print("%s: tracked IOPS by round %s; the model: %s" %
              (label, ["%.1f" % v for v in tracked],
               "attained at round %d (rounds %d-%d)" % (at, *window) if at else "not attained"))
        if label == "settle":
            c.check(at > 0 and state.get("steady state") == "attained at round %d" % at and
                    len(rounds) == at and state.get("window") == "rounds %d-%d" % window,
                    "settle: the report says %r after %d rounds; the model: round %d" %
                    (state.get("steady state"), len(rounds), at))
            # the paced rounds are what made it: the window leaves the warm-up out, when
            # rounds 1-2 ran at their rates (a loaded machine may run round 2 well below
            # 400, and then the model, rightly, starts the window there)
            if abs(tracked[0] - 800) < 80 and abs(tracked[1] - 400) < 40:
                c.check(window[0] >= 3, "settle: the window %r excludes rounds 1-2" %
                        (window,))
            else:
                print("NOTE: settle: rounds 1-2 ran at %.0f and %.0f IOPS, not 800 and 400: "
                      "where the window starts is not checked" % (tracked[0], tracked[1]))
        else:
            c.check(at == 0 and len(rounds) == 6 and state.get("steady state") ==
                    "not attained in 6 rounds", "drift: the report says %r after %d rounds; "
                    "the model: %s" % (state.get("steady state"), len(rounds), at))
        deps = [r[0] for r in table(text_tables(out), "departures")["rows"]]
        if target == img:
            c.check("the target is a file, not a device" in deps and
                    "purged by punching holes in the whole file" in deps,
                    "%s: a file's departures: %r" % (label, deps))
        else:
            c.check("the target is a file, not a device" not in deps and
                    any(x.startswith("purged by discarding every block") for x in deps),
                    "%s: a device's departures: %r" % (label, deps))
        purge = lines_of(lines, label, "iops", "purge")[0]["report"]["jobs"][0]
        c.check(purge["trim"]["io_bytes"] == 16 * MIB, "%s: the purge punched %d bytes" %
                (label, purge["trim"]["io_bytes"]))
    check_compare(c, out_dir)


def check_compare(c, out_dir):
    """iojob compare reads the two runs: round 3's IOPS, settled at 200 against 400."""
    lines = load(os.path.join(out_dir, "results.jsonl"))
    code, out, err = run(["compare", "settle", "drift", os.path.join(out_dir, "results.jsonl"),
                          "--where", "pts_round=3", "--metrics", "iops"])
    rows = [t["rows"] for t in text_tables(out)]
    want = [metric(lines_of(lines, label, "iops", "round")[2]["report"]["jobs"][0], "iops")
            for label in ("settle", "drift")]
    ok = code == 0 and len(rows) == 1 and len(rows[0]) == 1 and \
        all(close_to(p, w) for p, w in zip(rows[0][0][1:3], want))
    c.check(ok, "compare settle drift at round 3: exit %d %r, want %r %s" % (code, rows, want,
                                                                           err))
    print("compare: round 3 IOPS %s" % (rows[0][0][1:4] if ok else rows))


# --- refusals -------------------------------------------------------------------------------

def check_refusals(c, loops, d):
    img = os.path.join(d, "ext4.img")
    make_file(img, 16 * MIB)
    p = subprocess.run(["mkfs.ext4", "-q", "-F", img], capture_output=True, text=True)
    if p.returncode:
        c.skip("mkfs.ext4: %s" % p.stderr.strip())
        return
    dev = loops.attach(img)
    before = digest(img)
    out_dir = os.path.join(d, "refused")
    code, _, err = run(["pts", dev, "--results", out_dir] + PACED)
    c.check(code == 2 and "signature" in err and "ext4" in err and digest(img) == before,
            "a device holding ext4 is refused before any write (exit %d): %s" % (code, err))
    res = os.path.join(out_dir, "results.jsonl")
    c.check(not os.path.exists(res) or os.path.getsize(res) == 0, "and nothing is kept")
    code, _, err = run(["pts", img, "--results", out_dir, "--set", "bs=8k"] + PACED)
    c.check(code == 2 and "--set 'bs=8k': the suite sets 'bs' itself" in err and
            digest(img) == before, "--set bs is refused (exit %d): %s" % (code, err))
    code, _, err = run(["pts", img, "--results", out_dir, "--iops-mixes", "0,101"])
    c.check(code == 2 and "mix '101'" in err, "a mix of 101%% is refused (exit %d): %s" %
            (code, err))
    print("refusals: a signature, --set bs and a bad mix, exit 2, nothing written")


# --- the over-provisioning example ----------------------------------------------------------

def check_example(c, loops, d):
    img = os.path.join(d, "op.img")
    make_file(img, 32 * MIB)
    dev = loops.attach(img)
    out_dir = os.path.join(d, "op")
    os.makedirs(out_dir)
    env = dict(os.environ, IOJOB=BIN, ROUND="100ms", RUNTIME="0.2", THREADS="1,2",
               PTS_ARGS="--max-rounds 5")
    p = subprocess.run([os.path.join(SRC, "examples", "pts", "overprovisioning.sh"), dev,
                        out_dir], capture_output=True, text=True, env=env, timeout=600)
    tables = text_tables(p.stdout)
    heads = [t["head"] for t in tables]
    c.check(p.returncode == 0 and len(tables) == 2 and
            all(h == ["metric", "whole", "op25", "ratio", "better"] for h in heads),
            "overprovisioning.sh: exit %d, a comparison per thread count: %r %s" %
            (p.returncode, heads, p.stderr[-2000:]))
    sweep = load(os.path.join(out_dir, "sweep.jsonl")) if p.returncode == 0 else []
    sizes = {o["label"]: o["sets"].get("size") for o in sweep}
    c.check(len(sweep) == 4 and sizes == {"whole": "100%", "op25": "75%"},
            "the sweep ran each side at its size: %r" % sizes)
    lines = load(os.path.join(out_dir, "results.jsonl")) if p.returncode == 0 else []
    pre = {o["label"]: o["report"]["jobs"][0]["write"]["io_bytes"] for o in lines
           if o["cell"]["pts_step"] == "precondition"}
    c.check(pre == {"whole": 64 * MIB, "op25": 48 * MIB},
            "each side was preconditioned over what it uses: %r" % pre)
    print("overprovisioning.sh: %d tables compared" % len(tables))


def main():
    c = Checks("pts")
    if os.geteuid() != 0 or not shutil.which("losetup"):
        c.skip("iojob pts on loop devices: needs root and losetup")
        c.finish()
    d = scratch_dir()
    loops = Loops()
    try:
        check_suite(c, loops, d)
        check_paced(c, loops, d)
        check_refusals(c, loops, d)
        check_example(c, loops, d)
    finally:
        loops.close()
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
