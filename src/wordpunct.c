/* wordpunct.c - where punctuation may stand in a word (wordpunct.h). */
#include "fenci.h"
#include "chars.h"
#include "wordpunct.h"

/* Punctuation proper (the marks of Unicode's P categories, after
 * fc_char_norm): not the percent and per-mille signs, primes, currency,
 * maths or other symbols ("五％", "３０℃", "二○○○年" stay words). */
static int fc_punct_proper(uint32_t cp) {
  if (cp < 0x80) {
    switch (cp) {
      case '!': case '"': case '#': case '&': case '\'': case '(': case ')': case '*': case ',': case '-':
      case '.': case '/': case ':': case ';': case '?': case '@': case '[': case '\\': case ']': case '_':
      case '{': case '}':
        return 1;
      default:
        return 0;
    }
  }
  return cp == 0xA1 || cp == 0xAB || cp == 0xB7 || cp == 0xBB || cp == 0xBF || (cp >= 0x2010 && cp <= 0x2027) ||
         (cp >= 0x2039 && cp <= 0x205E) || (cp >= 0x3001 && cp <= 0x3003) || (cp >= 0x3008 && cp <= 0x3011) ||
         (cp >= 0x3014 && cp <= 0x301F) || cp == 0x30FB || (cp >= 0xFE10 && cp <= 0xFE19) ||
         (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFE50 && cp <= 0xFE68 && cp != 0xFE62 && cp != 0xFE64 &&
                                            cp != 0xFE65 && cp != 0xFE66) ||
         cp == 0xFE6B || (cp >= 0xFF5F && cp <= 0xFF65);
}

/* Brackets: > 0 an opening one, < 0 a closing one, the pair's number either
 * way; 0 for anything else.  ASCII quotes are not told apart: not here. */
int fc_punct_bracket(uint32_t cp) {
  if (cp < 0x80) {
    switch (cp) {
      case '(': return 1;
      case ')': return -1;
      case '[': return 2;
      case ']': return -2;
      case '{': return 3;
      case '}': return -3;
      default: return 0;
    }
  }
  if (cp >= 0x3008 && cp <= 0x3017) { /* 〈〉《》「」『』【】 and 〔〕〖〗 */
    if (cp == 0x3012 || cp == 0x3013) return 0;
    if (cp > 0x3013) cp -= 2;
    return (cp & 1) ? -(4 + (int)(cp - 0x3009) / 2) : 4 + (int)(cp - 0x3008) / 2; /* pairs 4..10 */
  }
  switch (cp) {
    case 0x201C: return 11; /* “” */
    case 0x201D: return -11;
    case 0x2018: return 12; /* ‘’ */
    case 0x2019: return -12;
    case 0xFE59: return 13; /* small ﹙﹚﹛﹜﹝﹞ */
    case 0xFE5A: return -13;
    case 0xFE5B: return 14;
    case 0xFE5C: return -14;
    case 0xFE5D: return 15;
    case 0xFE5E: return -15;
    case 0xFF5F: return 16; /* ｟｠ */
    case 0xFF60: return -16;
    case 0xFF62: return 17; /* ｢｣ */
    case 0xFF63: return -17;
    default: return 0;
  }
}

static int fc_punct_is_han(const fc_unit *u) { return u->cls == FC_C_HAN; }
/* a full stop or a hyphen-minus: decimals and minus signs, not dashes */
static int fc_punct_is_stop(const fc_unit *u) {
  return u->kind == FENCI_KIND_PUNCT && (u->cp == '.' || u->cp == 0xFE52 || u->cp == 0x2024 || u->cp == '-' ||
                                         u->cp == 0x2212);
}
/* u and v are the same mark, which may join (fc_unit.brk lets a run of
 * one mark, "——", be one token) */
static int fc_punct_same(const fc_unit *u, const fc_unit *v) {
  return u->kind == FENCI_KIND_PUNCT && v->kind == FENCI_KIND_PUNCT && u->cp == v->cp && u->cp;
}

size_t fc_punct_marks(fc_unit *u, size_t n, const uint8_t *text, size_t *first) {
  size_t i, brackets = 0;
  *first = n;
  /* fc_scan_units leaves every pc 0 */
  for (i = 0; i < n; i++) {
    fc_unit *x = &u[i];
    int k;
    if (x->kind != FENCI_KIND_PUNCT) continue;
    k = fc_punct_bracket(x->cp);
    if (k && !brackets++) *first = i;
    if (fc_punct_proper(x->cp)) {
      int hb = i > 0 && !x->brk && fc_punct_is_han(&u[i - 1]);
      int ha = i + 1 < n && !u[i + 1].brk && fc_punct_is_han(&u[i + 1]);
      if (hb && k >= 0) x->pc |= FC_PC_NOEND;
      if (ha && k <= 0) x->pc |= FC_PC_NOBEGIN;
      if (i + 1 < n && !u[i + 1].brk && fc_punct_same(&u[i + 1], x)) {
        /* a run of two or more of one mark joins no Han character
         * ("业主---中国"; 4 words of the corpora, all in one quoted name,
         * have one) */
        size_t e = i + 1;
        while (e < n && !u[e].brk && fc_punct_same(&u[e], x)) e++;
        if (hb) x->pc |= FC_PC_NOJOIN;
        if (e < n && !u[e].brk && fc_punct_is_han(&u[e])) u[e].pc |= FC_PC_NOJOIN;
        i = e - 1;
        continue;
      }
    }
    /* a full stop or a minus sign between a Han character and a number
     * joins neither to the Han character ("概率.5", "多云－5", "5.亿": 1
     * word of the corpora, against 12 with a dash, "—") */
    if (i > 0 && i + 1 < n && fc_punct_is_stop(x)) {
      const fc_unit *p = &u[i - 1], *q = &u[i + 1];
      /* a digit: a number's or a Latin word's ("5a") first or last character */
      int dq = q->cls == FC_C_DIGIT || q->cls == FC_C_FWDIGIT;
      int dp = p->end > p->start && ((text[p->end - 1] >= '0' && text[p->end - 1] <= '9') ||
                                     (p->end - p->start >= 3 && text[p->end - 3] == 0xEF && text[p->end - 2] == 0xBC &&
                                      text[p->end - 1] >= 0x90 && text[p->end - 1] <= 0x99));
      if (fc_punct_is_han(p) && dq) x->pc |= FC_PC_NOJOIN;
      if (dp && fc_punct_is_han(q)) u[i + 1].pc |= FC_PC_NOJOIN;
    }
  }
  return brackets;
}

#define FC_PUNCT_DEPTH 32 /* open brackets tracked in one word; deeper ones count as unmatched */

/* Isolates the bracket at unit i; 1 when that is new. */
static size_t fc_punct_isolate(fc_unit *u, size_t n, size_t i) {
  size_t added = !(u[i].pc & FC_PC_NOJOIN) || (i + 1 < n && !(u[i + 1].pc & FC_PC_NOJOIN));
  u[i].pc |= FC_PC_NOJOIN;
  if (i + 1 < n) u[i + 1].pc |= FC_PC_NOJOIN;
  return added;
}

/* Whether a word ends at unit b (as fc_segment_chunk cuts: after E or S,
 * and before a forced B or S). */
static int fc_punct_word_ends(const fc_unit *u, size_t n, const uint8_t *tags, size_t b) {
  uint8_t f;
  if (b + 1 >= n || tags[b] == FC_TAG_E || tags[b] == FC_TAG_S) return 1;
  f = u[b + 1].force;
  return f == 1 + FC_TAG_B || f == 1 + FC_TAG_S;
}

size_t fc_punct_unbalanced(fc_unit *u, size_t n, const uint8_t *tags, size_t first, int all) {
  size_t i, added = 0, found = 0;
  /* only the words that hold a bracket are looked at */
  for (i = first; i < n; i++) {
    size_t a, b, j, open[FC_PUNCT_DEPTH];
    int han = 0, forced = 0, depth = 0, bad = 0;
    if (u[i].kind != FENCI_KIND_PUNCT || !fc_punct_bracket(u[i].cp)) continue;
    for (a = i; a > 0 && !fc_punct_word_ends(u, n, tags, a - 1); a--) {
    }
    for (b = i; !fc_punct_word_ends(u, n, tags, b); b++) {
    }
    if (a == b) continue;
    for (j = a; j <= b; j++) {
      int k = u[j].kind == FENCI_KIND_PUNCT ? fc_punct_bracket(u[j].cp) : 0;
      han |= fc_punct_is_han(&u[j]);
      forced |= u[j].force != 0;
      if (k > 0) {
        if (depth == FC_PUNCT_DEPTH) bad = 1;
        else open[depth++] = j;
      } else if (k < 0) {
        if (depth && fc_punct_bracket(u[open[depth - 1]].cp) == -k) depth--;
        else bad = 1;
      }
    }
    if (han && !forced && (bad || depth > 0)) {
      found++;
      /* each bracket of the word: which one is wrong is not known for a
       * close after an unmatched open ("（甲）乙）"), and the others are few */
      for (j = a; j <= b; j++)
        if (u[j].kind == FENCI_KIND_PUNCT && fc_punct_bracket(u[j].cp)) added += fc_punct_isolate(u, n, j);
    }
    i = b; /* the word's other brackets are done */
  }
  if (all && found) {
    for (i = first; i < n; i++)
      if (u[i].kind == FENCI_KIND_PUNCT && !u[i].force && fc_punct_bracket(u[i].cp)) added += fc_punct_isolate(u, n, i);
  }
  return added;
}
