#!/usr/bin/env python3
"""Sweeps appending to one result set at once lose nothing: each cell's line goes out in
one write under a lock on the file, so lines of several processes never interleave, and
every cell of every sweep is there exactly once as valid JSON."""
import collections
import json
import os
import re
import shutil
import subprocess

from common import BIN, Checks, remove, scratch_dir

SWEEPS = 6
DEPTHS = [str(n) for n in range(1, 25)]


def start(d, label):
    args = [BIN, "--name=t", "--ioengine=null", "--size=256k", "--bs=4k", "--rw=randread", "--numjobs=4",
            "--sweep", "iodepth=" + ",".join(DEPTHS), "--label", label,
            "--results", "r.jsonl", "--output-format=terse"]
    return subprocess.Popen(args, cwd=d, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)


def check_lines(c, path):
    seen = collections.Counter()
    bad = 0
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    c.check(lines[-1] == b"", "the result set ends with a newline")
    for line in lines[:-1]:
        try:
            cell = json.loads(line)
        except ValueError:
            bad += 1
            continue
        seen[(cell["label"], cell["cell"]["iodepth"])] += 1
    c.check(bad == 0, "every line is one JSON object: %d are not" % bad)
    want = {("sweep %d" % i, depth) for i in range(SWEEPS) for depth in DEPTHS}
    c.check(set(seen) == want, "every cell of every sweep is there: %d missing, %d extra" %
            (len(want - set(seen)), len(set(seen) - want)))
    twice = [k for k, n in seen.items() if n > 1]
    c.check(not twice, "no cell twice: %r" % twice[:5])


def check_short_writes(c, d):
    """Every write to the result set moves half of what it was given: the lines are whole."""
    shim = os.environ.get("IOJOB_FAULT_SHIM")
    if not shim or not os.path.exists(shim):
        c.skip("no fault shim (IOJOB_FAULT_SHIM): short writes are not tested")
        return
    env = dict(os.environ, LD_PRELOAD=shim, IOJOB_FAULT="write:short:1:0",
               IOJOB_FAULT_PATH="short.jsonl", IOJOB_FAULT_LOG=os.path.join(d, "fault.log"))
    # the shim comes before an ASan build's runtime, which it would otherwise refuse
    env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0"
    p = subprocess.run([BIN, "--name=t", "--ioengine=null", "--size=64k", "--sweep",
                        "iodepth=1,2,3", "--results", "short.jsonl", "--output-format=terse"],
                       cwd=d, env=env, capture_output=True, text=True, timeout=120)
    c.check(p.returncode == 0, "short writes: exit %d %s" % (p.returncode, p.stderr))
    log = ""
    if os.path.exists(os.path.join(d, "fault.log")):
        with open(os.path.join(d, "fault.log")) as f:
            log = f.read()
    c.check(log and "hits=0" not in log, "the writes were cut short: %s" % log.strip())
    with open(os.path.join(d, "short.jsonl"), "rb") as f:
        lines = f.read().split(b"\n")
    try:
        depths = [json.loads(line)["cell"]["iodepth"] for line in lines[:-1]]
    except ValueError:
        depths = None
    c.check(depths == ["1", "2", "3"] and lines[-1] == b"",
            "short writes: every line whole: %r" % depths)


def check_probe_beside(c, d):
    """Whether a missing result set can be made is tried on a name of its own: a sweep
    that made and removed the result set's own name would remove the file of a sweep
    started with it, and the cells that sweep had appended (read back with strace)."""
    if not shutil.which("strace"):
        c.skip("no strace: the check's probe is not read back")
        return
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
    p = subprocess.run(["strace", "-f", "-qq", "-e", "trace=openat,unlink,unlinkat", "-o",
                        os.path.join(d, "st"), BIN, "--name=t", "--ioengine=null",
                        "--size=64k", "--sweep", "iodepth=1,2", "--results", "probe.jsonl",
                        "--output-format=terse"],
                       cwd=d, env=env, capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        c.skip("strace could not trace iojob: %s" % p.stderr.strip()[:200])
        return
    with open(os.path.join(d, "st")) as f:
        trace = f.read()
    removed = re.findall(r'unlink(?:at)?\((?:AT_FDCWD, )?"probe\.jsonl"', trace)
    made = re.findall(r'openat\(AT_FDCWD, "probe\.jsonl", [^)]*O_EXCL[^)]*\) = \d+$', trace, re.M)
    probes = re.findall(r'unlink(?:at)?\((?:AT_FDCWD, )?"probe\.jsonl\.probe-', trace)
    c.check(not removed and len(made) == 1 and len(probes) == 1,
            "the result set's name made once and never removed, the probe beside it: "
            "%d removals, %d made, %d probes" % (len(removed), len(made), len(probes)))
    with open(os.path.join(d, "probe.jsonl")) as f:
        c.check(len(f.read().splitlines()) == 2, "both cells in the result set")


def main():
    c = Checks("resultset_lock")
    d = scratch_dir()
    try:
        procs = [start(d, "sweep %d" % i) for i in range(SWEEPS)]
        for i, p in enumerate(procs):
            _, err = p.communicate(timeout=240)
            c.check(p.returncode == 0, "sweep %d: exit %d %s" % (i, p.returncode, err))
        check_lines(c, os.path.join(d, "r.jsonl"))
        check_short_writes(c, d)
        check_probe_beside(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
