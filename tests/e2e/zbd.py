#!/usr/bin/env python3
"""zonemode=zbd on files and loop devices, whose zones iojob emulates as fio 3.33 does
(issue 31, item 3). Each job writes its I/Os with write_iolog; a model of the zones replays
the log and checks what zbd promises: every write at its zone's write pointer, or at the
zone's start after a reset; no write past a zone's capacity; every read below a write
pointer; at most max_open_zones zones open. The resets the model counts are the ones the
report gives. Where fio is installed, fio's own log of the same job passes the same model,
its reset count is iojob's where the job makes it one (sequential jobs, full random
passes), and the sequential jobs' offsets are fio's, write for write."""
import json
import os
import re
import shutil
import subprocess

from common import BIN, Checks, run, run_job_file, scratch_dir, traced_env

K = 1024
M = 1024 * K
SIZE = 8 * M
ZONE = M


def remove(path):
    """Remove a file, if there is one (a log is appended to, as fio appends)."""
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


def read_log(path):
    """[(dir, offset, len)] of a write_iolog (fio's version 3 format, iojob's too)."""
    rows = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) == 5 and w[2] in ("read", "write", "trim"):
                rows.append((w[2], int(w[3]), int(w[4])))
    return rows


def model(rows, zone=ZONE, cap=None, max_open=0, beyond_wp=False, start_wps=None):
    """Replay rows on emulated zones: (resets, errors, most open at once, write pointers)."""
    cap = cap or zone
    wp = dict(start_wps or {})
    opened, most, resets, errors = set(), 0, 0, []
    for i, (d, off, n) in enumerate(rows):
        z = off // zone
        start = z * zone
        at = wp.get(z, start)
        if d == "trim":
            resets += at != start
            wp[z] = start
            continue
        if d == "read":
            if not beyond_wp and off + n > at:
                errors.append("I/O %d: read %d+%d past zone %d's write pointer %d" %
                              (i, off, n, z, at))
            continue
        if off == at and at != start + cap:
            pass
        elif off == start and at != start:
            resets += 1
            at = start
        else:
            errors.append("I/O %d: write at %d, zone %d's write pointer is %d" % (i, off, z, at))
            continue
        if off + n > start + cap:
            errors.append("I/O %d: write %d+%d past zone %d's capacity" % (i, off, n, z))
        wp[z] = off + n
        if max_open:
            opened.add(z)
            most = max(most, len(opened))
            if wp[z] >= start + cap:
                opened.discard(z)
    return resets, errors, most, wp


def iojob(c, d, name, args, log=True):
    """Run iojob with write_iolog; (rows, zone resets from JSON, JSON job) or None."""
    path = os.path.join(d, name + ".log")
    code, out, err = run(["--name=" + name, "--filename=z.dat", "--ioengine=psync",
                          "--zonemode=zbd", "--output-format=json",
                          "--write_iolog=" + path] + args, cwd=d)
    c.check(code == 0, "%s %s: exit %d %s" % (name, args, code, err.strip()))
    if code:
        return None
    job = json.loads(out)["jobs"][0]
    rows = read_log(path)
    remove(path)
    return rows, job.get("zone_resets"), job


def fio(d, name, args):
    """fio 3.33's log of the job and the resets of its normal report, or None."""
    if not shutil.which("fio"):
        return None
    path = os.path.join(d, name + ".fio.log")
    p = subprocess.run(["fio", "--name=" + name, "--filename=z.dat", "--ioengine=psync",
                        "--zonemode=zbd", "--write_iolog=" + path] + args, cwd=d,
                       capture_output=True, text=True)
    if p.returncode:
        return None
    m = re.search(r"write: .*; (\d+) zone resets", p.stdout)
    rows = read_log(path)
    remove(path)
    return rows, int(m.group(1)) if m else None


def fresh(d, size=SIZE):
    """A new file of size bytes: emulated zones start empty, as fio's."""
    path = os.path.join(d, "z.dat")
    remove(path)
    with open(path, "wb") as f:
        f.truncate(size)


def both(c, d, name, args, same_offsets=False, same_resets=False, **kw):
    """The job under iojob and fio, each log checked with the model; the rows of iojob's."""
    fresh(d)
    got = iojob(c, d, name, args)
    if not got:
        return None
    rows, resets, _ = got
    n, errors, most, _ = model(rows, **kw)
    c.check(not errors, "%s %s: iojob's I/O breaks the zones: %s" % (name, args, errors[:3]))
    c.check(n == resets, "%s: the report's %s zone resets are the log's %d" % (name, resets, n))
    if kw.get("max_open"):
        c.check(most <= kw["max_open"], "%s: %d zones open at once, max_open_zones=%d" %
                (name, most, kw["max_open"]))
    fresh(d)
    want = fio(d, name, args)
    if want is None:
        c.skip("fio not installed: %s not compared with fio" % name)
        return rows
    frows, fresets = want
    fn, ferrors, _, _ = model(frows, **kw)
    c.check(not ferrors and fn == fresets,
            "%s: the model reads fio's log as fio reports it: %d resets (fio: %s), %s" %
            (name, fn, fresets, ferrors[:3]))
    if same_resets:
        c.check(resets == fresets, "%s: %s zone resets, fio %s" % (name, resets, fresets))
    if same_offsets:
        c.check(rows == frows, "%s: the I/Os are fio's\n  iojob %s\n  fio   %s" %
                (name, rows[:12], frows[:12]))
    return rows


def check_sequential(c, d):
    """Sequential writes, their wraps, capacity and zone resets: fio's, I/O for I/O."""
    rows = both(c, d, "seq", ["--rw=write", "--bs=64k", "--size=8M", "--zonesize=1M",
                              "--io_size=12M"], same_offsets=True, same_resets=True)
    c.check(rows is not None and len(rows) == 192, "seq: 12 MiB in 64k writes")
    both(c, d, "cap", ["--rw=write", "--bs=64k", "--size=8M", "--zonesize=1M",
                       "--zonecapacity=768k"], same_offsets=True, same_resets=True, cap=768 * K)
    rows = both(c, d, "cap2", ["--rw=write", "--bs=64k", "--size=8M", "--zonesize=1M",
                               "--zonecapacity=768k", "--io_size=16M"], same_offsets=True,
                same_resets=True, cap=768 * K)
    c.check(rows is not None and all(o % ZONE < 768 * K for _, o, _ in rows),
            "cap2: nothing written past a zone's capacity")
    # every write resets its zone first (threshold 0, frequency 1): all land at zone 0
    rows = both(c, d, "freq", ["--rw=write", "--bs=64k", "--size=8M", "--zonesize=1M",
                               "--zone_reset_threshold=0", "--zone_reset_frequency=1"],
                same_offsets=True, same_resets=True)
    c.check(rows is not None and {o for _, o, _ in rows} == {0},
            "freq: each write resets zone 0 and goes to its start")
    # past half the region written, one write in 4 resets its zone first
    both(c, d, "half", ["--rw=write", "--bs=64k", "--size=8M", "--zonesize=1M",
                        "--io_size=16M", "--zone_reset_threshold=0.5",
                        "--zone_reset_frequency=0.25"], same_offsets=True, same_resets=True)


def check_random(c, d):
    """Random writes go to write pointers; full passes reset each zone once per pass."""
    rows = both(c, d, "rand2", ["--rw=randwrite", "--bs=4k", "--size=8M", "--zonesize=1M",
                                "--io_size=16M"], same_resets=True)
    c.check(rows is not None and len(rows) == 4096, "rand2: 16 MiB of 4k writes")
    both(c, d, "randnomap", ["--rw=randwrite", "--bs=16k", "--size=8M", "--zonesize=1M",
                             "--io_size=24M", "--norandommap"])
    for limit in (1, 3):
        both(c, d, "open%d" % limit, ["--rw=randwrite", "--bs=16k", "--size=8M",
                                      "--zonesize=1M", "--io_size=24M",
                                      "--max_open_zones=%d" % limit], max_open=limit)
    both(c, d, "randrw", ["--rw=randrw", "--bs=16k", "--size=8M", "--zonesize=1M",
                          "--io_size=16M"])


def check_read_after_write(c, d):
    """A later job reads what an earlier one wrote: the zones are the run's, as fio's."""
    fresh(d)
    text = ("[global]\nfilename=z.dat\nsize=8M\nzonemode=zbd\nzonesize=1M\nbs=64k\n"
            "ioengine=psync\n[w]\nrw=write\nio_size=2560k\n[r]\nstonewall\nrw=read\n"
            "[rr]\nstonewall\nrw=randread\nio_size=4M\nwrite_iolog=rr.log\n")
    code, out, err = run_job_file(d, "rw.fio", text, ["--output-format=json"])
    c.check(code == 0, "rw.fio: exit %d %s" % (code, err))
    if code:
        return
    jobs = {j["jobname"]: j for j in json.loads(out)["jobs"]}
    c.check(jobs["r"]["read"]["io_bytes"] == 2560 * K,
            "rw.fio: the read job reads the 2.5 MiB written, no more: %d" %
            jobs["r"]["read"]["io_bytes"])
    rows = read_log(os.path.join(d, "rr.log"))
    _, errors, _, _ = model(rows, start_wps={0: ZONE, 1: 2 * ZONE, 2: 2 * ZONE + 512 * K})
    c.check(len(rows) == 64 and not errors,
            "rw.fio: the random reads stay below the write pointers: %d %s" %
            (len(rows), errors[:3]))
    c.check("zone_resets" in jobs["w"] and "zone_resets" not in jobs["r"],
            "JSON zone_resets for the writing job only: %s" %
            [sorted(k for k in j if "zone" in k) for j in jobs.values()])
    fresh(d)
    got = iojob(c, d, "ro", ["--rw=read", "--bs=64k", "--size=8M", "--zonesize=1M"])
    c.check(got is not None and not got[0],
            "rw=read on empty zones reads nothing, as fio")
    got = iojob(c, d, "beyond", ["--rw=read", "--bs=64k", "--size=8M", "--zonesize=1M",
                                 "--read_beyond_wp=1"])
    c.check(got is not None and len(got[0]) == 128,
            "read_beyond_wp=1 reads the whole region: %s" % (got and len(got[0])))


def check_trims(c, d):
    """A trim resets the zone it names, sends nothing, and a random one finds data."""
    fresh(d)
    text = ("[global]\nfilename=z.dat\nsize=8M\nzonemode=zbd\nzonesize=1M\n"
            "ioengine=psync\n[w]\nrw=write\nbs=64k\nio_size=6M\n[t]\nstonewall\n"
            "rw=trim\nbs=1M\nsize=4M\nwrite_iolog=t.log\n[rt]\nstonewall\n"
            "rw=randtrim\nbs=1M\nwrite_iolog=rt.log\n[r]\nstonewall\nrw=read\n"
            "bs=64k\n")
    code, out, err = run_job_file(d, "trim.fio", text, ["--output-format=json"])
    c.check(code == 0, "trim.fio: exit %d %s" % (code, err))
    if code:
        return
    jobs = {j["jobname"]: j for j in json.loads(out)["jobs"]}
    seq = [o // ZONE for _, o, _ in read_log(os.path.join(d, "t.log"))]
    rnd = sorted(o // ZONE for _, o, _ in read_log(os.path.join(d, "rt.log")))
    c.check(seq == [0, 1, 2, 3] and jobs["t"]["zone_resets"] == 4,
            "rw=trim resets zones 0-3: %s, %s resets" % (seq, jobs["t"]["zone_resets"]))
    c.check(rnd == [4, 5] and jobs["rt"]["zone_resets"] == 2,
            "rw=randtrim finds the zones left with data (4, 5) and ends: %s, %s resets" %
            (rnd, jobs["rt"]["zone_resets"]))
    c.check(jobs["r"]["read"]["io_bytes"] == 0,
            "nothing is left to read: %d" % jobs["r"]["read"]["io_bytes"])
    if shutil.which("strace"):
        remove(os.path.join(d, "t.log"))
        remove(os.path.join(d, "rt.log"))
        p = subprocess.run(["strace", "-f", "-e", "trace=fallocate,ioctl", BIN, "trim.fio",
                            "--output=/dev/null"], cwd=d, capture_output=True, text=True,
                           env=traced_env())
        c.check(p.returncode == 0 and "fallocate" not in p.stderr and
                "DISCARD" not in p.stderr, "an emulated zone's reset sends nothing: %d %s" %
                (p.returncode, [l for l in p.stderr.splitlines()
                                if "fallocate" in l or "rror" in l][:3]))
    if shutil.which("fio"):
        fresh(d)
        remove(os.path.join(d, "t.log"))
        remove(os.path.join(d, "rt.log"))
        p = subprocess.run(["fio", "trim.fio", "--output-format=json"], cwd=d,
                           capture_output=True, text=True)
        fseq = [o // ZONE for _, o, _ in read_log(os.path.join(d, "t.log"))]
        frnd = sorted(o // ZONE for _, o, _ in read_log(os.path.join(d, "rt.log")))
        c.check(p.returncode == 0 and fseq == seq and frnd == rnd,
                "fio trims the same zones: %s %s" % (fseq, frnd))


def check_region(c, d):
    """A writing job's region is rounded to whole zones, with fio's figures in a note."""
    fresh(d)
    rows = both(c, d, "align", ["--rw=write", "--bs=64k", "--offset=1536k", "--size=4M",
                                "--zonesize=1M"], same_offsets=True)
    c.check(rows is not None and rows[0][1] == 2 * ZONE and rows[-1][1] < 5 * ZONE,
            "align: offset up to 2 MiB, size down to 3 MiB: %s" % (rows and rows[-1:]))
    code, out, err = run(["--name=n", "--filename=z.dat", "--zonemode=zbd", "--zonesize=1M",
                          "--rw=write", "--bs=64k", "--offset=1536k", "--size=4M"], cwd=d)
    c.check(code == 0 and "rounded up from 1572864 to 2097152" in err and
            "rounded down from 3670016 to 3145728" in err, "align notes: %r" % err)
    c.check(re.search(r"write: .*; 0 zone resets\n", out) is not None,
            "the write line ends with the zone resets: %r" % out)


def check_limits(c, d):
    """job_max_open_zones bounds each job's open zones; numjobs share the file's zones."""
    fresh(d)
    text = ("[global]\nfilename=z.dat\nsize=8M\nzonemode=zbd\nzonesize=1M\nbs=16k\n"
            "ioengine=psync\nrw=randwrite\nio_size=4M\nmax_open_zones=4\n"
            "job_max_open_zones=2\n[w]\nnumjobs=2\ngroup_reporting\n")
    code, out, err = run_job_file(d, "jobs.fio", text, ["--output-format=json"])
    c.check(code == 0, "jobs.fio: exit %d %s" % (code, err))
    if not code:
        j = json.loads(out)["jobs"][0]
        c.check(j["write"]["io_bytes"] == 8 * M and j["zone_resets"] >= 0,
                "jobs.fio: both jobs write their 4 MiB: %d" % j["write"]["io_bytes"])


def run_file(d, text, tool):
    """A job file under iojob (or fio): {job: (read bytes, written bytes, resets)}."""
    job = os.path.join(d, "case.fio")
    with open(job, "w") as f:
        f.write(text)
    cmd = ([BIN] if tool == "iojob" else ["fio"]) + [job, "--output-format=json"]
    p = subprocess.run(cmd, cwd=d, capture_output=True, text=True)
    if p.returncode:
        return None
    out = p.stdout[p.stdout.index("{"):]
    return {j["jobname"]: (j["read"]["io_bytes"], j["write"]["io_bytes"], j.get("zone_resets"))
            for j in json.loads(out)["jobs"]}


def check_jobs_share(c, d):
    """What one job leaves, the next finds: a read over two files moves on from the one
    with nothing written; a later job counts data over its own zones for its threshold."""
    cases = (
        ("files", "[global]\nzonemode=zbd\nzonesize=1M\nbs=64k\n[w]\nfilename=b.dat\n"
                  "rw=write\nsize=1M\n[r]\nstonewall\nfilename=a.dat:b.dat\nrw=read\n"
                  "size=2M\n", {"r": (M, 0)}),
        ("threshold", "[global]\nfilename=z.dat\nzonemode=zbd\nzonesize=1M\nbs=64k\n"
                      "[w]\nrw=write\nsize=4M\n[t]\nstonewall\nrw=write\noffset=4M\n"
                      "size=4M\nzone_reset_threshold=0.5\nzone_reset_frequency=1\n",
         {"t": (0, 4 * M)}),
        ("budget", "[global]\nfilename=z.dat\nzonemode=zbd\nzonesize=1M\nbs=16k\n[r]\n"
                   "rw=randwrite\nnorandommap\noffset=1536k\nsize=4M\n", {"r": (0, 4 * M)}))
    ours = {}
    for name, text, want in cases:
        got = {}
        for tool in ("iojob", "fio"):
            if tool == "fio" and not shutil.which("fio"):
                c.skip("fio not installed: %s not compared" % name)
                continue
            fresh(d)
            for extra in ("a.dat", "b.dat"):
                with open(os.path.join(d, extra), "wb") as f:
                    f.truncate(M)
            got[tool] = run_file(d, text, tool)
        res = ours[name] = got.get("iojob")
        c.check(res is not None and all(res[k][:2] == v for k, v in want.items()),
                "%s: %s, want %s" % (name, res, want))
        if "fio" in got and res:
            fio_res = got["fio"]
            c.check(fio_res is not None and all(fio_res[k][:2] == res[k][:2] for k in want),
                    "%s: fio's bytes are iojob's: %s %s" % (name, fio_res, res))
    # past 2 MiB of its 4, each write resets its zone first: zone 6 is written at its start
    # 32 times, 31 of them resetting it (fio 3.33's count too)
    res = ours["threshold"]
    c.check(res is not None and res["t"][2] == 31, "threshold: 31 zone resets: %s" % res)


def check_errors(c, d):
    """What fio refuses, refused before any data is touched (exit 2, the option named)."""
    fresh(d, 4 * M)
    base = ["--name=e", "--filename=z.dat", "--zonemode=zbd", "--size=4M", "--rw=write"]
    for args, opt in ((["--bs=4k"], "zonemode"),
                      (["--zonesize=1M", "--zonecapacity=2M"], "zonecapacity"),
                      (["--zonesize=1M", "--job_max_open_zones=1"], "job_max_open_zones"),
                      (["--zonesize=1M", "--create_serialize=0"], "create_serialize"),
                      (["--zonesize=64k", "--bs=128k"], "bs"),
                      (["--zonesize=96k", "--bs=64k", "--verify=crc32c"], "bs"),
                      (["--zonesize=1M", "--zoneskip=512k"], "zoneskip"),
                      (["--zonesize=1M", "--rw=trim", "--bs=64k"], "bs"),
                      (["--zonesize=1M", "--rw=trim", "--bsrange=512k-1M"], "bs"),
                      (["--zonesize=1M", "--zone_reset_threshold=2"], "zone_reset_threshold"),
                      (["--zonesize=8M"], "zone")):
        before = os.stat(os.path.join(d, "z.dat"))
        code, _, err = run(base + args, cwd=d)
        c.check(code == 2 and opt in err, "%s refused naming %s: %d %r" % (args, opt, code, err))
        after = os.stat(os.path.join(d, "z.dat"))
        c.check(after.st_mtime_ns == before.st_mtime_ns, "%s: z.dat untouched" % args)
    code, _, err = run(["--name=e", "--filename=z.dat", "--size=1M", "--rw=read",
                        "--max_open_zones=2", "--output=/dev/null"], cwd=d)
    c.check(code == 0 and "max_open_zones acts with zonemode=zbd only" in err,
            "a zbd option without zonemode=zbd is said to do nothing: %r" % err)


def check_verify(c, d):
    """verify: the zones are emptied first, every write read back, none reset mid-run."""
    fresh(d)
    got = iojob(c, d, "ver", ["--rw=randwrite", "--bs=16k", "--size=8M", "--zonesize=1M",
                              "--verify=crc32c", "--max_open_zones=2"])
    if got:
        rows, resets, job = got
        _, errors, most, _ = model([r for r in rows if r[0] == "write"], max_open=2)
        c.check(not errors and resets == 0 and most <= 2 and
                job["read"]["io_bytes"] == job["write"]["io_bytes"] == 8 * M,
                "ver: 8 MiB written at write pointers and verified: %s %s" %
                (errors[:2], job["read"]["io_bytes"]))


def check_loop_device(c, d):
    """On a loop device (not zoned: queue/zoned is none) the zones are emulated too."""
    if os.geteuid() != 0 or not shutil.which("losetup"):
        c.skip("loop device: needs root and losetup")
        return
    back = os.path.join(d, "back.img")
    with open(back, "wb") as f:
        f.truncate(SIZE)
    p = subprocess.run(["losetup", "-f", "--show", back], capture_output=True, text=True)
    if p.returncode:
        c.skip("losetup: %s" % p.stderr.strip())
        return
    dev = p.stdout.strip()
    try:
        log = os.path.join(d, "dev.log")
        code, out, err = run(["--name=dev", "--filename=" + dev, "--zonemode=zbd",
                              "--zonesize=1M", "--rw=write", "--bs=64k", "--io_size=12M",
                              "--direct=1", "--write_iolog=" + log, "--output-format=json"],
                             cwd=d)
        c.check(code == 0, "loop device: exit %d %s" % (code, err))
        if not code:
            rows = read_log(log)
            n, errors, _, _ = model(rows)
            c.check(not errors and n == 4 == json.loads(out)["jobs"][0]["zone_resets"],
                    "loop device: 12 MiB over 8 zones resets 4: %d %s" % (n, errors[:2]))
    finally:
        subprocess.run(["losetup", "-d", dev])


def main():
    c = Checks("zbd")
    d = scratch_dir()
    try:
        check_sequential(c, d)
        check_random(c, d)
        check_read_after_write(c, d)
        check_trims(c, d)
        check_region(c, d)
        check_limits(c, d)
        check_jobs_share(c, d)
        check_errors(c, d)
        check_verify(c, d)
        check_loop_device(c, d)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return c.finish()


if __name__ == "__main__":
    raise SystemExit(main())
