# tests/cli/lib.sh - what every tests/cli/test_*.sh script needs, sourced
# from the project root after the script's header comment:
#   cli_setup NAME    checks $FENCI, makes $TMP (removed at exit), zeroes
#                     the counters $fails and $runs
#   fail MESSAGE...   counts and prints a failure
#   run NAME WANT_RC|nonzero STDERR_PATTERN|- -- ARGS...
#                     runs fenci ARGS with stdin from $TMP/stdin (empty
#                     unless written), output in $TMP/out and $TMP/err, at
#                     most 60 s where timeout(1) exists (an unbounded read
#                     or a hang fails instead of blocking); checks the exit
#                     code, that no signal killed it and, unless -, that
#                     stderr holds the pattern
FENCI=${FENCI:-./fenci}
BUILD=${BUILD:-build}

cli_setup() {
  if [ ! -x "$FENCI" ]; then
    echo "$1: $FENCI not found (build it, or set FENCI)" >&2
    exit 1
  fi
  TMP=$(mktemp -d "${TMPDIR:-/tmp}/fenci_$1.XXXXXX") || exit 1
  # chmod first: some tests make unreadable files and folders
  trap 'chmod -R u+rwx "$TMP" 2>/dev/null; rm -rf "$TMP"' EXIT
  fails=0
  runs=0
}

fail() {
  echo "FAIL: $*" >&2
  fails=$((fails + 1))
}

run() {
  name=$1 want=$2 pat=$3
  shift 4
  runs=$((runs + 1))
  [ -f "$TMP/stdin" ] || : >"$TMP/stdin"
  lim=
  command -v timeout >/dev/null 2>&1 && lim="timeout 60"
  $lim "$FENCI" "$@" <"$TMP/stdin" >"$TMP/out" 2>"$TMP/err"
  got=$?
  if [ -n "$lim" ] && [ "$got" -eq 124 ]; then
    fail "$name: timed out"
  elif [ "$got" -ge 128 ]; then
    fail "$name: killed by signal $((got - 128)) (exit $got)"
  elif [ "$want" = nonzero ] && [ "$got" -eq 0 ]; then
    fail "$name: exit 0, want non-zero"
  elif [ "$want" != nonzero ] && [ "$got" -ne "$want" ]; then
    fail "$name: exit $got, want $want"
    sed 's/^/  stderr: /' "$TMP/err" | head -5 >&2
  elif [ "$pat" != - ] && ! grep -q -- "$pat" "$TMP/err"; then
    fail "$name: stderr lacks '$pat'"
    sed 's/^/  stderr: /' "$TMP/err" | head -5 >&2
  fi
}
