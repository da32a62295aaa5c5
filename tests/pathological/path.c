/* path.c - pathological inputs that catch super-linear behaviour (O(n^2)
 * lattices, rescans from every position, a chunker that stops advancing,
 * quadratic buffer growth).
 *
 * Each input is one line without a newline, at 1 MB and at 10 MB, segmented
 * with every model given, in every mode (default, search, all; with and
 * without FENCI_OPT_FAST on a trained model).  Time is the CPU time of the
 * thread (other processes do not inflate it), the minimum of several runs.
 * A case fails when time(10 MB) / time(1 MB) > 13 (linear is 10, n log n
 * 11, quadratic 100) after three attempts and three more alone on the
 * machine (a case timed beside another thread shares its cache), or when 10 MB takes more than 10 s (slower than 1 MB/s).  The
 * lexicon compiler is timed at 10k, 31.6k and 100k words sharing a long
 * prefix; the growth exponent fitted to the three (1 is linear, n log n
 * about 1.1, quadratic 2) must stay below 1.5 (PT_EXPONENT).
 *
 * usage: path [-x SCALE] [-j THREADS] MODEL.fenci...
 *   SCALE divides the sizes, for slow sanitizer builds (the absolute
 *   1 MB/s floor is then not checked); THREADS (default 2) time cases in
 *   parallel, each with its own taggers. */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fenci.h"

#define PT_MB (1024 * 1024)
#define PT_RATIO 13.0
/* A 10 MB run faster than this (200 MB/s) is linear whatever its ratio: a
 * scan that restarts from each position takes seconds at that size, while
 * at a few milliseconds the timer and the scheduler decide the ratio. */
#define PT_FAST_10MB 0.05
#define PT_SECS_PER_10MB 10.0
/* The compile case's limit on the slope of log time over log words: a
 * quadratic build gives 2.  Its instructions are linear (callgrind: 256 M,
 * 810 M, 2,584 M for 31.6k, 100k, 316k words), but from 10k to 100k words
 * the working set leaves the caches and the wall-time slope reached 1.30
 * in a quiet make check (4.3, 14.3, 87 ms), so 1.25 failed linear code. */
#define PT_EXPONENT 1.5

static size_t pt_scale = 1;

/* CPU time of this thread. */
static double pt_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int pt_count(void *ctx, const fenci_token *tok, const char *form, size_t form_len) {
  (void)tok;
  (void)form;
  (void)form_len;
  ++*(size_t *)ctx;
  return 0;
}

static char *pt_alloc(size_t n) {
  char *t = malloc(n + 64);
  if (!t) {
    fprintf(stderr, "path: out of memory\n");
    exit(2);
  }
  return t;
}

static uint64_t pt_rand(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

/* Generators: n bytes (or a little less, cut at a piece boundary). */
typedef size_t (*pt_gen)(char *t, size_t n, const char *arg);

static size_t pt_repeat(char *t, size_t n, const char *unit) {
  size_t ul = strlen(unit), k = 0;
  while (k + ul <= n) {
    memcpy(t + k, unit, ul);
    k += ul;
  }
  return k;
}

/* Han text without punctuation: words and characters in pseudo-random order. */
static size_t pt_han(char *t, size_t n, const char *arg) {
  static const char *const w[] = {"中华人民共和国", "大学生", "研究", "生命", "起源", "南京市", "长江大桥", "北京",
                                  "我们", "的", "是", "和尚", "未", "结婚", "自然语言", "处理", "工具", "一个",
                                  "龘", "靐", "齉", "爨", "中", "国", "人", "民", "一一"};
  size_t k = 0;
  uint64_t x = 88172645463325252ull;
  (void)arg;
  for (;;) {
    const char *s = w[pt_rand(&x) % (sizeof w / sizeof w[0])];
    size_t l = strlen(s);
    if (k + l > n) break;
    memcpy(t + k, s, l);
    k += l;
  }
  return k;
}

/* Random bytes biased to lead bytes without continuations, stray
 * continuations and some ASCII. */
static size_t pt_invalid(char *t, size_t n, const char *arg) {
  size_t k;
  uint64_t x = 0x1234567ull;
  (void)arg;
  for (k = 0; k < n; k++) {
    uint64_t r = pt_rand(&x);
    t[k] = (char)(r % 3 == 0 ? 0x80 + (r >> 8) % 64 : r % 3 == 1 ? 0xE4 + (r >> 8) % 12 : 'a' + (r >> 8) % 3);
  }
  return n;
}

/* Runs of one punctuation mark, 1 to 4096 long, of ASCII, CJK and
 * full-width marks in turn. */
static size_t pt_punct_runs(char *t, size_t n, const char *arg) {
  static const char *const marks[] = {"-", ".", "!", "=", "—", "…", "。", "，", "！", "～", "·", "*"};
  size_t k = 0;
  uint64_t x = 0xfeedfaceull;
  (void)arg;
  for (;;) {
    const char *s = marks[pt_rand(&x) % (sizeof marks / sizeof marks[0])];
    size_t l = strlen(s), run = 1 + (size_t)(pt_rand(&x) % 4096), i;
    if (k + l * run > n) break;
    for (i = 0; i < run; i++, k += l) memcpy(t + k, s, l);
  }
  return k;
}

static size_t pt_rep_gen(char *t, size_t n, const char *arg) { return pt_repeat(t, n, arg); }

#define PT_PREFIX "中华人民共和国国务院关于进一步加强和改进新形势下大学生思想政治教育工作的若干意见与实施细则第"

/* The words of the shared-prefix lexicon (pt_prefix_lexicon) glued
 * together, cycling through the first 10k. */
static size_t pt_prefix_words(char *t, size_t n, const char *arg) {
  size_t k = 0, i = 0;
  char w[256];
  (void)arg;
  for (;; i = (i + 1) % 10000) {
    int l = snprintf(w, sizeof w, "%s%zu条", PT_PREFIX, i);
    if (k + (size_t)l > n) break;
    memcpy(t + k, w, (size_t)l);
    k += (size_t)l;
  }
  return k;
}

typedef struct pt_input {
  const char *name;
  pt_gen gen;
  const char *arg;
  char *big;              /* 10 MB */
  size_t small_len, big_len; /* the 1 MB inputs are slices of big */
} pt_input;

static pt_input pt_inputs[] = {
    {"one repeated character (的)", pt_rep_gen, "的", 0, 0, 0},
    {"one repeated character (一)", pt_rep_gen, "一", 0, 0, 0},
    {"Han text without punctuation", pt_han, NULL, 0, 0, 0},
    {"news text as one line", pt_rep_gen,
     "1814年4月6日，拿破仑在枫丹白露宫签署了退位诏书。外交大臣科兰古连夜赶回巴黎，与联军代表反复谈判，"
     "最终为皇帝争取到了厄尔巴岛的统治权。近卫军仍有16000名士兵，约22万发炮弹；国债上涨了3.5%。",
     0, 0, 0},
    {"two characters with a stop (中.)", pt_rep_gen, "中.", 0, 0, 0},
    {"'a ' tokens", pt_rep_gen, "a ", 0, 0, 0},
    {"'a+' (e-mail local part)", pt_rep_gen, "a+", 0, 0, 0},
    {"'1..'", pt_rep_gen, "1..", 0, 0, 0},
    {"'a..'", pt_rep_gen, "a..", 0, 0, 0},
    {"'a--'", pt_rep_gen, "a--", 0, 0, 0},
    {"'a@' (e-mail without domain)", pt_rep_gen, "a@", 0, 0, 0},
    {"percent-encoded text", pt_rep_gen, "%E4%B8%AD%E6%96%87", 0, 0, 0},
    {"one punctuation run (-)", pt_rep_gen, "-", 0, 0, 0},
    {"one punctuation run (…)", pt_rep_gen, "…", 0, 0, 0},
    {"punctuation runs, mixed", pt_punct_runs, NULL, 0, 0, 0},
    {"invalid UTF-8", pt_invalid, NULL, 0, 0, 0},
    {"URL-like run (http://a.b/...)", pt_rep_gen, "http://a.b/", 0, 0, 0},
    {"prefix-sharing words glued", pt_prefix_words, NULL, 0, 0, 0},
};
#define PT_NINPUTS (sizeof pt_inputs / sizeof pt_inputs[0])

typedef struct pt_job {
  const fenci_model *m;
  const char *mname;
  unsigned opts;
  const pt_input *in;
  /* results */
  double t1, t10, ratio;
  size_t n1, n10;
  int failed;
  char note[64];
} pt_job;

/* Time of one call on len bytes: the minimum over runs runs of the time to
 * go through the whole text (10 MB) in calls of len bytes, divided by the
 * number of calls.  Both sizes so read the same 10 MB once per run: timing
 * one 1 MB slice again and again would keep it in the cache while 10 MB is
 * not, and the ratio would then measure the cache (up to 13 on linear code)
 * rather than the algorithm. */
/* A job flag of this test only: time fenci_entities instead of fenci_segment. */
#define PT_ENTITIES 0x10000u

static int pt_count_entity(void *ctx, const fenci_entity *e) {
  (void)e;
  ++*(size_t *)ctx;
  return 0;
}

static double pt_time_segment(fenci_tagger *t, int entities, const char *text, size_t text_len, size_t len, int runs,
                              size_t *ntok, int *err) {
  double best = 1e30;
  int r;
  double spent = 0;
  /* at least runs runs, more while they took under 50 ms in all (timer
   * and scheduling noise weigh on a run of a millisecond), at most 15 */
  for (r = 0; r < runs || (spent < 0.05 && r < 15); r++) {
    size_t calls = text_len / len, c, n = 0;
    double t0, dt;
    t0 = pt_now();
    for (c = 0; c < calls; c++) {
      size_t off = c * len;
      while (off > 0 && ((unsigned char)text[off] & 0xC0) == 0x80) off--; /* a character start */
      n = 0;
      if ((entities ? fenci_entities(t, text + off, len, pt_count_entity, &n)
                    : fenci_segment(t, text + off, len, pt_count, &n)) != FENCI_OK)
        *err = 1;
    }
    dt = (pt_now() - t0) / (double)calls;
    spent += dt * (double)calls;
    if (dt < best) best = dt;
    *ntok = n;
  }
  return best;
}

static void pt_run_job(pt_job *j) {
  fenci_tagger *t = NULL;
  int attempt, err = 0;
  j->t1 = j->t10 = 1e30;
  if (fenci_tagger_new(&t, j->m, j->opts & ~PT_ENTITIES) != FENCI_OK) {
    j->failed = 1;
    snprintf(j->note, sizeof j->note, "tagger_new failed");
    return;
  }
  /* the minimum over all runs is the time least disturbed by other load;
   * a failing ratio gets two more attempts with more runs */
  for (attempt = 0; attempt < 3; attempt++) {
    int ent = (j->opts & PT_ENTITIES) != 0;
    double a1 = pt_time_segment(t, ent, j->in->big, j->in->big_len, j->in->small_len, 1 + attempt, &j->n1, &err);
    double a10 = pt_time_segment(t, ent, j->in->big, j->in->big_len, j->in->big_len, 1 + attempt, &j->n10, &err);
    if (a1 < j->t1) j->t1 = a1;
    if (a10 < j->t10) j->t10 = a10;
    j->ratio = j->t10 / (j->t1 > 1e-6 ? j->t1 : 1e-6);
    if (j->ratio <= PT_RATIO || j->t10 < PT_FAST_10MB / (double)pt_scale) break;
  }
  fenci_tagger_free(t);
  if (err) {
    j->failed = 1;
    snprintf(j->note, sizeof j->note, "segmentation failed");
  } else if (j->ratio > PT_RATIO && j->t10 >= PT_FAST_10MB / (double)pt_scale) {
    j->failed = 1;
    snprintf(j->note, sizeof j->note, "<-- super-linear");
  } else if (pt_scale == 1 && j->t10 > PT_SECS_PER_10MB) {
    j->failed = 1;
    snprintf(j->note, sizeof j->note, "<-- slower than 1 MB/s");
  }
}

typedef struct pt_pool {
  pt_job *jobs;
  size_t n, next;
  pthread_mutex_t mu;
} pt_pool;

static void *pt_worker(void *arg) {
  pt_pool *p = arg;
  for (;;) {
    size_t k;
    pthread_mutex_lock(&p->mu);
    k = p->next++;
    pthread_mutex_unlock(&p->mu);
    if (k >= p->n) return NULL;
    pt_run_job(&p->jobs[k]);
  }
}

static const char *pt_mode_name(unsigned opts) {
  static const char *const names[] = {"default", "search", "all"};
  if (opts & PT_ENTITIES) return "entities";
  if (opts & FENCI_OPT_POS) return "pos";
  static const char *const fast[] = {"fast", "fast search", "fast all"};
  return (opts & FENCI_OPT_FAST ? fast : names)[opts & FENCI_MODE_MASK];
}

/* ------------------------------------------------------------- compile */

/* n words = a prefix of 46 Han characters + a distinct tail */
static char *pt_prefix_lexicon(size_t nwords, size_t *len) {
  size_t cap = nwords * (sizeof PT_PREFIX + 40), k = 0, i;
  char *t = pt_alloc(cap);
  for (i = 0; i < nwords; i++) k += (size_t)snprintf(t + k, cap - k, "%s%zu条 %zu\n", PT_PREFIX, i, 1 + i % 97);
  *len = k;
  return t;
}

static double pt_time_compile(const char *src, size_t len, int runs, int *err) {
  double best = 1e30;
  int r;
  for (r = 0; r < runs; r++) {
    double t0 = pt_now(), dt;
    void *out = NULL;
    size_t ol = 0;
    if (fenci_lexicon_compile(src, len, &out, &ol, NULL, NULL, 0) != FENCI_OK) *err = 1;
    dt = pt_now() - t0;
    if (dt < best) best = dt;
    fenci_free(NULL, out);
  }
  return best;
}

/* Least-squares slope of log t over log n. */
static double pt_exponent(const double *n, const double *t, int k) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int i;
  for (i = 0; i < k; i++) {
    double x = log(n[i]), y = log(t[i] > 1e-7 ? t[i] : 1e-7);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  return (k * sxy - sx * sy) / (k * sxx - sx * sx);
}

static int pt_compile_case(void) {
  const double words[3] = {10000, 31623, 100000};
  double t[3], e = 0;
  int attempt, i, err = 0;
  char *src[3];
  size_t len[3];
  for (i = 0; i < 3; i++) src[i] = pt_prefix_lexicon((size_t)words[i] / pt_scale, &len[i]);
  for (i = 0; i < 3; i++) t[i] = 1e30;
  for (attempt = 0; attempt < 3; attempt++) {
    for (i = 0; i < 3; i++) {
      double x = pt_time_compile(src[i], len[i], 3 + 2 * attempt, &err);
      if (x < t[i]) t[i] = x;
    }
    e = pt_exponent(words, t, 3);
    if (e < PT_EXPONENT) break;
  }
  printf("  %-34s 10k %.4fs  31.6k %.4fs  100k %.4fs  exponent %.2f (limit %.2f)%s\n",
         "compile words with a shared prefix", t[0], t[1], t[2], e, PT_EXPONENT,
         err ? "  <-- compile failed" : e < PT_EXPONENT ? "" : "  <-- super-linear");
  for (i = 0; i < 3; i++) free(src[i]);
  return err || e >= PT_EXPONENT;
}

int main(int argc, char **argv) {
  fenci_model *models[32];
  const char *names[32];
  size_t nm = 0, nj = 0, i, k;
  int a = 1, threads = 2, failures = 0;
  pt_job *jobs;
  pt_pool pool;
  pthread_t th[8];
  void *prefix_img = NULL;
  for (;;) {
    if (a + 1 < argc && strcmp(argv[a], "-x") == 0) {
      pt_scale = (size_t)strtoul(argv[a + 1], NULL, 10);
      if (pt_scale == 0) pt_scale = 1;
      a += 2;
    } else if (a + 1 < argc && strcmp(argv[a], "-j") == 0) {
      threads = atoi(argv[a + 1]);
      if (threads < 1) threads = 1;
      if (threads > 8) threads = 8;
      a += 2;
    } else {
      break;
    }
  }
  for (; a < argc && nm < 31; a++) {
    char err[256];
    const char *base = strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a];
    if (fenci_model_open(&models[nm], argv[a], NULL, err, sizeof err) != FENCI_OK) {
      fprintf(stderr, "FAIL: %s\n", err);
      failures++;
      continue;
    }
    names[nm++] = base;
  }
  {
    /* the shared-prefix lexicon as a model of its own */
    size_t sl, il = 0;
    char *src = pt_prefix_lexicon(10000, &sl);
    void *img = NULL;
    if (fenci_lexicon_compile(src, sl, &img, &il, NULL, NULL, 0) != FENCI_OK ||
        fenci_model_from_buffer(&models[nm], img, il, NULL, NULL, 0) != FENCI_OK) {
      fprintf(stderr, "FAIL: the prefix lexicon does not compile or load\n");
      failures++;
    } else {
      names[nm++] = "prefix-lexicon";
    }
    prefix_img = img;
    free(src);
  }
  for (i = 0; i < PT_NINPUTS; i++) {
    pt_input *in = &pt_inputs[i];
    in->big = pt_alloc(10 * PT_MB / pt_scale);
    in->big_len = in->gen(in->big, 10 * PT_MB / pt_scale, in->arg);
    in->small_len = PT_MB / pt_scale; /* slices of big (pt_time_segment) */
  }
  jobs = calloc(nm * PT_NINPUTS * 6 + 2 * PT_NINPUTS + 1, sizeof *jobs);
  if (!jobs) return 2;
  for (k = 0; k < nm; k++) {
    static const unsigned opts[6] = {FENCI_MODE_DEFAULT, FENCI_MODE_SEARCH, FENCI_MODE_ALL,
                                     FENCI_OPT_FAST, FENCI_OPT_FAST | FENCI_MODE_SEARCH,
                                     FENCI_OPT_FAST | FENCI_MODE_ALL};
    size_t no = fenci_model_has_weights(models[k]) ? 6 : 3, o;
    for (i = 0; i < PT_NINPUTS; i++)
      for (o = 0; o < no; o++) {
        jobs[nj].m = models[k];
        jobs[nj].mname = names[k];
        jobs[nj].opts = opts[o];
        jobs[nj].in = &pt_inputs[i];
        nj++;
      }
  }
  /* POS tags and entities, with the first model that has both, on every
   * third pattern (they cost several times a segmentation) */
  for (k = 0; k < nm; k++)
    if (fenci_model_has_pos(models[k]) && fenci_model_has_ner(models[k]) && fenci_model_has_weights(models[k])) {
      for (i = 0; i < PT_NINPUTS; i += 3) {
        unsigned o;
        for (o = 0; o < 2; o++) {
          jobs[nj].m = models[k];
          jobs[nj].mname = names[k];
          jobs[nj].opts = o ? PT_ENTITIES : FENCI_OPT_POS;
          jobs[nj].in = &pt_inputs[i];
          nj++;
        }
      }
      break;
    }
  printf("pathological inputs: time(10 MB) / time(1 MB) must be <= %.0f unless 10 MB takes under 50 ms%s (sizes / %zu, %d threads, %zu cases)\n",
         PT_RATIO, pt_scale == 1 ? ", and 10 MB under 10 s" : "", pt_scale, threads, nj);
  fflush(stdout);
  pool.jobs = jobs;
  pool.n = nj;
  pool.next = 0;
  pthread_mutex_init(&pool.mu, NULL);
  for (i = 0; i < (size_t)threads; i++)
    if (pthread_create(&th[i], NULL, pt_worker, &pool) != 0) {
      threads = (int)i;
      break;
    }
  if (threads == 0) pt_worker(&pool);
  for (i = 0; i < (size_t)threads; i++) pthread_join(th[i], NULL);
  /* a super-linear ratio is timed again with no other case running */
  for (k = 0; k < nj; k++)
    if (jobs[k].failed && strcmp(jobs[k].note, "<-- super-linear") == 0) {
      jobs[k].failed = 0;
      jobs[k].note[0] = 0;
      pt_run_job(&jobs[k]);
      if (!jobs[k].failed) snprintf(jobs[k].note, sizeof jobs[k].note, "(linear when timed alone)");
    }
  for (k = 0; k < nj; k++) {
    const pt_job *j = &jobs[k];
    printf("  %-34s %-12s %-11s 1MB %7.4fs (%8zu tok)  10MB %7.4fs (%9zu tok)  ratio %5.1f %s\n", j->in->name,
           j->mname, pt_mode_name(j->opts), j->t1, j->n1, j->t10, j->n10, j->ratio, j->note);
    failures += j->failed;
  }
  failures += pt_compile_case();
  for (k = 0; k < nm; k++) fenci_model_free(models[k]);
  fenci_free(NULL, prefix_img);
  for (i = 0; i < PT_NINPUTS; i++) {
    free(pt_inputs[i].big);
  }
  free(jobs);
  pthread_mutex_destroy(&pool.mu);
  if (failures) {
    printf("pathological: %d failures\n", failures);
    return 1;
  }
  printf("pathological: all passed\n");
  return 0;
}
