#!/bin/sh
# tests/fault/run.sh - allocation-failure injection over model loading, lexicon
# compilation, user dictionaries, taggers and segmentation (see fault.c).
# Uses the mini test lexicon, a tiny trained model when `fenci train` works,
# and every shipped models/*.fenci (set FAULT_SHIPPED=0 to skip those).
set -eu
. tests/fault/build.sh
fenci_test_cc "$BUILD/tests/fault" tests/fault/fault.c
fenci_test_models
set -- "$BUILD/tests/data/mini.fenci"
for m in mini-hmm mini-trained; do
  [ -f "$BUILD/tests/data/$m.fenci" ] && set -- "$@" "$BUILD/tests/data/$m.fenci"
done
if [ "${FAULT_SHIPPED:-1}" = 1 ]; then
  for m in models/*.fenci; do [ -f "$m" ] && set -- "$@" "$m"; done
fi
FAULT_TMP="$BUILD/tests/fault-dict.txt" FAULT_CORPUS=fuzz/mini-train.seg "$BUILD/tests/fault" fuzz/mini-lexicon.txt fuzz/seeds/compile/jieba-head.txt "$@"
