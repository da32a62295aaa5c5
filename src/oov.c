/* oov.c - the B/M/E/S character model for unknown words (lexicon mode). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "chars.h"
#include "fmt.h"
#include "oov.h"
#include "dat.h"

#define FC_OOV_REC 20
#define FC_OOV_ALPHA 2.0
#define FC_OOV_HDR (4 + 4 * 4)

static int fc_put_f32(fc_buf *b, float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return fc_buf_u32(b, u);
}

static float fc_get_f32(const uint8_t *p) {
  uint32_t u = fc_rd32(p);
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static int fc_u32_cmp(const void *x, const void *y) {
  uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
  return (a > b) - (a < b);
}

/* Counting uses a table over the BMP in 256 blocks allocated when a
 * character of the block first occurs, and a list of the characters seen,
 * so the cost follows the text, not the table. */
fenci_rc fc_oov_train(const uint8_t *text, size_t len, const fc_dat *lex, fc_buf *out, const fenci_alloc *a) {
  double(*blk[256])[4] = {NULL};
  double tot[4] = {0};
  uint32_t *seen = NULL;
  size_t nrec = 0, nseen = 0, seencap = 0, i, pos = 0;
  int j;
  fenci_rc rc = FENCI_NOMEM;
  while (pos < len) {
    /* one word: a run of non-space bytes */
    size_t s, nch = 0, p2;
    while (pos < len && (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\r' || text[pos] == '\n')) {
      pos++;
    }
    if (pos >= len) break;
    s = pos;
    while (pos < len && !(text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\r' || text[pos] == '\n')) pos++;
    for (p2 = s; p2 < pos; nch++) {
      uint32_t cp;
      p2 += fc_utf8_decode(text + p2, pos - p2, &cp);
    }
    {
      /* in-lexicon words count their characters as "inside a known word"
       * (tag slot S is reused for it): the model learns how characters
       * behave in words the lexicon lacks */
      uint32_t v;
      if (lex && pos - s <= 255 && fc_dat_find(lex, text + s, pos - s, &v)) nch = 1;
    }
    for (p2 = s, i = 0; p2 < pos; i++) {
      uint32_t cp;
      int tag;
      p2 += fc_utf8_decode(text + p2, pos - p2, &cp);
      if (cp == FC_BADCP) continue;
      cp = fc_char_norm(cp);
      tag = nch == 1 ? FC_TAG_S : i == 0 ? FC_TAG_B : i + 1 == nch ? FC_TAG_E : FC_TAG_M;
      if (cp < 0x10000) {
        double *c;
        if (!blk[cp >> 8] && !(blk[cp >> 8] = fc_calloc(a, 256, sizeof *blk[0]))) goto done;
        c = blk[cp >> 8][cp & 255];
        if (c[0] == 0 && c[1] == 0 && c[2] == 0 && c[3] == 0) {
          if (nseen == seencap && fc_grow(a, (void **)&seen, &seencap, nseen + 1, sizeof *seen)) goto done;
          seen[nseen++] = cp;
        }
        c[tag] += 1;
      }
      tot[tag] += 1;
    }
  }
  if (nseen == 0) {
    rc = FENCI_BADFORMAT;
    goto done;
  }
  qsort(seen, nseen, sizeof *seen, fc_u32_cmp);
  nrec = nseen;
  if (fc_buf_u32(out, (uint32_t)nrec)) goto done;
  for (j = 0; j < 4; j++)
    if (fc_put_f32(out, (float)log(0.1 / (tot[j] + 0.1 * (double)nrec)))) goto done;
  /* records hold log P(char | tag): for B, M and E, how likely the
   * character is in that position of a word the lexicon lacks */
  for (i = 0; i < nrec; i++) {
    const double *c = blk[seen[i] >> 8][seen[i] & 255];
    if (fc_buf_u32(out, seen[i])) goto done;
    for (j = 0; j < 4; j++)
      if (fc_put_f32(out, (float)log((c[j] + 0.1) / (tot[j] + 0.1 * (double)nrec)))) goto done;
  }
  rc = FENCI_OK;
done:
  fc_free(a, seen);
  for (i = 0; i < 256; i++) fc_free(a, blk[i]);
  return rc;
}

fenci_rc fc_oov_view(fc_oov *o, const uint8_t *data, size_t size, char *err, size_t errlen) {
  size_t i, n;
  int j;
  memset(o, 0, sizeof *o);
  if (size < FC_OOV_HDR) {
    fc_errf(err, errlen, "HMMC section too short");
    return FENCI_BADFORMAT;
  }
  n = fc_rd32(data);
  if (n > (size - FC_OOV_HDR) / FC_OOV_REC || size != FC_OOV_HDR + n * FC_OOV_REC) {
    fc_errf(err, errlen, "HMMC section size does not match its %zu records", n);
    return FENCI_BADFORMAT;
  }
  for (j = 0; j < 4; j++) {
    o->unk[j] = fc_get_f32(data + 4 + 4 * (size_t)j);
    if (!(o->unk[j] <= 0)) goto bad; /* NaN or a positive log probability */
  }
  o->tab = data + FC_OOV_HDR;
  o->n = n;
  for (i = 1; i < n; i++)
    if (fc_rd32(o->tab + i * FC_OOV_REC) <= fc_rd32(o->tab + (i - 1) * FC_OOV_REC)) {
      fc_errf(err, errlen, "HMMC records are not sorted");
      return FENCI_BADFORMAT;
    }
  return FENCI_OK;
bad:
  fc_errf(err, errlen, "HMMC holds an invalid probability");
  return FENCI_BADFORMAT;
}

/* The first record at or after cp. */
static size_t fc_oov_at(const fc_oov *o, uint32_t cp) {
  size_t a = 0, b = o->n;
  while (a < b) {
    size_t mid = (a + b) / 2;
    if (fc_rd32(o->tab + mid * FC_OOV_REC) < cp) a = mid + 1;
    else b = mid;
  }
  return a;
}

/* Record k's log probability of tag j, or the default when it is not one. */
static float fc_oov_rec(const fc_oov *o, size_t k, int j) {
  float v = fc_get_f32(o->tab + k * FC_OOV_REC + 4 + 4 * (size_t)j);
  return v <= 0 ? v : o->unk[j];
}

void fc_oov_fill(const fc_oov *o, uint32_t lo, uint32_t hi, float *out) {
  size_t k;
  uint32_t cp;
  int j;
  for (cp = lo; cp <= hi; cp++)
    for (j = 0; j < 4; j++) out[(size_t)(cp - lo) * 4 + (size_t)j] = o->unk[j];
  for (k = fc_oov_at(o, lo); k < o->n; k++) {
    cp = fc_rd32(o->tab + k * FC_OOV_REC);
    if (cp > hi) break;
    for (j = 0; j < 4; j++) out[(size_t)(cp - lo) * 4 + (size_t)j] = fc_oov_rec(o, k, j);
  }
}

float fc_oov_max(const fc_oov *o, uint32_t lo, uint32_t hi, int tag) {
  size_t k, seen = 0;
  float mx = -1e30f;
  for (k = fc_oov_at(o, lo); k < o->n && fc_rd32(o->tab + k * FC_OOV_REC) <= hi; k++, seen++) {
    float v = fc_oov_rec(o, k, tag);
    if (v > mx) mx = v;
  }
  /* some character of the range has no record: the default */
  if (seen < (size_t)(hi - lo) + 1 && o->unk[tag] > mx) mx = o->unk[tag];
  return mx;
}
