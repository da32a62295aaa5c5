/* test_segmodel.c - the trained segmenter: corpus readers, training on a tiny
 * corpus, decoding, forced tags, BMES legality, determinism, corrupt weight
 * sections, and the t2s table. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "feat.h"
#include "fmt.h"
#include "model.h"
#include "segmodel.h"
#include "t2s.h"
#include "train/train.h"
#include "units.h"

static const char *LEX = "我们 100\n北京 80\n学习 50\n天安门 30\n喜欢 40\n中文 30\n";

static const char *TRAIN =
    "我们 喜欢 北京 。\n我们 学习 中文 。\n他们 喜欢 天安门 。\n老师 学习 中文 。\n"
    "我们 在 北京 学习 。\n他们 在 北京 喜欢 中文 。\n老师 喜欢 我们 。\n我们 喜欢 老师 。\n"
    "他们 学习 北京 的 历史 。\n老师 在 天安门 。\n我们 的 老师 喜欢 北京 。\n他们 的 中文 很 好 。\n"
    /* runs end without a mark too (the lattice templates see the run's end) */
    "老师 喜欢 北京\n";

static void test_corpus(void) {
  fc_corpus c;
  char err[256];
  const char *pd = "19980101-01-001-001/m  迈向/v  [中央/n  电台/n]nt  １/m  张/q  \n\n"
                   "19980101-01-001-002/m  中共/j  \n";
  fc_corpus_init(&c, NULL);
  INT_EQ(fc_corpus_parse(&c, pd, strlen(pd), FC_CORPUS_PD, err, sizeof err), FENCI_OK);
  INT_EQ(c.n_sent, 2);
  INT_EQ(c.n_words, 6);
  OK(c.sent[1] == strlen("迈向中央电台１张"), "sentence 1 length %zu", c.sent[1]);
  INT_EQ(c.wend[0], strlen("迈向"));
  INT_EQ(c.wend[2], strlen("迈向中央电台"));
  fc_corpus_free(&c);

  fc_corpus_init(&c, NULL);
  {
    const char *msr = "当/o 希望工程/o 救助/o\r\n京/ns a/b/o\n";
    INT_EQ(fc_corpus_parse(&c, msr, strlen(msr), FC_CORPUS_MSR, err, sizeof err), FENCI_OK);
  }
  INT_EQ(c.n_sent, 2);
  INT_EQ(c.n_words, 5);
  INT_EQ(c.wend[4], strlen("京a/b"));
  fc_corpus_free(&c);

  fc_corpus_init(&c, NULL);
  INT_EQ(fc_corpus_parse(&c, "a  b\xff\n", 6, FC_CORPUS_SEG, err, sizeof err), FENCI_BADFORMAT);
  fc_corpus_free(&c);
  INT_EQ(fc_corpus_format("pd"), FC_CORPUS_PD);
  INT_EQ(fc_corpus_format("ctb"), FC_CORPUS_SEG);
  INT_EQ(fc_corpus_format("nope"), -1);
}

static int legal(const uint8_t *t, size_t n) {
  size_t i;
  if (n && (t[0] == FC_TAG_M || t[0] == FC_TAG_E)) return 0;
  if (n && (t[n - 1] == FC_TAG_B || t[n - 1] == FC_TAG_M)) return 0;
  for (i = 1; i < n; i++) {
    int open = t[i - 1] == FC_TAG_B || t[i - 1] == FC_TAG_M;
    int cont = t[i] == FC_TAG_M || t[i] == FC_TAG_E;
    if (open != cont) return 0;
  }
  return 1;
}

static void test_viterbi(void) {
  int32_t emis[4 * 64], trans[16] = {0}, st[4] = {0}, en[4] = {0};
  fc_unit u[64];
  uint8_t bp[4 * 64], tags[64];
  unsigned seed = 12345;
  int round;
  size_t i;
  memset(u, 0, sizeof u);
  for (round = 0; round < 200; round++) {
    size_t n = 1 + (size_t)(round % 63);
    for (i = 0; i < 4 * n; i++) {
      seed = seed * 1103515245u + 12345u;
      emis[i] = (int32_t)((seed >> 8) % 20001) - 10000;
    }
    for (i = 0; i < n; i++) u[i].force = 0;
    if (round % 3 == 0 && n > 3) { /* force a word over units 1..2 */
      u[1].force = 1 + FC_TAG_B;
      u[2].force = 1 + FC_TAG_E;
    }
    fc_seg_viterbi(emis, n, trans, st, en, u, bp, tags);
    OK(legal(tags, n), "illegal tag sequence, round %d", round);
    if (round % 3 == 0 && n > 3) OK(tags[1] == FC_TAG_B && tags[2] == FC_TAG_E, "force ignored, round %d", round);
  }
}

/* Lexicon images borrowed by the models made from them; freed at exit. */
static void *lex_bufs[8];
static int n_lex_bufs;

/* Trains on TRAIN with LEX; returns the model image (malloc'd). */
static uint8_t *train_image(fenci_model **lexm, size_t *len, fc_train_result *res_out) {
  void *lbuf = NULL;
  size_t llen = 0;
  char err[256];
  fc_corpus c;
  fc_train_opts o;
  fc_train_result res;
  uint8_t *img = NULL;
  if (!*lexm) {
    if (fenci_lexicon_compile(LEX, strlen(LEX), &lbuf, &llen, NULL, err, sizeof err) != FENCI_OK) return NULL;
    if (n_lex_bufs < 8) lex_bufs[n_lex_bufs++] = lbuf;
    if (fenci_model_from_buffer(lexm, lbuf, llen, NULL, err, sizeof err) != FENCI_OK) return NULL;
  }
  fc_corpus_init(&c, NULL);
  if (fc_corpus_parse(&c, TRAIN, strlen(TRAIN), FC_CORPUS_SEG, err, sizeof err) != FENCI_OK) return NULL;
  fc_train_opts_init(&o);
  o.iters = 5;
  o.min_count = 1;
  o.folds = 3;
  o.seed = 99;
  if (fc_train_segmenter(*lexm, &c, &c, &o, NULL, &res, err, sizeof err) != FENCI_OK) {
    fprintf(stderr, "train: %s\n", err);
    fc_corpus_free(&c);
    return NULL;
  }
  if (fc_train_write_model(*lexm, &res, NULL, NULL, &img, len, err, sizeof err) != FENCI_OK) img = NULL;
  if (res_out) *res_out = res;
  else fc_train_result_free(&res, NULL);
  fc_corpus_free(&c);
  return img;
}

typedef struct toks {
  char out[1024];
  size_t len;
} toks;

static int collect(void *ctx, const fenci_token *t, const char *form, size_t n) {
  toks *k = ctx;
  (void)t;
  if (k->len + n + 2 < sizeof k->out) {
    if (k->len) k->out[k->len++] = '|';
    memcpy(k->out + k->len, form, n);
    k->len += n;
    k->out[k->len] = 0;
  }
  return 0;
}

static void test_train_and_decode(void) {
  fenci_model *lexm = NULL, *m = NULL, *lexm2 = NULL;
  size_t len = 0, len2 = 0;
  fc_train_result res;
  uint8_t *img = train_image(&lexm, &len, &res), *img2;
  char err[256];
  fenci_tagger *t = NULL;
  toks k;
  OK(img != NULL, "training failed");
  if (!img) return;
  OK(res.dev_f1 > 0.9, "training-set F1 %f", res.dev_f1);
  OK(res.segl != NULL, "no training-word lexicon");
  fc_train_result_free(&res, NULL);
  /* same seed, same bytes */
  img2 = train_image(&lexm2, &len2, NULL);
  OK(img2 && len2 == len && memcmp(img, img2, len) == 0, "training is not deterministic");
  free(img2);
  INT_EQ(fenci_model_from_buffer(&m, img, len, NULL, err, sizeof err), FENCI_OK);
  if (!m) return;
  INT_EQ(fenci_model_has_weights(m), 1);
  OK(strstr(fenci_model_meta(m, NULL), "segmenter=bmes-averaged-perceptron") != NULL, "meta");
  INT_EQ(fenci_tagger_new(&t, m, 0), FENCI_OK);
  memset(&k, 0, sizeof k);
  INT_EQ(fenci_segment(t, "我们喜欢北京。", strlen("我们喜欢北京。"), collect, &k), FENCI_OK);
  STR_EQ(k.out, "我们|喜欢|北京|。");
  memset(&k, 0, sizeof k);
  INT_EQ(fenci_segment(t, "他们学习中文 老师", strlen("他们学习中文 老师"), collect, &k), FENCI_OK);
  STR_EQ(k.out, "他们|学习|中文| |老师");
  /* a forced unit is honoured by fc_segmodel_tag */
  {
    fc_unit *u = NULL;
    size_t n = 0, cap = 0;
    uint8_t tags[16];
    fc_segscratch *ss = NULL;
    const char *s = "我们喜欢北京";
    INT_EQ(fc_units_build(m, NULL, (const uint8_t *)s, strlen(s), &u, &n, &cap, NULL), FENCI_OK);
    INT_EQ(n, 6);
    INT_EQ(fc_segscratch_new(&ss, NULL), FENCI_OK);
    u[2].force = 1 + FC_TAG_S; /* 喜 alone */
    INT_EQ(fc_segmodel_tag(m->seg, ss, u, n, tags), FENCI_OK);
    INT_EQ(tags[2], FC_TAG_S);
    OK(legal(tags, n), "illegal tags under force");
    INT_EQ(fc_segmodel_tag(m->seg, ss, u, 0, tags), FENCI_OK);
    fc_segscratch_free(ss, NULL);
    free(u);
  }
  fenci_tagger_free(t);
  fenci_model_free(m);
  fenci_model_free(lexm);
  fenci_model_free(lexm2);
  free(img);
}

/* Corrupt SEGH/SEGW/SEGL variants must be refused or decode safely. */
static void test_corrupt(void) {
  fenci_model *lexm = NULL;
  size_t len = 0, i;
  fc_train_result res;
  uint8_t *img = train_image(&lexm, &len, &res), *h, *w;
  fc_file f;
  fc_segmodel *sm = NULL;
  char err[256];
  if (!img) return;
  h = malloc(res.segh_len);
  w = malloc(res.segw_len);
  memset(&f, 0, sizeof f);
  f.n_sections = 3;
  memcpy(f.sec[0].tag, "SEGH", 4);
  f.sec[0].data = h;
  f.sec[0].size = res.segh_len;
  memcpy(f.sec[1].tag, "SEGW", 4);
  f.sec[1].data = w;
  f.sec[1].size = res.segw_len;
  memcpy(f.sec[2].tag, "SEGL", 4);
  f.sec[2].data = res.segl;
  f.sec[2].size = res.segl_len;
#define RESET() (memcpy(h, res.segh, res.segh_len), memcpy(w, res.segw, res.segw_len), f.sec[0].size = res.segh_len, \
                 f.sec[1].size = res.segw_len, f.sec[2].size = res.segl_len)
  RESET();
  INT_EQ(fc_segmodel_load(&sm, &f, NULL, err, sizeof err), FENCI_OK);
  fc_segmodel_free(sm, NULL);
  h[0] = 'X';
  INT_EQ(fc_segmodel_load(&sm, &f, NULL, err, sizeof err), FENCI_BADFORMAT);
  OK(sm == NULL, "model on failure");
  RESET();
  h[4] = 99; /* feature version */
  INT_EQ(fc_segmodel_load(&sm, &f, NULL, err, sizeof err), FENCI_BADFORMAT);
  OK(strstr(err, "version") != NULL, "message: %s", err);
  RESET();
  f.sec[0].size = 100;
  INT_EQ(fc_segmodel_load(&sm, &f, NULL, err, sizeof err), FENCI_BADFORMAT);
  RESET();
  h[8] = 200; /* table count */
  INT_EQ(fc_segmodel_load(&sm, &f, NULL, err, sizeof err), FENCI_BADFORMAT);
  RESET();
  h[128] = 77; /* table type */
  INT_EQ(fc_segmodel_load(&sm, &f, NULL, err, sizeof err), FENCI_BADFORMAT);
  RESET();
  h[128 + 8] = 0xFF; /* n_slots */
  h[128 + 9] = 0xFF;
  h[128 + 10] = 0xFF;
  INT_EQ(fc_segmodel_load(&sm, &f, NULL, err, sizeof err), FENCI_BADFORMAT);
  RESET();
  h[128 + 23] = 0x7F; /* offset */
  INT_EQ(fc_segmodel_load(&sm, &f, NULL, err, sizeof err), FENCI_BADFORMAT);
  RESET();
  h[128 + 12] = 0xFF; /* max_probe >= n_slots */
  h[128 + 13] = 0xFF;
  h[128 + 14] = 0xFF;
  INT_EQ(fc_segmodel_load(&sm, &f, NULL, err, sizeof err), FENCI_BADFORMAT);
  RESET();
  h[128 + 24] = 0; /* layout of the first table (uni: dense) */
  INT_EQ(fc_segmodel_load(&sm, &f, NULL, err, sizeof err), FENCI_BADFORMAT);
  RESET();
  h[12] = 2; /* too few symbol ids */
  h[13] = 0;
  INT_EQ(fc_segmodel_load(&sm, &f, NULL, err, sizeof err), FENCI_BADFORMAT);
  RESET();
  h[112] = 2; /* symbol map offset */
  INT_EQ(fc_segmodel_load(&sm, &f, NULL, err, sizeof err), FENCI_BADFORMAT);
  RESET();
  w[2 * 0x6211] = 0xFF; /* the id of 我 out of range */
  w[2 * 0x6211 + 1] = 0x7F;
  INT_EQ(fc_segmodel_load(&sm, &f, NULL, err, sizeof err), FENCI_BADFORMAT);
  RESET();
  h[16 + 3] = 0x7F; /* transition weight out of range */
  INT_EQ(fc_segmodel_load(&sm, &f, NULL, err, sizeof err), FENCI_BADFORMAT);
  RESET();
  f.sec[1].size = 8; /* SEGW truncated */
  INT_EQ(fc_segmodel_load(&sm, &f, NULL, err, sizeof err), FENCI_BADFORMAT);
  RESET();
  f.sec[2].size = 12; /* SEGL truncated */
  INT_EQ(fc_segmodel_load(&sm, &f, NULL, err, sizeof err), FENCI_BADFORMAT);
  RESET();
  f.n_sections = 1; /* SEGH without SEGW */
  INT_EQ(fc_segmodel_load(&sm, &f, NULL, err, sizeof err), FENCI_BADFORMAT);
  f.n_sections = 3;
  /* garbage weights, keys and flags (past the symbol map): loads, decodes legal tags */
  {
    unsigned seed = 7;
    fc_unit *u = NULL;
    size_t n = 0, cap = 0;
    uint8_t tags[64];
    fc_segscratch *ss = NULL;
    const char *s = "我们喜欢北京天安门，他们学习中文。";
    RESET();
    for (i = 2 * FC_SYMMAP_DIRECT + 8 * (size_t)fc_rd32(res.segh + 116); i < res.segw_len; i++) {
      seed = seed * 1103515245u + 12345u;
      w[i] = (uint8_t)(seed >> 16);
    }
    for (i = 16 + ((fc_rd32(res.segl + 12) + 3) & ~3u); i < res.segl_len; i++) { /* SEGL flags and slots */
      seed = seed * 1103515245u + 12345u;
      res.segl[i] = (uint8_t)(seed >> 16);
    }
    INT_EQ(fc_segmodel_load(&sm, &f, NULL, err, sizeof err), FENCI_OK);
    INT_EQ(fc_units_build(lexm, NULL, (const uint8_t *)s, strlen(s), &u, &n, &cap, NULL), FENCI_OK);
    INT_EQ(fc_segscratch_new(&ss, NULL), FENCI_OK);
    if (sm && ss) {
      INT_EQ(fc_segmodel_tag(sm, ss, u, n, tags), FENCI_OK);
      OK(legal(tags, n), "illegal tags from a corrupt model");
    }
    fc_segscratch_free(ss, NULL);
    fc_segmodel_free(sm, NULL);
    free(u);
  }
  /* a file without SEGH has no segmenter */
  f.n_sections = 0;
  INT_EQ(fc_segmodel_load(&sm, &f, NULL, err, sizeof err), FENCI_OK);
  OK(sm == NULL, "segmenter from nothing");
  free(h);
  free(w);
  fc_train_result_free(&res, NULL);
  fenci_model_free(lexm);
  free(img);
}

static void test_t2s(void) {
  INT_EQ(fc_t2s(0x9577), 0x957F); /* 長 -> 长 */
  INT_EQ(fc_t2s(0x6F22), 0x6C49); /* 漢 -> 汉 */
  INT_EQ(fc_t2s(0x4E2D), 0x4E2D); /* 中 unchanged */
  INT_EQ(fc_t2s(0x65BC), 0x4E8E); /* 於 -> 于, though OpenCC lists 於 among its own forms (tools/gen_t2s.py) */
  INT_EQ(fc_t2s_bmp_char(0x65BC), 0x4E8E);
  INT_EQ(fc_t2s(0x8457), 0x8457); /* 著 stays: 著名 is simplified too */
  INT_EQ(fc_t2s('A'), 'A');
  INT_EQ(fc_t2s(0x10FFFF), 0x10FFFF);
}

static void test_templates(void) {
  INT_EQ(fc_feat_parse_mask("uni,bi"), (1u << FC_G_UNI) | (1u << FC_G_BI));
  INT_EQ(fc_feat_parse_mask("default"), FC_FEAT_DEFAULT_MASK);
  INT_EQ(fc_feat_parse_mask("uni,bogus"), 0);
  INT_EQ(fc_feat_parse_mask("lat,latu,latm"), (1u << FC_G_LAT) | (1u << FC_G_LATU) | (1u << FC_G_LATM));
  OK((FC_FEAT_DEFAULT_MASK & FC_FEAT_LAT_MASK) == FC_FEAT_LAT_MASK, "lat and latu are default templates");
}

/* Fails every allocation of a training with options o in turn: each gives
 * FENCI_NOMEM and leaks nothing; once none fails, the model written is
 * ref (when given).  Returns the number of allocations a training makes. */
static long train_faults(fenci_model *lexm, const fc_corpus *c, const fc_train_opts *o, const uint8_t *ref,
                         size_t ref_len) {
  char err[256];
  long k;
  for (k = 1; k < 1000000; k++) {
    th_fault f = {0, k, 0};
    fenci_alloc fa = {th_fault_fn, &f};
    fc_train_result res;
    fenci_rc rc = fc_train_segmenter(lexm, c, c, o, &fa, &res, err, sizeof err);
    OK(f.live == 0 || rc == FENCI_OK, "allocation %ld of %ld failed: %ld blocks leaked", k, f.calls, f.live);
    if (rc == FENCI_OK) {
      uint8_t *img = NULL;
      size_t len = 0;
      OK(f.calls < k, "succeeds only once no allocation fails");
      if (ref) {
        INT_EQ(fc_train_write_model(lexm, &res, NULL, NULL, &img, &len, err, sizeof err), FENCI_OK);
        OK(img && len == ref_len && memcmp(img, ref, len) == 0, "the same model");
        free(img);
      }
      fc_train_result_free(&res, &fa);
      INT_EQ(f.live, 0);
      return f.calls;
    }
    INT_EQ(rc, FENCI_NOMEM);
    if (f.live || rc != FENCI_NOMEM) break;
  }
  OK(0, "training never succeeded");
  return 0;
}

/* Every allocation of a training (the perceptron core's and the
 * segmenter's; multi-criteria with its copy per standard too). */
static void test_train_faults(void) {
  fenci_model *lexm = NULL;
  size_t len = 0;
  uint8_t *ref = train_image(&lexm, &len, NULL);
  fc_corpus c;
  const fc_corpus *also[1];
  fc_train_opts o;
  char err[256];
  OK(ref != NULL, "reference training");
  if (!ref) {
    fenci_model_free(lexm);
    return;
  }
  fc_corpus_init(&c, NULL);
  INT_EQ(fc_corpus_parse(&c, TRAIN, strlen(TRAIN), FC_CORPUS_SEG, err, sizeof err), FENCI_OK);
  fc_train_opts_init(&o);
  o.iters = 5; /* as train_image */
  o.min_count = 1;
  o.folds = 3;
  o.seed = 99;
  OK(train_faults(lexm, &c, &o, ref, len) > 20, "allocations of a training");
  also[0] = &c;
  o.iters = 2;
  o.also = also;
  o.n_also = 1;
  OK(train_faults(lexm, &c, &o, NULL, 0) > 20, "allocations of a multi-criteria training");
  fc_corpus_free(&c);
  free(ref);
  fenci_model_free(lexm);
}

int main(void) {
  test_corpus();
  test_viterbi();
  test_train_and_decode();
  test_train_faults();
  test_corrupt();
  test_t2s();
  test_templates();
  while (n_lex_bufs) fenci_free(NULL, lex_bufs[--n_lex_bufs]);
  TEST_DONE();
}
