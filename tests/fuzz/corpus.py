#!/usr/bin/env python3
"""Seed corpora for the fuzz targets, from the job files the project already has:
examples/*.fio, the job texts in the tests (C string literals of tests/unit, Python strings
of tests/e2e) and the regression inputs in tests/fuzz/regress. The values target gets every
option value of those jobs and the literals of tests/unit/test_value.c. The results target
gets result lines shaped as iojob --results writes them (made here) and the result-set
regression inputs (tests/fuzz/regress/*.jsonl).

A libFuzzer dictionary goes to OUTDIR/iojob.dict: the words of tests/fuzz/iojob.dict (units,
operators, keywords) and the option names of the option tables.

usage: corpus.py OUTDIR    (writes OUTDIR/jobfile, OUTDIR/values and OUTDIR/results, one
                           file per seed)"""
import ast
import glob
import hashlib
import json
import os
import re
import struct
import sys

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

C_LITERALS = re.compile(r'"((?:[^"\\\n]|\\.)*)"((?:\s*"(?:[^"\\\n]|\\.)*")*)')
C_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'", "0": "\0", "r": "\r"}


def c_unescape(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s):
            if s[i + 1] == "x":
                m = re.match(r"[0-9a-fA-F]{1,2}", s[i + 2:])
                if m:
                    out.append(chr(int(m.group(0), 16)))
                    i += 2 + len(m.group(0))
                    continue
            out.append(C_ESCAPES.get(s[i + 1], s[i + 1]))
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def c_strings(path):
    """Every string literal of a C file, adjacent literals joined as the compiler does."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    for m in C_LITERALS.finditer(text):
        parts = [m.group(1)] + re.findall(r'"((?:[^"\\\n]|\\.)*)"', m.group(2))
        yield "".join(c_unescape(p) for p in parts)


def py_strings(path):
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value


def looks_like_job(s):
    return re.search(r"^\s*\[[^\]\n]+\]", s, re.M) is not None and "=" in s


def job_values(text):
    for line in text.splitlines():
        key, eq, val = line.partition("=")
        if eq and not key.strip().startswith(("[", ";", "#")):
            yield val.strip()


def write(outdir, seeds):
    os.makedirs(outdir, exist_ok=True)
    for s in seeds:
        data = s.encode("utf-8", errors="surrogateescape")
        name = hashlib.sha1(data).hexdigest()
        with open(os.path.join(outdir, name), "wb") as f:
            f.write(data)


def write_bytes(outdir, seeds):
    os.makedirs(outdir, exist_ok=True)
    for data in seeds:
        with open(os.path.join(outdir, hashlib.sha1(data).hexdigest()), "wb") as f:
            f.write(data)


def replay_seeds():
    """Logs for read_iolog: iologs of both versions with every action, and blktraces of
    both byte orders with a payload, a notify and a completion (struct blk_io_trace)."""
    v2 = ("fio version 2 iolog\n/f add\n/g add\n/f open\n/f read 0 4096\n/f wait 100 0\n"
          "/g write 8192 512\n/f sync 0 0\n/g datasync 0 0\n/f trim 4096 4096\n/f close\n")
    v3 = ("fio version 3 iolog\n0 /f add\n5 /f open\n9 /f read 0 4096\n30 /f write 4096 8192\n"
          "31 /f sync 4096 0\n80 /f close\nfio version 3 iolog\n1 /f add\n2 /f read 0 1\n")
    seeds = [v2.encode(), v3.encode()]
    for order in "<>":
        recs = b""
        for i, (action, sector, nbytes, pdu) in enumerate(
                [(1 | 1 << 26, 0, 0, b"msg\0"), (1 | 1 << 16, 8, 4096, b"xy"),
                 (1 | 2 << 16, 16, 8192, b""), (8 | 2 << 16, 16, 8192, b""),
                 (1 | 4 << 16, 0, 0, b""), (1 | (2 | 1 << 13) << 16, 64, 4096, b"")]):
            recs += struct.pack(order + "IIQQIIIIIHH", 0x65617407, i, 1000 * i, sector,
                                nbytes, action, 1, 8 << 20, 0, 0, len(pdu)) + pdu
        seeds.append(recs)
    return seeds


def result_dir(ios, runtime_ms, bins):
    lat = {"N": ios, "min": 1000, "max": 90000, "mean": 2500.5, "bins": bins}
    ms = max(runtime_ms, 1)
    return {"io_bytes": ios * 4096, "total_ios": ios, "runtime": runtime_ms,
            "iops": ios * 1000.0 / ms, "bw_bytes": ios * 4096000 // ms,
            "lat_ns": lat, "clat_ns": lat, "slat_ns": {"N": 0}}


def result_job(name, numjobs, rw, passno):
    return {"jobname": name, "groupid": 0, "error": 0,
            "job options": {"name": name, "rw": rw, "bs": "4k", "iodepth": "8",
                            "numjobs": str(numjobs), "size": "64m"},
            "read": result_dir(256, 100, {"1024": 200, "4096": 50, "90112": 6}),
            "write": result_dir(0 if rw == "randread" else 128, 100, {"2048": 128}),
            "trim": result_dir(0, 0, {}),
            "usr_cpu": 1.5, "sys_cpu": 20.25,
            "iojob": {"runtime_ns": 100000000, "pass": passno,
                      "proc_cpu": {"wall_ns": 110000000, "usr_ns": 1000000, "sys_ns": 9000000},
                      "lat_over": {"2s": 0, "10s": 0}}}


def result_seeds():
    """Result lines as iojob --results writes them: labels, swept cells, clones, passes."""
    seeds = []
    for label, cell, jobs in [
            ("", {}, [result_job("a", 1, "randread", 0)]),
            ("ssd", {"numjobs": "2", "rw": "rndrw"},
             [result_job("rr", 2, "randrw", 0), result_job("rr", 2, "randrw", 0)]),
            ("hdd", {"bs": "64k"}, [result_job("p", 1, "write", 1),
                                    result_job("p", 1, "write", 2)])]:
        line = {"iojob_result": 1, "version": "iojob-0.1.0", "time": 1796117499,
                "label": label, "host": "vm", "kernel": "6.1", "job_files": ["a.fio"],
                "cell": cell, "sets": {"size": "64m"}, "targets": [],
                "report": {"fio version": "iojob-0.1.0", "jobs": jobs,
                           "disk_util": [{"name": "vda", "read_ios": 10, "write_ios": 5,
                                          "util": 12.5}]}}
        seeds.append(json.dumps(line) + "\n")
    seeds.append("".join(seeds))
    return seeds


def dictionary(path):
    """Option names of jobs/options.c and the engines, and the grammar's own words."""
    words = set()
    for src in glob.glob(os.path.join(TOP, "jobs", "*.c")) + \
            glob.glob(os.path.join(TOP, "engine", "*.c")):
        with open(src, encoding="utf-8") as f:
            text = f.read()
        words.update(n + "=" for n in re.findall(r'(?:JOB|ENGINE)_[A-Z_]+\([^"]*"(\w+)"', text))
        words.update(re.findall(r'\.alias = "(\w+)"', text))
        words.update(re.findall(r'^\s*\{ "([\w:.+-]+)", \w+, "', text, re.M))
    with open(path, "w") as f:
        with open(os.path.join(TOP, "tests", "fuzz", "iojob.dict"), encoding="utf-8") as base:
            f.write(base.read())
        for w in sorted(words):
            f.write('"%s"\n' % w.replace("\\", "\\\\").replace('"', '\\"'))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    jobs, values = set(), set()
    for path in sorted(glob.glob(os.path.join(TOP, "examples", "*.fio")) +
                       glob.glob(os.path.join(TOP, "tests", "fuzz", "regress", "*.fio"))):
        with open(path, encoding="utf-8", errors="replace") as f:
            jobs.add(f.read())
    for path in sorted(glob.glob(os.path.join(TOP, "tests", "unit", "*.c"))):
        for s in c_strings(path):
            if looks_like_job(s):
                jobs.add(s)
            elif path.endswith("test_value.c") and len(s) < 64:
                values.add(s)
    for path in sorted(glob.glob(os.path.join(TOP, "tests", "e2e", "*.py"))):
        for s in py_strings(path):
            if looks_like_job(s):
                jobs.add(s)
    for text in jobs:
        values.update(job_values(text))
    for path in sorted(glob.glob(os.path.join(TOP, "tests", "fuzz", "regress", "*.txt"))):
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            values.add(f.read())
    results = set(result_seeds())
    for path in sorted(glob.glob(os.path.join(TOP, "tests", "fuzz", "regress", "*.jsonl"))):
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            results.add(f.read())
    write(os.path.join(sys.argv[1], "jobfile"), jobs)
    write(os.path.join(sys.argv[1], "values"), values)
    write(os.path.join(sys.argv[1], "results"), results)
    write_bytes(os.path.join(sys.argv[1], "replay"), replay_seeds())
    dictionary(os.path.join(sys.argv[1], "iojob.dict"))
    print("corpus: %d job files, %d values, %d result sets in %s" %
          (len(jobs), len(values), len(results), sys.argv[1]))


if __name__ == "__main__":
    main()
