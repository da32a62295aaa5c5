/* fuzz_segment.c - libFuzzer harness: segmentation of arbitrary text.
 *
 * Byte 0 chooses the options:  bits 0-1 mode (3 = default), bit 2
 * FENCI_OPT_FAST, bit 3 a trained model (when one is present) instead of
 * the mini lexicon, bit 4 a user dictionary, bit 5 stop the callback early,
 * bit 6 the shipped lexicon (models/lexicon.fenci, when present; bit 3 wins),
 * bit 7 the mini lexicon with an unknown-word model (HMMC; bits 3, 6 win).
 * Byte 1: bits 0-1 which trained model (models/ *.fenci with weights, in
 * name order, modulo their number); when bits 2-6 are all set, the text
 * is repeated until it is longer than 66 KiB, so that a chunk boundary
 * (64 KiB) falls somewhere in it, inside long units and words too (one
 * input in 32, as large ones are slow to check under the sanitizers; the
 * two runs through fenci_segment_into are skipped for them).
 * With a user dictionary, the next byte gives the word count (low 3 bits)
 * and each word is a length byte (1..16), a frequency byte (0 = forced) and
 * the word bytes.  With an early stop, the next byte is the token to stop
 * at.  The rest is the text.  Every token is checked (fuzz_common.h): the
 * main tokens tile the text, and no token breaks the rules of oracle.h
 * (invalid bytes, control characters, whitespace and different punctuation
 * marks are never joined).  The text is segmented twice on the same tagger
 * (the second time through fenci_segment_into) and both runs must agree.
 * In default mode without a dictionary (where the lexicon is looked up
 * without an edge list) search mode's main tokens, which go through the
 * edge list, must be the same tokens.  A tagger with the labellers' row
 * caches switched off gives the same tokens, tags and entities.  Inputs
 * over 1 MiB are skipped; run with -max_len=1048576 to let them grow that
 * far. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "tagger.h" /* to switch the row caches off */

typedef struct fz_ents {
  size_t n, last_end, last_cend, len;
  const char *text;
} fz_ents;

static int fz_entity(void *ctx, const fenci_entity *e) {
  fz_ents *x = ctx;
  if (e->start >= e->end || e->end > x->len || e->start < x->last_end || e->cstart >= e->cend ||
      e->cstart < x->last_cend || e->cend - e->cstart > e->end - e->start || !*fenci_entity_type_name(e->type) ||
      !e->value_text || (e->unit_end > e->unit_start && (e->unit_start < e->start || e->unit_end > e->end)))
    abort();
  if (x->text && fz_entity_words(x->text, x->len, e)) abort();
  x->last_end = e->end;
  x->last_cend = e->cend;
  x->n++;
  return 0;
}

/* The entities folded into one number (in last_end), for comparing runs. */
static int fz_entity_hash(void *ctx, const fenci_entity *e) {
  fz_ents *x = ctx;
  uint64_t vb;
  memcpy(&vb, &e->value, sizeof vb);
  x->last_end = (x->last_end * 1000003u) ^ (e->start * 31u + e->end) ^ ((size_t)e->type << 20) ^ (size_t)vb;
  x->n++;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static fenci_model *fz_mini, *fz_mini_hmm, *fz_trained[4], *fz_shipped;
static size_t fz_ntrained;
static char *fz_big; /* the repeated text */
static void *fz_img, *fz_img_hmm;
static int fz_ready;


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  unsigned o, o2, opts;
  int big;
  const fenci_model *m;
  fenci_dict *d = NULL;
  fenci_tagger *t = NULL;
  size_t pos, stop = 0, n_total = 0, i;
  fz_toks v = {NULL, 0, 0};
  fenci_token *arr;
  const char *text;
  size_t len;
  fenci_rc rc;

  if (!fz_ready) {
    fz_mini = fz_mini_model(&fz_img);
    fz_mini_hmm = fz_mini_model_ex(&fz_img_hmm, 1);
    fz_ntrained = fz_trained_models(fz_trained, 4);
    fz_shipped = fz_shipped_lexicon();
    fz_ready = 1;
  }
  if (size < 2 || size > (1u << 20)) return 0;
  o = data[0];
  o2 = data[1];
  opts = (o & 3) == 3 ? FENCI_MODE_DEFAULT : (o & 3);
  if (o & 4) opts |= FENCI_OPT_FAST;
  m = (o & 8) && fz_ntrained ? fz_trained[(o2 & 3) % fz_ntrained]
      : (o & 64) && fz_shipped ? fz_shipped
      : (o & 128)              ? fz_mini_hmm
                               : fz_mini;
  pos = 2;
  if (o & 16) {
    unsigned nw;
    if (pos >= size) return 0;
    nw = data[pos++] & 7;
    if (fenci_dict_new(&d, m, NULL) != FENCI_OK) abort();
    while (nw-- > 0 && pos + 2 <= size) {
      size_t wl = (size_t)(data[pos] & 15) + 1;
      double freq = data[pos + 1];
      pos += 2;
      if (wl > size - pos) wl = size - pos;
      (void)fenci_dict_add(d, (const char *)data + pos, wl, freq, (data[pos - 1] & 1) ? "n" : NULL);
      pos += wl;
    }
  }
  if ((o & 32) && pos < size) stop = (size_t)data[pos++] + 1;
  text = (const char *)data + pos;
  len = size - pos;
  big = (o2 & 0x7C) == 0x7C && len > 0;
  if (big) {
    size_t want = (66u << 10) + 1, k;
    free(fz_big);
    fz_big = malloc(want + len);
    if (!fz_big) abort();
    for (k = 0; k < want; k += len) memcpy(fz_big + k, text, len);
    text = fz_big;
    len = k;
  }

  /* byte 1 bit 7: part-of-speech tags, where the model has a tagger */
  if ((o2 & 0x80) && fenci_model_has_pos(m)) opts |= FENCI_OPT_POS;
  if (fenci_tagger_new(&t, m, opts) != FENCI_OK) abort();
  if (d && fenci_tagger_set_dict(t, d) != FENCI_OK) abort();
  rc = fz_segment_checked(t, text, len, stop);
  if (rc == FENCI_NOMEM) abort();
  /* the same text again, collected, then into an array: runs must agree */
  if (fenci_segment(t, text, len, fz_collect, &v) != FENCI_OK) abort();
  arr = malloc((v.n ? v.n : 1) * sizeof *arr);
  if (!arr) abort();
  if (!big) {
    rc = fenci_segment_into(t, text, len, arr, v.n / 2, &n_total);
    if (n_total != v.n || (rc != (v.n / 2 < v.n ? FENCI_TOOSMALL : FENCI_OK))) abort();
    if (fenci_segment_into(t, text, len, arr, v.n, &n_total) != FENCI_OK || n_total != v.n) abort();
    for (i = 0; i < v.n; i++)
      if (memcmp(&arr[i], &v.t[i], sizeof *arr) != 0) abort();
  }
  /* the trained segmenter keeps its punctuation rules (oracle.h) where no
   * forced user word may break them */
  if ((opts & FENCI_MODE_MASK) != FENCI_MODE_ALL && !(opts & FENCI_OPT_FAST) && !d && fenci_model_has_weights(m)) {
    for (i = 0; i < v.n; i++)
      if (!(v.t[i].flags & FENCI_TOK_EXTRA) && fz_token_punct(text, len, &v.t[i])) abort();
  }
  if ((opts & FENCI_MODE_MASK) == FENCI_MODE_DEFAULT && !d) {
    fenci_tagger *ts = NULL;
    fz_toks w = {NULL, 0, 0};
    size_t k = 0;
    if (fenci_tagger_new(&ts, m, FENCI_MODE_SEARCH | (opts & (FENCI_OPT_FAST | FENCI_OPT_POS))) != FENCI_OK) abort();
    if (fenci_segment(ts, text, len, fz_collect, &w) != FENCI_OK) abort();
    for (i = 0; i < w.n; i++) {
      if (w.t[i].flags & FENCI_TOK_EXTRA) continue;
      if (k >= v.n || memcmp(&w.t[i], &v.t[k], sizeof *arr) != 0) abort();
      k++;
    }
    if (k != v.n) abort();
    free(w.t);
    fenci_tagger_free(ts);
  }
  if (opts & FENCI_OPT_POS) {
    /* tagging changes no token but its tag; every tag has a name */
    fenci_tagger *tu = NULL;
    fz_toks u = {NULL, 0, 0};
    const char **words = malloc((v.n ? v.n : 1) * sizeof *words);
    size_t *lens = malloc((v.n ? v.n : 1) * sizeof *lens);
    uint16_t *tags = malloc((v.n ? v.n : 1) * sizeof *tags);
    if (!words || !lens || !tags) abort();
    if (fenci_tagger_new(&tu, m, opts & ~(unsigned)FENCI_OPT_POS) != FENCI_OK) abort();
    if (d && fenci_tagger_set_dict(tu, d) != FENCI_OK) abort();
    if (fenci_segment(tu, text, len, fz_collect, &u) != FENCI_OK || u.n != v.n) abort();
    for (i = 0; i < v.n; i++) {
      if (u.t[i].start != v.t[i].start || u.t[i].end != v.t[i].end || u.t[i].kind != v.t[i].kind ||
          u.t[i].flags != v.t[i].flags)
        abort();
      if (v.t[i].tag && !*fenci_tag_name(m, v.t[i].tag)) abort();
      words[i] = text + v.t[i].start;
      lens[i] = v.t[i].end - v.t[i].start;
    }
    if (fenci_tag_words(t, words, lens, v.n, tags) != FENCI_OK) abort();
    for (i = 0; i < v.n; i++)
      if (tags[i] && !*fenci_tag_name(m, tags[i])) abort();
    free(words);
    free(lens);
    free(tags);
    free(u.t);
    fenci_tagger_free(tu);
  }
  {
    /* entities: in order, not overlapping, inside the text, characters
     * consistent with bytes, names not splitting a Latin word (oracle.h) */
    fz_ents en = {0, 0, 0, len, text};
    if (fenci_entities(t, text, len, fz_entity, &en) != FENCI_OK) abort();
  }
  {
    /* the labellers' row caches change nothing: a tagger without them
     * gives the same tokens, tags and entities (t's caches are warm from
     * the runs above) */
    fenci_tagger *tc = NULL;
    fz_toks u = {NULL, 0, 0};
    fz_ents e1 = {0, 0, 0, len}, e2 = {0, 0, 0, len};
    if (fenci_tagger_new(&tc, m, opts) != FENCI_OK) abort();
    if (d && fenci_tagger_set_dict(tc, d) != FENCI_OK) abort();
    tc->pw.own.off = 1;
    tc->nw.small.off = 1;
    if (fenci_segment(tc, text, len, fz_collect, &u) != FENCI_OK || u.n != v.n) abort();
    for (i = 0; i < v.n; i++)
      if (memcmp(&u.t[i], &v.t[i], sizeof *arr) != 0) abort();
    if (fenci_entities(t, text, len, fz_entity_hash, &e1) != FENCI_OK ||
        fenci_entities(tc, text, len, fz_entity_hash, &e2) != FENCI_OK || e1.n != e2.n ||
        e1.last_end != e2.last_end)
      abort();
    free(u.t);
    fenci_tagger_free(tc);
  }
  free(arr);
  free(v.t);
  fenci_tagger_free(t);
  fenci_dict_free(d);
  return 0;
}
