/* tag.c - `fenci tag --words`: part-of-speech tags for text that is already
 * cut into words (one sentence a line, words separated by spaces or tabs),
 * for evaluation with gold words and for pipelines that segment elsewhere.
 * `fenci tag` without --words is `fenci cut` with tags (cut.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common.h"
#include "fenci.h"

static void tag_usage(FILE *f) {
  fprintf(f,
          "usage: fenci tag [options] [FILE...]\n"
          "Segments each FILE (or stdin) like fenci cut and writes word/tag, the part of\n"
          "speech of each word in context (PKU tag set of People's Daily 1998; w for\n"
          "punctuation, m for numbers, nx for Latin words, URLs and e-mail addresses).\n"
          "Takes the options of fenci cut (-m, -j, -f json adds \"tag\", -d, -u, -q).\n"
          "  --words   the input is already cut into words, separated by spaces or tabs:\n"
          "            tag exactly those words (one output line per input line)\n");
}

static int tag_is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

int fc_cmd_tag_words(int argc, char **argv) {
  const char *model = NULL, *files[256];
  int nfiles = 0, json = 0, status = 0, i;
  fenci_model *m;
  fenci_tagger *t = NULL;
  const char **words = NULL;
  size_t *lens = NULL, cap = 0;
  uint16_t *tags = NULL;
  char *line = NULL;
  size_t lcap = 0;
  fc_opts o;
  fc_opts_init(&o, "tag", argc, argv);
  while (fc_opts_next(&o)) {
    if (!o.is_opt) {
      if (nfiles == 256) {
        fprintf(stderr, "fenci tag: too many files\n");
        return 2;
      }
      files[nfiles++] = o.arg;
    } else if (fc_opt_flag(&o, 'h', "help")) {
      tag_usage(stdout);
      return 0;
    } else if (fc_opt_flag(&o, 0, "words")) {
    } else if (fc_opt_value(&o, 'm', "model")) {
      model = o.val;
    } else if (fc_opt_value(&o, 'f', "format")) {
      if (!strcmp(o.val, "json")) json = 1;
      else if (!strcmp(o.val, "text")) json = 0;
      else {
        fprintf(stderr, "fenci tag: unknown format '%s' (text or json)\n", o.val);
        return 2;
      }
    } else if (fc_opt_value(&o, 'j', "jobs")) {
      /* accepted for symmetry with fenci tag; --words runs on one thread */
    } else if (fc_opt_flag(&o, 'q', "quiet")) {
    } else {
      return fc_opt_unknown(&o);
    }
  }
  if (!nfiles) files[nfiles++] = "-";
  m = fc_cli_open_model(model);
  if (!m) return 1;
  if (!fenci_model_has_pos(m)) {
    fprintf(stderr, "fenci tag: the model has no part-of-speech tagger (its lexicon file has no POSM section)\n");
    fenci_model_free(m);
    return 1;
  }
  if (fenci_tagger_new(&t, m, 0) != FENCI_OK) {
    fprintf(stderr, "fenci tag: out of memory\n");
    fenci_model_free(m);
    return 1;
  }
  for (i = 0; i < nfiles && status < 2; i++) {
    FILE *f = strcmp(files[i], "-") ? fopen(files[i], "rb") : stdin;
    ssize_t got;
    if (!f) {
      fprintf(stderr, "fenci tag: cannot open %s: %s\n", files[i], strerror(errno));
      status = 1;
      continue;
    }
    while (status < 2 && (got = getline(&line, &lcap, f)) >= 0) {
      size_t n = (size_t)got, p = 0, nw = 0, k;
      if (n && line[n - 1] == '\n') n--;
      while (p < n) {
        size_t s;
        while (p < n && tag_is_space(line[p])) p++;
        if (p >= n) break;
        s = p;
        while (p < n && !tag_is_space(line[p])) p++;
        if (nw == cap) {
          size_t nc = cap ? cap * 2 : 256;
          const char **w2 = realloc(words, nc * sizeof *w2);
          size_t *l2 = w2 ? realloc(lens, nc * sizeof *l2) : NULL;
          uint16_t *t2 = l2 ? realloc(tags, nc * sizeof *t2) : NULL;
          if (w2) words = w2;
          if (l2) lens = l2;
          if (!t2) {
            fprintf(stderr, "fenci tag: out of memory\n");
            status = 2;
            break;
          }
          tags = t2;
          cap = nc;
        }
        words[nw] = line + s;
        lens[nw++] = p - s;
      }
      if (status >= 2) break;
      if (fenci_tag_words(t, words, lens, nw, tags) != FENCI_OK) {
        fprintf(stderr, "fenci tag: %s\n", fenci_tagger_errmsg(t));
        status = 2;
        break;
      }
      if (json) fputs("[", stdout);
      for (k = 0; k < nw; k++) {
        const char *tg = tags[k] ? fenci_tag_name(m, tags[k]) : "x";
        if (json) {
          size_t q;
          fputs(k ? ",{\"w\":\"" : "{\"w\":\"", stdout);
          for (q = 0; q < lens[k]; q++) {
            unsigned char c = (unsigned char)words[k][q];
            if (c == '"' || c == '\\') printf("\\%c", c);
            else if (c < 0x20) printf("\\u%04x", c);
            else putchar(c);
          }
          printf("\",\"tag\":\"%s\"}", tg);
        } else {
          if (k) putchar(' ');
          fwrite(words[k], 1, lens[k], stdout);
          printf("/%s", tg);
        }
      }
      fputs(json ? "]\n" : "\n", stdout);
      if (ferror(stdout)) {
        fprintf(stderr, "fenci tag: write error: %s\n", strerror(errno));
        status = 2;
      }
    }
    if (f != stdin) fclose(f);
  }
  if (status < 2 && fflush(stdout) != 0) {
    fprintf(stderr, "fenci tag: write error: %s\n", strerror(errno));
    status = 2;
  }
  free(line);
  free(words);
  free(lens);
  free(tags);
  fenci_tagger_free(t);
  fenci_model_free(m);
  return status ? 1 : 0;
}
