/* lattice.c - best path through the word lattice (lexicon mode).
 *
 * Edges are lexicon and user words over units; every unit can also stand
 * alone at the cost of an unknown character.  The path minimising the sum
 * of -ln P(word) is found right to left, as every edge leaving unit i is
 * known when i is visited.  Forced user words cut the lattice: inside a
 * forced span only the forced word itself is allowed. */
#include <string.h>

#include "alloc.h"
#include "lattice.h"
#include "model.h"
#include "lookup.h"

void fc_lattice_free(fc_lattice *l, const fenci_alloc *a) {
  fc_free(a, l->best);
  fc_free(a, l->next);
  fc_free(a, l->nf);
  memset(l, 0, sizeof *l);
}

static fenci_rc fc_lattice_reserve(fc_lattice *l, size_t n, const fenci_alloc *a) {
  if (n + 1 > l->cap) {
    size_t nc = n + 1 + (n + 1) / 2;
    double *b = fc_realloc(a, l->best, nc * sizeof *b);
    int32_t *nx;
    uint32_t *nf;
    if (!b) return FENCI_NOMEM;
    l->best = b;
    nx = fc_realloc(a, l->next, nc * sizeof *nx);
    if (!nx) return FENCI_NOMEM;
    l->next = nx;
    nf = fc_realloc(a, l->nf, nc * sizeof *nf);
    if (!nf) return FENCI_NOMEM;
    l->nf = nf;
    l->cap = nc;
  }
  return FENCI_OK;
}

fenci_rc fc_lattice_best(fc_lattice *l, const fc_scan *s, const fenci_model *m, int forced, fc_tok *tok, size_t *nt,
                         const fenci_alloc *a) {
  size_t n = s->n, i, k;
  *nt = 0;
  if (fc_lattice_reserve(l, n, a) != FENCI_OK) return FENCI_NOMEM;
  l->best[n] = 0;
  if (!forced) {
    /* no forced words (the usual case): a tighter loop without the checks */
    const fc_edge *e = s->e;
    for (i = n; i-- > 0;) {
      double best = fc_lex_unit_cost(&s->u[i], m) + l->best[i + 1];
      int32_t nx = -1;
      uint32_t q, qe = s->first[i + 1];
      for (q = s->first[i]; q < qe; q++) {
        double c = (double)e[q].cost + l->best[e[q].to];
        if (c < best || (c == best && nx >= 0 && e[q].to > e[nx].to)) {
          best = c;
          nx = (int32_t)q;
        }
      }
      l->best[i] = best;
      l->next[i] = nx;
    }
    i = 0;
    goto path;
  }
  l->nf[0] = 0;
  for (i = 0; i < n; i++) l->nf[i + 1] = l->nf[i] + (s->u[i].force != 0);
  for (i = n; i-- > 0;) {
    const fc_unit *u = &s->u[i];
    double best;
    int32_t nx = -1;
    if (u->force == 1 + FC_TAG_M || u->force == 1 + FC_TAG_E) {
      l->best[i] = 0; /* unreachable: no path enters a forced span */
      l->next[i] = -1;
      continue;
    }
    if (u->force == 1 + FC_TAG_B || u->force == 1 + FC_TAG_S) {
      /* the forced word: the edge from i ending where the force span ends */
      size_t e = i + 1;
      while (e < n && s->u[e].force == 1 + FC_TAG_M) e++;
      if (u->force == 1 + FC_TAG_B) e++; /* include the E unit */
      if (e > n) e = n;
      best = 1e300;
      for (k = s->first[i]; k < s->first[i + 1]; k++)
        if (s->e[k].to == e && s->e[k].user == 2) {
          best = l->best[e];
          nx = (int32_t)k;
          break;
        }
      l->best[i] = best;
      l->next[i] = nx;
      continue;
    }
    best = fc_lex_unit_cost(u, m) + l->best[i + 1];
    for (k = s->first[i]; k < s->first[i + 1]; k++) {
      const fc_edge *e = &s->e[k];
      double c;
      if (l->nf[e->to] != l->nf[e->from]) continue; /* crosses a forced word */
      c = (double)e->cost + l->best[e->to];
      if (c < best || (c == best && nx >= 0 && e->to > s->e[nx].to)) {
        best = c;
        nx = (int32_t)k;
      }
    }
    l->best[i] = best;
    l->next[i] = nx;
  }
path:
  for (i = 0; i < n;) {
    int32_t nx = l->next[i];
    size_t to = nx >= 0 ? s->e[nx].to : i + 1;
    if (to <= i) to = i + 1;
    tok[*nt].end = (uint32_t)to;
    if (nx >= 0) {
      const fc_edge *e = &s->e[nx];
      tok[*nt].tag = e->user == FC_EDGE_UNK ? 0 : e->tag;
      tok[*nt].src = e->user == FC_EDGE_UNK ? FC_SRC_UNK : e->user ? FC_SRC_USER : FC_SRC_LEX;
    } else {
      tok[*nt].tag = 0;
      tok[*nt].src = FC_SRC_NONE;
    }
    tok[*nt].pad = 0;
    (*nt)++;
    i = to;
  }
  return FENCI_OK;
}

#define FC_VAL_UNK 0xFFFFFFFFu /* nf[i] in fc_lattice_scan: an unknown-word candidate */

fenci_rc fc_lattice_scan(fc_lattice *l, const fc_scan *s, const fenci_model *m, int tags, fc_tok *tok, size_t *nt,
                         const fenci_alloc *a) {
  size_t n = s->n, i;
  double *best;
  int32_t *to;
  uint32_t *val;
  size_t run = 0; /* h3 units from i on */
  fenci_rc rc;
  *nt = 0;
  if (!fc_model_unk_table(m, &rc) && rc != FENCI_OK) return rc; /* the unknown-word model, made once */
  /* once this lattice has scanned enough text, its loop reads them unchecked */
  int all = fc_model_first_for(m, l->seen += n);
  if (all < 0) return FENCI_NOMEM;
  if (fc_lattice_reserve(l, n, a) != FENCI_OK) return FENCI_NOMEM;
  best = l->best;
  to = l->next;
  val = l->nf;
  best[n] = 0;
  for (i = n; i-- > 0;) {
    const fc_unit *u = &s->u[i];
    fc_dat_match lm[FC_MAXM];
    uint32_t ends[FC_MAXM];
    size_t nl, k, ne = 0;
    double b = fc_lex_unit_cost(u, m) + best[i + 1];
    int32_t bt = -1;
    uint32_t bv = 0;
    run = u->h3 ? run + 1 : 0;
    if (u->kind == FENCI_KIND_SPACE || u->kind == FENCI_KIND_INVALID) {
      best[i] = b;
      to[i] = -1;
      continue;
    }
    /* lexicon words from i, shortest first; ties go to the longer word but
     * never from the single unit (as in fc_lattice_best) */
    nl = all ? fc_scan_lex_at(s, m, i, run, lm, 1) : fc_scan_lex_at(s, m, i, run, lm, 0);
    for (k = 0; k < nl; k++) {
      uint32_t j = fc_scan_unit_ending(s, i, s->ns[i] + lm[k].len);
      double c;
      if (j == (uint32_t)-1 || lm[k].value >= m->n_words) continue;
      j++;
      if (j > i + 1 && j - i > run && fc_scan_crosses_break(s->u, i, j)) continue;
      ends[ne++] = j;
      c = (double)fc_model_cost(m, lm[k].value) + best[j];
      if (c < b || (c == b && bt >= 0 && (int32_t)j > bt)) {
        b = c;
        bt = (int32_t)j;
        bv = lm[k].value;
      }
    }
    if (u->h3) {
      fc_unk uc[FC_UNK_MAX];
      size_t nu = fc_scan_unk_at(s, m, i, uc), q = 0;
      for (k = 0; k < nu; k++) {
        double c;
        while (q < ne && ends[q] < uc[k].to) q++;
        if (q < ne && ends[q] == uc[k].to) continue; /* the lexicon has this span */
        c = (double)uc[k].cost + best[uc[k].to];
        if (c < b || (c == b && bt >= 0 && (int32_t)uc[k].to > bt)) {
          b = c;
          bt = (int32_t)uc[k].to;
          bv = FC_VAL_UNK;
        }
      }
    }
    best[i] = b;
    to[i] = bt;
    val[i] = bv;
  }
  for (i = 0; i < n;) {
    size_t e = to[i] >= 0 ? (size_t)to[i] : i + 1;
    fc_tok *t = &tok[*nt];
    if (e <= i) e = i + 1;
    t->end = (uint32_t)e;
    t->pad = 0;
    if (to[i] < 0) {
      t->tag = 0;
      t->src = FC_SRC_NONE;
    } else if (val[i] == FC_VAL_UNK) {
      t->tag = 0;
      t->src = FC_SRC_UNK;
    } else {
      t->tag = tags ? fc_model_tag(m, val[i]) : 0;
      t->src = FC_SRC_LEX;
    }
    (*nt)++;
    i = e;
  }
  return FENCI_OK;
}
