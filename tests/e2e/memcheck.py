#!/usr/bin/env python3
"""valgrind's memcheck on whole runs: no invalid access, no use of uninitialised memory and
no leak at exit, for every engine, with verification, logs, every report format, sweeps
with a result set, iojob report and compare over it, a failing job and a rejected option.
The ASan build is skipped (the two cannot share a process); so is a machine without
valgrind."""
import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor

from common import BIN, Checks, engine_available, is_asan_build, remove, scratch_dir

VALGRIND = ["valgrind", "--error-exitcode=99", "--leak-check=full",
            "--show-leak-kinds=definite,indirect,possible",
            "--errors-for-leak-kinds=definite,indirect,possible",
            "--num-callers=20"]
COMMON = ["--eta=never", "--size=1m"]


def cases():
    """(what, arguments, expected exit code)"""
    out = [
        ("psync verify + logs + json+",
         ["--name=p", "--ioengine=psync", "--rw=randwrite", "--numjobs=2", "--verify=crc32c",
          "--filename_format=$jobname.$jobnum", "--write_lat_log=p", "--write_bw_log=p",
          "--write_hist_log=p", "--log_hist_msec=10", "--log_avg_msec=10",
          "--output-format=normal,json+,terse"], 0),
        ("sync randrw group",
         ["--name=s", "--ioengine=sync", "--filename=m.dat", "--rw=randrw", "--numjobs=2",
          "--group_reporting"], 0),
        ("null sweep + results",
         ["--name=n", "--ioengine=null", "--rw=randread", "--sweep", "iodepth=1,4",
          "--label", "vg", "--results", "r.jsonl"], 0),
        ("a second label",
         ["--name=n", "--ioengine=null", "--rw=randread", "--sweep", "iodepth=1,4",
          "--label", "vg2", "--results", "r.jsonl", "--output-format=json+"], 0),
        ("report: tables, chart, page",
         ["report", "r.jsonl", "--rows", "iodepth", "--metric", "lat_p99", "--svg", "c.svg",
          "--html", "p.html"], 0),
        ("report: a seed shape", ["report", "r.jsonl", "--format", "sysbench,markdown"], 0),
        ("repeats and logs",
         ["--name=n", "--ioengine=null", "--rw=randread", "--sweep", "iodepth=1,4", "--repeat",
          "2", "--numjobs=2", "--label", "vg3", "--results", "r.jsonl", "--write_lat_log=q",
          "--write_hist_log=q", "--log_hist_msec=10", "--write_bw_log=q",
          "--log_avg_msec=10"], 0),
        ("report: the page with every chart of results and logs",
         ["report", "r.jsonl", "q_clat.1.log", "q_clat_hist.1.log", "q_bw.1.log", "q_bw.2.log",
          "--rows", "iodepth", "--cols", "label", "--html", "q.html"], 0),
        ("report: 3D bars", ["report", "r.jsonl", "--rows", "iodepth", "--cols", "label",
                             "--chart", "bars3d", "--svg", "3.svg"], 0),
        ("compare: bars", ["compare", "vg", "vg2", "r.jsonl", "--svg", "cmp.svg"], 0),
        ("compare", ["compare", "vg", "vg2", "r.jsonl"], 0),
        ("compare: an unknown label", ["compare", "vg", "nope", "r.jsonl"], 2),
        ("a job that fails",
         ["--name=f", "--ioengine=psync", "--rw=write", "--filename=/dev/full"], 1),
        ("a rejected option", ["--name=b", "--ioengine=psync", "--bs=4q"], 2),
    ]
    if engine_available("libaio"):
        out.append(("libaio verify_backlog",
                    ["--name=a", "--ioengine=libaio", "--filename=m.dat", "--iodepth=8",
                     "--direct=1", "--rw=randwrite", "--verify=md5", "--verify_backlog=16"],
                    0))
    if engine_available("io_uring"):
        out.append(("io_uring randread",
                    ["--name=u", "--ioengine=io_uring", "--filename=m.dat", "--iodepth=8",
                     "--rw=randread", "--output-format=json"], 0))
    return out


def run_lane(lane, cwd):
    """Run the cases of one lane in order in cwd: [(what, expected exit, process)]."""
    os.mkdir(cwd)
    out = []
    for what, args, want in lane:
        pre = [] if args[0] in ("report", "compare") else COMMON
        out.append((what, want, subprocess.run(VALGRIND + [BIN] + pre + args, cwd=cwd,
                                               capture_output=True, text=True, timeout=240)))
    return out


def main():
    c = Checks("memcheck")
    if not shutil.which("valgrind"):
        c.skip("valgrind is not installed")
        c.finish()
    if is_asan_build():
        c.skip("a sanitizer build: valgrind cannot run it")
        c.finish()
    d = scratch_dir()
    try:
        # valgrind is slow: two lanes at once, each in a directory of its own; the runs on
        # the result set r.jsonl stay in order in one lane
        chain = [k for k in cases() if "r.jsonl" in k[1]]
        lanes = [chain] + [[k] for k in cases() if k not in chain]
        with ThreadPoolExecutor(max_workers=2) as pool:
            done = list(pool.map(lambda ln: run_lane(ln[1], os.path.join(d, str(ln[0]))),
                                 enumerate(lanes)))
        for what, want, p in (r for lane in done for r in lane):
            c.check(p.returncode == want, "%s: exit %d, want %d (99: memcheck found "
                    "errors):\n%s" % (what, p.returncode, want, p.stderr[-3000:]))
            c.check("ERROR SUMMARY: 0 errors" in p.stderr or "==" not in p.stderr,
                    "%s: memcheck errors:\n%s" % (what, p.stderr[-3000:]))
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
