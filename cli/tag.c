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
          "punctuation and other symbols, m for numbers, nx for Latin words, URLs and\n"
          "e-mail addresses).\n"
          "Takes the options of fenci cut (-m, -j, -f json adds \"tag\", -d, -u, -q).\n"
          "  --words   the input is already cut into words, separated by spaces or tabs:\n"
          "            tag exactly those words (one output line per input line)\n");
}

static int tag_is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* A line is read a block at a time and its words are tagged TW_WINDOW at
 * a time, or sooner once TW_BYTES of them are pending, each window with
 * TW_CTX words of context on either side (as the library decodes its
 * pieces), so memory is bounded whatever the line length (words of 64 KB
 * each once filled 4,128 x 64 KB before a window was tagged); a "word"
 * longer than TW_WORD_MAX bytes is taken in pieces of that size (cut
 * before a character). */
#define TW_WINDOW 4096
#define TW_CTX 32
#define TW_WORD_MAX 65536
#define TW_BYTES (4u << 20)
#define TW_CTX_BYTES 4096

typedef struct tw_state {
  fenci_tagger *t;
  const fenci_model *m;
  int json;
  char *bytes;        /* the pending words' bytes */
  size_t nbytes, bcap;
  size_t *off, *len;  /* per word: offset into bytes and length */
  const char **ptr;
  uint16_t *tags;
  size_t nw, wcap;    /* words pending, the first nleft of them already written (context) */
  size_t nleft;
  size_t written;     /* words written on the line so far */
  size_t cur;         /* bytes of the word being read (at the end of bytes), 0: between words */
  int fail;           /* 1: out of memory, 2: tagger error (message in t) */
} tw_state;

static int tw_byte(tw_state *w, char c) {
  if (w->nbytes == w->bcap) {
    size_t nc = w->bcap ? w->bcap * 2 : 65536;
    char *b = realloc(w->bytes, nc);
    if (!b) return w->fail = 1;
    w->bytes = b;
    w->bcap = nc;
  }
  w->bytes[w->nbytes++] = c;
  w->cur++;
  return 0;
}

static void tw_put(void *ctx, const char *s, size_t n) {
  (void)ctx;
  fwrite(s, 1, n, stdout);
}

/* Tags the pending words and writes words [nleft, upto). */
static int tw_tag(tw_state *w, size_t upto) {
  size_t k;
  for (k = 0; k < w->nw; k++) w->ptr[k] = w->bytes + w->off[k];
  if (fenci_tag_words(w->t, w->ptr, w->len, w->nw, w->tags) != FENCI_OK) return w->fail = 2;
  for (k = w->nleft; k < upto; k++) {
    const char *tg = w->tags[k] ? fenci_tag_name(w->m, w->tags[k]) : "x";
    if (w->json) {
      fputs(w->written ? ",{\"w\":\"" : "{\"w\":\"", stdout);
      fc_cli_json_body(w->ptr[k], w->len[k], tw_put, NULL);
      printf("\",\"tag\":\"%s\"}", tg);
    } else {
      if (w->written) putchar(' ');
      fwrite(w->ptr[k], 1, w->len[k], stdout);
      printf("/%s", tg);
    }
    w->written++;
  }
  return 0;
}

/* The context words that end at word e: up to TW_CTX of them, back to
 * word lo at most, with at most TW_CTX_BYTES of bytes (as the library's
 * chunks take theirs), so a window of huge words re-tags little. */
static size_t tw_ctx(const tw_state *w, size_t e, size_t lo) {
  size_t r = 0, b = 0;
  while (r < TW_CTX && e - r > lo && b + w->len[e - r - 1] <= TW_CTX_BYTES) b += w->len[e - ++r];
  return r;
}

/* Ends the word being read; a full window is tagged and written, and its
 * last words kept as the next window's left context, with the words not
 * written yet. */
static int tw_end_word(tw_state *w) {
  if (!w->cur) return 0;
  if (w->nw == w->wcap) {
    size_t nc = w->wcap ? w->wcap * 2 : 256;
    size_t *o = realloc(w->off, nc * sizeof *o), *l = o ? realloc(w->len, nc * sizeof *l) : NULL;
    const char **p = l ? realloc((void *)w->ptr, nc * sizeof *p) : NULL;
    uint16_t *tg = p ? realloc(w->tags, nc * sizeof *tg) : NULL;
    if (o) w->off = o;
    if (l) w->len = l;
    if (p) w->ptr = p;
    if (!tg) return w->fail = 1;
    w->tags = tg;
    w->wcap = nc;
  }
  w->off[w->nw] = w->nbytes - w->cur;
  w->len[w->nw++] = w->cur;
  w->cur = 0;
  if (w->nw - w->nleft >= TW_WINDOW + TW_CTX || w->nbytes >= TW_BYTES) {
    size_t r = tw_ctx(w, w->nw, w->nleft), upto = w->nw - r, l, keep, k, base;
    if (upto <= w->nleft) return 0; /* nothing to write yet: one word is the context */
    if (tw_tag(w, upto)) return w->fail;
    l = tw_ctx(w, upto, 0);
    keep = upto - l;
    base = keep < w->nw ? w->off[keep] : w->nbytes; /* every word written and none kept as context */
    memmove(w->bytes, w->bytes + base, w->nbytes - base);
    w->nbytes -= base;
    for (k = keep; k < w->nw; k++) {
      w->off[k - keep] = w->off[k] - base;
      w->len[k - keep] = w->len[k];
    }
    w->nw -= keep;
    w->nleft = l;
  }
  return 0;
}

/* Ends a line: its last words, then the line end. */
static int tw_end_line(tw_state *w) {
  if (tw_end_word(w) || tw_tag(w, w->nw)) return w->fail;
  fputs(w->json ? "]\n" : "\n", stdout);
  w->nw = w->nleft = w->written = w->nbytes = 0;
  return 0;
}

int fc_cmd_tag_words(int argc, char **argv) {
  const char *model = NULL, *files[256];
  int nfiles = 0, json = 0, status = 0, i;
  fenci_model *m;
  fenci_tagger *t = NULL;
  tw_state tw;
  static char rb[65536];
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
      int jobs; /* checked as fenci tag checks it; --words runs on one thread */
      if (!fc_opt_jobs(&o, &jobs)) return 2;
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
  memset(&tw, 0, sizeof tw);
  tw.t = t;
  tw.m = m;
  tw.json = json;
  for (i = 0; i < nfiles && status < 2; i++) {
    FILE *f = strcmp(files[i], "-") ? fopen(files[i], "rb") : stdin;
    size_t got, k;
    int open = 0; /* a line has begun */
    if (!f) {
      fprintf(stderr, "fenci tag: cannot open %s: %s\n", files[i], strerror(errno));
      status = 1;
      continue;
    }
    while (status < 2 && (got = fread(rb, 1, sizeof rb, f)) > 0) {
      for (k = 0; k < got && !tw.fail; k++) {
        char c = rb[k];
        if (!open) {
          if (json) fputs("[", stdout);
          open = 1;
        }
        if (c == '\n') {
          tw_end_line(&tw);
          open = 0;
        } else if (tag_is_space(c)) {
          tw_end_word(&tw);
        } else {
          /* a word of TW_WORD_MAX bytes ends before its next character */
          if (tw.cur >= TW_WORD_MAX && ((unsigned char)c & 0xC0) != 0x80) tw_end_word(&tw);
          tw_byte(&tw, c);
        }
      }
      if (tw.fail) break;
    }
    if (!tw.fail && ferror(f)) {
      /* reported and skipped, as a file that does not open: what was read
       * before is tagged, and the next files still are */
      fprintf(stderr, "fenci tag: %s: read error: %s\n", files[i], strerror(errno));
      if (status < 1) status = 1;
    }
    if (!tw.fail && open && status < 2) tw_end_line(&tw); /* a last line without its newline */
    if (tw.fail) {
      fprintf(stderr, "fenci tag: %s\n", tw.fail == 1 ? "out of memory" : fenci_tagger_errmsg(t));
      status = 2;
    }
    if (status < 2 && ferror(stdout)) {
      fprintf(stderr, "fenci tag: write error: %s\n", strerror(errno));
      status = 2;
    }
    if (f != stdin) fclose(f);
  }
  if (status < 2 && fflush(stdout) != 0) {
    fprintf(stderr, "fenci tag: write error: %s\n", strerror(errno));
    status = 2;
  }
  free(tw.bytes);
  free(tw.off);
  free(tw.len);
  free((void *)tw.ptr);
  free(tw.tags);
  fenci_tagger_free(t);
  fenci_model_free(m);
  return status ? 1 : 0;
}
