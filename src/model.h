/* model.h - the loaded model: a validated view over one container file that
 * holds the lexicon (trie, word costs, tags, OOV character model) and
 * optionally trained segmenter weights. Internal to the library. */
#ifndef FC_MODEL_H
#define FC_MODEL_H

#include <stdatomic.h>
#include <string.h>

#include "fenci.h"
#include "fmt.h"
#include "dat.h"
#include "segmodel.h"
#include "oov.h"
#include "lexnext.h"
#include "pairs.h"
#include "kwtable.h"
#include "postag.h"
#include "bigram.h"

#define FC_UNK_LO 0x4E00u /* the unknown-word table covers the main CJK block */
#define FC_UNK_HI 0x9FFFu
#define FC_NO_NODE 0xFFFFFFFFu

struct fenci_model {
  fenci_alloc a;          /* allocator the model was opened with */
  fc_mapping map;         /* the file image when opened from a path */
  fc_mapping lexmap;      /* the lexicon file's image when the model references one (LREF) */
  fc_section lex_meta;    /* that file's META (data NULL when none) */
  fc_file file;           /* parsed container */
  fc_dat trie;            /* LEXT: words -> word index */
  size_t n_words;         /* number of lexicon words */
  const float *cost;      /* LEXC: -ln P(word), n_words floats (LE) */
  const uint16_t *tag;    /* LEXG: tag id per word, n_words (LE) */
  float oov_cost;         /* cost of an unknown single character */
  double total;           /* LEXH: the lexicon source's frequencies summed (costs are ln total - ln freq) */
  const char *tag_names;  /* TAGS: NUL-separated names; id 1 is the first */
  size_t n_tags;          /* number of tag names */
  const char **tag_index; /* tag id -> name, n_names + 1 entries */
  const char *meta;       /* META text, NUL-terminated copy or "" */
  size_t meta_len;
  char *meta_copy;        /* owned copy of META */
  fc_oov oov;             /* HMMC: unknown-word character model */
  int has_oov;            /* 1 when the file has an HMMC section */
  float *unk_lp;          /* log P(c | tag) for c in FC_UNK_LO..FC_UNK_HI, 4 per char
                           * (FC_TAG_*), NULL until fc_model_unk_table has made it;
                           * read after unk_ready (acquire) or under the lock */
  atomic_int unk_ready;   /* 1 once unk_lp is made (fc_model_unk_table) */
  double unk_base;        /* base cost of an unknown word */
  double unk_cap;         /* candidates costing more are not proposed */
  float unk_min_e;        /* the smallest -log P(c | E) in the table: a bound for pruning */
  fc_segmodel *seg;       /* trained segmenter or NULL */
  struct fc_chain *pos;   /* POSM: part-of-speech tagger or NULL */
  fc_pos_dict pos_dict;   /* its tag dictionary (after the labeller in POSM) */
  struct fc_chain *ner;   /* NERM: name recogniser or NULL */
  struct fc_ner_gaz *nerg; /* NERG: its gazetteer or NULL */
  uint16_t pos_tag[64];   /* POS label -> tag id (fenci_tag_name) */
  uint16_t tag_nr, tag_nrfg; /* the ids of the tags nr and nrfg (0: none) */
  size_t n_names;         /* tag ids 1..n_names: the lexicon's n_tags, then POS tags it lacks */
  fc_pairs pairs;         /* LEX2: two-character index (slots NULL when absent) */
  fc_lexnext next;        /* LEXN: next-character filter (blocks NULL when absent) */
  fc_bigram bigram;       /* LEXB: word bigrams for overlapping ambiguities (slots NULL when absent) */
  fc_kwtable kw;          /* KIDF, KSTP: keyword IDF values and stop words (each may be absent) */
  int verify_crc;         /* verify the body CRC while opening (FENCI_OPEN_VERIFY) */
  uint32_t *first;        /* FC_UNK_LO..FC_UNK_HI, two words each: the trie node after
                           * the character's three bytes (FC_NO_NODE when no word
                           * starts with it) and the character's own word index
                           * (FC_NO_NODE when it is no word); 0 0 until the
                           * character is first looked up (fc_model_first) */
  atomic_int first_all;   /* 1 once every entry of first is filled (fc_model_first_all) */
};

/* The container the model was read from (for tools that copy sections). */
static inline const fc_file *fc_model_file(const fenci_model *m) { return &m->file; }

/* Sanitised per-word lookups (word indexes come from the trie): a corrupt
 * table cannot poison the best-path search (NaN or huge costs fall back to
 * the unknown cost, bad tag ids to 0). */
static inline float fc_model_cost(const fenci_model *m, uint32_t w) {
  uint32_t b;
  float c;
  if (w >= m->n_words) return m->oov_cost;
  b = fc_rd32((const uint8_t *)(m->cost + w));
  memcpy(&c, &b, 4);
  return (c >= 0 && c < 1000) ? c : m->oov_cost;
}

static inline uint16_t fc_model_tag(const fenci_model *m, uint32_t w) {
  uint16_t t;
  if (w >= m->n_words) return 0;
  t = fc_rd16((const uint8_t *)(m->tag + w));
  return t <= m->n_tags ? t : 0;
}
uint16_t fc_model_tag_id(const fenci_model *m, const char *name, size_t len);

/* The first-character entry of cp (FC_UNK_LO..FC_UNK_HI; m->first is not
 * NULL): fe[0] the node, fe[1] the word.  Filled on first use, not at
 * open: computing all 20,992 walked the trie's pages for characters a run
 * may never see (half of a one-line run's page faults, 2.4 ms here).  An
 * entry is written once, under a lock: the word, then the node with
 * release order; a node read as 0 (the root, never a character's) means
 * not yet.  Compilers without the GNU atomic built-ins fill every entry
 * at open instead. */
#if defined(__GNUC__)
#define FC_FIRST_LAZY 1
#endif
void fc_model_first_fill(const fenci_model *m, uint32_t cp, uint32_t fe[2]);
static inline void fc_model_first(const fenci_model *m, uint32_t cp, uint32_t fe[2]) {
  const uint32_t *e = m->first + 2 * (cp - FC_UNK_LO);
#if FC_FIRST_LAZY
  if ((fe[0] = __atomic_load_n(&e[0], __ATOMIC_ACQUIRE)) == 0) {
    fc_model_first_fill(m, cp, fe);
    return;
  }
#else
  fe[0] = e[0];
#endif
  fe[1] = e[1]; /* written before the node was (release) */
}
/* Fills every entry, once per model: after it returns 0 to a thread, that
 * thread reads any entry as it is (m->first), as the lexicon
 * mode's tight loop does, where the check cost 2.5 % of its instructions
 * (the trained path's loss to it is lost in its feature work).  -1 when
 * the lock could not be taken. */
int fc_model_first_all(const fenci_model *m);

/* Whether a pass reads the entries unchecked (1): they are all filled
 * already, or now, when its caller has read n >= FC_FIRST_ALL_MIN units in
 * all; filling all of them reads 21,000 trie steps (a third of a one-line
 * lexicon-mode run's start-up), which a short text does not repay.  0:
 * read them through fc_model_first; -1 when the lock could not be taken. */
#define FC_FIRST_ALL_MIN 4096
int fc_model_first_for(const fenci_model *m, size_t n);

/* The unknown-word model's dense table (unk_lp above), built by the first
 * call that needs it: the lexicon mode alone reads it, and a model opened
 * for anything else never pays for its 336 KB (82 page faults, a tenth of
 * a one-line run's).  NULL when the model has no such model (has_oov 0),
 * or with *rc FENCI_NOMEM when the table could not be made (a later call
 * tries again). */
const float *fc_model_unk_table(const fenci_model *m, fenci_rc *rc);

#endif
