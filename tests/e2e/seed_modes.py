#!/usr/bin/env python3
"""The options that replay the seed experiments where fio's semantics differ: sysbench's
rwmix_mode=ratio, seq_cursor=shared, fsync_every_ios with fsync_scope, create=recreate;
tiobench's lat_over and phase CPU; xdd's passes. Counts are checked exactly."""
import json
import os

from common import Checks, remove, run, scratch_dir


def run_json(c, args, cwd, what):
    code, out, err = run(args + ["--output-format=json"], cwd=cwd)
    c.check(code == 0, "%s: exit %d %s" % (what, code, err))
    return json.loads(out) if code == 0 else {"jobs": []}


def sysbench_mix(n, read_pct):
    """sysbench's rule: a read while (reads+1)/(writes+1) is below the ratio."""
    reads = writes = 0
    for _ in range(n):
        if (reads + 1) * (100 - read_pct) < (writes + 1) * read_pct:
            reads += 1
        else:
            writes += 1
    return reads, writes


def check_ratio(c, d):
    doc = run_json(c, ["--name=m", "--ioengine=null", "--size=4m", "--bs=4k", "--rw=randrw",
                       "--rwmixread=60", "--rwmix_mode=ratio"], d, "ratio")
    j = doc["jobs"][0]
    got = (j["read"]["total_ios"], j["write"]["total_ios"])
    c.check(got == sysbench_mix(1024, 60), "rwmix_mode=ratio holds 60:40 exactly: %r" % (got,))
    doc = run_json(c, ["--name=m", "--ioengine=null", "--size=4m", "--bs=4k", "--rw=randrw",
                       "--rwmixread=60"], d, "random mix")
    j = doc["jobs"][0]
    c.check(j["read"]["total_ios"] + j["write"]["total_ios"] == 1024,
            "rwmix_mode=random still does every I/O")


def check_shared_cursor(c, d):
    files = ":".join("f%d" % i for i in range(4))
    common = ["--name=s", "--ioengine=psync", "--filename=" + files, "--size=1m", "--bs=4k",
              "--numjobs=3"]
    doc = run_json(c, common + ["--rw=write", "--seq_cursor=shared"], d, "shared cursor")
    ios = [j["write"]["total_ios"] for j in doc["jobs"]]
    c.check(sum(ios) == 256, "three clones share one pass of 256 blocks: %r" % ios)
    c.check(all(os.path.getsize(os.path.join(d, "f%d" % i)) == 256 << 10 for i in range(4)),
            "every file written to its end")
    doc = run_json(c, common + ["--rw=read"], d, "own cursors")
    c.check(sum(j["read"]["total_ios"] for j in doc["jobs"]) == 768,
            "without it each clone reads the whole set, as fio does")
    code, _, err = run(["--name=s", "--ioengine=null", "--size=1m", "--rw=randread",
                        "--seq_cursor=shared"], cwd=d)
    c.check(code == 2 and "option 'seq_cursor': shared is for sequential modes" in err,
            "seq_cursor=shared with a random mode: %r" % err)


def sync_count(doc):
    return sum(j.get("sync", {}).get("total_ios", 0) for j in doc["jobs"])


def check_fsync_every_ios(c, d):
    files = ":".join("g%d" % i for i in range(4))
    base = ["--name=y", "--ioengine=psync", "--filename=" + files, "--size=400k",
            "--bs=4k", "--rw=randrw", "--rwmix_mode=ratio", "--rwmixread=60",
            "--fsync_every_ios=10"]
    doc = run_json(c, base + ["--fsync_scope=all_files"], d, "all_files")
    c.check(sync_count(doc) == 10 * 4, "100 I/Os, every 10th syncs all 4 files: %d" %
            sync_count(doc))
    doc = run_json(c, base, d, "scope file")
    c.check(sync_count(doc) == 10, "scope=file syncs one file each time: %d" % sync_count(doc))
    # 224k over 4 files: 14 blocks each, 56 I/Os a clone; 112 together make 11 syncs of
    # all 4 files, where each clone counting its own would make 5 and 5
    doc = run_json(c, base + ["--fsync_scope=all_files", "--numjobs=2", "--size=224k"], d,
                   "two clones")
    c.check(sync_count(doc) == 11 * 4, "2 clones of 56 I/Os count them together, every "
            "10th syncing all 4 files: %d" % sync_count(doc))
    doc = run_json(c, base[:-1] + ["--fsync_every_ios=10", "--rw=randread",
                                   "--fsync_scope=all_files"], d, "reads only")
    c.check(sync_count(doc) == 0, "nothing written, nothing synced")


def check_recreate(c, d):
    path = os.path.join(d, "old.bin")
    with open(path, "wb") as f:
        f.write(b"x" * (1 << 20))
    args = ["--name=w", "--ioengine=psync", "--filename=old.bin", "--size=64k", "--rw=write"]
    run_json(c, args, d, "reuse")
    c.check(os.path.getsize(path) == 1 << 20, "create=reuse keeps the longer file")
    run_json(c, args + ["--create=recreate"], d, "recreate")
    c.check(os.path.getsize(path) == 64 << 10, "create=recreate starts from an empty file")
    code, _, err = run(["--name=r", "--ioengine=psync", "--filename=old.bin", "--size=64k",
                        "--rw=read", "--create=recreate"], cwd=d)
    c.check(code == 2 and "recreate empties the files, so the job must only write" in err,
            "create=recreate on a read job: %r" % err)
    c.check(os.path.getsize(path) == 64 << 10, "and the refused job touched nothing")


def check_mode_names(c, d):
    """sysbench's mode names bring its semantics unless the job sets the option itself."""
    files = ":".join("n%d" % i for i in range(4))
    common = ["--name=s", "--ioengine=psync", "--filename=" + files, "--size=1m", "--bs=4k",
              "--numjobs=3"]
    doc = run_json(c, common + ["--rw=seqwr"], d, "seqwr")
    c.check(sum(j["write"]["total_ios"] for j in doc["jobs"]) == 256,
            "seqwr: three clones share one pass of 256 blocks")
    doc = run_json(c, common + ["--rw=seqrd"], d, "seqrd")
    c.check(sum(j["read"]["total_ios"] for j in doc["jobs"]) == 256,
            "seqrd: one shared pass")
    doc = run_json(c, common + ["--rw=seqrd", "--seq_cursor=job"], d, "seqrd, own cursors")
    c.check(sum(j["read"]["total_ios"] for j in doc["jobs"]) == 768,
            "seqrd with seq_cursor=job: each clone reads the set, as the job said")
    path = os.path.join(d, "long.bin")
    with open(path, "wb") as f:
        f.write(b"x" * (1 << 20))
    run_json(c, ["--name=w", "--ioengine=psync", "--filename=long.bin", "--size=64k",
                 "--rw=seqwr"], d, "seqwr recreates")
    c.check(os.path.getsize(path) == 64 << 10, "seqwr empties its file first")
    doc = run_json(c, ["--name=m", "--ioengine=null", "--size=4m", "--bs=4k", "--rw=rndrw"],
                   d, "rndrw")
    j = doc["jobs"][0]
    got = (j["read"]["total_ios"], j["write"]["total_ios"])
    c.check(got == sysbench_mix(1024, 60), "rndrw: sysbench's 1.5:1 interleave: %r" % (got,))
    doc = run_json(c, ["--name=m", "--ioengine=null", "--size=4m", "--bs=4k", "--rw=rndrw",
                       "--rwmixread=80"], d, "rndrw 80")
    j = doc["jobs"][0]
    got = (j["read"]["total_ios"], j["write"]["total_ios"])
    c.check(got == sysbench_mix(1024, 80), "rndrw keeps the job's rwmixread: %r" % (got,))
    doc = run_json(c, ["--name=v", "--ioengine=psync", "--filename=v.bin", "--size=64k",
                       "--rw=seqwr", "--verify=crc32c"], d, "seqwr with verify")
    c.check(doc["jobs"] and doc["jobs"][0]["write"]["total_ios"] == 16,
            "seqwr with verify keeps fio's defaults and verifies")
    code, out, err = run(["--name=s", "--ioengine=null", "--size=1m", "--bs=4k",
                          "--sweep", "rw=seqwr,seqrd,rndrd,rndwr,rndrw",
                          "--output-format=terse"], cwd=d)
    c.check(code == 0 and len(out.splitlines()) == 5,
            "one sweep runs all five modes: %d %r" % (code, err))


def check_tiobench_xdd(c, d):
    doc = run_json(c, ["--name=x", "--ioengine=null", "--size=4m", "--bs=4k",
                       "--lat_over=1ns,1000s", "--passes=3"], d, "passes")
    jobs = doc["jobs"]
    c.check([(j["groupid"], j["iojob"].get("pass")) for j in jobs] == [(0, 1), (1, 2), (2, 3)],
            "passes=3 gives three units, one per pass: %r" %
            [(j["groupid"], j["iojob"]) for j in jobs])
    for j in jobs:
        ext = j["iojob"]
        c.check(ext["lat_over"] == {"1ns": 1024, "1000s": 0},
                "lat_over counts every I/O above 1ns, none above 1000s: %r" % ext["lat_over"])
        c.check(j["read"]["total_ios"] == 1024 and ext["runtime_ns"] > 0,
                "each pass does the whole size")
        cpu = ext["proc_cpu"]
        c.check(cpu["wall_ns"] >= ext["runtime_ns"] and cpu["usr_ns"] + cpu["sys_ns"] >= 0,
                "the phase's wall time covers the job's: %r" % cpu)
    code, out, _ = run(["--name=x", "--ioengine=null", "--size=4m", "--lat_over=1ns",
                        "--passes=2"], cwd=d)
    c.check(out.count("  Pass         : ") == 2 and "Pass         : 2 of 2" in out,
            "the normal report names each pass")
    c.check("lat over     : >=1ns=100.00% (1024)" in out, "and the lat_over counts")


def main():
    c = Checks("seed_modes")
    d = scratch_dir()
    try:
        check_ratio(c, d)
        check_shared_cursor(c, d)
        check_fsync_every_ios(c, d)
        check_recreate(c, d)
        check_mode_names(c, d)
        check_tiobench_xdd(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
