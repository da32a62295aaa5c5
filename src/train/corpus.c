/* corpus.c - readers for segmented training corpora: whitespace-separated
 * words (CTB6, SIGHAN gold), People's Daily 1998 (PKU annotation) and the
 * MSRA NER word/tag files.  Sentences are lines; empty lines are skipped. */
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "chars.h"
#include "train/train.h"

int fc_corpus_format(const char *name) {
  if (!strcmp(name, "seg") || !strcmp(name, "ctb") || !strcmp(name, "sighan")) return FC_CORPUS_SEG;
  if (!strcmp(name, "pd")) return FC_CORPUS_PD;
  if (!strcmp(name, "msr")) return FC_CORPUS_MSR;
  return -1;
}

void fc_corpus_init(fc_corpus *c, const fenci_alloc *a) {
  memset(c, 0, sizeof *c);
  c->a = fc_alloc_resolve(a);
  c->n_tagnames = 1;
}

/* The index of tag name t[0..n), added when new; 0 for none or too many. */
static uint8_t fc_corpus_tag(fc_corpus *c, const char *t, size_t n) {
  size_t i;
  if (n == 0 || n >= sizeof c->tagname[0]) return 0;
  for (i = 1; i < c->n_tagnames; i++)
    if (strlen(c->tagname[i]) == n && !memcmp(c->tagname[i], t, n)) return (uint8_t)i;
  if (c->n_tagnames >= FC_CORPUS_MAX_TAGS) return 0;
  memcpy(c->tagname[c->n_tagnames], t, n);
  c->tagname[c->n_tagnames][n] = 0;
  return (uint8_t)c->n_tagnames++;
}

void fc_corpus_free(fc_corpus *c) {
  fc_free(&c->a, c->text);
  fc_free(&c->a, c->sent);
  fc_free(&c->a, c->sent_w);
  fc_free(&c->a, c->wend);
  fc_free(&c->a, c->wtag);
  fc_free(&c->a, c->wne);
  fc_corpus_init(c, &c->a);
}

static int fc_corpus_isspace(int ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\f' || ch == '\v'; }

/* A PD sentence id like "19980101-01-001-001/m". */
static int fc_corpus_is_pd_id(const char *w, size_t n) {
  size_t i, dash = 0;
  if (n < 10 || w[0] < '0' || w[0] > '9') return 0;
  for (i = 0; i < n && w[i] != '/'; i++) {
    if (w[i] == '-') dash++;
    else if (w[i] < '0' || w[i] > '9') return 0;
  }
  return dash >= 2;
}

/* Starts the bookkeeping arrays so sent[0] and sent_w[0] exist. */
static int fc_corpus_start(fc_corpus *c) {
  void *p = NULL, *q = NULL;
  if (c->sent) return 0;
  if (fc_grow(&c->a, &p, &c->cap_sent, 1024, sizeof(size_t))) return -1;
  c->sent = p;
  if (fc_grow(&c->a, &q, &c->cap_sent_w, 1024, sizeof(size_t))) return -1;
  c->sent_w = q;
  c->sent[0] = c->sent_w[0] = 0;
  return 0;
}

fenci_rc fc_corpus_parse(fc_corpus *c, const char *text, size_t len, int format, char *err, size_t errlen) {
  size_t pos = 0, line_no = 0;
  if (format < FC_CORPUS_SEG || format > FC_CORPUS_MSR) return FENCI_BADARG;
  if (fc_corpus_start(c)) return FENCI_NOMEM;
  c->format = format;
  if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) pos = 3;
  while (pos < len) {
    const char *nl = memchr(text + pos, '\n', len - pos);
    size_t end = nl ? (size_t)(nl - text) : len, p = pos, sent_start = c->text_len, nw = 0;
    line_no++;
    if (end - pos >= ((size_t)1 << 31)) {
      fc_errf(err, errlen, "line %zu: too long", line_no);
      return FENCI_BADFORMAT;
    }
    size_t open_at = (size_t)-1; /* first word of an open [ bracket */
    while (p < end) {
      size_t ws, we, i, ts = 0, te = 0, bs = 0, be = 0;
      int opens = 0;
      while (p < end && fc_corpus_isspace((unsigned char)text[p])) p++;
      if (p >= end) break;
      ws = p;
      while (p < end && !fc_corpus_isspace((unsigned char)text[p])) p++;
      we = p;
      if (format == FC_CORPUS_PD && nw == 0 && c->text_len == sent_start && fc_corpus_is_pd_id(text + ws, we - ws))
        continue;
      if (format != FC_CORPUS_SEG) {
        size_t slash = we;
        if (format == FC_CORPUS_PD && text[ws] == '[' && we - ws > 1) {
          ws++;
          opens = 1;
        }
        for (i = we; i > ws; i--)
          if (text[i - 1] == '/') {
            slash = i - 1;
            break;
          }
        if (slash > ws) {
          /* a token "/" alone stays a word */
          ts = slash + 1;
          te = we;
          we = slash;
          for (i = ts; i < te; i++)
            if (text[i] == ']') {
              bs = i + 1;
              be = te;
              te = i;
              break;
            }
        }
      }
      for (i = ws; i < we;) {
        uint32_t cp;
        i += fc_utf8_decode((const uint8_t *)text + i, we - i, &cp);
        if (cp == FC_BADCP) {
          fc_errf(err, errlen, "line %zu: invalid UTF-8", line_no);
          return FENCI_BADFORMAT;
        }
      }
      {
        void *t = c->text, *w = c->wend;
        if (fc_grow(&c->a, &t, &c->cap_text, c->text_len + (we - ws) + 1, 1)) return FENCI_NOMEM;
        c->text = t;
        if (fc_grow(&c->a, &w, &c->cap_w, c->n_words + 1, sizeof *c->wend)) return FENCI_NOMEM;
        c->wend = w;
      }
      {
        void *t = c->wtag, *n = c->wne;
        if (fc_grow(&c->a, &t, &c->cap_wt, c->n_words + 1, 1)) return FENCI_NOMEM;
        c->wtag = t;
        if (fc_grow(&c->a, &n, &c->cap_wn, c->n_words + 1, 1)) return FENCI_NOMEM;
        c->wne = n;
      }
      memcpy(c->text + c->text_len, text + ws, we - ws);
      c->text_len += we - ws;
      c->wtag[c->n_words] = fc_corpus_tag(c, text + ts, te - ts);
      c->wne[c->n_words] = 0;
      if (opens) open_at = c->n_words;
      if (bs && open_at != (size_t)-1) {
        uint8_t bt = fc_corpus_tag(c, text + bs, be - bs);
        for (i = open_at; i <= c->n_words; i++) c->wne[i] = (uint8_t)(bt | (i == open_at ? FC_CORPUS_NE_FIRST : 0));
        open_at = (size_t)-1;
      }
      c->wend[c->n_words++] = (uint32_t)(c->text_len - sent_start);
      nw++;
    }
    if (nw) {
      void *s = c->sent, *sw = c->sent_w;
      if (fc_grow(&c->a, &s, &c->cap_sent, c->n_sent + 2, sizeof(size_t))) return FENCI_NOMEM;
      c->sent = s;
      if (fc_grow(&c->a, &sw, &c->cap_sent_w, c->n_sent + 2, sizeof(size_t))) return FENCI_NOMEM;
      c->sent_w = sw;
      c->n_sent++;
      c->sent[c->n_sent] = c->text_len;
      c->sent_w[c->n_sent] = c->n_words;
    }
    pos = nl ? end + 1 : len;
  }
  return FENCI_OK;
}

fenci_rc fc_corpus_load(fc_corpus *c, const char *path, int format, char *err, size_t errlen) {
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  size_t len = 0, cap = 0, got;
  fenci_rc rc;
  if (!f) {
    fc_errf(err, errlen, "%s: cannot open", path);
    return FENCI_IO;
  }
  for (;;) {
    void *p = buf;
    if (fc_grow(&c->a, &p, &cap, len + 65536, 1)) {
      fclose(f);
      fc_free(&c->a, buf);
      return FENCI_NOMEM;
    }
    buf = p;
    got = fread(buf + len, 1, cap - len, f);
    len += got;
    if (got == 0) break;
  }
  if (ferror(f)) {
    fclose(f);
    fc_free(&c->a, buf);
    fc_errf(err, errlen, "%s: read error", path);
    return FENCI_IO;
  }
  fclose(f);
  rc = fc_corpus_parse(c, buf, len, format, err, errlen);
  if (rc == FENCI_BADFORMAT && err && errlen) {
    char tmp[256];
    snprintf(tmp, sizeof tmp, "%s: %s", path, err);
    snprintf(err, errlen, "%s", tmp);
  }
  fc_free(&c->a, buf);
  return rc;
}
