/* train.c - `fenci train`: trains the segmenter on a segmented corpus and
 * writes a model file = the lexicon's sections + weights + META. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "common.h"
#include "feat.h"
#include "fenci.h"
#include "train/train.h"

static void train_usage(FILE *f) {
  fprintf(f,
          "usage: fenci train [--task seg|pos|ner] --lexicon LEX.fenci --train FILE [--format pd|msr|ctb|seg]\n"
          "                   [--dev FILE [--dev-format F]] [--iters N] [--seed S]\n"
          "                   [--templates LIST] [--min-count N] [--sym-min-count N] [--prune N]\n"
          "                   [--patience N] [--folds N] [--words FILE]\n"
          "                   [--share-lexicon] [--meta KEY=VALUE]... -o OUT.fenci\n"
          "Trains the B/M/E/S averaged-perceptron segmenter on a segmented corpus and\n"
          "writes OUT = the lexicon model plus the trained weights.  Progress goes to stderr.\n"
          "  --task        seg (default): the segmenter; pos: the part-of-speech tagger,\n"
          "                trained on words and tags (--format pd) and written into a\n"
          "                copy of LEX (section POSM), which every model using LEX shares;\n"
          "                ner: the name recogniser (PER, LOC, ORG over characters), from\n"
          "                the entity tags of --format msr (nr ns nt) or pd (also [..]ns,\n"
          "                [..]nt), written into a copy of LEX (section NERM, and its\n"
          "                gazetteer of the training names, NERG)\n"
          "  --also [F:]FILE  another training corpus (repeatable, up to 4), in format F\n"
          "                (pd, msr, ctb, seg) or else --also-format (default pd).  ner:\n"
          "                more entities; seg: a corpus of ANOTHER standard, trained on\n"
          "                together with --train as one multi-criteria model (weights\n"
          "                shared by all plus one copy per standard; OUT gets the shared\n"
          "                ones plus those of --train's standard, chosen on --dev)\n"
          "  --names [F:]FILE  ner: a corpus whose entities join the gazetteer only, not\n"
          "                the training text (repeatable, up to 4; F as for --also)\n"
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
          "  --share-lexicon  OUT refers to LEX.fenci by file name instead of holding a\n"
          "                copy of it (both must be in one directory; `fenci cut` finds it\n"
          "                beside OUT, and refuses a lexicon other than the one trained with)\n"
          "  --meta        extra META line, e.g. --meta corpus=pd1998-01 (repeatable)\n");
}

static int train_log(void *ctx, const char *msg) {
  (void)ctx;
  fprintf(stderr, "fenci train: %s\n", msg);
  return 0;
}

/* A whole number from min to max for option opt, or -1 with a message
 * naming the option and the value. */
static int train_num(const char *opt, const char *v, unsigned long long min, unsigned long long max,
                     unsigned long long *out) {
  char *e;
  unsigned long long x;
  errno = 0;
  x = strtoull(v, &e, 10);
  if (!*v || *e || errno || v[0] == '-' || v[0] == '+' || x < min || x > max) {
    fprintf(stderr, "fenci train: %s wants a whole number from %llu to %llu, not '%s'\n", opt, min, max, v);
    return -1;
  }
  *out = x;
  return 0;
}

/* A corpus format name for option opt, or -1 with a message. */
static int train_format(const char *opt, const char *v) {
  int f = fc_corpus_format(v);
  if (f < 0) fprintf(stderr, "fenci train: %s: unknown corpus format '%s' (pd, msr, ctb or seg)\n", opt, v);
  return f;
}

/* Checks before a long run that an input file given with option opt can be
 * read; 0, or -1 with a message naming the option and the file. */
static int train_input(const char *opt, const char *path) {
  struct stat st;
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "fenci train: %s: cannot open '%s': %s\n", opt, path, strerror(errno));
    return -1;
  }
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    fprintf(stderr, "fenci train: %s: '%s' is a directory\n", opt, path);
    fclose(f);
    return -1;
  }
  fclose(f);
  return 0;
}

/* Same for the output: a file is written as a new file next to it and
 * renamed (fc_cli_write_file), so its directory must take one. */
static int train_output(const char *path) {
  char dir[4096];
  const char *slash = strrchr(path, '/');
  struct stat st;
  if (stat(path, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      fprintf(stderr, "fenci train: -o: '%s' is a directory\n", path);
      return -1;
    }
    if (!S_ISREG(st.st_mode)) return 0; /* a device or pipe: written in place */
  }
  if (!slash) snprintf(dir, sizeof dir, ".");
  else snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
  if (access(dir, W_OK) != 0) {
    fprintf(stderr, "fenci train: -o: cannot write '%s' in '%s': %s\n", path, dir, strerror(errno));
    return -1;
  }
  return 0;
}

static const char *train_basename(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* --share-lexicon: the model finds its lexicon by name in its own
 * directory, so the two must be in one; 0, or -1 with a message. */
static int train_same_dir(const char *lexp, const char *outp) {
  char a[4096], b[4096];
  struct stat sa, sb;
  size_t la = (size_t)(train_basename(lexp) - lexp), lb = (size_t)(train_basename(outp) - outp);
  snprintf(a, sizeof a, "%.*s", la ? (int)la : 1, la ? lexp : ".");
  snprintf(b, sizeof b, "%.*s", lb ? (int)lb : 1, lb ? outp : ".");
  if (stat(a, &sa) || stat(b, &sb) || sa.st_dev != sb.st_dev || sa.st_ino != sb.st_ino) {
    fprintf(stderr, "fenci train: --share-lexicon: %s and %s must be in one directory\n", lexp, outp);
    return -1;
  }
  return 0;
}

/* --task pos / ner: writes the labeller section (tag, "pos" or "ner")
 * into a copy of the lexicon model; score is the dev figure. */
static int train_write_labeller(const fenci_model *lex, const char *tag, const char *task, fenci_rc rc, uint8_t *sec,
                                size_t sec_len, uint8_t *gsec, size_t gsec_len, int has_dev, double score, int best,
                                const char *meta, const char *outp, const char *err) {
  uint8_t *img = NULL;
  size_t img_len = 0;
  int ret = 1;
  char m2[2048], e2[512] = "";
  if (rc != FENCI_OK) {
    fprintf(stderr, "fenci train: training failed: %s%s%s\n", fenci_rc_str(rc), err[0] ? ": " : "", err);
    return 1;
  }
  const char *metric = strcmp(task, "pos") ? "f1" : "accuracy";
  /* without --dev there is no dev score to record (a refit on train + dev
   * names the iterations and score of its dev run with --meta) */
  if (has_dev)
    snprintf(m2, sizeof m2, "%s_iterations=%d\n%s_dev_%s=%.4f\n%s", task, best, task, metric, score, meta ? meta : "");
  else
    snprintf(m2, sizeof m2, "%s_iterations=%d\n%s", task, best, meta ? meta : "");
  rc = gsec ? fc_train_write_ner(lex, sec, sec_len, gsec, gsec_len, m2, NULL, &img, &img_len, e2, sizeof e2)
            : fc_train_write_section(lex, tag, sec, sec_len, m2, NULL, &img, &img_len, e2, sizeof e2);
  if (rc == FENCI_OK && fc_cli_write_file("train", outp, img, img_len) == 0) {
    if (has_dev)
      fprintf(stderr, "fenci train: wrote %s (%zu bytes, %s %zu bytes): iteration %d kept, dev %s %.2f\n", outp,
              img_len, tag, sec_len, best, strcmp(task, "pos") ? "entity F1" : "tag accuracy", score * 100);
    else
      fprintf(stderr, "fenci train: wrote %s (%zu bytes, %s %zu bytes): %d iterations (no dev set)\n", outp, img_len,
              tag, sec_len, best);
    ret = 0;
  } else if (rc != FENCI_OK)
    fprintf(stderr, "fenci train: %s\n", e2);
  fenci_free(NULL, sec);
  fenci_free(NULL, gsec);
  fenci_free(NULL, img);
  return ret;
}

/* --task pos: the tagger's section added to the lexicon model. */
static int train_pos(const fenci_model *lex, const fc_corpus *tc, const fc_corpus *dc, const fc_train_opts *o,
                     const char *meta, const char *outp) {
  uint8_t *sec = NULL;
  size_t sec_len = 0;
  double acc = 0;
  int best = 0;
  char err[512] = "";
  fenci_rc rc = fc_train_pos(lex, tc, dc, o, NULL, &sec, &sec_len, &acc, &best, err, sizeof err);
  return train_write_labeller(lex, "POSM", "pos", rc, sec, sec_len, NULL, 0, dc != NULL, acc, best, meta, outp, err);
}

/* --also [F:]FILE: the format named before the first colon, if it is one,
 * else def (or pd); *path the file.  -1 when F: names no format. */
static int train_also_format(const char *val, int def, const char **path) {
  const char *c = strchr(val, ':');
  *path = val;
  if (c && c - val <= 6) {
    char name[8];
    int f;
    memcpy(name, val, (size_t)(c - val));
    name[c - val] = 0;
    if ((f = fc_corpus_format(name)) >= 0) {
      *path = c + 1;
      return f;
    }
  }
  return def >= 0 ? def : fc_corpus_format("pd");
}

/* Loads the --also corpora into also[0..n); 0, or 1 with a message. */
static int train_load_also(fc_corpus *also, const char *const *alsop, size_t n, int alsof) {
  size_t k;
  char err[512];
  for (k = 0; k < n; k++) {
    const char *path;
    int f = train_also_format(alsop[k], alsof, &path);
    if (fc_corpus_load(&also[k], path, f, err, sizeof err) != FENCI_OK) {
      fprintf(stderr, "fenci train: %s\n", err);
      return 1;
    }
    fprintf(stderr, "fenci train: %s: %zu sentences, %zu words\n", path, also[k].n_sent, also[k].n_words);
  }
  return 0;
}

/* --task ner: the name recogniser's section added to the lexicon model,
 * trained on tc and the n_also corpora also. */
static int train_ner(const fenci_model *lex, const fc_corpus *tc, const fc_corpus *also, size_t n_also,
                     const fc_corpus *dc, const fc_train_opts *o, const char *meta, const char *outp) {
  uint8_t *sec = NULL, *gsec = NULL;
  size_t sec_len = 0, gsec_len = 0, nt = 1, k;
  double f1 = 0;
  int best = 0;
  char err[512] = "";
  const fc_corpus *trains[1 + FC_TRAIN_MAX_ALSO];
  fenci_rc rc;
  trains[0] = tc;
  for (k = 0; k < n_also; k++) trains[nt++] = &also[k];
  rc = fc_train_ner(lex, trains, nt, dc, o, NULL, &sec, &sec_len, &gsec, &gsec_len, &f1, &best, err, sizeof err);
  return train_write_labeller(lex, "NERM", "ner", rc, sec, sec_len, gsec, gsec_len, dc != NULL, f1, best, meta, outp, err);
}

int fc_cmd_train(int argc, char **argv) {
  const char *lexp = NULL, *trainp = NULL, *devp = NULL, *outp = NULL, *wordsp = NULL;
  int share = 0, task = 0, alsof = -1;
  const char *alsop[FC_TRAIN_MAX_ALSO], *namesp[FC_TRAIN_MAX_ALSO];
  size_t n_also = 0, n_names = 0, k;
  fc_corpus also[FC_TRAIN_MAX_ALSO], names[FC_TRAIN_MAX_ALSO];
  const fc_corpus *namesc[FC_TRAIN_MAX_ALSO];
  const fc_corpus *alsoc[FC_TRAIN_MAX_ALSO];
  char *words = NULL;
  size_t words_len = 0;
  int f = -1, df = -1;
  char err[512], meta[4096];
  size_t meta_len = 0;
  fc_train_opts o;
  fc_corpus tc, dc;
  fc_train_result res;
  fenci_model *lex = NULL;
  uint8_t *img = NULL;
  size_t img_len = 0;
  int ret = 1;
  fenci_rc rc;
  unsigned long long v;
  fc_opts op;

  fc_train_opts_init(&o);
  meta[0] = 0;
  fc_opts_init(&op, "train", argc, argv);
  while (fc_opts_next(&op)) {
    const char *a = op.arg;
    if (!op.is_opt) {
      fprintf(stderr, "fenci train: unexpected argument '%s' (the files are given with options; see --help)\n", a);
      return 2;
    } else if (fc_opt_flag(&op, 'h', "help")) {
      train_usage(stdout);
      return 0;
    } else if (fc_opt_value(&op, 0, "lexicon")) lexp = op.val;
    else if (fc_opt_value(&op, 0, "train")) trainp = op.val;
    else if (fc_opt_value(&op, 0, "dev")) devp = op.val;
    else if (fc_opt_value(&op, 0, "words")) wordsp = op.val;
    else if (fc_opt_value(&op, 'o', "output")) outp = op.val;
    else if (fc_opt_flag(&op, 0, "share-lexicon")) share = 1;
    else if (fc_opt_value(&op, 0, "also")) {
      if (n_also == FC_TRAIN_MAX_ALSO) {
        fprintf(stderr, "fenci train: --also: at most %d corpora\n", FC_TRAIN_MAX_ALSO);
        return 2;
      }
      alsop[n_also++] = op.val;
    }
    else if (fc_opt_value(&op, 0, "names")) {
      if (n_names == FC_TRAIN_MAX_ALSO) {
        fprintf(stderr, "fenci train: --names: at most %d corpora\n", FC_TRAIN_MAX_ALSO);
        return 2;
      }
      namesp[n_names++] = op.val;
    }
    else if (fc_opt_value(&op, 0, "also-format")) {
      if ((alsof = train_format("--also-format", op.val)) < 0) return 2;
    }
    else if (fc_opt_value(&op, 0, "task")) {
      if (!strcmp(op.val, "seg")) task = 0;
      else if (!strcmp(op.val, "pos")) task = 1;
      else if (!strcmp(op.val, "ner")) task = 2;
      else {
        fprintf(stderr, "fenci train: --task: unknown task '%s' (seg, pos or ner)\n", op.val);
        return 2;
      }
    }
    else if (fc_opt_value(&op, 0, "format")) {
      if ((f = train_format("--format", op.val)) < 0) return 2;
    } else if (fc_opt_value(&op, 0, "dev-format")) {
      if ((df = train_format("--dev-format", op.val)) < 0) return 2;
    } else if (fc_opt_value(&op, 0, "iters")) {
      if (train_num("--iters", op.val, 1, 1000, &v)) return 2;
      o.iters = (int)v;
    } else if (fc_opt_value(&op, 0, "seed")) {
      if (train_num("--seed", op.val, 0, (unsigned long long)-1, &v)) return 2;
      o.seed = v;
    } else if (fc_opt_value(&op, 0, "min-count")) {
      if (train_num("--min-count", op.val, 0, 1000000, &v)) return 2;
      o.min_count = (uint32_t)v;
    } else if (fc_opt_value(&op, 0, "sym-min-count")) {
      if (train_num("--sym-min-count", op.val, 1, 1000000, &v)) return 2;
      o.sym_min_count = (uint32_t)v;
    } else if (fc_opt_value(&op, 0, "prune")) {
      if (train_num("--prune", op.val, 0, 30000, &v)) return 2;
      o.prune = (int)v;
    } else if (fc_opt_value(&op, 0, "folds")) {
      if (train_num("--folds", op.val, 2, 100, &v)) return 2;
      o.folds = (int)v;
    } else if (fc_opt_value(&op, 0, "patience")) {
      if (train_num("--patience", op.val, 0, 1000, &v)) return 2;
      o.patience = (int)v;
    } else if (fc_opt_value(&op, 0, "templates")) {
      o.mask = fc_feat_parse_mask(op.val);
      if (!o.mask) {
        fprintf(stderr, "fenci train: --templates: unknown name in '%s' (see --help)\n", op.val);
        return 2;
      }
    } else if (fc_opt_value(&op, 0, "meta")) {
      const char *val = op.val;
      size_t l = strlen(val);
      if (!strchr(val, '=') || strchr(val, '\n')) {
        fprintf(stderr, "fenci train: --meta wants one KEY=VALUE line, not '%s'\n", val);
        return 2;
      }
      if (meta_len + l + 2 > sizeof meta) {
        fprintf(stderr, "fenci train: --meta '%s': more than %zu bytes of metadata in all\n", val, sizeof meta - 1);
        return 2;
      }
      memcpy(meta + meta_len, val, l);
      meta_len += l;
      meta[meta_len++] = '\n';
      meta[meta_len] = 0;
    } else return fc_opt_unknown(&op);
  }
  if (!lexp || !trainp || !outp) {
    fprintf(stderr, "fenci train: --lexicon, --train and -o are required (see --help)\n");
    return 2;
  }
  if (share && train_same_dir(lexp, outp)) return 1;
  if (f < 0) f = fc_corpus_format("seg");
  if (df < 0) df = f;
  if (train_input("--lexicon", lexp) || train_input("--train", trainp) || (devp && train_input("--dev", devp)) ||
      (wordsp && train_input("--words", wordsp)) || train_output(outp))
    return 1;
  o.log = train_log;
  o.meta = meta_len ? meta : NULL;

  rc = fenci_model_open(&lex, lexp, NULL, err, sizeof err);
  if (rc != FENCI_OK) {
    fprintf(stderr, "fenci train: %s: %s\n", lexp, err);
    return 1;
  }
  fc_corpus_init(&tc, NULL);
  fc_corpus_init(&dc, NULL);
  for (k = 0; k < n_also; k++) {
    fc_corpus_init(&also[k], NULL);
    alsoc[k] = &also[k];
  }
  for (k = 0; k < n_names; k++) {
    fc_corpus_init(&names[k], NULL);
    namesc[k] = &names[k];
  }
  if (wordsp) {
    words = fc_cli_read_file(wordsp, &words_len, FC_CLI_READ_TEXT);
    if (!words) goto done;
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
  if (train_load_also(also, alsop, n_also, alsof) || train_load_also(names, namesp, n_names, alsof)) goto done;
  if (task == 1 && n_also) {
    fprintf(stderr, "fenci train: --also is for --task seg and ner\n");
    goto done;
  }
  if (task != 2 && n_names) {
    fprintf(stderr, "fenci train: --names is for --task ner\n");
    goto done;
  }
  o.also = alsoc;
  o.n_also = n_also;
  o.names = namesc;
  o.n_names = n_names;
  err[0] = 0;
  if (task == 1) {
    ret = train_pos(lex, &tc, devp ? &dc : NULL, &o, meta_len ? meta : NULL, outp);
    goto done;
  }
  if (task == 2) {
    ret = train_ner(lex, &tc, also, n_also, devp ? &dc : NULL, &o, meta_len ? meta : NULL, outp);
    goto done;
  }
  rc = fc_train_segmenter(lex, &tc, devp ? &dc : NULL, &o, NULL, &res, err, sizeof err);
  if (rc != FENCI_OK) {
    fprintf(stderr, "fenci train: training failed: %s%s%s\n", fenci_rc_str(rc), err[0] ? ": " : "", err);
    goto done;
  }
  rc = fc_train_write_model(lex, &res, share ? train_basename(lexp) : NULL, NULL, &img, &img_len, err, sizeof err);
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
  for (k = 0; k < n_also; k++) fc_corpus_free(&also[k]);
  for (k = 0; k < n_names; k++) fc_corpus_free(&names[k]);
  fenci_model_free(lex);
  return ret;
}
