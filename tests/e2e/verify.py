#!/usr/bin/env python3
"""Data verification: every engine writes and reads back without false positives, even
with random overwrites in flight; a byte corrupted behind iojob's back is reported at
exactly its chunk; verify_fatal stops there; verify_dump keeps the bad chunk; bad
verify options are job-file errors."""
import json
import os
import re

from common import engine_available, run, run_checks

MIB = 1 << 20


def job(c, d, args, want_code=0):
    code, out, err = run(args + ["--output-format=json"], cwd=d)
    c.check(code == want_code, "%s: exit %d (want %d): %s" % (args, code, want_code, err))
    try:
        return json.loads(out)["jobs"][0], err
    except ValueError:
        return None, err


def corrupt(path, offset, byte=b"\xff"):
    with open(path, "r+b") as f:
        f.seek(offset)
        old = f.read(1)
        f.seek(offset)
        f.write(byte if byte != old else b"\x00")


def check_engines(c, d):
    """Write and read back with each engine and checksum; overwrites are no false positives."""
    for eng, csum in (("psync", "crc32c"), ("sync", "md5"), ("libaio", "sha256"),
                      ("io_uring", "xxhash")):
        if not engine_available(eng):
            c.skip("%s not built" % eng)
            continue
        j, err = job(c, d, ["--name=v", "--filename=%s.dat" % eng, "--size=1m",
                            "--io_size=4m", "--norandommap=1", "--rw=randwrite",
                            "--ioengine=" + eng, "--iodepth=16", "--direct=1",
                            "--verify=" + csum])
        if j:
            c.check(j["error"] == 0 and j["write"]["total_ios"] == 1024,
                    "%s/%s: overwritten blocks verify clean: %s" % (eng, csum, err))
            c.check(0 < j["read"]["total_ios"] <= 256,
                    "%s: the read-back reads each written chunk once" % eng)


def check_overlap_in_flight(c, d):
    """32 writes in flight over 8 blocks overlap all the time: they complete in one order
    and may land in another, so the last generation completed is not always on disk.
    Those chunks must still pass (any generation), and reads racing a write are not
    judged; before that, about one run in six failed with 'an older write'."""
    for eng in ("libaio", "io_uring"):
        if not engine_available(eng):
            continue
        for backlog in ("0", "4"):
            j, err = job(c, d, ["--name=o", "--filename=o.dat", "--size=32k",
                                "--io_size=2m", "--norandommap=1", "--rw=randwrite",
                                "--ioengine=" + eng, "--iodepth=32", "--direct=1",
                                "--verify=crc32c", "--verify_backlog=" + backlog])
            c.check(j is not None and j["error"] == 0,
                    "%s backlog=%s: overlapping writes verify clean: %s" % (eng, backlog, err))


def check_corruption(c, d):
    path = os.path.join(d, "c.dat")
    base = ["--name=c", "--filename=c.dat", "--size=1m"]
    job(c, d, base + ["--rw=write", "--verify=crc32c"])
    corrupt(path, 5 * 4096 + 1234)
    corrupt(path, 100 * 4096 + 7)
    j, err = job(c, d, base + ["--rw=read", "--verify=crc32c", "--verify_only=1"], 1)
    c.check(j and j["error"] == 84, "a bad chunk fails the job with EILSEQ (84)")
    c.check(re.search(r"job 'c': verify failed in 'c\.dat' at offset 20480 \(chunk of 4096 "
                      r"bytes\): checksum [0-9a-f]{8} in the header, [0-9a-f]{8} computed over "
                      r"the data \(2 bad chunks in all\)", err) is not None,
            "the message names the file, the first bad chunk and the count: %r" % err)
    c.check(j and j["read"]["total_ios"] == 256, "without verify_fatal every chunk is checked")
    j, err = job(c, d, base + ["--rw=read", "--verify=crc32c", "--verify_only=1",
                               "--verify_fatal=1", "--verify_dump=1"], 1)
    c.check(j and j["read"]["total_ios"] <= 6, "verify_fatal stops at the first bad chunk")
    dump = os.path.join(d, "c.dat.20480.received")
    if os.path.exists(dump):
        with open(dump, "rb") as f, open(path, "rb") as g:
            g.seek(20480)
            c.check(f.read() == g.read(4096), "verify_dump saved the bad chunk as read")
    else:
        c.check(False, "verify_dump wrote no c.dat.20480.received")


def check_pattern(c, d):
    path = os.path.join(d, "p.dat")
    base = ["--name=p", "--filename=p.dat", "--size=256k", "--verify=pattern",
            "--verify_pattern=0xdeadbeef"]
    j, err = job(c, d, base + ["--rw=write"])
    with open(path, "rb") as f:
        c.check(f.read(8) == bytes.fromhex("deadbeefdeadbeef"), "the pattern is on disk")
    corrupt(path, 8192 + 17, b"\x01")
    j, err = job(c, d, base + ["--rw=read", "--verify_only=1"], 1)
    c.check("at offset 8192" in err and "byte 17 is 0x01, the pattern has 0xad" in err,
            "pattern mismatch names the byte: %r" % err)


def check_bad_options(c, d):
    for args, text in (
            (["--verify=pattern"], "verify=pattern needs verify_pattern"),
            (["--verify=crc32c", "--verify_interval=32"], "must hold its 64-byte header"),
            (["--verify=crc32c", "--bs=8k", "--verify_interval=3k"], "does not divide"),
            (["--verify_only=1"], "needs verify="),
            (["--verify=crc32c", "--rw=trim"], "trimmed blocks"),
            (["--verify=crc99"], "'crc99' is not one of")):
        code, _, err = run(["--name=b", "--filename=b.dat", "--size=1m"] + args, cwd=d)
        c.check(code == 2 and text in err, "%s: exit %d %r" % (args, code, err))
    c.check(not os.path.exists(os.path.join(d, "b.dat")), "a bad verify job creates nothing")


def main():
    run_checks("verify", (
        check_engines, check_overlap_in_flight, check_corruption, check_pattern,
        check_bad_options))


if __name__ == "__main__":
    main()
