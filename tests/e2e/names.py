#!/usr/bin/env python3
"""A job name that is not UTF-8 or holds a newline, ';' or an escape sequence breaks no
output: JSON, json+, the status lines and result sets stay valid JSON (a byte that is not
UTF-8 reads U+FFFD), the terse line keeps its fields and its one line (';' and control
characters become '_'), and the normal report shows control characters escaped."""
import json
import os
import subprocess

from common import BIN, Checks, remove, run, scratch_dir

NAME = b"a\nb;c\x1b[31md\xff\xfe\xe2\x82\xac\x7f"
JSON_NAME = "a\nb;c\x1b[31md\ufffd\ufffd\u20ac\x7f"
TERSE_NAME = b"a_b_c_[31md\xff\xfe\xe2\x82\xac_"
TEXT_NAME = b"a\\nb;c\\x1b[31md\\xff\\xfe\xe2\x82\xac\\x7f"
DESC = b"x;y\nz\x1b"
JOB = [b"--ioengine=null", b"--size=64k", b"--description=" + DESC]


def run_bytes(args, cwd):
    p = subprocess.run([BIN.encode()] + args, cwd=cwd, capture_output=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def check_json(c, d):
    for fmt in (b"json", b"json+"):
        code, out, err = run_bytes([b"--name=" + NAME] + JOB + [b"--output-format=" + fmt], d)
        try:
            job = json.loads(out)["jobs"][0]
        except ValueError as e:
            c.check(False, "%s: not JSON (%s): %r" % (fmt, e, out[:300]))
            continue
        c.check(code == 0 and job["jobname"] == JSON_NAME and job["desc"] == DESC.decode(),
                "%s: the name with U+FFFD for each stray byte: %r" % (fmt, job["jobname"]))


def check_status_lines(c, d):
    code, out, err = run_bytes([b"--name=" + NAME] + JOB + [
        b"--runtime=0.6", b"--time_based", b"--rate_iops=20000", b"--status-interval=250ms",
        b"--output-format=json", b"--status-format=delta"], d)
    lines = out.split(b"\n")
    objs = []
    try:
        while lines and lines[0].startswith(b'{"interval"'):
            objs.append(json.loads(lines.pop(0)))
        final = json.loads(b"\n".join(lines))
    except ValueError as e:
        c.check(False, "status lines: not JSON (%s): %r" % (e, out[:300]))
        return
    c.check(code == 0 and objs and final["jobs"][0]["jobname"] == JSON_NAME,
            "status lines and report: exit %d, %d lines" % (code, len(objs)))
    c.check(all(o["jobs"][0]["jobname"] == JSON_NAME for o in objs),
            "each status line names the job: %r" % objs[:1])
    # fio's shape: one whole document per interval, then the report
    code, out, err = run_bytes([b"--name=" + NAME] + JOB + [
        b"--runtime=0.6", b"--time_based", b"--rate_iops=20000", b"--status-interval=250ms",
        b"--output-format=json"], d)
    dec, at, docs = json.JSONDecoder(), 0, []
    try:
        text = out.decode()
        while text[at:].strip():
            at += len(text[at:]) - len(text[at:].lstrip())
            doc, at = dec.raw_decode(text, at)
            docs.append(doc)
    except ValueError as e:
        c.check(False, "status documents: not JSON (%s): %r" % (e, out[:300]))
        return
    c.check(code == 0 and len(docs) >= 2 and
            all(x["jobs"][0]["jobname"] == JSON_NAME for x in docs),
            "each status document names the job: %d documents" % len(docs))


def check_results(c, d):
    code, _, err = run_bytes([b"--name=" + NAME] + JOB + [
        b"--sweep", b"bs=4k,8k", b"--results", b"r.jsonl", b"--label", b"\xff;\n", b"--set",
        b"iodepth=1", b"--output-format=terse"], d)
    c.check(code == 0, "sweep: exit %d %r" % (code, err))
    with open(os.path.join(d, "r.jsonl"), "rb") as f:
        lines = f.read().splitlines()
    try:
        cells = [json.loads(line) for line in lines]
    except ValueError as e:
        c.check(False, "result set: not JSON (%s)" % e)
        return
    c.check(len(cells) == 2 and all(x["label"] == "\ufffd;\n" for x in cells) and
            all(x["report"]["jobs"][0]["jobname"] == JSON_NAME for x in cells),
            "result set: two cells with the name and label: %r" % [x["label"] for x in cells])


def check_terse(c, d):
    code, plain, _ = run_bytes([b"--name=plain"] + JOB + [b"--output-format=terse"], d)
    code2, out, err = run_bytes([b"--name=" + NAME] + JOB + [b"--output-format=terse"], d)
    c.check(code == 0 and code2 == 0, "terse: exit %d %d %r" % (code, code2, err))
    lines = out.split(b"\n")
    c.check(len(lines) == 2 and lines[1] == b"", "terse: one line: %r" % out[:200])
    fields = lines[0].split(b";")
    c.check(len(fields) == len(plain.split(b"\n")[0].split(b";")),
            "terse: as many fields as for a plain name: %d" % len(fields))
    c.check(fields[2] == TERSE_NAME and fields[-1] == b"x_y_z_",
            "terse: ';' and control characters as '_': %r %r" % (fields[2], fields[-1]))


def check_normal(c, d):
    code, out, err = run_bytes([b"--name=" + NAME, b"--ioengine=psync", b"--size=64k",
                                b"--filename=lay.bin", b"--description=" + DESC], d)
    c.check(code == 0, "normal: exit %d %r" % (code, err))
    c.check(b"\x1b" not in out and b"\x7f" not in out, "normal: no escape or DEL byte")
    lines = out.split(b"\n")
    c.check(lines[0].startswith(TEXT_NAME + b": (g=0): rw=read"),
            "normal: the job's header is one line, escaped: %r" % lines[0])
    c.check(any(l.startswith(TEXT_NAME + b": (groupid=0, jobs=1)") for l in lines),
            "normal: the job's report line is one line: %r" % out[:400])
    c.check(b"  Description  : [x;y\\nz\\x1b]" in lines, "normal: the description escaped")
    c.check(any(l.startswith(TEXT_NAME + b": Laying out IO file") for l in lines),
            "normal: the layout line escaped")


def check_stderr(c, d):
    """A job's error on stderr names the job with its control characters escaped."""
    code, _, err = run(["--name=a\x1b[2Jb", "--rw=write", "--filename=/dev/full",
                        "--size=8k", "--output-format=json"], cwd=d)
    c.check(code == 1 and "\x1b" not in err and "\\x1b" in err,
            "stderr escapes the name's ESC (exit %d): %r" % (code, err))


def check_paths(c, d):
    """A name with '/' names a file in the job's directory, never a path out of it: fio
    writes [../x] to ../x.0.0 and lays out [/etc/passwd] as /etc/passwd.0.0 (issue 27)."""
    cwd = os.path.join(d, "a", "b")
    os.makedirs(os.path.join(cwd, "sub"))
    outside = os.path.join(d, "outside")
    with open(os.path.join(cwd, "jobs.fio"), "w") as f:
        f.write("[global]\nsize=64k\nioengine=psync\n[../x]\nrw=write\n"
                "[%s]\nrw=read\n[../y]\nrw=write\ndirectory=sub\n" % outside)
    code, _, err = run(["jobs.fio", "--output-format=terse"], cwd=cwd)
    c.check(code == 0, "job names with '/': exit %d %r" % (code, err))
    made = sorted(os.listdir(cwd)) + sorted(os.listdir(os.path.join(cwd, "sub")))
    c.check(not os.path.exists(os.path.join(d, "a", "x.0.0")), "[../x] wrote out of its directory")
    c.check(not os.path.exists(outside + ".0.0"), "a read job [%s] laid out %s.0.0" %
            (outside, outside))
    want = [".._x.0.0", outside.replace("/", "_") + ".0.0", "jobs.fio", "sub", ".._y.0.0"]
    c.check(made == sorted(want[:4]) + [want[4]], "the files made: %r" % made)
    code, _, err = run(["jobs.fio", "--notes", "--output=/dev/null"], cwd=cwd)
    c.check(code == 0 and err.count("a section name is not a path here") == 3 and
            "jobs.fio:4: job '../x'" in err, "a note per job named with '/': %r" % err)


def check_command_line_path(c, d):
    """A --name= on the command line is a path, as fio takes it: LemonBench runs
    `fio -name=$HOME/.LemonBench/tmp/TestFile.bin ...` to test that disk, then removes
    TestFile.bin.0.0 there. Missing directories are made, as fio makes them."""
    target = os.path.join(d, "disk", "tmp", "TestFile.bin")
    for name, path in ((target, target + ".0.0"),
                       ("rel/T.bin", os.path.join(d, "rel", "T.bin.0.0"))):
        code, _, err = run(["-name=" + name, "-rw=randwrite", "-bs=4k", "-size=64k",
                            "-ioengine=psync", "--minimal"], cwd=d)
        c.check(code == 0 and os.path.getsize(path) == 65536 if os.path.exists(path) else False,
                "--name=%s: exit %d, %s made: %s" % (name, code, path, err))
        c.check(not [f for f in os.listdir(d) if f.endswith(".0.0")],
                "--name=%s: nothing in the working directory: %s" % (name, os.listdir(d)))


def main():
    c = Checks("names")
    d = scratch_dir()
    try:
        check_json(c, d)
        check_status_lines(c, d)
        check_results(c, d)
        check_terse(c, d)
        check_normal(c, d)
        check_stderr(c, d)
        check_paths(c, d)
        check_command_line_path(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
