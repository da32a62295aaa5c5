/* test_model.c - opening model files: fenci_model_open_ex and its flags;
 * pipes and devices (sized by the header, capped, /dev/zero refused at once);
 * a file truncated or overwritten while a model read with FENCI_OPEN_READ is
 * in use; a file replaced by rename under a mapped model; the messages of
 * fenci_model_check for a truncated and a rewritten file. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fenci.h"
#include "harness.h"

uint32_t fc_crc32(uint32_t crc, const void *p, size_t n); /* internal, from libfenci.a */

static const char LEX[] =
    "自然 30\n语言 30\n自然语言 20\n处理 40\n自然语言处理 10\n计算 40 v\n我们 50\n研究 30 v\n机构 30 n\n";
static const char TEXT[] = "我们研究自然语言处理和计算机构。Hello 2024";

/* The tokens of text as "a/b/c" into out. */
static int render(const fenci_model *m, unsigned opts, const char *text, char *out, size_t cap) {
  fenci_tagger *t = NULL;
  fenci_token tok[256];
  size_t n = 0, i, o = 0;
  fenci_rc rc = fenci_tagger_new(&t, m, opts);
  if (rc == FENCI_OK) rc = fenci_segment_into(t, text, strlen(text), tok, 256, &n);
  fenci_tagger_free(t);
  out[0] = 0;
  if (rc != FENCI_OK) return -1;
  for (i = 0; i < n; i++) {
    size_t l = tok[i].end - tok[i].start;
    if (o + l + 2 >= cap) return -1;
    if (i) out[o++] = '/';
    memcpy(out + o, text + tok[i].start, l);
    o += l;
    out[o] = 0;
  }
  return 0;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int write_file(const char *path, const void *buf, size_t len) {
  FILE *f = fopen(path, "wb");
  int ok = f && fwrite(buf, 1, len, f) == len;
  if (f && fclose(f) != 0) ok = 0;
  return ok ? 0 : -1;
}

/* Overwrites len bytes at off with byte b, in place (no truncation): what
 * dd conv=notrunc or a program rewriting the file in place does. */
static int overwrite(const char *path, size_t off, size_t len, int b) {
  int fd = open(path, O_WRONLY), ok;
  unsigned char *buf = malloc(len ? len : 1);
  if (fd < 0 || !buf) {
    if (fd >= 0) close(fd);
    free(buf);
    return -1;
  }
  memset(buf, b, len);
  ok = pwrite(fd, buf, len, (off_t)off) == (ssize_t)len;
  close(fd);
  free(buf);
  return ok ? 0 : -1;
}

static char *read_all(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  long sz;
  *n = 0;
  if (!f) return NULL;
  if (fseek(f, 0, SEEK_END) == 0 && (sz = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)sz)))
    *n = fread(buf, 1, (size_t)sz, f);
  fclose(f);
  return buf;
}

static void test_flags(void) {
  fenci_model *m = (fenci_model *)&m;
  char err[256];
  err[0] = 0;
  INT_EQ(fenci_model_open_ex(&m, "models/ctb.fenci", 0x100, NULL, err, sizeof err), FENCI_BADARG);
  OK(m == NULL, "*out is NULL on failure");
  OK(strstr(err, "flags") != NULL, "%s", err);
  INT_EQ(fenci_model_open_ex(&m, NULL, FENCI_OPEN_READ, NULL, err, sizeof err), FENCI_BADARG);
  INT_EQ(fenci_model_open_ex(NULL, "x", 0, NULL, err, sizeof err), FENCI_BADARG);
}

/* /dev/zero is endless: every way of opening it must fail at once. */
static void test_dev_zero(void) {
  static const unsigned flags[] = {0, FENCI_OPEN_READ, FENCI_OPEN_READ | FENCI_OPEN_VERIFY};
  char err[256];
  size_t i;
  double t0 = now_s();
  if (access("/dev/zero", R_OK) != 0) return;
  for (i = 0; i < sizeof flags / sizeof flags[0]; i++) {
    fenci_model *m = NULL;
    err[0] = 0;
    INT_EQ(fenci_model_open_ex(&m, "/dev/zero", flags[i], NULL, err, sizeof err), FENCI_BADFORMAT);
    OK(m == NULL && strstr(err, "/dev/zero") && strstr(err, "not a fenci model"), "flags %u: %s", flags[i], err);
  }
  err[0] = 0;
  INT_EQ(fenci_model_check("/dev/zero", err, sizeof err), FENCI_BADFORMAT);
  OK(strstr(err, "not a fenci model") != NULL, "%s", err);
  OK(now_s() - t0 < 2.0, "/dev/zero took %.2f s", now_s() - t0);
}

/* ---------------------------------------------------------------- pipes */

typedef struct pipe_job {
  int fd;
  const uint8_t *p;
  size_t n;
} pipe_job;

static void *pipe_writer(void *arg) {
  pipe_job *j = arg;
  size_t o = 0;
  while (o < j->n) {
    ssize_t w = write(j->fd, j->p + o, j->n - o);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) break;
    o += (size_t)w;
  }
  close(j->fd);
  return NULL;
}

/* Opens the n bytes at p as they come out of a pipe (/dev/fd/N). */
static fenci_rc open_piped(const uint8_t *p, size_t n, unsigned flags, fenci_model **m, char *err, size_t errlen) {
  int fds[2];
  pthread_t th;
  pipe_job j;
  char path[64], sink[4096];
  fenci_rc rc;
  *m = NULL;
  if (pipe(fds) != 0) return FENCI_IO;
  j.fd = fds[1];
  j.p = p;
  j.n = n;
  if (pthread_create(&th, NULL, pipe_writer, &j) != 0) {
    close(fds[0]);
    close(fds[1]);
    return FENCI_IO;
  }
  snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
  rc = fenci_model_open_ex(m, path, flags, NULL, err, errlen);
  /* drain what the library did not read, so the writer finishes */
  while (read(fds[0], sink, sizeof sink) > 0) {
  }
  pthread_join(th, NULL);
  close(fds[0]);
  return rc;
}

static void put64(uint8_t *p, uint64_t v) {
  int i;
  for (i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void put32(uint8_t *p, uint32_t v) {
  int i;
  for (i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void test_pipes(const uint8_t *img, size_t len, const char *want) {
  fenci_model *m = NULL;
  char err[256], got[2048];
  uint8_t *c = malloc(len + 1);
  double t0;
  if (access("/dev/fd/0", F_OK) != 0 || !c) {
    free(c);
    return;
  }
  /* a model through a pipe: sized by its header, segments as usual */
  err[0] = 0;
  INT_EQ(open_piped(img, len, 0, &m, err, sizeof err), FENCI_OK);
  if (m) {
    OK(render(m, 0, TEXT, got, sizeof got) == 0 && strcmp(got, want) == 0, "piped model: %s", got);
    fenci_model_free(m);
  }
  INT_EQ(open_piped(img, len, FENCI_OPEN_VERIFY, &m, err, sizeof err), FENCI_OK);
  fenci_model_free(m);
  /* a byte more than the header gives */
  memcpy(c, img, len);
  c[len] = 'x';
  err[0] = 0;
  INT_EQ(open_piped(c, len + 1, 0, &m, err, sizeof err), FENCI_BADFORMAT);
  OK(strstr(err, "trailing") != NULL, "%s", err);
  /* fewer */
  err[0] = 0;
  INT_EQ(open_piped(img, len - 10, 0, &m, err, sizeof err), FENCI_BADFORMAT);
  OK(strstr(err, "truncated") != NULL, "%s", err);
  /* a header (with a right CRC) that claims more than a stream may have:
   * refused before anything past the header is read */
  put64(c + 16, (uint64_t)1 << 40);
  put32(c + 40, fc_crc32(0, c, 40));
  err[0] = 0;
  t0 = now_s();
  INT_EQ(open_piped(c, len, 0, &m, err, sizeof err), FENCI_IO);
  OK(strstr(err, "not a regular file") && strstr(err, "1024 MiB"), "%s", err);
  put64(c + 16, ((uint64_t)1 << 30) + 16);
  put32(c + 40, fc_crc32(0, c, 40));
  INT_EQ(open_piped(c, len, 0, &m, err, sizeof err), FENCI_IO);
  OK(now_s() - t0 < 2.0, "the capped reads took %.2f s", now_s() - t0);
  /* a header that claims 1 GiB but the pipe ends early: no gigabyte is
   * allocated, the parser says truncated */
  put64(c + 16, (uint64_t)1 << 30);
  put32(c + 40, fc_crc32(0, c, 40));
  err[0] = 0;
  INT_EQ(open_piped(c, len, 0, &m, err, sizeof err), FENCI_BADFORMAT);
  OK(strstr(err, "truncated") != NULL, "%s", err);
  free(c);
}

/* ------------------------------------------------- files changed in use */

/* A model read with FENCI_OPEN_READ never looks at its file again:
 * truncating it or overwriting it in place changes nothing. */
static void test_read_immune(const char *dir, const uint8_t *img, size_t len, const char *want) {
  static const unsigned flags[] = {FENCI_OPEN_READ, FENCI_OPEN_READ | FENCI_OPEN_VERIFY};
  char path[300], err[256], got[2048];
  size_t i;
  snprintf(path, sizeof path, "%s/read.fenci", dir);
  for (i = 0; i < sizeof flags / sizeof flags[0]; i++) {
    fenci_model *m = NULL;
    if (write_file(path, img, len) != 0) {
      OK(0, "cannot write %s", path);
      return;
    }
    INT_EQ(fenci_model_open_ex(&m, path, flags[i], NULL, err, sizeof err), FENCI_OK);
    if (!m) continue;
    OK(render(m, 0, TEXT, got, sizeof got) == 0 && strcmp(got, want) == 0, "read model: %s", got);
    OK(truncate(path, 0) == 0, "truncate");
    OK(render(m, 0, TEXT, got, sizeof got) == 0 && strcmp(got, want) == 0, "after truncate: %s", got);
    OK(write_file(path, img, len) == 0 && overwrite(path, 0, len, 0xA5) == 0, "overwrite");
    OK(render(m, 0, TEXT, got, sizeof got) == 0 && strcmp(got, want) == 0, "after overwrite: %s", got);
    OK(truncate(path, 0) == 0, "truncate");
    OK(render(m, FENCI_MODE_ALL, TEXT, got, sizeof got) == 0, "all mode after truncate");
    fenci_model_free(m);
  }
  remove(path);
}

/* The same with a shipped trained model (the trained decoder's tables are
 * used in place): a copy, read, then truncated to 100 bytes. */
static void test_read_immune_trained(const char *dir) {
  char path[300], lpath[300], err[256], *want = malloc(8192), *got = malloc(8192);
  size_t n = 0, ln = 0;
  char *img = read_all("models/ctb.fenci", &n), *limg = read_all("models/lexicon.fenci", &ln);
  fenci_model *m = NULL;
  snprintf(path, sizeof path, "%s/ctb.fenci", dir);
  snprintf(lpath, sizeof lpath, "%s/lexicon.fenci", dir); /* the lexicon it references */
  if (img && want && got && limg && write_file(path, img, n) == 0 && write_file(lpath, limg, ln) == 0) {
    INT_EQ(fenci_model_open_ex(&m, path, FENCI_OPEN_READ, NULL, err, sizeof err), FENCI_OK);
    if (m) {
      OK(fenci_model_has_weights(m), "ctb has a trained segmenter");
      OK(render(m, 0, TEXT, want, 8192) == 0, "ctb renders");
      OK(truncate(path, 100) == 0 && truncate(lpath, 100) == 0, "truncate");
      OK(render(m, 0, TEXT, got, 8192) == 0 && strcmp(got, want) == 0, "after truncate: %s vs %s", got, want);
      OK(render(m, FENCI_OPT_FAST, TEXT, got, 8192) == 0, "fast mode after truncate");
      fenci_model_free(m);
    }
    remove(path);
    remove(lpath);
  }
  free(img);
  free(limg);
  free(want);
  free(got);
}

/* A MAPPED model whose file is rewritten in place while in use (not
 * truncated): ids, offsets and trie transitions read from the file are
 * checked again where they are used, so the words may be wrong but there
 * is no bad read.  Every shipped model, 0xFF over the whole body (the
 * symbol ids become 65535) and 20 rounds of 50 random blocks each, in the
 * trained and the lexicon path. */
static void test_mapped_rewrite(const char *dir) {
  static const char *const names[] = {"ctb", "pku", "msr", "lexicon"};
  static const char text[] = "我们研究自然语言处理和计算机构。拿破仑在枫丹白露签署了退位诏书。"
                             "1814年4月6日，22万发炮弹 abc@d.cn http://x.cn 長春市長春藥店 ５０％";
  char path[300], lpath[300], src[64], got[8192];
  size_t k, n = 0, ln = 0;
  unsigned seed = 12345;
  char *lex = read_all("models/lexicon.fenci", &ln);
  for (k = 0; k < sizeof names / sizeof names[0]; k++) {
    char *img, *limg = strcmp(names[k], "lexicon") && ln >= 4096 ? lex : NULL;
    int round;
    snprintf(src, sizeof src, "models/%s.fenci", names[k]);
    if (!(img = read_all(src, &n)) || n < 4096) {
      free(img);
      continue;
    }
    snprintf(path, sizeof path, "%s/rewrite.fenci", dir);
    snprintf(lpath, sizeof lpath, "%s/lexicon.fenci", dir); /* for the models that reference it */
    for (round = 0; round < 21; round++) {
      fenci_model *m = NULL;
      int b, ok;
      ok = write_file(path, img, n) == 0 && (!limg || write_file(lpath, limg, ln) == 0) &&
           fenci_model_open(&m, path, NULL, NULL, 0) == FENCI_OK;
      OK(ok, "%s opens", names[k]);
      if (!ok) break;
      OK(render(m, 0, text, got, sizeof got) == 0, "%s before", names[k]);
      if (round == 0) {
        OK(overwrite(path, 64, n - 64, 0xFF) == 0, "overwrite");
        OK(!limg || overwrite(lpath, 64, ln - 64, 0xFF) == 0, "overwrite");
      } else {
        for (b = 0; b < 50; b++) {
          size_t len = 1 + (seed = seed * 1103515245u + 12345u) % 4096;
          size_t off = (seed = seed * 1103515245u + 12345u) % (n - len);
          OK(overwrite(path, off, len, (int)(seed >> 16) & 0xFF) == 0, "overwrite");
          if (limg) {
            off = (seed = seed * 1103515245u + 12345u) % (ln - len);
            OK(overwrite(lpath, off, len, (int)(seed >> 16) & 0xFF) == 0, "overwrite");
          }
        }
      }
      OK(render(m, 0, text, got, sizeof got) == 0, "%s round %d default", names[k], round);
      OK(render(m, FENCI_MODE_SEARCH, text, got, sizeof got) == 0, "%s round %d search", names[k], round);
      OK(render(m, FENCI_OPT_FAST | FENCI_MODE_ALL, text, got, sizeof got) == 0, "%s round %d fast", names[k], round);
      fenci_model_free(m);
    }
    remove(path);
    remove(lpath);
    free(img);
  }
  free(lex);
}

/* Replacing a mapped model's file by rename (what fenci compile and train
 * do) is safe: the mapping keeps the old file. */
static void test_mapped_rename(const char *dir, const uint8_t *img, size_t len, const char *want) {
  char path[300], tmp[310], err[256], got[2048];
  fenci_model *m = NULL;
  uint8_t *junk = malloc(len);
  snprintf(path, sizeof path, "%s/mapped.fenci", dir);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  if (!junk || write_file(path, img, len) != 0) {
    free(junk);
    return;
  }
  memset(junk, 0x5A, len);
  INT_EQ(fenci_model_open(&m, path, NULL, err, sizeof err), FENCI_OK);
  if (m) {
    OK(write_file(tmp, junk, len) == 0 && rename(tmp, path) == 0, "rename over the mapped file");
    OK(render(m, 0, TEXT, got, sizeof got) == 0 && strcmp(got, want) == 0, "mapped, after rename: %s", got);
    fenci_model_free(m);
  }
  remove(path);
  free(junk);
}

/* Out of memory while reading: every failing allocation gives FENCI_NOMEM
 * and leaks nothing (harness.h's failing allocator, N = 1, 2, ...). */
static void test_read_oom(const char *dir, const uint8_t *img, size_t len) {
  char path[300], err[256];
  long n;
  int bad = 0;
  snprintf(path, sizeof path, "%s/oom.fenci", dir);
  if (write_file(path, img, len) != 0) return;
  for (n = 1; n < 1000; n++) {
    th_fault o;
    fenci_alloc a;
    fenci_model *m = NULL;
    fenci_rc rc;
    memset(&o, 0, sizeof o);
    o.fail_at = n;
    a.fn = th_fault_fn;
    a.ud = &o;
    rc = fenci_model_open_ex(&m, path, FENCI_OPEN_READ, &a, err, sizeof err);
    fenci_model_free(m);
    if (o.live != 0 || (rc != FENCI_OK && (rc != FENCI_NOMEM || m))) bad++;
    if (rc == FENCI_OK) break;
  }
  INT_EQ(bad, 0);
  OK(n > 1 && n < 1000, "the loop ended after %ld allocations", n);
  remove(path);
}

/* fenci_model_check names what changed. */
static void test_check_messages(const char *dir, const uint8_t *img, size_t len) {
  char path[300], err[512], want[128];
  snprintf(path, sizeof path, "%s/check.fenci", dir);
  if (write_file(path, img, len) != 0) return;
  INT_EQ(fenci_model_check(path, err, sizeof err), FENCI_OK);
  /* rewritten in place: the body no longer matches its CRC */
  OK(overwrite(path, len - 8, 4, 0x7E) == 0, "overwrite");
  err[0] = 0;
  INT_EQ(fenci_model_check(path, err, sizeof err), FENCI_BADFORMAT);
  OK(strstr(err, path) && strstr(err, "body CRC mismatch") && strstr(err, "rewritten in place"), "%s", err);
  /* cut short: both sizes */
  OK(truncate(path, (off_t)(len / 2)) == 0, "truncate");
  err[0] = 0;
  INT_EQ(fenci_model_check(path, err, sizeof err), FENCI_BADFORMAT);
  snprintf(want, sizeof want, "header says %zu bytes, file has %zu", len, len / 2);
  OK(strstr(err, want) != NULL, "%s", err);
  remove(path);
}

int main(void) {
  void *img = NULL;
  size_t len = 0;
  char err[256], want[2048], dir[] = "/tmp/fenci_test_model.XXXXXX";
  fenci_model *m = NULL;
  signal(SIGPIPE, SIG_IGN);
  test_flags();
  test_dev_zero();
  INT_EQ(fenci_lexicon_compile(LEX, strlen(LEX), &img, &len, NULL, err, sizeof err), FENCI_OK);
  if (img) INT_EQ(fenci_model_from_buffer(&m, img, len, NULL, err, sizeof err), FENCI_OK);
  if (m && render(m, 0, TEXT, want, sizeof want) == 0) {
    test_pipes(img, len, want);
    if (mkdtemp(dir)) {
      test_read_immune(dir, img, len, want);
      test_read_immune_trained(dir);
      test_mapped_rename(dir, img, len, want);
      test_mapped_rewrite(dir);
      test_check_messages(dir, img, len);
      test_read_oom(dir, img, len);
      rmdir(dir);
    } else {
      OK(0, "mkdtemp: %s", strerror(errno));
    }
  }
  fenci_model_free(m);
  fenci_free(NULL, img);
  TEST_DONE();
}
