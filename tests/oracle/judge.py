"""Facts drawn from a tool's truth, and how two tools' facts are compared: exactly where the
options make them deterministic, by a chi-square test (ALPHA) where sizes, offsets or the
read/write split are drawn at random, and each tool's own report against its truth."""
import math
import re
from collections import Counter

from truth import DIRS, report_totals

ALPHA = 1e-4            # significance of every chi-square test
MIN_SAMPLES = 20        # below this many I/Os a side, no test is made
CAP_SAMPLES = 4000       # above this many a side, counts are scaled down to it
SHAPE_TOL = 0.12        # buffer content shares (zero, dedupe, compression) compared to this


def gamma_q(a, x):
    """The regularized upper incomplete gamma function Q(a, x) (Numerical Recipes' method)."""
    if x <= 0:
        return 1.0
    lg = math.lgamma(a)
    if x < a + 1:
        s, term, n = 1.0 / a, 1.0 / a, a
        for _ in range(500):
            n += 1
            term *= x / n
            s += term
            if abs(term) < abs(s) * 1e-14:
                break
        return max(0.0, 1.0 - s * math.exp(-x + a * math.log(x) - lg))
    b, c, d = x + 1 - a, 1e300, 1 / (x + 1 - a)
    h = d
    for i in range(1, 500):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-14:
            break
    return math.exp(-x + a * math.log(x) - lg) * h


def chi2_same(a, b):
    """p-value that count maps a and b come from one distribution (chi-square test of
    homogeneity); None when either side has too few samples."""
    na, nb = sum(a.values()), sum(b.values())
    if na < MIN_SAMPLES or nb < MIN_SAMPLES:
        return None
    # at most CAP_SAMPLES a side, scaled: a timed run's count is the clock's, and the
    # test's power with it; capped, a faster machine does not turn a small gap into a fail
    if na > CAP_SAMPLES or nb > CAP_SAMPLES:
        a = {k: v * min(1.0, CAP_SAMPLES / na) for k, v in a.items()}
        b = {k: v * min(1.0, CAP_SAMPLES / nb) for k, v in b.items()}
        na, nb = sum(a.values()), sum(b.values())
    keys = [k for k in set(a) | set(b) if a.get(k, 0) + b.get(k, 0) > 0]
    if len(keys) < 2:
        return 1.0
    stat = 0.0
    for k in keys:
        tot = a.get(k, 0) + b.get(k, 0)
        for x, n in ((a.get(k, 0), na), (b.get(k, 0), nb)):
            e = tot * n / (na + nb)
            stat += (x - e) ** 2 / e
    return gamma_q((len(keys) - 1) / 2, stat / 2)


def covered(spans):
    """Bytes in the union of (off, len) spans."""
    tot, end = 0, -1
    for off, n in sorted(spans):
        if off + n > end:
            tot += off + n - max(off, end)
            end = off + n
    return tot


def facts(run, o, engine):
    """The facts of one tool's run: a dict of name -> value."""
    t = run["trace"]
    f = {}
    blind = engine in ("io_uring", "mmap")     # their data moves where strace cannot see
    ios = [x for x in t.ios if not (blind and x[2] != "trim")]
    if o["rw"] in ("trim", "randtrim", "trimwrite"):
        # a trim job reads nothing: reads of the device are iojob's signature probe
        ios = [x for x in ios if x[2] != "read"]
    if blind:
        tot, _ = report_totals(run["report"])
        for d in ("read", "write"):
            f["ios." + d], f["bytes." + d] = tot[d]
    for d in DIRS:
        mine = [x for x in ios if x[2] == d]
        if not (blind and d != "trim"):
            f["ios." + d] = len(mine)
            f["bytes." + d] = sum(x[4] for x in mine)
        sizes = Counter(x[4] for x in mine)
        if len(sizes) > 16:     # bs_unaligned's sizes, in 1 KiB classes for the test
            sizes = Counter(x[4] // 1024 * 1024 for x in mine)
        f["bs." + d] = sizes
        f["misaligned." + d] = sum(1 for x in mine if x[3] % 512)
    f["ios.total"] = sum(f["ios." + d] for d in DIRS)
    f["bytes.total"] = sum(f["bytes." + d] for d in DIRS)
    per_file = {}
    for _, p, d, off, n in ios:
        per_file.setdefault(p, []).append((off, n))
    for p, spans in per_file.items():
        c = covered(spans)
        f["covered." + p] = c
        f["overlap." + p] = sum(n for _, n in spans) - c
    f["files.share"] = Counter({p: len(s) for p, s in per_file.items()})
    if blind:
        for p, st in run["files"].items():
            if st and st["sectors"] and p in t.opens:
                f["written_sectors." + p] = sum(st["sectors"])
    seqs = {}
    for tid, p, d, off, n in ios:
        seqs.setdefault((tid, p, d), []).append(off)
    f["order"] = sorted((p, d, tuple(s)) for (_, p, d), s in seqs.items())
    runs = {}
    for tid, p, d, off, n in ios:
        r = runs.setdefault(tid, [])
        if not r or r[-1] != d[0]:
            r.append(d[0])
    f["dir_runs"] = sorted("".join(r) for r in runs.values())
    for d in ("read", "write"):
        hits = Counter((p, off) for _, p, dd, off, n in ios if dd == d)
        # how often the blocks were hit: 1, 2, 3, 4-7, 8 or more times
        f["popularity." + d] = Counter(h if h <= 3 else (4 if h < 8 else 5) for h in hits.values())
        shape = Counter()
        for _, p, dd, off, n in ios:
            st = run["files"].get(p)
            if dd == d and st and st["size"]:
                shape[min(9, off * 10 // st["size"])] += 1
        f["offsets." + d] = shape
    for k in ("fsync", "fdatasync", "sync_file_range", "msync"):
        f["sync." + k] = t.syncs.get(k, 0)
    f["open_flags"] = sorted((p, tuple(sorted(x for x in fl if x in (
        "O_DIRECT", "O_SYNC", "O_DSYNC")))) for p, fl in t.opens.items())
    f["files.touched"] = sorted(per_file) if not blind else sorted(t.opens)
    f["files.final"] = sorted((p, st["size"] if st else None) for p, st in run["files"].items()
                              if not p.startswith("/dev/"))
    f["fallocate"] = sorted(set((p, mode) for p, mode, _, _ in t.falloc))
    f["ftruncate"] = sorted(set(t.truncs))
    f["unlinked"] = sorted(set(t.unlinks))
    written = [st for p, st in run["files"].items() if st and st["blocks"]]
    if written:
        f["content.blocks"] = sum(st["blocks"] for st in written)
        for k in ("zero", "dup", "compress"):
            f["content." + k] = sum(st[k] * st["blocks"] for st in written) / \
                f["content.blocks"]
    return f


def self_check(run, f, o, engine):
    """Where a tool's own JSON report disagrees with what strace saw it do."""
    if engine in ("io_uring", "mmap") or not run["report"] or "ramp_time" in o or \
            "pre_read" in o:
        return []   # (ramp_time's I/O and pre_read's are done and left out of the report)
    tot, syncs = report_totals(run["report"])
    out = []
    for d in DIRS:
        for i, k in enumerate(("ios", "bytes")):
            if tot[d][i] != f["%s.%s" % (k, d)]:
                out.append(("report.%s.%s" % (k, d), tot[d][i], f["%s.%s" % (k, d)]))
    return out


class Plan:
    """Which facts a job's options make exact, which are drawn at random (tested), and
    which are not compared (speed decides them)."""

    def __init__(self, o, fams, feats):
        self.timed = bool(fams & {"time", "ramp", "rate", "think"})
        self.mixed = o["rw"] in ("rw", "randrw")
        self.random_sizes = bool(fams & {"bs"}) and ("bsrange" in o or "bssplit" in o)
        dirs_bs = o.get("bs", "4k").split(",")
        self.one_size = not self.random_sizes and len(set(dirs_bs)) == 1
        # bs_unaligned under the map: a pass ends when the map is full, its bytes the sum
        # of the sizes drawn (each I/O rounded up to whole blocks in the map)
        self.unaligned = o.get("bs_unaligned") in ("1", "true") and self.random_sizes
        # number_ios of drawn sizes: the bytes, and what they cover, are the draws' sums
        self.drawn_bytes = self.unaligned or (self.random_sizes and "number_ios" in o)
        # fio (and iojob) seed their generators again at each loop (randrepeat=1, no
        # randseed): loops=N repeats one loop's draws N times, and a time_based job over
        # several files in sequence repeats one round's, so their counts are one draw's
        repeat = o.get("randrepeat", "1") not in ("0", "false") and "randseed" not in o
        self.repeats = int(o.get("loops", "1")) if repeat and \
            not fams & {"time", "ramp"} else 1
        unit = {"k": 1 << 10, "m": 1 << 20}
        if repeat and "io_size" in o and not fams & {"time", "ramp"} and \
                o["io_size"][-1] in unit:
            # io_size past size: each pass over the file is a loop of its own (iojob's
            # sequential passes draw on, its random ones repeat)
            io = int(o["io_size"][:-1]) * unit[o["io_size"][-1]]
            self.repeats *= max(1, io // (int(o["size"][:-1]) * unit[o["size"][-1]]))
        self.one_round = repeat and "time" in fams and not o["rw"].startswith("rand") and (
            int(o.get("nrfiles", "1")) > 1 or ":" in o.get("filename", ""))
        # a time_based job of fio 3.33 runs its loop again each size= (or io_size=) of
        # bytes, seeded again: its drawn sizes are one round's, repeated (iojob draws on)
        self.round = None
        if repeat and "time" in fams and o.get("io_size", o["size"])[-1] in unit:
            v = o.get("io_size", o["size"])
            self.round = int(v[:-1]) * unit[v[-1]]
        self.rand = o["rw"].startswith("rand")
        # io_uring's syncs between loops go through the ring, where strace cannot see
        # them (fio syncs with fsync(2) as it closes the files between loops)
        self.ring_syncs = o.get("ioengine") == "io_uring" and int(o.get("loops", "1")) > 1
        self.dist = o.get("random_distribution", "random").split(":")[0]
        # fio's random map holds with a uniform distribution only
        self.mapped = not self.rand or not (fams & {"map", "blockalign"} or
                                            self.dist != "random")
        self.fams = fams
        self.o = o
        self.feats = feats


def compare(fa, fb, plan):
    """Divergences between facts fa (fio) and fb (iojob): (fact, fio's, iojob's, how)."""
    out = []
    p = plan

    def exact(k):
        if fa.get(k) != fb.get(k):
            out.append((k, fa.get(k), fb.get(k), "exact"))

    def tested(k, a, b):
        if p.one_round:
            return      # one round's draws, repeated: nothing to test them by
        n = p.repeats
        if p.round and k.startswith("bs."):
            n = max(1, (fa.get("bytes.total") or 0) // p.round)
        if n > 1:
            a = Counter({x: -(-c // n) for x, c in a.items()})
            b = Counter({x: -(-c // n) for x, c in b.items()})
        pv = chi2_same(a, b)
        if pv is not None and pv < ALPHA:
            out.append((k, dict(a), dict(b), "chi2 p=%.2g" % pv))

    if not p.timed:
        if not ((p.random_sizes or p.mixed) and "number_ios" in p.o) and not (
                p.o.get("verify") and not p.mapped) and not p.unaligned:
            exact("bytes.total")
        if p.one_size and not ("number_ios" in p.o and p.mixed) and not (
                p.o.get("verify") and not p.mapped):
            exact("ios.total")
        # verify reads each block's last write: how many depends on the overlaps
        verify_open = p.o.get("verify") and not p.mapped
        if not p.mixed:
            for d in DIRS:
                if not p.random_sizes and not (verify_open and d == "read"):
                    exact("ios." + d)
                # number_ios of drawn sizes: the bytes are the draws' sum (bs.* tests them)
                if not (verify_open and d == "read") and not p.unaligned and \
                        not (p.random_sizes and "number_ios" in p.o):
                    exact("bytes." + d)
            # syncs follow the writes: with drawn sizes their number is drawn too
            for k in ("fsync", "fdatasync", "sync_file_range", "msync"):
                if not p.random_sizes and not p.ring_syncs:
                    exact("sync." + k)
            # posixaio's I/O runs on the C library's helper threads, in their order; at
            # depth, verify's batches interleave with writes as they complete
            helpers = p.o.get("ioengine") == "posixaio"
            deep_verify = p.o.get("verify") and int(p.o.get("iodepth", "1")) > 1
            if not verify_open and not helpers and not deep_verify and \
                    not (p.o.get("verify") and p.random_sizes):
                exact("dir_runs")
        if p.mapped and (not p.mixed or (p.rand and p.one_size)):
            for k in sorted(set(fa) | set(fb)):
                # drawn bytes overlap a pre_read or another pass by as much as drawn
                drawn_twice = p.drawn_bytes and (p.repeats > 1 or "loops" in p.o or
                                                 "pre_read" in p.o or "io_size" in p.o)
                if (k.startswith("overlap.") and not drawn_twice) or (not p.drawn_bytes and (
                        k.startswith("covered.") or
                        (k.startswith("written_sectors.") and not p.mixed))):
                    exact(k)
        if not p.rand and not p.mixed and not p.random_sizes and \
                p.o.get("ioengine") != "posixaio":
            exact("order")
    elif not p.ring_syncs:
        for k in ("fsync", "fdatasync", "sync_file_range", "msync"):
            if (fa["sync." + k] > 0) != (fb["sync." + k] > 0):
                out.append(("sync.%s.any" % k, fa["sync." + k], fb["sync." + k], "presence"))
    if p.mixed and not (p.o.get("verify")):
        ra, rb = Counter(r=fa["ios.read"], w=fa["ios.write"]), \
            Counter(r=fb["ios.read"], w=fb["ios.write"])
        tested("mix.read_share", ra, rb)
    for d in DIRS:
        if "pre_read" in p.o:
            pass        # pre_read's reads come in sizes of their own
        elif p.random_sizes:
            tested("bs." + d, fa["bs." + d], fb["bs." + d])
        elif fa["bs." + d] and fb["bs." + d] and set(fa["bs." + d]) != set(fb["bs." + d]):
            out.append(("bs." + d, dict(fa["bs." + d]), dict(fb["bs." + d]), "sizes used"))
        if not p.random_sizes:
            exact("misaligned." + d)
    if p.rand:
        for d in ("read", "write"):
            # zipf and pareto put their hot blocks where a hash of the rank says: what
            # compares is how often blocks are hit, not where they lie
            # (how often depends on how many I/Os a timed run did: not for those)
            if p.dist in ("zipf", "pareto"):
                if not p.timed:
                    tested("popularity." + d, fa["popularity." + d], fb["popularity." + d])
            else:
                tested("offsets." + d, fa["offsets." + d], fb["offsets." + d])
    # rw=rw over files one at a time (openfiles=1, sequential service): a file's turn ends
    # when its first stream does, one drawn event (the mix of its I/Os until then), not a
    # share of independent I/Os; which files the budget reaches follows from it
    # (opts_files tests the rule itself)
    one_event = p.mixed and not p.rand and (
        "openfiles" in p.o or p.o.get("file_service_type") == "sequential")
    # random I/O of drawn sizes under the map: each file takes its region once, in as many
    # I/Os as its draws cut it into (4 of 64k or 64 of 4k): the count per file is that
    # draw, not a share of I/Os dealt to files (covered.* holds each file's bytes)
    cut_drawn = p.rand and p.mapped and p.random_sizes
    if (len(fa["files.share"]) > 1 or len(fb["files.share"]) > 1) and not (
            p.o.get("stonewall") or p.o.get("numjobs")) and not (one_event or cut_drawn):
        tested("files.share", fa["files.share"], fb["files.share"])
    for k in ("open_flags", "files.touched", "fallocate", "ftruncate", "unlinked"):
        if not (one_event and k in ("open_flags", "files.touched")):
            exact(k)
    # a file left to grow as written ends where the furthest write did: a draw where the
    # offsets do not cover the region (skewed distributions, no map)
    # (io_size= of random writes covers part of the region, where the draws say)
    if (not p.rand or p.mapped) and not p.drawn_bytes and not (p.rand and "io_size" in p.o):
        exact("files.final")
    # (a job that also reads: fio writes what its buffer last read, whatever the options;
    # with verify= both fill each write afresh, compress's share after random bytes)
    if "buffers" in p.fams and not p.mixed:
        for k in ("content.zero", "content.dup", "content.compress"):
            # dedupe_percentage alone says which blocks repeat, not how near the block
            # they repeat sits, which is what zlib's 32 KiB window sees
            if k == "content.compress" and "buffer_compress_percentage" not in p.o and \
                    "dedupe_percentage" in p.o:
                continue
            a, b = fa.get(k), fb.get(k)
            tol = content_tolerance(a, b, fa.get("content.blocks"), p.o)
            if (a is None) != (b is None) or (a is not None and abs(a - b) > tol):
                out.append((k, a, b, "within %.2f" % tol))
    return out


def content_tolerance(a, b, blocks, o):
    """How far two content shares may lie apart: SHAPE_TOL, or more where the file holds
    few writes (each write's buffer is one draw, its 4 KiB blocks alike: 64 writes of 16k
    give a share of 0.3 a spread of 0.057 each), at 3.5 standard deviations of the
    difference."""
    if a is None or b is None or not blocks:
        return SHAPE_TOL
    unit = {"k": 1 << 10, "m": 1 << 20}
    sizes = re.findall(r"(\d+)([km]?)", o.get("bssplit") or o.get("bsrange") or
                       o.get("bs", "4k"))
    biggest = max(int(n) * unit.get(u, 1) for n, u in sizes) if sizes else 4096
    writes = max(1, blocks * 4096 // max(4096, biggest))
    share = min(max((a + b) / 2, 0.05), 0.95)
    return max(SHAPE_TOL, 3.5 * math.sqrt(2 * share * (1 - share) / writes))


def model_bytes(o, fams):
    """The bytes the HOWTO says a size-based job moves (reads and writes, all clones), or
    None where the options leave it open."""
    # a rate or a think time changes the bytes only against a runtime
    paced = fams & {"rate", "think"} and "runtime" in o
    if paced or fams & {"time", "ramp", "number_ios", "verify"} or \
            o["rw"] in ("trimwrite",):
        return None
    if "pre_read" in fams and o["rw"] not in ("read", "randread"):
        return None
    unit = {"k": 1 << 10, "m": 1 << 20}

    def size(v):
        return int(v[:-1]) * unit[v[-1]] if v[-1] in unit else int(v)
    if "filesize" in o:
        per = size(o["filesize"]) * int(o.get("nrfiles", "1"))
    else:
        per = size(o["size"])
        if "offset" in o and o["offset"].endswith("%"):
            per -= per * int(o["offset"][:-1]) // 100
    region = per
    if "io_size" in o:
        per = size(o["io_size"])
    clones = int(o.get("numjobs", "1")) * (2 if "stonewall" in fams else 1)
    # pre_read reads each region once before the job
    pre = region if "pre_read" in fams else 0
    return (per * int(o.get("loops", "1")) + pre) * clones
