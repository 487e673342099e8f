#!/usr/bin/env python3
"""fio 3.33's log options beyond the basic logs: log_max_value (fio HEAD's
log_window_value, with both), log_prio, log_entries, log_compression (and its CPUs),
log_store_compressed, log_alternate_epoch and its clock id, block_error_percentiles,
and fio HEAD's log_issue_time and job_start_clock_id; each checked by what it does to
the files or the report."""
import json
import os
import shutil
import signal
import subprocess
import time
import zlib

from common import BIN, run, run_checks, run_fio_racy

SAMPLE = 32		# fio 3.33's binary sample; 40 with log_offset
SAMPLE_OFFSET = 40
FIO = shutil.which("fio")


def read_log(path):
    with open(path) as f:
        return [[x.strip() for x in line.split(",")] for line in f if line.strip()]


def zlib_streams(path):
    """The uncompressed length of each zlib stream of a .log.fz file, in order."""
    with open(path, "rb") as f:
        data = f.read()
    sizes = []
    while data:
        z = zlib.decompressobj()
        sizes.append(len(z.decompress(data)))
        if not z.eof:
            raise ValueError("%s ends inside a stream" % path)
        data = z.unused_data
    return sizes


def job_json(c, d, args):
    code, out, err = run(args + ["--output-format=json"], cwd=d)
    c.check(code == 0, "%s: exit %d %s" % (args, code, err))
    return json.loads(out)["jobs"][0] if code == 0 else None


def check_log_max_value(c, d):
    """Windows of many I/Os: with log_max_value the largest clat of any window is the job's
    largest clat exactly (the report's max); the means of the same job stay below it."""
    base = ["--name=m", "--filename=m.dat", "--size=4m", "--rw=randrw", "--bs=4k",
            "--ioengine=psync", "--time_based", "--runtime=1", "--log_avg_msec=100",
            "--write_lat_log=m"]
    for on in (1, 0):
        j = job_json(c, d, base + ["--log_max_value=%d" % on])
        if not j:
            return
        rows = read_log(os.path.join(d, "m_clat.1.log"))
        for ddir, name in ((0, "read"), (1, "write")):
            vals = [int(r[1]) for r in rows if r[2] == str(ddir)]
            top = j[name]["clat_ns"]["max"]
            if on:
                c.check(vals and max(vals) == top and min(vals) >= j[name]["clat_ns"]["min"],
                        "log_max_value=1: %s windows' largest %s == the report's max %d" %
                        (name, max(vals or [0]), top))
            else:
                c.check(vals and max(vals) < top, "log_max_value=0: %s windows log means, "
                        "below the max %d: %s" % (name, top, max(vals or [0])))


def check_log_window_value(c, d):
    """fio HEAD's log_window_value=both: each window's mean, then its largest value, in a
    column of its own in every log (bw and iops: the same value twice); per-I/O entries get
    the column too, at 0 (fio HEAD's lines: "100, 2882, 10210, 1, 0, 0" and
    "0, 44324, 0, 0, 4096, 1024000, 0"). max is log_max_value=1 under its new name."""
    base = ["--name=w", "--filename=w.dat", "--size=4m", "--rw=randrw", "--bs=4k",
            "--ioengine=psync", "--time_based", "--runtime=1", "--log_avg_msec=100"]
    j = job_json(c, d, base + ["--log_window_value=both", "--write_lat_log=b",
                               "--write_bw_log=b", "--write_iops_log=b"])
    if not j:
        return
    for kind in ("clat", "lat", "bw", "iops"):
        rows = read_log(os.path.join(d, "b_%s.1.log" % kind))
        c.check(rows and all(len(r) == 6 for r in rows),
                "both: %s rows have 6 columns: %s" % (kind, rows[:1]))
        if not rows or any(len(r) != 6 for r in rows):
            continue
        if kind in ("bw", "iops"):
            c.check(all(r[1] == r[2] for r in rows),
                    "both: a %s window's largest is its mean: %s" % (kind, rows[:2]))
            continue
        c.check(all(int(r[1]) <= int(r[2]) for r in rows),
                "both: each %s window's mean <= its largest: %s" % (kind, rows[:2]))
        for ddir, name in ((0, "read"), (1, "write")):
            tops = [int(r[2]) for r in rows if r[3] == str(ddir)]
            want = j[name]["%s_ns" % kind]["max"]
            c.check(tops and max(tops) == want, "both: %s %s windows' largest %s == the "
                    "report's max %d" % (kind, name, max(tops or [0]), want))
    j = job_json(c, d, base + ["--log_window_value=max", "--write_lat_log=x"])
    rows = read_log(os.path.join(d, "x_clat.1.log")) if j else []
    c.check(rows and all(len(r) == 5 for r in rows) and
            max(int(r[1]) for r in rows) == max(j["read"]["clat_ns"]["max"],
                                                 j["write"]["clat_ns"]["max"]),
            "log_window_value=max: 5 columns, the largest clat: %s" % rows[:1])
    code, _, err = run(["--name=p", "--filename=p.dat", "--size=256k", "--rw=randrw",
                        "--log_window_value=both", "--log_offset=1", "--write_lat_log=p",
                        "--write_bw_log=p", "--output=/dev/null"], cwd=d)
    for kind in ("clat", "bw"):
        rows = read_log(os.path.join(d, "p_%s.1.log" % kind)) if code == 0 else []
        c.check(len(rows) == 64 and all(len(r) == 7 and r[2] == "0" and r[4] == "4096"
                                        for r in rows),
                "both per I/O: %s 64 rows, value1 0 after the value: %d %s %s" %
                (kind, code, rows[:1], err))
    for args, want in ((["--log_window_value=bogus"], "log_window_value"),
                       (["--log_max_value"], "log_max_value"),
                       (["--log_max_value=both", "--log_store_compressed=1",
                         "--log_avg_msec=10"], "have one value")):
        code, _, err = run(["--name=r", "--size=1m", "--write_lat_log=r"] + args, cwd=d)
        c.check(code == 2 and want in err, "%s: exit 2, %r: %d %s" % (args, want, code, err))


def prio_column(c, d, prefix, args, tool=None):
    cmd = (tool or [BIN]) + ["--name=p", "--filename=p.dat", "--size=256k", "--bs=4k",
                             "--rw=write", "--ioengine=psync", "--write_lat_log=" + prefix,
                             "--output=/dev/null"] + args
    p = subprocess.run(cmd, cwd=d, capture_output=True, text=True, timeout=120)
    c.check(p.returncode == 0, "%s: exit %d %s" % (cmd, p.returncode, p.stderr))
    if p.returncode:
        return None
    return sorted({r[-1] for r in read_log(os.path.join(d, prefix + "_clat.1.log"))})


def check_log_prio(c, d):
    """log_prio: the last column is the raw ioprio value (class << 13 | level) in fio's
    0x%04x, otherwise 1 for the real-time class; fio's own columns for the same jobs."""
    cases = [(["--prio=4", "--log_prio=1"], ["0x4004"]), (["--prio=4"], ["0"]),
             (["--log_prio=1"], ["0x0000"]),
             (["--prio=4", "--log_prio=1", "--log_avg_msec=50", "--time_based",
               "--runtime=200ms"], ["0x0000"])]
    if os.geteuid() == 0:
        cases += [(["--prioclass=1", "--prio=3"], ["1"]),
                  (["--prioclass=1", "--prio=3", "--log_prio=1"], ["0x2003"])]
    else:
        c.skip("not root: no real-time class (prioclass=1) to log")
    for i, (args, want) in enumerate(cases):
        got = prio_column(c, d, "i%d" % i, args)
        c.check(got == want, "%s: last column %s, want %s" % (args, got, want))
        if FIO and "--log_avg_msec=50" not in args:
            fio = prio_column(c, d, "f%d" % i, args, [FIO])
            c.check(fio == got, "%s: fio's last column %s, iojob's %s" % (args, fio, got))


def offsets_of(rows):
    return sorted(int(r[4]) for r in rows)


def check_log_compression(c, d):
    """log_compression=4k: chunks of 4096 bytes of 40-byte samples, compressed while the
    job runs; the text log is whole, and with log_store_compressed each chunk is a zlib
    stream that iojob's and fio's --inflate-log both print."""
    blocks = 512
    base = ["--name=z", "--filename=z.dat", "--size=%dk" % (blocks * 4), "--bs=4k",
            "--rw=randwrite", "--ioengine=psync", "--log_offset=1", "--log_compression=4k",
            "--output=/dev/null"]
    code, _, err = run(base + ["--write_lat_log=t"], cwd=d)
    rows = read_log(os.path.join(d, "t_clat.1.log")) if code == 0 else []
    c.check(code == 0 and offsets_of(rows) == [i * 4096 for i in range(blocks)],
            "log_compression: the text log holds each block once: %d lines %s" %
            (len(rows), err))
    code, _, err = run(base + ["--write_lat_log=s", "--log_store_compressed=1"], cwd=d)
    fz = os.path.join(d, "s_clat.1.log.fz")
    c.check(code == 0 and os.path.exists(fz) and not os.path.exists(fz[:-3]),
            "log_store_compressed: s_clat.1.log.fz, no .log: %s %s" % (os.listdir(d), err))
    if code or not os.path.exists(fz):
        return
    per = 4096 // SAMPLE_OFFSET
    want = [per * SAMPLE_OFFSET] * (blocks // per) + [(blocks % per) * SAMPLE_OFFSET]
    got = zlib_streams(fz)
    c.check(got == want, "log_compression=4k: a zlib stream per %d samples: %s" % (per, got))
    code, out, err = run(["--inflate-log=" + fz])
    lines = read_log_text(out)
    c.check(code == 0 and offsets_of(lines) == [i * 4096 for i in range(blocks)],
            "iojob --inflate-log prints every sample: %d %s" % (len(lines), err))
    if FIO:
        p = subprocess.run([FIO, "--inflate-log=" + fz], capture_output=True, text=True,
                           timeout=60)
        c.check(p.returncode == 0 and p.stdout == out,
                "fio --inflate-log prints what iojob's does: %d lines, %s" %
                (len(read_log_text(p.stdout)), p.stderr))
    else:
        c.skip("fio not installed: its --inflate-log not compared")


def read_log_text(text):
    return [[x.strip() for x in line.split(",")] for line in text.splitlines() if line]


def check_log_entries(c, d):
    """log_entries sizes the first chunk of each log (allocated before the first I/O), each
    next one doubles: 4096 writes are chunks of 1024, 2048 and 1024 by default, one of 4096
    with log_entries=4096, and log_store_compressed keeps a zlib stream per chunk, as
    fio's does (compared with fio's own file where fio is installed)."""
    for entries, want in ((1024, [1024, 2048, 1024]), (4096, [4096]), (2000, [2000, 2096])):
        args = ["--name=e", "--filename=e.dat", "--size=16m", "--bs=4k", "--rw=write",
                "--ioengine=psync", "--log_store_compressed=1", "--log_entries=%d" % entries,
                "--output=/dev/null"]
        code, _, err = run(args + ["--write_lat_log=e%d" % entries], cwd=d)
        path = os.path.join(d, "e%d_clat.1.log.fz" % entries)
        got = [n // SAMPLE for n in zlib_streams(path)] if code == 0 else err
        c.check(got == want, "log_entries=%d: chunks %s, want %s" % (entries, got, want))
        p = run_fio_racy(FIO, args + ["--write_lat_log=f%d" % entries], cwd=d) if FIO \
            else None
        if p is None:
            c.skip("log_entries=%d: fio %s" % (entries, "hung three times starting its log "
                   "compression worker" if FIO else "not installed"))
            continue
        fio = [n // SAMPLE for n in zlib_streams(os.path.join(
            d, "f%d_clat.1.log.fz" % entries))] if p.returncode == 0 else p.stderr
        c.check(fio == got, "log_entries=%d: fio's chunks %s, iojob's %s" %
                (entries, fio, got))
    code, _, err = run(["--name=e", "--size=1m", "--log_entries=1023", "--write_lat_log=x"],
                       cwd=d)
    c.check(code == 2 and "log_entries" in err, "log_entries=1023 is below fio's 1024: %s" %
            err)


def check_compression_cpus(c, d):
    """log_compression_cpus: the log writer thread (iojob-logw) runs on those CPUs only.
    The job runs until the test has seen the thread's affinity, then is stopped."""
    cpu = sorted(os.sched_getaffinity(0))[-1]
    p = subprocess.Popen([BIN, "--name=g", "--ioengine=null", "--size=1g", "--bs=4k",
                          "--time_based", "--runtime=60", "--rate_iops=20000",
                          "--write_iops_log=g", "--log_compression=1k",
                          "--log_compression_cpus=%d" % cpu, "--output=/dev/null"], cwd=d,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seen, deadline = None, time.monotonic() + 30
    while seen is None and p.poll() is None and time.monotonic() < deadline:
        seen = writer_affinity(p.pid)
        if seen is None:
            time.sleep(0.05)	# waiting for the thread to exist, not for time to pass
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    c.check(seen == str(cpu), "log_compression_cpus=%d: iojob-logw's Cpus_allowed_list %s"
            " %s" % (cpu, seen, err))
    lines = read_log(os.path.join(d, "g_iops.1.log")) if os.path.exists(
        os.path.join(d, "g_iops.1.log")) else []
    c.check(len(lines) > 32, "the compressed iops log, inflated: %d lines" % len(lines))
    code, _, err = run(["--name=g", "--size=1m", "--write_lat_log=x",
                        "--log_compression_cpus=0"], cwd=d)
    c.check(code == 2 and "needs log_compression" in err,
            "log_compression_cpus without log_compression: %s" % err)


def writer_affinity(pid):
    try:
        tasks = os.listdir("/proc/%d/task" % pid)
    except OSError:
        return None
    for t in tasks:
        try:
            with open("/proc/%d/task/%s/comm" % (pid, t)) as f:
                if f.read().strip() != "iojob-logw":
                    continue
            with open("/proc/%d/task/%s/status" % (pid, t)) as f:
                for line in f:
                    if line.startswith("Cpus_allowed_list:"):
                        return line.split(":", 1)[1].strip()
        except OSError:
            continue
    return None


def check_alternate_epoch(c, d):
    """log_alternate_epoch (and log_unix_epoch) count from the epoch of the clock
    log_alternate_epoch_clock_id names: CLOCK_MONOTONIC's (1) is the time since boot."""
    cases = [(["--log_alternate_epoch=1", "--log_alternate_epoch_clock_id=1"],
              time.CLOCK_MONOTONIC),
             (["--log_unix_epoch=1", "--log_alternate_epoch_clock_id=1"], time.CLOCK_MONOTONIC),
             (["--log_alternate_epoch=1"], time.CLOCK_REALTIME),
             (["--log_alternate_epoch=1", "--log_alternate_epoch_clock_id=7"],
              time.CLOCK_BOOTTIME)]
    for i, (args, clock) in enumerate(cases):
        before = time.clock_gettime_ns(clock) // 1000000
        code, _, err = run(["--name=a", "--filename=a.dat", "--size=256k", "--bs=4k",
                            "--rw=write", "--write_lat_log=a%d" % i, "--output=/dev/null"] +
                           args, cwd=d)
        after = time.clock_gettime_ns(clock) // 1000000
        rows = read_log(os.path.join(d, "a%d_clat.1.log" % i)) if code == 0 else []
        times = [int(r[0]) for r in rows]
        # a log time is that clock read once, when the logs are set up, plus the job's own
        # clock since its start, each in whole ms: it may read 1 ms past the clock read
        # just after the run
        c.check(times and before <= min(times) and max(times) <= after + 1,
                "%s: times %s..%s within the clock's %d..%d %s" %
                (args, min(times or [0]), max(times or [0]), before, after, err))
    code, _, err = run(["--name=a", "--size=1m", "--write_lat_log=x", "--log_alternate_epoch=1",
                        "--log_alternate_epoch_clock_id=99"], cwd=d)
    c.check(code == 2 and "clock 99" in err, "clock id 99 is refused: %s" % err)


def check_block_error_percentiles(c, d):
    """block_error_percentiles: trims per trim-sized block. randtrim over 16 blocks, 3
    loops, visits each block once a loop: every percentile is 3 and all 16 are trimmed;
    with norandommap the trims are drawn, and the blocks' counts add up to them."""
    base = ["--name=b", "--filename=b.dat", "--size=64k", "--bs=4k", "--rw=randtrim",
            "--block_error_percentiles=1"]
    j = job_json(c, d, base + ["--loops=3"])
    blk = j.get("block") if j else None
    c.check(blk and set(blk["percentiles"].values()) == {3} and
            blk["states"] == {"unwritten": 0, "trimmed": 16, "written": 0, "trim failure": 0,
                              "write failure": 0}, "3 passes of randtrim: %s" % blk)
    j = job_json(c, d, base + ["--loops=2", "--norandommap", "--percentile_list=50:100"])
    blk = j.get("block") if j else None
    st = blk["states"] if blk else {}
    c.check(blk and st["trimmed"] + st["unwritten"] == 16 and st["trimmed"] >= 1 and
            0 < blk["percentiles"]["100.000000"] <= j["trim"]["total_ios"],
            "norandommap: drawn blocks, %s of %d trims" % (blk, j and j["trim"]["total_ios"]))
    code, out, err = run(base + ["--loops=2"], cwd=d)
    c.check(code == 0 and "  block lifetime percentiles :\n   | 1.00th=2, 5.00th=2," in out
            and "        states               : unwritten=0, trimmed=16, written=0, "
            "trim failure=0, write failure=0\n" in out, "the report's lines: %s" % out[-600:])
    j = job_json(c, d, ["--name=n", "--filename=n.dat", "--size=64k", "--bs=4k",
                        "--rw=randread", "--block_error_percentiles=1"])
    c.check(j and "block" not in j, "no trims: no block object, as fio")
    for args, want in ((["--nrfiles=2"], "single file"), (["--size=64m"], "8192")):
        code, _, err = run(base[:2] + base[3:] + (args if "--size" in args[0] else
                                                  ["--size=64k"] + args), cwd=d)
        c.check(code == 2 and want in err, "%s: exit 2, %s: %s" % (args, want, err))


def check_issue_time(c, d):
    """log_issue_time (fio HEAD): a seventh column, the I/O's issue time in ns from the
    log's start, in the clat and slat logs (libaio: both), 0 in the lat log; each I/O is
    issued before it completes (issue ns at most the entry's ms, rounded up) and, at depth
    1, after the one before; without log_offset the job is refused, as fio HEAD refuses it."""
    base = ["--name=i", "--filename=i.dat", "--size=256k", "--bs=4k", "--rw=randread",
            "--write_lat_log=i", "--log_offset=1", "--log_issue_time=1"]
    code, _, err = run(base + ["--ioengine=psync"], cwd=d)
    clat = read_log(os.path.join(d, "i_clat.1.log"))
    lat = read_log(os.path.join(d, "i_lat.1.log"))
    issued = [int(r[6]) for r in clat if len(r) == 7]
    c.check(code == 0 and len(issued) == len(clat) == 64 and issued == sorted(issued) and
            all(int(r[6]) <= (int(r[0]) + 1) * 1000000 for r in clat) and
            all(len(r) == 7 and r[6] == "0" for r in lat),
            "log_issue_time psync: exit %d, clat %s, lat %s: %s" %
            (code, clat[:2], lat[:2], err))
    code, _, err = run(base + ["--ioengine=libaio", "--iodepth=4"], cwd=d)
    clat = read_log(os.path.join(d, "i_clat.1.log"))
    slat = read_log(os.path.join(d, "i_slat.1.log"))
    c.check(code == 0 and len(clat) == len(slat) == 64 and
            sorted(r[6] for r in clat) == sorted(r[6] for r in slat) and
            all(int(r[6]) > 0 for r in clat),
            "log_issue_time libaio: the same issue times in clat and slat: %s %s" %
            (clat[:2], slat[:2]))
    code, _, err = run(base[:-2] + ["--log_issue_time=1"], cwd=d)
    c.check(code == 2 and "needs write_lat_log and log_offset" in err,
            "log_issue_time without log_offset: exit %d %s" % (code, err))

def check_job_start(c, d):
    """fio HEAD's job_start_clock_id: the JSON's job_start (after groupid, as fio HEAD
    places it) is the job's start in ms on that clock, between the clock's readings
    before and after the run: CLOCK_REALTIME (0) and CLOCK_MONOTONIC (1). Without the
    option there is no such key, as in fio 3.33's JSON; an unknown clock is refused."""
    base = ["--name=s", "--filename=s.dat", "--size=64k", "--ioengine=psync"]
    for clock, now in ((0, time.time), (1, time.monotonic)):
        before = int(now() * 1000)
        code, out, err = run(base + ["--job_start_clock_id=%d" % clock,
                                     "--output-format=json"], cwd=d)
        after = int(now() * 1000) + 1
        j = json.loads(out)["jobs"][0] if code == 0 else {}
        c.check(list(j)[:4] == ["jobname", "groupid", "job_start", "error"] and
                before <= j["job_start"] <= after,
                "job_start_clock_id=%d: job_start %s within [%d, %d]: %s" %
                (clock, j.get("job_start"), before, after, err))
    code, out, _ = run(base + ["--numjobs=2", "--group_reporting", "--job_start_clock_id=1",
                               "--output-format=json"], cwd=d)
    jobs = json.loads(out)["jobs"] if code == 0 else []
    c.check(len(jobs) == 1 and "job_start" in jobs[0], "group_reporting: one job_start")
    code, out, _ = run(base + ["--output-format=json"], cwd=d)
    c.check(code == 0 and "job_start" not in json.loads(out)["jobs"][0],
            "no job_start_clock_id: no job_start key, as fio 3.33")
    code, _, err = run(base + ["--job_start_clock_id=99"], cwd=d)
    c.check(code == 2 and "clock 99" in err, "job_start_clock_id=99: %d %s" % (code, err))


def check_refusals(c, d):
    cases = [(["--write_hist_log=h", "--log_hist_msec=10", "--log_store_compressed=1"],
              "not the histograms"),
             (["--write_lat_log=x", "--log_compression=512"], "log_compression")]
    for args, want in cases:
        code, _, err = run(["--name=r", "--size=1m"] + args, cwd=d)
        c.check(code == 2 and want in err, "%s: exit 2, %r: %d %s" % (args, want, code, err))


def main():
    run_checks("opts_logs", (
        check_log_max_value, check_log_window_value, check_log_prio, check_log_compression, check_log_entries,
        check_compression_cpus, check_alternate_epoch, check_block_error_percentiles,
        check_issue_time, check_job_start, check_refusals))


if __name__ == "__main__":
    main()
