/* lattice.h - the lexicon segmenter: best path through the word lattice. */
#ifndef FC_LATTICE_H
#define FC_LATTICE_H

#include "fenci.h"
#include "units.h"

/* Per-tagger scratch for the lattice. */
typedef struct fc_lattice {
  double *best;      /* best[i]: cost of the best path from unit i to the end */
  int32_t *next;     /* next[i]: edge index taken at i, or -1 for the single unit
                      * (fc_lattice_scan: the end of the word taken at i) */
  uint32_t *nf;      /* nf[i]: number of forced units before unit i
                      * (fc_lattice_scan: the word index taken at i) */
  size_t cap;
  size_t seen;       /* units scanned so far (fc_model_first_for) */
} fc_lattice;

/* Where a token came from. */
enum { FC_SRC_NONE = 0, FC_SRC_LEX, FC_SRC_USER, FC_SRC_UNK };

/* One token of a segmentation: units up to end (exclusive), its tag id and
 * FC_SRC_*: a lexicon or user word, an unknown-word candidate, or a single
 * unit that is no word. */
typedef struct fc_tok {
  uint32_t end;
  uint16_t tag;
  uint8_t src;
  uint8_t pad;
} fc_tok;

/* Finds the cheapest segmentation of the units and edges of a scan filled
 * by fc_scan_run (forced: some unit carries a forced user word, see
 * units.h) and writes its tokens to tok[0..*nt); tok must hold s->n
 * entries.  FENCI_OK or FENCI_NOMEM. */
fenci_rc fc_lattice_best(fc_lattice *l, const fc_scan *s, const fenci_model *m, int forced, fc_tok *tok, size_t *nt,
                         const fenci_alloc *a);

/* The same search for a scan filled by fc_scan_units alone (no user words,
 * no edges): the lexicon is looked up inside the right-to-left pass, so no
 * edge is stored.  Gives exactly the segmentation fc_lattice_best gives
 * after fc_scan_run without a dictionary.  With tags 0 the tokens' tags
 * are left 0 (FENCI_OPT_BARE: no read of the tag table per token). */
fenci_rc fc_lattice_scan(fc_lattice *l, const fc_scan *s, const fenci_model *m, int tags, fc_tok *tok, size_t *nt,
                         const fenci_alloc *a);
void fc_lattice_free(fc_lattice *l, const fenci_alloc *a);

#endif
