/* t2s.h - traditional -> simplified Chinese character mapping (OpenCC data). */
#ifndef FC_T2S_H
#define FC_T2S_H

#include <stdint.h>

/* The simplified form of traditional character cp, or cp itself when it has
 * no single-character mapping.  Thread-safe (a constant table). */
uint32_t fc_t2s(uint32_t cp);

#endif
