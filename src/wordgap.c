/* wordgap.c - the cost of a cut to the lexicon's best path (wordgap.h).
 *
 * A window of text around the position is split into units (as the
 * segmenters do), the lexicon words over them are found (lookup.h), and
 * two passes give the best path's cost to and from every unit: the cost of
 * the best path that cuts before unit b is fwd[b] + bwd[b], the best path's
 * bwd[0]. */
#include "wordgap.h"

#include <string.h>

#include "lookup.h"
#include "model.h"

void fc_gap_free(fc_gap *g, const fenci_alloc *a) {
  fc_scan_free(&g->scan, a);
  g->text = NULL;
}

static int fc_gap_lead(uint8_t b) { return (b & 0xC0) != 0x80; }

/* Moves back (dir < 0) or on from p over at most k characters, stopping at
 * a line end and at the ends of the text. */
static size_t fc_gap_walk(const uint8_t *t, size_t len, size_t p, int dir, size_t k) {
  while (k > 0) {
    if (dir < 0) {
      if (p == 0 || t[p - 1] == '\n') break;
      size_t q = p - 1; /* the character's first byte, at most 4 back (else one byte) */
      while (q > 0 && q + 3 > p && !fc_gap_lead(t[q])) q--;
      p = fc_gap_lead(t[q]) ? q : p - 1;
    } else {
      if (p >= len || t[p] == '\n') break;
      size_t q = p + 1;
      while (q < len && q < p + 4 && !fc_gap_lead(t[q])) q++;
      p = q;
    }
    k--;
  }
  return p;
}

/* Units, words and both passes over text[lo, hi). */
static fenci_rc fc_gap_window(fc_gap *g, const fenci_model *m, const uint8_t *text, size_t lo, size_t hi,
                              const fenci_alloc *a) {
  fc_scan *s = &g->scan;
  size_t n, i, k;
  uint8_t run[FC_GAP_MAXU + 1];
  g->text = NULL;
  if (fc_scan_units(s, text + lo, hi - lo, 1, a) != FENCI_OK) return FENCI_NOMEM;
  n = s->n;
  if (n > FC_GAP_MAXU) return FENCI_OK; /* invalid bytes, a unit each, came in groups of four: no answer */
  run[n] = 0;
  for (i = n; i-- > 0;) run[i] = s->u[i].h3 ? (uint8_t)(run[i + 1] < 255 ? run[i + 1] + 1 : 255) : 0;
  g->ne = 0;
  for (i = 0; i < n; i++) {
    fc_dat_match lm[FC_MAXM];
    size_t nl;
    g->efirst[i] = (uint32_t)g->ne;
    if (s->u[i].kind == FENCI_KIND_SPACE || s->u[i].kind == FENCI_KIND_INVALID) continue;
    nl = fc_scan_lex_at(s, m, i, run[i], lm, 0); /* a window is short: the entries checked (fc_model_first_for) */
    for (k = 0; k < nl && g->ne < FC_GAP_MAXE; k++) {
      uint32_t j = fc_scan_unit_ending(s, i, s->ns[i] + lm[k].len);
      if (j == (uint32_t)-1 || lm[k].value >= m->n_words) continue;
      j++;
      if (j > i + 1 && j - i > run[i] && fc_scan_crosses_break(s->u, i, j)) continue;
      g->eto[g->ne] = j;
      g->eword[g->ne] = lm[k].value;
      g->ecost[g->ne] = fc_model_cost(m, lm[k].value);
      g->ne++;
    }
  }
  g->efirst[n] = (uint32_t)g->ne;
  for (i = 0; i <= n; i++) g->fwd[i] = 1e300;
  g->fwd[0] = 0;
  for (i = 0; i < n; i++) {
    double c = g->fwd[i] + fc_lex_unit_cost(&s->u[i], m);
    if (c < g->fwd[i + 1]) g->fwd[i + 1] = c;
    for (k = g->efirst[i]; k < g->efirst[i + 1]; k++) {
      c = g->fwd[i] + (double)g->ecost[k];
      if (c < g->fwd[g->eto[k]]) g->fwd[g->eto[k]] = c;
    }
  }
  g->bwd[n] = 0;
  g->nxt[n] = (uint32_t)n;
  g->nword[n] = FC_GAP_NOWORD;
  for (i = n; i-- > 0;) {
    double b = fc_lex_unit_cost(&s->u[i], m) + g->bwd[i + 1];
    uint32_t to = (uint32_t)i + 1, wd = FC_GAP_NOWORD;
    for (k = g->efirst[i]; k < g->efirst[i + 1]; k++) {
      double c = (double)g->ecost[k] + g->bwd[g->eto[k]];
      if (c < b || (c == b && g->eto[k] > to)) { /* ties to the longer word, as in the lattice */
        b = c;
        to = g->eto[k];
        wd = g->eword[k];
      }
    }
    g->bwd[i] = b;
    g->nxt[i] = to;
    g->nword[i] = wd;
  }
  g->text = text;
  g->lo = lo;
  g->hi = hi;
  return FENCI_OK;
}

fenci_rc fc_gap_at(fc_gap *g, const fenci_model *m, const uint8_t *text, size_t len, size_t p, fc_gap_word *w,
                   const fenci_alloc *a) {
  const fc_scan *s = &g->scan;
  size_t lo, hi, b, x;
  w->cost = 0;
  w->start = w->end = p;
  w->word = FC_GAP_NOWORD;
  if (!m || p == 0 || p >= len || !fc_gap_lead(text[p])) return FENCI_OK;
  /* the last window serves while p has half the reach on either side in it */
  if (!(g->text == text && p > g->lo && p < g->hi && fc_gap_walk(text, len, p, -1, FC_GAP_REACH / 2) >= g->lo &&
        (fc_gap_walk(text, len, p, 1, FC_GAP_REACH / 2) <= g->hi))) {
    lo = fc_gap_walk(text, len, p, -1, FC_GAP_REACH);
    hi = fc_gap_walk(text, len, p, 1, FC_GAP_REACH);
    if (lo == p || hi == p) return FENCI_OK; /* p starts or ends a line */
    if (fc_gap_window(g, m, text, lo, hi, a) != FENCI_OK) return FENCI_NOMEM;
    if (!g->text) return FENCI_OK;
  }
  lo = g->lo;
  for (b = 0; b < s->n && s->u[b].start < p - lo; b++) {
  }
  if (b >= s->n || s->u[b].start != p - lo) return FENCI_OK; /* inside a unit */
  w->cost = g->fwd[b] + g->bwd[b] - g->bwd[0];
  if (w->cost < 1e-9) {
    w->cost = 0;
    return FENCI_OK;
  }
  /* the best path's word over p */
  for (x = 0; x < s->n && g->nxt[x] <= b; x = g->nxt[x]) {
  }
  if (x < b && g->nxt[x] <= s->n) {
    w->start = lo + s->u[x].start;
    w->end = lo + s->u[g->nxt[x] - 1].end;
    w->word = g->nword[x];
  }
  return FENCI_OK;
}
