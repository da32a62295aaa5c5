/* dict.h - user dictionaries: words added at run time on top of a model. */
#ifndef FC_DICT_H
#define FC_DICT_H

#include <pthread.h>
#include <stdatomic.h>

#include "fenci.h"
#include "dat.h"
#include "units.h"

typedef struct fc_uword {
  size_t off;       /* key bytes at bytes + off: the word as the lexicon-mode scan normalises it */
  uint32_t len;     /* key length in bytes */
  uint32_t alt_len; /* 0, or the length of the trained-model form, stored right after the key
                     * (differs only where the trained model splits a run of one mark) */
  float cost;       /* -ln P, used when not forced */
  uint16_t tag;     /* model tag id or 0 */
  uint8_t forced;   /* 1: always one token (added without a frequency) */
} fc_uword;

struct fenci_dict {
  const fenci_model *m; /* the model the words are added to */
  fenci_alloc a;
  uint8_t *bytes;       /* all key bytes */
  size_t bytes_len, bytes_cap;
  fc_uword *w;          /* words in insertion order (later duplicates override) */
  size_t n, cap;
  fc_scan norm;         /* scratch for normalising added words; freed at freeze */
  pthread_mutex_t lock; /* serialises fc_dict_freeze between threads */
  atomic_int frozen;    /* 1 once the trie is built; set last (release), read with acquire */
  uint8_t *trie_bytes;  /* built at freeze */
  fc_dat trie;          /* key -> index into final[] */
  fc_uword *final;      /* one per distinct key, sorted by key */
  size_t n_final;
  size_t n_words;       /* distinct words (lexicon-mode keys) after freezing */
};

/* Builds the trie and freezes the dict.  Idempotent and safe to call from
 * any number of threads at once: the first caller builds, the others wait
 * for it and then see the finished dict.  A failed build (FENCI_NOMEM)
 * leaves the dict unfrozen and unchanged, so a later call may retry. */
fenci_rc fc_dict_freeze(fenci_dict *d);

#endif
