#!/usr/bin/env python3
"""Bash completion (completion/iojob.bash), run as bash runs it: COMP_WORDS and COMP_CWORD
set, _iojob called, COMPREPLY read. Option names and enum values must be what the binary
accepts, job files *.fio, and --section the sections of the job file on the line."""
import os
import re
import shutil
import subprocess

from common import BIN, SKIP, SRC, Checks, remove, run, scratch_dir

SCRIPT = os.path.join(SRC, "completion", "iojob.bash")
DRIVER = 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _iojob; ' \
         'printf "%s\\n" "${COMPREPLY[@]}"'


def complete(words, cwd):
    """COMPREPLY for the command line BIN words..., the cursor at the end of the last."""
    p = subprocess.run(["bash", "--norc", "--noprofile", "-c", DRIVER, "bash", SCRIPT, BIN] +
                       words, cwd=cwd, capture_output=True, text=True, timeout=60)
    return [w for w in p.stdout.split("\n") if w], p.stderr


def option_values():
    """{option: [values]} for every option whose --cmdhelp lists values."""
    _, out, _ = run(["--cmdhelp=all"])
    opts, name, in_values = {}, None, False
    for line in out.splitlines():
        if line and not line[0].isspace():
            name, in_values = line.split()[0], False
        elif line.strip() == "values:":
            in_values, opts[name] = True, []
        elif in_values and re.match(r" {31}\S", line):	# not a wrapped help line
            opts[name] += line.strip().split("  ")[0].split(", ")
    return opts


def accepted(args, cwd):
    """Whether the parser takes the value of args[-1] ("--key=value"). A rule between
    options (verify=pattern needs verify_pattern) may still refuse the job: that is not
    the value being unknown."""
    value = args[-1].split("=", 1)[1]
    code, _, err = run(["--parse-only", "--name=x", "--size=1m"] + args, cwd=cwd)
    return code == 0 or ("'%s' is not" % value not in err and "unknown" not in err), err.strip()


def check_option_names(c, d):
    got, err = complete(["--"], d)
    c.check(err == "", "completing '--' wrote to stderr: %r" % err)
    _, out, _ = run(["--cmdhelp=all"])
    names = [line.split()[0] for line in out.splitlines() if line and not line[0].isspace()]
    for n in names:
        c.check("--%s=" % n in got, "'--' does not offer --%s=" % n)
    for sw in ["--parse-only", "--help", "--version", "--output=", "--output-format=", "--set=",
               "--section=", "--eta=", "--status-interval=", "--enghelp", "--cmdhelp="]:
        c.check(sw in got, "'--' does not offer %s" % sw)
    c.check(not [w for w in got if w.startswith("--complete")],
            "the completion's own switches are offered")
    got, _ = complete(["--iodep"], d)
    c.check(got and all(w.startswith("--iodepth") for w in got) and "--iodepth=" in got,
            "'--iodep' offers %s" % got)


def check_values(c, d):
    values = option_values()
    c.check("rw" in values and "verify" in values and "sync" in values,
            "--cmdhelp=all lists values for rw, verify and sync: %s" % sorted(values))
    for name, vals in sorted(values.items()):
        got, _ = complete(["--" + name, "="], d)
        c.check(sorted(got) == sorted(vals), "--%s= offers %s, --cmdhelp lists %s" %
                (name, got, vals))
        for v in got:
            ok, err = accepted(["--%s=%s" % (name, v)], d)
            c.check(ok, "--%s=%s is offered but rejected: %s" % (name, v, err))
    got, _ = complete(["--rw=rand"], d)
    c.check("--rw=randread" in got and all(w.startswith("--rw=rand") for w in got),
            "'--rw=rand' as one word offers %s" % got)
    got, _ = complete(["--rw", "=", "randr"], d)
    c.check(sorted(got) == ["randread", "randrw"], "'--rw=randr' offers %s" % got)
    got, _ = complete(["--direct", "=", ""], d)
    c.check(got == ["0", "1"], "--direct= offers %s" % got)
    _, out, _ = run(["--enghelp"])
    built = [line.split()[0] for line in out.splitlines() if "built without" not in line]
    got, _ = complete(["--ioengine", "=", ""], d)
    c.check(sorted(got) == sorted(built), "--ioengine= offers %s, built: %s" % (got, built))
    for e in got:
        ok, err = accepted(["--ioengine=" + e], d)
        c.check(ok, "--ioengine=%s is offered but rejected: %s" % (e, err))


def check_switch_values(c, d):
    for sw, want in [("--output-format", ["json", "json+", "normal", "terse"]),
                     ("--eta", ["always", "auto", "never"])]:
        for words in ([sw, "=", ""], [sw, ""]):
            got, _ = complete(words, d)
            c.check(sorted(got) == want, "%s offers %s" % (" ".join(words), got))
        for v in want:
            code, _, err = run(["--parse-only", "--name=x", "--size=1m", "%s=%s" % (sw, v)],
                               cwd=d)
            c.check(code == 0, "%s=%s is offered but rejected: %s" % (sw, v, err))
    got, _ = complete(["--set", "iodepth_b"], d)
    c.check("iodepth_batch_submit=" in got, "--set iodepth_b offers %s" % got)
    got, _ = complete(["--set", "rw", "=", "randw"], d)
    c.check(got == ["randwrite"], "--set rw=randw offers %s" % got)
    got, _ = complete(["--enghelp", "=", ""], d)
    c.check("psync" in got and "null" in got, "--enghelp= offers %s" % got)
    got, _ = complete(["--cmdhelp", "=", "al"], d)
    c.check("all" in got, "--cmdhelp=al offers %s" % got)


def check_files_and_sections(c, d):
    with open(os.path.join(d, "two.fio"), "w") as f:
        f.write("[global]\nsize=1m\n[alpha]\nrw=read\n  [beta]  ; indented\nrw=write\n")
    with open(os.path.join(d, "one.fio"), "w") as f:
        f.write("[gamma]\nsize=1m\n")
    open(os.path.join(d, "notes.txt"), "w").close()
    os.mkdir(os.path.join(d, "sub"))
    got, _ = complete([""], d)
    c.check(sorted(got) == ["compare", "one.fio", "pts", "report", "sub", "two.fio"],
            "job files, directories and subcommands: %s" % got)
    got, _ = complete(["t"], d)
    c.check(got == ["two.fio"], "'t' offers %s" % got)
    got, _ = complete(["two.fio", "--section", "=", ""], d)
    c.check(sorted(got) == ["alpha", "beta"], "--section= with two.fio offers %s" % got)
    got, _ = complete(["two.fio", "one.fio", "--section", "g"], d)
    c.check(got == ["gamma"], "--section g with two job files offers %s" % got)
    got, _ = complete(["--output", "=", "no"], d)
    c.check(got == ["notes.txt"], "--output= completes file names: %s" % got)


def check_subcommands(c, d):
    _, out, _ = run(["--complete-options"])
    commands = [w for w in out.split() if not w.startswith("-") and w != "separate"]
    c.check(commands == ["report", "compare", "pts"], "subcommands listed: %s" % commands)
    got, _ = complete([""], d)
    for cmd in commands:
        c.check(cmd in got, "subcommand %s is not offered first: %s" % (cmd, got))
    got, _ = complete(["rep"], d)
    c.check(got == ["report"], "'rep' offers %s" % got)
    for f in ["r.jsonl", "bw_bw.1.log", "job.fio"]:
        open(os.path.join(d, f), "w").close()
    want = {"report": ["--chart=", "--cols=", "--format=", "--help", "--html=", "--job=",
                       "--metric=", "--rows=", "--subtitle=", "--svg=", "--title=", "--where=",
                       "--y-axis="],
            "compare": ["--format=", "--help", "--job=", "--metrics=", "--subtitle=", "--svg=",
                        "--title=", "--where="]}
    for cmd, opts in want.items():
        got, err = complete([cmd, "--"], d)
        c.check(sorted(got) == opts and err == "", "%s --: offers %s %s" % (cmd, got, err))
        got, _ = complete([cmd, "r.jsonl", "--format", "=", ""], d)
        c.check(got and "csv" in got and ("sysbench" in got) == (cmd == "report"),
                "%s --format= offers %s" % (cmd, got))
        for v in got:
            code, _, err = run([cmd, "--format=" + v, "--help"], cwd=d)
            c.check(code == 0, "%s --format=%s is offered but rejected: %s" % (cmd, v, err))
        got, _ = complete([cmd, "--format", "csv", ""], d)
        c.check(sorted(got) == (["bw_bw.1.log", "r.jsonl", "sub"] if cmd == "report" else
                                ["r.jsonl", "sub"]), "%s offers result files: %s" % (cmd, got))
    got, _ = complete(["report", "--chart", ""], d)
    c.check(sorted(got) == ["bars", "bars3d", "buckets", "bw", "heatmap", "hockey", "iops",
                            "lat-time", "latency", "metric"], "--chart offers %s" % got)
    got, _ = complete(["report", "--metric=write_"], d)
    c.check("--metric=write_iops" in got and all(w.startswith("--metric=write_") for w in got),
            "--metric=write_ offers %s" % got)
    got, _ = complete(["report", "--iodep"], d)
    c.check(got == [], "job options are not offered after report: %s" % got)


def help_entry(out, lead):
    """The help of the entry starting with lead in a --help text (after its one-letter form,
    "  -F, --output-format=FORMAT"), its wrapped lines joined."""
    lines = out.splitlines()
    for i, line in enumerate(lines):
        line = re.sub(r"^  -\w, ", "  ", line)
        if line.startswith(lead):
            text = [line[len(lead):].strip()]
            for more in lines[i + 1:]:
                if not more.startswith(" " * 20) or more.lstrip().startswith("-"):
                    break
                text.append(more.strip())
            return " ".join(text)
    return None


def check_output_formats(c, d):
    """The formats completion offers are those --help names, and each prints a report."""
    got, _ = complete(["--output-format", "=", ""], d)
    _, out, _ = run(["--help"])
    helped = help_entry(out, "  --output-format=FORMAT")
    c.check(helped is not None, "--help has no --output-format entry")
    named = [w for w in re.findall(r"[a-z+]+", (helped or "").split(";")[0]) if w != "or"]
    c.check(sorted(named) == sorted(got),
            "--help names the formats %s, completion offers %s" % (named, got))
    outputs = {}
    for fmt in got:
        code, out, err = run(["--name=x", "--ioengine=null", "--size=64k",
                              "--output-format=" + fmt], cwd=d)
        c.check(code == 0 and out, "--output-format=%s: exit %d, %r" % (fmt, code, err))
        outputs[fmt] = out
    c.check(len(set(outputs.values())) == len(outputs), "two formats print the same report")
    code, _, err = run(["--parse-only", "--name=x", "--output-format=none"], cwd=d)
    c.check(code == 2 and "(%s)" % ", ".join(named) in err,
            "an unknown format's error lists the formats: %r" % err)


def subcommand_help(cmd):
    """The options --help lists for a subcommand, in order, and its text."""
    _, out, _ = run([cmd, "--help"])
    return re.findall(r"^  --([a-z-]+)", out, re.M), out


def check_subcommand_tables(c, d):
    """Each subcommand's --help, completion and parser come from one table: the same
    options in both lists, every value offered named by --help and accepted."""
    for args in (["--label=a"], ["--label=b"]):
        code, _, err = run(["--name=x", "--ioengine=null", "--size=64k", "--results=t.jsonl",
                            "--output-format=terse"] + args, cwd=d)
        c.check(code == 0, "a result set for the subcommands: %r" % err)
    _, out, _ = run(["--complete-options"])
    for cmd in [w for w in out.split() if not w.startswith("-") and w != "separate"]:
        globs = run([cmd, "--complete-files"])[1].split()
        # pts runs on any block device or file: "*"
        c.check(globs and all(g.startswith("*.") or g == "*" for g in globs),
                "%s --complete-files: %s" % (cmd, globs))
    for cmd in ("report", "compare"):
        names, text = subcommand_help(cmd)
        _, out, _ = run([cmd, "--complete-options"])
        offered = [w.split("=")[0][2:] for w in out.split() if w.startswith("--")]
        c.check(sorted(names) == sorted(offered) and names[-1] == "help",
                "%s: --help lists %s, completion offers %s" % (cmd, names, offered))
        formats = run([cmd, "--complete-values=format"])[1].split()
        helped = help_entry(text, "  --format FORMAT")
        for f in formats:
            c.check(re.search(r"\b%s\b" % f, helped or ""),
                    "%s --help does not name the format %s: %r" % (cmd, f, helped))
            sides = ["t.jsonl"] if cmd == "report" else ["a", "b", "t.jsonl"]
            code, out, err = run([cmd] + sides + ["--format", f], cwd=d)
            c.check(code == 0 and out, "%s --format %s: exit %d, %r" % (cmd, f, code, err))
    charts = run(["report", "--complete-values=chart"])[1].split()
    with open(os.path.join(SRC, "doc", "iojob.1.scd")) as f:
        man = f.read()	# the hand-written part: each value must be described there too
    for v in run(["report", "--complete-values=format"])[1].split() + charts:
        c.check("*%s*" % v in man, "iojob(1) does not describe report's %s" % v)
    helped = help_entry(subcommand_help("report")[1], "  --chart KIND")
    c.check(len(charts) == 10, "report --chart offers %s" % charts)
    for k in charts:
        c.check(re.search(r"\b%s\b" % k, helped or ""), "--chart's help does not name %s" % k)
        _, _, err = run(["report", "t.jsonl", "--chart", k, "--svg", "c.svg"], cwd=d)
        c.check("--chart takes" not in err, "--chart %s is offered but unknown: %r" % (k, err))
    metrics = run(["report", "--complete-values=metric"])[1].split()
    c.check(len(metrics) > 50 and "write_lat_p99" in metrics and "util" in metrics,
            "report --metric offers %s" % metrics)
    text = subcommand_help("report")[1]
    for m in metrics:
        code, _, err = run(["report", "t.jsonl", "--metric", m], cwd=d)
        c.check(code == 0, "--metric %s is offered but rejected: %r" % (m, err))
        base = re.sub(r"^lat_p[0-9.]+$", "lat_pNN",
                      re.sub(r"^[cs]lat_", "lat_", re.sub(r"^(read|write|trim)_", "", m)))
        c.check(re.search(r"\b%s\b" % re.escape(base), text),
                "report --help does not explain the metric %s (%s)" % (m, base))
    got = run(["compare", "--complete-values=metrics"])[1].split()
    c.check(set(metrics) <= set(got), "compare --metrics offers fewer metrics than report")
    code, _, err = run(["compare", "a", "b", "t.jsonl", "--metrics", got[0]], cwd=d)
    c.check(code == 0, "compare --metrics %s: %r" % (got[0], err))


def check_result_words(c, d):
    """--sweep offers job option keys; after a result set on the line, --rows and --cols
    offer its keys, --where its KEY=VALUE pairs, --job its jobs, compare its labels."""
    e = os.path.join(d, "sets")
    os.mkdir(e)
    for label, sweep in [("a", ["--sweep", "rw=rndrd,read"]), ("b", [])]:
        code, _, err = run(["--name=t", "--ioengine=null", "--size=1m", "--sweep",
                            "numjobs=1,2", "--label", label, "--results", "r.jsonl",
                            "--output-format=terse"] + sweep, cwd=e)
        c.check(code == 0, "sweep %s: exit %d %s" % (label, code, err))
    got, _ = complete(["--sweep", "numj"], e)
    c.check(got == ["numjobs="], "--sweep numj offers %s" % got)
    got, _ = complete(["report", "r.jsonl", "--rows", ""], e)
    c.check({"label", "job", "numjobs", "rw", "ioengine"} <= set(got) and
            len(got) == len(set(got)), "--rows after r.jsonl offers %s" % got)
    got, _ = complete(["report", "r.jsonl", "--cols", "=", "n"], e)
    c.check(sorted(got) == ["name", "none", "numjobs"], "--cols=n offers %s" % got)
    got, _ = complete(["report", "r.jsonl", "--where", "num"], e)
    c.check(got == ["numjobs=1", "numjobs=2"], "--where num offers %s" % got)
    got, _ = complete(["report", "r.jsonl", "--where", "rw"], e)
    c.check(got == ["rw=rndrd", "rw=read"], "--where rw offers %s" % got)
    got, _ = complete(["compare", "r.jsonl", "--job", ""], e)
    c.check(got == ["t"], "compare --job offers %s" % got)
    got, _ = complete(["compare", "r.jsonl", "a", ""], e)
    c.check({"a", "b", "r.jsonl"} <= set(got), "compare's sides offer %s" % got)
    got, _ = complete(["report", "--rows", ""], e)
    c.check(sorted(got) == ["job", "label"], "--rows without a result set offers %s" % got)


def main():
    c = Checks("completion")
    if not shutil.which("bash"):
        print("SKIP: no bash")
        raise SystemExit(SKIP)
    d = scratch_dir()
    try:
        check_option_names(c, d)
        check_values(c, d)
        check_switch_values(c, d)
        check_files_and_sections(c, d)
        check_subcommands(c, d)
        check_output_formats(c, d)
        check_subcommand_tables(c, d)
        check_result_words(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
