#!/usr/bin/env python3
"""Every examples/*.fio runs end to end (seed jobs at small size) and its report holds.

Each example's '# expect: PATH OP VALUE' lines are checked against the JSON report; the
normal report of the same run must agree with the JSON (issued I/Os per direction); the
seed job files, replayed with --set size=16m, must issue exactly size/bs I/Os with all
32 in flight. Every examples/seeds/*.fio is replayed by the commands in its header
('# sweep:', then '# report:' or '# compare:') at a tiny size, each sweep cut to its first
two values and each target directory a scratch one, and the tables have the seed's shape.
"""
import glob
import os
import shutil
import json
import re
import shlex
import sys

import subprocess

sys.dont_write_bytecode = True	# report.py is imported for its table parser: no __pycache__
from common import BIN, Checks, SRC, Failure, engine_available, is_tsan_build, remove, run, \
    scratch_dir, split_normal_json, traced_env
from report import text_tables

SEED_SIZE = 16 << 20
EXPECT = re.compile(r"^#\s*expect:\s*(.+?)\s*(==|!=|>=|<=|>|<)\s*(.+?)\s*$")
OPS = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, ">=": lambda a, b: a >= b,
       "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, "<": lambda a, b: a < b}
# An example for a SCSI device names the file the target emulator makes one of, and its size.
SG_TARGET = re.compile(r"^#\s*sg-target:\s*(\S+)\s+(\d+)\s*$", re.M)
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


def run_example(c, name, text, args, d):
    """Run an example in d; one for a SCSI device (sg) over the target emulator, the file
    it names made in d. (None, "", "") when it cannot run here."""
    m = SG_TARGET.search(text)
    if not m:
        return run(args, cwd=d)
    shim = os.environ.get("IOJOB_SG_SHIM", "")
    if not shim or is_tsan_build():
        c.skip("%s: the SCSI target emulator is %s" % (name, "left out under ThreadSanitizer"
               if shim else "not built"))
        return None, "", ""
    dev = os.path.join(d, m.group(1))
    with open(dev, "wb") as f:
        f.truncate(int(m.group(2)))
    env = traced_env({"LD_PRELOAD": shim, "IOJOB_SG_TARGET": dev})
    p = subprocess.run([BIN] + args, cwd=d, env=env, capture_output=True, text=True,
                       timeout=120)
    return p.returncode, p.stdout, p.stderr


def check_example(c, path):
    name = os.path.basename(path)
    text = open(path).read()
    for eng in engines_of(text):
        if not engine_available(eng):
            c.skip("%s: ioengine %s not built" % (name, eng))
            return
    seed = name.startswith("random-")
    # time-based examples run a quarter of a second each: what they expect does not depend
    # on how long they run, and the suite's time does
    quick = ["--set", "runtime=250ms"] if re.search(r"^time_based", text, re.M) else []
    args = (["--output-format=normal,json"] + (["--set", "size=16m"] if seed else []) + quick +
            [path])
    d = scratch_dir()
    try:
        code, out, err = run_example(c, name, text, args, d)
        if code is None:
            return
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
    # as fio: a read job lays its file out, a write job creates it, and each says so
    c.check("%s: Laying out IO file (1 file / 16MiB)" % j["jobname"] in report,
            "%s: the layout line names the job and its file" % name)
    # in usec, or msec when the disk is busy with other work
    c.check(bool(re.search(r"^\s+clat percentiles \((nsec|usec|msec)\):", report, re.M)),
            "%s: no clat percentiles" % name)
    if doc.get("disk_util"):
        c.check("Disk stats (read/write):" in report, "%s: disk stats missing" % name)
    else:
        c.skip("%s: the scratch directory is on no block device: no disk stats" % name)


SEED_HEADS = {
    "sysbench": ["size", "type", "thr", "bytes/sec", "req/sec", "95% resp. time, ms",
                 "max resp time, ms"],
    "tiobench": ["Identifier", "File Size MiB", "Blk Size", "Num Thr", "Rate MiB/s", "CPU%",
                 "Avg Lat ms", "Max Lat ms", "Lat% >2s", "Lat% >10s", "CPU Eff"],
    "xdd": ["", "T", "Q", "Bytes", "Ops", "Time", "Rate", "IOPS", "Latency", "%CPU",
            "OP_Type", "ReqSize"],
}
SYSBENCH_MODES = ["rndrd", "rndrw", "rndwr", "seqrd", "seqwr"]

# What each replay's report and compare lines print, in order: (table count, head, rows of
# each table as the first column's values or a count).
SEED_SHAPES = {
    "sysbench-fileio.fio": [
        (2, SEED_HEADS["sysbench"], [m for m in SYSBENCH_MODES for _ in (1, 4)]),
        (1, ["numjobs \\ label", "32G on 320GB", "32G on 240GB"], ["1", "4"])],
    "random-write-threads.fio": [
        (1, ["numjobs \\ label", "32GB filesize, 100% space formatted",
             "32GB filesize, 75% space formatted", "100GB filesize, RAID0 over 2 cards"],
         ["1", "4"])],
    "aio-randread-randwrite.fio": [
        (2, ["metric", "ioDrive", "md0", "ratio", "better"], 4)],
    "tiobench.fio": [(4, SEED_HEADS["tiobench"], 4)],
    "xdd.fio": [(1, SEED_HEADS["xdd"],
                 ["TARGET PASS0001", "TARGET PASS0002", "TARGET Average", "Combined"])],
}


def replay_args(words, path, d):
    """A sweep line made tiny: the first two values of each --sweep, scratch directories."""
    env, args = dict(os.environ), []
    while words and re.fullmatch(r"[A-Z]+=\S*", words[0]):
        k, v = words.pop(0).split("=", 1)
        env[k] = v
    for w in words[1:]:
        if re.fullmatch(r"numjobs=[\d,]+", w):
            w = "numjobs=" + ",".join(w[8:].split(",")[:2])
        elif w.startswith("directory="):
            w = "directory=" + os.path.join(d, re.sub(r"\W", "_", w[10:]))
            os.makedirs(w[10:], exist_ok=True)
        elif w == os.path.relpath(path, SRC):
            w = path
        args.append(w)
    return env, args + ["--set", "size=4m", "--set", "runtime=0.1", "--output-format=terse"]


def run_env(args, cwd, env):
    p = subprocess.run([BIN] + args, cwd=cwd, env=env, capture_output=True, text=True,
                       timeout=300)
    return p.returncode, p.stdout, p.stderr


def check_replay(c, path):
    name = os.path.basename(path)
    text = open(path).read()
    for eng in engines_of(text):
        if not engine_available(eng):
            c.skip("%s: ioengine %s not built" % (name, eng))
            return
    lines = [(m.group(1), shlex.split(m.group(2)))
             for m in re.finditer(r"^# (sweep|report|compare): (.*)$", text, re.M)]
    # as written from the top of a clone: build/iojob, the job file under examples/seeds/
    c.check(lines and all(w[0] == "build/iojob" or "=" in w[0] for _, w in lines),
            "%s: no '# sweep:' and '# report:' lines" % name)
    d = scratch_dir()
    try:
        shapes = list(SEED_SHAPES.get(name, []))
        for kind, words in lines:
            if kind == "sweep":
                env, args = replay_args(list(words), path, d)
                code, _, err = run_env(args, d, env)
                c.check(code == 0, "%s: %s: exit %d %s" % (name, " ".join(words), code, err))
                continue
            code, out, err = run(words[1:], cwd=d)
            c.check(code == 0 and shapes, "%s: %s: exit %d %s" % (name, " ".join(words),
                                                                   code, err))
            if shapes:
                check_shape(c, name, kind, out, shapes.pop(0))
    finally:
        remove(d)


def check_shape(c, name, kind, out, shape):
    count, head, rows = shape
    tables = wiki_rows_tables(out) if "^ " in out else text_tables(out)
    c.check(len(tables) == count, "%s %s: %d tables, want %d:\n%s" % (name, kind,
                                                                     len(tables), count, out))
    for t in tables:
        c.check(t["head"] == head, "%s %s: head %r, want %r" % (name, kind, t["head"], head))
        got = [r[0] for r in t["rows"]] if isinstance(rows, list) else len(t["rows"])
        if isinstance(rows, list) and head == SEED_HEADS["sysbench"]:
            got = [r[1] for r in t["rows"]]
        c.check(got == rows, "%s %s: rows %r, want %r" % (name, kind, got, rows))


def wiki_rows_tables(out):
    """DokuWiki tables: a '^' head line, then '|' rows."""
    tables = []
    for line in out.splitlines():
        cells = [x.strip() for x in re.split(r"[|^]", line)[1:-1]]
        if line.startswith("^"):
            tables.append({"head": cells, "rows": []})
        elif line.startswith("|") and tables:
            tables[-1]["rows"].append(cells)
    return tables


TINY = [(r"(?m)^size=\S+$", "size=1m"), (r"(?m)^nrfiles=\d+$", "nrfiles=4"),
        (r"(?m)^runtime=\S+$", "runtime=1"), (r"(?m)^bs=1m$", "bs=64k")]  # fio: whole s
TWIN_ENV = {"T": "2", "SIZE": "256k", "IOS": "8"}


def job_ios(doc):
    """{job name: its I/Os} of a JSON report, clones added (fio's and iojob's alike)."""
    out = {}
    for j in doc.get("jobs", []):
        n = sum(j[k]["total_ios"] for k in ("read", "write", "trim") if k in j)
        out[j["jobname"]] = out.get(j["jobname"], 0) + n
    return out


def check_twin(c, seed):
    """A seed fio can run as written, or its fio-syntax twin in examples/seeds/fio/: fio
    and iojob both run it (made tiny) and do the same jobs, the same I/Os in each job that
    is not time-based."""
    name = os.path.basename(seed)
    twin = os.path.join(os.path.dirname(seed), "fio", name)
    path = twin if os.path.exists(twin) else seed
    fio = shutil.which("fio")
    if not fio:
        c.skip("%s: fio is not installed" % name)
        return
    text = open(path).read()
    for pattern, repl in TINY:
        text = re.sub(pattern, repl, text)
    docs = {}
    for prog in (fio, BIN):
        d = scratch_dir()
        try:
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
            env = dict(os.environ, DIR=d, **TWIN_ENV)
            p = subprocess.run([prog, "--output-format=json", name], cwd=d, env=env,
                               capture_output=True, text=True, timeout=300)
            c.check(p.returncode == 0, "%s under %s: exit %d %s" %
                    (os.path.relpath(path, SRC), os.path.basename(prog), p.returncode,
                     p.stderr[-300:]))
            docs[prog] = job_ios(json.loads(p.stdout[p.stdout.find("{"):])) \
                if p.returncode == 0 else {}
        finally:
            remove(d)
    sections = {m[0]: m[1] for m in re.findall(r"(?ms)^\[([^\]]+)\]\n(.*?)(?=^\[|\Z)", text)}
    timed = {k for k, v in sections.items() if re.search(r"(?m)^time_based", v)}
    if "global" in timed:
        timed = set(docs[fio])
    want = {k: v for k, v in docs[fio].items() if k not in timed}
    got = {k: v for k, v in docs[BIN].items() if k not in timed}
    c.check(set(docs[fio]) == set(docs[BIN]) and want == got and all(docs[BIN].values()),
            "%s: fio did %r, iojob %r" % (name, docs[fio], docs[BIN]))


def main():
    c = Checks("examples")
    paths = sorted(glob.glob(os.path.join(SRC, "examples", "*.fio")))
    c.check(len(paths) >= 8, "examples found: %d" % len(paths))
    for p in paths:
        check_example(c, p)
    seeds = sorted(glob.glob(os.path.join(SRC, "examples", "seeds", "*.fio")))
    c.check(sorted(os.path.basename(p) for p in seeds) == sorted(SEED_SHAPES),
            "examples/seeds holds a replay of every seed: %r" % seeds)
    for p in seeds:
        check_replay(c, p)
        check_twin(c, p)
    c.finish()


if __name__ == "__main__":
    main()
