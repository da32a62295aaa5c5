/* fuzz_keywords.c - libFuzzer harness for keyword extraction.
 *
 * data[0] picks the options: bit 0 TextRank, bit 1 FENCI_KW_BY_TAG, bit 2
 * FENCI_KW_NO_DEFAULT_STOP, bit 3 FENCI_KW_NUMBERS, bits 4-5 the tag filter
 * (NULL, "", "n,ns", "v,zz"), bit 6 a kwdict whose stop words and IDF table
 * are loaded from the text itself (either load may refuse it), bit 7 the
 * shipped lexicon (with its KIDF and KSTP tables) instead of the mini one
 * (without: TF-IDF must refuse unless the kwdict has a table).  data[1]
 * gives the TextRank window (low nibble, 0 = default) and top_k (high).
 * The rest is the text.
 *
 * Oracles: every keyword lies in the text, weights are finite, >= 0 and in
 * decreasing order, counts >= 1, at most top_k come out; a smaller array
 * gives FENCI_TOOSMALL with the same total and the same first keywords; and
 * fenci_keywords_tokens over the tokens fenci_segment gives is identical. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static fenci_model *fz_mini, *fz_shipped;
static void *fz_img;
static int fz_ready;


#define FZ_CAP 64

/* Field by field: the struct has padding. */
static int fz_same(const fenci_keyword *a, const fenci_keyword *b, size_t n) {
  size_t i;
  for (i = 0; i < n; i++)
    if (a[i].start != b[i].start || a[i].end != b[i].end || a[i].weight != b[i].weight ||
        a[i].count != b[i].count || a[i].tag != b[i].tag || a[i].kind != b[i].kind)
      return 0;
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const pos[] = {NULL, "", "n,ns", "v,zz"};
  const fenci_model *m;
  fenci_tagger *t = NULL;
  fenci_kwdict *d = NULL;
  fenci_kw_opts o;
  fenci_keyword kw[FZ_CAP], kw2[FZ_CAP];
  fz_toks v = {NULL, 0, 0};
  const char *text;
  size_t len, n = 0, n2 = 0, i;
  fenci_rc rc, rc2;

  if (!fz_ready) {
    fz_mini = fz_mini_model(&fz_img);
    fz_shipped = fz_shipped_lexicon();
    fz_ready = 1;
  }
  if (size < 2 || size > (1u << 18)) return 0;
  m = (data[0] & 0x80) && fz_shipped ? fz_shipped : fz_mini;
  if (!m) return 0;
  text = (const char *)data + 2;
  len = size - 2;
  memset(&o, 0, sizeof o);
  o.method = data[0] & 1 ? FENCI_KW_TEXTRANK : FENCI_KW_TFIDF;
  o.flags = (data[0] & 2 ? FENCI_KW_BY_TAG : 0) | (data[0] & 4 ? FENCI_KW_NO_DEFAULT_STOP : 0) |
            (data[0] & 8 ? FENCI_KW_NUMBERS : 0);
  o.pos = pos[(data[0] >> 4) & 3];
  o.window = data[1] & 0xF ? (unsigned)(data[1] & 0xF) + 1 : 0;
  o.top_k = data[1] >> 4;
  if (data[0] & 0x40) {
    if (fenci_kwdict_new(&d, NULL) != FENCI_OK) abort();
    (void)fenci_kwdict_load_stop(d, text, len, NULL, 0);
    (void)fenci_kwdict_load_idf(d, text, len, NULL, 0);
    o.dict = d;
  }
  if (fenci_tagger_new(&t, m, 0) != FENCI_OK) abort();
  rc = fenci_keywords(t, text, len, &o, kw, FZ_CAP, &n);
  if (rc == FENCI_BADARG) {
    /* only TF-IDF without the model's table may refuse */
    if (o.method != FENCI_KW_TFIDF || m == fz_shipped) abort();
    goto done;
  }
  if (rc != FENCI_OK && rc != FENCI_TOOSMALL) abort();
  if (o.top_k && n > o.top_k) abort();
  for (i = 0; i < n && i < FZ_CAP; i++) {
    if (kw[i].start >= kw[i].end || kw[i].end > len || kw[i].count < 1) abort();
    if (!isfinite(kw[i].weight) || kw[i].weight < 0) abort();
    if (i && kw[i].weight > kw[i - 1].weight) abort();
  }
  if (n > 1) {
    size_t half = (n < FZ_CAP ? n : FZ_CAP) / 2;
    rc2 = fenci_keywords(t, text, len, &o, kw2, half, &n2);
    if (rc2 != FENCI_TOOSMALL || n2 != n || !fz_same(kw, kw2, half)) abort();
  }
  /* the same over the tokens themselves */
  if (fenci_segment(t, text, len, fz_collect, &v) != FENCI_OK) abort();
  rc2 = fenci_keywords_tokens(m, text, len, v.t, v.n, &o, kw2, FZ_CAP, &n2);
  if (rc2 != rc || n2 != n || !fz_same(kw, kw2, n < FZ_CAP ? n : FZ_CAP)) abort();
done:
  free(v.t);
  fenci_tagger_free(t);
  fenci_kwdict_free(d);
  return 0;
}
