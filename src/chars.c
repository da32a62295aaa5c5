/* chars.c - character classes and feature normalisation.
 * The ranges are few enough to test in order of frequency in Chinese text;
 * Han is checked first because it is by far the most common class. */
#include "chars.h"

size_t fc_utf8_encode(uint32_t cp, uint8_t *out) {
  if (cp < 0x80) { out[0] = (uint8_t)cp; return 1; }
  if (cp < 0x800) {
    out[0] = (uint8_t)(0xC0 | (cp >> 6));
    out[1] = (uint8_t)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = (uint8_t)(0xE0 | (cp >> 12));
    out[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (uint8_t)(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = (uint8_t)(0xF0 | (cp >> 18));
  out[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
  out[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
  out[3] = (uint8_t)(0x80 | (cp & 0x3F));
  return 4;
}

static int fc_is_space(uint32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200B) || c == 0x2028 || c == 0x2029 || c == 0x202F ||
         c == 0x205F || c == 0x3000 || c == 0xFEFF;
}

int fc_char_class(uint32_t c) {
  if (c == FC_BADCP) return FC_C_INVALID;
  if (c >= 0x4E00 && c <= 0x9FFF) return FC_C_HAN;
  if (c < 0x80) {
    if (c >= '0' && c <= '9') return FC_C_DIGIT;
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) return FC_C_LATIN;
    if (fc_is_space(c)) return FC_C_SPACE;
    if (c < 0x20 || c == 0x7F) return FC_C_OTHER;
    return FC_C_PUNCT;
  }
  if (fc_is_space(c)) return FC_C_SPACE;
  if ((c >= 0x3400 && c <= 0x4DBF) || (c >= 0xF900 && c <= 0xFAFF) || c == 0x3007 ||
      (c >= 0x20000 && c <= 0x2FA1F) || (c >= 0x30000 && c <= 0x323AF) ||
      (c >= 0x2E80 && c <= 0x2FDF))
    return FC_C_HAN;
  if (c >= 0xFF10 && c <= 0xFF19) return FC_C_FWDIGIT;
  if ((c >= 0xFF21 && c <= 0xFF3A) || (c >= 0xFF41 && c <= 0xFF5A)) return FC_C_LATIN;
  if ((c >= 0xFF01 && c <= 0xFF65) || (c >= 0x3000 && c <= 0x303F) || (c >= 0xFE10 && c <= 0xFE6F) ||
      (c >= 0x2010 && c <= 0x205E) || c == 0x00B7 || (c >= 0xFFE0 && c <= 0xFFEE))
    return FC_C_CJKPUNCT;
  if ((c >= 0x3040 && c <= 0x30FF) || (c >= 0x31F0 && c <= 0x31FF)) return FC_C_KANA;
  if ((c >= 0xAC00 && c <= 0xD7AF) || (c >= 0x1100 && c <= 0x11FF) || (c >= 0x3130 && c <= 0x318F))
    return FC_C_HANGUL;
  if ((c >= 0xC0 && c <= 0x24F && c != 0xD7 && c != 0xF7) || (c >= 0x370 && c <= 0x52F) ||
      (c >= 0x1E00 && c <= 0x1EFF))
    return FC_C_LATIN;
  if (c < 0xC0 || (c >= 0x2070 && c <= 0x2BFF) || (c >= 0x2500 && c <= 0x27BF) ||
      (c >= 0x1F000 && c <= 0x1FAFF) || (c >= 0x3200 && c <= 0x33FF))
    return FC_C_PUNCT;
  return FC_C_OTHER;
}

uint32_t fc_t2s(uint32_t cp); /* t2s.c: traditional -> simplified */

uint32_t fc_char_norm(uint32_t cp) {
  if (cp >= 0xFF01 && cp <= 0xFF5E) return cp - 0xFEE0;
  if (cp == 0x3000) return 0x20;
  if (cp >= 0x3400) return fc_t2s(cp);
  return cp;
}
