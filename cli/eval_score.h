/*
 * eval_score.h - word-segmentation scoring core (SIGHAN 2005 bakeoff rules).
 *
 * Header-only (static inline), so the CLI and the trainer (dev-set F1) can
 * both include it without a link dependency.  No allocation, no I/O, no
 * global state: every function is pure over its arguments.
 *
 * Usage, per sentence:
 *   fc_score_word gw[..], tw[..];
 *   size_t ng = fc_score_split(gold_line, gold_len, gw, cap);   // words
 *   size_t nt = fc_score_split(test_line, test_len, tw, cap);
 *   fc_score_line(&sc, gw, ng, tw, nt, is_iv, ctx);             // accumulate
 * then fc_score_f1(&sc) etc.
 *
 * Rules:
 *   - A word is correct when its start and end offsets (over the sentence
 *     with separators removed) both equal those of a gold word.
 *   - If the two word lists do not concatenate to the same text, the line is
 *     "mismatched": every gold word counts as missed, every test word as
 *     wrong (totals still grow), and fc_score_line returns 1.
 *   - When is_iv is non-NULL each gold word is classed in-vocabulary
 *     (is_iv returns non-zero) or out-of-vocabulary, for OOV rate / recall.
 *   - A ratio whose denominator is 0 is reported as 0.
 */
#ifndef FENCI_EVAL_SCORE_H
#define FENCI_EVAL_SCORE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A word: a borrowed byte range (not NUL-terminated). */
typedef struct fc_score_word {
  const char *s;
  size_t len;
} fc_score_word;

/* Running totals.  Zero-initialise ({0}) before the first line. */
typedef struct fc_score {
  uint64_t lines;       /* lines scored */
  uint64_t mismatched;  /* lines whose characters differed */
  uint64_t gold;        /* gold words */
  uint64_t test;        /* test (system output) words */
  uint64_t correct;     /* test words matching a gold word exactly */
  uint64_t gold_oov;    /* gold words not in the vocabulary (is_iv given) */
  uint64_t correct_oov; /* of those, correctly segmented */
  uint64_t gold_iv;     /* gold words in the vocabulary (is_iv given) */
  uint64_t correct_iv;  /* of those, correctly segmented */
} fc_score;

/* Vocabulary test: non-zero when the word (len bytes) is in-vocabulary. */
typedef int (*fc_score_iv_fn)(void *ctx, const char *w, size_t len);

/* Separator at s[i..n): returns its length in bytes (0 if none).
 * Separators: ASCII whitespace (space, \t, \n, \v, \f, \r) and U+3000
 * IDEOGRAPHIC SPACE (E3 80 80), which the AS gold file uses between words. */
static inline size_t fc_score_sep_len(const char *s, size_t i, size_t n) {
  unsigned char c = (unsigned char)s[i];
  if (c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r')
    return 1;
  if (c == 0xE3 && n - i >= 3 && (unsigned char)s[i + 1] == 0x80 &&
      (unsigned char)s[i + 2] == 0x80)
    return 3;
  return 0;
}

/* Splits s[0..len) into words at separator runs.  Writes at most cap words
 * to out (out may be NULL when cap is 0) and returns the total number of
 * words; if that exceeds cap, grow out and call again. */
static inline size_t fc_score_split(const char *s, size_t len, fc_score_word *out, size_t cap) {
  size_t n = 0, i = 0;
  while (i < len) {
    size_t k = fc_score_sep_len(s, i, len);
    if (k) {
      i += k;
      continue;
    }
    size_t start = i;
    while (i < len && fc_score_sep_len(s, i, len) == 0)
      i++;
    if (n < cap) {
      out[n].s = s + start;
      out[n].len = i - start;
    }
    n++;
  }
  return n;
}

/* 1 when the two word lists concatenate to the same bytes. */
static inline int fc_score_same_text(const fc_score_word *a, size_t na,
                                     const fc_score_word *b, size_t nb) {
  size_t i = 0, j = 0, oi = 0, oj = 0; /* word index, offset inside word */
  for (;;) {
    while (i < na && oi == a[i].len) {
      i++;
      oi = 0;
    }
    while (j < nb && oj == b[j].len) {
      j++;
      oj = 0;
    }
    if (i == na || j == nb)
      return i == na && j == nb;
    size_t ra = a[i].len - oi, rb = b[j].len - oj;
    size_t k = ra < rb ? ra : rb;
    if (memcmp(a[i].s + oi, b[j].s + oj, k) != 0)
      return 0;
    oi += k;
    oj += k;
  }
}

/* Scores one sentence into *sc.  Returns 0, or 1 when the characters of the
 * two lines differ (the line then counts as all missed / all wrong). */
static inline int fc_score_line(fc_score *sc, const fc_score_word *gold, size_t ng,
                                const fc_score_word *test, size_t nt,
                                fc_score_iv_fn is_iv, void *ctx) {
  int same = fc_score_same_text(gold, ng, test, nt);
  uint64_t correct = 0;
  sc->lines++;
  sc->gold += ng;
  sc->test += nt;
  if (!same)
    sc->mismatched++;
  if (is_iv) {
    for (size_t i = 0; i < ng; i++) {
      if (is_iv(ctx, gold[i].s, gold[i].len))
        sc->gold_iv++;
      else
        sc->gold_oov++;
    }
  }
  if (!same)
    return 1;
  size_t i = 0, j = 0, gs = 0, ts = 0; /* indices and start offsets */
  while (i < ng && j < nt) {
    size_t ge = gs + gold[i].len, te = ts + test[j].len;
    if (gs == ts && ge == te) {
      correct++;
      if (is_iv) {
        if (is_iv(ctx, gold[i].s, gold[i].len))
          sc->correct_iv++;
        else
          sc->correct_oov++;
      }
      gs = ge, ts = te, i++, j++;
    } else if (ge < te) {
      gs = ge, i++;
    } else if (te < ge) {
      ts = te, j++;
    } else {
      gs = ge, ts = te, i++, j++;
    }
  }
  sc->correct += correct;
  return 0;
}

/* Adds b's totals into a (for scoring in parallel chunks). */
static inline void fc_score_add(fc_score *a, const fc_score *b) {
  a->lines += b->lines;
  a->mismatched += b->mismatched;
  a->gold += b->gold;
  a->test += b->test;
  a->correct += b->correct;
  a->gold_oov += b->gold_oov;
  a->correct_oov += b->correct_oov;
  a->gold_iv += b->gold_iv;
  a->correct_iv += b->correct_iv;
}

static inline double fc_score_ratio(uint64_t num, uint64_t den) {
  return den ? (double)num / (double)den : 0.0;
}
static inline double fc_score_precision(const fc_score *sc) {
  return fc_score_ratio(sc->correct, sc->test);
}
static inline double fc_score_recall(const fc_score *sc) {
  return fc_score_ratio(sc->correct, sc->gold);
}
static inline double fc_score_f1(const fc_score *sc) {
  double p = fc_score_precision(sc), r = fc_score_recall(sc);
  return p + r > 0.0 ? 2.0 * p * r / (p + r) : 0.0;
}
static inline double fc_score_oov_rate(const fc_score *sc) {
  return fc_score_ratio(sc->gold_oov, sc->gold_oov + sc->gold_iv);
}
static inline double fc_score_oov_recall(const fc_score *sc) {
  return fc_score_ratio(sc->correct_oov, sc->gold_oov);
}
static inline double fc_score_iv_recall(const fc_score *sc) {
  return fc_score_ratio(sc->correct_iv, sc->gold_iv);
}

#endif
