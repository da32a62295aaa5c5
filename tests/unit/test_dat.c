/* test_dat.c - the double-array trie against a naive sorted array.
 *
 * Random key sets (small alphabets so keys share prefixes, plus NUL, 0xFF and
 * Han UTF-8) are built into a trie; prefix search, exact find and step/value
 * must agree with brute force.  Then garbage and bit-flipped arrays go through
 * fc_dat_view and every lookup: under ASan nothing may read out of bounds.
 *
 * The seed is printed; rerun with `test_dat SEED` or FENCI_SEED=SEED.
 * `test_dat --bench FILE` builds the first field of each line of FILE. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "dat.h"
#include "harness.h"

static uint64_t rng_state;
static uint32_t rnd(void) { /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t)((rng_state * 2685821657736338717ull) >> 32);
}
static uint32_t rndn(uint32_t n) { return n ? rnd() % n : 0; }

typedef struct key {
  uint8_t b[256];
  size_t len;
  uint32_t value;
} key;

static int key_cmp(const void *pa, const void *pb) {
  const key *a = pa, *b = pb;
  size_t m = a->len < b->len ? a->len : b->len;
  int c = memcmp(a->b, b->b, m);
  if (c) return c;
  return a->len < b->len ? -1 : a->len > b->len;
}

static const uint8_t han[][3] = {{0xE4, 0xB8, 0xAD}, {0xE5, 0x9B, 0xBD}, {0xE4, 0xBA, 0xBA},
                                 {0xE6, 0xB0, 0x91}, {0xE5, 0xA4, 0xA7}, {0xE5, 0xAD, 0xA6}};

/* One random key in one of a few styles. */
static void gen_key(key *k, int style) {
  size_t len, i;
  switch (style) {
  case 0: /* tiny alphabet, short: lots of shared prefixes */
    len = 1 + rndn(6);
    for (i = 0; i < len; i++) k->b[i] = (uint8_t)("ab\0\xff"[rndn(4)]);
    break;
  case 1: /* Han UTF-8 */
    len = 0;
    for (i = 1 + rndn(5); i > 0; i--) {
      memcpy(k->b + len, han[rndn(6)], 3);
      len += 3;
    }
    break;
  case 2: /* any byte */
    len = 1 + rndn(12);
    for (i = 0; i < len; i++) k->b[i] = (uint8_t)rnd();
    break;
  default: /* long keys up to 255 bytes */
    len = 200 + rndn(56);
    for (i = 0; i < len; i++) k->b[i] = (uint8_t)('x' + rndn(2));
    break;
  }
  k->len = len;
}

static size_t make_keys(key *ks, size_t n, int style) {
  size_t i, m = 0;
  for (i = 0; i < n; i++) gen_key(&ks[i], style < 0 ? (int)rndn(4) : style);
  qsort(ks, n, sizeof *ks, key_cmp);
  for (i = 0; i < n; i++)
    if (m == 0 || key_cmp(&ks[m - 1], &ks[i]) != 0) ks[m++] = ks[i];
  for (i = 0; i < m; i++) ks[i].value = rnd() & 0x7FFFFFFF;
  return m;
}

static fenci_rc build(const key *ks, size_t n, uint8_t **out, size_t *size) {
  const uint8_t **keys = malloc((n + 1) * sizeof *keys);
  size_t *lens = malloc((n + 1) * sizeof *lens), i;
  uint32_t *vals = malloc((n + 1) * sizeof *vals);
  fenci_rc rc;
  for (i = 0; i < n; i++) {
    keys[i] = ks[i].b;
    lens[i] = ks[i].len;
    vals[i] = ks[i].value;
  }
  rc = fc_dat_build(NULL, keys, lens, vals, n, out, size);
  free(keys);
  free(lens);
  free(vals);
  return rc;
}

/* Compares every lookup for query q against brute force over ks. */
static int check_query(const fc_dat *d, const key *ks, size_t n, const uint8_t *q, size_t qlen) {
  fc_dat_match got[300], want[300];
  size_t ng, nw = 0, i;
  uint32_t v, node = 0;
  int bad = 0, found = 0;
  /* naive: binary-search every prefix of q in the sorted key array */
  for (i = 1; i <= qlen && i <= 255; i++) {
    size_t lo = 0, hi = n;
    key probe;
    memcpy(probe.b, q, i);
    probe.len = i;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      int c = key_cmp(&ks[mid], &probe);
      if (c == 0) {
        want[nw].len = (uint32_t)i;
        want[nw].value = ks[mid].value;
        nw++;
        if (i == qlen) found = 1 + (int)mid;
        break;
      }
      if (c < 0) lo = mid + 1; else hi = mid;
    }
  }
  ng = fc_dat_prefix(d, q, qlen, got, 300);
  if (ng != nw) bad = 1;
  for (i = 0; !bad && i < nw; i++)
    if (got[i].len != want[i].len || got[i].value != want[i].value) bad = 1;
  /* cap smaller than the count: total still reported, only cap written */
  if (nw > 1 && fc_dat_prefix(d, q, qlen, got, 1) != nw) bad = 1;
  if (fc_dat_find(d, q, qlen, &v) != (found != 0)) bad = 1;
  if (found && v != ks[found - 1].value) bad = 1;
  /* step/value walk spells the same prefixes */
  {
    size_t k = 0;
    for (i = 0; i < qlen; i++) {
      if (!fc_dat_step(d, &node, q[i])) break;
      if (fc_dat_value(d, node, &v)) {
        if (k >= nw || want[k].len != i + 1 || want[k].value != v) bad = 1;
        k++;
      }
    }
    if (k != nw) bad = 1;
  }
  return bad;
}

static void property_round(int style, size_t n_keys) {
  key *ks = malloc((n_keys + 1) * sizeof *ks);
  uint8_t *img = NULL, *img2 = NULL;
  size_t n, size = 0, size2 = 0, i, bad = 0;
  fc_dat d;
  char err[200];
  uint8_t q[300];

  n = make_keys(ks, n_keys, style);
  INT_EQ(build(ks, n, &img, &size), FENCI_OK);
  INT_EQ(fc_dat_view(&d, img, size, err, sizeof err), FENCI_OK);
  OK(fc_dat_check(&d, err, sizeof err) == FENCI_OK, "check: %s", err);
  /* determinism */
  INT_EQ(build(ks, n, &img2, &size2), FENCI_OK);
  OK(size == size2 && memcmp(img, img2, size) == 0, "two builds differ (style %d)", style);
  /* every key, every key extended, random strings */
  for (i = 0; i < n; i++) {
    bad += (size_t)check_query(&d, ks, n, ks[i].b, ks[i].len);
    if (ks[i].len > 1) bad += (size_t)check_query(&d, ks, n, ks[i].b, ks[i].len - 1);
    if (ks[i].len < 255) {
      memcpy(q, ks[i].b, ks[i].len);
      q[ks[i].len] = (uint8_t)rnd();
      bad += (size_t)check_query(&d, ks, n, q, ks[i].len + 1);
    }
  }
  for (i = 0; i < 300; i++) {
    key r;
    gen_key(&r, style < 0 ? (int)rndn(4) : style);
    bad += (size_t)check_query(&d, ks, n, r.b, r.len);
  }
  OK(bad == 0, "%zu queries disagree with brute force (style %d, %zu keys)", bad, style, n);
  /* the empty query and a NULL-free walk */
  INT_EQ(fc_dat_prefix(&d, q, 0, NULL, 0), 0);
  INT_EQ(fc_dat_find(&d, q, 0, NULL), 0);
  free(img);
  free(img2);
  free(ks);
}

/* Runs every read entry point over a view; nothing is compared, ASan watches. */
static void poke(const fc_dat *d, int full_check) {
  fc_dat_match m[8];
  uint8_t q[32];
  uint32_t node, v;
  int i, j;
  char err[128];
  for (i = 0; i < 40; i++) {
    size_t len = rndn(32);
    for (j = 0; j < (int)len; j++) q[j] = i & 1 ? (uint8_t)rnd() : (uint8_t)"ab\0\xff"[rndn(4)];
    (void)fc_dat_prefix(d, q, len, m, 8);
    (void)fc_dat_find(d, q, len, &v);
    node = rnd();
    (void)fc_dat_step(d, &node, q[0]);
    (void)fc_dat_value(d, node, &v);
    node = (uint32_t)rndn((uint32_t)d->n_units + 2);
    for (j = 0; j < (int)len; j++)
      if (!fc_dat_step(d, &node, q[j])) break;
    (void)fc_dat_value(d, node, &v);
  }
  if (full_check) (void)fc_dat_check(d, err, sizeof err);
}

static void garbage_round(void) {
  int round;
  char err[200];
  for (round = 0; round < 3000; round++) {
    size_t n_units = 1 + rndn(round < 2000 ? 64 : 2048), i;
    uint32_t *units = malloc(n_units * 4); /* exact size: ASan catches any overrun */
    fc_dat d;
    for (i = 0; i < n_units; i++) {
      uint32_t u = rnd();
      if (round & 1) u &= 0x801FFFFF | (rndn(2) ? 0x7FC00000u : 0); /* small offsets: deeper walks */
      units[i] = u;
    }
    if (round % 3 == 0) units[0] &= ~(0x800001FFu); /* a root the view accepts */
    if (fc_dat_view(&d, units, n_units * 4, err, sizeof err) == FENCI_OK) poke(&d, n_units < 100 || round % 8 == 0);
    free(units);
  }
}

/* Bit flips in a real trie: the view mostly still accepts it, so lookups walk
 * deep into corrupted structure. */
static void mutation_round(void) {
  key ks[400];
  size_t n = make_keys(ks, 400, -1), size, i, round;
  uint8_t *img;
  char err[200];
  int caught = 0;
  if (build(ks, n, &img, &size) != FENCI_OK) {
    OK(0, "build failed");
    return;
  }
  for (round = 0; round < 400; round++) {
    uint8_t *copy = malloc(size);
    fc_dat d;
    memcpy(copy, img, size);
    for (i = 0; i < 1 + rndn(4); i++) copy[rndn((uint32_t)size)] ^= (uint8_t)(1u << rndn(8));
    if (fc_dat_view(&d, copy, size, err, sizeof err) == FENCI_OK) {
      poke(&d, 0);
      if (fc_dat_check(&d, err, sizeof err) != FENCI_OK) caught++;
    }
    free(copy);
  }
  OK(caught > 0, "fc_dat_check never noticed a bit flip");
  /* truncations of a real trie */
  for (i = 4; i < size; i += 4) {
    fc_dat d;
    uint8_t *copy = malloc(i);
    memcpy(copy, img, i);
    if (fc_dat_view(&d, copy, i, err, sizeof err) == FENCI_OK) poke(&d, rndn(128) == 0);
    free(copy);
  }
  free(img);
}

static void edge_cases(void) {
  const uint8_t *keys[3] = {NULL, NULL, NULL};
  size_t lens[3] = {0, 0, 0};
  uint32_t vals[3] = {1, 2, 3}, v = 0, node;
  uint8_t *img = NULL, big[256];
  size_t size = 0;
  fc_dat d;
  char err[200];
  uint32_t *aligned;

  /* empty key set: one root unit, nothing found */
  INT_EQ(fc_dat_build(NULL, keys, lens, vals, 0, &img, &size), FENCI_OK);
  INT_EQ(size, 4);
  INT_EQ(fc_dat_view(&d, img, size, err, sizeof err), FENCI_OK);
  INT_EQ(fc_dat_check(&d, err, sizeof err), FENCI_OK);
  INT_EQ(fc_dat_find(&d, (const uint8_t *)"a", 1, &v), 0);
  free(img);

  /* bad input */
  keys[0] = (const uint8_t *)"b";
  keys[1] = (const uint8_t *)"a";
  lens[0] = lens[1] = 1;
  INT_EQ(fc_dat_build(NULL, keys, lens, vals, 2, &img, &size), FENCI_BADARG); /* unsorted */
  keys[1] = keys[0];
  INT_EQ(fc_dat_build(NULL, keys, lens, vals, 2, &img, &size), FENCI_BADARG); /* duplicate */
  lens[0] = 0;
  INT_EQ(fc_dat_build(NULL, keys, lens, vals, 1, &img, &size), FENCI_BADARG); /* empty key */
  memset(big, 'z', sizeof big);
  keys[0] = big;
  lens[0] = 256;
  INT_EQ(fc_dat_build(NULL, keys, lens, vals, 1, &img, &size), FENCI_BADARG); /* too long */
  lens[0] = 255;
  vals[0] = 0x80000000u;
  INT_EQ(fc_dat_build(NULL, keys, lens, vals, 1, &img, &size), FENCI_BADARG); /* value too big */
  vals[0] = 0x7FFFFFFFu;
  INT_EQ(fc_dat_build(NULL, keys, lens, vals, 1, &img, &size), FENCI_OK); /* 255 bytes, max value */
  INT_EQ(fc_dat_view(&d, img, size, err, sizeof err), FENCI_OK);
  INT_EQ(fc_dat_check(&d, err, sizeof err), FENCI_OK);
  OK(fc_dat_find(&d, big, 255, &v) && v == 0x7FFFFFFFu, "255-byte key");
  INT_EQ(fc_dat_find(&d, big, 254, &v), 0);
  INT_EQ(fc_dat_prefix(&d, big, 256, NULL, 0), 1);
  node = 0;
  OK(fc_dat_step(&d, &node, 'z') && node != 0, "step");
  INT_EQ(fc_dat_value(&d, node, &v), 0);
  free(img);

  /* keys with NUL and 0xFF bytes */
  keys[0] = (const uint8_t *)"\0";
  keys[1] = (const uint8_t *)"\0\xff";
  keys[2] = (const uint8_t *)"\xff";
  lens[0] = 1;
  lens[1] = 2;
  lens[2] = 1;
  vals[0] = 0;
  INT_EQ(fc_dat_build(NULL, keys, lens, vals, 3, &img, &size), FENCI_OK);
  INT_EQ(fc_dat_view(&d, img, size, err, sizeof err), FENCI_OK);
  OK(fc_dat_find(&d, keys[1], 2, &v) && v == 2, "NUL key");
  OK(fc_dat_find(&d, keys[0], 1, &v) && v == 0, "NUL key");
  OK(fc_dat_find(&d, keys[2], 1, &v) && v == 3, "FF key");

  /* view rejects */
  INT_EQ(fc_dat_view(&d, img, 0, err, sizeof err), FENCI_BADFORMAT);
  INT_EQ(fc_dat_view(&d, img, 6, err, sizeof err), FENCI_BADFORMAT);
  INT_EQ(fc_dat_view(&d, img + 2, 4, err, sizeof err), FENCI_BADFORMAT);
  aligned = malloc(8);
  aligned[0] = 0x80000000u; /* a value unit as root */
  aligned[1] = 0;
  INT_EQ(fc_dat_view(&d, aligned, 8, err, sizeof err), FENCI_BADFORMAT);
  OK(strstr(err, "root") != NULL, "message: %s", err);
  free(aligned);
  /* a stray unit after a valid trie fails the full check only */
  aligned = malloc(size + 4);
  memcpy(aligned, img, size);
  aligned[size / 4] = 0x12345678u;
  INT_EQ(fc_dat_view(&d, aligned, size + 4, err, sizeof err), FENCI_OK);
  INT_EQ(fc_dat_check(&d, err, sizeof err), FENCI_BADFORMAT);
  free(aligned);
  free(img);
}

/* Fails every allocation after the first `left`, to check cleanup paths. */
static long fail_left;
static void *failing_alloc(void *ud, void *p, size_t n) {
  (void)ud;
  if (n == 0) {
    free(p);
    return NULL;
  }
  if (fail_left-- <= 0) return NULL;
  return realloc(p, n);
}

static void oom_round(void) {
  key ks[300];
  size_t n = make_keys(ks, 300, 1), i, size;
  const uint8_t *keys[300];
  size_t lens[300];
  uint32_t vals[300];
  fenci_alloc a = {failing_alloc, NULL};
  uint8_t *img;
  long k;
  int ok_seen = 0;
  for (i = 0; i < n; i++) {
    keys[i] = ks[i].b;
    lens[i] = ks[i].len;
    vals[i] = ks[i].value;
  }
  for (k = 0; k < 40 && !ok_seen; k++) {
    fenci_rc rc;
    fail_left = k;
    rc = fc_dat_build(&a, keys, lens, vals, n, &img, &size);
    if (rc == FENCI_OK) {
      ok_seen = 1;
      free(img);
    } else {
      INT_EQ(rc, FENCI_NOMEM);
    }
  }
  OK(ok_seen, "build never succeeded under the failing allocator");
}

static int bench(const char *path) {
  FILE *fp = fopen(path, "rb");
  char line[4096];
  key *ks;
  size_t n = 0, cap = 1024, i, m = 0, total = 0, size;
  const uint8_t **keys;
  size_t *lens;
  uint32_t *vals, v;
  uint8_t *img;
  clock_t t0;
  double build_s, check_s;
  fc_dat d;
  char err[200];
  if (!fp) {
    perror(path);
    return 1;
  }
  ks = malloc(cap * sizeof *ks);
  while (fgets(line, sizeof line, fp)) {
    size_t len = strcspn(line, " \t\r\n");
    if (len == 0 || len > 255) continue;
    if (n == cap) ks = realloc(ks, (cap *= 2) * sizeof *ks);
    memcpy(ks[n].b, line, len);
    ks[n].len = len;
    n++;
  }
  fclose(fp);
  qsort(ks, n, sizeof *ks, key_cmp);
  for (i = 0; i < n; i++)
    if (m == 0 || key_cmp(&ks[m - 1], &ks[i]) != 0) ks[m++] = ks[i];
  keys = malloc(m * sizeof *keys);
  lens = malloc(m * sizeof *lens);
  vals = malloc(m * sizeof *vals);
  for (i = 0; i < m; i++) {
    keys[i] = ks[i].b;
    lens[i] = ks[i].len;
    vals[i] = (uint32_t)i;
    total += ks[i].len;
  }
  t0 = clock();
  if (fc_dat_build(NULL, keys, lens, vals, m, &img, &size) != FENCI_OK) return 1;
  build_s = (double)(clock() - t0) / CLOCKS_PER_SEC;
  fc_dat_view(&d, img, size, err, sizeof err);
  t0 = clock();
  INT_EQ(fc_dat_check(&d, err, sizeof err), FENCI_OK);
  check_s = (double)(clock() - t0) / CLOCKS_PER_SEC;
  for (i = 0; i < m; i++) OK(fc_dat_find(&d, keys[i], lens[i], &v) && v == i, "key %zu", i);
  printf("%zu keys, %zu bytes: %zu units (%.3f units/key, %zu bytes), build %.3f s, check %.3f s\n", m,
         total, size / 4, (double)size / 4.0 / (double)m, size, build_s, check_s);
  free(img);
  free(keys);
  free(lens);
  free(vals);
  free(ks);
  TEST_DONE();
}

int main(int argc, char **argv) {
  unsigned long long seed;
  const char *env = getenv("FENCI_SEED");
  int style;
  if (argc > 2 && strcmp(argv[1], "--bench") == 0) return bench(argv[2]);
  if (argc > 1)
    seed = strtoull(argv[1], NULL, 0);
  else if (env && *env)
    seed = strtoull(env, NULL, 0);
  else
    seed = (unsigned long long)time(NULL);
  fprintf(stderr, "test_dat: seed %llu (rerun: test_dat %llu)\n", seed, seed);
  rng_state = seed * 0x9E3779B97F4A7C15ull + 1;

  edge_cases();
  for (style = -1; style < 4; style++) {
    property_round(style, 5);
    property_round(style, 300);
    property_round(style, 3000);
  }
  property_round(-1, 20000);
  garbage_round();
  mutation_round();
  oom_round();
  TEST_DONE();
}
