#!/usr/bin/env python3
"""Sweeps and result sets: --sweep runs every combination in order, --results keeps one
self-describing JSON line per cell, --resume skips the cells already kept, a bad value in
any cell stops the sweep before it starts, and a signal ends it keeping finished cells."""
import json
import os
import signal
import subprocess

from common import BIN, Checks, PipeReader, remove, run, scratch_dir

SIZE = 1 << 20
JOB = "[global]\nioengine=psync\nfilename=data.bin\nsize=1m\n[t]\nrw=read\n"


def results(path):
    """The cells in a result set; a line cut short is returned as None."""
    out = []
    with open(path) as f:
        for line in f:
            try:
                out.append(json.loads(line))
            except ValueError:
                out.append(None)
    return out


def sweep_args(extra=()):
    return ["--sweep", "bs=4k,64k", "--sweep", "rw=seqrd,rndrd", "--label", "disk A",
            "--set", "iodepth=1", "--results", "r.jsonl"] + list(extra) + ["job.fio"]


def check_matrix(c, d):
    code, out, err = run(sweep_args(), cwd=d)
    c.check(code == 0, "sweep: exit %d %s" % (code, err))
    cells = [l.split(": ", 1)[1] for l in out.splitlines() if l.startswith("Sweep (--sweep)")]
    c.check(cells == ["bs=4k, rw=seqrd", "bs=4k, rw=rndrd", "bs=64k, rw=seqrd",
                      "bs=64k, rw=rndrd"], "cells in order, first axis slowest: %r" % cells)
    c.check(out.count("Laying out IO file") == 1,
            "the file is laid out once for all cells, not per cell")
    rs = results(os.path.join(d, "r.jsonl"))
    c.check(len(rs) == 4, "one result line per cell: %d" % len(rs))
    for cell, bs, rw in zip(rs, [4096, 4096, 65536, 65536],
                            ["read", "randread", "read", "randread"]):
        job = cell["report"]["jobs"][0]
        c.check(cell["label"] == "disk A" and cell["sets"] == {"iodepth": "1"},
                "label and --set kept: %r %r" % (cell["label"], cell["sets"]))
        c.check(cell["cell"] == {"bs": str(bs // 1024) + "k",
                                 "rw": "seqrd" if rw == "read" else "rndrd"},
                "the swept values as given: %r" % cell["cell"])
        # rw in fio's words (seqrd is sysbench's), bs as written, as fio echoes it: what
        # ran, in iojob's options (fio's "job options" hold what the section set)
        ran = job["iojob"]["options"]
        c.check(ran["rw"] == rw and ran["bs"] == str(bs // 1024) + "k",
                "iojob.options show what ran: %r" % ran)
        c.check(job["read"]["total_ios"] == SIZE // bs and job["read"]["io_bytes"] == SIZE,
                "cell bs=%d: %d ios" % (bs, job["read"]["total_ios"]))
        c.check(len(job["read"]["clat_ns"].get("bins", {})) > 0, "json+ bins are kept")
        c.check(cell["job_files"] == ["job.fio"] and cell["kernel"] and cell["host"],
                "job files, host and kernel recorded")
        disks = [u["name"] for u in cell["report"].get("disk_util", [])]
        c.check([t["device"] for t in cell["targets"]] == disks[:len(cell["targets"])] and
                all("model" in t for t in cell["targets"]) and
                (not disks or cell["targets"]),
                "targets are the report's disks: %r %r" % (cell["targets"], disks))


def check_resume(c, d):
    path = os.path.join(d, "r.jsonl")
    code, out, err = run(sweep_args(["--resume"]), cwd=d)
    c.check(code == 0 and err.count("skipped") == 4 and "Sweep (--sweep)" not in out,
            "--resume skips every kept cell: exit %d %r" % (code, err))
    c.check(len(results(path)) == 4, "nothing appended when every cell is kept")
    # A crash in the middle of writing the last line leaves half of it.
    with open(path) as f:
        lines = f.readlines()
    with open(path, "w") as f:
        f.writelines(lines[:3])
        f.write(lines[3][:len(lines[3]) // 2])
    code, out, err = run(sweep_args(["--resume"]), cwd=d)
    rs = results(path)
    c.check(code == 0 and err.count("skipped") == 3 and out.count("Sweep (--sweep)") == 1,
            "--resume reruns only the cell cut short: %r" % err)
    c.check(len(rs) == 5 and rs[3] is None and rs[4]["cell"] == {"bs": "64k", "rw": "rndrd"},
            "the rerun cell is appended after the broken line")
    code, _, err = run(sweep_args(["--resume", "--label", "disk B"]), cwd=d)
    c.check(code == 0 and "skipped" not in err and len(results(path)) == 9,
            "another label is another set of cells")
    code, _, err = run(["--resume", "job.fio"], cwd=d)
    c.check(code == 2 and "--resume needs --results" in err, "--resume alone: %r" % err)
    check_resume_key(c, d)


def check_resume_key(c, d):
    """A cell is the same for --resume only with the same jobs: another --section, another
    option in the job file or on the command line runs, the same jobs again skip."""
    with open(os.path.join(d, "two.fio"), "w") as f:
        f.write(JOB + "[u]\nrw=randread\nstonewall\n")
    args = ["--results", "key.jsonl", "--resume"]
    for step, extra, skips in (("section t", ["--section=t"], False),
                               ("section u", ["--section=u"], False),
                               ("section t again", ["--section=t"], True),
                               ("both sections", [], False)):
        code, out, err = run(args + extra + ["two.fio"], cwd=d)
        c.check(code == 0 and ("skipped" in err) == skips and ("Run status" in out) != skips,
                "--resume, %s: %s: exit %d %r" % (step, "skips" if skips else "runs",
                                                  code, err))
    with open(os.path.join(d, "two.fio"), "a") as f:
        f.write("bs=8k\n")
    code, _, err = run(args + ["--section=u", "two.fio"], cwd=d)
    c.check(code == 0 and "skipped" not in err, "--resume, a job file changed: %r" % err)
    cmd = ["--name=n", "--filename=data.bin", "--size=1m", "--ioengine=psync"]
    for step, rw, skips in (("command line", "read", False), ("same again", "read", True),
                            ("another rw", "randread", False)):
        code, _, err = run(args + cmd + ["--rw=" + rw], cwd=d)
        c.check(code == 0 and ("skipped" in err) == skips,
                "--resume, %s: %r" % (step, err))
    # six runs kept: t, u, both, u changed, and the command line's two
    keys = [r["jobs_key"] for r in results(os.path.join(d, "key.jsonl"))]
    c.check(len(keys) == 6 and len(set(keys)) == 6,
            "each set of jobs has a key of its own: %r" % keys)


def check_bad_cell(c, d):
    before = os.path.getsize(os.path.join(d, "r.jsonl"))
    code, out, err = run(["--sweep", "bs=4k,8x", "--results", "r.jsonl", "--name=n",
                          "--filename=fresh.bin", "--size=1m", "--rw=write"], cwd=d)
    c.check(code == 2 and "sweep cell 2/2: --sweep: option 'bs': '8x' is not a size" in err,
            "a bad value in the last cell is found first: %r" % err)
    c.check(out == "" and not os.path.exists(os.path.join(d, "fresh.bin")),
            "nothing ran and no file was created")
    c.check(os.path.getsize(os.path.join(d, "r.jsonl")) == before, "results untouched")
    for spec, msg in [("bs", "expected KEY=VALUE1,VALUE2"), ("bs=4k,", "value 2 is empty"),
                      ("=4k", "expected KEY=VALUE1,VALUE2")]:
        code, _, err = run(["--sweep", spec, "job.fio"], cwd=d)
        c.check(code == 2 and msg in err, "--sweep %s: %r" % (spec, err))
    code, _, err = run(["--sweep", "bs=4k", "--sweep", "bs=8k", "job.fio"], cwd=d)
    c.check(code == 2 and "swept twice" in err, "an axis given twice: %r" % err)
    code, _, err = run(["--sweep", "bsz=4k,8k", "job.fio"], cwd=d)
    c.check(code == 2 and "--sweep: unknown option 'bsz'" in err, "unknown key: %r" % err)


def check_signal(c, d):
    """SIGINT while the second cell runs, as its status line on stderr shows: the line
    names its cell ('[cell 2/3, sweep eta ...]') and says its job is running."""
    path = os.path.join(d, "sig.jsonl")
    p = subprocess.Popen([BIN, "--eta=always", "--eta-interval=250ms", "--name=n",
                          "--ioengine=null", "--size=1m", "--time_based", "--runtime=1s",
                          "--sweep", "iodepth=1,2,4", "--results", path],
                         cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    outr, errr = PipeReader(p.stdout), PipeReader(p.stderr)
    second = errr.wait_for(r"Jobs: 1 \(f=1\): \[R\(1\)\][^\r]*\[cell 2/3, ", 60)
    c.check(second is not None, "no status line of the second cell: %r" % errr.data[-300:])
    p.send_signal(signal.SIGINT)
    p.wait(timeout=30)
    out = outr.text()
    err = errr.text()
    rs = results(path)
    c.check(p.returncode == 130, "SIGINT ends the sweep with 130: %d" % p.returncode)
    c.check(out.count("Sweep (--sweep)") == 2, "the cell after the signal does not start")
    c.check(len(rs) == 1 and rs[0]["cell"] == {"iodepth": "1"},
            "the finished cell is kept, the interrupted one is not: %r" %
            [r and r["cell"] for r in rs])
    c.check("the cell cut short by Interrupt is not kept in '%s': --resume runs it again"
            % path in err, "the cell not kept is said: %r" % err[-300:])


def main():
    c = Checks("sweep")
    d = scratch_dir()
    try:
        with open(os.path.join(d, "job.fio"), "w") as f:
            f.write(JOB)
        check_matrix(c, d)
        check_resume(c, d)
        check_bad_cell(c, d)
        check_signal(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
