/* nertag.c - features and labelling of characters for names (nertag.h). */
#include <string.h>

#include "alloc.h"
#include "chars.h"
#include "lookup.h"
#include "model.h"
#include "nertag.h"

const char *const fc_ner_labels[FC_NER_N_LABELS] = {"O",     "B-PER", "I-PER", "E-PER", "S-PER",
                                                    "B-LOC", "I-LOC", "E-LOC", "S-LOC", "B-ORG",
                                                    "I-ORG", "E-ORG", "S-ORG"};

#define FC_NER_LEXMAX 7 /* characters of a lexicon word looked at */

void fc_ner_work_free(fc_ner_work *w, const fenci_alloc *a) {
  fc_free(a, w->cp);
  fc_free(a, w->cls);
  fc_free(a, w->lb);
  fc_free(a, w->le);
  fc_free(a, w->lm);
  fc_free(a, w->tb);
  fc_free(a, w->te);
  fc_free(a, w->tm);
  fc_free(a, w->wb);
  fc_free(a, w->we);
  fc_free(a, w->gb);
  fc_free(a, w->ge);
  fc_free(a, w->gm);
  fc_free(a, w->gtb);
  fc_free(a, w->gte);
  fc_free(a, w->gtm);
  fc_free(a, w->norm);
  fc_free(a, w->noff);
  fc_free(a, w->keys);
  fc_free(a, w->koff);
  fc_free(a, w->kscratch);
  fc_free(a, w->emit);
  fc_free(a, w->allow);
  fc_free(a, w->lab);
  fc_chain_rows_free(&w->small, a);
  fc_chain_work_free(&w->cw, a);
  memset(w, 0, sizeof *w);
}

static int fc_ner_grow(fc_ner_work *w, size_t n, const fenci_alloc *a) {
  void *p;
  size_t nc;
  if (n + 1 <= w->cap) return 0;
  nc = n + n / 2 + 64;
#define FC_NER_RE(f)                                      \
  if (!(p = fc_realloc(a, w->f, nc * sizeof *w->f))) return -1; \
  w->f = p;
  FC_NER_RE(cp)
  FC_NER_RE(cls)
  FC_NER_RE(lb)
  FC_NER_RE(le)
  FC_NER_RE(lm)
  FC_NER_RE(tb)
  FC_NER_RE(te)
  FC_NER_RE(tm)
  FC_NER_RE(wb)
  FC_NER_RE(we)
  FC_NER_RE(gb)
  FC_NER_RE(ge)
  FC_NER_RE(gm)
  FC_NER_RE(gtb)
  FC_NER_RE(gte)
  FC_NER_RE(gtm)
  FC_NER_RE(noff)
#undef FC_NER_RE
  if (!(p = fc_realloc(a, w->norm, nc * 4))) return -1;
  w->norm = p;
  w->cap = nc;
  return 0;
}

/* The class of a lexicon word's tag for the features: its tag, persons'
 * nr and nrfg as one (the part-of-speech tags of the other words tell
 * the contexts apart: a verb after a name, a place word before 省). */
static uint8_t fc_ner_tagclass(const fenci_model *m, uint32_t word, uint16_t nr, uint16_t nrfg) {
  uint16_t id = fc_model_tag(m, word);
  if (id && (id == nr || id == nrfg)) return 1;
  return (uint8_t)(id < 200 ? id + 8 : 7);
}

uint32_t fc_ner_norm(uint32_t cp) {
  cp = fc_char_norm(cp);
  if (cp >= '0' && cp <= '9') return '0';
  if (cp >= 'A' && cp <= 'Z') return cp + 32;
  return cp;
}

uint32_t fc_ner_gaz_find(const fc_ner_gaz *g, uint64_t h) {
  uint32_t fp = (uint32_t)h ? (uint32_t)h : 1u, s = (uint32_t)(((h >> 32) * g->n_slots) >> 32), p;
  for (p = 0; p <= g->max_probe; p++) {
    uint32_t f = fc_rd32(g->slots + (size_t)s * 8);
    if (f == fp) return fc_rd32(g->slots + (size_t)s * 8 + 4);
    if (f == 0) return 0;
    if (++s == g->n_slots) s = 0;
  }
  return 0;
}

fenci_rc fc_ner_gaz_view(fc_ner_gaz *g, const uint8_t *p, size_t size) {
  memset(g, 0, sizeof *g);
  if (size < 16 || memcmp(p, "FCNG", 4) || fc_rd32(p + 4) != FC_NER_GAZ_VERSION) return FENCI_BADFORMAT;
  g->n_slots = fc_rd32(p + 8);
  g->max_probe = fc_rd32(p + 12);
  if (g->n_slots < 1 || g->max_probe >= g->n_slots || (size - 16) / 8 < g->n_slots) return FENCI_BADFORMAT;
  g->slots = p + 16;
  return FENCI_OK;
}

/* The types (bit per type) of a gazetteer value, without fold f's sightings. */
static uint8_t fc_ner_gtypes(uint32_t v, int fold) {
  uint32_t keep = (1u << FC_NER_FOLDS) - 1, t;
  uint8_t r = 0;
  if (fold >= 0) keep &= ~(1u << fold);
  for (t = 0; t < 3; t++)
    if ((v >> (t * FC_NER_FOLDS)) & keep) r |= (uint8_t)(1u << t);
  return r;
}

/* How many characters ahead the gazetteer and pair lookups are prefetched. */
#define FC_NER_AHEAD 8

/* The home slot of hash h (fc_ner_gaz_find's first probe). */
static inline const uint8_t *fc_ner_gaz_home(const fc_ner_gaz *g, uint64_t h) {
  return g->slots + (size_t)(((h >> 32) * g->n_slots) >> 32) * 8;
}

/* Every walk starts with a miss on its first character's slot, and most
 * go on to the second (a character begins some entity string): both are
 * fetched ahead of the walk at i. */
static inline void fc_ner_gaz_ahead(const fc_ner_gaz *g, const fc_ner_work *w, size_t n, size_t i) {
  uint64_t h = fc_ner_gstep(0, w->cp[i]);
  __builtin_prefetch(fc_ner_gaz_home(g, h));
  if (i + 1 < n) __builtin_prefetch(fc_ner_gaz_home(g, fc_ner_gstep(h, w->cp[i + 1])));
}

static void fc_ner_gaz_mark(fc_ner_work *w, const fc_ner_gaz *g, size_t n) {
  size_t i, len, j;
  for (i = 0; i < FC_NER_AHEAD && i < n; i++) fc_ner_gaz_ahead(g, w, n, i);
  for (i = 0; i < n; i++) {
    uint64_t h = 0;
    if (i + FC_NER_AHEAD < n) fc_ner_gaz_ahead(g, w, n, i + FC_NER_AHEAD);
    if (w->cls[i] == FC_C_SPACE) continue;
    for (len = 1; len <= FC_NER_GMAX && i + len <= n; len++) {
      uint32_t v;
      uint8_t ty, l8;
      h = fc_ner_gstep(h, w->cp[i + len - 1]);
      v = fc_ner_gaz_find(g, h);
      if (!v) break;
      ty = fc_ner_gtypes(v, w->fold - 1);
      if (ty) {
        l8 = (uint8_t)(len < 8 ? len : 8);
        /* the longest wins; ties are impossible (one string per length) */
        w->gb[i] = l8, w->gtb[i] = ty;
        if (l8 >= w->ge[i + len - 1]) w->ge[i + len - 1] = l8, w->gte[i + len - 1] = ty;
        for (j = i + 1; j + 1 < i + len; j++)
          if (l8 >= w->gm[j]) w->gm[j] = l8, w->gtm[j] = ty;
      }
      if (!(v & FC_NER_GPREFIX)) break;
    }
  }
}

fenci_rc fc_ner_prepare(fc_ner_work *w, const fenci_model *m, const uint32_t *cps, size_t n,
                        const fenci_alloc *a) {
  size_t i, o = 0;
  uint16_t nr, nrfg;
  if (fc_ner_grow(w, n, a)) return FENCI_NOMEM;
  for (i = 0; i < n; i++) {
    uint32_t c = fc_ner_norm(cps[i]);
    w->cp[i] = c;
    w->cls[i] = (uint8_t)fc_char_class(cps[i]);
    w->noff[i] = (uint32_t)o;
    o += fc_utf8_encode(c, w->norm + o);
  }
  /* the lexicon and gazetteer fields start empty: array by array, as
   * stores of one field at a time (not each character's fields in turn) */
  memset(w->lb, 0, n * sizeof *w->lb);
  memset(w->le, 0, n * sizeof *w->le);
  memset(w->lm, 0, n * sizeof *w->lm);
  memset(w->tb, 0, n * sizeof *w->tb);
  memset(w->te, 0, n * sizeof *w->te);
  memset(w->tm, 0, n * sizeof *w->tm);
  memset(w->wb, 0xFF, n * sizeof *w->wb);
  memset(w->we, 0xFF, n * sizeof *w->we);
  memset(w->gb, 0, n * sizeof *w->gb);
  memset(w->ge, 0, n * sizeof *w->ge);
  memset(w->gm, 0, n * sizeof *w->gm);
  memset(w->gtb, 0, n * sizeof *w->gtb);
  memset(w->gte, 0, n * sizeof *w->gte);
  memset(w->gtm, 0, n * sizeof *w->gtm);
  {
    const fc_ner_gaz *g = w->gaz ? w->gaz : m ? m->nerg : NULL;
    if (g) fc_ner_gaz_mark(w, g, n);
  }
  w->noff[n] = (uint32_t)o;
  if (!m) return FENCI_OK;
  nr = m->tag_nr;
  nrfg = m->tag_nrfg;
  for (i = 0; i < n; i++) {
    fc_dat_match mt[FC_MAXM];
    size_t end = i + FC_NER_LEXMAX < n ? i + FC_NER_LEXMAX : n, k, nm, j, run;
    if (m->pairs.slots && i + FC_NER_AHEAD + 1 < n) { /* the pair step's miss, ahead */
      uint32_t c0 = w->cp[i + FC_NER_AHEAD], c1 = w->cp[i + FC_NER_AHEAD + 1];
      if (c0 >= FC_PAIR_LO && c0 <= FC_PAIR_HI && c1 >= FC_PAIR_LO && c1 <= FC_PAIR_HI)
        __builtin_prefetch(fc_pairs_home_slot(&m->pairs, c0, c1));
    }
    if (w->cls[i] != FC_C_HAN) continue;
    /* a run of main-block characters takes the lexicon's cached first and
     * pair steps (lookup.h), the rest the trie walk byte by byte */
    for (run = 0; i + run < end && w->cp[i + run] >= FC_UNK_LO && w->cp[i + run] <= FC_UNK_HI; run++) {
    }
    if (run && m->first) {
      uint32_t fe[2];
      fc_model_first(m, w->cp[i], fe);
      nm = fc_lex_prefix_run(m, fe, w->cp[i], run >= 2 ? w->cp[i + 1] : 0, w->norm + w->noff[i], run,
                             w->noff[end] - w->noff[i], mt);
    } else
      nm = fc_dat_prefix(&m->trie, w->norm + w->noff[i], w->noff[end] - w->noff[i], mt, FC_MAXM);
    if (nm > FC_MAXM) nm = FC_MAXM;
    for (k = 0; k < nm; k++) {
      /* the match's length in characters */
      size_t len = 0;
      uint8_t tc;
      for (j = i + 1; j <= end; j++)
        if (w->noff[j] - w->noff[i] == mt[k].len) {
          len = j - i;
          break;
        }
      if (len < 2) continue;
      tc = fc_ner_tagclass(m, mt[k].value, nr, nrfg);
      if (len >= w->lb[i]) w->lb[i] = (uint8_t)len, w->tb[i] = tc, w->wb[i] = mt[k].value;
      if (len >= w->le[i + len - 1])
        w->le[i + len - 1] = (uint8_t)len, w->te[i + len - 1] = tc, w->we[i + len - 1] = mt[k].value;
      for (j = i + 1; j + 1 < i + len; j++)
        if (len >= w->lm[j]) w->lm[j] = (uint8_t)len, w->tm[j] = tc;
    }
  }
  return FENCI_OK;
}

enum {
  N_BIAS, N_C0, N_CM1, N_CP1, N_CM2, N_CP2, N_BM1, N_BP1, N_BM2, N_BP2, N_TRI, N_CLS, N_LB, N_LE, N_LM,
  N_LBC, N_LEXALL, N_GB, N_GE, N_GM, N_GALL, N_GC, N_BLB, N_BLE, N_WPREV, N_WNEXT, N_GCTX
};
/* N_CM1.. N_CP2 and N_BM1, N_BM2, N_BP2 are members of these groups now */
const uint64_t fc_ner_groups = (1ull << N_C0) | (1ull << N_BP1);

/* The templates whose keys read nothing but a character's classes (and
 * its neighbours'), the lengths and tag classes of its lexicon words and
 * the lengths and types of its gazetteer strings: values of a few bits,
 * which repeat from character to character.  fc_ner_tag adds their summed
 * weights from a cache keyed by those values instead of looking each key
 * up; integer sums, so the emissions are exactly those of the lookups. */
#define FC_NER_SMALL                                                                                   \
  ((1ull << N_BIAS) | (1ull << N_CLS) | (1ull << N_LB) | (1ull << N_LE) | (1ull << N_LM) |              \
   (1ull << N_LEXALL) | (1ull << N_GB) | (1ull << N_GE) | (1ull << N_GM) | (1ull << N_GALL))

/* The class of character i + d of the n, with the padding classes 30 and
 * 31 before the first and after the last. */
static inline uint32_t fc_ner_cls_at(const fc_ner_work *w, size_t n, size_t i, ptrdiff_t d) {
  ptrdiff_t j = (ptrdiff_t)i + d;
  return j < 0 ? 30u : (size_t)j >= n ? 31u : (uint32_t)w->cls[j];
}

size_t fc_ner_keys(const fc_ner_work *w, size_t n, size_t i, uint64_t *keys, int which) {
  size_t k = 0;
  /* the templates listed: all (training), or without or only the small ones */
  const uint64_t want = which == FC_NER_KEYS_ALL ? ~0ull : which == FC_NER_KEYS_SMALL ? FC_NER_SMALL : ~FC_NER_SMALL;
#define C(d) ((ptrdiff_t)i + (d) < 0 ? 0x110001u : (size_t)((ptrdiff_t)i + (d)) >= n ? 0x110002u : w->cp[i + (d)])
#define CL(d) fc_ner_cls_at(w, n, i, (d))
#define K(t, h) \
  if ((want >> (t)) & 1) keys[k++] = fc_chain_key((t), (h))
  uint64_t cm2 = C(-2), cm1 = C(-1), c0 = C(0), cp1 = C(1), cp2 = C(2);
  /* decoding (the large keys) leaves out the members fc_chain_emit_seq skips */
#define G(t, h, off)                                                                        \
  if (((want >> (t)) & 1) && (which != FC_NER_KEYS_LARGE || fc_chain_member_looked_up(i, (off), n))) \
  keys[k++] = fc_chain_gkey((t), (h), (off))
  uint64_t gall = (uint64_t)w->gtb[i] << 16 | w->gte[i] << 8 | w->gtm[i];
  K(N_BIAS, 1);
  /* two groups (FC_NER_GROUPS): the character at -2..+2, anchored at that
   * character, and the pairs (-2,-1) .. (+1,+2), anchored at their first */
  G(N_C0, c0, 0);
  G(N_C0, cm1, 1);
  G(N_C0, cp1, -1);
  G(N_C0, cm2, 2);
  G(N_C0, cp2, -2);
  G(N_BP1, cm1 << 21 | c0, 1);
  G(N_BP1, c0 << 21 | cp1, 0);
  G(N_BP1, cm2 << 21 | cm1, 2);
  G(N_BP1, cp1 << 21 | cp2, -1);
#undef G
  K(N_TRI, (cm1 << 42) | (c0 << 21) | cp1);
  K(N_CLS, (uint64_t)CL(-1) << 16 | CL(0) << 8 | CL(1));
  K(N_LB, (uint64_t)w->lb[i] << 8 | w->tb[i]);
  K(N_LE, (uint64_t)w->le[i] << 8 | w->te[i]);
  K(N_LM, (uint64_t)w->lm[i] << 8 | w->tm[i]);
  K(N_LBC, (uint64_t)w->tb[i] << 24 | c0);
  K(N_LEXALL, (uint64_t)w->tb[i] << 16 | w->te[i] << 8 | w->tm[i]);
  K(N_GB, (uint64_t)w->gb[i] << 8 | w->gtb[i]);
  K(N_GE, (uint64_t)w->ge[i] << 8 | w->gte[i]);
  K(N_GM, (uint64_t)w->gm[i] << 8 | w->gtm[i]);
  K(N_GALL, gall);
  K(N_GC, gall << 24 | c0);
  K(N_BLB, (c0 << 21 | cp1) << 8 | w->tb[i]);
  K(N_BLE, (cm1 << 21 | c0) << 8 | w->te[i]);
  /* the lexicon words just before and just after: context beyond +-2 */
  K(N_WPREV, i > 0 ? (uint64_t)w->we[i - 1] : 0xFFFFFFFEu);
  K(N_WNEXT, i + 1 < n ? (uint64_t)w->wb[i + 1] : 0xFFFFFFFEu);
  /* the types of the gazetteer strings ending just before and beginning
   * just after, with the character: 在|巴黎|的 and 张|三 read as context */
  K(N_GCTX, (uint64_t)c0 << 16 | (uint64_t)(i > 0 ? w->gte[i - 1] : 9) << 8 | (i + 1 < n ? w->gtb[i + 1] : 9));
#undef C
#undef CL
#undef K
  return k;
}


#define FC_NER_ROWS 1024 /* cached rows (a power of two) */

/* Latin letters and digits that stand side by side are one word (CEO,
 * A380, 2023): a name never begins or ends inside them.  The decoder is
 * told so by the labels each character may take (the recogniser, which
 * reads characters, put the O of CEO蒂姆·库克 into the person's name). */
static inline int fc_ner_alnum(uint8_t cls) { return cls == FC_C_LATIN || cls == FC_C_DIGIT || cls == FC_C_FWDIGIT; }

static int fc_ner_upper(uint32_t c) { return (c >= 'A' && c <= 'Z') || (c >= 0xFF21 && c <= 0xFF3A); }
static int fc_ner_lower(uint32_t c) { return (c >= 'a' && c <= 'z') || (c >= 0xFF41 && c <= 0xFF5A); }

/* A capitalised Latin word (Python, Excel: one capital, then two or more
 * small letters, nothing alphanumeric around it) does not end a name: the
 * training text's Latin names are acronyms (ＩＢＭ, ＩＭＦ, 166 in all)
 * and a handful of others, so its guesses on such words alone are noise
 * (Python as ORG), while Intel公司 and Siemens集团, where the name goes on
 * past the word, are names.  Takes the labels that end one (E-, S-) from
 * the last character of each such word of cps[0..n); 1 when any. */
static int fc_ner_latin_words(fc_ner_work *w, const uint32_t *cps, size_t n, uint32_t before, uint32_t after,
                              uint64_t ends) {
  size_t i = 0, j, k;
  int any = 0;
  while (i < n) {
    if (!fc_ner_alnum(w->cls[i])) {
      i++;
      continue;
    }
    for (j = i + 1; j < n && fc_ner_alnum(w->cls[j]); j++) {
    }
    if (j - i >= 3 && fc_ner_upper(cps[i]) && !(i == 0 && before && fc_ner_alnum((uint8_t)fc_char_class(before))) &&
        !(j == n && after && fc_ner_alnum((uint8_t)fc_char_class(after)))) {
      for (k = i + 1; k < j && fc_ner_lower(cps[k]); k++) {
      }
      if (k == j) w->allow[j - 1] &= ~ends, any = 1;
    }
    i = j;
  }
  return any;
}

/* Fills w->allow for the n prepared characters cps, between the characters
 * before and after them (0: none; a piece cut at its length limit lies
 * between others); 0 when every character may take every label. */
static int fc_ner_word_allow(fc_ner_work *w, const uint32_t *cps, size_t n, uint32_t L, uint32_t before,
                             uint32_t after) {
  uint64_t begins = 0, ends = 0; /* the labels B-, S- (a name begins there) and E-, S- (it ends) */
  size_t i;
  int any = 0;
  unsigned l;
  if (L != FC_NER_N_LABELS || n == 0) return 0; /* another label set: no such rule */
  for (l = 1; l < FC_NER_N_LABELS; l++) {
    if (fc_ner_pos(l) == 0 || fc_ner_pos(l) == 3) begins |= 1ull << l;
    if (fc_ner_pos(l) == 2 || fc_ner_pos(l) == 3) ends |= 1ull << l;
  }
  for (i = 0; i < n; i++) {
    uint64_t a = FC_CHAIN_ALL;
    int here = fc_ner_alnum(w->cls[i]);
    if (here && (i > 0 ? fc_ner_alnum(w->cls[i - 1]) : before && fc_ner_alnum((uint8_t)fc_char_class(before))))
      a &= ~begins, any = 1;
    if (here && (i + 1 < n ? fc_ner_alnum(w->cls[i + 1]) : after && fc_ner_alnum((uint8_t)fc_char_class(after))))
      a &= ~ends, any = 1;
    w->allow[i] = a;
  }
  if (fc_ner_latin_words(w, cps, n, before, after, ends)) any = 1;
  return any;
}

/* The values the small templates of character i read (all of them, so
 * that equal values mean equal keys). */
static void fc_ner_small_values(const fc_ner_work *w, size_t n, size_t i, uint64_t *k0, uint64_t *k1) {
  uint64_t cm = fc_ner_cls_at(w, n, i, -1), cp = fc_ner_cls_at(w, n, i, 1);
  *k0 = cm | (uint64_t)w->cls[i] << 8 | cp << 16 | (uint64_t)w->lb[i] << 24 | (uint64_t)w->tb[i] << 32 |
        (uint64_t)w->le[i] << 40 | (uint64_t)w->te[i] << 48 | (uint64_t)w->lm[i] << 56;
  *k1 = (uint64_t)w->tm[i] | (uint64_t)w->gb[i] << 8 | (uint64_t)w->gtb[i] << 16 | (uint64_t)w->ge[i] << 24 |
        (uint64_t)w->gte[i] << 32 | (uint64_t)w->gm[i] << 40 | (uint64_t)w->gtm[i] << 48 | (uint64_t)1 << 56;
}

/* Whether cps[i] ends a sentence for fc_ner_piece. */
static int fc_ner_end(uint32_t c) {
  return c == 0x3002 || c == 0xFF01 || c == 0xFF1F || c == 0xFF1B || c == '!' || c == '?' || c == ';' || c == '\n';
}

size_t fc_ner_piece(const uint32_t *cps, size_t n) {
  size_t i, lim = n < FC_NER_MAX_SEQ ? n : FC_NER_MAX_SEQ;
  for (i = 0; i < lim; i++)
    if (fc_ner_end(cps[i])) return i + 1;
  return lim;
}

fenci_rc fc_ner_tag(const fenci_model *m, const fc_chain *c, fc_ner_work *w, const uint32_t *cps, size_t n,
                    uint8_t *labels, const fenci_alloc *a) {
  size_t p0, i, L = c->n_labels;
  fenci_rc rc;
  int allow, cut_before = 0;
  for (p0 = 0; p0 < n; p0 += fc_ner_piece(cps + p0, n - p0)) {
    size_t len = fc_ner_piece(cps + p0, n - p0), s0 = p0, e0, wn;
    /* A piece that ends at the length limit, inside a sentence, is decoded
     * with up to FC_NER_CTX characters of the text around it (to the
     * sentence's end) whose labels are dropped, as is the one after it: a
     * name across the cut comes out whole, from both sides alike (long
     * lines without punctuation, such as speech transcripts). */
    int cut_after = p0 + len < n && !fc_ner_end(cps[p0 + len - 1]);
    if (cut_before) s0 = p0 > FC_NER_CTX ? p0 - FC_NER_CTX : 0;
    e0 = p0 + len;
    if (cut_after)
      while (e0 < n && e0 < p0 + len + FC_NER_CTX && !fc_ner_end(cps[e0 - 1])) e0++;
    wn = e0 - s0;
    if (w->kcap < wn) {
      void *p;
      size_t nc = FC_NER_MAX_SEQ + 2 * FC_NER_CTX;
      if (!(p = fc_realloc(a, w->keys, nc * FC_NER_MAX_KEYS * sizeof *w->keys))) return FENCI_NOMEM;
      w->keys = p;
      if (!(p = fc_realloc(a, w->koff, (nc + 1) * sizeof *w->koff))) return FENCI_NOMEM;
      w->koff = p;
      if (!(p = fc_realloc(a, w->kscratch, nc * FC_NER_MAX_KEYS * FC_CHAIN_SCRATCH * sizeof *w->kscratch))) return FENCI_NOMEM;
      w->kscratch = p;
      if (!(p = fc_realloc(a, w->emit, nc * FC_CHAIN_MAX_LABELS * sizeof *w->emit))) return FENCI_NOMEM;
      w->emit = p;
      if (!(p = fc_realloc(a, w->allow, nc * sizeof *w->allow))) return FENCI_NOMEM;
      w->allow = p;
      if (!(p = fc_realloc(a, w->lab, nc))) return FENCI_NOMEM;
      w->lab = p;
      w->kcap = nc;
    }
    rc = fc_ner_prepare(w, m, cps + s0, wn, a);
    if (rc != FENCI_OK) return rc;
    w->koff[0] = 0;
    memset(w->emit, 0, wn * L * sizeof *w->emit);
    for (i = 0; i < wn; i++) {
      uint64_t *k = w->keys + w->koff[i], k0, k1;
      int32_t *rows;
      int hit;
      size_t nk;
      fc_ner_small_values(w, wn, i, &k0, &k1);
      rows = fc_chain_rows_at(&w->small, c, FC_NER_ROWS, 1, k0, k1, &hit, a);
      if (rows && !hit) {
        /* a miss: the small keys alone */
        uint64_t small[FC_NER_MAX_KEYS];
        fc_chain_rows_fill(c, rows, 1, small, fc_ner_keys(w, wn, i, small, FC_NER_KEYS_SMALL));
      }
      if (rows) fc_chain_rows_add(c, w->emit, wn, i, rows, 1, NULL);
      nk = fc_ner_keys(w, wn, i, k, rows ? FC_NER_KEYS_LARGE : FC_NER_KEYS_ALL);
      w->koff[i + 1] = w->koff[i] + (uint32_t)nk;
    }
    fc_chain_emit_seq(c, w->keys, w->koff, wn, w->emit, w->kscratch, NULL);
    allow = fc_ner_word_allow(w, cps + s0, wn, L, s0 ? cps[s0 - 1] : 0, e0 < n ? cps[e0] : 0);
    rc = fc_chain_decode(c, w->emit, wn, allow ? w->allow : NULL, w->lab, &w->cw, a);
    if (rc != FENCI_OK) return rc;
    memcpy(labels + p0, w->lab + (p0 - s0), len);
    cut_before = cut_after;
  }
  return FENCI_OK;
}
