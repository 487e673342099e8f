#!/usr/bin/env python3
"""Group A of fio's options: what a job's thread is given before its I/O.

Each job's exec_prerun runs in the job's thread (as fio runs it in the job), so the shell
it starts inherits what that thread was given, and it looks at the job's own thread too,
through /proc/PID/task/*/ of the iojob process: affinity (cpus_allowed, cpumask,
cpus_allowed_policy=split, numa_cpu_nodes), nice, the thread's name (comm), NUMA memory
policy (numactl --show), user and group ids and cgroup. The other thread(s) of the process keep their own settings.
exec_prerun and exec_postrun are seen before and after the job's writes by the bytes of
its file; a file the job creates belongs to uid= and gid=; the blkio weight of cgroup_weight
is read back; ioscheduler switches a loop device's scheduler (and refuses one it does not
offer); gtod_cpu is refused with its reason.
"""
import os
import re
import shutil
import subprocess

from common import Checks, remove, run, scratch_dir

NCPU = len(os.sched_getaffinity(0))


def job(d, opts, name="t"):
    """A 64k read of d/data (made if missing) with opts; (exit, stdout, stderr)."""
    data = os.path.join(d, "data")
    if not os.path.exists(data):
        with open(data, "wb") as f:
            f.write(b"\0" * 65536)
    return run(["--name=" + name, "--filename=" + data, "--size=64k", "--rw=read"] + opts,
               cwd=d)


def remove_file(path):
    if os.path.exists(path):
        os.unlink(path)


def read(path):
    with open(path) as f:
        return f.read()


def task_lines(path):
    """{tid: line} from 'grep -H KEY /proc/PID/task/*/status' output."""
    out = {}
    for line in read(path).splitlines():
        m = re.match(r"/proc/\d+/task/(\d+)/status:\S+\s+(.*)", line)
        if m:
            out[m.group(1)] = m.group(2).strip()
    return out


def prerun_look(key):
    """A prerun that records KEY of the shell itself and of every iojob thread."""
    return ("--exec_prerun=grep %s /proc/self/status; "
            "grep -H %s /proc/$PPID/task/*/status > tasks.txt" % (key, key))


def check_affinity(c, d):
    if NCPU < 2:
        c.skip("affinity: needs 2 CPUs")
        return
    cpu = sorted(os.sched_getaffinity(0))[-1]
    for opt in ["--cpus_allowed=%d" % cpu, "--cpumask=%d" % (1 << cpu)]:
        code, _, err = job(d, [opt, prerun_look("Cpus_allowed_list")])
        c.check(code == 0, "%s: exit %d: %s" % (opt, code, err))
        c.check(read(os.path.join(d, "t.prerun.txt")).split()[-1] == str(cpu),
                "%s: the prerun's shell runs on CPU %d: %r" %
                (opt, cpu, read(os.path.join(d, "t.prerun.txt"))))
        tasks = task_lines(os.path.join(d, "tasks.txt"))
        mine = [t for t, v in tasks.items() if v == str(cpu)]
        c.check(len(mine) == 1 and len(tasks) >= 2,
                "%s: one thread of iojob (the job's) is on CPU %d, the others not: %r" %
                (opt, cpu, tasks))
    # split: each clone gets its own CPU of the set, taken in turn
    two = sorted(os.sched_getaffinity(0))[:2]
    code, _, err = job(d, ["--cpus_allowed=%d,%d" % tuple(two), "--cpus_allowed_policy=split",
                           "--numjobs=2", "--exec_prerun=grep Cpus_allowed_list "
                           "/proc/self/status >> split.txt"])
    c.check(code == 0, "split: exit %d: %s" % (code, err))
    got = sorted(int(l.split()[-1]) for l in read(os.path.join(d, "split.txt")).splitlines())
    c.check(got == two, "split: the two clones run on CPUs %r: %r" % (two, got))
    # split with no set to split: fio 3.33 leaves the jobs on every CPU, and so does iojob,
    # with a note at the option (d53e42d refused the job)
    os.unlink(os.path.join(d, "split.txt"))
    code, _, err = job(d, ["--cpus_allowed_policy=split", "--numjobs=2",
                           "--exec_prerun=grep Cpus_allowed_list /proc/self/status >> split.txt"])
    every = read(os.path.join(d, "split.txt")).split() if code == 0 else []
    mine = os.popen("grep Cpus_allowed_list /proc/self/status").read().split()
    c.check(code == 0 and "option 'cpus_allowed_policy'" in err and
            every.count(mine[-1]) == 2, "split without cpus_allowed: runs on every CPU with "
            "a note: exit %d %r %r" % (code, every, err))
    code, _, err = job(d, ["--cpus_allowed=1024"])
    c.check(code == 2 and "is past this machine's last" in err,
            "a CPU past the machine's is refused (exit %d): %s" % (code, err))


def check_nice(c, d):
    # nice= adds to the niceness iojob starts with, as fio's nice(3) does (a suite run
    # under nice starts above 0)
    base = os.nice(0)
    want = min(base + 5, 19)
    code, _, err = job(d, ["--nice=5", "--exec_prerun=cut -d' ' -f19 /proc/self/stat; "
                           "cat /proc/$PPID/task/*/stat > tasks.txt"])
    c.check(code == 0, "nice: exit %d: %s" % (code, err))
    c.check(read(os.path.join(d, "t.prerun.txt")).strip() == str(want),
            "nice=5: the prerun's shell has nice %d: %r" %
            (want, read(os.path.join(d, "t.prerun.txt"))))
    nices = [int(l.rsplit(")", 1)[1].split()[16]) for l in
             read(os.path.join(d, "tasks.txt")).splitlines()]
    c.check(sorted(nices)[-1] == want and nices.count(want) == 1,
            "nice=5: the job's thread alone has nice %d: %r" % (want, nices))



def check_comm(c, d):
    """comm= (fio HEAD) names the job's thread, its first 15 characters as the kernel keeps
    them; the process and its other threads keep theirs."""
    code, _, err = job(d, ["--comm=disk-hammer-0123456789",
                           "--exec_prerun=cat /proc/$PPID/comm /proc/$PPID/task/*/comm"])
    names = read(os.path.join(d, "t.prerun.txt")).split()
    c.check(code == 0 and names[0] == "iojob" and names.count("disk-hammer-012") == 1 and
            "disk-hammer-0123456789" not in names,
            "comm=: the process, then its threads, named %r: %s" % (names, err))

def check_numa(c, d):
    if not shutil.which("numactl"):
        c.skip("numa: numactl is not installed")
        return
    for opt, want in [("bind:0", "policy: bind"), ("interleave:0", "policy: interleave"),
                      ("prefer:0", "policy: preferred"), ("local", "policy: local")]:
        code, _, err = job(d, ["--numa_mem_policy=" + opt, "--exec_prerun=numactl --show"])
        show = read(os.path.join(d, "t.prerun.txt")) if code == 0 else ""
        c.check(code == 0 and want in show, "numa_mem_policy=%s: %r in numactl --show "
                "(exit %d): %s%s" % (opt, want, code, err, show))
    code, _, err = job(d, ["--numa_mem_policy=bind:0", "--exec_prerun=numactl --show"])
    c.check("membind: 0" in read(os.path.join(d, "t.prerun.txt")),
            "numa_mem_policy=bind:0 binds to node 0")
    if NCPU >= 2:
        # cpus_allowed first, then numa_cpu_nodes: node 0's CPUs replace CPU 1 alone
        code, _, err = job(d, ["--cpus_allowed=1", "--numa_cpu_nodes=0",
                               "--exec_prerun=grep Cpus_allowed_list /proc/self/status"])
        got = read(os.path.join(d, "t.prerun.txt")).split()[-1]
        c.check(code == 0 and got != "1", "numa_cpu_nodes=0 runs the job on node 0's CPUs, "
                "not cpus_allowed=1's alone (exit %d): %s %s" % (code, got, err))
    nodes = [n for n in os.listdir("/sys/devices/system/node") if re.match(r"node\d+$", n)]
    missing = max(int(n[4:]) for n in nodes) + 1 if nodes else 1
    for opt in ["--numa_cpu_nodes=%d" % missing, "--numa_mem_policy=bind:%d" % missing]:
        code, out, err = job(d, [opt, "--exec_prerun=touch ran"])
        c.check(code == 2 and "names a node this machine lacks" in err and
                not os.path.exists(os.path.join(d, "ran")),
                "%s: refused before the run (exit %d): %s" % (opt, code, err))
    code, _, err = job(d, ["--numa_mem_policy=prefer:0-1"])
    c.check(code == 2 and "'prefer' takes one node" in err, "prefer takes one node: %s" % err)


def check_ids(c, d):
    if os.geteuid() != 0:
        c.skip("uid and gid: need root")
        return
    os.chmod(d, 0o777)
    made = os.path.join(d, "made")
    remove_file(os.path.join(d, "t.prerun.txt"))   # root's, from the checks before
    code, _, err = run(["--name=t", "--filename=" + made, "--size=64k", "--rw=write",
                        "--create_on_open=1", "--uid=65534", "--gid=65533",
                        "--exec_prerun=id -u; id -g"], cwd=d)
    c.check(code == 0, "uid and gid: exit %d: %s" % (code, err))
    if code == 0:
        st = os.stat(made)
        c.check((st.st_uid, st.st_gid) == (65534, 65533),
                "the file the job created belongs to 65534:65533: %d:%d" %
                (st.st_uid, st.st_gid))
        c.check(read(os.path.join(d, "t.prerun.txt")).split() == ["65534", "65533"],
                "the prerun runs as the job's ids: %r" % read(os.path.join(d, "t.prerun.txt")))


def cgroup_mount():
    """The mount fio (and iojob) use: the first blkio v1 or cgroup2 in /proc/mounts."""
    for line in read("/proc/mounts").splitlines():
        f = line.split()
        if f[2] == "cgroup" and "blkio" in f[3].split(","):
            return f[1], False
        if f[2] == "cgroup2":
            return f[1], True
    return None, None


def check_cgroup(c, d):
    mnt, v2 = cgroup_mount()
    if os.geteuid() != 0 or mnt is None:
        c.skip("cgroup: needs root and a blkio or cgroup2 mount")
        return
    name = "iojob-e2e-%d" % os.getpid()
    where = os.path.join(mnt, name)
    try:
        code, _, err = job(d, ["--cgroup=" + name, "--exec_prerun=cat /proc/self/cgroup; "
                               "grep -H . /proc/$PPID/task/*/cgroup > tasks.txt"])
        c.check(code == 0, "cgroup: exit %d: %s" % (code, err))
        want = ("0::/" if v2 else "blkio:/") + name
        lines = read(os.path.join(d, "t.prerun.txt")).splitlines()
        c.check(any(l.endswith(want) for l in lines),
                "cgroup: the job runs in %s: %r" % (want, lines))
        tasks = [l for l in read(os.path.join(d, "tasks.txt")).splitlines() if
                 l.endswith(want)]
        if not v2:
            threads = len(set(l.split("/")[4] for l in tasks))
            c.check(threads == 1, "cgroup v1: the job's thread alone is in it: %r" % tasks)
        c.check(not os.path.exists(where), "the cgroup the run made is removed")
        code, _, err = job(d, ["--cgroup=" + name, "--cgroup_weight=300",
                               "--cgroup_nodelete=1"])
        names = ["io.weight", "io.bfq.weight"] if v2 else ["blkio.weight", "blkio.bfq.weight"]
        weights = [os.path.join(where, n) for n in names
                   if os.path.exists(os.path.join(where, n))]
        if code == 2 and "does not weigh its I/O" in err:
            c.skip("cgroup_weight: this kernel has no weight file: " + err.strip())
        else:
            c.check(code == 0 and weights and read(weights[0]).split()[-1] == "300",
                    "cgroup_weight=300 is the cgroup's weight (exit %d): %s" % (code, err))
        c.check(os.path.isdir(where), "cgroup_nodelete=1 keeps the cgroup")
    finally:
        if os.path.isdir(where):
            os.rmdir(where)
    code, _, err = job(d, ["--cgroup_weight=300"])
    c.check(code == 2 and "names none (cgroup=)" in err, "cgroup_weight needs cgroup: " + err)


def check_prerun_postrun(c, d):
    data = os.path.join(d, "w")
    with open(data, "wb") as f:
        f.write(b"\0" * 65536)
    peek = "od -An -tx1 -N1 " + data
    code, _, err = run(["--name=w", "--filename=" + data, "--size=64k", "--rw=write",
                        "--buffer_pattern=0xaa", "--exec_prerun=" + peek + "; echo to-stderr >&2",
                        "--exec_postrun=" + peek], cwd=d)
    c.check(code == 0, "prerun and postrun: exit %d: %s" % (code, err))
    pre = read(os.path.join(d, "w.prerun.txt")).split()
    c.check(pre == ["00", "to-stderr"], "the prerun runs before the writes, its stdout and "
            "stderr in w.prerun.txt: %r" % pre)
    post = read(os.path.join(d, "w.postrun.txt")).split()
    c.check(post == ["aa"], "the postrun runs after the writes: %r" % post)
    with open(data, "wb") as f:
        f.write(b"\0" * 65536)
    code, _, err = run(["--name=w", "--filename=" + data, "--size=64k", "--rw=write",
                        "--buffer_pattern=0xaa", "--exec_prerun=exit 3",
                        "--exec_postrun=touch post"], cwd=d)
    c.check(code == 1 and "exec_prerun: the command exited with status 3" in err,
            "a failing prerun fails the job (exit %d): %s" % (code, err))
    with open(data, "rb") as f:
        c.check(f.read(1) == b"\0", "a failing prerun: the job does no I/O")
    c.check(not os.path.exists(os.path.join(d, "post")), "a failing prerun: no postrun")
    code, _, err = run(["--name=w", "--filename=" + data, "--size=64k", "--rw=read",
                        "--exec_postrun=exit 4"], cwd=d)
    c.check(code == 1 and "exec_postrun: the command exited with status 4" in err,
            "a failing postrun fails the job (exit %d): %s" % (code, err))


def losetup(img):
    p = subprocess.run(["losetup", "-f", "--show", img], capture_output=True, text=True)
    return p.stdout.strip() if p.returncode == 0 else None


def check_ioscheduler(c, d):
    if os.geteuid() != 0 or not shutil.which("losetup"):
        c.skip("ioscheduler: needs root and losetup")
        return
    img = os.path.join(d, "img")
    with open(img, "wb") as f:
        f.truncate(16 << 20)
    dev = losetup(img)
    if not dev:
        c.skip("ioscheduler: no loop device")
        return
    try:
        sched = "/sys/block/%s/queue/scheduler" % os.path.basename(dev)
        offered = read(sched).split()
        names = [s.strip("[]") for s in offered]
        other = [n for n, s in zip(names, offered) if not s.startswith("[")]
        if not other:
            c.skip("ioscheduler: %s offers one scheduler" % dev)
            return
        code, _, err = run(["--name=s", "--filename=" + dev, "--size=1m", "--rw=read",
                            "--ioscheduler=" + other[-1]], cwd=d)
        c.check(code == 0 and "[%s]" % other[-1] in read(sched),
                "ioscheduler=%s switches %s (exit %d): %s %s" %
                (other[-1], dev, code, err, read(sched)))
        before = read(sched)
        code, _, err = run(["--name=s", "--filename=" + dev, "--size=1m", "--rw=read",
                            "--ioscheduler=nosuch"], cwd=d)
        c.check(code == 2 and "offers only" in err and read(sched) == before,
                "a scheduler the device does not offer is refused (exit %d): %s" % (code, err))
    finally:
        subprocess.run(["losetup", "-d", dev])
    code, _, err = run(["--name=s", "--ioengine=null", "--size=64k", "--ioscheduler=none"], cwd=d)
    c.check(code == 2 and "uses no files" in err,
            "ioengine=null has no device to switch (exit %d): %s" % (code, err))
    if os.path.isdir("/dev/shm"):
        code, _, err = run(["--name=s", "--filename=/dev/shm/iojob-e2e-%d" % os.getpid(),
                            "--size=64k", "--rw=write", "--ioscheduler=none"], cwd=d)
        c.check(code == 2 and "on no block device" in err,
                "a file on tmpfs has no scheduler to switch (exit %d): %s" % (code, err))


def main():
    c = Checks("opts_thread")
    d = scratch_dir()
    try:
        check_affinity(c, d)
        check_nice(c, d)
        check_comm(c, d)
        check_numa(c, d)
        check_ids(c, d)
        check_cgroup(c, d)
        check_prerun_postrun(c, d)
        check_ioscheduler(c, d)
        code, _, err = job(d, ["--gtod_cpu=0"])
        c.check(code == 2 and "no time-keeping thread" in err, "gtod_cpu is refused: " + err)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
