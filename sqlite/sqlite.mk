# sqlite/sqlite.mk - the SQLite FTS5 tokenizer extension (included by the Makefile).
#   make sqlite        $(BUILD)/sqlite/fenci_fts5.so, the C test program and
#                      fenci-sqlite (`fenci index`, `fenci search`)
#                      (needs libsqlite3-dev: apt-get install libsqlite3-dev sqlite3)
#   make bench-sqlite  sqlite/bench: recall and precision against unicode61,
#                      trigram and one character a token; indexing speed,
#                      query latency, load time and memory (a few minutes)
# `make all` builds the extension too when <sqlite3ext.h> is there; make check
# runs tests/sqlite/run.sh, which builds it (installing the packages when it
# runs as root and they are missing; else it says SKIP).

_sqlite_saved_goal := $(.DEFAULT_GOAL)

SQLITE_EXT    = $(BUILD)/sqlite/fenci_fts5.so
SQLITE_TEST   = $(BUILD)/sqlite/test_fts5
SQLITE_HELPER = $(dir $(BIN))fenci-sqlite
SQLITE_HELPER_OBJ = $(BUILD)/sqlite/fenci_sqlite.o $(BUILD)/sqlite/fenci_index.o $(BUILD)/sqlite/fenci_search.o
SQLITE_PY    ?= /usr/bin/python3
# The extension sees only include/fenci.h, as any user of the library does.
SQLITE_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(CFLAGS) -Iinclude -fPIC -fvisibility=hidden \
                -DFENCI_FTS5_DATADIR='"$(PREFIX)/share/fenci"' -DFENCI_FTS5_BUILDDIR='"$(CURDIR)/models"'
SQLITE_HAVE  := $(shell printf '\043include <sqlite3ext.h>\n' | $(CC) -E -x c - >/dev/null 2>&1 && echo 1)

.PHONY: sqlite bench-sqlite

sqlite: $(SQLITE_EXT) $(SQLITE_TEST) $(SQLITE_HELPER)

ifeq ($(SQLITE_HAVE),1)
all: $(SQLITE_EXT) $(SQLITE_HELPER)
endif

$(BUILD)/sqlite/fenci_fts5.o: sqlite/fenci_fts5.c include/fenci.h
	@mkdir -p $(dir $@)
	$(CC) $(SQLITE_CFLAGS) -c $< -o $@

# libfenci.a goes inside, its symbols hidden: the extension needs no
# libfenci.so at run time and cannot clash with another copy in the process.
$(SQLITE_EXT): $(BUILD)/sqlite/fenci_fts5.o $(BUILD)/libfenci.a
	$(CC) -shared $(SQLITE_CFLAGS) -Wl,--exclude-libs,ALL -o $@ $< $(BUILD)/libfenci.a $(LDLIBS)

# The C test links the system SQLite and loads the extension like any program.
$(SQLITE_TEST): tests/sqlite/test_fts5.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(CFLAGS) -o $@ $< -lsqlite3 $(LDLIBS)

# fenci-sqlite, the program `fenci index` and `fenci search` run, goes next to
# the fenci binary (cli/helper.c looks there, then in $(PREFIX)/libexec/fenci).
# It links the system SQLite, the tokenizer object above (registered with
# sqlite3_auto_extension: no .so to find) and cli/common.o (model lookup,
# options), so the fenci binary itself never links SQLite.

$(SQLITE_HELPER_OBJ): $(BUILD)/sqlite/%.o: sqlite/%.c sqlite/fenci_sqlite.h cli/common.h include/fenci.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_DEFAULT_SOURCE $(WARN) $(CFLAGS) -Iinclude -c $< -o $@

$(SQLITE_HELPER): $(SQLITE_HELPER_OBJ) $(BUILD)/sqlite/fenci_fts5.o $(BUILD)/cli/common.o $(BUILD)/libfenci.a
	$(CC) $(CFLAGS) -o $@ $(SQLITE_HELPER_OBJ) $(BUILD)/sqlite/fenci_fts5.o $(BUILD)/cli/common.o $(BUILD)/libfenci.a -lsqlite3 $(LDLIBS)

.PHONY: install-sqlite uninstall-sqlite clean-sqlite
install: install-sqlite
uninstall: uninstall-sqlite
clean: clean-sqlite
install-sqlite: $(if $(SQLITE_HAVE),$(SQLITE_HELPER))
	@if [ -f $(SQLITE_HELPER) ]; then \
	  install -d $(DESTDIR)$(PREFIX)/libexec/fenci && \
	  install -m 755 $(SQLITE_HELPER) $(DESTDIR)$(PREFIX)/libexec/fenci/fenci-sqlite; fi
uninstall-sqlite:
	rm -rf $(DESTDIR)$(PREFIX)/libexec/fenci
clean-sqlite:
	rm -f fenci-sqlite

$(BUILD)/sqlite/tokbench: sqlite/bench/tokbench.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) $(CFLAGS) -o $@ $< -lsqlite3 $(LDLIBS)

bench-sqlite: $(SQLITE_EXT) $(BUILD)/sqlite/tokbench $(SQLITE_HELPER) $(BIN)
	$(SQLITE_PY) sqlite/bench/bench.py --ext $(SQLITE_EXT) --data $(DATA) --build $(BUILD) --fenci ./$(BIN)

.DEFAULT_GOAL := $(_sqlite_saved_goal)
