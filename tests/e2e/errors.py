#!/usr/bin/env python3
"""A wrong job file names the file, line, option and what was expected, exits 2, and
touches no data: no file is created or written in the job's directory."""
import os
import re
import subprocess

from common import Checks, remove, run, run_bounded, scratch_dir

# The message of a value nested past the expression parser's limit: line, option, start.
DEEP = (r"^iojob: job\.fio:%d: option '%s': '%s\.\.\.' nests deeper than 64 levels "
        r"\(parentheses, signs and '\^' count\)$")
DEEP_ARG = "(" * 30000 + "4k" + ")" * 30000   # under the 128 KiB a single argument may have

# (job file text, regular expression the message must match, exit code)
CASES = [
    ("[job]\nrw=randread\niodepht=4\n",
     r"^iojob: job\.fio:3: unknown option 'iodepht' \(did you mean 'iodepth'\?\)$", 2),
    ("[job]\nsize=4q\n",
     r"^iojob: job\.fio:2: option 'size': '4q' is not a size(.*) \(did you mean '4k'\?\)$", 2),
    ("[job]\nbs=4q\n", r"^iojob: job\.fio:2: option 'bs': '4q' is not a size", 2),
    ("[job]\nsize=1m\nruntime=abc\n",
     r"^iojob: job\.fio:3: option 'runtime': 'abc' is not a time", 2),
    ("[job]\nthinktime=5x\n", r"^iojob: job\.fio:2: option 'thinktime': '5x' is not a time", 2),
    ("[job]\nrw=readx\n",
     r"^iojob: job\.fio:2: option 'rw': 'readx' is not one of read, write, .*"
     r"\(did you mean 'read'\?\)$", 2),
    ("[job]\nfallocate=sometimes\n",
     r"^iojob: job\.fio:2: option 'fallocate': 'sometimes' is not one of none", 2),
    ("[job]\nrwmixread=200\n",
     r"^iojob: job\.fio:2: option 'rwmixread': 200 is out of range \(0 to 100\)$", 2),
    ("[job]\niodepth=0\n", r"^iojob: job\.fio:2: option 'iodepth': 0 is out of range", 2),
    ("[job]\niodepth=-1\n", r"^iojob: job\.fio:2: option 'iodepth': -1 is out of range", 2),
    ("[job]\nbs=0\n", r"^iojob: job\.fio:2: option 'bs': 0 is out of range", 2),
    ("[job]\nioengine=null\nsize=1m\nverify=crc32c\nrw=write\n",
     r"^iojob: job\.fio:4: job 'job': option 'verify': this ioengine stores no data, so there is "
     r"nothing to verify \(use one of psync, sync, vsync, pvsync, pvsync2, mmap, splice, "
     r"posixaio(, libaio)?(, io_uring)?, sg\)$", 2),
    ("[job]\ndirect=maybe\n",
     r"^iojob: job\.fio:2: option 'direct': 'maybe' is not a boolean", 2),
    ("filename=x.dat\n[job]\nsize=1m\n",
     r"^iojob: job\.fio:1: option 'filename' is outside of any \[section\]$", 2),
    ("[job\nsize=1m\n", r"^iojob: job\.fio:1: malformed section header '\[job'", 2),
    ("[job]\nsize=1m\ninclude missing.inc\n",
     r"^iojob: job\.fio:3: include 'missing\.inc': No such file or directory$", 2),
    ("[job]\nsize=1m\ndirectory=/nonexistent/dir\n",
     r"^iojob: job\.fio:3: option 'directory': '/nonexistent/dir' is not a directory$", 2),
    ("[job]\nrw=read\n",
     r"^iojob: job\.fio:1: job 'job': 'job\.0\.0' does not exist, so its size is unknown "
     r"\(set size= or filesize=\)$", 2),
    ("[job]\nsize=1m\nioengine=foo\n",
     r"^iojob: job\.fio:3: option 'ioengine': unknown engine 'foo'", 2),
    ("[job]\nsize=1m\nioengine=psync\nfixedbufs=1\n",
     r"^iojob: job\.fio:4: option 'fixedbufs' belongs to ioengine 'io_uring', but job 'job' "
     r"uses 'psync'$", 2),
    ("[job]\nsize=${IOJOB_SURELY_UNSET}\n",
     r"^iojob: note: job\.fio:2: option 'size': environment variable 'IOJOB_SURELY_UNSET' is "
     r"not set: empty, as in fio\niojob: job\.fio:2: option 'size' has an empty value", 2),
    ("[job]\nsize=1m\nbs=2m\n",
     r"^iojob: job\.fio:1: job 'job': the region of 'job\.0\.0' \(1048576 bytes\) is smaller "
     r"than the block size \(2097152\)$", 2),
    ("[job]\nsize=1m\ndirect=1\nbs=1000\n",
     r"^iojob: job\.fio:4: job 'job': option 'bs': direct=1 on 'job\.0\.0' needs multiples "
     r"of \d+ bytes, not 1000$", 2),
    ("[global]\nsize=1m\n",
     r"^iojob: 'job\.fio': no jobs defined \(only \[global\] sections: a job is a section of "
     r"another name\)$", 2),
    ("[job]\nsize=1m\n[global]\nbogus=1\n",
     r"^iojob: job\.fio:4: unknown option 'bogus'$", 2),
    # an engine option in a [global] of another engine, as fio refuses it ("Bad option");
    # under a [global] of its own engine it is left out, with a note, for a job of another
    ("[global]\nfixedbufs=1\n[job]\nsize=1m\nioengine=psync\n",
     r"^iojob: job\.fio:2: option 'fixedbufs' belongs to ioengine 'io_uring', but job 'job' "
     r"uses 'psync'$", 2),
    ("[%s]\nsize=1m\n" % ("n" * 1500),
     r"^iojob: job\.fio:1: job 'n{24}\.\.\.n+': 'n{24}\.\.\.n+\.0\.0': File name too long$", 2),
    ("[job]\nsize=1m\nrw=read\ndirectory=/%s\n" % ("d" * 1500),
     r"^iojob: job\.fio:4: option 'directory': '/d{23}\.\.\.d+' is not a directory$", 2),
    ("[global]\nsize=1m\nioengine=null\n" + "".join("[j%d]\n" % i for i in range(65537)),
     r"^iojob: job\.fio:65540: job 'j65536': the sections so far, with their clones and "
     r"passes, make 65537 jobs, and a run has at most 65536$", 2),
    ("[job]\nfilesize=1m\noffset=2m\nrw=read\n",
     r"^iojob: job\.fio:3: job 'job': options 'offset' and 'filesize': the region starts at "
     r"offset 2097152, at or past the end of a 1048576-byte file$", 2),
    ("[job]\nsize=1m\nfilesize=64k-16k\n",
     r"^iojob: job\.fio:3: option 'filesize': '64k-16k' runs from high to low \(did you mean "
     r"'16k-64k'\?\)$", 2),
    ("[job]\nsize=1m\nbsrange=4k-8k,64k:4k\n",
     r"^iojob: job\.fio:3: option 'bsrange': '64k:4k' runs from high to low \(did you mean "
     r"'4k:64k'\?\)$", 2),
    ("[job]\nsize=1m\nrw=write\nbs\n",
     r"^iojob: job\.fio:4: option 'bs' needs a value \(size\[,size\[,size\]\]: .*\); only a "
     r"boolean may stand alone$", 2),
    ("[job]\nsize=1m\nrw=write\nio_size=2k\n",
     r"^iojob: job\.fio:4: job 'job': options 'io_size' and 'bs': io_size=2048 is less than "
     r"one block \(4096 bytes\), so the job would do no I/O$", 2),
    ("[job]\nsize=1m\nrw=read\nverify=crc32c\n",
     r"^iojob: job\.fio:4: job 'job': option 'verify': 'job\.0\.0' has 0 of the 1048576 bytes "
     r"the job reads, and a job that only reads verifies what a write with verify= left "
     r"there$", 2),
    ("[job]\nsize=1m\nbs=4k\0,64k\n",
     r"^iojob: job\.fio:3: NUL byte at column 6 \(a job file is text\)$", 2),
    ("[job]\nsize=1m\ninclude .\n",
     r"^iojob: job\.fio:3: include '\.': a directory, not a regular file$", 2),
    # issue 27: nesting past the expression parser's limit (100,000 levels overflowed the
    # stack), of parentheses, of signs and of '^', is refused by its depth
    ("[job]\nsize=1m\nbs=%s4k%s\n" % ("(" * 100000, ")" * 100000), DEEP % (3, "bs", r"\(+"), 2),
    ("[job]\nsize=1m\nruntime=(%s1)\n" % ("-" * 100000), DEEP % (3, "runtime", r"\(-+"), 2),
    ("[job]\nsize=1m\niodepth=(%s1)\n" % ("2^" * 100000), DEEP % (3, "iodepth",
                                                                 r"\((2\^)+2?"), 2),
    # a suggestion is never the input itself, nor anything that does not parse
    ("[job]\nsize=1m\nbs=1.5.5m\n", r"^iojob: job\.fio:3: option 'bs': '1\.5\.5m' is not a "
     r"size$", 2),
    ("[job]\nsize=1m\nbsrange=(8k-1k)-4k\n",
     r"^iojob: job\.fio:3: option 'bsrange': '\(8k-1k\)-4k' runs from high to low \(did you "
     r"mean '4k-\(8k-1k\)'\?\)$", 2),
]

# Cases checked with --parse-only: where the parse let them through, the run would write
# until the disk is full.
PARSE_CASES = [
    # issue 27: a region that would end past the largest file offset (it wrapped past 2^64)
    ("[job]\nsize=8k\noffset=18446744073709551615\n",
     r"^iojob: job\.fio:3: job 'job': options 'offset' and 'size': the region starts at "
     r"offset 18446744073709551615 and spans 8192 bytes, so it would end past "
     r"9223372036854775807, the largest file offset$", 2),
    ("[job]\nsize=8k\noffset=9223372036854775807\n",
     r"^iojob: job\.fio:3: job 'job': options 'offset' and 'size': the region starts", 2),
    ("[job]\nfilesize=4k-18446744073709551615\n",
     r"^iojob: job\.fio:2: job 'job': option 'filesize': 18446744073709551615 bytes is past "
     r"9223372036854775807, the largest file offset$", 2),
    ("[job]\nsize=8k\nnumjobs=3\noffset_increment=4611686018427387904\n",
     r"^iojob: job\.fio:4: job 'job': options 'offset_increment', 'numjobs' and 'size': the "
     r"last clone's region starts at offset 9223372036854775808 and spans 8192 bytes", 2),
]

# Endless, blocking or huge inputs: (what job.fio includes, setup of the scratch directory,
# arguments, stdin, message, exit). Each run is bounded in time and memory, so that a reader
# that reads until memory runs out fails fast instead of taking the machine's memory.
ENDLESS = [
    ("/dev/zero", None, ["job.fio"], None,
     r"^iojob: job\.fio:3: include '/dev/zero': a character device, not a regular file$", 2),
    ("fifo", lambda d: os.mkfifo(os.path.join(d, "fifo")), ["job.fio"], None,
     r"^iojob: job\.fio:3: include 'fifo': a FIFO, not a regular file$", 2),
    ("big.inc", lambda d: write(d, "big.inc", "# " + "x" * (9 << 20) + "\n"), ["job.fio"], None,
     r"^iojob: job\.fio:3: include '.*big\.inc': job file text longer than 8 MiB \(the limit "
     r"for a job file and its includes\)$", 2),
    (None, None, ["-"], "/dev/zero",
     r"^iojob: <stdin>:1: job file longer than 8 MiB \(the limit for a job file and its "
     r"includes\)$", 2),
    (None, None, ["/dev/zero"], None, r"^iojob: /dev/zero:1: job file longer than 8 MiB", 2),
]


# Messages of runs that fail, each bounded in memory: (arguments, memory limit in MiB,
# message, exit). A sysfs file says it holds 4096 bytes and gives a few: the end of a file
# that is shorter than the job's region, and a file that exists but cannot be extended.
SYSFS = "/sys/devices/system/cpu/online"
RUNS = [
    (["--name=big", "--ioengine=null", "--size=1m", "--numjobs=65536"], 64,
     r"^iojob: command line: job 'big': out of memory \(for 65536 jobs\)$", 2),
    (["--name=short", "--rw=read", "--bs=4k", "--size=4k", "--filename=" + SYSFS], 512,
     r"^iojob: job 'short': read '%s' at offset \d+, length \d+: the file ended at offset "
     r"\d+, shorter than the job's region \(4096 bytes from offset 0\)$" % SYSFS, 1),
    # a file on sysfs is only read: extending it or deleting it is refused before the run
    (["--name=grow", "--rw=read", "--bs=4k", "--size=8k", "--filename=" + SYSFS], 512,
     r"^iojob: command line: job 'grow': '%s' is on sysfs, a pseudo file system: iojob "
     r"never writes, lays out, extends or deletes files there$" % SYSFS, 2),
    (["--name=keep", "--rw=read", "--bs=4", "--size=4", "--unlink=1", "--filename=" + SYSFS],
     512, r"^iojob: command line: job 'keep': '%s' is on sysfs" % SYSFS, 2),
    # the command line, --set and --sweep take the same values, with the same limit
    (["--name=deep", "--bs=" + DEEP_ARG], 512,
     r"^iojob: command line: option 'bs': '\(+\.\.\.' nests deeper than 64 levels", 2),
    (["--name=deep", "--set", "bs=" + DEEP_ARG], 512,
     r"^iojob: --set: option 'bs': '\(+\.\.\.' nests deeper than 64 levels", 2),
    (["--name=deep", "--size=64k", "--sweep", "bs=4k," + DEEP_ARG], 512,
     r"--sweep: option 'bs': '\(+\.\.\.' nests deeper than 64 levels", 2),
    # two jobs on one file with unlink=1: the second finds it gone, which is no failure
    (["--filename=x", "--size=64k", "--rw=write", "--unlink=1", "--name=a", "--name=b"], 512,
     r"^iojob: note: a: Laying out IO file \(1 file / 0MiB\)$", 0),
]


def check_runs(c):
    for args, memory_mb, pattern, want in RUNS:
        if any(SYSFS in a for a in args) and (not os.path.exists(SYSFS) or
                                  os.stat(SYSFS).st_size != 4096):
            c.skip("%s: no %s of 4096 bytes" % (args[0], SYSFS))
            continue
        d = scratch_dir()
        try:
            code, _, err = run_bounded(args + ["--output-format=terse"], cwd=d,
                                       memory_mb=memory_mb)
            c.check(code == want, "%s: exit %d, want %d: %s" % (args[0], code, want, err))
            c.check(re.search(pattern, err.strip(), re.M) is not None,
                    "%s: message %r does not match %r" % (args[0], err.strip(), pattern))
            c.check(os.listdir(d) == [], "%s: left %s behind" % (args[0], os.listdir(d)))
        finally:
            remove(d)


def check_immutable(c):
    """A file that exists but cannot be extended, and one that cannot be deleted: made so
    with chattr +i (the immutable flag stops root too), where the file system has it."""
    d = scratch_dir()
    try:
        write(d, "imm", "x" * 4096)
        os.mkdir(os.path.join(d, "keep"))
        write(os.path.join(d, "keep"), "f", "x" * 4096)
        if subprocess.run(["chattr", "+i", os.path.join(d, "imm"), os.path.join(d, "keep")],
                          capture_output=True).returncode:
            c.skip("cannot extend, cannot delete: chattr +i is not available here")
            return
        for args, pattern in [
                (["--name=grow", "--rw=read", "--bs=4k", "--size=8k", "--filename=imm"],
                 r"^iojob: command line: job 'grow': cannot extend 'imm' to 8192 bytes: "
                 r"Operation not permitted$"),
                (["--name=keep", "--rw=read", "--bs=4k", "--size=4k", "--unlink=1",
                  "--filename=keep/f"],
                 r"^iojob: job 'keep': unlink=1: cannot delete 'keep/f': Operation not "
                 r"permitted$")]:
            code, _, err = run(args + ["--output-format=terse"], cwd=d)
            c.check(code == 1 and re.search(pattern, err.strip(), re.M),
                    "%s: exit %d, want 1, %r: %s" % (args[0], code, pattern, err))
    finally:
        subprocess.run(["chattr", "-i", os.path.join(d, "imm"), os.path.join(d, "keep")],
                       capture_output=True)
        remove(d)


def write(d, name, text):
    with open(os.path.join(d, name), "w") as f:
        f.write(text)


def check_endless(c):
    for inc, setup, args, stdin, pattern, want in ENDLESS:
        d = scratch_dir()
        try:
            if setup:
                setup(d)
            write(d, "job.fio", "[job]\nsize=1m\ninclude %s\n" % inc)
            before = sorted(os.listdir(d))
            code, _, err = run_bounded(["--parse-only"] + args, cwd=d, stdin_path=stdin)
            err = err.strip()
            what = " ".join(args) + (" < " + stdin if stdin else "")
            what = "include " + inc if inc else what
            c.check(code == want, "%s: exit %d, want %d" % (what, code, want))
            c.check(re.search(pattern, err, re.M) is not None,
                    "%s: message %r does not match %r" % (what, err[-500:], pattern))
            c.check(sorted(os.listdir(d)) == before, "%s: files appeared" % what)
        finally:
            remove(d)


def main():
    c = Checks("errors")
    cases = [(case, []) for case in CASES] + [(case, ["--parse-only"]) for case in PARSE_CASES]
    for (text, pattern, want), args in cases:
        d = scratch_dir()
        try:
            with open(os.path.join(d, "job.fio"), "w") as f:
                f.write(text)
            code, out, err = run(args + ["job.fio"], cwd=d)
            first = text.splitlines()[-1].replace("\0", "\\0")[:80]
            c.check(code == want, "%r: exit %d, want %d" % (first, code, want))
            c.check(re.search(pattern, err.strip(), re.M) is not None,
                    "%r: message %r does not match %r" % (first, err.strip(), pattern))
            c.check(out == "", "%r: a failed parse printed a report: %r" % (first, out))
            c.check(sorted(os.listdir(d)) == ["job.fio"],
                    "%r: files appeared: %s" % (first, os.listdir(d)))
        finally:
            remove(d)
    check_endless(c)
    check_runs(c)
    check_immutable(c)
    c.finish()


if __name__ == "__main__":
    main()
