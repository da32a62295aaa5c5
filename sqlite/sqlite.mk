# sqlite/sqlite.mk - the SQLite FTS5 tokenizer extension (included by the Makefile).
#   make sqlite        $(BUILD)/sqlite/fenci_fts5.so and the C test program
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
SQLITE_PY    ?= /usr/bin/python3
# The extension sees only include/fenci.h, as any user of the library does.
SQLITE_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(CFLAGS) -Iinclude -fPIC -fvisibility=hidden \
                -DFENCI_FTS5_DATADIR='"$(PREFIX)/share/fenci"' -DFENCI_FTS5_BUILDDIR='"$(CURDIR)/models"'
SQLITE_HAVE  := $(shell printf '\043include <sqlite3ext.h>\n' | $(CC) -E -x c - >/dev/null 2>&1 && echo 1)

.PHONY: sqlite bench-sqlite

sqlite: $(SQLITE_EXT) $(SQLITE_TEST)

ifeq ($(SQLITE_HAVE),1)
all: $(SQLITE_EXT)
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

$(BUILD)/sqlite/tokbench: sqlite/bench/tokbench.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) $(CFLAGS) -o $@ $< -lsqlite3 $(LDLIBS)

bench-sqlite: $(SQLITE_EXT) $(BUILD)/sqlite/tokbench
	$(SQLITE_PY) sqlite/bench/bench.py --ext $(SQLITE_EXT) --data $(DATA) --build $(BUILD)

.DEFAULT_GOAL := $(_sqlite_saved_goal)
