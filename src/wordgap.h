/* wordgap.h - how strongly the lexicon's words hold a text together at a
 * point: the cost, in nats, of the best lexicon path (least total
 * -ln P(word), a unit alone at the unknown cost: the lexicon mode's
 * lattice) forced to cut at a byte position, over the best path; and
 * where the best path's word over that position starts.
 *
 * The time and quantity rules (numex.c) ask it whether a relative word or
 * a measure word they found is really the start or the end of another
 * word (去年轻人: 年轻人; 会议上周旋: 周旋; 300万人口: 人口).  Each answer
 * reads a window of FC_GAP_REACH characters on either side of the
 * position, so its cost is bounded; a window is kept and reused for the
 * next question inside it (with half the reach on either side). */
#ifndef FC_WORDGAP_H
#define FC_WORDGAP_H

#include <stddef.h>
#include <stdint.h>

#include "fenci.h"
#include "units.h"

#define FC_GAP_REACH 6 /* characters read on either side (12 gave the same answers on PD 1998-01-01..27 but one) */
#define FC_GAP_MAXU (2 * FC_GAP_REACH + 2) /* units of a window, at most */
#define FC_GAP_MAXE (FC_GAP_MAXU * 16)     /* lexicon words kept over a window */
#define FC_GAP_NOWORD 0xFFFFFFFFu

typedef struct fc_gap {
  fc_scan scan;           /* the window's units */
  const uint8_t *text;    /* the text and window [lo, hi) of the last answer */
  size_t lo, hi;
  double fwd[FC_GAP_MAXU + 1], bwd[FC_GAP_MAXU + 1]; /* best path costs to and from each unit */
  uint32_t nxt[FC_GAP_MAXU + 1]; /* the best path's next boundary after each unit */
  uint32_t nword[FC_GAP_MAXU + 1]; /* ... and its word there (FC_GAP_NOWORD: the unit alone) */
  uint32_t efirst[FC_GAP_MAXU + 1], eto[FC_GAP_MAXE], eword[FC_GAP_MAXE]; /* words from unit i: efirst[i] .. efirst[i+1] */
  float ecost[FC_GAP_MAXE];
  size_t ne;
} fc_gap;

void fc_gap_free(fc_gap *g, const fenci_alloc *a);

/* What the best path of the window around byte p of text[0..len) says
 * about a cut at p (a character boundary, 0 < p < len). */
typedef struct fc_gap_word {
  double cost;         /* what cutting at p costs it (0: it cuts there) */
  size_t start, end;   /* its word over p (start = end = p when it cuts there) */
  uint32_t word;       /* that word's lexicon index, or FC_GAP_NOWORD */
} fc_gap_word;

/* Fills *w for p (a p inside a unit, an atom such as 1998, gets cost 0).
 * FENCI_OK or FENCI_NOMEM. */
fenci_rc fc_gap_at(fc_gap *g, const struct fenci_model *m, const uint8_t *text, size_t len, size_t p, fc_gap_word *w,
                   const fenci_alloc *a);

#endif
