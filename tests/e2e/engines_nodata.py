#!/usr/bin/env python3
"""Issue 16: the engines that move no data, checked by what they leave behind.

The metadata engines (filecreate, filestat, filedelete, dircreate, dirstat, dirdelete)
create, look up and remove exactly the files and directories the JSON report counts, under
the names nrfiles= and filename_format= give, counted as reads (or writes with rw=write),
one I/O per block as fio counts them; filestat's stat_type is seen in the system calls the
job's thread makes (strace). falloc allocates blocks (st_blocks) for reads and writes and
punches holes for trims (SEEK_HOLE/SEEK_DATA); ftruncate leaves the file at the last
write's offset. cpuio runs no faster than its cycles allow and busies the CPU in step with
cpuload; exec runs the program with %r and %n replaced, sends its output where
std_redirect says, and ends it (SIGTERM, then SIGKILL after grace_time). verify= and the
directions an engine cannot do are refused before any I/O. Where fio is installed, the same
metadata jobs run under it and the counts agree.
"""
import json
import os
import re
import resource
import shutil
import subprocess

from common import Checks, remove, run, scratch_dir, traced_env

FIO = shutil.which("fio")


def run_json(args, cwd):
    """iojob with args and JSON output: (exit, the first job's report or None, stderr)."""
    code, out, err = run(["--output-format=json"] + args, cwd=cwd)
    try:
        return code, json.loads(out)["jobs"][0], err
    except (ValueError, KeyError, IndexError):
        return code, None, err + out


def fio_json(args, cwd):
    """The same job under fio: its first job's report, or None."""
    p = subprocess.run([FIO, "--output-format=json"] + args, cwd=cwd, capture_output=True,
                       text=True, timeout=120)
    start = p.stdout.find("{")
    try:
        return json.loads(p.stdout[start:])["jobs"][0]
    except (ValueError, KeyError, IndexError):
        return None


def names(d):
    return sorted(os.listdir(d))


def fresh(d, sub):
    path = os.path.join(d, sub)
    shutil.rmtree(path, ignore_errors=True)
    os.mkdir(path)
    return path


def meta(engine, where, extra=()):
    return ["--name=m", "--ioengine=" + engine, "--directory=" + where] + list(extra)


def check_filecreate(c, d):
    where = fresh(d, "fc")
    code, j, err = run_json(meta("filecreate", where, ["--nrfiles=12", "--filesize=4k",
                                                       "--bs=4k"]), d)
    c.check(code == 0 and j, "filecreate runs: %s" % err)
    if not j:
        return
    want = ["m.0.%d" % i for i in range(12)]
    c.check(sorted(names(where)) == sorted(want), "filecreate made %s" % names(where))
    c.check(all(os.path.getsize(os.path.join(where, n)) == 0 for n in names(where)),
            "filecreate writes nothing into the files")
    c.check(j["read"]["total_ios"] == 12 and j["read"]["clat_ns"]["N"] == 12 and
            j["read"]["io_bytes"] == 12 * 4096 and j["write"]["total_ios"] == 0,
            "filecreate: 12 creations counted as reads: %r" %
            {k: j["read"][k] for k in ("total_ios", "io_bytes")})
    # rw=write counts them as writes; filename_format names them; unlink=1 removes them
    where = fresh(d, "fc2")
    code, j, err = run_json(meta("filecreate", where, ["--nrfiles=5", "--size=20k", "--bs=4k",
                                                       "--rw=write",
                                                       "--filename_format=f$filenum.x"]), d)
    c.check(code == 0 and j and j["write"]["total_ios"] == 5 and j["read"]["total_ios"] == 0,
            "filecreate rw=write counts 5 writes: %s" % err)
    c.check(names(where) == ["f%d.x" % i for i in range(5)],
            "filename_format names what filecreate makes: %s" % names(where))
    where = fresh(d, "fc3")
    code, j, err = run_json(meta("filecreate", where, ["--nrfiles=4", "--filesize=8k",
                                                       "--bs=4k", "--unlink=1"]), d)
    c.check(code == 0 and j and j["read"]["total_ios"] == 8 and names(where) == [],
            "filesize=8k, bs=4k: 8 I/Os (as fio counts), the 4 files removed by unlink=1: "
            "%s %s" % (names(where), err))


def check_filecreate_openfiles(c, d):
    """openfiles=1: each created file is closed at once, so 300 files are made under a
    descriptor limit of 100 (fio's filecreate-ioengine.fio makes 500,000 this way)."""
    where = fresh(d, "fco")

    def limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (100, 100))

    p = subprocess.run([os.environ.get("IOJOB_BIN", "iojob"), "--output-format=json"] +
                       meta("filecreate", where, ["--nrfiles=300", "--filesize=4k",
                                                  "--openfiles=1"]),
                       cwd=d, capture_output=True, text=True, timeout=120, preexec_fn=limit)
    j = json.loads(p.stdout)["jobs"][0] if p.returncode == 0 else {}
    c.check(p.returncode == 0 and j["read"]["total_ios"] == 300 and len(names(where)) == 300,
            "filecreate openfiles=1 under ulimit -n 100: exit %d, %d files: %s" %
            (p.returncode, len(names(where)), p.stderr[-300:]))


def check_filecreate_fsync(c, d):
    """fsync=1: each created file, held open, is synced (the job's fsync calls, strace), as
    fio counts them: before the next file, so none after the last (fio 3.33 counts the same
    3 of 4 in its JSON, but its filecreate makes no fsync call)."""
    strace = shutil.which("strace")
    if not strace:
        c.skip("strace is not installed: filecreate's fsync= not checked")
        return
    where = fresh(d, "fcs")
    trace = os.path.join(d, "fsync.txt")
    p = subprocess.run([strace, "-f", "-qq", "-e", "trace=fsync", "-o", trace,
                        os.environ.get("IOJOB_BIN", "iojob"), "--output-format=json"] +
                       meta("filecreate", where, ["--nrfiles=4", "--filesize=4k", "--rw=write",
                                                  "--fsync=1"]),
                       cwd=d, capture_output=True, text=True, timeout=120, env=traced_env())
    syncs = sum(1 for line in open(trace) if re.search(r"fsync\(\d+\)\s+= 0", line))
    j = json.loads(p.stdout)["jobs"][0] if p.returncode == 0 else {}
    c.check(p.returncode == 0 and syncs == 3 and j["sync"]["total_ios"] == 3,
            "filecreate fsync=1: %d fsync calls, JSON %r: %s" % (syncs, j.get("sync"), p.stderr))


def stat_calls(trace, paths):
    """{(syscall, flags): count} of the successful stat calls on paths by a thread other
    than the first (the job's thread: the runner's lookups run in the main one)."""
    calls, first = {}, None
    for line in open(trace):
        m = re.match(r"(\d+)\s+(statx|newfstatat)\(AT_FDCWD, \"([^\"]+)\", (.*)\) = 0", line)
        if first is None:
            first = line.split()[0]
        if not m or m.group(1) == first or m.group(3) not in paths:
            continue
        flags = "nofollow" if "AT_SYMLINK_NOFOLLOW" in m.group(4) else ""
        key = (m.group(2), flags)
        calls[key] = calls.get(key, 0) + 1
    return calls


def check_filestat(c, d):
    where = fresh(d, "fs")
    paths = set()
    for i in range(6):
        p = os.path.join(where, "m.0.%d" % i)
        with open(p, "wb") as f:
            f.write(b"x" * 4096)
        paths.add(p)
    code, j, err = run_json(meta("filestat", where, ["--nrfiles=6", "--filesize=4k"]), d)
    c.check(code == 0 and j and j["read"]["total_ios"] == 6 and j["read"]["clat_ns"]["N"] == 6,
            "filestat: 6 lookups: %s" % err)
    c.check(names(where) == sorted(os.path.basename(p) for p in paths),
            "filestat leaves the files as they were")
    strace = shutil.which("strace")
    if not strace:
        c.skip("strace is not installed: filestat's system calls not checked")
        return
    want = {"stat": ("newfstatat", ""), "lstat": ("newfstatat", "nofollow"),
            "statx": ("statx", "")}
    for kind, key in want.items():
        trace = os.path.join(d, "trace.txt")
        subprocess.run([strace, "-f", "-qq", "-e", "trace=statx,newfstatat", "-o", trace,
                        os.environ.get("IOJOB_BIN", "iojob")] +
                       meta("filestat", where, ["--nrfiles=6", "--filesize=4k",
                                                "--stat_type=" + kind]),
                       cwd=d, capture_output=True, timeout=120, env=traced_env())
        calls = stat_calls(trace, paths)
        c.check(calls == {key: 6}, "stat_type=%s: the job's thread made %r" % (kind, calls))


def check_filedelete(c, d):
    where = fresh(d, "fd")
    for i in range(7):
        with open(os.path.join(where, "m.0.%d" % i), "wb") as f:
            f.write(b"y" * 4096)
    with open(os.path.join(where, "keep"), "wb") as f:
        f.write(b"k")
    code, j, err = run_json(meta("filedelete", where, ["--nrfiles=7", "--filesize=4k"]), d)
    c.check(code == 0 and j and j["read"]["total_ios"] == 7,
            "filedelete: 7 removals counted: %s" % err)
    c.check(names(where) == ["keep"], "filedelete removed exactly its 7 files: %s" %
            names(where))
    # files that do not exist are laid out first, as fio does, then removed
    code, j, err = run_json(meta("filedelete", where, ["--nrfiles=3", "--filesize=4k"]), d)
    c.check(code == 0 and j and j["read"]["total_ios"] == 3 and names(where) == ["keep"],
            "filedelete lays out missing files and removes them: %s %s" % (names(where), err))


def check_dirs(c, d):
    where = fresh(d, "dirs")
    job = os.path.join(d, "dirs.fio")
    with open(job, "w") as f:
        f.write("[global]\ndirectory=%s\nnrfiles=9\nfilesize=4k\n" % where +
                "[mk]\nioengine=dircreate\nfilename_format=dir$filenum\n"
                "[look]\nstonewall\nioengine=dirstat\nfilename_format=dir$filenum\n")
    code, out, err = run(["--output-format=json", job], cwd=d)
    jobs = json.loads(out)["jobs"] if code == 0 else []
    c.check(code == 0 and [x["read"]["total_ios"] for x in jobs] == [9, 9],
            "dircreate then dirstat: 9 and 9: %s" % err)
    c.check(names(where) == sorted("dir%d" % i for i in range(9)) and
            all(os.path.isdir(os.path.join(where, n)) for n in names(where)),
            "dircreate made 9 directories: %s" % names(where))
    code, j, err = run_json(meta("dirdelete", where, ["--nrfiles=9", "--filesize=4k",
                                                      "--filename_format=dir$filenum",
                                                      "--rw=write"]), d)
    c.check(code == 0 and j and j["write"]["total_ios"] == 9 and names(where) == [],
            "dirdelete removed the 9 directories (as writes): %s %s" % (names(where), err))
    # dirstat makes the directories it is to look up, as fio's does
    code, j, err = run_json(meta("dirstat", where, ["--nrfiles=2", "--filesize=4k"]), d)
    c.check(code == 0 and j and j["read"]["total_ios"] == 2 and
            all(os.path.isdir(os.path.join(where, n)) for n in ["m.0.0", "m.0.1"]),
            "dirstat makes missing directories first: %s %s" % (names(where), err))


def check_against_fio(c, d):
    if not FIO:
        c.skip("fio is not installed: no side-by-side counts")
        return
    for engine, extra in [("filecreate", ["--nrfiles=10", "--filesize=4k"]),
                          ("filecreate", ["--nrfiles=4", "--filesize=8k", "--bs=4k"]),
                          ("filestat", ["--nrfiles=5", "--size=20k", "--rw=write"]),
                          ("filedelete", ["--nrfiles=6", "--filesize=4k"])]:
        counts = []
        for tool in (run_json, fio_json):
            where = fresh(d, "side")
            got = tool(meta(engine, where, extra), d)
            j = got[1] if tool is run_json else got
            counts.append(j and (j["read"]["total_ios"], j["write"]["total_ios"],
                                 j["read"]["io_bytes"], j["write"]["io_bytes"], names(where)))
        c.check(counts[0] == counts[1] and counts[0], "%s %s: iojob %r, fio %r" %
                (engine, " ".join(extra), counts[0], counts[1]))
    # falloc and ftruncate on one file: the counts, and what the file is left as
    for engine, rw in [("falloc", "write"), ("falloc", "randtrim"), ("falloc", "read"),
                       ("ftruncate", "write")]:
        seen = []
        for tool in (run_json, fio_json):
            f = os.path.join(d, "side.dat")
            if os.path.exists(f):
                os.unlink(f)
            got = tool(["--name=s", "--ioengine=" + engine, "--filename=" + f, "--rw=" + rw,
                        "--size=64k", "--bs=16k"], d)
            j = got[1] if tool is run_json else got
            seen.append(j and ([j[k]["total_ios"] for k in ("read", "write", "trim")],
                               [j[k]["io_bytes"] for k in ("read", "write", "trim")],
                               os.path.getsize(f), blocks(f) >= 65536))
        c.check(seen[0] == seen[1] and seen[0], "%s rw=%s: iojob %r, fio %r" %
                (engine, rw, seen[0], seen[1]))


def blocks(path):
    return os.stat(path).st_blocks * 512


def check_falloc(c, d):
    f = os.path.join(d, "fa")
    code, j, err = run_json(["--name=a", "--ioengine=falloc", "--filename=" + f, "--size=64k",
                             "--bs=16k", "--rw=write"], d)
    c.check(code == 0 and j and j["write"]["total_ios"] == 4, "falloc write: 4: %s" % err)
    c.check(os.path.getsize(f) == 65536 and blocks(f) >= 65536,
            "falloc write allocates the file: size %d, %d bytes allocated" %
            (os.path.getsize(f), blocks(f)))
    # a trim of the middle of written data punches a hole there, keeping the size (the
    # data are written first: ext4 reports the unwritten extents fallocate makes as holes)
    with open(f, "wb") as fh:
        fh.write(b"d" * 65536)
        os.fsync(fh.fileno())
    code, j, err = run_json(["--name=a", "--ioengine=falloc", "--filename=" + f,
                             "--offset=16k", "--size=32k", "--bs=16k", "--rw=trim"], d)
    with open(f, "rb") as fh:
        hole = os.lseek(fh.fileno(), 0, os.SEEK_HOLE)
        data = os.lseek(fh.fileno(), hole, os.SEEK_DATA)
    c.check(code == 0 and j and j["trim"]["total_ios"] == 2, "falloc trim: 2: %s" % err)
    c.check((hole, data) == (16384, 49152) and os.path.getsize(f) == 65536 and
            blocks(f) <= 32768, "falloc trim punched 16k-48k: hole at %d, data again at %d, "
            "%d bytes allocated" % (hole, data, blocks(f)))
    before = blocks(f)
    # a read allocates again, keeping the size
    code, j, err = run_json(["--name=a", "--ioengine=falloc", "--filename=" + f, "--size=64k",
                             "--bs=16k", "--rw=read"], d)
    c.check(code == 0 and j and j["read"]["total_ios"] == 4 and os.path.getsize(f) == 65536
            and blocks(f) >= before + 32768, "falloc read allocates the hole again, keeping "
            "the size: %d bytes allocated, %d before: %s" % (blocks(f), before, err))


def check_ftruncate(c, d):
    f = os.path.join(d, "ft")
    with open(f, "wb") as fh:
        fh.write(b"z" * 65536)
    code, j, err = run_json(["--name=t", "--ioengine=ftruncate", "--filename=" + f,
                             "--size=16k", "--bs=4k", "--rw=write"], d)
    c.check(code == 0 and j and j["write"]["total_ios"] == 4, "ftruncate: 4 writes: %s" % err)
    c.check(os.path.getsize(f) == 12288, "ftruncate left the file at the last write's offset "
            "(12288), as fio: %d" % os.path.getsize(f))


def check_unlink_and_readonly(c, d):
    """unlink=1 removes what a names engine made or looked up, opened or not; --readonly
    refuses an engine that changes files whatever rw= says, and lets filestat run."""
    for engine, kind in [("filestat", "f"), ("dircreate", None), ("filecreate", None)]:
        where = fresh(d, "ul")
        if kind:
            for i in range(3):
                with open(os.path.join(where, "m.0.%d" % i), "wb") as f:
                    f.write(b"u" * 4096)
        code, j, err = run_json(meta(engine, where, ["--nrfiles=3", "--filesize=4k",
                                                     "--unlink=1"]), d)
        c.check(code == 0 and j and j["read"]["total_ios"] == 3 and names(where) == [],
                "%s unlink=1 leaves nothing: %s %s" % (engine, names(where), err))
    where = fresh(d, "ro")
    for engine in ("filecreate", "filedelete", "dircreate", "dirstat", "dirdelete", "falloc",
                   "ftruncate"):
        rw = ["--rw=write"] if engine == "ftruncate" else []   # it only writes
        code, _, err = run(["--readonly"] + meta(engine, where, ["--nrfiles=2",
                                                                 "--filesize=4k"] + rw), cwd=d)
        c.check(code == 2 and "--readonly forbids" in err and names(where) == [],
                "--readonly refuses %s before it changes anything (exit %d): %s" %
                (engine, code, err))
    with open(os.path.join(where, "m.0.0"), "wb") as f:
        f.write(b"r" * 4096)
    code, j, err = run_json(["--readonly"] + meta("filestat", where, ["--nrfiles=1",
                                                                      "--filesize=4k"]), d)
    c.check(code == 0 and j and j["read"]["total_ios"] == 1, "--readonly lets filestat look: "
            + err)


def check_refusals(c, d):
    for args, what in [(["--ioengine=ftruncate", "--rw=read"], "only writes"),
                       (["--ioengine=falloc", "--rw=write", "--verify=crc32c"], "no data"),
                       (["--ioengine=filecreate", "--rw=write", "--verify=md5"], "no data"),
                       (["--ioengine=ftruncate", "--rw=write", "--verify=crc32c"], "no data"),
                       (["--ioengine=cpuio", "--cpuload=10", "--runtime=1", "--verify=md5",
                         "--rw=write"], "no data"),
                       (["--ioengine=filestat", "--rw=trim"], "cannot trim"),
                       (["--ioengine=cpuio", "--cpuload=10"], "set runtime"),
                       (["--ioengine=cpuio", "--cpuload=10", "--exit_on_io_done=1",
                         "--runtime=1"], "do not watch each other")]:
        code, _, err = run(["--name=r", "--filename=" + os.path.join(d, "r"), "--size=16k"] +
                           args, cwd=d)
        c.check(code == 2 and what in err and not os.path.exists(os.path.join(d, "r")),
                "%s: refused before any I/O (exit %d): %s" % (" ".join(args), code, err))


def check_cpuio(c, d):
    usr = {}
    for load in (15, 90):
        chunk_us = 20000
        code, j, err = run_json(["--name=c", "--ioengine=cpuio", "--cpuload=%d" % load,
                                 "--cpuchunks=%d" % chunk_us, "--runtime=1"], d)
        c.check(code == 0 and j, "cpuio cpuload=%d runs: %s" % (load, err))
        if not j:
            return
        cycle_ms = chunk_us / 1000.0 * 100 / load
        most = int(j["job_runtime"] / cycle_ms) + 1
        c.check(j["read"]["io_bytes"] == 0 and 1 <= j["read"]["total_ios"] <= most,
                "cpuio cpuload=%d: cycles move no bytes, and there are at most %d of them "
                "in %d ms: %d" % (load, most, j["job_runtime"], j["read"]["total_ios"]))
        usr[load] = j["usr_cpu"]
    # busy 15%: the thread can use no more CPU than that (and some slack for the loop)
    c.check(usr.get(15, 100) <= 15 * 1.5 + 5, "cpuio cpuload=15: usr_cpu %r" % usr.get(15))
    c.check(usr.get(90, 0) > usr.get(15, 100), "cpuio: cpuload=90 busier than 15: %r" % usr)
    code, j, err = run_json(["--name=q", "--ioengine=cpuio", "--cpuload=50",
                             "--cpumode=qsort", "--runtime=1"], d)
    c.check(code == 0 and j and j["read"]["total_ios"] >= 1 and j["usr_cpu"] > 0,
            "cpuio cpumode=qsort sorts: %s" % err)
    code, _, err = run(["--name=z", "--ioengine=cpuio", "--runtime=1"], cwd=d)
    c.check(code == 1 and "set cpuload=" in err, "cpuio without cpuload= fails: %s" % err)


def script(d, name, body):
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body)
    os.chmod(path, 0o755)
    return path


def check_exec(c, d):
    prog = script(d, "prog.sh", 'echo "$@" > ran.txt\necho "out $1"\necho "err $2" >&2\n')
    code, j, err = run_json(["--name=ex", "--ioengine=exec", "--program=" + prog,
                             "--arguments=r%r  n-%n", "--runtime=1"], d)
    c.check(code == 0 and j and j["read"]["io_bytes"] == 0, "exec runs: %s" % err)
    ran = open(os.path.join(d, "ran.txt")).read() if os.path.exists(
        os.path.join(d, "ran.txt")) else ""
    c.check(ran == "r1 n-ex\n", "exec substituted %%r and %%n: %r" % ran)
    out = os.path.join(d, "ex.stdout")
    errf = os.path.join(d, "ex.stderr")
    c.check(os.path.exists(out) and open(out).read() == "out r1\n" and
            open(errf).read() == "err n-ex\n", "std_redirect=1 (the default): the output in "
            "ex.stdout and ex.stderr")
    code, stdout, err = run(["--name=ny", "--ioengine=exec", "--program=" + prog,
                             "--arguments=a b", "--std_redirect=0", "--runtime=1",
                             "--output-format=terse"], cwd=d)
    c.check(code == 0 and "out a" in stdout and "err b" in err and
            not os.path.exists(os.path.join(d, "ny.stdout")),
            "std_redirect=0: the program writes to iojob's own stdout and stderr")
    # at the end: SIGTERM; a program that ignores it is killed after grace_time
    stubborn = script(d, "stubborn.sh", 'trap "echo term >> got.txt" TERM\necho $$ > pid.txt\n'
                      'while :; do sleep 0.1; done\n')
    code, _, err = run(["--name=st", "--ioengine=exec", "--program=" + stubborn,
                        "--runtime=1", "--grace_time=1"], cwd=d)
    pid = int(open(os.path.join(d, "pid.txt")).read())
    got = open(os.path.join(d, "got.txt")).read() if os.path.exists(
        os.path.join(d, "got.txt")) else ""
    c.check(code == 0 and "term" in got and not os.path.exists("/proc/%d" % pid),
            "exec: SIGTERM first, then SIGKILL: got %r, pid %d gone: %s" % (got, pid, err))
    code, _, err = run(["--name=no", "--ioengine=exec", "--program=" +
                        os.path.join(d, "missing"), "--runtime=1"], cwd=d)
    c.check(code == 1 and "no program it can run" in err, "exec of a missing program: " + err)


def main():
    c = Checks("engines_nodata")
    d = scratch_dir()
    try:
        check_filecreate(c, d)
        check_filecreate_openfiles(c, d)
        check_filecreate_fsync(c, d)
        check_filestat(c, d)
        check_filedelete(c, d)
        check_dirs(c, d)
        check_against_fio(c, d)
        check_falloc(c, d)
        check_ftruncate(c, d)
        check_refusals(c, d)
        check_unlink_and_readonly(c, d)
        check_cpuio(c, d)
        check_exec(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
