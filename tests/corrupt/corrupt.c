/* corrupt.c - damaged model files: every truncation length and random bit
 * flips of a compiled model.  Loading must either fail with an error status
 * (and a message) or give a model that segments a test text in every mode
 * without crashing and with main tokens that tile the text.
 *
 * Each damage is tried twice: as it is (the header and body CRCs catch most
 * of it) and "repaired", with the header's file size and both CRCs rewritten
 * to match, as a writer with a bug or a deliberate forgery would leave it;
 * that is what exercises the section, trie and weight validation.
 *
 * usage: corrupt [-s SEED] [-f FLIPS] [-t STRIDE] MODEL.fenci...
 *   -s  random seed (default: from the clock; always printed)
 *   -f  bit flips per model (default 1000, each also repaired)
 *   -t  test every STRIDE-th truncation length with repair (default 1: all;
 *       unrepaired truncations always test every length) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fenci.h"

uint32_t fc_crc32(uint32_t crc, const void *p, size_t n); /* internal, from libfenci.a */

static int cr_failures;
static uint64_t cr_rng;

static uint64_t cr_next(void) {
  uint64_t x = cr_rng;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return cr_rng = x;
}

static const char cr_text[] =
    "我们是中华人民共和国的大学生。南京市长江大桥，研究生命的起源！他在北京大学生活了一个月 and iPhone 15 "
    "costs $999.99, see https://example.com/a?b=c or a@b.cn\n结婚的和尚未结婚的\r\n\t \xff\xfe ５０％ 1,234.5 Ｃ＋＋";

typedef struct cr_check {
  size_t pos, n;
} cr_check;

static int cr_cb(void *ctx, const fenci_token *tok, const char *form, size_t form_len) {
  cr_check *c = ctx;
  (void)form;
  (void)form_len;
  if (tok->start >= tok->end || tok->end > sizeof cr_text - 1) {
    fprintf(stderr, "token %zu..%zu out of range\n", tok->start, tok->end);
    abort();
  }
  if (!(tok->flags & FENCI_TOK_EXTRA)) {
    if (tok->start != c->pos) {
      fprintf(stderr, "main token at %zu, expected %zu\n", tok->start, c->pos);
      abort();
    }
    c->pos = tok->end;
  }
  c->n++;
  return 0;
}

/* Loads img[0..len); returns 1 when it loaded (and segmented), 0 when it was
 * refused. */
static int cr_try(const uint8_t *img, size_t len, const char *what) {
  static const unsigned opts[] = {FENCI_MODE_DEFAULT, FENCI_MODE_SEARCH, FENCI_MODE_ALL, FENCI_OPT_FAST};
  fenci_model *m = NULL;
  char err[256];
  size_t i;
  fenci_rc rc;
  err[0] = 0;
  rc = fenci_model_from_buffer(&m, img, len, NULL, err, sizeof err);
  if (rc != FENCI_OK) {
    if (m || !err[0] || rc == FENCI_NOMEM) {
      fprintf(stderr, "FAIL: %s: rc %s, message '%s'\n", what, fenci_rc_str(rc), err);
      cr_failures++;
    }
    return 0;
  }
  for (i = 0; i < sizeof opts / sizeof opts[0]; i++) {
    fenci_tagger *t = NULL;
    fenci_dict *d = NULL;
    cr_check c = {0, 0};
    if (fenci_tagger_new(&t, m, opts[i]) != FENCI_OK) {
      fprintf(stderr, "FAIL: %s: tagger_new\n", what);
      cr_failures++;
      continue;
    }
    if (i == 0 && fenci_dict_new(&d, m, NULL) == FENCI_OK) {
      (void)fenci_dict_add(d, "长江大桥", strlen("长江大桥"), 0, NULL);
      (void)fenci_dict_add(d, "大学生活", strlen("大学生活"), 10, "n");
      (void)fenci_tagger_set_dict(t, d);
    }
    rc = fenci_segment(t, cr_text, sizeof cr_text - 1, cr_cb, &c);
    if (rc != FENCI_OK || c.pos != sizeof cr_text - 1) {
      fprintf(stderr, "FAIL: %s: segment rc %s, covered %zu of %zu bytes\n", what, fenci_rc_str(rc), c.pos,
              sizeof cr_text - 1);
      cr_failures++;
    }
    fenci_tagger_free(t);
    fenci_dict_free(d);
  }
  (void)fenci_model_meta(m, NULL);
  (void)fenci_tag_name(m, 1);
  fenci_model_free(m);
  return 1;
}

static void cr_put32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
}

/* Rewrites file size and both CRCs so only the structure is wrong. */
static void cr_repair(uint8_t *img, size_t len) {
  if (len < 64) return;
  cr_put32(img + 16, (uint32_t)len);
  cr_put32(img + 20, (uint32_t)((uint64_t)len >> 32));
  cr_put32(img + 28, fc_crc32(0, img + 64, len - 64));
  cr_put32(img + 40, fc_crc32(0, img, 40));
}

static uint8_t *cr_read(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  uint8_t *buf;
  long n;
  if (!f) return NULL;
  if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    return NULL;
  }
  buf = malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *len = (size_t)n;
  return buf;
}

static void cr_model(const char *path, long flips, size_t stride) {
  size_t len = 0, l, loaded = 0, loaded_rep = 0, tried_rep = 0;
  uint8_t *img = cr_read(path, &len), *cp;
  long k;
  char what[300];
  if (!img) {
    fprintf(stderr, "FAIL: cannot read %s\n", path);
    cr_failures++;
    return;
  }
  cp = malloc(len + 1);
  if (!cp) abort();
  if (!cr_try(img, len, path)) {
    fprintf(stderr, "FAIL: %s does not load undamaged\n", path);
    cr_failures++;
  }
  /* truncations: every length as it is; every stride-th repaired */
  for (l = 0; l < len; l++) {
    snprintf(what, sizeof what, "%s truncated to %zu", path, l);
    if (cr_try(img, l, what)) loaded++;
    if (l >= 64 && (l % stride == 0 || l < 4096 || len - l < 4096)) {
      memcpy(cp, img, l);
      cr_repair(cp, l);
      snprintf(what, sizeof what, "%s truncated to %zu, repaired", path, l);
      tried_rep++;
      if (cr_try(cp, l, what)) loaded_rep++;
    }
  }
  printf("  %s: %zu bytes: %zu truncations, %zu loaded; %zu repaired truncations, %zu loaded\n", path, len, len,
         loaded, tried_rep, loaded_rep);
  /* bit flips, 1 to 4 per trial */
  loaded = loaded_rep = 0;
  for (k = 0; k < flips; k++) {
    int nb = 1 + (int)(cr_next() % 4), b;
    size_t pos[4];
    memcpy(cp, img, len);
    for (b = 0; b < nb; b++) {
      /* half of the flips land in the first 4 KiB: header, table, small sections */
      size_t range = (cr_next() & 1) && len > 4096 ? 4096 : len;
      pos[b] = (size_t)(cr_next() % range);
      cp[pos[b]] ^= (uint8_t)(1u << (cr_next() % 8));
    }
    snprintf(what, sizeof what, "%s flip #%ld at %zu (+%d more)", path, k, pos[0], nb - 1);
    if (cr_try(cp, len, what)) loaded++;
    cr_repair(cp, len);
    snprintf(what, sizeof what, "%s flip #%ld at %zu (+%d more), repaired", path, k, pos[0], nb - 1);
    if (cr_try(cp, len, what)) loaded_rep++;
  }
  printf("  %s: %ld bit-flip trials: %zu loaded as they were, %zu loaded after repair\n", path, flips, loaded,
         loaded_rep);
  free(cp);
  free(img);
}

int main(int argc, char **argv) {
  uint64_t seed = (uint64_t)time(NULL);
  long flips = 1000;
  size_t stride = 1;
  int i;
  for (i = 1; i < argc && argv[i][0] == '-'; i += 2) {
    if (i + 1 >= argc) break;
    if (strcmp(argv[i], "-s") == 0) seed = strtoull(argv[i + 1], NULL, 10);
    else if (strcmp(argv[i], "-f") == 0) flips = strtol(argv[i + 1], NULL, 10);
    else if (strcmp(argv[i], "-t") == 0) stride = (size_t)strtoul(argv[i + 1], NULL, 10);
  }
  if (i >= argc || stride == 0) {
    fprintf(stderr, "usage: corrupt [-s SEED] [-f FLIPS] [-t STRIDE] MODEL.fenci...\n");
    return 2;
  }
  printf("corrupt: seed %llu (rerun with -s %llu)\n", (unsigned long long)seed, (unsigned long long)seed);
  cr_rng = seed * 0x9E3779B97F4A7C15ull + 1;
  for (; i < argc; i++) cr_model(argv[i], flips, stride);
  if (cr_failures) {
    printf("corrupt: %d failures (seed %llu)\n", cr_failures, (unsigned long long)seed);
    return 1;
  }
  printf("corrupt: all passed\n");
  return 0;
}
