#!/bin/sh
# tests/golden/run.sh - MeCab-style golden cases.
#
# Each directory tests/golden/<case>/ with an input.txt holds:
#   lexicon.txt  lexicon source, compiled with `$FENCI compile`
#   input.txt    text to segment
#   expect.txt   the exact expected output of `fenci cut`
#   args         (optional) extra `fenci cut` options, e.g. "-f json"
# The case runs inside its directory, so args may name files there
# (e.g. "-u user.txt").  Every case is also run with -j 2, which must give
# the same bytes.  A new case needs no C: add a directory.
# Directories without input.txt (repro/) belong to the unit tests.
# Usage: FENCI=./fenci sh tests/golden/run.sh [CASE...]   (from the project root)
FENCI=${FENCI:-./fenci}
case $FENCI in
/*) ;;
*) FENCI=$(pwd)/$FENCI ;;
esac
if [ ! -x "$FENCI" ]; then
  echo "golden: $FENCI not found (build it, or set FENCI)" >&2
  exit 1
fi
G=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/fenci_golden.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
fails=0
runs=0

if [ $# -gt 0 ]; then cases=$*; else cases=$(cd "$G" && ls); fi
for c in $cases; do
  d=$G/$c
  [ -f "$d/input.txt" ] || continue
  runs=$((runs + 1))
  if ! "$FENCI" compile "$d/lexicon.txt" -o "$TMP/$c.fenci" 2>"$TMP/err"; then
    echo "FAIL golden/$c: compile failed: $(cat "$TMP/err")" >&2
    fails=$((fails + 1))
    continue
  fi
  args=
  [ -f "$d/args" ] && args=$(cat "$d/args")
  # shellcheck disable=SC2086
  (cd "$d" && "$FENCI" cut -q -m "$TMP/$c.fenci" $args input.txt) >"$TMP/out" 2>"$TMP/err"
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "FAIL golden/$c: fenci cut exited $rc: $(cat "$TMP/err")" >&2
    fails=$((fails + 1))
    continue
  fi
  if ! cmp -s "$d/expect.txt" "$TMP/out"; then
    echo "FAIL golden/$c: output differs from expect.txt (- expected, + actual):" >&2
    diff -u "$d/expect.txt" "$TMP/out" | sed -n '3,40p' >&2
    fails=$((fails + 1))
    continue
  fi
  # shellcheck disable=SC2086
  (cd "$d" && "$FENCI" cut -q -j 2 -m "$TMP/$c.fenci" $args input.txt) >"$TMP/out2" 2>"$TMP/err"
  if ! cmp -s "$TMP/out" "$TMP/out2"; then
    echo "FAIL golden/$c: -j 2 output differs from -j 1" >&2
    fails=$((fails + 1))
  fi
done
echo "golden: $runs cases, $fails failed"
[ $fails -eq 0 ]
