/* chaintrain.h - training the linear-chain labeller (src/chain.h): one
 * averaged structured perceptron for every labelling task (part-of-speech
 * tags, entities).  A task turns its corpus into sequences of positions,
 * each with its feature keys and gold label; this core counts and keeps
 * the features, trains, quantises, and returns the labeller section. */
#ifndef FC_CHAINTRAIN_H
#define FC_CHAINTRAIN_H

#include <stddef.h>
#include <stdint.h>
#include "fenci.h"
#include "train/train.h"

/* Sequences of positions stored flat. */
typedef struct fc_chain_data {
  fenci_alloc a;
  uint64_t *key;  /* feature keys of every position */
  size_t n_key, cap_key;
  size_t *koff;   /* n_pos + 1 offsets into key */
  uint8_t *gold;  /* n_pos labels */
  size_t n_pos, cap_pos, cap_gold;
  size_t *seq;    /* n_seq + 1 offsets into the positions */
  size_t n_seq, cap_seq;
} fc_chain_data;

void fc_chain_data_init(fc_chain_data *d, const fenci_alloc *a);
void fc_chain_data_free(fc_chain_data *d);
/* Appends a position of the current sequence; 0 or -1 (no memory). */
int fc_chain_data_add(fc_chain_data *d, const uint64_t *keys, size_t n, uint8_t gold);
/* Ends the current sequence (nothing when it is empty); 0 or -1. */
int fc_chain_data_end(fc_chain_data *d);

/* Dev score of the labels pred[dev->n_pos], higher is better. */
typedef double (*fc_chain_score_fn)(void *ctx, const fc_chain_data *dev, const uint8_t *pred);

typedef struct fc_chain_opts {
  uint32_t n_labels;           /* 1..FC_CHAIN_MAX_LABELS */
  const char *const *labels;   /* their names */
  uint32_t beam;               /* labels per position in the search (0: all) */
  uint32_t train_beam;         /* the same while training (0: beam); a wider search lets the
                                * updates see and push down labels the narrow one drops */
  const uint8_t *forbid;       /* n_labels^2: forbid[prev * n + cur] = 1 never follows, or NULL */
  const uint8_t *forbid_start; /* n_labels: never first, or NULL */
  const uint8_t *forbid_end;   /* n_labels: never last, or NULL */
  uint32_t feature_version;    /* the task's, stored in the header */
  uint64_t group_mask;         /* bit t: template t is grouped (fc_chain_gkey keys) */
  int iters;                   /* at most (default 10); the best on dev is kept */
  int patience;                /* stop after this many iterations without a dev gain (0: never) */
  uint64_t seed;               /* shuffling; same data and seed => same bytes */
  uint32_t min_count;          /* features seen fewer times in training are dropped */
  int prune;                   /* quantised weights |q| <= prune are dropped */
  fc_chain_score_fn score;     /* NULL: label accuracy */
  void *score_ctx;
  fc_train_log_fn log;
  void *log_ctx;
} fc_chain_opts;

/* Zeroes *co and copies the task-independent training options of o
 * (iterations, patience, seed, min_count, prune, progress). */
void fc_chain_opts_init(fc_chain_opts *co, const fc_train_opts *o);

/* Trains on train, keeping the iteration that scores best on dev (the
 * labeller exactly as it is stored; without dev the last).  *sec is the
 * section (allocated with a).  FENCI_NOMEM, FENCI_BADARG, FENCI_STOPPED. */
fenci_rc fc_chain_train(const fc_chain_data *train, const fc_chain_data *dev, const fc_chain_opts *o,
                        const fenci_alloc *a, uint8_t **sec, size_t *sec_len, double *dev_score, int *best_iter,
                        char *err, size_t errlen);

/* Decodes every sequence of d with labeller section sec into pred[d->n_pos]. */
fenci_rc fc_chain_label_all(const uint8_t *sec, size_t sec_len, const fc_chain_data *d, uint8_t *pred,
                            const fenci_alloc *a);

#endif
