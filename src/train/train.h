/* train.h - training the segmenter: corpus readers and an averaged
 * structured perceptron over the feature groups of feat.h.  Linked into the
 * library for the CLI and bindings; not needed for inference.  Nothing here
 * prints: progress goes through a callback. */
#ifndef FC_TRAIN_H
#define FC_TRAIN_H

#include <stddef.h>
#include <stdint.h>
#include "fenci.h"

/* Corpus formats. */
enum {
  FC_CORPUS_SEG = 0, /* words separated by whitespace (CTB6 .seg, SIGHAN gold) */
  FC_CORPUS_PD,      /* People's Daily 1998: id token, word/POS, [compounds]nt */
  FC_CORPUS_MSR      /* MSRA NER wordtag: word/tag separated by spaces */
};

#define FC_CORPUS_MAX_TAGS 128
#define FC_TRAIN_MAX_ALSO 4
#define FC_CORPUS_NE_FIRST 0x80

/* A segmented corpus: sentences (one per non-empty line) concatenated in
 * text, with the byte offsets of word ends. */
typedef struct fc_corpus {
  fenci_alloc a;       /* allocator of every array */
  char *text;          /* all sentences, back to back (no separators) */
  size_t text_len;
  size_t *sent;        /* n_sent + 1 offsets into text */
  size_t *sent_w;      /* n_sent + 1 offsets into wend */
  uint32_t *wend;      /* word end offsets, relative to their sentence's start */
  size_t n_sent, n_words;
  size_t cap_text, cap_sent, cap_sent_w, cap_w; /* allocated sizes */
  /* the words' tags (pd: POS, msr: nr/ns/nt/o; index into tagname, 0 =
   * none) and, pd only, the bracketed compounds ([...]nt): wne is the
   * bracket's tag index, | FC_CORPUS_NE_FIRST on its first word, 0 outside */
  uint8_t *wtag, *wne;
  size_t cap_wt, cap_wn;
  char tagname[FC_CORPUS_MAX_TAGS][8]; /* tagname[0] = "" */
  size_t n_tagnames;
  int format;          /* FC_CORPUS_* of the last parse */
} fc_corpus;

/* "seg"/"ctb"/"sighan" -> FC_CORPUS_SEG, "pd" -> PD, "msr" -> MSR; -1 if unknown. */
int fc_corpus_format(const char *name);
void fc_corpus_init(fc_corpus *c, const fenci_alloc *a);
/* Parses text (len bytes) in the given format, appending sentences.  Bad
 * UTF-8 or overlong lines give FENCI_BADFORMAT naming the line. */
fenci_rc fc_corpus_parse(fc_corpus *c, const char *text, size_t len, int format, char *err, size_t errlen);
/* Reads a file and parses it. FENCI_IO when it cannot be read. */
fenci_rc fc_corpus_load(fc_corpus *c, const char *path, int format, char *err, size_t errlen);
void fc_corpus_free(fc_corpus *c);

/* Progress callback: one line of text (no newline); non-zero stops training. */
typedef int (*fc_train_log_fn)(void *ctx, const char *msg);

typedef struct fc_train_opts {
  int iters;             /* iterations (epochs) at most; the best on dev is kept (default 10) */
  uint64_t seed;         /* shuffling seed; same seed and data => same model bytes */
  unsigned mask;         /* feature templates (FC_FEAT_DEFAULT_MASK when 0) */
  uint32_t min_count;    /* features seen fewer times in training are dropped (default 2) */
  uint32_t sym_min_count; /* characters seen fewer times share the unknown symbol id (default 1) */
  int prune;             /* quantised weights |w| <= prune are zeroed (default 0) */
  int patience;          /* stop after this many iterations without dev gain (0: never) */
  int folds;             /* jackknife folds for the training-word lexicon (default 10) */
  const char *meta;      /* extra META lines ("key=value\n"...), or NULL */
  const char *words;     /* extra training-lexicon words, the first token of each line, or NULL */
  size_t words_len;
  /* the segmenter: corpora of other standards trained on together with
   * the target's (multi-criteria: shared weights plus one copy per
   * standard; the model gets shared + the target's), or none */
  const struct fc_corpus *const *also;
  size_t n_also;         /* at most FC_TRAIN_MAX_ALSO */
  /* the name recogniser: corpora whose entities join its gazetteer only
   * (not trained on; seen in every fold, so training meets them as new
   * text does), or none */
  const struct fc_corpus *const *names;
  size_t n_names;        /* at most FC_TRAIN_MAX_ALSO */
  fc_train_log_fn log;   /* progress, or NULL */
  void *log_ctx;
} fc_train_opts;

void fc_train_opts_init(fc_train_opts *o);

/* The trained weights as container sections. */
typedef struct fc_train_result {
  uint8_t *segh; size_t segh_len; /* SEGH section */
  uint8_t *segw; size_t segw_len; /* SEGW section */
  uint8_t *segl; size_t segl_len; /* SEGL section (training-word lexicon) or NULL */
  char *meta; size_t meta_len;    /* training description (key=value lines) */
  double dev_f1;                  /* F1 (0..1) of the kept model on dev (0 without dev) */
  int best_iter;                  /* iteration kept (1-based) */
  size_t n_groups;                /* feature groups kept */
} fc_train_result;

/* Trains on train (units built with lex's lexicon), evaluating on dev (may be
 * NULL or empty: then the last iteration is kept) after each iteration with
 * the quantised model exactly as the decoder will use it.  a is used for
 * everything (NULL = malloc).  FENCI_NOMEM, FENCI_STOPPED, FENCI_BADARG. */
fenci_rc fc_train_segmenter(const fenci_model *lex, const fc_corpus *train, const fc_corpus *dev,
                            const fc_train_opts *o, const fenci_alloc *a, fc_train_result *res,
                            char *err, size_t errlen);
void fc_train_result_free(fc_train_result *r, const fenci_alloc *a);

/* A model file image: lex's sections (any old SEGH/SEGW/META dropped), the
 * result's SEGH and SEGW, and META = lex's META followed by the result's.
 * With lex_ref (a file name), the lexicon is not copied: an LREF section
 * names that file, looked for beside the model, and lex's lexicon id. */
fenci_rc fc_train_write_model(const fenci_model *lex, const fc_train_result *r, const char *lex_ref,
                              const fenci_alloc *a, uint8_t **out, size_t *out_len, char *err, size_t errlen);

/* Trains the part-of-speech tagger (postag.h) on train's words and tags
 * (format pd), with lex's lexicon for the features, keeping the iteration
 * of best tag accuracy on dev's words.  *sec is a POSM section. */
fenci_rc fc_train_pos(const fenci_model *lex, const fc_corpus *train, const fc_corpus *dev, const fc_train_opts *o,
                      const fenci_alloc *a, uint8_t **sec, size_t *sec_len, double *dev_acc, int *best_iter,
                      char *err, size_t errlen);

/* Trains the name recogniser (nertag.h) on the entities of the n_train
 * corpora (format msr or pd), keeping the iteration of best entity F1 on
 * dev.  *sec is a NERM section, *gsec its gazetteer (NERG, nertag.h). */
fenci_rc fc_train_ner(const fenci_model *lex, const fc_corpus *const *train, size_t n_train, const fc_corpus *dev,
                      const fc_train_opts *o, const fenci_alloc *a, uint8_t **sec, size_t *sec_len, uint8_t **gsec,
                      size_t *gsec_len, double *dev_f1, int *best_iter, char *err, size_t errlen);
/* fc_train_write_section for the name recogniser's two sections (nerg may be NULL). */
fenci_rc fc_train_write_ner(const fenci_model *lex, const uint8_t *nerm, size_t nerm_len, const uint8_t *nerg,
                            size_t nerg_len, const char *meta, const fenci_alloc *a, uint8_t **out, size_t *out_len,
                            char *err, size_t errlen);

/* A model file image: lex's sections with the n sections tags[k] replaced
 * by (or added as) data[k] (NULL: only dropped), and META = lex's META
 * followed by meta (or nothing).  lex must hold its lexicon (no LREF). */
fenci_rc fc_train_write_sections(const fenci_model *lex, size_t n, const char *const *tags, const uint8_t *const *data,
                                 const size_t *lens, const char *meta, const fenci_alloc *a, uint8_t **out,
                                 size_t *out_len, char *err, size_t errlen);
/* The same for one section. */
fenci_rc fc_train_write_section(const fenci_model *lex, const char tag[4], const uint8_t *data, size_t len,
                                const char *meta, const fenci_alloc *a, uint8_t **out, size_t *out_len, char *err,
                                size_t errlen);

/* Word-level scores of a segmentation against gold (both as word end
 * offsets of the same text). */
typedef struct fc_prf {
  size_t gold, pred, correct; /* word counts */
} fc_prf;
double fc_prf_f1(const fc_prf *s);

#endif
