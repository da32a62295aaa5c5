/* feat.h - feature templates of the trained segmenter, shared by the trainer
 * (src/train/) and the decoder (segmodel.c), so both see the same features.
 *
 * Features come in GROUPS.  A group type t has a key computed at an ANCHOR
 * unit j (e.g. the bigram of units j and j+1) and n_blocks blocks of four
 * weights (one per B/M/E/S tag); block b scores unit j + off[b].  So the one
 * lookup of bigram (j, j+1) gives the weights of the templates C0C1 at j,
 * C-1C0 at j+1, C-2C-1 at j+2 and C1C2 at j-1: one lookup per anchor and
 * type instead of one per template.
 *
 * Units are first mapped to SYMBOL IDS (small integers): a model's symbol
 * map gives the id of every unit symbol (the normalised code point of a
 * one-character unit, or a class symbol for atoms: every number is the same
 * symbol, every Latin word another) seen often enough in training; every
 * other symbol is FC_ID_UNK, so rare characters share weights.  Keys are
 * exact (invertible) packings of the type and three small components
 * (FC_FEAT_PACK), so the trainer can lay a group out by its components: the
 * groups keyed by one id and lexicon lengths or a lattice tag (uni, lexu,
 * tlexu, latu) and the small-domain groups (lex, tlex, lat, latm) are DENSE
 * tables indexed directly, the others hash tables.  Changing anything here
 * that alters keys, ids or block layout must bump FC_FEAT_VERSION: models
 * record it and a library refuses models of another version.  Adding a type
 * does not: a model without it reads as before, and a library without it
 * refuses a model that has it ("unknown feature type"), as the lattice
 * types lat, latu, latm were added in version 2. */
#ifndef FC_FEAT_H
#define FC_FEAT_H

#include <stddef.h>
#include <stdint.h>
#include "units.h"

#define FC_FEAT_VERSION 2
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
  FC_G_LAT,     /* lattice tags of j-1, j, j+1 (fc_unit.lat)    blocks at j-1..j+1     */
  FC_G_LATU,    /* C_j with its lattice tag                     block at j             */
  FC_G_LATM,    /* lattice margins before and after j (mg)      block at j             */
  FC_G_NTYPES
};

typedef struct fc_feat_type {
  const char *name;          /* short name, used by `fenci train --templates` */
  int n_blocks;              /* blocks of 4 weights */
  int off[FC_FEAT_MAXB];     /* block b scores unit anchor + off[b]; |off| <= FC_FEAT_PAD */
} fc_feat_type;

extern const fc_feat_type fc_feat_types[FC_G_NTYPES];

/* The templates of the models before the lattice features (the fused
 * decoder's base), and the lattice features (units.h: the lexicon mode's
 * best path and its margins), which it adds when a model has them. */
#define FC_FEAT_BASE_MASK                                                               \
  ((1u << FC_G_UNI) | (1u << FC_G_BI) | (1u << FC_G_SKIP) | (1u << FC_G_LEX) |          \
   (1u << FC_G_LEXU) | (1u << FC_G_TLEX) | (1u << FC_G_TLEXU))
#define FC_FEAT_LAT_MASK ((1u << FC_G_LAT) | (1u << FC_G_LATU))
#define FC_FEAT_LATM_MASK (1u << FC_G_LATM)
/* Mask of the templates used when none are named (chosen on the dev sets:
 * docs/ARCHITECTURE.md, "Lattice features"). */
#define FC_FEAT_DEFAULT_MASK (FC_FEAT_BASE_MASK | FC_FEAT_LAT_MASK | FC_FEAT_LATM_MASK)

/* Symbol ids.  0 is never an id (the direct map's "unknown"), then the
 * reserved ids; the ids of real symbols follow.  Ids fit 16 bits. */
#define FC_ID_UNK 1u
#define FC_ID_BOS 2u
#define FC_ID_EOS 3u
#define FC_ID_FIRST 4u
#define FC_FEAT_MAXID 65535u    /* n_ids <= this */
#define FC_SYMMAP_DIRECT 65536u /* symbols below this are looked up directly */

/* The symbol map (in SEGW): FC_SYMMAP_DIRECT uint16 ids for the symbols
 * 0..0xFFFF (0 = unknown), then n_ext (uint32 symbol, uint32 id) pairs
 * sorted by symbol for the symbols above.  A loaded map has been validated:
 * every id is 0 or in [FC_ID_FIRST, n_ids). */
typedef struct fc_symmap {
  const uint8_t *direct; /* FC_SYMMAP_DIRECT * 2 bytes */
  const uint8_t *ext;    /* n_ext * 8 bytes */
  uint32_t n_ext;
  uint32_t n_ids;        /* ids are below this: an id read from the file at or
                          * above it (a model rewritten in place after it was
                          * validated) is taken as FC_ID_UNK, never used as an index */
} fc_symmap;

/* The (unmapped) symbol of a unit: < 2^21. */
uint32_t fc_feat_unit_sym(const fc_unit *u);
/* The id of a symbol (FC_ID_UNK when the map lacks it). */
uint32_t fc_symmap_id(const fc_symmap *m, uint32_t sym);

/* Ids of the units u[0..n), written to sym[FC_FEAT_PAD .. FC_FEAT_PAD+n),
 * with FC_ID_BOS/EOS padding around them; sym holds n + 2*FC_FEAT_PAD
 * entries.  When cls is not NULL it likewise receives, per unit, the feature
 * class (low 4 bits) and the B/M/E/S tags that forward (bits 4-5) and
 * backward (bits 6-7) maximum matching with the lexicon lengths lb/le would
 * give (only the cls, rep, mm and mmu groups read them). */
void fc_feat_symbols(const fc_symmap *m, const fc_unit *u, size_t n, uint32_t *sym, uint8_t *cls);

/* What the keys of one run of units are computed from. */
typedef struct fc_feat_ctx {
  const fc_unit *u;     /* the units (lexicon fields lb/le/lm) */
  size_t n;             /* number of units */
  const uint32_t *sym;  /* n + 2*FC_FEAT_PAD ids from fc_feat_symbols */
  const uint8_t *cls;   /* n + 2*FC_FEAT_PAD classes from fc_feat_symbols, or NULL */
  const uint8_t *l2;    /* 3 per unit: lb2 le2 lm2 from the training-word lexicon, or NULL */
} fc_feat_ctx;

/* Keys: FC_FEAT_PACK(t, a, b, c) of a group's components (each < 2^19),
 * never 0. */
#define FC_FEAT_CBITS 19
#define FC_FEAT_CMASK ((1u << FC_FEAT_CBITS) - 1)
#define FC_FEAT_PACK(t, a, b, c)                                                                   \
  ((uint64_t)((t) + 1) << 57 | (uint64_t)(a) | (uint64_t)(b) << FC_FEAT_CBITS |                    \
   (uint64_t)(c) << (2 * FC_FEAT_CBITS))
#define FC_FEAT_KA(k) ((uint32_t)(k) & FC_FEAT_CMASK)
#define FC_FEAT_KB(k) ((uint32_t)((k) >> FC_FEAT_CBITS) & FC_FEAT_CMASK)
#define FC_FEAT_KC(k) ((uint32_t)((k) >> (2 * FC_FEAT_CBITS)) & FC_FEAT_CMASK)

/* The key of group type t anchored at unit j (0 <= j+FC_FEAT_PAD < n+2*PAD).
 * Returns 0 when the group does not exist at this anchor. */
uint64_t fc_feat_key(int t, const fc_feat_ctx *c, ptrdiff_t j);

/* A 64-bit mix of a key (never 0): home slot (high half) and fingerprint
 * (low half) in the hashed tables. */
uint64_t fc_feat_mix(uint64_t x);

/* Home-slot hash of an id pair key id0 | id1 << 16 (the bigram and skip
 * tables): ((fc_feat_pairmix(k) >> 32) * n_slots) >> 32. */
static inline uint64_t fc_feat_pairmix(uint32_t k) {
  uint64_t x = (uint64_t)k * 0x9E3779B97F4A7C15u;
  x ^= x >> 29;
  return x * 0xBF58476D1CE4E5B9u;
}

/* Dense layouts.  fc_feat_dense_rows: rows of a dense table of type t for
 * n_ids ids, 0 for the hashed types; fc_feat_dense_row: the row of a key. */
#define FC_FEAT_LEXCAP 7   /* lex/tlex lengths are capped at this */
#define FC_FEAT_LEXUCAP 4  /* lexu/tlexu lengths are capped at this */
#define FC_FEAT_LEXOUT 8   /* lex/tlex "a" component at anchors outside the units */
#define FC_FEAT_LATOUT 4   /* lat: the tag of a unit outside the run; rows (a*5 + b)*5 + c */
/* latu rows: id * 4 + tag; latm rows: mg_j * FC_MG_N + mg_j+1 (FC_MG_INF after the run) */
size_t fc_feat_dense_rows(int t, size_t n_ids);
size_t fc_feat_dense_row(int t, uint64_t key);

/* The training-word lexicon: the training corpus's words spelled in symbol
 * ids, of at most FC_FEAT_TLEX_MAX units.  Its one-unit strings are flags per
 * id (in SEGL), its two-unit strings flags in the slots of the bigram table
 * (the first two ids of every longer word have a slot there), and the
 * longer strings an open-addressing hash table (in SEGL) over the hashes of
 * every word AND every proper prefix of three or more units (h = 0, then
 * h = fc_feat_wstep(h, id) per unit), each slot a uint32 fingerprint (low
 * 32 bits of h, 0 replaced by 1; 0 = empty) and uint32 flags
 * (FC_TLEX_WORD, FC_TLEX_PREFIX); home slot ((h >> 32) * n_slots) >> 32,
 * linear probing for at most max_probe extra slots.  A walk from a unit
 * stops as soon as the string is no prefix of a word: most walks end at the
 * first or second unit without touching the hash table. */
#define FC_FEAT_TLEX_MAX 15 /* longest word in units */
#define FC_TLEX_WORD 1u
#define FC_TLEX_PREFIX 2u
uint64_t fc_feat_wstep(uint64_t h, uint32_t id);

typedef struct fc_tlex {
  const uint8_t *slots; /* n_slots * 8 bytes */
  uint32_t n_slots;     /* > 0 */
  uint32_t max_probe;   /* < n_slots */
} fc_tlex;

/* Flags of the string with hash h, 0 when absent. */
uint32_t fc_tlex_find(const fc_tlex *t, uint64_t h);
/* Records a word of len units starting at unit i in l2 (3 per unit:
 * lb2 le2 lm2, the longest word beginning at / ending at / strictly
 * covering the unit). */
void fc_tlex_mark(uint8_t *l2, size_t i, size_t len);

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
