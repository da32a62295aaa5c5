/* test_units.c - the pre-tokenizer (fc_unit_len, fc_scan_run) and the
 * lattice tags of trained-model scans.
 *
 * Each case gives a text and the units it must split into, written as the
 * unit strings separated by '|' with the expected kind letter after each
 * one.  Then a tiny in-memory lexicon checks which lexicon words become
 * edges: only words that start and end on unit boundaries may. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chars.h"
#include "fenci.h"
#include "harness.h"
#include "lattice.h"
#include "units.h"

/* kind letters: w word, l latin, n number, u url, e email, p punct,
 * s space, x invalid, o other */
static char kind_letter(unsigned k) {
  static const char t[] = "wlnuepsxo";
  return k < sizeof t - 1 ? t[k] : '?';
}

/* Splits text[0..len) with fc_unit_len and renders "unit:k|unit:k|...". */
static void render_units(const char *text, size_t len, char *out, size_t cap) {
  size_t pos = 0, o = 0;
  out[0] = 0;
  while (pos < len) {
    uint8_t kind = 0xFF, cls = 0;
    uint32_t cp = 0;
    size_t l = fc_unit_len((const uint8_t *)text + pos, len - pos, &kind, &cls, &cp);
    if (l == 0 || l > len - pos) { /* would loop or overrun: report and stop */
      snprintf(out + o, cap - o, "<bad length %zu at %zu>", l, pos);
      return;
    }
    if (o + l + 4 >= cap) return;
    if (pos) out[o++] = '|';
    memcpy(out + o, text + pos, l);
    o += l;
    out[o++] = ':';
    out[o++] = kind_letter(kind);
    out[o] = 0;
    pos += l;
  }
}

static void check_units(int line, const char *text, size_t len, const char *want) {
  char got[4096];
  render_units(text, len, got, sizeof got);
  th_run++;
  if (strcmp(got, want) != 0) {
    th_fail++;
    fprintf(stderr, "FAIL %s:%d: units of \"%s\"\n  want %s\n  got  %s\n", __FILE__, line, text, want, got);
  }
}
#define UNITS(text, want) check_units(__LINE__, text, sizeof(text) - 1, want)

static void test_latin(void) {
  UNITS("hello", "hello:l");
  UNITS("iPhone15手机", "iPhone15:l|手:w|机:w");
  UNITS("我用Python写", "我:w|用:w|Python:l|写:w");
  UNITS("e-mail", "e-mail:l");
  UNITS("don't", "don't:l");
  UNITS("snake_case", "snake_case:l");
  UNITS("U.S.A.", "U.S.A:l|.:p");
  UNITS("abc-", "abc:l|-:p");
  UNITS("ａｂｃ中", "ａｂｃ:l|中:w"); /* full-width letters */
  UNITS("café", "café:l");
  UNITS("hello world", "hello:l| :s|world:l");
}

static void test_numbers(void) {
  UNITS("2024", "2024:n");
  UNITS("3.5%", "3.5%:n");
  UNITS("1,000", "1,000:n");
  UNITS("1,234,567.89元", "1,234,567.89:n|元:w");
  UNITS("22万", "22:n|万:w");
  UNITS("1814年4月6日", "1814:n|年:w|4:n|月:w|6:n|日:w");
  UNITS("增长3.5%。", "增:w|长:w|3.5%:n|。:p");
  UNITS("3.", "3:n|.:p");        /* no digit after the point */
  UNITS("1,000,", "1,000:n|,:p"); /* trailing separator left out */
  UNITS("１２３", "１２３:n");   /* full-width digits */
  UNITS("５０％", "５０％:n");   /* full-width percent */
  UNITS("３．１４", "３．１４:n"); /* full-width decimal point */
  UNITS("12:30", "12:30:n");
  UNITS("-5", "-:p|5:n");
}

static void test_urls_emails(void) {
  UNITS("http://example.com", "http://example.com:u");
  UNITS("见https://a.example.org/x?q=1&r=2。", "见:w|https://a.example.org/x?q=1&r=2:u|。:p");
  UNITS("www.example.com.", "www.example.com:u|.:p");
  UNITS("(http://example.com/a).", "(:p|http://example.com/a:u|):p|.:p");
  UNITS("http://example.com/路径", "http://example.com/:u|路:w|径:w");
  UNITS("http://", "http:l|::p|//:p"); /* a scheme alone is no URL */
  UNITS("写信给bob.smith@example.com吧", "写:w|信:w|给:w|bob.smith@example.com:e|吧:w");
  UNITS("12345@qq.com", "12345@qq.com:e");
  UNITS("a@b", "a:l|@:p|b:l");           /* no domain dot: not an address */
  UNITS("user@example.com.", "user@example.com:e|.:p");
}

static void test_space_punct(void) {
  UNITS(" \t\r\n  ", " \t\r\n  :s");
  UNITS("中\xe3\x80\x80文", "中:w|\xe3\x80\x80:s|文:w"); /* U+3000 */
  UNITS("好——走", "好:w|——:p|走:w");
  UNITS("嗯……", "嗯:w|……:p");
  UNITS("!!!?", "!!!:p|?:p");
  UNITS("。。，", "。。:p|，:p");
  UNITS("「你」", "「:p|你:w|」:p");
}

static void test_invalid(void) {
  UNITS("\xff", "\xff:x");
  UNITS("a\xff\xfe" "b", "a:l|\xff:x|\xfe:x|b:l");
  UNITS("\xed\xa0\x80", "\xed:x|\xa0:x|\x80:x");  /* encoded surrogate */
  UNITS("\xc0\xaf", "\xc0:x|\xaf:x");             /* overlong '/' */
  UNITS("\xe0\x80\xaf", "\xe0:x|\x80:x|\xaf:x");  /* overlong, 3 bytes */
  UNITS("\xf8\x88\x80\x80\x80", "\xf8:x|\x88:x|\x80:x|\x80:x|\x80:x"); /* 5-byte form */
  UNITS("\xf4\x90\x80\x80", "\xf4:x|\x90:x|\x80:x|\x80:x");           /* > U+10FFFF */
  UNITS("中\xe4\xb8", "中:w|\xe4:x|\xb8:x");       /* truncated at the end */
  UNITS("\xe4\xb8" "a", "\xe4:x|\xb8:x|a:l");       /* truncated inside */
  UNITS("\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80:p");  /* a valid emoji is one unit */
}

static void test_kana_hangul(void) {
  UNITS("カタカナ", "カタカナ:w");
  UNITS("ひらがなカタカナ", "ひらがなカタカナ:w"); /* both kana: one run */
  UNITS("한국어 문장", "한국어:w| :s|문장:w");
  UNITS("日本のアニメ", "日:w|本:w|のアニメ:w");
}

static void test_nul(void) {
  static const char t[] = {'a', 0, 'b', 0};
  char got[64];
  render_units(t, sizeof t, got, sizeof got);
  /* NUL is a control character: a unit of its own, never part of a word */
  OK(strlen(got) >= 2 && got[0] == 'a' && got[1] == ':', "units of a\\0b\\0: %s", got);
  {
    uint8_t kind, cls;
    uint32_t cp;
    INT_EQ(fc_unit_len((const uint8_t *)t + 1, 3, &kind, &cls, &cp), 1);
    INT_EQ(fc_unit_len((const uint8_t *)t, 4, &kind, &cls, &cp), 1);
    INT_EQ(kind, FENCI_KIND_LATIN);
  }
}

/* fc_unit_len must never read past n: run every prefix of a mixed string
 * (under ASan each prefix is copied into an exact-size heap block). */
static void test_prefixes(void) {
  static const char s[] = "http://x.cn/a，12,345.6%ab@cd.ef——……\xe4\xb8\xad\xff 한ア１２";
  size_t n = sizeof s - 1, k;
  for (k = 1; k <= n; k++) {
    uint8_t *b = malloc(k), kind, cls;
    size_t pos = 0, guard = 0;
    uint32_t cp;
    memcpy(b, s, k);
    while (pos < k && guard++ < k + 1) {
      size_t l = fc_unit_len(b + pos, k - pos, &kind, &cls, &cp);
      if (l == 0 || l > k - pos) {
        OK(0, "prefix %zu: unit length %zu at %zu", k, l, pos);
        break;
      }
      pos += l;
    }
    OK(pos == k, "prefix %zu: units cover %zu bytes", k, pos);
    free(b);
  }
}

/* ---------------------------------------------------------- lexicon edges */

/* Renders the edges of text as "from-to" unit spans, e.g. "0-2 1-3". */
static void render_edges(fc_scan *s, const fenci_model *m, const char *text, char *out, size_t cap) {
  size_t k, o = 0;
  fenci_rc rc = fc_scan_run(s, m, NULL, (const uint8_t *)text, strlen(text), 0, NULL);
  out[0] = 0;
  if (rc != FENCI_OK) {
    snprintf(out, cap, "rc=%d", (int)rc);
    return;
  }
  for (k = 0; k < s->ne && o + 24 < cap; k++)
    o += (size_t)snprintf(out + o, cap - o, "%s%u-%u", k ? " " : "", (unsigned)s->e[k].from, (unsigned)s->e[k].to);
}

static void check_edges(int line, fc_scan *s, const fenci_model *m, const char *text, const char *want) {
  char got[1024];
  render_edges(s, m, text, got, sizeof got);
  th_run++;
  if (strcmp(got, want) != 0) {
    th_fail++;
    fprintf(stderr, "FAIL %s:%d: edges of \"%s\"\n  want %s\n  got  %s\n", __FILE__, line, text, want, got);
  }
}
#define EDGES(text, want) check_edges(__LINE__, &s, m, text, want)

static void test_edges(void) {
  static const char lex[] =
      "中国 100\n"
      "中国人 50\n"
      "国人 10\n"
      "A股 30\n"
      "B股 30\n"
      "ab 20\n"
      "iPhone 20\n"
      "卡拉OK 10\n"
      "3.5% 5\n"
      "5% 5\n"
      "—— 3\n";
  void *img = NULL;
  fenci_model *m = th_load_model(lex, &img);
  fc_scan s;
  size_t i;
  memset(&s, 0, sizeof s);
  if (!m) {
    fenci_free(NULL, img);
    return;
  }
  EDGES("中国人", "0-2 0-3 1-3");
  EDGES("A股", "0-2");
  EDGES("AB股", "");            /* "B股" starts inside the unit "AB" */
  EDGES("abc", "");             /* "ab" would end inside the unit "abc" */
  EDGES("ab", "0-1");
  EDGES("买iPhone", "1-2");
  EDGES("卡拉OK", "0-3");        /* Han units + one Latin unit */
  EDGES("卡拉OKs", "");
  EDGES("3.5%", "0-1");          /* the whole number unit */
  EDGES("13.5%", "");
  EDGES("——", "0-1");
  EDGES("———", "");             /* a run of three is another unit */
  EDGES("中 国", "");           /* whitespace splits words */
  EDGES("中\xff国", "");

  /* units carry offsets that tile the text */
  fc_scan_run(&s, m, NULL, (const uint8_t *)"中国人 A股3.5%", strlen("中国人 A股3.5%"), 1, NULL);
  INT_EQ(s.n, 7);
  for (i = 0; i < s.n; i++) {
    OK(s.u[i].start < s.u[i].end, "unit %zu empty", i);
    if (i) INT_EQ(s.u[i].start, s.u[i - 1].end);
  }
  if (s.n == 7) {
    INT_EQ(s.u[0].start, 0);
    INT_EQ(s.u[6].end, strlen("中国人 A股3.5%"));
    INT_EQ(s.u[3].kind, FENCI_KIND_SPACE);
    INT_EQ(s.u[6].kind, FENCI_KIND_NUMBER);
    /* with feats: longest word from unit 0 is 3 units, ending at unit 2 is 3 */
    INT_EQ(s.u[0].lb, 3);
    INT_EQ(s.u[2].le, 3);
    INT_EQ(s.u[1].lm, 3);
  }
  /* first[] indexes edges by start unit */
  fc_scan_run(&s, m, NULL, (const uint8_t *)"中国人", strlen("中国人"), 0, NULL);
  if (s.n == 3) {
    INT_EQ(s.first[0], 0);
    INT_EQ(s.first[1], 2);
    INT_EQ(s.first[2], 3);
    INT_EQ(s.first[3], 3);
    OK(s.ne == 3 && s.e[0].cost < s.e[1].cost, "中国 (100) must be cheaper than 中国人 (50)");
  }
  /* the scan state is reused: an empty text gives nothing */
  fc_scan_run(&s, m, NULL, (const uint8_t *)"", 0, 0, NULL);
  INT_EQ(s.n, 0);
  INT_EQ(s.ne, 0);
  fc_scan_free(&s, NULL);
  fenci_model_free(m);
  fenci_free(NULL, img);
}

/* ---------------------------------------------------------- lattice tags */

static uint64_t lrng = 1;
static unsigned lrnd(void) {
  lrng ^= lrng << 13;
  lrng ^= lrng >> 7;
  lrng ^= lrng << 17;
  return (unsigned)(lrng >> 11);
}

/* The tags of fc_lattice_best's path over a feats scan of text (one stretch
 * without whitespace) into tags; returns the number of units, or -1. */
static long best_path_tags(const fenci_model *m, const fenci_dict *d, const char *text, size_t len, uint8_t *tags,
                           size_t cap) {
  fc_scan s;
  fc_lattice l;
  fc_tok *tok;
  size_t nt = 0, k, from = 0, i;
  long n = -1;
  memset(&s, 0, sizeof s);
  memset(&l, 0, sizeof l);
  if (fc_scan_run(&s, m, d, (const uint8_t *)text, len, 1, NULL) != FENCI_OK || s.n > cap) goto out;
  tok = malloc((s.n + 1) * sizeof *tok);
  if (tok && fc_lattice_best(&l, &s, m, d != NULL, tok, &nt, NULL) == FENCI_OK) {
    for (k = 0; k < nt; k++) {
      size_t to = tok[k].end;
      for (i = from; i < to; i++)
        tags[i] = (uint8_t)(to == from + 1 ? FC_TAG_S : i == from ? FC_TAG_B : i + 1 == to ? FC_TAG_E : FC_TAG_M);
      from = to;
    }
    n = (long)s.n;
  }
  free(tok);
out:
  fc_lattice_free(&l, NULL);
  fc_scan_free(&s, NULL);
  return n;
}

/* Checks the lat fields of a scan against fc_lattice_best run on each
 * stretch between whitespace units alone. */
static int check_stretches(const fenci_model *m, const fenci_dict *d, const char *text, const fc_scan *s,
                           char *why, size_t whylen) {
  static uint8_t tags[40000];
  size_t a = 0, b, i;
  while (a < s->n) {
    if (s->u[a].kind == FENCI_KIND_SPACE) {
      a++;
      continue;
    }
    for (b = a; b < s->n && s->u[b].kind != FENCI_KIND_SPACE; b++) {
    }
    if (best_path_tags(m, d, text + s->u[a].start, s->u[b - 1].end - s->u[a].start, tags, sizeof tags) !=
        (long)(b - a)) {
      snprintf(why, whylen, "units %zu..%zu: the stretch scans differently", a, b);
      return 1;
    }
    for (i = a; i < b; i++)
      if (s->u[i].lat != tags[i - a]) {
        snprintf(why, whylen, "unit %zu (stretch %zu..%zu): lat %u, best path %u", i, a, b, (unsigned)s->u[i].lat,
                 (unsigned)tags[i - a]);
        return 1;
      }
    a = b;
  }
  return 0;
}

/* The margin buckets follow the path: "cut" buckets before a unit whose
 * lattice tag is B or S, "joined" buckets before M and E, FC_MG_INF at a
 * stretch's first unit. */
static int check_margins(const fc_scan *s, char *why, size_t whylen) {
  size_t i;
  for (i = 0; i < s->n; i++) {
    int cut = s->u[i].lat == FC_TAG_B || s->u[i].lat == FC_TAG_S, mg = s->u[i].mg;
    int first = i == 0 || s->u[i - 1].kind == FENCI_KIND_SPACE;
    if (s->u[i].kind == FENCI_KIND_SPACE) continue;
    if (mg >= FC_MG_N || (first && mg != FC_MG_INF) || (cut && mg < FC_MG_STEPS) || (!cut && mg >= FC_MG_STEPS)) {
      snprintf(why, whylen, "unit %zu: lat %u, margin bucket %d", i, (unsigned)s->u[i].lat, mg);
      return 1;
    }
  }
  return 0;
}

/* The fused scan (fc_scan_units + fc_scan_lexfeats) and the edge scan
 * (fc_scan_run) give every unit the same lexicon lengths and lattice tag,
 * and the tag is that of the lexicon mode's best path (fc_lattice_best,
 * without unknown-word candidates) over the unit's stretch; with a user
 * dictionary, forced words cut the lattice as there. */
static void test_lattice_tags(void) {
  static const char *const pieces[] = {
      "买水果然后来世博园", "结婚的和尚未结婚的", "一次性交多少钱", "枪杆子里出政权", "长春市长春药店",
      "研究生命起源", "中华人民共和国", "骑在马上", "从小学起", "使用户满意", "他说的确实在理", "，", "。",
      "——", "……", " ", "\n", "\t", "\xe3\x80\x80", "abc", "iPhone", "3.5%", "１２３", "http://example.com/a",
      "x@y.com", "カナ", "\xff", "\xe4\xb8", "\x01", "!!!", "卡拉OK", "A股", "T恤衫", "的", "了", "在"};
  static const char tiny[] = "水果 50\n果然 40\n然后 60\n后来 30\n和尚 20\n尚未 30\n结婚 40\n一次 30\n"
                             "一次性 20\n性交 10\n交 50\n长春 30\n市长 40\n长春药 5\n药店 30\n马上 60\n"
                             "卡拉OK 10\nA股 20\n研究 50\n研究生 20\n生命 40\n";
  void *img = NULL;
  fenci_model *shipped = NULL, *tinym = th_load_model(tiny, &img), *ms[2];
  fenci_dict *d = NULL;
  char *buf = malloc(12000), why[300];
  fc_scan s, f;
  size_t nm = 0, k, i;
  int iter, bad = 0;
  memset(&s, 0, sizeof s);
  memset(&f, 0, sizeof f);
  if (tinym) ms[nm++] = tinym;
  if (fenci_model_open(&shipped, "models/lexicon.fenci", NULL, NULL, 0) == FENCI_OK) ms[nm++] = shipped;
  for (k = 0; k < nm && buf; k++) {
    const fenci_model *m = ms[k];
    for (iter = 0; iter < 400 && bad < 3; iter++) {
      size_t len = 0, target = lrnd() % 2000;
      int with_space = iter % 2;
      while (len < target) {
        const char *p = pieces[lrnd() % (sizeof pieces / sizeof pieces[0])];
        size_t pl = strlen(p);
        if (!with_space && (p[0] == ' ' || p[0] == '\n' || p[0] == '\t' || (unsigned char)p[0] == 0xe3)) continue;
        if (len + pl > 12000) break;
        memcpy(buf + len, p, pl);
        len += pl;
      }
      if (fc_scan_run(&s, m, NULL, (const uint8_t *)buf, len, 1, NULL) != FENCI_OK ||
          fc_scan_units(&f, (const uint8_t *)buf, len, 1, NULL) != FENCI_OK ||
          fc_scan_lexfeats(&f, m, 1, NULL) != FENCI_OK) {
        OK(0, "scan failed");
        bad++;
        continue;
      }
      if (s.n != f.n) {
        OK(0, "model %zu, iteration %d: %zu vs %zu units", k, iter, s.n, f.n);
        bad++;
        continue;
      }
      for (i = 0; i < s.n; i++)
        if (s.u[i].lat != f.u[i].lat || s.u[i].mg != f.u[i].mg || s.u[i].lb != f.u[i].lb || s.u[i].le != f.u[i].le ||
            s.u[i].lm != f.u[i].lm) {
          OK(0, "model %zu, iteration %d, unit %zu: edge scan lat %u mg %u lb %u le %u lm %u, fused lat %u mg %u lb %u "
             "le %u lm %u", k, iter, i, s.u[i].lat, s.u[i].mg, s.u[i].lb, s.u[i].le, s.u[i].lm, f.u[i].lat, f.u[i].mg,
             f.u[i].lb, f.u[i].le, f.u[i].lm);
          bad++;
          break;
        }
      if (check_margins(&s, why, sizeof why)) {
        OK(0, "model %zu, iteration %d: %s", k, iter, why);
        bad++;
      }
      if (check_stretches(m, NULL, buf, &s, why, sizeof why)) {
        OK(0, "model %zu, iteration %d: %s", k, iter, why);
        bad++;
      }
      th_run++;
    }
  }
  /* a known path: the lattice finds 水果 然后 where the errors were 水 果然 */
  if (tinym) {
    const char *t = "买水果然后来";
    static const uint8_t want[] = {FC_TAG_S, FC_TAG_B, FC_TAG_E, FC_TAG_B, FC_TAG_E, FC_TAG_S};
    fc_scan_run(&s, tinym, NULL, (const uint8_t *)t, strlen(t), 1, NULL);
    INT_EQ(s.n, 6);
    for (i = 0; i < s.n && i < 6; i++) INT_EQ(s.u[i].lat, want[i]);
    /* a forced user word cuts the lattice: 果然 forced gives 水 果然 后来 */
    if (fenci_dict_new(&d, tinym, NULL) == FENCI_OK && fenci_dict_add(d, "果然", strlen("果然"), 0, NULL) == FENCI_OK &&
        fenci_dict_add(d, "然后来", strlen("然后来"), 1, NULL) == FENCI_OK && fenci_dict_freeze(d) == FENCI_OK) {
      static const uint8_t want2[] = {FC_TAG_S, FC_TAG_S, FC_TAG_B, FC_TAG_E, FC_TAG_B, FC_TAG_E};
      fc_scan_run(&s, tinym, d, (const uint8_t *)t, strlen(t), 1, NULL);
      for (i = 0; i < s.n && i < 6; i++) INT_EQ(s.u[i].lat, want2[i]);
      if (check_stretches(tinym, d, t, &s, why, sizeof why)) OK(0, "with a dictionary: %s", why);
      /* random text with the dictionary, against fc_lattice_best with forced words */
      for (iter = 0; iter < 100 && buf && bad < 3; iter++) {
        size_t len = 0, target = lrnd() % 1500;
        while (len < target) {
          const char *p = pieces[lrnd() % (sizeof pieces / sizeof pieces[0])];
          size_t pl = strlen(p);
          if (len + pl > 12000) break;
          memcpy(buf + len, p, pl);
          len += pl;
        }
        if (fc_scan_run(&s, tinym, d, (const uint8_t *)buf, len, 1, NULL) != FENCI_OK) break;
        if (check_stretches(tinym, d, buf, &s, why, sizeof why) || check_margins(&s, why, sizeof why)) {
          OK(0, "with a dictionary, iteration %d: %s", iter, why);
          bad++;
        }
        for (i = 0; i < s.n; i++)
          if (s.u[i].force && s.u[i].lat != s.u[i].force - 1) {
            OK(0, "with a dictionary, iteration %d, unit %zu: forced %u, lat %u", iter, i, s.u[i].force - 1u,
               s.u[i].lat);
            bad++;
            break;
          }
      }
    }
  }
  fc_scan_free(&s, NULL);
  fc_scan_free(&f, NULL);
  fenci_dict_free(d);
  fenci_model_free(shipped);
  fenci_model_free(tinym);
  fenci_free(NULL, img);
  free(buf);
}

int main(void) {
  test_latin();
  test_numbers();
  test_urls_emails();
  test_space_punct();
  test_invalid();
  test_kana_hangul();
  test_nul();
  test_prefixes();
  test_edges();
  test_lattice_tags();
  TEST_DONE();
}
