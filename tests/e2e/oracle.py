"""The differential oracle's fixed-seed slice (issue 28): 200 jobs drawn by
tests/oracle/grammar.py, each run under fio 3.33 and iojob on the same fresh files, what
each did read back with strace and compared (tests/oracle/judge.py); a divergence that
tests/oracle/expected.json (differences iojob keeps) or tests/oracle/open.json (found, not fixed
yet, listed when met) does not list fails. Skips where fio 3.33 or strace is missing."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "oracle"))
from common import BIN, Checks  # noqa: E402
import grammar  # noqa: E402
import oracle  # noqa: E402
import truth  # noqa: E402

SEED = 28
COUNT = int(os.environ.get("IOJOB_ORACLE_COUNT", "200"))


def check_readme_entries(c):
    """Each difference iojob keeps, and each departure of fio's, names the README entry that
    documents it: the words quoted must be in "How iojob differs from fio" (backticks,
    emphasis and line breaks aside, '...' standing for any words)."""
    with open(os.path.join(oracle.SRC, "README.md")) as f:
        text = f.read()
    start = text.index("## How iojob differs from fio")
    norm = lambda t: re.sub(r"\s+", " ", t.replace("`", "").replace("*", "")).lower()
    section = norm(text[start:text.index("\n## ", start + 1)])
    with open(oracle.EXPECTED) as f:
        doc = json.load(f)
    for e in doc["differences"] + doc.get("fio_departs", []):
        m = re.search(r"'(.*)'$", e.get("readme", ""))
        c.check(m and e.get("reason"), "expected.json %s: a reason and a README entry" %
                e["id"])
        if m:
            pat = ".*?".join(re.escape(norm(x)) for x in m.group(1).split("..."))
            c.check(re.search(pat, section), "expected.json %s: README has no entry '%s'" %
                    (e["id"], m.group(1)))


def main():
    c = Checks("oracle")
    check_readme_entries(c)
    why = truth.have_tools()
    if why:
        c.skip("the differential oracle: " + why)
        c.finish()
    oracle.IOJOB = BIN
    # the drawn slice, then the job files of every divergence fixed so far
    regress = os.path.join(os.path.dirname(__file__), "..", "oracle", "regress")
    jobs = [o for _, o in grammar.Generator(SEED).jobs(COUNT)] + oracle.read_jobs(regress)
    why = truth.loop_reason()
    if why:
        c.skip("trim jobs on a loop device: " + why)
        jobs = [o for o in jobs if o["rw"] not in grammar.TRIMS]
    results = oracle.run_all(jobs, oracle.load_expected(), workers=2)
    for i, r in enumerate(results):
        if r["status"] in ("fio-refused", "fio-crashed", "fio-no-io"):
            continue        # fio 3.33 cannot run it (a crash, a refusal): nothing to judge
        bad = [x for x in r["divergences"] if not x["expected"] and
               x["kind"] != "fio departs from HOWTO"]
        c.check(not bad, "job %d diverges from fio 3.33:\n%s%s" % (
            i, grammar.render(oracle.prepare(r["options"])[0]),
            "".join("  %s (%s, %s): fio %s, iojob %s\n" % (
                x["fact"], x["kind"], x["how"], x["fio"], x["iojob"]) for x in bad)))
    still = sorted({x["expected"] for r in results for x in r["divergences"]
                    if (x["expected"] or "").startswith("open:")})
    if still:
        print("open divergences met (tests/oracle/open.json, issue 28): " + ", ".join(still))
    print(oracle.table(results))
    c.finish()


main()
