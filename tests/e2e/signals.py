#!/usr/bin/env python3
"""SIGINT and SIGTERM during a run: every job stops within a second, the I/O in flight
completes and is counted, the full report of what was done is printed and says it was
interrupted (normal and JSON), and the exit code is 128 + the signal. A second signal ends
the process at once, even while it is blocked writing its report. Each signal is sent on
an event: the status line showing every job running, the message the first signal prints,
the process asleep writing to its full stdout. A job asleep in a rate limit's pause stops
as promptly as one doing I/O."""
import array
import fcntl
import json
import signal
import subprocess
import termios
import time

from common import (BIN, Checks, PipeReader, engine_available, remove, scratch_dir,
                    split_normal_json)

RUNTIME = 30		# far longer than the test waits: only a signal ends these runs
# Not timing assertions (those are in tests/bench/timing.py): bounds that tell "the signal
# ended it" from "the runtime ended it", so half the runtime, however slow the build.
STOP_WITHIN = RUNTIME / 2	# the jobs' runtime ends this soon after the signal
EXIT_WITHIN = RUNTIME / 2	# and the process, its report written, this soon
WAIT = 60		# the longest wait for an event (the ThreadSanitizer build is slow)


def start(args, cwd):
    """iojob with its status line on stderr (not a terminal), rewritten every 250 ms."""
    return subprocess.Popen([BIN, "--eta=always", "--eta-interval=250ms"] + args, cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def all_running(njobs):
    """A status line of njobs random readers, all running, that did I/O since the last."""
    return (r"Jobs: %d \(f=\d+\): \[r\(%d\)\]\[[\d.]+%%\]\[[^\]]*\]\[r=[1-9][^\]]* IOPS\]" %
            (njobs, njobs))


def blocked_writing(p, pipe):
    """Whether p sleeps in a write to pipe, which nobody reads: its main thread waits in the
    kernel's pipe_write, or (where /proc hides that) it sleeps with the pipe all but full."""
    with open("/proc/%d/stat" % p.pid) as f:
        state = f.read().rsplit(")", 1)[1].split()[0]
    with open("/proc/%d/wchan" % p.pid) as f:
        wchan = f.read()
    if state != "S":
        return False
    if wchan not in ("", "0"):
        return "pipe_write" in wchan
    size = fcntl.fcntl(pipe.fileno(), fcntl.F_GETPIPE_SZ)
    queued = array.array("i", [0])
    fcntl.ioctl(pipe.fileno(), termios.FIONREAD, queued)
    return queued[0] >= size - size // 16


def wait_blocked(p, pipe):
    """Wait until p blocks writing to pipe (True) or exits or WAIT passes (False). No event
    tells a reader that the writer is stuck, so this looks every 10 ms."""
    deadline = time.monotonic() + WAIT
    while p.poll() is None and time.monotonic() < deadline:
        if blocked_writing(p, pipe):
            return True
        time.sleep(0.01)
    return False


def interrupt(c, d, engine, extra, sig, njobs=1):
    what = "%s %s" % (engine, signal.Signals(sig).name)
    p = start(["--name=s", "--ioengine=" + engine, "--filename=s.dat", "--size=8m",
               "--rw=randread", "--runtime=%d" % RUNTIME, "--time_based",
               "--output-format=normal,json", "--numjobs=%d" % njobs] + extra, d)
    started = time.monotonic()
    outr, errr = PipeReader(p.stdout), PipeReader(p.stderr)
    # every job running and doing I/O, even in the ThreadSanitizer build
    c.check(errr.wait_for(all_running(njobs), WAIT) is not None,
            "%s: no status line with all %d jobs running: %r" % (what, njobs, errr.data[-300:]))
    t0 = time.monotonic()
    p.send_signal(sig)
    p.wait(timeout=30)
    out, err = outr.text(), errr.text()
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


def interrupt_pause(c, d, engine, extra):
    """A job in a long pause: a rate limit's (64 KiB at 1 KiB/s: 64 s between I/Os), or
    cpuio's idle share (99 s after each second busy at cpuload=1), longer than the runtime:
    the first signal ends the pause, and the job reports, at once (issue 27: it slept the
    whole pause, whatever the signal or the runtime)."""
    what = "%s in a pause" % engine
    pause = ["--size=256k", "--bs=64k", "--rate=1k"] if engine != "cpuio" else \
        ["--cpuload=1", "--cpuchunks=1000000"]
    p = start(["--name=p", "--ioengine=" + engine, "--runtime=%d" % RUNTIME, "--time_based",
               "--output-format=json"] + pause + extra, d)
    outr, errr = PipeReader(p.stdout), PipeReader(p.stderr)
    # running: its first I/O is done and the next is 64 s away
    c.check(errr.wait_for(r"Jobs: 1 \(f=\d+\): \[R\(1\)\]", WAIT) is not None,
            "%s: no status line with the job running: %r" % (what, errr.data[-300:]))
    took = signal_and_wait(p)
    out = outr.text()
    errr.text()
    c.check(p.returncode == 128 + signal.SIGINT, "%s: exit %r %.2f s after the signal, "
            "want %d" % (what, p.returncode, took, 128 + signal.SIGINT))
    try:
        by = json.loads(out)["iojob"]["interrupted_by"]
    except (ValueError, KeyError) as e:
        by = "no report: %s" % e
    c.check(by == "SIGINT", "%s: the report says it was interrupted: %r" % (what, by))


def signal_and_wait(p, sig=signal.SIGINT):
    """Send sig, wait up to EXIT_WITHIN for p to end (killed past that): seconds taken."""
    t0 = time.monotonic()
    p.send_signal(sig)
    try:
        p.wait(timeout=EXIT_WITHIN)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    return time.monotonic() - t0


def second_signal(c, d):
    """The report of 200 jobs does not fit in a pipe nobody reads: after the first signal
    iojob blocks writing it, and only the second signal can end it."""
    p = start(["--name=m", "--ioengine=null", "--size=1m", "--numjobs=200",
               "--rw=randread", "--rate_iops=1000", "--runtime=%d" % RUNTIME,
               "--time_based"], d)
    err = PipeReader(p.stderr)
    # all 200 running (a signal before they start leaves a report too short to block)
    c.check(err.wait_for(all_running(200), WAIT) is not None,
            "no status line with all 200 jobs running: %r" % err.data[-300:])
    p.send_signal(signal.SIGINT)
    c.check(err.wait_for("iojob: interrupted", WAIT) is not None,
            "the first signal is acknowledged: %r" % err.data[-300:])
    c.check(wait_blocked(p, p.stdout) and p.poll() is None,
            "blocked on its report after the first signal: exit %r" % p.returncode)
    took = signal_and_wait(p)
    # killed by SIGINT itself (not our SIGKILL, not a report finished later)
    c.check(p.returncode == -signal.SIGINT, "the second signal kills: %r after %.2f s" %
            (p.returncode, took))
    p.stdout.close()
    err.text()


def main():
    c = Checks("signals")
    d = scratch_dir()
    try:
        interrupt(c, d, "psync", [], signal.SIGINT)
        interrupt(c, d, "psync", ["--group_reporting"], signal.SIGTERM, njobs=4)
        for engine in ("libaio", "io_uring"):
            if engine_available(engine):
                interrupt(c, d, engine, ["--iodepth=16", "--direct=1"], signal.SIGINT)
            else:
                c.skip(engine + ": not in this build")
        interrupt_pause(c, d, "null", [])
        interrupt_pause(c, d, "cpuio", [])
        if engine_available("io_uring"):
            interrupt_pause(c, d, "io_uring", ["--filename=p.dat", "--iodepth=4"])
        second_signal(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
