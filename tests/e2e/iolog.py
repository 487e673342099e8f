#!/usr/bin/env python3
"""I/O record and replay (write_iolog, read_iolog and the replay options), exactly: the
I/Os a replay issues are read back with strace (pread64, pwrite64, fallocate, fsync and
fdatasync on the data files, in order) and compared with the log's lines, with a model of
replay_scale, replay_align, replay_skip and replay_redirect, and with fio 3.33's replay of
the same log where fio is installed: a log fio wrote replays in iojob, iojob's in fio.
blktraces are written here from the kernel's struct blk_io_trace (either byte order, with
payloads, notify and completion records), replayed in both, and merged by
merge_blktrace_file as a model of the HOWTO's merge merges them. Bad logs fail with the
log's name and line, exit 2, and nothing written. The replay's timing is in
tests/bench/timing.py: the suite holds no timing."""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

from common import BIN, Checks, is_asan_build, run, traced_env

FIO = shutil.which("fio")
STRACE = shutil.which("strace")
CALLS = "pread64,pwrite64,fallocate,fsync,fdatasync"
IO_RE = re.compile(r"^(?:\d+ +)?(pread64|pwrite64|fallocate|fsync|fdatasync|fadvise64)"
                   r"\(\d+<([^>]+)>"
                   r"(?:, (.*))?\) += (-?\d+)")


def have_fio():
    if not FIO:
        return False
    out = subprocess.run([FIO, "--version"], capture_output=True, text=True).stdout.strip()
    return out == "fio-3.33"


def strace_ios(cmd, d, files, stdin=None, invalidates=False):
    """The I/Os cmd issues on the paths in files: [(kind, path, offset, length)] in order,
    kind read, write, trim, sync or datasync (and with invalidates, "drop" for each
    POSIX_FADV_DONTNEED, offset and length 0); None when it fails."""
    out = os.path.join(d, "strace.out")
    calls = CALLS + (",fadvise64" if invalidates else "")
    p = subprocess.run([STRACE, "-f", "-qq", "-y", "-s", "0", "-e", "trace=" + calls,
                        "-o", out] + cmd, cwd=d, capture_output=True, text=True,
                       input=stdin, env=traced_env(), timeout=120)
    if p.returncode != 0:
        print("command failed: %s: %s" % (" ".join(cmd), p.stderr.strip()[-500:]))
        return None
    ios = []
    with open(out) as f:
        for line in f:
            m = IO_RE.match(line)
            if not m or os.path.realpath(m.group(2)) not in files:
                continue
            call, path, args = m.group(1), os.path.realpath(m.group(2)), m.group(3)
            if call in ("pread64", "pwrite64"):
                n, off = args.split(", ")[-2:]
                ios.append(("read" if call == "pread64" else "write", path, int(off), int(n)))
            elif call == "fadvise64":
                if args.endswith("POSIX_FADV_DONTNEED"):
                    ios.append(("drop", path, 0, 0))
            elif call == "fallocate":
                _, off, n = args.split(", ")
                ios.append(("trim", path, int(off), int(n)))
            else:
                ios.append(("sync" if call == "fsync" else "datasync", path, 0, 0))
    return ios


def log_ios(path, version=3):
    """The I/O lines of an iolog: [(kind, file, offset, length)], syncs with 0, 0."""
    ios = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if line.startswith("fio version"):
                continue
            if version == 3:
                w = w[1:]
            if len(w) == 4 and w[1] != "wait":
                off, n = (0, 0) if w[1] in ("sync", "datasync") else (int(w[2]), int(w[3]))
                ios.append((w[1], os.path.realpath(w[0]), off, n))
    return ios


def iojob(*args):
    return [BIN, "--ioengine=psync"] + list(args)


def fio(*args):
    return [FIO, "--ioengine=psync"] + list(args)


def make_file(path, size):
    with open(path, "wb") as f:
        f.write(os.urandom(size))


def write_log(path, lines, version=3):
    with open(path, "w") as f:
        f.write("fio version %d iolog\n" % version)
        f.write("".join(l + "\n" for l in lines))


def check_record_and_replay(c, d, fio_ok):
    """iojob's log holds exactly the I/Os its run issued; its replay, in iojob and in fio,
    issues exactly those again; fio's log replays in iojob as in fio."""
    data = os.path.join(d, "rec.dat")
    make_file(data, 256 << 10)
    log = os.path.join(d, "iojob.log")
    ran = strace_ios(iojob("--name=rec", "--filename=" + data, "--rw=randrw", "--bs=4k",
                           "--size=256k", "--fsync=7", "--write_iolog=" + log), d, {data})
    logged = log_ios(log)
    writes = sum(1 for x in logged if x[0] == "write")
    c.check(len(logged) - writes // 7 == 64 and sum(1 for x in logged if x[0] == "sync") ==
            writes // 7, "write_iolog: %d lines for 64 I/Os and a sync every 7 writes" %
            len(logged))
    c.check(ran == logged, "write_iolog: the log's lines are the I/Os the run issued, in "
            "order")
    with open(log) as f:
        lines = f.read().splitlines()
    c.check(lines[0] == "fio version 3 iolog" and lines[1].endswith(data + " add") and
            lines[2].endswith(data + " open") and lines[-1].endswith(data + " close"),
            "write_iolog: fio's version line, add and open first, close last: %r" %
            (lines[:3] + lines[-1:]))
    rep = strace_ios(iojob("--name=rep", "--read_iolog=" + log), d, {data})
    c.check(rep == ran, "read_iolog of iojob's log issues its %d I/Os in order" % len(ran or []))
    # libaio's I/O is not in strace's reach: its counts are, in the report
    code, out, err = run(["--name=rep", "--read_iolog=" + log, "--output-format=json",
                          "--ioengine=libaio", "--iodepth=8", "--replay_no_stall=1"])
    j = json.loads(out)["jobs"][0] if code == 0 else {}
    reads = sum(1 for x in logged if x[0] == "read")
    c.check(code == 0 and j["read"]["total_ios"] == reads and
            j["write"]["total_ios"] == 64 - reads and j["sync"]["total_ios"] ==
            sum(1 for x in logged if x[0] == "sync"),
            "read_iolog at iodepth=8 (libaio): the report counts the log's reads, writes and "
            "syncs: %s" % err)
    if not fio_ok:
        c.skip("fio 3.33 is not installed: logs not passed between fio and iojob")
        return
    rep = strace_ios(fio("--name=rep", "--read_iolog=" + log), d, {data})
    c.check(rep == ran, "fio 3.33 replays iojob's log as iojob does")
    flog = os.path.join(d, "fio.log")
    fran = strace_ios(fio("--name=rec", "--filename=" + data, "--rw=randrw", "--bs=8k",
                          "--size=256k", "--write_iolog=" + flog), d, {data})
    flogged = log_ios(flog)
    c.check(fran == flogged and len(fran) == 32, "fio's own log holds its 32 I/Os")
    rep = strace_ios(iojob("--name=rep", "--read_iolog=" + flog), d, {data})
    frep = strace_ios(fio("--name=rep", "--read_iolog=" + flog), d, {data})
    c.check(rep == frep == fran, "a log fio 3.33 wrote replays in iojob as in fio")


def check_clone_logs(c, d):
    """read_iolog=a:b with numjobs=3: clone N replays log N modulo 2, as fio's clones."""
    a, b = os.path.join(d, "ca.dat"), os.path.join(d, "cb.dat")
    make_file(a, 64 << 10)
    logs = [os.path.join(d, "ca.log"), os.path.join(d, "cb.log")]
    write_log(logs[0], ["0 %s add" % a] + ["%d %s read %d 4096" % (i, a, i * 4096)
                                           for i in range(1, 4)])
    write_log(logs[1], ["0 %s add" % b] + ["%d %s write %d 8192" % (i, b, i * 8192)
                                           for i in range(1, 6)])
    code, out, err = run(["--name=cl", "--read_iolog=" + ":".join(logs), "--numjobs=3",
                          "--replay_no_stall=1", "--output-format=json"])
    got = [(j["read"]["total_ios"], j["write"]["total_ios"]) for j in
           json.loads(out)["jobs"]] if code == 0 else err.strip()
    c.check(got == [(3, 0), (0, 5), (3, 0)], "numjobs=3 over two logs: the clones replay "
            "the first, the second, the first: %s" % (got,))


def check_reopen(c, d, fio_ok):
    """A log that closes a file and opens it again (fio's loops=2 writes one): fio drops
    the file's cached pages at each open (invalidate=1), and so does the replay, there."""
    data = os.path.join(d, "reopen.dat")
    make_file(data, 16 << 10)
    lines = ["0 %s add" % data, "1 %s open" % data]
    for loop in range(2):
        lines += ["%d %s read %d 4096" % (10 + loop * 10 + i, data, i * 4096) for i in range(4)]
        lines.append("%d %s close" % (19 + loop * 10, data))
        if not loop:
            lines.append("20 %s open" % data)
    log = os.path.join(d, "reopen.log")
    write_log(log, lines)
    reads = [("read", data, i * 4096, 4096) for i in range(4)]
    want = [("drop", data, 0, 0)] + reads + [("drop", data, 0, 0)] + reads
    rep = strace_ios(iojob("--name=ro", "--read_iolog=" + log), d, {data}, invalidates=True)
    c.check(rep == want, "an open after a close drops the file's cache before the next "
            "reads: %s" % [x[0] for x in rep or []])
    rep = strace_ios(iojob("--name=ro", "--read_iolog=" + log, "--invalidate=0"), d, {data},
                     invalidates=True)
    c.check(rep == reads + reads, "with invalidate=0 nothing is dropped")
    if fio_ok:
        frep = strace_ios(fio("--name=ro", "--read_iolog=" + log), d, {data},
                          invalidates=True)
        c.check(frep == want, "fio 3.33 drops it at the same places: %s" %
                [x[0] for x in frep or []])


def check_v2_and_actions(c, d, fio_ok):
    """A version 2 log: file actions, syncs, datasyncs, trims, waits, a second file."""
    a, b = os.path.join(d, "v2a.dat"), os.path.join(d, "v2b.dat")
    make_file(a, 64 << 10)
    log = os.path.join(d, "v2.log")
    write_log(log, ["%s add" % a, "%s add" % b, "%s open" % a, "%s open" % b,
                    "%s read 4096 4096" % a, "%s wait 100 0" % a, "%s write 0 8192" % b,
                    "%s sync 0 0" % b, "%s write 8192 512" % a, "%s datasync 0 0" % a,
                    "%s trim 16384 4096" % a, "%s read 0 8192" % b, "%s close" % a,
                    "%s close" % b], version=2)
    want = [x for x in log_ios(log, 2)]
    rep = strace_ios(iojob("--name=v2", "--read_iolog=" + log), d, {a, b})
    c.check(rep == want, "a version 2 log replays its reads, writes, syncs, datasyncs and "
            "trims on its two files in order: %s" % rep)
    if fio_ok:
        frep = strace_ios(fio("--name=v2", "--read_iolog=" + log), d, {a, b})
        c.check(frep == [x for x in want if x[0] != "trim"],
                "fio 3.33 replays the same but for the trim it drops: %s" % frep)


def check_offsets(c, d, fio_ok):
    """replay_scale, replay_align, replay_skip and replay_redirect, against a model."""
    data, other = os.path.join(d, "off.dat"), os.path.join(d, "redir.dat")
    make_file(data, 1 << 20)
    make_file(other, 1 << 20)
    offs = [0, 12288, 40960 + 512, 131072 + 1000, 520000, 999424]
    lines = ["0 %s add" % data, "1 %s open" % data]
    for i, off in enumerate(offs):
        lines.append("%d %s %s %d 4096" % (i + 2, data, "read" if i % 2 else "write", off))
    log = os.path.join(d, "off.log")
    write_log(log, lines)
    for scale, align in ((2, 4096), (3, 0), (1, 65536), (0, 512)):
        want = [("read" if i % 2 else "write", data,
                 (off // scale if scale else off) & ~(align - 1 if align else 0), 4096)
                for i, off in enumerate(offs)]
        args = ["--name=o", "--read_iolog=" + log, "--replay_scale=%d" % scale,
                "--replay_align=%d" % align]
        rep = strace_ios(iojob(*args), d, {data})
        c.check(rep == want, "replay_scale=%d replay_align=%d: offsets %s" %
                (scale, align, [x[2] for x in rep or []]))
        if fio_ok and align:	# fio takes no replay_align=0 (not a power of 2)
            c.check(strace_ios(fio(*args), d, {data}) == want,
                    "fio 3.33 gives the same offsets (scale %d, align %d)" % (scale, align))
    for skip, keep in (("write", ("read",)), ("read", ("write",)), ("read,write", ())):
        want = [("read" if i % 2 else "write", data, off, 4096) for i, off in enumerate(offs)]
        want = [x for x in want if x[0] in keep]
        if not keep:
            code, _, err = run(["--name=s", "--read_iolog=" + log, "--replay_skip=" + skip])
            c.check(code == 2 and "no I/O to replay" in err,
                    "replay_skip=%s leaves nothing: exit %d, %s" % (skip, code, err.strip()))
            continue
        rep = strace_ios(iojob("--name=s", "--read_iolog=" + log, "--replay_skip=" + skip),
                         d, {data})
        c.check(rep == want, "replay_skip=%s leaves exactly the %ss" % (skip, keep[0]))
    ghost = os.path.join(d, "never", "there")
    write_log(os.path.join(d, "redir.log"), ["0 %s add" % ghost, "0 %s add" % data,
                                             "0 %s open" % ghost, "0 %s open" % data,
                                             "1 %s write 8192 4096" % ghost,
                                             "2 %s read 4096 4096" % data])
    args = ["--name=r", "--read_iolog=" + os.path.join(d, "redir.log"),
            "--replay_redirect=" + other]
    rep = strace_ios(iojob(*args), d, {data, other, ghost})
    c.check(rep == [("write", other, 8192, 4096), ("read", other, 4096, 4096)],
            "replay_redirect sends both files' I/O to the one file: %s" % rep)
    c.check(not os.path.exists(os.path.dirname(ghost)), "replay_redirect: the logged "
            "files are never made")
    if fio_ok:
        c.check(strace_ios(fio(*args), d, {data, other, ghost}) == rep,
                "fio 3.33 redirects the same")


def check_chunked_and_stdin(c, d):
    """read_iolog_chunked over more entries than a chunk holds, and a log on stdin."""
    data = os.path.join(d, "chunk.dat")
    make_file(data, 1 << 20)
    lines = ["0 %s add" % data, "0 %s open" % data]
    for i in range(10000):
        lines.append("%d %s %s %d 512" % (i, data, "write" if i % 3 == 0 else "read",
                                          (i * 7919 % 2048) * 512))
    log = os.path.join(d, "chunk.log")
    write_log(log, lines)
    want = log_ios(log)
    rep = strace_ios(iojob("--name=c", "--read_iolog=" + log, "--read_iolog_chunked=1",
                           "--replay_no_stall=1"), d, {data})
    c.check(rep == want, "read_iolog_chunked replays all 10000 entries in order "
            "(%d issued)" % len(rep or []))
    # clones read their chunks side by side (a line split on one thread must not be
    # another's: strtok's shared state once broke it)
    code, out, err = run(["--name=c", "--read_iolog=" + log, "--read_iolog_chunked=1",
                          "--replay_no_stall=1", "--numjobs=4", "--output-format=json"])
    got = [(j["read"]["total_ios"], j["write"]["total_ios"]) for j in
           json.loads(out)["jobs"]] if code == 0 else err.strip()
    reads = sum(1 for x in want if x[0] == "read")
    c.check(got == [(reads, len(want) - reads)] * 4, "numjobs=4 read_iolog_chunked: each "
            "clone replays the 10000 entries: %s" % (got,))
    with open(log) as f:
        text = f.read()
    rep = strace_ios(iojob("--name=c", "--read_iolog=-", "--replay_no_stall=1"), d, {data},
                     stdin=text)
    c.check(rep == want, "read_iolog=- replays the log piped to it")


def max_rss_kb(args, d):
    """The peak resident memory of iojob run with args, in KiB (from a child of its own,
    so that no earlier run counts), or None when it failed."""
    code = ("import resource, subprocess, sys\n"
            "p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
            "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    p = subprocess.run([sys.executable, "-c", code, BIN] + args, cwd=d, capture_output=True,
                       text=True, timeout=300)
    rc, kb = p.stdout.split()
    return int(kb) if rc == "0" else None


def check_chunked_memory(c, d):
    """read_iolog_chunked holds a chunk of the log, not the log: 600,000 entries (19 MB of
    them) replayed whole take that much more memory, in chunks a few MB in all."""
    if is_asan_build():
        c.skip("read_iolog_chunked's memory: not measured under ASan, whose shadow and "
               "quarantine swamp it")
        return
    data = os.path.join(d, "big.dat")
    make_file(data, 64 << 10)
    log = os.path.join(d, "big.log")
    with open(log, "w") as f:
        f.write("fio version 3 iolog\n0 %s add\n" % data)
        f.write("".join("%d %s read %d 512\n" % (i, data, i % 128 * 512)
                        for i in range(600000)))
    args = ["--name=b", "--ioengine=psync", "--read_iolog=" + log, "--replay_no_stall=1"]
    whole = max_rss_kb(args, d)
    chunked = max_rss_kb(args + ["--read_iolog_chunked=1"], d)
    # both peaks hold the forked interpreter's pages from before the exec: the difference
    # is what counts, at least the 18.3 MiB of entries the whole log keeps
    c.check(whole and chunked and whole - chunked > 18 << 10,
            "read_iolog_chunked: peak memory %s KiB, %s KiB with the whole log kept" %
            (chunked, whole))
    os.unlink(log)


# The kernel's blktrace_api.h: what the tests write.
BT_MAGIC = 0x65617407
TC_READ, TC_WRITE, TC_FLUSH, TC_QUEUE, TC_COMPLETE, TC_NOTIFY, TC_DISCARD = \
    1, 2, 4, 1 << 4, 1 << 7, 1 << 10, 1 << 13
TA_QUEUE, TA_BACKMERGE, TA_COMPLETE = 1, 2, 8


def bt_record(t, sector, nbytes, ta, tcs, dev, pdu=b"", order="<", seq=0):
    action = ta | (tcs << 16)
    return struct.pack(order + "IIQQIIIIIHH", BT_MAGIC, seq, t, sector, nbytes, action, 42,
                       dev, 0, 0, len(pdu)) + pdu


def bt_trace(ios, dev, order="<"):
    """A trace of ios, (time ns, kind, sector, bytes): each queued, the odd ones with a
    payload; a notify record first; a back merge, and completions in pairs (depth 2)."""
    out = [bt_record(0, 0, 0, 0, TC_NOTIFY, dev, b"fio-test\0", order)]
    tc = {"read": TC_READ, "write": TC_WRITE, "trim": TC_WRITE | TC_DISCARD, "sync": TC_FLUSH}
    for i, (t, kind, sector, n) in enumerate(ios):
        out.append(bt_record(t, sector, n, TA_QUEUE, tc[kind] | TC_QUEUE, dev,
                             b"pdu" * (i % 2), order, i))
        if i % 2:
            out.append(bt_record(t + 10, sector, n, TA_COMPLETE, tc[kind] | TC_COMPLETE, dev,
                                 b"", order, i))
    return b"".join(out)


def bt_parse(blob):
    """The records of a trace: [(time, sector, bytes, action, pdu_len)]."""
    recs, i = [], 0
    while i < len(blob):
        r = struct.unpack("<IIQQIIIIIHH", blob[i:i + 48])
        recs.append((r[2], r[3], r[4], r[5], r[10]))
        i += 48 + r[10]
    return recs


def check_blktrace(c, d, fio_ok):
    """A blktrace replays its queued reads, writes, flushes and discards, from either
    byte order, with the depth it had; the same in fio."""
    data = os.path.join(d, "bt.dat")
    make_file(data, 1 << 20)
    ios = [(1000, "read", 0, 4096), (2000, "write", 16, 8192), (2500, "sync", 0, 0),
           (3000, "read", 64, 512), (4000, "trim", 128, 4096), (5000, "write", 8, 4096)]
    want = [(k, data, s * 512, n) for _, k, s, n in ios]
    for order in ("<", ">"):
        trace = os.path.join(d, "t%s.bin" % ("le" if order == "<" else "be"))
        with open(trace, "wb") as f:
            f.write(bt_trace(ios, (7 << 20) | 99, order))
        args = ["--name=bt", "--read_iolog=" + trace, "--replay_redirect=" + data]
        rep = strace_ios(iojob(*args), d, {data})
        c.check(rep == want, "blktrace (%s-endian) replays its queued I/Os: %s" %
                ("little" if order == "<" else "big", rep))
        rep = strace_ios(iojob(*args + ["--read_iolog_chunked=1"]), d, {data})
        c.check(rep == want, "blktrace (%s-endian) read in chunks: the same" %
                ("little" if order == "<" else "big"))
        if fio_ok and order == "<":
            # fio 3.33 trims a regular file with BLKDISCARD, which fails (ENOTTY)
            c.check(strace_ios(fio(*args + ["--replay_skip=trim"]), d, {data}) ==
                    [x for x in want if x[0] != "trim"],
                    "fio 3.33 replays the trace the same (but for the trim)")
    for skip, kinds in (("write,trim", ("read", "sync")), ("sync,trim", ("read", "write"))):
        rep = strace_ios(iojob("--name=bt", "--read_iolog=" + os.path.join(d, "tle.bin"),
                               "--replay_redirect=" + data, "--replay_skip=" + skip), d, {data})
        c.check(rep == [x for x in want if x[0] in kinds],
                "blktrace with replay_skip=%s: %s" % (skip, rep))
        if fio_ok:
            c.check(strace_ios(fio("--name=bt", "--read_iolog=" + os.path.join(d, "tle.bin"),
                                   "--replay_redirect=" + data, "--replay_skip=" + skip), d,
                               {data}) == rep, "fio 3.33 skips the same (%s)" % skip)
    # two queued before their completion: fio's probe gives depth 2, the header says it
    code, out, err = run(["--name=bt", "--read_iolog=" + os.path.join(d, "tle.bin"),
                          "--replay_redirect=" + data, "--ioengine=libaio", "--replay_skip=trim"])
    m = re.search(r"ioengine=libaio, iodepth=(\d+)", out)
    c.check(code == 0 and m and m.group(1) == "2", "a blktrace's probed depth is the job's: "
            "%s %s" % (m and m.group(1), err.strip()))
    if fio_ok:
        p = subprocess.run(fio("--name=bt", "--read_iolog=" + os.path.join(d, "tle.bin"),
                               "--replay_redirect=" + data, "--ioengine=libaio",
                               "--replay_skip=trim"),
                           capture_output=True, text=True, cwd=d)
        # fio's header is printed before the probe: its latency line has the depth
        fm = re.search(r"latency +: target=.*, depth=(\d+)", p.stdout)
        c.check(fm and m and fm.group(1) == m.group(1), "fio 3.33 probes the same depth")
    code, _, err = run(["--name=bt", "--read_iolog=" + os.path.join(d, "tle.bin")])
    c.check(code == 2 and "tle.bin: job 'bt': record 2: no block device in /dev has the "
            "trace's device number 7:99" in err, "a trace device not in /dev: %s" % err)


def check_blktrace_device(c, d, fio_ok):
    """Without replay_redirect a trace's I/O goes to the block device of its number, found
    in /dev: a loop device over a file here (root and losetup, else this skips)."""
    if os.geteuid() != 0 or not shutil.which("losetup"):
        c.skip("blktrace device lookup: needs root and losetup")
        return
    img = os.path.join(d, "loop.img")
    make_file(img, 1 << 20)
    p = subprocess.run(["losetup", "-f", "--show", img], capture_output=True, text=True)
    if p.returncode != 0:
        c.skip("blktrace device lookup: losetup: " + p.stderr.strip())
        return
    loop = p.stdout.strip()
    try:
        rdev = os.stat(loop).st_rdev
        trace = os.path.join(d, "loop.bin")
        with open(trace, "wb") as f:
            f.write(bt_trace([(100, "read", 8, 4096), (200, "read", 0, 512)],
                             os.major(rdev) << 20 | os.minor(rdev)))
        want = [("read", loop, 4096, 4096), ("read", loop, 0, 512)]
        rep = strace_ios(iojob("--name=dev", "--read_iolog=" + trace), d, {loop})
        c.check(rep == want, "a trace of %d:%d replays on %s: %s" %
                (os.major(rdev), os.minor(rdev), loop, rep))
        if fio_ok:
            c.check(strace_ios(fio("--name=dev", "--read_iolog=" + trace), d, {loop}) == want,
                    "fio 3.33 finds the same device")
    finally:
        subprocess.run(["losetup", "-d", loop])


def model_merge(traces, scalars, iters):
    """The HOWTO's merge: each trace's queued reads, writes and discards, scaled by its
    percentage, repeated iters times (each pass after the last record's time), by time."""
    events = []
    for i, (recs, scalar, n) in enumerate(zip(traces, scalars, iters)):
        length = recs[-1][0]
        for it in range(n):
            for k, r in enumerate(recs):
                if r[3] & 0xffff == TA_QUEUE and (r[3] >> 16) & (TC_READ | TC_WRITE |
                                                                  TC_DISCARD):
                    events.append(((r[0] + it * length) * scalar // 100, i, it, k, r))
    events.sort(key=lambda e: e[:4])
    return [(e[0], e[4][1], e[4][2], e[4][3], 0) for e in events]


def check_merge(c, d, fio_ok):
    data = os.path.join(d, "merge.dat")
    make_file(data, 1 << 20)
    a = bt_trace([(1000, "read", 0, 4096), (3000, "write", 8, 4096), (9000, "read", 16, 4096)],
                 (8 << 20) | 1)
    b = bt_trace([(2000, "write", 64, 8192), (4000, "trim", 80, 4096), (5000, "read", 96, 512)],
                 (8 << 20) | 2)
    paths = [os.path.join(d, "ma.bin"), os.path.join(d, "mb.bin")]
    for p, blob in zip(paths, (a, b)):
        with open(p, "wb") as f:
            f.write(blob)
    merged = os.path.join(d, "merged.bin")
    for scalars, iters in (("100:100", "1:1"), ("50:100", "2:1"), ("200:30", "1:3")):
        args = ["--name=m", "--read_iolog=" + ":".join(paths), "--merge_blktrace_file=" + merged,
                "--merge_blktrace_scalars=" + scalars, "--merge_blktrace_iters=" + iters,
                "--replay_redirect=" + data, "--replay_no_stall=1"]
        rep = strace_ios(iojob(*args), d, {data})
        with open(merged, "rb") as f:
            got = bt_parse(f.read())
        want = model_merge([bt_parse(a), bt_parse(b)], [int(x) for x in scalars.split(":")],
                           [int(x) for x in iters.split(":")])
        c.check(got == want, "merge_blktrace_file (scalars %s, iters %s): %d records, as the "
                "HOWTO's merge makes them" % (scalars, iters, len(got)))
        kinds = {TC_READ: "read", TC_WRITE: "write", TC_WRITE | TC_DISCARD: "trim"}
        c.check(rep == [(kinds[(r[3] >> 16) & (TC_READ | TC_WRITE | TC_DISCARD)], data,
                         r[1] * 512, r[2]) for r in want],
                "the merged trace is replayed (scalars %s, iters %s)" % (scalars, iters))
        os.unlink(merged)
        none = strace_ios(iojob("--merge-blktrace-only", *args), d, {data})
        with open(merged, "rb") as f:
            c.check(none == [] and bt_parse(f.read()) == want,
                    "--merge-blktrace-only writes the merge and issues no I/O")
        if fio_ok:
            c.check(strace_ios(fio("--name=m", "--read_iolog=" + merged, "--replay_skip=trim",
                                   "--replay_redirect=" + data), d, {data}) ==
                    [x for x in rep or [] if x[0] != "trim"],
                    "fio 3.33 replays iojob's merged trace the same (its own merge reads no "
                    "record)")
    check_merge_fails_whole(c, d, paths[0], merged, data)


def check_merge_fails_whole(c, d, good, merged, data):
    """A trace cut short midway: exit 2, and the file there before is left as it was (the
    merge is written beside it and renamed over it once whole), with no part left over."""
    cut = os.path.join(d, "mcut.bin")
    with open(good, "rb") as f:
        blob = f.read()
    with open(cut, "wb") as f:
        f.write(blob + blob[:20])
    with open(merged, "wb") as f:
        f.write(b"an earlier merge")
    code, _, err = run(["--name=m", "--read_iolog=%s:%s" % (good, cut),
                        "--merge_blktrace_file=" + merged, "--replay_redirect=" + data], cwd=d)
    with open(merged, "rb") as f:
        kept = f.read()
    left = [n for n in os.listdir(d) if n.startswith("merged.bin.")]
    where = "'%s': record %d: cut short (20 of 48 bytes)" % (cut, len(blob) // 48 + 1)
    c.check(code == 2 and where in err and kept == b"an earlier merge" and not left,
            "a merge that fails midway keeps the earlier file (%r) and leaves no part (%r): "
            "exit %d, %r" % (kept[:20], left, code, err.strip()))
    os.unlink(merged)


def check_bad_logs(c, d):
    """Bad logs and options: the log's name and line, exit 2, nothing written."""
    target = os.path.join(d, "untouched.dat")
    t = target
    cases = [
        ("fio version 4 iolog\n", 1, "not an iolog"),
        ("fio version 3 iolog\n0 %s add\n1 %s write 0 4096\nx %s read 0 1\n" % (t, t, t), 4,
         "is not a timestamp"),
        ("fio version 3 iolog\n0 %s add\n1 %s write 0 4096\n2 %s rite 0 4096\n" % (t, t, t), 4,
         "unknown action 'rite'"),
        ("fio version 2 iolog\n%s add\n%s write 0 4096 9\n" % (t, t), 3, "too many fields"),
        ("fio version 3 iolog\n0 %s write 0 4096\n" % t, 2, "has I/O before a line adds it"),
        ("fio version 3 iolog\n0 %s add\n1 %s wait 10 0\n" % (t, t), 3, "no wait action"),
        ("fio version 2 iolog\n%s add\n%s open\n%s write 0 4096\n%s close\n/x/y/z add\n"
         "/x/y/z read 0 512\n" % (t, t, t, t), 6, "'/x/y/z' does not exist, and the log "
         "only reads it"),
    ]
    for i, (text, line, what) in enumerate(cases):
        log = os.path.join(d, "bad%d.log" % i)
        with open(log, "w") as f:
            f.write(text)
        code, _, err = run(["--name=bad", "--read_iolog=" + log])
        c.check(code == 2 and ("%s:%d: job 'bad': " % (log, line)) in err and what in err,
                "bad log %d: exit %d, %r" % (i, code, err.strip()))
        c.check(not os.path.exists(target), "bad log %d: nothing is written" % i)
    make_file(target, 8192)
    log = os.path.join(d, "short.log")
    write_log(log, ["0 %s add" % t, "1 %s read 0 4096" % t, "2 %s read 8192 4096" % t])
    code, _, err = run(["--name=bad", "--read_iolog=" + log])
    c.check(code == 2 and "short.log:4: job 'bad': the log reads '%s' up to byte 12288, past "
            "its end (8192 bytes)" % t in err, "a log reading past the end: %r" % err.strip())
    code, _, err = run(["--name=w", "--filename=" + target, "--size=8k",
                        "--write_iolog=/nonexistent/dir/w.log"])
    c.check(code == 2 and "option 'write_iolog': cannot write logs in '/nonexistent/dir'" in
            err, "write_iolog in a missing directory: exit %d, %r" % (code, err.strip()))
    code, _, err = run(["--name=w", "--filename=" + target, "--size=8k",
                        "--write_iolog=/dev/full"])
    c.check(code == 1 and "write_iolog '/dev/full': No space left on device" in err,
            "write_iolog that cannot be written fails the job: exit %d, %r" % (code, err.strip()))
    rlog = os.path.join(d, "reads.log")
    write_log(rlog, ["0 %s add" % t, "1 %s read 4096 4096" % t])
    code, _, err = run(["--readonly", "--name=ro", "--read_iolog=" + rlog])
    c.check(code == 0, "--readonly replays a log of reads: %s" % err.strip())
    wlog = os.path.join(d, "writes.log")
    write_log(wlog, ["0 %s add" % t, "1 %s write 0 4096" % t])
    code, _, err = run(["--readonly", "--name=ro", "--read_iolog=" + wlog])
    c.check(code == 2 and "option 'read_iolog': the log writes or trims, and --readonly "
            "forbids" in err, "--readonly refuses a log that writes: %r" % err.strip())
    for args, opt in ((["--replay_scale=2"], "replay_scale"),
                      (["--read_iolog=" + log, "--replay_align=3000"], "replay_align"),
                      (["--read_iolog=" + log, "--replay_skip=reads"], "replay_skip"),
                      (["--read_iolog=a:b", "--merge_blktrace_file=m",
                        "--merge_blktrace_iters=1:2:3"], "merge_blktrace_iters")):
        code, _, err = run(["--name=o", "--size=1m"] + args, cwd=d)
        c.check(code == 2 and "option '%s'" % opt in err,
                "%s: exit %d, %r" % (" ".join(args), code, err.strip()))


# Options fio 3.33 lets a replay set and leaves to the log (measured: the log's I/Os on the
# log's files, once, no sync of their own): iojob runs them too, with a note at each.
LET_PASS = [(["--filename=other.dat"], "filename"), (["--loops=2"], "loops"),
            (["--time_based", "--runtime=1"], "time_based"), (["--number_ios=2"], "number_ios"),
            (["--fsync=1"], "fsync"), (["--fdatasync=1"], "fdatasync"),
            (["--openfiles=1"], "openfiles"), (["--write_iolog=again.log"], "write_iolog"),
            (["--opendir=emptydir"], "opendir"), (["--unlink_each_loop=1"], "unlink_each_loop")]


def size_calls(cmd, d, data):
    """The fallocate and ftruncate calls cmd makes on data, their arguments after the
    descriptor, in order."""
    out = os.path.join(d, "size_calls.out")
    subprocess.run([STRACE, "-f", "-qq", "-y", "-o", out, "-e", "trace=fallocate,ftruncate"] +
                   cmd, cwd=d, capture_output=True, env=traced_env(), timeout=120)
    rx = re.compile(r"^(?:\d+ +)?(fallocate|ftruncate)\(\d+<([^>]+)>, (.*)\) += 0")
    with open(out) as f:
        return [(m.group(1), m.group(3)) for m in map(rx.match, f)
                if m and os.path.realpath(m.group(2)) == os.path.realpath(data)]


def check_let_pass(c, d, fio_ok):
    """What the log decides, set anyway: the replay is the log's, and a note says so."""
    data = os.path.join(d, "lp.dat")
    make_file(data, 64 << 10)
    log = os.path.join(d, "lp.log")
    write_log(log, ["0 %s add" % data, "1 %s open" % data, "2 %s write 0 4096" % data,
                    "3 %s read 8192 4096" % data, "4 %s write 16384 8192" % data,
                    "5 %s close" % data])
    want = log_ios(log)
    wlog = os.path.join(d, "lpw.log")
    write_log(wlog, ["0 %s add" % data, "0 %s open" % data, "1 %s write 0 4096" % data,
                     "2 %s write 40960 8192" % data, "3 %s write 8192 4096" % data])
    os.makedirs(os.path.join(d, "emptydir"), exist_ok=True)
    for args, opt in LET_PASS:
        note = os.path.join(d, "note.txt")
        ran = strace_ios(iojob("--name=lp", "--read_iolog=" + log, "--output=" + note) +
                         args, d, {data, os.path.join(d, "other.dat")})
        c.check(ran == want, "read_iolog with %s: the log's I/Os, once: %s" % (opt, ran))
        code, _, err = run(["--name=lp", "--read_iolog=" + log, "--output=/dev/null"] + args,
                           cwd=d)
        c.check(code == 0 and "option '%s': with read_iolog: " % opt in err,
                "read_iolog with %s: runs, with a note: %d %r" % (opt, code, err.strip()))
        if fio_ok:
            fran = strace_ios(fio("--name=lp", "--read_iolog=" + log, "--output=/dev/null") +
                              args, d, {data, os.path.join(d, "other.dat")})
            c.check(fran == want, "fio 3.33 with %s replays the same: %s" % (opt, fran))
    nlog = os.path.join(d, "null.log")
    write_log(nlog, [l.replace(data, os.path.join(d, "nofile.dat")) for l in
                     ["0 %s add" % data, "1 %s write 0 4096" % data,
                      "2 %s write 1048576 8192" % data]])
    code, out, err = run(["--name=n", "--ioengine=null", "--read_iolog=" + nlog,
                          "--output-format=json"], cwd=d)
    w = json.loads(out)["jobs"][0]["write"] if code == 0 else {}
    c.check(code == 0 and w.get("total_ios") == 2 and w.get("io_bytes") == 12288 and
            not os.path.exists(os.path.join(d, "nofile.dat")),
            "the null engine replays a log, no size= needed, no file made, as fio: %d %s %r" %
            (code, w, err.strip()))
    if fio_ok:
        for eng in ("falloc", "ftruncate"):
            got = []
            for tool in (iojob, fio):
                make_file(data, 64 << 10)
                got.append((size_calls(tool("--name=e", "--ioengine=" + eng,
                                            "--read_iolog=" + wlog, "--output=/dev/null"),
                                       d, data), os.path.getsize(data)))
            c.check(got[0][0] and got[0] == got[1],
                    "ioengine=%s replays a log's writes as fio's: %s" % (eng, got))
    c.check(not os.path.exists(os.path.join(d, "other.dat")) and
            not os.path.exists(os.path.join(d, "again.log")),
            "neither filename= nor write_iolog= made a file")


def check_verify(c, d, fio_ok):
    """verify= reads back each write of the log after it, whatever its size (fio verifies a
    replay too; fio 3.33 fails its own header check on mixed sizes, so no comparison)."""
    data = os.path.join(d, "vr.dat")
    log = os.path.join(d, "vr.log")
    writes = [(0, 8192), (16384, 12288), (40960, 4096), (8192, 512), (65536, 4096)]
    write_log(log, ["0 %s add" % data, "1 %s open" % data] +
              ["%d %s write %d %d" % (i + 2, data, o, n) for i, (o, n) in enumerate(writes)] +
              ["9 %s close" % data])
    ran = strace_ios(iojob("--name=vr", "--read_iolog=" + log, "--verify=crc32c"), d, {data})
    rp = os.path.realpath(data)
    c.check(ran is not None and ran[:5] == [("write", rp, o, n) for o, n in writes] and
            sorted(ran[5:]) == sorted(("read", rp, o, n) for o, n in writes),
            "verify: every replayed write read back whole: %s" % ran)
    with open(data, "r+b") as f:
        f.seek(16384 + 4096)
        f.write(b"\xff" * 16)
    code, _, err = run(["--name=vr", "--read_iolog=" + log, "--verify=crc32c",
                        "--verify_only"], cwd=d)
    c.check(code == 1 and "verify failed in '%s' at offset 20480" % data in err,
            "verify_only over the replay finds a corrupted chunk: %d %r" % (code, err.strip()))


def check_appended(c, d, fio_ok):
    """numjobs=2 on one write_iolog: both jobs' logs, appended, as fio writes them."""
    data = os.path.join(d, "app.dat")
    make_file(data, 64 << 10)
    log = os.path.join(d, "app.log")
    code, _, err = run(["--name=a", "--filename=" + data, "--size=64k", "--numjobs=2",
                        "--write_iolog=" + log])
    with open(log) as f:
        lines = f.read().splitlines()
    c.check(code == 0 and lines.count("fio version 3 iolog") == 2 and
            sum(l.endswith(" add") for l in lines) == 2 and len(lines) == 2 * (1 + 3 + 16),
            "numjobs=2: two logs appended to the one file: %s" % err.strip())
    rep = strace_ios(iojob("--name=r", "--read_iolog=" + log), d, {data})
    c.check(rep is not None and len(rep) == 32, "the appended log replays both jobs' I/Os")
    # clones replay side by side, each the whole log (chunked: each reads it itself)
    for extra in ([], ["--read_iolog_chunked=1"]):
        code, out, err = run(["--name=r", "--read_iolog=" + log, "--numjobs=3",
                              "--replay_no_stall=1", "--output-format=json"] + extra)
        ios = [j["read"]["total_ios"] for j in json.loads(out)["jobs"]] if code == 0 else []
        c.check(ios == [32, 32, 32], "numjobs=3 %s: each clone replays the log's 32 reads: "
                "%s %s" % (" ".join(extra), ios, err.strip()))
    if fio_ok:
        c.check(strace_ios(fio("--name=r", "--read_iolog=" + log), d, {data}) == rep,
                "fio 3.33 replays the appended log the same")


def main():
    c = Checks("iolog")
    if not STRACE:
        c.skip("no strace: the replayed I/Os cannot be read back (apt-get install strace)")
        c.finish()
    fio_ok = have_fio()
    with tempfile.TemporaryDirectory(prefix="iojob-iolog-") as d:
        check_record_and_replay(c, d, fio_ok)
        check_v2_and_actions(c, d, fio_ok)
        check_reopen(c, d, fio_ok)
        check_clone_logs(c, d)
        check_offsets(c, d, fio_ok)
        check_chunked_and_stdin(c, d)
        check_chunked_memory(c, d)
        check_blktrace(c, d, fio_ok)
        check_blktrace_device(c, d, fio_ok)
        check_merge(c, d, fio_ok)
        check_bad_logs(c, d)
        check_let_pass(c, d, fio_ok)
        check_verify(c, d, fio_ok)
        check_appended(c, d, fio_ok)
    c.finish()


if __name__ == "__main__":
    main()
