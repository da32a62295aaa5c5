/* numex.c - rule-based recogniser of times and quantities (numex.h says
 * what is recognised and how values are written; docs/NUMEX.md has the
 * lists and the choices).
 *
 * The scan is one pass over the text.  At each position it tries, in
 * order: the guards (words that only look numeric), keyword-led forms
 * (第, 百分之, 数百, 零下, currency signs, 公元, weekdays, relative words,
 * dayparts), then a number followed by what gives it its type (分之, a
 * clock time, 年/月/日, 世纪/年代, %, a unit).  Every reader is bounded by
 * the end of the text, and every failed attempt at a numeral run moves the
 * scan past the whole run, so no run is read from each of its positions:
 * the work is linear in the input. */
#include "numex.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "chars.h"

typedef struct numex_in {
  const uint8_t *t; /* the text */
  size_t n;         /* its length in bytes */
  fc_numex_gap_fn gap; /* the text's words (NULL: none) */
  void *gctx;
} numex_in;

static int numex_starts(uint32_t c);

/* The code point at p and its length in *l (0 at the end of the text). */
static uint32_t numex_at(const numex_in *in, size_t p, size_t *l) {
  uint32_t cp;
  if (p >= in->n) {
    *l = 0;
    return 0;
  }
  *l = fc_utf8_decode(in->t + p, in->n - p, &cp);
  return cp;
}

/* Length of literal s when the text at p starts with it, else 0. */
static size_t numex_lit(const numex_in *in, size_t p, const char *s) {
  size_t k;
  if (p >= in->n || in->t[p] != (uint8_t)s[0]) return 0; /* most calls end here */
  /* Chinese literals share a few lead bytes: the second byte ends most of
   * the rest before strlen and memcmp */
  if (!s[1]) return 1;
  if (in->n - p < 2 || in->t[p + 1] != (uint8_t)s[1]) return 0;
  k = strlen(s);
  return (in->n - p >= k && memcmp(in->t + p, s, k) == 0) ? k : 0;
}

/* Length of the longest entry of the NULL-terminated list at p (0: none);
 * *which receives its index. */
static size_t numex_lits(const numex_in *in, size_t p, const char *const *list, int *which) {
  size_t best = 0, k;
  int i;
  for (i = 0; list[i]; i++)
    if ((k = numex_lit(in, p, list[i])) > best) {
      best = k;
      if (which) *which = i;
    }
  return best;
}

/* 1 when the text just before p is s. */
static int numex_before(const numex_in *in, size_t p, const char *s) {
  size_t k = strlen(s);
  return p >= k && p <= in->n && memcmp(in->t + p - k, s, k) == 0;
}

/* The text's best lexicon path (wordgap.h) gives up more than this many
 * nats to cut at a point: a word runs across it there.  A time word is
 * refused at 2 nats, a unit only at 5 (more of its words are common:
 * 年间, 双手), an idiom that a numeral begins at 3, a bare numeral that
 * ends a longer word (路易十六) at 3.  Chosen on People's
 * Daily 1998-01-01..27 (docs/NUMEX.md, "Words"). */
#define NUMEX_GAP_REL 2.0
#define NUMEX_GAP_UNIT 5.0
#define NUMEX_GAP_IDIOM 3.0
#define NUMEX_GAP_INSIDE 3.0

/* 1 when the text's words run across p by more than nats (the scan was
 * given them); *w the word there. */
static int numex_held(const numex_in *in, size_t p, double nats, fc_numex_word *w) {
  memset(w, 0, sizeof *w);
  w->start = w->end = p;
  if (!in->gap || p == 0 || p >= in->n) return 0;
  if (in->gap(in->gctx, p, w)) return 0;
  return w->cost > nats;
}

/* 1 when a time word found at [s, e) is part of other words: a word that
 * starts before s ends inside it (每当|天黑 for 当天, 表现|在 for 现在; a
 * longer word around all of it, 从现在起, is no objection), or a word
 * that starts inside it runs on past e (去|年轻人, 会议上|周旋).  from_s:
 * check the start. */
static int numex_split_word(const numex_in *in, size_t s, size_t e, int from_s) {
  fc_numex_word w;
  if (from_s && numex_held(in, s, NUMEX_GAP_REL, &w) && w.start < s && w.end < e) return 1;
  return numex_held(in, e, NUMEX_GAP_REL, &w) && w.start > s;
}

/* The digit (ASCII or full-width) that ends right before q, and its
 * length; -1 for none. */
static int numex_digit_before(const numex_in *in, size_t q, size_t *l) {
  const uint8_t *t = in->t;
  if (q >= 1 && t[q - 1] >= '0' && t[q - 1] <= '9') {
    *l = 1;
    return t[q - 1] - '0';
  }
  if (q >= 3 && t[q - 3] == 0xEF && t[q - 2] == 0xBC && t[q - 1] >= 0x90 && t[q - 1] <= 0x99) {
    *l = 3;
    return t[q - 1] - 0x90;
  }
  return -1;
}

static uint32_t numex_cp_before(const numex_in *in, size_t q);
static int numex_latin(uint32_t c);
static int numex_cdigit(uint32_t c);
static double numex_cmult(uint32_t c);

/* 1 when a numeral ends at q: an Arabic digit (numex_digit_before) or a
 * Chinese digit or multiplier (三, 万). */
static int numex_numeral_before(const numex_in *in, size_t q) {
  size_t l;
  uint32_t c;
  if (numex_digit_before(in, q, &l) >= 0) return 1;
  c = numex_cp_before(in, q);
  return c && (numex_cdigit(c) >= 0 || numex_cmult(c) > 0);
}

/* The three-byte character that ends at q (of the main plane), or 0. */
static uint32_t numex_cp_before(const numex_in *in, size_t q) {
  const uint8_t *t = in->t;
  if (q < 3 || (t[q - 3] & 0xF0) != 0xE0 || (t[q - 2] & 0xC0) != 0x80 || (t[q - 1] & 0xC0) != 0x80) return 0;
  return (uint32_t)(t[q - 3] & 0x0F) << 12 | (uint32_t)(t[q - 2] & 0x3F) << 6 | (t[q - 1] & 0x3Fu);
}

/* 1 when a unit, or a date's or number's suffix (年 月 日 万 ...), that
 * follows a numeral ends at q (100元-200元, 1小时-2小时, 3月-5月: a
 * range, not 东风-41 or the second 歼 of 歼-10歼-20). */
typedef struct numex_unit numex_unit;
static const numex_unit *numex_unit_at(const numex_in *in, size_t q, size_t *ul);
static int numex_unit_before(const numex_in *in, size_t q) {
  static const char *const suffix[] = {"年", "月", "日", "号", "时", "点", "分", "秒", "万", "亿", "千", "百", NULL};
  size_t k, ul, i;
  if (q >= 3 && numex_numeral_before(in, q - 3))
    for (i = 0; suffix[i]; i++)
      if (!memcmp(in->t + q - 3, suffix[i], 3)) return 1;
  for (k = 3; k <= 12 && k <= q; k += 3)
    if (numex_numeral_before(in, q - k) && numex_unit_at(in, q - k, &ul) && ul == k) return 1;
  return 0;
}

/* 1 when the text before p is a decimal point ('.' or '．') that follows
 * no digit: the digits at p are a fraction without its integer part. */
static int numex_bare_point(const numex_in *in, size_t p) {
  const uint8_t *t = in->t;
  size_t q, l;
  if (p >= 1 && t[p - 1] == '.') q = p - 1;
  else if (p >= 3 && t[p - 3] == 0xEF && t[p - 2] == 0xBC && t[p - 1] == 0x8E) q = p - 3;
  else return 0;
  return numex_digit_before(in, q, &l) < 0;
}

/* ------------------------------------------------------------ characters */

/* ASCII and full-width digits. */
static int numex_adigit(uint32_t c) {
  if (c >= '0' && c <= '9') return (int)(c - '0');
  if (c >= 0xFF10 && c <= 0xFF19) return (int)(c - 0xFF10);
  return -1;
}

/* Whether a run of nd digits from digit first is a code: two or more
 * digits from a leading 0 (区号010, 订单号0012345, 007), or more than 15
 * (an identity card's 18, a bank card's 19: more than a double holds
 * exactly). */
static int numex_code_digits(size_t nd, int first) { return (nd >= 2 && first == 0) || nd > 15; }

#define NUMEX_CODE_BACK 64 /* bytes a code's hyphen-joined groups are followed back */

/* A model's or version's number starts at p: a Latin word with a
 * lower-case letter and one space before it (Model 3, iPhone 15, Windows
 * 10, Python 3.11); an acronym's number is a reading (AQI 156, CPI 102.5). */
static int numex_model_number(const numex_in *in, size_t p) {
  size_t b = p - 1;
  int lower = 0;
  if (p < 2 || in->t[p - 1] != ' ') return 0;
  while (b > 0 && p - b <= 32 && numex_latin(in->t[b - 1])) lower |= in->t[--b] >= 'a';
  return lower;
}

/* Whether the bare run of digits [p, e) is a code, not a number: itself
 * (numex_code_digits; eleven digits from 13..19, a mobile telephone
 * number), a model's number after a Latin word, or joined by
 * hyphens ('-' or '－') to earlier runs of digits of which the first is one (the 12345678 of 010-12345678, the
 * 5678 of 010-1234-5678).  Only the runs before it are read, and no more
 * than NUMEX_CODE_BACK bytes, so what follows a code is read as ever
 * (010-2024年3月5日 keeps its date) and the answer does not depend on where
 * a long text is cut into blocks. */
static int numex_code(const numex_in *in, size_t p, size_t e) {
  size_t q = p, l, nd = 0;
  int first = -1, second = -1, d;
  while (q < e) {
    d = numex_adigit(numex_at(in, q, &l));
    if (d < 0 || l == 0) return 0;
    if (first < 0) first = d;
    else if (second < 0) second = d;
    nd++;
    q += l;
  }
  if (numex_code_digits(nd, first)) return 1;
  if (nd == 11 && first == 1 && second >= 3) return 1; /* a mobile number: 13800138000 */
  if (numex_model_number(in, p)) return 1;
  for (q = p; p - q <= NUMEX_CODE_BACK;) {
    size_t h = q >= 1 && in->t[q - 1] == '-' ? 1
               : q >= 3 && in->t[q - 3] == 0xEF && in->t[q - 2] == 0xBC && in->t[q - 1] == 0x8D ? 3 : 0;
    if (!h || numex_digit_before(in, q - h, &l) < 0) return 0; /* no earlier group */
    q -= h;
    nd = 0;
    while ((d = numex_digit_before(in, q, &l)) >= 0 && p - q <= NUMEX_CODE_BACK) {
      first = d;
      nd++;
      q -= l;
    }
    if (numex_digit_before(in, q, &l) >= 0) return 0; /* past the bytes followed back */
    if (numex_code_digits(nd, first)) return 1;
  }
  return 0;
}

/* 1 when [us, ue) is no unit or a word that follows a model's number
 * (系列, 代, 版, 款, 型, 机型). */
static int numex_model_word(const numex_in *in, size_t us, size_t ue) {
  static const char *const w[] = {"系列", "代", "版", "款", "型", "机型", NULL};
  size_t i;
  if (us == ue) return 1;
  for (i = 0; w[i]; i++)
    if (strlen(w[i]) == ue - us && !memcmp(in->t + us, w[i], ue - us)) return 1;
  return 0;
}

/* Chinese digits (the financial forms 壹贰叁... are left out: 陆 伍 拾 are
 * also ordinary characters, as in 大陆, 队伍, 收拾). */
static int numex_cdigit(uint32_t c) {
  switch (c) {
  case 0x3007: case 0x25CB: case 0x96F6: return 0; /* 〇 ○ 零 */
  case 0x4E00: return 1;                            /* 一 */
  case 0x4E8C: case 0x4E24: case 0x5169: return 2;  /* 二 两 兩 */
  case 0x4E09: return 3;
  case 0x56DB: return 4;
  case 0x4E94: return 5;
  case 0x516D: return 6;
  case 0x4E03: return 7;
  case 0x516B: return 8;
  case 0x4E5D: return 9;
  default: return -1;
  }
}

/* Chinese multipliers 十 百 千 万 (萬) 亿 (億); 0 for anything else. */
static double numex_cmult(uint32_t c) {
  switch (c) {
  case 0x5341: return 10.0;
  case 0x767E: return 100.0;
  case 0x5343: return 1000.0;
  case 0x4E07: case 0x842C: return 1e4;
  case 0x4EBF: case 0x5104: return 1e8;
  default: return 0.0;
  }
}

#define NUMEX_JI 0x51E0u   /* 几: "some", a vague digit */
#define NUMEX_ONE 0x4E00u  /* 一 */
#define NUMEX_MAXV 1e18    /* larger values are not kept (has_value 0) */

static int numex_latin(uint32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= 0xFF21 && c <= 0xFF3A) ||
         (c >= 0xFF41 && c <= 0xFF5A);
}

static int numex_alnum_byte(uint8_t b) {
  return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '_';
}

/* --------------------------------------------------------------- numbers */

/* A number read at s. */
typedef struct numex_num {
  size_t s, e;    /* span */
  double v;       /* value (as written without its vague part when approx) */
  int ok;         /* v is exact: not overflowed */
  int approx;     /* vague: 几, 数, 三四, 多, 余 */
  int lone;       /* one Chinese numeral (一 两 三 十 几 ...), readable only with a unit */
  int pair;       /* a pair of adjacent Chinese digits (三四): only with a unit */
  int zero;       /* a lone zero (零 〇 ○): only in a clock time */
  int isint;      /* no decimals */
  int ndig;       /* digits of a digit string (Arabic integer part, 一九九八) */
  int arabic;     /* written in Arabic digits */
  int positional; /* a digit string: no multiplier, separator or decimals */
  int bad;        /* not a number: skip to e */
} numex_num;

/* A number too large to keep exactly: found, without a value. */
static void numex_no_value(numex_num *o) {
  o->ok = 0;
  o->v = 0;
}

/* Reads a run of Chinese numerals [p, limit) as a number: either a digit
 * string (二〇〇八, three or more characters, not all the same), or the
 * multiplier grammar (一千二百五十, 三千五百万, 十一, with the colloquial
 * tail 二百五 = 250, 三万五 = 35000, 一千零五 = 1005), or a vague form
 * (十几, 几百, 三四十, 十三四).  The run always ends at the first
 * non-numeral; an ill-formed run (一五一十, 万万) is bad as a whole. */
static void numex_chinese(const numex_in *in, size_t p, size_t limit, numex_num *o) {
  size_t q = p, l;
  int nch = 0, nmult = 0, stdbad = 0, pend = -1, prevdigit = 0, zero_after = 0, allsame = 1, ji = 0;
  int last_digit = -1, pend_ji = 0, liang = 0;
  uint32_t c0 = 0;
  double yi = 0, wan = 0, small = 0, lastsm = 0, lastbig = 0, lastmult = 0, posv = 0;
  memset(o, 0, sizeof *o);
  o->s = p;
  while (q < limit) {
    uint32_t c = numex_at(in, q, &l);
    int d = numex_cdigit(c);
    double m = numex_cmult(c);
    if (d < 0 && m == 0.0 && c != NUMEX_JI) break;
    if (q + l > limit) break;
    if (d == 2 && c != 0x4E8C && nmult > 0 && !prevdigit) {
      /* 两 right after a multiplier ends the number unless a multiplier
       * follows (两万两千): 五十两 is fifty taels, never 52 */
      size_t l2;
      uint32_t c2 = q + l < limit ? numex_at(in, q + l, &l2) : 0;
      if (numex_cmult(c2) == 0.0) break;
    }
    nch++;
    if (d == 2 && c != 0x4E8C) liang = 1;
    if (nch == 1) c0 = c;
    else if (c != c0) allsame = 0;
    if (d >= 0 || c == NUMEX_JI) {
      if (c == NUMEX_JI) {
        ji = 1;
        d = 1; /* the vague digit, written as 1: 几百 -> 100 */
      }
      if (nch <= 18) posv = posv * 10 + d;
      if (d == 0 && c != NUMEX_JI) {
        if (pend >= 0 && prevdigit) stdbad = 1; /* 一〇 only in a digit string */
        pend = -1;
        zero_after = 1;
        prevdigit = 0;
      } else if (pend >= 0 && prevdigit) {
        if (!o->approx && c != NUMEX_JI && last_digit >= 1 && d == last_digit + 1) {
          o->approx = 1; /* 三四: keep the first */
          o->pair = 1;
        } else {
          stdbad = 1;
        }
      } else {
        pend = d;
        pend_ji = c == NUMEX_JI;
        prevdigit = 1;
        if (c == NUMEX_JI) o->approx = 1;
      }
      last_digit = d;
    } else {
      nmult++;
      prevdigit = 0;
      last_digit = -1;
      if (m < 1e4) {
        double dd = -1;
        if (lastsm != 0.0 && m >= lastsm) stdbad = 1;
        if (pend >= 0) dd = pend;
        else if (m == 10.0 && ((small == 0.0 && lastsm == 0.0) || zero_after)) dd = 1; /* 十一, 一百零十 */
        if (dd < 0) stdbad = 1;
        else small += dd * m;
        lastsm = m;
      } else if (m == 1e4 && lastmult == 1e4 && lastbig == 1e4 && pend < 0 && small == 0.0 && yi == 0.0 &&
                 !zero_after) {
        /* 四万万: the older 亿 (四万万五 is 4.5 亿, not 四万万 + 5000) */
        yi = wan * 1e4;
        wan = 0;
        lastbig = 1e8;
        m = 1e8;
      } else if (m == 1e4) {
        double sec = small + (pend > 0 ? pend : 0);
        if (sec == 0.0 || lastbig == 1e4) stdbad = 1;
        wan = sec * 1e4;
        small = 0;
        lastsm = 0;
        lastbig = 1e4;
      } else {
        double sec = wan + small + (pend > 0 ? pend : 0);
        if (sec == 0.0) stdbad = 1;
        yi += sec * 1e8;
        wan = small = lastsm = 0;
        lastbig = 1e8;
      }
      pend = -1;
      lastmult = m;
      zero_after = 0;
    }
    q += l;
  }
  o->e = q;
  o->isint = 1;
  o->ok = 1;
  if (nch == 0) {
    o->bad = 1;
    return;
  }
  if (nmult == 0) {
    if (nch == 1) {
      o->v = pend >= 0 && !ji ? pend : 0;
      if (numex_cdigit(c0) == 0) o->zero = 1;
      else o->lone = 1;
      return;
    }
    if (nch == 2 && o->pair) {
      o->v = posv >= 10 ? (double)(int)(posv / 10) : posv;
      return;
    }
    o->pair = 0;
    o->approx = 0;
    if (ji || allsame || nch < 3 || liang) { /* 两 is no digit of a digit string: 三三两两 */
      o->bad = 1;
      return;
    }
    o->positional = 1;
    o->ndig = nch;
    o->v = posv;
    if (nch > 15) numex_no_value(o);
    return;
  }
  if (stdbad || nch > 40) {
    o->bad = 1;
    return;
  }
  {
    double tail = 0;
    if (pend >= 0 && !pend_ji) tail = (lastmult >= 100 && !zero_after) ? pend * lastmult / 10 : pend; /* 三百四五 */
    o->v = yi + wan + small + tail;
  }
  if (nch == 1) o->lone = 1; /* 十 */
  o->pair = 0;               /* 三四十: vague, but a number */
  if (o->v > NUMEX_MAXV) numex_no_value(o);
}

/* Reads Arabic digits at p: the integer part with thousands separators
 * (1,234,567: a comma followed by exactly three digits), and with dec the
 * decimals.  A second decimal point (1.2.3, 192.168.0.1) makes the whole
 * dotted run an identifier (bad).  Digits touching Latin letters (G20,
 * iPhone15, 3G) are an identifier too, unless the letters are a unit
 * (5km), which the caller checks. */
static void numex_arabic(const numex_in *in, size_t p, int dec, numex_num *o) {
  size_t q = p, l, l2;
  uint64_t iv = 0, fv = 0;
  int nd = 0, fd = 0, grouped = 0, d0 = -1;
  double f10 = 1;
  uint32_t c;
  memset(o, 0, sizeof *o);
  o->s = p;
  o->arabic = 1;
  o->ok = 1;
  o->isint = 1;
  o->positional = 1;
  for (;;) {
    int d = numex_adigit(numex_at(in, q, &l));
    if (d < 0) break;
    if (nd == 0) d0 = d;
    if (nd < 18) iv = iv * 10 + (uint64_t)d;
    else o->ok = 0;
    nd++;
    q += l;
  }
  /* thousands groups: the first group has 1..3 digits (1234,567 is not
   * grouped), and no leading 0 (01，010 is two codes, not 1010) */
  for (;;) {
    /* "," or "，" (1，000人: a full-width comma is read the same way) */
    size_t cl = numex_lit(in, q, ",") ? 1 : numex_lit(in, q, "，");
    size_t r = q + cl, k = 0;
    if (!cl || !(grouped || (nd <= 3 && d0 != 0))) break;
    int ds[3], j;
    for (j = 0; j < 3; j++) {
      ds[j] = numex_adigit(numex_at(in, r, &k));
      if (ds[j] < 0) break;
      r += k;
    }
    if (j < 3 || numex_adigit(numex_at(in, r, &k)) >= 0) break;
    for (j = 0; j < 3; j++) {
      if (nd < 18) iv = iv * 10 + (uint64_t)ds[j];
      else o->ok = 0;
      nd++;
    }
    grouped = 1;
    o->positional = 0;
    q = r;
  }
  o->ndig = nd;
  c = numex_at(in, q, &l);
  if (dec && (c == '.' || c == 0xFF0E || c == 0xB7) && nd > 0 && numex_adigit(numex_at(in, q + l, &l2)) >= 0) {
    size_t r = q + l;
    for (;;) {
      int d = numex_adigit(numex_at(in, r, &l2));
      if (d < 0) break;
      if (fd < 18) {
        fv = fv * 10 + (uint64_t)d;
        f10 *= 10;
        fd++;
      }
      r += l2;
    }
    c = numex_at(in, r, &l2);
    if ((c == '.' || c == 0xFF0E || c == 0xB7) && numex_adigit(numex_at(in, r + l2, &l)) >= 0) {
      /* a dotted identifier: swallow all of it */
      for (;;) {
        c = numex_at(in, r, &l);
        if (l == 0 || !(numex_adigit(c) >= 0 || c == '.' || c == 0xFF0E || c == 0xB7)) break;
        r += l;
      }
      o->e = r;
      o->bad = 1;
      return;
    }
    q = r;
    o->isint = 0;
    o->positional = 0;
  }
  o->e = q;
  o->v = o->ok ? (double)iv + (double)fv / f10 : 0;
  if (o->v > NUMEX_MAXV) numex_no_value(o);
}

/* A multiplier tail after a number (22万, 1.2亿, 3千万, 10万亿): each
 * multiplier larger than the one before; 千 before 克 米 瓦 is the unit's
 * (5千克 is 5 kg).  Returns the end, the product in *mul. */
static size_t numex_tail(const numex_in *in, size_t q, double *mul) {
  double prod = 1, last = 0;
  size_t l;
  for (;;) {
    double m = numex_cmult(numex_at(in, q, &l));
    if (m == 0.0 || (last != 0.0 && m <= last)) break;
    if (m == 1000.0 && (numex_lit(in, q + l, "克") || numex_lit(in, q + l, "米") || numex_lit(in, q + l, "瓦")))
      break;
    prod *= m;
    last = m;
    q += l;
  }
  *mul = prod;
  return q;
}

static int numex_approx_word(const numex_in *in, size_t q) {
  return numex_lit(in, q, "多") || numex_lit(in, q, "余");
}

static int numex_lai(const numex_in *in, size_t q);

/* What joins the ends of a range (3到5, 3-5, of times too). */
static const char *const numex_range_marks[] = {"到", "至", "～", "~", "-", "－", "——", "—", "–", NULL};

/* The end of the Arabic number (digits and one decimal part, at most 8
 * digits) at q, or q when none starts there. */
static size_t numex_temp_digits(const numex_in *in, size_t q) {
  size_t l, l2, nd = 0, q0 = q;
  for (;;) {
    uint32_t c = numex_at(in, q, &l);
    if (l && numex_adigit(c) >= 0 && nd < 9) {
      q += l;
      nd++;
    } else if (l && nd && (c == '.' || c == 0xFF0E) && numex_adigit(numex_at(in, q + l, &l2)) >= 0) {
      q += l;
    } else {
      break;
    }
  }
  return nd > 8 ? q0 : q;
}

/* Units of temperature. */
static const char *const numex_temp[] = {"℃", "℉", "°C", "°F", "摄氏度", "华氏度", "度", NULL};

int fc_numex_temp_unit(const uint8_t *t, size_t n) {
  size_t i;
  for (i = 0; numex_temp[i]; i++)
    if (strlen(numex_temp[i]) == n && !memcmp(t, numex_temp[i], n)) return 1;
  return 0;
}

/* 1 when the hyphen of k bytes at p ('-' or '－') is a minus sign: before
 * a temperature (-5℃, 气温为－３℃, 至-10℃) or a range that ends in one
 * (夜间-3到-8度, -3~5℃), and not after a digit, a letter or a number's
 * unit (3-5℃ and 3℃-5℃ are ranges, B-52 a name).  The ASCII hyphen is a
 * dash too often to be a sign anywhere else. */
static int numex_minus_temp(const numex_in *in, size_t p, size_t k) {
  static const char *const minus[] = {"-", "－", "零下", NULL};
  size_t q = p + k, l, e;
  /* what comes before first: most hyphens follow a digit or a letter */
  if (p >= 1 && (numex_alnum_byte(in->t[p - 1]) || in->t[p - 1] == '.')) return 0;
  if (p >= 3 && in->t[p - 3] == 0xEF) { /* a full-width digit or letter before it */
    uint32_t c = numex_at(in, p - 3, &l);
    if (l == 3 && (numex_adigit(c) >= 0 || numex_latin(c))) return 0;
  }
  if ((e = numex_temp_digits(in, q)) <= q) return 0;
  if (!numex_lits(in, e, numex_temp, NULL)) {
    /* a range's second number, with or without its own sign */
    if (!(l = numex_lits(in, e, numex_range_marks, NULL))) return 0;
    q = e + l;
    q += numex_lits(in, q, minus, NULL);
    if ((e = numex_temp_digits(in, q)) <= q || !numex_lits(in, e, numex_temp, NULL)) return 0;
  }
  return !numex_unit_before(in, p);
}

/* The number at p.  With full: also decimals, 多/余 and the multiplier
 * tail (Arabic 22万, Chinese 三点五亿, 三百多万).  o->bad (skip to o->e)
 * when p starts a run that is not a number; o->e == p when p starts no
 * numeral at all. */
static void numex_number(const numex_in *in, size_t p, int full, numex_num *o) {
  size_t l;
  uint32_t c = numex_at(in, p, &l);
  if (numex_adigit(c) >= 0) {
    numex_arabic(in, p, full, o);
    if (o->bad) return;
    /* identifiers: digits right after a Latin letter (G20, MP3), or after a
     * hyphen that follows a letter or a Han character (COVID-19, B-52,
     * 歼-20), but not a Han unit after a number (100元-200元, 3月-5月: a
     * range, numjoin.c) */
    if ((p >= 1 && numex_alnum_byte(in->t[p - 1]) && !(in->t[p - 1] >= '0' && in->t[p - 1] <= '9')) ||
        (p >= 2 && in->t[p - 1] == '-' &&
         ((numex_alnum_byte(in->t[p - 2]) && !(in->t[p - 2] >= '0' && in->t[p - 2] <= '9')) ||
          (p >= 4 && in->t[p - 4] >= 0xE4 && in->t[p - 4] <= 0xE9 && (in->t[p - 3] & 0xC0) == 0x80 &&
           (in->t[p - 2] & 0xC0) == 0x80 && !numex_unit_before(in, p - 1) && !numex_minus_temp(in, p - 1, 1)))) ||
        (p >= 3 && in->t[p - 3] == 0xEF && ((in->t[p - 2] == 0xBC && in->t[p - 1] >= 0xA1 && in->t[p - 1] <= 0xBA) ||
                                            (in->t[p - 2] == 0xBD && in->t[p - 1] >= 0x81 && in->t[p - 1] <= 0x9A)))) {
      size_t q = o->e, l2;
      for (;;) {
        uint32_t d = numex_at(in, q, &l);
        if (l == 0) break;
        if (d == '.' && numex_adigit(numex_at(in, q + 1, &l2)) >= 0) d = '_'; /* v1.2.3 */
        if (!(numex_latin(d) || numex_adigit(d) >= 0 || d == '_')) break;
        q += l;
      }
      o->e = q;
      o->bad = 1;
      return;
    }
  } else if (numex_cdigit(c) >= 0 || numex_cmult(c) == 10.0 || c == NUMEX_JI) {
    numex_chinese(in, p, in->n, o);
    /* 五千克, 五万千瓦: the 千 belongs to the unit */
    if (o->e - p > 3 && numex_before(in, o->e, "千") &&
        (numex_lit(in, o->e, "克") || numex_lit(in, o->e, "米") || numex_lit(in, o->e, "瓦"))) {
      size_t run_end = o->e;
      numex_chinese(in, p, o->e - 3, o);
      if (o->bad) o->e = run_end; /* skip the whole run */
    }
    if (o->bad) return;
    /* Chinese decimals: 三点五, 百分之三点五, 一点五亿 */
    if (full && !o->approx && !o->positional && numex_lit(in, o->e, "点")) {
      size_t r = o->e + 3, k;
      double f10 = 1, fv = 0;
      int d, nd = 0;
      while ((d = numex_cdigit(numex_at(in, r, &k))) >= 0) {
        if (nd < 18) fv = fv * 10 + d, f10 *= 10, nd++;
        r += k;
      }
      if (nd > 0 && numex_cmult(numex_at(in, r, &k)) < 1e4 && numex_cmult(numex_at(in, r, &k)) != 0.0) nd = 0;
      if (nd > 0) {
        o->v += fv / f10;
        o->e = r;
        o->isint = 0;
        o->lone = o->zero = 0;
      }
    }
  } else {
    memset(o, 0, sizeof *o);
    o->s = o->e = p;
    return;
  }
  if (!full) return;
  /* 300多万, 十多年; a single digit takes no 多 (一多半) */
  if ((numex_approx_word(in, o->e) || numex_lai(in, o->e)) && !o->zero && !(o->lone && o->v < 10) && !o->pair) {
    o->approx = 1;
    o->lone = 0;
    o->e += 3;
  }
  {
    double mul;
    size_t e = numex_tail(in, o->e, &mul);
    if (e > o->e && !o->zero) {
      o->v *= mul;
      if (o->v > NUMEX_MAXV) numex_no_value(o);
      o->e = e;
      o->lone = o->pair = 0;
      o->positional = 0;
      if (!o->approx && numex_approx_word(in, o->e)) {
        o->approx = 1;
        o->e += 3;
      }
      /* 3亿5000万, 2万5千: Arabic parts with ever smaller multipliers */
      while (o->arabic && !o->approx && numex_adigit(numex_at(in, o->e, &l)) >= 0) {
        numex_num n2;
        double m2;
        size_t e2;
        numex_arabic(in, o->e, 1, &n2);
        if (n2.bad) break;
        e2 = numex_tail(in, n2.e, &m2);
        if (e2 == n2.e || m2 >= mul || m2 < 10) break;
        if (n2.ok && o->ok) o->v += n2.v * m2;
        else numex_no_value(o);
        if (!n2.isint) o->isint = 0;
        o->e = e2;
        mul = m2;
      }
    }
  }
}

/* A number read whole and exactly, in [lo, hi] (a ratio's first part). */
static int numex_field_dec(const numex_num *x, double lo, double hi) {
  return x->e > x->s && !x->bad && x->ok && !x->approx && !x->pair && x->v >= lo && x->v <= hi;
}

/* The same without decimals: a date or clock field. */
static int numex_field(const numex_num *x, double lo, double hi) { return numex_field_dec(x, lo, hi) && x->isint; }

/* ------------------------------------------------------------ unit words */

enum { NUMEX_U_QTY = 1, NUMEX_U_MONEY, NUMEX_U_DUR };

typedef struct numex_unit {
  const char *s;  /* the word */
  uint8_t kind;   /* NUMEX_U_* */
  char dur;       /* NUMEX_U_DUR: the ISO 8601 designator, 'h' 'm' 's' for PT..H/M/S */
  uint8_t approx; /* 个多月: the 多 inside makes it vague */
  uint8_t latin;  /* ASCII letters: no letter or digit may follow */
} numex_unit;

/* Measure words, currencies and units (longest match wins).  Left out on
 * purpose: 起 (一起), 下 (一下), 样 (一样), 口 (一口气), 头 (一头雾水),
 * 道 (一道), 角 and 毛 alone (三角形, 三毛): see docs/NUMEX.md. */
static const numex_unit numex_units[] = {
    /* money */
    {"元", NUMEX_U_MONEY, 0, 0, 0}, {"美元", NUMEX_U_MONEY, 0, 0, 0}, {"英镑", NUMEX_U_MONEY, 0, 0, 0},
    {"欧元", NUMEX_U_MONEY, 0, 0, 0}, {"日元", NUMEX_U_MONEY, 0, 0, 0}, {"法郎", NUMEX_U_MONEY, 0, 0, 0},
    {"瑞士法郎", NUMEX_U_MONEY, 0, 0, 0}, {"法国法郎", NUMEX_U_MONEY, 0, 0, 0}, {"卢布", NUMEX_U_MONEY, 0, 0, 0},
    {"港元", NUMEX_U_MONEY, 0, 0, 0}, {"港币", NUMEX_U_MONEY, 0, 0, 0}, {"澳元", NUMEX_U_MONEY, 0, 0, 0},
    {"加元", NUMEX_U_MONEY, 0, 0, 0}, {"韩元", NUMEX_U_MONEY, 0, 0, 0}, {"马克", NUMEX_U_MONEY, 0, 0, 0},
    {"德国马克", NUMEX_U_MONEY, 0, 0, 0}, {"人民币", NUMEX_U_MONEY, 0, 0, 0}, {"元人民币", NUMEX_U_MONEY, 0, 0, 0},
    {"美金", NUMEX_U_MONEY, 0, 0, 0}, {"台币", NUMEX_U_MONEY, 0, 0, 0}, {"新台币", NUMEX_U_MONEY, 0, 0, 0},
    {"新加坡元", NUMEX_U_MONEY, 0, 0, 0}, {"卢比", NUMEX_U_MONEY, 0, 0, 0}, {"里拉", NUMEX_U_MONEY, 0, 0, 0},
    {"比索", NUMEX_U_MONEY, 0, 0, 0}, {"泰铢", NUMEX_U_MONEY, 0, 0, 0}, {"块钱", NUMEX_U_MONEY, 0, 0, 0},
    {"角钱", NUMEX_U_MONEY, 0, 0, 0}, {"毛钱", NUMEX_U_MONEY, 0, 0, 0}, {"分钱", NUMEX_U_MONEY, 0, 0, 0},
    /* durations */
    {"年", NUMEX_U_DUR, 'Y', 0, 0}, {"个月", NUMEX_U_DUR, 'M', 0, 0}, {"个多月", NUMEX_U_DUR, 'M', 1, 0},
    {"周", NUMEX_U_DUR, 'W', 0, 0}, {"星期", NUMEX_U_DUR, 'W', 0, 0}, {"个星期", NUMEX_U_DUR, 'W', 0, 0},
    {"个多星期", NUMEX_U_DUR, 'W', 1, 0}, {"礼拜", NUMEX_U_DUR, 'W', 0, 0}, {"个礼拜", NUMEX_U_DUR, 'W', 0, 0},
    {"天", NUMEX_U_DUR, 'D', 0, 0}, {"小时", NUMEX_U_DUR, 'h', 0, 0}, {"个小时", NUMEX_U_DUR, 'h', 0, 0},
    {"个多小时", NUMEX_U_DUR, 'h', 1, 0}, {"钟头", NUMEX_U_DUR, 'h', 0, 0}, {"个钟头", NUMEX_U_DUR, 'h', 0, 0},
    {"分钟", NUMEX_U_DUR, 'm', 0, 0}, {"年头", NUMEX_U_DUR, 'Y', 0, 0}, {"个年头", NUMEX_U_DUR, 'Y', 0, 0}, {"秒", NUMEX_U_DUR, 's', 0, 0}, {"秒钟", NUMEX_U_DUR, 's', 0, 0},
    /* measure words and units */
    {"个", NUMEX_U_QTY, 0, 0, 0}, {"名", NUMEX_U_QTY, 0, 0, 0}, {"人", NUMEX_U_QTY, 0, 0, 0},
    {"人次", NUMEX_U_QTY, 0, 0, 0}, {"位", NUMEX_U_QTY, 0, 0, 0}, {"发", NUMEX_U_QTY, 0, 0, 0},
    {"件", NUMEX_U_QTY, 0, 0, 0}, {"次", NUMEX_U_QTY, 0, 0, 0}, {"架", NUMEX_U_QTY, 0, 0, 0},
    {"架次", NUMEX_U_QTY, 0, 0, 0}, {"辆", NUMEX_U_QTY, 0, 0, 0}, {"艘", NUMEX_U_QTY, 0, 0, 0},
    {"门", NUMEX_U_QTY, 0, 0, 0}, {"吨", NUMEX_U_QTY, 0, 0, 0}, {"公斤", NUMEX_U_QTY, 0, 0, 0},
    {"千克", NUMEX_U_QTY, 0, 0, 0}, {"克", NUMEX_U_QTY, 0, 0, 0}, {"斤", NUMEX_U_QTY, 0, 0, 0},
    {"米", NUMEX_U_QTY, 0, 0, 0}, {"公里", NUMEX_U_QTY, 0, 0, 0}, {"千米", NUMEX_U_QTY, 0, 0, 0},
    {"厘米", NUMEX_U_QTY, 0, 0, 0}, {"毫米", NUMEX_U_QTY, 0, 0, 0}, {"平方米", NUMEX_U_QTY, 0, 0, 0},
    {"平方公里", NUMEX_U_QTY, 0, 0, 0}, {"立方米", NUMEX_U_QTY, 0, 0, 0}, {"公顷", NUMEX_U_QTY, 0, 0, 0},
    {"亩", NUMEX_U_QTY, 0, 0, 0}, {"英里", NUMEX_U_QTY, 0, 0, 0}, {"英尺", NUMEX_U_QTY, 0, 0, 0},
    {"海里", NUMEX_U_QTY, 0, 0, 0}, {"岁", NUMEX_U_QTY, 0, 0, 0}, {"倍", NUMEX_U_QTY, 0, 0, 0},
    {"度", NUMEX_U_QTY, 0, 0, 0}, {"摄氏度", NUMEX_U_QTY, 0, 0, 0}, {"℃", NUMEX_U_QTY, 0, 0, 0},
    {"条", NUMEX_U_QTY, 0, 0, 0}, {"张", NUMEX_U_QTY, 0, 0, 0}, {"台", NUMEX_U_QTY, 0, 0, 0},
    {"套", NUMEX_U_QTY, 0, 0, 0}, {"座", NUMEX_U_QTY, 0, 0, 0}, {"所", NUMEX_U_QTY, 0, 0, 0},
    {"家", NUMEX_U_QTY, 0, 0, 0}, {"项", NUMEX_U_QTY, 0, 0, 0}, {"种", NUMEX_U_QTY, 0, 0, 0},
    {"本", NUMEX_U_QTY, 0, 0, 0}, {"部", NUMEX_U_QTY, 0, 0, 0}, {"支", NUMEX_U_QTY, 0, 0, 0},
    {"只", NUMEX_U_QTY, 0, 0, 0}, {"匹", NUMEX_U_QTY, 0, 0, 0}, {"份", NUMEX_U_QTY, 0, 0, 0},
    {"间", NUMEX_U_QTY, 0, 0, 0}, {"层", NUMEX_U_QTY, 0, 0, 0}, {"篇", NUMEX_U_QTY, 0, 0, 0},
    {"批", NUMEX_U_QTY, 0, 0, 0}, {"场", NUMEX_U_QTY, 0, 0, 0}, {"届", NUMEX_U_QTY, 0, 0, 0},
    {"期", NUMEX_U_QTY, 0, 0, 0}, {"户", NUMEX_U_QTY, 0, 0, 0}, {"股", NUMEX_U_QTY, 0, 0, 0},
    {"升", NUMEX_U_QTY, 0, 0, 0}, {"毫升", NUMEX_U_QTY, 0, 0, 0}, {"千瓦", NUMEX_U_QTY, 0, 0, 0},
    {"千瓦时", NUMEX_U_QTY, 0, 0, 0}, {"瓦", NUMEX_U_QTY, 0, 0, 0}, {"伏", NUMEX_U_QTY, 0, 0, 0},
    {"点", NUMEX_U_QTY, 0, 0, 0}, {"分", NUMEX_U_QTY, 0, 0, 0}, {"百分点", NUMEX_U_QTY, 0, 0, 0},
    {"个百分点", NUMEX_U_QTY, 0, 0, 0}, {"周年", NUMEX_U_QTY, 0, 0, 0}, {"颗", NUMEX_U_QTY, 0, 0, 0},
    {"枚", NUMEX_U_QTY, 0, 0, 0}, {"棵", NUMEX_U_QTY, 0, 0, 0}, {"块", NUMEX_U_QTY, 0, 0, 0},
    {"页", NUMEX_U_QTY, 0, 0, 0}, {"首", NUMEX_U_QTY, 0, 0, 0}, {"幅", NUMEX_U_QTY, 0, 0, 0},
    {"栋", NUMEX_U_QTY, 0, 0, 0}, {"处", NUMEX_U_QTY, 0, 0, 0}, {"例", NUMEX_U_QTY, 0, 0, 0},
    {"轮", NUMEX_U_QTY, 0, 0, 0}, {"桶", NUMEX_U_QTY, 0, 0, 0}, {"码", NUMEX_U_QTY, 0, 0, 0},
    {"笔", NUMEX_U_QTY, 0, 0, 0}, {"箱", NUMEX_U_QTY, 0, 0, 0}, {"级", NUMEX_U_QTY, 0, 0, 0},
    {"头", NUMEX_U_QTY, 0, 0, 0}, {"盎司", NUMEX_U_QTY, 0, 0, 0}, {"公升", NUMEX_U_QTY, 0, 0, 0},
    {"系列", NUMEX_U_QTY, 0, 0, 0}, {"片", NUMEX_U_QTY, 0, 0, 0}, {"曲", NUMEX_U_QTY, 0, 0, 0},
    {"声", NUMEX_U_QTY, 0, 0, 0}, {"群", NUMEX_U_QTY, 0, 0, 0}, {"句", NUMEX_U_QTY, 0, 0, 0},
    {"段", NUMEX_U_QTY, 0, 0, 0}, {"封", NUMEX_U_QTY, 0, 0, 0}, {"盆", NUMEX_U_QTY, 0, 0, 0},
    {"双", NUMEX_U_QTY, 0, 0, 0}, {"串", NUMEX_U_QTY, 0, 0, 0}, {"组", NUMEX_U_QTY, 0, 0, 0},
    {"阵", NUMEX_U_QTY, 0, 0, 0}, {"朵", NUMEX_U_QTY, 0, 0, 0}, {"排", NUMEX_U_QTY, 0, 0, 0},
    {"把", NUMEX_U_QTY, 0, 0, 0}, {"杯", NUMEX_U_QTY, 0, 0, 0}, {"碗", NUMEX_U_QTY, 0, 0, 0},
    {"瓶", NUMEX_U_QTY, 0, 0, 0}, {"袋", NUMEX_U_QTY, 0, 0, 0}, {"包", NUMEX_U_QTY, 0, 0, 0},
    {"束", NUMEX_U_QTY, 0, 0, 0}, {"具", NUMEX_U_QTY, 0, 0, 0}, {"粒", NUMEX_U_QTY, 0, 0, 0},
    {"顿", NUMEX_U_QTY, 0, 0, 0}, {"趟", NUMEX_U_QTY, 0, 0, 0}, {"遍", NUMEX_U_QTY, 0, 0, 0},
    {"餐", NUMEX_U_QTY, 0, 0, 0}, {"两", NUMEX_U_QTY, 0, 0, 0}, {"兩", NUMEX_U_QTY, 0, 0, 0},
    {"km", NUMEX_U_QTY, 0, 0, 1}, {"kg", NUMEX_U_QTY, 0, 0, 1}, {"cm", NUMEX_U_QTY, 0, 0, 1},
    {"mm", NUMEX_U_QTY, 0, 0, 1}, {"m", NUMEX_U_QTY, 0, 0, 1}, {"g", NUMEX_U_QTY, 0, 0, 1},
    {"mg", NUMEX_U_QTY, 0, 0, 1}, {"ml", NUMEX_U_QTY, 0, 0, 1}, {"kW", NUMEX_U_QTY, 0, 0, 1},
    {"MW", NUMEX_U_QTY, 0, 0, 1}, {"kWh", NUMEX_U_QTY, 0, 0, 1}, {"Hz", NUMEX_U_QTY, 0, 0, 1},
    {"MHz", NUMEX_U_QTY, 0, 0, 1}, {"GHz", NUMEX_U_QTY, 0, 0, 1}, {"KB", NUMEX_U_QTY, 0, 0, 1},
    {"MB", NUMEX_U_QTY, 0, 0, 1}, {"GB", NUMEX_U_QTY, 0, 0, 1}, {"TB", NUMEX_U_QTY, 0, 0, 1},
    {"°C", NUMEX_U_QTY, 0, 0, 0},
};

/* A unit word followed by a character that makes it part of another word
 * (两千万台湾同胞: 台 is no unit there). */
static const char *const numex_unit_blocks[] = {"台湾", "台北", "台南", "台中", "台独", "台胞", "台商", "台港",
                                                 "年级", "年轻", "年龄", "年纪", NULL};

/* The entry of unit word w (NULL: none). */
static const numex_unit *numex_unit_named(const char *w) {
  size_t i;
  for (i = 0; i < sizeof numex_units / sizeof numex_units[0]; i++)
    if (!strcmp(numex_units[i].s, w)) return &numex_units[i];
  return NULL;
}

/* The longest unit word at q (NULL: none); its length in *ul.  A Latin
 * unit must not run on into more letters or digits (5kmh is no km). */
static const numex_unit *numex_unit_at(const numex_in *in, size_t q, size_t *ul) {
  const numex_unit *best = NULL;
  size_t i, bl = 0;
  int j;
  for (j = 0; numex_unit_blocks[j]; j++)
    if (numex_lit(in, q, numex_unit_blocks[j])) {
      *ul = 0;
      return NULL;
    }
  for (i = 0; i < sizeof numex_units / sizeof numex_units[0]; i++) {
    size_t k = numex_lit(in, q, numex_units[i].s);
    if (k > bl) {
      if (numex_units[i].latin && q + k < in->n && numex_alnum_byte(in->t[q + k])) continue;
      best = &numex_units[i];
      bl = k;
    }
  }
  *ul = bl;
  return best;
}

/* 来 as "about" after a number that ends in 十, 百 or 千, with a unit after
 * it: 二十来岁, 十来个, 百来人 (一来 and 三来 are no amounts). */
static int numex_lai(const numex_in *in, size_t q) {
  size_t ul;
  if (q < 3 || !numex_lit(in, q, "来")) return 0;
  return (numex_before(in, q, "十") || numex_before(in, q, "百") || numex_before(in, q, "千")) &&
         numex_unit_at(in, q + 3, &ul) != NULL;
}

/* ---------------------------------------------------------------- guards */

/* Words that start with a numeral but are no number: skipped whole
 * wherever a number could start.  Most traps (一些 一切 一样 一起 一直
 * 一定 一般 一边 一旦 九死一生 一心一意) need no entry: a single numeral
 * is only read with a unit after it.  These are the ones where a unit
 * (or a second numeral with a unit) follows. */
static const char *const numex_skip_words[] = {
    "一点儿", "一点点", "一块儿", "一部分", "一次性", "一元化", "一元论", "一年四季", "一年一度", "一天到晚",
    "五花八门", "三番五次", "十万火急", "三门峡", "七台河", "一五一十", "一本正经", "一点一滴", "一点一点",
    "一股脑儿", "三位一体", "四位一体", NULL};

/* A single numeral with exactly this unit (and nothing longer: 十分钟,
 * 一分钱, 十分之一 stay), or a word starting with one, is no quantity:
 * 十分 "very", 一度 "once", 一时 "for a while", 一点 "a little",
 * 一分为二, 四处 "everywhere", 一头雾水, 一把手. */
static const char *const numex_lone_guards[] = {"十分", "一度", "几度", "一时", "一点", "一分", "四处", "四周",
                                                "一头", "一把手", "一阵子", "一片片", NULL};

/* Characters before 一 that make a word of it: 统一 唯一 惟一 万一 同一
 * 单一 专一 划一 逐一 不一. */
static const char *const numex_one_words[] = {"统", "唯", "惟", "万", "同", "单", "专", "划", "逐", "不", NULL};

static int numex_lone_guarded(const numex_in *in, size_t s, size_t e) {
  int i;
  for (i = 0; numex_lone_guards[i]; i++) {
    size_t k = numex_lit(in, s, numex_lone_guards[i]);
    if (k && k >= e - s) return 1; /* the guard covers the candidate */
  }
  return 0;
}

/* ---------------------------------------------------------------- times */

enum { NUMEX_DP_AM = 1, NUMEX_DP_NOON, NUMEX_DP_PM, NUMEX_DP_NIGHT };

static const char *const numex_dayparts[] = {"上午", "早上", "早晨", "清晨", "凌晨", "中午", "下午",
                                             "午后", "傍晚", "晚上", "晚间", "夜里", "夜间", "深夜",
                                             "午夜", "半夜", NULL};
static const uint8_t numex_daypart_kind[] = {NUMEX_DP_AM,    NUMEX_DP_AM,    NUMEX_DP_AM,    NUMEX_DP_AM,
                                             NUMEX_DP_AM,    NUMEX_DP_NOON,  NUMEX_DP_PM,    NUMEX_DP_PM,
                                             NUMEX_DP_PM,    NUMEX_DP_NIGHT, NUMEX_DP_NIGHT, NUMEX_DP_NIGHT,
                                             NUMEX_DP_NIGHT, NUMEX_DP_NIGHT, NUMEX_DP_NIGHT, NUMEX_DP_NIGHT};

/* One-character dayparts, taken only before a clock time (晚6时) or
 * after a date (25日晚): alone they are ordinary words (晚会, 早已). */
static const char *const numex_dayparts1[] = {"早", "晚", "晨", "夜", NULL};
static const uint8_t numex_daypart1_kind[] = {NUMEX_DP_AM, NUMEX_DP_NIGHT, NUMEX_DP_AM, NUMEX_DP_NIGHT};

/* Relative time words (relative = 1, iso ""). */
static const char *const numex_relative[] = {
    "今天", "明天", "昨天", "前天", "后天", "大前天", "大后天", "今日", "明日", "昨日", "次日", "翌日",
    "前日", "当天", "当日", "当晚", "今年", "明年", "去年", "前年", "后年", "来年", "次年", "翌年",
    "今晚", "昨晚", "明晚", "今早", "明早", "今晨", "昨夜", "本周", "上周", "下周", "这周", "本月",
    "上月", "下月", "上个月", "下个月", "这个月", "本世纪", "上世纪", "近日", "近年", "上一年", "下一年",
    "上半年", "下半年", "上年", "往年", "目前", "现在", "如今", "当前", "最近", "近来", "今后", NULL};

/* 下下周, 上上个月: the week or month after next (before last). */
static const char *const numex_relative2[] = {"下下周", "上上周", "下下个月", "上上个月", "下下星期", "上上星期", NULL};

/* A relative word is not read when the character before it makes a word
 * with its first character: 表现在 (表现), 日本周边 (日本), 项目前期
 * (项目), 接近日本 (接近), 失去年轻 (失去), 说明天 (说明), 相当天真
 * (相当), 以上年龄 (以上).  Each entry: the first character, then the
 * characters that may not come before it. */
static const char *const numex_rel_guard[][2] = {
    {"明", "说表证声标查阐鲜透聪文发光简精英指注写讲辨严分开清失澄申自高"},
    {"去", "失过离除回进出上下死归拿送老远逝抹删"},
    {"前", "提之以目当空面眼跟生事会战超向从"},
    {"后", "以之最然随先前落背今此午幕身其"},
    {"今", "如迄当现古"},
    {"上", "以马之向晚早加再爱街会身世路"},
    {"下", "以地天上乡底私陛阁眼手当南"},
    {"近", "接附靠将亲最贴"},
    {"当", "相应适正担充妥恰便勾典"},
    {"目", "项节题栏数科名盲注纲书眉头"},
    {"现", "表体出实呈发展再重兑浮显涌闪"},
    {"如", "比例正譬假诸犹宛不莫一有何无"},
    {"次", "首每层名档批依渐其班车"},
    {"本", "日根基资书课剧样版账"},
    {"往", "以向交来神过既已"},
};

/* 1 when the relative word at p is really the end of another word. */
static int numex_rel_guarded(const numex_in *in, size_t p) {
  size_t i, l, k;
  uint32_t prev = 0;
  if (p < 3) return 0;
  if (fc_utf8_decode(in->t + p - 3, 3, &prev) != 3 || prev == FC_BADCP) return 0;
  for (i = 0; i < sizeof numex_rel_guard / sizeof numex_rel_guard[0]; i++) {
    const char *set = numex_rel_guard[i][1];
    if (!numex_lit(in, p, numex_rel_guard[i][0])) continue;
    for (k = 0; set[k]; k += l) {
      uint32_t c;
      l = fc_utf8_decode((const uint8_t *)set + k, strlen(set + k), &c);
      if (c == prev) return 1;
    }
    return 0;
  }
  return 0;
}

/* Holidays: TIME, with the ISO month and day when the date is fixed in
 * the Gregorian calendar ("" for the lunar ones). */
static const char *const numex_holidays[] = {"元旦", "春节", "除夕", "元宵节", "清明节", "端午节", "中秋节", "重阳节",
                                             "国庆节", "圣诞节", "平安夜", "劳动节", "儿童节", "建军节", "教师节",
                                             "情人节", "大年初一", "大年三十", "妇女节", "植树节", "青年节",
                                             "建党节", "愚人节", "万圣节", "感恩节", "母亲节", "父亲节",
                                             "双十一", "双11", "双十二", "双12", "国庆黄金周", "国庆长假",
                                             "国庆假期", NULL};
static const char *const numex_holiday_iso[] = {"--01-01", "", "", "", "", "", "", "", "--10-01", "--12-25",
                                                "--12-24", "--05-01", "--06-01", "--08-01", "--09-10", "--02-14",
                                                "", "", "--03-08", "--03-12", "--05-04", "--07-01", "--04-01",
                                                "--10-31", "", "", "", "--11-11", "--11-11", "--12-12", "--12-12",
                                                "", "", ""};
/* Holidays named by their date in numerals (三八 is March 8th), read before
 * the numerals are: 五一劳动节 is one TIME, not 五一 and a holiday. */
static const char *const numex_num_holidays[] = {"三八妇女节", "三八国际妇女节", "三八节", "五一劳动节",
                                                 "五一国际劳动节", "五一节", "五四青年节", "六一儿童节", "六一国际儿童节",
                                                 "六一节", "七一建党节", "八一建军节", "十一国庆节", "五一黄金周",
                                                 "十一黄金周", "五一长假", "十一长假", "五一小长假", "五一假期",
                                                 "十一假期", NULL};
/* the holiday weeks around 五一 and 十一 have no single date */
static const char *const numex_num_holiday_iso[] = {"--03-08", "--03-08", "--03-08", "--05-01", "--05-01",
                                                    "--05-01", "--05-04", "--06-01", "--06-01", "--06-01",
                                                    "--07-01", "--08-01", "--10-01", "",        "",
                                                    "",        "",        "",        "",        ""};

_Static_assert(sizeof numex_dayparts / sizeof numex_dayparts[0] == sizeof numex_daypart_kind + 1, "daypart kinds");
_Static_assert(sizeof numex_dayparts1 / sizeof numex_dayparts1[0] == sizeof numex_daypart1_kind + 1, "daypart kinds");
_Static_assert(sizeof numex_holidays / sizeof numex_holidays[0] == sizeof numex_holiday_iso / sizeof numex_holiday_iso[0] + 1,
               "holiday dates");
_Static_assert(sizeof numex_num_holidays / sizeof numex_num_holidays[0] ==
                   sizeof numex_num_holiday_iso / sizeof numex_num_holiday_iso[0] + 1,
               "holiday dates");

/* 1 when a holiday's name at [s, e) is not one: its last character
 * begins the next word (青年节目, 母亲节约), or a number goes on after
 * 双11 (双11点, 双十一个). */
static int numex_holiday_split(const numex_in *in, size_t s, size_t e) {
  size_t l;
  uint32_t c = numex_at(in, e, &l);
  if (numex_split_word(in, s, e, 1)) return 1;
  return numex_lit(in, s, "双") && l &&
         (numex_adigit(c) >= 0 || numex_cdigit(c) >= 0 || c == 0x70B9 /* 点 */ || c == 0x65F6 /* 时 */ ||
          numex_unit_at(in, e, &l));
}

/* After an amount of time: 三天后, 两年前, 五年以来. */
static const char *const numex_rel_after[] = {"后", "前", "以后", "以前", "之后", "之前", "以来", NULL};

typedef struct numex_tm {
  int hasy;               /* y is given */
  int yy;                 /* y is a year of two digits, its century unknown (98年3月: XX98-03) */
  int y;                  /* year (astronomical: 公元前1年 is 0) */
  int mo, d, h, mi, sec;  /* -1: not given */
  int part, partn;        /* a quarter ('Q', 1..4) or a half ('H', 1..2) of the year; 0: none */
  int dp;                 /* the daypart a clock time was read with (NUMEX_DP_*, 0 none) */
} numex_tm;

static void numex_tm_init(numex_tm *t) {
  t->mo = t->d = t->h = t->mi = t->sec = -1;
  t->y = t->hasy = t->yy = t->dp = t->part = t->partn = 0;
}

/* Days of month mo (1..12) of year y (any year when hasy is 0: 29 in
 * February); leap years as in the Gregorian calendar, extended back. */
static int numex_mdays(int y, int hasy, int mo) {
  static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (mo != 2) return days[mo - 1];
  if (!hasy) return 29;
  return (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) ? 29 : 28;
}

/* ISO 8601 of a date and/or clock time; "" when nothing is known, or
 * when the day is not in the month (2023年2月30日 is no date). */
static void numex_tm_iso(const numex_tm *t, char *iso, size_t cap) {
  /* fields are range-checked by their readers: at most "-999998-12-31T24:59:59" */
  char y[16] = "", md[32] = "", hm[40] = "";
  /* a year of unknown century is leap when its two digits are (2000 was) */
  if (t->mo >= 1 && t->mo <= 12 && t->d > numex_mdays(t->yy ? 2000 + t->y : t->y, t->hasy, t->mo)) {
    if (cap) iso[0] = 0;
    return;
  }
  if (t->hasy) {
    /* ISO 8601's expanded form past four digits: +12345, -12344 */
    if (t->yy) snprintf(y, sizeof y, "XX%02d", t->y); /* TimeML's form of an unknown century */
    else snprintf(y, sizeof y, t->y < 0 ? "-%04d" : t->y > 9999 ? "+%d" : "%04d", t->y < 0 ? -t->y : t->y);
    if (t->part) snprintf(md, sizeof md, "-%c%d", t->part, t->partn);
    else if (t->mo > 0 && t->d > 0) snprintf(md, sizeof md, "-%02d-%02d", t->mo, t->d);
    else if (t->mo > 0) snprintf(md, sizeof md, "-%02d", t->mo);
  } else if (t->part) {
    snprintf(md, sizeof md, "XXXX-%c%d", t->part, t->partn); /* TimeML: a quarter of any year */
  } else if (t->mo > 0 && t->d > 0) {
    snprintf(md, sizeof md, "--%02d-%02d", t->mo, t->d);
  } else if (t->mo > 0) {
    snprintf(md, sizeof md, "--%02d", t->mo);
  } else if (t->d > 0) {
    snprintf(md, sizeof md, "---%02d", t->d);
  }
  if (t->h >= 0 && t->sec >= 0) snprintf(hm, sizeof hm, "T%02d:%02d:%02d", t->h, t->mi >= 0 ? t->mi : 0, t->sec);
  else if (t->h >= 0) snprintf(hm, sizeof hm, "T%02d:%02d", t->h, t->mi >= 0 ? t->mi : 0);
  snprintf(iso, cap, "%s%s%s", y, md, hm);
}

/* x is the time t: its ISO value, and whether it ends in a clock time (a
 * range may follow: 下午3点到5点). */
static void numex_time_out(const numex_tm *t, fc_numex *x) {
  x->type = FC_NX_TIME;
  numex_tm_iso(t, x->iso, sizeof x->iso);
  x->has_value = x->iso[0] != 0;
  x->clock = t->h >= 0 ? 1 + t->dp : 0;
}

/* A clock time at p: H:MM[:SS] (Arabic), or H点/时 with 钟, 半, 一刻,
 * 三刻, 整 or M分 after it.  dp is the daypart before it (NUMEX_DP_*, 0
 * none); firm says the context already makes it a time (a daypart, a
 * date, a relative day word).  A bare H点 without any of these is not a
 * time (三点建议 is a quantity); a bare H时 is.  Returns the end or 0. */
static size_t numex_clock(const numex_in *in, size_t p, int dp, int firm, numex_tm *t) {
  numex_num h, m;
  size_t q, l, k;
  int hh, mi = 0, sec = -1, sfx = 0;
  uint32_t c;
  numex_number(in, p, 0, &h);
  if (!numex_field(&h, 0, 24) || (h.arabic && h.ndig > 2)) return 0;
  hh = (int)h.v;
  q = h.e;
  c = numex_at(in, q, &l);
  /* ∶ (U+2236) is a ratio's mark, and People's Daily's clock mark too:
   * a clock time only after a daypart or where a time must follow
   * (晚上8∶30; 比分3∶0 stays a score) */
  if ((c == ':' || c == 0xFF1A || (c == 0x2236 && (dp || firm))) && h.arabic) {
    int d1 = numex_adigit(numex_at(in, q + l, &k)), d2;
    size_t r = q + l + k;
    if (d1 < 0) return 0;
    d2 = numex_adigit(numex_at(in, r, &k));
    if (d2 < 0) return 0;
    r += k;
    if (numex_adigit(numex_at(in, r, &k)) >= 0 || d1 * 10 + d2 > 59) return 0;
    mi = d1 * 10 + d2;
    q = r;
    c = numex_at(in, q, &l);
    if (c == ':' || c == 0xFF1A || (c == 0x2236 && (dp || firm))) {
      int s1 = numex_adigit(numex_at(in, q + l, &k)), s2;
      r = q + l + k;
      s2 = numex_adigit(numex_at(in, r, &k));
      if (s1 >= 0 && s2 >= 0 && numex_adigit(numex_at(in, r + k, &l)) < 0 && s1 * 10 + s2 <= 59) {
        sec = s1 * 10 + s2;
        q = r + k;
      }
    }
    sfx = 1;
  } else if ((k = numex_lit(in, q, "点")) || (k = numex_lit(in, q, "时"))) {
    int shi = numex_lit(in, q, "时") != 0;
    q += k;
    if ((k = numex_lit(in, q, "钟")) || (k = numex_lit(in, q, "整"))) {
      q += k;
      sfx = 1;
    } else if ((k = numex_lit(in, q, "半"))) {
      q += k;
      mi = 30;
      sfx = 1;
    } else if ((k = numex_lit(in, q, "一刻"))) {
      q += k;
      mi = 15;
      sfx = 1;
    } else if ((k = numex_lit(in, q, "三刻"))) {
      q += k;
      mi = 45;
      sfx = 1;
    } else {
      size_t r = q + numex_lit(in, q, "零");
      numex_number(in, r, 0, &m);
      if (numex_field(&m, 0, 59) && (k = numex_lit(in, m.e, "分")) && !numex_lit(in, m.e + k, "钟") &&
          !numex_lit(in, m.e + k, "之")) {
        mi = (int)m.v;
        q = m.e + k;
        sfx = 1;
        numex_number(in, q, 0, &m);
        if (numex_field(&m, 0, 59) && (k = numex_lit(in, m.e, "秒"))) {
          sec = (int)m.v;
          q = m.e + k;
        }
      }
    }
    if (!(dp || firm || sfx || shi)) return 0;
    if (!dp && !firm && !sfx && numex_lone_guarded(in, p, q)) return 0; /* 一时 */
    if (h.zero && !sfx && !shi && !dp) return 0;
  } else {
    return 0;
  }
  if (hh == 24 && (mi > 0 || sec > 0)) return 0;
  switch (dp) {
  case NUMEX_DP_PM:
    if (hh < 12) hh += 12;
    break;
  case NUMEX_DP_NOON:
    if (hh < 6) hh += 12;
    break;
  case NUMEX_DP_NIGHT:
    if (hh >= 6 && hh < 12) hh += 12;
    else if (hh == 12) hh = 0;
    break;
  case NUMEX_DP_AM:
    if (hh == 12) hh = 0;
    break;
  default:
    break;
  }
  t->h = hh;
  t->mi = mi;
  t->sec = sec;
  t->dp = dp;
  return q;
}

/* An optional daypart and clock time after a date or a relative day word:
 * 上午9时, 晚上, 9:30.  Returns the new end (q when there is none). */
static size_t numex_time_after(const numex_in *in, size_t q, int after_date, numex_tm *t) {
  int which = 0, dp = 0;
  size_t k = numex_lits(in, q, numex_dayparts, &which), e;
  if (k) dp = numex_daypart_kind[which];
  else if ((k = numex_lits(in, q, numex_dayparts1, &which))) dp = numex_daypart1_kind[which];
  e = numex_clock(in, q + k, dp, 1, t);
  if (e) return e;
  if (k == 3 && !after_date && !numex_lits(in, q, numex_dayparts, NULL)) k = 0; /* 明天晚会 */
  return q + k;
}

/* Parts of a year or a month, kept in the span (1998年底, 12月中旬); the
 * value stays the year's or the month's. */
static const char *const numex_date_parts[] = {"底", "初", "末", "上旬", "中旬", "下旬", NULL};

/* The length of a part at q (0: none, or one that begins a longer word:
 * 1998年初中毕业). */
static size_t numex_date_part(const numex_in *in, size_t q) {
  size_t k = numex_lits(in, q, numex_date_parts, NULL);
  fc_numex_word w;
  return k && !(numex_held(in, q + k, NUMEX_GAP_REL, &w) && w.start >= q) ? k : 0;
}

/* Reigns and the Republic: year N of an era is base + N - 1 (元年 its
 * first), up to last.  The emperors' years ran on the lunar calendar, so
 * only their year is given (康熙五十年三月 is 1711); the Republic's years
 * (民国, Taiwan's calendar to this day) and Japan's are Gregorian years. */
typedef struct numex_era {
  const char *name;
  int16_t base, last;
  uint8_t lunar;
} numex_era;

static const numex_era numex_eras[] = {
    {"民国", 1912, 200, 0}, {"明治", 1868, 45, 0}, {"大正", 1912, 15, 0}, {"昭和", 1926, 64, 0},
    {"平成", 1989, 31, 0},  {"令和", 2019, 99, 0}, {"顺治", 1644, 18, 1}, {"康熙", 1662, 61, 1},
    {"雍正", 1723, 13, 1},  {"乾隆", 1736, 60, 1}, {"嘉庆", 1796, 25, 1}, {"道光", 1821, 30, 1},
    {"咸丰", 1851, 11, 1},  {"同治", 1862, 13, 1}, {"光绪", 1875, 34, 1}, {"宣统", 1909, 3, 1},
    {"洪武", 1368, 31, 1},  {"永乐", 1403, 22, 1}, {"宣德", 1426, 10, 1}, {"正统", 1436, 14, 1},
    {"成化", 1465, 23, 1},  {"弘治", 1488, 18, 1}, {"正德", 1506, 16, 1}, {"嘉靖", 1522, 45, 1},
    {"隆庆", 1567, 6, 1},   {"万历", 1573, 48, 1}, {"天启", 1621, 7, 1},  {"崇祯", 1628, 17, 1},
    {"贞观", 627, 23, 1},   {"开元", 713, 29, 1},  {"天宝", 742, 15, 1},  {NULL, 0, 0, 0}};

#define NUMEX_ERA0 3 /* numex_date's era: 3 + an index of numex_eras */

/* Two Chinese digits read one by one before 年 (九八年, 〇五年): a year
 * of two digits, which the number reader refuses (a digit string has three
 * or more; 三四 is a vague pair, 两 no digit, and 三五 is vague too: 三五年
 * is three to five years).  Fills x; 1 when so. */
static int numex_cyear2(const numex_in *in, size_t p, numex_num *x) {
  size_t q = p, l;
  int i, v = 0;
  for (i = 0; i < 2; i++) {
    uint32_t c = numex_at(in, q, &l);
    int d = numex_cdigit(c);
    if (l == 0 || d < 0 || c == 0x4E24 || c == 0x5169) return 0;
    v = v * 10 + d;
    q += l;
  }
  if (!numex_lit(in, q, "年") || v == 35) return 0; /* 三五年: three or five years, like 三四年 */
  memset(x, 0, sizeof *x);
  x->s = p;
  x->e = q;
  x->v = v;
  x->ok = x->isint = x->positional = 1;
  x->ndig = 2;
  return 1;
}

/* A quarter at q (第三季度, 三季度, 3季度: 1..4, 第 optional) or, when
 * half is set, a half of a year (上半年, 下半年) into t: its length, or 0. */
static size_t numex_year_part(const numex_in *in, size_t q, int half, numex_tm *t) {
  numex_num n;
  size_t k = numex_lit(in, q, "第"), e;
  if (half && !k && ((e = numex_lit(in, q, "上半年")) || numex_lit(in, q, "下半年"))) {
    t->part = 'H';
    t->partn = e ? 1 : 2;
    return 9;
  }
  numex_number(in, q + k, 0, &n);
  if (!numex_field(&n, 1, 4) || (n.arabic && n.ndig != 1) || !(e = numex_lit(in, n.e, "季度"))) return 0;
  /* 两季度, 前三季度, 连续三季度: an amount of quarters, no quarter */
  if (!k && (numex_lit(in, q, "两") || numex_lit(in, q, "兩") || numex_before(in, q, "前") ||
             numex_before(in, q, "后") || numex_before(in, q, "近") || numex_before(in, q, "头") ||
             numex_before(in, q, "续")))
    return 0;
  t->part = 'Q';
  t->partn = (int)n.v;
  return n.e + e - q;
}

/* After the 年 of two digits at q: a month (98年3月; 3个月 would follow an
 * amount of time) or a part of a year (98年底, 98年上半年) makes it a year. */
static int numex_year_follows(const numex_in *in, size_t q) {
  numex_num m;
  numex_tm t;
  if (numex_date_part(in, q) || numex_year_part(in, q, 1, &t)) return 1;
  numex_number(in, q, 0, &m);
  return numex_field(&m, 1, 12) && numex_lit(in, m.e, "月");
}

/* Before the two digits yy at p: a year of four digits, 年 and a range
 * mark (1998年至99年) give yy the century that puts it within the 50
 * years after that year (1999).  The year, or -1. */
static int numex_range_year_before(const numex_in *in, size_t p, int yy) {
  size_t i, q, l;
  int d, y = 0, m = 1, nd = 0;
  for (i = 0; numex_range_marks[i] && !numex_before(in, p, numex_range_marks[i]); i++) {
  }
  if (!numex_range_marks[i]) return -1;
  q = p - strlen(numex_range_marks[i]);
  if (!numex_before(in, q, "年")) return -1;
  for (q -= 3; nd < 5 && (d = numex_digit_before(in, q, &l)) >= 0; nd++, m *= 10, q -= l) y += d * m;
  if (nd != 4 || y < 1000 || y > 2100) return -1;
  return fc_numex_year_near(y, yy, 1); /* 2000年至98年 is no range of 98 years */
}

/* After the 年 of two digits yy at q: a range mark and a year of four
 * digits (从98年到2003年) give yy the century that puts it within the 50
 * years before that year (1998).  The year, or -1. */
static int numex_range_year(const numex_in *in, size_t q, int yy) {
  numex_num e;
  size_t k = numex_lits(in, q, numex_range_marks, NULL);
  if (!k) return -1;
  numex_number(in, q + k, 0, &e);
  if (!(e.positional && e.ndig == 4 && !e.approx && e.ok && e.v >= 100 && e.v <= 2100 && numex_lit(in, e.e, "年")))
    return -1;
  return fc_numex_year_near((int)e.v, yy, 0);
}

/* A date at p: Y年[M月[D日|号]], M月[D日|号] or D日, then an optional
 * daypart and clock time.  A year is four digits (1814, 一九九八,
 * １９９８), or any number after 公元 (era 1) / 公元前 (era 2), or a year
 * of a reign (era NUMEX_ERA0 + its index; 元年 too).  Returns the end or 0. */
static size_t numex_date(const numex_in *in, size_t p, int era, numex_tm *t) {
  numex_num x, m, d;
  size_t q, k;
  const numex_era *r = era >= NUMEX_ERA0 ? &numex_eras[era - NUMEX_ERA0] : NULL;
  if (r && (k = numex_lit(in, p, "元"))) {
    memset(&x, 0, sizeof x);
    x.s = p;
    x.e = p + k;
    x.v = 1;
    x.ok = x.isint = 1;
  } else {
    numex_number(in, p, 0, &x);
    if (x.bad && !era) numex_cyear2(in, p, &x);
  }
  if (x.e == p || x.bad) return 0;
  q = x.e;
  if ((k = numex_lit(in, q, "年")) && !numex_lit(in, q + k, "代") && !numex_lit(in, q + k, "的历史") &&
      !numex_lit(in, q + k, "历史") && !numex_lit(in, q + k, "之久")) {
    /* four digits are a year up to 2100 (5000年的历史, 半衰期为5730年: an
     * amount of time); after 公元 a year of any size */
    int four = x.positional && x.ndig == 4 && !x.approx && x.ok && x.v <= 2100;
    /* two digits are a year of unknown century when nothing else reads
     * them: written in Chinese digits one by one (九八年), with a leading
     * zero (05年), or before a month or a part of a year (98年3月, 98年底);
     * 98年 alone stays an amount of time (活了98年) */
    int two = !era && x.positional && x.ndig == 2 && !x.approx && x.ok, full = -1;
    if (two) full = numex_range_year(in, q + k, (int)x.v);
    if (two && full < 0 && x.arabic) full = numex_range_year_before(in, p, (int)x.v);
    if (two && full < 0) two = !x.arabic || x.v < 10 || numex_year_follows(in, q + k);
    if (r) {
      if (!numex_field(&x, 1, r->last)) return 0;
      t->y = r->base + (int)x.v - 1;
    } else {
      if (!(four || two || (era && numex_field(&x, 1, 999999)))) return 0;
      t->y = era == 2 ? 1 - (int)x.v : (int)x.v;
      t->yy = two && full < 0;
      if (two && full >= 0) t->y = full;
    }
    t->hasy = 1;
    q += k;
    if ((k = numex_year_part(in, q, 1, t))) return q + k; /* 2023年第三季度, 1998年上半年 */
    numex_number(in, q, 0, &m);
    if (!numex_field(&m, 1, 12) || !(k = numex_lit(in, m.e, "月"))) return q + numex_date_part(in, q);
    t->mo = (int)m.v;
    q = m.e + k;
  } else if ((k = numex_lit(in, q, "月"))) {
    if (!numex_field(&x, 1, 12)) return 0;
    t->mo = (int)x.v;
    q += k;
  } else if ((k = numex_lit(in, q, "日"))) {
    /* a day alone: Arabic (6日), or Chinese with 十 (三十一日); 一日 no */
    if (!numex_field(&x, 1, 31) || x.lone || (!x.arabic && x.positional)) return 0;
    t->d = (int)x.v;
    return numex_time_after(in, q + k, 1, t);
  } else {
    return 0;
  }
  q += numex_lit(in, q, "份");
  if (r && r->lunar && (k = numex_lit(in, q, "初"))) {
    /* a lunar month's first ten days: 三月初五 (kept in the span, no value) */
    numex_number(in, q + k, 0, &d);
    if (numex_field(&d, 1, 10) && !d.arabic) return d.e;
  }
  numex_number(in, q, 0, &d);
  if (numex_field(&d, 1, 31) && ((k = numex_lit(in, d.e, "日")) || (k = numex_lit(in, d.e, "号")))) {
    t->d = (int)d.v;
    return numex_time_after(in, d.e + k, 1, t);
  }
  return q + numex_date_part(in, q);
}

/* Writes v for an ISO duration: integer, or up to 3 decimals. */
static int numex_fmt_num(char *out, size_t cap, double v) {
  int w;
  if (v < 0 || v >= 1e12) return 0;
  if (v == (double)(long long)v) {
    w = snprintf(out, cap, "%lld", (long long)v);
  } else {
    w = snprintf(out, cap, "%.3f", v);
    while (w > 0 && out[w - 1] == '0') out[--w] = 0;
    if (w > 0 && out[w - 1] == '.') out[--w] = 0;
  }
  return w > 0 && (size_t)w < cap;
}

/* ---------------------------------------------------------------- output */

enum { NUMEX_CTX_FIRM = 1, NUMEX_CTX_NEG = 2, NUMEX_CTX_MONEY = 4 };

/* Types a number F that starts at s (a prefix may come before F->s):
 * percent, a unit (money, duration, quantity) or a bare number.  Returns
 * the end or 0 when it is no expression. */
static size_t numex_suffix(const numex_in *in, size_t s, numex_num *F, int ctx, fc_numex *x) {
  size_t q = F->e, ul, k;
  const numex_unit *u;
  int firm = ctx & NUMEX_CTX_FIRM;
  double v = (ctx & NUMEX_CTX_NEG) ? -F->v : F->v;
  x->s = s;
  if (F->zero && !firm) return 0; /* 零件, 零点 */
  x->approx = F->approx;
  if (((k = numex_lit(in, q, "%")) || (k = numex_lit(in, q, "％"))) && !(ctx & NUMEX_CTX_MONEY)) {
    x->type = FC_NX_PERCENT;
    x->value = v / 100;
    x->has_value = F->ok && !F->approx;
    if (!x->has_value) x->value = x->approx ? x->value : 0;
    return q + k;
  }
  if ((k = numex_lit(in, q, "‰")) && !(ctx & NUMEX_CTX_MONEY)) {
    x->type = FC_NX_PERCENT;
    x->value = F->ok ? v / 1000 : 0;
    x->has_value = F->ok && !F->approx;
    return q + k;
  }
  if ((k = numex_lit(in, q, "成")) && !(ctx & (NUMEX_CTX_MONEY | NUMEX_CTX_NEG)) && F->v > 0 && F->v <= 10 &&
      !F->zero) {
    /* 三成, 3.5成: tenths (all 21 such numerals + 成 of People's Daily
     * 1998-01 are q, the share); not where 成 begins a longer word
     * (三成员国, 增长三成为) */
    fc_numex_word w;
    /* 八成会, 八成又: "most likely" before a verb or an adverb, no share */
    static const char *const adv[] = {"会", "要", "就", "又", "也", "不", "没", "还", "得", "已", "在", NULL};
    /* 八成是 after a pronoun too (他八成是忘了, 这八成是真的); after a
     * noun it is the share (其中八成是女性) */
    static const char *const who[] = {"他", "她", "它", "你", "我", "们", "这", "那", "您", NULL};
    int likely = !F->arabic && F->lone && F->v == 8 &&
                 (numex_lits(in, q + k, adv, NULL) ||
                  (numex_lit(in, q + k, "是") && s >= 3 && numex_lits(in, s - 3, who, NULL) == 3));
    if (!likely && !(numex_held(in, q + k, NUMEX_GAP_UNIT, &w) && w.start >= q)) {
      x->type = FC_NX_PERCENT;
      x->value = F->ok ? v / 10 : 0;
      x->has_value = F->ok && !F->approx;
      return q + k;
    }
  }
  u = numex_unit_at(in, q, &ul);
  {
    /* 一个半小时, 两个半月: 个半 before a unit of hours, weeks or months
     * (月 there stands for 个月) adds a half */
    size_t ul2 = 0;
    const numex_unit *u2 = NULL;
    if (numex_lit(in, q, "个半")) {
      if (numex_lit(in, q + 6, "月")) {
        u2 = numex_unit_named("个月");
        ul2 = 3;
      } else {
        u2 = numex_unit_at(in, q + 6, &ul2);
      }
    }
    if (u2 && u2->kind == NUMEX_U_DUR && !u2->approx && (u2->dur == 'h' || u2->dur == 'M' || u2->dur == 'W')) {
      F->v += 0.5;
      F->isint = 0;
      F->lone = 0;
      v = (ctx & NUMEX_CTX_NEG) ? -F->v : F->v;
      u = u2;
      ul = ul2 + 6;
    }
  }
  if (u && F->arabic && (!strcmp(u->s, "两") || !strcmp(u->s, "兩"))) u = NULL; /* 1997两年, 3∶2两胜 */
  if (u) {
    /* a unit that starts a longer word is none: 300万人口, 这一发现 */
    fc_numex_word w;
    if (numex_held(in, q + ul, NUMEX_GAP_UNIT, &w) && w.start >= q) u = NULL;
  }
  if (u) {
    size_t e = q + ul;
    if (!firm && !F->arabic && (F->lone || F->pair) && numex_lone_guarded(in, s, e)) return 0;
    /* 一个个, 一朵朵: one by one, no count */
    if (!firm && F->lone && ul == 3 && e + 3 <= in->n && memcmp(in->t + q, in->t + e, 3) == 0) return 0;
    x->us = q;
    x->ue = e;
    if (u->approx) x->approx = 1;
    if (u->kind != NUMEX_U_MONEY && !x->approx && numex_approx_word(in, e)) {
      x->approx = 1; /* 一年多, 3公里多 */
      e += 3;
    }
    x->value = F->ok ? v : 0;
    x->has_value = F->ok && !x->approx;
    if (u->kind == NUMEX_U_DUR) {
      int which = 0;
      x->type = FC_NX_TIME;
      x->duration = 1;
      x->has_value = 0;
      /* 这一年, 那一天: a time pointed at, not an amount of time */
      if (F->lone && v == 1 && (numex_before(in, s, "这") || numex_before(in, s, "那"))) {
        x->duration = 0;
        x->relative = 1;
        x->value = 0;
        return e;
      }
      /* 三年半, 两天半: and a half */
      if (!x->approx && (u->dur == 'Y' || u->dur == 'D') && numex_lit(in, e, "半") && !numex_lit(in, e, "半夜")) {
        v += 0.5;
        x->value = F->ok ? v : 0;
        e += 3;
      }
      if ((k = numex_lits(in, e, numex_rel_after, &which)) && !numex_lit(in, e, "前往")) {
        x->relative = 1;
        return e + k;
      }
      if (F->ok && !x->approx && v >= 0) {
        char num[32];
        int timepart = u->dur == 'h' || u->dur == 'm' || u->dur == 's';
        char des = timepart ? (char)(u->dur - 'a' + 'A') : u->dur;
        if (numex_fmt_num(num, sizeof num, v)) {
          snprintf(x->iso, sizeof x->iso, "P%s%s%c", timepart ? "T" : "", num, des);
          x->has_value = 1;
        }
      }
      return e;
    }
    if (u->kind == NUMEX_U_MONEY || !strcmp(u->s, "块")) {
      /* 3元5角2分, 3块5毛: the smaller coins after 元 or 块 */
      int coin = 0;
      if (!strcmp(u->s, "元") || !strcmp(u->s, "块")) {
        numex_num c1;
        numex_number(in, e, 0, &c1);
        if (numex_field(&c1, 0, 9) && ((k = numex_lit(in, c1.e, "角")) || (k = numex_lit(in, c1.e, "毛")))) {
          x->value += c1.v / 10;
          e = c1.e + k;
          coin = 1;
          numex_number(in, e, 0, &c1);
        }
        if (numex_field(&c1, 0, 9) && (k = numex_lit(in, c1.e, "分")) && !numex_lit(in, c1.e + k, "钟") &&
            !numex_lit(in, c1.e + k, "之")) {
          x->value += c1.v / 100;
          e = c1.e + k;
          coin = 1;
        } else if (!coin && !strcmp(u->s, "块") && !c1.arabic && numex_field(&c1, 1, 9) && c1.lone &&
                   !numex_starts(numex_at(in, c1.e, &k)) && !numex_unit_at(in, c1.e, &k)) {
          /* 两块五: tenths without 毛 (not 一块五花肉, 两块五公斤, 两块一人多高) */
          fc_numex_word w;
          if (!(numex_held(in, c1.e, NUMEX_GAP_UNIT, &w) && w.start >= c1.s)) {
            x->value += c1.v / 10;
            e = c1.e;
            coin = 1;
          }
        }
        if (!strcmp(u->s, "块") && (k = numex_lit(in, e, "钱"))) { /* 三块钱, 两块五毛钱 */
          e += k;
          coin = 1;
        }
      }
      if (u->kind == NUMEX_U_MONEY || coin) {
        x->type = FC_NX_MONEY;
        return e;
      }
    }
    static const char *const numex_height_stops[] = {"日", "月", "号", "时", "万", "亿", NULL}; /* 1米5日 */
    if (!strcmp(u->s, "米") && x->has_value && x->value >= 1 && x->value <= 9 && x->value == (int)x->value) {
      /* 1米8, 一米七, 1米75, 一米七五, 两米零五: a height in metres and
       * tenths or hundredths, the 公分 left out (not 3米5个, 1米8的高度
       * keeps 1.8) */
      numex_num c1;
      size_t k1, k2, e2;
      int d1 = numex_cdigit(numex_at(in, e, &k1)), d2 = k1 ? numex_cdigit(numex_at(in, e + k1, &k2)) : -1;
      e2 = e + k1 + (d2 >= 0 ? k2 : 0);
      if (d1 >= 0 && d2 >= (d1 ? 0 : 1) && !numex_starts(numex_at(in, e2, &k)) && !numex_unit_at(in, e2, &k) &&
          numex_adigit(numex_at(in, e2, &k)) < 0 && !numex_lits(in, e2, numex_height_stops, NULL)) {
        x->value += (10 * d1 + d2) / 100.0; /* the digits one by one: 七五 is 75 */
        x->type = FC_NX_QUANTITY;
        return e2;
      }
      numex_number(in, e, 0, &c1);
      if (!c1.approx && c1.ok && c1.isint && c1.e > c1.s &&
          ((c1.arabic && c1.ndig <= 2 && c1.v >= 1) || (!c1.arabic && c1.lone && c1.v >= 1 && c1.v <= 9)) &&
          !numex_starts(numex_at(in, c1.e, &k)) && !numex_unit_at(in, c1.e, &k) &&
          numex_adigit(numex_at(in, c1.e, &k)) < 0 && !numex_lits(in, c1.e, numex_height_stops, NULL)) {
        x->value += c1.v / (c1.ndig == 2 ? 100 : 10);
        x->type = FC_NX_QUANTITY;
        return c1.e;
      }
    }
    if (ctx & NUMEX_CTX_MONEY) { /* $5个? the sign wins; the unit stays a unit */
      x->type = FC_NX_MONEY;
      return e;
    }
    x->type = FC_NX_QUANTITY;
    return e;
  }
  if (!firm && !F->arabic && (F->lone || F->pair)) return 0;
  if (!F->arabic && numex_lit(in, q, "世")) return 0; /* 约翰二十三世: a regnal number */
  x->type = (ctx & NUMEX_CTX_MONEY) ? FC_NX_MONEY : FC_NX_NUMBER;
  x->value = F->ok ? v : 0;
  x->has_value = F->ok && !F->approx;
  return q;
}

/* A number-led expression at p (a number starts there): a fraction, a
 * clock time, a date, a century or decade, or a number with its suffix.
 * Returns the end, or 0 with *skip set past the numeral run. */
static size_t numex_numeric(const numex_in *in, size_t p, int ctx, fc_numex *x, size_t *skip) {
  numex_num I, F, Y;
  numex_tm t;
  size_t q, k, e;
  numex_number(in, p, 0, &I);
  *skip = I.e;
  if (I.bad && !(ctx & (NUMEX_CTX_MONEY | NUMEX_CTX_NEG)) && numex_cyear2(in, p, &F)) {
    numex_tm_init(&t); /* 九八年 */
    x->s = p;
    if ((e = numex_date(in, p, 0, &t))) {
      numex_time_out(&t, x);
      return e;
    }
  }
  if (I.e == p || I.bad) return 0;
  /* a Latin letter right after Arabic digits: a unit (5km) or an identifier (3G) */
  if (I.arabic && I.e < in->n) {
    size_t l;
    uint32_t c = numex_at(in, I.e, &l);
    if (numex_latin(c)) {
      numex_number(in, p, 1, &F);
      if (F.bad) {
        *skip = F.e;
        return 0;
      }
      c = numex_at(in, F.e, &l);
      if (numex_latin(c)) {
        size_t ul;
        const numex_unit *u = numex_unit_at(in, F.e, &ul);
        if (!u || !u->latin) {
          size_t r = F.e;
          for (;;) {
            c = numex_at(in, r, &l);
            if (l == 0 || !(numex_latin(c) || numex_adigit(c) >= 0 || c == '_')) break;
            r += l;
          }
          *skip = r;
          return 0;
        }
      }
    }
  }
  x->s = p;
  /* 1998-01-06, 1998/1/6 */
  if (I.arabic && I.positional && I.ndig == 4 && !(ctx & (NUMEX_CTX_MONEY | NUMEX_CTX_NEG))) {
    size_t l;
    uint32_t sep = numex_at(in, I.e, &l);
    if (sep == '-' || sep == '/' || sep == 0xFF0F) {
      numex_num M, D;
      size_t l2;
      numex_number(in, I.e + l, 0, &M);
      if (M.arabic && M.ndig <= 2 && numex_field(&M, 1, 12) && numex_at(in, M.e, &l2) == sep) {
        numex_number(in, M.e + l2, 0, &D);
        if (D.arabic && D.ndig <= 2 && numex_field(&D, 1, 31)) {
          uint32_t after = numex_at(in, D.e, &l2);
          if (!(after == sep || numex_latin(after) || after == '.')) {
            numex_tm_init(&t);
            t.hasy = 1;
            t.y = (int)I.v;
            t.mo = (int)M.v;
            t.d = (int)D.v;
            numex_tm_iso(&t, x->iso, sizeof x->iso);
            if (!x->iso[0]) { /* 2455/2/31 is no date, nor a fraction (fuzz_numex) */
              *skip = D.e;
              return 0;
            }
            x->type = FC_NX_TIME;
            x->has_value = 1;
            return D.e;
          }
        }
      }
    }
  }
  /* 1/4, １／３: a fraction when not part of a longer slashed run */
  if (I.arabic && numex_field(&I, 0, NUMEX_MAXV)) {
    size_t l, l2;
    uint32_t sep = numex_at(in, I.e, &l);
    if (sep == '/' || sep == 0xFF0F) {
      numex_num D;
      numex_number(in, I.e + l, 0, &D);
      if (D.arabic && !D.bad && D.e > I.e + l && D.ok && D.v > 0) {
        uint32_t after = numex_at(in, D.e, &l2);
        if (!(after == '/' || after == 0xFF0F || numex_latin(after))) {
          x->type = FC_NX_NUMBER;
          x->has_value = 1;
          x->value = I.v / D.v;
          if (ctx & NUMEX_CTX_NEG) x->value = -x->value;
          return D.e;
        }
      }
    }
  }
  /* ratios and scores: 1∶50000, ３∶０, ２．４∶１ (one number, the ratio its
   * value; its first part may have decimals, as no clock time has) */
  if (I.arabic && !(ctx & NUMEX_CTX_MONEY)) {
    size_t l;
    numex_num R;
    numex_number(in, p, 1, &R);
    if (R.arabic && numex_field_dec(&R, 0, NUMEX_MAXV) && numex_at(in, R.e, &l) == 0x2236 &&
        numex_adigit(numex_at(in, R.e + l, &k)) >= 0) {
      numex_num D;
      numex_number(in, R.e + l, 1, &D);
      if (D.arabic && !D.bad && !D.approx) {
        size_t r = D.e, ul;
        int has = D.ok && D.v > 0;
        double v = has ? R.v / D.v : 0;
        /* 68∶26∶6: more parts, one span, no single value */
        while (numex_at(in, r, &l) == 0x2236 && numex_adigit(numex_at(in, r + l, &k)) >= 0) {
          numex_number(in, r + l, 1, &D);
          if (D.bad || !D.arabic) break;
          r = D.e;
          has = 0;
          v = 0;
        }
        /* a currency after the last part makes it an amount, not a
         * ratio's: 2.5∶1美元, 汇率为1∶8.27元 (the numbers are read one by
         * one; other units stay outside: 3∶0两胜, 两 a tael too) */
        const numex_unit *u = numex_unit_at(in, r, &ul);
        if (!u || u->kind != NUMEX_U_MONEY) {
          x->type = FC_NX_NUMBER;
          x->has_value = has;
          x->value = ctx & NUMEX_CTX_NEG ? -v : v;
          return r;
        }
      }
    }
  }
  /* mixed numbers: 三又四分之一 3.25, 1又3分之2 (a whole number, 又, and a
   * proper fraction; else 又 is "again" and the whole number stands alone) */
  if (numex_field(&I, 1, NUMEX_MAXV) && (k = numex_lit(in, I.e, "又"))) {
    numex_num D;
    size_t k2;
    numex_number(in, I.e + k, 1, &D);
    if (numex_field(&D, 2, NUMEX_MAXV) && (k2 = numex_lit(in, D.e, "分之"))) {
      numex_number(in, D.e + k2, 1, &Y);
      if (numex_field(&Y, 1, D.v - 1)) {
        x->type = FC_NX_NUMBER;
        x->has_value = 1;
        x->value = I.v + Y.v / D.v;
        if (ctx & NUMEX_CTX_NEG) x->value = -x->value;
        return Y.e;
      }
    }
  }
  /* fractions: 三分之一, 10分之3 */
  if (numex_field(&I, 1, NUMEX_MAXV) && (k = numex_lit(in, I.e, "分之"))) {
    numex_number(in, I.e + k, 1, &Y);
    if (Y.e > I.e + k && !Y.bad) {
      x->type = FC_NX_NUMBER;
      x->approx = Y.approx;
      x->has_value = Y.ok && !Y.approx;
      x->value = Y.ok ? Y.v / I.v : 0;
      if (ctx & NUMEX_CTX_NEG) x->value = -x->value;
      return Y.e;
    }
  }
  if (!(ctx & (NUMEX_CTX_MONEY | NUMEX_CTX_NEG))) {
    /* clock times */
    numex_tm_init(&t);
    if ((e = numex_clock(in, p, 0, 0, &t))) {
      numex_time_out(&t, x);
      return e;
    }
    /* centuries and decades */
    if ((k = numex_lit(in, I.e, "世纪")) && numex_field(&I, 1, 99)) {
      numex_num D;
      x->type = FC_NX_TIME;
      snprintf(x->iso, sizeof x->iso, "%02d", (int)I.v - 1);
      q = I.e + k;
      numex_number(in, q, 0, &D);
      if (numex_field(&D, 0, 90) && (int)D.v % 10 == 0 && (k = numex_lit(in, D.e, "年代"))) {
        snprintf(x->iso, sizeof x->iso, "%02d%d", (int)I.v - 1, (int)D.v / 10);
        q = D.e + k;
      }
      x->has_value = 1;
      return q;
    }
    if ((k = numex_lit(in, I.e, "年代")) && I.approx && !I.bad && I.ok && I.v >= 10 && I.v <= 90) {
      x->type = FC_NX_TIME; /* 七八十年代 */
      x->approx = 1;
      return I.e + k;
    }
    if ((k = numex_lit(in, I.e, "年代")) && numex_field(&I, 0, 9999) && (int)I.v % 10 == 0 &&
        (I.ndig == 4 || (I.v >= 10 && I.v <= 90))) {
      x->type = FC_NX_TIME;
      if (I.ndig == 4) snprintf(x->iso, sizeof x->iso, "%03d", (int)I.v / 10);
      x->has_value = x->iso[0] != 0;
      return I.e + k;
    }
    /* dates */
    numex_tm_init(&t);
    if ((e = numex_date(in, p, 0, &t))) {
      numex_time_out(&t, x);
      return e;
    }
    if (numex_lit(in, I.e, "季度") && (k = numex_year_part(in, p, 0, &t))) { /* 三季度: a quarter of a year not named */
      numex_time_out(&t, x);
      return p + k;
    }
  }
  numex_number(in, p, 1, &F);
  if (F.bad || F.e == p) {
    if (F.e > *skip) *skip = F.e; /* 1.2.3: past the dotted run */
    return 0;
  }
  return numex_suffix(in, p, &F, ctx, x);
}

/* A year of a reign at p: 康熙五十年, 民国38年10月1日, 万历元年 (年 is
 * required: 民国3月 is no date).  Returns the end or 0; a year past the
 * reign's last (康熙六十二年) sets *skip past it, no amount of time. */
static size_t numex_era_year(const numex_in *in, size_t p, fc_numex *x, size_t *skip) {
  size_t l, e;
  uint32_t c;
  int i;
  numex_tm t;
  if (p + 9 > in->n) return 0;
  c = numex_at(in, p + 6, &l);
  if (!numex_starts(c) && c != 0x5143 /* 元 */) return 0;
  for (i = 0; numex_eras[i].name; i++)
    if (numex_lit(in, p, numex_eras[i].name)) {
      numex_tm_init(&t);
      if (!(e = numex_date(in, p + 6, NUMEX_ERA0 + i, &t)) || !t.hasy) {
        numex_num y;
        size_t k;
        numex_number(in, p + 6, 0, &y);
        if (y.e > p + 6 && !y.bad && (k = numex_lit(in, y.e, "年")) && !numex_lit(in, y.e + k, "代")) *skip = y.e + k;
        return 0;
      }
      if (numex_eras[i].lunar) t.mo = t.d = t.h = -1; /* a lunar month and day: the year alone */
      x->s = p;
      numex_time_out(&t, x);
      x->era = 1;
      return e;
    }
  return 0;
}

/* 1 when c begins a name of numex_eras (test_numex checks them all). */
static int numex_era_start(uint32_t c) {
  switch (c) {
  case 0x6C11: /* 民 */ case 0x660E: /* 明 */ case 0x5927: /* 大 */ case 0x662D: /* 昭 */
  case 0x5E73: /* 平 */ case 0x4EE4: /* 令 */ case 0x987A: /* 顺 */ case 0x5EB7: /* 康 */
  case 0x96CD: /* 雍 */ case 0x4E7E: /* 乾 */ case 0x5609: /* 嘉 */ case 0x9053: /* 道 */
  case 0x54B8: /* 咸 */ case 0x540C: /* 同 */ case 0x5149: /* 光 */ case 0x5BA3: /* 宣 */
  case 0x6D2A: /* 洪 */ case 0x6C38: /* 永 */ case 0x6B63: /* 正 */ case 0x6210: /* 成 */
  case 0x5F18: /* 弘 */ case 0x9686: /* 隆 */ case 0x4E07: /* 万 */ case 0x5929: /* 天 */
  case 0x5D07: /* 崇 */ case 0x8D1E: /* 贞 */ case 0x5F00: /* 开 */
    return 1;
  default:
    return 0;
  }
}

/* Weekdays: [上|下|本|这](星期|礼拜|周)(一..六|日|天).  Returns the end or 0. */
static size_t numex_weekday(const numex_in *in, size_t p, fc_numex *x) {
  static const char *const pre[] = {"上", "下", "本", "这", NULL};
  static const char *const wk[] = {"星期", "礼拜", "周", NULL};
  static const char *const dn[] = {"一", "二", "三", "四", "五", "六", "日", "天", NULL};
  size_t q = p, k;
  int rel = 0, w = 0, d = 0;
  if ((k = numex_lits(in, q, pre, NULL))) {
    q += k;
    rel = 1;
  }
  if (!(k = numex_lits(in, q, wk, &w))) return 0;
  q += k;
  if (!(k = numex_lits(in, q, dn, &d))) return 0;
  if (d == 7 && w == 2) return 0; /* 周天 */
  {
    /* 每周三次: the numeral belongs to the unit after it */
    size_t ul;
    if (d < 6 && numex_unit_at(in, q + k, &ul)) return 0;
  }
  q += k;
  x->type = FC_NX_TIME;
  x->s = p;
  x->relative = rel;
  x->weekday = 1;
  x->value = d >= 6 ? 7 : d + 1;
  /* TimeML's form of a weekday: any year, any week, day N (上周三 is a
   * Wednesday too, though relative) */
  snprintf(x->iso, sizeof x->iso, "XXXX-WXX-%d", (int)x->value);
  x->has_value = 1;
  return q;
}

/* 1 when 负 at p ends a word (减负, 胜负, 抱负, 正负, 欺负): no sign. */
static int numex_neg_word(const numex_in *in, size_t p) {
  static const char *const before[] = {"减", "胜", "抱", "正", "欺", "辜", "自", "担", "背", "肩", "重", "亏", NULL};
  fc_numex_word w;
  int i;
  if (!numex_lit(in, p, "负")) return 0;
  for (i = 0; before[i]; i++)
    if (numex_before(in, p, before[i])) return 1;
  return numex_held(in, p, NUMEX_GAP_REL, &w) && w.start < p;
}

/* Currencies named before the amount (人民币500元, 港币100元, 美元100;
 * traditional text reads through its simplified copy: 新台幣). */
static const char *const numex_currencies[] = {"人民币", "美元", "美金", "港币", "港元", "新台币", "台币", "日元",
                                               "欧元", "英镑", "澳元", "澳门币", "加元", "卢布", "韩元", NULL};

/* Keyword-led forms at p.  Returns the end or 0; *skip may move the scan
 * past a numeral run that failed after the keyword. */
static size_t numex_keyword(const numex_in *in, size_t p, fc_numex *x, size_t *skip) {
  size_t k, e, sk;
  int which = 0, guarded, named = 0;
  numex_num F;
  numex_tm t;
  static const char *const pct[] = {"百分之", "千分之", "万分之", NULL};
  static const char *const signs[] = {"$", "US$", "HK$", "¥", "￥", "€", "£", "＄", "￡", NULL};
  static const double pct_div[] = {100, 1000, 10000};
  *skip = 0;
  if ((k = numex_lit(in, p, "-")) || (k = numex_lit(in, p, "－"))) {
    /* a minus sign before a temperature, and nothing else: a hyphen
     * starts no other form (checked first: runs of hyphens are common) */
    if (!numex_minus_temp(in, p, k)) return 0;
    if ((e = numex_numeric(in, p + k, NUMEX_CTX_FIRM | NUMEX_CTX_NEG, x, &sk))) {
      x->s = p;
      return e;
    }
    *skip = sk;
    return 0;
  }
  if ((k = numex_lit(in, p, "第"))) { /* ordinals */
    fc_numex_word w;
    numex_number(in, p + k, 0, &F);
    /* not the start of a word that goes on for two characters or more:
     * 第三世界, 第三产业 (第一次, 第一步, 第三代 stay, and parts of a
     * year or an era whatever the lexicon holds: 第四季度, 第二阶段) */
    static const char *const parts[] = {"季度", "季", "世纪", "阶段", "年度", "期", NULL};
    if (F.e > p + k && numex_held(in, F.e, NUMEX_GAP_IDIOM, &w) && w.start <= p && w.end >= F.e + 6 &&
        !numex_unit_at(in, F.e, &e) && !numex_lits(in, F.e, parts, NULL)) {
      *skip = F.e;
      return 0;
    }
    numex_tm_init(&t);
    if (numex_lit(in, F.e, "季度") && (e = numex_year_part(in, p, 0, &t))) { /* 第三季度 */
      x->s = p;
      numex_time_out(&t, x);
      return p + e;
    }
    if (F.e > p + k && !F.bad && !F.pair && !F.approx) {
      x->type = FC_NX_NUMBER;
      x->s = p;
      x->ordinal = 1;
      x->has_value = F.ok;
      x->value = F.v;
      return F.e;
    }
    return 0;
  }
  if ((k = numex_lits(in, p, pct, &which))) {
    numex_number(in, p + k, 1, &F);
    if (F.e > p + k && !F.bad && !F.zero) {
      x->type = FC_NX_PERCENT;
      x->s = p;
      x->approx = F.approx;
      x->has_value = F.ok && !F.approx;
      x->value = F.ok ? F.v / pct_div[which] : 0;
      return F.e;
    }
    if (which == 0 && (e = numex_lit(in, p + k, "百"))) { /* 百分之百 */
      x->type = FC_NX_PERCENT;
      x->s = p;
      x->has_value = 1;
      x->value = 1;
      return p + k + e;
    }
    return 0;
  }
  if ((k = numex_lit(in, p, "数")) || (k = numex_lit(in, p, "上")) || (k = numex_lit(in, p, "近"))) {
    /* 数百, 数十万人; 上千人, 近百年: 上 and 近 take 百 千 万 亿 and a unit
     * after them (以上百姓, 马上万一 are no amounts) */
    double mul;
    size_t l, ul;
    int shu = numex_lit(in, p, "数") != 0;
    e = numex_tail(in, p + k, &mul);
    if (e > p + k && (shu || (numex_cmult(numex_at(in, p + k, &l)) >= 100 && numex_unit_at(in, e, &ul)))) {
      memset(&F, 0, sizeof F);
      F.s = p;
      F.e = e;
      F.v = mul;
      F.ok = 1;
      F.approx = 1;
      F.isint = 1;
      return numex_suffix(in, p, &F, NUMEX_CTX_FIRM, x);
    }
    if (shu) return 0; /* 上, 近: other forms below */
  }
  if ((k = numex_lit(in, p, "零下")) || (k = numex_lit(in, p, "零上")) ||
      (((k = numex_lit(in, p, "负")) || (k = numex_lit(in, p, "−"))) && numex_starts(numex_at(in, p + k, &e)) &&
       !numex_neg_word(in, p))) {
    /* 零下5度, 负五摄氏度, −5℃ (the ASCII hyphen is a dash too often) */
    int neg = numex_lit(in, p, "零上") ? 0 : NUMEX_CTX_NEG;
    if ((e = numex_numeric(in, p + k, NUMEX_CTX_FIRM | neg, x, &sk))) {
      x->s = p;
      return e;
    }
    *skip = sk;
    return 0;
  }
  if ((k = numex_lits(in, p, numex_currencies, NULL)) && numex_adigit(numex_at(in, p + k, &e)) < 0 &&
      numex_starts(numex_at(in, p + k, &e))) {
    /* 人民币三百元: with Chinese numerals only an amount in a currency's
     * unit (人民币一直升值, 美元一直走强 are none) */
    if ((e = numex_numeric(in, p + k, NUMEX_CTX_FIRM, x, &sk)) && x->type == FC_NX_MONEY) {
      x->s = p;
      return e;
    }
    memset(x, 0, sizeof *x);
    return 0;
  }
  if (((k = numex_lits(in, p, signs, NULL)) || (named = 1, k = numex_lits(in, p, numex_currencies, NULL))) &&
      numex_adigit(numex_at(in, p + k, &e)) >= 0) {
    if (named) {
      /* a named currency takes an amount in money or a bare number, not a
       * number with a unit of its own or a word after it: 新版卢布１日开始
       * 上市, 美元5个百分点, 欧元3国 */
      fc_numex y;
      memset(&y, 0, sizeof y);
      if ((e = numex_numeric(in, p + k, 0, &y, &sk))) {
        size_t l2;
        uint32_t after = numex_at(in, e, &l2);
        if (!(y.type == FC_NX_MONEY ||
              (y.type == FC_NX_NUMBER && y.us == y.ue && !y.ordinal && !(after >= 0x4E00 && after <= 0x9FFF))))
          return 0;
      }
    }
    if ((e = numex_numeric(in, p + k, NUMEX_CTX_FIRM | NUMEX_CTX_MONEY, x, &sk))) {
      x->s = p;
      if (x->us == x->ue) {
        x->us = p;
        x->ue = p + k;
      }
      return e;
    }
    *skip = sk;
    return 0;
  }
  if ((k = numex_lit(in, p, "公元前")) || (k = numex_lit(in, p, "公元"))) {
    int era = k == strlen("公元前") ? 2 : 1;
    numex_tm_init(&t);
    if ((e = numex_date(in, p + k, era, &t))) {
      x->s = p;
      numex_time_out(&t, x);
      return e;
    }
    return 0;
  }
  /* a relative word or weekday is no start of a word's second half (the
   * static guards without the text's words) and no end of a word's first */
  guarded = numex_rel_guarded(in, p);
  if (!guarded && (e = numex_weekday(in, p, x))) {
    if (!numex_split_word(in, p, e, !numex_before(in, p, "每"))) return e; /* 每周一: every Monday */
    memset(x, 0, sizeof *x);
  }
  if ((k = numex_lits(in, p, numex_holidays, &which)) && !numex_holiday_split(in, p, p + k)) {
    x->type = FC_NX_TIME;
    x->s = p;
    snprintf(x->iso, sizeof x->iso, "%s", numex_holiday_iso[which]);
    x->has_value = x->iso[0] != 0;
    return p + k;
  }
  if (!guarded && ((k = numex_lits(in, p, numex_relative, NULL)) ||
                   (p + 6 <= in->n && !memcmp(in->t + p, in->t + p + 3, 3) && /* a doubled 上 or 下 */
                    (k = numex_lits(in, p, numex_relative2, NULL))))) {
    numex_tm_init(&t);
    x->type = FC_NX_TIME;
    x->s = p;
    x->relative = 1;
    /* 去年底, 今年初: the part of a year or a month stays with it */
    if (numex_before(in, p + k, "年") || numex_before(in, p + k, "月")) k += numex_date_part(in, p + k);
    if (k == 9 && numex_year_part(in, p, 1, &t)) { /* 上半年: a half of a year not named, XXXX-H1 */
      numex_time_out(&t, x);
      numex_tm_init(&t);
    }
    e = numex_time_after(in, p + k, 0, &t);
    x->clock = t.h >= 0 ? 1 + t.dp : 0;
    if (!numex_split_word(in, p, e, 1)) return e;
    memset(x, 0, sizeof *x);
  }
  if ((k = numex_lits(in, p, numex_dayparts, &which))) {
    numex_tm_init(&t);
    x->type = FC_NX_TIME;
    x->s = p;
    if ((e = numex_clock(in, p + k, numex_daypart_kind[which], 1, &t))) {
      numex_time_out(&t, x);
      return e;
    }
    return p + k;
  }
  if ((k = numex_lits(in, p, numex_dayparts1, &which))) { /* 晚6时 */
    numex_tm_init(&t);
    if ((e = numex_clock(in, p + k, numex_daypart1_kind[which], 1, &t))) {
      x->s = p;
      numex_time_out(&t, x);
      return e;
    }
  }
  return 0;
}

/* 1 when cp can start a keyword-led form (the first characters of the
 * lists in numex_keyword; test_numex checks every listed word starts with
 * one of them through fc_numex_selfcheck).  It keeps the list scans off
 * the common path. */
static int numex_kw_start(uint32_t c) {
  switch (c) {
  case 0x7B2C: /* 第 */ case 0x767E: /* 百 */ case 0x5343: /* 千 */ case 0x4E07: /* 万 */
  case 0x6570: /* 数 */ case 0x96F6: /* 零 */ case '$': case 'U': case 'H': case 0xA5: /* ¥ */
  case 0xFFE5: /* ￥ */ case 0x20AC: /* € */ case 0xA3: /* £ */ case 0x4EBA: /* 人 */
  case 0x516C: /* 公 */ case 0x4E0A: /* 上 */ case 0x4E0B: /* 下 */ case 0x672C: /* 本 */
  case 0x8FD9: /* 这 */ case 0x661F: /* 星 */ case 0x793C: /* 礼 */ case 0x5468: /* 周 */
  case 0x4ECA: /* 今 */ case 0x660E: /* 明 */ case 0x6628: /* 昨 */ case 0x524D: /* 前 */
  case 0x540E: /* 后 */ case 0x5927: /* 大 */ case 0x6B21: /* 次 */ case 0x7FCC: /* 翌 */
  case 0x5F53: /* 当 */ case 0x53BB: /* 去 */ case 0x6765: /* 来 */ case 0x8FD1: /* 近 */
  case 0x65E9: /* 早 */ case 0x6E05: /* 清 */ case 0x51CC: /* 凌 */ case 0x4E2D: /* 中 */
  case 0x5348: /* 午 */ case 0x508D: /* 傍 */ case 0x665A: /* 晚 */ case 0x591C: /* 夜 */
  case 0x6DF1: /* 深 */ case 0x534A: /* 半 */ case 0x6668: /* 晨 */
  case 0x6625: /* 春 */ case 0x5143: /* 元 */ case 0x9664: /* 除 */ case 0x5723: /* 圣 */
  case 0x7AEF: /* 端 */ case 0x91CD: /* 重 */ case 0x52B3: /* 劳 */ case 0x513F: /* 儿 */
  case 0x5EFA: /* 建 */ case 0x6559: /* 教 */ case 0x60C5: /* 情 */ case 0x5E73: /* 平 */
  case 0x76EE: /* 目 */ case 0x73B0: /* 现 */ case 0x5982: /* 如 */ case 0x6700: /* 最 */
  case 0x5F80: /* 往 */ case 0x56FD: /* 国 */ case 0x8D1F: /* 负 */ case 0x2212: /* − */
  case 0xFF04: /* ＄ */ case 0xFFE1: /* ￡ */
  /* holidays: 妇 植 青 愚 感 母 父 双 */
  case 0x5987: case 0x690D: case 0x9752: case 0x611A: case 0x611F: case 0x6BCD: case 0x7236: case 0x53CC:
  /* the currencies named before an amount: 美 港 新 台 日 欧 英 澳 加 卢 韩 */
  case 0x7F8E: case 0x6E2F: case 0x65B0: case 0x53F0: case 0x65E5: case 0x6B27: case 0x82F1: case 0x6FB3:
  case 0x52A0: case 0x5362: case 0x97E9:
    return 1;
  default:
    return 0;
  }
}

static int numex_starts(uint32_t c) {
  return numex_adigit(c) >= 0 || numex_cdigit(c) >= 0 || numex_cmult(c) == 10.0 || c == NUMEX_JI;
}

int fc_numex_selfcheck(void) {
  static const char *const *const lists[] = {numex_relative, numex_dayparts, numex_dayparts1, numex_holidays,
                                             numex_currencies, NULL};
  static const char *const more[] = {"第", "百分之", "千分之", "万分之", "数", "零下", "$", "US$", "HK$", "¥", "￥",
                                     "€", "£", "＄", "￡", "公元", "上", "下", "本", "这", "星期", "礼拜", "周", "零上",
                                     "负", "−", NULL};
  int i, j;
  uint32_t cp;
  for (i = 0; lists[i]; i++)
    for (j = 0; lists[i][j]; j++) {
      fc_utf8_decode((const uint8_t *)lists[i][j], strlen(lists[i][j]), &cp);
      if (!numex_kw_start(cp)) return 0;
    }
  for (j = 0; more[j]; j++) {
    fc_utf8_decode((const uint8_t *)more[j], strlen(more[j]), &cp);
    if (!numex_kw_start(cp)) return 0;
  }
  for (j = 0; numex_eras[j].name; j++) {
    fc_utf8_decode((const uint8_t *)numex_eras[j].name, strlen(numex_eras[j].name), &cp);
    if (!numex_era_start(cp) || strlen(numex_eras[j].name) != 6) return 0; /* two characters: p + 6 */
  }
  for (j = 0; numex_skip_words[j]; j++) {
    fc_utf8_decode((const uint8_t *)numex_skip_words[j], strlen(numex_skip_words[j]), &cp);
    if (!numex_starts(cp)) return 0;
  }
  for (j = 0; numex_num_holidays[j]; j++) {
    fc_utf8_decode((const uint8_t *)numex_num_holidays[j], strlen(numex_num_holidays[j]), &cp);
    if (!numex_starts(cp)) return 0;
  }
  return 1;
}

fenci_rc fc_numex_scan(const char *text, size_t len, fc_numex_fn fn, void *ctx) {
  return fc_numex_scan_words(text, len, NULL, NULL, fn, ctx);
}

int fc_numex_numeral_char(uint32_t cp) {
  double m;
  if (numex_adigit(cp) >= 0) return FC_NUMERAL_ARABIC;
  if (numex_cdigit(cp) >= 0) return FC_NUMERAL_CHINESE;
  m = numex_cmult(cp);
  return m >= 10 && m <= 1000 ? FC_NUMERAL_SMALL_MULT : 0;
}

size_t fc_numex_daypart_before(const uint8_t *t, size_t n, size_t p) {
  size_t i;
  if (p < 3 || p > n || t[p - 1] < 0x80) return 0; /* every daypart ends in a Han character */
  for (i = 0; numex_dayparts[i]; i++) {
    size_t k = strlen(numex_dayparts[i]);
    if (p >= k && p <= n && !memcmp(t + p - k, numex_dayparts[i], k)) return k;
  }
  for (i = 0; numex_dayparts1[i]; i++)
    if (p >= 3 && p <= n && !memcmp(t + p - 3, numex_dayparts1[i], 3)) return 3;
  return 0;
}

int fc_numex_year_near(int y, int yy, int after) {
  int c = y - y % 100 + yy;
  if (after) {
    if (c <= y) c += 100;
    return c - y <= 50 && c <= 9999 ? c : -1;
  }
  if (c >= y) c -= 100;
  return c > 0 && y - c <= 50 ? c : -1;
}

size_t fc_numex_range_mark(const uint8_t *t, size_t n, size_t p) {
  numex_in in;
  memset(&in, 0, sizeof in);
  in.t = t;
  in.n = n;
  return p < n ? numex_lits(&in, p, numex_range_marks, NULL) : 0;
}

fenci_rc fc_numex_scan_words(const char *text, size_t len, fc_numex_gap_fn gap, void *gctx, fc_numex_fn fn,
                             void *ctx) {
  fc_numjoin r;
  fenci_rc rc;
  if (!fn || (!text && len)) return FENCI_BADARG;
  fc_numjoin_init(&r, text, len, fn, ctx);
  rc = fc_numex_scan_parts(text, len, gap, gctx, fc_numjoin_take, &r);
  if (rc == FENCI_OK && fc_numjoin_end(&r)) rc = FENCI_STOPPED;
  return rc;
}

fenci_rc fc_numex_scan_parts(const char *text, size_t len, fc_numex_gap_fn gap, void *gctx, fc_numex_fn fn,
                             void *ctx) {
  numex_in in;
  size_t p = 0, range = (size_t)-1; /* range: where a clock time ended */
  int range_dp = 0, range_h = -1; /* the start's daypart and hour */
  if (!fn || (!text && len)) return FENCI_BADARG;
  in.t = (const uint8_t *)text;
  in.n = len;
  in.gap = gap;
  in.gctx = gctx;
  while (p < len) {
    fc_numex x;
    size_t l, e = 0, skip = 0, k;
    uint32_t c;
    int starts;
    if (p == range && (k = numex_lits(&in, p, numex_range_marks, NULL))) {
      /* the end of a range of clock times takes the start's daypart:
       * 下午3点到5点 is 15:00 to 17:00, 上午9点到12点 ends at noon */
      numex_tm t;
      numex_tm_init(&t);
      if (!numex_lits(&in, p + k, numex_skip_words, NULL) && /* 下午3点到一点儿 */
          (e = numex_clock(&in, p + k, range_dp == NUMEX_DP_AM ? 0 : range_dp, 1, &t))) {
        /* 上午11点到1点: a morning that runs past noon */
        if (range_dp == NUMEX_DP_AM && t.h >= 0 && t.h < 12 && t.h <= range_h) t.h += 12;
        memset(&x, 0, sizeof x);
        x.s = p + k;
        x.e = e;
        numex_time_out(&t, &x);
        if (fn(ctx, &x)) return FENCI_STOPPED;
        p = e;
        continue;
      }
    }
    c = numex_at(&in, p, &l);
    starts = numex_starts(c);
    if (starts && numex_adigit(c) >= 0 && numex_bare_point(&in, p)) {
      /* .5: not read as 5 (.5∶1 is no ratio of 5): its digits are passed,
       * with the parts that a mark joins to them (∶1, /2, .3) */
      for (;;) {
        size_t m;
        uint32_t mk;
        while (p < len && numex_adigit(numex_at(&in, p, &l)) >= 0) p += l;
        mk = numex_at(&in, p, &m);
        if (p >= len || !(mk == 0x2236 || mk == ':' || mk == '/' || mk == 0xFF0F || mk == '.' || mk == 0xFF0E) ||
            numex_adigit(numex_at(&in, p + m, &l)) < 0)
          break;
        p += m;
      }
      continue;
    }
    if (starts) {
      int i, guarded = 0;
      if (c == NUMEX_ONE)
        for (i = 0; numex_one_words[i] && !guarded; i++) guarded = numex_before(&in, p, numex_one_words[i]);
      if (guarded) { /* 统一, 唯一, 万一 */
        p += l;
        continue;
      }
      if ((k = numex_lits(&in, p, numex_skip_words, NULL))) {
        p += k;
        continue;
      }
      if ((k = numex_lits(&in, p, numex_num_holidays, &i)) && !numex_holiday_split(&in, p, p + k)) {
        memset(&x, 0, sizeof x);
        x.type = FC_NX_TIME;
        x.s = p;
        x.e = p + k;
        snprintf(x.iso, sizeof x.iso, "%s", numex_num_holiday_iso[i]);
        x.has_value = x.iso[0] != 0;
        if (fn(ctx, &x)) return FENCI_STOPPED;
        p += k;
        continue;
      }
    }
    if (numex_era_start(c)) {
      size_t era_skip = 0;
      memset(&x, 0, sizeof x);
      e = numex_era_year(&in, p, &x, &era_skip);
      if (era_skip) {
        p = era_skip;
        continue;
      }
    }
    if (e <= p && (numex_kw_start(c) || ((c == '-' || c == 0xFF0D) && numex_minus_temp(&in, p, c == '-' ? 1 : 3)))) {
      /* x is cleared only where a form may start: most characters start
       * none, and most hyphens no minus sign */
      memset(&x, 0, sizeof x);
      e = numex_keyword(&in, p, &x, &skip);
    }
    if (e <= p && starts) {
      memset(&x, 0, sizeof x);
      e = numex_numeric(&in, p, 0, &x, &skip);
    }
    if (e > p && starts && in.gap && numex_adigit(c) < 0) {
      /* a Chinese numeral that begins an idiom: 四分五裂, 一笔不苟 (skipped
       * whole; no idiom begins with an Arabic number) */
      fc_numex_word w;
      if (numex_held(&in, e, NUMEX_GAP_IDIOM, &w) && w.start <= p && w.set_phrase) {
        p = e;
        continue;
      }
      /* a bare numeral at the end of a longer word: 路易十六, 原因之一,
       * 七老八十 (with a unit it stays: 近两年来, 以下几点) */
      if (x.type == FC_NX_NUMBER && x.us == x.ue && numex_held(&in, p, NUMEX_GAP_INSIDE, &w) && w.start < p &&
          w.end >= e) {
        p = e;
        continue;
      }
    }
    /* a model's number with a decimal part or a word of models after it
     * (Python 3.11, iPhone 15系列) is no amount either (Model 3辆 is) */
    if (e > p && ((x.type == FC_NX_NUMBER && x.us == x.ue && !x.ordinal && numex_code(&in, p, e)) ||
                  ((x.type == FC_NX_NUMBER || x.type == FC_NX_QUANTITY) && numex_model_number(&in, p) &&
                   !x.ordinal && numex_model_word(&in, x.us, x.ue)))) {
      p = e; /* a code: nothing, and nothing from inside it */
      continue;
    }
    if (e > p) {
      x.e = e;
      if (fn(ctx, &x)) return FENCI_STOPPED;
      p = e;
      if (x.type == FC_NX_TIME && x.clock) {
        const char *hh = strchr(x.iso, 'T');
        range = e;
        range_dp = x.clock - 1;
        range_h = hh ? (hh[1] - '0') * 10 + (hh[2] - '0') : -1;
      }
    } else {
      p = skip > p ? skip : p + l;
    }
  }
  return FENCI_OK;
}
