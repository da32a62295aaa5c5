/* test_seg.c - the public segmentation API against a tiny lexicon.
 *
 * Expected segmentations, byte offsets, callback stop, fenci_segment_into,
 * search/all extras, a lossless property test over random and hostile bytes
 * (seed printed; FENCI_SEED=N or `test_seg N` repeats a run), a 10 MB line
 * without punctuation (lossless; its time is printed, and checked by
 * tests/pathological), fenci_rc_str and NULL arguments. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fenci.h"
#include "harness.h"

static const char LEX[] =
    "# a tiny lexicon for the tests\n"
    "我们 50\n"
    "我 30\n"
    "喜欢 40\n"
    "自然 30\n"
    "语言 30\n"
    "自然语言 20\n"
    "处理 40\n"
    "自然语言处理 10\n"
    "中华 10\n"
    "华人 5\n"
    "人民 20\n"
    "共和 5\n"
    "共和国 10\n"
    "中华人民共和国 5\n"
    "研究 50\n"
    "研究生 20\n"
    "生命 50\n"
    "生 5\n"
    "命 5\n"
    "的 100 u\n"
    "苹果 20 n\n"
    "手机 20 n\n"
    "今天 20 t\n"
    "天气 20 n\n"
    "很 30 d\n"
    "好 30 a\n";

static void *g_img;
static fenci_model *g_m;

/* ------------------------------------------------------- token collection */

typedef struct col {
  char buf[8192]; /* tokens rendered: main tokens joined by '/', extras as [w] */
  size_t o;
  size_t ntok, nmain;
  size_t next;    /* end of the last main token */
  int contiguous;
  const char *text;
} col;

static int col_cb(void *ctx, const fenci_token *t, const char *form, size_t n) {
  col *c = ctx;
  int extra = (t->flags & FENCI_TOK_EXTRA) != 0;
  if (form != c->text + t->start || n != t->end - t->start) c->contiguous = 0;
  if (!extra) {
    if (t->start != c->next) c->contiguous = 0;
    c->next = t->end;
    c->nmain++;
  }
  if (c->o + n + 4 < sizeof c->buf) {
    if (c->ntok && !extra) c->buf[c->o++] = '/';
    if (extra) c->buf[c->o++] = '[';
    memcpy(c->buf + c->o, form, n);
    c->o += n;
    if (extra) c->buf[c->o++] = ']';
    c->buf[c->o] = 0;
  }
  c->ntok++;
  return 0;
}

static void seg_check(int line, fenci_tagger *t, const char *text, const char *want) {
  col c;
  fenci_rc rc;
  memset(&c, 0, sizeof c);
  c.contiguous = 1;
  c.text = text;
  rc = fenci_segment(t, text, strlen(text), col_cb, &c);
  th_run++;
  if (rc != FENCI_OK || strcmp(c.buf, want) != 0 || !c.contiguous || c.next != strlen(text)) {
    th_fail++;
    fprintf(stderr, "FAIL %s:%d: segment \"%s\" (rc %d, contiguous %d)\n  want %s\n  got  %s\n", __FILE__, line,
            text, (int)rc, c.contiguous, want, c.buf);
  }
}
#define SEG(t, text, want) seg_check(__LINE__, t, text, want)

static void test_basic(void) {
  fenci_tagger *t = NULL;
  fenci_token tok[32];
  size_t n = 0;
  const char *s;
  INT_EQ(fenci_tagger_new(&t, g_m, FENCI_MODE_DEFAULT), FENCI_OK);
  if (!t) return;
  SEG(t, "我们喜欢自然语言处理", "我们/喜欢/自然语言处理");
  SEG(t, "中华人民共和国", "中华人民共和国");
  SEG(t, "研究生命", "研究/生命");
  SEG(t, "今天天气很好。", "今天/天气/很/好/。");
  SEG(t, "我们喜欢iPhone手机", "我们/喜欢/iPhone/手机");
  SEG(t, "我 喜欢", "我/ /喜欢");
  SEG(t, "", "");
  /* unknown characters come out one by one, flagged OOV */
  s = "我们喝咖啡";
  INT_EQ(fenci_segment_into(t, s, strlen(s), tok, 32, &n), FENCI_OK);
  INT_EQ(n, 4);
  if (n == 4) {
    INT_EQ(tok[0].start, 0);
    INT_EQ(tok[0].end, 6);
    INT_EQ(tok[0].flags & FENCI_TOK_OOV, 0);
    INT_EQ(tok[1].start, 6);
    INT_EQ(tok[1].end, 9);
    OK(tok[1].flags & FENCI_TOK_OOV, "喝 must be OOV (flags %u)", tok[1].flags);
    INT_EQ(tok[3].end, 15);
    INT_EQ(tok[0].kind, FENCI_KIND_WORD);
  }
  /* byte offsets, kinds and tags */
  s = "苹果手机 3.5% 的";
  INT_EQ(fenci_segment_into(t, s, strlen(s), tok, 32, &n), FENCI_OK);
  INT_EQ(n, 6);
  if (n == 6) {
    INT_EQ(tok[0].end, 6);
    STR_EQ(fenci_tag_name(g_m, tok[0].tag), "n");
    INT_EQ(tok[1].start, 6);
    INT_EQ(tok[1].end, 12);
    INT_EQ(tok[2].kind, FENCI_KIND_SPACE);
    INT_EQ(tok[3].kind, FENCI_KIND_NUMBER);
    INT_EQ(tok[3].start, 13);
    INT_EQ(tok[3].end, 17);
    STR_EQ(fenci_tag_name(g_m, tok[5].tag), "u");
    INT_EQ(tok[5].end, strlen(s));
  }
  STR_EQ(fenci_tag_name(g_m, 0), "");
  STR_EQ(fenci_tag_name(g_m, 999), "");
  /* URL and e-mail tokens keep their kind */
  s = "看http://example.com/x。写a.b@example.org";
  INT_EQ(fenci_segment_into(t, s, strlen(s), tok, 32, &n), FENCI_OK);
  INT_EQ(n, 5);
  if (n == 5) {
    INT_EQ(tok[1].kind, FENCI_KIND_URL);
    INT_EQ(tok[2].kind, FENCI_KIND_PUNCT);
    INT_EQ(tok[4].kind, FENCI_KIND_EMAIL);
  }
  fenci_tagger_free(t);
}

/* ------------------------------------------------------------ stop, into */

typedef struct stopper {
  int after, seen;
} stopper;

static int stop_cb(void *ctx, const fenci_token *t, const char *form, size_t n) {
  stopper *s = ctx;
  (void)t;
  (void)form;
  (void)n;
  return ++s->seen >= s->after;
}

static void test_stop_into(void) {
  fenci_tagger *t = NULL;
  fenci_token full[64], part[64];
  size_t n = 0, n2 = 0, i;
  const char *s = "我们喜欢研究生命，今天天气很好。";
  stopper st;
  INT_EQ(fenci_tagger_new(&t, g_m, 0), FENCI_OK);
  if (!t) return;
  st.after = 3;
  st.seen = 0;
  INT_EQ(fenci_segment(t, s, strlen(s), stop_cb, &st), FENCI_STOPPED);
  INT_EQ(st.seen, 3); /* no calls after the stop */
  OK(fenci_tagger_errmsg(t)[0] != 0, "errmsg after a stop is empty");
  /* the tagger works normally afterwards */
  INT_EQ(fenci_segment_into(t, s, strlen(s), full, 64, &n), FENCI_OK);
  STR_EQ(fenci_tagger_errmsg(t), "");
  OK(n > 5, "%zu tokens", n);
  memset(part, 0, sizeof part);
  INT_EQ(fenci_segment_into(t, s, strlen(s), part, 2, &n2), FENCI_TOOSMALL);
  INT_EQ(n2, n);
  for (i = 0; i < 2; i++) {
    INT_EQ(part[i].start, full[i].start);
    INT_EQ(part[i].end, full[i].end);
  }
  OK(part[2].start == 0 && part[2].end == 0, "wrote past cap");
  /* cap 0 with a NULL array asks for the count */
  INT_EQ(fenci_segment_into(t, s, strlen(s), NULL, 0, &n2), FENCI_TOOSMALL);
  INT_EQ(n2, n);
  /* exactly enough */
  INT_EQ(fenci_segment_into(t, s, strlen(s), part, n, &n2), FENCI_OK);
  INT_EQ(n2, n);
  /* empty text: zero tokens, OK even with no array */
  INT_EQ(fenci_segment_into(t, "", 0, NULL, 0, &n2), FENCI_OK);
  INT_EQ(n2, 0);
  fenci_tagger_free(t);
}

/* ----------------------------------------------------------- search / all */

static void test_modes(void) {
  fenci_tagger *t = NULL;
  fenci_token tok[64];
  size_t n = 0, i, next = 0;
  const char *s = "我们喜欢自然语言处理";
  INT_EQ(fenci_tagger_new(&t, g_m, FENCI_MODE_SEARCH), FENCI_OK);
  if (!t) return;
  SEG(t, "自然语言处理", "自然语言处理[自然][自然语言][语言][处理]");
  SEG(t, "中华人民共和国", "中华人民共和国[中华][华人][人民][共和][共和国]");
  SEG(t, "研究生命", "研究/生命");
  SEG(t, "我很好", "我/很/好");
  INT_EQ(fenci_tagger_set_options(t, FENCI_MODE_ALL), FENCI_OK);
  /* all mode adds words that reach past the token: 研究生 over 研究/生命 */
  SEG(t, "研究生命", "研究[研究生]/生命");
  SEG(t, "自然语言处理", "自然语言处理[自然][自然语言][语言][处理]");
  /* the main tokens still rebuild the text, extras lie inside it */
  INT_EQ(fenci_segment_into(t, s, strlen(s), tok, 64, &n), FENCI_OK);
  for (i = 0; i < n; i++) {
    OK(tok[i].start < tok[i].end && tok[i].end <= strlen(s), "token %zu out of range", i);
    if (tok[i].flags & FENCI_TOK_EXTRA) continue;
    INT_EQ(tok[i].start, next);
    next = tok[i].end;
  }
  INT_EQ(next, strlen(s));
  INT_EQ(fenci_tagger_set_options(t, FENCI_MODE_DEFAULT), FENCI_OK);
  SEG(t, "自然语言处理", "自然语言处理");
  INT_EQ(fenci_tagger_set_options(t, FENCI_MODE_SEARCH | FENCI_MODE_ALL), FENCI_BADARG);
  INT_EQ(fenci_tagger_set_options(t, 0x100), FENCI_BADARG);
  fenci_tagger_free(t);
}

/* ------------------------------------------------------ lossless property */

static uint64_t rng;
static uint32_t rnd(void) {
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return (uint32_t)((rng * 2685821657736338717ull) >> 32);
}

/* An independent strict UTF-8 decoder: length of the valid sequence at s,
 * or 0 when s[0] starts no valid sequence. */
static size_t ref_utf8(const uint8_t *s, size_t n) {
  uint32_t c = s[0], v;
  size_t need, k;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) need = 2, v = c & 0x1F;
  else if (c >= 0xE0 && c <= 0xEF) need = 3, v = c & 0x0F;
  else if (c >= 0xF0 && c <= 0xF4) need = 4, v = c & 0x07;
  else return 0;
  if (n < need) return 0;
  for (k = 1; k < need; k++) {
    if ((s[k] & 0xC0) != 0x80) return 0;
    v = (v << 6) | (s[k] & 0x3Fu);
  }
  if (need == 3 && (v < 0x800 || (v >= 0xD800 && v <= 0xDFFF))) return 0;
  if (need == 4 && (v < 0x10000 || v > 0x10FFFF)) return 0;
  return need;
}

typedef struct lossless {
  const uint8_t *text;
  size_t len;
  uint8_t *mark; /* 1: a character starts here, 2: an invalid byte */
  uint8_t *out;  /* main tokens joined */
  size_t o;
  size_t bad;    /* problems seen */
  char first[200];
} lossless;

static void ll_bad(lossless *l, const char *what, const fenci_token *t) {
  if (!l->bad++)
    snprintf(l->first, sizeof l->first, "%s at token [%zu,%zu) kind %u flags %u", what, t->start, t->end,
             (unsigned)t->kind, (unsigned)t->flags);
}

static int ll_cb(void *ctx, const fenci_token *t, const char *form, size_t n) {
  lossless *l = ctx;
  if (t->start >= t->end || t->end > l->len) {
    ll_bad(l, "empty or out-of-range token", t);
    return 0;
  }
  if ((const uint8_t *)form != l->text + t->start || n != t->end - t->start) ll_bad(l, "form mismatch", t);
  if (!l->mark[t->start] || (t->end < l->len && !l->mark[t->end])) ll_bad(l, "token cuts a character", t);
  if (t->flags & FENCI_TOK_EXTRA) return 0;
  if (t->start != l->o) ll_bad(l, "gap or overlap", t);
  if (t->kind == FENCI_KIND_INVALID || (t->flags & FENCI_TOK_INVALID) || l->mark[t->start] == 2) {
    if (!(t->kind == FENCI_KIND_INVALID && (t->flags & FENCI_TOK_INVALID) && n == 1 && l->mark[t->start] == 2))
      ll_bad(l, "invalid byte not a flagged one-byte INVALID token", t);
  } else {
    size_t k;
    for (k = t->start; k < t->end; k++)
      if (l->mark[k] == 2) ll_bad(l, "invalid byte inside a token", t);
  }
  if (l->out) memcpy(l->out + l->o, form, n);
  l->o = t->end;
  return 0;
}

/* Segments text and checks the lossless invariants; returns 0 when fine. */
static int check_lossless(fenci_tagger *t, const uint8_t *text, size_t len, int copy, char *why, size_t whylen) {
  lossless l;
  size_t p = 0;
  fenci_rc rc;
  memset(&l, 0, sizeof l);
  l.text = text;
  l.len = len;
  l.mark = calloc(len + 1, 1);
  l.out = copy ? malloc(len + 1) : NULL;
  while (p < len) {
    size_t k = ref_utf8(text + p, len - p);
    l.mark[p] = k ? 1 : 2;
    p += k ? k : 1;
  }
  rc = fenci_segment(t, (const char *)text, len, ll_cb, &l);
  if (rc != FENCI_OK) snprintf(why, whylen, "rc %s", fenci_rc_str(rc));
  else if (l.bad) snprintf(why, whylen, "%zu problems, first: %s", l.bad, l.first);
  else if (l.o != len) snprintf(why, whylen, "main tokens cover %zu of %zu bytes", l.o, len);
  else if (copy && len && memcmp(l.out, text, len) != 0) snprintf(why, whylen, "joined tokens differ from the input");
  else why[0] = 0;
  free(l.mark);
  free(l.out);
  return why[0] != 0;
}

static const char *const PIECES[] = {
    "我们", "喜欢", "自然语言处理", "中华人民共和国", "研究生命", "的", "咖啡", "，", "。", "——", "……", " ",
    "\t", "\n", "\r\n", "\xe3\x80\x80", "abc", "iPhone", "3.5%", "1,000", "１２３", "５０％", "12:30",
    "http://example.com/a", "www.example.cn.", "x@y.com", "カナ", "한글", "\xf0\x9f\x98\x80", "!!!",
    /* hostile */
    "\xff", "\xfe", "\x80", "\xbf", "\xed\xa0\x80", "\xed\xbf\xbf", "\xc0\xaf", "\xc1\xbf", "\xe0\x80\xaf",
    "\xf0\x80\x80\xaf", "\xf8\x88\x80\x80\x80", "\xfc\x84\x80\x80\x80\x80", "\xf4\x90\x80\x80", "\xe4\xb8",
    "\xe4", "\xf0\x9f\x98", "\xc3", "%", ".", ",", "@", ":", "/", "http://", "www.", "0", "9"};
#define NPIECES (sizeof PIECES / sizeof PIECES[0])

static void test_lossless(uint64_t seed) {
  fenci_tagger *t[3] = {NULL, NULL, NULL};
  static const unsigned opts[3] = {FENCI_MODE_DEFAULT, FENCI_MODE_SEARCH, FENCI_MODE_ALL};
  uint8_t *buf = malloc(200000);
  char why[300];
  int iter, k, fails = 0;
  for (k = 0; k < 3; k++) INT_EQ(fenci_tagger_new(&t[k], g_m, opts[k]), FENCI_OK);
  if (!t[0] || !t[1] || !t[2]) goto out;
  rng = seed ? seed : 1;
  for (iter = 0; iter < 600 && fails < 5; iter++) {
    size_t len = 0, target;
    int style = iter % 4;
    target = iter == 599 ? 150000 : rnd() % (style == 3 ? 4000 : 300);
    while (len < target) {
      if (style == 0) { /* uniformly random bytes, NULs included */
        buf[len++] = (uint8_t)rnd();
      } else if (style == 1) { /* bytes biased to UTF-8 structure */
        static const uint8_t hot[] = {0x00, 0x80, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe4, 0xed,
                                      0xef, 0xf0, 0xf4, 0xf5, 0xf8, 0xfc, 0xff, 'a', '1', '.'};
        buf[len++] = hot[rnd() % sizeof hot];
      } else { /* pieces: text with hostile bytes mixed in */
        const char *p = PIECES[rnd() % NPIECES];
        size_t pl = strlen(p);
        if (len + pl > 200000) break;
        memcpy(buf + len, p, pl);
        len += pl;
      }
    }
    if (iter % 7 == 0 && len) buf[len - 1] = 0xe4; /* a truncated sequence at the end */
    for (k = 0; k < 3; k++) {
      if (check_lossless(t[k], buf, len, 1, why, sizeof why)) {
        fails++;
        OK(0, "seed %llu iteration %d mode %d length %zu: %s", (unsigned long long)seed, iter, k, len, why);
      }
    }
  }
  th_run++;
out:
  for (k = 0; k < 3; k++) fenci_tagger_free(t[k]);
  free(buf);
}

/* ------------------------------- the fused lexicon pass = the edge lattice */

/* Two implementations of one result: without user words and extras the
 * lexicon is looked up on the fly (inside the best-path pass in lexicon
 * mode; for the features and the tokens' tags with a trained model), while
 * search mode goes through the stored edge list.  Their main tokens (search
 * mode's tokens without FENCI_TOK_EXTRA) must be identical. */
/* All tokens of text through fenci_segment_into; NULL on failure. */
static fenci_token *all_tokens(fenci_tagger *t, const char *text, size_t len, size_t *n) {
  fenci_token *v;
  fenci_rc rc = fenci_segment_into(t, text, len, NULL, 0, n);
  if (rc != FENCI_OK && rc != FENCI_TOOSMALL) return NULL;
  v = malloc((*n ? *n : 1) * sizeof *v);
  if (v && fenci_segment_into(t, text, len, v, *n, n) != FENCI_OK) {
    free(v);
    v = NULL;
  }
  return v;
}

static int same_paths(const fenci_model *m, unsigned fast, const char *text, size_t len, char *why, size_t whylen) {
  fenci_tagger *a = NULL, *b = NULL, *c = NULL;
  fenci_token *x = NULL, *y = NULL, *z = NULL;
  size_t nx = 0, ny = 0, nz = 0, i, k = 0;
  int bad = 1, pass;
  why[0] = 0;
  if (fenci_tagger_new(&a, m, FENCI_MODE_DEFAULT | fast) != FENCI_OK ||
      fenci_tagger_new(&b, m, FENCI_MODE_SEARCH | fast) != FENCI_OK ||
      !(x = all_tokens(a, text, len, &nx)) || !(y = all_tokens(b, text, len, &ny))) {
    snprintf(why, whylen, "segmenting failed");
    goto out;
  }
  /* FENCI_OPT_BARE, in default mode (no edges) and search mode (edges): the
   * same main tokens, without the lexicon's tag and the OOV flag */
  for (pass = 0; pass < 2; pass++) {
    size_t j = 0;
    fenci_tagger_free(c);
    free(z);
    c = NULL;
    z = NULL;
    if (fenci_tagger_new(&c, m, (pass ? FENCI_MODE_SEARCH : FENCI_MODE_DEFAULT) | fast | FENCI_OPT_BARE) != FENCI_OK ||
        !(z = all_tokens(c, text, len, &nz))) {
      snprintf(why, whylen, "segmenting with FENCI_OPT_BARE failed");
      goto out;
    }
    for (i = 0; i < nz; i++) {
      if (z[i].flags & FENCI_TOK_EXTRA) continue;
      if (j == nx || z[i].start != x[j].start || z[i].end != x[j].end || z[i].kind != x[j].kind || z[i].tag != 0 ||
          z[i].flags != (x[j].flags & ~(uint32_t)FENCI_TOK_OOV)) {
        snprintf(why, whylen, "mode %d, token %zu with FENCI_OPT_BARE: [%zu,%zu) tag %u flags %u, without: flags %u", pass,
                 j, z[i].start, z[i].end, (unsigned)z[i].tag, (unsigned)z[i].flags, j < nx ? (unsigned)x[j].flags : 0u);
        goto out;
      }
      j++;
    }
    if (j != nx) {
      snprintf(why, whylen, "mode %d: %zu main tokens with FENCI_OPT_BARE, %zu without", pass, j, nx);
      goto out;
    }
  }
  for (i = 0; i < ny; i++) {
    const fenci_token *p, *q = &y[i];
    if (q->flags & FENCI_TOK_EXTRA) continue;
    if (k == nx) {
      snprintf(why, whylen, "search mode has more main tokens than the %zu of default mode", nx);
      goto out;
    }
    p = &x[k];
    if (p->start != q->start || p->end != q->end || p->kind != q->kind || p->tag != q->tag || p->flags != q->flags) {
      snprintf(why, whylen, "token %zu: [%zu,%zu) kind %u tag %u flags %u vs [%zu,%zu) kind %u tag %u flags %u", k,
               p->start, p->end, (unsigned)p->kind, (unsigned)p->tag, (unsigned)p->flags, q->start, q->end,
               (unsigned)q->kind, (unsigned)q->tag, (unsigned)q->flags);
      goto out;
    }
    k++;
  }
  if (k != nx) {
    snprintf(why, whylen, "%zu tokens vs %zu main tokens in search mode", nx, k);
    goto out;
  }
  bad = 0;
out:
  free(x);
  free(y);
  free(z);
  fenci_tagger_free(a);
  fenci_tagger_free(b);
  fenci_tagger_free(c);
  return bad;
}

static char *read_all(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  long sz;
  *n = 0;
  if (!f) return NULL;
  if (fseek(f, 0, SEEK_END) == 0 && (sz = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)sz))) {
    *n = fread(buf, 1, (size_t)sz, f);
  }
  fclose(f);
  return buf;
}

static void test_fused_path(uint64_t seed) {
  static const char *const extra[] = {
      "拿破仑在枫丹白露签署退位诏书，随后被流放到厄尔巴岛。", "1814年4月6日，科兰古带回了22万发炮弹和16000名士兵的消息。",
      "瓦莱夫斯卡伯爵夫人來到楓丹白露宮，與皇帝會面。", "研究生命起源的研究生们", "ｉＰｈｏｎｅ１５和Ａ股市场"};
  const fenci_model *ms[3];
  unsigned fast[3];
  fenci_model *shipped = NULL, *trained = NULL;
  size_t nsample = 0, nm = 0, k;
  char *sample = read_all("samples/napoleon.txt", &nsample);
  char why[300], *buf = malloc(20000);
  int iter, fails = 0;
  fast[nm] = FENCI_OPT_FAST;
  ms[nm++] = g_m;
  /* the shipped lexicon and a trained model, when the test runs from the repository */
  if (fenci_model_open(&shipped, "models/lexicon.fenci", NULL, NULL, 0) == FENCI_OK) {
    fast[nm] = FENCI_OPT_FAST;
    ms[nm++] = shipped;
  }
  if (fenci_model_open(&trained, "models/ctb.fenci", NULL, NULL, 0) == FENCI_OK) {
    fast[nm] = 0;
    ms[nm++] = trained;
  }
  rng = seed ? seed ^ 0x5eed : 7;
  for (k = 0; k < nm && buf; k++) {
    if (sample && same_paths(ms[k], fast[k], sample, nsample, why, sizeof why)) OK(0, "model %zu, the sample: %s", k, why);
    for (iter = 0; iter < 300 && fails < 3; iter++) {
      size_t len = 0, target = rnd() % 3000;
      while (len < target) {
        const char *p;
        size_t pl;
        unsigned r = rnd() % 4;
        if (r == 0 && sample && nsample > 64) { /* a slice of real text, maybe cut inside a character */
          size_t at = rnd() % (nsample - 64);
          p = sample + at;
          pl = 1 + rnd() % 63;
        } else if (r == 1) {
          p = extra[rnd() % (sizeof extra / sizeof extra[0])];
          pl = strlen(p);
        } else {
          p = PIECES[rnd() % NPIECES];
          pl = strlen(p);
        }
        if (len + pl > 20000) break;
        memcpy(buf + len, p, pl);
        len += pl;
      }
      if (same_paths(ms[k], fast[k], buf, len, why, sizeof why)) {
        fails++;
        OK(0, "model %zu, seed %llu, iteration %d: %s", k, (unsigned long long)seed, iter, why);
      }
    }
  }
  th_run++;
  fenci_model_free(shipped);
  fenci_model_free(trained);
  free(sample);
  free(buf);
}

/* --------------------------------------------- 10 MB line, linear time */

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct counter {
  size_t next, n;
  int bad;
} counter;

static int count_cb(void *ctx, const fenci_token *t, const char *form, size_t n) {
  counter *c = ctx;
  (void)form;
  (void)n;
  if (t->flags & FENCI_TOK_EXTRA) return 0;
  if (t->start != c->next || t->end <= t->start) c->bad = 1;
  c->next = t->end;
  c->n++;
  return 0;
}

/* Han text without punctuation or spaces: lexicon words and unknown
 * characters in a fixed pseudo-random order. */
static char *han_text(size_t len, size_t *out_len) {
  static const char *const w[] = {"我们", "喜欢", "自然语言处理", "中华人民共和国", "研究生命", "的",
                                  "咖啡", "很好", "天气", "今天", "苹果手机", "人民", "共和", "水"};
  char *b = malloc(len + 32);
  size_t o = 0;
  uint64_t save = rng;
  rng = 12345;
  while (o < len) {
    const char *p = w[rnd() % (sizeof w / sizeof w[0])];
    size_t l = strlen(p);
    memcpy(b + o, p, l);
    o += l;
  }
  rng = save;
  *out_len = o;
  return b;
}

static double time_segment(fenci_tagger *t, const char *s, size_t n, int *ok) {
  double best = 1e30;
  int r;
  for (r = 0; r < 3; r++) {
    counter c;
    double t0, dt;
    fenci_rc rc;
    memset(&c, 0, sizeof c);
    t0 = now_s();
    rc = fenci_segment(t, s, n, count_cb, &c);
    dt = now_s() - t0;
    if (rc != FENCI_OK || c.bad || c.next != n) *ok = 0;
    if (dt < best) best = dt;
  }
  return best;
}

static void test_long_line(void) {
  fenci_tagger *t = NULL;
  size_t n10, n1;
  char *big = han_text(10u << 20, &n10);
  char *small = han_text(1u << 20, &n1);
  int ok = 1;
  double t10, t1;
  INT_EQ(fenci_tagger_new(&t, g_m, 0), FENCI_OK);
  if (t) {
    char why[300];
    /* full lossless check once (with character marks) on the 10 MB line */
    OK(!check_lossless(t, (const uint8_t *)big, n10, 0, why, sizeof why), "10 MB line: %s", why);
    /* timed for the record only: the linear-time checks, robust to a busy
     * machine (thread CPU time, cold slices, retries), are
     * tests/pathological; a wall-clock ratio here failed under load */
    t1 = time_segment(t, small, n1, &ok);
    t10 = time_segment(t, big, n10, &ok);
    OK(ok, "timed runs were not lossless");
    fprintf(stderr, "test_seg: 1 MB %.3f s, 10 MB %.3f s, ratio %.2f (not checked here)\n", t1, t10,
            t10 / (t1 > 1e-6 ? t1 : 1e-6));
  }
  fenci_tagger_free(t);
  free(big);
  free(small);
}

/* A line longer than one internal chunk (64 KiB) without punctuation or
 * whitespace: where the text is cut into chunks must not change the words.
 * 8000 x "自然语言处理" (144 KB) must give 8000 tokens "自然语言处理". */
typedef struct same_word {
  const char *w;
  size_t wl, n, wrong, first_wrong;
} same_word;

static int same_word_cb(void *ctx, const fenci_token *t, const char *form, size_t n) {
  same_word *c = ctx;
  if (t->flags & FENCI_TOK_EXTRA) return 0;
  if (n != c->wl || memcmp(form, c->w, n) != 0) {
    if (!c->wrong++) c->first_wrong = t->start;
  }
  c->n++;
  return 0;
}

static void test_chunk_boundary(void) {
  fenci_tagger *t = NULL;
  const char *w = "自然语言处理";
  size_t wl = strlen(w), reps = 8000, k;
  char *s = malloc(wl * reps);
  same_word c;
  for (k = 0; k < reps; k++) memcpy(s + k * wl, w, wl);
  memset(&c, 0, sizeof c);
  c.w = w;
  c.wl = wl;
  INT_EQ(fenci_tagger_new(&t, g_m, 0), FENCI_OK);
  if (t) {
    INT_EQ(fenci_segment(t, s, wl * reps, same_word_cb, &c), FENCI_OK);
    OK(c.wrong == 0 && c.n == reps,
       "a %zu-byte line of one repeated word: %zu tokens, %zu of them not the word (first at byte %zu): "
       "a chunk boundary split a word",
       wl * reps, c.n, c.wrong, c.first_wrong);
  }
  fenci_tagger_free(t);
  free(s);
}

/* A whitespace run is one token, also where the text is cut into chunks:
 * lines that begin with an indent ("\n　　" is one run) or end in CRLF,
 * several chunks long, must never give two whitespace tokens in a row. */
typedef struct space_runs {
  size_t n, pairs, first_pair;
  int prev_space;
} space_runs;

static int space_runs_cb(void *ctx, const fenci_token *t, const char *form, size_t n) {
  space_runs *c = ctx;
  int sp = t->kind == FENCI_KIND_SPACE;
  (void)form;
  (void)n;
  if (sp && c->prev_space && !c->pairs++) c->first_pair = t->start;
  c->prev_space = sp;
  c->n++;
  return 0;
}

static void test_chunk_space_runs(void) {
  static const char *const lines[] = {"\xe3\x80\x80\xe3\x80\x80自然语言处理。\n", "  自然，语言  \r\n",
                                      "\n\n  \t处理\n"};
  fenci_tagger *t = NULL;
  size_t k, i, len, cap = 300000;
  char *s = malloc(cap);
  space_runs c;
  INT_EQ(fenci_tagger_new(&t, g_m, 0), FENCI_OK);
  for (k = 0; t && s && k < sizeof lines / sizeof lines[0]; k++) {
    size_t ll = strlen(lines[k]);
    for (len = 0, i = 0; len + ll < cap; i++, len += ll) memcpy(s + len, lines[k], ll);
    memset(&c, 0, sizeof c);
    INT_EQ(fenci_segment(t, s, len, space_runs_cb, &c), FENCI_OK);
    OK(c.pairs == 0, "line %zu x %zu (%zu bytes): %zu whitespace runs cut in two (first at byte %zu)", k, i, len,
       c.pairs, c.first_pair);
  }
  fenci_tagger_free(t);
  free(s);
}

/* ----------------------------------------------------- codes, bad args */

static int dummy_cb(void *ctx, const fenci_token *t, const char *f, size_t n) {
  (void)ctx;
  (void)t;
  (void)f;
  (void)n;
  return 0;
}

static void test_rc_str(void) {
  const char *s[8];
  int i, j;
  for (i = 0; i <= FENCI_TOOSMALL; i++) {
    s[i] = fenci_rc_str((fenci_rc)i);
    OK(s[i] && s[i][0], "fenci_rc_str(%d) empty", i);
    for (j = 0; j < i; j++) OK(strcmp(s[i], s[j]) != 0, "codes %d and %d share \"%s\"", i, j, s[i]);
  }
  OK(fenci_rc_str((fenci_rc)99) && fenci_rc_str((fenci_rc)99)[0], "unknown code");
  OK(fenci_rc_str((fenci_rc)-1) != NULL, "negative code");
  INT_EQ(fenci_version(), FENCI_VERSION);
  {
    char v[32];
    snprintf(v, sizeof v, "%d.%d.%d", FENCI_VERSION_MAJOR, FENCI_VERSION_MINOR, FENCI_VERSION_PATCH);
    STR_EQ(fenci_version_string(), v);
  }
}

static void test_badargs(void) {
  fenci_model *m = (fenci_model *)1;
  fenci_tagger *t = (fenci_tagger *)1;
  fenci_dict *d = (fenci_dict *)1;
  fenci_token tok[4];
  size_t n = 99, len;
  void *img = (void *)1;
  char err[128];
  char *mis;

  INT_EQ(fenci_model_open(NULL, "x", NULL, NULL, 0), FENCI_BADARG);
  INT_EQ(fenci_model_open(&m, NULL, NULL, err, sizeof err), FENCI_BADARG);
  OK(m == NULL, "*out not cleared");
  INT_EQ(fenci_model_open(&m, "/nonexistent/dir/model.fenci", NULL, err, sizeof err), FENCI_IO);
  OK(m == NULL && err[0], "no message for a missing file");
  INT_EQ(fenci_model_from_buffer(NULL, g_img, 64, NULL, NULL, 0), FENCI_BADARG);
  m = (fenci_model *)1;
  INT_EQ(fenci_model_from_buffer(&m, NULL, 64, NULL, err, sizeof err), FENCI_BADARG);
  OK(m == NULL, "*out not cleared");
  mis = malloc(4096 + 8);
  memset(mis, 0, 4096 + 8);
  INT_EQ(fenci_model_from_buffer(&m, mis + 1, 4096, NULL, err, sizeof err), FENCI_BADARG); /* misaligned */
  INT_EQ(fenci_model_from_buffer(&m, mis, 4096, NULL, err, sizeof err), FENCI_BADFORMAT);  /* zeros */
  free(mis);
  INT_EQ(fenci_lexicon_compile(NULL, 5, &img, &len, NULL, err, sizeof err), FENCI_BADARG);
  INT_EQ(fenci_lexicon_compile("a", 1, NULL, &len, NULL, err, sizeof err), FENCI_BADARG);
  INT_EQ(fenci_lexicon_compile("a", 1, &img, NULL, NULL, err, sizeof err), FENCI_BADARG);
  INT_EQ(fenci_model_check(NULL, err, sizeof err), FENCI_BADARG);

  INT_EQ(fenci_tagger_new(NULL, g_m, 0), FENCI_BADARG);
  INT_EQ(fenci_tagger_new(&t, NULL, 0), FENCI_BADARG);
  OK(t == NULL, "*out not cleared");
  INT_EQ(fenci_tagger_new(&t, g_m, FENCI_MODE_MASK), FENCI_BADARG);
  INT_EQ(fenci_tagger_new(&t, g_m, 0x80), FENCI_BADARG);
  INT_EQ(fenci_tagger_set_options(NULL, 0), FENCI_BADARG);
  INT_EQ(fenci_tagger_set_dict(NULL, NULL), FENCI_BADARG);
  INT_EQ(fenci_segment(NULL, "a", 1, dummy_cb, NULL), FENCI_BADARG);
  INT_EQ(fenci_segment_into(NULL, "a", 1, tok, 4, &n), FENCI_BADARG);
  INT_EQ(fenci_tagger_new(&t, g_m, 0), FENCI_OK);
  if (t) {
    INT_EQ(fenci_segment(t, NULL, 1, dummy_cb, NULL), FENCI_BADARG);
    OK(fenci_tagger_errmsg(t)[0], "no message for a NULL text");
    INT_EQ(fenci_segment(t, "a", 1, NULL, NULL), FENCI_BADARG);
    INT_EQ(fenci_segment(t, NULL, 0, dummy_cb, NULL), FENCI_OK);
    INT_EQ(fenci_segment_into(t, "a", 1, NULL, 4, &n), FENCI_BADARG);
    INT_EQ(fenci_segment_into(t, "a", 1, tok, 4, NULL), FENCI_BADARG);
    INT_EQ(fenci_segment_into(t, NULL, 1, tok, 4, &n), FENCI_BADARG);
  }
  fenci_tagger_free(t);
  STR_EQ(fenci_tagger_errmsg(NULL), "");

  INT_EQ(fenci_dict_new(NULL, g_m, NULL), FENCI_BADARG);
  INT_EQ(fenci_dict_new(&d, NULL, NULL), FENCI_BADARG);
  OK(d == NULL, "*out not cleared");
  INT_EQ(fenci_dict_add(NULL, "词", 3, 0, NULL), FENCI_BADARG);
  INT_EQ(fenci_dict_load(NULL, "x", err, sizeof err), FENCI_BADARG);
  INT_EQ(fenci_dict_load_text(NULL, "x", 1, err, sizeof err), FENCI_BADARG);
  INT_EQ(fenci_dict_size(NULL), 0);

  /* NULL is a no-op for every free, and property getters tolerate NULL */
  fenci_model_free(NULL);
  fenci_tagger_free(NULL);
  fenci_dict_free(NULL);
  fenci_free(NULL, NULL);
  INT_EQ(fenci_model_lexicon_size(NULL), 0);
  INT_EQ(fenci_model_has_weights(NULL), 0);
  STR_EQ(fenci_tag_name(NULL, 1), "");
  len = 5;
  STR_EQ(fenci_model_meta(NULL, &len), "");
  INT_EQ(len, 0);
}

static void test_model_props(void) {
  size_t len = 0;
  const char *meta = fenci_model_meta(g_m, &len);
  INT_EQ(fenci_model_lexicon_size(g_m), 26);
  INT_EQ(fenci_model_has_weights(g_m), 0);
  OK(meta && strlen(meta) == len && strstr(meta, "kind=lexicon"), "meta: %s", meta ? meta : "(null)");
}

int main(int argc, char **argv) {
  uint64_t seed;
  const char *env = getenv("FENCI_SEED");
  if (argc > 1) seed = strtoull(argv[1], NULL, 10);
  else if (env && *env) seed = strtoull(env, NULL, 10);
  else seed = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 20);
  fprintf(stderr, "test_seg: seed %llu (rerun with FENCI_SEED=%llu)\n", (unsigned long long)seed,
          (unsigned long long)seed);
  g_m = th_load_model(LEX, &g_img);
  if (!g_m) TEST_DONE();
  test_basic();
  test_stop_into();
  test_modes();
  test_rc_str();
  test_badargs();
  test_model_props();
  test_lossless(seed);
  test_fused_path(seed);
  test_chunk_boundary();
  test_chunk_space_runs();
  if (!getenv("FENCI_SKIP_SLOW")) test_long_line();
  fenci_model_free(g_m);
  fenci_free(NULL, g_img);
  TEST_DONE();
}
