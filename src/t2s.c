/* t2s.c - traditional -> simplified characters by binary search over the
 * sorted table generated into t2s.inc (see tools/gen_t2s.py). */
#include <stddef.h>

#include "t2s.h"

static const uint32_t fc_t2s_table[][2] = {
#define FC_T2S_PAIRS
#include "t2s.inc"
#undef FC_T2S_PAIRS
};

const uint32_t fc_t2s_bmp[2048] = {
#define FC_T2S_BMP_BITS
#include "t2s.inc"
#undef FC_T2S_BMP_BITS
};

#define FC_T2S_N (sizeof fc_t2s_table / sizeof fc_t2s_table[0])

uint32_t fc_t2s(uint32_t cp) {
  size_t lo = 0, hi = FC_T2S_N;
  /* The table starts at U+346E: skip ASCII and everything below quickly. */
  if (cp < fc_t2s_table[0][0] || cp > fc_t2s_table[FC_T2S_N - 1][0]) return cp;
  if (cp < 0x10000 && !(fc_t2s_bmp[cp >> 5] >> (cp & 31) & 1)) return cp;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (fc_t2s_table[mid][0] < cp) lo = mid + 1;
    else hi = mid;
  }
  if (lo < FC_T2S_N && fc_t2s_table[lo][0] == cp) return fc_t2s_table[lo][1];
  return cp;
}
