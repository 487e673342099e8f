#!/usr/bin/env python3
"""iojob's speed, side by side with fio: a benchmark, not a test.

Runs each job of the set below with iojob and, when fio is installed, with fio on the very
same job file (fio with --clocksource=cpu, its fastest clock), alternating which goes first,
and prints per pair and as medians: IOPS, CPU ns per I/O (the whole process's user+system
time over its I/Os), IOPS per CPU, peak RSS, and the ratios iojob/fio.

    tests/bench/bench.py [-n PAIRS] [-t SECONDS] [--iojob BIN] [--disk-dir DIR] [JOB ...]
    tests/bench/bench.py --scale small|big [--rows jobs,files,filesize,ranks,cells,logs]
    tests/bench/bench.py --threads [--max-threads N]

--scale prints the growth tables of tests/bench/scale.py (issue 19) instead of the pairs;
--threads the scaling table with job threads of tests/bench/threads.py (issue 32).

Jobs: null1 null32 null1-gtod shm-psync shm-uring shm-vsync shm-pvsync shm-pvsync2 shm-mmap
shm-splice disk-libaio disk-uring jobs64 jobs512 meta-filestat meta-filecreate shm-falloc
shm-ftruncate cpuio disk-uring-cached disk-uring-default verify-none verify-crc32c ... (a verify-M
for each verify method M; default: all). null1-gtod gives the job file
gtod_reduce=1: fio then stops timing I/Os, iojob does not. The shm-* jobs after shm-uring
are the local engines on the same page-cached file. jobs64/jobs512 run psync threads on one
shared set of 64 files and also report the start-up time (wall time minus runtime). Data
files are laid out before the first pair and removed at the end.

disk-uring-default (issue 32) is the same load with io_uring's default options alone.
disk-uring-cached (issue 19) is 4k randread at iodepth 32 in batches of 8 on a page-cached
file of --disk-dir (ext4 here; invalidate=0 keeps it cached), with io_uring's default
options. With --t-io-uring PATH (fio's t/io_uring, built from fio's source for the
measurement) that tool runs the same load as one more column (-d32 -s8 -c8 -O0 -p0, its
fixed buffers and files on); --other-iojob BIN adds another build of iojob (the one before
a change); all columns alternate.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IOPS = re.compile(r"^\s*(read|write|trim|mixed)\s*:\s*IOPS=([0-9.]+)([kMG]?)", re.M)
SCALE = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9}
ISSUED = re.compile(r"issued rwts: total=(\d+),(\d+),(\d+)")

JOBS = {
    "null1": "ioengine=null\nsize=1g\niodepth=1\n",
    "null32": "ioengine=null\nsize=1g\niodepth=32\n",
    "null1-gtod": "ioengine=null\nsize=1g\niodepth=1\ngtod_reduce=1\n",
    "shm-psync": "ioengine=psync\niodepth=1\nsize=1g\nfilename={shm}/bench.data\n",
    "shm-uring": "ioengine=io_uring\niodepth=32\nsize=1g\nfilename={shm}/bench.data\n",
    # issue 16: the local engines on the same page-cached file as shm-psync
    "shm-vsync": "ioengine=vsync\niodepth=1\nsize=1g\nfilename={shm}/bench.data\n",
    "shm-pvsync": "ioengine=pvsync\niodepth=1\nsize=1g\nfilename={shm}/bench.data\n",
    "shm-pvsync2": "ioengine=pvsync2\niodepth=1\nsize=1g\nfilename={shm}/bench.data\n",
    "shm-mmap": "ioengine=mmap\niodepth=1\nsize=1g\nfilename={shm}/bench.data\n",
    "shm-splice": "ioengine=splice\niodepth=1\nsize=1g\nfilename={shm}/bench.data\n",
    "disk-libaio": "ioengine=libaio\niodepth=32\ndirect=1\nsize=1g\n"
                   "filename={disk}/bench.data\n",
    "disk-uring": "ioengine=io_uring\niodepth=32\ndirect=1\nsize=1g\n"
                  "filename={disk}/bench.data\n",
    "jobs64": "ioengine=psync\nnumjobs=64\nthread\ngroup_reporting\nfilename={files}\n"
              "size=1g\nfile_service_type=random\n",
    "jobs512": "ioengine=psync\nnumjobs=512\nthread\ngroup_reporting\nfilename={files}\n"
               "size=1g\nfile_service_type=random\n",
    # issue 16: the engines that move no data, each I/O one call. The metadata ones run
    # passes (loops=) cut by runtime=: fio does a file's operation when it opens the file,
    # at each loop, but a random time_based job of fio's wraps around without reopening.
    "meta-filestat": "ioengine=filestat\ndirectory={shm}\nnrfiles=256\nfilesize=4k\n"
                     "time_based=0\nloops=1000000\n",
    "meta-filecreate": "ioengine=filecreate\ndirectory={shm}\nnrfiles=256\nfilesize=4k\n"
                       "time_based=0\nloops=1000000\n",
    "shm-falloc": "ioengine=falloc\nsize=64m\nfilename={shm}/bench.falloc\n",
    "shm-ftruncate": "ioengine=ftruncate\nrw=randwrite\nsize=64m\n"
                     "filename={shm}/bench.ftruncate\n",
    "cpuio": "ioengine=cpuio\ncpuload=100\ncpuchunks=1000\nrw=read\nsize=1m\n",
    # issue 19: io_uring at the kernel's floor; t/io_uring beside it (see the docstring)
    "disk-uring-cached": "ioengine=io_uring\niodepth=32\niodepth_batch_submit=8\n"
                         "iodepth_batch_complete_min=8\ninvalidate=0\nsize=1g\n"
                         "filename={disk}/bench.data\n",
    # issue 32: the same load with io_uring's default options alone
    "disk-uring-default": "ioengine=io_uring\niodepth=32\ninvalidate=0\nsize=1g\n"
                          "filename={disk}/bench.data\n",
}
# issue 32: verify's cost, a row per method: random reads and writes over a page-cached
# file with verify=METHOD, each write carrying fio's header and the method's checksum (a
# mixed job's own reads are not checked, in fio as in iojob); verify-none is the same job
# without verify, the floor the methods are measured from.
VERIFY_METHODS = ("none", "crc32c", "md5", "sha1", "sha256", "sha512", "sha3-256", "xxhash",
                  "crc64", "crc32", "crc16", "crc7", "meta", "pattern")
for _m in VERIFY_METHODS:
    JOBS["verify-" + _m] = ("ioengine=psync\nrw=randrw\nnorandommap\nverify_state_save=0\n"
                            "size=1g\nfilename={shm}/bench.data\n" +
                            ("verify=%s\n" % _m if _m != "none" else "") +
                            ("verify_pattern=0xdeadbeef\n" if _m == "pattern" else ""))

T_IO_URING = re.compile(r"IOPS=([0-9.]+)([KM]?),")


def t_io_uring_cmd(args, paths):
    """t/io_uring on the disk-uring-cached load: buffered, random, depth 32, batches of 8."""
    return [args.t_io_uring, "-d32", "-s8", "-c8", "-b4096", "-O0", "-p0", "-B1", "-F1",
            "-n1", "-R1", "-r%d" % args.runtime, os.path.join(paths["disk"], "bench.data")]


def measure_t_io_uring(cmd, args):
    """t/io_uring prints IOPS once a second: their mean, the first second left out where
    there are more (at -t 2 it prints one)."""
    out, code, cpu, rss, wall = run(cmd)
    vals = [float(v) * SCALE[u.replace("K", "k")] for v, u in T_IO_URING.findall(out)]
    vals = vals[1:] if len(vals) > 1 else vals
    if code or not vals:
        sys.stderr.write("bench: %s gave no IOPS (exit %d):\n%s\n" %
                         (" ".join(cmd), code, out[-2000:]))
        return None
    iops = statistics.mean(vals)
    ios = iops * args.runtime
    return {"iops": iops, "ns_per_io": cpu * 1e9 / ios, "iops_per_cpu": ios / cpu,
            "rss_kib": rss, "startup_s": wall - args.runtime}


def job_text(name, args, paths):
    body = JOBS[name].format(**paths)
    return ("[global]\nrw=randread\nbs=4k\ntime_based\nruntime=%d\n%s\n[%s]\n" %
            (args.runtime, body, name))


GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None
RSS = re.compile(r"^IOJOB_BENCH_RSS=(\d+)$", re.M)


def run(cmd):
    """Run cmd; return its output, exit code, CPU seconds, peak RSS (KiB), wall seconds.

    The peak RSS comes from GNU time (package "time"): the rusage of a child that Python
    forked also counts Python's own pages from before the exec.
    """
    if GNU_TIME:
        cmd = [GNU_TIME, "-f", "IOJOB_BENCH_RSS=%M"] + cmd
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - start
    m = RSS.search(out)
    return (out, os.waitstatus_to_exitcode(status), ru.ru_utime + ru.ru_stime,
            int(m.group(1)) if m else float("nan"), wall)


def measure(cmd, args):
    out, code, cpu, rss, wall = run(cmd)
    iops = sum(float(v) * SCALE[u] for _, v, u in IOPS.findall(out))
    if not iops and ISSUED.search(out):
        # fio prints no IOPS line for a direction that moved no bytes (cpuio): its count
        iops = sum(int(n) for n in ISSUED.search(out).groups()) / args.runtime
    if not iops:
        sys.stderr.write("bench: %s gave no IOPS (exit %d):\n%s\n" %
                         (" ".join(cmd), code, out[-2000:]))
        return None
    if code:
        sys.stderr.write("bench: note: %s exited %d\n" % (" ".join(cmd[-1:]), code))
    ios = iops * args.runtime
    return {"iops": iops, "ns_per_io": cpu * 1e9 / ios, "iops_per_cpu": ios / cpu,
            "rss_kib": rss, "startup_s": wall - args.runtime}


def layout(paths, names):
    """Write the data files once, untimed, with iojob itself."""
    for path in names:
        if not os.path.exists(path) or os.path.getsize(path) < paths["size"]:
            with open(path, "wb") as f:
                block = os.urandom(1 << 20)
                for _ in range(paths["size"] >> 20):
                    f.write(block)
                f.flush()
                os.fsync(f.fileno())


def med(rows, key):
    vals = [r[key] for r in rows if r]
    return statistics.median(vals) if vals else float("nan")


def fmt(v):
    if v != v:
        return "-"
    if v >= 1e6:
        return "%.3fM" % (v / 1e6)
    if v >= 1e3:
        return "%.1fk" % (v / 1e3)
    return "%.1f" % v


def bench_job(name, args, paths, tmp):
    path = os.path.join(tmp, name + ".fio")
    with open(path, "w") as f:
        f.write(job_text(name, args, paths))
    sides = {"iojob": [args.iojob, path]}
    if args.fio:
        sides["fio"] = [args.fio, "--clocksource=cpu", path]
    if args.other_iojob:
        sides["iojob-other"] = [args.other_iojob, path]
    if name in ("disk-uring-cached", "disk-uring-default") and args.t_io_uring:
        sides["t/io_uring"] = t_io_uring_cmd(args, paths)
    meas = {k: measure_t_io_uring if k == "t/io_uring" else measure for k in sides}
    rows = {k: [] for k in sides}
    for k, cmd in sides.items():
        meas[k](cmd, args)          # warm-up, not counted
    for pair in range(args.pairs):
        order = list(sides) if pair % 2 == 0 else list(reversed(list(sides)))
        for k in order:
            time.sleep(args.gap)
            rows[k].append(meas[k](sides[k], args))
        line = "%-12s %2d " % (name, pair + 1)
        for k in sides:
            r = rows[k][-1]
            line += " %s %9s %7.1f ns/IO" % (k, fmt(r["iops"]) if r else "fail",
                                             r["ns_per_io"] if r else float("nan"))
        print(line, flush=True)
    summary = "SUMMARY %-12s" % name
    for k in sides:
        ok = [r for r in rows[k] if r]
        summary += " | %s IOPS %s (%s..%s) %.1f ns/IO, %s IOPS/CPU, RSS %.0f KiB" % (
            k, fmt(med(ok, "iops")), fmt(min((r["iops"] for r in ok), default=float("nan"))),
            fmt(max((r["iops"] for r in ok), default=float("nan"))), med(ok, "ns_per_io"),
            fmt(med(ok, "iops_per_cpu")), med(ok, "rss_kib"))
        if name.startswith("jobs"):
            summary += ", start-up %.2f s" % med(ok, "startup_s")
    if "fio" in sides:
        ratios = [a["iops"] / b["iops"] for a, b in zip(rows["iojob"], rows["fio"]) if a and b]
        cpu = [a["iops_per_cpu"] / b["iops_per_cpu"]
               for a, b in zip(rows["iojob"], rows["fio"]) if a and b]
        rss = [a["rss_kib"] / b["rss_kib"] for a, b in zip(rows["iojob"], rows["fio"]) if a and b]
        if ratios:
            summary += " | iojob/fio IOPS %.3f (%.3f..%.3f), IOPS/CPU %.3f, RSS %.3f, %d pairs" % (
                statistics.median(ratios), min(ratios), max(ratios), statistics.median(cpu),
                statistics.median(rss), len(ratios))
    for k in ("iojob-other", "t/io_uring"):
        ratios = [a["iops"] / b["iops"] for a, b in zip(rows["iojob"], rows.get(k, [])) if a and b]
        if ratios:
            summary += " | iojob/%s IOPS %.3f (%.3f..%.3f)" % (
                k, statistics.median(ratios), min(ratios), max(ratios))
    print(summary, flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("jobs", nargs="*", default=list(JOBS))
    ap.add_argument("-n", "--pairs", type=int, default=7)
    ap.add_argument("-t", "--runtime", type=int, default=5)
    ap.add_argument("-g", "--gap", type=float, default=1.0)
    ap.add_argument("--iojob", default=os.path.join(TOP, "build", "iojob"))
    ap.add_argument("--fio", default=shutil.which("fio"))
    ap.add_argument("--no-fio", action="store_true", help="run iojob alone")
    ap.add_argument("--disk-dir", default="/var/tmp")
    ap.add_argument("--shm-dir", default="/dev/shm")
    ap.add_argument("--t-io-uring", help="fio's t/io_uring, for disk-uring-cached")
    ap.add_argument("--other-iojob", help="a second iojob binary (an older build), one more "
                    "column, alternating with the others")
    ap.add_argument("--scale", choices=["small", "big"], help="the growth tables instead")
    ap.add_argument("--rows", help="with --scale: which rows (default: all)")
    ap.add_argument("--threads", action="store_true",
                    help="the scaling table with job threads instead (threads.py)")
    ap.add_argument("--max-threads", type=int, help="with --threads: the most (default: "
                    "twice the CPUs)")
    args = ap.parse_args()
    if args.no_fio:
        args.fio = None
    if args.scale:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import scale
        scale.main(args)
        return
    if args.threads:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import threads
        threads.main(args, measure, layout, fmt)
        return
    unknown = [j for j in args.jobs if j not in JOBS]
    if unknown:
        ap.error("unknown job(s): %s (known: %s)" % (" ".join(unknown), " ".join(JOBS)))
    tmp = tempfile.mkdtemp(prefix="iojob-bench-")
    shm = tempfile.mkdtemp(prefix="iojob-bench-", dir=args.shm_dir)
    disk = tempfile.mkdtemp(prefix="iojob-bench-", dir=args.disk_dir)
    files = [os.path.join(shm, "set.%d" % i) for i in range(64)]
    paths = {"shm": shm, "disk": disk, "files": ":".join(files), "size": 1 << 30}
    print("bench: iojob=%s fio=%s pairs=%d runtime=%ds" %
          (args.iojob, args.fio or "(none)", args.pairs, args.runtime), flush=True)
    try:
        for name in args.jobs:
            if name.startswith(("shm", "verify")):
                layout(paths, [os.path.join(shm, "bench.data")])
            elif name.startswith("disk"):
                layout(paths, [os.path.join(disk, "bench.data")])
            elif name.startswith("jobs"):
                layout(dict(paths, size=16 << 20), files)
            bench_job(name, args, paths, tmp)
    finally:
        for d in (tmp, shm, disk):
            shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
