/* lookup.h - what the lattice asks at each unit: the lexicon words and the
 * unknown-word candidates that start there.
 *
 * Inline because both run once per character in the lexicon pass, where a
 * call's saved registers cost as much as a typical answer. */
#ifndef FC_LOOKUP_H
#define FC_LOOKUP_H

#include "model.h"
#include "units.h"

/* Lexicon words starting at t (normalised UTF-8, rest bytes from t on, at
 * most 255) whose first run characters are of the main block
 * (FC_UNK_LO..FC_UNK_HI, 3 bytes each; cp0 and cp1 the first two, cp1
 * read only when run >= 2): the first from the cached table, the second
 * with one probe of the pair index, the others three bytes at a time; a
 * word that goes on past the run (into Latin letters, say) is followed
 * byte by byte.  Up to FC_MAXM matches, shortest first, len in bytes from
 * t.  fe: cp0's first-character entry (model.h, fc_model_first).
 * Returns the count. */
_Static_assert(FC_UNK_LO == FC_LEXNEXT_LO && FC_UNK_HI == FC_LEXNEXT_HI,
               "the filter's main block is the run's (lexnext.h)");

static inline size_t fc_lex_prefix_run(const fenci_model *m, const uint32_t fe[2], uint32_t cp0, uint32_t cp1,
                                       const uint8_t *t, size_t run, size_t rest, fc_dat_match *lm) {
  size_t nl, k, done;
  uint32_t node, n2, w2;
  node = fe[0];
  if (node == FC_NO_NODE) return 0;
  nl = 0;
  if (fe[1] != FC_NO_NODE) {
    lm[0].len = 3;
    lm[0].value = fe[1];
    nl = 1;
  }
  done = 1;
  if (run >= 2 && m->pairs.slots) {
    if (!fc_pairs_find(&m->pairs, cp0, cp1, &n2, &w2)) return nl;
    if (w2 != FC_PAIR_NONE) {
      lm[nl].len = 6;
      lm[nl].value = w2;
      nl++;
    }
    if (n2 == FC_PAIR_NONE) return nl;
    node = n2;
    done = 2;
  }
  if (3 * done >= rest) return nl;
  if (run > done) {
    size_t c = run - done;
    if (3 * (done + c) > rest) c = rest / 3 - done;
    k = fc_dat_prefix3(&m->trie, &node, t + 3 * done, c, done >= 2 ? &m->next : NULL, lm + nl, FC_MAXM - nl);
    if (k > FC_MAXM - nl) k = FC_MAXM - nl;
    for (; k > 0; k--, nl++) lm[nl].len += (uint32_t)(3 * done);
    if (node == FC_DAT_NO_NODE) return nl;
    done += c;
    if (3 * done >= rest) return nl;
  }
  if (m->next.blocks) {
    /* past the run: a character the filter covers (any, two characters
     * in; outside the main block, one in) that no word takes next ends it */
    uint32_t cp;
    if (fc_lexnext_char(t + 3 * done, rest - 3 * done, &cp) &&
        (done >= 2 || cp < FC_LEXNEXT_LO || cp > FC_LEXNEXT_HI) && !fc_lexnext_may(&m->next, node, cp))
      return nl;
  }
  k = fc_dat_prefix_from(&m->trie, node, t + 3 * done, rest - 3 * done, lm + nl, FC_MAXM - nl);
  if (k > FC_MAXM - nl) k = FC_MAXM - nl;
  for (; k > 0; k--, nl++) lm[nl].len += (uint32_t)(3 * done);
  return nl;
}

/* The cost of a unit standing alone on the lexicon lattice: nothing for
 * whitespace, punctuation and invalid bytes, an unknown character's cost
 * for the rest (fc_lattice_best, the lattice features of units.c and
 * wordgap.c all count it so). */
static inline double fc_lex_unit_cost(const fc_unit *u, const fenci_model *m) {
  float c = u->kind == FENCI_KIND_SPACE || u->kind == FENCI_KIND_PUNCT || u->kind == FENCI_KIND_INVALID ? 0.0f
                                                                                                     : m->oov_cost;
  return (double)c;
}

/* The main-block character (FC_UNK_LO..FC_UNK_HI) whose UTF-8 starts s
 * (3 bytes readable), or 0. */
static inline uint32_t fc_lex_h3(const uint8_t *s) {
  uint32_t cp;
  if ((s[0] & 0xF0) != 0xE0 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80) return 0;
  cp = (uint32_t)(s[0] & 0x0F) << 12 | (uint32_t)(s[1] & 0x3F) << 6 | (s[2] & 0x3Fu);
  return cp >= FC_UNK_LO && cp <= FC_UNK_HI ? cp : 0;
}

/* The lexicon word spelt exactly s (normalised UTF-8, len bytes): 1 and
 * its index in *value, or 0.  Words of main-block characters take the
 * cached first and pair steps, as in the lattice. */
static inline int fc_lex_find(const fenci_model *m, const uint8_t *s, size_t len, uint32_t *value) {
  uint32_t v, c0 = len >= 3 && m->first ? fc_lex_h3(s) : 0, c1, n2;
  if (c0) {
    uint32_t fe[2];
    fc_model_first(m, c0, fe);
    if (len == 3) v = fe[1];
    else if (fe[0] == FC_NO_NODE) return 0;
    else if (len >= 6 && m->pairs.slots && (c1 = fc_lex_h3(s + 3)) != 0) {
      if (!fc_pairs_find(&m->pairs, c0, c1, &n2, &v)) return 0;
      if (len > 6 && (n2 == FC_PAIR_NONE || !fc_dat_find_from(&m->trie, n2, s + 6, len - 6, &v))) return 0;
    } else if (!fc_dat_find_from(&m->trie, fe[0], s + 3, len - 3, &v)) {
      return 0;
    }
  } else if (!fc_dat_find(&m->trie, s, len, &v)) {
    return 0;
  }
  if (v == FC_NO_NODE || v >= m->n_words) return 0;
  *value = v;
  return 1;
}

/* Lexicon words (not user words) starting at unit i of a scan filled by
 * fc_scan_units: up to FC_MAXM matches, shortest first; len counts
 * normalised bytes from unit i (see fc_scan_unit_ending).  run: the number
 * of h3 units from i on (at least 1 when unit i is h3, 0 when it is not;
 * a smaller count than the true one is also correct, only slower).
 * all: fc_model_first_all has returned 0 (a constant at each call: the
 * entry is then read without a check).  Returns the count. */
static inline size_t fc_scan_lex_at(const fc_scan *s, const fenci_model *m, size_t i, size_t run, fc_dat_match *lm,
                                    const int all) {
  size_t nl, start = s->ns[i];
  const uint8_t *t = s->nb + start;
  size_t rest = s->nbn - start;
  if (rest > 255) rest = 255;
  if (run && m->first) {
    uint32_t e[2];
    const uint32_t *fe = m->first + 2 * (s->u[i].cp - FC_UNK_LO);
    if (!all) {
      fc_model_first(m, s->u[i].cp, e);
      fe = e;
    }
    return fc_lex_prefix_run(m, fe, s->u[i].cp, run >= 2 ? s->u[i + 1].cp : 0, t, run, rest, lm);
  }
  nl = fc_dat_prefix(&m->trie, t, rest, lm, FC_MAXM);
  return nl > FC_MAXM ? FC_MAXM : nl;
}

/* Unknown-word candidates (lexicon mode): spans of 2..FC_UNK_MAX Han units
 * that are no lexicon word, scored by how likely each character is to begin,
 * continue and end a word.  The base cost and limits were chosen on the
 * PKU dev slice (1998-01-28..31), see docs/ARCHITECTURE.md.
 * Writes the candidates starting at unit i to out (at most FC_UNK_MAX - 1,
 * in increasing order of their end), whether or not the lexicon has the
 * same span; returns the count.  The table is fc_model_unk_table's: a
 * caller asks for it (and has it) before. */
static inline size_t fc_scan_unk_at(const fc_scan *s, const fenci_model *m, size_t i, fc_unk *out) {
  const float *lp = m->unk_lp;
  const float cap = (float)m->unk_cap;
  const fc_unit *u = s->u;
  size_t k, end, n = 0;
  float c;
  if (!lp || !u[i].h3 || u[i].force) return 0;
  c = (float)m->unk_base - lp[(u[i].cp - FC_UNK_LO) * 4 + FC_TAG_B];
  /* no candidate can stay under the cap: the usual case, decided at once */
  if (c + m->unk_min_e > cap) return 0;
  end = i + FC_UNK_MAX < s->n ? i + FC_UNK_MAX : s->n;
  for (k = i + 1; k < end; k++) {
    const float *p;
    float e;
    if (!u[k].h3 || u[k].force) break;
    p = lp + (u[k].cp - FC_UNK_LO) * 4;
    e = c - p[FC_TAG_E];
    if (e < cap) {
      out[n].to = (uint32_t)k + 1;
      out[n].cost = e;
      n++;
    }
    c -= p[FC_TAG_M];
    if (c + m->unk_min_e > cap) break;
  }
  return n;
}

/* The lexicon word over exactly units [from, to) of a scan filled by
 * fc_scan_units: 1 and its index in *value, or 0. */
static inline int fc_scan_word(const fc_scan *s, const fenci_model *m, size_t from, size_t to, uint32_t *value) {
  size_t a = s->ns[from], b = s->ns[to];
  uint32_t v;
  if (s->u[from].h3 && m->first) {
    uint32_t fe[2], n2;
    fc_model_first(m, s->u[from].cp, fe);
    if (to == from + 1) v = fe[1];
    else if (fe[0] == FC_NO_NODE) return 0;
    else if (s->u[from + 1].h3 && m->pairs.slots) {
      /* the pair index, then the trie for the rest */
      if (!fc_pairs_find(&m->pairs, s->u[from].cp, s->u[from + 1].cp, &n2, &v)) return 0;
      if (to > from + 2 && (n2 == FC_PAIR_NONE || !fc_dat_find_from(&m->trie, n2, s->nb + a + 6, b - a - 6, &v)))
        return 0;
    } else if (!fc_dat_find_from(&m->trie, fe[0], s->nb + a + 3, b - a - 3, &v)) {
      return 0;
    }
  } else if (!fc_dat_find(&m->trie, s->nb + a, b - a, &v)) {
    return 0;
  }
  if (v == FC_NO_NODE || v >= m->n_words) return 0;
  *value = v;
  return 1;
}

#endif
