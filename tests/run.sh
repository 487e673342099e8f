#!/usr/bin/env bash
# The whole test suite: install what is missing, then build iojob twice (plain, and with
# AddressSanitizer and UndefinedBehaviorSanitizer) and run every test in both builds.
# Check's closing lines are in the log; the last line is "N passed, N failed".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

tests/deps.sh test || exit 1

# Sanitizer findings must fail the test that triggered them, not scroll by.
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0

passed=0 failed=0 skipped=0
run_build() {
	local dir=$1; shift
	echo "== $dir ($*)"
	if [ -f "$dir/build.ninja" ]; then
		meson configure "$dir" "$@" >/dev/null
	elif ! meson setup "$dir" "$@"; then
		failed=$((failed + 1))
		return
	fi
	if ! ninja -C "$dir"; then
		failed=$((failed + 1))
		return
	fi
	meson test -C "$dir" --print-errorlogs -v
	local log=$dir/meson-logs/testlog.json
	passed=$((passed + $(grep -c '"result": "OK"' "$log")))
	skipped=$((skipped + $(grep -c '"result": "SKIP"' "$log")))
	failed=$((failed + $(grep -Ec '"result": "(FAIL|TIMEOUT|ERROR|UNEXPECTEDPASS)"' "$log")))
}

# iojob-mpi only in the plain build: OpenMPI's own allocations would drown LeakSanitizer.
run_build build -Dmpi=enabled
run_build build-asan -Db_sanitize=address,undefined -Db_lundef=false

echo "($skipped skipped: their reasons are in the log above)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
