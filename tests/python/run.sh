#!/bin/sh
# tests/python/run.sh - the Python module (python/): builds it in-tree with
# $MAKE python (into $BUILD/python) and runs python/tests with pytest.
# Needs python3-dev, python3-setuptools and python3-pytest (and, for
# fenci.dask, python3-dask and python3-distributed): installed with apt-get
# when missing and running as root; otherwise the test (or its Dask part)
# says SKIP.
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

. tests/host.sh
fenci_need tests/python have_deps python3-dev python3-setuptools python3-pytest
# optional: without Dask, python/tests/test_dask.py skips (and this says so)
have_dask() { "$PY" -c 'import dask.bag, distributed' >/dev/null 2>&1; }
(fenci_need "tests/python (fenci.dask)" have_dask --no-install-recommends python3-dask python3-distributed)

# make asan / make ubsan pass their CFLAGS on the command line, which make
# exports: setup.py (distutils) then compiles and links the module with them.
$MAKE --no-print-directory -s BUILD="$BUILD" PYTHON="$PY" python
so=$(ls "$BUILD"/python/fenci/_fenci*.so)
fenci_host_preload "$so"
# FENCI_MODEL_DIR is emptied so that the tests see the repository's models.
case $BUILD in /*) pkg=$BUILD/python ;; *) pkg=$(pwd)/$BUILD/python ;; esac
PYTHONPATH="$pkg${PYTHONPATH:+:$PYTHONPATH}" BUILD="$BUILD" FENCI_MODEL_DIR= \
  PYTHONDONTWRITEBYTECODE=1 run_host "$PY" -m pytest -q -p no:cacheprovider python/tests
