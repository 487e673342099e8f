"""How promptly iojob keeps its deadlines and answers SIGINT: a timing check, not part of the suite.

The unit tests check what the loop decides (a time_based job ran at least its runtime and
past its size; a ramp is left out of the measured runtime and its I/Os out of the counts).
How soon after a deadline a job stops depends on the machine and its load, so the bounds
on that are here, to run by hand on a quiet machine. So are the timing side of the rate
and thinktime options, whose suite checks (tests/e2e/opts_rates.py) count sleep calls
instead: rate_process's gap spread, rate_ignore_thinktime's and thinktime_iotime's I/Os
in a runtime, thinktime_spin's CPU time, flow_sleep's pauses in a latency log, and the
times a replayed log keeps (read_iolog, replay_time_scale, replay_no_stall).

    tests/bench/timing.py [--iojob BIN] [-n RUNS]

Each case runs n times (default 3); a case holds when every run is inside its bounds.
Exit status: 0 when every case holds, 1 otherwise.
"""
import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
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


NULL = ["--ioengine=null", "--rw=read", "--bs=4k", "--size=1g"]


def run_jobs(iojob, args, cwd):
    """The jobs of one run by name, or the error text."""
    p = subprocess.run([iojob, "--output-format=json"] + args, cwd=cwd, capture_output=True,
                       text=True, timeout=120)
    if p.returncode != 0:
        return None, "exit %d: %s" % (p.returncode, p.stderr.strip()[-300:])
    return {j["jobname"]: j for j in json.loads(p.stdout)["jobs"]}, ""


def log_times(path):
    with open(path) as f:
        return [int(line.split(",")[0]) for line in f if line.strip()]


def spread(gaps):
    """Median absolute deviation over the median: for exponential gaps 0.69 (ln of the
    golden ratio over ln 2), for even ones near 0; a late wakeup and the catch-up after it
    move the median of neither, as they move a standard deviation."""
    med = statistics.median(gaps)
    return statistics.median(abs(g - med) for g in gaps) / med if med else 0


def rate_process_case(iojob, d):
    """poisson: exponential gaps; linear: even gaps, 50 IOPS for 4 s (a mean gap of 20 ms,
    well above the log's 1 ms resolution). tests/unit/test_pace.c checks the draws."""
    iops, secs = 50, 4
    got, bad = {}, []
    for proc in ("linear", "poisson"):
        jobs, err = run_jobs(iojob, ["--name=" + proc] + NULL + [
            "--time_based", "--runtime=%ds" % secs, "--rate_iops=%d" % iops,
            "--rate_process=" + proc, "--write_lat_log=" + proc], d)
        if not jobs:
            return [err], ""
        t = log_times(os.path.join(d, "%s_clat.1.log" % proc))
        if not iops * secs / 2 <= len(t) <= iops * secs * 3 / 2:
            bad.append("%s: %d I/Os, %d wanted" % (proc, len(t), iops * secs))
        got[proc] = spread([b - a for a, b in zip(t, t[1:])]) if len(t) > 21 else 0
    if not (got["linear"] < 0.4 and got["poisson"] > 0.45):
        bad.append("spread linear %.2f (< 0.4), poisson %.2f (> 0.45)"
                   % (got["linear"], got["poisson"]))
    return bad, "spread (MAD / median) linear %.2f, poisson %.2f" % (got["linear"],
                                                                      got["poisson"])


def rate_ignore_thinktime_case(iojob, d):
    """rate_iops=100 with a 50 ms pause every 10 I/Os for 2 s: catching up, the job keeps
    its 100 IOPS; ignoring thinktime each 10 I/Os take 9 gaps and a pause."""
    rate, secs, think, blocks = 100, 2, 0.05, 10
    jobs, err = run_jobs(iojob, NULL + [
        "--time_based", "--runtime=%ds" % secs, "--rate_iops=%d" % rate,
        "--thinktime=%dms" % (think * 1000), "--thinktime_blocks=%d" % blocks,
        "--name=catchup", "--name=ignore", "--rate_ignore_thinktime=1"], d)
    if not jobs:
        return [err], ""
    catchup, ignore = jobs["catchup"]["read"]["total_ios"], jobs["ignore"]["read"]["total_ios"]
    want = secs / ((blocks - 1) / rate + think) * blocks
    bad = [m for ok, m in (
        (catchup >= 0.8 * rate * secs, "catching up: %d I/Os, %d wanted" % (catchup, rate * secs)),
        (0.7 * want <= ignore <= 1.2 * want and ignore < 0.85 * catchup,
         "ignoring thinktime: %d I/Os, about %d wanted" % (ignore, want))) if not ok]
    return bad, "catching up %d I/Os, ignoring thinktime %d (about %d)" % (catchup, ignore, want)


def thinktime_spin_case(iojob, d):
    """8 ms of each 10 ms pause spun: the job's CPU time is most of its runtime, against
    next to none for the job that sleeps through its pauses. Alone on a core it would be
    80%; a busy machine gives it a share of one (12% beside three busy loops on two
    cores), still far above what sleeping costs."""
    jobs, err = run_jobs(iojob, NULL + ["--time_based", "--runtime=1s", "--thinktime=10ms",
                                        "--name=spin", "--thinktime_spin=8ms", "--name=sleep",
                                        "--stonewall"], d)
    if not jobs:
        return [err], ""
    spin, sleep = (jobs[n]["usr_cpu"] + jobs[n]["sys_cpu"] for n in ("spin", "sleep"))
    bad = [] if spin >= 5 and spin > 4 * sleep + 1 else [
        "spinning %.1f%% CPU (80 alone on a core), sleeping %.1f%%" % (spin, sleep)]
    return bad, "spinning %.1f%% CPU, sleeping %.1f%%" % (spin, sleep)


def iotime_expected(rate, secs, iotime, think):
    """I/Os in the run when a pause of think is due iotime + think after the last one
    began (the first counted from the start), the rate kept from where it was."""
    t, io, due = 0.0, 0.0, iotime + think
    while t < secs:
        run_to = min(due, secs)
        io += run_to - t
        t = run_to + think
        due = run_to + iotime + think
    return rate * io


def thinktime_iotime_case(iojob, d):
    """Pauses of 400 ms after about 200 ms of I/O at 100 IOPS, not after every I/O; with
    thinktime_blocks=5 too, whichever comes first."""
    rate, secs, iotime, think = 100, 2, 0.2, 0.4
    jobs, err = run_jobs(iojob, NULL + [
        "--time_based", "--runtime=%ds" % secs, "--rate_iops=%d" % rate,
        "--rate_ignore_thinktime=1", "--thinktime=%dms" % (think * 1000),
        "--thinktime_iotime=%dms" % (iotime * 1000), "--name=iotime", "--name=blocks",
        "--thinktime_blocks=5"], d)
    if not jobs:
        return [err], ""
    got, blocks = jobs["iotime"]["read"]["total_ios"], jobs["blocks"]["read"]["total_ios"]
    want = iotime_expected(rate, secs, iotime, think)
    want_blocks = secs / (4 / rate + think) * 5
    bad = [m for ok, m in (
        (0.6 * want <= got <= 1.4 * want and got < 0.8 * rate * secs,
         "iotime alone: %d I/Os, about %d wanted" % (got, want)),
        (blocks <= 1.5 * want_blocks, "with thinktime_blocks=5: %d I/Os, at most about %d"
         % (blocks, want_blocks))) if not ok]
    return bad, "%d I/Os (about %d), with thinktime_blocks=5 %d (at most about %d)" % (
        got, want, blocks, want_blocks)


def flow_sleep_case(iojob, d):
    """flow_sleep=50ms: held back, the light job of a 3:1 flow sleeps 50 ms instead of
    retrying at once: its latency log shows those pauses (about one per 50 ms of its 2 s)."""
    sleep_ms, secs = 50, 2
    jobs, err = run_jobs(iojob, NULL + [
        "--time_based", "--runtime=%ds" % secs, "--flow_id=3",
        "--flow_sleep=%d" % (sleep_ms * 1000), "--name=heavy", "--flow=3", "--name=light",
        "--flow=1", "--write_lat_log=light"], d)
    if not jobs:
        return [err], ""
    t = log_times(os.path.join(d, "light_clat.2.log"))  # the second job
    pauses = sum(1 for a, b in zip(t, t[1:]) if b - a >= sleep_ms * 0.8)
    bad = [] if pauses >= secs * 1000 / sleep_ms / 3 else [
        "%d pauses of %d ms in the light job's %d s" % (pauses, sleep_ms, secs)]
    return bad, "%d pauses of %d ms in %d s" % (pauses, sleep_ms, secs)


def replay_case(iojob, d):
    """read_iolog keeps the log's times: 11 reads 50 ms apart take about 500 ms and their
    latency log shows 50 ms gaps; replay_time_scale=200 halves them, replay_no_stall drops
    them (tests/e2e/iolog.py checks which I/Os, in which order, not when)."""
    data = os.path.join(d, "replay.dat")
    with open(data, "wb") as f:
        f.write(os.urandom(64 << 10))
    log = os.path.join(d, "replay.log")
    with open(log, "w") as f:
        f.write("fio version 3 iolog\n0 %s add\n0 %s open\n" % (data, data))
        for i in range(11):
            f.write("%d %s read %d 4096\n" % (1000 + 50000 * i, data, 4096 * i))
    bad, shown = [], []
    for extra, gap_ms, lo, hi in (([], 50, 450, 700), (["--replay_time_scale=200"], 25, 225, 400),
                                  (["--replay_no_stall=1"], 0, 0, 100)):
        jobs, err = run_jobs(iojob, ["--name=r", "--ioengine=psync", "--read_iolog=" + log,
                                     "--write_lat_log=r", "--log_avg_msec=0"] + extra, d)
        if not jobs:
            return [err], ""
        runtime = jobs["r"]["read"]["runtime"]
        t = log_times(os.path.join(d, "r_lat.1.log"))
        gaps = [b - a for a, b in zip(t, t[1:])]
        med = statistics.median(gaps) if gaps else -1
        shown.append("%s runtime=%d ms, gap %s ms" % (" ".join(extra) or "as logged", runtime,
                                                     med))
        if not lo <= runtime <= hi or abs(med - gap_ms) > max(5, gap_ms * 0.3):
            bad.append(shown[-1] + " (want %d-%d ms, gaps %d)" % (lo, hi, gap_ms))
        fio = shutil.which("fio")
        if not fio:
            continue
        # fio's replay of the same log keeps the same times
        p = subprocess.run([fio, "--output-format=json", "--name=r", "--ioengine=psync",
                            "--read_iolog=" + log] + extra, cwd=d, capture_output=True,
                           text=True, timeout=120)
        fruntime = json.loads(p.stdout)["jobs"][0]["read"]["runtime"] if p.returncode == 0 \
            else -1
        shown.append("fio %d ms" % fruntime)
        if not lo <= fruntime <= hi:
            bad.append("fio's replay %s: runtime=%d ms (want %d-%d)" %
                       (" ".join(extra) or "as logged", fruntime, lo, hi))
    return bad, "; ".join(shown)


# name, function(iojob, scratch directory) -> (what is out of bounds, what was measured)
OPTION_CASES = [("rate_process", rate_process_case),
                ("rate_ignore_thinktime", rate_ignore_thinktime_case),
                ("thinktime_spin", thinktime_spin_case),
                ("thinktime_iotime", thinktime_iotime_case),
                ("flow_sleep", flow_sleep_case),
                ("read_iolog timing", replay_case)]


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
    a.iojob = os.path.abspath(a.iojob)  # the option cases run in a scratch directory
    failed = 0
    for name, opts, bounds in CASES:
        for i in range(a.n):
            rd, err = run_case(a.iojob, opts)
            bad = [err] if rd is None else [
                "%s=%s not in [%d, %d]" % (k, rd[k], lo, hi)
                for k, (lo, hi) in bounds.items() if not lo <= rd[k] <= hi]
            shown = "" if rd is None else " ".join("%s=%s" % (k, rd[k]) for k in bounds)
            print("%-21s run %d: %s %s" % (name, i + 1, "ok  " if not bad else "FAIL",
                                         "; ".join(bad) or shown))
            failed += bool(bad)
    for i in range(a.n):
        bad, shown = signal_case(a.iojob)
        print("%-21s run %d: %s %s" % ("sigint", i + 1, "ok  " if not bad else "FAIL",
                                     "; ".join(bad) or shown))
        failed += bool(bad)
    for name, case in OPTION_CASES:
        for i in range(a.n):
            d = tempfile.mkdtemp(prefix="iojob-timing-")
            try:
                bad, shown = case(a.iojob, d)
            finally:
                shutil.rmtree(d, ignore_errors=True)
            print("%-21s run %d: %s %s" % (name, i + 1, "ok  " if not bad else "FAIL",
                                         "; ".join(bad) or shown))
            failed += bool(bad)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
