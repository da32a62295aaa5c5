/* fuzz_fts5.c - libFuzzer harness: the FTS5 tokenizer of sqlite/fenci_fts5.c
 * on arbitrary bytes and flags, called as FTS5 calls it (xCreate, xTokenize,
 * xDelete) without an SQLite library: the extension's source is compiled in
 * and its sqlite3_api table points at malloc, realloc, free and a silent log.
 *
 * Byte 0: bits 0-1 the FTS5 flags (document, query, prefix query, aux);
 * bits 2-4 the tokenizer instance (modulo the number made at start-up: the
 * mini lexicon in search, all and default mode, with fold none, with stop
 * words; the trained models/ctb.fenci (or $FENCI_FUZZ_MODEL) in search
 * mode and fast search mode, when present); bit 5 set: the text is an
 * option string instead, parsed as a tokenize= value (model, modeldir and
 * stopwords are dropped: they would open arbitrary files) and the tokenizer
 * made from it, when it is valid, tokenizes the test sentences.
 * Byte 1: xToken fails at this token (0: never), and xTokenize must then
 * return its code.  The rest is the text.
 * Every token is checked: offsets inside the text, a first token never
 * colocated, main tokens in order without overlap, a colocated token
 * overlapping the main token it shares a position with, the token's bytes whole UTF-8
 * characters (invalid bytes, punctuation, whitespace and control characters
 * are never indexed), its text the folded form of those bytes, and no
 * colocated token in a query. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../sqlite/fenci_fts5.c"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static sqlite3_api_routines fz_api;
static ft_tok *fz_tok[8];
static size_t fz_ntok;
static char fz_mini_path[64] = "", fz_stop_path[64] = "", fz_trained_path[4096] = "";
static int fz_ready;

static void *fz_malloc64(sqlite3_uint64 n) { return malloc(n ? (size_t)n : 1); }
static void *fz_realloc64(void *p, sqlite3_uint64 n) { return realloc(p, n ? (size_t)n : 1); }
static void fz_free(void *p) { free(p); }
static void fz_log(int rc, const char *fmt, ...) {
  (void)rc;
  (void)fmt;
}

/* Writes len bytes to build-fuzz/fuzz_fts5-TAG (through a temporary file
 * and a rename: parallel jobs may write it at once, and a mapped old file
 * stays valid); its path into path.  Outside the repo root (no build-fuzz/)
 * the file goes to /tmp and is removed at exit. */
static int fz_in_tmp;

static void fz_cleanup(void) {
  if (fz_in_tmp && fz_mini_path[0]) unlink(fz_mini_path);
  if (fz_in_tmp && fz_stop_path[0]) unlink(fz_stop_path);
}

static void fz_write_file(char *path, size_t cap, const char *tag, const void *buf, size_t len) {
  char tmp[128];
  int fd;
  snprintf(tmp, sizeof tmp, "build-fuzz/fuzz_fts5-%s.XXXXXX", tag);
  fd = mkstemp(tmp);
  if (fd < 0) {
    fz_in_tmp = 1;
    snprintf(tmp, sizeof tmp, "/tmp/fuzz_fts5_%s_XXXXXX", tag);
    fd = mkstemp(tmp);
    if (fd < 0 || write(fd, buf, len) != (ssize_t)len) abort();
    close(fd);
    snprintf(path, cap, "%s", tmp);
    return;
  }
  if (write(fd, buf, len) != (ssize_t)len) abort();
  close(fd);
  snprintf(path, cap, "build-fuzz/fuzz_fts5-%s", tag);
  if (rename(tmp, path) != 0) abort();
}

static void fz_make(const char **argv, int argc) {
  Fts5Tokenizer *t = NULL;
  if (fz_ntok == sizeof fz_tok / sizeof fz_tok[0]) return;
  if (ft_create(NULL, argv, argc, &t) != SQLITE_OK || !t) {
    fprintf(stderr, "fuzz_fts5: xCreate failed: %s\n", ft_last_error);
    abort();
  }
  fz_tok[fz_ntok++] = (ft_tok *)t;
}

static void fz_init(void) {
  void *img = NULL;
  fenci_model *m;
  size_t len = 0;
  char err[256];
  const char *env = getenv("FENCI_FUZZ_MODEL");
  static const char stop[] = "的\n了\nTHE\n北京\n";
  fz_api.malloc64 = fz_malloc64;
  fz_api.realloc64 = fz_realloc64;
  fz_api.free = fz_free;
  fz_api.log = fz_log;
  sqlite3_api = &fz_api;
  if (fenci_lexicon_compile(fz_mini_lexicon, sizeof fz_mini_lexicon - 1, &img, &len, NULL, err, sizeof err) !=
      FENCI_OK)
    abort();
  fz_write_file(fz_mini_path, sizeof fz_mini_path, "mini.fenci", img, len);
  fenci_free(NULL, img);
  fz_write_file(fz_stop_path, sizeof fz_stop_path, "stop.txt", stop, sizeof stop - 1);
  {
    const char *a0[] = {"model", fz_mini_path};
    const char *a1[] = {"model", fz_mini_path, "mode", "all"};
    const char *a2[] = {"model", fz_mini_path, "mode", "default", "parts", "0"};
    const char *a3[] = {"model", fz_mini_path, "fold", "none"};
    const char *a4[] = {"model", fz_mini_path, "stopwords", fz_stop_path, "fold", "case,t2s"};
    fz_make(a0, 2);
    fz_make(a1, 4);
    fz_make(a2, 6);
    fz_make(a3, 4);
    fz_make(a4, 6);
  }
  snprintf(fz_trained_path, sizeof fz_trained_path, "%s", env && *env ? env : "models/ctb.fenci");
  m = NULL;
  if (fenci_model_open(&m, fz_trained_path, NULL, NULL, 0) == FENCI_OK && fenci_model_has_weights(m)) {
    const char *a5[] = {"model", fz_trained_path};
    const char *a6[] = {"model", fz_trained_path, "fast", "1"};
    fprintf(stderr, "fuzz_fts5: trained model %s\n", fz_trained_path);
    fz_make(a5, 2);
    fz_make(a6, 4);
  }
  fenci_model_free(m);
  atexit(fz_cleanup);
  fz_ready = 1;
}

typedef struct fz_run {
  const ft_tok *t;
  const char *text;
  int len, flags;
  int n;          /* tokens seen */
  int fail_at;    /* return an error at this token (0: never) */
  int main_start, main_end;
  char *fold;     /* scratch for the expected folded text */
  size_t fold_cap;
} fz_run;

static int fz_valid_utf8(const unsigned char *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    unsigned c = s[i];
    size_t k = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0,
           j;
    if (!k || i + k > n) return 0;
    for (j = 1; j < k; j++)
      if ((s[i + j] & 0xC0) != 0x80) return 0;
    if (k == 3 && ((c == 0xE0 && s[i + 1] < 0xA0) || (c == 0xED && s[i + 1] >= 0xA0))) return 0;
    if (k == 4 && ((c == 0xF0 && s[i + 1] < 0x90) || (c == 0xF4 && s[i + 1] >= 0x90))) return 0;
    i += k;
  }
  return 1;
}

static void fz_fail(const fz_run *r, int start, int end, const char *why) {
  fprintf(stderr, "fuzz_fts5: flags %d, token %d at %d-%d of %d bytes: %s\n", r->flags, r->n, start, end, r->len,
          why);
  abort();
}

static int fz_xtoken(void *ctx, int tflags, const char *tok, int ntok, int start, int end) {
  fz_run *r = ctx;
  size_t want = 0;
  int colo = (tflags & FTS5_TOKEN_COLOCATED) != 0;
  if (tflags & ~FTS5_TOKEN_COLOCATED) fz_fail(r, start, end, "unknown token flags");
  if (start < 0 || end > r->len || start >= end) fz_fail(r, start, end, "offsets outside the text");
  if (!tok || ntok <= 0) fz_fail(r, start, end, "empty token text");
  if (colo && r->n == 0) fz_fail(r, start, end, "the first token is colocated");
  if (colo && (r->flags & FTS5_TOKENIZE_QUERY)) fz_fail(r, start, end, "a colocated token in a query");
  /* a colocated token overlaps its main token: a word inside it, a word
   * starting in it (all mode), a cross word over it, a part of it, or a
   * signed number (-4 over 4) */
  if (colo && (start >= r->main_end || end <= r->main_start))
    fz_fail(r, start, end, "a colocated token apart from its main token");
  if (!colo && start < r->main_end) fz_fail(r, start, end, "main tokens overlap or go backwards");
  if (!fz_valid_utf8((const unsigned char *)r->text + start, (size_t)(end - start)))
    fz_fail(r, start, end, "the token's bytes are not whole UTF-8 characters");
  if ((size_t)(end - start) * 2 > r->fold_cap) {
    r->fold_cap = (size_t)(end - start) * 2 + 16;
    r->fold = realloc(r->fold, r->fold_cap);
    if (!r->fold) abort();
  }
  if (fenci_fold(r->text + start, (size_t)(end - start), r->t->fold, r->fold, r->fold_cap, &want) != FENCI_OK)
    fz_fail(r, start, end, "fenci_fold failed");
  if (want != (size_t)ntok || memcmp(r->fold, tok, want) != 0) fz_fail(r, start, end, "the text is not the folded bytes");
  if (!colo) {
    r->main_start = start;
    r->main_end = end;
  }
  r->n++;
  if (r->fail_at && r->n == r->fail_at) return SQLITE_ABORT;
  return SQLITE_OK;
}

static void fz_tokenize(ft_tok *t, int flags, const char *text, int len, int fail_at) {
  static const int fl[4] = {FTS5_TOKENIZE_DOCUMENT, FTS5_TOKENIZE_QUERY, FTS5_TOKENIZE_QUERY | FTS5_TOKENIZE_PREFIX,
                            FTS5_TOKENIZE_AUX};
  fz_run r;
  int rc;
  memset(&r, 0, sizeof r);
  r.t = t;
  r.text = text;
  r.len = len;
  r.flags = fl[flags & 3];
  r.fail_at = fail_at;
  rc = ft_tokenize((Fts5Tokenizer *)t, &r, r.flags, text, len, fz_xtoken);
  if (fail_at && r.n >= fail_at) {
    if (rc != SQLITE_ABORT) {
      fprintf(stderr, "fuzz_fts5: xToken failed, xTokenize returned %d\n", rc);
      abort();
    }
  } else if (rc != SQLITE_OK) {
    fprintf(stderr, "fuzz_fts5: xTokenize returned %d: %s\n", rc, ft_last_error);
    abort();
  }
  free(r.fold);
}

/* The input as tokenize= options (the file-opening ones dropped) over the
 * mini model: a bad string fails cleanly, a good one works. */
static void fz_options(const char *s, size_t n) {
  char *str = malloc(n + 1), *buf = malloc(n + 1);
  const char *argv[64], *kept[70];
  int argc, i, k = 0;
  Fts5Tokenizer *t = NULL;
  if (!str || !buf) abort();
  memcpy(str, s, n);
  str[n] = 0;
  argc = ft_split_options(str, buf, argv, 64);
  if (argc < 0) argc = 0; /* an unterminated quote, too many words: the defaults */
  for (i = 0; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "model") || !strcmp(argv[i], "modeldir") || !strcmp(argv[i], "stopwords")) continue;
    kept[k++] = argv[i];
    kept[k++] = argv[i + 1];
  }
  if (argc > 0 && (argc & 1)) kept[k++] = argv[argc - 1]; /* a key without its value */
  kept[k++] = "model";
  kept[k++] = fz_tok[0]->model->path;
  if (ft_create(NULL, kept, k, &t) == SQLITE_OK) {
    size_t j;
    if (!t) abort();
    for (j = 0; j < sizeof fz_sentences / sizeof fz_sentences[0]; j++)
      fz_tokenize((ft_tok *)t, (int)j, fz_sentences[j], (int)strlen(fz_sentences[j]), 0);
    ft_delete(t);
  } else if (t || !ft_last_error[0]) {
    abort(); /* a failure leaves nothing behind and says why */
  }
  free(str);
  free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!fz_ready) fz_init();
  if (size < 2 || size > (1u << 20)) return 0;
  if (data[0] & 0x20) {
    fz_options((const char *)data + 2, size - 2);
    return 0;
  }
  fz_tokenize(fz_tok[((data[0] >> 2) & 7) % fz_ntok], data[0] & 3, (const char *)data + 2, (int)(size - 2), data[1]);
  return 0;
}
