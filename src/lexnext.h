/* lexnext.h - the next-character filter of a lexicon (section LEXN).
 *
 * The lexicon pass asks at every Han character which words start there.
 * After the first-character table and the pair index (LEX2) it walks the
 * byte trie for the third character on, three dependent reads a character;
 * on news text about seven walks in ten end at once, the pair going on with
 * no word through that character.  LEXN is a Bloom filter over the trie's
 * character edges (a node where a character ends, the code point that
 * follows it), 64 bits a block: one read, mostly from the cache, tells
 * that an edge is certainly absent, and the walk is skipped.  It never
 * says absent of an edge that exists, so the words found are the same.
 * Layout in docs/FORMAT.md. */
#ifndef FC_LEXNEXT_H
#define FC_LEXNEXT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "buf.h"
#include "dat.h"
#include "fenci.h"

/* The main block, whose characters the lexicon pass walks three bytes at a
 * time (as LEX2's pairs). */
#define FC_LEXNEXT_LO 0x4E00u
#define FC_LEXNEXT_HI 0x9FFFu
#define FC_LEXNEXT_MAX_BITS 26 /* 2^26 blocks: 512 MB, far past any lexicon */

typedef struct fc_lexnext {
  const uint8_t *blocks; /* 2^bits little-endian u64 blocks; NULL: no filter */
  uint32_t bits;
} fc_lexnext;

/* The edges in the filter: from every node reached from the root along
 * main-block characters only, at depth d >= 1 characters, the character c
 * that follows, when d >= 2 or c is outside the main block.  (Edges from
 * depth 1 into the main block are the pairs of LEX2, which the pass probes
 * anyway.)  A caller asks only about such edges. */

/* The character at s (n >= 1 bytes), as the filter reads characters: the
 * lead byte gives the length (1-4), each further byte must be 10xxxxxx;
 * overlong forms are not refused (both sides read them alike).  Returns
 * the length, or 0 when s starts no such sequence. */
static inline size_t fc_lexnext_char(const uint8_t *s, size_t n, uint32_t *cp) {
  uint32_t c = s[0];
  size_t len, i;
  if (c < 0x80) {
    *cp = c;
    return 1;
  }
  if (c < 0xC0) return 0;
  len = c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF8 ? 4 : 0;
  if (!len || len > n) return 0;
  c &= 0x7Fu >> len;
  for (i = 1; i < len; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    c = c << 6 | (s[i] & 0x3Fu);
  }
  *cp = c;
  return len;
}

static inline uint64_t fc_lexnext_hash(uint32_t node, uint32_t cp) {
  return ((uint64_t)node << 21 | (cp & 0x1FFFFFu)) * 0x9E3779B97F4A7C15ull;
}

/* 0 when the edge (node, cp) is certainly not in the trie, 1 when it may
 * be (always 1 without a filter). */
static inline int fc_lexnext_may(const fc_lexnext *f, uint32_t node, uint32_t cp) {
  uint64_t x, m, b;
  if (!f->blocks) return 1;
  x = fc_lexnext_hash(node, cp);
  m = 1ull << ((x >> (58 - f->bits)) & 63) | 1ull << ((x >> (52 - f->bits)) & 63);
  memcpy(&b, f->blocks + 8 * (size_t)(x >> (64 - f->bits)), 8);
  return (b & m) == m;
}

/* Appends the LEXN section for trie to out.  FENCI_OK or FENCI_NOMEM. */
fenci_rc fc_lexnext_build(const fc_dat *trie, fc_buf *out, const fenci_alloc *a);

/* Validates a LEXN section built for trie.  FENCI_OK (f->blocks NULL on a
 * big-endian host: no filter) or FENCI_BADFORMAT. */
fenci_rc fc_lexnext_view(fc_lexnext *f, const uint8_t *data, size_t size, const fc_dat *trie, char *err,
                         size_t errlen);

/* Full check: every edge of trie is in f.  FENCI_OK or FENCI_BADFORMAT. */
fenci_rc fc_lexnext_check(const fc_lexnext *f, const fc_dat *trie, char *err, size_t errlen);

#endif
