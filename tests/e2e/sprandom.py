#!/usr/bin/env python3
"""sprandom (fio HEAD's SSD preconditioning, issue 31): one pass of writes the size of the
physical capacity (the region and spr_op of it), in spr_num_regions regions, each block
picked with its region's share of invalid blocks to be written again in the next region
(with spr_cs, at the next region's end). Read from the write_iolog: the count of writes,
the blocks covered, how many writes are rewrites and where they fall, against the
steady-state model computed here from its formula; fio's refusals and notes."""
import math
import os

from common import Checks, run, scratch_dir, remove

K = 1024
SIZE = 16 * 1024 * K
BS = 4 * K


def shares(n, op):
    """Each region's invalid share (1/10000ths), region 0 first: Desnoyers' model, the
    curve of validity over space used sampled at n evenly spaced points."""
    waf = 0.5 / op + 0.7
    gc = 1 - 1 / waf
    valid = [1.0 + (gc - 1.0) * i / (n - 1) for i in range(n)] if n > 1 else [1.0]
    xs, acc = [], 0.0
    for v in valid:
        acc += 1 / v
        xs.append(acc)
    out = []
    for i in range(n):
        x = xs[0] + (xs[-1] - xs[0]) * (n - 1 - i) / (n - 1) if n > 1 else xs[0]
        k = max(j for j in range(n) if xs[j] <= x) if x > xs[0] else 0
        y = valid[k] if k == n - 1 else \
            valid[k] + (valid[k + 1] - valid[k]) * (x - xs[k]) / (xs[k + 1] - xs[k])
        out.append(round((1 - y) * 10000))
    return out


def writes(c, d, name, args):
    """The offsets a sprandom job wrote, in order, and its stderr; None on failure."""
    log = os.path.join(d, name + ".log")
    remove(log)
    code, _, err = run(["--name=" + name, "--filename=sp.dat", "--size=16M", "--bs=4k",
                        "--rw=randwrite", "--sprandom=1", "--write_iolog=" + log,
                        "--output=/dev/null"] + args, cwd=d)
    c.check(code == 0, "%s %s: exit %d %r" % (name, args, code, err))
    if code:
        return None, err
    with open(log) as f:
        rows = [int(line.split()[3]) for line in f if " write " in line]
    return rows, err


def first_writes(rows):
    """Per write, whether it is the block's first."""
    seen, out = set(), []
    for o in rows:
        out.append(o not in seen)
        seen.add(o)
    return out


def check_pass(c, d):
    """The physical capacity's worth of writes, every block covered or the budget spent;
    rewrites as many as the model's shares make them, most after the first regions."""
    n, op = 100, 0.15
    physical = SIZE + math.ceil(SIZE * op)
    physical -= physical % BS
    region = physical // n // BS
    rows, err = writes(c, d, "pass", [])
    if rows is None:
        return
    c.check("sprandom sets random_generator=lfsr" in err and
            "sprandom sets norandommap=1" in err, "fio's notes: %r" % err)
    firsts = first_writes(rows)
    distinct = sum(firsts)
    c.check(len(rows) == physical // BS or distinct == SIZE // BS,
            "%d writes of %d (the physical capacity), %d of %d blocks" %
            (len(rows), physical // BS, distinct, SIZE // BS))
    c.check(all(0 <= o < SIZE and o % BS == 0 for o in rows), "every write in the region")
    share = shares(n, op)
    # region r's picks are written in region r+1: the expected rewrites and their spread
    want = sum(share[r] / 10000 * region for r in range(n - 1))
    sigma = math.sqrt(sum(share[r] / 10000 * (1 - share[r] / 10000) * region
                          for r in range(n - 1)))
    got = len(rows) - distinct
    c.check(abs(got - want) <= 6 * sigma + 2,
            "%d rewrites, the model's %.0f +- %.0f" % (got, want, 6 * sigma))
    early = sum(not f for f in firsts[region:11 * region])
    late = sum(not f for f in firsts[90 * region:])
    c.check(early > 3 * late + 20,
            "the first regions' picks (share %d/10000) are rewritten more than the last "
            "ones' (%d): %d against %d" % (share[0], share[-1], early, late))
    # as fio's: region 1's first write is new (its picks are committed as it starts)
    c.check(firsts[:region + 1] == [True] * (region + 1) and not firsts[region + 1],
            "region 0 is all first writes, region 1's rewrites follow its first: %s" %
            firsts[region - 2:region + 3])
    rows2, _ = writes(c, d, "cache", ["--spr_cs=64k"])
    if rows2:
        f2 = first_writes(rows2)
        c.check(all(f2[:region + region // 2]),
                "spr_cs: region 0's picks wait for region 1's end: first rewrite at %d, "
                "a region is %d" % (f2.index(False), region))
    rows3, _ = writes(c, d, "op", ["--spr_op=0.5", "--spr_num_regions=20"])
    if rows3:
        physical3 = SIZE + math.ceil(SIZE * 0.5)
        c.check(len(rows3) == physical3 // BS or sum(first_writes(rows3)) == SIZE // BS,
                "spr_op=0.5: %d writes, the physical capacity is %d" %
                (len(rows3), physical3 // BS))


def check_refused(c, d):
    """What fio refuses: not random writes, another generator, the map, two files, a ratio
    outside (0, 1); a cache larger than a region fails the job as fio's does."""
    base = ["--name=r", "--filename=sp.dat", "--size=16M", "--bs=4k", "--sprandom=1",
            "--output=/dev/null"]
    for args, opt in ((["--rw=randread"], "sprandom"),
                      (["--rw=write"], "sprandom"),
                      (["--rw=randwrite", "--random_generator=tausworthe"],
                       "random_generator"),
                      (["--rw=randwrite", "--norandommap=0"], "norandommap"),
                      (["--rw=randwrite", "--filename=sp.dat:sp2.dat"], "sprandom"),
                      (["--rw=randwrite", "--spr_op=1.5"], "spr_op"),
                      (["--rw=randwrite", "--spr_num_regions=0"], "spr_num_regions")):
        code, _, err = run(base + args, cwd=d)
        c.check(code == 2 and "'%s'" % opt in err, "%s: exit 2 naming %s: %d %r" %
                (args, opt, code, err))
    code, _, err = run(base + ["--rw=randwrite", "--spr_cs=1M"], cwd=d)
    c.check(code == 1 and "larger than a region" in err,
            "spr_cs=1M over regions of 188k: the job fails: %d %r" % (code, err))


def main():
    c = Checks("sprandom")
    d = scratch_dir()
    try:
        with open(os.path.join(d, "sp.dat"), "wb") as f:
            f.truncate(SIZE)
        check_pass(c, d)
        check_refused(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
