/* test_chain.c - the labeller core's grouped templates: a labeller trained
 * with the characters at -2..+2 as one grouped template labels exactly as
 * the same features as five ordinary templates (the grouped table, its
 * padding anchors, offsets and rows give the same emissions), learns a
 * rule that needs the neighbours, and is smaller; a labeller with groups
 * records them (version 2) and one without stays version 1.  Allowed
 * labels (fc_chain_decode's allow) decode as emissions that forbid every
 * other label there would, with the full search and with a beam. */
#include <stdlib.h>
#include <string.h>

#include "chain.h"
#include "harness.h"
#include "train/chaintrain.h"

#define N_SYM 40
#define PAD_L 1000u /* the symbols before the first and after the last position */
#define PAD_R 1001u

static unsigned tc_seed = 12345;
static unsigned tc_rand(void) {
  tc_seed = tc_seed * 1103515245u + 12345u;
  return tc_seed >> 8;
}

/* Sequences of random symbols; the label of i depends on its neighbours. */
static void tc_data(fc_chain_data *dg, fc_chain_data *du, size_t n_seq, int grouped_only) {
  size_t q, i;
  int d;
  for (q = 0; q < n_seq; q++) {
    unsigned sym[64];
    size_t n = 1 + tc_rand() % 60;
    for (i = 0; i < n; i++) sym[i] = tc_rand() % N_SYM;
    for (i = 0; i < n; i++) {
      uint64_t kg[6], ku[6];
      /* the previous symbol's class; at the start, the next one's */
      unsigned l = i > 0 ? sym[i - 1] % 3 : i + 1 < n ? sym[i + 1] % 3 : 2;
      kg[0] = ku[0] = fc_chain_key(0, 1);
      for (d = -2; d <= 2; d++) {
        ptrdiff_t j = (ptrdiff_t)i + d;
        unsigned c = j < 0 ? PAD_L : (size_t)j >= n ? PAD_R : sym[j];
        /* the character at i + d: anchored there, it scores offset -d */
        kg[3 + d] = fc_chain_gkey(1, c, -d);
        ku[3 + d] = fc_chain_key((unsigned)(2 + d + 2), c);
      }
      OK(fc_chain_data_add(dg, kg, 6, (uint8_t)l) == 0, "add");
      if (!grouped_only) OK(fc_chain_data_add(du, ku, 6, (uint8_t)l) == 0, "add");
    }
    OK(fc_chain_data_end(dg) == 0, "end");
    if (!grouped_only) OK(fc_chain_data_end(du) == 0, "end");
  }
}

/* Decodes random emissions of labeller sec with the labels allowed at
 * random positions (one label: fixed; some; none of the labels: all), and
 * checks them against the same emissions with every other label forbidden
 * at those positions. */
static void tc_fixed(const uint8_t *sec, size_t len, const char *what) {
  fc_section fs;
  fc_chain c;
  fc_chain_work w;
  char err[256];
  int32_t emit[200 * 3], ref[200 * 3];
  uint64_t allow[200];
  uint8_t out1[200], out2[200];
  size_t n, i, l, round, bad = 0, kept = 0, nfix = 0;
  memset(&fs, 0, sizeof fs);
  memcpy(fs.tag, "TEST", 4);
  fs.data = sec;
  fs.size = len;
  memset(&w, 0, sizeof w);
  if (fc_chain_view(&c, &fs, err, sizeof err) != FENCI_OK) {
    OK(0, "%s: view: %s", what, err);
    return;
  }
  for (round = 0; round < 50; round++) {
    n = 1 + tc_rand() % 200;
    for (i = 0; i < n; i++) {
      unsigned r = tc_rand() % 10;
      uint64_t m;
      if (r < 4) allow[i] = (uint64_t)1 << (tc_rand() % c.n_labels); /* fixed */
      else if (r < 6) allow[i] = (uint64_t)(tc_rand() % ((1u << c.n_labels) - 1) + 1); /* some */
      else if (r < 7) allow[i] = (uint64_t)1 << 40; /* none of the labels: all */
      else allow[i] = FC_CHAIN_ALL;
      m = allow[i] & fc_chain_label_mask(c.n_labels) ? allow[i] : FC_CHAIN_ALL;
      nfix += m != FC_CHAIN_ALL;
      for (l = 0; l < c.n_labels; l++) {
        /* distinct values: no ties between paths */
        emit[i * c.n_labels + l] = (int32_t)(tc_rand() % 4000) * 8 + (int32_t)l - 16000;
        ref[i * c.n_labels + l] = m >> l & 1 ? emit[i * c.n_labels + l] : FC_CHAIN_FORBID;
        if (!(m >> l & 1)) emit[i * c.n_labels + l] = 30000; /* never read */
      }
    }
    INT_EQ(fc_chain_decode(&c, emit, n, allow, out1, &w, NULL), FENCI_OK);
    INT_EQ(fc_chain_decode(&c, ref, n, NULL, out2, &w, NULL), FENCI_OK);
    for (i = 0; i < n; i++) {
      uint64_t m = allow[i] & fc_chain_label_mask(c.n_labels) ? allow[i] : FC_CHAIN_ALL;
      bad += out1[i] != out2[i];
      kept += m != FC_CHAIN_ALL && (m >> out1[i] & 1);
    }
  }
  OK(bad == 0, "%s: allowed labels decode unlike forbidding emissions at %zu positions", what, bad);
  OK(kept == nfix, "%s: %zu of %zu restricted positions took an allowed label", what, kept, nfix);
  fc_chain_work_free(&w, NULL);
}

/* Emissions of labeller sec on the sequences of d from every key, and from
 * the keys a decoder lists (fc_chain_member_looked_up: the grouped
 * members whose anchor is inside the sequence left out), are equal; with
 * the padding members left out too they are not (the test can fail). */
static void tc_members(const uint8_t *sec, size_t len, const fc_chain_data *d) {
  fc_section fs;
  fc_chain c;
  char err[256];
  size_t q, i, k, diff = 0, diff_nopad = 0, listed = 0, all = 0;
  memset(&fs, 0, sizeof fs);
  memcpy(fs.tag, "TEST", 4);
  fs.data = sec;
  fs.size = len;
  if (fc_chain_view(&c, &fs, err, sizeof err) != FENCI_OK) {
    OK(0, "members: view: %s", err);
    return;
  }
  for (q = 0; q < d->n_seq; q++) {
    size_t p0 = d->seq[q], n = d->seq[q + 1] - p0, pass;
    uint64_t keys[3][64 * 6];
    uint32_t koff[3][65], scratch[64 * 6 * FC_CHAIN_SCRATCH];
    int32_t e[3][64 * 3];
    if (n > 64) continue;
    for (pass = 0; pass < 3; pass++) koff[pass][0] = 0;
    for (i = 0; i < n; i++) {
      for (pass = 0; pass < 3; pass++) koff[pass][i + 1] = koff[pass][i];
      for (k = d->koff[p0 + i]; k < d->koff[p0 + i + 1]; k++) {
        uint64_t key = d->key[k];
        int grouped = fc_chain_key_grouped(c.gmask, key), off = grouped ? fc_chain_gkey_off(key) : 0;
        keys[0][koff[0][i + 1]++] = key;
        if (!grouped || fc_chain_member_looked_up(i, off, n)) keys[1][koff[1][i + 1]++] = key;
        if (!grouped || off == 0) keys[2][koff[2][i + 1]++] = key;
      }
    }
    for (pass = 0; pass < 3; pass++) {
      memset(e[pass], 0, n * c.n_labels * sizeof e[pass][0]);
      fc_chain_emit_seq(&c, keys[pass], koff[pass], n, e[pass], scratch, NULL);
    }
    diff += memcmp(e[0], e[1], n * c.n_labels * sizeof e[0][0]) != 0;
    diff_nopad += memcmp(e[0], e[2], n * c.n_labels * sizeof e[0][0]) != 0;
    listed += koff[1][n];
    all += koff[0][n];
  }
  OK(diff == 0, "the decoder's keys give other emissions in %zu sequences", diff);
  OK(diff_nopad > 0, "leaving out the padding members changes nothing: the test cannot fail");
  OK(listed < all, "the decoder lists fewer keys (%zu of %zu)", listed, all);
}

/* The row cache (fc_chain_rows): the rows of each position's own keys
 * (ungrouped ones and anchors), kept by the keys' values in a cache small
 * enough to evict, added with fc_chain_rows_add, and the other keys
 * looked up, give the emissions of every key; the rows of another
 * labeller are not read; a bad shape gives no cache. */
static void tc_rows(const uint8_t *sec, size_t len, const uint8_t *sec2, size_t len2, const fc_chain_data *d) {
  fc_section fs, fs2;
  fc_chain c, c2;
  fc_chain_rows r;
  char err[256];
  size_t q, i, k, diff = 0, hits = 0, misses = 0, pass;
  const size_t R = 2 * FC_CHAIN_MAX_OFF + 1;
  int hit;
  memset(&fs, 0, sizeof fs);
  memcpy(fs.tag, "TEST", 4);
  fs2 = fs;
  fs.data = sec;
  fs.size = len;
  fs2.data = sec2;
  fs2.size = len2;
  memset(&r, 0, sizeof r);
  if (fc_chain_view(&c, &fs, err, sizeof err) != FENCI_OK || fc_chain_view(&c2, &fs2, err, sizeof err) != FENCI_OK) {
    OK(0, "rows: view: %s", err);
    return;
  }
  for (pass = 0; pass < 3; pass++) { /* the labeller, then the other one, then the first again */
    const fc_chain *cc = pass == 1 ? &c2 : &c;
    for (q = 0; q < d->n_seq; q++) {
      size_t p0 = d->seq[q], n = d->seq[q + 1] - p0;
      uint64_t all[64 * 6], rest[64 * 6], own[6];
      uint32_t koff[65], roff[65], scratch[64 * 6 * FC_CHAIN_SCRATCH];
      int32_t e[64 * 3], e2[64 * 3];
      if (n > 64) continue;
      koff[0] = roff[0] = 0;
      memset(e2, 0, n * cc->n_labels * sizeof e2[0]);
      for (i = 0; i < n; i++) {
        size_t no = 0;
        uint64_t k0 = FC_CHAIN_H0;
        int32_t *rows;
        koff[i + 1] = koff[i];
        roff[i + 1] = roff[i];
        for (k = d->koff[p0 + i]; k < d->koff[p0 + i + 1]; k++) {
          uint64_t key = d->key[k];
          int grouped = fc_chain_key_grouped(cc->gmask, key), off = grouped ? fc_chain_gkey_off(key) : 0;
          all[koff[i + 1]++] = key;
          if (!grouped || off == 0) {
            own[no++] = key;
            k0 = fc_chain_hash(k0, &key, sizeof key);
          } else if (fc_chain_member_looked_up(i, off, n)) {
            rest[roff[i + 1]++] = key;
          }
        }
        rows = fc_chain_rows_at(&r, cc, 64, R, k0, no, &hit, NULL);
        if (!rows) continue;
        if (hit) hits++;
        else {
          misses++;
          fc_chain_rows_fill(cc, rows, R, own, no);
        }
        fc_chain_rows_add(cc, e2, n, i, rows, R, NULL);
      }
      memset(e, 0, n * cc->n_labels * sizeof e[0]);
      fc_chain_emit_seq(cc, all, koff, n, e, scratch, NULL);
      fc_chain_emit_seq(cc, rest, roff, n, e2, scratch, NULL);
      diff += memcmp(e, e2, n * cc->n_labels * sizeof e[0]) != 0;
    }
  }
  OK(diff == 0, "rows from the cache give other emissions in %zu sequences", diff);
  OK(hits > 100 && misses > 100, "the cache hits (%zu) and misses (%zu)", hits, misses);
  OK(fc_chain_rows_at(&r, &c, 4, 4, 1, 2, &hit, NULL) == NULL && r.off, "an even row count: no cache");
  OK(fc_chain_rows_at(&r, &c, 4, 5, 1, 2, &hit, NULL) == NULL, "and none after");
  fc_chain_rows_free(&r, NULL);
  OK(fc_chain_rows_at(&r, &c, 6, 5, 1, 2, &hit, NULL) == NULL, "an entry count that is no power of two: no cache");
  fc_chain_rows_free(&r, NULL);
}

/* The slot table of an ungrouped labeller trained on d: at most half full,
 * and placed by how often training saw each key, so that no key is kept
 * from its home slot by one seen less often than itself (what puts the
 * keys decoding asks for most at their home slot). */
static int tc_u64_cmp(const void *x, const void *y) {
  uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return a < b ? -1 : a > b;
}
static size_t tc_count_of(const uint64_t *keys, size_t n, uint64_t k) {
  size_t lo = 0, hi = n, first;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (keys[mid] < k) lo = mid + 1;
    else hi = mid;
  }
  for (first = lo; lo < n && keys[lo] == k; lo++) {
  }
  return lo - first;
}
static void tc_layout(const uint8_t *sec, size_t len, const fc_chain_data *d) {
  fc_section fs;
  fc_chain c;
  char err[256];
  size_t i, used = 0, placed = 0, displaced = 0, bad = 0, nd = 0;
  uint64_t *ks = malloc((d->n_key ? d->n_key : 1) * sizeof *ks);
  uint32_t *owner_count;
  memset(&fs, 0, sizeof fs);
  memcpy(fs.tag, "TEST", 4);
  fs.data = sec;
  fs.size = len;
  if (!ks || fc_chain_view(&c, &fs, err, sizeof err) != FENCI_OK) {
    OK(0, "layout: view: %s", err);
    free(ks);
    return;
  }
  memcpy(ks, d->key, d->n_key * sizeof *ks);
  qsort(ks, d->n_key, sizeof *ks, tc_u64_cmp);
  owner_count = calloc(c.n_slots, sizeof *owner_count);
  if (!owner_count) {
    free(ks);
    return;
  }
  /* each stored key's slot and count (its fingerprint found from its home on) */
  for (i = 0; i < d->n_key; i++) {
    uint64_t m;
    uint32_t fp, s, probe;
    if (i > 0 && ks[i] == ks[i - 1]) continue;
    m = fc_chain_mix(ks[i]);
    fp = (uint32_t)m ? (uint32_t)m : 1u;
    s = (uint32_t)(((m >> 32) * c.n_slots) >> 32);
    for (probe = 0; probe <= c.max_probe; probe++) {
      uint32_t f = fc_rd32(c.slots + (size_t)s * 16);
      if (f == fp) {
        owner_count[s] = (uint32_t)tc_count_of(ks, d->n_key, ks[i]);
        placed++;
        displaced += probe > 0;
        break;
      }
      if (f == 0) break;
      if (++s == c.n_slots) s = 0;
    }
  }
  for (i = 0; i < c.n_slots; i++) used += fc_rd32(c.slots + i * 16) != 0;
  OK(used == placed && used > 100, "layout: %zu slots used, %zu keys found in them", used, placed);
  OK(used * 2 <= c.n_slots, "layout: %zu of %u slots used, more than half", used, (unsigned)c.n_slots);
  /* every slot passed on the way to a key holds one seen at least as often */
  for (i = 0; i < d->n_key; i++) {
    uint64_t m;
    uint32_t fp, s, probe, cnt;
    if (i > 0 && ks[i] == ks[i - 1]) continue;
    m = fc_chain_mix(ks[i]);
    fp = (uint32_t)m ? (uint32_t)m : 1u;
    s = (uint32_t)(((m >> 32) * c.n_slots) >> 32);
    cnt = (uint32_t)tc_count_of(ks, d->n_key, ks[i]);
    for (probe = 0; probe <= c.max_probe; probe++) {
      uint32_t f = fc_rd32(c.slots + (size_t)s * 16);
      if (f == fp || f == 0) break;
      nd++;
      bad += owner_count[s] < cnt;
      if (++s == c.n_slots) s = 0;
    }
  }
  OK(displaced > 10 && nd > 10, "layout: %zu keys off their home slot (%zu slots passed): too few to test", displaced, nd);
  OK(bad == 0, "layout: %zu of %zu slots passed hold a key seen less often than the one sought", bad, nd);
  free(owner_count);
  free(ks);
}

int main(void) {
  static const char *const labels[3] = {"a", "b", "c"};
  fc_chain_data tg, tu, vg, vu;
  fc_chain_opts o;
  uint8_t *sg = NULL, *su = NULL, *pg, *pu;
  size_t lg = 0, lu = 0, i, same = 0, right = 0;
  double score;
  int best;
  char err[256];
  fc_chain_data_init(&tg, NULL);
  fc_chain_data_init(&tu, NULL);
  fc_chain_data_init(&vg, NULL);
  fc_chain_data_init(&vu, NULL);
  tc_data(&tg, &tu, 600, 0);
  tc_data(&vg, &vu, 200, 0);
  memset(&o, 0, sizeof o);
  o.n_labels = 3;
  o.labels = labels;
  o.iters = 6;
  o.seed = 3;
  o.min_count = 1;
  INT_EQ(fc_chain_train(&tu, NULL, &o, NULL, &su, &lu, &score, &best, err, sizeof err), FENCI_OK);
  o.group_mask = 1ull << 1;
  INT_EQ(fc_chain_train(&tg, NULL, &o, NULL, &sg, &lg, &score, &best, err, sizeof err), FENCI_OK);
  OK(sg && su && lg < lu, "the grouped labeller is smaller (%zu vs %zu bytes)", lg, lu);
  if (sg && su) {
    INT_EQ(fc_rd32(sg + 4), 2);
    INT_EQ(fc_rd32(su + 4), 1);
    OK(fc_rd64(sg + 48) == 2, "group mask recorded");
    pg = malloc(vg.n_pos);
    pu = malloc(vu.n_pos);
    INT_EQ(fc_chain_label_all(sg, lg, &vg, pg, NULL), FENCI_OK);
    INT_EQ(fc_chain_label_all(su, lu, &vu, pu, NULL), FENCI_OK);
    for (i = 0; i < vg.n_pos; i++) {
      same += pg[i] == pu[i];
      right += pg[i] == vg.gold[i];
    }
    OK(same == vg.n_pos, "grouped and ungrouped labels differ at %zu of %zu positions", vg.n_pos - same, vg.n_pos);
    OK(right * 100 >= vg.n_pos * 97, "held-out accuracy %zu of %zu", right, vg.n_pos);
    free(pg);
    free(pu);
    tc_fixed(sg, lg, "every label");
    tc_members(sg, lg, &vg);
    tc_layout(su, lu, &tu);
  }
  {
    /* the row cache, on the grouped labeller and one of other weights */
    uint8_t *s2 = NULL;
    size_t l2 = 0;
    o.seed = 4;
    o.iters = 3;
    INT_EQ(fc_chain_train(&tg, NULL, &o, NULL, &s2, &l2, &score, &best, err, sizeof err), FENCI_OK);
    if (sg && s2) tc_rows(sg, lg, s2, l2, &vg);
    free(s2);
    o.seed = 3;
    o.iters = 6;
  }
  {
    /* the same labeller decoded with a beam of 2 of the 3 labels */
    uint8_t *sb = NULL;
    size_t lb = 0;
    o.beam = 2;
    INT_EQ(fc_chain_train(&tg, NULL, &o, NULL, &sb, &lb, &score, &best, err, sizeof err), FENCI_OK);
    if (sb) tc_fixed(sb, lb, "beam 2");
    free(sb);
  }
  free(sg);
  free(su);
  fc_chain_data_free(&tg);
  fc_chain_data_free(&tu);
  fc_chain_data_free(&vg);
  fc_chain_data_free(&vu);
  TEST_DONE();
}
