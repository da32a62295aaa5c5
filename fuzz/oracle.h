/* oracle.h - what a token may hold, checked independently of the
 * segmenter's own unit scan (shared by the fuzzers and tests/unit).
 *
 * The break rule (src/units.h): a token never joins an invalid byte, a
 * control character, whitespace, a URL or an e-mail address to anything,
 * nor two different punctuation marks (inside a URL or an e-mail address,
 * a token of its own, they may follow each other).  Every invalid byte is a one-byte token of kind
 * FENCI_KIND_INVALID with FENCI_TOK_INVALID, and no other token has them.
 * The UTF-8 decoder here is written apart from the library's on purpose. */
#ifndef FENCI_ORACLE_H
#define FENCI_ORACLE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fenci.h"

int fc_char_class(uint32_t cp); /* src/chars.c: only to tell punctuation */

#define FZ_BAD 0xFFFFFFFFu

/* Strict decoding of one character at s (n > 0): its length, and *cp
 * (FZ_BAD for an invalid byte, which counts as one byte). */
static inline size_t fz_decode(const uint8_t *s, size_t n, uint32_t *cp) {
  uint32_t c = s[0], v;
  size_t need, i;
  *cp = FZ_BAD;
  if (c < 0x80) {
    *cp = c;
    return 1;
  }
  if (c >= 0xC2 && c <= 0xDF) need = 2, v = c & 0x1F;
  else if (c >= 0xE0 && c <= 0xEF) need = 3, v = c & 0x0F;
  else if (c >= 0xF0 && c <= 0xF4) need = 4, v = c & 0x07;
  else return 1;
  if (n < need) return 1;
  for (i = 1; i < need; i++) {
    if ((s[i] & 0xC0) != 0x80) return 1;
    v = (v << 6) | (s[i] & 0x3Fu);
  }
  if ((need == 3 && (v < 0x800 || (v >= 0xD800 && v <= 0xDFFF))) || (need == 4 && (v < 0x10000 || v > 0x10FFFF)))
    return 1;
  *cp = v;
  return need;
}

static inline int fz_is_space(uint32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200B) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
         c == 0x3000 || c == 0xFEFF;
}

static inline int fz_is_control(uint32_t c) { return !fz_is_space(c) && (c < 0x20 || (c >= 0x7F && c <= 0x9F)); }

static inline int fz_is_punct(uint32_t c) {
  int k = fc_char_class(c);
  return !fz_is_space(c) && !fz_is_control(c) && (k == 5 /* FC_C_CJKPUNCT */ || k == 6 /* FC_C_PUNCT */);
}

/* NULL when the token tok of text (len bytes) keeps the rules, else why not. */
static inline const char *fz_token_breaks(const char *text, size_t len, const fenci_token *tok) {
  const uint8_t *s = (const uint8_t *)text + tok->start;
  size_t n = tok->end - tok->start, i = 0, chars = 0;
  uint32_t prev = FZ_BAD, cp;
  int has_space = 0, has_other = 0, has_hard = 0;
  if (tok->end > len || tok->start >= tok->end) return "token outside the text";
  while (i < n) {
    /* decoded in the context of the text: a token must not end inside a character */
    size_t l = fz_decode(s + i, len - tok->start - i, &cp);
    if (i + l > n) return "token ends inside a character";
    if (cp == FZ_BAD || fz_is_control(cp)) has_hard = 1;
    if (cp != FZ_BAD && fz_is_space(cp)) has_space = 1;
    else has_other = 1;
    if (chars > 0 && prev != FZ_BAD && cp != FZ_BAD && prev != cp && fz_is_punct(prev) && fz_is_punct(cp) &&
        tok->kind != FENCI_KIND_URL && tok->kind != FENCI_KIND_EMAIL)
      return "two different punctuation marks joined";
    prev = cp;
    chars++;
    i += l;
  }
  if (tok->kind == FENCI_KIND_INVALID || (tok->flags & FENCI_TOK_INVALID)) {
    if (n != 1 || tok->kind != FENCI_KIND_INVALID || !(tok->flags & FENCI_TOK_INVALID) || prev != FZ_BAD)
      return "an invalid token that is not one invalid byte";
    return NULL;
  }
  if (chars == 1 && prev == FZ_BAD) return "an invalid byte not marked invalid";
  if (has_hard && chars > 1) return "an invalid byte or control character joined to another";
  if (has_space && has_other) return "whitespace joined to something else";
  return NULL;
}

/* The trained segmenter's punctuation rules (src/wordpunct.h), for the
 * main tokens of a trained model's default mode without user words (a
 * forced user word may break them): no word of two or more characters
 * with a Han character ends with a mark right after a Han character
 * (unless the mark closes a bracket), begins with one right before a Han
 * character (unless it opens one), holds a bracket without its partner
 * (the ASCII quote: an odd number of them), joins a run of two or more of
 * one mark to a Han character, or holds a full stop between a Han
 * character and a digit.  Marks are punctuation proper (not %, other
 * symbols or ○), full-width forms read as ASCII; the lists are written
 * apart from the library's. */
static inline uint32_t fz_fold(uint32_t c) { return c >= 0xFF01 && c <= 0xFF5E ? c - 0xFEE0 : c; }
static inline int fz_han(uint32_t c) { return c != FZ_BAD && fc_char_class(c) == 1 /* FC_C_HAN */; }
static inline int fz_digit(uint32_t c) { return c >= '0' && c <= '9'; }
static inline int fz_mark(uint32_t c) {
  static const uint32_t ranges[][2] = {{0xA1, 0xA1},     {0xAB, 0xAB},     {0xB7, 0xB7},     {0xBB, 0xBB},
                                       {0xBF, 0xBF},     {0x2010, 0x2027}, {0x2039, 0x2043}, {0x2045, 0x2051},
                                       {0x2053, 0x205E}, {0x3001, 0x3003}, {0x3008, 0x3011}, {0x3014, 0x301F},
                                       {0xFE10, 0xFE19}, {0xFE30, 0xFE4F}, {0xFE50, 0xFE61},
                                       {0xFE63, 0xFE63}, {0xFE68, 0xFE68}, {0xFE6B, 0xFE6B}, {0xFF5F, 0xFF65}};
  size_t k;
  if (c == FZ_BAD) return 0;
  if (c < 0x80)
    return c > 0x20 && c < 0x7F && !strchr("%$+<=>^`|~", (int)c) && !(c >= '0' && c <= '9') &&
           !((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
  for (k = 0; k < sizeof ranges / sizeof ranges[0]; k++)
    if (c >= ranges[k][0] && c <= ranges[k][1]) return 1;
  return 0;
}
/* > 0 an opening, < 0 a closing bracket of pair k; 0 no bracket; 99 '"' */
static inline int fz_bracket(uint32_t c) {
  static const uint32_t pairs[][3] = {
      {'(', ')', 0},         {'[', ']', 0},         {'{', '}', 0},         {0x3008, 0x3009, 0},
      {0x300A, 0x300B, 0},   {0x300C, 0x300D, 0},   {0x300E, 0x300F, 0},   {0x3010, 0x3011, 0},
      {0x3014, 0x3015, 0},   {0x3016, 0x3017, 0},   {0x3018, 0x3019, 0},   {0x301A, 0x301B, 0},
      {0x201C, 0x201D, 0},   {0x2018, 0x2019, 0},   {0xAB, 0xBB, 0},       {0x2039, 0x203A, 0},
      {0x301D, 0x301E, 0x301F}, {0x2045, 0x2046, 0}, {0xFE35, 0xFE36, 0},  {0xFE37, 0xFE38, 0},
      {0xFE39, 0xFE3A, 0},   {0xFE3B, 0xFE3C, 0},   {0xFE3D, 0xFE3E, 0},   {0xFE3F, 0xFE40, 0},
      {0xFE41, 0xFE42, 0},   {0xFE43, 0xFE44, 0},   {0xFE47, 0xFE48, 0},   {0xFE59, 0xFE5A, 0},
      {0xFE5B, 0xFE5C, 0},   {0xFE5D, 0xFE5E, 0},   {0xFF5F, 0xFF60, 0},   {0xFF62, 0xFF63, 0}};
  int k;
  if (c == '"') return 99;
  for (k = 0; k < (int)(sizeof pairs / sizeof pairs[0]); k++) {
    if (c == pairs[k][0]) return k + 1;
    if (c == pairs[k][1] || (pairs[k][2] && c == pairs[k][2])) return -(k + 1);
  }
  return 0;
}

static inline const char *fz_token_punct(const char *text, size_t len, const fenci_token *tok) {
  uint32_t c[256];
  int stack[64];
  size_t n = 0, i = 0, han = 0, depth = 0, quotes = 0;
  const uint8_t *s = (const uint8_t *)text + tok->start;
  if (tok->end > len || tok->start >= tok->end || tok->end - tok->start > 4 * 256) return NULL;
  while (i < tok->end - tok->start && n < 256) {
    uint32_t cp;
    i += fz_decode(s + i, tok->end - tok->start - i, &cp);
    c[n] = fz_fold(cp);
    han += fz_han(c[n++]);
  }
  if (n < 2 || !han) return NULL;
  if (fz_mark(c[n - 1]) && fz_han(c[n - 2]) && (fz_bracket(c[n - 1]) > 0 || fz_bracket(c[n - 1]) == 0 ||
                                                fz_bracket(c[n - 1]) == 99))
    return "a word ends with a mark after Han";
  if (fz_mark(c[0]) && fz_han(c[1]) && fz_bracket(c[0]) <= 0) return "a word begins with a mark before Han";
  if (fz_mark(c[0]) && fz_han(c[1]) && fz_bracket(c[0]) == 99) return "a word begins with a quote before Han";
  for (i = 0; i < n; i++) {
    int b = fz_bracket(c[i]);
    if (b == 99) quotes++;
    else if (b > 0 && depth < 64) stack[depth++] = b;
    else if (b < 0 && (!depth || stack[--depth] != -b)) return "a closing bracket without its opening one";
    if (fz_mark(c[i]) && i > 0 && fz_han(c[i - 1]) && i + 1 < n && c[i + 1] == c[i]) return "a run of marks after Han";
    if (fz_mark(c[i]) && i > 0 && c[i - 1] == c[i] && i + 1 < n && fz_han(c[i + 1])) return "a run of marks before Han";
    if (c[i] == '.' && i > 0 && i + 1 < n &&
        ((fz_han(c[i - 1]) && fz_digit(c[i + 1])) || (fz_digit(c[i - 1]) && fz_han(c[i + 1]))))
      return "a full stop joins Han and a digit";
  }
  if (quotes & 1) return "an odd number of quotes";
  return depth ? "an opening bracket without its closing one" : NULL;
}

/* Names (person, place, organisation) never begin or end inside a run of
 * Latin letters and digits (CEO, A380): the character before a name's
 * first and its first, and its last and the one after it, are never both
 * ASCII or full-width letters or digits. */
static inline int fz_alnum(uint32_t c) {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= 0xFF10 && c <= 0xFF19) ||
         (c >= 0xFF21 && c <= 0xFF3A) || (c >= 0xFF41 && c <= 0xFF5A);
}
/* Whether the characters ending and starting at byte off (0 < off < len)
 * of text are both such letters or digits. */
static inline int fz_alnum_join(const char *text, size_t len, size_t off) {
  const uint8_t *s = (const uint8_t *)text;
  uint32_t a, b;
  size_t p = off - 1, k;
  if (off == 0 || off >= len) return 0;
  for (k = 0; k < 3 && p > 0 && (s[p] & 0xC0) == 0x80; k++) p--;
  if (fz_decode(s + p, len - p, &a) != off - p) return 0;
  fz_decode(s + off, len - off, &b);
  return a != FZ_BAD && b != FZ_BAD && fz_alnum(a) && fz_alnum(b);
}
static inline const char *fz_entity_words(const char *text, size_t len, const fenci_entity *e) {
  if (e->type != FENCI_ENT_PER && e->type != FENCI_ENT_LOC && e->type != FENCI_ENT_ORG) return NULL;
  if (fz_alnum_join(text, len, e->start)) return "a name begins inside a Latin word or number";
  if (fz_alnum_join(text, len, e->end)) return "a name ends inside a Latin word or number";
  return NULL;
}

#endif
