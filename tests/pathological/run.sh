#!/bin/sh
# tests/pathological/run.sh - linear-time checks on pathological inputs (see
# path.c) in every mode: every shipped model (models/*.fenci) in a normal
# build; sanitizer builds, several times slower, run sizes / 4 (the same
# 1:10 ratio) on the fuzzers' mini models and the shipped lexicon.
set -eu
. tests/fault/build.sh
fenci_test_cc "$BUILD/tests/path" tests/pathological/path.c
set --
scale=1
if nm "$BUILD/libfenci.a" 2>/dev/null | grep -qE '__asan_|__ubsan_handle|__tsan_'; then scale=4; fi
if [ "$scale" = 1 ]; then
  for m in models/*.fenci; do [ -f "$m" ] && set -- "$@" "$m"; done
else
  fenci_test_models
  for m in mini mini-hmm mini-trained; do
    [ -f "$BUILD/tests/data/$m.fenci" ] && set -- "$@" "$BUILD/tests/data/$m.fenci"
  done
  [ -f models/lexicon.fenci ] && set -- "$@" models/lexicon.fenci
fi
threads=$(nproc 2>/dev/null || echo 2)
[ "$threads" -gt 2 ] && threads=2
"$BUILD/tests/path" -x "$scale" -j "$threads" "$@"
