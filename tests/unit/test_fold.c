/* test_fold.c - fenci_fold: each flag alone and together, invalid bytes
 * copied, the FENCI_TOOSMALL contract (the length is reported, no character
 * is cut), the argument checks, the size bound on every mapped traditional
 * character, and random bytes (seed printed) against the bound and the
 * idempotence of folding valid text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"

/* Folds s with flags into a static buffer; NULL when fenci_fold fails. */
static const char *tf_fold(const char *s, unsigned flags) {
  static char out[1024];
  size_t n = 0;
  fenci_rc rc = fenci_fold(s, strlen(s), flags, out, sizeof out - 1, &n);
  if (rc != FENCI_OK) return NULL;
  out[n] = 0;
  return out;
}

static void tf_flags(void) {
  /* case */
  STR_EQ(tf_fold("Hello WORLD 123", FENCI_FOLD_CASE), "hello world 123");
  STR_EQ(tf_fold("ÀÉÎÕÜÝÞ ×÷ ß", FENCI_FOLD_CASE), "àéîõüýþ ×÷ ß");
  STR_EQ(tf_fold("ĀĂĄĆŁŃŒŠŸŹŻŽſ", FENCI_FOLD_CASE), "āăąćłńœšÿźżžs");
  STR_EQ(tf_fold("İıĸŉ", FENCI_FOLD_CASE), "İıĸŉ"); /* no simple folding: kept */
  STR_EQ(tf_fold("ΑΒΓ ΆΈΌΏ ς", FENCI_FOLD_CASE), "αβγ άέόώ σ");
  STR_EQ(tf_fold("МОСКВА Ёж", FENCI_FOLD_CASE), "москва ёж");
  STR_EQ(tf_fold("µ", FENCI_FOLD_CASE), "μ");
  /* case alone leaves the width and the script alone */
  STR_EQ(tf_fold("ＡＢＣ北京大學", FENCI_FOLD_CASE), "ＡＢＣ北京大學");
  /* width */
  STR_EQ(tf_fold("ＡＢＣ１２３！～　x", FENCI_FOLD_WIDTH), "ABC123!~ x");
  STR_EQ(tf_fold("ＡＢＣ１２３", FENCI_FOLD_WIDTH | FENCI_FOLD_CASE), "abc123");
  STR_EQ(tf_fold("，。「」", FENCI_FOLD_WIDTH), ",。「」"); /* ， is full-width ASCII, 。「」 are not */
  /* traditional -> simplified */
  STR_EQ(tf_fold("北京大學的電腦軟體", FENCI_FOLD_T2S), "北京大学的电脑软体");
  STR_EQ(tf_fold("龍貓公車", FENCI_FOLD_T2S), "龙猫公车");
  STR_EQ(tf_fold("薴苧苎", FENCI_FOLD_T2S), "苎苎苎"); /* the one chain of the table, to its end */
  STR_EQ(tf_fold("北京大学", FENCI_FOLD_T2S), "北京大学"); /* simplified stays */
  /* all */
  STR_EQ(tf_fold("Ｉｐｈｏｎｅ和iPHONE在臺灣", FENCI_FOLD_ALL), "iphone和iphone在台湾");
  /* no flags: a copy */
  STR_EQ(tf_fold("ＡＢＣ Abc 大學", 0), "ＡＢＣ Abc 大學");
  STR_EQ(tf_fold("", FENCI_FOLD_ALL), "");
}

static void tf_invalid(void) {
  static const char in[] = "A\xff" "B\xe4\xb8" "C\xc3\x80\xed\xa0\x80\xf4\x90\x80\x80\xc0\xaf";
  static const char want[] = "a\xff" "b\xe4\xb8" "c\xc3\xa0\xed\xa0\x80\xf4\x90\x80\x80\xc0\xaf";
  char out[64];
  size_t n = 0;
  INT_EQ(fenci_fold(in, sizeof in - 1, FENCI_FOLD_ALL, out, sizeof out, &n), FENCI_OK);
  INT_EQ(n, sizeof want - 1);
  OK(memcmp(out, want, sizeof want - 1) == 0, "invalid bytes are copied");
  /* text with NULs */
  INT_EQ(fenci_fold("A\0B", 3, FENCI_FOLD_CASE, out, sizeof out, &n), FENCI_OK);
  INT_EQ(n, 3);
  OK(memcmp(out, "a\0b", 3) == 0, "NUL bytes are copied");
}

static void tf_toosmall(void) {
  char out[16];
  size_t n = 99, i;
  /* "aé大" folds to 1 + 2 + 3 bytes */
  INT_EQ(fenci_fold("Aé大", 6, FENCI_FOLD_ALL, NULL, 0, &n), FENCI_TOOSMALL);
  INT_EQ(n, 6);
  for (i = 0; i <= 6; i++) {
    size_t want = i >= 6 ? 6 : i >= 3 ? 3 : i >= 1 ? 1 : 0; /* whole characters only */
    memset(out, '#', sizeof out);
    n = 0;
    INT_EQ(fenci_fold("Aé大", 6, FENCI_FOLD_ALL, out, i, &n), i < 6 ? FENCI_TOOSMALL : FENCI_OK);
    INT_EQ(n, 6);
    OK(memcmp(out, "aé大", want) == 0 && (want == sizeof out || out[want] == '#'),
       "cap %zu: the first %zu bytes, nothing after", i, want);
  }
  /* an ASCII byte after a character that did not fit is not written either */
  memset(out, '#', sizeof out);
  INT_EQ(fenci_fold("a大b", 5, 0, out, 3, &n), FENCI_TOOSMALL);
  INT_EQ(n, 5);
  OK(out[0] == 'a' && out[1] == '#' && out[2] == '#', "no byte past the first character that does not fit");
}

static void tf_args(void) {
  char out[8];
  size_t n = 7;
  INT_EQ(fenci_fold("a", 1, 0x8, out, sizeof out, &n), FENCI_BADARG);
  INT_EQ(n, 0);
  INT_EQ(fenci_fold(NULL, 1, 0, out, sizeof out, &n), FENCI_BADARG);
  INT_EQ(fenci_fold("a", 1, 0, NULL, 4, &n), FENCI_BADARG);
  INT_EQ(fenci_fold("a", 1, 0, out, sizeof out, NULL), FENCI_BADARG);
  INT_EQ(fenci_fold(NULL, 0, 0, NULL, 0, &n), FENCI_OK);
  INT_EQ(n, 0);
}

/* Every code point: the folded form of one character is one character of
 * at most 4 bytes, at most one byte longer than the original, and folding
 * is idempotent (folding the result again changes nothing). */
static void tf_all_chars(void) {
  uint32_t cp;
  size_t bad = 0, grown = 0, changed = 0;
  for (cp = 1; cp <= 0x10FFFF; cp++) {
    char in[4], out[16], again[16];
    size_t k, n = 0, n2 = 0;
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    if (cp < 0x80) { in[0] = (char)cp; k = 1; }
    else if (cp < 0x800) { in[0] = (char)(0xC0 | (cp >> 6)); in[1] = (char)(0x80 | (cp & 0x3F)); k = 2; }
    else if (cp < 0x10000) {
      in[0] = (char)(0xE0 | (cp >> 12)); in[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
      in[2] = (char)(0x80 | (cp & 0x3F)); k = 3;
    } else {
      in[0] = (char)(0xF0 | (cp >> 18)); in[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
      in[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); in[3] = (char)(0x80 | (cp & 0x3F)); k = 4;
    }
    if (fenci_fold(in, k, FENCI_FOLD_ALL, out, sizeof out, &n) != FENCI_OK || n == 0 || n > 4 || n > k + 1) {
      if (!bad++) fprintf(stderr, "U+%04X folds to %zu bytes\n", (unsigned)cp, n);
      continue;
    }
    if (n > k) grown++;
    if (n != k || memcmp(in, out, k)) changed++;
    if (fenci_fold(out, n, FENCI_FOLD_ALL, again, sizeof again, &n2) != FENCI_OK || n2 != n ||
        memcmp(out, again, n)) {
      if (!bad++) fprintf(stderr, "U+%04X: folding is not idempotent\n", (unsigned)cp);
    }
  }
  INT_EQ(bad, 0);
  OK(changed > 2000, "%zu characters change", changed);
  fprintf(stderr, "test_fold: %zu code points change, %zu of them grow by a byte\n", changed, grown);
}

/* Random bytes: never more than len + len / 3 out, and the same result
 * whatever the capacity (a short buffer holds a prefix of the full result). */
static void tf_random(void) {
  unsigned seed = (unsigned)time(NULL);
  const char *env = getenv("FOLD_SEED");
  int round;
  if (env) seed = (unsigned)strtoul(env, NULL, 10);
  fprintf(stderr, "test_fold: seed %u (FOLD_SEED)\n", seed);
  srand(seed);
  for (round = 0; round < 2000; round++) {
    static const char alphabet[][5] = {"A", "z", "\xe5\xad\xb8", "\xef\xbc\xa1", "\xc3\x80", "\xe2\x80",
                                       "\xff", "\xf0\x9f\x98\x80", "\xe4\xb8\xad", "\x80", "\xe3\x80\x80"};
    char in[256], full[1024], part[1024];
    size_t len = 0, n = 0, n2 = 0, cap;
    unsigned flags = (unsigned)rand() & FENCI_FOLD_ALL;
    while (len < sizeof in - 4) {
      if (rand() % 3 == 0) {
        in[len++] = (char)(rand() & 0xFF);
      } else {
        const char *a = alphabet[(size_t)rand() % (sizeof alphabet / sizeof alphabet[0])];
        size_t l = strlen(a);
        memcpy(in + len, a, l);
        len += l;
      }
      if (rand() % 40 == 0) break;
    }
    if (fenci_fold(in, len, flags, full, sizeof full, &n) != FENCI_OK || n > len + len / 3) {
      OK(0, "round %d: %zu bytes fold to %zu", round, len, n);
      continue;
    }
    cap = (size_t)rand() % (n + 1);
    memset(part, 0, sizeof part);
    if (fenci_fold(in, len, flags, part, cap, &n2) != (cap < n ? FENCI_TOOSMALL : FENCI_OK) || n2 != n) {
      OK(0, "round %d: capacity %zu", round, cap);
      continue;
    }
    /* the part written is a prefix of the full result */
    {
      size_t w = 0;
      while (w < cap && part[w] == full[w]) w++;
      OK(w + 4 > cap, "round %d: the prefix written (%zu of %zu) falls short by more than a character", round, w,
         cap);
    }
  }
}

int main(void) {
  tf_flags();
  tf_invalid();
  tf_toosmall();
  tf_args();
  tf_all_chars();
  tf_random();
  TEST_DONE();
}
