/* postag.c - features and tagging of words in context (postag.h). */
#include <string.h>

#include "alloc.h"
#include "chars.h"
#include "lookup.h"
#include "model.h"
#include "postag.h"

void fc_pos_work_free(fc_pos_work *w, const fenci_alloc *a) {
  fc_free(a, w->norm);
  fc_free(a, w->noff);
  fc_free(a, w->first);
  fc_free(a, w->last);
  fc_free(a, w->first2);
  fc_free(a, w->last2);
  fc_free(a, w->nch);
  fc_free(a, w->lextag);
  fc_free(a, w->wh);
  fc_free(a, w->amb);
  fc_free(a, w->ambf);
  fc_free(a, w->keys);
  fc_free(a, w->koff);
  fc_free(a, w->kscratch);
  fc_free(a, w->emit);
  fc_free(a, w->lab);
  fc_free(a, w->allow);
  fc_chain_rows_free(&w->own, a);
  fc_chain_work_free(&w->cw, a);
  memset(w, 0, sizeof *w);
}

static int fc_pos_grow(fc_pos_work *w, size_t n, const fenci_alloc *a) {
  size_t nc;
  void *p;
  if (n + 1 <= w->cap) return 0;
  nc = n + n / 2 + 64;
#define FC_POS_RE(field)                                  \
  if (!(p = fc_realloc(a, w->field, nc * sizeof *w->field))) return -1; \
  w->field = p;
  FC_POS_RE(noff)
  FC_POS_RE(first)
  FC_POS_RE(last)
  FC_POS_RE(first2)
  FC_POS_RE(last2)
  FC_POS_RE(nch)
  FC_POS_RE(lextag)
  FC_POS_RE(wh)
  FC_POS_RE(amb)
  FC_POS_RE(ambf)
  FC_POS_RE(allow)
#undef FC_POS_RE
  w->cap = nc;
  return 0;
}

/* One normalised character for the features. */
static uint32_t fc_pos_norm(uint32_t cp) {
  cp = fc_char_norm(cp);
  if (cp >= '0' && cp <= '9') return '0';
  if (cp >= 'A' && cp <= 'Z') return cp + 32;
  return cp;
}

fenci_rc fc_pos_dict_view(fc_pos_dict *d, const fc_section *sec, const fc_chain *c, char *err, size_t errlen) {
  /* the dictionary starts at the first 16-byte boundary after the pairs */
  size_t end = (size_t)(c->pairs - sec->data) + (size_t)c->n_pairs * 4, off = (end + 15) & ~(size_t)15;
  const uint8_t *p;
  uint32_t n, mp;
  memset(d, 0, sizeof *d);
  if (sec->size < FC_CHAIN_HEAD || fc_rd32(sec->data + 44) != FC_POS_FEATURE_VERSION) {
    fc_errf(err, errlen, "%.4s: tagger of feature version %u, this library has %u: retrain", sec->tag,
            sec->size < FC_CHAIN_HEAD ? 0u : (unsigned)fc_rd32(sec->data + 44), (unsigned)FC_POS_FEATURE_VERSION);
    return FENCI_BADFORMAT;
  }
  if (off > sec->size || sec->size - off < FC_POSD_HEAD || memcmp(sec->data + off, FC_POSD_MAGIC, 4)) {
    fc_errf(err, errlen, "%.4s: no tag dictionary after the labeller", sec->tag);
    return FENCI_BADFORMAT;
  }
  p = sec->data + off;
  n = fc_rd32(p + 4);
  mp = fc_rd32(p + 8);
  if (n == 0 || (n & (n - 1)) || mp >= n || (sec->size - off - FC_POSD_HEAD) / 16 < n) {
    fc_errf(err, errlen, "%.4s: tag dictionary header is inconsistent", sec->tag);
    return FENCI_BADFORMAT;
  }
  d->slots = p + FC_POSD_HEAD;
  d->n_slots = n;
  d->max_probe = mp;
  return FENCI_OK;
}

/* The labels and frequency class of word hash h (0 and 0 when it is absent). */
static void fc_pos_dict_get(const fc_pos_dict *d, uint64_t h, uint64_t *labels, uint8_t *freq) {
  uint32_t s = (uint32_t)fc_chain_mix(h) & (d->n_slots - 1), probe;
  for (probe = 0; probe <= d->max_probe; probe++) {
    const uint8_t *e = d->slots + (size_t)s * 16;
    uint64_t k = fc_rd64(e);
    if (!k) return;
    if (((k ^ h) & FC_POSD_LOW) == 0) {
      *labels = fc_rd64(e + 8);
      *freq = (uint8_t)(k >> 56);
      return;
    }
    s = (s + 1) & (d->n_slots - 1);
  }
}

fenci_rc fc_pos_prepare(fc_pos_work *w, const fenci_model *m, const fc_posword *words, size_t n,
                        const fenci_alloc *a) {
  size_t i, total = 0;
  for (i = 0; i < n; i++) total += words[i].len + 4;
  if (fc_pos_grow(w, n, a)) return FENCI_NOMEM;
  if (total > w->norm_cap) {
    void *p = w->norm;
    if (fc_grow(a, &p, &w->norm_cap, total, 1)) return FENCI_NOMEM;
    w->norm = p;
  }
  w->noff[0] = 0;
  for (i = 0; i < n; i++) {
    const uint8_t *s = words[i].s;
    size_t len = words[i].len, p = 0, o = w->noff[i];
    uint32_t nch = 0, c1 = 0, c2 = 0, cp = 0, v;
    while (p < len) {
      uint8_t buf[4];
      size_t k, b = fc_utf8_decode(s + p, len - p, &cp);
      if (cp == FC_BADCP) cp = 0xFFFD;
      else cp = fc_pos_norm(cp);
      p += b;
      k = fc_utf8_encode(cp, buf);
      /* a normalised character never takes more bytes than len + 4 allows:
       * U+FFFD (3 bytes) replaces one byte, other forms keep their width
       * or shrink, except rare 3 -> 4 byte simplifications */
      if (o + k > w->noff[0] + total) break;
      memcpy(w->norm + o, buf, k);
      o += k;
      if (nch == 0) c1 = cp;
      else if (nch == 1) c2 = cp;
      nch++;
    }
    w->noff[i + 1] = (uint32_t)o;
    w->nch[i] = (uint16_t)(nch > 65535 ? 65535 : nch);
    w->first[i] = c1;
    w->last[i] = nch ? cp : 0;
    /* the first two and the last two characters, hashed into 32 bits */
    w->first2[i] = (uint32_t)fc_chain_mix((uint64_t)c1 << 21 | c2);
    {
      /* the character before the last */
      size_t q = w->noff[i + 1], st = w->noff[i];
      uint32_t prev = 0;
      if (nch >= 2) {
        size_t e = q;
        /* step back over the last character, then decode the one before */
        do e--; while (e > st && (w->norm[e] & 0xC0) == 0x80);
        {
          size_t b = e;
          do b--; while (b > st && (w->norm[b] & 0xC0) == 0x80);
          fc_utf8_decode(w->norm + b, e - b, &prev);
        }
      }
      w->last2[i] = (uint32_t)fc_chain_mix((uint64_t)prev << 21 | (nch ? cp : 0));
    }
    w->lextag[i] = 0;
    w->wh[i] = fc_pos_hash(w->norm + w->noff[i], w->noff[i + 1] - w->noff[i]);
    w->amb[i] = 0;
    w->ambf[i] = 0;
    if (m && m->pos_dict.n_slots) fc_pos_dict_get(&m->pos_dict, w->wh[i], &w->amb[i], &w->ambf[i]);
    if (m && w->noff[i + 1] > w->noff[i] && fc_lex_find(m, w->norm + w->noff[i], w->noff[i + 1] - w->noff[i], &v))
      w->lextag[i] = (uint16_t)(fc_model_tag(m, v) + 1); /* 1: a lexicon word without a tag */
  }
  return FENCI_OK;
}

/* Template numbers: a model is trained and used with the same list. */
enum {
  T_BIAS, T_W0, T_WM1, T_WP1, T_WM1W0, T_W0WP1, T_WM2, T_WP2, T_FIRST, T_LAST, T_FIRST2, T_LAST2,
  T_LENKIND, T_LEX, T_LEXLAST, T_JOINL, T_JOINR, T_LEXCTX, T_FIRSTLEN, T_LASTLEN, T_LASTM1, T_FIRSTP1,
  T_W0LEXR, T_FIRSTLAST, T_FIRSTLASTLEN, T_W0WM2, T_W0WP2, T_DICT, T_DICTWM1, T_DICTWP1
};

/* T_WP1, T_WM2, T_WP2, T_JOINL, T_LASTM1 and T_FIRSTP1 are members of
 * these groups now (their numbers stay unused) */
const uint64_t fc_pos_groups = (1ull << T_WM1) | (1ull << T_FIRST) | (1ull << T_LAST) | (1ull << T_JOINR);

static uint64_t fc_pos_word_hash(const fc_pos_work *w, size_t n, ptrdiff_t i) {
  if (i < 0) return 0x51;
  if ((size_t)i >= n) return 0x52;
  return w->wh[i];
}

/* The group anchors at word i (the members of offset 0 of fc_pos_keys, which
 * takes them from here): all the keys of a word whose label is fixed
 * (fc_pos_tag), since their rows score its neighbours.  A neighbour's other contributions come from its
 * own keys, the padding anchors included, so its scores stay those of a
 * full lookup. */
/* The anchor of the join of word i's last and the next word's first
 * character: the one anchor that reads a neighbour. */
static uint64_t fc_pos_join_anchor(const fc_pos_work *w, size_t n, size_t i) {
  uint32_t fp1 = i + 1 < n ? w->first[i + 1] : 0x110002;
  return fc_chain_gkey(T_JOINR, (uint64_t)w->last[i] << 32 | fp1, 0);
}

static size_t fc_pos_anchor_keys(const fc_pos_work *w, size_t n, size_t i, uint64_t *keys) {
  keys[0] = fc_chain_gkey_rep(T_WM1, fc_pos_word_hash(w, n, (ptrdiff_t)i));
  keys[1] = fc_chain_gkey(T_FIRST, w->first[i], 0);
  keys[2] = fc_chain_gkey(T_LAST, w->last[i], 0);
  keys[3] = fc_pos_join_anchor(w, n, i);
  return 4;
}

/* fc_pos_keys's fourth list: the word's own keys (fc_pos_own_keys) */
#define FC_POS_OWN 3

size_t fc_pos_keys(const fc_pos_work *w, const fc_posword *words, size_t n, size_t i, uint64_t *keys, int decode) {
  size_t k = 0;
  ptrdiff_t j = (ptrdiff_t)i;
  uint64_t w0 = fc_pos_word_hash(w, n, j), wm1 = fc_pos_word_hash(w, n, j - 1), wp1 = fc_pos_word_hash(w, n, j + 1);
  uint32_t nch = w->nch[i] > 6 ? 6 : w->nch[i];
  uint32_t lm1 = i > 0 ? w->last[i - 1] : 0x110001, fp1 = i + 1 < n ? w->first[i + 1] : 0x110002;
  uint32_t tm1 = i > 0 ? w->lextag[i - 1] : 0xFFFF, tp1 = i + 1 < n ? w->lextag[i + 1] : 0xFFFE;
  uint64_t an[4];
  /* K: a key of the word and its neighbours; O: of the word alone */
#define K(t, h) \
  if (decode != FC_POS_OWN) keys[k++] = fc_chain_key((t), (h))
#define O(t, h) \
  if (decode != FC_POS_CONTEXT) keys[k++] = fc_chain_key((t), (h))
#define G(t, h, off) \
  if (decode != FC_POS_OWN && (decode == FC_POS_TRAIN || fc_chain_member_looked_up(i, (off), n))) \
  keys[k++] = fc_chain_gkey((t), (h), (off))
#define A(j) \
  if (decode != FC_POS_CONTEXT) keys[k++] = an[j]
  fc_pos_anchor_keys(w, n, i, an);
  O(T_BIAS, 1);
  /* the word itself and with its neighbours; the current word with the
   * lexicon's tag after it and with the words two away are the commonest
   * contexts of the v/vn/n and p/v choices.  A word the tag dictionary
   * lacks was never trained on, so its word keys would find no weights:
   * they are left out, and training, whose dictionary leaves out the
   * word's own fold, thereby learns new words from the other features. */
  if (w->amb[i]) {
    O(T_W0, w0);
    K(T_WM1W0, wm1 * 0x9E3779B97F4A7C15ull ^ w0);
    K(T_W0WP1, w0 * 0x9E3779B97F4A7C15ull ^ wp1);
    K(T_W0LEXR, w0 * 0x9E3779B97F4A7C15ull ^ tp1);
    K(T_W0WM2, w0 * 0x9E3779B97F4A7C15ull ^ fc_pos_word_hash(w, n, j - 2));
    K(T_W0WP2, w0 * 0x9E3779B97F4A7C15ull ^ fc_pos_word_hash(w, n, j + 2));
  }
  /* groups (fc_pos_groups): the words at -2, -1, +1, +2, anchored at the
   * word (looked up through its anchor-only key: the word's own template
   * is left out for unknown words); the first and the last character of
   * this word and of its neighbour; the joins of last and first characters */
  A(0);
  G(T_WM1, wm1, 1);
  G(T_WM1, wp1, -1);
  G(T_WM1, fc_pos_word_hash(w, n, j - 2), 2);
  G(T_WM1, fc_pos_word_hash(w, n, j + 2), -2);
  A(1);
  A(2);
  if (nch >= 3) {
    O(T_FIRST2, w->first2[i]);
    O(T_LAST2, w->last2[i]);
  }
  O(T_LENKIND, (uint64_t)nch << 8 | words[i].kind);
  O(T_LEX, w->lextag[i]);
  O(T_LEXLAST, (uint64_t)w->lextag[i] << 32 | w->last[i]);
  G(T_JOINR, (uint64_t)lm1 << 32 | w->first[i], 1);
  if (decode != FC_POS_OWN) keys[k++] = an[3];
  K(T_LEXCTX, (uint64_t)tm1 << 32 | (uint64_t)w->lextag[i] << 16 | tp1);
  O(T_FIRSTLEN, (uint64_t)w->first[i] << 8 | nch);
  O(T_LASTLEN, (uint64_t)w->last[i] << 8 | nch);
  G(T_LAST, lm1, 1);
  G(T_FIRST, fp1, -1);
  if (nch >= 2) {
    /* both ends of a word name its kind better than either (unknown words) */
    O(T_FIRSTLAST, (uint64_t)w->first[i] << 32 | w->last[i]);
    O(T_FIRSTLASTLEN, ((uint64_t)w->first[i] << 32 | w->last[i]) * 31 + nch);
  }
  {
    /* the labels the word had in training and how often (the tag
     * dictionary), alone and with the neighbours: rare words take the
     * labels they had, ambiguous ones learn their contexts by class */
    uint64_t d = w->amb[i] * 0x9E3779B97F4A7C15ull ^ w->ambf[i];
    O(T_DICT, d);
    K(T_DICTWM1, d * 0x9E3779B97F4A7C15ull ^ wm1);
    K(T_DICTWP1, d * 0x9E3779B97F4A7C15ull ^ wp1);
  }
#undef K
#undef O
#undef G
#undef A
  return k;
}

size_t fc_pos_own_keys(const fc_pos_work *w, const fc_posword *words, size_t n, size_t i, uint64_t *keys) {
  return fc_pos_keys(w, words, n, i, keys, FC_POS_OWN);
}

/* The label index of a tag name in c, or -1. */
static int fc_pos_label(const fc_chain *c, const char *name) {
  uint32_t i;
  for (i = 0; i < c->n_labels; i++)
    if (!strcmp(c->label[i], name)) return (int)i;
  return -1;
}

/* Words of a number and a unit of time or a large number, and ordinals
 * (第三, 第3): 't' (2), 'm' (1), or 0 for other words.  Each of these forms
 * has that one tag in every one of its 7,000 words in People's Daily
 * 1998-01 (３１日, １２月, １９９８年, ５时, ３０分, ３万, ２亿, 第十五), and
 * other segmentations make them too (3月5日, 12点30分, 第3): they are
 * fixed, as numbers are.  s is the word normalised (digits as 0). */
/* A list's number written as one symbol (① ⑵ ⒈ ❶ ㈠ ㊀): punctuation to
 * the segmenter, but People's Daily tags them m (all 19 of the tagger's
 * training and dev days). */
static int fc_pos_enumerator(const uint8_t *s, size_t n) {
  uint32_t c;
  if (n != 3 || fc_utf8_decode(s, n, &c) != 3) return 0;
  return (c >= 0x2460 && c <= 0x249B) || (c >= 0x2776 && c <= 0x2793) || (c >= 0x3220 && c <= 0x3229) ||
         (c >= 0x3280 && c <= 0x3289);
}

static int fc_pos_numeric(const uint8_t *s, size_t n) {
  static const char *const time_units[] = {"年", "月", "日", "时", "月份", "分", "点", "点钟", NULL};
  static const char *const big[] = {"万", "亿", "万亿", "兆", "千兆", NULL};
  static const char numerals[] = "一二三四五六七八九十百千万零〇两";
  size_t i = 0, k, l;
  int pieces = 0, any = 0, kind = 0;
  if (n > 3 && !memcmp(s, "第", 3)) { /* an ordinal: numerals alone after 第 */
    for (i = 3; i < n; i += l) {
      if (s[i] == '0') {
        l = 1;
        continue;
      }
      for (k = 0, l = 0; numerals[k]; k += 3)
        if (n - i >= 3 && !memcmp(s + i, numerals + k, 3)) l = 3;
      if (!l) return 0;
    }
    return 1;
  }
  /* digits (with decimals) and a unit, one or more times: 3月5日 */
  while (i < n) {
    size_t d = i;
    const char *const *units;
    while (i < n && (s[i] == '0' || (s[i] == '.' && i > d))) i++;
    if (i == d || i == n) return 0;
    for (units = time_units, k = 0, l = 0; units[k]; k++)
      if (strlen(units[k]) <= n - i && !memcmp(s + i, units[k], strlen(units[k])) && strlen(units[k]) > l) l = strlen(units[k]);
    if (l && kind != 1) {
      kind = 2;
    } else {
      for (units = big, k = 0, l = 0; units[k]; k++)
        if (strlen(units[k]) <= n - i && !memcmp(s + i, units[k], strlen(units[k])) && strlen(units[k]) > l)
          l = strlen(units[k]);
      if (!l || kind == 2 || pieces) return 0;
      kind = 1;
    }
    i += l;
    pieces++;
    any = 1;
  }
  return any ? kind : 0;
}

/* A word with more than one allowed label is scored. */
static inline int fc_pos_free(uint64_t allow) { return (allow & (allow - 1)) != 0; }

/* The rows of word i's own keys (offsets -2..+2, FC_POS_CACHE_ROWS x
 * n_labels) from the cache, looked up and kept on a miss; NULL without a
 * cache (the caller then lists the keys themselves). */
static const int32_t *fc_pos_own_rows(fc_pos_work *w, const fc_chain *c, const fc_posword *pw, size_t n, size_t i,
                                      const fenci_alloc *a) {
  uint64_t keys[FC_POS_MAX_KEYS];
  int hit;
  /* the word's hash and every other value its own keys read besides what
   * the hash fixes (a word whose normalised bytes were cut short, three
   * invalid bytes say, keeps the characters it was read with) */
  uint64_t k1 = fc_chain_mix((uint64_t)pw[i].kind << 48 | (uint64_t)w->nch[i] << 32 | w->first[i]);
  k1 = fc_chain_mix(k1 ^ ((uint64_t)w->last[i] << 32 | w->first2[i]));
  k1 = fc_chain_mix(k1 ^ w->last2[i]);
  int32_t *rows = fc_chain_rows_at(&w->own, c, FC_POS_CACHE, FC_POS_CACHE_ROWS, w->wh[i], k1, &hit, a);
  if (rows && !hit) fc_chain_rows_fill(c, rows, FC_POS_CACHE_ROWS, keys, fc_pos_own_keys(w, pw, n, i, keys));
  return rows;
}

fenci_rc fc_pos_tag(const fenci_model *m, const fc_chain *c, fc_pos_work *w, const fc_posword *words, size_t n,
                    uint8_t *labels, const fenci_alloc *a) {
  size_t p0, i, L = c->n_labels;
  int lw = fc_pos_label(c, "w"), lnx = fc_pos_label(c, "nx"), lm = fc_pos_label(c, "m"), lt = fc_pos_label(c, "t");
  fenci_rc rc;
  for (p0 = 0; p0 < n; p0 += FC_POS_MAX_SEQ) {
    /* a piece is decoded with FC_POS_CTX words of context on either side
     * whose labels are dropped: its words get the features and, past a
     * fixed label in the context (punctuation), exactly the labels of one
     * decode of the whole sequence, so a word's tag does not depend on
     * where the pieces are cut */
    size_t kl = n - p0 < FC_POS_MAX_SEQ ? n - p0 : FC_POS_MAX_SEQ;
    size_t s0 = p0 > FC_POS_CTX ? p0 - FC_POS_CTX : 0;
    size_t e0 = n - (p0 + kl) > FC_POS_CTX ? p0 + kl + FC_POS_CTX : n, len = e0 - s0;
    const fc_posword *pw = words + s0;
    if (w->kcap < len) {
      void *p;
      size_t nc = FC_POS_MAX_SEQ + 2 * FC_POS_CTX;
      if (!(p = fc_realloc(a, w->lab, nc))) return FENCI_NOMEM;
      w->lab = p;
      if (!(p = fc_realloc(a, w->keys, nc * FC_POS_MAX_KEYS * sizeof *w->keys))) return FENCI_NOMEM;
      w->keys = p;
      if (!(p = fc_realloc(a, w->koff, (nc + 1) * sizeof *w->koff))) return FENCI_NOMEM;
      w->koff = p;
      if (!(p = fc_realloc(a, w->kscratch, nc * FC_POS_MAX_KEYS * FC_CHAIN_SCRATCH * sizeof *w->kscratch))) return FENCI_NOMEM;
      w->kscratch = p;
      if (!(p = fc_realloc(a, w->emit, nc * FC_CHAIN_MAX_LABELS * sizeof *w->emit))) return FENCI_NOMEM;
      w->emit = p;
      w->kcap = nc;
    }
    rc = fc_pos_prepare(w, m, pw, len, a);
    if (rc != FENCI_OK) return rc;
    /* Labels fixed before scoring: tokens that are no words (their tag
     * comes from their kind: README), and words that had one label in
     * training, FC_POS_FIXED_MIN times or more (the tagger gives them that
     * label all but never).  Words seen FC_POS_DICT_MIN times or more keep
     * the labels they had (a single one fixes them too).  Half of a
     * text's tokens thus skip scoring, and the decoder keeps only the
     * allowed labels. */
    for (i = 0; i < len; i++) {
      uint64_t am = w->amb[i] & fc_chain_label_mask((uint32_t)L), al = FC_CHAIN_ALL;
      int f = -1;
      switch (pw[i].kind) {
        case FENCI_KIND_PUNCT: f = fc_pos_enumerator(w->norm + w->noff[i], w->noff[i + 1] - w->noff[i]) ? lm : lw; break;
        /* symbols, emoji and control characters: no words either (People's
         * Daily tags its × w; the tagger's guesses on them were nr, nz, nx) */
        case FENCI_KIND_OTHER: f = lw; break;
        case FENCI_KIND_LATIN: case FENCI_KIND_URL: case FENCI_KIND_EMAIL: f = lnx; break;
        case FENCI_KIND_NUMBER: f = lm; break;
        default:
          switch (fc_pos_numeric(w->norm + w->noff[i], w->noff[i + 1] - w->noff[i])) {
            case 1: f = lm; break;
            case 2: f = lt; break;
            default: break;
          }
          if (f < 0 && am && (w->ambf[i] >= fc_pos_freq_class(FC_POS_DICT_MIN) ||
                     (!(am & (am - 1)) && w->ambf[i] >= fc_pos_freq_class(FC_POS_FIXED_MIN))))
            al = am;
          break;
      }
      if (f >= 0 && (size_t)f < L) al = (uint64_t)1 << f;
      w->allow[i] = al;
    }
    memset(w->emit, 0, len * L * sizeof *w->emit);
    w->koff[0] = 0;
    for (i = 0; i < len; i++) {
      size_t nk = 0, j;
      uint64_t *k = w->keys + w->koff[i];
      int fr = fc_pos_free(w->allow[i]), need = fr;
      const int32_t *rows;
      /* a fixed word's anchors score the words within two of it: they
       * are looked up only when one of those is free */
      for (j = i < 2 ? 0 : i - 2; !need && j < len && j <= i + 2; j++) need = fc_pos_free(w->allow[j]);
      if (!need) {
        /* nothing to score */
      } else if ((rows = fc_pos_own_rows(w, c, pw, len, i, a)) != NULL) {
        /* the word's own rows from the cache, the rest looked up (a fixed
         * word's own rows reach its position too: with one label allowed,
         * its emission moves every path through it alike) */
        fc_chain_rows_add(c, w->emit, len, i, rows, FC_POS_CACHE_ROWS, w->allow);
        if (fr) {
          nk = fc_pos_keys(w, pw, len, i, k, FC_POS_CONTEXT);
        } else {
          k[0] = fc_pos_join_anchor(w, len, i);
          nk = 1;
        }
      } else {
        nk = fr ? fc_pos_keys(w, pw, len, i, k, FC_POS_DECODE) : fc_pos_anchor_keys(w, len, i, k);
      }
      w->koff[i + 1] = w->koff[i] + (uint32_t)nk;
    }
    fc_chain_emit_seq(c, w->keys, w->koff, len, w->emit, w->kscratch, w->allow);
    rc = fc_chain_decode(c, w->emit, len, w->allow, w->lab, &w->cw, a);
    if (rc != FENCI_OK) return rc;
    memcpy(labels + p0, w->lab + (p0 - s0), kl);
  }
  return FENCI_OK;
}
