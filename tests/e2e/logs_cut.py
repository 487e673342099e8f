#!/usr/bin/env python3
"""A log whose writer was killed midway (SIGKILL, a crash) ends in a line without its
newline, whose last field may be cut ("4, 1365" of "4, 136533333"): iojob report reads the
lines before it and says, on stderr, which line of which file it dropped (issue 27)."""
import os

from common import run, run_checks

JOB = ["--name=w", "--ioengine=null", "--size=8m", "--bs=4k", "--rw=write",
       "--write_bw_log=w", "--write_lat_log=l", "--write_hist_log=l", "--log_hist_msec=1",
       "--output-format=terse"]


def cut(path, nbytes):
    """The file without its last nbytes (the newline among them); its line count."""
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(text[:-nbytes])
    return text.count("\n")


def two_records(path):
    """The histogram log's first record twice, a millisecond apart: the null engine is done
    within one log_hist_msec, and the cut needs a whole record before it."""
    with open(path) as f:
        first = f.readline()
    with open(path, "w") as f:
        f.write(first + "1" + first[first.index(","):])


def check_cut_logs(c, d):
    code, _, err = run(JOB, cwd=d)
    c.check(code == 0, "logs written: exit %d %r" % (code, err))
    two_records(os.path.join(d, "l_clat_hist.1.log"))
    for log, args in (("w_bw.1.log", ["--svg", "s.svg"]),
                      ("l_clat.1.log", ["--chart", "lat-time", "--svg", "t.svg"]),
                      ("l_clat_hist.1.log", ["--chart", "heatmap", "--svg", "h.svg"])):
        if not os.path.exists(os.path.join(d, log)):
            c.check(False, "%s written" % log)
            continue
        lines = cut(os.path.join(d, log), 3)
        code, _, err = run(["report", log] + args, cwd=d)
        note = "%s:%d: last line cut short (no newline), dropped" % (log, lines)
        c.check(code == 0 and note in err and err.count(note) == 1,
                "report on %s cut short: exit %d, %r" % (log, code, err))


def check_whole_log_quiet(c, d):
    """A log that ends whole gives no note."""
    code, _, err = run(JOB, cwd=d)
    code, _, err = run(["report", "w_bw.1.log", "--svg", "s.svg"], cwd=d)
    c.check(code == 0 and "note" not in err, "report on a whole log: exit %d %r" % (code, err))


if __name__ == "__main__":
    run_checks("logs_cut", [check_cut_logs, check_whole_log_quiet])
