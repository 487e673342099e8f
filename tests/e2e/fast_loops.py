#!/usr/bin/env python3
"""The event loop's fast paths keep the statistics whole (issue 19, nanoseconds per I/O).

A latency below 128 ns is recorded in its histogram bucket alone (which holds it exactly)
and its moments and fio's latency buckets are added from the buckets at the end; the
synchronous fast loop reads the clock once per I/O. For jobs on each loop (synchronous
fast and general, asynchronous simple and general, the null engine and psync on a file)
this checks, from json+ output: clat's N is the I/O count and the bins hold every sample;
the mean agrees with the bins (exactly below 128 ns, within a bucket's 1/128 above); min
and max below 128 ns are bins; the ns latency buckets below 100 ns are the bins' shares;
lat is clat for synchronous jobs, and their clat sum fits in the runtime (every tick of the
run belongs to at most one I/O). None of it depends on how fast the machine is.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Checks, remove, run, scratch_dir  # noqa: E402

EDGES = [2, 4, 10, 20, 50, 100]     # fio's ns latency buckets that lie below 128 ns

CASES = [
    # name, job body, synchronous
    ("null qd1 randread (sync fast loop)", "ioengine=null\nrw=randread\niodepth=1\nsize=64m\n",
     True),
    ("null qd1 randrw (sync general loop)", "ioengine=null\nrw=randrw\niodepth=1\n", True),
    ("null qd32 randread (async simple loop)", "ioengine=null\nrw=randread\niodepth=32\n",
     False),
    ("null qd32 randread, iodepth_batch_submit=4",
     "ioengine=null\nrw=randread\niodepth=32\niodepth_batch_submit=4\n", False),
    ("null qd8 randwrite with rate_iops (async general loop)",
     "ioengine=null\nrw=randwrite\niodepth=8\nrate_iops=200000\n", False),
    ("psync qd1 read of a file (sync fast loop)",
     "ioengine=psync\nrw=read\niodepth=1\nsize=4m\nfilename={dir}/data\n", True),
    # each loop is built for its clock's kind: the TSC, and clock_gettime
    ("null qd1 randread, clocksource=cpu",
     "ioengine=null\nrw=randread\niodepth=1\nclocksource=cpu\n", True),
    ("null qd32 randread, clocksource=clock_gettime",
     "ioengine=null\nrw=randread\niodepth=32\nclocksource=clock_gettime\n", False),
]


def check_dir(c, name, d, ds, runtime_ms, sync):
    clat = ds["clat_ns"]
    bins = {int(k): v for k, v in clat.get("bins", {}).items()}
    n = ds["total_ios"]
    c.check(clat["N"] == n, "%s %s: clat N %d, I/Os %d" % (name, d, clat["N"], n))
    c.check(sum(bins.values()) == n, "%s %s: bins hold %d samples, I/Os %d" %
            (name, d, sum(bins.values()), n))
    if not n:
        return
    low = sum(k * v for k, v in bins.items() if k < 128)
    high = sum(k * v for k, v in bins.items() if k >= 128)
    total = clat["mean"] * n
    # below 128 ns a bin is its value; above, a bin's value is within 1/128 of its samples
    slack = high / 127.0 + 1e-6 * n + 1
    c.check(abs(total - (low + high)) <= slack, "%s %s: clat sum %.1f, bins' %.1f (slack %.1f)"
            % (name, d, total, low + high, slack))
    if clat["min"] < 128:
        c.check(clat["min"] == min(bins), "%s %s: clat min %d, lowest bin %d" %
                (name, d, clat["min"], min(bins)))
    if clat["max"] < 128:
        c.check(clat["max"] == max(bins), "%s %s: clat max %d, highest bin %d" %
                (name, d, clat["max"], max(bins)))
    if sync:
        lat = ds["lat_ns"]
        c.check(all(lat[k] == clat[k] for k in ("min", "max", "mean", "N")),
                "%s %s: lat %s is not clat %s" % (name, d, lat, clat))
        # one I/O at a time: their latencies are disjoint spans of the run
        c.check(total <= runtime_ms * 1e6 + 1e6, "%s %s: clat sum %.0f ns beyond the runtime "
                "%d ms" % (name, d, total, runtime_ms))
    return bins


def check_buckets(c, name, job, bins_all):
    n = sum(bins_all.values())
    lo = 0
    for e in EDGES:
        cnt = sum(v for k, v in bins_all.items() if lo <= k < e)
        pct = 100.0 * cnt / n
        got = job["latency_ns"][str(e)]
        # fio's rounding: two decimals, and a share too small to show reads 0.01
        want = 0.01 if 0 < pct < 0.01 else round(pct, 2)
        c.check(abs(got - want) <= 0.011, "%s: latency_ns[%d] %.2f, bins' share %.4f" %
                (name, e, got, pct))
        lo = e


def tsc_state():
    """(whether the kernel's clocksource is the TSC, whether the CPU's TSC is invariant)."""
    try:
        with open("/sys/devices/system/clocksource/clocksource0/current_clocksource") as f:
            kernel = f.read().startswith("tsc")
    except OSError:
        kernel = False
    with open("/proc/cpuinfo") as f:
        flags = next((line.split(":", 1)[1].split() for line in f
                      if line.startswith("flags")), [])
    return kernel, "constant_tsc" in flags and "nonstop_tsc" in flags


def check_clock_header(c):
    """clocksource=cpu takes the TSC wherever the CPU says it is invariant, as fio's does,
    also where the kernel does not use it (a VM's kvm-clock): the header says which clock
    each job's latencies were taken with; clock_gettime is always clock_gettime."""
    kernel, invariant = tsc_state()
    if os.environ.get("IOJOB_CLOCK") == "gettime":
        c.skip("IOJOB_CLOCK=gettime: every job uses clock_gettime")
        return
    base = ["--name=c", "--ioengine=null", "--size=1m"]
    want = {"cpu": "Clock: tsc (" if kernel else
            "; tsc (" if invariant else "Clock: clock_gettime (the CPU has no invariant TSC)",
            "clock_gettime": "; clock_gettime where clocksource=clock_gettime" if kernel else
            "Clock: clock_gettime ("}
    for cs, text in want.items():
        rc, out, err = run(base + ["--clocksource=" + cs])
        line = next((l for l in out.splitlines() if l.startswith("Clock:")), "")
        c.check(rc == 0 and text in line and (cs != "cpu" or kernel or not invariant or
                                               line.endswith("where clocksource=cpu")),
                "clocksource=%s (kernel's TSC %s, invariant %s): %r %s" %
                (cs, kernel, invariant, line, err))


def main():
    c = Checks("fast_loops")
    check_clock_header(c)
    tmp = scratch_dir()
    try:
        with open(os.path.join(tmp, "data"), "wb") as f:
            f.write(b"\0" * (4 << 20))
        for name, body, sync in CASES:
            jf = os.path.join(tmp, "job.fio")
            with open(jf, "w") as f:
                f.write("[global]\nbs=4k\nsize=16m\nloops=8\n%s\n[j]\n"
                        % body.format(dir=tmp))
            rc, out, err = run(["--output-format=json+", jf])
            c.check(rc == 0, "%s: exit %d: %s" % (name, rc, err.strip()))
            if rc:
                continue
            job = json.loads(out)["jobs"][0]
            bins_all = {}
            for d in ("read", "write"):
                ds = job[d]
                if ds["total_ios"]:
                    b = check_dir(c, name, d, ds, job["job_runtime"], sync) or {}
                    for k, v in b.items():
                        bins_all[k] = bins_all.get(k, 0) + v
            c.check(sum(bins_all.values()) > 0, "%s: no I/O recorded" % name)
            if bins_all:
                check_buckets(c, name, job, bins_all)
            print("%s: %d I/Os checked" % (name, sum(bins_all.values())))
    finally:
        remove(tmp)
    c.finish()


if __name__ == "__main__":
    main()
