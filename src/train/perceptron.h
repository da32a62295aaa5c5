/* perceptron.h - the averaged structured perceptron that trains every
 * model: the segmenter (segtrain.c), and through the labeller core
 * (chaintrain.c) the part-of-speech tagger and the name recogniser.
 *
 * It owns what the tasks share: weights averaged exactly in integers (avg =
 * w - acc / clock, acc summing clock * delta, so no pass over all weights
 * per example), the clock, the order of the examples (one generator: a seed
 * gives the same model on every machine), and the loop of iterations with
 * the dev-chosen iteration and early stopping.  A task brings its features,
 * its decoder and how its model is stored, through the callbacks of
 * fc_pcp_task. */
#ifndef FC_PERCEPTRON_H
#define FC_PERCEPTRON_H

#include <stddef.h>
#include <stdint.h>
#include "fenci.h"

/* n weights and their averaging sums. */
typedef struct fc_avg {
  int32_t *w;   /* the current weights (what the decoder uses while training) */
  int64_t *acc; /* per weight, the sum of clock * delta over its updates */
  size_t n;
} fc_avg;

/* n zero weights; 0, or -1 when out of memory (v is then empty). */
int fc_avg_init(fc_avg *v, size_t n, const fenci_alloc *a);
void fc_avg_free(fc_avg *v, const fenci_alloc *a);

/* Weight i moves by delta at the given clock. */
static inline void fc_avg_add(fc_avg *v, size_t i, int32_t delta, int64_t clock) {
  v->w[i] += delta;
  v->acc[i] += clock * delta;
}

/* The average of weight i over the clock - 1 examples seen. */
static inline double fc_avg_value(const fc_avg *v, size_t i, int64_t clock) {
  return (double)v->w[i] - (double)v->acc[i] / (double)clock;
}

/* One iteration's figures, for the task's progress line. */
typedef struct fc_pcp_iter {
  int iter, iters;
  size_t examples_wrong; /* examples with a position decoded wrong */
  size_t wrong, total;   /* positions decoded wrong, and in all */
  double score;          /* the snapshot's dev score (the iteration number without dev) */
} fc_pcp_iter;

typedef struct fc_pcp_task {
  void *ctx;
  size_t n_examples;
  int has_dev;
  /* Decodes example x with the current weights and, where that is wrong,
   * updates them at clock (fc_avg_add); sets *wrong and *total (0 on
   * entry) to its positions decoded wrong and in all. */
  fenci_rc (*learn)(void *ctx, size_t x, int64_t clock, size_t *wrong, size_t *total);
  /* Builds the model of the averaged weights at clock exactly as it will be
   * stored and, with dev data, sets *score (higher is better). */
  fenci_rc (*snapshot)(void *ctx, int64_t clock, double *score);
  /* keep: the last snapshot is the best so far (the task keeps it and drops
   * the one before); else the task drops it. */
  void (*choose)(void *ctx, int keep);
  /* After each iteration (may be NULL); non-zero stops training. */
  int (*report)(void *ctx, const fc_pcp_iter *it);
} fc_pcp_task;

typedef struct fc_pcp_opts {
  int iters;     /* at most (0: 10) */
  int patience;  /* stop after this many iterations without a dev gain (0: never) */
  uint64_t seed; /* the order of the examples in each iteration */
} fc_pcp_opts;

typedef struct fc_pcp_result {
  int best_iter;     /* the iteration kept */
  double best_score; /* its dev score (0 without dev) */
  int ran;           /* iterations run (patience may stop early) */
} fc_pcp_result;

/* Runs the iterations: every example once per iteration in a shuffled
 * order, then a snapshot; the best snapshot on dev is kept (without dev
 * the last; the first whatever its score, so one is always kept).  FENCI_OK, FENCI_NOMEM, FENCI_STOPPED (report asked to stop)
 * or what a callback returned. */
fenci_rc fc_pcp_train(const fc_pcp_task *t, const fc_pcp_opts *o, const fenci_alloc *a, fc_pcp_result *r);

#endif
