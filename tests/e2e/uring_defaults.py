#!/usr/bin/env python3
"""io_uring's defaults (issue 19), read back with strace: unset, fixedbufs and registerfiles
register the buffers (one per request) and the file, and set they keep fio's meaning (0:
nothing registered; 1: registered, or the job fails where the kernel refuses); a refusal of
an unset one, injected by strace, is passed over silently; registerfiles leaves files that
openfiles= opens and closes alone unless asked; iodepth_batch_submit unset submits the
queue in one call (set, fio's meaning; strace's io_uring_enter counts); a setup flag the kernel refuses (EINVAL,
injected) is dropped, newest first, and the job runs."""
import errno
import json
import os
import re
import shutil
import subprocess
import sys

from common import BIN, SKIP, Checks, engine_available, remove, run, scratch_dir, traced_env

SETUP_FLAGS = {
    "IORING_SETUP_IOPOLL": 1 << 0, "IORING_SETUP_SQPOLL": 1 << 1,
    "IORING_SETUP_SQ_AFF": 1 << 2, "IORING_SETUP_CQSIZE": 1 << 3,
    "IORING_SETUP_SUBMIT_ALL": 1 << 7, "IORING_SETUP_COOP_TASKRUN": 1 << 8,
    "IORING_SETUP_SINGLE_ISSUER": 1 << 12, "IORING_SETUP_DEFER_TASKRUN": 1 << 13,
}
# what the engine asks for first, and the order in which it gives them up
WANTED = ["IORING_SETUP_DEFER_TASKRUN", "IORING_SETUP_SINGLE_ISSUER",
          "IORING_SETUP_COOP_TASKRUN", "IORING_SETUP_SUBMIT_ALL", "IORING_SETUP_CQSIZE"]
SETUP = re.compile(r"io_uring_setup\(\d+, \{flags=([^,]+),.*\) = (-?\d+)")
REGISTER = re.compile(r"io_uring_register\(\d+, (IORING_\w+), .*, (\d+)\) = (-?\d+)")
DEPTH = 8
SIZE = 1 << 20


def flags_of(text):
    """strace's flags (names, and a hex rest for the ones it cannot name) as a number."""
    n = 0
    for part in text.split("|"):
        n |= int(part, 16) if part.startswith("0x") else SETUP_FLAGS.get(part, 0)
    return n


def traced(d, opts, inject=None):
    """The job under strace: (exit, stderr, setup calls [(flags, ret)], register calls
    {op: [(count, ret)]}, the job's JSON or None)."""
    log = os.path.join(d, "strace.log")
    cmd = ["strace", "-f", "-qq", "-o", log, "-e", "trace=io_uring_setup,io_uring_register"]
    if inject:
        cmd += ["-e", "inject=" + inject]
    args = ["--name=j", "--ioengine=io_uring", "--iodepth=%d" % DEPTH, "--rw=read",
            "--bs=4k", "--size=%d" % SIZE, "--directory=" + d, "--invalidate=0",
            "--output-format=json"] + opts
    p = subprocess.run(cmd + [BIN] + args, capture_output=True, text=True, env=traced_env(),
                       timeout=120)
    setups, regs = [], {}
    with open(log) as f:
        for line in f:
            m = SETUP.search(line)
            if m:
                setups.append((flags_of(m.group(1)), int(m.group(2))))
            m = REGISTER.search(line)
            if m:
                regs.setdefault(m.group(1), []).append((int(m.group(2)), int(m.group(3))))
    try:
        job = json.loads(p.stdout)["jobs"][0]
    except (ValueError, KeyError, IndexError):
        job = None
    return p.returncode, p.stderr, setups, regs, job


def ios(job):
    return job["read"]["total_ios"] if job else -1


def check_registration(c, d):
    code, err, setups, regs, job = traced(d, [])
    c.check(code == 0 and ios(job) == SIZE // 4096, "default: exit %d, %d I/Os: %s" %
            (code, ios(job), err[-300:]))
    c.check(regs.get("IORING_REGISTER_BUFFERS") == [(DEPTH, 0)],
            "default: the %d buffers registered once: %r" % (DEPTH, regs))
    c.check(regs.get("IORING_REGISTER_FILES") == [(1, 0)],
            "default: the file registered once: %r" % regs)
    first = setups[0][0] if setups else 0
    want = sum(SETUP_FLAGS[n] for n in WANTED)
    c.check(first & want == want, "default: the first setup asks for %s: %#x" %
            ("|".join(WANTED), first))
    for opts, bufs, files in ((["--fixedbufs=0", "--registerfiles=0"], None, None),
                              (["--fixedbufs=0"], None, [(1, 0)]),
                              (["--registerfiles=0"], [(DEPTH, 0)], None),
                              (["--fixedbufs=1", "--registerfiles=1"], [(DEPTH, 0)], [(1, 0)])):
        code, err, _, regs, job = traced(d, opts)
        c.check(code == 0 and ios(job) == SIZE // 4096, "%s: exit %d: %s" %
                (" ".join(opts), code, err[-300:]))
        c.check(regs.get("IORING_REGISTER_BUFFERS") == bufs and
                regs.get("IORING_REGISTER_FILES") == files,
                "%s: buffers %r, files %r registered: %r" % (" ".join(opts), bufs, files, regs))


def check_refusals(c, d):
    """io_uring_register's 1st call registers the ring's fd, the 2nd the buffers, the 3rd
    the files (liburing tries the files again after EMFILE, having raised RLIMIT_NOFILE: a
    4th): each refused in turn, unset passes over it, set fails the job."""
    for nth, opt, err_name in (("2", "fixedbufs", "ENOMEM"), ("3..4", "registerfiles", "EMFILE")):
        inject = "io_uring_register:error=%s:when=%s" % (err_name, nth)
        code, err, _, regs, job = traced(d, [], inject)
        c.check(code == 0 and ios(job) == SIZE // 4096,
                "%s refused, %s unset: the job runs anyway: exit %d, %d I/Os: %s" %
                (err_name, opt, code, ios(job), err[-300:]))
        c.check(not err.strip() or "error" not in err.lower(),
                "%s refused, %s unset: nothing said: %r" % (err_name, opt, err))
        code, err, _, _, _ = traced(d, ["--%s=1" % opt], inject)
        c.check(code == 1 and "failed to start" in err and os.strerror(
                    getattr(errno, err_name)) in err,
                "%s refused, %s=1: the job fails, saying why: exit %d, %r" %
                (err_name, opt, code, err[-300:]))


def check_openfiles(c, d):
    opts = ["--nrfiles=4", "--openfiles=2", "--filesize=256k"]
    code, err, _, regs, job = traced(d, opts)
    c.check(code == 0 and ios(job) == SIZE // 4096 and "IORING_REGISTER_FILES" not in regs,
            "openfiles=2 of 4: files opened and closed as it goes are not registered "
            "unasked: exit %d, %d I/Os, %r: %s" % (code, ios(job), regs, err[-300:]))
    code, err, _, regs, job = traced(d, opts + ["--registerfiles=1"])
    c.check(code == 0 and ios(job) == SIZE // 4096 and regs.get("IORING_REGISTER_FILES"),
            "openfiles=2 of 4, registerfiles=1: registered as asked: exit %d, %r" %
            (code, regs))


ENTER = re.compile(r"io_uring_enter\(\d+, (\d+), (\d+), ")


def submits(d, opts):
    """The job under strace: (exit, I/Os, [to_submit of each io_uring_enter that submits])."""
    log = os.path.join(d, "enter.log")
    args = ["--name=j", "--ioengine=io_uring", "--iodepth=%d" % DEPTH, "--rw=read",
            "--bs=4k", "--size=%d" % SIZE, "--directory=" + d, "--invalidate=0",
            "--output-format=json"] + opts
    p = subprocess.run(["strace", "-f", "-qq", "-o", log, "-e", "trace=io_uring_enter", BIN] +
                       args, capture_output=True, text=True, env=traced_env(), timeout=120)
    with open(log) as f:
        counts = [int(m.group(1)) for m in map(ENTER.search, f) if m and int(m.group(1))]
    try:
        job = json.loads(p.stdout)["jobs"][0]
    except (ValueError, KeyError, IndexError):
        job = None
    return p.returncode, ios(job), counts


def check_batches(c, d):
    """Unset, iodepth_batch_submit is the depth for io_uring (as for null): the queue is
    filled, then submitted in one call, where fio submits each I/O in a call of its own;
    set, it keeps fio's meaning. Only the first call's count is fixed (later ones submit
    what completed meanwhile), and every I/O is submitted once."""
    code, n, counts = submits(d, [])
    c.check(code == 0 and n == SIZE // 4096 and counts[:1] == [DEPTH] and
            sum(counts) == n and max(counts) == DEPTH,
            "default: the first call submits the %d of the queue, %d I/Os in %d calls: "
            "exit %d, %s" % (DEPTH, n, len(counts), code, counts[:8]))
    for opt, most in (("--iodepth_batch_submit=1", 1), ("--iodepth_batch_submit=4", 4)):
        code, n, counts = submits(d, [opt])
        c.check(code == 0 and n == SIZE // 4096 and sum(counts) == n and
                counts[:1] == [most] and max(counts) == most,
                "%s: at most %d a call, %d I/Os: exit %d, %s" % (opt, most, n, code,
                                                                 counts[:8]))


def check_setup_fallback(c, d):
    """The first n setups refused: the n-th retry has given up the n newest flags."""
    for n in (1, 2, len(WANTED)):
        inject = "io_uring_setup:error=EINVAL:when=1..%d" % n
        code, err, setups, _, job = traced(d, [], inject)
        c.check(code == 0 and ios(job) == SIZE // 4096 and len(setups) == n + 1,
                "setup refused %d times: exit %d, %d I/Os, %d setups: %s" %
                (n, code, ios(job), len(setups), err[-300:]))
        if len(setups) != n + 1:
            continue
        dropped = sum(SETUP_FLAGS[f] for f in WANTED[:n])
        kept = sum(SETUP_FLAGS[f] for f in WANTED[n:])
        last = setups[-1][0]
        c.check(last & dropped == 0 and last & kept == kept and setups[-1][1] >= 0,
                "setup refused %d times: the last asks without %s, with %s: %#x" %
                (n, "|".join(WANTED[:n]), "|".join(WANTED[n:]) or "-", last))


def main():
    if not engine_available("io_uring"):
        print("SKIP: this build has no io_uring engine")
        return SKIP
    if not shutil.which("strace"):
        print("SKIP: no strace: io_uring_setup and io_uring_register cannot be read back")
        return SKIP
    c = Checks("uring_defaults")
    d = scratch_dir()
    try:
        code, _, err = run(["--name=probe", "--ioengine=io_uring", "--size=4k",
                            "--directory=" + d])
        if code != 0:
            print("SKIP: io_uring does not run here: " + err.strip()[-200:])
            return SKIP
        check_registration(c, d)
        check_refusals(c, d)
        check_openfiles(c, d)
        check_setup_fallback(c, d)
        check_batches(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    sys.exit(main())
