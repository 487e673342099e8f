#!/usr/bin/env python3
"""latency_target, latency_window, latency_percentile and latency_run (issue 17): fio's depth
search, on a device whose latency is a known function of the depth. The fault shim's
io_getevents:depthUS makes each io_getevents call wait US µs for every libaio I/O in
flight; with the default iodepth_batch_complete_min=max=1 each call reaps one I/O, so at
depth d an I/O waits for d calls of d*US each: its latency is about US*d*d, plus d times
what a call costs beyond its sleep (a few hundred µs; a millisecond or two when the machine
is busy). With US=3000 that is about 3, 12, 27, 48, 75 and 108 ms at depths 1 to 6, and
with latency_percentile=50 a window passes when its median I/O meets the target: 90 ms is
met up to depth 5 (unless the median call is 3 ms late) and missed from 6 on, always, since
a sleep never ends early. The search must settle on 5 (fio's sequence 1, 2, 4, 8, 6, 5, 5).
Checked: the depth in the normal report's latency line and in JSON's latency_depth, with
latency_target (ns), latency_window (µs) and latency_percentile as fio prints them; that
the depth never went past iodepth (the most I/Os the shim saw in flight); that the
statistics are those of the last windows, none at depth 8 or more; iodepth below the depth
found (the search stops at iodepth); latency_percentile=100 with a target no depth meets
(ETIMEDOUT at depth 1); disable_lat (nothing compared: iodepth is reached); latency_run (the
job runs its whole runtime and keeps the search's statistics); a note for latency_window
without latency_target, and a bad latency_percentile refused. Where fio 3.33 is installed
the same jobs run in fio under the same shim.

The one tolerance: a machine loaded enough to make the median call at depth 5 late by 3 ms
fails that window, and the search settles on 4; it can never settle higher, since every
I/O at depth 6 misses the target. So iojob's depth is 5, or 4 with a note, and fio's is
within one of iojob's (each run has its own noise)."""
import errno
import os
import re
import shutil
import subprocess

from common import BIN, Checks, engine_available, is_tsan_build, remove, scratch_dir, \
    split_normal_json, traced_env

# Not under ThreadSanitizer: a shim preloaded before TSan's runtime crashes it.
SHIM = os.environ.get("IOJOB_FAULT_SHIM", "")
SHIM = SHIM if os.path.exists(SHIM) and not is_tsan_build() else ""
FIO = shutil.which("fio")
if FIO and os.path.realpath(FIO) == os.path.realpath(BIN):
    FIO = None

STEP_US = 3000          # io_getevents waits this per I/O in flight
TARGET = "90ms"
TARGET_NS = 90000000
WINDOW = "1s"
WINDOW_US = 1000000
PCT = 50
SETTLES = 5             # the highest depth whose latency (~75 ms) meets 90 ms
LAT_LINE = re.compile(r"^\s+latency\s+: target=(\d+), window=(\d+), percentile=([\d.]+)%, "
                      r"depth=(\d+)$", re.M)


def shim_run(prog, args, cwd, log):
    """prog (iojob or fio) with args under the shim; (exit, text report, JSON, max in flight)."""
    env = traced_env({"LD_PRELOAD": SHIM, "IOJOB_FAULT": "io_getevents:depth%d:1:0" % STEP_US,
                      "IOJOB_FAULT_LOG": log})
    if os.path.exists(log):
        os.unlink(log)
    cmd = [prog, "--output-format=normal,json"] + args
    cmd += ["--thread"] if prog == FIO else ["--eta=never"]    # fio: one process, one log
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=180)
    try:
        text, doc = split_normal_json(p.stdout)
    except Exception:
        text, doc = p.stdout + p.stderr, None
    most = None
    if os.path.exists(log):
        with open(log) as f:
            m = re.search(r"max_inflight=(\d+)", f.read())
            most = int(m.group(1)) if m else None
    return p.returncode, text, doc, most, p.stderr


def job(path, *extra):
    return ["--name=lat", "--filename=" + path, "--ioengine=libaio", "--rw=randread",
            "--bs=4k", "--size=4m", "--time_based", "--runtime=60",
            "--latency_target=" + TARGET, "--latency_window=" + WINDOW,
            "--latency_percentile=%d" % PCT] + list(extra)


def depth_buckets(job_doc):
    return {k: v for k, v in job_doc["iodepth_level"].items()}


def check_report(c, name, text, jd, depth):
    """The latency line and JSON's keys carry the search's values, as fio prints them."""
    m = LAT_LINE.search(text)
    c.check(m is not None, "%s: no latency line in the normal report" % name)
    if m:
        c.check((int(m.group(1)), int(m.group(2)), float(m.group(3)), int(m.group(4))) ==
                (TARGET_NS, WINDOW_US, float(PCT), depth),
                "%s: latency line %r, want target=%d, window=%d, percentile=%d.00%%, "
                "depth=%d" % (name, m.group(0).strip(), TARGET_NS, WINDOW_US, PCT, depth))
    c.check((jd["latency_target"], jd["latency_window"], jd["latency_percentile"]) ==
            (TARGET_NS, WINDOW_US, float(PCT)),
            "%s: JSON latency_target/window/percentile %s/%s/%s" %
            (name, jd["latency_target"], jd["latency_window"], jd["latency_percentile"]))


# Set by calibrate(): the machine itself adds enough latency (a loaded machine) that the
# depth the search settles on is no longer the model's; then the depths are only noted.
LOADED = False


def calibrate(d, path):
    """The shim's model at depth 4 (about 3 x 4 x 4 = 48 ms an I/O): a mean far above it
    is the machine's doing, not the search's."""
    global LOADED
    args = ["--name=cal", "--filename=" + path, "--ioengine=libaio", "--rw=randread",
            "--bs=4k", "--size=4m", "--time_based", "--runtime=2", "--iodepth=4"]
    code, _, doc, _, _ = shim_run(BIN, args, d, d + "/f.log")
    if code or not doc:
        return
    mean_ms = doc["jobs"][0]["read"]["lat_ns"]["mean"] / 1e6
    LOADED = mean_ms > 1.3 * 48
    if LOADED:
        print("NOTE: at depth 4 an I/O took %.1f ms, not about 48: the machine adds latency, "
              "so the depths the searches settle on are noted, not checked" % mean_ms)


def settled(c, name, depth, want):
    if LOADED and 1 <= depth <= want:
        print("NOTE: %s settled on %d (the model: %d) on a loaded machine" % (name, depth, want))
        return
    if depth == want - 1:
        print("NOTE: %s settled on %d, not %d: a window at %d had more than %d%% of its "
              "I/Os late (a loaded machine)" % (name, depth, want, want, 100 - PCT))
    c.check(depth in (want, want - 1), "%s: settled on depth %d, want %d" %
            (name, depth, want))


def check_search(c, d, path):
    code, text, doc, most, err = shim_run(BIN, job(path, "--iodepth=16"), d, d + "/f.log")
    c.check(code == 0 and doc, "search: exit %d: %s" % (code, err.strip()))
    if not doc:
        return None
    jd = doc["jobs"][0]
    depth = jd["latency_depth"]
    print("search: settled on depth %d, at most %s in flight" % (depth, most))
    settled(c, "search", depth, SETTLES)
    check_report(c, "search", text, jd, depth)
    c.check(most is not None and depth <= most <= 16,
            "search: at most %s I/Os in flight, want between %d and iodepth=16" % (most, depth))
    # After settling nothing runs deeper than the depth settled on (a last window that
    # fails goes lower), and the statistics start there: none at depth 8 or more.
    levels = depth_buckets(jd)
    c.check(levels["8"] == 0 and levels["16"] == 0 and (levels["4"] > 0 or LOADED),
            "search: the last windows issue at depth %d or lower, IO depths %s" %
            (depth, levels))
    # ended by the search after its last window, not by runtime=60
    c.check(jd["job_runtime"] < 60000, "search: ran %d ms: the search did not end the job" %
            jd["job_runtime"])
    return depth


def check_cap(c, d, path):
    code, text, doc, most, err = shim_run(BIN, job(path, "--iodepth=3"), d, d + "/f.log")
    c.check(code == 0 and doc, "iodepth=3: exit %d: %s" % (code, err.strip()))
    if not doc:
        return None
    jd = doc["jobs"][0]
    if LOADED and jd["latency_depth"] < 3:
        print("NOTE: iodepth=3: settled on %d on a loaded machine" % jd["latency_depth"])
    else:
        c.check(jd["latency_depth"] == 3, "iodepth=3: settled on %d, want 3 (it stops at "
                "iodepth)" % jd["latency_depth"])
    c.check(most is not None and most <= 3, "iodepth=3: %s I/Os in flight at once" % most)
    check_report(c, "iodepth=3", text, jd, jd["latency_depth"])
    return jd["latency_depth"]


def check_unmet(c, d, path, prog, name):
    """latency_percentile=100: an I/O over the target at depth 1 fails the job."""
    args = job(path, "--iodepth=4", "--latency_target=1ms", "--latency_percentile=100")
    code, text, doc, _, err = shim_run(prog, args, d, d + "/f.log")
    c.check(code == 1, "%s: exit %d, want 1: %s" % (name, code, err.strip()))
    if doc:
        c.check(doc["jobs"][0]["error"] == errno.ETIMEDOUT, "%s: error %s, want ETIMEDOUT" %
                (name, doc["jobs"][0]["error"]))
    if prog == BIN:
        c.check("latency_target" in err and "at depth 1" in err and "'" + path + "'" in err,
                "%s: the message names latency_target, the file and depth 1: %r" %
                (name, err.strip()))


def check_no_lat(c, d, path, prog, name):
    """disable_lat: total latency (what fio compares) is not measured, nothing is compared:
    iodepth is reached."""
    code, _, doc, _, err = shim_run(prog, job(path, "--iodepth=8", "--disable_lat=1"), d,
                                    d + "/f.log")
    c.check(code == 0 and doc and doc["jobs"][0]["latency_depth"] == 8,
            "%s: exit %d, depth %s, want 8: %s" %
            (name, code, doc and doc["jobs"][0]["latency_depth"], err.strip()))


def check_run(c, d, path):
    """latency_run: no settling; the job runs its runtime and its statistics keep the search."""
    args = job(path, "--iodepth=16", "--latency_run=1", "--runtime=6")
    code, text, doc, most, err = shim_run(BIN, args, d, d + "/f.log")
    c.check(code == 0 and doc, "latency_run: exit %d: %s" % (code, err.strip()))
    if not doc:
        return
    jd = doc["jobs"][0]
    levels = depth_buckets(jd)
    print("latency_run: depth %d at the end, IO depths %s" % (jd["latency_depth"], levels))
    c.check(jd["job_runtime"] >= 6000, "latency_run: ran %d ms, want its runtime (6000)" %
            jd["job_runtime"])
    c.check(levels["1"] > 0 and (levels["8"] > 0 or LOADED),
            "latency_run: the statistics keep the search's depths 1 and 8: %s" % levels)
    c.check(SETTLES - 1 <= jd["latency_depth"] <= SETTLES + 1 or
            (LOADED and 1 <= jd["latency_depth"] <= SETTLES + 1),
            "latency_run: depth %d at the end, want about %d" % (jd["latency_depth"], SETTLES))
    c.check(most is not None and most <= 16, "latency_run: %s in flight" % most)


def check_options(c, d, path):
    """latency_window alone is noted, as fio ignores it; a bad percentile is refused."""
    p = subprocess.run([BIN, "--eta=never", "--name=w", "--filename=" + path, "--size=64k",
                        "--latency_window=1s"], cwd=d, capture_output=True, text=True)
    c.check(p.returncode == 0 and "'latency_window' acts only with latency_target" in p.stderr,
            "latency_window alone: exit %d, want 0 and a note: %r" % (p.returncode, p.stderr))
    jf = os.path.join(d, "bad.fio")
    with open(jf, "w") as f:
        f.write("[bad]\nfilename=%s\nsize=64k\nlatency_target=1ms\nlatency_percentile=101\n"
                % path)
    p = subprocess.run([BIN, "--eta=never", jf], cwd=d, capture_output=True, text=True)
    c.check(p.returncode == 2 and "bad.fio:5" in p.stderr and "latency_percentile" in p.stderr
            and "not a percentage from 0 to 100" in p.stderr,
            "latency_percentile=101: exit %d, want 2 naming file, line and option: %r" %
            (p.returncode, p.stderr.strip()))


def check_fio(c, d, path, ours, ours_cap):
    code, text, doc, most, err = shim_run(FIO, job(path, "--iodepth=16"), d, d + "/f.log")
    c.check(code == 0 and doc, "fio search: exit %d: %s" % (code, err.strip()))
    if doc:
        jd = doc["jobs"][0]
        print("fio: settled on depth %d, at most %s in flight" % (jd["latency_depth"], most))
        check_report(c, "fio", text, jd, jd["latency_depth"])
        if ours is not None and not LOADED:
            c.check(abs(jd["latency_depth"] - ours) <= 1, "fio settled on %d, iojob on %d" %
                    (jd["latency_depth"], ours))
    code, _, doc, _, err = shim_run(FIO, job(path, "--iodepth=3"), d, d + "/f.log")
    c.check(code == 0 and doc and (doc["jobs"][0]["latency_depth"] == ours_cap or LOADED),
            "fio iodepth=3: exit %d, depth %s, iojob's %s" %
            (code, doc and doc["jobs"][0]["latency_depth"], ours_cap))
    check_unmet(c, d, path, FIO, "fio, target unmet at depth 1")
    check_no_lat(c, d, path, FIO, "fio, disable_lat")


def main():
    c = Checks("opts_latency")
    d = scratch_dir()
    try:
        path = os.path.join(d, "data")
        with open(path, "wb") as f:
            f.write(b"\x5a" * (4 << 20))
        check_options(c, d, path)
        if not SHIM or not engine_available("libaio"):
            c.skip("the depth search needs the fault shim (not under ThreadSanitizer) "
                   "and libaio")
            return c.finish()
        calibrate(d, path)
        ours = check_search(c, d, path)
        ours_cap = check_cap(c, d, path)
        check_unmet(c, d, path, BIN, "target unmet at depth 1")
        check_no_lat(c, d, path, BIN, "disable_lat")
        check_run(c, d, path)
        if FIO:
            check_fio(c, d, path, ours, ours_cap)
        else:
            c.skip("fio is not installed: no comparison with fio 3.33")
    finally:
        remove(d)
    return c.finish()


if __name__ == "__main__":
    main()
