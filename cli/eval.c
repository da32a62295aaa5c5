/*
 * eval.c - `fenci eval GOLD OUTPUT [--words TRAINING_WORDS] [--json]`
 *
 * Scores a segmented OUTPUT file against a GOLD file the way the SIGHAN 2005
 * bakeoff scorer does: precision, recall, F1 over word spans, and with a
 * training word list the OOV rate, OOV recall and IV recall.
 * The scoring rules live in eval_score.h (shared with the trainer).
 *
 * Both files are read line by line in one pass (linear time, memory bounded
 * by the longest line); the word list goes into an open-addressing hash set.
 */
#include "cli.h"
#include "common.h"
#include "eval_score.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EVAL_MAX_WARN 50 /* per-line mismatch warnings printed before going quiet */

/* ------------------------------------------------------------ word set */

typedef struct wordset {
  char *bytes;     /* all words, back to back */
  size_t nbytes, capbytes;
  uint64_t *slots; /* 0 = empty; else (offset + 1) << 24 | len (len < 2^24) */
  size_t cap;      /* power of two */
  size_t count;
} wordset;

#define WS_MAXLEN ((size_t)1 << 24)

static uint64_t ws_hash(const char *s, size_t n) {
  uint64_t h = 1469598103934665603u; /* FNV-1a 64 */
  for (size_t i = 0; i < n; i++) {
    h ^= (unsigned char)s[i];
    h *= 1099511628211u;
  }
  h ^= h >> 29; /* mix the high bits down for the mask */
  return h;
}

static void ws_free(wordset *ws) {
  free(ws->bytes);
  free(ws->slots);
  memset(ws, 0, sizeof *ws);
}

static const char *ws_word(const wordset *ws, uint64_t slot, size_t *len) {
  *len = (size_t)(slot & (WS_MAXLEN - 1));
  return ws->bytes + (size_t)((slot >> 24) - 1);
}

/* Index of w's slot, or of the empty slot where it belongs. */
static size_t ws_find(const wordset *ws, const char *w, size_t n, uint64_t h) {
  size_t mask = ws->cap - 1, i = (size_t)h & mask;
  for (;;) {
    uint64_t s = ws->slots[i];
    if (s == 0)
      return i;
    size_t len;
    const char *p = ws_word(ws, s, &len);
    if (len == n && memcmp(p, w, n) == 0)
      return i;
    i = (i + 1) & mask;
  }
}

static int ws_grow(wordset *ws) {
  size_t ncap = ws->cap ? ws->cap * 2 : 1024;
  if (ncap < ws->cap || ncap > SIZE_MAX / sizeof(uint64_t))
    return -1;
  uint64_t *ns = calloc(ncap, sizeof *ns);
  if (!ns)
    return -1;
  uint64_t *old = ws->slots;
  size_t ocap = ws->cap;
  ws->slots = ns;
  ws->cap = ncap;
  for (size_t i = 0; i < ocap; i++) {
    if (old[i]) {
      size_t len;
      const char *p = ws_word(ws, old[i], &len);
      ws->slots[ws_find(ws, p, len, ws_hash(p, len))] = old[i];
    }
  }
  free(old);
  return 0;
}

/* Adds a word: 0 ok (or already present), -1 out of memory or too large. */
static int ws_add(wordset *ws, const char *w, size_t n) {
  if (n == 0)
    return 0;
  if (n >= WS_MAXLEN)
    return -1;
  if (ws->count + 1 > ws->cap / 2 && ws_grow(ws) != 0)
    return -1;
  uint64_t h = ws_hash(w, n);
  size_t i = ws_find(ws, w, n, h);
  if (ws->slots[i])
    return 0;
  if (n > SIZE_MAX - ws->nbytes || ws->nbytes + n >= ((size_t)1 << 39))
    return -1; /* offset must fit in 40 bits of the slot */
  if (ws->nbytes + n > ws->capbytes) {
    size_t nc = ws->capbytes ? ws->capbytes : 65536;
    while (nc < ws->nbytes + n) {
      if (nc > SIZE_MAX / 2)
        return -1;
      nc *= 2;
    }
    char *nb = realloc(ws->bytes, nc);
    if (!nb)
      return -1;
    ws->bytes = nb;
    ws->capbytes = nc;
  }
  memcpy(ws->bytes + ws->nbytes, w, n);
  ws->slots[i] = ((uint64_t)ws->nbytes + 1) << 24 | (uint64_t)n;
  ws->nbytes += n;
  ws->count++;
  return 0;
}

static int ws_has(void *ctx, const char *w, size_t n) {
  const wordset *ws = ctx;
  if (ws->cap == 0 || n == 0 || n >= WS_MAXLEN)
    return 0;
  return ws->slots[ws_find(ws, w, n, ws_hash(w, n))] != 0;
}

/* ------------------------------------------------------------ reading */

typedef struct reader {
  const char *path;
  FILE *f;
  char *line;
  size_t cap;
  size_t len;
  uint64_t lineno;
} reader;

static int rd_open(reader *r, const char *path) {
  memset(r, 0, sizeof *r);
  r->path = path;
  if (strcmp(path, "-") == 0) {
    r->f = stdin;
    r->path = "(stdin)";
    return 0;
  }
  r->f = fopen(path, "rb");
  if (!r->f) {
    fprintf(stderr, "fenci eval: cannot open %s: %s\n", path, strerror(errno));
    return -1;
  }
  return 0;
}

static void rd_close(reader *r) {
  if (r->f && r->f != stdin)
    fclose(r->f);
  free(r->line);
  r->f = NULL;
  r->line = NULL;
}

/* Reads the next line (without its newline; a UTF-8 BOM is dropped from the
 * first line).  Returns 1 for a line, 0 at end of file, -1 on error. */
static int rd_next(reader *r) {
  errno = 0;
  ssize_t n = getline(&r->line, &r->cap, r->f);
  if (n < 0) {
    if (feof(r->f) && !ferror(r->f))
      return 0;
    fprintf(stderr, "fenci eval: error reading %s: %s\n", r->path,
            errno ? strerror(errno) : "read error");
    return -1;
  }
  r->len = (size_t)n;
  if (r->len && r->line[r->len - 1] == '\n')
    r->len--;
  if (r->lineno == 0 && r->len >= 3 && memcmp(r->line, "\xEF\xBB\xBF", 3) == 0) {
    memmove(r->line, r->line + 3, r->len - 3);
    r->len -= 3;
  }
  r->lineno++;
  return 1;
}

static int rd_blank(const reader *r) {
  for (size_t i = 0; i < r->len;) {
    size_t k = fc_score_sep_len(r->line, i, r->len);
    if (!k)
      return 0;
    i += k;
  }
  return 1;
}

/* Loads one word a line (trimmed; blank lines skipped). 0 ok, -1 error. */
static int load_words(wordset *ws, const char *path) {
  reader r;
  if (rd_open(&r, path) != 0)
    return -1;
  int rc, ret = 0;
  while ((rc = rd_next(&r)) == 1) {
    size_t b = 0, e = r.len, k;
    while (b < e && (k = fc_score_sep_len(r.line, b, e)) != 0)
      b += k;
    while (e > b) {
      if (fc_score_sep_len(r.line, e - 1, r.len) == 1)
        e--;
      else if (e - b >= 3 && fc_score_sep_len(r.line, e - 3, r.len) == 3)
        e -= 3;
      else
        break;
    }
    if (ws_add(ws, r.line + b, e - b) != 0) {
      fprintf(stderr, "fenci eval: out of memory loading %s\n", path);
      ret = -1;
      break;
    }
  }
  if (rc < 0)
    ret = -1;
  rd_close(&r);
  return ret;
}

/* Splits text into *words (grown as needed).  Returns 0 or -1. */
static int split_text(const char *text, size_t len, fc_score_word **words, size_t *cap, size_t *count) {
  size_t n = fc_score_split(text, len, *words, *cap);
  if (n > *cap) {
    size_t nc = *cap ? *cap : 64;
    while (nc < n) {
      if (nc > SIZE_MAX / 2 / sizeof **words)
        return -1;
      nc *= 2;
    }
    fc_score_word *nw = realloc(*words, nc * sizeof **words);
    if (!nw)
      return -1;
    *words = nw;
    *cap = nc;
    n = fc_score_split(text, len, *words, *cap);
  }
  *count = n;
  return 0;
}

static int split_line(const reader *r, fc_score_word **words, size_t *cap, size_t *count) {
  return split_text(r->line, r->len, words, cap, count);
}

/* A block of lines joined with spaces, used to re-align gold and output
 * when a character moved between neighbouring lines (the MSR gold has 16
 * such lines: quotes moved).  The SIGHAN scorer aligns whole files, so line
 * breaks do not matter to it; joining lines until both sides hold the same
 * characters gives the same counts. */
typedef struct block {
  char *s;
  size_t len, cap;
} block;

static int block_add(block *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t nc = b->cap ? b->cap : 4096;
    char *p;
    while (nc < b->len + n + 1) nc *= 2;
    p = realloc(b->s, nc);
    if (!p) return -1;
    b->s = p;
    b->cap = nc;
  }
  if (b->len) b->s[b->len++] = ' ';
  memcpy(b->s + b->len, s, n);
  b->len += n;
  return 0;
}

#define EVAL_MAX_JOIN 8 /* lines joined at most while re-aligning */

/* ------------------------------------------------------------ output */

static void print_text(const fc_score *sc, int have_words) {
  printf("P %.4f  R %.4f  F1 %.4f", fc_score_precision(sc), fc_score_recall(sc),
         fc_score_f1(sc));
  if (have_words)
    printf("  OOV-rate %.4f  OOV-recall %.4f  IV-recall %.4f", fc_score_oov_rate(sc),
           fc_score_oov_recall(sc), fc_score_iv_recall(sc));
  else
    printf("  OOV-rate n/a  OOV-recall n/a  IV-recall n/a");
  printf("\nwords gold %" PRIu64 " test %" PRIu64 " correct %" PRIu64, sc->gold, sc->test,
         sc->correct);
  if (have_words)
    printf("  oov %" PRIu64 " oov-correct %" PRIu64, sc->gold_oov, sc->correct_oov);
  printf("  lines %" PRIu64 " mismatched %" PRIu64 "\n", sc->lines, sc->mismatched);
}

static void print_json(const fc_score *sc, int have_words) {
  printf("{\"precision\":%.6f,\"recall\":%.6f,\"f1\":%.6f", fc_score_precision(sc),
         fc_score_recall(sc), fc_score_f1(sc));
  if (have_words)
    printf(",\"oov_rate\":%.6f,\"oov_recall\":%.6f,\"iv_recall\":%.6f", fc_score_oov_rate(sc),
           fc_score_oov_recall(sc), fc_score_iv_recall(sc));
  else
    printf(",\"oov_rate\":null,\"oov_recall\":null,\"iv_recall\":null");
  printf(",\"gold_words\":%" PRIu64 ",\"test_words\":%" PRIu64 ",\"correct\":%" PRIu64, sc->gold,
         sc->test, sc->correct);
  if (have_words)
    printf(",\"gold_oov\":%" PRIu64 ",\"correct_oov\":%" PRIu64 ",\"gold_iv\":%" PRIu64
           ",\"correct_iv\":%" PRIu64,
           sc->gold_oov, sc->correct_oov, sc->gold_iv, sc->correct_iv);
  else
    printf(",\"gold_oov\":null,\"correct_oov\":null,\"gold_iv\":null,\"correct_iv\":null");
  printf(",\"lines\":%" PRIu64 ",\"mismatched_lines\":%" PRIu64 "}\n", sc->lines,
         sc->mismatched);
}

static void usage(FILE *out) {
  fputs("usage: fenci eval GOLD OUTPUT [--words TRAINING_WORDS] [--json]\n"
        "\n"
        "Scores a segmented OUTPUT against GOLD (SIGHAN 2005 bakeoff rules).\n"
        "Both files: UTF-8, one sentence a line, words separated by whitespace\n"
        "(ASCII spaces/tabs or U+3000); CRLF line ends and a BOM are accepted.\n"
        "Either file may be '-' for standard input.\n"
        "\n"
        "  --words FILE  training word list, one word a line: adds OOV rate,\n"
        "                OOV recall and IV recall\n"
        "  --json        print one JSON object instead of text\n"
        "  -h, --help    print this help\n"
        "\n"
        "A word is correct when its start and end match a gold word.  A line whose\n"
        "characters differ from the gold line is warned about on stderr and counted\n"
        "as all gold words missed, all output words wrong.  Different line counts\n"
        "(ignoring trailing blank lines) are an error (exit 1).\n"
        "Exit status: 0 ok, 1 error, 2 bad arguments.\n",
        out);
}

/* ------------------------------------------------------------ command */

int fc_cmd_eval(int argc, char **argv) {
  const char *paths[2] = {NULL, NULL};
  const char *words_path = NULL;
  int npos = 0, json = 0;
  fc_opts o;

  fc_opts_init(&o, "eval", argc, argv);
  while (fc_opts_next(&o)) {
    if (!o.is_opt) {
      if (npos >= 2) {
        fprintf(stderr, "fenci eval: too many arguments (try fenci eval --help)\n");
        return 2;
      }
      paths[npos++] = o.arg;
    } else if (fc_opt_flag(&o, 'h', "help")) {
      usage(stdout);
      return 0;
    } else if (fc_opt_flag(&o, 0, "json")) {
      json = 1;
    } else if (fc_opt_value(&o, 0, "words")) {
      words_path = o.val;
    } else {
      return fc_opt_unknown(&o);
    }
  }
  if (npos != 2) {
    fprintf(stderr, "usage: fenci eval GOLD OUTPUT [--words TRAINING_WORDS] [--json]\n");
    return 2;
  }
  if (words_path && words_path[0] == '\0') {
    fprintf(stderr, "fenci eval: --words needs a file\n");
    return 2;
  }
  if (strcmp(paths[0], "-") == 0 && strcmp(paths[1], "-") == 0) {
    fprintf(stderr, "fenci eval: only one of GOLD and OUTPUT can be '-'\n");
    return 2;
  }
  if (words_path && strcmp(words_path, "-") == 0 &&
      (strcmp(paths[0], "-") == 0 || strcmp(paths[1], "-") == 0)) {
    fprintf(stderr, "fenci eval: standard input can be used only once\n");
    return 2;
  }

  int ret = 1;
  wordset ws;
  memset(&ws, 0, sizeof ws);
  reader g, t;
  int g_open = 0, t_open = 0;
  fc_score_word *gw = NULL, *tw = NULL;
  size_t gcap = 0, tcap = 0;
  block gb = {NULL, 0, 0}, tb = {NULL, 0, 0};
  fc_score_word *bw = NULL, *bw2 = NULL;
  size_t bcap = 0, bcap2 = 0;
  int joined = 0;                            /* lines in the current block */
  uint64_t first_line = 0, realigned = 0;
  fc_score sc;
  memset(&sc, 0, sizeof sc);

  if (words_path && load_words(&ws, words_path) != 0)
    goto done;
  if (rd_open(&g, paths[0]) != 0)
    goto done;
  g_open = 1;
  if (rd_open(&t, paths[1]) != 0)
    goto done;
  t_open = 1;

  for (;;) {
    int rg = rd_next(&g);
    if (rg < 0)
      goto done;
    int rt = rd_next(&t);
    if (rt < 0)
      goto done;
    if (rg == 0 || rt == 0) {
      /* One or both ended: the rest of the other must be blank lines. */
      reader *rest = rg ? &g : rt ? &t : NULL;
      if (rest) {
        int r = 1;
        while (r == 1 && rd_blank(rest))
          r = rd_next(rest);
        if (r < 0)
          goto done;
        if (r == 1) {
          reader *shorter = rest == &g ? &t : &g;
          fprintf(stderr,
                  "fenci eval: different line counts: %s ends after line %" PRIu64
                  " but %s has text on line %" PRIu64 "\n",
                  shorter->path, shorter->lineno, rest->path, rest->lineno);
          goto done;
        }
      }
      break;
    }
    size_t ng, nt;
    if (split_line(&g, &gw, &gcap, &ng) != 0 || split_line(&t, &tw, &tcap, &nt) != 0) {
      fprintf(stderr, "fenci eval: out of memory\n");
      goto done;
    }
    if (fc_score_same_text(gw, ng, tw, nt)) {
      if (joined) {
        /* a line that agrees on its own ends the block: the block's
         * difference is not a character moved to this line */
        size_t bg, bt;
        if (split_text(gb.s, gb.len, &bw, &bcap, &bg) != 0 || split_text(tb.s, tb.len, &bw2, &bcap2, &bt) != 0) {
          fprintf(stderr, "fenci eval: out of memory\n");
          goto done;
        }
        fc_score_line(&sc, bw, bg, bw2, bt, words_path ? ws_has : NULL, &ws);
        sc.lines += (uint64_t)joined - 1;
        if (sc.mismatched <= EVAL_MAX_WARN)
          fprintf(stderr, "fenci eval: line %" PRIu64 "%s: characters differ from the gold; counted as all wrong\n",
                  first_line, joined > 1 ? " and following" : "");
        joined = 0;
        gb.len = tb.len = 0;
      }
      fc_score_line(&sc, gw, ng, tw, nt, words_path ? ws_has : NULL, &ws);
      continue;
    }
    /* characters differ: join lines until both sides agree again */
    if (block_add(&gb, g.line, g.len) != 0 || block_add(&tb, t.line, t.len) != 0) {
      fprintf(stderr, "fenci eval: out of memory\n");
      goto done;
    }
    if (!joined) first_line = g.lineno;
    joined++;
    if (split_text(gb.s, gb.len, &gw, &gcap, &ng) != 0 || split_text(tb.s, tb.len, &tw, &tcap, &nt) != 0) {
      fprintf(stderr, "fenci eval: out of memory\n");
      goto done;
    }
    if (fc_score_same_text(gw, ng, tw, nt) || joined == EVAL_MAX_JOIN) {
      int bad = fc_score_line(&sc, gw, ng, tw, nt, words_path ? ws_has : NULL, &ws) != 0;
      sc.lines += (uint64_t)joined - 1;
      if (bad) {
        if (sc.mismatched <= EVAL_MAX_WARN)
          fprintf(stderr, "fenci eval: line %" PRIu64 " (to %" PRIu64 "): characters differ from the gold; counted as all wrong\n",
                  first_line, g.lineno);
        if (sc.mismatched == EVAL_MAX_WARN) fprintf(stderr, "fenci eval: (further mismatch warnings suppressed)\n");
      } else {
        realigned += (uint64_t)joined;
      }
      joined = 0;
      gb.len = tb.len = 0;
    }
  }
  if (joined) {
    /* the file ended inside a block that never re-aligned */
    size_t ng, nt;
    if (split_text(gb.s, gb.len, &gw, &gcap, &ng) != 0 || split_text(tb.s, tb.len, &tw, &tcap, &nt) != 0) {
      fprintf(stderr, "fenci eval: out of memory\n");
      goto done;
    }
    if (fc_score_line(&sc, gw, ng, tw, nt, words_path ? ws_has : NULL, &ws) != 0)
      fprintf(stderr, "fenci eval: line %" PRIu64 " (to %" PRIu64 "): characters differ from the gold; counted as all wrong\n",
              first_line, g.lineno);
    sc.lines += (uint64_t)joined - 1;
  }
  if (realigned > 0)
    fprintf(stderr, "fenci eval: %" PRIu64 " lines whose characters moved to a neighbouring line were scored jointly\n",
            realigned);
  if (sc.mismatched > 0)
    fprintf(stderr, "fenci eval: %" PRIu64 " of %" PRIu64 " lines mismatched\n", sc.mismatched,
            sc.lines);

  if (json)
    print_json(&sc, words_path != NULL);
  else
    print_text(&sc, words_path != NULL);
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "fenci eval: error writing output\n");
    goto done;
  }
  ret = 0;

done:
  if (g_open)
    rd_close(&g);
  if (t_open)
    rd_close(&t);
  free(gw);
  free(tw);
  free(gb.s);
  free(tb.s);
  free(bw);
  free(bw2);
  ws_free(&ws);
  return ret;
}
