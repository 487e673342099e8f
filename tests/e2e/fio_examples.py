#!/usr/bin/env python3
"""fio's own example job files: every one that fio 3.33 parses (fio --parse-only) and whose
ioengines iojob has must pass iojob --parse-only, and the ones on files must run, at a
small size, in a sandbox where nothing but a scratch directory can be written and no
device exists.

The examples are fio's, under fio's licence: none is kept here. They are read from
$IOJOB_FIO_EXAMPLES (a directory, fio's source examples/; tests/run.sh sets it to what
tests/fio_source.py fetched from Debian's archive), else from where a Debian fio package
would install them (/usr/share/doc/fio/examples, .fio or .fio.gz); without either the test
is skipped, saying so.

An example refused for an option a later issue builds ("issue 17"), or for zoned block
devices, is listed as "later: ..." with the reason and does not fail the test; any other
refusal or failure does.
"""
import glob
import gzip
import os
import re
import shutil
import subprocess
import sys

from common import BIN, SKIP, remove, scratch_dir

FIO = shutil.which("fio")
BWRAP = shutil.which("bwrap")
# The engines this build has, as --enghelp lists them
OURS = {line.split()[0] for line in
        subprocess.run([BIN, "--enghelp"], capture_output=True, text=True).stdout.splitlines()
        if line.strip() and "built without" not in line}
DEFAULT_ENGINE = "psync"
# Refusals with a reason that are not failures: a later issue's options, and zoned block
# devices, which this project has none to test on.
LATER = ("issue 17", "zoned block device")
# What a run is cut down to: every job small, short and alone on the scratch directory.
SMALL = ["--set", "runtime=1", "--set", "ramp_time=0", "--set", "startdelay=0", "--set",
         "loops=1"]
RUN_TIMEOUT = 120
SCRATCH_BYTES = 64 << 20	# the sandbox's /tmp, a tmpfs (O_DIRECT works there too)


def example_dir():
    env = os.environ.get("IOJOB_FIO_EXAMPLES")
    if env:
        return env if os.path.isdir(env) else None
    d = "/usr/share/doc/fio/examples"
    return d if os.path.isdir(d) else None


def collect(src, into):
    """The examples as plain files in into (a .fio.gz uncompressed): {name: path}."""
    out = {}
    for path in sorted(glob.glob(os.path.join(src, "*.fio")) +
                       glob.glob(os.path.join(src, "*.fio.gz"))):
        name = os.path.basename(path)
        if name.endswith(".gz"):
            name = name[:-3]
            with gzip.open(path, "rt") as f, open(os.path.join(into, name), "w") as g:
                g.write(f.read())
            out[name] = os.path.join(into, name)
        else:
            out[name] = path
    return out


def engines(path):
    with open(path, errors="replace") as f:
        text = f.read()
    found = {m.group(1).strip() for m in
             re.finditer(r"^\s*ioengine\s*=\s*([^;#\n]*)", text, re.M)}
    return found or {DEFAULT_ENGINE}


def on_devices(path):
    """Whether the example names a device (filename=/dev/...): such ones are parsed only."""
    with open(path, errors="replace") as f:
        return bool(re.search(r"^\s*filename\s*=\s*/dev/", f.read(), re.M))


def refusal(err):
    """('later', option, reason) for a refusal of a later issue's option, or None."""
    m = re.search(r"option '([^']+)': not in iojob: (.*)", err)
    if not m:
        return None
    reason = m.group(2)
    if any(w in reason for w in LATER):
        return "later", m.group(1), reason
    return None


def sandboxed(args, path, name):
    """Run iojob on the example at path with / read-only, a minimal /dev (no disk), and a
    tmpfs of SCRATCH_BYTES as /tmp, its cwd: the only place it can write, small enough that
    a job filling its file system (fill_device=1) fills only that."""
    cmd = [BWRAP, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
           "--size", str(SCRATCH_BYTES), "--tmpfs", "/tmp", "--ro-bind", path, "/tmp/" + name,
           "--chdir", "/tmp", "--unshare-all", "--die-with-parent", "--new-session",
           BIN] + args + [name]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT)


def size_of(text):
    """Bytes of a size as a job file writes it (4k, 10G, 4096), or None."""
    m = re.fullmatch(r"(\d+)\s*([kmgtp]?)i?b?", text.strip(), re.I)
    return int(m.group(1)) << (10 * "kmgtp".find(m.group(2).lower()) + 10
                               if m.group(2) else 0) if m else None


def small_args(path):
    """Cut the example down: its files in the scratch directory, under their own names
    (jobs that share a file keep sharing it, jobs apart stay apart), and each of size=,
    io_size= and filesize= that asks for more than 1m cut to 1m (size=1m where none is
    set); a job that names an absolute path gets one file there instead."""
    with open(path, errors="replace") as f:
        text = f.read()
    absolute = re.search(r"^\s*filename\s*=\s*/", text, re.M)
    cuts = []
    for opt in ("size", "io_size", "filesize"):
        values = re.findall(r"^\s*%s\s*=\s*([^;#\n]+)" % opt, text, re.M)
        if any(size_of(v) is None or size_of(v) > (1 << 20) for v in values):
            cuts += ["--set", "%s=1m" % opt]
    if not re.search(r"^\s*(size|filesize|io_size)\s*=", text, re.M):
        cuts += ["--set", "size=1m"]
    return SMALL + cuts + ["--set", "directory=/tmp"] + \
        (["--set", "filename=example.dat"] if absolute else [])


def sandbox_refused():
    """Why bwrap cannot make its sandbox here (a container that allows no new namespaces),
    or None when it can."""
    p = subprocess.run([BWRAP, "--ro-bind", "/", "/", "--unshare-all", "true"],
                       capture_output=True, text=True, timeout=60)
    return None if p.returncode == 0 else (p.stderr.strip().splitlines() or ["exit %d" %
                                                                           p.returncode])[0]


def multicast_group(path):
    """The UDP multicast group a net example joins, or None: the sandbox's network (its
    own namespace, loopback alone) has no route for one, as fio's would not."""
    with open(path, errors="replace") as f:
        m = re.search(r"^\s*hostname\s*=\s*(2(?:2[4-9]|3\d)\.\S+)", f.read(), re.M)
    return m.group(1) if m else None


def missing_program(path):
    """The program= an exec example runs, when this machine lacks it."""
    with open(path, errors="replace") as f:
        m = re.search(r"^\s*program\s*=\s*(\S+)", f.read(), re.M)
    return m.group(1) if m and not shutil.which(m.group(1)) else None


def main():
    src = example_dir()
    if not src:
        print("SKIP: fio's examples are not installed (Debian's fio package has none; set "
              "IOJOB_FIO_EXAMPLES to fio's examples/ directory)")
        sys.exit(SKIP)
    if not FIO:
        print("SKIP: fio is not installed: which examples fio parses cannot be told")
        sys.exit(SKIP)
    if not BWRAP:
        print("SKIP: bwrap (bubblewrap) is not installed: the examples cannot run sandboxed")
        sys.exit(SKIP)
    no_sandbox = sandbox_refused()
    tmp = scratch_dir()
    failures, lines = [], []
    counts = {"examples": 0, "fio parses": 0, "ours": 0, "parsed": 0, "ran": 0,
              "later": 0, "devices": 0}
    try:
        for name, path in collect(src, tmp).items():
            counts["examples"] += 1
            p = subprocess.run([FIO, "--parse-only", path], capture_output=True, text=True,
                               cwd=tmp, timeout=60)
            if p.returncode:
                lines.append("not fio's here: %s" % name)
                continue
            counts["fio parses"] += 1
            eng = engines(path)
            if not eng <= OURS:
                lines.append("other engines: %s (%s)" % (name, ", ".join(sorted(eng - OURS))))
                continue
            counts["ours"] += 1
            p = subprocess.run([BIN, "--parse-only", path], capture_output=True, text=True,
                               cwd=tmp, timeout=60)
            if p.returncode:
                why = refusal(p.stderr)
                if why:
                    counts[why[0]] += 1
                    lines.append("%s: %s: option '%s': %s" % (why[0], name, why[1], why[2]))
                else:
                    failures.append("%s: fio parses it, iojob --parse-only: %s" %
                                    (name, p.stderr.strip()))
                continue
            counts["parsed"] += 1
            if on_devices(path):
                counts["devices"] += 1
                lines.append("on a device, parsed only: %s" % name)
                continue
            if "e4defrag" in eng:	# moves ext4's blocks: the sandbox's scratch is tmpfs
                lines.append("on ext4, parsed only (e2e-engines_ext4 runs e4defrag): %s" %
                             name)
                continue
            if no_sandbox:
                continue	# parsed; not run without the sandbox (said once, below)
            if missing_program(path):
                lines.append("needs a program this machine lacks: %s (%s)" %
                             (name, missing_program(path)))
                continue
            if multicast_group(path):
                lines.append("joins multicast group %s, which the sandbox's network cannot "
                             "route, parsed only: %s" % (multicast_group(path), name))
                continue
            r = sandboxed(small_args(path), path, name)
            if r.returncode == 0:
                counts["ran"] += 1
            else:
                why = refusal(r.stderr)
                if why:
                    counts[why[0]] += 1
                    lines.append("%s: %s (run): option '%s': %s" % (why[0], name, why[1],
                                                                    why[2]))
                else:
                    failures.append("%s: does not run small: exit %d %s" %
                                    (name, r.returncode, r.stderr.strip()[-400:]))
    finally:
        remove(tmp)
    for line in lines:
        print(line)
    if no_sandbox:
        print("SKIP: the examples were parsed but not run: bwrap cannot make a sandbox here "
              "(%s)" % no_sandbox)
    for f in failures:
        print("FAIL: " + f)
    print("fio_examples: %s" % ", ".join("%s %d" % kv for kv in counts.items()))
    print("fio_examples: %d failures" % len(failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
