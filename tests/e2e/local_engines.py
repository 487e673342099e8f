#!/usr/bin/env python3
"""fio's local engines of issue 16 (vsync, pvsync, pvsync2, mmap, splice) and fio HEAD's
page_fault and atomic=1 (issue 31), seen from the
system calls they make: strace counts each engine's calls, their vectors, flags, mappings
and syncs, and the counts must be exactly those the JSON report's I/O counts imply. Where
fio is installed, the same small job under fio makes the same calls as often, and its
report has the same shape. Data moved is checked with verify=. Without strace the traced
checks are skipped."""
import json
import os
import re
import shutil
import subprocess

from common import BIN, Checks, engine_available, remove, run, scratch_dir

KiB = 1024
FIO = shutil.which("fio")


def traced_env():
    """LeakSanitizer cannot run under ptrace: an ASan build traced by strace leaves it off."""
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
    return env


def traced(d, prog, args, calls, only=None):
    """Run prog (BIN or fio) with args under strace for calls (on the file only, if given):
    (exit code, JSON document or None, the trace's lines of those calls, stderr)."""
    log = os.path.join(d, "trace")
    cmd = (["strace", "-f", "-qq", "-e", "trace=" + ",".join(calls), "-o", log] +
           (["-P", only] if only else []) + [prog, "--output-format=json"] + args)
    p = subprocess.run(cmd, cwd=d, capture_output=True, text=True, env=traced_env(),
                       timeout=120)
    doc = None
    if p.returncode == 0:
        out = p.stdout
        doc = json.loads(out[out.index("{"):])
    with open(log) as f:
        lines = [ln for ln in f if re.match(r"^\d+\s+(%s)\(" % "|".join(calls), ln)]
    return p.returncode, doc, lines, p.stderr


def calls_of(lines, name):
    return [ln for ln in lines if re.match(r"^\d+\s+%s\(" % name, ln)]


def ios(doc, d):
    return doc["jobs"][0][d]["total_ios"]


def job(path, engine, rw, size, bs, *extra):
    return ["--name=t", "--filename=" + path, "--ioengine=" + engine, "--rw=" + rw,
            "--size=%d" % size, "--bs=%d" % bs] + list(extra)


def run_ok(c, d, name, args, calls, prog=BIN, only=None):
    code, doc, lines, err = traced(d, prog, args, calls, only)
    c.check(code == 0, "%s: exit %d: %s" % (name, code, err.strip()[-400:]))
    return (doc, lines) if code == 0 else (None, None)


def like_fio(c, d, name, args, calls, mine, count, only=None):
    """fio runs the same job: count(its trace) must equal count(ours), the report keys too."""
    if not FIO:
        return
    doc, lines = run_ok(c, d, "fio " + name, args, calls, prog=FIO, only=only)
    if doc is None:
        return
    want, got = count(lines), count(mine[1])
    c.check(want == got, "%s: fio makes %r calls, iojob %r" % (name, want, got))
    fj, ij = doc["jobs"][0], mine[0]["jobs"][0]
    for key in ("read", "write"):
        missing = sorted(set(fj[key]) - set(ij[key]))
        c.check(not missing, "%s: %s keys fio has and iojob lacks: %s" % (name, key, missing))
    # a mixed job's split between reads and writes is drawn (each tool its own sequence):
    # the I/Os in all are the job's
    both = [sum(j[k]["total_ios"] for k in ("read", "write")) for j in (fj, ij)]
    c.check(both[0] == both[1], "%s: total_ios fio %d, iojob %d" % (name, both[0], both[1]))


def iovecs(line):
    return len(re.findall(r"iov_len=", line))


def check_vsync(c, d):
    """One readv a read at depth 1; 4 deep in batches of 4, one vector of 4 for 4 adjacent
    blocks, as fio; random blocks rarely follow on, and every vector's bytes add up."""
    path = os.path.join(d, "vsync")
    calls = ["readv", "writev"]
    mine = run_ok(c, d, "vsync write+verify", job(path, "vsync", "write", 256 * KiB, 4 * KiB,
                  "--iodepth=4", "--iodepth_batch=4", "--verify=crc32c"), calls)
    if mine[0]:
        c.check(ios(mine[0], "read") == 64 and len(calls_of(mine[1], "writev")) == 16 and
                len(calls_of(mine[1], "readv")) == 16 and
                all(iovecs(ln) == 4 for ln in mine[1]),
                "vsync write+verify: %d reads, %d writev and %d readv, want 64, 16 and 16 of "
                "4 iovecs" % (ios(mine[0], "read"), len(calls_of(mine[1], "writev")),
                              len(calls_of(mine[1], "readv"))))
    args = job(path, "vsync", "read", 256 * KiB, 4 * KiB)
    mine = run_ok(c, d, "vsync depth 1", args, calls)
    if mine[0]:
        c.check(len(mine[1]) == ios(mine[0], "read") == 64 and
                all(iovecs(ln) == 1 for ln in mine[1]),
                "vsync depth 1: %d readv for %d reads" % (len(mine[1]), ios(mine[0], "read")))
        like_fio(c, d, "vsync depth 1", args, calls, mine, len)
    args = job(path, "vsync", "read", 256 * KiB, 4 * KiB, "--iodepth=4", "--iodepth_batch=4")
    mine = run_ok(c, d, "vsync batches", args, calls)
    if mine[0]:
        like_fio(c, d, "vsync batches", args, calls, mine,
                 lambda lines: sorted(iovecs(ln) for ln in lines))
    mine = run_ok(c, d, "vsync random", job(path, "vsync", "randread", 256 * KiB, 4 * KiB,
                                            "--iodepth=4", "--iodepth_batch=4"), calls)
    if mine[0]:
        total = sum(iovecs(ln) for ln in mine[1])
        sizes_ok = all(int(ln.rsplit("=", 1)[1]) == 4096 * iovecs(ln) for ln in mine[1])
        c.check(total == 64 and sizes_ok and len(mine[1]) > 16,
                "vsync random: %d iovecs in %d calls (want 64, in more than 16)" %
                (total, len(mine[1])))


def check_pvsync(c, d):
    """pvsync: one preadv or pwritev of one vector per I/O, nothing else."""
    path = os.path.join(d, "pvsync")
    calls = ["preadv", "pwritev", "pread64", "pwrite64"]
    with open(path, "wb") as f:     # laid out already: the trace holds the job's I/O only
        f.write(b"\xa5" * 256 * KiB)
    args = job(path, "pvsync", "randrw", 256 * KiB, 4 * KiB)
    mine = run_ok(c, d, "pvsync randrw", args, calls, only=path)
    if mine[0]:
        r, w = ios(mine[0], "read"), ios(mine[0], "write")
        c.check(len(calls_of(mine[1], "preadv")) == r and
                len(calls_of(mine[1], "pwritev")) == w and r + w == 64 and
                not calls_of(mine[1], "pread64") and not calls_of(mine[1], "pwrite64"),
                "pvsync randrw: %d reads, %d writes, trace %d lines" % (r, w, len(mine[1])))
    args = job(path, "pvsync", "read", 256 * KiB, 4 * KiB)
    mine = run_ok(c, d, "pvsync read", args, calls, only=path)
    if mine[0]:
        like_fio(c, d, "pvsync read", args, calls, mine, len, only=path)


def flagged(lines, flag):
    return sum(1 for ln in lines if flag in ln)


def check_pvsync2(c, d):
    """pvsync2: one preadv2/pwritev2 per I/O, with the RWF_* flags its options ask for."""
    path = os.path.join(d, "pvsync2")
    calls = ["preadv2", "pwritev2"]
    base = job(path, "pvsync2", "randrw", 1024 * KiB, 4 * KiB)
    doc, lines = run_ok(c, d, "pvsync2", base, calls)
    if doc:
        n = ios(doc, "read") + ios(doc, "write")
        c.check(len(lines) == n == 256 and flagged(lines, "RWF_") == 0,
                "pvsync2: %d calls for %d I/Os, %d flagged" % (len(lines), n,
                                                              flagged(lines, "RWF_")))
        like_fio(c, d, "pvsync2", base, calls, (doc, lines), len)
    for opts, flag, want in ((["--hipri"], "RWF_HIPRI", 1.0),
                             (["--hipri", "--hipri_percentage=0"], "RWF_HIPRI", 0.0),
                             (["--uncached=1"], "0x80", 1.0),
                             (["--uncached=1", "--rw=write", "--verify=crc32c"], "0x80", 1.0),
                             (["--uncached=1", "--direct=1"], "0x80", 0.0)):
        name = "pvsync2 " + " ".join(opts)
        doc, lines = run_ok(c, d, name, base + opts, calls)
        if doc:
            n = ios(doc, "read") + ios(doc, "write")
            # uncached asks the file system first, with a read of one byte
            probe = 1 if "0x80" in flag and want else 0
            c.check(len(lines) == n + probe and flagged(lines, flag) == int(want * n) + probe,
                    "%s: %d of %d calls have %s, want %d" % (name, flagged(lines, flag),
                                                             len(lines), flag,
                                                             int(want * n) + probe))
    # buffered writes may refuse RWF_NOWAIT (EOPNOTSUPP): reads of cached blocks take it
    name = "pvsync2 nowait"
    with open(path, "rb") as f:     # into the page cache, after uncached's runs
        f.read()
    doc, lines = run_ok(c, d, name, job(path, "pvsync2", "randread", 1024 * KiB, 4 * KiB,
                                        "--nowait=1", "--invalidate=0"), calls)
    if doc:
        c.check(len(lines) == ios(doc, "read") == 256 == flagged(lines, "RWF_NOWAIT"),
                "%s: %d of %d calls have RWF_NOWAIT" % (name, flagged(lines, "RWF_NOWAIT"),
                                                       len(lines)))
    # a share drawn per I/O: 256 draws at 25% lie within 5 standard deviations (6.9)
    doc, lines = run_ok(c, d, "pvsync2 hipri 25%", base + ["--hipri", "--hipri_percentage=25"],
                        calls)
    if doc:
        got = flagged(lines, "RWF_HIPRI")
        c.check(abs(got - 64) <= 35, "pvsync2 hipri_percentage=25: %d of 256 flagged" % got)


def check_pvsync2_uncached_refused(c, d):
    """A file system without RWF_DONTCACHE (tmpfs): the engine does not start, and says why."""
    if not os.path.isdir("/dev/shm"):
        c.skip("pvsync2 uncached refusal: no /dev/shm")
        return
    path = "/dev/shm/iojob-uncached-%d" % os.getpid()
    try:
        p = subprocess.run([BIN, "--eta=never"] + job(path, "pvsync2", "read", 64 * KiB,
                                                      4 * KiB, "--uncached=1"),
                           cwd=d, capture_output=True, text=True, timeout=60)
    finally:
        if os.path.exists(path):
            os.unlink(path)
    c.check(p.returncode == 1 and "job 't': ioengine pvsync2 failed to start: Operation not "
            "supported (uncached: the kernel or the file system refuses RWF_DONTCACHE" in
            p.stderr and "IOPS=" not in p.stdout,
            "pvsync2 uncached on tmpfs: exit %d: %s" % (p.returncode, p.stderr.strip()))


def mapped(lines, length, offset=0):
    return [ln for ln in lines if re.match(r"^\d+\s+mmap\(NULL, %d, .*, -?\d+, %s\)" %
                                           (length, hex(offset) if offset else "0"), ln)]


def on_map(lines, length, name):
    """The calls of name (msync, madvise) on the job's mapping of length bytes, and what
    they were given after the address."""
    maps = mapped(lines, length)
    if not maps:
        return []
    start = int(maps[0].rsplit("= ", 1)[1], 16)
    out = []
    for ln in calls_of(lines, name):
        m = re.match(r"^\d+\s+%s\((0x[0-9a-f]+), (.*)\) = " % name, ln)
        if m and start <= int(m.group(1), 16) < start + length:
            out.append(m.group(2))
    return out


def check_mmap(c, d):
    """mmap: the job's region mapped once, advised by the pattern; msync for each fsync,
    and for each I/O with direct=1; thp maps privately, for huge pages; offset= maps
    from there and the data lands there."""
    path = os.path.join(d, "mmap")
    calls = ["mmap", "msync", "madvise"]
    size = 256 * KiB
    args = job(path, "mmap", "randwrite", size, 4 * KiB, "--fsync=4", "--verify=crc32c")
    doc, lines = run_ok(c, d, "mmap randwrite", args, calls)
    if doc:
        maps = mapped(lines, size)
        c.check(len(maps) == 1 and "PROT_READ|PROT_WRITE, MAP_SHARED" in maps[0],
                "mmap randwrite: mappings of the file %r" % maps)
        syncs = on_map(lines, size, "msync")
        # as fio, before the I/O after each 4th write: none after the last
        c.check(syncs == ["262144, MS_SYNC"] * (ios(doc, "write") // 4 - 1) and
                len(syncs) == 15,
                "mmap randwrite: msync %r for %d writes at fsync=4" % (syncs, ios(doc, "write")))
        c.check(on_map(lines, size, "madvise") == ["262144, MADV_RANDOM"] and
                ios(doc, "read") == 64,
                "mmap randwrite: advice %r, %d verify reads" % (on_map(lines, size, "madvise"),
                                                               ios(doc, "read")))
    doc, lines = run_ok(c, d, "mmap read", job(path, "mmap", "read", size, 4 * KiB), calls)
    if doc:
        maps = mapped(lines, size)
        c.check(len(maps) == 1 and "PROT_READ, MAP_SHARED" in maps[0] and
                on_map(lines, size, "madvise") == ["262144, MADV_SEQUENTIAL"],
                "mmap read: %r, advice %r" % (maps, on_map(lines, size, "madvise")))
    doc, lines = run_ok(c, d, "mmap no hint", job(path, "mmap", "read", size, 4 * KiB,
                                                  "--fadvise_hint=0"), calls)
    if doc:
        c.check(len(mapped(lines, size)) == 1 and not on_map(lines, size, "madvise"),
                "mmap fadvise_hint=0: advised anyway: %r" % on_map(lines, size, "madvise"))
    doc, lines = run_ok(c, d, "mmap direct", job(path, "mmap", "write", size, 4 * KiB,
                                                 "--direct=1"), calls)
    if doc:
        syncs, adv = on_map(lines, size, "msync"), on_map(lines, size, "madvise")
        c.check(syncs == ["4096, MS_SYNC"] * 64 and
                adv == ["262144, MADV_SEQUENTIAL"] + ["4096, MADV_DONTNEED"] * 64,
                "mmap direct=1: msync %r, madvise %r for 64 writes" % (syncs, adv))
    doc, lines = run_ok(c, d, "mmap thp", job(path, "mmap", "read", size, 4 * KiB, "--thp=1"),
                        calls)
    if doc:
        maps = mapped(lines, size)
        c.check(len(maps) == 1 and "MAP_PRIVATE" in maps[0] and
                on_map(lines, size, "madvise")[:1] == ["262144, MADV_HUGEPAGE"],
                "mmap thp=1: %r, advice %r" % (maps, on_map(lines, size, "madvise")))
    check_mmap_offset(c, d, calls)


def check_mmap_offset(c, d, calls):
    path = os.path.join(d, "mmap-offset")
    with open(path, "wb") as f:
        f.write(b"\0" * 512 * KiB)
    doc, lines = run_ok(c, d, "mmap offset", job(path, "mmap", "write", 128 * KiB, 4 * KiB,
                                                 "--offset=64k", "--buffer_pattern=0xab"),
                        calls)
    if doc:
        c.check(len(mapped(lines, 128 * KiB, 64 * KiB)) == 1,
                "mmap offset=64k: mappings %s" % calls_of(lines, "mmap"))
        with open(path, "rb") as f:
            data = f.read()
        c.check(data[:64 * KiB] == b"\0" * 64 * KiB and
                data[64 * KiB:192 * KiB] == b"\xab" * 128 * KiB and
                data[192 * KiB:] == b"\0" * 320 * KiB,
                "mmap offset=64k: the pattern is not exactly at [64k, 192k)")


def check_mmap_openfiles(c, d):
    """mmap with openfiles=1 over two files: each file is sized and mapped when the window
    opens it (d53e42d: "ioengine mmap failed to start: Bad file descriptor", sizing the
    files not yet open; the oracle's f17), reads and writes alike."""
    for rw in ("read", "randwrite"):
        sub = os.path.join(d, "mo-" + rw)
        os.mkdir(sub)
        p = subprocess.run([BIN, "--name=t", "--directory=" + sub, "--ioengine=mmap",
                            "--rw=" + rw, "--size=512k", "--bs=4k", "--nrfiles=2",
                            "--openfiles=1", "--output-format=json"], capture_output=True,
                           text=True, timeout=120)
        doc = json.loads(p.stdout) if p.returncode == 0 else None
        moved = doc and ios(doc, "read" if rw == "read" else "write")
        c.check(p.returncode == 0 and moved and
                sorted(os.path.getsize(os.path.join(sub, f)) for f in os.listdir(sub)) ==
                [256 * KiB] * 2, "mmap openfiles=1 rw=%s: exit %d %s" %
                (rw, p.returncode, p.stderr.strip()[-300:]))


def check_sysbench_mmap(c, d):
    """sysbench's --file-io-mode=mmap is ioengine=mmap with its mode names: rndwr's
    fsync-freq (fsync_every_ios) msyncs every file's mapping, as sysbench msyncs each file;
    seqwr's emptied files are sized for the mapping and then hold every block written."""
    sub = os.path.join(d, "sysbench")
    os.mkdir(sub)
    base = ["--name=t", "--directory=" + sub, "--nrfiles=4", "--size=1m", "--bs=4k",
            "--ioengine=mmap"]
    doc, lines = run_ok(c, d, "sysbench rndwr mmap", base + ["--rw=rndwr",
                                                              "--fsync_every_ios=16"],
                        ["mmap", "msync"])
    if doc:
        starts = [int(ln.rsplit("= ", 1)[1], 16) for ln in mapped(lines, 256 * KiB)]
        counts = [sum(1 for ln in calls_of(lines, "msync")
                      if int(re.search(r"msync\((0x[0-9a-f]+)", ln).group(1), 16) == a)
                  for a in starts]
        c.check(ios(doc, "write") == 256 and counts == [16] * 4,
                "sysbench rndwr mmap: %d writes, msyncs per mapping %r, want 16 each" %
                (ios(doc, "write"), counts))
    doc, _ = run_ok(c, d, "sysbench seqwr mmap", base + ["--rw=seqwr",
                                                         "--buffer_pattern=0x5a"], ["mmap"])
    if doc:
        names = sorted(os.listdir(sub))
        ok = len(names) == 4 and all(open(os.path.join(sub, n), "rb").read() ==
                                     b"\x5a" * 256 * KiB for n in names)
        c.check(ios(doc, "write") == 256 and ok,
                "sysbench seqwr mmap: %d writes, files %r hold the pattern: %s" %
                (ios(doc, "write"), names, ok))
    remove(sub)


def check_splice(c, d):
    """splice: per 64 KiB of each I/O, one splice and one vmsplice; as many splices as fio
    (whose first read tries vmsplice into a fresh mapping once); data verified."""
    path = os.path.join(d, "splice")
    calls = ["splice", "vmsplice"]
    for bs in (4 * KiB, 128 * KiB):
        args = job(path, "splice", "write", 1024 * KiB, bs, "--verify=crc32c")
        name = "splice bs=%d" % bs
        doc, lines = run_ok(c, d, name, args, calls)
        if not doc:
            continue
        per = max(1, bs // (64 * KiB))
        n = ios(doc, "write") + ios(doc, "read")
        c.check(len(calls_of(lines, "splice")) == len(calls_of(lines, "vmsplice")) == per * n
                and ios(doc, "read") == 1024 * KiB // bs,
                "%s: %d splice, %d vmsplice for %d I/Os" % (name, len(calls_of(lines, "splice")),
                                                            len(calls_of(lines, "vmsplice")), n))
        if bs == 128 * KiB:
            like_fio(c, d, name, job(path, "splice", "read", 1024 * KiB, bs), calls,
                     run_ok(c, d, name + " read", job(path, "splice", "read", 1024 * KiB, bs),
                            calls), lambda ls: len(calls_of(ls, "splice")))


def check_atomic(c, d):
    """atomic=1 (fio HEAD): every write carries RWF_ATOMIC (0x40) and no read does; where
    the file has no torn-write protection (tmpfs, a VM's disk) each write fails with
    EOPNOTSUPP, as in fio HEAD; an engine that cannot mark a write is refused."""
    path = os.path.join(d, "atomic")
    args = job(path, "pvsync2", "randrw", 64 * KiB, 4 * KiB, "--atomic=1")
    code, _, lines, err = traced(d, BIN, args, ["preadv2", "pwritev2"])
    writes, reads = calls_of(lines, "pwritev2"), calls_of(lines, "preadv2")
    flagged = re.compile(r", (0x40|RWF_ATOMIC)\b")
    c.check(writes and all(flagged.search(w) for w in writes) and
            not any(flagged.search(r) for r in reads),
            "pvsync2 atomic=1: writes %s, reads %s" % (writes[:2], reads[:2]))
    c.check(code == 0 or "Operation not supported" in err or "Invalid argument" in err,
            "pvsync2 atomic=1: exit %d: %s" % (code, err.strip()[-200:]))
    p = subprocess.run([BIN] + job(path, "psync", "write", 64 * KiB, 4 * KiB, "--atomic=1"),
                       cwd=d, capture_output=True, text=True, timeout=60)
    c.check(p.returncode == 2 and "cannot mark a write atomic" in p.stderr,
            "psync atomic=1: exit %d: %s" % (p.returncode, p.stderr.strip()))


def check_page_fault(c, d):
    """page_fault (fio HEAD's engine): each file is anonymous private memory mapped from 0
    to the end of the job's region, and nothing on disk is opened, made or written; what a
    job writes stays there for its verify pass to read back, and a job that only verifies
    reads pages never written (zeroes) and fails."""
    path = os.path.join(d, "page_fault")
    calls = ["mmap", "openat", "pwrite64", "pread64", "write", "read"]
    size = 256 * KiB
    args = job(path, "page_fault", "randwrite", size, 4 * KiB, "--verify=crc32c",
               "--verify_state_save=0")
    doc, lines = run_ok(c, d, "page_fault verify", args, calls)
    if doc:
        maps = mapped(lines, size)
        c.check(len(maps) == 1 and "PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS" in maps[0]
                and not os.path.exists(path) and
                not [ln for ln in lines if path in ln],
                "page_fault: mappings %r, the file touched: %r" %
                (maps, [ln for ln in lines if path in ln]))
        c.check(ios(doc, "write") == 64 and ios(doc, "read") == 64 and
                doc["jobs"][0]["error"] == 0,
                "page_fault: %d writes, %d verify reads, error %d" %
                (ios(doc, "write"), ios(doc, "read"), doc["jobs"][0]["error"]))
    p = subprocess.run([BIN] + job(path, "page_fault", "read", size, 4 * KiB,
                                   "--verify=crc32c", "--verify_only=1",
                                   "--verify_state_save=0"),
                       cwd=d, capture_output=True, text=True, timeout=120)
    c.check(p.returncode != 0 and "verify" in p.stdout + p.stderr,
            "page_fault verify_only: memory never written verified: exit %d: %s" %
            (p.returncode, (p.stdout + p.stderr).strip()[-300:]))
    args = ["--name=pf", "--directory=" + d, "--ioengine=page_fault", "--rw=randrw",
            "--size=128k", "--bs=4k", "--nrfiles=2", "--offset=64k", "--fsync=2"]
    doc, lines = run_ok(c, d, "page_fault two files", args, calls)
    if doc:
        # size= is shared by the two files: each mapped to the end of its 64 KiB region
        maps = [ln for ln in calls_of(lines, "mmap") if "MAP_ANONYMOUS|MAP_NORESERVE" in ln]
        c.check(len(mapped(lines, 128 * KiB)) == 2 and
                ios(doc, "read") + ios(doc, "write") == 32 and
                not [n for n in os.listdir(d) if n.startswith("pf.")],
                "page_fault nrfiles=2 offset=64k: mappings %s, %d I/Os, files %s" %
                (maps, ios(doc, "read") + ios(doc, "write"), os.listdir(d)))

def check_cpp_null(c, d):
    """fio's cpp_null (its C++ build of null, examples/cpp_null.fio) is the null engine:
    the same I/Os, no system call on any file."""
    counts = {}
    for eng in ("null", "cpp_null"):
        code, out, err = run(["--name=n", "--ioengine=" + eng, "--size=16M", "--bs=4k",
                              "--rw=randread", "--norandommap", "--output-format=json"], cwd=d)
        c.check(code == 0, "%s: exit %d %r" % (eng, code, err))
        counts[eng] = json.loads(out)["jobs"][0]["read"]["total_ios"] if not code else None
    c.check(counts["null"] == counts["cpp_null"] == 4096,
            "cpp_null does null's 4096 reads: %s" % counts)
    p = subprocess.run(["strace", "-f", "-e", "trace=openat,pread64", BIN, "--name=n",
                        "--ioengine=cpp_null", "--size=1M", "--filename=cpp.dat",
                        "--output=/dev/null"], cwd=d, capture_output=True, text=True,
                       env=traced_env())
    c.check(p.returncode == 0 and "cpp.dat" not in p.stderr, "cpp_null opens no file")


def main():
    c = Checks("local_engines")
    if not shutil.which("strace"):
        c.skip("no strace: the engines' system calls cannot be read back")
        c.finish()
    d = scratch_dir()
    try:
        for name, check in (("vsync", check_vsync), ("pvsync", check_pvsync),
                            ("pvsync2", check_pvsync2),
                            ("pvsync2", check_pvsync2_uncached_refused),
                            ("mmap", check_mmap), ("mmap", check_mmap_openfiles),
                            ("mmap", check_sysbench_mmap),
                            ("splice", check_splice), ("page_fault", check_page_fault),
                            ("pvsync2", check_atomic), ("cpp_null", check_cpp_null)):
            if engine_available(name):
                check(c, d)
            else:
                c.skip("%s: not in this build" % name)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
