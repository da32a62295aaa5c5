/* keywords.c - keyword extraction: TF-IDF and TextRank over the tokens of
 * one document (jieba.analyse's methods; the rules are in fenci.h), and
 * the caller's word lists (fenci_kwdict).
 *
 * Tokens stream in from fenci_segment (or the caller's array) and are
 * never stored: each distinct word gets one entry in a hash table keyed by
 * its bytes in the caller's text, which caches whether it can be a keyword
 * (stop word, length, kind) and its IDF, so the folding and lookups run
 * once per distinct word, not per token.  TextRank keeps the last window - 1
 * token positions in a ring and counts co-occurring pairs in a second hash
 * table; the graph is built from the pairs at the end. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "chars.h"
#include "keywords.h"
#include "kwtable.h"
#include "lexicon.h"
#include "model.h"

#define FC_KW_MAX_WINDOW 1024 /* a larger TextRank window is refused */
/* Memory stays bounded whatever the document: at most this many distinct
 * words (about 45 MB) and co-occurring pairs (about 50 MB) are kept.  Past
 * them a new word or pair is not counted (the words and pairs already kept
 * still are): only documents of more distinct words than a language has
 * (random text) reach them. */
#define FC_KW_MAX_WORDS ((size_t)1 << 19)
#define FC_KW_MAX_PAIRS ((size_t)1 << 21)
#define FC_KW_NONE 0xFFFFFFFFu

static uint32_t fc_kw_hash(const uint8_t *s, size_t n, uint32_t seed) {
  uint64_t h = 0xcbf29ce484222325ull ^ seed;
  size_t i;
  for (i = 0; i < n; i++) h = (h ^ s[i]) * 0x100000001b3ull;
  return (uint32_t)(h ^ (h >> 32));
}

/* ------------------------------------------------------------ kwdict */

/* A set of folded words with a value each, over bytes it owns. */
typedef struct fc_kwset_ent {
  uint32_t off, len; /* key bytes in the set's buffer */
  uint32_t hash;
  float val;
} fc_kwset_ent;

typedef struct fc_kwset {
  fc_buf bytes;
  fc_kwset_ent *e;
  size_t n, cap;
  uint32_t *slot; /* entry index + 1, 0 = empty; nslot a power of two */
  size_t nslot;
} fc_kwset;

struct fenci_kwdict {
  fenci_alloc a;
  fc_kwset stop;     /* stop words (values unused) */
  fc_kwset idf;      /* IDF values */
  double idf_median; /* median of idf's values */
};

static void fc_kwset_free(fc_kwset *s, const fenci_alloc *a) {
  fc_buf_free(&s->bytes);
  fc_free(a, s->e);
  fc_free(a, s->slot);
}

static size_t fc_kwset_find(const fc_kwset *s, const uint8_t *k, size_t n, uint32_t h) {
  size_t i;
  if (!s->nslot) return FC_KW_NONE;
  for (i = h & (s->nslot - 1);; i = (i + 1) & (s->nslot - 1)) {
    uint32_t v = s->slot[i];
    const fc_kwset_ent *e;
    if (!v) return FC_KW_NONE;
    e = &s->e[v - 1];
    if (e->hash == h && e->len == n && !memcmp(s->bytes.data + e->off, k, n)) return v - 1;
  }
}

/* Sets key k (folded) to val, adding it when new.  0 or -1 (no memory). */
static int fc_kwset_put(fc_kwset *s, const fenci_alloc *a, const uint8_t *k, size_t n, float val) {
  uint32_t h = fc_kw_hash(k, n, 0);
  size_t i = fc_kwset_find(s, k, n, h);
  if (i != FC_KW_NONE) {
    s->e[i].val = val;
    return 0;
  }
  if ((s->n + 1) * 2 > s->nslot) {
    size_t ns = s->nslot ? s->nslot * 2 : 64, j;
    uint32_t *sl = fc_calloc(a, ns, sizeof *sl);
    if (!sl) return -1;
    for (j = 0; j < s->n; j++) {
      size_t p = s->e[j].hash & (ns - 1);
      while (sl[p]) p = (p + 1) & (ns - 1);
      sl[p] = (uint32_t)j + 1;
    }
    fc_free(a, s->slot);
    s->slot = sl;
    s->nslot = ns;
  }
  if (s->n >= UINT32_MAX / 2 || s->bytes.len > UINT32_MAX - n) return -1;
  if (fc_grow(a, (void **)&s->e, &s->cap, s->n + 1, sizeof *s->e)) return -1;
  s->e[s->n].off = (uint32_t)s->bytes.len;
  s->e[s->n].len = (uint32_t)n;
  s->e[s->n].hash = h;
  s->e[s->n].val = val;
  if (fc_buf_put(&s->bytes, k, n)) return -1;
  for (i = h & (s->nslot - 1); s->slot[i]; i = (i + 1) & (s->nslot - 1)) {
  }
  s->slot[i] = (uint32_t)s->n + 1;
  s->n++;
  return 0;
}

fenci_rc fenci_kwdict_new(fenci_kwdict **out, const fenci_alloc *a) {
  fenci_alloc ra = fc_alloc_resolve(a);
  fenci_kwdict *d;
  if (!out) return FENCI_BADARG;
  *out = NULL;
  d = fc_calloc(&ra, 1, sizeof *d);
  if (!d) return FENCI_NOMEM;
  d->a = ra;
  fc_buf_init(&d->stop.bytes, &d->a);
  fc_buf_init(&d->idf.bytes, &d->a);
  *out = d;
  return FENCI_OK;
}

void fenci_kwdict_free(fenci_kwdict *d) {
  fenci_alloc a;
  if (!d) return;
  a = d->a;
  fc_kwset_free(&d->stop, &a);
  fc_kwset_free(&d->idf, &a);
  fc_free(&a, d);
}

/* 1 when s[0..n) is valid UTF-8. */
static int fc_kw_valid(const uint8_t *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    uint32_t cp;
    i += fc_utf8_decode(s + i, n - i, &cp);
    if (cp == FC_BADCP) return 0;
  }
  return 1;
}

fenci_rc fenci_kwdict_add_stop(fenci_kwdict *d, const char *word, size_t len) {
  uint8_t key[4 * FC_KW_MAX_WORD + 4];
  size_t kn;
  if (!d || !word || !fc_kw_valid((const uint8_t *)word, len)) return FENCI_BADARG;
  kn = fc_kw_fold((const uint8_t *)word, len, 1, key, sizeof key);
  if (!kn) return FENCI_BADARG;
  return fc_kwset_put(&d->stop, &d->a, key, kn, 0) ? FENCI_NOMEM : FENCI_OK;
}

fenci_rc fenci_kwdict_load_stop(fenci_kwdict *d, const char *text, size_t len, char *err, size_t errlen) {
  size_t pos = 0, no = 0, n, pass;
  const uint8_t *line;
  if (err && errlen) err[0] = 0;
  if (!d || (!text && len)) return FENCI_BADARG;
  /* pass 0 checks every line, pass 1 adds: a bad line adds nothing */
  for (pass = 0; pass < 2; pass++) {
    pos = no = 0;
    while (fc_kw_line(text, len, &pos, &no, &line, &n)) {
      uint8_t key[4 * FC_KW_MAX_WORD + 4];
      size_t kn;
      if (!n) continue;
      kn = fc_kw_valid(line, n) ? fc_kw_fold(line, n, 1, key, sizeof key) : 0;
      if (!kn) {
        fc_errf(err, errlen, "stop words line %zu: %s", no,
                fc_kw_valid(line, n) ? "word over 255 bytes" : "invalid UTF-8");
        return FENCI_BADFORMAT;
      }
      if (pass && fc_kwset_put(&d->stop, &d->a, key, kn, 0)) {
        fc_errf(err, errlen, "out of memory");
        return FENCI_NOMEM;
      }
    }
  }
  return FENCI_OK;
}

static int fc_kw_cmp_float(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return x < y ? -1 : x > y;
}

/* A decimal number "12", "3.5", ".5", "1e-3" in s[0..n): 1 and *v, or 0.
 * Not strtod, whose decimal point follows the host's locale. */
static int fc_kw_number(const uint8_t *s, size_t n, double *v) {
  size_t i = 0;
  double x = 0, f = 0.1;
  int digits = 0, e = 0, es = 1, ed = 0;
  if (i < n && s[i] == '+') i++;
  for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++) x = x * 10 + (s[i] - '0');
  if (i < n && s[i] == '.')
    for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++, f /= 10) x += (s[i] - '0') * f;
  if (!digits) return 0;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    if (i < n && (s[i] == '+' || s[i] == '-')) es = s[i++] == '-' ? -1 : 1;
    for (; i < n && s[i] >= '0' && s[i] <= '9' && e < 1000; i++, ed++) e = e * 10 + (s[i] - '0');
    if (!ed) return 0;
  }
  if (i != n) return 0;
  *v = x * pow(10.0, es * e);
  return 1;
}

/* Parses "word idf" (two fields); 1 on success. */
static int fc_kw_idf_line(const uint8_t *line, size_t n, const uint8_t **w, size_t *wn, double *v) {
  size_t i = 0, j;
  while (i < n && line[i] != ' ' && line[i] != '\t') i++;
  *w = line;
  *wn = i;
  while (i < n && (line[i] == ' ' || line[i] == '\t')) i++;
  j = i;
  while (j < n && line[j] != ' ' && line[j] != '\t') j++;
  if (!*wn || j == i || j != n) return 0;
  return fc_kw_number(line + i, j - i, v) && isfinite(*v) && *v >= 0 && *v < 1e9;
}

fenci_rc fenci_kwdict_load_idf(fenci_kwdict *d, const char *text, size_t len, char *err, size_t errlen) {
  size_t pos, no, n, pass, i;
  const uint8_t *line;
  float *vals;
  if (err && errlen) err[0] = 0;
  if (!d || (!text && len)) return FENCI_BADARG;
  for (pass = 0; pass < 2; pass++) {
    pos = no = 0;
    while (fc_kw_line(text, len, &pos, &no, &line, &n)) {
      uint8_t key[4 * FC_KW_MAX_WORD + 4];
      const uint8_t *w;
      size_t wn, kn = 0;
      double v;
      if (!n) continue;
      if (!fc_kw_idf_line(line, n, &w, &wn, &v)) {
        fc_errf(err, errlen, "IDF line %zu: want \"word idf\" (a number >= 0)", no);
        return FENCI_BADFORMAT;
      }
      if (fc_kw_valid(w, wn)) kn = fc_kw_fold(w, wn, 0, key, sizeof key);
      if (!kn) {
        fc_errf(err, errlen, "IDF line %zu: invalid UTF-8 or a word over 255 bytes", no);
        return FENCI_BADFORMAT;
      }
      if (pass && fc_kwset_put(&d->idf, &d->a, key, kn, (float)v)) {
        fc_errf(err, errlen, "out of memory");
        return FENCI_NOMEM;
      }
    }
  }
  /* jieba's median: the middle of the sorted values */
  d->idf_median = 0;
  if (d->idf.n) {
    vals = fc_malloc(&d->a, d->idf.n * sizeof *vals);
    if (!vals) {
      fc_errf(err, errlen, "out of memory");
      return FENCI_NOMEM;
    }
    for (i = 0; i < d->idf.n; i++) vals[i] = d->idf.e[i].val;
    qsort(vals, d->idf.n, sizeof *vals, fc_kw_cmp_float);
    d->idf_median = vals[d->idf.n / 2];
    fc_free(&d->a, vals);
  }
  return FENCI_OK;
}

/* ------------------------------------------------------- accumulation */

/* One distinct word of the document (with FENCI_KW_BY_TAG: word and tag). */
typedef struct fc_kw_word {
  size_t start;     /* its bytes: text[start .. start + len) (the first time seen) */
  uint32_t len;
  uint32_t hash;
  uint16_t tag;     /* the key's tag (FENCI_KW_BY_TAG) */
  uint8_t ok;       /* 1: can be a keyword; 0: stop word or too short */
  size_t count;     /* candidate occurrences */
  size_t first;     /* main-token position of the first counted one */
  size_t cstart, cend; /* its bytes */
  uint16_t ctag, ckind; /* its tag and kind */
  double idf;
  uint32_t deg;     /* TextRank: adjacency list start (after the build) */
} fc_kw_word;

typedef struct fc_kw_pair {
  uint32_t a, b; /* word indexes, a <= b */
  uint32_t hash;
  uint32_t w;    /* co-occurrences */
} fc_kw_pair;

typedef struct fc_kwacc {
  const fenci_model *m;
  const fenci_alloc *al;
  const char *text;
  size_t len;
  const fenci_kw_opts *o;
  const fenci_kwdict *d;
  unsigned kinds;         /* bit per allowed FENCI_KIND_* */
  uint8_t *tag_ok;        /* n_names + 1 flags (every tag id), or NULL: every tag */
  int use_stop;           /* the model's stop list */
  int idf_src;            /* 1: dict, 2: model */
  fc_kw_word *w;
  size_t nw, capw;
  uint32_t *slot;         /* word index + 1 */
  size_t nslot;
  size_t pos;             /* main tokens seen */
  size_t total;           /* candidate tokens counted */
  /* TextRank */
  unsigned window;
  uint32_t *ring;         /* window - 1 slots: word at position p in ring[p % (window - 1)] */
  size_t *ring_pos;
  fc_kw_pair *p;
  size_t np, capp;
  uint32_t *pslot;
  size_t npslot;
  int nomem;
} fc_kwacc;

static int fc_kw_rehash_words(fc_kwacc *c) {
  size_t ns = c->nslot ? c->nslot * 2 : 256, j;
  uint32_t *sl = fc_calloc(c->al, ns, sizeof *sl);
  if (!sl) return -1;
  for (j = 0; j < c->nw; j++) {
    size_t q = c->w[j].hash & (ns - 1);
    while (sl[q]) q = (q + 1) & (ns - 1);
    sl[q] = (uint32_t)j + 1;
  }
  fc_free(c->al, c->slot);
  c->slot = sl;
  c->nslot = ns;
  return 0;
}

/* Whether the word can be a keyword, and its IDF: once per distinct word. */
static void fc_kw_judge(fc_kwacc *c, fc_kw_word *e) {
  const uint8_t *s = (const uint8_t *)c->text + e->start;
  uint8_t key[4 * FC_KW_MAX_WORD + 4];
  size_t kn = fc_kw_fold(s, e->len, 1, key, sizeof key);
  uint32_t wi;
  e->ok = 1;
  if (kn) {
    uint32_t h = fc_kw_hash(key, kn, 0);
    if ((c->use_stop && fc_kwtable_is_stop(&c->m->kw, key, kn)) ||
        (c->d && fc_kwset_find(&c->d->stop, key, kn, h) != FC_KW_NONE)) {
      e->ok = 0;
      return;
    }
  }
  e->idf = 1;
  if (c->idf_src == 1) {
    size_t i = FC_KW_NONE;
    kn = fc_kw_fold(s, e->len, 0, key, sizeof key);
    if (kn) i = fc_kwset_find(&c->d->idf, key, kn, fc_kw_hash(key, kn, 0));
    e->idf = i != FC_KW_NONE ? (double)c->d->idf.e[i].val : c->d->idf_median;
  } else if (c->idf_src == 2) {
    if (!fc_kw_lexicon_word(c->m, s, e->len, &wi) || !fc_kwtable_idf(&c->m->kw, wi, &e->idf))
      e->idf = (double)c->m->kw.idf_median;
  }
}

static fc_kw_word fc_kw_full; /* fc_kw_word_of's answer for a new word past FC_KW_MAX_WORDS */

/* The entry of the token's word (made and judged when new), &fc_kw_full
 * (ok 0) when the table is full, or NULL (no memory). */
static fc_kw_word *fc_kw_word_of(fc_kwacc *c, const fenci_token *t, uint32_t *idx) {
  const uint8_t *s = (const uint8_t *)c->text + t->start;
  uint32_t n = (uint32_t)(t->end - t->start);
  uint16_t tag = (c->o->flags & FENCI_KW_BY_TAG) ? t->tag : 0;
  uint32_t h = fc_kw_hash(s, n, tag);
  size_t i;
  fc_kw_word *e;
  if (c->nslot) {
    for (i = h & (c->nslot - 1); c->slot[i]; i = (i + 1) & (c->nslot - 1)) {
      e = &c->w[c->slot[i] - 1];
      if (e->hash == h && e->len == n && e->tag == tag && !memcmp(c->text + e->start, s, n)) {
        *idx = c->slot[i] - 1;
        return e;
      }
    }
  }
  if (c->nw >= FC_KW_MAX_WORDS) {
    *idx = (uint32_t)FC_KW_NONE;
    return &fc_kw_full; /* never written: its ok is 0 */
  }
  if ((c->nw + 1) * 2 > c->nslot && fc_kw_rehash_words(c)) return NULL;
  if (c->nw >= UINT32_MAX - 1 || fc_grow(c->al, (void **)&c->w, &c->capw, c->nw + 1, sizeof *c->w)) return NULL;
  e = &c->w[c->nw];
  memset(e, 0, sizeof *e);
  e->start = t->start;
  e->len = n;
  e->hash = h;
  e->tag = tag;
  fc_kw_judge(c, e);
  for (i = h & (c->nslot - 1); c->slot[i]; i = (i + 1) & (c->nslot - 1)) {
  }
  c->slot[i] = (uint32_t)c->nw + 1;
  *idx = (uint32_t)c->nw++;
  return e;
}

/* Counts one co-occurrence of words a and b. */
static int fc_kw_pair_add(fc_kwacc *c, uint32_t a, uint32_t b) {
  uint32_t h, t;
  size_t i;
  if (a > b) t = a, a = b, b = t;
  h = (uint32_t)(((uint64_t)a * 0x9E3779B97F4A7C15ull ^ (uint64_t)b * 0xC2B2AE3D27D4EB4Full) >> 32);
  if (c->npslot) {
    for (i = h & (c->npslot - 1); c->pslot[i]; i = (i + 1) & (c->npslot - 1)) {
      fc_kw_pair *p = &c->p[c->pslot[i] - 1];
      if (p->a == a && p->b == b) {
        if (p->w < UINT32_MAX) p->w++;
        return 0;
      }
    }
  }
  if (c->np >= FC_KW_MAX_PAIRS) return 0; /* full: not counted */
  if ((c->np + 1) * 2 > c->npslot) {
    size_t ns = c->npslot ? c->npslot * 2 : 256, j;
    uint32_t *sl = fc_calloc(c->al, ns, sizeof *sl);
    if (!sl) return -1;
    for (j = 0; j < c->np; j++) {
      size_t q = c->p[j].hash & (ns - 1);
      while (sl[q]) q = (q + 1) & (ns - 1);
      sl[q] = (uint32_t)j + 1;
    }
    fc_free(c->al, c->pslot);
    c->pslot = sl;
    c->npslot = ns;
  }
  if (c->np >= UINT32_MAX - 1 || fc_grow(c->al, (void **)&c->p, &c->capp, c->np + 1, sizeof *c->p)) return -1;
  c->p[c->np].a = a;
  c->p[c->np].b = b;
  c->p[c->np].hash = h;
  c->p[c->np].w = 1;
  for (i = h & (c->npslot - 1); c->pslot[i]; i = (i + 1) & (c->npslot - 1)) {
  }
  c->pslot[i] = (uint32_t)c->np + 1;
  c->np++;
  return 0;
}

/* 1 when s[0..n) holds an ASCII or full-width digit: such a word (1814年,
 * ３月) is a number for the candidate rule. */
static int fc_kw_has_digit(const uint8_t *s, size_t n) {
  size_t i;
  for (i = 0; i < n; i++) {
    if (s[i] >= '0' && s[i] <= '9') return 1;
    if (s[i] == 0xEF && i + 2 < n && s[i + 1] == 0xBC && s[i + 2] >= 0x90 && s[i + 2] <= 0x99) return 1;
  }
  return 0;
}

/* One token.  0, or -1 when out of memory. */
static int fc_kw_token(fc_kwacc *c, const fenci_token *t) {
  size_t p, chars = 0, i;
  const uint8_t *s;
  fc_kw_word *e;
  uint32_t idx, cand = FC_KW_NONE;
  if (t->flags & FENCI_TOK_EXTRA) return 0;
  p = c->pos++;
  if (t->kind < 16 && (c->kinds >> t->kind & 1) && (!c->tag_ok || c->tag_ok[t->tag <= c->m->n_names ? t->tag : 0])) {
    s = (const uint8_t *)c->text + t->start;
    for (i = 0; i < t->end - t->start && chars < 2; i++) chars += (s[i] & 0xC0) != 0x80;
    if (chars >= 2 && !(c->kinds >> FENCI_KIND_NUMBER & 1) && fc_kw_has_digit(s, t->end - t->start)) chars = 0;
    if (chars >= 2) {
      e = fc_kw_word_of(c, t, &idx);
      if (!e) return -1;
      if (e->ok) {
        if (!e->count++) {
          e->first = p;
          e->cstart = t->start;
          e->cend = t->end;
          e->ctag = t->tag;
          e->ckind = t->kind;
        }
        c->total++;
        cand = idx;
      }
    }
  }
  if (c->ring) {
    size_t k, span = c->window - 1;
    if (cand != FC_KW_NONE)
      for (k = 0; k < span; k++)
        if (c->ring[k] != FC_KW_NONE && c->ring_pos[k] + c->window > p && fc_kw_pair_add(c, c->ring[k], cand))
          return -1;
    c->ring[p % span] = cand;
    c->ring_pos[p % span] = p;
  }
  return 0;
}

static int fc_kw_cb(void *ctx, const fenci_token *tok, const char *form, size_t n) {
  fc_kwacc *c = ctx;
  (void)form;
  (void)n;
  if (fc_kw_token(c, tok)) {
    c->nomem = 1;
    return 1;
  }
  return 0;
}

/* ------------------------------------------------------------ ranking */

typedef struct fc_kw_rank {
  double w;
  size_t first;
  uint32_t idx;
} fc_kw_rank;

static int fc_kw_rank_cmp(const void *a, const void *b) {
  const fc_kw_rank *x = a, *y = b;
  if (x->w != y->w) return x->w > y->w ? -1 : 1;
  return x->first < y->first ? -1 : x->first > y->first;
}

typedef struct fc_kw_node {
  const uint8_t *p;
  uint32_t len;
  uint16_t tag;
  uint32_t idx;
} fc_kw_node;

static int fc_kw_node_cmp(const void *a, const void *b) {
  const fc_kw_node *x = a, *y = b;
  int r = memcmp(x->p, y->p, x->len < y->len ? x->len : y->len);
  if (r) return r;
  if (x->len != y->len) return x->len < y->len ? -1 : 1;
  return x->tag < y->tag ? -1 : x->tag > y->tag;
}

/* TextRank over the pairs: fills r (one per node, *nr of them). */
static fenci_rc fc_kw_textrank(fc_kwacc *c, fc_kw_rank *r, size_t *nr) {
  const fenci_alloc *a = c->al;
  size_t nn = 0, i, it, *start = NULL;
  uint32_t *node_of = NULL, *adj = NULL;
  double *aw = NULL, *ws = NULL, *out = NULL, d = c->o->damping > 0 ? c->o->damping : 0.85, mn, mx;
  fc_kw_node *nodes = NULL;
  unsigned iters = c->o->iterations ? c->o->iterations : 10;
  fenci_rc rc = FENCI_NOMEM;
  *nr = 0;
  if (!c->np) return FENCI_OK;
  node_of = fc_malloc(a, c->nw * sizeof *node_of);
  start = fc_calloc(a, c->nw + 1, sizeof *start);
  if (!node_of || !start) goto done;
  /* degrees (a self-loop is one list entry of twice the weight) */
  for (i = 0; i < c->np; i++) {
    start[c->p[i].a]++;
    if (c->p[i].b != c->p[i].a) start[c->p[i].b]++;
  }
  for (i = 0; i < c->nw; i++) node_of[i] = start[i] ? (uint32_t)nn++ : FC_KW_NONE;
  nodes = fc_malloc(a, nn * sizeof *nodes);
  ws = fc_malloc(a, nn * sizeof *ws);
  out = fc_calloc(a, nn, sizeof *out);
  if (!nodes || !ws || !out) goto done;
  for (i = 0; i < c->nw; i++)
    if (node_of[i] != FC_KW_NONE) {
      fc_kw_node *q = &nodes[node_of[i]];
      q->p = (const uint8_t *)c->text + c->w[i].start;
      q->len = c->w[i].len;
      q->tag = c->w[i].tag;
      q->idx = (uint32_t)i;
    }
  /* prefix sums over words into list starts, then fill the lists */
  {
    size_t s = 0, k;
    for (i = 0; i <= c->nw; i++) {
      k = i < c->nw ? start[i] : 0;
      start[i] = s;
      s += k;
    }
    adj = fc_malloc(a, (s ? s : 1) * sizeof *adj);
    aw = fc_malloc(a, (s ? s : 1) * sizeof *aw);
    if (!adj || !aw) goto done;
    for (i = 0; i < c->nw; i++) c->w[i].deg = 0;
    for (i = 0; i < c->np; i++) {
      uint32_t x = c->p[i].a, y = c->p[i].b;
      double w = c->p[i].w;
      if (x == y) {
        adj[start[x] + c->w[x].deg] = x;
        aw[start[x] + c->w[x].deg++] = 2 * w;
      } else {
        adj[start[x] + c->w[x].deg] = y;
        aw[start[x] + c->w[x].deg++] = w;
        adj[start[y] + c->w[y].deg] = x;
        aw[start[y] + c->w[y].deg++] = w;
      }
    }
  }
  /* in-place updates in bytewise word order (jieba's, for a stable result) */
  qsort(nodes, nn, sizeof *nodes, fc_kw_node_cmp);
  for (i = 0; i < nn; i++) node_of[nodes[i].idx] = (uint32_t)i;
  for (i = 0; i < c->nw; i++)
    if (node_of[i] != FC_KW_NONE) {
      size_t k;
      double s = 0;
      for (k = start[i]; k < start[i] + c->w[i].deg; k++) s += aw[k];
      out[node_of[i]] = s;
    }
  for (i = 0; i < nn; i++) ws[i] = 1.0 / (double)nn;
  for (it = 0; it < iters; it++)
    for (i = 0; i < nn; i++) {
      uint32_t wi = nodes[i].idx;
      size_t k;
      double s = 0;
      for (k = start[wi]; k < start[wi] + c->w[wi].deg; k++) {
        uint32_t m = node_of[adj[k]];
        s += aw[k] / out[m] * ws[m];
      }
      ws[i] = (1 - d) + d * s;
    }
  mn = mx = ws[0];
  for (i = 1; i < nn; i++) {
    if (ws[i] < mn) mn = ws[i];
    if (ws[i] > mx) mx = ws[i];
  }
  for (i = 0; i < nn; i++) {
    double den = mx - mn / 10.0;
    r[i].w = den > 0 ? (ws[i] - mn / 10.0) / den : 1.0;
    r[i].idx = nodes[i].idx;
    r[i].first = c->w[nodes[i].idx].first;
  }
  *nr = nn;
  rc = FENCI_OK;
done:
  fc_free(a, node_of);
  fc_free(a, start);
  fc_free(a, nodes);
  fc_free(a, ws);
  fc_free(a, out);
  fc_free(a, adj);
  fc_free(a, aw);
  return rc;
}

static void fc_kwacc_free(fc_kwacc *c) {
  fc_free(c->al, c->tag_ok);
  fc_free(c->al, c->w);
  fc_free(c->al, c->slot);
  fc_free(c->al, c->ring);
  fc_free(c->al, c->ring_pos);
  fc_free(c->al, c->p);
  fc_free(c->al, c->pslot);
}

/* Checks the options and sets up c.  FENCI_OK, or an error with msg set. */
static fenci_rc fc_kwacc_init(fc_kwacc *c, const fenci_model *m, const char *text, size_t len,
                              const fenci_kw_opts *o, const char **msg) {
  const char *pos;
  memset(c, 0, sizeof *c);
  c->m = m;
  c->al = &m->a;
  c->text = text;
  c->len = len;
  c->o = o;
  c->d = o->dict;
  if (o->method != FENCI_KW_TFIDF && o->method != FENCI_KW_TEXTRANK) {
    *msg = "unknown keyword method";
    return FENCI_BADARG;
  }
  if (o->flags & ~(unsigned)(FENCI_KW_BY_TAG | FENCI_KW_NO_DEFAULT_STOP | FENCI_KW_NUMBERS)) {
    *msg = "unknown keyword flags";
    return FENCI_BADARG;
  }
  if (o->method == FENCI_KW_TEXTRANK) {
    c->window = o->window ? o->window : 5;
    if (c->window < 2 || c->window > FC_KW_MAX_WINDOW) {
      *msg = "TextRank window must be 2..1024 tokens";
      return FENCI_BADARG;
    }
    if (!(o->damping == 0 || (o->damping > 0 && o->damping < 1))) {
      *msg = "TextRank damping must be in (0, 1)";
      return FENCI_BADARG;
    }
    if (o->iterations > 1000) {
      *msg = "TextRank iterations must be at most 1000";
      return FENCI_BADARG;
    }
  }
  c->kinds = 1u << FENCI_KIND_WORD | 1u << FENCI_KIND_LATIN;
  if (o->flags & FENCI_KW_NUMBERS) c->kinds |= 1u << FENCI_KIND_NUMBER;
  c->use_stop = !(o->flags & FENCI_KW_NO_DEFAULT_STOP) && m->kw.n_stop;
  if (o->method == FENCI_KW_TFIDF) {
    if (c->d && c->d->idf.n) c->idf_src = 1;
    else if (m->kw.idf) c->idf_src = 2;
    else {
      *msg = "the model has no IDF table (section KIDF, added by 'fenci idf') and no IDF was given";
      return FENCI_BADARG;
    }
  }
  pos = o->pos;
  if (!pos && o->method == FENCI_KW_TEXTRANK) pos = "ns,n,vn,v";
  if (pos && *pos) {
    /* every tag name: the lexicon's and those only the POS tagger gives
     * (nx, w, Vg, ...), which follow them */
    c->tag_ok = fc_calloc(c->al, m->n_names + 1, 1);
    if (!c->tag_ok) {
      *msg = "out of memory extracting keywords";
      return FENCI_NOMEM;
    }
    while (*pos) {
      size_t n = 0;
      uint16_t id;
      while (*pos == ',' || *pos == ' ' || *pos == '\t') pos++;
      while (pos[n] && pos[n] != ',' && pos[n] != ' ' && pos[n] != '\t') n++;
      if (n && (id = fc_model_tag_id(m, pos, n)) != 0) c->tag_ok[id] = 1;
      pos += n;
    }
  }
  if (c->window) {
    size_t k, span = c->window - 1;
    c->ring = fc_malloc(c->al, span * sizeof *c->ring);
    c->ring_pos = fc_malloc(c->al, span * sizeof *c->ring_pos);
    if (!c->ring || !c->ring_pos) {
      *msg = "out of memory extracting keywords";
      return FENCI_NOMEM;
    }
    for (k = 0; k < span; k++) c->ring[k] = FC_KW_NONE;
  }
  return FENCI_OK;
}

/* Ranks the words and writes the keywords. */
static fenci_rc fc_kwacc_finish(fc_kwacc *c, fenci_keyword *out, size_t cap, size_t *n_total) {
  fc_kw_rank *r;
  size_t nr = 0, i, k;
  fenci_rc rc = FENCI_OK;
  r = fc_malloc(c->al, (c->nw ? c->nw : 1) * sizeof *r);
  if (!r) return FENCI_NOMEM;
  if (c->o->method == FENCI_KW_TEXTRANK) {
    rc = fc_kw_textrank(c, r, &nr);
  } else {
    for (i = 0; i < c->nw; i++)
      if (c->w[i].count) {
        r[nr].w = (double)c->w[i].count / (double)c->total * c->w[i].idf;
        r[nr].first = c->w[i].first;
        r[nr].idx = (uint32_t)i;
        nr++;
      }
  }
  if (rc == FENCI_OK) {
    qsort(r, nr, sizeof *r, fc_kw_rank_cmp);
    k = c->o->top_k && c->o->top_k < nr ? c->o->top_k : nr;
    for (i = 0; i < k && i < cap; i++) {
      const fc_kw_word *e = &c->w[r[i].idx];
      out[i].start = e->cstart;
      out[i].end = e->cend;
      out[i].weight = r[i].w;
      out[i].count = e->count;
      out[i].tag = e->ctag;
      out[i].kind = e->ckind;
    }
    *n_total = k;
    if (k > cap) rc = FENCI_TOOSMALL;
  }
  fc_free(c->al, r);
  return rc;
}

fenci_rc fenci_keywords(fenci_tagger *t, const char *text, size_t len, const fenci_kw_opts *opts,
                        fenci_keyword *out, size_t cap, size_t *n_total) {
  fenci_kw_opts zero;
  fc_kwacc c;
  const char *msg = NULL;
  fenci_rc rc;
  if (n_total) *n_total = 0;
  if (!t || !n_total || (!text && len) || (!out && cap)) return FENCI_BADARG;
  if (!opts) {
    memset(&zero, 0, sizeof zero);
    opts = &zero;
  }
  rc = fc_kwacc_init(&c, fc_tagger_model(t), text ? text : "", len, opts, &msg);
  if (rc == FENCI_OK) {
    rc = fenci_segment(t, text ? text : "", len, fc_kw_cb, &c);
    if (rc == FENCI_STOPPED && c.nomem) rc = FENCI_NOMEM;
    if (rc == FENCI_NOMEM) msg = "out of memory extracting keywords";
  }
  if (rc == FENCI_OK) {
    rc = fc_kwacc_finish(&c, out, cap, n_total);
    if (rc == FENCI_NOMEM) msg = "out of memory extracting keywords";
  }
  if (msg) fc_tagger_errset(t, msg);
  fc_kwacc_free(&c);
  return rc;
}

fenci_rc fenci_keywords_tokens(const fenci_model *m, const char *text, size_t len, const fenci_token *toks,
                               size_t ntoks, const fenci_kw_opts *opts, fenci_keyword *out, size_t cap,
                               size_t *n_total) {
  fenci_kw_opts zero;
  fc_kwacc c;
  const char *msg = NULL;
  fenci_rc rc;
  size_t i;
  if (n_total) *n_total = 0;
  if (!m || !n_total || (!text && len) || (!toks && ntoks) || (!out && cap)) return FENCI_BADARG;
  for (i = 0; i < ntoks; i++)
    if (toks[i].start > toks[i].end || toks[i].end > len) return FENCI_BADARG;
  if (!opts) {
    memset(&zero, 0, sizeof zero);
    opts = &zero;
  }
  rc = fc_kwacc_init(&c, m, text ? text : "", len, opts, &msg);
  for (i = 0; rc == FENCI_OK && i < ntoks; i++)
    if (fc_kw_token(&c, &toks[i])) rc = FENCI_NOMEM;
  if (rc == FENCI_OK) rc = fc_kwacc_finish(&c, out, cap, n_total);
  fc_kwacc_free(&c);
  return rc;
}
