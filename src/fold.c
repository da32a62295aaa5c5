/* fold.c - fenci_fold: the text folding a search index wants, so that the
 * forms of a word a reader takes for the same word give the same bytes:
 * letters case-folded, full-width forms made ASCII, traditional Han
 * characters made simplified.  The tables are the segmenter's own (chars.c,
 * t2s.c), so a folded token and the lexicon lookups agree. */
#include "chars.h"
#include "fenci.h"
#include "t2s.h"

/* The simple case folding (one code point to one code point) of the
 * capital letters of Latin-1, Latin Extended-A, basic Greek and Cyrillic;
 * anything else is returned as it is.  Enough for the Latin words, names
 * and abbreviations found in Chinese text; the full folding (ß -> ss) and
 * the rest of Unicode are out of scope. */
static uint32_t fc_fold_case(uint32_t c) {
  if (c < 0x80) return (c >= 'A' && c <= 'Z') ? c + 32 : c;
  if (c < 0xC0) return c == 0xB5 ? 0x3BC : c; /* micro sign -> Greek mu */
  if (c <= 0xDE) return c == 0xD7 ? c : c + 32;
  if (c < 0x100) return c;
  if (c < 0x180) {
    if (c == 0x130 || c == 0x131 || c == 0x138 || c == 0x149) return c; /* no simple folding */
    if (c == 0x178) return 0xFF;  /* Ÿ -> ÿ */
    if (c == 0x17F) return 's';   /* long s */
    if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) return (c & 1) ? c + 1 : c;
    return (c & 1) ? c : c + 1;   /* 0100-0137 and 014A-0177: even is the capital */
  }
  if (c >= 0x386 && c <= 0x3AB) {
    if (c == 0x386) return 0x3AC;
    if (c >= 0x388 && c <= 0x38A) return c + 37;
    if (c == 0x38C) return 0x3CC;
    if (c == 0x38E || c == 0x38F) return c + 63;
    if (c >= 0x391 && c <= 0x3AB && c != 0x3A2) return c + 32;
    return c;
  }
  if (c == 0x3C2) return 0x3C3; /* final sigma */
  if (c >= 0x400 && c <= 0x40F) return c + 80;
  if (c >= 0x410 && c <= 0x42F) return c + 32;
  return c;
}

static uint32_t fc_fold_char(uint32_t c, unsigned flags) {
  if (flags & FENCI_FOLD_WIDTH) {
    if (c >= 0xFF01 && c <= 0xFF5E) c -= 0xFEE0;
    else if (c == 0x3000) c = 0x20;
  }
  if ((flags & FENCI_FOLD_CASE) && c < 0x430) c = fc_fold_case(c);
  if ((flags & FENCI_FOLD_T2S) && c >= 0x3400) {
    /* to a fixed point, so that folding twice changes nothing: the table
     * has one chain (薴 -> 苧 -> 苎) */
    int k;
    for (k = 0; k < 4; k++) {
      uint32_t s = fc_t2s(c);
      if (s == c) break;
      c = s;
    }
  }
  return c;
}

fenci_rc fenci_fold(const char *text, size_t len, unsigned flags, char *out, size_t cap, size_t *out_len) {
  const uint8_t *s = (const uint8_t *)text;
  uint8_t *o = (uint8_t *)out;
  size_t i = 0, n = 0;
  if (out_len) *out_len = 0;
  if ((flags & ~(unsigned)FENCI_FOLD_ALL) || (!text && len) || (!out && cap) || !out_len) return FENCI_BADARG;
  while (i < len) {
    uint8_t enc[4];
    uint32_t cp;
    size_t k, m;
    if (s[i] < 0x80) {
      /* ASCII: one byte in, one byte out */
      uint8_t b = s[i++];
      if ((flags & FENCI_FOLD_CASE) && b >= 'A' && b <= 'Z') b = (uint8_t)(b + 32);
      if (n < cap) o[n] = b;
      n++;
      continue;
    }
    k = fc_utf8_decode(s + i, len - i, &cp);
    if (cp == FC_BADCP) {
      m = 1; /* an invalid byte is copied as it is */
      enc[0] = s[i];
    } else {
      uint32_t f = fc_fold_char(cp, flags);
      if (f == cp) {
        m = k;
        enc[0] = s[i];
        if (k > 1) enc[1] = s[i + 1];
        if (k > 2) enc[2] = s[i + 2];
        if (k > 3) enc[3] = s[i + 3];
      } else {
        m = fc_utf8_encode(f, enc);
      }
    }
    /* a character that does not fit is not written in part */
    if (n + m <= cap) {
      size_t j;
      for (j = 0; j < m; j++) o[n + j] = enc[j];
    } else if (n < cap) {
      cap = n;
    }
    n += m;
    i += k;
  }
  *out_len = n;
  return n > cap ? FENCI_TOOSMALL : FENCI_OK;
}
