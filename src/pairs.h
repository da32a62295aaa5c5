/* pairs.h - the two-character index of a lexicon (section LEX2).
 *
 * Most lexicon lookups in Chinese text end within two characters, and the
 * byte trie needs six dependent memory reads to get there.  LEX2 maps a
 * pair of characters of the main CJK block directly to the trie node after
 * them (for words that go on) and to the pair's own word index, in one hash
 * probe.  Layout in docs/FORMAT.md. */
#ifndef FC_PAIRS_H
#define FC_PAIRS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "fenci.h"
#include "buf.h"
#include "dat.h"

#define FC_PAIR_LO 0x4E00u
#define FC_PAIR_HI 0x9FFFu
#define FC_PAIR_NONE 0xFFFFFFFFu

typedef struct fc_pairs {
  const uint8_t *slots; /* n_slots records of 12 bytes: u32 key+1 (0 empty), u32 node, u32 word */
  uint32_t bits;        /* n_slots = 1 << bits */
  uint32_t max_probe;   /* longest probe sequence; lookups never go further */
} fc_pairs;

/* Appends the LEX2 section for the sorted keys (words) of a trie to out. */
fenci_rc fc_pairs_build(const fc_dat *trie, const uint8_t *const *keys, const size_t *lens, size_t n, fc_buf *out,
                        const fenci_alloc *a);

/* Validates a LEX2 section.  FENCI_OK or FENCI_BADFORMAT. */
fenci_rc fc_pairs_view(fc_pairs *p, const uint8_t *data, size_t size, char *err, size_t errlen);

static inline uint32_t fc_pairs_key(uint32_t c1, uint32_t c2) {
  return ((c1 - FC_PAIR_LO) << 15) | (c2 - FC_PAIR_LO);
}

static inline uint32_t fc_pairs_home(uint32_t key, uint32_t bits) {
  return (uint32_t)((key * 0x9E3779B1u) >> (32 - bits));
}

/* The slot where fc_pairs_find's probe for (c1, c2) starts (to prefetch). */
static inline const uint8_t *fc_pairs_home_slot(const fc_pairs *p, uint32_t c1, uint32_t c2) {
  return p->slots + (size_t)fc_pairs_home(fc_pairs_key(c1, c2), p->bits) * 12;
}

/* Looks up the pair (c1, c2), both in FC_PAIR_LO..FC_PAIR_HI.  Returns 1 when
 * some lexicon word starts with it: *node is the trie node after the pair
 * (FC_PAIR_NONE when no word is longer) and *word the pair's own word index
 * (FC_PAIR_NONE when the pair is no word). */
static inline int fc_pairs_find(const fc_pairs *p, uint32_t c1, uint32_t c2, uint32_t *node, uint32_t *word) {
  uint32_t key = fc_pairs_key(c1, c2) + 1, mask = (1u << p->bits) - 1, h = fc_pairs_home(key - 1, p->bits), i;
  for (i = 0; i <= p->max_probe; i++) {
    const uint8_t *s = p->slots + (size_t)((h + i) & mask) * 12;
    uint32_t k;
    memcpy(&k, s, 4);
    if (k == key) {
      memcpy(node, s + 4, 4);
      memcpy(word, s + 8, 4);
      return 1;
    }
    if (k == 0) return 0;
  }
  return 0;
}

#endif
