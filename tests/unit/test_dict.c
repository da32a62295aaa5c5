/* test_dict.c - user dictionaries: forced words, words with a frequency,
 * loading text and files (all or nothing, in blocks, /dev/zero), freezing,
 * ownership; words normalised as text is (traditional and full-width user
 * words match), on the lexicon path and on a trained model's. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fenci.h"
#include "harness.h"

static const char LEX[] =
    "自然 30\n"
    "语言 30\n"
    "自然语言 20\n"
    "处理 40\n"
    "自然语言处理 10\n"
    "计算 40 v\n"
    "我们 50\n"
    "研究 30 v\n"
    "机构 30 n\n";

typedef struct col {
  char buf[2048];
  size_t o, n;
  unsigned user_flags; /* OR of FENCI_TOK_USER over main tokens, as a bit per token */
} col;

static int col_cb(void *ctx, const fenci_token *t, const char *form, size_t n) {
  col *c = ctx;
  if (t->flags & FENCI_TOK_EXTRA) return 0;
  if (c->o + n + 2 >= sizeof c->buf) return 1;
  if (c->n) c->buf[c->o++] = '/';
  memcpy(c->buf + c->o, form, n);
  c->o += n;
  c->buf[c->o] = 0;
  if ((t->flags & FENCI_TOK_USER) && c->n < 32) c->user_flags |= 1u << c->n;
  c->n++;
  return 0;
}

/* Segments text with a fresh tagger (options opts) using d (may be NULL)
 * and compares the rendering, and the USER bits, with want. */
static void seg_opts(int line, const fenci_model *m, unsigned opts, fenci_dict *d, const char *text,
                     const char *want, unsigned want_user) {
  fenci_tagger *t = NULL;
  col c;
  fenci_rc rc;
  memset(&c, 0, sizeof c);
  rc = fenci_tagger_new(&t, m, opts);
  if (rc == FENCI_OK) rc = fenci_tagger_set_dict(t, d);
  if (rc == FENCI_OK) rc = fenci_segment(t, text, strlen(text), col_cb, &c);
  th_run++;
  if (rc != FENCI_OK || strcmp(c.buf, want) != 0 || (want_user != ~0u && c.user_flags != want_user)) {
    th_fail++;
    fprintf(stderr, "FAIL %s:%d: \"%s\" (rc %d)\n  want %s (user bits %x)\n  got  %s (user bits %x)\n", __FILE__,
            line, text, (int)rc, want, want_user, c.buf, c.user_flags);
  }
  fenci_tagger_free(t);
}
#define SEG(d, text, want, user) seg_opts(__LINE__, m, 0, d, text, want, user)
#define SEG_OPTS(mm, opts, d, text, want, user) seg_opts(__LINE__, mm, opts, d, text, want, user)
#define ANYUSER (~0u)

static fenci_dict *dict_of(const fenci_model *m, const char *text) {
  fenci_dict *d = NULL;
  char err[256];
  INT_EQ(fenci_dict_new(&d, m, NULL), FENCI_OK);
  if (d && text) {
    fenci_rc rc = fenci_dict_load_text(d, text, strlen(text), err, sizeof err);
    OK(rc == FENCI_OK, "dict text: %s", err);
  }
  return d;
}

static void test_forced(const fenci_model *m) {
  fenci_dict *d;
  SEG(NULL, "自然语言处理", "自然语言处理", 0);
  /* a forced word splits a lexicon word */
  d = dict_of(m, "言处\n");
  SEG(d, "自然语言处理", "自然/语/言处/理", 0x4);
  SEG(d, "言处言处", "言处/言处", 0x3); /* every occurrence */
  fenci_dict_free(d);
  /* a forced single character */
  d = dict_of(m, "然\n");
  SEG(d, "自然语言", "自/然/语言", 0x2);
  fenci_dict_free(d);
  /* overlapping forced words: the leftmost wins */
  d = dict_of(m, "语言处理\n然语\n语言\n");
  SEG(d, "自然语言处理", "自/然语/言/处理", 0x2);
  fenci_dict_free(d);
  /* same start: the longest wins, whatever the insertion order */
  d = dict_of(m, "语言\n语言处理\n语\n");
  SEG(d, "自然语言处理", "自然/语言处理", 0x2);
  fenci_dict_free(d);
  d = dict_of(m, "语言处理\n语言\n");
  SEG(d, "自然语言处理", "自然/语言处理", 0x2);
  fenci_dict_free(d);
  /* a forced word made of unknown characters, next to Latin and digits */
  d = dict_of(m, "云计算\nAI芯片\n");
  SEG(d, "我们研究云计算和AI芯片2024", "我们/研究/云计算/和/AI芯片/2024", 0x14);
  fenci_dict_free(d);
  /* fenci_dict_add with freq 0 is forced too */
  INT_EQ(fenci_dict_new(&d, m, NULL), FENCI_OK);
  INT_EQ(fenci_dict_add(d, "言处", strlen("言处"), 0, NULL), FENCI_OK);
  INT_EQ(fenci_dict_size(d), 1);
  SEG(d, "自然语言处理", "自然/语/言处/理", 0x4);
  fenci_dict_free(d);
}

static void test_freq(const fenci_model *m) {
  fenci_dict *d;
  SEG(NULL, "云计算", "云/计算", 0);
  /* a high frequency joins the lexicon and wins */
  d = dict_of(m, "云计算 100000\n");
  SEG(d, "云计算", "云计算", 0x1);
  fenci_dict_free(d);
  /* a tiny frequency takes part but loses to the better split */
  d = dict_of(m, "云计 0.001\n");
  SEG(d, "云计算", "云/计算", 0);
  fenci_dict_free(d);
  /* a user frequency replaces the lexicon's: a tiny one makes the word lose */
  d = dict_of(m, "自然语言处理 0.0001\n");
  SEG(d, "自然语言处理", "自然语言/处理", 0);
  fenci_dict_free(d);
  /* the last of duplicate user entries wins: forced, then with a frequency */
  d = dict_of(m, "言处\n言处 0.0001\n");
  SEG(d, "自然语言处理", "自然语言处理", 0);
  fenci_dict_free(d);
  d = dict_of(m, "言处 0.0001\n言处\n");
  SEG(d, "自然语言处理", "自然/语/言处/理", 0x4);
  fenci_dict_free(d);
  /* a tagged user word */
  {
    fenci_tagger *t = NULL;
    fenci_token tok[8];
    size_t n = 0;
    d = dict_of(m, "研究机构 1000 n\n");
    INT_EQ(fenci_tagger_new(&t, m, 0), FENCI_OK);
    INT_EQ(fenci_tagger_set_dict(t, d), FENCI_OK);
    INT_EQ(fenci_segment_into(t, "研究机构", strlen("研究机构"), tok, 8, &n), FENCI_OK);
    INT_EQ(n, 1);
    if (n == 1) {
      STR_EQ(fenci_tag_name(m, tok[0].tag), "n");
      OK(tok[0].flags & FENCI_TOK_USER, "flags %u", tok[0].flags);
      OK(!(tok[0].flags & FENCI_TOK_OOV), "a user word is not OOV");
    }
    /* detaching the dict goes back to the lexicon */
    INT_EQ(fenci_tagger_set_dict(t, NULL), FENCI_OK);
    INT_EQ(fenci_segment_into(t, "研究机构", strlen("研究机构"), tok, 8, &n), FENCI_OK);
    INT_EQ(n, 2);
    fenci_tagger_free(t);
    fenci_dict_free(d);
  }
}

static void test_load(const fenci_model *m) {
  fenci_dict *d = NULL;
  char err[256];
  const char *bad = "云计算\n# comment\n\n区块链 5 n\n坏词 abc\n量子 3\n";
  INT_EQ(fenci_dict_new(&d, m, NULL), FENCI_OK);
  if (!d) return;
  INT_EQ(fenci_dict_add(d, "元宇宙", strlen("元宇宙"), 0, NULL), FENCI_OK);
  err[0] = 0;
  INT_EQ(fenci_dict_load_text(d, bad, strlen(bad), err, sizeof err), FENCI_BADFORMAT);
  OK(strstr(err, "line 5") != NULL, "message does not name line 5: %s", err);
  INT_EQ(fenci_dict_size(d), 1); /* nothing from the bad text was added */
  SEG(d, "区块链云计算元宇宙", "区/块/链/云/计算/元宇宙", 0x20);
  fenci_dict_free(d);

  /* other malformed lines */
  {
    static const char *const cases[] = {"好词 -1\n", "好词 1 n x\n", "\xff\xfe\n", "好词 1 n!\n", "ok\n好词 1e5\n"};
    static const int lines[] = {1, 1, 1, 1, 2};
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      char want[32];
      d = dict_of(m, NULL);
      if (!d) return;
      err[0] = 0;
      INT_EQ(fenci_dict_load_text(d, cases[i], strlen(cases[i]), err, sizeof err), FENCI_BADFORMAT);
      snprintf(want, sizeof want, "line %d", lines[i]);
      OK(strstr(err, want) != NULL, "case %zu: message lacks '%s': %s", i, want, err);
      INT_EQ(fenci_dict_size(d), 0);
      fenci_dict_free(d);
    }
  }
  /* a word of 256 bytes is refused */
  {
    char w[300];
    memset(w, 'a', 256);
    w[256] = '\n';
    w[257] = 0;
    d = dict_of(m, NULL);
    INT_EQ(fenci_dict_load_text(d, w, strlen(w), err, sizeof err), FENCI_BADFORMAT);
    INT_EQ(fenci_dict_add(d, w, 256, 0, NULL), FENCI_BADARG);
    INT_EQ(fenci_dict_add(d, w, 255, 0, NULL), FENCI_OK);
    fenci_dict_free(d);
  }
  /* fenci_dict_load from a file: the message names the file and the line */
  {
    char path[64];
    FILE *f;
    snprintf(path, sizeof path, "/tmp/fenci_test_dict.%ld.txt", (long)getpid());
    f = fopen(path, "wb");
    if (f) {
      fputs("区块链\r\n量子 3\r\n坏 x\r\n", f);
      fclose(f);
      d = dict_of(m, NULL);
      err[0] = 0;
      INT_EQ(fenci_dict_load(d, path, err, sizeof err), FENCI_BADFORMAT);
      OK(strstr(err, path) && strstr(err, "line 3"), "message: %s", err);
      INT_EQ(fenci_dict_size(d), 0);
      fenci_dict_free(d);
      f = fopen(path, "wb");
      fputs("\xef\xbb\xbf区块链\r\n量子 3\r\n", f); /* BOM and CRLF are fine */
      fclose(f);
      d = dict_of(m, NULL);
      INT_EQ(fenci_dict_load(d, path, err, sizeof err), FENCI_OK);
      INT_EQ(fenci_dict_size(d), 2);
      SEG(d, "区块链", "区块链", 0x1);
      fenci_dict_free(d);
      remove(path);
    }
    /* an empty file is an empty dictionary, also when it is not a regular
     * file (an empty pipe, /dev/null) */
    d = dict_of(m, NULL);
    err[0] = 0;
    {
      fenci_rc rc = fenci_dict_load(d, "/dev/null", err, sizeof err);
      OK(rc == FENCI_OK, "fenci_dict_load(/dev/null): %s: %s", fenci_rc_str(rc), err);
    }
    INT_EQ(fenci_dict_size(d), 0);
    fenci_dict_free(d);
    d = dict_of(m, NULL);
    err[0] = 0;
    INT_EQ(fenci_dict_load(d, "/nonexistent/fenci/dict.txt", err, sizeof err), FENCI_IO);
    OK(err[0], "no message for a missing file");
    fenci_dict_free(d);
  }
}

static void test_add_args(const fenci_model *m) {
  fenci_dict *d = dict_of(m, NULL);
  if (!d) return;
  INT_EQ(fenci_dict_add(d, NULL, 3, 0, NULL), FENCI_BADARG);
  INT_EQ(fenci_dict_add(d, "词", 0, 0, NULL), FENCI_BADARG);
  INT_EQ(fenci_dict_add(d, "a b", 3, 0, NULL), FENCI_BADARG);
  INT_EQ(fenci_dict_add(d, "a\tb", 3, 0, NULL), FENCI_BADARG);
  INT_EQ(fenci_dict_add(d, "\xff", 1, 0, NULL), FENCI_BADARG);
  INT_EQ(fenci_dict_add(d, "词", 3, -1, NULL), FENCI_BADARG);
  {
    volatile double zero = 0.0;
    INT_EQ(fenci_dict_add(d, "词", 3, zero / zero, NULL), FENCI_BADARG); /* NaN */
  }
  INT_EQ(fenci_dict_size(d), 0);
  INT_EQ(fenci_dict_add(d, "词", 3, 5, "n"), FENCI_OK);
  INT_EQ(fenci_dict_size(d), 1);
  fenci_dict_free(d);
}

static void test_frozen_and_owner(const fenci_model *m, const fenci_model *m2) {
  fenci_dict *d = dict_of(m, "云计算\n");
  fenci_tagger *t = NULL, *t2 = NULL;
  char err[256];
  if (!d) return;
  INT_EQ(fenci_tagger_new(&t, m, 0), FENCI_OK);
  INT_EQ(fenci_tagger_set_dict(t, d), FENCI_OK);
  INT_EQ(fenci_dict_add(d, "区块链", strlen("区块链"), 0, NULL), FENCI_BADARG);
  INT_EQ(fenci_dict_load_text(d, "区块链\n", strlen("区块链\n"), err, sizeof err), FENCI_BADARG);
  INT_EQ(fenci_dict_size(d), 1);
  /* a frozen dict can be shared by a second tagger of the same model */
  INT_EQ(fenci_tagger_new(&t2, m, 0), FENCI_OK);
  INT_EQ(fenci_tagger_set_dict(t2, d), FENCI_OK);
  fenci_tagger_free(t2);
  t2 = NULL;
  /* the dict of another model is refused */
  INT_EQ(fenci_tagger_new(&t2, m2, 0), FENCI_OK);
  INT_EQ(fenci_tagger_set_dict(t2, d), FENCI_BADARG);
  OK(fenci_tagger_errmsg(t2)[0], "no message for a foreign dict");
  fenci_tagger_free(t2);
  fenci_tagger_free(t);
  fenci_dict_free(d);
  /* an empty dict attaches and changes nothing */
  d = dict_of(m, NULL);
  SEG(d, "自然语言处理", "自然语言处理", 0);
  fenci_dict_free(d);
}

/* Words are normalised as text is: a traditional or full-width user word
 * matches, in traditional, simplified and mixed text.  m: a lexicon-only
 * model; trained: a model with a trained segmenter, or NULL. */
static void test_normalised(const fenci_model *m, const fenci_model *trained) {
  static const unsigned opts[2] = {0, FENCI_OPT_FAST};
  fenci_dict *d;
  size_t k;
  /* lexicon path */
  d = dict_of(m, "雲計算\nＢ站\n");
  SEG(d, "我們研究雲計算", "我們/研究/雲計算", 0x4);
  SEG(d, "我们研究云计算", "我们/研究/云计算", 0x4);
  SEG(d, "雲计算和云計算", "雲计算/和/云計算", 0x5);
  SEG(d, "看Ｂ站和B站", "看/Ｂ站/和/B站", 0xa);
  fenci_dict_free(d);
  /* a simplified word already matched traditional text: still so */
  d = dict_of(m, "云计算\n");
  SEG(d, "研究雲計算", "研究/雲計算", 0x2);
  fenci_dict_free(d);
  /* the lexicon's tag of the simplified form (计算 is tagged v) */
  {
    fenci_tagger *t = NULL;
    fenci_token tok[4];
    size_t n = 0;
    d = dict_of(m, "計算 1000\n");
    INT_EQ(fenci_tagger_new(&t, m, 0), FENCI_OK);
    INT_EQ(fenci_tagger_set_dict(t, d), FENCI_OK);
    INT_EQ(fenci_segment_into(t, "計算", strlen("計算"), tok, 4, &n), FENCI_OK);
    INT_EQ(n, 1);
    if (n == 1) {
      STR_EQ(fenci_tag_name(m, tok[0].tag), "v");
      OK(tok[0].flags & FENCI_TOK_USER, "flags %u", tok[0].flags);
    }
    fenci_tagger_free(t);
    fenci_dict_free(d);
  }
  /* equal once normalised: one word, the last added wins */
  d = dict_of(m, "龍貓\n龙猫\n");
  INT_EQ(fenci_dict_size(d), 2);
  INT_EQ(fenci_dict_freeze(d), FENCI_OK);
  INT_EQ(fenci_dict_freeze(d), FENCI_OK); /* idempotent */
  INT_EQ(fenci_dict_size(d), 1);
  INT_EQ(fenci_dict_add(d, "猫", strlen("猫"), 0, NULL), FENCI_BADARG); /* frozen */
  SEG(d, "龍貓和龙猫", "龍貓/和/龙猫", 0x5);
  fenci_dict_free(d);
  INT_EQ(fenci_dict_freeze(NULL), FENCI_BADARG);
  /* a run of one mark is one unit in lexicon mode, single marks for a
   * trained model: the word matches both ways */
  d = dict_of(m, "！！\n");
  SEG(d, "好！！", "好/！！", 0x2);
  fenci_dict_free(d);
  /* U+346E (3 bytes) maps to U+2B748 (4 bytes): 85 of them are 255 bytes,
   * 340 once normalised, past what a key may have */
  {
    char w[300], line[300];
    for (k = 0; k < 85; k++) memcpy(w + 3 * k, "\xe3\x91\xae", 3);
    d = dict_of(m, NULL);
    INT_EQ(fenci_dict_add(d, w, 255, 0, NULL), FENCI_BADARG);
    INT_EQ(fenci_dict_add(d, w, 60, 0, NULL), FENCI_OK);
    memcpy(line, w, 255);
    memcpy(line + 255, "\n", 2);
    {
      char err[256];
      INT_EQ(fenci_dict_load_text(d, line, 256, err, sizeof err), FENCI_BADFORMAT);
      OK(strstr(err, "line 1") && strstr(err, "normalised"), "%s", err);
    }
    INT_EQ(fenci_dict_size(d), 1);
    fenci_dict_free(d);
  }
  if (!trained) return;
  /* the trained model, and its lexicon path (--fast) */
  for (k = 0; k < 2; k++) {
    d = dict_of(trained, "龍貓公車\nＢ站\n！！\n");
    SEG_OPTS(trained, opts[k], d, "我坐龍貓公車。", "我/坐/龍貓公車/。", 0x4);
    SEG_OPTS(trained, opts[k], d, "我坐龙猫公车。", "我/坐/龙猫公车/。", 0x4);
    SEG_OPTS(trained, opts[k], d, "他说Ｂ站好。", "他/说/Ｂ站/好/。", 0x4);
    SEG_OPTS(trained, opts[k], d, "好！！", "好/！！", 0x2);
    fenci_dict_free(d);
  }
}

/* fenci_dict_load parses in blocks of 1 MiB: lines across block ends, CRLF
 * split between blocks, a last line without its end; a bad line far in
 * gives its true number and adds nothing; /dev/zero fails at once. */
static void test_load_blocks(const fenci_model *m) {
  char path[64], err[256];
  fenci_dict *d;
  FILE *f;
  size_t i, n = 150000;
  snprintf(path, sizeof path, "/tmp/fenci_test_dict_big.%ld.txt", (long)getpid());
  f = fopen(path, "wb");
  if (!f) return;
  /* 150,000 lines of 10 to 25 bytes: about 2.6 MB */
  for (i = 0; i < n; i++) fprintf(f, "w%zu%s %zu\r\n", i, i % 3 ? "" : "xyzxyzxyzxyz", 1 + i % 5);
  fputs("区块链\r", f);
  fclose(f);
  d = dict_of(m, NULL);
  INT_EQ(fenci_dict_load(d, path, err, sizeof err), FENCI_OK);
  INT_EQ(fenci_dict_size(d), n + 1);
  SEG(d, "区块链", "区块链", 0x1);
  fenci_dict_free(d);
  /* a bad line near the end */
  f = fopen(path, "ab");
  if (f) {
    fputs("\n坏 x\n", f);
    fclose(f);
    d = dict_of(m, NULL);
    err[0] = 0;
    INT_EQ(fenci_dict_load(d, path, err, sizeof err), FENCI_BADFORMAT);
    {
      char want[32];
      snprintf(want, sizeof want, "line %zu:", n + 2);
      OK(strstr(err, path) && strstr(err, want), "message: %s", err);
    }
    INT_EQ(fenci_dict_size(d), 0);
    fenci_dict_free(d);
  }
  remove(path);
  if (access("/dev/zero", R_OK) == 0) {
    d = dict_of(m, NULL);
    err[0] = 0;
    INT_EQ(fenci_dict_load(d, "/dev/zero", err, sizeof err), FENCI_BADFORMAT);
    OK(strstr(err, "/dev/zero") && strstr(err, "line 1"), "%s", err);
    INT_EQ(fenci_dict_size(d), 0);
    fenci_dict_free(d);
  }
}

int main(void) {
  void *img = NULL, *img2 = NULL;
  fenci_model *m = th_load_model(LEX, &img), *m2 = th_load_model(LEX, &img2);
  if (m && m2) {
    test_forced(m);
    test_freq(m);
    test_load(m);
    test_add_args(m);
    test_frozen_and_owner(m, m2);
    test_load_blocks(m);
    {
      /* the shipped default model, when the test runs from the repository */
      fenci_model *trained = NULL;
      if (fenci_model_open(&trained, "models/ctb.fenci", NULL, NULL, 0) != FENCI_OK) trained = NULL;
      if (!trained) fprintf(stderr, "test_dict: models/ctb.fenci not found, trained-model cases skipped\n");
      test_normalised(m, trained);
      fenci_model_free(trained);
    }
  }
  fenci_model_free(m);
  fenci_model_free(m2);
  fenci_free(NULL, img);
  fenci_free(NULL, img2);
  TEST_DONE();
}
