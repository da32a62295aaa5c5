#!/bin/sh
# test_tag.sh - `fenci tag` from the outside: word/tag output with the
# shipped models, the same words as fenci cut (tags removed), JSON with a
# tag on each token, --words keeps the given words and lines, -j 2 equal to
# -j 1, fixed tags for punctuation, numbers and Latin words, a clear error
# for a model without a tagger.
# Usage: FENCI=./fenci sh tests/cli/test_tag.sh    (from the project root)
. tests/cli/lib.sh
cli_setup test_tag

same() {
  runs=$((runs + 1))
  cmp -s "$2" "$3" || { fail "$1: $2 and $3 differ"; cmp "$2" "$3" | head -2 >&2; }
}

printf '拿破仑在枫丹白露签署了退位诏书。\n我们研究自然语言处理, see http://x.cn 2026年\n\n最后一行没有换行' >"$TMP/stdin"
cp "$TMP/stdin" "$TMP/in.txt"
for m in ctb pku msr; do
  run "tag -m $m" 0 - -- tag -m "$m"
  cp "$TMP/out" "$TMP/tag.$m"
  run "cut -m $m" 0 - -- cut -m "$m"
  # the words are fenci cut's: drop the last /tag of each token
  sed 's|/[^/ ]*\( \)|\1|g; s|/[^/ ]*$||' "$TMP/tag.$m" >"$TMP/words.$m"
  same "tag -m $m words" "$TMP/out" "$TMP/words.$m"
  runs=$((runs + 1))
  [ "$(wc -l <"$TMP/tag.$m")" -eq 3 ] || fail "tag -m $m: 4 lines, the last without a newline as in the input"
  runs=$((runs + 1))
  grep -q '。/w' "$TMP/tag.$m" && grep -q 'http://x.cn/nx' "$TMP/tag.$m" && grep -q 'see/nx' "$TMP/tag.$m" ||
    fail "tag -m $m: fixed tags: $(head -2 "$TMP/tag.$m")"
done
# -j 2 on a bigger input equals -j 1
i=0
while [ $i -lt 2000 ]; do cat "$TMP/in.txt"; echo; i=$((i + 1)); done >"$TMP/big.txt"
run "tag -j1" 0 - -- tag -q -j 1 "$TMP/big.txt"
cp "$TMP/out" "$TMP/j1"
run "tag -j2" 0 - -- tag -q -j 2 "$TMP/big.txt"
same "tag -j2 = -j1" "$TMP/out" "$TMP/j1"
# JSON: every token object of a word carries a tag
run "tag -f json" 0 - -- tag -f json "$TMP/in.txt"
runs=$((runs + 1))
python3 - "$TMP/out" <<'PY' || fail "tag -f json: tokens without tags"
import json, sys
n = 0
for line in open(sys.argv[1], encoding='utf-8'):
    for t in json.loads(line)['tokens'] if line.startswith('{') else json.loads(line):
        n += 1
        if t['kind'] not in ('space', 'invalid') and not t.get('tag'):
            sys.exit('no tag: %r' % t)
sys.exit(0 if n else 'no tokens')
PY
# --words: exactly the given words, one line per line, empty lines kept
printf '我们 研究 自然 语言\n\n拿破仑 在 枫丹白露\n' >"$TMP/stdin"
run "tag --words" 0 - -- tag --words
runs=$((runs + 1))
[ "$(sed 's|/[^ ]*||g' "$TMP/out")" = "$(printf '我们 研究 自然 语言\n\n拿破仑 在 枫丹白露')" ] || fail "tag --words: $(cat "$TMP/out")"
run "tag --words -f json" 0 - -- tag --words -f json
runs=$((runs + 1))
python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$TMP/out" || fail "tag --words -f json: not JSON"
# --words -f json: invalid UTF-8 comes out as U+FFFD (JSON is UTF-8)
printf '\344\270\255\200\377 ab\n' >"$TMP/stdin"
run "tag --words -f json, invalid UTF-8" 0 - -- tag --words -f json
runs=$((runs + 1))
python3 -c 'import json,sys; l = json.loads(open(sys.argv[1], "rb").read().decode("utf-8")); assert l[0]["w"] == "\u4e2d\ufffd\ufffd", l' "$TMP/out" ||
  fail "tag --words -f json, invalid UTF-8: $(cat "$TMP/out")"
# --words on a file it cannot read: an error, exit 1, and the files after
# it are still tagged (it stopped the command), as fenci tag does
run "tag --words on a directory" 1 'read error' -- tag --words "$TMP"
printf '北京 大学\n' >"$TMP/after.txt"
run "tag --words on a directory, then a file" 1 'read error' -- tag --words "$TMP" "$TMP/after.txt"
runs=$((runs + 1))
grep -q '^北京/[a-z]* 大学/[a-z]*$' "$TMP/out" || fail "tag --words on a directory, then a file: $(cat "$TMP/out")"
# --words checks -j as fenci tag does (it took any value)
run "tag --words -j abc" 2 'tag: -j' -- tag --words -j abc "$TMP/after.txt"
run "tag --words -j 0" 2 'tag: -j' -- tag --words -j 0 "$TMP/after.txt"
run "tag --words -j 2" 0 - -- tag --words -j 2 "$TMP/after.txt"
# --words, a line of 16,000 words (the tagger takes 4,096 at a time, with
# context): the copies of a sentence get the same tags wherever the
# windows are cut; the whole line is one output line
python3 -c "
s = open('samples/napoleon.txt', encoding='utf-8').read().split('\n')[0]
import subprocess, sys
w = subprocess.run([sys.argv[1], 'cut', '-q'], input=s.encode(), capture_output=True).stdout.decode().split()
open(sys.argv[2], 'w', encoding='utf-8').write(' '.join(w * (16000 // len(w) + 1)) + '\n')
open(sys.argv[3], 'w').write(str(len(w)))
" "$FENCI" "$TMP/stdin" "$TMP/nw"
run "tag --words a long line" 0 - -- tag --words
runs=$((runs + 1))
tr ' ' '\n' <"$TMP/out" | awk -v n="$(cat "$TMP/nw")" '{ t[NR] = $0 } END { k = NR / n; if (k != int(k) || k < 20) { print "tokens " NR; exit 1 }
  for (c = 2; c < k; c++) for (i = 1; i <= n; i++) if (t[(c - 1) * n + i] != t[n + i]) { print "copy " c ", word " i ": " t[(c - 1) * n + i] " vs " t[n + i]; exit 1 } }' \
  >"$TMP/cmp" || fail "tag --words a long line: copies tagged differently ($(cat "$TMP/cmp"))"
# numbers with a unit of time or a large number, and ordinals, have the one
# tag People's Daily gives all of them, in any context and digit width
printf '第3 季度 12点30分 3月5日 第５ 名 3万 人 第一 次 3.5亿\n' >"$TMP/stdin"
run "tag --words numeric" 0 - -- tag --words
runs=$((runs + 1))
[ "$(cat "$TMP/out")" = "第3/m 季度/n 12点30分/t 3月5日/t 第５/m 名/q 3万/m 人/n 第一/m 次/q 3.5亿/m" ] ||
  fail "tag --words numeric: $(cat "$TMP/out")"
# a model without a tagger: a clear error, exit 1
printf '的 10 u\n' >"$TMP/lex.txt"
"$FENCI" compile "$TMP/lex.txt" -o "$TMP/lex.fenci" 2>/dev/null
printf '的\n' >"$TMP/stdin"
run "tag without tagger" 1 'no part-of-speech tagger' -- tag -m "$TMP/lex.fenci"
run "tag --words without tagger" 1 'no part-of-speech tagger' -- tag --words -m "$TMP/lex.fenci"
run "tag --help" 0 - -- tag --words --help
runs=$((runs + 1))
grep -q 'usage: fenci tag' "$TMP/out" || fail "tag --help"

# a line of more words than the tagger decodes at once (FC_POS_MAX_SEQ):
# the article 256 times without newlines (105 cuts; cut without context,
# about one in 25 changed a tag); copies 2..255 have the same context, so
# they get the same tags wherever the pieces are cut
tr -d '\n' <samples/napoleon.txt >"$TMP/stdin"
for k in 1 2 3 4 5 6 7 8; do cat "$TMP/stdin" "$TMP/stdin" >"$TMP/two.txt"; mv "$TMP/two.txt" "$TMP/stdin"; done
run "tag a long line" 0 - -- tag
runs=$((runs + 1))
tr ' ' '\n' <"$TMP/out" | awk -v k=256 '{ t[NR] = $0 } END { n = NR / k; if (n != int(n)) { print "tokens " NR; exit 1 }
  for (c = 2; c < k; c++) for (i = 1; i <= n; i++) if (t[(c - 1) * n + i] != t[n + i]) { print "copy " c ", token " i ": " t[(c - 1) * n + i] " vs " t[n + i]; exit 1 } }' \
  >"$TMP/cmp" || fail "tag a long line: copies tagged differently ($(cat "$TMP/cmp"))"
# a chunk boundary (64 KB, at the last sentence end before it) falls right
# before the article's 瓦莱夫斯卡 (its line 4, whose comma lies past 64 KB):
# its words are tagged as after one sentence, with the previous chunk's
# words as their left context
sed -n 4p samples/napoleon.txt >"$TMP/line4"
python3 -c 'import sys; f = "拿破仑在枫丹白露宫签署了退位诏书。"; sys.stdout.write(f * (65536 // len(f.encode())) + open(sys.argv[1], encoding="utf-8").read())' "$TMP/line4" >"$TMP/stdin"
run "tag across a chunk boundary" 0 - -- tag -m lexicon
tr ' ' '\n' <"$TMP/out" >"$TMP/after"
{ printf '拿破仑在枫丹白露宫签署了退位诏书。'; cat "$TMP/line4"; } >"$TMP/stdin"
run "tag the same after one sentence" 0 - -- tag -m lexicon
runs=$((runs + 1))
tr ' ' '\n' <"$TMP/out" | sed '1,/^。\/w$/d' >"$TMP/one"
tail -n "$(wc -l <"$TMP/one")" "$TMP/after" | cmp -s - "$TMP/one" ||
  fail "tag across a chunk boundary: $(tail -n "$(wc -l <"$TMP/one")" "$TMP/after" | head -3 | tr '\n' ' ') vs $(head -3 "$TMP/one" | tr '\n' ' ')"

# a hard cut (after the 。 that ends 新春佳节, 6 bytes before 64 KB): the
# words before it are tagged with the words after it as context, as in the
# uncut line (without: 新春佳节/i against 新春佳节/l)
python3 -c '
import sys
f, t, u = "拿破仑在枫丹白露宫签署了退位诏书。", "这是中国人民的传统的新春佳节。", "１９９７年是不平凡的一年。"
pad = 65536 - 6 - len(t.encode()) - 3
k, rem = divmod(pad, len(f.encode()))
sys.stdout.write("a" * rem + "。" + f * k + t + u + "\n")' >"$TMP/stdin"
run "tag before a hard cut" 0 - -- tag -m lexicon
tr ' ' '\n' <"$TMP/out" >"$TMP/after"
printf '拿破仑在枫丹白露宫签署了退位诏书。这是中国人民的传统的新春佳节。１９９７年是不平凡的一年。\n' >"$TMP/stdin"
run "tag the same uncut" 0 - -- tag -m lexicon
runs=$((runs + 1))
tr ' ' '\n' <"$TMP/out" | sed '1,/^。\/w$/d' >"$TMP/one"
tail -n "$(wc -l <"$TMP/one")" "$TMP/after" | cmp -s - "$TMP/one" ||
  fail "tag before a hard cut: $(tail -n "$(wc -l <"$TMP/one")" "$TMP/after" | tr '\n' ' ') vs $(tr '\n' ' ' <"$TMP/one")"

echo "test_tag: $runs checks, $fails failed"
[ "$fails" -eq 0 ]
