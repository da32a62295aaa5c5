#!/bin/sh
# tests/sqlite/run.sh - the FTS5 extension (sqlite/fenci_fts5.c) against the
# system's SQLite: from C (test_fts5.c, -lsqlite3), from Python's sqlite3
# module (test_fts5.py) and in the sqlite3 shell (shell.sql, its output
# compared with shell.expect); then `fenci index` and `fenci search`
# (test_index.py, which needs the shipped default model).  Builds the
# extension and fenci-sqlite (next to $FENCI) with $MAKE (make check passes
# its own, so make asan / make ubsan test their builds).
# Needs libsqlite3-dev and sqlite3: installed with apt-get when missing and
# running as root; otherwise the test says SKIP and passes.
# SQLITE_PY is the Python (default /usr/bin/python3: Debian's has
# enable_load_extension); SQLITE_SEED fixes the C test's random inputs.
set -eu
BUILD=${BUILD:-build}
FENCI=${FENCI:-./fenci}
MAKE=${MAKE:-make}
PY=${SQLITE_PY:-/usr/bin/python3}

have_deps() {
  printf '#include <sqlite3ext.h>\n' | ${CC:-cc} -E -x c - >/dev/null 2>&1 &&
    command -v sqlite3 >/dev/null 2>&1
}

. tests/host.sh
fenci_need tests/sqlite have_deps libsqlite3-dev sqlite3

# The sanitizer the library was built with, for a build outside make asan/ubsan
# and for the programs that load the extension.
lib=$BUILD/libfenci.a
san=""
if nm "$lib" 2>/dev/null | grep -q '__asan_'; then san="-fsanitize=address -fno-omit-frame-pointer"; fi
if nm "$lib" 2>/dev/null | grep -q '__ubsan_handle'; then san="$san -fsanitize=undefined -fno-sanitize-recover=all"; fi
if [ -n "${MAKEFLAGS:-}" ] || [ -z "$san" ]; then
  $MAKE --no-print-directory -s BUILD="$BUILD" BIN="$FENCI" sqlite
else
  $MAKE --no-print-directory -s BUILD="$BUILD" BIN="$FENCI" CFLAGS="-O1 -g $san" LDLIBS="-lm -lpthread $san" sqlite
fi
ext=$BUILD/sqlite/fenci_fts5.so
fenci_host_preload "$ext"

# The test model: tests/sqlite/lexicon.txt, whose segmentation the tests name.
data=$BUILD/tests/data
model=$data/sqlite_test.fenci
mkdir -p "$data"
if [ ! -f "$model" ] || [ tests/sqlite/lexicon.txt -nt "$model" ] || [ "$FENCI" -nt "$model" ]; then
  "$FENCI" compile tests/sqlite/lexicon.txt -o "$model" >/dev/null
fi
shipped=""
[ -f models/ctb.fenci ] && shipped=models/ctb.fenci

fail=0
echo "-- C (test_fts5.c)"
"$BUILD/sqlite/test_fts5" "$ext" "$model" ${SQLITE_SEED:-} || fail=1

echo "-- Python ($PY)"
if "$PY" -c 'import sqlite3; sqlite3.connect(":memory:").enable_load_extension' 2>/dev/null; then
  run_host "$PY" tests/sqlite/test_fts5.py "$ext" "$model" $shipped || fail=1
else
  echo "SKIP: $PY cannot load SQLite extensions (set SQLITE_PY to a Python whose sqlite3 has enable_load_extension)"
fi

echo "-- sqlite3 shell ($(sqlite3 --version | cut -d' ' -f1))"
out=$BUILD/sqlite/shell.out
FENCI_MODEL_DIR=$data run_host sqlite3 -batch -cmd ".load $ext" :memory: < tests/sqlite/shell.sql > "$out" 2> "$out.err" || true
if ! diff -u tests/sqlite/shell.expect "$out"; then
  echo "FAIL: sqlite3 shell output differs from tests/sqlite/shell.expect"
  fail=1
fi
nerr=$(grep -c 'error in tokenizer constructor' "$out.err" || true)
if [ "$nerr" != 2 ] || [ "$(wc -l < "$out.err")" != 2 ]; then
  echo "FAIL: sqlite3 shell: expected two tokenizer errors on stderr, got:"
  cat "$out.err"
  fail=1
fi
[ $fail = 0 ] && echo "sqlite3 shell: $(wc -l < tests/sqlite/shell.expect) lines as expected"

echo "-- fenci index / search (test_index.py)"
models=${FENCI_MODEL_DIR:-models}
if [ ! -f "$models/ctb.fenci" ]; then
  echo "SKIP: no $models/ctb.fenci (the default model)"
elif "$PY" -c 'import sqlite3; sqlite3.connect(":memory:").enable_load_extension' 2>/dev/null; then
  run_host "$PY" tests/sqlite/test_index.py "$FENCI" "$ext" "$models" || fail=1
else
  echo "SKIP: $PY cannot load SQLite extensions"
fi
exit $fail
