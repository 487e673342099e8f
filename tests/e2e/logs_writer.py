#!/usr/bin/env python3
"""Per-I/O logs written while the job runs (engine/observe/logs_writer.c): a log of millions of
entries costs a few chunks of memory, its file grows during the run, jobs sharing a file
(per_job_logs=0) still write it in job order, ramp_time's entries are not in it, and a log
that cannot be written fails the run, saying how many entries were lost."""
import json
import os
import signal
import subprocess
import time

from common import BIN, is_asan_build, is_tsan_build, run, run_checks, small_tmpfs

# 2^21 null I/Os: clat and lat logs of 64 MiB each while in memory, before the writer.
MANY = 1 << 21
FEW = 1 << 14
# What the logs may add to the peak RSS of the large run over the small one: a handful
# of 512 KiB chunks per log, and the writer's stack. ThreadSanitizer's shadow adds twice
# or more each byte touched, and its allocator reuses freed chunks later: 24.1 MiB was seen
# there. Unbounded logs would add 128 MiB (and their shadow).
GROWTH_MAX_MB = 48 if is_tsan_build() else 24


def peak_rss_mb(args, cwd):
    """Run iojob; return (exit code, stderr, peak RSS in MiB) from the kernel's rusage."""
    env = dict(os.environ)
    if is_asan_build():
        # freed chunks would wait in ASan's quarantine (256 MiB): memory the run let go
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":quarantine_size_mb=1"
    p = subprocess.Popen([BIN] + args, cwd=cwd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, env=env)
    err = p.stderr.read().decode(errors="replace")
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, err, ru.ru_maxrss / 1024


def count_lines(path, bs=None):
    """Lines of a log, and whether the offset column runs 0, bs, 2*bs, ... in order."""
    n, in_order = 0, True
    with open(path) as f:
        for line in f:
            if bs is not None and int(line.split(",")[4]) != n * bs:
                in_order = False
            n += 1
    return n, in_order


def check_bounded(c, d):
    """2^21 entries per log take no more memory than 2^14 do, and every one is written."""
    base = ["--name=b", "--ioengine=null", "--bs=4k", "--rw=read", "--log_offset=1",
            "--output=/dev/null"]
    code_small, err_small, small = peak_rss_mb(base + ["--size=%dk" % (4 * FEW),
                                                       "--write_lat_log=s"], d)
    code, err, big = peak_rss_mb(base + ["--size=%dk" % (4 * MANY), "--write_lat_log=b"], d)
    c.check(code_small == 0 and code == 0, "the logged runs: %s %s" % (err_small, err))
    c.check(big - small < GROWTH_MAX_MB,
            "%d entries per log: peak RSS %.1f MiB, %.1f MiB with %d (at most %d MiB more)"
            % (MANY, big, small, FEW, GROWTH_MAX_MB))
    for kind in ("clat", "lat"):
        path = os.path.join(d, "b_%s.1.log" % kind)
        n, in_order = count_lines(path, 4096) if os.path.exists(path) else (0, False)
        c.check(n == MANY and in_order, "b_%s.1.log: %d lines of %d, offsets in order: %s"
                % (kind, n, MANY, in_order))
    os.unlink(os.path.join(d, "b_clat.1.log"))
    os.unlink(os.path.join(d, "b_lat.1.log"))


def size_of(path):
    return os.path.getsize(path) if os.path.exists(path) else 0


def check_written_while_running(c, d):
    """The iops and histogram logs' files grow while the job runs; once it is stopped,
    they hold every I/O: a line each, and counts that add up to the job's reads."""
    log, hist = os.path.join(d, "w_iops.1.log"), os.path.join(d, "w_clat_hist.1.log")
    p = subprocess.Popen([BIN, "--name=w", "--ioengine=null", "--size=1g", "--bs=4k",
                          "--time_based", "--runtime=120", "--rate_iops=20000",
                          "--write_iops_log=w", "--write_hist_log=w", "--log_hist_msec=10",
                          "--output-format=json"], cwd=d,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen, deadline = (0, 0), time.monotonic() + 60
    while not all(seen) and p.poll() is None and time.monotonic() < deadline:
        seen = (size_of(log), size_of(hist))
        if not all(seen):
            time.sleep(0.05)	# waiting for the files to grow, not for time to pass
    running = p.poll() is None
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    c.check(all(seen) and running, "bytes in the iops and hist logs while the job ran: %s"
            % (seen,))
    try:
        ios = json.loads(out)["jobs"][0]["read"]["total_ios"]
    except (ValueError, KeyError, IndexError):
        ios = None
    n, _ = count_lines(log) if os.path.exists(log) else (0, None)
    c.check(ios is not None and n == ios, "stopped: %d lines for %s I/Os %s" % (n, ios, err))
    counted = 0
    if os.path.exists(hist):
        with open(hist) as f:
            counted = sum(sum(int(x) for x in line.split(",")[3:]) for line in f)
    c.check(counted == ios, "the hist log counts %d reads of %s" % (counted, ios))


def check_shared_file(c, d):
    """per_job_logs=0: two jobs running at once, each past several chunks, write the one
    file in job order: every line of the first job, then every line of the second."""
    code, _, err = run(["--ioengine=null", "--rw=read", "--per_job_logs=0",
                        "--write_lat_log=s", "--output=/dev/null",
                        "--name=a", "--bs=4k", "--size=256m",
                        "--name=b", "--bs=8k", "--size=256m"], cwd=d)
    c.check(code == 0, "two jobs, one log file: %s" % err)
    path = os.path.join(d, "s_clat.log")
    sizes = []
    if code == 0 and os.path.exists(path):
        with open(path) as f:
            for line in f:
                bs = int(line.split(",")[3])
                if not sizes or sizes[-1][0] != bs:
                    sizes.append([bs, 0])
                sizes[-1][1] += 1
    want = [[4096, 65536], [8192, 32768]]
    c.check(sizes == want, "s_clat.log, runs of (bs, lines): %s, want %s" % (sizes, want))


def check_ramp(c, d):
    """ramp_time's entries, some of them already written, are not in the log."""
    code, out, err = run(["--name=r", "--ioengine=null", "--size=1g", "--bs=4k",
                          "--ramp_time=1", "--runtime=1", "--time_based",
                          "--rate_iops=40000", "--write_iops_log=r",
                          "--output-format=json"], cwd=d)
    ios = json.loads(out)["jobs"][0]["read"]["total_ios"] if code == 0 else None
    path = os.path.join(d, "r_iops.1.log")
    n, _ = count_lines(path) if os.path.exists(path) else (0, None)
    c.check(ios is not None and n == ios,
            "after ramp_time: %d lines for %s measured I/Os %s" % (n, ios, err))


def check_no_space(c, d):
    """A log that fills its file system fails the run, naming the log and what was lost."""
    with small_tmpfs(c, d, "small", "size=256k", "a full log's file system") as mnt:
        if not mnt:
            return
        code, _, err = run(["--name=f", "--ioengine=null", "--size=1g", "--bs=4k",
                            "--write_iops_log=" + os.path.join(mnt, "f"),
                            "--output=/dev/null"], cwd=d)
        c.check(code == 1 and "cannot write log" in err and "f_iops.1.log" in err and
                "No space left on device" in err and "entries lost" in err,
                "a full file system: exit %d, %r" % (code, err))


def main():
    run_checks("logs_writer", (check_bounded, check_written_while_running, check_shared_file,
                               check_ramp, check_no_space))


if __name__ == "__main__":
    main()
