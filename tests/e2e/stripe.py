#!/usr/bin/env python3
"""Striping as md RAID0 does (filename=stripe:chunk=SIZE:A:B...): with every engine, what
lands in each member file is exactly what the mapping says (logical byte L on member
(L / chunk) mod n at (L / (chunk * n)) * chunk + L mod chunk), requests that cross chunks
are split and verify clean, and the disk stats count each member's parts and the stripe's
requests with md's aggr_* keys; bad stripes are job-file errors. As root with losetup, a
stripe over two loop devices is compared with one loop device on tmpfs, its members and
aggregate show in the disk stats, and the device checks refuse a member carrying a file
system signature; every loop device attached is detached, whatever happens."""
import json
import os
import re
import shutil
import subprocess

from common import Checks, engine_available, remove, run, scratch_dir

KIB = 1024
MIB = 1 << 20


def iojob_json(c, d, args, what):
    code, out, err = run(args + ["--output-format=json"], cwd=d)
    c.check(code == 0, "%s: exit %d: %s" % (what, code, err))
    try:
        return json.loads(out)
    except ValueError:
        c.check(False, "%s: no JSON document: %s" % (what, out[:500]))
        return None


def member_of(off, chunk, n):
    """Where logical byte off lives: (member, offset on it)."""
    return (off // chunk) % n, (off // (chunk * n)) * chunk + off % chunk


def parts(off, length, chunk, n):
    """The pieces a request is cut into: (member, member offset, length)."""
    out = []
    while length:
        piece = min(length, chunk - off % chunk)
        out.append(member_of(off, chunk, n) + (piece,))
        off += piece
        length -= piece
    return out


def make_members(d, names, size):
    for name in names:
        with open(os.path.join(d, name), "wb") as f:
            f.truncate(size)


def check_layout(c, d, names, chunk, plain, what):
    """Each member holds, chunk by chunk, the bytes of the plain file the mapping says."""
    with open(os.path.join(d, plain), "rb") as f:
        image = f.read()
    mem = []
    for name in names:
        with open(os.path.join(d, name), "rb") as f:
            mem.append(f.read())
    bad = []
    for off in range(0, len(image), chunk):
        k, moff = member_of(off, chunk, len(names))
        if mem[k][moff:moff + chunk] != image[off:off + chunk]:
            bad.append(off)
    c.check(not bad, "%s: %d of %d chunks are not where the mapping puts them (first at "
            "logical %s)" % (what, len(bad), len(image) // chunk, bad[:1]))
    c.check(image.count(0) < len(image) // 2, "%s: the plain file was written" % what)


def disk(doc, name):
    for e in (doc or {}).get("disk_util", []):
        if e["name"] == name:
            return e
    return None


def check_engines(c, d):
    """Sequential writes of 24k blocks over 16k chunks (every other request is cut in two)
    on 2, 3 or 4 member files, verified, compared byte for byte with a plain file that
    the same job wrote, and counted per member in the disk stats."""
    chunk, bs, member = 16 * KIB, 24 * KIB, MIB
    for n, eng in ((2, "psync"), (3, "sync"), (4, "libaio"), (3, "io_uring")):
        if not engine_available(eng):
            c.skip("%s not built" % eng)
            continue
        names = ["%s.m%d" % (eng, k) for k in range(n)]
        make_members(d, names, member)
        size = n * member // bs * bs
        common = ["--name=s", "--ioengine=" + eng, "--rw=write", "--bs=24k",
                  "--size=%d" % size, "--verify=crc32c", "--iodepth=1"]
        what = "%s over %d files" % (eng, n)
        doc = iojob_json(c, d, common + ["--filename=stripe:chunk=16k:" + ":".join(names)],
                         what)
        plain = eng + ".plain"
        make_members(d, [plain], n * member)
        iojob_json(c, d, common + ["--filename=" + plain], what + ", plain")
        check_layout(c, d, names, chunk, plain, what)
        if not doc:
            continue
        j = doc["jobs"][0]
        c.check(j["error"] == 0 and j["write"]["total_ios"] == size // bs,
                "%s: %d writes, verified" % (what, size // bs))
        want = [0] * n
        for off in range(0, size, bs):
            for k, _, _ in parts(off, bs, chunk, n):
                want[k] += 1
        got = [(disk(doc, m) or {}).get("write_ios") for m in names]
        c.check(got == want, "%s: member writes %s, the mapping says %s" % (what, got, want))
        top = disk(doc, "stripe0") or {}
        c.check(top.get("write_ios") == size // bs,
                "%s: stripe0 counts the %d requests: %s" % (what, size // bs, top))
        c.check(top.get("aggr_write_ios") == sum(want) // n,
                "%s: aggr_write_ios is the members' average: %s" % (what, top))
        reads = [(disk(doc, m) or {}).get("read_ios") for m in names]
        c.check(reads == want, "%s: the read-back reads each part: %s" % (what, reads))
        for name in names + [plain]:
            os.unlink(os.path.join(d, name))


def check_normal_report(c, d):
    """The normal report lists the stripe, with aggr*, and its members under it."""
    names = ["n0", "n1"]
    make_members(d, names, MIB)
    code, out, err = run(["--name=s", "--ioengine=psync", "--rw=randwrite", "--bs=64k",
                          "--filename=stripe:chunk=32k:n0:n1"], cwd=d)
    c.check(code == 0, "normal report: exit %d: %s" % (code, err))
    c.check(re.search(r"^    stripe0: ios=0/32, .*aggrios=0/32, ", out, re.M),
            "normal report: stripe0 line with its 32 writes and aggrios:\n" + out)
    for name in names:
        c.check(re.search(r"^  %s: ios=0/32, " % name, out, re.M),
                "normal report: member %s with 32 writes:\n%s" % (name, out))


def check_async_overlap(c, d):
    """Random writes, 16 in flight, verified: every block's verify header is where the
    mapping puts its logical offset."""
    chunk, bs, n = 8 * KIB, 12 * KIB, 3
    for eng in ("libaio", "io_uring"):
        if not engine_available(eng):
            continue
        names = ["a%d" % k for k in range(n)]
        make_members(d, names, 768 * KIB)
        size = n * 768 * KIB
        doc = iojob_json(c, d, ["--name=r", "--ioengine=" + eng, "--rw=randwrite",
                                "--bs=12k", "--iodepth=16", "--direct=1", "--verify=crc32c",
                                "--filename=stripe:chunk=8k:" + ":".join(names)],
                         eng + " randwrite")
        if doc:
            j = doc["jobs"][0]
            c.check(j["error"] == 0 and j["write"]["total_ios"] == size // bs,
                    "%s randwrite: every block written once and verified" % eng)
        mem = []
        for name in names:
            with open(os.path.join(d, name), "rb") as f:
                mem.append(f.read())
        bad = 0
        for off in range(0, size, bs):
            hdr = b"".join(mem[k][mo:mo + ln] for k, mo, ln in parts(off, 24, chunk, n))
            # fio's verify header: magic (2 bytes), type, length, seed, offset
            magic, length = int.from_bytes(hdr[0:2], "little"), hdr[4:8]
            offset = int.from_bytes(hdr[16:24], "little")
            bad += magic != 0xacca or int.from_bytes(length, "little") != bs or \
                offset != off
        c.check(bad == 0, "%s randwrite: %d blocks' headers are not where the mapping says"
                % (eng, bad))
        for name in names:
            os.unlink(os.path.join(d, name))


def check_null(c):
    """The null engine stripes virtual members: requests complete with their parts."""
    code, out, err = run(["--name=z", "--ioengine=null", "--rw=randread", "--bs=96k",
                          "--iodepth=8", "--size=48m", "--output-format=json",
                          "--filename=stripe:chunk=64k:x:y:z"])
    c.check(code == 0, "null stripe: exit %d: %s" % (code, err))
    if code == 0:
        j = json.loads(out)["jobs"][0]
        c.check(j["read"]["total_ios"] == 512, "null stripe: 512 reads: %s" % j["read"])


def check_errors(c, d):
    make_members(d, ["e0", "e1"], MIB)
    make_members(d, ["big"], 2 * MIB)
    cases = (
        ("filename=stripe:chunk=1000:e0:e1", "the chunk (1000 bytes) is not a multiple of 512"),
        ("filename=stripe:chunk=64k:e0", "a stripe needs at least 2 members, not 1"),
        ("filename=stripe:chunk=64k:e0:big", "stripe members 'e0' (1048576 bytes) and 'big' "
         "(2097152 bytes) differ in size"),
        ("filename=stripe:chunk=64k:e0:nope", "stripe member 'nope' does not exist"),
        ("filename=stripe:64k:e0:e1", "'stripe:' must be followed by chunk=SIZE"),
        ("filename=stripe:chunk=4q:e0:e1", "'4q' is not"),
        ("filename=e0:e1\nstripe_chunk=64k\nsize=4m", "option 'size': the stripe holds "
         "2097152 bytes"),
    )
    for body, want in cases:
        path = os.path.join(d, "bad.fio")
        with open(path, "w") as f:
            f.write("[bad]\nrw=write\n%s\n" % body)
        code, _, err = run(["bad.fio"], cwd=d)
        line = 3 + body.count("\n") if "size=" in body else 3
        prefix = "iojob: bad.fio:%d: job 'bad': " % line
        c.check(code == 2 and prefix in err and want in err,
                "%r: exit %d, want 2 and %r%r: %s" % (body, code, prefix, want, err))


def losetup(path):
    p = subprocess.run(["losetup", "--direct-io=on", "-f", "--show", path],
                       capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError("losetup %s: %s" % (path, p.stderr))
    return p.stdout.strip()


def check_loop_devices(c, d):
    """Two loop devices on disk files striped, against one loop device on a tmpfs file."""
    if os.geteuid() != 0 or not shutil.which("losetup") or not os.path.isdir("/dev/shm"):
        c.skip("loop devices: needs root, losetup and /dev/shm")
        return
    size = 64 * MIB
    backing = [os.path.join(d, "loop%d.img" % k) for k in range(2)]
    shm = os.path.join("/dev/shm", "iojob-e2e-stripe-%d.img" % os.getpid())
    for path in backing + [shm]:
        with open(path, "wb") as f:
            f.truncate(size)
    # a swap signature (util-linux's mkswap, always there): the member looks in use
    subprocess.run(["mkswap", backing[1]], capture_output=True, check=True,
                   env=dict(os.environ, PATH=os.environ["PATH"] + ":/usr/sbin:/sbin"))
    attached = []
    try:
        for path in backing + [shm]:
            attached.append(losetup(path))
        loops = attached[:2]
        stripe = "stripe:chunk=64k:" + ":".join(loops)
        code, _, err = run(["--name=w", "--rw=write", "--filename=" + stripe, "--size=1m"])
        c.check(code != 0 and "refusing to write to '%s'" % loops[1] in err and
                "swap at byte" in err, "a member with a signature is refused: %d %s" % (code, err))
        doc = iojob_json(c, d, ["--name=w", "--rw=write", "--bs=96k", "--direct=1",
                                "--ioengine=libaio", "--iodepth=8", "--verify=crc32c",
                                "--allow_overwrite_signatures=1", "--filename=" + stripe],
                         "loop stripe write")
        if doc:
            c.check(doc["jobs"][0]["error"] == 0, "loop stripe: written and verified")
        with open(backing[0], "rb") as f0, open(backing[1], "rb") as f1:
            mem = [f0.read(), f1.read()]
        bad = sum(1 for off in range(0, 2 * size // (96 * KIB) * 96 * KIB, 96 * KIB)
                  if int.from_bytes(b"".join(mem[k][mo:mo + ln] for k, mo, ln in
                                             parts(off, 24, 64 * KIB, 2))[16:24],
                                    "little") != off)
        c.check(bad == 0, "loop stripe: %d block headers are off the mapping" % bad)
        read = ["--rw=randread", "--bs=4k", "--direct=1", "--ioengine=libaio",
                "--iodepth=16", "--runtime=2", "--time_based"]
        striped = iojob_json(c, d, ["--name=stripe"] + read + ["--filename=" + stripe],
                             "loop stripe randread")
        single = iojob_json(c, d, ["--name=single"] + read + ["--filename=" + attached[2]],
                            "tmpfs loop randread")
        if not striped or not single:
            return
        iops = [x["jobs"][0]["read"]["iops"] for x in (striped, single)]
        print("randread 4k iodepth 16: stripe over 2 loop devices %.0f IOPS, one loop "
              "device on tmpfs %.0f IOPS" % tuple(iops))
        c.check(min(iops) > 0, "both did reads: %s" % iops)
        top = disk(striped, "stripe0") or {}
        names = [os.path.basename(x) for x in loops]
        members = [disk(striped, x) or {} for x in names]
        c.check("aggr_read_ios" in top and top.get("read_ios", 0) > 0,
                "loop stripe: stripe0 with its reads and aggr_*: %s" % top)
        c.check(all(m.get("read_ios", 0) > top.get("read_ios", 0) // 4 for m in members),
                "loop stripe: both members %s did about half the reads: %s of %s" %
                (names, [m.get("read_ios") for m in members], top.get("read_ios")))
        c.check(top.get("aggr_read_ios") == sum(m.get("read_ios", 0) for m in members) // 2,
                "loop stripe: aggr_read_ios is the members' average")
        one = os.path.basename(attached[2])
        c.check((disk(single, one) or {}).get("read_ios", 0) > 0,
                "tmpfs loop: %s in the disk stats" % one)
    finally:
        for dev in attached:
            subprocess.run(["losetup", "-d", dev])
        os.unlink(shm)


def main():
    c = Checks("stripe")
    d = scratch_dir()
    try:
        check_engines(c, d)
        check_normal_report(c, d)
        check_async_overlap(c, d)
        check_null(c)
        check_errors(c, d)
        check_loop_devices(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
