#!/bin/sh
# tests/pathological/run.sh - 1 MB vs 10 MB timing ratios on pathological
# inputs (see path.c).  make check: the mini lexicon and the tiny trained
# model; sanitizer builds use sizes / 2 (same 1:10 ratio).
# PATHOLOGICAL_LONG=1 (make fuzz) adds the shipped models/*.fenci.
set -eu
. tests/fault/build.sh
fenci_test_cc "$BUILD/tests/path" tests/pathological/path.c
fenci_test_models
set -- "$BUILD/tests/data/mini.fenci"
for m in mini-hmm mini-trained; do
  [ -f "$BUILD/tests/data/$m.fenci" ] && set -- "$@" "$BUILD/tests/data/$m.fenci"
done
if [ "${PATHOLOGICAL_LONG:-0}" = 1 ]; then
  for m in models/*.fenci; do [ -f "$m" ] && set -- "$@" "$m"; done
fi
scale=1
if nm "$BUILD/libfenci.a" 2>/dev/null | grep -qE '__asan_|__ubsan_handle|__tsan_'; then scale=2; fi
long=""; [ "${PATHOLOGICAL_LONG:-0}" = 1 ] && long=-l
"$BUILD/tests/path" $long -x "$scale" "$@"
