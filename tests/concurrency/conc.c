/* conc.c - one model shared by 8 threads.  Every thread has its own taggers
 * (one per mode, one with a user dictionary that all threads share frozen)
 * and segments a rotating set of different texts; each result must equal
 * the single-threaded one.  Then the first attach race: 8 threads attach one
 * dictionary that is not frozen yet, all at once; the dict must be built
 * once (its allocations counted against a single-threaded build), nothing
 * may leak and every thread must segment as the single-threaded reference.
 * Then the first use race: a model just opened, whose derived tables are
 * built by the first segmentation, segmented by 8 threads at once, half
 * of them in the lexicon mode (which fills the first-character table whole
 * and makes the unknown-word table) while the others fill its entries one
 * by one.
 * Built normally by make check and under ThreadSanitizer by `make tsan`.
 *
 * usage: conc [-r ROUNDS] MODEL.fenci... */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fenci.h"

#define CC_THREADS 8
#define CC_TEXTS 12
#define CC_MODES 4

static const unsigned cc_opts[CC_MODES] = {FENCI_MODE_DEFAULT, FENCI_MODE_SEARCH, FENCI_MODE_ALL, FENCI_OPT_FAST};

typedef struct cc_shared {
  const fenci_model *m;
  fenci_dict *d;                      /* frozen before the threads start */
  char *text[CC_TEXTS];
  size_t len[CC_TEXTS];
  uint64_t ref[CC_TEXTS][CC_MODES + 1]; /* single-threaded digests; [CC_MODES] = with the dict */
  size_t ntok[CC_TEXTS][CC_MODES + 1];
  int rounds;
} cc_shared;

typedef struct cc_thread {
  cc_shared *s;
  int id;
  int errors;
  pthread_t th;
} cc_thread;

typedef struct cc_digest {
  uint64_t h;
  size_t n;
} cc_digest;

static void cc_mix(uint64_t *h, uint64_t v) {
  *h ^= v + 0x9E3779B97F4A7C15ull + (*h << 6) + (*h >> 2);
  *h *= 0xFF51AFD7ED558CCDull;
}

static int cc_cb(void *ctx, const fenci_token *tok, const char *form, size_t form_len) {
  cc_digest *d = ctx;
  (void)form;
  (void)form_len;
  cc_mix(&d->h, tok->start);
  cc_mix(&d->h, tok->end);
  cc_mix(&d->h, ((uint64_t)tok->flags << 32) | ((uint64_t)tok->kind << 16) | tok->tag);
  d->n++;
  return 0;
}

static int cc_run(fenci_tagger *t, const char *text, size_t len, cc_digest *d) {
  d->h = 1469598103934665603ull;
  d->n = 0;
  return fenci_segment(t, text, len, cc_cb, d) == FENCI_OK ? 0 : -1;
}

/* Texts that differ per index: sentences in varying order, with varying
 * separators, some past the 64 KiB chunk size. */
static char *cc_make_text(int k, size_t *len) {
  static const char *const parts[] = {
      "我们是中华人民共和国的大学生", "南京市长江大桥", "研究生命的起源", "他在北京大学生活了一个月",
      "结婚的和尚未结婚的", "中文分词工具处理自然语言", "上海和北京都是大城市", "iPhone 15 costs $999.99",
      "see https://example.com/a?b=c", "mail a@b.cn", "５０％ 1,234.5 Ｃ＋＋", "\xff\xfe"};
  static const char *const seps[] = {"。", "，", "\n", " ", "！", ""};
  size_t target = (k % 3 == 0) ? 90000 : 3000 + (size_t)k * 1700, n = 0, cap = target + 256;
  char *t = malloc(cap);
  uint64_t x = (uint64_t)k * 2654435761u + 7;
  if (!t) abort();
  while (n < target) {
    const char *p, *s;
    size_t pl, sl;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    p = parts[x % 12];
    s = seps[(x >> 8) % 6];
    pl = strlen(p);
    sl = strlen(s);
    memcpy(t + n, p, pl);
    n += pl;
    memcpy(t + n, s, sl);
    n += sl;
  }
  *len = n;
  return t;
}

static void *cc_worker(void *arg) {
  cc_thread *th = arg;
  cc_shared *s = th->s;
  fenci_tagger *t[CC_MODES + 1];
  int i, r;
  for (i = 0; i <= CC_MODES; i++) {
    t[i] = NULL;
    if (fenci_tagger_new(&t[i], s->m, i < CC_MODES ? cc_opts[i] : FENCI_MODE_DEFAULT) != FENCI_OK ||
        (i == CC_MODES && fenci_tagger_set_dict(t[i], s->d) != FENCI_OK)) {
      th->errors++;
      return NULL;
    }
  }
  for (r = 0; r < s->rounds; r++) {
    int k = (th->id * 5 + r) % CC_TEXTS;
    int mi = (th->id + r) % (CC_MODES + 1);
    cc_digest d;
    if (cc_run(t[mi], s->text[k], s->len[k], &d) != 0 || d.h != s->ref[k][mi] || d.n != s->ntok[k][mi]) {
      fprintf(stderr, "FAIL: thread %d round %d text %d mode %d: %zu tokens, expected %zu\n", th->id, r, k, mi, d.n,
              s->ntok[k][mi]);
      th->errors++;
    }
  }
  for (i = 0; i <= CC_MODES; i++) fenci_tagger_free(t[i]);
  return NULL;
}

/* ------------------------------------------------ the first attach race */

/* A counting allocator (shared by the threads, hence the lock). */
typedef struct cc_count {
  pthread_mutex_t mu;
  long allocs;      /* new blocks and resizes */
  long live_blocks; /* blocks not yet freed */
} cc_count;

static void *cc_count_fn(void *ud, void *p, size_t n) {
  cc_count *c = ud;
  void *q;
  if (n == 0) {
    if (p) {
      pthread_mutex_lock(&c->mu);
      c->live_blocks--;
      pthread_mutex_unlock(&c->mu);
      free(p);
    }
    return NULL;
  }
  q = realloc(p, n);
  if (!q) return NULL;
  pthread_mutex_lock(&c->mu);
  c->allocs++;
  if (!p) c->live_blocks++;
  pthread_mutex_unlock(&c->mu);
  return q;
}

#define CC_RACE_WORDS 30000 /* enough that building the trie takes milliseconds */

/* A dict of CC_RACE_WORDS generated three-character words (plus a forced
 * word of the texts), not frozen. */
static fenci_dict *cc_race_dict(const fenci_model *m, const fenci_alloc *a) {
  static const char alpha[] = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可家产公";
  fenci_dict *d = NULL;
  size_t na = (sizeof alpha - 1) / 3, i;
  if (fenci_dict_new(&d, m, a) != FENCI_OK) return NULL;
  for (i = 0; i < CC_RACE_WORDS; i++) {
    char w[9];
    memcpy(w, alpha + 3 * (i % na), 3);
    memcpy(w + 3, alpha + 3 * (i / na % na), 3);
    memcpy(w + 6, alpha + 3 * (i / na / na % na), 3);
    if (fenci_dict_add(d, w, 9, (double)(i % 7), NULL) != FENCI_OK) break;
  }
  if (i < CC_RACE_WORDS || fenci_dict_add(d, "长江大桥", strlen("长江大桥"), 0, NULL) != FENCI_OK) {
    fenci_dict_free(d);
    return NULL;
  }
  return d;
}

typedef struct cc_race {
  const fenci_model *m;
  fenci_dict *d;
  pthread_barrier_t go;
  const char *text;
  size_t len;
  cc_digest ref, ref_fast; /* the default and the lexicon mode's (mixed races) */
  int mixed;               /* odd threads in the lexicon mode */
  int next;                /* threads started in this round (under mu) */
  int errors;
  pthread_mutex_t mu; /* guards errors and next */
} cc_race;

static void *cc_race_worker(void *arg) {
  cc_race *r = arg;
  fenci_tagger *t = NULL;
  cc_digest dg;
  const cc_digest *want;
  int bad, k;
  pthread_mutex_lock(&r->mu);
  k = r->next++;
  pthread_mutex_unlock(&r->mu);
  want = r->mixed && (k & 1) ? &r->ref_fast : &r->ref;
  if (fenci_tagger_new(&t, r->m, r->mixed && (k & 1) ? FENCI_OPT_FAST : FENCI_MODE_DEFAULT) != FENCI_OK) t = NULL;
  pthread_barrier_wait(&r->go);
  /* all threads at once: the first attach builds the dict; without one, the
   * first segmentation builds the model's derived tables */
  bad = !t || (r->d && fenci_tagger_set_dict(t, r->d) != FENCI_OK) || cc_run(t, r->text, r->len, &dg) != 0 ||
        dg.h != want->h || dg.n != want->n;
  fenci_tagger_free(t);
  if (bad) {
    pthread_mutex_lock(&r->mu);
    r->errors++;
    pthread_mutex_unlock(&r->mu);
  }
  return NULL;
}

/* One round of a race: CC_THREADS threads run cc_race_worker at once. */
static void cc_race_round(cc_race *r) {
  pthread_t th[CC_THREADS];
  int i, started = 0;
  pthread_barrier_init(&r->go, NULL, CC_THREADS);
  r->next = 0;
  for (i = 0; i < CC_THREADS; i++)
    if (pthread_create(&th[i], NULL, cc_race_worker, r) == 0) started++;
  if (started < CC_THREADS) {
    fprintf(stderr, "FAIL: pthread_create\n"); /* the started threads wait at the barrier forever */
    exit(1);
  }
  for (i = 0; i < CC_THREADS; i++) pthread_join(th[i], NULL);
  pthread_barrier_destroy(&r->go);
}

static int cc_first_attach(const fenci_model *m, const char *text, size_t len, int rounds) {
  cc_count cnt;
  fenci_alloc a;
  fenci_tagger *t = NULL;
  fenci_dict *d;
  long one_build, allocs;
  int round, errors = 0;
  cc_race r;
  memset(&cnt, 0, sizeof cnt);
  memset(&r, 0, sizeof r);
  pthread_mutex_init(&cnt.mu, NULL);
  pthread_mutex_init(&r.mu, NULL);
  a.fn = cc_count_fn;
  a.ud = &cnt;
  r.m = m;
  r.text = text;
  r.len = len;
  /* the reference, and what one build allocates */
  d = cc_race_dict(m, &a);
  if (!d || fenci_tagger_new(&t, m, FENCI_MODE_DEFAULT) != FENCI_OK) {
    fprintf(stderr, "FAIL: race dict\n");
    return 1;
  }
  allocs = cnt.allocs;
  if (fenci_tagger_set_dict(t, d) != FENCI_OK) {
    fprintf(stderr, "FAIL: race reference\n");
    return 1;
  }
  one_build = cnt.allocs - allocs; /* the dict's allocator: only the build counts */
  if (cc_run(t, text, len, &r.ref) != 0) {
    fprintf(stderr, "FAIL: race reference\n");
    return 1;
  }
  fenci_tagger_free(t);
  fenci_dict_free(d);
  for (round = 0; round < rounds; round++) {
    r.d = cc_race_dict(m, &a);
    if (!r.d) {
      fprintf(stderr, "FAIL: race dict\n");
      return 1;
    }
    allocs = cnt.allocs;
    cc_race_round(&r);
    if (cnt.allocs - allocs != one_build) {
      fprintf(stderr, "FAIL: first attach race: %ld allocations, one build makes %ld (built more than once?)\n",
              cnt.allocs - allocs, one_build);
      errors++;
    }
    fenci_dict_free(r.d);
    if (cnt.live_blocks != 0) {
      fprintf(stderr, "FAIL: first attach race: %ld blocks leaked\n", cnt.live_blocks);
      errors++;
      cnt.live_blocks = 0;
    }
  }
  if (r.errors) fprintf(stderr, "FAIL: first attach race: %d threads failed or segmented differently\n", r.errors);
  pthread_mutex_destroy(&cnt.mu);
  pthread_mutex_destroy(&r.mu);
  return errors + r.errors;
}

/* The first use race: rounds times, the model at path is opened afresh and
 * 8 threads each segment text with it at once (the first call builds the
 * trained segmenter's derived tables); all must give ref. */
static int cc_first_use(const char *path, const char *text, size_t len, const cc_digest *ref, int rounds) {
  cc_race r;
  int round, errors;
  memset(&r, 0, sizeof r);
  r.text = text;
  r.len = len;
  r.ref = *ref;
  r.mixed = 1;
  pthread_mutex_init(&r.mu, NULL);
  {
    /* the lexicon mode's reference, single-threaded */
    fenci_model *m = NULL;
    fenci_tagger *t = NULL;
    char err[256];
    if (fenci_model_open(&m, path, NULL, err, sizeof err) != FENCI_OK ||
        fenci_tagger_new(&t, m, FENCI_OPT_FAST) != FENCI_OK || cc_run(t, text, len, &r.ref_fast) != 0) {
      fprintf(stderr, "FAIL: the lexicon mode's reference\n");
      return 1;
    }
    fenci_tagger_free(t);
    fenci_model_free(m);
  }
  for (round = 0; round < rounds; round++) {
    fenci_model *m = NULL;
    char err[256];
    if (fenci_model_open(&m, path, NULL, err, sizeof err) != FENCI_OK) {
      fprintf(stderr, "FAIL: %s\n", err);
      return 1;
    }
    r.m = m;
    cc_race_round(&r);
    fenci_model_free(m);
  }
  if (r.errors) fprintf(stderr, "FAIL: first use race: %d threads failed or segmented differently\n", r.errors);
  errors = r.errors;
  pthread_mutex_destroy(&r.mu);
  return errors;
}

static int cc_model(const char *path, int rounds) {
  cc_shared s;
  cc_thread th[CC_THREADS];
  fenci_model *m = NULL;
  char err[256];
  int k, i, e, errors = 0;
  memset(&s, 0, sizeof s);
  if (fenci_model_open(&m, path, NULL, err, sizeof err) != FENCI_OK) {
    fprintf(stderr, "FAIL: %s\n", err);
    return 1;
  }
  s.m = m;
  s.rounds = rounds;
  if (fenci_dict_new(&s.d, m, NULL) != FENCI_OK ||
      fenci_dict_load_text(s.d, "长江大桥\n和尚 100 n\n大城市\nk8s 5\n", strlen("长江大桥\n和尚 100 n\n大城市\nk8s 5\n"),
                           err, sizeof err) != FENCI_OK) {
    fprintf(stderr, "FAIL: dict\n");
    return 1;
  }
  for (k = 0; k < CC_TEXTS; k++) s.text[k] = cc_make_text(k, &s.len[k]);
  /* single-threaded references; attaching the dict freezes it */
  for (i = 0; i <= CC_MODES; i++) {
    fenci_tagger *t = NULL;
    if (fenci_tagger_new(&t, m, i < CC_MODES ? cc_opts[i] : FENCI_MODE_DEFAULT) != FENCI_OK ||
        (i == CC_MODES && fenci_tagger_set_dict(t, s.d) != FENCI_OK)) {
      fprintf(stderr, "FAIL: tagger\n");
      return 1;
    }
    for (k = 0; k < CC_TEXTS; k++) {
      cc_digest d;
      if (cc_run(t, s.text[k], s.len[k], &d) != 0) {
        fprintf(stderr, "FAIL: reference segmentation\n");
        return 1;
      }
      s.ref[k][i] = d.h;
      s.ntok[k][i] = d.n;
    }
    fenci_tagger_free(t);
  }
  for (i = 0; i < CC_THREADS; i++) {
    th[i].s = &s;
    th[i].id = i;
    th[i].errors = 0;
    if (pthread_create(&th[i].th, NULL, cc_worker, &th[i]) != 0) {
      fprintf(stderr, "FAIL: pthread_create\n");
      return 1;
    }
  }
  for (i = 0; i < CC_THREADS; i++) {
    pthread_join(th[i].th, NULL);
    errors += th[i].errors;
  }
  printf("  %s (%s): %d threads x %d rounds over %d texts: %s\n", path,
         fenci_model_has_weights(m) ? "trained" : "lexicon", CC_THREADS, rounds, CC_TEXTS,
         errors ? "MISMATCH" : "all equal to single-threaded");
  {
    int race_rounds = rounds >= 20 ? 3 : 1;
    e = cc_first_attach(m, s.text[1], s.len[1], race_rounds);
    printf("  %s: %d threads attach one unfrozen dict at once, %d round(s): %s\n", path, CC_THREADS, race_rounds,
           e ? "FAILED" : "built once, no leak, all equal");
    errors += e;
  }
  {
    int first_rounds = rounds >= 20 ? 4 : 1;
    cc_digest ref;
    /* text 0 is 90 KB: 8 of them at once pass FC_SEG_FILTER_AFTER, so one
     * of the calls builds the pair filters while the others segment */
    ref.h = s.ref[0][0];
    ref.n = s.ntok[0][0];
    e = cc_first_use(path, s.text[0], s.len[0], &ref, first_rounds);
    printf("  %s: %d threads (half in the lexicon mode) segment with a model just opened, %d round(s): %s\n", path,
           CC_THREADS, first_rounds,
           e ? "FAILED" : "all equal");
    errors += e;
  }
  for (k = 0; k < CC_TEXTS; k++) free(s.text[k]);
  fenci_dict_free(s.d);
  fenci_model_free(m);
  return errors ? 1 : 0;
}

int main(int argc, char **argv) {
  int i = 1, rounds = 40, fail = 0;
  if (argc > 2 && strcmp(argv[1], "-r") == 0) {
    rounds = atoi(argv[2]);
    i = 3;
  }
  if (i >= argc) {
    fprintf(stderr, "usage: conc [-r ROUNDS] MODEL.fenci...\n");
    return 2;
  }
  for (; i < argc; i++) fail |= cc_model(argv[i], rounds);
  printf("concurrency: %s\n", fail ? "FAILED" : "all passed");
  return fail;
}
