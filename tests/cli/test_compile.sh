#!/bin/sh
# test_compile.sh - `fenci compile`, `fenci check` and `fenci dump` from the
# outside: good sources, malformed lines (exit 1, "line N", no output file
# left behind), usage errors, unwritable outputs, determinism, and check /
# dump on damaged files (a clean exit 1, never a signal).
# Usage: FENCI=./fenci sh tests/cli/test_compile.sh    (from the project root)
. tests/cli/lib.sh
cli_setup test_compile

printf '# test lexicon\n北京 120 ns\n大学 80 n\n北京大学 40 nt\n学生 90\n生活\n' >"$TMP/good.txt"

# ------------------------------------------------------------- success
run "compile" 0 - -- compile "$TMP/good.txt" -o "$TMP/a.fenci"
[ -s "$TMP/a.fenci" ] || fail "compile wrote no output"
[ -e "$TMP/a.fenci.tmp" ] && fail "compile left a.fenci.tmp behind"
run "compile again" 0 - -- compile "$TMP/good.txt" -o "$TMP/b.fenci"
runs=$((runs + 1))
cmp -s "$TMP/a.fenci" "$TMP/b.fenci" || fail "two compilations of the same source differ"
run "-o before source" 0 - -- compile -o "$TMP/c.fenci" "$TMP/good.txt"
runs=$((runs + 1))
cmp -s "$TMP/a.fenci" "$TMP/c.fenci" || fail "option order changes the output"
run "compile stdin" 0 - -- compile - -o "$TMP/d.fenci"
"$FENCI" compile - -o "$TMP/d.fenci" <"$TMP/good.txt" 2>"$TMP/err" || fail "compile from stdin: $(cat "$TMP/err")"
runs=$((runs + 1))
cmp -s "$TMP/a.fenci" "$TMP/d.fenci" || fail "compile from stdin differs from the file"
run "check good" 0 - -- check "$TMP/a.fenci"
grep -q ok "$TMP/out" || fail "check printed no 'ok'"
run "dump good" 0 - -- dump "$TMP/a.fenci"
grep -q "lexicon words: 5" "$TMP/out" || fail "dump does not report 5 words: $(cat "$TMP/out")"
# overwriting an existing output works
run "overwrite" 0 - -- compile "$TMP/good.txt" -o "$TMP/a.fenci"
printf '' >"$TMP/empty.txt"
run "empty source" 0 - -- compile "$TMP/empty.txt" -o "$TMP/e.fenci"
run "check empty lexicon" 0 - -- check "$TMP/e.fenci"

# ------------------------------------------------------------- malformed
i=0
while IFS='|' read -r content lineno; do
  i=$((i + 1))
  printf "$content" >"$TMP/bad$i.txt"
  rm -f "$TMP/bad.fenci"
  run "malformed source $i" 1 "line $lineno" -- compile "$TMP/bad$i.txt" -o "$TMP/bad.fenci"
  grep -q "bad$i.txt" "$TMP/err" || fail "malformed source $i: message does not name the file"
  [ -e "$TMP/bad.fenci" ] && fail "malformed source $i: an output file was written"
  [ -e "$TMP/bad.fenci.tmp" ] && fail "malformed source $i: a temporary file was left"
done <<'EOF'
词 abc\n|1
好 1\n词 -3\n|2
好 1\n\n# c\n词 1 n x\n|4
\377\376 3\n|1
好 1\r\n词 1 n!\r\n|2
词 1e3\n|1
EOF
# a bad line does not destroy an existing output
cp "$TMP/a.fenci" "$TMP/keep.fenci"
run "bad source keeps old output" 1 "line 1" -- compile "$TMP/bad1.txt" -o "$TMP/keep.fenci"
runs=$((runs + 1))
cmp -s "$TMP/a.fenci" "$TMP/keep.fenci" || fail "a failed compile changed the existing output"

# an output that exists and is not a regular file (a FIFO here; /dev/null
# for a careless root) must not be replaced by a regular file: write into it
# or refuse
if mkfifo "$TMP/fifo" 2>/dev/null; then
  runs=$((runs + 1))
  cat "$TMP/fifo" >"$TMP/fromfifo" &
  reader=$!
  "$FENCI" compile "$TMP/good.txt" -o "$TMP/fifo" >/dev/null 2>"$TMP/err"
  crc=$?
  [ -p "$TMP/fifo" ] || fail "compile -o FIFO replaced the FIFO with a regular file (exit $crc)"
  if [ -p "$TMP/fifo" ]; then
    [ $crc -ne 0 ] && : >"$TMP/fifo" # refused: give the reader its EOF
  else
    kill "$reader" 2>/dev/null # it waits on the unlinked FIFO forever
  fi
  wait "$reader" 2>/dev/null
  if [ $crc -eq 0 ] && [ -p "$TMP/fifo" ]; then
    cmp -s "$TMP/fromfifo" "$TMP/a.fenci" || fail "compile -o FIFO: the reader got other bytes"
  fi
fi

# ------------------------------------------------------------- usage
run "no arguments" 2 "usage" -- compile
run "no -o" 2 "usage" -- compile "$TMP/good.txt"
run "-o without name" 2 "-o" -- compile "$TMP/good.txt" -o
run "unknown option" 2 "unknown option" -- compile "$TMP/good.txt" -o "$TMP/x.fenci" --frob
run "two sources" 2 "one SOURCE" -- compile "$TMP/good.txt" "$TMP/good.txt" -o "$TMP/x.fenci"
run "missing source" 1 "cannot open" -- compile "$TMP/nonexistent.txt" -o "$TMP/x.fenci"
run "unwritable output" 1 "cannot create" -- compile "$TMP/good.txt" -o "$TMP/no/such/dir/x.fenci"
run "check without args" 2 "usage" -- check
run "dump without args" 2 "usage" -- dump

# ------------------------------------------------------------- damaged files
size=$(wc -c <"$TMP/a.fenci")
for cut_at in 0 1 32 64 $((size / 2)) $((size - 1)); do
  head -c "$cut_at" "$TMP/a.fenci" >"$TMP/t.fenci"
  run "check truncated $cut_at" 1 - -- check "$TMP/t.fenci"
  [ -s "$TMP/err" ] || fail "check truncated $cut_at: no message"
  run "dump truncated $cut_at" 1 "cannot open model" -- dump "$TMP/t.fenci"
done
for at in 0 4 8 20 100 $((size - 1)); do
  { head -c "$at" "$TMP/a.fenci"; printf '\125'; tail -c +$((at + 2)) "$TMP/a.fenci"; } >"$TMP/f.fenci"
  cmp -s "$TMP/f.fenci" "$TMP/a.fenci" && continue # the byte was already 0x55
  run "check corrupt byte $at" 1 - -- check "$TMP/f.fenci"
done
run "check missing file" 1 - -- check "$TMP/nonexistent.fenci"
run "check a directory" 1 - -- check "$TMP"
run "check one bad of two" 1 - -- check "$TMP/a.fenci" "$TMP/t.fenci"

echo "test_compile.sh: $runs checks, $fails failed"
[ "$fails" -eq 0 ]
