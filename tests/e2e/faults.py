#!/usr/bin/env python3
"""I/O faults, made by the LD_PRELOAD shim tests/fault/fault_shim.c (IOJOB_FAULT=CALL:FAULT
[:NTH[:COUNT]]), for each engine this build and kernel can run: an error stops the job with
a message naming the job, file, offset, length and errno (exit 1); continue_on_error=all
counts the errors (the normal report's errors line, total_err and first_error in JSON);
short transfers are completed, with every byte where it belongs; EAGAIN from a submit is
retried; ENOSPC while laying out a file, injected or real (a small tmpfs, as root), fails
before the timed phase and says how many bytes were needed; an engine the kernel refuses
(io_setup or the io_uring ring failing) says so in one line with the fix. The local
engines too: vsync (readv/writev, and its vectors cut short), pvsync, pvsync2, splice (the
splice on the file's side), and mmap, whose file mapped in windows when it cannot be
mapped whole, and whose failed mapping or msync stops the job. The engines without data
fail at the create, stat, unlink, mkdir, rmdir, fallocate or ftruncate the shim fails, and
leave the files the calls before it made or removed.

Not retried yet: a completion (not a submit) that returns EAGAIN fails the job like any
other error; the cases below check that it does so cleanly."""
import errno
import json
import os
import re
import subprocess

from common import BIN, Checks, engine_available, remove, run, scratch_dir, small_tmpfs, \
    split_normal_json

SHIM = os.environ.get("IOJOB_FAULT_SHIM", "")
KiB = 1024
SIZE = 256 * KiB
BS = 4 * KiB
NIOS = SIZE // BS
PATTERN = bytes.fromhex("deadbeef")

# The calls whose results carry each engine's reads and writes, and its submit call.
ENGINES = {
    "psync": {"read": "pread", "write": "pwrite", "args": []},
    "sync": {"read": "read", "write": "write", "args": []},
    "libaio": {"read": "aio_read", "write": "aio_write", "submit": "io_submit",
               "args": ["--iodepth=4", "--direct=1"]},
    "io_uring": {"read": "uring_read", "write": "uring_write", "submit": "uring_submit",
                 "args": ["--iodepth=4", "--direct=1"]},
    # issue 16: splice moves a read's data file -> pipe, a write's pipe -> file
    "vsync": {"read": "readv", "write": "writev", "args": []},
    "pvsync": {"read": "preadv", "write": "pwritev", "args": []},
    "pvsync2": {"read": "preadv2", "write": "pwritev2", "args": []},
    "splice": {"read": "splice", "write": "splice", "args": []},
}

# The catalog's other engines, and where their faults are tested or why they are not: an
# engine added to the catalog fails check_catalog until it has a line here or in ENGINES.
ELSEWHERE = {
    "mmap": "check_mmap: a mapping and msync, no call per I/O",
    "posixaio": "not faulted: glibc's AIO threads call pread/pwrite inside libc, where an "
                "LD_PRELOAD shim cannot reach",
    "sg": "tests/e2e/sg.py, over the SCSI target emulator",
    "io_uring_cmd": "not faulted: NVMe passthrough, on hardware this project has none of",
    "null": "no I/O", "cpp_null": "no I/O", "cpuio": "no I/O", "exec": "no I/O",
    "net": "sockets, which the shim does not wrap: tests/e2e/net.py on loopback",
    "page_fault": "no system call per I/O: memcpy to anonymous memory",
    "e4defrag": "an ioctl per I/O (EXT4_IOC_MOVE_EXT), which the shim does not wrap: "
                "tests/e2e/engines_ext4.py runs it on ext4",
    "filecreate": "check_nodata_engines", "filestat": "check_nodata_engines",
    "filedelete": "check_nodata_engines", "dircreate": "check_nodata_engines",
    "dirstat": "check_nodata_engines", "dirdelete": "check_nodata_engines",
    "falloc": "check_nodata_engines", "ftruncate": "check_nodata_engines",
}

ERRORS_LINE = re.compile(r"^\s+errors\s+: total=(\d+), first_error=(\d+)/<([^>]*)>$", re.M)
ISSUED_LINE = re.compile(r"issued rwts: total=(\d+),(\d+),(\d+),(\d+) "
                         r"short=(\d+),(\d+),(\d+),(\d+)")


def fault_run(args, spec, cwd, timeout=60, only=None):
    """Run iojob under the shim, counting only calls on the job's --filename (not on sysfs
    or /proc files), or on paths that hold only; (exit code, stdout, stderr,
    {"CALL:FAULT": hits})."""
    log = os.path.join(cwd, "fault.log")
    if only is None:
        only = os.path.basename([a.split("=", 1)[1] for a in args
                                 if a.startswith("--filename=")][0])
    env = dict(os.environ, LD_PRELOAD=SHIM, IOJOB_FAULT=spec, IOJOB_FAULT_LOG=log,
               IOJOB_FAULT_PATH=only)
    # the shim comes before an ASan build's runtime, which it would otherwise refuse
    env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0"
    if os.path.exists(log):
        os.unlink(log)
    p = subprocess.run([BIN, "--eta=never"] + args, cwd=cwd, env=env, capture_output=True,
                       text=True, timeout=timeout)
    hits = {}
    if os.path.exists(log):
        with open(log) as f:
            for line in f:
                call, what, _, h = line.split()
                hits["%s:%s" % (call, what)] = int(h.split("=")[1])
    return p.returncode, p.stdout, p.stderr, hits


def job(engine, rw, path, *extra):
    return (["--name=f", "--filename=" + path, "--rw=" + rw, "--bs=%d" % BS,
             "--size=%d" % SIZE, "--ioengine=" + engine] + ENGINES[engine]["args"] +
            list(extra))


def make_data(path):
    with open(path, "wb") as f:
        f.write(PATTERN * (SIZE // len(PATTERN)))


def check_catalog(c):
    """Every engine of the catalog (--enghelp, built or not) is faulted here or has its
    line in ELSEWHERE, and neither table names an engine the catalog lacks."""
    _, out, _ = run(["--enghelp"])
    catalog = {line.split(None, 1)[0] for line in out.splitlines() if line.strip()}
    for e in sorted(catalog - set(ENGINES) - set(ELSEWHERE)):
        c.check(False, "engine %s: no faults in ENGINES, no line in ELSEWHERE" % e)
    for e in sorted((set(ENGINES) | set(ELSEWHERE)) - catalog):
        c.check(False, "engine %s: in faults.py's tables, not in the catalog" % e)


def usable_engines(c, d):
    """Engines built in that the kernel lets run a small job here."""
    data = os.path.join(d, "probe")
    make_data(data)
    usable = []
    for e in ENGINES:
        if not engine_available(e):
            c.skip("%s: not in this build" % e)
            continue
        p = subprocess.run([BIN, "--eta=never"] + job(e, "read", data), cwd=d,
                           capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            c.skip("%s: cannot run here: %s" % (e, p.stderr.strip()))
            continue
        usable.append(e)
    return usable


def check_error_stops_job(c, e, d, data):
    """EIO on the 3rd read, ENOSPC on the 3rd write: exit 1, the message says it all."""
    for rw, call, err, text in (("read", "read", "EIO", "Input/output error"),
                                ("write", "write", "ENOSPC", "No space left on device")):
        name = "%s %s %s" % (e, ENGINES[e][call], err)
        code, out, errs, hits = fault_run(job(e, rw, data), "%s:%s:3" % (ENGINES[e][call], err),
                                          d)
        c.check(code == 1, "%s: exit %d, want 1: %s" % (name, code, errs))
        c.check(hits.get("%s:%s" % (ENGINES[e][call], err)) == 1, "%s: hits %s" % (name, hits))
        m = re.search(r"^iojob: job 'f': %s '(.*)' at offset (\d+), length (\d+): %s$" %
                      (rw, re.escape(text)), errs, re.M)
        c.check(m is not None, "%s: message %r" % (name, errs))
        if not m:
            continue
        c.check(m.group(1) == data, "%s: file %r, want %r" % (name, m.group(1), data))
        off, length = int(m.group(2)), int(m.group(3))
        c.check(off % BS == 0 and off < SIZE and length == BS,
                "%s: offset %d, length %d" % (name, off, length))
        if e in ("psync", "sync", "vsync", "pvsync", "pvsync2", "splice"):
            c.check(off == 2 * BS, "%s: offset %d, want the 3rd block" % (name, off))
        c.check("err=%2d (job 'f': %s '" % (5 if err == "EIO" else 28, rw) in out,
                "%s: the report's err= does not name it:\n%s" % (name, out))


def check_continue_on_error(c, e, d, data):
    """Three reads fail from the 5th on; the job goes on and both reports count them."""
    name = "%s continue_on_error" % e
    spec = "%s:EIO:5:3" % ENGINES[e]["read"]
    code, out, errs, hits = fault_run(job(e, "read", data, "--continue_on_error=all",
                                          "--output-format=normal,json"), spec, d)
    c.check(code == 0, "%s: exit %d, want 0: %s" % (name, code, errs))
    c.check(hits.get(spec.rsplit(":", 2)[0]) == 3, "%s: hits %s" % (name, hits))
    try:
        text, doc = split_normal_json(out)
    except Exception as ex:
        c.check(False, "%s: %s" % (name, ex))
        return
    m = ERRORS_LINE.search(text)
    c.check(m is not None and m.groups() == ("3", "5", "Input/output error"),
            "%s: errors line %r in:\n%s" % (name, m and m.group(0), text))
    j = doc["jobs"][0]
    # the job's error is the first one it went on past, as fio 3.33 reports it (err= 5 in
    # the normal report, "error": 5 in JSON, under this shim too), though it exits 0
    c.check(j.get("total_err") == 3 and j.get("first_error") == 5 and j.get("error") == 5,
            "%s: JSON total_err=%r first_error=%r error=%r" %
            (name, j.get("total_err"), j.get("first_error"), j.get("error")))
    c.check(j["read"]["io_bytes"] == SIZE - 3 * BS,
            "%s: read %d bytes, want all but the 3 failed blocks" % (name, j["read"]["io_bytes"]))


def check_short(c, e, d):
    """Every write and then every read moves half of what it was asked to (and again for
    the rest): each I/O is completed, counted once as short, and the file holds the pattern."""
    path = os.path.join(d, "short-%s" % e)
    for rw, call, col in (("write", "write", 1), ("read", "read", 0)):
        name = "%s short %s" % (e, rw)
        spec = "%s:short:1:0" % ENGINES[e][call]
        code, out, errs, hits = fault_run(job(e, rw, path, "--buffer_pattern=0xdeadbeef"),
                                          spec, d)
        c.check(code == 0, "%s: exit %d, want 0: %s" % (name, code, errs))
        c.check(hits.get("%s:short" % ENGINES[e][call], 0) >= NIOS,
                "%s: hits %s" % (name, hits))
        m = ISSUED_LINE.search(out)
        want = [0] * 8
        want[col] = want[4 + col] = NIOS
        c.check(m is not None and [int(g) for g in m.groups()] == want,
                "%s: issued %r, want total and short %d" % (name, m and m.group(0), NIOS))
    with open(path, "rb") as f:
        got = f.read()
    c.check(got == PATTERN * (SIZE // len(PATTERN)),
            "%s: after short writes the file does not hold the pattern" % e)


def check_eagain(c, e, d, data):
    """A submit that says EAGAIN is tried again; a completion with EAGAIN fails cleanly."""
    if "submit" in ENGINES[e]:
        name = "%s %s EAGAIN" % (e, ENGINES[e]["submit"])
        spec = "%s:EAGAIN:1:3" % ENGINES[e]["submit"]
        code, out, errs, hits = fault_run(job(e, "randread", data), spec, d)
        c.check(code == 0, "%s: exit %d, want 0 (retried): %s" % (name, code, errs))
        c.check(hits.get("%s:EAGAIN" % ENGINES[e]["submit"]) == 3, "%s: hits %s" % (name, hits))
        m = ISSUED_LINE.search(out)
        c.check(m is not None and int(m.group(1)) == NIOS, "%s: issued %r" %
                (name, m and m.group(0)))
    name = "%s %s EAGAIN" % (e, ENGINES[e]["read"])
    code, out, errs, hits = fault_run(job(e, "read", data), "%s:EAGAIN:2" % ENGINES[e]["read"],
                                      d)
    c.check(code == 1 and re.search(r"^iojob: job 'f': read '.*' at offset \d+, length 4096: "
                                    r"Resource temporarily unavailable$", errs, re.M),
            "%s: exit %d, message %r" % (name, code, errs))


def check_submit_faults(c, e, d, data):
    """A submit or reap that fails stops the job; a partial submit is completed."""
    if "submit" not in ENGINES[e]:
        return
    submit = ENGINES[e]["submit"]
    name = "%s %s EIO" % (e, submit)
    code, out, errs, hits = fault_run(job(e, "read", data), "%s:EIO:2" % submit, d)
    c.check(code == 1 and re.search(r"^iojob: job 'f': submitting \d+ I/Os? \(the first: "
                                    r"read '.*' at offset \d+, length 4096\): "
                                    r"Input/output error$", errs, re.M),
            "%s: exit %d, message %r" % (name, code, errs))
    name = "%s %s short" % (e, submit)
    code, out, errs, hits = fault_run(job(e, "randread", data, "--iodepth_batch_submit=4"),
                                      "%s:short:1:0" % submit, d)
    m = ISSUED_LINE.search(out)
    c.check(code == 0 and m is not None and int(m.group(1)) == NIOS and
            hits.get("%s:short" % submit, 0) > 0,
            "%s: exit %d, issued %r, hits %s: %s" % (name, code, m and m.group(0), hits, errs))
    if e != "libaio":
        return
    name = "libaio io_getevents EIO"
    code, out, errs, hits = fault_run(job(e, "read", data), "io_getevents:EIO:2", d)
    c.check(code == 1 and "iojob: job 'f': reaping completions: Input/output error" in errs,
            "%s: exit %d, message %r" % (name, code, errs))


# An engine that cannot start: the call that makes its context or ring, the errno the kernel
# gives, and the fix the one line must name.
INIT_FAULTS = {
    "libaio": [("io_setup", "EAGAIN", "raise /proc/sys/fs/aio-max-nr")],
    "io_uring": [("uring_init", "EPERM", "see /proc/sys/kernel/io_uring_disabled"),
                 ("uring_init", "ENOMEM", "raise the locked-memory limit (ulimit -l)")],
}


def check_engine_init(c, e, d, data):
    """The engine refused (aio-max-nr used up, io_uring disabled or short of locked memory):
    one clear line with the fix, exit 1, no report of I/O that never happened."""
    for call, err, fix in INIT_FAULTS.get(e, []):
        name = "%s %s %s" % (e, call, err)
        code, out, errs, hits = fault_run(job(e, "read", data), "%s:%s" % (call, err), d)
        lines = [ln for ln in errs.splitlines() if ln.startswith("iojob:")]
        c.check(code == 1, "%s: exit %d, want 1: %s" % (name, code, errs))
        c.check(hits.get("%s:%s" % (call, err)) == 1, "%s: hits %s" % (name, hits))
        c.check(len(lines) == 1 and fix in lines[0] and "job 'f'" in lines[0],
                "%s: one line naming the job and the fix %r: %r" % (name, fix, lines))
        c.check("Segmentation" not in errs and "AddressSanitizer" not in errs,
                "%s: no crash: %s" % (name, errs))


def check_vsync_vectors(c, d):
    """vsync, 4 deep in batches of 4: each vector moves half of what it holds; what the
    call never reached goes out again, and every byte lands where it belongs."""
    if not engine_available("vsync"):
        c.skip("vsync: not in this build")
        return
    path = os.path.join(d, "vectors")
    for rw, call in (("write", "writev"), ("read", "readv")):
        name = "vsync short %s vectors" % rw
        code, out, errs, hits = fault_run(
            job("vsync", rw, path, "--iodepth=4", "--iodepth_batch=4",
                "--buffer_pattern=0xdeadbeef", "--output-format=json"),
            "%s:short:1:0" % call, d)
        c.check(code == 0, "%s: exit %d: %s" % (name, code, errs))
        doc = json.loads(out) if code == 0 else {"jobs": [{rw: {"total_ios": -1}}]}
        c.check(doc["jobs"][0][rw]["total_ios"] == NIOS, "%s: %r I/Os, want %d" %
                (name, doc["jobs"][0][rw]["total_ios"], NIOS))
        # a vector of 4 blocks halved reaches 2: the other 2 take at least one call more
        c.check(hits.get("%s:short" % call, 0) >= 2 * NIOS // 4, "%s: hits %s, want %d or "
                "more" % (name, hits, 2 * NIOS // 4))
        sub = doc["jobs"][0].get("iodepth_submit", {}).get("4", 0)
        c.check(sub > 0, "%s: no submit of 4 I/Os at once: %r" % (name, sub))
    with open(path, "rb") as f:
        c.check(f.read() == PATTERN * (SIZE // len(PATTERN)),
                "vsync short vectors: the file does not hold the pattern")


def check_mmap(c, d, data):
    """mmap: a file that cannot be mapped whole is mapped in windows; a mapping or msync
    that fails stops the job with the I/O, file and errno."""
    if not engine_available("mmap"):
        c.skip("mmap: not in this build")
        return
    base = ["--name=f", "--filename=" + data, "--bs=%d" % BS, "--size=%d" % SIZE,
            "--ioengine=mmap"]
    code, out, errs, hits = fault_run(base + ["--rw=read", "--verify=pattern",
                                              "--verify_pattern=0xdeadbeef"],
                                      "mmap:ENOMEM:1", d)
    c.check(code == 0 and hits.get("mmap:ENOMEM") == 1,
            "mmap ENOMEM once: exit %d, hits %s: %s" % (code, hits, errs))
    check_mmap_windows(c, d)
    code, out, errs, hits = fault_run(base + ["--rw=read"], "mmap:EIO:1", d)
    c.check(code == 1 and re.search(r"^iojob: job 'f': read '%s' at offset 0, length 4096: "
                                    r"Input/output error$" % re.escape(data), errs, re.M),
            "mmap EIO: exit %d, message %r" % (code, errs))
    code, out, errs, hits = fault_run(base + ["--rw=read"], "mmap:ENOMEM:1:0", d)
    c.check(code == 1 and re.search(r"read '.*' at offset 0, length 4096: Cannot allocate "
                                    r"memory$", errs, re.M),
            "mmap ENOMEM always: exit %d, message %r" % (code, errs))
    code, out, errs, hits = fault_run(base + ["--rw=write", "--fsync=4"], "msync:EIO:2", d)
    c.check(code == 1 and hits.get("msync:EIO") == 1 and
            re.search(r"^iojob: job 'f': fsync '%s' at offset \d+, length \d+: Input/output "
                      r"error$" % re.escape(data), errs, re.M),
            "msync EIO: exit %d, hits %s, message %r" % (code, hits, errs))


def check_mmap_windows(c, d):
    """1024 files share 1 GiB of windows, 1 MiB each: when a 4 MiB file cannot be mapped
    whole, 64 random writes of it map a window each time one falls outside, and verify
    reads every block back through windows too."""
    sub = os.path.join(d, "windows")
    os.mkdir(sub)
    log = os.path.join(d, "fault.log")
    env = dict(os.environ, LD_PRELOAD=SHIM, IOJOB_FAULT="mmap:ENOMEM:1:1", IOJOB_FAULT_LOG=log,
               IOJOB_FAULT_PATH=sub)
    env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0"
    p = subprocess.run([BIN, "--eta=never", "--name=w", "--directory=" + sub, "--nrfiles=1024",
                        "--filesize=4m", "--fallocate=none", "--rw=randwrite", "--bs=4k",
                        "--ioengine=mmap", "--file_service_type=sequential",
                        "--number_ios=64", "--verify=crc32c", "--output-format=json"],
                       cwd=d, env=env, capture_output=True, text=True, timeout=120)
    with open(log) as f:
        calls = int(re.search(r"calls=(\d+) hits=1", f.read()).group(1))
    j = json.loads(p.stdout)["jobs"][0] if p.returncode == 0 else None
    c.check(j is not None and j["write"]["total_ios"] == 64 and j["read"]["total_ios"] == 64,
            "mmap windows: exit %d: %s" % (p.returncode, p.stderr.strip()))
    # 4 windows cover the file: more than 4 mappings means windows were replaced
    c.check(calls > 5, "mmap windows: %d mappings for 64 writes and 64 reads" % calls)
    remove(sub)


def check_layout_enospc(c, d):
    """Laying out a file for a read job, the 2nd write fails: before the timed phase, with
    the bytes needed, and the file it created removed; a write job's fallocate fails the
    same way."""
    path = os.path.join(d, "layout")
    code, out, errs, hits = fault_run(["--name=f", "--filename=" + path, "--rw=read",
                                       "--size=4m"], "pwrite:ENOSPC:2", d)
    c.check(code == 1 and re.search(r"^iojob: command line: job 'f': laying out '%s' at offset "
                                    r"1048576 \(4194304 bytes needed\): No space left on "
                                    r"device$" % re.escape(path), errs, re.M),
            "layout ENOSPC: exit %d, message %r" % (code, errs))
    c.check("IOPS=" not in out, "layout ENOSPC: the timed phase ran:\n" + out)
    c.check(not os.path.exists(path), "layout ENOSPC: the file it created is left behind")
    code, out, errs, hits = fault_run(["--name=f", "--filename=" + path, "--rw=write",
                                       "--size=4m"], "fallocate:ENOSPC", d)
    c.check(code == 1 and re.search(r"^iojob: command line: job 'f': cannot size '%s' to "
                                    r"4194304 bytes: No space left on device$" %
                                    re.escape(path), errs, re.M),
            "fallocate ENOSPC: exit %d, message %r" % (code, errs))
    c.check("IOPS=" not in out, "fallocate ENOSPC: the timed phase ran:\n" + out)
    c.check(not os.path.exists(path), "fallocate ENOSPC: the file it created is left behind")


def check_nodata_engines(c, d):
    """Issue 16: the calls the engines without data make fail where the shim says: the
    metadata engines' calls on paths, falloc's fallocate, ftruncate's ftruncate. The job
    stops at the failing call (exit 1, its file and errno named), or with
    continue_on_error=all counts it and goes on."""
    where = os.path.join(d, "meta")
    meta = ["--name=f", "--directory=" + where, "--nrfiles=5", "--filesize=4k"]

    def fresh(kind):
        subprocess.run(["rm", "-rf", where])
        os.mkdir(where)
        for i in range(5 if kind else 0):
            path = os.path.join(where, "f.0.%d" % i)
            if kind == "dir":
                os.mkdir(path)
            else:
                with open(path, "wb") as f:
                    f.write(b"m" * 4096)

    # engine, what exists first, spec, the files left after the job stops at the 3rd call
    for engine, kind, spec, left in [("filecreate", None, "create:EIO:3", 2),
                                     ("filedelete", "file", "unlink:EACCES:3", 3),
                                     ("dircreate", None, "mkdir:ENOSPC:3", 2),
                                     ("dirdelete", "dir", "rmdir:EBUSY:3", 3)]:
        fresh(kind)
        code, _, errs, hits = fault_run(meta + ["--ioengine=" + engine], spec, d, only="meta/")
        failed = os.path.join(where, "f.0.2")
        text = os.strerror(getattr(errno, spec.split(":")[1]))
        c.check(code == 1 and hits.get(spec.rsplit(":", 1)[0]) == 1 and
                "iojob: job 'f': %s '%s': %s\n" % (engine, failed, text) in errs and
                len(os.listdir(where)) == left,
                "%s %s: exit %d, hits %s, %d left: %s" % (engine, spec, code, hits,
                                                          len(os.listdir(where)), errs))
    for stat_type in ("stat", "lstat", "statx"):
        fresh("file")
        code, out, errs, hits = fault_run(meta + ["--ioengine=filestat", "--stat_type=" +
                                                  stat_type, "--continue_on_error=all",
                                                  "--output-format=json"],
                                          "%s:EIO:2" % stat_type, d, only="meta/")
        j = json.loads(out)["jobs"][0] if code == 0 else {}
        c.check(code == 0 and hits.get("%s:EIO" % stat_type) == 1 and
                j.get("total_err") == 1 and j.get("first_error") == 5,
                "filestat stat_type=%s: the failed lookup is counted: exit %d, %s, %s" %
                (stat_type, code, hits, errs))
    data = os.path.join(d, "nodata")
    for engine, rw, spec, text in [("falloc", "read", "fallocate:ENOSPC:2",
                                    "No space left on device"),
                                   ("falloc", "trim", "fallocate:EIO:2", "Input/output error"),
                                   ("ftruncate", "write", "ftruncate:EFBIG:2",
                                    "File too large")]:
        make_data(data)     # the file exists whole: nothing to lay out, no call before I/O
        code, _, errs, hits = fault_run(["--name=f", "--filename=" + data, "--rw=" + rw,
                                         "--bs=16k", "--size=64k", "--ioengine=" + engine],
                                        spec, d)
        c.check(code == 1 and hits.get(spec.rsplit(":", 1)[0]) == 1 and
                "%s '%s' at offset 16384, length 16384: %s" % (rw, data, text) in errs,
                "%s %s %s: exit %d, hits %s: %s" % (engine, rw, spec, code, hits, errs))


def check_real_enospc(c, d):
    """A 1 MiB tmpfs and jobs that need 4 MiB: refused before a byte is written, naming
    what is needed and what is free, no file left behind, error 28 in JSON as fio's; a
    job that fits runs, and fill_device=1 writes until the file system is full."""
    with small_tmpfs(c, d, "enospc", "size=1m", "real ENOSPC") as mnt:
        if not mnt:
            return
        for rw in ("read", "write", "randwrite"):
            path = os.path.join(mnt, "data-" + rw)
            p = subprocess.run([BIN, "--eta=never", "--name=f", "--filename=" + path,
                                "--rw=" + rw, "--size=4m", "--output-format=normal,json"],
                               capture_output=True, text=True, timeout=60)
            want = (r"^iojob: command line: job 'f': its files need 4\.0 MiB more on the "
                    r"file system of '%s', which has 1\.0 MiB free: nothing was written" %
                    re.escape(path))
            c.check(p.returncode == 1 and re.search(want, p.stderr, re.M),
                    "tmpfs %s: exit %d, message %r" % (rw, p.returncode, p.stderr))
            _, j = split_normal_json(p.stdout)
            c.check(j and j["jobs"][0]["error"] == 28, "tmpfs %s: JSON error %s, not 28" %
                    (rw, j and j["jobs"][0]["error"]))
            c.check(not os.path.exists(path), "tmpfs %s: a file was left behind" % rw)
        path = os.path.join(mnt, "fits")
        p = subprocess.run([BIN, "--eta=never", "--name=f", "--filename=" + path,
                            "--rw=write", "--size=512k"], capture_output=True, text=True,
                           timeout=60)
        c.check(p.returncode == 0 and os.path.getsize(path) == 512 << 10,
                "tmpfs: a job that fits runs: exit %d %r" % (p.returncode, p.stderr))
        os.unlink(path)
        p = subprocess.run([BIN, "--eta=never", "--name=f", "--filename=" + path,
                            "--rw=write", "--size=4m", "--fill_device=1"],
                           capture_output=True, text=True, timeout=60)
        c.check(p.returncode == 0 and 0 < os.path.getsize(path) <= 1 << 20,
                "tmpfs: fill_device=1 writes until full: exit %d %r" % (p.returncode,
                                                                       p.stderr))
        os.unlink(path)
        # a job that goes on past ENOSPC (xfstests' generic/299): run, its errors counted
        p = subprocess.run([BIN, "--eta=never", "--name=f", "--filename=" + path,
                            "--rw=randwrite", "--size=4m", "--fallocate=none",
                            "--create_on_open=1", "--continue_on_error=write",
                            "--ignore_error=,ENOSPC", "--output-format=json"],
                           capture_output=True, text=True, timeout=60)
        j = json.loads(p.stdout)["jobs"][0] if p.returncode == 0 else {}
        c.check(p.returncode == 0 and j["write"]["total_ios"] == 1024 and
                j["total_err"] > 0 and j["first_error"] == 28 and j["error"] == 28,
                "tmpfs: ignore_error=,ENOSPC with continue_on_error=write runs, as fio: "
                "exit %d %s %r" % (p.returncode, {k: j.get(k) for k in ("total_err",
                                                                     "first_error",
                                                                     "error")},
                                   p.stderr))
        os.unlink(path)


def check_repeated_failure(c, d, data):
    """40 clones that fail the same way (every read EIO) say it once, with the count of
    the others; a job that fails otherwise has its own line (each was said again: issue 27
    printed 32,412 identical lines)."""
    args = ["--name=f", "--filename=" + data, "--rw=read", "--bs=%d" % BS, "--numjobs=40",
            "--output=/dev/null", "--name=g", "--filename=" + data, "--rw=write",
            "--bs=%d" % BS]
    code, _, errs, _ = fault_run(args, "pread:EIO:1:0,pwrite:ENOSPC:1:0", d)
    reads = [ln for ln in errs.splitlines() if "job 'f': read" in ln]
    writes = [ln for ln in errs.splitlines() if "job 'g': write" in ln]
    c.check(code == 1 and len(reads) == 1 and
            reads[0].endswith("Input/output error (and 39 more jobs failed the same way)") and
            len(writes) == 1 and writes[0].endswith("No space left on device"),
            "40 clones failing alike, one failing otherwise: exit %d %r" % (code, errs[-600:]))


def main():
    c = Checks("faults")
    check_catalog(c)
    if not SHIM or not os.path.exists(SHIM):
        c.skip("no fault shim (IOJOB_FAULT_SHIM=%r)" % SHIM)
        c.finish()
    d = scratch_dir()
    try:
        data = os.path.join(d, "data")
        for e in usable_engines(c, d):
            make_data(data)
            check_error_stops_job(c, e, d, data)
            make_data(data)
            check_continue_on_error(c, e, d, data)
            check_short(c, e, d)
            check_eagain(c, e, d, data)
            check_submit_faults(c, e, d, data)
            check_engine_init(c, e, d, data)
        make_data(data)
        check_mmap(c, d, data)
        make_data(data)
        check_repeated_failure(c, d, data)
        check_vsync_vectors(c, d)
        check_layout_enospc(c, d)
        check_nodata_engines(c, d)
    finally:
        remove(d)
    c.in_scratch(check_real_enospc)
    c.finish()


if __name__ == "__main__":
    main()
