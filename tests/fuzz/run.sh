#!/usr/bin/env bash
# Build the libFuzzer targets with clang (ASan, UBSan and coverage, in build-fuzz/ with
# -Dfuzz=true) and run each for SECONDS (default 60), as many at once as there are cores. The
# corpus grows in build-fuzz/fuzz/corpus/TARGET across runs, seeded by corpus.py; a crash,
# hang, leak or sanitizer report is written to build-fuzz/fuzz/findings/TARGET/ and fails the
# run. The last lines say how many inputs each target ran, and how many targets ran clean.
#
# usage: tests/fuzz/run.sh [SECONDS] [TARGET ...]     (targets: jobfile values results replay)
#        tests/fuzz/run.sh --repro TARGET FILE        (run one input, e.g. a finding)
# IOJOB_FUZZ_FLAGS adds libFuzzer flags (-malloc_limit_mb=512 flags any larger allocation).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${IOJOB_FUZZ_BUILD:-$top/build-fuzz}
cd "$top"

tests/deps.sh fuzz || exit 1
if [ ! -f "$build/build.ninja" ]; then
	CC=clang meson setup "$build" -Dfuzz=true -Db_sanitize=address,undefined \
		-Db_lundef=false -Dtests=disabled >/dev/null || exit 1
fi
all_targets=(jobfile values results replay)
ninja -C "$build" "${all_targets[@]/#/tests/fuzz/fuzz_}" >/dev/null || exit 1

export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
work=$build/fuzz
# include in a fuzzed job file finds these (only relative names are fuzzed)
incdir=$work/cwd
mkdir -p "$incdir"
printf 'bs=8k\nsize=1m\n' >"$incdir/inc.fio"
printf 'include self.fio\n' >"$incdir/self.fio"

if [ "${1:-}" = "--repro" ]; then
	[ $# -eq 3 ] || { echo "usage: $0 --repro TARGET FILE" >&2; exit 2; }
	file=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
	cd "$incdir" && exec "$build/tests/fuzz/fuzz_$2" -timeout=10 "$file"
fi

secs=${1:-60}
shift $(($# > 0 ? 1 : 0))
targets=${*:-${all_targets[*]}}
python3 tests/fuzz/corpus.py "$work/seeds" >/dev/null || exit 1

# fuzz_one TARGET: one target for $secs seconds, its log in $work/TARGET.log and its exit
# status in $work/TARGET.ret.
fuzz_one() {
	local t=$1 corpus=$work/corpus/$1 findings=$work/findings/$1 dict=() max_len=8192
	mkdir -p "$corpus" "$findings"
	# The text targets get the dictionary, and room for 20,000 nested parentheses: deep
	# nesting crashed the expression parser once, past the 8192 bytes the others get.
	case $t in
	jobfile | values) dict=(-dict="$work/seeds/iojob.dict") max_len=65536 ;;
	esac
	(cd "$incdir" && "$build/tests/fuzz/fuzz_$t" "${dict[@]}" -max_total_time="$secs" \
		-timeout=10 -rss_limit_mb=2048 -max_len=$max_len -print_final_stats=1 \
		-artifact_prefix="$findings/" ${IOJOB_FUZZ_FLAGS:-} "$corpus" "$work/seeds/$t") \
		>"$work/$t.log" 2>&1
	echo $? >"$work/$t.ret"
}

# Each target is one process on one core: as many run at once as there are cores, so that
# each gets its seconds of a core and the stage takes its seconds times targets / cores.
running=0
for t in $targets; do
	echo "== fuzz_$t for ${secs}s (log: $work/$t.log)"
	fuzz_one "$t" &
	running=$((running + 1))
	if [ $running -ge "$(nproc)" ]; then
		wait -n
		running=$((running - 1))
	fi
done
wait

status=0 nfailed=0 ntargets=0
summary=""
for t in $targets; do
	log=$work/$t.log findings=$work/findings/$t
	ret=$(cat "$work/$t.ret")
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	nfound=$(find "$findings" -type f | wc -l)
	ntargets=$((ntargets + 1))
	if [ "$ret" -ne 0 ]; then
		status=1
		nfailed=$((nfailed + 1))
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | head -5
	fi
	summary+="fuzz_$t: ${secs}s, ${execs:-?} executions, exit $ret, $nfound finding(s) in $findings"$'\n'
done
printf '%s' "$summary"
echo "fuzz: $((ntargets - nfailed)) target(s) clean, $nfailed failed"
exit $status
