#!/usr/bin/env python3
"""The net engine (issue 31, fio's network engine): TCP, UDP and UNIX links on this
machine's loopback, each a receiver and a sender job; what one sends the other receives,
the receiver's job ends when the sender closes, pingpong sends each block back, numjobs
clones take consecutive ports, bandwidth reads in bits, fio's UDP trailer counts the
datagrams lost; where fio is installed, either end may be fio; localhost is the loopback
where nothing resolves it. No sleeps: a receiver is known to listen from /proc/net."""
import json
import os
import shutil
import socket
import struct
import subprocess
import threading

from common import BIN, Checks, run, run_job_file, scratch_dir, remove

K = 1024


def free_port(kind=socket.SOCK_STREAM, n=1):
    """A port with n free ports from it, on loopback."""
    for _ in range(50):
        s = socket.socket(socket.AF_INET, kind)
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        if port + n < 65535:
            return port
    raise RuntimeError("no free port")


def jobs_of(out):
    doc, _ = json.JSONDecoder().raw_decode(out[out.index("{"):])
    return {j["jobname"]: j for j in doc["jobs"]}


def listening(port, udp=False):
    """Whether a socket is bound (UDP) or listening (TCP) on port, from /proc/net."""
    want = "%04X" % port
    for name in (("udp", "udp6") if udp else ("tcp", "tcp6")):
        try:
            with open("/proc/net/" + name) as f:
                for line in f.readlines()[1:]:
                    w = line.split()
                    if w[1].rsplit(":", 1)[1] == want and (udp or w[3] == "0A"):
                        return True
        except OSError:
            pass
    return False


def wait_listening(proc, port, udp=False):
    """Until the receiver listens (or exits): polled on its state, not slept on."""
    while proc.poll() is None and not listening(port, udp):
        try:
            proc.wait(timeout=0.05)
        except subprocess.TimeoutExpired:
            pass
    return proc.poll() is None


def check_tcp(c, d):
    """A receiver and a sender in one job file: every byte sent arrives, in bits/s."""
    port = free_port()
    text = ("[global]\nioengine=net\nport=%d\nprotocol=tcp\nbs=4k\n[receiver]\nlisten\n"
            "rw=read\nsize=64M\ncontinue_on_error=read\n[sender]\nhostname=localhost\n"
            "rw=write\nsize=2M\n" % port)
    code, out, err = run_job_file(d, "tcp.fio", text, ["--output-format=json,normal"],
                                  timeout=60)
    c.check(code == 0, "tcp: exit %d %r" % (code, err))
    if code:
        return
    jobs = jobs_of(out)
    c.check(jobs["receiver"]["read"]["io_bytes"] == 2 * 1024 * K ==
            jobs["sender"]["write"]["io_bytes"],
            "tcp: 2 MiB sent and received, the receiver ending with the sender: %d %d" %
            (jobs["receiver"]["read"]["io_bytes"], jobs["sender"]["write"]["io_bytes"]))
    c.check(jobs["receiver"]["total_err"] == 0 and jobs["receiver"]["error"] == 0,
            "tcp: the sender's close ends the receiver, no error even where "
            "continue_on_error counts them: %d" % jobs["receiver"]["total_err"])
    c.check("bit/s" in out and "BW=" in out and "MiB/s" not in out.split("READ:")[0],
            "tcp: bandwidth in bits, as fio's net")


def check_unix_and_pingpong(c, d):
    """A UNIX socket link; pingpong: each block comes back, both ends count it."""
    sock = os.path.join(d, "link.sock")
    text = ("[global]\nioengine=net\nprotocol=unix\nfilename=%s\nbs=8k\n[r]\nrw=read\n"
            "size=64M\n[w]\nrw=write\nsize=1M\n" % sock)
    code, out, err = run_job_file(d, "unix.fio", text, ["--output-format=json"], timeout=60)
    c.check(code == 0 and jobs_of(out)["r"]["read"]["io_bytes"] == 1024 * K,
            "unix: 1 MiB over %s: %d %r" % (sock, code, err))
    port = free_port()
    text = ("[global]\nioengine=net\nport=%d\npingpong\nbs=4k\nsize=256k\n[r]\nlisten\n"
            "rw=read\n[w]\nhostname=127.0.0.1\nrw=write\n" % port)
    code, out, err = run_job_file(d, "pp.fio", text, ["--output-format=json"], timeout=60)
    if code == 0:
        jobs = jobs_of(out)
        c.check(jobs["r"]["read"]["total_ios"] == jobs["w"]["write"]["total_ios"] == 64,
                "pingpong: 64 blocks each way: %d %d" % (jobs["r"]["read"]["total_ios"],
                                                         jobs["w"]["write"]["total_ios"]))
    else:
        c.check(False, "pingpong: exit %d %r" % (code, err))


def check_ports(c, d):
    """numjobs clones take port, port+1, ...: two receivers, two senders, two links."""
    port = free_port(n=2)
    text = ("[global]\nioengine=net\nport=%d\nbs=4k\nnumjobs=2\n[r]\nlisten\nrw=read\n"
            "size=64M\n[w]\nhostname=127.0.0.1\nrw=write\nsize=512k\n" % port)
    code, out, err = run_job_file(d, "clones.fio", text, ["--output-format=json"], timeout=60)
    c.check(code == 0, "numjobs: exit %d %r" % (code, err))
    if not code:
        got = [j["read"]["io_bytes"] for j in json.loads(out[out.index("{"):])["jobs"]
               if j["jobname"] == "r"]
        c.check(got == [512 * K, 512 * K], "numjobs: each receiver gets its sender's: %s" % got)


def udp_sender(port, seqs, bs=1024):
    """fio's UDP sender by hand: the link's opening, datagrams with the sequence numbers
    seqs in fio's trailer, the link's closing."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    dst = ("127.0.0.1", port)
    s.sendto(struct.pack(">II", 0x6c696e6b, 0x98), dst)
    for q in seqs:
        s.sendto(bytes(bs - 24) + struct.pack("<QQQ", 0x657375716e556563, q, bs), dst)
    s.sendto(struct.pack("<II", 0x6c696e6b, 0x89), dst)
    s.close()


def check_udp(c, d):
    """UDP: the reader counts as lost the sequence numbers that never came (fio's
    drop_ios), and ends at the link's closing; an iojob sender's datagrams all arrive
    where the socket's buffer holds them."""
    port = free_port(socket.SOCK_DGRAM)
    p = subprocess.Popen([BIN, "--name=r", "--ioengine=net", "--protocol=udp",
                          "--port=%d" % port, "--rw=read", "--bs=1k", "--size=1M",
                          "--output-format=json"], cwd=d, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    if wait_listening(p, port, udp=True):
        udp_sender(port, [0, 1, 2, 5, 6, 9])
    out, err = p.communicate(timeout=60)
    c.check(p.returncode == 0, "udp reader: exit %d %r" % (p.returncode, err))
    if not p.returncode:
        r = jobs_of(out)["r"]["read"]
        c.check(r["total_ios"] == 6 and r["drop_ios"] == 4,
                "udp: 6 datagrams, 4 lost (3, 4, 7, 8): %d %d" % (r["total_ios"], r["drop_ios"]))
    text = ("[global]\nioengine=net\nport=%d\nprotocol=udp\nbs=1k\n[r]\nrw=read\n"
            "size=1M\n[w]\nhostname=127.0.0.1\nrw=write\nsize=32k\n" % port)
    code, out, err = run_job_file(d, "udp.fio", text, ["--output-format=json"], timeout=60)
    c.check(code == 0, "udp.fio: exit %d %r" % (code, err))
    if not code:
        r = jobs_of(out)["r"]["read"]
        c.check(r["io_bytes"] == 32 * K and r["drop_ios"] == 0,
                "udp: 32 datagrams of 1k, none lost: %d %d" % (r["io_bytes"], r["drop_ios"]))


def fio_pair(c, d, proto, fio_receives):
    """One end fio, the other iojob: the bytes arrive."""
    port = free_port(socket.SOCK_DGRAM if proto == "udp" else socket.SOCK_STREAM)
    common = ["--ioengine=net", "--protocol=" + proto, "--port=%d" % port, "--bs=1k",
              "--output-format=json"]
    recv = ["--name=r", "--rw=read", "--size=1M"] + (["--listen"] if proto == "tcp" else [])
    send = ["--name=w", "--rw=write", "--size=16k", "--hostname=127.0.0.1"]
    # fio takes an engine's options after --ioengine only
    rcmd = (["fio"] if fio_receives else [BIN]) + common + recv
    scmd = ([BIN] if fio_receives else ["fio"]) + common + send
    p = subprocess.Popen(rcmd, cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    ok = wait_listening(p, port, udp=proto == "udp")
    s = subprocess.run(scmd, cwd=d, capture_output=True, text=True, timeout=60) if ok else None
    if s is None or s.returncode:
        p.kill()	# nothing will come: the receiver would wait for ever
    out, err = p.communicate(timeout=60)
    name = "%s, %s receiving" % (proto, "fio" if fio_receives else "iojob")
    c.check(s is not None and s.returncode == 0 and p.returncode == 0,
            "%s: exit %s %d %r" % (name, s and s.returncode, p.returncode, err[-300:]))
    if s is not None and not p.returncode:
        got = jobs_of(out)["r"]["read"]["io_bytes"]
        c.check(got == 16 * K, "%s: 16 KiB arrive: %d" % (name, got))


def check_with_fio(c, d):
    if not shutil.which("fio"):
        c.skip("fio not installed: no link with fio at one end")
        return
    for proto in ("tcp", "udp"):
        for fio_receives in (True, False):
            fio_pair(c, d, proto, fio_receives)


def check_localhost_without_hosts(c, d):
    """hostname=localhost where nothing resolves it (a container without /etc/hosts, as a
    minimal Debian root is): the loopback, as RFC 6761 says, and the link runs; it failed
    to start and left its receiver waiting for ever."""
    empty = os.path.join(d, "hosts")
    open(empty, "w").close()
    port = free_port()
    job = os.path.join(d, "lh.fio")
    with open(job, "w") as f:
        f.write("[global]\nioengine=net\nport=%d\nbs=4k\n[r]\nlisten\nrw=read\nsize=64M\n"
                "[w]\nhostname=localhost\nrw=write\nsize=1M\n" % port)
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount --bind %s /etc/hosts && "
                            "! getent hosts localhost" % empty], capture_output=True)
    if probe.returncode:
        c.skip("localhost unresolved: no mount namespace here (unshare -m needs root), or "
               "localhost resolves without /etc/hosts")
        return
    try:
        p = subprocess.run(["unshare", "-m", "sh", "-c", 'mount --bind "$1" /etc/hosts && '
                            'exec "$2" "$3" --output-format=json', "sh", empty, BIN, job],
                           cwd=d, capture_output=True, text=True, timeout=60)
        code, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        code, out, err = None, "", "timed out: the receiver still waits"
    c.check(code == 0 and jobs_of(out)["r"]["read"]["io_bytes"] == 1024 * K,
            "localhost without /etc/hosts: the loopback, 1 MiB across: %s %r" % (code, err))


def check_refused(c, d):
    """What fio refuses: random network I/O (before anything runs), listen on UDP, no
    port, a sender with nowhere to send (as the job starts, saying why)."""
    code, _, err = run(["--name=x", "--ioengine=net", "--port=9", "--rw=randwrite",
                        "--hostname=127.0.0.1", "--size=1M"], cwd=d)
    c.check(code == 2 and "cannot be random" in err, "randwrite: %d %r" % (code, err))
    for args, why in ((["--protocol=udp", "--port=9", "--listen", "--rw=read"], "listen is"),
                      (["--port=0", "--rw=write", "--hostname=127.0.0.1"], "need port"),
                      (["--port=9", "--rw=write"], "no hostname")):
        code, _, err = run(["--name=x", "--ioengine=net", "--size=1M"] + args, cwd=d)
        c.check(code == 1 and why in err, "%s: exit 1 saying %r: %d %r" % (args, why, code, err))


def main():
    c = Checks("net")
    d = scratch_dir()
    try:
        check_tcp(c, d)
        check_unix_and_pingpong(c, d)
        check_ports(c, d)
        check_udp(c, d)
        check_with_fio(c, d)
        check_refused(c, d)
        check_localhost_without_hosts(c, d)
    finally:
        remove(d)
    c.finish()


if __name__ == "__main__":
    main()
