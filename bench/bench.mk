# bench/bench.mk - included by the main Makefile.  `make bench` installs the peer
# segmenters if they are missing, then measures fenci and the peers: segmentation, and
# POS tagging and entities (BENCH_FLAGS='--only pos' for these alone: about 3 minutes),
# and writes the tables to bench/out/results.md.

_bench_saved_goal := $(.DEFAULT_GOAL)

BENCH_PY    ?= /usr/bin/python3
BENCH_FLAGS ?=

.PHONY: bench bench-setup

bench-setup:
	sh bench/setup.sh

# The POS rows read the held-out People's Daily days (models.mk), when $(DATA) has them.
BENCH_POS = $(if $(wildcard $(DATA)/pd1998-01/199801.txt),eval-pos-files)

bench: all bench-setup $(BENCH_POS)
	$(BENCH_PY) bench/run.py --fenci ./fenci --data $(DATA) --pos-dir $(EVAL_DIR) --command 'make bench' $(BENCH_FLAGS)

# Do not let this file's first target become the default goal.
.DEFAULT_GOAL := $(_bench_saved_goal)
