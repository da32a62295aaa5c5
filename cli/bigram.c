/* bigram.c - `fenci bigram`: adds the word-bigram table (section LEXB) to
 * a lexicon model file, counted from segmented corpora, for the resolution
 * of overlapping ambiguities (src/bigram.h).  `make models` runs it on the
 * lexicon. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bigram.h"
#include "buf.h"
#include "cli.h"
#include "common.h"
#include "fenci.h"
#include "fmt.h"
#include "kwtable.h"
#include "model.h"

#define BG_MAX_FILES 16
#define BG_DISCOUNT 0.75 /* absolute discount (Kneser-Ney's usual value) */

static void bg_usage(FILE *f) {
  fprintf(f,
          "usage: fenci bigram MODEL --corpus FILE [--corpus FILE...] [--exclude FILE] [--min-count N]\n"
          "                    -o|--output OUTPUT\n"
          "Writes OUTPUT: MODEL with a table of word bigrams of its lexicon words, which\n"
          "the trained segmenters use to resolve overlapping ambiguities (和尚未).\n"
          "  --corpus FILE   segmented text: words separated by whitespace, one sentence a line\n"
          "  --exclude FILE  sentences (without spaces) whose lines of the corpora are skipped\n"
          "  --min-count N   pairs seen fewer times are left to the back-off (default 2)\n"
          "P(w2 | w1) = max(c(w1 w2) - 0.75, 0) / c(w1) + 0.75 * F(w1) / c(w1) * P(w2), with\n"
          "F(w1) the distinct words seen after w1 and P(w2) the lexicon's own probability.\n"
          "The same inputs always give the same bytes.\n");
}

/* An open-addressing count table of 64-bit keys (never 0). */
typedef struct bg_map {
  uint64_t *key;
  uint32_t *val;
  size_t cap, n;
} bg_map;

static size_t bg_slot(uint64_t k, size_t cap) { return (size_t)(fc_bigram_key((uint32_t)(k >> 32), (uint32_t)k) & (cap - 1)); }

static int bg_add(bg_map *m, uint64_t k) {
  size_t s;
  if (2 * (m->n + 1) > m->cap) {
    bg_map g;
    size_t i;
    g.cap = m->cap ? 2 * m->cap : 1 << 16;
    g.n = m->n;
    g.key = calloc(g.cap, sizeof *g.key);
    g.val = calloc(g.cap, sizeof *g.val);
    if (!g.key || !g.val) {
      free(g.key);
      free(g.val);
      return -1;
    }
    for (i = 0; i < m->cap; i++)
      if (m->key[i]) {
        for (s = bg_slot(m->key[i], g.cap); g.key[s]; s = (s + 1) & (g.cap - 1)) {
        }
        g.key[s] = m->key[i];
        g.val[s] = m->val[i];
      }
    free(m->key);
    free(m->val);
    *m = g;
  }
  for (s = bg_slot(k, m->cap); m->key[s] && m->key[s] != k; s = (s + 1) & (m->cap - 1)) {
  }
  if (!m->key[s]) {
    m->key[s] = k;
    m->n++;
  }
  if (m->val[s] < UINT32_MAX) m->val[s]++;
  return 0;
}

/* fc_meta_lines' filter: the model's META lines but this command's own. */
static int bg_meta_keep(const char *line, size_t n, void *ctx) {
  (void)ctx;
  return !(n >= 7 && !memcmp(line, "bigram_", 7));
}

static int bg_cmp(const void *a, const void *b) {
  const fc_bigram_entry *x = a, *y = b;
  if (x->w1 != y->w1) return x->w1 < y->w1 ? -1 : 1;
  return x->w2 < y->w2 ? -1 : x->w2 > y->w2;
}

/* Whether line (len bytes, words separated by spaces) spells a sentence of
 * the excluded set (kept sorted in ex, nex of them). */
static int bg_excluded(char *const *ex, size_t nex, const char *line, size_t len, char *scratch) {
  size_t i, o = 0, lo = 0, hi = nex;
  for (i = 0; i < len; i++)
    if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r') scratch[o++] = line[i];
  scratch[o] = 0;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(ex[mid], scratch);
    if (c == 0) return 1;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return 0;
}

static int bg_strcmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int fc_cmd_bigram(int argc, char **argv) {
  const char *model = NULL, *outp = NULL, *ex_path = NULL, *corp[BG_MAX_FILES];
  int ncorp = 0, i, status = 1;
  long min_count = 2;
  fenci_model *m = NULL;
  uint32_t *cnt = NULL, *fol = NULL;
  bg_map pairs = {0};
  fc_bigram_entry *e = NULL;
  size_t n_words, ne = 0, k, nex = 0, skipped = 0, tokens = 0;
  char *ex_text = NULL, **ex = NULL, *scratch = NULL;
  fc_buf lexb, meta;
  uint8_t *img = NULL;
  size_t img_len = 0;
  fenci_rc rc = FENCI_OK;
  fc_opts o;
  fc_buf_init(&lexb, NULL);
  fc_buf_init(&meta, NULL);
  fc_opts_init(&o, "bigram", argc, argv);
  while (fc_opts_next(&o)) {
    if (!o.is_opt) {
      if (model) {
        fprintf(stderr, "fenci bigram: one MODEL only\n");
        return 2;
      }
      model = o.arg;
    } else if (fc_opt_flag(&o, 'h', "help")) {
      bg_usage(stdout);
      return 0;
    } else if (fc_opt_value(&o, 'o', "output")) {
      outp = o.val;
    } else if (fc_opt_value(&o, 0, "corpus")) {
      if (ncorp == BG_MAX_FILES) {
        fprintf(stderr, "fenci bigram: too many --corpus files\n");
        return 2;
      }
      corp[ncorp++] = o.val;
    } else if (fc_opt_value(&o, 0, "exclude")) {
      ex_path = o.val;
    } else if (fc_opt_value(&o, 0, "min-count")) {
      char *end;
      min_count = strtol(o.val, &end, 10);
      if (*end || min_count < 1 || min_count > 1000000) {
        fprintf(stderr, "fenci bigram: --min-count wants a count from 1\n");
        return 2;
      }
    } else {
      return fc_opt_unknown(&o);
    }
  }
  if (!model || !outp || !ncorp) {
    bg_usage(stderr);
    return 2;
  }
  m = fc_cli_open_model(model);
  if (!m) return 1;
  n_words = fenci_model_lexicon_size(m);
  cnt = calloc(n_words + 1, sizeof *cnt);
  fol = calloc(n_words + 1, sizeof *fol);
  if (!cnt || !fol) goto nomem;
  if (ex_path) {
    size_t len, p = 0;
    if (!(ex_text = fc_cli_read_file(ex_path, &len, FC_CLI_READ_TEXT))) goto done;
    for (k = 0; k < len; k++) nex += ex_text[k] == '\n';
    if (!(ex = calloc(nex + 1, sizeof *ex))) goto nomem;
    nex = 0;
    while (p < len) {
      size_t q = p;
      while (q < len && ex_text[q] != '\n') q++;
      ex_text[q] = 0;
      if (q > p) ex[nex++] = ex_text + p;
      p = q + 1;
    }
    qsort(ex, nex, sizeof *ex, bg_strcmp);
  }
  for (i = 0; i < ncorp; i++) {
    size_t len, pos = 0;
    char *text = fc_cli_read_file(corp[i], &len, FC_CLI_READ_TEXT);
    if (!text) goto done;
    free(scratch);
    if (!(scratch = malloc(len + 1))) {
      free(text);
      goto nomem;
    }
    while (pos < len) {
      size_t e0 = pos, p;
      uint32_t prev = FC_BIGRAM_NONE;
      int first = 1;
      while (e0 < len && text[e0] != '\n') e0++;
      if (nex && bg_excluded(ex, nex, text + pos, e0 - pos, scratch)) {
        skipped++;
        pos = e0 + 1;
        continue;
      }
      for (p = pos; p < e0;) {
        size_t q = p;
        uint32_t wd = FC_BIGRAM_NONE;
        if (text[p] == ' ' || text[p] == '\t' || text[p] == '\r') {
          p++;
          continue;
        }
        while (q < e0 && text[q] != ' ' && text[q] != '\t' && text[q] != '\r') q++;
        if (!fc_kw_lexicon_word(m, (const uint8_t *)text + p, q - p, &wd)) wd = FC_BIGRAM_NONE;
        tokens++;
        if (!first) {
          /* a pair: w1's count as a context; its distinct followers */
          uint64_t key = (uint64_t)(prev == FC_BIGRAM_NONE ? n_words : prev) << 32 | (wd == FC_BIGRAM_NONE ? 0xFFFFFFFEu : wd);
          if (bg_add(&pairs, key + 1)) {
            free(text);
            goto nomem;
          }
        }
        first = 0;
        prev = wd;
        p = q;
      }
      pos = e0 + 1;
    }
    free(text);
  }
  for (k = 0; k < pairs.cap; k++)
    if (pairs.key[k]) {
      uint64_t key = pairs.key[k] - 1;
      uint32_t w1 = (uint32_t)(key >> 32);
      cnt[w1] += pairs.val[k];
      fol[w1]++;
    }
  if (!(e = calloc(pairs.n + n_words + 1, sizeof *e))) goto nomem;
  for (k = 0; k < n_words; k++)
    if (cnt[k]) {
      e[ne].w1 = (uint32_t)k;
      e[ne].w2 = FC_BIGRAM_NONE;
      e[ne].cost = -log(BG_DISCOUNT * fol[k] / cnt[k]);
      ne++;
    }
  for (k = 0; k < pairs.cap; k++)
    if (pairs.key[k] && pairs.val[k] >= (uint32_t)min_count) {
      uint64_t key = pairs.key[k] - 1;
      uint32_t w1 = (uint32_t)(key >> 32), w2 = (uint32_t)key;
      double c1, p;
      if (w1 >= n_words || w2 >= n_words) continue;
      c1 = cnt[w1];
      p = (pairs.val[k] - BG_DISCOUNT) / c1 + BG_DISCOUNT * fol[w1] / c1 * exp(-(double)fc_model_cost(m, w2));
      e[ne].w1 = w1;
      e[ne].w2 = w2;
      e[ne].cost = -log(p);
      ne++;
    }
  /* a fixed order, so the table's bytes do not depend on the hash map's */
  qsort(e, ne, sizeof *e, bg_cmp);
  rc = fc_bigram_build(e, ne, n_words, &lexb, NULL);
  if (rc != FENCI_OK) goto fail;
  {
    /* the model's sections with LEXB replaced; its META without the
     * bigram_ lines, then this table's */
    const fc_file *f = fc_model_file(m);
    const fc_section *me = fc_fmt_find(f, "META");
    static const char *const tag[1] = {"LEXB"};
    const void *data[1] = {lexb.data};
    size_t lens[1] = {lexb.len};
    char line[96];
    if (fc_meta_lines(&meta, me ? (const char *)me->data : "", me ? me->size : 0, bg_meta_keep, NULL)) goto nomem;
    snprintf(line, sizeof line, "bigram_tokens=%zu\nbigram_entries=%zu\nbigram_min_count=%ld\n", tokens, ne,
             min_count);
    if (fc_buf_put(&meta, line, strlen(line))) goto nomem;
    rc = fc_fmt_rewrite(f, 1, tag, data, lens, meta.data, meta.len, NULL, &img, &img_len);
    if (rc != FENCI_OK) goto fail;
  }
  if (fc_cli_write_file("bigram", outp, img, img_len)) goto done;
  fprintf(stderr, "fenci bigram: %zu tokens, %zu pairs, %zu entries kept, %zu lines excluded\n", tokens, pairs.n, ne,
          skipped);
  status = 0;
  goto done;
nomem:
  rc = FENCI_NOMEM;
fail:
  fprintf(stderr, "fenci bigram: %s\n", fenci_rc_str(rc));
done:
  fenci_free(NULL, img);
  fc_buf_free(&lexb);
  fc_buf_free(&meta);
  free(pairs.key);
  free(pairs.val);
  free(e);
  free(cnt);
  free(fol);
  free(ex);
  free(ex_text);
  free(scratch);
  fenci_model_free(m);
  return status;
}
