/* pairs.c - building and validating the two-character index (LEX2). */
#include <string.h>

#include "alloc.h"
#include "chars.h"
#include "fmt.h"
#include "pairs.h"

#define FC_PAIRS_HDR 16

fenci_rc fc_pairs_build(const fc_dat *trie, const uint8_t *const *keys, const size_t *lens, size_t n, fc_buf *out,
                        const fenci_alloc *a) {
  uint32_t bits = 4, nslots, maxp = 0, count = 0;
  uint8_t *tab;
  size_t i, npairs = 0;
  /* keys are sorted, so words sharing a first pair are adjacent */
  for (i = 0; i < n; i++) {
    uint32_t c1, c2;
    size_t l1, l2;
    if (lens[i] < 6) continue;
    l1 = fc_utf8_decode(keys[i], lens[i], &c1);
    l2 = fc_utf8_decode(keys[i] + l1, lens[i] - l1, &c2);
    if (l1 != 3 || l2 != 3 || c1 < FC_PAIR_LO || c1 > FC_PAIR_HI || c2 < FC_PAIR_LO || c2 > FC_PAIR_HI) continue;
    if (i > 0 && lens[i - 1] >= 6 && memcmp(keys[i - 1], keys[i], 6) == 0) continue;
    npairs++;
  }
  while (bits < 28 && (1u << bits) < npairs + npairs / 3 + 1) bits++;
  nslots = 1u << bits;
  tab = fc_calloc(a, nslots, 12);
  if (!tab) return FENCI_NOMEM;
  for (i = 0; i < n; i++) {
    uint32_t c1, c2, key, h, node = 0, word = FC_PAIR_NONE, next = FC_PAIR_NONE, v, p;
    size_t l1, l2, k, j;
    if (lens[i] < 6) continue;
    l1 = fc_utf8_decode(keys[i], lens[i], &c1);
    l2 = fc_utf8_decode(keys[i] + l1, lens[i] - l1, &c2);
    if (l1 != 3 || l2 != 3 || c1 < FC_PAIR_LO || c1 > FC_PAIR_HI || c2 < FC_PAIR_LO || c2 > FC_PAIR_HI) continue;
    if (i > 0 && lens[i - 1] >= 6 && memcmp(keys[i - 1], keys[i], 6) == 0) continue;
    for (k = 0; k < 6; k++)
      if (!fc_dat_step(trie, &node, keys[i][k])) break;
    if (k < 6) continue; /* cannot happen with the trie of these keys */
    if (lens[i] == 6 && fc_dat_value(trie, node, &v)) word = v;
    /* does some word go on after the pair? this one, or the next ones */
    for (j = i; j < n && lens[j] >= 6 && memcmp(keys[j], keys[i], 6) == 0; j++)
      if (lens[j] > 6) {
        next = node;
        break;
      }
    key = fc_pairs_key(c1, c2);
    h = fc_pairs_home(key, bits);
    for (p = 0;; p++) {
      uint8_t *s = tab + (size_t)((h + p) & (nslots - 1)) * 12;
      uint32_t kk = s[0] | (uint32_t)s[1] << 8 | (uint32_t)s[2] << 16 | (uint32_t)s[3] << 24;
      if (kk == 0) {
        uint32_t vals[3];
        int q;
        vals[0] = key + 1;
        vals[1] = next;
        vals[2] = word;
        for (q = 0; q < 3; q++) {
          s[4 * q] = (uint8_t)vals[q];
          s[4 * q + 1] = (uint8_t)(vals[q] >> 8);
          s[4 * q + 2] = (uint8_t)(vals[q] >> 16);
          s[4 * q + 3] = (uint8_t)(vals[q] >> 24);
        }
        break;
      }
    }
    if (p > maxp) maxp = p;
    count++;
  }
  if (fc_buf_u32(out, bits) || fc_buf_u32(out, maxp) || fc_buf_u32(out, count) || fc_buf_u32(out, 0) ||
      fc_buf_put(out, tab, (size_t)nslots * 12)) {
    fc_free(a, tab);
    return FENCI_NOMEM;
  }
  fc_free(a, tab);
  return FENCI_OK;
}

fenci_rc fc_pairs_view(fc_pairs *p, const uint8_t *data, size_t size, char *err, size_t errlen) {
  uint32_t bits, maxp;
  memset(p, 0, sizeof *p);
  if (size < FC_PAIRS_HDR) {
    fc_errf(err, errlen, "LEX2 section too short");
    return FENCI_BADFORMAT;
  }
  bits = fc_rd32(data);
  maxp = fc_rd32(data + 4);
  if (bits < 1 || bits > 28 || size != FC_PAIRS_HDR + ((size_t)1 << bits) * 12 || maxp >= (1u << bits)) {
    fc_errf(err, errlen, "LEX2 section: bad table size");
    return FENCI_BADFORMAT;
  }
  /* slots are read with memcpy in host order: the format is little-endian */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
  return FENCI_OK; /* no index: lookups walk the trie */
#else
  p->slots = data + FC_PAIRS_HDR;
  p->bits = bits;
  p->max_probe = maxp;
  return FENCI_OK;
#endif
}
