#!/bin/sh
# Over-provisioning, measured at steady state: the same random-write sweep on a device
# used whole and on 75% of it (overprovisioning.fio says why). As root, on a device whose
# contents may be destroyed (the device safety checks still refuse a mounted one):
#
#   examples/pts/overprovisioning.sh DEVICE RESULTS-DIR
#
# For each side, "whole" (100%) then "op25" (75%), it runs:
#
#   iojob pts DEVICE --label SIDE --capacity-fraction F --tests iops --iops-bs 16k \
#       --iops-mixes 0 --results RESULTS-DIR
#   iojob --sweep numjobs=1,4,8,16,32,64 --label SIDE --set filename=DEVICE --set size=P \
#       --results RESULTS-DIR/sweep.jsonl overprovisioning.fio
#
# (the purge discards the whole device, so the quarter left out is spare area; the
# preconditioning and the rounds write only the part used), then:
#
#   iojob compare whole op25 RESULTS-DIR/sweep.jsonl --metrics bw_mib,iops,lat_p95
#
# Scale with ROUND (each PTS cell, 60s), RUNTIME (each sweep cell, 60 s), THREADS
# (1,4,8,16,32,64) and PTS_ARGS (more iojob pts options); IOJOB names the binary.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
iojob=${IOJOB:-$here/../../build/iojob}
dev=$1
dir=$2
for side in "whole 1 100%" "op25 0.75 75%"; do
	set -- $side
	# shellcheck disable=SC2086 # PTS_ARGS is a list of options
	"$iojob" pts "$dev" --label "$1" --capacity-fraction "$2" --tests iops --iops-bs 16k \
		--iops-mixes 0 --round-time "${ROUND:-60s}" --results "$dir" ${PTS_ARGS:-} \
		> "$dir/pts-$1.txt"
	"$iojob" --sweep "numjobs=${THREADS:-1,4,8,16,32,64}" --label "$1" \
		--set "filename=$dev" --set "size=$3" --set "runtime=${RUNTIME:-60}" \
		--output-format=terse --results "$dir/sweep.jsonl" "$here/overprovisioning.fio" \
		> /dev/null
done
"$iojob" compare whole op25 "$dir/sweep.jsonl" --metrics bw_mib,iops,lat_p95
