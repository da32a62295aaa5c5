/* chain.h - the linear-chain labeller shared by the part-of-speech tagger
 * and the entity recogniser: a sequence of positions, each with a list of
 * 64-bit feature keys, is given the best path of label scores (sparse
 * feature weights plus label transitions, Viterbi over the few best labels
 * of each position).  The weights are one section of a model file, used in
 * place (docs/FORMAT.md, "Labeller sections"); src/train/chaintrain.c
 * trains them.  Every task defines only its features. */
#ifndef FC_CHAIN_H
#define FC_CHAIN_H

#include <stddef.h>
#include <stdint.h>
#include "fenci.h"
#include "fmt.h"

#define FC_CHAIN_MAGIC "FCCH"
#define FC_CHAIN_VERSION 2 /* 2: grouped templates (1, without them, is read too) */
#define FC_CHAIN_MAX_LABELS 64
#define FC_CHAIN_HEAD 64       /* fixed part of the header */
#define FC_CHAIN_FORBID (-(1 << 28)) /* a transition that never occurs */

/* Feature keys: a template number and a 56-bit hash of its parts. */
static inline uint64_t fc_chain_mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 31;
  return x;
}
static inline uint64_t fc_chain_hash(uint64_t h, const void *p, size_t n) {
  const uint8_t *b = p;
  size_t i;
  for (i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001B3ull;
  return h;
}
#define FC_CHAIN_H0 0xCBF29CE484222325ull
static inline uint64_t fc_chain_key(unsigned tmpl, uint64_t h) {
  return ((uint64_t)(tmpl + 1) << 56) | (fc_chain_mix(h) & 0x00FFFFFFFFFFFFFFull);
}

/* Grouped templates.  Several templates often read one thing at different
 * places: the character at -2..+2, the pair of words (-1,0) and (0,+1).
 * A GROUP template is keyed by that thing at an ANCHOR position a, and its
 * key at position i = a + off carries the offset: one lookup of the
 * anchor's key then gives the weights of every member, each pair of the
 * slot naming the offset it scores (docs/FORMAT.md).  The task lists, at
 * each position, the key of every member (the trainer sees per-position
 * features, as for any template); every group must have its member of
 * offset 0 at every position, which the decoder looks up, while it skips
 * the other members except those whose anchor lies before the first or
 * after the last position (the padding symbols), looked up once each.
 * Offsets are -7..7; the template is marked in the section's group mask. */
#define FC_CHAIN_MAX_OFF 7
static inline uint64_t fc_chain_gkey(unsigned tmpl, uint64_t h, int off) {
  return ((uint64_t)(tmpl + 1) << 56) | (fc_chain_mix(h) & 0x00FFFFFFFFFFFFF0ull) | (uint64_t)(off + 8);
}
static inline int fc_chain_key_grouped(uint64_t gmask, uint64_t k) {
  unsigned t = (unsigned)(k >> 56);
  return t >= 1 && t <= 64 && ((gmask >> (t - 1)) & 1);
}
/* An anchor-only key: a group whose member of offset 0 is no feature (it
 * is left out at some positions, say) lists this at every position
 * instead; the decoder looks the anchor up through it, the trainer gives
 * it no weights. */
static inline uint64_t fc_chain_gkey_rep(unsigned tmpl, uint64_t h) {
  return ((uint64_t)(tmpl + 1) << 56) | (fc_chain_mix(h) & 0x00FFFFFFFFFFFFF0ull);
}
static inline int fc_chain_gkey_is_rep(uint64_t gmask, uint64_t k) {
  return (k & 0xF) == 0 && fc_chain_key_grouped(gmask, k);
}
/* Whether the decoder looks up the member of offset off at position i of
 * n: the member of offset 0, or one whose anchor lies outside the sequence
 * (the others it skips, so a task may leave them out when decoding). */
static inline int fc_chain_member_looked_up(size_t i, int off, size_t n) {
  ptrdiff_t a = (ptrdiff_t)i - off;
  return off == 0 || a < 0 || (size_t)a >= n;
}
/* The anchor's key of a grouped key (its member of offset 0), and the offset. */
static inline uint64_t fc_chain_gkey_anchor(uint64_t k) { return (k & ~(uint64_t)0xF) | 8; }
static inline int fc_chain_gkey_off(uint64_t k) { return (int)(k & 0xF) - 8; }

/* The set of labels 0..L-1 (bit l: label l), and its lowest label. */
static inline uint64_t fc_chain_label_mask(uint32_t L) { return L >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << L) - 1; }
static inline unsigned fc_chain_ctz64(uint64_t m) {
#if defined(__GNUC__)
  return (unsigned)__builtin_ctzll(m);
#else
  unsigned j = 0;
  while (!(m >> j & 1)) j++;
  return j;
#endif
}

static inline unsigned fc_chain_popcount64(uint64_t m) {
#if defined(__GNUC__)
  return (unsigned)__builtin_popcountll(m);
#else
  unsigned k = 0;
  for (; m; m &= m - 1) k++;
  return k;
#endif
}

typedef struct fc_chain {
  uint32_t n_labels;
  const char *label[FC_CHAIN_MAX_LABELS]; /* names, into the section */
  uint32_t beam;                          /* labels kept per position (<= n_labels) */
  uint64_t gmask;                         /* grouped templates: bit t for template t */
  uint32_t feature_version;               /* the task's features it was trained with */
  int32_t trans[FC_CHAIN_MAX_LABELS * FC_CHAIN_MAX_LABELS]; /* prev * n + cur */
  int32_t start[FC_CHAIN_MAX_LABELS], end[FC_CHAIN_MAX_LABELS];
  uint8_t n_pred[FC_CHAIN_MAX_LABELS];                      /* labels that may precede each label */
  uint8_t pred[FC_CHAIN_MAX_LABELS][FC_CHAIN_MAX_LABELS];
  const uint8_t *slots; /* n_slots x 16 bytes: u32 fingerprint, three u32 (docs/FORMAT.md) */
  uint32_t n_slots, max_probe;
  const uint8_t *pairs; /* n_pairs x (u8 label, u8 0, i16 weight) */
  uint32_t n_pairs;
} fc_chain;

/* Validates section sec (tag given for messages) and views it: every
 * offset, count and label is checked here or at lookup. */
fenci_rc fc_chain_view(fc_chain *c, const fc_section *sec, char *err, size_t errlen);

/* Adds the weights of the keys of every position of a sequence to its
 * emissions: keys[koff[i] ..
 * koff[i+1]) are position i's, emit is n * n_labels.  Looks the keys up in
 * stages (slots, then their pairs) with prefetches in between, so the
 * cache misses of a sequence overlap instead of following one another.
 * Keys of grouped templates are looked up at their anchors (fc_chain_gkey).
 * scratch holds FC_CHAIN_SCRATCH * koff[n] words. */
#define FC_CHAIN_SCRATCH 3
/* allow, when not NULL, holds per position the labels the decoder may
 * give it (fc_chain_decode): a dense row then adds only those, and the
 * emissions of the other labels are left unfinished (never read). */
void fc_chain_emit_seq(const fc_chain *c, const uint64_t *keys, const uint32_t *koff, size_t n, int32_t *emit,
                       uint32_t *scratch, const uint64_t *allow);

/* A cache of rows: keys whose lookups depend only on some values (a
 * word's string, a character's small features) add the same rows wherever
 * those values occur, so a task looks them up once per distinct values
 * (k0, k1) and adds the kept rows after: R rows of n_labels, for the
 * positions -(R-1)/2 .. +(R-1)/2 around the one the keys are listed at.
 * Direct-mapped, per thread, filled on demand; the rows are those of one
 * labeller, and of another are dropped.  The sums fit in int32. */
typedef struct fc_chain_rows {
  uint64_t *e;          /* n entries of stride words: k0, k1, filled, then R x L int32 */
  size_t n, stride, R, L;
  const fc_chain *of;   /* the labeller whose weights the rows hold */
  int off;              /* no cache (its memory could not be had, or a test's reference run) */
} fc_chain_rows;
void fc_chain_rows_free(fc_chain_rows *r, const fenci_alloc *a);
/* The rows of values (k0, k1) in a cache of n entries (a power of two) of
 * R rows (odd, <= 2 * FC_CHAIN_MAX_OFF + 1); *hit says whether they are
 * kept; when not, the caller fills them with fc_chain_rows_fill.  NULL: no
 * cache (the caller looks the keys up itself). */
int32_t *fc_chain_rows_at(fc_chain_rows *r, const fc_chain *c, size_t n, size_t R, uint64_t k0, uint64_t k1, int *hit,
                          const fenci_alloc *a);
/* Fills rows (R x n_labels) with the weights of keys[0..nk), all listed at
 * the middle position, and marks the entry filled. */
void fc_chain_rows_fill(const fc_chain *c, int32_t *rows, size_t R, const uint64_t *keys, size_t nk);
/* Adds rows (R x n_labels) of position i to emit (n positions): with
 * allow, only to the positions with more than one allowed label (a fixed
 * position's emission moves every path through it alike), and their
 * allowed labels. */
void fc_chain_rows_add(const fc_chain *c, int32_t *emit, size_t n, size_t i, const int32_t *rows, size_t R,
                       const uint64_t *allow);

/* Decoder scratch, grown on demand. */
typedef struct fc_chain_work {
  uint8_t *cand;   /* beam labels per position */
  int32_t *score;  /* beam best scores per position */
  uint8_t *back;   /* beam back pointers per position */
  size_t cap;
  int32_t *pt;     /* n_labels^2: for each label the transitions from the labels
                    * that may precede it, in their order (fc_chain_decode_all) */
} fc_chain_work;
void fc_chain_work_free(fc_chain_work *w, const fenci_alloc *a);

/* The best labels of n positions with emissions emit[n * n_labels], into
 * out[n].  allow, when not NULL, holds per position a set of labels (bit l:
 * label l): the position takes one of them, as if every other label's
 * emission forbade it (those emissions are not read); a set with one label
 * fixes it, a set with none of the labels allows all.  NULL allows all
 * everywhere.  Time O(n * beam^2).  FENCI_NOMEM. */
#define FC_CHAIN_ALL (~(uint64_t)0)
fenci_rc fc_chain_decode(const fc_chain *c, const int32_t *emit, size_t n, const uint64_t *allow, uint8_t *out,
                         fc_chain_work *w, const fenci_alloc *a);

#endif
