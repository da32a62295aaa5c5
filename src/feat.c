/* feat.c - feature templates of the trained segmenter (see feat.h). */
#include <string.h>

#include "fenci.h"
#include "fmt.h"
#include "chars.h"
#include "feat.h"

/* Block offsets: block b of a group anchored at j scores unit j + off[b]. */
const fc_feat_type fc_feat_types[FC_G_NTYPES] = {
    {"uni", 5, {-2, -1, 0, 1, 2}},
    {"bi", 4, {-1, 0, 1, 2, 0}},
    {"skip", 1, {0, 0, 0, 0, 0}},
    {"tri", 3, {-1, 0, 1, 0, 0}},
    {"lex", 3, {-1, 0, 1, 0, 0}},
    {"lexu", 1, {0, 0, 0, 0, 0}},
    {"cls", 1, {0, 0, 0, 0, 0}},
    {"rep", 1, {0, 0, 0, 0, 0}},
    {"mm", 3, {-1, 0, 1, 0, 0}},
    {"mmu", 1, {0, 0, 0, 0, 0}},
    {"tlex", 3, {-1, 0, 1, 0, 0}},
    {"tlexu", 1, {0, 0, 0, 0, 0}},
    {"lat", 3, {-1, 0, 1, 0, 0}},
    {"latu", 1, {0, 0, 0, 0, 0}},
    {"latm", 1, {0, 0, 0, 0, 0}},
};

/* Symbols above the Unicode range. */
#define FC_SYM_ATOM 0x110000u  /* + FENCI_KIND_* of an atom */
#define FC_SYM_BOS 0x110040u
#define FC_SYM_EOS 0x110041u
#define FC_SYM_SPACE 0x110042u

/* Feature classes: finer than FC_C_* for Han (numerals and date units
 * behave differently from other characters) and coarser elsewhere. */
enum {
  FC_FC_HAN = 1,
  FC_FC_HANNUM,  /* 零〇一二三四五六七八九十百千万亿两 */
  FC_FC_DATE,    /* 年月日 */
  FC_FC_LATIN,   /* Latin atom */
  FC_FC_NUMBER,  /* number atom */
  FC_FC_URL,     /* URL or e-mail atom */
  FC_FC_CJKPUNCT,
  FC_FC_PUNCT,
  FC_FC_SPACE,
  FC_FC_OTHER,
  FC_FC_PAD
};

static int fc_feat_is_hannum(uint32_t c) {
  switch (c) {
  case 0x96F6: /* 零 */
  case 0x3007: /* 〇 */
  case 0x4E00: /* 一 */
  case 0x4E8C: /* 二 */
  case 0x4E09: /* 三 */
  case 0x56DB: /* 四 */
  case 0x4E94: /* 五 */
  case 0x516D: /* 六 */
  case 0x4E03: /* 七 */
  case 0x516B: /* 八 */
  case 0x4E5D: /* 九 */
  case 0x5341: /* 十 */
  case 0x767E: /* 百 */
  case 0x5343: /* 千 */
  case 0x4E07: /* 万 */
  case 0x4EBF: /* 亿 */
  case 0x4E24: /* 两 */
    return 1;
  default:
    return 0;
  }
}

uint32_t fc_feat_unit_sym(const fc_unit *u) {
  uint32_t c = u->cp;
  switch (u->kind) {
  case FENCI_KIND_LATIN:
  case FENCI_KIND_NUMBER:
  case FENCI_KIND_URL:
  case FENCI_KIND_EMAIL:
    return FC_SYM_ATOM + u->kind;
  case FENCI_KIND_SPACE:
    return FC_SYM_SPACE;
  default:
    break;
  }
  if (c == 0) return FC_SYM_ATOM + (u->kind & 0x3F); /* an atom of another kind */
  if (c == 0x25CB) c = 0x3007;                      /* ○ written for 〇 in dates */
  if (u->cls == FC_C_SPACE) return FC_SYM_SPACE;
  return c & 0x1FFFFF;
}

static uint8_t fc_feat_unit_cls(const fc_unit *u) {
  uint32_t c = u->cp;
  switch (u->kind) {
  case FENCI_KIND_LATIN: return FC_FC_LATIN;
  case FENCI_KIND_NUMBER: return FC_FC_NUMBER;
  case FENCI_KIND_URL:
  case FENCI_KIND_EMAIL: return FC_FC_URL;
  case FENCI_KIND_SPACE: return FC_FC_SPACE;
  default: break;
  }
  if (c == 0) return FC_FC_OTHER;
  if (c == 0x25CB) c = 0x3007;
  switch (u->cls) {
  case FC_C_HAN:
    if (fc_feat_is_hannum(c)) return FC_FC_HANNUM;
    if (c == 0x5E74 || c == 0x6708 || c == 0x65E5) return FC_FC_DATE; /* 年月日 */
    return FC_FC_HAN;
  case FC_C_LATIN: return FC_FC_LATIN;
  case FC_C_DIGIT:
  case FC_C_FWDIGIT: return FC_FC_NUMBER;
  case FC_C_CJKPUNCT: return FC_FC_CJKPUNCT;
  case FC_C_PUNCT: return c == 0x3007 ? FC_FC_HANNUM : FC_FC_PUNCT;
  case FC_C_SPACE: return FC_FC_SPACE;
  default: return c == 0x3007 ? FC_FC_HANNUM : FC_FC_OTHER;
  }
}

uint32_t fc_symmap_id(const fc_symmap *m, uint32_t sym) {
  uint32_t lo = 0, hi = m->n_ext;
  if (sym < FC_SYMMAP_DIRECT) {
    uint32_t id = fc_rd16(m->direct + 2 * (size_t)sym);
    return id >= FC_ID_FIRST && id < m->n_ids ? id : FC_ID_UNK;
  }
  while (lo < hi) { /* binary search of the sorted (symbol, id) pairs */
    uint32_t mid = lo + (hi - lo) / 2, s = fc_rd32(m->ext + 8 * (size_t)mid);
    if (s == sym) {
      uint32_t id = fc_rd32(m->ext + 8 * (size_t)mid + 4);
      return id >= FC_ID_FIRST && id < m->n_ids ? id : FC_ID_UNK;
    }
    if (s < sym) lo = mid + 1;
    else hi = mid;
  }
  return FC_ID_UNK;
}

/* Tags units [i, i+len) as one word into bits shift..shift+1 of c. */
static void fc_feat_mmword(uint8_t *c, size_t i, size_t len, int shift) {
  size_t k;
  for (k = 0; k < len; k++) {
    int tag = len == 1 ? FC_TAG_S : k == 0 ? FC_TAG_B : k + 1 == len ? FC_TAG_E : FC_TAG_M;
    c[i + k] = (uint8_t)((c[i + k] & ~(3 << shift)) | (tag << shift));
  }
}

void fc_feat_symbols(const fc_symmap *m, const fc_unit *u, size_t n, uint32_t *sym, uint8_t *cls) {
  size_t i;
  uint8_t *c;
  uint32_t *y = sym + FC_FEAT_PAD;
  for (i = 0; i < FC_FEAT_PAD; i++) {
    sym[i] = FC_ID_BOS;
    sym[n + FC_FEAT_PAD + i] = FC_ID_EOS;
  }
  for (i = 0; i < n; i++) {
    uint32_t cp = u[i].cp;
    /* the common case first: a Han character with a direct id */
    if (cp - 0x3400u < 0xC000u && u[i].cls == FC_C_HAN && u[i].kind != FENCI_KIND_SPACE) {
      uint32_t id = fc_rd16(m->direct + 2 * (size_t)cp);
      y[i] = id - FC_ID_FIRST < m->n_ids - FC_ID_FIRST ? id : FC_ID_UNK; /* one compare: see fc_symmap */
    } else {
      y[i] = fc_symmap_id(m, fc_feat_unit_sym(&u[i]));
    }
  }
  if (!cls) return;
  c = cls + FC_FEAT_PAD;
  for (i = 0; i < FC_FEAT_PAD; i++) cls[i] = cls[n + FC_FEAT_PAD + i] = FC_FC_PAD;
  for (i = 0; i < n; i++) c[i] = fc_feat_unit_cls(&u[i]);
  /* forward maximum matching over lb */
  for (i = 0; i < n;) {
    size_t len = u[i].lb ? u[i].lb : 1;
    if (len > n - i) len = n - i;
    fc_feat_mmword(c, i, len, 4);
    i += len;
  }
  /* backward maximum matching over le */
  for (i = n; i > 0;) {
    size_t len = u[i - 1].le ? u[i - 1].le : 1;
    if (len > i) len = i;
    fc_feat_mmword(c, i - len, len, 6);
    i -= len;
  }
}

/* splitmix64's finaliser: a bijection with good avalanche. */
uint64_t fc_feat_mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9u;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBu;
  x ^= x >> 31;
  return x ? x : 1;
}

static unsigned fc_feat_cap(unsigned v, unsigned cap) { return v < cap ? v : cap; }

size_t fc_feat_dense_rows(int t, size_t n_ids) {
  switch (t) {
  case FC_G_UNI: return n_ids;
  case FC_G_LEXU:
  case FC_G_TLEXU: return n_ids * (FC_FEAT_LEXUCAP + 1) * (FC_FEAT_LEXUCAP + 1);
  case FC_G_LEX:
  case FC_G_TLEX: return (FC_FEAT_LEXOUT + 1) * (FC_FEAT_LEXCAP + 1) * (FC_FEAT_LEXCAP + 1);
  case FC_G_LAT: return (FC_FEAT_LATOUT + 1) * (FC_FEAT_LATOUT + 1) * (FC_FEAT_LATOUT + 1);
  case FC_G_LATU: return n_ids * 4;
  case FC_G_LATM: return FC_MG_N * FC_MG_N;
  default: return 0;
  }
}

size_t fc_feat_dense_row(int t, uint64_t key) {
  size_t a = FC_FEAT_KA(key), b = FC_FEAT_KB(key), c = FC_FEAT_KC(key);
  switch (t) {
  case FC_G_UNI: return a;
  case FC_G_LEXU:
  case FC_G_TLEXU: return (a * (FC_FEAT_LEXUCAP + 1) + b) * (FC_FEAT_LEXUCAP + 1) + c;
  case FC_G_LAT: return (a * (FC_FEAT_LATOUT + 1) + b) * (FC_FEAT_LATOUT + 1) + c;
  case FC_G_LATU: return a * 4 + b;
  case FC_G_LATM: return a * FC_MG_N + b;
  default: return (a * (FC_FEAT_LEXCAP + 1) + b) * (FC_FEAT_LEXCAP + 1) + c;
  }
}

uint64_t fc_feat_wstep(uint64_t h, uint32_t sym) {
  uint64_t x = h ^ ((uint64_t)(sym + 1) * 0x9E3779B97F4A7C15u);
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9u;
  x ^= x >> 29;
  return x ? x : 1;
}

uint32_t fc_tlex_find(const fc_tlex *t, uint64_t h) {
  uint32_t fp = (uint32_t)h ? (uint32_t)h : 1, probe;
  uint64_t pos = ((h >> 32) * (uint64_t)t->n_slots) >> 32;
  for (probe = 0; probe <= t->max_probe; probe++) {
    const uint8_t *s = t->slots + (size_t)pos * 8;
    uint32_t f = (uint32_t)s[0] | (uint32_t)s[1] << 8 | (uint32_t)s[2] << 16 | (uint32_t)s[3] << 24;
    if (f == fp) return (uint32_t)s[4] | (uint32_t)s[5] << 8 | (uint32_t)s[6] << 16 | (uint32_t)s[7] << 24;
    if (f == 0) return 0;
    if (++pos == t->n_slots) pos = 0;
  }
  return 0;
}

void fc_tlex_mark(uint8_t *l2, size_t i, size_t len) {
  size_t x;
  l2[3 * i] = (uint8_t)len; /* walks from i find longer words later */
  if (len > l2[3 * (i + len - 1) + 1]) l2[3 * (i + len - 1) + 1] = (uint8_t)len;
  for (x = i + 1; x + 1 < i + len; x++)
    if (len > l2[3 * x + 2]) l2[3 * x + 2] = (uint8_t)len;
}

uint64_t fc_feat_key(int t, const fc_feat_ctx *c, ptrdiff_t j) {
  const uint32_t *s = c->sym + FC_FEAT_PAD + j; /* s[0] is the anchor's id */
  const uint8_t *k = c->cls ? c->cls + FC_FEAT_PAD + j : NULL;
  const fc_unit *u = c->u;
  size_t n = c->n;
  int inside = j >= 0 && (size_t)j < n;
  switch (t) {
  case FC_G_UNI: return FC_FEAT_PACK(t, s[0], 0, 0);
  case FC_G_BI: return FC_FEAT_PACK(t, s[0], s[1], 0);
  case FC_G_SKIP: return FC_FEAT_PACK(t, s[-1], s[1], 0);
  case FC_G_TRI: return FC_FEAT_PACK(t, s[-1], s[0], s[1]);
  case FC_G_LEX:
    if (!inside) return FC_FEAT_PACK(t, FC_FEAT_LEXOUT, 0, 0);
    return FC_FEAT_PACK(t, fc_feat_cap(u[j].lb, FC_FEAT_LEXCAP), fc_feat_cap(u[j].le, FC_FEAT_LEXCAP),
                        fc_feat_cap(u[j].lm, FC_FEAT_LEXCAP));
  case FC_G_LEXU:
    if (!inside) return 0;
    return FC_FEAT_PACK(t, s[0], fc_feat_cap(u[j].lb, FC_FEAT_LEXUCAP), fc_feat_cap(u[j].le, FC_FEAT_LEXUCAP));
  case FC_G_CLS:
    if (!k) return 0;
    return FC_FEAT_PACK(t, k[-1] & 15u, k[0] & 15u, k[1] & 15u);
  case FC_G_REP: {
    unsigned bits = (unsigned)(s[0] == s[-1]) | (unsigned)(s[0] == s[1]) << 1 |
                    (unsigned)(s[-1] == s[1]) << 2 | (unsigned)(s[0] == s[-2]) << 3 |
                    (unsigned)(s[0] == s[2]) << 4;
    if (!inside || !k) return 0;
    return FC_FEAT_PACK(t, bits, k[0] & 15u, 0);
  }
  case FC_G_MM:
    if (!k) return 0;
    if (!inside) return FC_FEAT_PACK(t, 99, 0, 0);
    return FC_FEAT_PACK(t, k[0] >> 4, 0, 0);
  case FC_G_MMU:
    if (!inside || !k) return 0;
    return FC_FEAT_PACK(t, s[0], k[0] >> 4, 0);
  case FC_G_TLEX: {
    const uint8_t *l;
    if (!inside || !c->l2) return FC_FEAT_PACK(t, FC_FEAT_LEXOUT, 0, 0);
    l = c->l2 + 3 * j;
    return FC_FEAT_PACK(t, fc_feat_cap(l[0], FC_FEAT_LEXCAP), fc_feat_cap(l[1], FC_FEAT_LEXCAP),
                        fc_feat_cap(l[2], FC_FEAT_LEXCAP));
  }
  case FC_G_TLEXU: {
    const uint8_t *l;
    if (!inside || !c->l2) return 0;
    l = c->l2 + 3 * j;
    return FC_FEAT_PACK(t, s[0], fc_feat_cap(l[0], FC_FEAT_LEXUCAP), fc_feat_cap(l[1], FC_FEAT_LEXUCAP));
  }
  case FC_G_LAT: {
    unsigned p = j >= 1 && (size_t)j - 1 < n ? u[j - 1].lat & 3u : FC_FEAT_LATOUT;
    unsigned q = inside ? u[j].lat & 3u : FC_FEAT_LATOUT;
    unsigned r = j >= -1 && (size_t)(j + 1) < n ? u[j + 1].lat & 3u : FC_FEAT_LATOUT;
    return FC_FEAT_PACK(t, p, q, r);
  }
  case FC_G_LATU:
    if (!inside) return 0;
    return FC_FEAT_PACK(t, s[0], u[j].lat & 3u, 0);
  case FC_G_LATM: /* after the run's last unit, FC_MG_INF as before its first */
    if (!inside) return 0;
    return FC_FEAT_PACK(t, fc_feat_cap(u[j].mg, FC_MG_INF),
                        (size_t)j + 1 < n ? fc_feat_cap(u[j + 1].mg, FC_MG_INF) : FC_MG_INF, 0);
  default: return 0;
  }
}

void fc_feat_anchors(int t, size_t n, ptrdiff_t *lo, ptrdiff_t *hi) {
  const fc_feat_type *ft = &fc_feat_types[t];
  int b, mn = 0, mx = 0;
  for (b = 0; b < ft->n_blocks; b++) {
    if (b == 0 || ft->off[b] < mn) mn = ft->off[b];
    if (b == 0 || ft->off[b] > mx) mx = ft->off[b];
  }
  /* unit i = j + off in [0, n)  =>  j in [-mx, n - 1 - mn] */
  *lo = -(ptrdiff_t)mx;
  *hi = (ptrdiff_t)n - mn;
  if (n == 0) *lo = *hi = 0;
}

unsigned fc_feat_parse_mask(const char *s) {
  unsigned mask = 0;
  while (*s) {
    const char *e = strchr(s, ',');
    size_t len = e ? (size_t)(e - s) : strlen(s);
    int t, found = 0;
    if (len == 7 && memcmp(s, "default", 7) == 0) {
      mask |= FC_FEAT_DEFAULT_MASK;
      found = 1;
    } else if (len == 3 && memcmp(s, "all", 3) == 0) {
      mask |= (1u << FC_G_NTYPES) - 1;
      found = 1;
    }
    for (t = 0; t < FC_G_NTYPES && !found; t++)
      if (strlen(fc_feat_types[t].name) == len && memcmp(s, fc_feat_types[t].name, len) == 0) {
        mask |= 1u << t;
        found = 1;
      }
    if (!found) return 0;
    s += len;
    if (*s == ',') s++;
  }
  return mask;
}
