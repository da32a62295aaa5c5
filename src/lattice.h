/* lattice.h - the lexicon segmenter: best path through the word lattice. */
#ifndef FC_LATTICE_H
#define FC_LATTICE_H

#include "fenci.h"
#include "units.h"

/* Per-tagger scratch for the lattice. */
typedef struct fc_lattice {
  double *best;      /* best[i]: cost of the best path from unit i to the end */
  int32_t *next;     /* next[i]: edge index taken at i, or -1 for the single unit */
  uint32_t *nf;      /* nf[i]: number of forced units before unit i */
  size_t cap;
} fc_lattice;

/* Finds the cheapest segmentation of the scanned units and writes token ends
 * (forced: some unit may carry a forced user word, see units.h):
 * on return ends[0..*nt) are unit indexes one past each token and edge[k] the
 * edge index of token k (-1: a single unit that is no word).  ends and edge
 * must hold s->n entries.  FENCI_OK or FENCI_NOMEM. */
fenci_rc fc_lattice_best(fc_lattice *l, const fc_scan *s, const fenci_model *m, int forced, uint32_t *ends,
                         int32_t *edge, size_t *nt, const fenci_alloc *a);
void fc_lattice_free(fc_lattice *l, const fenci_alloc *a);

#endif
