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

An example refused for an option another helper of issue 15 is building now (refused as
"not built yet") is listed as "pending: ..." and does not fail the test: the integrator
tightens PENDING_OK once every group is merged. A refusal of a later issue's option
("issue 17") is listed as "later: ...".
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
# Set to False after the merge of issue 15: then a placeholder refusal fails too.
PENDING_OK = False
# Refusals with a reason that are not failures: a later issue's options, and zoned block
# devices, which this project has none to test on.
LATER = ("issue 17", "zoned block device")
# Values another group of issue 15 owns, not refused as placeholders: pending as well.
PENDING_VALUES = [("option 'verify': 'meta'", "verify=meta, fio's header-only check "
                   "(verification and trim, group F)")]
# What a run is cut down to: every job small, short and alone on the scratch directory.
SMALL = ["--set", "size=1m", "--set", "filesize=1m", "--set", "io_size=1m", "--set",
         "runtime=1", "--set", "ramp_time=0", "--set", "startdelay=0", "--set", "loops=1"]
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
    """(kind, option, reason) of iojob's refusal in err, kind 'pending' for a placeholder
    of issue 15, 'later' for a later issue's option, None for any other failure."""
    for text, why in PENDING_VALUES:
        if text in err:
            return "pending", text.split("'")[1], why
    m = re.search(r"option '([^']+)': not in iojob: (.*)", err)
    if not m:
        return None
    reason = m.group(2)
    if reason.startswith("not built yet"):
        return "pending", m.group(1), reason
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


def small_args(path):
    """Cut the example down: its files in the scratch directory, under their own names
    (jobs that share a file keep sharing it, jobs apart stay apart); a job that names an
    absolute path gets one file there instead."""
    with open(path, errors="replace") as f:
        absolute = re.search(r"^\s*filename\s*=\s*/", f.read(), re.M)
    return SMALL + ["--set", "directory=/tmp"] + (["--set", "filename=example.dat"]
                                                  if absolute else [])


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
    tmp = scratch_dir()
    failures, lines = [], []
    counts = {"examples": 0, "fio parses": 0, "ours": 0, "parsed": 0, "ran": 0,
              "pending": 0, "later": 0, "devices": 0}
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
                if why and (why[0] == "later" or PENDING_OK):
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
            r = sandboxed(small_args(path), path, name)
            if r.returncode == 0:
                counts["ran"] += 1
            else:
                why = refusal(r.stderr)
                if why and (why[0] == "later" or PENDING_OK):
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
    for f in failures:
        print("FAIL: " + f)
    print("fio_examples: %s" % ", ".join("%s %d" % kv for kv in counts.items()))
    print("fio_examples: %d failures" % len(failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
