#!/usr/bin/env python3
"""Group F's options (verification and trim), each by its effect: every verify= method
passes a clean file and names the corrupted chunk, with the digest this script computes
itself over the bytes on disk; the headers are fio's: fio's files pass iojob's verify_only
and iojob's fio's (sha256 and sha512 aside), and a changed byte fails either at its chunk;
meta checks the header alone and null nothing; verify=pattern files are read by fio and
iojob alike; verify_offset puts the header where it says;
verify_backlog_batch and trim_backlog_batch set the counts of reads and trims;
trim_percentage trims that share (the zeroed blocks on disk are the trims counted);
trim_verify_zero catches a trim that left data (the fault shim makes punch-hole a no-op);
md5's reads checked eight at a time find every bad chunk; each write carries new random data (buffer_compress_percentage's share of zeros or
pattern after it), as fio's; a mixed job's own reads are not checked, as fio's (corrupt reads pass, the verify pass's
fail); verify_write_sequence=0 passes a lost write's older block that the default fails; verify_async checks in threads of its own (strace: the dumps are written by other threads
than the reads, N more threads are made, verify_async_cpus binds them) with the same
results; experimental_verify reads
the writes back in their order (log_offset logs); the state file is fio's
(fio-verify-state reads it, fio writes the same bytes) and fio's is loaded."""
import hashlib
import itertools
import json
import os
import re
import shutil
import struct
import subprocess
import zlib

from common import BIN, engine_available, is_tsan_build, run, run_checks, traced_env

# The fault shim, where this build has it, and not under ThreadSanitizer: a shim preloaded
# before TSan's runtime crashes it
SHIM = os.environ.get("IOJOB_FAULT_SHIM", "")
SHIM = SHIM if os.path.exists(SHIM) and not is_tsan_build() else ""
BS = 4096


def job(c, d, args, want_code=0, env=None):
    if env:
        p = subprocess.run([BIN] + args +
                           ["--output-format=json"], cwd=d, capture_output=True, text=True,
                           env=traced_env(env), timeout=120)
        code, out, err = p.returncode, p.stdout, p.stderr
    else:
        code, out, err = run(args + ["--output-format=json"], cwd=d)
    c.check(code == want_code, "%s: exit %d (want %d): %s" % (args, code, want_code, err))
    try:
        return json.loads(out)["jobs"][0], err
    except (ValueError, IndexError, KeyError):
        return None, err


def flip(path, offset):
    with open(path, "r+b") as f:
        f.seek(offset)
        b = f.read(1)
        f.seek(offset)
        f.write(bytes([b[0] ^ 0x5a]))


def crc_reflected(data, poly, bits, init=0):
    crc = init
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ poly if crc & 1 else crc >> 1
    return crc & ((1 << bits) - 1)


def crc7(data):
    crc = 0
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = ((crc << 1) ^ 0x12) & 0xff if crc & 0x80 else (crc << 1) & 0xff
    return crc >> 1


def xxh32(data, seed=0):
    p1, p2, p3, p4, p5 = 2654435761, 2246822519, 3266489917, 668265263, 374761393
    m = 0xffffffff

    def rotl(x, r):
        return ((x << r) | (x >> (32 - r))) & m

    def rnd(acc, lane):
        return (rotl((acc + lane * p2) & m, 13) * p1) & m
    n, i = len(data), 0
    if n >= 16:
        v = [(seed + p1 + p2) & m, (seed + p2) & m, seed, (seed - p1) & m]
        while i + 16 <= n:
            for k in range(4):
                v[k] = rnd(v[k], struct.unpack_from("<I", data, i + 4 * k)[0])
            i += 16
        h = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18)) & m
    else:
        h = (seed + p5) & m
    h = (h + n) & m
    while i + 4 <= n:
        h = (rotl((h + struct.unpack_from("<I", data, i)[0] * p3) & m, 17) * p4) & m
        i += 4
    while i < n:
        h = (rotl((h + data[i] * p5) & m, 11) * p1) & m
        i += 1
    h ^= h >> 15
    h = (h * p2) & m
    h ^= h >> 13
    h = (h * p3) & m
    return h ^ (h >> 16)


def le(v, n):
    return v.to_bytes(n, "little")


def crc32_msb(data):
    crc = 0
    for b in data:
        crc ^= b << 24
        for _ in range(8):
            crc = ((crc << 1) ^ 0x04c11db7) & 0xffffffff if crc & 0x80000000 else \
                (crc << 1) & 0xffffffff
    return crc


def words_le(digest):
    return b"".join(digest[i:i + 4][::-1] for i in range(0, len(digest), 4))


def crc32c_fio(b):
    return le(crc_reflected(b, 0x82f63b78, 32, 0xffffffff), 4)


# method: (digest size, fio's room for it, the digest of the data as fio's header holds it)
METHODS = {
    "md5": (16, 16, lambda b: hashlib.md5(b).digest()),
    "crc64": (8, 8, lambda b: le(crc_reflected(b, 0x95ac9329ac4bc9b5, 64), 8)),
    "crc32": (4, 4, lambda b: le(crc32_msb(b), 4)),
    "crc32c": (4, 4, crc32c_fio),
    "crc32c-intel": (4, 4, crc32c_fio),
    "crc16": (2, 2, lambda b: le(crc_reflected(b, 0xa001, 16), 2)),
    "crc7": (1, 1, lambda b: le(crc7(b), 1)),
    "xxhash": (4, 4, lambda b: le(xxh32(b, 1), 4)),
    "sha512": (64, 128, lambda b: hashlib.sha512(b).digest()),
    "sha256": (32, 64, lambda b: hashlib.sha256(b).digest()),
    "sha1": (20, 20, lambda b: words_le(hashlib.sha1(b).digest())),
    "sha3-224": (28, 28, lambda b: hashlib.sha3_224(b).digest()),
    "sha3-256": (32, 32, lambda b: hashlib.sha3_256(b).digest()),
    "sha3-384": (48, 48, lambda b: hashlib.sha3_384(b).digest()),
    "sha3-512": (64, 64, lambda b: hashlib.sha3_512(b).digest()),
}
# fio 3.33's sha256 and sha512 entries are not those digests (it keeps the hash's block
# buffer): those two files do not pass between fio and iojob
NOT_FIOS = {"sha256", "sha512"}


def check_methods(c, d):
    """Each method: clean passes; one flipped byte fails at its chunk, and the digests in
    the message are the stored one and this script's own over the chunk as it now is."""
    path = os.path.join(d, "m.dat")
    base = ["--name=m", "--filename=m.dat", "--size=256k", "--bs=4k"]
    for m, (size, slot, digest) in METHODS.items():
        j, err = job(c, d, base + ["--rw=randwrite", "--verify=" + m])
        c.check(j and j["error"] == 0 and j["read"]["total_ios"] == 64,
                "%s: written and read back clean: %r" % (m, err))
        with open(path, "rb") as f:
            head = f.read(40)
        c.check(head[0:2] == b"\xca\xac" and crc32c_fio(head[:36]) == head[36:40],
                "%s: fio's header (magic 0xacca, its crc32c): %s" % (m, head.hex()))
        flip(path, 9 * BS + 777)
        j, err = job(c, d, base + ["--rw=read", "--verify=" + m, "--verify_only"], 1)
        with open(path, "rb") as f:
            f.seek(9 * BS)
            chunk = f.read(BS)
        stored = chunk[40:40 + size].hex()
        mine = digest(chunk[40 + slot:]).hex()
        got = re.search(r"at offset (\d+) \(chunk of 4096 bytes\): checksum ([0-9a-f]+) in "
                        r"the header, ([0-9a-f]+) computed over the data", err)
        c.check(got is not None and got.group(1) == str(9 * BS) and
                got.group(2) == stored and got.group(3) == mine,
                "%s: the bad chunk at %d, digests %s (stored) and %s (this script's): %r" %
                (m, 9 * BS, stored, mine, err))
        os.unlink(path)


def fio_job(d, args):
    p = subprocess.run(["fio", "--verify_state_save=0"] + args, cwd=d, capture_output=True,
                       text=True, timeout=120)
    return p.returncode, p.stdout + p.stderr


def check_header_seed(c, d):
    """verify_header_seed (fio HEAD): iojob's headers carry seed 0 and no seed is checked,
    as fio with verify_header_seed=0: fio's file (its seeds its own) verifies either way,
    and a job that asks for the check is told it is not made."""
    path = os.path.join(d, "s.dat")
    base = ["--name=s", "--filename=s.dat", "--size=64k", "--bs=4k", "--verify=crc32c"]
    job(c, d, base + ["--rw=write", "--do_verify=0"])
    with open(path, "rb") as f:
        data = f.read()
    seeds = {struct.unpack_from("<Q", data, off + 8)[0] for off in range(0, len(data), BS)}
    c.check(seeds == {0}, "iojob's headers carry seed 0: %s" % sorted(seeds)[:4])
    if shutil.which("fio"):
        os.unlink(path)
        fio_job(d, base + ["--rw=randwrite", "--do_verify=0"])
        with open(path, "rb") as f:
            data = f.read()
        seeds = {struct.unpack_from("<Q", data, off + 8)[0] for off in range(0, len(data), BS)}
        c.check(0 not in seeds, "fio's headers carry its seeds: %s" % sorted(seeds)[:4])
    for v, noted in (("0", False), ("1", True)):
        j, err = job(c, d, base + ["--rw=read", "--verify_only", "--verify_header_seed=" + v])
        c.check(j and j["error"] == 0 and j["read"]["total_ios"] == 16 and
                ("no seed is checked" in err) == noted,
                "verify_header_seed=%s: the file verifies, %s: %r" %
                (v, "with a note" if noted else "silently", err))


def check_io_size_passes(c, d):
    """io_size past the region of a writing job that verifies: fio writes the region, reads
    it back, and passes again only while writes and reads together are short of io_size;
    the same here, pass for pass, and fio's bytes where fio is installed."""
    base = ["--name=p", "--filename=p.dat", "--size=256k", "--bs=16k", "--verify=crc32c"]
    for rw in ("write", "randwrite"):
        for io_kib in (384, 512, 640, 1024, 1280):
            args = base + ["--rw=" + rw, "--io_size=%dk" % io_kib]
            passes = -(-io_kib // 512)	# each pass: 256k written and 256k read back
            j, err = job(c, d, args)
            got = j and (j["write"]["io_bytes"] >> 10, j["read"]["io_bytes"] >> 10)
            c.check(got == (256 * passes, 256 * passes),
                    "%s io_size=%dk: %d passes written and read back: %s" %
                    (rw, io_kib, passes, got))
            fio_compare(c, d, args, got, "%s io_size=%dk" % (rw, io_kib))
    # norandommap: no pass ends, so all of io_size is written, then each block read once
    args = base + ["--rw=randwrite", "--io_size=1m", "--norandommap=1"]
    j, err = job(c, d, args)
    got = j and (j["write"]["io_bytes"] >> 10, j["read"]["io_bytes"] >> 10)
    c.check(got and got[0] == 1024 and 0 < got[1] <= 256,
            "norandommap io_size=1m: all written at once, each block read back once: %s" %
            (got,))
    if got:	# fio's blocks drawn are its own: its writes alone are compared
        fio_compare(c, d, args, got[0], "norandommap io_size=1m", reads=False)


def fio_compare(c, d, args, got, name, reads=True):
    """fio's written and read KiB for args (written only without reads), where fio is
    installed, are got."""
    if not shutil.which("fio"):
        return
    code, out = fio_job(d, args + ["--output-format=json"])
    try:
        f = json.loads(out[out.index("{"):])["jobs"][0]
        want = (f["write"]["io_bytes"] >> 10, f["read"]["io_bytes"] >> 10) if reads else \
            f["write"]["io_bytes"] >> 10
    except (ValueError, KeyError, IndexError):
        want = None
    c.check(code == 0 and want == got, "%s: fio's %s" % (name, want))


def blocks_of(path, size):
    with open(path, "rb") as f:
        data = f.read()
    return [data[o:o + size] for o in range(0, len(data), size)]


def random_bytes(b):
    """Bytes that hardly compress: random, as a verify write's data (fio's random bytes
    compress to 0.93 at times, zeros or a repeated block to a few percent)."""
    return len(b) > 0 and len(zlib.compress(b)) > 0.9 * len(b)


def check_fresh_data(c, d):
    """Each verify write carries new random bytes, as fio's: no two blocks' data repeat
    and none compresses (a drive that dedupes or compresses sees fio's load), md5's
    payloads made eight at a time among them, with several chunks to a write and blocks
    written over again; with buffer_compress_percentage that share of each write is zeros
    or buffer_pattern after the random part, as fio lays it over the whole write, and 100%
    leaves it random, as fio (which makes it zero_buffers, which verify ignores)."""
    path = os.path.join(d, "f.dat")
    base = ["--name=f", "--filename=f.dat", "--size=256k"]
    # four passes over the region, every block written in each (the random map)
    for m, bs in (("md5", ["--bs=4k"]), ("md5", ["--bs=16k", "--verify_interval=4k"]),
                  ("crc32c", ["--bs=4k"]), ("sha1", ["--bs=8k"]), ("meta", ["--bs=4k"]),
                  ("md5", ["--bs=4k", "--iodepth=8", "--ioengine=libaio"])):
        j, err = job(c, d, base + ["--io_size=1m", "--rw=randwrite", "--verify=" + m] + bs)
        data = [b[64:] for b in blocks_of(path, BS)]	# past any method's header
        c.check(j and j["error"] == 0 and len(set(data)) == len(data) == 64 and
                all(random_bytes(b) for b in data),
                "verify=%s %s: 64 blocks of new random data, none repeated: %d distinct" %
                (m, bs, len(set(data))))
    tools = [("iojob", lambda a: job(c, d, a)[0] is not None)]
    if shutil.which("fio"):
        tools.append(("fio", lambda a: fio_job(d, a)[0] == 0))
    for pct, fill in (("50", b"\0"), ("50", b"\xab"), ("25", b"\0"), ("100", None)):
        args = base + ["--rw=write", "--bs=8k", "--verify=md5", "--do_verify=0",
                       "--buffer_compress_percentage=" + pct]
        if fill == b"\xab":
            args.append("--buffer_pattern=0xab")
        cut = 8192 * (100 - int(pct)) // 100 if fill else 8192
        for name, go in tools:
            ok = go(args)
            blocks = blocks_of(path, 8192)
            c.check(ok and all(random_bytes(b[64:cut]) and
                               b[cut:] == (fill or b"") * (8192 - cut) for b in blocks),
                    "%s buffer_compress_percentage=%s %s: random to %d, then %s" %
                    (name, pct, fill, cut, fill))
            os.unlink(path)
    # the options that do not shape verify's data say so; compress below 100% does shape it
    for opt, said in (("--buffer_compress_percentage=100", "writes no zeros"),
                      ("--dedupe_percentage=30", "makes no copies"),
                      ("--buffer_compress_percentage=50", None)):
        j, err = job(c, d, base + ["--rw=write", "--bs=8k", "--verify=md5", opt])
        noted = "each write carries new random data" in err
        c.check(noted == bool(said) and (not said or said in err),
                "%s with verify=md5: %s: %r" % (opt, said or "no note", err))
        os.unlink(path)


def check_md5_batches(c, d):
    """md5's reads are checked eight at a time: bad chunks in a full batch, side by side in
    one, and in the last, partial batch (61 chunks: seven batches and five, or one alone at
    57) are each found, the first read named with the digest this script computes, the
    count whole, whether read one at a time or eight in flight."""
    path = os.path.join(d, "b.dat")
    for nchunks, bad in ((61, (9, 10, 60)), (57, (3, 56)), (64, (0, 7, 8, 63))):
        base = ["--name=b", "--filename=b.dat", "--size=%dk" % (4 * nchunks), "--bs=4k",
                "--verify=md5"]
        job(c, d, base + ["--rw=write", "--do_verify=0"])
        for k in bad:
            flip(path, k * BS + 100 + k)
        with open(path, "rb") as f:
            f.seek(bad[0] * BS)
            mine = hashlib.md5(f.read(BS)[56:]).hexdigest()
        for extra in ([], ["--ioengine=libaio", "--iodepth=8"]):
            j, err = job(c, d, base + ["--rw=read", "--verify_only"] + extra, 1)
            c.check(j and j["read"]["total_ios"] == nchunks and
                    ("at offset %d (chunk of 4096 bytes)" % (bad[0] * BS)) in err and
                    ("%s computed over the data" % mine) in err and
                    ("(%d bad chunks in all)" % len(bad)) in err,
                    "%d chunks, bad %s %s: the first named with its digest, %d in all: %r" %
                    (nchunks, bad, extra, len(bad), err))
        os.unlink(path)


def check_methods_with_fio(c, d):
    """fio's files pass iojob's verify_only, and iojob's fio's, method by method; a byte
    changed in fio's file is found by iojob at its chunk."""
    if not shutil.which("fio"):
        c.skip("fio not installed: verify headers not compared")
        return
    path = os.path.join(d, "f.dat")
    base = ["--name=f", "--filename=f.dat", "--size=64k", "--bs=4k"]
    for m in list(METHODS) + ["meta"]:
        if m in NOT_FIOS:
            continue
        code, out = fio_job(d, base + ["--rw=randwrite", "--verify=" + m, "--do_verify=0"])
        j, err = job(c, d, base + ["--rw=read", "--verify=" + m, "--verify_only"])
        c.check(code == 0 and j and j["read"]["total_ios"] == 16,
                "%s: iojob verifies fio's file: %r" % (m, err))
        flip(path, 5 * BS + (100 if m != "meta" else 20))
        j, err = job(c, d, base + ["--rw=read", "--verify=" + m, "--verify_only"], 1)
        c.check("at offset %d " % (5 * BS) in err, "%s: iojob finds the byte changed in "
                "fio's file: %r" % (m, err))
        os.unlink(path)
        job(c, d, base + ["--rw=randwrite", "--verify=" + m, "--do_verify=0"])
        code, out = fio_job(d, base + ["--rw=write", "--verify=" + m, "--verify_only"])
        c.check(code == 0, "%s: fio verifies iojob's file: %s" % (m, out[-300:]))
        flip(path, 11 * BS + (100 if m != "meta" else 20))
        code, out = fio_job(d, base + ["--rw=write", "--verify=" + m, "--verify_only"])
        c.check(code != 0 and "offset %d" % (11 * BS) in out,
                "%s: fio finds the byte changed in iojob's file: %s" % (m, out[-300:]))
        os.unlink(path)
    # verify_offset and verify_interval: the header moved into each 4k chunk of 16k blocks
    moved = ["--bs=16k", "--verify=md5", "--verify_offset=512", "--verify_interval=4k"]
    fio_job(d, base + moved + ["--rw=randwrite", "--do_verify=0"])
    j, err = job(c, d, base + moved + ["--rw=read", "--verify_only"])
    # fio 3.33's verify_only reads the job's 16k blocks (4), not each 4k chunk alone
    c.check(j and j["error"] == 0 and j["read"]["total_ios"] == 4,
            "verify_offset=512: iojob verifies fio's file in 4 reads: %r %s" %
            (err, j and j["read"]["total_ios"]))
    os.unlink(path)
    job(c, d, base + moved + ["--rw=randwrite", "--do_verify=0"])
    code, out = fio_job(d, base + moved + ["--rw=write", "--verify_only"])
    c.check(code == 0, "verify_offset=512: fio verifies iojob's file: %s" % out[-300:])


def check_meta_null(c, d):
    path = os.path.join(d, "h.dat")
    base = ["--name=h", "--filename=h.dat", "--size=64k", "--bs=4k"]
    job(c, d, base + ["--rw=write", "--verify=meta"])
    flip(path, 3 * BS + 2000)
    j, err = job(c, d, base + ["--rw=read", "--verify=meta", "--verify_only"])
    c.check(j and j["error"] == 0 and j["read"]["total_ios"] == 16,
            "meta: a changed data byte is not its concern: %r" % err)
    flip(path, 5 * BS + 13)    # in the header's seed
    j, err = job(c, d, base + ["--rw=read", "--verify=meta", "--verify_only"], 1)
    c.check("at offset %d" % (5 * BS) in err and "computed over the header" in err,
            "meta: a changed header byte fails its chunk: %r" % err)
    j, err = job(c, d, base + ["--rw=read", "--verify=null", "--verify_only"])
    c.check(j and j["error"] == 0 and j["read"]["total_ios"] == 16,
            "null: read back, nothing checked: %r" % err)
    j, err = job(c, d, base + ["--rw=write", "--verify=null"])
    c.check(j and j["read"]["total_ios"] == 16, "null: a write job still reads back")
    j, err = job(c, d, ["--name=n", "--ioengine=null", "--size=64k", "--verify=null"])
    c.check(j and j["error"] == 0, "null: runs with ioengine=null, as in fio: %r" % err)


def check_pattern_with_fio(c, d):
    """verify=pattern writes the pattern alone, as fio does: each reads the other's."""
    if not shutil.which("fio"):
        c.skip("fio not installed: pattern files not compared")
        return
    path = os.path.join(d, "p.dat")
    common = ["--filename=p.dat", "--size=64k", "--bs=4k", "--verify=pattern",
              "--verify_pattern=0x1f2e3d4c"]
    p = subprocess.run(["fio", "--name=p", "--rw=write", "--do_verify=0"] + common, cwd=d,
                       capture_output=True, text=True)
    c.check(p.returncode == 0, "fio writes the pattern: %s" % p.stderr)
    j, err = job(c, d, ["--name=p", "--rw=read", "--verify_only"] + common)
    c.check(j and j["read"]["total_ios"] == 16, "iojob verifies fio's pattern file: %r" % err)
    flip(path, 6 * BS + 5)
    j, err = job(c, d, ["--name=p", "--rw=read", "--verify_only"] + common, 1)
    c.check("at offset %d" % (6 * BS) in err and "byte 5 is" in err,
            "iojob finds the byte changed in fio's file: %r" % err)
    os.unlink(path)
    job(c, d, ["--name=p", "--rw=write", "--do_verify=0"] + common)
    p = subprocess.run(["fio", "--name=p", "--rw=write", "--verify_only"] + common, cwd=d,
                       capture_output=True, text=True)
    c.check(p.returncode == 0, "fio verifies iojob's pattern file: %s" % p.stderr)
    flip(path, 2 * BS + 9)
    p = subprocess.run(["fio", "--name=p", "--rw=write", "--verify_only"] + common, cwd=d,
                       capture_output=True, text=True)
    c.check(p.returncode != 0 and "offset %d" % (2 * BS) in p.stdout + p.stderr,
            "fio finds the byte changed in iojob's file: %s" % p.stderr)


def expected_pattern(pattern, fmt, io_off, length, every=0):
    """The bytes fio lays over one I/O: the pattern running on from its start, each %o
    (at the positions fmt) the offset of the I/O, or with every (fio HEAD's
    verify_pattern_interval) afresh every that many bytes, its %o the offset there."""
    out = bytearray()
    step = every or length
    for seg in range(0, length, step):
        inst = bytearray(pattern)
        for at in fmt:
            inst[at:at + 8] = struct.pack("<Q", io_off + seg)
        n = min(step, length - seg)
        out += (inst * (n // len(inst) + 1))[:n]
    return bytes(out)


def check_pattern_offset(c, d):
    """verify_pattern's %o (fio 3.33's: the I/O's offset, 8 bytes) and the pattern running
    on over each I/O across its chunks: iojob's files are fio's byte for byte (fio 3.33's
    layout computed here), each tool verifies the other's, a changed byte of a %o is
    found. fio HEAD's verify_pattern_interval starts the pattern afresh every N bytes, its
    %o the offset there (checked against fio HEAD's bytes: 8k I/Os, N=4k, segments of
    their own offsets). buffer_pattern takes no %o, as fio refuses it."""
    path = os.path.join(d, "o.dat")
    cases = (("%o", b"\0" * 8, [0], 8192, 0, []),
             ('0xaa%o"xy"', b"\xaa" + b"\0" * 8 + b"xy", [1], 8192, 0, []),
             ('"abc"', b"abc", [], 8192, 0, ["--verify_interval=4k"]),
             ("%o", b"\0" * 8, [0], 8192, 4096, ["--verify_pattern_interval=4k"]),
             ('0x01%o"ab"', b"\x01" + b"\0" * 8 + b"ab", [1], 16384, 3000,
              ["--verify_pattern_interval=3000"]))
    for text, pattern, fmt, bs, every, extra in cases:
        args = ["--name=o", "--filename=o.dat", "--size=64k", "--bs=%d" % bs,
                "--verify=pattern", "--verify_pattern=" + text] + extra
        j, err = job(c, d, args + ["--rw=write"])
        with open(path, "rb") as f:
            data = f.read()
        want = b"".join(expected_pattern(pattern, fmt, off, bs, every)
                        for off in range(0, 65536, bs))
        c.check(j and j["error"] == 0 and data == want, "%s %s: the file is fio's layout "
                "(first difference at %s)" % (text, extra, next(
                    (i for i in range(len(want)) if data[i:i + 1] != want[i:i + 1]), None)))
        if fmt:
            flip(path, bs + fmt[0] + 1)
            j, err = job(c, d, args + ["--rw=read", "--verify_only"], 1)
            c.check("at offset %d" % bs in err, "%s: a changed %%o byte is found: %r" %
                    (text, err))
        if shutil.which("fio") and not every:
            os.unlink(path)
            p = subprocess.run(["fio", "--verify_state_save=0", "--rw=write"] + args, cwd=d,
                               capture_output=True, text=True, timeout=120)
            with open(path, "rb") as f:
                c.check(p.returncode == 0 and f.read() == want,
                        "%s %s: fio 3.33 writes the same bytes: %s" % (text, extra, p.stderr))
            j, err = job(c, d, args + ["--rw=read", "--verify_only"])
            c.check(j and j["error"] == 0, "%s: iojob verifies fio's file: %r" % (text, err))
        os.unlink(path)
    code, _, err = run(["--name=o", "--size=64k", "--buffer_pattern=%o"], cwd=d)
    c.check(code == 2 and "verify_pattern's alone" in err, "buffer_pattern=%%o: %r" % err)


def check_verify_policy(c, d):
    """fio HEAD's verify_policy=fsynced: the saved state lists only the writes before the
    last fsync (or fdatasync) that completed, so that verify_state_load reads back what
    a crash could not take: 100 writes with fsync=16 leave 96 to verify (fio HEAD: 96),
    completed (the default) all 100. The state's numberio says so."""
    args = ["--name=p", "--filename=p.dat", "--size=400k", "--bs=4k", "--verify=crc32c",
            "--rw=write"]
    state = os.path.join(d, "local-p-0-verify.state")
    for sync, pol, want in (("--fsync=16", "fsynced", 96), ("--fdatasync=16", "fsynced", 96),
                            ("--fsync=16", "completed", 100), ("--fsync=0", "fsynced", 0)):
        job(c, d, args + [sync, "--do_verify=0", "--verify_policy=" + pol])
        with open(state, "rb") as f:
            numberio = struct.unpack_from("<Q", f.read(), 24 + 16)[0]
        j, err = job(c, d, args + [sync, "--verify_only", "--verify_state_load=1"])
        c.check(numberio == want and j and j["error"] == 0 and
                j["read"]["total_ios"] == want,
                "%s verify_policy=%s: the state's writes %d, %s read back, want %d: %r" %
                (sync, pol, numberio, j and j["read"]["total_ios"], want, err))
    code, _, err = run(args + ["--verify_policy=sometimes"], cwd=d)
    c.check(code == 2 and "verify_policy" in err, "verify_policy=sometimes: %d %s" % (code, err))


def check_verify_offset(c, d):
    path = os.path.join(d, "o.dat")
    base = ["--name=o", "--filename=o.dat", "--size=64k", "--bs=4k", "--verify=crc32c"]
    j, err = job(c, d, base + ["--rw=write", "--verify_offset=512"])
    c.check(j and j["error"] == 0 and j["read"]["total_ios"] == 16, "verify_offset=512 "
            "writes and reads back clean: %r" % err)
    with open(path, "rb") as f:
        data = f.read()
    # fio's header: magic, type, length, seed, then the chunk's offset (bytes 16-23)
    at = [data[k * BS + 512:k * BS + 514] == b"\xca\xac" and
          struct.unpack_from("<Q", data, k * BS + 512 + 16)[0] == k * BS and
          struct.unpack_from("<Q", data, k * BS + 16)[0] != k * BS for k in range(16)]
    c.check(all(at), "every chunk's own header is at byte 512, not 0: %s" % at)
    j, err = job(c, d, base + ["--rw=read", "--verify_only", "--verify_offset=512"])
    c.check(j and j["error"] == 0, "verify_only with verify_offset=512 passes: %r" % err)
    j, err = job(c, d, base + ["--rw=read", "--verify_only"], 1)
    c.check("no verify header" in err, "without verify_offset the header is not at 0: %r" % err)
    code, _, err = run(base + ["--rw=write", "--verify_offset=4090"], cwd=d)
    c.check(code == 2 and "option 'verify_offset'" in err and "runs past" in err,
            "a header past its chunk is refused: %d %r" % (code, err))


def check_backlog_batch(c, d):
    """256 writes, verify_backlog=16: every 16 writes a batch is read back, and the pass at
    the end reads what no batch read: each block once (256 reads), as fio 3.33 does,
    whatever the batch (d53e42d read them all again: 512, and 320 with a batch of 4).
    A batch is verify_backlog_batch reads, after each 16 writes (write_iolog's order)."""
    base = ["--name=b", "--filename=b.dat", "--size=1m", "--bs=4k", "--verify=crc32c",
            "--verify_backlog=16"]
    for rw, batch in (("write", "4"), ("write", "0"), ("write", ""), ("randwrite", ""),
                      ("randwrite", "4"), ("write", "32")):
        args = base + ["--rw=" + rw] + (["--verify_backlog_batch=" + batch] if batch else [])
        j, err = job(c, d, args)
        c.check(j and j["error"] == 0 and j["read"]["total_ios"] == 256,
                "rw=%s verify_backlog_batch=%s: %d reads, want 256: %r" %
                (rw, batch, j["read"]["total_ios"] if j else -1, err))
    # the batches, in the order the I/Os were issued: 16 writes, then 4 reads, and so on
    log = os.path.join(d, "bl.log")
    job(c, d, base + ["--rw=write", "--verify_backlog_batch=4", "--write_iolog=" + log])
    with open(log) as f:
        kinds = [ln.split()[2] for ln in f if ln.split()[2:3] in (["read"], ["write"])]
    runs = [(k, len(list(g))) for k, g in itertools.groupby(kinds)]
    c.check(runs[:4] == [("write", 16), ("read", 4)] * 2,
            "verify_backlog_batch=4: 16 writes, then 4 reads: %s" % runs[:6])
    # the pass reads each write back whole, its chunks checked within, as fio: 64 reads of
    # 4k with verify_interval=1k (the oracle's f01: 256 reads of 1k), 1k writes 1k each
    for bs, interval, reads in (("4k", "1k", 64), ("1k", "1k", 256), ("16k", "4k", 16)):
        j, err = job(c, d, ["--name=i", "--filename=i.dat", "--size=256k", "--bs=" + bs,
                            "--rw=write", "--verify=md5", "--verify_interval=" + interval])
        c.check(j and j["read"]["total_ios"] == reads and j["read"]["io_bytes"] == 256 * 1024,
                "bs=%s verify_interval=%s: %d reads of the 256k, want %d: %r" %
                (bs, interval, j["read"]["total_ios"] if j else -1, reads, err))
    # writes off the chunks' grid (16k writes on 8k boundaries, overlapping under the map):
    # a chunk a later write overlaps is not read back, the rest verify clean, as in fio
    # (the oracle's f18: "no verify header", with any engine)
    for extra in ([], ["--verify_backlog=8"], ["--iodepth=8", "--ioengine=libaio"],
                  ["--bssplit=4k/60:8k,16k/100", "--rw=randrw"]):
        j, err = job(c, d, ["--name=g", "--filename=g.dat", "--size=2m", "--bs=16k",
                            "--blockalign=8k", "--rw=randwrite", "--verify=crc32c"] + extra)
        c.check(j and j["error"] == 0 and j["read"]["total_ios"] > 0,
                "16k writes on 8k boundaries %s: verify clean: %r" % (extra, err))
    # writes that complete in bursts (iodepth_low=2 at depth 8) each get their batch: the
    # ring never overflows into a second read of everything (slice job 178: 224 reads)
    if engine_available("libaio"):
        j, err = job(c, d, ["--name=lo", "--filename=lo.dat", "--size=1m", "--bs=8k",
                            "--rw=write", "--verify=md5", "--verify_backlog=8",
                            "--ioengine=libaio", "--iodepth=8", "--iodepth_low=2"])
        c.check(j and j["read"]["total_ios"] == 128 and j["write"]["total_ios"] == 128,
                "verify_backlog=8 iodepth_low=2: %d reads of 128 writes: %r" %
                (j["read"]["total_ios"] if j else -1, err))
    # do_verify=0 reads nothing back, not the backlog's batches either, as fio (the oracle
    # found 256 reads where fio made none)
    j, err = job(c, d, base + ["--rw=write", "--do_verify=0"])
    c.check(j and j["read"]["total_ios"] == 0 and j["write"]["total_ios"] == 256,
            "verify_backlog with do_verify=0: %d reads, want 0: %r" %
            (j["read"]["total_ios"] if j else -1, err))


def check_verify_each_loop(c, d):
    """loops=3 with verify: write, read back, write, read back, ... as fio 3.33 does (d53e42d
    wrote all three loops and read back once: the first loops' data went unchecked); with
    a depth, and with a backlog (64 writes, 64 reads, through each loop), the same."""
    base = ["--name=l", "--filename=l.dat", "--size=1m", "--bs=4k", "--verify=crc32c",
            "--rw=write", "--loops=3"]
    log = os.path.join(d, "l.log")
    for extra in ([], ["--ioengine=libaio", "--iodepth=8"], ["--verify_backlog=64"]):
        if os.path.exists(log):
            os.unlink(log)
        j, err = job(c, d, base + extra + ["--write_iolog=" + log])
        with open(log) as f:
            kinds = [ln.split()[2] for ln in f if ln.split()[2:3] in (["read"], ["write"])]
        runs = [(k, sum(1 for _ in g)) for k, g in itertools.groupby(kinds)]
        want = [("write", 256), ("read", 256)] * 3 if not extra or extra[0] != \
            "--verify_backlog=64" else [("write", 64), ("read", 64)] * 12
        c.check(j and j["error"] == 0 and runs == want,
                "loops=3 %s: each loop read back before the next: %s" % (extra, runs[:8]))


def zero_blocks(path):
    with open(path, "rb") as f:
        data = f.read()
    return sum(1 for k in range(0, len(data), BS) if data[k:k + BS] == bytes(BS))


def check_trims(c, d):
    path = os.path.join(d, "t.dat")
    base = ["--name=t", "--filename=t.dat", "--size=1m", "--bs=4k", "--rw=write",
            "--verify=crc32c"]
    j, err = job(c, d, base + ["--trim_percentage=50", "--trim_backlog=8"])
    trims = j["trim"]["total_ios"] if j else -1
    # 256 draws at 50%: mean 128, sd 8; the bound is 6 sd wide
    c.check(80 <= trims <= 176, "trim_percentage=50: about half the 256 blocks trimmed: %d"
            % trims)
    c.check(zero_blocks(path) == trims, "the blocks that read zero are the trims: %d %d" %
            (zero_blocks(path), trims))
    c.check(j and j["error"] == 0 and j["read"]["total_ios"] == 256,
            "trimmed blocks are read back too (as zeros): %r" % err)
    j, err = job(c, d, base + ["--trim_percentage=30", "--trim_verify_zero=0"])
    trims = j["trim"]["total_ios"] if j else -1
    c.check(j and 0 < trims < 256 and j["read"]["total_ios"] == 256 - trims,
            "trim_verify_zero=0: trimmed blocks are not read back: %r" %
            ((j and (trims, j["read"]["total_ios"])),))
    for backlog, batch, want in (("8", "2", 256 // 8 * 2), ("8", "0", 256), ("0", "0", 256)):
        j, err = job(c, d, base + ["--trim_percentage=100", "--trim_backlog=" + backlog,
                                   "--trim_backlog_batch=" + batch])
        c.check(j and j["error"] == 0 and j["trim"]["total_ios"] == want and
                zero_blocks(path) == want,
                "trim_backlog=%s trim_backlog_batch=%s: %d trims (want %d), %d zero blocks"
                % (backlog, batch, j["trim"]["total_ios"] if j else -1, want,
                   zero_blocks(path)))
    code, _, err = run(["--name=x", "--filename=t.dat", "--size=1m", "--rw=write",
                        "--trim_percentage=10"], cwd=d)
    c.check(code == 2 and "option 'trim_percentage' needs verify=" in err,
            "trim_percentage without verify is refused: %d %r" % (code, err))
    if not os.path.exists(SHIM):
        c.skip("no fault shim: trim_verify_zero against a trim that leaves data")
        return
    env = {"LD_PRELOAD": SHIM, "IOJOB_FAULT": "fallocate:short:1:0",
           "IOJOB_FAULT_PATH": "t.dat"}
    j, err = job(c, d, base + ["--trim_percentage=50", "--trim_backlog=8"], 1, env)
    c.check(re.search(r"at offset \d+ \(chunk of 4096 bytes\): trimmed, but byte 0 reads "
                      r"0xca, not zero \((\d+) bad chunks", err) is not None,
            "trim_verify_zero: trimmed blocks that kept their data fail: %r" % err)
    n = re.search(r"\((\d+) bad chunks", err)
    c.check(j and n and int(n.group(1)) == j["trim"]["total_ios"],
            "every trimmed block is one bad chunk: %r" % err)
    j, err = job(c, d, base + ["--trim_percentage=50", "--trim_backlog=8",
                               "--trim_verify_zero=0"], 0, env)
    c.check(j and j["error"] == 0, "trim_verify_zero=0: not checked: %r" % err)


def strace_job(d, args, name):
    out = os.path.join(d, name)
    p = subprocess.run(["strace", "-f", "-qq", "-e",
                        "trace=pread64,openat,clone,clone3,sched_setaffinity",
                        "-o", out, BIN] + args +
                       ["--output-format=json"], cwd=d, capture_output=True, text=True,
                       timeout=120, env=traced_env())
    with open(out) as f:
        lines = f.read().splitlines()
    return p, lines


def check_async(c, d):
    path = os.path.join(d, "a.dat")
    base = ["--name=a", "--filename=a.dat", "--size=1m", "--bs=4k", "--verify=md5"]
    job(c, d, base + ["--rw=write", "--do_verify=0"])
    bad = (3, 50, 51, 120, 200)
    for k in bad:
        flip(path, k * BS + 100)
    res = {}
    for n in ("0", "3"):
        j, err = job(c, d, base + ["--rw=read", "--verify_only", "--verify_async=" + n,
                                   "--iodepth=4", "--ioengine=psync"], 1)
        res[n] = (j and j["read"]["total_ios"], err.strip().splitlines()[-1:])
    c.check(res["0"] == res["3"] and "(5 bad chunks in all)" in res["3"][1][0],
            "verify_async=3 finds what the job's own checks find, first the same: %s" % res)
    j, err = job(c, d, base + ["--rw=read", "--verify_only", "--verify_async=2",
                               "--verify_fatal=1"], 1)
    c.check("at offset %d" % (3 * BS) in err and j and j["error"] == 84,
            "verify_fatal with verify_async stops the job on a bad chunk: %r" % err)
    if not shutil.which("strace"):
        c.skip("no strace: the threads of verify_async not seen")
        return
    threads = {}
    for n in ("0", "3"):
        p, lines = strace_job(d, base + ["--rw=read", "--verify_only", "--verify_dump=1",
                                         "--verify_async=" + n], "trace" + n)
        readers = {x.split()[0] for x in lines if "pread64(" in x and ", 4096, " in x}
        dumpers = {x.split()[0] for x in lines if ".received" in x and "openat(" in x}
        clones = sum(1 for x in lines if re.match(r"\d+ +clone3?\(", x))
        threads[n] = (readers, dumpers, clones)
    r0, d0, c0 = threads["0"]
    r3, d3, c3 = threads["3"]
    c.check(d0 == r0 and len(r0) == 1, "verify_async=0: the job's thread checks: %s %s" %
            (r0, d0))
    c.check(len(r3) == 1 and d3 and not d3 & r3 and len(d3) <= 3,
            "verify_async=3: other threads than the reader check (and dump): %s %s" % (r3, d3))
    c.check(c3 - c0 == 3, "verify_async=3 makes 3 more threads: %d %d" % (c0, c3))
    last = os.cpu_count() - 1
    p, lines = strace_job(d, base + ["--rw=read", "--verify_only", "--verify_async=2",
                                     "--verify_async_cpus=%d" % last], "trace_cpus")
    pins = [x for x in lines if "sched_setaffinity(" in x]
    tids = {re.search(r"sched_setaffinity\((\d+),", x).group(1) for x in pins}
    c.check(len(pins) == 2 and len(tids) == 2 and
            all(re.search(r", \[%d\]\)\s+= 0$" % last, x) for x in pins),
            "verify_async_cpus=%d: both threads, and only they, are bound to it: %s" %
            (last, pins))
    code, _, err = run(base + ["--rw=read", "--verify_async=2", "--verify_async_cpus=0-9999"],
                       cwd=d)
    c.check(code == 2 and "option 'verify_async_cpus'" in err and
            "past this machine's last" in err,
            "a CPU that is not here is refused: %d %r" % (code, err))


def check_mixed_reads(c, d):
    """A mixed job's own reads are the workload, not a check, as fio's (backend.c verifies a
    read of a job that also writes only when verify issued it): with every pread returning
    a corrupt byte (the fault shim's flip), randrw with do_verify=0 passes, in iojob and in
    fio, though its reads read chunks it wrote (d53e42d checked them and failed); the
    verify pass's reads and a read-only job's reads are checked and fail."""
    if not SHIM:
        c.skip("no fault shim (or a TSan build): mixed reads against corrupt data")
        return
    env = {"LD_PRELOAD": SHIM, "IOJOB_FAULT": "pread:flip:1:0", "IOJOB_FAULT_PATH": "m.dat"}
    mixed = ["--name=m", "--filename=m.dat", "--size=64k", "--io_size=1m", "--bs=4k",
             "--rw=randrw", "--norandommap", "--verify=crc32c"]
    cases = (("randrw do_verify=0", mixed + ["--do_verify=0"], True),
             ("randrw with its verify pass", mixed, False),
             ("a read-only job", ["--name=m", "--filename=m.dat", "--size=64k", "--bs=4k",
                                  "--rw=read", "--verify=crc32c"], False))
    tools = [("iojob", [BIN])] + ([("fio", ["fio", "--verify_state_save=0"])]
                                  if shutil.which("fio") else [])
    for tool, cmd in tools:
        for what, args, clean in cases:
            p = subprocess.run(cmd + args + ["--output-format=json"], cwd=d, text=True,
                               capture_output=True, env=traced_env(env), timeout=120)
            try:
                j = json.loads(p.stdout[p.stdout.index("{"):])["jobs"][0]
            except (ValueError, IndexError, KeyError):
                j = None
            if clean:
                c.check(p.returncode == 0 and j and j["read"]["total_ios"] > 100,
                        "%s, %s, every read corrupt: the workload's reads are not checked: "
                        "exit %d, %s reads: %r" % (tool, what, p.returncode,
                                                   j["read"]["total_ios"] if j else "no",
                                                   p.stderr[-300:]))
            else:
                c.check(p.returncode != 0 and "verify" in p.stdout + p.stderr,
                        "%s, %s, every read corrupt: the reads are checked and fail: "
                        "exit %d: %r" % (tool, what, p.returncode, p.stderr[-300:]))


def offsets(path, ddir):
    with open(path) as f:
        rows = [[x.strip() for x in line.split(",")] for line in f if line.strip()]
    return [int(r[4]) for r in rows if r[2] == ddir]


def check_experimental(c, d):
    """experimental_verify=1 reads the writes back in their order; otherwise the pass reads
    the region in order. With overwrites (norandommap) each write is read back once."""
    base = ["--name=x", "--filename=x.dat", "--size=64k", "--bs=4k", "--rw=randwrite",
            "--verify=crc32c", "--log_offset=1"]
    for e, extra in (("0", []), ("1", []), ("1", ["--norandommap=1", "--io_size=128k"])):
        j, err = job(c, d, base + extra + ["--experimental_verify=" + e,
                                           "--write_lat_log=l" + e])
        log = os.path.join(d, "l%s_clat.1.log" % e)
        w, r = offsets(log, "1"), offsets(log, "0")
        c.check(j and j["error"] == 0 and w != sorted(w), "%s: random writes: %r" % (extra, err))
        if e == "1":
            c.check(r == w, "experimental_verify=1 %s: the reads replay the writes: %s %s" %
                    (extra, r, w))
        else:
            c.check(r == sorted(w), "experimental_verify=0: the pass reads in order: %s" % r)
    code, _, err = run(base + ["--experimental_verify=1", "--rw=randrw",
                               "--rwmix_mode=ratio"], cwd=d)
    c.check(code == 2 and "option 'experimental_verify'" in err,
            "experimental_verify with rwmix_mode=ratio is refused: %d %r" % (code, err))


def check_state(c, d):
    """The state file is fio's: fio-verify-state reads it, and for the same job fio writes
    the same bytes; iojob loads fio's and reads only the blocks it says were written."""
    base = ["--name=s", "--size=64k", "--bs=4k", "--verify=crc32c", "--number_ios=10"]
    job(c, d, base + ["--filename=s.dat", "--rw=write"])
    state = os.path.join(d, "local-s-0-verify.state")
    with open(state, "rb") as f:
        mine = f.read()
    if shutil.which("fio-verify-state"):
        p = subprocess.run(["fio-verify-state", state], capture_output=True, text=True)
        c.check(p.returncode == 0 and "Version:\t0x3" in p.stdout and
                "Number IOs:\t10" in p.stdout and "(file= 0) 36864" in p.stdout and
                "mismatch" not in p.stdout + p.stderr,
                "fio-verify-state reads iojob's state: %r %r" % (p.stdout, p.stderr))
    else:
        c.skip("no fio-verify-state")
    if not shutil.which("fio"):
        c.skip("fio not installed: its state file not compared")
        return
    fdir = os.path.join(d, "fio")
    os.mkdir(fdir)
    p = subprocess.run(["fio"] + base + ["--filename=s.dat", "--rw=write", "--do_verify=0"],
                       cwd=fdir, capture_output=True, text=True)
    with open(os.path.join(fdir, "local-s-0-verify.state"), "rb") as f:
        theirs = f.read()
    c.check(p.returncode == 0 and theirs == mine,
            "fio's state file for the same job has the same bytes: %s %s" %
            (theirs.hex(), mine.hex()))
    # iojob's data, fio's state: only the 10 blocks fio's writes reached are checked
    os.unlink(state)
    job(c, d, base + ["--filename=i.dat", "--rw=write", "--verify_state_save=0",
                      "--do_verify=0"])
    shutil.copy(os.path.join(fdir, "local-s-0-verify.state"), d)
    args = ["--name=s", "--size=64k", "--bs=4k", "--verify=crc32c", "--filename=i.dat",
            "--rw=write", "--verify_only"]
    j, err = job(c, d, args, 1)
    c.check("never written" in err, "without the state the unwritten blocks fail: %r" % err)
    j, err = job(c, d, args + ["--verify_state_load=1"])
    c.check(j and j["error"] == 0 and j["read"]["total_ios"] == 10,
            "with fio's state, the 10 written blocks are read and pass: %r" % err)
    # the window: 10 writes at depth 1, the last counts only if listed as completed
    state = os.path.join(d, "local-s-0-verify.state")
    job(c, d, base + ["--filename=i.dat", "--rw=write", "--do_verify=0"])
    with open(state, "rb") as f:
        data = bytearray(f.read())
    comps = struct.unpack_from("<Q", data, 24)[0]
    c.check(comps == 1, "depth 1: the last completion is listed: %d" % comps)
    # forget the newest completion (offset 36864): the replay stops before it
    at = [24 + 152 + 16 * i for i in range(comps)
          if struct.unpack_from("<Q", data, 24 + 152 + 16 * i + 8)[0] == 9 * BS]
    if at:
        struct.pack_into("<QQ", data, at[0], 0, 123456789)
        struct.pack_into("<Q", data, 16, crc_reflected(bytes(data[24:]), 0x82f63b78, 32,
                                                       0xffffffff))
        with open(state, "wb") as f:
            f.write(data)
    j, err = job(c, d, args + ["--verify_state_load=1"])
    c.check(at and j and j["error"] == 0 and j["read"]["total_ios"] == 9,
            "a write not listed as completed ends the replay: %r" % err)
    # fio's random order is fio's generator's: its state is refused for a random job
    os.unlink(state)
    fio_job(fdir, base + ["--filename=r.dat", "--rw=randwrite", "--do_verify=0",
                          "--verify_state_save=1"])
    shutil.copy(os.path.join(fdir, "local-s-0-verify.state"), d)
    j, err = job(c, d, base + ["--filename=i.dat", "--rw=randwrite", "--verify_only",
                               "--verify_state_load=1"], 1)
    c.check("verify_state_load" in err and "fio's random writes" in err,
            "fio's random state is refused, saying why: %r" % err)


def check_write_sequence(c, d):
    """verify_write_sequence (fio HEAD): a write the device lost (the fault shim's lost
    pwrite, in the second of two loops) leaves the first loop's block, whole and checksummed
    but a generation behind: checked by default, it fails as an older write; with
    verify_write_sequence=0 only the header and checksum are checked, and it passes. A
    flipped byte fails either way."""
    if not SHIM:
        c.skip("no fault shim (or a TSan build): a lost write")
        return
    args = ["--name=s", "--filename=s.dat", "--size=64k", "--bs=4k", "--rw=write",
            "--loops=2", "--verify=crc32c", "--verify_state_save=0"]
    lost = {"LD_PRELOAD": SHIM, "IOJOB_FAULT": "pwrite:lost:20", "IOJOB_FAULT_PATH": "s.dat"}
    _, err = job(c, d, args, 1, lost)
    c.check("an older write (lost or reordered)" in err,
            "a lost write, verify_write_sequence=1: %r" % err[-300:])
    j, err = job(c, d, args + ["--verify_write_sequence=0"], 0, lost)
    c.check(j and j["read"]["total_ios"] == 32 and j["error"] == 0,
            "a lost write, verify_write_sequence=0: the checksum alone passes: %r" % err[-300:])
    flipped = {"LD_PRELOAD": SHIM, "IOJOB_FAULT": "pread:flip:3", "IOJOB_FAULT_PATH": "s.dat"}
    _, err = job(c, d, args + ["--verify_write_sequence=0"], 1, flipped)
    c.check("computed over the data" in err,
            "a flipped byte, verify_write_sequence=0: still checked: %r" % err[-300:])


def check_runtime_split(c, d):
    """Each direction's runtime as fio keeps it: a write job's write line runs as long as
    its writes and its read line as long as its verify pass, the two adding up to the job's
    runtime; a randrw job's reads run the whole job (its own reads, then the pass) and its
    writes the part before the pass (iojob gave every line the whole job's runtime).
    Relations within one run, in iojob and fio alike; no time is asserted."""
    tools = [("iojob", [BIN])] + ([("fio", ["fio", "--verify_state_save=0"])]
                                  if shutil.which("fio") else [])
    for tool, cmd in tools:
        for rw in ("write", "randrw"):
            p = subprocess.run(cmd + ["--name=r", "--filename=r.dat", "--size=8m", "--bs=4k",
                                      "--rw=" + rw, "--verify=crc32c",
                                      "--output-format=json"], cwd=d, capture_output=True,
                               text=True, timeout=120)
            try:
                j = json.loads(p.stdout[p.stdout.index("{"):])["jobs"][0]
                r, w, t = j["read"]["runtime"], j["write"]["runtime"], j["job_runtime"]
            except (ValueError, IndexError, KeyError):
                c.check(False, "%s %s: no report: %s" % (tool, rw, p.stderr[-300:]))
                continue
            if rw == "write":
                ok = r < t and w < t and abs(r + w - t) <= 3
            else:
                ok = w < r and abs(r - t) <= 2
            c.check(ok, "%s rw=%s verify: read %d ms, write %d ms, job %d ms" %
                    (tool, rw, r, w, t))

def main():
    run_checks("opts_verify", (
        check_methods, check_methods_with_fio, check_fresh_data, check_md5_batches,
        check_header_seed, check_io_size_passes,
        check_meta_null, check_pattern_with_fio,
        check_pattern_offset, check_verify_policy,
        check_verify_offset, check_backlog_batch, check_verify_each_loop, check_trims,
        check_async, check_experimental, check_state, check_mixed_reads,
        check_write_sequence, check_runtime_split))


if __name__ == "__main__":
    main()
