/* test_fmt.c - the container format, CRC-32 and file mapping.
 *
 * Round trip writer -> parse; every truncation fails cleanly; each header and
 * section-table field, corrupted, gives its own error; version policy; CRC
 * known vectors and a bitwise reference; the header check that sizes
 * streams; fc_map_file on files (mapped and read), an empty file, a
 * directory, a missing path and /dev/zero. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "alloc.h"
#include "fmt.h"
#include "harness.h"

static uint32_t crc_ref(uint32_t crc, const uint8_t *p, size_t n) {
  crc = ~crc;
  while (n--) {
    int k;
    crc ^= *p++;
    for (k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1)));
  }
  return ~crc;
}

static void test_crc(void) {
  static const char *fox = "The quick brown fox jumps over the lazy dog";
  uint8_t *big;
  size_t i, n = 10u << 20;
  uint32_t r = 12345;
  clock_t t0;
  double ms;
  int bad = 0;

  INT_EQ(fc_crc32(0, "123456789", 9), 0xCBF43926u);
  INT_EQ(fc_crc32(0, "", 0), 0);
  INT_EQ(fc_crc32(0, "a", 1), 0xE8B7BE43u);
  INT_EQ(fc_crc32(0, fox, strlen(fox)), 0x414FA339u);
  INT_EQ(fc_crc32(fc_crc32(0, "12345", 5), "6789", 4), 0xCBF43926u);

  big = malloc(n + 16);
  for (i = 0; i < n + 16; i++) {
    r = r * 1103515245u + 12345u;
    big[i] = (uint8_t)(r >> 16);
  }
  /* every alignment and short length against the bitwise reference; this
   * also checks the generated slicing tables */
  for (i = 0; i < 8; i++) {
    size_t len;
    for (len = 0; len < 80; len++)
      if (fc_crc32(0, big + i, len) != crc_ref(0, big + i, len)) bad++;
    if (fc_crc32(7, big + i, 4099) != crc_ref(7, big + i, 4099)) bad++;
  }
  INT_EQ(bad, 0);
  t0 = clock();
  r = fc_crc32(0, big, n);
  ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC;
  INT_EQ(r, crc_ref(0, big, n));
  fprintf(stderr, "fc_crc32: 10 MiB in %.2f ms\n", ms);
  free(big);
}

/* Builds the small test image: three sections, one empty, odd sizes. */
static uint8_t *make_image(size_t *len) {
  fc_writer w;
  uint8_t *img = NULL;
  static const char lext[] = "trie-bytes-0123456789"; /* 21 bytes + NUL */
  uint8_t meta[5] = {'k', '=', 'v', '\n', 0};
  fc_writer_init(&w, NULL);
  INT_EQ(fc_writer_add(&w, "LEXT", lext, sizeof lext), FENCI_OK);
  INT_EQ(fc_writer_add(&w, "EMPT", NULL, 0), FENCI_OK);
  INT_EQ(fc_writer_add(&w, "META", meta, 4), FENCI_OK);
  INT_EQ(fc_writer_finish(&w, &img, len), FENCI_OK);
  fc_writer_free(&w);
  return img;
}

/* Copies bytes into a fresh exact-size malloc block (8-aligned), parses. */
static fenci_rc parse_copy(const uint8_t *img, size_t len, int verify, char *err, size_t errlen) {
  uint8_t *c = malloc(len ? len : 1);
  fc_file f;
  fenci_rc rc;
  if (len) memcpy(c, img, len);
  err[0] = 0;
  rc = fc_fmt_parse(&f, c, len, verify, err, errlen);
  free(c);
  return rc;
}

static void put32(uint8_t *p, uint32_t v) {
  int i;
  for (i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void put64(uint8_t *p, uint64_t v) {
  int i;
  for (i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
/* Recomputes both CRCs after a deliberate edit, so a specific check fires. */
static void fix_crcs(uint8_t *img, size_t len) {
  put32(img + 28, fc_crc32(0, img + 64, len - 64));
  put32(img + 40, fc_crc32(0, img, 40));
}

/* Applies edit at (off, bytes), optionally fixes CRCs, expects rc and a
 * message containing want. */
static void expect(const uint8_t *img, size_t len, size_t off, const void *bytes, size_t n, int fix,
                   fenci_rc want_rc, const char *want) {
  uint8_t *c = malloc(len);
  char err[256];
  fenci_rc rc;
  memcpy(c, img, len);
  memcpy(c + off, bytes, n);
  if (fix) fix_crcs(c, len);
  rc = parse_copy(c, len, 1, err, sizeof err);
  OK(rc == want_rc, "edit at %zu: rc %d, want %d (%s)", off, (int)rc, (int)want_rc, err);
  if (want) OK(strstr(err, want) != NULL, "edit at %zu: message \"%s\" lacks \"%s\"", off, err, want);
  free(c);
}

static void test_roundtrip(void) {
  size_t len, len2, i;
  uint8_t *img = make_image(&len), *img2;
  fc_file f;
  const fc_section *s;
  char err[256];

  INT_EQ(fc_fmt_parse(&f, img, len, 1, err, sizeof err), FENCI_OK);
  INT_EQ(f.size, len);
  INT_EQ(f.major, FC_FMT_MAJOR);
  INT_EQ(f.minor, FC_FMT_MINOR);
  INT_EQ(f.n_sections, 3);
  s = fc_fmt_find(&f, "LEXT");
  OK(s && s->size == 22 && memcmp(s->data, "trie-bytes-0123456789", 22) == 0, "LEXT");
  s = fc_fmt_find(&f, "EMPT");
  OK(s && s->size == 0, "EMPT");
  s = fc_fmt_find(&f, "META");
  OK(s && s->size == 4 && memcmp(s->data, "k=v\n", 4) == 0, "META");
  OK(fc_fmt_find(&f, "NONE") == NULL, "missing tag");
  for (i = 0; i < f.n_sections; i++) INT_EQ((size_t)(f.sec[i].data - img) % 16, 0);
  /* header bytes as specified */
  OK(memcmp(img, "\x89" "FNC\r\n\x1a\n", 8) == 0, "magic");
  INT_EQ(fc_rd32(img + 12), 0x01020304u);
  OK(memcmp(img + 32, "\0\0\0\0\0\0\xf8\x3f", 8) == 0, "1.5 as LE double");
  INT_EQ(fc_rd64(img + 16), len);
  /* determinism */
  img2 = make_image(&len2);
  OK(len == len2 && memcmp(img, img2, len) == 0, "two writes differ");
  free(img2);

  /* a header-only file with no sections */
  {
    fc_writer w;
    uint8_t *e;
    size_t elen;
    fc_writer_init(&w, NULL);
    INT_EQ(fc_writer_finish(&w, &e, &elen), FENCI_OK);
    INT_EQ(elen, 64);
    INT_EQ(parse_copy(e, elen, 1, err, sizeof err), FENCI_OK);
    fc_writer_free(&w);
    free(e);
  }
  /* too many sections */
  {
    fc_writer w;
    int k;
    fc_writer_init(&w, NULL);
    for (k = 0; k < FC_FMT_MAX_SECTIONS; k++) INT_EQ(fc_writer_add(&w, "SECT", "x", 1), FENCI_OK);
    INT_EQ(fc_writer_add(&w, "SECT", "x", 1), FENCI_BADARG);
    INT_EQ(fc_writer_add(&w, "\x01" "BAD", "x", 1), FENCI_BADARG);
    fc_writer_free(&w);
  }
  /* misaligned buffer */
  {
    uint8_t *c = malloc(len + 8);
    memcpy(c + 1, img, len);
    INT_EQ(fc_fmt_parse(&f, c + 1, len, 1, err, sizeof err), FENCI_BADARG);
    free(c);
  }
  free(img);
}

static void test_truncation(void) {
  size_t len, i;
  uint8_t *img = make_image(&len);
  char err[256];
  int bad = 0;
  for (i = 0; i < len; i++) {
    fenci_rc rc = parse_copy(img, i, 1, err, sizeof err);
    if (rc != FENCI_BADFORMAT || err[0] == 0) {
      bad++;
      fprintf(stderr, "truncation to %zu: rc %d \"%s\"\n", i, (int)rc, err);
    }
  }
  INT_EQ(bad, 0);
  /* the message names both sizes */
  parse_copy(img, len - 1, 1, err, sizeof err);
  {
    char want[128];
    snprintf(want, sizeof want, "truncated: header says %zu bytes, file has %zu", len, len - 1);
    STR_EQ(err, want);
  }
  parse_copy(img, 10, 1, err, sizeof err);
  OK(strstr(err, "truncated") != NULL, "%s", err);
  parse_copy(img, 0, 1, err, sizeof err);
  OK(strstr(err, "empty") != NULL, "%s", err);
  /* one extra byte */
  {
    uint8_t *c = calloc(len + 1, 1);
    memcpy(c, img, len);
    INT_EQ(parse_copy(c, len + 1, 1, err, sizeof err), FENCI_BADFORMAT);
    OK(strstr(err, "trailing") != NULL, "%s", err);
    free(c);
  }
  free(img);
}

static void test_header_fields(void) {
  size_t len;
  uint8_t *img = make_image(&len), b[8];
  char err[256];
  uint32_t nsec_off = 64; /* first table entry */

  /* magic */
  expect(img, len, 0, "\x88", 1, 0, FENCI_BADFORMAT, "bad magic");
  expect(img, len, 4, "\n\x1a", 2, 0, FENCI_BADFORMAT, "text mode");
  expect(img, len, 7, "\r", 1, 0, FENCI_BADFORMAT, "text mode");
  expect(img, len, 0, "\x09", 1, 0, FENCI_BADFORMAT, "7-bit");
  expect(img, len, 0, "PK", 2, 0, FENCI_BADFORMAT, "not a fenci model");
  /* version: newer major refused naming both versions, CRC fixed or not */
  expect(img, len, 8, "\x02\x00\x00\x00", 4, 0, FENCI_BADVERSION, "2.0 is newer than this library's 1.");
  expect(img, len, 8, "\x02\x00\x07\x00", 4, 1, FENCI_BADVERSION, "2.7");
  expect(img, len, 8, "\x00\x00", 2, 1, FENCI_BADVERSION, "older");
  /* newer minor accepted */
  {
    uint8_t *c = malloc(len);
    fc_file f;
    memcpy(c, img, len);
    c[10] = 9;
    fix_crcs(c, len);
    INT_EQ(fc_fmt_parse(&f, c, len, 1, err, sizeof err), FENCI_OK);
    INT_EQ(f.minor, 9);
    /* ... and its reserved bytes and section flags are tolerated */
    c[50] = 1;
    put32(c + nsec_off + 4, 0x10);
    fix_crcs(c, len);
    INT_EQ(fc_fmt_parse(&f, c, len, 1, err, sizeof err), FENCI_OK);
    INT_EQ(f.sec[0].flags, 0x10);
    free(c);
  }
  /* byte order and float check */
  expect(img, len, 12, "\x01\x02\x03\x04", 4, 1, FENCI_BADFORMAT, "big-endian");
  expect(img, len, 12, "\x05\x03\x02\x01", 4, 1, FENCI_BADFORMAT, "byte-order");
  put64(b, 0x3FF0000000000000ull); /* 1.0 */
  expect(img, len, 32, b, 8, 1, FENCI_BADFORMAT, "float check");
  /* header CRC: any unrepaired edit of a covered field */
  expect(img, len, 40, "\0\0\0\0", 4, 0, FENCI_BADFORMAT, "header CRC");
  put64(b, len + 1);
  expect(img, len, 16, b, 8, 0, FENCI_BADFORMAT, "header CRC");
  /* file size */
  expect(img, len, 16, b, 8, 1, FENCI_BADFORMAT, "truncated: header says");
  put64(b, len - 1);
  expect(img, len, 16, b, 8, 1, FENCI_BADFORMAT, "trailing");
  put64(b, UINT64_MAX);
  expect(img, len, 16, b, 8, 1, FENCI_BADFORMAT, "truncated");
  /* reserved */
  expect(img, len, 63, "\x01", 1, 1, FENCI_BADFORMAT, "reserved");
  expect(img, len, 44, "\x01", 1, 1, FENCI_BADFORMAT, "reserved");
  /* section count */
  put32(b, FC_FMT_MAX_SECTIONS + 1);
  expect(img, len, 24, b, 4, 1, FENCI_BADFORMAT, "exceeds");
  put32(b, 0xFFFFFFFFu);
  expect(img, len, 24, b, 4, 1, FENCI_BADFORMAT, "exceeds");
  put32(b, 4); /* the fourth entry is read from section bytes */
  expect(img, len, 24, b, 4, 1, FENCI_BADFORMAT, NULL);
  put32(b, 2); /* fewer sections is still a valid file */
  expect(img, len, 24, b, 4, 1, FENCI_OK, NULL);
  /* body CRC: field, and a flipped body byte; verify_crc = 0 skips it */
  expect(img, len, 28, "\x55", 1, 0, FENCI_BADFORMAT, "header CRC");
  {
    uint8_t *c = malloc(len);
    fc_file f;
    memcpy(c, img, len);
    c[len - 1] ^= 0x40;
    INT_EQ(fc_fmt_parse(&f, c, len, 1, err, sizeof err), FENCI_BADFORMAT);
    OK(strstr(err, "body CRC") != NULL, "%s", err);
    INT_EQ(fc_fmt_parse(&f, c, len, 0, err, sizeof err), FENCI_OK);
    free(c);
  }
  free(img);
}

static void test_section_table(void) {
  size_t len;
  uint8_t *img = make_image(&len), b[8];
  const size_t e0 = 64, e1 = 88; /* entries 0 and 1 */
  uint64_t off0 = fc_rd64(img + e0 + 8);

  expect(img, len, e0, "LE\x01T", 4, 1, FENCI_BADFORMAT, "tag");
  expect(img, len, e0 + 4, "\x01", 1, 1, FENCI_BADFORMAT, "flags");
  put64(b, off0 + 4);
  expect(img, len, e0 + 8, b, 8, 1, FENCI_BADFORMAT, "aligned");
  put64(b, 128); /* the table ends at 64 + 3 * 24 = 136 */
  expect(img, len, e0 + 8, b, 8, 1, FENCI_BADFORMAT, "overlaps the header");
  put64(b, 0);
  expect(img, len, e0 + 8, b, 8, 1, FENCI_BADFORMAT, "overlaps the header");
  put64(b, UINT64_MAX - 15); /* aligned, and offset + size overflows */
  expect(img, len, e0 + 8, b, 8, 1, FENCI_BADFORMAT, "past the end");
  put64(b, UINT64_MAX);
  expect(img, len, e0 + 16, b, 8, 1, FENCI_BADFORMAT, "past the end");
  put64(b, len - off0 + 1);
  expect(img, len, e0 + 16, b, 8, 1, FENCI_BADFORMAT, "past the end");
  put64(b, len - off0); /* up to the end exactly: overlaps META */
  expect(img, len, e0 + 16, b, 8, 1, FENCI_BADFORMAT, "overlaps section");
  /* EMPT (size 0) may sit anywhere in range; give it size 1 inside LEXT */
  put64(b, off0);
  expect(img, len, e1 + 8, b, 8, 1, FENCI_OK, NULL);
  {
    uint8_t two[16];
    put64(two, off0);
    put64(two + 8, 1);
    expect(img, len, e1 + 8, two, 16, 1, FENCI_BADFORMAT, "overlaps section 0");
  }
  free(img);
}

/* Random byte edits to the header and table with both CRCs repaired, so the
 * structural checks are what stands between the edit and a bad pointer:
 * a parse either fails or yields sections inside the image. */
static void test_random_edits(void) {
  size_t len, round, k;
  uint8_t *img = make_image(&len);
  uint32_t r = 99;
  int bad = 0, accepted = 0;
  char err[256];
  for (round = 0; round < 20000; round++) {
    uint8_t *c = malloc(len);
    fc_file f;
    fenci_rc rc;
    memcpy(c, img, len);
    for (k = 0; k < 1 + round % 4; k++) {
      r = r * 1103515245u + 12345u;
      c[(r >> 8) % 136] ^= (uint8_t)(1u + (r >> 24) % 255);
    }
    if (round % 8) fix_crcs(c, len);
    rc = fc_fmt_parse(&f, c, len, 1, err, sizeof err);
    if (rc == FENCI_OK) {
      uint32_t i;
      accepted++;
      for (i = 0; i < f.n_sections; i++)
        if (f.sec[i].data < c + 64 || f.sec[i].data + f.sec[i].size > c + len) bad++;
    } else if (rc != FENCI_BADFORMAT && rc != FENCI_BADVERSION) {
      bad++;
    }
    free(c);
  }
  INT_EQ(bad, 0);
  fprintf(stderr, "random edits: %d of 20000 still parse\n", accepted);
  free(img);
}

/* An allocator whose blocks all start 4 bytes past an 8-byte boundary (and
 * counts what is live), to check that a read image is realigned. */
static long odd_live;
static void *odd_fn(void *ud, void *p, size_t n) {
  unsigned char *b = p ? (unsigned char *)p - 12 : NULL;
  (void)ud;
  if (n == 0) {
    if (b) {
      odd_live--;
      free(b);
    }
    return NULL;
  }
  b = realloc(b, n + 12); /* malloc's 16-byte alignment + 12: 4 mod 8 */
  if (!b) return NULL;
  if (!p) odd_live++;
  return b + 12;
}

/* fc_fmt_header_size sizes streams: it must judge the header exactly as the
 * parser does; fc_fmt_header_decode and fc_fmt_entry_decode show it raw. */
static void test_header_size(void) {
  size_t len;
  uint8_t *img = make_image(&len), c[64];
  uint64_t size = 0;
  char err[256];
  fc_header h;
  fc_entry e;
  INT_EQ(fc_fmt_header_size(img, 64, &size, err, sizeof err), FENCI_OK);
  INT_EQ(size, len);
  INT_EQ(fc_fmt_header_size(img, 10, &size, err, sizeof err), FENCI_BADFORMAT);
  memcpy(c, img, 64);
  c[0] = 0;
  INT_EQ(fc_fmt_header_size(c, 64, &size, err, sizeof err), FENCI_BADFORMAT);
  OK(strstr(err, "not a fenci model") != NULL, "%s", err);
  memcpy(c, img, 64);
  c[20] ^= 1; /* file_size without its CRC */
  INT_EQ(fc_fmt_header_size(c, 64, &size, err, sizeof err), FENCI_BADFORMAT);
  OK(strstr(err, "header CRC") != NULL, "%s", err);
  memcpy(c, img, 64);
  c[8] = 2;
  INT_EQ(fc_fmt_header_size(c, 64, &size, err, sizeof err), FENCI_BADVERSION);
  OK(fc_fmt_header_decode(&h, img, 63) == -1, "a short header does not decode");
  OK(fc_fmt_header_decode(&h, c, 64) == 0, "decode");
  OK(h.magic_ok && h.major == 2 && h.file_size == len && h.n_sections == 3 && h.header_crc != h.header_crc_computed &&
         h.reserved_zero && h.byte_order == 0x01020304u && h.byte_order_ok && h.float_ok,
     "decoded fields");
  OK(fc_fmt_entry_decode(&e, img, len, 0) == 0 && memcmp(e.tag, "LEXT", 4) == 0 && e.size == 22, "entry 0");
  OK(fc_fmt_entry_decode(&e, img, 64 + 24 + 23, 1) == -1, "an entry past the end does not decode");
  OK(fc_fmt_entry_decode(&e, img, len, FC_FMT_MAX_SECTIONS) == -1, "entry 64 does not decode");
  free(img);
}

static void test_mapfile(void) {
  char dir[] = "/tmp/fenci_test_fmt_XXXXXX", path[128], err[512];
  size_t len;
  uint8_t *img = make_image(&len);
  fc_mapping m;
  fc_file f;
  FILE *fp;

  if (!mkdtemp(dir)) {
    OK(0, "mkdtemp failed");
    free(img);
    return;
  }
  snprintf(path, sizeof path, "%s/model.fenci", dir);
  fp = fopen(path, "wb");
  fwrite(img, 1, len, fp);
  fclose(fp);
  INT_EQ(fc_map_file(&m, path, 0, NULL, err, sizeof err), FENCI_OK);
  INT_EQ(m.size, len);
  INT_EQ(m.mapped, 1);
  OK(memcmp(m.data, img, len) == 0, "mapped bytes");
  INT_EQ(fc_fmt_parse(&f, m.data, m.size, 1, err, sizeof err), FENCI_OK);
  fc_unmap(&m);
  OK(m.data == NULL, "unmap clears");
  fc_unmap(&m); /* twice is harmless */
  /* read into memory: 8-byte aligned even from an allocator that is not */
  {
    fenci_alloc odd;
    odd.fn = odd_fn;
    odd.ud = NULL;
    INT_EQ(fc_map_file(&m, path, FC_MAP_READ, &odd, err, sizeof err), FENCI_OK);
    INT_EQ(m.size, len);
    INT_EQ(m.mapped, 0);
    OK(((uintptr_t)m.data & 7) == 0, "read image is 8-byte aligned");
    OK(m.data && memcmp(m.data, img, len) == 0, "read bytes");
    INT_EQ(fc_fmt_parse(&f, m.data, m.size, 1, err, sizeof err), FENCI_OK);
    fc_unmap(&m);
    INT_EQ(odd_live, 0);
  }
  remove(path);

  /* /dev/zero is endless: refused after its first 64 bytes */
  if (access("/dev/zero", R_OK) == 0) {
    INT_EQ(fc_map_file(&m, "/dev/zero", 0, NULL, err, sizeof err), FENCI_BADFORMAT);
    OK(strstr(err, "/dev/zero") && strstr(err, "not a fenci model"), "%s", err);
    INT_EQ(fc_map_file(&m, "/dev/zero", FC_MAP_READ, NULL, err, sizeof err), FENCI_BADFORMAT);
    OK(m.data == NULL && m.size == 0, "nothing kept on failure");
  }

  /* empty file */
  fp = fopen(path, "wb");
  fclose(fp);
  INT_EQ(fc_map_file(&m, path, 0, NULL, err, sizeof err), FENCI_BADFORMAT);
  OK(strstr(err, path) && strstr(err, "empty"), "%s", err);
  remove(path);

  /* missing file, directory */
  INT_EQ(fc_map_file(&m, path, 0, NULL, err, sizeof err), FENCI_IO);
  OK(strstr(err, path) && strstr(err, "No such file"), "%s", err);
  INT_EQ(fc_map_file(&m, dir, 0, NULL, err, sizeof err), FENCI_IO);
  OK(strstr(err, dir) && strstr(err, "directory"), "%s", err);
  INT_EQ(fc_map_file(&m, NULL, 0, NULL, err, sizeof err), FENCI_BADARG);
  INT_EQ(fc_map_file(&m, "", 0, NULL, err, sizeof err), FENCI_BADARG);

  /* unreadable (root can read anything, so only checked as a user) */
  fp = fopen(path, "wb");
  fwrite(img, 1, len, fp);
  fclose(fp);
  chmod(path, 0);
  if (geteuid() != 0) {
    INT_EQ(fc_map_file(&m, path, 0, NULL, err, sizeof err), FENCI_IO);
    OK(strstr(err, "Permission denied") != NULL, "%s", err);
  }
  remove(path);
  rmdir(dir);

  /* a file that reports size 0 but has content goes through the read path */
  if (access("/proc/self/cmdline", R_OK) == 0) {
    INT_EQ(fc_map_file(&m, "/proc/self/cmdline", 0, NULL, err, sizeof err), FENCI_OK);
    OK(m.size > 0 && m.mapped == 0, "read fallback");
    fc_unmap(&m);
  }
  free(img);
}

static int keep_not_k(const char *line, size_t n, void *ctx) {
  (void)ctx;
  return !(n >= 2 && !memcmp(line, "k=", 2));
}

/* fc_fmt_rewrite: the sections kept in order, the replaced one moved after
 * them, a removed one gone, META replaced; fc_meta_lines' filter; every
 * allocation failed in turn leaks nothing. */
static void test_rewrite(void) {
  size_t len, out_len = 0, i;
  uint8_t *img = make_image(&len), *out = NULL;
  static const char *const tags[2] = {"LEXT", "EMPT"};
  static const char neu[] = "new-trie";
  const void *data[2] = {neu, NULL};
  size_t lens[2] = {sizeof neu, 0};
  char err[128];
  fc_file f, g;
  fc_buf mb;
  long at;
  const char *m0 = "a=1\nk=v\n\nb=2";
  INT_EQ(fc_fmt_parse(&f, img, len, 1, err, sizeof err), FENCI_OK);
  fc_buf_init(&mb, NULL);
  INT_EQ(fc_meta_lines(&mb, m0, strlen(m0), keep_not_k, NULL), 0);
  INT_EQ(mb.len, 8);
  OK(!memcmp(mb.data, "a=1\nb=2\n", 8), "META lines filtered");
  INT_EQ(fc_fmt_rewrite(&f, 2, tags, data, lens, mb.data, mb.len, NULL, &out, &out_len), FENCI_OK);
  INT_EQ(fc_fmt_parse(&g, out, out_len, 1, err, sizeof err), FENCI_OK);
  INT_EQ(g.n_sections, 2);
  OK(!memcmp(g.sec[0].tag, "LEXT", 4) && g.sec[0].size == sizeof neu && !memcmp(g.sec[0].data, neu, sizeof neu),
     "replaced section");
  OK(!memcmp(g.sec[1].tag, "META", 4) && g.sec[1].size == 8 && !memcmp(g.sec[1].data, "a=1\nb=2\n", 8), "new META");
  fenci_free(NULL, out);
  /* no file: only the new sections and META */
  INT_EQ(fc_fmt_rewrite(NULL, 1, tags, data, lens, NULL, 0, NULL, &out, &out_len), FENCI_OK);
  INT_EQ(fc_fmt_parse(&g, out, out_len, 1, err, sizeof err), FENCI_OK);
  INT_EQ(g.n_sections, 2);
  OK(!memcmp(g.sec[1].tag, "META", 4) && g.sec[1].size == 0, "empty META");
  fenci_free(NULL, out);
  for (at = 1;; at++) {
    th_fault fl = {0, at, 0};
    fenci_alloc fa = {th_fault_fn, &fl};
    fenci_rc rc = fc_fmt_rewrite(&f, 2, tags, data, lens, mb.data, mb.len, &fa, &out, &out_len);
    if (rc == FENCI_OK) {
      fa.fn(fa.ud, out, 0);
      INT_EQ(fl.live, 0);
      break;
    }
    INT_EQ(rc, FENCI_NOMEM);
    INT_EQ(fl.live, 0);
  }
  OK(at > 1, "the rewrite allocates");
  for (i = 0; i < 4; i++) {
    fc_buf b;
    th_fault fl = {0, (long)i + 1, 0};
    fenci_alloc fa = {th_fault_fn, &fl};
    fc_buf_init(&b, &fa);
    if (fc_meta_lines(&b, m0, strlen(m0), keep_not_k, NULL) == 0) {
      fc_buf_free(&b);
      break;
    }
    fc_buf_free(&b);
    INT_EQ(fl.live, 0);
  }
  fc_buf_free(&mb);
  free(img);
}

int main(void) {
  test_crc();
  test_roundtrip();
  test_truncation();
  test_header_fields();
  test_section_table();
  test_random_edits();
  test_header_size();
  test_mapfile();
  test_rewrite();
  TEST_DONE();
}
