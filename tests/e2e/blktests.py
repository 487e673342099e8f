#!/usr/bin/env python3
"""What blktests' common/fio needs beyond the version and terse v4: --cmdhelp=zonemode names
zbd (_have_fio_zbd_zonemode greps for it) and zonemode=strided/zbd are refused, not ignored;
a writing verify job leaves local-NAME-N-verify.state (fio's format) in the cwd as fio does,
verify_state_save=0 (which _run_fio_verify_io passes) leaves none, and verify_state_load=1
makes verify_only check only what it lists; a loop device over a file on a disk is reported
alone, as fio 3.33 does (JSON disk_util, terse, normal report), not with the disk under its
backing file. The loop checks need root and losetup, else they skip; every loop device
attached is detached."""
import json
import os
import shutil
import struct
import subprocess

from common import Checks, remove, run, scratch_dir

MIB = 1 << 20


def check_zonemode(c, d):
    code, out, err = run(["--cmdhelp=zonemode"])
    c.check(code == 0 and all(v in out for v in ("none", "strided", "zbd")),
            "--cmdhelp=zonemode lists none, strided and zbd: %d %r %r" % (code, out, err))
    for mode in ("zbd", "strided"):
        code, out, err = run(["--name=z", "--ioengine=null", "--size=1m",
                              "--zonemode=" + mode])
        c.check(code == 2 and "option 'zonemode'" in err and mode in err,
                "zonemode=%s refused with exit 2: %d %r" % (mode, code, err))
    code, out, err = run(["--name=z", "--ioengine=null", "--size=1m", "--zonemode=none",
                          "--output-format=json"])
    c.check(code == 0 and json.loads(out)["jobs"][0]["error"] == 0,
            "zonemode=none runs: %d %r" % (code, err))
    code, _, err = run(["--name=z", "--ioengine=null", "--size=1m", "--zonemode=zones"])
    c.check(code == 2 and "zonemode" in err, "zonemode=zones refused: %d %r" % (code, err))


def states(d):
    return sorted(x for x in os.listdir(d) if x.endswith("-verify.state"))


def check_verify_state(c, d):
    base = ["--size=64k", "--bs=4k", "--verify=crc32c"]
    code, _, err = run(["--name=v", "--rw=randwrite", "--number_ios=10", "--numjobs=2"] + base,
                       cwd=d)
    base.append("--filename=v.dat")
    got = states(d)
    c.check(code == 0 and got == ["local-v-0-verify.state", "local-v-1-verify.state"],
            "a writing verify job leaves one state file per clone: %d %s %r" % (code, got, err))
    if got:
        with open(os.path.join(d, got[0]), "rb") as f:
            data = f.read()
        # fio's verify-state.h: a 24-byte header (version 3), then the job's list
        version, size = struct.unpack_from("<QQ", data)
        comps, depth, nofiles, numberio, index = struct.unpack_from("<QIIQQ", data, 24)
        name = data[24 + 88:24 + 152].split(b"\0")[0]
        c.check(version == 3 and size == len(data) - 24 and name == b"v" and index == 0 and
                depth == 1 and nofiles == 1 and numberio == 10 and comps == 1,
                "the state file is fio's: version %d, %d IOs, depth %d, %d completions, "
                "job %r" % (version, numberio, depth, comps, name))
    for path in got:
        os.unlink(os.path.join(d, path))
    code, _, err = run(["--name=v", "--rw=randwrite", "--verify_state_save=0"] + base, cwd=d)
    c.check(code == 0 and states(d) == [], "verify_state_save=0: no state file: %d %s %r" %
            (code, states(d), err))
    code, _, err = run(["--name=v", "--rw=read"] + base + ["--verify_only"], cwd=d)
    c.check(code == 0 and states(d) == [], "a job that only reads leaves no state file: "
            "%d %s %r" % (code, states(d), err))
    code, _, err = run(["--name=v", "--rw=write", "--filename=w.dat", "--size=64k"], cwd=d)
    c.check(code == 0 and states(d) == [], "a job that does not verify leaves no state "
            "file: %d %s %r" % (code, states(d), err))
    # --aux-path: the state files go there, and verify_state_load reads them from there
    aux = os.path.join(d, "aux")
    os.mkdir(aux)
    code, _, err = run(["--aux-path", aux, "--name=v", "--rw=write"] + base, cwd=d)
    c.check(code == 0 and states(d) == [] and states(aux) == ["local-v-0-verify.state"],
            "--aux-path DIR holds the state file: %d %s %s %r" %
            (code, states(d), states(aux), err))
    code, _, err = run(["--aux-path", aux, "--name=v", "--rw=read", "--verify_only",
                        "--verify_state_load=1"] + base, cwd=d)
    c.check(code == 0, "verify_state_load=1 reads the state from --aux-path: %d %r" %
            (code, err))


def check_verify_state_load(c, d):
    """verify_only checks every chunk; with verify_state_load=1, only those written."""
    job = ["--name=s", "--filename=s.dat", "--size=64k", "--bs=4k", "--verify=crc32c"]
    code, _, err = run(job + ["--rw=write", "--number_ios=5", "--do_verify=0"], cwd=d)
    c.check(code == 0, "5 writes: %d %r" % (code, err))
    code, _, err = run(job + ["--rw=read", "--verify_only"], cwd=d)
    c.check(code == 1 and "never written" in err,
            "verify_only without the state: the unwritten chunks fail: %d %r" % (code, err))
    code, out, err = run(job + ["--rw=read", "--verify_only", "--verify_state_load=1",
                                "--output-format=json"], cwd=d)
    read = json.loads(out)["jobs"][0]["read"] if code == 0 else {}
    c.check(code == 0 and read.get("total_ios") == 5,
            "verify_state_load=1: only the written chunks are read and pass: %d %s %r" %
            (code, read.get("total_ios"), err))
    # random writes: the replay issues them again in their order, as fio does
    rjob = ["--name=r", "--filename=r.dat", "--size=64k", "--bs=4k", "--verify=crc32c",
            "--rw=randwrite"]
    code, _, err = run(rjob + ["--number_ios=7", "--do_verify=0"], cwd=d)
    code, out, err = run(rjob + ["--verify_only", "--verify_state_load=1",
                                 "--output-format=json"], cwd=d)
    read = json.loads(out)["jobs"][0]["read"] if code == 0 else {}
    c.check(code == 0 and read.get("total_ios") == 7,
            "verify_state_load=1 replays 7 random writes: %d %s %r" %
            (code, read.get("total_ios"), err))
    with open(os.path.join(d, "local-s-0-verify.state"), "r+b") as f:
        f.seek(40)
        f.write(b"\x07")
    code, _, err = run(job + ["--rw=read", "--verify_only", "--verify_state_load=1"], cwd=d)
    c.check(code == 1 and "verify_state_load" in err and "corrupt" in err,
            "a corrupt state file fails the job: %d %r" % (code, err))
    code, _, err = run(["--name=none", "--filename=s.dat", "--size=64k", "--verify=crc32c",
                        "--rw=read", "--verify_only", "--verify_state_load=1"], cwd=d)
    c.check(code == 1 and "local-none-0-verify.state" in err,
            "no state file fails the job, naming it: %d %r" % (code, err))
    code, _, err = run(job + ["--rw=write", "--verify_state_load=1"], cwd=d)
    c.check(code == 2 and "option 'verify_state_load' needs verify_only" in err,
            "verify_state_load without verify_only is refused: %d %r" % (code, err))


def check_loop_alone(c, d):
    if os.geteuid() != 0 or not shutil.which("losetup"):
        c.skip("loop device disk stats: needs root and losetup")
        return
    img = os.path.join(d, "loop.img")
    with open(img, "wb") as f:
        f.truncate(16 * MIB)
    dev = subprocess.run(["losetup", "-f", "--show", img], capture_output=True, text=True)
    if dev.returncode != 0:
        c.skip("loop device disk stats: losetup: " + dev.stderr.strip())
        return
    loop = dev.stdout.strip()
    name = os.path.basename(loop)
    try:
        job = ["--name=l", "--filename=" + loop, "--rw=write", "--bs=4k", "--size=1m",
               "--direct=1"]
        code, out, err = run(job + ["--output-format=json"])
        disks = [x["name"] for x in json.loads(out).get("disk_util", [])] if code == 0 else []
        c.check(disks == [name], "JSON disk_util of a loop device over a file is it alone "
                "(fio 3.33): %s %r" % (disks, err))
        if code == 0:
            entry = json.loads(out)["disk_util"][0]
            c.check(entry["write_ios"] > 0 and not any(k.startswith("aggr") for k in entry),
                    "%s: its writes, no aggr_* keys: %s" % (name, entry))
        code, out, err = run(job + ["--output-format=terse"])
        fields = out.strip().split(";")
        c.check(code == 0 and fields[-9] == name and "slaves" not in fields,
                "terse: one disk, %s, no slaves part: %r" % (name, out[-200:]))
        code, out, err = run(job)
        c.check(code == 0 and "  %s: ios=" % name in out and "aggrios" not in out,
                "normal report: %s alone: %r" % (name, out[-300:]))
    finally:
        subprocess.run(["losetup", "-d", loop])


def main():
    c = Checks("blktests")
    d = scratch_dir()
    try:
        check_zonemode(c, d)
        check_verify_state(c, d)
        check_verify_state_load(c, d)
        check_loop_alone(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
