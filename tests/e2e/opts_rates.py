#!/usr/bin/env python3
"""fio's rate, flow and timing options, each by an effect that no load can change: the
sleep calls a job makes (strace), its I/O counts, its threads. rate_min and rate_iops_min
fail a job made slow on purpose; flow keeps its count ratio, and flow_sleep sleeps where
the flow alone yields; rate_ignore_thinktime sleeps between the I/Os after a pause where
catching up does not; thinktime_spin spins instead of sleeping; thinktime_blocks_type and
thinktime_iotime change the number of pauses; thinkcycles spins; ramp_size keeps its
ramp's reads out of the report; io_submit_mode=offload reads on its threads;
no pause (a rate gap, thinktime) outlasts runtime=.
How the timing itself turns out (rate_process's gaps, I/Os done in a runtime, CPU spent)
is measured in tests/bench/timing.py, run by hand: no bound here is on a measured time
but rate_min's window, whose slack is most of a second, and thinkcycles' floor of CPU
time, which load can only raise."""
import json
import os
import re
import shutil
import subprocess

from common import BIN, Checks, engine_available, run, split_normal_json, traced_env

NULL = ["--ioengine=null", "--rw=read", "--bs=4k", "--size=1g"]
# a job's pauses wait on a futex with a timeout (so that a stop ends them): those are its sleeps
SLEEPS = ("clock_nanosleep", "nanosleep", "futex")
MS = 1000000


def jobs_of(c, d, args, what):
    code, out, err = run(args + ["--output-format=json"], cwd=d)
    c.check(code == 0, "%s: exit %d %s" % (what, code, err[-400:]))
    return {j["jobname"]: j for j in json.loads(out)["jobs"]} if code == 0 else None


def traced(c, d, args, what, calls=SLEEPS):
    """Run iojob under strace -f, tracing calls: (its jobs by name, or None; the calls its
    jobs' threads made, each as (job name, call, the sleep it asked for in ns or None)).
    The threads are told by the pid= of the normal report: another thread's calls (the
    main thread's, a ThreadSanitizer runtime's) are left out. A call that blocks shows as
    one line that starts it (its arguments) and one that resumes it: the first alone is
    counted."""
    p = subprocess.run(["strace", "-f", "-qq", "-e", "trace=" + ",".join(calls), "-o",
                        "trace.txt", BIN] + args + ["--output-format=normal,json"],
                       cwd=d, capture_output=True, text=True, timeout=120, env=traced_env())
    c.check(p.returncode == 0, "%s under strace: exit %d %s"
            % (what, p.returncode, p.stderr[-400:]))
    if p.returncode != 0:
        return None, []
    text, doc = split_normal_json(p.stdout)
    tids = dict((tid, name) for name, tid in
                re.findall(r"^(\S+): \(groupid=\d+, jobs=\d+\): err=\s*\d+: pid=(\d+)", text,
                           re.M))
    jobs = {j["jobname"]: j for j in doc["jobs"]}
    c.check(sorted(tids.values()) == sorted(jobs), "%s: the jobs' threads: %s" % (what, tids))
    made = []
    with open(os.path.join(d, "trace.txt")) as f:
        for line in f:
            m = re.match(r"(\d+)\s+(\w+)\((.*)", line)
            if not m or m.group(1) not in tids or m.group(2) not in calls:
                continue
            ts = re.search(r"\{tv_sec=(\d+), tv_nsec=(\d+)\}", m.group(3))
            made.append((tids[m.group(1)], m.group(2),
                         int(ts.group(1)) * 1000 * MS + int(ts.group(2)) if ts else None))
    return jobs, made


def sleeps(made, at_least=0, below=None, job=None):
    """The sleeps among made (of job, or any) that asked for at_least ns, less than below."""
    return [ns for name, call, ns in made if call in SLEEPS and ns is not None and
            ns >= at_least and (below is None or ns < below) and job in (None, name)]


def yields(made, job):
    return sum(1 for name, call, _ in made if call == "sched_yield" and name == job)


def check_rate_min(c, d):
    """A job paused 50 ms after each I/O does about 20 IOPS: a floor of 100 fails it once
    the 2 s settling and a rate_cycle are past, long before its runtime ends (slower, it
    fails all the same). The same job with a floor it keeps (2 IOPS, a tenth of its rate)
    runs to its end."""
    cycle_ms = 200
    slow = ["--name=slow"] + NULL + ["--time_based", "--runtime=30s", "--thinktime=50ms",
                                     "--ratecycle=%d" % cycle_ms]
    for opt, floor, unit in (("rate_iops_min", "100", "IOPS"), ("ratemin", "400k", "B/s")):
        code, out, err = run(slow + ["--%s=%s" % (opt, floor)], cwd=d, timeout=60)
        m = re.search(r"not met: \d+ %s of reads over the last (\d+) ms" % unit, err)
        c.check(code == 1 and m, "%s=%s under a 20 IOPS job: exit %d, %s"
                % (opt, floor, code, err[-300:]))
        # measured over rate_cycle: checked at the first I/O past it (one every 50 ms),
        # where the default cycle would measure 1000 ms or more: 800 ms of slack for a
        # job woken late
        c.check(m and cycle_ms <= int(m.group(1)) < 1000, "rate_cycle=%d: the window "
                "measured: %s" % (cycle_ms, m and m.group(1)))
    # checked at 3 s over the second since the mark at 2 s: it would take pauses of
    # 500 ms, not 50, to fall under 2 IOPS
    code, out, err = run(["--name=kept"] + NULL + ["--time_based", "--runtime=3500ms",
                                                   "--thinktime=50ms", "--rate_cycle=1000",
                                                   "--rate_iops_min=2"], cwd=d, timeout=60)
    c.check(code == 0, "rate_iops_min=2 under a 20 IOPS job passes: exit %d %s" % (code, err))
    code, _, err = run(["--name=x"] + NULL + ["--rate_iops=10", "--rate_iops_min=20",
                                              "--parse-only"], cwd=d)
    c.check(code == 2 and "rate_iops_min" in err, "a floor above the cap is refused: %s" % err)


def check_flow(c, d):
    """Two jobs of flow_id 3 weighted 3 and 1 do I/O in that ratio while both run (each
    I/O is let through only within the job's share); held back, each yields (flow_sleep=0)
    and a job alone in flow_id 4, held by nobody, is not (a yield now and then of a
    sanitizer's runtime aside). With flow_sleep=50ms a job held back sleeps 50 ms instead
    of yielding."""
    pair = NULL + ["--time_based", "--runtime=1s", "--flow_id=3", "--name=heavy", "--flow=3",
                   "--name=light", "--flow=1"]
    jobs, made = traced(c, d, pair + ["--name=alone", "--flow_id=4", "--flow=1"], "flow",
                        SLEEPS + ("sched_yield",))
    if not jobs:
        return
    heavy, light, alone = (jobs[n]["read"]["total_ios"] for n in ("heavy", "light", "alone"))
    ratio = heavy / max(light, 1)
    c.check(2.2 <= ratio <= 4, "flow=3 against flow=1: I/O ratio %.2f (%d / %d), not 3"
            % (ratio, heavy, light))
    # in flow 3 as well it would do what the light one does, weighing as much (it does
    # tens of times more, unheld)
    c.check(alone > light, "a job alone in its flow_id is not held: %d I/Os, the light one %d"
            % (alone, light))
    # a sanitizer's runtime (its spin locks) or the C library may yield now and then on
    # any thread: the flow's holds are told by being many, not by the others being none
    got = {n: yields(made, n) for n in ("heavy", "light", "alone")}
    held = got["heavy"] + got["light"]
    c.check(held >= 20 and got["alone"] * 20 <= held and not sleeps(made),
            "flow_sleep=0: the flow's jobs yield, the one alone in its flow does not: "
            "yields %s, %d sleeps" % (got, len(sleeps(made))))
    sleep_ms = 50
    jobs, made = traced(c, d, NULL + ["--time_based", "--runtime=1s", "--flow_id=3",
                                      "--flow_sleep=%d" % (sleep_ms * 1000), "--name=heavy",
                                      "--flow=3", "--name=light", "--flow=1"], "flow_sleep",
                        SLEEPS + ("sched_yield",))
    if jobs:
        heavy, light = (jobs[n]["read"]["total_ios"] for n in ("heavy", "light"))
        c.check(2 <= heavy / max(light, 1) <= 4.5, "flow_sleep: ratio %d / %d" % (heavy, light))
        # asked for 50 ms less the lateness pace_sleep has learned (at most 1 ms); which
        # job is held back when is the threads' race: both are, in practice. Each job's
        # last one may be shorter: no pause outlasts the runtime
        long_ones, all_ones = sleeps(made, (sleep_ms - 2) * MS), sleeps(made)
        n = {j: (len(sleeps(made, job=j)), yields(made, j)) for j in ("heavy", "light")}
        c.check(long_ones and len(all_ones) - len(long_ones) <= 2 and
                n["heavy"][1] + n["light"][1] <= len(long_ones) // 4,
                "flow_sleep=%d ms: %d sleeps, %d of them of %d ms; "
                "(sleeps, yields) by job: %s" % (sleep_ms, len(all_ones), len(long_ones),
                                                 sleep_ms, n))


def check_rate_ignore_thinktime(c, d):
    """rate_iops=100 (a gap of 10 ms) with a 50 ms pause every 3 I/Os, 60 I/Os: 20 pauses.
    Catching up (the default), the job is behind its schedule after the first pause and
    for good (each 3 I/Os are due 30 ms apart, each pause lasts at least 49 ms), so the
    rate makes it sleep only before that pause: twice. Ignoring thinktime, the schedule
    starts again after each pause: the first I/O goes at once, the next two wait a gap
    each, 40 rate sleeps; at least the second's (unless an I/O took 10 ms) even on a busy
    machine, so at least 10 are asked for. A pause asks for 49 ms or more, a rate sleep
    10 ms or less: told apart by what strace shows they asked."""
    ios, blocks, think_ms = 60, 3, 50
    base = NULL + ["--number_ios=%d" % ios, "--rate_iops=100", "--thinktime=%dms" % think_ms,
                   "--thinktime_blocks=%d" % blocks]
    pauses = ios // blocks
    got = {}
    for name, extra in (("catchup", []), ("ignore", ["--rate_ignore_thinktime=1"])):
        jobs, made = traced(c, d, ["--name=" + name] + base + extra, name)
        if not jobs:
            return
        c.check(jobs[name]["read"]["total_ios"] == ios, "%s: %d I/Os"
                % (name, jobs[name]["read"]["total_ios"]))
        thinks = len(sleeps(made, (think_ms - 2) * MS))
        got[name] = len(sleeps(made, 0, 11 * MS))
        c.check(pauses - 1 <= thinks <= pauses and thinks + got[name] == len(sleeps(made)),
                "%s: %d pauses, %d wanted; %d rate sleeps, %d sleeps in all"
                % (name, thinks, pauses, got[name], len(sleeps(made))))
    c.check(got["catchup"] <= blocks and got["ignore"] >= pauses / 2,
            "rate sleeps: catching up %d (%d before the first pause, none after), "
            "rate_ignore_thinktime %d (about %d)" % (got["catchup"], blocks - 1,
                                                     got["ignore"], pauses * (blocks - 1)))


def check_thinktime_spin(c, d):
    """20 I/Os, a pause of 4 ms after each: without thinktime_spin each pause is a sleep of
    about 4 ms (less what pace_sleep learned of the timer's lateness, at most 1 ms);
    spinning 3 ms of it, a sleep of 1 ms at most; spinning all of it, no sleep at all."""
    base = NULL[:3] + ["--size=80k", "--thinktime=4ms"]
    for spin, low, high in (("0", 3 * MS, 4 * MS), ("3ms", 0, MS), ("4ms", None, None)):
        jobs, made = traced(c, d, ["--name=t"] + base + ["--thinktime_spin=" + spin],
                            "thinktime_spin=" + spin)
        if not jobs:
            return
        asked = sleeps(made)
        if low is None:
            c.check(len(asked) < 3, "thinktime_spin=4ms of 4: %d sleeps" % len(asked))
            continue
        c.check(len(asked) >= 19 and all(low <= ns <= high for ns in asked),
                "thinktime_spin=%s of 4 ms: %d sleeps (20 pauses) of %d to %d us wanted: %s"
                % (spin, len(asked), low // 1000, high // 1000, asked[:5]))


def child_cpu(args, d):
    """(exit code, stderr, user CPU seconds) of one iojob run."""
    before = os.times()
    p = subprocess.run([BIN] + args + ["--output=/dev/null"], cwd=d, capture_output=True,
                       text=True, timeout=300)
    return p.returncode, p.stderr, os.times().children_user - before.children_user


def check_thinkcycles(c, d):
    """fio HEAD's thinkcycles: 64 reads, 10^6 spin-wait hints after each, no sleep. No
    clock can tell it, and no load can make the work cheaper: 6.4e7 PAUSEs are at least
    0.19 s of user CPU on the fastest x86 (3 ns each; 19 ns on this machine's EPYC, as in
    fio HEAD: 256 x 10^5 took 486 ms there, 519 in iojob), where the same job without them
    takes a few ms; 0.05 s over it is the bound."""
    base = ["--name=t", "--filename=t.dat", "--size=256k", "--bs=4k", "--rw=randread",
            "--ioengine=psync"]
    code, err, plain = child_cpu(base, d)
    c.check(code == 0, "without thinkcycles: exit %d %s" % (code, err))
    code, err, spun = child_cpu(base + ["--thinkcycles=1000000"], d)
    c.check(code == 0 and spun > plain + 0.05, "thinkcycles=1000000 x 64 reads: %.3f s of "
            "user CPU, without %.3f: %d %s" % (spun, plain, code, err))
    jobs, made = traced(c, d, base + ["--thinkcycles=1000"], "thinkcycles")
    asked = sleeps(made)
    c.check(jobs and jobs["t"]["read"]["total_ios"] == 64 and not asked,
            "thinkcycles: 64 reads and no sleep: %s" % asked[:3])


def check_ramp_size(c, d):
    """fio HEAD's ramp_size: nothing is measured until the job, or under group_reporting
    its group, did that many bytes. 512 reads paced at 1000/s, ramp_size=200k: at least
    the first 50 reads are the ramp's, so at most 462 are reported (all 512 without it;
    the ramp ends at the next look, every 10 ms, with 460 ms of reads still to come). Two
    clones under group_reporting with 400k end their ramp together once both did 100
    reads, so at most 924 of 1024 are reported. ramp_time with it is refused, as fio HEAD
    rejects the job."""
    base = ["--name=r", "--filename=r.dat", "--size=2m", "--bs=4k", "--rw=randread",
            "--ioengine=psync", "--rate_iops=1000"]
    jobs = jobs_of(c, d, base, "no ramp")
    c.check(jobs and jobs["r"]["read"]["total_ios"] == 512, "without ramp_size: 512 reads")
    jobs = jobs_of(c, d, base + ["--ramp_size=200k"], "ramp_size=200k")
    ios = jobs["r"]["read"]["total_ios"] if jobs else -1
    c.check(0 < ios <= 462, "ramp_size=200k: %d reads measured, 1 to 462 wanted" % ios)
    code, out, err = run(base + ["--ramp_size=400k", "--numjobs=2", "--group_reporting",
                                 "--output-format=json"], cwd=d)
    ios = json.loads(out)["jobs"][0]["read"]["total_ios"] if code == 0 else -1
    c.check(0 < ios <= 924, "ramp_size=400k over a group of 2: %d reads measured, 1 to "
            "924 wanted: %s" % (ios, err))
    code, _, err = run(base + ["--ramp_size=200k", "--ramp_time=1"], cwd=d)
    c.check(code == 2 and "not both" in err, "ramp_size with ramp_time: %d %s" % (code, err))


def check_thinktime_blocks_type(c, d):
    """iodepth=8, a pause every 2 I/Os, 48 I/Os: counted as issued, 2 I/Os go between
    pauses (24 pauses); counted as completed, the queue fills (8) before 2 have completed
    (6 pauses). The null engine completes on reaping, whatever the clock: the counts are
    the loop's."""
    ios, think_ms = 48, 20
    base = NULL + ["--number_ios=%d" % ios, "--iodepth=8", "--thinktime=%dms" % think_ms,
                   "--thinktime_blocks=2"]
    got = {}
    for kind in ("issue", "complete"):
        jobs, made = traced(c, d, ["--name=" + kind] + base + ["--thinktime_blocks_type=" +
                                                               kind], kind)
        if not jobs:
            return
        c.check(jobs[kind]["read"]["total_ios"] == ios, "%s: %d I/Os"
                % (kind, jobs[kind]["read"]["total_ios"]))
        got[kind] = len(sleeps(made))
    c.check(got["issue"] >= ios / 2 - 1 and got["complete"] <= ios / 3,
            "pauses in %d I/Os: issue %d (%d), complete %d (about %d)"
            % (ios, got["issue"], ios // 2, got["complete"], ios // 8))


def check_thinktime_iotime(c, d):
    """thinktime_iotime alone: no pause after every I/O (thinktime_blocks' default), but
    after that much I/O time: 200 null I/Os take far less than 60 s, so none. With
    thinktime_blocks=5 as well, whichever comes first: a pause every 5 I/Os. And one is
    due: 30 I/Os at rate_iops=100 take 290 ms at least (the rate never lets an I/O go
    early), past a first pause due 150 ms (100 ms of I/O, 50 of thinktime) into the run.
    How many pauses a run of given length holds is timing: tests/bench/timing.py."""
    base = NULL + ["--number_ios=200", "--thinktime=1ms", "--thinktime_iotime=60s"]
    for extra, lo, hi in (([], 0, 0), (["--thinktime_blocks=5"], 39, 40)):
        jobs, made = traced(c, d, ["--name=t"] + base + extra, "thinktime_iotime")
        if not jobs:
            return
        n = len(sleeps(made))
        c.check(lo <= n <= hi, "thinktime_iotime=60s %s: %d pauses in 200 I/Os, %d to %d "
                "wanted" % (" ".join(extra), n, lo, hi))
    jobs, made = traced(c, d, ["--name=t"] + NULL + ["--number_ios=30", "--rate_iops=100",
                                                     "--thinktime=50ms",
                                                     "--thinktime_iotime=100ms"],
                        "thinktime_iotime at a rate")
    if jobs:
        n = len(sleeps(made, 48 * MS))
        c.check(n >= 1, "thinktime_iotime=100ms over 30 I/Os at 100 IOPS: %d pauses" % n)


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
                           cwd=d, capture_output=True, text=True, timeout=120,
                           env=traced_env())
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


def check_pauses_end_at_runtime(c, d):
    """No pause outlasts runtime=: a rate gap of 45 minutes (4 KiB at rate=1.5), a thinktime
    of an hour, a rate gap of a minute while the runtime is over before it ends. Each job
    ends and reports well within the minute it is given (it slept the whole pause: issue
    27). At rate_iops=10 a second holds 10 I/Os, the first at once, as fio does; the one
    due at the runtime's end is not issued."""
    for extra, most in ((["--rate=1.5"], 1), (["--thinktime=1h"], 1),
                        (["--bs=64k", "--rate=1k"], 1),
                        (["--rate_iops=10", "--rate_process=linear"], 10)):
        what = " ".join(extra)
        try:
            code, out, err = run(NULL + ["--name=p", "--runtime=1", "--time_based",
                                         "--output-format=json"] + extra, cwd=d, timeout=60)
        except subprocess.TimeoutExpired:
            c.check(False, "%s --runtime=1: still running after 60 s" % what)
            continue
        c.check(code == 0, "%s: exit %d %s" % (what, code, err[-400:]))
        if code != 0:
            continue
        ios = json.loads(out)["jobs"][0]["read"]["total_ios"]
        c.check(1 <= ios <= most, "%s: %d I/Os in 1 s, 1 to %d wanted" % (what, ios, most))


def main():
    c = Checks("opts_rates")
    # every check but rate_min's counts calls under strace (check_offload skips itself)
    for check in (check_rate_min, check_pauses_end_at_runtime, check_flow, check_rate_ignore_thinktime,
                  check_thinktime_spin, check_thinkcycles, check_thinktime_blocks_type, check_thinktime_iotime,
                  check_offload, check_ramp_size):
        if check not in (check_rate_min, check_pauses_end_at_runtime, check_offload,
                         check_ramp_size) and not shutil.which("strace"):
            c.skip("strace not installed: no %s" % check.__name__)
            continue
        c.in_scratch(check)
    c.finish()


if __name__ == "__main__":
    main()
