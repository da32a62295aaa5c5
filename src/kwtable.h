/* kwtable.h - the keyword tables a model may carry: "KIDF", a quantised
 * IDF value per lexicon word, and "KSTP", the default stop-word list
 * (layouts in docs/FORMAT.md).  Reading them at model load, looking words
 * up, and building the two sections (for `fenci idf`).  Internal. */
#ifndef FC_KWTABLE_H
#define FC_KWTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "fenci.h"
#include "buf.h"
#include "fmt.h"

#define FC_KIDF_HEAD 16 /* bytes before the per-word values */
#define FC_KSTP_HEAD 8  /* bytes before the offset table */
#define FC_KW_MAX_WORD 255 /* longest stop word or IDF key, in bytes */

typedef struct fc_kwtable {
  const uint8_t *idf;   /* KIDF values: n_words u16 (LE), 0 = no value; NULL when absent */
  uint32_t idf_docs;    /* documents the table was counted over (informational) */
  float idf_median;     /* the value of a word without one (jieba's rule) */
  float idf_scale;      /* value = (q - 1) / scale for a stored q >= 1 */
  const uint8_t *stop_off;   /* KSTP: n_stop + 1 u32 (LE) offsets into stop_bytes; NULL when absent */
  const uint8_t *stop_bytes; /* the words, folded (FENCI_FOLD_ALL), sorted bytewise */
  uint32_t n_stop;           /* number of stop words */
} fc_kwtable;

/* Finds and validates the KIDF and KSTP sections of f (both optional) for a
 * lexicon of n_words words: KIDF must have exactly one value per word, a
 * finite median and scale; KSTP offsets must lie in the section and its
 * words be 1..255 bytes in strictly increasing order (so lookups can
 * bisect it).  FENCI_OK or FENCI_BADFORMAT with a message in err. */
fenci_rc fc_kwtable_view(fc_kwtable *k, const fc_file *f, size_t n_words, char *err, size_t errlen);

/* The IDF of lexicon word w: 1 and *idf when the table has a value, else 0. */
int fc_kwtable_idf(const fc_kwtable *k, uint32_t w, double *idf);

/* 1 when the folded word s[0..n) is in the stop list. */
int fc_kwtable_is_stop(const fc_kwtable *k, const uint8_t *s, size_t n);

/* Folds a word for IDF lookup (full-width and traditional forms, as the
 * segmenter normalises text) into out (cap >= 4 * FC_KW_MAX_WORD + 4) and
 * gives its length, or 0 when the word is empty or too long to be a key.
 * fold_all adds case folding (stop words compare folded, as jieba lowercases). */
size_t fc_kw_fold(const uint8_t *s, size_t n, int fold_all, uint8_t *out, size_t cap);

/* The lexicon index of word s[0..n) as the token text (folded with
 * fc_kw_fold): 1 and *w, or 0. */
int fc_kw_lexicon_word(const fenci_model *m, const uint8_t *s, size_t n, uint32_t *w);

/* The next line of a word list (text[*pos..]): 1 with the line, without
 * its end, spaces and tabs around it, and on the first line (*no counts
 * them, from 0) a UTF-8 byte-order mark; 0 at the end. */
int fc_kw_line(const char *text, size_t len, size_t *pos, size_t *no, const uint8_t **line, size_t *n);

/* Builds the KIDF section from document frequencies: df[w] documents of
 * n_docs hold lexicon word w (n_words words).  idf = ln(n_docs / df) for
 * df > 0; the median is that of the words with df > 0 (the value at
 * index count / 2 of the sorted values).  Appends to out. */
fenci_rc fc_kidf_build(const uint32_t *df, size_t n_words, uint32_t n_docs, fc_buf *out, double *median);

/* Builds the KSTP section from stop-word text (one word a line, UTF-8;
 * blank lines and lines starting with '#' skipped; spaces around a word
 * trimmed): words folded, sorted, duplicates dropped.  *n gets the count.
 * FENCI_BADFORMAT for invalid UTF-8 or a word over 255 bytes (line named). */
fenci_rc fc_kstp_build(const char *text, size_t len, const fenci_alloc *a, fc_buf *out, size_t *n, char *err,
                       size_t errlen);

#endif
