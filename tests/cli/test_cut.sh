#!/bin/sh
# test_cut.sh - `fenci cut` (and the dispatcher) from the outside: help,
# bad options, unreadable inputs, missing and corrupt models, -j N output
# identical to -j 1 on a generated multi-MB input with long lines, stdin,
# line counts, empty input, no final newline, user dictionaries.
# Usage: FENCI=./fenci sh tests/cli/test_cut.sh    (from the project root)
. tests/cli/lib.sh
cli_setup test_cut

# same NAME FILE1 FILE2
same() {
  runs=$((runs + 1))
  cmp -s "$2" "$3" || { fail "$1: $2 and $3 differ"; cmp "$2" "$3" | head -2 >&2; }
}

# ------------------------------------------------------------- a model
cat >"$TMP/lex.txt" <<'EOF'
我们 50
喜欢 40
自然 30
语言 30
自然语言 20
处理 40
自然语言处理 10
今天 20
天气 20
很 30
好 30
研究 50
研究生 20
生命 50
中华 10
人民 20
共和国 10
中华人民共和国 5
EOF
"$FENCI" compile "$TMP/lex.txt" -o "$TMP/m.fenci" 2>"$TMP/err" || { cat "$TMP/err" >&2; echo "test_cut.sh: compile failed" >&2; exit 1; }
M=$TMP/m.fenci

# ------------------------------------------------------------- help
run "fenci --help" 0 - -- --help
grep -q cut "$TMP/out" || fail "fenci --help does not list cut"
for sub in cut compile eval train check dump; do
  run "$sub --help" 0 - -- "$sub" --help
  [ -s "$TMP/out" ] || fail "$sub --help printed nothing on stdout"
done
run "cut -h" 0 - -- cut -h
grep -q -- "--mode" "$TMP/out" || fail "cut --help does not describe --mode"
run "--version" 0 - -- --version

# ------------------------------------------------------------- bad usage
run "no command" nonzero "usage" --
run "unknown command" 2 "unknown command" -- frobnicate
run "unknown option" 2 "unknown option" -- cut -m "$M" --bogus
run "-m without argument" 2 "needs an argument" -- cut -m
run "bad mode" 2 "unknown mode" -- cut -m "$M" --mode fast
run "bad format" 2 "unknown format" -- cut -m "$M" -f xml
run "-j 0" 2 "-j" -- cut -m "$M" -j 0
run "-j abc" 2 "-j" -- cut -m "$M" -j abc
run "-j 65" 2 "-j" -- cut -m "$M" -j 65

# ------------------------------------------------------------- inputs
printf '我们喜欢自然语言处理\n' >"$TMP/in1.txt"
run "missing input file" 1 "cannot open" -- cut -q -m "$M" "$TMP/nonexistent.txt"
grep -q "nonexistent.txt" "$TMP/err" || fail "missing input: message does not name the file"
run "directory as input" 1 "directory" -- cut -q -m "$M" "$TMP"
if [ "$(id -u)" -ne 0 ]; then
  cp "$TMP/in1.txt" "$TMP/noread.txt"
  chmod 000 "$TMP/noread.txt"
  run "unreadable input" 1 "cannot open" -- cut -q -m "$M" "$TMP/noread.txt"
fi
# a missing file after a good one: the good output is written, exit 1
run "good then missing" 1 "cannot open" -- cut -q -m "$M" "$TMP/in1.txt" "$TMP/nonexistent.txt"

# ------------------------------------------------------------- models
run "missing model path" 1 "not found" -- cut -q -m "$TMP/nope.fenci" "$TMP/in1.txt"
run "missing model name" 1 "not found" -- cut -q -m no_such_model_name "$TMP/in1.txt"
# a path that is there but no file says what it is (it said "not found")
run "model path a directory" 1 "a directory, not a regular file" -- cut -q -m "$TMP" "$TMP/in1.txt"
run "model path a device" 1 "not a regular file" -- cut -q -m /dev/null "$TMP/in1.txt"
run "model is a directory" 1 - -- cut -q -m "$TMP/" "$TMP/in1.txt"
: >"$TMP/empty.fenci"
run "empty model file" 1 "cannot open model" -- cut -q -m "$TMP/empty.fenci" "$TMP/in1.txt"
size=$(wc -c <"$M")
for cut_at in 1 8 63 64 100 $((size / 2)) $((size - 16)) $((size - 1)); do
  head -c "$cut_at" "$M" >"$TMP/trunc.fenci"
  run "model truncated to $cut_at bytes" 1 "cannot open model" -- cut -q -m "$TMP/trunc.fenci" "$TMP/in1.txt"
done
# one flipped byte in the body: opening checks structure, not the body CRC
# (start-up time), so cut either refuses the file or segments safely;
# `fenci check` verifies the CRC and must refuse it
{ head -c 300 "$M"; printf '\377'; tail -c +302 "$M"; } >"$TMP/flip.fenci"
"$FENCI" cut -q -m "$TMP/flip.fenci" "$TMP/in1.txt" >/dev/null 2>&1
st=$?
[ "$st" -le 1 ] || fail "corrupt model byte: cut died with status $st"
run "corrupt model byte (check)" 1 "CRC" -- check "$TMP/flip.fenci"
head -c 4096 /dev/urandom >"$TMP/garbage.fenci" 2>/dev/null || printf 'garbage%4000s' x >"$TMP/garbage.fenci"
run "garbage model" 1 "cannot open model" -- cut -q -m "$TMP/garbage.fenci" "$TMP/in1.txt"
cp "$TMP/lex.txt" "$TMP/text_as_model.fenci"
run "lexicon source as model" 1 "cannot open model" -- cut -q -m "$TMP/text_as_model.fenci" "$TMP/in1.txt"
# lookup by name through FENCI_MODEL_DIR
mkdir -p "$TMP/models"
cp "$M" "$TMP/models/mine.fenci"
runs=$((runs + 1))
FENCI_MODEL_DIR=$TMP/models "$FENCI" cut -q -m mine "$TMP/in1.txt" >"$TMP/out" 2>"$TMP/err" || fail "model by name via FENCI_MODEL_DIR: $(cat "$TMP/err")"
printf '我们 喜欢 自然语言处理\n' >"$TMP/want1"
same "model by name" "$TMP/want1" "$TMP/out"

# ------------------------------------------------------------- basic output
run "cut file" 0 - -- cut -q -m "$M" "$TMP/in1.txt"
same "cut file" "$TMP/want1" "$TMP/out"
cp "$TMP/in1.txt" "$TMP/stdin"
run "cut stdin" 0 - -- cut -q -m "$M"
same "cut stdin" "$TMP/want1" "$TMP/out"
run "cut -" 0 - -- cut -q -m "$M" -
same "cut -" "$TMP/want1" "$TMP/out"
rm -f "$TMP/stdin"
run "two files" 0 - -- cut -q -m "$M" "$TMP/in1.txt" "$TMP/in1.txt"
cat "$TMP/want1" "$TMP/want1" >"$TMP/want2"
same "two files" "$TMP/want2" "$TMP/out"
run "-d /" 0 - -- cut -q -m "$M" -d / "$TMP/in1.txt"
printf '我们/喜欢/自然语言处理\n' >"$TMP/want"
same "-d /" "$TMP/want" "$TMP/out"
run "-d tab" 0 - -- cut -q -m "$M" -d '\t' "$TMP/in1.txt"
printf '我们\t喜欢\t自然语言处理\n' >"$TMP/want"
same "-d tab" "$TMP/want" "$TMP/out"

# empty input: empty output in every format
: >"$TMP/empty.txt"
for f in text json lines; do
  run "empty input ($f)" 0 - -- cut -q -m "$M" -f "$f" "$TMP/empty.txt"
  [ -s "$TMP/out" ] && fail "empty input ($f): output is not empty"
done
# no final newline: none added (text); still one object per line (json)
printf '今天天气很好\n研究生命' >"$TMP/nonl.txt"
run "no final newline" 0 - -- cut -q -m "$M" "$TMP/nonl.txt"
printf '今天 天气 很 好\n研究 生命' >"$TMP/want"
same "no final newline" "$TMP/want" "$TMP/out"
run "no final newline (json)" 0 - -- cut -q -m "$M" -f json "$TMP/nonl.txt"
[ "$(wc -l <"$TMP/out")" -eq 2 ] || fail "no final newline (json): $(wc -l <"$TMP/out") lines, want 2"
# only newlines
printf '\n\n\r\n' >"$TMP/nl.txt"
run "only newlines" 0 - -- cut -q -m "$M" "$TMP/nl.txt"
same "only newlines" "$TMP/nl.txt" "$TMP/out"

# ------------------------------------------------------------- user dicts
printf '云计算\n区块链 1000\n' >"$TMP/user.txt"
printf '我们研究云计算和区块链\n' >"$TMP/in2.txt"
run "user dict" 0 - -- cut -q -m "$M" -u "$TMP/user.txt" "$TMP/in2.txt"
printf '我们 研究 云计算 和 区块链\n' >"$TMP/want"
same "user dict" "$TMP/want" "$TMP/out"
printf '云计算\n坏词 abc\n' >"$TMP/baduser.txt"
run "malformed user dict" 1 "line 2" -- cut -q -m "$M" -u "$TMP/baduser.txt" "$TMP/in2.txt"
run "missing user dict" 1 "nonexistent_user" -- cut -q -m "$M" -u "$TMP/nonexistent_user.txt" "$TMP/in2.txt"
: >"$TMP/emptyuser.txt"
run "empty user dict" 0 - -- cut -q -m "$M" -u "$TMP/emptyuser.txt" "$TMP/in2.txt"
run "empty user dict (/dev/null)" 0 - -- cut -q -m "$M" -u /dev/null "$TMP/in2.txt"
run "user dict is a directory" 1 "directory" -- cut -q -m "$M" -u "$TMP" "$TMP/in2.txt"

# ------------------------------------------------------------- -j N on MBs
# About 4 MB: many short lines (some CRLF, some blank, some with hostile
# bytes) and a few lines of 1.5 MB without punctuation (longer than one
# read batch), then a final line without a newline.
awk 'BEGIN {
  srand(20240611);
  split("我们 喜欢 自然语言处理 中华人民共和国 研究生命 今天 天气 很好 咖啡 abc 3.5% ，", w, " ");
  nw = 12;
  for (l = 0; l < 30000; l++) {
    n = int(rand() * 20);
    s = "";
    for (k = 0; k < n; k++) s = s w[int(rand() * nw) + 1];
    if (l % 53 == 0) s = s "\377\344\270";
    if (l % 97 == 0) s = s "\r";
    print s;
    if (l == 10000 || l == 20000) {
      s = "";
      for (k = 0; k < 1000; k++) s = s "我们喜欢自然语言处理研究生命今天天气很好";
      for (k = 0; k < 26; k++) printf "%s", s;
      print "";
    }
  }
  printf "最后一行没有换行";
}' >"$TMP/big.txt"
bytes=$(wc -c <"$TMP/big.txt")
[ "$bytes" -gt 3000000 ] || fail "generated input only $bytes bytes"
for f in text json; do
  run "-j 1 ($f)" 0 - -- cut -q -m "$M" -f "$f" -j 1 "$TMP/big.txt"
  mv "$TMP/out" "$TMP/j1.$f"
  run "-j 2 ($f)" 0 - -- cut -q -m "$M" -f "$f" -j 2 "$TMP/big.txt"
  same "-j 2 vs -j 1 ($f)" "$TMP/j1.$f" "$TMP/out"
done
run "-j 3 --search" 0 - -- cut -q -m "$M" --search -j 3 "$TMP/big.txt"
mv "$TMP/out" "$TMP/j3.s"
run "-j 1 --search" 0 - -- cut -q -m "$M" --search "$TMP/big.txt"
same "-j 3 vs -j 1 (search)" "$TMP/out" "$TMP/j3.s"
# line counts: text keeps every line end; json writes one line per input line
in_lines=$(wc -l <"$TMP/big.txt")
[ "$(wc -l <"$TMP/j1.text")" -eq "$in_lines" ] || fail "text: $(wc -l <"$TMP/j1.text") output lines, $in_lines input lines"
[ "$(wc -l <"$TMP/j1.json")" -eq $((in_lines + 1)) ] || fail "json: $(wc -l <"$TMP/j1.json") output lines, want $((in_lines + 1))"
tail -c 40 "$TMP/j1.text" | tr -d ' ' | grep -q '最后一行没有换行$' || fail "text output lost the last unterminated line"
# the JSON output parses, and offsets are contiguous in bytes and characters
if command -v python3 >/dev/null 2>&1; then
  runs=$((runs + 1))
  python3 - "$TMP/j1.json" "$TMP/big.txt" >"$TMP/pyerr" 2>&1 <<'EOF' || fail "json output: $(head -3 "$TMP/pyerr")"
import json, sys
lines = open(sys.argv[2], 'rb').read().split(b'\n')
for no, l in enumerate(open(sys.argv[1], encoding='utf-8')):
    toks = json.loads(l)['tokens']
    src = lines[no]
    if src.endswith(b'\r'):
        src = src[:-1]
    b = c = 0
    for t in toks:
        if t.get('extra'):
            continue
        assert t['s'] == b and t['cs'] == c, 'line %d: gap at %r' % (no + 1, t)
        w = src[t['s']:t['e']]
        if t['kind'] == 'invalid':
            assert t['w'] == '\ufffd' and len(w) == 1, 'line %d: %r' % (no + 1, t)
        else:
            assert w.decode('utf-8') == t['w'], 'line %d: %r is not %r' % (no + 1, t, w)
        assert t['ce'] - t['cs'] == len(t['w']), 'line %d: char span %r' % (no + 1, t)
        b, c = t['e'], t['ce']
    assert b == len(src), 'line %d: tokens cover %d of %d bytes' % (no + 1, b, len(src))
EOF
fi
# stdin through -j 2 equals the file
cp "$TMP/big.txt" "$TMP/stdin"
run "-j 2 stdin" 0 - -- cut -q -m "$M" -j 2
same "-j 2 stdin vs file" "$TMP/j1.text" "$TMP/out"
rm -f "$TMP/stdin"
# removing the separators rebuilds the input (apart from spaces, which the
# text format drops, and none are in the generated words)
runs=$((runs + 1))
tr -d ' ' <"$TMP/j1.text" | cmp -s - "$TMP/big.txt" || fail "text output without separators differs from the input"

# ------------------------------------------------------------- trained path
# A tiny model trained on our own sentences: the trained segmenter must be
# lossless too, -j 2 must equal -j 1, and --fast must give the lexicon path.
cat >"$TMP/corpus.txt" <<'EOF'
我们 喜欢 自然语言处理 。
今天 天气 很 好 ， 我们 去 公园 散步 。
他 在 图书馆 读书 ， 研究 生命 科学 。
中华人民共和国 成立 了 。
我们 研究 自然 语言 ， 也 研究 生命 。
今天 他 很 喜欢 读书 。
研究生 在 图书馆 研究 语言 。
EOF
runs=$((runs + 1))
if "$FENCI" train --lexicon "$M" --train "$TMP/corpus.txt" --iters 3 --min-count 1 -o "$TMP/tr.fenci" >/dev/null 2>"$TMP/err"; then
  run "trained -j 1" 0 - -- cut -q -m "$TMP/tr.fenci" "$TMP/big.txt"
  mv "$TMP/out" "$TMP/tr1.text"
  run "trained -j 2" 0 - -- cut -q -j 2 -m "$TMP/tr.fenci" "$TMP/big.txt"
  same "trained -j 2 vs -j 1" "$TMP/tr1.text" "$TMP/out"
  runs=$((runs + 1))
  tr -d ' ' <"$TMP/tr1.text" | cmp -s - "$TMP/big.txt" || fail "trained: output without separators differs from the input"
  [ "$(wc -l <"$TMP/tr1.text")" -eq "$in_lines" ] || fail "trained: line count changed"
  run "trained --fast" 0 - -- cut -q --fast -m "$TMP/tr.fenci" "$TMP/big.txt"
  same "trained --fast vs lexicon model" "$TMP/j1.text" "$TMP/out"
else
  fail "fenci train on a tiny corpus failed: $(head -3 "$TMP/err")"
fi

echo "test_cut.sh: $runs checks, $fails failed"
[ "$fails" -eq 0 ]
