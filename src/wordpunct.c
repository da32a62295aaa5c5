/* wordpunct.c - where punctuation may stand in a word (wordpunct.h). */
#include "fenci.h"
#include "chars.h"
#include "segmodel.h"
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
         (cp >= 0x3014 && cp <= 0x301F) || (cp >= 0xFE10 && cp <= 0xFE19) ||
         (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFE50 && cp <= 0xFE68 && cp != 0xFE62 && cp != 0xFE64 &&
                                            cp != 0xFE65 && cp != 0xFE66) ||
         cp == 0xFE6B || (cp >= 0xFF5F && cp <= 0xFF65);
}

/* Brackets: > 0 an opening one, < 0 a closing one, the pair's number either
 * way; 0 for anything else.  The ASCII quote, which opens and closes
 * alike, is FC_PUNCT_QUOTE's business, not this one's. */
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
  if (cp >= 0x3008 && cp <= 0x301B) { /* 〈〉《》「」『』【】, 〔〕〖〗〘〙〚〛 */
    if (cp == 0x3012 || cp == 0x3013) return 0;
    if (cp > 0x3013) cp -= 2;
    return (cp & 1) ? -(4 + (int)(cp - 0x3009) / 2) : 4 + (int)(cp - 0x3008) / 2; /* pairs 4..12 */
  }
  if (cp >= 0xFE35 && cp <= 0xFE44) /* vertical ︵︶ ︷︸ ︹︺ ︻︼ ︽︾ ︿﹀ ﹁﹂ ﹃﹄ */
    return (cp & 1) ? 13 + (int)(cp - 0xFE35) / 2 : -(13 + (int)(cp - 0xFE36) / 2); /* pairs 13..20 */
  switch (cp) {
    case 0x201C: return 21; /* “” */
    case 0x201D: return -21;
    case 0x2018: return 22; /* ‘’ */
    case 0x2019: return -22;
    case 0xAB: return 23; /* «» */
    case 0xBB: return -23;
    case 0x2039: return 24; /* ‹› */
    case 0x203A: return -24;
    case 0x301D: return 25; /* 〝 closed by 〞 or 〟 */
    case 0x301E: case 0x301F: return -25;
    case 0x2045: return 26; /* ⁅⁆ */
    case 0x2046: return -26;
    case 0xFE47: return 27; /* ﹇﹈ */
    case 0xFE48: return -27;
    case 0xFE59: return 28; /* small ﹙﹚﹛﹜﹝﹞ */
    case 0xFE5A: return -28;
    case 0xFE5B: return 29;
    case 0xFE5C: return -29;
    case 0xFE5D: return 30;
    case 0xFE5E: return -30;
    case 0xFF5F: return 31; /* ｟｠ */
    case 0xFF60: return -31;
    case 0xFF62: return 32; /* ｢｣ */
    case 0xFF63: return -32;
    default: return 0;
  }
}

static int fc_punct_is_han(const fc_unit *u) { return u->cls == FC_C_HAN; }
/* a full stop (a decimal point without its digits before it) */
static int fc_punct_is_stop(const fc_unit *u) {
  return u->kind == FENCI_KIND_PUNCT && (u->cp == '.' || u->cp == 0xFE52 || u->cp == 0x2024);
}
/* u and v are the same mark, which may join (fc_unit.brk lets a run of
 * one mark, "——", be one token) */
static int fc_punct_same(const fc_unit *u, const fc_unit *v) {
  return u->kind == FENCI_KIND_PUNCT && v->kind == FENCI_KIND_PUNCT && u->cp == v->cp && u->cp;
}

size_t fc_punct_marks(fc_unit *u, size_t n, const uint8_t *text, const uint32_t *pu, size_t npu) {
  size_t j, brackets = 0;
  /* fc_scan_units leaves every pc 0; only its punctuation units are looked at */
  for (j = 0; j < npu; j++) {
    size_t i = pu[j];
    fc_unit *x = &u[i];
    int k;
    if (i >= n || x->kind != FENCI_KIND_PUNCT) continue;
    k = fc_punct_bracket(x->cp);
    brackets += k || x->cp == '"';
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
        while (j + 1 < npu && pu[j + 1] < e) j++; /* the run's other marks */
        continue;
      }
    }
    /* a full stop between a Han character and a number joins neither to
     * the Han character ("概率.5", "5.亿"; no word of the corpora.  A minus
     * sign may: "苏－３００" in CTB6, against "多云 －5") */
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

#define FC_PUNCT_DEPTH 32 /* open brackets tracked in one word; deeper ones count as unpaired */
#define FC_PUNCT_QUOTE 64 /* the ASCII quote on the stack: it opens and closes alike */
#define FC_PUNCT_MAXUNP 64 /* unpaired brackets listed per word; more: every bracket counts */

/* The bracket of unit k: fc_punct_bracket, or FC_PUNCT_QUOTE for '"'. */
static int fc_punct_br(const fc_unit *u) {
  if (u->kind != FENCI_KIND_PUNCT) return 0;
  return u->cp == '"' ? FC_PUNCT_QUOTE : fc_punct_bracket(u->cp);
}

/* The unpaired brackets of units [a, b]: their number, the first
 * FC_PUNCT_MAXUNP of them in unp.  A closing bracket that does not close
 * the innermost open one is unpaired and leaves it open. */
static size_t fc_punct_unpaired(const fc_unit *u, size_t a, size_t b, size_t *unp) {
  size_t open[FC_PUNCT_DEPTH], depth = 0, n = 0, j;
  for (j = a; j <= b; j++) {
    int br = fc_punct_br(&u[j]);
    if (!br) continue;
    if (br == FC_PUNCT_QUOTE && depth && fc_punct_br(&u[open[depth - 1]]) == FC_PUNCT_QUOTE) {
      depth--;
    } else if (br > 0) {
      if (depth < FC_PUNCT_DEPTH) open[depth++] = j;
      else if (n++ < FC_PUNCT_MAXUNP) unp[n - 1] = j;
    } else if (depth && fc_punct_br(&u[open[depth - 1]]) == -br) {
      depth--;
    } else if (n++ < FC_PUNCT_MAXUNP) {
      unp[n - 1] = j;
    }
  }
  for (j = 0; j < depth; j++)
    if (n++ < FC_PUNCT_MAXUNP) unp[n - 1] = open[j];
  /* in text order, as fc_punct_split reads them (closes came first) */
  for (j = 1; j < n && j < FC_PUNCT_MAXUNP; j++) {
    size_t v = unp[j], k = j;
    for (; k > 0 && unp[k - 1] > v; k--) unp[k] = unp[k - 1];
    unp[k] = v;
  }
  return n;
}

/* Tags units [x, y] as one word, first leaving out (as words of their own)
 * a last unit that may not end a word and a first one that may not begin
 * one. */
static void fc_punct_piece(const fc_unit *u, uint8_t *tags, size_t x, size_t y) {
  size_t k;
  for (;;) {
    if (y > x && (u[y].pc & FC_PC_NOEND)) tags[y--] = FC_TAG_S;
    else if (y > x && (u[x].pc & FC_PC_NOBEGIN)) tags[x++] = FC_TAG_S;
    else break;
  }
  if (x == y) {
    tags[x] = FC_TAG_S;
    return;
  }
  tags[x] = FC_TAG_B;
  for (k = x + 1; k < y; k++) tags[k] = FC_TAG_M;
  tags[y] = FC_TAG_E;
}

/* Cuts word [a, b] before and after each of its n unpaired brackets
 * unp[] (sorted), or each of its brackets when all is set. */
static void fc_punct_split(const fc_unit *u, uint8_t *tags, size_t a, size_t b, const size_t *unp, size_t n,
                           int all) {
  size_t x = a, j, k = 0;
  for (j = a; j <= b; j++) {
    int cut = all ? fc_punct_br(&u[j]) != 0 : k < n && unp[k] == j;
    if (!cut) continue;
    k++;
    if (j > x) fc_punct_piece(u, tags, x, j - 1);
    tags[j] = FC_TAG_S;
    x = j + 1;
  }
  if (x <= b) fc_punct_piece(u, tags, x, b);
}

/* Whether a word ends at unit b (as fc_segment_chunk cuts: after E or S,
 * and before a forced B or S). */
static int fc_punct_word_ends(const fc_unit *u, size_t n, const uint8_t *tags, size_t b) {
  uint8_t f;
  if (b + 1 >= n || tags[b] == FC_TAG_E || tags[b] == FC_TAG_S) return 1;
  f = u[b + 1].force;
  return f == 1 + FC_TAG_B || f == 1 + FC_TAG_S;
}

/* Takes the single unpaired bracket unp of word [a, b] together with its
 * partner when that is a word of its own right outside and the word then
 * pairs all its brackets (not so for a close under another open bracket:
 * （ + 甲《乙）》): 1 when done.  Not for the ASCII quote, a mark no word
 * begins or ends with next to a Han character, nor past the decoder's cap
 * on a word's units. */
static int fc_punct_take_partner(const fc_unit *u, size_t n, uint8_t *tags, size_t a, size_t b, size_t unp) {
  int br = fc_punct_br(&u[unp]);
  size_t tmp[FC_PUNCT_MAXUNP];
  if (br == FC_PUNCT_QUOTE || b - a + 2 > FC_SEG_MAXWORD) return 0;
  if (br < 0 && a > 0 && tags[a - 1] == FC_TAG_S && !u[a - 1].force && !u[a].brk && !(u[a].pc & FC_PC_NOJOIN) &&
      fc_punct_br(&u[a - 1]) == -br && fc_punct_unpaired(u, a - 1, b, tmp) == 0) {
    tags[a - 1] = FC_TAG_B;
    tags[a] = FC_TAG_M;
    return 1;
  }
  if (br > 0 && b + 1 < n && tags[b + 1] == FC_TAG_S && !u[b + 1].force && !u[b + 1].brk &&
      !(u[b + 1].pc & FC_PC_NOJOIN) && fc_punct_br(&u[b + 1]) == -br && fc_punct_unpaired(u, a, b + 1, tmp) == 0) {
    tags[b] = FC_TAG_M;
    tags[b + 1] = FC_TAG_E;
    return 1;
  }
  return 0;
}

size_t fc_punct_repair(const fc_unit *u, size_t n, uint8_t *tags, const uint32_t *pu, size_t npu) {
  size_t p, done = 0, repaired = 0;
  /* only the words that hold a bracket are looked at */
  for (p = 0; p < npu; p++) {
    size_t i = pu[p], a, b, j, unp[FC_PUNCT_MAXUNP], nu;
    int han = 0, forced = 0;
    if (i >= n || i < done || !fc_punct_br(&u[i])) continue;
    for (a = i; a > 0 && !fc_punct_word_ends(u, n, tags, a - 1); a--) {
    }
    for (b = i; !fc_punct_word_ends(u, n, tags, b); b++) {
    }
    done = b + 1; /* the word's other brackets are done with it */
    if (a == b) continue;
    for (j = a; j <= b; j++) {
      han |= fc_punct_is_han(&u[j]);
      forced |= u[j].force != 0;
    }
    if (!han || forced || (nu = fc_punct_unpaired(u, a, b, unp)) == 0) continue;
    repaired++;
    if (nu == 1 && fc_punct_take_partner(u, n, tags, a, b, unp[0])) {
      if (b + 1 < n && tags[b + 1] == FC_TAG_E) done = b + 2;
      continue;
    }
    fc_punct_split(u, tags, a, b, unp, nu, nu > FC_PUNCT_MAXUNP);
    /* a pair the cuts parted ("（甲》乙）") is parted for good: then every
     * bracket of the word stands alone */
    {
      size_t x = a, y, more = 0, tmp[FC_PUNCT_MAXUNP];
      while (x <= b && !more) {
        for (y = x; y < b && !fc_punct_word_ends(u, n, tags, y); y++) {
        }
        more = y > x && fc_punct_unpaired(u, x, y, tmp) > 0;
        x = y + 1;
      }
      if (more) fc_punct_split(u, tags, a, b, unp, 0, 1);
    }
  }
  return repaired;
}
