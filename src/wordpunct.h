/* wordpunct.h - where punctuation may stand in a word of the trained model.
 *
 * The training corpora let punctuation into words ("道—琼斯", "乔治·布什",
 * "万方数据（集团）公司", "１．５亿"), and the trained segmenter learns it,
 * but it also glues marks where no corpus ever does: "银河-" and "多云－"
 * (a mark ending a word right after a Han character), "奚彬）司法部" (a
 * bracket without its partner), "概率.5" (a full stop between a Han
 * character and a number).  In CTB6's training text, People's Daily
 * 1998-01 and msra-ner's training text (3.1 M words) such words occur 15
 * times, all noise; the models made 2,045 (pku), 748 (msr) and 152 (ctb)
 * of them on 20 MB of news text.  These rules forbid them when decoding
 * (training is unchanged), below forced user words: a user word may break
 * them. */
#ifndef FC_WORDPUNCT_H
#define FC_WORDPUNCT_H

#include <stddef.h>
#include <stdint.h>

#include "units.h"

/* > 0 an opening bracket, < 0 a closing one, the number of the pair
 * either way; 0 for anything else (cp as fc_char_norm leaves it: ( for
 * （; ASCII quotes, which open and close alike, are no brackets here). */
int fc_punct_bracket(uint32_t cp);

/* fc_unit.pc bits */
#define FC_PC_NOJOIN 1u  /* the unit does not join the one before (no M, no E) */
#define FC_PC_NOEND 2u   /* no word ends at the unit (no E) */
#define FC_PC_NOBEGIN 4u /* no word of two or more units begins at it (no B) */

/* Sets the pc fields of the n units of a feats scan of text (fc_scan_units
 * with feats: punctuation units carry their code point; pu lists its npu
 * punctuation units in order): a mark that follows a Han character does
 * not end a word unless it closes a bracket, one that precedes a Han
 * character does not begin one unless it opens one, a run of two or more
 * of one mark joins no Han character, and a full stop does not join a Han
 * character to a number.  Only sets bits: the pc fields are 0 as
 * fc_scan_units leaves them.  Returns the number of brackets and ASCII
 * quotes (none: fc_punct_repair has nothing to do). */
size_t fc_punct_marks(fc_unit *u, size_t n, const uint8_t *text, const uint32_t *pu, size_t npu);

/* After decoding (B/M/E/S tags, word ends as fc_segment_chunk cuts them):
 * a word of two or more units with a Han character that holds a bracket
 * without its partner takes the partner in when that is a word of its own
 * right outside (msra-ner's convention: “东方红三号”卫星), else is cut before
 * and after each such bracket (a mark that may not end or begin a word
 * left on its own too; every bracket, where the cuts would part a pair).
 * Words through forced units are left alone; pu and npu list the
 * punctuation units, as for fc_punct_marks.  Returns the number of words
 * mended. */
size_t fc_punct_repair(const fc_unit *u, size_t n, uint8_t *tags, const uint32_t *pu, size_t npu);

#endif
