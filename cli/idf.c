/* idf.c - `fenci idf`: adds the keyword tables to a model file: the IDF of
 * each lexicon word (section KIDF), counted over documents, and the default
 * stop-word list (section KSTP).  `make models` runs it on the lexicon. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "cli.h"
#include "common.h"
#include "fenci.h"
#include "fmt.h"
#include "kwtable.h"
#include "model.h"

#define IDF_MAX_FILES 64
#define IDF_MAX_META 16

static void idf_usage(FILE *f) {
  fprintf(f,
          "usage: fenci idf MODEL --docs FILE [--docs FILE...] [--stopwords FILE] [--meta KEY=VALUE...]\n"
          "                 -o|--output OUTPUT\n"
          "Writes OUTPUT: MODEL with a table of the inverse document frequency of each of\n"
          "its lexicon words (for 'fenci keywords'), and optionally its default stop words.\n"
          "  --docs FILE       raw text, ONE DOCUMENT A LINE; every file adds its lines.  Each\n"
          "                    document is segmented with MODEL's lexicon path; a lexicon word\n"
          "                    in df of the N documents gets idf = ln(N / df), the others none\n"
          "                    (keyword extraction gives them the median, as jieba does)\n"
          "  --stopwords FILE  one stop word a line (folded: case, width, traditional forms);\n"
          "                    replaces MODEL's list; without it MODEL's list is kept\n"
          "  --meta KEY=VALUE  a metadata line to add (e.g. idf_corpus=...)\n"
          "The same inputs always give the same bytes.\n");
}

typedef struct idf_count {
  const fenci_model *m;
  uint32_t *df;   /* documents holding each word */
  uint32_t *last; /* the last document (1-based) that counted it */
  uint32_t doc;
} idf_count;

static int idf_cb(void *ctx, const fenci_token *tok, const char *form, size_t n) {
  idf_count *c = ctx;
  uint32_t w;
  if (tok->flags & FENCI_TOK_EXTRA) return 0;
  if (tok->kind != FENCI_KIND_WORD && tok->kind != FENCI_KIND_LATIN && tok->kind != FENCI_KIND_NUMBER) return 0;
  if (fc_kw_lexicon_word(c->m, (const uint8_t *)form, n, &w) && c->last[w] != c->doc) {
    c->last[w] = c->doc;
    c->df[w]++;
  }
  return 0;
}

/* The model's META lines this command writes: 1 idf_*, 2 stopwords*, else 0. */
static int idf_meta_kind(const char *line, size_t n) {
  if (n >= 4 && !memcmp(line, "idf_", 4)) return 1;
  if (n >= 9 && !memcmp(line, "stopwords", 9)) return 2;
  return 0;
}

/* fc_meta_lines' filter: the lines of the kind *ctx. */
static int idf_meta_keep(const char *line, size_t n, void *ctx) { return idf_meta_kind(line, n) == *(int *)ctx; }

int fc_cmd_idf(int argc, char **argv) {
  const char *model = NULL, *outp = NULL, *stop_path = NULL, *docs[IDF_MAX_FILES], *metas[IDF_MAX_META];
  int ndocs = 0, nmeta = 0, i, status = 1;
  fenci_model *m = NULL;
  fenci_tagger *t = NULL;
  idf_count c;
  fc_buf kidf, kstp, meta;
  uint8_t *img = NULL;
  size_t img_len = 0, n_stop = 0, n_words, seen = 0, k;
  double median = 0;
  fenci_rc rc;
  fc_opts o;

  memset(&c, 0, sizeof c);
  fc_buf_init(&kidf, NULL);
  fc_buf_init(&kstp, NULL);
  fc_buf_init(&meta, NULL);
  fc_opts_init(&o, "idf", argc, argv);
  while (fc_opts_next(&o)) {
    if (!o.is_opt) {
      if (model) {
        fprintf(stderr, "fenci idf: one MODEL only\n");
        return 2;
      }
      model = o.arg;
    } else if (fc_opt_flag(&o, 'h', "help")) {
      idf_usage(stdout);
      return 0;
    } else if (fc_opt_value(&o, 'o', "output")) {
      outp = o.val;
    } else if (fc_opt_value(&o, 0, "docs")) {
      if (ndocs == IDF_MAX_FILES) {
        fprintf(stderr, "fenci idf: too many --docs files\n");
        return 2;
      }
      docs[ndocs++] = o.val;
    } else if (fc_opt_value(&o, 0, "stopwords")) {
      stop_path = o.val;
    } else if (fc_opt_value(&o, 0, "meta")) {
      if (nmeta == IDF_MAX_META || !strchr(o.val, '=') || strchr(o.val, '\n')) {
        fprintf(stderr, "fenci idf: --meta wants KEY=VALUE on one line (at most %d)\n", IDF_MAX_META);
        return 2;
      }
      metas[nmeta++] = o.val;
    } else {
      return fc_opt_unknown(&o);
    }
  }
  if (!model || !outp || !ndocs) {
    idf_usage(stderr);
    return 2;
  }
  m = fc_cli_open_model(model);
  if (!m) return 1;
  n_words = fenci_model_lexicon_size(m);
  c.m = m;
  c.df = calloc(n_words ? n_words : 1, sizeof *c.df);
  c.last = calloc(n_words ? n_words : 1, sizeof *c.last);
  if (!c.df || !c.last || fenci_tagger_new(&t, m, FENCI_OPT_FAST) != FENCI_OK) {
    fprintf(stderr, "fenci idf: out of memory\n");
    goto done;
  }
  for (i = 0; i < ndocs; i++) {
    size_t len, pos = 0;
    char *text = fc_cli_read_file(docs[i], &len, FC_CLI_READ_TEXT);
    if (!text) goto done;
    while (pos < len) {
      size_t e = pos;
      while (e < len && text[e] != '\n') e++;
      if (e > pos) {
        if (c.doc == UINT32_MAX - 1) {
          fprintf(stderr, "fenci idf: too many documents\n");
          free(text);
          goto done;
        }
        c.doc++;
        rc = fenci_segment(t, text + pos, e - pos, idf_cb, &c);
        if (rc != FENCI_OK) {
          fprintf(stderr, "fenci idf: %s: %s\n", docs[i], fenci_rc_str(rc));
          free(text);
          goto done;
        }
      }
      pos = e + 1;
    }
    free(text);
  }
  for (k = 0; k < n_words; k++) seen += c.df[k] != 0;
  if (fc_kidf_build(c.df, n_words, c.doc, &kidf, &median) != FENCI_OK) {
    fprintf(stderr, "fenci idf: out of memory\n");
    goto done;
  }
  if (stop_path) {
    size_t len;
    char err[256], *text = fc_cli_read_file(stop_path, &len, FC_CLI_READ_TABLE);
    if (!text) goto done;
    err[0] = 0;
    rc = fc_kstp_build(text, len, NULL, &kstp, &n_stop, err, sizeof err);
    free(text);
    if (rc != FENCI_OK) {
      fprintf(stderr, "fenci idf: %s: %s\n", stop_path, err[0] ? err : fenci_rc_str(rc));
      goto done;
    }
  }
  /* the model's sections in their order, the keyword tables before META;
   * META: the other lines, then the IDF lines, then the stop-word lines
   * (the model's own when no new list is given), so a rerun gives the
   * same bytes */
  {
    const fc_file *f = fc_model_file(m);
    const fc_section *me = fc_fmt_find(f, "META");
    const fc_section *old_stop = fc_fmt_find(f, "KSTP");
    static const char *const tags[2] = {"KIDF", "KSTP"};
    const void *data[2] = {kidf.data, stop_path ? kstp.data : old_stop ? old_stop->data : NULL};
    size_t lens[2] = {kidf.len, stop_path ? kstp.len : old_stop ? old_stop->size : 0};
    const char *mt = me ? (const char *)me->data : "";
    size_t ml = me ? me->size : 0;
    int other = 0, stop = 2;
    char line[64];
    rc = FENCI_OK;
    if (fc_meta_lines(&meta, mt, ml, idf_meta_keep, &other)) rc = FENCI_NOMEM;
    snprintf(line, sizeof line, "idf_documents=%u\n", (unsigned)c.doc);
    if (fc_buf_put(&meta, line, strlen(line))) rc = FENCI_NOMEM;
    snprintf(line, sizeof line, "idf_words=%zu\n", seen);
    if (fc_buf_put(&meta, line, strlen(line))) rc = FENCI_NOMEM;
    snprintf(line, sizeof line, "idf_median=%.4f\n", median);
    if (fc_buf_put(&meta, line, strlen(line))) rc = FENCI_NOMEM;
    if (stop_path) {
      snprintf(line, sizeof line, "stopwords=%zu\n", n_stop);
      if (fc_buf_put(&meta, line, strlen(line))) rc = FENCI_NOMEM;
    } else if (fc_meta_lines(&meta, mt, ml, idf_meta_keep, &stop)) {
      rc = FENCI_NOMEM;
    }
    for (i = 0; i < nmeta; i++)
      if (fc_buf_put(&meta, metas[i], strlen(metas[i])) || fc_buf_putc(&meta, '\n')) rc = FENCI_NOMEM;
    if (rc == FENCI_OK) rc = fc_fmt_rewrite(f, 2, tags, data, lens, meta.data, meta.len, NULL, &img, &img_len);
    if (rc != FENCI_OK) {
      fprintf(stderr, "fenci idf: writing the model: %s\n", fenci_rc_str(rc));
      goto done;
    }
  }
  if (fc_cli_write_file("idf", outp, img, img_len)) goto done;
  fprintf(stderr, "fenci idf: %u documents, %zu of %zu lexicon words seen, median idf %.4f%s\n", (unsigned)c.doc,
          seen, n_words, median, stop_path ? "" : " (stop words kept)");
  if (stop_path) fprintf(stderr, "fenci idf: %zu stop words\n", n_stop);
  status = 0;
done:
  fenci_free(NULL, img);
  fc_buf_free(&kidf);
  fc_buf_free(&kstp);
  fc_buf_free(&meta);
  free(c.df);
  free(c.last);
  fenci_tagger_free(t);
  fenci_model_free(m);
  return status;
}
