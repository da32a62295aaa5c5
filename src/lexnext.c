/* lexnext.c - building, validating and checking the next-character filter
 * (LEXN, lexnext.h). */
#include <string.h>

#include "alloc.h"
#include "fmt.h"
#include "lexnext.h"

#define FC_LEXNEXT_HDR 16
#define FC_LEXNEXT_STACK 257 /* a key has at most 255 bytes: one frame a byte, and the root */

static int fc_lexnext_main(uint32_t cp) { return cp >= FC_LEXNEXT_LO && cp <= FC_LEXNEXT_HI; }

/* One byte of the depth-first walk: the node, the next byte to try, and
 * the character being read (where it began, its bits so far, the bytes it
 * still needs; need 0: the node ends a character). */
typedef struct lexnext_frame {
  uint32_t node, start, acc;
  uint16_t next, depth; /* depth: characters from the root to start (or node) */
  uint8_t need;
} lexnext_frame;

/* Calls fn(ctx, node, cp) for every edge the filter holds (lexnext.h), in
 * the order of the trie.  Returns 0, or -1 when a path is longer than any
 * key may be (a corrupt trie: fc_dat_check says where). */
static int fc_lexnext_edges(const fc_dat *trie, void (*fn)(void *ctx, uint32_t node, uint32_t cp), void *ctx) {
  lexnext_frame st[FC_LEXNEXT_STACK];
  int top = 0;
  memset(&st[0], 0, sizeof st[0]);
  while (top >= 0) {
    lexnext_frame *f = &st[top];
    uint8_t b;
    uint32_t child = fc_dat_next_child(trie, f->node, f->next, &b), acc;
    lexnext_frame g;
    if (child == FC_DAT_NO_NODE) {
      top--;
      continue;
    }
    f->next = (uint16_t)(b + 1);
    memset(&g, 0, sizeof g);
    g.node = child;
    g.depth = f->depth;
    if (f->need == 0) { /* b leads a character */
      uint8_t len;
      if (b < 0x80) len = 1;
      else if (b < 0xC0) continue; /* no character: never asked about */
      else len = b < 0xE0 ? 2 : b < 0xF0 ? 3 : b < 0xF8 ? 4 : 0;
      if (!len) continue;
      acc = len == 1 ? b : (uint32_t)(b & (0x7Fu >> len));
      g.start = f->node;
      g.need = (uint8_t)(len - 1);
    } else {
      if ((b & 0xC0) != 0x80) continue;
      acc = f->acc << 6 | (b & 0x3Fu);
      g.start = f->start;
      g.need = (uint8_t)(f->need - 1);
    }
    g.acc = acc;
    if (g.need == 0) {
      /* a whole character: the edge, and on along main-block ones */
      int main = fc_lexnext_main(acc);
      if (g.depth >= 2 || (g.depth == 1 && !main)) fn(ctx, g.start, acc);
      if (!main) continue;
      g.depth++;
      if (g.depth == 0) return -1; /* wrapped: no key is that long */
    }
    if (top + 1 >= FC_LEXNEXT_STACK) return -1;
    st[++top] = g;
  }
  return 0;
}

typedef struct lexnext_fill {
  uint8_t *blocks; /* NULL: count only */
  uint32_t bits;
  size_t n;
} lexnext_fill;

static void fc_lexnext_add(void *ctx, uint32_t node, uint32_t cp) {
  lexnext_fill *f = ctx;
  f->n++;
  if (f->blocks) {
    uint64_t x = fc_lexnext_hash(node, cp), m, b;
    uint8_t *p = f->blocks + 8 * (size_t)(x >> (64 - f->bits));
    m = 1ull << ((x >> (58 - f->bits)) & 63) | 1ull << ((x >> (52 - f->bits)) & 63);
    b = fc_rd64(p) | m;
    fc_wr64(p, b);
  }
}

fenci_rc fc_lexnext_build(const fc_dat *trie, fc_buf *out, const fenci_alloc *a) {
  lexnext_fill f = {NULL, 1, 0};
  size_t n_blocks;
  int bad;
  /* about ten edges a 64-bit block: one query in 15 to 20 passes wrongly */
  if (fc_lexnext_edges(trie, fc_lexnext_add, &f) != 0) return FENCI_BADARG;
  while (f.bits < FC_LEXNEXT_MAX_BITS && ((size_t)1 << f.bits) * 10 < f.n) f.bits++;
  n_blocks = (size_t)1 << f.bits;
  f.blocks = fc_calloc(a, n_blocks, 8);
  if (!f.blocks) return FENCI_NOMEM;
  f.n = 0;
  (void)fc_lexnext_edges(trie, fc_lexnext_add, &f);
  bad = fc_buf_u32(out, f.bits) || fc_buf_u32(out, (uint32_t)trie->n_units) || fc_buf_u32(out, (uint32_t)f.n) ||
        fc_buf_u32(out, 0) || fc_buf_put(out, f.blocks, n_blocks * 8);
  fc_free(a, f.blocks);
  return bad ? FENCI_NOMEM : FENCI_OK;
}

fenci_rc fc_lexnext_view(fc_lexnext *f, const uint8_t *data, size_t size, const fc_dat *trie, char *err,
                         size_t errlen) {
  uint32_t bits;
  memset(f, 0, sizeof *f);
  if (size < FC_LEXNEXT_HDR) {
    fc_errf(err, errlen, "LEXN section too short");
    return FENCI_BADFORMAT;
  }
  bits = fc_rd32(data);
  if (bits < 1 || bits > FC_LEXNEXT_MAX_BITS || size != FC_LEXNEXT_HDR + ((size_t)8 << bits)) {
    fc_errf(err, errlen, "LEXN section: bad table size");
    return FENCI_BADFORMAT;
  }
  if (fc_rd32(data + 4) != trie->n_units) {
    fc_errf(err, errlen, "LEXN section was built for a trie of %u units, LEXT has %zu", (unsigned)fc_rd32(data + 4),
            trie->n_units);
    return FENCI_BADFORMAT;
  }
  /* blocks are read with memcpy in host order: the format is little-endian */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
  return FENCI_OK; /* no filter: every walk is made */
#else
  f->blocks = data + FC_LEXNEXT_HDR;
  f->bits = bits;
  return FENCI_OK;
#endif
}

typedef struct lexnext_probe {
  const fc_lexnext *f;
  size_t missing;
  uint32_t node, cp; /* the first edge missing */
} lexnext_probe;

static void fc_lexnext_probe(void *ctx, uint32_t node, uint32_t cp) {
  lexnext_probe *p = ctx;
  if (fc_lexnext_may(p->f, node, cp)) return;
  if (!p->missing++) {
    p->node = node;
    p->cp = cp;
  }
}

fenci_rc fc_lexnext_check(const fc_lexnext *f, const fc_dat *trie, char *err, size_t errlen) {
  lexnext_probe p;
  if (!f->blocks) return FENCI_OK;
  memset(&p, 0, sizeof p);
  p.f = f;
  if (fc_lexnext_edges(trie, fc_lexnext_probe, &p) != 0) {
    fc_errf(err, errlen, "LEXN: the trie has a path longer than any key");
    return FENCI_BADFORMAT;
  }
  if (p.missing) {
    fc_errf(err, errlen, "LEXN: %zu edges of the trie are not in the filter (the first: node %u, U+%04X)", p.missing,
            (unsigned)p.node, (unsigned)p.cp);
    return FENCI_BADFORMAT;
  }
  return FENCI_OK;
}
