/* segmodel.c - the trained segmenter: validated views over the weight
 * sections of a model file, and the B/M/E/S decoder.
 *
 * Sections (feature version 2; docs/FORMAT.md has the byte-level tables):
 *   SEGH  header: "FCSG", feature version, number of tables, number of
 *         symbol ids, transition weights (int32 4x4, start[4], end[4]), the
 *         symbol map's place in SEGW, then one 32-byte record per feature
 *         table: type, n_blocks, n_slots, max_probe, n_entries, byte offset
 *         into SEGW, layout, weight shift.
 *   SEGW  the symbol map (symbol -> id), then the tables, int8 weights:
 *         DENSE rows indexed directly (uni, lexu, tlexu, lex, tlex, lat,
 *         latu, latm), PAIR
 *         tables keyed exactly by two ids (bi, skip; the bigram slots also
 *         carry the training-word lexicon's two-unit flags), and HASH
 *         tables with 32-bit fingerprints (the other types).  Probing is
 *         linear and never goes past max_probe slots, so a corrupt table
 *         can give wrong weights but never loops or reads outside SEGW.
 *   SEGL  optional: the training-word lexicon: one-unit flags per id and a
 *         hash table of its strings of three or more units (fc_tlex).
 * The tables are used in place from the (mmap'd) file: loading reads the
 * header and validates the symbol map, about 0.1 ms whatever the size.
 *
 * Decoding a run: ids; the bigram and skip slots of every anchor, with the
 * home slots prefetched a few anchors ahead; the training-word lexicon walk
 * (most walks end at the id flags or the bigram slot); then one fused pass
 * summing, per unit, the 18 blocks of the base templates and, in a model
 * with them, the lattice ones (lat's three blocks as one precomputed sum,
 * latu, latm; SSE2 when available); then Viterbi. */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "alloc.h"
#include "feat.h"
#include "segmodel.h"
#include "wordpunct.h"

#if defined(__SSE2__) && defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#include <emmintrin.h>
#define FC_SEG_SSE2 1
#endif

#define FC_SEG_HDR 128u   /* bytes before the table records */
#define FC_SEG_REC 32u    /* bytes per table record */
#define FC_SEG_TMAX (1 << 30)
#define FC_SEG_KEXTRA (2 * FC_FEAT_PAD + 2) /* anchors beyond the units */

/* Table layouts (record field "layout"). */
enum {
  FC_LAYOUT_HASH = 0,  /* slot: uint32 fingerprint, n_blocks*4 int8 */
  FC_LAYOUT_DENSE = 1, /* row: n_blocks*4 int8, indexed by fc_feat_dense_row */
  FC_LAYOUT_PAIR = 2   /* slot: uint32 id0 | id1 << 16 (0 = empty), uint32 tlex flags, n_blocks*4 int8 */
};

typedef struct fc_segtab {
  const uint8_t *slots; /* n_slots * slot_size bytes inside SEGW */
  uint32_t n_slots;     /* > 0 */
  uint32_t max_probe;   /* longest probe sequence, < n_slots */
  uint32_t slot_size;   /* bytes per slot or row */
  int type;             /* FC_G_* */
  int n_blocks;         /* fc_feat_types[type].n_blocks */
  int layout;           /* FC_LAYOUT_* */
  int shift;            /* weight = int8 << shift */
} fc_segtab;

/* Tables derived from the weights (fc_seg_derive), not made at open: the
 * lexicon mode, the taggers and `fenci check` never pay for them, and a
 * short run neither.  The fused loop's int32 tables (336 KB, about 100
 * page faults, a third of a one-line run's) come once the model has
 * segmented FC_SEG_W32_AFTER units; until then the units take the loop by
 * table over the int8 weights, which sums the same integers in some 280
 * more instructions a unit (1.1 M for 4,096 units, against the build's
 * 0.7 M and its 100 page faults).  The pair filters, whose build reads
 * every slot of the pair tables (2.7 M instructions for ctb, what they
 * save on some 40,000 characters), come after FC_SEG_FILTER_AFTER units.
 * Each is built once under the lock, then read without it (the acquire
 * load of ready pairs with the release store after the build, as in
 * dict.c's freeze); the filters change which slots are probed, never what
 * is found. */
#define FC_SEG_READY_W32 1
#define FC_SEG_READY_FILTERS 2
#define FC_SEG_W32_AFTER 4096
#define FC_SEG_FILTER_AFTER 65536
typedef struct fc_segderived {
  pthread_mutex_t lock;
  atomic_int ready;         /* FC_SEG_READY_* bits */
  atomic_size_t units;      /* units segmented so far (counted until the filters exist) */
  fenci_alloc a;
  uint64_t *filter[FC_G_NTYPES]; /* pair tables: which keys they may hold (fc_seg_filter) */
  uint32_t fmask[FC_G_NTYPES];   /* filter words - 1 */
  int32_t *w32[FC_G_NTYPES];     /* the fused loop's small dense tables (uni, lex, tlex) as
                                  * int32, shifted: one add a block instead of a widening */
} fc_segderived;

struct fc_segmodel {
  int32_t trans[16];    /* prev*4 + cur */
  int32_t start[4];     /* first unit */
  int32_t end[4];       /* last unit */
  uint32_t n_ids;       /* symbol ids */
  fc_symmap sm;         /* symbol -> id */
  int n_tabs;           /* tables present */
  int need_cls;         /* some table reads the feature classes */
  const fc_segtab *t[FC_G_NTYPES]; /* by type, NULL when absent */
  int has_tlex;         /* SEGL present */
  int fused;            /* exactly the base tables (FC_FEAT_BASE_MASK), maybe with lat and
                         * latu (both or neither) and latm, with SEGL: one fused loop */
  int fused_lat;        /* the fused loop adds the lattice tag tables (lat, latu) */
  int fused_latm;       /* ... and the lattice margin table (latm) */
  int uses_lat;         /* some table reads fc_unit.lat or .mg */
  int32_t *latw;        /* lat: the sum of the three blocks that score a unit, by the window
                         * of lattice tags of the units i-2..i+2 (fc_seg_latwin), 4 per
                         * window, weights shifted; NULL without lat */
  int32_t *latmw;       /* latm: its rows as int32 (4 per row, shifted); NULL without latm */
  fc_segderived *dv;    /* built at first use */
  const uint8_t *cflags; /* SEGL: n_ids one-unit flags */
  fc_tlex tlex;         /* SEGL: strings of 3+ units */
  fc_segtab tab[FC_G_NTYPES];
};

struct fc_segscratch {
  uint32_t *sym;  /* cap + 2*FC_FEAT_PAD ids */
  uint8_t *cls;   /* cap + 2*FC_FEAT_PAD classes */
  int32_t *emis;  /* cap * 4 emission scores */
  uint8_t *bp;    /* cap * 4 back pointers */
  uint8_t *l2;    /* cap * 3 training-lexicon lengths */
  const uint8_t **bip; /* cap + FC_SEG_KEXTRA bigram slots (NULL: absent) */
  const uint8_t **skp; /* cap + FC_SEG_KEXTRA skip-bigram slots */
  uint32_t *home; /* cap + FC_SEG_KEXTRA home slots */
  uint32_t *row;  /* cap + FC_SEG_KEXTRA dense rows (lex) */
  uint32_t *row2; /* cap + FC_SEG_KEXTRA dense rows (tlex) */
  uint32_t *row3; /* cap + FC_SEG_KEXTRA lat windows (the generic path) */
  uint32_t *row4; /* cap + FC_SEG_KEXTRA dense rows (latm, the generic path) */
  uint64_t *keys; /* cap + FC_SEG_KEXTRA feature keys */
  size_t cap;     /* units the arrays hold */
  fenci_alloc a;  /* allocator of the arrays */
};

static int32_t fc_seg_rdi32(const uint8_t *p) { return (int32_t)fc_rd32(p); }

static int fc_seg_dense_type(int t) {
  return t == FC_G_UNI || t == FC_G_LEXU || t == FC_G_TLEXU || t == FC_G_LEX || t == FC_G_TLEX || t == FC_G_LAT ||
         t == FC_G_LATU || t == FC_G_LATM;
}

static int fc_seg_need_cls(int t) { return t == FC_G_CLS || t == FC_G_REP || t == FC_G_MM || t == FC_G_MMU; }

/* The layout the trainer writes for type t. */
int fc_segmodel_layout(int t) {
  if (fc_seg_dense_type(t)) return FC_LAYOUT_DENSE;
  if (t == FC_G_BI || t == FC_G_SKIP) return FC_LAYOUT_PAIR;
  return FC_LAYOUT_HASH;
}

#define FC_SEG_LATWIN 3125 /* windows of five lattice tags, each of FC_FEAT_LATOUT + 1 values */

/* The lattice tables in the form the decoder adds them: lat's three blocks
 * that score unit i depend only on the tags of units i-2..i+2, so their sum
 * is precomputed for each of the 5^5 windows (one 16-byte add per unit
 * instead of three lookups), and latm's rows are widened to int32.  Read
 * once here from the validated tables (dense, of the sizes checked). */
static int fc_seg_lat_tables(fc_segmodel *m, const fenci_alloc *a) {
  const fc_segtab *t = m->t[FC_G_LAT];
  uint32_t w, k, q;
  if (t) {
    const uint32_t o = FC_FEAT_LATOUT + 1;
    if (!(m->latw = fc_malloc(a, FC_SEG_LATWIN * 4 * sizeof *m->latw))) return -1;
    for (w = 0; w < FC_SEG_LATWIN; w++) {
      uint32_t x[5], r[3];
      for (k = 0, q = w; k < 5; k++, q /= o) x[4 - k] = q % o; /* x[0] = tag of unit i-2 */
      for (k = 0; k < 3; k++) r[k] = (x[k] * o + x[k + 1]) * o + x[k + 2]; /* rows of anchors i-1, i, i+1 */
      for (k = 0; k < 4; k++) /* anchor i+1 block 0, anchor i block 1, anchor i-1 block 2 */
        m->latw[4 * w + k] = ((int32_t)(int8_t)t->slots[r[2] * 12 + k] + (int32_t)(int8_t)t->slots[r[1] * 12 + 4 + k] +
                              (int32_t)(int8_t)t->slots[r[0] * 12 + 8 + k]) *
                             (1 << t->shift);
    }
  }
  if ((t = m->t[FC_G_LATM]) != NULL) {
    if (!(m->latmw = fc_malloc(a, FC_MG_N * FC_MG_N * 4 * sizeof *m->latmw))) return -1;
    for (k = 0; k < FC_MG_N * FC_MG_N * 4; k++) m->latmw[k] = (int32_t)(int8_t)t->slots[k] * (1 << t->shift);
  }
  return 0;
}

/* The filter of a pair table: a blocked Bloom filter of its keys (two
 * bits in one 64-bit word, about ten bits a key).  Nearly half of the pair
 * lookups of real text find no key, and at the tables' load of 3/4 a miss
 * probes eight slots on average (a hit 1.3); the filter answers most misses
 * with one read of a table a hundredth the size, and their slots are not
 * prefetched.  It is exact for every key present, so the weights found are
 * those of the probe. */
static inline int fc_seg_filter_has(const uint64_t *filter, uint32_t fmask, uint64_t mix) {
  uint64_t w = filter[mix & fmask];
  return (int)((w >> (mix >> 20 & 63)) & (w >> (mix >> 26 & 63)) & 1);
}

static int fc_seg_filter(fc_segderived *d, const fc_segtab *t) {
  uint32_t nw = 64, i;
  uint64_t *f;
  while (nw < t->n_slots / 8 && nw < (1u << 20)) nw <<= 1;
  if (!(f = fc_calloc(&d->a, nw, sizeof *f))) return -1;
  for (i = 0; i < t->n_slots; i++) {
    uint32_t key = fc_rd32(t->slots + (size_t)i * t->slot_size);
    uint64_t mix;
    if (!key) continue;
    mix = fc_feat_pairmix(key);
    f[mix & (nw - 1)] |= 1ull << (mix >> 20 & 63) | 1ull << (mix >> 26 & 63);
  }
  d->filter[t->type] = f;
  d->fmask[t->type] = nw - 1;
  return 0;
}

/* Frees the derived tables that ready (FC_SEG_READY_* bits) does not
 * claim: a build's leftovers, or with ready 0 all of them. */
static void fc_seg_derived_clear(fc_segderived *d, int ready) {
  int i;
  for (i = 0; i < FC_G_NTYPES; i++) {
    if (!(ready & FC_SEG_READY_FILTERS)) {
      fc_free(&d->a, d->filter[i]);
      d->filter[i] = NULL;
    }
    if (!(ready & FC_SEG_READY_W32)) {
      fc_free(&d->a, d->w32[i]);
      d->w32[i] = NULL;
    }
  }
}

/* Builds what m's derived tables lack for a call on n more units; sets
 * *ready to the FC_SEG_READY_* bits the call may use.  FENCI_NOMEM when
 * the int32 tables cannot be made (a failed filter build only leaves the
 * filters for a later call). */
static fenci_rc fc_seg_derive(const fc_segmodel *m, size_t n, int *ready) {
  fc_segderived *d = m->dv;
  int st = atomic_load_explicit(&d->ready, memory_order_acquire), i, bad = 0;
  size_t seen = 0;
  if (st & FC_SEG_READY_FILTERS) {
    *ready = st;
    return FENCI_OK;
  }
  seen = atomic_fetch_add_explicit(&d->units, n, memory_order_relaxed) + n;
  if (((st & FC_SEG_READY_W32) || seen < FC_SEG_W32_AFTER) && seen < FC_SEG_FILTER_AFTER) {
    *ready = st;
    return FENCI_OK;
  }
  if (pthread_mutex_lock(&d->lock) != 0) return FENCI_NOMEM;
  st = atomic_load_explicit(&d->ready, memory_order_relaxed);
  if (!(st & FC_SEG_READY_W32) && seen >= FC_SEG_W32_AFTER) {
    if (m->fused) {
      static const int wide[] = {FC_G_UNI, FC_G_LEX, FC_G_TLEX};
      for (i = 0; !bad && i < 3; i++) {
        const fc_segtab *t = m->t[wide[i]];
        size_t nb = (size_t)t->n_slots * t->slot_size, j; /* dense: n_slots rows */
        if (!(d->w32[wide[i]] = fc_malloc(&d->a, nb * sizeof(int32_t)))) bad = 1;
        for (j = 0; !bad && j < nb; j++) d->w32[wide[i]][j] = (int32_t)(int8_t)t->slots[j] * (1 << t->shift);
      }
    }
    if (!bad) st |= FC_SEG_READY_W32;
  }
  if (!bad && !(st & FC_SEG_READY_FILTERS) && seen >= FC_SEG_FILTER_AFTER) {
    int fbad = 0;
    for (i = 0; !fbad && i < m->n_tabs; i++)
      if (m->tab[i].layout == FC_LAYOUT_PAIR) fbad = fc_seg_filter(d, &m->tab[i]);
    if (!fbad) st |= FC_SEG_READY_FILTERS;
  }
  if (bad || !(st & FC_SEG_READY_FILTERS)) fc_seg_derived_clear(d, st);
  atomic_store_explicit(&d->ready, st, memory_order_release);
  pthread_mutex_unlock(&d->lock);
  *ready = st;
  return bad ? FENCI_NOMEM : FENCI_OK;
}

static const char *fc_seg_symmap(fc_segmodel *m, const fc_section *w, uint32_t off, uint32_t n_ext) {
  uint32_t i, prev = 0;
  if (off % 4 != 0 || off > w->size || (w->size - off) / 2 < FC_SYMMAP_DIRECT) return "symbol map runs past SEGW";
  if ((w->size - off - 2 * FC_SYMMAP_DIRECT) / 8 < n_ext) return "symbol map runs past SEGW";
  m->sm.direct = w->data + off;
  m->sm.ext = w->data + off + 2 * FC_SYMMAP_DIRECT;
  m->sm.n_ext = n_ext;
  m->sm.n_ids = m->n_ids;
  for (i = 0; i < FC_SYMMAP_DIRECT; i++) {
    uint32_t id = fc_rd16(m->sm.direct + 2 * i);
    if (id && (id < FC_ID_FIRST || id >= m->n_ids)) return "bad symbol id";
  }
  for (i = 0; i < n_ext; i++) {
    uint32_t sym = fc_rd32(m->sm.ext + 8 * (size_t)i), id = fc_rd32(m->sm.ext + 8 * (size_t)i + 4);
    if (sym < FC_SYMMAP_DIRECT || (i && sym <= prev)) return "symbol map not sorted";
    if (id < FC_ID_FIRST || id >= m->n_ids) return "bad symbol id";
    prev = sym;
  }
  return NULL;
}

fenci_rc fc_segmodel_load(fc_segmodel **out, const fc_file *f, const fenci_alloc *a, char *err,
                          size_t errlen) {
  const fc_section *h, *w;
  fc_segmodel *m;
  uint32_t version, n_tabs, i;
  const uint8_t *p;
  const char *why;
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
  m->n_ids = fc_rd32(p + 12);
  if (m->n_ids < FC_ID_FIRST || m->n_ids > FC_FEAT_MAXID) {
    fc_errf(err, errlen, "segmenter: bad number of symbol ids");
    fc_free(a, m);
    return FENCI_BADFORMAT;
  }
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
  if ((why = fc_seg_symmap(m, w, fc_rd32(p + 112), fc_rd32(p + 116))) != NULL) {
    fc_errf(err, errlen, "segmenter: %s", why);
    fc_free(a, m);
    return FENCI_BADFORMAT;
  }
  for (i = 0; i < n_tabs; i++) {
    const uint8_t *r = p + FC_SEG_HDR + FC_SEG_REC * i;
    uint32_t type = fc_rd32(r), nb = fc_rd32(r + 4), n_slots = fc_rd32(r + 8);
    uint32_t max_probe = fc_rd32(r + 12), n_entries = fc_rd32(r + 16), off = fc_rd32(r + 20);
    uint32_t layout = fc_rd32(r + 24), shift = fc_rd32(r + 28), slot_size = 0;
    why = NULL;
    if (type >= FC_G_NTYPES) why = "unknown feature type";
    else if ((int)nb != fc_feat_types[type].n_blocks) why = "wrong number of blocks";
    else if (m->t[type]) why = "duplicate feature type";
    else if (layout != (uint32_t)fc_segmodel_layout((int)type)) why = "wrong layout";
    else if (shift > 16) why = "bad weight shift";
    if (!why) {
      slot_size = 4 * nb + (layout == FC_LAYOUT_DENSE ? 0 : layout == FC_LAYOUT_PAIR ? 8 : 4);
      if (layout == FC_LAYOUT_DENSE && (n_slots != fc_feat_dense_rows((int)type, m->n_ids) || max_probe != 0))
        why = "bad dense table size";
      else if (n_slots == 0 || max_probe >= n_slots || n_entries > n_slots) why = "bad table counts";
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
    m->tab[i].layout = (int)layout;
    m->tab[i].shift = (int)shift;
    m->t[type] = &m->tab[i];
    if (fc_seg_need_cls((int)type)) m->need_cls = 1;
  }
  m->n_tabs = (int)n_tabs;
  {
    const fc_section *l = fc_fmt_find(f, "SEGL");
    if (l) {
      uint32_t ns = l->size >= 16 ? fc_rd32(l->data + 4) : 0, mp = l->size >= 16 ? fc_rd32(l->data + 8) : 0;
      uint32_t ni = l->size >= 16 ? fc_rd32(l->data + 12) : 0, fl = (ni + 3) & ~3u;
      if (l->size < 16 || memcmp(l->data, "FCSL", 4) != 0 || ns == 0 || mp >= ns || ni != m->n_ids ||
          (l->size - 16) < fl || (l->size - 16 - fl) / 8 < ns || !m->t[FC_G_BI]) {
        fc_errf(err, errlen, "segmenter: bad SEGL section");
        fc_free(a, m);
        return FENCI_BADFORMAT;
      }
      m->cflags = l->data + 16;
      m->tlex.slots = l->data + 16 + fl;
      m->tlex.n_slots = ns;
      m->tlex.max_probe = mp;
      m->has_tlex = 1;
    }
  }
  {
    unsigned mask = 0, rest, latp;
    for (i = 0; i < n_tabs; i++) mask |= 1u << m->tab[i].type;
    rest = mask & ~(FC_FEAT_LAT_MASK | FC_FEAT_LATM_MASK);
    latp = mask & FC_FEAT_LAT_MASK;
    m->fused = m->has_tlex && rest == FC_FEAT_BASE_MASK && (latp == 0 || latp == FC_FEAT_LAT_MASK);
    m->fused_lat = m->fused && latp != 0;
    m->fused_latm = m->fused && (mask & FC_FEAT_LATM_MASK) != 0;
    m->uses_lat = (mask & (FC_FEAT_LAT_MASK | FC_FEAT_LATM_MASK)) != 0;
  }
  if (!(m->dv = fc_calloc(a, 1, sizeof *m->dv)) || pthread_mutex_init(&m->dv->lock, NULL) != 0) {
    fc_free(a, m->dv);
    m->dv = NULL;
    fc_segmodel_free(m, a);
    return FENCI_NOMEM;
  }
  m->dv->a = fc_alloc_resolve(a);
  atomic_init(&m->dv->ready, 0);
  atomic_init(&m->dv->units, 0);
  if (fc_seg_lat_tables(m, a)) {
    fc_segmodel_free(m, a);
    return FENCI_NOMEM;
  }
  *out = m;
  return FENCI_OK;
}

void fc_segmodel_free(fc_segmodel *m, const fenci_alloc *a) {
  if (!m) return;
  if (m->dv) {
    fc_seg_derived_clear(m->dv, 0);
    pthread_mutex_destroy(&m->dv->lock);
    fc_free(a, m->dv);
  }
  fc_free(a, m->latw);
  fc_free(a, m->latmw);
  fc_free(a, m);
}

int fc_segmodel_uses_lat(const fc_segmodel *m) { return m && m->uses_lat; }

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
  fc_free(&s->a, (void *)s->bip);
  fc_free(&s->a, (void *)s->skp);
  fc_free(&s->a, s->home);
  fc_free(&s->a, s->row);
  fc_free(&s->a, s->row2);
  fc_free(&s->a, s->row3);
  fc_free(&s->a, s->row4);
  fc_free(&s->a, s->keys);
  fc_free(a, s);
}

/* Grows every array to n units (all or nothing). */
static int fc_segscratch_reserve(fc_segscratch *s, size_t n) {
  size_t cap = s->cap ? s->cap : 256, k = FC_SEG_KEXTRA;
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
  if (!(p = fc_realloc(&s->a, (void *)s->bip, (cap + k) * sizeof *s->bip))) return -1;
  s->bip = p;
  if (!(p = fc_realloc(&s->a, (void *)s->skp, (cap + k) * sizeof *s->skp))) return -1;
  s->skp = p;
  if (!(p = fc_realloc(&s->a, s->home, (cap + k) * sizeof *s->home))) return -1;
  s->home = p;
  if (!(p = fc_realloc(&s->a, s->row, (cap + k) * sizeof *s->row))) return -1;
  s->row = p;
  if (!(p = fc_realloc(&s->a, s->row2, (cap + k) * sizeof *s->row2))) return -1;
  s->row2 = p;
  if (!(p = fc_realloc(&s->a, s->row3, (cap + k) * sizeof *s->row3))) return -1;
  s->row3 = p;
  if (!(p = fc_realloc(&s->a, s->row4, (cap + k) * sizeof *s->row4))) return -1;
  s->row4 = p;
  if (!(p = fc_realloc(&s->a, s->keys, (cap + k) * sizeof *s->keys))) return -1;
  s->keys = p;
  s->cap = cap;
  return 0;
}

/* Weights are int8, read in place: block of four at w, times 2^sh. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static inline uint32_t fc_seg_u32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}
#else
static inline uint32_t fc_seg_u32(const uint8_t *p) { return fc_rd32(p); }
#endif

static inline void fc_seg_add4(int32_t *e, const uint8_t *w, int sh) {
  e[0] += (int32_t)(int8_t)w[0] * (1 << sh);
  e[1] += (int32_t)(int8_t)w[1] * (1 << sh);
  e[2] += (int32_t)(int8_t)w[2] * (1 << sh);
  e[3] += (int32_t)(int8_t)w[3] * (1 << sh);
}

/* Home slot of a key's mix in a table of n slots. */
static inline uint32_t fc_seg_home(uint64_t mix, uint32_t n) { return (uint32_t)(((mix >> 32) * (uint64_t)n) >> 32); }

/* Hashed layout: the weights of the key with mix h, or NULL. */
static const uint8_t *fc_segtab_find(const fc_segtab *t, uint64_t h, uint32_t pos) {
  uint32_t fp = (uint32_t)h ? (uint32_t)h : 1, probe;
  for (probe = 0; probe <= t->max_probe; probe++) {
    const uint8_t *s = t->slots + (size_t)pos * t->slot_size;
    uint32_t f = fc_seg_u32(s);
    if (f == fp) return s + 4;
    if (f == 0) return NULL;
    if (++pos == t->n_slots) pos = 0;
  }
  return NULL;
}

#define FC_SEG_ABSENT 0xFFFFFFFFu /* a home slot: the filter says the key is absent */

static const uint8_t fc_seg_zero[4 * FC_FEAT_MAXB + 8]; /* the weights of an absent pair */

/* Weights of the id pairs (id[j+d0], id[j+d1]) of anchors j in [lo, hi) into
 * out[j - lo] (fc_seg_zero when absent), FC_SEG_BLOCK anchors at a time:
 * first every key's filter test, home slot and prefetch, then the probes,
 * so each block's misses overlap. */
#define FC_SEG_BLOCK 32
static void fc_seg_pairs(const fc_segtab *t, const uint64_t *filter, uint32_t fmask, const uint32_t *id, ptrdiff_t lo,
                         ptrdiff_t hi, int d0, int d1, uint32_t *home, const uint8_t **out) {
  ptrdiff_t b0, j;
  const uint8_t *slots = t->slots;
  uint32_t ss = t->slot_size, n_slots = t->n_slots;
  for (b0 = lo; b0 < hi; b0 += FC_SEG_BLOCK) {
    ptrdiff_t b1 = hi - b0 < FC_SEG_BLOCK ? hi : b0 + FC_SEG_BLOCK;
    for (j = b0; j < b1; j++) {
      uint64_t mix = fc_feat_pairmix(id[j + d0] | id[j + d1] << 16);
      uint32_t hs = FC_SEG_ABSENT;
      if (!filter || fc_seg_filter_has(filter, fmask, mix)) {
        hs = fc_seg_home(mix, n_slots);
#if defined(__GNUC__)
        __builtin_prefetch(slots + (size_t)hs * ss);
#endif
      }
      home[j - lo] = hs;
    }
    for (j = b0; j < b1; j++) {
      uint32_t key = id[j + d0] | id[j + d1] << 16, pos = home[j - lo], probe;
      out[j - lo] = fc_seg_zero + 8;
      if (pos == FC_SEG_ABSENT) continue;
      for (probe = 0; probe <= t->max_probe; probe++) {
        const uint8_t *sl = slots + (size_t)pos * ss;
        uint32_t f = fc_seg_u32(sl);
        if (f == key) {
          out[j - lo] = sl + 8;
          break;
        }
        if (f == 0) break;
        if (++pos == n_slots) pos = 0;
      }
    }
  }
}

static unsigned fc_seg_cap(unsigned v, unsigned cap) { return v < cap ? v : cap; }

/* Rows of the lex-like dense tables at anchors -1 .. n into row[j + 1]
 * (lengths l[0..2] per unit, stride 3 or the fc_unit's lb/le/lm). */
static void fc_seg_lexrows(const fc_unit *u, const uint8_t *l2, size_t n, uint32_t *row) {
  const uint32_t out = FC_FEAT_LEXOUT * (FC_FEAT_LEXCAP + 1) * (FC_FEAT_LEXCAP + 1);
  size_t i;
  row[0] = row[n + 1] = out;
  if (u) {
    for (i = 0; i < n; i++)
      row[i + 1] = (fc_seg_cap(u[i].lb, FC_FEAT_LEXCAP) * (FC_FEAT_LEXCAP + 1) + fc_seg_cap(u[i].le, FC_FEAT_LEXCAP)) *
                       (FC_FEAT_LEXCAP + 1) + fc_seg_cap(u[i].lm, FC_FEAT_LEXCAP);
  } else {
    for (i = 0; i < n; i++)
      row[i + 1] = (fc_seg_cap(l2[3 * i], FC_FEAT_LEXCAP) * (FC_FEAT_LEXCAP + 1) + fc_seg_cap(l2[3 * i + 1], FC_FEAT_LEXCAP)) *
                       (FC_FEAT_LEXCAP + 1) + fc_seg_cap(l2[3 * i + 2], FC_FEAT_LEXCAP);
  }
}

/* The window of unit i, its row of m->latw: the lattice tags of units
 * i-2..i+2 in base 5 (unit i-2 first), FC_FEAT_LATOUT outside the run.
 * fc_seg_latwin0 is unit 0's, fc_seg_latwin_next the next unit's. */
static inline uint32_t fc_seg_lattag(const fc_unit *u, size_t n, size_t i) {
  return i < n ? u[i].lat & 3u : FC_FEAT_LATOUT;
}

static inline uint32_t fc_seg_latwin0(const fc_unit *u, size_t n) {
  const uint32_t o = FC_FEAT_LATOUT, b = FC_FEAT_LATOUT + 1;
  return (((o * b + o) * b + fc_seg_lattag(u, n, 0)) * b + fc_seg_lattag(u, n, 1)) * b + fc_seg_lattag(u, n, 2);
}

static inline uint32_t fc_seg_latwin_next(uint32_t w, const fc_unit *u, size_t n, size_t i) {
  return (w % (FC_SEG_LATWIN / (FC_FEAT_LATOUT + 1))) * (FC_FEAT_LATOUT + 1) + fc_seg_lattag(u, n, i + 3);
}

/* The windows of the units into win[0..n). */
static void fc_seg_latwin(const fc_unit *u, size_t n, uint32_t *win) {
  uint32_t w = fc_seg_latwin0(u, n);
  size_t i;
  for (i = 0; i < n; i++) {
    win[i] = w;
    w = fc_seg_latwin_next(w, u, n, i);
  }
}

/* Rows of the latm table at anchors 0 .. n-1 into row[j]: the margins
 * before and after unit j, after the run's last unit FC_MG_INF. */
static void fc_seg_latmrows(const fc_unit *u, size_t n, uint32_t *row) {
  uint32_t p = n ? fc_seg_cap(u[0].mg, FC_MG_INF) : 0, q;
  size_t j;
  for (j = 0; j < n; j++) {
    q = j + 1 < n ? fc_seg_cap(u[j + 1].mg, FC_MG_INF) : FC_MG_INF;
    row[j] = p * FC_MG_N + q;
    p = q;
  }
}

#if FC_SEG_SSE2
typedef __m128i fc_seg_acc;
typedef __m128i fc_seg_sh; /* 24 - shift, for _mm_sra_epi32 */
#define FC_SH(t) _mm_cvtsi32_si128(24 - (t)->shift)
#define FC_ACC_ZERO(a) ((a) = _mm_setzero_si128())
/* four int8 weights w, as w << 24 in each int32 lane, shifted right arithmetically */
#define FC_ACC_ADD(a, p, sh)                                                                     \
  do {                                                                                           \
    __m128i x_ = _mm_cvtsi32_si128((int)fc_seg_u32(p));                                          \
    x_ = _mm_unpacklo_epi16(_mm_setzero_si128(), _mm_unpacklo_epi8(_mm_setzero_si128(), x_));    \
    (a) = _mm_add_epi32((a), _mm_sra_epi32(x_, (sh)));                                           \
  } while (0)
#define FC_ACC_STORE(e, a) _mm_storeu_si128((__m128i *)(void *)(e), (a))
/* four int32 weights at p */
#define FC_ACC_ADD32(a, p) ((a) = _mm_add_epi32((a), _mm_loadu_si128((const __m128i *)(const void *)(p))))
#else
typedef struct { int32_t v[4]; } fc_seg_acc;
typedef int fc_seg_sh;
#define FC_SH(t) ((t)->shift)
#define FC_ACC_ZERO(a) memset(&(a), 0, sizeof(a))
#define FC_ACC_ADD(a, p, sh) fc_seg_add4((a).v, (p), (sh))
#define FC_ACC_STORE(e, a) memcpy((e), (a).v, 16)
#define FC_ACC_ADD32(a, p)                                                                                       \
  do {                                                                                                           \
    const int32_t *p_ = (p);                                                                                     \
    (a).v[0] += p_[0];                                                                                           \
    (a).v[1] += p_[1];                                                                                           \
    (a).v[2] += p_[2];                                                                                           \
    (a).v[3] += p_[3];                                                                                           \
  } while (0)
#endif

#if defined(__GNUC__)
#define FC_SEG_INLINE static inline __attribute__((always_inline))
#else
#define FC_SEG_INLINE static inline
#endif

/* Emission scores of the base templates (and with lat set the lattice
 * ones), one pass over the units. */
FC_SEG_INLINE void fc_seg_fused_loop(const fc_segmodel *m, fc_segscratch *s, const fc_unit *u, size_t n,
                                     const int lat, const int latm) {
  const uint32_t *id = s->sym + FC_FEAT_PAD;
  const int32_t *wu = m->dv->w32[FC_G_UNI], *wl = m->dv->w32[FC_G_LEX], *wt = m->dv->w32[FC_G_TLEX];
  const uint8_t *wlu = m->t[FC_G_LEXU]->slots, *wtu = m->t[FC_G_TLEXU]->slots, *l2 = s->l2;
  const uint8_t *const *bp = s->bip, *const *sk = s->skp;
  const uint32_t *row = s->row, *row2 = s->row2;
  const fc_seg_sh sb = FC_SH(m->t[FC_G_BI]), ss = FC_SH(m->t[FC_G_SKIP]);
  const fc_seg_sh slu = FC_SH(m->t[FC_G_LEXU]), stu = FC_SH(m->t[FC_G_TLEXU]);
  int32_t *emis = s->emis;
  const uint8_t *wau = lat ? m->t[FC_G_LATU]->slots : NULL;
  const int32_t *wa = m->latw, *wm = m->latmw;
  const fc_seg_sh sau = lat ? FC_SH(m->t[FC_G_LATU]) : sb;
  uint32_t win = lat ? fc_seg_latwin0(u, n) : 0;             /* lat: the window of unit i */
  uint32_t mgp = latm && n ? fc_seg_cap(u[0].mg, FC_MG_INF) : 0; /* latm: the margin before unit i */
  size_t i;
  fc_seg_lexrows(u, NULL, n, s->row);
  fc_seg_lexrows(NULL, l2, n, s->row2);
  for (i = 0; i < n; i++) {
    fc_seg_acc a;
    size_t r1 = ((size_t)id[i] * (FC_FEAT_LEXUCAP + 1) + fc_seg_cap(u[i].lb, FC_FEAT_LEXUCAP)) * (FC_FEAT_LEXUCAP + 1) +
                fc_seg_cap(u[i].le, FC_FEAT_LEXUCAP);
    size_t r2 = ((size_t)id[i] * (FC_FEAT_LEXUCAP + 1) + fc_seg_cap(l2[3 * i], FC_FEAT_LEXUCAP)) * (FC_FEAT_LEXUCAP + 1) +
                fc_seg_cap(l2[3 * i + 1], FC_FEAT_LEXUCAP);
    FC_ACC_ZERO(a);
    FC_ACC_ADD32(a, wu + (size_t)id[i + 2] * 20);
    FC_ACC_ADD32(a, wu + (size_t)id[i + 1] * 20 + 4);
    FC_ACC_ADD32(a, wu + (size_t)id[i] * 20 + 8);
    FC_ACC_ADD32(a, wu + (size_t)id[(ptrdiff_t)i - 1] * 20 + 12);
    FC_ACC_ADD32(a, wu + (size_t)id[(ptrdiff_t)i - 2] * 20 + 16);
    FC_ACC_ADD(a, bp[i + 3], sb);
    FC_ACC_ADD(a, bp[i + 2] + 4, sb);
    FC_ACC_ADD(a, bp[i + 1] + 8, sb);
    FC_ACC_ADD(a, bp[i] + 12, sb);
    FC_ACC_ADD(a, sk[i], ss);
    FC_ACC_ADD(a, wlu + r1 * 4, slu);
    FC_ACC_ADD(a, wtu + r2 * 4, stu);
    FC_ACC_ADD32(a, wl + (size_t)row[i + 2] * 12);
    FC_ACC_ADD32(a, wl + (size_t)row[i + 1] * 12 + 4);
    FC_ACC_ADD32(a, wl + (size_t)row[i] * 12 + 8);
    FC_ACC_ADD32(a, wt + (size_t)row2[i + 2] * 12);
    FC_ACC_ADD32(a, wt + (size_t)row2[i + 1] * 12 + 4);
    FC_ACC_ADD32(a, wt + (size_t)row2[i] * 12 + 8);
    if (lat) {
      FC_ACC_ADD32(a, wa + (size_t)win * 4);
      FC_ACC_ADD(a, wau + ((size_t)id[i] * 4 + (u[i].lat & 3u)) * 4, sau);
      win = fc_seg_latwin_next(win, u, n, i);
    }
    if (latm) {
      uint32_t q = i + 1 < n ? fc_seg_cap(u[i + 1].mg, FC_MG_INF) : FC_MG_INF;
      FC_ACC_ADD32(a, wm + (size_t)(mgp * FC_MG_N + q) * 4);
      mgp = q;
    }
    FC_ACC_STORE(emis + 4 * i, a);
  }
}

static void fc_seg_fused(const fc_segmodel *m, fc_segscratch *s, const fc_unit *u, size_t n) {
  if (m->fused_lat && m->fused_latm) fc_seg_fused_loop(m, s, u, n, 1, 1);
  else if (m->fused_lat) fc_seg_fused_loop(m, s, u, n, 1, 0);
  else if (m->fused_latm) fc_seg_fused_loop(m, s, u, n, 0, 1);
  else fc_seg_fused_loop(m, s, u, n, 0, 0);
}

/* Splits every word of more than FC_SEG_MAXWORD units (segmodel.h). */

/* Whether a piece may end before unit c and the next one start at it. */
static int fc_seg_cut_ok(const uint8_t *tags, const fc_unit *u, size_t c) {
  return !(u[c - 1].pc & FC_PC_NOEND) && !((u[c].pc & FC_PC_NOBEGIN) && tags[c] != FC_TAG_E);
}

static void fc_seg_cap_words(uint8_t *tags, size_t n, const fc_unit *u) {
  size_t i, from = 0;
  for (i = 0; i < n; i++) {
    if (tags[i] == FC_TAG_B || tags[i] == FC_TAG_S) from = i;
    if (i - from == FC_SEG_MAXWORD) {
      /* a piece starts at unit c (M or E): units from..c-1 are B M.. M.
       * The cut goes back past a unit that may not end a word or one that
       * may not begin one (wordpunct.h); where every cut would ("中-中-"),
       * a mark between two cuts stands alone. */
      size_t c = i, k;
      while (c > from + 2 && !fc_seg_cut_ok(tags, u, c)) c--;
      if (!fc_seg_cut_ok(tags, u, c)) {
        for (k = i - 1; k > from + 1; k--)
          if (!(u[k - 1].pc & FC_PC_NOEND) && !((u[k + 1].pc & FC_PC_NOBEGIN) && tags[k + 1] != FC_TAG_E)) break;
        if (k > from + 1) {
          tags[k - 1] = FC_TAG_E;
          tags[k] = FC_TAG_S;
          c = k + 1;
        } else {
          c = i;
        }
      }
      if (tags[c - 1] != FC_TAG_S) tags[c - 1] = c - 1 == from ? FC_TAG_S : FC_TAG_E;
      tags[c] = tags[c] == FC_TAG_E ? FC_TAG_S : FC_TAG_B;
      from = i = c;
    }
  }
}

/* Tags one run of units without whitespace, exactly as training sentences
 * (which never contain whitespace) are tagged: features see begin/end
 * padding at the run's ends. */
static void fc_segmodel_run(const fc_segmodel *m, fc_segscratch *s, const fc_unit *u, size_t n, uint8_t *tags,
                            int ready) {
  const int filt = (ready & FC_SEG_READY_FILTERS) != 0;
  const uint32_t *id = s->sym + FC_FEAT_PAD; /* id[-2 .. n+1] */
  const fc_segtab *t;
  int32_t *emis = s->emis;
  size_t i;
  int ti;
  fc_feat_symbols(&m->sm, u, n, s->sym, m->need_cls ? s->cls : NULL);
  memset(emis, 0, n * 4 * sizeof *emis);
  /* bigrams (id[j], id[j+1]) at anchors j = -2 .. n: bip[j + 2] */
  if ((t = m->t[FC_G_BI]) != NULL) fc_seg_pairs(t, filt ? m->dv->filter[FC_G_BI] : NULL, filt ? m->dv->fmask[FC_G_BI] : 0, id, -2, (ptrdiff_t)n + 1, 0, 1, s->home,
                 s->bip);
  /* skip bigrams (id[j-1], id[j+1]) at anchors j = 0 .. n-1: skp[j] */
  if ((t = m->t[FC_G_SKIP]) != NULL) fc_seg_pairs(t, filt ? m->dv->filter[FC_G_SKIP] : NULL, filt ? m->dv->fmask[FC_G_SKIP] : 0, id, 0, (ptrdiff_t)n, -1, 1, s->home,
                 s->skp);
  /* the training-word lexicon: one-unit words from the id flags, two-unit
   * words from the bigram slots, longer ones from the SEGL table */
  if (m->has_tlex) {
    uint8_t *l2 = s->l2;
    memset(l2, 0, n * 3);
    for (i = 0; i < n; i++) {
      uint32_t f = m->cflags[id[i]], f2;
      const uint8_t *b;
      uint64_t h;
      size_t len;
      if (f & FC_TLEX_WORD) fc_tlex_mark(l2, i, 1);
      if (!(f & FC_TLEX_PREFIX) || i + 1 >= n) continue;
      b = s->bip[i + 2];
      f2 = fc_seg_u32(b - 4);
      if (f2 & FC_TLEX_WORD) fc_tlex_mark(l2, i, 2);
      if (!(f2 & FC_TLEX_PREFIX)) continue;
      h = fc_feat_wstep(fc_feat_wstep(0, id[i]), id[i + 1]);
      for (len = 3; len <= FC_FEAT_TLEX_MAX && i + len <= n; len++) {
        h = fc_feat_wstep(h, id[i + len - 1]);
        f = fc_tlex_find(&m->tlex, h);
        if (f & FC_TLEX_WORD) fc_tlex_mark(l2, i, len);
        if (!(f & FC_TLEX_PREFIX)) break;
      }
    }
  }
  if (m->fused && (ready & FC_SEG_READY_W32)) {
    fc_seg_fused(m, s, u, n);
    fc_seg_viterbi(emis, n, m->trans, m->start, m->end, u, s->bp, tags);
    fc_seg_cap_words(tags, n, u);
    return;
  }
  if ((t = m->t[FC_G_UNI]) != NULL) { /* unit i: block b of anchor i - off[b] = i+2 .. i-2 */
    const uint8_t *w = t->slots;
    for (i = 0; i < n; i++) {
      int32_t *e = emis + 4 * i;
      fc_seg_add4(e, w + (size_t)id[i + 2] * 20, t->shift);
      fc_seg_add4(e, w + (size_t)id[i + 1] * 20 + 4, t->shift);
      fc_seg_add4(e, w + (size_t)id[i] * 20 + 8, t->shift);
      fc_seg_add4(e, w + (size_t)id[(ptrdiff_t)i - 1] * 20 + 12, t->shift);
      fc_seg_add4(e, w + (size_t)id[(ptrdiff_t)i - 2] * 20 + 16, t->shift);
    }
  }
  if ((t = m->t[FC_G_BI]) != NULL) { /* unit i: anchors i+1, i, i-1, i-2 = bip[i+3 .. i] */
    const uint8_t *const *bp = s->bip;
    for (i = 0; i < n; i++) {
      int32_t *e = emis + 4 * i;
      fc_seg_add4(e, bp[i + 3], t->shift);
      fc_seg_add4(e, bp[i + 2] + 4, t->shift);
      fc_seg_add4(e, bp[i + 1] + 8, t->shift);
      fc_seg_add4(e, bp[i] + 12, t->shift);
    }
  }
  if ((t = m->t[FC_G_SKIP]) != NULL)
    for (i = 0; i < n; i++) fc_seg_add4(emis + 4 * i, s->skp[i], t->shift);
  if ((t = m->t[FC_G_LEXU]) != NULL) {
    const uint8_t *w = t->slots;
    for (i = 0; i < n; i++) {
      size_t r = ((size_t)id[i] * (FC_FEAT_LEXUCAP + 1) + fc_seg_cap(u[i].lb, FC_FEAT_LEXUCAP)) * (FC_FEAT_LEXUCAP + 1) +
                 fc_seg_cap(u[i].le, FC_FEAT_LEXUCAP);
      fc_seg_add4(emis + 4 * i, w + r * 4, t->shift);
    }
  }
  if ((t = m->t[FC_G_TLEXU]) != NULL && m->has_tlex) {
    const uint8_t *w = t->slots, *l2 = s->l2;
    for (i = 0; i < n; i++) {
      size_t r = ((size_t)id[i] * (FC_FEAT_LEXUCAP + 1) + fc_seg_cap(l2[3 * i], FC_FEAT_LEXUCAP)) * (FC_FEAT_LEXUCAP + 1) +
                 fc_seg_cap(l2[3 * i + 1], FC_FEAT_LEXUCAP);
      fc_seg_add4(emis + 4 * i, w + r * 4, t->shift);
    }
  }
  for (ti = 0; ti < 2; ti++) { /* lex, tlex: rows of anchors -1 .. n in row[j + 1] */
    int type = ti ? FC_G_TLEX : FC_G_LEX;
    const uint8_t *w, *l2 = s->l2;
    uint32_t *row = s->row;
    const uint32_t out = FC_FEAT_LEXOUT * (FC_FEAT_LEXCAP + 1) * (FC_FEAT_LEXCAP + 1);
    if (!(t = m->t[type])) continue;
    w = t->slots;
    if (type == FC_G_LEX) fc_seg_lexrows(u, NULL, n, row);
    else if (m->has_tlex) fc_seg_lexrows(NULL, l2, n, row);
    else
      for (i = 0; i < n + 2; i++) row[i] = out;
    for (i = 0; i < n; i++) { /* unit i: anchors i+1, i, i-1 = row[i+2 .. i] */
      int32_t *e = emis + 4 * i;
      fc_seg_add4(e, w + (size_t)row[i + 2] * 12, t->shift);
      fc_seg_add4(e, w + (size_t)row[i + 1] * 12 + 4, t->shift);
      fc_seg_add4(e, w + (size_t)row[i] * 12 + 8, t->shift);
    }
  }
  if (m->latw) { /* the three blocks of lat that score unit i, summed by window */
    uint32_t *win = s->row3;
    fc_seg_latwin(u, n, win);
    for (i = 0; i < n; i++) {
      const int32_t *w = m->latw + 4 * (size_t)win[i];
      int32_t *e = emis + 4 * i;
      e[0] += w[0];
      e[1] += w[1];
      e[2] += w[2];
      e[3] += w[3];
    }
  }
  if ((t = m->t[FC_G_LATU]) != NULL) {
    const uint8_t *w = t->slots;
    for (i = 0; i < n; i++) fc_seg_add4(emis + 4 * i, w + ((size_t)id[i] * 4 + (u[i].lat & 3u)) * 4, t->shift);
  }
  if (m->latmw) {
    fc_seg_latmrows(u, n, s->row4);
    for (i = 0; i < n; i++) {
      const int32_t *w = m->latmw + 4 * (size_t)s->row4[i];
      int32_t *e = emis + 4 * i;
      e[0] += w[0];
      e[1] += w[1];
      e[2] += w[2];
      e[3] += w[3];
    }
  }
  /* the other (hashed) types, anchor by anchor */
  for (ti = 0; ti < m->n_tabs; ti++) {
    const fc_feat_type *ft;
    fc_feat_ctx c;
    ptrdiff_t j, lo, hi;
    t = &m->tab[ti];
    if (t->layout != FC_LAYOUT_HASH) continue;
    ft = &fc_feat_types[t->type];
    c.u = u;
    c.n = n;
    c.sym = s->sym;
    c.cls = s->cls;
    c.l2 = m->has_tlex ? s->l2 : NULL;
    fc_feat_anchors(t->type, n, &lo, &hi);
    for (j = lo; j < hi; j++) {
      uint64_t key = fc_feat_key(t->type, &c, j), h;
      const uint8_t *w;
      int b;
      if (!key) continue;
      h = fc_feat_mix(key);
      if (!(w = fc_segtab_find(t, h, fc_seg_home(h, t->n_slots)))) continue;
      for (b = 0; b < t->n_blocks; b++) {
        ptrdiff_t k = j + ft->off[b];
        if (k >= 0 && (size_t)k < n) fc_seg_add4(emis + 4 * k, w + 4 * b, t->shift);
      }
    }
  }
  fc_seg_viterbi(emis, n, m->trans, m->start, m->end, u, s->bp, tags);
  fc_seg_cap_words(tags, n, u);
}

fenci_rc fc_segmodel_tag(const fc_segmodel *m, fc_segscratch *s, const fc_unit *u, size_t n, uint8_t *tags) {
  size_t i = 0, j, longest = 0;
  int ready;
  if (n == 0) return FENCI_OK;
  if (fc_seg_derive(m, n, &ready) != FENCI_OK) return FENCI_NOMEM;
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
    if (j > i) fc_segmodel_run(m, s, u + i, j - i, tags + i, ready);
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

#define FC_SEG_BREAK ((int64_t)1 << 52) /* above any forced word: the break rule always wins */

/* The punctuation rules (wordpunct.h): above an illegal move, below a
 * forced user word, which may break them. */
#define FC_SEG_PUNCT ((int64_t)1 << 45)

static int64_t fc_seg_forcepen(const fc_unit *u, int k) {
  int64_t p = u->brk && (k == FC_TAG_M || k == FC_TAG_E) ? -FC_SEG_BREAK : 0;
  if (u->force) return p + ((int)u->force - 1 == k ? 0 : -FC_SEG_FORCED);
  if (u->pc && (((u->pc & FC_PC_NOJOIN) && (k == FC_TAG_M || k == FC_TAG_E)) ||
                ((u->pc & FC_PC_NOEND) && k == FC_TAG_E) || ((u->pc & FC_PC_NOBEGIN) && k == FC_TAG_B)))
    p -= FC_SEG_PUNCT;
  if (u->kind == FENCI_KIND_SPACE && k != FC_TAG_S) return p - FC_SEG_FORCED;
  return p;
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
  for (i = 1; i < n && !u[i].force && u[i].kind != FENCI_KIND_SPACE; i++) {
  }
  if (i == n) {
    /* no forced unit: only the legal moves can win, since B and S, never
     * penalised by the break rule, are legal predecessors of every tag;
     * a unit under the break rule (a quarter of the units of news text)
     * or a punctuation rule takes its penalties here, as fc_seg_forcepen
     * gives them */
    int64_t tEB = tr[FC_TAG_E * 4 + FC_TAG_B], tSB = tr[FC_TAG_S * 4 + FC_TAG_B];
    int64_t tBM = tr[FC_TAG_B * 4 + FC_TAG_M], tMM = tr[FC_TAG_M * 4 + FC_TAG_M];
    int64_t tBE = tr[FC_TAG_B * 4 + FC_TAG_E], tME = tr[FC_TAG_M * 4 + FC_TAG_E];
    int64_t tES = tr[FC_TAG_E * 4 + FC_TAG_S], tSS = tr[FC_TAG_S * 4 + FC_TAG_S];
    int64_t b0 = sc[0], m0 = sc[1], e0 = sc[2], s0 = sc[3];
    for (i = 1; i < n; i++) {
      const int32_t *e = emis + 4 * i;
      int64_t xb = e0 + tEB, yb = s0 + tSB, xm = b0 + tBM, ym = m0 + tMM;
      int64_t xe = b0 + tBE, ye = m0 + tME, xs = e0 + tES, ys = s0 + tSS;
      int64_t nb, nm, ne, ns, top;
      uint8_t *q = bp + 4 * i;
      q[0] = (uint8_t)(yb > xb ? FC_TAG_S : FC_TAG_E);
      q[1] = (uint8_t)(ym > xm ? FC_TAG_M : FC_TAG_B);
      q[2] = (uint8_t)(ye > xe ? FC_TAG_M : FC_TAG_B);
      q[3] = (uint8_t)(ys > xs ? FC_TAG_S : FC_TAG_E);
      nb = (yb > xb ? yb : xb) + e[0];
      nm = (ym > xm ? ym : xm) + e[1];
      ne = (ye > xe ? ye : xe) + e[2];
      ns = (ys > xs ? ys : xs) + e[3];
      if (u[i].brk | u[i].pc) {
        nb += fc_seg_forcepen(&u[i], FC_TAG_B);
        nm += fc_seg_forcepen(&u[i], FC_TAG_M);
        ne += fc_seg_forcepen(&u[i], FC_TAG_E);
        ns += fc_seg_forcepen(&u[i], FC_TAG_S);
      }
      top = nb > nm ? nb : nm;
      if (ne > top) top = ne;
      if (ns > top) top = ns;
      b0 = nb - top;
      m0 = nm - top;
      e0 = ne - top;
      s0 = ns - top;
    }
    sc[0] = b0;
    sc[1] = m0;
    sc[2] = e0;
    sc[3] = s0;
  } else
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
      if (u[i].force || u[i].brk || u[i].pc || u[i].kind == FENCI_KIND_SPACE) nsc[k] += fc_seg_forcepen(&u[i], k);
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
