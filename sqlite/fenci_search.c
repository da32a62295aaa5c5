/* fenci_search.c - `fenci search DB QUERY`: the best rows of an index made
 * by `fenci index`, ranked by FTS5's bm25, as "file:line: snippet" (the
 * words found in colour on a terminal, else in [brackets]) or, with --json,
 * one JSON object a line.
 *
 * The matches come from fenci_hits(), an FTS5 auxiliary function of this
 * file: the byte ranges of the phrase instances of a row (xInst, mapped to
 * bytes by tokenizing the row once).  The snippet is cut around the first
 * match here.  FTS5's own highlight() and snippet() are not used: they take
 * time quadratic in the matches of a row (each mark re-copies the text so
 * far), minutes for a 24 MB line with two million matches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../cli/common.h"
#include "fenci_sqlite.h"

#define FS_SNIP_BEFORE 30 /* characters shown before the first match */
#define FS_SNIP_CHARS 160 /* characters shown in all (a longer row is cut) */

/* ------------------------------------------------------------ fenci_hits */

typedef struct fs_span {
  long long s, e; /* first and last token position (fenci_hits), then bytes */
} fs_span;

typedef struct fs_hits {
  fs_span *v;       /* instances, by position */
  size_t n, next;   /* next: the first instance not yet given bytes */
  size_t open;      /* instances [open, next) have their start, not yet their end */
  long long pos;    /* position of the next token */
} fs_hits;

static int fs_span_cmp(const void *a, const void *b) {
  const fs_span *x = a, *y = b;
  return x->s < y->s ? -1 : x->s > y->s ? 1 : x->e < y->e ? -1 : x->e > y->e;
}

/* Token positions to bytes: colocated tokens share the position of the
 * token before them and are not counted, as in FTS5's highlight(). */
static int fs_hits_token(void *ctx, int tflags, const char *tok, int ntok, int start, int end) {
  fs_hits *h = ctx;
  size_t i;
  (void)tok;
  (void)ntok;
  if (tflags & FTS5_TOKEN_COLOCATED) return SQLITE_OK;
  for (i = h->next; i < h->n && h->v[i].s == h->pos; i++) h->v[i].s = -1 - (long long)start; /* started */
  h->next = i;
  for (i = h->open; i < h->next; i++)
    if (h->v[i].e == h->pos) h->v[i].e = -1 - (long long)end; /* ended */
  while (h->open < h->next && h->v[h->open].e < 0) h->open++;
  h->pos++;
  return h->open == h->n ? SQLITE_DONE : SQLITE_OK;
}

/* fenci_hits(table): "START END START END ..." byte offsets of the matches
 * in column 0 of the current row, ascending, overlapping ones merged. */
static void fs_hits_fn(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *cx, int argc,
                       sqlite3_value **argv) {
  fs_hits h;
  int ninst = 0, i, rc, ntext = 0;
  const char *text = NULL;
  sqlite3_str *out;
  size_t k, m = 0;
  (void)argc;
  (void)argv;
  memset(&h, 0, sizeof h);
  rc = api->xInstCount(fts, &ninst);
  if (rc == SQLITE_OK && ninst > 0) {
    h.v = sqlite3_malloc64((sqlite3_uint64)ninst * sizeof *h.v);
    if (!h.v) rc = SQLITE_NOMEM;
  }
  for (i = 0; rc == SQLITE_OK && i < ninst; i++) {
    int ph, col, off;
    rc = api->xInst(fts, i, &ph, &col, &off);
    if (rc == SQLITE_OK && col == 0) {
      h.v[h.n].s = off;
      h.v[h.n].e = off + api->xPhraseSize(fts, ph) - 1;
      h.n++;
    }
  }
  if (rc == SQLITE_OK && h.n) {
    qsort(h.v, h.n, sizeof *h.v, fs_span_cmp);
    rc = api->xColumnText(fts, 0, &text, &ntext);
    if (rc == SQLITE_OK && text) rc = api->xTokenize(fts, text, ntext, &h, fs_hits_token);
    if (rc == SQLITE_DONE) rc = SQLITE_OK;
  }
  if (rc != SQLITE_OK) {
    sqlite3_free(h.v);
    sqlite3_result_error_code(cx, rc);
    return;
  }
  /* the byte ranges found (both ends seen), merged */
  for (k = 0; k < h.n; k++) {
    if (h.v[k].s >= 0 || h.v[k].e >= 0) continue;
    h.v[m].s = -1 - h.v[k].s;
    h.v[m].e = -1 - h.v[k].e;
    if (m && h.v[m].s <= h.v[m - 1].e) {
      if (h.v[m].e > h.v[m - 1].e) h.v[m - 1].e = h.v[m].e;
    } else {
      m++;
    }
  }
  out = sqlite3_str_new(NULL);
  for (k = 0; k < m; k++) sqlite3_str_appendf(out, "%s%lld %lld", k ? " " : "", h.v[k].s, h.v[k].e);
  sqlite3_free(h.v);
  rc = sqlite3_str_errcode(out);
  if (rc != SQLITE_OK) {
    sqlite3_free(sqlite3_str_finish(out));
    sqlite3_result_error_code(cx, rc);
    return;
  }
  sqlite3_result_text(cx, sqlite3_str_finish(out), -1, sqlite3_free);
}

/* Registers fenci_hits with db's FTS5 (the fts5_api handshake). */
static int fs_hits_register(sqlite3 *db) {
  fts5_api *api = NULL;
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &st, NULL) != SQLITE_OK) return -1;
  sqlite3_bind_pointer(st, 1, (void *)&api, "fts5_api_ptr", NULL);
  (void)sqlite3_step(st);
  sqlite3_finalize(st);
  if (!api || api->iVersion < 2) return -1;
  return api->xCreateFunction(api, "fenci_hits", NULL, fs_hits_fn, NULL) == SQLITE_OK ? 0 : -1;
}

/* Parses fenci_hits' text into *v (byte ranges inside [0, len)). */
static size_t fs_hits_parse(const char *s, size_t len, fs_span **v) {
  size_t n = 0, cap = 0;
  char *end;
  *v = NULL;
  while (s && *s) {
    long long a = strtoll(s, &end, 10), b;
    if (end == s) break;
    s = end;
    b = strtoll(s, &end, 10);
    if (end == s) break;
    s = end;
    if (a < 0 || b < a || (size_t)b > len) continue;
    if (n == cap) {
      size_t nc = cap ? cap * 2 : 16;
      fs_span *p = realloc(*v, nc * sizeof *p);
      if (!p) break;
      *v = p;
      cap = nc;
    }
    (*v)[n].s = a;
    (*v)[n].e = b;
    n++;
  }
  return n;
}

static const char fs_search_help[] =
    "usage: fenci search [options] DB QUERY...\n"
    "\n"
    "Prints the rows of the index DB (made by 'fenci index') that match QUERY,\n"
    "best first (bm25), as FILE:LINE: snippet.  Several QUERY arguments are\n"
    "joined by spaces.  The query is cut into words by the index's own model.\n"
    "\n"
    "Options:\n"
    "  -n, --limit N      at most N results (default 10; 0: all)\n"
    "      --json         one JSON object a line: path, line, rank (bm25: lower is\n"
    "                     better), text (the whole row) and matches ([start, end)\n"
    "                     offsets in characters of text)\n"
    "      --color WHEN   auto (default: on a terminal, unless $NO_COLOR), always,\n"
    "                     never; without colour matches are in [brackets]\n"
    "\n"
    "Query syntax (SQLite FTS5):\n"
    "  北京大学                 the word; a query cut into several words is a\n"
    "                           phrase of them (自然语言处理 = \"自然 语言 处理\")\n"
    "  大学                     also finds the word inside longer words (北京大学),\n"
    "                           in the default search mode\n"
    "  北京 大学                both words in the row (AND is implied)\n"
    "  北京 AND 大学            the same\n"
    "  北京 OR 上海             either\n"
    "  北京 NOT 上海            北京, but not in a row with 上海\n"
    "  \"北京 大学\"              the phrase: 北京 then 大学\n"
    "  计算*                    a word starting with 计算: 计算, 计算机, 计算机界\n"
    "  NEAR(北京 大学, 5)       both, at most 5 words apart\n"
    "  (北京 OR 上海) AND 大学  with parentheses\n"
    "Operators are in capitals; quote a word that is one (\"OR\").\n"
    "\n"
    "Exit status: 0 something found, 1 nothing found, 2 an error (such as a bad\n"
    "query).\n";

/* Writes s[0, n) as a JSON string: quotes, backslashes and control
 * characters escaped, a byte that is not UTF-8 written as U+FFFD. */
static void fs_json_str(const char *s, size_t n) {
  size_t i;
  putchar('"');
  for (i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      putchar('\\');
      putchar(c);
    } else if (c == '\n') {
      fputs("\\n", stdout);
    } else if (c == '\t') {
      fputs("\\t", stdout);
    } else if (c < 0x20 || c == 0x7F) {
      printf("\\u%04x", c);
    } else if (c < 0x80) {
      putchar(c);
    } else {
      size_t k = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0, j;
      int ok = k > 0 && i + k <= n;
      for (j = 1; ok && j < k; j++) ok = ((unsigned char)s[i + j] & 0xC0) == 0x80;
      if (ok) {
        fwrite(s + i, 1, k, stdout);
        i += k - 1;
      } else {
        fputs("\\ufffd", stdout);
      }
    }
  }
  putchar('"');
}

/* One result as JSON: the row's text and its matches in characters. */
static void fs_print_json(const char *path, long long line, double rank, const char *text, size_t len,
                          const fs_span *hit, size_t nhit) {
  size_t i, k = 0, chars = 0;
  int in = 0;
  fputs("{\"path\":", stdout);
  fs_json_str(path, strlen(path));
  printf(",\"line\":%lld,\"rank\":%.6g,\"matches\":[", line, rank);
  for (i = 0; i <= len && k < nhit; i++) {
    if (!in && (long long)i == hit[k].s) {
      printf("%s[%zu,", k ? "," : "", chars);
      in = 1;
    }
    if (in && (long long)i == hit[k].e) {
      printf("%zu]", chars);
      in = 0;
      k++;
      i--; /* the next match may start here */
      continue;
    }
    if (i < len && ((unsigned char)text[i] & 0xC0) != 0x80) chars++;
  }
  fputs("],\"text\":", stdout);
  fs_json_str(text, len);
  fputs("}\n", stdout);
}

/* Where the character count from byte i reaches n (forward, or backward
 * when back). */
static size_t fs_chars(const char *t, size_t len, size_t i, size_t n, int back) {
  while (n > 0) {
    if (back) {
      if (i == 0) break;
      do i--;
      while (i > 0 && ((unsigned char)t[i] & 0xC0) == 0x80);
    } else {
      if (i >= len) break;
      do i++;
      while (i < len && ((unsigned char)t[i] & 0xC0) == 0x80);
    }
    n--;
  }
  return i;
}

/* One result as text: path:line: the row, or FS_SNIP_CHARS characters of
 * it from a little before its first match, the matches marked. */
static void fs_print_text(const char *path, long long line, const char *text, size_t len, const fs_span *hit,
                          size_t nhit, int color) {
  size_t a = 0, b = len, i, k = 0;
  if (nhit) a = fs_chars(text, len, (size_t)hit[0].s, FS_SNIP_BEFORE, 1);
  b = fs_chars(text, len, a, FS_SNIP_CHARS, 0);
  if (b == len) a = fs_chars(text, len, len, FS_SNIP_CHARS, 1) < a ? fs_chars(text, len, len, FS_SNIP_CHARS, 1) : a;
  if (color) printf("\033[35m%s\033[m:\033[32m%lld\033[m: ", path, line);
  else printf("%s:%lld: ", path, line);
  if (a > 0) fputs("…", stdout);
  while (k < nhit && hit[k].e <= (long long)a) k++;
  for (i = a; i < b; i++) {
    unsigned char c = (unsigned char)text[i];
    if (k < nhit && (long long)i == (hit[k].s > (long long)a ? hit[k].s : (long long)a))
      fputs(color ? "\033[1;31m" : "[", stdout);
    if (c == '\n' || c == '\r' || c == '\t') putchar(' ');
    else putchar(c);
    if (k < nhit && (long long)i + 1 == (hit[k].e < (long long)b ? hit[k].e : (long long)b)) {
      fputs(color ? "\033[m" : "]", stdout);
      k++;
    }
  }
  if (b < len) fputs("…", stdout);
  putchar('\n');
}

int fs_cmd_search(int argc, char **argv) {
  fc_opts o;
  const char *dbpath = NULL, *color_when = "auto";
  char *query = NULL;
  size_t qlen = 0;
  long long limit = 10, nhits = 0;
  int json = 0, color, rc = 2, step;
  sqlite3 *db = NULL;
  sqlite3_stmt *st = NULL;
  fs_meta m;
  fc_opts_init(&o, "search", argc, argv);
  while (fc_opts_next(&o)) {
    if (!o.is_opt) {
      if (!dbpath) {
        dbpath = o.arg;
      } else {
        size_t l = strlen(o.arg);
        char *q = realloc(query, qlen + l + 2);
        if (!q) {
          fprintf(stderr, "fenci search: out of memory\n");
          goto out;
        }
        query = q;
        if (qlen) query[qlen++] = ' ';
        memcpy(query + qlen, o.arg, l + 1);
        qlen += l;
      }
    } else if (fc_opt_flag(&o, 'h', "help")) {
      fputs(fs_search_help, stdout);
      rc = 0;
      goto out;
    } else if (fc_opt_value(&o, 'n', "limit")) {
      char *end;
      limit = strtoll(o.val, &end, 10);
      if (*end || end == o.val || limit < 0) {
        fprintf(stderr, "fenci search: -n wants a count, not '%s'\n", o.val);
        goto out;
      }
    } else if (fc_opt_flag(&o, 0, "json")) {
      json = 1;
    } else if (fc_opt_value(&o, 0, "color") || fc_opt_value(&o, 0, "colour")) {
      color_when = o.val;
      if (strcmp(color_when, "auto") && strcmp(color_when, "always") && strcmp(color_when, "never")) {
        fprintf(stderr, "fenci search: --color wants auto, always or never, not '%s'\n", color_when);
        goto out;
      }
    } else {
      rc = fc_opt_unknown(&o);
      goto out;
    }
  }
  if (!dbpath || !query) {
    fprintf(stderr, "usage: fenci search [options] DB QUERY...  (fenci search --help)\n");
    goto out;
  }
  if (access(dbpath, F_OK) != 0) {
    fprintf(stderr, "fenci search: %s: no such index (make it with 'fenci index %s PATH...')\n", dbpath, dbpath);
    goto out;
  }
  color = !strcmp(color_when, "always") ||
          (!strcmp(color_when, "auto") && isatty(1) && !(getenv("NO_COLOR") && *getenv("NO_COLOR")));
  db = fs_open("search", dbpath, 0);
  if (!db) goto out;
  step = fs_meta_read("search", db, dbpath, &m);
  if (step != 1) {
    if (step == 0) fprintf(stderr, "fenci search: %s: not a fenci index (an empty database)\n", dbpath);
    goto out;
  }
  if (fs_model_use("search", &m)) goto out;
  (void)sqlite3_exec(db, "PRAGMA query_only = 1", NULL, NULL, NULL);
  if (fs_hits_register(db) != 0) {
    fprintf(stderr, "fenci search: this SQLite has no FTS5\n");
    goto out;
  }
  if (sqlite3_prepare_v2(db,
                         "SELECT f.path, c.line, h.rank, c.text, h.hits FROM"
                         " (SELECT rowid AS id, rank, fenci_hits(chunks_fts) AS hits"
                         "  FROM chunks_fts WHERE chunks_fts MATCH ?1 ORDER BY rank LIMIT ?2) AS h"
                         " JOIN chunks c ON c.id = h.id JOIN files f ON f.id = c.file ORDER BY h.rank",
                         -1, &st, NULL) != SQLITE_OK) {
    fs_sqlerr("search", db, dbpath);
    goto out;
  }
  sqlite3_bind_text(st, 1, query, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 2, limit ? limit : -1);
  while ((step = sqlite3_step(st)) == SQLITE_ROW) {
    const char *path = (const char *)sqlite3_column_text(st, 0), *text = (const char *)sqlite3_column_text(st, 3);
    long long line = sqlite3_column_int64(st, 1);
    double rank = sqlite3_column_double(st, 2);
    size_t len = (size_t)sqlite3_column_bytes(st, 3), nhit, i;
    fs_span *hit = NULL;
    if (!path || !text) continue;
    nhit = fs_hits_parse((const char *)sqlite3_column_text(st, 4), len, &hit);
    /* in a paragraph, the line of the first match */
    for (i = 0; nhit && i < (size_t)hit[0].s; i++)
      if (text[i] == '\n') line++;
    if (json) fs_print_json(fs_rel(path), line, rank, text, len, hit, nhit);
    else fs_print_text(fs_rel(path), line, text, len, hit, nhit, color);
    free(hit);
    nhits++;
  }
  if (step != SQLITE_DONE) {
    const char *e = sqlite3_errmsg(db);
    if (strstr(e, "fts5") || strstr(e, "syntax") || strstr(e, "no such column"))
      fprintf(stderr, "fenci search: bad query '%s': %s ('fenci search --help' shows the syntax)\n", query, e);
    else
      fs_sqlerr("search", db, dbpath);
    goto out;
  }
  rc = nhits ? 0 : 1;
out:
  sqlite3_finalize(st);
  sqlite3_close(db);
  free(query);
  return rc;
}
