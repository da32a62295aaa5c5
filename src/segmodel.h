/* segmodel.h - the trained segmenter: weights stored in a model file's
 * sections, feature extraction over units, and the decoder that tags units
 * with B/M/E/S.  The trainer (src/train/) writes the sections read here. */
#ifndef FC_SEGMODEL_H
#define FC_SEGMODEL_H

#include "fenci.h"
#include "fmt.h"
#include "units.h"

typedef struct fc_segmodel fc_segmodel;   /* immutable view over a model file's weight sections */
typedef struct fc_segscratch fc_segscratch; /* per-tagger decoding scratch */

/* Loads the weight sections of f.  When f has none, *out is NULL and FENCI_OK
 * is returned (a lexicon-only file).  Every table is validated. */
fenci_rc fc_segmodel_load(fc_segmodel **out, const fc_file *f, const fenci_alloc *a, char *err, size_t errlen);
void fc_segmodel_free(fc_segmodel *m, const fenci_alloc *a);

fenci_rc fc_segscratch_new(fc_segscratch **out, const fenci_alloc *a);
void fc_segscratch_free(fc_segscratch *s, const fenci_alloc *a);

/* Tags n units (n may be large; memory grows linearly) with FC_TAG_* into
 * tags[0..n).  Units whose force field is non-zero get tag force-1, and the
 * best path is found under those constraints.  FENCI_OK or FENCI_NOMEM. */
fenci_rc fc_segmodel_tag(const fc_segmodel *m, fc_segscratch *s, const fc_unit *u, size_t n, uint8_t *tags);

/* 1 when some table of m reads the units' lattice features (fc_unit.lat,
 * fc_unit.mg), which the fused scan (fc_scan_lexfeats) then has to find. */
int fc_segmodel_uses_lat(const fc_segmodel *m);

/* The table layout (SEGH record field) of feature type t, for the trainer. */
int fc_segmodel_layout(int t);

/* The trained decoder splits every word of more than FC_SEG_MAXWORD units
 * into pieces of that many.  The longest word of the training corpora has
 * 35 units; text without any break (a repeated pattern, a long run of one
 * mark) can lead the model to one word of a whole chunk, which would make
 * a useless token and hold back the chunker (fenci_segment) for no gain. */
#define FC_SEG_MAXWORD 64

#endif
