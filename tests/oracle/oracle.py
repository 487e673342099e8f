#!/usr/bin/env python3
"""The differential oracle of issue 28: draws job files from the grammar (grammar.py), runs
each under fio 3.33 and under iojob on identical fresh files, reads what each really did
from outside (truth.py), compares (judge.py), and shrinks every divergence not listed in
expected.json to a minimal job file.

    tests/oracle/oracle.py --count N --seed S [--jobs-from FILE|DIR] [--out DIR]

Exit: 0 no unexpected divergence, 1 some, 77 fio 3.33 or strace missing (with the reason)."""
import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import grammar  # noqa: E402
import judge  # noqa: E402
import truth  # noqa: E402

SRC = os.environ.get("IOJOB_SRCDIR", os.path.join(HERE, "..", ".."))
IOJOB = os.path.abspath(os.environ.get("IOJOB_BIN", os.path.join(SRC, "build", "iojob")))
EXPECTED = os.path.join(HERE, "expected.json")
OPEN = os.path.join(HERE, "open.json")
UNIT = {"k": 1 << 10, "m": 1 << 20}
TRIM_DEV = "@DEV@"


def size(v):
    return int(v[:-1]) * UNIT[v[-1]] if v[-1] in UNIT else int(v)


def prepare(o):
    """The options as run (a trim job goes to the loop device's placeholder) and the files
    both tools find made: none for a job about laying files out, else each file the job
    names, of the size the job gives it, past its offset."""
    o = dict(o)
    fams, _ = grammar.families(o)
    if o["rw"] in grammar.TRIMS:
        o["filename"] = TRIM_DEV
        return o, {}
    if "layout" in fams:
        return o, {}
    off = 0 if o.get("offset", "0").endswith("%") else size(o.get("offset", "0"))
    if "filename" in o:
        names = o["filename"].split(":")
        return o, {n: size(o["size"]) // len(names) + off for n in names}
    nr = int(o.get("nrfiles", "1"))
    per = size(o["filesize"]) if "filesize" in o else size(o["size"]) // nr
    files = {}
    for sect in ("j", "k") if o.get("stonewall") else ("j",):
        for clone in range(int(o.get("numjobs", "1"))):
            start = off + clone * size(o.get("offset_increment", "0"))
            for n in range(nr):
                files["%s.%d.%d" % (sect, clone, n)] = per + start
    return o, files


def run_one(tool, o, files, d):
    """One tool's truth for the job, in its own fresh directory (and loop device)."""
    text = grammar.render(o)
    argv = ["fio"] if tool == "fio" else [IOJOB, "--eta=never"]
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0:verify_asan_link_order=0"
    wd = os.path.join(d, tool)
    if o.get("filename") == TRIM_DEV:
        with truth.LoopDevice(d, size(o["size"]) + size(o.get("offset", "0"))) as dev:
            return truth.run_tool(argv, text, wd, files, env, {TRIM_DEV: dev})
    return truth.run_tool(argv, text, wd, files, env)


def load_expected(path=EXPECTED, open_path=OPEN):
    """The differences iojob keeps (expected.json), then the divergences found and not fixed
    yet (open.json), these with ids "open:ID": neither fails a run, and both are listed."""
    with open(path) as f:
        doc = json.load(f)
    # fio's own departures from its HOWTO first: what they cover is fio's, not iojob's
    known = [dict(e, id="fio:" + e["id"]) for e in doc.get("fio_departs", [])]
    known += doc["differences"]
    if open_path and os.path.exists(open_path):
        with open(open_path) as f:
            known += [dict(e, id="open:" + e["id"]) for e in json.load(f)["open"]]
    return known


def expected_for(fact, o, expected):
    """The expected difference that covers fact on a job of options o, or None."""
    for e in expected:
        if not re.fullmatch(e["fact"], fact):
            continue
        if all(re.fullmatch(v, o.get(k, "")) for k, v in e.get("when", {}).items()) and \
                not any(k in o for k in e.get("unless", [])):
            return e["id"]
    return None


def howto_bytes(fact, o, fams):
    """The bytes the HOWTO says fact counts, or None: the job's total, and a job of one
    direction's bytes of that direction (verify's reads aside, its writes too)."""
    if fact == "bytes.total":
        # verify's reads aside when there are none (do_verify=0)
        quiet = o.get("do_verify") in ("0", "false") and o["rw"] in ("write", "randwrite")
        return judge.model_bytes(o, fams - {"verify"} if quiet else fams)
    one = {"write": ("write", "randwrite"), "read": ("read", "randread"),
           "trim": ("trim", "randtrim")}
    d = fact.split(".", 1)[1] if fact.startswith("bytes.") else None
    if d in one and o["rw"] in one[d]:
        return judge.model_bytes(o, fams - {"verify"})
    return None


def at_model(b, model, o):
    """Whether iojob's bytes b are the HOWTO's: exactly, or with bs_unaligned, short of them
    by less than the smallest block (the last one cut to whole bytes could not fit)."""
    if b is None:
        return False
    tol = 0
    if o.get("bs_unaligned") in ("1", "true") and "bsrange" in o:
        tol = size(o["bsrange"].split("-")[0])
    return int(b) == model or model - tol < int(b) <= model


def seed_repeats(tool, o, files, d):
    """Whether a second run draws the same random offsets as the first."""
    orders = []
    for i in range(2):
        r = run_one(tool, o, files, os.path.join(d, "rep%d" % i))
        # a trim job's reads of the device are iojob's signature probe, not the job's
        orders.append([x[3] for x in r["trace"].ios
                       if not (o["rw"] in grammar.TRIMS and x[2] == "read")])
    if o["ioengine"] == "posixaio":
        # the C library's helper threads issue the I/O in the order they get to it (each
        # traced apart): the offsets drawn, not their order, are the seed's
        return sorted(orders[0]) == sorted(orders[1])
    return orders[0] == orders[1]


def examine(o, expected, d):
    """Run the job under both tools; returns a dict: status ('ok', 'fio-refused',
    'diverges'), divergences (each: fact, fio, iojob, how, kind, expected id)."""
    o, files = prepare(o)
    fams, feats = grammar.families(o)
    runs = {}
    for tool in ("fio", "iojob"):
        runs[tool] = run_one(tool, o, files, d)
    res = {"status": "ok", "divergences": []}
    if runs["fio"]["rc"] != 0:
        res["status"] = "fio-refused"
        res["why"] = runs["fio"]["stderr"].strip()[-300:]
        return res
    crash = re.search(r"got signal=\d+", runs["fio"]["stderr"])
    if crash:
        # fio 3.33 exits 0 when its job dies of a signal (rate_process=poisson with
        # fsync=3: SIGFPE); nothing of it is fio's behaviour
        res["status"] = "fio-crashed"
        res["why"] = crash.group(0)
        return res
    divs = res["divergences"]

    def add(fact, a, b, how, kind):
        exp = expected_for(fact, o, expected) if kind != "fio departs from HOWTO" else None
        if exp and exp.startswith("fio:"):
            kind = "fio departs from HOWTO"     # fio_departs in expected.json
        divs.append({"fact": fact, "fio": show(a), "iojob": show(b), "how": how,
                     "kind": kind, "expected": exp})

    if runs["iojob"]["rc"] != 0:
        add("rc", 0, runs["iojob"]["rc"], runs["iojob"]["stderr"].strip()[-300:],
            "iojob vs fio")
        return finish(res)
    eng = o["ioengine"]
    fa = judge.facts(runs["fio"], o, eng)
    fb = judge.facts(runs["iojob"], o, eng)
    if not fa.get("ios.total") and fb.get("ios.total") and not o.get("number_ios") == "0":
        # fio 3.33 ends some jobs at once, exit 0, no error: non-uniform distributions with
        # blockalign or with per-direction sizes (random_distribution=pareto:0.3
        # blockalign=8k; normal:20 bssplit=4k/60:8k,16k/100); its HOWTO says they run
        res["status"] = "fio-no-io"
        res["why"] = "fio did no I/O; iojob did %s" % fb.get("ios.total")
        return res
    for fact, rep, tr in judge.self_check(runs["fio"], fa, o, eng):
        add(fact, rep, tr, "fio's report vs its syscalls", "fio departs from HOWTO")
    for fact, rep, tr in judge.self_check(runs["iojob"], fb, o, eng):
        add(fact, tr, rep, "iojob's report (right) vs its syscalls (left)", "iojob report")
    found = judge.compare(fa, fb, judge.Plan(o, fams, feats))
    model = howto_bytes("bytes.total", o, fams)
    over = model is not None and at_model(fb.get("bytes.total"), model, o) and \
        (fa.get("bytes.total") or 0) > model
    for fact, a, b, how in found:
        model = howto_bytes(fact, o, fams)
        if model is not None and at_model(b, model, o) and a != b:
            add(fact, a, b, "HOWTO says %d" % model, "fio departs from HOWTO")
            over = True
    for fact, a, b, how in found:
        if any(x["fact"] == fact for x in divs):
            continue
        if over and (fact.startswith(("files.final", "covered.", "overlap.", "written_")) or
                     fact in ("order", "dir_runs")):
            # fio's bytes past the HOWTO's (its last block past io_size=) land somewhere
            add(fact, a, b, how + ", after fio's bytes past the HOWTO's",
                "fio departs from HOWTO")
        else:
            add(fact, a, b, how, "iojob vs fio")
    # a rate limit on a job that reads and writes picks the direction that may go first,
    # by the clock, in fio as in iojob: the order of a second run is not the seed's alone
    timed_dirs = any(k in o for k in ("rate", "rate_iops", "rate_min", "rate_iops_min")) \
        and o["rw"] in ("rw", "readwrite", "randrw")
    if "seed" in fams and not timed_dirs:
        ra = seed_repeats("fio", o, files, os.path.join(d, "sf"))
        rb = seed_repeats("iojob", o, files, os.path.join(d, "si"))
        if ra != rb:
            add("repeat", ra, rb, "same offsets on a second run", "iojob vs fio")
    return finish(res)


def finish(res):
    if any(not x["expected"] and x["kind"] != "fio departs from HOWTO"
           for x in res["divergences"]):
        res["status"] = "diverges"
    return res


def show(v):
    if isinstance(v, Counter):
        v = dict(v)
    s = json.dumps(v, default=str, sort_keys=True)
    return s if len(s) < 400 else s[:400] + "..."


def unexpected(res):
    return {x["fact"] for x in res["divergences"]
            if not x["expected"] and x["kind"] != "fio departs from HOWTO"}


def shrink(o, fact, expected, d, budget=40):
    """Drop options one at a time while fact still diverges; the smallest job found."""
    keep = ("filename",) if o.get("filename") == TRIM_DEV or o["rw"] in grammar.TRIMS else ()
    changed, tries = True, 0
    while changed and tries < budget:
        changed = False
        for k in list(o):
            if k in keep or tries >= budget:
                continue
            cand = {x: v for x, v in o.items() if x != k}
            cand.setdefault("rw", "read")
            cand.setdefault("ioengine", "psync")
            cand.setdefault("size", "1m")
            if cand == o:
                continue
            tries += 1
            wd = tempfile.mkdtemp(prefix="shrink-", dir=d)
            try:
                r = examine(cand, expected, wd)
            finally:
                shutil.rmtree(wd, ignore_errors=True)
            if r["status"] == "diverges" and fact in unexpected(r):
                o, changed = cand, True
    return o


def read_jobs(path):
    """Jobs to run again: a directory of .fio files, one .fio file, or a divergences.json
    written by --out."""
    if os.path.isdir(path):
        names = sorted(os.path.join(path, n) for n in os.listdir(path) if n.endswith(".fio"))
    elif path.endswith(".json"):
        with open(path) as f:
            return [x["options"] for x in json.load(f)]
    else:
        names = [path]
    jobs = []
    for n in names:
        o = {}
        with open(n) as f:
            for line in f:
                line = line.strip()
                if line.startswith((";", "#")):
                    continue
                if line.startswith("[") and o:
                    o["stonewall"] = "1"
                    break
                if "=" in line:
                    k, v = line.split("=", 1)
                    o[k.strip()] = v.strip()
        o.setdefault("rw", "read")
        o.setdefault("ioengine", "psync")
        jobs.append(o)
    return jobs


def scratch():
    base = "/var/tmp" if os.path.isdir("/var/tmp") else None
    return tempfile.mkdtemp(prefix="iojob-oracle-", dir=base)


def run_all(jobs, expected, workers=1, progress=None):
    """Examine every job (list of option dicts); returns the results, in order."""
    root = scratch()

    def one(i):
        d = os.path.join(root, "%05d" % i)
        os.makedirs(d)
        try:
            r = examine(jobs[i], expected, d)
        except Exception as e:      # a broken job must not stop the run: it is a finding
            r = {"status": "diverges", "divergences": [{
                "fact": "oracle-error", "fio": "", "iojob": "", "how": repr(e)[:300],
                "kind": "oracle", "expected": None}]}
        finally:
            shutil.rmtree(d, ignore_errors=True)
        r["options"] = jobs[i]
        if progress:
            progress(i, r)
        return r

    try:
        with ThreadPoolExecutor(max_workers=workers) as ex:
            return list(ex.map(one, range(len(jobs))))
    finally:
        shutil.rmtree(root, ignore_errors=True)


def table(results, gen=None):
    """The summary: jobs by engine and by option family, divergences by fact and kind."""
    lines = []
    by_eng, by_fam = defaultdict(Counter), defaultdict(Counter)
    kinds = defaultdict(Counter)
    for r in results:
        o = r["options"]
        fams, _ = grammar.families(o)
        st = r["status"]
        by_eng[o["ioengine"]][st] += 1
        for fam in fams | {"rw=" + o["rw"]}:
            by_fam[fam][st] += 1
        for x in r["divergences"]:
            tag = x["kind"] if not x["expected"] else "expected (%s)" % x["expected"]
            kinds[(x["fact"].split(".")[0] if not x["fact"].startswith(("covered", "overlap",
                                                                         "written"))
                   else x["fact"].split(".")[0], tag)][st] += 1
    tot = Counter(r["status"] for r in results)
    lines.append("jobs: %d  ok: %d  diverging: %d  refused by fio: %d  fio crashed: %d  "
                 "fio did no I/O: %d" % (len(results), tot["ok"], tot["diverges"],
                                         tot["fio-refused"], tot["fio-crashed"],
                                         tot["fio-no-io"]))
    if gen:
        lines.append("feature pairs covered: %d of %d" % gen.coverage())
    lines.append("")
    lines.append("%-22s %6s %6s %9s %8s" % ("engine", "jobs", "ok", "diverging", "refused"))
    for e in sorted(by_eng):
        c = by_eng[e]
        lines.append("%-22s %6d %6d %9d %8d" % (e, sum(c.values()), c["ok"], c["diverges"],
                                                c["fio-refused"]))
    lines.append("")
    lines.append("%-22s %6s %6s %9s %8s" % ("option family", "jobs", "ok", "diverging",
                                            "refused"))
    for fam in sorted(by_fam):
        c = by_fam[fam]
        lines.append("%-22s %6d %6d %9d %8d" % (fam, sum(c.values()), c["ok"], c["diverges"],
                                                c["fio-refused"]))
    lines.append("")
    lines.append("%-18s %-40s %6s" % ("fact", "kind", "jobs"))
    for (fact, tag), c in sorted(kinds.items()):
        lines.append("%-18s %-40s %6d" % (fact, tag, sum(c.values())))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=28)
    ap.add_argument("--jobs-from", help="run these jobs (.fio file, directory, or json)")
    ap.add_argument("--engines", help="only these engines (comma list)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", help="directory for divergences.json and minimal job files")
    ap.add_argument("--no-shrink", action="store_true")
    ap.add_argument("--shrink-max", type=int, default=12,
                    help="shrink at most this many distinct divergences")
    args = ap.parse_args()
    why = truth.have_tools()
    if why:
        print("SKIP: " + why)
        return 77
    expected = load_expected()
    gen = None
    if args.jobs_from:
        jobs = read_jobs(args.jobs_from)
    else:
        gen = grammar.Generator(args.seed)
        jobs = [o for _, o in gen.jobs(args.count * (3 if args.engines else 1))]
        if args.engines:
            jobs = [o for o in jobs if o["ioengine"] in args.engines.split(",")][:args.count]
    need_loop = any(o["rw"] in grammar.TRIMS for o in jobs)
    if need_loop and truth.loop_reason():
        print("note: trim jobs left out: " + truth.loop_reason())
        jobs = [o for o in jobs if o["rw"] not in grammar.TRIMS]
    t0 = time.monotonic()

    def progress(i, r):
        if r["status"] == "diverges":
            facts = sorted(unexpected(r))
            print("job %d diverges: %s" % (i, ", ".join(facts)), flush=True)

    results = run_all(jobs, expected, args.workers, progress)
    print(table(results, gen))
    print("\n%d jobs in %.0f s" % (len(results), time.monotonic() - t0))
    bad = [r for r in results if r["status"] == "diverges"]
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "results.json"), "w") as f:
            json.dump(results, f, indent=1, default=str)
    if bad and not args.no_shrink:
        shrunk = {}
        d = scratch()
        try:
            for r in bad:
                for fact in sorted(unexpected(r)):
                    key = re.sub(r"\..*", "", fact) if fact.startswith(
                        ("covered", "overlap", "written")) else fact
                    if key in shrunk or len(shrunk) >= args.shrink_max:
                        continue
                    shrunk[key] = shrink(dict(r["options"]), fact, expected, d)
                    print("\nminimal job for %s:\n%s" % (fact, grammar.render(
                        prepare(shrunk[key])[0])), flush=True)
        finally:
            shutil.rmtree(d, ignore_errors=True)
        if args.out:
            for i, (k, o) in enumerate(sorted(shrunk.items())):
                with open(os.path.join(args.out, "min-%02d-%s.fio" % (i, k)), "w") as f:
                    f.write("; diverges in %s\n" % k + grammar.render(o))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
