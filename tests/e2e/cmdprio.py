#!/usr/bin/env python3
"""cmdprio_percentage, cmdprio_class, cmdprio, cmdprio_hint and cmdprio_bssplit of libaio
and io_uring, as fio 3.33 has them.

The I/Os that get a priority are seen in the per-priority latencies fio reports ("prios"
in JSON, "clat prio C/L" lines in the normal report): their sample counts must add up to
the direction's, the share of each must be the percentage asked for, and with
cmdprio_bssplit the bytes moved must be exactly those of the block sizes the table gives
each priority. libaio's iocbs are read back with strace where it is installed. The shapes
are compared with fio's own when fio is installed; bad values are refused with exit 2.
prioclass= and prio= set the job thread's priority (read back with strace), which is the
default one in cmdprio's view, and tell apart a group's jobs of different priorities.
Classes 2 (best effort) and 3 (idle) need no privilege; real time (1, the default) does,
so it is checked as root only, and without root it must fail as fio fails (EPERM).
"""
import json
import os
import re
import shutil
import subprocess

from common import BIN, Checks, engine_available, remove, run, scratch_dir, split_normal_json

SIZE = "4m"	# 1024 I/Os of 4k: a share is within a few percent of the one asked for


def job(d, engine, opts, fmt="json"):
    args = ["--name=p", "--ioengine=" + engine, "--filename=" + os.path.join(d, engine + ".dat"),
            "--size=" + SIZE, "--bs=4k", "--output-format=" + fmt] + opts
    return run(args, cwd=d)


def json_job(c, d, engine, opts, what):
    code, out, err = job(d, engine, opts)
    c.check(code == 0, "%s %s: exit %d: %s" % (engine, what, code, err.strip()))
    if code != 0:
        return None
    return json.loads(out)["jobs"][0]


def prios(dirobj, key="clat_ns"):
    """{(class, level[, hint]): N} of a direction's "prios", or None without them."""
    if "prios" not in dirobj:
        return None
    out = {}
    for p in dirobj["prios"]:
        k = (p["prioclass"], p["prio"]) + ((p["priohint"],) if "priohint" in p else ())
        out[k] = p[key]["N"]
    return out


def check_sums(c, dirobj, what, key="clat_ns"):
    """The priorities' samples are the direction's, split: counts, min, max, mean."""
    entries = [p[key] for p in dirobj.get("prios", [])]
    whole = dirobj[key]
    c.check(sum(e["N"] for e in entries) == whole["N"],
            "%s: per-priority N %s, the direction's %d" % (what, [e["N"] for e in entries],
                                                           whole["N"]))
    if entries:
        c.check(min(e["min"] for e in entries) == whole["min"] and
                max(e["max"] for e in entries) == whole["max"], "%s: min/max" % what)
        mean = sum(e["mean"] * e["N"] for e in entries) / whole["N"]
        c.check(abs(mean - whole["mean"]) <= 1e-6 * whole["mean"] + 1, "%s: mean" % what)


def near(n, total, pct, tol=8.0):
    return total > 0 and abs(100.0 * n / total - pct) <= tol


def check_percentage(c, d, engine):
    j = json_job(c, d, engine, ["--rw=randrw", "--cmdprio_percentage=30,70",
                                "--cmdprio_class=2", "--cmdprio=4,6"], "percentage")
    if not j:
        return
    for dname, want, level in (("read", 30, 4), ("write", 70, 6)):
        p = prios(j[dname])
        total = j[dname]["clat_ns"]["N"]
        c.check(p is not None and set(p) == {(0, 0), (2, level)},
                "%s %s: priorities %s, want 0/0 and 2/%d" % (engine, dname, p, level))
        if p and (2, level) in p:
            c.check(near(p[(2, level)], total, want), "%s %s: %d of %d I/Os at 2/%d, want "
                    "%d%%" % (engine, dname, p[(2, level)], total, level, want))
        check_sums(c, j[dname], "%s %s" % (engine, dname))
    keys = list(j["read"])
    c.check(keys.index("prios") == keys.index("lat_ns") + 1, "%s: prios follows lat_ns, as "
            "in fio: %s" % (engine, keys))
    c.check(list(j["read"]["prios"][0]) == ["prioclass", "prio", "clat_ns"],
            "%s: an entry's keys %s" % (engine, list(j["read"]["prios"][0])))
    # One value each, the read's left alone: reads have no priority of their own.
    j = json_job(c, d, engine, ["--rw=randrw", "--cmdprio_percentage=,40", "--cmdprio_class=3"],
                 "percentage ,40")
    if j:
        c.check("prios" not in j["read"], "%s: ',40' gave reads priorities" % engine)
        p = prios(j["write"]) or {}
        c.check(set(p) == {(0, 0), (3, 0)} and near(p[(3, 0)], j["write"]["clat_ns"]["N"], 40),
                "%s: ',40' writes %s" % (engine, p))
    # Without cmdprio, or with one priority only (100%), fio shows no per-priority view.
    for opts in ([], ["--cmdprio_percentage=100", "--cmdprio_class=2"]):
        j = json_job(c, d, engine, ["--rw=randread"] + opts, " ".join(opts) or "no cmdprio")
        c.check(j is None or "prios" not in j["read"], "%s %s: prios shown" % (engine, opts))


def check_bssplit(c, d, engine):
    # norandommap: the random map would shrink a block to the free space it found.
    j = json_job(c, d, engine, ["--rw=randread", "--norandommap", "--bssplit=4k/50:16k/50",
                                "--cmdprio_bssplit=4k/100/2/3:16k/0"], "bssplit by size")
    if j:
        p = prios(j["read"]) or {}
        c.check(set(p) == {(0, 0), (2, 3)}, "%s bssplit: priorities %s" % (engine, p))
        if set(p) == {(0, 0), (2, 3)}:
            c.check(j["read"]["io_bytes"] == 4096 * p[(2, 3)] + 16384 * p[(0, 0)],
                    "%s bssplit: %d bytes, but %d 4k I/Os at 2/3 and %d 16k at 0/0" %
                    (engine, j["read"]["io_bytes"], p[(2, 3)], p[(0, 0)]))
    # Two entries for one size, one of them with cmdprio_class/cmdprio's priority.
    j = json_job(c, d, engine, ["--rw=randread", "--cmdprio_bssplit=4k/25:4k/75/3/1",
                                "--cmdprio_class=2", "--cmdprio=5"], "bssplit 25/75")
    if j:
        p = prios(j["read"]) or {}
        total = j["read"]["clat_ns"]["N"]
        c.check(set(p) == {(2, 5), (3, 1)} and near(p[(2, 5)], total, 25),
                "%s bssplit 25/75: %s of %d" % (engine, p, total))
    # Class 0 in an entry is best effort, as fio's ioprio_value() has it.
    j = json_job(c, d, engine, ["--rw=randread", "--cmdprio_bssplit=4k/50/0/3"], "class 0")
    if j:
        c.check(set(prios(j["read"]) or {}) == {(0, 0), (2, 3)}, "%s bssplit class 0: %s" %
                (engine, prios(j["read"])))
    # Seven priorities of cmdprio's beside the job's own (fio 3.33 takes more than the 3
    # this took: fio HEAD's example gives 4 hints), each kept apart, their counts the whole.
    j = json_job(c, d, engine, ["--rw=randread", "--cmdprio_bssplit=" +
                                ":".join("4k/12/2/%d" % i for i in range(7))],
                 "bssplit, 7 priorities")
    if j:
        p = prios(j["read"]) or {}
        c.check(set(p) == {(0, 0)} | {(2, i) for i in range(7)} and
                sum(p.values()) == j["read"]["clat_ns"]["N"],
                "%s bssplit, 7 priorities and the job's own: %s" % (engine, p))
    # Per direction: reads,writes.
    j = json_job(c, d, engine, ["--rw=randrw", "--cmdprio_bssplit=4k/50/2/1,4k/20/3/0"],
                 "bssplit per direction")
    if j:
        r, w = prios(j["read"]) or {}, prios(j["write"]) or {}
        c.check(set(r) == {(0, 0), (2, 1)} and near(r[(2, 1)], j["read"]["clat_ns"]["N"], 50),
                "%s bssplit reads %s" % (engine, r))
        c.check(set(w) == {(0, 0), (3, 0)} and near(w[(3, 0)], j["write"]["clat_ns"]["N"], 20),
                "%s bssplit writes %s" % (engine, w))


def check_stats_kinds(c, d, engine):
    """lat_percentiles (lat_ns entries), json+ bins, groups, mixed, hints."""
    j = json_job(c, d, engine, ["--rw=randread", "--cmdprio_percentage=50", "--cmdprio_class=2",
                                "--lat_percentiles=1"], "lat_percentiles")
    if j:
        e = j["read"].get("prios", [{}])[0]
        c.check("lat_ns" in e and "clat_ns" not in e and "percentile" in e["lat_ns"],
                "%s lat_percentiles: entry %s" % (engine, list(e)))
        check_sums(c, j["read"], engine + " lat_percentiles", "lat_ns")
    code, out, err = job(d, engine, ["--rw=randread", "--cmdprio_percentage=50",
                                     "--cmdprio_class=2"], "json+")
    if code == 0:
        for e in json.loads(out)["jobs"][0]["read"].get("prios", []):
            bins = e["clat_ns"].get("bins", {})
            c.check(sum(bins.values()) == e["clat_ns"]["N"], "%s json+: bins of %s" %
                    (engine, (e["prioclass"], e["prio"])))
    j = json_job(c, d, engine, ["--rw=randrw", "--cmdprio_percentage=50", "--cmdprio_class=2",
                                "--numjobs=2", "--group_reporting=1"], "group")
    if j:
        check_sums(c, j["read"], engine + " group")
        check_sums(c, j["write"], engine + " group")
        n = j["read"]["clat_ns"]["N"] + j["write"]["clat_ns"]["N"]
        c.check(n == 2048, "%s group: %d I/Os, two jobs of 1024" % (engine, n))
    j = json_job(c, d, engine, ["--rw=randrw", "--cmdprio_percentage=50", "--cmdprio_class=2",
                                "--unified_rw_reporting=mixed"], "mixed")
    if j:
        c.check(prios(j["mixed"]) is not None, "%s mixed: no prios" % engine)
        check_sums(c, j["mixed"], engine + " mixed")
    # ramp_time starts the statistics afresh: still kept per priority.
    j = json_job(c, d, engine, ["--rw=randread", "--cmdprio_percentage=50", "--cmdprio_class=2",
                                "--ramp_time=100ms", "--io_size=8m"], "ramp_time")
    if j:
        c.check(prios(j["read"]) is not None, "%s ramp_time: no prios" % engine)
        check_sums(c, j["read"], engine + " ramp_time")
    j = json_job(c, d, engine, ["--rw=randread", "--cmdprio_percentage=50", "--cmdprio_class=2",
                                "--cmdprio_hint=1"], "hint")
    if j:
        c.check((2, 0, 1) in (prios(j["read"]) or {}), "%s hint: %s" % (engine,
                                                                        prios(j["read"])))


def prio_lines(text):
    return [line for line in text.splitlines() if " prio " in line]


def shape(line):
    """A line with its numbers and units made N and U: what fio's and ours share. The
    padding of %5.02f ("stdev= 9.20") depends on the value, so it goes too."""
    line = re.sub(r"\((nsec|usec|msec)\)", "(U)", re.sub(r"=\s+", "=", re.sub(r"\s+", " ", line)))
    return re.sub(r"\d+(\.\d+)?k?", "N", line)


def check_normal(c, d, engine):
    opts = ["--rw=randrw", "--cmdprio_percentage=30", "--cmdprio_class=2", "--cmdprio=4"]
    code, out, err = job(d, engine, opts, "normal,json")
    c.check(code == 0, "%s normal: exit %d: %s" % (engine, code, err))
    if code != 0:
        return
    text, doc = split_normal_json(out)
    lines = prio_lines(text)
    for dname in ("read", "write"):
        n = {k: v for k, v in prios(doc["jobs"][0][dname]).items()}
        total = sum(n.values())
        for (cls, lvl), count in n.items():
            c.check(any(re.match(r"    clat prio %d/%d \([num]sec\): min=" % (cls, lvl), l)
                        for l in lines), "%s normal: no latency line for %d/%d" %
                    (engine, cls, lvl))
            pct = "%.2f%% of IOs" % (100.0 * count / total)
            c.check(any(("clat prio %d/%d (%s) percentiles (" % (cls, lvl, pct)) in l
                        for l in lines), "%s normal: no '%d/%d (%s)' block" %
                    (engine, cls, lvl, pct))
    code, out, _ = job(d, engine, ["--rw=randrw"], "normal")
    c.check(code == 0 and not prio_lines(out), "%s: prio lines without cmdprio" % engine)
    fio = shutil.which("fio")
    if not fio or fio == os.path.realpath(BIN):
        c.skip("fio is not installed: shapes not compared with fio's")
        return
    p = subprocess.run([fio, "--name=p", "--ioengine=" + engine, "--filename=" +
                        os.path.join(d, engine + ".dat"), "--size=" + SIZE, "--bs=4k",
                        "--output-format=normal"] + opts, cwd=d, capture_output=True, text=True)
    if p.returncode != 0:
        c.skip("fio %s: exit %d: %s" % (engine, p.returncode, p.stderr.strip()))
        return
    c.check([shape(l) for l in prio_lines(p.stdout)] == [shape(l) for l in lines],
            "%s normal: prio lines\n%s\nfio's\n%s" % (engine, "\n".join(lines),
                                                     "\n".join(prio_lines(p.stdout))))
    p = subprocess.run([fio, "--name=p", "--ioengine=" + engine, "--filename=" +
                        os.path.join(d, engine + ".dat"), "--size=" + SIZE, "--bs=4k",
                        "--output-format=json"] + opts, cwd=d, capture_output=True, text=True)
    fj = json.loads(p.stdout[p.stdout.find("{"):])["jobs"][0]["read"]
    mine = doc["jobs"][0]["read"]
    c.check(list(fj) == list(mine), "%s JSON keys %s, fio's %s" % (engine, list(mine), list(fj)))
    c.check([list(e) for e in fj["prios"]] == [list(e) for e in mine["prios"]] and
            [list(e["clat_ns"]) for e in fj["prios"]] == [list(e["clat_ns"]) for e in
                                                         mine["prios"]],
            "%s prios entries' keys differ from fio's" % engine)


def traced_env():
    """LeakSanitizer cannot run under ptrace: an ASan build traced by strace leaves it off."""
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
    return env


def check_kernel_sees_it(c, d):
    """libaio: every I/O counted under 2/4 went to io_submit with that priority, flagged."""
    if not shutil.which("strace"):
        c.skip("no strace: libaio's iocbs not read back")
        return
    args = ["strace", "-f", "-qq", "-e", "trace=io_submit", "-v", "-o", os.path.join(d, "st"),
            BIN, "--name=p", "--ioengine=libaio", "--filename=" + os.path.join(d, "s.dat"),
            "--size=1m", "--rw=randread", "--cmdprio_percentage=40", "--cmdprio_class=2",
            "--cmdprio=4", "--output-format=json"]
    p = subprocess.run(args, cwd=d, capture_output=True, text=True, env=traced_env())
    if p.returncode != 0:
        c.skip("strace could not trace iojob: %s" % p.stderr.strip()[:200])
        return
    n = prios(json.loads(p.stdout)["jobs"][0]["read"])[(2, 4)]
    with open(os.path.join(d, "st")) as f:
        trace = f.read()
    flagged = trace.count("IOCB_FLAG_IOPRIO")
    c.check(flagged == n and trace.count("IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4)") == n,
            "libaio: %d iocbs flagged, %d I/Os counted at 2/4" % (flagged, n))


def check_rt(c, d, engine):
    """The default class is real time, as fio's: root only, else EPERM as with fio."""
    code, out, err = job(d, engine, ["--rw=randread", "--cmdprio_percentage=50"])
    if os.geteuid() == 0:
        p = prios(json.loads(out)["jobs"][0]["read"]) if code == 0 else None
        c.check(p is not None and set(p) == {(0, 0), (1, 0)}, "%s rt: %s (%s)" %
                (engine, p, err.strip()))
    else:
        c.check(code == 1 and "Operation not permitted" in err, "%s rt without root: exit "
                "%d: %s" % (engine, code, err.strip()))


def check_prioclass(c, d, engines):
    """prioclass=, prio=: the thread's priority (ioprio_set), the default one of cmdprio's
    view, and in a group, jobs of different priorities are told apart, as in fio."""
    for engine in engines:
        j = json_job(c, d, engine, ["--rw=randread", "--prioclass=2", "--prio=6",
                                    "--cmdprio_percentage=50", "--cmdprio_class=3"], "prio")
        if j:
            p = prios(j["read"]) or {}
            c.check(set(p) == {(2, 6), (3, 0)}, "%s prioclass=2 prio=6: %s" % (engine, p))
    jf = os.path.join(d, "group.fio")
    with open(jf, "w") as f:
        f.write("[global]\nioengine=psync\nsize=1m\ngroup_reporting=1\nfilename=%s\n"
                "[a]\nprio=1\n[b]\nprio=5\n[c]\nnew_group\nprio=3\n[d]\nprio=3\n" %
                os.path.join(d, "g.dat"))
    code, out, err = run(["--output-format=json", jf], cwd=d)
    c.check(code == 0, "prio groups: exit %d: %s" % (code, err))
    if code == 0:
        jobs = json.loads(out)["jobs"]
        c.check(prios(jobs[0]["read"]) == {(2, 1): 256, (2, 5): 256},
                "group of prio=1 and prio=5: %s" % prios(jobs[0]["read"]))
        c.check("prios" not in jobs[1]["read"], "group of one priority: prios shown")
    # priohint= (fio HEAD) goes above the level, as fio HEAD sends it: class << 13 |
    # hint << 3 | level, best effort when no class is set
    for opts, want in ((["--prioclass=3", "--prio=2"], "IOPRIO_CLASS_IDLE, 2"),
                       (["--priohint=3"], "IOPRIO_CLASS_BE, 24"),
                       (["--priohint=5", "--prioclass=3", "--prio=1"], "IOPRIO_CLASS_IDLE, 41")):
        if not shutil.which("strace"):
            break
        p = subprocess.run(["strace", "-f", "-qq", "-e", "trace=ioprio_set", "-o",
                            os.path.join(d, "pt"), BIN, "--name=x", "--ioengine=psync",
                            "--filename=" + os.path.join(d, "g.dat"), "--size=64k"] + opts,
                           cwd=d, capture_output=True, text=True, env=traced_env())
        with open(os.path.join(d, "pt")) as f:
            trace = f.read()
        c.check(p.returncode == 0 and "IOPRIO_PRIO_VALUE(%s)) = 0" % want in trace,
                "%s: %s" % (" ".join(opts), trace.strip()[-200:]))
    code, _, err = run(["--name=x", "--ioengine=psync", "--size=1m", "--filename=" +
                        os.path.join(d, "g.dat"), "--prioclass=1"], cwd=d)
    if os.geteuid() == 0:
        c.check(code == 0, "prioclass=1 as root: exit %d: %s" % (code, err))
    else:
        c.check(code == 1 and "ioprio_set: Operation not permitted" in err,
                "prioclass=1 without root: exit %d: %s" % (code, err))
    for opt, text in (("--prioclass=4", "'prioclass'"), ("--prio=8", "'prio'"),
                      ("--priohint=1024", "'priohint'")):
        code, _, err = run(["--name=x", "--size=1m", opt], cwd=d)
        c.check(code == 2 and text in err, "%s: exit %d: %s" % (opt, code, err))


BAD = [
    (["--cmdprio_percentage=101"], "cmdprio_percentage", "percentage from 0 to 100"),
    (["--cmdprio_class=0"], "cmdprio_class", "class from 1 to 3"),
    (["--cmdprio_class=2,4"], "cmdprio_class", "'4'"),
    (["--cmdprio=8"], "cmdprio", "level from 0 to 7"),
    (["--cmdprio_hint=1024"], "cmdprio_hint", "hint from 0 to 1023"),
    (["--cmdprio_bssplit=4k/50/1"], "cmdprio_bssplit", "'4k/50/1' is not"),
    (["--cmdprio_bssplit=4q/50"], "cmdprio_bssplit", "'4q/50' is not"),
    (["--cmdprio_bssplit=4k/60:4k/50"], "cmdprio_bssplit", "more than 100"),
    (["--cmdprio_bssplit=" + ":".join("4k/10/2/%d" % i for i in range(8))], "cmdprio_bssplit",
     "more than 7 priorities"),
    (["--cmdprio_percentage=10", "--cmdprio_bssplit=4k/5"], "cmdprio_bssplit",
     "exclude each other"),
    (["--cmdprio_bssplit=4k/5", "--cmdprio_percentage=10"], "cmdprio_percentage",
     "exclude each other"),
]


def check_refused(c, d, engine):
    for opts, name, text in BAD:
        code, _, err = job(d, engine, opts)
        c.check(code == 2 and ("option '%s'" % name) in err and text in err,
                "%s %s: exit %d, %r" % (engine, opts, code, err.strip()))
    code, _, err = job(d, "psync", ["--cmdprio_percentage=10"])
    c.check(code == 2 and "ioengines 'libaio', 'io_uring'" in err or
            code == 2 and "belongs to ioengine" in err, "psync: %r" % err)
    code, out, _ = run(["--cmdhelp=cmdprio_bssplit"])
    c.check(code == 0 and "bs/perc[/class/level[/hint]]" in out, "--cmdhelp: %r" % out)


def main():
    c = Checks("cmdprio")
    engines = [e for e in ("libaio", "io_uring") if engine_available(e)]
    if not engines:
        c.skip("built without libaio and io_uring")
        c.finish()
    d = scratch_dir()
    try:
        for engine in engines:
            check_refused(c, d, engine)
            code, _, err = job(d, engine, ["--rw=read", "--cmdprio_percentage=50",
                                           "--cmdprio_class=2"])
            if code != 0:
                c.skip("%s cannot run here: %s" % (engine, err.strip()))
                continue
            check_percentage(c, d, engine)
            check_bssplit(c, d, engine)
            check_stats_kinds(c, d, engine)
            check_normal(c, d, engine)
            check_rt(c, d, engine)
        if "libaio" in engines:
            check_kernel_sees_it(c, d)
        check_prioclass(c, d, engines)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
