#!/bin/sh
# test_keywords.sh - `fenci keywords` and `fenci idf`: the keywords of the
# sample article with the shipped models (TF-IDF and TextRank), -k, --json
# (offsets point at the words), --pos, --stopwords, --idf, --lines, option
# and file errors, a model without an IDF table, hostile bytes, a 50 MB
# single line, and `fenci idf` on a small lexicon: the IDF it counts orders
# the keywords, its output is deterministic and passes fenci check.
# Usage: FENCI=./fenci BUILD=build sh tests/cli/test_keywords.sh   (from the project root)
. tests/cli/lib.sh
cli_setup test_keywords
PY=/usr/bin/python3
S=samples/napoleon.txt

# has WORD FILE: the word is one of the space-separated words of FILE
has() { tr ' ' '\n' <"$2" | grep -qx -- "$1"; }

for m in ctb lexicon; do
  run "tfidf $m" 0 - -- keywords -m $m -k 10 $S
  runs=$((runs + 1))
  [ "$(cut -d' ' -f1 "$TMP/out")" = 枫丹白露 ] || fail "tfidf $m: top keyword is not 枫丹白露: $(cat "$TMP/out")"
  [ "$(wc -w <"$TMP/out")" -eq 10 ] || fail "tfidf $m: -k 10 gave $(wc -w <"$TMP/out") words"
  has 拿破仑 "$TMP/out" || fail "tfidf $m: 拿破仑 missing: $(cat "$TMP/out")"
  has 了 "$TMP/out" && fail "tfidf $m: a one-character word"
  run "textrank $m" 0 - -- keywords -m $m -k 5 --textrank $S
  has 枫丹白露 "$TMP/out" || fail "textrank $m: 枫丹白露 missing: $(cat "$TMP/out")"
done

# weights: best first; the top TextRank weight is 1
run weights 0 - -- keywords -k 5 -w $S
runs=$((runs + 1))
tr ' ' '\n' <"$TMP/out" | sed 's/.*://' >"$TMP/w"
sort -rn "$TMP/w" | cmp -s - "$TMP/w" || fail "weights not in decreasing order: $(cat "$TMP/out")"
run "textrank weights" 0 - -- keywords --textrank -k 1 -w $S
grep -q ':1.0000$' "$TMP/out" || fail "textrank: top weight is not 1: $(cat "$TMP/out")"

# JSON: the offsets point at the word in the document; --pos filters tags
if [ -x "$PY" ]; then
  for args in "" "--textrank" "--pos ns" "--textrank --pos n,ns --window 3 --damping 0.5 --iterations 20"; do
    # shellcheck disable=SC2086
    run "json $args" 0 - -- keywords --json -k 0 $args $S
    runs=$((runs + 1))
    "$PY" - "$TMP/out" "$S" "$args" <<'EOF' || fail "json $args: bad output"
import json, sys
doc = open(sys.argv[2], "rb").read()
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
assert len(lines) == 1, lines
o = json.loads(lines[0])
assert o["doc"] == sys.argv[2]
kws = o["keywords"]
assert kws, "no keywords"
for k in kws:
    assert doc[k["s"]:k["e"]].decode() == k["w"], k
    assert k["count"] >= 1
if "--pos ns" in sys.argv[3]:
    assert all(k["tag"] == "ns" for k in kws), kws
if "n,ns" in sys.argv[3]:
    assert all(k["tag"] in ("n", "ns") for k in kws), kws
w = [k["weight"] for k in kws]
assert w == sorted(w, reverse=True), w
EOF
  done
fi
run "unknown tag" 0 "no tag 'zz'" -- keywords --pos n,zz $S

# tags that only the POS tagger gives (nx, w, Vg, ...) come after the
# lexicon's: filtering on them once wrote past the filter's table (heap
# corruption, an abort) and matched nothing
printf '我们今天用iPhone和Android在北京大学研究自然语言处理工具，iPhone很好。\n' >"$TMP/nx.in"
for args in "--pos nx" "--textrank --pos nx,n,v" "--pos w,Vg,Ag,Bg,Dg,Tg"; do
  run "tagger-only tag: $args" 0 - -- keywords $args "$TMP/nx.in"
done
run "--pos nx keeps Latin words" 0 - -- keywords --pos nx "$TMP/nx.in"
runs=$((runs + 1))
[ "$(cat "$TMP/out")" = "iPhone Android" ] || fail "--pos nx: want 'iPhone Android', got '$(cat "$TMP/out")'"

# stop words: a caller's list adds to the model's; --no-default-stopwords
printf '枫丹白露\n拿破仑\n' >"$TMP/stop.txt"
run stopwords 0 - -- keywords -k 0 --stopwords "$TMP/stop.txt" $S
has 枫丹白露 "$TMP/out" && fail "--stopwords: 枫丹白露 still there"
has 拿破仑 "$TMP/out" && fail "--stopwords: 拿破仑 still there"
printf '今天我们可以在这里参观\n' >"$TMP/stop.in"
run "default stop words" 0 - -- keywords -k 0 -m lexicon "$TMP/stop.in"
has 我们 "$TMP/out" && fail "default stop words: 我们 is a keyword"
run "no default stop words" 0 - -- keywords -k 0 -m lexicon --no-default-stopwords "$TMP/stop.in"
has 我们 "$TMP/out" || fail "--no-default-stopwords: 我们 missing: $(cat "$TMP/out")"

# --idf replaces the model's table (jieba's idf.txt format); the median (1)
# for the words it lacks
printf '诏书 20.0\n退位 1.0\n拿破仑 1.0\n' >"$TMP/idf.txt"
run "idf file" 0 - -- keywords -k 1 --idf "$TMP/idf.txt" $S
[ "$(cat "$TMP/out")" = 诏书 ] || fail "--idf: top is $(cat "$TMP/out"), want 诏书"
printf 'bad line here\n' >"$TMP/idf.bad"
run "bad idf file" 1 "line 1" -- keywords --idf "$TMP/idf.bad" $S

# --lines: one result line per input line, empty lines too; stdin
printf '拿破仑在枫丹白露签署了退位诏书。\n\n伦敦证券交易所的国债价格上涨了。\n' >"$TMP/stdin"
run lines 0 - -- keywords --lines -k 2
runs=$((runs + 1))
[ "$(wc -l <"$TMP/out")" -eq 3 ] || fail "--lines: $(wc -l <"$TMP/out") lines, want 3"
[ "$(sed -n 2p "$TMP/out")" = "" ] || fail "--lines: the empty line has keywords"
rm -f "$TMP/stdin"

# errors
run "bad -k" 2 "needs a number" -- keywords -k x $S
run "bad window" 2 "window" -- keywords --textrank --window 1 $S
run "bad damping" 2 "damping" -- keywords --textrank --damping 1.5 $S
run "unknown option" 2 "unknown option" -- keywords --bogus $S
run "missing file" 1 "cannot open" -- keywords "$TMP/nonexistent"
run directory 1 "directory" -- keywords "$TMP"

# a model without an IDF table: TF-IDF refuses clearly, TextRank works
printf '北京 30 ns\n大学 30 n\n研究 30 v\n自然 30 n\n语言 30 n\n处理 40 v\n的 100 uj\n' >"$TMP/lex.txt"
"$FENCI" compile "$TMP/lex.txt" -o "$TMP/m.fenci" 2>"$TMP/err" || fail "compile: $(cat "$TMP/err")"
printf '北京大学研究自然语言处理\n' >"$TMP/doc.txt"
run "no idf table" 1 "no IDF table" -- keywords -m "$TMP/m.fenci" "$TMP/doc.txt"
run "no idf table, textrank" 0 - -- keywords -m "$TMP/m.fenci" --textrank "$TMP/doc.txt"
has 北京 "$TMP/out" || fail "textrank without IDF: $(cat "$TMP/out")"

# fenci idf: 北京 in every document (idf 0), 处理 in one (idf ln 4)
printf '北京大学\n北京自然\n北京语言处理\n北京研究\n' >"$TMP/docs.txt"
printf '# a comment\n的\nFOO\n' >"$TMP/stops.txt"
run idf 0 "4 documents" -- idf "$TMP/m.fenci" --docs "$TMP/docs.txt" --stopwords "$TMP/stops.txt" -o "$TMP/m2.fenci"
run "idf again" 0 - -- idf "$TMP/m.fenci" --docs "$TMP/docs.txt" --stopwords "$TMP/stops.txt" -o "$TMP/m3.fenci"
runs=$((runs + 1))
cmp -s "$TMP/m2.fenci" "$TMP/m3.fenci" || fail "fenci idf: output differs between two runs"
run "idf in place" 0 - -- idf "$TMP/m2.fenci" --docs "$TMP/docs.txt" -o "$TMP/m2.fenci"
runs=$((runs + 1))
cmp -s "$TMP/m2.fenci" "$TMP/m3.fenci" || fail "fenci idf: a second run over its own output changed it"
run "idf check" 0 - -- check "$TMP/m2.fenci"
printf '北京处理北京的foo\n' >"$TMP/doc2.txt"
run "idf keywords" 0 - -- keywords -m "$TMP/m2.fenci" -w "$TMP/doc2.txt"
runs=$((runs + 1))
[ "$(cat "$TMP/out")" = "处理:0.4621 北京:0.0000" ] || fail "fenci idf: keywords $(cat "$TMP/out"), want 处理:0.4621 北京:0.0000"
run "idf dump" 0 - -- dump "$TMP/m2.fenci"
grep -q 'idf_documents=4' "$TMP/out" || fail "fenci idf: META lacks idf_documents=4"
grep -q 'KIDF' "$TMP/out" || fail "fenci idf: no KIDF section"
run "idf no docs" 2 "usage" -- idf "$TMP/m.fenci" -o "$TMP/x.fenci"
printf '\377\376\n' >"$TMP/stops.bad"
run "idf bad stop words" 1 "invalid UTF-8" -- idf "$TMP/m.fenci" --docs "$TMP/docs.txt" --stopwords "$TMP/stops.bad" -o "$TMP/x.fenci"

# hostile bytes: NUL, invalid UTF-8, lone continuation bytes
printf '北京\000\377大学\200\300研究自然\n\376语言' >"$TMP/bad.txt"
run "hostile tfidf" 0 - -- keywords -m lexicon "$TMP/bad.txt"
run "hostile textrank" 0 - -- keywords -m lexicon --textrank --lines "$TMP/bad.txt"
run "hostile json" 0 - -- keywords -m lexicon --json "$TMP/bad.txt"

# a single line of 56 MB (the article repeated 2^16 times): same top keyword
tr -d '\n' <$S >"$TMP/big.txt"
k=0
while [ $k -lt 16 ]; do
  cat "$TMP/big.txt" "$TMP/big.txt" >"$TMP/big2.txt" && mv "$TMP/big2.txt" "$TMP/big.txt"
  k=$((k + 1))
done
run "50 MB line" 0 - -- keywords -m lexicon -k 1 --lines "$TMP/big.txt"
[ "$(cat "$TMP/out")" = 枫丹白露 ] || fail "50 MB line: $(cat "$TMP/out")"
run "50 MB line textrank" 0 - -- keywords -m lexicon -k 1 --textrank "$TMP/big.txt"
[ "$(cat "$TMP/out")" = 枫丹白露 ] || fail "50 MB line, textrank: $(cat "$TMP/out")"
rm -f "$TMP/big.txt"

echo "test_keywords.sh: $runs checks, $fails failed"
[ "$fails" -eq 0 ]
