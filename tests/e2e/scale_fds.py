#!/usr/bin/env python3
"""What a run asks of the process's limits, checked before its jobs start. Descriptors:
its files, what each engine instance holds besides them (io_uring's ring, splice's pipe;
null, psync and the rest none) and what iojob has open, so that 65,536 null threads are
not refused for descriptors they never open and a simple job runs under a hard limit of
64, as fio's does. Under a hard limit of 200 (prlimit) what fits runs, what does not is
refused with the count it needs, and a refused run leaves no --output file (nor empties
one that was there). Memory: jobs whose I/O buffers cannot fit in the machine (or under
ulimit -d) are refused at once with exit 2, naming the job. Threads: a thread start that
fails on ulimit -u says so."""
import os
import re
import resource
import shutil
import subprocess
import tempfile

from common import BIN, SRC, Checks, engine_available, is_asan_build, remove, run, scratch_dir

LIMIT = 200
# engine, jobs, the least count the refusal may name (None: it fits and runs)
CASES = [
    ("null", 100, None),        # was 64 + 3 per job = 364: refused
    ("psync", 100, None),       # the clones share one descriptor of the file
    ("io_uring", 150, None),    # 150 rings + 1 file + iojob's own: was 64 + 151, refused
    ("io_uring", 190, 191),     # 190 rings + 1 file, and iojob's own
    ("splice", 100, 201),       # 2 * 100 + 1, and iojob's own
]


def run_limited(args, cwd, limit=LIMIT):
    p = subprocess.run(["prlimit", "--nofile=%d:%d" % (limit, limit), BIN] + args, cwd=cwd,
                       capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def check_descriptors(c, d):
    for engine, jobs, need in CASES:
        if not engine_available(engine):
            c.skip("%s: not in this build" % engine)
            continue
        name = "%s x%d" % (engine, jobs)
        code, out, err = run_limited(
            ["--name=j", "--ioengine=" + engine, "--thread", "--numjobs=%d" % jobs,
             "--filename=" + os.path.join(d, "data"), "--size=64k", "--bs=4k",
             "--rw=read", "--group_reporting"], d)
        if need is None:
            c.check(code == 0 and "total=%d," % (jobs * 16) in out,
                    "%s under %d descriptors: runs every I/O: exit %d %r" %
                    (name, LIMIT, code, err[-300:]))
        else:
            m = re.search(r"need (\d+) open files and the limit is %d" % LIMIT, err)
            c.check(code == 1 and m and int(m.group(1)) >= need,
                    "%s: refused, needing %d or more: exit %d %r" %
                    (name, need, code, err[-300:]))
        print("scale_fds: %s: exit %d" % (name, code))


def check_phases(c, d):
    """Stonewalled groups hold their descriptors one after the other: two of 100 splice
    clones (about 220 each) run under a hard limit of 300, the soft limit of 200 raised
    for the run and said so; one group of 160 (over 320) is refused, naming its need."""
    if not engine_available("splice"):
        c.skip("splice: not in this build")
        return
    group = ("[global]\nioengine=splice\nthread\nfilename=data\nsize=64k\nbs=4k\n"
             "rw=read\ngroup_reporting\n")
    with open(os.path.join(d, "phases.fio"), "w") as f:
        f.write(group + "numjobs=100\n[a]\n[b]\nstonewall\n")
    with open(os.path.join(d, "wide.fio"), "w") as f:
        f.write(group + "numjobs=160\n[a]\n")
    p = subprocess.run(["prlimit", "--nofile=200:300", BIN, "phases.fio"], cwd=d,
                       capture_output=True, text=True, timeout=120)
    m = re.search(r"the jobs need (\d+) open files: the soft limit \(ulimit -n\) was raised "
                  r"from 200 to (\d+) for this run", p.stderr)
    c.check(p.returncode == 0 and p.stdout.count("total=1600,") == 2 and m and
            200 < int(m.group(1)) == int(m.group(2)) <= 300,
            "two groups of 100 splice clones under 200:300: exit %d %r" %
            (p.returncode, p.stderr[-300:]))
    code, _, err = run_limited(["wide.fio"], d, limit=300)
    m = re.search(r"need (\d+) open files and the limit is 300", err)
    c.check(code == 1 and m and int(m.group(1)) > 320,
            "one group of 160 splice clones under 300: refused: exit %d %r" % (code, err))


def tmpfs_dir():
    """A directory on tmpfs (/dev/shm), or None where there is none."""
    with open("/proc/mounts") as f:
        if not any(line.split()[1:3] == ["/dev/shm", "tmpfs"] for line in f):
            return None
    return tempfile.mkdtemp(prefix="iojob-sysbench-", dir="/dev/shm")


def check_sysbench_sweep(c, d):
    """The sysbench seed at its thread counts under a Debian login's soft limit of 1024,
    hard limit 1024 too: 512 clones on one set of 64 files (filename_format without
    $jobnum) share its 64 descriptors, each cell closes what it opened (a sweep leaked 64 a
    cell, and its 16th was refused), and 128 files at 512 threads fit as well. On tmpfs
    with tiny files: the descriptors and threads are the test, not the disk."""
    t = tmpfs_dir()
    if not t:
        c.skip("sysbench sweep: /dev/shm is not tmpfs here")
        return
    seed = os.path.join(SRC, "examples", "seeds", "sysbench-fileio.fio")
    threads = [1, 4, 8, 16, 32, 64, 128, 256, 512]
    small = ["--set", "directory=" + t, "--set", "runtime=0.1", "--output-format=terse"]
    try:
        code, _, err = run_limited(["--sweep", "numjobs=" + ",".join(map(str, threads)),
                                    "--results", "r.jsonl", "--set", "size=1m", seed] + small, d,
                                   limit=1024)
        c.check(code == 0 and "open files" not in err,
                "sysbench sweep 1..512 under 1024: exit %d %r" % (code, err[-300:]))
        code, out, err = run(["report", "r.jsonl", "--format", "sysbench"], cwd=d)
        rows = [line.split()[1:3] for line in out.splitlines()[2:]]
        want = [[m, str(n)] for m in ("rndrd", "rndrw", "rndwr", "seqrd", "seqwr")
                for n in threads]
        c.check(code == 0 and rows == want, "every mode at every thread count: %r" % rows)
        code, _, err = run_limited(["--set", "numjobs=512", "--set", "nrfiles=128",
                                    "--set", "size=2m", "--section", "rndwr", seed] + small,
                                   d, limit=1024)
        c.check(code == 0, "128 files at 512 threads under 1024: exit %d %r" %
                (code, err[-300:]))
    finally:
        remove(t)


def check_simple_under_64(c, d):
    """fio runs a one-file job under a hard limit of 64; so does iojob (it reserved 64)."""
    code, out, err = run_limited(["--name=j", "--filename=small", "--size=1m",
                                  "--output-format=json"], d, limit=64)
    c.check(code == 0 and '"total_ios" : 256' in out,
            "one job under 64 descriptors: exit %d %r" % (code, err[-300:]))


def check_refused_output(c, d):
    """A run refused for descriptors writes no report: no new --output file is left, and
    one that was there keeps what it held."""
    args = ["--name=j", "--ioengine=io_uring" if engine_available("io_uring") else
            "--ioengine=splice", "--numjobs=190", "--thread", "--filename=data",
            "--size=64k"]
    fresh, old = os.path.join(d, "fresh.txt"), os.path.join(d, "old.txt")
    with open(old, "w") as f:
        f.write("the last report\n")
    for path in (fresh, old):
        code, _, err = run_limited(args + ["--output=" + path], d)
        c.check(code == 1 and "open files" in err, "refused: exit %d %r" % (code, err[-300:]))
    c.check(not os.path.exists(fresh), "a refused run leaves no --output file behind")
    with open(old) as f:
        kept = f.read()
    c.check(kept == "the last report\n", "a refused run leaves --output as it was: %r" % kept)


def check_memory(c, d):
    """64 jobs of 65,536 buffers of 256 MiB (a pebibyte) are refused before any starts,
    with exit 2 and the job named; they started threads that each failed to allocate."""
    p = subprocess.run([BIN, "--name=huge", "--ioengine=null", "--numjobs=64",
                        "--iodepth=65536", "--bs=256m", "--size=1g"], cwd=d,
                       capture_output=True, text=True, timeout=120)
    c.check(p.returncode == 2 and "I/O buffers" in p.stderr and "job 'huge'" in p.stderr and
            "iodepth=65536" in p.stderr and p.stderr.count("\n") == 1 and
            "Starting" not in p.stdout,
            "a pebibyte of buffers: exit %d %r" % (p.returncode, p.stderr[-400:]))
    if is_asan_build():
        c.skip("ulimit -d: the sanitizer's own mappings count against it")
        return
    for depth, want in ((64, 2), (4, 0)):	# 512 MiB of 8 MiB buffers does not fit, 32 does

        def limit():
            resource.setrlimit(resource.RLIMIT_DATA, (256 << 20, 256 << 20))

        p = subprocess.run([BIN, "--name=d", "--ioengine=null", "--iodepth=%d" % depth,
                            "--bs=8m", "--size=64m"], cwd=d, capture_output=True, text=True,
                           timeout=120, preexec_fn=limit)
        c.check(p.returncode == want and (not want or "ulimit -d" in p.stderr),
                "iodepth=%d of 8 MiB under ulimit -d 256 MiB: exit %d, want %d %r" %
                (depth, p.returncode, want, p.stderr[-300:]))


def check_nproc(c, d):
    """Under ulimit -u 1 no job thread can start: the message names that limit (it blamed
    kernel.pid_max). Root is not held to it: the run is then made as nobody."""
    def limit():
        if os.getuid() == 0:
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
        resource.setrlimit(resource.RLIMIT_NPROC, (1, 1))

    p = subprocess.run([BIN, "--name=t", "--ioengine=null", "--numjobs=4", "--size=64k"],
                       cwd="/", capture_output=True, text=True, timeout=120, preexec_fn=limit)
    c.check(p.returncode == 1 and "ulimit -u" in p.stderr,
            "ulimit -u 1: exit %d %r" % (p.returncode, p.stderr[-300:]))


def main():
    c = Checks("scale_fds")
    if not shutil.which("prlimit"):
        c.skip("prlimit (util-linux) is not installed")
        c.finish()
    d = scratch_dir()
    try:
        for check in (check_descriptors, check_phases, check_sysbench_sweep,
                      check_simple_under_64,
                      check_refused_output, check_memory, check_nproc):
            check(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
