#!/usr/bin/env python3
"""Log files as fio 3.33 writes them: names, columns, one entry per I/O or per window,
histogram logs, and fio's own plotting tools reading them unchanged."""
import glob
import json
import os
import shutil
import subprocess

from common import engine_available, run, run_checks

FIO_BINS = 1856
# Time-based null jobs paced: the logs do not need millions of entries, and the null
# engine would otherwise fill a core (the suite runs two tests at once).
PACE = "--rate_iops=50000"


def read_log(path):
    with open(path) as f:
        return [[int(x) for x in line.split(",")] for line in f if line.strip()]


def job_json(c, d, args):
    code, out, err = run(args + ["--output-format=json"], cwd=d)
    c.check(code == 0, "%s: exit %d %s" % (args, code, err))
    return json.loads(out)["jobs"] if code == 0 else None


def check_per_io(c, d):
    """Without log_avg_msec: one line per I/O, columns time, value, ddir, bs, offset, prio."""
    jobs = job_json(c, d, ["--name=p", "--filename=p.dat", "--size=2m", "--rw=randrw",
                           "--bs=4k", "--ioengine=psync", "--write_lat_log=p",
                           "--write_bw_log=p", "--write_iops_log=p", "--log_offset=1"])
    if not jobs:
        return
    j = jobs[0]
    want = {0: j["read"]["total_ios"], 1: j["write"]["total_ios"]}
    for kind in ("clat", "lat", "bw", "iops"):
        rows = read_log(os.path.join(d, "p_%s.1.log" % kind))
        c.check(all(len(r) == 6 for r in rows), "%s: 6 columns with log_offset" % kind)
        got = {k: sum(1 for r in rows if r[2] == k) for k in (0, 1)}
        c.check(got == want, "%s: lines per direction %s, I/Os %s" % (kind, got, want))
        c.check(all(r[3] == 4096 and r[4] % 4096 == 0 and r[4] < 2 << 20 for r in rows),
                "%s: bs and offsets" % kind)
    c.check(read_log(os.path.join(d, "p_slat.1.log")) == [],
            "a synchronous engine measures no slat: its slat log is empty")
    clat = read_log(os.path.join(d, "p_clat.1.log"))
    lo, hi = j["read"]["clat_ns"]["min"], j["read"]["clat_ns"]["max"]
    c.check(all(lo <= r[1] <= hi for r in clat if r[2] == 0), "read clat entries in [min, max]")
    bw = read_log(os.path.join(d, "p_bw.1.log"))
    c.check(all(r[1] == 4096 * 1000000 // cl[1] for r, cl in zip(bw, clat) if cl[1]),
            "per-I/O bw is the I/O's bytes over its clat, as fio logs it")
    c.check(all(r[1] == 1 for r in read_log(os.path.join(d, "p_iops.1.log"))),
            "per-I/O iops entries are 1")


def check_slat_async(c, d):
    if not engine_available("libaio"):
        c.skip("libaio not built: no slat log check")
        return
    jobs = job_json(c, d, ["--name=a", "--filename=a.dat", "--size=1m", "--rw=randread",
                           "--ioengine=libaio", "--iodepth=4", "--direct=1",
                           "--write_lat_log=a"])
    if jobs:
        rows = read_log(os.path.join(d, "a_slat.1.log"))
        c.check(len(rows) == jobs[0]["read"]["total_ios"] and len(rows[0]) == 5,
                "libaio: one slat line per I/O, 5 columns")


def check_averaged(c, d):
    jobs = job_json(c, d, ["--name=v", "--ioengine=null", "--size=64m", "--rw=randrw",
                           "--runtime=1", "--time_based", PACE, "--log_avg_msec=100",
                           "--write_bw_log=v", "--write_iops_log=v", "--write_lat_log=v",
                           "--numjobs=2"])
    if not jobs:
        return
    for n in (1, 2):
        rows = read_log(os.path.join(d, "v_bw.%d.log" % n))
        full = [r for r in rows if r[0] % 100 == 0]
        c.check(len(full) >= 16 and all(r[3] == 0 for r in rows),
                "job %d: a bw entry per direction per 100 ms window, bs 0: %d" % (n, len(full)))
    rows = read_log(os.path.join(d, "v_bw.1.log"))
    mean = sum(r[1] for r in rows if r[2] == 0) / max(1, sum(1 for r in rows if r[2] == 0))
    bw = jobs[0]["read"]["bw"]
    c.check(0.5 * bw < mean < 2 * bw, "averaged bw %.0f KiB/s near the job's %d" % (mean, bw))
    iops = read_log(os.path.join(d, "v_iops.1.log"))
    total = sum(r[1] for r in iops if r[2] == 0) / 10.0
    c.check(0.5 * jobs[0]["read"]["total_ios"] < total < 1.5 * jobs[0]["read"]["total_ios"],
            "iops windows add up to the job's reads")


def check_shared_file_and_bare(c, d):
    jobs = job_json(c, d, ["--name=s", "--ioengine=null", "--size=1m", "--numjobs=2",
                           "--write_iops_log=s", "--per_job_logs=0", "--write_lat_log"])
    if not jobs:
        return
    rows = read_log(os.path.join(d, "s_iops.log"))
    c.check(len(rows) == 512, "per_job_logs=0: one file for both jobs, %d lines" % len(rows))
    c.check(os.path.exists(os.path.join(d, "s_clat.log")),
            "a bare write_lat_log names the logs after the job")


def check_hist(c, d):
    jobs = job_json(c, d, ["--name=h", "--ioengine=null", "--size=64m", "--rw=randrw",
                           "--runtime=1", "--time_based", PACE, "--write_hist_log=h",
                           "--log_hist_msec=250", "--numjobs=2", "--log_hist_coarseness=2"])
    if not jobs:
        return
    rows = read_log(os.path.join(d, "h_clat_hist.1.log"))
    c.check(all(len(r) == 3 + FIO_BINS // 4 for r in rows),
            "coarseness 2: time, ddir, bs and 1856/4 bins")
    for k, name in ((0, "read"), (1, "write")):
        total = sum(sum(r[3:]) for r in rows if r[1] == k)
        c.check(total == jobs[0][name]["total_ios"],
                "hist log %s counts add up to the job's I/Os: %d vs %d" %
                (name, total, jobs[0][name]["total_ios"]))
    # without log_hist_msec fio 3.33 writes the log and leaves it empty (d53e42d refused it)
    code, _, err = run(["--name=x", "--ioengine=null", "--size=1m", "--write_hist_log=x"],
                       cwd=d)
    path = os.path.join(d, "x_clat_hist.1.log")
    c.check(code == 0 and "option 'write_hist_log': without log_hist_msec" in err and
            os.path.exists(path) and os.path.getsize(path) == 0,
            "write_hist_log alone: an empty log and a note: %d %r" % (code, err))


def check_fio_tools(c, d):
    for tool in ("fio_generate_plots", "fio2gnuplot", "gnuplot"):
        if not shutil.which(tool):
            c.skip("%s is not installed (Debian packages fio and gnuplot-nox)" % tool)
            return
    run(["--name=t", "--ioengine=null", "--size=64m", "--runtime=1", "--time_based", PACE,
         "--log_avg_msec=100", "--write_bw_log=t", "--write_iops_log=t", "--write_lat_log=t"],
        cwd=d)
    p = subprocess.run(["fio_generate_plots", "plot"], cwd=d, capture_output=True, text=True,
                       timeout=120)
    svgs = {os.path.basename(s): os.path.getsize(s) for s in glob.glob(d + "/plot-*.svg")}
    c.check(p.returncode == 0 and all(svgs.get("plot-%s.svg" % k, 0) > 1000
                                      for k in ("bw", "iops", "clat", "lat")),
            "fio_generate_plots drew bw, iops, clat and lat: %s" % svgs)
    os.makedirs(os.path.join(d, "g"))
    p = subprocess.run(["fio2gnuplot", "-b", "-g", "-d", "g"], cwd=d, capture_output=True,
                       text=True, timeout=120)
    pngs = glob.glob(os.path.join(d, "g", "t_bw.1-2D*.png"))
    c.check(p.returncode == 0 and pngs, "fio2gnuplot rendered the bw log: %s %s" %
            (pngs, p.stdout[-300:]))


def main():
    run_checks("logs", (
        check_per_io, check_slat_async, check_averaged, check_shared_file_and_bare,
        check_hist, check_fio_tools))


if __name__ == "__main__":
    main()
