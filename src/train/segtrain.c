/* segtrain.c - training the B/M/E/S segmenter with the averaged perceptron
 * of perceptron.c.
 *
 * Training data: each sentence is turned into units with the lexicon's unit
 * builder (the same code the decoder's input goes through), gold tags come
 * from the word boundaries, and the feature groups of feat.h are counted;
 * groups seen fewer than min_count times are dropped, the others numbered in
 * order of first occurrence.  The perceptron core (perceptron.h) visits the
 * sentences in a shuffled order; this file decodes each with the current
 * weights (fc_seg_viterbi) and, on a mistake, adds 1 to the gold features
 * and subtracts 1 from the predicted ones.  After each iteration the
 * averaged weights are quantised, written as SEGH/SEGW sections and the dev
 * set is decoded through fc_segmodel_tag: the dev score is that of the
 * exact bytes that will ship, and the core keeps the best iteration. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "buf.h"
#include "feat.h"
#include "lexicon.h"
#include "model.h"
#include "segmodel.h"
#include "train/perceptron.h"
#include "train/train.h"
#include "units.h"

void fc_train_opts_init(fc_train_opts *o) {
  memset(o, 0, sizeof *o);
  o->iters = 10;
  o->seed = 1;
  o->mask = FC_FEAT_DEFAULT_MASK;
  o->min_count = 2;
  o->sym_min_count = 1;
  o->folds = 10;
}

double fc_prf_f1(const fc_prf *s) {
  double p, r;
  if (!s->correct) return 0;
  p = (double)s->correct / (double)s->pred;
  r = (double)s->correct / (double)s->gold;
  return 2 * p * r / (p + r);
}

/* ------------------------------------------------------------ key map */

/* Open addressing map from 64-bit feature keys (never 0) to a count and a
 * group id; grows at half load. */
typedef struct fc_kmap {
  uint64_t *key;
  uint32_t *cnt;
  int32_t *id;
  size_t cap, n; /* cap is a power of two */
} fc_kmap;

static int fc_kmap_init(fc_kmap *m, const fenci_alloc *a, size_t cap) {
  m->cap = cap;
  m->n = 0;
  m->key = fc_calloc(a, cap, sizeof *m->key);
  m->cnt = fc_calloc(a, cap, sizeof *m->cnt);
  m->id = fc_malloc(a, cap * sizeof *m->id);
  if (!m->key || !m->cnt || !m->id) return -1;
  memset(m->id, 0xFF, cap * sizeof *m->id);
  return 0;
}

static void fc_kmap_free(fc_kmap *m, const fenci_alloc *a) {
  fc_free(a, m->key);
  fc_free(a, m->cnt);
  fc_free(a, m->id);
  memset(m, 0, sizeof *m);
}

static size_t fc_kmap_slot(const fc_kmap *m, uint64_t key) {
  size_t mask = m->cap - 1, i = (size_t)(fc_feat_mix(key) >> 20) & mask;
  while (m->key[i] && m->key[i] != key) i = (i + 1) & mask;
  return i;
}

static int fc_kmap_grow(fc_kmap *m, const fenci_alloc *a) {
  fc_kmap nm;
  size_t i;
  if (fc_kmap_init(&nm, a, m->cap * 2)) {
    fc_kmap_free(&nm, a);
    return -1;
  }
  for (i = 0; i < m->cap; i++)
    if (m->key[i]) {
      size_t s = fc_kmap_slot(&nm, m->key[i]);
      nm.key[s] = m->key[i];
      nm.cnt[s] = m->cnt[i];
      nm.id[s] = m->id[i];
    }
  nm.n = m->n;
  fc_kmap_free(m, a);
  *m = nm;
  return 0;
}

/* ------------------------------------------------------------ data */

typedef struct fc_tdata {
  fc_unit *u;       /* units of every sentence */
  size_t n_u, cap_u;
  size_t *su;       /* n_sent + 1 offsets into u */
  uint8_t *std;     /* per sentence: 0 = the target standard's corpus, k = the k-th other one */
  uint8_t *gold;    /* gold tag per unit */
  uint8_t *l2;      /* 3 per unit: jackknifed training-lexicon lengths, or NULL */
  int32_t *gid;     /* group ids: per sentence, per type in mask, per anchor */
  size_t *sg;       /* n_sent + 1 offsets into gid */
  size_t n_sent;
} fc_tdata;

static void fc_tdata_free(fc_tdata *d, const fenci_alloc *a) {
  fc_free(a, d->u);
  fc_free(a, d->su);
  fc_free(a, d->std);
  fc_free(a, d->gold);
  fc_free(a, d->l2);
  fc_free(a, d->gid);
  fc_free(a, d->sg);
  memset(d, 0, sizeof *d);
}

/* Appends the units of every sentence of c and their gold tags, the
 * sentences marked as of standard std. */
static fenci_rc fc_tdata_units(fc_tdata *d, const fenci_model *lex, const fc_corpus *c, uint8_t std,
                               const fenci_alloc *a) {
  size_t s, cap_b = 0, s0 = d->n_sent;
  uint8_t *isb = NULL;
  void *p;
  fenci_rc rc = FENCI_OK;
  if (!(p = fc_realloc(a, d->su, (s0 + c->n_sent + 1) * sizeof *d->su))) return FENCI_NOMEM;
  d->su = p;
  if (!(p = fc_realloc(a, d->std, s0 + c->n_sent + 1))) return FENCI_NOMEM;
  d->std = p;
  if (s0 == 0) d->su[0] = 0;
  for (s = 0; s < c->n_sent && rc == FENCI_OK; s++) {
    size_t len = c->sent[s + 1] - c->sent[s];
    rc = fc_units_build(lex, NULL, (const uint8_t *)c->text + c->sent[s], len, &d->u, &d->n_u, &d->cap_u, a);
    d->su[s0 + s + 1] = d->n_u;
    d->std[s0 + s] = std;
  }
  if (rc != FENCI_OK) return rc;
  d->n_sent = s0 + c->n_sent;
  if (!(p = fc_realloc(a, d->gold, d->n_u ? d->n_u : 1))) return FENCI_NOMEM;
  d->gold = p;
  for (s = 0; s < c->n_sent; s++) {
    size_t len = c->sent[s + 1] - c->sent[s], k, w;
    p = isb;
    if (fc_grow(a, &p, &cap_b, len + 1, 1)) {
      fc_free(a, isb);
      return FENCI_NOMEM;
    }
    isb = p;
    memset(isb, 0, len + 1);
    isb[0] = 1;
    for (w = c->sent_w[s]; w < c->sent_w[s + 1]; w++) isb[c->wend[w]] = 1;
    for (k = d->su[s0 + s]; k < d->su[s0 + s + 1]; k++) {
      const fc_unit *u = &d->u[k];
      int b = u->start <= len && isb[u->start], e = u->end <= len && isb[u->end];
      d->gold[k] = (uint8_t)(b ? (e ? FC_TAG_S : FC_TAG_B) : (e ? FC_TAG_E : FC_TAG_M));
    }
  }
  fc_free(a, isb);
  return FENCI_OK;
}

/* Scratch for symbols of one sentence. */
typedef struct fc_symbuf {
  uint32_t *sym;
  uint8_t *cls;
  size_t cap;
} fc_symbuf;

static int fc_symbuf_fill(fc_symbuf *b, const fenci_alloc *a, const fc_symmap *sm, const fc_unit *u, size_t n) {
  if (n + 2 * FC_FEAT_PAD > b->cap) {
    size_t cap = (n + 2 * FC_FEAT_PAD) * 2;
    void *p = fc_realloc(a, b->sym, cap * sizeof *b->sym), *q;
    if (!p) return -1;
    b->sym = p;
    q = fc_realloc(a, b->cls, cap);
    if (!q) return -1;
    b->cls = q;
    b->cap = cap;
  }
  fc_feat_symbols(sm, u, n, b->sym, b->cls);
  return 0;
}

/* Number of anchors of type t for n units. */
static size_t fc_train_nanchors(int t, size_t n) {
  ptrdiff_t lo, hi;
  fc_feat_anchors(t, n, &lo, &hi);
  return (size_t)(hi - lo);
}

/* ------------------------------------------------------------ trainer state */

#define FC_TRAIN_MAX_COPIES (2 + FC_TRAIN_MAX_ALSO)

typedef struct fc_trainer {
  const fenci_alloc *a;
  unsigned mask;
  int types[FC_G_NTYPES], n_types;       /* types in mask, in order */
  size_t n_groups[FC_G_NTYPES];
  uint64_t *gkey[FC_G_NTYPES];           /* key of each group */
  /* Weights come in n_copies copies of nw[t] each (group*nb*4 + b*4 + tag):
   * one alone, or with other standards' corpora (multi-criteria training,
   * the feature augmentation of Daume III 2007) the shared copy 0 and copy
   * 1 + k for the sentences of standard k (0 the target).  A sentence is
   * scored by shared + its own; the model written is shared + target's. */
  int n_copies;
  size_t nw[FC_G_NTYPES];
  fc_avg wt[FC_G_NTYPES];                /* the weights (perceptron.h) */
  fc_avg tw;                             /* per copy: trans[16], start[4], end[4] */
  int64_t c;                             /* the perceptron's clock (averages, updates) */
  uint8_t *smap;                         /* symbol map bytes (SEGW layout) */
  size_t smap_len;
  fc_symmap sm;                          /* view of smap */
  uint32_t n_ids;                        /* symbol ids */
  uint8_t *pflags;                       /* per bigram id pair: n_pf (uint32 key, uint32 flags), sorted */
  uint8_t *pf_has;                       /* n_pf: the pair has a bigram group */
  size_t n_pf;
} fc_trainer;

static void fc_trainer_free(fc_trainer *t) {
  int k;
  fc_free(t->a, t->smap);
  fc_free(t->a, t->pflags);
  fc_free(t->a, t->pf_has);
  for (k = 0; k < FC_G_NTYPES; k++) {
    fc_free(t->a, t->gkey[k]);
    fc_avg_free(&t->wt[k], t->a);
  }
  fc_avg_free(&t->tw, t->a);
}

static size_t fc_train_pfind(const fc_trainer *tr, uint32_t key);

/* Counts keys, keeps those seen min_count times and fills d->gid. */
static fenci_rc fc_train_index(fc_trainer *tr, fc_tdata *d, uint32_t min_count) {
  const fenci_alloc *a = tr->a;
  fc_kmap m;
  fc_symbuf sb = {NULL, NULL, 0};
  size_t s, total = 0, cap_key[FC_G_NTYPES] = {0};
  int pass, k;
  fenci_rc rc = FENCI_OK;
  if (fc_kmap_init(&m, a, (size_t)1 << 16)) { /* grows by doubling */
    fc_kmap_free(&m, a);
    return FENCI_NOMEM;
  }
  d->sg = fc_malloc(a, (d->n_sent + 1) * sizeof *d->sg);
  if (!d->sg) rc = FENCI_NOMEM;
  for (s = 0; s < d->n_sent && rc == FENCI_OK; s++) {
    size_t n = d->su[s + 1] - d->su[s];
    d->sg[s] = total;
    for (k = 0; k < tr->n_types; k++) total += fc_train_nanchors(tr->types[k], n);
  }
  if (rc == FENCI_OK) {
    d->sg[d->n_sent] = total;
    d->gid = fc_malloc(a, (total ? total : 1) * sizeof *d->gid);
    if (!d->gid) rc = FENCI_NOMEM;
  }
  for (pass = 0; pass < 2 && rc == FENCI_OK; pass++) {
    for (s = 0; s < d->n_sent && rc == FENCI_OK; s++) {
      const fc_unit *u = d->u + d->su[s];
      size_t n = d->su[s + 1] - d->su[s], g = d->sg[s];
      if (fc_symbuf_fill(&sb, a, &tr->sm, u, n)) {
        rc = FENCI_NOMEM;
        break;
      }
      fc_feat_ctx cx;
      cx.u = u;
      cx.n = n;
      cx.sym = sb.sym;
      cx.cls = sb.cls;
      cx.l2 = d->l2 ? d->l2 + 3 * d->su[s] : NULL;
      for (k = 0; k < tr->n_types; k++) {
        int t = tr->types[k];
        ptrdiff_t j, lo, hi;
        fc_feat_anchors(t, n, &lo, &hi);
        for (j = lo; j < hi; j++, g++) {
          uint64_t key = fc_feat_key(t, &cx, j);
          size_t slot;
          if (!key) {
            if (pass) d->gid[g] = -1;
            continue;
          }
          slot = fc_kmap_slot(&m, key);
          if (pass == 0) {
            if (!m.key[slot]) {
              m.key[slot] = key;
              m.n++;
            }
            if (m.cnt[slot] < UINT32_MAX) m.cnt[slot]++;
            if (m.n * 2 > m.cap && fc_kmap_grow(&m, a)) {
              rc = FENCI_NOMEM;
              break;
            }
          } else {
            if (m.key[slot] != key || m.cnt[slot] < min_count) {
              d->gid[g] = -1;
              continue;
            }
            if (m.id[slot] < 0) {
              void *p = tr->gkey[t];
              if (tr->n_groups[t] >= INT32_MAX / 32 ||
                  fc_grow(a, &p, &cap_key[t], tr->n_groups[t] + 1, sizeof(uint64_t))) {
                rc = FENCI_NOMEM;
                break;
              }
              tr->gkey[t] = p;
              tr->gkey[t][tr->n_groups[t]] = key;
              m.id[slot] = (int32_t)tr->n_groups[t]++;
            }
            d->gid[g] = m.id[slot];
          }
        }
        if (rc != FENCI_OK) break;
      }
    }
  }
  fc_kmap_free(&m, a);
  fc_free(a, sb.sym);
  fc_free(a, sb.cls);
  if (rc != FENCI_OK) return rc;
  for (k = 0; k < tr->n_types; k++) {
    int t = tr->types[k];
    size_t nw = tr->n_groups[t] * (size_t)fc_feat_types[t].n_blocks * 4;
    tr->nw[t] = nw;
    nw *= (size_t)tr->n_copies;
    if (fc_avg_init(&tr->wt[t], nw, a)) return FENCI_NOMEM;
  }
  tr->pf_has = fc_calloc(a, tr->n_pf ? tr->n_pf : 1, 1);
  if (!tr->pf_has) return FENCI_NOMEM;
  for (s = 0; s < tr->n_groups[FC_G_BI]; s++) {
    uint64_t key = tr->gkey[FC_G_BI][s];
    size_t x = fc_train_pfind(tr, FC_FEAT_KA(key) | FC_FEAT_KB(key) << 16);
    if (x < tr->n_pf) tr->pf_has[x] = 1;
  }
  return FENCI_OK;
}

/* ------------------------------------------------------------ training-word lexicon */

/* The words of the training corpus, spelled in unit symbols, become a
 * second lexicon.  Its features must not be learnt from a lexicon that
 * contains every training word (they would look infallible), so the
 * training units get their lb2/le2/lm2 by JACKKNIFING: sentence s belongs to
 * fold s % folds and sees only words that occur in the other folds.  The
 * shipped trie (SEGL) has every training word. */
typedef struct fc_wmap {
  uint64_t *key;   /* hash of the symbol string, 0 = empty */
  uint32_t *idx;   /* word index */
  size_t cap;
} fc_wmap;

static size_t fc_wmap_slot(const fc_wmap *m, uint64_t key) {
  size_t mask = m->cap - 1, i = (size_t)(key >> 17) & mask;
  while (m->key[i] && m->key[i] != key) i = (i + 1) & mask;
  return i;
}

typedef struct fc_tent {
  uint64_t h;     /* hash of a word or word prefix of 3+ units */
  uint32_t flags; /* FC_TLEX_* */
} fc_tent;

static int fc_tent_cmp(const void *x, const void *y) {
  const fc_tent *a = x, *b = y;
  return a->h < b->h ? -1 : a->h > b->h;
}

/* Bytes per id in the trainer's word store. */
#define FC_TW_B 2

/* Lays out the training-word lexicon: one-unit strings as id flags, two-unit
 * strings as bigram-pair flags (tr->pflags, sorted by pair key), longer ones
 * in the SEGL hash table, in hash order. */
static fenci_rc fc_train_tlex_table(fc_trainer *tr, const uint8_t *bytes, const size_t *woff, size_t n_words,
                                    uint8_t **segl, size_t *segl_len) {
  const fenci_alloc *a = tr->a;
  size_t total = n_words ? woff[n_words] / FC_TW_B : 0, i, k, ne = 0, np = 0, n_slots, max_probe = 0;
  size_t fl = (tr->n_ids + 3) & ~(size_t)3;
  fc_tent *e = fc_malloc(a, (total ? total : 1) * sizeof *e), *pe = fc_malloc(a, (n_words ? n_words : 1) * sizeof *pe);
  uint8_t *out, *cf = fc_calloc(a, fl ? fl : 4, 1);
  if (!e || !pe || !cf) {
    fc_free(a, e);
    fc_free(a, pe);
    fc_free(a, cf);
    return FENCI_NOMEM;
  }
  for (i = 0; i < n_words; i++) {
    size_t len = (woff[i + 1] - woff[i]) / FC_TW_B;
    const uint8_t *b = bytes + woff[i];
    uint64_t h = 0;
    uint32_t id0 = (uint32_t)b[0] << 8 | b[1], id1 = len > 1 ? ((uint32_t)b[2] << 8 | b[3]) : 0;
    cf[id0] |= (uint8_t)(len == 1 ? FC_TLEX_WORD : FC_TLEX_PREFIX);
    if (len >= 2) {
      pe[np].h = id0 | id1 << 16;
      pe[np].flags = len == 2 ? FC_TLEX_WORD : FC_TLEX_PREFIX;
      np++;
    }
    for (k = 0; k < len; k++) {
      uint32_t id = (uint32_t)b[FC_TW_B * k] << 8 | b[FC_TW_B * k + 1];
      h = fc_feat_wstep(h, id);
      if (k < 2) continue;
      e[ne].h = h;
      e[ne].flags = k + 1 == len ? FC_TLEX_WORD : FC_TLEX_PREFIX;
      ne++;
    }
  }
  qsort(e, ne, sizeof *e, fc_tent_cmp);
  for (i = 0, k = 0; i < ne; i++) {
    if (k && e[k - 1].h == e[i].h) e[k - 1].flags |= e[i].flags;
    else e[k++] = e[i];
  }
  ne = k;
  qsort(pe, np, sizeof *pe, fc_tent_cmp);
  for (i = 0, k = 0; i < np; i++) {
    if (k && pe[k - 1].h == pe[i].h) pe[k - 1].flags |= pe[i].flags;
    else pe[k++] = pe[i];
  }
  np = k;
  fc_free(a, tr->pflags);
  tr->pflags = fc_malloc(a, (np ? np : 1) * 8);
  tr->n_pf = np;
  n_slots = ne + ne * 2 / 3 + 1;
  out = fc_calloc(a, 16 + fl + n_slots * 8, 1);
  if (!out || !tr->pflags || n_slots > UINT32_MAX) {
    fc_free(a, e);
    fc_free(a, pe);
    fc_free(a, cf);
    fc_free(a, out);
    return FENCI_NOMEM;
  }
  for (i = 0; i < np; i++) {
    fc_wr32(tr->pflags + 8 * i, (uint32_t)pe[i].h);
    fc_wr32(tr->pflags + 8 * i + 4, pe[i].flags);
  }
  memcpy(out, "FCSL", 4);
  memcpy(out + 16, cf, tr->n_ids);
  for (i = 0; i < ne; i++) {
    uint64_t h = e[i].h;
    uint32_t fp = (uint32_t)h ? (uint32_t)h : 1;
    uint64_t pos = ((h >> 32) * (uint64_t)n_slots) >> 32;
    size_t probe = 0;
    uint8_t *sl = out + 16 + fl;
    while (sl[pos * 8] | sl[pos * 8 + 1] | sl[pos * 8 + 2] | sl[pos * 8 + 3]) {
      if (++pos == n_slots) pos = 0;
      probe++;
    }
    if (probe > max_probe) max_probe = probe;
    fc_wr32(sl + pos * 8, fp);
    fc_wr32(sl + pos * 8 + 4, e[i].flags);
  }
  fc_wr32(out + 4, (uint32_t)n_slots);
  fc_wr32(out + 8, (uint32_t)max_probe);
  fc_wr32(out + 12, tr->n_ids);
  fc_free(a, e);
  fc_free(a, pe);
  fc_free(a, cf);
  *segl = out;
  *segl_len = 16 + fl + n_slots * 8;
  return FENCI_OK;
}

/* Index of the bigram id pair key in tr->pflags, or n_pf when absent. */
static size_t fc_train_pfind(const fc_trainer *tr, uint32_t key) {
  size_t lo = 0, hi = tr->n_pf;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    uint32_t k = fc_rd32(tr->pflags + 8 * mid);
    if (k == key) return mid;
    if (k < key) lo = mid + 1;
    else hi = mid;
  }
  return tr->n_pf;
}

/* Flags of the bigram id pair key, 0 when absent. */
static uint32_t fc_train_pflags(const fc_trainer *tr, uint32_t key) {
  size_t x = fc_train_pfind(tr, key);
  return x < tr->n_pf ? fc_rd32(tr->pflags + 8 * x + 4) : 0;
}

static fenci_rc fc_train_tlex(fc_trainer *tr, fc_tdata *d, int folds, const fenci_model *lex, const char *words,
                              size_t words_len, uint8_t **segl, size_t *segl_len) {
  const fenci_alloc *a = tr->a;
  fc_wmap m = {NULL, NULL, 0};
  uint32_t *cnt = NULL;      /* (folds + 1) per word: per fold, then total */
  size_t n_words = 0, cap_cnt = 0, s, cap_bytes = 0, bytes_len = 0, i;
  size_t *woff = NULL, cap_woff = 0;
  uint8_t *bytes = NULL;
  fc_symbuf sb = {NULL, NULL, 0};
  fenci_rc rc = FENCI_OK;
  int pass;
  fc_unit *xu = NULL; /* units of an extra word */
  size_t xn = 0, xcap = 0, xgcap = 0;
  uint8_t *xg = NULL;
  if (folds < 2) folds = 2;
  m.cap = (size_t)1 << 18;
  m.key = fc_calloc(a, m.cap, sizeof *m.key);
  m.idx = fc_calloc(a, m.cap, sizeof *m.idx);
  d->l2 = fc_calloc(a, d->n_u ? d->n_u * 3 : 1, 1);
  if (!m.key || !m.idx || !d->l2) rc = FENCI_NOMEM;
  /* pass 0 counts the gold words (then the extra words, as one sentence
   * each, in the fold-less "fold" folds), pass 1 looks every span up */
  for (pass = 0; pass < 2 && rc == FENCI_OK; pass++) {
    const char *wp = words, *we = words ? words + words_len : NULL;
    for (s = 0; rc == FENCI_OK; s++) {
      const fc_unit *u;
      const uint8_t *gold;
      size_t n, fold = s % (size_t)folds, w0;
      if (s >= d->n_sent) { /* an extra word: all its units one word */
        const char *e, *t;
        if (pass == 1 || !wp) break;
        while (wp < we && (*wp == '\n' || *wp == '\r' || *wp == ' ' || *wp == '\t')) wp++;
        if (wp >= we) break;
        for (e = wp; e < we && *e != '\n'; e++) {
        }
        for (t = wp; t < e && *t != ' ' && *t != '\t' && *t != '\r'; t++) {
        }
        xn = 0;
        rc = fc_units_build(lex, NULL, (const uint8_t *)wp, (size_t)(t - wp), &xu, &xn, &xcap, a);
        wp = e;
        if (rc != FENCI_OK) break;
        if (xn == 0) continue;
        {
          void *p = xg;
          if (fc_grow(a, &p, &xgcap, xn, 1)) {
            rc = FENCI_NOMEM;
            break;
          }
          xg = p;
        }
        memset(xg, FC_TAG_M, xn);
        xg[xn - 1] = FC_TAG_E;
        u = xu;
        gold = xg;
        n = xn;
        fold = (size_t)folds;
      } else {
        /* other standards' sentences (multi-criteria) are looked up in the
         * target's words but add none: the shipped table has its words only */
        if (pass == 0 && d->std[s]) continue;
        u = d->u + d->su[s];
        gold = d->gold + d->su[s];
        n = d->su[s + 1] - d->su[s];
      }
      if (fc_symbuf_fill(&sb, a, &tr->sm, u, n)) {
        rc = FENCI_NOMEM;
        break;
      }
      if (pass == 0) {
        for (w0 = 0; w0 < n;) {
          size_t w1 = w0 + 1;
          uint64_t h = 0;
          while (w1 < n && gold[w1 - 1] != FC_TAG_E && gold[w1 - 1] != FC_TAG_S) w1++;
          if (w1 - w0 <= FC_FEAT_TLEX_MAX) {
            size_t slot;
            for (i = w0; i < w1; i++) h = fc_feat_wstep(h, sb.sym[FC_FEAT_PAD + i]);
            slot = fc_wmap_slot(&m, h);
            /* an extra word that is also a corpus word stays jackknifed */
            if (fold == (size_t)folds && m.key[slot]) {
              w0 = w1;
              continue;
            }
            if (!m.key[slot]) {
              void *p = cnt, *q = bytes, *r = woff;
              if (n_words * 2 + 2 > m.cap) { /* grow the map */
                fc_wmap nm;
                size_t k;
                nm.cap = m.cap * 2;
                nm.key = fc_calloc(a, nm.cap, sizeof *nm.key);
                nm.idx = fc_calloc(a, nm.cap, sizeof *nm.idx);
                if (!nm.key || !nm.idx) {
                  fc_free(a, nm.key);
                  fc_free(a, nm.idx);
                  rc = FENCI_NOMEM;
                  break;
                }
                for (k = 0; k < m.cap; k++)
                  if (m.key[k]) {
                    size_t z = fc_wmap_slot(&nm, m.key[k]);
                    nm.key[z] = m.key[k];
                    nm.idx[z] = m.idx[k];
                  }
                fc_free(a, m.key);
                fc_free(a, m.idx);
                m = nm;
                slot = fc_wmap_slot(&m, h);
              }
              if (fc_grow(a, &p, &cap_cnt, (n_words + 1) * (size_t)(folds + 1), sizeof *cnt) ||
                  fc_grow(a, &q, &cap_bytes, bytes_len + (w1 - w0) * FC_TW_B, 1) ||
                  fc_grow(a, &r, &cap_woff, n_words + 2, sizeof *woff)) {
                if (p) cnt = p;
                if (q) bytes = q;
                if (r) woff = r;
                rc = FENCI_NOMEM;
                break;
              }
              cnt = p;
              bytes = q;
              woff = r;
              memset(cnt + n_words * (size_t)(folds + 1), 0, (size_t)(folds + 1) * sizeof *cnt);
              for (i = w0; i < w1; i++) {
                uint32_t id = sb.sym[FC_FEAT_PAD + i];
                bytes[bytes_len + FC_TW_B * (i - w0)] = (uint8_t)(id >> 8);
                bytes[bytes_len + FC_TW_B * (i - w0) + 1] = (uint8_t)id;
              }
              woff[n_words] = bytes_len;
              bytes_len += (w1 - w0) * FC_TW_B;
              woff[n_words + 1] = bytes_len;
              m.key[slot] = h;
              m.idx[slot] = (uint32_t)n_words++;
            }
            if (fold < (size_t)folds) cnt[m.idx[slot] * (size_t)(folds + 1) + fold]++;
            cnt[m.idx[slot] * (size_t)(folds + 1) + (size_t)folds]++;
          }
          w0 = w1;
        }
      } else {
        uint8_t *l2 = d->l2 + 3 * d->su[s];
        for (w0 = 0; w0 < n; w0++) {
          uint64_t h = 0;
          size_t len;
          for (len = 1; len <= FC_FEAT_TLEX_MAX && w0 + len <= n; len++) {
            size_t slot;
            const uint32_t *c;
            h = fc_feat_wstep(h, sb.sym[FC_FEAT_PAD + w0 + len - 1]);
            slot = fc_wmap_slot(&m, h);
            if (!m.key[slot]) continue;
            c = cnt + m.idx[slot] * (size_t)(folds + 1);
            if (c[folds] - (d->std[s] ? 0 : c[fold]) == 0) continue; /* only in this fold */
            fc_tlex_mark(l2, w0, len);
          }
        }
      }
    }
  }
  fc_free(a, xu);
  fc_free(a, xg);
  if (rc == FENCI_OK) rc = fc_train_tlex_table(tr, bytes, woff, n_words, segl, segl_len);
  fc_free(a, m.key);
  fc_free(a, m.idx);
  fc_free(a, cnt);
  fc_free(a, bytes);
  fc_free(a, woff);
  fc_free(a, sb.sym);
  fc_free(a, sb.cls);
  return rc;
}

/* The symbol ids: symbols of the training units seen at least min_count
 * times, numbered from FC_ID_FIRST in order of first occurrence; the map in
 * its SEGW layout (tr->smap). */
static fenci_rc fc_train_symbols(fc_trainer *tr, const fc_tdata *d, uint32_t min_count) {
  const fenci_alloc *a = tr->a;
  fc_kmap m;
  size_t i, n_ext = 0, k;
  uint32_t next = FC_ID_FIRST;
  uint8_t *out;
  if (fc_kmap_init(&m, a, (size_t)1 << 14)) {
    fc_kmap_free(&m, a);
    return FENCI_NOMEM;
  }
  for (i = 0; i < d->n_u; i++) {
    uint64_t key = fc_feat_unit_sym(&d->u[i]) + 1u;
    size_t slot = fc_kmap_slot(&m, key);
    if (!m.key[slot]) {
      m.key[slot] = key;
      m.id[slot] = (int32_t)i; /* first occurrence */
      m.n++;
    }
    if (m.cnt[slot] < UINT32_MAX) m.cnt[slot]++;
    if (m.n * 2 > m.cap && fc_kmap_grow(&m, a)) {
      fc_kmap_free(&m, a);
      return FENCI_NOMEM;
    }
  }
  out = fc_calloc(a, 2 * FC_SYMMAP_DIRECT + 8 * m.n + 8, 1);
  if (!out) {
    fc_kmap_free(&m, a);
    return FENCI_NOMEM;
  }
  /* ids in order of first occurrence: walk the units again */
  for (i = 0; i < d->n_u && next < FC_FEAT_MAXID; i++) {
    uint32_t sym = fc_feat_unit_sym(&d->u[i]);
    size_t slot = fc_kmap_slot(&m, sym + 1u);
    if (m.id[slot] != (int32_t)i || m.cnt[slot] < min_count) continue;
    if (sym < FC_SYMMAP_DIRECT) {
      out[2 * sym] = (uint8_t)next;
      out[2 * sym + 1] = (uint8_t)(next >> 8);
    } else {
      fc_wr32(out + 2 * FC_SYMMAP_DIRECT + 8 * n_ext, sym);
      fc_wr32(out + 2 * FC_SYMMAP_DIRECT + 8 * n_ext + 4, next);
      n_ext++;
    }
    next++;
  }
  fc_kmap_free(&m, a);
  /* sort the extra pairs by symbol (insertion sort: there are few) */
  for (i = 1; i < n_ext; i++) {
    uint8_t tmp[8], *base = out + 2 * FC_SYMMAP_DIRECT;
    memcpy(tmp, base + 8 * i, 8);
    for (k = i; k > 0 && fc_rd32(base + 8 * (k - 1)) > fc_rd32(tmp); k--) memcpy(base + 8 * k, base + 8 * (k - 1), 8);
    memcpy(base + 8 * k, tmp, 8);
  }
  tr->smap = out;
  tr->smap_len = 2 * FC_SYMMAP_DIRECT + 8 * n_ext;
  tr->sm.direct = out;
  tr->sm.ext = out + 2 * FC_SYMMAP_DIRECT;
  tr->sm.n_ext = (uint32_t)n_ext;
  tr->n_ids = next;
  tr->sm.n_ids = next;
  return FENCI_OK;
}

/* Emission scores of sentence s with the current (not averaged) weights:
 * the shared copy, plus the sentence's standard's own. */
static void fc_train_emis(const fc_trainer *tr, const fc_tdata *d, size_t s, int32_t *emis) {
  size_t n = d->su[s + 1] - d->su[s];
  const int32_t *gid = d->gid + d->sg[s];
  int k;
  memset(emis, 0, n * 4 * sizeof *emis);
  for (k = 0; k < tr->n_types; k++) {
    int t = tr->types[k], nb = fc_feat_types[t].n_blocks, b;
    const int *off = fc_feat_types[t].off;
    const int32_t *w = tr->wt[t].w;
    const int32_t *ws = tr->n_copies > 1 ? w + (1 + (size_t)d->std[s]) * tr->nw[t] : NULL;
    ptrdiff_t j, lo, hi;
    fc_feat_anchors(t, n, &lo, &hi);
    for (j = lo; j < hi; j++) {
      int32_t g = gid[j - lo];
      if (g < 0) continue;
      for (b = 0; b < nb; b++) {
        ptrdiff_t i = j + off[b];
        if (i >= 0 && (size_t)i < n) {
          size_t at = ((size_t)g * (size_t)nb + (size_t)b) * 4;
          const int32_t *x = w + at;
          int32_t *e = emis + 4 * i;
          e[0] += x[0];
          e[1] += x[1];
          e[2] += x[2];
          e[3] += x[3];
          if (ws) {
            x = ws + at;
            e[0] += x[0];
            e[1] += x[1];
            e[2] += x[2];
            e[3] += x[3];
          }
        }
      }
    }
    gid += hi - lo;
  }
}

/* One weight's update, in the shared copy and (multi-criteria) in the copy
 * of standard std. */
static void fc_train_upd(fc_trainer *tr, int t, int32_t g, int b, int tag, int delta, int std) {
  size_t idx = (((size_t)g * (size_t)fc_feat_types[t].n_blocks + (size_t)b) * 4) + (size_t)tag;
  fc_avg_add(&tr->wt[t], idx, delta, tr->c);
  if (tr->n_copies > 1) fc_avg_add(&tr->wt[t], idx + (1 + (size_t)std) * tr->nw[t], delta, tr->c);
}

static void fc_train_tupd(fc_trainer *tr, int idx, int delta, int std) {
  fc_avg_add(&tr->tw, (size_t)idx, delta, tr->c);
  if (tr->n_copies > 1) fc_avg_add(&tr->tw, (size_t)idx + (1 + (size_t)std) * 24, delta, tr->c);
}

/* Perceptron update for sentence s: gold features +1, predicted -1. */
static void fc_train_update(fc_trainer *tr, const fc_tdata *d, size_t s, const uint8_t *pred) {
  size_t n = d->su[s + 1] - d->su[s], i;
  const uint8_t *gold = d->gold + d->su[s];
  int k, std = d->std[s];
  for (i = 0; i < n; i++) {
    const int32_t *gid = d->gid + d->sg[s];
    if (pred[i] == gold[i]) continue;
    for (k = 0; k < tr->n_types; k++) {
      int t = tr->types[k], nb = fc_feat_types[t].n_blocks, b;
      ptrdiff_t lo, hi;
      fc_feat_anchors(t, n, &lo, &hi);
      for (b = 0; b < nb; b++) {
        ptrdiff_t j = (ptrdiff_t)i - fc_feat_types[t].off[b];
        if (j >= lo && j < hi && gid[j - lo] >= 0) {
          fc_train_upd(tr, t, gid[j - lo], b, gold[i], 1, std);
          fc_train_upd(tr, t, gid[j - lo], b, pred[i], -1, std);
        }
      }
      gid += hi - lo;
    }
  }
  for (i = 0; i < n; i++) {
    if (i == 0) {
      if (gold[0] != pred[0]) {
        fc_train_tupd(tr, 16 + gold[0], 1, std);
        fc_train_tupd(tr, 16 + pred[0], -1, std);
      }
    } else if (gold[i - 1] != pred[i - 1] || gold[i] != pred[i]) {
      fc_train_tupd(tr, gold[i - 1] * 4 + gold[i], 1, std);
      fc_train_tupd(tr, pred[i - 1] * 4 + pred[i], -1, std);
    }
  }
  if (n && gold[n - 1] != pred[n - 1]) {
    fc_train_tupd(tr, 20 + gold[n - 1], 1, std);
    fc_train_tupd(tr, 20 + pred[n - 1], -1, std);
  }
}

/* ------------------------------------------------------------ writing */

/* The averaged weight idx of type t that the model gets: shared plus the
 * target standard's copy (copy 1). */
static double fc_train_wavg(const fc_trainer *tr, int t, size_t idx) {
  double v = fc_avg_value(&tr->wt[t], idx, tr->c);
  if (tr->n_copies > 1) v += fc_avg_value(&tr->wt[t], idx + tr->nw[t], tr->c);
  return v;
}

static double fc_train_tavg(const fc_trainer *tr, int k) {
  double v = fc_avg_value(&tr->tw, (size_t)k, tr->c);
  if (tr->n_copies > 1) v += fc_avg_value(&tr->tw, (size_t)k + 24, tr->c);
  return v;
}

/* Quantises the averaged weights and writes SEGH/SEGW into res.
 * *n_kept receives the number of groups with a non-zero weight. */
static fenci_rc fc_train_sections(const fc_trainer *tr, int prune, uint8_t **segh, size_t *segh_len,
                                  uint8_t **segw, size_t *segw_len, size_t *n_kept) {
  const fenci_alloc *a = tr->a;
  double mx = 0, scale;
  size_t total_w, kept = 0;
  int k, n_tabs = 0;
  uint8_t *h, *wb = NULL;
  int16_t *q = NULL;
  size_t q_cap = 0;
  uint32_t rec[FC_G_NTYPES][8];
  *segh = NULL;
  *segw = NULL;
  for (k = 0; k < tr->n_types; k++) {
    int t = tr->types[k];
    size_t i, nw = tr->n_groups[t] * (size_t)fc_feat_types[t].n_blocks * 4;
    for (i = 0; i < nw; i++) {
      double v = fabs(fc_train_wavg(tr, t, i));
      if (v > mx) mx = v;
    }
    if (nw > q_cap) q_cap = nw;
  }
  scale = mx > 0 ? 32767.0 / mx : 1.0;
  q = fc_malloc(a, (q_cap ? q_cap : 1) * sizeof *q);
  /* SEGW starts with the symbol map */
  total_w = (tr->smap_len + 3) & ~(size_t)3;
  wb = fc_calloc(a, total_w, 1);
  if (!q || !wb) {
    fc_free(a, q);
    fc_free(a, wb);
    return FENCI_NOMEM;
  }
  memcpy(wb, tr->smap, tr->smap_len);
  for (k = 0; k < tr->n_types; k++) {
    int t = tr->types[k], nb = fc_feat_types[t].n_blocks, layout = fc_segmodel_layout(t);
    size_t gw = (size_t)nb * 4, g, i, n_ent = 0, n_slots, max_probe = 0, pf = 0, pfo = 0, pfx = 0;
    size_t slot_size = 4 * (size_t)nb + (layout == 1 ? 0 : layout == 2 ? 8 : 4);
    int shift = 0;
    long qmax = 0;
    uint8_t *tab;
    void *p;
    for (g = 0; g < tr->n_groups[t]; g++) {
      for (i = 0; i < gw; i++) {
        size_t idx = g * gw + i;
        double v = fc_train_wavg(tr, t, idx) * scale;
        long r = lround(v);
        if (r > 32767) r = 32767;
        if (r < -32767) r = -32767;
        if (r <= prune && r >= -prune) r = 0;
        q[idx] = (int16_t)r;
        if (labs(r) > qmax) qmax = labs(r);
      }
    }
    /* int8 weights: w = q8 << shift, with the least shift that fits the table */
    while ((qmax + (1L << shift) / 2) >> shift > 127) shift++;
    for (g = 0; g < tr->n_groups[t]; g++) {
      int any = 0;
      for (i = 0; i < gw; i++) {
        size_t idx = g * gw + i;
        long r = lround((double)q[idx] / (double)(1L << shift));
        if (r > 127) r = 127;
        if (r < -127) r = -127;
        q[idx] = (int16_t)r;
        any |= r != 0;
      }
      n_ent += any;
    }
    if (t == FC_G_BI) { /* pair slots also for the training-word lexicon's two-unit strings */
      for (g = 0; g < tr->n_groups[t]; g++) {
        uint64_t key = tr->gkey[t][g];
        int any = 0;
        for (i = 0; i < gw; i++) any |= q[g * gw + i] != 0;
        if (!any && fc_train_pflags(tr, FC_FEAT_KA(key) | FC_FEAT_KB(key) << 16)) {
          n_ent++;
          pf++; /* a slot for the flags only */
        }
      }
      for (i = 0; i < tr->n_pf; i++) pfo += !tr->pf_has[i]; /* no group at all */
      n_ent += pfo;
      pf += pfo;
    }
    if (layout == 1) n_slots = fc_feat_dense_rows(t, tr->n_ids);
    else {
      if (!n_ent) continue;
      /* load 0.6; 0.75 for the big pair tables (slots of one or two cache lines) */
      n_slots = layout == 2 ? n_ent + n_ent / 3 + 1 : n_ent + n_ent * 2 / 3 + 1;
    }
    if (n_slots > UINT32_MAX || total_w + n_slots * slot_size > UINT32_MAX) {
      fc_free(a, q);
      fc_free(a, wb);
      return FENCI_NOMEM;
    }
    p = fc_realloc(a, wb, total_w + n_slots * slot_size);
    if (!p) {
      fc_free(a, q);
      fc_free(a, wb);
      return FENCI_NOMEM;
    }
    wb = p;
    tab = wb + total_w;
    memset(tab, 0, n_slots * slot_size);
    for (g = 0; g < tr->n_groups[t] + pfo; g++) {
      uint64_t key;
      const int16_t *wq;
      uint8_t *dst;
      uint32_t flags = 0;
      int any = 0;
      static const int16_t zero[4 * FC_FEAT_MAXB];
      if (g < tr->n_groups[t]) {
        key = tr->gkey[t][g];
        wq = q + g * gw;
        for (i = 0; i < gw; i++) any |= wq[i] != 0;
      } else { /* the pair flags without a group, in pair-key order */
        uint32_t pk;
        while (tr->pf_has[pfx]) pfx++;
        pk = fc_rd32(tr->pflags + 8 * pfx++);
        key = FC_FEAT_PACK(t, pk & 0xFFFF, pk >> 16, 0);
        wq = zero;
      }
      if (layout == 2 && t == FC_G_BI) flags = fc_train_pflags(tr, FC_FEAT_KA(key) | FC_FEAT_KB(key) << 16);
      if (!any && !flags) continue;
      if (layout == 1) {
        dst = tab + fc_feat_dense_row(t, key) * slot_size;
      } else {
        uint32_t pk = FC_FEAT_KA(key) | FC_FEAT_KB(key) << 16;
        uint64_t mix = layout == 2 ? fc_feat_pairmix(pk) : fc_feat_mix(key);
        uint32_t fp = layout == 2 ? pk : ((uint32_t)mix ? (uint32_t)mix : 1);
        uint64_t pos = ((mix >> 32) * (uint64_t)n_slots) >> 32;
        size_t probe = 0;
        while (tab[pos * slot_size] | tab[pos * slot_size + 1] | tab[pos * slot_size + 2] | tab[pos * slot_size + 3]) {
          if (++pos == n_slots) pos = 0;
          probe++;
        }
        if (probe > max_probe) max_probe = probe;
        fc_wr32(tab + pos * slot_size, fp);
        dst = tab + pos * slot_size + 4;
        if (layout == 2) {
          fc_wr32(dst, flags);
          dst += 4;
        }
      }
      for (i = 0; i < gw; i++) dst[i] = (uint8_t)(int8_t)wq[i];
    }
    rec[n_tabs][0] = (uint32_t)t;
    rec[n_tabs][1] = (uint32_t)nb;
    rec[n_tabs][2] = (uint32_t)n_slots;
    rec[n_tabs][3] = (uint32_t)max_probe;
    rec[n_tabs][4] = (uint32_t)(n_ent < n_slots ? n_ent : n_slots);
    rec[n_tabs][5] = (uint32_t)total_w;
    rec[n_tabs][6] = (uint32_t)layout;
    rec[n_tabs][7] = (uint32_t)shift;
    n_tabs++;
    total_w += n_slots * slot_size;
    kept += n_ent - pf;
  }
  fc_free(a, q);
  h = fc_calloc(a, 128 + 32 * (size_t)n_tabs, 1);
  if (!h) {
    fc_free(a, wb);
    return FENCI_NOMEM;
  }
  memcpy(h, "FCSG", 4);
  fc_wr32(h + 4, FC_FEAT_VERSION);
  fc_wr32(h + 8, (uint32_t)n_tabs);
  fc_wr32(h + 12, tr->n_ids);
  for (k = 0; k < 24; k++) {
    double v = fc_train_tavg(tr, k) * scale;
    if (v > (1 << 29)) v = (1 << 29);
    if (v < -(1 << 29)) v = -(1 << 29);
    fc_wr32(h + 16 + 4 * k, (uint32_t)(int32_t)lround(v));
  }
  fc_wr32(h + 112, 0); /* symbol map offset in SEGW */
  fc_wr32(h + 116, tr->sm.n_ext);
  for (k = 0; k < n_tabs; k++) {
    int f;
    for (f = 0; f < 8; f++) fc_wr32(h + 128 + 32 * k + 4 * f, rec[k][f]);
  }
  *segh = h;
  *segh_len = 128 + 32 * (size_t)n_tabs;
  *segw = wb;
  *segw_len = total_w;
  *n_kept = kept;
  return FENCI_OK;
}

/* ------------------------------------------------------------ evaluation */

/* Adds to sc the word counts of tags (for units u) against the gold word
 * ends of corpus sentence s. */
static void fc_train_score(const fc_corpus *c, size_t s, const fc_unit *u, size_t n, const uint8_t *tags,
                           fc_prf *sc) {
  size_t gw = c->sent_w[s], ge = c->sent_w[s + 1], gstart = 0, i, pstart = 0;
  sc->gold += ge - gw;
  /* Walk predicted words in order; both lists are sorted by start. */
  for (i = 0; i < n; i++) {
    int end = tags[i] == FC_TAG_E || tags[i] == FC_TAG_S || i + 1 == n ||
              tags[i + 1] == FC_TAG_B || tags[i + 1] == FC_TAG_S;
    if (!end) continue;
    {
      size_t ps = pstart, pe = u[i].end;
      sc->pred++;
      while (gw < ge && c->wend[gw] <= ps) {
        gstart = c->wend[gw];
        gw++;
      }
      /* gold word [gstart, wend[gw]) is the first ending after ps */
      if (gw < ge && gstart == ps && c->wend[gw] == pe) sc->correct++;
      pstart = pe;
    }
  }
}

static fenci_rc fc_train_eval(const fc_tdata *dv, const fc_corpus *dev, const uint8_t *segh, size_t segh_len,
                              const uint8_t *segw, size_t segw_len, const uint8_t *segl, size_t segl_len,
                              const fenci_alloc *a, fc_prf *sc, char *err, size_t errlen) {
  fc_file f;
  fc_segmodel *sm = NULL;
  fc_segscratch *ss = NULL;
  uint8_t *tags = NULL;
  size_t s, cap = 0;
  fenci_rc rc;
  memset(&f, 0, sizeof f);
  memset(sc, 0, sizeof *sc);
  f.n_sections = 2;
  memcpy(f.sec[0].tag, "SEGH", 4);
  f.sec[0].data = segh;
  f.sec[0].size = segh_len;
  memcpy(f.sec[1].tag, "SEGW", 4);
  f.sec[1].data = segw;
  f.sec[1].size = segw_len;
  if (segl) {
    f.n_sections = 3;
    memcpy(f.sec[2].tag, "SEGL", 4);
    f.sec[2].data = segl;
    f.sec[2].size = segl_len;
  }
  rc = fc_segmodel_load(&sm, &f, a, err, errlen);
  if (rc == FENCI_OK && !sm) rc = FENCI_BADFORMAT;
  if (rc == FENCI_OK) rc = fc_segscratch_new(&ss, a);
  for (s = 0; s < dv->n_sent && rc == FENCI_OK; s++) {
    size_t n = dv->su[s + 1] - dv->su[s];
    void *p = tags;
    if (fc_grow(a, &p, &cap, n + 1, 1)) {
      rc = FENCI_NOMEM;
      break;
    }
    tags = p;
    rc = fc_segmodel_tag(sm, ss, dv->u + dv->su[s], n, tags);
    if (rc == FENCI_OK) fc_train_score(dev, s, dv->u + dv->su[s], n, tags, sc);
  }
  fc_free(a, tags);
  fc_segscratch_free(ss, a);
  fc_segmodel_free(sm, a);
  return rc;
}

/* ------------------------------------------------------------ driver */

static int fc_train_logf(const fc_train_opts *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static int fc_train_logf(const fc_train_opts *o, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  if (!o->log) return 0;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return o->log(o->log_ctx, msg);
}

static void fc_train_mask_names(unsigned mask, char *out, size_t outlen) {
  int t;
  size_t len = 0;
  out[0] = 0;
  for (t = 0; t < FC_G_NTYPES; t++)
    if (mask & (1u << t)) {
      int w = snprintf(out + len, outlen - len, "%s%s", len ? "," : "", fc_feat_types[t].name);
      if (w < 0 || (size_t)w >= outlen - len) break;
      len += (size_t)w;
    }
}

void fc_train_result_free(fc_train_result *r, const fenci_alloc *a) {
  fc_free(a, r->segh);
  fc_free(a, r->segw);
  fc_free(a, r->segl);
  fc_free(a, r->meta);
  memset(r, 0, sizeof *r);
}

/* The segmenter as a task of the perceptron core (perceptron.h). */
typedef struct fc_segtask {
  fc_trainer *tr;
  const fc_tdata *td, *dv;
  const fc_corpus *dev;
  const fc_train_opts *o;
  fc_train_result *res;
  const fenci_alloc *a;
  int32_t *emis;
  uint8_t *bp, *pred;
  uint8_t *segh, *segw; /* the last snapshot */
  size_t segh_len, segw_len, kept;
  fc_prf sc;
  clock_t t0;
  char *err;
  size_t errlen;
} fc_segtask;

static fenci_rc fc_segtask_learn(void *ctx, size_t x, int64_t clock, size_t *wrong, size_t *total) {
  fc_segtask *st = ctx;
  fc_trainer *tr = st->tr;
  const fc_tdata *td = st->td;
  size_t n = td->su[x + 1] - td->su[x], i;
  const uint8_t *gold = td->gold + td->su[x];
  const int32_t *tw = tr->tw.w;
  int32_t ctw[24];
  int k;
  tr->c = clock;
  *total = n;
  if (!n) return FENCI_OK;
  if (tr->n_copies > 1) { /* shared plus the sentence's standard's transitions */
    for (k = 0; k < 24; k++) ctw[k] = tr->tw.w[k] + tr->tw.w[(1 + td->std[x]) * 24 + k];
    tw = ctw;
  }
  fc_train_emis(tr, td, x, st->emis);
  fc_seg_viterbi(st->emis, n, tw, tw + 16, tw + 20, td->u + td->su[x], st->bp, st->pred);
  for (i = 0; i < n; i++) *wrong += st->pred[i] != gold[i]; /* from 0 (perceptron.h) */
  if (*wrong) fc_train_update(tr, td, x, st->pred);
  return FENCI_OK;
}

static fenci_rc fc_segtask_snapshot(void *ctx, int64_t clock, double *score) {
  fc_segtask *st = ctx;
  fenci_rc rc;
  st->tr->c = clock;
  memset(&st->sc, 0, sizeof st->sc);
  rc = fc_train_sections(st->tr, st->o->prune, &st->segh, &st->segh_len, &st->segw, &st->segw_len, &st->kept);
  if (rc == FENCI_OK && st->dv->n_sent)
    rc = fc_train_eval(st->dv, st->dev, st->segh, st->segh_len, st->segw, st->segw_len, st->res->segl,
                       st->res->segl_len, st->a, &st->sc, st->err, st->errlen);
  *score = st->dv->n_sent ? fc_prf_f1(&st->sc) : 0;
  return rc;
}

static void fc_segtask_choose(void *ctx, int keep) {
  fc_segtask *st = ctx;
  fc_train_result *res = st->res;
  if (keep) {
    fc_free(st->a, res->segh);
    fc_free(st->a, res->segw);
    res->segh = st->segh;
    res->segh_len = st->segh_len;
    res->segw = st->segw;
    res->segw_len = st->segw_len;
    res->dev_f1 = st->dv->n_sent ? fc_prf_f1(&st->sc) : 0;
    res->n_groups = st->kept;
  } else {
    fc_free(st->a, st->segh);
    fc_free(st->a, st->segw);
  }
  st->segh = st->segw = NULL;
}

static int fc_segtask_report(void *ctx, const fc_pcp_iter *it) {
  const fc_segtask *st = ctx;
  const fc_prf *sc = &st->sc;
  int dev = st->dv->n_sent != 0;
  return fc_train_logf(st->o, "iter %d/%d: %zu sentences wrong (%.2f%% unit tags), dev P %.4f R %.4f F1 %.4f, %zu groups, %.1fs",
                       it->iter, it->iters, it->examples_wrong,
                       it->total ? 100.0 * (double)it->wrong / (double)it->total : 0.0,
                       sc->pred && dev ? (double)sc->correct / (double)sc->pred : 0.0,
                       sc->gold && dev ? (double)sc->correct / (double)sc->gold : 0.0, dev ? fc_prf_f1(sc) : 0.0,
                       st->kept, (double)(clock() - st->t0) / CLOCKS_PER_SEC);
}

fenci_rc fc_train_segmenter(const fenci_model *lex, const fc_corpus *train, const fc_corpus *dev,
                            const fc_train_opts *opts, const fenci_alloc *a, fc_train_result *res,
                            char *err, size_t errlen) {
  fc_train_opts o;
  fc_trainer tr;
  fc_tdata td, dv;
  fc_segtask st;
  fc_pcp_task task;
  fc_pcp_opts po;
  fc_pcp_result pr;
  size_t max_n = 0, s, n_groups = 0;
  int k;
  char names[128];
  fenci_rc rc;

  memset(res, 0, sizeof *res);
  memset(&st, 0, sizeof st);
  memset(&pr, 0, sizeof pr);
  if (!lex || !train) return FENCI_BADARG;
  if (opts) o = *opts;
  else fc_train_opts_init(&o);
  if (!o.mask) o.mask = FC_FEAT_DEFAULT_MASK;
  if (o.iters <= 0) o.iters = 10;
  if (train->n_sent == 0) {
    fc_errf(err, errlen, "empty training corpus");
    return FENCI_BADARG;
  }
  memset(&tr, 0, sizeof tr);
  memset(&td, 0, sizeof td);
  memset(&dv, 0, sizeof dv);
  tr.a = a;
  tr.mask = o.mask & ((1u << FC_G_NTYPES) - 1);
  /* the training-word lexicon keeps its two-unit strings in the bigram table */
  if (tr.mask & ((1u << FC_G_TLEX) | (1u << FC_G_TLEXU))) tr.mask |= 1u << FC_G_BI;
  for (k = 0; k < FC_G_NTYPES; k++)
    if (tr.mask & (1u << k)) tr.types[tr.n_types++] = k;
  fc_train_mask_names(tr.mask, names, sizeof names);

  if (o.n_also > FC_TRAIN_MAX_ALSO) {
    fc_errf(err, errlen, "at most %d corpora of other standards", FC_TRAIN_MAX_ALSO);
    return FENCI_BADARG;
  }
  tr.n_copies = o.n_also ? 2 + (int)o.n_also : 1;
  rc = fc_tdata_units(&td, lex, train, 0, a);
  for (k = 0; k < (int)o.n_also && rc == FENCI_OK; k++) rc = fc_tdata_units(&td, lex, o.also[k], (uint8_t)(k + 1), a);
  if (rc == FENCI_OK && dev && dev->n_sent) rc = fc_tdata_units(&dv, lex, dev, 0, a);
  if (rc == FENCI_OK) rc = fc_train_symbols(&tr, &td, o.sym_min_count ? o.sym_min_count : 1);
  if (rc == FENCI_OK && (tr.mask & ((1u << FC_G_TLEX) | (1u << FC_G_TLEXU))))
    rc = fc_train_tlex(&tr, &td, o.folds, lex, o.words, o.words_len, &res->segl, &res->segl_len);
  if (rc == FENCI_OK) rc = fc_train_index(&tr, &td, o.min_count ? o.min_count : 1);
  if (rc == FENCI_OK && fc_avg_init(&tr.tw, (size_t)tr.n_copies * 24, a)) rc = FENCI_NOMEM;
  if (rc == FENCI_OK) {
    for (k = 0; k < tr.n_types; k++) n_groups += tr.n_groups[tr.types[k]];
    if (fc_train_logf(&o, "training: %zu sentences, %zu units; dev: %zu sentences; templates %s; %zu feature groups (min count %u)",
                      td.n_sent, td.n_u, dv.n_sent, names, n_groups, (unsigned)o.min_count))
      rc = FENCI_STOPPED;
  }
  if (rc == FENCI_OK) {
    for (s = 0; s < td.n_sent; s++)
      if (td.su[s + 1] - td.su[s] > max_n) max_n = td.su[s + 1] - td.su[s];
    st.emis = fc_malloc(a, (max_n + 1) * 4 * sizeof *st.emis);
    st.bp = fc_malloc(a, (max_n + 1) * 4);
    st.pred = fc_malloc(a, max_n + 1);
    if (!st.emis || !st.bp || !st.pred) rc = FENCI_NOMEM;
  }
  if (rc == FENCI_OK) {
    st.tr = &tr;
    st.td = &td;
    st.dv = &dv;
    st.dev = dev;
    st.o = &o;
    st.res = res;
    st.a = a;
    st.t0 = clock();
    st.err = err;
    st.errlen = errlen;
    task = (fc_pcp_task){.ctx = &st, .n_examples = td.n_sent, .has_dev = dv.n_sent != 0,
                         .learn = fc_segtask_learn, .snapshot = fc_segtask_snapshot,
                         .choose = fc_segtask_choose, .report = fc_segtask_report};
    po = (fc_pcp_opts){.iters = o.iters, .patience = o.patience, .seed = o.seed};
    rc = fc_pcp_train(&task, &po, a, &pr);
    res->best_iter = pr.best_iter;
  }
  if (rc == FENCI_OK) {
    fc_buf mb;
    char line[512];
    fc_buf_init(&mb, a);
    snprintf(line, sizeof line,
             "segmenter=bmes-averaged-perceptron\nfeature_version=%d\ntemplates=%s\nmin_count=%u\nsym_min_count=%u\nsymbol_ids=%u\nprune=%d\n"
             "folds=%d\nseed=%llu\niterations=%d\nbest_iteration=%d\ndev_f1=%.4f\ntrain_sentences=%zu\ntrain_units=%zu\n"
             "dev_sentences=%zu\nfeature_groups=%zu\n",
             FC_FEAT_VERSION, names, (unsigned)o.min_count, (unsigned)(o.sym_min_count ? o.sym_min_count : 1),
             (unsigned)tr.n_ids, o.prune, o.folds, (unsigned long long)o.seed,
             pr.ran, res->best_iter, res->dev_f1 * 100, td.n_sent, td.n_u, dv.n_sent, res->n_groups);
    if (o.n_also) { /* multi-criteria: say so (single-standard models keep their bytes) */
      size_t l = strlen(line);
      snprintf(line + l, sizeof line - l, "other_standards=%zu\n", o.n_also);
    }
    if (fc_buf_put(&mb, line, strlen(line)) || (o.meta && fc_buf_put(&mb, o.meta, strlen(o.meta))) ||
        !fc_buf_cstr(&mb)) {
      fc_buf_free(&mb);
      rc = FENCI_NOMEM;
    } else {
      res->meta = (char *)mb.data;
      res->meta_len = mb.len;
    }
  }
  if (rc != FENCI_OK) fc_train_result_free(res, a);
  fc_free(a, st.segh); /* a snapshot not chosen (training stopped in between) */
  fc_free(a, st.segw);
  fc_free(a, st.emis);
  fc_free(a, st.bp);
  fc_free(a, st.pred);
  fc_trainer_free(&tr);
  fc_tdata_free(&td, a);
  fc_tdata_free(&dv, a);
  return rc;
}

fenci_rc fc_train_write_model(const fenci_model *lex, const fc_train_result *r, const char *lex_ref,
                              const fenci_alloc *a, uint8_t **out, size_t *out_len, char *err, size_t errlen) {
  const fc_file *f = fc_model_file(lex);
  static const char *const tags[4] = {"LREF", "SEGH", "SEGW", "SEGL"};
  const void *data[4] = {NULL, r->segh, r->segw, r->segl};
  size_t lens[4] = {0, r->segh_len, r->segw_len, r->segl_len};
  fc_buf meta, ref;
  size_t mlen = 0;
  const char *lm = fenci_model_meta(lex, &mlen);
  fenci_rc rc = FENCI_OK;
  fc_buf_init(&meta, a);
  fc_buf_init(&ref, a);
  if (lex_ref) {
    const fc_section *h = fc_fmt_find(f, "LEXH");
    uint32_t id = h && h->size >= FC_LEXH_SIZE ? fc_rd32(h->data + FC_LEXH_ID_OFF) : 0;
    size_t n = strlen(lex_ref);
    if (!id || n == 0 || n > 255 || strchr(lex_ref, '/')) {
      fc_errf(err, errlen, !id ? "the lexicon has no id (compiled by an older fenci): recompile it"
                               : "the lexicon reference must be a plain file name");
      return FENCI_BADARG;
    }
    if (fc_buf_u32(&ref, id) || fc_buf_u32(&ref, (uint32_t)n) || fc_buf_put(&ref, lex_ref, n)) rc = FENCI_NOMEM;
    data[0] = ref.data;
    lens[0] = ref.len;
  }
  /* a referencing model's META is its own: the lexicon's is read from
   * the lexicon file at open, so retraining the taggers there changes
   * no byte of the segmenters */
  if (rc == FENCI_OK &&
      ((!lex_ref && lm && mlen && (fc_buf_put(&meta, lm, mlen) || (lm[mlen - 1] != '\n' && fc_buf_putc(&meta, '\n')))) ||
       fc_buf_put(&meta, r->meta, r->meta_len)))
    rc = FENCI_NOMEM;
  /* referenced, the lexicon's sections are not copied */
  if (rc == FENCI_OK) rc = fc_fmt_rewrite(lex_ref ? NULL : f, 4, tags, data, lens, meta.data, meta.len, a, out, out_len);
  if (rc != FENCI_OK) fc_errf(err, errlen, "writing the model: %s", fenci_rc_str(rc));
  fc_buf_free(&meta);
  fc_buf_free(&ref);
  return rc;
}
