#!/usr/bin/env python3
"""fio's file options (issue 15, group C), each checked by its effect: the sizes of the
files made (filesize ranges), the system calls the run makes, seen with strace -f
(fsync='s and fdatasync='s calls, create_fsync's fsyncs, create_serialize's layout threads, unlink_each_loop's unlinks,
opendir's opens, pre_read's reads, sync_file_range's ranges, fadvise_hint=noreuse, the
openfiles limit, lockfile's serialised I/O), the hint read back with F_GET_RW_HINT
(write_hint), the offsets of log_offset=1 logs (file_append), a file not made
(allow_file_create=0) and a small tmpfs filled (fill_device, as root)."""
import json
import os
from collections import Counter
import re
import shutil
import subprocess

from common import BIN, Checks, engine_available, remove, run, scratch_dir, small_tmpfs, \
    traced_env

KiB = 1024
STRACE = shutil.which("strace")


def iojob(args, cwd):
    return run(["--eta=never"] + args, cwd=cwd)


def traced(args, cwd, calls, raw=False, path=None, fd_paths=False):
    """Run iojob under strace -f for the calls (on path alone when given; with fd_paths,
    each descriptor followed by its file's path); (exit code, stdout, trace lines), each
    call on one line unless raw (as strace wrote them)."""
    trace = os.path.join(cwd, "strace.out")
    only = (["-P", path] if path else []) + (["-y"] if fd_paths else [])
    p = subprocess.run([STRACE, "-f", "-qq", "-o", trace, "-e", "trace=" + calls] + only +
                       [BIN, "--eta=never"] + args, cwd=cwd, capture_output=True, text=True,
                       timeout=120, env=traced_env())
    with open(trace) as f:
        lines = f.read().splitlines()
    os.unlink(trace)
    return p.returncode, p.stdout, lines if raw else joined(lines)


def joined(lines):
    """strace -f lines with each call whole: a call another thread's interrupted is shown
    as "NAME(args <unfinished ...>" and later "<... NAME resumed>rest"; join the parts."""
    out, open_calls = [], {}
    for l in lines:
        m = re.match(r"(\d+)\s+<\.\.\. \w+ resumed>(.*)", l)
        if m and m.group(1) in open_calls:
            out.append(open_calls.pop(m.group(1)) + m.group(2))
        elif l.endswith("<unfinished ...>"):
            open_calls[l.split()[0]] = l[:-len("<unfinished ...>")].rstrip()
        else:
            out.append(l)
    return out


def job_json(out):
    return json.loads(out)["jobs"][0]


def check_filesize(c, d):
    """filesize= takes one size or a range written A-B, A:B or A,B (fio's three forms):
    each of nrfiles files gets a size drawn in the range, in whole blocks."""
    for form in ["64k-256k", "64k:256k", "64k,256k"]:
        sub = os.path.join(d, "fs" + str(len(os.listdir(d))))
        os.mkdir(sub)
        code, _, err = iojob(["--name=j", "--directory=" + sub, "--nrfiles=6",
                              "--filesize=" + form, "--rw=write", "--bs=4k",
                              "--create_only=1"], d)
        sizes = sorted(os.path.getsize(os.path.join(sub, n)) for n in os.listdir(sub))
        c.check(code == 0 and len(sizes) == 6, "filesize=%s: exit %d, %s" % (form, code, err))
        c.check(all(64 * KiB <= s <= 256 * KiB and s % (4 * KiB) == 0 for s in sizes) and
                len(set(sizes)) > 1, "filesize=%s: sizes %s, not drawn in the range in "
                "whole blocks" % (form, sizes))
    sub = os.path.join(d, "fs_one")
    os.mkdir(sub)
    code, _, _ = iojob(["--name=j", "--directory=" + sub, "--nrfiles=3", "--filesize=96k",
                        "--rw=write", "--create_only=1"], d)
    sizes = [os.path.getsize(os.path.join(sub, n)) for n in os.listdir(sub)]
    c.check(code == 0 and sizes == [96 * KiB] * 3, "filesize=96k: sizes %s" % sizes)
    code, _, err = iojob(["--name=j", "--directory=" + sub, "--filesize=256k-64k",
                          "--create_only=1", "--parse-only"], d)
    c.check(code == 2 and "filesize" in err, "filesize=256k-64k: exit %d, %s" % (code, err))


def check_create_fsync(c, d):
    """The layout of a read job's two files is fsynced once each, or not at all."""
    for value, want in [("1", 2), ("0", 0)]:
        sub = os.path.join(d, "cf" + value)
        os.mkdir(sub)
        code, _, lines = traced(["--name=j", "--directory=" + sub, "--nrfiles=2",
                                 "--size=512k", "--rw=read", "--create_fsync=" + value],
                                sub, "fsync")
        n = sum(1 for l in lines if re.search(r"\bfsync\(", l))
        c.check(code == 0 and n == want, "create_fsync=%s: %d fsyncs, not %d" %
                (value, n, want))


def gettids(lines):
    """The job threads: each asks for its id (the main thread, whose id is the process's,
    may too, under a sanitizer)."""
    main = {l.split()[0] for l in lines if "execve(" in l}
    return {l.split()[0] for l in lines if "gettid()" in l} - main


def check_create_serialize(c, d):
    """create_serialize=1 lays both jobs' files out from the main thread before the jobs
    start; =0 has each job's own thread lay out its file (read jobs: the layout's writes
    are the only pwrite64 calls)."""
    for value in ["1", "0"]:
        sub = os.path.join(d, "cs" + value)
        os.mkdir(sub)
        args = []
        for name in "ab":
            args += ["--name=" + name, "--filename=" + name, "--size=1m", "--rw=read",
                     "--create_serialize=" + value]
        code, _, lines = traced(args, sub, "execve,pwrite64,gettid")
        jobs = gettids(lines)
        writers = {l.split()[0] for l in lines if "pwrite64(" in l}
        ok = code == 0 and len(jobs) == 2 and writers
        if value == "1":
            ok = ok and not writers & jobs
        else:
            ok = ok and writers == jobs
        c.check(ok, "create_serialize=%s: layout written by %s, job threads %s" %
                (value, sorted(writers), sorted(jobs)))


def check_allow_file_create(c, d):
    """allow_file_create=0: a missing file fails the job (exit 1, as fio) and is not
    made; an existing one is used."""
    path = os.path.join(d, "afc")
    code, _, err = iojob(["--name=j", "--filename=" + path, "--size=64k", "--rw=write",
                          "--allow_file_create=0"], d)
    c.check(code == 1 and "allow_file_create" in err and not os.path.exists(path),
            "allow_file_create=0 on a missing file: exit %d, %s" % (code, err))
    with open(path, "wb") as f:
        f.write(b"\0" * 64 * KiB)
    code, out, err = iojob(["--name=j", "--filename=" + path, "--size=64k", "--rw=write",
                            "--allow_file_create=0", "--output-format=json"], d)
    c.check(code == 0 and job_json(out)["write"]["io_bytes"] == 64 * KiB,
            "allow_file_create=0 on an existing file: exit %d, %s" % (code, err))
    code, _, err = iojob(["--name=j", "--filename=" + path, "--size=64k", "--rw=write",
                          "--allow_file_create=0", "--create=recreate"], d)
    c.check(code == 2 and os.path.getsize(path) == 64 * KiB,
            "allow_file_create=0 with create=recreate: exit %d, %s" % (code, err))


def log_offsets(path):
    with open(path) as f:
        return [int(l.split(",")[4]) for l in f if l.strip()]


def check_file_append(c, d):
    """file_append=1 writes after the file's end: the logged offsets start at its size."""
    path = os.path.join(d, "app")
    with open(path, "wb") as f:
        f.write(os.urandom(100000))
    for value, first in [("1", 100000), ("0", 0)]:
        code, _, err = iojob(["--name=j", "--filename=" + path, "--size=64k", "--bs=4k",
                              "--rw=write", "--file_append=" + value, "--log_offset=1",
                              "--write_lat_log=" + os.path.join(d, "app" + value)], d)
        offs = log_offsets(os.path.join(d, "app%s_lat.1.log" % value))
        want = [first + i * 4 * KiB for i in range(16)]
        c.check(code == 0 and offs == want, "file_append=%s: offsets %s, not %s... (%s)" %
                (value, offs[:3], want[:3], err))
    c.check(os.path.getsize(path) == 100000 + 64 * KiB,
            "file_append=1: the file is %d bytes, not %d" % (os.path.getsize(path),
                                                              100000 + 64 * KiB))


def check_fill_device(c, d):
    """On a 4 MiB tmpfs: fill_device=1 sizes the file to the free space and writes it
    full; with size= larger than the file system it ends at ENOSPC without error, where
    fill_device=0 fails; a read job reads what filling wrote."""
    with small_tmpfs(c, d, "mnt", "size=4m", "fill_device") as mnt:
        if not mnt:
            return
        fs = 4 << 20
        cases = [(["--rw=write", "--fill_device=1"], 0, "write"),
                 (["--rw=write", "--fill_fs=1", "--size=8m", "--fallocate=none"], 0, "write"),
                 (["--rw=write", "--fill_device=0", "--size=8m", "--fallocate=none"], 1, None),
                 (["--rw=read", "--fill_device=1"], 0, "read")]
        for args, want, dirn in cases:
            code, out, err = iojob(["--name=j", "--directory=" + mnt, "--bs=64k",
                                    "--output-format=json"] + args, d)
            c.check(code == want, "%s on a 4 MiB tmpfs: exit %d, not %d: %s" %
                    (args, code, want, err))
            if dirn and code == 0:
                done = job_json(out)[dirn]["io_bytes"]
                c.check(0 < done <= fs and fs - done < 64 * KiB * 2,
                        "%s: %d bytes, not the file system's %d" % (args, done, fs))
            for n in os.listdir(mnt):
                os.unlink(os.path.join(mnt, n))


def check_unlink_each_loop(c, d):
    """loops=3 with unlink_each_loop=1 deletes both files after each of the first two
    loops (the third's are kept, as fio's); a read job is refused before it starts."""
    for value, want in [("1", 4), ("0", 0)]:
        sub = os.path.join(d, "ul" + value)
        os.mkdir(sub)
        code, out, lines = traced(["--name=j", "--directory=.", "--nrfiles=2", "--size=64k",
                                   "--bs=4k", "--rw=write", "--loops=3",
                                   "--unlink_each_loop=" + value, "--output-format=json"],
                                  sub, "unlink,unlinkat")
        n = sum(1 for l in lines if "j.0." in l and l.rstrip().endswith("= 0"))
        c.check(code == 0 and n == want, "unlink_each_loop=%s: %d unlinks, not %d" %
                (value, n, want))
        c.check(code == 0 and job_json(out)["write"]["io_bytes"] == 3 * 64 * KiB and
                sorted(os.listdir(sub)) == ["j.0.0", "j.0.1"],
                "unlink_each_loop=%s: %s" % (value, sorted(os.listdir(sub))))
    # under openfiles=1 too: every file, not only the one open at the loop's end (iojob
    # deleted 1 of 4 between loops, as fio deletes all)
    sub = os.path.join(d, "ulo")
    os.mkdir(sub)
    code, _, lines = traced(["--name=j", "--directory=.", "--nrfiles=4", "--size=64k",
                             "--bs=4k", "--rw=write", "--loops=3", "--openfiles=1",
                             "--unlink_each_loop=1", "--output=/dev/null"],
                            sub, "unlink,unlinkat")
    gone = Counter(m.group(1) for l in lines if l.rstrip().endswith("= 0")
                   for m in [re.search(r'"(?:\./)?(j\.0\.\d)"', l)] if m)
    c.check(code == 0 and gone == Counter({"j.0.%d" % i: 2 for i in range(4)}),
            "unlink_each_loop=1 openfiles=1: each of 4 files deleted after loops 1 and 2: %s"
            % dict(gone))
    code, _, err = iojob(["--name=j", "--directory=" + d, "--size=64k", "--rw=read",
                          "--loops=2", "--unlink_each_loop=1"], d)
    c.check(code == 2 and "unlink_each_loop" in err, "unlink_each_loop with a read job: "
            "exit %d, %s" % (code, err))


def check_opendir(c, d):
    """opendir= uses every regular file under the tree (symbolic links not followed)."""
    tree = os.path.join(d, "tree")
    want = ["tree/a", "tree/sub/b", "tree/sub/deeper/c", "tree/z/d"]
    for i, name in enumerate(want):
        os.makedirs(os.path.dirname(os.path.join(d, name)), exist_ok=True)
        with open(os.path.join(d, name), "wb") as f:
            f.write(b"\1" * (i + 1) * 16 * KiB)
    os.symlink(os.path.join(d, "app"), os.path.join(tree, "link"))
    code, out, lines = traced(["--name=j", "--opendir=tree", "--rw=read", "--bs=4k",
                               "--output-format=json"], d, "openat")
    opened = sorted({m.group(1) for l in lines
                     for m in [re.search(r'"(tree/[^"]*)", O_RDONLY\|O_CLOEXEC\)', l)] if m})
    c.check(code == 0 and opened == want, "opendir: opened %s, not %s" % (opened, want))
    c.check(code == 0 and job_json(out)["read"]["io_bytes"] == 160 * KiB,
            "opendir: read %s bytes, not the files' 160 KiB" %
            (job_json(out)["read"]["io_bytes"] if code == 0 else code))
    os.mkdir(os.path.join(d, "empty"))
    code, _, err = iojob(["--name=j", "--opendir=empty", "--rw=read"], d)
    c.check(code == 2 and "no regular file" in err, "opendir of an empty directory: exit "
            "%d, %s" % (code, err))


# the job's reads (pread64) and pre_read's (read(), from the region's start, as fio's)
PRE_READ_OR_READ = r"(pread64\(\d+, .*, 4096, \d+\)|\bread\(\d+, .*, 4096\)) = 4096$"


def check_pre_read(c, d):
    """pre_read=1 reads the 64 KiB region once before the job's own 16 reads, and drops
    no cached pages (it clears invalidate)."""
    path = os.path.join(d, "pr")
    with open(path, "wb") as f:
        f.write(os.urandom(64 * KiB))
    for value, reads in [("1", 32), ("0", 16)]:
        code, _, lines = traced(["--name=j", "--filename=pr", "--size=64k", "--bs=4k",
                                 "--rw=randread", "--pre_read=" + value], d,
                                "pread64,read,fadvise64")
        n = sum(1 for l in lines if re.search(PRE_READ_OR_READ, l))
        dropped = any("DONTNEED" in l for l in lines)
        c.check(code == 0 and n == reads and dropped == (value == "0"),
                "pre_read=%s: %d reads of 4 KiB, not %d; pages dropped: %s" %
                (value, n, reads, dropped))
    # every file once when the job starts, as fio's, openfiles= or not: two files of
    # 64 KiB, read sequentially twice over (loops=2, a file closed and opened again at
    # each pass): 32 pre-reads and 64 reads (iojob pre-read each file at each open: 64)
    for n in (0, 1):
        for k in (0, 1):
            with open(os.path.join(d, "pf.0.%d" % k), "wb") as f:
                f.write(os.urandom(64 * KiB))
        opts = ["--openfiles=1"] if n else []
        code, _, lines = traced(["--name=pf", "--nrfiles=2", "--filesize=64k", "--bs=4k",
                                 "--rw=read", "--loops=2", "--pre_read=1",
                                 "--file_service_type=sequential"] + opts, d,
                                "pread64,read")
        got = sum(1 for l in lines if re.search(PRE_READ_OR_READ, l))
        c.check(code == 0 and got == 32 + 64, "pre_read over two files %s: %d reads of "
                "4 KiB, not 96" % (opts, got))


def check_sync_file_range(c, d):
    """sync_file_range=wait_before,write:4 syncs each run of 4 writes' range with those
    flags: 16 writes of 4 KiB, 4 syncs of 16 KiB end to end."""
    code, _, lines = traced(["--name=j", "--filename=sfr", "--size=64k", "--bs=4k",
                             "--rw=write", "--sync_file_range=wait_before,write:4"], d,
                            "sync_file_range")
    got = [(int(m.group(1)), int(m.group(2)), m.group(3)) for l in lines
           for m in [re.search(r"sync_file_range\(\d+, (\d+), (\d+), ([A-Z_|]+)\) = 0", l)]
           if m]
    flags = "SYNC_FILE_RANGE_WAIT_BEFORE|SYNC_FILE_RANGE_WRITE"
    want = [(i * 16 * KiB, 16 * KiB, flags) for i in range(4)]
    c.check(code == 0 and got == want, "sync_file_range: %s, not %s" % (got, want))
    code, _, lines = traced(["--name=j", "--filename=sfr", "--size=64k", "--bs=4k",
                             "--rw=write", "--sync_file_range=write"], d, "sync_file_range")
    n = sum(1 for l in lines if "SYNC_FILE_RANGE_WRITE) = 0" in l)
    c.check(code == 0 and n == 16, "sync_file_range=write: %d syncs, not one per write" % n)
    code, _, err = iojob(["--name=j", "--sync_file_range=flush:4", "--parse-only"], d)
    c.check(code == 2 and "wait_before" in err, "sync_file_range=flush:4: exit %d, %s" %
            (code, err))


def sync_model(writes, loops, fsync, fdatasync):
    """fio's fsync=/fdatasync= on a job that only writes, as (fsyncs, fdatasyncs): before
    the I/O after each N-th write of the job (fsync= first when both fall due), so not
    after the job's last write; a loop's last write at a multiple of N is synced again
    when the next loop begins."""
    def kind(k):
        if fsync and k % fsync == 0:
            return 0
        if fdatasync and k % fdatasync == 0:
            return 1
        return None
    n = [0, 0]
    total, per_loop = writes * loops, writes
    for k in range(1, total):
        if kind(k) is not None:
            n[kind(k)] += 1 + (k % per_loop == 0)
    return tuple(n)


def sync_counts(cmd, d):
    trace = os.path.join(d, "sync.strace")
    p = subprocess.run(["strace", "-f", "-qq", "-o", trace, "-e", "trace=fsync,fdatasync"] +
                       cmd, cwd=d, capture_output=True, text=True, timeout=120,
                       env=traced_env())
    with open(trace) as f:
        text = f.read()
    os.unlink(trace)
    return p.returncode, (len(re.findall(r"\bfsync\(", text)),
                          len(re.findall(r"\bfdatasync\(", text)))


def check_sync_intervals(c, d):
    """fsync=N and fdatasync=N count the job's writes, whichever files they went to, and
    sync before the next I/O: the counts of each call against fio's rule, and against
    fio 3.33 itself where it is installed."""
    fio = shutil.which("fio")
    cases = [(8, 1, 0, 2, 1), (8, 3, 0, 4, 1), (8, 2, 3, 0, 2), (8, 1, 2, 3, 1),
             (12, 1, 3, 0, 3), (8, 2, 4, 0, 1), (4, 1, 0, 1, 1)]
    for writes, loops, fs, fds, nrfiles in cases:
        args = ["--name=j", "--directory=" + d, "--rw=write", "--bs=4k",
                "--size=%dk" % (4 * writes), "--loops=%d" % loops, "--nrfiles=%d" % nrfiles,
                "--fsync=%d" % fs, "--fdatasync=%d" % fds, "--output=/dev/null"]
        want = sync_model(writes, loops, fs, fds)
        code, got = sync_counts([BIN] + args, d)
        what = "%d writes x %d loops over %d files, fsync=%d fdatasync=%d" % (
            writes, loops, nrfiles, fs, fds)
        c.check(code == 0 and got == want, "%s: (fsync, fdatasync) calls %s, not %s" %
                (what, got, want))
        if fio:
            code, got = sync_counts([fio] + args, d)
            c.check(code == 0 and got == want, "%s: fio 3.33 made %s, the model says %s" %
                    (what, got, want))


def check_loop_ends(c, d):
    """Each loop= loop ends as the job does (issue 28 item 6), as fio 3.33 runs it:
    end_fsync and fsync_on_close sync the files after every loop's writes (d53e42d: once
    at the job's end, and twice with both), and number_ios counts each loop's I/Os (fio:
    loops=3 number_ios=5 does 15, each loop going on where the last one stopped). fio's
    fsync_on_close also reopens and closes the files between loops, syncing them once more
    with nothing written: README, "How iojob differs"."""
    fio = shutil.which("fio")
    for extra, per_loop in ((["--end_fsync=1"], 1), (["--fsync_on_close=1"], 1),
                            (["--end_fsync=1", "--fsync_on_close=1"], 1),
                            (["--end_fsync=1", "--fsync=3"], 6)):
        for loops in (1, 3):
            args = ["--name=j", "--directory=" + d, "--rw=write", "--bs=4k", "--size=64k",
                    "--loops=%d" % loops, "--output=/dev/null"] + extra
            code, got = sync_counts([BIN] + args, d)
            c.check(code == 0 and got == (per_loop * loops, 0),
                    "%s loops=%d: %s fsyncs, want %d" % (extra, loops, got, per_loop * loops))
            if fio and "--fsync_on_close=1" not in extra:
                code, want = sync_counts([fio] + args, d)
                c.check(code == 0 and got == want, "%s loops=%d: fio 3.33 made %s, iojob %s"
                        % (extra, loops, want, got))
    code, _, lines = traced(["--name=n", "--directory=" + d, "--rw=write", "--bs=4k",
                             "--size=64k", "--loops=3", "--number_ios=5",
                             "--output=/dev/null"], d, "pwrite64")
    offsets = [int(m.group(1)) for m in
               (re.search(r"pwrite64\(\d+, .*, 4096, (\d+)\)", l) for l in lines) if m]
    c.check(code == 0 and offsets == [4096 * k for k in range(15)],
            "loops=3 number_ios=5: 5 writes a loop, each loop going on where the last "
            "stopped: %s" % offsets)



def check_end_syncfs(c, d):
    """end_syncfs (fio HEAD): when the writes end (each loop's), one syncfs for each file
    system the job wrote to, however many files it has there, and no fsync; a job on
    files of two file systems (the scratch directory's and /dev/shm's, where they differ)
    syncs both; a job that only reads syncs nothing."""
    def count(args):
        code, _, lines = traced(args + ["--output=/dev/null"], d, "syncfs,fsync")
        return (code, sum("syncfs(" in l for l in lines),
                sum(re.search(r"\bfsync\(", l) is not None for l in lines))
    base = ["--name=s", "--directory=" + d, "--bs=4k", "--size=64k", "--nrfiles=4",
            "--end_syncfs=1"]
    for loops in (1, 3):
        got = count(base + ["--rw=write", "--loops=%d" % loops])
        c.check(got == (0, loops, 0), "end_syncfs, 4 files, loops=%d: (exit, syncfs, "
                "fsync) %s" % (loops, got))
    got = count(base + ["--rw=read"])
    c.check(got == (0, 0, 0), "end_syncfs on a read job: %s" % (got,))
    shm = "/dev/shm"
    if os.path.isdir(shm) and os.stat(shm).st_dev != os.stat(d).st_dev:
        other = os.path.join(shm, "iojob-syncfs-%d" % os.getpid())
        try:
            got = count(["--name=s", "--filename=%s:%s" % (os.path.join(d, "s1"), other),
                         "--bs=4k", "--size=64k", "--rw=write", "--end_syncfs=1"])
        finally:
            if os.path.exists(other):
                os.unlink(other)
        c.check(got == (0, 2, 0), "end_syncfs over two file systems: %s" % (got,))

def check_fallocate_sizes(c, d):
    """fallocate= sizes a write job's new file as fio's does (issue 28 item 6): none and
    keep leave it to grow as it is written (d53e42d truncated it to full size whatever
    the mode), truncate and native size it at once; a read job lays it out whole."""
    for mode, want in (("none", 16 * KiB), ("keep", 16 * KiB), ("truncate", 64 * KiB),
                       ("native", 64 * KiB), ("posix", 64 * KiB)):
        path = os.path.join(d, "fa." + mode)
        code, _, err = iojob(["--name=f", "--filename=" + path, "--rw=write", "--bs=4k",
                              "--size=64k", "--number_ios=4", "--fallocate=" + mode,
                              "--output=/dev/null"], d)
        size = os.path.getsize(path) if os.path.exists(path) else -1
        c.check(code == 0 and size == want, "fallocate=%s, 4 writes of 4k: the file is %d "
                "bytes, want %d %s" % (mode, size, want, err.strip()))
        os.unlink(path) if os.path.exists(path) else None
    path = os.path.join(d, "coo")
    code, _, err = iojob(["--name=r", "--filename=" + path, "--rw=read", "--bs=4k",
                          "--size=64k", "--create_on_open=1", "--output-format=terse"], d)
    c.check(code == 0 and os.path.getsize(path) == 64 * KiB and "create_on_open" in err,
            "create_on_open=1 on a read job: laid out, with a note saying fio would not: "
            "%d %r" % (code, err))
    os.unlink(path)
    # read and written (xfstests' generic/299 verifiers): sized sparse, nothing laid out,
    # so that 3 GiB files on a 3 GiB file system claim no room before their writes
    code, _, err = iojob(["--name=v", "--filename=" + path, "--rw=randrw", "--bs=4k",
                          "--size=1g", "--number_ios=8", "--create_on_open=1",
                          "--fallocate=none", "--verify=crc32c", "--output-format=terse"], d)
    st = os.stat(path) if os.path.exists(path) else None
    c.check(code == 0 and st and st.st_size == 1 << 30 and st.st_blocks * 512 <= 1 << 20 and
            "made sparse" in err, "create_on_open=1 on a randrw job: 1 GiB sparse, %s "
            "blocks: %d %r" % (st and st.st_blocks, code, err))
    os.unlink(path)


def rw_hint(path):
    import fcntl
    import struct
    fd = os.open(path, os.O_RDONLY)
    try:
        return struct.unpack("Q", fcntl.fcntl(fd, 0x40b, bytes(8)))[0]	# F_GET_RW_HINT
    finally:
        os.close(fd)


def check_write_hint(c, d):
    """write_hint=long sets the file's hint (RWH_WRITE_LIFE_LONG, 4), read back, with
    direct=1 too (on the inode where the kernel has no hint of the open file); a file
    written without it keeps none (0)."""
    for name, args, want in [("wh_long", ["--write_hint=long"], 4), ("wh_none", [], 0),
                             ("wh_direct", ["--write_hint=medium", "--direct=1"], 3)]:
        code, _, err = iojob(["--name=j", "--filename=" + name, "--size=64k",
                              "--rw=write"] + args, d)
        try:
            got = rw_hint(os.path.join(d, name))
        except OSError as e:
            c.skip("write_hint: F_GET_RW_HINT: %s" % e)
            return
        c.check(code == 0 and got == want, "write_hint %s: hint %d, not %d (%s)" %
                (args, got, want, err))


def check_fadvise_noreuse(c, d):
    code, _, lines = traced(["--name=j", "--filename=pr", "--size=64k", "--rw=read",
                             "--fadvise_hint=noreuse"], d, "fadvise64")
    c.check(code == 0 and any("POSIX_FADV_NOREUSE" in l for l in lines),
            "fadvise_hint=noreuse: %s" % lines)


def check_sync_open_flags(c, d):
    """sync=sync and sync=dsync open the job's files O_SYNC and O_DSYNC when it reads or
    writes; a job that trims (trimwrite too) opens them without, and without O_DIRECT, as
    fio 3.33 does, with a note (the oracle's f07 and slice jobs 147, 173)."""
    path = os.path.join(d, "sf")
    with open(path, "wb") as f:
        f.truncate(64 * KiB)
    for rw, opt, flag in (("write", "--sync=dsync", "O_DSYNC"),
                          ("read", "--sync=sync", "O_SYNC"),
                          ("write", "--direct=1", "O_DIRECT"), ("trim", "--sync=dsync", None),
                          ("trimwrite", "--sync=dsync", None), ("trim", "--direct=1", None)):
        code, _, lines = traced(["--name=j", "--filename=" + path, "--rw=" + rw, "--bs=4k",
                                 "--size=64k", opt, "--output=/dev/null"], d,
                                "openat", path=path)
        opens = [l for l in lines if "openat(" in l and '"%s"' % path in l]
        got = [flag in l if flag else not re.search(r"O_DSYNC|O_SYNC|O_DIRECT", l)
               for l in opens]
        c.check(code == 0 and opens and all(got), "rw=%s %s: %s" % (rw, opt, opens))
    os.unlink(path)


def check_no_ops(c, d):
    """unique_filename does nothing outside fio's client/server, in fio as here: the same
    file name either way, and its help says so; write_barrier is refused, saying why."""
    for value in ["0", "1"]:
        sub = os.path.join(d, "uf" + value)
        os.mkdir(sub)
        code, _, err = iojob(["--name=j", "--directory=" + sub, "--size=64k", "--rw=write",
                              "--unique_filename=" + value], d)
        c.check(code == 0 and os.listdir(sub) == ["j.0.0"],
                "unique_filename=%s: %s %s" % (value, os.listdir(sub), err))
    code, out, _ = run(["--cmdhelp=unique_filename"])
    c.check(code == 0 and "does nothing" in out, "unique_filename's help: %s" % out)
    code, _, err = iojob(["--name=j", "--size=64k", "--write_barrier=8", "--parse-only"], d)
    c.check(code == 2 and "no engine acts on" in err, "write_barrier=8: exit %d, %s" %
            (code, err))
    code, _, err = iojob(["--name=j", "--size=64k", "--write_barrier=0", "--parse-only"], d)
    c.check(code == 0, "write_barrier=0: exit %d, %s" % (code, err))


def max_open(lines, prefix):
    """The most files under prefix open at once in a trace of openat and close, and the
    files opened."""
    fds, most, names = {}, 0, set()
    for l in lines:
        m = re.search(r'openat\(AT_FDCWD, "(%s[^"]*)", [^)]*\) = (\d+)$' % re.escape(prefix), l)
        if m:
            fds[m.group(2)] = m.group(1)
            names.add(m.group(1))
            most = max(most, len(fds))
            continue
        m = re.search(r"\bclose\((\d+)\)\s+= 0$", l)
        if m:
            fds.pop(m.group(1), None)
    return most, sorted(names)


def check_openfiles(c, d):
    """openfiles=2 over 6 files: never more than 2 of them open at once (6 without it),
    every file still gets its share, with a synchronous engine and at depth 8."""
    engines = [["--ioengine=psync"]]
    if engine_available("libaio"):
        engines.append(["--ioengine=libaio", "--iodepth=8", "--direct=1"])
    for eng in engines:
        for limit, want in [("2", 2), (None, 6)]:
            sub = os.path.join(d, "of%d" % len(os.listdir(d)))
            os.mkdir(sub)
            args = ["--name=j", "--directory=.", "--nrfiles=6", "--size=384k", "--bs=4k",
                    "--rw=randwrite", "--output-format=json"] + eng
            if limit:
                args.append("--openfiles=" + limit)
            code, out, lines = traced(args, sub, "openat,close")
            most, names = max_open(lines, "./j.0.")
            c.check(code == 0 and most == want and len(names) == 6 and
                    job_json(out)["write"]["io_bytes"] == 384 * KiB,
                    "openfiles=%s %s: %d open at once, not %d; opened %s" %
                    (limit, eng, most, want, names))
    # the last I/O of a file may wait in a batch (iodepth_batch_submit) with nothing in
    # flight, a thinktime holding the rest back: the next file still opens once it
    # completes (the job ended after the first file's 6 writes of 18)
    for eng in (["--ioengine=posixaio"], ["--ioengine=libaio"]):
        if eng[0] == "--ioengine=libaio" and not engine_available("libaio"):
            continue
        sub = os.path.join(d, "ofb%d" % len(os.listdir(d)))
        os.mkdir(sub)
        code, out, err = iojob(["--name=j", "--directory=.", "--nrfiles=3", "--size=72k",
                                "--bs=4k", "--rw=write", "--openfiles=1", "--iodepth=4",
                                "--iodepth_batch_submit=4", "--thinktime=100",
                                "--output-format=json"] + eng, sub)
        got = job_json(out)["write"]["total_ios"] if code == 0 else None
        c.check(got == 18, "openfiles=1 %s, batches of 4 and a thinktime: %s writes of "
                "18 (%s)" % (eng, got, err.strip()))
    # rw=rw over two files, one open at a time: the first file's pass ends when one of
    # its streams reaches the end (its reads or its writes, 128 blocks), whatever the
    # other has done, as fio's; then the second takes what is left of the 1 MiB (iojob
    # switched when both directions together had done 512 KiB: 64 and 64)
    sub = os.path.join(d, "ofrw")
    os.mkdir(sub)
    for n in range(2):
        with open(os.path.join(sub, "j.0.%d" % n), "wb") as f:
            f.write(os.urandom(512 * KiB))
    code, _, lines = traced(["--name=j", "--directory=.", "--nrfiles=2", "--size=1m",
                             "--bs=4k", "--rw=rw", "--openfiles=1", "--ioengine=psync",
                             "--output=/dev/null"], sub, "pread64,pwrite64",
                            fd_paths=True)
    seq = [(m.group(1), m.group(2)) for l in lines
           for m in [re.search(r"(pread64|pwrite64)\(\d+<[^>]*(j\.0\.\d)>", l)] if m]
    first = Counter(k for k, f in seq if f == "j.0.0")
    firsts = [i for i, (_, f) in enumerate(seq) if f == "j.0.0"]
    c.check(code == 0 and len(seq) == 256 and max(first.values(), default=0) == 128 and
            firsts == list(range(len(firsts))),
            "openfiles=1 rw=rw: the first file until a stream ends (128 of one direction), "
            "then the second: %s, %d in all" % (dict(first), len(seq)))
    # unlink=1 deletes every file, those openfiles= closed as they were done too, as fio
    # (d53e42d deleted only the one still open at the end; the oracle's f03)
    sub = os.path.join(d, "ofu")
    os.mkdir(sub)
    code, _, err = iojob(["--name=j", "--directory=.", "--nrfiles=4", "--size=64k",
                          "--rw=write", "--openfiles=1", "--unlink=1",
                          "--output=/dev/null"], sub)
    c.check(code == 0 and os.listdir(sub) == [], "openfiles=1 unlink=1: every file deleted: "
            "%d %s %s" % (code, os.listdir(sub), err))


def overlaps(lines):
    """From strace -f lines of pread64 and pwrite64, the most calls in the kernel at once
    and how many started while a write was in, or were writes that started beside any."""
    active, most, clashes = {}, 0, 0
    for l in lines:
        m = re.match(r"(\d+)\s+(<\.\.\. )?(pwrite64|pread64)", l)
        if not m:
            continue
        pid, kind = m.group(1), "w" if m.group(3) == "pwrite64" else "r"
        if m.group(2):
            active.pop(pid, None)
            continue
        others = list(active.values())
        clashes += bool(others) if kind == "w" else "w" in others
        most = max(most, len(others) + 1)
        if "<unfinished" in l:
            active[pid] = kind
    return most, clashes


def check_lockfile(c, d):
    """Four clones and another job on one file: lockfile=exclusive lets one I/O into the
    kernel at a time, readwrite lets reads share and no write beside anything; without a
    lock they overlap (strace -f shows a call still in the kernel when another starts)."""
    path = os.path.join(d, "lk")
    with open(path, "wb") as f:
        f.write(os.urandom(1 << 20))
    for mode in ["none", "exclusive", "readwrite"]:
        args = ["--name=a", "--filename=lk", "--size=1m", "--bs=4k", "--rw=randrw",
                "--numjobs=4", "--lockfile=" + mode, "--name=b", "--filename=lk",
                "--size=1m", "--bs=4k", "--rw=randread", "--lockfile=" + mode]
        code, _, lines = traced(args, d, "pread64,pwrite64", raw=True, path=path)
        most, clashes = overlaps(lines)
        if mode == "none":
            ok = most > 1 and clashes > 0
        elif mode == "exclusive":
            ok = most == 1
        else:
            ok = clashes == 0 and most > 1
        c.check(code == 0 and ok, "lockfile=%s: %d calls in the kernel at once, %d beside "
                "a write" % (mode, most, clashes))


def check_shared_format(c, d):
    """Clones whose filename_format has no $jobnum name one set of files: it is laid out
    once and opened once for all of them (2 files, 4 clones: 2 reads' opens, not 8), every
    clone reads all of it, and a note says that fio 3.33 gives the set to the first clone
    alone. With $jobnum, or a sysbench mode name, no note."""
    base = ["--name=s", "--ioengine=psync", "--numjobs=4", "--nrfiles=2", "--size=64k",
            "--output-format=json"]
    code, out, calls = traced(base + ["--filename_format=sf.$filenum", "--rw=read"], d,
                              "openat")
    opens = [l for l in calls if re.search(r'"sf\.\d"', l)]
    reads = [l for l in opens if "O_RDONLY" in l]
    ios = [j["read"]["total_ios"] for j in json.loads(out)["jobs"]] if code == 0 else []
    c.check(code == 0 and len(reads) == 2 and ios == [16] * 4,
            "4 clones on one set of 2 files: %d opens to read (%r), I/Os %r" %
            (len(reads), opens, ios))
    _, _, err = iojob(base + ["--filename_format=sf.$filenum", "--rw=read"], d)
    c.check("'sf.$filenum' gives the 4 clones the same files, which they share; fio 3.33 "
            "gives them to the first clone alone" in err, "the note: %r" % err)
    for extra in (["--filename_format=$jobname.$jobnum.$filenum", "--rw=read"],
                  ["--filename_format=sf.$filenum", "--rw=rndrd"]):
        _, _, err = iojob(base + extra, d)
        c.check("fio 3.33 gives them" not in err, "%s: no note: %r" % (extra, err))


def check_filetype(c, d):
    """filetype= (fio HEAD): a file of the type said runs; one of another type, or a
    device that is not there, is refused before anything is written (exit 2)."""
    path = os.path.join(d, "ft.dat")
    with open(path, "wb") as f:
        f.truncate(64 << 10)
    for t, code_want in (("block", 2), ("char", 2), ("file", 0)):
        code, _, err = run(["--name=ft", "--filename=ft.dat", "--size=64k", "--rw=write",
                            "--filetype=" + t, "--output=/dev/null"], cwd=d)
        c.check(code == code_want and (code == 0 or "'filetype'" in err),
                "filetype=%s on a file: exit %d %r" % (t, code, err))
        with open(path, "rb") as f:
            zeros = f.read() == bytes(64 << 10)
        c.check(zeros == (code_want != 0), "filetype=%s: the file %s" %
                (t, "written" if code_want == 0 else "untouched"))
    code, _, err = run(["--name=ft", "--filename=/dev/null", "--size=64k", "--rw=write",
                        "--filetype=char", "--output=/dev/null"], cwd=d)
    c.check(code == 0, "filetype=char on /dev/null: exit %d %r" % (code, err))
    code, _, err = run(["--name=ft", "--filename=none.dat", "--size=64k", "--rw=write",
                        "--filetype=block", "--output=/dev/null"], cwd=d)
    c.check(code == 2 and "does not exist" in err and
            not os.path.exists(os.path.join(d, "none.dat")),
            "filetype=block names a device that is not there: %d %r" % (code, err))


def main():
    c = Checks("opts_files")
    d = scratch_dir()
    try:
        check_filesize(c, d)
        check_allow_file_create(c, d)
        check_file_append(c, d)
        check_fill_device(c, d)
        check_write_hint(c, d)
        check_fallocate_sizes(c, d)
        check_no_ops(c, d)
        check_filetype(c, d)
        if not STRACE:
            c.skip("strace is not installed: the checks of system calls")
        else:
            check_create_fsync(c, d)
            check_create_serialize(c, d)
            check_unlink_each_loop(c, d)
            check_opendir(c, d)
            check_pre_read(c, d)
            check_sync_file_range(c, d)
            check_sync_intervals(c, d)
            check_sync_open_flags(c, d)
            check_loop_ends(c, d)
            check_end_syncfs(c, d)
            check_fadvise_noreuse(c, d)
            check_openfiles(c, d)
            check_lockfile(c, d)
            check_shared_format(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
