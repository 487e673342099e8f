#!/usr/bin/env python3
"""The descriptors a run asks for before it starts: its files, and what each engine
instance holds besides them (io_uring's ring, splice's pipe; null, psync and the rest
none), so that 65,536 null threads are not refused for descriptors they never open. Run
under a hard limit of 200 (prlimit): what fits runs, what does not is refused with the
count it needs (64 of iojob's own, one per engine descriptor, one per shared file)."""
import os
import shutil
import subprocess

from common import BIN, Checks, engine_available, remove, scratch_dir

LIMIT = 200
# engine, jobs, the count the refusal names (None: it fits and runs)
CASES = [
    ("null", 100, None),        # was 64 + 3 per job = 364: refused
    ("psync", 100, None),       # the clones share one descriptor of the file
    ("io_uring", 100, None),    # 64 + 100 rings + 1 file = 165
    ("io_uring", 150, 215),     # 64 + 150 + 1
    ("splice", 100, 265),       # 64 + 2 * 100 + 1
]


def run_limited(args, cwd):
    p = subprocess.run(["prlimit", "--nofile=%d:%d" % (LIMIT, LIMIT), BIN] + args, cwd=cwd,
                       capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def main():
    c = Checks("scale_fds")
    if not shutil.which("prlimit"):
        c.skip("prlimit (util-linux) is not installed")
        c.finish()
    d = scratch_dir()
    try:
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
                want = "need %d open files and the limit is %d" % (need, LIMIT)
                c.check(code == 1 and want in err, "%s: refused with %r: exit %d %r" %
                        (name, want, code, err[-300:]))
            print("scale_fds: %s: exit %d" % (name, code))
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
