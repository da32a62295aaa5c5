/* chars.h - UTF-8 decoding and character classes. */
#ifndef FC_CHARS_H
#define FC_CHARS_H

#include <stddef.h>
#include <stdint.h>

/* Character classes. */
enum {
  FC_C_HAN = 1,     /* CJK unified ideographs (incl. ext. A-G, compatibility), 〇 */
  FC_C_LATIN,       /* ASCII and full-width Latin letters, Latin-1/Extended letters */
  FC_C_DIGIT,       /* ASCII digits 0-9 */
  FC_C_FWDIGIT,     /* full-width digits ０-９ */
  FC_C_CJKPUNCT,    /* CJK and full-width punctuation: 。，、“”《》（）…—· etc. */
  FC_C_PUNCT,       /* ASCII punctuation and other symbols */
  FC_C_SPACE,       /* whitespace: ASCII, U+3000, NBSP, other Unicode spaces, line ends */
  FC_C_KANA,        /* Japanese kana */
  FC_C_HANGUL,      /* Korean */
  FC_C_OTHER,       /* anything else that is valid */
  FC_C_INVALID      /* a byte that does not start a valid UTF-8 sequence */
};

/* Decodes one code point at s (n > 0 bytes available).  Returns the number
 * of bytes used (1..4).  Invalid input (bad lead or continuation byte,
 * truncation, overlong form, surrogate, > U+10FFFF) consumes exactly 1 byte
 * and sets *cp = FC_BADCP. */
#define FC_BADCP 0xFFFFFFFFu
static inline size_t fc_utf8_decode(const uint8_t *s, size_t n, uint32_t *cp) {
  uint32_t c = s[0];
  if (c < 0x80) { *cp = c; return 1; }
  if (c >= 0xC2 && c <= 0xDF) {
    if (n >= 2 && (s[1] & 0xC0) == 0x80) { *cp = ((c & 0x1F) << 6) | (s[1] & 0x3Fu); return 2; }
  } else if (c >= 0xE0 && c <= 0xEF) {
    if (n >= 3 && (s[1] & 0xC0) == 0x80 && (s[2] & 0xC0) == 0x80) {
      uint32_t v = ((c & 0x0F) << 12) | ((s[1] & 0x3Fu) << 6) | (s[2] & 0x3Fu);
      if (v >= 0x800 && (v < 0xD800 || v > 0xDFFF)) { *cp = v; return 3; }
    }
  } else if (c >= 0xF0 && c <= 0xF4) {
    if (n >= 4 && (s[1] & 0xC0) == 0x80 && (s[2] & 0xC0) == 0x80 && (s[3] & 0xC0) == 0x80) {
      uint32_t v = ((c & 0x07) << 18) | ((s[1] & 0x3Fu) << 12) | ((s[2] & 0x3Fu) << 6) | (s[3] & 0x3Fu);
      if (v >= 0x10000 && v <= 0x10FFFF) { *cp = v; return 4; }
    }
  }
  *cp = FC_BADCP;
  return 1;
}

/* Encodes cp (valid scalar value) into out (4 bytes); returns the length. */
size_t fc_utf8_encode(uint32_t cp, uint8_t *out);

/* The class of a code point (FC_BADCP gives FC_C_INVALID). */
int fc_char_class(uint32_t cp);

/* Normalises a code point for model features: full-width ASCII to ASCII,
 * U+3000 to space, traditional Han to simplified (OpenCC's table).
 * Offsets are never affected: this is used for features only. */
uint32_t fc_char_norm(uint32_t cp);

#endif
