#!/usr/bin/env bash
# The whole test suite: install what is missing, then build iojob three times and run every
# test in the plain build and with AddressSanitizer and UndefinedBehaviorSanitizer, and the
# tests that run several job threads at once (suite 'threads') with ThreadSanitizer; then
# each fuzz target for IOJOB_FUZZ_SECONDS (20) seconds.
# Check's closing lines are in the log; the last line is "N passed, N failed".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

tests/deps.sh test || exit 1
# fio's own example job files, for e2e/fio_examples.py (fetched once, kept in ~/.cache)
IOJOB_FIO_EXAMPLES=$(tests/fio_source.py examples) && export IOJOB_FIO_EXAMPLES
# and its own test scripts (t/*.py), for e2e/fio_scripts.py
IOJOB_FIO_SCRIPTS=$(tests/fio_source.py t) && export IOJOB_FIO_SCRIPTS

# Sanitizer findings must fail the test that triggered them, not scroll by.
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0

# Most of a test's time is spent waiting on a job's runtime=, on fio or on a device, not on a
# core: twice as many tests as cores run at once (the tests hold under load by design).
procs=$(($(nproc) * 2))

passed=0 failed=0 skipped=0
# run_build DIR [SETUP-OPTION...] [-- MESON-TEST-OPTION...]; TARGETS="a b" builds only those
# (what the tests chosen need), the whole tree otherwise.
run_build() {
	local dir=$1 setup=() args=(); shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do setup+=("$1"); shift; done
	[ $# -gt 0 ] && shift && args=("$@")
	echo "== $dir (${setup[*]}) ${args[*]}"
	local start=$SECONDS
	if [ -f "$dir/build.ninja" ]; then
		meson configure "$dir" "${setup[@]}" >/dev/null
	elif ! meson setup "$dir" "${setup[@]}"; then
		failed=$((failed + 1))
		return
	fi
	# shellcheck disable=SC2086 # TARGETS is a list of words
	if ! ninja -C "$dir" ${TARGETS:-}; then
		failed=$((failed + 1))
		return
	fi
	[ -n "${TARGETS:-}" ] && args+=(--no-rebuild)
	echo "== $dir built in $((SECONDS - start)) s"
	start=$SECONDS
	meson test -C "$dir" --print-errorlogs -v --num-processes "$procs" "${args[@]}"
	echo "== $dir tests ran in $((SECONDS - start)) s"
	local log=$dir/meson-logs/testlog.json
	passed=$((passed + $(grep -c '"result": "OK"' "$log")))
	skipped=$((skipped + $(grep -c '"result": "SKIP"' "$log")))
	failed=$((failed + $(grep -Ec '"result": "(FAIL|TIMEOUT|ERROR|UNEXPECTEDPASS)"' "$log")))
}

# iojob-mpi only in the plain build: OpenMPI's own allocations would drown LeakSanitizer.
run_build build -Dmpi=enabled
# The oracle's slice in the plain build alone: it judges what iojob does, not its memory.
run_build build-asan -Db_sanitize=address,undefined -Db_lundef=false -- --no-suite oracle
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 TARGETS="iojob tests/test_engines" \
	run_build build-tsan -Db_sanitize=thread -Db_lundef=false -- --suite threads

# The fuzz targets, briefly: that they build and run clean on their seeds and a little
# more (tests/fuzz/run.sh 600 is the long run). One test in the tally, failed by any finding.
echo "== fuzz (tests/fuzz/run.sh ${IOJOB_FUZZ_SECONDS:=20})"
start=$SECONDS
if tests/fuzz/run.sh "$IOJOB_FUZZ_SECONDS"; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
fi
echo "== fuzz built and ran in $((SECONDS - start)) s"

# Sub-cases a passing program skipped (the "SKIP: why" lines of an e2e script, and of a unit
# program's test_skipping()) count too.
subskips=$(cat build*/meson-logs/testlog.txt 2>/dev/null | grep -c '^SKIP: ' || true)
echo "($skipped skipped, and $subskips sub-cases skipped inside passing tests: their reasons" \
	"are in the log above)"
echo "(the whole suite took $((SECONDS / 60)) min $((SECONDS % 60)) s on $(nproc) cores)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
