/* oov.h - the unknown-word character model of the lexicon mode.
 *
 * For each character, how likely it is to begin, continue or end a word or
 * to stand alone, counted from a segmented corpus when the lexicon is
 * compiled (section HMMC, see docs/FORMAT.md).  The lattice uses it to
 * propose words the lexicon lacks (names, terms), scored by these
 * probabilities, next to the lexicon words. */
#ifndef FC_OOV_H
#define FC_OOV_H

#include <stddef.h>
#include <stdint.h>
#include "fenci.h"
#include "buf.h"
#include "units.h"

typedef struct fc_oov {
  const uint8_t *tab;   /* n records of 20 bytes: u32 cp, f32 log P(cp | tag)[4] */
  size_t n;             /* records, sorted by cp */
  float unk[4];         /* log P(char | tag) for a character the table lacks */
} fc_oov;

/* Counts the model from segmented text (words separated by whitespace, one
 * sentence a line) and appends the HMMC section bytes to out.  Words found
 * in lex count as single units (tag S): B/M/E then describe only the words
 * the lexicon lacks.
 * FENCI_OK, FENCI_NOMEM, or FENCI_BADFORMAT (no words found). */
#include "dat.h"
fenci_rc fc_oov_train(const uint8_t *text, size_t len, const fc_dat *lex, fc_buf *out, const fenci_alloc *a);

/* Validates an HMMC section.  FENCI_OK or FENCI_BADFORMAT. */
fenci_rc fc_oov_view(fc_oov *o, const uint8_t *data, size_t size, char *err, size_t errlen);

/* log P(character | tag) for tags B, M, E, S (FC_TAG_*) of every character
 * lo..hi, into out[4 * (cp - lo)]: B/M/E over the words the lexicon lacks,
 * S over the characters of lexicon words; the table's default for a
 * character it lacks.  One pass over the sorted records. */
void fc_oov_fill(const fc_oov *o, uint32_t lo, uint32_t hi, float *out);

/* The largest log P(character | tag) of the characters lo..hi (as
 * fc_oov_fill gives them), from the records in that range. */
float fc_oov_max(const fc_oov *o, uint32_t lo, uint32_t hi, int tag);

#endif
