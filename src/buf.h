/* buf.h - a growable byte buffer with an explicit struct (no hidden headers). */
#ifndef FC_BUF_H
#define FC_BUF_H

#include <stddef.h>
#include <stdint.h>
#include "fenci.h"

typedef struct fc_buf {
  uint8_t *data;          /* bytes; not NUL-terminated unless fc_buf_cstr was called */
  size_t len;             /* bytes in use */
  size_t cap;             /* bytes allocated */
  const fenci_alloc *a;   /* allocator (NULL = malloc); must outlive the buffer */
} fc_buf;

void fc_buf_init(fc_buf *b, const fenci_alloc *a);
void fc_buf_free(fc_buf *b);
/* Ensure room for extra more bytes; 0 on success, -1 on failure. */
int fc_buf_reserve(fc_buf *b, size_t extra);
int fc_buf_put(fc_buf *b, const void *p, size_t n);
int fc_buf_putc(fc_buf *b, uint8_t c);
/* Append zero bytes until len is a multiple of align (a power of two). */
int fc_buf_align(fc_buf *b, size_t align);
/* Little-endian appenders. */
int fc_buf_u16(fc_buf *b, uint16_t v);
int fc_buf_u32(fc_buf *b, uint32_t v);
int fc_buf_u64(fc_buf *b, uint64_t v);
/* NUL-terminate (not counted in len); returns data or NULL on failure. */
const char *fc_buf_cstr(fc_buf *b);

#endif
