#!/usr/bin/env python3
"""The live status line (on a terminal only, unless --eta says otherwise) and
--status-interval's per-interval results, as text and as one JSON object per line."""
import json
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor

from common import BIN, Checks, run

LINE = re.compile(r"Jobs: (\d+) \(f=(\d+)\): \[([A-Za-z/_]\(\d+\))+\]\[([\d.]+)%\]"
                  r"\[r=[^\]]+\]\[r=[^\]]+ IOPS\]\[eta (\d+)m:(\d+)s\]")
# Short runs with the status line rewritten every 250 ms (the shortest --eta-interval): the
# suite's time matters more than seconds of progress.
FAST = "--eta-interval=250ms"
# Paced, so that the null engine idles instead of filling a core (the suite runs two tests
# at once).
PACE = "--rate_iops=20000"
JOB = ["--name=s", "--ioengine=null", "--size=1g", "--rw=randread", "--runtime=1",
       "--time_based", PACE, FAST]


def under_pty(args):
    """Run iojob with its output on a pseudo-terminal (util-linux's script)."""
    cmd = " ".join([BIN] + args)
    # Bytes, decoded by hand: text mode would turn the '\r' we look for into '\n'.
    p = subprocess.run(["script", "-qec", cmd, "/dev/null"], capture_output=True, timeout=120)
    return p.returncode, p.stdout.decode(errors="replace")


def check_terminal(c):
    if not shutil.which("script"):
        c.skip("no 'script' (util-linux) to run under a pseudo-terminal")
        return
    code, out = under_pty(JOB + ["--output=/dev/null"])
    lines = LINE.findall(out)
    c.check(code == 0 and len(lines) >= 2, "status lines on a terminal: %r" % out[-300:])
    if len(lines) >= 2:
        pcts = [float(l[3]) for l in lines]
        etas = [int(l[4]) * 60 + int(l[5]) for l in lines]
        c.check(pcts == sorted(pcts) and 10 < pcts[0] < 90, "progress grows: %s" % pcts)
        c.check(etas == sorted(etas, reverse=True) and etas[0] <= 1,
                "eta counts down from at most the runtime: %s" % etas)
        c.check(lines[0][0] == "1" and lines[0][1] == "1", "one job, one file")
    c.check("\r" in out, "the line is rewritten in place (carriage return)")
    code, out = under_pty(JOB + ["--output=/dev/null", "--eta=never"])
    c.check(code == 0 and "Jobs:" not in out, "--eta=never: no status line")


def check_phases(c):
    if not shutil.which("script"):
        return
    # p alone has at most 1 s left; the eta must count q's 2 s as well
    code, out = under_pty([FAST, PACE, "--name=p", "--ioengine=null", "--size=1g",
                           "--runtime=1", "--time_based", "--name=q", "--stonewall",
                           "--ioengine=null", "--size=1g", "--runtime=2", "--time_based",
                           "--output=/dev/null"])
    etas = [int(l[4]) * 60 + int(l[5]) for l in LINE.findall(out)]
    c.check(etas and etas[0] >= 2, "a second phase adds its runtime to the eta: %s" % etas)


def check_not_terminal(c):
    code, out, err = run(JOB[:4] + ["--runtime=0.5", "--time_based", PACE, FAST])
    c.check(code == 0 and "Jobs:" not in err and "Jobs:" not in out,
            "no status line when stderr is not a terminal")
    code, out, err = run(JOB + ["--eta=always"])
    c.check(code == 0 and "Jobs: 1 (f=1)" in err and "Jobs:" not in out,
            "--eta=always writes the line to stderr, never into the report")


def check_intervals(c):
    code, out, err = run(JOB + ["--status-interval=250ms", "--output-format=json"])
    c.check(code == 0, "status-interval json: exit %d %s" % (code, err))
    lines = out.split("\n")
    objs = []
    while lines and lines[0].startswith('{"interval"'):
        objs.append(json.loads(lines.pop(0)))
    final = json.loads("\n".join(lines))
    c.check(3 <= len(objs) <= 5, "one JSON object per 250 ms interval: %d" % len(objs))
    c.check([o["interval"] for o in objs] == list(range(1, len(objs) + 1)), "numbered")
    total = final["jobs"][0]["read"]["total_ios"]
    summed = sum(o["jobs"][0]["read"]["total_ios"] for o in objs)
    c.check(0 < summed <= total and summed > total * 0.6,
            "intervals are per interval, not cumulative: %d of %d" % (summed, total))
    code, out, err = run(JOB + ["--status-interval=0.5"])
    c.check(code == 0 and re.search(r"^Interval 1 \(0\.\d+-0\.5\d* s\):\n  s: read: IOPS=",
                                    out, re.M) is not None,
            "status-interval as text: %r" % out[:400])


def main():
    """The checks run at once, each with checks of its own: they are paced runs that mostly
    wait, and the suite's time is their sum otherwise."""
    c = Checks("status")
    parts = [(f, Checks(f.__name__)) for f in (check_terminal, check_phases,
                                                check_not_terminal, check_intervals)]
    with ThreadPoolExecutor(max_workers=len(parts)) as pool:
        for done in [pool.submit(f, part) for f, part in parts]:
            done.result()
    for _, part in parts:
        c.count += part.count
        c.failures += part.failures
        c.skips += part.skips
    c.finish()


if __name__ == "__main__":
    main()
