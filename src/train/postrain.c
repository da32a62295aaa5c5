/* postrain.c - training the part-of-speech tagger: People's Daily words
 * and tags become labeller sequences with the features of postag.c, and
 * the one labeller trainer (chaintrain.c) does the rest. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "model.h"
#include "postag.h"
#include "train/chaintrain.h"
#include "units.h"

/* A word's token kind as the segmenter would give it: the kind of its
 * unit when it is one unit, else a word. */
static uint16_t pt_kind(const uint8_t *s, size_t len) {
  uint8_t kind, cls;
  uint32_t cp;
  size_t u = fc_unit_len(s, len, &kind, &cls, &cp);
  return u == len ? kind : FENCI_KIND_WORD;
}

/* Sentences of c as labeller sequences; labels by name through map
 * (corpus tag index -> label, -1 = not a label: the sentence is left out). */
static fenci_rc pt_data(const fenci_model *lex, const fc_corpus *c, const int *map, fc_chain_data *d,
                        fc_pos_work *w, const fenci_alloc *a) {
  fc_posword *words = NULL;
  size_t cap = 0, s;
  fenci_rc rc = FENCI_OK;
  uint64_t keys[FC_POS_MAX_KEYS];
  for (s = 0; s < c->n_sent && rc == FENCI_OK; s++) {
    size_t w0 = c->sent_w[s], n = c->sent_w[s + 1] - w0, i, start = 0, skip = 0;
    const uint8_t *base = (const uint8_t *)c->text + c->sent[s];
    if (n > cap) {
      void *p = words;
      if (fc_grow(a, &p, &cap, n, sizeof *words)) return FENCI_NOMEM;
      words = p;
    }
    for (i = 0; i < n; i++) {
      words[i].s = base + start;
      words[i].len = c->wend[w0 + i] - start;
      words[i].kind = pt_kind(words[i].s, words[i].len);
      start = c->wend[w0 + i];
      if (map[c->wtag[w0 + i]] < 0) skip = 1;
    }
    if (skip) continue;
    /* the tagger decodes pieces of FC_POS_MAX_SEQ words: train on the same */
    for (i = 0; i < n && rc == FENCI_OK; i += FC_POS_MAX_SEQ) {
      size_t len = n - i < FC_POS_MAX_SEQ ? n - i : FC_POS_MAX_SEQ, j;
      rc = fc_pos_prepare(w, lex, words + i, len, a);
      for (j = 0; j < len && rc == FENCI_OK; j++) {
        size_t nk = fc_pos_keys(w, words + i, len, j, keys);
        if (fc_chain_data_add(d, keys, nk, (uint8_t)map[c->wtag[w0 + i + j]])) rc = FENCI_NOMEM;
      }
      if (rc == FENCI_OK && fc_chain_data_end(d)) rc = FENCI_NOMEM;
    }
  }
  fc_free(a, words);
  return rc;
}

fenci_rc fc_train_pos(const fenci_model *lex, const fc_corpus *train, const fc_corpus *dev, const fc_train_opts *o,
                      const fenci_alloc *a0, uint8_t **sec, size_t *sec_len, double *dev_acc, int *best_iter,
                      char *err, size_t errlen) {
  fenci_alloc ar = fc_alloc_resolve(a0);
  const fenci_alloc *a = &ar;
  const char *labels[FC_CHAIN_MAX_LABELS];
  int tmap[FC_CORPUS_MAX_TAGS], dmap[FC_CORPUS_MAX_TAGS];
  size_t i, n_labels = 0;
  fc_chain_data td, dd;
  fc_pos_work w;
  fc_chain_opts co;
  fenci_rc rc;
  if (!train->wtag) {
    fc_errf(err, errlen, "the POS tagger needs a corpus with tags (--format pd)");
    return FENCI_BADARG;
  }
  /* labels: the training corpus's tags, in order of first appearance */
  for (i = 0; i < FC_CORPUS_MAX_TAGS; i++) tmap[i] = dmap[i] = -1;
  for (i = 0; i < train->n_words; i++) {
    uint8_t t = train->wtag[i];
    if (t == 0 || tmap[t] >= 0) continue;
    if (n_labels == FC_CHAIN_MAX_LABELS) {
      fc_errf(err, errlen, "more than %d POS tags in the training corpus", FC_CHAIN_MAX_LABELS);
      return FENCI_BADARG;
    }
    tmap[t] = (int)n_labels;
    labels[n_labels++] = train->tagname[t];
  }
  if (dev && dev->wtag)
    for (i = 1; i < dev->n_tagnames; i++) {
      size_t k;
      for (k = 0; k < n_labels; k++)
        if (!strcmp(labels[k], dev->tagname[i])) dmap[i] = (int)k;
    }
  fc_chain_data_init(&td, a);
  fc_chain_data_init(&dd, a);
  memset(&w, 0, sizeof w);
  rc = pt_data(lex, train, tmap, &td, &w, a);
  if (rc == FENCI_OK && dev && dev->wtag) rc = pt_data(lex, dev, dmap, &dd, &w, a);
  fc_pos_work_free(&w, a);
  if (rc == FENCI_OK) {
    memset(&co, 0, sizeof co);
    co.n_labels = (uint32_t)n_labels;
    co.labels = labels;
    co.beam = 4; /* dev accuracy 95.85%, as with 6 (95.87%) and all 44 labels */
    co.feature_version = FC_POS_FEATURE_VERSION;
    co.group_mask = fc_pos_groups;
    co.iters = o->iters;
    co.patience = o->patience;
    co.seed = o->seed;
    co.min_count = o->min_count;
    co.prune = o->prune;
    co.log = o->log;
    co.log_ctx = o->log_ctx;
    rc = fc_chain_train(&td, dd.n_pos ? &dd : NULL, &co, a, sec, sec_len, dev_acc, best_iter, err, errlen);
  } else if (rc == FENCI_NOMEM)
    fc_errf(err, errlen, "out of memory while reading the POS corpus");
  fc_chain_data_free(&td);
  fc_chain_data_free(&dd);
  return rc;
}

fenci_rc fc_train_write_section(const fenci_model *lex, const char tag[4], const uint8_t *data, size_t len,
                                const char *meta, const fenci_alloc *a, uint8_t **out, size_t *out_len, char *err,
                                size_t errlen) {
  const fc_file *f = fc_model_file(lex);
  fc_writer w;
  fc_buf mb;
  size_t mlen = 0;
  const char *lm = fenci_model_meta(lex, &mlen);
  uint32_t i;
  fenci_rc rc = FENCI_OK;
  if (fc_fmt_find(f, "LREF")) {
    fc_errf(err, errlen, "the lexicon model references another file: give the lexicon itself");
    return FENCI_BADARG;
  }
  fc_writer_init(&w, a);
  fc_buf_init(&mb, a);
  for (i = 0; i < f->n_sections && rc == FENCI_OK; i++) {
    const fc_section *s = &f->sec[i];
    if (!memcmp(s->tag, tag, 4) || !memcmp(s->tag, "META", 4)) continue;
    rc = fc_writer_add(&w, s->tag, s->data, s->size);
  }
  if (rc == FENCI_OK) rc = fc_writer_add(&w, tag, data, len);
  if (rc == FENCI_OK && ((lm && mlen && (fc_buf_put(&mb, lm, mlen) || (lm[mlen - 1] != '\n' && fc_buf_putc(&mb, '\n')))) ||
                         (meta && fc_buf_put(&mb, meta, strlen(meta)))))
    rc = FENCI_NOMEM;
  if (rc == FENCI_OK) rc = fc_writer_add(&w, "META", mb.data ? (const void *)mb.data : "", mb.len);
  if (rc == FENCI_OK) rc = fc_writer_finish(&w, out, out_len);
  if (rc != FENCI_OK) fc_errf(err, errlen, "writing the model: %s", fenci_rc_str(rc));
  fc_writer_free(&w);
  fc_buf_free(&mb);
  return rc;
}
