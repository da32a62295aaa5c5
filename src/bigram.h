/* bigram.h - the word-bigram table of a lexicon (section LEXB) and the
 * resolution of overlapping ambiguities with it.
 *
 * The trained segmenters decide from characters; on 结婚的和尚未结婚的 they
 * cut 和尚|未 where the words around say 和|尚未.  Where a word the model
 * cut crosses a lexicon word (an overlapping ambiguity, 交集型歧义), the
 * few segmentations of that stretch into lexicon words are compared by a
 * word-bigram model counted from the segmented training corpora, and the
 * model's words are replaced when the bigrams prefer a reading that
 * crosses them by FC_BIGRAM_MARGIN nats or more (docs/ARCHITECTURE.md,
 * "Overlapping ambiguities").  Layout of LEXB in docs/FORMAT.md. */
#ifndef FC_BIGRAM_H
#define FC_BIGRAM_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h"
#include "chain.h"
#include "fenci.h"

#define FC_BIGRAM_MAGIC "FCBG"
#define FC_BIGRAM_VERSION 1
#define FC_BIGRAM_HEAD 32
#define FC_BIGRAM_NONE 0xFFFFFFFFu /* no word: a context that is no lexicon word */
#define FC_BIGRAM_SCALE 64.0       /* stored costs are in 1/64 nats */
#define FC_BIGRAM_MARGIN 3.0       /* nats (chosen on dev: docs/ARCHITECTURE.md) */
#define FC_BIGRAM_SPAN 16          /* units of a stretch compared, at most */
#define FC_BIGRAM_MAX_PROBE 255    /* a table's longest probe, at most (a lookup's bound) */

typedef struct fc_bigram {
  const uint8_t *slots; /* n_slots x 8 bytes: u32 fingerprint (0 empty), u32 cost in 1/64 nats */
  uint32_t n_slots, max_probe;
} fc_bigram;

/* Validates a LEXB section of a lexicon of n_words words. */
fenci_rc fc_bigram_view(fc_bigram *b, const uint8_t *data, size_t size, size_t n_words, char *err, size_t errlen);

/* The key of the pair (w1, w2); w2 FC_BIGRAM_NONE for w1's back-off entry:
 * the labellers' 64-bit mixer over w1 << 32 | w2. */
static inline uint64_t fc_bigram_key(uint32_t w1, uint32_t w2) { return fc_chain_mix((uint64_t)w1 << 32 | w2); }

/* The stored cost of key k in nats, or -1 when absent. */
double fc_bigram_get(const fc_bigram *b, uint64_t k);

/* The table for counted pairs: n entries of (w1, w2 or FC_BIGRAM_NONE,
 * cost in nats), appended as a LEXB section to out. */
typedef struct fc_bigram_entry {
  uint32_t w1, w2;
  double cost;
} fc_bigram_entry;
fenci_rc fc_bigram_build(const fc_bigram_entry *e, size_t n, size_t n_words, fc_buf *out, const fenci_alloc *a);

struct fc_scan;
struct fenci_model;
/* Rewrites the B/M/E/S tags of the n units of a scan (fused or not) where
 * a bigram-preferred reading of an overlapping ambiguity replaces the
 * model's words.  Units with a forced tag and, when user is set (a scan
 * with edges: fc_scan_run), the words of the user dictionary are never
 * changed.  Needs the units' lb/le and lat/mg (a feats scan with lat).
 * No allocation. */
void fc_bigram_resolve(const struct fc_scan *s, const struct fenci_model *m, int user, uint8_t *tags);

#endif
