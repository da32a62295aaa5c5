#!/bin/sh
# tests/corrupt/run.sh - every truncation and 1,000 seeded random bit flips of
# the compiled test models (see corrupt.c); repaired truncations: every
# length within 4 KiB of either end, every 61st in between.  CORRUPT_SEED fixes the seed;
# CORRUPT_LONG=1 (make fuzz) adds the shipped models/*.fenci.
set -eu
. tests/fault/build.sh
fenci_test_cc "$BUILD/tests/corrupt" tests/corrupt/corrupt.c
fenci_test_models
seed=${CORRUPT_SEED:-$(date +%s)}
set -- "$BUILD/tests/data/mini.fenci"
for m in mini-hmm mini-trained; do
  [ -f "$BUILD/tests/data/$m.fenci" ] && set -- "$@" "$BUILD/tests/data/$m.fenci"
done
"$BUILD/tests/corrupt" -s "$seed" -f 1000 -t 61 "$@"
if [ "${CORRUPT_LONG:-0}" = 1 ]; then
  for m in models/*.fenci; do
    [ -f "$m" ] && "$BUILD/tests/corrupt" -s "$seed" -f 1000 -t 4096 "$m"
  done
fi
exit 0
