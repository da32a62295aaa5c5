# fuzz/fuzz.mk - libFuzzer harnesses, fuzz runs and the ThreadSanitizer test
# (included by the top Makefile).
#   make fuzz          each harness for FUZZ_SECONDS (default 600) s
#   make fuzz-smoke    each harness for FUZZ_SMOKE_SECONDS (default 20) s (CI)
#   make fuzz-build    just build build-fuzz/fuzz_{model,compile,segment,dict,keywords,fts5}
#   make tsan          tests/concurrency under ThreadSanitizer
# Corpora grow in build-fuzz/corpus/<harness>; the seeds in fuzz/seeds/<harness>
# are read but never written; crashes land in build-fuzz/crash-<harness>-*.
# FUZZ_ARGS adds libFuzzer flags (e.g. FUZZ_ARGS=-runs=10000000).

FUZZ_CC            ?= clang
FUZZ_SECONDS       ?= 600
FUZZ_SMOKE_SECONDS ?= 20
FUZZ_ARGS          ?=
# segmentation inputs may grow past the 64 KiB chunk size (the harness also
# repeats short texts to several chunks)
FUZZ_LEN_segment    = -max_len=262144
FUZZ_BUILD          = build-fuzz
# fuzz_fts5 compiles sqlite/fenci_fts5.c in: only where <sqlite3ext.h> is
# (libsqlite3-dev; SQLITE_HAVE comes from sqlite/sqlite.mk)
FUZZ_HARNESSES      = model compile segment dict numex keywords $(if $(SQLITE_HAVE),fts5)
FUZZ_SAN            = -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS         = -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -fno-omit-frame-pointer $(FUZZ_SAN) \
                      -Iinclude -Isrc
FUZZ_LIB_OBJ        = $(LIB_SRC:%.c=$(FUZZ_BUILD)/%.o)
FUZZ_BINS           = $(FUZZ_HARNESSES:%=$(FUZZ_BUILD)/fuzz_%)
TSAN_BUILD          = build-tsan
TSAN_CFLAGS         = -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -fsanitize=thread -Iinclude -Isrc -fPIC
TSAN_LIB_OBJ        = $(LIB_SRC:%.c=$(TSAN_BUILD)/%.o)

.PHONY: fuzz fuzz-smoke fuzz-build tsan
# keep the instrumented objects (pattern-rule prerequisites are otherwise deleted)
.SECONDARY: $(FUZZ_LIB_OBJ) $(TSAN_LIB_OBJ)

$(FUZZ_BUILD)/%.o: %.c $(wildcard include/*.h src/*.h src/train/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_BUILD)/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz_common.h $(FUZZ_LIB_OBJ)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB_OBJ) -lm -lpthread

$(FUZZ_BUILD)/fuzz_fts5: sqlite/fenci_fts5.c

fuzz-build: $(FUZZ_BINS)

# $(1): harness, $(2): seconds
define fuzz_run
	@mkdir -p $(FUZZ_BUILD)/corpus/$(1)
	nice -n 10 $(FUZZ_BUILD)/fuzz_$(1) -max_total_time=$(2) -timeout=25 -rss_limit_mb=2048 \
	  -dict=fuzz/fenci.dict -artifact_prefix=$(FUZZ_BUILD)/crash-$(1)- -print_final_stats=1 $(FUZZ_LEN_$(1)) $(FUZZ_ARGS) \
	  $(FUZZ_BUILD)/corpus/$(1) fuzz/seeds/$(1)

endef

fuzz: $(FUZZ_BINS) all
	$(foreach h,$(FUZZ_HARNESSES),$(call fuzz_run,$(h),$(FUZZ_SECONDS)))
	FENCI=./fenci BUILD=$(BUILD) CORRUPT_LONG=1 sh tests/corrupt/run.sh
	FENCI=./fenci BUILD=$(BUILD) PATHOLOGICAL_LONG=1 sh tests/pathological/run.sh

fuzz-smoke: $(FUZZ_BINS)
	$(foreach h,$(FUZZ_HARNESSES),$(call fuzz_run,$(h),$(FUZZ_SMOKE_SECONDS)))

$(TSAN_BUILD)/%.o: %.c $(wildcard include/*.h src/*.h src/train/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(TSAN_CFLAGS) -c $< -o $@

$(TSAN_BUILD)/libfenci.a: $(TSAN_LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

tsan: $(TSAN_BUILD)/libfenci.a fenci
	BUILD=$(TSAN_BUILD) CC=$(FUZZ_CC) FENCI=./fenci TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
	  sh tests/concurrency/run.sh
