#!/usr/bin/env bash
# Runs the whole test suite N times (default 20) and reports every run that failed.
# Usage: scripts/repeat-tests.sh [N]
set -u
runs="${1:-20}"
cd "$(dirname "$0")/.."
swift build --build-tests >/dev/null 2>&1 || { echo "build failed"; exit 1; }
failed=0
for i in $(seq 1 "$runs"); do
  log="$(mktemp)"
  if swift test >"$log" 2>&1; then
    summary="$(grep -E 'Test run with [0-9]+ tests' "$log" | tail -1)"
    echo "run $i: passed — $summary"
  else
    failed=$((failed + 1))
    echo "run $i: FAILED"
    grep -E '✘|error:' "$log" | head -20
  fi
  rm -f "$log"
done
echo "$failed of $runs runs failed"
[ "$failed" -eq 0 ]
