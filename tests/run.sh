#!/bin/sh
# tests/run.sh - runs every script test after the unit tests (called by make check).
# Each tests/*/run.sh and tests/cli/test_*.sh gets FENCI (the binary) and BUILD.
set -u
BUILD=${BUILD:-build}
FENCI=${FENCI:-./fenci}
export BUILD FENCI
fail=0
for t in tests/cli/test_*.sh tests/*/run.sh; do
  [ -f "$t" ] || continue
  echo "== $t"
  if ! sh "$t"; then
    echo "FAILED: $t"
    fail=1
  fi
done
exit $fail
