/* fuzz_common.h - shared helpers for the libFuzzer harnesses: a small built-in
 * lexicon, a token checker that aborts when the segmentation contract is
 * broken (so logic bugs show up as crashes, not only memory errors), and the
 * lookup of an optional trained model (models/<name>.fenci with weights). */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fenci.h"
#include "oracle.h"

/* A lexicon small enough to compile at start-up in a millisecond. */
static const char fz_mini_lexicon[] =
    "# mini lexicon for fuzzing and tests\n"
    "中国 5000 ns\n中国人 800 n\n人民 3000 n\n中华人民共和国 200 ns\n共和国 400 n\n"
    "北京 4000 ns\n北京大学 600 nt\n大学 2500 n\n大学生 900 n\n学生 2800 n\n生活 2000 vn\n"
    "我们 6000 r\n我 9000 r\n你 7000 r\n他 7000 r\n是 12000 v\n的 30000 uj\n了 20000 ul\n"
    "在 15000 p\n和 10000 c\n研究 2500 vn\n研究生 700 n\n生命 1500 n\n命 300 n\n起源 400 n\n"
    "南京市 500 ns\n南京 1200 ns\n市长 800 n\n长江 900 ns\n长江大桥 300 ns\n大桥 500 n\n江 600 n\n"
    "结婚 800 v\n的和 3 x\n尚未 400 d\n和尚 300 n\n未 500 d\n分词 100 n\n中文 900 nz\n"
    "工具 1000 n\n自然 1200 a\n自然语言 100 l\n语言 1500 n\n处理 2000 v\n上海 3000 ns\n"
    "iPhone 50 nz\nC++ 20 nz\n一 20000 m\n一个 8000 m\n个 6000 q\n\xe4\xb8\x80\xe4\xb8\x80 5\n";

/* A segmented corpus for the unknown-word character model (HMMC section,
 * fenci_lexicon_compile_ex); the same text as fuzz/mini-train.seg. */
static const char fz_mini_corpus[] =
    "我们 是 中华人民共和国 的 大学生 。\n南京市 长江大桥 很 长 。\n他 在 北京大学 生活 了 一 个 月 。\n"
    "研究 生命 的 起源 。\n结婚 的 和 尚未 结婚 的 。\n中文 分词 工具 处理 自然语言 。\n"
    "上海 和 北京 都 是 大 城市 。\n我 爱 北京 天安门 。\n你 是 研究生 吗 ？\niPhone 15 的 价格 是 999 元 。\n";

/* Sentences segmented after each successful load. */
static const char *const fz_sentences[] = {
    "我们是中华人民共和国的大学生。",
    "南京市长江大桥，研究生命的起源！",
    "他在北京大学生活了一个月 and iPhone 15 costs $999.99, see https://example.com/a?b=c or a@b.cn",
    "结婚的和尚未结婚的\r\n\t  \xff\xfe\xe4\xb8 \xf0\x9f\x98\x80 ５０％ 1,234.5 Ｃ＋＋",
    "",
};

/* Checks one segmentation: main tokens are in order, non-empty and tile the
 * input exactly; extras lie inside the input; kinds and flags are in range. */
typedef struct fz_check {
  const char *text;
  size_t len;
  size_t pos;     /* end of the last main token */
  size_t ntok;    /* tokens seen */
  size_t stop_at; /* return non-zero at this token (0: never) */
} fz_check;

static int fz_check_cb(void *ctx, const fenci_token *tok, const char *form, size_t form_len) {
  fz_check *c = ctx;
  if (tok->start >= tok->end || tok->end > c->len) abort();
  if (form != c->text + tok->start || form_len != tok->end - tok->start) abort();
  if (tok->kind > FENCI_KIND_OTHER) abort();
  if (tok->flags & ~(uint32_t)0xF) abort();
  {
    const char *why = fz_token_breaks(c->text, c->len, tok);
    if (why) {
      fprintf(stderr, "fuzz: token %zu-%zu: %s\n", tok->start, tok->end, why);
      abort();
    }
  }
  if (!(tok->flags & FENCI_TOK_EXTRA)) {
    if (tok->start != c->pos) abort(); /* gap or overlap between main tokens */
    c->pos = tok->end;
  }
  c->ntok++;
  if (c->stop_at && c->ntok == c->stop_at) return 1;
  return 0;
}

/* Segments text with tagger t and checks the result; returns the rc. */
static fenci_rc fz_segment_checked(fenci_tagger *t, const char *text, size_t len, size_t stop_at) {
  fz_check c;
  fenci_rc rc;
  memset(&c, 0, sizeof c);
  c.text = text;
  c.len = len;
  c.stop_at = stop_at;
  rc = fenci_segment(t, text, len, fz_check_cb, &c);
  if (rc == FENCI_OK && c.pos != len) abort(); /* main tokens did not cover the text */
  if (rc != FENCI_OK && rc != FENCI_STOPPED && rc != FENCI_NOMEM) abort();
  return rc;
}

/* Segments every test sentence in every mode with a fresh tagger. */
static void fz_segment_sentences(const fenci_model *m) {
  static const unsigned opts[] = {FENCI_MODE_DEFAULT, FENCI_MODE_SEARCH, FENCI_MODE_ALL, FENCI_OPT_FAST,
                                  FENCI_MODE_SEARCH | FENCI_OPT_FAST};
  size_t i, j;
  for (i = 0; i < sizeof opts / sizeof opts[0]; i++) {
    fenci_tagger *t = NULL;
    if (fenci_tagger_new(&t, m, opts[i]) != FENCI_OK) abort();
    for (j = 0; j < sizeof fz_sentences / sizeof fz_sentences[0]; j++)
      fz_segment_checked(t, fz_sentences[j], strlen(fz_sentences[j]), 0);
    fenci_tagger_free(t);
  }
}

/* Tokens collected by a callback (grown with realloc; abort when out of memory). */
typedef struct fz_toks {
  fenci_token *t;
  size_t n, cap;
} fz_toks;

static inline int fz_collect(void *ctx, const fenci_token *tok, const char *form, size_t form_len) {
  fz_toks *v = ctx;
  (void)form;
  (void)form_len;
  if (v->n == v->cap) {
    size_t nc = v->cap ? v->cap * 2 : 64;
    fenci_token *p = realloc(v->t, nc * sizeof *p);
    if (!p) abort();
    v->t = p;
    v->cap = nc;
  }
  v->t[v->n++] = *tok;
  return 0;
}

/* Compiles the mini lexicon (with the unknown-word model from the mini corpus
 * when with_corpus is set) and loads it; aborts on failure.  *img is the
 * image the model borrows. */
static fenci_model *fz_mini_model_ex(void **img, int with_corpus) {
  size_t len = 0;
  fenci_model *m = NULL;
  char err[256];
  if (fenci_lexicon_compile_ex(fz_mini_lexicon, sizeof fz_mini_lexicon - 1, with_corpus ? fz_mini_corpus : NULL,
                               with_corpus ? sizeof fz_mini_corpus - 1 : 0, img, &len, NULL, err,
                               sizeof err) != FENCI_OK) {
    fprintf(stderr, "fuzz: mini lexicon: %s\n", err);
    abort();
  }
  if (fenci_model_from_buffer(&m, *img, len, NULL, err, sizeof err) != FENCI_OK) {
    fprintf(stderr, "fuzz: mini model: %s\n", err);
    abort();
  }
  return m;
}

static fenci_model *fz_mini_model(void **img) { return fz_mini_model_ex(img, 0); }

/* The models with trained weights: $FENCI_FUZZ_MODEL, else every
 * models/ *.fenci (sorted by name) that has weights; at most cap, into
 * out; returns the count. */
static size_t fz_trained_models(fenci_model **out, size_t cap) {
  const char *env = getenv("FENCI_FUZZ_MODEL");
  fenci_model *m = NULL;
  struct dirent **names = NULL;
  size_t k = 0;
  int n, i;
  if (env && *env) {
    if (cap && fenci_model_open(&m, env, NULL, NULL, 0) == FENCI_OK && fenci_model_has_weights(m)) {
      out[0] = m;
      return 1;
    }
    fenci_model_free(m);
    return 0;
  }
  n = scandir("models", &names, NULL, alphasort);
  for (i = 0; i < n; i++) {
    const char *s = names[i]->d_name;
    size_t l = strlen(s);
    if (k < cap && l > 6 && strcmp(s + l - 6, ".fenci") == 0) {
      char path[512];
      m = NULL;
      snprintf(path, sizeof path, "models/%s", s);
      if (fenci_model_open(&m, path, NULL, NULL, 0) == FENCI_OK && fenci_model_has_weights(m)) {
        fprintf(stderr, "fuzz: trained model %s\n", path);
        out[k++] = m;
      } else {
        fenci_model_free(m);
      }
    }
    free(names[i]);
  }
  free(names);
  return k;
}

/* The first of them, or NULL. */
static fenci_model *fz_trained_model(void) {
  fenci_model *m[8];
  size_t n = fz_trained_models(m, 8), i;
  for (i = 1; i < n; i++) fenci_model_free(m[i]);
  return n ? m[0] : NULL;
}

/* The shipped lexicon: $FENCI_FUZZ_LEXICON, else models/lexicon.fenci; NULL
 * when absent. */
static fenci_model *fz_shipped_lexicon(void) {
  const char *env = getenv("FENCI_FUZZ_LEXICON");
  fenci_model *m = NULL;
  if (fenci_model_open(&m, env && *env ? env : "models/lexicon.fenci", NULL, NULL, 0) != FENCI_OK) return NULL;
  fprintf(stderr, "fuzz: shipped lexicon %s\n", env && *env ? env : "models/lexicon.fenci");
  return m;
}

#endif
