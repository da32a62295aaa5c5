/* postag.h - part-of-speech tags in context: the features of a word in its
 * sentence (shared by training and tagging, so they cannot drift apart)
 * and the tagging of a word sequence with the labeller of section "POSM"
 * (chain.h).  The tagger works on words of any segmentation standard: its
 * features are the word, its neighbours, its first and last characters and
 * the lexicon's tag, so words it never saw still get tags. */
#ifndef FC_POSTAG_H
#define FC_POSTAG_H

#include <stddef.h>
#include <stdint.h>
#include "chain.h"
#include "fenci.h"

#define FC_POS_FEATURE_VERSION 3 /* 2: the tag dictionary; 3: grouped templates (chain.h) */
#define FC_POS_MAX_KEYS 32
#define FC_POS_MAX_SEQ 400 /* words per decoded sequence; longer runs are cut */
#define FC_POS_CTX 32 /* context words decoded on either side of a piece or a chunk */
#define FC_POS_CTX_BYTES 4096 /* ... and at most this many bytes of them before a chunk */
#define FC_POS_FIXED_MIN 20 /* a word seen this often with one label only keeps it unscored */
/* A word seen this often in training takes only the labels it had there
 * (the tag dictionary), and one with a single label is then fixed: chosen
 * on the dev days (01-25..27, the tagger trained on 01-01..24), 96.26% ->
 * 96.31% at 5 (96.29% at 2 and 20, 96.27% at 100), and its rows add only
 * those labels. */
#define FC_POS_DICT_MIN 5
/* Word types whose own rows a thread keeps (a power of two), and the rows
 * of one: offsets -2..+2, the reach of a word's own features (the words
 * at -2..+2 and the characters of the neighbours, grouped at the word). */
#define FC_POS_CACHE 1024
#define FC_POS_CACHE_ROWS 5

struct fenci_model;

/* The tag dictionary that follows the labeller in section POSM (docs/FORMAT.md):
 * per training word, the set of labels it had and how often it occurred
 * (a frequency class).  Its features let rare words keep the tags they
 * had, and the label set is a word class that generalises contexts. */
#define FC_POSD_MAGIC "FCPD"
#define FC_POSD_HEAD 16
#define FC_POSD_LOW 0x00FFFFFFFFFFFFFFull /* a slot key's word hash; its top byte is the frequency class */
typedef struct fc_pos_dict {
  const uint8_t *slots; /* n_slots x (u64 key, u64 label set); key 0: empty */
  uint32_t n_slots, max_probe; /* n_slots a power of two */
} fc_pos_dict;

/* Views the dictionary of POSM section sec whose labeller is c; checks
 * the feature version too (a model of other features must be retrained). */
fenci_rc fc_pos_dict_view(fc_pos_dict *d, const fc_section *sec, const fc_chain *c, char *err, size_t errlen);

/* The frequency class of a word seen c times in training (0: never). */
static inline uint8_t fc_pos_freq_class(uint32_t c) {
  return (uint8_t)(c == 0 ? 0 : c == 1 ? 1 : c < 5 ? 2 : c < 20 ? 3 : c < 100 ? 4 : 5);
}

/* A word to tag: its bytes and its token kind (FENCI_KIND_*). */
typedef struct fc_posword {
  const uint8_t *s;
  size_t len;
  uint16_t kind;
} fc_posword;

/* Per-thread scratch, grown on demand. */
typedef struct fc_pos_work {
  uint8_t *norm;     /* normalised bytes of the words, back to back */
  size_t norm_cap;
  uint32_t *noff;    /* n + 1 offsets into norm */
  uint32_t *first, *last, *first2, *last2; /* normalised first/last (two) characters, as hashes */
  uint16_t *nch;     /* characters per word */
  uint16_t *lextag;  /* the lexicon's tag id of the word (0: not a lexicon word) */
  uint64_t *wh;      /* hash of the normalised word (fc_pos_hash) */
  uint64_t *amb;     /* labels the word had in training (0: unknown), from the dictionary */
  uint8_t *ambf;     /* its frequency class (fc_pos_freq_class) */
  uint64_t *allow;   /* the labels a word may take (fc_pos_tag; FC_CHAIN_ALL: any) */
  size_t cap;
  uint64_t *keys;    /* FC_POS_MAX_KEYS per word */
  uint32_t *koff;    /* n + 1 offsets into keys */
  uint32_t *kscratch; /* FC_CHAIN_SCRATCH * FC_POS_MAX_KEYS per word */
  int32_t *emit;
  uint8_t *lab;
  size_t kcap;
  fc_chain_work cw;
  /* The rows of a word type's own keys (fc_pos_own_keys): they do not
   * depend on its neighbours, so they are looked up once per type and
   * kept, by word hash, kind and characters (fc_pos_own_rows); a hit
   * replaces about 15 lookups in the weight table with 5 rows added from
   * the cache. */
  fc_chain_rows own;
} fc_pos_work;

void fc_pos_work_free(fc_pos_work *w, const fenci_alloc *a);

/* Normalises words[0..n) (full-width to ASCII, traditional to simplified,
 * lower case, digits to 0) and looks them up in m's lexicon and, when m
 * has a tagger, in its tag dictionary (training fills amb itself). */
fenci_rc fc_pos_prepare(fc_pos_work *w, const struct fenci_model *m, const fc_posword *words, size_t n,
                        const fenci_alloc *a);

/* The hash of a normalised word (the tag dictionary's key, never 0 in its
 * low 56 bits). */
static inline uint64_t fc_pos_hash(const uint8_t *s, size_t len) { return fc_chain_hash(FC_CHAIN_H0, s, len) | 0x100; }

/* The feature keys of word i of the n prepared words; returns their count
 * (at most FC_POS_MAX_KEYS).  decode FC_POS_TRAIN: every key; FC_POS_DECODE:
 * without the grouped members that fc_chain_emit_seq skips;
 * FC_POS_CONTEXT: those without the word's own (fc_pos_own_keys). */
enum { FC_POS_TRAIN, FC_POS_DECODE, FC_POS_CONTEXT };
size_t fc_pos_keys(const fc_pos_work *w, const fc_posword *words, size_t n, size_t i, uint64_t *keys, int decode);
/* The keys of word i that depend on the word alone (its string, kind,
 * lexicon tag and dictionary entry), grouped ones as anchors: with those
 * of FC_POS_CONTEXT, the keys of FC_POS_DECODE. */
size_t fc_pos_own_keys(const fc_pos_work *w, const fc_posword *words, size_t n, size_t i, uint64_t *keys);
/* The grouped templates of fc_pos_keys (fc_chain_opts.group_mask). */
extern const uint64_t fc_pos_groups;

/* Tags words[0..n) with labeller c into labels[n] (label indexes of c);
 * sequences longer than FC_POS_MAX_SEQ are tagged in pieces.  A work w
 * serves one model m (its cache keeps rows of m's words; a tagger's model
 * never changes). */
fenci_rc fc_pos_tag(const struct fenci_model *m, const fc_chain *c, fc_pos_work *w, const fc_posword *words,
                    size_t n, uint8_t *labels, const fenci_alloc *a);

#endif
