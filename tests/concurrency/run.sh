#!/bin/sh
# tests/concurrency/run.sh - 8 threads share one model (see conc.c): the mini
# test lexicon, the tiny trained model and every shipped models/*.fenci.
# `make tsan` runs this with BUILD=build-tsan (a ThreadSanitizer library).
set -eu
. tests/fault/build.sh
fenci_test_cc "$BUILD/tests/conc" tests/concurrency/conc.c
fenci_test_models
set -- "$BUILD/tests/data/mini.fenci"
for m in mini-hmm mini-trained; do
  [ -f "$BUILD/tests/data/$m.fenci" ] && set -- "$@" "$BUILD/tests/data/$m.fenci"
done
for m in models/*.fenci; do [ -f "$m" ] && set -- "$@" "$m"; done
rounds=40
if nm "$BUILD/libfenci.a" 2>/dev/null | grep -q '__tsan_'; then rounds=12; fi
"$BUILD/tests/conc" -r "$rounds" "$@"
