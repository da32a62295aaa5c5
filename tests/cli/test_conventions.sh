#!/bin/sh
# test_conventions.sh - command-line conventions of every fenci command:
# a failed write to stdout is an error (> /dev/full), option values may be
# attached (-j2, --jobs=2), a missing file among several is reported and
# skipped, files' lines never join, -m NAME.fenci is searched like -m NAME,
# the model search path reported is the one searched (and follows PREFIX),
# `fenci train` names every value it rejects, user-dictionary tags must be
# the model's, -d has a limit, and the progress indicator also shows for a
# regular file on stdin.
# Usage: FENCI=./fenci BUILD=build sh tests/cli/test_conventions.sh   (from the project root)
. tests/cli/lib.sh
cli_setup test_conventions
case $FENCI in /*) ;; *) FENCI=$(pwd)/$FENCI ;; esac # some checks run elsewhere

# same NAME FILE1 FILE2
same() {
  runs=$((runs + 1))
  cmp -s "$2" "$3" || fail "$1: $2 and $3 differ"
}

printf '我们 50 r\n喜欢 40 v\n自然 30\n语言 30\n自然语言 20\n处理 40 v\n自然语言处理 10 n\n今天 20\n天气 20\n很 30\n好 30\n研究 50\n生命 50\n' >"$TMP/lex.txt"
"$FENCI" compile "$TMP/lex.txt" -o "$TMP/m.fenci" 2>"$TMP/err" || { cat "$TMP/err" >&2; exit 1; }
printf '自然 30\n语言 30\n' >"$TMP/notags.txt"
"$FENCI" compile "$TMP/notags.txt" -o "$TMP/notags.fenci" 2>"$TMP/err" || { cat "$TMP/err" >&2; exit 1; }
M=$TMP/m.fenci
printf '我们喜欢自然语言处理\n今天天气很好\n' >"$TMP/in.txt"
printf '我们 自然\n喜欢 语言\n' >"$TMP/gold.txt"
printf '我们 自然\n喜欢 语言\n' >"$TMP/test.txt"
printf '我们 喜欢 自然语言处理\n今天 天气 很 好\n研究 生命\n' >"$TMP/corpus.seg"

# ------------------------------------------------------------- write errors
# Every command and every --help must fail when stdout cannot be written.
if [ -w /dev/full ]; then
  full() {
    name=$1
    shift
    runs=$((runs + 1))
    "$FENCI" "$@" </dev/null >/dev/full 2>"$TMP/err"
    st=$?
    if [ "$st" -eq 0 ] || [ "$st" -ge 128 ]; then
      fail "$name > /dev/full: exit $st, want an error"
    elif ! grep -qi "writ" "$TMP/err"; then
      fail "$name > /dev/full: no message about the write: $(head -2 "$TMP/err")"
    fi
  }
  full "--help" --help
  full "--version" --version
  for sub in cut eval compile train check dump; do full "$sub --help" "$sub" --help; done
  full "cut" cut -q -m "$M" "$TMP/in.txt"
  full "cut -j 2" cut -q -j 2 -m "$M" "$TMP/in.txt"
  full "cut -f json" cut -q -f json -m "$M" "$TMP/in.txt"
  full "eval" eval "$TMP/gold.txt" "$TMP/test.txt"
  full "check" check "$M"
  full "dump" dump "$M"
  full "compile -o /dev/full" compile "$TMP/lex.txt" -o /dev/full
  full "train -o /dev/full" train --lexicon "$M" --train "$TMP/corpus.seg" --iters 1 --min-count 1 -o /dev/full
fi

# ------------------------------------------------------------- attached values
run "cut (values apart)" 0 - -- cut -q -m "$M" -j 2 -f json -d / --mode search "$TMP/in.txt"
mv "$TMP/out" "$TMP/want.json"
for args in "-m$M -j2 -fjson --mode=search" "--model=$M --jobs=2 --format=json --mode=search" \
  "--model $M --jobs 2 --format json --search"; do
  # shellcheck disable=SC2086
  run "cut $args" 0 - -- cut -q $args "$TMP/in.txt"
  same "cut $args" "$TMP/want.json" "$TMP/out"
done
run "cut -d" 0 - -- cut -q -m "$M" -d / "$TMP/in.txt"
mv "$TMP/out" "$TMP/want.d"
run "cut -d/" 0 - -- cut -q -m "$M" -d/ "$TMP/in.txt"
same "cut -d/" "$TMP/want.d" "$TMP/out"
run "cut --delim=/" 0 - -- cut -q -m "$M" --delim=/ "$TMP/in.txt"
same "cut --delim=/" "$TMP/want.d" "$TMP/out"
printf '喜欢自然 5\n' >"$TMP/u.txt"
run "cut -u" 0 - -- cut -q -m "$M" -u "$TMP/u.txt" "$TMP/in.txt"
mv "$TMP/out" "$TMP/want.u"
run "cut -uFILE" 0 - -- cut -q -m "$M" -u"$TMP/u.txt" "$TMP/in.txt"
same "cut -uFILE" "$TMP/want.u" "$TMP/out"
run "cut --user-dict=FILE" 0 - -- cut -q -m "$M" --user-dict="$TMP/u.txt" "$TMP/in.txt"
same "cut --user-dict=FILE" "$TMP/want.u" "$TMP/out"
run "cut -j64" 0 - -- cut -q -m "$M" -j64 "$TMP/in.txt"
run "cut --jobs=0" 2 "not '0'" -- cut -q -m "$M" --jobs=0 "$TMP/in.txt"
run "cut --format=xml" 2 "unknown format 'xml'" -- cut -q -m "$M" --format=xml "$TMP/in.txt"
run "cut --fast=1" 2 "takes no value" -- cut -q -m "$M" --fast=1 "$TMP/in.txt"
run "cut --model= at the end" 2 "needs an argument" -- cut -q --model
run "cut -- -file" 1 "cannot open -x" -- cut -q -m "$M" -- -x
run "compile -oFILE" 0 - -- compile "$TMP/lex.txt" -o"$TMP/c1.fenci"
run "compile --output=FILE" 0 - -- compile "$TMP/lex.txt" --output="$TMP/c2.fenci"
same "compile -oFILE vs --output=FILE" "$TMP/c1.fenci" "$TMP/c2.fenci"
run "compile --oov-corpus=FILE" 0 - -- compile "$TMP/lex.txt" --oov-corpus="$TMP/corpus.seg" -o "$TMP/c3.fenci"
run "eval --words=FILE" 0 - -- eval --words="$TMP/gold.txt" "$TMP/gold.txt" "$TMP/test.txt"
run "eval --json=1" 2 "takes no value" -- eval --json=1 "$TMP/gold.txt" "$TMP/test.txt"
run "train --opt=VALUE" 0 - -- train --lexicon="$M" --train="$TMP/corpus.seg" --iters=1 --min-count=1 --seed=7 \
  --format=seg --meta=corpus=tiny -o"$TMP/t.fenci"
run "check --help=x" 2 "takes no value" -- check --help=x
run "dump --bogus" 2 "unknown option" -- dump --bogus

# ------------------------------------------------------------- several files
run "missing file first" 1 "cannot open $TMP/nonexistent" -- cut -q -m "$M" "$TMP/nonexistent" "$TMP/in.txt"
run "good file alone" 0 - -- cut -q -m "$M" "$TMP/in.txt"
mv "$TMP/out" "$TMP/want.in"
run "missing file first (output)" 1 - -- cut -q -m "$M" "$TMP/nonexistent" "$TMP/in.txt"
same "missing file first: the good file is still cut" "$TMP/want.in" "$TMP/out"
run "a directory among files" 1 "is a directory" -- cut -q -m "$M" "$TMP/in.txt" "$TMP" "$TMP/in.txt"
cat "$TMP/want.in" "$TMP/want.in" >"$TMP/want.2"
same "a directory among files: both good files cut" "$TMP/want.2" "$TMP/out"
run "missing file, -j 2" 1 "cannot open" -- cut -q -j 2 -m "$M" "$TMP/in.txt" "$TMP/nonexistent" "$TMP/in.txt"
same "missing file, -j 2: both good files cut" "$TMP/want.2" "$TMP/out"

# a file without a final newline: its last line and the next file's first
# line are separate lines (text gets a newline between them, and only then)
printf '我们喜欢\n自然语言' >"$TMP/a.txt"
printf '处理今天\n' >"$TMP/b.txt"
: >"$TMP/empty.txt"
run "no final newline, then a file" 0 - -- cut -q -m "$M" "$TMP/a.txt" "$TMP/b.txt"
printf '我们 喜欢\n自然语言\n处理 今天\n' >"$TMP/want"
same "no final newline, then a file" "$TMP/want" "$TMP/out"
run "no final newline, -j 2" 0 - -- cut -q -j 2 -m "$M" "$TMP/a.txt" "$TMP/b.txt"
same "no final newline, -j 2" "$TMP/want" "$TMP/out"
run "no final newline, empty and missing files, then a file" 1 - -- cut -q -m "$M" "$TMP/a.txt" "$TMP/empty.txt" \
  "$TMP/nonexistent" "$TMP/b.txt"
same "no final newline, empty and missing files, then a file" "$TMP/want" "$TMP/out"
run "no final newline, last file" 0 - -- cut -q -m "$M" "$TMP/b.txt" "$TMP/a.txt" "$TMP/empty.txt"
printf '处理 今天\n我们 喜欢\n自然语言' >"$TMP/want"
same "no final newline, last file: none added" "$TMP/want" "$TMP/out"
run "no final newline (lines)" 0 - -- cut -q -m "$M" -f lines "$TMP/a.txt" "$TMP/b.txt"
printf '我们\n喜欢\n\n自然语言\n\n处理\n今天\n\n' >"$TMP/want"
same "no final newline (lines)" "$TMP/want" "$TMP/out"

# ------------------------------------------------------------- model names
mkdir -p "$TMP/models" "$TMP/elsewhere"
cp "$M" "$TMP/models/mine.fenci"
runs=$((runs + 1))
(cd "$TMP/elsewhere" && FENCI_MODEL_DIR=$TMP/models "$FENCI" cut -q -m mine.fenci ../in.txt) >"$TMP/out" 2>"$TMP/err" ||
  fail "-m NAME.fenci is not searched like -m NAME: $(cat "$TMP/err")"
same "-m NAME.fenci" "$TMP/want.in" "$TMP/out"
runs=$((runs + 1))
(cd "$TMP/models" && FENCI_MODEL_DIR=/nonexistent "$FENCI" cut -q -m mine.fenci ../in.txt) >"$TMP/out" 2>"$TMP/err" ||
  fail "-m NAME.fenci in the current directory: $(cat "$TMP/err")"
# the message lists every file tried, the install directory among them
runs=$((runs + 1))
FENCI_MODEL_DIR=$TMP/models "$FENCI" cut -q -m nosuch "$TMP/in.txt" >/dev/null 2>"$TMP/err" && fail "missing model: exit 0"
for want in "$TMP/models/nosuch.fenci" "/models/nosuch.fenci" "/share/fenci/nosuch.fenci"; do
  grep -q -- "$want" "$TMP/err" || fail "missing model: message lacks $want: $(cat "$TMP/err")"
done
if [ -f "$BUILD/prefix.stamp" ]; then
  runs=$((runs + 1))
  grep -q -- "$(cat "$BUILD/prefix.stamp")/share/fenci/nosuch.fenci" "$TMP/err" ||
    fail "missing model: message lacks the PREFIX ($(cat "$BUILD/prefix.stamp")) data dir: $(cat "$TMP/err")"
fi
# a new PREFIX rebuilds common.o, which then searches it (make install
# PREFIX=... after a plain make)
if command -v "${MAKE:-make}" >/dev/null 2>&1 && [ -f Makefile ]; then
  mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${MAKE:-make}" --no-print-directory BUILD="$TMP/b" "$@" "$TMP/b/cli/common.o"; }
  runs=$((runs + 3))
  if mk PREFIX="$TMP/p1" >"$TMP/mk1" 2>&1 && mk PREFIX="$TMP/p2" >"$TMP/mk2" 2>&1 && mk PREFIX="$TMP/p2" >"$TMP/mk3" 2>&1; then
    grep -q "$TMP/p2/share/fenci" "$TMP/b/cli/common.o" || fail "PREFIX change: common.o not rebuilt for the new PREFIX"
    grep -q "$TMP/p1/share/fenci" "$TMP/b/cli/common.o" && fail "PREFIX change: common.o still has the old PREFIX"
    grep -q "common.c" "$TMP/mk3" && fail "same PREFIX again: common.o rebuilt needlessly"
  else
    fail "make of cli/common.o failed: $(tail -3 "$TMP/mk1" "$TMP/mk2" "$TMP/mk3" 2>/dev/null)"
  fi
fi

# ------------------------------------------------------------- train's values
T="train --lexicon $M --train $TMP/corpus.seg -o $TMP/t.fenci"
# tr NAME PATTERN ARGS...: train with ARGS must fail naming what it rejects
tr_bad() {
  name=$1 pat=$2
  shift 2
  # shellcheck disable=SC2086
  run "train $name" nonzero "$pat" -- $T "$@"
}
tr_bad "--iters 0" "--iters.*'0'" --iters 0
tr_bad "--iters abc" "--iters.*'abc'" --iters abc
tr_bad "--iters=1001" "--iters.*'1001'" --iters=1001
tr_bad "--seed -1" "--seed.*'-1'" --seed -1
tr_bad "--min-count x" "--min-count.*'x'" --min-count x
tr_bad "--sym-min-count 0" "--sym-min-count.*'0'" --sym-min-count 0
tr_bad "--prune 40000" "--prune.*'40000'" --prune 40000
tr_bad "--folds 1" "--folds.*'1'" --folds 1
tr_bad "--patience -2" "--patience.*'-2'" --patience -2
tr_bad "--format xx" "--format.*'xx'" --format xx
tr_bad "--dev-format yy" "--dev-format.*'yy'" --dev-format yy
tr_bad "--templates bogus" "--templates.*'bogus'" --templates bogus
tr_bad "--meta novalue" "--meta.*'novalue'" --meta novalue
tr_bad "--dev missing" "--dev.*$TMP/nonexistent" --dev "$TMP/nonexistent"
tr_bad "--words missing" "--words.*$TMP/nonexistent" --words "$TMP/nonexistent"
tr_bad "--bogus" "unknown option '--bogus'" --bogus
tr_bad "operand" "unexpected argument 'stray'" stray
run "train --lexicon missing" 1 "--lexicon.*$TMP/nonexistent" -- train --lexicon "$TMP/nonexistent" --train "$TMP/corpus.seg" -o "$TMP/t.fenci"
run "train --train missing" 1 "--train.*$TMP/nonexistent" -- train --lexicon "$M" --train "$TMP/nonexistent" -o "$TMP/t.fenci"
run "train --train a directory" 1 "--train.*directory" -- train --lexicon "$M" --train "$TMP" -o "$TMP/t.fenci"
run "train -o in a missing directory" 1 "-o.*$TMP/no/such" -- train --lexicon "$M" --train "$TMP/corpus.seg" -o "$TMP/no/such/t.fenci"
run "train --iters without value" 2 "--iters needs an argument" -- train --lexicon "$M" --train "$TMP/corpus.seg" -o "$TMP/t.fenci" --iters

# ------------------------------------------------------------- user-dictionary tags
printf '云计算 1000 v\n' >"$TMP/tag_ok.txt"
printf '我们研究云计算\n' >"$TMP/in2.txt"
run "user tag the model has" 0 - -- cut -q -m "$M" -f json -u "$TMP/tag_ok.txt" "$TMP/in2.txt"
runs=$((runs + 1))
grep -q '"w":"云计算"[^}]*"tag":"v"' "$TMP/out" || fail "user tag v not on the token: $(cat "$TMP/out")"
printf '# comment\n区块链 5 v\n云计算  1\t bogus \n' >"$TMP/tag_bad.txt"
run "user tag the model lacks" 1 "line 3: the model has no tag 'bogus'" -- cut -q -m "$M" -u "$TMP/tag_bad.txt" "$TMP/in.txt"
runs=$((runs + 1))
grep -q "the model's tags: .*\bv\b" "$TMP/err" || fail "unknown user tag: the message does not list the model's tags: $(cat "$TMP/err")"
run "user tag, model without tags" 1 "the model has no tags" -- cut -q -m "$TMP/notags.fenci" -u "$TMP/tag_ok.txt" "$TMP/in.txt"

# ------------------------------------------------------------- -d limit
sep255=$(printf '%255s' '' | tr ' ' '-')
run "-d of 255 bytes" 0 - -- cut -q -m "$M" -d "$sep255" "$TMP/in.txt"
runs=$((runs + 1))
grep -q -- "我们${sep255}喜欢" "$TMP/out" || fail "-d of 255 bytes: separator not used whole"
run "-d of 256 bytes" 2 "-d: the separator is longer than 255 bytes" -- cut -q -m "$M" -d "${sep255}x" "$TMP/in.txt"
run "-d of 128 tabs" 0 - -- cut -q -m "$M" -d "$(printf '\\t%.0s' $(seq 1 128))" "$TMP/in.txt"

# ------------------------------------------------------------- progress
# Shown on a terminal for inputs over 8 MB, a regular file on stdin too
# (the line is cleared at the end: "\r", 60 spaces, "\r").
printf '我们喜欢自然语言处理，' >"$TMP/p.txt"
k=0
while [ $k -lt 18 ]; do cat "$TMP/p.txt" "$TMP/p.txt" >"$TMP/p2.txt" && mv "$TMP/p2.txt" "$TMP/p.txt"; k=$((k + 1)); done
if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1 </dev/null; then
  runs=$((runs + 2))
  script -qec "'$FENCI' cut -m '$M' < '$TMP/p.txt' > /dev/null" /dev/null </dev/null >"$TMP/tty" 2>&1
  grep -q "$(printf '\r%60s\r' '')" "$TMP/tty" || fail "no progress indicator for a regular file on stdin"
  script -qec "'$FENCI' cut -q -m '$M' < '$TMP/p.txt' > /dev/null" /dev/null </dev/null >"$TMP/tty" 2>&1
  [ -s "$TMP/tty" ] && fail "-q: progress indicator shown"
fi
runs=$((runs + 1))
"$FENCI" cut --progress -m "$M" <"$TMP/in.txt" >/dev/null 2>"$TMP/err"
grep -q "$(printf '\r')" "$TMP/err" || fail "--progress: no progress indicator"

echo "test_conventions.sh: $runs checks, $fails failed"
[ "$fails" -eq 0 ]
