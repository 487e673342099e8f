#!/usr/bin/env python3
"""How promptly iojob keeps its deadlines: a timing check, not part of the suite.

The unit tests check what the loop decides (a time_based job ran at least its runtime and
past its size; a ramp is left out of the measured runtime and its I/Os out of the counts).
How soon after a deadline a job stops depends on the machine and its load, so the bounds
on that are here, to run by hand on a quiet machine:

    tests/bench/timing.py [--iojob BIN] [-n RUNS]

Each case runs n times (default 3); a case holds when every run is inside its bounds.
Exit status: 0 when every case holds, 1 otherwise.
"""
import argparse
import json
import os
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# name, job options, bounds on the read direction: {key: (low, high)}
CASES = [
    # runtime=1s, time_based: stops within 200 ms of its runtime
    ("time_based", ["--ioengine=null", "--size=1m", "--bs=4k", "--time_based",
                    "--runtime=1s"], {"runtime": (1000, 1200)}),
    # 300 ms of ramp, then 500 ms measured at 1000 IOPS: ~500 I/Os counted, not ~800
    ("ramp_time", ["--ioengine=null", "--size=1m", "--bs=4k", "--time_based",
                   "--ramp_time=300ms", "--runtime=500ms", "--rate_iops=1000"],
     {"runtime": (500, 600), "total_ios": (400, 560)}),
]


def run_case(iojob, opts):
    """The read direction of the one job's JSON report, or the error text."""
    p = subprocess.run([iojob, "--output-format=json", "--name=t"] + opts,
                       capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        return None, "exit %d: %s" % (p.returncode, p.stderr.strip())
    return json.loads(p.stdout)["jobs"][0]["read"], ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iojob", default=os.path.join(TOP, "build", "iojob"))
    ap.add_argument("-n", type=int, default=3, help="runs of each case")
    a = ap.parse_args()
    failed = 0
    for name, opts, bounds in CASES:
        for i in range(a.n):
            rd, err = run_case(a.iojob, opts)
            bad = [err] if rd is None else [
                "%s=%s not in [%d, %d]" % (k, rd[k], lo, hi)
                for k, (lo, hi) in bounds.items() if not lo <= rd[k] <= hi]
            shown = "" if rd is None else " ".join("%s=%s" % (k, rd[k]) for k in bounds)
            print("%-10s run %d: %s %s" % (name, i + 1, "ok  " if not bad else "FAIL",
                                         "; ".join(bad) or shown))
            failed += bool(bad)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
