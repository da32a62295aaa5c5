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
#define FC_FMT_MINOR 2
#define FC_FMT_MAX_SECTIONS 64

/* Little-endian readers over possibly unaligned bytes. */
static inline uint16_t fc_rd16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t fc_rd32(const uint8_t *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t fc_rd64(const uint8_t *p) { return (uint64_t)fc_rd32(p) | ((uint64_t)fc_rd32(p + 4) << 32); }

/* And the writers, for the model writers and trainers. */
static inline void fc_wr16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); }
static inline void fc_wr32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}
static inline void fc_wr64(uint8_t *p, uint64_t v) { fc_wr32(p, (uint32_t)v), fc_wr32(p + 4, (uint32_t)(v >> 32)); }

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

/* Checks the len bytes of a header at head as fc_fmt_parse would (magic,
 * version, byte order, float check, header CRC, reserved bytes) and gives
 * the file size it records.  Sizes a read from a pipe or device.
 * FENCI_OK, FENCI_BADFORMAT or FENCI_BADVERSION (message in err). */
fenci_rc fc_fmt_header_size(const void *head, size_t len, uint64_t *file_size, char *err, size_t errlen);

/* The header fields as stored, unchecked, for `fenci dump` to show a damaged file. */
typedef struct fc_header {
  int magic_ok;                 /* the 8 magic bytes are right */
  uint16_t major, minor;        /* format version */
  uint32_t byte_order;          /* 0x01020304 when right */
  int byte_order_ok;            /* byte_order is right */
  uint64_t file_size;           /* the size the writer recorded */
  uint32_t n_sections;          /* section table entries */
  uint32_t body_crc;            /* stored CRC-32 of bytes [64, file_size) */
  uint64_t float_bits;          /* 1.5 = 0x3FF8000000000000 when right */
  int float_ok;                 /* float_bits is right */
  uint32_t header_crc;          /* stored CRC-32 of bytes [0, 40) */
  uint32_t header_crc_computed; /* the same, computed */
  int reserved_zero;            /* bytes 44..63 are zero */
} fc_header;

/* One raw section-table entry. */
typedef struct fc_entry {
  char tag[4];     /* four-character code, as stored */
  uint32_t flags;  /* reserved, 0 */
  uint64_t offset; /* first byte of the section */
  uint64_t size;   /* bytes */
} fc_entry;

/* Decodes the header of buf[0..len) without judging it: 0, or -1 when len
 * is under 64.  Entry i of the section table likewise (-1 when it lies past
 * len or i >= FC_FMT_MAX_SECTIONS). */
int fc_fmt_header_decode(fc_header *h, const void *buf, size_t len);
int fc_fmt_entry_decode(fc_entry *e, const void *buf, size_t len, uint32_t i);

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

/* A new image of file f (NULL: no sections) with sections replaced: f's
 * sections in their order, except META and those tagged in tags[0..n),
 * then data[k] as section tags[k] for each k whose data[k] is not NULL
 * (so a NULL removes one), then META holding meta[0..meta_len).  Every
 * command that adds a table to a model writes it through this, so a
 * model's layout has one rule.  *out allocated with a. */
fenci_rc fc_fmt_rewrite(const fc_file *f, size_t n, const char *const *tags, const void *const *data,
                        const size_t *lens, const void *meta, size_t meta_len, const fenci_alloc *a, uint8_t **out,
                        size_t *out_len);

/* Appends to b the lines of META text m[0..len) for which keep(line,
 * length, ctx) is true, each ended by a newline; empty lines are dropped.
 * 0, or -1 when out of memory. */
int fc_meta_lines(fc_buf *b, const char *m, size_t len, int (*keep)(const char *line, size_t n, void *ctx),
                  void *ctx);

/* CRC-32 (IEEE, reflected, as zlib's crc32), fast (slicing-by-8). Start with crc = 0. */
uint32_t fc_crc32(uint32_t crc, const void *p, size_t n);

/* A read-only file image: mapped, or read into memory. */
typedef struct fc_mapping {
  const uint8_t *data;  /* the image, 8-byte aligned */
  size_t size;          /* bytes */
  int mapped;           /* 1: munmap on close; 0: fc_free(a, block) */
  void *block;          /* the allocation holding data when read (data may sit a few bytes in) */
  const fenci_alloc *a;
} fc_mapping;

/* Reads at most this much from a pipe or device (a model: the header gives
 * the size).  The shipped models are 11-19 MB and no real one comes near;
 * the image is held in memory, so a corrupt or hostile header must not make
 * us buffer gigabytes.  A regular file is mapped (or read) at any size. */
#define FC_MAP_STREAM_MAX ((size_t)1 << 30)

enum { FC_MAP_READ = 1 }; /* read into memory even where mmap works */

/* Opens the model container at path.  A regular file is mapped (with
 * FC_MAP_READ: read whole); a pipe, device or size-0 file (/proc) is read
 * header first, its size taken from the header (fc_fmt_header_size, at most
 * FC_MAP_STREAM_MAX), so /dev/zero fails after 64 bytes.  An empty file is
 * FENCI_BADFORMAT.  Errors name the path: FENCI_IO, FENCI_BADFORMAT,
 * FENCI_BADVERSION, FENCI_NOMEM, FENCI_BADARG. */
fenci_rc fc_map_file(fc_mapping *m, const char *path, unsigned flags, const fenci_alloc *a, char *err,
                     size_t errlen);
void fc_unmap(fc_mapping *m);

#endif
