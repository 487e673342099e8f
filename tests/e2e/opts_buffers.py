#!/usr/bin/env python3
"""Buffers and data content, checked by their effects: the bytes buffer_pattern's forms
write (encoded here on their own), the ratio zstd gets on buffer_compress_percentage's
data and the zero tail of every buffer_compress_chunk, the share of repeated blocks
(hashed) for dedupe_percentage in both dedupe_modes and across jobs with dedupe_global,
bsrange lengths off the minimum's multiples with bs_unaligned, what backs the buffers of a
running job (its shm segment, its mappings, VmLck for lockmem), iomem_align's offset seen
by O_DIRECT, and the exit-2 refusals: huge pages that are not there, cudamalloc."""
import hashlib
import math
import os
import re
import shutil
import signal
import subprocess

from common import BIN, Checks, PipeReader, is_asan_build, remove, run, scratch_dir

MiB = 1 << 20
BS = 4096
WAIT = 60		# the longest wait for a running job's status line


def write_file(c, d, what, args, name="f"):
    """Run one sequential writer of name in d; its bytes, or None when it failed."""
    path = os.path.join(d, name)
    if os.path.exists(path):
        os.unlink(path)
    code, out, err = run(["--name=j", "--filename=" + name, "--rw=write", "--bs=%d" % BS]
                         + args, cwd=d)
    c.check(code == 0, "%s: exit %d: %s" % (what, code, err[-300:]))
    if code:
        return None
    with open(path, "rb") as f:
        return f.read()


def blocks(data, bs=BS):
    return [data[i:i + bs] for i in range(0, len(data), bs)]


# --- buffer_pattern --------------------------------------------------------------------------

def le_int(v):
    """A decimal pattern number's bytes: least significant first, as many as it needs."""
    u = v & 0xffffffff
    out = bytes([u & 0xff])
    u >>= 8
    while u:
        out += bytes([u & 0xff])
        u >>= 8
    return out


def check_patterns(c, d):
    with open(os.path.join(d, "pf"), "wb") as f:
        f.write(b"XYZ\n")
    cases = [
        ('0xdeadface"abc"-12', bytes.fromhex("deadface") + b"abc" + le_int(-12)),
        ("0xabc", bytes.fromhex("0abc")),		# an odd count starts with one digit
        ("0xff0x14", bytes.fromhex("ff14")),		# two hex numbers, back to back
        ("255", le_int(255)), ("256", le_int(256)), ("0", b"\0"),
        ('-100xab"1"', le_int(-10) + b"\xab1"),		# a decimal ends where 0x begins
        ("\"ab\"'pf'7", b"ab" + b"XYZ\n" + le_int(7)),	# 'file': its bytes
    ]
    for pat, want in cases:
        data = write_file(c, d, "buffer_pattern=" + pat, ["--size=64k", "--buffer_pattern=" + pat])
        if data is None:
            continue
        block = (want * (BS // len(want) + 1))[:BS]	# each buffer starts the pattern afresh
        bad = [i for i, b in enumerate(blocks(data)) if b != block]
        c.check(not bad, "buffer_pattern=%s: blocks %s are not %s..." %
                (pat, bad[:4], block[:16].hex()))
    for pat in ['"open', "'missing-file'", "0x", "12abc", "0x" + "ab" * 513, '""']:
        code, _, err = run(["--name=j", "--filename=f", "--size=64k", "--buffer_pattern=" + pat],
                           cwd=d)
        c.check(code == 2 and "option 'buffer_pattern'" in err and "is not a pattern" in err,
                "buffer_pattern=%s refused with exit 2: %d %s" % (pat, code, err[-200:]))


def check_pattern_survives_reads(c, d):
    """A job that reads refills its pattern at each write, as fio: a read into the buffer
    must not be what the next write stores."""
    path = os.path.join(d, "rw")
    with open(path, "wb") as f:
        f.write(b"\x55" * MiB)
    code, _, err = run(["--name=j", "--filename=rw", "--size=1m", "--bs=4k", "--rw=randrw",
                        "--buffer_pattern=0xa1b2", "--write_lat_log=rw", "--log_offset=1"],
                       cwd=d)
    c.check(code == 0, "randrw with a pattern: exit %d: %s" % (code, err[-300:]))
    with open(path, "rb") as f:
        data = f.read()
    with open(os.path.join(d, "rw_lat.1.log")) as f:
        writes = {int(ln.split(",")[4]) for ln in f if ln.split(",")[2].strip() == "1"}
    bad = [o for o in writes if data[o:o + BS] != bytes.fromhex("a1b2") * (BS // 2)]
    c.check(writes and not bad, "randrw: %d written blocks, %d without the pattern" %
            (len(writes), len(bad)))


# --- buffer_compress_percentage, buffer_compress_chunk -------------------------------------------

def zstd_size(data):
    p = subprocess.run(["zstd", "-3", "-q", "-c"], input=data, capture_output=True, check=True)
    return len(p.stdout)


def check_compress(c, d):
    size = 8 * MiB
    have_zstd = shutil.which("zstd") is not None
    if not have_zstd:
        c.skip("zstd is not installed (tests/deps.sh test): compress ratios unchecked")
    for pct, chunk in [(25, 512), (50, 512), (75, 512), (50, 4096), (90, 1024)]:
        what = "buffer_compress_percentage=%d buffer_compress_chunk=%d" % (pct, chunk)
        data = write_file(c, d, what, ["--size=%d" % size,
                                       "--buffer_compress_percentage=%d" % pct,
                                       "--buffer_compress_chunk=%d" % chunk])
        if data is None:
            continue
        keep = chunk * (100 - pct) // 100	# random bytes at the start of each chunk
        chunks = [data[i:i + chunk] for i in range(0, len(data), chunk)]
        zero_tail = sum(1 for ch in chunks if ch[keep:] == bytes(chunk - keep))
        random_head = sum(1 for ch in chunks if ch[keep - 8:keep] != bytes(8))
        c.check(zero_tail == len(chunks) and random_head == len(chunks),
                "%s: of %d chunks, %d end in %d zeros and %d end their random part "
                "with something else" % (what, len(chunks), zero_tail, chunk - keep,
                                         random_head))
        c.check(len(set(chunks)) == len(chunks), "%s: every chunk is new data: %d of %d" %
                (what, len(set(chunks)), len(chunks)))
        if not have_zstd:
            continue
        # random bytes do not compress; each zero run costs zstd a few bytes to encode
        want = size * (100 - pct) // 100
        got = zstd_size(data)
        c.check(want * 0.995 <= got <= want * 1.01 + 8 * len(chunks) + 4096,
                "%s: zstd makes %d bytes of %d, want %d plus 1%% and 8 per chunk (%.1f%% "
                "compressible, asked %d%%)" % (what, got, size, want,
                                               100 - 100.0 * got / size, pct))
    data = write_file(c, d, "buffer_compress_percentage=100",
                      ["--size=1m", "--buffer_compress_percentage=100"])
    c.check(data is not None and data == bytes(len(data)),
            "buffer_compress_percentage=100 writes zeros")
    data = write_file(c, d, "compress with a pattern", ["--size=1m", "--buffer_pattern=0xee",
                                                       "--buffer_compress_percentage=50"])
    c.check(data is not None and all(data[i + 256:i + 512] == b"\xee" * 256
                                     for i in range(0, len(data), 512)),
            "buffer_compress_percentage=50 with buffer_pattern: the compressible half of "
            "each chunk holds the pattern")


# --- dedupe_percentage, dedupe_mode, dedupe_working_set_percentage, dedupe_global ---------------

def dup_share(bl):
    """The share of blocks that repeat another (hashed), and how many contents repeat."""
    seen = {}
    for b in bl:
        h = hashlib.sha256(b).digest()
        seen[h] = seen.get(h, 0) + 1
    return 1 - len(seen) / len(bl), sum(1 for n in seen.values() if n > 1)


def check_dedupe(c, d):
    size = 8 * MiB
    n = size // BS
    # the working set: 5% (the default) of the blocks, or the share given
    for mode, pct, ws in [("repeat", 30, 5), ("repeat", 60, 5), ("working_set", 40, 2),
                          ("working_set", 80, 10)]:
        what = "dedupe_mode=%s dedupe_percentage=%d dedupe_working_set_percentage=%d" % (
            mode, pct, ws)
        data = write_file(c, d, what, ["--size=%d" % size, "--dedupe_percentage=%d" % pct,
                                       "--dedupe_mode=" + mode,
                                       "--dedupe_working_set_percentage=%d" % ws])
        if data is None:
            continue
        share, repeated = dup_share(blocks(data))
        p = pct / 100
        # each block is a copy with probability p: 5 standard deviations, and one block
        tol = 5 * math.sqrt(p * (1 - p) / n) + 1 / n
        c.check(abs(share - p) <= tol, "%s: %.2f%% of %d blocks repeat others, want "
                "%d%% +- %.2f" % (what, 100 * share, n, pct, 100 * tol))
        pages = n * ws // 100
        if mode == "working_set":
            c.check(pages // 2 <= repeated <= pages, "%s: the copies repeat %d blocks, at "
                    "most the %d of the working set" % (what, repeated, pages))
        else:
            c.check(repeated > pages, "%s: the copies repeat %d blocks, each the one "
                    "next to it (not a working set of %d)" % (what, repeated, pages))
    data = write_file(c, d, "dedupe_percentage=0", ["--size=1m", "--dedupe_percentage=0"])
    c.check(data is not None and dup_share(blocks(data))[0] == 0,
            "dedupe_percentage=0 refills every buffer: no block repeats")
    check_dedupe_global(c, d)
    code, _, err = run(["--name=j", "--filename=f", "--dedupe_percentage=50",
                        "--dedupe_mode=working_set"], cwd=d)
    c.check(code == 2 and "size=" in err, "working_set without size: exit %d %s" %
            (code, err[-200:]))
    code, _, err = run(["--name=j", "--filename=f", "--size=1m", "--dedupe_percentage=96",
                        "--dedupe_mode=working_set"], cwd=d)
    c.check(code == 2 and "dedupe_working_set_percentage" in err,
            "96%% copies and a 5%% working set: exit %d %s" % (code, err[-200:]))


def check_dedupe_global(c, d):
    """Two jobs of 4 MiB: with dedupe_global their copies come from each other's blocks."""
    for glob in (0, 1):
        for i in range(2):
            if os.path.exists(os.path.join(d, "g.%d" % i)):
                os.unlink(os.path.join(d, "g.%d" % i))
        job = "[global]\nrw=write\nbs=4k\nsize=4m\ndedupe_percentage=50\n" \
              "dedupe_mode=working_set\ndedupe_working_set_percentage=20\n" \
              "dedupe_global=%d\n[a]\nfilename=g.0\n[b]\nfilename=g.1\n" % glob
        with open(os.path.join(d, "g.fio"), "w") as f:
            f.write(job)
        code, _, err = run(["g.fio"], cwd=d)
        c.check(code == 0, "dedupe_global=%d: exit %d %s" % (glob, code, err[-300:]))
        if code:
            continue
        hashes = []
        for i in range(2):
            with open(os.path.join(d, "g.%d" % i), "rb") as f:
                hashes.append({hashlib.sha256(b).digest() for b in blocks(f.read())})
        shared = len(hashes[0] & hashes[1])
        if glob:
            # half of each job's working set (20% of 1024 blocks) is the other job's
            c.check(shared >= 1024 * 20 // 100 // 2 // 2, "dedupe_global=1: %d blocks in "
                    "both files, want a share of the other's working set" % shared)
        else:
            c.check(shared == 0, "dedupe_global=0: %d blocks in both files" % shared)


# --- bs_unaligned -------------------------------------------------------------------------------

def check_bs_unaligned(c, d):
    for flag in (0, 1):
        # sequential: a random map cuts lengths to whole blocks where it finds some covered
        code, _, err = run(["--name=j", "--filename=u", "--rw=write", "--size=2m",
                            "--bsrange=512-8k", "--bs_unaligned=%d" % flag,
                            "--write_lat_log=u%d" % flag, "--log_offset=1"], cwd=d)
        c.check(code == 0, "bs_unaligned=%d: exit %d %s" % (flag, code, err[-300:]))
        if code:
            continue
        with open(os.path.join(d, "u%d_lat.1.log" % flag)) as f:
            lens = [int(ln.split(",")[3]) for ln in f]
        odd = sum(1 for n in lens if n % 512)
        c.check(lens and all(512 <= n <= 8192 for n in lens),
                "bs_unaligned=%d: lengths within bsrange" % flag)
        if flag:
            c.check(odd > len(lens) * 9 // 10, "bs_unaligned=1: %d of %d lengths are not "
                    "multiples of 512" % (odd, len(lens)))
        else:
            c.check(odd == 0, "bs_unaligned=0: %d lengths are not multiples of 512" % odd)


# --- mem, lockmem, iomem_align, hugepage-size --------------------------------------------------

def all_running():
    return r"Jobs: 1 \(f=\d+\): \[W\(1\)\]"


def maps_of(pid):
    with open("/proc/%d/maps" % pid) as f:
        return f.read().splitlines()


def while_running(c, d, what, args, look):
    """Start a rate-limited time-based writer, wait for its status line, let look(pid)
    check it while it runs, then stop it with SIGINT."""
    p = subprocess.Popen([BIN, "--eta=always", "--eta-interval=250ms", "--name=j",
                          "--filename=m", "--rw=write", "--bs=64k", "--iodepth=4",
                          "--ioengine=libaio", "--size=4m", "--time_based", "--runtime=60",
                          "--rate_iops=50"] + args,
                         cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = PipeReader(p.stdout), PipeReader(p.stderr)
    running = err.wait_for(all_running(), WAIT) is not None
    c.check(running, "%s: no status line of the job running: %r" % (what, err.data[-300:]))
    if running:
        look(p.pid)
    p.send_signal(signal.SIGINT)
    p.wait(timeout=60)
    out.text()
    err.text()


def check_mem(c, d):
    buffers = 4 * 64 * 1024		# iodepth=4 of bs=64k

    def segment(pid):
        with open("/proc/sysvipc/shm") as f:
            rows = [ln.split() for ln in f.readlines()[1:]]
        mine = [r for r in rows if int(r[4]) == pid]	# cpid: the process, whatever thread
        c.check(mine and int(mine[0][3]) >= buffers, "mem=shm: a segment made by the job, "
                "of %d bytes or more: %r" % (buffers, mine))
    while_running(c, d, "mem=shm", ["--mem=shm"], segment)

    def mapping(path, perms):
        def look(pid):
            lines = [ln for ln in maps_of(pid) if ln.split()[1] == perms and
                     (path is None or ln.endswith(path))]
            big = []
            for ln in lines:
                lo, hi = (int(x, 16) for x in ln.split()[0].split("-"))
                if hi - lo >= buffers:
                    big.append(ln)
            c.check(big, "a %s mapping%s of %d bytes or more: %r" %
                    (perms, " of " + path if path else "", buffers, lines))
        return look
    mfile = os.path.join(d, "buffers.map")
    while_running(c, d, "mem=mmapshared", ["--mem=mmapshared"], mapping(None, "rw-s"))
    while_running(c, d, "mem=mmap:FILE", ["--mem=mmap:" + mfile], mapping(mfile, "rw-p"))
    c.check(not os.path.exists(mfile), "mem=mmap:FILE: the file made for the run is gone")
    while_running(c, d, "iomem=mmapshared:FILE", ["--iomem=mmapshared:" + mfile],
                  mapping(mfile, "rw-s"))

    def locked(pid):
        with open("/proc/%d/status" % pid) as f:
            kb = int(re.search(r"VmLck:\s+(\d+) kB", f.read()).group(1))
        c.check(kb >= 16 * 1024, "lockmem=16m: VmLck is %d kB" % kb)
    if is_asan_build():
        c.skip("lockmem: AddressSanitizer makes mlock() do nothing, so VmLck stays 0")
    elif os.geteuid() == 0:
        while_running(c, d, "lockmem", ["--lockmem=16m"], locked)
    else:
        c.skip("lockmem: mlock of 16 MiB needs root or a high ulimit -l")

    code, _, err = run(["--name=j", "--filename=f", "--size=1m", "--mem=cudamalloc"], cwd=d)
    c.check(code == 2 and "CUDA" in err, "mem=cudamalloc refused: %d %s" % (code, err[-200:]))
    code, _, err = run(["--name=j", "--filename=f", "--size=1m", "--mem=shm:/x"], cwd=d)
    c.check(code == 2 and "option 'mem'" in err, "mem=shm:PATH refused: %d" % code)
    for mem in ("shmhuge", "mmaphuge"):
        # a page size the kernel lacks, then one it has with no page reserved
        code, _, err = run(["--name=j", "--filename=f", "--size=1m", "--mem=" + mem,
                            "--hugepage-size=64k"], cwd=d)
        c.check(code == 2 and "no huge pages of 65536 bytes" in err,
                "mem=%s hugepage-size=64k: exit %d %s" % (mem, code, err[-200:]))
        pool = "/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages"
        if os.path.exists(pool) and open(pool).read().strip() == "0":
            code, _, err = run(["--name=j", "--filename=f", "--size=1m", "--mem=" + mem,
                                "--hugepage-size=1g"], cwd=d)
            c.check(code == 2 and "hugepages-1048576kB/nr_hugepages is 0" in err,
                    "mem=%s hugepage-size=1g: exit %d %s" % (mem, code, err[-200:]))
        code, _, err = run(["--name=j", "--filename=f", "--size=1m",
                            "--mem=%s:%s" % (mem, os.path.join(d, "x"))], cwd=d)
        c.check(code == 2 if mem == "mmaphuge" else code == 2 and "only mmap" in err,
                "mem=%s:FILE off hugetlbfs: exit %d %s" % (mem, code, err[-200:]))


def check_iomem_align(c, d):
    """O_DIRECT needs aligned memory: a buffer one byte past a page fails, at 512 it works."""
    code, _, err = run(["--name=j", "--filename=a", "--size=64k", "--rw=write", "--direct=1"],
                       cwd=d)
    if code:
        c.skip("O_DIRECT does not work in %s: %s" % (d, err[-200:]))
        return
    code, _, err = run(["--name=j", "--filename=a", "--size=64k", "--rw=write", "--direct=1",
                        "--iomem_align=1"], cwd=d)
    c.check(code == 1 and "Invalid argument" in err, "iomem_align=1 with direct=1: the "
            "kernel refuses the buffer: exit %d %s" % (code, err[-200:]))
    code, _, err = run(["--name=j", "--filename=a", "--size=64k", "--rw=write", "--direct=1",
                        "--mem_align=512"], cwd=d)
    c.check(code == 0, "mem_align=512 with direct=1: exit %d %s" % (code, err[-200:]))


def main():
    c = Checks("opts_buffers")
    d = scratch_dir()
    try:
        check_patterns(c, d)
        check_pattern_survives_reads(c, d)
        check_compress(c, d)
        check_dedupe(c, d)
        check_bs_unaligned(c, d)
        check_mem(c, d)
        check_iomem_align(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
