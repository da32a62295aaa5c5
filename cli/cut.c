/* cut.c - `fenci cut`: segment files or stdin line by line.
 *
 * Input is read in batches of about CUT_BATCH bytes, cut after the last
 * newline.  With -j N, N worker threads segment batches (one tagger each,
 * all sharing the model) while the main thread reads ahead and writes
 * finished batches strictly in input order.
 *
 * Memory does not grow with the line length: a line longer than a batch is
 * cut, and the batch holding the piece before the cut is "open".  Its
 * tokens ending in the last CUT_KEEP_BACK bytes are not written; the next
 * batch starts with the last CUT_TAIL bytes again and goes on where the
 * written tokens end (after the last whitespace or sentence punctuation
 * among them, where the text before matters least).  So every written token
 * was segmented with at least CUT_KEEP_BACK bytes of the text after it, as
 * inside the library's own chunks (src/seg.c), and since no token is longer
 * than the library's 64 KiB chunk, none reaches back past CUT_TAIL: no token
 * is split at a cut.  The batch continuing a line starts from the previous
 * one's state (byte and character offsets, tokens written), so with -j N it
 * waits for that batch.  Output is handed on whenever OB_FLUSH_AT bytes are
 * buffered, so extra tokens (--all with many nested user words) cannot pile
 * up either. */
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

#define CUT_BATCH (128u << 10) /* input bytes per batch */
#define CUT_KEEP_BACK 4096     /* a cut line's tokens ending this close to the cut are segmented again */
#define CUT_TAIL (65536 + CUT_KEEP_BACK) /* bytes of a cut line that the next batch starts with */
_Static_assert(CUT_BATCH > CUT_TAIL + CUT_KEEP_BACK + 4, "a cut batch must reach past its tail and keep-back");
#define OB_FLUSH_AT (4u << 20) /* output bytes buffered before they are handed on */
#define CUT_MAX_SEP 255        /* bytes of a -d separator */

enum { FMT_TEXT, FMT_JSON, FMT_LINES };

typedef struct cut_cfg {
  const char *model;
  unsigned opts;
  const char *sep;
  size_t seplen;
  int format;
  int jobs;
  int progress; /* 1 on a terminal, 2 forced (--progress), 0 off (-q) */
  int tagging;  /* fenci tag: word/tag in text output */
} cut_cfg;

/* ---------------------------------------------------------------- output */

enum { OB_OK, OB_NOMEM, OB_LOST };

/* An output buffer.  With a flush hook it never holds much more than
 * OB_FLUSH_AT bytes: when full, its bytes are handed on and it starts over. */
typedef struct obuf {
  char *p;
  size_t n, cap;
  int fail;                     /* OB_NOMEM or OB_LOST: later bytes are dropped */
  unsigned long nflush;         /* times the bytes were handed on */
  int (*flush)(struct obuf *b); /* writes p[0..n); 0 or -1; NULL: grow */
  void *ctx;                    /* for flush */
} obuf;

/* Out of room: hand the bytes on (with a flush hook) or grow, then add s. */
static void ob_put_slow(obuf *b, const void *s, size_t n) {
  if (b->fail) return;
  if (b->flush && b->cap >= OB_FLUSH_AT) {
    if (b->flush(b)) {
      b->fail = OB_LOST;
      return;
    }
    b->n = 0;
    b->nflush++;
  }
  if (b->n + n > b->cap) {
    size_t nc = b->cap ? b->cap : 65536;
    char *np;
    while (nc < b->n + n) nc *= 2;
    np = realloc(b->p, nc);
    if (!np) {
      b->fail = OB_NOMEM;
      return;
    }
    b->p = np;
    b->cap = nc;
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
}

/* Small and inlined: the JSON format calls it several times a token.  After
 * a failure bytes may still land in the buffer; they are never written. */
static inline void ob_put(obuf *b, const void *s, size_t n) {
  if (n && n <= b->cap - b->n) {
    memcpy(b->p + b->n, s, n);
    b->n += n;
  } else if (n) {
    ob_put_slow(b, s, n);
  }
}

static void ob_str(obuf *b, const char *s) { ob_put(b, s, strlen(s)); }

static void ob_num(obuf *b, size_t v) {
  char t[24];
  ob_put(b, t, fc_cli_utoa(t, v));
}

static void ob_put_cb(void *b, const char *s, size_t n) { ob_put(b, s, n); }

/* JSON string body (an invalid UTF-8 byte becomes U+FFFD; its offsets
 * still point at the real byte). */
static void ob_json(obuf *b, const char *s, size_t n) { fc_cli_json_body(s, n, ob_put_cb, b); }

static size_t fc_count_chars(const char *s, size_t n) {
  size_t i = 0, c = 0;
  while (i < n) {
    uint32_t cp;
    i += fc_utf8_decode((const uint8_t *)s + i, n - i, &cp);
    c++;
  }
  return c;
}

/* The command whose messages these are: cut, or tag (fc_cmd_tag). */
static const char *cut_cmd = "cut";

static const char *const kind_names[] = {"word", "latin", "number", "url", "email", "punct", "space", "invalid", "other"};

/* What a line cut across batches hands to the batch that continues it. */
typedef struct line_state {
  size_t skip;  /* bytes at the start of the next batch already written */
  size_t off;   /* byte offset in the line of the next batch's first byte */
  size_t coff;  /* character offset in the line of the byte after skip */
  size_t ntok;  /* tokens written on the line so far */
} line_state;

/* The state after a token, for resuming there. */
typedef struct cut_mark {
  int set;
  unsigned long nflush; /* out->nflush then: a flush since makes it unusable */
  size_t outn, ntok, cstart, used;
} cut_mark;

typedef struct line_ctx {
  const cut_cfg *cfg;
  const fenci_model *m;
  obuf *out;
  const char *line;     /* the text handed to fenci_segment */
  size_t off;           /* its byte offset in the whole line */
  size_t ntok;          /* tokens written on this line */
  size_t main_start;    /* byte start of the last main token */
  size_t main_cstart;   /* its char start */
  size_t next_cstart;   /* char offset after the last main token */
  /* a piece of a line that goes on in the next batch: */
  int open;
  size_t keep;          /* main tokens ending after keep are left for the next batch... */
  size_t must;          /* ...once the written ones reach must */
  size_t used;          /* end of the last main token written */
  int stopped;          /* the callback stopped the segmentation there */
  int after_break;      /* that token is whitespace or sentence punctuation */
  cut_mark mark;        /* the state after the last such token */
} line_ctx;

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

/* Whitespace and sentence punctuation: a cut line's next piece resumes
 * after one where it can, where the text before matters least. */
static int cut_is_break(const fenci_token *t, const char *form, size_t len) {
  static const char *const marks[] = {"，", "。", "！", "？", "；", "：", ",", ".", "!", "?", ";", ":"};
  size_t i;
  if (t->kind == FENCI_KIND_SPACE) return 1;
  if (t->kind != FENCI_KIND_PUNCT) return 0;
  for (i = 0; i < sizeof marks / sizeof marks[0]; i++)
    if (strlen(marks[i]) == len && !memcmp(marks[i], form, len)) return 1;
  return 0;
}

/* For a main token of an open piece: 1 when the piece stops before it
 * (the rest is left to the next batch), else 0 after noting where it ends. */
static int cut_limit(line_ctx *c, const fenci_token *t, const char *form, size_t len) {
  if (c->after_break) {
    c->mark.set = 1;
    c->mark.nflush = c->out->nflush;
    c->mark.outn = c->out->n;
    c->mark.ntok = c->ntok;
    c->mark.cstart = c->next_cstart;
    c->mark.used = c->used;
  }
  if (t->end > c->keep && c->used >= c->must) {
    c->stopped = 1;
    return 1;
  }
  c->used = t->end;
  c->after_break = cut_is_break(t, form, len);
  return 0;
}

/* Text format, the common case: separator and token bytes, nothing else. */
static int cut_token_text(void *vctx, const fenci_token *t, const char *form, size_t len) {
  line_ctx *c = vctx;
  obuf *b = c->out;
  size_t sl = c->ntok ? c->cfg->seplen : 0;
  if (c->open && !(t->flags & FENCI_TOK_EXTRA) && cut_limit(c, t, form, len)) return 1;
  if (t->kind == FENCI_KIND_SPACE) return 0;
  if (b->n + sl + len > b->cap) {
    ob_put(b, c->cfg->sep, sl);
    ob_put(b, form, len);
    if (b->fail) return 1;
  } else {
    copy_small(b->p + b->n, c->cfg->sep, sl);
    copy_small(b->p + b->n + sl, form, len);
    b->n += sl + len;
  }
  c->ntok++;
  return 0;
}

/* The other formats (text through cut_token_text). */
static int cut_token(void *vctx, const fenci_token *t, const char *form, size_t len) {
  line_ctx *c = vctx;
  obuf *b = c->out;
  int extra = (t->flags & FENCI_TOK_EXTRA) != 0;
  size_t cs, ce;
  if (c->open && !extra && cut_limit(c, t, form, len)) return 1;
  if (c->cfg->format != FMT_JSON && t->kind == FENCI_KIND_SPACE) return 0;
  switch (c->cfg->format) {
  case FMT_TEXT:
    if (c->ntok) ob_put(b, c->cfg->sep, c->cfg->seplen);
    ob_put(b, form, len);
    if (c->cfg->tagging) {
      ob_put(b, "/", 1);
      ob_str(b, t->tag ? fenci_tag_name(c->m, t->tag) : "x");
    }
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
    ob_num(b, c->off + t->start);
    ob_str(b, ",\"e\":");
    ob_num(b, c->off + t->end);
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
  return b->fail != OB_OK;
}

/* ---------------------------------------------------------------- batches */

typedef struct batch {
  char *in;
  size_t n, cap;
  int cont;    /* in[0] continues a line of the previous batch */
  int open;    /* the last line goes on in the next batch (no newline in the batch) */
  size_t keep; /* open: tokens of it ending after in[keep] may be left to the next batch */
  size_t tail; /* open: the next batch starts with in[n - tail .. n) again */
} batch;

/* Segments every line of b into out.  st: the state of a line that b
 * continues (read) or leaves open (written).  Returns 0, -1 (message
 * printed) or -2 (output lost: a write error, reported by the caller). */
static int cut_batch(const cut_cfg *cfg, fenci_tagger *t, const fenci_model *m, const batch *b, obuf *out,
                     line_state *st) {
  const char *in = b->in;
  size_t n = b->n, p = 0;
  int first = 1;
  while (p < n) {
    const char *nl = memchr(in + p, '\n', n - p);
    size_t e = nl ? (size_t)(nl - in) : n, le = e, start = p;
    int cont = first && b->cont, open = !nl && b->open;
    line_ctx c;
    fenci_rc rc;
    memset(&c, 0, sizeof c);
    c.cfg = cfg;
    c.m = m;
    c.out = out;
    if (cont) {
      start = p + st->skip;
      c.off = st->off + st->skip;
      c.next_cstart = st->coff;
      c.ntok = st->ntok;
    } else if (cfg->format == FMT_JSON) {
      ob_str(out, "{\"tokens\":[");
    }
    if (nl && le > start && in[le - 1] == '\r') le--;
    c.line = in + start;
    if (open) {
      c.open = 1;
      c.keep = b->keep - start;
      c.must = n - b->tail > start ? n - b->tail - start : 0; /* the next batch starts at in[n - tail] */
    }
    rc = fenci_segment(t, in + start, le - start, cfg->format == FMT_TEXT && !cfg->tagging ? cut_token_text : cut_token, &c);
    if (out->fail == OB_LOST) return -2;
    if (out->fail == OB_NOMEM) {
      fprintf(stderr, "fenci %s: out of memory\n", cut_cmd);
      return -1;
    }
    if (rc != FENCI_OK && !(rc == FENCI_STOPPED && c.stopped)) {
      fprintf(stderr, "fenci %s: %s\n", cut_cmd, fenci_tagger_errmsg(t));
      return -1;
    }
    if (open) {
      /* resume after the last break written, when the next batch has it */
      if (c.mark.set && c.mark.used >= c.must && c.mark.nflush == out->nflush) {
        out->n = c.mark.outn;
        c.ntok = c.mark.ntok;
        c.next_cstart = c.mark.cstart;
        c.used = c.mark.used;
      }
      /* an open batch holds one piece of one line (p is 0): the line's
       * offset of in[0] is c.off - start */
      st->skip = start + c.used - (n - b->tail);
      st->off = c.off - start + n - b->tail;
      st->coff = c.next_cstart;
      st->ntok = c.ntok;
      break;
    }
    if (cfg->format == FMT_JSON) ob_str(out, "]}\n");
    else if (cfg->format == FMT_LINES) ob_put(out, "\n", 1);
    else if (nl) ob_put(out, in + le, e + 1 - le); /* keep "\n" or "\r\n" */
    p = nl ? e + 1 : n;
    first = 0;
  }
  if (out->fail) return out->fail == OB_LOST ? -2 : (fprintf(stderr, "fenci %s: out of memory\n", cut_cmd), -1);
  return 0;
}

/* ---------------------------------------------------------------- reading */

typedef struct reader {
  FILE *f;
  char *carry;       /* bytes read but not yet in a batch */
  size_t carry_n;
  int carry_cont;    /* the carry continues a line cut at the end of the last batch */
  int eof;
  int last;          /* the last byte read, -1 before any */
} reader;

/* Fills b with the next batch: whole lines, or, when a line is longer than
 * a batch, a piece of it that ends before a character start (and never
 * right after a '\r', which may belong to a "\r\n").
 * Returns 1 with data, 0 at the end, -1 on a read error. */
static int read_batch(reader *r, batch *b) {
  size_t n, i;
  if (r->eof && r->carry_n == 0) return 0;
  if (!b->in) {
    b->in = malloc(CUT_BATCH);
    if (!b->in) return -1;
    b->cap = CUT_BATCH;
  }
  if (!r->carry) {
    r->carry = malloc(CUT_BATCH);
    if (!r->carry) return -1;
  }
  memcpy(b->in, r->carry, r->carry_n);
  n = r->carry_n;
  b->cont = r->carry_cont;
  b->open = 0;
  b->keep = b->tail = 0;
  r->carry_n = 0;
  r->carry_cont = 0;
  while (!r->eof && n < CUT_BATCH) {
    size_t got = fread(b->in + n, 1, CUT_BATCH - n, r->f);
    if (got == 0) {
      if (ferror(r->f)) return -1;
      r->eof = 1;
    } else {
      r->last = (unsigned char)b->in[n + got - 1];
    }
    n += got;
  }
  if (n == CUT_BATCH) {
    size_t from;
    for (i = n; i > 0 && b->in[i - 1] != '\n'; i--) {}
    if (i > 0) {
      from = i;
    } else {
      /* in[i..n) starts the next batch: i at a character start */
      i = n - 1;
      while (i > n - 4 && ((unsigned char)b->in[i] & 0xC0) == 0x80) i--;
      if (b->in[i - 1] == '\r') i--;
      b->open = 1;
      b->tail = CUT_TAIL;
      b->keep = i - CUT_KEEP_BACK;
      from = i - CUT_TAIL;
      r->carry_cont = 1;
    }
    r->carry_n = n - from;
    memcpy(r->carry, b->in + from, r->carry_n);
    n = i;
  }
  b->n = n;
  return n > 0;
}

/* ---------------------------------------------------------------- workers */

enum { SLOT_FREE, SLOT_FILLED, SLOT_PARTIAL, SLOT_DONE, SLOT_FAILED };

typedef struct pool pool;

typedef struct slot {
  pool *p;
  batch b;
  obuf out;
  int state; /* SLOT_*; PARTIAL: out is full, its worker waits for the writer */
} slot;

/* The state a batch that ends inside a line leaves for batch seq. */
typedef struct cont_box {
  line_state st;
  size_t seq; /* the batch it is for; (size_t)-1: none yet */
} cont_box;

struct pool {
  const cut_cfg *cfg;
  const fenci_model *m;
  fenci_dict *dict;
  slot *slots;
  size_t nslots;
  /* conts[q % (nslots + 1)] is for batch q, filled in by batch q - 1.  The
   * box is next written by batch q + nslots, which is read only once batch
   * q has been written: by then batch q has taken its state out.  (With
   * nslots boxes, batch q + nslots - 1 could overwrite it too early.) */
  cont_box *conts;
  size_t next_take;   /* next sequence number a worker takes */
  size_t filled;      /* sequence numbers filled so far */
  int done_reading;
  int abort;          /* the writer gave up: waiting workers leave */
  pthread_mutex_t mu;
  pthread_cond_t cv;
};

/* A worker's full output buffer: handed to the writer, which writes it when
 * the batch's turn comes and lets the worker go on. */
static int pool_flush(obuf *b) {
  slot *s = b->ctx;
  pool *p = s->p;
  int lost;
  pthread_mutex_lock(&p->mu);
  s->state = SLOT_PARTIAL;
  pthread_cond_broadcast(&p->cv);
  while (s->state == SLOT_PARTIAL && !p->abort) pthread_cond_wait(&p->cv, &p->mu);
  lost = p->abort;
  pthread_mutex_unlock(&p->mu);
  return lost ? -1 : 0;
}

static void *worker(void *arg) {
  pool *p = arg;
  fenci_tagger *t = NULL;
  if (fenci_tagger_new(&t, p->m, p->cfg->opts) != FENCI_OK || fenci_tagger_set_dict(t, p->dict) != FENCI_OK) {
    fprintf(stderr, "fenci %s: cannot create a tagger\n", cut_cmd);
    fenci_tagger_free(t);
    t = NULL;
  }
  pthread_mutex_lock(&p->mu);
  for (;;) {
    slot *s;
    size_t seq;
    line_state st;
    int ok;
    while (p->next_take >= p->filled && !p->done_reading && !p->abort) pthread_cond_wait(&p->cv, &p->mu);
    if (p->abort || p->next_take >= p->filled) break;
    seq = p->next_take++;
    s = &p->slots[seq % p->nslots];
    if (s->b.cont) {
      /* the line goes on from the batch before: wait for its state */
      cont_box *box = &p->conts[seq % (p->nslots + 1)];
      while (box->seq != seq && !p->abort) pthread_cond_wait(&p->cv, &p->mu);
      if (p->abort) break;
      st = box->st;
    }
    pthread_mutex_unlock(&p->mu);
    s->out.n = 0;
    ok = t && cut_batch(p->cfg, t, p->m, &s->b, &s->out, &st) == 0;
    pthread_mutex_lock(&p->mu);
    if (s->b.open) {
      cont_box *box = &p->conts[(seq + 1) % (p->nslots + 1)];
      box->st = st; /* even after a failure: the writer stops at it */
      box->seq = seq + 1;
    }
    s->state = ok ? SLOT_DONE : SLOT_FAILED;
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

static int stdout_flush(obuf *b) { return fwrite(b->p, 1, b->n, stdout) == b->n ? 0 : -1; }

/* One thread: read, segment, write.  Returns 0, -1 (message printed), -2
 * (write error) or -3 (read error; *rerr holds errno). */
static int cut_serial(const cut_cfg *cfg, const fenci_model *m, fenci_tagger *t, reader *r, progress *pg, int *rerr) {
  batch b;
  obuf out;
  line_state st;
  int rc = 0;
  memset(&b, 0, sizeof b);
  memset(&out, 0, sizeof out);
  memset(&st, 0, sizeof st);
  out.flush = stdout_flush;
  for (;;) {
    int k = read_batch(r, &b);
    if (k < 0) {
      *rerr = errno ? errno : EIO;
      rc = -3;
      break;
    }
    if (k == 0) break;
    out.n = 0;
    rc = cut_batch(cfg, t, m, &b, &out, &st);
    if (rc) break;
    if (fwrite(out.p, 1, out.n, stdout) != out.n) {
      rc = -2;
      break;
    }
    progress_tick(pg, b.n - b.tail);
  }
  free(b.in);
  free(out.p);
  return rc;
}

/* cfg->jobs threads segment while this one reads and writes.  Returns as
 * cut_serial; after a read error, what was read before it is written. */
static int cut_parallel(const cut_cfg *cfg, const fenci_model *m, fenci_dict *dict, reader *r, progress *pg,
                        int *rerr) {
  pool p;
  pthread_t th[64];
  int nth = cfg->jobs > 64 ? 64 : cfg->jobs, i, started = 0, rc = 0;
  size_t written = 0, k;
  memset(&p, 0, sizeof p);
  p.cfg = cfg;
  p.m = m;
  p.dict = dict;
  /* two batches a thread keep every thread busy while one is written */
  p.nslots = 2 * (size_t)nth;
  p.slots = calloc(p.nslots, sizeof *p.slots);
  p.conts = calloc(p.nslots + 1, sizeof *p.conts);
  if (!p.slots || !p.conts) {
    fprintf(stderr, "fenci %s: out of memory\n", cut_cmd);
    free(p.slots);
    free(p.conts);
    return -1;
  }
  for (k = 0; k <= p.nslots; k++) p.conts[k].seq = (size_t)-1;
  for (k = 0; k < p.nslots; k++) {
    p.slots[k].p = &p;
    p.slots[k].out.flush = pool_flush;
    p.slots[k].out.ctx = &p.slots[k];
  }
  pthread_mutex_init(&p.mu, NULL);
  pthread_cond_init(&p.cv, NULL);
  for (i = 0; i < nth; i++)
    if (pthread_create(&th[started], NULL, worker, &p) == 0) started++;
  if (!started) {
    fprintf(stderr, "fenci %s: cannot start threads\n", cut_cmd);
    rc = -1;
  }
  while (rc == 0) {
    slot *s;
    int got;
    pthread_mutex_lock(&p.mu);
    /* write finished batches strictly in order, and the next one's full
     * buffer when it has one */
    while (written < p.filled) {
      slot *w = &p.slots[written % p.nslots];
      int state = w->state;
      if (state == SLOT_PARTIAL) {
        pthread_mutex_unlock(&p.mu);
        if (fwrite(w->out.p, 1, w->out.n, stdout) != w->out.n) rc = -2;
        pthread_mutex_lock(&p.mu);
        w->state = SLOT_FILLED;
        pthread_cond_broadcast(&p.cv);
        break;
      }
      if (state != SLOT_DONE && state != SLOT_FAILED) break;
      pthread_mutex_unlock(&p.mu);
      if (state == SLOT_FAILED) rc = -1;
      else if (fwrite(w->out.p, 1, w->out.n, stdout) != w->out.n) rc = -2;
      progress_tick(pg, w->b.n - w->b.tail);
      pthread_mutex_lock(&p.mu);
      w->state = SLOT_FREE;
      written++;
      if (rc) break;
    }
    if (rc || (p.done_reading && written == p.filled)) {
      pthread_mutex_unlock(&p.mu);
      break;
    }
    if (p.done_reading || p.filled - written >= p.nslots) {
      pthread_cond_wait(&p.cv, &p.mu);
      pthread_mutex_unlock(&p.mu);
      continue;
    }
    s = &p.slots[p.filled % p.nslots];
    pthread_mutex_unlock(&p.mu);
    got = read_batch(r, &s->b);
    if (got < 0) *rerr = errno ? errno : EIO;
    pthread_mutex_lock(&p.mu);
    if (got > 0) {
      s->state = SLOT_FILLED;
      p.filled++;
    } else {
      p.done_reading = 1;
    }
    pthread_cond_broadcast(&p.cv);
    pthread_mutex_unlock(&p.mu);
  }
  pthread_mutex_lock(&p.mu);
  p.done_reading = 1;
  if (rc) p.abort = 1;
  pthread_cond_broadcast(&p.cv);
  pthread_mutex_unlock(&p.mu);
  for (i = 0; i < started; i++) pthread_join(th[i], NULL);
  for (k = 0; k < p.nslots; k++) {
    free(p.slots[k].b.in);
    free(p.slots[k].out.p);
  }
  free(p.slots);
  free(p.conts);
  pthread_mutex_destroy(&p.mu);
  pthread_cond_destroy(&p.cv);
  return rc ? rc : *rerr ? -3 : 0;
}

/* Segments one input stream to stdout.  *pending_nl: the text output of
 * the stream before ended inside a line, which gets its newline here if
 * this stream has any text, so lines of two files never share an output
 * line.  Returns 0, 1 after a read error (the next file may still be read)
 * or 2 after an error that ends the command (message printed for all). */
static int cut_stream(const cut_cfg *cfg, const fenci_model *m, fenci_dict *dict, fenci_tagger *t1, FILE *f,
                      const char *name, progress *pg, int *pending_nl) {
  reader r;
  int rc = 0, rerr = 0;
  memset(&r, 0, sizeof r);
  r.f = f;
  r.last = -1;
  if (*pending_nl) {
    int ch = getc(f);
    if (ch != EOF) {
      ungetc(ch, f);
      if (putchar('\n') == EOF) rc = -2;
      *pending_nl = 0;
    }
  }
  if (rc == 0) rc = cfg->jobs <= 1 ? cut_serial(cfg, m, t1, &r, pg, &rerr) : cut_parallel(cfg, m, dict, &r, pg, &rerr);
  free(r.carry);
  if ((rc == 0 || rc == -3) && cfg->format == FMT_TEXT && r.last != -1 && r.last != '\n') *pending_nl = 1;
  if (rc == -3) {
    fprintf(stderr, "fenci %s: error reading %s: %s\n", cut_cmd, name, strerror(rerr));
    return 1;
  }
  if (rc == -2) fprintf(stderr, "fenci %s: write error: %s\n", cut_cmd, strerror(errno));
  return rc ? 2 : 0;
}

static void cut_usage(FILE *f) {
  fprintf(f,
          "usage: fenci cut [options] [FILE...]\n"
          "Segments each FILE (or stdin, or '-') line by line and writes the words.\n"
          "Lines may be of any length.  A missing or unreadable FILE is reported and\n"
          "skipped (exit status 1).  Text output keeps each input line on its own output\n"
          "line: a FILE whose last line has no newline gets one when more output follows.\n"
          "\n"
          "  -m, --model NAME|PATH  model to use (default: %s); a PATH contains '/'; a NAME\n"
          "                         (with or without .fenci) is looked up as NAME.fenci in\n"
          "                         $FENCI_MODEL_DIR, models/ next to fenci, then the\n"
          "                         installed share/fenci\n"
          "      --fast             lexicon mode, even when the model has trained weights\n"
          "      --mode MODE        default | search (also words inside long words) |\n"
          "                         all (every lexicon word); --search and --all are short forms\n"
          "  -u, --user-dict FILE   add user words (\"word [freq [tag]]\" lines; no freq = always\n"
          "                         one token; a tag must be one of the model's); may be repeated\n"
          "  -d, --delim SEP        word separator in text output (default: one space;\n"
          "                         \\t is a tab, \\n a newline; at most %d bytes)\n"
          "  -f, --format FMT       text (default; whitespace tokens dropped) | json (one object\n"
          "                         per line with every token, byte and character offsets) |\n"
          "                         lines (one token a line, a blank line after each input line)\n"
          "  -j, --jobs N           N threads, 1 to 64 (output order is kept)\n"
          "  -q, --quiet            no progress indicator (shown on a terminal for over 8 MB)\n"
          "      --progress         the progress indicator even when stderr is no terminal\n"
          "  -h, --help             this help\n"
          "Option values may also be attached: -j2, -fjson, --jobs=2, --format=json.\n",
          FENCI_DEFAULT_MODEL, CUT_MAX_SEP);
}

/* Names of the model's tags, space-separated, into buf (for a message). */
static void cut_tag_list(const fenci_model *m, char *buf, size_t n) {
  size_t o = 0;
  unsigned id;
  buf[0] = 0;
  for (id = 1; id <= 0xFFFF && o < n; id++) {
    const char *name = fenci_tag_name(m, (uint16_t)id);
    if (!*name) break;
    o += (size_t)snprintf(buf + o, n - o, "%s%s", id > 1 ? " " : "", name);
  }
}

/* Loads the user dictionaries into *out (NULL when there are none). */
static int cut_load_dicts(const fenci_model *m, const char *const *paths, int n, fenci_dict **out) {
  fenci_dict *d = NULL;
  int i;
  *out = NULL;
  if (!n) return 0;
  if (fenci_dict_new(&d, m, NULL) != FENCI_OK) {
    fprintf(stderr, "fenci %s: out of memory\n", cut_cmd);
    return -1;
  }
  for (i = 0; i < n; i++) {
    char err[512];
    fenci_rc rc;
    err[0] = 0;
    /* bounded reads (a pipe or /dev/zero too); a tag the model does not
     * know is an error naming the line */
    rc = fenci_dict_load(d, paths[i], err, sizeof err);
    if (rc != FENCI_OK) {
      char tags[2048];
      /* the library's message names the file and the line */
      if (err[0]) fprintf(stderr, "fenci %s: user dictionary %s\n", cut_cmd, err);
      else fprintf(stderr, "fenci %s: user dictionary %s: %s\n", cut_cmd, paths[i], fenci_rc_str(rc));
      if (strstr(err, "has no tag")) {
        cut_tag_list(m, tags, sizeof tags);
        fprintf(stderr, "fenci %s: %s%s\n", cut_cmd, tags[0] ? "the model's tags: " : "the model has no tags", tags);
      }
      fenci_dict_free(d);
      return -1;
    }
  }
  *out = d;
  return 0;
}

/* fenci tag: fenci cut with part-of-speech tags in context. */
static int cut_tagging;

int fc_cmd_tag(int argc, char **argv) {
  int i;
  for (i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--")) break;
    /* --words, and the help, which describes both */
    if (!strcmp(argv[i], "--words") || !strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
      return fc_cmd_tag_words(argc, argv);
  }
  cut_tagging = 1;
  cut_cmd = "tag";
  return fc_cmd_cut(argc, argv);
}

int fc_cmd_cut(int argc, char **argv) {
  cut_cfg cfg;
  const char *files[256];
  const char *dicts[64];
  int nfiles = 0, ndicts = 0, i, status = 0, pending_nl = 0;
  unsigned mode = FENCI_MODE_DEFAULT;
  fenci_model *m;
  fenci_dict *dict = NULL;
  fenci_tagger *t = NULL;
  progress pg;
  char sepbuf[CUT_MAX_SEP + 1];
  fc_opts o;

  memset(&cfg, 0, sizeof cfg);
  cfg.tagging = cut_tagging;
  cfg.sep = " ";
  cfg.jobs = 1;
  cfg.progress = isatty(2);
  fc_opts_init(&o, cut_cmd, argc, argv);
  while (fc_opts_next(&o)) {
    const char *v;
    if (!o.is_opt) {
      if (nfiles == 256) {
        fprintf(stderr, "fenci %s: too many files\n", cut_cmd);
        return 2;
      }
      files[nfiles++] = o.arg;
    } else if (fc_opt_flag(&o, 'h', "help")) {
      cut_usage(stdout);
      return 0;
    } else if (fc_opt_value(&o, 'm', "model")) {
      cfg.model = o.val;
    } else if (fc_opt_flag(&o, 0, "fast")) {
      cfg.opts |= FENCI_OPT_FAST;
    } else if (fc_opt_flag(&o, 0, "search")) {
      mode = FENCI_MODE_SEARCH;
    } else if (fc_opt_flag(&o, 0, "all")) {
      mode = FENCI_MODE_ALL;
    } else if (fc_opt_value(&o, 0, "mode")) {
      v = o.val;
      if (!strcmp(v, "default")) mode = FENCI_MODE_DEFAULT;
      else if (!strcmp(v, "search")) mode = FENCI_MODE_SEARCH;
      else if (!strcmp(v, "all")) mode = FENCI_MODE_ALL;
      else {
        fprintf(stderr, "fenci %s: unknown mode '%s' (default, search or all)\n", cut_cmd, v);
        return 2;
      }
    } else if (fc_opt_value(&o, 'u', "user-dict")) {
      if (ndicts == 64) {
        fprintf(stderr, "fenci %s: too many user dictionaries\n", cut_cmd);
        return 2;
      }
      dicts[ndicts++] = o.val;
    } else if (fc_opt_value(&o, 'd', "delim")) {
      size_t k, n = 0;
      v = o.val;
      for (k = 0; v[k]; k++) {
        if (n == CUT_MAX_SEP) {
          fprintf(stderr, "fenci %s: -d: the separator is longer than %d bytes\n", cut_cmd, CUT_MAX_SEP);
          return 2;
        }
        if (v[k] == '\\' && v[k + 1] == 't') {
          sepbuf[n++] = '\t';
          k++;
        } else if (v[k] == '\\' && v[k + 1] == 'n') {
          sepbuf[n++] = '\n';
          k++;
        } else {
          sepbuf[n++] = v[k];
        }
      }
      sepbuf[n] = 0;
      cfg.sep = sepbuf;
    } else if (fc_opt_value(&o, 'f', "format")) {
      v = o.val;
      if (!strcmp(v, "text")) cfg.format = FMT_TEXT;
      else if (!strcmp(v, "json")) cfg.format = FMT_JSON;
      else if (!strcmp(v, "lines")) cfg.format = FMT_LINES;
      else {
        fprintf(stderr, "fenci %s: unknown format '%s' (text, json or lines)\n", cut_cmd, v);
        return 2;
      }
    } else if (fc_opt_value(&o, 'j', "jobs")) {
      if (!fc_opt_jobs(&o, &cfg.jobs)) return 2;
    } else if (fc_opt_flag(&o, 'q', "quiet")) {
      cfg.progress = 0;
    } else if (fc_opt_flag(&o, 0, "progress")) {
      cfg.progress = 2;
    } else {
      return fc_opt_unknown(&o);
    }
  }
  cfg.seplen = strlen(cfg.sep);
  cfg.opts |= mode;
  if (cfg.tagging) cfg.opts |= FENCI_OPT_POS;
  /* text and lines print neither tags nor flags (fenci tag prints the tags
   * in context, which FENCI_OPT_BARE keeps) */
  if (cfg.format != FMT_JSON) cfg.opts |= FENCI_OPT_BARE;
  if (!nfiles) files[nfiles++] = "-";

  m = fc_cli_open_model(cfg.model);
  if (!m) return 1;
  if (cut_load_dicts(m, dicts, ndicts, &dict)) {
    fenci_model_free(m);
    return 1;
  }
  if ((cfg.opts & FENCI_OPT_POS) && !fenci_model_has_pos(m)) {
    fprintf(stderr, "fenci tag: the model has no part-of-speech tagger (its lexicon file has no POSM section)\n");
    fenci_dict_free(dict);
    fenci_model_free(m);
    return 1;
  }
  if (fenci_tagger_new(&t, m, cfg.opts) != FENCI_OK || fenci_tagger_set_dict(t, dict) != FENCI_OK) {
    fprintf(stderr, "fenci %s: cannot create a tagger\n", cut_cmd);
    fenci_tagger_free(t);
    fenci_dict_free(dict);
    fenci_model_free(m);
    return 1;
  }
  memset(&pg, 0, sizeof pg);
  for (i = 0; i < nfiles; i++) {
    /* the total for the percentage: regular files, stdin too (from where it stands) */
    struct stat st;
    if (strcmp(files[i], "-")) {
      if (stat(files[i], &st) == 0 && S_ISREG(st.st_mode)) pg.total += (size_t)st.st_size;
    } else if (fstat(0, &st) == 0 && S_ISREG(st.st_mode)) {
      off_t at = lseek(0, 0, SEEK_CUR);
      if (at >= 0 && at <= st.st_size) pg.total += (size_t)(st.st_size - at);
    }
  }
  pg.on = cfg.progress == 2 || (cfg.progress && pg.total > (8u << 20));
  pg.t0 = pg.last = now_s();
  for (i = 0; i < nfiles && status < 2; i++) {
    FILE *f = strcmp(files[i], "-") ? fopen(files[i], "rb") : stdin;
    const char *name = f == stdin ? "standard input" : files[i];
    struct stat st;
    int rc;
    if (!f) {
      fprintf(stderr, "fenci %s: cannot open %s: %s\n", cut_cmd, files[i], strerror(errno));
      status = 1;
      continue;
    }
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
      fprintf(stderr, "fenci %s: %s is a directory\n", cut_cmd, name);
      if (f != stdin) fclose(f);
      status = 1;
      continue;
    }
    rc = cut_stream(&cfg, m, dict, t, f, name, &pg, &pending_nl);
    if (f != stdin) fclose(f);
    if (rc > status) status = rc;
  }
  if (pg.on) fprintf(stderr, "\r%60s\r", "");
  if (status < 2 && fflush(stdout) != 0) {
    fprintf(stderr, "fenci %s: write error: %s\n", cut_cmd, strerror(errno));
    status = 2;
  }
  fenci_tagger_free(t);
  fenci_dict_free(dict);
  fenci_model_free(m);
  return status ? 1 : 0;
}
