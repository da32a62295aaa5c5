/* model.c - opening a model: map the file, parse the container, validate the
 * lexicon sections and hand the weight sections to the trained segmenter.
 * Nothing in a file is trusted: sizes are cross-checked here, and trie
 * transitions and word indexes are bounds-checked at lookup. */
#include <math.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>

#include "alloc.h"
#include "chars.h"
#include "lexicon.h"
#include "model.h"
#include "chain.h"
#include "nertag.h"
#include "postag.h"

/* Unknown-word candidates: base cost and pruning limit, chosen on the dev
 * slices (PKU 1998-01-28..31 and the last 10% of MSRA train): base 4 gave
 * the best summed F1 (0.8393 + 0.8509 vs 0.8383 + 0.8497 without), cap 20
 * the same accuracy as 80 with fewer edges. */
#define FC_UNK_BASE 4.0
#define FC_UNK_CAP 20.0

static float fc_rdf32(const uint8_t *p) {
  uint32_t b = fc_rd32(p);
  float f;
  memcpy(&f, &b, 4);
  return f;
}

void fenci_model_free(fenci_model *m) {
  fenci_alloc a;
  if (!m) return;
  a = m->a;
  fc_segmodel_free(m->seg, &a);
  fc_free(&a, m->pos);
  fc_free(&a, m->ner);
  fc_free(&a, m->nerg);
  fc_free(&a, (void *)m->tag_index);
  fc_free(&a, m->meta_copy);
  fc_free(&a, m->unk_lp);
  fc_free(&a, m->first);
  if (m->map.data) fc_unmap(&m->map);
  if (m->lexmap.data) fc_unmap(&m->lexmap);
  fc_free(&a, m);
}

/* LREF: a trained model that uses the lexicon of another file in its
 * directory (docs/FORMAT.md): u32 lexicon id, u32 name length, the name. */
#define FC_LREF_NAME_MAX 255

static fenci_rc fc_lref_parse(const fc_section *r, uint32_t *id, const char **name, size_t *nlen, char *err,
                              size_t errlen) {
  size_t i, n;
  if (r->size < 8 || (n = fc_rd32(r->data + 4)) == 0 || n > FC_LREF_NAME_MAX || n > r->size - 8) {
    fc_errf(err, errlen, "LREF section is malformed");
    return FENCI_BADFORMAT;
  }
  *id = fc_rd32(r->data);
  *name = (const char *)r->data + 8;
  *nlen = n;
  /* a file name, not a path: the lexicon sits beside the model */
  for (i = 0; i < n; i++)
    if ((*name)[i] == '/' || (*name)[i] == 0 || (unsigned char)(*name)[i] < 0x20) break;
  if (i < n || (n == 1 && (*name)[0] == '.') || (n == 2 && !memcmp(*name, "..", 2))) {
    fc_errf(err, errlen, "LREF names no plain file name");
    return FENCI_BADFORMAT;
  }
  return FENCI_OK;
}

/* When m->file references a lexicon file, maps it (as the model itself was
 * mapped or read), checks its lexicon id and appends its sections that the
 * model lacks (META excepted: the model's describes both) to m->file, so
 * everything after this sees one set of sections. */
static fenci_rc fc_model_attach_lexicon(fenci_model *m, const char *path, unsigned mapflags, char *err,
                                        size_t errlen) {
  const fc_section *r = fc_fmt_find(&m->file, "LREF"), *h;
  const char *name, *slash;
  size_t nlen, dlen, i;
  uint32_t id, have;
  char *lp;
  fc_file lf;
  fenci_rc rc;
  if (!r) return FENCI_OK;
  if (fc_fmt_find(&m->file, "LEXH")) {
    fc_errf(err, errlen, "model has both a lexicon and a reference to one (LREF)");
    return FENCI_BADFORMAT;
  }
  if ((rc = fc_lref_parse(r, &id, &name, &nlen, err, errlen)) != FENCI_OK) return rc;
  if (!path) {
    fc_errf(err, errlen,
            "model uses the lexicon file '%.*s' beside it (LREF): open it with fenci_model_open, "
            "not from a buffer", (int)nlen, name);
    return FENCI_BADFORMAT;
  }
  slash = strrchr(path, '/');
  dlen = slash ? (size_t)(slash - path) + 1 : 0;
  lp = fc_malloc(&m->a, dlen + nlen + 1);
  if (!lp) return FENCI_NOMEM;
  memcpy(lp, path, dlen);
  memcpy(lp + dlen, name, nlen);
  lp[dlen + nlen] = 0;
  {
    char e1[400];
    e1[0] = 0;
    rc = fc_map_file(&m->lexmap, lp, mapflags, &m->a, e1, sizeof e1);
    if (rc != FENCI_OK) fc_errf(err, errlen, "the lexicon it uses: %s", e1[0] ? e1 : fenci_rc_str(rc));
  }
  if (rc == FENCI_OK) {
    char e2[200];
    e2[0] = 0;
    rc = fc_fmt_parse(&lf, m->lexmap.data, m->lexmap.size, m->verify_crc, e2, sizeof e2);
    if (rc != FENCI_OK) fc_errf(err, errlen, "its lexicon %s: %s", lp, e2[0] ? e2 : fenci_rc_str(rc));
  }
  if (rc == FENCI_OK) {
    h = fc_fmt_find(&lf, "LEXH");
    have = h && h->size >= FC_LEXH_SIZE ? fc_rd32(h->data + FC_LEXH_ID_OFF) : 0;
    if (fc_fmt_find(&lf, "LREF") || !h) {
      fc_errf(err, errlen, "%s holds no lexicon of its own", lp);
      rc = FENCI_BADFORMAT;
    } else if (have != id) {
      fc_errf(err, errlen,
              "trained with the lexicon of id %08x, but %s has id %08x: put back the lexicon file it was "
              "trained with, or retrain it",
              (unsigned)id, lp, (unsigned)have);
      rc = FENCI_BADFORMAT;
    }
  }
  for (i = 0; rc == FENCI_OK && i < lf.n_sections; i++) {
    const fc_section *s = &lf.sec[i];
    if (!memcmp(s->tag, "META", 4)) {
      m->lex_meta = *s; /* read after the model's own (fc_model_setup) */
      continue;
    }
    if (fc_fmt_find(&m->file, s->tag)) continue;
    if (m->file.n_sections >= FC_FMT_MAX_SECTIONS) {
      fc_errf(err, errlen, "model and lexicon have more than %d sections together", FC_FMT_MAX_SECTIONS);
      rc = FENCI_BADFORMAT;
    } else
      m->file.sec[m->file.n_sections++] = *s;
  }
  fc_free(&m->a, lp);
  return rc;
}

/* Reads the (parsed, lexicon-attached) sections into m. */
static fenci_rc fc_model_setup(fenci_model *m, char *err, size_t errlen) {
  const fc_section *h, *t, *c, *g, *tg, *me;
  fenci_rc rc;
  uint32_t ntags;
  size_t i, k;

  h = fc_fmt_find(&m->file, "LEXH");
  t = fc_fmt_find(&m->file, "LEXT");
  c = fc_fmt_find(&m->file, "LEXC");
  g = fc_fmt_find(&m->file, "LEXG");
  tg = fc_fmt_find(&m->file, "TAGS");
  me = fc_fmt_find(&m->file, "META");
  if (!h || !t || !c || !g) {
    fc_errf(err, errlen, "model has no lexicon (sections LEXH, LEXT, LEXC and LEXG are required)");
    return FENCI_BADFORMAT;
  }
  if (h->size < FC_LEXH_SIZE) {
    fc_errf(err, errlen, "LEXH section too short (%zu bytes)", h->size);
    return FENCI_BADFORMAT;
  }
  m->n_words = fc_rd32(h->data);
  ntags = fc_rd32(h->data + 4);
  m->oov_cost = fc_rdf32(h->data + 16);
  if (!(m->oov_cost >= 0 && m->oov_cost < 1000)) {
    fc_errf(err, errlen, "LEXH: implausible unknown-character cost");
    return FENCI_BADFORMAT;
  }
  {
    /* the total as written (a double); ln of it is oov_cost, which stands
     * in when the stored one disagrees */
    uint64_t b = fc_rd64(h->data + 8);
    double tot;
    memcpy(&tot, &b, sizeof tot);
    m->total = tot >= 1 && tot < 1e300 && fabs(log(tot) - (double)m->oov_cost) < 1e-3 ? tot : exp((double)m->oov_cost);
  }
  if (c->size != m->n_words * 4 || g->size != m->n_words * 2) {
    fc_errf(err, errlen, "lexicon tables disagree: %zu words but LEXC has %zu bytes and LEXG %zu", m->n_words,
            c->size, g->size);
    return FENCI_BADFORMAT;
  }
  /* every tag name takes at least its NUL byte: this bounds ntags before it
   * sizes an allocation (a corrupt count could ask for 32 GB) */
  if (ntags && (!tg || ntags > tg->size)) {
    fc_errf(err, errlen, "LEXH says %u tags but the TAGS section has %zu bytes", (unsigned)ntags,
            tg ? tg->size : (size_t)0);
    return FENCI_BADFORMAT;
  }
  rc = fc_dat_view(&m->trie, t->data, t->size, err, errlen);
  if (rc != FENCI_OK) return rc;
  m->cost = (const float *)(const void *)c->data;
  m->tag = (const uint16_t *)(const void *)g->data;
  /* tag names: exactly ntags NUL-terminated strings */
  m->n_tags = 0;
  m->tag_index = fc_calloc(&m->a, (size_t)ntags + 1, sizeof(char *));
  if (!m->tag_index) return FENCI_NOMEM;
  m->tag_index[0] = "";
  if (ntags) {
    if (!tg || tg->size == 0 || tg->data[tg->size - 1] != 0) {
      fc_errf(err, errlen, "TAGS section missing or not NUL-terminated");
      return FENCI_BADFORMAT;
    }
    for (i = 0, k = 0; i < ntags; i++) {
      const char *s = (const char *)tg->data + k;
      size_t l;
      if (k >= tg->size) {
        fc_errf(err, errlen, "TAGS section has fewer than %u names", ntags);
        return FENCI_BADFORMAT;
      }
      l = strnlen(s, tg->size - k);
      m->tag_index[i + 1] = s;
      k += l + 1;
    }
    m->n_tags = ntags;
    m->tag_names = (const char *)tg->data;
  }
  {
    /* the model's META, then its lexicon file's when it references one */
    size_t own = me ? me->size : 0, lx = m->lex_meta.data ? m->lex_meta.size : 0;
    int nl = own && lx && me->data[own - 1] != '\n';
    m->meta_len = own + (size_t)nl + lx;
    m->meta_copy = fc_malloc(&m->a, m->meta_len + 1);
    if (!m->meta_copy) return FENCI_NOMEM;
    if (own) memcpy(m->meta_copy, me->data, own);
    if (nl) m->meta_copy[own] = '\n';
    if (lx) memcpy(m->meta_copy + own + nl, m->lex_meta.data, lx);
    m->meta_copy[m->meta_len] = 0;
  }
  m->meta = m->meta_copy;
  {
    const fc_section *hm = fc_fmt_find(&m->file, "HMMC");
    if (hm) {
      rc = fc_oov_view(&m->oov, hm->data, hm->size, err, errlen);
      if (rc != FENCI_OK) return rc;
      m->has_oov = 1;
      /* a dense table keeps the per-character search out of the hot loop;
       * it comes with the first use (fc_model_unk_table) */
      m->unk_min_e = -fc_oov_max(&m->oov, FC_UNK_LO, FC_UNK_HI, FC_TAG_E);
      m->unk_base = FC_UNK_BASE;
      m->unk_cap = FC_UNK_CAP;

    }
  }
  {
    const fc_section *p2 = fc_fmt_find(&m->file, "LEX2");
    if (p2) {
      rc = fc_pairs_view(&m->pairs, p2->data, p2->size, err, errlen);
      if (rc != FENCI_OK) return rc;
    }
  }
  {
    const fc_section *nx = fc_fmt_find(&m->file, "LEXN");
    if (nx) {
      rc = fc_lexnext_view(&m->next, nx->data, nx->size, &m->trie, err, errlen);
      if (rc != FENCI_OK) return rc;
    }
  }
  {
    const fc_section *bg = fc_fmt_find(&m->file, "LEXB");
    if (bg) {
      rc = fc_bigram_view(&m->bigram, bg->data, bg->size, m->n_words, err, errlen);
      if (rc != FENCI_OK) return rc;
    }
  }
  /* keyword tables (optional): sizes checked against the lexicon here */
  rc = fc_kwtable_view(&m->kw, &m->file, m->n_words, err, errlen);
  if (rc != FENCI_OK) return rc;
  /* the trie node after each common Han character, so the scan skips
   * the first three (most frequent, least cache-friendly) steps: zero
   * until used (fc_model_first); calloc leaves its pages untouched */
  m->first = fc_calloc(&m->a, 2 * (size_t)(FC_UNK_HI - FC_UNK_LO + 1), sizeof *m->first);
  if (!m->first) return FENCI_NOMEM;
  atomic_init(&m->first_all, 0);
  atomic_init(&m->unk_ready, 0);
#if !FC_FIRST_LAZY
  if (fc_model_first_all(m) != 0) return FENCI_NOMEM;
#endif
  rc = fc_segmodel_load(&m->seg, &m->file, &m->a, err, errlen);
  m->n_names = m->n_tags;
  if (rc == FENCI_OK && (me = fc_fmt_find(&m->file, "POSM")) != NULL) {
    /* the tagger's labels join the tag names (ids after the lexicon's) */
    const char **ix;
    uint32_t l;
    if (!(m->pos = fc_malloc(&m->a, sizeof *m->pos))) return FENCI_NOMEM;
    rc = fc_chain_view(m->pos, me, err, errlen);
    if (rc == FENCI_OK && m->pos->feature_version != FC_POS_FEATURE_VERSION) {
      /* the weights belong to other features: tags would be noise */
      fc_errf(err, errlen, "POSM: trained with tagger features version %u, this library has %d: retrain (make models)",
              (unsigned)m->pos->feature_version, FC_POS_FEATURE_VERSION);
      rc = FENCI_BADFORMAT;
    }
    if (rc == FENCI_OK) rc = fc_pos_dict_view(&m->pos_dict, me, m->pos, err, errlen);
    if (rc != FENCI_OK) return rc;
    ix = fc_realloc(&m->a, (void *)m->tag_index, (m->n_tags + 1 + m->pos->n_labels) * sizeof *ix);
    if (!ix) return FENCI_NOMEM;
    m->tag_index = ix;
    for (l = 0; l < m->pos->n_labels; l++) {
      const char *nm = m->pos->label[l];
      uint16_t id = fc_model_tag_id(m, nm, strlen(nm));
      if (!id) {
        ix[++m->n_names] = nm;
        id = (uint16_t)m->n_names;
      }
      m->pos_tag[l] = id;
    }
  }
  if (rc == FENCI_OK && (me = fc_fmt_find(&m->file, "NERM")) != NULL) {
    if (!(m->ner = fc_malloc(&m->a, sizeof *m->ner))) return FENCI_NOMEM;
    rc = fc_chain_view(m->ner, me, err, errlen);
    if (rc == FENCI_OK && m->ner->feature_version != FC_NER_FEATURE_VERSION) {
      fc_errf(err, errlen, "NERM: trained with recogniser features version %u, this library has %d: retrain (make models)",
              (unsigned)m->ner->feature_version, FC_NER_FEATURE_VERSION);
      rc = FENCI_BADFORMAT;
    }
    if (rc == FENCI_OK && m->ner->n_labels != FC_NER_N_LABELS) {
      fc_errf(err, errlen, "NERM: %u labels, the recogniser has %d", (unsigned)m->ner->n_labels, FC_NER_N_LABELS);
      rc = FENCI_BADFORMAT;
    }
  }
  if (rc == FENCI_OK && (me = fc_fmt_find(&m->file, "NERG")) != NULL) {
    if (!(m->nerg = fc_malloc(&m->a, sizeof *m->nerg))) return FENCI_NOMEM;
    rc = fc_ner_gaz_view(m->nerg, me->data, me->size);
    if (rc != FENCI_OK) fc_errf(err, errlen, "NERG: gazetteer header is inconsistent");
  }
  /* the person tags the name recogniser's lexicon features read, found
   * once here instead of by name for every sentence */
  m->tag_nr = fc_model_tag_id(m, "nr", 2);
  m->tag_nrfg = fc_model_tag_id(m, "nrfg", 4);
  return rc;
}

/* A new, empty model with its allocator, or NULL (message in err). */
static fenci_model *fc_model_alloc(const fenci_alloc *a, char *err, size_t errlen) {
  fenci_model *m = fc_calloc(a, 1, sizeof *m);
  if (!m) {
    fc_errf(err, errlen, "out of memory");
    return NULL;
  }
  m->a = fc_alloc_resolve(a);
  return m;
}

fenci_rc fenci_model_from_buffer(fenci_model **out, const void *buf, size_t len, const fenci_alloc *a, char *err,
                                 size_t errlen) {
  fenci_model *m;
  fenci_rc rc;
  if (err && errlen) err[0] = 0;
  if (!out) return FENCI_BADARG;
  *out = NULL;
  if (!buf || ((uintptr_t)buf & 7u)) {
    fc_errf(err, errlen, "model buffer is NULL or not 8-byte aligned");
    return FENCI_BADARG;
  }
  if (!(m = fc_model_alloc(a, err, errlen))) return FENCI_NOMEM;
  rc = fc_fmt_parse(&m->file, buf, len, 0, err, errlen);
  if (rc == FENCI_OK) rc = fc_model_attach_lexicon(m, NULL, 0, err, errlen);
  if (rc == FENCI_OK) rc = fc_model_setup(m, err, errlen);
  if (rc != FENCI_OK) {
    if (rc == FENCI_NOMEM && err && errlen && !err[0]) fc_errf(err, errlen, "out of memory");
    fenci_model_free(m);
    return rc;
  }
  *out = m;
  return FENCI_OK;
}

fenci_rc fenci_model_open(fenci_model **out, const char *path, const fenci_alloc *a, char *err, size_t errlen) {
  return fenci_model_open_ex(out, path, 0, a, err, errlen);
}

fenci_rc fenci_model_open_ex(fenci_model **out, const char *path, unsigned flags, const fenci_alloc *a, char *err,
                             size_t errlen) {
  fenci_model *m;
  fenci_rc rc;
  char e2[512];
  if (err && errlen) err[0] = 0;
  if (!out) return FENCI_BADARG;
  *out = NULL;
  if (!path) {
    fc_errf(err, errlen, "model path is NULL");
    return FENCI_BADARG;
  }
  if (flags & ~(unsigned)(FENCI_OPEN_READ | FENCI_OPEN_VERIFY)) {
    fc_errf(err, errlen, "unknown flags 0x%x for fenci_model_open_ex", flags);
    return FENCI_BADARG;
  }
  if (!(m = fc_model_alloc(a, err, errlen))) return FENCI_NOMEM;
  m->verify_crc = (flags & FENCI_OPEN_VERIFY) != 0;
  rc = fc_map_file(&m->map, path, (flags & FENCI_OPEN_READ) ? FC_MAP_READ : 0, &m->a, err, errlen);
  if (rc != FENCI_OK) {
    fc_free(&m->a, m);
    return rc;
  }
  e2[0] = 0;
  /* The body CRC is not verified by default: over a 16 MB model it costs
   * 5-10 ms, the whole start-up budget, while everything that could lead to
   * a bad read (header CRC, every section bound, table sizes, trie and hash
   * probes at lookup) is checked anyway.  fenci_model_check verifies it. */
  rc = fc_fmt_parse(&m->file, m->map.data, m->map.size, m->verify_crc, e2, sizeof e2);
  if (rc == FENCI_OK)
    rc = fc_model_attach_lexicon(m, path, (flags & FENCI_OPEN_READ) ? FC_MAP_READ : 0, e2, sizeof e2);
  if (rc == FENCI_OK) rc = fc_model_setup(m, e2, sizeof e2);
  if (rc != FENCI_OK) {
    fc_errf(err, errlen, "%s: %s", path, e2[0] ? e2 : fenci_rc_str(rc));
    fenci_model_free(m);
    return rc;
  }
  *out = m;
  return FENCI_OK;
}

size_t fenci_model_lexicon_size(const fenci_model *m) { return m ? m->n_words : 0; }

int fenci_model_word_freq(const fenci_model *m, const char *word, size_t len, double *freq) {
  uint32_t v, b;
  float c;
  if (!m || !word || !len || !fc_dat_find(&m->trie, (const uint8_t *)word, len, &v) || v >= m->n_words) return 0;
  /* the stored cost, ln total - ln freq (fc_model_cost would replace an
   * out-of-range one by the unknown-character cost: here it reads 0) */
  b = fc_rd32((const uint8_t *)(m->cost + v));
  memcpy(&c, &b, 4);
  if (freq) *freq = c >= 0 && c < 1000 ? m->total * exp(-(double)c) : 0;
  return 1;
}

double fenci_model_freq_total(const fenci_model *m) { return m ? m->total : 0; }
int fenci_model_has_weights(const fenci_model *m) { return m && m->seg ? 1 : 0; }
int fenci_model_has_pos(const fenci_model *m) { return m && m->pos ? 1 : 0; }
int fenci_model_has_ner(const fenci_model *m) { return m && m->ner ? 1 : 0; }

const char *fenci_model_meta(const fenci_model *m, size_t *len) {
  if (!m) {
    if (len) *len = 0;
    return "";
  }
  if (len) *len = m->meta_len;
  return m->meta;
}

const char *fenci_tag_name(const fenci_model *m, uint16_t tag) {
  if (!m || tag == 0 || tag > m->n_names) return "";
  return m->tag_index[tag];
}

fenci_rc fenci_model_check(const char *path, char *err, size_t errlen) {
  fenci_model *m = NULL;
  /* read, not mapped: a file changed during the check is an error, not a signal */
  fenci_rc rc = fenci_model_open_ex(&m, path, FENCI_OPEN_READ | FENCI_OPEN_VERIFY, NULL, err, errlen);
  size_t i;
  if (rc != FENCI_OK) return rc;
  rc = fc_dat_check(&m->trie, err, errlen);
  if (rc == FENCI_OK) rc = fc_lexnext_check(&m->next, &m->trie, err, errlen);
  {
    /* the lexicon id must be the lexicon's (0: compiled before ids) */
    const fc_section *h = fc_fmt_find(&m->file, "LEXH");
    uint32_t have = h->size >= FC_LEXH_SIZE ? fc_rd32(h->data + FC_LEXH_ID_OFF) : 0, id;
    uint32_t j;
    id = fc_lexicon_id_add(0, "LEXH", h->data, FC_LEXH_ID_OFF);
    for (j = 0; j < m->file.n_sections; j++)
      if (fc_lexicon_section(m->file.sec[j].tag))
        id = fc_lexicon_id_add(id, m->file.sec[j].tag, m->file.sec[j].data, m->file.sec[j].size);
    id = fc_lexicon_id_final(id);
    if (rc == FENCI_OK && have && have != id) {
      fc_errf(err, errlen, "%s: the lexicon id is %08x but its sections give %08x", path, (unsigned)have,
              (unsigned)id);
      rc = FENCI_BADFORMAT;
    }
  }
  for (i = 0; rc == FENCI_OK && i < m->n_words; i++) {
    float c = fc_rdf32((const uint8_t *)(m->cost + i));
    uint16_t t = fc_rd16((const uint8_t *)(m->tag + i));
    if (!(c >= 0 && c < 1000)) {
      fc_errf(err, errlen, "%s: word %zu has an invalid cost", path, i);
      rc = FENCI_BADFORMAT;
    } else if (t > m->n_tags) {
      fc_errf(err, errlen, "%s: word %zu has tag id %u but there are %zu tags", path, i, t, m->n_tags);
      rc = FENCI_BADFORMAT;
    }
  }
  fenci_model_free(m);
  return rc;
}

/* Guards the builds of the tables a model makes on first use; taken only
 * until they exist (rarely contended, so one for all models). */
static pthread_mutex_t fc_model_lazy = PTHREAD_MUTEX_INITIALIZER;

/* Stores the entry of cp: the word, then the node (lock held). */
static void fc_model_first_put(const fenci_model *m, uint32_t cp, uint32_t node, uint32_t word) {
  uint32_t *fe = m->first + 2 * (cp - FC_UNK_LO);
#if FC_FIRST_LAZY
  __atomic_store_n(&fe[1], word, __ATOMIC_RELAXED);
  __atomic_store_n(&fe[0], node, __ATOMIC_RELEASE); /* never 0: the root is no character's */
#else
  fe[1] = word;
  fe[0] = node;
#endif
}

void fc_model_first_fill(const fenci_model *m, uint32_t cp, uint32_t fe[2]) {
  uint32_t node = 0, v = FC_NO_NODE;
  if (fc_dat_step(&m->trie, &node, (uint8_t)(0xE0 | cp >> 12)) &&
      fc_dat_step(&m->trie, &node, (uint8_t)(0x80 | (cp >> 6 & 0x3F))) &&
      fc_dat_step(&m->trie, &node, (uint8_t)(0x80 | (cp & 0x3F)))) {
    if (!fc_dat_value(&m->trie, node, &v)) v = FC_NO_NODE;
  } else {
    node = FC_NO_NODE;
  }
  fe[0] = node;
  fe[1] = v;
  /* written once, under the lock: a thread that reads the table without a
   * check (after fc_model_first_all) must never meet a store to it; when
   * the lock cannot be had the entry waits for a later call */
  if (pthread_mutex_lock(&fc_model_lazy) != 0) return;
  if (m->first[2 * (cp - FC_UNK_LO)] == 0) fc_model_first_put(m, cp, node, v);
  pthread_mutex_unlock(&fc_model_lazy);
}

int fc_model_first_all(const fenci_model *m) {
  uint32_t b0, b1, b2, n0, n1, n2, cp, v;
  int ok0, ok1;
  if (atomic_load_explicit(&m->first_all, memory_order_acquire)) return 0;
  if (pthread_mutex_lock(&fc_model_lazy) != 0) return -1;
  if (!atomic_load_explicit(&m->first_all, memory_order_relaxed)) {
    /* by byte: the lead and second bytes are stepped once for all the
     * characters that share them; an entry already filled stays */
    for (b0 = 0xE4; b0 <= 0xE9; b0++) {
      n0 = 0;
      ok0 = fc_dat_step(&m->trie, &n0, (uint8_t)b0);
      for (b1 = 0x80; b1 <= 0xBF; b1++) {
        n1 = n0;
        ok1 = ok0 && fc_dat_step(&m->trie, &n1, (uint8_t)b1);
        for (b2 = 0x80; b2 <= 0xBF; b2++) {
          cp = (b0 & 0x0F) << 12 | (b1 & 0x3F) << 6 | (b2 & 0x3F);
          if (cp < FC_UNK_LO || cp > FC_UNK_HI || m->first[2 * (cp - FC_UNK_LO)] != 0) continue;
          n2 = n1;
          v = FC_NO_NODE;
          if (!ok1 || !fc_dat_step(&m->trie, &n2, (uint8_t)b2)) n2 = FC_NO_NODE;
          else if (!fc_dat_value(&m->trie, n2, &v)) v = FC_NO_NODE;
          fc_model_first_put(m, cp, n2, v);
        }
      }
    }
    atomic_store_explicit(&((fenci_model *)m)->first_all, 1, memory_order_release); /* made once, here */
  }
  pthread_mutex_unlock(&fc_model_lazy);
  return 0;
}

int fc_model_first_for(const fenci_model *m, size_t n) {
  if (!m->first) return 0;
  if (atomic_load_explicit(&m->first_all, memory_order_acquire)) return 1;
  if (n < FC_FIRST_ALL_MIN) return 0;
  return fc_model_first_all(m) == 0 ? 1 : -1;
}

const float *fc_model_unk_table(const fenci_model *m, fenci_rc *rc) {
  float *t = NULL;
  *rc = FENCI_OK;
  if (!m->has_oov) return NULL;
  if (atomic_load_explicit(&m->unk_ready, memory_order_acquire)) return m->unk_lp;
  if (pthread_mutex_lock(&fc_model_lazy) != 0) {
    *rc = FENCI_NOMEM;
    return NULL;
  }
  if (atomic_load_explicit(&m->unk_ready, memory_order_relaxed)) {
    t = m->unk_lp;
  } else if ((t = fc_malloc(&m->a, (FC_UNK_HI - FC_UNK_LO + 1) * 4 * sizeof *t)) != NULL) {
    fc_oov_fill(&m->oov, FC_UNK_LO, FC_UNK_HI, t);
    ((fenci_model *)m)->unk_lp = t; /* the model's own table, made once under the lock */
    atomic_store_explicit(&((fenci_model *)m)->unk_ready, 1, memory_order_release);
  }
  pthread_mutex_unlock(&fc_model_lazy);
  if (!t) *rc = FENCI_NOMEM;
  return t;
}

/* The tag id of a tag name, or 0. */
uint16_t fc_model_tag_id(const fenci_model *m, const char *name, size_t len) {
  size_t i;
  for (i = 1; i <= m->n_names; i++)
    if (strlen(m->tag_index[i]) == len && memcmp(m->tag_index[i], name, len) == 0) return (uint16_t)i;
  return 0;
}
