/* fenci_sqlite.h - the fenci-sqlite program behind `fenci index` and
 * `fenci search`: what its three files share (the index's schema, opening
 * it, messages).  It links the system SQLite and the FTS5 tokenizer of
 * fenci_fts5.c, registered with sqlite3_auto_extension, so the `fenci`
 * tool itself never links SQLite. */
#ifndef FENCI_SQLITE_H
#define FENCI_SQLITE_H

#include <sqlite3.h>
#include <stddef.h>

/* The schema of an index (docs: README "fenci index"):
 *   fenci_meta(key, value)   schema, model, mode, fast, unit
 *   files(id, path, size, mtime, hash, rows, warning)
 *   chunks(id, file, line, text)       one row a line or a paragraph
 *   chunks_fts                         FTS5 over chunks.text (content='chunks'),
 *                                      kept in step by fenci index */
#define FS_SCHEMA 1

/* What an index was made with (fenci_meta). */
typedef struct fs_meta {
  char model[4096]; /* a model name, or an absolute path */
  char mode[16];    /* search, default or all */
  char unit[16];    /* line or paragraph */
  int fast;         /* 1: the lexicon decoder */
} fs_meta;

int fs_cmd_index(int argc, char **argv);
int fs_cmd_search(int argc, char **argv);

/* Opens the index at path (for writing when write, creating it), with the
 * busy timeout set.  NULL on failure, message printed. */
sqlite3 *fs_open(const char *cmd, const char *path, int write);

/* Reads fenci_meta: 1 read, 0 the database has no tables at all (a new
 * index), -1 not a fenci index or unreadable (message printed). */
int fs_meta_read(const char *cmd, sqlite3 *db, const char *path, fs_meta *m);

/* Makes the model of m the one the tokenizer opens: a model name is found
 * as `fenci` finds it (fc_cli_model_path) and its folder put in
 * $FENCI_MODEL_DIR, where the tokenizer looks first.  0, or -1 (printed). */
int fs_model_use(const char *cmd, const fs_meta *m);

/* Runs sql; on failure prints "fenci CMD: what: SQLite's message".  0 / -1. */
int fs_exec(const char *cmd, sqlite3 *db, const char *sql, const char *what);
void fs_sqlerr(const char *cmd, sqlite3 *db, const char *what);

/* path (absolute, as the index keeps it) as shown: relative to the
 * current folder when inside it. */
const char *fs_rel(const char *path);

/* Monotonic seconds. */
double fs_now(void);

#endif
