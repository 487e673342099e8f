#!/usr/bin/env python3
"""fio's own test scripts (t/*.py in fio 3.33's source) pass with iojob in fio's place: each
is given iojob under the name fio, runs its jobs and checks their reports, logs and
offsets itself, and must exit 0 with its own closing line, "N tests passed, 0 failed".

  strided.py              zonemode=strided offsets, from log_offset=1 iops logs
  readonly.py             --readonly refusing writes and trims, allowing reads
  log_compression.py      log_compression and log_store_compressed, read back
  jsonplus2csv_test.py    json+ bins through Debian's fio_jsonplus_clat2csv
  latency_percentiles.py  slat/clat/lat percentiles, json+ and terse, cmdprio (three of its
                          libaio tests: its null-engine tests parse 10^8 log lines each)

Not run: steadystate_tests.py (needs scipy), run-fio-tests.py (fio's whole source tree and
its C test programs), sgunmap-*.py (SCSI generic devices).

The scripts are fio's, under fio's licence: none is kept here. They are read from
$IOJOB_FIO_SCRIPTS (tests/run.sh sets it to what `tests/fio_source.py t` fetched from
Debian's archive); without it the test is skipped, saying so. Each runs in a sandbox
(bubblewrap): / read-only, no devices, no network, a scratch directory of its own as /tmp
and its cwd, the only place it can write; where bwrap can make none (a chroot), the test
is skipped, saying why."""
import os
import re
import shutil
import subprocess
import sys

from common import BIN, SKIP, Checks, engine_available, is_asan_build, remove, scratch_dir

BWRAP = shutil.which("bwrap")
CLAT2CSV = shutil.which("fio_jsonplus_clat2csv")
CLOSING = re.compile(r"^(\d+) tests passed, (\d+) failed", re.M)
TIMEOUT = 600
FIO = "/tmp/bin/fio"	# the link, as the sandbox sees it

# (script, its arguments, the tests it must pass, why it cannot run here or None)
SCRIPTS = [
    ("strided.py", [FIO], 21, None),
    ("readonly.py", ["-f", FIO], 9, None),
    ("log_compression.py", ["-f", FIO], 2, None),
    ("jsonplus2csv_test.py", ["-f", FIO, "-s", CLAT2CSV or ""], 1,
     None if CLAT2CSV else "fio_jsonplus_clat2csv (Debian's fio package) is not installed"),
    ("latency_percentiles.py", ["-f", FIO, "-a", "/tmp/artifacts", "-o", "5", "14", "20"], 3,
     None if engine_available("libaio") else "this build has no libaio engine"),
]


# Every namespace but the user's is new where bwrap can do that (as root): in a user
# namespace of its own a process cannot take the realtime I/O class that
# latency_percentiles.py's cmdprio test asks for (fio cannot either). Else a user namespace
# too, without that test.
AS_ROOT = ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts",
           "--unshare-cgroup-try"]
AS_USER = ["--unshare-all"]
REALTIME_TESTS = ["20"]


def sandbox_args(namespaces, scratch):
    return [BWRAP, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
            "--bind", scratch, "/tmp", "--chdir", "/tmp"] + namespaces + [
            "--die-with-parent", "--new-session"]


def pick_sandbox():
    """The namespaces bwrap can make here, or None and why not (a chroot allows neither)."""
    why = None
    scratch = scratch_dir()
    try:
        for ns in (AS_ROOT, AS_USER):
            p = subprocess.run(sandbox_args(ns, scratch) + ["true"], capture_output=True,
                               text=True, timeout=60)
            if p.returncode == 0:
                return ns, None
            why = (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[0]
    finally:
        remove(scratch)
    return None, why


def sandboxed(ns, scripts, name, args, scratch):
    """python3 SCRIPT ARGS with / read-only, a minimal /dev and /proc, no network, and
    scratch (holding iojob as bin/fio) as /tmp, its cwd."""
    cmd = sandbox_args(ns, scratch) + [sys.executable, os.path.join(scripts, name)] + args
    return subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)


def check_script(c, ns, scripts, name, args, want, why_not):
    if why_not:
        c.skip("%s: %s" % (name, why_not))
        return
    if name == "latency_percentiles.py" and is_asan_build():
        c.skip("%s: its libaio jobs run for seconds each: the plain build runs them" % name)
        return
    if name == "latency_percentiles.py" and ns is AS_USER:
        c.skip("%s: test %s left out: the realtime I/O class needs a sandbox in the first "
               "user namespace (bwrap as root)" % (name, " ".join(REALTIME_TESTS)))
        args = [a for a in args if a not in REALTIME_TESTS]
        want -= len(REALTIME_TESTS)
    scratch = scratch_dir()
    try:
        os.mkdir(os.path.join(scratch, "bin"))
        # a copy named fio, not a link: the binary may live under the /tmp the sandbox hides
        shutil.copy2(BIN, os.path.join(scratch, "bin", "fio"))
        p = sandboxed(ns, scripts, name, args, scratch)
    finally:
        remove(scratch)
    got = CLOSING.findall(p.stdout)
    passed, failed = (int(got[-1][0]), int(got[-1][1])) if got else (0, -1)
    c.check(p.returncode == 0 and passed == want and failed == 0,
            "fio's t/%s with iojob as fio: exit %d, %d passed, %d failed (want %d):\n%s%s" %
            (name, p.returncode, passed, failed, want, p.stdout[-3000:], p.stderr[-2000:]))


def main():
    scripts = os.environ.get("IOJOB_FIO_SCRIPTS")
    if not scripts or not os.path.isdir(scripts):
        print("SKIP: fio's test scripts are not here ($IOJOB_FIO_SCRIPTS: run "
              "tests/fio_source.py t)")
        sys.exit(SKIP)
    if not BWRAP:
        print("SKIP: bwrap (bubblewrap) is not installed: the scripts cannot run sandboxed")
        sys.exit(SKIP)
    ns, why = pick_sandbox()
    if not ns:
        print("SKIP: bwrap cannot make a sandbox here (%s): fio's scripts are not run" % why)
        sys.exit(SKIP)
    c = Checks("fio_scripts")
    for name, args, want, why_not in SCRIPTS:
        check_script(c, ns, scripts, name, args, want, why_not)
    c.finish()


if __name__ == "__main__":
    main()
