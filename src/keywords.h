/* keywords.h - internal hooks of keyword extraction (keywords.c). */
#ifndef FC_KEYWORDS_H
#define FC_KEYWORDS_H

#include "fenci.h"

/* Defined in seg.c: the model of tagger t, and setting its message. */
const fenci_model *fc_tagger_model(const fenci_tagger *t);
void fc_tagger_errset(fenci_tagger *t, const char *msg);

#endif
