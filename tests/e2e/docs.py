#!/usr/bin/env python3
"""Help, man page and parser agree: every option --cmdhelp=all lists is accepted and in
iojob(1), and the option tables read from the sources hold the same names (a cross-check: an
entry the scrape cannot read, or a listing that leaves one out, fails); every option and
switch the man page and --help name is accepted; --version and --help exit 0; the man page
renders without warnings."""
import glob
import os
import re
import shutil
import struct
import subprocess
import tempfile

from common import SRC, Checks, run

BUILD = os.environ.get("IOJOB_BUILDDIR", os.path.join(SRC, "build"))
MAN = os.path.join(BUILD, "doc", "iojob.1")

# Values for the CUSTOM options that have no default to try.
CUSTOM_SAMPLES = {
    "rwmixwrite": "30", "bsrange": "4k-8k", "bssplit": "4k/50:8k/50", "blockalign": "4k",
    "rate": "1m", "rate_iops": "100", "buffer_pattern": "0xaa", "verify_pattern": "0xaa",
    "cmdprio_class": "2,3", "cmdprio_bssplit": "4k/50/1/0:8k/25,4k/10",
    "cpus_allowed": "0", "numa_cpu_nodes": "0", "numa_mem_policy": "local",
    "sync_file_range": "write:8",
    "log_compression_cpus": "0",
    "rate_min": "1m", "ratemin": "1m", "rate_iops_min": "100",
    "ignore_error": "EIO,ENOSPC:28", "max_latency": "10ms,20ms", "wait_for": "w",
    "verify_async_cpus": "0",
    "sqthread_poll_cpu": "0",  # issue 16: io_uring's, a CPU number
    "read_iolog": "replay.log", "replay_skip": "trim",  # issue 17: write_replay_inputs()
    "merge_blktrace_scalars": "50", "merge_blktrace_iters": "2",
}
# What to give a switch, by the metavar the man page shows it with.
METAVAR_SAMPLES = {
    "FILE": "out.txt", "FILE.jsonl": "results.jsonl", "FORMAT": "json", "KEY=VALUE": "bs=8k",
    "NAME": "x", "KEY=V1,V2,...": "bs=4k,8k", "TEXT": "t", "TIME": "1s", "WHEN": "never",
    "OPTION|all": "all", "ENGINE": "null", "full|delta": "delta", "VERSION": "4",
    "NR": "1", "TYPE,...": "crc32c", "DIR": ".", "KB": "16384", "CATEGORY,...": "io",
    "LOG": "/dev/null", "CMD": "true", "N": "2", "MODE": "system", "PREFIX": "agg",
}
# Options that the parser accepts only with another one.
NEEDS = {"write_hist_log": ["--log_hist_msec=100"], "cgroup_weight": ["--cgroup=x"],
         "log_compression_cpus": ["--log_compression=1k"]}
# The replay options act on a log: replay.log and trace.bin, which write_replay_inputs() makes.
for _opt in ("read_iolog_chunked", "replay_no_stall", "replay_redirect", "replay_align",
             "replay_scale", "replay_time_scale", "replay_skip"):
    NEEDS[_opt] = ["--read_iolog=replay.log"]
for _opt in ("merge_blktrace_file", "merge_blktrace_scalars", "merge_blktrace_iters"):
    NEEDS[_opt] = ["--read_iolog=trace.bin", "--replay_redirect=data"] + \
        (["--merge_blktrace_file=merged.bin"] if _opt != "merge_blktrace_file" else [])


def write_replay_inputs(d):
    """A log that writes one block of 'data' (so nothing need exist), and a blktrace of one
    queued write: the samples the replay options are tried with."""
    with open(os.path.join(d, "replay.log"), "w") as f:
        f.write("fio version 3 iolog\n0 data add\n1 data write 0 4096\n")
    action = 1 | (2 << 16)  # a queue event of a write
    record = struct.pack("<IIQQIIIIIHH", 0x65617407, 0, 1000, 0, 4096, action, 1, 0, 0, 0, 0)
    with open(os.path.join(d, "trace.bin"), "wb") as f:
        f.write(record)
# Options that need another job before theirs (wait_for names one above it).
BEFORE = {"wait_for": ["--name=w", "--size=1m"]}
# What a job with an engine's option needs besides (an engine that runs for runtime=, or
# only writes).
ENGINE_NEEDS = {"cpuio": ["--runtime=1"], "exec": ["--runtime=1"],  # issue 16
                "e4defrag": ["--rw=write"]}  # issue 31: it only writes
# Words of the form key= in the man page's prose that are not job options.
NOT_OPTIONS = {"key", "value", "option", "job", "job2", "name", "util", "aggrios", "ios",
               "merge", "ticks", "in_queue", "r", "w", "f", "per", "min", "max", "avg",
               "stdev", "samples", "target", "window", "percentile", "depth", "total",
               "short", "dropped", "usr", "sys", "ctx", "majf", "minf", "bw",
               "chunk"}	# filename=stripe:chunk=SIZE:...


def listed_options():
    """Option names and aliases as the binary lists them (--cmdhelp=all), the list the
    checks go by: {name: engine or None}; an option several engines share (cmdprio_*) is
    listed once, its engines joined ("libaio, io_uring")."""
    code, out, err = run(["--cmdhelp=all"])
    if code != 0:
        raise SystemExit("docs: --cmdhelp=all: exit %d: %s" % (code, err.strip()))
    names, entry = {}, []
    for line in out.splitlines():
        if line and not line[0].isspace():
            entry = [line.split()[0]]
            names[entry[0]] = None
            continue
        alias = re.match(r"\s+alias: (.+)$", line)
        engine = re.match(r"\s+ioengine: (\S+(?:, \S+)*) only$", line)
        if alias:
            for name in alias.group(1).split(", "):
                entry.append(name)
                names[name] = names[entry[0]]
        elif engine:
            for name in entry:
                names[name] = engine.group(1)
    return names


def source_options():
    """Option names and aliases from the table sources: {name: engine or None}; the engines
    of a shared option joined as --cmdhelp=all joins them, in the catalog's order."""
    names, owners = {}, {}
    with open(os.path.join(SRC, "jobs", "options.c")) as f:
        text = f.read()
    for m in re.finditer(r'JOB_[A-Z0-9_]+\("([^"]+)"(.*?)\),\n', text, re.S):
        names[m.group(1)] = None
        alias = re.search(r'\.alias = "([^"]+)"', m.group(2))
        if alias:
            names[alias.group(1)] = None
    # entry macros that several engines' tables share: NAME(ENG, TYPE) in jobs/opt_*.h
    shared = {}
    for path in glob.glob(os.path.join(SRC, "jobs", "opt_*.h")):
        with open(path) as f:
            for m in re.finditer(r'#define ([A-Z_]+)\(ENG, TYPE\)((?:.*\\\n)*.*)', f.read()):
                shared[m.group(1)] = re.findall(r'ENGINE_[A-Z_]+\(ENG,\s*TYPE,\s*"([^"]+)"',
                                                m.group(2))
    for path in glob.glob(os.path.join(SRC, "engine", "**", "*.c"), recursive=True):
        with open(path) as f:
            text = f.read()
        for m in re.finditer(r'ENGINE_(?!REFUSED)[A-Z_]+\("([^"]+)",\s*[^,]+,\s*"([^"]+)"',
                             text):
            owners.setdefault(m.group(2), set()).add(m.group(1))
        for m in re.finditer(r'ENGINE_REFUSED\("([^"]+)",\s*"([^"]+)"', text):
            owners.setdefault(m.group(2), set()).add(m.group(1))
        for macro, opts in shared.items():
            for m in re.finditer(r'\b%s\("([^"]+)",' % macro, text):
                for name in opts:
                    owners.setdefault(name, set()).add(m.group(1))
    order = list(engines())
    for name, engs in owners.items():
        names[name] = ", ".join(sorted(engs, key=lambda e: order.index(e) if e in order else 99))
    return names


def engines():
    """{engine: built} from --enghelp."""
    _, out, _ = run(["--enghelp"])
    return {line.split()[0]: "built without" not in line for line in out.splitlines()}


def cmdhelp_fields(name):
    """The fields --cmdhelp=NAME prints: {"type": ..., "default": ..., "values": [...]}."""
    _, out, _ = run(["--cmdhelp=" + name])
    fields, values, in_values = {}, [], False
    for line in out.splitlines()[1:]:
        text = line.strip()
        if in_values:
            values += [v.strip() for v in text.split("  ")[0].split(",")]
        elif text == "values:":
            in_values = True
        elif ": " in text:
            key, val = text.split(": ", 1)
            fields[key] = val
    fields["values"] = values
    return fields


def sample_value(name):
    """A value the parser must accept for option name."""
    f = cmdhelp_fields(name)
    kind = f.get("type", "")
    if "default" in f:
        return f["default"]
    if name in CUSTOM_SAMPLES:
        return CUSTOM_SAMPLES[name]
    if f["values"]:
        return f["values"][0]
    m = re.match(r"integer, (\d+) to", kind)
    for prefix, value in [("integer", m.group(1) if m else "1"), ("size or percentage", "50%"),
                          ("size or size range", "4k-8k"), ("size", "4k"),
                          ("time", "1s"), ("boolean", "1"), ("list", "x"), ("text", "x"),
                          ("anything", "1")]:
        if kind.startswith(prefix):
            return value
    return None


def accepted(args, cwd):
    code, out, err = run(["--parse-only"] + args, cwd=cwd)
    return code == 0, err.strip()


def check_option_refused(c, name, fields, d, engine=None):
    """A refused option fails with its reason and exit 2, but for its no-op default."""
    job = os.path.join(d, "refused.fio")
    for value in ["refused-value", fields.get("accepts only")]:
        if value is None:
            continue
        with open(job, "w") as f:
            f.write("[x]\nsize=1m\n%s=%s\n" % (name, value))
        args = [a.lstrip("-") for a in ENGINE_NEEDS.get(engine, [])]
        if engine:
            args.append("ioengine=" + engine)
        with open(job, "a") as f:
            f.write("".join(a + "\n" for a in args))
        code, _, err = run(["--parse-only", job], cwd=d)
        if value == "refused-value":
            # an alias is reported by the option's own name
            c.check(code == 2 and re.search(r"refused\.fio:3: option '[a-z0-9_-]+': not in "
                                            r"iojob: " + re.escape(fields["refused"]), err),
                    "refused option %s: exit %d, %r" % (name, code, err))
        else:
            c.check(code == 0, "refused option %s rejects its no-op value: %s" % (name, err))


def check_option_accepted(c, name, engine, d):
    fields = cmdhelp_fields(name)
    if "refused" in fields:
        check_option_refused(c, name, fields, d, engine)
        return
    value = sample_value(name)
    c.check(value is not None, "option '%s': no sample value for its type" % name)
    if value is None:
        return
    args = BEFORE.get(name, []) + ["--name=x", "--size=1m", "--%s=%s" % (name, value)] + \
        NEEDS.get(name, [])
    if engine:
        args.insert(2, "--ioengine=" + engine)
        args += ENGINE_NEEDS.get(engine, [])
    ok, err = accepted(args, d)
    c.check(ok, "the parser rejects %s: %s" % (" ".join(args), err))


def check_sources_agree(c, listed, scraped, built):
    """The binary's list and the sources' tables hold the same options, aliases and engines,
    both ways; an option of an engine this build lacks is in the sources only."""
    for name, engine in sorted(scraped.items()):
        if engine is not None:
            engine = ", ".join(e for e in engine.split(", ") if built.get(e)) or None
            if engine is None:
                c.check(name not in listed, "option '%s' of engine '%s', which this build "
                        "lacks, is in --cmdhelp=all" % (name, scraped[name]))
                continue
        c.check(name in listed, "option '%s' of the sources is missing from --cmdhelp=all" % name)
        if name in listed:
            c.check(listed[name] == engine, "option '%s': --cmdhelp=all says engine %s, the "
                    "sources %s" % (name, listed[name], engine))
    for name in sorted(set(listed) - set(scraped)):
        c.check(False, "--cmdhelp=all lists '%s', which the scrape of jobs/options.c and the "
                "engines did not find: an entry of a shape docs.py cannot read" % name)
    c.check(len(listed) > 50, "--cmdhelp=all lists only %d options" % len(listed))


def check_help(c, built):
    code, out, _ = run(["--version"])
    c.check(code == 0 and re.fullmatch(r"iojob \d+\.\d+\.\d+\n", out) is not None,
            "--version: exit %d, %r" % (code, out))
    code, out, err = run(["--help"])
    c.check(code == 0 and out.startswith("usage: iojob") and err == "",
            "--help: exit %d, stderr %r" % (code, err))
    c.check("man iojob" in out and "Exit status: 0" in out,
            "--help names the manual and the exit status")
    for sub in ("report", "compare", "pts"):
        c.check("iojob %s " % sub in out, "--help names the subcommand %s" % sub)
        code, sout, _ = run([sub, "--help"])
        c.check(code == 0 and sout.startswith("usage: iojob %s" % sub),
                "iojob %s --help: exit %d" % (sub, code))
    code, _, err = run(["--cmdhelp=no_such_option"])
    c.check(code == 2 and "unknown option 'no_such_option'" in err, "--cmdhelp=bad: %r" % err)
    # a misspelt name gets the closest one, as the job parser's errors and fio's --cmdhelp
    for typo, best in (("iodepht", "iodepth"), ("sqthread_pol", "sqthread_poll")):
        code, _, err = run(["--cmdhelp=" + typo])
        c.check(code == 2 and "unknown option '%s' (did you mean '%s'?)" % (typo, best) in err,
                "--cmdhelp=%s: %r" % (typo, err))
    for eng, ok in built.items():
        code, out, _ = run(["--enghelp=" + eng])
        c.check(code == 0 and out.startswith(eng + ": "), "--enghelp=%s: exit %d" % (eng, code))


def man_text(width):
    env = dict(os.environ, MANWIDTH=str(width), LC_ALL="C.UTF-8")
    p = subprocess.run(["man", "-l", MAN], capture_output=True, text=True, env=env)
    return p.stdout, p.stderr


def man_terms(text):
    """The terms of the page's lists: a line after a blank one or a heading, indented 7
    columns, with its description indented 11 below it."""
    return re.findall(r"^(?:\n|   \S.*\n) {7}(\S.*)\n {11}\S", text, re.M)


def subcommand_options():
    """The options of iojob report, compare and pts, as they tell the completion."""
    out = "".join(run([sub, "--complete-options"])[1] for sub in ("report", "compare", "pts"))
    return {w.split("=")[0][2:] for w in out.split() if w.startswith("--") and w != "--help"}


def check_man(c, listed, known, built, d):
    """listed: the options the binary has, each of which the page must describe; known: also
    those of engines this build lacks, which the page may name."""
    _, warnings = man_text(80)
    c.check(warnings == "", "MANWIDTH=80 man -l %s warns:\n%s" % (MAN, warnings))
    text, _ = man_text(1000)	# one line per paragraph: nothing wraps or hyphenates
    terms = man_terms(text)
    options = {m.group(1) for m in (re.match(r"([a-z][a-z0-9_-]*)=", t) for t in terms) if m}
    aliases = set(re.findall(r"Also spelled ([a-z0-9_-]+)\.", text))
    for name in sorted(listed):
        c.check(name in options | aliases, "option '%s' is missing from iojob(1)" % name)
    for name in sorted((options | aliases) - known):
        c.check(False, "iojob(1) describes '%s', which is not in the option table" % name)
    for eng in built:
        c.check(eng in terms, "engine '%s' is missing from iojob(1)" % eng)

    # Every job option the prose names (key=value) must exist.
    for word in sorted(set(re.findall(r"(?<![\w./-])([a-z][a-z0-9_]*)=", text))):
        if word not in NOT_OPTIONS:
            c.check(word in known, "iojob(1) names '%s=', which is not an option" % word)

    # Every switch the page describes is accepted, with a sample of its metavar; the
    # options of iojob report and compare by the subcommand.
    subopts = subcommand_options()
    for name in sorted(subopts):
        c.check(any(re.match(r"(--\w+ \S+, )*--%s " % name, t) for t in terms),
                "iojob(1) does not describe the subcommands' --%s" % name)
    for term in terms:
        m = re.match(r"(?:-\w, )?--([a-z-]+)(\[?[= ])?([^\]\s]*)", term)
        if not m or m.group(1) in subopts:
            continue
        name, sep, metavar = m.groups()
        args = ["--name=x", "--size=1m"]
        if not sep:
            args.append("--" + name)
        else:
            value = METAVAR_SAMPLES.get(metavar)
            c.check(value is not None, "switch --%s: no sample for %s" % (name, metavar))
            args.append("--%s=%s" % (name, value))
        if name == "resume":
            args.append("--results=results.jsonl")
        code, _, err = run(["--parse-only"] + args, cwd=d)
        c.check(code == 0, "iojob(1)'s --%s is rejected: %s" % (name, err.strip()))
    # and every --word anywhere on the page is a switch or a job option
    switches = {w.split("=")[0][2:] for w in run(["--complete-options"])[1].split()}
    for word in sorted(set(re.findall(r"(?<![\w-])--([a-z][a-z0-9_-]*)", text))):
        c.check(word in switches | subopts or word in known or word in ("option", "name"),
                "iojob(1) names --%s, which iojob does not accept" % word)


def main():
    c = Checks("docs")
    listed = listed_options()
    scraped = source_options()
    known = set(listed) | set(scraped)
    built = engines()
    with tempfile.TemporaryDirectory(prefix="iojob-docs-") as d:
        write_replay_inputs(d)
        check_sources_agree(c, listed, scraped, built)
        check_help(c, built)
        for name, engine in sorted(listed.items()):
            for one in (engine or "").split(", "):
                check_option_accepted(c, name, one or None, d)
        if not os.path.exists(MAN):
            c.skip("no %s: built without the man page (scdoc missing or -Dman=disabled)" % MAN)
        elif not shutil.which("man"):
            c.skip("no man to render iojob(1) with (apt-get install man-db)")
        else:
            check_man(c, listed, known, built, d)
    c.finish()


if __name__ == "__main__":
    main()
