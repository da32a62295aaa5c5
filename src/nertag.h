/* nertag.h - person, place and organisation names: a character labeller
 * (chain.h, section "NERM") with BIOES labels, so entity spans are spans
 * of characters of the text, whatever the segmentation.  The features
 * (shared by training and use) are characters and character pairs around
 * each position, character classes, the lexicon's words that begin, end
 * or cover the position with their tags (nr, ns, nt...) and the words
 * around it, and the entity strings of the training corpus (the
 * gazetteer, section NERG) that begin, end or cover it. */
#ifndef FC_NERTAG_H
#define FC_NERTAG_H

#include <stddef.h>
#include <stdint.h>
#include "chain.h"
#include "fenci.h"

/* 2: the character and pair templates grouped (chain.h); 3: the gazetteer, word context;
 * 4: the gazetteer's types around the character, no lexicon tags of ending or covering words with it */
#define FC_NER_FEATURE_VERSION 4
#define FC_NER_MAX_KEYS 27
#define FC_NER_MAX_SEQ 300 /* characters per decoded piece; a sentence is cut at punctuation first */
#define FC_NER_CTX 32      /* characters of context around a piece cut at FC_NER_MAX_SEQ (fc_ner_tag) */
#define FC_NER_N_LABELS 13

struct fenci_model;

/* The gazetteer (section NERG): the entity strings of the training corpus,
 * each with the folds of the corpus it was seen in per type, so training
 * can leave out the fold being labelled (a jackknife: at training time the
 * gazetteer covers a sentence's names as it covers unseen text).  An
 * open-addressing table over the hashes of every entity string AND of each
 * proper prefix (a walk stops at the first string that is neither), slots
 * of u32 fingerprint (low 32 bits of the hash, 0 -> 1; 0 = empty) and u32
 * value: FC_NER_FOLDS fold bits per type (PER, LOC, ORG) and
 * FC_NER_GPREFIX.  Home slot ((h >> 32) * n_slots) >> 32, linear probing
 * for at most max_probe more slots.  Section: "FCNG", u32 version, u32
 * n_slots, u32 max_probe, then the slots. */
#define FC_NER_FOLDS 10
#define FC_NER_GPREFIX 0x80000000u
#define FC_NER_GMAX 24 /* longest entity string kept, in characters */
#define FC_NER_GAZ_VERSION 1
typedef struct fc_ner_gaz {
  const uint8_t *slots; /* n_slots * 8 bytes */
  uint32_t n_slots, max_probe;
} fc_ner_gaz;
/* Hash of a string of normalised characters, one character at a time from h = 0. */
static inline uint64_t fc_ner_gstep(uint64_t h, uint32_t cp) {
  return fc_chain_mix(h ^ ((uint64_t)cp << 16 | 0x9E37u));
}
/* The value of hash h, 0 when absent. */
uint32_t fc_ner_gaz_find(const fc_ner_gaz *g, uint64_t h);
/* Views a NERG section; FENCI_BADFORMAT when inconsistent. */
fenci_rc fc_ner_gaz_view(fc_ner_gaz *g, const uint8_t *p, size_t size);
/* The character normalisation of the features (and of the gazetteer's strings). */
uint32_t fc_ner_norm(uint32_t cp);

/* Label i of the 13: 0 "O", then B I E S of PER, LOC, ORG. */
extern const char *const fc_ner_labels[FC_NER_N_LABELS];
/* Entity type (1 PER, 2 LOC, 3 ORG) and position (0 B, 1 I, 2 E, 3 S) of a label > 0. */
static inline int fc_ner_type(unsigned l) { return l ? (int)((l - 1) / 4) + 1 : 0; }
static inline int fc_ner_pos(unsigned l) { return l ? (int)((l - 1) % 4) : -1; }
static inline unsigned fc_ner_label(int type, int pos) { return (unsigned)((type - 1) * 4 + pos + 1); }

/* Per-thread scratch, grown on demand. */
typedef struct fc_ner_work {
  uint32_t *cp;      /* normalised code points of the piece */
  uint8_t *cls;      /* their classes */
  uint8_t *lb, *le, *lm; /* longest lexicon word beginning / ending / strictly covering: length (<= 7) */
  uint8_t *tb, *te, *tm; /* ... and its tag class */
  uint32_t *wb, *we; /* lexicon index of the longest word beginning / ending at the character, or ~0 */
  uint8_t *gb, *ge, *gm; /* longest gazetteer string beginning / ending / strictly covering: length (capped) */
  uint8_t *gtb, *gte, *gtm; /* ... its types (bit per type) */
  const fc_ner_gaz *gaz; /* the trainer's gazetteer (else the model's) */
  int fold;              /* the trainer's fold of the text prepared plus 1; 0: every fold counts */
  uint8_t *norm;     /* normalised UTF-8 of the piece */
  uint32_t *noff;    /* character offsets into norm */
  size_t cap, ncap;
  uint64_t *keys;
  uint32_t *koff, *kscratch;
  int32_t *emit;
  uint64_t *allow;   /* per character the labels it may take (fc_ner_tag), or unused */
  uint8_t *lab;      /* the labels of a piece with its context */
  size_t kcap;
  fc_chain_work cw;
  /* the summed weights of the keys that read only small values of a
   * character (fc_ner_tag), cached by those values */
  fc_chain_rows small;
} fc_ner_work;

void fc_ner_work_free(fc_ner_work *w, const fenci_alloc *a);

/* Characters cps[0..n) of one piece (code points as in the text; invalid
 * bytes as 0xFFFD): normalises them and finds the lexicon words over them. */
fenci_rc fc_ner_prepare(fc_ner_work *w, const struct fenci_model *m, const uint32_t *cps, size_t n,
                        const fenci_alloc *a);
/* The keys of character i of the n prepared ones; their count. */
size_t fc_ner_keys(const fc_ner_work *w, size_t n, size_t i, uint64_t *keys, int which);
/* which: every template (training), all but the small ones (the decoder,
 * which caches their sum: fc_ner_tag; without the grouped members that
 * fc_chain_emit_seq skips), or only those */
enum { FC_NER_KEYS_ALL, FC_NER_KEYS_LARGE, FC_NER_KEYS_SMALL };
/* The grouped templates of fc_ner_keys (fc_chain_opts.group_mask). */
extern const uint64_t fc_ner_groups;
/* The length of the first piece of cps[0..n) that is labelled alone:
 * through the next sentence end (。！？；!?; or a line end), at most
 * FC_NER_MAX_SEQ characters.  Training cuts its sentences the same way. */
size_t fc_ner_piece(const uint32_t *cps, size_t n);

/* Labels the n characters with labeller c into labels[n]. */
fenci_rc fc_ner_tag(const struct fenci_model *m, const fc_chain *c, fc_ner_work *w, const uint32_t *cps, size_t n,
                    uint8_t *labels, const fenci_alloc *a);

#endif
