# python/python.mk - the CPython extension (included by the Makefile).
#   make python   builds the package in-tree into $(BUILD)/python (import it
#                 with PYTHONPATH=$(BUILD)/python); the models are found in
#                 the repository's models/ (see python/README.md).
# Needs the Python headers and setuptools: apt-get install python3-dev python3-setuptools.
# tests/python/run.sh builds it and runs python/tests with pytest.
#   make bench-python  python/bench.py and python/bench_dask.py on make bench's
#                 50 MB text (also run by make bench); BENCH_PY_FLAGS are passed
#                 to bench.py (e.g. --jieba-bytes 5000000)

_python_saved_goal := $(.DEFAULT_GOAL)
PYTHON ?= /usr/bin/python3
PY_PKG_SRC = $(wildcard python/fenci/*.py)

.PHONY: python bench-python
BENCH_PY_FLAGS ?= --jieba-bytes 5000000

python: $(BUILD)/python/.stamp

$(BUILD)/python/.stamp: python/setup.py $(wildcard python/src/*.c python/src/*.h python/src/*.map) $(LIB_SRC) $(PY_PKG_SRC) \
                        $(wildcard include/*.h src/*.h src/train/*.h)
	@mkdir -p $(BUILD)/python/fenci
	cd python && FENCI_PY_NO_MODELS=1 $(PYTHON) setup.py -q build_ext \
	  --build-lib $(abspath $(BUILD))/python --build-temp $(abspath $(BUILD))/python-tmp -j 2
	cp $(PY_PKG_SRC) $(BUILD)/python/fenci/
	$(PYTHON) -m compileall -q $(BUILD)/python/fenci  # as pip does: no source compiled at each import
	@touch $@

bench-python: python
	PYTHONPATH=$(BUILD)/python $(PYTHON) python/bench.py --data $(DATA) $(BENCH_PY_FLAGS)
	PYTHONPATH=$(BUILD)/python $(PYTHON) python/bench_dask.py --data $(DATA)

bench: bench-python

.DEFAULT_GOAL := $(_python_saved_goal)
