#!/usr/bin/env python3
"""SIGINT and SIGTERM during a run: every job stops within a second, the I/O in flight
completes and is counted, the full report of what was done is printed and says it was
interrupted (normal and JSON), and the exit code is 128 + the signal. A second signal ends
the process at once, even while it is blocked writing its report."""
import os
import signal
import subprocess
import time

from common import BIN, Checks, engine_available, remove, scratch_dir, split_normal_json

RUNTIME = 30		# far longer than the test waits: only a signal ends these runs
STOP_WITHIN = 1.0	# the jobs' runtime ends this soon after the signal
EXIT_WITHIN = 5.0	# and the process, its report written, this soon (ASan's exit is slow)


def start(args, cwd, stdout=subprocess.PIPE):
    return subprocess.Popen([BIN, "--eta=never"] + args, cwd=cwd, stdout=stdout,
                            stderr=subprocess.PIPE, text=True)


def interrupt(c, d, engine, extra, sig):
    what = "%s %s" % (engine, signal.Signals(sig).name)
    p = start(["--name=s", "--ioengine=" + engine, "--filename=s.dat", "--size=8m",
               "--rw=randread", "--runtime=%d" % RUNTIME, "--time_based",
               "--output-format=normal,json"] + extra, d)
    started = time.monotonic()
    time.sleep(1.0)		# running, even in the ThreadSanitizer build
    t0 = time.monotonic()
    p.send_signal(sig)
    out, err = p.communicate(timeout=30)
    took = time.monotonic() - t0
    c.check(took < EXIT_WITHIN, "%s: exited %.2f s after the signal" % (what, took))
    c.check(p.returncode == 128 + sig, "%s: exit %d, want %d" %
            (what, p.returncode, 128 + sig))
    c.check("iojob: interrupted" in err, "%s: stderr says so: %r" % (what, err))
    try:
        text, doc = split_normal_json(out)
    except Exception as e:  # noqa: BLE001 - any parse failure is the finding
        c.check(False, "%s: no report: %s" % (what, e))
        return
    name = signal.Signals(sig).name
    c.check("Interrupted by %s" % name in text, "%s: normal report marked" % what)
    c.check("Run status group 0" in text, "%s: the full report: %r" % (what, text[-400:]))
    c.check(doc.get("iojob", {}).get("interrupted_by") == name,
            "%s: JSON iojob.interrupted_by: %r" % (what, doc.get("iojob")))
    rd = doc["jobs"][0]["read"]
    c.check(rd["total_ios"] > 0, "%s: what was done is reported: %d I/Os" %
            (what, rd["total_ios"]))
    # the jobs began after the process did, so their runtime bounds when they stopped
    limit = (t0 - started + STOP_WITHIN) * 1000
    c.check(rd["runtime"] <= limit, "%s: the jobs ran %d ms, stopping within %.1f s of the "
            "signal means at most %d" % (what, rd["runtime"], STOP_WITHIN, limit))
    # the I/O in flight when it stopped was waited for: every I/O issued was timed
    c.check(rd["clat_ns"]["N"] == rd["total_ios"],
            "%s: every issued I/O completed and timed: %d of %d" %
            (what, rd["clat_ns"]["N"], rd["total_ios"]))
    issued = [ln for ln in text.splitlines() if "issued rwts" in ln]
    c.check(issued and "total=%d," % rd["total_ios"] in issued[0],
            "%s: issued equals completed: %r" % (what, issued))


def second_signal(c, d):
    """The report of 200 jobs does not fit in a pipe nobody reads: after the first signal
    iojob blocks writing it, and only the second signal can end it."""
    p = start(["--name=m", "--ioengine=null", "--size=1m", "--numjobs=200",
               "--rw=randread", "--rate_iops=1000", "--runtime=%d" % RUNTIME,
               "--time_based"], d)
    # all 200 running (a signal before they start leaves a report too short to block)
    time.sleep(1.5)
    p.send_signal(signal.SIGINT)
    time.sleep(0.7)
    c.check(p.poll() is None, "blocked on its report after the first signal")
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    try:
        p.wait(timeout=5)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    took = time.monotonic() - t0
    c.check(p.returncode == -signal.SIGINT, "the second signal kills: %r" % p.returncode)
    c.check(took < 1.0, "at once: %.2f s" % took)
    p.stdout.close()
    p.stderr.close()


def main():
    c = Checks("signals")
    d = scratch_dir()
    try:
        interrupt(c, d, "psync", [], signal.SIGINT)
        interrupt(c, d, "psync", ["--numjobs=4", "--group_reporting"], signal.SIGTERM)
        for engine in ("libaio", "io_uring"):
            if engine_available(engine):
                interrupt(c, d, engine, ["--iodepth=16", "--direct=1"], signal.SIGINT)
            else:
                c.skip(engine + ": not in this build")
        second_signal(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
