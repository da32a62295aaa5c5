/* numex.h - rule-based recogniser and normaliser of times and quantities
 * (the TIME / NUMBER / PERCENT / MONEY / QUANTITY entities of extraction).
 *
 * fc_numex_scan walks the text once, left to right, and reports every
 * expression it recognises, longest match first, never overlapping.  It
 * needs no model and allocates nothing; its time is linear in the input
 * on every input (each byte is looked at a bounded number of times:
 * a numeral run that is not a number is skipped whole, never rescanned
 * from each of its positions).  Invalid UTF-8 and NUL bytes are skipped
 * one byte at a time and never start or join an expression.
 *
 * What is recognised (docs/NUMEX.md has the full lists and the reasons):
 *
 *   numbers   Arabic digits, ASCII or full-width (16000, １２, 1,234.5,
 *             3.5), optionally with a Chinese multiplier tail (22万,
 *             1.2亿, 3千万); Chinese numerals (一千二百五十, 三千五百万,
 *             两百, 十一, 二百五 = 250, 三万五 = 35000, 三点五 = 3.5);
 *             digit strings (二〇〇八 = 2008, 一九九八 = 1998; three or
 *             more characters, not all the same); fractions (三分之一,
 *             １／３); the decimal point may be . ． or · (１９·１);
 *             ordinals (第三: NUMBER with ordinal = 1, the measure word
 *             after it is not part of the span).
 *   PERCENT   3.5%, ３．５％, 百分之五, 百分之三点五, 千分之二 (value is a
 *             fraction: 3.5% -> 0.035, 千分之二 -> 0.002).
 *   MONEY     a number with a currency unit (元 美元 英镑 欧元 日元 ...
 *             块钱) or after a currency sign ($ US$ HK$ ¥ ￥ € £ 人民币).
 *   QUANTITY  a number with a measure word or unit (个 名 发 架 公里 kg
 *             ℃ 倍 岁 个百分点 ...), the unit's span in [us, ue); 零下
 *             makes it negative (零下5度 -> -5).
 *   TIME      dates 1814年4月6日 -> "1814-04-06", 1998年1月 -> "1998-01",
 *             一九九八年 -> "1998", 12月31日 -> "--12-31", 6日 -> "---06",
 *             1998-01-06 and 1998/1/6;
 *             clock times 上午9:30 -> "T09:30", 下午3点 -> "T15:00",
 *             9时30分, 三点一刻, also after a date ("--01-06T09:00");
 *             centuries and decades in TimeML's reduced precision:
 *             20世纪 -> "19", 20世纪90年代 -> "199", 1990年代 -> "199",
 *             90年代 alone -> "" (the century is not given);
 *             公元前221年 -> "-0220" (astronomical year numbering);
 *             weekdays 星期三 / 周三 / 礼拜天 (iso "XXXX-WXX-3", TimeML's
 *             form, value = ISO weekday 1..7, weekday = 1); bare dayparts
 *             (上午, 晚上: iso "");
 *             holidays (元旦 -> "--01-01", 国庆节 -> "--10-01"; lunar
 *             ones such as 春节 have iso "");
 *             relative expressions (次日 昨天 今年 上个月 上周三 明天上午
 *             三天后 两年前 目前 ...): relative = 1, iso "";
 *             durations 三天 两个月 十分钟 1.5小时: TIME with duration = 1,
 *             iso an ISO 8601 duration ("P3D", "P2M", "PT10M", "PT1.5H"),
 *             value the count, unit the time unit.
 *
 * Value conventions: has_value says value (NUMBER, PERCENT, MONEY,
 * QUANTITY) or iso (TIME) is set.  A number with more than 18 integer
 * digits, or a value above 1e18, has has_value 0 and value 0: a 10 MB
 * digit run is one NUMBER without a value (values above 2^53 are the
 * nearest double).  A vague
 * number (十几, 数百, 三四个, 300多, 一年多) has approx = 1 and has_value 0;
 * value then holds the number as written without its vague part (300多
 * -> 300, 三四个 -> 3, 十几 -> 10, 数百 -> 100), not a bound.  Chinese
 * approximate pairs and single numerals (一, 两, 三, 十) are only read with
 * a unit after them (三个, 两人, 一月), which keeps 一些, 一起, 九死一生
 * and the like out; guarded words (十分 "very", 一度, 一点儿, 万一, 唯一,
 * 五花八门, 三门峡, ...) and the guard on relative words (表现在 is no
 * 现在) are listed in numex.c and docs/NUMEX.md.
 *
 * Thread-safe: no state outside the call. */
#ifndef FC_NUMEX_H
#define FC_NUMEX_H

#include <stddef.h>

#include "fenci.h"

enum { FC_NX_TIME = 1, FC_NX_NUMBER, FC_NX_PERCENT, FC_NX_MONEY, FC_NX_QUANTITY };

typedef struct fc_numex {
  int type;        /* FC_NX_* */
  size_t s, e;     /* byte span in the text, end exclusive */
  int has_value;   /* NUMBER/PERCENT/MONEY/QUANTITY: value is set; TIME: iso is set */
  double value;    /* numeric value; PERCENT as a fraction (3.5% -> 0.035); TIME: the
                    * count of a duration, the ISO weekday 1..7 of a weekday, else 0 */
  char iso[64];    /* TIME: ISO 8601 value ("1814-04-06", "1998", "--12-31", "T09:30",
                    * "1998-01", "P3D"; a range "1998/2000", "P3Y/P5Y"), "" when
                    * relative/undetermined */
  size_t us, ue;   /* unit's byte span inside [s,e) (us == ue: none), e.g. 发, 英镑, 名 */
  int relative;    /* TIME: 1 for relative expressions (次日, 三天后, 明年, 上周) */
  int approx;      /* 1: a vague amount (十几, 数百, 三四个, 300多); has_value is 0 */
  int ordinal;     /* NUMBER: 1 for 第N */
  int duration;    /* TIME: 1 for an amount of time (三天, 两个月, 十分钟) */
  int weekday;     /* TIME: 1 for a weekday (周三, 上周五); value is its ISO number */
  int clock;       /* TIME: it ends in a clock time, read with daypart clock - 1
                    * (numex.c's NUMEX_DP_*, 0 none); 0: no clock time */
  int era;         /* TIME: 1 for a year of a reign or the Republic (康熙五十年) */
  int range;       /* 1: from value to value_end (3-5人, 1998年至2000年; numjoin.c) */
  double value_end; /* a range's end (its start is value); TIME points: 0 */
} fc_numex;

/* Receives each expression; x is valid only during the call.  Non-zero stops. */
typedef int (*fc_numex_fn)(void *ctx, const fc_numex *x);

/* Finds every time/quantity expression in text[0..len) (UTF-8, no NUL
 * terminator needed), left to right, non-overlapping, longest match, and
 * calls fn for each.  FENCI_OK; FENCI_STOPPED when fn returned non-zero;
 * FENCI_BADARG when fn is NULL or text is NULL with len > 0.
 * Thread-safe. */
fenci_rc fc_numex_scan(const char *text, size_t len, fc_numex_fn fn, void *ctx);

/* What the text's words say about a cut at byte p (wordgap.h). */
typedef struct fc_numex_word {
  double cost;       /* nats the best lexicon path gives up to cut at p (0: it cuts there) */
  size_t start, end; /* its word over p (start = end = p when it cuts there) */
  int set_phrase;    /* that word is an idiom or a fixed expression (lexicon tags i, l) */
} fc_numex_word;
/* Fills *w for p.  Non-zero: no answer (the scan then goes on as without
 * words; the caller keeps the reason). */
typedef int (*fc_numex_gap_fn)(void *ctx, size_t p, fc_numex_word *w);

/* fc_numex_scan, with the words of the text asked where a relative word,
 * a unit or a number-led expression could be the start or the end of a
 * longer word (去年轻人, 会议上周旋, 300万人口, 三年级, 一本正经): such a
 * match is not taken.  Without gap (NULL) the static guards of numex.c
 * decide, as in fc_numex_scan. */
fenci_rc fc_numex_scan_words(const char *text, size_t len, fc_numex_gap_fn gap, void *gctx, fc_numex_fn fn,
                             void *ctx);

/* fc_numex_scan_words without joining ranges: each side of 3-5人 on its
 * own (numjoin.c reads a range's start with it). */
fenci_rc fc_numex_scan_parts(const char *text, size_t len, fc_numex_gap_fn gap, void *gctx, fc_numex_fn fn,
                             void *ctx);

/* What the character cp is in a numeral (numjoin.c reads a range's digits
 * with it): an Arabic digit (ASCII or full-width), a Chinese digit (三, 兩,
 * 〇), a multiplier below 万 (十 百 千), or 0 for anything else. */
enum { FC_NUMERAL_ARABIC = 1, FC_NUMERAL_CHINESE, FC_NUMERAL_SMALL_MULT };
int fc_numex_numeral_char(uint32_t cp);

/* The length of the daypart (上午, 下午, 晚, ...) that ends at t[p], or 0. */
size_t fc_numex_daypart_before(const uint8_t *t, size_t n, size_t p);

/* 1 when t[0..n) is a unit of temperature (℃, 度, 摄氏度, ...). */
int fc_numex_temp_unit(const uint8_t *t, size_t n);

/* The length of the range mark (到 至 ～ ~ - － — –) at t[p], or 0. */
size_t fc_numex_range_mark(const uint8_t *t, size_t n, size_t p);

/* The year whose last two digits are yy nearest year y on one side: in
 * the 50 years after it (after 1: 1998年至99年 is 1999) or before it
 * (after 0: 98年到2003年 is 1998); -1 when there is none. */
int fc_numex_year_near(int y, int yy, int after);

/* numjoin.c: joins a range's start and end as the scanner reports them
 * (its fc_numex_fn), holding back one expression, passed on to fn by the
 * next one or by fc_numjoin_end. */
typedef struct fc_numjoin {
  const uint8_t *t;
  size_t n;
  fc_numex_fn fn;
  void *ctx;
  size_t done; /* the end of the last expression reported */
  int held;    /* x is held back */
  fc_numex x; /* the last expression, which a range mark may join to the next */
  size_t xlo; /* the end of the expression taken before x: nothing joined to x reaches back past it */
  int pheld;   /* pre is held back too (before x) */
  fc_numex pre; /* a date right before x, a bare number, which may name a range's month (2月3-5日) */
} fc_numjoin;
void fc_numjoin_init(fc_numjoin *r, const char *text, size_t len, fc_numex_fn fn, void *ctx);
int fc_numjoin_take(void *r, const fc_numex *x);
int fc_numjoin_end(fc_numjoin *r);

/* 1 when the internal word lists agree with the scanner's first-character
 * filters (every keyword starts with a character the filter lets through);
 * for the unit test. */
int fc_numex_selfcheck(void);

#endif
