/* buf.c - growable byte buffer. */
#include <string.h>

#include "alloc.h"
#include "buf.h"

void fc_buf_init(fc_buf *b, const fenci_alloc *a) {
  b->data = NULL;
  b->len = b->cap = 0;
  b->a = a;
}

void fc_buf_free(fc_buf *b) {
  fc_free(b->a, b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}

int fc_buf_reserve(fc_buf *b, size_t extra) {
  void *p = b->data;
  if (extra > (size_t)-1 - b->len - 1) return -1;
  if (fc_grow(b->a, &p, &b->cap, b->len + extra + 1, 1)) return -1;
  b->data = p;
  return 0;
}

int fc_buf_put(fc_buf *b, const void *p, size_t n) {
  if (n == 0) return 0;
  if (fc_buf_reserve(b, n)) return -1;
  memcpy(b->data + b->len, p, n);
  b->len += n;
  return 0;
}

int fc_buf_putc(fc_buf *b, uint8_t c) { return fc_buf_put(b, &c, 1); }

int fc_buf_align(fc_buf *b, size_t align) {
  while (b->len & (align - 1))
    if (fc_buf_putc(b, 0)) return -1;
  return 0;
}

int fc_buf_u16(fc_buf *b, uint16_t v) {
  uint8_t t[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
  return fc_buf_put(b, t, 2);
}

int fc_buf_u32(fc_buf *b, uint32_t v) {
  uint8_t t[4];
  int i;
  for (i = 0; i < 4; i++) t[i] = (uint8_t)(v >> (8 * i));
  return fc_buf_put(b, t, 4);
}

int fc_buf_u64(fc_buf *b, uint64_t v) {
  uint8_t t[8];
  int i;
  for (i = 0; i < 8; i++) t[i] = (uint8_t)(v >> (8 * i));
  return fc_buf_put(b, t, 8);
}

const char *fc_buf_cstr(fc_buf *b) {
  if (fc_buf_reserve(b, 0)) return NULL;
  b->data[b->len] = 0;
  return (const char *)b->data;
}
