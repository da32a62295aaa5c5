/* train.c - `fenci train`: trains the segmenter on a segmented corpus and
 * writes a model file = the lexicon's sections + weights + META. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "common.h"
#include "feat.h"
#include "fenci.h"
#include "train/train.h"

static void train_usage(FILE *f) {
  fprintf(f,
          "usage: fenci train --lexicon LEX.fenci --train FILE [--format pd|msr|ctb|seg]\n"
          "                   [--dev FILE [--dev-format F]] [--iters N] [--seed S]\n"
          "                   [--templates LIST] [--min-count N] [--sym-min-count N] [--prune N]\n"
          "                   [--patience N] [--folds N] [--words FILE]\n"
          "                   [--meta KEY=VALUE]... -o OUT.fenci\n"
          "Trains the B/M/E/S averaged-perceptron segmenter on a segmented corpus and\n"
          "writes OUT = the lexicon model plus the trained weights.  Progress goes to stderr.\n"
          "  --format      pd: People's Daily 1998 (id token, word/POS, [..]nt compounds);\n"
          "                msr: MSRA NER word/tag; ctb, seg: words separated by spaces\n"
          "                (default seg)\n"
          "  --dev         held-out corpus scored after each iteration; the best iteration\n"
          "                is kept (without --dev the last one is)\n"
          "  --iters       iterations at most (default 10)\n"
          "  --seed        shuffling seed (default 1); same data and seed => same bytes\n"
          "  --templates   feature groups, comma-separated, of: uni bi skip tri lex lexu cls\n"
          "                rep mm mmu tlex tlexu lat latu latm, or 'default', 'all'\n"
          "                (default: uni,bi,skip,lex,lexu,tlex,tlexu,lat,latu,latm; tlex and\n"
          "                tlexu bring bi; lat, latu, latm: the lexicon lattice's best path\n"
          "                and its margins)\n"
          "  --min-count   drop features seen fewer times in training (default 2)\n"
          "  --sym-min-count  characters seen fewer times share one 'unknown' symbol\n"
          "                (default 1: only unseen ones)\n"
          "  --prune       zero quantised weights with |w| <= N (default 0)\n"
          "  --patience    stop after N iterations without a dev gain (default 0: never)\n"
          "  --folds       jackknife folds for the training-word lexicon (tlex, tlexu;\n"
          "                default 10)\n"
          "  --words       extra words for the training-word lexicon (tlex, tlexu): the\n"
          "                first token of each line, e.g. a training corpus's word list\n"
          "  --meta        extra META line, e.g. --meta corpus=pd1998-01 (repeatable)\n");
}

static int train_log(void *ctx, const char *msg) {
  (void)ctx;
  fprintf(stderr, "fenci train: %s\n", msg);
  return 0;
}

static int train_num(const char *opt, const char *v, unsigned long long max, unsigned long long *out) {
  char *e;
  unsigned long long x;
  errno = 0;
  x = strtoull(v, &e, 10);
  if (!*v || *e || errno || x > max || v[0] == '-') {
    fprintf(stderr, "fenci train: %s: bad number '%s'\n", opt, v);
    return -1;
  }
  *out = x;
  return 0;
}

int fc_cmd_train(int argc, char **argv) {
  const char *lexp = NULL, *trainp = NULL, *devp = NULL, *outp = NULL, *wordsp = NULL;
  char *words = NULL;
  size_t words_len = 0;
  const char *fmt = "seg", *dfmt = NULL;
  char err[512], meta[4096];
  size_t meta_len = 0;
  fc_train_opts o;
  fc_corpus tc, dc;
  fc_train_result res;
  fenci_model *lex = NULL;
  uint8_t *img = NULL;
  size_t img_len = 0;
  int i, f, df, ret = 1;
  fenci_rc rc;
  unsigned long long v;

  fc_train_opts_init(&o);
  meta[0] = 0;
  for (i = 1; i < argc; i++) {
    const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      train_usage(stdout);
      return 0;
    }
    if (!val) {
      fprintf(stderr, "fenci train: %s needs a value (see --help)\n", a);
      return 2;
    }
    i++;
    if (!strcmp(a, "--lexicon")) lexp = val;
    else if (!strcmp(a, "--train")) trainp = val;
    else if (!strcmp(a, "--format")) fmt = val;
    else if (!strcmp(a, "--dev")) devp = val;
    else if (!strcmp(a, "--dev-format")) dfmt = val;
    else if (!strcmp(a, "--words")) wordsp = val;
    else if (!strcmp(a, "-o") || !strcmp(a, "--output")) outp = val;
    else if (!strcmp(a, "--iters")) {
      if (train_num(a, val, 1000, &v) || v == 0) return 2;
      o.iters = (int)v;
    } else if (!strcmp(a, "--seed")) {
      if (train_num(a, val, (unsigned long long)-1, &v)) return 2;
      o.seed = v;
    } else if (!strcmp(a, "--min-count")) {
      if (train_num(a, val, 1000000, &v)) return 2;
      o.min_count = (uint32_t)v;
    } else if (!strcmp(a, "--sym-min-count")) {
      if (train_num(a, val, 1000000, &v) || v == 0) return 2;
      o.sym_min_count = (uint32_t)v;
    } else if (!strcmp(a, "--prune")) {
      if (train_num(a, val, 30000, &v)) return 2;
      o.prune = (int)v;
    } else if (!strcmp(a, "--folds")) {
      if (train_num(a, val, 100, &v) || v < 2) return 2;
      o.folds = (int)v;
    } else if (!strcmp(a, "--patience")) {
      if (train_num(a, val, 1000, &v)) return 2;
      o.patience = (int)v;
    } else if (!strcmp(a, "--templates")) {
      o.mask = fc_feat_parse_mask(val);
      if (!o.mask) {
        fprintf(stderr, "fenci train: --templates: unknown name in '%s'\n", val);
        return 2;
      }
    } else if (!strcmp(a, "--meta")) {
      size_t l = strlen(val);
      if (!strchr(val, '=') || strchr(val, '\n') || meta_len + l + 2 > sizeof meta) {
        fprintf(stderr, "fenci train: --meta wants one KEY=VALUE line\n");
        return 2;
      }
      memcpy(meta + meta_len, val, l);
      meta_len += l;
      meta[meta_len++] = '\n';
      meta[meta_len] = 0;
    } else {
      fprintf(stderr, "fenci train: unknown option %s (see --help)\n", a);
      return 2;
    }
  }
  if (!lexp || !trainp || !outp) {
    fprintf(stderr, "fenci train: --lexicon, --train and -o are required (see --help)\n");
    return 2;
  }
  f = fc_corpus_format(fmt);
  df = fc_corpus_format(dfmt ? dfmt : fmt);
  if (f < 0 || df < 0) {
    fprintf(stderr, "fenci train: unknown format '%s' (pd, msr, ctb, seg)\n", f < 0 ? fmt : dfmt);
    return 2;
  }
  o.log = train_log;
  o.meta = meta_len ? meta : NULL;

  rc = fenci_model_open(&lex, lexp, NULL, err, sizeof err);
  if (rc != FENCI_OK) {
    fprintf(stderr, "fenci train: %s: %s\n", lexp, err);
    return 1;
  }
  fc_corpus_init(&tc, NULL);
  fc_corpus_init(&dc, NULL);
  if (wordsp) {
    FILE *wf = fopen(wordsp, "rb");
    size_t cap = 0, got;
    char *p;
    if (!wf) {
      fprintf(stderr, "fenci train: %s: %s\n", wordsp, strerror(errno));
      goto done;
    }
    do {
      if (words_len + 65536 > cap) {
        cap = cap ? cap * 2 : 1 << 20;
        if (!(p = realloc(words, cap))) {
          fclose(wf);
          fprintf(stderr, "fenci train: out of memory\n");
          goto done;
        }
        words = p;
      }
      got = fread(words + words_len, 1, cap - words_len, wf);
      words_len += got;
    } while (got > 0);
    fclose(wf);
    o.words = words;
    o.words_len = words_len;
  }
  rc = fc_corpus_load(&tc, trainp, f, err, sizeof err);
  if (rc == FENCI_OK && devp) rc = fc_corpus_load(&dc, devp, df, err, sizeof err);
  if (rc != FENCI_OK) {
    fprintf(stderr, "fenci train: %s\n", err);
    goto done;
  }
  fprintf(stderr, "fenci train: %s: %zu sentences, %zu words%s", trainp, tc.n_sent, tc.n_words, devp ? "; " : "\n");
  if (devp) fprintf(stderr, "%s: %zu sentences, %zu words\n", devp, dc.n_sent, dc.n_words);
  err[0] = 0;
  rc = fc_train_segmenter(lex, &tc, devp ? &dc : NULL, &o, NULL, &res, err, sizeof err);
  if (rc != FENCI_OK) {
    fprintf(stderr, "fenci train: training failed: %s%s%s\n", fenci_rc_str(rc), err[0] ? ": " : "", err);
    goto done;
  }
  rc = fc_train_write_model(lex, &res, NULL, &img, &img_len, err, sizeof err);
  if (rc == FENCI_OK && fc_cli_write_file("train", outp, img, img_len) == 0) {
    fprintf(stderr, "fenci train: wrote %s (%zu bytes): iteration %d kept, dev F1 %.2f, %zu feature groups\n", outp,
            img_len, res.best_iter, res.dev_f1 * 100, res.n_groups);
    ret = 0;
  } else if (rc != FENCI_OK) {
    fprintf(stderr, "fenci train: %s\n", err);
  }
  fenci_free(NULL, img);
  fc_train_result_free(&res, NULL);
done:
  free(words);
  fc_corpus_free(&tc);
  fc_corpus_free(&dc);
  fenci_model_free(lex);
  return ret;
}
