"""How promptly iojob keeps its deadlines and answers SIGINT: a timing check, not part of the suite.
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
import signal
import subprocess
import sys
import time

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


def signal_case(iojob):
    """SIGINT one second into a 30 s run: the jobs stop and the process exits within a
    second of it (tests/e2e/signals.py checks what is reported, not how soon)."""
    p = subprocess.Popen([iojob, "--output-format=json", "--name=t", "--ioengine=null",
                          "--size=1m", "--time_based", "--runtime=30", "--rate_iops=1000"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    time.sleep(1)
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=60)
    took = time.monotonic() - t0
    runtime = json.loads(out)["jobs"][0]["read"]["runtime"]
    bad = [m for ok, m in ((took < 1.0, "exit %.2f s after SIGINT" % took),
                           (runtime < 2000, "runtime=%d ms" % runtime)) if not ok]
    return bad, "exit after %.3f s, runtime=%d ms" % (took, runtime)


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
    for i in range(a.n):
        bad, shown = signal_case(a.iojob)
        print("%-10s run %d: %s %s" % ("sigint", i + 1, "ok  " if not bad else "FAIL",
                                     "; ".join(bad) or shown))
        failed += bool(bad)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
