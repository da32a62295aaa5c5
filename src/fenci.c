/* fenci.c - version, status strings and allocator plumbing. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

const char *fenci_rc_str(fenci_rc rc) {
  switch (rc) {
  case FENCI_OK: return "success";
  case FENCI_NOMEM: return "out of memory";
  case FENCI_IO: return "input/output error";
  case FENCI_BADFORMAT: return "malformed or corrupt data";
  case FENCI_BADVERSION: return "unsupported model file version";
  case FENCI_BADARG: return "invalid argument";
  case FENCI_STOPPED: return "stopped by callback";
  case FENCI_TOOSMALL: return "output array too small";
  }
  return "unknown status code";
}

int fenci_version(void) { return FENCI_VERSION; }

#define FC_STR2(x) #x
#define FC_STR(x) FC_STR2(x)
const char *fenci_version_string(void) {
  return FC_STR(FENCI_VERSION_MAJOR) "." FC_STR(FENCI_VERSION_MINOR) "." FC_STR(FENCI_VERSION_PATCH);
}

/* The default allocator: n == 0 frees, as the fenci_alloc contract says. */
static void *fc_alloc_default(void *ud, void *p, size_t n) {
  (void)ud;
  if (n == 0) {
    free(p);
    return NULL;
  }
  return realloc(p, n);
}

fenci_alloc fc_alloc_resolve(const fenci_alloc *a) {
  fenci_alloc r;
  if (a && a->fn) return *a;
  r.fn = fc_alloc_default;
  r.ud = NULL;
  return r;
}

void *fc_malloc(const fenci_alloc *a, size_t n) {
  if (n == 0) n = 1;
  if (a && a->fn) return a->fn(a->ud, NULL, n);
  return malloc(n);
}

void *fc_calloc(const fenci_alloc *a, size_t n, size_t size) {
  void *p;
  size_t tot;
  if (size && n > (size_t)-1 / size) return NULL;
  /* the default allocator's memory is the C library's: its calloc knows
   * fresh pages are zero and leaves them untouched until used */
  if (!a || !a->fn || a->fn == fc_alloc_default) return calloc(n ? n : 1, size ? size : 1);
  tot = n * size;
  p = fc_malloc(a, tot);
  if (p) memset(p, 0, tot > 0 ? tot : 1);
  return p;
}

void *fc_realloc(const fenci_alloc *a, void *p, size_t n) {
  if (n == 0) n = 1;
  if (a && a->fn) return a->fn(a->ud, p, n);
  return realloc(p, n);
}

void fc_free(const fenci_alloc *a, void *p) {
  if (!p) return;
  if (a && a->fn) {
    (void)a->fn(a->ud, p, 0);
    return;
  }
  free(p);
}

void fenci_free(const fenci_alloc *a, void *p) { fc_free(a, p); }

int fc_grow(const fenci_alloc *a, void **arr, size_t *cap, size_t need, size_t elem) {
  size_t nc;
  void *np;
  if (need <= *cap) return 0;
  nc = *cap ? *cap : 16;
  while (nc < need) {
    if (nc > ((size_t)-1 / 2) / elem) return -1;
    nc *= 2;
  }
  if (nc > (size_t)-1 / elem) return -1;
  np = fc_realloc(a, *arr, nc * elem);
  if (!np) return -1;
  *arr = np;
  *cap = nc;
  return 0;
}

void fc_errf(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  if (!err || errlen == 0) return;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}
