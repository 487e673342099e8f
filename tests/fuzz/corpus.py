#!/usr/bin/env python3
"""Seed corpora for the fuzz targets, from the job files the project already has:
examples/*.fio, the job texts in the tests (C string literals of tests/unit, Python strings
of tests/e2e) and the regression inputs in tests/fuzz/regress. The values target gets every
option value of those jobs and the literals of tests/unit/test_value.c.

A libFuzzer dictionary of option names (from the option tables) goes to OUTDIR/jobfile.dict.

usage: corpus.py OUTDIR    (writes OUTDIR/jobfile and OUTDIR/values, one file per seed)"""
import ast
import glob
import hashlib
import os
import re
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


def dictionary(path):
    """Option names of jobs/options.c and the engines, and the grammar's own words."""
    words = {"[global]", "[job]", "include ", "${", "}", "=", ";", "#", "\\:", "%", ","}
    for src in glob.glob(os.path.join(TOP, "jobs", "*.c")) + \
            glob.glob(os.path.join(TOP, "engine", "*.c")):
        with open(src, encoding="utf-8") as f:
            text = f.read()
        words.update(n + "=" for n in re.findall(r'(?:JOB|ENGINE)_[A-Z_]+\([^"]*"(\w+)"', text))
        words.update(re.findall(r'\.alias = "(\w+)"', text))
        words.update(re.findall(r'^\s*\{ "([\w:.+-]+)", \w+, "', text, re.M))
    with open(path, "w") as f:
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
    write(os.path.join(sys.argv[1], "jobfile"), jobs)
    write(os.path.join(sys.argv[1], "values"), values)
    dictionary(os.path.join(sys.argv[1], "jobfile.dict"))
    print("corpus: %d job files, %d values in %s" % (len(jobs), len(values), sys.argv[1]))


if __name__ == "__main__":
    main()
