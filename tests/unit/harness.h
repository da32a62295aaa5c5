/* harness.h - a tiny test harness: counters, OK/INT_EQ/STR_EQ, a summary. */
#ifndef FC_HARNESS_H
#define FC_HARNESS_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fenci.h"

static int th_run, th_fail;

#define OK(cond, ...)                                                      \
  do {                                                                     \
    th_run++;                                                              \
    if (!(cond)) {                                                         \
      th_fail++;                                                           \
      fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);      \
      fprintf(stderr, __VA_ARGS__);                                        \
      fputc('\n', stderr);                                                 \
    }                                                                      \
  } while (0)

#define INT_EQ(a, b)                                                       \
  do {                                                                     \
    long long th_a = (long long)(a), th_b = (long long)(b);                \
    OK(th_a == th_b, "%lld != %lld", th_a, th_b);                          \
  } while (0)

#define STR_EQ(a, b)                                                       \
  do {                                                                     \
    const char *th_sa = (a), *th_sb = (b);                                 \
    OK(th_sa && th_sb && strcmp(th_sa, th_sb) == 0, "\"%s\" != \"%s\"",   \
       th_sa ? th_sa : "(null)", th_sb ? th_sb : "(null)");                \
  } while (0)

#define TEST_DONE()                                                        \
  do {                                                                     \
    fprintf(stderr, "%s: %d checks, %d failed\n", __FILE__, th_run, th_fail); \
    return th_fail ? 1 : 0;                                                \
  } while (0)

/* Compiles lexicon source src and opens it from memory; *img holds the
 * image (free it with fenci_free after fenci_model_free).  NULL on failure,
 * reported as a failed check. */
static inline fenci_model *th_load_model(const char *src, void **img) {
  size_t len = 0;
  char err[256];
  fenci_model *m = NULL;
  fenci_rc rc = fenci_lexicon_compile(src, strlen(src), img, &len, NULL, err, sizeof err);
  OK(rc == FENCI_OK, "compile: %s", err);
  if (rc != FENCI_OK) return NULL;
  rc = fenci_model_from_buffer(&m, *img, len, NULL, err, sizeof err);
  OK(rc == FENCI_OK, "load: %s", err);
  return m;
}

/* An allocator for fault loops: fails its fail_at-th allocation (1-based;
 * 0 never) and counts the blocks alive, so a test can fail every
 * allocation of a call in turn and check that nothing leaks. */
typedef struct th_fault {
  long calls, fail_at, live;
} th_fault;

static inline void *th_fault_fn(void *ud, void *p, size_t n) {
  th_fault *f = (th_fault *)ud;
  void *q;
  if (n == 0) {
    if (p) f->live--;
    free(p);
    return NULL;
  }
  if (++f->calls == f->fail_at) return NULL;
  q = realloc(p, n);
  if (q && !p) f->live++;
  return q;
}

#endif
