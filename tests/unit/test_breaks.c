/* test_breaks.c - the break rule (src/units.h) on every shipped model and
 * in every mode: invalid bytes are one-byte FENCI_KIND_INVALID tokens;
 * invalid bytes, control characters, whitespace, URLs and e-mail addresses
 * are never joined to anything, nor two different punctuation marks.
 * Checked by the independent oracle of fuzz/oracle.h, on the reproducers
 * of the hardening issue, on 1 MB of random bytes and on 1 MB of random
 * characters from the classes the rule is about; plus long lines without a
 * break, whose tokens stay short (the trained decoder caps a word at 64
 * units). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "../../fuzz/oracle.h"

typedef struct tb_ctx {
  const char *text;
  size_t len;
  size_t bad, tokens, longest, invalid;
  char why[160];
} tb_ctx;

static int tb_check(void *ctx, const fenci_token *tok, const char *form, size_t form_len) {
  tb_ctx *c = ctx;
  const char *why = fz_token_breaks(c->text, c->len, tok);
  (void)form;
  if (why) {
    if (!c->bad) snprintf(c->why, sizeof c->why, "token %zu-%zu: %s", tok->start, tok->end, why);
    c->bad++;
  }
  if (!(tok->flags & FENCI_TOK_EXTRA)) {
    c->tokens++;
    if (form_len > c->longest) c->longest = form_len;
    if (tok->kind == FENCI_KIND_INVALID) c->invalid++;
  }
  return 0;
}

static const unsigned tb_opts[6] = {FENCI_MODE_DEFAULT, FENCI_MODE_SEARCH, FENCI_MODE_ALL,
                                    FENCI_OPT_FAST, FENCI_OPT_FAST | FENCI_MODE_SEARCH,
                                    FENCI_OPT_FAST | FENCI_MODE_ALL};

static tb_ctx tb_segment(const fenci_model *m, unsigned opts, const char *text, size_t len) {
  tb_ctx c;
  fenci_tagger *t = NULL;
  memset(&c, 0, sizeof c);
  c.text = text;
  c.len = len;
  INT_EQ(fenci_tagger_new(&t, m, opts), FENCI_OK);
  if (t) INT_EQ(fenci_segment(t, text, len, tb_check, &c), FENCI_OK);
  fenci_tagger_free(t);
  return c;
}

static uint64_t tb_rand(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

/* n random bytes */
static char *tb_random_bytes(size_t n, uint64_t seed) {
  char *t = malloc(n);
  size_t i;
  if (!t) abort();
  for (i = 0; i < n; i++) t[i] = (char)(tb_rand(&seed) >> 24);
  return t;
}

/* about n bytes of characters drawn from the classes of the rule */
static char *tb_random_mix(size_t n, size_t *len, uint64_t seed) {
  static const char *const pieces[] = {"我", "们", "中", "国", "人", "的", "L", "W", "ab", "3", "１２", ".", ",",
                                       "-", "-", "—", "—", "…", "。", "，", "“", "”", "《", "》", "·", "%",
                                       "\x80", "\xcb", "\xc1", "\xee", "\xe4\xb8", "\x01", "\x1f", "\x7f",
                                       "\xc2\x85", "\xc2\x9f", " ", "\t", "\n", "\xe3\x80\x80", "a@b.cn",
                                       "http://x.cn/a", "%E4", "+", "'", "_", "○", "℃", "／"};
  char *t = malloc(n + 32);
  size_t k = 0;
  if (!t) abort();
  while (k < n) {
    const char *p = pieces[tb_rand(&seed) % (sizeof pieces / sizeof pieces[0])];
    size_t l = strlen(p);
    memcpy(t + k, p, l);
    k += l;
  }
  *len = k;
  return t;
}

static void tb_model(const char *path) {
  fenci_model *m = NULL;
  size_t o, no, rl = 0, ml = 0;
  char *rb, *mix;
  if (fenci_model_open(&m, path, NULL, NULL, 0) != FENCI_OK) {
    fprintf(stderr, "test_breaks: %s not found, skipped\n", path);
    return;
  }
  no = fenci_model_has_weights(m) ? 6 : 3;
  rl = 1 << 20;
  rb = tb_random_bytes(rl, 0x9E3779B97F4A7C15ull);
  mix = tb_random_mix(1 << 20, &ml, 42);
  for (o = 0; o < no; o++) {
    tb_ctx c;
    /* the reproducers: 我 \x80 们 and L \xcb . \xc1 W \xee, each byte apart */
    c = tb_segment(m, tb_opts[o], "我\x80们", 7);
    OK(c.bad == 0 && c.tokens == 3 && c.invalid == 1, "%s opts %u: 我\\x80们: %zu tokens, %s", path, tb_opts[o],
       c.tokens, c.why);
    c = tb_segment(m, tb_opts[o], "L\xcb.\xc1W\xee", 6);
    OK(c.bad == 0 && c.tokens == 6 && c.invalid == 3, "%s opts %u: L\\xcb.\\xc1W\\xee: %zu tokens, %s", path,
       tb_opts[o], c.tokens, c.why);
    c = tb_segment(m, tb_opts[o], "说﹕「今年", strlen("说﹕「今年"));
    OK(c.bad == 0, "%s opts %u: %s", path, tb_opts[o], c.why);
    c = tb_segment(m, tb_opts[o], rb, rl);
    OK(c.bad == 0, "%s opts %u: random bytes: %zu bad tokens, first %s", path, tb_opts[o], c.bad, c.why);
    c = tb_segment(m, tb_opts[o], mix, ml);
    OK(c.bad == 0, "%s opts %u: random characters: %zu bad tokens, first %s", path, tb_opts[o], c.bad, c.why);
  }
  if (fenci_model_has_weights(m)) {
    /* lines without a break: the decoder's words stay under its cap of 64
     * units (the issue saw a 65 KB "word") */
    static const char *const pats[] = {"中.", "的", "——", "1..", "中-"};
    size_t p;
    for (p = 0; p < sizeof pats / sizeof pats[0]; p++) {
      size_t pl = strlen(pats[p]), n = 0, k;
      char *t = malloc(300000 + pl);
      tb_ctx c;
      if (!t) abort();
      for (k = 0; k + pl <= 300000; k += pl) memcpy(t + k, pats[p], pl);
      n = k;
      c = tb_segment(m, FENCI_MODE_DEFAULT, t, n);
      OK(c.bad == 0 && c.longest <= 64 * 4, "%s: %s x %zu: longest token %zu bytes, %s", path, pats[p], n / pl,
         c.longest, c.why);
      free(t);
    }
  }
  free(rb);
  free(mix);
  fenci_model_free(m);
}

int main(void) {
  static const char *const models[] = {"models/ctb.fenci", "models/pku.fenci", "models/msr.fenci",
                                       "models/lexicon.fenci"};
  size_t i;
  for (i = 0; i < sizeof models / sizeof models[0]; i++) tb_model(models[i]);
  TEST_DONE();
}
