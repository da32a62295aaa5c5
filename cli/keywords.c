/* keywords.c - `fenci keywords`: the keywords of each document (a file, or
 * with --lines each line) by TF-IDF or TextRank (fenci_keywords). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "chars.h"
#include "cli.h"
#include "common.h"
#include "fenci.h"

#define KW_MAX_FILES 256
#define KW_MAX_DOC (512 << 20) /* bytes of one document: /dev/zero fails instead of filling memory */

static void kw_usage(FILE *f) {
  fprintf(f,
          "usage: fenci keywords [options] [FILE...]\n"
          "Prints the keywords of each document: each FILE (standard input without FILE or\n"
          "for '-'), or with --lines each line.  Text output: one line a document, the\n"
          "keywords separated by spaces, best first.\n"
          "  -k, --top N          at most N keywords a document (default 20; 0: all)\n"
          "  --textrank           TextRank instead of TF-IDF\n"
          "  --pos TAGS           allowed tags, e.g. n,ns,vn (default: every tag for TF-IDF,\n"
          "                       ns,n,vn,v for TextRank); tags are the model's (fenci cut -f json)\n"
          "  --stopwords FILE     more stop words, one a line, every line a word as in jieba\n"
          "                       (the model's list still applies)\n"
          "  --no-default-stopwords  leave out the model's stop-word list\n"
          "  --idf FILE           IDF values in jieba's idf.txt format (\"word idf\" lines),\n"
          "                       replacing the model's table\n"
          "  --numbers            numbers may be keywords\n"
          "  --by-tag             a word with two tags is two keywords\n"
          "  --window N, --damping D, --iterations N\n"
          "                       TextRank: co-occurrence span in tokens (5), damping (0.85),\n"
          "                       rank updates (10)\n"
          "  -w, --weights        text output: word:weight\n"
          "  --json               one JSON object a document: {\"doc\", \"keywords\": [{\"w\",\n"
          "                       \"weight\", \"count\", \"tag\", \"s\", \"e\"}]} (doc: the file name, with\n"
          "                       --lines the line number; s, e: byte offsets of the first\n"
          "                       occurrence in the document)\n"
          "  --lines              every line is a document (an empty line gives an empty result)\n"
          "  -m, --model NAME     model name or path (default %s)\n",
          FENCI_DEFAULT_MODEL);
}

typedef struct kw_cfg {
  fenci_kw_opts o;
  int json, weights, lines;
} kw_cfg;

static void kw_put(void *f, const char *s, size_t n) { fwrite(s, 1, n, f); }

static void kw_json_str(FILE *f, const char *s, size_t n) {
  putc('"', f);
  fc_cli_json_body(s, n, kw_put, f);
  putc('"', f);
}

/* One document: 0, or 1 after printing why it failed. */
static int kw_doc(const kw_cfg *cfg, fenci_tagger *t, const fenci_model *m, const char *name, size_t line_no,
                  const char *text, size_t len, fenci_keyword **kw, size_t *kwcap) {
  size_t n = 0, i;
  fenci_rc rc = fenci_keywords(t, text, len, &cfg->o, *kw, *kwcap, &n);
  if (rc == FENCI_TOOSMALL) {
    fenci_keyword *nk = realloc(*kw, n * sizeof *nk);
    if (!nk) {
      fprintf(stderr, "fenci keywords: out of memory\n");
      return 1;
    }
    *kw = nk;
    *kwcap = n;
    rc = fenci_keywords(t, text, len, &cfg->o, *kw, *kwcap, &n);
  }
  if (rc != FENCI_OK) {
    const char *msg = fenci_tagger_errmsg(t);
    fprintf(stderr, "fenci keywords: %s: %s\n", name, msg[0] ? msg : fenci_rc_str(rc));
    return 1;
  }
  if (cfg->json) {
    fputs("{\"doc\":", stdout);
    if (cfg->lines) printf("%zu", line_no);
    else kw_json_str(stdout, name, strlen(name));
    fputs(",\"keywords\":[", stdout);
    for (i = 0; i < n; i++) {
      const fenci_keyword *k = &(*kw)[i];
      fputs(i ? ",{\"w\":" : "{\"w\":", stdout);
      kw_json_str(stdout, text + k->start, k->end - k->start);
      printf(",\"weight\":%.6g,\"count\":%zu,\"tag\":", k->weight, k->count);
      kw_json_str(stdout, fenci_tag_name(m, k->tag), strlen(fenci_tag_name(m, k->tag)));
      printf(",\"s\":%zu,\"e\":%zu}", k->start, k->end);
    }
    fputs("]}\n", stdout);
  } else {
    for (i = 0; i < n; i++) {
      const fenci_keyword *k = &(*kw)[i];
      if (i) putchar(' ');
      fwrite(text + k->start, 1, k->end - k->start, stdout);
      if (cfg->weights) printf(":%.4f", k->weight);
    }
    putchar('\n');
  }
  return 0;
}

static int kw_number(const char *opt, const char *v, long lo, long hi, long *out) {
  char *end;
  long n;
  errno = 0;
  n = strtol(v, &end, 10);
  if (!*v || *end || errno || n < lo || n > hi) {
    fprintf(stderr, "fenci keywords: %s needs a number from %ld to %ld, not '%s'\n", opt, lo, hi, v);
    return -1;
  }
  *out = n;
  return 0;
}

/* Loads a word-list file into d with load(); 0 or -1 (message printed). */
static int kw_load(fenci_kwdict *d, const char *path,
                   fenci_rc (*load)(fenci_kwdict *, const char *, size_t, char *, size_t)) {
  size_t len;
  char err[256], *text = fc_cli_read_file(path, &len, FC_CLI_READ_TABLE);
  fenci_rc rc;
  if (!text) return -1;
  err[0] = 0;
  rc = load(d, text, len, err, sizeof err);
  free(text);
  if (rc != FENCI_OK) {
    fprintf(stderr, "fenci keywords: %s: %s\n", path, err[0] ? err : fenci_rc_str(rc));
    return -1;
  }
  return 0;
}

/* Reads the next document of f into *buf: up to a line end (lines) or
 * the end of the file.  1 with *len bytes (the line end left out), 0 at
 * the end (also for a file mode's second call), -1 read error, -2 over
 * KW_MAX_DOC, -3 out of memory. */
static int kw_read_doc(FILE *f, int lines, char **buf, size_t *cap, size_t *len) {
  size_t n = 0;
  int c = 0, any = 0;
  for (;;) {
    if (n + 1 >= *cap) {
      size_t nc = *cap ? *cap * 2 : 1 << 16;
      char *nb;
      if (n >= KW_MAX_DOC) return -2;
      nb = realloc(*buf, nc);
      if (!nb) return -3;
      *buf = nb;
      *cap = nc;
    }
    if (!lines) {
      size_t r = fread(*buf + n, 1, *cap - n - 1, f);
      n += r;
      if (r == 0) break;
      continue;
    }
    c = getc_unlocked(f);
    if (c == EOF) break;
    any = 1;
    if (c == '\n') break;
    (*buf)[n++] = (char)c;
  }
  if (ferror(f)) return -1;
  if (lines) {
    if (!any) return 0;
    if (n && (*buf)[n - 1] == '\r') n--;
  }
  (*buf)[n] = 0;
  *len = n;
  return 1;
}

int fc_cmd_keywords(int argc, char **argv) {
  kw_cfg cfg;
  const char *files[KW_MAX_FILES], *model = NULL, *stops[16], *idf = NULL;
  int nfiles = 0, nstops = 0, i, status = 0, need_pos;
  long v;
  fenci_model *m = NULL;
  fenci_tagger *t = NULL;
  fenci_kwdict *d = NULL;
  fenci_keyword *kw = NULL;
  size_t kwcap = 0, bufcap = 0;
  char *buf = NULL;
  fc_opts o;

  memset(&cfg, 0, sizeof cfg);
  cfg.o.top_k = 20;
  fc_opts_init(&o, "keywords", argc, argv);
  while (fc_opts_next(&o)) {
    if (!o.is_opt) {
      if (nfiles == KW_MAX_FILES) {
        fprintf(stderr, "fenci keywords: too many files\n");
        return 2;
      }
      files[nfiles++] = o.arg;
    } else if (fc_opt_flag(&o, 'h', "help")) {
      kw_usage(stdout);
      return 0;
    } else if (fc_opt_value(&o, 'm', "model")) {
      model = o.val;
    } else if (fc_opt_value(&o, 'k', "top")) {
      if (kw_number("-k", o.val, 0, 1000000000L, &v)) return 2;
      cfg.o.top_k = (size_t)v;
    } else if (fc_opt_flag(&o, 0, "textrank")) {
      cfg.o.method = FENCI_KW_TEXTRANK;
    } else if (fc_opt_value(&o, 0, "pos")) {
      cfg.o.pos = o.val;
    } else if (fc_opt_value(&o, 0, "stopwords")) {
      if (nstops == 16) {
        fprintf(stderr, "fenci keywords: too many --stopwords files\n");
        return 2;
      }
      stops[nstops++] = o.val;
    } else if (fc_opt_flag(&o, 0, "no-default-stopwords")) {
      cfg.o.flags |= FENCI_KW_NO_DEFAULT_STOP;
    } else if (fc_opt_value(&o, 0, "idf")) {
      idf = o.val;
    } else if (fc_opt_flag(&o, 0, "numbers")) {
      cfg.o.flags |= FENCI_KW_NUMBERS;
    } else if (fc_opt_flag(&o, 0, "by-tag")) {
      cfg.o.flags |= FENCI_KW_BY_TAG;
    } else if (fc_opt_value(&o, 0, "window")) {
      if (kw_number("--window", o.val, 2, 1024, &v)) return 2;
      cfg.o.window = (unsigned)v;
    } else if (fc_opt_value(&o, 0, "iterations")) {
      if (kw_number("--iterations", o.val, 1, 1000, &v)) return 2;
      cfg.o.iterations = (unsigned)v;
    } else if (fc_opt_value(&o, 0, "damping")) {
      char *end;
      double x;
      errno = 0;
      x = strtod(o.val, &end);
      if (!*o.val || *end || errno || !(x > 0 && x < 1)) {
        fprintf(stderr, "fenci keywords: --damping needs a number between 0 and 1, not '%s'\n", o.val);
        return 2;
      }
      cfg.o.damping = x;
    } else if (fc_opt_flag(&o, 'w', "weights")) {
      cfg.weights = 1;
    } else if (fc_opt_flag(&o, 0, "json")) {
      cfg.json = 1;
    } else if (fc_opt_flag(&o, 0, "lines")) {
      cfg.lines = 1;
    } else {
      return fc_opt_unknown(&o);
    }
  }
  if (!nfiles) files[nfiles++] = "-";
  m = fc_cli_open_model(model);
  if (!m) return 1;
  if (cfg.o.pos) {
    /* a tag the model lacks matches nothing: say so rather than print nothing */
    const char *p = cfg.o.pos;
    while (*p) {
      size_t n = 0;
      uint16_t id;
      int known = 0;
      while (*p == ',' || *p == ' ') p++;
      while (p[n] && p[n] != ',' && p[n] != ' ') n++;
      for (id = 1; n && !known && fenci_tag_name(m, id)[0]; id++)
        known = strlen(fenci_tag_name(m, id)) == n && !memcmp(fenci_tag_name(m, id), p, n);
      if (n && !known) fprintf(stderr, "fenci keywords: warning: the model has no tag '%.*s'\n", (int)n, p);
      p += n;
    }
  }
  if (nstops || idf) {
    if (fenci_kwdict_new(&d, NULL) != FENCI_OK) {
      fprintf(stderr, "fenci keywords: out of memory\n");
      status = 1;
      goto done;
    }
    for (i = 0; i < nstops; i++)
      if (kw_load(d, stops[i], fenci_kwdict_load_stop)) {
        status = 1;
        goto done;
      }
    if (idf && kw_load(d, idf, fenci_kwdict_load_idf)) {
      status = 1;
      goto done;
    }
    cfg.o.dict = d;
  }
  /* --pos filters on the tags in context where the model has a tagger, and
   * --json prints them; otherwise no tag is read and the tagger (most of
   * the time of a TF-IDF run) is not run */
  need_pos = cfg.json || cfg.o.pos || cfg.o.method == FENCI_KW_TEXTRANK || (cfg.o.flags & FENCI_KW_BY_TAG);
  if (fenci_tagger_new(&t, m, !need_pos ? FENCI_OPT_BARE : fenci_model_has_pos(m) ? FENCI_OPT_POS : 0) != FENCI_OK) {
    fprintf(stderr, "fenci keywords: cannot create a tagger\n");
    status = 1;
    goto done;
  }
  {
    /* options the library refuses (a model without an IDF table) fail once, up front */
    size_t n0;
    fenci_rc rc = fenci_keywords(t, "", 0, &cfg.o, NULL, 0, &n0);
    if (rc != FENCI_OK) {
      fprintf(stderr, "fenci keywords: %s\n", fenci_tagger_errmsg(t)[0] ? fenci_tagger_errmsg(t) : fenci_rc_str(rc));
      status = 1;
      goto done;
    }
  }
  for (i = 0; i < nfiles; i++) {
    const char *name = files[i];
    FILE *f = strcmp(files[i], "-") ? fopen(files[i], "rb") : stdin;
    struct stat st;
    size_t no = 0, len;
    int r;
    if (!f) {
      fprintf(stderr, "fenci keywords: cannot open %s: %s\n", files[i], strerror(errno));
      status = 1;
      continue;
    }
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
      fprintf(stderr, "fenci keywords: %s is a directory\n", files[i]);
      if (f != stdin) fclose(f);
      status = 1;
      continue;
    }
    while ((r = kw_read_doc(f, cfg.lines, &buf, &bufcap, &len)) > 0) {
      no++;
      if (kw_doc(&cfg, t, m, name, no, buf, len, &kw, &kwcap)) {
        status = 1;
        break;
      }
      if (!cfg.lines) break;
    }
    if (r < 0) {
      if (r == -2) fprintf(stderr, "fenci keywords: %s: a document over %d MiB\n", name, KW_MAX_DOC >> 20);
      else if (r == -3) fprintf(stderr, "fenci keywords: out of memory reading %s\n", name);
      else fprintf(stderr, "fenci keywords: error reading %s: %s\n", name, strerror(errno));
      status = 1;
    }
    if (f != stdin) fclose(f);
  }
done:
  free(kw);
  free(buf);
  fenci_tagger_free(t);
  fenci_kwdict_free(d);
  fenci_model_free(m);
  return status;
}
