/* fault.c - allocation-failure injection (the OOM loop of STYLE.md §6.6).
 *
 * A counting allocator fails its Nth allocation (a new block or a resize;
 * frees never fail).  Each operation is run for N = 1, 2, ... until a run
 * completes without reaching the Nth allocation.  Every run that hit the
 * failure must return FENCI_NOMEM (or FENCI_OK when the library recovered)
 * and, once the objects it made are freed, the allocator's live block and
 * byte counts must be back where they were: nothing leaks.  Objects that
 * existed before the failure (a loaded model, a tagger, a dictionary) must
 * still work and give the same tokens as before.
 *
 * usage: fault LEXICON_SOURCE... MODEL.fenci...   (models are the *.fenci args)
 * Each model is loaded from a buffer and from its path; taggers over it are
 * exercised in default, search, all and fast modes (the trained-model path
 * where the model has weights); user dictionaries are loaded over the first. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fenci.h"

/* ------------------------------------------------------------ allocator */

typedef struct ft_alloc {
  long count;         /* allocations (new or resize) since reset */
  long fail_at;       /* fail this allocation (1-based); 0: never */
  int failed;         /* the failure was injected in this run */
  long live_blocks;   /* blocks currently allocated */
  long long live_bytes;
} ft_alloc;

#define FT_HDR 16 /* keeps the 16-byte alignment malloc gives */

static void *ft_fn(void *ud, void *p, size_t n) {
  ft_alloc *s = ud;
  unsigned char *b;
  size_t old = 0;
  if (p) {
    b = (unsigned char *)p - FT_HDR;
    memcpy(&old, b, sizeof old);
  }
  if (n == 0) {
    if (p) {
      s->live_blocks--;
      s->live_bytes -= (long long)old;
      free((unsigned char *)p - FT_HDR);
    }
    return NULL;
  }
  s->count++;
  if (s->fail_at && s->count == s->fail_at) {
    s->failed = 1;
    return NULL;
  }
  if (n > ((size_t)-1) - FT_HDR) return NULL;
  b = realloc(p ? (unsigned char *)p - FT_HDR : NULL, n + FT_HDR);
  if (!b) return NULL;
  memcpy(b, &n, sizeof n);
  if (!p) s->live_blocks++;
  s->live_bytes += (long long)n - (long long)old;
  return b + FT_HDR;
}

static ft_alloc ft_state;
static const fenci_alloc ft_a = {ft_fn, &ft_state};
static int ft_failures;

#define FT_FAIL(...)                                                                                                   \
  do {                                                                                                                 \
    fprintf(stderr, "FAIL: " __VA_ARGS__);                                                                             \
    fputc('\n', stderr);                                                                                               \
    ft_failures++;                                                                                                     \
  } while (0)

static void ft_arm(long n) {
  ft_state.count = 0;
  ft_state.fail_at = n;
  ft_state.failed = 0;
}

static void ft_disarm(void) { ft_state.fail_at = 0; }

/* ------------------------------------------------------------ helpers */

typedef struct ft_toks {
  fenci_token *t;
  size_t n, cap;
} ft_toks;

static int ft_collect(void *ctx, const fenci_token *tok, const char *form, size_t form_len) {
  ft_toks *v = ctx;
  (void)form;
  (void)form_len;
  if (v->n == v->cap) {
    size_t nc = v->cap ? v->cap * 2 : 256;
    fenci_token *p = realloc(v->t, nc * sizeof *p);
    if (!p) abort();
    v->t = p;
    v->cap = nc;
  }
  v->t[v->n++] = *tok;
  return 0;
}

static int ft_same(const ft_toks *a, const ft_toks *b) {
  return a->n == b->n && (a->n == 0 || memcmp(a->t, b->t, a->n * sizeof *a->t) == 0);
}

static char *ft_read(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *buf;
  long n;
  if (!f) return NULL;
  if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    return NULL;
  }
  buf = malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  if (buf) {
    buf[n] = 0;
    *len = (size_t)n;
  }
  return buf;
}

/* The segmentation text: varied sentences repeated past one 64 KiB chunk. */
static char *ft_text(size_t *len) {
  static const char *const parts[] = {
      "我们是中华人民共和国的大学生。", "南京市长江大桥，研究生命的起源！",
      "他在北京大学生活了一个月 and iPhone 15 costs $999.99, see https://example.com/a?b=c or a@b.cn\n",
      "结婚的和尚未结婚的\r\n\t  \xff\xfe ５０％ 1,234.5 Ｃ＋＋ 中文分词工具处理自然语言", "。\n"};
  size_t cap = 80 * 1024, n = 0, i = 0;
  char *t = malloc(cap);
  if (!t) abort();
  while (n + 200 < cap) {
    size_t l = strlen(parts[i % 5]);
    memcpy(t + n, parts[i % 5], l);
    n += l;
    i++;
  }
  *len = n;
  return t;
}

/* ------------------------------------------------------------ the loop */

typedef struct ft_stat {
  const char *name;
  long n_values;  /* N values run with an injected failure */
  long nomem;     /* of which returned FENCI_NOMEM */
  long recovered; /* of which returned FENCI_OK anyway */
} ft_stat;

/* One run of an operation: makes its objects with ft_a, frees them all
 * before returning, and returns the status of the operation. */
typedef fenci_rc (*ft_op)(void *ctx);

/* Runs op for N = 1, 2, ... until a run sees no injected failure. */
static void ft_loop(const char *name, ft_op op, void *ctx) {
  ft_stat st;
  long n, base_blocks = ft_state.live_blocks;
  long long base_bytes = ft_state.live_bytes;
  memset(&st, 0, sizeof st);
  st.name = name;
  for (n = 1;; n++) {
    fenci_rc rc;
    ft_arm(n);
    rc = op(ctx);
    ft_disarm();
    if (ft_state.live_blocks != base_blocks || ft_state.live_bytes != base_bytes) {
      FT_FAIL("%s: N=%ld (rc %s): leaked %ld blocks, %lld bytes", name, n, fenci_rc_str(rc),
              ft_state.live_blocks - base_blocks, ft_state.live_bytes - base_bytes);
      base_blocks = ft_state.live_blocks;
      base_bytes = ft_state.live_bytes;
    }
    if (!ft_state.failed) {
      if (rc != FENCI_OK) FT_FAIL("%s: without a failure it returns %s", name, fenci_rc_str(rc));
      break;
    }
    st.n_values++;
    if (rc == FENCI_NOMEM) st.nomem++;
    else if (rc == FENCI_OK) st.recovered++;
    else FT_FAIL("%s: N=%ld: returned %s instead of FENCI_NOMEM", name, n, fenci_rc_str(rc));
    if (n > 200000) {
      FT_FAIL("%s: more than 200000 allocations", name);
      break;
    }
  }
  printf("  %-44s %5ld N values (%ld NOMEM, %ld recovered)\n", name, st.n_values, st.nomem, st.recovered);
  fflush(stdout);
}

/* ------------------------------------------------------------ operations */

typedef struct ft_ctx {
  const char *path;       /* model file */
  const void *img;        /* model image (8-byte aligned) */
  size_t img_len;
  const char *src;        /* lexicon source */
  size_t src_len;
  fenci_model *m;         /* loaded with ft_a, unarmed */
  unsigned opts;
  const char *text;
  size_t text_len;
  const ft_toks *expect;  /* reference tokens for text with opts */
  const void *expect_ents; /* reference entities (op_entities) */
  const char *dict_text;
  size_t dict_len;
} ft_ctx;

/* Segments c->text with tagger t and compares with the reference when the
 * call succeeds. */
static fenci_rc ft_segment_cmp(ft_ctx *c, fenci_tagger *t) {
  ft_toks v = {NULL, 0, 0};
  fenci_rc rc = fenci_segment(t, c->text, c->text_len, ft_collect, &v);
  if (rc == FENCI_OK && c->expect && !ft_same(&v, c->expect)) {
    FT_FAIL("segmentation differs from the reference (opts 0x%x, %zu vs %zu tokens)", c->opts, v.n, c->expect->n);
  }
  free(v.t);
  return rc;
}

static fenci_rc op_from_buffer(void *ctx) {
  ft_ctx *c = ctx;
  fenci_model *m = (fenci_model *)1;
  char err[200];
  fenci_rc rc = fenci_model_from_buffer(&m, c->img, c->img_len, &ft_a, err, sizeof err);
  if (rc != FENCI_OK && m) FT_FAIL("from_buffer: *out not NULL on failure");
  fenci_model_free(m);
  return rc;
}

static fenci_rc op_open(void *ctx) {
  ft_ctx *c = ctx;
  fenci_model *m = (fenci_model *)1;
  char err[200];
  fenci_rc rc = fenci_model_open(&m, c->path, &ft_a, err, sizeof err);
  if (rc != FENCI_OK && m) FT_FAIL("model_open: *out not NULL on failure");
  fenci_model_free(m);
  return rc;
}

/* A model just opened, segmenting the text three times (about 90,000
 * characters): the first segmentation with a trained model builds its
 * int32 tables and a later one, past FC_SEG_FILTER_AFTER units, its pair
 * filters (src/segmodel.c, fc_seg_derive).  A failed table build must
 * return FENCI_NOMEM and a failed filter build nothing at all, both
 * without a leak, and the model segments as before. */
static fenci_rc op_open_first_segment(void *ctx) {
  ft_ctx *c = ctx;
  fenci_model *m = NULL;
  fenci_tagger *t = NULL;
  char err[200];
  int k;
  fenci_rc rc = fenci_model_open(&m, c->path, &ft_a, err, sizeof err);
  if (rc == FENCI_OK) rc = fenci_tagger_new(&t, m, FENCI_MODE_DEFAULT);
  for (k = 0; rc == FENCI_OK && k < 3; k++) {
    ft_toks v = {NULL, 0, 0};
    rc = fenci_segment(t, c->text, c->text_len, ft_collect, &v);
    if (rc == FENCI_OK && !ft_same(&v, c->expect)) FT_FAIL("segmentation %d of a new model differs from the reference", k);
    if (rc == FENCI_NOMEM) {
      /* the same tagger again without the failure: the same tokens */
      long keep = ft_state.fail_at;
      ft_toks w = {NULL, 0, 0};
      ft_disarm();
      if (fenci_segment(t, c->text, c->text_len, ft_collect, &w) != FENCI_OK || !ft_same(&w, c->expect))
        FT_FAIL("segmentation after a failed one differs from the reference");
      free(w.t);
      ft_state.fail_at = keep;
    }
    free(v.t);
  }
  fenci_tagger_free(t);
  fenci_model_free(m);
  return rc;
}

static fenci_rc op_compile(void *ctx) {
  ft_ctx *c = ctx;
  void *out = NULL;
  size_t len = 0;
  char err[200];
  fenci_rc rc = fenci_lexicon_compile(c->src, c->src_len, &out, &len, &ft_a, err, sizeof err);
  if (rc == FENCI_OK) {
    /* the image must load, with the normal allocator */
    fenci_model *m = NULL;
    if (fenci_model_from_buffer(&m, out, len, NULL, err, sizeof err) != FENCI_OK)
      FT_FAIL("compiled image does not load: %s", err);
    fenci_model_free(m);
    fenci_free(&ft_a, out);
  } else if (out) {
    FT_FAIL("compile: output set on failure");
  }
  return rc;
}

/* compile with an unknown-word corpus (fenci_lexicon_compile_ex) */
static fenci_rc op_compile_ex(void *ctx) {
  ft_ctx *c = ctx;
  void *out = NULL;
  size_t len = 0;
  char err[200];
  fenci_rc rc = fenci_lexicon_compile_ex(c->src, c->src_len, c->dict_text, c->dict_len, &out, &len, &ft_a, err,
                                         sizeof err);
  if (rc == FENCI_OK) {
    fenci_model *m = NULL;
    if (fenci_model_from_buffer(&m, out, len, NULL, err, sizeof err) != FENCI_OK)
      FT_FAIL("compiled image does not load: %s", err);
    fenci_model_free(m);
    fenci_free(&ft_a, out);
  } else if (out) {
    FT_FAIL("compile_ex: output set on failure");
  }
  return rc;
}

/* tagger creation + segmentation with a fresh tagger; after a failure in
 * fenci_segment the same tagger must give the reference tokens */
static fenci_rc op_tagger_segment(void *ctx) {
  ft_ctx *c = ctx;
  fenci_tagger *t = NULL;
  fenci_rc rc = fenci_tagger_new(&t, c->m, c->opts);
  if (rc != FENCI_OK && t) FT_FAIL("tagger_new: *out not NULL on failure");
  if (rc == FENCI_OK) {
    rc = ft_segment_cmp(c, t);
    if (rc == FENCI_NOMEM) {
      long keep = ft_state.fail_at;
      ft_disarm();
      if (ft_segment_cmp(c, t) != FENCI_OK) FT_FAIL("tagger unusable after FENCI_NOMEM");
      ft_state.fail_at = keep;
    }
  }
  fenci_tagger_free(t);
  return rc;
}

/* Entities of a text with names, times and quantities, and the words
 * the time and quantity rules ask the lexicon about (wordgap.c). */
static const char ft_ent_text[] =
    "1814年4月6日，拿破仑在枫丹白露宫签署了退位诏书，共消耗了约22万发炮弹。该市有300万人口，"
    "双方在维也纳会议上周旋，他们去年轻人聚集的地方，每周一出版，去年底完成，负五摄氏度。\n"
    "瓦莱夫斯卡伯爵夫人从华沙赶来，五十两银子，上午9:30，3.5%。他買了三點五公斤蘋果，下週一開會。\n";

typedef struct ft_ents {
  size_t n;
  unsigned long h; /* a hash of every entity's type, offsets and value */
} ft_ents;

static int ft_ent_collect(void *ctx, const fenci_entity *e) {
  ft_ents *v = ctx;
  const char *s = e->value_text ? e->value_text : "";
  v->n++;
  v->h = v->h * 1000003u + (unsigned long)e->type * 31u + e->start * 7u + e->end + (unsigned long)e->cstart * 13u;
  v->h = v->h * 31u + (unsigned long)(long long)(e->value * 1000);
  while (*s) v->h = v->h * 131u + (unsigned char)*s++;
  return 0;
}

static fenci_rc ft_entities_cmp(ft_ctx *c, fenci_tagger *t, const ft_ents *ref) {
  ft_ents v = {0, 0};
  fenci_rc rc = fenci_entities(t, ft_ent_text, sizeof ft_ent_text - 1, ft_ent_collect, &v);
  if (rc == FENCI_OK && ref && (v.n != ref->n || v.h != ref->h))
    FT_FAIL("entities differ from the reference (%zu vs %zu)", v.n, ref->n);
  (void)c;
  return rc;
}

/* tagger creation + fenci_entities; after a failure the same tagger must
 * give the reference entities */
static fenci_rc op_entities(void *ctx) {
  ft_ctx *c = ctx;
  const ft_ents *ref = (const ft_ents *)c->expect_ents;
  fenci_tagger *t = NULL;
  fenci_rc rc = fenci_tagger_new(&t, c->m, FENCI_MODE_DEFAULT);
  if (rc == FENCI_OK) {
    rc = ft_entities_cmp(c, t, ref);
    if (rc == FENCI_NOMEM) {
      long keep = ft_state.fail_at;
      ft_disarm();
      if (ft_entities_cmp(c, t, ref) != FENCI_OK) FT_FAIL("tagger unusable for entities after FENCI_NOMEM");
      ft_state.fail_at = keep;
    }
  }
  fenci_tagger_free(t);
  return rc;
}

/* fenci_segment_into on a fresh tagger */
static fenci_rc op_segment_into(void *ctx) {
  ft_ctx *c = ctx;
  size_t n = 0;
  fenci_token *arr = malloc(c->expect->n * sizeof *arr + 1);
  fenci_tagger *t = NULL;
  fenci_rc rc;
  if (!arr) abort();
  rc = fenci_tagger_new(&t, c->m, c->opts);
  if (rc == FENCI_OK) rc = fenci_segment_into(t, c->text, c->text_len, arr, c->expect->n, &n);
  if (rc == FENCI_OK && (n != c->expect->n || memcmp(arr, c->expect->t, n * sizeof *arr) != 0))
    FT_FAIL("segment_into differs from the reference");
  fenci_tagger_free(t);
  free(arr);
  return rc;
}

/* user dictionary: new + load_text + attach (freeze) + segment */
static fenci_rc op_dict(void *ctx) {
  ft_ctx *c = ctx;
  fenci_dict *d = NULL;
  fenci_tagger *t = NULL;
  char err[200];
  fenci_rc rc = fenci_dict_new(&d, c->m, &ft_a);
  if (rc == FENCI_OK) rc = fenci_dict_add(d, "云计算平台", strlen("云计算平台"), 0, NULL);
  if (rc == FENCI_OK) rc = fenci_dict_load_text(d, c->dict_text, c->dict_len, err, sizeof err);
  if (rc == FENCI_OK) rc = fenci_tagger_new(&t, c->m, c->opts);
  if (rc == FENCI_OK) {
    rc = fenci_tagger_set_dict(t, d);
    if (rc == FENCI_NOMEM) {
      /* the dict stays usable: attaching again without the failure works */
      long keep = ft_state.fail_at;
      ft_disarm();
      if (fenci_tagger_set_dict(t, d) != FENCI_OK) FT_FAIL("dict unusable after a failed freeze");
      ft_state.fail_at = keep;
    }
  }
  if (rc == FENCI_OK) {
    ft_toks v = {NULL, 0, 0};
    rc = fenci_segment(t, c->text, c->text_len, ft_collect, &v);
    if (rc == FENCI_OK && c->expect && !ft_same(&v, c->expect)) FT_FAIL("dict: segmentation differs from the reference");
    free(v.t);
  }
  fenci_tagger_free(t);
  fenci_dict_free(d);
  return rc;
}

/* A dict loaded from a file path (fenci_dict_load). */
static fenci_rc op_dict_file(void *ctx) {
  ft_ctx *c = ctx;
  fenci_dict *d = NULL;
  char err[200];
  fenci_rc rc = fenci_dict_new(&d, c->m, &ft_a);
  if (rc == FENCI_OK) rc = fenci_dict_load(d, c->path, err, sizeof err);
  fenci_dict_free(d);
  return rc;
}

/* ------------------------------------------------------------ main */

static void ft_reference(ft_ctx *c, fenci_dict *d, ft_toks *out) {
  fenci_tagger *t = NULL;
  if (fenci_tagger_new(&t, c->m, c->opts) != FENCI_OK || (d && fenci_tagger_set_dict(t, d) != FENCI_OK) ||
      fenci_segment(t, c->text, c->text_len, ft_collect, out) != FENCI_OK) {
    FT_FAIL("reference segmentation failed");
  }
  fenci_tagger_free(t);
}

static void ft_model(const char *path, const char *dict_text, size_t dict_len, const char *dict_path, int first) {
  static const unsigned all_opts[] = {FENCI_MODE_DEFAULT, FENCI_MODE_SEARCH, FENCI_MODE_ALL, FENCI_OPT_FAST,
                                      FENCI_MODE_SEARCH | FENCI_OPT_FAST, FENCI_OPT_POS,
                                      FENCI_OPT_POS | FENCI_MODE_SEARCH};
  ft_ctx c;
  size_t len = 0, i;
  char *raw = ft_read(path, &len);
  char err[256], name[160];
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  long blocks0;
  long long bytes0;
  int by_path;
  if (!raw) {
    FT_FAIL("cannot read %s", path);
    return;
  }
  memset(&c, 0, sizeof c);
  c.path = path;
  c.img = raw;
  c.img_len = len;
  c.text = ft_text(&c.text_len);
  c.dict_text = dict_text;
  c.dict_len = dict_len;
  {
    /* a model that references its lexicon file (LREF) opens only by path */
    fenci_model *probe = NULL;
    by_path = fenci_model_from_buffer(&probe, c.img, c.img_len, NULL, err, sizeof err) != FENCI_OK &&
              strstr(err, "LREF") != NULL;
    fenci_model_free(probe);
  }
  if (!by_path) {
    snprintf(name, sizeof name, "model_from_buffer %s", base);
    ft_loop(name, op_from_buffer, &c);
  }
  snprintf(name, sizeof name, "model_open %s", base);
  ft_loop(name, op_open, &c);

  blocks0 = ft_state.live_blocks;
  bytes0 = ft_state.live_bytes;
  if ((by_path ? fenci_model_open(&c.m, path, &ft_a, err, sizeof err)
               : fenci_model_from_buffer(&c.m, c.img, c.img_len, &ft_a, err, sizeof err)) != FENCI_OK) {
    FT_FAIL("%s: %s", path, err);
    free(raw);
    return;
  }
  printf("  (%s: %zu words, %s)\n", base, fenci_model_lexicon_size(c.m),
         fenci_model_has_weights(c.m) ? "trained weights" : "lexicon only");
  if (fenci_model_has_weights(c.m)) {
    ft_toks ref = {NULL, 0, 0};
    int k;
    c.opts = FENCI_MODE_DEFAULT;
    ft_reference(&c, NULL, &ref);
    c.expect = &ref;
    snprintf(name, sizeof name, "model_open+3 segments %s", base);
    ft_loop(name, op_open_first_segment, &c);
    c.expect = NULL;
    /* the shared model's derived tables, which it keeps once built, are
     * made now, so that no run of the loops below counts them as its own */
    for (k = 0; k < 2; k++) {
      ft_toks v = {NULL, 0, 0};
      ft_reference(&c, NULL, &v);
      free(v.t);
    }
    free(ref.t);
  }
  for (i = 0; i < sizeof all_opts / sizeof all_opts[0]; i++) {
    ft_toks ref = {NULL, 0, 0};
    const char *mode;
    c.opts = all_opts[i];
    if ((c.opts & FENCI_OPT_FAST) && !fenci_model_has_weights(c.m)) continue; /* same path as without */
    if ((c.opts & FENCI_OPT_POS) && !fenci_model_has_pos(c.m)) continue;
    mode = (c.opts & FENCI_MODE_MASK) == FENCI_MODE_SEARCH ? "search" : (c.opts & FENCI_MODE_MASK) == FENCI_MODE_ALL ? "all" : "default";
    ft_reference(&c, NULL, &ref);
    c.expect = &ref;
    snprintf(name, sizeof name, "tagger_new+segment %s%s%s %s", mode, (c.opts & FENCI_OPT_FAST) ? "+fast" : "",
             (c.opts & FENCI_OPT_POS) ? "+pos" : "", base);
    ft_loop(name, op_tagger_segment, &c);
    if (i == 0) {
      snprintf(name, sizeof name, "segment_into %s", base);
      ft_loop(name, op_segment_into, &c);
    }
    free(ref.t);
    if (first || i == 0) {
      /* user dictionary: reference with the same dict loaded normally */
      fenci_dict *d = NULL;
      ft_toks dref = {NULL, 0, 0};
      if (fenci_dict_new(&d, c.m, NULL) != FENCI_OK || fenci_dict_add(d, "云计算平台", strlen("云计算平台"), 0, NULL) ||
          fenci_dict_load_text(d, dict_text, dict_len, err, sizeof err) != FENCI_OK)
        FT_FAIL("dict reference: %s", err);
      ft_reference(&c, d, &dref);
      c.expect = &dref;
      snprintf(name, sizeof name, "dict_load_text+attach+segment %s %s", mode, base);
      ft_loop(name, op_dict, &c);
      fenci_dict_free(d);
      free(dref.t);
      if (first && i == 0) {
        ft_ctx c2 = c;
        c2.path = dict_path;
        snprintf(name, sizeof name, "dict_load (file) %s", base);
        ft_loop(name, op_dict_file, &c2);
      }
    }
    c.expect = NULL;
  }
  if (fenci_model_has_ner(c.m)) {
    ft_ents ref = {0, 0};
    fenci_tagger *t = NULL;
    if (fenci_tagger_new(&t, c.m, FENCI_MODE_DEFAULT) != FENCI_OK ||
        fenci_entities(t, ft_ent_text, sizeof ft_ent_text - 1, ft_ent_collect, &ref) != FENCI_OK)
      FT_FAIL("reference entities failed");
    fenci_tagger_free(t);
    c.expect_ents = &ref;
    snprintf(name, sizeof name, "tagger_new+entities %s", base);
    ft_loop(name, op_entities, &c);
    c.expect_ents = NULL;
  }
  /* the model stays usable after all of that */
  {
    ft_toks a = {NULL, 0, 0}, b = {NULL, 0, 0};
    fenci_model *m2 = NULL;
    c.opts = FENCI_MODE_DEFAULT;
    ft_reference(&c, NULL, &a);
    if ((by_path ? fenci_model_open(&m2, path, NULL, err, sizeof err)
                 : fenci_model_from_buffer(&m2, c.img, c.img_len, NULL, err, sizeof err)) == FENCI_OK) {
      fenci_model *keep = c.m;
      c.m = m2;
      ft_reference(&c, NULL, &b);
      c.m = keep;
      if (!ft_same(&a, &b)) FT_FAIL("%s: model segments differently after the fault runs", path);
    }
    fenci_model_free(m2);
    free(a.t);
    free(b.t);
  }
  fenci_model_free(c.m);
  if (ft_state.live_blocks != blocks0 || ft_state.live_bytes != bytes0)
    FT_FAIL("%s: model free leaked %ld blocks", path, ft_state.live_blocks - blocks0);
  free((void *)c.text);
  free(raw);
}

int main(int argc, char **argv) {
  ft_ctx c;
  size_t src_len = 0, i;
  char *src;
  static const char dict_text[] = "# user words\n长江大桥\n和尚 100 n\n自然语言处理 5 l\n南京市长 0\n一个月\nk8s\n";
  const char *dict_path = "build/tests/fault-dict.txt";
  char *corpus = NULL; /* segmented corpus for compile_ex ($FAULT_CORPUS) */
  size_t corpus_len = 0;
  FILE *f;
  if (argc < 3) {
    fprintf(stderr, "usage: fault LEXICON_SOURCE... MODEL.fenci...\n");
    return 2;
  }
  src = ft_read(argv[1], &src_len);
  if (!src) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  if (getenv("FAULT_TMP")) dict_path = getenv("FAULT_TMP");
  if (getenv("FAULT_CORPUS")) corpus = ft_read(getenv("FAULT_CORPUS"), &corpus_len);
  f = fopen(dict_path, "wb");
  if (!f || fwrite(dict_text, 1, sizeof dict_text - 1, f) != sizeof dict_text - 1) {
    fprintf(stderr, "cannot write %s\n", dict_path);
    return 2;
  }
  fclose(f);
  printf("fault injection (fail the Nth allocation, N = 1, 2, ... until a run succeeds):\n");
  free(src);
  for (i = 1; i < (size_t)argc; i++) {
    size_t l = strlen(argv[i]);
    char name[160];
    if (l >= 6 && strcmp(argv[i] + l - 6, ".fenci") == 0) continue;
    src = ft_read(argv[i], &src_len);
    if (!src) {
      FT_FAIL("cannot read %s", argv[i]);
      continue;
    }
    memset(&c, 0, sizeof c);
    c.src = src;
    c.src_len = src_len;
    snprintf(name, sizeof name, "lexicon_compile %s", strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i]);
    ft_loop(name, op_compile, &c);
    if (corpus) {
      c.dict_text = corpus;
      c.dict_len = corpus_len;
      snprintf(name, sizeof name, "lexicon_compile_ex %s + corpus", strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i]);
      ft_loop(name, op_compile_ex, &c);
    }
    free(src);
  }
  {
    int first = 1;
    for (i = 1; i < (size_t)argc; i++) {
      size_t l = strlen(argv[i]);
      if (l < 6 || strcmp(argv[i] + l - 6, ".fenci") != 0) continue;
      ft_model(argv[i], dict_text, sizeof dict_text - 1, dict_path, first);
      first = 0;
    }
  }
  free(corpus);
  if (ft_state.live_blocks != 0) FT_FAIL("%ld blocks still live at exit", ft_state.live_blocks);
  if (ft_failures) {
    printf("fault: %d failures\n", ft_failures);
    return 1;
  }
  printf("fault: all passed\n");
  return 0;
}
