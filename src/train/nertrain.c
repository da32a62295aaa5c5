/* nertrain.c - training the name recogniser (nertag.h): the entities of
 * MSRA NER (word/nr, ns, nt) and of People's Daily (nr, ns, nt words, with
 * a person's surname and given name joined, and [...]ns / [...]nt
 * compounds) become BIOES labels of characters; the one labeller trainer
 * (chaintrain.c) does the rest, keeping the iteration of best entity F1
 * on dev. */
#include <string.h>

#include "alloc.h"
#include "chars.h"
#include "nertag.h"
#include "train/chaintrain.h"

/* The entity type (1 PER, 2 LOC, 3 ORG) of a tag name, or 0. */
static int nt_type(const char *t) {
  if (!strcmp(t, "nr")) return 1;
  if (!strcmp(t, "ns")) return 2;
  if (!strcmp(t, "nt")) return 3;
  return 0;
}

/* The characters and gold labels of sentence s of c. */
static fenci_rc nt_sentence(const fc_corpus *c, size_t s, uint32_t **cps, uint8_t **lab, size_t *cap, size_t *n_out,
                            const fenci_alloc *a) {
  size_t w0 = c->sent_w[s], nw = c->sent_w[s + 1] - w0, i, n = 0, start = 0;
  const uint8_t *base = (const uint8_t *)c->text + c->sent[s];
  size_t len = c->sent[s + 1] - c->sent[s];
  int prev_type = 0;
  size_t ent_start = 0; /* first character of the open entity */
  if (len + 1 > *cap) {
    void *p = *cps, *q = *lab;
    size_t c1 = *cap, c2 = *cap;
    if (fc_grow(a, &p, &c1, len + 1, sizeof **cps) || fc_grow(a, &q, &c2, len + 1, 1)) return FENCI_NOMEM;
    *cps = p;
    *lab = q;
    *cap = c1 < c2 ? c1 : c2;
  }
  for (i = 0; i < nw; i++) {
    size_t end = c->wend[w0 + i], p = start, first = n;
    int type = 0, br = c->wne ? c->wne[w0 + i] : 0;
    if (br && nt_type(c->tagname[br & 0x7F]) >= 2) type = nt_type(c->tagname[br & 0x7F]); /* [..]ns, [..]nt */
    else if (c->wtag) type = nt_type(c->tagname[c->wtag[w0 + i]]);
    while (p < end) {
      uint32_t cp;
      p += fc_utf8_decode(base + p, end - p, &cp);
      (*cps)[n] = cp;
      (*lab)[n++] = 0;
    }
    start = end;
    /* a new entity starts unless this word continues the open one: the
     * next word of a bracket, or a person's given name after the surname
     * (People's Daily splits 江/nr 泽民/nr) */
    if (type && prev_type == type &&
        ((br && !(br & FC_CORPUS_NE_FIRST)) || (type == 1 && c->format == FC_CORPUS_PD && !br && i > 0)))
      ;
    else
      ent_start = first;
    if (type) {
      size_t k;
      for (k = ent_start; k < n; k++) (*lab)[k] = (uint8_t)fc_ner_label(type, 1);
      if (n - ent_start == 1) (*lab)[ent_start] = (uint8_t)fc_ner_label(type, 3);
      else {
        (*lab)[ent_start] = (uint8_t)fc_ner_label(type, 0);
        (*lab)[n - 1] = (uint8_t)fc_ner_label(type, 2);
      }
    }
    prev_type = type;
  }
  *n_out = n;
  return FENCI_OK;
}

static fenci_rc nt_data(const fenci_model *lex, const fc_corpus *c, fc_chain_data *d, fc_ner_work *w,
                        const fenci_alloc *a) {
  uint32_t *cps = NULL;
  uint8_t *lab = NULL;
  size_t cap = 0, s;
  uint64_t keys[FC_NER_MAX_KEYS];
  fenci_rc rc = FENCI_OK;
  for (s = 0; s < c->n_sent && rc == FENCI_OK; s++) {
    size_t n = 0, p0;
    rc = nt_sentence(c, s, &cps, &lab, &cap, &n, a);
    for (p0 = 0; rc == FENCI_OK && p0 < n;) {
      size_t len = fc_ner_piece(cps + p0, n - p0), i;
      rc = fc_ner_prepare(w, lex, cps + p0, len, a);
      for (i = 0; rc == FENCI_OK && i < len; i++) {
        size_t nk = fc_ner_keys(w, len, i, keys);
        if (fc_chain_data_add(d, keys, nk, lab[p0 + i])) rc = FENCI_NOMEM;
      }
      if (rc == FENCI_OK && fc_chain_data_end(d)) rc = FENCI_NOMEM;
      p0 += len;
    }
  }
  fc_free(a, cps);
  fc_free(a, lab);
  return rc;
}

/* Entity F1 of pred against dev's gold labels (exact spans and types). */
typedef struct nt_span {
  size_t s, e;
  int type;
} nt_span;

static size_t nt_spans(const fc_chain_data *d, const uint8_t *lab, size_t q, nt_span *out, size_t cap) {
  size_t p0 = d->seq[q], p1 = d->seq[q + 1], i, n = 0, open = (size_t)-1;
  int ot = 0;
  for (i = p0; i < p1; i++) {
    int t = fc_ner_type(lab[i]), ps = fc_ner_pos(lab[i]);
    if (ps == 3) {
      if (n < cap) out[n].s = i, out[n].e = i + 1, out[n].type = t;
      n++;
      open = (size_t)-1;
    } else if (ps == 0) {
      open = i;
      ot = t;
    } else if (ps == 2 && open != (size_t)-1 && ot == t) {
      if (n < cap) out[n].s = open, out[n].e = i + 1, out[n].type = t;
      n++;
      open = (size_t)-1;
    } else if (ps == 1 && open != (size_t)-1 && ot == t) {
    } else
      open = (size_t)-1;
  }
  return n < cap ? n : cap;
}

static double nt_f1(void *ctx, const fc_chain_data *dev, const uint8_t *pred) {
  size_t q, ng = 0, np = 0, ok = 0;
  nt_span g[256], p[256];
  (void)ctx;
  for (q = 0; q < dev->n_seq; q++) {
    size_t a = nt_spans(dev, dev->gold, q, g, 256), b = nt_spans(dev, pred, q, p, 256), i, j;
    ng += a;
    np += b;
    for (i = 0, j = 0; i < a && j < b;) {
      if (g[i].s == p[j].s && g[i].e == p[j].e) {
        ok += g[i].type == p[j].type;
        i++;
        j++;
      } else if (g[i].s < p[j].s || (g[i].s == p[j].s && g[i].e < p[j].e))
        i++;
      else
        j++;
    }
  }
  return ng + np ? 2.0 * (double)ok / (double)(ng + np) : 0;
}

fenci_rc fc_train_ner(const fenci_model *lex, const fc_corpus *const *train, size_t n_train, const fc_corpus *dev,
                      const fc_train_opts *o, const fenci_alloc *a0, uint8_t **sec, size_t *sec_len, double *dev_f1,
                      int *best_iter, char *err, size_t errlen) {
  fenci_alloc ar = fc_alloc_resolve(a0);
  const fenci_alloc *a = &ar;
  uint8_t forbid[FC_NER_N_LABELS * FC_NER_N_LABELS], fstart[FC_NER_N_LABELS], fend[FC_NER_N_LABELS];
  fc_chain_data td, dd;
  fc_ner_work w;
  fc_chain_opts co;
  fenci_rc rc = FENCI_OK;
  size_t i, j;
  /* BIOES: I and E only after B or I of their type; B, S, O only after O, E or S */
  for (i = 0; i < FC_NER_N_LABELS; i++) {
    int pi = fc_ner_pos((unsigned)i), ti = fc_ner_type((unsigned)i);
    fstart[i] = pi == 1 || pi == 2;
    fend[i] = pi == 0 || pi == 1;
    for (j = 0; j < FC_NER_N_LABELS; j++) {
      int pj = fc_ner_pos((unsigned)j), tj = fc_ner_type((unsigned)j);
      int open = pi == 0 || pi == 1; /* i leaves an entity open */
      forbid[i * FC_NER_N_LABELS + j] = (uint8_t)(open ? !((pj == 1 || pj == 2) && tj == ti) : (pj == 1 || pj == 2));
    }
  }
  fc_chain_data_init(&td, a);
  fc_chain_data_init(&dd, a);
  memset(&w, 0, sizeof w);
  for (i = 0; i < n_train && rc == FENCI_OK; i++) rc = nt_data(lex, train[i], &td, &w, a);
  if (rc == FENCI_OK && dev) rc = nt_data(lex, dev, &dd, &w, a);
  fc_ner_work_free(&w, a);
  if (rc == FENCI_OK) {
    memset(&co, 0, sizeof co);
    co.n_labels = FC_NER_N_LABELS;
    co.labels = fc_ner_labels;
    co.beam = FC_NER_N_LABELS;
    co.forbid = forbid;
    co.forbid_start = fstart;
    co.forbid_end = fend;
    co.feature_version = FC_NER_FEATURE_VERSION;
    co.group_mask = fc_ner_groups;
    co.iters = o->iters;
    co.patience = o->patience;
    co.seed = o->seed;
    co.min_count = o->min_count;
    co.prune = o->prune;
    co.score = nt_f1;
    co.log = o->log;
    co.log_ctx = o->log_ctx;
    rc = fc_chain_train(&td, dd.n_pos ? &dd : NULL, &co, a, sec, sec_len, dev_f1, best_iter, err, errlen);
  } else if (rc == FENCI_NOMEM)
    fc_errf(err, errlen, "out of memory while reading the NER corpus");
  fc_chain_data_free(&td);
  fc_chain_data_free(&dd);
  return rc;
}
