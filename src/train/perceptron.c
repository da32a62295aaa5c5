/* perceptron.c - the averaged structured perceptron's weights and loop of
 * iterations (perceptron.h), shared by every trainer. */
#include <string.h>

#include "alloc.h"
#include "train/perceptron.h"

int fc_avg_init(fc_avg *v, size_t n, const fenci_alloc *a) {
  v->n = n;
  v->w = fc_calloc(a, n ? n : 1, sizeof *v->w);
  v->acc = fc_calloc(a, n ? n : 1, sizeof *v->acc);
  if (v->w && v->acc) return 0;
  fc_avg_free(v, a);
  return -1;
}

void fc_avg_free(fc_avg *v, const fenci_alloc *a) {
  fc_free(a, v->w);
  fc_free(a, v->acc);
  memset(v, 0, sizeof *v);
}

/* splitmix64: the examples' order, the same on every machine. */
static uint64_t fc_pcp_rand(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

fenci_rc fc_pcp_train(const fc_pcp_task *t, const fc_pcp_opts *o, const fenci_alloc *a, fc_pcp_result *r) {
  size_t n = t->n_examples, i, *order;
  uint64_t rng = o->seed;
  int64_t clock = 1; /* examples seen + 1: the averages divide by it */
  int it, since = 0, iters = o->iters > 0 ? o->iters : 10;
  double best = -1;
  fenci_rc rc = FENCI_OK;

  memset(r, 0, sizeof *r);
  order = fc_malloc(a, (n ? n : 1) * sizeof *order);
  if (!order) return FENCI_NOMEM;
  for (i = 0; i < n; i++) order[i] = i;
  for (it = 1; it <= iters; it++) {
    fc_pcp_iter st;
    double score = 0;
    memset(&st, 0, sizeof st);
    r->ran = it;
    for (i = n; i > 1; i--) { /* Fisher-Yates */
      size_t j = (size_t)(fc_pcp_rand(&rng) % i), x = order[i - 1];
      order[i - 1] = order[j];
      order[j] = x;
    }
    for (i = 0; i < n; i++) {
      size_t wrong = 0, total = 0;
      rc = t->learn(t->ctx, order[i], clock, &wrong, &total);
      if (rc != FENCI_OK) goto out;
      st.wrong += wrong;
      st.total += total;
      st.examples_wrong += wrong > 0;
      clock++;
    }
    rc = t->snapshot(t->ctx, clock, &score);
    if (rc != FENCI_OK) goto out;
    if (!t->has_dev) score = (double)it; /* without dev the last is the best */
    st.iter = it;
    st.iters = iters;
    st.score = score;
    if (t->report && t->report(t->ctx, &st)) rc = FENCI_STOPPED;
    if (r->best_iter == 0 || score > best) { /* (a NaN score never beats the first) */
      t->choose(t->ctx, 1);
      best = score;
      r->best_iter = it;
      r->best_score = t->has_dev ? score : 0;
      since = 0;
    } else {
      t->choose(t->ctx, 0);
      if (o->patience > 0 && ++since >= o->patience) break;
    }
    if (rc != FENCI_OK) break;
  }
out:
  fc_free(a, order);
  return rc;
}
