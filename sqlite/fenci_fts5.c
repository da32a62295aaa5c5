/* fenci_fts5.c - the SQLite FTS5 tokenizer "fenci", a loadable extension:
 *
 *   .load ./build/sqlite/fenci_fts5
 *   CREATE VIRTUAL TABLE docs USING fts5(title, body, tokenize = 'fenci');
 *
 * Documents are cut into words in search mode: a long word is one token
 * and the lexicon words inside it follow it as colocated tokens, at its
 * position (FTS5_TOKEN_COLOCATED), so 大学 finds 北京大学 and the phrase
 * "北京大学 的" still finds it (a stem with one character after it, 招待
 * in 招待会, only where the lexicon decoder cuts there too: ft_doc_bounds);
 * a lexicon word the model cut into one-character tokens is indexed too
 * (ft_doc_flush), and so are the parts of URLs, e-mail addresses and
 * numbers in words (ft_give_main).  Queries
 * get the plain segmentation, so a query cut into several words is a
 * phrase of them (ft_query_give).  Token text is folded (fenci_fold: case,
 * full-width, traditional -> simplified); offsets are the original
 * bytes', so highlight() and snippet() mark whole words.  Punctuation,
 * whitespace, control characters and invalid bytes are not indexed.
 *
 * This file uses only the public API (include/fenci.h).  A model is opened
 * once per process and shared by every table of every connection (the
 * registry below); each tokenizer instance has its own fenci_tagger.
 * FTS5 calls an instance from the connection that made it, one call at a
 * time (a connection is used by one thread at a time), so one tagger per
 * instance needs no lock.  Memory comes from sqlite3_malloc64 and friends,
 * so SQLite's accounting and limits see it.
 *
 * Works with the tokenizer API v1 (fts5_api version 2, SQLite 3.20 and
 * later: Debian 12 has 3.40) and registers the v2 tokenizer (locales,
 * ignored here) where both the header it is built against and the running
 * SQLite have it (3.47 and later, fts5_api.iVersion >= 3).
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sqlite3ext.h>

#include "fenci.h"

SQLITE_EXTENSION_INIT1

#ifndef FENCI_FTS5_DATADIR
#define FENCI_FTS5_DATADIR "/usr/local/share/fenci" /* $(PREFIX)/share/fenci, set by the Makefile */
#endif
#ifndef FENCI_FTS5_BUILDDIR
#define FENCI_FTS5_BUILDDIR "" /* the build tree's models/, set by the Makefile */
#endif
#ifndef FENCI_FTS5_DEFAULT_MODEL
#define FENCI_FTS5_DEFAULT_MODEL "ctb"
#endif

/* The v2 tokenizer is compiled in when the header has it (3.47.0 added
 * fts5_tokenizer_v2 and fts5_api version 3); -DFENCI_FTS5_V2=0 leaves it out. */
#ifndef FENCI_FTS5_V2
#if SQLITE_VERSION_NUMBER >= 3047000
#define FENCI_FTS5_V2 1
#else
#define FENCI_FTS5_V2 0
#endif
#endif

#if defined(__GNUC__)
#define FT_EXPORT __attribute__((visibility("default")))
#define FT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define FT_EXPORT
#define FT_PRINTF(f, a)
#endif

#define FT_STOP_MAX_FILE (64u << 20) /* a stop-word file may have at most 64 MiB */

/* ------------------------------------------------------------ messages */

/* The last failure of this thread, for fenci_error(): FTS5 reports every
 * tokenizer constructor failure as "error in tokenizer constructor", so the
 * reason is kept here (and sent to sqlite3_log). */
static _Thread_local char ft_last_error[600];

static void ft_fail(int rc, const char *fmt, ...) FT_PRINTF(2, 3);
static void ft_fail(int rc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ft_last_error, sizeof ft_last_error, fmt, ap);
  va_end(ap);
  if (sqlite3_api) sqlite3_log(rc, "%s", ft_last_error);
}

/* fenci's allocator contract on top of SQLite's: n == 0 frees. */
static void *ft_alloc_fn(void *ud, void *p, size_t n) {
  (void)ud;
  if (n == 0) {
    sqlite3_free(p);
    return NULL;
  }
  return sqlite3_realloc64(p, (sqlite3_uint64)n);
}

static const fenci_alloc ft_alloc = {ft_alloc_fn, NULL};

static int ft_rc_sqlite(fenci_rc rc) { return rc == FENCI_NOMEM ? SQLITE_NOMEM : SQLITE_ERROR; }

/* ------------------------------------------------------ model registry */

/* One entry per model file opened in this process, found again by the
 * file's identity (device and inode), so two spellings of one path share
 * it and a file renamed over the old one is opened anew.  refs counts the
 * tokenizer instances using it; the last one frees it. */
typedef struct ft_model {
  struct ft_model *next; /* the registry list */
  fenci_model *m;        /* immutable, shared by every thread */
  dev_t dev;             /* identity of the file opened */
  ino_t ino;
  size_t refs;           /* tokenizer instances holding it */
  char path[];           /* the path it was opened by (messages) */
} ft_model;

static pthread_mutex_t ft_models_lock = PTHREAD_MUTEX_INITIALIZER;
static ft_model *ft_models; /* guarded by ft_models_lock */

static int ft_is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Resolves a model NAME or PATH: a PATH has a '/' or ends in ".fenci"; a
 * NAME is NAME.fenci in modeldir when given, else in $FENCI_MODEL_DIR, then
 * FENCI_FTS5_DATADIR, then the build tree's models/.  Writes the path into
 * out; on failure a message naming the places tried.  SQLITE_OK or
 * SQLITE_ERROR. */
static int ft_model_path(const char *name, const char *modeldir, char *out, size_t n) {
  const char *dirs[3];
  size_t nd = 0, i, l = strlen(name);
  char tried[1024];
  size_t tl = 0;
  if (strchr(name, '/') || (l > 6 && strcmp(name + l - 6, ".fenci") == 0)) {
    if ((size_t)snprintf(out, n, "%s", name) >= n) {
      ft_fail(SQLITE_ERROR, "fenci: model path too long");
      return SQLITE_ERROR;
    }
    return SQLITE_OK;
  }
  if (!*name) {
    ft_fail(SQLITE_ERROR, "fenci: bad model name '%s'", name);
    return SQLITE_ERROR;
  }
  if (modeldir) {
    dirs[nd++] = modeldir;
  } else {
    const char *env = getenv("FENCI_MODEL_DIR");
    if (env && *env) dirs[nd++] = env;
    dirs[nd++] = FENCI_FTS5_DATADIR;
    if (*FENCI_FTS5_BUILDDIR) dirs[nd++] = FENCI_FTS5_BUILDDIR;
  }
  tried[0] = 0;
  for (i = 0; i < nd; i++) {
    int k = snprintf(out, n, "%s/%s.fenci", dirs[i], name);
    if (k > 0 && (size_t)k < n && ft_is_file(out)) return SQLITE_OK;
    if (tl < sizeof tried) {
      k = snprintf(tried + tl, sizeof tried - tl, "%s%s/%s.fenci", i ? ", " : "", dirs[i], name);
      if (k > 0) tl += (size_t)k;
    }
  }
  ft_fail(SQLITE_ERROR, "fenci: model '%s' not found (tried %s%s)", name, tried,
          modeldir ? "" : "; option modeldir or $FENCI_MODEL_DIR names another directory");
  return SQLITE_ERROR;
}

/* Takes a reference to the model at path, opening it (mapped) unless this
 * process has it open already. */
static int ft_model_get(const char *path, ft_model **out) {
  struct stat st;
  ft_model *e;
  char err[400];
  fenci_rc rc;
  size_t l = strlen(path);
  *out = NULL;
  if (stat(path, &st) != 0) {
    ft_fail(SQLITE_ERROR, "fenci: model %s: %s", path, strerror(errno));
    return SQLITE_ERROR;
  }
  pthread_mutex_lock(&ft_models_lock);
  for (e = ft_models; e; e = e->next)
    if (e->dev == st.st_dev && e->ino == st.st_ino) break;
  if (e) {
    e->refs++;
    pthread_mutex_unlock(&ft_models_lock);
    *out = e;
    return SQLITE_OK;
  }
  /* opened under the lock, so two connections never map one file twice */
  e = sqlite3_malloc64(sizeof *e + l + 1);
  if (!e) {
    pthread_mutex_unlock(&ft_models_lock);
    ft_fail(SQLITE_NOMEM, "fenci: out of memory");
    return SQLITE_NOMEM;
  }
  memset(e, 0, sizeof *e);
  memcpy(e->path, path, l + 1);
  err[0] = 0;
  rc = fenci_model_open(&e->m, path, &ft_alloc, err, sizeof err);
  if (rc != FENCI_OK) {
    pthread_mutex_unlock(&ft_models_lock);
    sqlite3_free(e);
    ft_fail(ft_rc_sqlite(rc), "fenci: cannot open model %s: %s", path, err[0] ? err : fenci_rc_str(rc));
    return ft_rc_sqlite(rc);
  }
  e->dev = st.st_dev;
  e->ino = st.st_ino;
  e->refs = 1;
  e->next = ft_models;
  ft_models = e;
  pthread_mutex_unlock(&ft_models_lock);
  *out = e;
  return SQLITE_OK;
}

static void ft_model_put(ft_model *e) {
  ft_model **pp;
  if (!e) return;
  pthread_mutex_lock(&ft_models_lock);
  if (--e->refs > 0) {
    pthread_mutex_unlock(&ft_models_lock);
    return;
  }
  for (pp = &ft_models; *pp; pp = &(*pp)->next)
    if (*pp == e) {
      *pp = e->next;
      break;
    }
  pthread_mutex_unlock(&ft_models_lock);
  fenci_model_free(e->m);
  sqlite3_free(e);
}

/* ---------------------------------------------------------- stop words */

/* A set of folded words: open addressing over offsets into one block of
 * length-prefixed strings. */
typedef struct ft_stop {
  uint32_t *slot;    /* 1 + offset into words, 0 = empty; nslot is a power of two */
  size_t nslot;
  unsigned char *words; /* u16 length, then the bytes, one after the other */
  size_t used, cap;
  size_t n;          /* words in the set */
} ft_stop;

static uint64_t ft_hash(const char *s, size_t n) {
  uint64_t h = 1469598103934665603u;
  size_t i;
  for (i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211u;
  return h ^ (h >> 29);
}

static int ft_stop_has(const ft_stop *st, const char *w, size_t n) {
  size_t i, mask = st->nslot - 1;
  if (!st->n) return 0;
  for (i = (size_t)ft_hash(w, n) & mask;; i = (i + 1) & mask) {
    const unsigned char *e;
    size_t l;
    if (!st->slot[i]) return 0;
    e = st->words + st->slot[i] - 1;
    l = (size_t)e[0] | (size_t)e[1] << 8;
    if (l == n && memcmp(e + 2, w, n) == 0) return 1;
  }
}

static int ft_stop_grow(ft_stop *st) {
  size_t ns = st->nslot ? st->nslot * 2 : 64, i;
  uint32_t *slot = sqlite3_malloc64(ns * sizeof *slot);
  if (!slot) return SQLITE_NOMEM;
  memset(slot, 0, ns * sizeof *slot);
  for (i = 0; i < st->nslot; i++) {
    if (st->slot[i]) {
      const unsigned char *e = st->words + st->slot[i] - 1;
      size_t l = (size_t)e[0] | (size_t)e[1] << 8, j;
      for (j = (size_t)ft_hash((const char *)e + 2, l) & (ns - 1); slot[j]; j = (j + 1) & (ns - 1)) {
      }
      slot[j] = st->slot[i];
    }
  }
  sqlite3_free(st->slot);
  st->slot = slot;
  st->nslot = ns;
  return SQLITE_OK;
}

static int ft_stop_add(ft_stop *st, const char *w, size_t n) {
  size_t j;
  if (n == 0 || n > 0xFFFF) return SQLITE_OK;
  if (st->n && ft_stop_has(st, w, n)) return SQLITE_OK;
  if ((st->n + 1) * 2 > st->nslot && ft_stop_grow(st) != SQLITE_OK) return SQLITE_NOMEM;
  if (st->used + n + 2 > st->cap) {
    size_t nc = st->cap ? st->cap * 2 : 1024;
    unsigned char *p;
    while (nc < st->used + n + 2) nc *= 2;
    if (nc > 0xFFFFFFF0u) return SQLITE_NOMEM;
    p = sqlite3_realloc64(st->words, nc);
    if (!p) return SQLITE_NOMEM;
    st->words = p;
    st->cap = nc;
  }
  st->words[st->used] = (unsigned char)(n & 0xFF);
  st->words[st->used + 1] = (unsigned char)(n >> 8);
  memcpy(st->words + st->used + 2, w, n);
  for (j = (size_t)ft_hash(w, n) & (st->nslot - 1); st->slot[j]; j = (j + 1) & (st->nslot - 1)) {
  }
  st->slot[j] = (uint32_t)(st->used + 1);
  st->used += n + 2;
  st->n++;
  return SQLITE_OK;
}

static void ft_stop_free(ft_stop *st) {
  sqlite3_free(st->slot);
  sqlite3_free(st->words);
  memset(st, 0, sizeof *st);
}

/* ----------------------------------------------------------- tokenizer */

typedef struct ft_tok {
  ft_model *model;     /* the shared model (a registry reference) */
  fenci_tagger *tagger; /* this instance's scratch: one xTokenize at a time */
  unsigned doc_opts;   /* tagger options for documents and FTS5_TOKENIZE_AUX */
  unsigned query_opts; /* for queries: the plain segmentation */
  unsigned fold;       /* FENCI_FOLD_* applied to token text */
  int parts;           /* documents: also the alphanumeric parts of URLs, e-mails, a-b words */
  ft_stop stop;        /* stop words (folded) */
  char *buf;           /* the folded text of the current token */
  size_t cap;
  int cross;           /* documents: search mode with the words across characters (ft_doc_*) */
  int use_lex;         /* documents, search mode, a trained model: ask the lexicon decoder (ft_doc_bounds) */
  fenci_tagger *lex;   /* that decoder, made at the first document (queries never need it) */
  unsigned char *lb;   /* a bit per byte of the current text: a token of it ends there */
  size_t cap_lb;       /* bytes of lb */
  struct ft_ev *dv;    /* documents: the window of tokens not given yet, dv[dh, dn) */
  size_t dh, dn, cap_dv;
  struct ft_span *pl;  /* documents: cross words to give again after their last character */
  size_t npl, cap_pl;
  struct ft_qtok *qm;  /* a query's main tokens (those indexed) */
  size_t nqm, cap_qm;
  struct ft_span *qx;  /* a query's lexicon words (all-mode extras), by start */
  size_t nqx, cap_qx;
} ft_tok;

typedef int (*ft_xtoken)(void *, int, const char *, int, int, int);

static void ft_delete(Fts5Tokenizer *p) {
  ft_tok *t = (ft_tok *)p;
  if (!t) return;
  fenci_tagger_free(t->tagger);
  fenci_tagger_free(t->lex);
  sqlite3_free(t->lb);
  ft_model_put(t->model);
  ft_stop_free(&t->stop);
  sqlite3_free(t->buf);
  sqlite3_free(t->dv);
  sqlite3_free(t->pl);
  sqlite3_free(t->qm);
  sqlite3_free(t->qx);
  sqlite3_free(t);
}

/* Folds text into t->buf; *n gets the length. */
static int ft_fold_into(ft_tok *t, const char *text, size_t len, size_t *n) {
  fenci_rc rc = fenci_fold(text, len, t->fold, t->buf, t->cap, n);
  if (rc == FENCI_TOOSMALL) {
    size_t nc = *n + 64;
    char *b = sqlite3_realloc64(t->buf, nc);
    if (!b) return SQLITE_NOMEM;
    t->buf = b;
    t->cap = nc;
    rc = fenci_fold(text, len, t->fold, t->buf, t->cap, n);
  }
  return rc == FENCI_OK ? SQLITE_OK : SQLITE_ERROR;
}

/* Reads the stop-word file at path: one word a line; blank lines and lines
 * starting with '#' are skipped, spaces and tabs around a word ignored. */
static int ft_stop_load(ft_tok *t, const char *path) {
  FILE *f = fopen(path, "rb");
  char *data = NULL;
  size_t n = 0, cap = 0, i, ln = 0;
  int rc = SQLITE_OK;
  if (!f) {
    ft_fail(SQLITE_ERROR, "fenci: stop words %s: %s", path, strerror(errno));
    return SQLITE_ERROR;
  }
  for (;;) {
    size_t k;
    if (n == cap) {
      size_t nc = cap ? cap * 2 : 4096;
      char *p;
      if (cap >= FT_STOP_MAX_FILE) {
        ft_fail(SQLITE_ERROR, "fenci: stop words %s: more than %u MiB", path, FT_STOP_MAX_FILE >> 20);
        rc = SQLITE_ERROR;
        break;
      }
      p = sqlite3_realloc64(data, nc);
      if (!p) {
        rc = SQLITE_NOMEM;
        break;
      }
      data = p;
      cap = nc;
    }
    k = fread(data + n, 1, cap - n, f);
    n += k;
    if (k == 0) {
      if (ferror(f)) {
        ft_fail(SQLITE_ERROR, "fenci: stop words %s: read error", path);
        rc = SQLITE_ERROR;
      }
      break;
    }
  }
  fclose(f);
  for (i = 0; rc == SQLITE_OK && i < n; ln++) {
    size_t s = i, e, fl = 0;
    while (i < n && data[i] != '\n') i++;
    e = i++;
    while (s < e && (data[s] == ' ' || data[s] == '\t' || data[s] == '\r')) s++;
    while (e > s && (data[e - 1] == ' ' || data[e - 1] == '\t' || data[e - 1] == '\r')) e--;
    if (s == e || data[s] == '#') continue;
    rc = ft_fold_into(t, data + s, e - s, &fl);
    if (rc == SQLITE_OK) rc = ft_stop_add(&t->stop, t->buf, fl);
  }
  if (rc == SQLITE_NOMEM) ft_fail(SQLITE_NOMEM, "fenci: out of memory");
  sqlite3_free(data);
  return rc;
}

static int ft_parse_bool(const char *key, const char *v, int *out) {
  if (!strcmp(v, "1") || !strcmp(v, "on") || !strcmp(v, "yes") || !strcmp(v, "true")) *out = 1;
  else if (!strcmp(v, "0") || !strcmp(v, "off") || !strcmp(v, "no") || !strcmp(v, "false")) *out = 0;
  else {
    ft_fail(SQLITE_ERROR, "fenci: option %s wants 0 or 1, not '%s'", key, v);
    return SQLITE_ERROR;
  }
  return SQLITE_OK;
}

/* fold VALUE: a comma-separated list of all, none, case, width, t2s; the
 * first fold option replaces the default (all), later ones add to it. */
static int ft_parse_fold(const char *v, unsigned *fold) {
  const char *p = v;
  for (;;) {
    size_t l = strcspn(p, ",");
    if (l == 3 && !strncmp(p, "all", 3)) *fold |= FENCI_FOLD_ALL;
    else if (l == 4 && !strncmp(p, "none", 4)) *fold = 0;
    else if (l == 4 && !strncmp(p, "case", 4)) *fold |= FENCI_FOLD_CASE;
    else if (l == 5 && !strncmp(p, "width", 5)) *fold |= FENCI_FOLD_WIDTH;
    else if (l == 3 && !strncmp(p, "t2s", 3)) *fold |= FENCI_FOLD_T2S;
    else {
      ft_fail(SQLITE_ERROR, "fenci: option fold wants all, none, case, width or t2s, not '%s'", v);
      return SQLITE_ERROR;
    }
    if (!p[l]) return SQLITE_OK;
    p += l + 1;
  }
}

/* xCreate: azArg holds the tokenizer options as key value pairs:
 *   model NAME|PATH   the model (default ctb): a path has a '/' or ends in .fenci
 *   modeldir DIR      where a model NAME is looked for
 *   mode search|default|all   how documents are cut (default search)
 *   fast 0|1          the lexicon decoder even when the model has weights
 *   fold LIST         all (default), none, or some of case,width,t2s
 *   parts 0|1         documents: also index the letters and digits inside URLs,
 *                     e-mail addresses and words such as e-mail, and the numbers
 *                     in words such as 1949年 (default 1; mode search and all)
 *   stopwords PATH    words not indexed nor searched, one a line */
static int ft_create(void *ud, const char **azArg, int nArg, Fts5Tokenizer **ppOut) {
  const char *model = FENCI_FTS5_DEFAULT_MODEL, *modeldir = NULL, *stopwords = NULL;
  unsigned mode = FENCI_MODE_SEARCH, fold = FENCI_FOLD_ALL;
  int fast = 0, parts = 1, fold_seen = 0, i, rc;
  char path[4096];
  ft_tok *t;
  fenci_rc frc;
  (void)ud;
  *ppOut = NULL;
  ft_last_error[0] = 0;
  for (i = 0; i < nArg; i += 2) {
    const char *k = azArg[i], *v = i + 1 < nArg ? azArg[i + 1] : NULL;
    if (!v) {
      ft_fail(SQLITE_ERROR, "fenci: option '%s' needs a value", k);
      return SQLITE_ERROR;
    }
    if (!strcmp(k, "model")) model = v;
    else if (!strcmp(k, "modeldir")) modeldir = v;
    else if (!strcmp(k, "stopwords")) stopwords = v;
    else if (!strcmp(k, "mode")) {
      if (!strcmp(v, "search")) mode = FENCI_MODE_SEARCH;
      else if (!strcmp(v, "default")) mode = FENCI_MODE_DEFAULT;
      else if (!strcmp(v, "all")) mode = FENCI_MODE_ALL;
      else {
        ft_fail(SQLITE_ERROR, "fenci: option mode wants search, default or all, not '%s'", v);
        return SQLITE_ERROR;
      }
    } else if (!strcmp(k, "fast")) {
      if (ft_parse_bool(k, v, &fast) != SQLITE_OK) return SQLITE_ERROR;
    } else if (!strcmp(k, "parts")) {
      if (ft_parse_bool(k, v, &parts) != SQLITE_OK) return SQLITE_ERROR;
    } else if (!strcmp(k, "fold")) {
      if (!fold_seen) fold = 0;
      fold_seen = 1;
      if (ft_parse_fold(v, &fold) != SQLITE_OK) return SQLITE_ERROR;
    } else {
      ft_fail(SQLITE_ERROR,
              "fenci: unknown option '%s' (options: model, modeldir, mode, fast, fold, parts, stopwords)", k);
      return SQLITE_ERROR;
    }
  }
  rc = ft_model_path(model, modeldir, path, sizeof path);
  if (rc != SQLITE_OK) return rc;
  t = sqlite3_malloc64(sizeof *t);
  if (!t) {
    ft_fail(SQLITE_NOMEM, "fenci: out of memory");
    return SQLITE_NOMEM;
  }
  memset(t, 0, sizeof *t);
  t->fold = fold;
  t->parts = parts && mode != FENCI_MODE_DEFAULT;
  t->cross = mode == FENCI_MODE_SEARCH;
  /* search mode takes its words from all mode's (see ft_doc_flush); a query
   * is cut in all mode too, whose main tokens are default mode's */
  t->doc_opts = (mode == FENCI_MODE_SEARCH ? (unsigned)FENCI_MODE_ALL : mode) | (fast ? (unsigned)FENCI_OPT_FAST : 0u);
  t->query_opts = FENCI_MODE_ALL | (fast ? (unsigned)FENCI_OPT_FAST : 0u);
  rc = ft_model_get(path, &t->model);
  if (rc == SQLITE_OK) {
    frc = fenci_tagger_new(&t->tagger, t->model->m, t->query_opts);
    /* the second opinion on word + suffix (ft_doc_bounds): only where the
     * documents are cut by the trained decoder, else it would be the same */
    t->use_lex = t->cross && !fast && fenci_model_has_weights(t->model->m);
    if (frc != FENCI_OK) {
      rc = ft_rc_sqlite(frc);
      ft_fail(rc, "fenci: cannot make a tagger: %s", fenci_rc_str(frc));
    }
  }
  if (rc == SQLITE_OK && stopwords) rc = ft_stop_load(t, stopwords);
  if (rc != SQLITE_OK) {
    ft_delete((Fts5Tokenizer *)t);
    return rc;
  }
  *ppOut = (Fts5Tokenizer *)t;
  return SQLITE_OK;
}

/* One xTokenize call. */
typedef struct ft_span {
  size_t start, end; /* byte offsets */
} ft_span;

/* A token of a document waiting in the window. */
typedef struct ft_ev {
  size_t start, end; /* byte offsets */
  uint16_t kind;     /* FENCI_KIND_* */
  uint16_t flags;    /* FT_EV_* */
} ft_ev;

enum {
  FT_EV_EXTRA = 0x1, /* a lexicon word with the main token before it */
  FT_EV_CROSS = 0x2, /* an extra that is exactly a run of one-character tokens */
  FT_EV_DROP = 0x4   /* an extra not indexed */
};

/* A query's main token. */
typedef struct ft_qtok {
  size_t start, end; /* byte offsets */
  uint16_t kind;     /* FENCI_KIND_* */
  uint8_t gap;       /* something not indexed (a mark, a space) comes before it */
} ft_qtok;

typedef struct ft_run {
  ft_tok *t;
  void *pctx;        /* FTS5's context for xtoken */
  ft_xtoken xtoken;
  const char *text;
  int rc;            /* the first failure: xtoken's code or ours */
  int main_kept;     /* the last main token went to FTS5: its extras follow it, colocated */
  int gap;           /* a query: a token not indexed since the last one kept */
  size_t prev_end;   /* the last main token's end and kind (ft_minus) */
  unsigned prev_kind;
  size_t sign_start, sign_end; /* the minus sign just seen, or sign_end (size_t)-1 */
} ft_run;

/* Grows *arr (elements of size elem, *cap of them) to hold need. */
static int ft_grow(void **arr, size_t *cap, size_t need, size_t elem) {
  size_t nc = *cap ? *cap : 32;
  void *p;
  if (need <= *cap) return SQLITE_OK;
  while (nc < need) nc *= 2;
  p = sqlite3_realloc64(*arr, (sqlite3_uint64)nc * elem);
  if (!p) return SQLITE_NOMEM;
  *arr = p;
  *cap = nc;
  return SQLITE_OK;
}

/* Gives the folded text[start, end) to FTS5 unless it is a stop word
 * (keep_stop: even then).  0 given, 1 skipped, -1 failed (r->rc). */
static int ft_give(ft_run *r, int tflags, size_t start, size_t end, int keep_stop) {
  size_t n = 0;
  int rc = ft_fold_into(r->t, r->text + start, end - start, &n);
  if (rc != SQLITE_OK) {
    r->rc = rc;
    return -1;
  }
  if (!keep_stop && ft_stop_has(&r->t->stop, r->t->buf, n)) return 1;
  if (n > 0x7FFFFFFF) return 1;
  rc = r->xtoken(r->pctx, tflags, r->t->buf, (int)n, (int)start, (int)end);
  if (rc != SQLITE_OK) {
    r->rc = rc;
    return -1;
  }
  return 0;
}

/* The length of the letter or digit at s (n bytes left) that a part holds:
 * ASCII, full-width or any non-ASCII character; 0 for ASCII marks. */
static size_t ft_part_char(const unsigned char *s, size_t n) {
  if ((s[0] >= '0' && s[0] <= '9') || ((s[0] | 0x20) >= 'a' && (s[0] | 0x20) <= 'z')) return 1;
  if (s[0] < 0x80) return 0;
  if (s[0] >= 0xF0 && n >= 4) return 4;
  if (s[0] >= 0xE0 && n >= 3) return 3;
  if (s[0] >= 0xC0 && n >= 2) return 2;
  return 1;
}

/* Parts: a URL, an e-mail address or a Latin word with inner marks
 * (e-mail, U.S.) is one token; its runs of letters and digits follow it as
 * colocated tokens, so that a search for example finds
 * https://example.com/.  Nothing when the token is one run. */
static int ft_give_parts(ft_run *r, size_t start, size_t end) {
  const unsigned char *s = (const unsigned char *)r->text;
  size_t i = start, k = 0;
  while (i < end && (k = ft_part_char(s + i, end - i)) > 0) i += k;
  if (i == end) return 0; /* one run: the token itself */
  for (i = start; i < end;) {
    size_t b;
    while (i < end && ft_part_char(s + i, end - i) == 0) i++;
    b = i;
    while (i < end && (k = ft_part_char(s + i, end - i)) > 0) i += k;
    if (i > b && ft_give(r, FTS5_TOKEN_COLOCATED, b, i, 0) < 0) return -1;
  }
  return 0;
}

/* Digits in a word (1949年, 20多, １２月): runs of two or more ASCII or
 * full-width digits follow it as colocated tokens, so that 1949 finds
 * 1949年.  A single digit is not worth a token (3 in 3月). */
static int ft_give_digits(ft_run *r, size_t start, size_t end) {
  const unsigned char *s = (const unsigned char *)r->text;
  size_t i = start;
  while (i < end) {
    size_t b = i, nd = 0;
    for (;;) {
      if (i < end && s[i] >= '0' && s[i] <= '9') i++;
      else if (i + 3 <= end && s[i] == 0xEF && s[i + 1] == 0xBC && s[i + 2] >= 0x90 && s[i + 2] <= 0x99) i += 3;
      else break;
      nd++;
    }
    if (nd >= 2 && (b > start || i < end) && ft_give(r, FTS5_TOKEN_COLOCATED, b, i, 0) < 0) return -1;
    if (i == b) i++;
  }
  return 0;
}

/* Not indexed: punctuation, whitespace, invalid bytes and control
 * characters (a C0 or C1 control is a one-character token of kind other). */
static int ft_skipped(const char *text, size_t start, size_t end, unsigned kind) {
  const unsigned char *s = (const unsigned char *)text + start;
  size_t n = end - start;
  if (kind == FENCI_KIND_PUNCT || kind == FENCI_KIND_SPACE || kind == FENCI_KIND_INVALID) return 1;
  if (kind == FENCI_KIND_OTHER) {
    if (n == 1 && (s[0] < 0x20 || s[0] == 0x7F)) return 1;
    if (n == 2 && s[0] == 0xC2 && s[1] >= 0x80 && s[1] <= 0x9F) return 1;
  }
  return 0;
}

/* A word token of one character (Han or another script; not a Latin run). */
static int ft_one_char(const char *text, size_t start, size_t end, unsigned kind) {
  unsigned char c = (unsigned char)text[start];
  size_t n = end - start;
  if (kind != FENCI_KIND_WORD && kind != FENCI_KIND_OTHER) return 0;
  return (c >= 0xC0 && c < 0xE0 && n == 2) || (c >= 0xE0 && c < 0xF0 && n == 3) || (c >= 0xF0 && n == 4);
}

/* Is text[start, end) made of Chinese numerals only (二十, 第三)?  Such a
 * word inside a longer number (二十一, 第三十二) is not indexed: a number
 * does not contain smaller numbers. */
static int ft_numeral(const char *text, size_t start, size_t end) {
  static const char digits[] = "〇零一二三四五六七八九十百千万亿两第";
  size_t i;
  for (i = start; i + 3 <= end; i += 3) {
    size_t j;
    for (j = 0; j + 3 <= sizeof digits - 1; j += 3)
      if (memcmp(text + i, digits + j, 3) == 0) break;
    if (j + 3 > sizeof digits - 1) return 0;
  }
  return i == end;
}

/* A minus sign (-, －, −) that may belong to the number after it: not
 * right after a number or a Latin word (1998-2000 and A-4 are no signs). */
static int ft_minus(const ft_run *r, size_t start, size_t end) {
  const char *s = r->text + start;
  size_t n = end - start;
  if (!((n == 1 && s[0] == '-') || (n == 3 && (!memcmp(s, "\xef\xbc\x8d", 3) || !memcmp(s, "\xe2\x88\x92", 3)))))
    return 0;
  return !(r->prev_end == start && (r->prev_kind == FENCI_KIND_NUMBER || r->prev_kind == FENCI_KIND_LATIN));
}

/* Gives a main token (and its parts); 1 when it went to FTS5, 0 when it
 * is not indexed, -1 on failure.  A number after a minus sign (ft_minus)
 * is followed by the signed number, colocated: -4 finds －4, not 4. */
static int ft_give_main(ft_run *r, size_t start, size_t end, unsigned kind) {
  int g;
  size_t sign = r->sign_end == start ? r->sign_start : (size_t)-1;
  r->main_kept = 0;
  r->sign_end = (size_t)-1;
  if (kind == FENCI_KIND_PUNCT && ft_minus(r, start, end)) {
    r->sign_start = start;
    r->sign_end = end;
  }
  r->prev_end = end;
  r->prev_kind = kind;
  if (ft_skipped(r->text, start, end, kind)) return 0;
  g = ft_give(r, 0, start, end, 0);
  if (g < 0) return -1;
  if (g > 0) return 0;
  r->main_kept = 1;
  if (r->t->parts && (kind == FENCI_KIND_URL || kind == FENCI_KIND_EMAIL || kind == FENCI_KIND_LATIN) &&
      ft_give_parts(r, start, end) < 0)
    return -1;
  if (kind == FENCI_KIND_NUMBER && sign != (size_t)-1 && ft_give(r, FTS5_TOKEN_COLOCATED, sign, end, 0) < 0) return -1;
  if (r->t->parts && kind == FENCI_KIND_WORD && ft_give_digits(r, start, end) < 0) return -1;
  return 1;
}

/* Documents in mode default and all: tokens go to FTS5 as fenci gives
 * them, each extra colocated with the main token before it. */
static int ft_on_token(void *ctx, const fenci_token *tok, const char *form, size_t form_len) {
  ft_run *r = ctx;
  (void)form;
  (void)form_len;
  if (tok->flags & FENCI_TOK_EXTRA) {
    if (!r->main_kept) return 0; /* its main token is not indexed */
    return ft_give(r, FTS5_TOKEN_COLOCATED, tok->start, tok->end, 0) < 0;
  }
  return ft_give_main(r, tok->start, tok->end, tok->kind) < 0;
}

/* Documents in search mode.  fenci's all mode gives, after each main
 * token, the lexicon words starting in it; kept are those inside it
 * (search mode's words: 北京 and 大学 in 北京大学) and the cross words,
 * those that are exactly a run of one-character tokens (一个 over 一|个,
 * 全国 over 全|国): the trained segmentation cuts some short words in one
 * sentence and not in another, and a query, cut alone, may go either way.
 * A cross word is given twice, colocated with its first and with its last
 * character, so that a query holding it as one word finds it at either end
 * of a phrase ("在 一个", "一个 人").  Deciding about a cross word needs
 * the tokens up to its end, so main tokens wait in a window (t->dv) until
 * the words starting at them are decided: a few tokens, never more than
 * the longest lexicon word. */

/* Is the cross word of the token at dv[k] ending at e a run of
 * one-character tokens?  Scans the main tokens from dv[from]: 1 yes, 0 no,
 * -1 not known yet (the window ends first). */
static int ft_doc_cross(const ft_run *r, size_t from, size_t e, int at_end) {
  const ft_tok *t = r->t;
  size_t i;
  for (i = from; i < t->dn; i++) {
    const ft_ev *m = &t->dv[i];
    if (m->flags & FT_EV_EXTRA) continue;
    if (!ft_one_char(r->text, m->start, m->end, m->kind) || m->end > e) return 0;
    if (m->end == e) return 1;
  }
  return at_end ? 0 : -1;
}

/* A word and a suffix.  The inner words of a long token that leave one
 * character after them are mostly a stem and a suffix that together make
 * another word: 招待|会, 自治|区, 电视|台, 解放|军, 湖南|省 (a 招待会 is not a
 * 招待, and a search for 招待 that returns it returns the wrong word); some
 * are a word and an ending that standards cut off (乡亲|们).  The trained
 * decoder gave the long token; the lexicon decoder (word frequencies only)
 * is asked for a second opinion on the same text, and the stem is indexed
 * only where it cuts there too.  Measured on held-out People's Daily
 * (1998-01-28..31, PKU gold, sqlite/bench/recall.py --gold): precision
 * 94.40 % -> 96.57 %, recall 98.51 % -> 98.30 %.  Words inside that leave
 * two characters or more (北京|大学) and those with a first character
 * before them (副|总理) are always indexed.
 *
 * ft_doc_bounds marks the ends of the lexicon decoder's tokens in a bitmap
 * (len / 8 bytes); ft_doc_bound asks whether one ends at a byte offset. */
static int ft_on_lex_token(void *ctx, const fenci_token *tok, const char *form, size_t form_len) {
  ft_run *r = ctx;
  ft_tok *t = r->t;
  (void)form;
  (void)form_len;
  t->lb[tok->end >> 3] |= (unsigned char)(1u << (tok->end & 7));
  return 0;
}

static int ft_doc_bounds(ft_run *r, const char *text, size_t len) {
  ft_tok *t = r->t;
  fenci_rc frc;
  if (len / 8 + 1 > t->cap_lb) {
    unsigned char *b = sqlite3_realloc64(t->lb, len / 8 + 1);
    if (!b) return SQLITE_NOMEM;
    t->lb = b;
    t->cap_lb = len / 8 + 1;
  }
  memset(t->lb, 0, len / 8 + 1);
  if (!t->lex) {
    frc = fenci_tagger_new(&t->lex, t->model->m, FENCI_MODE_DEFAULT | FENCI_OPT_FAST);
    if (frc != FENCI_OK) {
      ft_fail(ft_rc_sqlite(frc), "fenci: cannot make a tagger: %s", fenci_rc_str(frc));
      return ft_rc_sqlite(frc);
    }
  }
  frc = fenci_segment(t->lex, text, len, ft_on_lex_token, r);
  if (frc == FENCI_OK) return SQLITE_OK;
  if (r->rc != SQLITE_OK) return r->rc;
  ft_fail(ft_rc_sqlite(frc), "fenci: segmentation failed: %s",
          fenci_tagger_errmsg(t->lex)[0] ? fenci_tagger_errmsg(t->lex) : fenci_rc_str(frc));
  return ft_rc_sqlite(frc);
}

static int ft_doc_bound(const ft_tok *t, size_t off) { return (t->lb[off >> 3] >> (off & 7)) & 1; }

/* Gives every main token at the head of the window whose words are
 * decided (all of them at_end).  0, or -1 on failure. */
static int ft_doc_flush(ft_run *r, int at_end) {
  ft_tok *t = r->t;
  while (t->dh < t->dn) {
    ft_ev *k = &t->dv[t->dh];
    size_t j = t->dh + 1, x;
    int single, kept;
    while (j < t->dn && (t->dv[j].flags & FT_EV_EXTRA)) j++;
    if (j == t->dn && !at_end) break; /* its words may not all be here */
    single = ft_one_char(r->text, k->start, k->end, k->kind);
    for (x = t->dh + 1; x < j; x++) {
      ft_ev *w = &t->dv[x];
      if (w->flags & (FT_EV_CROSS | FT_EV_DROP)) continue;
      if (w->end <= k->end) {
        if (ft_numeral(r->text, w->start, w->end)) w->flags |= FT_EV_DROP;
        else if (t->use_lex && w->start == k->start && w->end < k->end && ft_one_char(r->text, w->end, k->end, k->kind) &&
                 !ft_doc_bound(t, w->end))
          w->flags |= FT_EV_DROP; /* a word and a suffix (ft_doc_bounds) */
        continue;
      }
      if (single) {
        int c = ft_doc_cross(r, j, w->end, at_end);
        if (c < 0) return 0; /* wait for more tokens */
        w->flags |= c ? FT_EV_CROSS : FT_EV_DROP;
      } else {
        w->flags |= FT_EV_DROP; /* starts inside a longer token and goes past it */
      }
    }
    kept = ft_give_main(r, k->start, k->end, k->kind);
    if (kept < 0) return -1;
    for (x = t->dh + 1; x < j; x++) {
      ft_ev *w = &t->dv[x];
      if (w->flags & FT_EV_DROP) continue;
      if (kept && ft_give(r, FTS5_TOKEN_COLOCATED, w->start, w->end, 0) < 0) return -1;
      if (w->flags & FT_EV_CROSS) {
        if (ft_grow((void **)&t->pl, &t->cap_pl, t->npl + 1, sizeof *t->pl) != SQLITE_OK) {
          r->rc = SQLITE_NOMEM;
          return -1;
        }
        t->pl[t->npl].start = w->start;
        t->pl[t->npl].end = w->end;
        t->npl++;
      }
    }
    /* the cross words ending at this character, again */
    for (x = 0; x < t->npl;) {
      if (t->pl[x].end == k->end) {
        if (kept && ft_give(r, FTS5_TOKEN_COLOCATED, t->pl[x].start, t->pl[x].end, 0) < 0) return -1;
        t->pl[x] = t->pl[--t->npl];
      } else {
        x++;
      }
    }
    t->dh = j;
  }
  if (t->dh == t->dn) {
    t->dh = t->dn = 0;
  } else if (t->dh > t->cap_dv / 2) {
    memmove(t->dv, t->dv + t->dh, (t->dn - t->dh) * sizeof *t->dv);
    t->dn -= t->dh;
    t->dh = 0;
  }
  return 0;
}

static int ft_on_doc_token(void *ctx, const fenci_token *tok, const char *form, size_t form_len) {
  ft_run *r = ctx;
  ft_tok *t = r->t;
  ft_ev *e;
  (void)form;
  (void)form_len;
  if (ft_grow((void **)&t->dv, &t->cap_dv, t->dn + 1, sizeof *t->dv) != SQLITE_OK) {
    r->rc = SQLITE_NOMEM;
    return 1;
  }
  e = &t->dv[t->dn++];
  e->start = tok->start;
  e->end = tok->end;
  e->kind = tok->kind;
  e->flags = (tok->flags & FENCI_TOK_EXTRA) ? FT_EV_EXTRA : 0;
  if (!(tok->flags & FENCI_TOK_EXTRA)) return ft_doc_flush(r, 0) < 0;
  return 0;
}

/* Queries.  A query is cut as a whole first: its main tokens (the plain
 * segmentation) and the lexicon words in it (all mode's extras) are
 * collected, then planned (ft_query_give). */
static int ft_on_query_token(void *ctx, const fenci_token *tok, const char *form, size_t form_len) {
  ft_run *r = ctx;
  ft_tok *t = r->t;
  (void)form;
  (void)form_len;
  if (tok->flags & FENCI_TOK_EXTRA) {
    if (ft_grow((void **)&t->qx, &t->cap_qx, t->nqx + 1, sizeof *t->qx) != SQLITE_OK) {
      r->rc = SQLITE_NOMEM;
      return 1;
    }
    t->qx[t->nqx].start = tok->start;
    t->qx[t->nqx].end = tok->end;
    t->nqx++;
    return 0;
  }
  {
    size_t sign = r->sign_end == tok->start ? r->sign_start : (size_t)-1;
    r->sign_end = (size_t)-1;
    if (tok->kind == FENCI_KIND_PUNCT && ft_minus(r, tok->start, tok->end)) {
      r->sign_start = tok->start;
      r->sign_end = tok->end;
    }
    r->prev_end = tok->end;
    r->prev_kind = tok->kind;
    if (ft_skipped(r->text, tok->start, tok->end, tok->kind)) {
      r->gap = 1;
      return 0;
    }
    if (ft_grow((void **)&t->qm, &t->cap_qm, t->nqm + 1, sizeof *t->qm) != SQLITE_OK) {
      r->rc = SQLITE_NOMEM;
      return 1;
    }
    if (tok->kind == FENCI_KIND_NUMBER && sign != (size_t)-1) {
      /* -4: the signed number, as documents have it (ft_give_main) */
      t->qm[t->nqm].start = sign;
      t->qm[t->nqm].end = tok->end;
      t->qm[t->nqm].kind = tok->kind;
      t->qm[t->nqm].gap = (uint8_t)(t->nqm && t->qm[t->nqm - 1].end == sign ? 0 : 1);
      r->gap = 0;
      t->nqm++;
      return 0;
    }
  }
  t->qm[t->nqm].start = tok->start;
  t->qm[t->nqm].end = tok->end;
  t->qm[t->nqm].kind = tok->kind;
  t->qm[t->nqm].gap = (uint8_t)r->gap;
  r->gap = 0;
  t->nqm++;
  return 0;
}

/* Is text[a, b) a lexicon word of the query?  (The extras come in order of
 * their start.) */
static int ft_query_is_word(const ft_tok *t, size_t a, size_t b) {
  size_t lo = 0, hi = t->nqx;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (t->qx[mid].start < a) lo = mid + 1;
    else hi = mid;
  }
  for (; lo < t->nqx && t->qx[lo].start == a; lo++)
    if (t->qx[lo].end == b) return 1;
  return 0;
}

static int ft_query_single(const ft_run *r, const ft_qtok *q) {
  return ft_one_char(r->text, q->start, q->end, q->kind);
}

/* Plans a query's tokens and gives them.  Each run of words without a
 * mark or a space between them is a phrase.  With search-mode documents,
 * one-character tokens at either end of a phrase that together are a
 * lexicon word become that word (全|国 -> 全国, 在|一|个 -> 在 一个): a
 * document has it as a token, as a word inside one, or as a cross word
 * (ft_doc_flush), whose two copies serve the two ends.  A prefix query
 * (FTS5_TOKENIZE_PREFIX) ends on its prefix: a lone last character joins
 * the word before it (北京大* matches 北京大学), and it is never dropped
 * as a stop word (的* finds 的确). */
static int ft_query_give(ft_run *r, int prefix) {
  ft_tok *t = r->t;
  ft_qtok *m = t->qm;
  size_t n = t->nqm, i, k = 0;
  for (i = 0; i < n;) {
    size_t j = i + 1, lo = i, hi, p, q;
    while (j < n && !m[j].gap) j++; /* the phrase m[i, j) */
    hi = j;
    if (t->cross) {
      /* the longest word of single characters at the start, then at the end */
      size_t best = i;
      for (q = i + 1; q < j && ft_query_single(r, &m[q - 1]) && ft_query_single(r, &m[q]); q++)
        if (ft_query_is_word(t, m[i].start, m[q].end)) best = q;
      if (best > i) {
        m[k] = m[i];
        m[k].end = m[best].end;
        k++;
        lo = best + 1;
      }
      best = j;
      for (p = j - 1; p > lo && ft_query_single(r, &m[p]) && ft_query_single(r, &m[p - 1]); p--)
        if (ft_query_is_word(t, m[p - 1].start, m[j - 1].end)) best = p - 1;
      hi = best;
    }
    for (p = lo; p < hi; p++) m[k++] = m[p];
    if (hi < j) {
      m[k] = m[hi];
      m[k].end = m[j - 1].end;
      k++;
    }
    i = j;
  }
  n = k;
  if (prefix && n >= 2 && !m[n - 1].gap && m[n - 2].end == m[n - 1].start && ft_query_single(r, &m[n - 1]) &&
      (m[n - 2].kind == FENCI_KIND_WORD || m[n - 2].kind == FENCI_KIND_OTHER)) {
    m[n - 2].end = m[n - 1].end;
    n--;
  }
  for (i = 0; i < n; i++)
    if (ft_give(r, 0, m[i].start, m[i].end, prefix && i == n - 1) < 0) return r->rc;
  return SQLITE_OK;
}

static int ft_tokenize(Fts5Tokenizer *p, void *pctx, int flags, const char *text, int ntext, ft_xtoken xtoken) {
  ft_tok *t = (ft_tok *)p;
  ft_run r;
  fenci_rc frc;
  int query = (flags & FTS5_TOKENIZE_QUERY) != 0;
  if (!t || !xtoken) return SQLITE_MISUSE;
  if (ntext <= 0 || !text) return SQLITE_OK;
  memset(&r, 0, sizeof r);
  r.t = t;
  r.pctx = pctx;
  r.xtoken = xtoken;
  r.text = text;
  r.prev_end = (size_t)-1;
  r.sign_end = (size_t)-1;
  t->nqm = t->nqx = t->dh = t->dn = t->npl = 0;
  frc = fenci_tagger_set_options(t->tagger, query ? t->query_opts : t->doc_opts);
  if (frc == FENCI_OK) {
    if (query) {
      frc = fenci_segment(t->tagger, text, (size_t)ntext, ft_on_query_token, &r);
      if (frc == FENCI_OK) r.rc = ft_query_give(&r, (flags & FTS5_TOKENIZE_PREFIX) != 0);
    } else if (t->cross) {
      if (t->use_lex && (r.rc = ft_doc_bounds(&r, text, (size_t)ntext)) != SQLITE_OK) return r.rc;
      frc = fenci_segment(t->tagger, text, (size_t)ntext, ft_on_doc_token, &r);
      if (frc == FENCI_OK && ft_doc_flush(&r, 1) < 0 && r.rc == SQLITE_OK) r.rc = SQLITE_ERROR;
    } else {
      frc = fenci_segment(t->tagger, text, (size_t)ntext, ft_on_token, &r);
    }
  }
  if (frc != FENCI_OK && frc != FENCI_STOPPED) {
    ft_fail(ft_rc_sqlite(frc), "fenci: segmentation failed: %s",
            fenci_tagger_errmsg(t->tagger)[0] ? fenci_tagger_errmsg(t->tagger) : fenci_rc_str(frc));
    return ft_rc_sqlite(frc);
  }
  if (r.rc == SQLITE_DONE) return SQLITE_OK;
  if (r.rc == SQLITE_NOMEM) ft_fail(SQLITE_NOMEM, "fenci: out of memory");
  return r.rc;
}

#if FENCI_FTS5_V2
static int ft_tokenize_v2(Fts5Tokenizer *p, void *pctx, int flags, const char *text, int ntext, const char *locale,
                          int nlocale, ft_xtoken xtoken) {
  (void)locale; /* one model for every locale */
  (void)nlocale;
  return ft_tokenize(p, pctx, flags, text, ntext, xtoken);
}
#endif

/* ------------------------------------------------------- SQL functions */

/* Splits an option string ("model ctb mode search", "model '/a b/x.fenci'")
 * into words as FTS5 does: barewords, or '...' "..." with the quote doubled
 * to escape it.  The words are written NUL-terminated into buf (as long as
 * s); returns the count, -1 for an unterminated quote, -2 for more than cap. */
static int ft_split_options(const char *s, char *buf, const char **argv, int cap) {
  int n = 0;
  while (*s) {
    char q;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
    if (!*s) break;
    if (n == cap) return -2;
    argv[n++] = buf;
    q = (*s == '\'' || *s == '"' || *s == '`') ? *s : 0;
    if (q) {
      s++;
      for (;;) {
        if (!*s) return -1;
        if (*s == q) {
          if (s[1] != q) {
            s++;
            break;
          }
          s++;
        }
        *buf++ = *s++;
      }
    } else {
      while (*s && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r') *buf++ = *s++;
    }
    *buf++ = 0;
  }
  return n;
}

/* A tokenizer for the options string opts (NULL: the defaults). */
static int ft_create_from_string(const char *opts, ft_tok **out) {
  const char *argv[64];
  char *buf;
  int n = 0, rc;
  size_t l = opts ? strlen(opts) : 0;
  *out = NULL;
  buf = sqlite3_malloc64(l + 1);
  if (!buf) {
    ft_fail(SQLITE_NOMEM, "fenci: out of memory");
    return SQLITE_NOMEM;
  }
  if (opts) n = ft_split_options(opts, buf, argv, 64);
  if (n < 0) {
    sqlite3_free(buf);
    ft_fail(SQLITE_ERROR, "fenci: %s in options '%s'", n == -1 ? "unterminated quote" : "too many words", opts);
    return SQLITE_ERROR;
  }
  if (n > 0 && !strcmp(argv[0], "fenci")) {
    /* the whole tokenize= value may be given */
    rc = ft_create(NULL, argv + 1, n - 1, (Fts5Tokenizer **)out);
  } else {
    rc = ft_create(NULL, argv, n, (Fts5Tokenizer **)out);
  }
  sqlite3_free(buf);
  return rc;
}

/* The text fenci_tokens() builds. */
typedef struct ft_out {
  char *p;
  size_t n, cap;
  int offsets; /* write [start,end] after each token */
  int ntok;
  int rc;
} ft_out;

static int ft_out_add(ft_out *o, const char *s, size_t n) {
  if (o->n + n + 1 > o->cap) {
    size_t nc = o->cap ? o->cap * 2 : 256;
    char *p;
    while (nc < o->n + n + 1) nc *= 2;
    p = sqlite3_realloc64(o->p, nc);
    if (!p) {
      o->rc = SQLITE_NOMEM;
      return SQLITE_NOMEM;
    }
    o->p = p;
    o->cap = nc;
  }
  memcpy(o->p + o->n, s, n);
  o->n += n;
  return SQLITE_OK;
}

static int ft_out_token(void *ctx, int tflags, const char *tok, int ntok, int start, int end) {
  ft_out *o = ctx;
  if (o->ntok && ft_out_add(o, (tflags & FTS5_TOKEN_COLOCATED) ? "|" : " ", 1)) return SQLITE_NOMEM;
  if (ft_out_add(o, tok, (size_t)ntok)) return SQLITE_NOMEM;
  if (o->offsets) {
    char b[48];
    int k = snprintf(b, sizeof b, "[%d,%d]", start, end);
    if (ft_out_add(o, b, (size_t)k)) return SQLITE_NOMEM;
  }
  o->ntok++;
  return SQLITE_OK;
}

static void ft_tok_free_v(void *p) { ft_delete((Fts5Tokenizer *)p); }

/* fenci_tokens(text [, how [, options [, offsets]]]): the tokens FTS5 gets
 * for text, space-separated, a colocated token joined to the one before by
 * '|', with [start,end] byte offsets when offsets is non-zero.  how is
 * 'document' (default), 'query', 'prefix' or 'aux'; options as in
 * tokenize='fenci ...'.  For checking a table's tokens, or why a search
 * does not find a word. */
static void ft_sql_tokens(sqlite3_context *cx, int argc, sqlite3_value **argv) {
  const char *text = (const char *)sqlite3_value_text(argv[0]);
  int ntext = sqlite3_value_bytes(argv[0]), flags = FTS5_TOKENIZE_DOCUMENT, rc, cached = 0;
  const char *opts = argc > 2 ? (const char *)sqlite3_value_text(argv[2]) : NULL;
  ft_tok *t = NULL;
  ft_out o;
  if (!text) return; /* NULL in, NULL out */
  if (argc > 1 && sqlite3_value_type(argv[1]) != SQLITE_NULL) {
    const char *how = (const char *)sqlite3_value_text(argv[1]);
    if (!how) {
      sqlite3_result_error_nomem(cx);
      return;
    }
    if (!strcmp(how, "document")) flags = FTS5_TOKENIZE_DOCUMENT;
    else if (!strcmp(how, "query")) flags = FTS5_TOKENIZE_QUERY;
    else if (!strcmp(how, "prefix")) flags = FTS5_TOKENIZE_QUERY | FTS5_TOKENIZE_PREFIX;
    else if (!strcmp(how, "aux")) flags = FTS5_TOKENIZE_AUX;
    else {
      sqlite3_result_error(cx, "fenci_tokens: the second argument is document, query, prefix or aux", -1);
      return;
    }
  }
  if (argc > 2) {
    t = sqlite3_get_auxdata(cx, 2);
    cached = t != NULL;
  }
  if (!t) {
    rc = ft_create_from_string(opts, &t);
    if (rc != SQLITE_OK) {
      if (rc == SQLITE_NOMEM) sqlite3_result_error_nomem(cx);
      else sqlite3_result_error(cx, ft_last_error[0] ? ft_last_error : "fenci: error", -1);
      return;
    }
  }
  memset(&o, 0, sizeof o);
  o.offsets = argc > 3 && sqlite3_value_int(argv[3]) != 0;
  rc = ft_tokenize((Fts5Tokenizer *)t, &o, flags, text, ntext, ft_out_token);
  if (rc == SQLITE_OK && o.rc == SQLITE_OK) {
    sqlite3_result_text64(cx, o.p ? o.p : "", o.n, SQLITE_TRANSIENT, SQLITE_UTF8);
  } else if (rc == SQLITE_NOMEM || o.rc == SQLITE_NOMEM) {
    sqlite3_result_error_nomem(cx);
  } else {
    sqlite3_result_error(cx, ft_last_error[0] ? ft_last_error : "fenci: error", -1);
  }
  sqlite3_free(o.p);
  if (argc > 2 && !cached) sqlite3_set_auxdata(cx, 2, t, ft_tok_free_v); /* frees t if it cannot keep it */
  else if (argc <= 2) ft_delete((Fts5Tokenizer *)t);
}

/* fenci_fold(text [, flags]): text folded as tokens are (flags: the fold
 * option's list, default all). */
static void ft_sql_fold(sqlite3_context *cx, int argc, sqlite3_value **argv) {
  const char *text = (const char *)sqlite3_value_text(argv[0]);
  size_t len = (size_t)sqlite3_value_bytes(argv[0]), n = 0;
  unsigned fold = FENCI_FOLD_ALL;
  char *out;
  if (!text) return;
  if (argc > 1) {
    const char *f = (const char *)sqlite3_value_text(argv[1]);
    fold = 0;
    if (!f || ft_parse_fold(f, &fold) != SQLITE_OK) {
      sqlite3_result_error(cx, ft_last_error, -1);
      return;
    }
  }
  out = sqlite3_malloc64(len * 4 + 1);
  if (!out) {
    sqlite3_result_error_nomem(cx);
    return;
  }
  if (fenci_fold(text, len, fold, out, len * 4 + 1, &n) != FENCI_OK) {
    sqlite3_free(out);
    sqlite3_result_error(cx, "fenci_fold failed", -1);
    return;
  }
  sqlite3_result_text64(cx, out, n, sqlite3_free, SQLITE_UTF8);
}

/* fenci_error(): why the last fenci tokenizer of this thread could not be
 * made (FTS5 says only "error in tokenizer constructor"), or NULL. */
static void ft_sql_error(sqlite3_context *cx, int argc, sqlite3_value **argv) {
  (void)argc;
  (void)argv;
  if (ft_last_error[0]) sqlite3_result_text(cx, ft_last_error, -1, SQLITE_TRANSIENT);
}

static void ft_sql_version(sqlite3_context *cx, int argc, sqlite3_value **argv) {
  (void)argc;
  (void)argv;
  sqlite3_result_text(cx, fenci_version_string(), -1, SQLITE_STATIC);
}

/* --------------------------------------------------------- entry point */

/* The fts5_api of db, by the documented "SELECT fts5(?)" handshake; NULL
 * when this SQLite has no FTS5. */
static fts5_api *ft_fts5_api(sqlite3 *db) {
  fts5_api *api = NULL;
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &st, NULL) != SQLITE_OK) return NULL;
  if (sqlite3_bind_pointer(st, 1, (void *)&api, "fts5_api_ptr", NULL) == SQLITE_OK) (void)sqlite3_step(st);
  sqlite3_finalize(st);
  return api;
}

static fts5_tokenizer ft_tokenizer_v1 = {ft_create, ft_delete, ft_tokenize};
#if FENCI_FTS5_V2
static fts5_tokenizer_v2 ft_tokenizer_v2 = {2, ft_create, ft_delete, ft_tokenize_v2};
#endif

/* The entry point SQLite derives from the file name fenci_fts5 (letters
 * only: "fencifts"): .load ./build/sqlite/fenci_fts5 finds it. */
FT_EXPORT int sqlite3_fencifts_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi);
FT_EXPORT int sqlite3_fencifts_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi) {
  fts5_api *api;
  int rc, i;
  static const struct {
    const char *name;
    int nargs;
    void (*fn)(sqlite3_context *, int, sqlite3_value **);
  } fns[] = {{"fenci_tokens", 1, ft_sql_tokens}, {"fenci_tokens", 2, ft_sql_tokens},
             {"fenci_tokens", 3, ft_sql_tokens}, {"fenci_tokens", 4, ft_sql_tokens},
             {"fenci_fold", 1, ft_sql_fold},     {"fenci_fold", 2, ft_sql_fold},
             {"fenci_error", 0, ft_sql_error},   {"fenci_version", 0, ft_sql_version}};
  SQLITE_EXTENSION_INIT2(pApi);
  api = ft_fts5_api(db);
  if (!api || api->iVersion < 2) {
    if (pzErrMsg) *pzErrMsg = sqlite3_mprintf("fenci: this SQLite (%s) has no FTS5", sqlite3_libversion());
    return SQLITE_ERROR;
  }
#if FENCI_FTS5_V2
  if (api->iVersion >= 3 && api->xCreateTokenizer_v2)
    rc = api->xCreateTokenizer_v2(api, "fenci", NULL, &ft_tokenizer_v2, NULL);
  else
#endif
    rc = api->xCreateTokenizer(api, "fenci", NULL, &ft_tokenizer_v1, NULL);
  if (rc != SQLITE_OK) {
    if (pzErrMsg) *pzErrMsg = sqlite3_mprintf("fenci: cannot register the FTS5 tokenizer (%d)", rc);
    return rc;
  }
  for (i = 0; i < (int)(sizeof fns / sizeof fns[0]); i++) {
    int det = strcmp(fns[i].name, "fenci_fold") ? 0 : SQLITE_DETERMINISTIC;
    rc = sqlite3_create_function_v2(db, fns[i].name, fns[i].nargs, SQLITE_UTF8 | det, NULL, fns[i].fn, NULL, NULL,
                                    NULL);
    if (rc != SQLITE_OK) {
      if (pzErrMsg) *pzErrMsg = sqlite3_mprintf("fenci: cannot register %s (%d)", fns[i].name, rc);
      return rc;
    }
  }
  return SQLITE_OK;
}
