#!/usr/bin/env python3
"""fio's engines for devices this project has none of (io_uring_cmd: NVMe passthrough; sg
is built, and tested over an emulator in sg.py): --enghelp names each as one this build is without, saying why, and a job that
asks for one, in a job file or on the command line, exits 2 with that reason before any
I/O (its file is never created)."""
import os

from common import Checks, remove, run, scratch_dir

ABSENT = {
    "io_uring_cmd": "no NVMe device",
}


def enghelp_lines():
    _, out, _ = run(["--enghelp"])
    return {line.split(None, 1)[0]: line for line in out.splitlines() if line.strip()}


def check_enghelp(c):
    lines = enghelp_lines()
    for name, why in ABSENT.items():
        line = lines.get(name, "")
        c.check("built without" in line and why in line,
                "--enghelp lists %s as built without, with why: %r" % (name, line))
        code, out, err = run(["--enghelp=" + name])
        c.check(code == 0 and out.startswith(name + ": built without") and why in out,
                "--enghelp=%s: %d %r %r" % (name, code, out, err))


def check_jobs_refused(c, d):
    for name, why in ABSENT.items():
        path = os.path.join(d, "data-" + name)
        code, _, err = run(["--name=j", "--ioengine=" + name, "--filename=" + path,
                            "--size=64k"], cwd=d)
        c.check(code == 2 and "'%s' is not available" % name in err and why in err,
                "--ioengine=%s: exit %d, %r" % (name, code, err))
        job = os.path.join(d, name + ".fio")
        with open(job, "w") as f:
            f.write("[j]\nioengine=%s\nfilename=%s\nsize=64k\nrw=read\n" % (name, path))
        code, _, err = run([job], cwd=d)
        c.check(code == 2 and (name + ".fio:2") in err and why in err,
                "job file with ioengine=%s: exit %d, %r" % (name, code, err))
        c.check(not os.path.exists(path), "%s: the job laid out %s" % (name, path))


def main():
    c = Checks("engines_absent")
    d = scratch_dir()
    try:
        check_enghelp(c)
        check_jobs_refused(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
