#!/bin/sh
# test_long_lines.sh - `fenci cut` on single lines far longer than its read
# batches: peak memory must not grow with the line length (a 4 MB line
# against one 4 or 8 times longer, in every format, with -j 1 and -j 2, and with
# --all and nested user words, whose output is a hundred times the input),
# and cutting a line into pieces must change no token: the output equals the
# segmentation of the repeated sentence, -j 2 equals -j 1, and JSON offsets
# run on across the pieces.
# Usage: FENCI=./fenci BUILD=build sh tests/cli/test_long_lines.sh   (from the project root)
. tests/cli/lib.sh
cli_setup test_long_lines

MAXRSS=$BUILD/tests/maxrss
mkdir -p "$BUILD/tests"
if [ ! -x "$MAXRSS" ] || [ tests/cli/maxrss.c -nt "$MAXRSS" ]; then
  ${CC:-cc} -O1 -o "$MAXRSS" tests/cli/maxrss.c || { echo "test_long_lines.sh: cannot build maxrss" >&2; exit 1; }
fi
# Peak RSS may grow by this much (KiB) from the short line to the long one;
# before the fix text output grew by twice the line (60 MB here), JSON by 20 times.
SLACK=8192

printf '我们 50\n喜欢 40\n自然 30\n语言 30\n自然语言 20\n处理 40\n自然语言处理 10\n研究 50\n研究生 20\n生命 50\n' >"$TMP/lex.txt"
"$FENCI" compile "$TMP/lex.txt" -o "$TMP/m.fenci" 2>"$TMP/err" || { cat "$TMP/err" >&2; exit 1; }
M=$TMP/m.fenci

# rep TEXT N FILE [SEP]: TEXT repeated 2^N times, SEP between the copies
rep() {
  printf '%s' "$1" >"$3"
  k=0
  while [ "$k" -lt "$2" ]; do
    { cat "$3"; printf '%s' "${4:-}"; cat "$3"; } >"$3.tmp" && mv "$3.tmp" "$3"
    k=$((k + 1))
  done
}

# rss NAME FILE ARGS...: runs fenci cut on FILE into $TMP/out.NAME; the
# peak RSS in KiB goes to $TMP/rss.NAME
rss() {
  name=$1 file=$2
  shift 2
  runs=$((runs + 1))
  "$MAXRSS" "$TMP/rss.$name" "$FENCI" cut -q -m "$M" "$@" "$file" >"$TMP/out.$name" 2>"$TMP/err"
  st=$?
  [ "$st" -eq 0 ] || { fail "$name: exit $st: $(head -3 "$TMP/err")"; echo 0 >"$TMP/rss.$name"; }
}

# bounded NAME: rss.NAME.long must stay within SLACK of rss.NAME.short
bounded() {
  runs=$((runs + 1))
  s=$(cat "$TMP/rss.$1.short") l=$(cat "$TMP/rss.$1.long")
  [ "$l" -le $((s + SLACK)) ] || fail "$1: peak RSS $s KiB on the short line, $l KiB on the long one"
}

# ------------------------------------------------------------- with punctuation
rep '我们喜欢自然语言处理，' 17 "$TMP/short"   # 4.3 MB, one line, no newline
rep '我们喜欢自然语言处理，' 20 "$TMP/long"    # 34.6 MB
rep '我们 喜欢 自然语言处理 ，' 20 "$TMP/long.want" ' '
for f in text lines; do
  for j in 1 2; do
    rss "$f.j$j.short" "$TMP/short" -f "$f" -j "$j"
    rss "$f.j$j.long" "$TMP/long" -f "$f" -j "$j"
    bounded "$f.j$j"
  done
done
runs=$((runs + 2))
cmp -s "$TMP/out.text.j1.long" "$TMP/long.want" || fail "text -j 1: the long line is not the repeated sentence's words"
cmp -s "$TMP/out.text.j2.long" "$TMP/long.want" || fail "text -j 2: the long line is not the repeated sentence's words"
runs=$((runs + 1))
tr ' ' '\n' <"$TMP/long.want" >"$TMP/lines.want"
printf '\n\n' >>"$TMP/lines.want"
cmp -s "$TMP/out.lines.j1.long" "$TMP/lines.want" || fail "lines: not one token a line and a blank line"

# JSON on 4.3 and 17 MB: one object, offsets of the whole line
rep '我们喜欢自然语言处理，' 19 "$TMP/mid"
for j in 1 2; do
  rss "json.j$j.short" "$TMP/short" -f json -j "$j"
  rss "json.j$j.long" "$TMP/mid" -f json -j "$j"
  bounded "json.j$j"
done
runs=$((runs + 3))
[ "$(wc -l <"$TMP/out.json.j1.long")" -eq 1 ] || fail "json: the long line is not one object"
cmp -s "$TMP/out.json.j1.long" "$TMP/out.json.j2.long" || fail "json: -j 2 differs from -j 1"
bytes=$(wc -c <"$TMP/mid")
chars=$((11 * 524288))
tail -c 200 "$TMP/out.json.j1.long" | grep -q "\"s\":$((bytes - 3)),\"e\":$bytes,\"cs\":$((chars - 1)),\"ce\":$chars," ||
  fail "json: the last token does not end at byte $bytes, character $chars: $(tail -c 120 "$TMP/out.json.j1.long")"

# ------------------------------------------------------------- no break at all
# Every piece ends inside running text: the tail is segmented again with
# what follows, so no word is split where the pieces meet.
rep '我们喜欢自然语言处理研究生命' 17 "$TMP/nobreak"
rep '我们 喜欢 自然语言处理 研究 生命' 17 "$TMP/nobreak.want" ' '
for j in 1 2; do
  rss "nobreak.j$j" "$TMP/nobreak" -j "$j"
  runs=$((runs + 1))
  cmp -s "$TMP/out.nobreak.j$j" "$TMP/nobreak.want" || fail "no breaks, -j $j: words split where pieces meet"
done

# ------------------------------------------------------------- many long lines
# Lines of 2.6 batches one after the other: with -j N the batches of
# different lines are in flight together while each continuation waits
# for the state of the batch before it (a hang or a mixed-up state shows
# here, so each run has a time limit where timeout(1) exists).
rep '我们喜欢自然语言处理研究生命' 13 "$TMP/l344k"
rep '我们 喜欢 自然语言处理 研究 生命' 13 "$TMP/l344k.want" ' '
: >"$TMP/many"
: >"$TMP/many.want"
for k in 1 2 3 4 5 6 7 8 9 10 11 12; do
  { cat "$TMP/l344k"; echo; } >>"$TMP/many"
  { cat "$TMP/l344k.want"; echo; } >>"$TMP/many.want"
done
limit=
command -v timeout >/dev/null 2>&1 && limit="timeout 30"
for j in 1 2 3 4 2 3 4 2 3 4; do
  runs=$((runs + 1))
  $limit "$FENCI" cut -q -m "$M" -j "$j" "$TMP/many" >"$TMP/out.many" 2>"$TMP/err"
  st=$?
  if [ "$st" -ne 0 ]; then
    fail "many long lines, -j $j: exit $st$([ "$st" -eq 124 ] && echo ', timed out')"
    break
  elif ! cmp -s "$TMP/out.many" "$TMP/many.want"; then
    fail "many long lines, -j $j: wrong output"
    break
  fi
done
rss "many.json.j1" "$TMP/many" -f json
rss "many.json.j3" "$TMP/many" -f json -j 3
runs=$((runs + 1))
cmp -s "$TMP/out.many.json.j1" "$TMP/out.many.json.j3" || fail "many long lines, json: -j 3 differs from -j 1"

# ------------------------------------------------------------- --all, nested user words
# Twenty nested forced words: about 200 output bytes per input byte, so
# one batch's output is handed on in parts (with -j 2 through the writer).
w=
: >"$TMP/nested.txt"
for k in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
  w=$w哈
  echo "$w" >>"$TMP/nested.txt"
done
rep '哈' 17 "$TMP/ha.short"   # 393 KB
rep '哈' 19 "$TMP/ha.long"    # 1.6 MB: 340 MB of output
for j in 1 2; do
  rss "all.j$j.short" "$TMP/ha.short" --all -u "$TMP/nested.txt" -j "$j"
  rss "all.j$j.long" "$TMP/ha.long" --all -u "$TMP/nested.txt" -j "$j"
  bounded "all.j$j"
done
runs=$((runs + 1))
cmp -s "$TMP/out.all.j1.long" "$TMP/out.all.j2.long" || fail "--all: -j 2 differs from -j 1"
rm -f "$TMP"/out.all.*

# ------------------------------------------- the other commands, the shipped models
# peak RSS in KiB under a bound, for inputs that once made memory grow with
# them: ner's JSON of number-dense text (194 MB for 10 MB), tag --words on
# one line (134 MB for 10 MB; 53 MB for 20 MB of 63 KB words), TextRank with the widest window on random
# text (1.1 GB for 10 MB)
# (not under ASan, whose quarantine keeps freed memory: its RSS follows
# what was ever allocated, not what is held)
asan=0
if nm "$BUILD/libfenci.a" 2>/dev/null | grep -q '__asan_'; then asan=1; fi
under() {
  name=$1 kb=$2
  shift 2
  if [ "$asan" -eq 1 ]; then
    "$FENCI" "$@" >/dev/null 2>"$TMP/err" || fail "$name: $(head -3 "$TMP/err")"
    runs=$((runs + 1))
    return
  fi
  runs=$((runs + 1))
  "$MAXRSS" "$TMP/rss.$name" "$FENCI" "$@" >/dev/null 2>"$TMP/err" || { fail "$name: $(head -3 "$TMP/err")"; return; }
  [ "$(cat "$TMP/rss.$name")" -le "$kb" ] || fail "$name: peak RSS $(cat "$TMP/rss.$name") KiB, more than $kb"
}
python3 -c "
import random, sys
random.seed(7)
open(sys.argv[1], 'w').write('1,' * 4000000)
open(sys.argv[2], 'w').write('中 ' * 2500000)
open(sys.argv[3], 'w', encoding='utf-8').write(''.join(chr(random.randint(0x4E00, 0x9FA4)) for _ in range(1000000)))
open(sys.argv[4], 'w', encoding='utf-8').write(' '.join(['的' * 21000] * 330))
" "$TMP/numbers" "$TMP/words" "$TMP/random" "$TMP/bigwords"
under "ner, 8 MB of numbers" 65536 ner "$TMP/numbers"
under "tag --words, a 7.5 MB line" 49152 tag --words "$TMP/words"
# words of 63 KB: a window of 4,096 of them once held 270 MB (53 MB for
# this 20 MB line); windows now also end at 4 MB
under "tag --words, a 20 MB line of 63 KB words" 40960 tag --words "$TMP/bigwords"
# every word once and in order, whatever ends a window: words of 1 byte to
# 70 KB mixed (a window that ended on a word over 4 KB once read past the
# word offsets: heap corruption), exactly 4 MB pending at the 256th word
python3 -c "
import random, sys
random.seed(11)
out = open(sys.argv[1], 'w', encoding='utf-8')
out.write(' '.join(['a' * 16384] * 256 + ['b'] * 3) + '\n')
out.write(' '.join(['的' * 21000] * 68) + '\n\n')
for n in range(6):
    ws = []
    for i in range(random.randint(1, 400)):
        k = random.choice((1, 2, 3, 5, 900, 5000, 20000, 70000))
        ws.append(random.choice('中文分词ab1') * random.randint(1, k))
    out.write(' '.join(ws) + ('\r\n' if n % 2 else '\n'))
" "$TMP/mixwords"
for f in text json; do
  runs=$((runs + 1))
  "$FENCI" tag --words -f $f "$TMP/mixwords" >"$TMP/mix.$f" 2>"$TMP/err" || { fail "tag --words -f $f, mixed sizes: $(head -3 "$TMP/err")"; continue; }
  python3 -c "
import json, sys
want = [l.split() for l in open(sys.argv[1], encoding='utf-8').read().split('\n')[:-1]]
got = []
for l in open(sys.argv[2], encoding='utf-8').read().split('\n')[:-1]:
    got.append([t['w'] for t in json.loads(l)] if sys.argv[3] == 'json' else [t.rsplit('/', 1)[0] for t in l.split()])
# a word over 64 KB is taken in pieces (cut before a character)
assert [''.join(w) for w in got] == [''.join(w) for w in want], 'words lost or repeated'
assert all(len(w) <= 65536 + 3 for l in got for w in l)
assert sum(len(l) for l in got) >= sum(len(l) for l in want)
" "$TMP/mixwords" "$TMP/mix.$f" $f 2>"$TMP/err" || fail "tag --words -f $f, mixed sizes: $(tail -1 "$TMP/err")"
done
under "keywords --textrank --window 1024, 3 MB of random characters" 262144 keywords --textrank --window 1024 "$TMP/random"
rm -f "$TMP/numbers" "$TMP/words" "$TMP/random" "$TMP/bigwords" "$TMP/mixwords" "$TMP/mix.text" "$TMP/mix.json"

echo "test_long_lines.sh: $runs checks, $fails failed"
[ "$fails" -eq 0 ]
