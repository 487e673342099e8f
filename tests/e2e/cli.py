#!/usr/bin/env python3
"""The command line: jobs from options, defaults before the first --name, --set, --section,
stdin, several job files as groups, --output, --parse-only, JSON purity and exit codes."""
import json
import os
import re
import shutil
import struct
import subprocess
import zlib

from common import BIN, Checks, remove, run, scratch_dir, split_normal_json

NULL_JOB = ["--ioengine=null", "--size=4m", "--bs=4k"]


def groups_and_names(doc):
    return [(j["jobname"], j["groupid"]) for j in doc["jobs"]]


def check_basics(c):
    code, out, _ = run(["--version"])
    c.check(code == 0 and re.fullmatch(r"iojob \d+\.\d+\.\d+\n", out) is not None,
            "--version printed %r" % out)
    code, out, _ = run(["--help"])
    c.check(code == 0 and "usage: iojob" in out, "--help: exit %d" % code)
    code, out, err = run([])
    c.check(code == 2 and "no jobs defined" in err, "no arguments: exit %d %r" % (code, err))
    code, _, err = run(["--output-format=xml", "--name=a"] + NULL_JOB)
    c.check(code == 2 and "unknown output format 'xml'" in err, "bad format: %r" % err)


def check_cli_jobs(c):
    code, out, err = run(["--rw=randread"] + NULL_JOB + ["--name=a", "--name=b", "--rw=write",
                          "--output-format=json"])
    c.check(code == 0, "cli jobs: exit %d %s" % (code, err))
    doc = json.loads(out)
    a, b = doc["jobs"]
    c.check(a["jobname"] == "a" and a["read"]["total_ios"] == 1024,
            "defaults before --name: %s" % a["read"]["total_ios"])
    c.check(b["write"]["total_ios"] == 1024 and b["read"]["total_ios"] == 0,
            "a job's own option overrides the default")
    c.check(out.lstrip().startswith("{") and out.rstrip().endswith("}"),
            "JSON output holds nothing but the JSON document")
    code, out, err = run(["--name=a"] + NULL_JOB + ["--iodepth=8", "--output-format=json"])
    c.check("capped" not in err and json.loads(out)["jobs"][0]["iodepth_level"]["8"] > 99,
            "iodepth=8 on null keeps 8 in flight")
    code, out, err = run(["--name=a", "--ioengine=psync", "--iodepth=8", "--size=1m",
                          "--filename=/dev/null", "--output-format=json"])
    c.check("capped at 1" in err and json.loads(out)["jobs"][0]["iodepth_level"]["1"] == 100,
            "psync caps iodepth with a note on stderr: %r" % err)


def check_files_and_sets(c, d):
    with open(os.path.join(d, "one.fio"), "w") as f:
        f.write("[global]\nioengine=null\nsize=8m\n[first]\nrw=read\n[second]\nrw=write\n")
    with open(os.path.join(d, "two.fio"), "w") as f:
        f.write("[third]\nioengine=null\nsize=4m\n")
    code, out, err = run(["--output-format=normal,json", "--set", "bs=8k", "one.fio",
                          "two.fio"], cwd=d)
    c.check(code == 0, "two files: exit %d %s" % (code, err))
    report, doc = split_normal_json(out)
    c.check(groups_and_names(doc) == [("first", 0), ("second", 0), ("third", 1)],
            "each job file starts a group: %s" % groups_and_names(doc))
    c.check(doc["jobs"][0]["read"]["total_ios"] == 1024, "--set bs=8k applies to every job")
    c.check(doc["jobs"][2]["read"]["total_ios"] == 512, "--set reaches the second file too")
    c.check("Overrides (--set): bs=8k" in report, "--set shows in the header")
    code, out, _ = run(["--output-format=json", "--section=second", "one.fio"], cwd=d)
    c.check([j["jobname"] for j in json.loads(out)["jobs"]] == ["second"],
            "--section runs only that job")
    with open(os.path.join(d, "one.fio")) as f:
        text = f.read()
    code, out, err = run(["--output-format=json", "-"], cwd=d, stdin=text)
    c.check(code == 0 and len(json.loads(out)["jobs"]) == 2, "'-' reads stdin: %s" % err)
    code, out, err = run(["--output=rep.txt", "one.fio"], cwd=d)
    c.check(code == 0 and out == "" and "Run status group 0" in
            open(os.path.join(d, "rep.txt")).read(), "--output writes the report to a file")


def check_later_phase_file(c, d):
    """A job may read, without size=, a file that an earlier (stonewalled) job writes."""
    with open(os.path.join(d, "p.fio"), "w") as f:
        f.write("[global]\nfilename=phased.dat\nbs=4k\n[w]\nrw=write\nsize=1m\n"
                "[r]\nstonewall\nrw=read\n")
    code, out, err = run(["--output-format=json", "p.fio"], cwd=d)
    c.check(code == 0, "later phase reads what an earlier one wrote: %d %s" % (code, err))
    if code == 0:
        c.check(json.loads(out)["jobs"][1]["read"]["total_ios"] == 256,
                "the reader sizes the file when its phase starts")


def check_parse_only(c, d):
    with open(os.path.join(d, "w.fio"), "w") as f:
        f.write("[w]\nfilename=created.dat\nsize=1m\nrw=write\n")
    code, _, err = run(["--parse-only", "w.fio"], cwd=d)
    c.check(code == 0 and not os.path.exists(os.path.join(d, "created.dat")),
            "--parse-only creates nothing: %d %s" % (code, err))


def check_job_failure(c, d):
    """A job that fails at run time makes the exit code 1 and names job, file and why."""
    path = os.path.join(d, "locked.dat")
    with open(path, "wb") as f:
        f.write(b"\0" * 65536)
    if subprocess.run(["chattr", "+i", path], capture_output=True).returncode != 0:
        c.skip("chattr +i is not available here: cannot make a file unwritable for root")
        return
    try:
        code, out, err = run(["--name=w", "--filename=locked.dat", "--size=64k", "--rw=write",
                              "--output-format=json"], cwd=d)
        c.check(code == 1, "a failed job exits 1, got %d" % code)
        c.check(re.search(r"job 'w': cannot open 'locked\.dat': Operation not permitted", err)
                is not None, "the failure names job, file and errno: %r" % err)
        c.check(json.loads(out)["jobs"][0]["error"] == 1, "the JSON report carries errno 1")
    finally:
        subprocess.run(["chattr", "-i", path])


def check_options_as_written(c, d):
    """job options echo values as written, as fio does, wherever they were set: the job's
    section, [global], --set or --sweep ("4k", never "4096")."""
    with open(os.path.join(d, "g.fio"), "w") as f:
        f.write("[global]\nbs=4k\nioengine=null\nsize=1m\nrw=randread\n[j]\niodepth=2\n")
    for extra, want in (([], {"bs": "4k", "rw": "randread", "iodepth": "2"}),
                        (["--set", "bs=8k"], {"bs": "8k"}),
                        (["--sweep", "bs=16k"], {"bs": "16k"})):
        code, out, err = run(["--output-format=json"] + extra + ["g.fio"], cwd=d)
        doc = json.loads(out) if code == 0 else {"jobs": [{"job options": {}}]}
        job = doc["jobs"][0]
        # as fio: [global]'s (and --set's) in "global options", the section's own in "job
        # options"; the two overlaid are what ran, and iojob's "options" say it too
        opts = dict(doc.get("global options", {}), **job["job options"])
        ran = job.get("iojob", {}).get("options", {})
        c.check(all(opts.get(k) == v and ran.get(k, v) == v for k, v in want.items()) and
                job["job options"] == {"iodepth": "2"},
                "%s: options %r, ran %r, want %r: %s" % (extra, opts, ran, want, err))


def check_fio_leniency(c, d):
    """Job files fio 3.33 runs, iojob runs, with a note at the line saying what it did
    (issue 31): fio's soft-deprecated options (verifysort, verifysort_nr, flow_watermark:
    fio says "Option N is deprecated" and ignores them; d53e42d refused them as unknown),
    and empty names in a list, which fio skips."""
    with open(os.path.join(d, "dep.fio"), "w") as f:
        f.write("[global]\nverifysort=1\n[j]\nioengine=null\nsize=64k\nverifysort_nr\n"
                "flow_watermark=3\n")
    code, out, err = run(["--output-format=json", "dep.fio"], cwd=d)
    notes = re.findall(r"^iojob: note: dep\.fio:(\d+): job 'j': option '(\w+)': deprecated",
                       err, re.M)
    c.check(code == 0 and json.loads(out)["jobs"][0]["read"]["io_bytes"] == 64 * 1024 and
            sorted(notes) == [("2", "verifysort"), ("6", "verifysort_nr"),
                              ("7", "flow_watermark")],
            "deprecated options run with a note at their lines: exit %d %r" % (code, err))
    # filename=a::b: files a and b (d53e42d: "has an empty name", exit 2)
    code, out, err = run(["--name=e", "--ioengine=psync", "--rw=write", "--size=64k",
                          "--filename=ea::eb:", "--output-format=json"], cwd=d)
    c.check(code == 0 and "empty names between ':' are skipped" in err and
            os.path.getsize(os.path.join(d, "ea")) == 32 * 1024 and
            os.path.getsize(os.path.join(d, "eb")) == 32 * 1024,
            "filename=ea::eb: two files with a note: exit %d %r" % (code, err))
    # filesize=64k-8k/8M-64k: fio's reading, the first value and the last (64k to 64k),
    # each a number and its unit; d53e42d: "not a size or a range", exit 2
    with open(os.path.join(d, "fs.fio"), "w") as f:
        f.write("[j]\nioengine=psync\nrw=write\nnrfiles=3\nfilesize=64k-8k/8M-64k\n")
    code, out, err = run(["fs.fio"], cwd=d)
    sizes = [os.path.getsize(os.path.join(d, "j.0.%d" % i)) for i in range(3)
             if os.path.exists(os.path.join(d, "j.0.%d" % i))]
    c.check(code == 0 and sizes == [65536] * 3 and re.search(
        r"^iojob: note: fs\.fio:5: option 'filesize': '64k-8k/8M-64k' is read as "
        r"'65536-65536', as fio reads it", err, re.M),
        "filesize as fio reads it: three files of 64k, a note: exit %d %s %r" %
        (code, sizes, err))


# "opt=" with nothing after '=': fio 3.33 fails to parse the first kind ("failed parsing
# bs=", the job dropped) and takes the second (a log's prefix is then the job's name).
EMPTY_REFUSED = ["bs", "direct", "name", "rate", "time_based", "filename_format",
                 "exec_prerun", "norandommap", "verify_fatal", "rate_iops"]
EMPTY_TAKEN = ["write_bw_log", "write_lat_log", "bssplit", "ignore_error"]


def check_empty_values(c, d):
    """Empty values after '=', in a job file and on the command line, as fio parses them."""
    fio = shutil.which("fio")
    fio_ok = fio and subprocess.run([fio, "--version"], capture_output=True,
                                    text=True).stdout.strip() == "fio-3.33"
    for opt in EMPTY_REFUSED + EMPTY_TAKEN:
        path = os.path.join(d, "empty.fio")
        with open(path, "w") as f:
            f.write("[e]\nioengine=psync\nrw=write\nsize=64k\nfilename=empty.dat\n"
                    "%s=\n" % opt)
        remove(os.path.join(d, "empty.dat"))
        code, _, err = run(["--output=/dev/null", "empty.fio"], cwd=d)
        code2, _, err2 = run(["--name=e", "--ioengine=null", "--size=64k", "--%s=" % opt,
                              "--output=/dev/null"], cwd=d)
        if opt in EMPTY_REFUSED:
            c.check(code == 2 and "empty.fio:6: option '%s' has an empty value" % opt in err
                    and not os.path.exists(os.path.join(d, "empty.dat")),
                    "%s= refused at its line, nothing written: %d %r" % (opt, code, err))
            c.check(code2 == 2 and "option '%s' has an empty value" % opt in err2,
                    "--%s= refused: %d %r" % (opt, code2, err2))
        else:
            c.check(code == 0 and code2 == 0, "%s= taken as fio takes it: %d %d %r %r" %
                    (opt, code, code2, err, err2))
        if fio_ok:
            p = subprocess.run([fio, "--parse-only", "empty.fio"], cwd=d,
                               capture_output=True, text=True)
            c.check((p.returncode != 0) == (opt in EMPTY_REFUSED),
                    "fio 3.33 on %s=: exit %d" % (opt, p.returncode))
    code, _, err = run(["--output=/dev/null", "--name=e", "--ioengine=null", "--size=64k",
                        "--write_bw_log="], cwd=d)
    c.check(code == 0 and os.path.exists(os.path.join(d, "e_bw.1.log")),
            "write_bw_log=: the job's name as prefix, as fio's: %d %r" % (code, err))


def check_getopt_grammar(c):
    """fio's getopt: --KEY VALUE as well as --KEY=VALUE; a set-only option (time_based)
    never takes the next argument; a boolean takes it when it is a boolean word."""
    code, out, err = run(["--name", "a", "--ioengine", "null", "--size", "4m", "--bs", "8k",
                          "--rw", "randread", "--direct", "1", "--output-format", "json"])
    job = json.loads(out)["jobs"][0] if code == 0 else {}
    c.check(code == 0 and job.get("jobname") == "a" and job["read"]["total_ios"] == 512
            and job["job options"].get("direct") == "1",
            "--KEY VALUE sets every option: %d %s" % (code, err))
    code, out, err = run(["--name=a", "--group_reporting", "--time_based", "--runtime=1",
                          "--direct", "--thread", "--output-format=json"] + NULL_JOB)
    opts = json.loads(out)["jobs"][0]["job options"] if code == 0 else {}
    # the next argument was not taken (runtime is set), and bare flags are left out of
    # "job options", as fio leaves them
    c.check(code == 0 and opts.get("runtime") == "1" and "time_based" not in opts and
            "direct" not in opts and "thread" not in opts,
            "set-only options and a bare boolean stand alone: %d %s %s" % (code, opts, err))
    # cdmpy's command line: posixaio is the value of --ioengine, not a job file
    code, out, err = run(["--ioengine", "posixaio", "--max-jobs=1", "--output-format", "json",
                          "--name=a", "--size=4m", "--filename=/dev/zero"])
    doc = json.loads(out) if code == 0 else {}
    c.check(code == 0 and doc["global options"].get("ioengine") == "posixaio"
            and doc["jobs"][0]["read"]["total_ios"] == 1024 and err == "",
            "--ioengine VALUE names the engine: %d %r" % (code, err))
    words = run(["--complete-options"])[1].splitlines()
    c.check("--bs=\tseparate" in words and "--time_based=" in words and "--direct=" in words,
            "completion completes --bs VALUE, not --time_based VALUE")
    code, _, err = run(["--name=a", "--ioengine=null", "--bs"])
    c.check(code == 2 and "--bs needs a value" in err, "a value missing at the end: %r" % err)
    code, _, err = run(["--name=a", "--ioengine=null", "--time_based", "4m"])
    c.check(code == 2 and "4m" in err and "No such file" in err,
            "--time_based leaves the next argument: %r" % err)


def check_float_numbers(c):
    """Numbers written as floats, as wrappers write them: fractions truncated as by fio."""
    code, out, err = run(["--name=a", "--ioengine=null", "--size=4194304.0", "--bs=4096.0",
                          "--rw=randrw", "--rwmixread=70.0", "--iodepth=4.0", "--numjobs=2.0",
                          "--output-format=json"])
    jobs = json.loads(out)["jobs"] if code == 0 else []
    c.check(code == 0 and len(jobs) == 2, "float numbers accepted: %d %s" % (code, err))
    if jobs:
        done = jobs[0]["read"]["total_ios"] + jobs[0]["write"]["total_ios"]
        c.check(done == 1024, "size=4194304.0 bs=4096.0: %d I/Os" % done)
        c.check(0.6 < jobs[0]["read"]["total_ios"] / done < 0.8, "rwmixread=70.0 mixes 70%")
    code, out, err = run(["--name=a", "--ioengine=null", "--size=8k", "--bs=4096.9",
                          "--output-format=json"])
    c.check(code == 0 and json.loads(out)["jobs"][0]["read"]["total_ios"] == 2,
            "bs=4096.9 is 4096 bytes: %d %s" % (code, err))
    code, out, err = run(["--name=a", "--numjobs=2", "--group_reporting=1.0",
                          "--output-format=json"] + NULL_JOB)
    c.check(code == 0 and len(json.loads(out)["jobs"]) == 1,
            "a boolean written 1.0 is true: %d %s" % (code, err))
    for bad in ("--rwmixread=7x", "--direct=2.0", "--size=1.5b", "--iodepth=1e3", "--bs=4..0"):
        code, _, err = run(["--name=a", "--ioengine=null", "--size=4m", bad])
        c.check(code == 2 and bad.split("=")[0][2:] in err, "%s refused: %r" % (bad, err))


def check_fio_switches(c, d):
    """fio's other switches: those that apply to local I/O do what fio's do; the client and
    server ones are refused with one line naming iojob-mpi."""
    with open(os.path.join(d, "s.fio"), "w") as f:
        f.write("[global]\nrw=randread\nsize=1m\n[j1]\nbs=8k\n[j2]\nnumjobs=2\n")
    with open(os.path.join(d, "t.fio"), "w") as f:
        f.write("[a]\nsize=1m\ntime_based\n")
    code, out, err = run(["--showcmd", "s.fio", "t.fio"], cwd=d)   # fio 3.33's lines
    c.check(code == 0 and out == "fio --rw=randread --size=1m --name=j1 --bs=8k --name=j2 "
            "--numjobs=2 \nfio --name=a --size=1m --time_based \n",
            "--showcmd prints each file as fio does: %d %r %s" % (code, out, err))
    # --max-jobs: fio 3.33 takes it and caps nothing; the value is still checked
    code, out, _ = run(["--max-jobs", "1"] + NULL_JOB + ["--name=a", "--name=b",
                                                          "--output-format=json"])
    c.check(code == 0 and len(json.loads(out)["jobs"]) == 2, "--max-jobs 1 runs both jobs")
    code, _, err = run(["--max-jobs=x", "--name=a"] + NULL_JOB)
    c.check(code == 2 and "--max-jobs" in err, "--max-jobs=x refused: %r" % err)
    # --append-terse adds terse to the formats so far; a later --output-format replaces it
    code, out, _ = run(["--append-terse", "--name=a"] + NULL_JOB)
    c.check(code == 0 and re.search(r"^3;iojob-", out, re.M) and "Run status group" in out,
            "--append-terse: terse and the normal report")
    code, out, _ = run(["--append-terse", "--output-format=json", "--name=a"] + NULL_JOB)
    c.check(code == 0 and not re.search(r"^3;", out, re.M), "--output-format after it wins")
    # --warnings-fatal: a note stops the run before it starts
    psync = ["--name=a", "--ioengine=psync", "--iodepth=4", "--filename=/dev/null",
             "--size=64k", "--output-format=terse"]
    code, out, err = run(["--warnings-fatal"] + psync)
    c.check(code == 2 and out == "" and "capped at 1" in err and "--warnings-fatal" in err,
            "--warnings-fatal makes the iodepth note an error: %d %r" % (code, err))
    code, out, err = run(["--warnings-fatal", "--name=a", "--output-format=terse"] + NULL_JOB)
    c.check(code == 0 and out.startswith("3;"), "--warnings-fatal without notes runs")
    code, out, err = run(["--crctest=md5,crc32c"])
    lines = out.splitlines()
    c.check(code == 0 and [ln.split(":")[0] for ln in lines] == ["crc32c", "md5"] and
            all(re.fullmatch(r"\w+:\t\t *\d+\.\d\d MiB/sec", ln) for ln in lines),
            "--crctest times the checksums asked for: %r" % out)
    code, out, _ = run(["--crctest=crc7,sha3-512"])
    c.check(code == 0 and re.findall(r"^(\S+):\s+[0-9.]+ MiB/sec$", out, re.M) ==
            ["crc7", "sha3-512"], "--crctest times every verify method: %r" % out)
    code, _, err = run(["--crctest=murmur3"])
    c.check(code == 2 and "unknown checksum 'murmur3'" in err and "sha3-512" in err,
            "--crctest=murmur3 (fio's, no verify method) names iojob's: %r" % err)
    code, _, err = run(["--debug=io,file", "--name=a", "--output-format=terse"] + NULL_JOB)
    c.check(code == 0 and "no debug log" in err, "--debug=io,file: a note: %r" % err)
    code, _, err = run(["--debug=bogus", "--name=a"] + NULL_JOB)
    c.check(code == 2 and "'bogus'" in err, "--debug=bogus refused: %r" % err)
    code, out, _ = run(["--debug=?"])
    c.check(code == 0 and "helperthread" in out.split(","), "--debug=? lists the categories")
    code, _, err = run(["--aux-path", d, "--alloc-size", "32768", "--name=a"] + NULL_JOB)
    c.check(code == 0, "--aux-path DIR --alloc-size KB accepted: %r" % err)
    code, _, err = run(["--aux-path=/nonexistent", "--name=a"] + NULL_JOB)
    c.check(code == 2 and "not a directory" in err, "--aux-path checks DIR: %r" % err)
    for sw, word in (("--server", "iojob-mpi"), ("--client=host", "iojob-mpi"),
                     ("--daemonize=p", "iojob-mpi"), ("--remote-config=f", "iojob-mpi"),
                     ("--client", "iojob-mpi"), ("--trigger-remote=cmd", "iojob-mpi"),
                     ("--latency-log=x", "write_lat_log"),
                     ("--cpuclock-test", "Clock:"), ("--memcpytest", "--crctest"),
                     ("--profile=act", "job file")):
        code, out, err = run([sw, "--name=a"] + NULL_JOB)
        c.check(code == 2 and out == "" and len(err.splitlines()) == 1 and word in err,
                "%s refused in one line naming %s: %d %r" % (sw, word, code, err))



def check_short_switches(c, d):
    """fio's one-letter switches (getopt_long_only): -o FILE or -oFILE, -F, -m, -x, -s, -P,
    -r, -v, -c, -i, -G, ...: each does what its long form does; a refused one is refused."""
    with open(os.path.join(d, "two.fio"), "w") as f:
        f.write("[a]\nioengine=null\nsize=64k\n[b]\nioengine=null\nsize=128k\n")
    for args, want in ((["-o", "s1.out", "-F", "json"], "json"), (["-os2.out", "-Fjson"], "json"),
                       (["-o", "s3.out", "-m"], "terse"), (["-os4.out", "-x", "b", "-m"], "b")):
        out_file = args[0][2:] or args[1]
        code, out, err = run(args + ["two.fio"], cwd=d)
        with open(os.path.join(d, out_file)) as f:
            text = f.read()
        ok = {"json": lambda t: json.loads(t)["jobs"][1]["jobname"] == "b",
              "terse": lambda t: [l.split(";")[2] for l in t.splitlines()] == ["a", "b"],
              "b": lambda t: [l.split(";")[2] for l in t.splitlines()] == ["b"]}[want]
        c.check(code == 0 and out == "" and ok(text),
                "%s: as the long forms: %d %r %r" % (" ".join(args), code, err, text[:80]))
    for short, long in ((["-s"], ["--showcmd"]), (["-P"], ["--parse-only"]),
                        (["-v"], ["--version"]), (["-cbs"], ["--cmdhelp=bs"]),
                        (["-inull"], ["--enghelp=null"]), (["-Gmd5"], ["--crctest=md5"]),
                        (["-r", "-m"], ["--readonly", "--minimal"])):
        got = run(short + ["two.fio"], cwd=d)
        want = run(long + ["two.fio"], cwd=d)
        # timed output (the checksum's speed, a run's figures) compared by its first field
        shape = [ln.split(":")[0].split(";")[:3] for ln in got[1].splitlines()]
        c.check(got[0] == want[0] == 0 and got[2] == want[2] and
                shape == [ln.split(":")[0].split(";")[:3] for ln in want[1].splitlines()],
                "%s does what %s does: %s %s" % (" ".join(short), " ".join(long),
                                                  got[2], want[2]))
    code, out, err = run(["-I", "bogus", "two.fio"], cwd=d)
    c.check(code == 2 and "--idle-prof takes system, percpu or calibrate, not 'bogus'" in err,
            "-I bogus is --idle-prof=bogus: %d %r" % (code, err))
    # a job option written with one dash stays a job option (-direct=1 is not -d irect=1)
    code, out, err = run(["-name=a", "-ioengine=null", "-size=64k", "-direct=1",
                          "-output-format=json"], cwd=d)
    c.check(code == 0 and json.loads(out)["jobs"][0]["job options"].get("direct") == "1",
            "-direct=1 with one dash: the job option: %d %r" % (code, err))


IDLE_LINE = {"system": r"  system: \d+\.\d\d%", "percpu": r"  percpu: [\d.]+%(, [\d.]+%)*",
             "unit": r"  unit work: mean=\d+\.\d\dus, stddev=\d+\.\d\d"}


def check_idle_prof(c, d):
    """--idle-prof as fio's: cpu_idleness in JSON (system, cpu-N with percpu, unit_mean,
    unit_stddev, after disk_util), fio's "CPU idleness:" block at the end of the normal
    report, calibrate alone printing the unit of work and running no job. The figures are
    the machine's; only their form and sign are checked here (tests/bench compares them with
    fio's)."""
    ncpus = os.sysconf("SC_NPROCESSORS_CONF")
    job = ["--name=i", "--ioengine=null", "--size=1m"]
    for mode, cpus in (("system", []), ("percpu", ["cpu-%d" % i for i in range(ncpus)])):
        code, out, err = run(["--idle-prof=" + mode, "--output-format=json"] + job, cwd=d)
        doc = json.loads(out) if code == 0 else {}
        idle = doc.get("cpu_idleness", {})
        c.check(code == 0 and list(idle) == ["system"] + cpus + ["unit_mean", "unit_stddev"]
                and all(isinstance(v, float) and v >= 0 for v in idle.values()) and
                idle["unit_mean"] > 0 and list(doc).index("cpu_idleness") ==
                list(doc).index("jobs") + 1,
                "--idle-prof=%s: fio's cpu_idleness keys: %d %s %r" % (mode, code, idle, err))
        code, out, err = run(["--idle-prof=" + mode] + job, cwd=d)
        want = ["", "CPU idleness:", IDLE_LINE["system"]] + \
            ([IDLE_LINE["percpu"]] if cpus else []) + [IDLE_LINE["unit"]]
        tail = out.splitlines()[-len(want):]
        c.check(code == 0 and len(tail) == len(want) and
                all(re.fullmatch(w, t) for w, t in zip(want, tail)) and
                (not cpus or tail[3].count("%") == ncpus),
                "--idle-prof=%s: the normal report ends with fio's block: %r" % (mode, tail))
    code, out, err = run(["--idle-prof=calibrate"] + job + ["--filename=cal.dat"], cwd=d)
    c.check(code == 0 and re.fullmatch("CPU idleness:\n" + IDLE_LINE["unit"] + "\n", out) and
            not os.path.exists(os.path.join(d, "cal.dat")),
            "--idle-prof=calibrate: the unit of work alone, no job run: %d %r" % (code, out))
    fio = shutil.which("fio")
    if fio and subprocess.run([fio, "--version"], capture_output=True,
                              text=True).stdout.strip() == "fio-3.33":
        p = subprocess.run([fio, "--idle-prof=percpu", "--output-format=json"] + job, cwd=d,
                           capture_output=True, text=True)
        theirs = list(json.loads(p.stdout).get("cpu_idleness", {})) if not p.returncode \
            else None
        code, out, _ = run(["--idle-prof=percpu", "--output-format=json"] + job, cwd=d)
        c.check(theirs and list(json.loads(out)["cpu_idleness"]) == theirs,
                "fio 3.33's cpu_idleness keys: %s" % theirs)


def check_bandwidth_log(c, d):
    """--bandwidth-log (-b): the jobs' bandwidth together per direction in fio's three
    agg-*_bw.log files, fio's lines (msec, KiB/s, direction, 0, 0), one per bwavgtime
    window; written whether a status line shows or not (fio 3.33 fills them only while it
    computes its status line, so without a terminal it leaves them empty)."""
    for name in ("agg-read_bw.log", "agg-write_bw.log", "agg-trim_bw.log"):
        remove(os.path.join(d, name))
    code, out, err = run(["-b", "--name=b", "--ioengine=null", "--size=64m", "--rw=read",
                          "--numjobs=2", "--runtime=1.2", "--time_based", "--rate_iops=500",
                          "--bwavgtime=200", "--output=/dev/null"], cwd=d)
    rows = {}
    for k, name in enumerate(("agg-read_bw.log", "agg-write_bw.log", "agg-trim_bw.log")):
        path = os.path.join(d, name)
        rows[k] = [[int(x) for x in ln.split(", ")] for ln in open(path)] \
            if os.path.exists(path) else None
    c.check(code == 0 and all(r is not None for r in rows.values()),
            "-b: three files: %d %r" % (code, err))
    if code or any(r is None for r in rows.values()):
        return
    reads = rows[0]
    c.check(reads and all(len(r) == 5 and r[2] == 0 and r[3:] == [0, 0] for r in reads) and
            [r[0] for r in reads] == sorted(r[0] for r in reads) and
            any(r[1] > 0 for r in reads),
            "agg-read_bw.log: fio's lines, in time order, the reads' bandwidth: %s" % reads)
    c.check(all(r[2] == k and r[1] == 0 for k in (1, 2) for r in rows[k]) and
            len(rows[1]) == len(rows[2]) == len(reads),
            "a read job: the write and trim logs say 0 at each sample: %s" % rows[1])
    c.check(all(b[0] - a[0] >= 200 for a, b in zip(reads, reads[1:])),
            "bwavgtime=200: samples at least 200 ms apart: %s" % [r[0] for r in reads])


def check_trigger(c, d):
    """fio's local trigger: the file (removed when seen) or the timeout stops every job,
    which is reported as run (exit 0), and runs the --trigger command."""
    forever = ["--name=a", "--ioengine=null", "--size=1m", "--time_based", "--runtime=1h",
               "--output-format=json"]
    trig, mark = os.path.join(d, "trig"), os.path.join(d, "fired")
    open(trig, "w").close()
    code, out, err = run(["--trigger-file", trig, "--trigger", "echo x > " + mark] + forever,
                         timeout=60)
    c.check(code == 0 and json.loads(out)["jobs"][0]["error"] == 0 and os.path.exists(mark)
            and not os.path.exists(trig),
            "--trigger-file stops the jobs, runs --trigger, removes the file: %d %s" %
            (code, err))
    code, out, err = run(["--trigger-timeout=1"] + forever, timeout=60)
    c.check(code == 0 and json.loads(out)["jobs"][0]["job_runtime"] < 60000,
            "--trigger-timeout=1 stops an hour's job: %d %s" % (code, err))
    code, _, err = run(["--trigger-timeout=soon", "--name=a"] + NULL_JOB)
    c.check(code == 2 and "--trigger-timeout" in err, "--trigger-timeout=soon: %r" % err)


def write_fio_log(path, samples):
    """A log as fio 3.33 stores it compressed: binary samples (time, value, ddir with the
    offset bit, priority, bs, offset), each zlib stream one chunk."""
    with open(path, "wb") as f:
        for chunk in samples:
            raw = b"".join(struct.pack("<QQIHxxQQ", t, v, ddir | 0x80000000, prio, bs, off)
                           for t, v, ddir, prio, bs, off in chunk)
            f.write(zlib.compress(raw))


def check_inflate_log(c, d):
    path = os.path.join(d, "x_clat.1.log.fz")
    write_fio_log(path, [[(2, 1270352, 0, 0, 4096, 12288), (6, 3657, 1, 0, 8192, 0)],
                         [(9, 55, 0, 1 << 13, 4096, 4096)]])
    code, out, err = run(["--inflate-log", path])
    c.check(code == 0 and out == "2, 1270352, 0, 4096, 12288, 0\n6, 3657, 1, 8192, 0, 0\n"
            "9, 55, 0, 4096, 4096, 1\n", "--inflate-log prints fio's lines: %r %s" % (out, err))
    with open(path, "wb") as f:
        f.write(b"not zlib")
    code, out, err = run(["--inflate-log=" + path])
    c.check(code == 2 and "not a log fio compressed" in err, "--inflate-log junk: %r" % err)


def check_create_only_and_allrandrepeat(c, d):
    path = os.path.join(d, "co.dat")
    code, out, err = run(["--name=prep", "--filename=" + path, "--size=1m", "--create_only=1",
                          "--output-format=json"])
    job = json.loads(out)["jobs"][0] if code == 0 else {}
    c.check(code == 0 and os.path.getsize(path) == 1 << 20 and
            job["read"]["total_ios"] == 0, "create_only lays the file out, no I/O: %s" % err)
    offsets = []
    for rep in ("1", "1", "0"):
        code, _, err = run(["--name=a", "--filename=" + path, "--size=1m", "--rw=randread",
                            "--allrandrepeat=" + rep, "--write_lat_log=rr", "--log_offset=1",
                            "--output=/dev/null"], cwd=d)
        with open(os.path.join(d, "rr_lat.1.log")) as f:
            offsets.append([ln.split(", ")[4] for ln in f])
    c.check(offsets[0] == offsets[1] and len(offsets[0]) == 256, "allrandrepeat=1 repeats")
    c.check(offsets[0] != offsets[2], "allrandrepeat=0 draws new offsets")
    # randrepeat=0 draws a new seed each run, unless randseed= is set: then it repeats, as
    # fio's HOWTO says and fio 3.33 does (issue 28); in a job file's [global] too
    seeded = []
    for extra in (["--randseed=1234"], ["--randseed=1234"], [], []):
        code, _, err = run(["--name=s", "--ioengine=null", "--size=1m", "--rw=randread",
                            "--randrepeat=0", "--write_iolog=s.log", "--output=/dev/null"] +
                           extra, cwd=d)
        with open(os.path.join(d, "s.log")) as f:
            seeded.append([ln.split()[3] for ln in f if " read " in ln])
        os.unlink(os.path.join(d, "s.log"))
    c.check(seeded[0] == seeded[1] and len(seeded[0]) == 256,
            "randrepeat=0 with randseed= repeats the offsets")
    c.check(seeded[2] != seeded[3], "randrepeat=0 without randseed= draws new offsets each run")


def main():
    c = Checks("cli")
    check_basics(c)
    check_cli_jobs(c)
    check_getopt_grammar(c)
    check_float_numbers(c)
    d = scratch_dir()
    try:
        check_files_and_sets(c, d)
        check_parse_only(c, d)
        check_later_phase_file(c, d)
        check_job_failure(c, d)
        check_options_as_written(c, d)
        check_fio_leniency(c, d)
        check_empty_values(c, d)
        check_fio_switches(c, d)
        check_short_switches(c, d)
        check_idle_prof(c, d)
        check_bandwidth_log(c, d)
        check_inflate_log(c, d)
        check_trigger(c, d)
        check_create_only_and_allrandrepeat(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
