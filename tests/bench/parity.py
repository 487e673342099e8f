#!/usr/bin/env python3
"""Same job, same workload, same numbers: iojob beside fio on a matrix of job files.

A benchmark-style check, not part of the timed suite (it runs for about a minute and its
rates depend on the machine). Each case is one job file run by iojob and, when installed,
by fio, in a scratch directory on a disk file system; the table compares what each did:
counts and bytes exactly, rates, thinktime and disk util within the stated tolerance, and
the page-cache drops (through strace, when installed) exactly.

    tests/bench/parity.py [--iojob BIN] [--dir DIR] [CASE ...]

Exit status: 0 when every row holds, 1 otherwise.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_tool(tool, job, d, extra=()):
    """Run tool ('iojob' path or 'fio') on job text in d; (json doc, stdout+stderr)."""
    path = os.path.join(d, "job.fio")
    with open(path, "w") as f:
        f.write(job)
    p = subprocess.run([tool, "--output-format=normal,json", *extra, path], cwd=d,
                       capture_output=True, text=True, timeout=300)
    out = p.stdout
    at = out.find("{\n")
    end = out.rfind("\n}\n")
    doc = json.loads(out[at:end + 3]) if at >= 0 and end > at else None
    return doc, out + p.stderr


def data_bytes(path):
    """Bytes of path that are data, not holes."""
    n, at = 0, 0
    with open(path, "rb") as f:
        fd = f.fileno()
        end = os.fstat(fd).st_size
        while at < end:
            try:
                at = os.lseek(fd, at, os.SEEK_DATA)
            except OSError:
                break
            hole = os.lseek(fd, at, os.SEEK_HOLE)
            n += hole - at
            at = hole
    return n


def fadvise_drops(tool, job, d):
    """POSIX_FADV_DONTNEED calls the tool makes on job, or None without strace."""
    if not shutil.which("strace"):
        return None
    log = os.path.join(d, "strace.log")
    path = os.path.join(d, "job.fio")
    with open(path, "w") as f:
        f.write(job)
    # a first run lays the file out (fio drops the cache after that too): count the second
    subprocess.run([tool, path], cwd=d, capture_output=True, timeout=300)
    subprocess.run(["strace", "-f", "-e", "trace=fadvise64", "-o", log, tool, path], cwd=d,
                   capture_output=True, timeout=300)
    with open(log) as f:
        return sum("POSIX_FADV_DONTNEED" in line for line in f)


def job0(doc):
    return doc["jobs"][0]


def clean(d):
    for name in os.listdir(d):
        p = os.path.join(d, name)
        if os.path.isdir(p):
            shutil.rmtree(p)
        else:
            os.unlink(p)


# Each case: name, job text, and what to compare: (metric, getter(doc, out, d), tolerance).
# tolerance None: exact; a number: relative (0.02 is 2%); ("abs", n): absolute.
def seq_rows(job):
    return [("write io_bytes", lambda doc, out, d: job0(doc)["write"]["io_bytes"], None),
            ("bytes on disk", lambda doc, out, d: data_bytes(os.path.join(d, "f")), None)]


CASES = {
    "coverage-seq-bsrange": (
        "[w]\nfilename=f\nrw=write\nbsrange=12k-60k\nsize=16m\nfallocate=none\n", None),
    "coverage-rand-bsrange": (
        "[w]\nfilename=f\nrw=randwrite\nbsrange=4k-64k\nsize=16m\nfallocate=none\n", None),
    "coverage-rand-bssplit": (
        "[w]\nfilename=f\nrw=randwrite\nbssplit=4k/30:64k/70\nsize=64m\nfallocate=none\n",
        None),
    "rates-per-direction": (
        "[m]\nioengine=null\nrw=randrw\nsize=1g\nrate_iops=1000,500\ntime_based=1\n"
        "runtime=3s\n",
        [("read IOPS", lambda doc, out, d: job0(doc)["read"]["iops"], 0.02),
         ("write IOPS", lambda doc, out, d: job0(doc)["write"]["iops"], 0.02)]),
    "rates-mix70": (
        "[m]\nioengine=null\nrw=randrw\nrwmixread=70\nsize=1g\nrate_iops=2000\n"
        "time_based=1\nruntime=3s\n",
        [("read IOPS", lambda doc, out, d: job0(doc)["read"]["iops"], 0.02),
         ("write IOPS", lambda doc, out, d: job0(doc)["write"]["iops"], 0.02)]),
    "thinktime": (
        "[t]\nioengine=null\nrw=randread\nsize=1g\nthinktime=1ms\ntime_based=1\n"
        "runtime=3s\n",
        [("IOPS (1 ms pauses)", lambda doc, out, d: job0(doc)["read"]["iops"], 0.03)]),
    "global-name": (
        "[global]\nname=all\nioengine=null\nsize=1m\n[a]\n[b]\n",
        [("job names", lambda doc, out, d: [j["jobname"] for j in doc["jobs"]], None)]),
    "missing-dirs": (
        "[w]\nfilename=a/b/c.dat\nrw=write\nsize=64k\n",
        [("file made", lambda doc, out, d: os.path.getsize(os.path.join(d, "a/b/c.dat")),
          None)]),
    "fsync-17-blocks": (
        "[w]\nfilename=f\nrw=write\nsize=68k\nfsync=4\n",
        [("sync total_ios", lambda doc, out, d: job0(doc)["sync"]["total_ios"], None)]),
    "fdatasync-end_fsync": (
        "[w]\nfilename=f\nrw=write\nsize=64k\nfdatasync=4\nend_fsync=1\n",
        [("sync total_ios", lambda doc, out, d: job0(doc)["sync"]["total_ios"], None),
         ("issued rwts", lambda doc, out, d: re.search(r"issued rwts: total=(\S+)",
                                                       out).group(1), None)]),
    "verify-reads": (
        "[w]\nfilename=f\nrw=write\nsize=256k\nverify=crc32c\n",
        [("read total_ios", lambda doc, out, d: job0(doc)["read"]["total_ios"], None),
         ("read line", lambda doc, out, d: bool(re.search(r"^\s+read: IOPS", out, re.M)),
          None)]),
    "time-based-200ms": (
        "[t]\nioengine=null\nsize=1g\ntime_based=1\nruntime=200ms\n",
        [("job_runtime >= 200", lambda doc, out, d: job0(doc)["job_runtime"] >= 200, None)]),
    "layout-lines": (
        "[r]\nfilename=r.dat\nrw=read\nsize=4m\n[w]\nfilename=w.dat\nrw=write\nsize=4m\n",
        [("Laying out lines", lambda doc, out, d: out.count("Laying out IO file"), None)]),
}
for _name in ("coverage-seq-bsrange", "coverage-rand-bsrange", "coverage-rand-bssplit"):
    CASES[_name] = (CASES[_name][0], seq_rows(CASES[_name][0]))

# buffered random reads over three passes: a drop at the open and at each new pass
CACHE_JOB = "[c]\nfilename=f\nrw=randread\nbs=4k\nsize=4m\nloops=3\n"

# direct random reads after a startdelay: util against the kernel's busy time over the
# job's runtime (the disk is otherwise idle), not fio's (fio counts the delay as idle)
UTIL_JOB = ("[u]\nfilename=f\nrw=randread\nbs=4k\nsize=64m\ndirect=1\nioengine=libaio\n"
            "iodepth=8\ntime_based=1\nruntime=2s\nstartdelay=1s\n")


def io_ticks(disk):
    with open("/sys/block/%s/stat" % disk) as f:
        return int(f.read().split()[9])


def util_row(tool, d):
    """(the tool's util, the kernel's busy ms over the job's runtime as a percentage)."""
    clean(d)
    doc, _ = run_tool(tool, UTIL_JOB.replace("runtime=2s", "runtime=100ms"), d)  # the layout
    disk = doc["disk_util"][0]["name"]
    before = io_ticks(disk)
    doc, _ = run_tool(tool, UTIL_JOB, d)
    busy = io_ticks(disk) - before
    return doc["disk_util"][0]["util"], 100.0 * busy / job0(doc)["job_runtime"]


# the seed's aio jobs at a small size: every count exact
SEEDS = ["random-read-test-aio-32thread-20G.fio", "random-write-test-aio-32thread-20G.fio"]


def compare(got, want, tol):
    if got is None or want is None:
        return got is not None
    if tol is None:
        return got == want
    if isinstance(tol, tuple):
        return abs(got - want) <= tol[1]
    return abs(got - want) <= tol * max(abs(want), 1e-9)


def fmt(v):
    if isinstance(v, float):
        return "%.1f" % v
    return str(v)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iojob", default=os.path.join(TOP, "build", "iojob"))
    ap.add_argument("--dir", default="/var/tmp", help="where the scratch directory goes")
    ap.add_argument("cases", nargs="*")
    a = ap.parse_args()
    fio = shutil.which("fio")
    d = tempfile.mkdtemp(prefix="iojob-parity-", dir=a.dir)
    rows, bad = [], 0
    try:
        for name, (job, checks) in CASES.items():
            if a.cases and name not in a.cases:
                continue
            res = {}
            for tool in [a.iojob] + ([fio] if fio else []):
                clean(d)
                doc, out = run_tool(tool, job, d)
                res[tool] = [get(doc, out, d) if doc else None for _, get, _ in checks]
            for k, (metric, _, tol) in enumerate(checks):
                got = res[a.iojob][k]
                want = res[fio][k] if fio else None
                ok = compare(got, want, tol) if fio else got is not None
                bad += not ok
                rows.append((name, metric, fmt(got), fmt(want) if fio else "-",
                             "exact" if tol is None else
                             ("+-%g" % tol[1] if isinstance(tol, tuple) else "%g%%" %
                              (tol * 100)), "ok" if ok else "DIFFERS"))
        if not a.cases or "page-cache" in a.cases:
            clean(d)
            got = fadvise_drops(a.iojob, CACHE_JOB, d)
            clean(d)
            want = fadvise_drops(fio, CACHE_JOB, d) if fio else None
            ok = got is not None and (not fio or got == want)
            bad += not ok
            rows.append(("page-cache", "DONTNEED calls (loops=3)", fmt(got), fmt(want),
                         "exact", "ok" if ok else "DIFFERS"))
        if not a.cases or "util" in a.cases:
            for tool in [a.iojob] + ([fio] if fio else []):
                util, kernel = util_row(tool, d)
                ok = abs(util - kernel) <= 5.0 or tool == fio
                bad += not ok
                rows.append(("util-startdelay", "%s util vs kernel" %
                             ("iojob" if tool == a.iojob else "fio"), fmt(util), fmt(kernel),
                             "+-5" if tool == a.iojob else "info", "ok" if ok else "DIFFERS"))
        for seed in SEEDS if not a.cases or "seeds" in a.cases else []:
            with open(os.path.join(TOP, "examples", seed)) as f:
                job = re.sub(r"^size=.*$", "size=64m", f.read(), flags=re.M)
            res = {}
            for tool in [a.iojob] + ([fio] if fio else []):
                clean(d)
                doc, _ = run_tool(tool, job, d)
                j = job0(doc)
                res[tool] = (j["read"]["total_ios"], j["write"]["total_ios"],
                             j["read"]["io_bytes"] + j["write"]["io_bytes"])
            got, want = res[a.iojob], res.get(fio)
            ok = not fio or got == want
            bad += not ok
            rows.append((seed.split("-test")[0], "ios r/w, bytes", fmt(got), fmt(want),
                         "exact", "ok" if ok else "DIFFERS"))
    finally:
        shutil.rmtree(d, ignore_errors=True)
    head = ("case", "metric", "iojob", "fio 3.33 (or kernel)", "tolerance", "")
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(6)]
    for r in [head] + rows:
        print("  ".join(str(v).ljust(w) for v, w in zip(r, widths)).rstrip())
    print("%d of %d rows hold" % (len(rows) - bad, len(rows)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
