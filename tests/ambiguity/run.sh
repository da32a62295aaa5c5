#!/bin/sh
# tests/ambiguity/run.sh - the ambiguity suite (eval/ambiguity/) is well formed
# and its scorer works: format checks of suite.tsv, rejection of malformed
# suites, the scoring arithmetic on a hand-segmented file, and a run of
# score.py over a few sentences with $FENCI.  No accuracy floor.
set -u
FENCI=${FENCI:-./fenci}
BUILD=${BUILD:-build}
PY=${PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=$(command -v python3 2>/dev/null) || { echo "ambiguity: no python3, skipped"; exit 0; }
suite=eval/ambiguity/suite.tsv
score="$PY eval/ambiguity/score.py"
d=$BUILD/tests/ambiguity
mkdir -p "$d"
fails=0
fail() { echo "FAIL: ambiguity: $*" >&2; fails=$((fails + 1)); }

# --- the suite itself: ids unique, spans in their sentences, split rule,
# sources and types valid (score.py --check), at least 150 sentences, both splits
$score --check > "$d/check.out" 2> "$d/check.err" || fail "score.py --check: $(cat "$d/check.err")"
# with the corpora at hand, each corpus:FILE:LINE sentence must be that line of
# the training part of FILE
data=${DATA:-../shared/data}
if [ -f "$data/ctb6/ctb6.train.seg" ]; then
  $score --check --data "$data" > /dev/null 2> "$d/check.err" || fail "corpus sources: $(cat "$d/check.err")"
fi
n=$(grep -v '^#' "$suite" | grep -c .)
[ "$n" -ge 150 ] || fail "$n sentences, want at least 150"
for s in dev held; do
  awk -F'\t' -v s=$s '!/^#/ && $2 == s { found = 1 } END { exit !found }' "$suite" || fail "no $s sentence"
done
awk -F'\t' '!/^#/ && $6 == "textbook" { t++ } !/^#/ && $6 ~ /^corpus:/ { c++ } END { exit !(t > 0 && c > 0) }' "$suite" ||
  fail "want both textbook and corpus sentences"

# --- malformed suites are refused (exit 2, with the reason)
row() { printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@"; }
good1=$(row amb001 dev 结婚的和尚未结婚的 - 和尚 textbook overlap note)
bad() {  # NAME PATTERN ROW
  { echo "$good1"; echo "$3"; } > "$d/bad.tsv"
  $score --suite "$d/bad.tsv" --check > /dev/null 2> "$d/bad.err"
  rc=$?
  [ $rc -eq 2 ] || { fail "$1: exit $rc, want 2"; return; }
  grep -q -- "$2" "$d/bad.err" || fail "$1: no '$2' in: $(cat "$d/bad.err")"
}
bad "duplicate id"     "already on line" "$(row amb001 dev 买水果然后来世博园 水果 果然 textbook overlap x)"
bad "span not found"   "does not occur"  "$(row amb002 dev 买水果然后来世博园 苹果 果然 textbook overlap x)"
bad "ambiguous span"   "occurs 2 times"  "$(row amb002 dev 结婚的和尚未结婚的 结婚 和尚 textbook overlap x)"
bad "occurrence index" "only 2"          "$(row amb002 dev 结婚的和尚未结婚的 结婚#3 和尚 textbook overlap x)"
bad "split rule"       "rule"            "$(row amb003 dev 买水果然后来世博园 水果 果然 textbook overlap x)"
bad "test set source"  "bad source"      "$(row amb002 dev 买水果然后来世博园 水果 果然 corpus:sighan2005/pku_test.utf8:3 overlap x)"
bad "bad source"       "bad source"      "$(row amb002 dev 买水果然后来世博园 水果 果然 web overlap x)"
bad "bad type"         "bad type"        "$(row amb002 dev 买水果然后来世博园 水果 果然 textbook other x)"
bad "corpus text committed" "written @"  "$(row amb002 dev 买水果然后来世博园 水果 果然 corpus:ctb6/ctb6.train.seg:5 overlap x)"
bad "no span"          "no critical"     "$(row amb002 dev 买水果然后来世博园 - - textbook overlap x)"
bad "field count"      "fields"          "$(printf 'amb002\tdev\t买水果然后来世博园\t水果\t果然\ttextbook\toverlap')"
bad "whole covers forbid" "covers"       "$(row amb002 dev 买水果然后来世博园 水果然后 果然 textbook overlap x)"

# --- the arithmetic, on a hand-segmented file
{
  row amb001 dev 结婚的和尚未结婚的 - 和尚 textbook overlap x
  row amb002 dev 买水果然后来世博园 "水果 然后" 果然 textbook overlap x
  row amb003 held 长春市长春药店 "长春市 长春#2" 市长 textbook overlap x
} > "$d/mini.tsv"
printf '结婚 的 和尚 未 结婚 的\n买 水果 然后 来 世博园\n长春市长 春药店\n' > "$d/mini.seg"
$score --suite "$d/mini.tsv" --segmented "$d/mini.seg" --name hand -v > "$d/mini.out" 2> "$d/mini.err" ||
  fail "score.py --segmented: $(cat "$d/mini.err")"
cat > "$d/mini.want" <<'WANT'
hand  dev   1/2   sentences  50.0%,   3/4   spans  75.0%  |  held   0/1   sentences   0.0%,   0/3   spans   0.0%  |  all   1/3   sentences  33.3%,   3/7   spans  42.9%
  amb001 dev  结婚的和尚未结婚的  ->  结婚 的 和尚 未 结婚 的  :  和尚 joined (和尚)
  amb003 held 长春市长春药店  ->  长春市长 春药店  :  长春市 not whole; 长春#2 not whole; 市长 joined (长春市长)
WANT
cmp -s "$d/mini.out" "$d/mini.want" || { fail "scoring arithmetic"; diff "$d/mini.want" "$d/mini.out" >&2; }

# --- score.py drives fenci: a few suite sentences, the default model and the lexicon mode
{ grep '^#' "$suite"; grep -v '^#' "$suite" | head -n 6; } > "$d/few.tsv"
for mode in "" --fast; do
  $score --suite "$d/few.tsv" --fenci "$FENCI" $mode > "$d/few.out" 2> "$d/few.err" ||
    fail "score.py with fenci $mode: $(cat "$d/few.err")"
  grep -Eq '^[a-z]+ +dev +[0-9]+/[0-9]+ +sentences +[0-9.]+%, +[0-9]+/[0-9]+ +spans .*\| +all +[0-9]+/6 +sentences' "$d/few.out" ||
    fail "score.py with fenci $mode: unexpected output: $(cat "$d/few.out")"
done
# a fenci that fails is reported, not scored
$score --suite "$d/few.tsv" --fenci "$FENCI" -m "$d/no-such-model.fenci" > /dev/null 2> "$d/few.err"
[ $? -eq 2 ] || fail "a failing fenci run should exit 2"

[ $fails -eq 0 ] || exit 1
echo "ambiguity: ok ($(cat "$d/check.out"))"
