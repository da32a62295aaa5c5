/* fenci_sqlite.c - main of fenci-sqlite, the program `fenci index` and
 * `fenci search` run (cli/helper.c finds it next to `fenci` or in
 * $(PREFIX)/libexec/fenci), and what index and search share: opening an
 * index and reading what it was made with.
 *
 * Why a program of its own: the library and the `fenci` tool depend on
 * libc and pthreads only, and SQLite stays out of them.  The tokenizer is
 * fenci_fts5.c, linked in and registered for every connection with
 * sqlite3_auto_extension: the same code as the loadable extension, with no
 * .so to find at run time. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../cli/common.h"
#include "fenci.h"
#include "fenci_sqlite.h"

/* fenci_fts5.c's entry point (it includes sqlite3ext.h, we sqlite3.h). */
int sqlite3_fencifts_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi);

double fs_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

const char *fs_rel(const char *path) {
  static char cwd[4096];
  static int have = -1;
  size_t l;
  if (have < 0) have = getcwd(cwd, sizeof cwd) != NULL;
  l = have ? strlen(cwd) : 0;
  if (l > 1 && !strncmp(path, cwd, l) && path[l] == '/') return path + l + 1;
  return path;
}

void fs_sqlerr(const char *cmd, sqlite3 *db, const char *what) {
  fprintf(stderr, "fenci %s: %s: %s\n", cmd, what, db ? sqlite3_errmsg(db) : "out of memory");
}

int fs_exec(const char *cmd, sqlite3 *db, const char *sql, const char *what) {
  char *err = NULL;
  if (sqlite3_exec(db, sql, NULL, NULL, &err) == SQLITE_OK) return 0;
  fprintf(stderr, "fenci %s: %s: %s\n", cmd, what, err ? err : sqlite3_errmsg(db));
  sqlite3_free(err);
  return -1;
}

sqlite3 *fs_open(const char *cmd, const char *path, int write) {
  sqlite3 *db = NULL;
  int rc;
  if (write) {
    rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
  } else {
    /* read-write when allowed: an indexer killed half-way leaves a journal
     * that only a writer can roll back; nothing else is ever written */
    rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL);
    if (rc != SQLITE_OK) {
      sqlite3_close(db);
      db = NULL;
      rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL);
    }
  }
  if (rc != SQLITE_OK) {
    fprintf(stderr, "fenci %s: cannot open %s: %s\n", cmd, path, db ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_close(db);
    return NULL;
  }
  sqlite3_busy_timeout(db, 10000);
  sqlite3_extended_result_codes(db, 1);
  return db;
}

/* One value of fenci_meta into out (n bytes); 0 found, -1 not. */
static int fs_meta_get(sqlite3 *db, const char *key, char *out, size_t n) {
  sqlite3_stmt *st = NULL;
  int found = -1;
  if (sqlite3_prepare_v2(db, "SELECT value FROM fenci_meta WHERE key = ?1", -1, &st, NULL) != SQLITE_OK) return -1;
  sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
  if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0)) {
    snprintf(out, n, "%s", (const char *)sqlite3_column_text(st, 0));
    found = 0;
  }
  sqlite3_finalize(st);
  return found;
}

int fs_meta_read(const char *cmd, sqlite3 *db, const char *path, fs_meta *m) {
  sqlite3_stmt *st = NULL;
  int ntables = -1, has_meta = 0;
  char v[64];
  memset(m, 0, sizeof *m);
  if (sqlite3_prepare_v2(db, "SELECT count(*), sum(name = 'fenci_meta') FROM sqlite_schema", -1, &st, NULL) ==
          SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW) {
    ntables = sqlite3_column_int(st, 0);
    has_meta = sqlite3_column_int(st, 1);
  }
  if (ntables < 0) {
    fs_sqlerr(cmd, db, path);
    sqlite3_finalize(st);
    return -1;
  }
  sqlite3_finalize(st);
  if (ntables == 0) return 0;
  if (!has_meta) {
    fprintf(stderr, "fenci %s: %s is an SQLite database but no fenci index (it has no table fenci_meta)\n", cmd, path);
    return -1;
  }
  if (fs_meta_get(db, "schema", v, sizeof v) || fs_meta_get(db, "model", m->model, sizeof m->model) ||
      fs_meta_get(db, "mode", m->mode, sizeof m->mode) || fs_meta_get(db, "unit", m->unit, sizeof m->unit)) {
    fprintf(stderr, "fenci %s: %s: fenci_meta lacks schema, model, mode or unit\n", cmd, path);
    return -1;
  }
  if (atoi(v) != FS_SCHEMA) {
    fprintf(stderr, "fenci %s: %s has index schema %s; this fenci reads schema %d\n", cmd, path, v, FS_SCHEMA);
    return -1;
  }
  m->fast = fs_meta_get(db, "fast", v, sizeof v) == 0 && atoi(v) == 1;
  return 1;
}

int fs_model_use(const char *cmd, const fs_meta *m) {
  char path[32768], *slash;
  if (strchr(m->model, '/')) return 0; /* a path: the tokenizer opens it as is */
  if (fc_cli_model_path(m->model, path, sizeof path) != 0) {
    fprintf(stderr, "fenci %s: model not found: %s\n", cmd, path);
    return -1;
  }
  slash = strrchr(path, '/');
  if (!slash) return 0; /* NAME.fenci in the current folder: the tokenizer finds no such file by name */
  *slash = 0;
  if (setenv("FENCI_MODEL_DIR", path, 1) != 0) {
    fprintf(stderr, "fenci %s: setenv: %s\n", cmd, strerror(errno));
    return -1;
  }
  return 0;
}

static void fs_usage(FILE *f) {
  fprintf(f,
          "fenci-sqlite - full-text search over Chinese text files (SQLite FTS5)\n"
          "\n"
          "usage: fenci index DB PATH...        index text files and folders into DB\n"
          "       fenci search DB QUERY [-n N] [--json]\n"
          "\n"
          "'fenci index --help' and 'fenci search --help' tell more.\n");
}

int main(int argc, char **argv) {
  int rc;
  if (argc < 2) {
    fs_usage(stderr);
    return 2;
  }
  if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
    fs_usage(stdout);
    return fc_cli_close_stdout(1) ? 1 : 0;
  }
  if (sqlite3_auto_extension((void (*)(void))sqlite3_fencifts_init) != SQLITE_OK) {
    fprintf(stderr, "fenci: cannot register the fenci tokenizer with SQLite\n");
    return 1;
  }
  if (!strcmp(argv[1], "index")) rc = fs_cmd_index(argc - 1, argv + 1);
  else if (!strcmp(argv[1], "search")) rc = fs_cmd_search(argc - 1, argv + 1);
  else {
    fprintf(stderr, "fenci-sqlite: unknown command '%s' (index or search)\n", argv[1]);
    return 2;
  }
  if (fc_cli_close_stdout(rc == 0 || rc == 1) != 0 && rc == 0) rc = 1;
  sqlite3_shutdown();
  return rc;
}
