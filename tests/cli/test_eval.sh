#!/bin/sh
# test_eval.sh - checks `fenci eval` against hand-computed results
# (tests/cli/eval/NOTES.txt has the arithmetic).
# Usage: FENCI=./fenci sh tests/cli/test_eval.sh    (run from the project root)
. tests/cli/lib.sh
cli_setup test_eval
D=$(dirname "$0")/eval

# expect NAME RC EXPECTED_FILE|- STDERR_PATTERN|- -- ARGS...
expect() {
  name=$1 rc=$2 exp=$3 errpat=$4
  shift 5
  runs=$((runs + 1))
  "$FENCI" eval "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
  got=$?
  [ "$got" -eq "$rc" ] || { fail "$name: exit $got, want $rc"; cat "$TMP/err" >&2; return; }
  if [ "$exp" != - ] && ! cmp -s "$TMP/out" "$D/$exp"; then
    fail "$name: stdout differs from $exp"
    diff "$D/$exp" "$TMP/out" >&2
  fi
  if [ "$errpat" != - ] && ! grep -q -- "$errpat" "$TMP/err"; then
    fail "$name: stderr lacks '$errpat'"
    cat "$TMP/err" >&2
  fi
}

expect identical 0 identical.expected - -- "$D/identical.gold" "$D/identical.test"
expect identical_words 0 identical_words.expected - -- --json --words "$D/oov.words" "$D/identical.gold" "$D/identical.test"
expect allwrong 0 allwrong.expected - -- "$D/allwrong.gold" "$D/allwrong.test"
expect classic 0 classic.expected - -- "$D/classic.gold" "$D/classic.test"
expect moved 0 moved.expected "scored jointly" -- "$D/moved.gold" "$D/moved.test"
expect classic_json 0 classic_json.expected - -- "$D/classic.gold" "$D/classic.test" --json
expect oov 0 oov.expected - -- "$D/oov.gold" "$D/oov.test" --words "$D/oov.words"
expect oov_eq 0 oov.expected - -- --words="$D/oov.words" "$D/oov.gold" "$D/oov.test"
expect bomcrlf 0 bomcrlf.expected - -- "$D/bomcrlf.gold" "$D/bomcrlf.test"
expect mismatch 0 mismatch.expected "line 2:" -- "$D/mismatch.gold" "$D/mismatch.test"
expect mismatch_words 0 mismatch_words.expected "line 2:" -- "$D/mismatch.gold" "$D/mismatch.test" --words "$D/oov.words"
expect offsets 0 offsets.expected - -- "$D/offsets.gold" "$D/offsets.test"
expect ideo 0 ideo.expected - -- "$D/ideo.gold" "$D/ideo.test"
expect blanks 0 blanks.expected - -- "$D/blanks.gold" "$D/blanks.test"
expect empty 0 empty.expected - -- "$D/empty.gold" "$D/empty.test"
expect linecount 1 - "line counts" -- "$D/linecount.gold" "$D/linecount.test"
expect linecount_rev 1 - "line counts" -- "$D/linecount.test" "$D/linecount.gold"

# standard input as OUTPUT
runs=$((runs + 1))
"$FENCI" eval "$D/classic.gold" - <"$D/classic.test" >"$TMP/out" 2>"$TMP/err" &&
  cmp -s "$TMP/out" "$D/classic.expected" || fail "stdin: wrong result"

# errors and help
expect help 0 - - -- --help
grep -q "usage" "$TMP/out" || fail "help: no usage on stdout"
expect missing_file 1 - "cannot open" -- "$D/classic.gold" "$D/no-such-file"
expect missing_words 1 - "cannot open" -- "$D/classic.gold" "$D/classic.test" --words "$D/no-such-file"
expect directory 1 - - -- "$D" "$D/classic.test"
expect no_args 2 - "usage" --
expect one_arg 2 - "usage" -- "$D/classic.gold"
expect three_args 2 - "too many" -- "$D/classic.gold" "$D/classic.test" "$D/classic.test"
expect bad_option 2 - "unknown option" -- --bogus "$D/classic.gold" "$D/classic.test"
expect words_no_arg 2 - "--words needs an argument" -- "$D/classic.gold" "$D/classic.test" --words
expect two_stdin 2 - "only one" -- - -

# every gold file scored against itself gives F1 = 1
for g in "$D"/*.gold; do
  runs=$((runs + 1))
  "$FENCI" eval "$g" "$g" >"$TMP/out" 2>"$TMP/err" || { fail "self $g: exit $?"; continue; }
  case $(basename "$g") in
    empty.gold) ;;
    *) grep -q "F1 1.0000" "$TMP/out" || fail "self $g: F1 not 1" ;;
  esac
done

# optional: the real SIGHAN 2005 data, when present
DATA=${DATA:-../shared/data}
S=$DATA/sighan2005
if [ -r "$S/pku_test_gold.utf8" ] && [ -r "$S/pku_training_words.utf8" ]; then
  runs=$((runs + 1))
  "$FENCI" eval "$S/pku_test_gold.utf8" "$S/pku_test_gold.utf8" --words "$S/pku_training_words.utf8" >"$TMP/out" 2>"$TMP/err" &&
    grep -q "F1 1.0000  OOV-rate 0.0575" "$TMP/out" &&
    grep -q "words gold 104372 test 104372 correct 104372" "$TMP/out" || fail "PKU gold vs itself"
fi
if [ -r "$S/msr_test_gold.utf8" ] && [ -r "$S/msr_test.utf8" ]; then
  runs=$((runs + 1))
  "$FENCI" eval "$S/msr_test_gold.utf8" "$S/msr_test.utf8" >"$TMP/out" 2>"$TMP/err" &&
    grep -q "lines 3985 mismatched 0" "$TMP/out" &&
    grep -q "16 lines whose characters moved" "$TMP/err" || fail "MSR gold vs raw: the 16 lines with moved quotes must re-align"
fi
if [ -r "$S/as_testing_gold.utf8" ] && [ -r "$S/as_training_words.utf8" ]; then
  runs=$((runs + 1))
  "$FENCI" eval "$S/as_testing_gold.utf8" "$S/as_testing_gold.utf8" --words "$S/as_training_words.utf8" >"$TMP/out" 2>"$TMP/err" &&
    grep -q "words gold 122610 test 122610 correct 122610" "$TMP/out" || fail "AS gold vs itself"
fi

if [ "$fails" -ne 0 ]; then
  echo "test_eval.sh: $fails of $runs checks FAILED" >&2
  exit 1
fi
echo "test_eval.sh: all $runs checks passed"
