/* fuzz_numex.c - libFuzzer harness: the time and quantity recogniser
 * (src/numex.c) on arbitrary bytes.  Aborts when the scan breaks its
 * contract: spans non-empty, inside the text, in order, not overlapping;
 * units inside their spans; known types; iso terminated; finite values;
 * and the same result on a second scan (no hidden state). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "numex.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct fz_nx {
  size_t size, last_e, n;
  uint64_t hash; /* of every field, to compare two scans */
} fz_nx;

static uint64_t fz_mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h;
}

static int fz_check(void *ctx, const fc_numex *x) {
  fz_nx *c = ctx;
  uint64_t bits;
  if (!(x->s < x->e) || x->e > c->size || x->s < c->last_e) abort();
  if (x->us > x->ue || (x->us < x->ue && (x->us < x->s || x->ue > x->e))) abort();
  if (x->type < FC_NX_TIME || x->type > FC_NX_QUANTITY) abort();
  if (!memchr(x->iso, 0, sizeof x->iso)) abort();
  if (!isfinite(x->value)) abort();
  if (x->type == FC_NX_TIME && x->has_value && !x->iso[0]) abort();
  memcpy(&bits, &x->value, sizeof bits);
  c->hash = fz_mix(c->hash, x->s);
  c->hash = fz_mix(c->hash, x->e);
  c->hash = fz_mix(c->hash, (uint64_t)x->type * 64 + (uint64_t)x->has_value * 32 + (uint64_t)x->relative * 16 +
                                (uint64_t)x->approx * 8 + (uint64_t)x->ordinal * 4 + (uint64_t)x->duration);
  c->hash = fz_mix(c->hash, bits);
  c->hash = fz_mix(c->hash, x->us * 31 + x->ue);
  c->last_e = x->e;
  c->n++;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_nx a, b;
  char *copy = malloc(size ? size : 1); /* exact size: ASan sees any overread */
  if (!copy) return 0;
  if (size) memcpy(copy, data, size);
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  a.size = b.size = size;
  if (fc_numex_scan(copy, size, fz_check, &a) != FENCI_OK) abort();
  if (fc_numex_scan(copy, size, fz_check, &b) != FENCI_OK) abort();
  if (a.n != b.n || a.hash != b.hash) abort();
  free(copy);
  return 0;
}
