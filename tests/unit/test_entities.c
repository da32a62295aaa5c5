/* test_entities.c - fenci_entities: the offsets of the sample's first
 * line (bytes and characters), names found whole and typed, times and
 * quantities with their values, nothing taken from inside a URL, entities
 * in order and not overlapping on hostile input and on a line longer than
 * a block, a number over 1 KB is none wherever the blocks fall, the
 * callback can stop it, a model without a recogniser still gives times
 * and quantities. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "../../fuzz/oracle.h"

typedef struct ents {
  fenci_entity e[4096];
  char iso[4096][64];
  size_t n;
  size_t stop_after;
} ents;

static int collect(void *ctx, const fenci_entity *e) {
  ents *v = ctx;
  if (v->n < 4096) {
    v->e[v->n] = *e;
    snprintf(v->iso[v->n], sizeof v->iso[0], "%s", e->value_text ? e->value_text : "");
    v->e[v->n].value_text = v->iso[v->n];
  }
  v->n++;
  return v->stop_after && v->n >= v->stop_after;
}

/* The next of n pieces, by a small generator (the same text every run). */
static const char *pick(const char *const *pieces, size_t n, unsigned *seed) {
  *seed = *seed * 1103515245u + 12345u;
  return pieces[(*seed >> 16) % n];
}

/* Checks each name against the Latin-word oracle as it comes (any count). */
typedef struct words_check {
  const char *text;
  size_t len, names, bad, long_names;
} words_check;
static int check_words(void *ctx, const fenci_entity *e) {
  words_check *w = ctx;
  if (e->type > FENCI_ENT_ORG) return 0;
  w->names++;
  if (fz_entity_words(w->text, w->len, e) && w->bad++ < 5)
    fprintf(stderr, "  name \"%.*s\" splits a Latin word or number\n", (int)(e->end - e->start), w->text + e->start);
  return 0;
}

/* Names of a repeated sentence: each must be one of its names whole. */
static int collect_text(void *ctx, const fenci_entity *e) {
  static const char *const ok[] = {"张三", "北京", "李四"};
  words_check *w = ctx;
  size_t k, n = e->end - e->start;
  int found = 0;
  if (e->type > FENCI_ENT_ORG) return 0;
  w->names++;
  if (e->cend - e->cstart > (e->type == FENCI_ENT_PER ? 32u : e->type == FENCI_ENT_LOC ? 48u : 72u)) w->long_names++;
  for (k = 0; k < 3; k++) found |= n == strlen(ok[k]) && w->text && !memcmp(w->text + e->start, ok[k], n);
  if (!found) w->bad++;
  return 0;
}

/* The times and quantities of a text, folded into a list of start, end,
 * type and value, shifted by base (any count). */
typedef struct numex_list {
  size_t base, n, cap;
  double *x; /* 4 per entity */
} numex_list;
static int collect_numex(void *ctx, const fenci_entity *e) {
  numex_list *l = ctx;
  if (e->type <= FENCI_ENT_ORG) return 0;
  if (l->n == l->cap) {
    size_t nc = l->cap ? 2 * l->cap : 1024;
    double *x = realloc(l->x, nc * 4 * sizeof *x);
    if (!x) return 1;
    l->x = x;
    l->cap = nc;
  }
  l->x[4 * l->n] = (double)(l->base + e->start);
  l->x[4 * l->n + 1] = (double)(l->base + e->end);
  l->x[4 * l->n + 2] = e->type;
  l->x[4 * l->n + 3] = e->has_value ? e->value : -1;
  l->n++;
  return 0;
}

static const fenci_entity *find(const ents *v, const char *text, const char *w, int type) {
  const char *p = strstr(text, w);
  size_t i;
  if (!p) return NULL;
  for (i = 0; i < v->n && i < 4096; i++)
    if (v->e[i].start == (size_t)(p - text) && v->e[i].end == (size_t)(p - text) + strlen(w) && v->e[i].type == type)
      return &v->e[i];
  return NULL;
}

/* The entities of v over text as "TYPE text" joined by " ; ", names
 * (PER LOC ORG) only when names is set. */
static void render(const ents *v, const char *text, int names, char *out, size_t cap) {
  size_t i, o = 0;
  out[0] = 0;
  for (i = 0; i < v->n && i < 4096 && o < cap; i++) {
    const fenci_entity *e = &v->e[i];
    if (!names && e->type <= FENCI_ENT_ORG) continue;
    o += (size_t)snprintf(out + o, cap - o, "%s%s %.*s", o ? " ; " : "", fenci_entity_type_name(e->type),
                          (int)(e->end - e->start), text + e->start);
  }
}

/* Times and quantities where the lexicon's words decide (src/wordgap.c):
 * a relative word, a unit or an idiom that is part of another word is
 * not taken; names without the title after them.  Input, then what must
 * be found ("" nothing; with the names when the line starts with '*'). */
static const char *const word_cases[][2] = {
    {"双方在维也纳会议上周旋。", ""},
    {"每当天黑的时候", ""},
    {"他们去年轻人聚集的地方。", ""},
    {"原来年轻人都喜欢", ""},
    {"这本周刊", ""},
    {"他在网上周游世界", ""},
    {"国家四分五裂", ""},
    {"这一发现很重要", ""},
    {"该市有300万人口。", "NUMBER 300万"},
    {"全国各地的数万群众参加了", "NUMBER 数万"},
    {"每周一出版", "TIME 周一"},
    {"从现在起", "TIME 现在"},
    {"三天后回来", "TIME 三天后"},
    {"去年底完成", "TIME 去年底"},
    {"两年间", "TIME 两年"},
    {"5年来", "TIME 5年"},
    {"三个人", "QUANTITY 三个"},
    /* a bare numeral that ends a longer word, an ordinal that begins one */
    {"路易十六被处死。", ""},
    {"这是原因之一。", ""},
    {"而今七老八十", ""},
    {"第三世界国家", ""},
    {"第三产业", ""},
    {"第一次会议", "NUMBER 第一"},
    {"第一步", "NUMBER 第一"},
    {"第十六届", "NUMBER 第十六"},
    /* tenths of a 块 that are not the start of a word */
    {"这个卖两块五。", "MONEY 两块五"},
    {"一块五花肉", "QUANTITY 一块"},
    {"两块五公斤", "QUANTITY 两块 ; QUANTITY 五公斤"},
    /* a quarter, whatever the lexicon holds (第四季度 is a word, 第三季度
     * not), and an ordinal before another part of an era */
    {"第四季度", "TIME 第四季度"},
    {"第三季度", "TIME 第三季度"},
    {"第二阶段", "NUMBER 第二"},
    /* tenths (三成 0.3) but not where 成 begins a word or an idiom */
    {"增产三成。", "PERCENT 三成"},
    {"一成不变", ""},
    {"三成员国", ""},
    /* a holiday's 节 that begins the next word */
    {"青年节目很多", ""},
    {"他的母亲节约用水", ""},
    {"青年节快乐", "TIME 青年节"},
    /* traditional characters: the rules read them simplified */
    {"他買了三點五公斤蘋果，下午三點回家。", "QUANTITY 三點五公斤 ; TIME 下午三點"},
    {"下週一開會", "TIME 下週一"},
    {"三個小時後", "TIME 三個小時後"},
    {"民國三十八年", "TIME 民國三十八年"},
    {"*明洪武三年", "TIME 洪武三年"},
    {"*张老师和李同志、陈女士来了。", "PER 张 ; PER 李 ; PER 陈"},
    {"*瓦莱夫斯卡伯爵夫人带着孩子从华沙赶来探望", "PER 瓦莱夫斯卡 ; LOC 华沙"},
    /* a capitalised Latin word ends no name (Python was ORG); one that
     * a name goes on past still begins it */
    {"*我用Python和Java写程序，也用Excel。", ""},
    {"*他在Oracle公司工作", "ORG Oracle公司"},
    /* a name of symbols, or one that begins or ends with a space or a
     * mark no name has, is none (~零 as a place pushed 零下10℃ aside) */
    {"*5℃~零下10℃", "QUANTITY 5℃ ; QUANTITY 零下10℃"},
    {"*5℃ 零下10℃", "QUANTITY 5℃ ; QUANTITY 零下10℃"},
    {"*-5℃~-10℃", "QUANTITY -5℃~-10℃"},
};

static void check_order(const ents *v, size_t len, const char *what) {
  size_t i, bad = 0;
  for (i = 0; i < v->n && i < 4096; i++) {
    const fenci_entity *e = &v->e[i];
    if (e->end <= e->start || e->end > len || e->cend <= e->cstart || (i && e->start < v->e[i - 1].end)) bad++;
    if (e->type < FENCI_ENT_PER || e->type > FENCI_ENT_QUANTITY) bad++;
  }
  OK(bad == 0, "%s: %zu entities out of order, overlapping or out of bounds", what, bad);
}

int main(void) {
  fenci_model *m = NULL;
  fenci_tagger *t = NULL;
  char err[512];
  ents *v = calloc(1, sizeof *v);
  static const char line1[] = "1814年4月6日，拿破仑在枫丹白露宫签署了退位诏书。";
  static const char text[] =
      "外交大臣科兰古连夜赶回巴黎，最终为皇帝争取到了厄尔巴岛的统治权。这一年的战役共消耗了约22万发炮弹，"
      "近卫军仍有16000名士兵。伦敦证券交易所的国债价格上涨了3.5%。门票为１２欧元，开放时间是上午9:30。"
      "更多资料请访问https://www.example.org/history/1814，或发邮件至info1998@example.org。";
  const fenci_entity *e;
  if (!v) return 1;
  INT_EQ(fenci_model_open(&m, "models/ctb.fenci", NULL, err, sizeof err), FENCI_OK);
  if (!m) TEST_DONE();
  OK(fenci_model_has_ner(m), "the default model has a recogniser (through its lexicon)");
  INT_EQ(fenci_tagger_new(&t, m, 0), FENCI_OK);
  INT_EQ(fenci_entities(t, line1, strlen(line1), collect, v), FENCI_OK);
  e = find(v, line1, "1814年4月6日", FENCI_ENT_TIME);
  OK(e && e->has_value && !strcmp(e->value_text, "1814-04-06") && e->cstart == 0 && e->cend == 9, "the date");
  e = find(v, line1, "拿破仑", FENCI_ENT_PER);
  /* the example: s 18, e 27, cs 10, ce 13 */
  OK(!e || (e->start == 18 && e->end == 27 && e->cstart == 10 && e->cend == 13), "拿破仑's offsets");
  check_order(v, strlen(line1), "line 1");

  v->n = 0;
  INT_EQ(fenci_entities(t, text, strlen(text), collect, v), FENCI_OK);
  check_order(v, strlen(text), "text");
  OK(find(v, text, "科兰古", FENCI_ENT_PER) != NULL, "科兰古 PER");
  OK(find(v, text, "巴黎", FENCI_ENT_LOC) != NULL, "巴黎 LOC");
  OK(find(v, text, "厄尔巴岛", FENCI_ENT_LOC) != NULL, "厄尔巴岛 LOC");
  e = find(v, text, "22万发", FENCI_ENT_QUANTITY);
  OK(e && e->has_value && e->value == 220000 && e->unit_end - e->unit_start == 3 &&
         !memcmp(text + e->unit_start, "发", 3), "22万发 = 220000 + 发");
  e = find(v, text, "16000名", FENCI_ENT_QUANTITY);
  OK(e && e->value == 16000, "16000名");
  e = find(v, text, "3.5%", FENCI_ENT_PERCENT);
  OK(e && e->value > 0.0349 && e->value < 0.0351, "3.5%% = 0.035");
  e = find(v, text, "１２欧元", FENCI_ENT_MONEY);
  OK(e && e->value == 12 && !memcmp(text + e->unit_start, "欧元", 6), "１２欧元 = 12 + 欧元");
  e = find(v, text, "上午9:30", FENCI_ENT_TIME);
  OK(e && !strcmp(e->value_text, "T09:30"), "上午9:30 = T09:30");
  {
    /* ranges: one entity, start and end (src/numjoin.c) */
    static const char r[] = "伤亡三至五万人，1814年3月30日至31日的巴黎战役。";
    v->n = 0;
    INT_EQ(fenci_entities(t, r, strlen(r), collect, v), FENCI_OK);
    e = find(v, r, "三至五万人", FENCI_ENT_QUANTITY);
    OK(e && (e->flags & FENCI_ENTF_RANGE) && e->has_value && e->value == 30000 && e->value_end == 50000 &&
           e->cstart == 2 && e->cend == 7 && !memcmp(r + e->unit_start, "人", 3),
       "三至五万人 = 30000 .. 50000 + 人");
    e = find(v, r, "1814年3月30日至31日", FENCI_ENT_TIME);
    OK(e && (e->flags & FENCI_ENTF_RANGE) && !strcmp(e->value_text, "1814-03-30/1814-03-31"),
       "1814年3月30日至31日 = 1814-03-30/1814-03-31");
    OK(find(v, r, "巴黎", FENCI_ENT_LOC) != NULL, "巴黎 LOC after a range");
    check_order(v, strlen(r), "ranges");
    v->n = 0;
    INT_EQ(fenci_entities(t, text, strlen(text), collect, v), FENCI_OK);
  }
  {
    /* nothing from inside the URL or the e-mail address */
    const char *u = strstr(text, "https://");
    size_t i, inside = 0, us = (size_t)(u - text), uend = strlen(text);
    for (i = 0; i < v->n && i < 4096; i++)
      if (v->e[i].start >= us && v->e[i].end <= uend) inside++;
    OK(inside == 0, "%zu entities inside the URL or the e-mail address", inside);
  }
  {
    /* a name and a time that overlap: a name wholly inside the time is
     * dropped (the recogniser tags 日 of 十二日美方 as a place), a name
     * crossing its edge wins (日本 over 3日), a time may end the line */
    static const char a[] = "十二日美方", b[] = "东京3日本", c[] = "他在6日";
    v->n = 0;
    INT_EQ(fenci_entities(t, a, strlen(a), collect, v), FENCI_OK);
    OK(find(v, a, "十二日", FENCI_ENT_TIME) != NULL && v->e[0].type == FENCI_ENT_TIME, "十二日 TIME, first");
    OK(v->n >= 1 && (v->n == 1 || v->e[1].start >= v->e[0].end), "nothing inside 十二日 (%zu entities)", v->n);
    v->n = 0;
    INT_EQ(fenci_entities(t, b, strlen(b), collect, v), FENCI_OK);
    OK(find(v, b, "日本", FENCI_ENT_LOC) != NULL, "日本 LOC crosses 3日");
    OK(find(v, b, "3日", FENCI_ENT_TIME) == NULL, "3日 under 日本 is dropped");
    check_order(v, strlen(b), "crossing");
    v->n = 0;
    INT_EQ(fenci_entities(t, c, strlen(c), collect, v), FENCI_OK);
    e = find(v, c, "6日", FENCI_ENT_TIME);
    OK(e && e->cend == 4, "6日 at the end of the line");
  }
  {
    size_t k;
    char got[1024];
    for (k = 0; k < sizeof word_cases / sizeof word_cases[0]; k++) {
      const char *in = word_cases[k][0] + (word_cases[k][0][0] == '*');
      v->n = 0;
      INT_EQ(fenci_entities(t, in, strlen(in), collect, v), FENCI_OK);
      render(v, in, word_cases[k][0][0] == '*', got, sizeof got);
      OK(!strcmp(got, word_cases[k][1]), "%s: got \"%s\", want \"%s\"", in, got, word_cases[k][1]);
    }
  }
  {
    /* a name holds a bracket only with its partner: the recogniser's
     * 东方红三号”卫星, 刘程）, 美国FDA（药品与食品管理局 and 朝鲜《劳动新闻 come
     * out paired or without the bracket */
    static const char *const lines[] = {
        "国空间技术研究院研制的“东方红三号”卫星，是我国新一代实用广播通信卫星。",
        "新华社耶路撒冷１月３１日电（记者王丙飞、刘程）巴勒斯坦首席谈判代表埃雷卡特３１日说。",
        "如过去美国FDA（药品与食品管理局）对中药的要求十分苛刻，朝鲜《劳动新闻》发表文章。",
        "（记者刘程）（宜）州“西电东送”工程《苏联共产党》"};
    size_t k, i;
    for (k = 0; k < sizeof lines / sizeof lines[0]; k++) {
      v->n = 0;
      INT_EQ(fenci_entities(t, lines[k], strlen(lines[k]), collect, v), FENCI_OK);
      check_order(v, strlen(lines[k]), lines[k]);
      for (i = 0; i < v->n; i++) {
        const fenci_entity *x = &v->e[i];
        const char *p = lines[k] + x->start, *q = lines[k] + x->end;
        int depth[4] = {0, 0, 0, 0}, bad = 0, b;
        static const char *const br[4][2] = {{"（", "）"}, {"《", "》"}, {"“", "”"}, {"(", ")"}};
        if (x->type != FENCI_ENT_PER && x->type != FENCI_ENT_LOC && x->type != FENCI_ENT_ORG) continue;
        while (p < q) {
          size_t l = 1;
          for (b = 0; b < 4; b++) {
            if (!strncmp(p, br[b][0], strlen(br[b][0]))) depth[b]++, l = strlen(br[b][0]);
            else if (!strncmp(p, br[b][1], strlen(br[b][1]))) bad |= --depth[b] < 0, l = strlen(br[b][1]);
          }
          if (l == 1) l = ((unsigned char)*p < 0x80) ? 1 : ((unsigned char)*p < 0xE0) ? 2 : ((unsigned char)*p < 0xF0) ? 3 : 4;
          p += l;
        }
        for (b = 0; b < 4; b++) bad |= depth[b] != 0;
        OK(!bad, "%s: name \"%.*s\" with an unpaired bracket", lines[k], (int)(x->end - x->start), lines[k] + x->start);
      }
    }
    v->n = 0;
    INT_EQ(fenci_entities(t, lines[1], strlen(lines[1]), collect, v), FENCI_OK);
    OK(find(v, lines[1], "刘程", FENCI_ENT_PER) != NULL, "刘程 PER without its bracket");
  }
  {
    /* a name never begins or ends inside a run of Latin letters and digits
     * (the recogniser put the O of CEO into 蒂姆·库克, A380's 380 into a
     * place): lines where it did, and 200 KB of names, Latin words and
     * numbers side by side */
    static const char *const lines[] = {
        "苹果公司CEO蒂姆·库克周二在加州库比蒂诺发布了新款iPhone。",
        "据当地报纸报道，田口文章将厌气性细菌“梭菌AM21B”与粉碎的剩菜混合在一起。",
        "由北京康普递恩生物工程技术有限公司与北京大学合作研制的“细胞分析仪CytoAnalysis2000”日前投放市场。",
        "位于东经175度60分的梅西大学是新西兰规模最大的综合性大学。"};
    static const char *const pieces[] = {"CEO", "张三", "北京", "A380", "ＩＢＭ", "王小明", "２０２３", "X", "公司",
                                         "iPhone15", "巴黎", "在", "7", "，", "科兰古", "Python", "伦敦证券交易所"};
    size_t k, n = 200000, len = 0;
    unsigned seed = 11;
    char *buf = malloc(n + 32);
    words_check wc = {NULL, 0, 0, 0, 0};
    for (k = 0; k < sizeof lines / sizeof lines[0] + (buf != NULL); k++) {
      const char *s = k < sizeof lines / sizeof lines[0] ? lines[k] : buf;
      if (s == buf) {
        while (len < n) {
          const char *p = pick(pieces, sizeof pieces / sizeof pieces[0], &seed);
          memcpy(buf + len, p, strlen(p));
          len += strlen(p);
        }
      }
      wc.text = s;
      wc.len = s == buf ? len : strlen(s);
      INT_EQ(fenci_entities(t, s, wc.len, check_words, &wc), FENCI_OK);
    }
    OK(wc.bad == 0, "%zu of %zu names split a run of Latin letters and digits", wc.bad, wc.names);
    OK(wc.names > 5000, "names found among the Latin words (%zu)", wc.names);
    free(buf);
  }
  {
    /* times and quantities do not depend on where a long line is cut into
     * blocks: each piece of a 300 KB line (codes whose hyphens join many
     * runs, dates after codes, amounts) gives what it gives alone */
    static const char *const pieces[] = {"01", "-1", "-1", "-1", "010-12345678", "-2024年3月5日", "007-3.5元",
                                         "00-", "0", "5人", "-", "１２欧元", "三千五百万元", "，", "。", "1998-01-06"};
    size_t n = 300000, len = 0, np = 0, i, same = 0, bad;
    unsigned seed = 17;
    char *buf = malloc(n + 64);
    size_t *cut = malloc((n + 1) * sizeof *cut);
    numex_list whole = {0, 0, 0, NULL}, parts = {0, 0, 0, NULL};
    if (buf && cut) {
      cut[np++] = 0;
      while (len < n) {
        const char *p = pick(pieces, sizeof pieces / sizeof pieces[0], &seed);
        memcpy(buf + len, p, strlen(p));
        len += strlen(p);
        if (!strcmp(p, "。")) cut[np++] = len; /* after a full stop (1，010 is one number): a piece ends */
      }
      cut[np++] = len;
      INT_EQ(fenci_entities(t, buf, len, collect_numex, &whole), FENCI_OK);
      for (i = 0, bad = 0; i + 1 < np; i++) {
        parts.base = cut[i];
        if (cut[i + 1] > cut[i] && fenci_entities(t, buf + cut[i], cut[i + 1] - cut[i], collect_numex, &parts) != FENCI_OK)
          bad++;
      }
      INT_EQ(bad, 0);
      same = whole.n == parts.n && (whole.n == 0 || !memcmp(whole.x, parts.x, whole.n * 4 * sizeof *whole.x));
      if (!same) { /* the first that differs */
        for (i = 0; i < whole.n && i < parts.n && !memcmp(whole.x + 4 * i, parts.x + 4 * i, 4 * sizeof *whole.x); i++) {
        }
        if (i < whole.n) {
          size_t a0 = (size_t)whole.x[4 * i], a1 = (size_t)whole.x[4 * i + 1];
          fprintf(stderr, "  whole: \"%.*s\" at %zu in \"%.*s\"\n", (int)(a1 - a0), buf + a0, a0, (int)(a1 - a0 + 40),
                  buf + (a0 > 20 ? a0 - 20 : 0));
        }
        if (i < parts.n) {
          size_t a0 = (size_t)parts.x[4 * i], a1 = (size_t)parts.x[4 * i + 1];
          fprintf(stderr, "  alone: \"%.*s\" at %zu\n", (int)(a1 - a0), buf + a0, a0);
        }
      }
      OK(same, "times and quantities of a 300 KB line (%zu) and of its pieces alone (%zu) differ", whole.n, parts.n);
      OK(whole.n > 10000, "times and quantities found (%zu)", whole.n);
    }
    free(whole.x);
    free(parts.x);
    /* a code's hyphen-joined runs over 200 KB (01-1-1-...): what is found
     * past a point does not depend on whether the text starts there (the
     * 64 KB blocks restart inside such runs) */
    whole.n = parts.n = 0;
    whole.x = parts.x = NULL;
    whole.cap = parts.cap = 0;
    if (buf) {
      size_t from = 1001, j = 0; /* the 1 of a -1, 256 bytes before what is compared */
      memcpy(buf, "01", 2);
      for (len = 2; len + 2 <= n; len += 2) memcpy(buf + len, "-1", 2);
      INT_EQ(fenci_entities(t, buf, len, collect_numex, &whole), FENCI_OK);
      parts.base = from;
      INT_EQ(fenci_entities(t, buf + from, len - from, collect_numex, &parts), FENCI_OK);
      for (i = 0; i < whole.n && whole.x[4 * i] < (double)(from + 256); i++) {
      }
      while (j < parts.n && parts.x[4 * j] < (double)(from + 256)) j++;
      same = whole.n - i == parts.n - j && !memcmp(whole.x + 4 * i, parts.x + 4 * j, (whole.n - i) * 4 * sizeof *whole.x);
      OK(same, "a code's runs: %zu entities past a point in the whole text, %zu when it starts there", whole.n - i,
         parts.n - j);
    }
    free(whole.x);
    free(parts.x);
    free(buf);
    free(cut);
  }
  {
    /* a line without punctuation is decoded in pieces of 300 characters,
     * each with the text around it: a name across a cut comes out whole
     * (张三去北京见李四 x 3000 gave 京, 李 and 四张 at the cuts), and a run of
     * the recogniser over a repetitive line (CEO蒂姆·库克 x 2000, one 16,000
     * character person) is no name */
    static const char unit[] = "张三去北京见李四", ceo[] = "CEO蒂姆·库克";
    size_t k, reps = 3000, len = 0;
    char *buf = malloc(reps * sizeof unit);
    words_check wc = {NULL, 0, 0, 0, 0};
    if (buf) {
      for (k = 0; k < reps; k++, len += strlen(unit)) memcpy(buf + len, unit, strlen(unit));
      wc.text = buf;
      INT_EQ(fenci_entities(t, buf, len, collect_text, &wc), FENCI_OK);
      OK(wc.bad == 0, "%zu names of 张三去北京见李四 x 3000 are no name of the sentence", wc.bad);
      OK(wc.names > 5000, "its names found (%zu)", wc.names);
      for (k = 0, len = 0; k < 2000; k++, len += strlen(ceo)) memcpy(buf + len, ceo, strlen(ceo));
      wc.names = wc.bad = 0;
      INT_EQ(fenci_entities(t, buf, len, collect_text, &wc), FENCI_OK);
      OK(wc.long_names == 0, "%zu names over 32/48/72 characters in CEO蒂姆·库克 x 2000", wc.long_names);
    }
    free(buf);
  }
  {
    /* a number under an organisation that runs on for 86 characters is
     * kept when the name is dropped (the name gave way first) */
    static const char bank[] = "中国人民银行中国人民银行中国人民银行中国人民银行中国人民银行中国人民银行中国人民银行"
                               "中国人民银行第3中国人民银行中国人民银行中国人民银行中国人民银行中国人民银行中国人民银行";
    v->n = 0;
    INT_EQ(fenci_entities(t, bank, strlen(bank), collect, v), FENCI_OK);
    OK(find(v, bank, "第3", FENCI_ENT_NUMBER) != NULL, "第3 under a dropped 86-character name");
  }
  /* stopping */
  v->n = 0;
  v->stop_after = 2;
  INT_EQ(fenci_entities(t, text, strlen(text), collect, v), FENCI_STOPPED);
  INT_EQ(v->n, 2);
  v->stop_after = 0;
  /* bad arguments */
  INT_EQ(fenci_entities(t, NULL, 3, collect, v), FENCI_BADARG);
  INT_EQ(fenci_entities(t, text, 3, NULL, v), FENCI_BADARG);
  INT_EQ(fenci_entities(NULL, text, 3, collect, v), FENCI_BADARG);
  INT_EQ(fenci_entities(t, "", 0, collect, v), FENCI_OK);
  {
    /* hostile input and a 300 KB line without a newline (more than a block):
     * in order, in bounds, character offsets consistent with the bytes */
    static const char *const pieces[] = {"中", "1", "年", "万", "\x80", "%", "拿破仑", "月", "日", "名", "。",
                                         "\n", "一", "十", "百分之", "http://a.b/1", "@x.cn", "巴黎", "\xef\xbc\x91"};
    size_t n = 300000, len = 0, k;
    unsigned seed = 5;
    char *buf = malloc(n + 32);
    for (k = 0; buf && k < 2; k++) {
      len = 0;
      while (len < n) {
        const char *p;
        seed = seed * 1103515245u + 12345u;
        p = pieces[(seed >> 16) % (sizeof pieces / sizeof pieces[0])];
        if (k == 1 && *p == '\n') continue; /* one long line */
        memcpy(buf + len, p, strlen(p));
        len += strlen(p);
      }
      v->n = 0;
      INT_EQ(fenci_entities(t, buf, len, collect, v), FENCI_OK);
      check_order(v, len, k ? "long line" : "hostile");
      OK(v->n > 100, "entities found in hostile text (%zu)", v->n);
    }
    free(buf);
  }
  {
    /* a number too long to mean anything (over 1 KB) is no entity
     * wherever the 64 KB blocks of its line fall; a long one under that is
     * one entity wherever they fall (a 10,000-digit number was one entity,
     * nothing or a cut piece, by its offset in the line) */
    static const size_t pre[] = {0, 21000, 21500, 21800, 60000, 63000, 65000};
    static const size_t digits[] = {300, 1021, 1022, 3000, 10000};
    size_t i, k, cap = 3 * 65000 + 10032;
    char *buf = malloc(cap);
    for (i = 0; buf && i < sizeof pre / sizeof pre[0]; i++)
      for (k = 0; k < sizeof digits / sizeof digits[0]; k++) {
        size_t len = 0, j, found = 0, whole = 0;
        for (j = 0; j < pre[i]; j++, len += 3) memcpy(buf + len, "甲", 3);
        memcpy(buf + len, "他有", 6);
        len += 6;
        memset(buf + len, '1', digits[k]);
        len += digits[k];
        memcpy(buf + len, "元。", 6);
        len += 6;
        v->n = 0;
        INT_EQ(fenci_entities(t, buf, len, collect, v), FENCI_OK);
        for (j = 0; j < v->n && j < 4096; j++)
          if (v->e[j].end > 3 * pre[i] + 6 && v->e[j].start < 3 * pre[i] + 6 + digits[k]) {
            found++;
            whole += v->e[j].type == FENCI_ENT_MONEY && v->e[j].start == 3 * pre[i] + 6 &&
                     v->e[j].end == len - 3;
          }
        /* 1,022 digits and 元 are 1,025 bytes */
        if (digits[k] <= 1021)
          OK(found == 1 && whole == 1, "%zu digits after %zu characters: %zu entities, %zu whole", digits[k], pre[i],
             found, whole);
        else
          OK(found == 0, "%zu digits after %zu characters: %zu entities", digits[k], pre[i], found);
      }
    free(buf);
  }
  fenci_tagger_free(t);
  fenci_model_free(m);
  {
    /* without a recogniser: times and quantities only */
    void *img = NULL;
    fenci_model *lm = th_load_model("的 10 u\n", &img);
    if (lm) {
      OK(!fenci_model_has_ner(lm), "a compiled lexicon has no recogniser");
      INT_EQ(fenci_tagger_new(&t, lm, 0), FENCI_OK);
      v->n = 0;
      INT_EQ(fenci_entities(t, line1, strlen(line1), collect, v), FENCI_OK);
      OK(v->n == 1 && v->e[0].type == FENCI_ENT_TIME, "only the date (%zu)", v->n);
      fenci_tagger_free(t);
    }
    fenci_model_free(lm);
    fenci_free(NULL, img);
  }
  STR_EQ(fenci_entity_type_name(FENCI_ENT_QUANTITY), "QUANTITY");
  STR_EQ(fenci_entity_type_name(99), "");
  free(v);
  TEST_DONE();
}
