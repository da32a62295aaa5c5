# tests/fault/build.sh - sourced by the tests/<area>/run.sh scripts: compiles
# a test program against $BUILD/libfenci.a with the sanitizer the library was
# built with (make asan / make ubsan), detected from the archive's symbols.
#   fenci_test_cc OUT SRC [extra flags...]
BUILD=${BUILD:-build}
FENCI=${FENCI:-./fenci}
fenci_test_cc() {
  out=$1; src=$2; shift 2
  lib=$BUILD/libfenci.a
  if [ ! -f "$lib" ]; then echo "missing $lib (run make first)" >&2; return 1; fi
  san=""
  if nm "$lib" 2>/dev/null | grep -q '__asan_'; then san="$san -fsanitize=address"; fi
  if nm "$lib" 2>/dev/null | grep -q '__ubsan_handle'; then san="$san -fsanitize=undefined -fno-sanitize-recover=all"; fi
  if [ "$san" = "" ] && nm "$lib" 2>/dev/null | grep -q '__tsan_'; then san="-fsanitize=thread"; fi
  mkdir -p "$(dirname "$out")"
  if [ -x "$out" ] && [ "$out" -nt "$src" ] && [ "$out" -nt "$lib" ]; then return 0; fi
  # shellcheck disable=SC2086
  ${CC:-cc} -std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g -Wall -Wextra $san -Iinclude -Isrc \
    -o "$out" "$src" "$lib" "$@" -lm -lpthread
}
# Compiles fuzz/mini-lexicon.txt (mini.fenci; mini-hmm.fenci with the unknown-
# word model from fuzz/mini-train.seg; and, when `fenci train` works, a tiny
# trained model mini-trained.fenci) into $BUILD/tests/data/.
fenci_test_models() {
  d=$BUILD/tests/data
  mkdir -p "$d"
  # rebuilt when the lexicon source or the fenci binary is newer (formats move)
  if [ ! -f "$d/mini.fenci" ] || [ fuzz/mini-lexicon.txt -nt "$d/mini.fenci" ] || [ "$FENCI" -nt "$d/mini.fenci" ]; then
    "$FENCI" compile fuzz/mini-lexicon.txt -o "$d/mini.fenci" >/dev/null || return 1
  fi
  if [ ! -f "$d/mini-hmm.fenci" ] || [ "$d/mini.fenci" -nt "$d/mini-hmm.fenci" ]; then
    "$FENCI" compile fuzz/mini-lexicon.txt --oov-corpus fuzz/mini-train.seg -o "$d/mini-hmm.fenci" >/dev/null 2>&1 ||
      rm -f "$d/mini-hmm.fenci"
  fi
  if [ ! -f "$d/mini-trained.fenci" ] || [ "$d/mini.fenci" -nt "$d/mini-trained.fenci" ]; then
    "$FENCI" train --lexicon "$d/mini.fenci" --train fuzz/mini-train.seg --iters 3 --min-count 1 \
      -o "$d/mini-trained.fenci" >/dev/null 2>&1 || rm -f "$d/mini-trained.fenci"
  fi
  return 0
}
