"""The job files the oracle draws: a grammar of workload options as features (one option
value, or a few that go together), the rules that keep a job valid for fio 3.33 and small,
pairwise coverage of the features, then seeded random combinations."""
import itertools
import random

ENGINES = ("psync", "sync", "pvsync2", "libaio", "io_uring", "mmap", "posixaio")
ASYNC = ("libaio", "io_uring", "posixaio")
SEQ = ("read", "write", "rw")
RAND = ("randread", "randwrite", "randrw")
TRIMS = ("trim", "randtrim", "trimwrite")


def F(family, name, **opts):
    return (family, name, tuple(opts.items()))


# family, feature name, options. An option named 'rw' etc. replaces the base's.
FEATURES = [F("engine", e, ioengine=e) for e in ENGINES] + [
    F("rw", r, rw=r) for r in SEQ + RAND] + [
    F("rw", "trim", rw="trim"), F("rw", "randtrim", rw="randtrim"),
    F("rw", "trimwrite", rw="trimwrite"),
    F("rwmix", "rwmixread=30", rwmixread="30"), F("rwmix", "rwmixread=80", rwmixread="80"),
    F("rwmix", "rwmixwrite=10", rwmixwrite="10"),
    F("bs", "bs=8k", bs="8k"), F("bs", "bs=16k", bs="16k"), F("bs", "bs=2k", bs="2k"),
    F("bs", "bs=4k,16k", bs="4k,16k"), F("bs", "bs=16k,4k", bs="16k,4k"),
    F("bs", "bsrange=4k-16k", bsrange="4k-16k"), F("bs", "bsrange=2k-8k", bsrange="2k-8k"),
    F("bs", "bssplit=4k/50:16k/50", bssplit="4k/50:16k/50"),
    F("bs", "bssplit=4k/30:64k/70", bssplit="4k/30:64k/70"),
    F("bs", "bssplit=4k/20:8k/30:16k/50", bssplit="4k/20:8k/30:16k/50"),
    F("bs", "bssplit=4k/60:8k,16k/100", bssplit="4k/60:8k,16k/100"),
    F("bs", "bs_unaligned", bsrange="1k-9k", bs_unaligned="1"),
    F("blockalign", "blockalign=8k", blockalign="8k"),
    F("dist", "zipf:1.2", random_distribution="zipf:1.2"),
    F("dist", "pareto:0.3", random_distribution="pareto:0.3"),
    F("dist", "normal:20", random_distribution="normal:20"),
    F("dist", "zoned", random_distribution="zoned:60/10:30/20:10/70"),
    F("dist", "random", random_distribution="random"),
    F("map", "norandommap", norandommap="1"),
    F("seed", "randseed=1234", randseed="1234"),
    F("seed", "randrepeat=0", randrepeat="0"),
    F("seed", "randrepeat=0+randseed", randrepeat="0", randseed="77"),
    F("size", "size=512k", size="512k"), F("size", "size=2m", size="2m"),
    F("io_size", "io_size=half", io_size="512k"), F("io_size", "io_size=double", io_size="2m"),
    F("number_ios", "number_ios=37", number_ios="37"),
    F("offset", "offset=256k", offset="256k"), F("offset", "offset=768k", offset="768k"),
    F("offset_increment", "offset_increment=256k", offset_increment="256k", numjobs="2"),
    F("filesize", "filesize=256k", filesize="256k", nrfiles="2"),
    F("nrfiles", "nrfiles=2", nrfiles="2"), F("nrfiles", "nrfiles=4", nrfiles="4"),
    F("fst", "fst=random", file_service_type="random"),
    F("fst", "fst=sequential", file_service_type="sequential"),
    F("fst", "fst=roundrobin:4", file_service_type="roundrobin:4"),
    F("openfiles", "openfiles=1", openfiles="1"),
    F("filename", "filename=a:b:c", filename="fa:fb:fc"),
    F("loops", "loops=2", loops="2"), F("loops", "loops=3", loops="3"),
    F("time", "time_based", time_based="1", runtime="300ms"),
    F("ramp", "ramp_time", ramp_time="100ms", time_based="1", runtime="300ms"),
    F("startdelay", "startdelay", startdelay="100ms"),
    F("numjobs", "numjobs=2", numjobs="2"),
    F("stonewall", "stonewall", stonewall="1"),
    F("depth", "iodepth=4", iodepth="4"), F("depth", "iodepth=16", iodepth="16"),
    F("batch", "iodepth_batch=4", iodepth="8", iodepth_batch_submit="4"),
    F("batch", "batch_complete", iodepth="8", iodepth_batch_complete_min="2",
      iodepth_batch_complete_max="4"),
    F("batch", "iodepth_low", iodepth="8", iodepth_low="2"),
    F("sync", "fsync=3", fsync="3"), F("sync", "fdatasync=5", fdatasync="5"),
    F("sync", "fsync=1", fsync="1"),
    F("end_fsync", "end_fsync", end_fsync="1"),
    F("fsync_on_close", "fsync_on_close", fsync_on_close="1"),
    F("osync", "sync=1", sync="1"), F("osync", "sync=dsync", sync="dsync"),
    F("direct", "direct=1", direct="1"),
    F("layout", "fallocate=none", fallocate="none"),
    F("layout", "fallocate=posix", fallocate="posix"),
    F("layout", "fallocate=keep", fallocate="keep"),
    F("layout", "fallocate=truncate", fallocate="truncate"),
    F("layout", "create_on_open", create_on_open="1"),
    F("pre_read", "pre_read", pre_read="1"),
    F("unlink", "unlink", unlink="1"),
    F("verify", "verify=crc32c", verify="crc32c"), F("verify", "verify=md5", verify="md5"),
    F("verify", "verify=xxhash", verify="xxhash"),
    F("verify", "verify=sha1+do_verify=0", verify="sha1", do_verify="0"),
    F("verify_extra", "verify_backlog=8", verify_backlog="8"),
    F("verify_extra", "verify_interval=1k", verify_interval="1k"),
    F("rate", "rate=2m", rate="2m"), F("rate", "rate_iops=1000", rate_iops="1000"),
    F("rate", "rate_poisson", rate_iops="1000", rate_process="poisson"),
    F("think", "thinktime=100", thinktime="100", thinktime_blocks="4"),
    F("buffers", "zero_buffers", zero_buffers="1"),
    F("buffers", "compress=50", buffer_compress_percentage="50"),
    F("buffers", "dedupe=30", dedupe_percentage="30"),
    F("buffers", "buffer_pattern", buffer_pattern="0xdeadbeef"),
]
FAMILY = {f[1]: f[0] for f in FEATURES}
BASE = (("ioengine", "psync"), ("rw", "read"), ("bs", "4k"), ("size", "1m"))


def bs_sizes(o):
    """Every block size a job's options name, in bytes."""
    out = []
    for key in ("bs", "bsrange", "bssplit"):
        for part in o.get(key, "").replace(",", ":").replace("-", ":").split(":"):
            v = part.split("/")[0]
            if v:
                out.append(int(v[:-1]) * 1024 if v.endswith("k") else int(v))
    return out


def writes(o):
    return o["rw"] not in ("read", "randread", "trim", "randtrim")


def valid(o, feats):
    """Whether options o (with the features' families feats) make a job fio 3.33 runs and
    the oracle can judge; the rules stand for fio's refusals or for pointless mixes."""
    rw, eng = o["rw"], o["ioengine"]
    fams = {FAMILY[f] for f in feats}
    rand = rw in RAND or rw == "randtrim"
    if ("rwmix" in fams) and rw not in ("rw", "randrw"):
        return False
    if fams & {"dist", "map", "seed", "blockalign"} and not rand:
        return False
    if rw in TRIMS:
        # trims go to a raw loop device, one file, psync-like or libaio engines
        if eng not in ("psync", "pvsync2", "libaio") or fams & {
                "nrfiles", "filename", "filesize", "fst", "openfiles", "layout", "pre_read",
                "unlink", "verify", "buffers", "offset_increment", "numjobs", "stonewall"}:
            return False
    if "bs_unaligned" in feats and ("direct" in fams or eng == "mmap" or "verify" in fams):
        return False
    if "direct" in fams and (eng == "mmap" or min(bs_sizes(o) or [4096]) < 4096):
        return False
    # fio's mmap engine wants 4 KiB blocks at least, and takes SIGBUS on an empty file
    if eng == "mmap" and (fams & {"osync", "depth", "batch"} or min(bs_sizes(o) or [4096]) <
                          4096 or "layout" in fams):
        return False
    if rw in TRIMS and (min(bs_sizes(o) or [4096]) < 4096 or "bs_unaligned" in feats):
        return False
    if fams & {"depth", "batch"} and eng not in ASYNC:
        return False
    if "verify" in fams or "verify_extra" in fams:
        if "verify" not in fams or rw not in ("write", "randwrite") or fams & {
                "time", "ramp", "io_size", "number_ios", "buffers", "layout", "unlink",
                "openfiles", "rate", "think"}:
            return False
        if "verify_interval=1k" in feats and min(bs_sizes(o)) < 2048:
            return False
        if "do_verify=0" in str(o) and "verify_extra" in fams:
            return False
    if "buffers" in fams and not writes(o):
        return False
    if fams & {"fst", "openfiles"} and not (fams & {"nrfiles", "filename", "filesize"}):
        return False
    if "filename" in fams and fams & {"nrfiles", "filesize", "numjobs", "offset_increment"}:
        return False
    if "filesize" in fams and fams & {"nrfiles", "offset", "io_size"}:
        return False
    # without files made first, a job that reads lays its files out: only write-only jobs,
    # or create_on_open's reads (fio creates the file empty), keep layout and I/O apart
    if "layout" in fams and (fams & {"pre_read", "offset", "filename", "stonewall"} or (
            o["rw"] not in ("write", "randwrite") and not (
                o.get("create_on_open") == "1" and not writes(o)))):
        return False
    if "pre_read" in fams and (writes(o) or eng == "mmap"):
        return False
    if "end_fsync" in fams or "fsync_on_close" in fams or "sync" in fams:
        if not writes(o):
            return False
    # one timed family a job at most: the exact checks need the others untimed
    if len(fams & {"time", "ramp", "rate", "think", "startdelay"}) > 1:
        return False
    return True


def families(o):
    """The families of the features whose options o holds, and those features."""
    feats = [f[1] for f in FEATURES if f[2] and all(o.get(k) == v for k, v in f[2])
             and f[0] not in ("engine", "rw")]
    return {FAMILY[f] for f in feats}, feats


def render(o, name="j"):
    """The job file: one section, or two when 'stonewall' is set (the second a copy)."""
    lines = ["[%s]" % name] + ["%s=%s" % kv for kv in o.items() if kv[0] != "stonewall"]
    text = "\n".join(lines) + "\n"
    if o.get("stonewall"):
        text += "\n[k]\nstonewall\n" + "\n".join(lines[1:]) + "\n"
    return text


def build(feats):
    """Options of a job made of the base and the features, in order."""
    o = dict(BASE)
    by_name = {f[1]: f for f in FEATURES}
    for name in feats:
        o.update(dict(by_name[name][2]))
    if "bsrange" in o or "bssplit" in o:
        o.pop("bs", None)
    return o


class Generator:
    """Draws jobs: pairwise over the features of different families first (greedy: each
    job starts from a pair not yet covered and adds the features that cover most pairs
    still open), then random combinations of 2 to 7 features."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        names = [f[1] for f in FEATURES]
        self.pairs = {(a, b) for a, b in itertools.combinations(names, 2)
                      if FAMILY[a] != FAMILY[b]}
        self.open = set(self.pairs)
        self.impossible = set()
        self.names = names

    def ok(self, feats):
        return len({FAMILY[f] for f in feats}) == len(feats) and valid(build(feats), feats)

    def _complete(self, feats):
        """Add an engine and an rw where the draw has none (the base's would do, but the
        draw should spread them)."""
        fams = {FAMILY[f] for f in feats}
        for fam in ("engine", "rw"):
            if fam not in fams:
                choices = [n for n in self.names if FAMILY[n] == fam]
                self.rng.shuffle(choices)
                for c in choices:
                    if self.ok(feats + [c]):
                        feats = feats + [c]
                        break
        return feats

    def _pairwise(self):
        while self.open:
            a, b = self.rng.choice(sorted(self.open))
            feats = [a, b]
            if not self.ok(feats) and not self.ok(self._complete(feats)):
                self.open.discard((a, b))
                self.impossible.add((a, b))
                continue
            if not self.ok(feats):
                feats = self._complete(feats)
            want = self.rng.randint(4, 8)
            cands = list(self.names)
            self.rng.shuffle(cands)
            while len(feats) < want:
                best, score = None, 0
                for c in cands:
                    if c in feats or not self.ok(feats + [c]):
                        continue
                    s = sum(1 for f in feats if tuple(sorted((f, c))) in self.open)
                    if s > score:
                        best, score = c, s
                if not best:
                    break
                feats.append(best)
            feats = self._complete(feats)
            if not self.ok(feats):
                self.open.discard((a, b))
                self.impossible.add((a, b))
                continue
            for x, y in itertools.combinations(sorted(feats), 2):
                self.open.discard((x, y))
            return feats
        return None

    def _random(self):
        while True:
            feats = self.rng.sample(self.names, self.rng.randint(2, 7))
            fams = [FAMILY[f] for f in feats]
            if len(set(fams)) != len(fams):
                continue
            feats = self._complete(feats)
            if self.ok(feats):
                return feats

    def jobs(self, count):
        """count jobs: (feature names, options)."""
        out = []
        for _ in range(count):
            feats = self._pairwise() or self._random()
            o = build(feats)
            out.append((feats, o))
        return out

    def coverage(self):
        """(pairs covered, pairs that some valid job can hold)."""
        possible = len(self.pairs) - len(self.impossible)
        return possible - len(self.open), possible
