/* test_lexicon.c - lexicon compilation and model loading.
 *
 *  - malformed source lines fail with FENCI_BADFORMAT and "line N";
 *  - comments, blank lines, a BOM and CRLF line ends are accepted;
 *  - duplicates add their frequencies (the result equals the summed line);
 *  - reproducibility: tests/golden/repro/lexicon.txt compiles twice to the
 *    same bytes, equal to the checked-in tests/golden/repro/expect.fenci
 *    (regenerate that file only when the format changes on purpose:
 *    ./fenci compile tests/golden/repro/lexicon.txt -o tests/golden/repro/expect.fenci);
 *  - every truncation and every one-byte corruption of a compiled model
 *    fails cleanly or loads a model that still segments losslessly.
 * Paths are relative to the project root (where `make unit` runs); set
 * FENCI_TOP to run from elsewhere. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fenci.h"
#include "harness.h"

static fenci_rc compile(const char *src, size_t len, void **img, size_t *out_len, char *err, size_t errlen) {
  *img = NULL;
  *out_len = 0;
  err[0] = 0;
  return fenci_lexicon_compile(src, len, img, out_len, NULL, err, errlen);
}

static void bad_line(int line, const char *src, size_t len, int lineno) {
  void *img = (void *)1;
  size_t n = 1;
  char err[256], want[32];
  fenci_rc rc = compile(src, len, &img, &n, err, sizeof err);
  snprintf(want, sizeof want, "line %d", lineno);
  th_run++;
  if (rc != FENCI_BADFORMAT || !strstr(err, want) || img != NULL || n != 0) {
    th_fail++;
    fprintf(stderr, "FAIL %s:%d: want FENCI_BADFORMAT naming '%s', got %s: \"%s\" (img %p, len %zu)\n", __FILE__,
            line, want, fenci_rc_str(rc), err, img, n);
  }
  fenci_free(NULL, img);
}
#define BAD(src, lineno) bad_line(__LINE__, src, sizeof(src) - 1, lineno)

static void test_malformed(void) {
  char *big;
  size_t k;
  BAD("词 abc\n", 1);
  BAD("好 1\n词 -5\n", 2);
  BAD("好 1\n\n词 1 n extra\n", 3);
  BAD("# c\n\xff\xfe 3\n", 2);
  BAD("\xe4\xb8 3\n", 1);               /* truncated UTF-8 word */
  BAD("\xed\xa0\x80 3\n", 1);           /* encoded surrogate */
  BAD("\xc0\xaf\n", 1);                 /* overlong */
  BAD("词 1 n!\n", 1);                  /* tag with a bad character */
  BAD("词 1 名词\n", 1);                /* tag not ASCII */
  BAD("词 1 abcdefghijklmnop\n", 1);    /* tag of 16 bytes */
  BAD("词 1e5\n", 1);
  BAD("词 0x10\n", 1);
  BAD("词 .\n", 1);
  BAD("词 1.2.3\n", 1);
  BAD("词 nan\n", 1);
  BAD("词 +1\n", 1);
  BAD("a\r\nb\r\n词 x\r\n", 3);
  BAD("词 99999999999999999999\n", 1); /* beyond 1e15 */
  /* a word of 256 bytes fails; 255 bytes is fine */
  big = malloc(70 * 1024);
  memset(big, 'a', 256);
  memcpy(big + 256, " 1\n", 4);
  bad_line(__LINE__, big, strlen(big), 1);
  {
    void *img;
    size_t n;
    char err[256];
    memset(big, 'a', 255);
    memcpy(big + 255, " 1\n", 4);
    INT_EQ(compile(big, strlen(big), &img, &n, err, sizeof err), FENCI_OK);
    fenci_free(NULL, img);
  }
  /* a line over 64 KiB */
  memcpy(big, "好 1\n", strlen("好 1\n"));
  for (k = strlen("好 1\n"); k < 66 * 1024; k++) big[k] = '#';
  big[k++] = '\n';
  big[k] = 0;
  bad_line(__LINE__, big, k, 2);
  free(big);
}

static fenci_model *model_of(const char *src, void **img, size_t *len) {
  char err[256];
  fenci_model *m = NULL;
  fenci_rc rc = compile(src, strlen(src), img, len, err, sizeof err);
  OK(rc == FENCI_OK, "compile: %s", err);
  if (rc != FENCI_OK) return NULL;
  rc = fenci_model_from_buffer(&m, *img, *len, NULL, err, sizeof err);
  OK(rc == FENCI_OK, "load: %s", err);
  return m;
}

static int one_token(const fenci_model *m, const char *word) {
  fenci_tagger *t = NULL;
  fenci_token tok[8];
  size_t n = 0;
  int ok = fenci_tagger_new(&t, m, 0) == FENCI_OK &&
           fenci_segment_into(t, word, strlen(word), tok, 8, &n) == FENCI_OK && n == 1 &&
           !(tok[0].flags & FENCI_TOK_OOV);
  fenci_tagger_free(t);
  return ok;
}

static int same_image(const char *a, const char *b) {
  void *ia, *ib;
  size_t la, lb;
  char err[256];
  int same;
  if (compile(a, strlen(a), &ia, &la, err, sizeof err) != FENCI_OK) return -1;
  if (compile(b, strlen(b), &ib, &lb, err, sizeof err) != FENCI_OK) {
    fenci_free(NULL, ia);
    return -1;
  }
  same = la == lb && memcmp(ia, ib, la) == 0;
  fenci_free(NULL, ia);
  fenci_free(NULL, ib);
  return same;
}

static void test_accepted(void) {
  void *img = NULL;
  size_t len = 0;
  fenci_model *m;
  const char *src =
      "\xef\xbb\xbf# a BOM, then a comment\r\n"
      "\r\n"
      "   \t \r\n"
      "你好 10 l\r\n"
      "  # an indented comment\n"
      "\t世界\t20\tn\t\n"
      "再见 \n"
      "朋友 3.5\n"
      "零频 0\n"
      "最后";
  m = model_of(src, &img, &len);
  if (m) {
    INT_EQ(fenci_model_lexicon_size(m), 6);
    OK(one_token(m, "你好"), "你好 (CRLF line) not found");
    OK(one_token(m, "世界"), "世界 (tab separated) not found");
    OK(one_token(m, "再见"), "再见 (trailing space) not found");
    OK(one_token(m, "零频"), "零频 (freq 0) not found");
    OK(one_token(m, "最后"), "最后 (no final newline) not found");
    {
      fenci_tagger *t = NULL;
      fenci_token tok[2];
      size_t n;
      fenci_tagger_new(&t, m, 0);
      if (fenci_segment_into(t, "你好", 6, tok, 2, &n) == FENCI_OK && n == 1) STR_EQ(fenci_tag_name(m, tok[0].tag), "l");
      if (fenci_segment_into(t, "世界", 6, tok, 2, &n) == FENCI_OK && n == 1) STR_EQ(fenci_tag_name(m, tok[0].tag), "n");
      fenci_tagger_free(t);
    }
    {
      /* frequencies read back from the costs: the total is 10 + 20 + 1 +
       * 3.5 + 0 + 1; a frequency of 0 is costed (and read) as 0.5; the
       * word must be spelt exactly (no prefix, no normalisation) */
      static const struct { const char *w; double f; } want[] = {
          {"你好", 10}, {"世界", 20}, {"再见", 1}, {"朋友", 3.5}, {"零频", 0.5}, {"最后", 1}};
      size_t i;
      double f;
      OK(fenci_model_freq_total(m) == 35.5, "total of the frequencies");
      for (i = 0; i < sizeof want / sizeof *want; i++) {
        f = -1;
        th_run++;
        if (fenci_model_word_freq(m, want[i].w, strlen(want[i].w), &f) != 1 || f < want[i].f - 1e-4 ||
            f > want[i].f + 1e-4) {
          th_fail++;
          fprintf(stderr, "FAIL %s:%d: frequency of %s: want %g, got %g\n", __FILE__, __LINE__, want[i].w, want[i].f, f);
        }
      }
      OK(fenci_model_word_freq(m, "你好", 6, NULL) == 1, "a word without freq asked for");
      OK(fenci_model_word_freq(m, "你", 3, &f) == 0, "a prefix is no word");
      OK(fenci_model_word_freq(m, "你好吗", 9, &f) == 0, "a longer string is no word");
      OK(fenci_model_word_freq(m, "ＡＢ", 6, &f) == 0, "an unknown word");
      OK(fenci_model_word_freq(m, "你好", 0, &f) == 0, "the empty string");
      OK(fenci_model_word_freq(m, NULL, 6, &f) == 0 && fenci_model_word_freq(NULL, "你好", 6, &f) == 0, "NULL");
      OK(fenci_model_freq_total(NULL) == 0, "total of no model");
    }
    fenci_model_free(m);
  }
  fenci_free(NULL, img);
  /* an empty source compiles to an empty lexicon that still segments */
  m = model_of("", &img, &len);
  if (m) {
    INT_EQ(fenci_model_lexicon_size(m), 0);
    OK(!one_token(m, "你好"), "empty lexicon found a word");
    fenci_model_free(m);
  }
  fenci_free(NULL, img);
  /* duplicates add up; a missing freq is 1; the first non-empty tag stays */
  INT_EQ(same_image("甲乙 1\n甲乙 1\n丙 2\n", "丙 2\n甲乙 2\n"), 1);
  INT_EQ(same_image("甲乙\n丙 2\n", "甲乙 1\n丙 2\n"), 1);
  INT_EQ(same_image("甲乙 1\n甲乙 1 n\n甲乙 1 v\n", "甲乙 3 n\n"), 1);
  INT_EQ(same_image("甲乙 2.5\n甲乙 0.5\n", "甲乙 3\n"), 1);
  /* CRLF, BOM and order do not change the bytes */
  INT_EQ(same_image("\xef\xbb\xbf甲乙 1\r\n丙 2\r\n", "丙 2\n甲乙 1\n"), 1);
  /* but a different frequency does */
  INT_EQ(same_image("甲乙 1\n", "甲乙 2\n"), 0);
}

/* ------------------------------------------------------ reproducibility */

static char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *b = NULL;
  long n;
  if (!f) return NULL;
  if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
    b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
      free(b);
      b = NULL;
    }
    if (b) *len = (size_t)n;
  }
  fclose(f);
  return b;
}

static void test_repro(void) {
  const char *top = getenv("FENCI_TOP");
  char p1[1024], p2[1024], err[256];
  char *src, *want;
  size_t slen = 0, wlen = 0, l1, l2, i;
  void *a, *b;
  snprintf(p1, sizeof p1, "%s/tests/golden/repro/lexicon.txt", top ? top : ".");
  snprintf(p2, sizeof p2, "%s/tests/golden/repro/expect.fenci", top ? top : ".");
  src = read_all(p1, &slen);
  want = read_all(p2, &wlen);
  OK(src && want, "cannot read %s or %s (run from the project root or set FENCI_TOP)", p1, p2);
  if (src && want) {
    INT_EQ(compile(src, slen, &a, &l1, err, sizeof err), FENCI_OK);
    INT_EQ(compile(src, slen, &b, &l2, err, sizeof err), FENCI_OK);
    OK(a && b && l1 == l2 && memcmp(a, b, l1) == 0, "two compilations differ");
    for (i = 0; a && i < l1 && i < wlen && ((char *)a)[i] == want[i]; i++) {}
    OK(a && l1 == wlen && i == wlen,
       "compiled %s (%zu bytes) differs from %s (%zu bytes) at byte %zu; if the format changed on purpose, "
       "regenerate it with ./fenci compile",
       p1, l1, p2, wlen, i);
    {
      /* the checked-in image itself loads and passes the full check */
      fenci_model *m = NULL;
      void *al = malloc(wlen ? wlen : 1);
      memcpy(al, want, wlen);
      INT_EQ(fenci_model_from_buffer(&m, al, wlen, NULL, err, sizeof err), FENCI_OK);
      INT_EQ(fenci_model_lexicon_size(m), 29);
      fenci_model_free(m);
      free(al);
      INT_EQ(fenci_model_check(p2, err, sizeof err), FENCI_OK);
    }
    fenci_free(NULL, a);
    fenci_free(NULL, b);
  }
  free(src);
  free(want);
}

/* ---------------------------------------------------------- corruption */

static int lossless_cb(void *ctx, const fenci_token *t, const char *f, size_t n) {
  size_t *next = ctx;
  (void)f;
  (void)n;
  if (t->flags & FENCI_TOK_EXTRA) return 0;
  if (t->start != *next) return 1;
  *next = t->end;
  return 0;
}

/* Does fenci_model_check (body CRC and full walk) reject this image? */
static int check_catches(const uint8_t *img, size_t len) {
  char path[] = "/tmp/fenci-test-lexicon-XXXXXX", err[256];
  int fd = mkstemp(path), caught;
  FILE *f;
  if (fd < 0) return 1; /* cannot test here: do not report a miss */
  f = fdopen(fd, "wb");
  if (!f || fwrite(img, 1, len, f) != len) {
    if (f) fclose(f);
    remove(path);
    return 1;
  }
  fclose(f);
  caught = fenci_model_check(path, err, sizeof err) != FENCI_OK;
  remove(path);
  return caught;
}

static int segments_ok(const fenci_model *m) {
  static const char s[] = "北京大学生活好好学习天天向上\xff 3.5% iPhone 测试ＡＢ";
  fenci_tagger *t = NULL;
  size_t next = 0;
  unsigned mode;
  int ok = 1;
  for (mode = 0; mode <= FENCI_MODE_ALL && ok; mode++) {
    next = 0;
    if (fenci_tagger_new(&t, m, mode) != FENCI_OK) return 0;
    ok = fenci_segment(t, s, sizeof s - 1, lossless_cb, &next) == FENCI_OK && next == sizeof s - 1;
    fenci_tagger_free(t);
  }
  {
    /* frequencies of a corrupt model: any finite value >= 0, never a crash */
    static const char *const w[] = {"北京", "北京大学", "测试", "天天向上", "北"};
    size_t i;
    for (i = 0; ok && i < sizeof w / sizeof *w; i++) {
      double f = 0;
      if (fenci_model_word_freq(m, w[i], strlen(w[i]), &f) && !(f >= 0 && f < 1e300)) ok = 0;
    }
    if (!(fenci_model_freq_total(m) >= 1)) ok = 0;
  }
  return ok;
}

static void test_corrupt(void) {
  const char *src =
      "北京 120 ns\n北京大学 40 nt\n大学 80 n\n大学生 30 n\n学生 90 n\n生活 70 vn\n好好学习 5 l\n天天向上 4 l\n"
      "测试 2\n";
  void *img = NULL;
  size_t len = 0, k;
  char err[256];
  uint8_t *copy;
  fenci_model *m = NULL;
  int bad_trunc = 0, bad_flip = 0, loaded_flips = 0, missed_check = 0;
  if (compile(src, strlen(src), &img, &len, err, sizeof err) != FENCI_OK) {
    OK(0, "compile: %s", err);
    return;
  }
  copy = malloc(len);
  /* every truncation (in an exact-size block, so ASan sees overreads) */
  for (k = 0; k < len; k++) {
    uint8_t *b = malloc(k ? k : 1);
    fenci_rc rc;
    memcpy(b, img, k);
    err[0] = 0;
    rc = fenci_model_from_buffer(&m, b, k, NULL, err, sizeof err);
    if (!(rc == FENCI_BADFORMAT || rc == FENCI_BADVERSION) || m != NULL || !err[0]) {
      if (!bad_trunc++)
        OK(0, "truncated to %zu of %zu bytes: %s, \"%s\"", k, len, fenci_rc_str(rc), err);
    }
    fenci_model_free(m);
    m = NULL;
    free(b);
  }
  INT_EQ(bad_trunc, 0);
  /* every one-byte corruption: opening gives a clean failure or a model
   * that still segments safely (the body CRC is left to fenci_model_check,
   * which must catch every one of them) */
  for (k = 0; k < len; k++) {
    fenci_rc rc;
    memcpy(copy, img, len);
    copy[k] ^= (uint8_t)(0x5A + (k & 7));
    rc = fenci_model_from_buffer(&m, copy, len, NULL, err, sizeof err);
    if (rc == FENCI_OK) {
      loaded_flips++;
      if (!segments_ok(m) && !bad_flip++) OK(0, "byte %zu corrupted: model loads but segmentation breaks", k);
      if (!check_catches(copy, len) && !missed_check++) OK(0, "byte %zu corrupted: fenci_model_check accepts it", k);
    } else if (!(rc == FENCI_BADFORMAT || rc == FENCI_BADVERSION) && !bad_flip++) {
      OK(0, "byte %zu corrupted: %s", k, fenci_rc_str(rc));
    }
    fenci_model_free(m);
    m = NULL;
  }
  INT_EQ(bad_flip, 0);
  INT_EQ(missed_check, 0);
  fprintf(stderr,
          "test_lexicon: %zu truncations, %zu one-byte corruptions (%d opened and segmented safely, all caught by "
          "fenci_model_check)\n",
          len, len, loaded_flips);
  /* the intact image loads */
  memcpy(copy, img, len);
  INT_EQ(fenci_model_from_buffer(&m, copy, len, NULL, err, sizeof err), FENCI_OK);
  OK(m && segments_ok(m), "intact model does not segment");
  fenci_model_free(m);
  free(copy);
  fenci_free(NULL, img);
}

int main(void) {
  test_malformed();
  test_accepted();
  test_repro();
  test_corrupt();
  TEST_DONE();
}
