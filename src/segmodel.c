/* segmodel.c - the trained segmenter: validated views over the weight
 * sections of a model file, and the B/M/E/S decoder.
 *
 * Sections (all little-endian; docs/FORMAT.md has the byte-level table):
 *   SEGH  header: "FCSG", feature version, number of tables, transition
 *         weights (int32 4x4, start[4], end[4]), then one 32-byte record per
 *         feature-group table: type, n_blocks, n_slots, max_probe, n_entries,
 *         byte offset into SEGW, 2 reserved words.
 *   SEGW  the tables: open-addressing hash tables of n_slots slots, each slot
 *         a uint32 fingerprint (0 = empty) followed by n_blocks*4 int16
 *         weights.  A key's home slot is ((key >> 32) * n_slots) >> 32 and its
 *         fingerprint the low 32 bits (0 replaced by 1); probing is linear
 *         and never goes past max_probe slots, so a corrupt table can give
 *         wrong weights but never loops or reads outside the section.
 *   SEGL  optional: the training-word lexicon read by the tlex feature
 *         groups: "FCSL", n_slots, max_probe, reserved (uint32 each), then
 *         n_slots slots of 8 bytes (see fc_tlex in feat.h).
 * The tables are used in place from the (mmap'd) file: loading only reads
 * the header, so it takes microseconds whatever the model size. */
#include <string.h>

#include "alloc.h"
#include "feat.h"
#include "segmodel.h"

#define FC_SEG_HDR 112u   /* bytes before the table records */
#define FC_SEG_REC 32u    /* bytes per table record */
#define FC_SEG_TMAX (1 << 30)
#define FC_SEG_KEXTRA (2 * FC_FEAT_PAD + 2) /* anchors beyond the units */

typedef struct fc_segtab {
  const uint8_t *slots; /* n_slots * slot_size bytes inside SEGW */
  uint32_t n_slots;     /* > 0 */
  uint32_t max_probe;   /* longest probe sequence, < n_slots */
  uint32_t slot_size;   /* 4 + n_blocks * 8 */
  int type;             /* FC_G_* */
  int n_blocks;         /* fc_feat_types[type].n_blocks */
} fc_segtab;

struct fc_segmodel {
  int32_t trans[16];    /* prev*4 + cur */
  int32_t start[4];     /* first unit */
  int32_t end[4];       /* last unit */
  int n_tabs;           /* tables present */
  int has_tlex;         /* SEGL present */
  fc_tlex tlex;         /* SEGL table */
  fc_segtab tab[FC_G_NTYPES];
};

struct fc_segscratch {
  uint32_t *sym;  /* cap + 2*FC_FEAT_PAD symbols */
  uint8_t *cls;   /* cap + 2*FC_FEAT_PAD classes */
  int32_t *emis;  /* cap * 4 emission scores */
  uint8_t *bp;    /* cap * 4 back pointers */
  uint8_t *l2;    /* cap * 3 training-lexicon lengths */
  uint64_t *keys; /* FC_G_NTYPES * (cap + FC_SEG_KEXTRA) feature keys */
  size_t cap;     /* units the arrays hold */
  fenci_alloc a;  /* allocator of the arrays */
};

static int32_t fc_seg_rdi32(const uint8_t *p) { return (int32_t)fc_rd32(p); }

fenci_rc fc_segmodel_load(fc_segmodel **out, const fc_file *f, const fenci_alloc *a, char *err,
                          size_t errlen) {
  const fc_section *h, *w;
  fc_segmodel *m;
  uint32_t version, n_tabs, i;
  const uint8_t *p;
  *out = NULL;
  h = fc_fmt_find(f, "SEGH");
  if (!h) return FENCI_OK; /* lexicon-only model */
  w = fc_fmt_find(f, "SEGW");
  if (!w) {
    fc_errf(err, errlen, "segmenter: SEGH section without SEGW");
    return FENCI_BADFORMAT;
  }
  p = h->data;
  if (h->size < FC_SEG_HDR || memcmp(p, "FCSG", 4) != 0) {
    fc_errf(err, errlen, "segmenter: bad SEGH header");
    return FENCI_BADFORMAT;
  }
  version = fc_rd32(p + 4);
  if (version != FC_FEAT_VERSION) {
    fc_errf(err, errlen, "segmenter: model has feature version %u, this library reads version %u",
            (unsigned)version, (unsigned)FC_FEAT_VERSION);
    return FENCI_BADFORMAT;
  }
  n_tabs = fc_rd32(p + 8);
  if (n_tabs > FC_G_NTYPES || (h->size - FC_SEG_HDR) / FC_SEG_REC < n_tabs) {
    fc_errf(err, errlen, "segmenter: SEGH has %u tables in %zu bytes", (unsigned)n_tabs, h->size);
    return FENCI_BADFORMAT;
  }
  m = fc_calloc(a, 1, sizeof *m);
  if (!m) return FENCI_NOMEM;
  for (i = 0; i < 24; i++) {
    int32_t v = fc_seg_rdi32(p + 16 + 4 * i);
    if (v > FC_SEG_TMAX || v < -FC_SEG_TMAX) {
      fc_errf(err, errlen, "segmenter: transition weight %u out of range", (unsigned)i);
      fc_free(a, m);
      return FENCI_BADFORMAT;
    }
    if (i < 16) m->trans[i] = v;
    else if (i < 20) m->start[i - 16] = v;
    else m->end[i - 20] = v;
  }
  for (i = 0; i < n_tabs; i++) {
    const uint8_t *r = p + FC_SEG_HDR + FC_SEG_REC * i;
    uint32_t type = fc_rd32(r), nb = fc_rd32(r + 4), n_slots = fc_rd32(r + 8);
    uint32_t max_probe = fc_rd32(r + 12), n_entries = fc_rd32(r + 16), off = fc_rd32(r + 20);
    uint32_t k, slot_size;
    const char *why = NULL;
    if (type >= FC_G_NTYPES) why = "unknown feature type";
    else if ((int)nb != fc_feat_types[type].n_blocks) why = "wrong number of blocks";
    else {
      for (k = 0; k < i; k++)
        if (m->tab[k].type == (int)type) why = "duplicate feature type";
    }
    slot_size = 4 + 8 * nb;
    if (!why) {
      if (n_slots == 0 || max_probe >= n_slots || n_entries > n_slots) why = "bad table counts";
      else if (off % 4 != 0 || off > w->size) why = "bad table offset";
      else if ((w->size - off) / slot_size < n_slots) why = "table runs past the SEGW section";
    }
    if (why) {
      fc_errf(err, errlen, "segmenter: table %u: %s", (unsigned)i, why);
      fc_free(a, m);
      return FENCI_BADFORMAT;
    }
    m->tab[i].slots = w->data + off;
    m->tab[i].n_slots = n_slots;
    m->tab[i].max_probe = max_probe;
    m->tab[i].slot_size = slot_size;
    m->tab[i].type = (int)type;
    m->tab[i].n_blocks = (int)nb;
  }
  m->n_tabs = (int)n_tabs;
  {
    const fc_section *l = fc_fmt_find(f, "SEGL");
    if (l) {
      uint32_t ns = l->size >= 16 ? fc_rd32(l->data + 4) : 0, mp = l->size >= 16 ? fc_rd32(l->data + 8) : 0;
      if (l->size < 16 || memcmp(l->data, "FCSL", 4) != 0 || ns == 0 || mp >= ns || (l->size - 16) / 8 < ns) {
        fc_errf(err, errlen, "segmenter: bad SEGL section");
        fc_free(a, m);
        return FENCI_BADFORMAT;
      }
      m->tlex.slots = l->data + 16;
      m->tlex.n_slots = ns;
      m->tlex.max_probe = mp;
      m->has_tlex = 1;
    }
  }
  *out = m;
  return FENCI_OK;
}

void fc_segmodel_free(fc_segmodel *m, const fenci_alloc *a) { fc_free(a, m); }

fenci_rc fc_segscratch_new(fc_segscratch **out, const fenci_alloc *a) {
  fc_segscratch *s = fc_calloc(a, 1, sizeof *s);
  *out = NULL;
  if (!s) return FENCI_NOMEM;
  s->a = fc_alloc_resolve(a);
  *out = s;
  return FENCI_OK;
}

void fc_segscratch_free(fc_segscratch *s, const fenci_alloc *a) {
  if (!s) return;
  fc_free(&s->a, s->sym);
  fc_free(&s->a, s->cls);
  fc_free(&s->a, s->emis);
  fc_free(&s->a, s->bp);
  fc_free(&s->a, s->l2);
  fc_free(&s->a, s->keys);
  fc_free(a, s);
}

/* Grows every array to n units (all or nothing). */
static int fc_segscratch_reserve(fc_segscratch *s, size_t n) {
  size_t cap = s->cap ? s->cap : 256;
  void *p;
  if (n <= s->cap) return 0;
  while (cap < n) {
    if (cap > ((size_t)-1 / 64)) return -1;
    cap *= 2;
  }
  if (!(p = fc_realloc(&s->a, s->sym, (cap + 2 * FC_FEAT_PAD) * sizeof *s->sym))) return -1;
  s->sym = p;
  if (!(p = fc_realloc(&s->a, s->cls, cap + 2 * FC_FEAT_PAD))) return -1;
  s->cls = p;
  if (!(p = fc_realloc(&s->a, s->emis, cap * 4 * sizeof *s->emis))) return -1;
  s->emis = p;
  if (!(p = fc_realloc(&s->a, s->bp, cap * 4))) return -1;
  s->bp = p;
  if (!(p = fc_realloc(&s->a, s->l2, cap * 3))) return -1;
  s->l2 = p;
  if (!(p = fc_realloc(&s->a, s->keys, (cap + FC_SEG_KEXTRA) * FC_G_NTYPES * sizeof *s->keys))) return -1;
  s->keys = p;
  s->cap = cap;
  return 0;
}

static const uint8_t *fc_segtab_find(const fc_segtab *t, uint64_t key) {
  uint32_t fp = (uint32_t)key ? (uint32_t)key : 1;
  uint64_t pos = ((key >> 32) * (uint64_t)t->n_slots) >> 32;
  uint32_t probe;
  for (probe = 0; probe <= t->max_probe; probe++) {
    const uint8_t *s = t->slots + (size_t)pos * t->slot_size;
    uint32_t f = fc_rd32(s);
    if (f == fp) return s + 4;
    if (f == 0) return NULL;
    if (++pos == t->n_slots) pos = 0;
  }
  return NULL;
}

static void fc_seg_add4(int32_t *e, const uint8_t *w) {
  e[0] += (int16_t)fc_rd16(w);
  e[1] += (int16_t)fc_rd16(w + 2);
  e[2] += (int16_t)fc_rd16(w + 4);
  e[3] += (int16_t)fc_rd16(w + 6);
}

/* Tags one run of units without whitespace, exactly as training sentences
 * (which never contain whitespace) are tagged: features see begin/end
 * padding at the run's ends. */
static void fc_segmodel_run(const fc_segmodel *m, fc_segscratch *s, const fc_unit *u, size_t n, uint8_t *tags) {
  int ti;
  fc_feat_ctx c;
  fc_feat_symbols(u, n, s->sym, s->cls);
  c.u = u;
  c.n = n;
  c.sym = s->sym;
  c.cls = s->cls;
  c.l2 = NULL;
  if (m->has_tlex) {
    fc_tlex_lengths(&m->tlex, s->sym + FC_FEAT_PAD, n, s->l2);
    c.l2 = s->l2;
  }
  memset(s->emis, 0, n * 4 * sizeof *s->emis);
  /* First every key, with a prefetch of its home slot, so that the cache
   * misses of the big tables overlap; then the lookups. */
  for (ti = 0; ti < m->n_tabs; ti++) {
    const fc_segtab *t = &m->tab[ti];
    uint64_t *keys = s->keys + (size_t)ti * (s->cap + FC_SEG_KEXTRA);
    ptrdiff_t j, lo, hi;
    fc_feat_anchors(t->type, n, &lo, &hi);
    for (j = lo; j < hi; j++) {
      uint64_t key = fc_feat_key(t->type, &c, j);
      keys[j - lo] = key;
#if defined(__GNUC__)
      __builtin_prefetch(t->slots + (size_t)(((key >> 32) * (uint64_t)t->n_slots) >> 32) * t->slot_size);
#endif
    }
  }
  for (ti = 0; ti < m->n_tabs; ti++) {
    const fc_segtab *t = &m->tab[ti];
    const fc_feat_type *ft = &fc_feat_types[t->type];
    const uint64_t *keys = s->keys + (size_t)ti * (s->cap + FC_SEG_KEXTRA);
    ptrdiff_t j, lo, hi;
    fc_feat_anchors(t->type, n, &lo, &hi);
    for (j = lo; j < hi; j++) {
      uint64_t key = keys[j - lo];
      const uint8_t *w;
      int b;
      if (!key || !(w = fc_segtab_find(t, key))) continue;
      for (b = 0; b < t->n_blocks; b++) {
        ptrdiff_t i = j + ft->off[b];
        if (i >= 0 && (size_t)i < n) fc_seg_add4(s->emis + 4 * i, w + 8 * b);
      }
    }
  }
  fc_seg_viterbi(s->emis, n, m->trans, m->start, m->end, u, s->bp, tags);
}

fenci_rc fc_segmodel_tag(const fc_segmodel *m, fc_segscratch *s, const fc_unit *u, size_t n, uint8_t *tags) {
  size_t i = 0, j, longest = 0;
  if (n == 0) return FENCI_OK;
  /* whitespace units separate independent runs */
  for (i = 0; i < n; i = j + 1) {
    for (j = i; j < n && u[j].kind != FENCI_KIND_SPACE; j++) {
    }
    if (j - i > longest) longest = j - i;
  }
  if (fc_segscratch_reserve(s, longest)) return FENCI_NOMEM;
  for (i = 0; i < n; i = j + 1) {
    for (j = i; j < n && u[j].kind != FENCI_KIND_SPACE; j++) {
    }
    if (j > i) fc_segmodel_run(m, s, u + i, j - i, tags + i);
    if (j < n) tags[j] = FC_TAG_S;
  }
  return FENCI_OK;
}

/* Legal B/M/E/S successions: after B or M comes M or E; after E or S comes
 * B or S.  Illegal moves and broken constraints get large penalties rather
 * than minus infinity, so a path always exists even under contradictory
 * constraints; scores are renormalised at each step so nothing overflows. */
#define FC_SEG_ILLEGAL ((int64_t)1 << 40)
#define FC_SEG_FORCED ((int64_t)1 << 50)

static int fc_seg_legal(int prev, int cur) {
  int open = prev == FC_TAG_B || prev == FC_TAG_M;
  int cont = cur == FC_TAG_M || cur == FC_TAG_E;
  return open == cont;
}

static int64_t fc_seg_forcepen(const fc_unit *u, int k) {
  if (u->force) return (int)u->force - 1 == k ? 0 : -FC_SEG_FORCED;
  if (u->kind == FENCI_KIND_SPACE && k != FC_TAG_S) return -FC_SEG_FORCED;
  return 0;
}

void fc_seg_viterbi(const int32_t *emis, size_t n, const int32_t *trans, const int32_t *start,
                    const int32_t *end, const fc_unit *u, uint8_t *bp, uint8_t *tags) {
  int64_t sc[4], nsc[4], tr[16], mx;
  size_t i;
  int k, p, best;
  if (n == 0) return;
  for (p = 0; p < 4; p++)
    for (k = 0; k < 4; k++) tr[p * 4 + k] = trans[p * 4 + k] - (fc_seg_legal(p, k) ? 0 : FC_SEG_ILLEGAL);
  for (k = 0; k < 4; k++)
    sc[k] = (int64_t)start[k] + emis[k] + fc_seg_forcepen(&u[0], k) -
            ((k == FC_TAG_M || k == FC_TAG_E) ? FC_SEG_ILLEGAL : 0);
  for (i = 1; i < n; i++) {
    const int32_t *e = emis + 4 * i;
    for (k = 0; k < 4; k++) {
      int64_t b = sc[0] + tr[k];
      int bi = 0;
      for (p = 1; p < 4; p++) {
        int64_t v = sc[p] + tr[p * 4 + k];
        if (v > b) {
          b = v;
          bi = p;
        }
      }
      bp[4 * i + k] = (uint8_t)bi;
      nsc[k] = b + e[k];
      if (u[i].force || u[i].kind == FENCI_KIND_SPACE) nsc[k] += fc_seg_forcepen(&u[i], k);
    }
    mx = nsc[0];
    for (k = 1; k < 4; k++)
      if (nsc[k] > mx) mx = nsc[k];
    for (k = 0; k < 4; k++) sc[k] = nsc[k] - mx;
  }
  best = 0;
  for (k = 0; k < 4; k++) {
    sc[k] += end[k] - ((k == FC_TAG_B || k == FC_TAG_M) ? FC_SEG_ILLEGAL : 0);
    if (sc[k] > sc[best]) best = k;
  }
  tags[n - 1] = (uint8_t)best;
  for (i = n - 1; i > 0; i--) tags[i - 1] = bp[4 * i + tags[i]];
}
