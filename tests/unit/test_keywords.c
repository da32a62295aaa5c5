/* test_keywords.c - keyword extraction (keywords.c) and the keyword tables
 * (kwtable.c): TF-IDF weights against the formula, the median for words
 * without a value, stop words (model, caller, case-folded), the tag filter,
 * grouping by tag, ties in first-occurrence order, TextRank's window and
 * scaling against a direct implementation, FENCI_TOOSMALL, corrupt KIDF and
 * KSTP sections, hostile bytes, a long input, and every allocation failing
 * in turn. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "fenci.h"
#include "fmt.h"
#include "harness.h"
#include "kwtable.h"

static const char LEX[] =
    "自然 30 n\n"
    "语言 30 n\n"
    "处理 40 v\n"
    "我们 50 r\n"
    "研究 30 v\n"
    "机构 30 n\n"
    "北京 30 ns\n"
    "大学 30 n\n"
    "计算机 20 n\n"
    "学习 30 v\n"
    "Apple 10 nz\n"
    "的 100 uj\n";

/* A model image: LEX plus KIDF (df of the words named, of n_docs
 * documents) and, when stops is not NULL, KSTP.  kidf_delta changes the
 * KIDF section's size (corruption tests); swap_stops puts two stop words
 * out of order.  Returns the image (free with free) and its length. */
static uint8_t *kw_image(const char *const *words, const uint32_t *df, size_t nw, uint32_t n_docs,
                         const char *stops, int kidf_delta, int swap_stops, size_t *len) {
  void *base = NULL;
  size_t blen = 0, i, n_stop = 0;
  char err[256];
  fenci_model *m = NULL;
  fc_file f;
  fc_writer w;
  fc_buf kidf, kstp;
  uint32_t *dfv;
  uint8_t *out = NULL;
  fenci_rc rc = fenci_lexicon_compile(LEX, strlen(LEX), &base, &blen, NULL, err, sizeof err);
  OK(rc == FENCI_OK, "compile: %s", err);
  rc = fenci_model_from_buffer(&m, base, blen, NULL, err, sizeof err);
  OK(rc == FENCI_OK, "load: %s", err);
  dfv = calloc(fenci_model_lexicon_size(m), sizeof *dfv);
  for (i = 0; i < nw; i++) {
    uint32_t wi;
    int found = fc_kw_lexicon_word(m, (const uint8_t *)words[i], strlen(words[i]), &wi);
    OK(found, "%s is a lexicon word", words[i]);
    if (found) dfv[wi] = df[i];
  }
  fc_buf_init(&kidf, NULL);
  fc_buf_init(&kstp, NULL);
  INT_EQ(fc_kidf_build(dfv, fenci_model_lexicon_size(m), n_docs, &kidf, NULL), FENCI_OK);
  if (stops) INT_EQ(fc_kstp_build(stops, strlen(stops), NULL, &kstp, &n_stop, err, sizeof err), FENCI_OK);
  if (swap_stops && n_stop >= 2) {
    /* swap the first two words' bytes when they have the same length */
    uint8_t *off = kstp.data + FC_KSTP_HEAD, *bytes = off + 4 * (n_stop + 1);
    uint32_t a = fc_rd32(off + 4), b = fc_rd32(off + 8);
    if (a == b - a) {
      uint8_t tmp[64];
      memcpy(tmp, bytes, a);
      memcpy(bytes, bytes + a, a);
      memcpy(bytes + a, tmp, a);
    }
  }
  INT_EQ(fc_fmt_parse(&f, base, blen, 0, err, sizeof err), FENCI_OK);
  fc_writer_init(&w, NULL);
  for (i = 0; i < f.n_sections; i++) fc_writer_add(&w, f.sec[i].tag, f.sec[i].data, f.sec[i].size);
  fc_writer_add(&w, "KIDF", kidf.data, (size_t)((long)kidf.len + kidf_delta));
  if (stops) fc_writer_add(&w, "KSTP", kstp.data, kstp.len);
  INT_EQ(fc_writer_finish(&w, &out, len), FENCI_OK);
  fc_writer_free(&w);
  fc_buf_free(&kidf);
  fc_buf_free(&kstp);
  free(dfv);
  fenci_model_free(m);
  fenci_free(NULL, base);
  return out;
}

static const char *const W[] = {"自然", "语言", "处理", "北京", "大学", "计算机", "学习", "Apple"};
static const uint32_t DF[] = {10, 20, 50, 5, 40, 2, 30, 1};
#define NDOCS 100

static double idf_of(uint32_t df) {
  /* quantised as the table stores it */
  return floor(log((double)NDOCS / df) * 2048.0 + 0.5) / 2048.0;
}

/* Keywords of text as "w:weight w:weight" into buf. */
static fenci_rc kw_str(fenci_tagger *t, const char *text, const fenci_kw_opts *o, char *buf, size_t cap,
                       int weights) {
  fenci_keyword kw[64];
  size_t n = 0, i, at = 0;
  fenci_rc rc = fenci_keywords(t, text, strlen(text), o, kw, 64, &n);
  buf[0] = 0;
  for (i = 0; rc == FENCI_OK && i < n && at + 64 < cap; i++) {
    at += (size_t)snprintf(buf + at, cap - at, "%s%.*s", i ? " " : "", (int)(kw[i].end - kw[i].start),
                           text + kw[i].start);
    if (weights) at += (size_t)snprintf(buf + at, cap - at, ":%.4f", kw[i].weight);
  }
  return rc;
}

static void test_tfidf(fenci_model *m) {
  fenci_tagger *t = NULL;
  fenci_kw_opts o;
  fenci_keyword kw[16];
  size_t n = 0, i;
  char buf[1024];
  /* candidates: 自然 x2, 语言, 处理, 计算机, 研究 (no value: median); 我们 and
   * 的 are stop words, ， punctuation, 2 a number */
  const char *text = "我们研究自然语言处理的计算机，自然2";
  double med = 0, total = 6;
  INT_EQ(fenci_tagger_new(&t, m, 0), FENCI_OK);
  memset(&o, 0, sizeof o);
  INT_EQ(fenci_keywords(t, text, strlen(text), &o, kw, 16, &n), FENCI_OK);
  INT_EQ(n, 5);
  {
    /* the median of the stored values, as the table computes it */
    double v[8];
    size_t k, j;
    for (k = 0; k < 8; k++) v[k] = (float)log((double)NDOCS / DF[k]);
    for (k = 0; k < 8; k++)
      for (j = k + 1; j < 8; j++)
        if (v[j] < v[k]) {
          double x = v[k];
          v[k] = v[j];
          v[j] = x;
        }
    med = (float)v[4];
  }
  for (i = 0; i < n; i++) {
    const char *w = text + kw[i].start;
    size_t l = kw[i].end - kw[i].start;
    double want = -1;
    if (l == 6 && !memcmp(w, "自然", 6)) {
      want = 2 / total * idf_of(10);
      INT_EQ(kw[i].count, 2);
    }
    else if (l == 6 && !memcmp(w, "语言", 6)) want = 1 / total * idf_of(20);
    else if (l == 6 && !memcmp(w, "处理", 6)) want = 1 / total * idf_of(50);
    else if (l == 9 && !memcmp(w, "计算机", 9)) want = 1 / total * idf_of(2);
    else if (l == 6 && !memcmp(w, "研究", 6)) want = 1 / total * med;
    OK(want >= 0 && fabs(kw[i].weight - want) < 1e-4, "%.*s: weight %g, want %g", (int)l, w, kw[i].weight, want);
    if (i) OK(kw[i].weight <= kw[i - 1].weight, "sorted by weight");
  }
  /* 研究 has no IDF value but is a lexicon word: it got the median */
  {
    /* the table's values as fenci_model_word_idf reads them */
    double v = -1;
    INT_EQ(fenci_model_word_idf(m, "自然", 6, &v), 1);
    OK(fabs(v - idf_of(10)) < 1e-6, "idf of 自然: %g", v);
    INT_EQ(fenci_model_word_idf(m, "Apple", 5, &v), 1);
    OK(fabs(v - idf_of(1)) < 1e-6, "idf of Apple: %g", v);
    INT_EQ(fenci_model_word_idf(m, "研究", 6, &v), 0); /* a lexicon word without a value */
    OK(fabs(v - med) < 1e-6, "median: %g", v);
    INT_EQ(fenci_model_word_idf(m, "没有", 6, &v), 0); /* no lexicon word */
    OK(fabs(v - med) < 1e-6, "median: %g", v);
    INT_EQ(fenci_model_word_idf(m, NULL, 0, NULL), 0);
    INT_EQ(fenci_model_word_idf(NULL, "自然", 6, &v), -1);
  }
  /* top_k, FENCI_TOOSMALL */
  o.top_k = 2;
  INT_EQ(fenci_keywords(t, text, strlen(text), &o, kw, 16, &n), FENCI_OK);
  INT_EQ(n, 2);
  o.top_k = 0;
  INT_EQ(fenci_keywords(t, text, strlen(text), &o, kw, 3, &n), FENCI_TOOSMALL);
  INT_EQ(n, 5);
  INT_EQ(fenci_keywords(t, text, strlen(text), &o, NULL, 0, &n), FENCI_TOOSMALL);
  INT_EQ(fenci_keywords(t, "", 0, &o, NULL, 0, &n), FENCI_OK);
  INT_EQ(n, 0);
  /* numbers only when asked */
  o.flags = FENCI_KW_NUMBERS;
  kw_str(t, "计算机2019年12345", &o, buf, sizeof buf, 0);
  STR_EQ(buf, "计算机 2019 12345"); /* the lexicon path cuts 2019 年 */
  o.flags = 0;
  kw_str(t, "计算机2019年12345", &o, buf, sizeof buf, 0);
  STR_EQ(buf, "计算机");
  /* equal weights: first occurrence first, whatever the bytes */
  kw_str(t, "学习学习大学大学", &o, buf, sizeof buf, 0);
  STR_EQ(buf, "学习 大学"); /* idf(30) > idf(40) */
  kw_str(t, "研究机构机构研究", &o, buf, sizeof buf, 0);
  STR_EQ(buf, "研究 机构"); /* both the median: 机构 is first bytewise, 研究 in the text */
  /* the default stop words, and FENCI_KW_NO_DEFAULT_STOP */
  kw_str(t, "我们我们", &o, buf, sizeof buf, 0);
  STR_EQ(buf, "");
  o.flags = FENCI_KW_NO_DEFAULT_STOP;
  kw_str(t, "我们我们", &o, buf, sizeof buf, 0);
  STR_EQ(buf, "我们");
  o.flags = 0;
  /* the tag filter: n only; "" and NULL every tag; unknown names nothing */
  o.pos = "n";
  kw_str(t, "我们研究自然语言处理的计算机", &o, buf, sizeof buf, 0);
  STR_EQ(buf, "计算机 自然 语言");
  o.pos = "v, nz";
  kw_str(t, "研究Apple处理apple", &o, buf, sizeof buf, 0);
  STR_EQ(buf, "Apple 研究 处理"); /* 研究: the median, 2.3 > ln 2 */
  o.pos = "zzz";
  kw_str(t, "研究自然", &o, buf, sizeof buf, 0);
  STR_EQ(buf, "");
  o.pos = "";
  kw_str(t, "研究自然", &o, buf, sizeof buf, 0);
  STR_EQ(buf, "自然 研究");
  o.pos = NULL;
  fenci_tagger_free(t);
}

static void test_kwdict(fenci_model *m) {
  fenci_tagger *t = NULL;
  fenci_kwdict *d = NULL;
  fenci_kw_opts o;
  char buf[1024], err[256];
  const char *idf = "\xEF\xBB\xBF自然 1.0\n语言 2.0\n\n处理\t3.0\n";
  INT_EQ(fenci_tagger_new(&t, m, 0), FENCI_OK);
  INT_EQ(fenci_kwdict_new(&d, NULL), FENCI_OK);
  memset(&o, 0, sizeof o);
  o.dict = d;
  /* caller stop words add to the model's; Latin ones compare case-folded */
  INT_EQ(fenci_kwdict_add_stop(d, "APPLE", 5), FENCI_OK);
  {
    const char *st = " 自然 \n\n# every line is a word, as in jieba\n";
    INT_EQ(fenci_kwdict_load_stop(d, st, strlen(st), err, sizeof err), FENCI_OK);
  }
  kw_str(t, "Apple自然语言我们", &o, buf, sizeof buf, 0);
  STR_EQ(buf, "语言");
  INT_EQ(fenci_kwdict_load_stop(d, "ok\n\xff\xfe\n", 6, err, sizeof err), FENCI_BADFORMAT);
  OK(strstr(err, "line 2") != NULL, "message names the line: %s", err);
  INT_EQ(fenci_kwdict_add_stop(d, "", 0), FENCI_BADARG);
  INT_EQ(fenci_kwdict_add_stop(d, "\xC0\x80", 2), FENCI_BADARG);
  /* an IDF table replaces the model's; the median (2.0) for the rest */
  fenci_kwdict_free(d);
  d = NULL;
  INT_EQ(fenci_kwdict_new(&d, NULL), FENCI_OK);
  o.dict = d;
  INT_EQ(fenci_kwdict_load_idf(d, idf, strlen(idf), err, sizeof err), FENCI_OK);
  kw_str(t, "自然语言处理计算机", &o, buf, sizeof buf, 1);
  STR_EQ(buf, "处理:0.7500 语言:0.5000 计算机:0.5000 自然:0.2500");
  INT_EQ(fenci_kwdict_load_idf(d, "a 1\nb\n", 6, err, sizeof err), FENCI_BADFORMAT);
  OK(strstr(err, "line 2") != NULL, "message names the line: %s", err);
  INT_EQ(fenci_kwdict_load_idf(d, "a nan\n", 6, err, sizeof err), FENCI_BADFORMAT);
  INT_EQ(fenci_kwdict_load_idf(d, "a 1 2\n", 6, err, sizeof err), FENCI_BADFORMAT);
  /* nothing of a bad text was added: same result */
  kw_str(t, "自然语言处理计算机", &o, buf, sizeof buf, 1);
  STR_EQ(buf, "处理:0.7500 语言:0.5000 计算机:0.5000 自然:0.2500");
  fenci_kwdict_free(d);
  /* number forms (not strtod: no locale); the median of 0.5, 2, 10 is 2 */
  d = NULL;
  INT_EQ(fenci_kwdict_new(&d, NULL), FENCI_OK);
  o.dict = d;
  {
    const char *t2 = "自然 1e1\n语言 .5\n处理 +2\n";
    INT_EQ(fenci_kwdict_load_idf(d, t2, strlen(t2), err, sizeof err), FENCI_OK);
  }
  kw_str(t, "自然语言处理计算机", &o, buf, sizeof buf, 1);
  STR_EQ(buf, "自然:2.5000 处理:0.5000 计算机:0.5000 语言:0.1250");
  INT_EQ(fenci_kwdict_load_idf(d, "a 1,5\n", 6, err, sizeof err), FENCI_BADFORMAT);
  INT_EQ(fenci_kwdict_load_idf(d, "a inf\n", 6, err, sizeof err), FENCI_BADFORMAT);
  INT_EQ(fenci_kwdict_load_idf(d, "a -1\n", 5, err, sizeof err), FENCI_BADFORMAT);
  INT_EQ(fenci_kwdict_load_idf(d, "a 1e\n", 5, err, sizeof err), FENCI_BADFORMAT);
  INT_EQ(fenci_kwdict_load_idf(d, "a .\n", 4, err, sizeof err), FENCI_BADFORMAT);
  fenci_kwdict_free(d);
  fenci_kwdict_free(NULL);
  fenci_tagger_free(t);
}

static void test_by_tag(fenci_model *m) {
  /* the same word with two tags, through the tokens call */
  const char *text = "自然自然自然";
  fenci_token tk[3];
  fenci_keyword kw[4];
  fenci_kw_opts o;
  size_t n = 0, i;
  for (i = 0; i < 3; i++) {
    tk[i].start = 6 * i;
    tk[i].end = 6 * i + 6;
    tk[i].flags = 0;
    tk[i].kind = FENCI_KIND_WORD;
    tk[i].tag = (uint16_t)(i == 1 ? 2 : 1);
  }
  memset(&o, 0, sizeof o);
  INT_EQ(fenci_keywords_tokens(m, text, strlen(text), tk, 3, &o, kw, 4, &n), FENCI_OK);
  INT_EQ(n, 1);
  INT_EQ(kw[0].count, 3);
  o.flags = FENCI_KW_BY_TAG;
  INT_EQ(fenci_keywords_tokens(m, text, strlen(text), tk, 3, &o, kw, 4, &n), FENCI_OK);
  INT_EQ(n, 2);
  INT_EQ(kw[0].count, 2);
  INT_EQ(kw[0].tag, 1);
  INT_EQ(kw[1].tag, 2);
  INT_EQ(kw[1].start, 6);
  tk[2].end = 19;
  INT_EQ(fenci_keywords_tokens(m, text, strlen(text), tk, 3, &o, kw, 4, &n), FENCI_BADARG);
}

/* TextRank, directly from the definition, over a token list of word ids
 * (-1: no candidate): ranks in id order (ids sorted bytewise by the caller). */
static void tr_direct(const int *ids, size_t n, int nn, unsigned window, double *r) {
  double wgt[16][16], out[16];
  size_t i, j;
  int a, b, it;
  memset(wgt, 0, sizeof wgt);
  for (i = 0; i < n; i++)
    for (j = i + 1; j < n && j < i + window; j++)
      if (ids[i] >= 0 && ids[j] >= 0) {
        if (ids[i] == ids[j]) wgt[ids[i]][ids[i]] += 2;
        else wgt[ids[i]][ids[j]] += 1, wgt[ids[j]][ids[i]] += 1;
      }
  for (a = 0; a < nn; a++) {
    out[a] = 0;
    for (b = 0; b < nn; b++) out[a] += wgt[a][b];
    r[a] = 1.0 / nn;
  }
  for (it = 0; it < 10; it++)
    for (a = 0; a < nn; a++) {
      double s = 0;
      for (b = 0; b < nn; b++)
        if (wgt[a][b] > 0) s += wgt[a][b] / out[b] * r[b];
      r[a] = 0.15 + 0.85 * s;
    }
  {
    double mn = r[0], mx = r[0];
    for (a = 1; a < nn; a++) mn = r[a] < mn ? r[a] : mn, mx = r[a] > mx ? r[a] : mx;
    for (a = 0; a < nn; a++) r[a] = (r[a] - mn / 10) / (mx - mn / 10);
  }
}

static void test_textrank(fenci_model *m) {
  fenci_tagger *t = NULL;
  fenci_kw_opts o;
  fenci_keyword kw[16];
  size_t n = 0, i;
  char buf[1024];
  /* n/ns/v words; 的 (uj) breaks no window but is no candidate */
  const char *text = "北京大学研究计算机的自然语言处理北京计算机大学";
  /* the candidates in bytewise order */
  static const char *const names[] = {"北京", "处理", "大学", "研究", "自然", "计算机", "语言"};
  int ids[16], nid = 0;
  double r[16];
  INT_EQ(fenci_tagger_new(&t, m, FENCI_OPT_FAST), FENCI_OK);
  memset(&o, 0, sizeof o);
  o.method = FENCI_KW_TEXTRANK;
  {
    /* the tokens as the tagger cuts them, mapped to name ids */
    static const char *const toks[] = {"北京", "大学", "研究", "计算机", "的", "自然",
                                       "语言", "处理", "北京", "计算机", "大学"};
    size_t k;
    int j;
    for (k = 0; k < sizeof toks / sizeof *toks; k++) {
      ids[nid] = -1;
      for (j = 0; j < 7; j++)
        if (!strcmp(toks[k], names[j])) ids[nid] = j;
      nid++;
    }
  }
  /* bytewise order check of names (the direct version relies on it) */
  for (i = 1; i < 7; i++) OK(strcmp(names[i - 1], names[i]) < 0, "names sorted");
  tr_direct(ids, (size_t)nid, 7, 5, r);
  INT_EQ(fenci_keywords(t, text, strlen(text), &o, kw, 16, &n), FENCI_OK);
  INT_EQ(n, 7);
  OK(fabs(kw[0].weight - 1.0) < 1e-12, "top weight %g", kw[0].weight);
  for (i = 0; i < n; i++) {
    int j, found = -1;
    for (j = 0; j < 7; j++)
      if (kw[i].end - kw[i].start == strlen(names[j]) && !memcmp(text + kw[i].start, names[j], strlen(names[j])))
        found = j;
    OK(found >= 0, "keyword %zu is a candidate", i);
    if (found >= 0) OK(fabs(kw[i].weight - r[found]) < 1e-9, "%s: %g, direct %g", names[found], kw[i].weight, r[found]);
  }
  /* window 2: only neighbours pair; a word with no neighbour is left out */
  o.window = 2;
  o.pos = "ns,n";
  kw_str(t, "北京的大学", &o, buf, sizeof buf, 0);
  STR_EQ(buf, "");
  o.window = 3;
  kw_str(t, "北京的大学", &o, buf, sizeof buf, 0);
  STR_EQ(buf, "大学 北京"); /* in-place updates: 北京 first, then 大学 sees its new rank */
  /* bad options */
  o.window = 1;
  INT_EQ(fenci_keywords(t, text, strlen(text), &o, kw, 16, &n), FENCI_BADARG);
  OK(strstr(fenci_tagger_errmsg(t), "window") != NULL, "message: %s", fenci_tagger_errmsg(t));
  o.window = 0;
  o.damping = 1.0;
  INT_EQ(fenci_keywords(t, text, strlen(text), &o, kw, 16, &n), FENCI_BADARG);
  o.damping = 0;
  o.method = 7;
  INT_EQ(fenci_keywords(t, text, strlen(text), &o, kw, 16, &n), FENCI_BADARG);
  fenci_tagger_free(t);
}

static void test_tables(void) {
  size_t len = 0;
  uint8_t *img;
  fenci_model *m = NULL;
  fenci_tagger *t = NULL;
  char err[256];
  fenci_keyword kw[4];
  size_t n;
  /* a KIDF one byte short, a KSTP out of order: clear errors at load */
  img = kw_image(W, DF, 8, NDOCS, NULL, -2, 0, &len);
  INT_EQ(fenci_model_from_buffer(&m, img, len, NULL, err, sizeof err), FENCI_BADFORMAT);
  OK(strstr(err, "KIDF") != NULL, "message: %s", err);
  free(img);
  img = kw_image(W, DF, 8, NDOCS, "乙乙\n甲甲\n", 0, 1, &len);
  INT_EQ(fenci_model_from_buffer(&m, img, len, NULL, err, sizeof err), FENCI_BADFORMAT);
  OK(strstr(err, "KSTP") != NULL, "message: %s", err);
  free(img);
  /* no table at all: TF-IDF refuses, TextRank works */
  {
    void *base = NULL;
    fenci_kw_opts o;
    INT_EQ(fenci_lexicon_compile(LEX, strlen(LEX), &base, &len, NULL, err, sizeof err), FENCI_OK);
    INT_EQ(fenci_model_from_buffer(&m, base, len, NULL, err, sizeof err), FENCI_OK);
    INT_EQ(fenci_tagger_new(&t, m, 0), FENCI_OK);
    INT_EQ(fenci_keywords(t, "自然语言", 12, NULL, kw, 4, &n), FENCI_BADARG);
    INT_EQ(fenci_model_word_idf(m, "自然", 6, NULL), -1);
    OK(strstr(fenci_tagger_errmsg(t), "IDF") != NULL, "message: %s", fenci_tagger_errmsg(t));
    memset(&o, 0, sizeof o);
    o.method = FENCI_KW_TEXTRANK;
    o.pos = "";
    INT_EQ(fenci_keywords(t, "自然语言", 12, &o, kw, 4, &n), FENCI_OK);
    INT_EQ(n, 2);
    fenci_tagger_free(t);
    fenci_model_free(m);
    fenci_free(NULL, base);
  }
}

/* Any bytes: offsets stay inside the text and on the keyword's bytes. */
static void test_hostile(fenci_model *m) {
  fenci_tagger *t = NULL;
  fenci_kw_opts o;
  fenci_keyword kw[32];
  size_t n, i, k, len = 1 << 16;
  char *text = malloc(len);
  uint32_t seed = 12345;
  int meth;
  fprintf(stderr, "test_keywords: hostile input seed %u\n", (unsigned)seed);
  INT_EQ(fenci_tagger_new(&t, m, 0), FENCI_OK);
  for (k = 0; k < 20; k++) {
    for (i = 0; i < len; i++) {
      seed = seed * 1103515245u + 12345u;
      /* a mix of Han bytes, ASCII, NUL and invalid bytes */
      if (k & 1) text[i] = (char)((seed >> 16) & 0xFF);
      else text[i] = "\xe8\x87\xaa\xe7\x84\xb6\x00a \xff\xe8"[(seed >> 16) % 11];
    }
    for (meth = 0; meth < 2; meth++) {
      memset(&o, 0, sizeof o);
      o.method = meth;
      o.pos = "";
      n = 0;
      INT_EQ(fenci_keywords(t, text, len, &o, kw, 32, &n), n > 32 ? FENCI_TOOSMALL : FENCI_OK);
      for (i = 0; i < n && i < 32; i++) OK(kw[i].start < kw[i].end && kw[i].end <= len, "offsets in the text");
    }
  }
  free(text);
  fenci_tagger_free(t);
}

/* A long text of few distinct words: linear, small. */
static void test_long(fenci_model *m) {
  fenci_tagger *t = NULL;
  fenci_keyword kw[8];
  fenci_kw_opts o;
  size_t n = 0, len = 8u << 20, i;
  const char *unit = "北京大学研究自然语言处理。";
  size_t ul = strlen(unit);
  char *text = malloc(len);
  for (i = 0; i + ul <= len; i += ul) memcpy(text + i, unit, ul);
  len = i;
  INT_EQ(fenci_tagger_new(&t, m, 0), FENCI_OK);
  memset(&o, 0, sizeof o);
  INT_EQ(fenci_keywords(t, text, len, &o, kw, 8, &n), FENCI_OK);
  INT_EQ(n, 6);
  INT_EQ(kw[0].count, len / ul);
  o.method = FENCI_KW_TEXTRANK;
  INT_EQ(fenci_keywords(t, text, len, &o, kw, 8, &n), FENCI_OK);
  INT_EQ(n, 6);
  free(text);
  fenci_tagger_free(t);
}

/* Every allocation failing in turn: FENCI_NOMEM and nothing leaked. */
static long fa_left, fa_live;
static void *fa_alloc(void *ud, void *p, size_t n) {
  (void)ud;
  if (n == 0) {
    if (p) fa_live--;
    free(p);
    return NULL;
  }
  if (fa_left-- <= 0) return NULL;
  if (!p) fa_live++;
  return realloc(p, n);
}

static void test_oom(const uint8_t *img, size_t len) {
  fenci_alloc a = {fa_alloc, NULL};
  const char *text = "北京大学研究自然语言处理，北京的计算机大学学习自然语言。Apple apple";
  long k;
  int meth, ok_seen = 0, nomem_seen = 0;
  for (meth = 0; meth < 2; meth++)
    for (k = 0; k < 400; k++) {
      fenci_model *m = NULL;
      fenci_tagger *t = NULL;
      fenci_kwdict *d = NULL;
      fenci_kw_opts o;
      fenci_keyword kw[16];
      size_t n;
      fenci_rc rc;
      fa_left = 1000000;
      fa_live = 0;
      if (fenci_model_from_buffer(&m, img, len, &a, NULL, 0) != FENCI_OK) continue;
      if (fenci_tagger_new(&t, m, 0) != FENCI_OK || fenci_kwdict_new(&d, &a) != FENCI_OK) break;
      memset(&o, 0, sizeof o);
      o.method = meth;
      o.dict = d;
      fa_left = k;
      rc = fenci_kwdict_add_stop(d, "apple", 5);
      if (rc == FENCI_OK) rc = fenci_keywords(t, text, strlen(text), &o, kw, 16, &n);
      OK(rc == FENCI_OK || rc == FENCI_NOMEM, "rc %d", (int)rc);
      ok_seen |= rc == FENCI_OK;
      nomem_seen |= rc == FENCI_NOMEM;
      fa_left = 1000000;
      fenci_kwdict_free(d);
      fenci_tagger_free(t);
      fenci_model_free(m);
      INT_EQ(fa_live, 0);
      if (rc == FENCI_OK) break;
    }
  OK(ok_seen && nomem_seen, "both outcomes seen");
}

int main(void) {
  size_t len = 0;
  char err[256];
  fenci_model *m = NULL;
  uint8_t *img = kw_image(W, DF, 8, NDOCS, "我们\n的\n", 0, 0, &len);
  fenci_rc rc = fenci_model_from_buffer(&m, img, len, NULL, err, sizeof err);
  OK(rc == FENCI_OK, "load: %s", err);
  if (rc == FENCI_OK) {
    test_tfidf(m);
    test_kwdict(m);
    test_by_tag(m);
    test_textrank(m);
    test_hostile(m);
    test_long(m);
    test_oom(img, len);
  }
  test_tables();
  fenci_model_free(m);
  free(img);
  TEST_DONE();
}
