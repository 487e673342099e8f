#!/usr/bin/env python3
"""fio's rate, flow and timing options, each by its effect: rate_process's gaps,
rate_min and rate_iops_min failing a job made slow on purpose, flow's count ratio,
rate_ignore_thinktime's missed I/Os, thinktime_spin's CPU time, thinktime_blocks_type's
I/Os between pauses, thinktime_iotime's I/O time, io_submit_mode=offload's threads.
Every bound is derived from the job's own numbers and kept loose: counts, not timings."""
import json
import os
import re
import shutil
import statistics
import subprocess

from common import BIN, Checks, engine_available, remove, run, scratch_dir

NULL = ["--ioengine=null", "--rw=read", "--bs=4k", "--size=1g"]


def jobs_of(c, d, args, what):
    code, out, err = run(args + ["--output-format=json"], cwd=d)
    c.check(code == 0, "%s: exit %d %s" % (what, code, err[-400:]))
    return {j["jobname"]: j for j in json.loads(out)["jobs"]} if code == 0 else None


def log_times(path):
    with open(path) as f:
        return [int(line.split(",")[0]) for line in f if line.strip()]


def spread(gaps):
    """Median absolute deviation over the median: for exponential gaps 0.69 (ln of the
    golden ratio over ln 2), for even ones near 0; a late wakeup and the catch-up after it
    move the median of neither, as they move a standard deviation."""
    med = statistics.median(gaps)
    return statistics.median(abs(g - med) for g in gaps) / med if med else 0


def check_rate_process(c, d):
    """poisson: exponential gaps; linear: even gaps. At 50 IOPS the mean gap is 20 ms,
    well above the log's 1 ms resolution."""
    iops, secs = 50, 4
    got = {}
    for proc in ("linear", "poisson"):
        jobs = jobs_of(c, d, ["--name=" + proc] + NULL +
                       ["--time_based", "--runtime=%ds" % secs, "--rate_iops=%d" % iops,
                        "--rate_process=" + proc, "--write_lat_log=" + proc], proc)
        if not jobs:
            return
        t = log_times(os.path.join(d, "%s_clat.1.log" % proc))
        gaps = [b - a for a, b in zip(t, t[1:])]
        want = iops * secs
        c.check(want / 2 <= len(t) <= want * 3 / 2,
                "rate_process=%s: %d I/Os in %d s at rate_iops=%d" % (proc, len(t), secs, iops))
        if len(gaps) > 20:
            got[proc] = spread(gaps)
    if len(got) == 2:
        c.check(got["linear"] < 0.4 and got["poisson"] > 0.45,
                "gaps' spread (MAD / median): linear %.2f (near 0), poisson %.2f (near 0.69)"
                % (got["linear"], got["poisson"]))


def check_rate_min(c, d):
    """A job paused 50 ms after each I/O does about 20 IOPS: a floor of 100 fails it once
    the 2 s settling and a rate_cycle are past, long before its runtime ends. The same
    job with a floor it keeps (5) runs to its end."""
    cycle_ms = 300
    slow = ["--name=slow"] + NULL + ["--time_based", "--runtime=30s", "--thinktime=50ms",
                                     "--ratecycle=%d" % cycle_ms]
    for opt, floor, unit in (("rate_iops_min", "100", "IOPS"), ("ratemin", "400k", "B/s")):
        code, out, err = run(slow + ["--%s=%s" % (opt, floor)], cwd=d, timeout=60)
        m = re.search(r"not met: \d+ %s of reads over the last (\d+) ms" % unit, err)
        c.check(code == 1 and m, "%s=%s under a 20 IOPS job: exit %d, %s"
                % (opt, floor, code, err[-300:]))
        # measured over rate_cycle: checked at the first I/O past it (one every 50 ms),
        # well before the default cycle of 1000 ms
        c.check(m and cycle_ms <= int(m.group(1)) < 1000, "rate_cycle=%d: the window "
                "measured: %s" % (cycle_ms, m and m.group(1)))
    code, out, err = run(["--name=kept"] + NULL + ["--time_based", "--runtime=3s",
                                                   "--thinktime=50ms", "--rate_cycle=500",
                                                   "--rate_iops_min=5"], cwd=d, timeout=60)
    c.check(code == 0, "rate_iops_min=5 under a 20 IOPS job passes: exit %d %s" % (code, err))
    code, _, err = run(["--name=x"] + NULL + ["--rate_iops=10", "--rate_iops_min=20",
                                              "--parse-only"], cwd=d)
    c.check(code == 2 and "rate_iops_min" in err, "a floor above the cap is refused: %s" % err)


def check_flow(c, d):
    """Two jobs of flow_id 3 weighted 3 and 1 do I/O in that ratio while both run; a job
    alone in flow_id 4 is held by nobody."""
    pair = NULL + ["--time_based", "--runtime=1s", "--flow_id=3", "--name=heavy", "--flow=3",
                   "--name=light", "--flow=1"]
    jobs = jobs_of(c, d, pair + ["--name=alone", "--flow_id=4", "--flow=1"], "flow")
    if not jobs:
        return
    heavy, light, alone = (jobs[n]["read"]["total_ios"] for n in ("heavy", "light", "alone"))
    ratio = heavy / max(light, 1)
    c.check(2.2 <= ratio <= 4, "flow=3 against flow=1: I/O ratio %.2f (%d / %d), not 3"
            % (ratio, heavy, light))
    # in flow 3 as well it would do what the light one does, weighing as much
    c.check(alone > 2 * light, "a job alone in its flow_id is not held: %d I/Os, the light "
            "one %d" % (alone, light))
    # flow_sleep: held back, a job sleeps 50 ms instead of retrying at once: the light
    # job's log shows those pauses (about one per 50 ms of its 2 s), and the ratio holds
    sleep_ms, secs = 50, 2
    jobs = jobs_of(c, d, NULL + ["--time_based", "--runtime=%ds" % secs, "--flow_id=3",
                                 "--flow_sleep=%d" % (sleep_ms * 1000), "--name=heavy",
                                 "--flow=3", "--name=light", "--flow=1",
                                 "--write_lat_log=light"], "flow_sleep")
    if jobs:
        heavy, light = (jobs[n]["read"]["total_ios"] for n in ("heavy", "light"))
        c.check(2 <= heavy / max(light, 1) <= 4.5, "flow_sleep: ratio %d / %d" % (heavy, light))
        t = log_times(os.path.join(d, "light_clat.2.log"))  # the second job
        pauses = sum(1 for a, b in zip(t, t[1:]) if b - a >= sleep_ms * 0.8)
        c.check(pauses >= secs * 1000 / sleep_ms / 3, "flow_sleep=%d ms: %d pauses in the "
                "light job's %d s" % (sleep_ms, pauses, secs))


def check_rate_ignore_thinktime(c, d):
    """rate_iops=100 with a 50 ms pause every 10 I/Os: by default the job catches up after
    each pause and keeps 100 IOPS; ignoring thinktime it goes on at the rate, so each 10
    I/Os take 9 gaps and a pause."""
    rate, secs, think, blocks = 100, 2, 0.05, 10
    base = NULL + ["--time_based", "--runtime=%ds" % secs, "--rate_iops=%d" % rate,
                   "--thinktime=%dms" % (think * 1000), "--thinktime_blocks=%d" % blocks]
    jobs = jobs_of(c, d, base + ["--name=catchup", "--name=ignore",
                                 "--rate_ignore_thinktime=1"], "rate_ignore_thinktime")
    if not jobs:
        return
    catchup, ignore = jobs["catchup"]["read"]["total_ios"], jobs["ignore"]["read"]["total_ios"]
    want_ignore = secs / ((blocks - 1) / rate + think) * blocks
    c.check(catchup >= 0.8 * rate * secs, "catching up after pauses: %d I/Os, %d wanted"
            % (catchup, rate * secs))
    c.check(0.7 * want_ignore <= ignore <= 1.2 * want_ignore and ignore < 0.85 * catchup,
            "rate_ignore_thinktime: %d I/Os, about %d wanted (%d catching up)"
            % (ignore, want_ignore, catchup))


def check_thinktime_spin(c, d):
    """8 ms of each 10 ms pause spun: the job's user CPU is most of its runtime, against
    next to none for the job that sleeps through its pauses."""
    base = NULL + ["--time_based", "--runtime=1s", "--thinktime=10ms"]
    jobs = jobs_of(c, d, base + ["--name=spin", "--thinktime_spin=8ms", "--name=sleep",
                                 "--stonewall"], "thinktime_spin")
    if not jobs:
        return
    spin = jobs["spin"]["usr_cpu"] + jobs["spin"]["sys_cpu"]
    sleep = jobs["sleep"]["usr_cpu"] + jobs["sleep"]["sys_cpu"]
    # alone on a core it would be 80%; a busy machine gives it a share of one (12% beside
    # three busy loops on two cores), still far above what sleeping costs
    c.check(spin >= 5 and spin > 4 * sleep + 1, "thinktime_spin: %.1f%% CPU, %.1f%% without"
            % (spin, sleep))


def batches(path, think_ms):
    t = log_times(path)
    return len(t), 1 + sum(1 for a, b in zip(t, t[1:]) if b - a >= think_ms / 2)


def check_thinktime_blocks_type(c, d):
    """iodepth=8, a pause every 2 I/Os: counted as issued, 2 I/Os go between pauses;
    counted as completed, the queue fills (8) before 2 have completed."""
    ios, think_ms = 48, 20
    base = NULL + ["--number_ios=%d" % ios, "--iodepth=8", "--thinktime=%dms" % think_ms,
                   "--thinktime_blocks=2"]
    per_batch = {}
    for kind in ("issue", "complete"):
        if not jobs_of(c, d, ["--name=" + kind] + base + ["--thinktime_blocks_type=" + kind,
                                                          "--write_lat_log=" + kind], kind):
            return
        n, b = batches(os.path.join(d, "%s_clat.1.log" % kind), think_ms)
        c.check(n == ios, "%s: %d I/Os logged" % (kind, n))
        per_batch[kind] = n / b
    c.check(per_batch["issue"] <= 2.5 and per_batch["complete"] >= 4,
            "I/Os between pauses: issue %.1f (2), complete %.1f (up to 8)"
            % (per_batch["issue"], per_batch["complete"]))


def iotime_expected(rate, secs, iotime, think):
    """I/O time in the run when a pause of think is due iotime + think after the last one
    began (the first counted from the start), the rate kept from where it was."""
    t, io, due = 0.0, 0.0, iotime + think
    while t < secs:
        run_to = min(due, secs)
        io += run_to - t
        t = run_to + think
        due = run_to + iotime + think
    return rate * io


def check_thinktime_iotime(c, d):
    """thinktime_iotime alone: pauses of 400 ms after about 200 ms of I/O, not after every
    I/O (thinktime_blocks' default); with thinktime_blocks=5 too, whichever comes first."""
    rate, secs, iotime, think = 100, 2, 0.2, 0.4
    base = NULL + ["--time_based", "--runtime=%ds" % secs, "--rate_iops=%d" % rate,
                   "--rate_ignore_thinktime=1", "--thinktime=%dms" % (think * 1000),
                   "--thinktime_iotime=%dms" % (iotime * 1000)]
    jobs = jobs_of(c, d, base + ["--name=iotime", "--name=blocks", "--thinktime_blocks=5"],
                   "thinktime_iotime")
    if not jobs:
        return
    got, blocks = jobs["iotime"]["read"]["total_ios"], jobs["blocks"]["read"]["total_ios"]
    want = iotime_expected(rate, secs, iotime, think)
    c.check(0.6 * want <= got <= 1.4 * want and got < 0.8 * rate * secs,
            "thinktime_iotime: %d I/Os, about %d wanted" % (got, want))
    want_blocks = secs / (4 / rate + think) * 5
    c.check(blocks <= 1.5 * want_blocks, "thinktime_iotime with thinktime_blocks=5: %d I/Os, "
            "at most about %d wanted" % (blocks, want_blocks))


# The call each engine reads with, and where its descriptor shows in strace's line.
READ_CALLS = {"psync": ("pread64", r"pread64\((\d+),"),
              "libaio": ("io_submit", r"io_submit\(.*aio_fildes=(\d+)")}


def read_threads(trace, name, call):
    """From strace -f: the thread that opened name last, and how many read calls (call,
    a pattern whose group is the descriptor) on it each thread made."""
    opener, fd, calls = None, None, {}
    for line in trace.splitlines():
        m = re.match(r'(\d+)\s+openat\(.*"%s".*\)\s+=\s+(\d+)' % re.escape(name), line)
        if m:
            opener, fd, calls = m.group(1), m.group(2), {}
            continue
        m = re.match(r"(\d+)\s+" + call, line)
        if m and m.group(2) == fd:
            calls[m.group(1)] = calls.get(m.group(1), 0) + 1
    return opener, calls


def check_offload_engine(c, d, engine, depth):
    job = ["--name=off", "--ioengine=" + engine, "--filename=off.dat", "--size=1m",
           "--bs=4k", "--rw=randread", "--iodepth=%d" % depth]
    syscall, pattern = READ_CALLS[engine]
    for mode in ("inline", "offload"):
        p = subprocess.run(["strace", "-f", "-qq", "-e", "trace=openat," + syscall, "-o",
                            "trace.txt", BIN]
                           + job + ["--io_submit_mode=" + mode, "--output-format=json"],
                           cwd=d, capture_output=True, text=True, timeout=120)
        c.check(p.returncode == 0, "%s %s under strace: %s" % (engine, mode, p.stderr[-300:]))
        with open(os.path.join(d, "trace.txt")) as f:
            opener, calls = read_threads(f.read(), "off.dat", pattern)
        total = sum(calls.values())
        c.check(total >= 256, "%s %s: %d reads of off.dat traced" % (engine, mode, total))
        if mode == "inline":
            c.check(set(calls) == {opener}, "%s inline: the job's thread reads: %s"
                    % (engine, calls))
            continue
        c.check(opener not in calls and len(calls) == depth,
                "%s offload: %d threads read, none the job's: %s (opener %s)"
                % (engine, depth, calls, opener))
        if p.returncode == 0:
            level = json.loads(p.stdout)["jobs"][0]["iodepth_level"][str(depth)]
            c.check(level > 50, "%s offload keeps iodepth=%d in flight: %s%% of the time"
                    % (engine, depth, level))


def check_offload(c, d):
    """offload: the job's thread opens the file, and iodepth other threads read it, each
    with its own engine; inline the job's thread does every read. An engine that cannot
    share a descriptor between threads is refused, with the reason."""
    if not shutil.which("strace"):
        c.skip("strace not installed: no io_submit_mode=offload check")
        return
    code, _, err = run(["--name=off", "--filename=off.dat", "--size=1m", "--create_only=1"],
                       cwd=d)
    c.check(code == 0, "laying out off.dat: %s" % err)
    check_offload_engine(c, d, "psync", 4)
    if engine_available("libaio"):
        check_offload_engine(c, d, "libaio", 4)
    else:
        c.skip("libaio not built: offload checked with psync alone")
    for engine, why in (("posixaio", "cannot share one"), ("sync", "file position")):
        code, _, err = run(["--name=x", "--ioengine=" + engine, "--io_submit_mode=offload",
                            "--size=1m", "--parse-only"], cwd=d)
        c.check(code == 2 and why in err, "offload with %s: %s" % (engine, err))


def main():
    c = Checks("opts_rates")
    for check in (check_rate_process, check_rate_min, check_flow, check_rate_ignore_thinktime,
                  check_thinktime_spin, check_thinktime_blocks_type, check_thinktime_iotime,
                  check_offload):
        d = scratch_dir()
        try:
            check(c, d)
        finally:
            remove(d)
    c.finish()


if __name__ == "__main__":
    main()
