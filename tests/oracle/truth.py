"""The I/O a tool really did, read from outside it: its system calls under strace (offsets,
lengths, syncs, discards, open flags), the files it left (sizes, which sectors changed,
what the written bytes look like) and, beside them, the totals of its own JSON report."""
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import zlib

# the calls strace records: data, syncs, discards, layout, and the mmap engine's maps
CALLS = ("openat,read,write,lseek,pread64,pwrite64,preadv,pwritev,preadv2,pwritev2,"
         "io_submit,fsync,fdatasync,sync_file_range,msync,mmap,fallocate,ftruncate,ioctl,"
         "unlink,unlinkat")
SECTOR = 512
# pre-made files hold this in every sector, so that a written sector shows without a trace
PATTERN = (b"iojob-oracle-pat" * (SECTOR // 16))
DIRS = ("read", "write", "trim")

LINE = re.compile(r"^(\w+)\((.*)\)\s+=\s+(-?\d+|0x[0-9a-f]+|\?)(?:<([^>]*)>)?")
FD = re.compile(r"^(-?\d+)<([^>]*)>")
IOCB = re.compile(r"aio_lio_opcode=IOCB_CMD_(\w+), aio_fildes=\d+<([^>]*)>(?:.*?"
                  r"aio_nbytes=(\d+), aio_offset=(-?\d+))?")
IOV_LEN = re.compile(r"iov_len=(\d+)")


def have_tools():
    """None when fio 3.33 and strace are here, else why the oracle cannot run."""
    for prog in ("fio", "strace"):
        if not shutil.which(prog):
            return "%s is not installed" % prog
    p = subprocess.run(["fio", "--version"], capture_output=True, text=True)
    if not p.stdout.startswith("fio-3.33"):
        return "fio is %s, not fio-3.33" % p.stdout.strip()
    return None


def split_args(s):
    """The top-level arguments of a call's text (commas inside [] {} "" kept)."""
    out, depth, cur, quoted = [], 0, [], False
    for ch in s:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "[{(":
            depth += 1
        elif not quoted and ch in "]})":
            depth -= 1
        elif not quoted and depth == 0 and ch == ",":
            out.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    out.append("".join(cur).strip())
    return out


class Trace:
    """What one tool's threads did to the files of interest, in each thread's order."""

    def __init__(self):
        self.ios = []           # (tid, path, dir, off, len) in each thread's order
        self.syncs = {}         # call name -> count
        self.opens = {}         # path -> set of flag words seen
        self.falloc = []        # (path, mode, off, len)
        self.truncs = []        # (path, len)
        self.unlinks = []       # names
        self.maps = 0
        self.errors = []        # failed I/O calls, as text

    def add_io(self, tid, path, d, off, n):
        if n > 0:
            self.ios.append((tid, path, d, off, n))


def parse_traces(tdir, wanted):
    """Read strace -ff's files in tdir; wanted(path) -> the name to record or None."""
    t = Trace()
    for name in sorted(os.listdir(tdir)):
        tid = name.rsplit(".", 1)[-1]
        pos = {}
        with open(os.path.join(tdir, name), errors="replace") as f:
            for line in f:
                parse_line(t, tid, pos, line, wanted)
    return t


def parse_line(t, tid, pos, line, wanted):
    m = LINE.match(line)
    if not m:
        return
    call, args, ret, retpath = m.group(1), split_args(m.group(2)), m.group(3), m.group(4)
    rv = int(ret, 0) if ret != "?" else -1
    if call == "openat":
        p = wanted(retpath) if retpath else None
        if p and rv >= 0:
            t.opens.setdefault(p, set()).update(args[2].split("|"))
            pos[rv] = 0
        return
    if call in ("unlink", "unlinkat"):
        if rv == 0:
            t.unlinks.append(args[-2 if call == "unlinkat" else 0].strip('"'))
        return
    if call == "msync":
        t.syncs["msync"] = t.syncs.get("msync", 0) + (rv == 0)
        return
    if call == "io_submit":
        for k, cb in enumerate(re.findall(r"\{aio_data(?:[^{}]|\{[^{}]*\})*\}", args[2])):
            mm = IOCB.search(cb)
            if not mm or k >= rv:
                continue
            p = wanted(mm.group(2))
            op = mm.group(1)
            if not p:
                continue
            if op in ("FSYNC", "FDSYNC"):
                key = "fsync" if op == "FSYNC" else "fdatasync"
                t.syncs[key] = t.syncs.get(key, 0) + 1
            elif mm.group(3):
                d = "read" if op.startswith("PREAD") else "write"
                t.add_io(tid, p, d, int(mm.group(4)), int(mm.group(3)))
        return
    fm = FD.match(args[0]) if args else None
    if not fm:
        return
    fd, p = int(fm.group(1)), wanted(fm.group(2))
    if call == "mmap":
        fm = FD.match(args[4])
        if fm and wanted(fm.group(2)) and rv != -1:
            t.maps += 1
        return
    if not p:
        return
    if rv < 0 and call not in ("fsync", "fdatasync"):
        t.errors.append("%s on %s: %s" % (call, p, line.split("= ", 1)[-1].strip()))
        return
    if call in ("fsync", "fdatasync", "sync_file_range"):
        t.syncs[call] = t.syncs.get(call, 0) + (rv == 0)
    elif call in ("pread64", "pwrite64"):
        t.add_io(tid, p, "read" if call == "pread64" else "write", int(args[3]), rv)
    elif call in ("read", "write"):
        off = pos.get(fd, 0)
        pos[fd] = off + rv
        t.add_io(tid, p, call, off, rv)
    elif call == "lseek":
        pos[fd] = rv
    elif call in ("preadv", "pwritev", "preadv2", "pwritev2"):
        off = int(args[3])
        if off == -1:
            off = pos.get(fd, 0)
            pos[fd] = off + rv
        t.add_io(tid, p, "read" if call.startswith("pread") else "write", off, rv)
    elif call == "fallocate":
        t.falloc.append((p, args[1], int(args[2]), int(args[3])))
        if "PUNCH_HOLE" in args[1]:
            t.add_io(tid, p, "trim", int(args[2]), int(args[3]))
    elif call == "ftruncate":
        t.truncs.append((p, int(args[1])))
    elif call == "ioctl" and args[1] == "BLKDISCARD":
        off, n = (int(x) for x in args[2].strip("[]").split(","))
        t.add_io(tid, p, "trim", off, n)


def make_file(path, size):
    """A fresh file of size bytes, PATTERN in every sector."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    chunk = PATTERN * 128
    with open(path, "wb") as f:
        left = size
        while left > 0:
            f.write(chunk[:min(left, len(chunk))])
            left -= len(chunk)


def file_state(path):
    """Size and what the file's changed sectors look like: the sector map (1 = changed from
    PATTERN) and, over changed 4 KiB blocks, the share of zero blocks, of blocks seen before,
    and how well they compress."""
    if not os.path.exists(path):
        return None
    with open(path, "rb") as f:
        data = f.read()
    sectors = bytearray(1 if data[i:i + SECTOR] != PATTERN[:len(data[i:i + SECTOR])] else 0
                        for i in range(0, len(data), SECTOR))
    blocks = [data[i:i + 4096] for i in range(0, len(data), 4096)
              if any(sectors[i // SECTOR:(i + 4096) // SECTOR])]
    seen, dup, zero = set(), 0, 0
    for b in blocks:
        zero += b.count(0) == len(b)
        dup += b in seen
        seen.add(b)
    n = max(1, len(blocks))
    raw = b"".join(blocks)
    return {"size": len(data), "sectors": bytes(sectors), "blocks": len(blocks),
            "zero": zero / n, "dup": dup / n,
            "compress": len(zlib.compress(raw, 1)) / max(1, len(raw))}


def run_tool(argv, jobtext, workdir, files, env=None, devices=None, timeout=60):
    """Run argv (fio or iojob, with its own options) on jobtext in workdir under strace:
    files are made first (relative name -> size), devices maps a placeholder in jobtext to
    a block device. Returns a dict: rc, stderr, the report (parsed JSON or None), the
    trace, and the state of every file of interest after the run."""
    os.makedirs(workdir, exist_ok=True)
    for name, size in files.items():
        make_file(os.path.join(workdir, name), size)
    for k, dev in (devices or {}).items():
        jobtext = jobtext.replace(k, dev)
    with open(os.path.join(workdir, "job.fio"), "w") as f:
        f.write(jobtext)
    tdir = tempfile.mkdtemp(prefix="tr-", dir=os.path.dirname(workdir))
    # a device is named by its placeholder: the two tools' loop devices differ
    devs = {dev: k for k, dev in (devices or {}).items()}
    root = os.path.realpath(workdir) + "/"

    def wanted(path):
        if path in devs:
            return devs[path]
        if path.startswith(root):
            rel = path[len(root):]
            # the job file, and verify's state files (fio writes them at the end)
            if rel == "job.fio" or rel.startswith(".") or rel.endswith("-verify.state"):
                return None
            return rel
        return None

    cmd = ["strace", "-ff", "-qq", "-y", "-s", "0", "-v", "-e", "signal=none", "-e",
           "trace=" + CALLS, "-o", os.path.join(tdir, "t")] + argv + \
        ["--output-format=json", "job.fio"]
    # a group of its own: past the timeout, strace and the tool it traces end together
    # (killing strace alone leaves the tool running untraced)
    p = subprocess.Popen(cmd, cwd=workdir, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=env, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        # a traced process that left the group (fio's, seen spinning on a posixaio job
        # with openfiles=1) outlives the kill and holds the pipes: each traced pid goes
        # too, named by strace -ff's files, or the wait below would never end
        for name in os.listdir(tdir):
            pid = name.rpartition(".")[2]
            if pid.isdigit():
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except OSError:
                    pass
        p.communicate()
        rc, out, err = -1, "", "timed out after %d s" % timeout
    try:
        trace = parse_traces(tdir, wanted)
    finally:
        shutil.rmtree(tdir, ignore_errors=True)
    report = None
    at = out.find("{")
    if at >= 0:
        try:
            report = json.JSONDecoder().raw_decode(out[at:])[0]
        except ValueError:
            report = None
    names = set(files) | {p for _, p, *_ in trace.ios} | set(trace.opens)
    state = {}
    for n in names:
        state[n] = file_state((devices or {}).get(n) or os.path.join(workdir, n))
    for n in os.listdir(workdir):
        if n != "job.fio" and not n.endswith("-verify.state") and n not in state and os.path.isfile(os.path.join(workdir, n)):
            state[n] = file_state(os.path.join(workdir, n))
    return {"rc": rc, "stderr": err, "report": report, "trace": trace, "files": state}


def report_totals(report):
    """Per direction (ios, bytes) and the sync count over all jobs of a JSON report."""
    tot = {d: [0, 0] for d in DIRS}
    syncs = 0
    for j in (report or {}).get("jobs", []):
        for d in DIRS:
            tot[d][0] += j.get(d, {}).get("total_ios", 0)
            tot[d][1] += j.get(d, {}).get("io_bytes", 0)
        syncs += j.get("sync", {}).get("total_ios", 0)
    return tot, syncs


class LoopDevice:
    """A loop device over a fresh zeroed file in d, detached on exit (with statement)."""

    def __init__(self, d, size):
        self.backing = os.path.join(d, "loop.img")
        self.size = size
        self.dev = None

    def __enter__(self):
        os.makedirs(os.path.dirname(self.backing), exist_ok=True)
        with open(self.backing, "wb") as f:
            f.truncate(self.size)
        p = subprocess.run(["losetup", "-f", "--show", self.backing], capture_output=True,
                           text=True)
        if p.returncode:
            raise OSError("losetup: " + p.stderr.strip())
        self.dev = p.stdout.strip()
        return self.dev

    def __exit__(self, *exc):
        if self.dev:
            subprocess.run(["losetup", "-d", self.dev], capture_output=True)
        os.unlink(self.backing)


def loop_reason():
    """None where loop devices can be attached here, else why not."""
    if os.geteuid() != 0:
        return "loop devices need root"
    if not shutil.which("losetup") or not os.path.exists("/dev/loop-control"):
        return "no losetup or /dev/loop-control"
    return None
