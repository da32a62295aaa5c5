# tests/host.sh - sourced by the tests that drive fenci inside another
# program (tests/sqlite, tests/python), from the project root.
#   fenci_need AREA CHECK PACKAGES...
#       runs the shell function CHECK; when it fails and we are root with
#       apt-get, installs the Debian PACKAGES and runs CHECK again; when it
#       still fails, prints one SKIP line naming them and exits 0
#   fenci_host_preload LIB.so
#       LIB.so built with AddressSanitizer is loaded by hosts (python3,
#       sqlite3) built without it: its runtime must come first, so
#       run_host then starts them with LD_PRELOAD
#   run_host CMD...   runs CMD with that preload, if any
fenci_need() {
  area=$1 check=$2
  shift 2
  $check && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "$area: installing $*"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null 2>&1 ||
      { apt-get update -qq >/dev/null 2>&1 &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null 2>&1; } || true
  fi
  $check && return 0
  echo "SKIP: $area: needs apt-get install $*"
  exit 0
}

fenci_host_preload() {
  preload=""
  if nm -D "$1" 2>/dev/null | grep -q '__asan_init'; then
    preload=$(${CC:-cc} -print-file-name=libasan.so)
  fi
}

run_host() {
  if [ -n "${preload:-}" ]; then
    LD_PRELOAD=$preload ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" "$@"
  else
    "$@"
  fi
}
