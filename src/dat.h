/* dat.h - double-array trie over UTF-8 BYTES: build, validate, prefix search.
 *
 * The trie is an array of 32-bit little-endian units that can be used in
 * place from an mmap'd file.  Every transition is bounds-checked at lookup
 * time, so a corrupt array can give wrong answers but never reads outside
 * the array. The layout is specified in docs/FORMAT.md. */
#ifndef FC_DAT_H
#define FC_DAT_H

#include <stddef.h>
#include <stdint.h>
#include "fenci.h"

typedef struct fc_dat {
  const uint32_t *units; /* n_units little-endian words (see FORMAT.md) */
  size_t n_units;        /* number of 32-bit units */
} fc_dat;

/* One prefix match: the key s[0..len) is in the trie with this value. */
typedef struct fc_dat_match {
  uint32_t len;   /* key length in bytes */
  uint32_t value; /* value stored with the key */
} fc_dat_match;

/* Builds a trie from n keys sorted in strictly increasing byte order
 * (memcmp order, shorter first on a tie), each 1..255 bytes, with values
 * < 2^31.  On success *out (allocated with a) holds *out_size BYTES that
 * fc_dat_view accepts.  Deterministic: same input, same bytes.
 * Returns FENCI_OK, FENCI_NOMEM or FENCI_BADARG (unsorted/duplicate/empty key). */
fenci_rc fc_dat_build(const fenci_alloc *a, const uint8_t *const *keys, const size_t *lens,
                      const uint32_t *values, size_t n, uint8_t **out, size_t *out_size);

/* Makes a view over size bytes (must be 4-byte aligned and a multiple of 4)
 * after a cheap structural check.  Returns FENCI_OK or FENCI_BADFORMAT (message in err). */
fenci_rc fc_dat_view(fc_dat *d, const void *bytes, size_t size, char *err, size_t errlen);

/* Full check of every unit (used by fenci check / fenci_model_check). */
fenci_rc fc_dat_check(const fc_dat *d, char *err, size_t errlen);

/* Common-prefix search: every key that is a prefix of s[0..len), shortest
 * first.  Writes up to cap matches to out; returns the number found (may be
 * larger than cap; only cap are written). */
size_t fc_dat_prefix(const fc_dat *d, const uint8_t *s, size_t len, fc_dat_match *out, size_t cap);

/* Same, starting from an inner node (as reached by fc_dat_step); match
 * lengths count from s; only matches ending before a byte that is not a
 * UTF-8 continuation byte (or at the end of s) are reported. */
size_t fc_dat_prefix_from(const fc_dat *d, uint32_t node, const uint8_t *s, size_t len, fc_dat_match *out,
                          size_t cap);

/* The same from an inner node along nchars characters of 3 bytes each
 * (s holds 3 * nchars bytes), checking for keys only after whole
 * characters.  On return *node is the node after the last character, or
 * FC_DAT_NO_NODE when the walk stopped early (no key goes on).  next: the
 * trie's next-character filter (lexnext.h), asked before each character,
 * or NULL; with it the node must be one the filter covers (two or more
 * main-block characters from the root) and s main-block characters. */
#define FC_DAT_NO_NODE 0xFFFFFFFFu
struct fc_lexnext;
size_t fc_dat_prefix3(const fc_dat *d, uint32_t *node, const uint8_t *s, size_t nchars,
                      const struct fc_lexnext *next, fc_dat_match *out, size_t cap);

/* The child of node along the smallest byte >= from (0..256): its node,
 * the byte in *byte; FC_DAT_NO_NODE when there is none.  Enumerates a
 * node's edges in byte order. */
uint32_t fc_dat_next_child(const fc_dat *d, uint32_t node, unsigned from, uint8_t *byte);

/* Exact lookup: 1 and *value if s[0..len) is a key, else 0. */
int fc_dat_find(const fc_dat *d, const uint8_t *s, size_t len, uint32_t *value);

/* The same from an inner node: s[0..len) continues the key that led there
 * (len may be 0: is the node itself a key?). */
int fc_dat_find_from(const fc_dat *d, uint32_t node, const uint8_t *s, size_t len, uint32_t *value);

/* Incremental traversal, for callers that walk the text themselves:
 * *node starts at 0 (the root).  fc_dat_step follows one byte: returns 1 and
 * updates *node, or 0 when there is no such edge.  fc_dat_value returns 1
 * and the value when the path to *node spells a key. */
int fc_dat_step(const fc_dat *d, uint32_t *node, uint8_t byte);
int fc_dat_value(const fc_dat *d, uint32_t node, uint32_t *value);

#endif
