/* fuzz_model.c - libFuzzer harness: fenci_model_from_buffer on arbitrary
 * bytes.  Each input is tried twice: as it is, and (when it is at least a
 * header long) with the magic, version major, check values, file size and
 * both CRCs repaired, so the fuzzer gets past the checksums into the section
 * and trie validation.  A model that loads segments a few sentences in every
 * mode, with and without a user dictionary. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

uint32_t fc_crc32(uint32_t crc, const void *p, size_t n); /* internal, from libfenci.a */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fz_put32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
}

static void fz_try(const uint8_t *img, size_t size) {
  fenci_model *m = NULL;
  char err[128];
  fenci_rc rc = fenci_model_from_buffer(&m, img, size, NULL, err, sizeof err);
  if (rc != FENCI_OK) {
    if (m) abort();                     /* *out must be NULL on failure */
    if (memchr(err, 0, sizeof err) == NULL) abort(); /* message NUL-terminated */
    return;
  }
  (void)fenci_model_lexicon_size(m);
  (void)fenci_model_meta(m, NULL);
  (void)fenci_tag_name(m, 1);
  (void)fenci_tag_name(m, 65535);
  fz_segment_sentences(m);
  {
    fenci_dict *d = NULL;
    fenci_tagger *t = NULL;
    if (fenci_dict_new(&d, m, NULL) != FENCI_OK) abort();
    (void)fenci_dict_add(d, "大学生活", strlen("大学生活"), 0, NULL);
    (void)fenci_dict_add(d, "长江", strlen("长江"), 50, "n");
    if (fenci_tagger_new(&t, m, FENCI_MODE_ALL) != FENCI_OK) abort();
    if (fenci_tagger_set_dict(t, d) == FENCI_OK)
      fz_segment_checked(t, fz_sentences[1], strlen(fz_sentences[1]), 0);
    fenci_tagger_free(t);
    fenci_dict_free(d);
  }
  fenci_model_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint8_t magic[8] = {0x89, 'F', 'N', 'C', '\r', '\n', 0x1A, '\n'};
  uint8_t *img;
  if (size > (4u << 20)) return 0;
  img = malloc(size ? size : 1); /* malloc gives the 8-byte alignment the API needs */
  if (!img) return 0;
  if (size) memcpy(img, data, size);
  fz_try(img, size);
  if (size >= 64) {
    memcpy(img, magic, 8);
    img[8] = 1; /* major 1; the minor stays fuzzed */
    img[9] = 0;
    fz_put32(img + 12, 0x01020304u);
    memset(img + 16, 0, 8);
    fz_put32(img + 16, (uint32_t)size);
    fz_put32(img + 32, 0);
    fz_put32(img + 36, 0x3FF80000u);
    fz_put32(img + 28, fc_crc32(0, img + 64, size - 64));
    fz_put32(img + 40, fc_crc32(0, img, 40));
    fz_try(img, size);
  }
  free(img);
  return 0;
}
