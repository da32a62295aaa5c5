/* test_lexnext.c - the next-character filter (LEXN) against the trie.
 *
 * Random lexicons mix main-block words (shared prefixes, so nodes have
 * many next characters), Han followed by Latin letters or digits, other
 * blocks (U+3400, four-byte characters) and ASCII.  For every key, each
 * edge the filter must hold is found by walking the key with fc_dat_step,
 * independently of the builder's enumeration; prefix walks with the filter
 * give exactly the matches and end nodes of walks without it; queries for
 * edges that do not exist mostly fail (the filter filters); corrupt
 * sections are refused or caught by the full check.
 *
 * The seed is printed; rerun with `test_lexnext SEED` or FENCI_SEED=SEED. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "buf.h"
#include "dat.h"
#include "fmt.h"
#include "harness.h"
#include "lexnext.h"

static uint64_t rng_state;
static uint32_t rnd(void) { /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t)((rng_state * 2685821657736338717ull) >> 32);
}
static uint32_t rndn(uint32_t n) { return n ? rnd() % n : 0; }

typedef struct key {
  uint8_t b[64];
  size_t len;
} key;

static int key_cmp(const void *pa, const void *pb) {
  const key *a = pa, *b = pb;
  size_t m = a->len < b->len ? a->len : b->len;
  int c = memcmp(a->b, b->b, m);
  if (c) return c;
  return a->len < b->len ? -1 : a->len > b->len;
}

static size_t put_utf8(uint8_t *o, uint32_t c) {
  if (c < 0x80) {
    o[0] = (uint8_t)c;
    return 1;
  }
  if (c < 0x800) {
    o[0] = (uint8_t)(0xC0 | c >> 6);
    o[1] = (uint8_t)(0x80 | (c & 0x3F));
    return 2;
  }
  if (c < 0x10000) {
    o[0] = (uint8_t)(0xE0 | c >> 12);
    o[1] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
    o[2] = (uint8_t)(0x80 | (c & 0x3F));
    return 3;
  }
  o[0] = (uint8_t)(0xF0 | c >> 18);
  o[1] = (uint8_t)(0x80 | (c >> 12 & 0x3F));
  o[2] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
  o[3] = (uint8_t)(0x80 | (c & 0x3F));
  return 4;
}

/* A character of the key styles: main-block Han from a small or a large
 * set, ASCII letters and digits, U+3400 block, a four-byte one. */
static uint32_t gen_char(int style, int small) {
  switch (style) {
  case 0: return 0x4E00 + (small ? rndn(12) : rndn(0x5200));
  case 1: return rndn(2) ? 'A' + rndn(26) : '0' + rndn(10);
  case 2: return 0x3400 + rndn(40);
  default: return 0x20000 + rndn(8);
  }
}

static void gen_key(key *k) {
  size_t n = 1 + rndn(6), i;
  int small = rndn(3) != 0, mixed = rndn(5) == 0;
  k->len = 0;
  for (i = 0; i < n; i++) {
    int style = mixed && i > 0 && rndn(2) ? 1 + (int)rndn(3) : 0;
    k->len += put_utf8(k->b + k->len, gen_char(style, small));
  }
}

static int is_main(uint32_t c) { return c >= FC_LEXNEXT_LO && c <= FC_LEXNEXT_HI; }

/* The filter of a built trie, from its section bytes. */
static int make_filter(const fc_dat *d, fc_buf *sec, fc_lexnext *f) {
  char err[200];
  fc_buf_init(sec, NULL);
  if (fc_lexnext_build(d, sec, NULL) != FENCI_OK) return -1;
  return fc_lexnext_view(f, sec->data, sec->len, d, err, sizeof err) == FENCI_OK ? 0 : -1;
}

static void one_lexicon(size_t n) {
  key *ks = calloc(n, sizeof *ks);
  const uint8_t **kp = calloc(n, sizeof *kp);
  size_t *lens = calloc(n, sizeof *lens), i, m = 0, edges = 0, wrong = 0, probes = 0;
  uint32_t *vals = calloc(n, sizeof *vals);
  uint8_t *trie = NULL;
  size_t trie_size = 0;
  fc_dat d;
  fc_buf sec;
  fc_lexnext f;
  char err[200];
  if (!ks || !kp || !lens || !vals) abort();
  for (i = 0; i < n; i++) gen_key(&ks[i]);
  qsort(ks, n, sizeof *ks, key_cmp);
  for (i = 0; i < n; i++) /* drop duplicates */
    if (!m || key_cmp(&ks[m - 1], &ks[i]) != 0) ks[m++] = ks[i];
  for (i = 0; i < m; i++) {
    kp[i] = ks[i].b;
    lens[i] = ks[i].len;
    vals[i] = (uint32_t)i;
  }
  OK(fc_dat_build(NULL, kp, lens, vals, m, &trie, &trie_size) == FENCI_OK, "build of %zu keys", m);
  OK(fc_dat_view(&d, trie, trie_size, err, sizeof err) == FENCI_OK, "view: %s", err);
  OK(make_filter(&d, &sec, &f) == 0, "filter of %zu keys", m);
  if (!f.blocks) goto done;
  /* every edge the filter must hold, walking each key */
  for (i = 0; i < m; i++) {
    const uint8_t *s = ks[i].b;
    size_t pos = 0, depth = 0;
    uint32_t node = 0, cp;
    int main_path = 1;
    while (pos < ks[i].len && main_path) {
      size_t l = fc_lexnext_char(s + pos, ks[i].len - pos, &cp), b;
      OK(l > 0, "key %zu: no character at byte %zu", i, pos);
      if (!l) break;
      if (depth >= 2 || (depth == 1 && !is_main(cp))) {
        edges++;
        if (!fc_lexnext_may(&f, node, cp)) wrong++;
      }
      for (b = 0; b < l; b++) OK(fc_dat_step(&d, &node, s[pos + b]), "key %zu: no edge", i);
      pos += l;
      depth++;
      main_path = is_main(cp);
    }
  }
  OK(wrong == 0, "%zu of %zu edges missing from the filter", wrong, edges);
  OK(fc_lexnext_check(&f, &d, err, sizeof err) == FENCI_OK, "check: %s", err);
  /* walks with and without the filter: same matches, same end node */
  for (probes = 0; probes < 4000; probes++) {
    const key *k = &ks[rndn((uint32_t)m)];
    uint8_t text[3 * 8];
    size_t nch = 0, c, pos = 0, n1, n2, j;
    uint32_t node0 = 0, a, b2, cp;
    fc_dat_match m1[16], m2[16];
    /* two main-block characters of a key, then characters of keys or random ones */
    if (k->len < 6 || fc_lexnext_char(k->b, 3, &cp) != 3 || !is_main(cp) ||
        fc_lexnext_char(k->b + 3, 3, &cp) != 3 || !is_main(cp))
      continue;
    for (c = 0; c < 6; c++)
      if (!fc_dat_step(&d, &node0, k->b[c])) break;
    for (pos = 6; pos + 3 <= k->len && nch < 8; pos += 3) {
      if (fc_lexnext_char(k->b + pos, 3, &cp) != 3 || !is_main(cp)) break;
      memcpy(text + 3 * nch++, k->b + pos, 3);
    }
    if (rndn(2) && nch) nch = rndn((uint32_t)nch + 1);
    while (nch < 8) nch += put_utf8(text + 3 * nch, gen_char(0, rndn(2))) / 3;
    a = b2 = node0;
    n1 = fc_dat_prefix3(&d, &a, text, nch, NULL, m1, 16);
    n2 = fc_dat_prefix3(&d, &b2, text, nch, &f, m2, 16);
    OK(n1 == n2 && a == b2, "walk: %zu/%zu matches, nodes %u/%u", n1, n2, (unsigned)a, (unsigned)b2);
    for (j = 0; j < n1 && j < n2 && j < 16; j++)
      OK(m1[j].len == m2[j].len && m1[j].value == m2[j].value, "match %zu differs", j);
  }
  {
    /* edges that do not exist: most are refused */
    size_t asked = 0, passed = 0;
    for (i = 0; i < 20000; i++) {
      uint32_t node = rndn((uint32_t)d.n_units), cp = gen_char(0, 0), x = node;
      uint8_t u8[4];
      size_t l = put_utf8(u8, cp), b;
      for (b = 0; b < l && fc_dat_step(&d, &x, u8[b]); b++) {
      }
      if (b == l) continue; /* exists, or node is no node: fine either way */
      asked++;
      passed += (size_t)fc_lexnext_may(&f, node, cp);
    }
    OK(asked > 1000 && passed * 5 < asked, "%zu of %zu absent edges pass the filter", passed, asked);
  }
  {
    /* corrupt sections: sizes, the trie it was built for; a cleared block */
    uint8_t *c = malloc(sec.len);
    fc_lexnext g;
    size_t b, cleared = 0;
    if (!c) abort();
    OK(fc_lexnext_view(&g, sec.data, 12, &d, err, sizeof err) == FENCI_BADFORMAT, "short section accepted");
    OK(fc_lexnext_view(&g, sec.data, sec.len - 8, &d, err, sizeof err) == FENCI_BADFORMAT, "truncated accepted");
    memcpy(c, sec.data, sec.len);
    fc_wr32(c, 40);
    OK(fc_lexnext_view(&g, c, sec.len, &d, err, sizeof err) == FENCI_BADFORMAT, "bits 40 accepted");
    memcpy(c, sec.data, sec.len);
    fc_wr32(c + 4, fc_rd32(c + 4) + 1);
    OK(fc_lexnext_view(&g, c, sec.len, &d, err, sizeof err) == FENCI_BADFORMAT, "another trie's filter accepted");
    memcpy(c, sec.data, sec.len);
    for (b = 16; b < sec.len && !cleared; b += 8)
      if (fc_rd64(c + b)) {
        fc_wr64(c + b, 0);
        cleared = 1;
      }
    OK(fc_lexnext_view(&g, c, sec.len, &d, err, sizeof err) == FENCI_OK, "view: %s", err);
    OK(!cleared || fc_lexnext_check(&g, &d, err, sizeof err) == FENCI_BADFORMAT, "a cleared block passed the check");
    free(c);
  }
done:
  fc_buf_free(&sec);
  fc_free(NULL, trie);
  free(ks);
  free(kp);
  free(lens);
  free(vals);
}

int main(int argc, char **argv) {
  uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 0;
  int r;
  if (!seed && getenv("FENCI_SEED")) seed = strtoull(getenv("FENCI_SEED"), NULL, 10);
  if (!seed) seed = (uint64_t)time(NULL);
  fprintf(stderr, "test_lexnext: seed %llu\n", (unsigned long long)seed);
  rng_state = seed * 0x9E3779B97F4A7C15ull + 1;
  for (r = 0; r < 6; r++) one_lexicon(r < 3 ? 200 : 20000);
  {
    /* the empty trie: a filter of one block, nothing in it */
    uint8_t *trie = NULL;
    size_t sz = 0;
    fc_dat d;
    fc_buf sec;
    fc_lexnext f;
    char err[200];
    OK(fc_dat_build(NULL, NULL, NULL, NULL, 0, &trie, &sz) == FENCI_OK, "empty build");
    OK(fc_dat_view(&d, trie, sz, err, sizeof err) == FENCI_OK, "empty view");
    OK(make_filter(&d, &sec, &f) == 0, "empty filter");
    OK(!f.blocks || !fc_lexnext_may(&f, 0, 0x4E00), "the empty filter holds an edge");
    fc_buf_free(&sec);
    fc_free(NULL, trie);
  }
  TEST_DONE();
}
