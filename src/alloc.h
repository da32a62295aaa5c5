/* alloc.h - allocator plumbing: every allocation in the library goes through
 * the caller's fenci_alloc (or malloc when none is given), so hosts such as
 * SQLite and Python keep their memory accounting and tests can inject faults. */
#ifndef FC_ALLOC_H
#define FC_ALLOC_H

#include <stddef.h>
#include "fenci.h"

/* Resolve a possibly-NULL allocator to a usable copy (malloc-backed default). */
fenci_alloc fc_alloc_resolve(const fenci_alloc *a);

/* Allocate n bytes (n == 0 allocates 1 byte); NULL on failure. */
void *fc_malloc(const fenci_alloc *a, size_t n);
/* Allocate n*size bytes, zeroed; NULL on failure or overflow. */
void *fc_calloc(const fenci_alloc *a, size_t n, size_t size);
/* Resize p to n bytes (n == 0 is treated as 1); NULL on failure, p untouched. */
void *fc_realloc(const fenci_alloc *a, void *p, size_t n);
/* Free p; NULL is a no-op. */
void fc_free(const fenci_alloc *a, void *p);
/* Grow an array of elem-sized items to hold at least need items; doubles.
 * Returns 0 on success, -1 on overflow or allocation failure (array untouched). */
int fc_grow(const fenci_alloc *a, void **arr, size_t *cap, size_t need, size_t elem);

/* Write a formatted message into err (errlen bytes, NUL-terminated); no-op
 * when err is NULL or errlen is 0. */
void fc_errf(char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
