#!/usr/bin/env python3
"""iojob-mpi under mpirun: per-rank files from $rank, one merged report whose totals are
the sum of the ranks' and whose percentiles are those of the summed histograms, fio's
client_stats with each host and "All clients", the start barrier, a rank's failure named
by rank and host, and sweeps written once by the root. Two "hosts" on this machine come
from IOJOB_HOSTNAME, set per rank with mpirun's colon-separated application contexts."""
import json
import os
import re
import shutil
import subprocess

from common import SRC, Checks, fio_percentile, remove, run, scratch_dir

MPI_BIN = os.environ.get("IOJOB_MPI_BIN", "")
SHIM = os.environ.get("IOJOB_FAULT_SHIM", "")
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1", OMPI_MCA_btl="self,vader",
           OMPI_MCA_btl_vader_single_copy_mechanism="none")
SIZE, BS = 1 << 20, 4096


def mpirun(c, contexts, cwd, want=0, timeout=180):
    """contexts: [(nranks, host, args, extra_env)], joined with ':' as mpirun's MPMD."""
    cmd = ["mpirun"]
    for i, (n, host, args, extra) in enumerate(contexts):
        if i:
            cmd.append(":")
        cmd += ["-np", str(n), "-x", "IOJOB_HOSTNAME=" + host]
        for k, v in (extra or {}).items():
            cmd += ["-x", "%s=%s" % (k, v)]
        cmd += [MPI_BIN] + args
    p = subprocess.run(cmd, cwd=cwd, env=ENV, capture_output=True, text=True, timeout=timeout)
    c.check(p.returncode == want, "%s: exit %d (want %d): %s" %
            (" ".join(cmd[-len(contexts[-1][2]):]), p.returncode, want, p.stderr[-2000:]))
    return p


def add_bins(a, b):
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) + v
    return out


JOB = ["--name=m", "--ioengine=psync", "--filename=data.$rank", "--size=1m", "--bs=4k",
       "--rw=randrw", "--output-format=json+", "--eta=never"]


def check_merge(c, d, hosts):
    """hosts: ranks per fake host, e.g. [2] or [2, 2]."""
    nranks = sum(hosts)
    contexts = [(n, "host%c" % (ord("a") + i), JOB, None) for i, n in enumerate(hosts)]
    p = mpirun(c, contexts, d)
    if p.returncode:
        return
    doc = json.loads(p.stdout)
    job = doc["jobs"][0]
    ranks = doc["iojob_ranks"]
    issued = [sum(r["issued_ios"][k] for r in ranks) for k in range(3)]
    got = [job["read"]["total_ios"], job["write"]["total_ios"], job["trim"]["total_ios"]]
    what = "%d ranks on %d hosts" % (nranks, len(hosts))
    c.check(len(ranks) == nranks and got == issued and sum(got) == nranks * SIZE // BS,
            "%s: merged ios %r are the sum of the ranks' %r" % (what, got, issued))
    c.check(all(os.path.getsize(os.path.join(d, "data.%d" % r)) == SIZE
                for r in range(nranks)), "%s: each rank made its own data.$rank" % what)
    starts = [r["start_ns"] for r in ranks]
    c.check(max(starts) - min(starts) < 50 * 10 ** 6,
            "%s: the barrier lines the starts up: spread %.1f ms" %
            (what, (max(starts) - min(starts)) / 1e6))
    clients = doc["client_stats"]
    per_host = [e for e in clients if e["jobname"] != "All clients"]
    c.check([e["hostname"] for e in per_host] == [ctx[1] for ctx in contexts] and
            sum(1 for e in clients if e["jobname"] == "All clients") == 1,
            "%s: client_stats has each host and All clients" % what)
    for ddir in ("read", "write"):
        summed = {}
        for e in per_host:
            summed = add_bins(summed, e[ddir]["clat_ns"]["bins"])
        agg = job[ddir]["clat_ns"]
        c.check(summed == agg["bins"], "%s: %s bins are the hosts' summed" % (what, ddir))
        for key, val in agg["percentile"].items():
            # a bucket's value, clamped to the samples' range as iojob reports it
            want = min(max(fio_percentile(agg["bins"], float(key)), agg["min"]), agg["max"])
            c.check(want == val,
                    "%s: %s p%s %d is the summed histogram's" % (what, ddir, key, val))
        n = sum(e[ddir]["clat_ns"]["N"] for e in per_host)
        c.check(agg["N"] == n and agg["min"] == min(e[ddir]["clat_ns"]["min"]
                                                    for e in per_host),
                "%s: %s N and min merge" % (what, ddir))


def check_normal(c, d):
    p = mpirun(c, [(1, "hosta", JOB[:-2], None), (1, "hostb", JOB[:-2], None)], d)
    out = p.stdout
    c.check("Ranks: 2 on 2 hosts" in out and "m: (groupid=0, jobs=2)" in out,
            "the normal report says how many ranks ran the job: %r" % out[:400])
    c.check(out.count("Host hosta (ranks 0):") == 1 and "Host hostb (ranks 1):" in out,
            "and gives each host's part after the aggregate")
    c.check(out.index("Run status group") < out.index("Host hosta"), "aggregate first")


def check_failure(c, d):
    if not SHIM:
        c.skip("no fault shim: a failing rank is not tested")
        return
    bad = {"LD_PRELOAD": SHIM, "IOJOB_FAULT": "pread:EIO:3"}
    args = ["--name=f", "--ioengine=psync", "--filename=fail.$rank", "--size=256k",
            "--rw=read", "--output-format=json", "--eta=never"]
    p = mpirun(c, [(1, "hosta", args, None), (1, "hostb", args, bad)], d, want=1)
    c.check(re.search(r"rank 1 \(host hostb\): job 'f': .*Input/output error", p.stderr),
            "the failing rank is named with its host: %r" % p.stderr[-600:])
    try:
        doc = json.loads(p.stdout)
        ok = doc["jobs"][0]["error"] == 5 and [r["error"] for r in doc["iojob_ranks"]] == [0, 5]
    except (ValueError, KeyError, IndexError):
        ok = False
    c.check(ok, "the report carries the error, and which rank had it")


def check_sweep(c, d):
    args = ["--name=s", "--ioengine=null", "--size=1m", "--sweep", "bs=4k,16k", "--results",
            "r.jsonl", "--output-format=json", "--eta=never"]
    mpirun(c, [(2, "hosta", args, None)], d)
    lines = open(os.path.join(d, "r.jsonl")).read().splitlines()
    cells = [json.loads(l) for l in lines]
    c.check([x["cell"]["bs"] for x in cells] == ["4k", "16k"],
            "one line per cell, written once: %d lines" % len(lines))
    c.check([x["report"]["jobs"][0]["read"]["total_ios"] for x in cells] == [512, 128],
            "each line holds both ranks' I/O")


def json_of(out):
    at = out.index("\n{\n") + 1 if not out.startswith("{") else 0
    return json.loads(out[at:out.index("\n}\n", at) + 3])


def check_example(c, d):
    """The README's command: four ranks of examples/many-ranks.fio count four times what
    one plain iojob run of it does, each rank on the file its $rank names."""
    job = os.path.join(SRC, "examples", "many-ranks.fio")
    code, out, err = run(["--output-format=json", job], cwd=d)
    c.check(code == 0, "one run of many-ranks.fio: %s" % err)
    one = json_of(out)
    p = mpirun(c, [(4, "hosta", ["--output-format=normal,json", job], None)], d)
    if p.returncode:
        return
    four = json_of(p.stdout)
    for j1, j4 in zip(one["jobs"], four["jobs"]):
        for dd in ("read", "write"):
            c.check(j4[dd]["total_ios"] == 4 * j1[dd]["total_ios"] and
                    j4[dd]["io_bytes"] == 4 * j1[dd]["io_bytes"],
                    "many-ranks %s %s: %d I/Os merged, 4 x %d" %
                    (j1["jobname"], dd, j4[dd]["total_ios"], j1[dd]["total_ios"]))
    for r in range(4):
        c.check(os.path.exists(os.path.join(d, "iojob-rank%d.dat" % r)),
                "many-ranks: rank %d's file" % r)
    c.check("Ranks: 4 on 1 host" in p.stdout, "many-ranks: the header names the ranks")


def main():
    c = Checks("mpi")
    if not MPI_BIN or not os.path.exists(MPI_BIN) or not shutil.which("mpirun"):
        c.skip("iojob-mpi or mpirun missing (meson setup -Dmpi=enabled)")
        c.finish()
    d = scratch_dir()
    try:
        check_merge(c, d, [2])
        check_merge(c, d, [2, 2])
        check_normal(c, d)
        check_failure(c, d)
        check_sweep(c, d)
        check_example(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
