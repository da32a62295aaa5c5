/* dat.c - double-array trie over UTF-8 bytes: build, validate, prefix search.
 *
 * Layout (docs/FORMAT.md, "LEXT"): an array of 32-bit little-endian units.
 * Unit 0 is the root.  A NODE unit (bit 31 clear) holds
 *     bits 0..7   label: the byte on the edge into this node (root: 0)
 *     bit  8      L: a key ends here; its value is in unit `base`
 *     bit  9      E: the offset field is scaled by 256
 *     bits 10..30 offset field (21 bits)
 * and its base is `index XOR offset`.  The child along byte b lives in unit
 * base + 1 + b and is a node unit whose label is b.  A VALUE unit has bit 31
 * set and the value in bits 0..30.  Unused units are FC_DAT_FREE.
 *
 * Why a label check is enough: the builder gives every node a base no other
 * node uses.  A unit at p with label b was placed by the node whose base is
 * p - 1 - b, so a node whose probe lands on p with a matching label is that
 * node.  Lookups never trust anything else: every index is compared with
 * n_units before it is read, so a corrupt array yields wrong answers at
 * worst, never an out-of-bounds read.
 *
 * Codes: the value slot is code 0 and byte b is code b + 1, so all 256 byte
 * values (NUL included) can appear in keys. */
#include <string.h>

#include "alloc.h"
#include "dat.h"
#include "lexnext.h"

#define DAT_V 0x80000000u        /* value unit */
#define DAT_L 0x100u             /* node has a value */
#define DAT_E 0x200u             /* offset field is scaled by 256 */
#define DAT_FIELD_SHIFT 10
#define DAT_FIELD_MAX 0x1FFFFFu  /* 21 bits */
#define DAT_FREE 0x80000000u     /* an unused unit */
#define DAT_MAX_UNITS 0x40000000u /* 2^30: keeps every offset encodable */
#define DAT_NONE FC_DAT_NO_NODE
#define DAT_MAX_KEY 255

/* ------------------------------------------------------------ reading */

/* Units are little-endian on disk.  On a little-endian host this is a plain
 * load; on a big-endian one a byte swap; elsewhere a byte-wise read. */
static inline uint32_t fc_dat_le32(const uint32_t *p) {
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  return *p;
#elif defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ && defined(__GNUC__)
  return __builtin_bswap32(*p);
#else
  const uint8_t *b = (const uint8_t *)p;
  return (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
#endif
}

static inline uint32_t dat_offset(uint32_t u) {
  uint32_t f = (u >> DAT_FIELD_SHIFT) & DAT_FIELD_MAX;
  return (u & DAT_E) ? f << 8 : f;
}

/* The base of node unit u at index i (no range check: callers compare). */
static inline size_t dat_base(size_t i, uint32_t u) { return i ^ (size_t)dat_offset(u); }

/* One transition; returns the child index or DAT_NONE. */
static inline uint32_t dat_child(const uint32_t *units, size_t n, size_t i, uint8_t byte) {
  uint32_t u, cu;
  size_t c;
  if (i >= n) return DAT_NONE;
  u = fc_dat_le32(units + i);
  if (u & DAT_V) return DAT_NONE;
  c = dat_base(i, u) + 1 + byte;
  if (c >= n) return DAT_NONE;
  cu = fc_dat_le32(units + c);
  if ((cu & (DAT_V | 0xFFu)) != byte) return DAT_NONE;
  return (uint32_t)c;
}

/* The value at node i, if it has one. */
static inline int dat_value_at(const uint32_t *units, size_t n, size_t i, uint32_t *value) {
  uint32_t u, vu;
  size_t b;
  if (i >= n) return 0;
  u = fc_dat_le32(units + i);
  if ((u & (DAT_V | DAT_L)) != DAT_L) return 0;
  b = dat_base(i, u);
  if (b >= n) return 0;
  vu = fc_dat_le32(units + b);
  if (!(vu & DAT_V)) return 0;
  if (value) *value = vu & ~DAT_V;
  return 1;
}

fenci_rc fc_dat_view(fc_dat *d, const void *bytes, size_t size, char *err, size_t errlen) {
  uint32_t root;
  if (!d) return FENCI_BADARG;
  d->units = NULL;
  d->n_units = 0;
  if (!bytes || size == 0) {
    fc_errf(err, errlen, "trie: empty");
    return FENCI_BADFORMAT;
  }
  if (((uintptr_t)bytes & 3) != 0) {
    fc_errf(err, errlen, "trie: data not 4-byte aligned");
    return FENCI_BADFORMAT;
  }
  if (size % 4 != 0) {
    fc_errf(err, errlen, "trie: size %zu is not a multiple of 4", size);
    return FENCI_BADFORMAT;
  }
  if (size / 4 > DAT_MAX_UNITS) {
    fc_errf(err, errlen, "trie: %zu units, more than the maximum %u", size / 4, DAT_MAX_UNITS);
    return FENCI_BADFORMAT;
  }
  root = fc_dat_le32((const uint32_t *)bytes);
  if (root & (DAT_V | DAT_L | 0xFFu)) {
    fc_errf(err, errlen, "trie: bad root unit 0x%08x", (unsigned)root);
    return FENCI_BADFORMAT;
  }
  d->units = (const uint32_t *)bytes;
  d->n_units = size / 4;
  return FENCI_OK;
}

/* The prefix walk behind fc_dat_prefix and fc_dat_prefix_from: from node,
 * along s, reporting keys; with utf8 set only where a character ends (keys
 * are whole UTF-8 words, so this skips useless value probes). */
static size_t dat_prefix_walk(const fc_dat *d, uint32_t node, const uint8_t *s, size_t len, int utf8,
                              fc_dat_match *out, size_t cap) {
  const uint32_t *units = d->units;
  size_t n = d->n_units, i, found = 0;
  uint32_t v;
  if (!units || !s) return 0;
  if (len > DAT_MAX_KEY) len = DAT_MAX_KEY;
  for (i = 0; i < len; i++) {
    node = dat_child(units, n, node, s[i]);
    if (node == DAT_NONE) break;
    if (utf8 && i + 1 < len && (s[i + 1] & 0xC0) == 0x80) continue;
    if (dat_value_at(units, n, node, &v)) {
      if (found < cap && out) {
        out[found].len = (uint32_t)(i + 1);
        out[found].value = v;
      }
      found++;
    }
  }
  return found;
}

/* The code point of the three-byte sequence at c. */
static inline uint32_t dat_cp3(const uint8_t *c) {
  return (uint32_t)(c[0] & 0x0F) << 12 | (uint32_t)(c[1] & 0x3F) << 6 | (c[2] & 0x3Fu);
}

size_t fc_dat_prefix3(const fc_dat *d, uint32_t *node, const uint8_t *s, size_t nchars, const fc_lexnext *next,
                      fc_dat_match *out, size_t cap) {
  const uint32_t *units = d->units;
  size_t n = d->n_units, i = *node, k, found = 0;
  uint32_t u;
  *node = DAT_NONE;
  if (!units || !s || i >= n) return 0;
  if (nchars > DAT_MAX_KEY / 3) nchars = DAT_MAX_KEY / 3;
  /* the filter before the node's own unit: most walks end here, and the
   * unit is a cache miss the filter's block mostly is not */
  if (next && nchars && !fc_lexnext_may(next, (uint32_t)i, dat_cp3(s))) return 0;
  /* the unit of the current node is carried along, so each byte costs one
   * read instead of two */
  u = fc_dat_le32(units + i);
  for (k = 0; k < nchars; k++) {
    const uint8_t *c = s + 3 * k;
    int b;
    if (k && next && !fc_lexnext_may(next, (uint32_t)i, dat_cp3(c))) return found;
    for (b = 0; b < 3; b++) {
      size_t ch;
      uint32_t cu;
      if (u & DAT_V) return found;
      ch = dat_base(i, u) + 1 + c[b];
      if (ch >= n) return found;
      cu = fc_dat_le32(units + ch);
      if ((cu & (DAT_V | 0xFFu)) != c[b]) return found;
      i = ch;
      u = cu;
    }
    if ((u & (DAT_V | DAT_L)) == DAT_L) {
      size_t vb = dat_base(i, u);
      uint32_t vu = vb < n ? fc_dat_le32(units + vb) : 0;
      if (vu & DAT_V) {
        if (found < cap && out) {
          out[found].len = (uint32_t)(3 * (k + 1));
          out[found].value = vu & ~DAT_V;
        }
        found++;
      }
    }
  }
  *node = (uint32_t)i;
  return found;
}

uint32_t fc_dat_next_child(const fc_dat *d, uint32_t node, unsigned from, uint8_t *byte) {
  size_t n = d->n_units, base, pos;
  uint32_t u;
  if (!d->units || node >= n) return DAT_NONE;
  u = fc_dat_le32(d->units + node);
  if (u & DAT_V) return DAT_NONE;
  base = dat_base(node, u);
  for (; from < 256; from++) {
    pos = base + 1 + from;
    if (pos >= n) break;
    if ((fc_dat_le32(d->units + pos) & (DAT_V | 0xFFu)) == from) {
      *byte = (uint8_t)from;
      return (uint32_t)pos;
    }
  }
  return DAT_NONE;
}

size_t fc_dat_prefix(const fc_dat *d, const uint8_t *s, size_t len, fc_dat_match *out, size_t cap) {
  return dat_prefix_walk(d, 0, s, len, 0, out, cap);
}

int fc_dat_find(const fc_dat *d, const uint8_t *s, size_t len, uint32_t *value) {
  size_t i;
  uint32_t node = 0;
  if (!d->units || len == 0 || len > DAT_MAX_KEY || !s) return 0;
  for (i = 0; i < len; i++) {
    node = dat_child(d->units, d->n_units, node, s[i]);
    if (node == DAT_NONE) return 0;
  }
  return dat_value_at(d->units, d->n_units, node, value);
}

int fc_dat_find_from(const fc_dat *d, uint32_t node, const uint8_t *s, size_t len, uint32_t *value) {
  size_t i;
  if (!d->units || len > DAT_MAX_KEY || (!s && len)) return 0;
  for (i = 0; i < len; i++) {
    node = dat_child(d->units, d->n_units, node, s[i]);
    if (node == DAT_NONE) return 0;
  }
  return dat_value_at(d->units, d->n_units, node, value);
}

int fc_dat_step(const fc_dat *d, uint32_t *node, uint8_t byte) {
  uint32_t c;
  if (!d->units || !node) return 0;
  c = dat_child(d->units, d->n_units, *node, byte);
  if (c == DAT_NONE) return 0;
  *node = c;
  return 1;
}

int fc_dat_value(const fc_dat *d, uint32_t node, uint32_t *value) {
  if (!d->units) return 0;
  return dat_value_at(d->units, d->n_units, node, value);
}

/* ------------------------------------------------------------- checking */

/* A depth-first walk over every reachable node, probing all 256 bytes at
 * each.  A visited bitmap turns any sharing or cycle into an error instead of
 * an endless walk; the path stack is bounded by the 255-byte key limit.
 * Afterwards every unit nothing reached must be FC_DAT_FREE. */
fenci_rc fc_dat_check(const fc_dat *d, char *err, size_t errlen) {
  struct {
    uint32_t node;
    uint16_t next;     /* next byte to probe, 256 = done */
    uint16_t children; /* children found so far */
  } path[DAT_MAX_KEY + 1];
  size_t n, i, n_keys = 0;
  uint8_t *seen;
  int depth = 0;
  fenci_rc rc = FENCI_OK;

  if (!d || !d->units || d->n_units == 0) {
    fc_errf(err, errlen, "trie: empty");
    return FENCI_BADFORMAT;
  }
  n = d->n_units;
  if (n > DAT_MAX_UNITS || (fc_dat_le32(d->units) & (DAT_V | DAT_L | 0xFFu))) {
    fc_errf(err, errlen, "trie: bad root unit or size");
    return FENCI_BADFORMAT;
  }
  seen = fc_calloc(NULL, (n + 7) / 8, 1);
  if (!seen) {
    fc_errf(err, errlen, "trie: out of memory checking %zu units", n);
    return FENCI_NOMEM;
  }
#define DAT_SEEN(x) (seen[(x) >> 3] & (1u << ((x) & 7)))
#define DAT_MARK(x) (seen[(x) >> 3] |= (uint8_t)(1u << ((x) & 7)))
  DAT_MARK(0);
  path[0].node = 0;
  path[0].next = 0;
  path[0].children = 0;
  while (depth >= 0) {
    uint32_t c, v;
    uint32_t u;
    size_t base;
    if (path[depth].next > 255) {
      uint32_t nd = path[depth].node;
      if (nd != 0 && path[depth].children == 0 && !dat_value_at(d->units, n, nd, NULL)) {
        fc_errf(err, errlen, "trie: unit %u is a dead end (no key ends at or below it)", (unsigned)nd);
        rc = FENCI_BADFORMAT;
        goto done;
      }
      depth--;
      continue;
    }
    /* Scan the node's window for the next unit whose label matches. */
    u = fc_dat_le32(d->units + path[depth].node);
    base = dat_base(path[depth].node, u);
    {
      unsigned b = path[depth].next;
      c = DAT_NONE;
      for (; b < 256; b++) {
        size_t pos = base + 1 + b;
        if (pos >= n) {
          b = 256;
          break;
        }
        if ((fc_dat_le32(d->units + pos) & (DAT_V | 0xFFu)) == b) {
          c = (uint32_t)pos;
          break;
        }
      }
      path[depth].next = (uint16_t)(b + 1);
      if (b >= 256) {
        path[depth].next = 256;
        continue;
      }
    }
    path[depth].children++;
    if (DAT_SEEN(c)) {
      fc_errf(err, errlen, "trie: unit %u is reached twice", (unsigned)c);
      rc = FENCI_BADFORMAT;
      goto done;
    }
    if (depth + 1 > DAT_MAX_KEY) {
      fc_errf(err, errlen, "trie: a key is longer than %d bytes", DAT_MAX_KEY);
      rc = FENCI_BADFORMAT;
      goto done;
    }
    DAT_MARK(c);
    u = fc_dat_le32(d->units + c);
    if (u & DAT_L) {
      base = dat_base(c, u);
      if (!dat_value_at(d->units, n, c, &v)) {
        fc_errf(err, errlen, "trie: unit %u has a value slot %zu that is out of range or not a value",
                (unsigned)c, base);
        rc = FENCI_BADFORMAT;
        goto done;
      }
      if (DAT_SEEN(base)) {
        fc_errf(err, errlen, "trie: value unit %zu is reached twice", base);
        rc = FENCI_BADFORMAT;
        goto done;
      }
      DAT_MARK(base);
      n_keys++;
    }
    depth++;
    path[depth].node = c;
    path[depth].next = 0;
    path[depth].children = 0;
  }
  for (i = 0; i < n; i++) {
    if (!DAT_SEEN(i) && fc_dat_le32(d->units + i) != DAT_FREE) {
      fc_errf(err, errlen, "trie: unit %zu is unreachable but not free (0x%08x)", i,
              (unsigned)fc_dat_le32(d->units + i));
      rc = FENCI_BADFORMAT;
      goto done;
    }
  }
  (void)n_keys;
done:
#undef DAT_SEEN
#undef DAT_MARK
  fc_free(NULL, seen);
  return rc;
}

/* ------------------------------------------------------------- building */

/* Free-slot search.  Every unused position below cap is on a doubly-linked
 * candidate list in index order.  For a node with codes c0 < c1 < ... we
 * walk the list: a candidate f gives base f - c0, which fits if that base is
 * unused by any other node, its offset is encodable and every other f - c0 +
 * ci is free.  A position that fails DAT_MAX_FAILS times leaves the list
 * (it stays free, just no longer searched): this bounds the total search
 * work by DAT_MAX_FAILS * cap, the usual "next check position" trick. */
#define DAT_MAX_FAILS 16

enum { DAT_OCC = 1, DAT_BASE_USED = 2, DAT_LISTED = 4 };

typedef struct dat_builder {
  const fenci_alloc *a;
  uint32_t *units;  /* host-order units */
  uint32_t *nxt;    /* candidate list links */
  uint32_t *prv;
  uint8_t *flags;   /* DAT_OCC | DAT_BASE_USED | DAT_LISTED */
  uint8_t *fails;   /* failed tries per listed position */
  size_t cap;       /* positions allocated */
  size_t top;       /* highest occupied position + 1 */
  uint32_t head, tail;
} dat_builder;

typedef struct dat_job {
  uint32_t node;  /* unit index of the node */
  uint32_t depth; /* bytes consumed */
  size_t lo, hi;  /* key range below it */
} dat_job;

static void dat_unlink(dat_builder *b, uint32_t p) {
  uint32_t nx = b->nxt[p], pv = b->prv[p];
  if (!(b->flags[p] & DAT_LISTED)) return;
  if (pv == DAT_NONE) b->head = nx; else b->nxt[pv] = nx;
  if (nx == DAT_NONE) b->tail = pv; else b->prv[nx] = pv;
  b->flags[p] &= (uint8_t)~DAT_LISTED;
}

static int dat_grow(dat_builder *b, size_t need) {
  size_t nc = b->cap ? b->cap : 1024, i;
  void *p;
  if (need <= b->cap) return 0;
  if (need > DAT_MAX_UNITS) return -1;
  while (nc < need) nc *= 2;
  if (nc > DAT_MAX_UNITS) nc = DAT_MAX_UNITS;
  if (!(p = fc_realloc(b->a, b->units, nc * 4))) return -1;
  b->units = p;
  if (!(p = fc_realloc(b->a, b->nxt, nc * 4))) return -1;
  b->nxt = p;
  if (!(p = fc_realloc(b->a, b->prv, nc * 4))) return -1;
  b->prv = p;
  if (!(p = fc_realloc(b->a, b->flags, nc))) return -1;
  b->flags = p;
  if (!(p = fc_realloc(b->a, b->fails, nc))) return -1;
  b->fails = p;
  for (i = b->cap; i < nc; i++) {
    b->units[i] = 0;
    b->flags[i] = DAT_LISTED;
    b->fails[i] = 0;
    b->nxt[i] = DAT_NONE;
    b->prv[i] = b->tail;
    if (b->tail == DAT_NONE) b->head = (uint32_t)i; else b->nxt[b->tail] = (uint32_t)i;
    b->tail = (uint32_t)i;
  }
  b->cap = nc;
  return 0;
}

/* The unit bits that encode base for node i, or DAT_NONE if not encodable. */
static uint32_t dat_encode(size_t i, size_t base) {
  size_t off = i ^ base;
  if (off <= DAT_FIELD_MAX) return (uint32_t)off << DAT_FIELD_SHIFT;
  if ((off & 0xFF) == 0 && (off >> 8) <= DAT_FIELD_MAX)
    return ((uint32_t)(off >> 8) << DAT_FIELD_SHIFT) | DAT_E;
  return DAT_NONE;
}

static int dat_fits(const dat_builder *b, size_t node, size_t base, const uint16_t *codes, int k) {
  int j;
  if (base == 0) return 0;
  if (base < b->cap && (b->flags[base] & DAT_BASE_USED)) return 0;
  if (dat_encode(node, base) == DAT_NONE) return 0;
  for (j = 0; j < k; j++) {
    size_t p = base + codes[j];
    if (p < b->cap && (b->flags[p] & DAT_OCC)) return 0;
  }
  return 1;
}

/* Finds a base for node with k >= 1 ascending codes; DAT_NONE if the array
 * would grow past DAT_MAX_UNITS. */
static size_t dat_find_base(dat_builder *b, size_t node, const uint16_t *codes, int k) {
  uint32_t f = b->head, nx;
  size_t base;
  for (; f != DAT_NONE; f = nx) {
    nx = b->nxt[f];
    if (f > codes[0] && dat_fits(b, node, f - codes[0], codes + 1, k - 1)) return f - codes[0];
    if (++b->fails[f] >= DAT_MAX_FAILS) dat_unlink(b, f);
  }
  /* Nothing on the list fits: go past the end of the used area. */
  base = b->top > codes[0] ? b->top - codes[0] : 1;
  while (!dat_fits(b, node, base, codes, k)) {
    base++;
    if (base + 257 > DAT_MAX_UNITS) return DAT_NONE;
  }
  return base;
}

static void dat_occupy(dat_builder *b, size_t p, uint32_t unit) {
  b->units[p] = unit;
  b->flags[p] |= DAT_OCC;
  dat_unlink(b, (uint32_t)p);
  if (p + 1 > b->top) b->top = p + 1;
}

static int dat_keycmp(const uint8_t *a, size_t na, const uint8_t *b, size_t nb) {
  size_t m = na < nb ? na : nb;
  int c = m ? memcmp(a, b, m) : 0;
  if (c) return c;
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/* End of the group of keys in [s, hi) whose byte at depth is byte (keys[s]
 * has it; the keys of [s, hi) share their first depth bytes and are
 * sorted, so the group is a prefix of the range).  The last key is tried
 * first, as a node with one child is the common case; otherwise galloping,
 * then bisection.  Scanning the keys one by one instead costs a pass over
 * every key at every depth of a long shared prefix, which for many keys is
 * a cache miss per key and depth. */
static size_t dat_group_end(const uint8_t *const *keys, size_t s, size_t hi, size_t depth, uint8_t byte) {
  size_t lo = s + 1, step = 1, top;
  if (keys[hi - 1][depth] == byte) return hi;
  /* keys[hi - 1] differs: find the first key after s that differs */
  while (lo + step < hi && keys[lo + step - 1][depth] == byte) {
    lo += step;
    step *= 2;
  }
  top = lo + step < hi ? lo + step : hi - 1; /* keys[top] differs or top is hi - 1 (differs) */
  while (lo < top) {                         /* first differing key in [lo, top] */
    size_t mid = lo + (top - lo) / 2;
    if (keys[mid][depth] == byte) lo = mid + 1;
    else top = mid;
  }
  return lo;
}

fenci_rc fc_dat_build(const fenci_alloc *a, const uint8_t *const *keys, const size_t *lens,
                      const uint32_t *values, size_t n, uint8_t **out, size_t *out_size) {
  dat_builder b;
  dat_job *stack = NULL;
  size_t sp = 0, scap = 0, i;
  fenci_rc rc = FENCI_OK;
  uint8_t *img;

  if (!out || !out_size || (n && (!keys || !lens || !values))) return FENCI_BADARG;
  *out = NULL;
  *out_size = 0;
  for (i = 0; i < n; i++) {
    if (lens[i] == 0 || lens[i] > DAT_MAX_KEY || !keys[i] || values[i] & DAT_V) return FENCI_BADARG;
    if (i && dat_keycmp(keys[i - 1], lens[i - 1], keys[i], lens[i]) >= 0) return FENCI_BADARG;
  }

  memset(&b, 0, sizeof b);
  b.a = a;
  b.head = b.tail = DAT_NONE;
  if (dat_grow(&b, 1024)) goto nomem;
  dat_occupy(&b, 0, 0); /* the root: label 0, offset filled in below */
  b.flags[0] |= DAT_BASE_USED; /* base 0 would put a value slot on the root */

  if (n) {
    if (fc_grow(a, (void **)&stack, &scap, 1, sizeof *stack)) goto nomem;
    stack[0].node = 0;
    stack[0].depth = 0;
    stack[0].lo = 0;
    stack[0].hi = n;
    sp = 1;
  }
  while (sp) {
    dat_job job = stack[--sp];
    uint16_t codes[257];
    size_t lo[257], hi[257];
    int k = 0, j;
    size_t base, s = job.lo;
    uint32_t leafval = 0, enc;
    int leaf = 0;

    if (lens[s] == job.depth) { /* sorted: the shortest key comes first */
      leaf = 1;
      leafval = values[s];
      codes[k] = 0;
      lo[k] = hi[k] = s;
      k++;
      s++;
    }
    while (s < job.hi) {
      uint8_t byte = keys[s][job.depth];
      size_t e = dat_group_end(keys, s, job.hi, job.depth, byte);
      codes[k] = (uint16_t)(byte + 1);
      lo[k] = s;
      hi[k] = e;
      k++;
      s = e;
    }
    base = dat_find_base(&b, job.node, codes, k);
    if (base == DAT_NONE) {
      rc = FENCI_NOMEM; /* more than DAT_MAX_UNITS units */
      goto fail;
    }
    if (dat_grow(&b, base + codes[k - 1] + 1)) goto nomem;
    enc = dat_encode(job.node, base);
    b.units[job.node] |= enc | (leaf ? DAT_L : 0u);
    b.flags[base] |= DAT_BASE_USED;
    if (leaf) dat_occupy(&b, base, DAT_V | leafval);
    for (j = leaf; j < k; j++) dat_occupy(&b, base + codes[j], (uint32_t)(codes[j] - 1));
    /* Children go on the stack in reverse so the smallest byte is built
     * first: a plain depth-first order keeps offsets short. */
    if (fc_grow(a, (void **)&stack, &scap, sp + (size_t)k, sizeof *stack)) goto nomem;
    for (j = k - 1; j >= leaf; j--) {
      stack[sp].node = (uint32_t)(base + codes[j]);
      stack[sp].depth = job.depth + 1;
      stack[sp].lo = lo[j];
      stack[sp].hi = hi[j];
      sp++;
    }
  }

  img = fc_malloc(a, b.top * 4);
  if (!img) goto nomem;
  for (i = 0; i < b.top; i++) {
    uint32_t u = (b.flags[i] & DAT_OCC) ? b.units[i] : DAT_FREE;
    img[4 * i] = (uint8_t)u;
    img[4 * i + 1] = (uint8_t)(u >> 8);
    img[4 * i + 2] = (uint8_t)(u >> 16);
    img[4 * i + 3] = (uint8_t)(u >> 24);
  }
  *out = img;
  *out_size = b.top * 4;
  goto fail; /* shared cleanup */
nomem:
  rc = FENCI_NOMEM;
fail:
  fc_free(a, stack);
  fc_free(a, b.units);
  fc_free(a, b.nxt);
  fc_free(a, b.prv);
  fc_free(a, b.flags);
  fc_free(a, b.fails);
  return rc;
}

/* Prefix search that starts at an inner node: the first byte of s is the
 * next edge after node.  Lets callers skip steps they have cached (the
 * lexicon caches the node reached by each common first character).  Only
 * prefixes that end on a UTF-8 character boundary are reported: lexicon
 * keys are valid UTF-8, and skipping the other value probes saves a
 * memory access per byte. */
size_t fc_dat_prefix_from(const fc_dat *d, uint32_t node, const uint8_t *s, size_t len, fc_dat_match *out,
                          size_t cap) {
  return dat_prefix_walk(d, node, s, len, 1, out, cap);
}
