# fenci - plain GNU Makefile.  `make` builds libfenci.a, libfenci.so and fenci;
# `make check` runs every test; `make bench` / `make eval` run the long jobs.

CC      ?= cc
PREFIX  ?= /usr/local
DATA    ?= ../shared/data
SOVERSION = 0
VERSION   = 0.1.0

WARN    = -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
          -Wwrite-strings -Wundef -Wdouble-promotion -Wformat=2 -Wvla
OPT     ?= -O3 -g -flto=auto -ffat-lto-objects
CFLAGS  ?= $(OPT)
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(CFLAGS) -Iinclude -Isrc -fPIC -fvisibility=hidden
LDLIBS  = -lm -lpthread
BUILD   ?= build

LIB_SRC  = $(sort $(wildcard src/*.c src/train/*.c))
CLI_SRC  = $(sort $(wildcard cli/*.c))
LIB_OBJ  = $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ  = $(CLI_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC = $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all check unit clean asan ubsan install uninstall bench eval models lexicon FORCE

# The tool: ./fenci for the normal build; sanitizer builds keep theirs in
# their build directory so they never replace the normal one.
BIN ?= fenci

all: $(BUILD)/libfenci.a $(BUILD)/libfenci.so $(BIN)

$(BUILD)/%.o: %.c $(wildcard include/*.h src/*.h src/train/*.h cli/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/libfenci.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/libfenci.so: $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,libfenci.so.$(SOVERSION) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

# The CLI looks for named models in $(PREFIX)/share/fenci after the build tree.
# The stamp holds the PREFIX common.o was compiled for and is rewritten only
# when PREFIX changes, so `make install PREFIX=/opt/x` after a plain `make`
# rebuilds common.o and the installed fenci searches (and names) /opt/x.
$(BUILD)/cli/common.o: ALL_CFLAGS += -DFENCI_DATADIR='"$(PREFIX)/share/fenci"'
$(BUILD)/cli/common.o: $(BUILD)/prefix.stamp
# `fenci index` / `fenci search` run fenci-sqlite (sqlite/sqlite.mk) from there
$(BUILD)/cli/helper.o: ALL_CFLAGS += -DFENCI_LIBEXECDIR='"$(PREFIX)/libexec/fenci"'
$(BUILD)/cli/helper.o: $(BUILD)/prefix.stamp
$(BUILD)/prefix.stamp: FORCE
	@mkdir -p $(dir $@)
	@[ "$$(cat $@ 2>/dev/null)" = '$(PREFIX)' ] || printf '%s\n' '$(PREFIX)' >$@
FORCE:

$(BIN): $(CLI_OBJ) $(BUILD)/libfenci.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/libfenci.a $(LDLIBS)

# Unit tests link the static library, so they can reach internal fc_* symbols.
$(BUILD)/tests/%: tests/unit/%.c tests/unit/harness.h $(BUILD)/libfenci.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/unit -o $@ $< $(BUILD)/libfenci.a $(LDLIBS)

# Every unit test runs even when one fails; the target fails at the end.
unit: $(UNIT_BIN)
	@fail=0; for t in $(UNIT_BIN); do echo "== $$t"; $$t || { echo "FAILED: $$t"; fail=1; }; done; exit $$fail

# tests/sqlite/run.sh builds the FTS5 extension with $(MAKE) (the same flags).
check: all unit $(BUILD)/examples/segment
	+@MAKE="$(MAKE)" BUILD=$(BUILD) FENCI=./$(BIN) FENCI_MODEL_DIR=$(CURDIR)/models sh tests/run.sh
	@echo "make check: all tests passed"

# The README's library example must keep compiling and working.
$(BUILD)/examples/segment: examples/segment.c $(BUILD)/libfenci.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/libfenci.a $(LDLIBS)
	$@ models/lexicon.fenci "拿破仑在枫丹白露签署了退位诏书。" > $@.out
	grep -q "枫丹白露" $@.out

asan:
	$(MAKE) BUILD=build-asan BIN=build-asan/fenci CFLAGS="-O1 -g -fsanitize=address -fno-omit-frame-pointer -DFENCI_SANITIZED" \
	  LDLIBS="-lm -lpthread -fsanitize=address" check

ubsan:
	$(MAKE) BUILD=build-ubsan BIN=build-ubsan/fenci CFLAGS="-O1 -g -fsanitize=undefined -fno-sanitize-recover=all -DFENCI_SANITIZED" \
	  LDLIBS="-lm -lpthread -fsanitize=undefined" check

# The shipped lexicon: jieba's dictionary (Expat licence) plus the unknown-word
# character model counted from People's Daily 1998-01 without its dev days,
# then the part-of-speech tagger (models.mk) added to it: every trained model
# references this one file (docs/FORMAT.md, LREF), so all share both.
lexicon: models/lexicon.fenci
models/lexicon.fenci: fenci models.mk tools/pd2seg.sh $(BUILD)/models/pos.train $(BUILD)/models/pos.dev \
    $(BUILD)/models/pos.traindev $(BUILD)/models/kw.docs data/stopwords-zh.txt $(BUILD)/models/msr.train \
    $(BUILD)/models/msr.dev $(BUILD)/models/pd.train
	@mkdir -p $(BUILD)/data $(BUILD)/models
	tools/pd2seg.sh train < $(DATA)/pd1998-01/199801.txt > $(BUILD)/data/pd_train.seg
	./fenci compile $(DATA)/lexicon/jieba-dict.txt --oov-corpus $(BUILD)/data/pd_train.seg -o $(BUILD)/models/lexicon.base
	$(KW_IDF) -o $(BUILD)/models/lexicon.base
	$(POS_TRAIN) -o $(BUILD)/models/lexicon.posdev
	$(call fc_refit,pos,accuracy,$(BUILD)/models/lexicon.posdev,$(POS_REFIT)) -o $(BUILD)/models/lexicon.pos
	$(NER_TRAIN) --lexicon $(BUILD)/models/lexicon.pos -o $(BUILD)/models/lexicon.nerdev
	$(call fc_refit,ner,f1,$(BUILD)/models/lexicon.nerdev,$(NER_REFIT)) --lexicon $(BUILD)/models/lexicon.pos -o $(BUILD)/models/lexicon.ner
	$(BIGRAM_COUNT) $(BUILD)/models/lexicon.ner -o $@

# The word bigrams that resolve overlapping ambiguities (src/bigram.h): the
# training text of the three segmenters (People's Daily without its dev days,
# msra-ner train without its last 10 %, CTB6 train), without the ambiguity
# suite's sentences (eval/ambiguity/README.md).
BIGRAM_COUNT = sed -E 's\#/[a-z]+( |$$)\#\1\#g' $(BUILD)/models/msr.train > $(BUILD)/data/msr_train.seg && \
  /usr/bin/python3 eval/ambiguity/score.py --sentences --data $(DATA) > $(BUILD)/data/ambiguity.sentences && \
  ./fenci bigram --corpus $(BUILD)/data/pd_train.seg --corpus $(BUILD)/data/msr_train.seg \
    --corpus $(DATA)/ctb6/ctb6.train.seg --exclude $(BUILD)/data/ambiguity.sentences

# Traditional Chinese: the default model on the SIGHAN 2005 CITYU and AS tests
# (the models are trained on simplified text; features map traditional to
# simplified characters, offsets stay in the original text).
.PHONY: eval-traditional
eval: eval-traditional
eval-traditional: $(BIN)
	@mkdir -p $(BUILD)/eval
	@for t in cityu as; do \
	  raw=$(DATA)/sighan2005/$${t}_test.utf8; gold=$(DATA)/sighan2005/$${t}_test_gold.utf8; \
	  [ $$t = as ] && gold=$(DATA)/sighan2005/as_testing_gold.utf8; \
	  ./$(BIN) cut -q -d '  ' $$raw > $(BUILD)/eval/$$t.out || exit 1; \
	  printf '%-6s (default model, traditional) ' $$t; \
	  ./$(BIN) eval $$gold $(BUILD)/eval/$$t.out --words $(DATA)/sighan2005/$${t}_training_words.utf8 2>/dev/null | head -1; \
	done

# Fragments owned by their areas: benchmark, models/eval, fuzzing, SQLite, Python.
-include bench/bench.mk
-include models.mk
-include sqlite/sqlite.mk
-include fuzz/fuzz.mk
-include python/python.mk
-include tests/numex/numex.mk

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include \
	  $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/share/fenci $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/fenci
	install -m 644 $(BUILD)/libfenci.a $(DESTDIR)$(PREFIX)/lib/libfenci.a
	install -m 755 $(BUILD)/libfenci.so $(DESTDIR)$(PREFIX)/lib/libfenci.so.$(VERSION)
	ln -sf libfenci.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libfenci.so.$(SOVERSION)
	ln -sf libfenci.so.$(SOVERSION) $(DESTDIR)$(PREFIX)/lib/libfenci.so
	install -m 644 include/fenci.h $(DESTDIR)$(PREFIX)/include/fenci.h
	install -m 644 models/*.fenci $(DESTDIR)$(PREFIX)/share/fenci/
	install -m 644 docs/fenci.1 $(DESTDIR)$(PREFIX)/share/man/man1/fenci.1
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' fenci.pc.in \
	  > $(DESTDIR)$(PREFIX)/lib/pkgconfig/fenci.pc

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/fenci $(DESTDIR)$(PREFIX)/lib/libfenci.* $(DESTDIR)$(PREFIX)/include/fenci.h \
	  $(DESTDIR)$(PREFIX)/lib/pkgconfig/fenci.pc $(DESTDIR)$(PREFIX)/share/man/man1/fenci.1
	rm -rf $(DESTDIR)$(PREFIX)/share/fenci

clean:
	rm -rf build build-asan build-ubsan fenci
