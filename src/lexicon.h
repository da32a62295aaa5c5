/* lexicon.h - lexicon source parsing and compilation into container sections.
 * Source lines: "word [freq [tag]]"; see fenci_lexicon_compile in fenci.h. */
#ifndef FC_LEXICON_H
#define FC_LEXICON_H

#include <stddef.h>
#include <stdint.h>
#include "fenci.h"

/* One parsed source line. word points into the source text. */
typedef struct fc_lexline {
  const uint8_t *word;  /* UTF-8 bytes, not NUL-terminated */
  size_t word_len;      /* 1..255 */
  double freq;          /* >= 0; 0 when the line has no frequency */
  int has_freq;         /* 1 when a frequency was given */
  const uint8_t *tag;   /* tag bytes or NULL */
  size_t tag_len;       /* 0..15 */
} fc_lexline;

/* Parses line[0..len) (no line end).  Returns 1 for an entry, 0 for a blank or
 * comment line, -1 for a malformed line (reason in err). */
int fc_lexline_parse(const uint8_t *line, size_t len, fc_lexline *out, char *err, size_t errlen);

/* Iterates over the lines of text: returns 1 and the next line (without its
 * "\n" or "\r\n") or 0 at the end.  *pos starts at 0. */
int fc_next_line(const uint8_t *text, size_t len, size_t *pos, const uint8_t **line, size_t *line_len);

/* LEXH section: fixed lexicon header. */
#define FC_LEXH_SIZE 32
typedef struct fc_lexh {
  uint32_t n_words;   /* words in LEXT/LEXC/LEXG */
  uint32_t n_tags;    /* names in TAGS */
  double total_freq;  /* sum of all word frequencies */
  float oov_cost;     /* cost of one character that is no lexicon word */
  float max_cost;     /* largest word cost in LEXC */
} fc_lexh;

/* The lexicon id (LEXH bytes 24..27): the CRC-32 of the lexicon's other
 * sections (tags and bytes, in file order) and LEXH's first 24 bytes, never
 * 0.  A trained model that references a lexicon file (section LREF) stores
 * the id it was trained with, so a different lexicon is refused at open
 * instead of silently giving wrong features; adding sections that are not
 * part of the lexicon (keywords, taggers) to that file leaves it unchanged. */
#define FC_LEXH_ID_OFF 24
int fc_lexicon_section(const char tag[4]); /* 1 for LEXT LEX2 LEXC LEXG TAGS HMMC */
uint32_t fc_lexicon_id_add(uint32_t crc, const char tag[4], const void *data, size_t size);
static inline uint32_t fc_lexicon_id_final(uint32_t crc) { return crc ? crc : 1u; }

#endif
