#!/usr/bin/env bash
# Install the Debian packages iojob needs and this machine lacks: "build" for building and
# running it, "test" for the test suite too, "fuzz" for the fuzz targets (tests/fuzz/run.sh).
# Runs apt-get as root (or through sudo) only when something is missing, so a second run
# costs nothing.
set -euo pipefail

build_pkgs="meson ninja-build pkg-config gcc libc6-dev libaio-dev liburing-dev libinih-dev check"
# libblkid finds the signatures of file systems, RAID members and partition tables on devices.
build_pkgs="$build_pkgs libblkid-dev"
# verify's md5 and sha256 come from OpenSSL's libcrypto, its xxhash from libxxhash.
build_pkgs="$build_pkgs libssl-dev libxxhash-dev"
# zlib reads the compressed logs fio writes (--inflate-log).
build_pkgs="$build_pkgs zlib1g-dev"
# libnuma binds a job's thread to NUMA nodes (numa_cpu_nodes, numa_mem_policy).
build_pkgs="$build_pkgs libnuma-dev"
# scdoc renders the man page iojob(1) (without it, the build skips the page).
build_pkgs="$build_pkgs scdoc"
# python3 reads the JSON reports; e2fsprogs to dmsetup make and inspect loop devices for
# device tests; fio (and python3-six, which its scripts import) brings fio_jsonplus_clat2csv,
# fio_generate_plots and fio2gnuplot, which read iojob's output, and fio itself, whose
# reports the parity tests compare with (iojob never needs it); man-db checks that iojob(1)
# renders without warnings.
test_pkgs="$build_pkgs python3 e2fsprogs mount util-linux fdisk dmsetup gnuplot-nox fio"
test_pkgs="$test_pkgs python3-six man-db"
# bc does fio's arithmetic in job files (size=(8*$mb_memory)), which e2e/opts_syntax.py
# compares with iojob's; Debian's fio only recommends it.
test_pkgs="$test_pkgs bc"
# numactl --show prints the NUMA policy a job's exec_prerun inherits (e2e/opts_thread.py).
test_pkgs="$test_pkgs numactl"
# mkfs tools, cryptsetup and mdadm put every kind of signature on loop devices for
# e2e/safety.py (util-linux and fdisk bring minix, bfs, cramfs, swap and partition tables).
test_pkgs="$test_pkgs dosfstools xfsprogs btrfs-progs f2fs-tools jfsutils udftools nilfs-tools"
test_pkgs="$test_pkgs erofs-utils cryptsetup-bin mdadm"
# zstd measures how well buffer_compress_percentage's data compresses (e2e/opts_buffers.py).
test_pkgs="$test_pkgs zstd"
# valgrind's memcheck runs whole jobs in e2e/memcheck.py (the plain build only).
test_pkgs="$test_pkgs valgrind"
# strace reads back the system calls of the local engines (e2e/local_engines.py, the
# threads and sleeps of e2e/opts_rates.py, the files' calls of e2e/opts_files.py, the
# metadata engines' stat, statx and fsync calls in e2e/engines_nodata.py), cmdprio, and
# what fio and iojob each did in the differential oracle (tests/oracle, e2e/oracle.py).
test_pkgs="$test_pkgs strace"
# OpenMPI builds iojob-mpi and runs its tests (mpirun on this machine's ranks).
test_pkgs="$test_pkgs openmpi-bin libopenmpi-dev"
# bubblewrap runs fio's example job files in e2e/fio_examples.py in a sandbox: root read-only,
# no devices, a small tmpfs the only place to write.
test_pkgs="$test_pkgs bubblewrap"
# chromium renders iojob report's HTML page headless in e2e/report_charts.py (and the
# charts in e2e/report.py): not blank, every chart laid out, nothing wider than the page.
test_pkgs="$test_pkgs chromium"
# libFuzzer and the sanitizers' runtimes come with clang; the fuzz targets need them, and
# tests/run.sh runs each target briefly.
fuzz_pkgs="$build_pkgs python3 clang libclang-rt-14-dev"
test_pkgs="$test_pkgs clang libclang-rt-14-dev"

case "${1:-build}" in
build) want=$build_pkgs ;;
test) want=$test_pkgs ;;
fuzz) want=$fuzz_pkgs ;;
*) echo "usage: $0 build|test|fuzz" >&2; exit 2 ;;
esac

missing=""
for p in $want; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
	sudo=""
elif command -v sudo >/dev/null; then
	sudo="sudo"
else
	echo "iojob: these Debian packages are missing:$missing; install them as root" >&2
	exit 1
fi
echo "iojob: installing$missing"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
