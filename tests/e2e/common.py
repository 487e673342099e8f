"""Shared helpers of the end-to-end tests: run the iojob binary, split its output, check."""
import contextlib
import json
import os
import platform
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from fractions import Fraction

SRC = os.environ.get("IOJOB_SRCDIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("IOJOB_BIN", os.path.join(SRC, "build", "iojob"))
SKIP = 77


# long double's significand: x87's 64 bits on x86, IEEE quad's 113 elsewhere (aarch64, s390x)
LD_BITS = 64 if platform.machine() in ("x86_64", "amd64", "i386", "i686") else 113


def long_double(x):
    """The Fraction x rounded to the nearest long double (ties to even), exactly."""
    if x == 0:
        return Fraction(0)
    e = abs(x).numerator.bit_length() - abs(x).denominator.bit_length()
    if Fraction(2) ** e > abs(x):
        e -= 1
    unit = Fraction(2) ** (e - LD_BITS + 1)
    return round(x / unit) * unit


def fio_percentile(counts, pct):
    """fio's percentile rule, in its arithmetic: the first value whose running count reaches
    (long double)pct / 100 * total; counts maps value (int or str) to samples."""
    items = sorted((int(k), n) for k, n in counts.items())
    total = sum(n for _, n in items)
    want = long_double(long_double(Fraction(pct) / 100) * total)
    run_ = 0
    for value, n in items:
        run_ += n
        if run_ >= want:
            return value
    return items[-1][0]


class Failure(Exception):
    pass


def _terminated(signum, frame):
    """meson ends a test past its timeout with SIGTERM: leave through the finally blocks,
    so that the loop devices a test attached are detached and its files removed."""
    raise SystemExit(128 + signum)


signal.signal(signal.SIGTERM, _terminated)


def run(args, cwd=None, stdin=None, timeout=120):
    """Run iojob with args; return (exit code, stdout, stderr)."""
    p = subprocess.run([BIN] + args, cwd=cwd, input=stdin, capture_output=True, text=True,
                       timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def run_job_file(d, name, text, args=(), timeout=120):
    """Write the job file d/name holding text, and run iojob on it with args; return
    (exit code, stdout, stderr)."""
    with open(os.path.join(d, name), "w") as f:
        f.write(text)
    return run([os.path.join(d, name)] + list(args), cwd=d, timeout=timeout)


def run_fio_racy(fio, args, cwd=None, timeout=30, tries=3):
    """Run fio where its log compression worker starts (log_compression,
    log_store_compressed). fio 3.33 can hang for good there: workqueue_init() assigns the
    new worker's flags after pthread_create(), wiping the RUNNING flag when the worker got
    there first, and then waits for RUNNING forever; a loaded machine makes that likely.
    A run that does not end in timeout seconds (they take well under one) is killed and
    started again. Returns the CompletedProcess, or None when every try hung."""
    for _ in range(tries):
        try:
            return subprocess.run([fio] + args, cwd=cwd, capture_output=True, text=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            continue
    return None


def is_tsan_build():
    p = subprocess.run(["ldd", BIN], capture_output=True, text=True)
    return "libtsan" in p.stdout


def is_asan_build():
    p = subprocess.run(["ldd", BIN], capture_output=True, text=True)
    return "libasan" in p.stdout or "libubsan" in p.stdout


def traced_env(extra=None):
    """The environment for iojob run under strace, or with a shim in LD_PRELOAD: in an ASan
    build, LeakSanitizer cannot work under ptrace (it stops the run with a "fatal error"),
    and ASan wants its runtime first in the library list, where a preloaded shim comes."""
    env = dict(os.environ, **(extra or {}))
    env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + \
        ":detect_leaks=0:verify_asan_link_order=0"
    return env


def run_bounded(args, cwd=None, stdin_path=None, timeout=60, memory_mb=512):
    """Run iojob on an input that may never end (stdin from stdin_path), bounded in time and
    in memory: memory_mb of address space, so that a reader that reads until memory runs
    out fails at once instead of taking the machine's memory (ASan reserves terabytes of
    address space: there no allocation may pass memory_mb, nor the process 1 GiB).
    Returns (exit code, stdout, stderr), exit -1 when it ran out of time."""
    env = dict(os.environ)

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))

    if is_asan_build():
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + \
            ":hard_rss_limit_mb=1024:allocator_may_return_null=1:max_allocation_size_mb=%d" % \
            memory_mb
        limit = None
    with open(stdin_path or os.devnull, "rb") as f:
        try:
            p = subprocess.run([BIN] + args, cwd=cwd, stdin=f, capture_output=True,
                               timeout=timeout, preexec_fn=limit, env=env)
        except subprocess.TimeoutExpired:
            return -1, "", "(timed out after %d s)" % timeout
    return (p.returncode, p.stdout.decode(errors="replace"),
            p.stderr.decode(errors="replace"))


class PipeReader:
    """A child's pipe drained by a thread, so that a test waits for what the child writes
    there (a status line, a message) instead of sleeping, and still gets all of it."""

    def __init__(self, pipe):
        self.data = b""
        self.eof = False
        self._pipe = pipe
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._drain, daemon=True)
        self._thread.start()

    def _drain(self):
        fd = self._pipe.fileno()	# below the file object: bytes, no '\r' translated
        while True:
            chunk = os.read(fd, 65536)
            with self._cond:
                self.data += chunk
                self.eof = not chunk
                self._cond.notify_all()
            if not chunk:
                return

    def wait_for(self, pattern, timeout=60, start=0):
        """The first match of the regex pattern (text) at or after byte start of what came,
        as soon as it has come; None when the pipe ends or timeout seconds pass first."""
        rx = re.compile(pattern.encode())
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                m = rx.search(self.data, start)
                left = deadline - time.monotonic()
                if m or self.eof or left <= 0:
                    return m
                self._cond.wait(left)

    def text(self):
        """All that came, once the pipe has ended (the child exited)."""
        self._thread.join()
        self._pipe.close()
        return self.data.decode(errors="replace")


def split_normal_json(out):
    """Split '--output-format=normal,json' output into the text (the header printed before
    the run and the report, which fio prints after the JSON document) and the JSON."""
    at = 0 if out.startswith("{\n") else out.find("\n{\n") + 1
    end = out.find("\n}\n", at)
    if (at == 0 and not out.startswith("{\n")) or end < 0:
        raise Failure("no JSON document in the output:\n" + out)
    return out[:at] + out[end + 3:], json.loads(out[at:end + 3])


def engine_available(name):
    code, out, _ = run(["--enghelp"])
    for line in out.splitlines():
        fields = line.split(None, 1)
        if fields and fields[0] == name:
            return "built without" not in line
    return False


def scratch_dir():
    """A temporary directory on a disk file system (O_DIRECT works there, not on tmpfs)."""
    base = "/var/tmp" if os.path.isdir("/var/tmp") else None
    return tempfile.mkdtemp(prefix="iojob-e2e-", dir=base)


class Checks:
    """Collects failures so that one run reports every broken case, not just the first."""

    def __init__(self, name):
        self.name = name
        self.failures = []
        self.count = 0
        self.skips = []

    def check(self, cond, what):
        self.count += 1
        if not cond:
            self.failures.append(what)

    def skip(self, why):
        self.skips.append(why)

    def in_scratch(self, check):
        """check(self, d) in a scratch directory of its own, removed after."""
        d = scratch_dir()
        try:
            check(self, d)
        finally:
            remove(d)

    def finish(self):
        for s in self.skips:
            print("SKIP: " + s)
        for f in self.failures:
            print("FAIL: " + f)
        print("%s: %d checks, %d failures, %d skipped" %
              (self.name, self.count, len(self.failures), len(self.skips)))
        if self.failures:
            sys.exit(1)
        if self.count == 0 and self.skips:
            sys.exit(SKIP)
        if self.count == 0:
            # a script whose checks never ran tested nothing: that is no pass
            print("FAIL: %s ran no check" % self.name)
            sys.exit(1)
        sys.exit(0)


def private_mounts():
    """Run this test on in a mount namespace of its own (unshare -m, private propagation).
    A sandbox the suite starts beside it (bwrap, unshare) copies every mount there is when
    it starts, and a file system this test mounts on a loop device would then stay mounted
    in the copy, its device held, after the test unmounts it (a loaded run met it: "loop2
    ... is open exclusively"). Where unshare cannot run, the test runs as it is."""
    if os.environ.get("IOJOB_PRIVATE_MOUNTS") or os.geteuid() != 0 or \
            not shutil.which("unshare") or \
            subprocess.run(["unshare", "--mount", "true"], capture_output=True).returncode:
        return
    env = dict(os.environ, IOJOB_PRIVATE_MOUNTS="1")
    os.execvpe("unshare", ["unshare", "--mount", "--propagation", "private",
                           sys.executable] + sys.argv, env)


def remove(path):
    shutil.rmtree(path, ignore_errors=True)


def run_checks(name, checks):
    """A script's usual main(): each check(c, d) in a scratch directory of its own, then
    the summary and the exit status."""
    c = Checks(name)
    for check in checks:
        c.in_scratch(check)
    c.finish()


@contextlib.contextmanager
def small_tmpfs(c, d, name, options, what):
    """A tmpfs mounted at d/name with options ("size=256k", "ro,size=64k") for the with
    block, unmounted after it; None, and what is not tested skipped, where none can be
    mounted (not root, no mount(8), refused)."""
    mnt = os.path.join(d, name)
    os.mkdir(mnt)
    if os.geteuid() != 0 or not shutil.which("mount"):
        c.skip("%s: mounting a tmpfs needs root and mount(8)" % what)
        yield None
        return
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", mnt],
                       capture_output=True, text=True)
    if p.returncode:
        c.skip("%s: cannot mount a tmpfs: %s" % (what, p.stderr.strip()))
        yield None
        return
    try:
        yield mnt
    finally:
        subprocess.run(["umount", mnt])
