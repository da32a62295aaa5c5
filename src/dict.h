/* dict.h - user dictionaries: words added at run time on top of a model. */
#ifndef FC_DICT_H
#define FC_DICT_H

#include "fenci.h"
#include "dat.h"

typedef struct fc_uword {
  size_t off;      /* word bytes at bytes.data + off */
  uint32_t len;    /* word length in bytes */
  float cost;      /* -ln P, used when not forced */
  uint16_t tag;    /* model tag id or 0 */
  uint8_t forced;  /* 1: always one token (added without a frequency) */
} fc_uword;

struct fenci_dict {
  const fenci_model *m; /* the model the words are added to */
  fenci_alloc a;
  uint8_t *bytes;       /* all word bytes */
  size_t bytes_len, bytes_cap;
  fc_uword *w;          /* words in insertion order (later duplicates override) */
  size_t n, cap;
  int frozen;           /* set when attached to a tagger */
  uint8_t *trie_bytes;  /* built at freeze */
  fc_dat trie;          /* word -> index into final[] */
  fc_uword *final;      /* deduplicated, sorted */
  size_t n_final;
};

/* Builds the trie and freezes the dict (idempotent). */
fenci_rc fc_dict_freeze(fenci_dict *d);

#endif
