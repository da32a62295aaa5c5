/* lexicon.c - compiles lexicon source text ("word [freq [tag]]" lines) into
 * the container sections LEXH, LEXT (trie), LEXC (costs), LEXG (tags),
 * TAGS and META.  Output bytes depend only on the source: entries are sorted
 * bytewise and tag ids are assigned in sorted name order. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "chars.h"
#include "dat.h"
#include "fmt.h"
#include "lexicon.h"
#include "lexnext.h"
#include "oov.h"
#include "pairs.h"

#define FC_MAX_LINE (64 * 1024)

int fc_next_line(const uint8_t *text, size_t len, size_t *pos, const uint8_t **line, size_t *line_len) {
  size_t p = *pos, e;
  const uint8_t *nl;
  if (p >= len) return 0;
  nl = memchr(text + p, '\n', len - p);
  e = nl ? (size_t)(nl - text) : len;
  *line = text + p;
  *line_len = e - p;
  if (*line_len && text[e - 1] == '\r') (*line_len)--;
  *pos = nl ? e + 1 : len;
  return 1;
}

static int fc_is_ws(uint8_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

static int fc_valid_utf8(const uint8_t *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    uint32_t cp;
    i += fc_utf8_decode(s + i, n - i, &cp);
    if (cp == FC_BADCP) return 0;
  }
  return 1;
}

int fc_lexline_parse(const uint8_t *line, size_t len, fc_lexline *out, char *err, size_t errlen) {
  const uint8_t *f[4];
  size_t fl[4], nf = 0, i = 0;
  memset(out, 0, sizeof *out);
  if (len > FC_MAX_LINE) {
    fc_errf(err, errlen, "line longer than %d bytes", FC_MAX_LINE);
    return -1;
  }
  /* a UTF-8 byte-order mark at the start of a line is ignored */
  if (len >= 3 && line[0] == 0xEF && line[1] == 0xBB && line[2] == 0xBF) i = 3;
  while (i < len && fc_is_ws(line[i])) i++;
  if (i == len || line[i] == '#') return 0;
  while (i < len) {
    size_t s = i;
    while (i < len && !fc_is_ws(line[i])) i++;
    if (nf == 4) break;
    f[nf] = line + s;
    fl[nf] = i - s;
    nf++;
    while (i < len && fc_is_ws(line[i])) i++;
  }
  if (nf > 3 || i < len) {
    fc_errf(err, errlen, "too many fields (expected: word [freq [tag]])");
    return -1;
  }
  if (fl[0] > 255) {
    fc_errf(err, errlen, "word longer than 255 bytes");
    return -1;
  }
  if (!fc_valid_utf8(f[0], fl[0])) {
    fc_errf(err, errlen, "word is not valid UTF-8");
    return -1;
  }
  out->word = f[0];
  out->word_len = fl[0];
  if (nf >= 2) {
    char num[64];
    char *end;
    double v;
    size_t k;
    int digits = 0, dots = 0;
    if (fl[1] >= sizeof num) {
      fc_errf(err, errlen, "frequency is not a number");
      return -1;
    }
    for (k = 0; k < fl[1]; k++) {
      uint8_t c = f[1][k];
      if (c >= '0' && c <= '9') digits++;
      else if (c == '.' && !dots) dots++;
      else {
        fc_errf(err, errlen, "frequency '%.*s' is not a non-negative decimal number", (int)fl[1], (const char *)f[1]);
        return -1;
      }
    }
    if (!digits) {
      fc_errf(err, errlen, "frequency '%.*s' is not a number", (int)fl[1], (const char *)f[1]);
      return -1;
    }
    memcpy(num, f[1], fl[1]);
    num[fl[1]] = 0;
    v = strtod(num, &end);
    if (!(v >= 0) || v > 1e15) {
      fc_errf(err, errlen, "frequency '%s' out of range", num);
      return -1;
    }
    out->freq = v;
    out->has_freq = 1;
  }
  if (nf == 3) {
    size_t k;
    if (fl[2] > 15) {
      fc_errf(err, errlen, "tag longer than 15 bytes");
      return -1;
    }
    for (k = 0; k < fl[2]; k++) {
      uint8_t c = f[2][k];
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) {
        fc_errf(err, errlen, "tag '%.*s' has characters other than letters, digits, '_' and '-'", (int)fl[2],
                (const char *)f[2]);
        return -1;
      }
    }
    out->tag = f[2];
    out->tag_len = fl[2];
  }
  return 1;
}

typedef struct fc_lexent {
  const uint8_t *word;
  size_t len;
  double freq;
  const uint8_t *tag;
  size_t tag_len;
  uint16_t tag_id;
} fc_lexent;

static int fc_lexent_cmp(const void *x, const void *y) {
  const fc_lexent *a = x, *b = y;
  size_t n = a->len < b->len ? a->len : b->len;
  int c = memcmp(a->word, b->word, n);
  if (c) return c;
  return (a->len > b->len) - (a->len < b->len);
}

typedef struct fc_tagref {
  const uint8_t *s;
  size_t len;
} fc_tagref;

static int fc_tagref_cmp(const void *x, const void *y) {
  const fc_tagref *a = x, *b = y;
  size_t n = a->len < b->len ? a->len : b->len;
  int c = memcmp(a->s, b->s, n);
  if (c) return c;
  return (a->len > b->len) - (a->len < b->len);
}

static uint16_t fc_tag_lookup(const fc_tagref *tags, size_t n, const uint8_t *s, size_t len) {
  size_t lo = 0, hi = n;
  fc_tagref key;
  if (!s || !len) return 0;
  key.s = s;
  key.len = len;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = fc_tagref_cmp(&tags[mid], &key);
    if (c == 0) return (uint16_t)(mid + 1);
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return 0;
}

fenci_rc fenci_lexicon_compile(const char *src, size_t src_len, void **out_buf, size_t *out_len,
                               const fenci_alloc *a, char *err, size_t errlen) {
  return fenci_lexicon_compile_ex(src, src_len, NULL, 0, out_buf, out_len, a, err, errlen);
}

fenci_rc fenci_lexicon_compile_ex(const char *src, size_t src_len, const char *corpus, size_t corpus_len,
                                  void **out_buf, size_t *out_len, const fenci_alloc *a, char *err, size_t errlen) {
  const uint8_t *text = (const uint8_t *)src, *line;
  size_t pos = 0, line_len, lineno = 0, n = 0, cap = 0, i, j, ntags = 0, tcap = 0;
  fc_lexent *ents = NULL;
  fc_tagref *tags = NULL;
  const uint8_t **keys = NULL;
  size_t *lens = NULL;
  uint32_t *vals = NULL;
  uint8_t *trie = NULL;
  size_t trie_size = 0;
  fc_buf sec;
  fc_writer w;
  fenci_rc rc = FENCI_NOMEM;
  double total = 0, maxc = 0;
  char lerr[160];

  if (out_buf) *out_buf = NULL;
  if (out_len) *out_len = 0;
  if ((!src && src_len) || !out_buf || !out_len) {
    fc_errf(err, errlen, "fenci_lexicon_compile: NULL argument");
    return FENCI_BADARG;
  }
  fc_buf_init(&sec, a);
  fc_writer_init(&w, a);

  while (fc_next_line(text, src_len, &pos, &line, &line_len)) {
    fc_lexline l;
    int r;
    lineno++;
    r = fc_lexline_parse(line, line_len, &l, lerr, sizeof lerr);
    if (r < 0) {
      fc_errf(err, errlen, "lexicon line %zu: %s", lineno, lerr);
      rc = FENCI_BADFORMAT;
      goto done;
    }
    if (r == 0) continue;
    if (fc_grow(a, (void **)&ents, &cap, n + 1, sizeof *ents)) goto nomem;
    ents[n].word = l.word;
    ents[n].len = l.word_len;
    ents[n].freq = l.has_freq ? l.freq : 1.0;
    ents[n].tag = l.tag;
    ents[n].tag_len = l.tag_len;
    ents[n].tag_id = 0;
    n++;
  }
  if (n >= 0x7FFFFFFF) {
    fc_errf(err, errlen, "too many lexicon entries");
    rc = FENCI_BADFORMAT;
    goto done;
  }
  if (n) qsort(ents, n, sizeof *ents, fc_lexent_cmp);
  /* merge duplicates: frequencies add up, the first non-empty tag stays */
  for (i = 0, j = 0; i < n; i++) {
    if (j > 0 && fc_lexent_cmp(&ents[j - 1], &ents[i]) == 0) {
      ents[j - 1].freq += ents[i].freq;
      if (!ents[j - 1].tag_len && ents[i].tag_len) {
        ents[j - 1].tag = ents[i].tag;
        ents[j - 1].tag_len = ents[i].tag_len;
      }
    } else {
      ents[j++] = ents[i];
    }
  }
  n = j;
  /* tag table, sorted by name */
  for (i = 0; i < n; i++) {
    if (!ents[i].tag_len) continue;
    if (fc_grow(a, (void **)&tags, &tcap, ntags + 1, sizeof *tags)) goto nomem;
    tags[ntags].s = ents[i].tag;
    tags[ntags].len = ents[i].tag_len;
    ntags++;
  }
  if (ntags) qsort(tags, ntags, sizeof *tags, fc_tagref_cmp);
  for (i = 0, j = 0; i < ntags; i++)
    if (j == 0 || fc_tagref_cmp(&tags[j - 1], &tags[i]) != 0) tags[j++] = tags[i];
  ntags = j;
  if (ntags > 60000) {
    fc_errf(err, errlen, "too many distinct tags (%zu)", ntags);
    rc = FENCI_BADFORMAT;
    goto done;
  }
  for (i = 0; i < n; i++) {
    ents[i].tag_id = fc_tag_lookup(tags, ntags, ents[i].tag, ents[i].tag_len);
    total += ents[i].freq;
  }
  /* a total below 1 (fractional frequencies) would make the unknown-character
   * cost ln(total) negative, and the loader rejects such a model */
  if (!(total >= 1)) total = 1;

  keys = fc_calloc(a, n ? n : 1, sizeof *keys);
  lens = fc_calloc(a, n ? n : 1, sizeof *lens);
  vals = fc_calloc(a, n ? n : 1, sizeof *vals);
  if (!keys || !lens || !vals) goto nomem;
  for (i = 0; i < n; i++) {
    keys[i] = ents[i].word;
    lens[i] = ents[i].len;
    vals[i] = (uint32_t)i;
  }
  rc = fc_dat_build(a, keys, lens, vals, n, &trie, &trie_size);
  if (rc != FENCI_OK) {
    fc_errf(err, errlen, "building the trie failed: %s", fenci_rc_str(rc));
    goto done;
  }
  rc = FENCI_NOMEM;

  /* LEXC: cost = ln(total) - ln(freq); a zero frequency counts as 0.5 */
  for (i = 0; i < n; i++) {
    double f = ents[i].freq > 0 ? ents[i].freq : 0.5;
    double c = log(total) - log(f);
    float fc = (float)(c < 0 ? 0 : c);
    uint32_t bits;
    if (c > maxc) maxc = c;
    memcpy(&bits, &fc, 4);
    if (fc_buf_u32(&sec, bits)) goto nomem;
  }
  {
    /* LEXH first: readers find the counts before the tables */
    fc_buf h;
    float oc = (float)log(total), mc = (float)maxc;
    uint32_t b1, b2;
    uint64_t tb;
    int bad;
    memcpy(&b1, &oc, 4);
    memcpy(&b2, &mc, 4);
    memcpy(&tb, &total, 8);
    fc_buf_init(&h, a);
    bad = fc_buf_u32(&h, (uint32_t)n) || fc_buf_u32(&h, (uint32_t)ntags) || fc_buf_u64(&h, tb) ||
          fc_buf_u32(&h, b1) || fc_buf_u32(&h, b2) || fc_buf_u64(&h, 0);
    if (!bad) bad = fc_writer_add(&w, "LEXH", h.data, h.len) != FENCI_OK;
    fc_buf_free(&h);
    if (bad) goto nomem;
  }
  if (fc_writer_add(&w, "LEXT", trie, trie_size) != FENCI_OK) goto nomem;
  {
    /* LEX2: the two-character index over the same words */
    fc_dat tv;
    fc_buf pb;
    int bad;
    fc_buf_init(&pb, a);
    bad = fc_dat_view(&tv, trie, trie_size, NULL, 0) != FENCI_OK ||
          fc_pairs_build(&tv, keys, lens, n, &pb, a) != FENCI_OK || fc_writer_add(&w, "LEX2", pb.data, pb.len) != FENCI_OK;
    fc_buf_free(&pb);
    if (bad) goto nomem;
  }
  if (fc_writer_add(&w, "LEXC", sec.data, sec.len) != FENCI_OK) goto nomem;
  sec.len = 0;
  for (i = 0; i < n; i++)
    if (fc_buf_u16(&sec, ents[i].tag_id)) goto nomem;
  if (fc_writer_add(&w, "LEXG", sec.data, sec.len) != FENCI_OK) goto nomem;
  sec.len = 0;
  for (i = 0; i < ntags; i++)
    if (fc_buf_put(&sec, tags[i].s, tags[i].len) || fc_buf_putc(&sec, 0)) goto nomem;
  if (fc_writer_add(&w, "TAGS", sec.data, sec.len) != FENCI_OK) goto nomem;
  sec.len = 0;
  if (corpus && corpus_len) {
    fc_dat lexv;
    rc = fc_dat_view(&lexv, trie, trie_size, NULL, 0);
    if (rc == FENCI_OK) rc = fc_oov_train((const uint8_t *)corpus, corpus_len, &lexv, &sec, a);
    if (rc == FENCI_BADFORMAT) {
      fc_errf(err, errlen, "the unknown-word corpus has no words");
      goto done;
    }
    if (rc != FENCI_OK || fc_writer_add(&w, "HMMC", sec.data, sec.len) != FENCI_OK) goto nomem;
    rc = FENCI_NOMEM;
    sec.len = 0;
  }
  {
    /* the id covers everything added so far (LEXH is body 0) */
    uint32_t id = fc_lexicon_id_add(0, "LEXH", w.body[0].data, FC_LEXH_ID_OFF), k2;
    for (k2 = 1; k2 < w.n; k2++) id = fc_lexicon_id_add(id, w.tags[k2], w.body[k2].data, w.body[k2].len);
    id = fc_lexicon_id_final(id);
    for (k2 = 0; k2 < 4; k2++) w.body[0].data[FC_LEXH_ID_OFF + k2] = (uint8_t)(id >> (8 * k2));
  }
  {
    /* LEXN, after the id: the filter changes no lookup's answer */
    fc_dat tv;
    int bad;
    sec.len = 0;
    bad = fc_dat_view(&tv, trie, trie_size, NULL, 0) != FENCI_OK || fc_lexnext_build(&tv, &sec, a) != FENCI_OK ||
          fc_writer_add(&w, "LEXN", sec.data, sec.len) != FENCI_OK;
    sec.len = 0;
    if (bad) goto nomem;
  }
  {
    char meta[256];
    int k = snprintf(meta, sizeof meta, "kind=lexicon\nwords=%zu\ntags=%zu\ntotal_freq=%.0f\nbuilder=fenci %s\n", n,
                     ntags, total, fenci_version_string());
    if (k < 0 || fc_writer_add(&w, "META", meta, (size_t)k) != FENCI_OK) goto nomem;
  }
  {
    uint8_t *img = NULL;
    size_t img_len = 0;
    rc = fc_writer_finish(&w, &img, &img_len);
    if (rc != FENCI_OK) goto done;
    *out_buf = img;
    *out_len = img_len;
  }
  rc = FENCI_OK;
  goto done;
nomem:
  rc = FENCI_NOMEM;
  fc_errf(err, errlen, "out of memory while compiling the lexicon");
done:
  fc_writer_free(&w);
  fc_buf_free(&sec);
  fc_free(a, trie);
  fc_free(a, keys);
  fc_free(a, lens);
  fc_free(a, vals);
  fc_free(a, tags);
  fc_free(a, ents);
  return rc;
}

int fc_lexicon_section(const char tag[4]) {
  static const char tags[][4] = {{'L', 'E', 'X', 'T'}, {'L', 'E', 'X', '2'}, {'L', 'E', 'X', 'C'},
                                 {'L', 'E', 'X', 'G'}, {'T', 'A', 'G', 'S'}, {'H', 'M', 'M', 'C'}};
  size_t i;
  for (i = 0; i < sizeof tags / sizeof tags[0]; i++)
    if (!memcmp(tag, tags[i], 4)) return 1;
  return 0;
}

uint32_t fc_lexicon_id_add(uint32_t crc, const char tag[4], const void *data, size_t size) {
  uint8_t len[8];
  size_t i;
  for (i = 0; i < 8; i++) len[i] = (uint8_t)((uint64_t)size >> (8 * i));
  crc = fc_crc32(crc, tag, 4);
  crc = fc_crc32(crc, len, 8);
  return fc_crc32(crc, data, size);
}
