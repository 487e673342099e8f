#!/bin/sh
# Run stripe_vs_single.fio on three loop devices: two on files in ${DIR:-/var/tmp}, one on
# a file in /dev/shm (tmpfs). Needs root and losetup; detaches and deletes what it made,
# whatever happens. Extra arguments go to iojob (--output-format=json, --set runtime=3).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
iojob=${IOJOB:-$here/../../build/iojob}
dir=${DIR:-/var/tmp}
size=${SIZE:-256m}
imgs="$dir/iojob-stripe-a.img $dir/iojob-stripe-b.img /dev/shm/iojob-single.img"
loops=""
cleanup() {
	for l in $loops; do losetup -d "$l"; done
	rm -f $imgs
}
trap cleanup EXIT INT TERM
for f in $imgs; do
	truncate -s "$size" "$f"
	loops="$loops $(losetup --direct-io=on -f --show "$f")"
done
set -- $loops "$@"
a=$1 b=$2 c=$3
shift 3
STRIPE_A=$a STRIPE_B=$b SINGLE=$c "$iojob" "$@" "$here/stripe_vs_single.fio"
