/* cut.c - `fenci cut`: segment files or stdin line by line.
 *
 * Input is read in batches of whole lines.  With -j N, N worker threads
 * segment batches (one tagger each, all sharing the model) while the main
 * thread reads ahead and writes finished batches strictly in input order. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "chars.h"
#include "cli.h"
#include "common.h"
#include "fenci.h"

enum { FMT_TEXT, FMT_JSON, FMT_LINES };

typedef struct cut_cfg {
  const char *model;
  unsigned opts;
  const char *sep;
  size_t seplen;
  int format;
  int jobs;
  const char **dicts;
  int ndicts;
  int progress;
} cut_cfg;

typedef struct obuf {
  char *p;
  size_t n, cap;
  int oom;
} obuf;

static void ob_put(obuf *b, const void *s, size_t n) {
  if (b->oom || n == 0) return;
  if (b->n + n > b->cap) {
    size_t nc = b->cap ? b->cap : 65536;
    char *np;
    while (nc < b->n + n) nc *= 2;
    np = realloc(b->p, nc);
    if (!np) {
      b->oom = 1;
      return;
    }
    b->p = np;
    b->cap = nc;
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
}

static void ob_str(obuf *b, const char *s) { ob_put(b, s, strlen(s)); }

static void ob_num(obuf *b, size_t v) {
  char t[32];
  int k = snprintf(t, sizeof t, "%zu", v);
  ob_put(b, t, (size_t)k);
}

/* JSON string body: escapes quotes, backslashes and controls; an invalid
 * UTF-8 byte becomes U+FFFD (its offsets still point at the real byte). */
static void ob_json(obuf *b, const char *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    uint32_t cp;
    size_t l = fc_utf8_decode((const uint8_t *)s + i, n - i, &cp);
    if (cp == FC_BADCP) ob_str(b, "\\ufffd");
    else if (cp == '"') ob_str(b, "\\\"");
    else if (cp == '\\') ob_str(b, "\\\\");
    else if (cp < 0x20 || cp == 0x7F) {
      char t[8];
      snprintf(t, sizeof t, "\\u%04x", (unsigned)cp);
      ob_str(b, t);
    } else ob_put(b, s + i, l);
    i += l;
  }
}

static size_t fc_count_chars(const char *s, size_t n) {
  size_t i = 0, c = 0;
  while (i < n) {
    uint32_t cp;
    i += fc_utf8_decode((const uint8_t *)s + i, n - i, &cp);
    c++;
  }
  return c;
}

static const char *const kind_names[] = {"word", "latin", "number", "url", "email", "punct", "space", "invalid", "other"};

typedef struct line_ctx {
  const cut_cfg *cfg;
  const fenci_model *m;
  obuf *out;
  const char *line;
  size_t ntok;          /* tokens written on this line */
  size_t main_start;    /* byte start of the last main token */
  size_t main_cstart;   /* its char start */
  size_t next_cstart;   /* char offset after the last main token */
} line_ctx;

/* Text format, the common case: separator and token bytes, nothing else. */
/* Copies n bytes; most tokens are a few bytes long, where a call to memcpy
 * costs more than the copy.  Overlapping loads stay inside both buffers. */
static inline void copy_small(char *d, const char *s, size_t n) {
  /* the first and the last sizeof(T) bytes, which together cover n */
#define COPY_ENDS(T)                           \
  do {                                         \
    T a_, b_;                                  \
    memcpy(&a_, s, sizeof a_);                 \
    memcpy(&b_, s + n - sizeof b_, sizeof b_); \
    memcpy(d, &a_, sizeof a_);                 \
    memcpy(d + n - sizeof b_, &b_, sizeof b_); \
  } while (0)
  if (n > 16) memcpy(d, s, n);
  else if (n >= 8) COPY_ENDS(uint64_t);
  else if (n >= 4) COPY_ENDS(uint32_t);
  else if (n >= 2) COPY_ENDS(uint16_t);
  else if (n == 1) d[0] = s[0];
#undef COPY_ENDS
}

static int cut_token_text(void *vctx, const fenci_token *t, const char *form, size_t len) {
  line_ctx *c = vctx;
  obuf *b = c->out;
  size_t sl = c->ntok ? c->cfg->seplen : 0;
  if (t->kind == FENCI_KIND_SPACE) return 0;
  if (b->n + sl + len > b->cap) {
    ob_put(b, c->cfg->sep, sl);
    ob_put(b, form, len);
  } else {
    copy_small(b->p + b->n, c->cfg->sep, sl);
    copy_small(b->p + b->n + sl, form, len);
    b->n += sl + len;
  }
  c->ntok++;
  return 0;
}

static int cut_token(void *vctx, const fenci_token *t, const char *form, size_t len) {
  line_ctx *c = vctx;
  obuf *b = c->out;
  int extra = (t->flags & FENCI_TOK_EXTRA) != 0;
  size_t cs, ce;
  if (c->cfg->format != FMT_JSON && t->kind == FENCI_KIND_SPACE) return 0;
  switch (c->cfg->format) {
  case FMT_TEXT:
    if (c->ntok) ob_put(b, c->cfg->sep, c->cfg->seplen);
    ob_put(b, form, len);
    break;
  case FMT_LINES:
    ob_put(b, form, len);
    ob_put(b, "\n", 1);
    break;
  default:
    if (extra) {
      cs = c->main_cstart + fc_count_chars(c->line + c->main_start, t->start - c->main_start);
    } else {
      cs = c->next_cstart;
      c->main_start = t->start;
      c->main_cstart = cs;
    }
    ce = cs + fc_count_chars(form, len);
    if (!extra) c->next_cstart = ce;
    ob_str(b, c->ntok ? ",{\"w\":\"" : "{\"w\":\"");
    ob_json(b, form, len);
    ob_str(b, "\",\"s\":");
    ob_num(b, t->start);
    ob_str(b, ",\"e\":");
    ob_num(b, t->end);
    ob_str(b, ",\"cs\":");
    ob_num(b, cs);
    ob_str(b, ",\"ce\":");
    ob_num(b, ce);
    ob_str(b, ",\"kind\":\"");
    ob_str(b, t->kind < sizeof kind_names / sizeof kind_names[0] ? kind_names[t->kind] : "other");
    ob_str(b, "\"");
    if (t->tag) {
      ob_str(b, ",\"tag\":\"");
      ob_str(b, fenci_tag_name(c->m, t->tag));
      ob_str(b, "\"");
    }
    if (t->flags & FENCI_TOK_OOV) ob_str(b, ",\"oov\":true");
    if (t->flags & FENCI_TOK_USER) ob_str(b, ",\"user\":true");
    if (extra) ob_str(b, ",\"extra\":true");
    ob_str(b, "}");
    break;
  }
  c->ntok++;
  return 0;
}

/* Segments every line of in[0..n) into out.  Returns 0 or -1 (message printed). */
static int cut_batch(const cut_cfg *cfg, fenci_tagger *t, const fenci_model *m, const char *in, size_t n, obuf *out) {
  size_t p = 0;
  while (p < n) {
    const char *nl = memchr(in + p, '\n', n - p);
    size_t e = nl ? (size_t)(nl - in) : n, le = e;
    line_ctx c;
    fenci_rc rc;
    if (nl && le > p && in[le - 1] == '\r') le--;
    memset(&c, 0, sizeof c);
    c.cfg = cfg;
    c.m = m;
    c.out = out;
    c.line = in + p;
    if (cfg->format == FMT_JSON) ob_str(out, "{\"tokens\":[");
    rc = fenci_segment(t, in + p, le - p, cfg->format == FMT_TEXT ? cut_token_text : cut_token, &c);
    if (rc != FENCI_OK) {
      fprintf(stderr, "fenci cut: %s\n", fenci_tagger_errmsg(t));
      return -1;
    }
    if (cfg->format == FMT_JSON) ob_str(out, "]}\n");
    else if (cfg->format == FMT_LINES) ob_put(out, "\n", 1);
    else if (nl) ob_put(out, in + le, e + 1 - le); /* keep "\n" or "\r\n" */
    p = nl ? e + 1 : n;
  }
  if (out->oom) {
    fprintf(stderr, "fenci cut: out of memory\n");
    return -1;
  }
  return 0;
}

/* ---------------------------------------------------------------- reading */

typedef struct reader {
  FILE *f;
  char *carry;       /* bytes after the last newline of the previous batch */
  size_t carry_n, carry_cap;
  int eof;
} reader;

#define BATCH (1u << 20)

/* Fills *buf with whole lines (about BATCH bytes; more for a longer line).
 * Returns 1 with data, 0 at the end, -1 on a read error. */
static int read_batch(reader *r, char **buf, size_t *len, size_t *cap) {
  size_t n = 0;
  if (r->eof && r->carry_n == 0) return 0;
  if (*cap < BATCH + r->carry_n) {
    size_t nc = BATCH + r->carry_n;
    char *nb = realloc(*buf, nc);
    if (!nb) return -1;
    *buf = nb;
    *cap = nc;
  }
  if (r->carry_n) memcpy(*buf, r->carry, r->carry_n); /* carry is NULL before the first batch */
  n = r->carry_n;
  r->carry_n = 0;
  for (;;) {
    size_t got, i;
    if (!r->eof && n < *cap) {
      got = fread(*buf + n, 1, *cap - n, r->f);
      if (got == 0) {
        if (ferror(r->f)) return -1;
        r->eof = 1;
      }
      n += got;
    }
    if (r->eof) break;
    if (n < *cap) continue;
    /* full: cut after the last newline, or grow for a longer line */
    for (i = n; i > 0 && (*buf)[i - 1] != '\n'; i--) {}
    if (i > 0) {
      size_t rest = n - i;
      if (rest > r->carry_cap) {
        char *nc = realloc(r->carry, rest);
        if (!nc) return -1;
        r->carry = nc;
        r->carry_cap = rest;
      }
      memcpy(r->carry, *buf + i, rest);
      r->carry_n = rest;
      n = i;
      break;
    } else {
      char *nb = realloc(*buf, *cap * 2);
      if (!nb) return -1;
      *buf = nb;
      *cap *= 2;
    }
  }
  *len = n;
  return n > 0 || !r->eof ? 1 : 0;
}

/* ---------------------------------------------------------------- workers */

#define SLOTS 16

typedef struct slot {
  char *in;
  size_t in_len, in_cap;
  obuf out;
  int state;  /* 0 free, 1 filled, 2 done, 3 failed */
  size_t seq;
} slot;

typedef struct pool {
  const cut_cfg *cfg;
  const fenci_model *m;
  fenci_dict *dict;
  slot slots[SLOTS];
  size_t next_take;   /* next sequence number a worker takes */
  size_t filled;      /* sequence numbers filled so far */
  int done_reading;
  pthread_mutex_t mu;
  pthread_cond_t cv;
} pool;

static void *worker(void *arg) {
  pool *p = arg;
  fenci_tagger *t = NULL;
  if (fenci_tagger_new(&t, p->m, p->cfg->opts) != FENCI_OK || fenci_tagger_set_dict(t, p->dict) != FENCI_OK) {
    fprintf(stderr, "fenci cut: cannot create a tagger\n");
    fenci_tagger_free(t);
    t = NULL;
  }
  pthread_mutex_lock(&p->mu);
  for (;;) {
    slot *s;
    while (p->next_take >= p->filled && !p->done_reading) pthread_cond_wait(&p->cv, &p->mu);
    if (p->next_take >= p->filled) break;
    s = &p->slots[p->next_take % SLOTS];
    p->next_take++;
    pthread_mutex_unlock(&p->mu);
    s->out.n = 0;
    {
      int ok = t && cut_batch(p->cfg, t, p->m, s->in, s->in_len, &s->out) == 0;
      pthread_mutex_lock(&p->mu);
      s->state = ok ? 2 : 3;
    }
    pthread_cond_broadcast(&p->cv);
  }
  pthread_mutex_unlock(&p->mu);
  fenci_tagger_free(t);
  return NULL;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct progress {
  int on;
  double t0, last;
  size_t total, done;
} progress;

static void progress_tick(progress *pg, size_t add) {
  double t;
  pg->done += add;
  if (!pg->on) return;
  t = now_s();
  if (t - pg->last < 0.25) return;
  pg->last = t;
  fprintf(stderr, "\rfenci: %3.0f%%  %.1f MB  %.1f MB/s ", pg->total ? 100.0 * (double)pg->done / (double)pg->total : 0.0,
          (double)pg->done / 1e6, (double)pg->done / 1e6 / (t - pg->t0 + 1e-9));
}

static int cut_stream(const cut_cfg *cfg, const fenci_model *m, fenci_dict *dict, fenci_tagger *t1, FILE *f,
                      progress *pg) {
  reader r;
  int rc = 0;
  memset(&r, 0, sizeof r);
  r.f = f;
  if (cfg->jobs <= 1) {
    char *buf = NULL;
    size_t len = 0, cap = 0;
    obuf out;
    memset(&out, 0, sizeof out);
    for (;;) {
      int k = read_batch(&r, &buf, &len, &cap);
      if (k < 0) {
        fprintf(stderr, "fenci cut: read error: %s\n", strerror(errno));
        rc = -1;
        break;
      }
      if (k == 0) break;
      out.n = 0;
      if (cut_batch(cfg, t1, m, buf, len, &out)) {
        rc = -1;
        break;
      }
      if (fwrite(out.p, 1, out.n, stdout) != out.n) {
        rc = -2;
        break;
      }
      progress_tick(pg, len);
    }
    free(buf);
    free(out.p);
  } else {
    pool p;
    pthread_t th[64];
    int nth = cfg->jobs > 64 ? 64 : cfg->jobs, i, started = 0;
    size_t written = 0;
    memset(&p, 0, sizeof p);
    p.cfg = cfg;
    p.m = m;
    p.dict = dict;
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.cv, NULL);
    for (i = 0; i < nth; i++)
      if (pthread_create(&th[started], NULL, worker, &p) == 0) started++;
    if (!started) {
      fprintf(stderr, "fenci cut: cannot start threads\n");
      rc = -1;
    }
    while (rc == 0) {
      slot *s;
      int k;
      pthread_mutex_lock(&p.mu);
      /* write finished batches strictly in order */
      while (written < p.filled && p.slots[written % SLOTS].state >= 2) {
        slot *w = &p.slots[written % SLOTS];
        pthread_mutex_unlock(&p.mu);
        if (w->state == 3) rc = -1;
        else if (fwrite(w->out.p, 1, w->out.n, stdout) != w->out.n) rc = -2;
        progress_tick(pg, w->in_len);
        pthread_mutex_lock(&p.mu);
        w->state = 0;
        written++;
        if (rc) break;
      }
      if (rc || (p.done_reading && written == p.filled)) {
        pthread_mutex_unlock(&p.mu);
        break;
      }
      if (p.done_reading || p.filled - written >= SLOTS) {
        pthread_cond_wait(&p.cv, &p.mu);
        pthread_mutex_unlock(&p.mu);
        continue;
      }
      s = &p.slots[p.filled % SLOTS];
      pthread_mutex_unlock(&p.mu);
      k = read_batch(&r, &s->in, &s->in_len, &s->in_cap);
      pthread_mutex_lock(&p.mu);
      if (k < 0) {
        fprintf(stderr, "fenci cut: read error: %s\n", strerror(errno));
        rc = -1;
        p.done_reading = 1;
      } else if (k == 0) {
        p.done_reading = 1;
      } else {
        s->state = 1;
        p.filled++;
      }
      pthread_cond_broadcast(&p.cv);
      pthread_mutex_unlock(&p.mu);
    }
    pthread_mutex_lock(&p.mu);
    p.done_reading = 1;
    pthread_cond_broadcast(&p.cv);
    pthread_mutex_unlock(&p.mu);
    for (i = 0; i < started; i++) pthread_join(th[i], NULL);
    for (i = 0; i < SLOTS; i++) {
      free(p.slots[i].in);
      free(p.slots[i].out.p);
    }
    pthread_mutex_destroy(&p.mu);
    pthread_cond_destroy(&p.cv);
  }
  free(r.carry);
  if (rc == -2) fprintf(stderr, "fenci cut: write error: %s\n", strerror(errno));
  return rc;
}

static void cut_usage(FILE *f) {
  fprintf(f,
          "usage: fenci cut [options] [FILE...]\n"
          "Segments each FILE (or stdin, or '-') line by line and writes the words.\n"
          "\n"
          "  -m, --model NAME|PATH  model to use (default: %s); NAME is looked up as\n"
          "                         NAME.fenci in $FENCI_MODEL_DIR, then models/ next to fenci\n"
          "      --fast             lexicon mode, even when the model has trained weights\n"
          "      --mode MODE        default | search (also words inside long words) |\n"
          "                         all (every lexicon word); --search and --all are short forms\n"
          "  -u, --user-dict FILE   add user words (\"word [freq [tag]]\" lines; no freq = always\n"
          "                         one token); may be repeated\n"
          "  -d, --delim SEP        word separator in text output (default: one space;\n"
          "                         \\t is a tab)\n"
          "  -f, --format FMT       text (default; whitespace tokens dropped) | json (one object\n"
          "                         per line with every token, byte and character offsets) |\n"
          "                         lines (one token a line, a blank line after each input line)\n"
          "  -j, --jobs N           N threads (output order is kept)\n"
          "  -q, --quiet            no progress indicator\n"
          "  -h, --help             this help\n",
          FENCI_DEFAULT_MODEL);
}

int fc_cmd_cut(int argc, char **argv) {
  cut_cfg cfg;
  const char *files[256];
  const char *dicts[64];
  int nfiles = 0, i, status = 0;
  unsigned mode = FENCI_MODE_DEFAULT;
  fenci_model *m;
  fenci_dict *dict = NULL;
  fenci_tagger *t = NULL;
  progress pg;
  char sepbuf[256];

  memset(&cfg, 0, sizeof cfg);
  cfg.sep = " ";
  cfg.jobs = 1;
  cfg.progress = isatty(2);
  cfg.dicts = dicts;
  for (i = 1; i < argc; i++) {
    const char *a = argv[i];
#define NEED_ARG()                                                        \
  do {                                                                    \
    if (i + 1 >= argc) {                                                  \
      fprintf(stderr, "fenci cut: option %s needs an argument\n", a);     \
      return 2;                                                           \
    }                                                                     \
  } while (0)
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      cut_usage(stdout);
      return 0;
    } else if (!strcmp(a, "-m") || !strcmp(a, "--model")) {
      NEED_ARG();
      cfg.model = argv[++i];
    } else if (!strcmp(a, "--fast")) {
      cfg.opts |= FENCI_OPT_FAST;
    } else if (!strcmp(a, "--search")) {
      mode = FENCI_MODE_SEARCH;
    } else if (!strcmp(a, "--all")) {
      mode = FENCI_MODE_ALL;
    } else if (!strcmp(a, "--mode")) {
      NEED_ARG();
      a = argv[++i];
      if (!strcmp(a, "default")) mode = FENCI_MODE_DEFAULT;
      else if (!strcmp(a, "search")) mode = FENCI_MODE_SEARCH;
      else if (!strcmp(a, "all")) mode = FENCI_MODE_ALL;
      else {
        fprintf(stderr, "fenci cut: unknown mode '%s' (default, search or all)\n", a);
        return 2;
      }
    } else if (!strcmp(a, "-u") || !strcmp(a, "--user-dict")) {
      NEED_ARG();
      if (cfg.ndicts == 64) {
        fprintf(stderr, "fenci cut: too many user dictionaries\n");
        return 2;
      }
      dicts[cfg.ndicts++] = argv[++i];
    } else if (!strcmp(a, "-d") || !strcmp(a, "--delim")) {
      size_t k, o = 0;
      NEED_ARG();
      a = argv[++i];
      for (k = 0; a[k] && o + 1 < sizeof sepbuf; k++) {
        if (a[k] == '\\' && a[k + 1] == 't') { sepbuf[o++] = '\t'; k++; }
        else if (a[k] == '\\' && a[k + 1] == 'n') { sepbuf[o++] = '\n'; k++; }
        else sepbuf[o++] = a[k];
      }
      sepbuf[o] = 0;
      cfg.sep = sepbuf;
    } else if (!strcmp(a, "-f") || !strcmp(a, "--format")) {
      NEED_ARG();
      a = argv[++i];
      if (!strcmp(a, "text")) cfg.format = FMT_TEXT;
      else if (!strcmp(a, "json")) cfg.format = FMT_JSON;
      else if (!strcmp(a, "lines")) cfg.format = FMT_LINES;
      else {
        fprintf(stderr, "fenci cut: unknown format '%s' (text, json or lines)\n", a);
        return 2;
      }
    } else if (!strcmp(a, "-j") || !strcmp(a, "--jobs")) {
      char *end;
      long v;
      NEED_ARG();
      v = strtol(argv[++i], &end, 10);
      if (*end || v < 1 || v > 64) {
        fprintf(stderr, "fenci cut: -j needs a number from 1 to 64\n");
        return 2;
      }
      cfg.jobs = (int)v;
    } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
      cfg.progress = 0;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "fenci cut: unknown option '%s' (try 'fenci cut --help')\n", a);
      return 2;
    } else {
      if (nfiles == 256) {
        fprintf(stderr, "fenci cut: too many files\n");
        return 2;
      }
      files[nfiles++] = a;
    }
#undef NEED_ARG
  }
  cfg.seplen = strlen(cfg.sep);
  cfg.opts |= mode;
  if (!nfiles) files[nfiles++] = "-";

  m = fc_cli_open_model(cfg.model);
  if (!m) return 1;
  if (cfg.ndicts) {
    char err[512];
    if (fenci_dict_new(&dict, m, NULL) != FENCI_OK) {
      fprintf(stderr, "fenci cut: out of memory\n");
      fenci_model_free(m);
      return 1;
    }
    for (i = 0; i < cfg.ndicts; i++) {
      fenci_rc rc = fenci_dict_load(dict, dicts[i], err, sizeof err);
      if (rc != FENCI_OK) {
        fprintf(stderr, "fenci cut: user dictionary: %s\n", err[0] ? err : fenci_rc_str(rc));
        fenci_dict_free(dict);
        fenci_model_free(m);
        return 1;
      }
    }
  }
  if (fenci_tagger_new(&t, m, cfg.opts) != FENCI_OK || fenci_tagger_set_dict(t, dict) != FENCI_OK) {
    fprintf(stderr, "fenci cut: cannot create a tagger\n");
    fenci_tagger_free(t);
    fenci_dict_free(dict);
    fenci_model_free(m);
    return 1;
  }
  memset(&pg, 0, sizeof pg);
  for (i = 0; i < nfiles; i++) {
    struct stat st;
    if (strcmp(files[i], "-") && stat(files[i], &st) == 0 && S_ISREG(st.st_mode)) pg.total += (size_t)st.st_size;
  }
  pg.on = cfg.progress && pg.total > (8u << 20);
  pg.t0 = pg.last = now_s();
  for (i = 0; i < nfiles && status == 0; i++) {
    FILE *f = strcmp(files[i], "-") ? fopen(files[i], "rb") : stdin;
    struct stat st;
    int rc;
    if (!f) {
      fprintf(stderr, "fenci cut: cannot open %s: %s\n", files[i], strerror(errno));
      status = 1;
      break;
    }
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
      fprintf(stderr, "fenci cut: %s is a directory\n", files[i]);
      if (f != stdin) fclose(f);
      status = 1;
      break;
    }
    rc = cut_stream(&cfg, m, dict, t, f, &pg);
    if (f != stdin) fclose(f);
    if (rc) status = 1;
  }
  if (pg.on) fprintf(stderr, "\r%60s\r", "");
  if (fflush(stdout) != 0 && status == 0) {
    fprintf(stderr, "fenci cut: write error: %s\n", strerror(errno));
    status = 1;
  }
  fenci_tagger_free(t);
  fenci_dict_free(dict);
  fenci_model_free(m);
  return status;
}
