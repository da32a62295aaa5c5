/* test_wordpunct.c - where punctuation may stand in a word of the trained
 * segmenters (src/wordpunct.h), checked on the tokens by an oracle of its
 * own (fz_token_punct of fuzz/oracle.h, which the segmentation fuzzer
 * checks too): no word of two or more characters with a Han character ends with a
 * mark right after a Han character (unless the mark closes a bracket),
 * begins with one right before a Han character (unless it opens one), holds
 * a bracket without its partner, joins a run of two or more of one mark to
 * a Han character, or joins a full stop or a minus sign between a Han
 * character and a digit to the Han character.  On the sentences where the
 * shipped models broke these rules before, on the sample document, and on 1
 * MB of random text of Han characters, marks and digits, for every shipped
 * model, with the tags on too; a forced user word may break them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "alloc.h"
#include "units.h"
#include "wordpunct.h"
#include "../../fuzz/oracle.h"

typedef struct tw_ctx {
  const char *text;
  size_t len;
  size_t bad, tokens;
  char first[200];
  const char *forced; /* a user word allowed to break the rules */
  int saw_forced;
} tw_ctx;

static int tw_check(void *ctx, const fenci_token *tok, const char *form, size_t len) {
  tw_ctx *x = ctx;
  const char *why;
  (void)form;
  (void)len;
  if (tok->flags & FENCI_TOK_EXTRA) return 0;
  x->tokens++;
  if (x->forced && tok->end - tok->start == strlen(x->forced) &&
      !memcmp(x->text + tok->start, x->forced, tok->end - tok->start)) {
    x->saw_forced = 1;
    return 0;
  }
  if ((why = fz_token_punct(x->text, x->len, tok)) != NULL || (why = fz_token_breaks(x->text, x->len, tok)) != NULL) {
    if (!x->bad)
      snprintf(x->first, sizeof x->first, "\"%.*s\": %s", (int)(tok->end - tok->start), x->text + tok->start, why);
    x->bad++;
  }
  return 0;
}

static tw_ctx tw_segment(const fenci_model *m, fenci_dict *d, unsigned opts, const char *text, size_t len,
                         const char *forced) {
  tw_ctx x;
  fenci_tagger *t = NULL;
  memset(&x, 0, sizeof x);
  x.text = text;
  x.len = len;
  x.forced = forced;
  INT_EQ(fenci_tagger_new(&t, m, opts), FENCI_OK);
  if (t && d) INT_EQ(fenci_tagger_set_dict(t, d), FENCI_OK);
  if (t) INT_EQ(fenci_segment(t, text, len, tw_check, &x), FENCI_OK);
  fenci_tagger_free(t);
  return x;
}

/* The lines the shipped models cut against the rules before them. */
static const char *const tw_lines[] = {
    "飞越银河--“银河-Ⅲ”巨型计算机研制追述",
    "郑州多云－1℃／8℃，晴转多云－11℃",
    "三峡工程业主---中国长江三峡工程开发总公司",
    "新华社南京1月2日电（记者奚彬）司法部部长、党组书记张福森今天",
    "晶体管的生产线上操作。（王雷摄）",
    "了著名打击乐作品约瑟夫—施瓦特尔《打击乐协奏曲》，其快节奏的旋律",
    "月31日电（记者王丙飞、鲁绍明）巴勒斯坦首席谈判代表埃雷卡特31",
    "如过去美国FDA（药品与食品管理局）对中药的要求十分苛刻，",
    "国空间技术研究院研制的“东方红三号”卫星，是我国新一代",
    "比分1998.1∶2，概率.5∶1。",
    "这是地处马尾的国家级开发区－－福州开发区大力开发船政文化资源又一举措。",
    "·朱根华·",
    "他说︰「我们走吧」，然后……",
};

static char *tw_random(size_t want, size_t *len, uint64_t seed) {
  static const char *const al[] = {"的", "一", "是", "中", "国", "人", "业", "主", "银", "河", "多", "云", "概",
                                   "率", "王", "雷", "摄", "司", "法", "部", "-",  "—",  "．", ".",  "、", "，",
                                   "。", "（", "）", "《", "》", "“",  "”",  "「", "」", "·",  "：", "…",  "1",
                                   "5",  "５", "－", "(",  ")",  "——", "--", " "};
  size_t k = 0, n = sizeof al / sizeof al[0];
  char *t = malloc(want + 8);
  uint64_t x = seed;
  if (!t) abort();
  while (k + 6 < want) {
    const char *p;
    size_t l;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    p = al[x % n];
    l = strlen(p);
    memcpy(t + k, p, l);
    k += l;
  }
  *len = k;
  return t;
}

static void tw_model(const char *path) {
  fenci_model *m = NULL;
  fenci_dict *d = NULL;
  size_t i, rl = 0;
  char *rb;
  unsigned o;
  static const unsigned opts[] = {FENCI_MODE_DEFAULT, FENCI_MODE_DEFAULT | FENCI_OPT_BARE, FENCI_MODE_SEARCH,
                                  FENCI_MODE_DEFAULT | FENCI_OPT_POS};
  if (fenci_model_open(&m, path, NULL, NULL, 0) != FENCI_OK) {
    fprintf(stderr, "test_wordpunct: %s not found, skipped\n", path);
    return;
  }
  rb = tw_random(1 << 20, &rl, 0x2545F4914F6CDD1Dull);
  for (o = 0; o < sizeof opts / sizeof opts[0]; o++) {
    tw_ctx x;
    if ((opts[o] & FENCI_OPT_POS) && !fenci_model_has_pos(m)) continue;
    for (i = 0; i < sizeof tw_lines / sizeof tw_lines[0]; i++) {
      x = tw_segment(m, NULL, opts[o], tw_lines[i], strlen(tw_lines[i]), NULL);
      OK(x.bad == 0, "%s opts %u: %s: %s", path, opts[o], tw_lines[i], x.first);
    }
    x = tw_segment(m, NULL, opts[o], rb, rl, NULL);
    OK(x.bad == 0 && x.tokens > 100000, "%s opts %u: random text: %zu of %zu tokens, first %s", path, opts[o], x.bad,
       x.tokens, x.first);
  }
  {
    /* a forced user word wins over the rules; the rest of the line keeps them */
    static const char line[] = "三峡工程业主---中国长江，（记者奚彬）司法部";
    tw_ctx x;
    INT_EQ(fenci_dict_new(&d, m, NULL), FENCI_OK);
    if (d) INT_EQ(fenci_dict_add(d, "奚彬）司法部", strlen("奚彬）司法部"), 0, NULL), FENCI_OK);
    if (d) {
      x = tw_segment(m, d, FENCI_MODE_DEFAULT, line, strlen(line), "奚彬）司法部");
      OK(x.saw_forced && x.bad == 0, "%s: forced user word: seen %d, %zu bad, %s", path, x.saw_forced, x.bad, x.first);
    }
    fenci_dict_free(d);
  }
  free(rb);
  fenci_model_free(m);
}

/* fc_punct_repair on tags given by hand: text is cut into units (one a
 * character here), tags spell the words as "B/M/E/S" letters, and the
 * mended tags must read want. */
static void tw_repair(const char *text, const char *tags, const char *want) {
  fc_scan s;
  fenci_alloc a = fc_alloc_resolve(NULL);
  size_t i;
  uint8_t t[64];
  char got[65];
  memset(&s, 0, sizeof s);
  INT_EQ(fc_scan_units(&s, (const uint8_t *)text, strlen(text), 1, &a), FENCI_OK);
  OK(s.n == strlen(tags) && s.n < sizeof t, "%s: %zu units for %zu tags", text, s.n, strlen(tags));
  if (s.n == strlen(tags) && s.n < sizeof t) {
    for (i = 0; i < s.n; i++) t[i] = (uint8_t)(strchr("BMES", tags[i]) - "BMES");
    fc_punct_marks(s.u, s.n, (const uint8_t *)text, s.pu, s.npu);
    fc_punct_repair(s.u, s.n, t, s.pu, s.npu);
    for (i = 0; i < s.n; i++) got[i] = "BMES"[t[i]];
    got[s.n] = 0;
    STR_EQ(got, want);
  }
  fc_scan_free(&s, &a);
}

int main(void) {
  /* a close without its open: cut around it; its partner right outside:
   * taken in; a pair the cuts would part: every bracket alone; a balanced
   * word, and one without Han, stay */
  tw_repair("（记者奚彬）司法部", "SBEBMMMME", "SBEBESBME");
  tw_repair("（奚彬）司法部", "SBMMMME", "BMMMMME");
  tw_repair("“东方红”卫星", "SBMMMME", "BMMMMME");
  tw_repair("《劲舞团》", "BMMES", "BMMME");
  tw_repair("（甲》乙）丙", "BMMMME", "SSSSSS");
  tw_repair("万方（集团）公司", "BMMMMMME", "BMMMMMME");
  tw_repair("(1)", "BME", "BME");
  /* a partner that would not pair the word is not taken in (a review's
   * case: the close sits under another open bracket); the unpaired
   * brackets are cut in text order, and a pair they do not part stays */
  tw_repair("（甲《乙）》", "SBMMME", "SSSSSS");
  tw_repair("甲(乙》丙“丁”", "BMMMMMME", "SSSSBMME");
  tw_repair("是\"东方红\"号", "SSBMMME", "SSBMESS");

  static const char *const models[] = {"models/ctb.fenci", "models/pku.fenci", "models/msr.fenci"};
  size_t i;
  for (i = 0; i < sizeof models / sizeof models[0]; i++) tw_model(models[i]);
  TEST_DONE();
}
