/* units.c - the pre-tokenizer and lexicon scan.
 *
 * Text is cut into units: single characters, whitespace runs, runs of one
 * repeated punctuation mark ("——", "……"), and atoms that are never split:
 * Latin words, numbers, URLs and e-mail addresses.  Then every lexicon and
 * user-dictionary word that starts and ends on unit boundaries is recorded
 * as an edge.  Both segmenters read the result. */
#include <string.h>

#include "alloc.h"
#include "chars.h"
#include "dict.h"
#include "model.h"
#include "units.h"
#include "lookup.h"
#include "t2s.h"

static int fc_cls_at(const uint8_t *s, size_t n, size_t *l, uint32_t *cp) {
  *l = fc_utf8_decode(s, n, cp);
  return fc_char_class(*cp);
}

static int fc_is_alnum_ascii(uint8_t c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Length of a URL at s, or 0.  A URL starts with a scheme or "www." and runs
 * over printable ASCII; trailing sentence punctuation is left out. */
static size_t fc_url_len(const uint8_t *s, size_t n) {
  static const char *const pre[] = {"http://", "https://", "ftp://", "www.", "HTTP://", "HTTPS://", "WWW."};
  size_t i, k, e = 0;
  for (k = 0; k < sizeof pre / sizeof pre[0]; k++) {
    size_t pl = strlen(pre[k]);
    if (n > pl && memcmp(s, pre[k], pl) == 0 && fc_is_alnum_ascii(s[pl])) {
      e = pl;
      break;
    }
  }
  if (!e) return 0;
  for (i = e; i < n; i++) {
    uint8_t c = s[i];
    if (c <= 0x20 || c >= 0x7F || c == '"' || c == '<' || c == '>' || c == '\\' || c == '^' || c == '`' ||
        c == '{' || c == '|' || c == '}')
      break;
  }
  while (i > e && (s[i - 1] == '.' || s[i - 1] == ',' || s[i - 1] == ')' || s[i - 1] == ';' || s[i - 1] == ':' ||
                   s[i - 1] == '!' || s[i - 1] == '?' || s[i - 1] == '\''))
    i--;
  return i;
}

/* Length of an e-mail address at s, or 0: local@domain.tld in ASCII.
 * *floor (NULL: not used) is where the next address may start at the
 * earliest: a failed scan from s stopped at the first byte that cannot be
 * in a local part, and every start between s and that byte stops there too
 * and fails the same way, so it is not scanned again.  Without this, a long
 * run of local-part bytes without '@' ("a+a+a+...", "1..1..") is scanned
 * again from each of its positions: quadratic. */
static size_t fc_email_len(const uint8_t *s, size_t n, const uint8_t **floor) {
  size_t i = 0, at, dot = 0;
  if (floor && s < *floor) return 0;
  while (i < n && (fc_is_alnum_ascii(s[i]) || s[i] == '.' || s[i] == '_' || s[i] == '%' || s[i] == '+' || s[i] == '-'))
    i++;
  if (i == 0 || i >= n || s[i] != '@' || !fc_is_alnum_ascii(s[0])) {
    /* a bad first byte fails only this start */
    if (floor) *floor = s + (i > 0 && fc_is_alnum_ascii(s[0]) ? i : 1);
    return 0;
  }
  at = i++;
  while (i < n && (fc_is_alnum_ascii(s[i]) || s[i] == '-' || (s[i] == '.' && i + 1 < n && fc_is_alnum_ascii(s[i + 1])))) {
    if (s[i] == '.') dot = i;
    i++;
  }
  if (!dot || dot <= at + 1 || i - dot < 3) {
    /* every later start before the '@' reaches the same domain */
    if (floor) *floor = s + at;
    return 0;
  }
  return i;
}

size_t fc_unit_len_from(const uint8_t *s, size_t n, uint8_t *kind, uint8_t *clsp, uint32_t *cpp,
                        const uint8_t **mail_floor) {
  uint32_t cp, cp2;
  size_t l, l2, i;
  int cls = fc_cls_at(s, n, &l, &cp), c2;
  *clsp = (uint8_t)cls;
  *cpp = cp;
  switch (cls) {
  case FC_C_HAN:
    *kind = FENCI_KIND_WORD;
    return l;
  case FC_C_INVALID:
    *kind = FENCI_KIND_INVALID;
    return 1;
  case FC_C_SPACE:
    i = l;
    while (i < n && fc_cls_at(s + i, n - i, &l2, &cp2) == FC_C_SPACE) i += l2;
    *kind = FENCI_KIND_SPACE;
    return i;
  case FC_C_DIGIT:
  case FC_C_FWDIGIT:
    /* digits, with '.' or ',' (or full-width ．) between digits, then % */
    i = l;
    for (;;) {
      if (i >= n) break;
      c2 = fc_cls_at(s + i, n - i, &l2, &cp2);
      if (c2 == FC_C_DIGIT || c2 == FC_C_FWDIGIT) {
        i += l2;
        continue;
      }
      if (cp2 == '.' || cp2 == ',' || cp2 == 0xFF0E || cp2 == ':' ) {
        uint32_t cp3;
        size_t l3;
        int c3;
        if (i + l2 >= n) break;
        c3 = fc_cls_at(s + i + l2, n - i - l2, &l3, &cp3);
        if (c3 == FC_C_DIGIT || c3 == FC_C_FWDIGIT) {
          i += l2 + l3;
          continue;
        }
      }
      if (cp2 == '%' || cp2 == 0xFF05) i += l2;
      break;
    }
    if (cls == FC_C_DIGIT && i < n && (s[i] == '@' || s[i] == '.')) {
      size_t e = fc_email_len(s, n, mail_floor);
      if (e > i) {
        *kind = FENCI_KIND_EMAIL;
        return e;
      }
    }
    *kind = FENCI_KIND_NUMBER;
    return i;
  case FC_C_LATIN:
    if (cp < 0x80) {
      size_t e = fc_url_len(s, n);
      if (e) {
        *kind = FENCI_KIND_URL;
        return e;
      }
      e = fc_email_len(s, n, mail_floor);
      if (e) {
        *kind = FENCI_KIND_EMAIL;
        return e;
      }
    }
    /* letters and digits; inner - ' _ . joined when a letter or digit follows */
    i = l;
    while (i < n) {
      c2 = fc_cls_at(s + i, n - i, &l2, &cp2);
      if (c2 == FC_C_LATIN || c2 == FC_C_DIGIT) {
        i += l2;
        continue;
      }
      if ((cp2 == '-' || cp2 == '\'' || cp2 == '_' || cp2 == '.') && i + 1 < n && fc_is_alnum_ascii(s[i + 1])) {
        i += 1;
        continue;
      }
      break;
    }
    *kind = FENCI_KIND_LATIN;
    return i;
  case FC_C_KANA:
  case FC_C_HANGUL:
    i = l;
    while (i < n && fc_cls_at(s + i, n - i, &l2, &cp2) == cls) i += l2;
    *kind = FENCI_KIND_WORD;
    return i;
  case FC_C_PUNCT:
  case FC_C_CJKPUNCT:
    if (cp >= 0x80 && cp <= 0x9F) { /* a C1 control character: never joined (the break rule) */
      *kind = FENCI_KIND_OTHER;
      return l;
    }
    /* a run of the same mark is one unit: —— …… !!! */
    i = l;
    while (i + l <= n && memcmp(s + i, s, l) == 0) i += l;
    *kind = FENCI_KIND_PUNCT;
    return i;
  default:
    *kind = FENCI_KIND_OTHER;
    return l;
  }
}

size_t fc_unit_len(const uint8_t *s, size_t n, uint8_t *kind, uint8_t *cls, uint32_t *cp) {
  return fc_unit_len_from(s, n, kind, cls, cp, NULL);
}

void fc_scan_free(fc_scan *s, const fenci_alloc *a) {
  fc_free(a, s->best);
  fc_free(a, s->nb);
  fc_free(a, s->ns);
  fc_free(a, s->u);
  fc_free(a, s->e);
  fc_free(a, s->first);
  fc_free(a, s->pu);
  memset(s, 0, sizeof *s);
}

static inline int fc_edge_add(fc_scan *s, const fenci_alloc *a, uint32_t from, uint32_t to, float cost, uint16_t tag,
                              uint8_t user) {
  fc_edge *e;
  /* a user word replaces a lexicon word over the same span */
  if (s->ne && s->e[s->ne - 1].from == from && s->e[s->ne - 1].to == to) {
    if (user) {
      e = &s->e[s->ne - 1];
      e->cost = cost;
      e->user = user;
      if (tag) e->tag = tag;
    }
    return 0;
  }
  if (s->ne == s->ecap && fc_grow(a, (void **)&s->e, &s->ecap, s->ne + 1, sizeof *s->e)) return -1;
  e = &s->e[s->ne++];
  e->from = from;
  e->to = to;
  e->cost = cost;
  e->tag = tag;
  e->user = user;
  e->pad = 0;
  return 0;
}


/* Merges the matches of the lexicon and the user trie at unit i, in order
 * of increasing end, into the edge list. */
static int fc_scan_matches(fc_scan *s, const fenci_model *m, const fenci_dict *d, size_t i, const fenci_alloc *a) {
  fc_dat_match lm[FC_MAXM], um[FC_MAXM];
  size_t nl, nu = 0, p = 0, q = 0, start = s->ns[i];
  size_t rest = s->nbn - start;
  if (rest > 255) rest = 255;
  nl = fc_scan_lex_at(s, m, i, s->u[i].run, lm, 0);
  if (d && d->n_final) {
    nu = fc_dat_prefix(&d->trie, s->nb + start, rest, um, FC_MAXM);
    if (nu > FC_MAXM) nu = FC_MAXM;
  }
  while (p < nl || q < nu) {
    int take_user = q < nu && (p >= nl || um[q].len <= lm[p].len);
    fc_dat_match mt = take_user ? um[q++] : lm[p++];
    uint32_t j = fc_scan_unit_ending(s, i, start + mt.len);
    if (j == (uint32_t)-1) continue;
    /* inside a run of Han units there is no break */
    if (j > i && j + 1 - i > s->u[i].run && fc_scan_crosses_break(s->u, i, j + 1)) continue;
    if (take_user) {
      const fc_uword *w;
      if (mt.value >= d->n_final) continue;
      w = &d->final[mt.value];
      if (fc_edge_add(s, a, (uint32_t)i, j + 1, w->cost, w->tag, (uint8_t)(w->forced ? 2 : 1))) return -1;
    } else {
      if (mt.value >= m->n_words) continue;
      if (fc_edge_add(s, a, (uint32_t)i, j + 1, fc_model_cost(m, mt.value), fc_model_tag(m, mt.value), 0)) return -1;
    }
  }
  return 0;
}

/* Adds the unknown-word candidates at unit i that are no lexicon or user
 * word over the same span (those edges, from s->first[i] on, come in
 * increasing order of their end). */
static int fc_scan_unknown(fc_scan *s, const fenci_model *m, size_t i, const fenci_alloc *a) {
  fc_unk c[FC_UNK_MAX];
  size_t nc = fc_scan_unk_at(s, m, i, c), k, first = s->first[i], last = s->ne;
  for (k = 0; k < nc; k++) {
    while (first < last && s->e[first].to < c[k].to) first++;
    if (first < last && s->e[first].to == c[k].to) continue;
    if (fc_edge_add(s, a, (uint32_t)i, c[k].to, c[k].cost, 0, FC_EDGE_UNK)) return -1;
  }
  return 0;
}

fenci_rc fc_scan_units(fc_scan *s, const uint8_t *text, size_t len, int feats,
                       const fenci_alloc *a) {
  size_t pos = 0;
  const uint8_t *mail_floor = text;
  /* the previous unit, for the break rule (fc_unit.brk) */
  int prev_hard = 0;     /* it was an invalid byte or a control character */
  uint32_t prev_mark = 0; /* its first code point when it was punctuation, else 0 */
  s->n = 0;
  s->ne = 0;
  s->nbn = 0;
  s->npu = 0;
  /* Reserve for the worst case once (a unit per byte; a normalised
   * character is at most 4 bytes for at least 1), so the loop below never
   * reallocates. */
  if (fc_grow(a, (void **)&s->u, &s->cap, len + 1, sizeof *s->u) ||
      fc_grow(a, (void **)&s->pu, &s->pucap, len + 1, sizeof *s->pu) ||
      fc_grow(a, (void **)&s->ns, &s->nscap, len + 2, sizeof *s->ns) ||
      fc_grow(a, (void **)&s->nb, &s->nbcap, 4 * len + 4, 1))
    return FENCI_NOMEM;
  while (pos < len) {
    fc_unit *u;
    uint8_t kind, cls;
    uint32_t cp, ncp;
    size_t l;
    const uint8_t *t;
    /* The common case in a tight loop: a run of characters of the unified
     * block U+4E00..U+9FFF (three bytes, lead byte E4..E9).  Each is one Han
     * unit whose normalised form (traditional -> simplified) is again in
     * the block, so it is h3. */
    size_t run0 = s->n;
    while (len - pos >= 3) {
      const uint8_t *h = text + pos;
      uint8_t *o = s->nb + s->nbn;
      if (h[0] < 0xE4 || h[0] > 0xE9 || (h[1] & 0xC0) != 0x80 || (h[2] & 0xC0) != 0x80) break;
      cp = ((uint32_t)(h[0] & 0x0F) << 12) | ((uint32_t)(h[1] & 0x3F) << 6) | (h[2] & 0x3Fu);
      if (cp < 0x4E00) break;
      ncp = fc_t2s_bmp_char(cp);
      if (ncp < FC_UNK_LO || ncp > FC_UNK_HI) break; /* not h3: the general path */
      u = &s->u[s->n];
      s->ns[s->n++] = (uint32_t)s->nbn;
      u->start = (uint32_t)pos;
      u->end = (uint32_t)pos + 3;
      u->cp = ncp;
      u->cls = FC_C_HAN;
      u->kind = FENCI_KIND_WORD;
      u->lb = u->le = u->lm = u->force = u->run = u->brk = u->lat = u->mg = u->pc = 0;
      u->h3 = 1;
      o[0] = (uint8_t)(0xE0 | (ncp >> 12));
      o[1] = (uint8_t)(0x80 | ((ncp >> 6) & 0x3F));
      o[2] = (uint8_t)(0x80 | (ncp & 0x3F));
      s->nbn += 3;
      pos += 3;
    }
    if (s->n > run0) { /* the break rule, at the first unit of the run only */
      s->u[run0].brk = (uint8_t)(run0 > 0 && prev_hard);
      prev_hard = 0;
      prev_mark = 0;
    }
    if (pos >= len) break;
    u = &s->u[s->n];
    t = text + pos;
    s->ns[s->n] = (uint32_t)s->nbn;
    if (t[0] >= 0xE4 && t[0] <= 0xE9 && len - pos >= 3 && (t[1] & 0xC0) == 0x80 && (t[2] & 0xC0) == 0x80) {
      /* a character of the main CJK block (U+4000..U+9FFF) */
      cp = ((uint32_t)(t[0] & 0x0F) << 12) | ((uint32_t)(t[1] & 0x3F) << 6) | (t[2] & 0x3Fu);
      l = 3;
      kind = FENCI_KIND_WORD;
      cls = (uint8_t)(cp >= 0x4E00 ? FC_C_HAN : fc_char_class(cp));
    } else {
      /* The trained model sees each punctuation mark on its own: standards
       * differ on runs (PKU keeps "——" whole, MSR splits "---"), and the
       * model learns its corpus's choice.  Chosen on dev: MSR dev F1 +0.3.
       * The run is not measured then: measuring it from each of its marks
       * would be quadratic in its length. */
      if (feats) {
        l = fc_utf8_decode(t, len - pos, &cp);
        cls = (uint8_t)fc_char_class(cp);
      }
      if (feats && (cls == FC_C_PUNCT || cls == FC_C_CJKPUNCT) && !(cp >= 0x80 && cp <= 0x9F)) kind = FENCI_KIND_PUNCT;
      else l = fc_unit_len_from(t, len - pos, &kind, &cls, &cp, &mail_floor);
    }
    memset(u, 0, sizeof *u);
    u->start = (uint32_t)pos;
    u->end = (uint32_t)(pos + l);
    u->cls = cls;
    u->kind = kind;
    if (kind == FENCI_KIND_PUNCT) s->pu[s->npu++] = (uint32_t)s->n;
    /* Normalised bytes of the unit for lexicon lookups: a one-character
     * unit is mapped (traditional -> simplified, full-width -> ASCII), so
     * traditional text finds the lexicon's simplified words; other units are
     * copied.  Offsets in the text are never affected. */
    ncp = cp;
    if (l == 3 && kind == FENCI_KIND_WORD) {
      /* a 3-byte Han character: full-width forms are not Han, so only the
       * traditional -> simplified part of fc_char_norm applies */
      ncp = cls == FC_C_HAN ? fc_t2s_bmp_char(cp) : fc_char_norm(cp);
      if (ncp == cp) {
        s->nb[s->nbn] = t[0];
        s->nb[s->nbn + 1] = t[1];
        s->nb[s->nbn + 2] = t[2];
        s->nbn += 3;
      } else {
        s->nbn += fc_utf8_encode(ncp, s->nb + s->nbn);
      }
    } else {
      int single = cp != FC_BADCP && l <= 4 && fc_utf8_decode(t, len - pos, &ncp) == l;
      ncp = single ? fc_char_norm(cp) : cp;
      if (single && ncp != cp && ncp >= 0x21) {
        s->nbn += fc_utf8_encode(ncp, s->nb + s->nbn);
      } else {
        memcpy(s->nb + s->nbn, t, l);
        s->nbn += l;
      }
      if (!single) ncp = 0;
    }
    /* code points for the features (feats) or the unknown-word model */
    if (feats) u->cp = (kind == FENCI_KIND_WORD || kind == FENCI_KIND_PUNCT || kind == FENCI_KIND_OTHER) ? ncp : 0;
    else if (cls == FC_C_HAN) u->cp = ncp;
    u->h3 = cls == FC_C_HAN && ncp >= FC_UNK_LO && ncp <= FC_UNK_HI;
    {
      /* the break rule: what no token may join (see fc_unit.brk) */
      int hard = kind == FENCI_KIND_INVALID || kind == FENCI_KIND_SPACE || kind == FENCI_KIND_URL ||
                 kind == FENCI_KIND_EMAIL || cp < 0x20 ||
                 (cp >= 0x7F && cp <= 0x9F);
      uint32_t mark = kind == FENCI_KIND_PUNCT ? cp : 0;
      u->brk = (uint8_t)(s->n > 0 && (hard || prev_hard || (mark && prev_mark && mark != prev_mark)));
      prev_hard = hard;
      /* a number may end in a percent sign, which is a mark too */
      if (kind == FENCI_KIND_NUMBER) mark = t[l - 1] == '%' ? '%' : (l >= 3 && memcmp(t + l - 3, "\xef\xbc\x85", 3) == 0) ? 0xFF05 : 0;
      prev_mark = mark;
    }
    s->n++;
    pos += l;
  }
  s->ns[s->n] = (uint32_t)s->nbn;
  return FENCI_OK;
}

_Static_assert(sizeof(fc_unit) <= 24, "fc_unit grew past 24 bytes");

/* ------------------------------------------------------ lattice features */

#define FC_LAT_HUGE 1e300 /* the cost of what no path reaches */

/* The magnitude step of a margin d >= 0 (nats): below 1, 2, 4, 8, 16, and
 * above (no alternative at all included). */
static inline uint8_t fc_lat_step(double d) {
  return (uint8_t)(d < 4 ? (d < 1 ? 0 : d < 2 ? 1 : 2) : d < 8 ? 3 : d < 16 ? 4 : 5);
}

/* The left-to-right pass after a right-to-left one, which left in lat the
 * length in units of the word the best path takes at each unit (0: the
 * unit alone) and in mg the step of its margin: follows the path, writes
 * the tags and passes each path word's margin to its boundaries (units.h). */
static void fc_lat_follow(fc_unit *u, size_t n) {
  size_t i = 0, next, k;
  uint8_t step = n ? u[0].mg : 0; /* the margin step of the word at i */
  int start = 1;                  /* unit i starts a stretch */
  while (i < n) {
    size_t len = u[i].lat ? u[i].lat : 1;
    int space = u[i].kind == FENCI_KIND_SPACE;
    if (len > n - i) len = n - i;
    next = i + len;
    if (start || space) u[i].mg = FC_MG_INF;
    if (len == 1) {
      u[i].lat = FC_TAG_S;
    } else {
      u[i].lat = FC_TAG_B;
      for (k = i + 1; k + 1 < next; k++) u[k].lat = FC_TAG_M;
      u[next - 1].lat = FC_TAG_E;
      for (k = i + 1; k < next; k++) u[k].mg = step; /* joined */
    }
    if (next < n) {
      uint8_t nstep = u[next].mg;
      u[next].mg = (uint8_t)(FC_MG_STEPS + step); /* cut */
      step = nstep;
    }
    start = space;
    i = next;
  }
}

#if defined(__GNUC__)
#define FC_UNITS_INLINE static inline __attribute__((always_inline))
#else
#define FC_UNITS_INLINE static inline
#endif

#define FC_LEX_AHEAD 8 /* units ahead (leftwards) whose lookups are prefetched */

/* fc_scan_lexfeats, compiled once with and once without the lattice. */
FC_UNITS_INLINE void fc_scan_lexfeats_pass(fc_scan *s, const fenci_model *m, const int lat) {
  size_t i, run = 0, k, sp = s->n; /* sp: the first whitespace unit after i (n: none) */
  fc_unit *u = s->u;
  double *best = s->best;
  if (lat) best[s->n] = 0;
  for (i = s->n; i-- > 0;) {
    fc_dat_match lm[FC_MAXM];
    size_t nl;
    double b = 0, b2 = FC_LAT_HUGE; /* the best path from i, and the best one with another first word */
    uint32_t bt = 0;                /* the length of the best word from i, 0: the unit alone */
    run = u[i].h3 ? run + 1 : 0;
    if (i >= FC_LEX_AHEAD && m->first) {
      /* the first-character entry and the pair slot of the unit a few
       * positions on, fetched while this one is looked up */
      const fc_unit *v = &u[i - FC_LEX_AHEAD];
      if (v->h3) {
        __builtin_prefetch(m->first + 2 * (v->cp - FC_UNK_LO));
        if (v[1].h3 && m->pairs.slots)
          __builtin_prefetch(fc_pairs_home_slot(&m->pairs, v->cp, v[1].cp));
      }
    }
    if (u[i].kind == FENCI_KIND_SPACE || u[i].kind == FENCI_KIND_INVALID) {
      if (lat) {
        /* whitespace starts a new lattice: the path before it does not
         * depend on what follows (both cost 0 alone) */
        if (u[i].kind == FENCI_KIND_SPACE) {
          best[i] = 0;
          sp = i;
        } else {
          best[i] = best[i + 1];
        }
        u[i].mg = FC_MG_STEPS - 1; /* the unit alone, no alternative */
      }
      continue;
    }
    if (lat) b = fc_lex_unit_cost(&u[i], m) + best[i + 1];
    nl = fc_scan_lex_at(s, m, i, run, lm, 0);
    for (k = 0; k < nl; k++) {
      uint32_t j = fc_scan_unit_ending(s, i, s->ns[i] + lm[k].len), l, q;
      uint8_t lc;
      if (j == (uint32_t)-1 || lm[k].value >= m->n_words) continue;
      l = j + 1 - (uint32_t)i;
      if (l > 1 && l > run && fc_scan_crosses_break(u, i, j + 1)) continue;
      lc = (uint8_t)(l > FC_LEX_CAP ? FC_LEX_CAP : l);
      if (lc > u[i].lb) u[i].lb = lc;
      if (lc > u[j].le) u[j].le = lc;
      for (q = (uint32_t)i + 1; q < j; q++)
        if (lc > u[q].lm) u[q].lm = lc;
      if (lat && j < sp) {
        /* as fc_lattice_scan: shortest first, ties to the longer word but
         * never from the unit alone */
        double c = (double)fc_model_cost(m, lm[k].value) + best[j + 1];
        if (c < b || (c == b && bt && l > bt)) {
          b2 = b;
          b = c;
          bt = l;
        } else if (c < b2) {
          b2 = c;
        }
      }
    }
    if (lat) {
      best[i] = b;
      u[i].lat = (uint8_t)bt;
      u[i].mg = fc_lat_step(b2 - b);
    }
  }
  if (lat) fc_lat_follow(u, s->n);
}

fenci_rc fc_scan_lexfeats(fc_scan *s, const fenci_model *m, int lat, const fenci_alloc *a) {
  if (!lat) {
    fc_scan_lexfeats_pass(s, m, 0);
    return FENCI_OK;
  }
  if (fc_grow(a, (void **)&s->best, &s->bcap, s->n + 1, sizeof *s->best)) return FENCI_NOMEM;
  fc_scan_lexfeats_pass(s, m, 1);
  return FENCI_OK;
}

/* Tags and margins over the edges of fc_scan_run, as fc_lattice_best finds
 * its path (forced words cut the lattice), per stretch between whitespace. */
static fenci_rc fc_scan_lat_edges(fc_scan *s, const fenci_model *m, const fenci_alloc *a) {
  size_t n = s->n, i;
  uint32_t sp = (uint32_t)n, nfz = (uint32_t)n; /* the first whitespace / forced unit after i */
  double *best;
  if (fc_grow(a, (void **)&s->best, &s->bcap, n + 1, sizeof *s->best)) return FENCI_NOMEM;
  best = s->best;
  best[n] = 0;
  for (i = n; i-- > 0;) {
    fc_unit *u = &s->u[i];
    double b, b2 = FC_LAT_HUGE;
    uint32_t bt = 0, q;
    u->mg = FC_MG_STEPS - 1; /* no alternative */
    if (u->kind == FENCI_KIND_SPACE) {
      best[i] = 0;
      u->lat = 0;
      sp = (uint32_t)i;
      continue;
    }
    if (u->force == 1 + FC_TAG_M || u->force == 1 + FC_TAG_E) {
      best[i] = 0; /* unreachable: no path enters a forced span */
      u->lat = 0;
      nfz = (uint32_t)i;
      continue;
    }
    if (u->force == 1 + FC_TAG_B || u->force == 1 + FC_TAG_S) {
      /* the forced word: the edge from i ending where the force span ends */
      size_t e = i + 1;
      while (e < n && s->u[e].force == 1 + FC_TAG_M) e++;
      if (u->force == 1 + FC_TAG_B) e++;
      if (e > n) e = n;
      b = FC_LAT_HUGE;
      for (q = s->first[i]; q < s->first[i + 1]; q++)
        if (s->e[q].to == e && s->e[q].user == 2) {
          b = best[e];
          bt = (uint32_t)(e - i);
          break;
        }
      best[i] = b;
      u->lat = (uint8_t)bt;
      nfz = (uint32_t)i;
      continue;
    }
    b = fc_lex_unit_cost(u, m) + best[i + 1];
    for (q = s->first[i]; q < s->first[i + 1]; q++) {
      const fc_edge *e = &s->e[q];
      double c;
      if (e->to > sp || e->to > nfz || e->user == FC_EDGE_UNK) continue; /* crosses whitespace or a forced word */
      c = (double)e->cost + best[e->to];
      if (c < b || (c == b && bt && e->to - (uint32_t)i > bt)) {
        b2 = b;
        b = c;
        bt = e->to - (uint32_t)i;
      } else if (c < b2) {
        b2 = c;
      }
    }
    best[i] = b;
    u->lat = (uint8_t)bt;
    u->mg = fc_lat_step(b2 - b);
  }
  fc_lat_follow(s->u, n);
  return FENCI_OK;
}

fenci_rc fc_scan_run(fc_scan *s, const fenci_model *m, const fenci_dict *d, const uint8_t *text, size_t len,
                     int feats, const fenci_alloc *a) {
  size_t i;
  const float *lp = NULL; /* the unknown-word model (lexicon mode) */
  fenci_rc rc = fc_scan_units(s, text, len, feats, a);
  if (rc != FENCI_OK) return rc;
  if (!feats && (lp = fc_model_unk_table(m, &rc)) == NULL && rc != FENCI_OK) return rc;
  if (fc_grow(a, (void **)&s->first, &s->fcap, s->n + 1, sizeof *s->first)) return FENCI_NOMEM;
  /* lengths of the runs of h3 units, for fc_scan_lex_at */
  for (i = s->n; i-- > 0;) {
    fc_unit *u = &s->u[i];
    u->run = !u->h3 ? 0 : i + 1 < s->n && s->u[i + 1].run < 255 ? (uint8_t)(s->u[i + 1].run + 1) : 1;
  }
  for (i = 0; i < s->n; i++) {
    s->first[i] = (uint32_t)s->ne;
    if (s->u[i].kind == FENCI_KIND_SPACE || s->u[i].kind == FENCI_KIND_INVALID) continue;
    if (fc_scan_matches(s, m, d, i, a)) return FENCI_NOMEM;
    if (lp && s->u[i].cls == FC_C_HAN && fc_scan_unknown(s, m, i, a)) return FENCI_NOMEM;
  }
  s->first[s->n] = (uint32_t)s->ne;
  /* lexicon lengths for the trained model's features */
  for (i = 0; feats && i < s->ne; i++) {
    const fc_edge *e = &s->e[i];
    uint32_t l = e->to - e->from, k;
    uint8_t lc = (uint8_t)(l > FC_LEX_CAP ? FC_LEX_CAP : l);
    if (lc > s->u[e->from].lb) s->u[e->from].lb = lc;
    if (lc > s->u[e->to - 1].le) s->u[e->to - 1].le = lc;
    for (k = e->from + 1; k + 1 < e->to; k++)
      if (lc > s->u[k].lm) s->u[k].lm = lc;
  }
  /* forced user words: leftmost, then longest, never overlapping */
  if (d) {
    uint32_t until = 0;
    for (i = 0; i < s->n; i++) {
      uint32_t k, best = 0;
      if (i < until) continue;
      for (k = s->first[i]; k < s->first[i + 1]; k++)
        if (s->e[k].user == 2 && s->e[k].to > best) best = s->e[k].to;
      if (!best) continue;
      if (best == i + 1) s->u[i].force = 1 + FC_TAG_S;
      else {
        s->u[i].force = 1 + FC_TAG_B;
        for (k = (uint32_t)i + 1; k + 1 < best; k++) s->u[k].force = 1 + FC_TAG_M;
        s->u[best - 1].force = 1 + FC_TAG_E;
      }
      until = best;
    }
  }
  if (feats && fc_scan_lat_edges(s, m, a)) return FENCI_NOMEM;
  return FENCI_OK;
}

fenci_rc fc_units_build(const fenci_model *m, const fenci_dict *d, const uint8_t *text, size_t len, fc_unit **units,
                        size_t *n, size_t *cap, const fenci_alloc *a) {
  fc_scan s;
  fenci_rc rc;
  memset(&s, 0, sizeof s);
  rc = fc_scan_run(&s, m, d, text, len, 1, a);
  if (rc == FENCI_OK) {
    if (fc_grow(a, (void **)units, cap, *n + s.n, sizeof **units)) rc = FENCI_NOMEM;
    else {
      if (s.n) memcpy(*units + *n, s.u, s.n * sizeof *s.u);
      *n += s.n;
    }
  }
  fc_scan_free(&s, a);
  return rc;
}
