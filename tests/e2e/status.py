#!/usr/bin/env python3
"""The live status line (on a terminal only, unless --eta says otherwise) and
--status-interval: as fio, the whole report of the run so far each interval, in every format
of the run (for JSON one complete cumulative document after another, as `jq -s` reads them);
with --status-format=delta, iojob's lines of each interval alone."""
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


def check_sweep(c):
    """A sweep's line names the cell and the whole sweep's eta, and no cell leaves a
    'Jobs: 0 (f=0)' line behind (it is blanked out when the cell ends)."""
    if not shutil.which("script"):
        return
    code, out = under_pty(JOB + ["--sweep", "numjobs=1,2", "--output=/dev/null"])
    cells = re.findall(r"\]\[cell (\d)/2, sweep eta (\d+)m:(\d+)s\]", out)
    c.check(code == 0 and {"1", "2"} <= {k for k, _, _ in cells},
            "sweep: each cell's line names it: %r" % out[-300:])
    first = [int(m) * 60 + int(s) for k, m, s in cells if k == "1"]
    c.check(first and first[0] >= 2, "cell 1's sweep eta counts cell 2 too: %s" % first)
    c.check(not re.search(r"Jobs: 0 \(f=0\) *\r*\n", out),
            "a 'Jobs: 0 (f=0)' line is left behind: %r" % out[-300:])


def check_not_terminal(c):
    code, out, err = run(JOB[:4] + ["--runtime=0.5", "--time_based", PACE, FAST])
    c.check(code == 0 and "Jobs:" not in err and "Jobs:" not in out,
            "no status line when stderr is not a terminal")
    code, out, err = run(JOB + ["--eta=always"])
    c.check(code == 0 and "Jobs: 1 (f=1)" in err and "Jobs:" not in out,
            "--eta=always writes the line to stderr, never into the report")


def documents(text):
    """The JSON documents of text, one after another, as jq -s reads them."""
    dec, at, docs = json.JSONDecoder(), 0, []
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at == len(text):
            return docs
        doc, at = dec.raw_decode(text, at)
        docs.append(doc)


def key_paths(o, path=""):
    """Every key of a document as a path; a list's entries by position; json+'s bins, whose
    keys are the latencies seen, as one."""
    out = set()
    items = o.items() if isinstance(o, dict) else enumerate(o) if isinstance(o, list) else ()
    for k, v in items:
        if k == "bins":
            out.add("%s/bins" % path)
            continue
        out |= {"%s/%s" % (path, k)} | key_paths(v, "%s/%s" % (path, k))
    return out


COUNTERS = [("read", "total_ios"), ("read", "io_bytes"), ("read", "short_ios")]


def counters(doc):
    """Per job: what only grows while a job runs (fio's full reports are cumulative)."""
    return [tuple([j[d][k] for d, k in COUNTERS] + [j["read"]["clat_ns"]["N"],
                   j["read"]["lat_ns"]["N"], j["job_runtime"]]) for j in doc["jobs"]]


def check_cumulative(c, what, docs):
    c.check(len(docs) >= 3, "%s: interval documents, then the final report: %d" %
            (what, len(docs)))
    if len(docs) < 3:
        return
    final = docs[-1]
    steps = [counters(d) for d in docs]
    c.check(all(len(a) == len(b) and all(x <= y for ja, jb in zip(a, b)
                                         for x, y in zip(ja, jb))
                for a, b in zip(steps, steps[1:])),
            "%s: every document counts from the start, never less: %s" % (what, steps))
    c.check(steps[0] != steps[-1], "%s: the first document is not the final one" % what)
    # the same schema, key for key: the document's own keys always, a job's once it has
    # counted something (its percentiles appear then). Job by job, not document by
    # document: under load no interval need fall where every job has counted.
    top = key_paths({k: v for k, v in final.items() if k != "jobs"})
    c.check(all(key_paths({k: v for k, v in d.items() if k != "jobs"}) == top
                for d in docs[:-1]),
            "%s: each interval's document has the final report's keys" % what)
    busy = [(j, f) for d in docs[:-1] for j, f in zip(d["jobs"], final["jobs"])
            if j["read"]["total_ios"]]
    c.check(busy and all(key_paths(j) == key_paths(f) for j, f in busy),
            "%s: each interval's busy job has the final report's keys: %d %s" %
            (what, len(busy), [sorted(key_paths(j) ^ key_paths(f))[:5] for j, f in busy]))
    c.check(all(d["fio version"] == final["fio version"] and d["timestamp_ms"] <=
                final["timestamp_ms"] for d in docs), "%s: stamped like the report" % what)


def check_intervals(c):
    code, out, err = run(JOB + ["--status-interval=250ms", "--output-format=json"])
    c.check(code == 0 and err == "", "status-interval json: exit %d %s" % (code, err))
    docs = documents(out)
    # 1 s in 250 ms intervals: 3 at least (the 4th may fall after the end), then the
    # report; more where a loaded machine took longer to start or to end the job
    c.check(len(docs) >= 4, "one whole document per interval, then the report: %d" %
            len(docs))
    check_cumulative(c, "json", docs)
    total = docs[-1]["jobs"][0]["read"]["total_ios"]
    c.check(docs[-2]["jobs"][0]["read"]["total_ios"] > total * 0.5,
            "the last interval's document counts most of the run: %d of %d" %
            (docs[-2]["jobs"][0]["read"]["total_ios"], total))

    code, out, err = run(JOB + ["--status-interval=250ms", "--output-format=json+"])
    docs = documents(out)
    c.check(code == 0 and all("bins" in j["read"]["clat_ns"] for d in docs[:-1]
                              for j in d["jobs"] if j["read"]["total_ios"]),
            "json+: each interval's document has its bins")
    check_cumulative(c, "json+", docs)

    code, out, err = run(JOB + ["--status-interval=250ms"])
    reports = out.count("Run status group 0 (all jobs):")
    c.check(code == 0 and reports >= 4 and out.count("s: (groupid=0, jobs=1)") == reports and
            out.count("iojob-0") == 1,
            "normal: the whole report each interval, after one header: %d" % reports)
    ios = [int(m) for m in re.findall(r"issued rwts: total=(\d+),", out)]
    c.check(ios == sorted(ios) and len(set(ios)) > 1, "normal: cumulative counts: %s" % ios)

    code, out, err = run(JOB + ["--status-interval=250ms", "--output-format=terse,json"])
    lines = [l for l in out.split("\n") if l.startswith("3;")]
    docs = documents("\n".join(l for l in out.split("\n") if not l.startswith("3;")))
    c.check(code == 0 and len(lines) == len(docs) >= 4 and
            len({l.count(";") for l in lines}) == 1,
            "every format of the run, each interval: %d terse, %d json" %
            (len(lines), len(docs)))


def check_phases_report(c):
    """A later phase's job is in every document, at zero until it starts; ramp_time is
    counted in none (fio accounts I/O once it is over)."""
    code, out, err = run([PACE, "--status-interval=250ms", "--output-format=json",
                          "--name=p", "--ioengine=null", "--size=1g", "--runtime=0.5",
                          "--time_based", "--numjobs=2", "--group_reporting", "--name=q",
                          "--stonewall", "--ioengine=null", "--size=1g", "--runtime=0.5",
                          "--time_based", "--ramp_time=0.25"])
    docs = documents(out)
    c.check(code == 0 and all(len(d["jobs"]) == 2 for d in docs),
            "two units in every document: %s" % [len(d["jobs"]) for d in docs])
    check_cumulative(c, "phases", docs)
    c.check(docs and docs[0]["jobs"][1]["read"]["total_ios"] == 0 and
            docs[-1]["jobs"][1]["read"]["total_ios"] > 0,
            "the second phase's job counts from zero, once it runs")


def check_steadystate(c):
    """steadystate in every interval's report too, as fio 3.33 prints it: the window as it
    stands, oldest sample first, so each is the start of the final report's window."""
    job = [a for a in JOB if a != "--runtime=1"] + [
        "--runtime=2.5", "--steadystate=iops:0.1%", "--steadystate_duration=10"]
    code, out, err = run(job + ["--status-interval=500ms", "--output-format=json"])
    # the documents of the job once it runs (a slow start, under a sanitizer or load, can
    # leave the first interval before its first I/O)
    docs = [d for d in documents(out) if d["jobs"][0]["read"]["total_ios"]]
    wins = [d["jobs"][0].get("steadystate") for d in docs]
    c.check(code == 0 and len(docs) >= 3 and all(
        w and w["duration"] == 10 and not w["attained"] and
        len(w["data"]["iops"]) == len(w["data"]["bw"]) == 10 for w in wins),
        "a steadystate window in each of %d documents: %s %s" %
        (len(docs), [w and (w["duration"], w["attained"], len(w["data"]["iops"]))
                     for w in wins], err))
    if code or not all(wins):
        return
    check_cumulative(c, "steadystate", docs)
    final, bad, seen = wins[-1]["data"], [], 0
    for w in wins[:-1]:
        n = sum(1 for v in w["data"]["iops"] if v)
        seen = max(seen, n)
        if any(w["data"][k][:n] != final[k][:n] or any(w["data"][k][n:]) for k in ("iops", "bw")):
            bad.append(w["data"])
    c.check(not bad, "each interval's window is the start of the final one (up to %d samples "
            "so far): %s, final %s" % (seen, bad, final))
    code, out, err = run(job + ["--status-interval=500ms"])
    reports = out.count("s: (groupid=0, jobs=1)")
    c.check(code == 0 and reports >= 3 and out.count("  steadystate  : attained=no, ") ==
            reports, "normal: a steadystate line in each of %d reports" % reports)


def check_delta(c):
    code, out, err = run(JOB + ["--status-interval=250ms", "--output-format=json",
                                "--status-format=delta"])
    c.check(code == 0, "status-format=delta json: exit %d %s" % (code, err))
    lines = out.split("\n")
    objs = []
    while lines and lines[0].startswith('{"interval"'):
        objs.append(json.loads(lines.pop(0)))
    final = json.loads("\n".join(lines))
    c.check(len(objs) >= 3, "one JSON object per 250 ms interval: %d" % len(objs))
    c.check([o["interval"] for o in objs] == list(range(1, len(objs) + 1)), "numbered")
    total = final["jobs"][0]["read"]["total_ios"]
    summed = sum(o["jobs"][0]["read"]["total_ios"] for o in objs)
    c.check(0 < summed <= total and summed > total * 0.6,
            "intervals are per interval, not cumulative: %d of %d" % (summed, total))
    code, out, err = run(JOB + ["--status-interval=0.5", "--status-format=delta"])
    c.check(code == 0 and re.search(r"^Interval 1 \(0\.\d+-0\.5\d* s\):\n  s: read: IOPS=",
                                    out, re.M) is not None,
            "status-interval as text: %r" % out[:400])
    code, out, err = run(JOB + ["--status-format=deltas"])
    c.check(code == 2 and "--status-format takes full or delta, not 'deltas'" in err,
            "a bad --status-format is refused: %d %r" % (code, err))


def main():
    """The checks run at once, each with checks of its own: they are paced runs that mostly
    wait, and the suite's time is their sum otherwise."""
    c = Checks("status")
    parts = [(f, Checks(f.__name__)) for f in (check_terminal, check_phases,
                                                check_not_terminal, check_intervals,
                                                check_phases_report, check_steadystate,
                                                check_delta, check_sweep)]
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
