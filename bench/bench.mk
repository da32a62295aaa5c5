# bench/bench.mk - included by the main Makefile.  `make bench` installs the peer
# segmenters if they are missing, then measures fenci and the peers (about 5 minutes)
# and writes the table to bench/out/results.md.

_bench_saved_goal := $(.DEFAULT_GOAL)

BENCH_PY    ?= /usr/bin/python3
BENCH_FLAGS ?=

.PHONY: bench bench-setup

bench-setup:
	sh bench/setup.sh

bench: all bench-setup
	$(BENCH_PY) bench/run.py --fenci ./fenci --data $(DATA) --command 'make bench' $(BENCH_FLAGS)

# Do not let this file's first target become the default goal.
.DEFAULT_GOAL := $(_bench_saved_goal)
