/* fenci_index.c - `fenci index DB PATH...`: text files into an FTS5 index
 * (the schema is in fenci_sqlite.h and the README).
 *
 * A run walks the paths first (folders recursively, in name order; names
 * starting with '.' and symbolic links inside folders are left out), then
 * removes the files under those paths that the index has and the disk no
 * longer has, then indexes each file whose size or modification time
 * changed.  A file whose bytes are the same as indexed (its hash) only gets
 * its new time.  Each file's rows change inside one transaction, and a
 * transaction holds whole files up to --batch MB: an indexer stopped at any
 * point (even by SIGKILL) leaves the index as of its last commit, and the
 * next run does the rest.
 *
 * Bad input: a file with a NUL byte in its first FS_SNIFF bytes is binary
 * and not indexed (it is recorded, with the reason, so it is not read
 * again while unchanged); invalid UTF-8 (and NUL) bytes elsewhere become
 * U+FFFD, the rest of the file is indexed, and the warning is printed and
 * kept in files.warning.  The stored text is then always valid UTF-8. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../cli/common.h"
#include "fenci_sqlite.h"

#define FS_SNIFF 8000u /* bytes looked at for a NUL (as git and grep do) */

static const char fs_index_help[] =
    "usage: fenci index [options] DB PATH...\n"
    "\n"
    "Indexes the text files PATH (folders: every file inside, recursively) into\n"
    "the SQLite database DB, made when missing.  Run it again after files\n"
    "change: changed files are indexed anew, unchanged ones (same size and time,\n"
    "or same content) skipped, and files gone from under PATH removed.  Search\n"
    "with 'fenci search DB QUERY'.\n"
    "\n"
    "Options (the first four are fixed when DB is made):\n"
    "  -m, --model NAME|PATH  the model (default ctb)\n"
    "      --mode MODE        search (default: long words also by the words inside\n"
    "                         them), default (the plain segmentation) or all\n"
    "      --fast             the lexicon decoder (faster, less accurate)\n"
    "      --paragraphs       one row per paragraph (lines up to a blank line);\n"
    "                         default: one row per line\n"
    "      --batch MB         commit after this much text (default 8)\n"
    "  -v, --verbose          name each file and what was done with it\n"
    "  -q, --quiet            no progress bar, no summary\n"
    "      --progress         the progress bar even when stderr is no terminal\n"
    "\n"
    "A binary file (a NUL byte in its first 8000 bytes) is skipped; invalid UTF-8\n"
    "bytes are replaced by U+FFFD and the rest of the file is indexed, with a\n"
    "warning.  Names starting with '.' and symbolic links inside folders are\n"
    "left out.  Exit status: 0, or 1 when a file could not be read, 2 on a\n"
    "usage error.\n";

/* ------------------------------------------------------------- the walk */

typedef struct fs_file {
  char *path;                /* absolute */
  long long size;            /* bytes, from the walk's stat */
  long long mtime;           /* ns since the epoch */
  long long id;              /* files.id, 0 when not indexed yet */
  int todo;                  /* 1: to be (re)indexed */
} fs_file;

typedef struct fs_list {
  fs_file *v;
  size_t n, cap;
} fs_list;

static long long fs_mtime_ns(const struct stat *st) {
  return (long long)st->st_mtim.tv_sec * 1000000000LL + (long long)st->st_mtim.tv_nsec;
}

static int fs_list_add(fs_list *l, const char *path, const struct stat *st) {
  if (l->n == l->cap) {
    size_t nc = l->cap ? l->cap * 2 : 256;
    fs_file *v = realloc(l->v, nc * sizeof *v);
    if (!v) return -1;
    l->v = v;
    l->cap = nc;
  }
  memset(&l->v[l->n], 0, sizeof l->v[0]);
  l->v[l->n].path = strdup(path);
  if (!l->v[l->n].path) return -1;
  l->v[l->n].size = (long long)st->st_size;
  l->v[l->n].mtime = fs_mtime_ns(st);
  l->n++;
  return 0;
}

static int fs_cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int fs_cmp_file(const void *a, const void *b) {
  return strcmp(((const fs_file *)a)->path, ((const fs_file *)b)->path);
}

/* Adds the regular files under dir (its entries in name order).  Errors
 * reading a folder are printed and counted in *nerr; -1 only when out of
 * memory. */
static int fs_walk_dir(fs_list *l, const char *dir, int *nerr) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char **names = NULL, path[PATH_MAX];
  size_t n = 0, cap = 0, i;
  int rc = 0;
  if (!d) {
    fprintf(stderr, "fenci index: %s: %s\n", fs_rel(dir), strerror(errno));
    (*nerr)++;
    return 0;
  }
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue; /* ., .., and hidden files (.git) */
    if (n == cap) {
      size_t nc = cap ? cap * 2 : 64;
      char **p = realloc(names, nc * sizeof *p);
      if (!p) {
        rc = -1;
        break;
      }
      names = p;
      cap = nc;
    }
    if (!(names[n] = strdup(e->d_name))) {
      rc = -1;
      break;
    }
    n++;
  }
  closedir(d);
  if (rc == 0 && n) qsort(names, n, sizeof *names, fs_cmp_str);
  for (i = 0; i < n; i++) {
    struct stat st;
    if (rc == 0) {
      if ((size_t)snprintf(path, sizeof path, "%s/%s", strcmp(dir, "/") ? dir : "", names[i]) >= sizeof path) {
        fprintf(stderr, "fenci index: %s/%s: path too long\n", dir, names[i]);
        (*nerr)++;
      } else if (lstat(path, &st) != 0) {
        fprintf(stderr, "fenci index: %s: %s\n", fs_rel(path), strerror(errno));
        (*nerr)++;
      } else if (S_ISDIR(st.st_mode)) {
        rc = fs_walk_dir(l, path, nerr);
      } else if (S_ISREG(st.st_mode)) {
        rc = fs_list_add(l, path, &st);
      } /* symbolic links, devices, sockets, pipes: left out */
    }
    free(names[i]);
  }
  free(names);
  return rc;
}

/* The absolute form of a path given: realpath when it exists; else the
 * current folder joined to it (so its rows can still be found and removed). */
static int fs_abs(const char *p, char *out, size_t n) {
  char cwd[PATH_MAX];
  size_t l;
  if (realpath(p, out)) return 0;
  if (p[0] == '/') {
    if ((size_t)snprintf(out, n, "%s", p) >= n) return -1;
  } else {
    if (!getcwd(cwd, sizeof cwd)) return -1;
    while (p[0] == '.' && p[1] == '/') p += 2;
    if ((size_t)snprintf(out, n, "%s/%s", strcmp(cwd, "/") ? cwd : "", p) >= n) return -1;
  }
  l = strlen(out);
  while (l > 1 && out[l - 1] == '/') out[--l] = 0;
  return 0;
}

/* ----------------------------------------------------------- file text */

/* 64-bit FNV-1a: tells a touched file from a changed one. */
static uint64_t fs_hash(const unsigned char *s, size_t n) {
  uint64_t h = 1469598103934665603u;
  size_t i;
  for (i = 0; i < n; i++) h = (h ^ s[i]) * 1099511628211u;
  return h;
}

/* The length of the valid UTF-8 character at s (n bytes left; no NUL, no
 * surrogate, no overlong form, at most U+10FFFF), 0 when invalid.  (sqlite/
 * sees only fenci.h, whose tokenizer skips such bytes but does not say.) */
static size_t fs_utf8_len(const unsigned char *s, size_t n) {
  unsigned c = s[0];
  if (c < 0x80) return c ? 1 : 0;
  if (c >= 0xC2 && c <= 0xDF) return n >= 2 && (s[1] & 0xC0) == 0x80 ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    return n >= 3 && s[1] >= lo && s[1] <= hi && (s[2] & 0xC0) == 0x80 ? 3 : 0;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    unsigned lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    return n >= 4 && s[1] >= lo && s[1] <= hi && (s[2] & 0xC0) == 0x80 && (s[3] & 0xC0) == 0x80 ? 4 : 0;
  }
  return 0;
}

/* Replaces every invalid byte of buf[0, *n) by U+FFFD, in place when the
 * text is valid (the common case) and in a new buffer (which replaces *buf)
 * otherwise.  Returns the number of bytes replaced, or -1 out of memory. */
static long long fs_utf8_fix(unsigned char **buf, size_t *n) {
  unsigned char *s = *buf, *o;
  size_t i = 0, k, j = 0;
  long long bad = 0;
  while (i < *n && (k = fs_utf8_len(s + i, *n - i)) > 0) i += k;
  if (i == *n) return 0;
  if (*n > (SIZE_MAX - 1) / 3) return -1;
  o = malloc(*n * 3 + 1);
  if (!o) return -1;
  memcpy(o, s, i);
  j = i;
  while (i < *n) {
    k = fs_utf8_len(s + i, *n - i);
    if (k) {
      memcpy(o + j, s + i, k);
      j += k;
      i += k;
    } else {
      memcpy(o + j, "\xEF\xBF\xBD", 3);
      j += 3;
      i++;
      bad++;
    }
  }
  free(s);
  *buf = o;
  *n = j;
  return bad;
}

/* Reads path into *buf (*n bytes); *st gets its fstat.  1 binary (a NUL in
 * the first FS_SNIFF bytes: *buf is NULL), 0 read, -1 failed (printed). */
static int fs_read(const char *path, unsigned char **buf, size_t *n, struct stat *st) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  unsigned char *b = NULL;
  size_t cap = 0, len = 0;
  *buf = NULL;
  *n = 0;
  if (fd < 0 || fstat(fd, st) != 0) {
    fprintf(stderr, "fenci index: %s: %s\n", fs_rel(path), strerror(errno));
    if (fd >= 0) close(fd);
    return -1;
  }
  for (;;) {
    ssize_t r;
    if (len == cap) {
      size_t nc = cap ? cap * 2 : (st->st_size > 0 ? (size_t)st->st_size + 1 : 65536);
      unsigned char *p = nc > cap ? realloc(b, nc) : NULL;
      if (!p) {
        fprintf(stderr, "fenci index: %s: out of memory\n", fs_rel(path));
        free(b);
        close(fd);
        return -1;
      }
      b = p;
      cap = nc;
    }
    r = read(fd, b + len, cap - len);
    if (r < 0) {
      if (errno == EINTR) continue;
      fprintf(stderr, "fenci index: %s: %s\n", fs_rel(path), strerror(errno));
      free(b);
      close(fd);
      return -1;
    }
    if (r == 0) break;
    if (len < FS_SNIFF && memchr(b + len, 0, (size_t)r < FS_SNIFF - len ? (size_t)r : FS_SNIFF - len)) {
      free(b);
      close(fd);
      return 1;
    }
    len += (size_t)r;
  }
  close(fd);
  *buf = b;
  *n = len;
  return 0;
}

/* ---------------------------------------------------------------- index */

typedef struct fs_ix {
  sqlite3 *db;
  sqlite3_stmt *find, *add_file, *set_file, *touch, *del_fts, *del_chunks, *del_file, *add_chunk, *add_fts;
  int paragraphs;            /* rows are paragraphs, not lines */
  int verbose, bar;
  double t0, last_bar;
  long long done, total;     /* bytes of the files to index, for the bar */
  size_t ndone, ntodo;
  long long added, changed, unchanged, removed, binary, nerr, nwarn;
} fs_ix;

static void fs_bar(fs_ix *x, int final) {
  double t = fs_now(), f;
  int w = 30, i, k;
  char bar[64];
  if (!x->bar || (!final && t - x->last_bar < 0.2)) return;
  x->last_bar = t;
  if (final) {
    fputs("\r\033[K", stderr);
    return;
  }
  f = x->total > 0 ? (double)x->done / (double)x->total : 1.0;
  k = (int)(f * w);
  for (i = 0; i < w; i++) bar[i] = i < k ? '#' : '-';
  bar[w] = 0;
  fprintf(stderr, "\rfenci index [%s] %3.0f%%  %zu/%zu files  %.1f MB  %.1f MB/s\033[K", bar, 100.0 * f, x->ndone,
          x->ntodo, (double)x->done / 1e6, (double)x->done / 1e6 / (t - x->t0 + 1e-9));
}

static int fs_step_done(fs_ix *x, sqlite3_stmt *st, const char *what) {
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  if (rc == SQLITE_DONE || rc == SQLITE_ROW) return 0;
  fs_sqlerr("index", x->db, what);
  return -1;
}

/* One row into chunks and chunks_fts.  (No trigger does the second: FTS5
 * writes out its pending terms at every statement savepoint, which a
 * trigger opens for each row, and indexing took twice as long.) */
static int fs_add_row(fs_ix *x, long long file, long long line, const char *s, size_t n) {
  sqlite3_bind_int64(x->add_chunk, 1, file);
  sqlite3_bind_int64(x->add_chunk, 2, line);
  sqlite3_bind_text(x->add_chunk, 3, s, (int)n, SQLITE_STATIC);
  if (fs_step_done(x, x->add_chunk, "insert")) return -1;
  sqlite3_bind_int64(x->add_fts, 1, sqlite3_last_insert_rowid(x->db));
  sqlite3_bind_text(x->add_fts, 2, s, (int)n, SQLITE_STATIC);
  return fs_step_done(x, x->add_fts, "insert");
}

/* Inserts the rows of text[0, n): one a non-blank line, or one a
 * paragraph.  Returns the row count, or -1. */
static long long fs_add_rows(fs_ix *x, long long file, const char *text, size_t n) {
  size_t i = 0, ln = 0, pstart = 0, pend = 0, pline = 0;
  long long rows = 0;
  int inpara = 0;
  if (n >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) i = 3; /* a byte order mark */
  while (i < n) {
    const char *nl = memchr(text + i, '\n', n - i);
    size_t s = i, e = nl ? (size_t)(nl - text) : n, k;
    int blank = 1;
    ln++;
    i = e + 1;
    for (k = s; k < e && blank; k++)
      if (text[k] != ' ' && text[k] != '\t' && text[k] != '\r' && text[k] != '\f' && text[k] != '\v') blank = 0;
    if (e > s && text[e - 1] == '\r') e--;
    if (x->paragraphs) {
      if (!blank) { /* the paragraph goes on */
        if (!inpara) pstart = s, pline = ln;
        inpara = 1;
        pend = e;
        continue;
      }
      if (!inpara) continue;
      inpara = 0; /* a blank line ends it */
      s = pstart;
      e = pend;
      k = pline;
    } else {
      if (blank) continue;
      k = ln;
    }
    if (fs_add_row(x, file, (long long)k, text + s, e - s)) return -1;
    if (++rows % 4096 == 0) { /* a long file moves the bar too */
      long long d = x->done;
      x->done += (long long)s;
      fs_bar(x, 0);
      x->done = d;
    }
  }
  if (inpara) {
    if (fs_add_row(x, file, (long long)pline, text + pstart, pend - pstart)) return -1;
    rows++;
  }
  return rows;
}

/* Removes a file's rows from chunks_fts, then from chunks: the index of an
 * external-content table is told the text it had (FTS5's 'delete'). */
static int fs_del_rows(fs_ix *x, long long id) {
  sqlite3_bind_int64(x->del_fts, 1, id);
  if (fs_step_done(x, x->del_fts, "delete")) return -1;
  sqlite3_bind_int64(x->del_chunks, 1, id);
  return fs_step_done(x, x->del_chunks, "delete");
}

static void fs_say(const fs_ix *x, const char *path, const char *what) {
  if (x->verbose) fprintf(stderr, "fenci index: %s: %s\n", fs_rel(path), what);
}

/* Indexes one file of the list (f->todo). */
static int fs_index_file(fs_ix *x, fs_file *f) {
  unsigned char *buf = NULL;
  size_t n = 0;
  struct stat st;
  char hash[17], warn[160];
  long long bad = 0, rows, id = f->id;
  int r = fs_read(f->path, &buf, &n, &st), ok = -1;
  warn[0] = 0;
  if (r < 0) {
    x->nerr++;
    return 0; /* its rows stay as they were */
  }
  if (r == 1) {
    snprintf(warn, sizeof warn, "binary (a NUL byte in its first %u bytes): not indexed", FS_SNIFF);
    fprintf(stderr, "fenci index: %s: %s\n", fs_rel(f->path), warn);
    x->binary++;
    snprintf(hash, sizeof hash, "binary");
  } else {
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)fs_hash(buf, n));
    if (id) {
      /* same bytes as indexed (touched, or copied over with the same text): the time only */
      int same = 0;
      sqlite3_bind_int64(x->find, 1, id);
      sqlite3_bind_null(x->find, 2);
      if (sqlite3_step(x->find) == SQLITE_ROW && sqlite3_column_text(x->find, 3))
        same = !strcmp((const char *)sqlite3_column_text(x->find, 3), hash);
      sqlite3_reset(x->find);
      if (same) {
        sqlite3_bind_int64(x->touch, 1, (long long)st.st_size);
        sqlite3_bind_int64(x->touch, 2, fs_mtime_ns(&st));
        sqlite3_bind_int64(x->touch, 3, id);
        free(buf);
        x->unchanged++;
        fs_say(x, f->path, "unchanged (same content)");
        return fs_step_done(x, x->touch, "update");
      }
    }
    bad = fs_utf8_fix(&buf, &n);
    if (bad < 0) {
      fprintf(stderr, "fenci index: %s: out of memory\n", fs_rel(f->path));
      free(buf);
      x->nerr++;
      return 0;
    }
    if (bad > 0) {
      snprintf(warn, sizeof warn, "%lld invalid UTF-8 byte%s replaced by U+FFFD", bad, bad == 1 ? "" : "s");
      fprintf(stderr, "fenci index: warning: %s: %s (the rest is indexed)\n", fs_rel(f->path), warn);
      x->nwarn++;
    }
    if (n > (size_t)INT_MAX) {
      fprintf(stderr, "fenci index: %s: over 2 GiB: not indexed\n", fs_rel(f->path));
      free(buf);
      x->nerr++;
      return 0;
    }
  }
  if (id) {
    if (fs_del_rows(x, id)) goto done;
  } else {
    sqlite3_bind_text(x->add_file, 1, f->path, -1, SQLITE_STATIC);
    if (fs_step_done(x, x->add_file, "insert")) goto done;
    id = sqlite3_last_insert_rowid(x->db);
  }
  rows = buf ? fs_add_rows(x, id, (const char *)buf, n) : 0;
  if (rows < 0) goto done;
  sqlite3_bind_int64(x->set_file, 1, (long long)st.st_size);
  sqlite3_bind_int64(x->set_file, 2, fs_mtime_ns(&st));
  sqlite3_bind_text(x->set_file, 3, hash, -1, SQLITE_STATIC);
  sqlite3_bind_int64(x->set_file, 4, rows);
  if (warn[0]) sqlite3_bind_text(x->set_file, 5, warn, -1, SQLITE_STATIC);
  else sqlite3_bind_null(x->set_file, 5);
  sqlite3_bind_int64(x->set_file, 6, id);
  if (fs_step_done(x, x->set_file, "update")) goto done;
  if (r == 0) {
    if (f->id) x->changed++;
    else x->added++;
    fs_say(x, f->path, f->id ? "changed" : "added");
  }
  ok = 0;
done:
  free(buf);
  return ok;
}

/* Removes a file's rows and its entry. */
static int fs_remove(fs_ix *x, long long id) {
  if (fs_del_rows(x, id)) return -1;
  sqlite3_bind_int64(x->del_file, 1, id);
  return fs_step_done(x, x->del_file, "delete");
}

/* Removes the indexed files under root (itself, or root/...) that the walk
 * did not find (l sorted by path). */
static int fs_prune(fs_ix *x, const fs_list *l, const char *root) {
  sqlite3_stmt *st = NULL;
  char lo[PATH_MAX + 2], hi[PATH_MAX + 2];
  long long *gone = NULL;
  size_t ng = 0, cap = 0, i;
  int rc = 0;
  /* root/... sorts in [root "/", root "0"): '0' follows '/' in ASCII */
  snprintf(lo, sizeof lo, "%s/", strcmp(root, "/") ? root : "");
  snprintf(hi, sizeof hi, "%s0", strcmp(root, "/") ? root : "");
  if (sqlite3_prepare_v2(x->db, "SELECT id, path FROM files WHERE path = ?1 OR (path >= ?2 AND path < ?3)", -1, &st,
                         NULL) != SQLITE_OK) {
    fs_sqlerr("index", x->db, "select");
    return -1;
  }
  sqlite3_bind_text(st, 1, root, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 2, lo, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 3, hi, -1, SQLITE_STATIC);
  while (sqlite3_step(st) == SQLITE_ROW) {
    fs_file key;
    key.path = (char *)sqlite3_column_text(st, 1);
    if (!key.path || (l->n && bsearch(&key, l->v, l->n, sizeof *l->v, fs_cmp_file))) continue;
    if (ng == cap) {
      size_t nc = cap ? cap * 2 : 64;
      long long *p = realloc(gone, nc * sizeof *p);
      if (!p) {
        rc = -1;
        break;
      }
      gone = p;
      cap = nc;
    }
    gone[ng++] = sqlite3_column_int64(st, 0);
    fs_say(x, key.path, "removed (no longer there)");
  }
  sqlite3_finalize(st);
  for (i = 0; rc == 0 && i < ng; i++) {
    rc = fs_remove(x, gone[i]);
    if (rc == 0) x->removed++;
  }
  free(gone);
  return rc;
}

/* Makes the schema in a new database (inside the caller's transaction). */
static int fs_create(sqlite3 *db, const fs_meta *m) {
  char *q, *opt, *sql;
  int rc;
  /* tokenize='fenci model X mode Y fast Z': X quoted as FTS5 wants ('' for ') */
  opt = sqlite3_mprintf("fenci model '%q' mode %s fast %d", m->model, m->mode, m->fast);
  if (!opt) return -1;
  q = sqlite3_mprintf(
      "CREATE TABLE fenci_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;\n"
      "INSERT INTO fenci_meta VALUES ('schema', '%d'), ('model', %Q), ('mode', %Q), ('fast', '%d'), ('unit', %Q);\n"
      "CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL,\n"
      "  mtime INTEGER NOT NULL, hash TEXT NOT NULL, rows INTEGER NOT NULL, warning TEXT);\n"
      "CREATE TABLE chunks(id INTEGER PRIMARY KEY, file INTEGER NOT NULL REFERENCES files(id),\n"
      "  line INTEGER NOT NULL, text TEXT NOT NULL);\n"
      "CREATE INDEX chunks_file ON chunks(file);\n"
      "CREATE VIRTUAL TABLE chunks_fts USING fts5(text, content='chunks', content_rowid='id', tokenize=%Q);\n",
      FS_SCHEMA, m->model, m->mode, m->fast, m->unit, opt);
  sqlite3_free(opt);
  if (!q) return -1;
  sql = q;
  rc = fs_exec("index", db, sql, "cannot make the index");
  sqlite3_free(q);
  if (rc) {
    /* FTS5 says only "error in tokenizer constructor"; fenci_error() says why */
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, "SELECT fenci_error()", -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
        sqlite3_column_text(st, 0))
      fprintf(stderr, "fenci index: %s\n", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
  }
  return rc;
}

static int fs_prepare(fs_ix *x) {
  static const struct {
    size_t off;
    const char *sql;
  } q[] = {
      {offsetof(fs_ix, find), "SELECT id, size, mtime, hash FROM files WHERE id = ?1 OR path = ?2"},
      {offsetof(fs_ix, add_file), "INSERT INTO files(path, size, mtime, hash, rows) VALUES (?1, 0, 0, '', 0)"},
      {offsetof(fs_ix, set_file), "UPDATE files SET size = ?1, mtime = ?2, hash = ?3, rows = ?4, warning = ?5 WHERE id = ?6"},
      {offsetof(fs_ix, touch), "UPDATE files SET size = ?1, mtime = ?2 WHERE id = ?3"},
      {offsetof(fs_ix, del_fts),
       "INSERT INTO chunks_fts(chunks_fts, rowid, text) SELECT 'delete', id, text FROM chunks WHERE file = ?1"},
      {offsetof(fs_ix, del_chunks), "DELETE FROM chunks WHERE file = ?1"},
      {offsetof(fs_ix, del_file), "DELETE FROM files WHERE id = ?1"},
      {offsetof(fs_ix, add_chunk), "INSERT INTO chunks(file, line, text) VALUES (?1, ?2, ?3)"},
      {offsetof(fs_ix, add_fts), "INSERT INTO chunks_fts(rowid, text) VALUES (?1, ?2)"},
  };
  size_t i;
  for (i = 0; i < sizeof q / sizeof q[0]; i++) {
    sqlite3_stmt **st = (sqlite3_stmt **)(void *)((char *)x + q[i].off);
    if (sqlite3_prepare_v3(x->db, q[i].sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL) != SQLITE_OK) {
      fs_sqlerr("index", x->db, q[i].sql);
      return -1;
    }
  }
  return 0;
}

static void fs_finalize(fs_ix *x) {
  sqlite3_finalize(x->find);
  sqlite3_finalize(x->add_file);
  sqlite3_finalize(x->set_file);
  sqlite3_finalize(x->touch);
  sqlite3_finalize(x->del_fts);
  sqlite3_finalize(x->del_chunks);
  sqlite3_finalize(x->del_file);
  sqlite3_finalize(x->add_chunk);
  sqlite3_finalize(x->add_fts);
}

int fs_cmd_index(int argc, char **argv) {
  fc_opts o;
  const char *dbpath = NULL, *model = NULL, *mode = NULL;
  const char **paths = NULL;
  char abs[PATH_MAX];
  size_t npaths = 0, i;
  int fast = -1, paragraphs = -1, quiet = 0, progress = 0, rc = 1, in_tx = 0, have, walk_err = 0;
  double batch_mb = 8;
  long long pending = 0, pending_files = 0;
  fs_meta m;
  fs_list l = {NULL, 0, 0};
  char **roots = NULL;
  fs_ix x;
  memset(&x, 0, sizeof x);
  fc_opts_init(&o, "index", argc, argv);
  paths = calloc((size_t)argc, sizeof *paths);
  roots = calloc((size_t)argc, sizeof *roots);
  if (!paths || !roots) {
    fprintf(stderr, "fenci index: out of memory\n");
    goto out;
  }
  while (fc_opts_next(&o)) {
    if (!o.is_opt) {
      if (!dbpath) dbpath = o.arg;
      else paths[npaths++] = o.arg;
    } else if (fc_opt_flag(&o, 'h', "help")) {
      fputs(fs_index_help, stdout);
      rc = 0;
      goto out;
    } else if (fc_opt_value(&o, 'm', "model")) {
      model = o.val;
    } else if (fc_opt_value(&o, 0, "mode")) {
      mode = o.val;
      if (strcmp(mode, "search") && strcmp(mode, "default") && strcmp(mode, "all")) {
        fprintf(stderr, "fenci index: --mode wants search, default or all, not '%s'\n", mode);
        rc = 2;
        goto out;
      }
    } else if (fc_opt_flag(&o, 0, "fast")) {
      fast = 1;
    } else if (fc_opt_flag(&o, 0, "paragraphs")) {
      paragraphs = 1;
    } else if (fc_opt_value(&o, 0, "batch")) {
      char *end;
      batch_mb = strtod(o.val, &end);
      if (*end || !(batch_mb > 0) || batch_mb > 1e6) {
        fprintf(stderr, "fenci index: --batch wants a size in MB, not '%s'\n", o.val);
        rc = 2;
        goto out;
      }
    } else if (fc_opt_flag(&o, 'v', "verbose")) {
      x.verbose = 1;
    } else if (fc_opt_flag(&o, 'q', "quiet")) {
      quiet = 1;
    } else if (fc_opt_flag(&o, 0, "progress")) {
      progress = 1;
    } else {
      rc = fc_opt_unknown(&o);
      goto out;
    }
  }
  if (!dbpath || !npaths) {
    fprintf(stderr, "usage: fenci index [options] DB PATH...  (fenci index --help)\n");
    rc = 2;
    goto out;
  }
  x.db = fs_open("index", dbpath, 1);
  if (!x.db) goto out;
  have = fs_meta_read("index", x.db, dbpath, &m);
  if (have < 0) goto out;
  if (have == 0) {
    char found[32768];
    snprintf(m.mode, sizeof m.mode, "%s", mode ? mode : "search");
    snprintf(m.unit, sizeof m.unit, "%s", paragraphs == 1 ? "paragraph" : "line");
    m.fast = fast == 1;
    if (!model) model = FENCI_DEFAULT_MODEL;
    if (fc_cli_model_path(model, found, sizeof found) != 0) {
      fprintf(stderr, "fenci index: model not found: %s\n", found);
      goto out;
    }
    if (strchr(model, '/') || !strchr(found, '/')) {
      /* a path: kept absolute, so the index works from any folder */
      if (!realpath(found, m.model)) {
        fprintf(stderr, "fenci index: %s: %s\n", found, strerror(errno));
        goto out;
      }
    } else {
      size_t ml = strlen(model);
      snprintf(m.model, sizeof m.model, "%.*s", (int)(ml > 6 && !strcmp(model + ml - 6, ".fenci") ? ml - 6 : ml),
               model);
    }
  } else {
    /* the index keeps what it was made with; asking for other options is an error */
    int bad = 0;
    if (mode && strcmp(mode, m.mode)) bad = 1;
    if (paragraphs == 1 && strcmp(m.unit, "paragraph")) bad = 1;
    if (fast == 1 && !m.fast) bad = 1;
    if (model) {
      char found[32768], real[PATH_MAX], name[256];
      if (strchr(m.model, '/')) {
        bad |= fc_cli_model_path(model, found, sizeof found) != 0 || !realpath(found, real) || strcmp(real, m.model);
      } else {
        size_t ml = strlen(model);
        if (ml > 6 && !strcmp(model + ml - 6, ".fenci")) ml -= 6;
        snprintf(name, sizeof name, "%.*s", (int)ml, model);
        bad |= strchr(model, '/') != NULL || strcmp(name, m.model) != 0;
      }
    }
    if (bad) {
      fprintf(stderr,
              "fenci index: %s was made with model %s, mode %s%s, one row per %s; give those options or none, "
              "or index into a new database\n",
              dbpath, m.model, m.mode, m.fast ? " (fast)" : "", m.unit);
      goto out;
    }
  }
  if (fs_model_use("index", &m)) goto out;
  x.paragraphs = !strcmp(m.unit, "paragraph");
  x.bar = !quiet && !x.verbose && (progress || isatty(2));
  if (fs_exec("index", x.db, "PRAGMA cache_size = -65536; BEGIN IMMEDIATE", "cannot start a transaction")) goto out;
  in_tx = 1;
  if (have == 0 && fs_create(x.db, &m)) goto out;
  if (fs_prepare(&x)) goto out;

  /* the walk */
  for (i = 0; i < npaths; i++) {
    struct stat st;
    if (fs_abs(paths[i], abs, sizeof abs) != 0 || !(roots[i] = strdup(abs))) {
      fprintf(stderr, "fenci index: %s: path too long\n", paths[i]);
      x.nerr++;
      continue;
    }
    if (stat(abs, &st) != 0) {
      fprintf(stderr, "fenci index: %s: %s%s\n", paths[i], strerror(errno),
              errno == ENOENT ? " (what the index had there is removed)" : "");
      if (errno != ENOENT) x.nerr++;
      continue;
    }
    if (S_ISDIR(st.st_mode)) {
      if (fs_walk_dir(&l, abs, &walk_err) != 0) goto oom;
    } else if (S_ISREG(st.st_mode)) {
      if (fs_list_add(&l, abs, &st) != 0) goto oom;
    } else {
      fprintf(stderr, "fenci index: %s: not a file or folder\n", paths[i]);
      x.nerr++;
    }
  }
  x.nerr += walk_err; /* entries the walk could not read */
  if (l.n) qsort(l.v, l.n, sizeof *l.v, fs_cmp_file);
  {
    size_t k = 0;
    for (i = 0; i < l.n; i++) { /* the same file given twice */
      if (k && !strcmp(l.v[k - 1].path, l.v[i].path)) free(l.v[i].path);
      else l.v[k++] = l.v[i];
    }
    l.n = k;
  }
  /* what is gone, then what changed */
  for (i = 0; i < npaths; i++)
    if (roots[i] && fs_prune(&x, &l, roots[i])) goto out;
  for (i = 0; i < l.n; i++) {
    fs_file *f = &l.v[i];
    sqlite3_bind_null(x.find, 1);
    sqlite3_bind_text(x.find, 2, f->path, -1, SQLITE_STATIC);
    if (sqlite3_step(x.find) == SQLITE_ROW) {
      f->id = sqlite3_column_int64(x.find, 0);
      f->todo = sqlite3_column_int64(x.find, 1) != f->size || sqlite3_column_int64(x.find, 2) != f->mtime;
    } else {
      f->todo = 1;
    }
    sqlite3_reset(x.find);
    if (f->todo) {
      x.total += f->size;
      x.ntodo++;
    } else {
      x.unchanged++;
      fs_say(&x, f->path, "unchanged");
    }
  }
  x.t0 = fs_now();
  for (i = 0; i < l.n; i++) {
    fs_file *f = &l.v[i];
    if (!f->todo) continue;
    if (fs_index_file(&x, f)) goto out;
    x.done += f->size;
    x.ndone++;
    pending += f->size;
    pending_files++;
    fs_bar(&x, 0);
    if ((double)pending >= batch_mb * 1e6 || pending_files >= 2000) {
      if (fs_exec("index", x.db, "COMMIT; BEGIN IMMEDIATE", "commit")) goto out;
      pending = pending_files = 0;
    }
  }
  if (fs_exec("index", x.db, "COMMIT", "commit")) goto out;
  in_tx = 0;
  fs_bar(&x, 1);
  if (!quiet) {
    double t = fs_now() - x.t0;
    fprintf(stderr,
            "fenci index: %zu files: %lld added, %lld changed, %lld unchanged, %lld removed, %lld binary skipped%s; "
            "%.1f MB in %.2f s (%.1f MB/s)\n",
            l.n, x.added, x.changed, x.unchanged, x.removed, x.binary, x.nerr ? ", some unreadable" : "",
            (double)x.done / 1e6, t, t > 0 ? (double)x.done / 1e6 / t : 0.0);
  }
  rc = x.nerr ? 1 : 0;
  goto out;
oom:
  fprintf(stderr, "fenci index: out of memory\n");
out:
  if (x.db) {
    fs_finalize(&x);
    if (in_tx) (void)sqlite3_exec(x.db, "ROLLBACK", NULL, NULL, NULL);
    if (sqlite3_close(x.db) != SQLITE_OK) rc = 1;
  }
  for (i = 0; i < l.n; i++) free(l.v[i].path);
  free(l.v);
  if (roots)
    for (i = 0; i < (size_t)argc; i++) free(roots[i]);
  free(roots);
  free(paths);
  return rc;
}
