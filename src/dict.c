/* dict.c - user dictionaries.  Words are collected in insertion order and
 * compiled into a small trie when the dictionary is frozen (attached to a
 * tagger); from then on it is read-only and may be shared by threads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <stdio.h>

#include "alloc.h"
#include "chars.h"
#include "dict.h"
#include "lexicon.h"
#include "model.h"

fenci_rc fenci_dict_new(fenci_dict **out, const fenci_model *m, const fenci_alloc *a) {
  fenci_dict *d;
  if (!out) return FENCI_BADARG;
  *out = NULL;
  if (!m) return FENCI_BADARG;
  d = fc_calloc(a, 1, sizeof *d);
  if (!d) return FENCI_NOMEM;
  d->m = m;
  d->a = fc_alloc_resolve(a);
  *out = d;
  return FENCI_OK;
}

void fenci_dict_free(fenci_dict *d) {
  fenci_alloc a;
  if (!d) return;
  a = d->a;
  fc_free(&a, d->bytes);
  fc_free(&a, d->w);
  fc_free(&a, d->trie_bytes);
  fc_free(&a, d->final);
  fc_free(&a, d);
}

size_t fenci_dict_size(const fenci_dict *d) {
  if (!d) return 0;
  return d->frozen ? d->n_final : d->n;
}

static int fc_word_ok(const uint8_t *s, size_t len) {
  size_t i = 0;
  if (len == 0 || len > 255) return 0;
  while (i < len) {
    uint32_t cp;
    i += fc_utf8_decode(s + i, len - i, &cp);
    if (cp == FC_BADCP || fc_char_class(cp) == FC_C_SPACE) return 0;
  }
  return 1;
}

/* The cost of a user word with frequency freq, on the model's scale. */
static float fc_dict_cost(const fenci_dict *d, double freq) {
  double total = exp((double)d->m->oov_cost); /* oov_cost = ln(total) */
  double c = log(total) - log(freq);
  if (c < 0) c = 0;
  return (float)c;
}

static fenci_rc fc_dict_add_raw(fenci_dict *d, const uint8_t *word, size_t len, double freq, int has_freq,
                                const uint8_t *tag, size_t tag_len) {
  fc_uword *u;
  if (fc_grow(&d->a, (void **)&d->w, &d->cap, d->n + 1, sizeof *d->w)) return FENCI_NOMEM;
  if (fc_grow(&d->a, (void **)&d->bytes, &d->bytes_cap, d->bytes_len + len, 1)) return FENCI_NOMEM;
  memcpy(d->bytes + d->bytes_len, word, len);
  u = &d->w[d->n++];
  u->off = d->bytes_len;
  u->len = (uint32_t)len;
  d->bytes_len += len;
  u->forced = (uint8_t)(has_freq && freq > 0 ? 0 : 1);
  u->cost = u->forced ? 0.0f : fc_dict_cost(d, freq);
  u->tag = tag && tag_len ? fc_model_tag_id(d->m, (const char *)tag, tag_len) : 0;
  if (!u->tag) {
    uint32_t w;
    if (fc_dat_find(&d->m->trie, word, len, &w)) u->tag = fc_model_tag(d->m, w);
  }
  return FENCI_OK;
}

fenci_rc fenci_dict_add(fenci_dict *d, const char *word, size_t len, double freq, const char *tag) {
  if (!d || !word || d->frozen) return FENCI_BADARG;
  if (!fc_word_ok((const uint8_t *)word, len) || !(freq >= 0) || freq > 1e15) return FENCI_BADARG;
  return fc_dict_add_raw(d, (const uint8_t *)word, len, freq, freq > 0, (const uint8_t *)tag,
                         tag ? strlen(tag) : 0);
}

fenci_rc fenci_dict_load_text(fenci_dict *d, const char *text, size_t len, char *err, size_t errlen) {
  const uint8_t *line;
  size_t pos = 0, line_len, lineno = 0, n0, b0;
  char lerr[160];
  fenci_rc rc;
  if (err && errlen) err[0] = 0;
  if (!d || (!text && len) || d->frozen) {
    fc_errf(err, errlen, "invalid argument (NULL, or the dictionary is already attached to a tagger)");
    return FENCI_BADARG;
  }
  n0 = d->n;
  b0 = d->bytes_len;
  while (fc_next_line((const uint8_t *)text, len, &pos, &line, &line_len)) {
    fc_lexline l;
    int r;
    lineno++;
    r = fc_lexline_parse(line, line_len, &l, lerr, sizeof lerr);
    if (r == 0) continue;
    if (r > 0 && !fc_word_ok(l.word, l.word_len)) {
      r = -1;
      fc_errf(lerr, sizeof lerr, "invalid word");
    }
    if (r < 0) {
      fc_errf(err, errlen, "line %zu: %s", lineno, lerr);
      d->n = n0; /* all or nothing */
      d->bytes_len = b0;
      return FENCI_BADFORMAT;
    }
    rc = fc_dict_add_raw(d, l.word, l.word_len, l.freq, l.has_freq, l.tag, l.tag_len);
    if (rc != FENCI_OK) {
      fc_errf(err, errlen, "out of memory");
      d->n = n0;
      d->bytes_len = b0;
      return rc;
    }
  }
  return FENCI_OK;
}

fenci_rc fenci_dict_load(fenci_dict *d, const char *path, char *err, size_t errlen) {
  /* read with stdio rather than mapping: user dictionaries are small, and
   * pipes, /dev/null and other non-regular files must work (empty = no words) */
  FILE *f;
  uint8_t *buf = NULL;
  size_t n = 0, cap = 0;
  fenci_rc rc;
  char e2[200];
  if (err && errlen) err[0] = 0;
  if (!d || !path) return FENCI_BADARG;
  f = fopen(path, "rb");
  if (!f) {
    fc_errf(err, errlen, "%s: %s", path, strerror(errno));
    return FENCI_IO;
  }
  for (;;) {
    size_t got;
    if (n == cap && fc_grow(&d->a, (void **)&buf, &cap, n + 65536, 1)) {
      fclose(f);
      fc_free(&d->a, buf);
      fc_errf(err, errlen, "%s: out of memory", path);
      return FENCI_NOMEM;
    }
    got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) break;
  }
  if (ferror(f)) {
    fc_errf(err, errlen, "%s: %s", path, errno ? strerror(errno) : "read error");
    fclose(f);
    fc_free(&d->a, buf);
    return FENCI_IO;
  }
  fclose(f);
  rc = fenci_dict_load_text(d, (const char *)buf, n, e2, sizeof e2);
  if (rc != FENCI_OK) fc_errf(err, errlen, "%s: %s", path, e2);
  fc_free(&d->a, buf);
  return rc;
}

/* Sort keys carry their bytes, so qsort needs no context; ties keep
 * insertion order so that the last added duplicate can win. */
typedef struct fc_ukey {
  const uint8_t *s;
  uint32_t len;
  uint32_t idx;
} fc_ukey;

static int fc_ukey_cmp(const void *x, const void *y) {
  const fc_ukey *a = x, *b = y;
  size_t n = a->len < b->len ? a->len : b->len;
  int c = memcmp(a->s, b->s, n);
  if (c) return c;
  if (a->len != b->len) return a->len < b->len ? -1 : 1;
  return (a->idx > b->idx) - (a->idx < b->idx);
}

fenci_rc fc_dict_freeze(fenci_dict *d) {
  fc_ukey *k = NULL;
  const uint8_t **keys = NULL;
  size_t *lens = NULL;
  uint32_t *vals = NULL;
  size_t i, j;
  fenci_rc rc = FENCI_NOMEM;
  if (d->frozen) return FENCI_OK;
  if (d->n == 0) {
    d->frozen = 1;
    return FENCI_OK;
  }
  k = fc_calloc(&d->a, d->n, sizeof *k);
  d->final = fc_calloc(&d->a, d->n, sizeof *d->final);
  keys = fc_calloc(&d->a, d->n, sizeof *keys);
  lens = fc_calloc(&d->a, d->n, sizeof *lens);
  vals = fc_calloc(&d->a, d->n, sizeof *vals);
  if (!k || !d->final || !keys || !lens || !vals) goto done;
  for (i = 0; i < d->n; i++) {
    k[i].s = d->bytes + d->w[i].off;
    k[i].len = d->w[i].len;
    k[i].idx = (uint32_t)i;
  }
  qsort(k, d->n, sizeof *k, fc_ukey_cmp);
  /* of equal words, the last added wins */
  for (i = 0, j = 0; i < d->n; i++) {
    if (i + 1 < d->n && k[i + 1].len == k[i].len && memcmp(k[i + 1].s, k[i].s, k[i].len) == 0) continue;
    d->final[j] = d->w[k[i].idx];
    keys[j] = k[i].s;
    lens[j] = k[i].len;
    vals[j] = (uint32_t)j;
    j++;
  }
  d->n_final = j;
  rc = fc_dat_build(&d->a, keys, lens, vals, j, &d->trie_bytes, &i);
  if (rc == FENCI_OK) rc = fc_dat_view(&d->trie, d->trie_bytes, i, NULL, 0);
  if (rc == FENCI_OK) d->frozen = 1;
  else {
    fc_free(&d->a, d->trie_bytes);
    d->trie_bytes = NULL;
    fc_free(&d->a, d->final);
    d->final = NULL;
    d->n_final = 0;
  }
done:
  if (rc == FENCI_NOMEM && d->final && !d->frozen) {
    fc_free(&d->a, d->final);
    d->final = NULL;
  }
  fc_free(&d->a, k);
  fc_free(&d->a, keys);
  fc_free(&d->a, lens);
  fc_free(&d->a, vals);
  return rc;
}
