#!/bin/sh
# tests/python/run.sh - the Python module (python/): builds it in-tree with
# $MAKE python (into $BUILD/python) and runs python/tests with pytest.
# Needs python3-dev, python3-setuptools and python3-pytest: installed with
# apt-get when missing and running as root; otherwise the test says SKIP.
# PYTHON is the interpreter (default /usr/bin/python3).
set -eu
BUILD=${BUILD:-build}
MAKE=${MAKE:-make}
PY=${PYTHON:-/usr/bin/python3}

have_deps() {
  [ -x "$PY" ] && "$PY" -c 'import sysconfig, os, setuptools, pytest
import sys; sys.exit(0 if os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")) else 1)' \
    >/dev/null 2>&1
}

if ! have_deps; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "tests/python: installing python3-dev python3-setuptools python3-pytest"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-dev python3-setuptools python3-pytest >/dev/null 2>&1 ||
      { apt-get update -qq >/dev/null 2>&1 &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-dev python3-setuptools python3-pytest >/dev/null 2>&1; } || true
  fi
  if ! have_deps; then
    echo "SKIP: tests/python: needs Python headers, setuptools and pytest (apt-get install python3-dev python3-setuptools python3-pytest)"
    exit 0
  fi
fi

# make asan / make ubsan pass their CFLAGS on the command line, which make
# exports: setup.py (distutils) then compiles and links the module with them.
$MAKE --no-print-directory -s BUILD="$BUILD" PYTHON="$PY" python
so=$(ls "$BUILD"/python/fenci/_fenci*.so)
# python3 is not built with ASan: its runtime must come first
preload=""
if nm -D "$so" 2>/dev/null | grep -q '__asan_init'; then
  preload=$(${CC:-cc} -print-file-name=libasan.so)
fi
run_host() {
  if [ -n "$preload" ]; then
    LD_PRELOAD=$preload ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" "$@"
  else
    "$@"
  fi
}
# FENCI_MODEL_DIR is emptied so that the tests see the repository's models.
case $BUILD in /*) pkg=$BUILD/python ;; *) pkg=$(pwd)/$BUILD/python ;; esac
PYTHONPATH="$pkg${PYTHONPATH:+:$PYTHONPATH}" BUILD="$BUILD" FENCI_MODEL_DIR= \
  PYTHONDONTWRITEBYTECODE=1 run_host "$PY" -m pytest -q -p no:cacheprovider python/tests
