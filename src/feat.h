/* feat.h - feature templates of the trained segmenter, shared by the trainer
 * (src/train/) and the decoder (segmodel.c), so both see the same features.
 *
 * Features come in GROUPS.  A group type t has a key computed at an ANCHOR
 * unit j (e.g. the bigram of units j and j+1) and n_blocks blocks of four
 * weights (one per B/M/E/S tag); block b scores unit j + off[b].  So the one
 * lookup of bigram (j, j+1) gives the weights of the templates C0C1 at j,
 * C-1C0 at j+1, C-2C-1 at j+2 and C1C2 at j-1: one hash probe per anchor
 * and type instead of one per template.
 *
 * Keys are 64-bit hashes (fixed, portable mixing) of the type and of unit
 * SYMBOLS: the normalised code point of a one-character unit, or a class
 * symbol for atoms (every number is the same symbol, every Latin word
 * another), so digits and letters generalise.  Changing anything here that
 * alters keys or block layout must bump FC_FEAT_VERSION: models record it and
 * a library refuses models of another version. */
#ifndef FC_FEAT_H
#define FC_FEAT_H

#include <stddef.h>
#include <stdint.h>
#include "units.h"

#define FC_FEAT_VERSION 1
#define FC_FEAT_PAD 2      /* anchors reach this many units past either end */
#define FC_FEAT_MAXB 5     /* most blocks in a group */

/* Group types. */
enum {
  FC_G_UNI = 0, /* C_j                         blocks at j-2..j+2 (5 unigram templates) */
  FC_G_BI,      /* C_j C_j+1                   blocks at j-1..j+2 (4 bigram templates)  */
  FC_G_SKIP,    /* C_j-1 C_j+1                 block at j                                */
  FC_G_TRI,     /* C_j-1 C_j C_j+1             blocks at j-1..j+1                        */
  FC_G_LEX,     /* lexicon lengths lb le lm    blocks at j-1..j+1                        */
  FC_G_LEXU,    /* C_j with lb_j, le_j         block at j                                */
  FC_G_CLS,     /* classes T_j-1 T_j T_j+1     block at j                                */
  FC_G_REP,     /* repetitions around j        block at j                                */
  FC_G_MM,      /* forward/backward maximum-matching tags of j  blocks at j-1..j+1     */
  FC_G_MMU,     /* C_j with its maximum-matching tags           block at j             */
  FC_G_TLEX,    /* training-word lexicon lengths lb2 le2 lm2    blocks at j-1..j+1     */
  FC_G_TLEXU,   /* C_j with lb2_j, le2_j                        block at j             */
  FC_G_NTYPES
};

typedef struct fc_feat_type {
  const char *name;          /* short name, used by `fenci train --templates` */
  int n_blocks;              /* blocks of 4 weights */
  int off[FC_FEAT_MAXB];     /* block b scores unit anchor + off[b]; |off| <= FC_FEAT_PAD */
} fc_feat_type;

extern const fc_feat_type fc_feat_types[FC_G_NTYPES];

/* Mask of the templates used when none are named. */
#define FC_FEAT_DEFAULT_MASK                                                            \
  ((1u << FC_G_UNI) | (1u << FC_G_BI) | (1u << FC_G_SKIP) | (1u << FC_G_LEX) |          \
   (1u << FC_G_LEXU) | (1u << FC_G_TLEX) | (1u << FC_G_TLEXU))

/* Symbols of the units u[0..n), written to sym[FC_FEAT_PAD .. FC_FEAT_PAD+n),
 * with begin/end padding symbols around them; sym holds n + 2*FC_FEAT_PAD
 * entries.  cls likewise receives, per unit, the feature class (low 4 bits)
 * and the B/M/E/S tags that forward (bits 4-5) and backward (bits 6-7)
 * maximum matching with the lexicon lengths lb/le would give. */
void fc_feat_symbols(const fc_unit *u, size_t n, uint32_t *sym, uint8_t *cls);

/* What the keys of one run of units are computed from. */
typedef struct fc_feat_ctx {
  const fc_unit *u;     /* the units (lexicon fields lb/le/lm) */
  size_t n;             /* number of units */
  const uint32_t *sym;  /* n + 2*FC_FEAT_PAD symbols from fc_feat_symbols */
  const uint8_t *cls;   /* n + 2*FC_FEAT_PAD classes from fc_feat_symbols */
  const uint8_t *l2;    /* 3 per unit: lb2 le2 lm2 from the training-word lexicon, or NULL */
} fc_feat_ctx;

/* The key of group type t anchored at unit j (0 <= j+FC_FEAT_PAD < n+2*PAD).
 * Returns 0 when the group does not exist at this anchor (never a real key). */
uint64_t fc_feat_key(int t, const fc_feat_ctx *c, ptrdiff_t j);

/* The training-word lexicon (section SEGL) holds words spelled in unit
 * symbols, so that it sees units exactly as the features do (every number
 * is the same symbol).  It is an open-addressing hash table over the hashes
 * of every word AND every proper prefix of a word (h = 0, then
 * h = fc_feat_wstep(h, symbol) per unit), each slot a uint32 fingerprint
 * (low 32 bits of h, 0 replaced by 1; 0 = empty) and uint32 flags
 * (FC_TLEX_WORD, FC_TLEX_PREFIX); home slot ((h >> 32) * n_slots) >> 32,
 * linear probing for at most max_probe extra slots.  A walk from a unit
 * stops as soon as the string is no prefix of a word: about two probes a
 * unit. */
#define FC_FEAT_SYMB 3
#define FC_FEAT_TLEX_MAX 15 /* longest word in units */
#define FC_TLEX_WORD 1u
#define FC_TLEX_PREFIX 2u
uint64_t fc_feat_wstep(uint64_t h, uint32_t sym);

typedef struct fc_tlex {
  const uint8_t *slots; /* n_slots * 8 bytes */
  uint32_t n_slots;     /* > 0 */
  uint32_t max_probe;   /* < n_slots */
} fc_tlex;

/* Flags of the string with hash h, 0 when absent. */
uint32_t fc_tlex_find(const fc_tlex *t, uint64_t h);
/* Fills l2 (3 per unit: lb2 le2 lm2) for the n units whose symbols are sym. */
void fc_tlex_lengths(const fc_tlex *t, const uint32_t *sym, size_t n, uint8_t *l2);

/* Symbols as FC_FEAT_SYMB big-endian bytes each (the trainer's word store). */
void fc_feat_sym_bytes(const uint32_t *sym, size_t n, uint8_t *out);

/* Range of anchors of type t that score some unit of [0, n): [*lo, *hi). */
void fc_feat_anchors(int t, size_t n, ptrdiff_t *lo, ptrdiff_t *hi);

/* Parses a comma-separated template list ("uni,bi,lex" or "default" or
 * "all"); returns the mask or 0 when a name is unknown. */
unsigned fc_feat_parse_mask(const char *s);

/* Viterbi over B/M/E/S: emis[i*4+tag] emission scores of n units, trans[16]
 * (prev*4+cur), start[4], end[4].  Illegal BMES transitions are (almost)
 * never taken; units with force != 0 get tag force-1, and whitespace units
 * are forced to S.  bp: n*4 bytes of scratch.  Writes tags[0..n). */
void fc_seg_viterbi(const int32_t *emis, size_t n, const int32_t *trans, const int32_t *start,
                    const int32_t *end, const fc_unit *u, uint8_t *bp, uint8_t *tags);

#endif
