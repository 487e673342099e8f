#!/usr/bin/env bash
# Quick start: install what is missing, build iojob, and run examples/quickstart.fio on a
# small file in a temporary directory that is removed afterwards.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

tests/deps.sh build
[ -f build/build.ninja ] || meson setup build >/dev/null
ninja -C build >/dev/null

dir=$(mktemp -d "${TMPDIR:-/var/tmp}/iojob-quickstart.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cd "$dir"
"$top/build/iojob" "$top/examples/quickstart.fio"
