/* mapfile.c - a read-only file image: mmap where possible, else read into
 * memory with the caller's allocator.  Never prints; errors name the path. */
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

#if FC_MAP_POSIX
/* Reads the rest of fd into an allocated buffer; used when mmap fails or the
 * file is not a regular file (a pipe, a character device).  hint is the
 * expected size (0 if unknown). */
static fenci_rc fc_map_read_fd(fc_mapping *m, int fd, size_t hint, const char *path,
                               const fenci_alloc *a, char *err, size_t errlen) {
  uint8_t *buf = NULL;
  size_t cap = 0, len = 0;
  if (hint && fc_grow(a, (void **)&buf, &cap, hint + 1, 1)) goto nomem;
  for (;;) {
    ssize_t r;
    if (len == cap && fc_grow(a, (void **)&buf, &cap, len + 65536, 1)) goto nomem;
    r = read(fd, buf + len, cap - len);
    if (r < 0) {
      if (errno == EINTR) continue;
      fc_errf(err, errlen, "%s: read failed: %s", path, strerror(errno));
      fc_free(a, buf);
      return FENCI_IO;
    }
    if (r == 0) break;
    len += (size_t)r;
  }
  if (len == 0) {
    fc_free(a, buf);
    fc_errf(err, errlen, "%s: empty file", path);
    return FENCI_BADFORMAT;
  }
  m->data = buf;
  m->size = len;
  m->mapped = 0;
  return FENCI_OK;
nomem:
  fc_free(a, buf);
  fc_errf(err, errlen, "%s: out of memory reading the file", path);
  return FENCI_NOMEM;
}
#endif

fenci_rc fc_map_file(fc_mapping *m, const char *path, const fenci_alloc *a, char *err, size_t errlen) {
  if (!m) return FENCI_BADARG;
  m->data = NULL;
  m->size = 0;
  m->mapped = 0;
  m->a = a;
  if (!path || !*path) {
    fc_errf(err, errlen, "no file name given");
    return FENCI_BADARG;
  }
#if FC_MAP_POSIX
  {
    struct stat st;
    int fd, flags = O_RDONLY;
    fenci_rc rc;
    void *p;
#ifdef O_CLOEXEC
    flags |= O_CLOEXEC;
#endif
    do fd = open(path, flags); while (fd < 0 && errno == EINTR);
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
    /* Pipes, devices and files that report size 0 (as /proc files do):
     * read what comes; an empty read is "empty file". */
    if (!S_ISREG(st.st_mode) || st.st_size <= 0) {
      rc = fc_map_read_fd(m, fd, 0, path, a, err, errlen);
      close(fd);
      return rc;
    }
    if ((unsigned long long)st.st_size > (unsigned long long)((size_t)-1 >> 1)) {
      fc_errf(err, errlen, "%s: file too large (%lld bytes)", path, (long long)st.st_size);
      close(fd);
      return FENCI_IO;
    }
    p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p != MAP_FAILED) {
      close(fd);
      m->data = p;
      m->size = (size_t)st.st_size;
      m->mapped = 1;
      return FENCI_OK;
    }
    rc = fc_map_read_fd(m, fd, (size_t)st.st_size, path, a, err, errlen);
    close(fd);
    return rc;
  }
#else
  {
    FILE *fp = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t cap = 0, len = 0, r;
    if (!fp) {
      fc_errf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
      return FENCI_IO;
    }
    for (;;) {
      if (len == cap && fc_grow(a, (void **)&buf, &cap, len + 65536, 1)) {
        fclose(fp);
        fc_free(a, buf);
        fc_errf(err, errlen, "%s: out of memory reading the file", path);
        return FENCI_NOMEM;
      }
      r = fread(buf + len, 1, cap - len, fp);
      len += r;
      if (r == 0) break;
    }
    if (ferror(fp)) {
      fc_errf(err, errlen, "%s: read failed: %s", path, strerror(errno));
      fclose(fp);
      fc_free(a, buf);
      return FENCI_IO;
    }
    fclose(fp);
    if (len == 0) {
      fc_free(a, buf);
      fc_errf(err, errlen, "%s: empty file", path);
      return FENCI_BADFORMAT;
    }
    m->data = buf;
    m->size = len;
    return FENCI_OK;
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
    fc_free(m->a, (void *)(uintptr_t)m->data);
  }
  m->data = NULL;
  m->size = 0;
  m->mapped = 0;
}
