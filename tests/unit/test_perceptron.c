/* test_perceptron.c - the perceptron core every trainer uses
 * (src/train/perceptron.h): exact averaging, the loop of iterations (each
 * example once per iteration, a seed's order, the dev-chosen iteration,
 * patience, stopping) and allocation failures, in the core and in the
 * labeller trainer built on it. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "alloc.h"
#include "chain.h"
#include "train/chaintrain.h"
#include "train/perceptron.h"

/* The averages are those of the weights before each example, exactly. */
static void test_avg(void) {
  fc_avg v;
  double sum[3] = {0, 0, 0};
  int32_t cur[3] = {0, 0, 0};
  int64_t clock;
  unsigned r = 7;
  size_t i;
  INT_EQ(fc_avg_init(&v, 3, NULL), 0);
  for (clock = 1; clock <= 200; clock++) {
    for (i = 0; i < 3; i++) sum[i] += cur[i]; /* the weights this example sees */
    r = r * 1103515245u + 12345u;
    if ((r >> 16) % 3 == 0) {
      int32_t d = (int32_t)((r >> 8) % 5) - 2;
      i = (r >> 20) % 3;
      fc_avg_add(&v, i, d, clock);
      cur[i] += d;
    }
  }
  for (i = 0; i < 3; i++) {
    /* at clock 201: the mean of the weights before examples 1..201 */
    double all = sum[i] + cur[i], g = fc_avg_value(&v, i, 201);
    INT_EQ(v.w[i], cur[i]);
    OK(g * 201.0 - all < 1e-9 && all - g * 201.0 < 1e-9, "weight %zu: average %f, want %f", i, g, all / 201.0);
  }
  fc_avg_free(&v, NULL);
  OK(v.w == NULL && v.acc == NULL, "freed");
}

/* ---- a scripted task: records the visits, scores iterations from a list */
#define TP_N 50
typedef struct tp_task {
  int visits[16][TP_N];
  size_t order[16][TP_N];
  size_t at;
  int iter;            /* the iteration being run (1-based) */
  const double *scores;
  int kept[16], dropped[16], stop_at, fail_learn_at, learned;
  int64_t last_clock;
} tp_task;

static fenci_rc tp_learn(void *ctx, size_t x, int64_t clock, size_t *wrong, size_t *total) {
  tp_task *t = ctx;
  if (t->at == 0) t->iter++;
  if (++t->learned == t->fail_learn_at) return FENCI_NOMEM;
  t->visits[t->iter][x]++;
  t->order[t->iter][t->at] = x;
  t->at = (t->at + 1) % TP_N;
  OK(clock == t->last_clock + 1, "the clock counts the examples (%lld after %lld)", (long long)clock,
     (long long)t->last_clock);
  t->last_clock = clock;
  *total = 2;
  *wrong = x % 5 == 0; /* ten examples with a position wrong */
  return FENCI_OK;
}

static fenci_rc tp_snapshot(void *ctx, int64_t clock, double *score) {
  tp_task *t = ctx;
  OK(clock == (int64_t)t->iter * TP_N + 1, "snapshot at clock %lld", (long long)clock);
  *score = t->scores ? t->scores[t->iter - 1] : -5;
  return FENCI_OK;
}

static void tp_choose(void *ctx, int keep) {
  tp_task *t = ctx;
  if (keep) t->kept[t->iter]++;
  else t->dropped[t->iter]++;
}

static int tp_report(void *ctx, const fc_pcp_iter *it) {
  tp_task *t = ctx;
  INT_EQ(it->iter, t->iter);
  INT_EQ(it->examples_wrong, 10);
  INT_EQ(it->wrong, 10);
  INT_EQ(it->total, 2 * TP_N);
  return it->iter == t->stop_at;
}

static fc_pcp_task tp_make(tp_task *t, int has_dev) {
  return (fc_pcp_task){.ctx = t, .n_examples = TP_N, .has_dev = has_dev, .learn = tp_learn,
                       .snapshot = tp_snapshot, .choose = tp_choose, .report = tp_report};
}

static void test_loop(void) {
  static const double sc[] = {0.5, 0.7, 0.6, 0.7, 0.65, 0.9, 0.9, 0.9, 0.9, 0.9};
  tp_task *t = calloc(1, sizeof *t), *u = calloc(1, sizeof *u);
  fc_pcp_task k;
  fc_pcp_opts o = {10, 3, 42};
  fc_pcp_result r;
  int i, x, moved = 0;
  t->scores = sc;
  k = tp_make(t, 1);
  INT_EQ(fc_pcp_train(&k, &o, NULL, &r), FENCI_OK);
  /* 0.7 at 2 is not beaten by 3, 4 (a tie) or 5: patience 3 stops after 5 */
  INT_EQ(r.best_iter, 2);
  INT_EQ(r.ran, 5);
  OK(r.best_score == 0.7, "best score %f", r.best_score);
  INT_EQ(t->kept[1] + t->kept[2], 2);
  INT_EQ(t->dropped[3] + t->dropped[4] + t->dropped[5], 3);
  for (i = 1; i <= 5; i++)
    for (x = 0; x < TP_N; x++) OK(t->visits[i][x] == 1, "iteration %d visits example %d %d times", i, x, t->visits[i][x]);
  for (x = 0; x < TP_N; x++) moved += t->order[1][x] != t->order[2][x];
  OK(moved > TP_N / 2, "each iteration shuffles (%d of %d moved)", moved, TP_N);
  /* the same seed gives the same order; another seed another */
  u->scores = sc;
  k = tp_make(u, 1);
  INT_EQ(fc_pcp_train(&k, &o, NULL, &r), FENCI_OK);
  OK(memcmp(t->order, u->order, sizeof t->order) == 0, "same seed, same order");
  memset(u, 0, sizeof *u);
  u->scores = sc;
  o.seed = 43;
  k = tp_make(u, 1);
  INT_EQ(fc_pcp_train(&k, &o, NULL, &r), FENCI_OK);
  OK(memcmp(t->order[1], u->order[1], sizeof t->order[1]) != 0, "another seed, another order");

  /* without dev the last iteration is kept, with no score */
  memset(t, 0, sizeof *t);
  o.iters = 4;
  o.patience = 1;
  k = tp_make(t, 0);
  INT_EQ(fc_pcp_train(&k, &o, NULL, &r), FENCI_OK);
  INT_EQ(r.best_iter, 4);
  INT_EQ(r.ran, 4);
  OK(r.best_score == 0, "no dev, no score");
  for (i = 1; i <= 4; i++) INT_EQ(t->kept[i], 1);

  /* the report stops training; the iteration's snapshot is still chosen or dropped */
  memset(t, 0, sizeof *t);
  t->scores = sc;
  t->stop_at = 2;
  o.iters = 10;
  o.patience = 0;
  k = tp_make(t, 1);
  INT_EQ(fc_pcp_train(&k, &o, NULL, &r), FENCI_STOPPED);
  INT_EQ(r.ran, 2);
  INT_EQ(t->kept[2], 1);

  /* a failing example stops training with its status */
  memset(t, 0, sizeof *t);
  t->scores = sc;
  t->fail_learn_at = 77;
  k = tp_make(t, 1);
  INT_EQ(fc_pcp_train(&k, &o, NULL, &r), FENCI_NOMEM);
  INT_EQ(t->kept[1], 1);
  INT_EQ(t->kept[2] + t->dropped[2], 0);

  /* no memory for the order: nothing is learnt */
  {
    th_fault f = {0, 1, 0};
    fenci_alloc fa = {th_fault_fn, &f};
    memset(t, 0, sizeof *t);
    k = tp_make(t, 1);
    INT_EQ(fc_pcp_train(&k, &o, &fa, &r), FENCI_NOMEM);
    INT_EQ(t->learned, 0);
    INT_EQ(f.live, 0);
  }
  free(t);
  free(u);
}

/* The labeller trainer on the core: a toy task (the label is the key's
 * class, noisy neighbours), then every allocation of a training failed in
 * turn: FENCI_NOMEM, nothing leaked, and the same bytes once all succeed. */
static void tp_toy(fc_chain_data *d, int n_seq) {
  unsigned r = 12345;
  int s, i;
  for (s = 0; s < n_seq; s++) {
    for (i = 0; i < 6; i++) {
      uint64_t keys[3];
      uint8_t g;
      r = r * 1103515245u + 12345u;
      g = (uint8_t)((r >> 16) % 3);
      keys[0] = fc_chain_key(0, 1);
      keys[1] = fc_chain_key(1, 10 + g * 7 + (r >> 24) % 2);
      keys[2] = fc_chain_key(2, (r >> 8) % 11);
      OK(fc_chain_data_add(d, keys, 3, g) == 0, "add");
    }
    OK(fc_chain_data_end(d) == 0, "end");
  }
}

static void test_chain_faults(void) {
  static const char *const labels[3] = {"a", "b", "c"};
  fc_chain_data tr, dv;
  fc_chain_opts o;
  uint8_t *ref = NULL, *sec;
  size_t ref_len = 0, len;
  double score;
  int best, done = 0;
  long k;
  char err[256];
  fc_chain_data_init(&tr, NULL);
  fc_chain_data_init(&dv, NULL);
  tp_toy(&tr, 200);
  tp_toy(&dv, 40);
  memset(&o, 0, sizeof o);
  o.n_labels = 3;
  o.labels = labels;
  o.iters = 4;
  o.seed = 5;
  o.min_count = 1;
  INT_EQ(fc_chain_train(&tr, &dv, &o, NULL, &ref, &ref_len, &score, &best, err, sizeof err), FENCI_OK);
  OK(score > 0.9, "the toy labeller learns its labels (dev %f)", score);
  for (k = 1; k < 100000 && !done; k++) {
    th_fault f = {0, k, 0};
    fenci_alloc fa = {th_fault_fn, &f};
    fenci_rc rc;
    sec = NULL;
    len = 0;
    rc = fc_chain_train(&tr, &dv, &o, &fa, &sec, &len, &score, &best, err, sizeof err);
    if (rc == FENCI_OK) {
      OK(f.calls < k, "succeeds only once no allocation fails");
      OK(len == ref_len && memcmp(sec, ref, len) == 0, "the same labeller");
      fc_free(&fa, sec);
      done = 1;
    } else {
      INT_EQ(rc, FENCI_NOMEM);
      OK(sec == NULL, "no section on failure");
    }
    OK(f.live == 0, "allocation %ld failed: %ld blocks leaked", k, f.live);
  }
  OK(done, "training succeeded once every allocation did");
  free(ref);
  fc_chain_data_free(&tr);
  fc_chain_data_free(&dv);
}

int main(void) {
  test_avg();
  test_loop();
  test_chain_faults();
  TEST_DONE();
}
