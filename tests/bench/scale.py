"""iojob's cost as the work grows (issue 19): growth tables, a benchmark, not a test.

Each row runs one dimension at growing sizes and prints what it measured at each size and
the growth fitted to it: the exponent k of cost ~ n^k over the larger half of the sizes
(where the fixed cost no longer dominates), named constant (k < 0.2), sublinear, linear
(0.8..1.2), n log n-like (1.2..1.5) or quadratic (k > 1.5), and the cost per unit from a
least-squares line (KiB per job, microseconds per file). fio 3.33 runs beside where it
can run the count.

    tests/bench/bench.py --scale small|big [--iojob BIN] [--rows jobs,files,...]

small runs in minutes; big reaches the issue's maxima (65,536 threads: kernel.pid_max
and vm.max_map_count must allow two mappings and a task per thread; 1,000,000 files on
tmpfs; 64 MPI ranks; 10,000 cells; 10^8 log entries, ~9 GB of log files on --disk-dir).
"""
import json
import math
import os
import shutil
import subprocess
import tempfile
import time

GNU_TIME = "/usr/bin/time"

SIZES = {
    "small": {"jobs": [1, 64, 512, 2048, 4096], "files": [1, 100, 1000, 10000, 30000],
              "filesize": ["1G", "1T", "64T", "1P"], "ranks": [2, 4, 8, 16],
              "cells": [100, 300, 1000, 3000], "entries": [10**5, 10**6, 4 * 10**6]},
    "big": {"jobs": [1, 64, 512, 4096, 16384, 65536],
            "files": [1, 1000, 10000, 100000, 1000000],
            "filesize": ["1G", "1T", "64T", "1P"], "ranks": [2, 4, 8, 16, 32, 64],
            "cells": [100, 1000, 3000, 10000], "entries": [10**6, 10**7, 10**8]},
}
FIO_MAX_JOBS = 2048     # fio 3.33 refuses numjobs past its shared-memory segment here


def timed(cmd, cwd=None, env=None, timeout=None):
    """Run cmd under GNU time: (exit code, wall s, peak RSS KiB, output); the CPU seconds
    (user + system, which a loaded machine inflates less than wall time) in timed.cpu."""
    start = time.monotonic()
    try:
        p = subprocess.run([GNU_TIME, "-f", "SCALE_RSS=%M %U %S"] + cmd, cwd=cwd, env=env,
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        timed.cpu = float("nan")
        return 124, float("nan"), float("nan"), ""
    wall = time.monotonic() - start
    rss, timed.cpu = float("nan"), float("nan")
    for line in p.stderr.splitlines():
        if line.startswith("SCALE_RSS="):
            f = line.split("=")[1].split()
            rss, timed.cpu = int(f[0]), float(f[1]) + float(f[2])
    return p.returncode, wall, rss, p.stdout + p.stderr


def fit(ns, ys):
    """(exponent over the larger half, slope per unit of a least-squares line)."""
    pts = [(n, y) for n, y in zip(ns, ys) if y == y and y > 0 and n > 0]
    slope = float("nan")
    if len(pts) >= 2:
        mn = sum(n for n, _ in pts) / len(pts)
        my = sum(y for _, y in pts) / len(pts)
        den = sum((n - mn) ** 2 for n, _ in pts)
        slope = sum((n - mn) * (y - my) for n, y in pts) / den if den else float("nan")
    top = pts[len(pts) // 2 - (1 if len(pts) % 2 == 0 and len(pts) > 2 else 0):]
    if len(top) < 2 or top[-1][0] == top[0][0]:
        return float("nan"), slope
    xs = [math.log(n) for n, _ in top]
    ls = [math.log(y) for _, y in top]
    mx, ml = sum(xs) / len(xs), sum(ls) / len(ls)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (l - ml) for x, l in zip(xs, ls)) / den, slope


def growth(k):
    if k != k:
        return "-"
    name = ("constant" if k < 0.2 else "sublinear" if k < 0.8 else "linear" if k < 1.2 else
            "n log n-like" if k < 1.5 else "quadratic")
    return "%s (k=%.2f)" % (name, k)


def table(title, unit, cols, rows):
    """rows: [(n, {col: value})]; prints values, then each column's fitted growth."""
    print("\n== %s ==" % title)
    print("%12s " % unit + "".join("%16s" % c for c in cols))
    for n, v in rows:
        print("%12s " % n + "".join("%16s" % fmt(v.get(c)) for c in cols))
    ns = [n for n, _ in rows]
    for c in cols:
        k, slope = fit(ns, [v.get(c, float("nan")) for _, v in rows])
        print("  growth %-24s %-28s per %s: %s" % (c, growth(k), unit, fmt(slope)))


def fmt(v):
    if v is None or v != v:
        return "-"
    if isinstance(v, str):
        return v
    return "%.4g" % v


def row_jobs(args, sizes, tmp):
    rows = []
    for n in sizes:
        cmd = ["--name=j", "--ioengine=null", "--thread", "--numjobs=%d" % n, "--size=4k",
               "--bs=4k", "--rw=read", "--group_reporting"]
        code, wall, rss, out = timed([args.iojob] + cmd, cwd=tmp)
        v = {"iojob s": wall if code == 0 else float("nan"), "iojob cpu s": timed.cpu,
             "iojob MiB": rss / 1024 if code == 0 else float("nan")}
        if code:
            v["iojob s"] = "exit %d" % code
            print("scale: jobs %d: %s" % (n, out.strip().splitlines()[-2:]))
        if args.fio and n <= FIO_MAX_JOBS:
            code, wall, rss, _ = timed([args.fio] + cmd, cwd=tmp)
            v.update({"fio s": wall, "fio MiB": rss / 1024} if code == 0 else {})
            if code == 0 and isinstance(v["iojob s"], float):
                v["RSS iojob/fio"] = v["iojob MiB"] / v["fio MiB"]
        rows.append((n, v))
    table("jobs: null threads, one 4k I/O each: start-up (wall, runtime ~0) and peak RSS",
          "jobs", ["iojob s", "iojob cpu s", "iojob MiB", "fio s", "fio MiB", "RSS iojob/fio"], rows)


def row_files(args, sizes, shm):
    rows = []
    for n in sizes:
        d = tempfile.mkdtemp(prefix="files-", dir=shm)
        cmd = [args.iojob, "--name=j", "--ioengine=psync", "--directory=" + d,
               "--nrfiles=%d" % n, "--openfiles=64", "--filesize=4k", "--bs=4k",
               "--rw=randread", "--io_size=64k"]
        code1, wall1, _, _ = timed(cmd)
        code2, wall2, rss, _ = timed(cmd)
        shutil.rmtree(d, ignore_errors=True)
        ok = code1 == 0 and code2 == 0
        rows.append((n, {"layout s": wall1 - wall2 if ok else float("nan"),
                         "start-up s": wall2 if ok else float("nan"), "cpu s": timed.cpu,
                         "MiB": rss / 1024 if ok else float("nan")}))
    table("files per job: nrfiles on tmpfs, openfiles=64, 4k each, 16 I/Os: layout "
          "(first run minus second), start-up (second run), peak RSS", "files",
          ["layout s", "start-up s", "cpu s", "MiB"], rows)


def row_filesize(args, sizes, shm):
    rows, ns = [], []
    for s in sizes:
        path = os.path.join(shm, "sparse")
        subprocess.run(["truncate", "-s", s, path], check=True)
        n = os.path.getsize(path)
        cmd = ["--name=j", "--ioengine=psync", "--filename=" + path, "--bs=4k",
               "--rw=randread", "--time_based", "--runtime=1", "--output-format=json"]
        code, _, rss, out = timed([args.iojob] + cmd)
        v = {"iojob MiB": rss / 1024}
        try:
            v["iojob Mio/s"] = json.loads(out[:out.rindex("}") + 1])["jobs"][0]["read"][
                "iops"] / 1e6
        except (ValueError, KeyError, IndexError):
            v["iojob Mio/s"] = float("nan")
        if args.fio:
            code, _, rss, out = timed([args.fio, "--norandommap"] + cmd)
            v["fio(norandommap) MiB"] = rss / 1024 if code == 0 else float("nan")
        os.unlink(path)
        rows.append((n >> 30, v))
    table("file size: a sparse tmpfs file, 4k random reads of holes for 1 s, iojob with its "
          "random map on (a keyed permutation): offset memory and speed", "GiB",
          ["iojob MiB", "iojob Mio/s", "fio(norandommap) MiB"], rows)


def row_ranks(args, sizes, tmp):
    mpirun, mpi = shutil.which("mpirun"), args.iojob + "-mpi"
    if not mpirun or not os.access(mpi, os.X_OK):
        print("\n== ranks: skipped (no mpirun or %s) ==" % mpi)
        return
    base = [mpirun, "--allow-run-as-root", "--oversubscribe", "-np"]
    rows = []
    for n in sizes:
        # mpirun -np 64 true hung here (OpenMPI 4, 2 cores) where iojob-mpi ran in 6 s
        _, empty, _, _ = timed(base + [str(n), "true"], cwd=tmp, timeout=60)
        code, wall, _, out = timed(base + [str(n), mpi, "--name=j", "--ioengine=null",
                                           "--size=4k", "--bs=4k", "--output-format=json"],
                                   cwd=tmp)
        v = {"mpirun true s": empty, "iojob-mpi s": wall}
        try:
            ranks = json.loads(out[out.index("{"):out.rindex("}") + 1])["iojob_ranks"]
            waits = [r["barrier_ns"] / 1e6 for r in ranks]
            v.update({"barrier max ms": max(waits), "barrier mean ms": sum(waits) / n,
                      "rest s": wall - empty})
        except (ValueError, KeyError):
            v["iojob-mpi s"] = "exit %d" % code
        rows.append((n, v))
    table("MPI ranks, oversubscribed, null engine: barrier wait (iojob_ranks) and the run's "
          "cost beyond mpirun's own start (start-up, barriers, merge, report)", "ranks",
          ["mpirun true s", "iojob-mpi s", "rest s", "barrier mean ms", "barrier max ms"],
          rows)


def result_set(args, tmp, n):
    """A result set of n cells for each of two labels, from one real cell."""
    seed = os.path.join(tmp, "seed.jsonl")
    if not os.path.exists(seed):
        subprocess.run([args.iojob, "--label=a", "--results=" + seed, "--name=j",
                        "--ioengine=null", "--size=64k", "--rw=read"], check=True,
                       capture_output=True)
    with open(seed) as f:
        line = json.loads(f.readline())
    path = os.path.join(tmp, "cells-%d.jsonl" % n)
    side = int(math.ceil(math.sqrt(n)))
    with open(path, "w") as f:
        for label in ("a", "b"):
            for k in range(n):
                line["label"] = label
                line["cell"] = {"iodepth": str(k // side + 1), "numjobs": str(k % side + 1)}
                line["report"]["global options"] = dict(line["cell"])
                f.write(json.dumps(line) + "\n")
    return path


def row_cells(args, sizes, tmp):
    rows = []
    for n in sizes:
        path = result_set(args, tmp, n)
        _, rwall, rrss, _ = timed([args.iojob, "report", path, "--where", "label=a",
                                   "--rows", "iodepth", "--cols", "numjobs", "--metric",
                                   "read_iops"])
        rcpu = timed.cpu
        _, cwall, crss, _ = timed([args.iojob, "compare", "a", "b", path])
        os.unlink(path)
        rows.append((n, {"report s": rwall, "report cpu s": rcpu, "report MiB": rrss / 1024,
                         "compare s": cwall, "compare cpu s": timed.cpu,
                         "compare MiB": crss / 1024}))
    table("result sets: cells per label (two labels), iojob report (one label's grid) and "
          "compare a b", "cells", ["report s", "report cpu s", "report MiB", "compare s",
                                   "compare cpu s", "compare MiB"], rows)


FIO_MAX_ENTRIES = 10**7     # fio keeps its logs in memory: ~3 GB at 10^7 entries a log


def row_logs(args, sizes, disk):
    """Per-I/O logs: iojob writes each full chunk as it fills (memory constant), fio keeps
    every entry until the job ends (memory linear); fio runs up to FIO_MAX_ENTRIES."""
    rows = []
    for n in sizes:
        cmd = ["--name=j", "--ioengine=null", "--bs=4k", "--size=%dk" % (4 * n), "--rw=read",
               "--log_avg_msec=0", "--output=/dev/null"]
        v = {}
        for tool, key in ((args.iojob, "iojob"), (args.fio, "fio")):
            if not tool or (key == "fio" and n > FIO_MAX_ENTRIES):
                continue
            d = tempfile.mkdtemp(prefix="logs-", dir=disk)
            code, wall, rss, out = timed([tool] + cmd + ["--write_lat_log=" +
                                                          os.path.join(d, "l")])
            size = sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d))
            shutil.rmtree(d, ignore_errors=True)
            if code:
                print("scale: logs %d, %s: %s" % (n, key, out.strip().splitlines()[-2:]))
                continue
            v.update({key + " s": wall, key + " MiB": rss / 1024})
            if key == "iojob":
                v["log MiB"] = size / 2**20
        rows.append((n, v))
    table("per-I/O logs: write_lat_log with log_avg_msec=0 (clat, slat, lat), null engine",
          "entries", ["iojob s", "iojob MiB", "log MiB", "fio s", "fio MiB"], rows)


ROWS = {"jobs": (row_jobs, "jobs", "tmp"), "files": (row_files, "files", "shm"),
        "filesize": (row_filesize, "filesize", "shm"), "ranks": (row_ranks, "ranks", "tmp"),
        "cells": (row_cells, "cells", "tmp"), "logs": (row_logs, "entries", "disk")}


def main(args):
    sizes = SIZES[args.scale]
    wanted = args.rows.split(",") if args.rows else list(ROWS)
    dirs = {"tmp": tempfile.mkdtemp(prefix="iojob-scale-"),
            "shm": tempfile.mkdtemp(prefix="iojob-scale-", dir=args.shm_dir),
            "disk": tempfile.mkdtemp(prefix="iojob-scale-", dir=args.disk_dir)}
    limits = {}
    for name in ("kernel/pid_max", "kernel/threads-max", "vm/max_map_count"):
        with open("/proc/sys/" + name) as f:
            limits[name] = f.read().strip()
    print("scale: %s, iojob=%s fio=%s, %s" % (args.scale, args.iojob, args.fio or "(none)",
                                             " ".join("%s=%s" % kv for kv in limits.items())))
    try:
        for r in wanted:
            fn, key, where = ROWS[r]
            fn(args, sizes[key], dirs[where])
    finally:
        for d in dirs.values():
            shutil.rmtree(d, ignore_errors=True)
