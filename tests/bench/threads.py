"""iojob's scaling with job threads (issue 32): a benchmark, not a test.

    tests/bench/bench.py --threads [-n PAIRS] [-t SECONDS] [--max-threads N] [--iojob BIN]

For 1, 2, 4, ... job threads up to --max-threads (default: twice the CPUs, so that one row
oversubscribes them) runs the null engine and psync 4k random reads over one page-cached
file per thread (in --shm-dir), numjobs=N thread group_reporting, with iojob and fio
alternately, and prints the medians: total IOPS, IOPS per thread, CPU ns per I/O and the
ratio iojob/fio. The "status" column is iojob again with the status line printed
(--eta=always, every 250 ms: the status thread reads every job's counters), as IOPS over
iojob's IOPS without it: the status thread's cost. Per-thread IOPS that fall as threads
are added while CPUs are free point to contention: shared counters, false sharing.
"""
import os
import statistics
import tempfile


def job_file(tmp, engine, n, runtime, shm):
    body = ("[global]\nrw=randread\nbs=4k\ntime_based\nruntime=%d\nthread\nnumjobs=%d\n"
            "group_reporting\nsize=64m\n" % (runtime, n))
    if engine == "null":
        body += "ioengine=null\n"
    else:
        body += "ioengine=psync\nfilename_format=%s/threads.$jobnum\n" % shm
    body += "[%s]\n" % engine
    path = os.path.join(tmp, "%s-%d.fio" % (engine, n))
    with open(path, "w") as f:
        f.write(body)
    return path


def counts(args):
    top = args.max_threads or 2 * (os.cpu_count() or 1)
    n, out = 1, []
    while n <= top:
        out.append(n)
        n *= 2
    return out


def main(args, measure, layout, fmt):
    tmp = tempfile.mkdtemp(prefix="iojob-threads-")
    shm = tempfile.mkdtemp(prefix="iojob-threads-", dir=args.shm_dir)
    ns = counts(args)
    layout({"size": 64 << 20}, [os.path.join(shm, "threads.%d" % i) for i in range(max(ns))])
    print("threads: iojob=%s fio=%s pairs=%d runtime=%ds, %d CPUs" %
          (args.iojob, args.fio or "(none)", args.pairs, args.runtime, os.cpu_count() or 1))
    print("%-6s %4s  %10s %10s %8s  %10s %10s %8s  %6s %7s" %
          ("engine", "jobs", "iojob IOPS", "per job", "ns/IO", "fio IOPS", "per job",
           "ns/IO", "ratio", "status"))
    try:
        for engine in ("null", "psync"):
            for n in ns:
                path = job_file(tmp, engine, n, args.runtime, shm)
                sides = {"iojob": [args.iojob, path],
                         "status": [args.iojob, "--eta=always", "--eta-interval=250", path]}
                if args.fio:
                    sides["fio"] = [args.fio, "--clocksource=cpu", path]
                rows = {k: [] for k in sides}
                for pair in range(args.pairs):
                    order = list(sides) if pair % 2 == 0 else list(reversed(list(sides)))
                    for k in order:
                        rows[k].append(measure(sides[k], args))

                def med(k, key):
                    vals = [r[key] for r in rows.get(k, []) if r]
                    return statistics.median(vals) if vals else float("nan")
                io, fi, st = med("iojob", "iops"), med("fio", "iops"), med("status", "iops")
                print("%-6s %4d  %10s %10s %8.1f  %10s %10s %8.1f  %6.2f %7.3f" %
                      (engine, n, fmt(io), fmt(io / n), med("iojob", "ns_per_io"), fmt(fi),
                       fmt(fi / n), med("fio", "ns_per_io"), io / fi if fi == fi else 0,
                       st / io), flush=True)
    finally:
        for d in (tmp, shm):
            for name in os.listdir(d):
                os.unlink(os.path.join(d, name))
            os.rmdir(d)
