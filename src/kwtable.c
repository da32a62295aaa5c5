/* kwtable.c - the keyword tables of a model: the IDF values (KIDF) and the
 * default stop words (KSTP): validation at load, lookups, and the builders
 * `fenci idf` writes them with.  Layouts: docs/FORMAT.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "chars.h"
#include "kwtable.h"
#include "lexicon.h"
#include "lookup.h"
#include "model.h"

/* Values are stored as 1 + round(idf * FC_KIDF_SCALE): steps of 1/2048
 * keep ranks apart far below any difference one document makes, and
 * 65534 / 2048 = 32 is far above ln(documents) of any corpus. */
#define FC_KIDF_SCALE 2048.0

static float fc_kwt_rdf32(const uint8_t *p) {
  uint32_t b = fc_rd32(p);
  float f;
  memcpy(&f, &b, 4);
  return f;
}

/* Bytewise order, shorter first on a common prefix (as the lexicon). */
static int fc_kwt_keycmp(const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
  int c = memcmp(a, b, an < bn ? an : bn);
  if (c) return c;
  return an < bn ? -1 : an > bn;
}

fenci_rc fc_kwtable_view(fc_kwtable *k, const fc_file *f, size_t n_words, char *err, size_t errlen) {
  const fc_section *s = fc_fmt_find(f, "KIDF");
  memset(k, 0, sizeof *k);
  if (s) {
    uint32_t nw;
    float med, scale;
    if (s->size < FC_KIDF_HEAD) {
      fc_errf(err, errlen, "KIDF section too short (%zu bytes)", s->size);
      return FENCI_BADFORMAT;
    }
    nw = fc_rd32(s->data);
    med = fc_kwt_rdf32(s->data + 8);
    scale = fc_kwt_rdf32(s->data + 12);
    if (nw != n_words || s->size != FC_KIDF_HEAD + 2 * (size_t)nw) {
      fc_errf(err, errlen, "KIDF section has %zu bytes for %u words, the lexicon has %zu words (want %zu bytes)",
              s->size, (unsigned)nw, n_words, FC_KIDF_HEAD + 2 * n_words);
      return FENCI_BADFORMAT;
    }
    if (!(med >= 0 && med < 1000) || !(scale > 0 && scale < 1e9f)) {
      fc_errf(err, errlen, "KIDF section: implausible median %g or scale %g", (double)med, (double)scale);
      return FENCI_BADFORMAT;
    }
    k->idf = s->data + FC_KIDF_HEAD;
    k->idf_docs = fc_rd32(s->data + 4);
    k->idf_median = med;
    k->idf_scale = scale;
  }
  s = fc_fmt_find(f, "KSTP");
  if (s) {
    uint32_t n, blen, i, prev = 0;
    const uint8_t *off, *bytes;
    if (s->size < FC_KSTP_HEAD) {
      fc_errf(err, errlen, "KSTP section too short (%zu bytes)", s->size);
      return FENCI_BADFORMAT;
    }
    n = fc_rd32(s->data);
    blen = fc_rd32(s->data + 4);
    /* 64-bit sums: a corrupt count cannot wrap the size check */
    if ((uint64_t)FC_KSTP_HEAD + 4 * ((uint64_t)n + 1) + blen != (uint64_t)s->size) {
      fc_errf(err, errlen, "KSTP section: %zu bytes, but %u words of %u bytes need %llu", s->size, (unsigned)n,
              (unsigned)blen, (unsigned long long)(FC_KSTP_HEAD + 4 * ((uint64_t)n + 1) + blen));
      return FENCI_BADFORMAT;
    }
    off = s->data + FC_KSTP_HEAD;
    bytes = off + 4 * ((size_t)n + 1);
    if (fc_rd32(off) != 0 || fc_rd32(off + 4 * (size_t)n) != blen) {
      fc_errf(err, errlen, "KSTP section: offsets do not span the word bytes");
      return FENCI_BADFORMAT;
    }
    for (i = 0; i < n; i++) {
      uint32_t a = fc_rd32(off + 4 * (size_t)i), b = fc_rd32(off + 4 * ((size_t)i + 1));
      if (b <= a || b > blen || b - a > FC_KW_MAX_WORD) {
        fc_errf(err, errlen, "KSTP section: word %u has bad offsets %u..%u", (unsigned)i, (unsigned)a, (unsigned)b);
        return FENCI_BADFORMAT;
      }
      if (i && fc_kwt_keycmp(bytes + prev, a - prev, bytes + a, b - a) >= 0) {
        fc_errf(err, errlen, "KSTP section: word %u is out of order", (unsigned)i);
        return FENCI_BADFORMAT;
      }
      prev = a;
    }
    k->stop_off = off;
    k->stop_bytes = bytes;
    k->n_stop = n;
  }
  return FENCI_OK;
}

int fc_kwtable_idf(const fc_kwtable *k, uint32_t w, double *idf) {
  uint16_t q;
  if (!k->idf) return 0;
  q = fc_rd16(k->idf + 2 * (size_t)w);
  if (q == 0) return 0;
  *idf = (double)(q - 1) / (double)k->idf_scale;
  return 1;
}

int fc_kwtable_is_stop(const fc_kwtable *k, const uint8_t *s, size_t n) {
  size_t lo = 0, hi = k->n_stop;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    uint32_t a = fc_rd32(k->stop_off + 4 * mid), b = fc_rd32(k->stop_off + 4 * (mid + 1));
    int c = fc_kwt_keycmp(k->stop_bytes + a, b - a, s, n);
    if (c == 0) return 1;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return 0;
}

size_t fc_kw_fold(const uint8_t *s, size_t n, int fold_all, uint8_t *out, size_t cap) {
  size_t len = 0;
  unsigned flags = fold_all ? FENCI_FOLD_ALL : (FENCI_FOLD_WIDTH | FENCI_FOLD_T2S);
  if (n == 0 || n > 4 * FC_KW_MAX_WORD) return 0;
  if (fenci_fold((const char *)s, n, flags, (char *)out, cap, &len) != FENCI_OK) return 0;
  return len <= FC_KW_MAX_WORD ? len : 0;
}

int fc_kw_lexicon_word(const fenci_model *m, const uint8_t *s, size_t n, uint32_t *w) {
  uint8_t key[4 * FC_KW_MAX_WORD + 4];
  size_t kn = fc_kw_fold(s, n, 0, key, sizeof key);
  uint32_t v;
  /* the lattice's lookup: cached first-character and pair steps */
  if (!kn || !fc_lex_find(m, key, kn, &v)) return 0;
  *w = v;
  return 1;
}

int fenci_model_word_idf(const fenci_model *m, const char *word, size_t len, double *idf) {
  uint32_t w;
  double v = 0;
  int found;
  if (!m) return -1;
  if (!m->kw.idf) return -1;
  found = word && fc_kw_lexicon_word(m, (const uint8_t *)word, len, &w) && fc_kwtable_idf(&m->kw, w, &v);
  if (idf) *idf = found ? v : (double)m->kw.idf_median;
  return found;
}

int fc_kw_line(const char *text, size_t len, size_t *pos, size_t *no, const uint8_t **line, size_t *n) {
  if (!fc_next_line((const uint8_t *)text, len, pos, line, n)) return 0;
  if (++*no == 1 && *n >= 3 && !memcmp(*line, "\xEF\xBB\xBF", 3)) *line += 3, *n -= 3;
  while (*n && ((*line)[0] == ' ' || (*line)[0] == '\t')) (*line)++, (*n)--;
  while (*n && ((*line)[*n - 1] == ' ' || (*line)[*n - 1] == '\t' || (*line)[*n - 1] == '\r')) (*n)--;
  return 1;
}

static int fc_kwt_cmp_float(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return x < y ? -1 : x > y;
}

static void fc_kwt_wrf32(uint8_t *p, float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  p[0] = (uint8_t)b;
  p[1] = (uint8_t)(b >> 8);
  p[2] = (uint8_t)(b >> 16);
  p[3] = (uint8_t)(b >> 24);
}

fenci_rc fc_kidf_build(const uint32_t *df, size_t n_words, uint32_t n_docs, fc_buf *out, double *median) {
  size_t i, n = 0;
  float *v;
  uint8_t head[FC_KIDF_HEAD];
  double med = 0;
  if (n_words > UINT32_MAX) return FENCI_BADARG;
  v = fc_malloc(out->a, (n_words ? n_words : 1) * sizeof *v);
  if (!v) return FENCI_NOMEM;
  for (i = 0; i < n_words; i++)
    if (df[i] && n_docs) v[n++] = (float)log((double)n_docs / (double)df[i]);
  if (n) {
    qsort(v, n, sizeof *v, fc_kwt_cmp_float);
    med = v[n / 2];
  }
  fc_free(out->a, v);
  memset(head, 0, sizeof head);
  head[0] = (uint8_t)n_words;
  head[1] = (uint8_t)(n_words >> 8);
  head[2] = (uint8_t)(n_words >> 16);
  head[3] = (uint8_t)(n_words >> 24);
  head[4] = (uint8_t)n_docs;
  head[5] = (uint8_t)(n_docs >> 8);
  head[6] = (uint8_t)(n_docs >> 16);
  head[7] = (uint8_t)(n_docs >> 24);
  fc_kwt_wrf32(head + 8, (float)med);
  fc_kwt_wrf32(head + 12, (float)FC_KIDF_SCALE);
  if (fc_buf_put(out, head, sizeof head)) return FENCI_NOMEM;
  for (i = 0; i < n_words; i++) {
    uint16_t q = 0;
    if (df[i] && n_docs) {
      double x = 1 + floor(log((double)n_docs / (double)df[i]) * FC_KIDF_SCALE + 0.5);
      q = (uint16_t)(x > 65535 ? 65535 : x);
    }
    if (fc_buf_u16(out, q)) return FENCI_NOMEM;
  }
  if (median) *median = med;
  return FENCI_OK;
}

typedef struct fc_kwt_span {
  size_t off, len;  /* the folded word in the scratch buffer */
  const uint8_t *p; /* the same, set once the buffer stops growing */
} fc_kwt_span;

static int fc_kwt_span_cmp(const void *a, const void *b) {
  const fc_kwt_span *x = a, *y = b;
  return fc_kwt_keycmp(x->p, x->len, y->p, y->len);
}

fenci_rc fc_kstp_build(const char *text, size_t len, const fenci_alloc *a, fc_buf *out, size_t *n_out, char *err,
                       size_t errlen) {
  fc_buf words;
  fc_kwt_span *sp = NULL;
  size_t nsp = 0, cap = 0, pos = 0, line_no = 0, i, n = 0, total = 0;
  const uint8_t *line;
  size_t line_len;
  fenci_rc rc = FENCI_OK;
  fc_buf_init(&words, a);
  while (fc_kw_line(text, len, &pos, &line_no, &line, &line_len)) {
    uint8_t key[4 * FC_KW_MAX_WORD + 4];
    size_t kn, j;
    if (!line_len || line[0] == '#') continue;
    for (j = 0; j < line_len;) {
      uint32_t cp;
      j += fc_utf8_decode(line + j, line_len - j, &cp);
      if (cp == FC_BADCP) break;
    }
    kn = j == line_len ? fc_kw_fold(line, line_len, 1, key, sizeof key) : 0;
    if (!kn) {
      fc_errf(err, errlen, "line %zu: %s", line_no, j == line_len ? "word over 255 bytes" : "invalid UTF-8");
      rc = FENCI_BADFORMAT;
      goto done;
    }
    if (fc_grow(a, (void **)&sp, &cap, nsp + 1, sizeof *sp)) {
      rc = FENCI_NOMEM;
      goto done;
    }
    sp[nsp].off = words.len;
    sp[nsp].len = kn;
    nsp++;
    if (fc_buf_put(&words, key, kn)) {
      rc = FENCI_NOMEM;
      goto done;
    }
  }
  if (nsp > UINT32_MAX / 2 || words.len > UINT32_MAX) {
    rc = FENCI_BADARG;
    goto done;
  }
  for (i = 0; i < nsp; i++) sp[i].p = words.data + sp[i].off;
  if (nsp) qsort(sp, nsp, sizeof *sp, fc_kwt_span_cmp);
  /* drop duplicates in place, then write the count, offsets and bytes */
  for (i = 0; i < nsp; i++)
    if (!n || fc_kwt_span_cmp(&sp[n - 1], &sp[i]) != 0) sp[n++] = sp[i];
  for (i = 0; i < n; i++) total += sp[i].len;
  if (fc_buf_u32(out, (uint32_t)n) || fc_buf_u32(out, (uint32_t)total)) rc = FENCI_NOMEM;
  for (i = 0, pos = 0; rc == FENCI_OK && i <= n; i++) {
    if (fc_buf_u32(out, (uint32_t)pos)) rc = FENCI_NOMEM;
    if (i < n) pos += sp[i].len;
  }
  for (i = 0; rc == FENCI_OK && i < n; i++)
    if (fc_buf_put(out, sp[i].p, sp[i].len)) rc = FENCI_NOMEM;
  if (n_out) *n_out = n;
done:
  fc_free(a, sp);
  fc_buf_free(&words);
  return rc;
}
