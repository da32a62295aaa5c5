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

void fc_lattice_free(fc_lattice *l, const fenci_alloc *a) {
  fc_free(a, l->best);
  fc_free(a, l->next);
  fc_free(a, l->nf);
  memset(l, 0, sizeof *l);
}

static float fc_unit_cost(const fc_unit *u, const fenci_model *m) {
  switch (u->kind) {
  case FENCI_KIND_SPACE:
  case FENCI_KIND_PUNCT:
  case FENCI_KIND_INVALID:
    return 0.0f;
  default:
    return m->oov_cost;
  }
}

fenci_rc fc_lattice_best(fc_lattice *l, const fc_scan *s, const fenci_model *m, int forced, uint32_t *ends,
                         int32_t *edge, size_t *nt, const fenci_alloc *a) {
  size_t n = s->n, i, k;
  *nt = 0;
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
  l->best[n] = 0;
  if (!forced) {
    /* no forced words (the usual case): a tighter loop without the checks */
    const fc_edge *e = s->e;
    for (i = n; i-- > 0;) {
      double best = (double)fc_unit_cost(&s->u[i], m) + l->best[i + 1];
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
    best = (double)fc_unit_cost(u, m) + l->best[i + 1];
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
    ends[*nt] = (uint32_t)to;
    edge[*nt] = nx;
    (*nt)++;
    i = to;
  }
  return FENCI_OK;
}
