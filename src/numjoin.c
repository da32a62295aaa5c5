/* numjoin.c - expressions that the scanner (numex.c) reports apart but
 * that are one: ranges (3-5人, 1998年至2000年, ３至５年, 100元到200元,
 * 周一至周五: from a start to an end), and a relative year or month with
 * the date after it (今年1月, 上个月5日).
 *
 * It sits between the scanner and the caller, holding back one
 * expression.  A range joins two expressions when nothing but a range
 * mark (到 至 ～ ~ - － — –) stands between them and
 *   - the start is of the end's kind (type, unit text, duration, weekday),
 *     or a bare number that reads as one with the end's tail: 3-5人 is 3人
 *     to 5人, 3-5万元 is 3万元 (or 3元, when only that stays below the end),
 *     1998-2000年 is 1998年; the tail is read again by the scanner itself;
 *   - the range rises (the end above the start): 比分3-1 and 1998-3 stay
 *     apart, as do relative, vague and ordinal expressions.
 * A time's end takes the fields it lacks from the start (3月5日至7日 is
 * --03-05/--03-07) and the value is an ISO 8601 interval; a range of
 * durations is written as SUTime writes one (P3Y/P5Y, not ISO 8601).  A
 * relative day's clock time and the end of its hours are one relative
 * range without a value (明天下午三点到五点).  A relative year or month
 * and a date right after it that lacks that field are one relative time
 * whose value writes the unknown digits as X, as TimeML does (今年1月
 * XXXX-01, 上个月5日 XXXX-XX-05). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chars.h"
#include "numex.h"

/* The reads that a join needs from the text are bounded by these, so a
 * join costs a bounded time whatever the text. */
#define NR_PART_MAX 64 /* bytes of a bare start, or of an end's tail */

void fc_numjoin_init(fc_numjoin *r, const char *text, size_t len, fc_numex_fn fn, void *ctx) {
  memset(r, 0, sizeof *r);
  r->t = (const uint8_t *)text;
  r->n = len;
  r->fn = fn;
  r->ctx = ctx;
}

/* The character at t[p] (t has n bytes) in *cp; its length (1 for a
 * stray byte). */
static size_t nr_char(const uint8_t *t, size_t n, size_t p, uint32_t *cp) { return fc_utf8_decode(t + p, n - p, cp); }

/* 1 when the character at t[p] is a digit of a numeral, in any of the
 * scripts the scanner reads (a decimal point . ． 点 · only between digits). */
static int nr_digit(const uint8_t *t, size_t n, size_t p) {
  uint32_t c, d;
  size_t l = nr_char(t, n, p, &c);
  if (fc_numex_numeral_char(c)) return 1;
  if (c == '.' || c == 0xFF0E || c == 0x70B9 || c == 0xB7) /* . ． 点 · */
    return p + l < n && (nr_char(t, n, p + l, &d), fc_numex_numeral_char(d));
  return 0;
}

/* The end of the numeral that begins the end expression x (its digits,
 * without 万 or 亿), or x->s when it begins with none; *mult: where a
 * 十, 百 or 千 that ends those digits after a digit starts (5千元, 三百人:
 * the start may take it too), else the end. */
static size_t nr_numeral_end(const fc_numjoin *r, const fc_numex *x, size_t *mult) {
  size_t p = x->s, last = x->s;
  uint32_t c = 0;
  while (p < x->e && nr_digit(r->t, x->e, p)) {
    last = p;
    p += nr_char(r->t, x->e, p, &c);
  }
  *mult = last > x->s && fc_numex_numeral_char(c) == FC_NUMERAL_SMALL_MULT ? last : p;
  return p;
}

typedef struct nr_one {
  fc_numex x;
  int n;
} nr_one;

static int nr_collect(void *ctx, const fc_numex *x) {
  nr_one *o = ctx;
  if (o->n++ == 0) o->x = *x;
  return o->n > 1;
}

/* 1 when the two expressions say the same kind of thing: a start of the
 * end's kind (the units compared as written). */
static int nr_same_kind(const uint8_t *ta, const fc_numex *a, const uint8_t *tb, const fc_numex *b) {
  if (a->type != b->type || a->duration != b->duration || a->weekday != b->weekday) return 0;
  if (a->relative || a->approx || a->ordinal || !a->has_value) return 0;
  if (a->ue - a->us != b->ue - b->us) return 0;
  return a->ue == a->us || !memcmp(ta + a->us, tb + b->us, a->ue - a->us);
}

/* The three pieces a, b, c of the text (pointer and length each, at most
 * NR_PART_MAX bytes) read together by the scanner: 1 and *y (spans in
 * buf) when it finds one expression over all of them. */
static int nr_read3(const uint8_t *a, size_t al, const uint8_t *b, size_t bl, const uint8_t *c, size_t cl,
                    uint8_t buf[3 * NR_PART_MAX], fc_numex *y) {
  nr_one o;
  if (al > NR_PART_MAX || bl > NR_PART_MAX || cl > NR_PART_MAX || !(al + bl + cl)) return 0;
  if (al) memcpy(buf, a, al); /* a piece may be NULL when empty */
  if (bl) memcpy(buf + al, b, bl);
  if (cl) memcpy(buf + al + bl, c, cl);
  memset(&o, 0, sizeof o);
  if (fc_numex_scan_parts((const char *)buf, al + bl + cl, NULL, NULL, nr_collect, &o) != FENCI_OK || o.n != 1)
    return 0;
  if (o.x.s != 0 || o.x.e != al + bl + cl) return 0;
  *y = o.x;
  return 1;
}

/* The start read from a bare number s and the text tail[0..tl) of the end
 * (3 and 人 give 3人): 1 and *y when the scanner reads the two as one
 * expression of the end's kind, over all of it. */
static int nr_read(const fc_numjoin *r, const fc_numex *s, const uint8_t *tail, size_t tl, const fc_numex *end,
                   fc_numex *y) {
  uint8_t buf[3 * NR_PART_MAX];
  return tl && nr_read3(r->t + s->s, s->e - s->s, tail, tl, NULL, 0, buf, y) && nr_same_kind(buf, y, r->t, end);
}

/* An ISO 8601 date and time of the forms the scanner writes (YYYY, YYYY-MM,
 * YYYY-MM-DD, --MM, --MM-DD, ---DD, each with an optional Thh:mm[:ss], or
 * Thh:mm[:ss] alone; a relative date's XXXX and XX as digits) as its
 * fields; 0 for any other form (weeks, centuries, years before 1 or after
 * 9999). */
typedef struct nr_date {
  char f[4][12]; /* year, month, day, time of day; "" when absent */
} nr_date;

static int nr_digits(const char *s, size_t k) {
  size_t i;
  for (i = 0; i < k; i++)
    if (s[i] < '0' || s[i] > '9') return 0;
  return 1;
}

/* Reads "-NN" at *s into f: two digits, or XX where x_ok; 1, or 0. */
static int nr_field(const char **s, char *f, int x_ok) {
  const char *p = *s;
  if (*p != '-' || !(nr_digits(p + 1, 2) || (x_ok && !strncmp(p + 1, "XX", 2)))) return 0;
  memcpy(f, p + 1, 2);
  *s = p + 3;
  return 1;
}

static int nr_parse(const char *s, nr_date *d) {
  memset(d, 0, sizeof *d);
  if (!strncmp(s, "---", 3)) {
    s += 2;
    if (!nr_field(&s, d->f[2], 0)) return 0;
  } else if (!strncmp(s, "--", 2)) {
    s += 1;
    if (!nr_field(&s, d->f[1], 0) || (*s == '-' && !nr_field(&s, d->f[2], 0))) return 0;
  } else if (nr_digits(s, 4) || !strncmp(s, "XXXX", 4) || (!strncmp(s, "XX", 2) && nr_digits(s + 2, 2))) {
    memcpy(d->f[0], s, 4);
    s += 4;
    if (s[0] == '-' && (s[1] == 'Q' || s[1] == 'H') && s[2] >= '1' && s[2] <= '4' && !s[3]) {
      memcpy(d->f[1], s + 1, 2); /* a quarter or a half in the month's place: 2023-Q1 */
      return 1;
    }
    if (*s == '-' && (!nr_field(&s, d->f[1], 1) || (*s == '-' && !nr_field(&s, d->f[2], 0)))) return 0;
  } else if (*s != 'T') {
    return 0;
  }
  if (*s == 'T') {
    size_t k = strlen(s + 1);
    if (k != 5 && k != 8) return 0; /* hh:mm or hh:mm:ss */
    memcpy(d->f[3], s + 1, k);
    s += 1 + k;
  }
  return *s == 0;
}

static void nr_format(const nr_date *d, char *out, size_t cap) {
  size_t o = 0;
  if (d->f[0][0]) o += (size_t)snprintf(out + o, cap - o, "%s", d->f[0]);
  else if (d->f[1][0]) o += (size_t)snprintf(out + o, cap - o, "-");
  else if (d->f[2][0]) o += (size_t)snprintf(out + o, cap - o, "--");
  if (o < cap && d->f[1][0]) o += (size_t)snprintf(out + o, cap - o, "-%s", d->f[1]);
  if (o < cap && d->f[2][0]) o += (size_t)snprintf(out + o, cap - o, "-%s", d->f[2]);
  if (o < cap && d->f[3][0]) snprintf(out + o, cap - o, "T%s", d->f[3]);
}

/* The interval from time a to time b in *iso: b takes the fields above its
 * first from a (a month's day after a date, a clock time after a date and
 * time); 1 when both then have the same fields and b comes after a. */
static int nr_interval(const char *a, const char *b, char *iso, size_t cap) {
  nr_date da, db;
  char sa[40], sb[40];
  int i, top = 4, diff = 0;
  if (!nr_parse(a, &da) || !nr_parse(b, &db)) return 0;
  if (!strncmp(db.f[0], "XX", 2) && nr_digits(db.f[0] + 2, 2) && nr_digits(da.f[0], 4) && da.f[0][0] != '0') {
    /* 1998年到03年: the end's century is the one that puts it within the
     * 50 years after the start (2003) */
    int yb = fc_numex_year_near(atoi(da.f[0]), atoi(db.f[0] + 2), 1);
    if (yb < 0) return 0;
    snprintf(db.f[0], sizeof db.f[0], "%04d", yb);
  }
  for (i = 0; i < 4 && top == 4; i++)
    if (db.f[i][0]) top = i;
  for (i = 0; i < top; i++) memcpy(db.f[i], da.f[i], sizeof db.f[i]);
  if ((da.f[1][0] == 'Q' || da.f[1][0] == 'H' || db.f[1][0] == 'Q' || db.f[1][0] == 'H') && da.f[1][0] != db.f[1][0])
    return 0; /* quarters to quarters, halves to halves */
  if (db.f[1][0] >= 'A' && !strcmp(db.f[0], "XXXX") && strcmp(da.f[0], "XXXX"))
    memcpy(db.f[0], da.f[0], sizeof db.f[0]); /* 2023年第一季度至第三季度: the end's year is the start's */
  if (!strcmp(db.f[3], "00:00") || !strcmp(db.f[3], "00:00:00")) {
    /* 晚11时至12时: an end at midnight on the start's day is its 24:00
     * (ISO 8601's end of a day), T23:00/T24:00 */
    for (i = 0; i < 3 && !strcmp(da.f[i], db.f[i]); i++) {
    }
    if (i == 3 && da.f[3][0] && strcmp(da.f[3], db.f[3]) > 0) memcpy(db.f[3], "24", 2);
  }
  for (i = 0; i < 4; i++) {
    if (!da.f[i][0] != !db.f[i][0]) return 0;
    if (!diff) diff = strcmp(db.f[i], da.f[i]);
  }
  if (diff <= 0) return 0;
  nr_format(&da, sa, sizeof sa);
  nr_format(&db, sb, sizeof sb);
  return snprintf(iso, cap, "%s/%s", sa, sb) < (int)cap;
}

/* 1 when an amount s stays below the end b (times are compared later). */
static int nr_rises(const fc_numex *s, const fc_numex *b) {
  return b->type == FC_NX_TIME || s->value < b->value;
}

/* 1 when a sign or a dash ends at p: the number from p is no range's
 * start (-3～5℃ is read as 3, 1-2-3人 as three numbers). */
static int nr_dash_before(const fc_numjoin *r, size_t p) {
  static const char *const dash[] = {"－", "−", "—", "–", "～", NULL};
  size_t i;
  if (p >= 1 && (r->t[p - 1] == '-' || r->t[p - 1] == '~')) return 1;
  for (i = 0; dash[i]; i++)
    if (p >= 3 && !memcmp(r->t + p - 3, dash[i], 3)) return 1;
  return 0;
}

/* Joins start a and end b into *j when they make a rising range; 0 else. */
static int nr_join(const fc_numjoin *r, const fc_numex *a, const fc_numex *b, fc_numex *j) {
  fc_numex s;
  char iso[sizeof j->iso];
  if (nr_dash_before(r, a->s)) return 0;
  if (a->range || b->range) return 0;
  if (a->type == FC_NX_TIME && a->relative && !a->has_value && a->clock && b->type == FC_NX_TIME && !b->relative &&
      b->clock && b->has_value && b->iso[0] == 'T') {
    /* 明天下午三点到五点: a relative day's hours, no value, as its start */
    *j = *a;
    j->e = b->e;
    j->range = 1;
    return 1;
  }
  if (b->relative || b->approx || b->ordinal || !b->has_value) return 0;
  if (b->type == FC_NX_NUMBER && b->us == b->ue) return 0; /* 比分3-1, 400-800-1234 */
  if (nr_same_kind(r->t, a, r->t, b)) {
    s = *a;
  } else if (a->type == FC_NX_TIME && a->relative && a->has_value && b->type == FC_NX_TIME && !a->duration &&
             !b->duration && a->weekday == b->weekday && !a->approx) {
    s = *a; /* 今年1月至3月: XXXX-01/XXXX-03, relative */
  } else {
    /* a bare number: read with the end's tail after its numeral, else with
     * its unit alone (300-5万元 is 300元 to 50000元, not 300万元) */
    size_t mult, ne = nr_numeral_end(r, b, &mult);
    int ok = 0;
    /* an end with a sign before its digits (-8度) is read with its unit */
    if (a->type != FC_NX_NUMBER || a->us != a->ue || a->ordinal || a->approx || !a->has_value ||
        (ne == b->s && !(b->value < 0)))
      return 0;
    /* 下午3-5时: the start would be read without its daypart (3时); a
     * daypart before a temperature (夜间-3到-8度) is its time */
    if (fc_numex_daypart_before(r->t, r->n, a->s) && !fc_numex_temp_unit(r->t + b->us, b->ue - b->us)) return 0;
    /* 3-5千元 is 3千元 to 5千元, 十五至二十人 is 十五人 to 二十人 */
    if (mult < ne) ok = nr_read(r, a, r->t + mult, b->e - mult, b, &s) && nr_rises(&s, b);
    if (!ok) ok = nr_read(r, a, r->t + ne, b->e - ne, b, &s) && nr_rises(&s, b);
    if (!ok && b->ue > b->us && b->us > ne) ok = nr_read(r, a, r->t + b->us, b->ue - b->us, b, &s);
    if (!ok) return 0;
  }
  *j = *b;
  j->s = a->s;
  j->range = 1;
  j->relative = a->relative;
  j->value = s.value;
  j->value_end = b->value;
  if (b->type != FC_NX_TIME || b->duration || b->weekday) {
    /* 零下5到8度: not -5 to 8 (零下 may be meant for both); two signed
     * ends in either order (零下5℃到零下10℃: -5 to -10, as written); a
     * minus sign is the start's alone (-3～5℃: -3 to 5) */
    int both_neg = s.value < 0 && b->value < 0 && s.value != b->value;
    int sign = a->s < r->n && (r->t[a->s] == '-' || (a->s + 3 <= r->n && !memcmp(r->t + a->s, "－", 3)));
    if (!both_neg && (!(s.value < b->value) || (s.value < 0 && b->value >= 0 && !sign))) return 0;
    if (b->type == FC_NX_TIME && snprintf(iso, sizeof iso, "%s/%s", s.iso, b->iso) >= (int)sizeof iso) return 0;
  } else {
    if (!nr_interval(s.iso, b->iso, iso, sizeof iso)) return 0;
    j->value = j->value_end = 0;
  }
  if (b->type == FC_NX_TIME) memcpy(j->iso, iso, sizeof iso);
  return 1;
}

/* The start that the scanner leaves unread before a range mark at m (a
 * single numeral is no number alone: 三至五个): the digits before m, not
 * before lo, into *a; 0 when there are none or they belong to something
 * else (第三, A380). */
static int nr_bare_before(const fc_numjoin *r, size_t lo, size_t m, fc_numex *a) {
  size_t p = m;
  /* Chinese numerals only: Arabic digits that the scanner left are a code
   * or part of a Latin word (0012-15%, A380-500人) */
  for (;;) {
    uint32_t c;
    if (p < lo + 3 || m - p >= NR_PART_MAX || nr_char(r->t, p, p - 3, &c) != 3) break;
    if (fc_numex_numeral_char(c) < FC_NUMERAL_CHINESE) break;
    p -= 3;
  }
  if (p == m || m - p >= NR_PART_MAX) return 0;
  if (p > 0) {
    uint8_t c = r->t[p - 1];
    if ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '.' || c == '_') return 0;
    if (p >= 3 && !memcmp(r->t + p - 3, "第", 3)) return 0;
    /* 一 after a character is too often the end of a word (统一, 唯一,
     * 之一), except after these (今年一至五月, 从一到十) */
    if (m - p == 3 && !memcmp(r->t + p, "一", 3) && p >= 3 && c >= 0x80 && r->t[p - 3] >= 0xE4 &&
        r->t[p - 3] <= 0xE9) {
      static const char *const ok[] = {"年", "从", "自", "由", "在", "于", "约", "近", "每", "共", "有", NULL};
      size_t i;
      for (i = 0; ok[i] && memcmp(r->t + p - 3, ok[i], 3); i++) {
      }
      if (!ok[i]) return 0;
    }
  }
  memset(a, 0, sizeof *a);
  a->type = FC_NX_NUMBER;
  a->s = p;
  a->e = m;
  a->has_value = 1;
  return 1;
}

/* The relative words that name a year, and those that name a month. */
static const char *const nr_rel_year[] = {"今年", "明年", "去年", "前年", "后年", "来年", "次年", "翌年", "上年", NULL};
static const char *const nr_rel_month[] = {"本月", "上月", "下月", "上个月", "下个月", "这个月", NULL};

static int nr_is(const fc_numjoin *r, const fc_numex *a, const char *const *list) {
  size_t i, l = a->e - a->s;
  for (i = 0; list[i]; i++)
    if (strlen(list[i]) == l && !memcmp(r->t + a->s, list[i], l)) return 1;
  return 0;
}

/* A relative year or month a and the date b right after it that lacks
 * that field, into *j (今年1月: XXXX-01); 0 else. */
static int nr_anchor(const fc_numjoin *r, const fc_numex *a, const fc_numex *b, fc_numex *j) {
  const char *f;
  if (a->type != FC_NX_TIME || !a->relative || a->clock || a->duration || a->weekday || a->range) return 0;
  /* a quarter or a half of a year not named (三季度, 上半年: XXXX-Q3,
   * XXXX-H1) keeps its value after a relative year (今年上半年) */
  int part = !strncmp(b->iso, "XXXX-Q", 6) || !strncmp(b->iso, "XXXX-H", 6);
  if (b->type != FC_NX_TIME || (b->relative && !part) || b->duration || b->weekday || b->range || !b->has_value)
    return 0;
  *j = *b;
  j->s = a->s;
  j->relative = 1;
  if (part) return nr_is(r, a, nr_rel_year);
  if (!strncmp(b->iso, "---", 3) && nr_is(r, a, nr_rel_month)) f = "XXXX-XX";
  else if (!strncmp(b->iso, "--", 2) && b->iso[2] != '-' && nr_is(r, a, nr_rel_year)) f = "XXXX";
  else return 0;
  /* "--01" -> "XXXX-01", "---05" -> "XXXX-XX-05" */
  return snprintf(j->iso, sizeof j->iso, "%s%s", f, b->iso + (f[4] ? 2 : 1)) < (int)sizeof j->iso;
}

/* The date that stands before a range of times and names the fields its
 * ends leave out, put into both (2月3-5日: --02-03/--02-05; 1998年1-3月:
 * 1998-01/1998-03; 今年1-3月: XXXX-01/XXXX-03, relative); 1 and j
 * widened to pre, or 0. */
static int nr_prefix(const fc_numjoin *r, const fc_numex *pre, fc_numex *j) {
  nr_date dp, da, db;
  char a[sizeof j->iso], sa[40], sb[40];
  const char *slash = strchr(j->iso, '/');
  int i, top = 4, low = -1;
  if (j->type != FC_NX_TIME || !j->range || j->duration || j->weekday || j->relative || !slash) return 0;
  if (pre->type != FC_NX_TIME || pre->range || pre->duration || pre->weekday || pre->clock) return 0;
  memcpy(a, j->iso, (size_t)(slash - j->iso));
  a[slash - j->iso] = 0;
  if (!nr_parse(a, &da) || !nr_parse(slash + 1, &db)) return 0;
  for (i = 0; i < 4 && top == 4; i++)
    if (da.f[i][0]) top = i;
  memset(&dp, 0, sizeof dp);
  if (pre->relative && !pre->has_value) {
    if (top == 1 && nr_is(r, pre, nr_rel_year)) low = 0;
    else if (top == 2 && nr_is(r, pre, nr_rel_month)) low = 1;
    else return 0;
    memcpy(dp.f[0], "XXXX", 5);
    memcpy(dp.f[1], "XX", 3);
  } else {
    if (!pre->has_value || !nr_parse(pre->iso, &dp)) return 0;
    for (i = 0; i < 4; i++)
      if (dp.f[i][0]) low = i;
  }
  /* pre names the fields right above the range's first, and no other */
  if (low != top - 1) return 0;
  for (i = 0; i < top; i++) {
    memcpy(da.f[i], dp.f[i], sizeof da.f[i]);
    memcpy(db.f[i], dp.f[i], sizeof db.f[i]);
  }
  nr_format(&da, sa, sizeof sa);
  nr_format(&db, sb, sizeof sb);
  if (snprintf(a, sizeof a, "%s/%s", sa, sb) >= (int)sizeof a) return 0;
  memcpy(j->iso, a, sizeof a);
  j->s = pre->s;
  j->relative = pre->relative;
  return 1;
}

/* 1 when x is a bare number (a range's start read alone). */
static int nr_bare(const fc_numex *x) {
  return x->type == FC_NX_NUMBER && x->us == x->ue && !x->ordinal && !x->approx && x->has_value;
}

/* 1 when x may name the fields of a range of times that follows it (a
 * date, a relative year or month), or its daypart (下午, 2月3日下午). */
static int nr_may_prefix(const fc_numjoin *r, const fc_numex *x) {
  if (x->type != FC_NX_TIME || x->range || x->duration || x->weekday || x->clock) return 0;
  if (fc_numex_daypart_before(r->t, r->n, x->e)) return 1;
  return x->has_value || nr_is(r, x, nr_rel_year) || nr_is(r, x, nr_rel_month);
}

/* A range of clock times whose bare start follows a daypart that ends pre
 * (下午3-5时, 2月3日下午3-5时, 晚上8-10点), or, pre NULL, a one-character
 * daypart that is no expression of its own (晚8-10时): both ends are read
 * again with the daypart before them (下午3时, 下午5时), and pre's date
 * names their day; 1 and *j over pre (or the daypart) to b, or 0.  a is
 * the held r->x; without pre the daypart must not begin before r->xlo, the
 * end of what was taken before a: in 早上午9-10点 the scanner has reported
 * 早上, and 上午 is not there to be read again. */
static int nr_daypart_range(const fc_numjoin *r, const fc_numex *pre, const fc_numex *a, const fc_numex *b,
                            fc_numex *j) {
  uint8_t buf[3 * NR_PART_MAX];
  size_t mult, ne, d = fc_numex_daypart_before(r->t, r->n, a->s);
  const uint8_t *dp = r->t + a->s - d;
  fc_numex s, e;
  if (!d || !nr_bare(a) || (b->type != FC_NX_TIME && b->type != FC_NX_QUANTITY)) return 0;
  if (!pre && a->s - d < r->xlo) return 0;
  if ((ne = nr_numeral_end(r, b, &mult)) == b->s) return 0;
  if (!nr_read3(dp, d, r->t + a->s, a->e - a->s, r->t + ne, b->e - ne, buf, &s)) return 0;
  if (!nr_read3(dp, d, r->t + b->s, b->e - b->s, NULL, 0, buf, &e)) return 0;
  if (s.type != FC_NX_TIME || e.type != FC_NX_TIME || !s.clock || !e.clock || !s.has_value || !e.has_value ||
      s.iso[0] != 'T' || e.iso[0] != 'T')
    return 0;
  *j = e;
  j->e = b->e;
  j->us = j->ue = b->e;
  j->range = 1;
  j->value = j->value_end = 0;
  if (!nr_interval(s.iso, e.iso, j->iso, sizeof j->iso)) return 0;
  if (!pre) {
    j->s = a->s - d;
    return 1;
  }
  if (nr_prefix(r, pre, j)) return 1;
  if (pre->relative && !pre->has_value) {
    /* 今天下午3-5点: a relative day's hours, no value (明天下午三点到五点) */
    j->relative = 1;
    j->has_value = 0;
    j->iso[0] = 0;
  } else if (pre->has_value) {
    return 0; /* a date whose fields do not reach the hours */
  }
  j->s = pre->s; /* 下午 alone names no day */
  return 1;
}

/* A date with its day and, after a range mark, a day in Chinese numerals
 * that the scanner leaves alone (七日 is also "seven days"): 十月一日至七日.
 * The end is read with the start's text through its month (十月七日);
 * 1 and *j over both when it ends before limit (the next expression). */
static int nr_day_tail(const fc_numjoin *r, const fc_numex *x, size_t limit, fc_numex *j) {
  uint8_t buf[3 * NR_PART_MAX];
  size_t q, l, me, nd = 0, mk;
  uint32_t c = 0;
  fc_numex y;
  char iso[sizeof j->iso];
  if (x->type != FC_NX_TIME || x->range || x->relative || !x->has_value || x->duration || x->weekday || x->clock ||
      x->approx || x->iso[0] == 'T' || strchr(x->iso, 'T'))
    return 0;
  if (!(mk = fc_numex_range_mark(r->t, r->n, x->e))) return 0;
  for (q = x->e + mk; q < limit && nd < 3; q += l, nd++) {
    l = fc_utf8_decode(r->t + q, r->n - q, &c);
    if (fc_numex_numeral_char(c) != FC_NUMERAL_CHINESE && !(fc_numex_numeral_char(c) == FC_NUMERAL_SMALL_MULT && c == 0x5341))
      break; /* digits and 十 only */
  }
  if (!nd || q + 3 > limit || (memcmp(r->t + q, "日", 3) && memcmp(r->t + q, "号", 3))) return 0;
  for (me = x->e; me >= x->s + 3 && memcmp(r->t + me - 3, "月", 3); me--) {
  }
  if (me < x->s + 3) return 0; /* no month in the start to read the day with */
  if (!nr_read3(r->t + x->s, me - x->s, r->t + x->e + mk, q + 3 - (x->e + mk), NULL, 0, buf, &y)) return 0;
  if (y.type != FC_NX_TIME || !y.has_value || y.relative || y.range || y.duration || y.clock) return 0;
  if (!nr_interval(x->iso, y.iso, iso, sizeof iso)) return 0;
  *j = *x;
  j->e = q + 3;
  j->us = j->ue = j->e;
  j->range = 1;
  memcpy(j->iso, iso, sizeof iso);
  return 1;
}

/* Passes on the expressions held back, oldest first; limit is where the
 * next expression starts (a range's end must lie before it). */
static int nr_flush(fc_numjoin *r, size_t limit) {
  fc_numex j;
  if (r->pheld) {
    r->pheld = 0;
    if (r->fn(r->ctx, &r->pre)) return 1;
  }
  if (r->held) {
    r->held = 0;
    if (nr_day_tail(r, &r->x, limit, &j)) return r->fn(r->ctx, &j);
    if (r->fn(r->ctx, &r->x)) return 1;
  }
  return 0;
}

int fc_numjoin_take(void *ctx, const fc_numex *x) {
  fc_numjoin *r = ctx;
  fc_numex j, a;
  static const size_t mark_len[] = {6, 3, 1}; /* ——, 至, - */
  size_t m = x->s, lo = r->done, i; /* a start lies after what was reported before */
  /* the range mark right before x, if any */
  for (i = 0; i < 3; i++)
    if (m >= lo + mark_len[i] && fc_numex_range_mark(r->t, r->n, m - mark_len[i]) == mark_len[i]) {
      m -= mark_len[i];
      break;
    }
  r->done = x->e;
  if (r->held && !r->pheld && r->x.e == x->s && nr_anchor(r, &r->x, x, &j)) {
    /* held back again: 今年1月至3月 may be a range of its own */
    r->x = j;
    return 0;
  }
  if (m < x->s) {
    if (r->held && r->pheld && r->x.e == m && r->pre.e == r->x.s && nr_daypart_range(r, &r->pre, &r->x, x, &j)) {
      r->held = r->pheld = 0;
      return r->fn(r->ctx, &j);
    }
    if (r->held && r->x.e == m && !(r->pheld && r->pre.e == r->x.s) && nr_daypart_range(r, NULL, &r->x, x, &j)) {
      r->held = 0;
      if (nr_flush(r, x->s)) return 1;
      return r->fn(r->ctx, &j);
    }
    if (r->held && r->x.e == m && nr_join(r, &r->x, x, &j)) {
      r->held = 0; /* a range is never the start of another */
      if (r->pheld && r->pre.e == r->x.s && nr_prefix(r, &r->pre, &j)) r->pheld = 0;
      if (nr_flush(r, x->s)) return 1;
      return r->fn(r->ctx, &j);
    }
    if (nr_bare_before(r, lo, m, &a) && nr_join(r, &a, x, &j)) {
      if (r->held && !r->pheld && r->x.e == a.s && nr_prefix(r, &r->x, &j)) r->held = 0;
      if (nr_flush(r, x->s)) return 1;
      return r->fn(r->ctx, &j);
    }
  }
  if (r->held && !r->pheld && r->x.e == x->s && nr_bare(x) && nr_may_prefix(r, &r->x)) {
    /* 2月3 of 2月3-5日: both held, the date may name the range's month */
    r->pre = r->x;
    r->pheld = 1;
    r->x = *x;
    r->xlo = lo;
    return 0;
  }
  if (nr_flush(r, x->s)) return 1;
  r->x = *x;
  r->xlo = lo;
  r->held = 1;
  return 0;
}

int fc_numjoin_end(fc_numjoin *r) { return nr_flush(r, r->n); }
