/* chain.c - the linear-chain labeller: section validation, sparse weight
 * lookup and the beam-limited Viterbi decoder (chain.h). */
#include <string.h>

#include "alloc.h"
#include "chain.h"

#define FC_CHAIN_WMAX (1 << 24) /* far above any trained weight, far below FORBID */

fenci_rc fc_chain_view(fc_chain *c, const fc_section *sec, char *err, size_t errlen) {
  const uint8_t *p = sec->data;
  size_t size = sec->size, names_size, toff, soff, poff, i, k, nt;
  uint32_t n;
  memset(c, 0, sizeof *c);
  if (size < FC_CHAIN_HEAD || memcmp(p, FC_CHAIN_MAGIC, 4)) {
    fc_errf(err, errlen, "%.4s: not a labeller section", sec->tag);
    return FENCI_BADFORMAT;
  }
  if (fc_rd32(p + 4) < 1 || fc_rd32(p + 4) > FC_CHAIN_VERSION) {
    fc_errf(err, errlen, "%.4s: labeller version %u, this library reads 1 to %u: retrain", sec->tag,
            (unsigned)fc_rd32(p + 4), FC_CHAIN_VERSION);
    return FENCI_BADFORMAT;
  }
  c->gmask = fc_rd32(p + 4) >= 2 ? fc_rd64(p + 48) : 0;
  c->feature_version = fc_rd32(p + 44);
  n = fc_rd32(p + 8);
  c->beam = fc_rd32(p + 12);
  c->n_slots = fc_rd32(p + 16);
  c->max_probe = fc_rd32(p + 20);
  c->n_pairs = fc_rd32(p + 24);
  names_size = fc_rd32(p + 28);
  toff = fc_rd32(p + 32);
  soff = fc_rd32(p + 36);
  poff = fc_rd32(p + 40);
  nt = (size_t)n * n + 2 * (size_t)n;
  if (n < 1 || n > FC_CHAIN_MAX_LABELS || c->beam < 1 || c->beam > n || c->n_slots < 1 ||
      c->max_probe >= c->n_slots || c->n_pairs >= (1u << 24) || names_size > size - FC_CHAIN_HEAD ||
      FC_CHAIN_HEAD + names_size > toff || toff % 4 || soff % 4 || poff % 4 || toff > size ||
      nt * 4 > size - toff || toff + nt * 4 > soff || soff > size || (size - soff) / 16 < c->n_slots ||
      soff + (size_t)c->n_slots * 16 > poff || poff > size || (size - poff) / 4 < c->n_pairs) {
    fc_errf(err, errlen, "%.4s: labeller header is inconsistent", sec->tag);
    return FENCI_BADFORMAT;
  }
  /* exactly n NUL-terminated names */
  for (i = 0, k = FC_CHAIN_HEAD; i < n; i++) {
    const char *s = (const char *)p + k;
    size_t l;
    if (k >= FC_CHAIN_HEAD + names_size) break;
    l = strnlen(s, FC_CHAIN_HEAD + names_size - k);
    if (k + l >= FC_CHAIN_HEAD + names_size || l == 0) break;
    c->label[i] = s;
    k += l + 1;
  }
  if (i < n) {
    fc_errf(err, errlen, "%.4s: fewer than %u label names", sec->tag, (unsigned)n);
    return FENCI_BADFORMAT;
  }
  c->n_labels = n;
  for (i = 0; i < nt; i++) {
    int32_t v = (int32_t)fc_rd32(p + toff + 4 * i);
    if (v != FC_CHAIN_FORBID && (v < -FC_CHAIN_WMAX || v > FC_CHAIN_WMAX)) {
      fc_errf(err, errlen, "%.4s: transition weight out of range", sec->tag);
      return FENCI_BADFORMAT;
    }
    if (i < (size_t)n * n) c->trans[(i / n) * FC_CHAIN_MAX_LABELS + i % n] = v;
    else if (i < (size_t)n * n + n) c->start[i - (size_t)n * n] = v;
    else c->end[i - (size_t)n * n - n] = v;
  }
  c->slots = p + soff;
  c->pairs = p + poff;
  /* for each label the labels that may precede it (all but FORBID) */
  for (i = 0; i < n; i++) {
    uint32_t q;
    c->n_pred[i] = 0;
    for (q = 0; q < n; q++)
      if (c->trans[q * FC_CHAIN_MAX_LABELS + i] != FC_CHAIN_FORBID) c->pred[i][c->n_pred[i]++] = (uint8_t)q;
  }
  return FENCI_OK;
}

/* A slot's three inline words: pairs (label | weight << 16; label 0xFF:
 * none), or FC_CHAIN_OVER | first << 8 and a count: the pairs array. */
#define FC_CHAIN_OVER 0xFEu
#define FC_CHAIN_DENSE 0xFDu /* FC_CHAIN_DENSE | first << 8: a row of n_labels i16 at pair index first */
/* FC_CHAIN_GDENSE | first << 8: a grouped key's rows at pair index first:
 * a word lo | n_off << 8, then n_off rows of n_labels i16 for the offsets
 * lo .. lo + n_off - 1 */
#define FC_CHAIN_GDENSE 0xFCu

/* Adds pair pr of a key anchored at position a (its offset byte, 0 for
 * ungrouped keys, says which position it scores) to emit (n positions). */
static inline void fc_chain_add(int32_t *emit, ptrdiff_t a, size_t n, uint32_t pr, uint32_t n_labels) {
  uint32_t l = pr & 0xFF;
  ptrdiff_t p = a + (int8_t)(uint8_t)(pr >> 8);
  if (l < n_labels && p >= 0 && (size_t)p < n) emit[(size_t)p * n_labels + l] += (int16_t)(uint16_t)(pr >> 16);
}

/* Adds a row of L i16 weights (little-endian, in place: rows are 4-byte
 * aligned in the 16-byte aligned section) to one position's emissions. */
static inline int32_t fc_chain_row_at(const uint8_t *row, uint32_t j) {
  return (int16_t)(uint16_t)(row[2 * j] | row[2 * j + 1] << 8);
}
/* Only the labels of mask (of the labels, full) when it is not all of
 * them: a word that may take 2 of 44 tags adds 2 weights, not 44. */
static inline void fc_chain_add_row(int32_t *e, const uint8_t *row, uint32_t L, uint64_t mask, uint64_t full) {
  uint32_t j;
  if (mask != full && mask) {
    for (; mask; mask &= mask - 1) {
      j = fc_chain_ctz64(mask);
      e[j] += fc_chain_row_at(row, j);
    }
    return;
  }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  {
    const int16_t *r16 = (const int16_t *)(const void *)row; /* the mapped bytes have no declared type */
    for (j = 0; j < L; j++) e[j] += r16[j];
  }
#else
  for (j = 0; j < L; j++) e[j] += fc_chain_row_at(row, j);
#endif
}

/* Where key k listed at position i is looked up: the key (*lk) and the
 * anchor its pairs count from (*a); 0 when it is skipped, a grouped member
 * whose anchor is a position of the sequence (the member of offset 0 there
 * brings the weights). */
static inline int fc_chain_where(const fc_chain *c, uint64_t k, size_t i, size_t n, uint64_t *lk, ptrdiff_t *a) {
  int off;
  *lk = k;
  *a = (ptrdiff_t)i;
  if (!c->gmask || !fc_chain_key_grouped(c->gmask, k)) return 1;
  if ((k & 0xF) == 0) { /* anchor-only */
    *lk = fc_chain_gkey_anchor(k);
    return 1;
  }
  off = fc_chain_gkey_off(k);
  if (off == 0) return 1;
  *a = (ptrdiff_t)i - off;
  if (*a >= 0 && (size_t)*a < n) return 0;
  *lk = fc_chain_gkey_anchor(k);
  return 1;
}

/* Positions per block of fc_chain_emit_seq: enough keys in flight to hide
 * the misses, few enough that the lines fetched stay in L1/L2. */
#define FC_CHAIN_BLOCK 16
#define FC_CHAIN_SKIP 0xFFFFFFFFu
#define FC_CHAIN_PADS 128 /* padding anchors looked up per sequence, at most */

void fc_chain_emit_seq(const fc_chain *c, const uint64_t *keys, const uint32_t *koff, size_t n, int32_t *emit,
                       uint32_t *scratch, const uint64_t *allow) {
  size_t b0, k, i, n_pad = 0;
  const uint32_t L = c->n_labels; /* a local: emit's stores could alias c->n_labels */
  const uint64_t full = fc_chain_label_mask(L);
  /* the padding anchors looked up so far: several positions list one */
  uint64_t pad_key[FC_CHAIN_PADS];
  ptrdiff_t pad_at[FC_CHAIN_PADS];
  for (b0 = 0; b0 < n; b0 += FC_CHAIN_BLOCK) {
    size_t b1 = n - b0 < FC_CHAIN_BLOCK ? n : b0 + FC_CHAIN_BLOCK, nover = 0;
    /* stage 1: home slots, prefetched; each key's slot, fingerprint and
     * anchor (as an offset from its position) are kept for the stages after */
    for (i = b0; i < b1; i++)
      for (k = koff[i]; k < koff[i + 1]; k++) {
        uint64_t lk, m;
        ptrdiff_t a;
        uint32_t s, *x = scratch + FC_CHAIN_SCRATCH * k;
        if (!fc_chain_where(c, keys[k], i, n, &lk, &a)) {
          x[0] = FC_CHAIN_SKIP;
          continue;
        }
        if (a != (ptrdiff_t)i) { /* a padding anchor: once */
          size_t q;
          for (q = 0; q < n_pad && (pad_key[q] != lk || pad_at[q] != a); q++) {
          }
          if (q < n_pad || n_pad == FC_CHAIN_PADS) {
            x[0] = FC_CHAIN_SKIP;
            continue;
          }
          pad_key[n_pad] = lk;
          pad_at[n_pad++] = a;
        }
        m = fc_chain_mix(lk);
        s = (uint32_t)(((m >> 32) * c->n_slots) >> 32);
        x[0] = s;
        x[1] = (uint32_t)m ? (uint32_t)m : 1u;
        x[2] = (uint32_t)(int32_t)(a - (ptrdiff_t)i);
        __builtin_prefetch(c->slots + (size_t)s * 16);
        if (s + 4 < c->n_slots) /* a miss probes on past the line, often */
          __builtin_prefetch(c->slots + (size_t)s * 16 + 64);
      }
    /* stage 2: probe and add the inline pairs; the keys with more pairs
     * than a slot holds are kept (and their pairs prefetched) for stage 3 */
    for (i = b0; i < b1; i++) {
      for (k = koff[i]; k < koff[i + 1]; k++) {
        uint32_t *x = scratch + FC_CHAIN_SCRATCH * k;
        uint32_t fp = x[1], s = x[0], probe;
        ptrdiff_t a = (ptrdiff_t)i + (int32_t)x[2];
        x[0] = 0;
        if (s == FC_CHAIN_SKIP) continue;
        for (probe = 0; probe <= c->max_probe; probe++) {
          const uint8_t *slot = c->slots + (size_t)s * 16;
          uint32_t f = fc_rd32(slot);
          if (f == fp) {
            uint32_t w = fc_rd32(slot + 4);
            if ((w & 0xFF) == FC_CHAIN_DENSE) {
              uint32_t first = w >> 8, nw = (L + 1) / 2;
              if (first <= c->n_pairs && nw <= c->n_pairs - first && a == (ptrdiff_t)i) {
                x[0] = first << 8 | 0xFF; /* 0xFF: a dense row */
                __builtin_prefetch(c->pairs + (size_t)first * 4);
                nover++;
              }
            } else if ((w & 0xFF) == FC_CHAIN_GDENSE) {
              /* the rows' header is read (and checked) in stage 3: reading
               * it here would wait for its miss */
              uint32_t first = w >> 8;
              if (first < c->n_pairs) {
                const uint8_t *r = c->pairs + (size_t)first * 4;
                x[0] = first << 8 | 0xFE; /* 0xFE: grouped rows */
                __builtin_prefetch(r);
                __builtin_prefetch(r + 64);
                __builtin_prefetch(r + 128);
                nover++;
              }
            } else if ((w & 0xFF) == FC_CHAIN_OVER) {
              uint32_t first = w >> 8, cnt = fc_rd32(slot + 8);
              if (first <= c->n_pairs && cnt <= c->n_pairs - first && cnt < 254) {
                x[0] = first << 8 | cnt;
                __builtin_prefetch(c->pairs + (size_t)first * 4);
                nover++;
              }
            } else {
              fc_chain_add(emit, a, n, w, L);
              fc_chain_add(emit, a, n, fc_rd32(slot + 8), L);
              fc_chain_add(emit, a, n, fc_rd32(slot + 12), L);
            }
            break;
          }
          if (f == 0) break;
          if (++s == c->n_slots) s = 0;
        }
      }
    }
    /* stage 3: the long pair runs */
    for (i = b0; nover && i < b1; i++) {
      for (k = koff[i]; k < koff[i + 1]; k++) {
        const uint32_t *x = scratch + FC_CHAIN_SCRATCH * k;
        uint32_t v = x[0], first = v >> 8, cnt = v & 0xFF, j;
        ptrdiff_t a = (ptrdiff_t)i + (int32_t)x[2];
        if (!v) continue;
        if (cnt == 0xFF) { /* a dense row: an ungrouped key, at its own position */
          fc_chain_add_row(emit + i * L, c->pairs + (size_t)first * 4, L, allow ? allow[i] & full : full, full);
          continue;
        }
        if (cnt == 0xFE) { /* grouped rows, each at its offset from the anchor */
          uint32_t hdr = fc_rd32(c->pairs + (size_t)first * 4), noff = (hdr >> 8) & 0xFF, r, nw = (L + 1) / 2;
          ptrdiff_t p = a + (int8_t)(uint8_t)hdr;
          if ((size_t)noff * nw > c->n_pairs - first - 1) continue; /* rows past the section */
          for (r = 0; r < noff; r++, p++) {
            if (p >= 0 && (size_t)p < n)
              fc_chain_add_row(emit + (size_t)p * L, c->pairs + ((size_t)first + 1 + (size_t)r * nw) * 4, L,
                               allow ? allow[p] & full : full, full);
          }
          continue;
        }
        for (j = 0; j < cnt; j++) fc_chain_add(emit, a, n, fc_rd32(c->pairs + (size_t)(first + j) * 4), L);
      }
    }
  }
}

void fc_chain_rows_free(fc_chain_rows *r, const fenci_alloc *a) {
  fc_free(a, r->e);
  memset(r, 0, sizeof *r);
}

int32_t *fc_chain_rows_at(fc_chain_rows *r, const fc_chain *c, size_t n, size_t R, uint64_t k0, uint64_t k1, int *hit,
                          const fenci_alloc *a) {
  const size_t L = c->n_labels;
  uint64_t *e;
  *hit = 0;
  if (r->off) return NULL;
  if (!r->e || r->n != n || r->R != R || r->L != L) {
    size_t stride = 3 + (R * L + 1) / 2;
    fc_free(a, r->e);
    r->e = NULL;
    if (n == 0 || (n & (n - 1)) || R == 0 || R > 2 * FC_CHAIN_MAX_OFF + 1 || !(R & 1) ||
        n > SIZE_MAX / 8 / stride || !(r->e = fc_calloc(a, n * stride, 8))) {
      /* without a cache from now on, instead of trying again at each position */
      r->off = 1;
      return NULL;
    }
    r->n = n;
    r->R = R;
    r->L = L;
    r->stride = stride;
    /* zeroed: every entry empty, and its pages untouched until used (the
     * POS tagger's 900 KB were all written at its first word: 200 of a
     * one-line run's 600 page faults) */
    r->of = c;
  }
  if (r->of != c) { /* new, or another labeller's rows */
    size_t i;
    for (i = 0; i < r->n; i++) r->e[i * r->stride + 2] = 0;
    r->of = c;
  }
  e = r->e + (size_t)(fc_chain_mix(k0 ^ fc_chain_mix(k1)) & (r->n - 1)) * r->stride;
  if (e[2] && e[0] == k0 && e[1] == k1) {
    *hit = 1;
  } else {
    e[0] = k0;
    e[1] = k1;
    e[2] = 0; /* filled by fc_chain_rows_fill */
  }
  return (int32_t *)(void *)(e + 3);
}

void fc_chain_rows_fill(const fc_chain *c, int32_t *rows, size_t R, const uint64_t *keys, size_t nk) {
  enum { MAXK = 32 };
  uint32_t koff[2 * FC_CHAIN_MAX_OFF + 2], scratch[MAXK * FC_CHAIN_SCRATCH];
  size_t r, k0;
  memset(rows, 0, R * c->n_labels * sizeof *rows);
  for (k0 = 0; k0 < nk; k0 += MAXK) { /* the keys at the middle, MAXK at a time */
    size_t m = nk - k0 < MAXK ? nk - k0 : MAXK;
    for (r = 0; r <= R; r++) koff[r] = r <= R / 2 ? 0 : (uint32_t)m;
    fc_chain_emit_seq(c, keys + k0, koff, R, rows, scratch, NULL);
  }
  ((uint64_t *)(void *)rows)[-1] = 1; /* the entry's filled word */
}

void fc_chain_rows_add(const fc_chain *c, int32_t *emit, size_t n, size_t i, const int32_t *rows, size_t R,
                       const uint64_t *allow) {
  const size_t L = c->n_labels, h = R / 2;
  const uint64_t full = fc_chain_label_mask((uint32_t)L);
  size_t r, l;
  for (r = 0; r < R; r++) {
    size_t p = i + r - h;
    int32_t *e;
    const int32_t *row = rows + r * L;
    uint64_t am = full;
    if (i + r < h || p >= n) continue;
    e = emit + p * L;
    if (allow) {
      am = allow[p] & full;
      if (am && !(am & (am - 1))) continue; /* fixed: not read */
      if (!am) am = full;
    }
    if (am == full || fc_chain_popcount64(am) > 8) {
      for (l = 0; l < L; l++) e[l] += row[l];
    } else {
      for (; am; am &= am - 1) {
        l = fc_chain_ctz64(am);
        e[l] += row[l];
      }
    }
  }
}

void fc_chain_work_free(fc_chain_work *w, const fenci_alloc *a) {
  fc_free(a, w->cand);
  fc_free(a, w->score);
  fc_free(a, w->back);
  fc_free(a, w->pt);
  memset(w, 0, sizeof *w);
}

/* A score kept within +-2^30, so that a kept score plus a transition that
 * may be taken (at most 2^24 in size: fc_chain_view) fits in int32. */
static inline int32_t fc_chain_clamp(int64_t v) {
  return v < INT32_MIN / 2 ? INT32_MIN / 2 : v > INT32_MAX / 2 ? INT32_MAX / 2 : (int32_t)v;
}

/* Whether allow lets position i take label l (full: all the labels). */
static inline int fc_chain_allows(const uint64_t *allow, size_t i, uint64_t full, size_t l) {
  return !allow || !(allow[i] & full) || (allow[i] >> l & 1);
}

/* The decoder when every label is kept (the name recogniser's 13): no
 * selection, and each label only looks at the labels that may precede it,
 * whose transitions are copied side by side first (w->pt); the scores of
 * a position are renormalised to at most 0 and kept within fc_chain_clamp's
 * range, so the inner loop adds in int32. */
static fenci_rc fc_chain_decode_all(const fc_chain *c, const int32_t *emit, size_t n, const uint64_t *allow,
                                    uint8_t *out, fc_chain_work *w, const fenci_alloc *a) {
  size_t L = c->n_labels, i, l, q;
  const uint64_t full = fc_chain_label_mask((uint32_t)L);
  int32_t *pt;
  if (!w->pt && !(w->pt = fc_malloc(a, FC_CHAIN_MAX_LABELS * FC_CHAIN_MAX_LABELS * sizeof *w->pt)))
    return FENCI_NOMEM;
  pt = w->pt;
  for (l = 0; l < L; l++)
    for (q = 0; q < c->n_pred[l]; q++) pt[l * L + q] = c->trans[c->pred[l][q] * FC_CHAIN_MAX_LABELS + l];
  for (l = 0; l < L; l++) {
    w->score[l] = fc_chain_allows(allow, 0, full, l) ? fc_chain_clamp((int64_t)emit[l] + c->start[l]) : INT32_MIN / 2;
    w->back[l] = 0;
  }
  for (i = 1; i < n; i++) {
    const int32_t *e = emit + i * L, *ps = w->score + (i - 1) * L;
    int32_t *sc = w->score + i * L, mx = INT32_MIN;
    uint8_t *bk = w->back + i * L;
    uint64_t am = allow && (allow[i] & full) ? allow[i] & full : full; /* the labels it may take */
    for (l = 0; l < L; l++) {
      const uint8_t *pl = c->pred[l];
      const int32_t *tl = pt + l * L;
      size_t np = c->n_pred[l];
      int32_t best, v;
      uint8_t arg;
      if (np == 0) { /* nothing may precede it */
        best = ps[0] + FC_CHAIN_FORBID;
        arg = 0;
      } else {
        best = ps[pl[0]] + tl[0];
        arg = pl[0];
        /* without branches: which predecessor wins is data, and a
         * mispredicted branch costs more than the selects */
        for (q = 1; q < np; q++) {
          int gt;
          v = ps[pl[q]] + tl[q];
          gt = v > best;
          best = gt ? v : best;
          arg = gt ? pl[q] : arg;
        }
      }
      sc[l] = fc_chain_clamp((int64_t)best + e[l]);
      bk[l] = arg;
    }
    /* the allowed labels alone stay */
    if (am == full) {
      for (l = 0; l < L; l++)
        if (sc[l] > mx) mx = sc[l];
    } else {
      for (l = 0; l < L; l++)
        if (!(am >> l & 1)) sc[l] = INT32_MIN / 2;
        else if (sc[l] > mx) mx = sc[l];
    }
    for (l = 0; l < L; l++) sc[l] = sc[l] - mx < FC_CHAIN_FORBID ? FC_CHAIN_FORBID : sc[l] - mx;
  }
  {
    const int32_t *ls = w->score + (n - 1) * L;
    int64_t best = INT64_MIN;
    size_t arg = 0;
    for (l = 0; l < L; l++) {
      int64_t v = (int64_t)ls[l] + c->end[l];
      if (v > best) {
        best = v;
        arg = l;
      }
    }
    for (i = n; i-- > 0;) {
      out[i] = (uint8_t)arg;
      arg = w->back[i * L + arg];
    }
  }
  return FENCI_OK;
}

fenci_rc fc_chain_decode(const fc_chain *c, const int32_t *emit, size_t n, const uint64_t *allow, uint8_t *out,
                         fc_chain_work *w, const fenci_alloc *a) {
  size_t i, B = c->beam, L = c->n_labels, b, q;
  const uint64_t full = fc_chain_label_mask((uint32_t)L);
  if (n == 0) return FENCI_OK;
  if (n > w->cap) {
    size_t nc = n + n / 2 + 64;
    uint8_t *cand = fc_realloc(a, w->cand, nc * B), *back;
    int32_t *score;
    if (!cand) return FENCI_NOMEM;
    w->cand = cand;
    score = fc_realloc(a, w->score, nc * B * sizeof *score);
    if (!score) return FENCI_NOMEM;
    w->score = score;
    back = fc_realloc(a, w->back, nc * B);
    if (!back) return FENCI_NOMEM;
    w->back = back;
    w->cap = nc;
  }
  if (B == L) return fc_chain_decode_all(c, emit, n, allow, out, w, a);
  for (i = 0; i < n; i++) {
    const int32_t *e = emit + i * L;
    uint8_t *cd = w->cand + i * B;
    int32_t *sc = w->score + i * B;
    size_t nb = 0, l;
    uint64_t m = allow && (allow[i] & full) ? allow[i] & full : full;
    /* the B best allowed labels by emission, by insertion (B is small) */
    for (; m; m &= m - 1) {
      int32_t v;
      l = fc_chain_ctz64(m);
      v = e[l];
      if (nb == B && v <= e[cd[nb - 1]]) continue;
      q = nb < B ? nb++ : B - 1;
      while (q > 0 && e[cd[q - 1]] < v) {
        cd[q] = cd[q - 1];
        q--;
      }
      cd[q] = (uint8_t)l;
    }
    /* fewer allowed labels than the beam: the other candidates repeat the
     * first, never to be chosen */
    for (b = nb; b < B; b++) cd[b] = cd[0];
    for (b = 0; b < B; b++) {
      int32_t em = e[cd[b]];
      if (b >= nb) {
        sc[b] = FC_CHAIN_FORBID;
        w->back[i * B + b] = 0;
        continue;
      }
      if (i == 0) {
        sc[b] = em + c->start[cd[b]];
        w->back[b] = 0;
      } else {
        const uint8_t *pc = w->cand + (i - 1) * B;
        const int32_t *ps = w->score + (i - 1) * B;
        int64_t best = INT64_MIN;
        uint8_t arg = 0;
        for (q = 0; q < B; q++) {
          int64_t v = (int64_t)ps[q] + c->trans[pc[q] * FC_CHAIN_MAX_LABELS + cd[b]];
          if (v > best) {
            best = v;
            arg = (uint8_t)q;
          }
        }
        /* scores are kept in int32: emissions and transitions are bounded,
         * and each position renormalises below */
        sc[b] = (int32_t)(best + em);
        w->back[i * B + b] = arg;
      }
    }
    if (i > 0) {
      /* keep the numbers small: subtract the position's best */
      int32_t mx = sc[0];
      for (b = 1; b < B; b++)
        if (sc[b] > mx) mx = sc[b];
      for (b = 0; b < B; b++) sc[b] = sc[b] - mx < FC_CHAIN_FORBID ? FC_CHAIN_FORBID : sc[b] - mx;
    }
  }
  {
    const int32_t *ls = w->score + (n - 1) * B;
    const uint8_t *lc = w->cand + (n - 1) * B;
    int64_t best = INT64_MIN;
    size_t arg = 0;
    for (b = 0; b < B; b++) {
      int64_t v = (int64_t)ls[b] + c->end[lc[b]];
      if (v > best) {
        best = v;
        arg = b;
      }
    }
    for (i = n; i-- > 0;) {
      out[i] = w->cand[i * B + arg];
      arg = w->back[i * B + arg];
    }
  }
  return FENCI_OK;
}
