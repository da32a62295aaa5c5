#!/bin/sh
# test_files.sh - user words and model files from the outside: user words in
# traditional and full-width characters match (default trained model and
# --fast); /dev/zero as a model, to check, to dump and as a user dictionary
# fails at once; a model through a pipe; fenci dump and fenci check on a
# model truncated or rewritten in place (sizes, CRCs, hints).
# Usage: FENCI=./fenci sh tests/cli/test_files.sh    (from the project root)
. tests/cli/lib.sh
cli_setup test_files

# expect NAME WANT: $TMP/out must be exactly the line WANT
expect() {
  runs=$((runs + 1))
  printf '%s\n' "$2" >"$TMP/want"
  cmp -s "$TMP/out" "$TMP/want" || fail "$1: got '$(cat "$TMP/out")', want '$2'"
}

: >"$TMP/stdin"

# ------------------------------------------------- user words, normalised
printf '龍貓公車\nＢ站\n' >"$TMP/user.txt"
if "$FENCI" cut -q </dev/null >/dev/null 2>&1; then
  for opt in "" --fast; do
    printf '我坐龍貓公車。\n' >"$TMP/stdin"
    run "traditional user word $opt" 0 - -- cut $opt -u "$TMP/user.txt"
    expect "traditional user word $opt" "我 坐 龍貓公車 。"
    printf '我坐龙猫公车。\n' >"$TMP/stdin"
    run "traditional user word, simplified text $opt" 0 - -- cut $opt -u "$TMP/user.txt"
    expect "traditional user word, simplified text $opt" "我 坐 龙猫公车 。"
    printf '他於是走了。\n' >"$TMP/stdin"
    run "traditional 於 read as 于 $opt" 0 - -- cut $opt
    expect "traditional 於 read as 于 $opt" "他 於是 走 了 。"
    printf '他说Ｂ站好。\n' >"$TMP/stdin"
    run "full-width user word $opt" 0 - -- cut $opt -u "$TMP/user.txt"
    expect "full-width user word $opt" "他 说 Ｂ站 好 。"
  done
  : >"$TMP/stdin"
else
  echo "test_files.sh: no default model, user-word cases skipped" >&2
fi

# ------------------------------------------------- /dev/zero, pipes
printf '北京 120 ns\n大学 80 n\n北京大学 40 nt\n' >"$TMP/lex.txt"
"$FENCI" compile "$TMP/lex.txt" -o "$TMP/m.fenci" 2>"$TMP/err" || { cat "$TMP/err" >&2; exit 1; }
if [ -r /dev/zero ]; then
  run "check /dev/zero" 1 "not a fenci model" -- check /dev/zero
  run "dump /dev/zero" 1 "not a fenci model" -- dump /dev/zero
  run "cut -m /dev/zero" 1 - -- cut -q -m /dev/zero "$TMP/lex.txt"
  run "cut -u /dev/zero" 1 "line 1" -- cut -q -m "$TMP/m.fenci" -u /dev/zero "$TMP/lex.txt"
fi
runs=$((runs + 1))
cat "$TMP/m.fenci" | timeout 20 "$FENCI" check /dev/stdin >"$TMP/out" 2>"$TMP/err" ||
  fail "check of a model through a pipe: $(cat "$TMP/err")"
runs=$((runs + 1))
{ cat "$TMP/m.fenci"; printf 'x'; } | timeout 20 "$FENCI" check /dev/stdin >"$TMP/out" 2>"$TMP/err" &&
  fail "check of a model with a trailing byte through a pipe succeeded"
grep -q trailing "$TMP/err" || fail "piped trailing byte: $(cat "$TMP/err")"

# ------------------------------------------------- dump and check diagnose
run "dump good" 0 - -- dump "$TMP/m.fenci"
size=$(wc -c <"$TMP/m.fenci" | tr -d ' ')
grep -q "^size: $size bytes, the header says $size\$" "$TMP/out" || fail "dump: size line: $(grep size "$TMP/out")"
grep -q "^header CRC: .*: ok\$" "$TMP/out" || fail "dump: no header CRC ok"
grep -q "^body CRC: stored 0x[0-9a-f]*, computed 0x[0-9a-f]* over bytes 64..$size: ok\$" "$TMP/out" ||
  fail "dump: no body CRC ok: $(grep CRC "$TMP/out")"
grep -q "^  LEXT  offset [0-9]*  size [0-9]*\$" "$TMP/out" || fail "dump: no LEXT line"
grep -q "lexicon words: 3" "$TMP/out" || fail "dump: no word count"
# rewritten in place: same size, a changed byte near the end
cp "$TMP/m.fenci" "$TMP/w.fenci"
printf 'Z' | dd of="$TMP/w.fenci" bs=1 seek=$((size - 3)) conv=notrunc 2>/dev/null
run "check rewritten" 1 "rewritten in place" -- check "$TMP/w.fenci"
run "dump rewritten" 0 - -- dump "$TMP/w.fenci"
grep -q "^body CRC: .*MISMATCH (the bytes changed after the file was written" "$TMP/out" ||
  fail "dump rewritten: $(grep CRC "$TMP/out")"
# truncated: both sizes, and the sections past the end
head -c $((size / 2)) "$TMP/m.fenci" >"$TMP/t.fenci"
run "check truncated" 1 "header says $size bytes, file has $((size / 2))" -- check "$TMP/t.fenci"
run "dump truncated" 1 "cannot open model" -- dump "$TMP/t.fenci"
grep -q "^size: $((size / 2)) bytes, the header says $size: TRUNCATED" "$TMP/out" ||
  fail "dump truncated: $(head -3 "$TMP/out")"
grep -q "PAST THE END OF THE FILE" "$TMP/out" || fail "dump truncated: no section past the end"

# ------------------------------------- FENCI_NO_MMAP: immune to truncation
# The model is read into memory: truncating its file while cut runs does
# not kill the process (a mapped model would get SIGBUS), and the output
# is the same as with an untouched file.
if [ -f models/lexicon.fenci ]; then
  awk 'BEGIN { for (i = 0; i < 100000; i++) print "拿破仑在枫丹白露签署了退位诏书。1814年4月6日" }' >"$TMP/long.txt"
  "$FENCI" cut -m models/lexicon.fenci "$TMP/long.txt" >"$TMP/want" 2>/dev/null
  cp models/lexicon.fenci "$TMP/nm.fenci"
  runs=$((runs + 1))
  FENCI_NO_MMAP=1 "$FENCI" cut -q -m "$TMP/nm.fenci" "$TMP/long.txt" >"$TMP/got" 2>"$TMP/err" &
  pid=$!
  # truncated once the model is read (the first output comes after it),
  # not after a fixed delay: a slow or loaded machine (CI's ubsan build)
  # had not read 24 MB after 50 ms
  i=0
  while [ ! -s "$TMP/got" ] && kill -0 "$pid" 2>/dev/null && [ "$i" -lt 3000 ]; do
    sleep 0.01
    i=$((i + 1))
  done
  truncate -s 4096 "$TMP/nm.fenci"
  wait $pid || fail "FENCI_NO_MMAP cut exited $? after its model was truncated: $(cat "$TMP/err")"
  cmp -s "$TMP/want" "$TMP/got" || fail "FENCI_NO_MMAP: output differs after the model was truncated"
fi

echo "test_files.sh: $runs checks, $fails failed"
[ "$fails" -eq 0 ]
