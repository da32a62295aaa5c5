/* t2s.h - traditional -> simplified Chinese character mapping (OpenCC data). */
#ifndef FC_T2S_H
#define FC_T2S_H

#include <stdint.h>

/* The simplified form of traditional character cp, or cp itself when it has
 * no single-character mapping.  Thread-safe (a constant table). */
uint32_t fc_t2s(uint32_t cp);

/* Bit cp of the BMP is set when cp has a mapping (generated with the table). */
extern const uint32_t fc_t2s_bmp[2048];

/* fc_t2s for a BMP code point, with the common "no mapping" answer inline. */
static inline uint32_t fc_t2s_bmp_char(uint32_t cp) {
  return (fc_t2s_bmp[(cp >> 5) & 2047] >> (cp & 31) & 1) ? fc_t2s(cp) : cp;
}

#endif
