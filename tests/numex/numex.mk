# tests/numex/numex.mk - `make eval-numex`: the table of the time and
# quantity cases (tests/numex/cases.txt) with the values the recogniser
# (src/numex.c) gives them.  Included from the Makefile; `make eval` runs it.
.PHONY: eval-numex
eval: eval-numex
eval-numex: $(BUILD)/tests/test_numex
	@$(BUILD)/tests/test_numex --table tests/numex/cases.txt
