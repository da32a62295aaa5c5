/* tagger.h - the per-thread tagger state shared by the segmentation calls
 * (seg.c) and entity extraction (entities.c).  Internal to the library. */
#ifndef FC_TAGGER_H
#define FC_TAGGER_H

#include "lattice.h"
#include "nertag.h"
#include "postag.h"
#include "segmodel.h"
#include "units.h"

struct fenci_tagger {
  const fenci_model *m;
  fenci_dict *d;
  unsigned opts;
  fc_scan scan;
  fc_lattice lat;
  fc_segscratch *ss;
  fc_tok *tok;        /* the tokens of a chunk */
  uint8_t *tags;      /* BMES tags from the model */
  size_t tcap;
  fc_pos_work pw;     /* part-of-speech tagging */
  fc_posword *pwords;
  uint8_t *plab;
  size_t pcap;
  fc_posword pctx[FC_POS_CTX]; /* the last words of the previous chunk of this fenci_segment call */
  size_t n_pctx;
  fc_posword rctx[FC_POS_CTX]; /* the first words after a hard cut, segmented on their own */
  size_t n_rctx;
  fc_ner_work nw;     /* entities (entities.c) */
  uint32_t *ecp;      /* code points of a block */
  uint32_t *eoff;     /* their byte offsets, ecap + 1 */
  uint8_t *elab;
  size_t ecap;
  uint32_t *url;      /* URL and e-mail byte spans of a block */
  size_t ucap;
  struct fc_gap *gap; /* the lexicon's word boundaries near times and quantities (wordgap.h) */
  char *efold;        /* a block with traditional characters simplified, byte for byte */
  size_t efcap;

  char errmsg[200];
};

/* Frees what fenci_entities added to t (entities.c). */
void fc_entities_free(fenci_tagger *t);

#endif
