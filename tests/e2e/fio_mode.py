#!/usr/bin/env python3
"""Run under the name fio (a symlink), iojob answers as the tools that run fio expect:
--version in fio's form naming iojob, read right by each tool's own parse of it (KDiskMark,
fio-plot's bench-fio, blktests: their rules are written out here); nothing on stderr where
fio writes nothing (iojob's notes only with --notes); the status line on stdout, never
above a JSON report; fio's exit codes (1 for bad input, 128 for a signal); and
-Dfio_symlink=true installs fio -> iojob. Under its own name iojob is unchanged."""
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile

from common import BIN, SRC, Checks, PipeReader, run, scratch_dir

WAIT = 60	# the longest wait for an event (sanitizer builds are slow)

# What fio 3.33 exits with on each case (checked against it: fio-3.33 on Debian 12), and
# iojob under its own name. args are the command line's, files the job files in the cwd.
BAD_INPUT = [
    ("unknown option", ["--name=a", "--bogus=1"], 1),
    ("missing job file", ["nonexistent.fio"], 1),
    ("bad rw value", ["--name=a", "--rw=bogus", "--filename=d.bin", "--size=1m"], 1),
    ("unknown ioengine", ["--name=a", "--ioengine=bogus", "--filename=d.bin", "--size=1m"], 1),
    ("bad output format", ["--name=a", "--filename=d.bin", "--size=1m",
                           "--output-format=bogus"], 1),
    ("unknown key in a job file", ["badkey.fio"], 1),
    ("line outside a section", ["junk.fio"], 1),
    ("no jobs", [], 1),
    ("a subcommand's name is a job file", ["report"], 1),
]
JOB_FILES = {
    "badkey.fio": "[global]\nbogus=1\n[a]\nfilename=d.bin\nsize=1m\n",
    "junk.fio": "junk line\n[a]\nfilename=d.bin\nsize=1m\n",
}

# Clean runs where iojob says a note on stderr and fio says nothing: a file laid out (in a
# JSON report: the normal report has fio's own line for it), psync's depth cap, gtod_reduce.
NOTED = [
    ("layout of a new file", ["--rw=read"], r"Laying out IO file"),
    ("psync with iodepth=8", ["--rw=write", "--ioengine=psync", "--iodepth=8"],
     r"iodepth=8 is capped at 1"),
    ("gtod_reduce=1", ["--rw=write", "--gtod_reduce=1"], r"gtod_reduce=1"),
]


def remove(path):
    """A data file gone, so that the next run lays it out anew."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def fio(link, args, cwd, timeout=120):
    p = subprocess.run([link] + args, cwd=cwd, capture_output=True, text=True,
                       timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def sh(cmd, path_dir):
    """A tool's shell pipeline, with the fio link first on PATH."""
    env = dict(os.environ, PATH=path_dir + os.pathsep + os.environ.get("PATH", ""))
    return subprocess.run(["sh", "-c", cmd], capture_output=True, text=True, env=env).stdout


def check_version(c, link):
    code, own, err = run(["--version"])
    m = re.fullmatch(r"iojob (\S+)\n", own)
    c.check(code == 0 and m, "iojob --version stays 'iojob X.Y.Z': %r" % own)
    version = m.group(1) if m else "?"
    code, out, err = fio(link, ["--version"], os.path.dirname(link))
    c.check(code == 0 and err == "" and out == "fio-3.33-iojob-%s\n" % version,
            "fio --version: fio's form naming iojob: exit %d %r %r" % (code, out, err))
    # KDiskMark: QProcess's stdout .simplified(), then indexOf("fio-") == 0
    c.check(" ".join(out.split()).find("fio-") == 0, "KDiskMark's rule: starts with fio-")
    # fio-plot's bench-fio: checks.py's '"fio-3" in result', bench-fio.sh's grep -i fio-3
    c.check("fio-3" in out.strip(), "bench-fio's rule: holds fio-3")
    bindir = os.path.dirname(link)
    c.check(sh("fio --version | grep -i fio-3", bindir).strip() != "",
            "bench-fio.sh's grep -i fio-3 finds it")
    # blktests' _have_fio_ver: cut -c 5- | sed 's/-.*//', then IFS=. read a b c into
    # integers: only digits and dots may be left, or bash's arithmetic fails
    num = sh("fio --version | cut -c 5- | sed 's/-.*//'", bindir).strip()
    c.check(re.fullmatch(r"3\.33", num), "blktests' cut reads the release: %r" % num)


def check_report_version(c, link, d):
    """Where fio writes its version in a report, the same string as --version."""
    _, ver, _ = fio(link, ["--version"], d)
    ver = ver.strip()
    job = ["--name=v", "--filename=v.bin", "--size=64k", "--rw=read"]
    code, out, err = fio(link, job + ["--output-format=json"], d)
    try:
        doc = json.loads(out)
    except ValueError:
        doc = {}
    c.check(code == 0 and doc.get("fio version") == ver,
            "JSON 'fio version' is --version's: %r" % doc.get("fio version"))
    code, out, err = fio(link, job + ["--minimal"], d)
    fields = out.split(";")
    c.check(code == 0 and len(fields) > 2 and fields[1] == ver,
            "terse field 2 is --version's: %r" % fields[1:2])
    code, out, err = fio(link, job, d)
    c.check(code == 0 and ("\n%s\n" % ver) in out, "the normal report's header line: %s" % ver)
    code, out, err = run(job + ["--output-format=json"], cwd=d)
    c.check(code == 0 and '"fio version" : "iojob-' in out, "iojob's own JSON: iojob-X.Y.Z")
    remove(os.path.join(d, "v.bin"))


def check_quiet_stderr(c, link, d):
    for what, args, note in NOTED:
        data = os.path.join(d, "n.bin")
        job = ["--name=n", "--filename=n.bin", "--size=64k"] + args
        remove(data)
        code, out, err = run(job + ["--output-format=json"], cwd=d)
        c.check(code == 0 and re.search(r"^iojob: note: .*" + note, err, re.M),
                "%s: iojob says a note: exit %d %r" % (what, code, err))
        remove(data)
        code, out, err = fio(link, job + ["--output-format=json"], d)
        try:
            ok = json.loads(out)["jobs"][0]["jobname"] == "n"
        except (ValueError, KeyError, IndexError):
            ok = False
        c.check(code == 0 and err == "" and ok,
                "%s: run as fio, a JSON report and nothing on stderr: exit %d %r" %
                (what, code, err))
        remove(data)
        code, out, err = fio(link, job + ["--minimal"], d)
        c.check(code == 0 and err == "" and out.startswith("3;fio-3.33-iojob-"),
                "%s: run as fio, terse: nothing on stderr: exit %d %r" % (what, code, err))
        remove(data)
        code, out, err = fio(link, job + ["--output-format=json", "--notes"], d)
        c.check(code == 0 and re.search(r"^fio: note: .*" + note, err, re.M) and
                all(ln.startswith("fio: ") for ln in err.splitlines()),
                "%s: --notes says iojob's note run as fio too, as 'fio: note:': %r" %
                (what, err))
    # the normal report keeps fio's own line for a layout, on stdout
    remove(os.path.join(d, "n.bin"))
    code, out, err = fio(link, ["--name=n", "--filename=n.bin", "--size=64k"], d)
    c.check(code == 0 and err == "" and "n: Laying out IO file (1 file / 0MiB)\n" in out,
            "normal report run as fio: the layout line on stdout, as fio: %r" % err)
    remove(os.path.join(d, "n.bin"))


# fio's switches iojob refuses or has its own answer to, and a sweep's skipped cell: under
# the name fio each line on stderr starts "fio:" (the README promises it; fio's do).
SWITCHES = [["--idle-prof=bogus"], ["-I", "none"],
            ["--cpuclock-test"], ["--client=host"], ["--server"],
            ["--memcpytest"], ["--profile=act"], ["--latency-log=x"], ["--bogus=1"],
            ["--debug=io"], ["--crctest=murmur3"], ["--max-jobs=x"], ["--aux-path=/nonexistent"],
            ["--notes", "--gtod_reduce=1"], ["--bs="]]


def check_prefix(c, link, d):
    job = ["--name=p", "--ioengine=null", "--size=64k", "--output=/dev/null"]
    for sw in SWITCHES:
        code, out, err = fio(link, sw + job, d)
        bad = [ln for ln in err.splitlines() if not ln.startswith("fio: ")]
        c.check(err and not bad, "run as fio, %s: every line starts 'fio: ': exit %d %r" %
                (" ".join(sw), code, err))
    res = os.path.join(d, "p.jsonl")
    for _ in range(2):
        code, out, err = fio(link, job + ["--sweep", "bs=4k", "--results=" + res,
                                          "--resume"], d)
    c.check(code == 0 and "already: skipped" in err and
            all(ln.startswith("fio: ") for ln in err.splitlines()),
            "run as fio, a resumed sweep's lines start 'fio: ': %r" % err)


def check_no_job_output(c, link, d):
    """A job file of [global] alone: fio 3.33 writes "No job(s) defined" into --output (a
    tool that reads the file finds why there is no report); so does iojob, in both names.
    A file that does not parse leaves no --output file."""
    with open(os.path.join(d, "g.fio"), "w") as f:
        f.write("[global]\nioengine=null\n")
    want = "No job(s) defined\n\n"
    real = real_fio_333()
    for name, cmd in (("fio", link), ("iojob", BIN)) + ((("fio 3.33", real),) if real else ()):
        out = os.path.join(d, "g.out")
        remove(out)
        code, _, _ = fio(cmd, ["--output=" + out, "g.fio"], d)
        text = open(out).read() if os.path.exists(out) else None
        c.check(code in (1, 2) and text == want, "%s: [global] alone: exit %d, --output %r" %
                (name, code, text))
    remove(os.path.join(d, "g.out"))
    with open(os.path.join(d, "bad.fio"), "w") as f:
        f.write("junk\n[a]\nioengine=null\n")
    code, _, _ = fio(link, ["--output=" + os.path.join(d, "g.out"), "bad.fio"], d)
    c.check(code == 1 and not os.path.exists(os.path.join(d, "g.out")),
            "a job file that does not parse: no --output file: %d" % code)


def check_trailing_text(c, link, d):
    """fio's own t/strided.py passes filesize=65536) (a stray parenthesis fio ignores): run
    as fio, a size followed by text is read as fio reads it (the number and its unit), with
    a note under --notes; under iojob's name a lone size stays an error (a typo more likely),
    but a range of several values is read as fio reads it in both names (4k-8k) is 4k to
    8k); 'z' after a size stays an error, as fio's."""
    job = ["--name=t", "--ioengine=null", "--size=1m", "--bs=4k", "--output-format=json"]
    for val, head, size in (("65536)", "65536", 65536), ("8kx", "8192", 8192),
                            ("0x4000)", "16384", 16384)):
        code, out, err = fio(link, job + ["--filesize=" + val, "--notes"], d)
        try:
            done = json.loads(out)["jobs"][0]["read"]["io_bytes"]
        except (ValueError, KeyError, IndexError):
            done = None
        c.check(code == 0 and done == size and "option 'filesize': '%s' is read as "
                "'%s', as fio reads it" % (val, head) in err,
                "run as fio, filesize=%s: %s bytes (want %d): %r" % (val, done, size, err))
    code, _, err = run(job + ["--filesize=65536)"], cwd=d)
    c.check(code == 2 and "'65536)' is not a size" in err,
            "under iojob's name a lone size with text after it is refused: %d %r" %
            (code, err))
    code, out, err = fio(link, ["--name=t", "--ioengine=null", "--filesize=64k", "--size=50%)",
                                "--bs=4k", "--output-format=json"], d)
    try:
        done = json.loads(out)["jobs"][0]["read"]["io_bytes"]
    except (ValueError, KeyError, IndexError):
        done = None
    c.check(code == 0 and done == 32768, "run as fio, size=50%%) is half the file: %s %r" %
            (done, err))
    code, _, err = run(job + ["--filesize=4k-8k)", "--parse-only"], cwd=d)
    c.check(code == 0 and "'4k-8k)' is read as '4096-8192', as fio reads it" in err,
            "a range with text after it: %d %r" % (code, err))
    code, _, err = fio(link, job + ["--filesize=4k-8kz"], d)
    c.check(code == 1 and "'4k-8kz' is not a size" in err,
            "'z' after a size stays an error run as fio too: %d %r" % (code, err))


def check_trailing_number_text(c, link, d):
    """xfstests writes iodepth=128*${LOAD_FACTOR} and runtime=30*${TIME_FACTOR} in its job
    files, meaning products: fio 3.33 reads the number and stops at the '*' (128 and 30 s;
    numjobs=2*2 is 2 jobs), and its tests pass. Run as fio, iojob reads them so, with a
    note; a time with a unit before the text fio reads as 0 ("2s*3") stays an error, as
    does all of it under iojob's own name."""
    job = os.path.join(d, "x.fio")
    with open(job, "w") as f:
        f.write("[x]\nioengine=null\nsize=1m\nrw=randread\niodepth=128*1\n"
                "runtime=30*1\nnumjobs=2*2\n")
    code, out, err = fio(link, [job, "--notes", "--output-format=json"], d)
    jobs = json.loads(out)["jobs"] if code == 0 else []
    c.check(len(jobs) == 2 and all(j["job options"]["iodepth"] == "128*1" for j in jobs) and
            "option 'iodepth': '128*1' is read as '128', as fio reads it" in err and
            "option 'runtime': '30*1' is read as '30', as fio reads it" in err,
            "run as fio, xfstests' products: %d jobs %r" % (len(jobs), err))
    code, out, err = fio(link, ["--name=t", "--ioengine=null", "--size=1m", "--iodepth=4x",
                                "--ioengine=libaio", "--filename=t.dat", "--direct=0",
                                "--output-format=json", "--notes"], d)
    c.check(code == 0 and "'4x' is read as '4'" in err, "iodepth=4x: %d %r" % (code, err))
    code, _, err = fio(link, ["--name=t", "--ioengine=null", "--size=1m", "--runtime=2s*3"], d)
    c.check(code == 1 and "'2s*3' is not a time" in err, "runtime=2s*3: %d %r" % (code, err))
    code, _, err = run(["--name=t", "--ioengine=null", "--size=1m", "--iodepth=128*1"], cwd=d)
    c.check(code == 2 and "'128*1' is not a number" in err,
            "under iojob's name iodepth=128*1 is refused: %d %r" % (code, err))


def real_fio_333():
    """fio 3.33 itself, when installed: the exit codes are compared with its own too."""
    path = shutil.which("fio")
    if not path or os.path.realpath(path) == os.path.realpath(BIN):
        return None
    p = subprocess.run([path, "--version"], capture_output=True, text=True)
    return path if p.stdout.strip() == "fio-3.33" else None


def check_exit_codes(c, link, d):
    for name, text in JOB_FILES.items():
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
    real = real_fio_333()
    for what, args, want in BAD_INPUT:
        code, out, err = fio(link, args, d)
        c.check(code == want, "%s: run as fio, exit %d as fio's (not %d)" % (what, want, code))
        c.check(err.startswith("fio: "), "%s: the error starts 'fio: ': %r" % (what, err))
        code, _, _ = run(args, cwd=d)
        c.check(code == 2, "%s: iojob's own exit stays 2, not %d" % (what, code))
        if real:
            p = subprocess.run([real] + args, cwd=d, capture_output=True, text=True)
            c.check(p.returncode == want, "%s: fio 3.33 itself exits %d (table: %d)" %
                    (what, p.returncode, want))
        remove(os.path.join(d, "d.bin"))
    code, out, err = fio(link, ["--name=a", "--bogus=1"], d)
    c.check(err.startswith("fio: command line: unknown option 'bogus'"),
            "errors start 'fio: ' as fio's: %r" % err)
    code, out, err = fio(link, ["--output-format=x"], d)
    c.check(code == 1 and err.startswith("fio: ") and err.rstrip().endswith("(see fio --help)"),
            "a usage error names fio's help, not iojob's: %d %r" % (code, err))
    code, out, err = fio(link, ["--inflate-log=none.log.fz"], d)
    c.check(code == 1 and err.startswith("fio: --inflate-log"),
            "the command line's other errors start 'fio: ' too: %d %r" % (code, err))
    code, out, err = fio(link, ["--name=a", "--filename=d.bin", "--size=64k", "--parse-only"], d)
    c.check(code == 0 and err == "", "--parse-only: exit 0, quiet: %d %r" % (code, err))


def check_status_line(c, link, d):
    """fio's status line goes to stdout, and never when a JSON report goes there."""
    job = ["--name=s", "--filename=s.bin", "--size=64k", "--time_based", "--runtime=1s",
           "--eta=always", "--eta-interval=250ms", "--output-format=json"]
    code, out, err = run(job, cwd=d)
    c.check(code == 0 and "Jobs:" in err, "iojob: --eta=always writes the line on stderr")
    code, out, err = fio(link, job, d)
    try:
        json.loads(out)
        ok = True
    except ValueError:
        ok = False
    c.check(code == 0 and err == "" and "Jobs:" not in out and ok,
            "run as fio with a JSON report on stdout: no status line anywhere: %r" % err)
    remove(os.path.join(d, "s.bin"))


def check_signal(c, link, d):
    """A signal run as fio: the status line on stdout (--eta=always, not a terminal), then
    fio's line for the signal above the normal report, nothing on stderr, exit 128."""
    p = subprocess.Popen([link, "--name=g", "--filename=g.bin", "--size=64k", "--time_based",
                          "--runtime=120s", "--eta=always", "--eta-interval=250ms"],
                         cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = PipeReader(p.stdout), PipeReader(p.stderr)
    started = out.wait_for(r"Jobs: 1 \(f=", WAIT)
    c.check(started, "run as fio: the status line on stdout")
    if started:
        p.send_signal(signal.SIGINT)
    try:
        code = p.wait(WAIT)
    except subprocess.TimeoutExpired:
        p.kill()
        code = p.wait()
    text, etext = out.text(), err.text()
    c.check(code == 128, "run as fio, SIGINT: exit 128 as fio (not %d)" % code)
    c.check("fio: terminating on signal 2\n" in text and "Run status group 0" in text,
            "run as fio, SIGINT: fio's line, then the report, on stdout")
    c.check(etext == "", "run as fio, SIGINT: nothing on stderr: %r" % etext)
    remove(os.path.join(d, "g.bin"))


def check_install(c):
    """-Dfio_symlink: off by default; on, meson install puts fio -> iojob in bindir. The
    build is configured, not compiled: the built iojob is copied in for the install."""
    meson = shutil.which("meson")
    if not meson:
        c.skip("meson not found: the install of fio -> iojob is not checked")
        return
    p = subprocess.run([meson, "introspect", "--buildoptions", os.path.join(SRC, "meson.build")],
                       capture_output=True, text=True)
    opts = {o["name"]: o for o in json.loads(p.stdout or "[]")}
    c.check(opts.get("fio_symlink", {}).get("value") is False,
            "option fio_symlink exists, false by default")
    tmp = tempfile.mkdtemp(prefix="iojob-e2e-install-")
    try:
        build = os.path.join(tmp, "build")
        p = subprocess.run([meson, "setup", build, SRC, "-Dfio_symlink=true", "-Dtests=disabled",
                            "-Dman=disabled", "-Dmpi=disabled", "--prefix=/usr"],
                           capture_output=True, text=True)
        c.check(p.returncode == 0, "meson setup -Dfio_symlink=true: %s" % p.stdout[-500:])
        if p.returncode:
            return
        p = subprocess.run([meson, "introspect", build, "--installed"], capture_output=True,
                           text=True)
        c.check("/usr/bin/fio" in json.loads(p.stdout or "{}").values(),
                "meson introspect --installed lists /usr/bin/fio")
        shutil.copy(BIN, os.path.join(build, "iojob"))
        dest = os.path.join(tmp, "dest")
        p = subprocess.run([meson, "install", "-C", build, "--no-rebuild", "--destdir", dest],
                           capture_output=True, text=True)
        link = os.path.join(dest, "usr", "bin", "fio")
        c.check(p.returncode == 0 and os.path.islink(link) and os.readlink(link) == "iojob",
                "meson install: bindir/fio -> iojob: %s" % (p.stdout + p.stderr)[-500:])
        if os.path.islink(link):
            code, out, _ = fio(link, ["--version"], tmp)
            c.check(out.startswith("fio-3.33-iojob-"), "the installed fio runs in fio mode")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    c = Checks("fio_mode")
    d = scratch_dir()
    bindir = os.path.join(d, "bin")
    os.mkdir(bindir)
    link = os.path.join(bindir, "fio")
    os.symlink(os.path.abspath(BIN), link)
    try:
        check_version(c, link)
        check_report_version(c, link, d)
        check_quiet_stderr(c, link, d)
        check_prefix(c, link, d)
        check_no_job_output(c, link, d)
        check_exit_codes(c, link, d)
        check_trailing_text(c, link, d)
        check_trailing_number_text(c, link, d)
        check_status_line(c, link, d)
        check_signal(c, link, d)
        check_install(c)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    c.finish()


if __name__ == "__main__":
    main()
