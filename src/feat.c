/* feat.c - feature templates of the trained segmenter (see feat.h). */
#include <string.h>

#include "fenci.h"
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

static void fc_feat_unit(const fc_unit *u, uint32_t *sym, uint8_t *cls) {
  uint32_t c = u->cp;
  switch (u->kind) {
  case FENCI_KIND_LATIN:
    *sym = FC_SYM_ATOM + FENCI_KIND_LATIN;
    *cls = FC_FC_LATIN;
    return;
  case FENCI_KIND_NUMBER:
    *sym = FC_SYM_ATOM + FENCI_KIND_NUMBER;
    *cls = FC_FC_NUMBER;
    return;
  case FENCI_KIND_URL:
  case FENCI_KIND_EMAIL:
    *sym = FC_SYM_ATOM + u->kind;
    *cls = FC_FC_URL;
    return;
  case FENCI_KIND_SPACE:
    *sym = FC_SYM_SPACE;
    *cls = FC_FC_SPACE;
    return;
  default:
    break;
  }
  if (c == 0) { /* an atom of another kind */
    *sym = FC_SYM_ATOM + (u->kind & 0x3F);
    *cls = FC_FC_OTHER;
    return;
  }
  if (c == 0x25CB) c = 0x3007; /* ○ written for 〇 in dates */
  *sym = c & 0x1FFFFF;
  switch (u->cls) {
  case FC_C_HAN:
    if (fc_feat_is_hannum(c)) *cls = FC_FC_HANNUM;
    else if (c == 0x5E74 || c == 0x6708 || c == 0x65E5) *cls = FC_FC_DATE; /* 年月日 */
    else *cls = FC_FC_HAN;
    break;
  case FC_C_LATIN: *cls = FC_FC_LATIN; break;
  case FC_C_DIGIT:
  case FC_C_FWDIGIT: *cls = FC_FC_NUMBER; break;
  case FC_C_CJKPUNCT: *cls = FC_FC_CJKPUNCT; break;
  case FC_C_PUNCT: *cls = c == 0x3007 ? FC_FC_HANNUM : FC_FC_PUNCT; break;
  case FC_C_SPACE: *sym = FC_SYM_SPACE; *cls = FC_FC_SPACE; break;
  default: *cls = c == 0x3007 ? FC_FC_HANNUM : FC_FC_OTHER; break;
  }
}

/* Tags units [i, i+len) as one word into bits shift..shift+1 of c. */
static void fc_feat_mmword(uint8_t *c, size_t i, size_t len, int shift) {
  size_t k;
  for (k = 0; k < len; k++) {
    int tag = len == 1 ? FC_TAG_S : k == 0 ? FC_TAG_B : k + 1 == len ? FC_TAG_E : FC_TAG_M;
    c[i + k] = (uint8_t)((c[i + k] & ~(3 << shift)) | (tag << shift));
  }
}

void fc_feat_symbols(const fc_unit *u, size_t n, uint32_t *sym, uint8_t *cls) {
  size_t i;
  uint8_t *c = cls + FC_FEAT_PAD;
  for (i = 0; i < FC_FEAT_PAD; i++) {
    sym[i] = FC_SYM_BOS;
    sym[n + FC_FEAT_PAD + i] = FC_SYM_EOS;
    cls[i] = cls[n + FC_FEAT_PAD + i] = FC_FC_PAD;
  }
  for (i = 0; i < n; i++) fc_feat_unit(&u[i], &sym[i + FC_FEAT_PAD], &c[i]);
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
static uint64_t fc_feat_mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9u;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBu;
  x ^= x >> 31;
  return x;
}

/* Symbols are < 2^21, so three fit in 63 bits; the type is mixed in. */
static uint64_t fc_feat_hash(int t, uint64_t a, uint64_t b, uint64_t c) {
  uint64_t h = fc_feat_mix((a | (b << 21) | (c << 42)) + (uint64_t)(t + 1) * 0x9E3779B97F4A7C15u);
  return h ? h : 1;
}

static unsigned fc_feat_cap(unsigned v, unsigned cap) { return v < cap ? v : cap; }

void fc_feat_sym_bytes(const uint32_t *sym, size_t n, uint8_t *out) {
  size_t i;
  for (i = 0; i < n; i++) {
    out[3 * i] = (uint8_t)(sym[i] >> 16);
    out[3 * i + 1] = (uint8_t)(sym[i] >> 8);
    out[3 * i + 2] = (uint8_t)sym[i];
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

void fc_tlex_lengths(const fc_tlex *t, const uint32_t *sym, size_t n, uint8_t *l2) {
  size_t i;
  memset(l2, 0, n * 3);
  for (i = 0; i < n; i++) {
    uint64_t h = 0;
    size_t len, x;
    for (len = 1; len <= FC_FEAT_TLEX_MAX && i + len <= n; len++) {
      uint32_t f;
      h = fc_feat_wstep(h, sym[i + len - 1]);
      f = fc_tlex_find(t, h);
      if (f & FC_TLEX_WORD) {
        l2[3 * i] = (uint8_t)len;
        if (len > l2[3 * (i + len - 1) + 1]) l2[3 * (i + len - 1) + 1] = (uint8_t)len;
        for (x = i + 1; x + 1 < i + len; x++)
          if (len > l2[3 * x + 2]) l2[3 * x + 2] = (uint8_t)len;
      }
      if (!(f & FC_TLEX_PREFIX)) break;
    }
  }
}

uint64_t fc_feat_key(int t, const fc_feat_ctx *c, ptrdiff_t j) {
  const uint32_t *s = c->sym + FC_FEAT_PAD + j; /* s[0] is the anchor's symbol */
  const uint8_t *k = c->cls + FC_FEAT_PAD + j;
  const fc_unit *u = c->u;
  size_t n = c->n;
  int inside = j >= 0 && (size_t)j < n;
  switch (t) {
  case FC_G_UNI: return fc_feat_hash(t, s[0], 0, 0);
  case FC_G_BI: return fc_feat_hash(t, s[0], s[1], 0);
  case FC_G_SKIP: return fc_feat_hash(t, s[-1], s[1], 0);
  case FC_G_TRI: return fc_feat_hash(t, s[-1], s[0], s[1]);
  case FC_G_LEX:
    if (!inside) return fc_feat_hash(t, 99, 0, 0);
    return fc_feat_hash(t, fc_feat_cap(u[j].lb, 7), fc_feat_cap(u[j].le, 7), fc_feat_cap(u[j].lm, 7));
  case FC_G_LEXU:
    if (!inside) return 0;
    return fc_feat_hash(t, s[0], fc_feat_cap(u[j].lb, 4), fc_feat_cap(u[j].le, 4));
  case FC_G_CLS: return fc_feat_hash(t, k[-1] & 15u, k[0] & 15u, k[1] & 15u);
  case FC_G_REP: {
    unsigned bits = (unsigned)(s[0] == s[-1]) | (unsigned)(s[0] == s[1]) << 1 |
                    (unsigned)(s[-1] == s[1]) << 2 | (unsigned)(s[0] == s[-2]) << 3 |
                    (unsigned)(s[0] == s[2]) << 4;
    if (!inside) return 0;
    return fc_feat_hash(t, bits, k[0] & 15u, 0);
  }
  case FC_G_MM:
    if (!inside) return fc_feat_hash(t, 99, 0, 0);
    return fc_feat_hash(t, k[0] >> 4, 0, 0);
  case FC_G_MMU:
    if (!inside) return 0;
    return fc_feat_hash(t, s[0], k[0] >> 4, 0);
  case FC_G_TLEX: {
    const uint8_t *l;
    if (!inside || !c->l2) return fc_feat_hash(t, 99, 0, 0);
    l = c->l2 + 3 * j;
    return fc_feat_hash(t, fc_feat_cap(l[0], 7), fc_feat_cap(l[1], 7), fc_feat_cap(l[2], 7));
  }
  case FC_G_TLEXU: {
    const uint8_t *l;
    if (!inside || !c->l2) return 0;
    l = c->l2 + 3 * j;
    return fc_feat_hash(t, s[0], fc_feat_cap(l[0], 4), fc_feat_cap(l[1], 4));
  }
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
