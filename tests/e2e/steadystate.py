#!/usr/bin/env python3
"""steadystate, steadystate_duration and steadystate_ramp_time (issue 17, part 1), by their
effect, with fio HEAD's lat criteria and steadystate_check_interval. One job file runs six groups side by side: rate-limited jobs judged by each kind of
criterion (iops and bw deviation, iops_slope, an absolute bw limit, a ramp, a group of two
clones under group_reporting) attain steady state and end long before runtime=; a job the
fault shim slows down a little more every second (driftUS) does not. From each JSON window
a model of fio's arithmetic recomputes the criterion, max_deviation or slope and the
verdict, which must match iojob's to the printed digit; the normal report's line is
checked against the JSON; bad values fail with exit 2 naming the file, line and option.
Where fio 3.33 is installed it runs the same job file (with the same shim): the
steadystate objects have the same keys, order and number forms, and the same verdicts."""
import json
import os
import re
import shutil
import struct
import subprocess

from common import BIN, Checks, is_tsan_build, remove, run, scratch_dir, split_normal_json

# The fault shim, where this build has it, and not under ThreadSanitizer: a shim preloaded
# before TSan's runtime crashes it
SHIM = os.environ.get("IOJOB_FAULT_SHIM", "")
SHIM = SHIM if os.path.exists(SHIM) and not is_tsan_build() else ""
FIO = shutil.which("fio")
if FIO and os.path.realpath(FIO) == os.path.realpath(BIN):
    FIO = None

RUNTIME_S = 10		# the paced jobs' runtime=: they attain after about 3 s
DUR = 3			# ss_dur of every job
RAMP_S = 2		# the ramp job's ss_ramp
DRIFT_S = 5		# the drifting job's runtime=: it runs it whole
# Each paced job's samples are 500 IOPS give or take what the scheduler delays on a
# loaded machine (fio and iojob both see +-2% here): limits of 10% leave room for that,
# and the drifting job's window (each second slower than the last by a sixth or more)
# stays well above them.
JOBS = """[global]
ioengine=psync
bs=4k
size=4m
rw=randread
time_based
runtime={runtime}
[paced]
filename=paced.dat
rate_iops=500
ss=iops:10%
ss_dur={dur}
[bw]
new_group
filename=bw.dat
rate_iops=500
; absolute, bytes/s: 100 I/Os of 4 KiB a second
steadystate=bw:400k
ss_dur={dur}
[slope]
new_group
filename=slope.dat
rate_iops=500
; as bench-fio writes a percentage
ss=iops_slope:10%%
steadystate_duration={dur}
[ramp]
new_group
filename=ramp.dat
rate_iops=500
ss=iops:10%
ss_dur={dur}
ss_ramp={ramp}
[grp]
new_group
filename=grp.dat
rate_iops=250
numjobs=2
group_reporting
ss=iops:10%
ss_dur={dur}
"""
DRIFT_JOB = """[drift]
new_group
filename=drift.dat
runtime={drift}
ss=iops:10%
ss_dur={dur}
"""
PACED = ["paced", "bw", "slope", "ramp", "grp"]


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def f32(x):
    """x through a C float, as fio prints the limit and the criterion."""
    return struct.unpack("f", struct.pack("f", x))[0]


def parse_ss(text):
    """fio's "ss" string: (iops?, slope?, pct?, limit)."""
    m = re.fullmatch(r"(iops|bw)(_slope)?:(\d+\.\d{6})(%?)", text)
    return m and (m.group(1) == "iops", bool(m.group(2)), bool(m.group(4)), float(m.group(3)))


def model(ss):
    """fio 3.33's judgement of the window in ss["data"]: (criterion, deviation, slope),
    each as its float, in fio's order of operations (the slope's mean in whole units)."""
    iops, slope_crit, pct, _ = parse_ss(ss["ss"])
    y = ss["data"]["iops" if iops else "bw"]
    n = len(y)
    sum_y = sum(y)
    if slope_crit:
        sum_x = n * (n - 1) // 2
        sum_x_sq = (n - 1) * n * (2 * n - 1) // 6
        sum_xy = sum(i * v for i, v in enumerate(y))
        slope = (float(sum_xy) - float(sum_x) * float(sum_y) / n) / \
            (float(sum_x_sq) - float(sum_x) * float(sum_x) / n)
        crit = 100.0 * slope / float(sum_y // n) if pct else slope
        return crit, 0.0, slope
    mean = float(sum_y) / n
    dev = max(abs(float(v) - mean) for v in y)
    return (100.0 * dev / mean if pct else dev), dev, 0.0


def check_window(c, who, ss, want_attained):
    """The window's shape, means and verdict, recomputed from its samples."""
    data = ss["data"]
    c.check(ss["duration"] == DUR and len(data["iops"]) == DUR and len(data["bw"]) == DUR,
            "%s: a window of %d samples: duration %s, %d and %d samples" %
            (who, DUR, ss["duration"], len(data["iops"]), len(data["bw"])))
    c.check(data["bw_mean"] == sum(data["bw"]) // DUR and
            data["iops_mean"] == sum(data["iops"]) // DUR,
            "%s: bw_mean %s and iops_mean %s are the samples' integer means" %
            (who, data["bw_mean"], data["iops_mean"]))
    form = parse_ss(ss["ss"])
    if not form:
        c.check(False, "%s: ss %r is not fio's CRITERION:LIMIT" % (who, ss["ss"]))
        return
    crit, dev, slope = model(ss)
    text = "%f%s" % (f32(crit), "%" if form[2] else "")
    c.check(ss["criterion"] == text, "%s: criterion %s, the model's %s" %
            (who, ss["criterion"], text))
    c.check("%f" % ss["max_deviation"] == "%f" % dev and "%f" % ss["slope"] == "%f" % slope,
            "%s: max_deviation %s and slope %s, the model's %f and %f" %
            (who, ss["max_deviation"], ss["slope"], dev, slope))
    below = abs(crit) < form[3] if form[1] else crit < form[3]
    c.check(ss["attained"] == int(below), "%s: attained %s, yet the criterion %s is %s "
            "the limit %s" % (who, ss["attained"], ss["criterion"],
                              "below" if below else "not below", form[3]))
    if want_attained and not below:
        # the verdict matches the samples (checked above), but the samples are not those
        # of a paced job: a loaded machine ran it unevenly; what it does then is shown
        print("NOTE: %s: the window's samples %s are not steady (criterion %s): the "
              "machine disturbed the pacing, so whether it attains is not checked" %
              (who, ss["data"]["iops"], ss["criterion"]))
        return False
    c.check(ss["attained"] == int(want_attained), "%s: attained %s, want %d" %
            (who, ss["attained"], want_attained))
    return True


def run_jobs(prog, d, job):
    env = dict(os.environ)
    if SHIM:
        env.update(LD_PRELOAD=SHIM, IOJOB_FAULT="pread:drift1000:1:0",
                   IOJOB_FAULT_PATH="drift.dat")
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0"
    args = [prog, "--output-format=normal,json", job] + (["--eta=never"] if prog == BIN else [])
    p = subprocess.run(args, cwd=d, capture_output=True, text=True, env=env, timeout=120)
    return p.returncode, p.stdout, p.stderr


def units_of(doc):
    return {j["jobname"]: j for j in doc["jobs"]}


def check_run(c, units):
    """The paced jobs attained and ended early; the drifting one ran its runtime."""
    for name in PACED + (["drift"] if SHIM else []):
        u = units.get(name)
        if not u or "steadystate" not in u:
            c.check(False, "%s: no steadystate object in %s" % (name, sorted(units)))
            continue
        steady = check_window(c, name, u["steadystate"], name != "drift")
        ms = u["read"]["runtime"]
        if name == "drift":
            c.check(ms >= DRIFT_S * 1000, "drift: ran %d ms of its runtime=%d s" %
                    (ms, DRIFT_S))
        elif steady:
            c.check(ms < 0.9 * RUNTIME_S * 1000, "%s: ended after %d ms, long before "
                    "runtime=%d s" % (name, ms, RUNTIME_S))
    if "ramp" in units and units["ramp"].get("steadystate", {}).get("attained"):
        # no sample is kept before ss_ramp and a second more: 3 s at the least
        ms = units["ramp"]["read"]["runtime"]
        c.check(ms >= (RAMP_S + 1) * 1000, "ramp: attained after %d ms, before ss_ramp=%d "
                "and the second after it" % (ms, RAMP_S))
    if "grp" in units:
        # the group's samples are its two jobs' sum: about 2 x 250 (wide: statistical)
        mean = units["grp"]["steadystate"]["data"]["iops_mean"]
        c.check(400 <= mean <= 600, "grp: the window's mean %d IOPS is not both clones' "
                "(2 x 250)" % mean)
        c.check(sum(1 for n in units if n == "grp") == 1, "grp: one unit for the group")


def check_options_echo(c, units):
    """As fio, job options name the options in full, as fio-plot reads them."""
    opts = units.get("paced", {}).get("job options", {})
    c.check(opts.get("steadystate") == "iops:10%" and
            opts.get("steadystate_duration") == str(DUR),
            "paced: job options %s lack steadystate and steadystate_duration" % opts)


def check_normal(c, who, text, units):
    """The normal report's line for each window, as fio prints it, from the JSON's."""
    lines = re.findall(r"^  steadystate  : attained=(yes|no), bw=(\S+) \((\S+)\), "
                       r"iops=(\S+), (iops|bw)( slope| mean dev)=(-?\d+\.\d{3})(%?)$", text,
                       re.M)
    want = [u for u in units.values() if "steadystate" in u]
    c.check(len(lines) == len(want), "%s: %d steadystate lines for %d windows:\n%s" %
            (who, len(lines), len(want), text))
    for line, u in zip(lines, want):
        ss = u["steadystate"]
        kib = ss["data"]["bw_mean"] // 1024
        c.check(line[0] == ("yes" if ss["attained"] else "no") and
                line[1] == "%dKiB/s" % kib and line[2] == "%dkB/s" % kib and
                line[3] == str(ss["data"]["iops_mean"]),
                "%s: %s's line %s, from the JSON %s" % (who, u["jobname"], line, ss))
        crit = model(ss)[0]
        c.check(line[6] == "%.3f" % crit, "%s: %s's criterion %s, the model's %.3f" %
                (who, u["jobname"], line[6], crit))


def shape(v):
    """A JSON value's shape: keys in order, types, array lengths."""
    if isinstance(v, dict):
        return [(k, shape(x)) for k, x in v.items()]
    if isinstance(v, list):
        return ["list", len(v)] + ([shape(v[0])] if v else [])
    return type(v).__name__


def check_against_fio(c, d, job, units):
    code, out, err = run_jobs(FIO, d, job)
    c.check(code == 0, "fio: exit %d: %s" % (code, err.strip()))
    if code:
        return
    text, doc = split_normal_json(out)
    theirs = units_of(doc)
    for name in PACED + (["drift"] if SHIM else []):
        a, b = units.get(name, {}).get("steadystate"), theirs.get(name, {}).get("steadystate")
        if not a or not b:
            c.check(False, "%s: steadystate missing (iojob %s, fio %s)" % (name, bool(a),
                                                                          bool(b)))
            continue
        c.check(shape(a) == shape(b), "%s: iojob's steadystate shape %s, fio's %s" %
                (name, shape(a), shape(b)))
        steady = all(model(x)[0] < parse_ss(x["ss"])[3] for x in (a, b)
                     if not parse_ss(x["ss"])[1]) and \
            all(abs(model(x)[0]) < parse_ss(x["ss"])[3] for x in (a, b)
                if parse_ss(x["ss"])[1])
        c.check(a["ss"] == b["ss"], "%s: iojob's ss %s, fio's %s" % (name, a["ss"], b["ss"]))
        if name != "drift" and not steady:
            print("NOTE: %s: the samples of iojob (%s) or fio (%s) are not steady: the "
                  "machine disturbed the pacing; their verdicts are not compared" %
                  (name, a["data"]["iops"], b["data"]["iops"]))
        else:
            c.check(a["attained"] == b["attained"], "%s: iojob attained %s, fio %s" %
                    (name, a["attained"], b["attained"]))
        c.check(list(units[name]).index("steadystate") ==
                len([k for k in theirs[name] if k != "iojob"]) - 1 and
                list(theirs[name])[-1] == "steadystate",
                "%s: steadystate is the job's last key, after fio's others" % name)
    # fio's own windows pass the same model: the model is fio's arithmetic
    for name in PACED:
        if "steadystate" in theirs.get(name, {}):
            check_window(c, "fio's " + name, theirs[name]["steadystate"], True)
    check_normal(c, "fio", text, theirs)


def check_runs(c, d):
    for name in PACED + ["drift"]:
        with open(os.path.join(d, name + ".dat"), "wb") as f:
            f.write(os.urandom(4 << 20))
    job = os.path.join(d, "ss.fio")
    write(job, JOBS.format(runtime=RUNTIME_S, dur=DUR, ramp=RAMP_S) +
          (DRIFT_JOB.format(drift=DRIFT_S, dur=DUR) if SHIM else ""))
    code, out, err = run_jobs(BIN, d, job)
    c.check(code == 0, "iojob: exit %d: %s" % (code, err.strip()))
    if code:
        return
    text, doc = split_normal_json(out)
    units = units_of(doc)
    check_run(c, units)
    check_options_echo(c, units)
    check_normal(c, "iojob", text, units)
    print("steadystate: paced jobs %s; drifting job %s" %
          (", ".join("%s %d ms" % (n, units[n]["read"]["runtime"]) for n in PACED
                     if n in units), "run" if SHIM else "left out (no shim)"))
    if FIO:
        check_against_fio(c, d, job, units)


def check_ended_first(c, d):
    """A job that ends before its window fills: not attained, never judged, the samples
    it had then zeros (as fio reports them), its whole runtime run."""
    job = os.path.join(d, "short.fio")
    write(job, "[short]\nfilename=paced.dat\nsize=4m\nrw=randread\ntime_based\n"
          "runtime=2\nrate_iops=200\nss=iops:50%\nss_dur=4\n")
    for prog in [BIN] + ([FIO] if FIO else []):
        who = "iojob" if prog == BIN else "fio"
        p = subprocess.run([prog, "--output-format=json", job], cwd=d, capture_output=True,
                           text=True, timeout=60)
        try:
            u = json.loads(p.stdout[p.stdout.index("{"):])["jobs"][0]
            ss = u["steadystate"]
        except (ValueError, KeyError, IndexError):
            c.check(False, "%s: ended first: no steadystate in %r %s" % (who, p.stdout[:200],
                                                                       p.stderr))
            continue
        c.check(ss["attained"] == 0 and ss["criterion"] == "0.000000%" and
                ss["duration"] == 4 and ss["data"]["iops"][2:] == [0, 0] and
                ss["data"]["bw"][2:] == [0, 0] and ss["data"]["iops"][0] > 0 and
                u["read"]["runtime"] >= 2000,
                "%s: a job ended before its window filled: %s, ran %d ms" %
                (who, ss, u["read"]["runtime"]))


def check_lat_interval(c, d):
    """fio HEAD's lat criteria and steadystate_check_interval: a sample every 500 ms over a
    window of 2 s is 4 samples in every array (a second's each without it); lat judges
    the intervals' mean completion latency, whose samples come in lat_ns with their
    integer mean lat_mean, between iops_mean and iops as fio HEAD orders them. A limit
    of lat:1s (fio HEAD keeps 1000000 and compares it with ns) is met by any steady
    paced job, which ends long before runtime=; lat:0 is never met (no deviation is
    below 0). The criterion is the window's largest deviation from the mean, recomputed
    here from lat_ns; the normal report shows the mean latency and "lat mean dev"."""
    job = os.path.join(d, "lat.fio")
    write(job, "[global]\nfilename=paced.dat\nsize=4m\nrw=randread\ntime_based\n"
          "runtime=%d\nrate_iops=500\nss_dur=2\nss_interval=500ms\n"
          "[met]\nss=lat:1s\n[never]\nnew_group\nruntime=3\nss=lat:0\n"
          "[slope]\nnew_group\nss=lat_slope:1s\n" % RUNTIME_S)
    code, out, err = run_jobs(BIN, d, job)
    c.check(code == 0, "lat criteria: exit %d: %s" % (code, err.strip()))
    if code:
        return
    text, doc = split_normal_json(out)
    units = units_of(doc)
    for name, form, attained in (("met", "lat:1000000.000000", 1),
                                 ("never", "lat:0.000000", 0),
                                 ("slope", "lat_slope:1000000.000000", 1)):
        u = units.get(name)
        ss = u and u.get("steadystate")
        if not ss:
            c.check(False, "%s: no steadystate window" % name)
            continue
        data = ss["data"]
        lat = data.get("lat_ns", [])
        c.check(ss["ss"] == form and ss["duration"] == 2 and
                list(data) == ["bw_mean", "iops_mean", "lat_mean", "lat_ns", "iops", "bw"]
                and len(lat) == len(data["iops"]) == len(data["bw"]) == 4,
                "%s: %s over 2 s, 4 samples of each: %s" % (name, form, ss))
        c.check(all(v > 0 for v in lat) and data["lat_mean"] == sum(lat) // max(len(lat), 1),
                "%s: lat_ns %s with their mean %s" % (name, lat, data.get("lat_mean")))
        c.check(ss["attained"] == attained, "%s: attained %s, want %d" %
                (name, ss["attained"], attained))
        if name != "slope" and lat:
            mean = sum(lat) / len(lat)
            dev = max(abs(v - mean) for v in lat)
            c.check(abs(ss["max_deviation"] - dev) <= 1e-6 * max(dev, 1),
                    "%s: max_deviation %s, the samples' %s" % (name, ss["max_deviation"], dev))
    c.check(units["met"]["read"]["runtime"] < RUNTIME_S * 1000 and
            units["never"]["read"]["runtime"] >= 3000,
            "lat:1s ends early (%d ms), lat:0 runs its runtime (%d ms)" %
            (units["met"]["read"]["runtime"], units["never"]["read"]["runtime"]))
    c.check(re.search(r"steadystate  : attained=yes, bw=.*, iops=\S+, lat=\S+nsec, "
                      r"lat mean dev=\d+\.\d{3}\n", text),
            "normal report: the lat line: %s" % re.findall(r"steadystate  : .*", text))


def check_phase_interval(c, d):
    """fio keeps one steadystate_check_interval for the run, the last job's: jobs of a phase
    that set others run (fio runs them), each window of steadystate_duration / that
    interval samples, two of them here where the first job asked for 500 ms."""
    job = os.path.join(d, "iv.fio")
    write(job, "[global]\nfilename=paced.dat\nsize=4m\nrw=randread\ntime_based\n"
          "runtime=3\nrate_iops=500\nss_dur=2\nss=iops:50%%\n[a]\nss_interval=500ms\n"
          "[b]\nss_interval=1s\n")
    code, out, err = run([job, "--output-format=json"], cwd=d)
    jobs = json.loads(out)["jobs"] if code == 0 else []
    c.check(len(jobs) == 2 and all(len(j["steadystate"]["data"]["iops"]) == 2 for j in jobs),
            "intervals 500 ms and 1 s in one phase: windows of 2 samples each: %d %s %s" %
            (code, [len(j["steadystate"]["data"]["iops"]) for j in jobs], err))


def check_terse(c, d):
    """fio's terse line has nothing of steady state: neither has iojob's."""
    base = ["--output-format=terse", "--eta=never", "--name=t", "--filename=" +
            os.path.join(d, "paced.dat"), "--size=4m", "--rw=randread", "--time_based",
            "--runtime=1", "--rate_iops=100"]
    _, plain, _ = run(base, cwd=d)
    code, ss, err = run(base + ["--ss=iops:10%", "--ss_dur=2"], cwd=d)
    c.check(code == 0 and len(ss.split(";")) == len(plain.split(";")) > 100,
            "terse: %d fields with steadystate, %d without (%s)" %
            (len(ss.split(";")), len(plain.split(";")), err.strip()))


BAD = [
    ("ss=iops", "ss.fio:3: option 'steadystate': 'iops' has no limit"),
    ("ss=iops_sloped:1%", "option 'steadystate': 'iops_sloped' is not a criterion"),
    ("ss=iops:-5", "option 'steadystate': limit '-5' is negative"),
    ("ss=bw:fast", "option 'steadystate': limit 'fast' is not a bandwidth"),
    ("ss_dur=500ms", "option 'steadystate_duration': 500 ms is under a second"),
    ("ss=bw_slope:1%\nss_dur=1", "option 'steadystate_duration': a slope needs two samples"),
]


def check_errors(c, d):
    """Bad values: exit 2, the file, line and option named, nothing written."""
    for opts, want in BAD:
        data = os.path.join(d, "never.dat")
        job = os.path.join(d, "ss.fio")
        write(job, "[bad]\nfilename=%s\n%s\nsize=1m\nrw=write\n" % (data, opts))
        code, _, err = run([job], cwd=d)
        c.check(code == 2 and want in err and not os.path.exists(data),
                "%r: exit %d, want 2 and %r: %s" % (opts, code, want, err.strip()))
    # fio's rule: one set of steady state options per reporting group
    write(job, "[global]\nfilename=%s\nsize=1m\n[a]\nss=iops:5%%\nss_dur=2\n[b]\n" % data)
    code, _, err = run([job], cwd=d)
    c.check(code == 2 and "ss.fio:7: job 'b': option 'steadystate_duration': differs from "
            "job 'a', in the same reporting group" in err and not os.path.exists(data),
            "a group of mixed steady state options: exit %d: %s" % (code, err.strip()))
    write(job, "[global]\nfilename=%s\nsize=1m\n[a]\nss=iops:5%%\nss_dur=2\n[b]\nstonewall\n"
          % data)
    code, _, err = run(["--parse-only", job], cwd=d)
    c.check(code == 0, "a stonewall starts a group of its own: exit %d: %s" %
            (code, err.strip()))


def main():
    c = Checks("steadystate")
    d = scratch_dir()
    try:
        check_errors(c, d)
        check_runs(c, d)
        check_ended_first(c, d)
        check_lat_interval(c, d)
        check_phase_interval(c, d)
        check_terse(c, d)
    finally:
        remove(d)
    if not SHIM:
        c.skip("the drifting job: no fault shim (IOJOB_FAULT_SHIM), or a TSan build")
    if not FIO:
        c.skip("fio is not installed: the windows not compared with fio's")
    c.finish()


if __name__ == "__main__":
    main()
