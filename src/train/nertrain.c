/* nertrain.c - training the name recogniser (nertag.h): the entities of
 * MSRA NER (word/nr, ns, nt) and of People's Daily (nr, ns, nt words, with
 * a person's surname and given name joined, and [...]ns / [...]nt
 * compounds) become BIOES labels of characters; the one labeller trainer
 * (chaintrain.c) does the rest, keeping the iteration of best entity F1
 * on dev.  The training names also make the gazetteer (NERG, nertag.h),
 * jackknifed: a sentence's features see the names of the other folds. */
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "model.h"
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

/* The fold of sentence s of c: contiguous blocks, so the names an article
 * repeats fall in one fold, as in unseen text. */
static int nt_fold(const fc_corpus *c, size_t s) { return (int)((double)s * FC_NER_FOLDS / (double)c->n_sent); }

/* The gazetteer being built: full hashes and values, open addressing. */
typedef struct nt_gaz {
  uint64_t *h;
  uint32_t *v;
  size_t cap, n;
} nt_gaz;

static int nt_gaz_put(nt_gaz *g, uint64_t h, uint32_t v, const fenci_alloc *a) {
  size_t s;
  if (2 * (g->n + 1) > g->cap) {
    nt_gaz ng;
    size_t i;
    ng.cap = g->cap ? 2 * g->cap : 1u << 16;
    ng.n = 0;
    ng.h = fc_calloc(a, ng.cap, sizeof *ng.h);
    ng.v = fc_calloc(a, ng.cap, sizeof *ng.v);
    if (!ng.h || !ng.v) {
      fc_free(a, ng.h);
      fc_free(a, ng.v);
      return -1;
    }
    for (i = 0; i < g->cap; i++)
      if (g->v[i]) {
        for (s = (size_t)(g->h[i] % ng.cap); ng.v[s]; s = (s + 1) % ng.cap)
          ;
        ng.h[s] = g->h[i], ng.v[s] = g->v[i], ng.n++;
      }
    fc_free(a, g->h);
    fc_free(a, g->v);
    *g = ng;
  }
  for (s = (size_t)(h % g->cap); g->v[s] && g->h[s] != h; s = (s + 1) % g->cap)
    ;
  if (!g->v[s]) g->h[s] = h, g->n++;
  g->v[s] |= v;
  return 0;
}

/* Adds the names of the n characters cps with labels lab (fold f; -1:
 * every fold, for names from outside the training text). */
static int nt_gaz_add(nt_gaz *g, const uint32_t *cps, const uint8_t *lab, size_t n, int f, const fenci_alloc *a) {
  size_t i, j, k;
  uint32_t folds = f < 0 ? (1u << FC_NER_FOLDS) - 1 : 1u << f;
  for (i = 0; i < n; i++) {
    int t = fc_ner_type(lab[i]), ps = fc_ner_pos(lab[i]);
    uint64_t h = 0;
    if (ps != 0 && ps != 3) continue;
    for (j = i; ps == 0 && j + 1 < n && fc_ner_pos(lab[j + 1]) == 1; j++)
      ;
    if (ps == 0) j++; /* the E */
    if (j >= n || fc_ner_pos(lab[j]) != (ps == 0 ? 2 : 3) || j + 1 - i > FC_NER_GMAX) continue;
    for (k = i; k <= j; k++) {
      h = fc_ner_gstep(h, fc_ner_norm(cps[k]));
      if (nt_gaz_put(g, h, k < j ? FC_NER_GPREFIX : folds << ((t - 1) * FC_NER_FOLDS), a)) return -1;
    }
  }
  return 0;
}

/* The NERG section of g. */
static fenci_rc nt_gaz_section(const nt_gaz *g, const fenci_alloc *a, uint8_t **sec, size_t *len) {
  uint32_t ns = (uint32_t)(g->n * 2 + 1), mp = 0, s;
  size_t i, sz = 16 + (size_t)ns * 8;
  uint8_t *p = fc_calloc(a, sz, 1);
  if (!p) return FENCI_NOMEM;
  for (i = 0; i < g->cap; i++) {
    uint32_t fp, d = 0;
    if (!g->v[i]) continue;
    fp = (uint32_t)g->h[i] ? (uint32_t)g->h[i] : 1u;
    for (s = (uint32_t)(((g->h[i] >> 32) * ns) >> 32); fc_rd32(p + 16 + (size_t)s * 8); s = s + 1 == ns ? 0 : s + 1)
      d++;
    if (d > mp) mp = d;
    fc_wr32(p + 16 + (size_t)s * 8, fp);
    fc_wr32(p + 16 + (size_t)s * 8 + 4, g->v[i]);
  }
  memcpy(p, "FCNG", 4);
  fc_wr32(p + 4, FC_NER_GAZ_VERSION);
  fc_wr32(p + 8, ns);
  fc_wr32(p + 12, mp);
  *sec = p;
  *len = sz;
  return FENCI_OK;
}

/* The names of the training corpora (by fold), then those of the names-only
 * corpora (every fold). */
static fenci_rc nt_gaz_build(const fc_corpus *const *train, size_t n_train, const fc_corpus *const *names,
                             size_t n_names, nt_gaz *g, const fenci_alloc *a) {
  uint32_t *cps = NULL;
  uint8_t *lab = NULL;
  size_t cap = 0, s, i;
  fenci_rc rc = FENCI_OK;
  for (i = 0; i < n_train + n_names && rc == FENCI_OK; i++) {
    const fc_corpus *c = i < n_train ? train[i] : names[i - n_train];
    for (s = 0; s < c->n_sent && rc == FENCI_OK; s++) {
      size_t n = 0;
      rc = nt_sentence(c, s, &cps, &lab, &cap, &n, a);
      if (rc == FENCI_OK && nt_gaz_add(g, cps, lab, n, i < n_train ? nt_fold(c, s) : -1, a)) rc = FENCI_NOMEM;
    }
  }
  fc_free(a, cps);
  fc_free(a, lab);
  return rc;
}

/* jack: label each sentence with the gazetteer without its own fold. */
static fenci_rc nt_data(const fenci_model *lex, const fc_corpus *c, fc_chain_data *d, fc_ner_work *w, int jack,
                        const fenci_alloc *a) {
  uint32_t *cps = NULL;
  uint8_t *lab = NULL;
  size_t cap = 0, s;
  uint64_t keys[FC_NER_MAX_KEYS];
  fenci_rc rc = FENCI_OK;
  for (s = 0; s < c->n_sent && rc == FENCI_OK; s++) {
    size_t n = 0, p0;
    rc = nt_sentence(c, s, &cps, &lab, &cap, &n, a);
    w->fold = jack ? nt_fold(c, s) + 1 : 0;
    for (p0 = 0; rc == FENCI_OK && p0 < n;) {
      size_t len = fc_ner_piece(cps + p0, n - p0), i;
      rc = fc_ner_prepare(w, lex, cps + p0, len, a);
      for (i = 0; rc == FENCI_OK && i < len; i++) {
        size_t nk = fc_ner_keys(w, len, i, keys, FC_NER_KEYS_ALL);
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
                      const fc_train_opts *o, const fenci_alloc *a0, uint8_t **sec, size_t *sec_len, uint8_t **gsec,
                      size_t *gsec_len, double *dev_f1, int *best_iter, char *err, size_t errlen) {
  fenci_alloc ar = fc_alloc_resolve(a0);
  const fenci_alloc *a = &ar;
  uint8_t forbid[FC_NER_N_LABELS * FC_NER_N_LABELS], fstart[FC_NER_N_LABELS], fend[FC_NER_N_LABELS];
  fc_chain_data td, dd;
  fc_ner_work w;
  nt_gaz gz;
  fc_ner_gaz gv;
  uint8_t *gs = NULL;
  size_t gs_len = 0;
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
  memset(&gz, 0, sizeof gz);
  *gsec = NULL;
  *gsec_len = 0;
  /* the gazetteer first: every sentence's features look it up */
  rc = nt_gaz_build(train, n_train, o->names, o->names ? o->n_names : 0, &gz, a);
  if (rc == FENCI_OK) rc = nt_gaz_section(&gz, a, &gs, &gs_len);
  fc_free(a, gz.h);
  fc_free(a, gz.v);
  if (rc == FENCI_OK) rc = fc_ner_gaz_view(&gv, gs, gs_len);
  w.gaz = &gv;
  for (i = 0; i < n_train && rc == FENCI_OK; i++) rc = nt_data(lex, train[i], &td, &w, 1, a);
  if (rc == FENCI_OK && dev) rc = nt_data(lex, dev, &dd, &w, 0, a);
  fc_ner_work_free(&w, a);
  if (rc == FENCI_OK) {
    fc_chain_opts_init(&co, o);
    co.n_labels = FC_NER_N_LABELS;
    co.labels = fc_ner_labels;
    co.beam = FC_NER_N_LABELS;
    co.forbid = forbid;
    co.forbid_start = fstart;
    co.forbid_end = fend;
    co.feature_version = FC_NER_FEATURE_VERSION;
    co.group_mask = fc_ner_groups;
    co.score = nt_f1;
    rc = fc_chain_train(&td, dd.n_pos ? &dd : NULL, &co, a, sec, sec_len, dev_f1, best_iter, err, errlen);
    if (rc == FENCI_OK) *gsec = gs, *gsec_len = gs_len, gs = NULL;
  } else if (rc == FENCI_NOMEM)
    fc_errf(err, errlen, "out of memory while reading the NER corpus");
  fc_free(a, gs);
  fc_chain_data_free(&td);
  fc_chain_data_free(&dd);
  return rc;
}

fenci_rc fc_train_write_ner(const fenci_model *lex, const uint8_t *nerm, size_t nerm_len, const uint8_t *nerg,
                            size_t nerg_len, const char *meta, const fenci_alloc *a, uint8_t **out, size_t *out_len,
                            char *err, size_t errlen) {
  static const char *const tags[2] = {"NERM", "NERG"};
  const uint8_t *data[2];
  size_t lens[2];
  data[0] = nerm;
  lens[0] = nerm_len;
  data[1] = nerg; /* none: an old NERG is dropped all the same */
  lens[1] = nerg_len;
  return fc_train_write_sections(lex, 2, tags, data, lens, meta, a, out, out_len, err, errlen);
}
