/* mapfile.c - a read-only image of a model file: mapped (mmap) where
 * possible, else read into memory with the caller's allocator.  What is read
 * is bounded: a regular file by its size, a pipe or device by the size its
 * container header gives (at most FC_MAP_STREAM_MAX), so an endless input
 * such as /dev/zero is refused after its first 64 bytes.  Never prints;
 * errors name the path. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "fmt.h"

#if defined(_WIN32)
#define FC_MAP_POSIX 0
#else
#define FC_MAP_POSIX 1
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#define FC_MAP_HEAD 64           /* the container header */
#define FC_MAP_CHUNK (1u << 20)  /* read granularity */

#if FC_MAP_POSIX
typedef int fc_map_src;
/* Up to n bytes (n <= FC_MAP_CHUNK): the count, 0 at the end, -1 on error. */
static long fc_map_rd(fc_map_src fd, uint8_t *p, size_t n) {
  ssize_t r;
  do r = read(fd, p, n); while (r < 0 && errno == EINTR);
  return (long)r;
}
#else
typedef FILE *fc_map_src;
static long fc_map_rd(fc_map_src f, uint8_t *p, size_t n) {
  size_t r = fread(p, 1, n, f);
  return r == 0 && ferror(f) ? -1 : (long)r;
}
#endif

/* Reads from src until m->size == want or the end of the input.  m->block
 * (*cap bytes) grows as data arrives, doubling but never past want, so a
 * header that promises more than the input holds costs no memory. */
static fenci_rc fc_map_fill(fc_mapping *m, fc_map_src src, size_t want, size_t *cap, const char *path, char *err,
                            size_t errlen) {
  while (m->size < want) {
    size_t n = want - m->size;
    long r;
    if (n > FC_MAP_CHUNK) n = FC_MAP_CHUNK;
    if (m->size + n > *cap) {
      size_t nc = 2 * *cap;
      void *b;
      if (nc < m->size + n) nc = m->size + n;
      if (nc < FC_MAP_CHUNK) nc = FC_MAP_CHUNK;
      if (nc > want) nc = want;
      b = fc_realloc(m->a, m->block, nc);
      if (!b) {
        fc_errf(err, errlen, "%s: out of memory reading the file", path);
        return FENCI_NOMEM;
      }
      m->block = b;
      *cap = nc;
    }
    r = fc_map_rd(src, (uint8_t *)m->block + m->size, n);
    if (r < 0) {
      fc_errf(err, errlen, "%s: read failed: %s", path, strerror(errno));
      return FENCI_IO;
    }
    if (r == 0) break;
    m->size += (size_t)r;
  }
  return FENCI_OK;
}

/* Reads the image into memory.  known: the input is a regular file of size
 * bytes; otherwise a stream, read header first and sized by the header. */
static fenci_rc fc_map_read(fc_mapping *m, fc_map_src src, int known, size_t size, const char *path, char *err,
                            size_t errlen) {
  size_t cap = 0;
  fenci_rc rc;
  char e2[200];
  if (known) {
    /* the size is the file's own: one block of exactly that */
    m->block = fc_malloc(m->a, size);
    if (!m->block) {
      fc_errf(err, errlen, "%s: out of memory reading the file (%zu bytes)", path, size);
      return FENCI_NOMEM;
    }
    cap = size;
    rc = fc_map_fill(m, src, size, &cap, path, err, errlen);
  } else {
    uint64_t total;
    rc = fc_map_fill(m, src, FC_MAP_HEAD, &cap, path, err, errlen);
    /* a shorter input is all there is: the parser says what is wrong */
    if (rc == FENCI_OK && m->size == FC_MAP_HEAD) {
      rc = fc_fmt_header_size(m->block, m->size, &total, e2, sizeof e2);
      if (rc != FENCI_OK) fc_errf(err, errlen, "%s: %s", path, e2);
      else if (total > FC_MAP_STREAM_MAX) {
        fc_errf(err, errlen, "%s: not a regular file, and its header gives %llu bytes, more than the %zu MiB a model "
                "read from a pipe or device may have", path, (unsigned long long)total, FC_MAP_STREAM_MAX >> 20);
        rc = FENCI_IO;
      } else {
        rc = fc_map_fill(m, src, (size_t)total, &cap, path, err, errlen);
        if (rc == FENCI_OK && m->size == total) {
          uint8_t extra;
          long r = fc_map_rd(src, &extra, 1);
          if (r > 0) {
            fc_errf(err, errlen, "%s: trailing garbage: more than the %llu bytes the header gives", path,
                    (unsigned long long)total);
            rc = FENCI_BADFORMAT;
          }
        }
      }
    }
  }
  if (rc == FENCI_OK && m->size == 0) {
    fc_errf(err, errlen, "%s: empty file", path);
    rc = FENCI_BADFORMAT;
  }
  /* the container needs 8-byte alignment; a caller's allocator may give less */
  if (rc == FENCI_OK && ((uintptr_t)m->block & 7)) {
    uint8_t *b = fc_malloc(m->a, m->size + 7), *d;
    if (!b) {
      fc_errf(err, errlen, "%s: out of memory reading the file", path);
      rc = FENCI_NOMEM;
    } else {
      d = b + ((8 - ((uintptr_t)b & 7)) & 7);
      memcpy(d, m->block, m->size);
      fc_free(m->a, m->block);
      m->block = b;
      m->data = d;
    }
  } else if (rc == FENCI_OK) {
    m->data = m->block;
  }
  if (rc != FENCI_OK) {
    fc_free(m->a, m->block);
    m->block = NULL;
    m->data = NULL;
    m->size = 0;
  }
  return rc;
}

fenci_rc fc_map_file(fc_mapping *m, const char *path, unsigned flags, const fenci_alloc *a, char *err,
                     size_t errlen) {
  if (!m) return FENCI_BADARG;
  memset(m, 0, sizeof *m);
  m->a = a;
  if (!path || !*path) {
    fc_errf(err, errlen, "no file name given");
    return FENCI_BADARG;
  }
#if FC_MAP_POSIX
  {
    struct stat st;
    int fd, oflags = O_RDONLY, known;
    fenci_rc rc;
#ifdef O_CLOEXEC
    oflags |= O_CLOEXEC;
#endif
    do fd = open(path, oflags); while (fd < 0 && errno == EINTR);
    if (fd < 0) {
      fc_errf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
      return FENCI_IO;
    }
    if (fstat(fd, &st) != 0) {
      fc_errf(err, errlen, "%s: cannot stat: %s", path, strerror(errno));
      close(fd);
      return FENCI_IO;
    }
    if (S_ISDIR(st.st_mode)) {
      fc_errf(err, errlen, "%s: is a directory: %s", path, strerror(EISDIR));
      close(fd);
      return FENCI_IO;
    }
    /* pipes, devices and files that report size 0 (as /proc files do) are
     * streams: their size comes from the header */
    known = S_ISREG(st.st_mode) && st.st_size > 0;
    if (known && (unsigned long long)st.st_size > (unsigned long long)((size_t)-1 >> 1)) {
      fc_errf(err, errlen, "%s: file too large (%lld bytes)", path, (long long)st.st_size);
      close(fd);
      return FENCI_IO;
    }
    if (known && !(flags & FC_MAP_READ)) {
      void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p != MAP_FAILED) {
        close(fd);
        m->data = p;
        m->size = (size_t)st.st_size;
        m->mapped = 1;
        return FENCI_OK;
      }
    }
    rc = fc_map_read(m, fd, known, known ? (size_t)st.st_size : 0, path, err, errlen);
    close(fd);
    return rc;
  }
#else
  {
    /* no stat here: every file is read as a stream, sized by its header */
    FILE *fp = fopen(path, "rb");
    fenci_rc rc;
    (void)flags;
    if (!fp) {
      fc_errf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
      return FENCI_IO;
    }
    rc = fc_map_read(m, fp, 0, 0, path, err, errlen);
    fclose(fp);
    return rc;
  }
#endif
}

void fc_unmap(fc_mapping *m) {
  if (!m || !m->data) return;
#if FC_MAP_POSIX
  if (m->mapped) {
    munmap((void *)(uintptr_t)m->data, m->size);
  } else
#endif
  {
    fc_free(m->a, m->block);
  }
  m->data = NULL;
  m->block = NULL;
  m->size = 0;
  m->mapped = 0;
}
