/* chaintrain.c - training the linear-chain labeller of every labelling
 * task (chaintrain.h) with the averaged perceptron of perceptron.c: this
 * file counts and keeps the features, decodes each sequence with the
 * runtime decoder itself (chain.c, with the beam of use or, when the task
 * asks, a wider one), updates, and quantises the averages into the
 * labeller section. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "chain.h"
#include "train/chaintrain.h"
#include "train/perceptron.h"

void fc_chain_data_init(fc_chain_data *d, const fenci_alloc *a) {
  memset(d, 0, sizeof *d);
  d->a = fc_alloc_resolve(a);
}

void fc_chain_data_free(fc_chain_data *d) {
  fc_free(&d->a, d->key);
  fc_free(&d->a, d->koff);
  fc_free(&d->a, d->gold);
  fc_free(&d->a, d->seq);
  fc_chain_data_init(d, &d->a);
}

int fc_chain_data_add(fc_chain_data *d, const uint64_t *keys, size_t n, uint8_t gold) {
  void *k = d->key, *o = d->koff, *g = d->gold, *s = d->seq;
  if (fc_grow(&d->a, &k, &d->cap_key, d->n_key + n, sizeof *d->key)) return -1;
  d->key = k;
  if (fc_grow(&d->a, &s, &d->cap_seq, d->n_seq + 2, sizeof *d->seq)) return -1;
  d->seq = s;
  if (fc_grow(&d->a, &o, &d->cap_pos, d->n_pos + 2, sizeof *d->koff)) return -1;
  d->koff = o;
  if (fc_grow(&d->a, &g, &d->cap_gold, d->n_pos + 2, 1)) return -1;
  d->gold = g;
  if (d->n_pos == 0) d->koff[0] = 0;
  if (d->n_seq == 0) d->seq[0] = 0;
  memcpy(d->key + d->n_key, keys, n * sizeof *keys);
  d->n_key += n;
  d->gold[d->n_pos++] = gold;
  d->koff[d->n_pos] = d->n_key;
  return 0;
}

int fc_chain_data_end(fc_chain_data *d) {
  if (d->n_pos == 0 || (d->n_seq && d->seq[d->n_seq] == d->n_pos)) return 0;
  d->seq[++d->n_seq] = d->n_pos;
  return 0;
}

/* ---- key -> value map (keys are never 0: the template byte is not) */

typedef struct ct_map {
  uint64_t *k;
  uint32_t *v;
  size_t cap, n; /* cap a power of two */
} ct_map;

static int ct_map_grow(ct_map *m, const fenci_alloc *a) {
  size_t nc = m->cap ? m->cap * 2 : 1 << 16, i;
  uint64_t *k = fc_calloc(a, nc, sizeof *k);
  uint32_t *v = fc_calloc(a, nc, sizeof *v);
  if (!k || !v) {
    fc_free(a, k);
    fc_free(a, v);
    return -1;
  }
  for (i = 0; i < m->cap; i++)
    if (m->k[i]) {
      size_t h = (size_t)fc_chain_mix(m->k[i]) & (nc - 1);
      while (k[h]) h = (h + 1) & (nc - 1);
      k[h] = m->k[i];
      v[h] = m->v[i];
    }
  fc_free(a, m->k);
  fc_free(a, m->v);
  m->k = k;
  m->v = v;
  m->cap = nc;
  return 0;
}

/* The value slot of key, inserted as 0 when absent; NULL without memory. */
static uint32_t *ct_map_at(ct_map *m, uint64_t key, const fenci_alloc *a) {
  size_t h;
  if ((m->n + 1) * 2 > m->cap && ct_map_grow(m, a)) return NULL;
  h = (size_t)fc_chain_mix(key) & (m->cap - 1);
  while (m->k[h] && m->k[h] != key) h = (h + 1) & (m->cap - 1);
  if (!m->k[h]) {
    m->k[h] = key;
    m->v[h] = 0;
    m->n++;
  }
  return &m->v[h];
}

static const uint32_t *ct_map_get(const ct_map *m, uint64_t key) {
  size_t h;
  if (!m->cap) return NULL;
  h = (size_t)fc_chain_mix(key) & (m->cap - 1);
  while (m->k[h] && m->k[h] != key) h = (h + 1) & (m->cap - 1);
  return m->k[h] ? &m->v[h] : NULL;
}

static void ct_map_free(ct_map *m, const fenci_alloc *a) {
  fc_free(a, m->k);
  fc_free(a, m->v);
  memset(m, 0, sizeof *m);
}

/* ---- the trainer state */

typedef struct ct_state {
  const fc_chain_opts *o;
  const fenci_alloc *a;
  uint32_t L;
  size_t F;          /* features kept */
  uint64_t *fkey;    /* F keys, in order of first occurrence */
  fc_avg fw;         /* F * L weights (perceptron.h) */
  fc_avg tw;         /* L * (L + 2): transitions, start, end */
  uint32_t *fid;     /* per training key: feature id or UINT32_MAX */
  uint32_t *fcount;  /* F counts in training: how often decoding asks, roughly */
  int64_t c;         /* the perceptron's clock */
} ct_state;

#define CT_NONE 0xFFFFFFFFu
#define CT_T(s, p, q) ((p) * (s)->L + (q)) /* index of a transition in tw */
#define CT_S(s, q) ((s)->L * (s)->L + (q))
#define CT_E(s, q) ((s)->L * (s)->L + (s)->L + (q))

static int ct_forbidden(const fc_chain_opts *o, uint32_t L, size_t i) {
  if (i < (size_t)L * L) return o->forbid && o->forbid[i];
  if (i < (size_t)L * L + L) return o->forbid_start && o->forbid_start[i - (size_t)L * L];
  return o->forbid_end && o->forbid_end[i - (size_t)L * L - L];
}

/* The quantised pairs of feature f (label | off << 8 | weight << 16: off
 * the offset its slot's anchor scores, 0 but for grouped keys), appended
 * to pr; their count. */
static size_t ct_pairs(const ct_state *s, size_t f, double scale, int off, uint32_t *pr) {
  size_t np = 0;
  uint32_t i;
  for (i = 0; i < s->L; i++) {
    long q = lround(fc_avg_value(&s->fw, f * s->L + i, s->c) * scale);
    if (labs(q) > s->o->prune) {
      if (q > 32767) q = 32767;
      if (q < -32767) q = -32767;
      pr[np++] = i | (uint32_t)(uint8_t)(int8_t)off << 8 | (uint32_t)(uint16_t)(int16_t)q << 16;
    }
  }
  return np;
}

/* The key a feature is stored under (its anchor's, for grouped templates)
 * and the offset of its pairs. */
static uint64_t ct_slot_key(const fc_chain_opts *o, uint64_t k, int *off) {
  *off = 0;
  if (!o->group_mask || !fc_chain_key_grouped(o->group_mask, k)) return k;
  *off = fc_chain_gkey_off(k);
  return fc_chain_gkey_anchor(k);
}

/* Features in the order they are stored: by first occurrence; with groups
 * by slot key, then offset, so the members of a slot come together. */
static const ct_state *ct_sort_state;
static int ct_order_cmp(const void *x, const void *y) {
  const ct_state *s = ct_sort_state;
  size_t a = *(const size_t *)x, b = *(const size_t *)y;
  int oa, ob;
  uint64_t ka = ct_slot_key(s->o, s->fkey[a], &oa), kb = ct_slot_key(s->o, s->fkey[b], &ob);
  if (ka != kb) return ka < kb ? -1 : 1;
  if (oa != ob) return oa < ob ? -1 : 1;
  return a < b ? -1 : a > b;
}

/* The pairs of the slot whose members start at order[*at] into pr (room
 * for CT_SLOT_PAIRS); advances *at past them; *single: one ungrouped
 * feature.  Returns the count. */
#define CT_SLOT_PAIRS ((2 * FC_CHAIN_MAX_OFF + 1) * FC_CHAIN_MAX_LABELS)
static size_t ct_slot_pairs(const ct_state *s, const size_t *order, size_t *at, double scale, uint32_t *pr,
                            uint64_t *key, int *single) {
  size_t np = 0, j = *at;
  int off;
  uint64_t k = ct_slot_key(s->o, s->fkey[order[j]], &off);
  *key = k;
  *single = !(s->o->group_mask && fc_chain_key_grouped(s->o->group_mask, s->fkey[order[j]]));
  do {
    /* a member per offset; a slot holds at most 253 pairs (the decoder's
     * count is a byte): a task's groups stay below (POS: 5 x 44 labels) */
    if (np + s->L <= CT_SLOT_PAIRS) np += ct_pairs(s, order[j], scale, off, pr + np);
    if (np > 253) np = 253;
    j++;
  } while (!*single && j < s->F && ct_slot_key(s->o, s->fkey[order[j]], &off) == k);
  *at = j;
  return np;
}

/* Features with this many labels weighted are stored as dense rows: 12,
 * or fewer when a row takes no more bytes than the pairs (half the labels:
 * the name recogniser's 13 labels), since a row is added with vector
 * instructions and each pair with a test and a store. */
#define CT_DENSE_AT 12
static size_t ct_dense_at(uint32_t L) { return (L + 1) / 2 < CT_DENSE_AT ? (L + 1) / 2 : CT_DENSE_AT; }
#ifndef CT_GROWS_AT
#define CT_GROWS_AT 2
#endif

/* A grouped slot's pairs as rows (FC_CHAIN_GDENSE): the offsets it spans
 * (*lo, *noff) and the words the rows take, header included. */
static size_t ct_grows(const uint32_t *pr, size_t np, uint32_t L, int *lo, int *noff) {
  int mn = 127, mx = -128;
  size_t k;
  for (k = 0; k < np; k++) {
    int o = (int8_t)(uint8_t)(pr[k] >> 8);
    if (o < mn) mn = o;
    if (o > mx) mx = o;
  }
  *lo = mn;
  *noff = mx - mn + 1;
  return 1 + (size_t)*noff * ((L + 1) / 2);
}

/* Slots per kept key: at 2 (load 0.5) a lookup probes 1.4 slots and 1.1
 * cache lines on average, at 1.5 it probed 2.7 and 1.4 (the name
 * recogniser on 3 MB of the bench text; docs/ARCHITECTURE.md). */
#define CT_SLOTS_PER_KEY 2

/* A kept slot: where its members start in the storage order, and how often
 * its key was seen in training (a group's: its most seen member's). */
typedef struct ct_slot {
  uint64_t count;
  size_t at;
} ct_slot;

/* Slots are placed by decreasing count, so the keys decoding asks for most
 * sit at or next to their home slot; ties by storage order. */
static int ct_slot_cmp(const void *x, const void *y) {
  const ct_slot *a = x, *b = y;
  if (a->count != b->count) return a->count > b->count ? -1 : 1;
  return a->at < b->at ? -1 : a->at > b->at;
}

/* Quantises the averaged weights into a labeller section (docs/FORMAT.md). */
static fenci_rc ct_build(const ct_state *s, uint8_t **out, size_t *out_len) {
  const fc_chain_opts *o = s->o;
  uint32_t L = s->L, i, pr[CT_SLOT_PAIRS], max_probe = 0;
  size_t f, nt = (size_t)L * L + 2 * L, n_keep = 0, n_over = 0, n_slots, names = 0, toff, soff, poff, total, at;
  double mx = 0, scale;
  fc_buf b;
  uint8_t *img;
  size_t *order = fc_malloc(s->a, (s->F ? s->F : 1) * sizeof *order), q;
  ct_slot *slots = fc_malloc(s->a, (s->F ? s->F : 1) * sizeof *slots);
  uint64_t key;
  int single;
  if (!order || !slots) {
    fc_free(s->a, order);
    fc_free(s->a, slots);
    return FENCI_NOMEM;
  }
  for (f = 0; f < s->F; f++) order[f] = f;
  if (o->group_mask) {
    ct_sort_state = s; /* the trainer is single-threaded */
    qsort(order, s->F, sizeof *order, ct_order_cmp);
  }
  for (f = 0; f < (size_t)s->F * L; f++) {
    double v = fabs(fc_avg_value(&s->fw, f, s->c));
    if (v > mx) mx = v;
  }
  for (f = 0; f < nt; f++)
    if (!ct_forbidden(o, L, f)) {
      double v = fabs(fc_avg_value(&s->tw, f, s->c));
      if (v > mx) mx = v;
    }
  scale = mx > 0 ? 32000.0 / mx : 1.0;
  /* kept slots, and the pairs of those with more than a slot holds */
  for (at = 0; at < s->F;) {
    size_t a0 = at, np = ct_slot_pairs(s, order, &at, scale, pr, &key, &single);
    int lo, noff;
    if (np) {
      slots[n_keep].at = a0;
      slots[n_keep].count = 0;
      for (q = a0; q < at; q++) /* a group: its members come with each sighting of the anchor's value */
        if (s->fcount[order[q]] > slots[n_keep].count) slots[n_keep].count = s->fcount[order[q]];
      n_keep++;
    }
    if (single && np >= ct_dense_at(L)) n_over += (L + 1) / 2;
    else if (!single && np > 3 && ct_grows(pr, np, L, &lo, &noff) <= CT_GROWS_AT * np) n_over += ct_grows(pr, np, L, &lo, &noff);
    else if (np > 3) n_over += np;
  }
  if (n_over >= (1u << 24)) {
    fc_free(s->a, order);
    fc_free(s->a, slots);
    return FENCI_BADARG;
  }
  qsort(slots, n_keep, sizeof *slots, ct_slot_cmp);
  n_slots = n_keep * CT_SLOTS_PER_KEY + 1;
  for (i = 0; i < L; i++) names += strlen(o->labels[i]) + 1;
  toff = (FC_CHAIN_HEAD + names + 3) & ~(size_t)3;
  soff = (toff + nt * 4 + 15) & ~(size_t)15;
  poff = soff + n_slots * 16;
  total = poff + n_over * 4;
  fc_buf_init(&b, s->a);
  if (fc_buf_reserve(&b, total)) {
    fc_free(s->a, order);
    fc_free(s->a, slots);
    return FENCI_NOMEM;
  }
  memset(b.data, 0, total);
  b.len = total;
  img = b.data;
  {
    size_t pi = 0;
    for (q = 0; q < n_keep; q++) {
      size_t np, h, k;
      int lo = 0, noff = 0;
      uint64_t m;
      uint32_t fp, probe = 0;
      uint8_t *slot;
      at = slots[q].at;
      np = ct_slot_pairs(s, order, &at, scale, pr, &key, &single);
      m = fc_chain_mix(key);
      fp = (uint32_t)m ? (uint32_t)m : 1u;
      h = (size_t)(((m >> 32) * n_slots) >> 32);
      /* two keys with one fingerprint and home would be one feature: rare
       * (2^-32 per pair) and harmless, the first one wins the lookups */
      while (fc_rd32(img + soff + h * 16)) {
        if (++h == n_slots) h = 0;
        probe++;
      }
      if (probe > max_probe) max_probe = probe;
      slot = img + soff + h * 16;
      fc_wr32(slot, fp);
      if (np <= 3) {
        for (k = 0; k < 3; k++) fc_wr32(slot + 4 + 4 * k, k < np ? pr[k] : 0xFFu);
      } else if (!single && ct_grows(pr, np, L, &lo, &noff) <= CT_GROWS_AT * np) {
        /* a grouped key weighing most labels at its offsets: rows, added
         * with vector instructions, in fewer bytes than the pairs */
        uint8_t *row = img + poff + pi * 4;
        size_t nw = (L + 1) / 2;
        fc_wr32(slot + 4, 0xFCu | (uint32_t)pi << 8);
        fc_wr32(slot + 8, 0);
        fc_wr32(slot + 12, 0xFFu);
        fc_wr32(row, (uint32_t)(uint8_t)(int8_t)lo | (uint32_t)noff << 8);
        for (k = 0; k < np; k++) {
          uint32_t l = pr[k] & 0xFF;
          int r = (int8_t)(uint8_t)(pr[k] >> 8) - lo;
          uint8_t *cell = row + 4 + ((size_t)r * nw) * 4 + 2 * l;
          cell[0] = (uint8_t)(pr[k] >> 16);
          cell[1] = (uint8_t)(pr[k] >> 24);
        }
        pi += 1 + (size_t)noff * nw;
      } else if (single && np >= ct_dense_at(L)) {
        /* most labels weighted (generic features): a row the decoder adds
         * with vector instructions */
        uint8_t *row = img + poff + pi * 4;
        fc_wr32(slot + 4, 0xFDu | (uint32_t)pi << 8);
        fc_wr32(slot + 8, 0);
        fc_wr32(slot + 12, 0xFFu);
        for (k = 0; k < np; k++) {
          uint32_t l = pr[k] & 0xFF;
          row[2 * l] = (uint8_t)(pr[k] >> 16);
          row[2 * l + 1] = (uint8_t)(pr[k] >> 24);
        }
        pi += (L + 1) / 2;
      } else {
        fc_wr32(slot + 4, 0xFEu | (uint32_t)pi << 8);
        fc_wr32(slot + 8, (uint32_t)np);
        fc_wr32(slot + 12, 0xFFu);
        for (k = 0; k < np; k++) fc_wr32(img + poff + (pi + k) * 4, pr[k]);
        pi += np;
      }
    }
  }
  memcpy(img, FC_CHAIN_MAGIC, 4);
  {
    uint32_t hv[11];
    hv[0] = o->group_mask ? 2 : 1; /* a labeller without groups stays readable by version-1 readers */
    hv[1] = L;
    hv[2] = o->beam && o->beam < L ? o->beam : L;
    hv[3] = (uint32_t)n_slots;
    hv[4] = max_probe;
    hv[5] = (uint32_t)n_over;
    hv[6] = (uint32_t)names;
    hv[7] = (uint32_t)toff;
    hv[8] = (uint32_t)soff;
    hv[9] = (uint32_t)poff;
    hv[10] = o->feature_version;
    for (i = 0; i < 11; i++) fc_wr32(img + 4 + 4 * i, hv[i]);
    fc_wr32(img + 48, (uint32_t)o->group_mask);
    fc_wr32(img + 52, (uint32_t)(o->group_mask >> 32));
  }
  fc_free(s->a, order);
  fc_free(s->a, slots);
  {
    size_t k = FC_CHAIN_HEAD;
    for (i = 0; i < L; i++) {
      size_t l = strlen(o->labels[i]) + 1;
      memcpy(img + k, o->labels[i], l);
      k += l;
    }
  }
  for (f = 0; f < nt; f++) {
    int32_t v;
    if (ct_forbidden(o, L, f)) v = FC_CHAIN_FORBID;
    else {
      double tv = fc_avg_value(&s->tw, f, s->c) * scale;
      v = (int32_t)lround(tv > 4e6 ? 4e6 : tv < -4e6 ? -4e6 : tv);
    }
    fc_wr32(img + toff + 4 * f, (uint32_t)v);
  }
  *out = b.data;
  *out_len = b.len;
  return FENCI_OK;
}

void fc_chain_opts_init(fc_chain_opts *co, const fc_train_opts *o) {
  memset(co, 0, sizeof *co);
  co->iters = o->iters;
  co->patience = o->patience;
  co->seed = o->seed;
  co->min_count = o->min_count;
  co->prune = o->prune;
  co->log = o->log;
  co->log_ctx = o->log_ctx;
}

fenci_rc fc_chain_label_all(const uint8_t *sec, size_t sec_len, const fc_chain_data *d, uint8_t *pred,
                            const fenci_alloc *a) {
  fc_section fs;
  fc_chain *c = fc_malloc(a, sizeof *c);
  fc_chain_work w;
  int32_t *emit = NULL;
  uint32_t *koff = NULL, *scratch = NULL;
  size_t cap = 0, ocap = 0, scap = 0, q;
  fenci_rc rc;
  if (!c) return FENCI_NOMEM;
  memcpy(fs.tag, "CHAN", 4);
  fs.flags = 0;
  fs.data = sec;
  fs.size = sec_len;
  memset(&w, 0, sizeof w);
  rc = fc_chain_view(c, &fs, NULL, 0);
  for (q = 0; rc == FENCI_OK && q < d->n_seq; q++) {
    size_t p0 = d->seq[q], n = d->seq[q + 1] - p0, i;
    if (n > cap) {
      void *e = emit;
      if (fc_grow(a, &e, &cap, n, c->n_labels * sizeof *emit)) {
        rc = FENCI_NOMEM;
        break;
      }
      emit = e;
    }
    if (n + 1 > ocap) {
      void *o = koff;
      if (fc_grow(a, &o, &ocap, n + 1, sizeof *koff)) {
        rc = FENCI_NOMEM;
        break;
      }
      koff = o;
    }
    /* offsets of this sequence's keys, relative to its first */
    for (i = 0; i <= n; i++) koff[i] = (uint32_t)(d->koff[p0 + i] - d->koff[p0]);
    if ((size_t)koff[n] * FC_CHAIN_SCRATCH > scap) {
      void *sp = scratch;
      if (fc_grow(a, &sp, &scap, (size_t)koff[n] * FC_CHAIN_SCRATCH, sizeof *scratch)) {
        rc = FENCI_NOMEM;
        break;
      }
      scratch = sp;
    }
    memset(emit, 0, n * c->n_labels * sizeof *emit);
    fc_chain_emit_seq(c, d->key + d->koff[p0], koff, n, emit, scratch, NULL);
    rc = fc_chain_decode(c, emit, n, NULL, pred + p0, &w, a);
  }
  fc_chain_work_free(&w, a);
  fc_free(a, emit);
  fc_free(a, koff);
  fc_free(a, scratch);
  fc_free(a, c);
  return rc;
}

static double ct_accuracy(void *ctx, const fc_chain_data *dev, const uint8_t *pred) {
  size_t i, ok = 0;
  (void)ctx;
  for (i = 0; i < dev->n_pos; i++) ok += pred[i] == dev->gold[i];
  return dev->n_pos ? (double)ok / (double)dev->n_pos : 0;
}

static void ct_log(const fc_chain_opts *o, const char *fmt, ...) {
  char msg[256];
  va_list ap;
  if (!o->log) return;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  o->log(o->log_ctx, msg);
}

/* The labeller as a task of the perceptron core. */
typedef struct ct_task {
  ct_state *s;
  const fc_chain_data *train, *dev;
  fc_chain tc;     /* the current weights' transitions, for the decoder */
  fc_chain_work w;
  int32_t *emit;
  uint8_t *pred, *dpred;
  uint8_t *img;    /* the last snapshot */
  size_t img_len;
  uint8_t *best;   /* the best so far */
  size_t best_len;
} ct_task;

static fenci_rc ct_learn(void *ctx, size_t sq, int64_t clock, size_t *wrong, size_t *total) {
  ct_task *t = ctx;
  ct_state *s = t->s;
  const fc_chain_opts *o = s->o;
  const fc_chain_data *train = t->train;
  size_t p0 = train->seq[sq], n = train->seq[sq + 1] - p0, i, k;
  uint32_t l;
  const uint8_t *g = train->gold + p0;
  const uint8_t *pred = t->pred;
  s->c = clock;
  /* the current weights into the decoder */
  for (l = 0; l < s->L; l++) {
    uint32_t m;
    for (m = 0; m < s->L; m++)
      t->tc.trans[l * FC_CHAIN_MAX_LABELS + m] =
          ct_forbidden(o, s->L, CT_T(s, l, m)) ? FC_CHAIN_FORBID : s->tw.w[CT_T(s, l, m)];
    t->tc.start[l] = ct_forbidden(o, s->L, CT_S(s, l)) ? FC_CHAIN_FORBID : s->tw.w[CT_S(s, l)];
    t->tc.end[l] = ct_forbidden(o, s->L, CT_E(s, l)) ? FC_CHAIN_FORBID : s->tw.w[CT_E(s, l)];
  }
  memset(t->emit, 0, n * s->L * sizeof *t->emit);
  for (i = 0; i < n; i++) {
    int32_t *e = t->emit + i * s->L;
    for (k = train->koff[p0 + i]; k < train->koff[p0 + i + 1]; k++) {
      uint32_t f = s->fid[k];
      const int32_t *wf;
      if (f == CT_NONE) continue;
      wf = s->fw.w + (size_t)f * s->L;
      for (l = 0; l < s->L; l++) e[l] += wf[l];
    }
  }
  if (fc_chain_decode(&t->tc, t->emit, n, NULL, t->pred, &t->w, s->a) != FENCI_OK) return FENCI_NOMEM;
  *total = n;
  for (i = 0; i < n; i++) {
    if (pred[i] != g[i]) {
      ++*wrong;
      for (k = train->koff[p0 + i]; k < train->koff[p0 + i + 1]; k++) {
        uint32_t f = s->fid[k];
        if (f == CT_NONE) continue;
        fc_avg_add(&s->fw, (size_t)f * s->L + g[i], 1, clock);
        fc_avg_add(&s->fw, (size_t)f * s->L + pred[i], -1, clock);
      }
    }
    if (i == 0 ? pred[0] != g[0] : (pred[i] != g[i] || pred[i - 1] != g[i - 1])) {
      fc_avg_add(&s->tw, i ? CT_T(s, g[i - 1], g[i]) : CT_S(s, g[0]), 1, clock);
      fc_avg_add(&s->tw, i ? CT_T(s, pred[i - 1], pred[i]) : CT_S(s, pred[0]), -1, clock);
    }
  }
  if (n && pred[n - 1] != g[n - 1]) {
    fc_avg_add(&s->tw, CT_E(s, g[n - 1]), 1, clock);
    fc_avg_add(&s->tw, CT_E(s, pred[n - 1]), -1, clock);
  }
  return FENCI_OK;
}

static fenci_rc ct_snapshot(void *ctx, int64_t clock, double *score) {
  ct_task *t = ctx;
  const fc_chain_opts *o = t->s->o;
  fenci_rc rc;
  t->s->c = clock;
  rc = ct_build(t->s, &t->img, &t->img_len);
  if (rc != FENCI_OK || !t->dev || !t->dev->n_pos) return rc;
  rc = fc_chain_label_all(t->img, t->img_len, t->dev, t->dpred, t->s->a);
  if (rc == FENCI_OK) *score = o->score ? o->score(o->score_ctx, t->dev, t->dpred) : ct_accuracy(NULL, t->dev, t->dpred);
  return rc;
}

static void ct_choose(void *ctx, int keep) {
  ct_task *t = ctx;
  if (keep) {
    fc_free(t->s->a, t->best);
    t->best = t->img;
    t->best_len = t->img_len;
  } else
    fc_free(t->s->a, t->img);
  t->img = NULL;
}

static int ct_report(void *ctx, const fc_pcp_iter *it) {
  const ct_task *t = ctx;
  double e = it->total ? 100.0 * (double)it->wrong / (double)it->total : 0.0;
  if (t->dev && t->dev->n_pos)
    ct_log(t->s->o, "iteration %d: training errors %.2f%%, dev %.4f, %zu bytes", it->iter, e, it->score, t->img_len);
  else
    ct_log(t->s->o, "iteration %d: training errors %.2f%%, %zu bytes", it->iter, e, t->img_len);
  return 0;
}

fenci_rc fc_chain_train(const fc_chain_data *train, const fc_chain_data *dev, const fc_chain_opts *o,
                        const fenci_alloc *a0, uint8_t **sec, size_t *sec_len, double *dev_score, int *best_iter,
                        char *err, size_t errlen) {
  fenci_alloc ar = fc_alloc_resolve(a0);
  const fenci_alloc *a = &ar;
  ct_state s;
  ct_map cnt;
  ct_task t;
  fc_pcp_task task;
  fc_pcp_opts po;
  fc_pcp_result pr;
  size_t i, maxn = 0;
  fenci_rc rc = FENCI_NOMEM;

  *sec = NULL;
  *sec_len = 0;
  memset(&s, 0, sizeof s);
  memset(&cnt, 0, sizeof cnt);
  memset(&t, 0, sizeof t);
  if (o->n_labels < 1 || o->n_labels > FC_CHAIN_MAX_LABELS || !o->labels || train->n_seq == 0) {
    fc_errf(err, errlen, "labeller training: no labels or no training data");
    return FENCI_BADARG;
  }
  s.o = o;
  s.a = a;
  s.L = o->n_labels;
  /* features: count in training, keep those seen min_count times */
  for (i = 0; i < train->n_key; i++) {
    uint32_t *v;
    if (o->group_mask && fc_chain_gkey_is_rep(o->group_mask, train->key[i])) continue; /* no feature */
    v = ct_map_at(&cnt, train->key[i], a);
    if (!v) goto nomem;
    if (*v < UINT32_MAX) (*v)++;
  }
  s.fid = fc_malloc(a, (train->n_key ? train->n_key : 1) * sizeof *s.fid);
  if (!s.fid) goto nomem;
  {
    ct_map ids;
    size_t fcap = 0, ccap = 0;
    memset(&ids, 0, sizeof ids);
    for (i = 0; i < train->n_key; i++) {
      const uint32_t *c = ct_map_get(&cnt, train->key[i]);
      uint32_t *id;
      if (!c || *c < (o->min_count ? o->min_count : 1)) { /* (anchor-only keys were not counted) */
        s.fid[i] = CT_NONE;
        continue;
      }
      if (!(id = ct_map_at(&ids, train->key[i], a))) {
        ct_map_free(&ids, a);
        goto nomem;
      }
      if (*id == 0) {
        void *fk = s.fkey;
        if (fc_grow(a, &fk, &fcap, s.F + 1, sizeof *s.fkey)) {
          ct_map_free(&ids, a);
          goto nomem;
        }
        s.fkey = fk;
        fk = s.fcount;
        if (fc_grow(a, &fk, &ccap, s.F + 1, sizeof *s.fcount)) {
          ct_map_free(&ids, a);
          goto nomem;
        }
        s.fcount = fk;
        s.fcount[s.F] = *c;
        s.fkey[s.F++] = train->key[i];
        *id = (uint32_t)s.F; /* ids are 1-based in the map */
      }
      s.fid[i] = *id - 1;
    }
    ct_map_free(&ids, a);
  }
  ct_map_free(&cnt, a);
  ct_log(o, "%zu features kept (seen >= %u times) of %zu keys", s.F, o->min_count ? o->min_count : 1,
         train->n_key);
  if (fc_avg_init(&s.fw, s.F * s.L + 1, a) || fc_avg_init(&s.tw, (size_t)s.L * (s.L + 2), a)) goto nomem;
  for (i = 0; i < train->n_seq; i++)
    if (train->seq[i + 1] - train->seq[i] > maxn) maxn = train->seq[i + 1] - train->seq[i];
  t.s = &s;
  t.train = train;
  t.dev = dev;
  t.emit = fc_malloc(a, (maxn + 1) * s.L * sizeof *t.emit);
  t.pred = fc_malloc(a, maxn + 1);
  t.dpred = fc_malloc(a, dev && dev->n_pos ? dev->n_pos : 1);
  if (!t.emit || !t.pred || !t.dpred) goto nomem;
  t.tc.n_labels = s.L;
  {
    /* training may search wider than use (train_beam): the dev score, and
     * so the iteration kept, is always the stored beam's */
    uint32_t tb = o->train_beam ? o->train_beam : o->beam;
    t.tc.beam = tb && tb < s.L ? tb : s.L;
  }
  for (i = 0; i < s.L; i++) {
    uint32_t q;
    t.tc.n_pred[i] = 0;
    for (q = 0; q < s.L; q++)
      if (!ct_forbidden(o, s.L, CT_T(&s, q, i))) t.tc.pred[i][t.tc.n_pred[i]++] = (uint8_t)q;
  }
  task = (fc_pcp_task){.ctx = &t, .n_examples = train->n_seq, .has_dev = dev && dev->n_pos,
                       .learn = ct_learn, .snapshot = ct_snapshot, .choose = ct_choose, .report = ct_report};
  po = (fc_pcp_opts){.iters = o->iters, .patience = o->patience, .seed = o->seed};
  rc = fc_pcp_train(&task, &po, a, &pr);
  if (rc == FENCI_NOMEM) goto nomem;
  if (rc != FENCI_OK) goto fail;
  *sec = t.best;
  *sec_len = t.best_len;
  t.best = NULL;
  *best_iter = pr.best_iter;
  if (dev_score) *dev_score = pr.best_score;
  goto fail;
nomem:
  rc = FENCI_NOMEM;
  fc_errf(err, errlen, "out of memory while training the labeller");
fail:
  ct_map_free(&cnt, a);
  fc_chain_work_free(&t.w, a);
  fc_free(a, t.best);
  fc_free(a, t.img);
  fc_free(a, s.fid);
  fc_free(a, s.fcount);
  fc_free(a, s.fkey);
  fc_avg_free(&s.fw, a);
  fc_avg_free(&s.tw, a);
  fc_free(a, t.emit);
  fc_free(a, t.pred);
  fc_free(a, t.dpred);
  return rc;
}
