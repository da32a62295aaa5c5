/* fmt.h - the on-disk container shared by lexicons and trained models:
 * a 64-byte header, a section table, 16-byte aligned sections, all
 * little-endian, specified byte by byte in docs/FORMAT.md. */
#ifndef FC_FMT_H
#define FC_FMT_H

#include <stddef.h>
#include <stdint.h>
#include "fenci.h"
#include "buf.h"

#define FC_FMT_MAJOR 1
#define FC_FMT_MINOR 1
#define FC_FMT_MAX_SECTIONS 64

/* Little-endian readers over possibly unaligned bytes. */
static inline uint16_t fc_rd16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t fc_rd32(const uint8_t *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t fc_rd64(const uint8_t *p) { return (uint64_t)fc_rd32(p) | ((uint64_t)fc_rd32(p + 4) << 32); }

typedef struct fc_section {
  char tag[4];         /* four-character code, e.g. "LEXT" */
  uint32_t flags;      /* reserved, 0 */
  const uint8_t *data; /* points into the file image; 16-byte aligned relative to the image */
  size_t size;         /* bytes */
} fc_section;

typedef struct fc_file {
  const uint8_t *base;  /* the whole image */
  size_t size;          /* image size == header file_size */
  uint16_t major, minor;
  uint32_t n_sections;
  fc_section sec[FC_FMT_MAX_SECTIONS];
} fc_file;

/* Parses and validates an image: magic, version (same major, any minor
 * accepted; newer major -> FENCI_BADVERSION naming both), endianness and
 * float check values, file size, header CRC, section table (bounds with
 * overflow-safe arithmetic, alignment, no overlap with the header/table),
 * and when verify_crc is set the CRC of the body.  Unknown sections are kept
 * (readers skip what they do not know). */
fenci_rc fc_fmt_parse(fc_file *f, const void *buf, size_t len, int verify_crc, char *err, size_t errlen);

/* The first section with this tag, or NULL. */
const fc_section *fc_fmt_find(const fc_file *f, const char tag[4]);

/* Builder: add sections (copied), then finish into one image. */
typedef struct fc_writer {
  const fenci_alloc *a;
  uint32_t n;
  char tags[FC_FMT_MAX_SECTIONS][4];
  fc_buf body[FC_FMT_MAX_SECTIONS];
} fc_writer;

void fc_writer_init(fc_writer *w, const fenci_alloc *a);
/* FENCI_NOMEM or FENCI_BADARG (too many sections). */
fenci_rc fc_writer_add(fc_writer *w, const char tag[4], const void *data, size_t size);
/* Lays out header + table + sections, computes CRCs; *out allocated with w->a. */
fenci_rc fc_writer_finish(fc_writer *w, uint8_t **out, size_t *out_len);
void fc_writer_free(fc_writer *w);

/* CRC-32 (IEEE, reflected, as zlib's crc32), fast (slicing-by-8). Start with crc = 0. */
uint32_t fc_crc32(uint32_t crc, const void *p, size_t n);

/* A read-only file image: mmap'd where possible, else read into memory. */
typedef struct fc_mapping {
  const uint8_t *data;
  size_t size;
  int mapped;           /* 1: munmap on close; 0: fc_free */
  const fenci_alloc *a;
} fc_mapping;

fenci_rc fc_map_file(fc_mapping *m, const char *path, const fenci_alloc *a, char *err, size_t errlen);
void fc_unmap(fc_mapping *m);

#endif
