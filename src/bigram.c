/* bigram.c - the word-bigram table (LEXB) and the resolution of
 * overlapping ambiguities with it (bigram.h). */
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "bigram.h"
#include "fmt.h"
#include "lookup.h"
#include "model.h"
#include "units.h"

fenci_rc fc_bigram_view(fc_bigram *b, const uint8_t *data, size_t size, size_t n_words, char *err, size_t errlen) {
  memset(b, 0, sizeof *b);
  if (size < FC_BIGRAM_HEAD || memcmp(data, FC_BIGRAM_MAGIC, 4)) {
    fc_errf(err, errlen, "LEXB: not a bigram table");
    return FENCI_BADFORMAT;
  }
  if (fc_rd32(data + 4) != FC_BIGRAM_VERSION) {
    fc_errf(err, errlen, "LEXB: bigram table version %u, this library reads %u", (unsigned)fc_rd32(data + 4),
            (unsigned)FC_BIGRAM_VERSION);
    return FENCI_BADFORMAT;
  }
  b->n_slots = fc_rd32(data + 8);
  b->max_probe = fc_rd32(data + 12);
  if (b->n_slots < 1 || b->max_probe >= b->n_slots || b->max_probe > FC_BIGRAM_MAX_PROBE ||
      (size - FC_BIGRAM_HEAD) / 8 < b->n_slots ||
      fc_rd32(data + 16) != n_words) {
    fc_errf(err, errlen, "LEXB: bigram table header is inconsistent (or built for another lexicon)");
    memset(b, 0, sizeof *b);
    return FENCI_BADFORMAT;
  }
  b->slots = data + FC_BIGRAM_HEAD;
  return FENCI_OK;
}

static inline uint32_t fc_bigram_home(const fc_bigram *b, uint64_t k) {
  return (uint32_t)(((k >> 32) * b->n_slots) >> 32);
}

/* Starts loading the slot where the probe for key k begins. */
static inline void fc_bigram_prefetch(const fc_bigram *b, uint64_t k) {
  __builtin_prefetch(b->slots + (size_t)fc_bigram_home(b, k) * 8);
}

double fc_bigram_get(const fc_bigram *b, uint64_t k) {
  uint32_t fp = (uint32_t)k ? (uint32_t)k : 1u, s, p;
  if (!b->slots) return -1;
  s = fc_bigram_home(b, k);
  for (p = 0; p <= b->max_probe; p++) {
    uint32_t f = fc_rd32(b->slots + (size_t)s * 8);
    if (f == fp) return fc_rd32(b->slots + (size_t)s * 8 + 4) / FC_BIGRAM_SCALE;
    if (f == 0) return -1;
    if (++s == b->n_slots) s = 0;
  }
  return -1;
}

fenci_rc fc_bigram_build(const fc_bigram_entry *e, size_t n, size_t n_words, fc_buf *out, const fenci_alloc *a) {
  uint32_t n_slots, maxp;
  uint8_t *tab, head[FC_BIGRAM_HEAD];
  fc_bigram b;
  size_t i;
  if (n > 0x7FFFFFFFu / 2 || n_words > 0xFFFFFFFEu) return FENCI_BADARG;
  n_slots = (uint32_t)(n + n / 2 + 1);
again:
  maxp = 0;
  tab = fc_calloc(a, n_slots, 8);
  if (!tab) return FENCI_NOMEM;
  b.slots = tab;
  b.n_slots = n_slots;
  for (i = 0; i < n; i++) {
    uint64_t k = fc_bigram_key(e[i].w1, e[i].w2);
    uint32_t fp = (uint32_t)k ? (uint32_t)k : 1u, s = fc_bigram_home(&b, k), p = 0;
    double c = e[i].cost * FC_BIGRAM_SCALE + 0.5;
    while (fc_rd32(tab + (size_t)s * 8) != 0) {
      if (fc_rd32(tab + (size_t)s * 8) == fp) break; /* a fingerprint twice: the first stays */
      if (++s == n_slots) s = 0;
      p++;
    }
    if (fc_rd32(tab + (size_t)s * 8) == fp) continue;
    fc_wr32(tab + (size_t)s * 8, fp);
    fc_wr32(tab + (size_t)s * 8 + 4, c < 0 ? 0u : c > 4e9 ? 4000000000u : (uint32_t)c);
    if (p > maxp) maxp = p;
  }
  if (maxp > FC_BIGRAM_MAX_PROBE) { /* a readable table bounds every probe: a sparser one */
    fc_free(a, tab);
    if (n_slots > 0x7FFFFFFFu / 2) return FENCI_BADARG;
    n_slots = n_slots * 2 + 1;
    goto again;
  }
  memset(head, 0, sizeof head);
  memcpy(head, FC_BIGRAM_MAGIC, 4);
  fc_wr32(head + 4, FC_BIGRAM_VERSION);
  fc_wr32(head + 8, n_slots);
  fc_wr32(head + 12, maxp);
  fc_wr32(head + 16, (uint32_t)n_words);
  if (fc_buf_put(out, head, sizeof head) || fc_buf_put(out, tab, (size_t)n_slots * 8)) {
    fc_free(a, tab);
    return FENCI_NOMEM;
  }
  fc_free(a, tab);
  return FENCI_OK;
}

/* w1's back-off cost, or -1 when w1 was never counted (or is no word). */
static double fc_bigram_backoff(const fenci_model *m, uint32_t w1) {
  return w1 == FC_BIGRAM_NONE ? -1 : fc_bigram_get(&m->bigram, fc_bigram_key(w1, FC_BIGRAM_NONE));
}

/* -ln P(w2 | w1) given w1's back-off bo: the stored pair, else the back-off
 * plus w2's unigram cost, else the unigram cost alone. */
static double fc_bigram_cost_bo(const fenci_model *m, uint32_t w1, double bo, uint32_t w2) {
  double c2, v;
  /* (w1, NONE) is w1's back-off entry, not a pair: a unit that is no word
   * pays the back-off and its own cost) */
  if (bo >= 0 && w2 != FC_BIGRAM_NONE && (v = fc_bigram_get(&m->bigram, fc_bigram_key(w1, w2))) >= 0) return v;
  c2 = w2 == FC_BIGRAM_NONE ? m->oov_cost : fc_model_cost(m, w2);
  return bo >= 0 ? bo + c2 : c2;
}

static double fc_bigram_cost(const fenci_model *m, uint32_t w1, uint32_t w2) {
  return fc_bigram_cost_bo(m, w1, fc_bigram_backoff(m, w1), w2);
}

/* A Chinese numeral: words of these alone are numbers, whose readings
 * (七十|一件 or 七十一|件) the bigrams do not know. */
static int fc_bigram_numeral(uint32_t cp) {
  static const uint32_t num[] = {0x3007, 0x96F6, 0x4E00, 0x4E8C, 0x4E09, 0x56DB, 0x4E94, 0x516D, 0x4E03,
                                 0x516B, 0x4E5D, 0x5341, 0x767E, 0x5343, 0x4E07, 0x4EBF, 0x4E24, 0x51E0,
                                 0x591A, 0x4F59}; /* and 多, 余: 一亿多, 七百多万 */
  size_t i;
  for (i = 0; i < sizeof num / sizeof num[0]; i++)
    if (cp == num[i]) return 1;
  return 0;
}

/* Whether a word ends after unit i (the token rule of fc_segment_chunk). */
static int fc_bigram_ends(const fc_scan *s, const uint8_t *tags, size_t i) {
  uint8_t f;
  if (i + 1 >= s->n || tags[i] == FC_TAG_E || tags[i] == FC_TAG_S) return 1;
  f = s->u[i + 1].force;
  return f == 1 + FC_TAG_B || f == 1 + FC_TAG_S;
}

/* The lexicon word over units [a, b) (all h3), or FC_BIGRAM_NONE. */
static uint32_t fc_bigram_word(const fc_scan *s, const fenci_model *m, size_t a, size_t b) {
  uint32_t v;
  return fc_scan_word(s, m, a, b, &v) ? v : FC_BIGRAM_NONE;
}

typedef struct fc_bg_cand {
  uint8_t from, to; /* units, relative to the stretch */
  uint32_t w;
  int16_t back;     /* best predecessor, -1 at the stretch's start */
  double best;      /* cost of the best reading up to its end */
  double bo;        /* its back-off cost (fc_bigram_backoff), once it has a reading */
} fc_bg_cand;

#define FC_BG_MAXC (FC_BIGRAM_SPAN * 16)

/* The best reading of units [ra, rb) into lexicon words (or single units)
 * between the words left and right, if one costs less than bound: its
 * cost (HUGE_VAL when none), and the ends of its words set in cut
 * (relative, cut[k]: a word ends after unit ra + k).  Costs are never
 * negative, so a partial reading at bound or above is not extended. */
static double fc_bigram_best(const fc_scan *s, const fenci_model *m, size_t ra, size_t rb, uint32_t left,
                             uint32_t right, double bound, uint8_t *cut) {
  fc_bg_cand c[FC_BG_MAXC];
  size_t nc = 0, k, q, len = rb - ra;
  int best = -1;
  double bc = HUGE_VAL, lbo = fc_bigram_backoff(m, left);
  for (k = 0; k < len; k++) {
    fc_dat_match lm[FC_MAXM];
    size_t nl, j, start = nc, live = 0;
    int single = 0;
    /* the readings that end here and may still win */
    for (q = 0; q < start; q++)
      if (c[q].to == k && c[q].best < bound) {
        live++;
        if (c[q].bo < -1.5) c[q].bo = fc_bigram_backoff(m, c[q].w);
      }
    if (k > 0 && !live) continue;
    nl = fc_scan_lex_at(s, m, ra + k, len - k, lm, 0);
    for (j = 0; j < nl && nc < FC_BG_MAXC; j++) {
      size_t units = lm[j].len / 3;
      if (lm[j].len % 3 || units == 0 || k + units > len) continue;
      c[nc].from = (uint8_t)k;
      c[nc].to = (uint8_t)(k + units);
      c[nc].w = lm[j].value;
      single |= units == 1;
      nc++;
    }
    if (!single && nc < FC_BG_MAXC) {
      c[nc].from = (uint8_t)k;
      c[nc].to = (uint8_t)(k + 1);
      c[nc].w = FC_BIGRAM_NONE;
      nc++;
    }
    /* the candidates from k, scored from those ending at k (all earlier):
     * their pairs' slots are loaded together first */
    for (j = start; j < nc; j++) {
      fc_bigram_prefetch(&m->bigram, fc_bigram_key(c[j].w, FC_BIGRAM_NONE));
      if (k == 0) fc_bigram_prefetch(&m->bigram, fc_bigram_key(left, c[j].w));
      else
        for (q = 0; q < start; q++)
          if (c[q].to == k && c[q].best < bound) fc_bigram_prefetch(&m->bigram, fc_bigram_key(c[q].w, c[j].w));
    }
    for (j = start; j < nc; j++) {
      c[j].best = HUGE_VAL;
      c[j].back = -1;
      c[j].bo = -2; /* not looked up yet */
      if (k == 0) {
        c[j].best = fc_bigram_cost_bo(m, left, lbo, c[j].w);
        continue;
      }
      for (q = 0; q < start; q++) {
        double v;
        if (c[q].to != k || c[q].best >= bound) continue;
        v = c[q].best + fc_bigram_cost_bo(m, c[q].w, c[q].bo, c[j].w);
        if (v < c[j].best) {
          c[j].best = v;
          c[j].back = (int16_t)q;
        }
      }
    }
  }
  for (k = 0; k < nc; k++) {
    double v;
    if (c[k].to != len || c[k].best >= bound) continue;
    v = c[k].best + fc_bigram_cost(m, c[k].w, right);
    if (v < bc) {
      bc = v;
      best = (int)k;
    }
  }
  memset(cut, 0, len);
  for (; best >= 0; best = c[best].back) cut[c[best].to - 1] = 1;
  return bc;
}

/* Whether the lexicon's own best path (fc_unit.lat) reads units [a, b) as
 * the model does, by FC_BIGRAM_SURE nats or more at each boundary inside
 * (fc_unit.mg): then the bigrams are not asked.  They rarely prefer a
 * third reading there, and asking them everywhere a lexicon word crosses a
 * word (one word in twelve) would cost a tenth of the segmentation. */
#define FC_BIGRAM_SURE 3 /* margin step: 4 nats (units.h) */
static int fc_bigram_settled(const fc_scan *s, const uint8_t *tags, size_t a, size_t b) {
  const fc_unit *u = s->u;
  size_t p;
  for (p = a; p < b; p++) {
    if ((u[p].lat == FC_TAG_E || u[p].lat == FC_TAG_S) != fc_bigram_ends(s, tags, p)) return 0;
    if (p > a && u[p].mg % FC_MG_STEPS < FC_BIGRAM_SURE) return 0;
  }
  return 1;
}

/* Rewrites tags[a, b) to the words whose ends cut marks (relative). */
static void fc_bigram_retag(uint8_t *tags, size_t a, size_t b, const uint8_t *cut) {
  size_t p, w = a;
  for (p = a; p < b; p++)
    if (cut[p - a]) {
      size_t q;
      if (p == w) tags[p] = FC_TAG_S;
      else {
        tags[w] = FC_TAG_B;
        for (q = w + 1; q < p; q++) tags[q] = FC_TAG_M;
        tags[p] = FC_TAG_E;
      }
      w = p + 1;
    }
}

/* Whether a word of two units or more of one reading of [0, len) crosses
 * one of the other (the ends of their words marked in c1 and c2). */
/* The crossing words a reading may bring: two characters.  Longer ones
 * (工业园|地, 劳动保障部|门, 国大党|团 against 工业 园地...) are mostly names
 * and compounds the CTB standard splits (chosen on CTB6 dev:
 * docs/ARCHITECTURE.md). */
#define FC_BIGRAM_CROSS_MAX 2
static int fc_bigram_crossing(const uint8_t *c1, const uint8_t *c2, size_t len) {
  size_t a1, b1, a2, b2;
  for (a1 = 0; a1 < len; a1 = b1) {
    for (b1 = a1; !c1[b1]; b1++) {
    }
    b1++;
    if (b1 - a1 < 2) continue;
    for (a2 = 0; a2 < len; a2 = b2) {
      for (b2 = a2; !c2[b2]; b2++) {
      }
      b2++;
      if (b2 - a2 >= 2 && b2 - a2 <= FC_BIGRAM_CROSS_MAX && ((a1 < a2 && a2 < b1 && b1 < b2) || (a2 < a1 && a1 < b2 && b2 < b1))) return 1;
    }
  }
  return 0;
}

/* The bigram cost of the reading of units [ra, rb) whose word ends cut
 * marks (relative), between the words left and right; HUGE_VAL when a
 * word of two units or more is no lexicon word, or when the cost reaches
 * bound (costs are never negative). */
static double fc_bigram_reading(const fc_scan *s, const fenci_model *m, size_t ra, size_t rb, const uint8_t *cut,
                                uint32_t left, uint32_t right, double bound) {
  double c = 0;
  uint32_t prev = left, w;
  size_t p, e;
  for (p = ra; p < rb; p = e) {
    for (e = p; !cut[e - ra]; e++) {
    }
    e++;
    w = fc_bigram_word(s, m, p, e);
    if (w == FC_BIGRAM_NONE && e - p > 1) return HUGE_VAL;
    if ((c += fc_bigram_cost(m, prev, w)) >= bound) return HUGE_VAL;
    prev = w;
  }
  c += fc_bigram_cost(m, prev, right);
  return c < bound ? c : HUGE_VAL;
}

/* The readings that differ from the model's (model_cut) by one lexicon
 * word X crossing a word of it, X's pieces of the model's words cut off as
 * words of their own: the cheapest under bound into cut, and its cost
 * (HUGE_VAL when none).  X runs over the lexicon words that start inside a
 * word of the model and end past it, and the longest one ending inside a
 * word of the model that starts before it. */
static double fc_bigram_alternatives(const fc_scan *s, const fenci_model *m, size_t ra, size_t rb,
                                     const uint8_t *model_cut, uint32_t left, uint32_t right, double bound,
                                     uint8_t *cut) {
  const fc_unit *u = s->u;
  size_t len = rb - ra, a, b, k, j;
  uint8_t alt[FC_BIGRAM_SPAN];
  double bc = HUGE_VAL;
  for (a = ra; a < rb; a = b) {
    for (b = a; !model_cut[b - ra]; b++) {
    }
    b++; /* the model's word [a, b) */
    for (k = a + 1; k < b; k++) {
      fc_dat_match lm[FC_MAXM];
      size_t nl = u[k].lb >= 2 && k + u[k].lb > b ? fc_scan_lex_at(s, m, k, rb - k, lm, 0) : 0;
      for (j = 0; j < nl; j++) {
        size_t l = k + lm[j].len / 3, q;
        double c;
        if (lm[j].len % 3 || l <= b || l > rb) continue;
        /* X = [k, l): the model's ends inside it go, its own two come */
        memcpy(alt, model_cut, len);
        for (q = k; q + 1 < l; q++) alt[q - ra] = 0;
        alt[k - 1 - ra] = 1;
        alt[l - 1 - ra] = 1;
        if ((c = fc_bigram_reading(s, m, ra, rb, alt, left, right, bound < bc ? bound : bc)) < bc) {
          bc = c;
          memcpy(cut, alt, len);
        }
      }
    }
    /* a word ending inside [a, b) that starts before a */
    for (k = a + 1; k < b; k++) {
      size_t st, q;
      double c;
      if (u[k - 1].le < 2 || k < u[k - 1].le || (st = k - u[k - 1].le) >= a || st < ra) continue;
      memcpy(alt, model_cut, len);
      for (q = st; q + 1 < k; q++) alt[q - ra] = 0;
      if (st > ra) alt[st - 1 - ra] = 1;
      alt[k - 1 - ra] = 1;
      if ((c = fc_bigram_reading(s, m, ra, rb, alt, left, right, bound < bc ? bound : bc)) < bc) {
        bc = c;
        memcpy(cut, alt, len);
      }
    }
  }
  return bc;
}

/* Compares the readings of the model's words over [ra, rb) (all h3 units,
 * ends tested by fc_bigram_ends) and rewrites tags when another reading,
 * crossing one of the model's words, costs FC_BIGRAM_MARGIN nats less.
 * Returns whether it did. */
/* Whether units [p, e) are a word of the user dictionary (edges of a scan
 * that has them: fc_scan_run). */
static int fc_bigram_user_word(const fc_scan *s, size_t p, size_t e) {
  uint32_t k;
  for (k = s->first[p]; k < s->first[p + 1]; k++)
    if (s->e[k].to == e && (s->e[k].user == 1 || s->e[k].user == 2)) return 1;
  return 0;
}

static int fc_bigram_stretch(const fc_scan *s, const fenci_model *m, uint8_t *tags, size_t ra, size_t rb,
                             int user) {
  const fc_unit *u = s->u;
  uint8_t cut[FC_BIGRAM_SPAN], model_cut[FC_BIGRAM_SPAN];
  uint32_t w[FC_BIGRAM_SPAN], left = FC_BIGRAM_NONE, right = FC_BIGRAM_NONE, prev;
  size_t nw = 0, p, e, q;
  double mc, bc;
  for (p = ra; p < rb; p++)
    if (!u[p].h3 || u[p].force || (p > ra && u[p].brk)) return 0;
  /* the model's words: each a lexicon word, none a number */
  for (p = ra; p < rb; p = e) {
    int numeral = 1;
    for (e = p; !fc_bigram_ends(s, tags, e); e++) {
    }
    e++;
    if (u[p].lb < e - p || u[e - 1].le < e - p) return 0; /* no lexicon word: no lookup needed */
    for (q = p; q < e; q++) {
      numeral &= fc_bigram_numeral(u[q].cp);
      model_cut[q - ra] = q + 1 == e;
    }
    if (numeral || (w[nw++] = fc_bigram_word(s, m, p, e)) == FC_BIGRAM_NONE) return 0;
    if (user && fc_bigram_user_word(s, p, e)) return 0; /* the caller's word stays */
  }
  /* the words around: the model's, when lexicon words */
  if (ra > 0) {
    size_t a = ra - 1;
    while (a > 0 && ra - a < FC_BIGRAM_SPAN && !fc_bigram_ends(s, tags, a - 1)) a--;
    if (u[a].h3 && (a == 0 || fc_bigram_ends(s, tags, a - 1))) left = fc_bigram_word(s, m, a, ra);
  }
  if (rb < s->n) {
    for (e = rb; e - rb < FC_BIGRAM_SPAN && !fc_bigram_ends(s, tags, e); e++) {
    }
    if (u[rb].h3 && fc_bigram_ends(s, tags, e)) right = fc_bigram_word(s, m, rb, e + 1);
  }
  for (q = 0, prev = left; q < nw; q++) { /* the slots of the model's pairs, loaded together */
    fc_bigram_prefetch(&m->bigram, fc_bigram_key(prev, FC_BIGRAM_NONE));
    fc_bigram_prefetch(&m->bigram, fc_bigram_key(prev, w[q]));
    prev = w[q];
  }
  fc_bigram_prefetch(&m->bigram, fc_bigram_key(prev, right));
  for (q = 0, mc = 0, prev = left; q < nw; q++) {
    mc += fc_bigram_cost(m, prev, w[q]);
    prev = w[q];
  }
  mc += fc_bigram_cost(m, prev, right);
  /* the readings one crossing word away first (cheap); only when one of
   * them wins, the best reading of all, which must cross too (so that a
   * reading merely joining or splitting the model's words never lets a
   * crossing one in) */
  if (fc_bigram_alternatives(s, m, ra, rb, model_cut, left, right, mc - FC_BIGRAM_MARGIN + 1e-9, cut) == HUGE_VAL)
    return 0;
  bc = fc_bigram_best(s, m, ra, rb, left, right, mc - FC_BIGRAM_MARGIN, cut);
  if (!(bc + FC_BIGRAM_MARGIN <= mc) || !memcmp(cut, model_cut, rb - ra) ||
      !fc_bigram_crossing(model_cut, cut, rb - ra))
    return 0;
  fc_bigram_retag(tags, ra, rb, cut);
  return 1;
}

/* fc_bigram_ends over locals (the scan's fields are not reloaded per unit). */
static inline int fc_bigram_ends_at(const fc_unit *u, size_t n, const uint8_t *tags, size_t i) {
  uint8_t t = tags[i], f;
  if (t == FC_TAG_E || t == FC_TAG_S || i + 1 >= n) return 1;
  f = u[i + 1].force;
  return f == 1 + FC_TAG_B || f == 1 + FC_TAG_S;
}

void fc_bigram_resolve(const fc_scan *s, const fenci_model *m, int user, uint8_t *tags) {
  const fc_unit *u = s->u;
  const size_t n = s->n;
  /* floor: the end of the last stretch rewritten (nothing before it is
   * looked at again); [seen_a, seen_b): the last one compared */
  size_t i = 0, j, floor = 0, seen_a = 0, seen_b = 0;
  if (!m->bigram.slots) return;
  for (; i < n; i = j) {
    size_t k, lo, hi, ra, rb;
    for (j = i; !fc_bigram_ends_at(u, n, tags, j); j++) {
    }
    j++; /* the model's word is [i, j) */
    /* (a lexicon word is never longer than the longest from its start) */
    if (j - i < 2 || !u[i].h3 || u[i].lb < j - i) continue;
    /* a lexicon word that crosses this word's end or its start */
    lo = i;
    hi = j;
    for (k = i + 1; k < j; k++) {
      if (u[k].lb >= 2 && k + u[k].lb > hi) hi = k + u[k].lb;
      if (u[k - 1].le >= 2 && k >= u[k - 1].le && k - u[k - 1].le < lo) lo = k - u[k - 1].le;
    }
    if ((lo == i && hi == j) || fc_bigram_settled(s, tags, lo, hi)) continue;
    /* the stretch: the model's words that the crossing words touch */
    for (ra = lo; ra > floor && hi - ra <= FC_BIGRAM_SPAN && !fc_bigram_ends(s, tags, ra - 1); ra--) {
    }
    for (rb = hi; rb < n && rb - ra <= FC_BIGRAM_SPAN && !fc_bigram_ends(s, tags, rb - 1); rb++) {
    }
    if (ra < floor || rb - ra > FC_BIGRAM_SPAN || (ra > 0 && !fc_bigram_ends(s, tags, ra - 1)) ||
        !fc_bigram_ends(s, tags, rb - 1) || (ra >= seen_a && rb <= seen_b))
      continue; /* too long, or compared already: the word after a crossing finds it again */
    seen_a = ra;
    seen_b = rb;
    if (fc_bigram_stretch(s, m, tags, ra, rb, user)) {
      floor = rb;
      j = rb;
    }
  }
}
