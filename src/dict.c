/* dict.c - user dictionaries.  Words are collected in insertion order, each
 * normalised the way the segmenter normalises text, and compiled into a
 * small trie when the dictionary is frozen (attached to a tagger); from then
 * on it is read-only and may be shared by threads. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "chars.h"
#include "dict.h"
#include "lexicon.h"
#include "model.h"

/* fenci_dict_load reads at most this much, also from an endless pipe or
 * device.  A user dictionary is held in memory as words, then also as a
 * trie: measured, jieba's 5 MB dictionary as user words takes 71 MB, 54 MB
 * of short lines 506 MB at the peak, so this cap (13 times jieba's whole
 * dictionary, some 4.5 million words) keeps a dictionary under about 650 MB.
 * Word lists that large belong in a model (fenci compile), which is mapped. */
#define FC_DICT_MAX_BYTES ((size_t)64 << 20)
/* fenci_dict_load parses as it reads, one block at a time, so memory holds
 * the words rather than the text.  A line still without its end after a
 * whole block is longer than any line the parser accepts (64 KiB): reading
 * /dev/zero fails after one block. */
#define FC_DICT_BLOCK ((size_t)1 << 20)

static int fc_dict_is_frozen(const fenci_dict *d) {
  return atomic_load_explicit(&d->frozen, memory_order_acquire) != 0;
}

fenci_rc fenci_dict_new(fenci_dict **out, const fenci_model *m, const fenci_alloc *a) {
  fenci_dict *d;
  if (!out) return FENCI_BADARG;
  *out = NULL;
  if (!m) return FENCI_BADARG;
  d = fc_calloc(a, 1, sizeof *d);
  if (!d) return FENCI_NOMEM;
  if (pthread_mutex_init(&d->lock, NULL) != 0) {
    fc_free(a, d);
    return FENCI_NOMEM;
  }
  atomic_init(&d->frozen, 0);
  d->m = m;
  d->a = fc_alloc_resolve(a);
  *out = d;
  return FENCI_OK;
}

void fenci_dict_free(fenci_dict *d) {
  fenci_alloc a;
  if (!d) return;
  a = d->a;
  pthread_mutex_destroy(&d->lock);
  fc_scan_free(&d->norm, &a);
  fc_free(&a, d->bytes);
  fc_free(&a, d->w);
  fc_free(&a, d->trie_bytes);
  fc_free(&a, d->final);
  fc_free(&a, d);
}

size_t fenci_dict_size(const fenci_dict *d) {
  if (!d) return 0;
  return fc_dict_is_frozen(d) ? d->n_words : d->n;
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

/* Adds a word under its normalised keys.  The segmenter matches words
 * against the normalised bytes of the text's units, so a word is cut into
 * units by the same function, fc_scan_units: each one-character unit is
 * mapped (traditional -> simplified, full-width -> ASCII: 龍貓 -> 龙猫,
 * Ａ -> A) and each atom (a Latin word, a number) copied, exactly as in
 * text, and a match ends where the word's last unit ends.  The trained
 * model's units differ in one way (a run of one punctuation mark is split
 * into single, normalised marks), so a word whose form differs there gets
 * that form as a second key.  FENCI_BADARG when a key grows past the trie's
 * 255 bytes (a few traditional characters map outside the BMP).  On failure
 * the dict is unchanged. */
static fenci_rc fc_dict_add_raw(fenci_dict *d, const uint8_t *word, size_t len, double freq, int has_freq,
                                uint16_t tag) {
  fc_uword *u;
  uint8_t *key;
  size_t klen, alen = 0;
  uint32_t w;
  fenci_rc rc;
  if (fc_grow(&d->a, (void **)&d->w, &d->cap, d->n + 1, sizeof *d->w)) return FENCI_NOMEM;
  if (fc_grow(&d->a, (void **)&d->bytes, &d->bytes_cap, d->bytes_len + 2 * 255, 1)) return FENCI_NOMEM;
  key = d->bytes + d->bytes_len;
  rc = fc_scan_units(&d->norm, word, len, 0, &d->a);
  if (rc != FENCI_OK) return rc;
  klen = d->norm.nbn;
  if (klen == 0 || klen > 255) return FENCI_BADARG;
  memcpy(key, d->norm.nb, klen);
  rc = fc_scan_units(&d->norm, word, len, 1, &d->a);
  if (rc != FENCI_OK) return rc;
  if (d->norm.nbn != klen || memcmp(d->norm.nb, key, klen) != 0) {
    alen = d->norm.nbn;
    if (alen == 0 || alen > 255) return FENCI_BADARG;
    memcpy(key + klen, d->norm.nb, alen);
  }
  u = &d->w[d->n++];
  u->off = d->bytes_len;
  u->len = (uint32_t)klen;
  u->alt_len = (uint32_t)alen;
  d->bytes_len += klen + alen;
  u->forced = (uint8_t)(has_freq && freq > 0 ? 0 : 1);
  u->cost = u->forced ? 0.0f : fc_dict_cost(d, freq);
  u->tag = tag;
  /* the lexicon holds simplified words: look the normalised key up */
  if (!u->tag && fc_dat_find(&d->m->trie, key, klen, &w)) u->tag = fc_model_tag(d->m, w);
  return FENCI_OK;
}

/* The id of a user word's tag: 0 for none; -1 for a tag the model does not
 * know, which is refused rather than dropped (the word would lose it). */
static int fc_dict_tag(const fenci_dict *d, const uint8_t *tag, size_t tag_len) {
  uint16_t id;
  if (!tag || !tag_len) return 0;
  id = fc_model_tag_id(d->m, (const char *)tag, tag_len);
  return id ? id : -1;
}

fenci_rc fenci_dict_add(fenci_dict *d, const char *word, size_t len, double freq, const char *tag) {
  int tid;
  if (!d || !word || fc_dict_is_frozen(d)) return FENCI_BADARG;
  if (!fc_word_ok((const uint8_t *)word, len) || !(freq >= 0) || freq > 1e15) return FENCI_BADARG;
  tid = fc_dict_tag(d, (const uint8_t *)tag, tag ? strlen(tag) : 0);
  if (tid < 0) return FENCI_BADARG;
  return fc_dict_add_raw(d, (const uint8_t *)word, len, freq, freq > 0, (uint16_t)tid);
}

/* Adds the entry of one source line (number lineno); a message in err on
 * failure: FENCI_BADFORMAT or FENCI_NOMEM. */
static fenci_rc fc_dict_line(fenci_dict *d, const uint8_t *line, size_t len, size_t lineno, char *err,
                             size_t errlen) {
  fc_lexline l;
  char lerr[160];
  fenci_rc rc;
  int tid, r = fc_lexline_parse(line, len, &l, lerr, sizeof lerr);
  if (r == 0) return FENCI_OK;
  if (r > 0 && !fc_word_ok(l.word, l.word_len)) {
    r = -1;
    fc_errf(lerr, sizeof lerr, "invalid word");
  }
  if (r < 0) {
    fc_errf(err, errlen, "line %zu: %s", lineno, lerr);
    return FENCI_BADFORMAT;
  }
  tid = fc_dict_tag(d, l.tag, l.tag_len);
  if (tid < 0) {
    fc_errf(err, errlen, "line %zu: the model has no tag '%.*s'", lineno, (int)(l.tag_len > 32 ? 32 : l.tag_len),
            (const char *)l.tag);
    return FENCI_BADFORMAT;
  }
  rc = fc_dict_add_raw(d, l.word, l.word_len, l.freq, l.has_freq, (uint16_t)tid);
  if (rc == FENCI_BADARG) {
    fc_errf(err, errlen, "line %zu: word longer than 255 bytes once normalised", lineno);
    return FENCI_BADFORMAT;
  }
  if (rc != FENCI_OK) fc_errf(err, errlen, "out of memory");
  return rc;
}

/* All or nothing: drops the words added since the dict had n words and
 * bytes_len key bytes. */
static void fc_dict_undo(fenci_dict *d, size_t n, size_t bytes_len) {
  d->n = n;
  d->bytes_len = bytes_len;
}

fenci_rc fenci_dict_load_text(fenci_dict *d, const char *text, size_t len, char *err, size_t errlen) {
  const uint8_t *line;
  size_t pos = 0, line_len, lineno = 0, n0, b0;
  fenci_rc rc;
  if (err && errlen) err[0] = 0;
  if (!d || (!text && len) || fc_dict_is_frozen(d)) {
    fc_errf(err, errlen, "invalid argument (NULL, or the dictionary is already attached to a tagger)");
    return FENCI_BADARG;
  }
  n0 = d->n;
  b0 = d->bytes_len;
  while (fc_next_line((const uint8_t *)text, len, &pos, &line, &line_len)) {
    rc = fc_dict_line(d, line, line_len, ++lineno, err, errlen);
    if (rc != FENCI_OK) {
      fc_dict_undo(d, n0, b0);
      return rc;
    }
  }
  return FENCI_OK;
}

fenci_rc fenci_dict_load(fenci_dict *d, const char *path, char *err, size_t errlen) {
  /* stdio rather than a mapping: pipes, /dev/null and other non-regular
   * files must work (empty = no words), and the file may change meanwhile */
  FILE *f;
  uint8_t *buf;
  size_t have = 0, total = 0, lineno = 0, n0, b0;
  fenci_rc rc = FENCI_OK;
  char e2[200];
  if (err && errlen) err[0] = 0;
  if (!d || !path || fc_dict_is_frozen(d)) {
    fc_errf(err, errlen, "invalid argument (NULL, or the dictionary is already attached to a tagger)");
    return FENCI_BADARG;
  }
  f = fopen(path, "rb");
  if (!f) {
    fc_errf(err, errlen, "%s: %s", path, strerror(errno));
    return FENCI_IO;
  }
  buf = fc_malloc(&d->a, FC_DICT_BLOCK);
  if (!buf) {
    fclose(f);
    fc_errf(err, errlen, "%s: out of memory", path);
    return FENCI_NOMEM;
  }
  n0 = d->n;
  b0 = d->bytes_len;
  e2[0] = 0;
  for (;;) {
    size_t got = fread(buf + have, 1, FC_DICT_BLOCK - have, f), p = 0, l;
    const uint8_t *nl;
    if (got == 0 && ferror(f)) {
      fc_errf(e2, sizeof e2, "%s", errno ? strerror(errno) : "read error");
      rc = FENCI_IO;
      break;
    }
    total += got;
    if (total > FC_DICT_MAX_BYTES) {
      fc_errf(e2, sizeof e2, "larger than %zu MiB, the limit for a user dictionary (compile a word list that big "
              "into a model with fenci compile)", FC_DICT_MAX_BYTES >> 20);
      rc = FENCI_IO;
      break;
    }
    have += got;
    while (rc == FENCI_OK && (nl = memchr(buf + p, '\n', have - p)) != NULL) {
      l = (size_t)(nl - (buf + p));
      rc = fc_dict_line(d, buf + p, l && buf[p + l - 1] == '\r' ? l - 1 : l, ++lineno, e2, sizeof e2);
      p += l + 1;
    }
    if (rc != FENCI_OK) break;
    if (got == 0) { /* the end: the last line may lack its line end */
      l = have - p;
      if (l) rc = fc_dict_line(d, buf + p, buf[p + l - 1] == '\r' ? l - 1 : l, ++lineno, e2, sizeof e2);
      break;
    }
    memmove(buf, buf + p, have - p);
    have -= p;
    if (have == FC_DICT_BLOCK) { /* a whole block and no line end: the parser refuses the line */
      rc = fc_dict_line(d, buf, have, ++lineno, e2, sizeof e2);
      if (rc == FENCI_OK) {
        fc_errf(e2, sizeof e2, "line %zu: longer than %zu bytes", lineno, FC_DICT_BLOCK);
        rc = FENCI_BADFORMAT;
      }
      break;
    }
  }
  fclose(f);
  fc_free(&d->a, buf);
  if (rc != FENCI_OK) {
    fc_dict_undo(d, n0, b0);
    fc_errf(err, errlen, "%s: %s", path, e2);
  }
  return rc;
}

/* Sort keys carry their bytes, so qsort needs no context; ties keep
 * insertion order so that the last added duplicate can win. */
typedef struct fc_ukey {
  const uint8_t *s;
  uint32_t len;
  uint32_t idx; /* the word's index in d->w */
  uint32_t alt; /* 1: the word's trained-model key */
} fc_ukey;

static int fc_ukey_cmp(const void *x, const void *y) {
  const fc_ukey *a = x, *b = y;
  size_t n = a->len < b->len ? a->len : b->len;
  int c = memcmp(a->s, b->s, n);
  if (c) return c;
  if (a->len != b->len) return a->len < b->len ? -1 : 1;
  return (a->idx > b->idx) - (a->idx < b->idx);
}

/* Builds the trie over every key (of equal keys, the last added word's
 * wins) and installs it; on failure the dict is unchanged. */
static fenci_rc fc_dict_build(fenci_dict *d) {
  fc_ukey *k = NULL;
  fc_uword *final = NULL;
  const uint8_t **keys = NULL;
  size_t *lens = NULL, nk = 0, i, j, words = 0, size = 0;
  uint32_t *vals = NULL;
  uint8_t *trie_bytes = NULL;
  fc_dat trie;
  int primary = 0;
  fenci_rc rc = FENCI_NOMEM;
  for (i = 0; i < d->n; i++) nk += d->w[i].alt_len ? 2 : 1;
  if (nk == 0) {
    rc = FENCI_OK;
    goto done;
  }
  k = fc_calloc(&d->a, nk, sizeof *k);
  final = fc_calloc(&d->a, nk, sizeof *final);
  keys = fc_calloc(&d->a, nk, sizeof *keys);
  lens = fc_calloc(&d->a, nk, sizeof *lens);
  vals = fc_calloc(&d->a, nk, sizeof *vals);
  if (!k || !final || !keys || !lens || !vals) goto done;
  for (i = 0, j = 0; i < d->n; i++) {
    const fc_uword *u = &d->w[i];
    k[j].s = d->bytes + u->off;
    k[j].len = u->len;
    k[j].idx = (uint32_t)i;
    k[j++].alt = 0;
    if (u->alt_len) {
      k[j].s = d->bytes + u->off + u->len;
      k[j].len = u->alt_len;
      k[j].idx = (uint32_t)i;
      k[j++].alt = 1;
    }
  }
  qsort(k, nk, sizeof *k, fc_ukey_cmp);
  for (i = 0, j = 0; i < nk; i++) {
    primary |= !k[i].alt;
    if (i + 1 < nk && k[i + 1].len == k[i].len && memcmp(k[i + 1].s, k[i].s, k[i].len) == 0) continue;
    final[j] = d->w[k[i].idx];
    keys[j] = k[i].s;
    lens[j] = k[i].len;
    vals[j] = (uint32_t)j;
    j++;
    words += (size_t)primary; /* a word is counted by its lexicon-mode key */
    primary = 0;
  }
  rc = fc_dat_build(&d->a, keys, lens, vals, j, &trie_bytes, &size);
  if (rc == FENCI_OK) rc = fc_dat_view(&trie, trie_bytes, size, NULL, 0);
  if (rc == FENCI_OK) {
    d->trie = trie;
    d->trie_bytes = trie_bytes;
    d->final = final;
    d->n_final = j;
    trie_bytes = NULL;
    final = NULL;
  }
done:
  if (rc == FENCI_OK) {
    d->n_words = words;
    fc_scan_free(&d->norm, &d->a); /* no more words can be added */
  }
  fc_free(&d->a, trie_bytes);
  fc_free(&d->a, final);
  fc_free(&d->a, k);
  fc_free(&d->a, keys);
  fc_free(&d->a, lens);
  fc_free(&d->a, vals);
  return rc;
}

fenci_rc fc_dict_freeze(fenci_dict *d) {
  fenci_rc rc = FENCI_OK;
  /* the common case, already frozen, takes no lock: this acquire pairs with
   * the release below, so the trie is seen complete */
  if (fc_dict_is_frozen(d)) return FENCI_OK;
  if (pthread_mutex_lock(&d->lock) != 0) return FENCI_BADARG;
  if (!atomic_load_explicit(&d->frozen, memory_order_relaxed)) {
    rc = fc_dict_build(d);
    if (rc == FENCI_OK) atomic_store_explicit(&d->frozen, 1, memory_order_release);
  }
  pthread_mutex_unlock(&d->lock);
  return rc;
}

fenci_rc fenci_dict_freeze(fenci_dict *d) {
  if (!d) return FENCI_BADARG;
  return fc_dict_freeze(d);
}
