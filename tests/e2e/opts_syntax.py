#!/usr/bin/env python3
"""fio's job-file syntax: the reserved keywords ($pagesize, $mb_memory, $ncpus) and the
arithmetic fio does with them, parenthesized expressions in numeric values, ${ENV}, and
every form of the HOWTO's "Job file format" (comments, include, several [global]
sections, bare flags, values with spaces, --section), each checked by the values the jobs
ran with (JSON "job options", I/O counts, offsets), computed here from this system, and
side by side with fio's own parse where fio is installed."""
import json
import os
import shutil
import subprocess

from common import BIN, run, run_checks

FIO = shutil.which("fio")
PAGE = os.sysconf("SC_PAGESIZE")
NCPUS = os.sysconf("SC_NPROCESSORS_CONF")	# fio's $ncpus: the CPUs configured


def mb_memory():
    """fio's $mb_memory: physical pages times the page size, in MiB (as /proc/meminfo's
    MemTotal, which the kernel derives from the same pages, says within a MiB)."""
    return os.sysconf("SC_PHYS_PAGES") * PAGE // (1 << 20)


def meminfo_mb():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) // 1024
    return None


def write(d, name, text):
    path = os.path.join(d, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return path


def report(c, d, args, env=None, tool=None):
    """Run the jobs with JSON output: (jobs by name, global options, stderr)."""
    p = subprocess.run((tool or [BIN]) + ["--output-format=json"] + args, cwd=d,
                       capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, **(env or {})))
    c.check(p.returncode == 0, "%s %s: exit %d %s" % (tool or "iojob", args, p.returncode,
                                                      p.stderr))
    if p.returncode:
        return {}, {}, p.stderr
    doc = json.loads(p.stdout[p.stdout.index("{"):])
    return ({j["jobname"]: j for j in doc["jobs"]}, doc.get("global options", {}), p.stderr)


def check_keywords(c, d):
    """$pagesize, $mb_memory and $ncpus with fio's arithmetic: bs=$pagesize*2 is twice the
    page size, size=8*$mb_memory eight times the MiB of memory (as bytes, as fio's bc
    leaves it), size=(8*$mb_memory)/2 half that."""
    mb = mb_memory()
    c.check(abs(mb - (meminfo_mb() or mb)) <= 64, "$mb_memory %d agrees with /proc/meminfo" % mb)
    path = write(d, "kw.fio", "[global]\nioengine=null\n\n"
                 "[pages]\nbs=$pagesize*2\nsize=$pagesize*8\niodepth=$ncpus\n\n"
                 "[memory]\nbs=$pagesize\nsize=8*$mb_memory\n\n"
                 "[half]\nbs=1\nsize=(8*$mb_memory)/2\n\n"
                 "[plain]\nbs=$pagesize\nsize=$pagesize\n")
    jobs, _, err = report(c, d, [path])
    if not jobs:
        return
    opts = {n: j["job options"] for n, j in jobs.items()}
    c.check(opts["pages"].get("bs") == str(PAGE * 2) and
            opts["pages"].get("iodepth") == str(NCPUS),
            "bs=$pagesize*2, iodepth=$ncpus: %s (page %d, %d CPUs)" % (opts["pages"], PAGE,
                                                                         NCPUS))
    c.check(jobs["pages"]["read"]["total_ios"] == 4,
            "size=$pagesize*8 in blocks of $pagesize*2: 4 reads, %d" %
            jobs["pages"]["read"]["total_ios"])
    c.check(opts["memory"].get("size") == str(8 * mb) and
            jobs["memory"]["read"]["io_bytes"] == 8 * mb // PAGE * PAGE,
            "size=8*$mb_memory: %s, %d bytes read" % (opts["memory"].get("size"),
                                                      jobs["memory"]["read"]["io_bytes"]))
    c.check(opts["half"].get("size") == str(8 * mb // 2) and
            jobs["half"]["read"]["io_bytes"] == 8 * mb // 2,
            "size=(8*$mb_memory)/2: %s" % opts["half"].get("size"))
    c.check(opts["plain"].get("bs") == str(PAGE), "bs=$pagesize: %s" % opts["plain"])
    jobs, _, err = report(c, d, ["--name=s", "--ioengine=null", "--size=$pagesize*4",
                                 "--set", "bs=$pagesize*2"])
    r = jobs.get("s", {}).get("read", {})
    c.check(r.get("total_ios") == 2, "--size=$pagesize*4 with --set bs=$pagesize*2: %s I/Os"
            " %s" % (r.get("total_ios"), err))
    if FIO:
        fjobs, _, _ = report(c, d, [path], tool=[FIO])
        for name, j in fjobs.items():
            got = {k: opts[name].get(k) for k in j["job options"]}
            c.check(got == j["job options"], "[%s]: fio's values %s, iojob's %s" %
                    (name, j["job options"], got))
    else:
        c.skip("fio not installed: keywords not compared with fio's")


def check_expressions(c, d):
    """fio's HOWTO: where a number is wanted, an expression in parentheses (+ - * / % ^,
    integer division, size suffixes; times in microseconds)."""
    cases = [("bs=(2*4k)", "size=64k", 8, 65536), ("bs=4k", "size=(7/2)*4k", 3, 12288),
             ("bs=4k", "size=((2^4)*4k)", 16, 65536), ("bs=4k", "size=((10%3)*4k)", 1, 4096),
             ("bs=(1024+1024*3)", "io_size=(3*16k) --size=1m", 12, 49152),
             ("bs=4k", "size=(4k*(1+$ncpus))", 1 + NCPUS, 4096 * (1 + NCPUS))]
    for bs, size, ios, nbytes in cases:
        jobs, _, err = report(c, d, ["--name=e", "--ioengine=null", "--" + bs] +
                              ["--" + a for a in size.split(" --")])
        r = jobs.get("e", {}).get("read", {})
        c.check(r.get("total_ios") == ios and r.get("io_bytes") == nbytes,
                "%s %s: %s I/Os, %s bytes (want %d, %d) %s" %
                (bs, size, r.get("total_ios"), r.get("io_bytes"), ios, nbytes, err))
    code, _, err = run(["--name=o", "--filename=o.dat", "--size=64k", "--bs=4k",
                        "--offset=(1+1)*4k", "--io_size=4k", "--write_lat_log=o",
                        "--log_offset=1", "--output=/dev/null"], cwd=d)
    first = None
    if code == 0:
        with open(os.path.join(d, "o_clat.1.log")) as f:
            first = int(f.readline().split(",")[4])
    c.check(first == 8192, "offset=(1+1)*4k starts at 8192: %s %s" % (first, err))
    code, out, err = run(["--name=t", "--ioengine=null", "--size=1m", "--time_based",
                          "--runtime=(300*1000)", "--rate_iops=1000", "--output-format=json"])
    ms = json.loads(out)["jobs"][0]["job_runtime"] if code == 0 else None
    # microseconds in an expression: 300 ms, not 300000 s (the bound is loose, not timing)
    c.check(ms is not None and 250 <= ms < 30000, "runtime=(300*1000) is 300 ms: %s %s" %
            (ms, err))
    for bad in ("(2*", "(4k/0)", "(2*x)"):
        code, _, err = run(["--name=b", "--ioengine=null", "--size=64k", "--bs=" + bad])
        c.check(code == 2 and "'bs'" in err, "bs=%s is refused: %d %s" % (bad, code, err))


ALL_FORMS = """\
; -- the forms of fio's HOWTO "Job file format" --
# a comment of its own
   ; an indented comment
[global]
ioengine=null
filesize=1m
include inc/glob-include.fio
rw=randread
description=a value with spaces
bs=4k ; a comment after the value
numjobs=${NUMJOBS}
runtime=${UNSET_IOJOB_VAR}200ms
iodepth=$ncpus
time_based
\tdirect=0

[job1]
   bs=$pagesize*2

[job2]
size=(8*$mb_memory)/2
include inc/test-include.fio
name=renamed

[global-more]
loops=2

[job 3]
offset=4k
"""


def check_all_forms(c, d):
    write(d, "jobs/inc/glob-include.fio", "; included into [global]\nthread=1\n")
    write(d, "jobs/inc/test-include.fio", "# nested\nbs=8k\ninclude more.fio\n")
    write(d, "jobs/inc/more.fio", "iodepth=1\r\n")	# a CRLF line, as fio strips it
    path = write(d, "jobs/all.fio", ALL_FORMS)
    env = {"NUMJOBS": "2"}
    other = os.path.join(d, "elsewhere")
    os.makedirs(other)
    # run from another directory: includes are found beside the file including them
    p = subprocess.run([BIN, "--parse-only", path], cwd=other, capture_output=True,
                       text=True, env=dict(os.environ, **env))
    c.check(p.returncode == 0, "--parse-only of every form: %s" % p.stderr)
    c.check("'UNSET_IOJOB_VAR' is not set" in p.stderr,
            "an unset ${VAR} is empty, with a note: %s" % p.stderr)
    if FIO:
        f = subprocess.run([FIO, "--parse-only", path], cwd=other, capture_output=True,
                           text=True, env=dict(os.environ, **env))
        c.check(f.returncode == 0, "fio --parse-only of the same file: %s" % f.stderr)
    jobs, glob, err = report(c, other, [path], env=env)
    if not jobs:
        return
    names = sorted(jobs)
    c.check(names == ["job 3", "job1", "renamed"], "jobs (numjobs=2 each, [global-more] a "
            "global section, name= renames): %s" % names)
    opts = {n: j["job options"] for n, j in jobs.items()}
    want = {"job1": {"bs": str(2 * PAGE)}, "renamed": {"bs": "8k", "iodepth": "1",
            "size": str(8 * mb_memory() // 2)}, "job 3": {"offset": "4k"}}
    for name, kv in want.items():
        got = {k: opts.get(name, {}).get(k) for k in kv}
        c.check(got == kv, "[%s]: %s, want %s" % (name, got, kv))
    c.check(glob.get("description") == "a value with spaces" and glob.get("bs") == "4k" and
            glob.get("thread") == "1" and glob.get("numjobs") == "2" and
            glob.get("runtime") == "200ms" and glob.get("iodepth") == str(NCPUS),
            "[global] with its include, ${NUMJOBS}, the comment cut: %s" % glob)
    counts = {}
    for j in json.loads(subprocess.run([BIN, "--output-format=json", path], cwd=other,
                                       capture_output=True, text=True,
                                       env=dict(os.environ, **env)).stdout)["jobs"]:
        counts[j["jobname"]] = counts.get(j["jobname"], 0) + 1
    c.check(counts == {"job1": 2, "renamed": 2, "job 3": 2}, "numjobs=${NUMJOBS}: %s" % counts)
    jobs, _, err = report(c, other, [path, "--section=job1", "--section=job 3"], env=env)
    c.check(sorted(jobs) == ["job 3", "job1"], "--section twice picks those: %s" % sorted(jobs))
    if FIO:
        fjobs, fglob, _ = report(c, other, [path], env=env, tool=[FIO])
        for name, j in fjobs.items():
            if name not in opts:
                continue
            got = {k: opts[name].get(k) for k in j["job options"]}
            c.check(got == j["job options"], "[%s]: fio's options %s, iojob's %s" %
                    (name, j["job options"], got))


def check_include_from_cwd(c, d):
    """fio looks for an include as named (from the current directory) first, then beside
    the including file: a name found in both is the current directory's."""
    write(d, "here.inc", "bs=8k\n")
    write(d, "sub/here.inc", "bs=16k\n")
    write(d, "sub/only-beside.inc", "iodepth=1\n")
    path = write(d, "sub/j.fio", "[a]\nioengine=null\nsize=64k\ninclude here.inc\n"
                 "include only-beside.inc\n")
    jobs, _, err = report(c, d, [path])
    c.check(jobs.get("a", {}).get("job options", {}).get("bs") == "8k",
            "include from the current directory first: %s %s" %
            (jobs.get("a", {}).get("job options"), err))
    if FIO:
        fjobs, _, _ = report(c, d, [path], tool=[FIO])
        c.check(fjobs.get("a", {}).get("job options", {}).get("bs") == "8k",
                "fio takes the current directory's too: %s" % fjobs.get("a", {}))


def check_include_errors(c, d):
    write(d, "sec.fio", "[b]\nbs=8k\n")
    path = write(d, "i.fio", "[a]\nioengine=null\nsize=64k\ninclude sec.fio\n")
    code, _, err = run(["--parse-only", path], cwd=d)
    c.check(code == 2 and "not allowed in an included file" in err,
            "a section in an included file is refused (fio: no new sections): %s" % err)
    path = write(d, "o.fio", "bs=4k\n[a]\nsize=1m\n")
    code, _, err = run(["--parse-only", path], cwd=d)
    c.check(code == 2 and "outside of any [section]" in err,
            "an option before any section is refused, as fio does: %s" % err)


def log_offsets(c, d, tool, prefix, args):
    p = subprocess.run(tool + args + ["--write_lat_log=" + prefix, "--log_offset=1",
                                      "--output=/dev/null"], cwd=d, capture_output=True,
                       text=True, timeout=120)
    c.check(p.returncode == 0, "%s %s: %s" % (tool, args, p.stderr))
    if p.returncode:
        return None
    with open(os.path.join(d, prefix + "_clat.1.log")) as f:
        return [int(line.split(",")[4]) for line in f if line.strip()]


def zone_shares(offsets, bounds):
    n = len(offsets) or 1
    return [sum(1 for o in offsets if lo <= o < hi) / n for lo, hi in bounds]


def check_zoned(c, d):
    """random_distribution=zoned (rand-zones.fio, jesd219.fio): 50% of the I/Os in the first
    5% of the region, 30% in the next 15%, 20% in the rest (whose size is left out); the
    shares within 5 standard deviations of a binomial draw of that many I/Os."""
    size = 4 << 20
    for dist, bounds, want in (
            ("zoned:50/5:30/15:20/", [(0, size * 5 // 100), (size * 5 // 100, size // 5),
                                      (size // 5, size)], [0.5, 0.3, 0.2]),
            ("zoned_abs:60/1m:40/3m", [(0, 1 << 20), (1 << 20, size)], [0.6, 0.4])):
        got = log_offsets(c, d, [BIN], "z", ["--name=z", "--filename=z.dat", "--size=4m",
                                             "--bs=4k", "--rw=randread", "--io_size=40m",
                                             "--random_distribution=" + dist])
        if not got:
            continue
        shares = zone_shares(got, bounds)
        ok = all(abs(s - p) <= 5 * (p * (1 - p) / len(got)) ** 0.5 for s, p in zip(shares, want))
        c.check(ok, "%s: shares %s, want %s" % (dist, shares, want))
    code, _, err = run(["--name=z", "--size=1m", "--rw=randread",
                        "--random_distribution=zoned:50/5:30/15"])
    c.check(code == 2 and "add up to 80 (not 100)" in err, "zones whose accesses add to 80: %s" % err)


def check_value_forms(c, d):
    """Value forms fio's examples use: rw=read:-8k reads backwards (backwards-read.fio),
    directory= in a job replaces [global]'s (fio's is one value, filename= adds up), and
    tiobench's threads= (steadystate.fio, waitfor.fio) is taken with a note."""
    args = ["--name=b", "--filename=b.dat", "--size=64k", "--bs=4k", "--rw=read:-8k"]
    got = log_offsets(c, d, [BIN], "ib", args)
    want = [0] + [65536 - 8192 - 4096 * i for i in range(15)]
    c.check(got == want, "rw=read:-8k: offsets %s, want %s" % (got, want))
    if FIO:
        c.check(log_offsets(c, d, [FIO], "fb", args) == got, "rw=read:-8k: fio's offsets")
    for sub in ("ga", "jb"):
        os.makedirs(os.path.join(d, sub))
    path = write(d, "dirs.fio", "[global]\ndirectory=%s/ga\n[x]\ndirectory=%s/jb\n"
                 "size=64k\nrw=write\n" % (d, d))
    code, _, err = run([path, "--output=/dev/null"], cwd=d)
    c.check(code == 0 and os.listdir(os.path.join(d, "ga")) == [] and
            os.listdir(os.path.join(d, "jb")) == ["x.0.0"],
            "the job's directory= replaces [global]'s: %s %s %s" %
            (os.listdir(os.path.join(d, "ga")), os.listdir(os.path.join(d, "jb")), err))
    check_zoned(c, d)
    code, _, err = run(["--name=t", "--ioengine=null", "--size=64k", "--threads=1"])
    c.check(code == 0 and "tiobench profile" in err, "threads=1 taken, with a note: %s" % err)
    # fio's set-only flags take any number, set unless 0 (xfstests' generic/300 writes
    # time_based=10); its other booleans stay 0 or 1
    for flag, want in (("10", True), ("-1", True), ("0", False)):
        path = write(d, "tb.fio", "[t]\nioengine=null\nsize=64k\nruntime=200ms\n"
                     "time_based=%s\n" % flag)
        code, out, err = run([path, "--output-format=json"], cwd=d)
        j = json.loads(out)["jobs"][0] if code == 0 else {}
        c.check(code == 0 and (j["job_runtime"] >= 200) == want and
                j["job options"]["time_based"] == flag,
                "time_based=%s: time based %s: %s %s" % (flag, want, j.get("job_runtime"), err))
    code, _, err = run(["--name=t", "--ioengine=null", "--size=64k", "--direct=10"])
    c.check(code == 2 and "'10' is not a boolean" in err, "direct=10 refused, as fio: %s" % err)


def main():
    run_checks("opts_syntax", (
        check_keywords, check_expressions, check_all_forms, check_include_errors,
        check_include_from_cwd, check_value_forms))


if __name__ == "__main__":
    main()
